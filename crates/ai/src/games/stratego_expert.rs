//! Stratego knowledge of the `expert` bot, from the games `mcts` lost (`docs/ai.md`):
//! pieces that never move are likelier Bombs or the Flag, pieces that charge at our known
//! pieces are likelier strong, high pieces do not probe unmoved pieces, the movable army
//! and the Bombs around the Flag are worth keeping, Miners near them are a threat, a piece
//! the side to move can take is as good as taken (the Spy first of all), pieces that take
//! Miners are kept near the Flag's doors, and a Flag that an enemy piece can reach before
//! any guard is likely lost.

use salpakan_engine::stratego::{Duel, FILES, Move, Piece, RANKS, Square, Stratego};
use salpakan_engine::{Game, GameKind, Seat};

use super::stratego::{belief as base_belief, score_on, sq, value};
use super::{logit, neighbours, squash, terminal};
use crate::Knowledge;
use crate::belief::Belief;

const BOMB: usize = Piece::Bomb as usize;
const FLAG: usize = Piece::Flag as usize;

/// The pieces that leave unmoved enemy pieces to Miners and low pieces.
const HIGH: [Piece; 3] = [Piece::Marshal, Piece::General, Piece::Colonel];

/// Above this share of sampled states with a Bomb there, a high piece does not attack an
/// unmoved enemy piece.
pub const BOMB_RISK: f32 = 0.05;

/// How many times likelier than its start square says an enemy piece that has never moved
/// is a Bomb or the Flag, given the enemy plies during which it could have stepped to an
/// empty neighbour and did not (`free_plies`), and how much of the enemy army has moved: a
/// movable piece is seldom left standing with room to move, the less so the more of its
/// army is on the move. (Every unmoved piece stood still equally long; what tells them apart
/// is whether they could have moved: a piece boxed in behind others tells nothing.)
#[must_use]
pub fn stillness_weight(free_plies: u32, moved: usize, tokens: usize) -> f64 {
    let moved_share = moved as f64 / tokens.max(1) as f64;
    1.0 + f64::from(free_plies.min(200)) / 25.0 * (0.5 + moved_share)
}

/// The expert belief: [`super::stratego::belief`] with priors weighted by behaviour.
/// A piece that never moved has its Bomb and Flag weights multiplied by
/// [`stillness_weight`] of the enemy plies it had an empty neighbour; an unknown piece whose last move brought it next to one of our
/// pieces the enemy knows (after that piece arrived) is weighted 2.5 for the ranks that
/// beat it and 0.6 for the others.
#[must_use]
pub fn belief(k: &Knowledge<Stratego>) -> Belief {
    let b = base_belief(k);
    let mut tokens = b.tokens().to_vec();
    let moved = tokens.iter().filter(|t| t.moves > 0).count();
    let free = free_plies(k);
    let n = tokens.len();
    for t in &mut tokens {
        if t.moves == 0 && t.square.is_some() {
            let w = stillness_weight(free[usize::from(t.start)], moved, n);
            t.prior[BOMB] *= w;
            t.prior[FLAG] *= w;
        }
    }
    // The ply at which a piece last arrived on each square (None: it started there).
    let mut arrived: [Option<usize>; 100] = [None; 100];
    for (i, v) in k.history().iter().enumerate() {
        arrived[v.to.index()] = Some(i);
    }
    let me = GameKind::Stratego.seat_name(k.seat());
    let options = k.options();
    let known_own: Vec<(Square, Piece)> = k
        .observation()
        .board
        .iter()
        .filter(|(_, v)| v.owner == me && v.known)
        .filter_map(|(s, v)| v.piece.filter(|p| p.is_movable()).map(|p| (*s, p)))
        .collect();
    for t in &mut tokens {
        let Some(at) = t.square else { continue };
        if t.moves == 0 || t.allowed.count_ones() <= 1 {
            continue;
        }
        let at = sq(at);
        let Some(came) = arrived[at.index()] else {
            continue;
        };
        for &(s, mine) in &known_own {
            let charged = s.steps_to(at) == 1 && arrived[s.index()].is_none_or(|j| j < came);
            if !charged {
                continue;
            }
            for p in Piece::ALL.into_iter().filter(|p| p.is_movable()) {
                t.prior[p as usize] *= if options.battle(p, mine) == Duel::AttackerWins {
                    2.5
                } else {
                    0.6
                };
            }
        }
    }
    Belief::new(b.counts().to_vec(), tokens)
}

