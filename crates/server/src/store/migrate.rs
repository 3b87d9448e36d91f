//! Schema migrations: `PRAGMA user_version` says which migrations a database has had.
//! Version 0 is a database written by release 0.1 (the tables of [`super::schema`]); each
//! migration in [`MIGRATIONS`] takes it one version further, in one transaction (so that a
//! migration is either wholly applied or not at all), in order.

use rusqlite::{Connection, Transaction};

/// One migration: the version it brings a database to and what it does.
pub(super) struct Migration {
    /// The version after it (1, 2, ...: its place in [`MIGRATIONS`] plus one).
    pub(super) version: u32,
    /// What it adds, for the log.
    pub(super) what: &'static str,
    /// The change, run inside the migration's transaction.
    pub(super) apply: fn(&Transaction<'_>) -> rusqlite::Result<()>,
    /// Whether it rebuilds a table that an older server still running on the file would
    /// go on writing the old way: only a starting server runs it, not `salpakan admin`.
    pub(super) rebuilds: bool,
}

/// Every migration, in order. Append only: a released migration never changes.
pub(super) const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        what: "accounts, sessions and API tokens",
        apply: |t| t.execute_batch(ACCOUNTS),
        rebuilds: false,
    },
    Migration {
        version: 2,
        what: "ratings and their history, players' finished games, kudos and reports",
        apply: |t| t.execute_batch(crate::rating_book::MIGRATION_2),
        rebuilds: false,
    },
    Migration {
        version: 3,
        what: "finished games' analyses",
        apply: |t| t.execute_batch(crate::analysis::MIGRATION_3),
        rebuilds: false,
    },
    Migration {
        version: 4,
        what: "events indexed by game when the game ends (super::live)",
        apply: events_index,
        rebuilds: true,
    },
    Migration {
        version: 5,
        what: "stored analyses dropped: their win probabilities were the raw evaluation, now \
               read as a calibrated chance (asked again, each is recomputed)",
        apply: |t| t.execute_batch("DELETE FROM analyses;"),
        rebuilds: false,
    },
    Migration {
        version: 6,
        what: "stored analyses dropped: their hidden pieces' chances came from the belief's \
               sequential draw, now from its posterior (asked again, each is recomputed)",
        apply: |t| t.execute_batch("DELETE FROM analyses;"),
        rebuilds: false,
    },
];

/// Migration 1: accounts (a guest who registers keeps its id; its guest row goes), their
/// sessions and API tokens (stored as SHA-256 hashes only), and the changes
/// `salpakan admin` made for a running server to pick up.
const ACCOUNTS: &str = "
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- the name's confusable skeleton, lower case: unique among accounts not deleted
  name_key TEXT UNIQUE,
  -- argon2id PHC string; empty for a deleted account
  password TEXT NOT NULL,
  -- the secret its seat tokens derive from
  key TEXT NOT NULL,
  created INTEGER NOT NULL,
  seen INTEGER NOT NULL DEFAULT 0,
  moderator INTEGER NOT NULL DEFAULT 0,
  bot INTEGER NOT NULL DEFAULT 0,
  closed INTEGER NOT NULL DEFAULT 0,
  deleted INTEGER NOT NULL DEFAULT 0,
  mark TEXT
);
CREATE TABLE sessions (
  hash TEXT PRIMARY KEY,
  account TEXT NOT NULL,
  created INTEGER NOT NULL,
  seen INTEGER NOT NULL
);
CREATE INDEX sessions_account ON sessions (account);
CREATE TABLE api_tokens (
  id TEXT PRIMARY KEY,
  account TEXT NOT NULL,
  name TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  created INTEGER NOT NULL,
  last_used INTEGER
);
CREATE INDEX api_tokens_account ON api_tokens (account);
-- what `salpakan admin` changed, for a running server to pick up
CREATE TABLE admin_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  account TEXT NOT NULL,
  at INTEGER NOT NULL
);
";

