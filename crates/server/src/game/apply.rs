//! Applying: each account ([`Arb`]) changes the state (engine calls, clocks, offers, the
//! phase) and yields what each recipient sees of it; committing stores the accounts (group
//! commit) and only once they are durable sends the frames.

use salpakan_engine::{AnyMatch, AnyMove, GameKind, Outcome, Seat, wire};
use serde_json::{Value, json};

use super::{Arb, Game, Kept, Phase, viewer_of};
use crate::error::{Error, Result};
use crate::protocol::{self, Frame};
use crate::rating_book::GameEnd;
use crate::store::{EventRow, Op};

/// Each recipient's view of one event as JSON text (seat 0, seat 1, spectators); `null`
/// for a recipient who may see nothing of it, empty when no view was built.
type Views = [String; 3];

/// Each recipient's event frame (the view in its envelope), empty when no view was built.
type Frames = [Frame; 3];

/// What applying one account yields: each recipient's frame of it (empty when no view was
/// built) and what the game keeps of it for clients catching up.
pub(super) struct Applied {
    /// The frames to send.
    pub(super) frames: Frames,
    /// What is kept.
    pub(super) kept: Kept,
}

impl Applied {
    /// Frames kept as they are sent.
    fn sent(frames: Frames) -> Applied {
        Applied {
            kept: Kept::Sent(frames.clone()),
            frames,
        }
    }
}

/// The same view for every recipient.
fn public(v: &Value) -> Views {
    let t = v.to_string();
    [t.clone(), t.clone(), t]
}

impl Game {
    /// Applies `arbs`, stores them, and once durable sends each recipient its view.
    pub(super) async fn commit(&mut self, arbs: Vec<Arb>) -> Result<u64> {
        let now = self.env.now();
        let mut ops = Vec::with_capacity(arbs.len() + 1);
        let first = self.ver();
        let was_started = self.phase.m().is_some();
        let mut arbs = arbs;
        let mut fresh = Vec::with_capacity(arbs.len() + 1);
        let mut k = 0;
        while k < arbs.len() {
            let arb = &arbs[k];
            k += 1;
            let applied = match self.apply(arb, now, true) {
                Ok(v) => v,
                Err(e) => {
                    // Nothing of a failed apply was stored; rebuild from the store.
                    self.broken = true;
                    return Err(e);
                }
            };
            let ver = self.ver() + 1;
            ops.push(Op::Event {
                game: self.id.clone(),
                row: EventRow {
                    ver,
                    arb: serde_json::to_string(arb).expect("arbs serialize"),
                    clocks: serde_json::to_string(&self.clocks.stored(now))
                        .expect("clocks serialize"),
                },
            });
            fresh.push(applied.frames);
            self.log_event(ver, applied.kept);
            if k == arbs.len() {
                // A move that ends the game on the board is followed by its end.
                if let Phase::Playing { m, .. } = &self.phase {
                    if let Some(o) = m.outcome() {
                        arbs.push(Arb::End {
                            winner: o.winner.map(Seat::index),
                            reason: o.reason,
                        });
                    }
                }
            }
        }
        let ended = arbs.iter().any(|a| matches!(a, Arb::End { .. }));
        if ended {
            ops.push(Op::Result {
                game: self.id.clone(),
                result: self.result_json().to_string(),
            });
        }
        if let Some(f) = &mut self.finishing {
            // The ratings move in the same transaction as the result.
            ops.append(&mut f.ops);
        }
        if let Err(e) = self.env.store.write(ops).await {
            tracing::error!(game = %self.id, error = %e, "could not store an event; reloading the game");
            if let Some(f) = self.finishing.take() {
                self.env.host.game_over_failed(f);
            }
            self.broken = true;
            return Err(e);
        }
        self.finishing = None;
        self.refresh_legal();
        self.fan_out(first, &fresh);
        let host = &self.env.host;
        if (!was_started && self.phase.m().is_some()) || ended {
            host.lobby_game(&self.id, self.lobby_summary());
        }
        if ended {
            if self.public {
                host.game_ended(self.summary());
            }
            if self.bots.iter().any(Option::is_some) {
                host.bot_game_over(&self.id, &self.players);
            }
        }
        self.failures = 0;
        Ok(self.ver())
    }

