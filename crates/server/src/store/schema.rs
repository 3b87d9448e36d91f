//! The schema, the connections' settings and the WAL checkpoint.

use std::path::Path;

use rusqlite::Connection;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS guests (id TEXT PRIMARY KEY, name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, kind TEXT NOT NULL, options TEXT NOT NULL,
  seed TEXT NOT NULL, clock TEXT NOT NULL, players TEXT NOT NULL, public INTEGER NOT NULL,
  result TEXT);
CREATE TABLE IF NOT EXISTS events (game TEXT NOT NULL, ver INTEGER NOT NULL, arb TEXT NOT NULL,
  clocks TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS arbiter_tables (id TEXT PRIMARY KEY, init TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS arbiter_table_events (tbl TEXT NOT NULL, n INTEGER NOT NULL,
  body TEXT NOT NULL, PRIMARY KEY (tbl, n));
";
pub(super) fn open_conn(path: &Path) -> rusqlite::Result<Connection> {
    let c = Connection::open(path)?;
    c.pragma_update(None, "journal_mode", "WAL")?;
    c.pragma_update(None, "synchronous", "FULL")?;
    // The WAL file is kept (up to this size) and overwritten from its start after each
    // complete checkpoint, rather than truncated and grown again: appending to a file makes
    // its sync wait for a filesystem journal commit, overwriting does not.
    c.pragma_update(None, "journal_size_limit", WAL_KEEP_BYTES)?;
    c.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(c)
}

/// The WAL file size kept for reuse.
const WAL_KEEP_BYTES: i64 = 256 << 20;
/// WAL frames after which the writer finishes the checkpoint itself (between two group
/// commits), so that its next transaction starts the WAL again from its beginning.
pub(super) const WAL_RESTART_FRAMES: i64 = 16_384;
/// How often the checkpointer copies the WAL into the database.
pub(super) const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// `PRAGMA wal_checkpoint(PASSIVE)`: (busy, frames in the WAL, frames checkpointed).
pub(super) fn checkpoint(c: &Connection) -> rusqlite::Result<(i64, i64, i64)> {
    c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })
}
