//! The HTTP JSON API under `/api` (see `docs/protocol.md`).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use salpakan_engine::{Copy, GameKind, GameSpec, Seat, wire};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::account::http::{bearer, caller};
use crate::app::{App, Seek};
use crate::bots::Bot;
use crate::clock::TimeControl;
use crate::error::{Error, Result};
use crate::game::{Cmd, NewGame, Player, random_u64};
use crate::identity::{User, random_hex};

pub(crate) fn parse<T: DeserializeOwned>(body: &Bytes) -> Result<T> {
    let body: &[u8] = if body.is_empty() { b"{}" } else { body };
    serde_json::from_slice(body).map_err(|e| Error::BadRequest(format!("bad JSON body: {e}")))
}

/// The caller: a Bearer guest or API token, else the session cookie.
pub(crate) fn user(app: &App, headers: &HeaderMap) -> Result<User> {
    let u = caller(app, headers).ok_or(Error::Unauthorized)?;
    app.seen(&u.id);
    Ok(u)
}

/// The client's address for per-address limits: the connection's peer, or behind a
/// trusted reverse proxy the last `X-Forwarded-For` entry.
pub(crate) fn client_ip(app: &App, peer: Option<SocketAddr>, headers: &HeaderMap) -> IpAddr {
    let peer = peer.map_or(IpAddr::from([0, 0, 0, 0]), |a| a.ip());
    if !app.config.trust_forwarded_for {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .next_back()
        .and_then(|ip| ip.trim().parse().ok())
        .unwrap_or(peer)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GuestReq {
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/guest`: a new guest identity (rate-limited per address).
pub async fn guest(
    State(app): State<Arc<App>>,
    peer: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>> {
    let req: GuestReq = parse(&body)?;
    app.check_guest_rate(client_ip(&app, peer.map(|c| c.0.0), &headers))?;
    let (u, token) = app.identity.create_guest(req.name).await?;
    app.seen(&u.id);
    Ok(Json(
        json!({"v": 1, "id": u.id, "name": u.name, "token": token}),
    ))
}

/// `GET /api/me`: who the token (or session cookie) belongs to, whether an account and a
/// moderator, and their games with seat tokens.
pub async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    let games: Vec<Value> = app
        .games_of(&u.id)
        .into_iter()
        .map(|(g, s)| json!({"game": g, "seat_index": s.index(), "seat_token": app.seat_token(&g, s)}))
        .collect();
    Ok(Json(
        json!({"v": 1, "id": u.id, "name": u.name, "games": games, "account": u.account,
               "moderator": app.accounts.is_moderator(&u.id)}),
    ))
}

/// `POST /api/signout`: signs the caller out everywhere: the guest token and every seat
/// token derived from it stop working, and the caller's connections are closed.
pub async fn sign_out(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    app.sign_out(&u.id).await?;
    Ok(Json(json!({"v": 1, "signed_out": u.id})))
}

/// `GET /api/lobby`: open seeks, games in progress, bots.
pub async fn lobby(State(app): State<Arc<App>>) -> Json<Value> {
    let l = app.lobby();
    Json(json!({"seeks": l.seeks, "games": l.games, "v": 1, "bots": Bot::names()}))
}

/// `GET /api/bots`: the built-in bots.
pub async fn bots() -> Json<Value> {
    Json(json!({"v": 1, "bots": Bot::names()}))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameReq {
    game: String,
    #[serde(default)]
    options: Value,
    #[serde(default)]
    clock: Option<TimeControl>,
    #[serde(default)]
    seat: Option<String>,
    #[serde(default)]
    bot: Option<String>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    min_completion: Option<u8>,
    #[serde(default)]
    rating_min: Option<i64>,
    #[serde(default)]
    rating_max: Option<i64>,
}

struct Checked {
    kind: GameKind,
    spec: GameSpec,
    clock: Option<TimeControl>,
    seat: Option<Seat>,
}

fn check_game(req: &GameReq) -> Result<Checked> {
    let kind: GameKind = req.game.parse().map_err(Error::BadRequest)?;
    let spec = wire::spec_from_json(kind, &req.options)?;
    if let Some(c) = &req.clock {
        c.check().map_err(Error::BadRequest)?;
    }
    let seat = match req.seat.as_deref() {
        None | Some("random") => None,
        Some(n) => Some(kind.parse_seat(n).ok_or_else(|| {
            Error::BadRequest(format!(
                "unknown seat {n:?}; choose {}, {} or random",
                kind.seat_name(Seat::First),
                kind.seat_name(Seat::Second)
            ))
        })?),
    };
    Ok(Checked {
        kind,
        spec,
        clock: req.clock,
        seat,
    })
}

fn new_seek(app: &App, headers: &HeaderMap, body: &Bytes, public: bool) -> Result<Seek> {
    let u = user(app, headers)?;
    let req: GameReq = parse(body)?;
    if req.bot.is_some() {
        return Err(Error::BadRequest(
            "a seek has no bot; to play a bot, POST /api/bot-games".into(),
        ));
    }
    let c = check_game(&req)?;
    let board = crate::rating::board_of(&c.spec);
    crate::reputation::check_seek_terms(
        &u,
        board,
        c.clock.is_some(),
        req.rated,
        req.min_completion,
        req.rating_min,
        req.rating_max,
    )?;
    let (by_rating, by_provisional) = match board {
        Some(b) if u.account => {
            let (r, p) = app.book.shown(&u.id, b);
            (Some(r), p)
        }
        _ => (None, false),
    };
    let by_completion = app.book.completion(&u.id);
    let seek = Seek {
        id: random_hex(crate::app::ID_BYTES),
        user: u,
        kind: c.kind,
        spec: c.spec,
        clock: c.clock,
        seat: c.seat,
        public,
        rated: req.rated,
        board,
        min_completion: req.min_completion,
        rating_min: req.rating_min,
        rating_max: req.rating_max,
        by_rating,
        by_provisional,
        by_completion,
    };
    app.add_seek(seek.clone())?;
    Ok(seek)
}

/// `POST /api/seeks`: open a public seek.
pub async fn create_seek(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>> {
    let s = new_seek(&app, &headers, &body, true)?;
    Ok(Json(json!({"v": 1, "seek": s.json()})))
}

/// `POST /api/challenges`: a private challenge, shared by link.
pub async fn create_challenge(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>> {
    let s = new_seek(&app, &headers, &body, false)?;
    Ok(Json(
        json!({"v": 1, "seek": s.json(), "link": format!("/challenge/{}", s.id)}),
    ))
}

/// `GET /api/seeks/{id}`: one seek or challenge.
pub async fn get_seek(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<Value>> {
    let s = app.seek(&id).ok_or(Error::UnknownSeek(short(&id)))?;
    Ok(Json(json!({"v": 1, "seek": s.json()})))
}

/// `DELETE /api/seeks/{id}`: cancel one's own seek.
pub async fn cancel_seek(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    let s = app.seek(&id).ok_or(Error::UnknownSeek(short(&id)))?;
    if s.user.id != u.id {
        return Err(Error::Forbidden(
            "only its creator can cancel a seek".into(),
        ));
    }
    app.take_seek(&id);
    Ok(Json(json!({"v": 1, "cancelled": id})))
}

fn short(s: &str) -> String {
    s.chars().take(32).collect()
}

/// `POST /api/seeks/{id}/accept`: accept a seek or challenge; the game is created.
pub async fn accept_seek(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    match app.seek(&id) {
        Some(s) if s.user.id == u.id => {
            return Err(Error::Rejected("you cannot accept your own seek".into()));
        }
        Some(s) => crate::reputation::check_acceptor(&app, &s, &u)?,
        None => return Err(Error::UnknownSeek(short(&id))),
    }
    let s = app.take_seek(&id).ok_or(Error::UnknownSeek(short(&id)))?;
    let creator_seat = s.seat.unwrap_or(if random_u64() & 1 == 0 {
        Seat::First
    } else {
        Seat::Second
    });
    let mut players = [
        Player {
            user: Some(s.user.id.clone()),
            name: s.user.name.clone(),
            account: s.user.account,
            rated: s.rated,
            ..Player::default()
        },
        Player {
            user: Some(u.id.clone()),
            name: u.name.clone(),
            account: u.account,
            rated: s.rated,
            ..Player::default()
        },
    ];
    if creator_seat == Seat::Second {
        players.swap(0, 1);
    }
    let spec = NewGame {
        kind: s.kind,
        spec: s.spec.clone(),
        clock: s.clock,
        players,
        public: s.public,
    };
    let game = match app.create_game(spec).await {
        Ok(g) => g,
        Err(e) => {
            app.restore_seek(s);
            return Err(e);
        }
    };
    let seat = creator_seat.other();
    Ok(Json(
        json!({"v": 1, "game": game, "seat": s.kind.seat_name(seat),
                   "seat_token": app.seat_token(&game, seat)}),
    ))
}

/// `POST /api/bot-games`: a game against a built-in bot.
pub async fn bot_game(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    let req: GameReq = parse(&body)?;
    let c = check_game(&req)?;
    if req.rated
        || req.min_completion.is_some()
        || req.rating_min.is_some()
        || req.rating_max.is_some()
    {
        return Err(Error::BadRequest(
            "a bot game takes no \"rated\", \"min_completion\" or rating range: games against bots move only the bot's rating (see docs/ratings.md)".into(),
        ));
    }
    let bot = Bot::parse(req.bot.as_deref().unwrap_or("random"))?;
    app.check_bot_games(&u.id)?;
    // A built-in bot is rated from its games against accounts on a board (its own account
    // holds the rating); the player's rating does not move.
    let board = crate::rating::board_of(&c.spec);
    let bot_account = if u.account && board.is_some() && Bot::names().contains(&bot.spec()) {
        Some(app.accounts.bot_account(&bot.spec()).await?.id)
    } else {
        None
    };
    let seat = c.seat.unwrap_or(if random_u64() & 1 == 0 {
        Seat::First
    } else {
        Seat::Second
    });
    let human = Player {
        user: Some(u.id.clone()),
        name: u.name.clone(),
        account: u.account,
        ..Player::default()
    };
    let machine = Player {
        user: None,
        name: format!("bot {}", bot.spec()),
        bot: Some(bot.spec()),
        account: bot_account.is_some(),
        rated: bot_account.is_some(),
        bot_account,
        ..Player::default()
    };
    let players = if seat == Seat::First {
        [human, machine]
    } else {
        [machine, human]
    };
    let game = app
        .create_game(NewGame {
            kind: c.kind,
            spec: c.spec,
            clock: c.clock,
            players,
            public: true,
        })
        .await?;
    Ok(Json(
        json!({"v": 1, "game": game, "seat": c.kind.seat_name(seat),
                   "seat_token": app.seat_token(&game, seat)}),
    ))
}

#[derive(Deserialize)]
/// The query of `GET /api/games`.
pub struct GamesQuery {
    #[serde(default)]
    status: Option<String>,
}

/// `GET /api/games?status=ended`: recently finished public games, newest first;
/// `GET /api/games`: public games in progress.
pub async fn games(
    State(app): State<Arc<App>>,
    Query(q): Query<GamesQuery>,
) -> Result<Json<Value>> {
    let games = match q.status.as_deref() {
        Some("ended") => Value::Array(app.recent_ended()),
        None | Some("playing" | "live") => Value::Array(app.lobby().games),
        Some(s) => {
            return Err(Error::BadRequest(format!(
                "unknown status {:?}; use ended or leave it out",
                short(s)
            )));
        }
    };
    Ok(Json(json!({"v": 1, "games": games})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
/// The query of `GET /api/setup`.
pub struct SetupQuery {
    game: String,
    #[serde(default)]
    options: Option<String>,
    seat: String,
    #[serde(default)]
    bot: Option<String>,
}

/// `GET /api/setup?game=…&options=<JSON>&seat=…[&bot=…]`: a random setup (or one made by a
/// bot) for one seat, for the setup editor. Nothing secret: it is made for whoever asks.
pub async fn setup(Query(q): Query<SetupQuery>) -> Result<Json<Value>> {
    let kind: GameKind = q.game.parse().map_err(Error::BadRequest)?;
    let options: Value = match q.options.as_deref() {
        None | Some("") => Value::Null,
        Some(t) => serde_json::from_str(t)
            .map_err(|e| Error::BadRequest(format!("\"options\" is a JSON object: {e}")))?,
    };
    let spec = wire::spec_from_json(kind, &options)?;
    let seat = kind.parse_seat(&q.seat).ok_or_else(|| {
        Error::BadRequest(format!(
            "unknown seat {:?}; choose {} or {}",
            short(&q.seat),
            kind.seat_name(Seat::First),
            kind.seat_name(Seat::Second)
        ))
    })?;
    if !kind.has_setups() {
        return Err(Error::BadRequest(format!(
            "{kind} has no setups: the pieces are dealt"
        )));
    }
    let setup = match q.bot.as_deref() {
        None | Some("" | "random") => wire::setup_json(&spec.random_setup(seat, random_u64())?),
        Some(b) => {
            let bot = Bot::parse(b)?;
            tokio::task::spawn_blocking(move || bot.choose_setup(&spec, seat, random_u64()))
                .await
                .map_err(|_| Error::Unavailable)??
        }
    };
    Ok(Json(
        json!({"v": 1, "game": kind.name(), "seat": kind.seat_name(seat), "setup": setup}),
    ))
}

/// `GET /api/games/{id}`: public facts about a game.
pub async fn game(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<Value>> {
    let (tx, rx) = oneshot::channel();
    let mut s = app.ask(&id, Cmd::Summary { reply: tx }, rx).await?;
    s["v"] = 1.into();
    Ok(Json(s))
}

/// `GET /api/games/{id}/seat`: the caller's seat in a game and its seat token.
pub async fn my_seat(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    let seat = app
        .games_of(&u.id)
        .into_iter()
        .find(|(g, _)| *g == id)
        .map(|(_, s)| s)
        .ok_or_else(|| Error::Forbidden(format!("you have no seat in game {}", short(&id))))?;
    Ok(Json(json!({"v": 1, "game": id, "seat_index": seat.index(),
                   "seat_token": app.seat_token(&id, seat)})))
}

/// The caller's seat in game `id`: from a seat token, or the guest or API token of its
/// player.
pub(crate) fn caller_seat(app: &App, headers: &HeaderMap, id: &str) -> Option<Seat> {
    bearer(headers).and_then(|t| {
        app.check_seat_token(id, t).or_else(|| {
            let u = app.identity.authenticate(t)?;
            app.games_of(&u.id)
                .into_iter()
                .find(|(g, _)| *g == id)
                .map(|(_, s)| s)
        })
    })
}

/// `GET /api/games/{id}/record`: the full record once the game is over; with a seat's token
/// (or the guest token of its player), that seat's own copy at any time.
pub async fn record(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    let seat = caller_seat(&app, &headers, &id);
    let (summary_tx, summary_rx) = oneshot::channel();
    let summary = app
        .ask(&id, Cmd::Summary { reply: summary_tx }, summary_rx)
        .await?;
    let over = summary["status"] == "ended";
    let reveals = crate::game::reveals_at_end(&summary["options"]);
    let copy = match (over && reveals, seat) {
        (true, _) | (false, None) => Copy::Full,
        (false, Some(s)) => Copy::Seat(s),
    };
    let (tx, rx) = oneshot::channel();
    let text = app.ask(&id, Cmd::Record { copy, reply: tx }, rx).await??;
    Ok((
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"salpakan-{id}.rec\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// Any other `/api` path.
pub async fn not_found() -> Error {
    Error::BadRequest("no such API endpoint; see docs/protocol.md".into())
}
