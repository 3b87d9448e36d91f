//! One game: an actor task that owns the match, the clocks and the per-recipient event log.
//!
//! Every change is an [`Arb`] (the server's own account: a setup, a move, a draw offer...).
//! The actor applies it, builds what each recipient may see of it (each seat's view, the
//! spectators' view; `null` for a recipient who may see nothing), writes it to the store,
//! and only once it is durable sends it. Restarting applies the stored accounts again.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use salpakan_engine::{
    AnyMatch, Copy, EndReason, GameKind, GameSpec, MatchSeed, Outcome, Seat, Viewer, wire,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc, oneshot};

use crate::app::App;
use crate::bots::Bot;
use crate::clock::{Clocks, StoredClocks, TimeControl};
use crate::error::{Error, Result};
use crate::store::{EventRow, GameRow, Op};

/// Where a connection receives its frames. Frames that do not fit (too many frames, or
/// more than [`Outbox::max_bytes`] bytes queued) mark the connection as too slow, and it is
/// closed.
#[derive(Clone, Debug)]
pub struct Outbox {
    /// Frames (JSON text).
    pub tx: mpsc::Sender<Arc<str>>,
    /// Told when the connection must close (too slow).
    pub kill: Arc<Notify>,
    /// Bytes queued and not yet written (the writer takes off what it writes).
    pub queued: Arc<std::sync::atomic::AtomicUsize>,
    /// The most bytes that may be queued.
    pub max_bytes: usize,
}

