//! What the bots need of each game: the belief, determinization, chance, evaluation.

pub mod banqi;
pub mod banqi_search;
pub mod generals;
pub mod stratego;
pub mod stratego_expert;
pub mod stratego_setup;

use salpakan_engine::{Game, GameRng, Seat};

use crate::Knowledge;

/// A game the bots can play. Implemented for the three salpakan games.
///
/// Everything here starts from a [`Knowledge`]: a determinized game is a *sample* made from
/// the seat's belief, never the arbiter's state.
pub trait AiGame: Game {
    /// The seat's belief about what it cannot see.
    type Belief: Clone + std::fmt::Debug + Send + Sync;

    /// The move of a ply, as the seat saw it (moves are public in all three games).
    fn view_move(view: &Self::View) -> Self::Move;

    /// The belief, from everything the seat has observed.
    fn belief(k: &Knowledge<Self>) -> Self::Belief;

    /// A complete game consistent with the knowledge: a hidden state drawn from the belief,
    /// with the move history replayed on it (every replayed ply shows the seat exactly what
    /// it saw).
    fn determinize(k: &Knowledge<Self>, b: &Self::Belief, rng: &mut GameRng) -> Self;

    /// Resolves chance before `mv` is played on a determinized game (Banqi flips).
    fn before_play(_g: &mut Self, _mv: Self::Move, _rng: &mut GameRng) {}

    /// How good the (determinized) position is for `seat`, from 0 (lost) to 1 (won).
    fn evaluate(g: &Self, seat: Seat) -> f64;

    /// The evaluation at the search's leaves: by default [`AiGame::evaluate`]. A game may
    /// give the search more (Banqi: pressure towards pieces it can safely take); the
    /// one-ply `greedy` bot keeps [`AiGame::evaluate`].
    fn search_evaluate(g: &Self, seat: Seat) -> f64 {
        Self::evaluate(g, seat)
    }

    /// A playout move after the tree: by default uniform over the legal moves.
    fn playout_move(g: &Self, rng: &mut GameRng) -> Option<Self::Move> {
        g.random_move(rng)
    }

    /// The root moves worth searching, given the hidden states sampled for the search: by
    /// default every legal move. A game may leave out moves that the samples show to be
    /// reckless (Generals: attacking with the Flag a piece that is unlikely to be the Flag).
    fn root_moves(_k: &Knowledge<Self>, _pool: &[Self], legal: &[Self::Move]) -> Vec<Self::Move> {
        legal.to_vec()
    }

    /// What the `expert` bot's evaluation learns once per move from the seat's knowledge
    /// and the sampled states (Stratego: which enemy pieces never moved, and in the search
    /// the centre of its evaluation; nothing in the other games).
    type ExpertContext: Send + Sync;

    /// The `expert` bot's belief: by default [`AiGame::belief`].
    fn expert_belief(k: &Knowledge<Self>) -> Self::Belief {
        Self::belief(k)
    }

    /// The `expert` bot's context for one move, from the knowledge and the sampled states,
    /// as the analysis for players evaluates with it: the evaluation is a winning chance.
    fn expert_context(k: &Knowledge<Self>, pool: &[Self]) -> Self::ExpertContext;

    /// The context the `expert` bot's search evaluates with: by default
    /// [`AiGame::expert_context`]. Stratego centres it (see `centre`): the search then
    /// compares moves by what they change, not by a winning chance that no longer moves once
    /// one side is far ahead.
    fn expert_search_context(k: &Knowledge<Self>, pool: &[Self]) -> Self::ExpertContext {
        Self::expert_context(k, pool)
    }

    /// The root moves the `expert` bot searches: by default [`AiGame::root_moves`].
    fn expert_root_moves(
        k: &Knowledge<Self>,
        pool: &[Self],
        legal: &[Self::Move],
        _ctx: &Self::ExpertContext,
    ) -> Vec<Self::Move> {
        Self::root_moves(k, pool, legal)
    }

