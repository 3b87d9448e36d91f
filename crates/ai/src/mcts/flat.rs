//! The indexed tree (the `expert`'s, [`Hooks::INDEXED`](super::Hooks::INDEXED)): the same
//! search as the reference scan, move for move and count for count, laid out for speed. Each
//! node keeps its children's move and counts side by side (an [`Edge`] each), so that
//! choosing among them reads one run of memory instead of one node apiece. The children legal
//! in a sample are found through the table of move slots ([`SlotIndex`]) once per visit and
//! shared by the expansion and the UCB choice; at the root, whose moves are the same at every
//! visit, they are all its children, known without a look. A child that cannot beat the best
//! UCB score so far is passed over without its division and square root ([`cannot_beat`]).
//! Only this tree takes a root prior ([`Prior`]); without one it searches as the scan does.

use rand::Rng;
use salpakan_engine::{GameRng, Seat};

use super::Tree;
use crate::AiGame;

/// Where each of a position's legal moves stands in its list, by move slot: marked once
/// per visit of a node, so that a child's move is found legal with one look-up.
struct SlotIndex {
    epoch: u32,
    /// Per slot: the epoch it was marked in (the high bits) and the move's place in the list
    /// (the low [`PLACE_BITS`]), four bytes a slot so that the table stays in the nearest
    /// cache.
    marks: Vec<u32>,
}

/// The bits of a mark that hold the move's place in its list.
const PLACE_BITS: u32 = 12;

impl SlotIndex {
    fn new(slots: usize) -> Self {
        Self {
            epoch: 0,
            marks: vec![0; slots],
        }
    }

    /// Marks `moves` for a new visit; false when two of them share a slot or there are
    /// 2^12 or more of them (the caller then compares moves one by one).
    fn mark<G: AiGame>(&mut self, moves: &[G::Move]) -> bool {
        if moves.len() >= 1 << PLACE_BITS {
            return false;
        }
        self.epoch += 1;
        if self.epoch == 1 << (32 - PLACE_BITS) {
            self.marks.fill(0);
            self.epoch = 1;
        }
        let high = self.epoch << PLACE_BITS;
        for (i, m) in moves.iter().enumerate() {
            let slot = &mut self.marks[G::move_slot(m)];
            if *slot >> PLACE_BITS == self.epoch {
                return false;
            }
            *slot = high | i as u32;
        }
        true
    }

    /// The place of `m` in the marked moves, if it is one of them.
    fn find<M: PartialEq>(&self, m: &M, slot: usize, moves: &[M]) -> Option<usize> {
        let mark = self.marks[slot];
        let i = (mark & ((1 << PLACE_BITS) - 1)) as usize;
        (mark >> PLACE_BITS == self.epoch && moves[i] == *m).then_some(i)
    }
}

/// `ln(n)` for the counts UCB takes it of, looked up below 2^16 (the same values as
/// `f64::ln`, computed once).
#[cfg(test)]
fn ln(n: u32) -> f64 {
    ln_table()(n)
}

/// [`ln`] with its table fetched once, for a loop over a node's children.
fn ln_table() -> impl Fn(u32) -> f64 {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| (0..1u32 << 16).map(|i| f64::from(i).ln()).collect());
    move |n| {
        table
            .get(n as usize)
            .copied()
            .unwrap_or_else(|| f64::from(n).ln())
    }
}

/// A child as its parent keeps it: the move, who played it, its counts and mean value, and
/// the node holding its own children.
struct Edge<M> {
    mv: M,
    mover: Seat,
    node: u32,
    visits: u32,
    avail: u32,
    total: f64,
    /// `total / visits.max(1)`, the first term of the UCB score, kept with the counts.
    mean: f64,
}

/// Whether a child of `mean` value over `visits`, with `ln_avail` the logarithm of its
/// availability count, is certain to score no more than `best` by UCB, found without a
/// division or a square root: its exploration term `c·√(ln_avail / visits)` is below
/// `best − mean` with a margin of a millionth, far wider than the rounding of either side.
/// False whenever it is not certain (a gap under a millionth, an exploration constant
/// outside 0 to 100).
fn cannot_beat(best: f64, mean: f64, visits: u32, ln_avail: f64, exploration: f64) -> bool {
    let gap = best - mean;
    (0.0..=100.0).contains(&exploration)
        && gap > 1e-6
        && exploration * exploration * ln_avail
            < gap * gap * f64::from(visits.max(1)) * (1.0 - 1e-6)
}

