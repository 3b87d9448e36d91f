//! Game of the Generals: belief from challenge outcomes, determinization, evaluation, setup.

use rand::Rng;
use salpakan_engine::generals::{
    Duel, FlagRule, Generals, GeneralsOptions, GeneralsView, Move, Piece, RANKS, Setup, Setups,
    Square, duel,
};
use salpakan_engine::{Game, GameKind, GameRng, GameSpec, Seat, SeatSetup, rng_from_seed};

use super::{AiGame, neighbours, replay, squash, terminal};
use crate::belief::{Belief, Token, mask};
use crate::{AiError, Knowledge};

const FILES: u8 = salpakan_engine::generals::FILES;

fn sq(i: u8) -> Square {
    Square::new(i % FILES, i / FILES).expect("on the board")
}

/// How far `s` stands from `seat`'s back rank (0 = back rank), its rank looked up
/// ([`FILE_RANK`]).
fn depth(seat: Seat, s: Square) -> u8 {
    let rank = FILE_RANK[s.index()].1;
    match seat {
        Seat::First => rank,
        Seat::Second => RANKS - 1 - rank,
    }
}

/// The identities `d` for which `attacker` challenging `d` gives `result`.
fn defenders(attacker: Piece, result: Duel) -> u32 {
    mask(
        Piece::ALL
            .iter()
            .filter(|&&d| duel(attacker, d) == result)
            .map(|&d| d as usize),
    )
}