/// For each square, the enemy plies during which the enemy piece that started there had not
/// yet moved and had an empty neighbour (counted while it stands on its start square).
#[must_use]
pub fn free_plies(k: &Knowledge<Stratego>) -> [u32; 100] {
    let enemy = GameKind::Stratego.seat_name(k.seat().other());
    let mut occupied = [false; 100];
    let mut moved = [false; 100];
    for (s, _) in &k.initial().board {
        occupied[s.index()] = true;
    }
    let mut free = [0u32; 100];
    for v in k.history() {
        if v.seat == enemy {
            for (i, &occ) in occupied.iter().enumerate() {
                if !occ || moved[i] {
                    continue;
                }
                let here = sq(i as u8);
                if neighbours(here).any(|n| !occupied[n.index()] && !n.is_lake()) {
                    free[i] += 1;
                }
            }
        }
        let (from, to) = (v.from.index(), v.to.index());
        occupied[from] = false;
        moved[from] = true;
        moved[to] = true;
        occupied[to] = !matches!(v.attack.map(|a| a.result), Some(Duel::BothRemoved));
        if let Some(r) = v.rescue {
            occupied[r.square.index()] = true;
            moved[r.square.index()] = true;
        }
    }
    free
}

/// What the expert evaluation knows of the root.
#[derive(Clone, Debug)]
pub struct Context {
    /// For each square holding an unknown enemy piece that never moved: the share of the
    /// sampled states with a Bomb there (0 elsewhere).
    bomb: [f32; 100],
    /// The logit [`evaluate`] takes off before it makes a chance of it: 0, or in the
    /// search, the centre of the root's sampled states (see [`super::centre`]).
    centre: f64,
    /// Whether [`evaluate`] draws its value towards a draw's ([`DRAW`]) as the quiet plies
    /// near their limit ([`quiet_pull`]): in the search only.
    quiet_draw: bool,
}

impl Context {
    /// The share of sampled states with a Bomb on `s`, for an unknown enemy piece that never
    /// moved (0 for every other square).
    #[must_use]
    pub fn bomb_share(&self, s: Square) -> f32 {
        self.bomb[s.index()]
    }
}

/// The context for one move.
#[must_use]
pub fn context(k: &Knowledge<Stratego>, pool: &[Stratego]) -> Context {
    let enemy = k.seat().other();
    let name = GameKind::Stratego.seat_name(enemy);
    let mut bomb = [0.0f32; 100];
    for (s, v) in &k.observation().board {
        if v.owner == name && !v.moved && v.piece.is_none() {
            let n = pool
                .iter()
                .filter(|g| g.at(*s) == Some((enemy, Piece::Bomb)))
                .count();
            bomb[s.index()] = n as f32 / pool.len().max(1) as f32;
        }
    }
    Context {
        bomb,
        centre: 0.0,
        quiet_draw: false,
    }
}

/// The context the expert's search evaluates with: [`context`], centred on the root's
/// sampled states (see `super::centre`), with the quiet plies drawing its values towards a
/// draw's ([`quiet_pull`]).
#[must_use]
pub fn search_context(k: &Knowledge<Stratego>, pool: &[Stratego]) -> Context {
    let centre = super::centre(pool.iter().map(|g| parts(g, k.seat()).0));
    Context {
        centre,
        quiet_draw: true,
        ..context(k, pool)
    }
}

