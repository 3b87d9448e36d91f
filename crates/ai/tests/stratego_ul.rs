//! Bots play Stratego Ultimate Lightning legally to the end, rescues included.

use salpakan_ai::{BotSpec, choose_move, choose_setup};
use salpakan_engine::{GameKind, Seat};

fn spec(s: &str) -> BotSpec {
    s.parse().unwrap()
}

/// Plays one game between `pair` and returns (whether it ended, rescues made).
fn play(pair: [&str; 2], seed: u64, quiet: u32) -> (bool, usize) {
    let kind = GameKind::Stratego;
    let bots = pair.map(spec);
    let opts = serde_json::json!({"army": "ultimate_lightning", "max_quiet_plies": quiet});
    let mut setups = serde_json::Map::new();
    for s in Seat::BOTH {
        let v = choose_setup(&bots[s.index()], kind, &opts, s, seed).unwrap();
        kind.check_setup(&opts, s, &v).unwrap();
        setups.insert(kind.seat_name(s).into(), v);
    }
    let mut req = serde_json::Map::new();
    req.insert("setups".into(), setups.into());
    let mut m = kind.new_match(&opts, &req, seed).unwrap();
    let mut rescues = 0;
    while let Some(s) = m.to_move() {
        let mv = choose_move(&bots[s.index()], m.as_ref(), s, seed ^ u64::from(m.ply())).unwrap();
        assert!(m.legal_moves().contains(&mv), "{mv} is not legal");
        rescues += usize::from(mv.contains('+'));
        m.play_text(&mv).unwrap();
    }
    (m.to_move().is_none(), rescues)
}

#[test]
fn ul_random_and_greedy_bots_finish_games_and_make_rescues() {
    let mut rescues = 0;
    for seed in 0..6 {
        let (ended, r) = play(["random", "greedy:samples=2"], seed, 200);
        assert!(ended);
        rescues += r;
        let (ended, r) = play(["greedy:samples=2", "random"], seed, 200);
        assert!(ended);
        rescues += r;
    }
    assert!(rescues > 0, "bots choose rescues");
}

#[test]
fn ul_mcts_bot_finishes_games_with_legal_moves() {
    for seed in 0..2 {
        let (ended, _) = play(["mcts:iters=30", "random"], seed, 60);
        assert!(ended);
    }
}