/// One visit's view of a node's children: for each legal move, whether a child plays it
/// (`tried`, in the order of the legal moves), and which children are legal in this sample
/// (`legal`, their places among the children, in order).
struct Visit {
    index: SlotIndex,
    tried: Vec<bool>,
    legal: Vec<usize>,
}

impl Visit {
    /// Finds which of `edges` play one of `moves` by comparing moves, for the moves whose
    /// slots are not distinct ([`SlotIndex::mark`] refused them).
    fn compare<G: AiGame>(&mut self, edges: &[Edge<G::Move>], moves: &[G::Move]) {
        self.tried.clear();
        self.tried.resize(moves.len(), false);
        self.legal.clear();
        for (p, e) in edges.iter().enumerate() {
            let mut found = false;
            for (i, m) in moves.iter().enumerate() {
                if *m == e.mv {
                    self.tried[i] = true;
                    found = true;
                }
            }
            if found {
                self.legal.push(p);
            }
        }
    }
}

/// The flat tree: node 0 is the root, and each node is its children's edges.
pub(super) struct Flat<G: AiGame> {
    nodes: Vec<Vec<Edge<G::Move>>>,
    visit: Visit,
    /// Whether the root's moves are distinct, so that its children are found without a look.
    root_distinct: bool,
    /// For each root move, whether a child of the root plays it.
    root_tried: Vec<bool>,
    /// The root prior ([`Hooks::ROOT_PRIOR`](super::Hooks::ROOT_PRIOR)), if any.
    prior: Option<Prior>,
}

/// A root prior: each root move's one-ply value, counted as virtual visits in its child.
struct Prior {
    /// Each root move's value, in the order of the root moves.
    values: Vec<f64>,
    /// Each child of the root's value, in the order of the children.
    edge_values: Vec<f64>,
    /// The virtual visits each child holds (a child expanded later starts with as many).
    visits: u32,
}

impl<G: AiGame> Flat<G> {
    /// An empty tree over the root moves searched.
    pub(super) fn new(root_moves: &[G::Move]) -> Self {
        let mut index = SlotIndex::new(G::MOVE_SLOTS);
        let root_distinct = index.mark::<G>(root_moves);
        Self {
            nodes: vec![Vec::new()],
            visit: Visit {
                index,
                tried: Vec::new(),
                legal: Vec::new(),
            },
            root_distinct,
            root_tried: vec![false; root_moves.len()],
            prior: None,
        }
    }

    /// Gives each root move (in the order of the root moves) a prior of `values`, worth
    /// `visits` virtual visits a move, before the search starts.
    pub(super) fn set_prior(&mut self, values: Vec<f64>, visits: u32) {
        debug_assert!(self.nodes[0].is_empty(), "set before the first visit");
        debug_assert_eq!(values.len(), self.root_tried.len());
        self.prior = Some(Prior {
            values,
            edge_values: Vec::new(),
            visits,
        });
    }
}

impl<G: AiGame> Tree<G::Move> for Flat<G> {
    /// The parent node and the child's place among its edges.
    type Step = (u32, u32);

