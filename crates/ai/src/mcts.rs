//! Information-set Monte Carlo tree search (single observer).
//!
//! One tree over the public move sequence. Each iteration takes a complete game sampled
//! from the seat's belief (a pool of determinizations is drawn first, then cycled; Banqi
//! flips are re-drawn as chance whenever a flip is played), descends the tree choosing
//! among the moves legal in that sample by UCB with availability counts, expands one
//! node, plays random moves for a few plies and scores the result with the game's
//! evaluation. The move played is the root's most visited. On the indexed tree a search may
//! start each root move with virtual visits at its one-ply value ([`Hooks::ROOT_PRIOR`]).

use std::time::{Duration, Instant};

use rand::Rng;
use salpakan_engine::{GameRng, Seat};

use crate::{AiGame, Knowledge};

mod flat;

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

impl<M> Node<M> {
    /// A node not yet visited: the root (no move) or the child playing `mv` by `mover`.
    fn new(mv: Option<M>, mover: Seat) -> Self {
        Node {
            mv,
            mover,
            children: Vec::new(),
            visits: 0,
            avail: 0,
            total: 0.0,
        }
    }
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
    /// The moves the search lets the side to move choose among at a node below the root, in
    /// the sampled state `g` where `me` searches: by default every legal move (`moves` as
    /// they are).
    fn tree_moves(&self, _g: &G, _me: Seat, _moves: &mut Vec<G::Move>, _rng: &mut GameRng) {}
    /// Whether the search runs on the indexed tree (`mcts::flat`): each node keeps its
    /// children's moves and counts side by side, finds the children legal in a sample
    /// through a table of move slots ([`AiGame::move_slot`]) instead of scanning the
    /// children for each move, and passes over a child that cannot beat the best UCB score
    /// without taking its square root. Without a root prior ([`Hooks::ROOT_PRIOR`]) it
    /// chooses exactly the same moves for a seed and an iteration budget
    /// (`indexed_selection_chooses_as_the_reference_does`), with 2.4 times as many
    /// iterations a second in Generals and 1.5 in Stratego; the reference `mcts` keeps the
    /// scan, so that it stays the fixed bar it was measured as.
    const INDEXED: bool = false;
    /// The weight of a root prior, on the indexed tree only: each root move's child starts
    /// with virtual visits at its one-ply value (the mean [`Hooks::evaluate`] over the sampled
    /// states after the move), as many as this share of the iterations run, counted from at
    /// least [`PRIOR_FLOOR_ITERATIONS`] (so that a timed search weighs it as a fixed budget
    /// of as many iterations does). They count in the root's visits and means. 0 (the
    /// default): no prior.
    const ROOT_PRIOR: f64 = 0.0;
}

/// The iterations a root prior's weight is counted from at the least
/// ([`Hooks::ROOT_PRIOR`]): the budget it was measured at.
pub const PRIOR_FLOOR_ITERATIONS: u64 = 4000;

