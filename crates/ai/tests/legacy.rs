//! The arena hosting old programs (`ucc:"..."`, `ntu:"..."`), against the test programs of
//! `tests/support/legacy_testbot.rs`: correct ones play whole games; ones that play illegal
//! moves, answer garbage, crash or hang lose by forfeit, are counted, and never hang the
//! arena; moves refused by rules the old protocol does not know are replaced and counted.

use salpakan_ai::BotSpec;
use salpakan_ai::arena::{ArenaConfig, ArenaReport, run};
use salpakan_engine::{EndReason, GameKind, Seat};

const TESTBOT: &str = env!("CARGO_BIN_EXE_legacy-testbot");

fn arena(kind: GameKind, program: &str, games: u32) -> ArenaReport {
    let bots = vec![
        program.parse::<BotSpec>().expect("spec parses"),
        "random".parse().expect("random"),
    ];
    let cfg = ArenaConfig {
        games,
        seed: 11,
        max_plies: 400,
        ..ArenaConfig::new(kind, bots)
    };
    run(&cfg, &|_, _| {}).expect("the arena runs")
}

/// The program's seat in a game (the program is bot 0).
fn program_seat(g: &salpakan_ai::arena::GameResult) -> Seat {
    if g.seats[0] == 0 {
        Seat::First
    } else {
        Seat::Second
    }
}

/// Every game was lost by the program by forfeit, with `why` in the termination.
fn all_forfeited(r: &ArenaReport, why: &str) {
    for g in &r.games {
        let me = program_seat(g);
        assert_eq!(g.outcome.reason, EndReason::Forfeit, "game {}", g.index);
        assert_eq!(g.outcome.winner, Some(me.other()), "game {}", g.index);
        let t = g.termination.as_deref().unwrap_or("");
        assert!(t.contains(why), "termination {t:?} lacks {why:?}");
    }
}

fn incidents(r: &ArenaReport) -> salpakan_ai::legacy::Incidents {
    r.standings
        .iter()
        .find(|s| s.bot.is_external())
        .expect("the program's line")
        .incidents
}

#[test]
fn ucc_agent_plays_whole_games_without_incident() {
    let r = arena(
        GameKind::Stratego,
        &format!("ucc:\"{TESTBOT} ucc simple 3\""),
        2,
    );
    for g in &r.games {
        assert_ne!(g.outcome.reason, EndReason::Forfeit, "{:?}", g.termination);
        assert!(g.plies > 20);
    }
    let i = incidents(&r);
    assert_eq!(
        (i.illegal, i.malformed, i.timeouts, i.crashes),
        (0, 0, 0, 0)
    );
    assert!(r.table().contains("refereeing of legacy programs"));
}

#[test]
fn ucc_moves_refused_by_the_two_squares_rule_are_replaced_and_counted() {
    let r = arena(
        GameKind::Stratego,
        &format!("ucc:\"{TESTBOT} ucc shuffle 5\""),
        2,
    );
    for g in &r.games {
        assert_ne!(g.outcome.reason, EndReason::Forfeit, "{:?}", g.termination);
    }
    let i = incidents(&r);
    assert!(i.two_squares > 0, "{i:?}");
    assert_eq!((i.illegal, i.malformed), (0, 0));
    assert!(
        r.table()
            .contains(&format!("two-squares refusals {}", i.two_squares))
    );
    // The records hold the moves played (the replacements) and say what was counted.
    let dir = std::env::temp_dir().join(format!("salpakan-legacy-rec-{}", std::process::id()));
    let cfg = ArenaConfig {
        games: 1,
        seed: 11,
        max_plies: 200,
        records: Some(dir.clone()),
        ..ArenaConfig::new(
            GameKind::Stratego,
            vec![
                format!("ucc:\"{TESTBOT} ucc shuffle 5\"").parse().unwrap(),
                "random".parse().unwrap(),
            ],
        )
    };
    let r = run(&cfg, &|_, _| {}).unwrap();
    let path = r.games[0].record.clone().expect("written");
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        text.contains("[Refereeing \"red: two-squares refusals"),
        "{text}"
    );
    let record = salpakan_engine::Record::parse(&text).expect("a record");
    let replayed = salpakan_engine::replay_record(&record).expect("the record replays");
    assert_eq!(replayed.ply(), r.games[0].plies);
}

