//! What the speed diagnostics (`evalspeed`, `expertspeed`) share: positions of four games
//! between two greedy bots, the same games for every run.
use salpakan_ai::{BotSpec, choose_move, choose_setup};
use salpakan_engine::{AnyMatch, GameKind, Seat};

/// Plays four games of `kind` between two greedy bots (seeds 1 to 4), calling `each` with
/// every position before its move and the seat to move.
pub fn each_position(kind: GameKind, mut each: impl FnMut(&AnyMatch, Seat)) {
    let spec: BotSpec = "greedy".parse().expect("a bot");
    let game = salpakan_ai::arena::default_spec(kind);
    for seed in 1..=4u64 {
        let setups = Seat::BOTH.map(|s| choose_setup(&spec, &game, s, seed * 2 + s as u64).ok());
        let [white, black] = &setups;
        let mut m = game
            .new_match([white.as_ref(), black.as_ref()], seed)
            .expect("a match");
        while let Some(s) = m.to_move() {
            each(&m, s);
            let mv = choose_move(&spec, &m, s, u64::from(m.ply())).expect("a move");
            m.play(mv).expect("legal");
        }
    }
}
