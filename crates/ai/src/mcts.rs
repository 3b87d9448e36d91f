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
    /// Whether the search finds a node's children among a position's legal moves through
    /// a table of move slots ([`AiGame::move_slot`]) instead of scanning the children for
    /// each move. It chooses exactly the same moves for a seed and an iteration budget
    /// (`indexed_selection_chooses_as_the_reference_does`), with 1.5 to 2 times as many
    /// iterations a second (Stratego, Generals); the reference `mcts` keeps the scan, so that
    /// it stays the fixed bar it was measured as.
    const INDEXED: bool = false;
}

/// Where each of a position's legal moves stands in its list, by move slot: marked once
/// per visit of a node, so that a child's move is found legal with one look-up.
struct SlotIndex {
    epoch: u32,
    /// Per slot: the epoch it was marked in and the move's place in the list.
    marks: Vec<(u32, u32)>,
    /// Per legal move of the visit: whether a child of the node plays it.
    tried: Vec<bool>,
}

impl SlotIndex {
    fn new(slots: usize) -> Self {
        Self {
            epoch: 0,
            marks: vec![(0, 0); slots],
            tried: Vec::new(),
        }
    }

    /// Marks `moves` for a new visit; false when two of them share a slot (the caller
    /// then compares moves one by one).
    fn mark<G: AiGame>(&mut self, moves: &[G::Move]) -> bool {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.marks.fill((0, 0));
            self.epoch = 1;
        }
        for (i, m) in moves.iter().enumerate() {
            let slot = &mut self.marks[G::move_slot(m)];
            if slot.0 == self.epoch {
                return false;
            }
            *slot = (self.epoch, i as u32);
        }
        true
    }

    /// The place of `m` in the marked moves, if it is one of them.
    fn find<M: PartialEq>(&self, m: &M, slot: usize, moves: &[M]) -> Option<usize> {
        let (epoch, i) = self.marks[slot];
        (epoch == self.epoch && moves[i as usize] == *m).then_some(i as usize)
    }
}

/// `ln(n)` for the counts UCB takes it of, looked up below 2^16 (the same values as
/// `f64::ln`, computed once).
fn ln(n: u32) -> f64 {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| (0..1u32 << 16).map(|i| f64::from(i).ln()).collect());
    table
        .get(n as usize)
        .copied()
        .unwrap_or_else(|| f64::from(n).ln())
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
    let mut nodes: Vec<Node<G::Move>> = vec![Node::new(None, me)];
    let mut path = Vec::with_capacity(64);
    let mut moves = Vec::with_capacity(64);
    let mut index = SlotIndex::new(if H::INDEXED { G::MOVE_SLOTS } else { 0 });
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
            if H::INDEXED && index.mark::<G>(&moves) {
                let (c, expanded) = match select_indexed::<G>(
                    &mut nodes, node, mover, &moves, &mut index, params, rng,
                ) {
                    Selected::Child(c) => (c, false),
                    Selected::Expanded(c) => (c, true),
                    Selected::Stuck => break,
                };
                let mv = nodes[c].mv.expect("children have moves");
                G::before_play(&mut g, mv, rng);
                g.play_unchecked(mv);
                path.push(c);
                if expanded {
                    break;
                }
                node = c;
                continue;
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
                let child = expand(&mut nodes, node, mv, mover, |m| moves.contains(m));
                G::before_play(&mut g, mv, rng);
                g.play_unchecked(mv);
                path.push(child);
                break;
            }
            let Some(best) = best_child(
                &mut nodes,
                node,
                params.exploration,
                |m| moves.contains(m),
                |n| f64::from(n).ln(),
            ) else {
                break;
            };
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

/// What the indexed selection did at a node.
enum Selected {
    /// Descended to this existing child.
    Child(usize),
    /// Expanded this new child (the iteration's last node in the tree).
    Expanded(usize),
    /// No child to descend to.
    Stuck,
}

