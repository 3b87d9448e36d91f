//! # salpakan-ai
//!
//! Opponents for Game of the Generals, Stratego and Banqi that play from their own seat's
//! view, an external bot protocol, and the arena that pits bots against each other.
//!
//! Fair by construction: a bot receives a [`Knowledge`] — its seat, its setup, what it
//! observed and its legal moves — built by trusted code from a match. Bots never get the
//! game state `G` or the [`Match`]; when a bot searches, it samples
//! complete hidden states consistent with its [belief] and replays the public move
//! history on them.
//!
//! ```
//! use salpakan_ai::{BotSpec, choose_move, choose_setup};
//! use salpakan_engine::{GameKind, GameSpec, Seat};
//!
//! let game = GameSpec::default_for(GameKind::Generals);
//! let spec: BotSpec = "random".parse().unwrap();
//! let white = choose_setup(&spec, &game, Seat::First, 3).unwrap();
//! let m = game.new_match([Some(&white), None], 1).unwrap();
//! let mv = choose_move(&spec, &m, Seat::First, 7).unwrap();
//! assert!(m.legal_moves().contains(&mv));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod analysis;
pub mod arena;
pub mod belief;
pub mod bots;
pub mod expert;
pub mod games;
mod knowledge;
pub mod legacy;
pub mod mcts;
pub mod protocol;
mod spec;

pub use games::AiGame;
pub use knowledge::Knowledge;
pub use spec::{BotKind, BotSpec};

use salpakan_engine::{AnyGame, AnyMatch, AnyMove, GameSpec, Match, Seat, SeatSetup, with_match};

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
    /// Bad options, or a game without setups.
    #[error("{0}")]
    Setup(String),
}

/// The bot's move for `seat` in `game` (it sees only that seat's knowledge). Blocks up to
/// the bot's time budget.
///
/// # Errors
/// An external bot spec, or a seat that is not to move.
pub fn choose_move(
    spec: &BotSpec,
    game: &AnyMatch,
    seat: Seat,
    seed: u64,
) -> Result<AnyMove, AiError> {
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
    fn go<G: AiGame + AnyGame>(spec: &BotSpec, m: &Match<G>, seat: Seat, seed: u64) -> AnyMove {
        G::any_move(bots::choose(spec, &Knowledge::of(m, seat), seed))
    }
    Ok(with_match!(game, m => go(spec, m, seat, seed)))
}

/// A bot-made setup for `seat` (Generals, Stratego), checked against `game`'s options.
/// Built-in bots use a setup policy with variety (not uniformly random); external specs get
/// the same policy. In Stratego the `expert` sets up as human players do
/// ([`games::stratego_setup`]: the Flag walled in by Bombs, a decoy wall); the other bots
/// (the fixed references) and external specs keep the engine's sensible setup. In the Game
/// of the Generals the `expert` always puts a Spy next to its Flag, its three highest
/// Generals towards the front and its second Spy off the front rank
/// ([`games::generals::expert_setup`]).
///
/// # Errors
/// A game without setups (Banqi is dealt).
pub fn choose_setup(
    spec: &BotSpec,
    game: &GameSpec,
    seat: Seat,
    seed: u64,
) -> Result<SeatSetup, AiError> {
    let seed = bots::mix_seed(spec, seed);
    match game {
        GameSpec::Generals(o) => {
            games::generals::seat_setup(game, o, seat, seed, spec.kind() == &BotKind::Expert)
        }
        GameSpec::Stratego(o) => {
            games::stratego::seat_setup(game, o, seat, seed, spec.kind() == &BotKind::Expert)
        }
        GameSpec::Banqi(_) => Err(AiError::Setup(
            "banqi has no setups: the pieces are dealt".into(),
        )),
    }
}

/// Whether the bot accepts a draw offered by its opponent now: built-in bots accept when
/// their evaluation of the position (from their own knowledge) says they are not winning.
/// External bots decline.
#[must_use]
pub fn accepts_draw(spec: &BotSpec, game: &AnyMatch, seat: Seat) -> bool {
    if spec.is_external() || game.outcome().is_some() {
        return false;
    }
    with_match!(game, m => bots::accepts_draw(spec, &Knowledge::of(m, seat)))
}