    /// Applies one account to the state; returns each recipient's frame of it (empty
    /// when `views` is false: a replay from the store) and what is kept of it.
    pub(super) fn apply(&mut self, arb: &Arb, now: u64, views: bool) -> Result<Applied> {
        let ver = self.ver() + 1;
        let out = match arb {
            Arb::Setup { seat, setup } => {
                self.setups[*seat] = Some(setup.clone());
                let s = self.name(Seat::from_index(*seat));
                let mut v = [0, 1, 2].map(|_| json!({"type": "setup", "seat": s}));
                v[*seat]["setup"] = setup.clone();
                v.map(|v| v.to_string())
            }
            Arb::Start => self.apply_start(now, views)?,
            Arb::Move { seat, mv, typed } => {
                // The most frequent event: its frames are written whole, directly.
                return self.apply_move(Seat::from_index(*seat), mv, *typed, now, views);
            }
            Arb::DrawOffer { seat } => {
                let s = Seat::from_index(*seat);
                if let Phase::Playing { draw_offer, .. } = &mut self.phase {
                    *draw_offer = Some(s);
                }
                public(&json!({"type": "draw_offer", "seat": self.name(s)}))
            }
            Arb::DrawDecline { seat } => {
                if let Phase::Playing { draw_offer, .. } = &mut self.phase {
                    *draw_offer = None;
                }
                public(&json!({"type": "draw_decline", "seat": self.name(Seat::from_index(*seat))}))
            }
            Arb::RematchOffer { seat } => {
                let s = Seat::from_index(*seat);
                if let Phase::Over { rematch_offer, .. } = &mut self.phase {
                    *rematch_offer = Some(s);
                }
                public(&json!({"type": "rematch_offer", "seat": self.name(s)}))
            }
            Arb::Rematch { game } => {
                if let Phase::Over { rematch, .. } = &mut self.phase {
                    *rematch = Some(game.clone());
                }
                public(&json!({"type": "rematch", "game": game}))
            }
            Arb::Chat { seat, text } => {
                let s = Seat::from_index(*seat);
                let line =
                    json!({"seat": self.name(s), "name": self.players[*seat].name, "text": text});
                let e = json!({"type": "chat", "seat": self.name(s),
                               "name": self.players[*seat].name, "text": text})
                .to_string();
                self.chat.push_back(line);
                self.chat_count += 1;
                if self.chat.len() > self.env.config.chat_keep {
                    self.chat.pop_front();
                }
                [e.clone(), e, "null".into()]
            }
            Arb::End { winner, reason } => {
                let o = Outcome {
                    winner: winner.map(Seat::from_index),
                    reason: *reason,
                };
                self.apply_end(o, now, views)?
            }
        };
        if !views {
            return Ok(Applied::sent(Frames::default()));
        }
        let id = &self.id_json;
        Ok(Applied::sent(out.map(|e| {
            if e.is_empty() {
                Frame::default()
            } else {
                protocol::event_frame(id, ver, &e)
            }
        })))
    }

    /// Both setups are in (or the pieces are dealt): the match starts.
    fn apply_start(&mut self, now: u64, views: bool) -> Result<Views> {
        let kind = self.kind;
        let mut req = serde_json::Map::new();
        if kind.has_setups() {
            let mut s = serde_json::Map::new();
            for seat in Seat::BOTH {
                let setup = self.setups[seat.index()]
                    .clone()
                    .ok_or_else(|| Error::Storage("a game started without both setups".into()))?;
                s.insert(self.name(seat).into(), setup);
            }
            req.insert("setups".into(), Value::Object(s));
        }
        let m = wire::new_match(&self.spec, &req, self.seed)?;
        self.clocks.start(m.to_move().unwrap_or(Seat::First), now);
        self.phase = Phase::Playing {
            m,
            draw_offer: None,
        };
        let Phase::Playing { m, .. } = &self.phase else {
            unreachable!("just set")
        };
        if !views {
            return Ok(Views::default());
        }
        let commitments: serde_json::Map<String, Value> = m
            .commitment_list()
            .into_iter()
            .map(|(a, b)| (a, Value::String(b)))
            .collect();
        Ok([0, 1, 2].map(|r| {
            json!({"type": "start", "commitments": commitments,
                   "to_move": m.to_move().map(|s| kind.seat_name(s)),
                   "clocks": self.clocks.json(kind, now),
                   "observation": m.observe_json(viewer_of(r))})
            .to_string()
        }))
    }

    /// A move (typed when it was just decided, else parsed from its stored text): played on
    /// the match, the clocks pressed, the draw offer dropped.
    fn apply_move(
        &mut self,
        seat: Seat,
        mv: &str,
        typed: Option<AnyMove>,
        now: u64,
        views: bool,
    ) -> Result<Applied> {
        let kind = self.kind;
        let ver = self.ver() + 1;
        let watched = views && self.watched();
        let Phase::Playing { m, draw_offer } = &mut self.phase else {
            return Err(Error::Storage("a move outside play".into()));
        };
        let replay = |e| Error::Storage(format!("a stored move does not replay: {e}"));
        let mv = match typed {
            Some(t) => t,
            None => m.parse_move(mv).map_err(replay)?,
        };
        let sent = if views {
            Some(m.play_sent(mv).map_err(replay)?)
        } else {
            m.play(mv).map_err(replay)?;
            None
        };
        *draw_offer = None;
        self.clocks.press(seat, now);
        if m.to_move().is_none() {
            self.clocks.stop(now);
        }
        let clocks = self.clocks.json(kind, now).to_string();
        let kept = Kept::Move {
            mv,
            ply: m.ply(),
            clocks: clocks.as_str().into(),
            watched,
        };
        let Some(sent) = sent else {
            return Ok(Applied {
                frames: Frames::default(),
                kept,
            });
        };
        let parts = MoveParts::new(m, kind, clocks);
        let mut observation = String::with_capacity(2048);
        let mut r = 0;
        let frames = sent.map(|view| {
            r += 1;
            if r == 3 && !watched {
                // Nobody to send it to now; a spectator who joins later gets a sync.
                return Frame::default();
            }
            parts.frame(&self.id_json, ver, &view, m, r - 1, &mut observation)
        });
        Ok(Applied { frames, kept })
    }

