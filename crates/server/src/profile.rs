//! Leaderboards, public profiles and each player's paged game history (all public facts:
//! ratings move only at a game's end, from its result).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use rusqlite::params;
use salpakan_engine::{GameKind, Seat};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::app::App;
use crate::error::{Error, Result};
use crate::rating::{self, START_RATING};
use crate::rating_book::board_name;

const DAY_MS: u64 = 86_400_000;

fn ms(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn unknown_board(b: &str) -> Error {
    Error::NotFound(format!(
        "there is no board {:?}; the boards are {}",
        b.chars().take(32).collect::<String>(),
        rating::BOARDS.join(", ")
    ))
}

fn unknown_player(n: &str) -> Error {
    Error::NotFound(format!(
        "there is no player named {:?}",
        n.chars().take(32).collect::<String>()
    ))
}

/// `GET /api/leaderboard/{board}`: the top 100 of the accounts and bots active in the last
/// 30 days, with at least `leaderboard_min_games` rated games and a rating that is not
/// provisional.
pub async fn leaderboard(
    State(app): State<Arc<App>>,
    Path(board): Path<String>,
) -> Result<Json<Value>> {
    let b = board_name(&board).ok_or_else(|| unknown_board(&board))?;
    let now = app.wall_ms();
    let since = now.saturating_sub(30 * DAY_MS);
    let week = now.saturating_sub(7 * DAY_MS);
    let (min_games, max_rd) = (app.config.leaderboard_min_games, app.book.provisional_rd());
    let rows = app
        .store
        .read(move |c| {
            c.prepare(
                "SELECT r.user, r.rating, r.rd, r.games,
                   (SELECT h.rating FROM rating_history h WHERE h.user = r.user AND h.board = r.board
                      AND h.at <= ?5 ORDER BY h.at DESC, h.rowid DESC LIMIT 1)
                 FROM ratings r WHERE r.board = ?1 AND r.games >= ?2 AND r.rd <= ?3 AND r.last >= ?4
                 ORDER BY r.rating DESC LIMIT 1000",
            )?
            .query_map(params![b, ms(min_games), max_rd, ms(since), ms(week)], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, f64>(1)?,
                    r.get::<_, f64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, Option<f64>>(4)?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()
        })
        .await?;
    let players: Vec<Value> = rows
        .into_iter()
        .filter_map(|(user, r, rd, games, week_ago)| {
            let a = app.accounts.info(&user).filter(|a| !a.closed)?;
            Some((a, r, rd, games, week_ago))
        })
        .take(100)
        .enumerate()
        .map(|(i, (a, r, rd, games, week_ago))| {
            let trend = rating::shown(r) - rating::shown(week_ago.unwrap_or(START_RATING));
            json!({"rank": i + 1, "name": a.name, "rating": rating::shown(r),
                   "rd": rating::shown(rd), "games": games, "trend": trend, "bot": a.bot})
        })
        .collect();
    Ok(Json(json!({"v": 1, "board": b, "players": players})))
}

/// One board's rating row of a profile: (board, rating, rd, games, wins, draws, losses).
type BoardRow = (String, f64, f64, i64, i64, i64, i64);

/// What a profile reads: ratings, rating histories, W/D/L per kind, finished and
/// abandoned games, kudos.
type ProfileRows = (
    Vec<BoardRow>,
    Vec<(String, i64, f64)>,
    Vec<(String, String, i64)>,
    (i64, i64),
    i64,
);

/// `GET /api/players/{name}`: a player's public profile (a moderator also sees its mark).
pub async fn player(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<Json<Value>> {
    let a = app
        .accounts
        .by_name(&name)
        .ok_or_else(|| unknown_player(&name))?;
    let id = a.id.clone();
    let (boards, history, record, (finished, abandoned), kudos): ProfileRows = app
        .store
        .read(move |c| {
            let boards = c
                .prepare(
                    "SELECT board, rating, rd, games, wins, draws, losses FROM ratings WHERE user=?1",
                )?
                .query_map([&id], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                    ))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let history = c
                .prepare("SELECT board, at, rating FROM rating_history WHERE user=?1 ORDER BY at, rowid")?
                .query_map([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let record = c
                .prepare("SELECT kind, result, COUNT(*) FROM played WHERE user=?1 GROUP BY kind, result")?
                .query_map([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let rep = c.query_row(
                "SELECT COALESCE(SUM(abandoned = 0), 0), COALESCE(SUM(abandoned), 0) FROM played WHERE user=?1",
                [&id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let kudos =
                c.query_row("SELECT COUNT(*) FROM kudos WHERE receiver=?1", [&id], |r| {
                    r.get(0)
                })?;
            Ok((boards, history, record, rep, kudos))
        })
        .await?;
    let mut ratings = Map::new();
    for (board, r, rd, games, wins, draws, losses) in boards {
        let h: Vec<Value> = history
            .iter()
            .filter(|(b, ..)| *b == board)
            .map(|(_, at, r)| json!([at, rating::shown(*r)]))
            .collect();
        ratings.insert(
            board,
            json!({"rating": rating::shown(r), "rd": rating::shown(rd),
                   "provisional": rd > app.book.provisional_rd(), "games": games, "wins": wins,
                   "draws": draws, "losses": losses, "history": h}),
        );
    }
    let mut rec = Map::new();
    for (kind, result, n) in record {
        let e = rec
            .entry(kind)
            .or_insert_with(|| json!({"wins": 0, "draws": 0, "losses": 0}));
        let key = match result.as_str() {
            "win" => "wins",
            "loss" => "losses",
            _ => "draws",
        };
        e[key] = n.into();
    }
    let completion = rating::completion(
        u64::try_from(finished).unwrap_or(0),
        u64::try_from(abandoned).unwrap_or(0),
    );
    let mut p = json!({"v": 1, "name": a.name, "bot": a.bot, "member_since": a.created,
        "last_seen": a.seen / DAY_MS * DAY_MS, "ratings": ratings, "record": rec,
        "reputation": {"finished": finished, "abandoned": abandoned, "completion": completion,
                       "kudos": kudos}});
    if a.closed {
        p["closed"] = true.into();
    }
    let viewer = crate::http::user(&app, &headers).ok();
    if viewer.is_some_and(|v| app.accounts.is_moderator(&v.id)) {
        p["marked"] = a.mark.into();
    }
    Ok(Json(p))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
/// The query of `GET /api/players/{name}/games`.
pub struct HistoryQuery {
    #[serde(default)]
    before: Option<String>,
    #[serde(default)]
    limit: Option<u32>,
}

/// One history row: (game, kind, board, rated, seat, opponent id, opponent name,
/// opponent an account, result, reason, rating change, ended).
type HistoryRow = (
    String,
    String,
    Option<String>,
    bool,
    i64,
    Option<String>,
    String,
    bool,
    String,
    String,
    Option<i64>,
    i64,
);

/// `GET /api/players/{name}/games?before=<cursor>&limit=<1..50>`: the player's finished
/// games, newest first, a page at a time (`next` is the cursor of the next page).
pub async fn games(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    Query(q): Query<HistoryQuery>,
) -> Result<Json<Value>> {
    let a = app
        .accounts
        .by_name(&name)
        .ok_or_else(|| unknown_player(&name))?;
    let limit = q.limit.unwrap_or(20);
    if !(1..=50).contains(&limit) {
        return Err(Error::BadRequest("\"limit\" is 1 to 50".into()));
    }
    let bad_cursor =
        || Error::BadRequest("\"before\" is a \"next\" cursor of an earlier page".into());
    let (ended, game) = match q.before.as_deref() {
        None | Some("") => (i64::MAX, String::new()),
        Some(c) => {
            let (e, g) = c.split_once('-').ok_or_else(bad_cursor)?;
            let e: i64 = e.parse().map_err(|_| bad_cursor())?;
            if g.len() > 32 || !g.bytes().all(|b| b.is_ascii_alphanumeric()) {
                return Err(bad_cursor());
            }
            (e, g.to_string())
        }
    };
    let id = a.id.clone();
    let rows: Vec<HistoryRow> = app
        .store
        .read(move |c| {
            c.prepare(
                "SELECT game, kind, board, rated, seat, opponent, opponent_name, opponent_account,
                        result, reason, rating_diff, ended
                 FROM played WHERE user = ?1 AND (ended < ?2 OR (ended = ?2 AND game < ?3))
                 ORDER BY ended DESC, game DESC LIMIT ?4",
            )?
            .query_map(params![id, ended, game, i64::from(limit) + 1], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                    r.get(10)?,
                    r.get(11)?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()
        })
        .await?;
    let more = rows.len() > limit as usize;
    let page = &rows[..rows.len().min(limit as usize)];
    let next = if more {
        page.last().map(|r| format!("{}-{}", r.11, r.0))
    } else {
        None
    };
    let games: Vec<Value> = page
        .iter()
        .map(
            |(
                game,
                kind,
                board,
                rated,
                seat,
                opp,
                opp_name,
                opp_account,
                result,
                reason,
                diff,
                ended,
            )| {
                let seat = kind
                    .parse::<GameKind>()
                    .ok()
                    .map(|k| k.seat_name(Seat::from_index(usize::from(*seat == 1))));
                // An account deleted since shows under the neutral name, and no longer as
                // an account (it has no profile to link to).
                let deleted = opp
                    .as_deref()
                    .is_some_and(|o| *opp_account && app.accounts.info(o).is_none());
                let opponent = if deleted {
                    crate::account::DELETED_NAME.to_string()
                } else {
                    opp_name.clone()
                };
                json!({"game": game, "kind": kind, "board": board, "rated": rated, "seat": seat,
                   "opponent": opponent, "opponent_account": *opp_account && !deleted, "result": result,
                   "reason": reason, "rating_diff": diff, "ended": ended})
            },
        )
        .collect();
    Ok(Json(json!({"v": 1, "games": games, "next": next})))
}
