//! The built-in bots (`salpakan-ai`), as the server uses them: parse a bot's name, ask it
//! for a setup, a move or an answer to a draw offer. Bots see only their own seat's
//! knowledge. External programs (`cmd:...`) are never run by the server.

use salpakan_ai::BotSpec;
use salpakan_engine::{AnyMatch, GameKind, Seat};
use serde_json::Value;

use crate::error::{Error, Result};

/// The longest a server bot may think per move, in milliseconds.
const MAX_MS: u64 = 2000;

/// A built-in bot.
#[derive(Clone, Debug)]
pub struct Bot {
    spec: BotSpec,
}

impl Bot {
    /// The bots offered in the lobby: `random`, `greedy`, and `mcts` at several strengths.
    #[must_use]
    pub fn names() -> Vec<String> {
        BotSpec::builtin().iter().map(ToString::to_string).collect()
    }

    /// Parses a bot name such as `greedy` or `mcts:ms=100`. External programs are refused.
    ///
    /// # Errors
    /// An unknown bot, an external one, or one that would think too long.
    pub fn parse(name: &str) -> Result<Bot> {
        let short: String = name.chars().take(60).collect();
        if name.len() > 60 || name.starts_with("cmd") {
            return Err(Error::BadRequest(format!(
                "unknown bot {short:?}; choose one of {}",
                Self::names().join(", ")
            )));
        }
        let spec: BotSpec = name
            .parse()
            .map_err(|e: salpakan_ai::AiError| Error::BadRequest(e.to_string()))?;
        if spec.is_external() {
            return Err(Error::BadRequest(
                "the server runs only built-in bots".into(),
            ));
        }
        if spec.param("ms").is_some_and(|ms| ms > MAX_MS) || spec.param("iters").is_some() {
            return Err(Error::BadRequest(format!(
                "a server bot thinks at most {MAX_MS} ms a move: give mcts:ms=<at most {MAX_MS}>"
            )));
        }
        Ok(Bot { spec })
    }

    /// The bot's name.
    #[must_use]
    pub fn spec(&self) -> String {
        self.spec.to_string()
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
        salpakan_ai::choose_setup(&self.spec, kind, options, seat, seed)
            .map_err(|e| Error::BadRequest(e.to_string()))
    }

    /// A move for `seat` (blocking: run it off the async threads).
    ///
    /// # Errors
    /// Not the seat's turn.
    pub fn choose_move(&self, game: &dyn AnyMatch, seat: Seat, seed: u64) -> Result<String> {
        salpakan_ai::choose_move(&self.spec, game, seat, seed)
            .map_err(|e| Error::Rejected(e.to_string()))
    }

    /// Whether the bot accepts a draw offered now (blocking).
    #[must_use]
    pub fn accepts_draw(&self, game: &dyn AnyMatch, seat: Seat) -> bool {
        salpakan_ai::accepts_draw(&self.spec, game, seat)
    }
}