/// Migration 4: `events` gets an explicit `id INTEGER PRIMARY KEY` (rowids that `VACUUM`
/// keeps, since `event_index` refers to them) and loses its (game, ver) index; every event
/// stored so far goes into `event_index` (see [`super::live`] for why and when later events
/// do). Release 0.1 kept events in a `WITHOUT ROWID` table keyed by (game, ver); later
/// databases in a rowid table with the unique index `events_game_ver`. Both are copied in
/// their order (release 0.1's: by game, then version; later: as written).
fn events_index(t: &Transaction<'_>) -> rusqlite::Result<()> {
    let old: String = t.query_row(
        "SELECT sql FROM sqlite_master WHERE type='table' AND name='events'",
        [],
        |r| r.get(0),
    )?;
    let order = if old.to_ascii_uppercase().contains("WITHOUT ROWID") {
        "game, ver"
    } else {
        "rowid"
    };
    t.execute_batch(&format!(
        "ALTER TABLE events RENAME TO events_before_4;
         CREATE TABLE events (id INTEGER PRIMARY KEY, game TEXT NOT NULL, ver INTEGER NOT NULL,
           arb TEXT NOT NULL, clocks TEXT NOT NULL);
         INSERT INTO events (game, ver, arb, clocks)
           SELECT game, ver, arb, clocks FROM events_before_4 ORDER BY {order};
         DROP TABLE events_before_4;
         CREATE TABLE event_index (game TEXT NOT NULL, ver INTEGER NOT NULL,
           event INTEGER NOT NULL, PRIMARY KEY (game, ver)) WITHOUT ROWID;
         INSERT INTO event_index (game, ver, event) SELECT game, ver, id FROM events;"
    ))
}

/// The version a database has once every migration ran.
#[must_use]
pub(super) fn latest() -> u32 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

/// What went wrong migrating.
#[derive(Debug)]
pub(super) enum MigrateError {
    /// The database was written by a newer server (its version is past [`latest`]).
    TooNew(u32),
    /// SQLite refused; nothing of the failed migration was kept.
    Sql(u32, rusqlite::Error),
    /// A migration that only a starting server runs ([`Migration::rebuilds`]) is due.
    NeedsServer(u32, &'static str),
}

impl std::fmt::Display for MigrateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MigrateError::TooNew(v) => write!(
                f,
                "the database has schema version {v} but this server knows versions up to {}; run the newer salpakan that wrote it, or restore a backup",
                latest()
            ),
            MigrateError::Sql(v, e) => write!(
                f,
                "migration to schema version {v} failed and was rolled back: {e}"
            ),
            MigrateError::NeedsServer(v, what) => write!(
                f,
                "the database needs migration {v} ({what}), which only a starting server runs (a server of an older version still running on this file would go on writing the old way); stop the running server, start this version's `salpakan serve` on the file once, then run this command again"
            ),
        }
    }
}

/// The database's schema version.
///
/// # Errors
/// When SQLite cannot read it.
pub(super) fn version(c: &Connection) -> rusqlite::Result<u32> {
    c.query_row("PRAGMA user_version", [], |r| r.get::<_, u32>(0))
}

