//! The Banqi `expert` search: expectiminimax with alpha-beta pruning (`docs/ai.md`).
//!
//! Banqi hides nothing from one player that it shows the other: the face-down pieces are
//! unknown to both, and the unseen pool is public. So a position is a perfect-information
//! position with chance, and the right search is the one computer Dark Chess programs use:
//! minimax over moves, an expectation over the pool at every flip (a *chance node*), a
//! capture search at the leaves, iterative deepening until the budget is spent. The
//! evaluation reads only what both players see: face-up pieces, the unseen pool (whose
//! colours are known) and the quiet-ply count; the face-down pieces of the position
//! searched are never looked at (a flip first makes the square hold the drawn piece).

use std::time::{Duration, Instant};

use salpakan_engine::banqi::{Banqi, FILES, Kind, Move, Piece, RANKS, Ruleset, Square};
use salpakan_engine::{Game, GameRng, Outcome, Seat};

use super::banqi::{LOGIT_PER_POINT, determinize, value};
use super::squash;
use crate::Knowledge;
use crate::mcts::{Budget, MctsParams, SearchResult};

/// At most this many enemy pieces left (face up or down) and the hunt is on.
pub const ENDGAME_PIECES: u32 = 4;

/// A won game's value (less the plies to reach it, so that the quicker win is preferred).
const WIN: f64 = 10_000.0;
/// Beyond any value.
const INF: f64 = 1.0e9;
/// Plies taken off the depth after a flip, besides the flip's own: a flip's outcomes are
/// up to 14 positions, so they are searched shallower (their captures still in full).
const FLIP_REDUCTION: i32 = 2;
/// Plies taken off, besides [`FLIP_REDUCTION`], for each flip already on the line above a
/// flip: two flips on one line are 14 × 14 outcomes, and without it each iteration whose
/// lines hold a second flip with a move after it costs some 60 times the last (depth 7 in
/// the opening: over 40 million positions, against 600,000 for depth 6).
const NESTED_FLIP_REDUCTION: i32 = 1;
/// The longest capture sequence the leaf search follows.
const CAPTURE_DEPTH: u32 = 12;
/// The deepest iteration.
const MAX_DEPTH: i32 = 64;
/// What the search takes off a draw, in points (a Soldier is 1), against a level game still
/// in play: the expert plays on in a level position (a flip, a capture, a threat) rather
/// than let the quiet-ply rule end it, and a position drifting towards that draw is drawn
/// towards this value instead of 0. Measured at fixed budgets against `mcts` (`docs/ai.md`).
const CONTEMPT: f64 = 2.0;

/// What one search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The move to play.
    pub best: Move,
    /// Its value for the seat: material points (a Soldier is 1), or about ±10,000 for a
    /// forced win or loss.
    pub score: f64,
    /// The deepest iteration completed.
    pub depth: i32,
    /// Positions searched.
    pub nodes: u64,
    /// Each root move with its value at the deepest iteration completed (an upper bound
    /// for the moves that were not the best).
    pub root: Vec<(Move, f64)>,
}

/// The seat's move: the search run on the public position (a determinization of its
/// knowledge whose face-down pieces the search never reads).
///
/// # Panics
/// If the seat has no legal move.
pub fn search(k: &Knowledge<Banqi>, params: &MctsParams, rng: &mut GameRng) -> SearchResult<Move> {
    let g = determinize(k, &super::banqi::belief(k), rng);
    let found = best_move(&g, k.seat(), params.budget);
    SearchResult {
        best: found.best,
        iterations: found.nodes,
        root: found
            .root
            .iter()
            .map(|&(mv, v)| (mv, found.depth.max(0) as u32, squash_points(v)))
            .collect(),
    }
}

/// A value in points as a chance of winning (0 to 1) for reports.
fn squash_points(v: f64) -> f64 {
    squash(LOGIT_PER_POINT * v.clamp(-100.0, 100.0))
}

/// Searches `g` for `seat` (to move) within `budget`: with [`Budget::Iterations`], that many
/// positions (deterministic); with [`Budget::Millis`], that much wall-clock time.
///
/// # Panics
/// If `seat` is not to move or has no legal move.
#[must_use]
pub fn best_move(g: &Banqi, seat: Seat, budget: Budget) -> Found {
    best_move_to_depth(g, seat, budget, MAX_DEPTH)
}

