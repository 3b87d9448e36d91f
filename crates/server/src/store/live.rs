//! Unfinished games' events: appended to `events` without an index entry, and indexed in
//! `event_index` (clustered by game) in one go when the game ends.
//!
//! Why: with thousands of games playing at once, an index on (game, ver) written with every
//! move dirties one index page per move, each far from the last (the games' keys are
//! scattered), and each such page is written to the WAL and then to the database: that was
//! most of the disk traffic and of the writer's time under load. Appending to `events` only
//! writes the table's last pages; a finished game's entries all go into one or two index
//! pages.
//!
//! The writer thread keeps, for each unfinished game, the rowids of its events not yet
//! indexed ([`Live`]). Three rules keep every event findable after a crash:
//! - a game's first event is indexed at once, so every game with events has an index entry;
//! - a game's other events are indexed when its result is written (same transaction), or
//!   when they are older than [`AGE`] rows (so that a game that never ends does not make
//!   start-up read the whole table);
//! - so an unfinished game's unindexed events all come after its last indexed one, and
//!   start-up finds them by reading `events` from the smallest such rowid on ([`load`]), or
//!   from a later mark in `meta` that the aging pass keeps (every unindexed event is at or
//!   after it), so that a game idle for long does not make start-up read from its old rows.
//!
//! A version stored twice (a commit reported failed that reached the disk all the same,
//! then written again by the reloaded game) loads once, as its later row.
//!
//! The map changes with the writes of a transaction; each change is logged ([`Undo`]) so that
//! a write rolled back (a job's savepoint, or a failed commit) takes its changes back too.

use std::collections::{HashMap, VecDeque};

use rusqlite::{Connection, OptionalExtension, params};

use super::EventRow;

/// Unindexed events older than this many rows (behind the newest) are indexed, game by game.
const AGE: i64 = 1 << 18;

/// Pending events the aging pass indexes at most per group commit (whole games, oldest
/// first; at least one game): a pass that finds thousands of old games (games started
/// together, as under a load test, age together) is spread over many commits instead of
/// holding one commit, and every move acknowledged after it, for a third of a second.
const AGE_BUDGET: usize = 512;

/// The `meta` key of the id from which start-up reads `events` ([`Live::index_old`]).
const SCAN_FROM: &str = "events_scan_from";

/// One unfinished game as the writer knows it.
#[derive(Debug, Default)]
struct LiveGame {
    /// Its newest event's version (0 before its first).
    last_ver: u64,
    /// Its events not yet in `event_index`: (version, rowid), oldest first.
    pending: Vec<(u64, i64)>,
    /// Whether any of its events is in `event_index` (its first one is, at once).
    indexed: bool,
}

/// How to take back one change of [`Live`].
#[derive(Debug)]
enum Undo {
    /// A game became live: forget it.
    Started(String),
    /// An event was added: restore the version and flag, and drop the pending entry if one
    /// was pushed.
    Added {
        game: String,
        last_ver: u64,
        indexed: bool,
        pushed: bool,
    },
    /// Pending events were indexed: they are pending again.
    Flushed(String, Vec<(u64, i64)>),
    /// A game ended: it is live again, as it was.
    Finished(String, LiveGame),
}

/// The unfinished games' unindexed events, kept by the writer thread.
#[derive(Debug)]
pub(super) struct Live {
    games: HashMap<String, LiveGame>,
    undo: Vec<Undo>,
    /// The newest rowid in `events`.
    head: i64,
    /// `head` when old pending events were last looked for.
    aged_at: i64,
    /// [`AGE`] (tests use less).
    age: i64,
    /// The aging pass under way: the old games it has yet to index, oldest first.
    aging: VecDeque<String>,
    /// [`AGE_BUDGET`] (tests use less).
    budget: usize,
}

