//! A game's frames: who follows it, what each recipient is sent (built once per view and
//! shared by every recipient of that view), catch-up after `since`, `sync`,
//! `legal` and `presence`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use salpakan_engine::{AnyMatch, Copy, Seat, Viewer};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};

use super::apply::MoveParts;
use super::{Game, Kept, Phase, recipient, reveals_at_end, viewer_of};
use crate::protocol::{self, Frame, ServerMsg};

/// Where a connection receives its frames. Frames that do not fit (too many frames, or
/// more than [`Outbox::max_bytes`] bytes queued) mark the connection as too slow, and it is
/// closed.
#[derive(Clone, Debug)]
pub struct Outbox {
    /// Frames (JSON text).
    pub tx: mpsc::Sender<Frame>,
    /// Told when the connection must close (too slow).
    pub kill: Arc<Notify>,
    /// Bytes queued and not yet written (the writer takes off what it writes).
    pub queued: Arc<AtomicUsize>,
    /// The most bytes that may be queued.
    pub max_bytes: usize,
    /// Set when the connection is closed because its guest signed out (not for being slow).
    pub signed_out: Arc<AtomicBool>,
}

impl Outbox {
    /// An outbox sending into `tx`, with at most `max_bytes` queued.
    #[must_use]
    pub fn new(tx: mpsc::Sender<Frame>, max_bytes: usize) -> Outbox {
        Outbox {
            tx,
            kill: Arc::new(Notify::new()),
            queued: Arc::new(AtomicUsize::new(0)),
            max_bytes,
            signed_out: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Closes the connection because its guest signed out.
    pub fn close_signed_out(&self) {
        self.signed_out.store(true, Ordering::Relaxed);
        self.kill.notify_one();
    }

    /// Whether the connection is closing because its guest signed out.
    #[must_use]
    pub fn is_signed_out(&self) -> bool {
        self.signed_out.load(Ordering::Relaxed)
    }

    /// Queues a frame; false when the connection is gone or too slow.
    pub fn send(&self, frame: Frame) -> bool {
        let n = frame.len();
        if self.queued.fetch_add(n, Ordering::Relaxed) + n > self.max_bytes {
            self.queued.fetch_sub(n, Ordering::Relaxed);
            self.kill.notify_one();
            return false;
        }
        match self.tx.try_send(frame) {
            Ok(()) => true,
            Err(e) => {
                self.queued.fetch_sub(n, Ordering::Relaxed);
                if matches!(e, mpsc::error::TrySendError::Full(_)) {
                    self.kill.notify_one();
                }
                false
            }
        }
    }

    /// Whether this is the same connection's outbox.
    #[must_use]
    pub fn same(&self, other: &Outbox) -> bool {
        self.tx.same_channel(&other.tx)
    }
}

/// A connection following a game.
pub(super) struct Sub {
    /// As whom.
    pub(super) viewer: Viewer,
    /// Its outbox.
    pub(super) out: Outbox,
}

impl Game {
    /// Answers connection `conn`'s action: its `ack` (with the version of the last event
    /// the action made) or its `error`. Nothing when the connection has gone.
    pub(super) fn answer(&self, conn: u64, r: crate::error::Result<u64>, id: Option<&Value>) {
        let Some(sub) = self.subs.get(&conn) else {
            return;
        };
        sub.out.send(match r {
            Ok(ver) => protocol::frame(
                &ServerMsg::Ack {
                    game: Some(&self.id),
                    ver: Some(ver),
                },
                id,
            ),
            Err(e) => e.frame(id),
        });
    }

    /// Whether a spectator is watching.
    pub(super) fn watched(&self) -> bool {
        self.subs.values().any(|s| recipient(s.viewer) == 2)
    }

    /// Keeps what is needed to send event `ver` again.
    pub(super) fn log_event(&mut self, ver: u64, kept: Kept) {
        debug_assert_eq!(ver, self.ver() + 1);
        self.log.push_back(kept);
        if self.log.len() > super::KEEP_EVENTS {
            self.log.pop_front();
            self.base += 1;
        }
    }

    /// Sends the events just committed, `fresh` (each recipient's frame of each, the
    /// first being version `first + 1`), to every follower (each frame shared by all
    /// recipients of its view), then the seat to move its legal moves.
    pub(super) fn fan_out(&mut self, first: u64, fresh: &[[Frame; 3]]) {
        debug_assert_eq!(first + fresh.len() as u64, self.ver());
        for frames in fresh {
            for (r, f) in frames.iter().enumerate() {
                if f.is_empty() {
                    continue;
                }
                for sub in self.subs.values() {
                    if recipient(sub.viewer) == r {
                        sub.out.send(f.clone());
                    }
                }
            }
        }
        self.drop_closed();
        if let Some(s) = self.to_move() {
            for sub in self.subs.values() {
                if sub.viewer == Viewer::Player(s) {
                    self.send_legal_to(&sub.out, s);
                }
            }
        }
    }

    /// Recipient `r`'s frames of every event after version `since`, exactly as they were
    /// sent; `None` when one of them is not kept (too old, from before a restart, or a
    /// spectators' frame of an event nobody watched) or cannot be written again.
    ///
    /// A move's frames are written again from the match: it is rewound to the ply before
    /// the first such move, and the kept moves are played on it once more.
    fn catch_up(&self, since: u64, r: usize) -> Option<Vec<Frame>> {
        let ver = self.ver();
        if since < self.base || since > ver {
            return None;
        }
        let from = usize::try_from(since - self.base).ok()?;
        let mut frames = Vec::with_capacity(self.log.len() - from);
        let mut replay: Option<AnyMatch> = None;
        let mut observation = String::new();
        for (i, kept) in self.log.iter().enumerate().skip(from) {
            let f = match kept {
                Kept::Sent(f) => f[r].clone(),
                Kept::Move { watched: false, .. } if r == 2 => return None,
                Kept::Move {
                    mv, ply, clocks, ..
                } => {
                    let before = usize::try_from(*ply).ok()?.checked_sub(1)?;
                    let m = match &mut replay {
                        Some(m) if m.ply() as usize == before => m,
                        slot => slot.insert(self.phase.m()?.rewound(before)?),
                    };
                    let views = m.play_sent(*mv).ok()?;
                    let parts = MoveParts::new(m, self.kind, clocks.to_string());
                    let ver = self.base + i as u64 + 1;
                    parts.frame(&self.id_json, ver, &views[r], m, r, &mut observation)
                }
            };
            if f.is_empty() {
                return None;
            }
            frames.push(f);
        }
        Some(frames)
    }

    /// The seat to move while the game is being played.
    pub(super) fn to_move(&self) -> Option<Seat> {
        match &self.phase {
            Phase::Playing { m, .. } => m.to_move(),
            _ => None,
        }
    }

    /// A connection follows the game: the events it missed after `since` when they are
    /// kept, else a `sync`; a seat to move also gets its legal moves.
    pub(super) fn join(&mut self, viewer: Viewer, conn: u64, out: Outbox, since: Option<u64>) {
        let r = recipient(viewer);
        match since.and_then(|n| self.catch_up(n, r)) {
            Some(frames) => {
                for f in frames {
                    out.send(f);
                }
            }
            None => {
                out.send(self.sync_frame(r));
            }
        }
        if let Viewer::Player(s) = viewer {
            self.send_legal_to(&out, s);
        }
        if self.subs.insert(conn, Sub { viewer, out }).is_none() {
            if let Viewer::Player(s) = viewer {
                self.online[s.index()] += 1;
                if self.online[s.index()] == 1 {
                    self.away_since[s.index()] = None;
                    self.presence(s, true);
                }
            }
        }
    }

    /// A connection stops following the game.
    pub(super) fn leave(&mut self, conn: u64) {
        if let Some(sub) = self.subs.remove(&conn) {
            if let Viewer::Player(s) = sub.viewer {
                self.online[s.index()] -= 1;
                if self.online[s.index()] == 0 {
                    self.away_since[s.index()] = Some(self.env.now());
                    self.presence(s, false);
                }
            }
        }
        if self.subs.is_empty() {
            self.idle_since = self.env.now();
        }
    }

    /// Followers whose connection is gone (its queue closed) leave as if they had said so:
    /// a seat's count of connections goes down and, at none, the others hear it is away.
    /// (Dropped silently, a seat that went while a frame was on its way stayed online for
    /// ever: no `presence`, no absence deadline.) A follower too slow to keep up is closed
    /// by its connection, whose `leave` follows.
    fn drop_closed(&mut self) {
        let gone: Vec<u64> = self
            .subs
            .iter()
            .filter(|(_, s)| s.out.tx.is_closed())
            .map(|(&c, _)| c)
            .collect();
        for conn in gone {
            self.leave(conn);
        }
    }

    /// Tells every follower that seat `s` connected or left.
    fn presence(&mut self, s: Seat, online: bool) {
        let f = protocol::frame(
            &ServerMsg::Presence {
                game: &self.id,
                seat: self.name(s),
                online,
            },
            None,
        );
        for sub in self.subs.values() {
            sub.out.send(f.clone());
        }
        self.drop_closed();
    }

    /// Tells every follower that the last action could not be stored.
    pub(super) fn send_storage_notice(&mut self) {
        let notice = protocol::frame(
            &ServerMsg::Notice {
                game: &self.id,
                notice: "storage",
                text: "the server could not store the last action and is reloading this game; play on in a moment",
            },
            None,
        );
        for sub in self.subs.values() {
            sub.out.send(notice.clone());
        }
        self.drop_closed();
    }

    /// Sends every follower a fresh `sync` (and the seat to move its legal moves).
    pub(super) fn send_syncs(&self) {
        for sub in self.subs.values() {
            sub.out.send(self.sync_frame(recipient(sub.viewer)));
            if let Viewer::Player(s) = sub.viewer {
                self.send_legal_to(&sub.out, s);
            }
        }
    }

    /// The result as clients see it, `null` until the end.
    pub(super) fn result_json(&self) -> Value {
        self.phase.result().map_or(
            Value::Null,
            |o| json!({"winner": o.winner.map(|s| self.name(s)), "reason": o.reason}),
        )
    }

    /// The players as clients see them:
    /// `{"<seat>":{"name":..,"bot":..,"account":..,"rating":..,"provisional":..},..}` (the
    /// ratings as they were when the game was created: nothing here changes before the end).
    fn players_json(&self) -> Value {
        let mut players = serde_json::Map::new();
        for s in Seat::BOTH {
            let p = &self.players[s.index()];
            players.insert(
                self.name(s).into(),
                json!({"name": p.name, "bot": p.bot, "account": p.account,
                       "rating": p.rating, "provisional": p.provisional}),
            );
        }
        Value::Object(players)
    }

    /// Whether the game is rated: its human seats' ratings move with its result.
    pub(super) fn rated(&self) -> bool {
        self.players.iter().all(|p| p.rated)
    }

    /// Everything that was hidden, for after the end: both armies or the deal, the salts,
    /// the seed, and the arbiter's observation. Nothing for a game played with
    /// `reveal_at_end=false`.
    pub(super) fn reveal(&self) -> Value {
        if self.phase.result().is_none() || !reveals_at_end(&self.options) {
            return Value::Null;
        }
        let Some(m) = self.phase.m() else {
            let mut s = serde_json::Map::new();
            for seat in Seat::BOTH {
                s.insert(
                    self.name(seat).into(),
                    self.setups[seat.index()].clone().unwrap_or(Value::Null),
                );
            }
            return json!({"setups": s});
        };
        let rec = m.record(Copy::Full);
        let mut parts = serde_json::Map::new();
        let mut salts = serde_json::Map::new();
        for (name, _) in m.commitment_list() {
            if let Some(t) = rec.tag(&name) {
                parts.insert(name.clone(), salpakan_engine::wire::placements_json(t));
            }
            if let Some(t) = rec.tag(&format!("{name}Salt")) {
                salts.insert(name.clone(), Value::String(t.to_string()));
            }
        }
        json!({"parts": parts, "salts": salts, "seed": self.seed.to_string(),
               "observation": m.observe_json(Viewer::Arbiter)})
    }

    /// The full current view for recipient `r`.
    pub(super) fn sync_frame(&self, r: usize) -> Frame {
        let viewer = viewer_of(r);
        let kind = self.kind;
        let now = self.env.now();
        let mut setups = serde_json::Map::new();
        for s in Seat::BOTH {
            setups.insert(self.name(s).into(), self.setups[s.index()].is_some().into());
        }
        let (rematch_offer, rematch) = self.phase.rematch();
        let mut st = json!({
            "game": self.id, "kind": kind.name(), "options": self.options, "public": self.public,
            "players": self.players_json(), "clock": self.clocks.control,
            "seat": viewer.seat().map(|s| self.name(s)), "status": self.phase.name(),
            "setups": setups, "clocks": self.clocks.json(kind, now),
            "draw_offer": self.phase.draw_offer().map(|s| self.name(s)),
            "rematch_offer": rematch_offer.map(|s| self.name(s)),
            "rematch": rematch, "result": self.result_json(), "rated": self.rated(),
        });
        if let Some(r) = &self.rating_change {
            st["ratings"] = r.clone();
        }
        if let Some(s) = viewer.seat() {
            st["your_setup"] = self.setups[s.index()].clone().unwrap_or(Value::Null);
            st["chat"] = Value::Array(self.chat.iter().cloned().collect());
        }
        if let Some(m) = self.phase.m() {
            let commitments: serde_json::Map<String, Value> = m
                .commitment_list()
                .into_iter()
                .map(|(a, b)| (a, Value::String(b)))
                .collect();
            st["commitments"] = Value::Object(commitments);
            st["to_move"] = json!(m.to_move().map(|s| kind.seat_name(s)));
            st["observation"] = m.observe_json(viewer);
            st["history"] = Value::Array(m.history_json(viewer));
            if let Some(c) = m.seat_colours() {
                st["colours"] =
                    json!({kind.seat_name(Seat::First): c[0], kind.seat_name(Seat::Second): c[1]});
            }
        }
        if self.phase.result().is_some() {
            st["reveal"] = self.reveal();
        }
        protocol::sync_frame(&self.id_json, self.ver(), &st)
    }

    /// Sends seat `s` its legal moves, when it is to move.
    pub(super) fn send_legal_to(&self, out: &Outbox, s: Seat) {
        if self.to_move() != Some(s) {
            return;
        }
        out.send(protocol::legal_frame(
            &self.id_json,
            self.ver(),
            &self.legal,
        ));
    }

    /// Public facts for the lobby and the HTTP API.
    pub(super) fn summary(&self) -> Value {
        let mut s = json!({"game": self.id, "kind": self.kind.name(), "options": self.options,
               "clock": self.clocks.control, "players": self.players_json(),
               "status": self.phase.name(), "public": self.public,
               "ply": self.phase.m().map_or(0, |m| m.ply()), "ver": self.ver(),
               "result": self.result_json(), "rematch": self.phase.rematch().1,
               "rated": self.rated(), "board": self.board});
        if let Some(r) = &self.rating_change {
            s["ratings"] = r.clone();
        }
        s
    }

    /// The lobby entry: the summary while public and not over.
    pub(super) fn lobby_summary(&self) -> Option<Value> {
        (self.public && self.phase.result().is_none()).then(|| self.summary())
    }
}