/// The root moves: all but a Marshal's, General's or Colonel's attack on an unknown piece
/// that never moved and is a Bomb in more than [`BOMB_RISK`] of the samples (Miners and
/// low pieces probe those). If that leaves nothing, or the enemy is in the endgame (at most
/// `ENDGAME` movable pieces in the first sample), every legal move.
#[must_use]
pub fn root_moves(
    k: &Knowledge<Stratego>,
    pool: &[Stratego],
    legal: &[Move],
    ctx: &Context,
) -> Vec<Move> {
    let me = k.seat();
    let Some(g) = pool.first() else {
        return legal.to_vec();
    };
    // In the endgame a high piece may dig: the Flag is among the few unmoved pieces left.
    let enemy_movable = Square::all()
        .filter(|&s| matches!(g.at(s), Some((o, p)) if o != me && p.is_movable()))
        .count();
    if enemy_movable <= ENDGAME as usize {
        return legal.to_vec();
    }
    let keep: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|mv| match g.at(mv.from) {
            Some((o, p)) if o == me && HIGH.contains(&p) => ctx.bomb_share(mv.to) <= BOMB_RISK,
            _ => true,
        })
        .collect();
    if keep.is_empty() {
        legal.to_vec()
    } else {
        keep
    }
}

/// One side's pieces in a sampled state, as bits of their squares (bit `Square::index`).
#[derive(Default)]
struct Side {
    /// How many movable pieces it has.
    movable: u32,
    flag: Option<Square>,
    /// Its movable pieces.
    mobile: u128,
    bombs: u128,
    miners: u128,
    spies: u128,
    /// Its Marshal and General.
    strong: u128,
    /// Its movable pieces that take a Miner.
    keepers: u128,
}

/// The squares of `bits`, in the order of their indices.
fn squares(bits: u128) -> impl Iterator<Item = Square> {
    super::bit_squares(bits, sq)
}

/// The expert evaluation of a sampled state for `seat`: the plain evaluation's logit plus
/// - mobility: each side −1.5 ÷ (1 + its movable pieces), so trading the movable army away
///   costs more the smaller it gets (no movable piece left loses);
/// - the Flag's Bombs: +0.12 for each own Bomb next to the own Flag, and, while the Flag
///   has such Bombs, −0.35 × (4 − d) ÷ 3 for each enemy Miner at distance d ≤ 3 from it;
/// - the Spy: +0.15 for a Spy next to its own Marshal or General;
/// - the threat: the side to move's best attack on a neighbour (the value it wins, less
///   what it loses; the Flag counts 20), × 0.6 of the material scale, for the side to move
///   (so a piece left next to a stronger enemy piece, the Spy above all, is as good as lost);
/// - against a side in the endgame (`ENDGAME` movable pieces or fewer): the `dig` for
///   its Flag;
///
/// and then, as a chance rather than in logits, `seat`'s own besieged Flag (see `siege`):
/// the chance that it falls is taken off `seat`'s winning chance. A penalty in logits would
/// vanish when one side is far ahead (every move then looks as good, and the search spreads
/// its iterations evenly); a chance does not. The enemy's besieged Flag is not counted: in a
/// sampled state it stands where the sample put it, a guess. The logit is taken less the
/// context's centre (0 but in the search: [`search_context`]) before it becomes a chance,
/// and in the search drawn towards a draw's ([`DRAW`], less the centre) as the quiet plies
/// near their limit ([`quiet_pull`]), so that a side ahead attacks before they run out.
#[must_use]
pub fn evaluate(g: &Stratego, seat: Seat, ctx: &Context) -> f64 {
    if let Some(v) = terminal(g, seat) {
        return v;
    }
    let (x, falls) = parts(g, seat);
    let mut y = x - ctx.centre;
    if ctx.quiet_draw {
        let w = quiet_pull(g);
        y = y * (1.0 - w) + (DRAW - ctx.centre) * w;
    }
    squash(y) * (1.0 - falls)
}