    /// The moves the `expert`'s search lets the side to move choose among at a node below
    /// the root, in the sampled state `g` where `me` searches: by default every legal move.
    /// A game may take out, at random, moves the side to move could not know to be good
    /// (Generals: the enemy's challenge on the expert's Flag, whose square it does not know).
    fn expert_tree_moves(_g: &Self, _me: Seat, _moves: &mut Vec<Self::Move>, _rng: &mut GameRng) {}

    /// The `expert` bot's leaf evaluation: by default [`AiGame::search_evaluate`].
    fn expert_evaluate(g: &Self, seat: Seat, _ctx: &Self::ExpertContext) -> f64 {
        Self::search_evaluate(g, seat)
    }

    /// The `expert` bot's move: by default the expert MCTS (`crate::expert`); a game with a
    /// search of its own overrides it (Banqi: expectiminimax alpha-beta,
    /// [`banqi_search`]).
    fn expert_search(
        k: &Knowledge<Self>,
        params: &crate::mcts::MctsParams,
        rng: &mut GameRng,
    ) -> crate::mcts::SearchResult<Self::Move> {
        crate::expert::search(k, params, rng)
    }

    /// The seat's belief about each piece on the board it may not identify, for the
    /// analysis (`crate::analysis`): Generals and Stratego, every enemy piece on the board
    /// (a piece known exactly has its rank with probability 1), counted over `samples` draws
    /// of the belief; Banqi, every face-down piece, exactly from the public unseen pool.
    fn hidden_marginals(
        k: &Knowledge<Self>,
        b: &Self::Belief,
        samples: u32,
        rng: &mut GameRng,
    ) -> Vec<crate::analysis::HiddenPiece>;

    /// Rollout plies before the evaluation, by default.
    const ROLLOUT_DEPTH: u32;

    /// Whether [`AiGame::expert_evaluate`] reads nothing a determinization invents (Banqi:
    /// face-up pieces, the public pool and the quiet count only), so that one sample gives
    /// the value every sample would (the analysis then evaluates one).
    const EXPERT_EVALUATION_IS_PUBLIC: bool = false;

    /// The slope on the logit that turns the `expert`'s mean evaluation into the analysis
    /// for players' win probability (`crate::analysis`): the evaluation is a score the
    /// search compares moves by, and read as a chance it is overconfident (a position it
    /// puts at 95% was won about 80% of the time in bot games), so the analysis shows
    /// `σ(slope · logit(mean))`. Fitted to the results of arena games by
    /// `examples/calibration.rs` (`docs/ai.md`, *How far the win probability can be
    /// trusted*); 1 leaves the evaluation as it is.
    const ANALYSIS_SLOPE: f64 = 1.0;

    /// The search's UCB exploration constant, by default (`c` overrides it).
    const EXPLORATION: f64 = 0.7;

    /// The weight of the `expert` search's root prior ([`crate::mcts::Hooks::ROOT_PRIOR`]):
    /// each root move starts with this share of the iterations as virtual visits at its
    /// one-ply evaluation. By default none (0).
    const EXPERT_ROOT_PRIOR: f64 = 0.0;

    /// How many slots [`AiGame::move_slot`] numbers moves into.
    const MOVE_SLOTS: usize;

    /// A move's slot, below [`AiGame::MOVE_SLOTS`], so that the `expert` search finds a
    /// move among a position's legal moves by a table look-up instead of a scan. Distinct
    /// moves may share a slot (a Stratego move with a rescue shares its step's): the search
    /// then falls back to comparing moves one by one for that position.
    fn move_slot(m: &Self::Move) -> usize;
}

/// Plays `moves` on `g` (known legal: they were played in the real game).
pub(crate) fn replay<G: Game>(g: &mut G, moves: impl IntoIterator<Item = G::Move>) {
    for mv in moves {
        if g.outcome().is_some() {
            break;
        }
        g.play_unchecked(mv);
    }
}

/// The logit of an evaluation in (0, 1): the inverse of [`squash`].
pub(crate) fn logit(v: f64) -> f64 {
    let v = v.clamp(1e-9, 1.0 - 1e-9);
    (v / (1.0 - v)).ln()
}

