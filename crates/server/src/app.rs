//! The shared state of a running server: the store, identities, the registry of game
//! tasks, the lobby (open seeks and games in progress) and per-user notifications.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use salpakan_engine::{GameKind, Seat};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::clock::{TimeControl, TimeSource};
use crate::error::{Error, Result};
use crate::game::{Cmd, Game, Outbox, Player, random_u64};
use crate::identity::{Identity, User, hex, random_hex, same_secret};
use crate::store::{GameRow, Op, Store};

/// Server settings.
#[derive(Clone)]
pub struct Config {
    /// Where the time comes from (tests inject a manual clock).
    pub time: Arc<dyn TimeSource>,
    /// How long a player may stay disconnected before the opponent may claim the win (ms).
    pub grace_ms: u64,
    /// How long a seat may stay away during the setup phase before it loses (ms).
    pub setup_grace_ms: u64,
    /// Messages a connection may send per second, on average.
    pub rate_per_s: u32,
    /// Messages a connection may send in a burst.
    pub burst: u32,
    /// The largest message accepted, in bytes.
    pub max_message: usize,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("grace_ms", &self.grace_ms)
            .field("setup_grace_ms", &self.setup_grace_ms)
            .field("rate_per_s", &self.rate_per_s)
            .field("burst", &self.burst)
            .field("max_message", &self.max_message)
            .finish_non_exhaustive()
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            time: Arc::new(crate::clock::SystemTime::default()),
            grace_ms: 60_000,
            setup_grace_ms: 180_000,
            rate_per_s: 20,
            burst: 40,
            max_message: 16 * 1024,
        }
    }
}

/// What a new game needs.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Which game.
    pub kind: GameKind,
    /// Canonical options.
    pub options: Value,
    /// Time control, none for untimed.
    pub clock: Option<TimeControl>,
    /// The seats, first then second.
    pub players: [Player; 2],
    /// Listed in the lobby.
    pub public: bool,
}

/// An open seek or private challenge.
#[derive(Clone, Debug)]
pub struct Seek {
    /// Its id (the secret part of a challenge link).
    pub id: String,
    /// Who made it.
    pub user: User,
    /// Which game.
    pub kind: GameKind,
    /// Canonical options.
    pub options: Value,
    /// Time control.
    pub clock: Option<TimeControl>,
    /// The seat the creator wants, or none for either.
    pub seat: Option<Seat>,
    /// Listed in the lobby (a seek) or only by link (a challenge).
    pub public: bool,
}

impl Seek {
    /// The seek as JSON for clients.
    #[must_use]
    pub fn json(&self) -> Value {
        json!({"id": self.id, "by": self.user.name, "by_id": self.user.id, "kind": self.kind.name(),
               "options": self.options, "clock": self.clock,
               "seat": self.seat.map(|s| self.kind.seat_name(s)), "public": self.public})
    }
}

/// The running server's state.
pub struct App {
    /// Settings.
    pub config: Config,
    /// The store.
    pub store: Store,
    /// Identities.
    pub identity: Arc<dyn Identity>,
    secret: Vec<u8>,
    games: Mutex<HashMap<String, mpsc::Sender<Cmd>>>,
    seeks: Mutex<BTreeMap<String, Seek>>,
    live: Mutex<BTreeMap<String, Value>>,
    lobby_tx: broadcast::Sender<Arc<str>>,
    users: Mutex<HashMap<String, Vec<Outbox>>>,
    user_games: Mutex<HashMap<String, Vec<(String, Seat)>>>,
    ended: Mutex<std::collections::VecDeque<Value>>,
}