#[test]
fn ucc_move_illegal_under_the_protocols_own_rules_forfeits_and_is_counted() {
    let r = arena(
        GameKind::Stratego,
        &format!("ucc:\"{TESTBOT} ucc illegal 3 4\""),
        2,
    );
    all_forfeited(&r, "cannot move");
    assert_eq!(incidents(&r).illegal, 2);
}

#[test]
fn ucc_malformed_line_forfeits_and_is_counted() {
    let r = arena(
        GameKind::Stratego,
        &format!("ucc:\"{TESTBOT} ucc garbage 3 4\""),
        2,
    );
    all_forfeited(&r, "HELLO WORLD");
    assert_eq!(incidents(&r).malformed, 2);
}

#[test]
fn ucc_setup_without_the_whole_army_forfeits_and_is_counted() {
    let r = arena(
        GameKind::Stratego,
        &format!("ucc:\"{TESTBOT} ucc badsetup\""),
        2,
    );
    all_forfeited(&r, "bad setup");
    assert_eq!(incidents(&r).illegal, 2);
    for g in &r.games {
        assert_eq!(g.plies, 0);
    }
}

#[test]
fn ucc_surrender_resigns_the_game_and_is_counted() {
    let r = arena(
        GameKind::Stratego,
        &format!("ucc:\"{TESTBOT} ucc surrender 3 4\""),
        2,
    );
    for g in &r.games {
        assert_eq!(g.outcome.reason, EndReason::Resignation);
        assert_eq!(g.outcome.winner, Some(program_seat(g).other()));
        assert!(
            g.termination
                .as_deref()
                .unwrap_or("")
                .contains("resigns: SURRENDER")
        );
    }
    assert_eq!(incidents(&r).resignations, 2);
}

#[test]
fn ucc_program_that_exits_mid_game_forfeits_and_is_counted() {
    let r = arena(
        GameKind::Stratego,
        &format!("ucc:\"{TESTBOT} ucc crash 3 4\""),
        2,
    );
    all_forfeited(&r, "exit status: 3");
    assert_eq!(incidents(&r).crashes, 2);
}

