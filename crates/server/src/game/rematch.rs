//! Rematches: an offer once the game is over, its acceptance (the new game is created with
//! the seats swapped), and the new seats' tokens for the players following this game.

use salpakan_engine::{Seat, Viewer};

use super::{Arb, Game, NewGame, Phase};
use crate::error::{Error, Result};
use crate::protocol::{self, ServerMsg};

impl Game {
    /// A rematch offer, or the acceptance of the opponent's (which creates the new game).
    pub(super) async fn decide_rematch(&mut self, seat: Seat) -> Result<Vec<Arb>> {
        let (offer, agreed) = match &self.phase {
            Phase::Over {
                rematch_offer,
                rematch,
                ..
            } => (*rematch_offer, rematch.is_some()),
            _ => {
                return Err(Error::Rejected(
                    "a rematch can be offered once the game is over".into(),
                ));
            }
        };
        if agreed {
            return Err(Error::Rejected(
                "the rematch has already been agreed".into(),
            ));
        }
        match offer {
            Some(s) if s == seat => {
                Err(Error::Rejected("you have already offered a rematch".into()))
            }
            Some(_) => {
                let spec = NewGame {
                    kind: self.kind,
                    spec: self.spec.clone(),
                    clock: self.clocks.control,
                    players: [self.players[1].clone(), self.players[0].clone()],
                    public: self.public,
                };
                let id = self.env.host.create_game(spec).await?;
                Ok(vec![Arb::Rematch { game: id }])
            }
            None => Ok(vec![Arb::RematchOffer { seat: seat.index() }]),
        }
    }

    /// Gives each player following this game its seat's token in the rematch `game`.
    pub(super) fn send_rematch_seats(&self, game: &str) {
        for sub in self.subs.values() {
            if let Viewer::Player(s) = sub.viewer {
                // Seats swap in the rematch.
                let new = s.other();
                let token = self.env.host.seat_token(game, new);
                sub.out.send(protocol::frame(
                    &ServerMsg::Seat {
                        game,
                        seat: self.name(new),
                        seat_token: &token,
                    },
                    None,
                ));
            }
        }
    }
}
