//! Deciding: whether a seat's action is allowed now (the phase, whose turn, the open
//! offers, the limits), and the accounts ([`Arb`]s) it makes. Nothing changes here; a
//! refused action is an error and changes nothing.

use salpakan_engine::{EndReason, Seat, wire};

use super::{Act, Arb, Game, Phase, SetupChoice, random_u64};
use crate::bots::Bot;
use crate::error::{Error, Result};

/// The refusal of a game action once the game is over.
fn over() -> Error {
    Error::Rejected("the game is over; only chat and a rematch offer are possible now".into())
}

impl Game {
    /// A seat acts: decides, commits, and answers with the version of the last event made.
    pub(super) async fn act(&mut self, seat: Seat, act: Act) -> Result<u64> {
        let arbs = self.decide(seat, act).await?;
        let rematch = arbs.iter().find_map(|a| match a {
            Arb::Rematch { game } => Some(game.clone()),
            _ => None,
        });
        let ver = self.commit(arbs).await?;
        if let Some(game) = rematch {
            self.send_rematch_seats(&game);
        }
        Ok(ver)
    }

    /// The accounts `act` makes, or why it is refused.
    async fn decide(&mut self, seat: Seat, act: Act) -> Result<Vec<Arb>> {
        let i = seat.index();
        match act {
            Act::Setup(choice) => self.decide_setup(seat, choice).await,
            Act::Move(mv) => self.decide_move(seat, mv),
            Act::Resign => match self.phase {
                Phase::Over { .. } => Err(over()),
                _ => Ok(vec![Arb::End {
                    winner: Some(1 - i),
                    reason: EndReason::Resignation,
                }]),
            },
            Act::DrawOffer => match self.phase {
                Phase::Playing { draw_offer, .. } => match draw_offer {
                    Some(s) if s == seat => {
                        Err(Error::Rejected("you have already offered a draw".into()))
                    }
                    // Offering while the opponent's offer is open accepts it.
                    Some(_) => Ok(vec![Arb::End {
                        winner: None,
                        reason: EndReason::Agreement,
                    }]),
                    None => Ok(vec![Arb::DrawOffer { seat: i }]),
                },
                _ => Err(Error::Rejected(
                    "a draw can be offered only while the game is being played".into(),
                )),
            },
            Act::DrawAccept | Act::DrawDecline => {
                if self.phase.draw_offer() != Some(seat.other()) {
                    return Err(Error::Rejected(
                        "there is no draw offer from your opponent to answer".into(),
                    ));
                }
                Ok(vec![if matches!(act, Act::DrawAccept) {
                    Arb::End {
                        winner: None,
                        reason: EndReason::Agreement,
                    }
                } else {
                    Arb::DrawDecline { seat: i }
                }])
            }
            Act::Rematch => self.decide_rematch(seat).await,
            Act::Chat(text) => self.decide_chat(seat, &text).map(|text| {
                vec![Arb::Chat {
                    seat: i,
                    text: text.to_string(),
                }]
            }),
            Act::Claim => self.decide_claim(seat),
        }
    }

    async fn decide_setup(&mut self, seat: Seat, choice: SetupChoice) -> Result<Vec<Arb>> {
        let i = seat.index();
        if !matches!(self.phase, Phase::Setup) || !self.kind.has_setups() {
            return Err(Error::Rejected(if self.kind.has_setups() {
                "the setup phase is over".into()
            } else {
                format!("{} has no setups: the pieces are dealt", self.kind)
            }));
        }
        if self.setups[i].is_some() {
            return Err(Error::Rejected(format!(
                "{} has already submitted a setup",
                self.name(seat)
            )));
        }
        let setup = match choice {
            SetupChoice::Given(v) => {
                wire::setup_from_json(&self.spec, seat, &v)?;
                v
            }
            SetupChoice::Random => wire::setup_json(&self.spec.random_setup(seat, random_u64())?),
            SetupChoice::Bot(b) => {
                let bot = Bot::parse(&b)?;
                let spec = self.spec.clone();
                tokio::task::spawn_blocking(move || bot.choose_setup(&spec, seat, random_u64()))
                    .await
                    .map_err(|_| Error::Unavailable)??
            }
        };
        let mut v = vec![Arb::Setup { seat: i, setup }];
        if self.setups[1 - i].is_some() {
            v.push(Arb::Start);
        }
        Ok(v)
    }