/// The identities `a` for which `a` challenging `defender` gives `result`.
fn attackers(defender: Piece, result: Duel) -> u32 {
    mask(
        Piece::ALL
            .iter()
            .filter(|&&a| duel(a, defender) == result)
            .map(|&a| a as usize),
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Occ {
    Empty,
    Own(Piece),
    Enemy(usize),
}

/// A piece's material value.
fn value(p: Piece) -> f64 {
    match p {
        Piece::FiveStar => 10.0,
        Piece::FourStar => 8.5,
        Piece::ThreeStar => 7.5,
        Piece::TwoStar => 6.5,
        Piece::OneStar => 5.5,
        Piece::Colonel => 4.8,
        Piece::LtColonel => 4.2,
        Piece::Major => 3.7,
        Piece::Captain => 3.2,
        Piece::FirstLt => 2.8,
        Piece::SecondLt => 2.4,
        Piece::Sergeant => 2.0,
        Piece::Private => 1.4,
        Piece::Spy => 7.0,
        Piece::Flag => 0.0,
    }
}

fn own_setup(k: &Knowledge<Generals>) -> Setup {
    let text = k.own_setup().expect("a Generals seat knows its own setup");
    Setup::parse(k.seat(), &k.options().army, text).expect("the seat's own setup is valid")
}

/// The belief of `k`'s seat about the enemy army.
#[must_use]
pub fn belief(k: &Knowledge<Generals>) -> Belief {
    belief_with(
        k,
        &RUNNER,
        &[1.0; RECENT + 1],
        reference_attacker,
        &[[1.0; KINDS]; 2],
    )
}

/// How many kinds of piece an army has ([`Piece::ALL`]).
const KINDS: usize = Piece::ALL.len();

/// The belief's Flag weight for a piece standing `d` ranks from its own back rank, by
/// `d`: a piece running deep into our half may be a Flag trying to arrive.
const RUNNER: [f64; RANKS as usize] = [1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 3.0, 4.0];

/// The `expert`'s Flag weights for runners ([`RUNNER`]), steeper: counted from 100 games
/// against `greedy`, a piece that never attacked, 4, 5 or 6 ranks deep, was the Flag 12%,
/// 24% and 42% of the time, where the reference weights gave it 7%, 17% and 26%
/// (`docs/ai.md`).
const EXPERT_RUNNER: [f64; RANKS as usize] = [1.0, 1.0, 1.0, 1.0, 2.0, 5.0, 12.0, 8.0];

/// How many of the enemy's latest moves [`EXPERT_BUSY`] looks at.
const RECENT: usize = 6;

/// The `expert`'s Flag weight for a piece by how many of the enemy's last [`RECENT`] moves
/// it made: a Flag that runs, or flees a besieger, moves again and again. Counted from the
/// records of 400 games of the expert against `mcts` (seeds 92–95): among the pieces that
/// never attacked, at most one rank from their own back rank, one that had made none of
/// those six moves was the Flag 10% of the time, one move 22%, two 42%, three 75%; two or
/// three ranks deep 3%, 6%, 24% and 57% (`docs/ai.md`). The weights are below those odds'
/// ratios, to spare a piece that merely walks.
const EXPERT_BUSY: [f64; RECENT + 1] = [1.0, 2.0, 5.0, 15.0, 30.0, 30.0, 30.0];

/// The `expert`'s belief: [`belief`] with the Flag weights `EXPERT_RUNNER` and
/// `EXPERT_BUSY`, its attackers' weights and how a piece answered an approach
/// (`EXPERT_RESPONSE`).
#[must_use]
pub fn expert_belief(k: &Knowledge<Generals>) -> Belief {
    belief_with(
        k,
        &EXPERT_RUNNER,
        &EXPERT_BUSY,
        expert_attacker,
        &EXPERT_RESPONSE,
    )
}

/// The `expert`'s weight of each rank (in [`Piece::ALL`]'s order) for a piece by how it
/// answered one of ours stepping next to it before it had ever attacked: first row, it
/// moved away; second row, the enemy moved another piece (it stood and did not attack).
/// Each answer counts once a piece (and a later attack adds the attackers' weights).
/// Counted from the records of 1,542 games (the expert and its trial builds against `mcts`,
/// and against itself), at each of 37,974 such approaches before the 60th ply, the rank of
/// the piece approached by its answer against all answers: a piece that moved away was the
/// Flag 5.6 times as often, the Five-star 0.4, a Spy or a Private 0.5, a Colonel 1.5; one
/// that stood was the Five-star 0.3 times as often, a Spy 0.4 (those attack), a Sergeant
/// 1.3, whichever bot answered (`docs/ai.md`, *Fourteenth session*). The weights are milder
/// than those odds, the Flag's most (a piece that moves away is also a busy one,
/// [`EXPERT_BUSY`]).
const EXPERT_RESPONSE: [[f64; KINDS]; 2] = [
    [
        0.4, 0.5, 0.8, 1.1, 1.2, 1.3, 1.2, 1.2, 1.1, 1.0, 0.9, 0.6, 0.45, 0.4, 2.0,
    ],
    [
        0.35, 0.65, 0.85, 1.0, 1.05, 1.15, 1.15, 1.2, 1.25, 1.3, 1.3, 1.35, 1.2, 0.4, 0.6,
    ],
];

/// The reference's weight for rank `p` of a piece that has attacked `attacks` times (the
/// Flag's is [`belief_with`]'s own): 1.3 for each attack (up to 4) on its Spy and top three
/// Generals.
fn reference_attacker(p: Piece, attacks: u32) -> f64 {
    match p {
        Piece::FiveStar | Piece::FourStar | Piece::ThreeStar | Piece::Spy => {
            1.3f64.powi(attacks.min(4) as i32)
        }
        _ => 1.0,
    }
}

/// The `expert`'s weight for rank `p` of a piece that has attacked (the Flag's is
/// [`belief_with`]'s own). A player attacks an unknown piece with a piece that likely wins
/// or trades: counted from the records of 2,000 games (the expert's self-play, and its games
/// against `greedy` and `mcts` at 100 ms), a piece making its first attack before the 40th
/// ply was the Five-star 2.8 to 4.1 times as often as a piece drawn from those of its army
/// that had not attacked yet, a Spy 1.9 to 2.5 times, a Colonel 0.65 to 0.85 times, a Major
/// to a Sergeant 0.16 to 0.36 times; later in the game 2.0 to 2.3, 2.0 to 2.3, 0.9 to 1.1
/// and 0.4 to 0.8 times, whichever bot attacked. A second attack told no more. The weights
/// lie between the early and the late odds (`docs/ai.md`, *Eighth session*).
fn expert_attacker(p: Piece, _attacks: u32) -> f64 {
    match p {
        Piece::FiveStar => 2.5,
        Piece::FourStar => 1.7,
        Piece::ThreeStar => 1.9,
        Piece::TwoStar => 1.6,
        Piece::OneStar => 1.3,
        Piece::Colonel => 0.8,
        Piece::LtColonel => 0.65,
        Piece::Major => 0.5,
        Piece::Captain => 0.45,
        Piece::FirstLt | Piece::SecondLt => 0.4,
        Piece::Sergeant => 0.35,
        Piece::Private => 0.9,
        Piece::Spy => 2.0,
        Piece::Flag => 1.0,
    }
}

/// [`belief`] with `runner[d]` the Flag weight of a piece standing `d` ranks deep,
/// `busy[n]` that of a piece that made `n` of the enemy's last [`RECENT`] moves, besides,
/// `attacker(p, n)` the weight of rank `p` (the Flag's aside) for a piece that has
/// attacked `n` times, and `response` the weights of each rank for a piece that answered
/// one of ours stepping next to it by moving away (first row) or by standing (second row).
// Over 100 lines: one replay of the seat's views applying, in order, each rule of docs/ai.md's
// Belief section (challenge results, Flag rules, revealed ranks, priors) to the same tokens.
fn belief_with(
    k: &Knowledge<Generals>,
    runner: &[f64; RANKS as usize],
    busy: &[f64; RECENT + 1],
    attacker: fn(Piece, u32) -> f64,
    response: &[[f64; KINDS]; 2],
) -> Belief {
    let me = k.seat();
    let enemy = me.other();
    let enemy_name = GameKind::Generals.seat_name(enemy);
    let my_name = GameKind::Generals.seat_name(me);
    let mut board = [Occ::Empty; 72];
    for &(s, p) in own_setup(k).placements() {
        board[s.index()] = Occ::Own(p);
    }
    let mut tokens = Vec::new();
    for (s, v) in &k.initial().board {
        if v.owner == enemy_name {
            board[s.index()] = Occ::Enemy(tokens.len());
            let mut t = Token::new(s.index() as u8, KINDS);
            if let Some(p) = v.piece {
                t.restrict(1 << p as usize);
            }
            tokens.push(t);
        }
    }
    let far = match enemy {
        Seat::First => RANKS - 1,
        Seat::Second => 0,
    };
    let mut arrivals: Vec<(usize, usize)> = Vec::new();
    let mut removed: Vec<Option<usize>> = vec![None; tokens.len()];
    // The tokens that made the enemy's moves, oldest first.
    let mut movers = Vec::new();
    // Each token's responses to one of ours stepping next to it: moved away, stayed.
    let mut responded = vec![[false; 2]; tokens.len()];
    let mut approached: Vec<usize> = Vec::new();
    let history = k.history();
    for (i, v) in history.iter().enumerate() {
        let (from, to) = (v.from.index(), v.to.index());
        let mine = v.seat == my_name;
        if !mine {
            let mover = match board[from] {
                Occ::Enemy(t) => Some(t),
                _ => None,
            };
            for &t in &approached {
                if Some(t) == mover {
                    if !matches!(board[to], Occ::Own(_)) {
                        responded[t][0] = true;
                    }
                } else {
                    responded[t][1] = true;
                }
            }
        }
        approached.clear();
        match (board[from], board[to]) {
            (Occ::Own(p), Occ::Empty) if mine => {
                board[to] = Occ::Own(p);
                board[from] = Occ::Empty;
            }
            (Occ::Own(p), Occ::Enemy(t)) if mine => {
                let Some(c) = &v.challenge else { continue };
                tokens[t].restrict(defenders(p, c.result));
                if let Some(d) = c.defender {
                    tokens[t].restrict(1 << d as usize);
                }
                board[from] = Occ::Empty;
                match c.result {
                    Duel::AttackerWins => {
                        tokens[t].square = None;
                        board[to] = Occ::Own(p);
                    }
                    Duel::DefenderWins => {}
                    Duel::BothEliminated => {
                        tokens[t].square = None;
                        board[to] = Occ::Empty;
                    }
                }
            }
            (Occ::Enemy(t), target) if !mine => {
                tokens[t].moves += 1;
                movers.push(t);
                if let Some(p) = v.piece {
                    tokens[t].restrict(1 << p as usize);
                }
                board[from] = Occ::Empty;
                match target {
                    Occ::Own(p) => {
                        tokens[t].attacks += 1;
                        let Some(c) = &v.challenge else { continue };
                        tokens[t].restrict(attackers(p, c.result));
                        match c.result {
                            Duel::AttackerWins => {
                                board[to] = Occ::Enemy(t);
                                tokens[t].square = Some(to as u8);
                            }
                            Duel::DefenderWins => tokens[t].square = None,
                            Duel::BothEliminated => {
                                tokens[t].square = None;
                                board[to] = Occ::Empty;
                            }
                        }
                    }
                    _ => {
                        board[to] = Occ::Enemy(t);
                        tokens[t].square = Some(to as u8);
                    }
                }
                if tokens[t].square == Some(to as u8) && v.to.rank() == far {
                    arrivals.push((t, i));
                }
            }
            _ => {}
        }
        if mine && matches!(board[to], Occ::Own(_)) {
            let (f, t) = (sq(from as u8), sq(to as u8));
            for s in neighbours(t) {
                if let Occ::Enemy(e) = board[s.index()] {
                    if tokens[e].attacks == 0 && s.steps_to(f) != 1 {
                        approached.push(e);
                    }
                }
            }
        }
        for (t, tok) in tokens.iter().enumerate() {
            if tok.square.is_none() && removed[t].is_none() {
                removed[t] = Some(i);
            }
        }
    }
    let n = history.len();
    let going_on = k.to_move().is_some();
    // A piece removed in a challenge while the game went on was no Flag (removing the Flag
    // ends the game).
    for (t, r) in removed.iter().enumerate() {
        if r.is_some_and(|i| i + 1 < n || going_on) {
            tokens[t].restrict(!(1 << Piece::Flag as usize));
        }
    }
    // A piece that reached the far rank and did not end the game is no Flag.
    {
        for (t, i) in arrivals {
            let to = history[i].to;
            let wins_now = match k.options().flag_rule {
                FlagRule::Electronic => true,
                FlagRule::OneTurn => false,
                FlagRule::Adjacent => !Square::all()
                    .any(|s| s.steps_to(to) == 1 && matches!(board_at_ply(k, i, s), Some(true))),
            };
            if n >= i + 3 || (going_on && (n >= i + 2 || wins_now)) {
                tokens[t].restrict(!(1 << Piece::Flag as usize));
            }
        }
    }
    for (s, v) in &k.observation().board {
        if v.owner == enemy_name {
            if let (Some(p), Occ::Enemy(t)) = (v.piece, board[s.index()]) {
                tokens[t].restrict(1 << p as usize);
            }
        }
    }
    // Priors: where pieces start and how they behave.
    let recent = &movers[movers.len().saturating_sub(RECENT)..];
    for (i, t) in tokens.iter_mut().enumerate() {
        let d = depth(enemy, sq(t.start));
        for p in Piece::ALL {
            let mut w: f64 = 1.0;
            match p {
                Piece::Flag => {
                    w = [3.0, 1.2, 0.35][d.min(2) as usize];
                    w *= 0.3f64.powi(t.attacks.min(5) as i32);
                    w *= busy[recent.iter().filter(|&&m| m == i).count()];
                    // A piece running deep into our half may be a Flag trying to arrive.
                    if let Some(now) = t.square {
                        w *= runner[usize::from(depth(enemy, sq(now)))];
                    }
                }
                Piece::Private => w = [0.8, 1.0, 1.4][d.min(2) as usize],
                Piece::Spy => w = 1.1,
                _ => {}
            }
            if p != Piece::Flag && t.attacks > 0 {
                w *= attacker(p, t.attacks);
            }
            for (c, &did) in responded[i].iter().enumerate() {
                if did {
                    w *= response[c][p as usize];
                }
            }
            t.prior[p as usize] = w;
        }
    }
    let counts = Piece::ALL
        .iter()
        .map(|&p| k.options().army.count(p))
        .collect();
    Belief::new(counts, tokens)
}

/// Whether a piece of the seat stood on `s` after ply `i` (index into the history), by
/// replaying the seat's own moves: `Some(true)` own piece, `Some(false)` other or empty.
fn board_at_ply(k: &Knowledge<Generals>, i: usize, s: Square) -> Option<bool> {
    let me = k.seat();
    let my_name = GameKind::Generals.seat_name(me);
    let mut own = [false; 72];
    for &(q, _) in own_setup(k).placements() {
        own[q.index()] = true;
    }
    for v in &k.history()[..=i] {
        let (from, to) = (v.from.index(), v.to.index());
        if v.seat == my_name {
            own[from] = false;
            let lands = match &v.challenge {
                None => true,
                Some(c) => c.result == Duel::AttackerWins,
            };
            own[to] = lands;
        } else if let Some(c) = &v.challenge {
            if c.result != Duel::DefenderWins {
                own[to] = false;
            }
        }
    }
    Some(own[s.index()])
}

/// A complete game consistent with the knowledge.
#[must_use]
pub fn determinize(k: &Knowledge<Generals>, b: &Belief, rng: &mut GameRng) -> Generals {
    let me = k.seat();
    let army = &k.options().army;
    let mine = own_setup(k);
    let assignment = b.sample(rng).unwrap_or_else(|| {
        // Contradictory constraints cannot come from a real game; fall back to any setup.
        let pieces = army.pieces();
        (0..b.tokens().len())
            .map(|i| pieces[i % pieces.len()] as u8)
            .collect()
    });
    let placements: Vec<(Square, Piece)> = b
        .tokens()
        .iter()
        .zip(&assignment)
        .map(|(t, &p)| (sq(t.start), Piece::ALL[p as usize]))
        .collect();
    let theirs = Setup::new(me.other(), army, &placements)
        .unwrap_or_else(|_| Setup::random(me.other(), army, rng));
    let setups = match me {
        Seat::First => Setups([mine, theirs]),
        Seat::Second => Setups([theirs, mine]),
    };
    let mut g = <Generals as salpakan_engine::Game>::start(k.options(), setups)
        .expect("setups valid for the options");
    replay(&mut g, k.history().iter().map(Generals::view_move));
    g
}

/// How good the position is for `seat`.
#[must_use]
pub fn evaluate(g: &Generals, seat: Seat) -> f64 {
    if let Some(v) = terminal(g, seat) {
        return v;
    }
    let mut material = [0.0f64; 2];
    let mut flags: [Option<Square>; 2] = [None, None];
    let mut advance = [0.0f64; 2];
    for s in Square::all() {
        if let Some((owner, p)) = g.at(s) {
            material[owner.index()] += value(p);
            if p == Piece::Flag {
                flags[owner.index()] = Some(s);
            } else {
                advance[owner.index()] += f64::from(depth(owner, s)) * 0.02;
            }
        }
    }
    let mut score = (material[seat.index()] - material[seat.other().index()]) * 0.25
        + advance[seat.index()]
        - advance[seat.other().index()];
    for side in Seat::BOTH {
        let Some(f) = flags[side.index()] else {
            continue;
        };
        let sign = if side == seat { 1.0 } else { -1.0 };
        let enemies = Square::all().filter(|&s| matches!(g.at(s), Some((o, _)) if o != side));
        score += sign * flag_term(side, f, enemies);
    }
    squash(score)
}

/// The evaluation's term for `side`'s Flag on `f`: its progress towards the far rank (slow
/// while an enemy piece stands deeper within one file of it) less the danger of enemy pieces
/// close to it; `enemies`: the enemy pieces' squares, in the order of their indices.
fn flag_term(side: Seat, f: Square, enemies: impl Iterator<Item = Square>) -> f64 {
    let mut danger = 0.0;
    let mut blocked = false;
    for s in enemies {
        let d = steps(s, f);
        if d <= 2 {
            danger += if d == 1 { 0.6 } else { 0.25 };
        }
        if depth(side, s) > depth(side, f) && file(s).abs_diff(file(f)) <= 1 {
            blocked = true;
        }
    }
    let progress = f64::from(depth(side, f));
    let run = if blocked {
        0.03 * progress
    } else {
        0.04 * progress * progress + if progress >= 6.0 { 1.5 } else { 0.0 }
    };
    run - danger
}

/// The search's evaluation: [`evaluate`], plus two things a shallow search cannot see
/// coming (in this sample):
/// - the immediate threat on a Flag: when the side to move has a piece next to the other
///   side's Flag, it takes the Flag next ply, so the position is nearly won for the mover;
/// - the Flag's race: a Flag that no enemy piece can reach before it arrives on the far
///   rank (see `unstoppable`) wins the game.
#[must_use]
pub fn search_evaluate(g: &Generals, seat: Seat) -> f64 {
    if let Some(v) = terminal(g, seat) {
        return v;
    }
    let base = evaluate(g, seat);
    let Some(mover) = g.to_move() else {
        return base;
    };
    let mut flags: [Option<Square>; 2] = [None, None];
    for s in Square::all() {
        if let Some((o, Piece::Flag)) = g.at(s) {
            flags[o.index()] = Some(s);
        }
    }
    let mut bonus = 0.0;
    if let Some(f) = flags[mover.other().index()] {
        let threat = Square::all()
            .any(|s| s.steps_to(f) == 1 && matches!(g.at(s), Some((o, _)) if o == mover));
        if threat {
            bonus += if mover == seat { 3.0 } else { -3.0 };
        }
    }
    for side in Seat::BOTH {
        if let Some(f) = flags[side.index()] {
            if unstoppable(g, side, f, mover == side) {
                bonus += if side == seat { RACE } else { -RACE };
            }
        }
    }
    if bonus == 0.0 {
        return base;
    }
    let logit = (base.clamp(1e-9, 1.0 - 1e-9) / (1.0 - base.clamp(1e-9, 1.0 - 1e-9))).ln();
    squash(logit + bonus)
}

/// The evaluation's reward (in logits) for a Flag that wins its race.
const RACE: f64 = 4.0;

/// The `expert`'s leaf evaluation: [`search_evaluate`] with its logit compressed
/// (`COMPRESS`), a Flag's nearly won race rewarded (`NEAR_RACE`), the hunt of an enemy
/// Flag whose army is down to a few pieces (`Scan::hunt`), and the chance that a
/// besieged Flag falls (see `Scan::siege`; likelier for the seat's own Flag boxed in,
/// `BOXED`) taken off its side's winning chance. The
/// chance is counted apart from the rest: a side far ahead in material still loses the game
/// with its Flag, where a penalty in logits would vanish in an evaluation near 1 (where the
/// search, finding every move as good, spreads its iterations evenly).
///
/// Computed from one scan of the board (`Scan`) where its parts scan it seven times: the
/// same value bit for bit, in about two fifths of the time (`docs/ai.md`).
#[must_use]
pub fn expert_evaluate(g: &Generals, seat: Seat) -> f64 {
    expert_evaluate_in(g, seat, None)
}

/// [`expert_evaluate`] in a search that hunts (`hunting`: its centre, from [`hunt`]): the
/// seat's hunt of the enemy's Flag added to its logit ([`Scan::hunt`]) and the centre taken
/// off it before it becomes a chance.
fn expert_evaluate_in(g: &Generals, seat: Seat, hunting: Option<f64>) -> f64 {
    if let Some(v) = terminal(g, seat) {
        return v;
    }
    let Some(mover) = g.to_move() else {
        return search_evaluate(g, seat);
    };
    let scan = Scan::read(g);
    let mut x = scan.expert_logit(seat, mover);
    if let Some(centre) = hunting {
        x += scan.hunt(seat) - centre;
    }
    let mut v = squash(x);
    for &(s, side, p) in scan.pieces() {
        if p == Piece::Flag {
            let mut falls = scan.siege(g, side, s, mover == side);
            if side == seat {
                if scan.boxed(s) {
                    falls *= BOXED;
                }
                v *= 1.0 - falls;
            } else {
                v += (1.0 - v) * falls;
            }
        }
    }
    v
}

/// [`expert_evaluate`] from its parts, as it was written before [`Scan`]: the reference
/// the one-scan evaluation must equal bit for bit.
#[cfg(test)]
fn expert_evaluate_by_parts(g: &Generals, seat: Seat, hunting: bool) -> f64 {
    if let Some(v) = terminal(g, seat) {
        return v;
    }
    let Some(mover) = g.to_move() else {
        return search_evaluate(g, seat);
    };
    let mut x = COMPRESS * super::logit(search_evaluate(g, seat));
    for f in Square::all() {
        if let Some((side, Piece::Flag)) = g.at(f) {
            let margin = if depth(side, f) < RANKS - 1 {
                Square::all()
                    .filter(|&s| matches!(g.at(s), Some((o, _)) if o != side))
                    .map(|s| margin_of(side, f, s, mover == side))
                    .max()
                    .unwrap_or(i16::MIN)
            } else {
                i16::MAX
            };
            let near = near_race(margin);
            x += if side == seat { near } else { -near };
        }
    }
    if hunting {
        x += hunt_by_squares(g, seat);
    }
    let mut v = squash(x);
    for s in Square::all() {
        if let Some((side, Piece::Flag)) = g.at(s) {
            let mut falls = siege(g, side, s, mover == side);
            if side == seat {
                if neighbours(s).all(|n| g.at(n).is_some()) {
                    falls *= BOXED;
                }
                v *= 1.0 - falls;
            } else {
                v += (1.0 - v) * falls;
            }
        }
    }
    v
}

/// [`Scan::hunt`] by squares: the reference.
#[cfg(test)]
fn hunt_by_squares(g: &Generals, side: Seat) -> f64 {
    let Some(f) = Square::all().find(|&s| g.at(s) == Some((side.other(), Piece::Flag))) else {
        return 0.0;
    };
    let enemies = Square::all()
        .filter(|&s| matches!(g.at(s), Some((o, _)) if o != side))
        .count();
    if enemies > HUNTED_ARMY {
        return 0.0;
    }
    let mut steps: Vec<u8> = Square::all()
        .filter(|&s| matches!(g.at(s), Some((o, p)) if o == side && p != Piece::Flag))
        .map(|s| s.steps_to(f).min(HUNT_FAR))
        .chain([HUNT_FAR; 2])
        .collect();
    steps.sort_unstable();
    HUNT * f64::from(2 * HUNT_FAR - steps[0] - steps[1])
}

/// How much the `expert` compresses the search's evaluation (its logit), so that a side far
/// ahead still sees what it gains by winning now and what it risks.
const COMPRESS: f64 = 0.5;

/// The most pieces (its Flag among them) an army may have left for the other side to hunt
/// its Flag ([`Scan::hunt`]).
const HUNTED_ARMY: usize = 2;

/// How many pieces more than the enemy's the seat needs to hunt ([`hunt`]): two hunters
/// besides one piece for each of the enemy's.
const SPARE_HUNTERS: usize = 2;

/// The hunt's logit a step ([`Scan::hunt`]).
const HUNT: f64 = 0.1;

/// The steps a hunter counts at most ([`Scan::hunt`]).
const HUNT_FAR: u8 = 12;

/// Whether the `expert`'s search from the seat's knowledge hunts the enemy's Flag: when the
/// enemy's army is down to [`HUNTED_ARMY`] pieces and the seat's is larger by
/// [`SPARE_HUNTERS`] (with no more than that, hunting sent its few pieces onto the enemy's
/// escorts and its own Flag astray), the leaves count the seat's hunt
/// ([`Scan::hunt`]) and the search is centred (see `super::centre`) on the root's sampled
/// states, so that the hunt's steps, worth a few hundredths of a logit each, still tell
/// moves apart when the seat is far ahead. `None` otherwise: only at the root, so that no
/// capture in the tree (the enemy's fourth last piece) changes how its leaves are valued.
#[must_use]
fn hunt(k: &Knowledge<Generals>, pool: &[Generals]) -> Option<f64> {
    let seat = k.seat();
    let first = pool.first()?;
    let army = |side: Seat| {
        Square::all()
            .filter(|&s| matches!(first.at(s), Some((o, _)) if o == side))
            .count()
    };
    let (own, enemies) = (army(seat), army(seat.other()));
    if enemies > HUNTED_ARMY || own < enemies + SPARE_HUNTERS {
        return None;
    }
    Some(super::centre(pool.iter().map(|g| {
        let scan = Scan::read(g);
        g.to_move().map_or(0.0, |mover| {
            scan.expert_logit(seat, mover) + scan.hunt(seat)
        })
    })))
}

/// The chance that a besieged Flag falls, by the besieger's distance to it.
const SIEGE: [f64; 4] = [0.0, 0.5, 0.3, 0.15];

/// How much likelier the seat's own besieged Flag is to fall ([`SIEGE`]) when it is boxed
/// in: every square next to it taken, by its own pieces mostly, so that it cannot flee
/// when the besieger arrives, and the guard it needs must take the besieger before then.
/// In the expert's games against `greedy`, an enemy piece that stepped next to its Flag
/// early in the game took it 17 times out of 49 where the Flag was boxed in and no Spy
/// stood next to the piece, and 3 out of 64 where the Flag had a free square. Measured at
/// fixed iterations on 800 deals each: +1.1 points against `greedy`, +0.9 against `mcts`
/// (`docs/ai.md`). Only the seat's own Flag: the enemy's stands where a sample put it.
const BOXED: f64 = 1.6;

/// How besieged `side`'s Flag on `f` is: the chance ([`SIEGE`]) that it falls to the
/// nearest enemy piece, at most three steps from the Flag, that can arrive next to it with
/// no piece of `side` able to take (or split with) it there in time, walking over empty
/// squares ([`arrivals`]). Such a piece takes the Flag unless the Flag flees; a shallow
/// search sees it too late, when the besieger already stands next to the Flag. `side_moves`:
/// `side` is to move (a besieger next to the Flag with its own side to move is
/// [`search_evaluate`]'s threat). The search computes it from its scan ([`Scan::siege`]);
/// this is the reference, by squares.
#[cfg(test)]
fn siege(g: &Generals, side: Seat, f: Square, side_moves: bool) -> f64 {
    let mut worst: f64 = 0.0;
    let mut empty = None;
    for s in Square::all() {
        let Some((o, p)) = g.at(s) else { continue };
        let d = s.steps_to(f);
        if o == side || d > 3 || (d == 1 && !side_moves) || SIEGE[usize::from(d)] <= worst {
            continue;
        }
        // The besieger arrives on a square `a` next to the Flag after d - 1 moves and takes
        // the Flag with the next; meanwhile `side` moves `reach` times, the last of them a
        // challenge on `a`.
        let reach = d - u8::from(!side_moves);
        let empty = *empty.get_or_insert_with(|| empty_squares(g));
        if gets_through(g, side, f, (s, p), reach, empty) {
            worst = SIEGE[usize::from(d)];
        }
    }
    worst
}

/// Whether the besieger `p` on `s`, `d` steps from `side`'s Flag on `f`, arrives next to the
/// Flag (on a square `d - 1` steps from `s`) with no piece of `side` able to take (or split
/// with) it there within `reach` moves over `empty` squares.
fn gets_through(
    g: &Generals,
    side: Seat,
    f: Square,
    (s, p): (Square, Piece),
    reach: u8,
    empty: u128,
) -> bool {
    let d = steps(s, f);
    neighbours(f).any(|a| {
        if steps(s, a) + 1 != d {
            return false;
        }
        let from = arrivals(a, reach, empty);
        !super::bit_squares(from, sq).any(|q| {
            matches!(g.at(q), Some((o, k)) if o == side && k != Piece::Flag
                && duel(k, p) != Duel::DefenderWins)
        })
    })
}

/// Each square's file and rank, looked up: the evaluation's scans take them of every piece,
/// several times (6% less CPU than dividing the index each time).
const FILE_RANK: [(u8, u8); Square::COUNT] = {
    let mut t = [(0, 0); Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        t[i] = ((i % FILES as usize) as u8, (i / FILES as usize) as u8);
        i += 1;
    }
    t
};

/// The file of `s` ([`FILE_RANK`]).
fn file(s: Square) -> u8 {
    FILE_RANK[s.index()].0
}

/// [`Square::steps_to`], looked up ([`FILE_RANK`]).
fn steps(a: Square, b: Square) -> u8 {
    let ((fa, ra), (fb, rb)) = (FILE_RANK[a.index()], FILE_RANK[b.index()]);
    fa.abs_diff(fb) + ra.abs_diff(rb)
}

/// The board read once for the `expert`'s evaluation: every piece in the order of its
/// square (the order in which [`evaluate`] and its callers scan the board), each side's
/// Flag, and the empty squares.
struct Scan {
    pieces: [(Square, Seat, Piece); Square::COUNT],
    len: usize,
    flags: [Option<Square>; 2],
    empty: u128,
}

impl Scan {
    fn read(g: &Generals) -> Scan {
        let mut scan = Scan {
            pieces: [(sq(0), Seat::First, Piece::Flag); Square::COUNT],
            len: 0,
            flags: [None, None],
            empty: 0,
        };
        let occupied = g.occupied(Seat::First) | g.occupied(Seat::Second);
        scan.empty = MASKS.board & !occupied;
        for s in super::bit_squares(occupied, sq) {
            let (o, p) = g.at(s).expect("an occupied square holds a piece");
            scan.pieces[scan.len] = (s, o, p);
            scan.len += 1;
            if p == Piece::Flag {
                scan.flags[o.index()] = Some(s);
            }
        }
        scan
    }

    fn pieces(&self) -> &[(Square, Seat, Piece)] {
        &self.pieces[..self.len]
    }

    /// Whether the piece on `f` is boxed in: no empty square next to it.
    fn boxed(&self, f: Square) -> bool {
        MASKS.step(1 << f.index(), u128::MAX) & self.empty == 0
    }

    /// [`evaluate`] of a game going on, from the scan.
    fn evaluate(&self, seat: Seat) -> f64 {
        // Each side's sums kept apart, in the order of the squares (a Flag's advance is
        // nothing: adding 0.0 to a sum that is never -0.0 leaves it as it is).
        let [(mut m0, mut a0), (mut m1, mut a1)] = [(0.0f64, 0.0f64); 2];
        for &(s, owner, p) in self.pieces() {
            let a = if p == Piece::Flag {
                0.0
            } else {
                f64::from(depth(owner, s)) * 0.02
            };
            if owner == Seat::First {
                (m0, a0) = (m0 + value(p), a0 + a);
            } else {
                (m1, a1) = (m1 + value(p), a1 + a);
            }
        }
        let (material, advance) = ([m0, m1], [a0, a1]);
        let mut score = (material[seat.index()] - material[seat.other().index()]) * 0.25
            + advance[seat.index()]
            - advance[seat.other().index()];
        for side in Seat::BOTH {
            let Some(f) = self.flags[side.index()] else {
                continue;
            };
            let sign = if side == seat { 1.0 } else { -1.0 };
            let enemies = self.pieces().iter().filter(|p| p.1 != side).map(|p| p.0);
            score += sign * flag_term(side, f, enemies);
        }
        squash(score)
    }

    /// [`search_evaluate`] of a game going on with `mover` to move, from the scan and each
    /// side's [`Scan::race_margin`] (`None` for a side without its Flag).
    fn search_evaluate(&self, seat: Seat, mover: Seat, margins: [Option<i16>; 2]) -> f64 {
        let base = self.evaluate(seat);
        let mut bonus = 0.0;
        if let Some(f) = self.flags[mover.other().index()] {
            let threat = self
                .pieces()
                .iter()
                .any(|&(s, o, _)| o == mover && steps(s, f) == 1);
            if threat {
                bonus += if mover == seat { 3.0 } else { -3.0 };
            }
        }
        for side in Seat::BOTH {
            // [`unstoppable`]: no enemy piece has a move to spare, or none short.
            if margins[side.index()].is_some_and(|m| m < 0) {
                bonus += if side == seat { RACE } else { -RACE };
            }
        }
        if bonus == 0.0 {
            return base;
        }
        squash(super::logit(base) + bonus)
    }

    /// The most moves an enemy piece has to spare in stopping `side`'s Flag on `f`
    /// ([`margin_of`]), counted up to [`SPARE`]: the evaluation reads only whether it is
    /// below 0 (the race is won: [`RACE`]), 0 or 1 ([`NEAR_RACE`]), so the scan stops at
    /// the first piece with [`SPARE`] moves to spare, found early in most positions (the
    /// full count cost the expert's search about 30% of its iterations, `docs/ai.md`).
    /// [`SPARE`] for a Flag already on the far rank, `i16::MIN` when no enemy piece is left.
    fn race_margin(&self, side: Seat, f: Square, flag_moves: bool) -> i16 {
        if depth(side, f) >= RANKS - 1 {
            return SPARE;
        }
        let mut most = i16::MIN;
        for &(s, o, _) in self.pieces() {
            if o != side {
                most = most.max(margin_of(side, f, s, flag_moves));
                if most >= SPARE {
                    return SPARE;
                }
            }
        }
        most
    }

    /// The logit of the `expert`'s evaluation before the besieged Flags are taken off it
    /// (and, hunting, before the hunt: [`expert_evaluate_in`]): [`Scan::search_evaluate`]
    /// compressed and each side's nearly won race.
    fn expert_logit(&self, seat: Seat, mover: Seat) -> f64 {
        let margins = Seat::BOTH
            .map(|side| self.flags[side.index()].map(|f| self.race_margin(side, f, mover == side)));
        let mut x = COMPRESS * super::logit(self.search_evaluate(seat, mover, margins));
        for side in Seat::BOTH {
            if let Some(margin) = margins[side.index()] {
                let near = near_race(margin);
                x += if side == seat { near } else { -near };
            }
        }
        x
    }

    /// The hunt of the enemy's Flag by `side` once the enemy's army is down to
    /// [`HUNTED_ARMY`] pieces or fewer: [`HUNT`] in logits for `side` for each step that
    /// each of its two nearest pieces (its Flag aside) stands nearer that Flag than
    /// [`HUNT_FAR`], so that a second piece closes in: one piece alone cannot corner a Flag
    /// on an open board, it only follows it. 0 with the enemy's army larger, or without its
    /// Flag.
    fn hunt(&self, side: Seat) -> f64 {
        let Some(f) = self.flags[side.other().index()] else {
            return 0.0;
        };
        let mut enemies = 0;
        let mut near = [HUNT_FAR; 2];
        for &(s, o, p) in self.pieces() {
            if o != side {
                enemies += 1;
            } else if p != Piece::Flag {
                let d = steps(s, f).min(HUNT_FAR);
                if d < near[1] {
                    near[1] = d;
                    if near[1] < near[0] {
                        near.swap(0, 1);
                    }
                }
            }
        }
        if enemies > HUNTED_ARMY {
            return 0.0;
        }
        HUNT * f64::from(2 * HUNT_FAR - near[0] - near[1])
    }

    /// [`siege`] from the scan.
    fn siege(&self, g: &Generals, side: Seat, f: Square, side_moves: bool) -> f64 {
        let mut worst: f64 = 0.0;
        for &(s, o, p) in self.pieces() {
            let d = steps(s, f);
            if o == side || d > 3 || (d == 1 && !side_moves) || SIEGE[usize::from(d)] <= worst {
                continue;
            }
            let reach = d - u8::from(!side_moves);
            if gets_through(g, side, f, (s, p), reach, self.empty) {
                worst = SIEGE[usize::from(d)];
            }
        }
        worst
    }
}

/// The board's squares as bits.
const MASKS: super::Masks = super::Masks::new(FILES, RANKS);

/// The empty squares.
#[cfg(test)]
fn empty_squares(g: &Generals) -> u128 {
    Square::all()
        .filter(|&s| g.at(s).is_none())
        .fold(0, |m, s| m | 1 << s.index())
}

/// The squares from which a piece can stand on `a` (or challenge what stands there) within
/// `moves` single steps, passing only over `empty` squares: a guard walled in by its own
/// side's pieces does not arrive in time.
fn arrivals(a: Square, moves: u8, empty: u128) -> u128 {
    let target = 1u128 << a.index();
    let mut from = target;
    for _ in 0..moves {
        from = MASKS.step(from, empty | target);
    }
    from
}

/// Whether `side`'s Flag on `f` reaches the far rank before any enemy piece can stop it,
/// going straight ahead: an enemy piece stops it if it can stand next to the Flag's square
/// when its side is to move (and then take it), at some point of the Flag's way, the
/// arrival square included (a Flag that arrives next to an enemy piece does not win at
/// once). `flag_moves`: the Flag's side is to move.
fn unstoppable(g: &Generals, side: Seat, f: Square, flag_moves: bool) -> bool {
    depth(side, f) < RANKS - 1
        && !Square::all().any(|s| {
            matches!(g.at(s), Some((o, _)) if o != side) && stops_in_time(side, f, s, flag_moves)
        })
}

/// Whether an enemy piece on `s` stops `side`'s Flag on `f` running straight for the far
/// rank ([`unstoppable`]). After the Flag's `m`-th move (or before its first, when the enemy
/// is to move: one move `extra`) a piece `k` ranks deeper than the Flag (counted from the
/// Flag's side; `k` is at most the Flag's ranks to go) and `files` files aside stands
/// `files + |k - m| - m` steps from it, which falls until `m = k` and then stays
/// `files - k`: it stops the Flag when that is at most `extra`.
fn stops_in_time(side: Seat, f: Square, s: Square, flag_moves: bool) -> bool {
    margin_of(side, f, s, flag_moves) >= 0
}

/// How many moves an enemy piece on `s` has to spare in stopping `side`'s Flag on `f`
/// running straight for the far rank: how many moves later than now it could set out and
/// still stand next to the Flag in time ([`stops_in_time`] holds when it is at least 0):
/// `extra - (files - k)` in the terms of [`stops_in_time`].
fn margin_of(side: Seat, f: Square, s: Square, flag_moves: bool) -> i16 {
    let files = i16::from(file(s).abs_diff(file(f)));
    let k = i16::from(depth(side, s)) - i16::from(depth(side, f));
    i16::from(!flag_moves) - (files - k)
}

/// The `expert`'s reward (in logits, after [`COMPRESS`]) for a Flag whose best stopper has
/// no move to spare, and one move ([`margin_of`]): the race is nearly won, and the other
/// side must send its last stopper now. Measured at fixed iterations against `mcts` on the
/// 400 deals of seeds 92–95: +3.5 points at these weights, +0.8 at 1.5 and 0.7; at 100 ms,
/// no change in 400 games (`docs/ai.md`).
const NEAR_RACE: [f64; 2] = [0.6, 0.2];

/// The moves to spare from which a Flag's best stopper is in no hurry: [`near_race`] gives
/// such a Flag nothing, and [`Scan::race_margin`] counts no further.
const SPARE: i16 = NEAR_RACE.len() as i16;

/// [`NEAR_RACE`] for a Flag whose best stopper has `margin` moves to spare: nothing when it
/// has more (or when the Flag cannot be stopped, which [`RACE`] rewards).
fn near_race(margin: i16) -> f64 {
    match margin {
        0 => NEAR_RACE[0],
        1 => NEAR_RACE[1],
        _ => 0.0,
    }
}

impl AiGame for Generals {
    type Belief = Belief;

    const MOVE_SLOTS: usize = Square::COUNT * Square::COUNT;

    fn move_slot(m: &Move) -> usize {
        m.from.index() * Square::COUNT + m.to.index()
    }

    fn hidden_marginals(
        _k: &Knowledge<Self>,
        b: &Belief,
        samples: u32,
        rng: &mut GameRng,
    ) -> Vec<crate::analysis::HiddenPiece> {
        crate::analysis::token_marginals(
            b,
            samples,
            rng,
            |i| sq(i).to_string(),
            |p| Piece::ALL[p].code().to_string(),
        )
    }
    /// Whether the search hunts, and its centre then (`hunt`); the analysis never does.
    type ExpertContext = Option<f64>;

    fn expert_context(_k: &Knowledge<Self>, _pool: &[Self]) -> Option<f64> {
        None
    }

    fn expert_search_context(k: &Knowledge<Self>, pool: &[Self]) -> Option<f64> {
        hunt(k, pool)
    }

    const ROLLOUT_DEPTH: u32 = 0;
    // No root prior (`EXPERT_ROOT_PRIOR`): at Stratego's 1/80 it scored 80.4% against
    // `mcts` and 91.9% against `greedy` at 100 ms, 400 games each, against 81.0% and 92.1%
    // without it on the same deals (`docs/ai.md`, *Twenty-second session*).
    const EXPLORATION: f64 = 0.4;
    /// Fitted 0.495 over 300 arena games (`expert` against `greedy` and `mcts`, 65,044
    /// seat-plies): log loss 0.670 raw, 0.627 read through it (`docs/ai.md`).
    const ANALYSIS_SLOPE: f64 = 0.5;

    fn search_evaluate(g: &Self, seat: Seat) -> f64 {
        search_evaluate(g, seat)
    }

    fn expert_evaluate(g: &Self, seat: Seat, hunting: &Option<f64>) -> f64 {
        expert_evaluate_in(g, seat, *hunting)
    }

    fn view_move(view: &GeneralsView) -> Move {
        Move {
            from: view.from,
            to: view.to,
        }
    }

    fn belief(k: &Knowledge<Self>) -> Belief {
        belief(k)
    }

    fn expert_belief(k: &Knowledge<Self>) -> Belief {
        expert_belief(k)
    }

    fn determinize(k: &Knowledge<Self>, b: &Belief, rng: &mut GameRng) -> Self {
        determinize(k, b, rng)
    }

    fn evaluate(g: &Self, seat: Seat) -> f64 {
        evaluate(g, seat)
    }

    fn root_moves(k: &Knowledge<Self>, pool: &[Self], legal: &[Move]) -> Vec<Move> {
        root_moves(k, pool, legal)
    }

    fn expert_tree_moves(g: &Self, me: Seat, moves: &mut Vec<Move>, rng: &mut GameRng) {
        expert_tree_moves(g, me, moves, rng);
    }

    fn expert_root_moves(
        k: &Knowledge<Self>,
        pool: &[Self],
        legal: &[Move],
        _ctx: &Option<f64>,
    ) -> Vec<Move> {
        expert_root_moves(k, pool, legal)
    }
}

/// The chance that the enemy, at one of its turns in the `expert`'s search, challenges the
/// expert's Flag standing next to one of its pieces, while that Flag is within its own
/// three ranks ([`FLAG_HIDDEN_DEPTH`]). The enemy does not know which piece is the Flag; the
/// single-observer tree, left alone, lets it take the Flag at once wherever it stands next
/// to it, and the expert then gave up a Flag it could still save (`docs/ai.md`, *The enemy
/// does not know where the Flag is*).
pub const FLAG_SEEN: f64 = 0.5;

/// How far from its own back rank the expert's Flag stays unguessed: from this rank on (a
/// Flag that runs), the enemy in the search challenges it whenever it can, as a player
/// watching a piece walk towards its back rank would.
pub const FLAG_HIDDEN_DEPTH: u8 = 3;

/// The enemy's moves in the `expert`'s search, where `me` is the expert: at a turn where it
/// could challenge the expert's Flag standing within [`FLAG_HIDDEN_DEPTH`] ranks of its own
/// back rank, those challenges are left out but with the chance [`FLAG_SEEN`] (one draw for
/// all of them), unless they are all it can play or the Flag is shown (`open_flag`). The
/// expert's own moves are never touched.
pub fn expert_tree_moves(g: &Generals, me: Seat, moves: &mut Vec<Move>, rng: &mut GameRng) {
    if g.to_move() == Some(me) || g.options().open_flag {
        return;
    }
    let on_flag = |m: &Move| g.at(m.to) == Some((me, Piece::Flag));
    let Some(flag) = moves.iter().find(|m| on_flag(m)).map(|m| m.to) else {
        return;
    };
    if depth(me, flag) >= FLAG_HIDDEN_DEPTH
        || moves.iter().all(on_flag)
        || rng.random_bool(FLAG_SEEN)
    {
        return;
    }
    moves.retain(|m| !on_flag(m));
}

/// The root moves worth searching: all but the Flag's attacks on pieces that are the enemy
/// Flag in fewer than half of the samples. Losing the Flag loses the game, and the search's
/// few samples and shallow tree overrate such gambles.
#[must_use]
pub fn root_moves(k: &Knowledge<Generals>, pool: &[Generals], legal: &[Move]) -> Vec<Move> {
    root_moves_with(k, pool, legal, 0.5, false)
}

/// The share of the samples in which a piece must be the enemy Flag for the `expert`'s Flag
/// to attack it. The reference's bar, half, lost the game more often than it won it: over
/// 400 games against `mcts` at fixed iterations the expert's Flag attacked 11 times and
/// took the enemy Flag twice (`docs/ai.md`).
pub const EXPERT_FLAG_BAR: f64 = 0.9;

/// The `expert`'s root moves: [`root_moves`], but the Flag attacks only a piece that is the
/// enemy Flag in at least [`EXPERT_FLAG_BAR`] of the samples, or one that stands on the
/// expert's own back rank: an enemy Flag there, next to the expert's Flag, wins unless it is
/// challenged now, so the search weighs that challenge against the certain loss.
#[must_use]
pub fn expert_root_moves(k: &Knowledge<Generals>, pool: &[Generals], legal: &[Move]) -> Vec<Move> {
    root_moves_with(k, pool, legal, EXPERT_FLAG_BAR, true)
}

/// [`root_moves`] keeping the Flag's attacks on pieces that are the enemy Flag in at least
/// `bar` of the samples, and with `back_rank` every Flag's attack on a piece on the seat's
/// own back rank.
fn root_moves_with(
    k: &Knowledge<Generals>,
    pool: &[Generals],
    legal: &[Move],
    bar: f64,
    back_rank: bool,
) -> Vec<Move> {
    let me = k.seat();
    let Some(g) = pool.first() else {
        return legal.to_vec();
    };
    legal
        .iter()
        .copied()
        .filter(|mv| {
            if g.at(mv.from) != Some((me, Piece::Flag)) {
                return true;
            }
            if !matches!(g.at(mv.to), Some((o, _)) if o != me) {
                return true;
            }
            if back_rank && depth(me, mv.to) == 0 {
                return true;
            }
            let flags = pool
                .iter()
                .filter(|s| s.at(mv.to) == Some((me.other(), Piece::Flag)))
                .count();
            flags as f64 >= bar * pool.len() as f64
        })
        .collect()
}

/// A setup with variety: the Flag on the back rank (sometimes the middle), guarded by a
/// strong piece and a Spy nearby, Privates and lower officers towards the front, the other
/// officers spread over the board.
#[must_use]
pub fn setup(seat: Seat, options: &GeneralsOptions, rng: &mut GameRng) -> Setup {
    setup_with(seat, options, rng, false)
}

/// The `expert`'s setup: [`setup`], but a Spy always stands next to the Flag (the first Spy
/// placed, on one of the Flag's free neighbours), where the reference's Spy stands there a
/// little over half the time (671 of 1,200 recorded setups), and the Five-star, Four-star
/// and Three-star Generals and the second Spy are placed by [`EXPERT_RANK_WEIGHTS`]: the
/// Generals towards the front, the second Spy off it (the Four-star no longer a guard of
/// the Flag). Learnt by self-play: in 1,200 games between two expert searches with the
/// reference's setups, the Five-star scored 40.8% from the back rank and 52.7% from the
/// front; with these weights one side scored 56.1% against the other (`docs/ai.md`).
#[must_use]
pub fn expert_setup(seat: Seat, options: &GeneralsOptions, rng: &mut GameRng) -> Setup {
    setup_with(seat, options, rng, true)
}

/// How much the `expert`'s setup weighs a square on its back, middle and front rank for its
/// Five-star, Four-star and Three-star Generals and its second Spy ([`expert_setup`]); the
/// other pieces placed by preference (the Two-star and One-star) keep the reference's
/// weights, 0.6, 1.0, 1.6.
pub const EXPERT_RANK_WEIGHTS: [(Piece, [f64; 3]); 4] = [
    (Piece::FiveStar, [0.15, 1.0, 2.5]),
    (Piece::FourStar, [0.3, 1.0, 2.0]),
    (Piece::ThreeStar, [0.3, 1.0, 2.0]),
    (Piece::Spy, [1.0, 1.5, 0.5]),
];

/// The reference's weights of a square on the back, middle and front rank for the pieces
/// placed by preference away from the Flag.
const RANK_WEIGHTS: [f64; 3] = [0.6, 1.0, 1.6];

/// [`setup`], or with `expert` [`expert_setup`].
fn setup_with(seat: Seat, options: &GeneralsOptions, rng: &mut GameRng, expert: bool) -> Setup {
    let army = &options.army;
    let mut free: Vec<Square> = Square::all()
        .filter(|&s| match seat {
            Seat::First => s.rank() < 3,
            Seat::Second => s.rank() >= RANKS - 3,
        })
        .collect();
    let mut placements = Vec::new();
    let mut pieces = army.pieces();
    let take = |free: &mut Vec<Square>, rng: &mut GameRng, w: &dyn Fn(Square) -> f64| {
        let total: f64 = free.iter().map(|&s| w(s)).sum();
        let mut r = rng.random::<f64>() * total;
        let mut idx = free.len() - 1;
        for (i, &s) in free.iter().enumerate() {
            if r < w(s) {
                idx = i;
                break;
            }
            r -= w(s);
        }
        free.swap_remove(idx)
    };
    let flag = take(&mut free, rng, &|s| {
        let edge = if s.file() == 0 || s.file() == FILES - 1 {
            0.5
        } else {
            1.0
        };
        [6.0, 1.5, 0.2][depth(seat, s) as usize] * edge
    });
    placements.push((flag, Piece::Flag));
    pieces.retain(|&p| p != Piece::Flag);
    let near = move |s: Square| s.steps_to(flag);
    // Order: a guard and a Spy near the Flag, then the rest by preference.
    let order = [
        Piece::Spy,
        Piece::FourStar,
        Piece::FiveStar,
        Piece::Spy,
        Piece::ThreeStar,
        Piece::TwoStar,
        Piece::OneStar,
    ];
    for (i, &p) in order.iter().enumerate() {
        if let Some(j) = pieces.iter().position(|&q| q == p) {
            pieces.swap_remove(j);
            let by_flag = expert && i == 0;
            let s = if expert && i > 0 {
                let w = EXPERT_RANK_WEIGHTS
                    .iter()
                    .find(|(q, _)| *q == p)
                    .map_or(RANK_WEIGHTS, |(_, w)| *w);
                take(&mut free, rng, &|s| w[depth(seat, s) as usize])
            } else if i < 2 && (rng.random::<f64>() < 0.7 || by_flag) {
                take(&mut free, rng, &|s| {
                    if near(s) == 1 {
                        4.0
                    } else if by_flag {
                        0.0
                    } else {
                        0.2
                    }
                })
            } else {
                take(&mut free, rng, &|s| RANK_WEIGHTS[depth(seat, s) as usize])
            };
            placements.push((s, p));
        }
    }
    pieces.sort_by_key(|&p| std::cmp::Reverse(p as u8));
    for p in pieces {
        let s = take(&mut free, rng, &|s| match p {
            Piece::Private => [0.7, 1.0, 1.8][depth(seat, s) as usize],
            _ => 1.0 + if near(s) <= 2 { 0.5 } else { 0.0 },
        });
        placements.push((s, p));
    }
    Setup::new(seat, army, &placements).expect("a placement of the army is valid")
}

/// [`setup`] drawn from `seed`, as the engine's checked setup for the facade.
///
/// # Errors
/// Never for a setup of these options; kept fallible as the engine checks it again.
pub fn seat_setup(
    spec: &GameSpec,
    options: &GeneralsOptions,
    seat: Seat,
    seed: u64,
    expert: bool,
) -> Result<SeatSetup, AiError> {
    let rng = &mut rng_from_seed(seed);
    let s = if expert {
        expert_setup(seat, options, rng)
    } else {
        setup(seat, options, rng)
    };
    SeatSetup::from_text(spec, seat, &s.text()).map_err(|e| AiError::Setup(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of random games from the `expert`'s setups, every ply of each.
    fn random_positions(games: u64) -> Vec<Generals> {
        random_positions_with(&GeneralsOptions::default(), games)
    }

    /// [`random_positions`] under `options`.
    fn random_positions_with(options: &GeneralsOptions, games: u64) -> Vec<Generals> {
        let mut out = Vec::new();
        for seed in 0..games {
            let mut rng = rng_from_seed(seed);
            let setups = Setups([
                setup(Seat::First, options, &mut rng),
                setup(Seat::Second, options, &mut rng),
            ]);
            let mut g = <Generals as Game>::start(options, setups).expect("valid setups");
            out.push(g.clone());
            while let Some(mv) = g.random_move(&mut rng) {
                g.play_unchecked(mv);
                out.push(g.clone());
            }
        }
        out
    }

    /// Calls `check` for every Flag of either side, every square of an enemy piece beside it,
    /// and either side to move.
    fn each_race(mut check: impl FnMut(Seat, Square, Square, bool)) {
        for side in Seat::BOTH {
            for f in Square::all() {
                for s in Square::all().filter(|&s| s != f) {
                    for flag_moves in [false, true] {
                        check(side, f, s, flag_moves);
                    }
                }
            }
        }
    }

    /// Whether an enemy piece on `s`, setting out `late` moves from now, stands next to
    /// `side`'s Flag on `f` (running straight for the far rank) at some move of its way,
    /// counted move by move: after the Flag's m-th move, the enemy's next.
    fn stands_next_in_time(side: Seat, f: Square, s: Square, flag_moves: bool, late: u16) -> bool {
        let at = depth(side, f);
        let extra = u16::from(!flag_moves);
        let files = u16::from(s.file().abs_diff(f.file()));
        (0..=RANKS - 1 - at).any(|m| {
            files + u16::from(depth(side, s).abs_diff(at + m)) + late <= u16::from(m) + extra
        })
    }

    #[test]
    fn a_piece_stops_a_running_flag_when_it_can_stand_next_to_it_at_some_move_of_its_way() {
        each_race(|side, f, s, flag_moves| {
            assert_eq!(
                stops_in_time(side, f, s, flag_moves),
                stands_next_in_time(side, f, s, flag_moves, 0),
                "{side:?} Flag on {f}, enemy on {s}, Flag to move: {flag_moves}"
            );
        });
    }

    #[test]
    fn a_stoppers_spare_moves_are_how_much_later_it_could_set_out_and_still_stop_the_flag() {
        each_race(|side, f, s, flag_moves| {
            if depth(side, f) == RANKS - 1 {
                return;
            }
            let margin = margin_of(side, f, s, flag_moves);
            let in_time = |late| stands_next_in_time(side, f, s, flag_moves, late);
            assert_eq!(
                margin >= 0,
                stops_in_time(side, f, s, flag_moves),
                "{f} {s}"
            );
            if let Ok(late) = u16::try_from(margin) {
                assert!(in_time(late) && !in_time(late + 1), "{f} {s}: {margin}");
            }
        });
    }

    #[test]
    fn the_one_scan_expert_evaluation_is_its_parts_bit_for_bit() {
        let (mut races, mut sieges, mut threats, mut near, mut hunts) = (0, 0, 0, 0, 0);
        for g in random_positions(60) {
            for seat in Seat::BOTH {
                for hunting in [false, true] {
                    let fast = expert_evaluate_in(&g, seat, hunting.then_some(0.0));
                    let parts = expert_evaluate_by_parts(&g, seat, hunting);
                    assert_eq!(fast.to_bits(), parts.to_bits(), "{fast} against {parts}");
                }
            }
            let (Some(mover), false) = (g.to_move(), g.outcome().is_some()) else {
                continue;
            };
            let scan = Scan::read(&g);
            hunts += Seat::BOTH
                .iter()
                .filter(|&&side| scan.hunt(side) > 0.0)
                .count();
            for &(s, side, p) in scan.pieces() {
                if p == Piece::Flag {
                    races += usize::from(unstoppable(&g, side, s, mover == side));
                    near += usize::from(near_race(scan.race_margin(side, s, mover == side)) > 0.0);
                    sieges += usize::from(siege(&g, side, s, mover == side) > 0.0);
                    threats += usize::from(
                        side != mover
                            && neighbours(s).any(|a| matches!(g.at(a), Some((o, _)) if o == mover)),
                    );
                }
            }
        }
        // The positions reach every term the scan computes apart.
        assert!(
            races > 0 && sieges > 0 && threats > 0 && near > 0 && hunts > 0,
            "{races} {sieges} {threats} {near} {hunts}"
        );
    }

    /// The enemy in the `expert`'s search does not know which piece is the expert's Flag:
    /// at a node where it could challenge the Flag within its own three ranks, that
    /// challenge is left out at random (kept in about [`FLAG_SEEN`] of the draws), and
    /// nothing else ever is; a Flag that has run farther is challenged at every turn; at
    /// the expert's own turns, or with the Flag shown to the enemy (`open_flag`), no move is
    /// left out.
    #[test]
    fn the_enemy_in_the_expert_search_challenges_the_flag_only_when_it_guesses_it() {
        let mut rng = rng_from_seed(5);
        let (mut nodes, mut far, mut draws, mut kept) = (0u32, 0u32, 0u32, 0u32);
        for g in random_positions(40) {
            let Some(mover) = g.to_move() else { continue };
            let me = mover.other();
            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            let on_flag = |m: &Move| g.at(m.to) == Some((me, Piece::Flag));
            let others: Vec<Move> = legal.iter().copied().filter(|m| !on_flag(m)).collect();
            // The expert to move: every move stays.
            let mut moves = legal.clone();
            expert_tree_moves(&g, mover, &mut moves, &mut rng);
            assert_eq!(moves, legal);
            if others.len() == legal.len() || others.is_empty() {
                continue;
            }
            let flag = legal.iter().find(|m| on_flag(m)).expect("a challenge").to;
            if depth(me, flag) >= FLAG_HIDDEN_DEPTH {
                far += 1;
                let mut moves = legal.clone();
                expert_tree_moves(&g, me, &mut moves, &mut rng);
                assert_eq!(moves, legal, "a Flag that ran is challenged at every turn");
                continue;
            }
            nodes += 1;
            for _ in 0..50 {
                let mut moves = legal.clone();
                expert_tree_moves(&g, me, &mut moves, &mut rng);
                draws += 1;
                if moves == legal {
                    kept += 1;
                } else {
                    assert_eq!(moves, others, "only the challenges on the Flag go");
                }
            }
        }
        let open = GeneralsOptions {
            open_flag: true,
            ..GeneralsOptions::default()
        };
        let mut open_nodes = 0;
        for g in random_positions_with(&open, 40) {
            let Some(mover) = g.to_move() else { continue };
            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            open_nodes += u32::from(
                legal
                    .iter()
                    .any(|m| g.at(m.to) == Some((mover.other(), Piece::Flag))),
            );
            let mut moves = legal.clone();
            expert_tree_moves(&g, mover.other(), &mut moves, &mut rng);
            assert_eq!(
                moves, legal,
                "a Flag the enemy sees is challenged at every turn"
            );
        }
        assert!(
            open_nodes >= 5,
            "{open_nodes} open positions with a challenge on a Flag"
        );
        let share = f64::from(kept) / f64::from(draws);
        assert!(
            nodes >= 5 && far >= 5,
            "{nodes} and {far} positions with a challenge on a Flag near and far"
        );
        assert!(
            (share - FLAG_SEEN).abs() < 0.1,
            "kept in {share} of the draws"
        );
    }
}
