//! Durable storage in SQLite (WAL, `synchronous=FULL`): one writer thread that commits
//! pending writes together (group commit) and tells each waiter once its write is on disk.
//!
//! Stored: guests (name and a hash of the token), games (their creation request: kind,
//! options, seed, time control, seats) and every game event in order, each with the
//! server's own account of it (the move, the setup...) and the clocks after it. What each
//! recipient was sent is not stored: it follows from these. A game is rebuilt on start-up
//! by applying its events.

mod accounts;
mod live;
mod migrate;
mod rows;
mod schema;
mod writer;

use std::path::Path;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension};
use tokio::sync::{mpsc, oneshot};

use crate::error::{Error, Result};

use rows::{events, game_row, load_tables};
use schema::{SCHEMA, WAL_RESTART_FRAMES, open_conn};
use writer::{checkpointer, writer};

pub use accounts::{AccountOp, AccountRow, AccountsLoaded, SessionRow, TokenRow};

/// A stored game's creation request and seats.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game's id.
    pub id: String,
    /// `generals`, `stratego` or `banqi`.
    pub kind: String,
    /// Canonical options JSON.
    pub options: String,
    /// The secret seed (hidden state not given by players, and salts).
    pub seed: salpakan_engine::MatchSeed,
    /// Time control JSON or `null`.
    pub clock: String,
    /// Seats JSON: `[{"user":..,"name":..,"bot":..}, ...]`.
    pub players: String,
    /// Whether the game is listed and open to spectators.
    pub public: bool,
    /// Result JSON once over.
    pub result: Option<String>,
}

/// One stored game event.
#[derive(Clone, Debug)]
pub struct EventRow {
    /// Its version in the game (1, 2, ...).
    pub ver: u64,
    /// The server's account (JSON of [`crate::game::Arb`]).
    pub arb: String,
    /// Clocks after it (JSON of [`crate::clock::StoredClocks`]).
    pub clocks: String,
}

/// A stored guest.
#[derive(Clone, Debug)]
pub struct GuestRow {
    /// The guest's id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// SHA-256 hex of the token.
    pub token_hash: String,
    /// When the guest was last seen (ms; 0 when never recorded).
    pub seen: u64,
}

/// One write.
#[derive(Debug)]
pub enum Op {
    /// A new guest.
    Guest(GuestRow),
    /// When guests were last seen: (id, ms).
    Seen(Vec<(String, u64)>),
    /// A guest signed out everywhere or expired: its token is forgotten.
    ForgetGuest(String),
    /// A new game.
    Game(GameRow),
    /// A game event.
    Event {
        /// The game.
        game: String,
        /// The event.
        row: EventRow,
    },
    /// A game's result.
    Result {
        /// The game.
        game: String,
        /// Result JSON.
        result: String,
    },
    /// A new arbiter table (`crate::table`).
    Table(TableRow),
    /// One of a table's entries, in order.
    TableEvent {
        /// The table.
        table: String,
        /// Its number in the table (1, 2, ...).
        n: u64,
        /// The table's own account of it (JSON of `crate::table::TableArb`); holds secrets.
        body: String,
    },
    /// Ratings, finished games of players, kudos and reports (`crate::rating_book`).
    Rating(crate::rating_book::RatingOp),
    /// Accounts, sessions and API tokens.
    Account(AccountOp),
    /// A finished game's analysis (`crate::analysis`), kept with the game.
    Analysis(crate::analysis::AnalysisRow),
}

/// For `salpakan admin`: opens the database at `path` (bringing its schema up to date, as
/// a starting server does), applies `ops(id)` to the account named `name` and records the
/// change for a server running on the same file to pick up (within its housekeeping
/// period), in one transaction. Returns the account's id and name.
///
/// # Errors
/// The database cannot be opened or written ([`Error::Start`]), or there is no such
/// account ([`Error::NotFound`]).
pub fn admin_change(
    path: &Path,
    name: &str,
    ops: impl Fn(&str) -> Vec<AccountOp>,
) -> Result<(String, String)> {
    let mut c = prepare(path, false)?;
    let key = crate::account::name_key(name);
    accounts::admin_change(&mut c, &key, crate::account::unix_ms(), ops)
        .map_err(|e| Error::Start(format!("cannot write the database {}: {e}", path.display())))?
        .ok_or_else(|| Error::NotFound(format!("there is no account named {name:?}")))
}

