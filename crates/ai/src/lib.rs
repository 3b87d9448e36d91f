//! # salpakan-ai
//!
//! Opponents for Game of the Generals, Stratego and Banqi that play from their own seat's
//! view, an external bot protocol, and the arena that pits bots against each other.
//!
//! Fair by construction: a bot receives a [`Knowledge`] — its seat, its setup, what it
//! observed and its legal moves — built by trusted code from a match. Bots never get the
//! game state `G` or the [`Match`](salpakan_engine::Match); when a bot searches, it samples
//! complete hidden states consistent with its [belief](belief) and replays the public move
//! history on them.
//!
//! ```
//! use salpakan_ai::{BotSpec, choose_move};
//! use salpakan_engine::{AnyMatch, GameKind, Seat};
//!
//! let m = GameKind::Generals.new_match(&serde_json::Value::Null, &Default::default(), 1).unwrap();
//! let spec: BotSpec = "random".parse().unwrap();
//! let mv = choose_move(&spec, m.as_ref(), Seat::First, 7).unwrap();
//! assert!(m.legal_moves().contains(&mv));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod arena;
pub mod belief;
pub mod bots;
pub mod games;
mod knowledge;
pub mod legacy;
pub mod mcts;
pub mod protocol;
mod spec;

pub use games::AiGame;
pub use knowledge::Knowledge;
pub use spec::{BotKind, BotSpec};

use salpakan_engine::banqi::Banqi;
use salpakan_engine::generals::Generals;
use salpakan_engine::stratego::Stratego;
use salpakan_engine::{AnyMatch, GameKind, Match, Seat};

/// What went wrong choosing a move or a setup, said so that the user knows what to do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// A bot name that is not known.
    #[error("unknown bot {name:?}; choose one of {known}")]
    UnknownBot {
        /// The name given.
        name: String,
        /// The valid names.
        known: String,
    },
    /// A parameter the bot does not have.
    #[error("{bot} has no parameter {key:?}; its parameters are: {expected}")]
    BadParameter {
        /// The bot.
        bot: String,
        /// The parameter given.
        key: String,
        /// The parameters it has.
        expected: String,
    },
    /// A malformed bot spec.
    #[error("bad bot {spec:?}: {why}")]
    BadSpec {
        /// The text given.
        spec: String,
        /// What is wrong.
        why: String,
    },
    /// It is not this seat's turn, or the game is over.
    #[error("it is not {seat}'s turn to move{}", .why)]
    NotYourTurn {
        /// The seat's name.
        seat: String,
        /// More detail, e.g. " (the game is over)".
        why: String,
    },
    /// External bots play only through the arena (they keep a process per game).
    #[error(
        "{0} is an external program: it plays through the arena or the bot protocol, not \
         through choose_move; use a built-in bot (random, greedy, mcts)"
    )]
    External(String),
    /// The match is of a type this crate does not know.
    #[error("this match's type is not a salpakan game this crate knows")]
    UnknownMatch,
    /// Bad options, or a game without setups.
    #[error("{0}")]
    Setup(String),
}

/// The bot's move for `seat` in `game` (it sees only that seat's knowledge), written in the
/// game's notation. Blocks up to the bot's time budget.
///
/// # Errors
/// An external bot spec, a match of an unknown type, or a seat that is not to move.
pub fn choose_move(
    spec: &BotSpec,
    game: &dyn AnyMatch,
    seat: Seat,
    seed: u64,
) -> Result<String, AiError> {
    if spec.is_external() {
        return Err(AiError::External(spec.to_string()));
    }
    if game.to_move() != Some(seat) {
        return Err(AiError::NotYourTurn {
            seat: game.kind().seat_name(seat).to_string(),
            why: if game.outcome().is_some() {
                " (the game is over)".into()
            } else {
                String::new()
            },
        });
    }
    fn go<G: AiGame>(
        spec: &BotSpec,
        game: &dyn AnyMatch,
        seat: Seat,
        seed: u64,
    ) -> Result<String, AiError> {
        let m = game
            .as_any()
            .downcast_ref::<Match<G>>()
            .ok_or(AiError::UnknownMatch)?;
        let k = Knowledge::of(m, seat);
        Ok(bots::choose(spec, &k, seed).to_string())
    }
    match game.kind() {
        GameKind::Generals => go::<Generals>(spec, game, seat, seed),
        GameKind::Stratego => go::<Stratego>(spec, game, seat, seed),
        GameKind::Banqi => go::<Banqi>(spec, game, seat, seed),
    }
}

/// A bot-made setup for `seat` (Generals, Stratego) as a JSON object square → piece code.
/// Built-in bots use a setup policy with variety (not uniformly random); external specs get
/// the same policy.
///
/// # Errors
/// Bad options, or a game without setups (Banqi is dealt).
pub fn choose_setup(
    spec: &BotSpec,
    kind: GameKind,
    options: &serde_json::Value,
    seat: Seat,
    seed: u64,
) -> Result<serde_json::Value, AiError> {
    let seed = bots::mix_seed(spec, seed);
    match kind {
        GameKind::Generals => games::generals::setup_json(options, seat, seed),
        GameKind::Stratego => games::stratego::setup_json(options, seat, seed),
        GameKind::Banqi => Err(AiError::Setup(
            "banqi has no setups: the pieces are dealt".into(),
        )),
    }
}

/// Whether the bot accepts a draw offered by its opponent now: built-in bots accept when
/// their evaluation of the position (from their own knowledge) says they are not winning.
/// External bots decline.
#[must_use]
pub fn accepts_draw(spec: &BotSpec, game: &dyn AnyMatch, seat: Seat) -> bool {
    if spec.is_external() || game.outcome().is_some() {
        return false;
    }
    fn go<G: AiGame>(spec: &BotSpec, game: &dyn AnyMatch, seat: Seat) -> bool {
        game.as_any()
            .downcast_ref::<Match<G>>()
            .is_some_and(|m| bots::accepts_draw(spec, &Knowledge::of(m, seat)))
    }
    match game.kind() {
        GameKind::Generals => go::<Generals>(spec, game, seat),
        GameKind::Stratego => go::<Stratego>(spec, game, seat),
        GameKind::Banqi => go::<Banqi>(spec, game, seat),
    }
}