impl Default for Live {
    fn default() -> Live {
        Live {
            games: HashMap::new(),
            undo: Vec::new(),
            head: 0,
            aged_at: 0,
            age: AGE,
            aging: VecDeque::new(),
            budget: AGE_BUDGET,
        }
    }
}

/// The error SQLite gives for a second event with the same version, for a game whose
/// versions are checked here (its events are not in a unique index yet).
fn duplicate(game: &str, ver: u64) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE),
        Some(format!(
            "UNIQUE constraint failed: events.game, events.ver (game {game}, version {ver} is not after its last)"
        )),
    )
}

fn index(c: &Connection, game: &str, ver: u64, row: i64) -> rusqlite::Result<()> {
    c.prepare_cached("INSERT INTO event_index (game, ver, event) VALUES (?1, ?2, ?3)")?
        .execute(params![game, i64::try_from(ver).unwrap_or(i64::MAX), row])?;
    Ok(())
}

/// Indexes `pending` events (version, rowid) of `game`.
fn index_all(c: &Connection, game: &str, pending: &[(u64, i64)]) -> rusqlite::Result<()> {
    pending
        .iter()
        .try_for_each(|&(ver, id)| index(c, game, ver, id))
}

impl Live {
    /// A mark to roll back to ([`Live::rollback_to`]).
    pub(super) fn mark(&self) -> usize {
        self.undo.len()
    }