impl Outbox {
    /// Queues a frame; false when the connection is gone or too slow.
    pub fn send(&self, frame: Arc<str>) -> bool {
        use std::sync::atomic::Ordering;
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

/// One seat's occupant.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Player {
    /// The user's id (none for a bot).
    pub user: Option<String>,
    /// Display name.
    pub name: String,
    /// The bot's spec, for a bot seat.
    pub bot: Option<String>,
}

/// The server's own account of one event: what is stored and applied again on restart.
/// Holds secrets (setups); never sent to anyone.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "a", rename_all = "snake_case")]
pub enum Arb {
    /// A seat's setup.
    Setup {
        /// Seat index.
        seat: usize,
        /// The setup (square → code).
        setup: Value,
    },
    /// Both setups are in (or the pieces are dealt): the match starts.
    Start,
    /// A move.
    Move {
        /// Seat index.
        seat: usize,
        /// The move as text.
        mv: String,
    },
    /// A draw offer.
    DrawOffer {
        /// Seat index.
        seat: usize,
    },
    /// A draw offer declined.
    DrawDecline {
        /// Seat index.
        seat: usize,
    },
    /// A rematch offer.
    RematchOffer {
        /// Seat index.
        seat: usize,
    },
    /// The rematch was agreed: its game.
    Rematch {
        /// The new game's id.
        game: String,
    },
    /// A chat line between the players.
    Chat {
        /// Seat index.
        seat: usize,
        /// The text.
        text: String,
    },
    /// The end.
    End {
        /// Winner's seat index, none for a draw.
        winner: Option<usize>,
        /// Why.
        reason: EndReason,
    },
}

/// How a seat sets up.
#[derive(Clone, Debug)]
pub enum SetupChoice {
    /// This setup (square → code).
    Given(Value),
    /// A random one.
    Random,
    /// One made by this bot.
    Bot(String),
}

/// What a seat may do.
#[derive(Clone, Debug)]
pub enum Act {
    /// Submit a setup.
    Setup(SetupChoice),
    /// Play a move.
    Move(String),
    /// Resign.
    Resign,
    /// Offer a draw.
    DrawOffer,
    /// Accept the opponent's draw offer.
    DrawAccept,
    /// Decline it.
    DrawDecline,
    /// Offer (or accept) a rematch once the game is over.
    Rematch,
    /// Say something to the opponent.
    Chat(String),
    /// Claim the win: the opponent has been away past the grace period.
    Claim,
}

/// A message to a game's task.
#[derive(Debug)]
pub enum Cmd {
    /// Subscribe a connection as a seat or a spectator; it gets the events after `since`
    /// (or the full current view).
    Join {
        /// Who is looking.
        viewer: Viewer,
        /// The connection.
        conn: u64,
        /// Its outbox.
        out: Outbox,
        /// The last version it saw.
        since: Option<u64>,
    },
    /// Unsubscribe a connection.
    Leave {
        /// The connection.
        conn: u64,
    },
    /// A seat acts.
    Act {
        /// The seat.
        seat: Seat,
        /// What it does.
        act: Act,
        /// Told the version of the last event it made, or why it was refused.
        reply: Option<oneshot::Sender<Result<u64>>>,
    },
    /// A record copy (full only once over).
    Record {
        /// Which copy.
        copy: Copy,
        /// The record text.
        reply: oneshot::Sender<Result<String>>,
    },
    /// Public facts for the lobby and the HTTP API.
    Summary {
        /// The summary.
        reply: oneshot::Sender<Value>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Setup,
    Playing,
    Ended,
}

struct Sub {
    viewer: Viewer,
    out: Outbox,
}

/// How many recent events a game keeps, as sent, for clients catching up; one that missed
/// more (or events from before a restart) gets the full current view instead.
const KEEP_EVENTS: usize = 256;
/// How long a finished game's task waits without subscribers before it stops.
const IDLE_MS: u64 = 300_000;

/// A game's state, owned by its task.
pub struct Game {
    app: Arc<App>,
    id: String,
    id_json: String,
    kind: GameKind,
    options: Value,
    /// `options`, read once.
    spec: GameSpec,
    seed: MatchSeed,
    public: bool,
    players: [Player; 2],
    bots: [Option<Bot>; 2],
    setups: [Option<Value>; 2],
    m: Option<AnyMatch>,
    clocks: Clocks,
    result: Option<Outcome>,
    draw_offer: Option<Seat>,
    rematch_offer: Option<Seat>,
    rematch: Option<String>,
    /// The players' last chat lines (for `sync`; spectators never get it), at most
    /// [`crate::Config::chat_keep`].
    chat: VecDeque<Value>,
    /// Chat lines in the game so far (at most [`crate::Config::chat_max`] are accepted).
    chat_count: usize,
    /// Each seat's chat allowance (lines) and when it was last topped up (ms).
    chat_tokens: [(f64, u64); 2],
    /// Failed writes in a row (the reload after each backs off).
    failures: u32,
    /// The last [`KEEP_EVENTS`] events: the frame each recipient was sent (empty for
    /// spectators when none was watching: a spectator catching up over it gets a `sync`).
    log: VecDeque<[Arc<str>; 3]>,
    /// The version of the event before the first in `log`.
    base: u64,
    /// The legal moves of the seat to move (empty when none), and as a JSON array.
    legal: (Vec<String>, String),
    subs: HashMap<u64, Sub>,
    online: [usize; 2],
    away_since: [Option<u64>; 2],
    idle_since: u64,
    bot_busy: [bool; 2],
    me: mpsc::WeakSender<Cmd>,
    broken: bool,
}

fn recipient(v: Viewer) -> usize {
    match v {
        Viewer::Player(s) => s.index(),
        _ => 2,
    }
}

fn viewer_of(r: usize) -> Viewer {
    if r < 2 {
        Viewer::Player(Seat::from_index(r))
    } else {
        Viewer::Spectator
    }
}

impl Game {
    /// Builds a game from its stored row and events (applying each again), ready to run.
    ///
    /// # Errors
    /// A row or event that does not apply (a corrupt store).
    pub fn restore(app: Arc<App>, row: &GameRow, events: &[EventRow]) -> Result<Game> {
        let kind: GameKind = row.kind.parse().map_err(Error::Storage)?;
        let options: Value = serde_json::from_str(&row.options).map_err(storage)?;
        let spec = wire::spec_from_json(kind, &options).map_err(storage)?;
        let control: Option<TimeControl> = serde_json::from_str(&row.clock).map_err(storage)?;
        let players: [Player; 2] = serde_json::from_str(&row.players).map_err(storage)?;
        let now = app.now();
        let bots = [0, 1].map(|i| players[i].bot.as_deref().map(|b| Bot::restore(&row.id, b)));
        let away = [0, 1].map(|i| players[i].bot.is_none().then_some(now));
        let mut g = Game {
            id_json: serde_json::to_string(&row.id).expect("a string serializes"),
            id: row.id.clone(),
            app,
            kind,
            options,
            spec,
            seed: row.seed,
            public: row.public,
            players,
            bots,
            setups: [None, None],
            m: None,
            clocks: Clocks::new(control),
            result: None,
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            chat: VecDeque::new(),
            chat_count: 0,
            chat_tokens: [(0.0, 0); 2],
            failures: 0,
            log: VecDeque::new(),
            base: events.len() as u64,
            legal: (Vec::new(), String::new()),
            subs: HashMap::new(),
            online: [0, 0],
            away_since: away,
            idle_since: now,
            bot_busy: [false, false],
            me: mpsc::channel(1).0.downgrade(),
            broken: false,
        };
        for e in events {
            let arb: Arb = serde_json::from_str(&e.arb).map_err(storage)?;
            g.apply(&arb, now, false)?;
            let c: StoredClocks = serde_json::from_str(&e.clocks).map_err(storage)?;
            g.clocks.restore(c, now);
        }
        g.refresh_legal();
        let burst = f64::from(g.app.config.chat_burst);
        g.chat_tokens = [(burst, now); 2];
        Ok(g)
    }

    /// Runs the game's task until it is finished and idle.
    pub async fn run(mut self, tx: mpsc::Sender<Cmd>, mut rx: mpsc::Receiver<Cmd>) {
        self.me = tx.downgrade();
        drop(tx);
        if self.status() == Status::Setup && !self.kind.has_setups() {
            let _ = self.commit(vec![Arb::Start]).await;
        }
        self.poke_bots();
        self.app.lobby_game(&self.id, self.lobby_summary());
        loop {
            if self.broken && !self.recover().await {
                break;
            }
            let now = self.app.now();
            let deadline = self.next_deadline(now);
            let sleep = deadline.map(|d| Duration::from_millis(d.saturating_sub(now).max(1)));
            let cmd = tokio::select! {
                c = rx.recv() => match c { Some(c) => Some(c), None => break },
                () = async { match sleep { Some(s) => tokio::time::sleep(s).await, None => std::future::pending().await } } => None,
            };
            self.check_time().await;
            // A time-out's end that could not be stored must not be shown to anyone: the
            // game reloads before it answers the next command.
            if self.broken && !self.recover().await {
                break;
            }
            if let Some(cmd) = cmd {
                self.handle(cmd).await;
            }
            if self.status() == Status::Ended
                && self.subs.is_empty()
                && self.app.now().saturating_sub(self.idle_since) >= IDLE_MS
            {
                break;
            }
        }
        self.app.game_stopped(&self.id);
    }

