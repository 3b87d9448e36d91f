//! Reputation and moderation: the terms of rated seeks and their acceptors (account,
//! board, clock, completion rate, rating range), kudos, reports and the moderators' API.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use rusqlite::OptionalExtension;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::{App, Seek};
use crate::error::{Error, Result};
use crate::http::{parse, user};
use crate::identity::User;
use crate::rating_book::RatingOp;
use crate::store::Op;

/// Reports one player may file: 3 at once, then one every 20 minutes.
#[must_use]
pub fn report_quota() -> governor::Quota {
    governor::Quota::per_hour(std::num::NonZeroU32::new(3).expect("3 > 0"))
        .allow_burst(std::num::NonZeroU32::new(3).expect("3 > 0"))
}

/// The most characters of a report's text.
const REPORT_TEXT: usize = 500;

/// Checks a new seek's terms: a rated seek needs an account, a board's options and a
/// clock; a rating range needs a board; the numbers must make sense.
///
/// # Errors
/// 403 for a guest's rated seek, 400 otherwise, each with a sentence.
pub fn check_seek_terms(
    u: &User,
    board: Option<&'static str>,
    clock: bool,
    rated: bool,
    min_completion: Option<u8>,
    rating_min: Option<i64>,
    rating_max: Option<i64>,
) -> Result<()> {
    if min_completion.is_some_and(|m| m > 100) {
        return Err(Error::BadRequest(
            "\"min_completion\" is a percentage, 0 to 100".into(),
        ));
    }
    if let (Some(lo), Some(hi)) = (rating_min, rating_max) {
        if lo > hi {
            return Err(Error::BadRequest(
                "\"rating_min\" must not be above \"rating_max\"".into(),
            ));
        }
    }
    let boards = crate::rating::BOARDS.join(", ");
    if (rating_min.is_some() || rating_max.is_some()) && board.is_none() {
        return Err(Error::BadRequest(format!(
            "a rating range needs the options of a rated board ({boards}); these options are casual only"
        )));
    }
    if !rated {
        return Ok(());
    }
    if !u.account {
        return Err(Error::Forbidden(
            "rated games are for accounts: create one (POST /api/accounts) or open a casual seek"
                .into(),
        ));
    }
    if board.is_none() {
        return Err(Error::BadRequest(format!(
            "these options are casual only: rated games use the options of a board ({boards}; see docs/ratings.md)"
        )));
    }
    if !clock {
        return Err(Error::BadRequest(
            "a rated game needs a clock: give \"clock\": {\"base\": seconds, \"inc\": seconds}"
                .into(),
        ));
    }
    Ok(())
}

/// Whether `u` may accept `seek`: an account for a rated seek or a rating range, within
/// the rating range and at or above the least completion rate.
///
/// # Errors
/// 403 when an account is needed, 409 when outside the seek's terms.
pub fn check_acceptor(app: &App, seek: &Seek, u: &User) -> Result<()> {
    let range = seek.rating_min.is_some() || seek.rating_max.is_some();
    if (seek.rated || range) && !u.account {
        return Err(Error::Forbidden(format!(
            "this seek is {}: accept it with an account (POST /api/accounts)",
            if seek.rated {
                "rated"
            } else {
                "for a rating range"
            }
        )));
    }
    if let (true, Some(board)) = (range, seek.board) {
        let (r, _) = app.book.shown(&u.id, board);
        let lo = seek.rating_min.unwrap_or(i64::MIN);
        let hi = seek.rating_max.unwrap_or(i64::MAX);
        if r < lo || r > hi {
            let bound = |v: Option<i64>| v.map_or_else(|| "any".to_string(), |v| v.to_string());
            return Err(Error::Rejected(format!(
                "this seek is for ratings {} to {} on {board}; yours is {r}",
                bound(seek.rating_min),
                bound(seek.rating_max)
            )));
        }
    }
    if let Some(min) = seek.min_completion {
        match app.book.completion(&u.id) {
            Some(c) if c >= i64::from(min) => {}
            Some(c) => {
                return Err(Error::Rejected(format!(
                    "this seek asks for a completion rate of at least {min}%; yours is {c}%"
                )));
            }
            None => {
                return Err(Error::Rejected(format!(
                    "this seek asks for a completion rate of at least {min}%; yours shows after 5 finished games"
                )));
            }
        }
    }
    Ok(())
}

