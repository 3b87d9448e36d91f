//! Reading rows back (games, events, tables) and applying one write.

use rusqlite::{Connection, params};

use super::live::Live;
use super::{EventRow, GameRow, Op, TableRow};

pub(super) fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    let seed: String = r.get(3)?;
    Ok(GameRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        options: r.get(2)?,
        // The error names the game only: a seed stays secret, also in the logs.
        seed: seed.parse().map_err(|_: String| {
            let id: String = r.get(0).unwrap_or_default();
            rusqlite::Error::FromSqlConversionFailure(
                3,
                rusqlite::types::Type::Text,
                format!("game {id}: its seed is not a seed").into(),
            )
        })?,
        clock: r.get(4)?,
        players: r.get(5)?,
        public: r.get::<_, i64>(6)? != 0,
        result: r.get(7)?,
    })
}

/// The events of a game whose events are all indexed (a finished game: its result and its
/// last index entries are written in one transaction), by version.
pub(super) fn events(c: &Connection, game: &str) -> rusqlite::Result<Vec<EventRow>> {
    Ok(super::live::indexed(c, game)?
        .into_iter()
        .map(|(_, e)| e)
        .collect())
}

pub(super) fn load_tables(c: &Connection) -> rusqlite::Result<Vec<(TableRow, Vec<String>)>> {
    let rows: Vec<TableRow> = c
        .prepare("SELECT id, init FROM arbiter_tables")?
        .query_map([], |r| {
            Ok(TableRow {
                id: r.get(0)?,
                init: r.get(1)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut q = c.prepare("SELECT body FROM arbiter_table_events WHERE tbl=?1 ORDER BY n")?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let events = q
            .query_map([&row.id], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        out.push((row, events));
    }
    Ok(out)
}

/// Applies one write; game events go through `live` ([`super::live`]).
pub(super) fn apply(c: &Connection, live: &mut Live, op: &Op) -> rusqlite::Result<()> {
    match op {
        Op::Guest(g) => {
            c.prepare_cached(
                "INSERT INTO guests (id, name, token_hash, seen) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![
                g.id,
                g.name,
                g.token_hash,
                i64::try_from(g.seen).unwrap_or(i64::MAX)
            ])?;
        }
        Op::Seen(list) => {
            let mut q = c.prepare_cached("UPDATE guests SET seen=?2 WHERE id=?1")?;
            for (id, at) in list {
                q.execute(params![id, i64::try_from(*at).unwrap_or(i64::MAX)])?;
            }
        }
        Op::ForgetGuest(id) => {
            c.prepare_cached("DELETE FROM guests WHERE id=?1")?
                .execute(params![id])?;
        }
        Op::Game(g) => {
            c.prepare_cached(
                "INSERT INTO games (id, kind, options, seed, clock, players, public, result)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                g.id,
                g.kind,
                g.options,
                g.seed.to_string(),
                g.clock,
                g.players,
                i64::from(g.public),
                g.result
            ])?;
            if g.result.is_none() {
                live.start(&g.id);
            }
        }
        Op::Event { game, row } => live.event(c, game, row)?,
        Op::Result { game, result } => {
            c.prepare_cached("UPDATE games SET result=?2 WHERE id=?1")?
                .execute(params![game, result])?;
            live.finish(c, game)?;
        }
        Op::Table(t) => {
            c.prepare_cached("INSERT INTO arbiter_tables (id, init) VALUES (?1, ?2)")?
                .execute(params![t.id, t.init])?;
        }
        Op::TableEvent { table, n, body } => {
            c.prepare_cached(
                "INSERT INTO arbiter_table_events (tbl, n, body) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![table, i64::try_from(*n).unwrap_or(i64::MAX), body])?;
        }
        Op::Rating(op) => crate::rating_book::apply(c, op)?,
        Op::Account(a) => super::accounts::apply(c, a)?,
        Op::Analysis(a) => crate::analysis::store(c, a)?,
    }
    Ok(())
}