/// How far from even (in logits: a winning chance of 88%) the `expert`'s search lets the
/// mean evaluation of its root's sampled states stand (see [`centre`]).
pub(crate) const CENTRE_BOUND: f64 = 2.0;

/// The logit the `expert`'s search takes off its evaluation at every leaf (its centre), from
/// the evaluation's logits of the root's sampled states: what their mean lies beyond
/// ±[`CENTRE_BOUND`], else 0. Far ahead (or far behind), every leaf's winning chance is
/// all but 1 (or 0): a Major taken, a Flag left open or a raider let through change it by
/// less than a thousandth, the search finds every move as good and spreads its iterations
/// evenly, and the bot plays aimless moves. Centred, the root stands at 88% (or 12%) and
/// the leaves differ again as they differ near an even game, as Go programs' dynamic komi
/// keeps their searches from going blind when the game is decided.
pub(crate) fn centre(logits: impl ExactSizeIterator<Item = f64>) -> f64 {
    let n = logits.len();
    if n == 0 {
        return 0.0;
    }
    let mean = logits.sum::<f64>() / n as f64;
    mean - mean.clamp(-CENTRE_BOUND, CENTRE_BOUND)
}

/// How far a game's draw by the quiet plies pulls a position's value towards a draw's, for
/// the `expert`'s searches: 0 up to the share `from` of the `limit` (and after any ply that
/// resets the count), then the square of the way from there to the limit, 1 at the limit.
pub(crate) fn quiet_pull(quiet: u32, limit: u32, from: f64) -> f64 {
    let q = f64::from(quiet.min(limit)) / f64::from(limit);
    let q = ((q - from) / (1.0 - from)).max(0.0);
    q * q
}

/// The logistic squashing of an evaluation score.
pub(crate) fn squash(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The terminal value of a finished game for `seat`.
pub(crate) fn terminal<G: Game>(g: &G, seat: Seat) -> Option<f64> {
    g.outcome().map(|o| o.score(seat))
}

/// The squares next to `s` on its board: above, below, right, left.
pub(crate) fn neighbours<const F: u8, const R: u8>(
    s: salpakan_engine::board::Square<F, R>,
) -> impl Iterator<Item = salpakan_engine::board::Square<F, R>> {
    let (f, r) = (s.file() as i8, s.rank() as i8);
    [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)]
        .into_iter()
        .filter_map(move |(df, dr)| {
            salpakan_engine::board::Square::new((f + df) as u8, (r + dr) as u8)
        })
}

/// The squares of `bits` (bit `Square::index`), in the order of their indices, each made
/// by `sq` from its index.
pub(crate) fn bit_squares<S>(mut bits: u128, sq: fn(u8) -> S) -> impl Iterator<Item = S> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            sq(i)
        })
    })
}

/// A rectangular board's squares as bits (bit `rank × files + file`, as the engines'
/// `Square::index`), for the scans that walk pieces over empty squares.
pub(crate) struct Masks {
    files: u32,
    board: u128,
    first_file: u128,
    last_file: u128,
}

impl Masks {
    /// The masks of a board of `files` × `ranks` squares (at most 128).
    pub(crate) const fn new(files: u8, ranks: u8) -> Masks {
        let (files, ranks) = (files as u32, ranks as u32);
        let mut first_file = 0;
        let mut r = 0;
        while r < ranks {
            first_file |= 1 << (r * files);
            r += 1;
        }
        Masks {
            files,
            board: (1 << (files * ranks)) - 1,
            first_file,
            last_file: first_file << (files - 1),
        }
    }

    /// `from` one step wider: its squares, and the neighbours (along a file or a rank) of
    /// those of its squares that are in `pass`.
    pub(crate) const fn step(&self, from: u128, pass: u128) -> u128 {
        let p = from & pass;
        from | (((p << self.files)
            | (p >> self.files)
            | ((p & !self.last_file) << 1)
            | ((p & !self.first_file) >> 1))
            & self.board)
    }
}