/// `POST /api/games/{id}/kudos`: a seated account of a finished game gives its opponent
/// one "good game", once per game.
pub async fn kudos(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    if !u.account {
        return Err(Error::Forbidden(
            "kudos are given by accounts: create one (POST /api/accounts)".into(),
        ));
    }
    let game: String = id.chars().take(32).collect();
    let (me, g) = (u.id.clone(), game.clone());
    let row = app
        .store
        .read(move |c| {
            c.query_row(
                "SELECT opponent, opponent_account FROM played WHERE user=?1 AND game=?2",
                [&me, &g],
                |r| Ok((r.get::<_, Option<String>>(0)?, r.get::<_, bool>(1)?)),
            )
            .optional()
        })
        .await?;
    let Some((opponent, opponent_account)) = row else {
        return Err(if app.games_of(&u.id).iter().any(|(g, _)| *g == game) {
            Error::Rejected("the game is not over yet: kudos are given once it has ended".into())
        } else {
            Error::Forbidden("only the players of a finished game give it kudos".into())
        });
    };
    let receiver = opponent
        .filter(|_| opponent_account)
        .and_then(|o| app.accounts.info(&o))
        .filter(|a| !a.bot)
        .ok_or_else(|| {
            Error::Rejected(
                "your opponent takes no kudos: it is a guest, a bot or a deleted account".into(),
            )
        })?;
    let _one_at_a_time = app.book.kudos_lock.lock().await;
    let (me, g) = (u.id.clone(), game.clone());
    let given = app
        .store
        .read(move |c| {
            c.query_row(
                "SELECT COUNT(*) FROM kudos WHERE game=?1 AND giver=?2",
                [&g, &me],
                |r| r.get::<_, i64>(0),
            )
        })
        .await?;
    if given > 0 {
        return Err(Error::Rejected(
            "you have already given kudos for this game".into(),
        ));
    }
    app.store
        .write(vec![Op::Rating(RatingOp::Kudos {
            game: game.clone(),
            giver: u.id.clone(),
            receiver: receiver.id.clone(),
            at: app.wall_ms(),
        })])
        .await?;
    Ok(Json(json!({"v": 1, "game": game, "kudos": receiver.name})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportReq {
    name: String,
    #[serde(default)]
    game: Option<String>,
    reason: String,
    #[serde(default)]
    text: String,
}

/// The reasons a report may give.
const REASONS: [&str; 4] = ["cheating", "abuse", "stalling", "other"];

/// `POST /api/reports`: an account reports a player for the moderators (rate-limited).
pub async fn report(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<Value>)> {
    let u = user(&app, &headers)?;
    if !u.account {
        return Err(Error::Forbidden(
            "reports are filed by accounts: create one (POST /api/accounts)".into(),
        ));
    }
    let req: ReportReq = parse(&body)?;
    if !REASONS.contains(&req.reason.as_str()) {
        return Err(Error::BadRequest(format!(
            "\"reason\" is one of {}",
            REASONS.join(", ")
        )));
    }
    if req.text.chars().count() > REPORT_TEXT {
        return Err(Error::BadRequest(format!(
            "a report's \"text\" has at most {REPORT_TEXT} characters"
        )));
    }
    if let Some(g) = &req.game {
        if g.is_empty() || g.len() > 32 || !g.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::BadRequest("\"game\" is a game's id".into()));
        }
    }
    let target = app.accounts.by_name(&req.name).ok_or_else(|| {
        Error::NotFound(format!(
            "there is no player named {:?}",
            req.name.chars().take(32).collect::<String>()
        ))
    })?;
    if target.id == u.id {
        return Err(Error::BadRequest("you cannot report yourself".into()));
    }
    app.report_limit.check_key(&u.id).map_err(|_| {
        app.limited(
            "too many reports: at most 3 in a row, then one every 20 minutes; the moderators have your earlier ones".into(),
        )
    })?;
    app.store
        .write(vec![Op::Rating(RatingOp::Report {
            at: app.wall_ms(),
            reporter: (u.id.clone(), u.name.clone()),
            target: (target.id.clone(), target.name.clone()),
            game: req.game,
            reason: req.reason,
            text: req.text,
        })])
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"v": 1, "reported": target.name})),
    ))
}

/// The caller, when a moderator.
fn moderator(app: &App, headers: &HeaderMap) -> Result<User> {
    let u = user(app, headers)?;
    if !app.accounts.is_moderator(&u.id) {
        return Err(Error::Forbidden(
            "this is for moderators; an operator names them with `salpakan admin moderator NAME on`"
                .into(),
        ));
    }
    Ok(u)
}

/// `GET /api/moderation/reports`: the latest 200 reports, newest first (moderators only).
pub async fn reports(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Json<Value>> {
    moderator(&app, &headers)?;
    let rows = app
        .store
        .read(|c| {
            c.prepare(
                "SELECT id, at, reporter_name, target_name, game, reason, text FROM reports
                 ORDER BY id DESC LIMIT 200",
            )?
            .query_map([], |r| {
                Ok(json!({"id": r.get::<_, i64>(0)?, "at": r.get::<_, i64>(1)?,
                          "by": r.get::<_, String>(2)?, "name": r.get::<_, String>(3)?,
                          "game": r.get::<_, Option<String>>(4)?,
                          "reason": r.get::<_, String>(5)?, "text": r.get::<_, String>(6)?}))
            })?
            .collect::<rusqlite::Result<Vec<Value>>>()
        })
        .await?;
    Ok(Json(json!({"v": 1, "reports": rows})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModerateReq {
    action: String,
    #[serde(default)]
    note: Option<String>,
}

/// `POST /api/moderation/accounts/{name}`: `{"action":"mark","note"}` notes an account
/// (shown to moderators on its profile), `{"action":"close"}` closes it (moderators only).
pub async fn moderate(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(name): Path<String>,
    body: Bytes,
) -> Result<Json<Value>> {
    moderator(&app, &headers)?;
    let req: ModerateReq = parse(&body)?;
    match (req.action.as_str(), req.note) {
        ("mark", Some(note)) => {
            if note.chars().count() > REPORT_TEXT {
                return Err(Error::BadRequest(format!(
                    "a note has at most {REPORT_TEXT} characters"
                )));
            }
            app.accounts.set_mark(&name, &note).await?;
            Ok(Json(json!({"v": 1, "name": name, "marked": note})))
        }
        ("close", None) => {
            app.close_account(&name).await?;
            Ok(Json(json!({"v": 1, "name": name, "closed": true})))
        }
        _ => Err(Error::BadRequest(
            "give {\"action\":\"mark\",\"note\":\"...\"} or {\"action\":\"close\"}".into(),
        )),
    }
}
