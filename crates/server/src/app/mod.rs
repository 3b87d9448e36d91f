//! The shared state of a running server: the store, identities, the registry of game
//! tasks, the lobby (open seeks and games in progress) and per-user notifications.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use salpakan_engine::{GameKind, GameSpec, Seat, wire};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::clock::TimeControl;
pub use crate::config::{Config, Metrics};
use crate::error::{Error, Result};
use crate::game::{Cmd, Game, GameEnv, Host, NewGame, Outbox, Player, random_seed};
use crate::identity::{Identity, User, hex, random_hex, same_secret};
use crate::protocol::{self, Frame, ServerMsg};
use crate::store::{GameRow, Op, Store};

mod lobby;
mod users;

/// An open seek or private challenge.
#[derive(Clone, Debug)]
pub struct Seek {
    /// Its id (the secret part of a challenge link).
    pub id: String,
    /// Who made it.
    pub user: User,
    /// Which game.
    pub kind: GameKind,
    /// The game and its options, checked.
    pub spec: GameSpec,
    /// Time control.
    pub clock: Option<TimeControl>,
    /// The seat the creator wants, or none for either.
    pub seat: Option<Seat>,
    /// Listed in the lobby (a seek) or only by link (a challenge).
    pub public: bool,
    /// Rated (only between accounts, on a board, with a clock).
    pub rated: bool,
    /// The board of its options, none when they are casual only.
    pub board: Option<&'static str>,
    /// The least completion rate (percent) an acceptor must have.
    pub min_completion: Option<u8>,
    /// The lowest rating on the board an acceptor may have.
    pub rating_min: Option<i64>,
    /// The highest rating on the board an acceptor may have.
    pub rating_max: Option<i64>,
    /// The creator's rating on the board, when an account.
    pub by_rating: Option<i64>,
    /// Whether that rating is provisional.
    pub by_provisional: bool,
    /// The creator's completion rate (percent), none before 5 games.
    pub by_completion: Option<i64>,
}

impl Seek {
    /// The seek as JSON for clients.
    #[must_use]
    pub fn json(&self) -> Value {
        json!({"id": self.id, "by": self.user.name, "by_id": self.user.id, "kind": self.kind.name(),
               "options": wire::options_json(&self.spec), "clock": self.clock,
               "seat": self.seat.map(|s| self.kind.seat_name(s)), "public": self.public,
               "rated": self.rated, "board": self.board, "min_completion": self.min_completion,
               "rating_min": self.rating_min, "rating_max": self.rating_max,
               "by_account": self.user.account, "by_rating": self.by_rating,
               "by_provisional": self.by_provisional, "by_completion": self.by_completion})
    }
}

/// The lobby at one moment: open public seeks and public games in progress (public facts
/// only).
#[derive(Debug)]
pub struct LobbyView {
    /// Open public seeks (`Seek::json`).
    pub seeks: Vec<Value>,
    /// Public games in progress (their summaries).
    pub games: Vec<Value>,
}

/// The running server's state.
pub struct App {
    /// Settings.
    pub config: Arc<Config>,
    /// This state, for the games it starts (their [`Host`]).
    me: std::sync::Weak<App>,
    /// The store.
    pub store: Store,
    /// Identities: guests and accounts (this is [`App::accounts`]).
    pub identity: Arc<dyn Identity>,
    /// Accounts, sessions, API tokens, moderators.
    pub accounts: Arc<crate::account::Accounts>,
    secret: Vec<u8>,
    games: Mutex<HashMap<String, mpsc::Sender<Cmd>>>,
    seeks: Mutex<BTreeMap<String, Seek>>,
    live: Mutex<BTreeMap<String, Value>>,
    lobby_tx: broadcast::Sender<Frame>,
    users: Mutex<HashMap<String, Vec<Outbox>>>,
    user_games: Mutex<HashMap<String, Vec<(String, Seat)>>>,
    /// Each game's human players by seat (seat tokens derive from their keys).
    game_users: Mutex<HashMap<String, [Option<String>; 2]>>,
    ended: Mutex<std::collections::VecDeque<Value>>,
    /// Counters for operators.
    pub metrics: Metrics,
    pub(crate) conns: crate::net::Counts,
    guest_limit: governor::DefaultKeyedRateLimiter<std::net::IpAddr>,
    /// When each user was last seen (a request, a connection opened or closed).
    seen: Mutex<HashMap<String, u64>>,
    /// Each player's unfinished bot games.
    bot_games: Mutex<HashMap<String, std::collections::HashSet<String>>>,
    /// The arbiter tables for physical boards.
    pub(crate) tables: crate::table::Tables,
    /// Ratings and completion counts.
    pub(crate) book: crate::rating_book::Book,
    /// The wall clock (Unix ms) when the time source read 0.
    started_unix_ms: u64,
    /// Reports each player may still file (per user).
    pub(crate) report_limit: governor::DefaultKeyedRateLimiter<String>,
    /// Finished games' analyses queued or running.
    pub(crate) analyses: crate::analysis::Analyses,
}