    /// Takes back every change since `mark`, newest first.
    pub(super) fn rollback_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            match self.undo.pop().expect("longer than mark") {
                Undo::Started(g) => {
                    self.games.remove(&g);
                }
                Undo::Added {
                    game,
                    last_ver,
                    indexed,
                    pushed,
                } => {
                    if let Some(g) = self.games.get_mut(&game) {
                        if pushed {
                            g.pending.pop();
                        }
                        g.last_ver = last_ver;
                        g.indexed = indexed;
                    }
                }
                Undo::Flushed(game, pending) => {
                    if let Some(g) = self.games.get_mut(&game) {
                        g.pending = pending;
                    }
                }
                Undo::Finished(game, g) => {
                    self.games.insert(game, g);
                }
            }
        }
    }

    /// The transaction committed: its changes stay.
    pub(super) fn committed(&mut self) {
        self.undo.clear();
    }

    /// A new game: live until its result is written.
    pub(super) fn start(&mut self, game: &str) {
        if self.games.contains_key(game) {
            return;
        }
        self.games.insert(game.to_string(), LiveGame::default());
        self.undo.push(Undo::Started(game.to_string()));
    }

    /// Appends one event of `game`: indexed at once for a game that is not live (finished,
    /// or written by someone else) and for a live game's first event; else kept pending.
    ///
    /// # Errors
    /// SQLite's, or a version not after the live game's last one.
    pub(super) fn event(
        &mut self,
        c: &Connection,
        game: &str,
        row: &EventRow,
    ) -> rusqlite::Result<()> {
        if let Some(g) = self.games.get(game) {
            if row.ver <= g.last_ver {
                return Err(duplicate(game, row.ver));
            }
        }
        c.prepare_cached("INSERT INTO events (game, ver, arb, clocks) VALUES (?1, ?2, ?3, ?4)")?
            .execute(params![
                game,
                i64::try_from(row.ver).unwrap_or(i64::MAX),
                row.arb,
                row.clocks
            ])?;
        let id = c.last_insert_rowid();
        let Some(g) = self.games.get_mut(game) else {
            index(c, game, row.ver, id)?;
            self.head = self.head.max(id);
            return Ok(());
        };
        if !g.indexed {
            index(c, game, row.ver, id)?;
        }
        let pushed = g.indexed;
        self.undo.push(Undo::Added {
            game: game.to_string(),
            last_ver: g.last_ver,
            indexed: g.indexed,
            pushed,
        });
        if pushed {
            g.pending.push((row.ver, id));
        }
        g.indexed = true;
        g.last_ver = row.ver;
        self.head = self.head.max(id);
        Ok(())
    }

    /// `game` ended: its pending events are indexed and it is no longer live.
    ///
    /// # Errors
    /// SQLite's.
    pub(super) fn finish(&mut self, c: &Connection, game: &str) -> rusqlite::Result<()> {
        let Some(g) = self.games.get(game) else {
            return Ok(());
        };
        index_all(c, game, &g.pending)?;
        let g = self.games.remove(game).expect("just seen");
        self.undo.push(Undo::Finished(game.to_string(), g));
        Ok(())
    }

    /// Indexes the pending events of live games whose oldest one is more than [`AGE`] rows
    /// old: looks at most once per `AGE / 4` rows written, and then indexes at most
    /// [`AGE_BUDGET`] events per call (whole games, oldest first), going on at the next
    /// calls until no old game is left; then writes the mark start-up reads from.
    ///
    /// # Errors
    /// SQLite's.
    pub(super) fn index_old(&mut self, c: &Connection) -> rusqlite::Result<()> {
        // The table's own last id (not `head`: a rolled-back insert's id is given again).
        let last_id = |c: &Connection| -> rusqlite::Result<i64> {
            c.query_row("SELECT COALESCE(MAX(id), 0) FROM events", [], |r| r.get(0))
        };
        if self.aging.is_empty() {
            if self.head - self.aged_at < self.age / 4 {
                return Ok(());
            }
            let last = last_id(c)?;
            self.head = last;
            self.aged_at = last;
            let mut old: Vec<(i64, &String)> = self
                .games
                .iter()
                .filter_map(|(k, g)| {
                    let &(_, id) = g.pending.first()?;
                    (id < last - self.age).then_some((id, k))
                })
                .collect();
            old.sort_unstable();
            self.aging = old.into_iter().map(|(_, k)| k.clone()).collect();
        }
        let mut spent = 0;
        while spent < self.budget {
            let Some(game) = self.aging.pop_front() else {
                break;
            };
            // A game may have ended (its events indexed then) since the pass began.
            let Some(g) = self.games.get_mut(&game) else {
                continue;
            };
            index_all(c, &game, &g.pending)?;
            spent += g.pending.len();
            let pending = std::mem::take(&mut g.pending);
            self.undo.push(Undo::Flushed(game, pending));
        }
        if !self.aging.is_empty() {
            return Ok(());
        }
        let last = last_id(c)?;
        // Every unindexed event of an unfinished game is at or after this id, now and
        // later (new events get larger ids): start-up reads `events` from here.
        let from = self
            .games
            .values()
            .filter_map(|g| g.pending.first().map(|&(_, id)| id))
            .min()
            .unwrap_or(last + 1);
        c.prepare_cached("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")?
            .execute(params![SCAN_FROM, from])?;
        Ok(())
    }

    /// Every stored event of `game`, by version: the indexed ones and, for a live game, the
    /// pending ones (on the writer's connection, which sees its own commits).
    ///
    /// # Errors
    /// SQLite's.
    pub(super) fn events(&self, c: &Connection, game: &str) -> rusqlite::Result<Vec<EventRow>> {
        let mut out: Vec<EventRow> = indexed(c, game)?.into_iter().map(|(_, e)| e).collect();
        if let Some(g) = self.games.get(game) {
            let mut q = c.prepare_cached("SELECT ver, arb, clocks FROM events WHERE id=?1")?;
            for &(_, id) in &g.pending {
                out.push(q.query_row([id], event_row)?);
            }
        }
        out.sort_by_key(|e| e.ver);
        Ok(out)
    }
}

fn event_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<EventRow> {
    Ok(EventRow {
        ver: u64::try_from(r.get::<_, i64>(0)?).unwrap_or(0),
        arb: r.get(1)?,
        clocks: r.get(2)?,
    })
}