    /// After a failed write (or an event that did not apply): tells the subscribers, then
    /// rebuilds the game from the store (retrying with backoff while the store cannot be
    /// read), keeps its subscribers and sends each a fresh `sync`. What was not stored was
    /// never acknowledged nor sent, so nothing anyone heard of is lost. False when the
    /// server is going away.
    async fn recover(&mut self) -> bool {
        let notice: Arc<str> = format!(
            r#"{{"v":1,"t":"notice","game":{},"notice":"storage","text":"the server could not store the last action and is reloading this game; play on in a moment"}}"#,
            self.id_json
        )
        .into();
        self.subs.retain(|_, s| s.out.send(notice.clone()));
        self.failures += 1;
        let mut delay = Duration::from_millis(50 << self.failures.min(7).saturating_sub(1));
        loop {
            if self.failures > 1 {
                tokio::time::sleep(delay.min(Duration::from_secs(5))).await;
            }
            let loaded = self.app.store.load_game(&self.id).await;
            match loaded.and_then(|(row, ev)| Game::restore(self.app.clone(), &row, &ev)) {
                Ok(mut g) => {
                    g.me = self.me.clone();
                    g.subs = std::mem::take(&mut self.subs);
                    g.online = self.online;
                    g.away_since = self.away_since;
                    g.failures = self.failures;
                    g.chat_tokens = self.chat_tokens;
                    // A bot still thinking keeps its turn: no second think is started.
                    g.bot_busy = self.bot_busy;
                    *self = g;
                    for sub in self.subs.values() {
                        sub.out.send(self.sync_frame(recipient(sub.viewer)));
                        if let Viewer::Player(s) = sub.viewer {
                            self.send_legal_to(&sub.out, s);
                        }
                    }
                    self.poke_bots();
                    tracing::warn!(game = %self.id, ver = self.ver(), "game reloaded from the store after a failed write");
                    return true;
                }
                Err(e) => {
                    tracing::error!(game = %self.id, error = %e, "cannot reload a game from the store; retrying");
                    if self.me.upgrade().is_none() {
                        return false;
                    }
                    self.failures += 1;
                    delay *= 2;
                }
            }
        }
    }

    fn status(&self) -> Status {
        if self.result.is_some() {
            Status::Ended
        } else if self.m.is_some() {
            Status::Playing
        } else {
            Status::Setup
        }
    }

    fn name(&self, s: Seat) -> &'static str {
        self.kind.seat_name(s)
    }

