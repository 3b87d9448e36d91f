//! A game's deadlines: a clock running out, a seat gone during setup, the human of a bot
//! game gone too long, and a finished game's idle end.

use salpakan_engine::{EndReason, Seat};

use super::{Arb, Game, IDLE_MS, Phase};

impl Game {
    /// The next moment something is due, if any (time source ms).
    pub(super) fn next_deadline(&self) -> Option<u64> {
        let mut d: Option<u64> = None;
        let mut at = |t: u64| d = Some(d.map_or(t, |x| x.min(t)));
        match self.phase {
            Phase::Playing { .. } => {
                if let Some(t) = self.clocks.deadline() {
                    at(t);
                }
                if let Some((_, t)) = self.human_away_from_bot() {
                    at(t + self.env.config.bot_game_away_ms);
                }
            }
            Phase::Setup => {
                for s in Seat::BOTH {
                    if let (None, Some(t)) = (&self.setups[s.index()], self.away_since[s.index()]) {
                        at(t + self.env.config.setup_grace_ms);
                    }
                }
            }
            Phase::Over { .. } => {
                if self.subs.is_empty() {
                    at(self.idle_since + IDLE_MS);
                }
            }
        }
        d
    }

    /// The human seat of a bot game and since when it has been away, while it is.
    fn human_away_from_bot(&self) -> Option<(Seat, u64)> {
        Seat::BOTH.into_iter().find_map(|s| {
            let away = self.away_since[s.index()]?;
            (self.players[s.index()].user.is_some() && self.bots[s.other().index()].is_some())
                .then_some((s, away))
        })
    }

    /// Ends the game on time, for leaving during setup, or when the human of a bot game has
    /// been gone too long, when it is due.
    pub(super) async fn check_time(&mut self) {
        let now = self.env.now();
        let end = match self.phase {
            Phase::Playing { .. } => {
                if let Some(s) = self.clocks.flagged(now) {
                    Some((Some(s.other().index()), EndReason::Time))
                } else if let Some((s, t)) = self.human_away_from_bot() {
                    (now >= t + self.env.config.bot_game_away_ms).then(|| {
                        tracing::info!(game = %self.id, "a bot game ends: its player has been gone");
                        (Some(s.other().index()), EndReason::Abandonment)
                    })
                } else {
                    None
                }
            }
            Phase::Setup => {
                let gone = Seat::BOTH.map(|s| {
                    self.setups[s.index()].is_none()
                        && self.away_since[s.index()]
                            .is_some_and(|t| now >= t + self.env.config.setup_grace_ms)
                });
                match gone {
                    [true, true] => Some((None, EndReason::Abandonment)),
                    [true, false] => Some((Some(1), EndReason::Abandonment)),
                    [false, true] => Some((Some(0), EndReason::Abandonment)),
                    [false, false] => None,
                }
            }
            Phase::Over { .. } => None,
        };
        if let Some((winner, reason)) = end {
            // A failed write marks the game broken; it reloads before its next command.
            let _ = self.commit(vec![Arb::End { winner, reason }]).await;
        }
    }
}