    /// A move: parsed once here, its legality one engine check (an illegal move's reason
    /// comes from the engine without copying the match).
    fn decide_move(&mut self, seat: Seat, mv: String) -> Result<Vec<Arb>> {
        let Game { phase, kind, .. } = self;
        let name = |s: Seat| kind.seat_name(s);
        let m = match phase {
            Phase::Setup => {
                return Err(Error::Rejected(
                    "the game has not started: both setups are not in yet".into(),
                ));
            }
            Phase::Over { .. } => return Err(over()),
            Phase::Playing { m, .. } => m,
        };
        if m.to_move() != Some(seat) {
            return Err(Error::Rejected(format!(
                "it is {}'s turn, not {}'s",
                m.to_move().map_or("nobody", name),
                name(seat)
            )));
        }
        if mv.len() > 16 {
            return Err(Error::BadRequest("that is not a move".into()));
        }
        let typed = m.parse_move(&mv)?;
        m.check_move(&typed)?;
        if typed.to_string() != mv {
            // Only a move written as `legal` lists it is taken (as the server always has).
            return Err(Error::Rejected(format!("illegal move {mv}")));
        }
        Ok(vec![Arb::Move {
            seat: seat.index(),
            mv,
            typed: Some(typed),
        }])
    }

    /// The chat line to send (trimmed), or why not: empty, too long, or over a limit.
    fn decide_chat<'t>(&mut self, seat: Seat, text: &'t str) -> Result<&'t str> {
        let text = text.trim();
        if text.is_empty() || text.chars().count() > 500 {
            return Err(Error::BadRequest(
                "a chat message has 1 to 500 characters".into(),
            ));
        }
        let c = &self.env.config;
        if self.chat_count >= c.chat_max {
            return Err(self.env.host.limited(format!(
                "this game's chat is full ({} lines); it takes no more",
                c.chat_max
            )));
        }
        let now = self.env.now();
        let (tokens, at) = &mut self.chat_tokens[seat.index()];
        *tokens = (*tokens
            + now.saturating_sub(*at) as f64 * f64::from(c.chat_per_minute) / 60_000.0)
            .min(f64::from(c.chat_burst));
        *at = now;
        if *tokens < 1.0 {
            return Err(self.env.host.limited(format!(
                "too many chat lines: at most {} a minute; this one was not sent",
                c.chat_per_minute
            )));
        }
        *tokens -= 1.0;
        Ok(text)
    }

    fn decide_claim(&self, seat: Seat) -> Result<Vec<Arb>> {
        if matches!(self.phase, Phase::Over { .. }) {
            return Err(over());
        }
        let o = seat.other();
        let now = self.env.now();
        // During the setup phase a seat has the setup grace (3 minutes by default) to come
        // back and set up; the game ends by itself once it is past.
        let grace = if matches!(self.phase, Phase::Setup) {
            self.env.config.setup_grace_ms
        } else {
            self.env.config.grace_ms
        };
        match self.away_since[o.index()] {
            Some(t) if now >= t + grace => Ok(vec![Arb::End {
                winner: Some(seat.index()),
                reason: EndReason::Abandonment,
            }]),
            Some(t) => Err(Error::Rejected(format!(
                "your opponent left {} s ago; you can claim the win after {} s",
                (now - t) / 1000,
                grace / 1000
            ))),
            None => Err(Error::Rejected(
                "your opponent is connected; there is nothing to claim".into(),
            )),
        }
    }
}
