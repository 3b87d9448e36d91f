//! The built-in bots. Each one is a function of the seat's [`Knowledge`] and a seed only.

use rand::Rng;
use salpakan_engine::{GameRng, rng_from_seed};

use crate::mcts::{Budget, MctsParams, search};
use crate::{AiGame, BotKind, BotSpec, Knowledge};

/// A bot: chooses a move from what its seat knows. The trait sees only [`Knowledge`], so a
/// bot cannot reach the arbiter's state.
pub trait Bot<G: AiGame> {
    /// The move to play; `k` has at least one legal move.
    fn choose(&mut self, k: &Knowledge<G>, rng: &mut GameRng) -> G::Move;
}

/// Uniformly random legal moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl<G: AiGame> Bot<G> for RandomBot {
    fn choose(&mut self, k: &Knowledge<G>, rng: &mut GameRng) -> G::Move {
        let legal = k.legal_moves();
        legal[rng.random_range(0..legal.len())]
    }
}

/// One ply with the belief: each move's expected evaluation over sampled hidden states
/// (challenge outcomes, material, flag safety and advance come from the evaluation).
#[derive(Clone, Copy, Debug)]
pub struct GreedyBot {
    /// Hidden states sampled per move.
    pub samples: u32,
}

impl<G: AiGame> Bot<G> for GreedyBot {
    fn choose(&mut self, k: &Knowledge<G>, rng: &mut GameRng) -> G::Move {
        let legal = k.legal_moves();
        if legal.len() == 1 {
            return legal[0];
        }
        let belief = G::belief(k);
        let me = k.seat();
        let mut totals = vec![0.0f64; legal.len()];
        for _ in 0..self.samples.max(1) {
            let g = G::determinize(k, &belief, rng);
            for (i, &mv) in legal.iter().enumerate() {
                let mut h = g.clone();
                if !h.is_legal(mv) {
                    continue;
                }
                G::before_play(&mut h, mv, rng);
                h.play_unchecked(mv);
                totals[i] += G::evaluate(&h, me);
            }
        }
        // Ties go to a random one of the best.
        let best = totals.iter().copied().fold(f64::MIN, f64::max);
        let ties: Vec<usize> = (0..legal.len())
            .filter(|&i| totals[i] >= best - 1e-9)
            .collect();
        legal[ties[rng.random_range(0..ties.len())]]
    }
}

/// Mixes the spec's own `seed` parameter into a call's seed.
#[must_use]
pub fn mix_seed(spec: &BotSpec, seed: u64) -> u64 {
    let s = spec.param("seed").unwrap_or(0);
    seed ^ s.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)
}

/// The MCTS parameters a spec asks for.
#[must_use]
pub fn mcts_params<G: AiGame>(spec: &BotSpec) -> MctsParams {
    let budget = match (spec.param("iters"), spec.param("ms")) {
        (Some(n), _) => Budget::Iterations(n),
        (None, Some(ms)) => Budget::Millis(ms),
        (None, None) => Budget::Millis(100),
    };
    MctsParams {
        budget,
        samples: spec.param("samples").unwrap_or(32).max(1) as usize,
        depth: spec
            .param("depth")
            .map_or(G::ROLLOUT_DEPTH, |d| d.min(10_000) as u32),
        exploration: spec.param("c").map_or(G::EXPLORATION, |c| c as f64 / 100.0),
    }
}

/// The move `spec` chooses for the seat of `k` (which must be to move), from `seed`.
///
/// # Panics
/// If the seat has no legal move, or `spec` is an external program.
pub fn choose<G: AiGame>(spec: &BotSpec, k: &Knowledge<G>, seed: u64) -> G::Move {
    let mut rng = rng_from_seed(mix_seed(spec, seed));
    assert!(!k.legal_moves().is_empty(), "the seat has no legal move");
    match spec.kind() {
        BotKind::Random => RandomBot.choose(k, &mut rng),
        BotKind::Greedy => GreedyBot {
            samples: spec.param("samples").unwrap_or(24) as u32,
        }
        .choose(k, &mut rng),
        BotKind::Mcts => search(k, &mcts_params::<G>(spec), &mut rng).best,
        BotKind::Expert => G::expert_search(k, &mcts_params::<G>(spec), &mut rng).best,
        BotKind::Command(_) | BotKind::Ucc(_) | BotKind::Ntu(_) => {
            panic!("external bots play through the bot protocol")
        }
    }
}

/// Whether the bot accepts a draw now: when the mean evaluation over sampled hidden states
/// says it is not ahead. `random` accepts at random.
#[must_use]
pub fn accepts_draw<G: AiGame>(spec: &BotSpec, k: &Knowledge<G>) -> bool {
    let mut rng = rng_from_seed(mix_seed(spec, u64::from(k.history().len() as u32)));
    match spec.kind() {
        BotKind::Random => rng.random_bool(0.5),
        BotKind::Command(_) | BotKind::Ucc(_) | BotKind::Ntu(_) => false,
        _ => {
            let b = G::belief(k);
            let n = 16;
            let mean = (0..n)
                .map(|_| G::evaluate(&G::determinize(k, &b, &mut rng), k.seat()))
                .sum::<f64>()
                / f64::from(n);
            mean < 0.45
        }
    }
}