/// How many recently finished public games `GET /api/games?status=ended` lists.
const RECENT_ENDED: usize = 100;

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl App {
    /// Opens the store at `db`, rebuilds every unfinished game and starts its task.
    ///
    /// # Errors
    /// The store cannot be opened, or a stored game does not rebuild.
    pub fn start(db: &std::path::Path, config: Config) -> Result<Arc<App>> {
        let (store, loaded) = Store::open(db)?;
        let identity = crate::identity::GuestIdentity::new(store.clone(), loaded.guests);
        let (lobby_tx, _) = broadcast::channel(1024);
        let app = Arc::new(App {
            config,
            store,
            identity,
            secret: loaded.secret,
            games: Mutex::new(HashMap::new()),
            seeks: Mutex::new(BTreeMap::new()),
            live: Mutex::new(BTreeMap::new()),
            lobby_tx,
            users: Mutex::new(HashMap::new()),
            user_games: Mutex::new(HashMap::new()),
            ended: Mutex::new(std::collections::VecDeque::new()),
        });
        for row in &loaded.finished {
            app.index_players(row);
            if let Some(s) = ended_summary(row) {
                app.game_ended(s);
            }
        }
        let n = loaded.unfinished.len();
        for (row, events) in &loaded.unfinished {
            app.index_players(row);
            let g = Game::restore(app.clone(), row, events)?;
            app.spawn(&row.id, g);
        }
        tracing::info!(games = n, "restored unfinished games");
        Ok(app)
    }

    /// Now, from the configured time source (ms).
    #[must_use]
    pub fn now(&self) -> u64 {
        self.config.time.now_ms()
    }

    fn index_players(&self, row: &GameRow) {
        let Ok(players) = serde_json::from_str::<[Player; 2]>(&row.players) else {
            return;
        };
        let mut ug = self.user_games.lock().expect("lock");
        for s in Seat::BOTH {
            if let Some(u) = &players[s.index()].user {
                ug.entry(u.clone()).or_default().push((row.id.clone(), s));
            }
        }
    }

    fn spawn(&self, id: &str, g: Game) -> mpsc::Sender<Cmd> {
        let (tx, rx) = mpsc::channel(256);
        self.games
            .lock()
            .expect("lock")
            .insert(id.to_string(), tx.clone());
        tokio::spawn(g.run(tx.clone(), rx));
        tx
    }

    /// A game's task has stopped (finished and idle, or broken and to be reloaded).
    pub fn game_stopped(&self, id: &str) {
        self.games.lock().expect("lock").remove(id);
    }

    /// The task of game `id`, loading a stored game when it is not running.
    ///
    /// # Errors
    /// [`Error::UnknownGame`].
    pub async fn game(self: &Arc<Self>, id: &str) -> Result<mpsc::Sender<Cmd>> {
        if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::UnknownGame(id.chars().take(32).collect()));
        }
        if let Some(tx) = self.games.lock().expect("lock").get(id) {
            if !tx.is_closed() {
                return Ok(tx.clone());
            }
        }
        let (row, events) = self.store.load_game(id).await?;
        let g = Game::restore(self.clone(), &row, &events)?;
        if let Some(tx) = self.games.lock().expect("lock").get(id) {
            if !tx.is_closed() {
                return Ok(tx.clone());
            }
        }
        Ok(self.spawn(id, g))
    }

    /// Sends `cmd` to game `id` and waits for the answer `rx`.
    ///
    /// # Errors
    /// An unknown game, or a stopped task.
    pub async fn ask<T>(
        self: &Arc<Self>,
        id: &str,
        cmd: Cmd,
        rx: oneshot::Receiver<T>,
    ) -> Result<T> {
        let tx = self.game(id).await?;
        tx.send(cmd).await.map_err(|_| Error::Unavailable)?;
        rx.await.map_err(|_| Error::Unavailable)
    }

    /// Creates and stores a game, starts its task, and tells its human players.
    ///
    /// # Errors
    /// A storage failure.
    pub async fn create_game(self: &Arc<Self>, spec: NewGame) -> Result<String> {
        let id = random_hex(6);
        let row = GameRow {
            id: id.clone(),
            kind: spec.kind.name().into(),
            options: spec.options.to_string(),
            seed: random_u64(),
            clock: serde_json::to_string(&spec.clock).expect("serializes"),
            players: serde_json::to_string(&spec.players).expect("serializes"),
            public: spec.public,
            result: None,
        };
        self.store.write(vec![Op::Game(row.clone())]).await?;
        self.index_players(&row);
        let g = Game::restore(self.clone(), &row, &[])?;
        self.spawn(&id, g);
        for s in Seat::BOTH {
            if let Some(u) = &spec.players[s.index()].user {
                let f = json!({"v": 1, "t": "seat", "game": id, "seat": spec.kind.seat_name(s),
                               "seat_token": self.seat_token(&id, s)});
                self.notify_user(u, &f.to_string());
            }
        }
        tracing::info!(game = %id, kind = %spec.kind, "game created");
        Ok(id)
    }

    /// The token that lets its holder play `seat` of game `game`. Derived from the server's
    /// secret, so that it is never stored.
    #[must_use]
    pub fn seat_token(&self, game: &str, seat: Seat) -> String {
        let mut h = Sha256::new();
        h.update(b"salpakan seat token\0");
        h.update(&self.secret);
        h.update(game.as_bytes());
        h.update([0, seat.index() as u8]);
        hex(&h.finalize()[..24])
    }

    /// The seat a seat token is for, in game `game`.
    #[must_use]
    pub fn check_seat_token(&self, game: &str, token: &str) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|&s| same_secret(&self.seat_token(game, s), token))
    }

    /// The games `user` sits in, with their seats.
    #[must_use]
    pub fn games_of(&self, user: &str) -> Vec<(String, Seat)> {
        self.user_games
            .lock()
            .expect("lock")
            .get(user)
            .cloned()
            .unwrap_or_default()
    }

    /// Registers a connection for `user`'s notifications.
    pub fn subscribe_user(&self, user: &str, out: Outbox) {
        self.users
            .lock()
            .expect("lock")
            .entry(user.to_string())
            .or_default()
            .push(out);
    }

    fn notify_user(&self, user: &str, frame: &str) {
        let mut users = self.users.lock().expect("lock");
        if let Some(outs) = users.get_mut(user) {
            let f: Arc<str> = frame.into();
            outs.retain(|o| o.send(f.clone()));
            if outs.is_empty() {
                users.remove(user);
            }
        }
    }

    /// Lobby updates.
    #[must_use]
    pub fn lobby_updates(&self) -> broadcast::Receiver<Arc<str>> {
        self.lobby_tx.subscribe()
    }

    /// The lobby now: open public seeks and public games in progress.
    #[must_use]
    pub fn lobby(&self) -> Value {
        let seeks: Vec<Value> = self
            .seeks
            .lock()
            .expect("lock")
            .values()
            .filter(|s| s.public)
            .map(Seek::json)
            .collect();
        let games: Vec<Value> = self.live.lock().expect("lock").values().cloned().collect();
        json!({"seeks": seeks, "games": games})
    }

    fn lobby_send(&self, frame: Value) {
        let _ = self.lobby_tx.send(frame.to_string().into());
    }

    /// A game's lobby entry changed: `Some` while it is public and in progress.
    pub fn lobby_game(&self, id: &str, summary: Option<Value>) {
        let mut live = self.live.lock().expect("lock");
        match summary {
            Some(s) => {
                let new = live.insert(id.to_string(), s.clone()).is_none();
                drop(live);
                if new {
                    self.lobby_send(json!({"v": 1, "t": "game_added", "game": s}));
                }
            }
            None => {
                if live.remove(id).is_some() {
                    drop(live);
                    self.lobby_send(json!({"v": 1, "t": "game_removed", "game": id}));
                }
            }
        }
    }

    /// A public game has ended: it joins the list of recently finished games.
    pub fn game_ended(&self, summary: Value) {
        let mut e = self.ended.lock().expect("lock");
        e.retain(|g| g["game"] != summary["game"]);
        e.push_front(summary);
        e.truncate(RECENT_ENDED);
    }

    /// Recently finished public games, newest first (public facts only).
    #[must_use]
    pub fn recent_ended(&self) -> Vec<Value> {
        self.ended.lock().expect("lock").iter().cloned().collect()
    }

    /// Opens a seek (public) or a challenge (by link only).
    pub fn add_seek(&self, seek: Seek) {
        let j = seek.json();
        let public = seek.public;
        self.seeks
            .lock()
            .expect("lock")
            .insert(seek.id.clone(), seek);
        if public {
            self.lobby_send(json!({"v": 1, "t": "seek_added", "seek": j}));
        }
    }

    /// A seek by id.
    #[must_use]
    pub fn seek(&self, id: &str) -> Option<Seek> {
        self.seeks.lock().expect("lock").get(id).cloned()
    }

    /// Removes a seek; it is returned when it was open.
    pub fn take_seek(&self, id: &str) -> Option<Seek> {
        let s = self.seeks.lock().expect("lock").remove(id)?;
        if s.public {
            self.lobby_send(json!({"v": 1, "t": "seek_removed", "seek": id}));
        }
        Some(s)
    }

    /// Puts a seek back (its game could not be created).
    pub fn restore_seek(&self, seek: Seek) {
        self.add_seek(seek);
    }
}

/// The public summary of a stored finished game, when it is public.
fn ended_summary(row: &GameRow) -> Option<Value> {
    if !row.public {
        return None;
    }
    let kind: GameKind = row.kind.parse().ok()?;
    let players: [Player; 2] = serde_json::from_str(&row.players).ok()?;
    let mut p = serde_json::Map::new();
    for s in Seat::BOTH {
        let x = &players[s.index()];
        p.insert(
            kind.seat_name(s).into(),
            json!({"name": x.name, "bot": x.bot}),
        );
    }
    let parse = |t: &str| serde_json::from_str::<Value>(t).unwrap_or(Value::Null);
    Some(
        json!({"game": row.id, "kind": kind.name(), "options": parse(&row.options),
                "clock": parse(&row.clock), "players": p, "status": "ended", "public": true,
                "result": row.result.as_deref().map_or(Value::Null, parse)}),
    )
}