/// The virtual visits of a root prior of weight `share` after `it` iterations.
fn prior_visits(share: f64, it: u64) -> u32 {
    // At most 2^32 visits: the float's conversion saturates.
    (share * it.max(PRIOR_FLOOR_ITERATIONS) as f64).round() as u32
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
pub fn search_with<G: AiGame, H: Hooks<G>>(
    k: &Knowledge<G>,
    params: &MctsParams,
    rng: &mut GameRng,
    hooks: &H,
) -> SearchResult<G::Move> {
    let legal = k.legal_moves();
    assert!(!legal.is_empty(), "the seat has no legal move");
    if legal.len() == 1 {
        return SearchResult {
            best: legal[0],
            iterations: 0,
            root: vec![(legal[0], 0, 0.5)],
        };
    }
    let start = Start::new(k, legal, params, rng, hooks);
    let (root, iterations) = if H::INDEXED {
        let mut tree = flat::Flat::<G>::new(&start.legal);
        if H::ROOT_PRIOR > 0.0 {
            let values = start.one_ply_values(rng, hooks);
            tree.set_prior(values, prior_visits(H::ROOT_PRIOR, 0));
        }
        let iterations = run(&mut tree, &start, params, rng, hooks);
        (tree.root(), iterations)
    } else {
        let mut tree = Scan {
            nodes: vec![Node::new(None, start.me)],
        };
        let iterations = run(&mut tree, &start, params, rng, hooks);
        (tree.root(), iterations)
    };
    let best = root
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
        .map_or(start.legal[0], |r| r.0);
    SearchResult {
        best,
        iterations,
        root,
    }
}

/// What a search starts from: the root moves searched, the sampled states cycled through,
/// and when to stop.
struct Start<G: AiGame> {
    me: Seat,
    legal: Vec<G::Move>,
    pool: Vec<G>,
    deadline: Option<Instant>,
    max_iters: u64,
}

impl<G: AiGame> Start<G> {
    /// Draws the samples from the hooks' belief, then asks the hooks for the root moves.
    fn new<H: Hooks<G>>(
        k: &Knowledge<G>,
        legal: &[G::Move],
        params: &MctsParams,
        rng: &mut GameRng,
        hooks: &H,
    ) -> Self {
        let start = Instant::now();
        let (deadline, max_iters) = match params.budget {
            Budget::Millis(ms) => (Some(start + Duration::from_millis(ms)), u64::MAX),
            Budget::Iterations(n) => (None, n),
        };
        let belief = hooks.belief(k);
        let samples = params.samples.max(1);
        let pool: Vec<G> = (0..samples)
            .map(|_| G::determinize(k, &belief, rng))
            .collect();
        let root_moves = hooks.root_moves(k, &pool, legal);
        Self {
            me: k.seat(),
            legal: if root_moves.is_empty() {
                legal.to_vec()
            } else {
                root_moves
            },
            pool,
            deadline,
            max_iters,
        }
    }

    /// Whether iteration `it` is not to run: the budget spent, or the time up (looked at
    /// every eighth iteration, after the first).
    fn done(&self, it: u64) -> bool {
        if it >= self.max_iters {
            return true;
        }
        self.deadline
            .is_some_and(|d| it % 8 == 0 && it > 0 && Instant::now() >= d)
    }

    /// The moves legal at a node of the tree in the sampled state `g`: at the root, the
    /// root moves searched.
    fn moves_at(&self, g: &G, root: bool, moves: &mut Vec<G::Move>) {
        moves.clear();
        if root {
            moves.extend_from_slice(&self.legal);
        } else {
            g.legal_moves(moves);
        }
    }

    /// Each root move's one-ply value for the seat: the mean evaluation over the sampled
    /// states after it is played.
    fn one_ply_values<H: Hooks<G>>(&self, rng: &mut GameRng, hooks: &H) -> Vec<f64> {
        self.legal
            .iter()
            .map(|&mv| {
                let sum: f64 = self
                    .pool
                    .iter()
                    .map(|g| {
                        let mut g = g.clone();
                        G::before_play(&mut g, mv, rng);
                        g.play_unchecked(mv);
                        hooks.evaluate(&g, self.me)
                    })
                    .sum();
                sum / self.pool.len() as f64
            })
            .collect()
    }

    /// The sampled state of iteration `it`.
    fn sample(&self, it: u64) -> G {
        self.pool[(it as usize) % self.pool.len()].clone()
    }
}

/// The value for `me` of the state reached at the end of the tree: a few playout moves,
/// then the hooks' evaluation.
fn leaf_value<G: AiGame, H: Hooks<G>>(
    mut g: G,
    me: Seat,
    params: &MctsParams,
    rng: &mut GameRng,
    hooks: &H,
) -> f64 {
    for _ in 0..params.depth {
        let Some(mv) = hooks.playout_move(&g, rng) else {
            break;
        };
        G::before_play(&mut g, mv, rng);
        g.play_unchecked(mv);
    }
    hooks.evaluate(&g, me)
}

/// A search tree: how a node's child is chosen among the moves legal in a sample, how a
/// value is backed up, and what the root's children hold. The search loop ([`run`]) is the
/// same for both trees.
trait Tree<M> {
    /// What the path of an iteration records of each child it went through.
    type Step: Copy;

    /// Chooses the child of `node` (where `mover` is to move) among `moves`, legal in this
    /// sample: an untried move expanded (chosen uniformly), else the legal child of best
    /// UCB. Returns the step for the path, the child's move, and the node to go on from
    /// (`None` after an expansion, the iteration's last node in the tree); `None` when no
    /// child can be chosen.
    fn descend(
        &mut self,
        node: usize,
        mover: Seat,
        moves: &[M],
        exploration: f64,
        rng: &mut GameRng,
    ) -> Option<(Self::Step, M, Option<usize>)>;

    /// Backs up the value `v` (for `me`) along the path.
    fn backup(&mut self, path: &[Self::Step], v: f64, me: Seat);

    /// Each root move with its visits and mean value for the seat.
    fn root(&self) -> Vec<(M, u32, f64)>;

    /// Raises the root prior's virtual visits to `visits` a move (no prior: nothing).
    fn weigh_prior(&mut self, _visits: u32) {}
}

/// The search loop: each iteration takes the next sampled state, descends the tree (the
/// moves legal in that sample at each node), plays out and evaluates the leaf, and backs up
/// its value. Returns the iterations run.
fn run<G: AiGame, H: Hooks<G>, T: Tree<G::Move>>(
    tree: &mut T,
    start: &Start<G>,
    params: &MctsParams,
    rng: &mut GameRng,
    hooks: &H,
) -> u64 {
    let mut path = Vec::with_capacity(64);
    let mut moves = Vec::with_capacity(64);
    let mut it = 0u64;
    while !start.done(it) {
        let mut g = start.sample(it);
        path.clear();
        let mut node = 0usize;
        // Selection and expansion.
        while let Some(mover) = g.to_move() {
            start.moves_at(&g, node == 0, &mut moves);
            if node != 0 {
                hooks.tree_moves(&g, start.me, &mut moves, rng);
            }
            if moves.is_empty() {
                break;
            }
            let Some((step, mv, next)) = tree.descend(node, mover, &moves, params.exploration, rng)
            else {
                break;
            };
            G::before_play(&mut g, mv, rng);
            g.play_unchecked(mv);
            path.push(step);
            match next {
                Some(next) => node = next,
                None => break,
            }
        }
        let v = leaf_value(g, start.me, params, rng, hooks);
        tree.backup(&path, v, start.me);
        it += 1;
        if H::ROOT_PRIOR > 0.0 {
            tree.weigh_prior(prior_visits(H::ROOT_PRIOR, it));
        }
    }
    it
}

/// The reference tree (`mcts`'s): one node per child, each node's children found by
/// scanning them for each legal move.
struct Scan<M> {
    nodes: Vec<Node<M>>,
}

impl<M: Copy + PartialEq> Tree<M> for Scan<M> {
    type Step = usize;

    fn descend(
        &mut self,
        node: usize,
        mover: Seat,
        moves: &[M],
        exploration: f64,
        rng: &mut GameRng,
    ) -> Option<(usize, M, Option<usize>)> {
        let nodes = &mut self.nodes;
        // Untried moves legal here (children are few: a linear scan, no allocation).
        let tried = |nodes: &[Node<M>], m: &M| {
            nodes[node]
                .children
                .iter()
                .any(|&c| nodes[c].mv == Some(*m))
        };
        let untried = moves.iter().filter(|m| !tried(nodes, m)).count();
        if untried > 0 {
            let pick = rng.random_range(0..untried);
            let mv = *moves
                .iter()
                .filter(|m| !tried(nodes, m))
                .nth(pick)
                .expect("counted");
            let child = expand(nodes, node, mv, mover, |m| moves.contains(m));
            return Some((child, mv, None));
        }
        let best = best_child(nodes, node, exploration, |m| moves.contains(m))?;
        let mv = nodes[best].mv.expect("children have moves");
        Some((best, mv, Some(best)))
    }

    fn backup(&mut self, path: &[usize], v: f64, me: Seat) {
        for &n in path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.total += if node.mover == me { v } else { 1.0 - v };
        }
    }

    fn root(&self) -> Vec<(M, u32, f64)> {
        self.nodes[0]
            .children
            .iter()
            .map(|&c| {
                let n = &self.nodes[c];
                (
                    n.mv.expect("children have moves"),
                    n.visits,
                    n.total / f64::from(n.visits.max(1)),
                )
            })
            .collect()
    }
}