/// A program that stops answering loses on time, and its process is killed and reaped: no
/// process (not even a zombie) is left once the arena returns. With `shell`, the program is
/// started by a shell command (`cd dir && ...`), whose whole process group is killed.
fn hanging_program_is_killed_and_reaped(kind: GameKind, protocol: &str, shell: bool) {
    let dir = std::env::temp_dir().join(format!(
        "salpakan-legacy-hang-{protocol}-{shell}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("pid");
    let program = format!(
        "{protocol}:\"{}env LEGACY_TESTBOT_PIDFILE={} {TESTBOT} {protocol} hang 3 2\",timeout=300",
        if shell { "cd / && " } else { "" },
        pidfile.display()
    );
    let r = arena(kind, &program, 1);
    all_forfeited(&r, "no answer within 300 ms");
    assert_eq!(incidents(&r).timeouts, 1);
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    if cfg!(target_os = "linux") {
        // A grandchild (shell case) is reaped by init, a moment after it is killed.
        let stat = format!("/proc/{}/stat", pid.trim());
        let gone = || {
            std::fs::read_to_string(&stat).map_or(true, |s| {
                s.rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z')
                    && shell
            })
        };
        let mut tries = 0;
        while !gone() && tries < 100 {
            std::thread::sleep(std::time::Duration::from_millis(10));
            tries += 1;
        }
        assert!(gone(), "process {pid} is still running");
    }
}

#[test]
fn ucc_program_that_hangs_times_out_and_is_killed_and_reaped() {
    hanging_program_is_killed_and_reaped(GameKind::Stratego, "ucc", false);
}

#[test]
fn ucc_program_started_by_a_shell_command_that_hangs_is_killed_with_its_shell() {
    hanging_program_is_killed_and_reaped(GameKind::Stratego, "ucc", true);
}

#[test]
fn ntu_engine_plays_whole_games_without_incident() {
    let r = arena(
        GameKind::Banqi,
        &format!("ntu:\"{TESTBOT} ntu simple 3\""),
        4,
    );
    for g in &r.games {
        assert_ne!(g.outcome.reason, EndReason::Forfeit, "{:?}", g.termination);
        assert!(g.plies > 20);
    }
    assert!(incidents(&r).is_empty(), "{:?}", incidents(&r));
}

#[test]
fn ntu_move_illegal_under_the_protocols_own_rules_forfeits_and_is_counted() {
    let r = arena(
        GameKind::Banqi,
        &format!("ntu:\"{TESTBOT} ntu illegal 3 4\""),
        2,
    );
    all_forfeited(&r, "face down");
    assert_eq!(incidents(&r).illegal, 2);
}

#[test]
fn ntu_malformed_answer_forfeits_and_is_counted() {
    let r = arena(
        GameKind::Banqi,
        &format!("ntu:\"{TESTBOT} ntu garbage 3 4\""),
        2,
    );
    all_forfeited(&r, "HELLO");
    assert_eq!(incidents(&r).malformed, 2);
}

#[test]
fn ntu_engine_that_exits_mid_game_forfeits_and_is_counted() {
    let r = arena(
        GameKind::Banqi,
        &format!("ntu:\"{TESTBOT} ntu crash 3 4\""),
        2,
    );
    all_forfeited(&r, "exit status: 3");
    assert_eq!(incidents(&r).crashes, 2);
}

#[test]
fn ntu_engine_that_hangs_times_out_and_is_killed_and_reaped() {
    hanging_program_is_killed_and_reaped(GameKind::Banqi, "ntu", false);
}

#[test]
fn legacy_programs_only_play_rules_their_protocol_can_say() {
    let ucc: BotSpec = format!("ucc:\"{TESTBOT} ucc simple\"").parse().unwrap();
    let ntu: BotSpec = format!("ntu:\"{TESTBOT} ntu simple\"").parse().unwrap();
    let random: BotSpec = "random".parse().unwrap();
    let mut cfg = ArenaConfig::new(GameKind::Banqi, vec![ucc, random.clone()]);
    assert!(
        run(&cfg, &|_, _| {}).is_err(),
        "ucc programs play Stratego only"
    );
    cfg = ArenaConfig::new(GameKind::Banqi, vec![ntu, random]);
    cfg.spec =
        salpakan_engine::GameSpec::from_text(GameKind::Banqi, "chain_captures=true").unwrap();
    let e = run(&cfg, &|_, _| {}).unwrap_err().to_string();
    assert!(e.contains("chain_captures"), "{e}");
}

#[test]
fn ucc_and_ntu_bot_specs_parse_and_print_back() {
    for text in [
        "ucc:\"./agent -x\"",
        "ucc:\"python3 -u vixen.py\",timeout=300",
        "ntu:\"./engine\",timeout=100,clock=60000",
    ] {
        let s: BotSpec = text.parse().unwrap();
        assert_eq!(s.to_string(), text);
        assert!(s.is_external());
    }
    assert!("ntu:\"x\",depth=3".parse::<BotSpec>().is_err());
    assert!("ucc:\"x\",clock=3".parse::<BotSpec>().is_err());
    assert!("ucc:x".parse::<BotSpec>().is_err());
    let list = BotSpec::parse_list("random,ucc:\"a,b\",timeout=5,ntu:\"c\"").unwrap();
    assert_eq!(list.len(), 3);
    assert_eq!(list[1].param("timeout"), Some(5));
}

#[test]
fn ntu_engine_loses_on_time_when_its_game_clock_runs_out() {
    let r = arena(
        GameKind::Banqi,
        &format!("ntu:\"{TESTBOT} ntu hang 3 2\",timeout=60000,clock=400"),
        1,
    );
    all_forfeited(&r, "no answer within");
    assert_eq!(incidents(&r).timeouts, 1);
    // The limit was what was left on the clock, not the per-answer limit.
    let t = r.games[0].termination.clone().unwrap_or_default();
    let ms: u64 = t
        .split("no answer within ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no limit in {t:?}"));
    assert!(ms <= 400, "{t}");
}