/// The logit of a draw by the quiet plies in the expert's search: a little less than a
/// level game's (a chance of 38%), so that a side ahead, or level, attacks before the quiet
/// plies run out and a side far behind plays for them. Without it the search, two plies
/// deep, never saw the draw coming: 4 of 400 games against `greedy` at fixed iterations
/// were drawn so with the expert ahead, 2 of them won with this (`docs/ai.md`,
/// *Twenty-sixth session*).
const DRAW: f64 = -0.5;

/// The share of the quiet-ply limit after which the quiet plies pull the expert's
/// evaluation towards a draw's ([`quiet_pull`]).
const QUIET_FROM: f64 = 0.5;

/// How far the quiet-ply draw pulls the value of `g` towards a draw's
/// ([`super::quiet_pull`] from [`QUIET_FROM`] of the limit; 0 without a limit). (Pulled
/// from the first quiet ply on, it changed every game, and the expert lost 7 more of 200 on
/// the same deals.)
fn quiet_pull(g: &Stratego) -> f64 {
    g.options()
        .max_quiet_plies
        .filter(|&l| l > 0)
        .map_or(0.0, |limit| {
            super::quiet_pull(g.quiet_plies(), limit, QUIET_FROM)
        })
}

/// The two parts of [`evaluate`] for an unfinished game: the logit, and the chance that
/// `seat`'s besieged Flag falls.
fn parts(g: &Stratego, seat: Seat) -> (f64, f64) {
    let options = g.options();
    let takes_miner =
        Piece::ALL.map(|p| p.is_movable() && options.battle(p, Piece::Miner) == Duel::AttackerWins);
    let mut sides = [Side::default(), Side::default()];
    // the plain evaluation, as a logit (squashed and back, as it always was), reading the
    // board for the terms below in its scan
    let occupied = g.occupied(Seat::First) | g.occupied(Seat::Second);
    let empty = g.empty_land();
    // (only the occupied squares, and near a Flag only those within two steps: the same
    // value as reading every square)
    let near = |f: Square| {
        let within2 = MASKS.step(MASKS.step(1 << f.index(), u128::MAX), u128::MAX);
        squares(occupied & within2)
    };
    let mut x = logit(squash(score_on(
        g,
        seat,
        || squares(occupied),
        near,
        |s, at| {
            let Some((o, p)) = at else {
                return;
            };
            let side = &mut sides[o.index()];
            let bit = 1u128 << s.index();
            if p.is_movable() {
                side.movable += 1;
                side.mobile |= bit;
            }
            if takes_miner[p as usize] {
                side.keepers |= bit;
            }
            match p {
                Piece::Flag => side.flag = Some(s),
                Piece::Bomb => side.bombs |= bit,
                Piece::Miner => side.miners |= bit,
                Piece::Spy => side.spies |= bit,
                Piece::Marshal | Piece::General => side.strong |= bit,
                _ => {}
            }
        },
    )));
    for side in Seat::BOTH {
        let sign = if side == seat { 1.0 } else { -1.0 };
        let (mine, theirs) = (&sides[side.index()], &sides[side.other().index()]);
        x -= sign * 1.5 / (1.0 + f64::from(mine.movable));
        if let Some(f) = mine.flag {
            let guards = squares(mine.bombs).filter(|&b| b.steps_to(f) == 1).count();
            x += sign * 0.12 * guards as f64;
            x += sign * keeper(f, mine.keepers, empty);
            if guards > 0 {
                for m in squares(theirs.miners) {
                    let d = m.steps_to(f);
                    if d <= 3 {
                        x -= sign * 0.35 * f64::from(4 - d) / 3.0;
                    }
                }
            }
        }
        if theirs.movable <= ENDGAME {
            x += sign * dig(mine, theirs, empty);
        }
        for s in squares(mine.spies) {
            if squares(mine.strong).any(|t| s.steps_to(t) == 1) {
                x += sign * 0.15;
            }
        }
    }
    if let Some(mover) = g.to_move() {
        let mut best = 0.0f64;
        let enemy = g.occupied(mover.other());
        // (only the mover's pieces next to an enemy piece, and only those neighbours)
        for s in squares(sides[mover.index()].mobile & MASKS.step(enemy, u128::MAX)) {
            let Some((_, p)) = g.at(s) else { continue };
            for t in squares(MASKS.step(1 << s.index(), u128::MAX) & enemy) {
                let Some((_, q)) = g.at(t) else {
                    continue;
                };
                let won = if q == Piece::Flag { 20.0 } else { value(q) };
                let gain = match options.battle(p, q) {
                    Duel::AttackerWins => won,
                    Duel::BothRemoved => won - value(p),
                    Duel::DefenderWins => -value(p),
                };
                best = best.max(gain);
            }
        }
        let sign = if mover == seat { 1.0 } else { -1.0 };
        x += sign * best * 0.22 * 0.6;
    }
    // Only `seat`'s own Flag: the enemy's stands in a sampled state where the sample put it,
    // and counting the siege of a guessed Flag sends pieces after Flags that are not there.
    match (g.to_move(), sides[seat.index()].flag) {
        (Some(mover), Some(f)) => (x, siege(g, seat, f, mover == seat, &sides, empty)),
        _ => (x, 0.0),
    }
}

