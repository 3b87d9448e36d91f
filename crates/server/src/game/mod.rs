//! One game: an actor task that owns the match, the clocks and the per-recipient event log.
//!
//! Every change is an [`Arb`] (the server's own account: a setup, a move, a draw offer...).
//! The actor applies it, builds what each recipient may see of it (each seat's view, the
//! spectators' view; `null` for a recipient who may see nothing), writes it to the store,
//! and only once it is durable sends it. Restarting applies the stored accounts again.
//!
//! The actor is split by job:
//! - `msg.rs`: what a game is told ([`Cmd`], a seat's [`Act`]), answers ([`Reply`]) and
//!   stores ([`Arb`]);
//! - `decide.rs`: whether a seat's [`Act`] is allowed in the game's [`Phase`] (whose turn,
//!   setup, offers), and the accounts it makes;
//! - `apply.rs`: applying accounts (engine calls, state changes) and committing them;
//! - `outbox.rs`: the frames: building them once per view, fanning them out, catch-up;
//! - `bots.rs`: scheduling the bots' thinking;
//! - `rematch.rs`: agreeing a rematch and handing out its seats;
//! - `time.rs`: the clocks' and the absences' deadlines.
//!
//! It reaches the rest of the server only through a [`Host`] (the store, the settings, the
//! lobby and the game registry), never through the server's whole state.

mod apply;
mod bots;
mod decide;
mod msg;
mod outbox;
mod rematch;
mod time;

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use salpakan_engine::{
    AnyMatch, AnyMove, Copy, GameKind, GameSpec, MatchSeed, Outcome, Seat, Viewer, wire,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::bots::Bot;
use crate::clock::{Clocks, StoredClocks, TimeControl};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::protocol::Frame;
use crate::rating_book::{Finished, GameEnd};
use crate::store::{EventRow, GameRow, Store};

pub use msg::{Act, Arb, Cmd, Reply, SetupChoice};
pub use outbox::Outbox;
use outbox::Sub;

/// What a game needs of the rest of the server: the lobby, the registry of game tasks,
/// new games (a rematch) and seat tokens. The server's state implements it; a game never
/// holds that state itself.
pub trait Host: Send + Sync + 'static {
    /// A game's lobby entry changed: `Some` while it is public and in progress.
    fn lobby_game(&self, id: &str, summary: Option<Value>);
    /// A public game has ended (its summary).
    fn game_ended(&self, summary: Value);
    /// A game with a bot seat has ended.
    fn bot_game_over(&self, game: &str, players: &[Player; 2]);
    /// A game's task has stopped.
    fn game_stopped(&self, id: &str);
    /// Creates, stores and starts a new game; its id.
    fn create_game(&self, spec: NewGame) -> Pin<Box<dyn Future<Output = Result<String>> + Send>>;
    /// The token of `seat` in `game`.
    fn seat_token(&self, game: &str, seat: Seat) -> String;
    /// Counts a refusal by a limit and returns its error.
    fn limited(&self, why: String) -> Error;
    /// A game ends: the ratings and reputation rows to store with its result.
    fn game_over(&self, end: &GameEnd<'_>) -> Finished;
    /// The result of [`Host::game_over`] could not be stored: take it back.
    fn game_over_failed(&self, f: Finished);
}

/// The narrow handle a game holds: the store, the settings and its [`Host`].
#[derive(Clone)]
pub struct GameEnv {
    /// The store.
    pub store: Store,
    /// The server's settings.
    pub config: Arc<Config>,
    /// The rest of the server.
    pub host: Arc<dyn Host>,
}

impl GameEnv {
    /// Now, from the configured time source (ms).
    fn now(&self) -> u64 {
        self.config.time.now_ms()
    }
}

/// What a new game needs.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Which game.
    pub kind: GameKind,
    /// The game's options, checked.
    pub spec: GameSpec,
    /// Time control, none for untimed.
    pub clock: Option<TimeControl>,
    /// The seats, first then second.
    pub players: [Player; 2],
    /// Listed in the lobby.
    pub public: bool,
}

