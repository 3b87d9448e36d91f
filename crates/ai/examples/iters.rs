//! Iterations per move of `mcts` at a budget: `iters <game> <ms>`, over a few positions of
//! a game between two greedy bots.
use salpakan_ai::mcts::{Budget, MctsParams, search};
use salpakan_ai::{AiGame, BotSpec, Knowledge, choose_move, choose_setup};
use salpakan_engine::banqi::Banqi;
use salpakan_engine::generals::Generals;
use salpakan_engine::stratego::Stratego;
use salpakan_engine::{GameKind, Match, Seat, rng_from_seed};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind: GameKind = args[1].parse().expect("a game");
    let ms: u64 = args[2].parse().expect("ms");
    let spec: BotSpec = "greedy".parse().expect("a bot");
    let opts = salpakan_ai::arena::default_options(kind);
    let mut req = serde_json::Map::new();
    if kind.has_setups() {
        let mut setups = serde_json::Map::new();
        for s in Seat::BOTH {
            setups.insert(
                kind.seat_name(s).into(),
                choose_setup(&spec, kind, &opts, s, s as u64).expect("a setup"),
            );
        }
        req.insert("setups".into(), setups.into());
    }
    let mut m = kind.new_match(&opts, &req, 7).expect("a match");
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
            fn it<G: AiGame>(m: &dyn salpakan_engine::AnyMatch, s: Seat, p: &MctsParams) -> u64 {
                let m = m.as_any().downcast_ref::<Match<G>>().expect("the type");
                search(&Knowledge::of(m, s), p, &mut rng_from_seed(1)).iterations
            }
            total += match kind {
                GameKind::Generals => it::<Generals>(m.as_ref(), s, &params),
                GameKind::Stratego => it::<Stratego>(m.as_ref(), s, &params),
                GameKind::Banqi => it::<Banqi>(m.as_ref(), s, &params),
            };
            n += 1;
        }
        let mv = choose_move(&spec, m.as_ref(), s, u64::from(m.ply())).expect("a move");
        m.play_text(&mv).expect("legal");
    }
    println!(
        "{kind}: {} iterations per {ms} ms (mean of {n})",
        total / n.max(1)
    );
}
