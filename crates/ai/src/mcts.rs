//! Information-set Monte Carlo tree search (single observer).
//!
//! One tree over the public move sequence. Each iteration takes a complete game sampled
//! from the seat's belief (a pool of determinizations is drawn first, then cycled; Banqi
//! flips are re-drawn as chance whenever a flip is played), descends the tree choosing
//! among the moves legal in that sample by UCB with availability counts, expands one
//! node, plays random moves for a few plies and scores the result with the game's
//! evaluation. The move played is the root's most visited.

use std::time::{Duration, Instant};

use rand::Rng;
use salpakan_engine::{GameRng, Seat};

use crate::{AiGame, Knowledge};

/// How long to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations: deterministic for a seed.
    Iterations(u64),
    /// Wall-clock milliseconds.
    Millis(u64),
}

/// Search parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsParams {
    /// How long to search.
    pub budget: Budget,
    /// Determinizations drawn from the belief and cycled through.
    pub samples: usize,
    /// Random plies after the tree before the evaluation.
    pub depth: u32,
    /// The UCB exploration constant.
    pub exploration: f64,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play.
    pub best: M,
    /// Iterations run.
    pub iterations: u64,
    /// Each root move with its visits and mean value for the seat.
    pub root: Vec<(M, u32, f64)>,
}

struct Node<M> {
    mv: Option<M>,
    mover: Seat,
    children: Vec<usize>,
    visits: u32,
    avail: u32,
    total: f64,
}

/// What a search asks of its game besides the rules: the belief, the root moves worth
/// searching, the playout policy and the leaf evaluation. [`Reference`] is today's `mcts`
/// (the [`AiGame`] defaults); the `expert` bot brings its own (`crate::expert`).
pub trait Hooks<G: AiGame> {
    /// The seat's belief about what it cannot see.
    fn belief(&self, k: &Knowledge<G>) -> G::Belief;
    /// The root moves worth searching, given the sampled states.
    fn root_moves(&self, k: &Knowledge<G>, pool: &[G], legal: &[G::Move]) -> Vec<G::Move>;
    /// A playout move after the tree.
    fn playout_move(&self, g: &G, rng: &mut GameRng) -> Option<G::Move>;
    /// The evaluation at a leaf, for `seat`, from 0 to 1.
    fn evaluate(&self, g: &G, seat: Seat) -> f64;
}

/// The reference search of the `mcts` bot: [`AiGame::belief`], [`AiGame::root_moves`],
/// [`AiGame::playout_move`] and [`AiGame::search_evaluate`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl<G: AiGame> Hooks<G> for Reference {
    fn belief(&self, k: &Knowledge<G>) -> G::Belief {
        G::belief(k)
    }
    fn root_moves(&self, k: &Knowledge<G>, pool: &[G], legal: &[G::Move]) -> Vec<G::Move> {
        G::root_moves(k, pool, legal)
    }
    fn playout_move(&self, g: &G, rng: &mut GameRng) -> Option<G::Move> {
        G::playout_move(g, rng)
    }
    fn evaluate(&self, g: &G, seat: Seat) -> f64 {
        G::search_evaluate(g, seat)
    }
}

/// Searches from the seat's knowledge (the seat must be to move) with the reference hooks
/// (today's `mcts`).
///
/// # Panics
/// If the seat has no legal move.
pub fn search<G: AiGame>(
    k: &Knowledge<G>,
    params: &MctsParams,
    rng: &mut GameRng,
) -> SearchResult<G::Move> {
    search_with(k, params, rng, &Reference)
}