/// [`best_move`], stopping after the iteration of depth `max_depth` at the latest (for
/// measuring the search: the positions it takes to reach a depth).
///
/// # Panics
/// If `seat` is not to move or has no legal move.
#[must_use]
pub fn best_move_to_depth(g: &Banqi, seat: Seat, budget: Budget, max_depth: i32) -> Found {
    search_to_depth(g, seat, budget, max_depth, TABLE)
}

/// [`best_move_to_depth`] with a transposition table of `table` slots (a power of two, or
/// 0 for none).
fn search_to_depth(g: &Banqi, seat: Seat, budget: Budget, max_depth: i32, table: usize) -> Found {
    assert_eq!(g.to_move(), Some(seat), "the seat searched is to move");
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(!moves.is_empty(), "the seat has a legal move");
    let mut s = Searcher::new(g, seat, budget, table);
    order(g, &mut moves);
    let mut found = Found {
        best: moves[0],
        score: 0.0,
        depth: 0,
        nodes: 0,
        root: moves.iter().map(|&mv| (mv, 0.0)).collect(),
    };
    if moves.len() == 1 {
        return found;
    }
    for depth in 1..=max_depth.min(MAX_DEPTH) {
        let mut alpha = -INF;
        let mut results: Vec<(Move, f64)> = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let v = s.child(g, mv, depth, alpha, INF, 0);
            if s.stopped {
                break;
            }
            results.push((mv, v));
            alpha = alpha.max(v);
        }
        if s.stopped {
            // The first move searched is the last iteration's best: a move that beat it in
            // the unfinished iteration is better at this depth.
            if let Some(&(mv, v)) = results
                .iter()
                .skip(1)
                .filter(|r| r.1 > results[0].1)
                .max_by(|a, b| a.1.total_cmp(&b.1))
            {
                found.best = mv;
                found.score = v;
            }
            break;
        }
        // Best first for the next iteration (a stable sort keeps the order among equals).
        results.sort_by(|a, b| b.1.total_cmp(&a.1));
        moves = results.iter().map(|r| r.0).collect();
        found.best = results[0].0;
        found.score = results[0].1;
        found.depth = depth;
        found.root = results;
        if found.score.abs() > WIN / 2.0 {
            break; // A forced result: deeper search cannot change it.
        }
    }
    found.nodes = s.nodes;
    found
}

struct Searcher {
    me: Seat,
    /// How many flips the line being searched holds ([`NESTED_FLIP_REDUCTION`]).
    flips: i32,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    limit: Option<u32>,
    /// What a draw is worth to the seat searched, in points: [`CONTEMPT`] below a level
    /// game in play, or 0 for a neutral value ([`leaf_value`]).
    draw: f64,
    /// A move list per ply, reused.
    bufs: Vec<Vec<Move>>,
    /// The transposition table: one entry per slot, always the latest (simple and enough for searches of a fraction of a second).
    table: Vec<Option<Entry>>,
    /// The material of the pieces left, remembered.
    memo: MaterialMemo,
}

/// The key of the public position, for the transposition table: [`Banqi::search_key`] (the
/// board seen, the side to move, the colours, the quiet plies) and the unseen pool, which
/// the board does not fix (two lines of the search can turn up and lose different pieces on
/// the way to the same board).
fn position_key(g: &Banqi) -> u64 {
    // At most 5 of a piece: 3 bits each, 42 bits in all.
    let pool = g
        .unseen_pool()
        .iter()
        .enumerate()
        .fold(0u64, |k, (i, &n)| k | u64::from(n) << (3 * i));
    // The finalizer of SplitMix64.
    let mut z = g.search_key() ^ pool.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Transposition-table slots (a power of two).
const TABLE: usize = 1 << 17;

/// What a value stored in the table is.
#[derive(Clone, Copy, Debug)]
enum Bound {
    Exact,
    /// At least the value (the search failed high).
    Lower,
    /// At most the value (it failed low).
    Upper,
}

/// A searched position: [`position_key`], the value, how deep, what kind of bound,
/// and the best move found (searched first when the position comes again).
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    value: f64,
    depth: i32,
    bound: Bound,
    best: Option<Move>,
}

/// Values within this many points of a won (or lost) game's are forced results.
const FORCED: f64 = 256.0;

/// A value as the transposition table keeps it: a forced result counted in plies from the
/// node at `ply` rather than from the root, so that it holds wherever the position comes
/// again.
fn to_table(v: f64, ply: u32) -> f64 {
    if v >= WIN - FORCED {
        v + f64::from(ply)
    } else if v <= FORCED - WIN {
        v - f64::from(ply)
    } else {
        v
    }
}