/// One seat's occupant.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Player {
    /// The user's id (none for a bot).
    pub user: Option<String>,
    /// Display name.
    pub name: String,
    /// The bot's spec, for a bot seat.
    pub bot: Option<String>,
    /// An account (or a built-in bot's account), not a guest.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub account: bool,
    /// The seat's rating moves with this game's result (`docs/ratings.md`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The built-in bot's account id, for a bot seat on a board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_account: Option<String>,
    /// The seat's rating on the game's board when the game was created (accounts only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
    /// Whether that rating was provisional.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
}

impl Player {
    /// The id its rating is kept under: the user's, or the bot's account.
    #[must_use]
    pub fn rating_id(&self) -> Option<&str> {
        self.user.as_deref().or(self.bot_account.as_deref())
    }
}

/// Where a game stands. The match exists exactly while it is being played or once it was
/// (a game can end during its setup phase, before any match).
enum Phase {
    /// Setups are being submitted (Banqi starts at once: its pieces are dealt).
    Setup,
    /// The match is being played.
    Playing {
        /// The match.
        m: AnyMatch,
        /// The seat whose draw offer is open.
        draw_offer: Option<Seat>,
    },
    /// The game is over.
    Over {
        /// The match, when it had started.
        m: Option<AnyMatch>,
        /// How it ended.
        result: Outcome,
        /// The seat whose rematch offer is open.
        rematch_offer: Option<Seat>,
        /// The rematch's game, once agreed.
        rematch: Option<String>,
    },
}

impl Phase {
    /// The match, once started.
    fn m(&self) -> Option<&AnyMatch> {
        match self {
            Phase::Playing { m, .. } | Phase::Over { m: Some(m), .. } => Some(m),
            _ => None,
        }
    }

    /// The result, once over.
    fn result(&self) -> Option<Outcome> {
        match self {
            Phase::Over { result, .. } => Some(*result),
            _ => None,
        }
    }

    /// The phase's name on the wire (`status`).
    fn name(&self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Playing { .. } => "playing",
            Phase::Over { .. } => "ended",
        }
    }

    /// The open draw offer.
    fn draw_offer(&self) -> Option<Seat> {
        match self {
            Phase::Playing { draw_offer, .. } => *draw_offer,
            _ => None,
        }
    }

    /// The open rematch offer and the agreed rematch.
    fn rematch(&self) -> (Option<Seat>, Option<&str>) {
        match self {
            Phase::Over {
                rematch_offer,
                rematch,
                ..
            } => (*rematch_offer, rematch.as_deref()),
            _ => (None, None),
        }
    }
}

/// How many recent events a game keeps, as sent, for clients catching up; one that missed
/// more (or events from before a restart) gets the full current view instead.
const KEEP_EVENTS: usize = 256;
/// How long a finished game's task waits without subscribers before it stops.
const IDLE_MS: u64 = 300_000;

/// What a game keeps of one recent event for clients catching up.
enum Kept {
    /// The frame each recipient was sent (empty for one nobody followed then).
    Sent([Frame; 3]),
    /// A move, the most frequent event: its frames (a few kilobytes, each carrying its
    /// recipient's whole observation) are written again from the match when a client
    /// catches up over it, from what is kept here.
    Move {
        /// The move.
        mv: AnyMove,
        /// The match's ply after it.
        ply: u32,
        /// The clocks as they were sent with it (JSON text).
        clocks: Box<str>,
        /// Whether spectators were sent a frame of it.
        watched: bool,
    },
}

