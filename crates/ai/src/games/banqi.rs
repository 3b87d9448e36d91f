//! Banqi: the unseen pool is known exactly; flips are chance, resolved when played.

use rand::Rng;
use rand::seq::SliceRandom;
use salpakan_engine::banqi::{Action, Banqi, BanqiView, Deal, Kind, Move, Piece, Square};
use salpakan_engine::{Game, GameRng, Seat};

use super::{AiGame, replay, squash, terminal};
use crate::Knowledge;

/// What a Banqi seat knows of the deal: the piece on every square turned up so far. Every
/// other square holds one of the unseen pool, all arrangements equally likely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealBelief {
    /// The piece dealt on each square, where it has been turned up.
    pub known: [Option<Piece>; 32],
}

/// The deal belief from the seat's history: flips and face-down attempts reveal the piece
/// dealt on their square (face-down pieces never move).
#[must_use]
pub fn belief(k: &Knowledge<Banqi>) -> DealBelief {
    let mut known = [None; 32];
    for v in k.history() {
        let Some(p) = v.revealed else { continue };
        let sq = match Banqi::view_move(v) {
            Move::Flip(s) => Some(s),
            Move::Step { to, .. } if v.action == Action::Attempt => Some(to),
            _ => None,
        };
        if let Some(s) = sq {
            known[s.index()] = Some(p);
        }
    }
    DealBelief { known }
}

/// Every face-down piece with the unseen pool's rank distribution (exact: the pool is public
/// and any arrangement of it is equally likely).
fn hidden_marginals(k: &Knowledge<Banqi>) -> Vec<crate::analysis::HiddenPiece> {
    let obs = k.observation();
    let total: u32 = obs.face_down_pool.values().map(|&n| u32::from(n)).sum();
    if total == 0 {
        return Vec::new();
    }
    let ranks: Vec<(String, f64)> = obs
        .face_down_pool
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(code, &n)| (code.clone(), f64::from(n) / f64::from(total)))
        .collect();
    let ranks = crate::analysis::sorted(ranks);
    obs.board
        .iter()
        .filter(|(_, v)| v.face_down)
        .map(|(s, _)| crate::analysis::HiddenPiece {
            square: s.to_string(),
            ranks: ranks.clone(),
        })
        .collect()
}

/// A complete game consistent with the knowledge: the revealed pieces where they were
/// dealt, the unseen pool shuffled over the other squares, the history replayed.
#[must_use]
pub fn determinize(k: &Knowledge<Banqi>, b: &DealBelief, rng: &mut GameRng) -> Banqi {
    let mut rest: Vec<Piece> = Deal::sorted_pieces().to_vec();
    for p in b.known.iter().flatten() {
        if let Some(i) = rest.iter().position(|q| q == p) {
            rest.swap_remove(i);
        }
    }
    rest.shuffle(rng);
    let mut pieces = Deal::sorted_pieces();
    for (i, slot) in pieces.iter_mut().enumerate() {
        *slot = match b.known[i] {
            Some(p) => p,
            None => rest.pop().expect("32 pieces in all"),
        };
    }
    let deal = Deal::new(pieces).expect("two full sets");
    let mut g = Banqi::start(k.options(), deal).expect("a valid deal");
    replay(&mut g, k.history().iter().map(Banqi::view_move));
    g
}

/// Resolves a flip (or an attempt on a face-down piece) as chance: the square is made to
/// hold a piece drawn from the unseen pool with its probability.
pub fn resolve_chance(g: &mut Banqi, mv: Move, rng: &mut GameRng) {
    let sq = match mv {
        Move::Flip(s) => s,
        Move::Step { to, .. } if matches!(g.at(to), Some((_, true))) => to,
        _ => return,
    };
    let pool = g.unseen_pool();
    let total: u32 = pool.iter().map(|&n| u32::from(n)).sum();
    if total == 0 {
        return;
    }
    let mut r = rng.random_range(0..total);
    for p in Piece::ALL {
        let n = u32::from(pool[p.index()]);
        if r < n {
            g.set_face_down(sq, p);
            return;
        }
        r -= n;
    }
}