/// At most this many movable pieces left, a side is in the endgame: the other side digs
/// out its Flag ([`dig`]), and its high pieces may attack unmoved pieces (see
/// [`root_moves`]).
const ENDGAME: u32 = 4;

/// How many steps the endgame's walks look ahead.
const WALK: u8 = 20;

/// The dig's worth (in logits) with the Flag next to a digger, one enemy movable piece left.
const DIG: f64 = 0.8;

/// A walk's worth (of 1) after `d` steps: falling evenly from 1 to 0 over [`WALK`] steps.
fn walked(d: u8) -> f64 {
    1.0 - f64::from(d) / f64::from(WALK + 1)
}

/// The steps (at most [`WALK`]) from `to` to the nearest piece on `pieces`, walking over the
/// squares of `pass`, or to the nearest on `miners`, walking over those of `miner_pass`:
/// the square `to` itself is always walked from.
fn walk(to: Square, pieces: u128, pass: u128, miners: u128, miner_pass: u128) -> Option<u8> {
    let at = 1u128 << to.index();
    let (mut by_any, mut by_miner) = (at, at);
    for d in 1..=WALK {
        let (a, m) = (
            MASKS.step(by_any, at | pass),
            MASKS.step(by_miner, at | miner_pass),
        );
        if a & pieces != 0 || m & miners != 0 {
            return Some(d);
        }
        if a == by_any && m == by_miner {
            break;
        }
        (by_any, by_miner) = (a, m);
    }
    None
}

/// The dig, for a side (`mine`) whose enemy (`theirs`) is in the endgame: [`DIG`] ×
/// [`walked`] the steps of its nearest piece to the enemy Flag (a Miner walks over empty
/// squares and enemy Bombs, any other piece over empty squares), scaled up as the enemy's
/// movable pieces fall from [`ENDGAME`] to 1. Only while its own Flag is sealed: no enemy
/// piece can walk to it within [`WALK`] steps (over empty squares and the side's own
/// movable pieces, a Miner over its Bombs too). A side that goes digging with its own Flag
/// open loses it to the first raider, since its guards went digging too.
fn dig(mine: &Side, theirs: &Side, empty: u128) -> f64 {
    let (Some(target), Some(own)) = (theirs.flag, mine.flag) else {
        return 0.0;
    };
    let open = empty | mine.mobile;
    if walk(own, theirs.mobile, open, theirs.miners, open | mine.bombs).is_some() {
        return 0.0;
    }
    walk(
        target,
        mine.mobile,
        empty,
        mine.miners,
        empty | theirs.bombs,
    )
    .map_or(0.0, |d| {
        let scale = f64::from(ENDGAME + 1 - theirs.movable) / f64::from(ENDGAME);
        DIG * scale * walked(d)
    })
}