/// A value from the transposition table, for the node at `ply`: [`to_table`] undone.
fn from_table(v: f64, ply: u32) -> f64 {
    if v >= WIN - FORCED {
        v - f64::from(ply)
    } else if v <= FORCED - WIN {
        v + f64::from(ply)
    } else {
        v
    }
}

/// The face-down square a move turns up (a flip, or an attempt on a face-down piece).
fn chance_square(g: &Banqi, mv: Move) -> Option<Square> {
    match mv {
        Move::Flip(s) => Some(s),
        Move::Step { to, .. } if matches!(g.at(to), Some((_, true))) => Some(to),
        _ => None,
    }
}

/// The value of the face-up piece a move captures, if it captures one.
fn captured_value(g: &Banqi, mv: Move) -> Option<f64> {
    match mv {
        Move::Step { to, .. } => match g.at(to) {
            Some((p, false)) => Some(value(p.kind)),
            _ => None,
        },
        _ => None,
    }
}

/// Move ordering: captures (most valuable victim first, then least valuable attacker),
/// then moves, then flips and attempts.
fn order(g: &Banqi, moves: &mut [Move]) {
    moves.sort_by_cached_key(|&mv| {
        if let Some(v) = captured_value(g, mv) {
            let a = match mv {
                Move::Step { from, .. } => g.at(from).map_or(0.0, |(p, _)| value(p.kind)),
                _ => 0.0,
            };
            (0, -((v * 100.0) as i64) + (a * 10.0) as i64)
        } else if chance_square(g, mv).is_some() {
            (2, 0)
        } else {
            (1, 0)
        }
    });
}

impl Searcher {
    /// A searcher for `seat` on `g`'s options within `budget` (counted from now), with a
    /// transposition table of `table` slots (0 for none: the capture search uses none).
    fn new(g: &Banqi, seat: Seat, budget: Budget, table: usize) -> Searcher {
        Searcher {
            me: seat,
            flips: 0,
            nodes: 0,
            max_nodes: match budget {
                Budget::Iterations(n) => n.max(1),
                Budget::Millis(_) => u64::MAX,
            },
            deadline: match budget {
                Budget::Millis(ms) => Some(Instant::now() + Duration::from_millis(ms.max(1))),
                Budget::Iterations(_) => None,
            },
            stopped: false,
            limit: g.options().max_quiet_plies.filter(|&l| l > 0),
            draw: -CONTEMPT,
            bufs: Vec::new(),
            table: vec![None; table],
            memo: MaterialMemo::new(),
        }
    }

    fn spent(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            self.stopped = true;
        } else if let Some(d) = self.deadline
            && self.nodes % 512 == 0
            && Instant::now() >= d
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn terminal(&self, o: Outcome, ply: u32) -> f64 {
        let s = o.score(self.me);
        if s > 0.75 {
            WIN - f64::from(ply)
        } else if s < 0.25 {
            -WIN + f64::from(ply)
        } else {
            self.draw
        }
    }

    /// The value of playing `mv` on `g` with `depth` plies left (the move's included).
    fn child(&mut self, g: &Banqi, mv: Move, depth: i32, alpha: f64, beta: f64, ply: u32) -> f64 {
        if let Some(sq) = chance_square(g, mv) {
            let pool = g.unseen_pool();
            let total: u32 = pool.iter().map(|&n| u32::from(n)).sum();
            let mut sum = 0.0;
            for p in Piece::ALL {
                let n = pool[p.index()];
                if n == 0 {
                    continue;
                }
                let mut h = g.clone();
                h.set_face_down(sq, p);
                h.play_unchecked(mv);
                let reduction = FLIP_REDUCTION + NESTED_FLIP_REDUCTION * self.flips;
                self.flips += 1;
                let v = self.value(&h, depth - 1 - reduction, -INF, INF, ply + 1);
                self.flips -= 1;
                if self.stopped {
                    return 0.0;
                }
                sum += f64::from(n) / f64::from(total) * v;
            }
            sum
        } else {
            let mut h = g.clone();
            h.play_unchecked(mv);
            self.value(&h, depth - 1, alpha, beta, ply + 1)
        }
    }