/// The reference selection at `node` (expand an untried legal move chosen uniformly, else
/// the legal child of best UCB, availability counted for every legal child), with the
/// children found through `index` (marked with `moves`): the same choices, the same random
/// draws, the same counts as the scan in [`search_with`].
fn select_indexed<G: AiGame>(
    nodes: &mut Vec<Node<G::Move>>,
    node: usize,
    mover: Seat,
    moves: &[G::Move],
    index: &mut SlotIndex,
    params: &MctsParams,
    rng: &mut GameRng,
) -> Selected {
    index.tried.clear();
    index.tried.resize(moves.len(), false);
    let mut legal_children = 0;
    for &c in &nodes[node].children {
        let m = nodes[c].mv.expect("children have moves");
        if let Some(i) = index.find(&m, G::move_slot(&m), moves) {
            index.tried[i] = true;
            legal_children += 1;
        }
    }
    let untried = moves.len() - legal_children;
    let legal = |index: &SlotIndex, m: &G::Move| index.find(m, G::move_slot(m), moves).is_some();
    if untried > 0 {
        let pick = rng.random_range(0..untried);
        let i = (0..moves.len())
            .filter(|&i| !index.tried[i])
            .nth(pick)
            .expect("counted");
        return Selected::Expanded(expand(nodes, node, moves[i], mover, |m| legal(index, m)));
    }
    best_child(nodes, node, params.exploration, |m| legal(index, m), ln)
        .map_or(Selected::Stuck, Selected::Child)
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
/// sample (each counted available once more), the first on ties; `ln` is the natural
/// logarithm (computed, or looked up).
fn best_child<M: Copy>(
    nodes: &mut [Node<M>],
    node: usize,
    exploration: f64,
    legal: impl Fn(&M) -> bool,
    ln: impl Fn(u32) -> f64,
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
        let score = n.total / v + exploration * (ln(n.avail.max(1)) / v).sqrt();
        if score > best_score {
            best_score = score;
            best = Some(c);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use salpakan_engine::stratego::{Move, Piece, Rescue, Square, Stratego};

    use super::{SlotIndex, ln};

    fn step(from: (u8, u8), to: (u8, u8)) -> Move {
        Move {
            from: Square::new(from.0, from.1).unwrap(),
            to: Square::new(to.0, to.1).unwrap(),
            rescue: None,
        }
    }

    #[test]
    fn slot_index_finds_each_marked_move_and_no_other() {
        let moves = [
            step((0, 3), (0, 4)),
            step((1, 3), (1, 4)),
            step((0, 3), (1, 3)),
        ];
        let mut index = SlotIndex::new(<Stratego as crate::AiGame>::MOVE_SLOTS);
        assert!(index.mark::<Stratego>(&moves));
        for (i, m) in moves.iter().enumerate() {
            let slot = <Stratego as crate::AiGame>::move_slot(m);
            assert_eq!(index.find(m, slot, &moves), Some(i));
        }
        let other = step((5, 5), (5, 6));
        let slot = <Stratego as crate::AiGame>::move_slot(&other);
        assert_eq!(index.find(&other, slot, &moves), None);
        // A new visit forgets the last one's moves.
        assert!(index.mark::<Stratego>(&moves[..1]));
        let slot = <Stratego as crate::AiGame>::move_slot(&moves[1]);
        assert_eq!(index.find(&moves[1], slot, &moves[..1]), None);
    }

    #[test]
    fn slot_index_refuses_moves_sharing_a_slot_so_the_search_compares_them() {
        let plain = step((0, 8), (0, 9));
        let rescue = Move {
            rescue: Some(Rescue {
                piece: Piece::Scout,
                square: Square::new(4, 0).unwrap(),
            }),
            ..plain
        };
        let mut index = SlotIndex::new(<Stratego as crate::AiGame>::MOVE_SLOTS);
        assert!(!index.mark::<Stratego>(&[plain, rescue]));
        // The same move twice (never from the engine) is refused as well.
        assert!(!index.mark::<Stratego>(&[plain, plain]));
    }

    #[test]
    fn ln_table_gives_the_values_of_f64_ln() {
        for n in [1u32, 2, 3, 1000, 65_535, 65_536, 1 << 20] {
            assert_eq!(ln(n).to_bits(), f64::from(n).ln().to_bits(), "{n}");
        }
    }
}