/// Adds a child playing `mv` (by `mover`) under `node`, and counts one availability for
/// every child (the new one included) whose move is `legal` in this sample. Returns the
/// child.
fn expand<M: Copy>(
    nodes: &mut Vec<Node<M>>,
    node: usize,
    mv: M,
    mover: Seat,
    legal: impl Fn(&M) -> bool,
) -> usize {
    let child = nodes.len();
    nodes.push(Node::new(Some(mv), mover));
    nodes[node].children.push(child);
    for i in 0..nodes[node].children.len() {
        let c = nodes[node].children[i];
        if nodes[c].mv.is_some_and(|m| legal(&m)) {
            nodes[c].avail += 1;
        }
    }
    child
}

/// The child of `node` with the best UCB score among those whose move is `legal` in this
/// sample (each counted available once more), the first on ties.
fn best_child<M: Copy>(
    nodes: &mut [Node<M>],
    node: usize,
    exploration: f64,
    legal: impl Fn(&M) -> bool,
) -> Option<usize> {
    let mut best = None;
    let mut best_score = f64::MIN;
    for i in 0..nodes[node].children.len() {
        let c = nodes[node].children[i];
        let Some(m) = nodes[c].mv else { continue };
        if !legal(&m) {
            continue;
        }
        nodes[c].avail += 1;
        let n = &nodes[c];
        let v = f64::from(n.visits.max(1));
        let score = n.total / v + exploration * (f64::from(n.avail.max(1)).ln() / v).sqrt();
        if score > best_score {
            best_score = score;
            best = Some(c);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::{PRIOR_FLOOR_ITERATIONS, prior_visits};

    #[test]
    fn a_root_prior_weighs_a_share_of_the_iterations_counted_from_the_floor() {
        let share = 1.0 / 80.0;
        assert_eq!(prior_visits(share, 0), 50);
        assert_eq!(prior_visits(share, PRIOR_FLOOR_ITERATIONS), 50);
        assert_eq!(prior_visits(share, 2 * PRIOR_FLOOR_ITERATIONS), 100);
        assert_eq!(prior_visits(share, 20_000), 250);
        assert_eq!(prior_visits(0.0, 20_000), 0);
    }
}