/// A game's state, owned by its task.
pub struct Game {
    env: GameEnv,
    id: String,
    id_json: String,
    kind: GameKind,
    /// The options, read once.
    spec: GameSpec,
    /// The options as clients see them (canonical JSON, written once).
    options: Value,
    seed: MatchSeed,
    public: bool,
    players: [Player; 2],
    bots: [Option<Bot>; 2],
    /// Each seat's setup once submitted (kept after the start: a seat's `sync` shows its
    /// own, and a game that ends before its start reveals them).
    setups: [Option<Value>; 2],
    phase: Phase,
    clocks: Clocks,
    /// The players' last chat lines (for `sync`; spectators never get it), at most
    /// [`crate::Config::chat_keep`].
    chat: VecDeque<Value>,
    /// Chat lines in the game so far (at most [`crate::Config::chat_max`] are accepted).
    chat_count: usize,
    /// Each seat's chat allowance (lines) and when it was last topped up (ms).
    chat_tokens: [(f64, u64); 2],
    /// Failed writes in a row (the reload after each backs off).
    failures: u32,
    /// The last [`KEEP_EVENTS`] events, as much as is needed to send each again exactly
    /// as it was sent (spectators' frames only of events that someone watched: a spectator
    /// catching up over another gets a `sync`).
    log: VecDeque<Kept>,
    /// The version of the event before the first in `log`.
    base: u64,
    /// The legal moves of the seat to move as a JSON array (empty when none), for `legal`.
    legal: String,
    subs: HashMap<u64, Sub>,
    online: [usize; 2],
    away_since: [Option<u64>; 2],
    idle_since: u64,
    bot_busy: [bool; 2],
    me: mpsc::WeakSender<Cmd>,
    broken: bool,
    /// The game's rating board, none for casual-only options.
    board: Option<&'static str>,
    /// What the end being committed changes in the ratings (stored with the result).
    finishing: Option<Finished>,
    /// The rating changes of the end, for `sync` and the summary (until a restart).
    rating_change: Option<Value>,
}

/// A recipient's index in a game's frames: the seat's index, 2 for spectators.
fn recipient(v: Viewer) -> usize {
    match v {
        Viewer::Player(s) => s.index(),
        _ => 2,
    }
}

