//! Stratego: belief from shown pieces and moves, determinization, evaluation, setup.

use salpakan_engine::stratego::{
    Duel, Move, Piece, RANKS, Setup, Setups, Square, Stratego, StrategoOptions, StrategoView,
};
use salpakan_engine::{GameKind, GameRng, GameSpec, Seat, SeatSetup, rng_from_seed};

use super::{AiGame, replay, squash, terminal};
use crate::belief::{Belief, Token};
use crate::{AiError, Knowledge};

const FILES: u8 = salpakan_engine::stratego::FILES;

pub(crate) fn sq(i: u8) -> Square {
    Square::new(i % FILES, i / FILES).expect("on the board")
}

fn depth(seat: Seat, s: Square) -> u8 {
    match seat {
        Seat::First => s.rank(),
        Seat::Second => RANKS - 1 - s.rank(),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Occ {
    Empty,
    Own,
    Enemy(usize),
    /// An enemy piece that is no token: one it rescued (its rank is public).
    Rescued,
}

pub(crate) fn value(p: Piece) -> f64 {
    match p {
        Piece::Flag => 0.0,
        Piece::Spy => 3.0,
        Piece::Scout => 1.0,
        Piece::Miner => 2.2,
        Piece::Sergeant => 1.6,
        Piece::Lieutenant => 2.2,
        Piece::Captain => 3.0,
        Piece::Major => 4.2,
        Piece::Colonel => 5.5,
        Piece::General => 7.5,
        Piece::Marshal => 10.0,
        Piece::Bomb => 1.2,
    }
}

fn own_setup(k: &Knowledge<Stratego>) -> Setup {
    let text = k.own_setup().expect("a Stratego seat knows its own setup");
    Setup::parse(k.seat(), k.options(), text).expect("the seat's own setup is valid")
}

/// The belief of `k`'s seat about the enemy army.
#[must_use]
// Over 100 lines: one replay of the seat's views applying, in order, each rule of docs/ai.md's
// Belief section (attacks shown, Scout moves, pieces that moved, priors) to the same tokens.
pub fn belief(k: &Knowledge<Stratego>) -> Belief {
    let me = k.seat();
    let enemy = me.other();
    let enemy_name = GameKind::Stratego.seat_name(enemy);
    let mut board = [Occ::Empty; 100];
    for &(s, _) in own_setup(k).placements() {
        board[s.index()] = Occ::Own;
    }
    let mut tokens = Vec::new();
    for (s, v) in &k.initial().board {
        if v.owner == enemy_name {
            board[s.index()] = Occ::Enemy(tokens.len());
            tokens.push(Token::new(s.index() as u8, 12));
        }
    }
    let immobile = (1 << Piece::Bomb as usize) | (1 << Piece::Flag as usize);
    for v in k.history() {
        let (from, to) = (v.from.index(), v.to.index());
        let mover = board[from];
        let target = board[to];
        if let Occ::Enemy(t) = mover {
            tokens[t].moves += 1;
            tokens[t].restrict(!immobile);
            if let Some(p) = v.piece {
                tokens[t].restrict(1 << p as usize);
            } else if v.from.steps_to(v.to) > 1 {
                // A two-square move that does not show the piece: a Scout or a Captain
                // (`captain_steps=2`).
                tokens[t].restrict((1 << Piece::Scout as usize) | (1 << Piece::Captain as usize));
            }
        }
        if let (Some(a), Occ::Enemy(t)) = (&v.attack, target) {
            tokens[t].restrict(1 << a.defender as usize);
        }
        if let (Some(a), Occ::Enemy(t)) = (&v.attack, mover) {
            tokens[t].restrict(1 << a.attacker as usize);
            tokens[t].attacks += 1;
        }
        board[from] = Occ::Empty;
        let result = v.attack.map(|a| a.result);
        match result {
            None | Some(Duel::AttackerWins) => {
                if let Occ::Enemy(t) = target {
                    tokens[t].square = None;
                }
                board[to] = mover;
                if let Occ::Enemy(t) = mover {
                    tokens[t].square = Some(to as u8);
                }
            }
            Some(Duel::DefenderWins) => {
                if let Occ::Enemy(t) = mover {
                    tokens[t].square = None;
                }
            }
            Some(Duel::BothRemoved) => {
                for o in [mover, target] {
                    if let Occ::Enemy(t) = o {
                        tokens[t].square = None;
                    }
                }
                board[to] = Occ::Empty;
            }
        }
        if let Some(r) = v.rescue {
            let own = v.seat == GameKind::Stratego.seat_name(me);
            board[r.square.index()] = if own { Occ::Own } else { Occ::Rescued };
        }
    }
    for (s, v) in &k.observation().board {
        if v.owner == enemy_name {
            if let Occ::Enemy(t) = board[s.index()] {
                if let Some(p) = v.piece {
                    tokens[t].restrict(1 << p as usize);
                }
                if v.moved {
                    tokens[t].restrict(!immobile);
                }
            }
        }
    }
    let max_depth = tokens
        .iter()
        .map(|t| depth(enemy, sq(t.start)))
        .max()
        .unwrap_or(0);
    for t in &mut tokens {
        let d = depth(enemy, sq(t.start));
        let front = max_depth.saturating_sub(d);
        for p in Piece::ALL {
            let w = match p {
                Piece::Flag => [8.0, 1.0, 0.15, 0.05][d.min(3) as usize],
                Piece::Bomb => [1.6, 1.6, 1.0, 0.5][d.min(3) as usize],
                Piece::Scout => [1.6, 1.2, 0.8, 0.7][front.min(3) as usize],
                Piece::Miner => [0.7, 0.9, 1.2, 1.3][front.min(3) as usize],
                _ => 1.0,
            };
            t.prior[p as usize] = w;
        }
    }
    let n = tokens.len();
    let counts: Vec<u8> = match k.options().army.counts() {
        Some(c) => c.to_vec(),
        None => {
            let own = own_setup(k);
            let mut c = vec![0u8; 12];
            for &(_, p) in own.placements() {
                c[p as usize] += 1;
            }
            if own.placements().len() == n {
                c
            } else {
                vec![n as u8; 12]
            }
        }
    };
    Belief::new(counts, tokens)
}

/// A complete game consistent with the knowledge.
#[must_use]
pub fn determinize(k: &Knowledge<Stratego>, b: &Belief, rng: &mut GameRng) -> Stratego {
    let me = k.seat();
    let options = k.options();
    let mine = own_setup(k);
    let theirs = b
        .sample(rng)
        .and_then(|a| {
            let placements: Vec<(Square, Piece)> = b
                .tokens()
                .iter()
                .zip(&a)
                .map(|(t, &p)| (sq(t.start), Piece::ALL[p as usize]))
                .collect();
            Setup::new(me.other(), options, &placements).ok()
        })
        .unwrap_or_else(|| Setup::sensible(me.other(), options, rng));
    let setups = match me {
        Seat::First => Setups([mine, theirs]),
        Seat::Second => Setups([theirs, mine]),
    };
    let mut g = <Stratego as salpakan_engine::Game>::start(options, setups)
        .expect("setups valid for the options");
    replay(&mut g, k.history().iter().map(Stratego::view_move));
    g
}

/// How good the position is for `seat`.
#[must_use]
pub fn evaluate(g: &Stratego, seat: Seat) -> f64 {
    if let Some(v) = terminal(g, seat) {
        return v;
    }
    squash(score(g, seat, |_, _| {}))
}

/// The score of [`evaluate`] for a position that is not over, in logits (before the
/// squash). Its scan of the board calls `visit` with every square and what stands there,
/// so that an evaluation built on this one reads the board in the same scan.
pub(crate) fn score(
    g: &Stratego,
    seat: Seat,
    visit: impl FnMut(Square, Option<(Seat, Piece)>),
) -> f64 {
    score_on(g, seat, Square::all, |_| Square::all(), visit)
}

/// [`score`] reading only the squares `squares` yields, and around a Flag on `f` only
/// those `near(f)` yields (each in the order of their indices): the same value, to the
/// bit, when they include every occupied square (`near`: those within two steps of `f`),
/// since the others add nothing.
pub(crate) fn score_on<I: Iterator<Item = Square>, J: Iterator<Item = Square>>(
    g: &Stratego,
    seat: Seat,
    squares: impl Fn() -> I,
    near: impl Fn(Square) -> J,
    mut visit: impl FnMut(Square, Option<(Seat, Piece)>),
) -> f64 {
    let mut material = [0.0f64; 2];
    let mut counts = [[0u8; 12]; 2];
    let mut flags: [Option<Square>; 2] = [None, None];
    let mut advance = [0.0f64; 2];
    for s in squares() {
        let at = g.at(s);
        visit(s, at);
        if let Some((o, p)) = at {
            counts[o.index()][p as usize] += 1;
            material[o.index()] += value(p);
            if p == Piece::Flag {
                flags[o.index()] = Some(s);
            }
            if p.is_movable() {
                advance[o.index()] += f64::from(depth(o, s)) * 0.01;
            }
        }
    }
    for side in Seat::BOTH {
        let other = side.other().index();
        // Miners matter while the enemy has Bombs; the Spy while the enemy Marshal lives.
        let i = side.index();
        if counts[other][Piece::Bomb as usize] > 0 {
            material[i] += 0.8 * f64::from(counts[i][Piece::Miner as usize].min(3));
        }
        if counts[other][Piece::Marshal as usize] == 0 {
            material[i] -= 2.0 * f64::from(counts[i][Piece::Spy as usize]);
        }
        if counts[i]
            .iter()
            .enumerate()
            .all(|(p, &c)| c == 0 || !Piece::ALL[p].is_movable())
        {
            material[i] -= 20.0;
        }
    }
    let mut score = (material[seat.index()] - material[seat.other().index()]) * 0.22
        + advance[seat.index()]
        - advance[seat.other().index()];
    for side in Seat::BOTH {
        let Some(f) = flags[side.index()] else {
            continue;
        };
        let sign = if side == seat { 1.0 } else { -1.0 };
        let mut danger = 0.0;
        for s in near(f) {
            if let Some((o, p)) = g.at(s) {
                if o != side && p.is_movable() {
                    let d = s.steps_to(f);
                    if d <= 2 {
                        danger += if d == 1 { 0.5 } else { 0.2 };
                    }
                }
            }
        }
        score -= sign * danger;
    }
    score
}

impl AiGame for Stratego {
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
    const ROLLOUT_DEPTH: u32 = 0;
    /// The search's values of its best root moves lie within a few hundredths of each other
    /// (`docs/ai.md`, *Twentieth session*): a prior of one-ply evaluations, 50 virtual
    /// visits a move at 4,000 iterations, gained 2.8 points against `mcts` over 1,200 deals
    /// at fixed budgets (*Twenty-first session*); at 100 ms 78.9% over the 400
    /// games, against 77.5% for the last build measured on them (*Twenty-second session*).
    const EXPERT_ROOT_PRIOR: f64 = 1.0 / 80.0;
    /// Fitted 0.286 over 160 arena games (`expert` against `greedy` and `mcts`, 97,948
    /// seat-plies): log loss 0.807 raw, 0.533 read through it (`docs/ai.md`).
    const ANALYSIS_SLOPE: f64 = 0.29;

    fn view_move(view: &StrategoView) -> Move {
        Move {
            from: view.from,
            to: view.to,
            rescue: view.rescue,
        }
    }

    fn belief(k: &Knowledge<Self>) -> Belief {
        belief(k)
    }

    fn determinize(k: &Knowledge<Self>, b: &Belief, rng: &mut GameRng) -> Self {
        determinize(k, b, rng)
    }

    fn evaluate(g: &Self, seat: Seat) -> f64 {
        evaluate(g, seat)
    }

    type ExpertContext = super::stratego_expert::Context;

    fn expert_belief(k: &Knowledge<Self>) -> Belief {
        super::stratego_expert::belief(k)
    }

    fn expert_context(k: &Knowledge<Self>, pool: &[Self]) -> Self::ExpertContext {
        super::stratego_expert::context(k, pool)
    }

    fn expert_search_context(k: &Knowledge<Self>, pool: &[Self]) -> Self::ExpertContext {
        super::stratego_expert::search_context(k, pool)
    }

    fn expert_root_moves(
        k: &Knowledge<Self>,
        pool: &[Self],
        legal: &[Move],
        ctx: &Self::ExpertContext,
    ) -> Vec<Move> {
        super::stratego_expert::root_moves(k, pool, legal, ctx)
    }

    fn expert_evaluate(g: &Self, seat: Seat, ctx: &Self::ExpertContext) -> f64 {
        super::stratego_expert::evaluate(g, seat, ctx)
    }
}

/// The bot's setup, varied by the seed: with `human_like` (the expert's) drawn as human
/// players set up ([`super::stratego_setup::setup`]), otherwise the engine's sensible setup
/// (Flag on the back rank, Bombs around it, Scouts forward, Miners back, the rest at random).
///
/// # Errors
/// Never for a setup of these options; kept fallible as the engine checks it again.
pub fn seat_setup(
    spec: &GameSpec,
    options: &StrategoOptions,
    seat: Seat,
    seed: u64,
    human_like: bool,
) -> Result<SeatSetup, AiError> {
    let rng = &mut rng_from_seed(seed);
    let s = if human_like {
        super::stratego_setup::setup(seat, options, rng)
    } else {
        Setup::sensible(seat, options, rng)
    };
    SeatSetup::from_text(spec, seat, &s.text()).map_err(|e| AiError::Setup(e.to_string()))
}
