//! The bot protocol and the arena: well-behaved external bots play; bots that crash, time
//! out, answer garbage or illegal moves lose by forfeit with a clear reason, and the arena
//! carries on.

use std::path::PathBuf;

use salpakan_ai::BotSpec;
use salpakan_ai::arena::{ArenaConfig, run};
use salpakan_engine::{EndReason, GameKind, Record, Seat};

/// A small bot program with several ways to misbehave.
const BOT: &str = r#"
import json, sys
mode = sys.argv[1]
turns = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        if mode == "crash_at_start":
            sys.exit(3)
        print(json.dumps({"setup": None}), flush=True)
    elif msg["type"] == "turn":
        turns += 1
        if mode == "crash" and turns == 3:
            sys.stderr.write("boom: something broke\n")
            sys.exit(2)
        if mode == "slow" and turns == 2:
            import time; time.sleep(5)
        if mode == "illegal" and turns == 2:
            print(json.dumps({"move": "a1-a9"}), flush=True)
            continue
        if mode == "garbage" and turns == 2:
            print("I resign, maybe", flush=True)
            continue
        print(json.dumps({"move": msg["legal_moves"][0]}), flush=True)
    elif msg["type"] == "end":
        break
"#;

fn bot_file() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("salpakan-ai-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bot.py");
    std::fs::write(&path, BOT).unwrap();
    path
}

fn ext(mode: &str, timeout: u64) -> BotSpec {
    format!(
        "cmd:\"python3 {} {mode}\",timeout={timeout}",
        bot_file().display()
    )
    .parse()
    .unwrap()
}

fn arena(
    kind: GameKind,
    bots: Vec<BotSpec>,
    games: u32,
) -> (salpakan_ai::arena::ArenaReport, PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "salpakan-ai-records-{}-{}-{}",
        std::process::id(),
        kind,
        bots.len()
    ));
    let mut cfg = ArenaConfig::new(kind, bots);
    cfg.games = games;
    cfg.jobs = 2;
    cfg.records = Some(dir.clone());
    (run(&cfg, &|_, _| {}).unwrap(), dir)
}

#[test]
fn crashing_bot_forfeits_and_the_arena_carries_on() {
    let bots = vec![
        "random".parse().unwrap(),
        ext("crash", 3000),
        ext("crash_at_start", 3000),
    ];
    let (report, dir) = arena(GameKind::Generals, bots, 2);
    assert_eq!(
        report.games.len(),
        6,
        "every game of the round robin was played"
    );
    for g in &report.games {
        let crasher = Seat::BOTH
            .into_iter()
            .find(|&s| g.seats[s.index()] != 0)
            .unwrap();
        let both_crash = g.seats.iter().all(|&b| b != 0);
        if both_crash || g.seats.contains(&2) || g.seats.contains(&1) {
            assert_eq!(g.outcome.reason, EndReason::Forfeit, "{g:?}");
        }
        let t = g.termination.as_deref().unwrap();
        assert!(t.contains("forfeits"), "{t}");
        assert!(t.contains("exited"), "{t}");
        let _ = crasher;
        // The record says why.
        let text = std::fs::read_to_string(g.record.as_ref().unwrap()).unwrap();
        let rec = Record::parse(&text).unwrap();
        assert!(rec.tag("Termination").unwrap().contains("exited"));
        assert_eq!(rec.tag("Reason"), Some("forfeit"));
        salpakan_engine::replay_record(&rec).unwrap();
    }
    // The crash reason carries the program's last error line.
    assert!(
        report
            .games
            .iter()
            .any(|g| g.termination.as_deref().unwrap().contains("boom"))
    );
    let random = report
        .standings
        .iter()
        .find(|s| s.bot.to_string() == "random")
        .unwrap();
    assert_eq!(random.wins, 4);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn slow_garbage_and_illegal_answers_forfeit_with_a_clear_reason() {
    for (mode, timeout, words) in [
        ("slow", 1500, "no answer within 1500 ms"),
        ("garbage", 10_000, "bad answer"),
        ("illegal", 10_000, "illegal move \"a1-a9\""),
    ] {
        let bots = vec!["random".parse().unwrap(), ext(mode, timeout)];
        let (report, dir) = arena(GameKind::Banqi, bots, 2);
        for g in &report.games {
            assert_eq!(g.outcome.reason, EndReason::Forfeit);
            let loser = if g.seats[0] == 1 {
                Seat::First
            } else {
                Seat::Second
            };
            assert_eq!(g.outcome.winner, Some(loser.other()));
            let t = g.termination.as_deref().unwrap();
            assert!(t.contains(words), "{mode}: {t}");
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn a_well_behaved_external_bot_plays_whole_games() {
    let bots = vec!["random".parse().unwrap(), ext("good", 3000)];
    let (report, dir) = arena(GameKind::Stratego, bots, 2);
    for g in &report.games {
        assert_ne!(g.outcome.reason, EndReason::Forfeit, "{g:?}");
        assert!(g.plies > 0);
    }
    let table = report.table();
    assert!(table.contains("elo"), "{table}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_elo_ladder_orders_bots_by_strength() {
    // a beats b 9-1, b beats c 9-1.
    let points = vec![
        vec![0.0, 9.0, 0.0],
        vec![1.0, 0.0, 9.0],
        vec![0.0, 1.0, 0.0],
    ];
    let played = vec![
        vec![0.0, 10.0, 0.0],
        vec![10.0, 0.0, 10.0],
        vec![0.0, 10.0, 0.0],
    ];
    let (r, ci) = salpakan_ai::arena::elo(&points, &played);
    assert_eq!(r[0], 0.0);
    assert!(r[1] < -150.0 && r[2] < r[1] - 150.0, "{r:?}");
    assert!(ci.iter().all(|c| c.is_finite() && *c > 50.0), "{ci:?}");
}