/// A door's worth (in logits), by the steps its nearest keeper needs to it: 0 (a keeper
/// stands on it) to 4. Twice the first weights (0.4 down to 0.1): at fixed iterations
/// against `mcts` on 300 fresh deals, +4.7 points (standard error 3.0), the expert's Flag
/// lost 24 times instead of 39 (`docs/ai.md`).
const KEEPER: [f64; 5] = [0.8, 0.8, 0.8, 0.5, 0.2];

/// The keepers of a Flag on `f`: its side's movable pieces that take a Miner, on the squares
/// of `keepers`. Each door of the Flag (a square next to it, a Bomb's included) is worth
/// [`KEEPER`] by the steps its nearest keeper needs to it, walking over `empty` squares; the
/// keepers are worth the doors' mean. A Flag whose army has gone away, or whose keeper
/// stands behind its own Bombs, is dug out by the first Miner that comes: the siege sees
/// the Miner at most 5 steps ahead, too late to bring a keeper from afar.
fn keeper(f: Square, keepers: u128, empty: u128) -> f64 {
    if keepers == 0 {
        return 0.0;
    }
    let (mut sum, mut doors) = (0.0, 0u32);
    for door in neighbours(f).filter(|a| !a.is_lake()) {
        doors += 1;
        let mut from = 1u128 << door.index();
        for worth in KEEPER {
            if from & keepers != 0 {
                sum += worth;
                break;
            }
            from = MASKS.step(from, empty | 1 << door.index());
        }
    }
    sum / f64::from(doors.max(1))
}

/// The board's squares as bits.
const MASKS: super::Masks = super::Masks::new(FILES, RANKS);

/// The chance that a besieged Flag falls, by the besieger's distance to it.
const SIEGE: [f64; 6] = [0.0, 0.8, 0.5, 0.25, 0.12, 0.06];

/// How besieged `side`'s Flag on `f` is: the chance ([`SIEGE`]) that it falls to the
/// nearest movable enemy piece, at most five steps from the Flag, that has a shortest way
/// to it (over empty squares, or taking what stands there: a Miner takes a Bomb) on which no
/// piece of `side` can take (or trade with) it in time. A guard walks over empty squares and
/// must stand next to the besieger to challenge it, so a guard behind its own Bombs guards
/// nothing. The Flag cannot flee: a dig seen only when the Miner stands next to the Flag is
/// seen too late. `side_moves`: `side` is to move; `sides`: both sides' pieces and `empty`
/// the empty squares, from the evaluation's scan.
fn siege(
    g: &Stratego,
    side: Seat,
    f: Square,
    side_moves: bool,
    sides: &[Side; 2],
    empty: u128,
) -> f64 {
    let options = g.options();
    let mut worst: f64 = 0.0;
    // the guards' reach against each rank of besieger, found once per rank
    let mut reaches: [Option<[u128; SIEGE.len() - 1]>; 12] = [None; 12];
    for s in squares(sides[side.other().index()].mobile) {
        let d = s.steps_to(f);
        if usize::from(d) >= SIEGE.len()
            || (d == 1 && !side_moves)
            || SIEGE[usize::from(d)] <= worst
        {
            continue;
        }
        let Some((_, p)) = g.at(s) else { continue };
        // reach[j]: the squares a guard able to challenge `p` can challenge after j moves of
        // `side` (those next to a square it can stand on by then).
        let reach = *reaches[p as usize].get_or_insert_with(|| {
            let mut stand = 0u128;
            for q in squares(sides[side.index()].mobile) {
                if matches!(g.at(q), Some((_, k)) if options.battle(k, p) != Duel::DefenderWins) {
                    stand |= 1 << q.index();
                }
            }
            let mut reach = [0u128; SIEGE.len() - 1];
            for r in &mut reach {
                *r = MASKS.step(stand, u128::MAX);
                stand |= *r & empty;
            }
            reach
        });
        let way = Way {
            g,
            side,
            besieger: p,
            flag: f,
            reach,
            side_moves,
        };
        if way.open(s, 0, d) {
            worst = SIEGE[usize::from(d)];
        }
    }
    worst
}