    fn next_deadline(&self, now: u64) -> Option<u64> {
        let mut d: Option<u64> = None;
        let mut at = |t: u64| d = Some(d.map_or(t, |x| x.min(t)));
        match self.status() {
            Status::Playing => {
                if let Some(t) = self.clocks.deadline() {
                    at(t);
                }
                if let Some((_, t)) = self.human_away_from_bot() {
                    at(t + self.app.config.bot_game_away_ms);
                }
            }
            Status::Setup => {
                for s in Seat::BOTH {
                    if let (None, Some(t)) = (&self.setups[s.index()], self.away_since[s.index()]) {
                        at(t + self.app.config.setup_grace_ms);
                    }
                }
            }
            Status::Ended => {
                if self.subs.is_empty() {
                    at(self.idle_since + IDLE_MS);
                }
            }
        }
        let _ = now;
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
    async fn check_time(&mut self) {
        let now = self.app.now();
        match self.status() {
            Status::Playing => {
                if let Some(s) = self.clocks.flagged(now) {
                    let _ = self
                        .commit(vec![Arb::End {
                            winner: Some(s.other().index()),
                            reason: EndReason::Time,
                        }])
                        .await;
                } else if let Some((s, t)) = self.human_away_from_bot() {
                    if now >= t + self.app.config.bot_game_away_ms {
                        tracing::info!(game = %self.id, "a bot game ends: its player has been gone");
                        let _ = self
                            .commit(vec![Arb::End {
                                winner: Some(s.other().index()),
                                reason: EndReason::Abandonment,
                            }])
                            .await;
                    }
                }
            }
            Status::Setup => {
                let gone = Seat::BOTH.map(|s| {
                    self.setups[s.index()].is_none()
                        && self.away_since[s.index()]
                            .is_some_and(|t| now >= t + self.app.config.setup_grace_ms)
                });
                let winner = match gone {
                    [true, true] => None,
                    [true, false] => Some(1),
                    [false, true] => Some(0),
                    [false, false] => return,
                };
                let _ = self
                    .commit(vec![Arb::End {
                        winner,
                        reason: EndReason::Abandonment,
                    }])
                    .await;
            }
            Status::Ended => {}
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join {
                viewer,
                conn,
                out,
                since,
            } => self.join(viewer, conn, out, since),
            Cmd::Leave { conn } => self.leave(conn),
            Cmd::Act { seat, act, reply } => {
                if reply.is_none() {
                    self.bot_busy[seat.index()] = false;
                }
                let r = self.act(seat, act).await;
                if let Err(e) = &r {
                    if reply.is_none() {
                        tracing::warn!(game = %self.id, error = %e, "a bot's action was refused");
                    }
                }
                if let Some(reply) = reply {
                    let _ = reply.send(r);
                }
                self.poke_bots();
            }
            Cmd::Record { copy, reply } => {
                let _ = reply.send(self.record(copy));
            }
            Cmd::Summary { reply } => {
                let _ = reply.send(self.summary());
            }
        }
    }

    /// The version of the last event.
    fn ver(&self) -> u64 {
        self.base + self.log.len() as u64
    }

    /// Keeps the legal moves of the seat to move, computed once per event.
    fn refresh_legal(&mut self) {
        self.legal = match &self.m {
            Some(m) if self.result.is_none() && m.to_move().is_some() => {
                let moves: Vec<String> = m.legal_moves().iter().map(ToString::to_string).collect();
                // Moves are written in plain ASCII (`e3-e4`, `c3`, `end`): nothing to escape.
                let mut json = String::with_capacity(moves.len() * 9 + 2);
                json.push('[');
                for (i, mv) in moves.iter().enumerate() {
                    if i > 0 {
                        json.push(',');
                    }
                    json.push('"');
                    json.push_str(mv);
                    json.push('"');
                }
                json.push(']');
                debug_assert_eq!(
                    serde_json::from_str::<Vec<String>>(&json).ok(),
                    Some(moves.clone())
                );
                (moves, json)
            }
            _ => (Vec::new(), String::new()),
        };
    }

    fn join(&mut self, viewer: Viewer, conn: u64, out: Outbox, since: Option<u64>) {
        let r = recipient(viewer);
        let ver = self.ver();
        let kept = |n: u64| {
            n >= self.base
                && n <= ver
                && self
                    .log
                    .range(usize::try_from(n - self.base).unwrap_or(usize::MAX)..)
                    .all(|f| !f[r].is_empty())
        };
        match since {
            Some(n) if kept(n) => {
                for v in n..ver {
                    out.send(self.frame(v + 1, r));
                }
            }
            _ => {
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

    fn leave(&mut self, conn: u64) {
        if let Some(sub) = self.subs.remove(&conn) {
            if let Viewer::Player(s) = sub.viewer {
                self.online[s.index()] -= 1;
                if self.online[s.index()] == 0 {
                    self.away_since[s.index()] = Some(self.app.now());
                    self.presence(s, false);
                }
            }
        }
        if self.subs.is_empty() {
            self.idle_since = self.app.now();
        }
    }

    fn presence(&mut self, s: Seat, online: bool) {
        let f: Arc<str> = format!(
            r#"{{"v":1,"t":"presence","game":{},"seat":"{}","online":{online}}}"#,
            self.id_json,
            self.name(s)
        )
        .into();
        self.subs.retain(|_, sub| sub.out.send(f.clone()));
    }

    async fn act(&mut self, seat: Seat, act: Act) -> Result<u64> {
        let st = self.status();
        let i = seat.index();
        let over = || {
            Error::Rejected(
                "the game is over; only chat and a rematch offer are possible now".into(),
            )
        };
        let arbs = match act {
            Act::Setup(choice) => {
                if st != Status::Setup || !self.kind.has_setups() {
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
                        wire::setup_from_json(&self.spec, seat, &v)
                            .map_err(|e| Error::BadRequest(e.to_string()))?;
                        v
                    }
                    SetupChoice::Random => self
                        .spec
                        .random_setup(seat, random_u64())
                        .map(|s| wire::setup_json(&s))
                        .map_err(|e| Error::BadRequest(e.to_string()))?,
                    SetupChoice::Bot(b) => {
                        let bot = Bot::parse(&b)?;
                        let spec = self.spec.clone();
                        tokio::task::spawn_blocking(move || {
                            bot.choose_setup(&spec, seat, random_u64())
                        })
                        .await
                        .map_err(|_| Error::Unavailable)??
                    }
                };
                let mut v = vec![Arb::Setup { seat: i, setup }];
                if self.setups[1 - i].is_some() {
                    v.push(Arb::Start);
                }
                v
            }
            Act::Move(mv) => {
                match st {
                    Status::Setup => {
                        return Err(Error::Rejected(
                            "the game has not started: both setups are not in yet".into(),
                        ));
                    }
                    Status::Ended => return Err(over()),
                    Status::Playing => {}
                }
                let m = self.m.as_ref().expect("playing");
                if m.to_move() != Some(seat) {
                    return Err(Error::Rejected(format!(
                        "it is {}'s turn, not {}'s",
                        m.to_move().map_or("nobody", |s| self.name(s)),
                        self.name(seat)
                    )));
                }
                if mv.len() > 16 {
                    return Err(Error::BadRequest("that is not a move".into()));
                }
                if !self.legal.0.contains(&mv) {
                    // Refused: the engine says why in the mover's terms; nothing changes.
                    let m = self.m.as_mut().expect("playing");
                    let e = m
                        .parse_move(&mv)
                        .and_then(|t| m.check_move(&t))
                        .err()
                        .map_or_else(|| format!("illegal move {mv}"), |e| e.to_string());
                    return Err(Error::Rejected(e));
                }
                vec![Arb::Move { seat: i, mv }]
            }
            Act::Resign => {
                if st == Status::Ended {
                    return Err(over());
                }
                vec![Arb::End {
                    winner: Some(1 - i),
                    reason: EndReason::Resignation,
                }]
            }
            Act::DrawOffer => {
                if st != Status::Playing {
                    return Err(Error::Rejected(
                        "a draw can be offered only while the game is being played".into(),
                    ));
                }
                match self.draw_offer {
                    Some(s) if s == seat => {
                        return Err(Error::Rejected("you have already offered a draw".into()));
                    }
                    Some(_) => vec![Arb::End {
                        winner: None,
                        reason: EndReason::Agreement,
                    }],
                    None => vec![Arb::DrawOffer { seat: i }],
                }
            }
            Act::DrawAccept | Act::DrawDecline => {
                if st != Status::Playing || self.draw_offer != Some(seat.other()) {
                    return Err(Error::Rejected(
                        "there is no draw offer from your opponent to answer".into(),
                    ));
                }
                if matches!(act, Act::DrawAccept) {
                    vec![Arb::End {
                        winner: None,
                        reason: EndReason::Agreement,
                    }]
                } else {
                    vec![Arb::DrawDecline { seat: i }]
                }
            }
            Act::Rematch => {
                if st != Status::Ended {
                    return Err(Error::Rejected(
                        "a rematch can be offered once the game is over".into(),
                    ));
                }
                if self.rematch.is_some() {
                    return Err(Error::Rejected(
                        "the rematch has already been agreed".into(),
                    ));
                }
                match self.rematch_offer {
                    Some(s) if s == seat => {
                        return Err(Error::Rejected("you have already offered a rematch".into()));
                    }
                    Some(_) => {
                        let spec = crate::app::NewGame {
                            kind: self.kind,
                            options: self.options.clone(),
                            clock: self.clocks.control,
                            players: [self.players[1].clone(), self.players[0].clone()],
                            public: self.public,
                        };
                        let id = self.app.create_game(spec).await?;
                        vec![Arb::Rematch { game: id }]
                    }
                    None => vec![Arb::RematchOffer { seat: i }],
                }
            }
            Act::Chat(text) => {
                let text = text.trim().to_string();
                if text.is_empty() || text.chars().count() > 500 {
                    return Err(Error::BadRequest(
                        "a chat message has 1 to 500 characters".into(),
                    ));
                }
                let c = &self.app.config;
                if self.chat_count >= c.chat_max {
                    return Err(self.app.limited(format!(
                        "this game's chat is full ({} lines); it takes no more",
                        c.chat_max
                    )));
                }
                let now = self.app.now();
                let (tokens, at) = &mut self.chat_tokens[i];
                *tokens = (*tokens
                    + now.saturating_sub(*at) as f64 * f64::from(c.chat_per_minute) / 60_000.0)
                    .min(f64::from(c.chat_burst));
                *at = now;
                if *tokens < 1.0 {
                    return Err(self.app.limited(format!(
                        "too many chat lines: at most {} a minute; this one was not sent",
                        c.chat_per_minute
                    )));
                }
                *tokens -= 1.0;
                vec![Arb::Chat { seat: i, text }]
            }
            Act::Claim => {
                if st == Status::Ended {
                    return Err(over());
                }
                let o = seat.other();
                let now = self.app.now();
                // During the setup phase a seat has the setup grace (3 minutes by default)
                // to come back and set up; the game ends by itself once it is past.
                let grace = if st == Status::Setup {
                    self.app.config.setup_grace_ms
                } else {
                    self.app.config.grace_ms
                };
                match self.away_since[o.index()] {
                    Some(t) if now >= t + grace => vec![Arb::End {
                        winner: Some(i),
                        reason: EndReason::Abandonment,
                    }],
                    Some(t) => {
                        return Err(Error::Rejected(format!(
                            "your opponent left {} s ago; you can claim the win after {} s",
                            (now - t) / 1000,
                            grace / 1000
                        )));
                    }
                    None => {
                        return Err(Error::Rejected(
                            "your opponent is connected; there is nothing to claim".into(),
                        ));
                    }
                }
            }
        };
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

    /// Applies `arbs`, stores them, and once durable sends each recipient its view.
    async fn commit(&mut self, arbs: Vec<Arb>) -> Result<u64> {
        let now = self.app.now();
        let mut ops = Vec::with_capacity(arbs.len() + 1);
        let first = self.ver();
        let was_started = self.m.is_some();
        let mut arbs = arbs;
        let mut k = 0;
        while k < arbs.len() {
            let arb = &arbs[k];
            k += 1;
            let views = match self.apply(arb, now, true) {
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
            let id = &self.id_json;
            self.log.push_back(views.map(|e| {
                if e.is_empty() {
                    return Arc::from("");
                }
                let mut f = String::with_capacity(e.len() + id.len() + 48);
                f.push_str(r#"{"v":1,"t":"event","game":"#);
                f.push_str(id);
                f.push_str(r#","ver":"#);
                f.push_str(&ver.to_string());
                f.push_str(r#","e":"#);
                f.push_str(&e);
                f.push('}');
                Arc::from(f)
            }));
            if self.log.len() > KEEP_EVENTS {
                self.log.pop_front();
                self.base += 1;
            }
            if k == arbs.len() && self.result.is_none() {
                // A move that ends the game on the board is followed by its end.
                if let Some(o) = self.m.as_ref().and_then(|m| m.outcome()) {
                    arbs.push(Arb::End {
                        winner: o.winner.map(Seat::index),
                        reason: o.reason,
                    });
                }
            }
        }
        if let Some(o) = self.result {
            if arbs.iter().any(|a| matches!(a, Arb::End { .. })) {
                ops.push(Op::Result {
                    game: self.id.clone(),
                    result: json!({"winner": o.winner.map(|s| self.name(s)), "reason": o.reason})
                        .to_string(),
                });
            }
        }
        if let Err(e) = self.app.store.write(ops).await {
            tracing::error!(game = %self.id, error = %e, "could not store an event; reloading the game");
            self.broken = true;
            return Err(e);
        }
        self.refresh_legal();
        let last = self.ver();
        for ver in first + 1..=last {
            for r in 0..3 {
                let f = self.frame(ver, r);
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
        self.subs.retain(|_, s| !s.out.tx.is_closed());
        if let Some(s) = self.m.as_ref().and_then(|m| m.to_move()) {
            if self.result.is_none() {
                for sub in self.subs.values() {
                    if sub.viewer == Viewer::Player(s) {
                        self.send_legal_to(&sub.out, s);
                    }
                }
            }
        }
        if (!was_started && self.m.is_some()) || self.result.is_some() {
            self.app.lobby_game(&self.id, self.lobby_summary());
        }
        if arbs.iter().any(|a| matches!(a, Arb::End { .. })) {
            if self.public {
                self.app.game_ended(self.summary());
            }
            if self.bots.iter().any(Option::is_some) {
                self.app.bot_game_over(&self.id, &self.players);
            }
        }
        self.failures = 0;
        Ok(last)
    }

    /// Applies one account to the state; returns what each recipient sees of it (JSON
    /// text; empty when `views` is false).
    fn apply(&mut self, arb: &Arb, now: u64, views: bool) -> Result<[String; 3]> {
        let kind = self.kind;
        let public = |v: Value| [v.clone(), v.clone(), v];
        let out = match arb {
            Arb::Setup { seat, setup } => {
                self.setups[*seat] = Some(setup.clone());
                let s = self.name(Seat::from_index(*seat));
                let mut v = public(json!({"type": "setup", "seat": s}));
                v[*seat]["setup"] = setup.clone();
                v
            }
            Arb::Start => {
                let mut req = serde_json::Map::new();
                if kind.has_setups() {
                    let mut s = serde_json::Map::new();
                    for seat in Seat::BOTH {
                        let setup = self.setups[seat.index()].clone().ok_or_else(|| {
                            Error::Storage("a game started without both setups".into())
                        })?;
                        s.insert(self.name(seat).into(), setup);
                    }
                    req.insert("setups".into(), Value::Object(s));
                }
                let m = wire::new_match(&self.spec, &req, self.seed)
                    .map_err(|e| Error::BadRequest(e.to_string()))?;
                let first = m.to_move().unwrap_or(Seat::First);
                self.m = Some(m);
                self.clocks.start(first, now);
                if !views {
                    return Ok(Default::default());
                }
                let m = self.m.as_ref().expect("just set");
                let commitments: serde_json::Map<String, Value> = m
                    .commitment_list()
                    .into_iter()
                    .map(|(a, b)| (a, Value::String(b)))
                    .collect();
                [0, 1, 2].map(|r| {
                    json!({"type": "start", "commitments": commitments,
                           "to_move": m.to_move().map(|s| kind.seat_name(s)),
                           "clocks": self.clocks.json(kind, now),
                           "observation": m.observe_json(viewer_of(r))})
                })
            }
            Arb::Move { seat, mv } => {
                let seat = Seat::from_index(*seat);
                let m = self
                    .m
                    .as_mut()
                    .ok_or_else(|| Error::Storage("a move before the start".into()))?;
                let replay = |e| Error::Storage(format!("a stored move does not replay: {e}"));
                let mv = m.parse_move(mv).map_err(replay)?;
                let sent = if views {
                    Some(m.play_sent(mv).map_err(replay)?)
                } else {
                    m.play(mv).map_err(replay)?;
                    None
                };
                self.clocks.press(seat, now);
                if m.to_move().is_none() {
                    self.clocks.stop(now);
                }
                self.draw_offer = None;
                let Some(sent) = sent else {
                    return Ok(Default::default());
                };
                let m = self.m.as_ref().expect("playing");
                // Written as text directly (the most frequent event), in the order
                // `json!` would write it.
                let to_move = Value::from(m.to_move().map(|s| kind.seat_name(s)));
                let clocks = self.clocks.json(kind, now);
                let colours = m.seat_colours().map(|c| {
                    json!({kind.seat_name(Seat::First): c[0], kind.seat_name(Seat::Second): c[1]})
                });
                let watched = self.watched();
                let mut r = 0;
                return Ok(sent.map(|view| {
                    use std::fmt::Write;
                    r += 1;
                    if r == 3 && !watched {
                        // Nobody to send it to now; a spectator who joins later gets a sync.
                        return String::new();
                    }
                    // The recipient's whole view after the ply, so clients need not rebuild it.
                    let observation = m.observe_json_text(viewer_of(r - 1));
                    let mut e = String::with_capacity(observation.len() + 256);
                    let _ = write!(
                        e,
                        r#"{{"type":"move","view":{view},"to_move":{to_move},"clocks":{clocks}"#
                    );
                    if let Some(c) = &colours {
                        let _ = write!(e, r#","colours":{c}"#);
                    }
                    let _ = write!(e, r#","observation":{observation}}}"#);
                    e
                }));
            }
            Arb::DrawOffer { seat } => {
                self.draw_offer = Some(Seat::from_index(*seat));
                public(json!({"type": "draw_offer", "seat": self.name(Seat::from_index(*seat))}))
            }
            Arb::DrawDecline { seat } => {
                self.draw_offer = None;
                public(json!({"type": "draw_decline", "seat": self.name(Seat::from_index(*seat))}))
            }
            Arb::RematchOffer { seat } => {
                self.rematch_offer = Some(Seat::from_index(*seat));
                public(json!({"type": "rematch_offer", "seat": self.name(Seat::from_index(*seat))}))
            }
            Arb::Rematch { game } => {
                self.rematch = Some(game.clone());
                public(json!({"type": "rematch", "game": game}))
            }
            Arb::Chat { seat, text } => {
                let s = Seat::from_index(*seat);
                let e = json!({"type": "chat", "seat": self.name(s),
                               "name": self.players[*seat].name, "text": text});
                self.chat.push_back(json!({"seat": self.name(s),
                                      "name": self.players[*seat].name, "text": text}));
                self.chat_count += 1;
                if self.chat.len() > self.app.config.chat_keep {
                    self.chat.pop_front();
                }
                [e.clone(), e, Value::Null]
            }
            Arb::End { winner, reason } => {
                let o = Outcome {
                    winner: winner.map(Seat::from_index),
                    reason: *reason,
                };
                self.clocks.stop(now);
                if let Some(m) = self.m.as_mut() {
                    if m.outcome().is_none() {
                        m.conclude(o)
                            .map_err(|e| Error::Storage(format!("an end does not apply: {e}")))?;
                    }
                }
                self.result = Some(o);
                self.draw_offer = None;
                if !views {
                    return Ok(Default::default());
                }
                public(json!({"type": "end", "result": self.result_json(),
                              "clocks": self.clocks.json(kind, now), "reveal": self.reveal()}))
            }
        };
        Ok(out.map(|v| v.to_string()))
    }

    fn result_json(&self) -> Value {
        self.result.map_or(
            Value::Null,
            |o| json!({"winner": o.winner.map(|s| self.name(s)), "reason": o.reason}),
        )
    }

    /// Everything that was hidden, for after the end: both armies or the deal, the salts,
    /// the seed, and the arbiter's observation. Nothing for a game played with
    /// `reveal_at_end=false`.
    fn reveal(&self) -> Value {
        if self.result.is_none() || !reveals_at_end(&self.options) {
            return Value::Null;
        }
        let Some(m) = &self.m else {
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
                parts.insert(name.clone(), wire::placements_json(t));
            }
            if let Some(t) = rec.tag(&format!("{name}Salt")) {
                salts.insert(name.clone(), Value::String(t.to_string()));
            }
        }
        json!({"parts": parts, "salts": salts, "seed": self.seed.to_string(),
               "observation": m.observe_json(Viewer::Arbiter)})
    }

    /// The frame of event `ver` for recipient `r` (`ver` must be kept in `log`).
    fn frame(&self, ver: u64, r: usize) -> Arc<str> {
        self.log[usize::try_from(ver - 1 - self.base).expect("small")][r].clone()
    }

    /// Whether a spectator is watching.
    fn watched(&self) -> bool {
        self.subs.values().any(|s| recipient(s.viewer) == 2)
    }

    fn sync_frame(&self, r: usize) -> Arc<str> {
        let viewer = viewer_of(r);
        let kind = self.kind;
        let now = self.app.now();
        let mut players = serde_json::Map::new();
        for s in Seat::BOTH {
            let p = &self.players[s.index()];
            players.insert(self.name(s).into(), json!({"name": p.name, "bot": p.bot}));
        }
        let mut setups = serde_json::Map::new();
        for s in Seat::BOTH {
            setups.insert(self.name(s).into(), self.setups[s.index()].is_some().into());
        }
        let status = match self.status() {
            Status::Setup => "setup",
            Status::Playing => "playing",
            Status::Ended => "ended",
        };
        let mut st = json!({
            "game": self.id, "kind": kind.name(), "options": self.options, "public": self.public,
            "players": players, "clock": self.clocks.control,
            "seat": viewer.seat().map(|s| self.name(s)), "status": status, "setups": setups,
            "clocks": self.clocks.json(kind, now),
            "draw_offer": self.draw_offer.map(|s| self.name(s)),
            "rematch_offer": self.rematch_offer.map(|s| self.name(s)),
            "rematch": self.rematch, "result": self.result_json(),
        });
        if let Some(s) = viewer.seat() {
            st["your_setup"] = self.setups[s.index()].clone().unwrap_or(Value::Null);
            st["chat"] = Value::Array(self.chat.iter().cloned().collect());
        }
        if let Some(m) = &self.m {
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
        if self.result.is_some() {
            st["reveal"] = self.reveal();
        }
        format!(
            r#"{{"v":1,"t":"sync","game":{},"ver":{},"state":{st}}}"#,
            self.id_json,
            self.ver()
        )
        .into()
    }

    fn send_legal_to(&self, out: &Outbox, s: Seat) {
        let Some(m) = &self.m else { return };
        if self.result.is_some() || m.to_move() != Some(s) {
            return;
        }
        out.send(
            format!(
                r#"{{"v":1,"t":"legal","game":{},"ver":{},"moves":{}}}"#,
                self.id_json,
                self.ver(),
                self.legal.1
            )
            .into(),
        );
    }

    fn send_rematch_seats(&self, game: &str) {
        for sub in self.subs.values() {
            if let Viewer::Player(s) = sub.viewer {
                // Seats swap in the rematch.
                let new = s.other();
                let f = json!({"v": 1, "t": "seat", "game": game, "seat": self.name(new),
                               "seat_token": self.app.seat_token(game, new)});
                sub.out.send(f.to_string().into());
            }
        }
    }

    fn record(&self, copy: Copy) -> Result<String> {
        let m = self.m.as_ref().ok_or_else(|| {
            Error::Rejected("the game has no record yet: it has not started".into())
        })?;
        if copy == Copy::Full && self.result.is_none() {
            return Err(Error::Forbidden(
                "the full record is available once the game is over; a seat may download its own copy with its seat token".into(),
            ));
        }
        if copy == Copy::Full && !reveals_at_end(&self.options) {
            return Err(Error::Forbidden(
                "this game was played with reveal_at_end=false: its full record is never published; each player may download their own copy with their seat token".into(),
            ));
        }
        let mut m = m.clone();
        for s in Seat::BOTH {
            let tag = match s {
                Seat::First => "First",
                Seat::Second => "Second",
            };
            m.set_record_tag(tag, self.players[s.index()].name.clone());
        }
        m.set_record_tag("Site", format!("salpakan server, game {}", self.id));
        Ok(m.record(copy).to_text())
    }

    fn summary(&self) -> Value {
        let mut players = serde_json::Map::new();
        for s in Seat::BOTH {
            let p = &self.players[s.index()];
            players.insert(self.name(s).into(), json!({"name": p.name, "bot": p.bot}));
        }
        let status = match self.status() {
            Status::Setup => "setup",
            Status::Playing => "playing",
            Status::Ended => "ended",
        };
        json!({"game": self.id, "kind": self.kind.name(), "options": self.options,
               "clock": self.clocks.control, "players": players, "status": status,
               "public": self.public, "ply": self.m.as_ref().map_or(0, |m| m.ply()),
               "ver": self.ver(), "result": self.result_json(), "rematch": self.rematch})
    }

    fn lobby_summary(&self) -> Option<Value> {
        (self.public && self.result.is_none()).then(|| self.summary())
    }

    /// Starts whatever the bots must do now: a setup, a move, an answer to a draw offer or
    /// a rematch offer.
    fn poke_bots(&mut self) {
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
            let act: Option<tokio::task::JoinHandle<Option<Act>>> = match self.status() {
                Status::Setup if self.setups[i].is_none() && self.kind.has_setups() => {
                    Some(tokio::task::spawn(async move {
                        Some(Act::Setup(SetupChoice::Bot(bot.spec())))
                    }))
                }
                Status::Playing => {
                    let m = self.m.as_ref().expect("playing");
                    if self.draw_offer == Some(s.other()) {
                        let m = m.clone();
                        Some(tokio::task::spawn_blocking(move || {
                            Some(if bot.accepts_draw(&m, s) {
                                Act::DrawAccept
                            } else {
                                Act::DrawDecline
                            })
                        }))
                    } else if m.to_move() == Some(s) {
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
                    } else {
                        None
                    }
                }
                Status::Ended
                    if self.rematch_offer == Some(s.other()) && self.rematch.is_none() =>
                {
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

fn storage(e: impl std::fmt::Display) -> Error {
    Error::Storage(e.to_string())
}

/// Whether a game's canonical options reveal everything at the end (`reveal_at_end`,
/// on unless a game's options turn it off).
#[must_use]
pub fn reveals_at_end(options: &Value) -> bool {
    match options.get("reveal_at_end") {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s != "false",
        _ => true,
    }
}

/// A 256-bit seed for a live game's hidden state and salts, from the operating system's
/// secure source (secret until the game ends).
///
/// # Panics
/// If the operating system has no random source.
#[must_use]
pub fn random_seed() -> MatchSeed {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).expect("the OS random source works");
    MatchSeed::Full(key)
}

/// A fresh random number from the operating system's secure source.
///
/// # Panics
/// If the operating system has no random source.
#[must_use]
pub fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).expect("the OS random source works");
    u64::from_le_bytes(b)
}