/// For `salpakan admin reports`: every stored report (a table a later migration makes), as
/// column-value pairs, oldest first; none when this database has no reports table.
///
/// # Errors
/// The database cannot be opened or read ([`Error::Start`]).
pub fn admin_reports(path: &Path) -> Result<Option<Vec<accounts::ReportRow>>> {
    let c = prepare(path, false)?;
    accounts::all_reports(&c)
        .map_err(|e| Error::Start(format!("cannot read the database {}: {e}", path.display())))
}

/// A stored arbiter table: how it was created.
#[derive(Clone, Debug)]
pub struct TableRow {
    /// The table's id.
    pub id: String,
    /// The table's creation (JSON of `crate::table::TableInit`).
    pub init: String,
}

/// What the writer thread is asked to do.
#[derive(Debug)]
enum Job {
    /// Commit these writes (in one group commit with others) and answer once durable.
    Write(Vec<Op>, oneshot::Sender<std::result::Result<(), String>>),
    /// Read every stored event of an unfinished game (only the writer knows which of its
    /// events are not indexed yet), after the writes queued before.
    Events(String, oneshot::Sender<rusqlite::Result<Vec<EventRow>>>),
}

/// The store: a handle to the writer thread and a reader connection.
#[derive(Clone, Debug)]
pub struct Store {
    tx: mpsc::UnboundedSender<Job>,
    reader: Arc<Mutex<Connection>>,
    fail: Arc<std::sync::atomic::AtomicU32>,
}

/// What the store holds at start-up.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The server's secret (seat tokens are derived from it).
    pub secret: Vec<u8>,
    /// Every guest.
    pub guests: Vec<GuestRow>,
    /// Every game without a result, with its events.
    pub unfinished: Vec<(GameRow, Vec<EventRow>)>,
    /// Every finished game's id and seats (for players' game lists).
    pub finished: Vec<GameRow>,
    /// Every arbiter table with its events in order.
    pub tables: Vec<(TableRow, Vec<String>)>,
    /// Accounts, sessions and API tokens.
    pub accounts: AccountsLoaded,
}

fn storage(e: impl std::fmt::Display) -> Error {
    Error::Storage(e.to_string())
}

/// The schema version this server writes (`PRAGMA user_version` once every migration ran;
/// release 0.1's databases are version 0).
#[must_use]
pub fn schema_version() -> u32 {
    migrate::latest()
}

/// The moves stored in the database at `db` (the load generator's check that every
/// acknowledged move is durable); `None` when it cannot be read.
pub fn stored_moves(db: &Path) -> Option<u64> {
    let c = rusqlite::Connection::open(db).ok()?;
    c.query_row(
        "SELECT COUNT(*) FROM events WHERE arb LIKE '{\"a\":\"move\"%'",
        [],
        |r| r.get::<_, i64>(0),
    )
    .ok()
    .and_then(|n| u64::try_from(n).ok())
}