/// The logit of the evaluations per point of material (a Soldier is 1 point): the search
/// counts in points, [`evaluate`] in logits.
pub(crate) const LOGIT_PER_POINT: f64 = 0.35;

pub(crate) fn value(k: Kind) -> f64 {
    match k {
        Kind::General => 6.0,
        Kind::Advisor => 4.5,
        Kind::Elephant => 3.0,
        Kind::Chariot => 2.2,
        Kind::Horse => 1.6,
        Kind::Cannon => 3.2,
        Kind::Soldier => 1.0,
    }
}

/// How good the position is for `seat`.
#[must_use]
pub fn evaluate(g: &Banqi, seat: Seat) -> f64 {
    if let Some(v) = terminal(g, seat) {
        return v;
    }
    let Some(mine) = g.colour_of(seat) else {
        return 0.5;
    };
    let mut material = [0.0f64; 2];
    let mut count = [0u32; 2];
    for s in Square::all() {
        if let Some((p, _)) = g.at(s) {
            let c = p.color as usize;
            material[c] += value(p.kind);
            count[c] += 1;
        }
    }
    let me = mine as usize;
    let them = 1 - me;
    let mut score = (material[me] - material[them]) * LOGIT_PER_POINT;
    // The side to move may take its best capture now.
    if let Some(mover) = g.to_move() {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let best = moves
            .iter()
            .filter_map(|&mv| match mv {
                Move::Step { to, .. } => match g.at(to) {
                    Some((p, false)) => Some(value(p.kind)),
                    _ => None,
                },
                _ => None,
            })
            .fold(0.0f64, f64::max);
        let sign = if mover == seat { 1.0 } else { -1.0 };
        score += sign * best * LOGIT_PER_POINT * 0.7;
    }
    if count[me] + count[them] > 0 {
        score += (f64::from(count[me]) - f64::from(count[them])) * 0.05;
    }
    squash(score)
}

/// The value of the best capture `mv` makes on `g` (0 for other moves).
fn capture_value(g: &Banqi, mv: Move) -> f64 {
    match mv {
        Move::Step { to, .. } => match g.at(to) {
            Some((p, false)) => value(p.kind),
            _ => 0.0,
        },
        _ => 0.0,
    }
}

/// A playout move: the most valuable capture nine times in ten when there is one, else a
/// uniformly random legal move.
pub fn playout_move(g: &Banqi, rng: &mut GameRng) -> Option<Move> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    if rng.random_bool(0.9) {
        let mut best = 0.0;
        let mut pick = None;
        for &mv in &moves {
            let v = capture_value(g, mv);
            if v > best {
                best = v;
                pick = Some(mv);
            }
        }
        if pick.is_some() {
            return pick;
        }
    }
    Some(moves[rng.random_range(0..moves.len())])
}

/// Pressure of `colour`'s face-up pieces: for each (Cannons aside), the best enemy face-up
/// piece it takes and that cannot take it back, by value over one plus the distance.
pub(crate) fn pressure(g: &Banqi, colour: usize) -> f64 {
    let o = g.options();
    // The engine's one-square capture table, once per evaluation.
    let mut takes = [[false; 7]; 7];
    for a in Kind::ALL {
        for v in Kind::ALL {
            takes[a as usize][v as usize] = o.takes_by_step(a, v);
        }
    }
    // At most 16 face-up pieces a colour: fixed arrays, no allocation per evaluation.
    let mut up = [[(Square::all().next().expect("a square"), Kind::General); 16]; 2];
    let mut n = [0usize; 2];
    for s in Square::all() {
        if let Some((p, false)) = g.at(s) {
            let c = p.color as usize;
            up[c][n[c]] = (s, p.kind);
            n[c] += 1;
        }
    }
    let up = [&up[0][..n[0]], &up[1][..n[1]]];
    let mut total = 0.0;
    for &(s, a) in up[colour] {
        if a == Kind::Cannon {
            continue;
        }
        let mut best = 0.0f64;
        for &(t, v) in up[1 - colour] {
            if takes[a as usize][v as usize] && !takes[v as usize][a as usize] {
                best = best.max(value(v) / f64::from(1 + s.steps_to(t)));
            }
        }
        total += best;
    }
    total
}