/// Searches from the seat's knowledge (the seat must be to move) with the given hooks.
///
/// # Panics
/// If the seat has no legal move.
// Over 100 lines: the four phases of one search iteration (sample, select, expand, play out and
// back up) share the tree and the sample pool; kept in one loop so the hooks' order is visible.
pub fn search_with<G: AiGame, H: Hooks<G>>(
    k: &Knowledge<G>,
    params: &MctsParams,
    rng: &mut GameRng,
    hooks: &H,
) -> SearchResult<G::Move> {
    let legal = k.legal_moves();
    assert!(!legal.is_empty(), "the seat has no legal move");
    let me = k.seat();
    if legal.len() == 1 {
        return SearchResult {
            best: legal[0],
            iterations: 0,
            root: vec![(legal[0], 0, 0.5)],
        };
    }
    let start = Instant::now();
    let deadline = match params.budget {
        Budget::Millis(ms) => Some(start + Duration::from_millis(ms)),
        Budget::Iterations(_) => None,
    };
    let max_iters = match params.budget {
        Budget::Iterations(n) => n,
        Budget::Millis(_) => u64::MAX,
    };
    let belief = hooks.belief(k);
    let samples = params.samples.max(1);
    let pool: Vec<G> = (0..samples)
        .map(|_| G::determinize(k, &belief, rng))
        .collect();
    let root_moves = hooks.root_moves(k, &pool, legal);
    let legal: &[G::Move] = if root_moves.is_empty() {
        legal
    } else {
        &root_moves
    };
    let mut nodes: Vec<Node<G::Move>> = vec![Node {
        mv: None,
        mover: me,
        children: Vec::new(),
        visits: 0,
        avail: 0,
        total: 0.0,
    }];
    let mut path = Vec::with_capacity(64);
    let mut moves = Vec::with_capacity(64);
    let mut it = 0u64;
    while it < max_iters {
        if let Some(d) = deadline {
            if it % 8 == 0 && Instant::now() >= d && it > 0 {
                break;
            }
        }
        let mut g = pool[(it as usize) % samples].clone();
        path.clear();
        let mut node = 0usize;
        // Selection and expansion.
        while let Some(mover) = g.to_move() {
            moves.clear();
            if node == 0 {
                moves.extend_from_slice(legal);
            } else {
                g.legal_moves(&mut moves);
            }
            if moves.is_empty() {
                break;
            }
            // Untried moves legal here (children are few: a linear scan, no allocation).
            let tried = |m: &G::Move| {
                nodes[node]
                    .children
                    .iter()
                    .any(|&c| nodes[c].mv == Some(*m))
            };
            let untried = moves.iter().filter(|m| !tried(m)).count();
            if untried > 0 {
                let pick = rng.random_range(0..untried);
                let mv = *moves
                    .iter()
                    .filter(|m| !tried(m))
                    .nth(pick)
                    .expect("counted");
                let child = nodes.len();
                nodes.push(Node {
                    mv: Some(mv),
                    mover,
                    children: Vec::new(),
                    visits: 0,
                    avail: 0,
                    total: 0.0,
                });
                nodes[node].children.push(child);
                // Availability of the siblings legal here.
                for i in 0..nodes[node].children.len() {
                    let c = nodes[node].children[i];
                    if nodes[c].mv.is_some_and(|m| moves.contains(&m)) {
                        nodes[c].avail += 1;
                    }
                }
                G::before_play(&mut g, mv, rng);
                g.play_unchecked(mv);
                path.push(child);
                break;
            }
            let mut best = usize::MAX;
            let mut best_score = f64::MIN;
            for i in 0..nodes[node].children.len() {
                let c = nodes[node].children[i];
                let Some(m) = nodes[c].mv else { continue };
                if !moves.contains(&m) {
                    continue;
                }
                nodes[c].avail += 1;
                let n = &nodes[c];
                let v = f64::from(n.visits.max(1));
                let score =
                    n.total / v + params.exploration * (f64::from(n.avail.max(1)).ln() / v).sqrt();
                if score > best_score {
                    best_score = score;
                    best = c;
                }
            }
            if best == usize::MAX {
                break;
            }
            let mv = nodes[best].mv.expect("children have moves");
            G::before_play(&mut g, mv, rng);
            g.play_unchecked(mv);
            path.push(best);
            node = best;
        }
        // Rollout.
        for _ in 0..params.depth {
            let Some(mv) = hooks.playout_move(&g, rng) else {
                break;
            };
            G::before_play(&mut g, mv, rng);
            g.play_unchecked(mv);
        }
        let v = hooks.evaluate(&g, me);
        nodes[0].visits += 1;
        for &n in &path {
            let node = &mut nodes[n];
            node.visits += 1;
            node.total += if node.mover == me { v } else { 1.0 - v };
        }
        it += 1;
    }
    let root: Vec<(G::Move, u32, f64)> = nodes[0]
        .children
        .iter()
        .map(|&c| {
            let n = &nodes[c];
            (
                n.mv.expect("children have moves"),
                n.visits,
                n.total / f64::from(n.visits.max(1)),
            )
        })
        .collect();
    let best = root
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
        .map_or(legal[0], |r| r.0);
    SearchResult {
        best,
        iterations: it,
        root,
    }
}
