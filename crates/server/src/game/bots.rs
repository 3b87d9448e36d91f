//! The bots' turns: what each bot seat must do now (a setup, a move, an answer to a draw
//! offer, accepting a rematch), thought off the game's task and sent back to it as the
//! seat's action.

use salpakan_engine::Seat;

use super::{Act, Cmd, Game, Phase, SetupChoice, random_u64};

impl Game {
    /// Starts whatever the bots must do now: a setup, a move, an answer to a draw offer or
    /// a rematch offer. A bot already thinking is left to finish.
    pub(super) fn poke_bots(&mut self) {
        if self.broken {
            return;
        }
        let Some(me) = self.me.upgrade() else { return };
        for s in Seat::BOTH {
            let i = s.index();
            let Some(bot) = self.bots[i].clone() else {
                continue;
            };
            if self.bot_busy[i] {
                continue;
            }
            let act: Option<tokio::task::JoinHandle<Option<Act>>> = match &self.phase {
                Phase::Setup if self.setups[i].is_none() && self.kind.has_setups() => {
                    Some(tokio::task::spawn(async move {
                        Some(Act::Setup(SetupChoice::Bot(bot.spec())))
                    }))
                }
                Phase::Playing { m, draw_offer } if *draw_offer == Some(s.other()) => {
                    let m = m.clone();
                    Some(tokio::task::spawn_blocking(move || {
                        Some(if bot.accepts_draw(&m, s) {
                            Act::DrawAccept
                        } else {
                            Act::DrawDecline
                        })
                    }))
                }
                Phase::Playing { m, .. } if m.to_move() == Some(s) => {
                    let m = m.clone();
                    Some(tokio::task::spawn_blocking(move || {
                        match bot.choose_move(&m, s, random_u64()) {
                            Ok(mv) => Some(Act::Move(mv.to_string())),
                            Err(e) => {
                                tracing::warn!(error = %e, "a bot found no move");
                                None
                            }
                        }
                    }))
                }
                Phase::Over {
                    rematch_offer,
                    rematch: None,
                    ..
                } if *rematch_offer == Some(s.other()) => {
                    Some(tokio::task::spawn(async { Some(Act::Rematch) }))
                }
                _ => None,
            };
            if let Some(h) = act {
                self.bot_busy[i] = true;
                let me = me.clone();
                tokio::spawn(async move {
                    if let Ok(Some(act)) = h.await {
                        let _ = me
                            .send(Cmd::Act {
                                seat: s,
                                act,
                                reply: None,
                            })
                            .await;
                    }
                });
            }
        }
    }
}
