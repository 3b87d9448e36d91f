//! Iterations per move of `mcts` at a budget: `iters <game> <ms>`, over a few positions of
//! a game between two greedy bots.
use salpakan_ai::mcts::{Budget, MctsParams, search};
use salpakan_ai::{AiGame, BotSpec, Knowledge, choose_move, choose_setup};
use salpakan_engine::{GameKind, Match, Seat, rng_from_seed, with_match};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind: GameKind = args[1].parse().expect("a game");
    let ms: u64 = args[2].parse().expect("ms");
    let spec: BotSpec = "greedy".parse().expect("a bot");
    let game = salpakan_ai::arena::default_spec(kind);
    let setups = Seat::BOTH.map(|s| choose_setup(&spec, &game, s, s as u64).ok());
    let [white, black] = &setups;
    let mut m = game
        .new_match([white.as_ref(), black.as_ref()], 7)
        .expect("a match");
    let mut total = 0;
    let mut n = 0;
    while let Some(s) = m.to_move() {
        if m.ply() % 10 == 5 && m.ply() < 120 {
            let params = MctsParams {
                budget: Budget::Millis(ms),
                samples: 32,
                depth: match kind {
                    GameKind::Banqi => 4,
                    _ => 0,
                },
                exploration: 0.7,
            };
            fn it<G: AiGame>(m: &Match<G>, s: Seat, p: &MctsParams) -> u64 {
                search(&Knowledge::of(m, s), p, &mut rng_from_seed(1)).iterations
            }
            total += with_match!(&m, m => it(m, s, &params));
            n += 1;
        }
        let mv = choose_move(&spec, &m, s, u64::from(m.ply())).expect("a move");
        m.play(mv).expect("legal");
    }
    println!(
        "{kind}: {} iterations per {ms} ms (mean of {n})",
        total / n.max(1)
    );
}