    /// Minimax with alpha-beta: the seat searched maximizes.
    fn value(&mut self, g: &Banqi, depth: i32, mut alpha: f64, mut beta: f64, ply: u32) -> f64 {
        if let Some(o) = g.outcome() {
            return self.terminal(o, ply);
        }
        if depth <= 0 {
            return self.captures(g, alpha, beta, ply, 0);
        }
        if self.spent() {
            return 0.0;
        }
        let key = position_key(g);
        let slot = (key as usize) & self.table.len().wrapping_sub(1);
        let mut hint = None;
        if let Some(e) = self
            .table
            .get(slot)
            .copied()
            .flatten()
            .filter(|e| e.key == key)
        {
            hint = e.best;
            if e.depth >= depth {
                let v = from_table(e.value, ply);
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let maxing = g.to_move() == Some(self.me);
        let mut moves = self.buffer(ply);
        g.legal_moves(&mut moves);
        order(g, &mut moves);
        if let Some(i) = hint.and_then(|h| moves.iter().position(|&m| m == h)) {
            moves[..=i].rotate_right(1);
        }
        let mut best = if maxing { -INF } else { INF };
        let mut best_move = None;
        for &mv in &moves {
            let v = self.child(g, mv, depth, alpha, beta, ply);
            if self.stopped {
                break;
            }
            if (maxing && v > best) || (!maxing && v < best) {
                best = v;
                best_move = Some(mv);
            }
            if maxing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.bufs[ply as usize] = moves;
        if self.stopped {
            return 0.0;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if let Some(e) = self.table.get_mut(slot) {
            *e = Some(Entry {
                key,
                value: to_table(best, ply),
                depth,
                bound,
                best: best_move,
            });
        }
        best
    }

    /// The move list for a node at `ply`, reused (cleared) from the last node there.
    fn buffer(&mut self, ply: u32) -> Vec<Move> {
        let i = ply as usize;
        if self.bufs.len() <= i {
            self.bufs.resize_with(i + 1, Vec::new);
        }
        let mut b = std::mem::take(&mut self.bufs[i]);
        b.clear();
        b
    }

    /// The capture search at a leaf: the side to move may stand on the evaluation or take.
    fn captures(&mut self, g: &Banqi, mut alpha: f64, mut beta: f64, ply: u32, d: u32) -> f64 {
        if let Some(o) = g.outcome() {
            return self.terminal(o, ply);
        }
        if self.spent() {
            return 0.0;
        }
        let stand = self.evaluate(g);
        if d >= CAPTURE_DEPTH {
            return stand;
        }
        let maxing = g.to_move() == Some(self.me);
        if maxing {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let mut moves = self.buffer(ply);
        g.legal_captures(&mut moves);
        order(g, &mut moves);
        let mut best = stand;
        for &mv in &moves {
            let mut h = g.clone();
            h.play_unchecked(mv);
            let v = self.captures(&h, alpha, beta, ply + 1, d + 1);
            if self.stopped {
                break;
            }
            if maxing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.bufs[ply as usize] = moves;
        if self.stopped { 0.0 } else { best }
    }

    /// The position's value for the seat searched, in points, from what both players see:
    /// [`evaluate_public`], drawn towards the search's value of a draw (`draw`) as the
    /// quiet-ply count nears its limit, as that evaluation is drawn towards 0.
    fn evaluate(&mut self, g: &Banqi) -> f64 {
        let memo = &mut self.memo;
        let x = evaluate_with(g, self.me, self.limit, |alive| memo.get(g, alive));
        match self.limit {
            Some(limit) if self.draw != 0.0 => x + self.draw * quiet_pull(g, limit),
            _ => x,
        }
    }
}

/// The value the search gives a position at its leaves, for `seat`, as a chance of winning
/// (0 to 1): the capture search from `g` on [`evaluate_public`] (a won or lost game is 1 or
/// 0). The analysis for players reads it (`AiGame::expert_evaluate`).
#[must_use]
pub fn leaf_value(g: &Banqi, seat: Seat) -> f64 {
    let mut s = Searcher::new(g, seat, Budget::Iterations(100_000), 0);
    // The analysis reads a neutral chance: a draw is worth a draw.
    s.draw = 0.0;
    if let Some(o) = g.outcome() {
        return o.score(seat);
    }
    let v = s.captures(g, -INF, INF, 0, 0);
    if s.stopped {
        squash_points(evaluate_public(g, seat, s.limit))
    } else if v.abs() > WIN / 2.0 {
        if v > 0.0 { 1.0 } else { 0.0 }
    } else {
        squash_points(v)
    }
}

/// The search's evaluation for `seat`, in points (a Soldier is 1), reading only what both
/// players see: material (face-up pieces, plus the unseen pool, whose colours are known),
/// each piece's value moved by what it can still take (`dynamic_material`); pressure on
/// enemy pieces a piece can take safely, weighted up for the side ahead; the hunt of the
/// last enemy pieces when far ahead; all shrunk towards the draw as the quiet-ply count
/// nears its limit.
#[must_use]
pub fn evaluate_public(g: &Banqi, seat: Seat, limit: Option<u32>) -> f64 {
    evaluate_with(g, seat, limit, |alive| dynamic_material(g, alive))
}

/// [`evaluate_public`], with each colour's material from `material` given the pieces left
/// ([`dynamic_material`], or the search's [`MaterialMemo`] of it).
fn evaluate_with(
    g: &Banqi,
    seat: Seat,
    limit: Option<u32>,
    material: impl FnOnce(&[[u32; 7]; 2]) -> [f64; 2],
) -> f64 {
    let Some(mine) = g.colour_of(seat) else {
        return 0.0;
    };
    let me = mine as usize;
    let up = FaceUp::of(g);
    let mut left = up.n.map(|n| n as u32);
    let pool = g.unseen_pool();
    let mut alive = up.counts;
    for p in Piece::ALL {
        let n = pool[p.index()];
        left[p.color as usize] += u32::from(n);
        alive[p.color as usize][p.kind as usize] += u32::from(n);
    }
    let material = material(&alive);
    let lead = material[me] - material[1 - me];
    // The pressure and hunt terms were tuned as logits.
    let weight = |l: f64| 0.04 * (1.0 + l.clamp(0.0, 6.0) / 2.0) / LOGIT_PER_POINT;
    let safe = safe_victims(&g.step_captures());
    let mut x =
        lead + weight(lead) * up.pressure(&safe, me) - weight(-lead) * up.pressure(&safe, 1 - me);
    for (c, sign) in [(me, 1.0), (1 - me, -1.0)] {
        if material[c] - material[1 - c] > 1.5 && left[1 - c] <= ENDGAME_PIECES {
            x += sign * hunt(g, &up, c) / LOGIT_PER_POINT;
        }
    }
    if let Some(limit) = limit {
        x *= 1.0 - quiet_pull(g, limit);
    }
    x
}

/// How far the quiet-move draw pulls a position's value towards a draw's: (quiet plies ÷
/// `limit`)², 0 after a capture or a flip, 1 at the limit ([`super::quiet_pull`] from the
/// first quiet ply).
fn quiet_pull(g: &Banqi, limit: u32) -> f64 {
    super::quiet_pull(g.quiet_plies(), limit, 0.0)
}

/// How many of each kind a colour starts with, by [`Kind`] ([`Kind::count`]).
const ARMY: [u32; 7] = {
    let mut army = [0; 7];
    let mut i = 0;
    while i < army.len() {
        army[i] = Kind::ALL[i].count() as u32;
        i += 1;
    }
    army
};

/// How much of a piece's value moves with what it can still take ([`dynamic_material`]):
/// its value is `1 - DYNAMIC` of [`value`] fixed, and `DYNAMIC` of it scaled by its prey.
const DYNAMIC: f64 = 0.5;

/// Each colour's material (`alive`: its pieces left of each kind, face up or down, by
/// [`Kind`]), with each piece's [`value`] moved by what it can still take: the share of
/// the enemy's material left that its kind takes (by a step, or a Taiwan Cannon's jump),
/// against that share in a full army, weighted by [`DYNAMIC`]. A Soldier is worth less
/// once the enemy General is gone, a General more once the enemy Soldiers are; a full
/// army against a full army is worth its plain values.
fn dynamic_material(g: &Banqi, alive: &[[u32; 7]; 2]) -> [f64; 2] {
    let mut prey = g.step_captures();
    if g.options().ruleset == Ruleset::Taiwan {
        prey[Kind::Cannon as usize] = 0x7f;
    }
    let full = prey_shares(&prey, &ARMY);
    let mut material = [0.0; 2];
    for (c, m) in material.iter_mut().enumerate() {
        let now = prey_shares(&prey, &alive[1 - c]);
        for k in Kind::ALL {
            let n = alive[c][k as usize];
            if n == 0 {
                continue;
            }
            let mut v = value(k);
            let f = full[k as usize];
            if f > 0.0 {
                v *= 1.0 - DYNAMIC + DYNAMIC * now[k as usize] / f;
            }
            *m += v * f64::from(n);
        }
    }
    material
}

/// Slots of a [`MaterialMemo`] (a power of two).
const MEMO: usize = 256;

/// A search's memo of [`dynamic_material`], by the pieces left: they change only with a
/// capture, so the leaves of a search share a few counts, and the shares (a division each)
/// cost the search a third of its speed when computed at every leaf. One game's rules per
/// memo (the search's).
struct MaterialMemo {
    /// The counts packed 3 bits each behind a leading 1 (so never 0, the empty slot's key),
    /// and the material.
    slots: Vec<(u64, [f64; 2])>,
}

impl MaterialMemo {
    fn new() -> MaterialMemo {
        MaterialMemo {
            slots: vec![(0, [0.0; 2]); MEMO],
        }
    }

    /// [`dynamic_material`] of `alive` on `g` (a position of the memo's game).
    fn get(&mut self, g: &Banqi, alive: &[[u32; 7]; 2]) -> [f64; 2] {
        let key = alive
            .iter()
            .flatten()
            .fold(1u64, |k, &n| k << 3 | u64::from(n.min(7)));
        let i = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MEMO.trailing_zeros());
        let slot = &mut self.slots[i as usize];
        if slot.0 != key {
            *slot = (key, dynamic_material(g, alive));
        }
        slot.1
    }
}

/// For each kind, the share of an army's material (`counts`, by [`Kind`]) that it takes
/// (`prey`: the kinds each kind takes, a bit per [`Kind`]); 0 for an empty army.
fn prey_shares(prey: &[u8; 7], counts: &[u32; 7]) -> [f64; 7] {
    let mut x = [0.0; 7];
    let mut t = 0.0;
    for v in Kind::ALL {
        x[v as usize] = value(v) * f64::from(counts[v as usize]);
        t += x[v as usize];
    }
    let mut shares = [0.0; 7];
    if t > 0.0 {
        for (k, share) in shares.iter_mut().enumerate() {
            let mut bits = prey[k];
            let mut p = 0.0;
            while bits != 0 {
                p += x[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            *share = p / t;
        }
    }
    shares
}

/// The kinds by [`value`], the most valuable first.
const BY_VALUE: [Kind; 7] = [
    Kind::General,
    Kind::Advisor,
    Kind::Cannon,
    Kind::Elephant,
    Kind::Chariot,
    Kind::Horse,
    Kind::Soldier,
];

/// The farthest two squares of the 4 × 8 board are apart, in single steps.
const FARTHEST: usize = (FILES + RANKS - 2) as usize;

/// `RINGS[s][d]`: the squares exactly `d` single steps from square `s`, a bit per square
/// index.
static RINGS: [[u32; FARTHEST + 1]; Square::COUNT] = rings();

const fn rings() -> [[u32; FARTHEST + 1]; Square::COUNT] {
    const F: usize = FILES as usize;
    let mut r = [[0u32; FARTHEST + 1]; Square::COUNT];
    let mut s = 0usize;
    while s < Square::COUNT {
        let mut t = 0usize;
        while t < Square::COUNT {
            let d = (s % F).abs_diff(t % F) + (s / F).abs_diff(t / F);
            r[s][d] |= 1 << t;
            t += 1;
        }
        s += 1;
    }
    r
}

/// The face-up pieces of a position, read once per evaluation: by colour in square order,
/// and as a bit per square for each colour and kind.
struct FaceUp {
    /// Each colour's face-up pieces, in square order.
    pieces: [[(Square, Kind); 16]; 2],
    /// How many of `pieces` each colour has.
    n: [usize; 2],
    /// Each colour's face-up pieces of each kind, a bit per square index.
    kinds: [[u32; 7]; 2],
    /// How many face-up pieces of each kind each colour has (counted as they are read: a
    /// count of `kinds`' bits costs a fifth of the search's speed where the processor
    /// baseline has no population-count instruction).
    counts: [[u32; 7]; 2],
}

/// For each attacking kind, the kinds it takes by a step and that cannot take it back by
/// one, a bit per place in [`BY_VALUE`]. `caps` is [`Banqi::step_captures`].
fn safe_victims(caps: &[u8; 7]) -> [u8; 7] {
    let takes = |a: Kind, v: Kind| caps[a as usize] & (1 << v as u8) != 0;
    let mut safe = [0u8; 7];
    for (i, &v) in BY_VALUE.iter().enumerate() {
        for a in BY_VALUE {
            if takes(a, v) && !takes(v, a) {
                safe[a as usize] |= 1 << i;
            }
        }
    }
    safe
}

impl FaceUp {
    fn of(g: &Banqi) -> FaceUp {
        let a1 = Square::new(0, 0).expect("a1 is on the board");
        let mut up = FaceUp {
            pieces: [[(a1, Kind::General); 16]; 2],
            n: [0; 2],
            kinds: [[0; 7]; 2],
            counts: [[0; 7]; 2],
        };
        for (s, p) in g.face_up() {
            let c = p.color as usize;
            up.pieces[c][up.n[c]] = (s, p.kind);
            up.n[c] += 1;
            up.kinds[c][p.kind as usize] |= 1 << s.index();
            up.counts[c][p.kind as usize] += 1;
        }
        up
    }

    /// The pressure of `colour`'s pieces (the value [`pressure`] gives, computed faster):
    /// for each face-up piece but a Cannon, the best value ÷ (1 + distance) among the enemy
    /// face-up pieces it takes by a step and that cannot take it back. `safe` is
    /// [`safe_victims`]: the kinds no piece can take safely, or that are not on the board,
    /// are never looked at.
    fn pressure(&self, safe: &[u8; 7], colour: usize) -> f64 {
        // The enemy kinds face up, a bit per place in `BY_VALUE`.
        let present = BY_VALUE
            .iter()
            .enumerate()
            .filter(|&(_, &k)| self.kinds[1 - colour][k as usize] != 0)
            .fold(0u8, |m, (i, _)| m | 1 << i);
        let mut total = 0.0;
        for &(s, a) in &self.pieces[colour][..self.n[colour]] {
            let mut victims = safe[a as usize] & present;
            if a == Kind::Cannon || victims == 0 {
                continue;
            }
            let rings = &RINGS[s.index()];
            let mut best = 0.0f64;
            // The victims' kinds, the most valuable first.
            while victims != 0 {
                let v = BY_VALUE[victims.trailing_zeros() as usize];
                victims &= victims - 1;
                let worth = value(v);
                // No piece of this kind or the next (worth no more) can beat `best`.
                if worth <= best {
                    break;
                }
                let there = self.kinds[1 - colour][v as usize];
                // The nearest piece of the kind: the value falls as the distance grows.
                for (d, &ring) in rings.iter().enumerate().skip(1) {
                    let x = worth / (1.0 + d as f64);
                    if x <= best {
                        break;
                    }
                    if ring & there != 0 {
                        best = x;
                        break;
                    }
                }
            }
            total += best;
        }
        total
    }
}

/// The hunt for `colour` (0 red, 1 black) against the other colour's last pieces, averaged
/// over the enemy's face-up pieces: 0.06 for each square by which the nearest of our
/// face-up pieces that takes it by a step is closer than 10, and 0.04 for each of its four
/// neighbours that is not an empty square it could flee to.
fn hunt(g: &Banqi, up: &FaceUp, colour: usize) -> f64 {
    let o = g.options();
    let ours = &up.pieces[colour][..up.n[colour]];
    let theirs = &up.pieces[1 - colour][..up.n[1 - colour]];
    if theirs.is_empty() {
        return 0.0;
    }
    let mut x = 0.0;
    for &(t, v) in theirs {
        let nearest = ours
            .iter()
            .filter(|&&(_, a)| a != Kind::Cannon && o.takes_by_step(a, v))
            .map(|&(s, _)| u32::from(s.steps_to(t)))
            .min();
        if let Some(d) = nearest {
            x += 0.06 * f64::from(10u32.saturating_sub(d));
        }
        let free = super::neighbours(t).filter(|&s| g.at(s).is_none()).count();
        x += 0.04 * (4 - free) as f64;
    }
    x / theirs.len() as f64
}

#[cfg(test)]
mod tests {
    use rand::Rng;
    use salpakan_engine::banqi::{BanqiOptions, Color, Deal, Ruleset};
    use salpakan_engine::{Game, rng_from_seed};

    use super::*;
    use crate::games::banqi::pressure;

    /// The fast pressure gives exactly the reference's value (the `mcts` evaluation's, kept
    /// as it is), bit for bit, in positions of random games under every ruleset.
    #[test]
    fn fast_pressure_is_the_reference_pressure_bit_for_bit() {
        let mut rulesets = Vec::new();
        for r in [Ruleset::Taiwan, Ruleset::HongKong, Ruleset::Mainland] {
            for direct in [false, true] {
                rulesets.push(BanqiOptions {
                    ruleset: r,
                    cannon_direct: direct,
                    capture_face_down: direct,
                    ..BanqiOptions::default()
                });
            }
        }
        let mut compared = 0;
        for (i, o) in rulesets.iter().enumerate() {
            let mut rng = rng_from_seed(i as u64);
            for _ in 0..20 {
                let mut g = Banqi::start(o, Deal::random(&mut rng)).expect("a deal starts a game");
                while g.outcome().is_none() {
                    let safe = safe_victims(&g.step_captures());
                    let up = FaceUp::of(&g);
                    for c in 0..2 {
                        assert_eq!(
                            up.pressure(&safe, c).to_bits(),
                            pressure(&g, c).to_bits(),
                            "{o:?}"
                        );
                        compared += 1;
                    }
                    let mv = g.random_move(&mut rng).expect("a move while the game runs");
                    g.play_unchecked(mv);
                    if rng.random_range(0..400) == 0 {
                        break;
                    }
                }
            }
        }
        assert!(compared > 10_000, "{compared} positions compared");
    }

    /// A piece is worth what it can still take: a full army is worth its plain values; a
    /// Soldier, which takes only Soldiers and the General, is worth less once the enemy
    /// General is gone, and a General, which takes all but Soldiers, more once the enemy
    /// Soldiers are gone.
    #[test]
    fn banqi_a_piece_is_worth_what_it_can_still_take() {
        let g = Banqi::start(
            &BanqiOptions::default(),
            Deal::random(&mut rng_from_seed(1)),
        )
        .expect("a deal starts a game");
        let plain = |army: &[u32; 7]| {
            Kind::ALL
                .iter()
                .map(|&k| value(k) * f64::from(army[k as usize]))
                .sum::<f64>()
        };
        let full = dynamic_material(&g, &[ARMY, ARMY]);
        assert!((full[0] - plain(&ARMY)).abs() < 1e-9, "{full:?}");
        assert!((full[1] - plain(&ARMY)).abs() < 1e-9, "{full:?}");

        let soldiers = [0, 0, 0, 0, 0, 0, 5];
        let no_general = [0, 2, 2, 2, 2, 2, 5];
        let with_general = dynamic_material(&g, &[soldiers, ARMY])[0];
        let without = dynamic_material(&g, &[soldiers, no_general])[0];
        assert!(
            without < with_general - 0.5,
            "{without} against {with_general}"
        );

        let general = [1, 0, 0, 0, 0, 0, 0];
        let no_soldiers = [1, 2, 2, 2, 2, 2, 0];
        let against_soldiers = dynamic_material(&g, &[general, ARMY])[0];
        let against_none = dynamic_material(&g, &[general, no_soldiers])[0];
        assert!(
            against_none > against_soldiers,
            "{against_none} against {against_soldiers}"
        );
    }

    /// A forced win stored at one node and read at another keeps its distance from the
    /// node reading it: the table counts forced results from the node that stored them.
    #[test]
    fn a_forced_result_read_from_the_table_counts_plies_from_the_node_reading_it() {
        // Found at ply 2: won 5 plies from the root, so 3 plies from that node.
        let stored = to_table(WIN - 5.0, 2);
        assert_eq!(from_table(stored, 2), WIN - 5.0);
        assert_eq!(
            from_table(stored, 4),
            WIN - 7.0,
            "3 plies from a node at ply 4"
        );
        assert_eq!(from_table(to_table(5.0 - WIN, 2), 6), 9.0 - WIN);
        // Other values are kept as they are.
        assert_eq!(from_table(to_table(12.5, 3), 7), 12.5);
    }

    /// The table changes how many positions a search visits, not the forced win it finds
    /// or how far away it is.
    #[test]
    fn the_table_keeps_a_forced_wins_distance() {
        for rows in [
            ". . . .\n. . . n\n. . . .\n. . . .\n. G . .\n. . R .\n. . . .\nK . . .",
            ". . . .\n. . r .\n. . . .\n. . . .\n. . . .\n. G . M\n. . . .\n. . . K",
        ] {
            let g = Banqi::from_diagram(&BanqiOptions::default(), rows, Color::Red, Seat::First)
                .expect("a legal diagram");
            let with = search_to_depth(&g, Seat::First, Budget::Iterations(u64::MAX), 10, TABLE);
            let without = search_to_depth(&g, Seat::First, Budget::Iterations(u64::MAX), 10, 0);
            assert!(
                with.score > WIN / 2.0,
                "a forced win in {rows}: {}",
                with.score
            );
            assert_eq!(with.score, without.score, "{rows}");
            assert!(with.nodes < without.nodes);
        }
    }
}
