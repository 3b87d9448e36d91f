//! The built-in bots, as the server uses them: parse a bot's name, ask it for a setup, a
//! move or an answer to a draw offer. Bots see only their own seat's knowledge.

use salpakan_engine::{AnyMatch, GameKind, Seat};
use serde_json::Value;

use crate::error::{Error, Result};

/// A built-in bot.
#[derive(Clone, Debug)]
pub struct Bot {
    spec: String,
}

impl Bot {
    /// The bots offered in the lobby.
    #[must_use]
    pub fn names() -> Vec<String> {
        vec!["random".into()]
    }

    /// Parses a bot name such as `greedy` or `mcts:ms=100`. External programs are refused.
    ///
    /// # Errors
    /// An unknown bot, or an external one.
    pub fn parse(spec: &str) -> Result<Bot> {
        if spec == "random" {
            Ok(Bot { spec: spec.into() })
        } else {
            Err(Error::BadRequest(format!(
                "unknown bot {:?}; choose one of {}",
                spec.chars().take(40).collect::<String>(),
                Self::names().join(", ")
            )))
        }
    }

    /// The bot's name as given.
    #[must_use]
    pub fn spec(&self) -> String {
        self.spec.clone()
    }

    /// A setup for `seat`.
    ///
    /// # Errors
    /// Bad options or a game without setups.
    pub fn choose_setup(
        &self,
        kind: GameKind,
        options: &Value,
        seat: Seat,
        seed: u64,
    ) -> Result<Value> {
        kind.random_setup(options, seat, seed)
            .map_err(|e| Error::BadRequest(e.to_string()))
    }

    /// A move for `seat` (blocking: run it off the async threads).
    ///
    /// # Errors
    /// Not the seat's turn, or no move.
    pub fn choose_move(&self, game: &dyn AnyMatch, seat: Seat, seed: u64) -> Result<String> {
        if game.to_move() != Some(seat) {
            return Err(Error::Rejected("it is not the bot's turn".into()));
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Err(Error::Rejected("the bot has no legal move".into()));
        }
        let i = usize::try_from(seed % moves.len() as u64).unwrap_or(0);
        Ok(moves[i].clone())
    }

    /// Whether the bot accepts a draw now.
    #[must_use]
    pub fn accepts_draw(&self, _game: &dyn AnyMatch, _seat: Seat) -> bool {
        false
    }
}
