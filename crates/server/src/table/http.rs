//! The tables' HTTP routes under `/api/tables` (`docs/protocol.md`, "Arbiter tables").

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::HeaderMap;
use salpakan_engine::{GameKind, GameSpec, Seat};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Finish, Mode, Table, TableArb, TableInit};
use crate::app::App;
use crate::error::{Error, Result};
use crate::game::{NewGame, Player};
use crate::http::{client_ip, parse, user};
use crate::identity::random_hex;
use crate::store::{Op, TableRow};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    game: String,
    #[serde(default)]
    options: Value,
    mode: Mode,
    #[serde(default)]
    pass: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinReq {
    code: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryReq {
    #[serde(default)]
    seat: Option<String>,
    attacks: bool,
    rank: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FinishReq {
    #[serde(default)]
    seat: Option<String>,
    how: Finish,
}

/// `?seat=…&since=…` of `GET /api/tables/{id}`.
#[derive(Deserialize)]
pub struct ViewQuery {
    #[serde(default)]
    seat: Option<String>,
    #[serde(default)]
    since: Option<u64>,
}

/// Stores `arb` and applies it (it was checked): acknowledged only once durable.
async fn commit(app: &App, t: &mut Table, arb: TableArb) -> Result<()> {
    t.check(&arb)?;
    let body = serde_json::to_string(&arb).expect("serializes");
    app.store
        .write(vec![Op::TableEvent {
            table: t.id.clone(),
            n: t.n + 1,
            body,
        }])
        .await?;
    t.apply(&arb);
    Ok(())
}

/// The full arbiter's private game, once both seats are held.
async fn start_game(app: &Arc<App>, t: &mut Table) -> Result<()> {
    if t.init.mode != Mode::Full || t.game.is_some() || !t.paired() {
        return Ok(());
    }
    let players = [0, 1].map(|i| {
        let (user, name) = t.seats[i].clone().expect("paired");
        Player {
            user: Some(user),
            name,
            ..Player::default()
        }
    });
    let game = app
        .create_game(NewGame {
            kind: t.kind(),
            spec: t.spec.clone(),
            clock: None,
            players,
            public: false,
        })
        .await?;
    commit(app, t, TableArb::Game { game }).await
}

/// A seat's view, with the seat tokens of the full arbiter's game for the seats `user`
/// holds.
fn answer(app: &App, t: &Table, seat: Seat, user: &str) -> Value {
    let mut v = t.view(seat);
    if let Some(g) = &t.game {
        let tokens: serde_json::Map<String, Value> = t
            .seats_of(user)
            .into_iter()
            .map(|s| {
                (
                    t.kind().seat_name(s).to_string(),
                    Value::String(app.seat_token(g, s)),
                )
            })
            .collect();
        v["seat_tokens"] = Value::Object(tokens);
    }
    v
}

/// `POST /api/tables`: a new table; its creator holds the first seat (both with `pass`).
pub async fn create(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    let req: CreateReq = parse(&body)?;
    let kind: GameKind = req.game.parse().map_err(Error::BadRequest)?;
    if kind == GameKind::Banqi {
        return Err(Error::BadRequest(
            "Banqi is played face up and needs no arbiter at the table; choose generals or stratego".into(),
        ));
    }
    let options = if req.options.is_null() {
        json!({})
    } else {
        req.options
    };
    let spec = GameSpec::from_json(kind, &options).map_err(|e| Error::BadRequest(e.to_string()))?;
    if !req.pass {
        app.tables.check_waiting(&u.id)?;
    }
    let init = TableInit {
        kind: kind.name().into(),
        options: spec.to_json(),
        mode: req.mode,
        pass: req.pass,
        code: app.tables.new_code(),
        creator: (u.id.clone(), u.name.clone()),
    };
    let id = random_hex(crate::app::ID_BYTES);
    let mut t = Table::new(id.clone(), init.clone())?;
    app.store
        .write(vec![Op::Table(TableRow {
            id: id.clone(),
            init: serde_json::to_string(&init).expect("serializes"),
        })])
        .await?;
    start_game(&app, &mut t).await?;
    let v = answer(&app, &t, Seat::First, &u.id);
    app.tables.insert(t);
    tracing::info!(table = %id, kind = %kind, "table created");
    Ok(Json(v))
}

/// `POST /api/tables/join`: the second phone takes the second seat with the room code.
pub async fn join(
    State(app): State<Arc<App>>,
    peer: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    let req: JoinReq = parse(&body)?;
    let id = app
        .tables
        .by_code(&req.code, client_ip(&app, peer.map(|c| c.0.0), &headers))?;
    let table = app.tables.get(&id)?;
    let mut t = table.lock().await;
    commit(
        &app,
        &mut t,
        TableArb::Join {
            user: u.id.clone(),
            name: u.name.clone(),
        },
    )
    .await?;
    app.tables.paired(&t.init.code);
    start_game(&app, &mut t).await?;
    Ok(Json(answer(&app, &t, Seat::Second, &u.id)))
}

/// `GET /api/tables/{id}`: a seat's view; with `since`, waits (up to 20 s) for a version
/// after it.
pub async fn view(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<ViewQuery>,
) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    let table = app.tables.get(&id)?;
    let mut rx = {
        let t = table.lock().await;
        if t.seats_of(&u.id).len() < 2 || q.seat.is_some() {
            t.seat_for(&u.id, q.seat.as_deref())?;
        }
        t.ver.subscribe()
    };
    if let Some(since) = q.since {
        let wait = Duration::from_millis((app.config.request_timeout_ms / 2).min(20_000));
        let _ = tokio::time::timeout(wait, rx.wait_for(|v| *v > since)).await;
    }
    let mut t = table.lock().await;
    // A full arbiter whose game could not be created when the second phone joined (a
    // storage failure) gets it now.
    start_game(&app, &mut t).await?;
    // A passed phone that names no seat sees the first seat's view (it holds both anyway).
    let seat = match (q.seat.as_deref(), t.seats_of(&u.id).as_slice()) {
        (None, [first, _]) => *first,
        (named, _) => t.seat_for(&u.id, named)?,
    };
    Ok(Json(answer(&app, &t, seat, &u.id)))
}

/// One seat's change to a table: the caller's seat (the one named, or its only one), the change
/// checked, stored and applied; the answer is that seat's view.
async fn seat_change(
    app: &App,
    user_id: &str,
    id: &str,
    seat: Option<&str>,
    change: impl FnOnce(u8) -> TableArb,
) -> Result<Json<Value>> {
    let table = app.tables.get(id)?;
    let mut t = table.lock().await;
    let seat = t.seat_for(user_id, seat)?;
    commit(app, &mut t, change(seat.index() as u8)).await?;
    Ok(Json(answer(app, &t, seat, user_id)))
}

/// `POST /api/tables/{id}/entry`: a seat's secret entry for the current challenge.
pub async fn entry(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    let req: EntryReq = parse(&body)?;
    seat_change(&app, &u.id, &id, req.seat.as_deref(), |seat| {
        TableArb::Entry {
            seat,
            attacks: req.attacks,
            rank: req.rank,
        }
    })
    .await
}

/// `POST /api/tables/{id}/finish`: a seat resigns, or claims its Flag came home.
pub async fn finish(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>> {
    let u = user(&app, &headers)?;
    let req: FinishReq = parse(&body)?;
    seat_change(&app, &u.id, &id, req.seat.as_deref(), |seat| {
        TableArb::Finish { seat, how: req.how }
    })
    .await
}
