//! Bots play Stratego Ultimate Lightning legally to the end, rescues included.

use salpakan_ai::{BotSpec, choose_move, choose_setup};
use salpakan_engine::{GameKind, Seat, wire};

fn spec(s: &str) -> BotSpec {
    s.parse().unwrap()
}

/// Plays one game between `pair` and returns (whether it ended, rescues made).
fn play(pair: [&str; 2], seed: u64, quiet: u32) -> (bool, usize) {
    let kind = GameKind::Stratego;
    let bots = pair.map(spec);
    let opts = wire::spec_from_json(
        kind,
        &serde_json::json!({"army": "ultimate_lightning", "max_quiet_plies": quiet}),
    )
    .unwrap();
    let setups = Seat::BOTH.map(|s| {
        let v = choose_setup(&bots[s.index()], &opts, s, seed).unwrap();
        wire::setup_from_json(&opts, s, &wire::setup_json(&v)).unwrap()
    });
    let [red, blue] = &setups;
    let mut m = opts.new_match([Some(red), Some(blue)], seed).unwrap();
    let mut rescues = 0;
    while let Some(s) = m.to_move() {
        let mv = choose_move(&bots[s.index()], &m, s, seed ^ u64::from(m.ply())).unwrap();
        assert!(m.legal_moves().contains(&mv), "{mv} is not legal");
        rescues += usize::from(mv.to_string().contains('+'));
        m.play(mv).unwrap();
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
