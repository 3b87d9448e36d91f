//! The built-in bots (`salpakan-ai`), as the server uses them: parse a bot's name, ask it
//! for a setup, a move or an answer to a draw offer. Bots see only their own seat's
//! knowledge. External programs (`cmd:...`) are never run by the server.

use salpakan_ai::BotSpec;
use salpakan_engine::{AnyMatch, AnyMove, GameSpec, Seat, wire};
use serde_json::Value;

use crate::error::{Error, Result};

/// The longest a server bot may think per move, in milliseconds.
const MAX_MS: u64 = 2000;
/// The most hidden states a server bot may sample per move.
const MAX_SAMPLES: u64 = 128;

/// A built-in bot.
#[derive(Clone, Debug)]
pub struct Bot {
    spec: BotSpec,
}

impl Bot {
    /// The bots offered in the lobby, weakest first: `random`, `greedy`, the reference `mcts`
    /// and the `expert` bot at several strengths (`BotSpec::builtin`).
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
        if spec.param("samples").is_some_and(|n| n > MAX_SAMPLES) {
            return Err(Error::BadRequest(format!(
                "a server bot samples at most {MAX_SAMPLES} hidden states a move: give samples=1 to {MAX_SAMPLES}"
            )));
        }
        Ok(Bot { spec })
    }

    /// The bot of a stored game: `name` when it still parses, else (a bot stored before its
    /// parameters were bounded) the same kind of bot with its default parameters, else
    /// `random`. Never fails: a stored game must not stop the server from starting.
    #[must_use]
    pub fn restore(game: &str, name: &str) -> Bot {
        match Bot::parse(name) {
            Ok(b) => b,
            Err(e) => {
                let kind = name.split(':').next().unwrap_or_default();
                let b = Bot::parse(kind)
                    .unwrap_or_else(|_| Bot::parse("random").expect("random parses"));
                tracing::warn!(game, bot = %name.chars().take(60).collect::<String>(), error = %e,
                    fallback = %b.spec(), "a stored game's bot cannot be built; it plays with its default parameters");
                b
            }
        }
    }

    /// The bot's name.
    #[must_use]
    pub fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// A setup for `seat`, as the JSON the server stores and sends.
    ///
    /// # Errors
    /// A game without setups.
    pub fn choose_setup(&self, spec: &GameSpec, seat: Seat, seed: u64) -> Result<Value> {
        salpakan_ai::choose_setup(&self.spec, spec, seat, seed)
            .map(|s| wire::setup_json(&s))
            .map_err(|e| Error::BadRequest(e.to_string()))
    }

    /// A move for `seat` (blocking: run it off the async threads).
    ///
    /// # Errors
    /// Not the seat's turn.
    pub fn choose_move(&self, game: &AnyMatch, seat: Seat, seed: u64) -> Result<AnyMove> {
        salpakan_ai::choose_move(&self.spec, game, seat, seed)
            .map_err(|e| Error::Rejected(e.to_string()))
    }

    /// Whether the bot accepts a draw offered now (blocking).
    #[must_use]
    pub fn accepts_draw(&self, game: &AnyMatch, seat: Seat) -> bool {
        salpakan_ai::accepts_draw(&self.spec, game, seat)
    }
}