    /// The end: the clocks stop, the match concludes (unless it ended on the board), and
    /// the game is over.
    fn apply_end(&mut self, o: Outcome, now: u64, views: bool) -> Result<Views> {
        // The seat whose clock ran, and its time left when its turn began: all of it was
        // spent without a move when that seat lost on time.
        let turn = self
            .clocks
            .running
            .map(|(s, _)| (s, self.clocks.remaining[s.index()]));
        match &mut self.phase {
            Phase::Playing { m, .. } if m.outcome().is_none() => {
                m.conclude(o)
                    .map_err(|e| Error::Storage(format!("an end does not apply: {e}")))?;
            }
            Phase::Over { .. } => return Err(Error::Storage("a game ended twice".into())),
            _ => {}
        }
        self.clocks.stop(now);
        let m = match std::mem::replace(&mut self.phase, Phase::Setup) {
            Phase::Playing { m, .. } => Some(m),
            _ => None,
        };
        self.phase = Phase::Over {
            m,
            result: o,
            rematch_offer: None,
            rematch: None,
        };
        if !views {
            return Ok(Views::default());
        }
        let f = self.env.host.game_over(&GameEnd {
            game: &self.id,
            kind: self.kind,
            board: self.board,
            players: &self.players,
            winner: o.winner,
            reason: o.reason,
            turn,
        });
        self.rating_change.clone_from(&f.ratings);
        self.finishing = Some(f);
        let mut end = json!({"type": "end", "result": self.result_json(),
                             "clocks": self.clocks.json(self.kind, now), "reveal": self.reveal()});
        if let Some(r) = &self.rating_change {
            end["ratings"] = r.clone();
        }
        Ok(public(&end))
    }
}

/// What every recipient's frame of one move shares, written once per move.
pub(super) struct MoveParts {
    /// The seat to move after it (JSON).
    to_move: String,
    /// The clocks (JSON).
    clocks: String,
    /// Banqi's colours once known (JSON), else empty.
    colours: String,
}

impl MoveParts {
    /// The shared parts of a move's frames, from the match after the move and the clocks
    /// as sent (JSON text).
    pub(super) fn new(m: &AnyMatch, kind: GameKind, clocks: String) -> MoveParts {
        MoveParts {
            to_move: Value::from(m.to_move().map(|s| kind.seat_name(s))).to_string(),
            clocks,
            colours: m
                .seat_colours()
                .map(|c| {
                    json!({kind.seat_name(Seat::First): c[0], kind.seat_name(Seat::Second): c[1]})
                        .to_string()
                })
                .unwrap_or_default(),
        }
    }

    /// Recipient `r`'s frame of event `ver`, a move whose view for `r` is `view`, with `m`
    /// the match after it. The frame is written whole, directly (the most frequent event),
    /// in the order `json!` and `protocol::event_frame` would write it; `observation` is a
    /// buffer reused between recipients.
    pub(super) fn frame(
        &self,
        id: &str,
        ver: u64,
        view: &str,
        m: &AnyMatch,
        r: usize,
        observation: &mut String,
    ) -> Frame {
        use std::fmt::Write;
        // The recipient's whole view after the ply, so clients need not rebuild it.
        observation.clear();
        m.write_observe_json(viewer_of(r), observation);
        let MoveParts {
            to_move,
            clocks,
            colours,
        } = self;
        let mut f = String::with_capacity(
            id.len()
                + view.len()
                + to_move.len()
                + clocks.len()
                + colours.len()
                + observation.len()
                + 128,
        );
        let _ = write!(
            f,
            r#"{{"v":1,"t":"event","game":{id},"ver":{ver},"e":{{"type":"move","view":{view},"to_move":{to_move},"clocks":{clocks}"#
        );
        if !colours.is_empty() {
            let _ = write!(f, r#","colours":{colours}"#);
        }
        f.push_str(r#","observation":"#);
        f.push_str(observation);
        f.push_str("}}");
        f.into()
    }
}