/// Opens the database at `path` for writing, checks that it can be written, and brings its
/// schema up to date: release 0.1's tables, the upgrades of databases made before it, then
/// the migrations ([`migrate`]); `server`: a starting server, which alone runs the
/// migrations that rebuild a table (`salpakan admin` refuses to).
///
/// # Errors
/// [`Error::Start`] with what to fix.
fn prepare(path: &Path, server: bool) -> Result<Connection> {
    let cannot = |e: rusqlite::Error| {
        Error::Start(format!(
            "cannot use the database {}: {e}; check that the file and its folder exist, are writable by this user and that the disk has space",
            path.display()
        ))
    };
    let mut w = open_conn(path).map_err(cannot)?;
    // A server that cannot write must not start (it would say "listening" and then
    // refuse every game): write once now, in a transaction that changes nothing.
    w.execute_batch(
        "BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
         INSERT OR REPLACE INTO meta (key, value) VALUES ('write_check', 1);
         DELETE FROM meta WHERE key='write_check'; COMMIT;",
    )
    .map_err(|e| {
        let _ = w.execute_batch("ROLLBACK");
        cannot(e)
    })?;
    // The writer's page cache holds the pages it inserts into (the default is 2 MB).
    w.pragma_update(None, "cache_size", -131_072)
        .map_err(storage)?;
    w.execute_batch(SCHEMA).map_err(storage)?;
    let events_sql: String = w
        .query_row(
            "SELECT sql FROM sqlite_master WHERE type='table' AND name='events'",
            [],
            |r| r.get(0),
        )
        .map_err(storage)?;
    // Databases made before guests expired have no `seen` column.
    let has_seen: bool = w
        .query_row(
            "SELECT COUNT(*) FROM pragma_table_info('guests') WHERE name='seen'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map_err(storage)?
        > 0;
    if !has_seen {
        w.execute_batch("ALTER TABLE guests ADD COLUMN seen INTEGER NOT NULL DEFAULT 0")
            .map_err(storage)?;
    }
    // Databases made before this also stored what each recipient was sent.
    if events_sql.contains("p0 TEXT") {
        w.execute_batch(
            "ALTER TABLE events DROP COLUMN p0; ALTER TABLE events DROP COLUMN p1;
             ALTER TABLE events DROP COLUMN spec;",
        )
        .map_err(storage)?;
    }
    // Release 0.1's schema is version 0; later tables come through the migrations.
    migrate::migrate(&mut w, server)
        .map_err(|e| Error::Start(format!("cannot use the database {}: {e}", path.display())))?;
    Ok(w)
}

impl Store {
    /// Opens (creating if needed) the database at `path`, loads what a starting server needs
    /// and starts the writer thread.
    ///
    /// # Errors
    /// When the file cannot be opened or is not a salpakan database.
    pub fn open(path: &Path) -> Result<(Store, Loaded)> {
        Store::open_with(path, WAL_RESTART_FRAMES)
    }

    /// [`Store::open`], with the WAL started over once it holds `restart_frames` frames
    /// (tests use a small number to go through many restarts).
    ///
    /// # Errors
    /// As [`Store::open`].
    pub fn open_with(path: &Path, restart_frames: i64) -> Result<(Store, Loaded)> {
        let w = prepare(path, true)?;
        let secret: Option<Vec<u8>> = w
            .query_row("SELECT value FROM meta WHERE key='secret'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(storage)?;
        let secret = if let Some(s) = secret {
            s
        } else {
            let mut s = vec![0u8; 32];
            getrandom::fill(&mut s).map_err(storage)?;
            w.execute("INSERT INTO meta (key, value) VALUES ('secret', ?1)", [&s])
                .map_err(storage)?;
            s
        };
        let mut loaded = Loaded {
            secret,
            ..Loaded::default()
        };
        let live;
        {
            let mut q = w
                .prepare("SELECT id, name, token_hash, seen FROM guests")
                .map_err(storage)?;
            loaded.guests = q
                .query_map([], |r| {
                    Ok(GuestRow {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        token_hash: r.get(2)?,
                        seen: u64::try_from(r.get::<_, i64>(3)?).unwrap_or(0),
                    })
                })
                .map_err(storage)?
                .collect::<rusqlite::Result<_>>()
                .map_err(storage)?;
            let mut q = w
                .prepare(
                    "SELECT id, kind, options, seed, clock, players, public, result FROM games",
                )
                .map_err(storage)?;
            // One unreadable game row is skipped with a log line: it must not keep the
            // server, and every other game, down.
            let games: Vec<GameRow> = q
                .query_map([], game_row)
                .map_err(storage)?
                .filter_map(|row| {
                    row.map_err(|e| {
                        tracing::error!("a stored game cannot be read and is skipped: {e}")
                    })
                    .ok()
                })
                .collect();
            let (finished, unfinished): (Vec<GameRow>, Vec<GameRow>) =
                games.into_iter().partition(|g| g.result.is_some());
            loaded.finished = finished;
            let ids: Vec<String> = unfinished.iter().map(|g| g.id.clone()).collect();
            let (mut events, l) = live::load(&w, &ids).map_err(storage)?;
            live = l;
            loaded.unfinished = unfinished
                .into_iter()
                .map(|g| {
                    let ev = events.remove(&g.id).unwrap_or_default();
                    (g, ev)
                })
                .collect();
        }
        loaded.tables = load_tables(&w).map_err(storage)?;
        loaded.accounts = accounts::load(&w).map_err(storage)?;
        let reader = open_conn(path).map_err(storage)?;
        // Checkpoints run on their own connection and thread, off the commit path.
        w.pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(storage)?;
        let ckpt = open_conn(path).map_err(storage)?;
        ckpt.pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(storage)?;
        let wal_frames = Arc::new(AtomicI64::new(0));
        let (alive, gone) = std::sync::mpsc::channel::<()>();
        {
            let wal_frames = wal_frames.clone();
            std::thread::Builder::new()
                .name("salpakan-checkpoint".into())
                .spawn(move || checkpointer(&ckpt, &gone, &wal_frames))
                .map_err(storage)?;
        }
        let (tx, rx) = mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("salpakan-store".into())
            .spawn(move || writer(w, live, rx, &wal_frames, restart_frames, alive))
            .map_err(storage)?;
        Ok((
            Store {
                tx,
                reader: Arc::new(Mutex::new(reader)),
                fail: Arc::new(std::sync::atomic::AtomicU32::new(0)),
            },
            loaded,
        ))
    }

    /// Writes `ops` in one transaction (together with whatever else is pending) and returns
    /// once they are durable.
    ///
    /// # Errors
    /// [`Error::Storage`] when the write failed; nothing was written.
    pub async fn write(&self, ops: Vec<Op>) -> Result<()> {
        if self.fail.load(Ordering::Relaxed) > 0
            && self
                .fail
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok()
        {
            return Err(Error::Storage("database or disk is full (a drill)".into()));
        }
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(Job::Write(ops, tx))
            .map_err(|_| Error::Unavailable)?;
        match rx.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(Error::Storage(e)),
            Err(_) => Err(Error::Unavailable),
        }
    }

    /// Makes the next `n` writes fail as a full disk would, without touching the database:
    /// a fault drill for tests and operators (nothing is written by a failed write).
    pub fn fail_next_writes(&self, n: u32) {
        self.fail.store(n, Ordering::Relaxed);
    }

    /// Runs the read `f` on the reader connection, off the async threads.
    ///
    /// # Errors
    /// A storage failure.
    pub async fn read<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    {
        let reader = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            let c = reader.lock().map_err(|_| Error::Unavailable)?;
            f(&c).map_err(storage)
        })
        .await
        .map_err(|_| Error::Unavailable)?
    }

    /// The accounts `salpakan admin` changed after change `seq`, as they are now, and the
    /// last change's number.
    ///
    /// # Errors
    /// A storage failure.
    pub async fn admin_changes(&self, seq: i64) -> Result<(Vec<AccountRow>, i64)> {
        let reader = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            let c = reader.lock().map_err(|_| Error::Unavailable)?;
            accounts::admin_changes(&c, seq).map_err(storage)
        })
        .await
        .map_err(|_| Error::Unavailable)?
    }

    /// Runs the read `f` on the reader connection now (at start-up, before serving).
    ///
    /// # Errors
    /// A storage failure.
    pub fn read_now<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T> {
        let c = self.reader.lock().map_err(|_| Error::Unavailable)?;
        f(&c).map_err(storage)
    }

    /// Loads one game (finished or not) with its events: a finished game's from the reader
    /// connection, an unfinished game's from the writer thread (which alone knows which of
    /// them are not indexed yet).
    ///
    /// # Errors
    /// [`Error::UnknownGame`] or a storage failure.
    pub async fn load_game(&self, id: &str) -> Result<(GameRow, Vec<EventRow>)> {
        let reader = self.reader.clone();
        let id = id.to_string();
        let (g, ev) = tokio::task::spawn_blocking(move || {
            let c = reader.lock().map_err(|_| Error::Unavailable)?;
            let g = c
                .query_row(
                    "SELECT id, kind, options, seed, clock, players, public, result FROM games WHERE id=?1",
                    [&id],
                    game_row,
                )
                .optional()
                .map_err(storage)?
                .ok_or_else(|| Error::UnknownGame(id.clone()))?;
            let ev = match g.result {
                Some(_) => Some(events(&c, &id).map_err(storage)?),
                None => None,
            };
            Ok::<_, Error>((g, ev))
        })
        .await
        .map_err(|_| Error::Unavailable)??;
        if let Some(ev) = ev {
            return Ok((g, ev));
        }
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(Job::Events(g.id.clone(), tx))
            .map_err(|_| Error::Unavailable)?;
        let ev = rx.await.map_err(|_| Error::Unavailable)?.map_err(storage)?;
        Ok((g, ev))
    }
}

#[cfg(test)]
mod tests;