/// The viewer of a recipient index.
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
    pub fn restore(env: GameEnv, row: &GameRow, events: &[EventRow]) -> Result<Game> {
        let kind: GameKind = row.kind.parse().map_err(Error::Storage)?;
        let options: Value = serde_json::from_str(&row.options).map_err(storage)?;
        let spec = wire::spec_from_json(kind, &options).map_err(storage)?;
        let control: Option<TimeControl> = serde_json::from_str(&row.clock).map_err(storage)?;
        let players: [Player; 2] = serde_json::from_str(&row.players).map_err(storage)?;
        let now = env.now();
        let bots = [0, 1].map(|i| players[i].bot.as_deref().map(|b| Bot::restore(&row.id, b)));
        let away = [0, 1].map(|i| players[i].bot.is_none().then_some(now));
        let burst = f64::from(env.config.chat_burst);
        let mut g = Game {
            id_json: serde_json::to_string(&row.id).expect("a string serializes"),
            id: row.id.clone(),
            env,
            kind,
            spec,
            options,
            seed: row.seed,
            public: row.public,
            players,
            bots,
            setups: [None, None],
            phase: Phase::Setup,
            clocks: Clocks::new(control),
            chat: VecDeque::new(),
            chat_count: 0,
            chat_tokens: [(burst, now); 2],
            failures: 0,
            log: VecDeque::new(),
            base: events.len() as u64,
            legal: String::new(),
            subs: HashMap::new(),
            online: [0, 0],
            away_since: away,
            idle_since: now,
            bot_busy: [false, false],
            me: mpsc::channel(1).0.downgrade(),
            broken: false,
            board: None,
            finishing: None,
            rating_change: None,
        };
        g.board = crate::rating::board_of(&g.spec);
        for e in events {
            let arb: Arb = serde_json::from_str(&e.arb).map_err(storage)?;
            g.apply(&arb, now, false)?;
            let c: StoredClocks = serde_json::from_str(&e.clocks).map_err(storage)?;
            g.clocks.restore(c, now);
        }
        g.refresh_legal();
        Ok(g)
    }

    /// Runs the game's task until it is finished and idle.
    pub async fn run(mut self, tx: mpsc::Sender<Cmd>, mut rx: mpsc::Receiver<Cmd>) {
        self.me = tx.downgrade();
        drop(tx);
        if matches!(self.phase, Phase::Setup) && !self.kind.has_setups() {
            let _ = self.commit(vec![Arb::Start]).await;
        }
        self.poke_bots();
        self.env.host.lobby_game(&self.id, self.lobby_summary());
        loop {
            if self.broken && !self.recover().await {
                break;
            }
            let now = self.env.now();
            let sleep = self
                .next_deadline()
                .map(|d| Duration::from_millis(d.saturating_sub(now).max(1)));
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
            if matches!(self.phase, Phase::Over { .. })
                && self.subs.is_empty()
                && self.env.now().saturating_sub(self.idle_since) >= IDLE_MS
            {
                break;
            }
        }
        self.env.host.game_stopped(&self.id);
    }

    /// After a failed write (or an event that did not apply): tells the subscribers, then
    /// rebuilds the game from the store (retrying with backoff while the store cannot be
    /// read), keeps its subscribers and sends each a fresh `sync`. What was not stored was
    /// never acknowledged nor sent, so nothing anyone heard of is lost. False when the
    /// server is going away.
    async fn recover(&mut self) -> bool {
        self.send_storage_notice();
        self.failures += 1;
        let mut delay = Duration::from_millis(50 << self.failures.min(7).saturating_sub(1));
        loop {
            if self.failures > 1 {
                tokio::time::sleep(delay.min(Duration::from_secs(5))).await;
            }
            let loaded = self.env.store.load_game(&self.id).await;
            match loaded.and_then(|(row, ev)| Game::restore(self.env.clone(), &row, &ev)) {
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
                    self.send_syncs();
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

    /// The name of seat `s` in this game.
    fn name(&self, s: Seat) -> &'static str {
        self.kind.seat_name(s)
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
                match reply {
                    Some(Reply::Wait(tx)) => {
                        let _ = tx.send(r);
                    }
                    Some(Reply::Conn { conn, id }) => self.answer(conn, r, id.as_ref()),
                    None => {}
                }
                self.poke_bots();
            }
            Cmd::Record { copy, reply } => {
                let _ = reply.send(self.record(copy));
            }
            Cmd::Finished { reply } => {
                let _ = reply.send(self.finished());
            }
            Cmd::Summary { reply } => {
                let _ = reply.send(self.summary());
            }
            Cmd::Rename { user, name } => {
                for p in &mut self.players {
                    if p.user.as_deref() == Some(user.as_str()) {
                        p.name.clone_from(&name);
                    }
                }
            }
        }
    }

    /// The version of the last event.
    fn ver(&self) -> u64 {
        self.base + self.log.len() as u64
    }

    /// Keeps the legal moves of the seat to move as JSON text, written once per event (a
    /// move's legality is the engine's own check, not this list).
    fn refresh_legal(&mut self) {
        self.legal.clear();
        let Phase::Playing { m, .. } = &self.phase else {
            return;
        };
        if m.to_move().is_none() {
            return;
        }
        // Moves are written in plain ASCII (`e3-e4`, `c3`, `j8-j10+2@a4`): nothing to escape.
        self.legal.push('[');
        for (i, mv) in m.legal_moves().iter().enumerate() {
            if i > 0 {
                self.legal.push(',');
            }
            self.legal.push('"');
            mv.write_text(&mut self.legal);
            self.legal.push('"');
        }
        self.legal.push(']');
        debug_assert!(serde_json::from_str::<Vec<String>>(&self.legal).is_ok());
    }

    /// The finished match with its result, or why it cannot be analysed.
    fn finished(&self) -> Result<AnyMatch> {
        let Some(result) = self.phase.result() else {
            return Err(Error::Rejected(
                "the game is not over yet: analysis is only for finished games; ask again once it ends".into(),
            ));
        };
        let Some(m) = self.phase.m() else {
            return Err(Error::Rejected(
                "the game ended before its first move: there is nothing to analyse".into(),
            ));
        };
        let mut m = m.clone();
        if m.outcome().is_none() {
            m.conclude(result)?;
        }
        Ok(m)
    }

    fn record(&self, copy: Copy) -> Result<String> {
        let m = self.phase.m().ok_or_else(|| {
            Error::Rejected("the game has no record yet: it has not started".into())
        })?;
        let over = self.phase.result().is_some();
        if copy == Copy::Full && !over {
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