/// The search's evaluation: [`evaluate`] plus pressure (pieces closing in on enemy pieces
/// they can take safely), weighted up for the side ahead in material so that a winning
/// side makes progress instead of drifting into the quiet-ply draw.
#[must_use]
pub fn search_evaluate(g: &Banqi, seat: Seat) -> f64 {
    if let Some(v) = terminal(g, seat) {
        return v;
    }
    let base = evaluate(g, seat);
    let Some(mine) = g.colour_of(seat) else {
        return base;
    };
    let me = mine as usize;
    let mut material = [0.0f64; 2];
    for s in Square::all() {
        if let Some((p, _)) = g.at(s) {
            material[p.color as usize] += value(p.kind);
        }
    }
    let lead = material[me] - material[1 - me];
    let weight = |l: f64| 0.04 * (1.0 + l.clamp(0.0, 6.0) / 2.0);
    let extra = weight(lead) * pressure(g, me) - weight(-lead) * pressure(g, 1 - me);
    // Back to the logit, add, squash again.
    let logit = (base.clamp(1e-9, 1.0 - 1e-9) / (1.0 - base.clamp(1e-9, 1.0 - 1e-9))).ln();
    squash(logit + extra)
}

impl AiGame for Banqi {
    type Belief = DealBelief;

    const MOVE_SLOTS: usize = 1 + Square::COUNT + Square::COUNT * Square::COUNT;

    fn move_slot(m: &Move) -> usize {
        match *m {
            Move::EndChain => 0,
            Move::Flip(s) => 1 + s.index(),
            Move::Step { from, to } => {
                1 + Square::COUNT + from.index() * Square::COUNT + to.index()
            }
        }
    }

    fn hidden_marginals(
        k: &Knowledge<Self>,
        _b: &DealBelief,
        _samples: u32,
        _rng: &mut GameRng,
    ) -> Vec<crate::analysis::HiddenPiece> {
        hidden_marginals(k)
    }
    const ROLLOUT_DEPTH: u32 = 4;
    const EXPERT_EVALUATION_IS_PUBLIC: bool = true;
    /// Fitted 0.401 over 120 arena games (`expert` against `greedy` and `mcts`, 36,960
    /// seat-plies): log loss 0.660 raw, 0.548 read through it (`docs/ai.md`).
    const ANALYSIS_SLOPE: f64 = 0.4;

    fn view_move(view: &BanqiView) -> Move {
        view.mv.parse().expect("a view's move parses")
    }

    fn belief(k: &Knowledge<Self>) -> DealBelief {
        belief(k)
    }

    fn determinize(k: &Knowledge<Self>, b: &DealBelief, rng: &mut GameRng) -> Self {
        determinize(k, b, rng)
    }

    fn before_play(g: &mut Self, mv: Move, rng: &mut GameRng) {
        resolve_chance(g, mv, rng);
    }

    fn evaluate(g: &Self, seat: Seat) -> f64 {
        evaluate(g, seat)
    }

    fn search_evaluate(g: &Self, seat: Seat) -> f64 {
        search_evaluate(g, seat)
    }

    fn playout_move(g: &Self, rng: &mut GameRng) -> Option<Move> {
        playout_move(g, rng)
    }

    /// The expert is its own search (`expert_search`), which needs no context.
    type ExpertContext = ();

    fn expert_context(_k: &Knowledge<Self>, _pool: &[Self]) {}

    fn expert_evaluate(g: &Self, seat: Seat, _ctx: &Self::ExpertContext) -> f64 {
        super::banqi_search::leaf_value(g, seat)
    }

    fn expert_search(
        k: &Knowledge<Self>,
        params: &crate::mcts::MctsParams,
        rng: &mut GameRng,
    ) -> crate::mcts::SearchResult<Move> {
        super::banqi_search::search(k, params, rng)
    }
}