/// Runs every migration the database has not had, in order, each in its own transaction
/// that also sets `user_version`. Returns the versions it applied. With `rebuilds` false
/// (`salpakan admin`), a due migration that rebuilds a table is refused before any runs.
///
/// # Errors
/// A database newer than this server, a rebuild not allowed here, or a migration SQLite
/// refused (that migration left nothing; those before it stay applied).
pub(super) fn migrate(c: &mut Connection, rebuilds: bool) -> Result<Vec<u32>, MigrateError> {
    let at = version(c).map_err(|e| MigrateError::Sql(0, e))?;
    if at > latest() {
        return Err(MigrateError::TooNew(at));
    }
    if !rebuilds {
        if let Some(m) = MIGRATIONS.iter().find(|m| m.version > at && m.rebuilds) {
            return Err(MigrateError::NeedsServer(m.version, m.what));
        }
    }
    let mut done = Vec::new();
    for m in MIGRATIONS.iter().filter(|m| m.version > at) {
        let t = c
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| MigrateError::Sql(m.version, e))?;
        (m.apply)(&t)
            .and_then(|()| t.pragma_update(None, "user_version", m.version))
            .map_err(|e| MigrateError::Sql(m.version, e))?;
        // Dropped without a commit on an error above: rolled back.
        t.commit().map_err(|e| MigrateError::Sql(m.version, e))?;
        tracing::info!(version = m.version, what = m.what, "database migrated");
        done.push(m.version);
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Versions are 1, 2, ... in order: each migration's version is its place plus one.
    #[test]
    fn migrations_are_numbered_in_order_from_one() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version as usize, i + 1, "{}", m.what);
        }
    }

    /// A fresh database gets every migration once; opening it again applies none.
    #[test]
    fn each_migration_runs_once_and_sets_user_version() {
        let mut c = Connection::open_in_memory().unwrap();
        c.execute_batch(super::super::schema::SCHEMA).unwrap();
        let done = migrate(&mut c, true).unwrap();
        assert_eq!(done, (1..=latest()).collect::<Vec<_>>());
        assert_eq!(version(&c).unwrap(), latest());
        assert!(migrate(&mut c, true).unwrap().is_empty());
    }

    /// `salpakan admin` does not run a migration that rebuilds a table (an older server
    /// may still be writing to the file): it refuses, and migrates nothing.
    #[test]
    fn a_rebuilding_migration_is_left_to_a_starting_server() {
        let mut c = Connection::open_in_memory().unwrap();
        c.execute_batch(super::super::schema::SCHEMA).unwrap();
        let e = migrate(&mut c, false).unwrap_err();
        assert!(matches!(e, MigrateError::NeedsServer(4, _)), "{e}");
        assert!(
            e.to_string()
                .contains("start this version's `salpakan serve`")
        );
        assert_eq!(version(&c).unwrap(), 0);
        assert_eq!(
            migrate(&mut c, true).unwrap(),
            (1..=latest()).collect::<Vec<_>>()
        );
        assert!(migrate(&mut c, false).unwrap().is_empty());
    }

    /// A database at `version` with one analysis stored, migrated to the latest version:
    /// the migrations run and the analyses left.
    fn analysis_stored_at(version: u32) -> (Vec<u32>, i64) {
        let mut c = Connection::open_in_memory().unwrap();
        c.execute_batch(super::super::schema::SCHEMA).unwrap();
        for m in MIGRATIONS.iter().filter(|m| m.version <= version) {
            let t = c.transaction().unwrap();
            (m.apply)(&t).unwrap();
            t.pragma_update(None, "user_version", m.version).unwrap();
            t.commit().unwrap();
        }
        c.execute(
            "INSERT INTO analyses (game, kind, plies, samples, seed, seat0, seat1, created)
             VALUES ('g1', 'generals', 10, 64, 1, '{}', '{}', 0)",
            [],
        )
        .unwrap();
        let ran = migrate(&mut c, true).unwrap();
        let left = c
            .query_row("SELECT count(*) FROM analyses", [], |r| r.get(0))
            .unwrap();
        (ran, left)
    }

    /// An analysis stored before the win probability was calibrated (migration 5) is gone
    /// after it, so that asking again computes it anew.
    #[test]
    fn analyses_stored_before_the_calibration_are_dropped_to_be_recomputed() {
        // A server of version 4 stored one.
        let (ran, left) = analysis_stored_at(4);
        assert_eq!(ran, (5..=latest()).collect::<Vec<_>>());
        assert_eq!(left, 0);
    }

    /// An analysis stored while the hidden pieces' chances came from the belief's
    /// sequential draw (before migration 6) is gone after it, so that asking again draws
    /// them from the posterior.
    #[test]
    fn analyses_stored_before_the_posterior_heat_map_are_dropped_to_be_recomputed() {
        let (ran, left) = analysis_stored_at(5);
        assert_eq!(ran, vec![6]);
        assert_eq!(left, 0);
        // One stored by this version stays.
        let (ran, left) = analysis_stored_at(latest());
        assert!(ran.is_empty());
        assert_eq!(left, 1);
    }

    /// A database from a newer server is refused, untouched.
    #[test]
    fn a_database_from_a_newer_server_is_refused() {
        let mut c = Connection::open_in_memory().unwrap();
        c.pragma_update(None, "user_version", latest() + 1).unwrap();
        assert!(matches!(
            migrate(&mut c, true),
            Err(MigrateError::TooNew(_))
        ));
        assert_eq!(version(&c).unwrap(), latest() + 1);
    }
}
