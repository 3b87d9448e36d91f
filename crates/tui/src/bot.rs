//! The opponent: a built-in bot of `salpakan-ai` named by a spec (`random`, `greedy`,
//! `mcts`, `mcts:ms=500`), asked for moves, setups and draw answers. It decides from its own
//! seat's knowledge only (the ai crate builds that from the match).

use salpakan_ai::{BotSpec, accepts_draw, choose_move, choose_setup};
use salpakan_engine::{AnyMatch, AnyMove, GameSpec, Seat, SeatSetup};

use crate::TuiError;

/// A bot, by its spec.
#[derive(Clone, Debug)]
pub struct Bot {
    spec: BotSpec,
    text: String,
}

impl Bot {
    /// The bot named `spec` (`random`, `greedy`, `mcts`, `mcts:ms=500`, ...).
    ///
    /// # Errors
    /// An unknown bot or parameter, or an external program (those play through the arena).
    pub fn new(spec: &str) -> Result<Bot, TuiError> {
        let parsed: BotSpec = spec
            .parse()
            .map_err(|e: salpakan_ai::AiError| TuiError::Bot(format!("--vs {spec}: {e}")))?;
        if parsed.is_external() {
            return Err(TuiError::Bot(format!(
                "--vs {spec}: external programs play through the arena; in the terminal choose \
                 a built-in bot ({})",
                salpakan_ai::BotKind::NAMES.join(", ")
            )));
        }
        Ok(Bot {
            spec: parsed,
            text: spec.to_string(),
        })
    }

    /// The spec as given.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.text
    }

    /// The bot's move for `seat` (blocks while it thinks).
    ///
    /// # Errors
    /// If it is not the bot's turn.
    pub fn choose_move(&self, m: &AnyMatch, seat: Seat, seed: u64) -> Result<AnyMove, String> {
        choose_move(&self.spec, m, seat, seed).map_err(|e| e.to_string())
    }

    /// A bot-made setup for `seat`.
    ///
    /// # Errors
    /// A game without setups.
    pub fn choose_setup(
        &self,
        game: &GameSpec,
        seat: Seat,
        seed: u64,
    ) -> Result<SeatSetup, String> {
        choose_setup(&self.spec, game, seat, seed).map_err(|e| e.to_string())
    }

    /// Whether the bot, playing `seat`, accepts a draw offered now.
    #[must_use]
    pub fn accepts_draw(&self, m: &AnyMatch, seat: Seat) -> bool {
        accepts_draw(&self.spec, m, seat)
    }
}
