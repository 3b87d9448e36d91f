//! # salpakan-engine
//!
//! The rules of Game of the Generals, Stratego and Banqi behind one interface, the
//! arbiter's authoritative state, each viewer's observation, and game records.
//!
//! Pure and fast: no I/O. Every game implements [`Game`]; a [`Match`] wraps a game with its
//! commitments and history and writes and replays [records](record::Record); [`AnyMatch`]
//! drives any game through text and JSON, as the arbiter protocol and the server do.
//!
//! ```
//! use salpakan_engine::{Game, Match, generals::{Generals, GeneralsOptions}};
//!
//! let mut m = Match::<Generals>::random(&GeneralsOptions::default(), 7).unwrap();
//! let mut moves = Vec::new();
//! m.game().legal_moves(&mut moves);
//! m.play(moves[0]).unwrap();
//! assert_eq!(m.game().ply(), 1);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bench;
pub mod board;
mod commit;
mod game;
mod matches;
mod options;
mod outcome;
pub mod perft;
pub mod record;
mod seat;
mod spec;

pub mod banqi;
pub mod cdc;
pub mod generals;
pub mod gravon;
pub mod stratego;

pub use commit::{GameRng, MatchSeed, Salt, commitment, rng_from_seed, to_hex};
pub use game::{Game, HiddenPart, PlayError, SetupError, SquareMap, square};
pub use matches::{AnyMatch, Copy, Match, PlyViews, reason_ends_off_board};
pub use options::{
    GameOptions, OptionError, limit_text, parse_bool, parse_choice, parse_limit, unknown_option,
};
pub use outcome::{EndReason, Outcome, OutcomeView};
pub use record::{Record, RecordError};
pub use seat::{Seat, Viewer};
pub use spec::GameSpec;

use std::fmt;
use std::str::FromStr;

/// The games salpakan plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Game of the Generals (Salpakan).
    Generals,
    /// Stratego.
    Stratego,
    /// Banqi (Dark Chess, Half Chess).
    Banqi,
}

impl GameKind {
    /// Every game.
    pub const ALL: [GameKind; 3] = [GameKind::Generals, GameKind::Stratego, GameKind::Banqi];

    /// The name used in protocols and records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Generals => "generals",
            GameKind::Stratego => "stratego",
            GameKind::Banqi => "banqi",
        }
    }

    /// The game's own name for a seat (`white`/`black`, `red`/`blue`, `first`/`second`).
    #[must_use]
    pub const fn seat_name(self, seat: Seat) -> &'static str {
        match (self, seat) {
            (GameKind::Generals, Seat::First) => "white",
            (GameKind::Generals, Seat::Second) => "black",
            (GameKind::Stratego, Seat::First) => "red",
            (GameKind::Stratego, Seat::Second) => "blue",
            (GameKind::Banqi, Seat::First) => "first",
            (GameKind::Banqi, Seat::Second) => "second",
        }
    }

    /// The name of a viewer in this game: a seat name, `spectator` or `arbiter`.
    #[must_use]
    pub const fn viewer_name(self, viewer: Viewer) -> &'static str {
        match viewer {
            Viewer::Player(s) => self.seat_name(s),
            Viewer::Spectator => "spectator",
            Viewer::Arbiter => "arbiter",
        }
    }

    /// The seat with this name in this game.
    #[must_use]
    pub fn parse_seat(self, name: &str) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|&s| self.seat_name(s).eq_ignore_ascii_case(name))
    }

    /// Starts a match from a protocol request: options as JSON, the hidden state from the
    /// request (`setups` or `deal`; what is missing is drawn from `seed`), salts from `seed`.
    ///
    /// # Errors
    /// Bad options or a bad setup, with a message naming what is wrong.
    pub fn new_match(
        self,
        options: &serde_json::Value,
        request: &serde_json::Map<String, serde_json::Value>,
        seed: impl Into<MatchSeed>,
    ) -> Result<Box<dyn AnyMatch>, StartError> {
        GameSpec::from_json(self, options)?.new_match(request, seed)
    }

    /// Whether players submit secret setups (Generals, Stratego); Banqi is dealt instead.
    #[must_use]
    pub const fn has_setups(self) -> bool {
        !matches!(self, GameKind::Banqi)
    }

    /// Checks one seat's setup, given as a JSON object of square → piece code, against the
    /// options, before the other seat's setup is known.
    ///
    /// # Errors
    /// Bad options, a game without setups, or the setup's first problem (seat, square, piece).
    pub fn check_setup(
        self,
        options: &serde_json::Value,
        seat: Seat,
        setup: &serde_json::Value,
    ) -> Result<(), StartError> {
        if !self.has_setups() {
            return Err(no_setups(self));
        }
        GameSpec::from_json(self, options)?.check_setup(seat, setup)
    }

    /// A random setup for `seat` drawn from `seed`, as a JSON object of square → piece code.
    ///
    /// # Errors
    /// Bad options, or a game without setups.
    pub fn random_setup(
        self,
        options: &serde_json::Value,
        seat: Seat,
        seed: u64,
    ) -> Result<serde_json::Value, StartError> {
        if !self.has_setups() {
            return Err(no_setups(self));
        }
        GameSpec::from_json(self, options)?.random_setup(seat, seed)
    }

    /// Replays a full record of this game.
    ///
    /// # Errors
    /// The first problem in the record.
    pub fn replay(self, record: &Record) -> Result<Box<dyn AnyMatch>, RecordError> {
        match self {
            GameKind::Generals => Ok(Box::new(Match::<generals::Generals>::replay(record)?)),
            GameKind::Stratego => Ok(Box::new(Match::<stratego::Stratego>::replay(record)?)),
            GameKind::Banqi => Ok(Box::new(Match::<banqi::Banqi>::replay(record)?)),
        }
    }
}

/// The error for a setup asked of a game whose pieces are dealt.
fn no_setups(kind: GameKind) -> StartError {
    StartError::Setup(SetupError::Invalid(format!(
        "{} has no setups: the pieces are dealt",
        kind.name()
    )))
}

/// A hidden part's canonical text (`a1:FLG b1:PVT ...`) as a JSON object of square → code.
#[must_use]
pub fn placements_json(text: &str) -> serde_json::Value {
    serde_json::Value::Object(
        text.split_whitespace()
            .filter_map(|w| w.split_once(':'))
            .map(|(sq, code)| (sq.to_string(), serde_json::Value::String(code.to_string())))
            .collect(),
    )
}

/// Replays any full record, whatever its game.
///
/// # Errors
/// A missing or unknown `Game` tag, or the first problem in the record.
pub fn replay_record(record: &Record) -> Result<Box<dyn AnyMatch>, RecordError> {
    let g = record.require("Game")?;
    let kind: GameKind = g.parse().map_err(|m| RecordError::BadTag {
        tag: "Game".into(),
        message: m,
    })?;
    kind.replay(record)
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown game {s:?}; expected generals, stratego or banqi"))
    }
}

/// Why a match could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// Bad options.
    #[error("{0}")]
    Options(#[from] OptionError),
    /// A bad setup or deal.
    #[error("{0}")]
    Setup(#[from] SetupError),
}