/// The indexed events of `game`, by version, each with its rowid.
///
/// # Errors
/// SQLite's.
pub(super) fn indexed(c: &Connection, game: &str) -> rusqlite::Result<Vec<(i64, EventRow)>> {
    let mut q = c.prepare_cached(
        "SELECT e.ver, e.arb, e.clocks, e.id FROM event_index i JOIN events e ON e.id = i.event
         WHERE i.game = ?1 ORDER BY i.ver",
    )?;
    q.query_map([game], |r| Ok((r.get(3)?, event_row(r)?)))?
        .collect()
}

/// At start-up: the events of each of the `unfinished` games, by version, and the writer's
/// [`Live`] for them. Reads each game's indexed events, then `events` once from the
/// smallest of the games' last indexed rowids on.
///
/// # Errors
/// SQLite's.
pub(super) fn load(
    c: &Connection,
    unfinished: &[String],
) -> rusqlite::Result<(HashMap<String, Vec<EventRow>>, Live)> {
    let mut live = Live {
        head: c.query_row("SELECT COALESCE(MAX(id), 0) FROM events", [], |r| r.get(0))?,
        ..Live::default()
    };
    live.aged_at = live.head;
    let mut out: HashMap<String, Vec<EventRow>> = HashMap::with_capacity(unfinished.len());
    // Per game: the rowid of its last indexed event; unindexed ones come after it.
    let mut floor: HashMap<&str, i64> = HashMap::with_capacity(unfinished.len());
    for id in unfinished {
        let rows = indexed(c, id)?;
        let mut g = LiveGame::default();
        if let Some(&(last, _)) = rows.iter().max_by_key(|(rowid, _)| *rowid) {
            floor.insert(id, last);
            g.indexed = true;
        }
        g.last_ver = rows.iter().map(|(_, e)| e.ver).max().unwrap_or(0);
        out.insert(id.clone(), rows.into_iter().map(|(_, e)| e).collect());
        live.games.insert(id.clone(), g);
    }
    // From the lowest of the games' last indexed ids, or from the mark `index_old` keeps
    // where that is later (a game idle for long keeps an old floor but nothing pending).
    let mark: Option<i64> = c
        .query_row("SELECT value FROM meta WHERE key=?1", [SCAN_FROM], |r| {
            r.get(0)
        })
        .optional()?;
    let from = floor
        .values()
        .min()
        .map(|&f| mark.map_or(f, |m| f.max(m - 1)));
    // Found after the floors: (version, id, event) per game.
    let mut found: HashMap<String, Vec<(u64, i64, EventRow)>> = HashMap::new();
    if let Some(from) = from {
        let mut q =
            c.prepare("SELECT id, game, ver, arb, clocks FROM events WHERE id > ?1 ORDER BY id")?;
        let mut rows = q.query([from])?;
        while let Some(r) = rows.next()? {
            let game: String = r.get(1)?;
            let id: i64 = r.get(0)?;
            let Some(&f) = floor.get(game.as_str()) else {
                continue;
            };
            if id <= f {
                continue;
            }
            let e = EventRow {
                ver: u64::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
                arb: r.get(3)?,
                clocks: r.get(4)?,
            };
            found.entry(game).or_default().push((e.ver, id, e));
        }
    }
    for (game, mut rows) in found {
        // A version found twice (a commit reported failed that reached the disk all the
        // same, then written again): the later row is the one the game went on from.
        rows.sort_by_key(|&(ver, id, _)| (ver, id));
        let mut kept: Vec<(u64, i64, EventRow)> = Vec::with_capacity(rows.len());
        for row in rows {
            if kept.last().is_some_and(|k| k.0 == row.0) {
                tracing::warn!(game = %game, ver = row.0, "an event stored twice: the later one is kept");
                kept.pop();
            }
            kept.push(row);
        }
        let g = live.games.get_mut(&game).expect("unfinished");
        let events = out.get_mut(&game).expect("unfinished");
        for (ver, id, e) in kept {
            g.pending.push((ver, id));
            g.last_ver = g.last_ver.max(ver);
            events.push(e);
        }
    }
    for events in out.values_mut() {
        events.sort_by_key(|e| e.ver);
    }
    Ok((out, live))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db() -> Connection {
        let mut c = Connection::open_in_memory().unwrap();
        c.execute_batch(super::super::schema::SCHEMA).unwrap();
        super::super::migrate::migrate(&mut c, true).unwrap();
        c
    }

    fn ev(ver: u64) -> EventRow {
        EventRow {
            ver,
            arb: format!(r#"{{"a":"chat","seat":0,"text":"{ver}"}}"#),
            clocks: "null".into(),
        }
    }

    fn index_rows(c: &Connection, game: &str) -> Vec<u64> {
        c.prepare("SELECT ver FROM event_index WHERE game=?1 ORDER BY ver")
            .unwrap()
            .query_map([game], |r| r.get::<_, i64>(0))
            .unwrap()
            .map(|v| u64::try_from(v.unwrap()).unwrap())
            .collect()
    }

    fn vers(events: &[EventRow]) -> Vec<u64> {
        events.iter().map(|e| e.ver).collect()
    }

    /// A live game's first event is indexed at once, the others when the game ends; the
    /// writer finds them all meanwhile.
    #[test]
    fn a_live_games_events_are_indexed_when_it_ends_and_its_first_at_once() {
        let c = db();
        let mut live = Live::default();
        live.start("g");
        for v in 1..=5 {
            live.event(&c, "g", &ev(v)).unwrap();
        }
        assert_eq!(index_rows(&c, "g"), [1]);
        assert_eq!(vers(&live.events(&c, "g").unwrap()), [1, 2, 3, 4, 5]);
        live.finish(&c, "g").unwrap();
        assert_eq!(index_rows(&c, "g"), [1, 2, 3, 4, 5]);
        // After its end, a game's events are indexed as they come.
        live.event(&c, "g", &ev(6)).unwrap();
        assert_eq!(index_rows(&c, "g"), [1, 2, 3, 4, 5, 6]);
    }

    /// A live game's versions are checked here, as the unique index checks a finished
    /// game's: a version not after the last is refused and nothing is written.
    #[test]
    fn a_live_game_refuses_a_version_not_after_its_last() {
        let c = db();
        let mut live = Live::default();
        live.start("g");
        live.event(&c, "g", &ev(1)).unwrap();
        live.event(&c, "g", &ev(2)).unwrap();
        for v in [1, 2] {
            let e = live.event(&c, "g", &ev(v)).unwrap_err();
            assert!(e.to_string().contains("UNIQUE constraint failed"), "{e}");
        }
        let n: i64 = c
            .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 2);
        // A finished game: the index refuses it.
        live.finish(&c, "g").unwrap();
        assert!(live.event(&c, "g", &ev(2)).is_err());
    }

    /// Rolling back takes back every change to the map since the mark, newest first: a
    /// game started, events added, a game ended.
    #[test]
    fn a_rollback_takes_back_the_maps_changes_with_the_writes() {
        let c = db();
        let mut live = Live::default();
        live.start("a");
        live.event(&c, "a", &ev(1)).unwrap();
        live.event(&c, "a", &ev(2)).unwrap();
        live.committed();
        let mark = live.mark();
        live.event(&c, "a", &ev(3)).unwrap();
        live.finish(&c, "a").unwrap();
        live.start("b");
        live.event(&c, "b", &ev(1)).unwrap();
        live.rollback_to(mark);
        assert!(!live.games.contains_key("b"));
        let a = &live.games["a"];
        assert_eq!((a.last_ver, a.pending.len(), a.indexed), (2, 1, true));
    }

    /// Events pending longer than the age limit are indexed while the game goes on, so
    /// that start-up reads only the recent part of `events`; start-up then finds every
    /// event of every unfinished game, and the writer carries on from there.
    #[test]
    fn old_pending_events_are_indexed_and_start_up_finds_every_unfinished_event() {
        let c = db();
        let mut live = Live {
            age: 8,
            ..Live::default()
        };
        for g in ["slow", "fast", "done"] {
            live.start(g);
        }
        live.event(&c, "slow", &ev(1)).unwrap();
        live.event(&c, "slow", &ev(2)).unwrap();
        for v in 1..=12 {
            live.event(&c, "fast", &ev(v)).unwrap();
            live.event(&c, "done", &ev(v)).unwrap();
            live.index_old(&c).unwrap();
        }
        live.finish(&c, "done").unwrap();
        live.event(&c, "slow", &ev(3)).unwrap();
        live.committed();
        // The slow game's second event was old: indexed; its third is recent: pending.
        assert_eq!(index_rows(&c, "slow"), [1, 2]);
        assert!(index_rows(&c, "fast").len() > 1);
        assert!(index_rows(&c, "fast").len() < 12);
        let (events, mut again) = load(&c, &["slow".into(), "fast".into(), "none".into()]).unwrap();
        assert_eq!(vers(&events["slow"]), [1, 2, 3]);
        assert_eq!(vers(&events["fast"]), (1..=12).collect::<Vec<_>>());
        assert!(events["none"].is_empty());
        assert!(!events.contains_key("done"));
        // The loaded map goes on as the old one would have.
        assert!(again.event(&c, "fast", &ev(12)).is_err());
        again.event(&c, "fast", &ev(13)).unwrap();
        again.event(&c, "none", &ev(1)).unwrap();
        again.finish(&c, "fast").unwrap();
        assert_eq!(index_rows(&c, "fast"), (1..=13).collect::<Vec<_>>());
        assert_eq!(index_rows(&c, "none"), [1]);
    }

    /// Start-up reads `events` from the lowest of the unfinished games' last indexed rows
    /// (not the highest): a game whose unindexed events come before another game's last
    /// indexed one still gets them.
    #[test]
    fn start_up_reads_from_the_lowest_last_indexed_row() {
        let c = db();
        let mut live = Live::default();
        live.start("a");
        live.start("b");
        live.event(&c, "a", &ev(1)).unwrap(); // id 1, indexed
        live.event(&c, "a", &ev(2)).unwrap(); // id 2, pending
        live.event(&c, "b", &ev(1)).unwrap(); // id 3, indexed
        live.event(&c, "b", &ev(2)).unwrap(); // id 4, pending
        let (events, _) = load(&c, &["a".into(), "b".into()]).unwrap();
        assert_eq!(vers(&events["a"]), [1, 2]);
        assert_eq!(vers(&events["b"]), [1, 2]);
    }

    /// The mark kept with the aging pass lets start-up skip what lies before it: a game
    /// idle for long (all its events indexed) no longer makes it read from its old last
    /// row; every event is still found.
    #[test]
    fn the_aging_pass_keeps_a_mark_past_games_with_nothing_pending() {
        let c = db();
        let mut live = Live {
            age: 8,
            ..Live::default()
        };
        live.start("idle");
        live.start("busy");
        live.event(&c, "idle", &ev(1)).unwrap();
        for v in 1..=20 {
            live.event(&c, "busy", &ev(v)).unwrap();
            live.index_old(&c).unwrap();
        }
        let mark: i64 = c
            .query_row("SELECT value FROM meta WHERE key=?1", [SCAN_FROM], |r| {
                r.get(0)
            })
            .unwrap();
        assert!(
            mark > 1,
            "the mark moved past the idle game's only event ({mark})"
        );
        let busy = &live.games["busy"];
        assert!(busy.pending.iter().all(|&(_, id)| id >= mark));
        let (events, _) = load(&c, &["idle".into(), "busy".into()]).unwrap();
        assert_eq!(vers(&events["idle"]), [1]);
        assert_eq!(vers(&events["busy"]), (1..=20).collect::<Vec<_>>());
    }

    /// An aging pass that finds more old events than its budget indexes whole games, oldest
    /// first, up to the budget per commit, and goes on at the next commits until none is
    /// left; the start-up mark is written only then, and start-up finds every event at each
    /// step.
    #[test]
    fn a_long_aging_pass_is_spread_over_commits_oldest_games_first() {
        let c = db();
        let mut live = Live {
            age: 4,
            budget: 3,
            ..Live::default()
        };
        let games = ["a", "b", "c", "d"];
        for g in games {
            live.start(g);
        }
        // Each game: its first event (indexed at once) and two pending, games interleaved
        // so that "a" holds the oldest pending event, then "b", "c", "d".
        for v in 1..=3 {
            for g in games {
                live.event(&c, g, &ev(v)).unwrap();
            }
        }
        for v in 1..=8 {
            live.event(&c, "late", &ev(v)).unwrap();
        }
        let mark = || {
            c.query_row("SELECT value FROM meta WHERE key=?1", [SCAN_FROM], |r| {
                r.get::<_, i64>(0)
            })
            .optional()
            .unwrap()
        };
        let pending = |live: &Live| -> Vec<usize> {
            games.iter().map(|g| live.games[*g].pending.len()).collect()
        };
        live.index_old(&c).unwrap();
        assert_eq!(
            pending(&live),
            [0, 0, 2, 2],
            "two games (4 events) reach the budget of 3"
        );
        assert_eq!(mark(), None, "no mark while old games remain");
        live.committed();
        let (events, _) = load(&c, &games.map(String::from)).unwrap();
        assert!(games.iter().all(|g| vers(&events[*g]) == [1, 2, 3]));
        live.index_old(&c).unwrap();
        assert_eq!(pending(&live), [0, 0, 0, 0]);
        assert!(mark().is_some(), "the pass is over: the mark is written");
        live.committed();
        let (events, _) = load(&c, &games.map(String::from)).unwrap();
        assert!(games.iter().all(|g| vers(&events[*g]) == [1, 2, 3]));
        for g in games {
            assert_eq!(index_rows(&c, g), [1, 2, 3]);
        }
    }

    /// An aging pass taken back (its transaction failed) leaves the events it indexed
    /// pending again.
    #[test]
    fn a_rolled_back_aging_pass_leaves_its_events_pending() {
        let c = db();
        let mut live = Live {
            age: 4,
            ..Live::default()
        };
        live.start("g");
        for v in 1..=10 {
            live.event(&c, "g", &ev(v)).unwrap();
        }
        live.committed();
        let before = live.games["g"].pending.clone();
        let mark = live.mark();
        live.index_old(&c).unwrap();
        assert!(live.games["g"].pending.is_empty());
        live.rollback_to(mark);
        assert_eq!(live.games["g"].pending, before);
    }

    /// A version stored twice for an unfinished game (a commit reported failed that reached
    /// the disk, then the game wrote it again) loads once, as its later row, and the game
    /// can still end.
    #[test]
    fn a_version_stored_twice_loads_once_as_its_later_row() {
        let c = db();
        let mut live = Live::default();
        live.start("g");
        live.event(&c, "g", &ev(1)).unwrap();
        live.event(&c, "g", &ev(2)).unwrap();
        c.execute(
            "INSERT INTO events (game, ver, arb, clocks) VALUES ('g', 2, 'again', 'null')",
            [],
        )
        .unwrap();
        let (events, mut again) = load(&c, &["g".into()]).unwrap();
        assert_eq!(vers(&events["g"]), [1, 2]);
        assert_eq!(events["g"][1].arb, "again");
        again.finish(&c, "g").unwrap();
        assert_eq!(index_rows(&c, "g"), [1, 2]);
    }
}