    fn descend(
        &mut self,
        node: usize,
        mover: Seat,
        moves: &[G::Move],
        exploration: f64,
        rng: &mut GameRng,
    ) -> Option<((u32, u32), G::Move, Option<usize>)> {
        let step = |edge: usize| (node as u32, edge as u32);
        let ln = ln_table();
        let visit = &mut self.visit;
        let root = node == 0 && self.root_distinct;
        // Whether the moves' slots are distinct, so that each is found with one look-up.
        let indexed = root || visit.index.mark::<G>(moves);
        // One pass over the children: each legal one is marked tried, counted available and,
        // when every legal move may have its child (fewer children than distinct moves leave
        // one untried, to be expanded instead), scored by UCB.
        let select = !indexed || self.nodes[node].len() >= moves.len();
        let mut best = None;
        let mut best_score = f64::MIN;
        let mut ucb = |p: usize, e: &mut Edge<G::Move>| {
            e.avail += 1;
            if !select {
                return;
            }
            let ln_avail = ln(e.avail.max(1));
            if best.is_some() && cannot_beat(best_score, e.mean, e.visits, ln_avail, exploration) {
                return;
            }
            let score = e.mean + exploration * (ln_avail / f64::from(e.visits.max(1))).sqrt();
            if score > best_score {
                best_score = score;
                best = Some(p);
            }
        };
        let tried: &[bool] = if root {
            // The root's moves are the same at every visit and each child plays one.
            for (p, e) in self.nodes[0].iter_mut().enumerate() {
                ucb(p, e);
            }
            &self.root_tried
        } else if indexed {
            visit.tried.clear();
            visit.tried.resize(moves.len(), false);
            for (p, e) in self.nodes[node].iter_mut().enumerate() {
                if let Some(i) = visit.index.find(&e.mv, G::move_slot(&e.mv), moves) {
                    visit.tried[i] = true;
                    ucb(p, e);
                }
            }
            &visit.tried
        } else {
            visit.compare::<G>(&self.nodes[node], moves);
            for &p in &visit.legal {
                ucb(p, &mut self.nodes[node][p]);
            }
            &visit.tried
        };
        let untried = moves.len() - tried.iter().filter(|&&t| t).count();
        if untried > 0 {
            let pick = rng.random_range(0..untried);
            let i = (0..moves.len())
                .filter(|&i| !tried[i])
                .nth(pick)
                .expect("counted");
            // A child of the root starts with the prior's virtual visits, if there is one.
            let (visits, value) = match &mut self.prior {
                Some(prior) if node == 0 => {
                    let value = prior.values[i];
                    prior.edge_values.push(value);
                    (prior.visits, value)
                }
                _ => (0, 0.0),
            };
            if node == 0 {
                self.root_tried[i] = true;
            }
            let child = u32::try_from(self.nodes.len()).expect("fewer than 2^32 nodes");
            self.nodes.push(Vec::new());
            let edges = &mut self.nodes[node];
            edges.push(Edge {
                mv: moves[i],
                mover,
                node: child,
                visits,
                avail: 1,
                total: f64::from(visits) * value,
                mean: value,
            });
            return Some((step(edges.len() - 1), moves[i], None));
        }
        let best = best?;
        let e = &self.nodes[node][best];
        Some((step(best), e.mv, Some(e.node as usize)))
    }

    fn backup(&mut self, path: &[(u32, u32)], v: f64, me: Seat) {
        for &(n, p) in path {
            let e = &mut self.nodes[n as usize][p as usize];
            e.visits += 1;
            e.total += if e.mover == me { v } else { 1.0 - v };
            e.mean = e.total / f64::from(e.visits);
        }
    }

    fn root(&self) -> Vec<(G::Move, u32, f64)> {
        self.nodes[0]
            .iter()
            .map(|e| (e.mv, e.visits, e.mean))
            .collect()
    }

    fn weigh_prior(&mut self, visits: u32) {
        let Some(prior) = &mut self.prior else {
            return;
        };
        if visits <= prior.visits {
            return;
        }
        let more = visits - prior.visits;
        prior.visits = visits;
        for (e, &value) in self.nodes[0].iter_mut().zip(&prior.edge_values) {
            e.visits += more;
            e.total += f64::from(more) * value;
            e.mean = e.total / f64::from(e.visits);
        }
    }
}

#[cfg(test)]
mod tests {
    use salpakan_engine::stratego::{Move, Piece, Rescue, Square, Stratego};

    use rand::Rng;
    use salpakan_engine::rng_from_seed;

    use super::super::Tree;
    use super::{Flat, SlotIndex, cannot_beat, ln};
    use salpakan_engine::Seat;

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
    fn a_node_whose_moves_repeat_one_selects_its_child_once_each_move_has_one() {
        // Never from the engine, but the tree must not stop there: the repeated move is
        // found by comparison, and once it has its child that child is selected.
        let plain = step((0, 3), (0, 4));
        let moves = [plain, plain];
        let mut tree = Flat::<Stratego>::new(&moves);
        let rng = &mut rng_from_seed(3);
        let (_, mv, next) = tree.descend(0, Seat::First, &moves, 0.7, rng).unwrap();
        assert_eq!(
            (mv, next),
            (plain, None),
            "the first visit expands the move"
        );
        let (_, mv, next) = tree.descend(0, Seat::First, &moves, 0.7, rng).unwrap();
        assert_eq!((mv, next), (plain, Some(1)), "the second selects its child");
    }

    /// Two root moves and a tree over them with a prior of `values` worth `visits`.
    fn two_moves_with_prior(values: [f64; 2], visits: u32) -> ([Move; 2], Flat<Stratego>) {
        let moves = [step((0, 3), (0, 4)), step((1, 3), (1, 4))];
        let mut tree = Flat::<Stratego>::new(&moves);
        tree.set_prior(values.to_vec(), visits);
        (moves, tree)
    }