/// Random bytes in a game or seek id (96 bits: not guessable).
pub const ID_BYTES: usize = 12;

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
        config.check()?;
        let (store, mut loaded) = Store::open(db)?;
        let quota = governor::Quota::per_minute(
            std::num::NonZeroU32::new(config.guests_per_minute).expect("checked"),
        )
        .allow_burst(std::num::NonZeroU32::new(config.guest_burst).expect("checked"));
        let guests = crate::identity::GuestIdentity::new(
            store.clone(),
            std::mem::take(&mut loaded.guests),
            config.time.now_ms(),
        );
        let config = Arc::new(config);
        let accounts = crate::account::Accounts::new(
            store.clone(),
            guests,
            std::mem::take(&mut loaded.accounts),
            config.clone(),
        );
        let (lobby_tx, _) = broadcast::channel(1024);
        let tables = crate::table::Tables::restore(std::mem::take(&mut loaded.tables));
        let started_unix_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0))
            .saturating_sub(config.time.now_ms());
        let book = crate::rating_book::Book::new(
            store.read_now(crate::rating_book::load)?,
            config.provisional_rd,
        );
        let app = Arc::new_cyclic(|me| App {
            config,
            me: me.clone(),
            store,
            identity: accounts.clone(),
            accounts,
            secret: loaded.secret,
            games: Mutex::new(HashMap::new()),
            seeks: Mutex::new(BTreeMap::new()),
            live: Mutex::new(BTreeMap::new()),
            lobby_tx,
            users: Mutex::new(HashMap::new()),
            user_games: Mutex::new(HashMap::new()),
            game_users: Mutex::new(HashMap::new()),
            ended: Mutex::new(std::collections::VecDeque::new()),
            metrics: Metrics::default(),
            conns: crate::net::Counts::default(),
            guest_limit: governor::RateLimiter::keyed(quota),
            seen: Mutex::new(HashMap::new()),
            bot_games: Mutex::new(HashMap::new()),
            tables,
            book,
            started_unix_ms,
            report_limit: governor::RateLimiter::keyed(crate::reputation::report_quota()),
            analyses: crate::analysis::Analyses::default(),
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
            // One game that does not rebuild (a corrupt row) must not keep the others
            // down: it is logged and left in the store.
            match Game::restore(app.env(), row, events) {
                Ok(g) => {
                    app.spawn(&row.id, g);
                }
                Err(e) => {
                    tracing::error!(game = %row.id, error = %e, "a stored game does not rebuild; it is left as it is");
                }
            }
        }
        tracing::info!(games = n, "restored unfinished games");
        Ok(app)
    }

    /// What a game task gets of this state: the store, the settings and this state as its
    /// [`Host`].
    fn env(&self) -> GameEnv {
        GameEnv {
            store: self.store.clone(),
            config: self.config.clone(),
            host: self
                .me
                .upgrade()
                .expect("the server's state outlives its calls"),
        }
    }

    /// Now, from the configured time source (ms).
    #[must_use]
    pub fn now(&self) -> u64 {
        self.config.time.now_ms()
    }

    /// Now as Unix ms, for what is stored and shown as a date (rated games, history,
    /// kudos, reports): the wall clock when the server started plus the configured time
    /// source's time since (so that tests move it with their manual clock).
    #[must_use]
    pub fn wall_ms(&self) -> u64 {
        self.started_unix_ms + self.now()
    }

    fn index_players(&self, row: &GameRow) {
        let Ok(players) = serde_json::from_str::<[Player; 2]>(&row.players) else {
            return;
        };
        if row.result.is_none() && players.iter().any(|p| p.bot.is_some()) {
            let mut bg = self.bot_games.lock().expect("lock");
            for p in &players {
                if let Some(u) = &p.user {
                    bg.entry(u.clone()).or_default().insert(row.id.clone());
                }
            }
        }
        self.game_users.lock().expect("lock").insert(
            row.id.clone(),
            [players[0].user.clone(), players[1].user.clone()],
        );
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
        let g = Game::restore(self.env(), &row, &events)?;
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
    pub async fn create_game(self: &Arc<Self>, mut spec: NewGame) -> Result<String> {
        let id = random_hex(ID_BYTES);
        // Each seat shows its rating on the game's board as it is now (a rematch's too).
        let board = crate::rating::board_of(&spec.spec);
        for p in &mut spec.players {
            if board.is_none() {
                p.rated = false;
            }
            self.book.fill(p, board);
        }
        let row = GameRow {
            id: id.clone(),
            kind: spec.kind.name().into(),
            options: wire::options_json(&spec.spec).to_string(),
            seed: random_seed(),
            clock: serde_json::to_string(&spec.clock).expect("serializes"),
            players: serde_json::to_string(&spec.players).expect("serializes"),
            public: spec.public,
            result: None,
        };
        self.store.write(vec![Op::Game(row.clone())]).await?;
        self.index_players(&row);
        let g = Game::restore(self.env(), &row, &[])?;
        self.spawn(&id, g);
        for s in Seat::BOTH {
            if let Some(u) = &spec.players[s.index()].user {
                let token = self.seat_token(&id, s);
                let f = protocol::frame(
                    &ServerMsg::Seat {
                        game: &id,
                        seat: spec.kind.seat_name(s),
                        seat_token: &token,
                    },
                    None,
                );
                self.notify_user(u, f);
            }
        }
        tracing::info!(game = %id, kind = %spec.kind, "game created");
        Ok(id)
    }

    /// Counts a refusal by a limit and returns its error.
    pub fn limited(&self, why: String) -> Error {
        self.metrics.rate_limited.fetch_add(1, Ordering::Relaxed);
        Error::Limit(why)
    }

    /// Whether `ip` may create a guest now (a per-address rate).
    ///
    /// # Errors
    /// [`Error::Limit`].
    pub fn check_guest_rate(&self, ip: std::net::IpAddr) -> Result<()> {
        self.guest_limit.check_key(&ip).map_err(|_| {
            self.limited(format!(
                "too many new guests from your address: at most {} a minute; keep your guest token and use it again",
                self.config.guests_per_minute
            ))
        })
    }

    /// Whether `user` may start another bot game.
    ///
    /// # Errors
    /// [`Error::Limit`].
    pub fn check_bot_games(&self, user: &str) -> Result<()> {
        let n = self
            .bot_games
            .lock()
            .expect("lock")
            .get(user)
            .map_or(0, std::collections::HashSet::len);
        if n >= self.config.max_bot_games {
            return Err(self.limited(format!(
                "you have {n} unfinished bot games, the most one player may have; finish or resign one first"
            )));
        }
        Ok(())
    }

    /// A game with a bot seat has ended.
    pub fn bot_game_over(&self, game: &str, players: &[Player; 2]) {
        let mut bg = self.bot_games.lock().expect("lock");
        for p in players {
            if let Some(u) = &p.user {
                if let Some(set) = bg.get_mut(u) {
                    set.remove(game);
                    if set.is_empty() {
                        bg.remove(u);
                    }
                }
            }
        }
    }

    /// Housekeeping, run every [`Config::sweep_ms`]: closes the seeks and challenges of
    /// creators gone longer than [`Config::seek_idle_ms`], forgets the rate limits of
    /// quiet addresses, and logs what the limits refused since the last time.
    pub fn sweep(&self) {
        let now = self.now();
        let stale: Vec<String> = {
            let seeks = self.seeks.lock().expect("lock");
            let seen = self.seen.lock().expect("lock");
            seeks
                .values()
                .filter(|s| {
                    seen.get(&s.user.id)
                        .is_none_or(|t| now.saturating_sub(*t) >= self.config.seek_idle_ms)
                })
                .map(|s| s.id.clone())
                .collect()
        };
        for id in stale {
            let Some(s) = self.seek(&id) else { continue };
            if self.online(&s.user.id) {
                self.seen(&s.user.id);
                continue;
            }
            if self.take_seek(&id).is_some() {
                tracing::info!(seek = %id, "a seek expired: its creator has been gone");
            }
        }
        // Who was seen longer ago than a seek may stay idle need not be remembered: for a
        // seek, an unknown creator counts as gone for that long (the map stays as large as
        // the guests seen recently, not all guests ever seen).
        self.seen
            .lock()
            .expect("lock")
            .retain(|_, t| now.saturating_sub(*t) < self.config.seek_idle_ms);
        self.guest_limit.retain_recent();
        self.guest_limit.shrink_to_fit();
        self.accounts.sweep();
    }

    /// Forgets guests unseen for longer than [`Config::guest_ttl_ms`] (and stores when the
    /// others were last seen); run by the housekeeping task.
    pub async fn expire_guests(&self) {
        let before = self.now().saturating_sub(self.config.guest_ttl_ms);
        match self.identity.expire(before).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(guests = n, "guests expired after long inactivity"),
            Err(e) => tracing::warn!(error = %e, "could not expire guests; will try again"),
        }
        for id in self.accounts.take_closed_by_admin() {
            self.close_connections(&id);
        }
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

impl Host for App {
    fn lobby_game(&self, id: &str, summary: Option<Value>) {
        App::lobby_game(self, id, summary);
    }
    fn game_ended(&self, summary: Value) {
        App::game_ended(self, summary);
    }
    fn bot_game_over(&self, game: &str, players: &[Player; 2]) {
        App::bot_game_over(self, game, players);
    }
    fn game_stopped(&self, id: &str) {
        App::game_stopped(self, id);
    }
    fn create_game(
        &self,
        spec: NewGame,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<String>> + Send>> {
        let app = self.me.upgrade();
        Box::pin(async move {
            match app {
                Some(app) => app.create_game(spec).await,
                None => Err(Error::Unavailable),
            }
        })
    }
    fn seat_token(&self, game: &str, seat: Seat) -> String {
        App::seat_token(self, game, seat)
    }
    fn limited(&self, why: String) -> Error {
        App::limited(self, why)
    }
    fn game_over(&self, end: &crate::rating_book::GameEnd<'_>) -> crate::rating_book::Finished {
        self.book.game_over(end, self.wall_ms())
    }
    fn game_over_failed(&self, f: crate::rating_book::Finished) {
        self.book.undo(f);
    }
}
