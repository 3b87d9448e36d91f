//! The one interface every game implements.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use crate::{GameKind, GameOptions, GameRng, Outcome, Seat, Viewer};

/// Why a move was refused. The state is unchanged.
///
/// Messages only ever speak of what the mover knows: their own pieces, occupied squares and
/// the rules; never of a hidden enemy piece.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The text is not a move in this game's notation.
    #[error("{0}")]
    Parse(String),
    /// The game is over.
    #[error("the game is over ({0}); no more moves can be played")]
    GameOver(String),
    /// The move is not legal now.
    #[error("illegal move {mv}: {reason}")]
    Illegal {
        /// The move as written.
        mv: String,
        /// Why, in the mover's terms.
        reason: String,
    },
    /// A move of another game, played on this game's match.
    #[error("{mv} is a {game} move; this match is {expected}")]
    WrongGame {
        /// The move as written.
        mv: String,
        /// The move's game.
        game: GameKind,
        /// The match's game.
        expected: GameKind,
    },
}

impl PlayError {
    /// The error for any move or ending tried after `outcome`.
    #[must_use]
    pub fn game_over(outcome: crate::Outcome) -> PlayError {
        PlayError::GameOver(format!("{} by {}", outcome.result_token(), outcome.reason))
    }
}

/// Why a setup or deal was refused: which square, which piece, what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A square name that is not on the board.
    #[error("{seat}: {text:?} is not a square of this board ({board})")]
    BadSquare {
        /// Whose setup (seat name, or "deal").
        seat: String,
        /// The text given.
        text: String,
        /// The board's squares, e.g. "a1..i8".
        board: String,
    },
    /// A piece code this game does not know.
    #[error("{seat}: {square}: unknown piece {code:?}; expected one of {known}")]
    UnknownPiece {
        /// Whose setup.
        seat: String,
        /// The square.
        square: String,
        /// The code given.
        code: String,
        /// The codes the game knows.
        known: String,
    },
    /// A piece placed outside its owner's setup area.
    #[error("{seat}: {square}: {piece} stands outside the setup area ({area})")]
    OutsideArea {
        /// Whose setup.
        seat: String,
        /// The square.
        square: String,
        /// The piece.
        piece: String,
        /// The area allowed.
        area: String,
    },
    /// The army has the wrong number of some piece.
    #[error("{seat}: {piece}: expected {expected}, found {found}")]
    WrongCount {
        /// Whose setup.
        seat: String,
        /// The piece.
        piece: String,
        /// How many the army has.
        expected: u32,
        /// How many were placed.
        found: u32,
    },
    /// Anything else, said plainly.
    #[error("{0}")]
    Invalid(String),
}

/// One hidden part of a game's initial state, committed to separately: a player's setup or
/// the Banqi deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HiddenPart {
    /// The record tag that carries it, e.g. `WhiteSetup`, `RedSetup`, `Deal`.
    pub name: &'static str,
    /// The seat that knows it from the start (its owner), or `None` when nobody does.
    pub owner: Option<Seat>,
    /// Its canonical text.
    pub text: String,
}

