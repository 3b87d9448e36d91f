//! The search's indexed selection (the `expert` bot's) against the reference scan (`mcts`),
//! and what each search costs (ignored measurements).

use salpakan_ai::bots::mcts_params;
use salpakan_ai::mcts::{Budget, Hooks, MctsParams, Reference, SearchResult, search_with};
use salpakan_ai::{AiGame, BotSpec, Knowledge, choose_move};
use salpakan_engine::{AnyMatch, GameKind, GameRng, GameSpec, Match, Seat, rng_from_seed};

/// The reference hooks with the indexed selection.
struct Indexed;

impl<G: AiGame> Hooks<G> for Indexed {
    const INDEXED: bool = true;

    fn belief(&self, k: &Knowledge<G>) -> G::Belief {
        Reference.belief(k)
    }
    fn root_moves(&self, k: &Knowledge<G>, pool: &[G], legal: &[G::Move]) -> Vec<G::Move> {
        Reference.root_moves(k, pool, legal)
    }
    fn playout_move(&self, g: &G, rng: &mut GameRng) -> Option<G::Move> {
        Reference.playout_move(g, rng)
    }
    fn evaluate(&self, g: &G, seat: Seat) -> f64 {
        Reference.evaluate(g, seat)
    }
}

/// The root of a search as comparable bits: each root move with its visits and mean value.
fn root_bits<M: Copy + std::fmt::Debug>(r: &SearchResult<M>) -> Vec<(String, u32, u64)> {
    r.root
        .iter()
        .map(|(m, n, v)| (format!("{m:?}"), *n, v.to_bits()))
        .collect()
}

/// Searches `m` for the side to move with both selections, from the same seed, and checks
/// that they made the same tree.
fn same_search<G: AiGame>(m: &Match<G>, params: &MctsParams, seed: u64) -> u64 {
    let seat = m.game().to_move().expect("a side to move");
    let k = Knowledge::of(m, seat);
    let a = search_with(&k, params, &mut rng_from_seed(seed), &Reference);
    let b = search_with(&k, params, &mut rng_from_seed(seed), &Indexed);
    assert_eq!(a.best, b.best);
    assert_eq!(a.iterations, b.iterations);
    assert_eq!(root_bits(&a), root_bits(&b));
    a.iterations
}

#[test]
fn indexed_selection_chooses_as_the_reference_does() {
    let bot: BotSpec = "random".parse().unwrap();
    for kind in GameKind::ALL {
        for seed in 0..3u64 {
            let mut m: AnyMatch = GameSpec::default_for(kind)
                .new_match([None, None], seed)
                .unwrap();
            // Into the middle game, with its captures (random moves).
            for i in 0..(20 + 30 * seed) {
                let Some(s) = m.to_move() else { break };
                let mv = choose_move(&bot, &m, s, i).unwrap();
                m.play(mv).unwrap();
            }
            if m.to_move().is_none() {
                continue;
            }
            let params = MctsParams {
                budget: Budget::Iterations(600),
                samples: 8,
                depth: if kind == GameKind::Banqi { 4 } else { 2 },
                exploration: 0.7,
            };
            let iterations = match &m {
                AnyMatch::Generals(m) => same_search(m, &params, seed),
                AnyMatch::Stratego(m) => same_search(m, &params, seed),
                AnyMatch::Banqi(m) => same_search(m, &params, seed),
            };
            assert!(iterations == 0 || iterations == 600, "{kind}: {iterations}");
        }
    }
}

/// Iterations in 100 ms with each selection, Generals and Stratego after 40 random plies:
/// `cargo test --release -p salpakan-ai --test mcts -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check: prints iterations per 100 ms"]
fn iterations_in_100_ms_with_each_selection() {
    fn count<G: AiGame>(m: &Match<G>, params: &MctsParams, indexed: bool) -> u64 {
        let k = Knowledge::of(m, m.game().to_move().expect("a side to move"));
        let rng = &mut rng_from_seed(1);
        if indexed {
            search_with(&k, params, rng, &Indexed).iterations
        } else {
            search_with(&k, params, rng, &Reference).iterations
        }
    }
    let bot: BotSpec = "random".parse().unwrap();
    for kind in [GameKind::Generals, GameKind::Stratego] {
        let mut m: AnyMatch = GameSpec::default_for(kind)
            .new_match([None, None], 1)
            .unwrap();
        for i in 0..40 {
            let Some(s) = m.to_move() else { break };
            m.play(choose_move(&bot, &m, s, i).unwrap()).unwrap();
        }
        let params = MctsParams {
            budget: Budget::Millis(100),
            samples: 32,
            depth: 0,
            exploration: if kind == GameKind::Generals { 0.4 } else { 0.7 },
        };
        for indexed in [false, true, false, true] {
            let n = match &m {
                AnyMatch::Generals(m) => count(m, &params, indexed),
                AnyMatch::Stratego(m) => count(m, &params, indexed),
                AnyMatch::Banqi(_) => unreachable!("not measured"),
            };
            println!("{kind}: indexed {indexed}: {n} iterations in 100 ms");
        }
    }
}

/// Iterations in 100 ms of `mcts` and of `expert` (each with its own belief, root moves and
/// evaluation), at plies 20, 60, 100, 140 and 180 of three `greedy` games, three searches
/// each: `cargo test --release -p salpakan-ai --test mcts -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check: prints each bot's iterations per 100 ms"]
fn iterations_in_100_ms_of_mcts_and_expert() {
    fn both<G: AiGame>(m: &Match<G>) -> [u64; 2] {
        let params = &mcts_params::<G>(&"mcts:ms=100".parse().unwrap());
        let k = Knowledge::of(m, m.game().to_move().expect("a side to move"));
        let mut n = [0; 2];
        for seed in 0..3 {
            n[0] += salpakan_ai::mcts::search(&k, params, &mut rng_from_seed(seed)).iterations;
            n[1] += G::expert_search(&k, params, &mut rng_from_seed(seed)).iterations;
        }
        n
    }
    let greedy: BotSpec = "greedy".parse().unwrap();
    for kind in [GameKind::Generals, GameKind::Stratego] {
        let mut total = [0; 2];
        for game in 1..=3u64 {
            let mut m: AnyMatch = GameSpec::default_for(kind)
                .new_match([None, None], game)
                .unwrap();
            for ply in 0..=180 {
                let Some(s) = m.to_move() else { break };
                if ply % 40 == 20 {
                    let n = match &m {
                        AnyMatch::Generals(m) => both(m),
                        AnyMatch::Stratego(m) => both(m),
                        AnyMatch::Banqi(_) => unreachable!("not measured"),
                    };
                    println!(
                        "{kind}, game {game}, ply {ply}: mcts {}, expert {} (3 searches)",
                        n[0], n[1]
                    );
                    total[0] += n[0];
                    total[1] += n[1];
                }
                m.play(choose_move(&greedy, &m, s, ply).unwrap()).unwrap();
            }
        }
        println!(
            "{kind}: mcts {}, expert {} iterations in all; expert / mcts {:.2}",
            total[0],
            total[1],
            total[1] as f64 / total[0] as f64
        );
    }
}