    #[test]
    fn with_a_root_prior_each_root_child_starts_with_its_virtual_visits_at_its_value() {
        let (moves, mut tree) = two_moves_with_prior([0.25, 0.75], 50);
        let rng = &mut rng_from_seed(5);
        for _ in 0..2 {
            let (step, _, next) = tree.descend(0, Seat::First, &moves, 0.7, rng).unwrap();
            assert_eq!(next, None, "each visit expands a root move");
            tree.backup(&[step], 1.0, Seat::First);
        }
        let mut root = tree.root();
        root.sort_by(|a, b| a.2.total_cmp(&b.2));
        // Each child: 50 visits at its prior and one real visit won.
        assert_eq!(root[0].1, 51);
        assert!((root[0].2 - (50.0 * 0.25 + 1.0) / 51.0).abs() < 1e-12);
        assert_eq!(root[1].1, 51);
        assert!((root[1].2 - (50.0 * 0.75 + 1.0) / 51.0).abs() < 1e-12);
    }

    #[test]
    fn a_root_prior_weighed_more_adds_visits_at_its_value_and_never_takes_them_away() {
        let (moves, mut tree) = two_moves_with_prior([0.2, 0.6], 10);
        let rng = &mut rng_from_seed(7);
        let (first, _, _) = tree.descend(0, Seat::First, &moves, 0.7, rng).unwrap();
        tree.backup(&[first], 0.0, Seat::First);
        tree.weigh_prior(30);
        tree.weigh_prior(20);
        // The child expanded after the prior was weighed more starts with all of it.
        let (second, _, _) = tree.descend(0, Seat::First, &moves, 0.7, rng).unwrap();
        tree.backup(&[second], 0.0, Seat::First);
        let value = |m| if m == moves[0] { 0.2 } else { 0.6 };
        for (m, visits, mean) in tree.root() {
            assert_eq!(visits, 31, "{m:?}");
            assert!(
                (mean - 30.0 * value(m) / 31.0).abs() < 1e-12,
                "{m:?} {mean}"
            );
        }
    }

    #[test]
    fn ln_table_gives_the_values_of_f64_ln() {
        for n in [1u32, 2, 3, 1000, 65_535, 65_536, 1 << 20] {
            assert_eq!(ln(n).to_bits(), f64::from(n).ln().to_bits(), "{n}");
        }
    }

    /// The UCB score as the reference computes it.
    fn ucb(mean: f64, visits: u32, avail: u32, exploration: f64) -> f64 {
        mean + exploration * (ln(avail.max(1)) / f64::from(visits.max(1))).sqrt()
    }

    #[test]
    fn a_child_passed_over_without_its_score_could_not_have_beaten_the_best() {
        let rng = &mut rng_from_seed(16);
        let mut passed_over = 0;
        for _ in 0..200_000 {
            let exploration = [0.0, 0.4, 0.7, 1.4, 5.0][rng.random_range(0..5)];
            let visits = rng.random_range(0..2_000u32);
            let avail = visits + rng.random_range(0..5_000u32);
            let mean = rng.random_range(0.0..1.0);
            let score = ucb(mean, visits, avail, exploration);
            // A best just above the child's own score (ties and near ties), or anywhere.
            let best = if rng.random_bool(0.5) {
                score + f64::from(rng.random_range(-4..4i32)) * f64::EPSILON
            } else {
                rng.random_range(0.0..3.0)
            };
            if cannot_beat(best, mean, visits, ln(avail.max(1)), exploration) {
                passed_over += 1;
                assert!(
                    score <= best,
                    "{mean} {visits} {avail} {exploration}: {score} > {best}"
                );
            }
        }
        // The shortcut is taken often, or it would save nothing.
        assert!(passed_over > 50_000, "{passed_over}");
    }

    #[test]
    fn a_child_clearly_behind_is_passed_over_and_one_level_with_the_best_is_not() {
        // Mean 0.2 over 100 visits, 150 times available: its score is about 0.29.
        let ln_avail = ln(150);
        assert!(cannot_beat(0.5, 0.2, 100, ln_avail, 0.4));
        assert!(!cannot_beat(0.289, 0.2, 100, ln_avail, 0.4));
        assert!(!cannot_beat(0.2, 0.2, 100, ln_avail, 0.4));
        // Never for an exploration constant it does not vouch for.
        assert!(!cannot_beat(0.5, 0.2, 100, ln_avail, -0.4));
        assert!(!cannot_beat(1e9, 0.2, 100, ln_avail, 1e3));
    }
}