/// A game: rules, authoritative state, and what every viewer may know of it.
///
/// The state is the arbiter's: it holds everything. Information leaves it only through
/// [`Game::observe`] and [`Game::view`], both for a [`Viewer`]; for a player or spectator
/// they depend only on what that viewer may know, so two states that differ only in what a
/// viewer cannot see give byte-identical output for that viewer.
///
/// ```
/// use salpakan_engine::generals::{Generals, GeneralsOptions};
/// use salpakan_engine::{Game, Seat, Viewer, rng_from_seed};
///
/// let options = GeneralsOptions::default();
/// let hidden = Generals::random_hidden(&options, &mut rng_from_seed(3));
/// let mut g = Generals::start(&options, hidden)?;
/// assert_eq!(g.to_move(), Some(Seat::First));
///
/// let mut moves = Vec::new();
/// g.legal_moves(&mut moves);
/// let mv = moves[0];
/// assert_eq!(mv.to_string().parse::<<Generals as Game>::Move>()?, mv); // moves are text too
/// let event = g.play(mv)?;
/// assert_eq!((g.ply(), g.to_move()), (1, Some(Seat::Second)));
/// // Each viewer's view of the ply; its text is the record token.
/// assert_eq!(g.view(&event, Viewer::Arbiter).to_string(), mv.to_string());
///
/// // Observations: White sees its own ranks, never Black's; the arbiter sees everything.
/// let white = g.observe(Viewer::Player(Seat::First));
/// let arbiter = g.observe(Viewer::Arbiter);
/// let ranks_shown = |o: &<Generals as Game>::Observation, seat: &str| {
///     o.board.iter().filter(|(_, s)| s.owner == seat && s.piece.is_some()).count()
/// };
/// assert_eq!(ranks_shown(&white, "black"), 0);
/// assert_eq!(ranks_shown(&white, "white"), ranks_shown(&arbiter, "white"));
/// assert_eq!(ranks_shown(&arbiter, "black"), 21);
///
/// // An illegal move is refused and changes nothing.
/// assert!(g.play(mv).is_err());
/// assert_eq!(g.ply(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Game: Clone + Debug + Send + Sync + Sized + 'static {
    /// Which game this is.
    const KIND: GameKind;

    /// The game's validated options.
    type Options: GameOptions;
    /// A move (an action): parsed from and written as text (`e3-e4`, Banqi flips `c3`).
    type Move: Copy + Eq + Hash + Debug + Display + FromStr<Err = PlayError> + Send + Sync;
    /// The hidden initial state: both setups, or the deal.
    type Hidden: Clone + Debug + Send + Sync;
    /// The full account of one ply, from which every viewer's view is derived.
    type Event: Clone + Debug + Send + Sync;
    /// One viewer's view of one ply. Its `Display` is the record token for that viewer
    /// (`e3-e4`, `e3-e4{>}`, `c3{K}`).
    type View: Clone + Debug + Display + Eq + Serialize;
    /// One viewer's view of the whole current state.
    type Observation: Clone + Debug + Eq + Serialize;

    /// Starts a game from validated options and hidden state.
    ///
    /// # Errors
    /// A [`SetupError`] if the hidden state does not fit the options (e.g. an army of
    /// another size).
    fn start(options: &Self::Options, hidden: Self::Hidden) -> Result<Self, SetupError>;

    /// Draws the hidden initial state at random from `rng` (random setups, a shuffled deal).
    fn random_hidden(options: &Self::Options, rng: &mut GameRng) -> Self::Hidden;

    /// Reads the hidden state from a protocol request's JSON (`setups` for Generals and
    /// Stratego, `deal` for Banqi); what the request leaves out is drawn from `rng`.
    ///
    /// # Errors
    /// A [`SetupError`] naming the square, the piece and what is wrong.
    fn hidden_from_json(
        options: &Self::Options,
        request: &serde_json::Map<String, serde_json::Value>,
        rng: &mut GameRng,
    ) -> Result<Self::Hidden, SetupError>;

    /// The names of the hidden parts for these options, in the order of
    /// [`Game::hidden_parts`] (e.g. `["WhiteSetup", "BlackSetup"]`, `["Deal"]`).
    fn hidden_part_names(options: &Self::Options) -> &'static [&'static str];

    /// The hidden state's parts, in a fixed order, each with its canonical text.
    fn hidden_parts(hidden: &Self::Hidden) -> Vec<HiddenPart>;

    /// Rebuilds the hidden state from the parts' texts, keyed by part name.
    ///
    /// # Errors
    /// A [`SetupError`] if a part is missing or invalid.
    fn hidden_from_parts(
        options: &Self::Options,
        parts: &BTreeMap<String, String>,
    ) -> Result<Self::Hidden, SetupError>;

    /// The options this game was started with.
    fn options(&self) -> &Self::Options;

    /// The seat to move, or `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;

    /// The outcome, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Plies played so far.
    fn ply(&self) -> u32;

    /// Appends every legal move of the side to move to `out` (nothing once the game is over).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Whether `mv` is legal now.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v.contains(&mv)
    }

    /// A legal move drawn uniformly at random (for playouts), or `None` once the game is
    /// over or the side to move has no move. Games may override this with a faster draw
    /// that is still uniform over exactly the legal moves.
    fn random_move(&self, rng: &mut GameRng) -> Option<Self::Move> {
        use rand::Rng;
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        if v.is_empty() {
            None
        } else {
            Some(v[rng.random_range(0..v.len())])
        }
    }

    /// The colour each seat plays once it is known (Banqi: after the first flip), e.g.
    /// `["red", "black"]` by seat index; `None` for games whose seats are their colours.
    fn seat_colours(&self) -> Option<[&'static str; 2]> {
        None
    }

    /// Plays `mv` for the side to move and returns what happened.
    ///
    /// # Errors
    /// [`PlayError`] if the game is over or the move is illegal; the state is then unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<Self::Event, PlayError>;

    /// Plays a move known to be legal, as fast as possible (random playouts, search).
    /// Playing an illegal move this way is a logic error: the state becomes unspecified.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Ends the game from outside the board: resignation, agreed draw, time, abandonment.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the game has already ended.
    fn conclude(&mut self, outcome: Outcome) -> Result<(), PlayError>;

    /// What `viewer` observes of `event`.
    fn view(&self, event: &Self::Event, viewer: Viewer) -> Self::View;

    /// Everything `viewer` may know of the current state.
    fn observe(&self, viewer: Viewer) -> Self::Observation;

    /// Appends `obs` to `out` as JSON text, exactly as `serde_json` writes it. A game may
    /// write it by hand: a server writes an observation for every recipient of every ply.
    fn write_observation_json(obs: &Self::Observation, out: &mut String) {
        out.push_str(&serde_json::to_string(obs).expect("observations serialize"));
    }

    /// Parses one record token written for the arbiter (the `Display` of an arbiter
    /// [`Game::View`]) back into its move. The default takes the text before any `{`.
    ///
    /// # Errors
    /// [`PlayError::Parse`] if the move part is not a move.
    fn parse_token(token: &str) -> Result<Self::Move, PlayError> {
        token.split('{').next().unwrap_or("").parse()
    }
}