/// A besieger's way to a Flag, for [`siege`].
struct Way<'a> {
    g: &'a Stratego,
    side: Seat,
    besieger: Piece,
    flag: Square,
    /// Where the guards can challenge after 0 to 4 moves.
    reach: [u128; SIEGE.len() - 1],
    side_moves: bool,
}

impl Way<'_> {
    /// Whether the besieger, standing on `at` after `k` of its moves with `left` more to the
    /// Flag, gets there unchallenged along some shortest way.
    fn open(&self, at: Square, k: usize, left: u8) -> bool {
        // the guards' moves before the besieger's next one
        let moves = if self.side_moves {
            Some(k)
        } else {
            k.checked_sub(1)
        };
        if moves.is_some_and(|m| self.reach[m] & (1 << at.index()) != 0) {
            return false;
        }
        if left == 1 {
            return true;
        }
        neighbours(at).any(|n| {
            n.steps_to(self.flag) + 1 == left
                && !n.is_lake()
                && match self.g.at(n) {
                    None => true,
                    Some((o, q)) => {
                        o == self.side
                            && self.g.options().battle(self.besieger, q) == Duel::AttackerWins
                    }
                }
                && self.open(n, k + 1, left - 1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use salpakan_engine::rng_from_seed;
    use salpakan_engine::stratego::{Army, Setups, StrategoOptions};

    /// [`parts`] as it was written before it read only the occupied squares (and found the
    /// guards' reach once per rank of besieger): the reference it must equal bit for bit.
    fn parts_by_squares(g: &Stratego, seat: Seat) -> (f64, f64) {
        let options = g.options();
        let takes_miner = Piece::ALL
            .map(|p| p.is_movable() && options.battle(p, Piece::Miner) == Duel::AttackerWins);
        let mut sides = [Side::default(), Side::default()];
        let mut empty = 0u128;
        // the plain evaluation, as a logit (squashed and back, as it always was), reading the
        // board for the terms below in its scan
        let mut x = logit(squash(super::super::stratego::score(g, seat, |s, at| {
            let Some((o, p)) = at else {
                if !s.is_lake() {
                    empty |= 1 << s.index();
                }
                return;
            };
            let side = &mut sides[o.index()];
            let bit = 1u128 << s.index();
            if p.is_movable() {
                side.movable += 1;
                side.mobile |= bit;
            }
            if takes_miner[p as usize] {
                side.keepers |= bit;
            }
            match p {
                Piece::Flag => side.flag = Some(s),
                Piece::Bomb => side.bombs |= bit,
                Piece::Miner => side.miners |= bit,
                Piece::Spy => side.spies |= bit,
                Piece::Marshal | Piece::General => side.strong |= bit,
                _ => {}
            }
        })));
        for side in Seat::BOTH {
            let sign = if side == seat { 1.0 } else { -1.0 };
            let (mine, theirs) = (&sides[side.index()], &sides[side.other().index()]);
            x -= sign * 1.5 / (1.0 + f64::from(mine.movable));
            if let Some(f) = mine.flag {
                let guards = squares(mine.bombs).filter(|&b| b.steps_to(f) == 1).count();
                x += sign * 0.12 * guards as f64;
                x += sign * keeper(f, mine.keepers, empty);
                if guards > 0 {
                    for m in squares(theirs.miners) {
                        let d = m.steps_to(f);
                        if d <= 3 {
                            x -= sign * 0.35 * f64::from(4 - d) / 3.0;
                        }
                    }
                }
            }
            if theirs.movable <= ENDGAME {
                x += sign * dig(mine, theirs, empty);
            }
            for s in squares(mine.spies) {
                if squares(mine.strong).any(|t| s.steps_to(t) == 1) {
                    x += sign * 0.15;
                }
            }
        }
        if let Some(mover) = g.to_move() {
            let mut best = 0.0f64;
            for s in squares(sides[mover.index()].mobile) {
                let Some((_, p)) = g.at(s) else { continue };
                for t in neighbours(s) {
                    let Some((q_owner, q)) = g.at(t) else {
                        continue;
                    };
                    if q_owner == mover {
                        continue;
                    }
                    let won = if q == Piece::Flag { 20.0 } else { value(q) };
                    let gain = match options.battle(p, q) {
                        Duel::AttackerWins => won,
                        Duel::BothRemoved => won - value(p),
                        Duel::DefenderWins => -value(p),
                    };
                    best = best.max(gain);
                }
            }
            let sign = if mover == seat { 1.0 } else { -1.0 };
            x += sign * best * 0.22 * 0.6;
        }
        // Only `seat`'s own Flag: the enemy's stands in a sampled state where the sample put it,
        // and counting the siege of a guessed Flag sends pieces after Flags that are not there.
        match (g.to_move(), sides[seat.index()].flag) {
            (Some(mover), Some(f)) => (
                x,
                siege_by_squares(g, seat, f, mover == seat, &sides, empty),
            ),
            _ => (x, 0.0),
        }
    }

    /// [`siege`] as it was written before: the reference of [`parts_by_squares`].
    fn siege_by_squares(
        g: &Stratego,
        side: Seat,
        f: Square,
        side_moves: bool,
        sides: &[Side; 2],
        empty: u128,
    ) -> f64 {
        let options = g.options();
        let mut worst: f64 = 0.0;
        for s in squares(sides[side.other().index()].mobile) {
            let Some((_, p)) = g.at(s) else { continue };
            let d = s.steps_to(f);
            if usize::from(d) >= SIEGE.len()
                || (d == 1 && !side_moves)
                || SIEGE[usize::from(d)] <= worst
            {
                continue;
            }
            // reach[j]: the squares a guard able to challenge `p` can challenge after j moves of
            // `side` (those next to a square it can stand on by then).
            let mut stand = 0u128;
            for q in squares(sides[side.index()].mobile) {
                if matches!(g.at(q), Some((_, k)) if options.battle(k, p) != Duel::DefenderWins) {
                    stand |= 1 << q.index();
                }
            }
            let mut reach = [0u128; SIEGE.len() - 1];
            for r in &mut reach {
                *r = MASKS.step(stand, u128::MAX);
                stand |= *r & empty;
            }
            let way = Way {
                g,
                side,
                besieger: p,
                flag: f,
                reach,
                side_moves,
            };
            if way.open(s, 0, d) {
                worst = SIEGE[usize::from(d)];
            }
        }
        worst
    }

    /// Positions of random games under `options`, every third ply of each.
    fn random_positions(options: &StrategoOptions, games: u64) -> Vec<Stratego> {
        let mut out = Vec::new();
        for seed in 0..games {
            let mut rng = rng_from_seed(seed);
            let setups = Setups([
                crate::games::stratego_setup::setup(Seat::First, options, &mut rng),
                crate::games::stratego_setup::setup(Seat::Second, options, &mut rng),
            ]);
            let mut g = <Stratego as Game>::start(options, setups).expect("valid setups");
            let mut ply = 0;
            while let Some(mv) = g.random_move(&mut rng) {
                if ply % 3 == 0 || rng.random_bool(0.05) {
                    out.push(g.clone());
                }
                g.play_unchecked(mv);
                ply += 1;
            }
            out.push(g);
        }
        out
    }

    #[test]
    fn the_evaluation_read_from_occupied_squares_equals_reading_every_square() {
        let ul = StrategoOptions::default().with_army(Army::UltimateLightning);
        let mut checked = 0;
        for options in [StrategoOptions::default(), ul] {
            for g in random_positions(&options, 12) {
                if g.outcome().is_some() {
                    continue;
                }
                for seat in Seat::BOTH {
                    let (x, falls) = parts(&g, seat);
                    let (rx, rfalls) = parts_by_squares(&g, seat);
                    assert_eq!(x.to_bits(), rx.to_bits(), "logit for {seat:?}");
                    assert_eq!(falls.to_bits(), rfalls.to_bits(), "siege for {seat:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
