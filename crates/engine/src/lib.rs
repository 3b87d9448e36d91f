//! # salpakan-engine
//!
//! The rules of Game of the Generals, Stratego and Banqi behind one interface, the
//! arbiter's authoritative state, each viewer's observation, and game records.
//!
//! Pure and fast: no I/O. Every game implements [`Game`]; a [`Match`] wraps a game with its
//! commitments and history and writes and replays [records](record::Record); [`AnyMatch`]
//! holds a match of any of the three games with typed moves ([`AnyMove`]), and [`wire`]
//! reads and writes the JSON of the protocols (options, setups, views, observations).
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

mod any;
pub mod bench;
mod commit;
mod game;
mod kind;
mod matches;
mod options;
mod outcome;
pub mod perft;
pub mod record;
mod seat;
mod spec;
pub mod wire;

pub mod banqi;
pub mod cdc;
pub mod generals;
pub mod gravon;
pub mod stratego;

pub use any::{AnyGame, AnyMatch, AnyMove, replay_record};
pub use commit::{GameRng, MatchSeed, Salt, commitment, rng_from_seed, to_hex};
pub use game::{Game, HiddenPart, PlayError, SetupError, SquareMap, square};
pub use kind::GameKind;
pub use matches::{Copy, Match, reason_ends_off_board};
pub use options::{
    GameOptions, OptionError, limit_text, parse_bool, parse_choice, parse_limit, unknown_option,
};
pub use outcome::{EndReason, Outcome, OutcomeView};
pub use record::{Record, RecordError};
pub use seat::{Seat, Viewer};
pub use spec::{GameSpec, SeatSetup};
pub use wire::PlyViews;

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