/// Parses and writes square names `a1`.. for a board of `files` × `ranks`.
pub mod square {
    /// Square names by rank, then file, for boards up to 10 × 10.
    #[rustfmt::skip]
    const NAMES: [&str; 100] = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1",
        "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "i2", "j2",
        "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3", "j3",
        "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "i4", "j4",
        "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5", "j5",
        "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "i6", "j6",
        "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "j7",
        "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "i8", "j8",
        "a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9", "i9", "j9",
        "a10", "b10", "c10", "d10", "e10", "f10", "g10", "h10", "i10", "j10",
    ];

    /// The name of the square at zero-based `file`, `rank` (`a1` is 0, 0).
    #[must_use]
    pub fn name(file: u8, rank: u8) -> String {
        name_str(file, rank).to_string()
    }

    /// [`name`] without allocating (every board of the three games is at most 10 × 10).
    ///
    /// # Panics
    /// If `file` or `rank` is 10 or more.
    #[must_use]
    pub fn name_str(file: u8, rank: u8) -> &'static str {
        assert!(file < 10 && rank < 10, "boards are at most 10 x 10");
        NAMES[usize::from(rank) * 10 + usize::from(file)]
    }

    /// The zero-based file and rank of a square name, if it lies on a `files` × `ranks` board.
    #[must_use]
    pub fn parse(text: &str, files: u8, ranks: u8) -> Option<(u8, u8)> {
        let b = text.as_bytes();
        if b.len() < 2 || b.len() > 3 {
            return None;
        }
        let f = b[0].to_ascii_lowercase().checked_sub(b'a')?;
        if !b[1..].iter().all(u8::is_ascii_digit) || b[1] == b'0' {
            return None;
        }
        let r: u8 = text[1..].parse().ok()?;
        (f < files && r >= 1 && r <= ranks).then(|| (f, r - 1))
    }

    /// The board's squares as a range, e.g. `a1..i8`.
    #[must_use]
    pub fn range(files: u8, ranks: u8) -> String {
        format!("a1..{}", name(files - 1, ranks - 1))
    }
}

/// What stands on a board's occupied squares, in square order: a small sorted map, built in
/// one pass (observations are built for every recipient of every ply) and written as a
/// JSON object keyed by square name, like a `BTreeMap` of the same entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for SquareMap<K, V> {
    fn default() -> Self {
        SquareMap(Vec::new())
    }
}

impl<K: Ord, V> SquareMap<K, V> {
    /// What stands on `k`, if anything.
    #[must_use]
    pub fn get(&self, k: &K) -> Option<&V> {
        self.0
            .binary_search_by(|(a, _)| a.cmp(k))
            .ok()
            .map(|i| &self.0[i].1)
    }
}

impl<K, V> SquareMap<K, V> {
    /// The entries in square order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&K, &V)> + DoubleEndedIterator {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// How many squares are occupied.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the board is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SquareMap<K, V> {
    /// Entries in any order; of two for one square, the later one stays (as in a map).
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        // Boards are small: one allocation of the most squares there can be.
        let iter = iter.into_iter();
        let (low, high) = iter.size_hint();
        let mut v: Vec<(K, V)> = Vec::with_capacity(high.unwrap_or(low).min(128));
        v.extend(iter);
        if !v.windows(2).all(|w| w[0].0 < w[1].0) {
            // Stable: equal squares keep their order, and the last of each is kept.
            v.sort_by(|a, b| a.0.cmp(&b.0));
            let mut out: Vec<(K, V)> = Vec::with_capacity(v.len());
            for e in v {
                match out.last_mut() {
                    Some(last) if last.0 == e.0 => *last = e,
                    _ => out.push(e),
                }
            }
            v = out;
        }
        SquareMap(v)
    }
}

impl<K: Ord, V> std::ops::Index<&K> for SquareMap<K, V> {
    type Output = V;
    /// # Panics
    /// If nothing stands on `k`.
    fn index(&self, k: &K) -> &V {
        self.get(k).expect("an occupied square")
    }
}

impl<'a, K, V> IntoIterator for &'a SquareMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl<K: Serialize, V: Serialize> Serialize for SquareMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}
