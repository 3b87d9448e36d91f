//! The WebSocket `/ws`: versioned JSON messages for the lobby and for games (see
//! `docs/protocol.md`). Each connection has a token-bucket rate limit and a size limit;
//! a refused message gets an error and changes nothing.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use axum::Extension;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use salpakan_engine::{Seat, Viewer};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc, oneshot};

use crate::app::App;
use crate::error::{Error, Result};
use crate::game::{Act, Cmd, Outbox, SetupChoice};
use crate::identity::User;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// Consecutive refused (rate-limited) messages after which a connection is closed.
const MAX_STRIKES: u32 = 200;

/// `GET /ws`: upgrades to a WebSocket. The connection keeps its place under the
/// per-address cap for its life.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    place: Option<Extension<Arc<crate::net::Place>>>,
) -> Response {
    let limit = app.config.max_message.saturating_mul(4).max(64 * 1024);
    // Messages are small: a small read buffer (the default, 128 KiB, is zero-filled
    // before every read).
    ws.max_message_size(limit)
        .max_frame_size(limit)
        .read_buffer_size(4096)
        .on_upgrade(move |s| async move {
            connection(app, s).await;
            drop(place);
        })
}

/// The `id` of a message, read without building the rest of it (for errors about the
/// message as a whole: too large, too many).
fn request_id(text: &str) -> Option<Value> {
    #[derive(serde::Deserialize)]
    struct IdOnly {
        #[serde(default)]
        id: Option<Value>,
    }
    serde_json::from_str::<IdOnly>(text).ok()?.id
}

/// Whether a read error is a frame or message over the size limit.
fn too_large(e: axum::Error) -> bool {
    e.into_inner()
        .downcast_ref::<tungstenite::Error>()
        .is_some_and(|e| matches!(e, tungstenite::Error::Capacity(_)))
}

struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    cap: f64,
}

impl Bucket {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(self.cap);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

struct Conn {
    app: Arc<App>,
    id: u64,
    out: Outbox,
    user: Option<User>,
    joined: HashMap<String, (mpsc::Sender<Cmd>, Viewer)>,
    lobby: Option<tokio::task::JoinHandle<()>>,
}

async fn connection(app: Arc<App>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Arc<str>>(1024);
    let kill = Arc::new(Notify::new());
    let queued = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let out = Outbox {
        tx,
        kill: kill.clone(),
        queued: queued.clone(),
        max_bytes: app.config.max_queue_bytes,
    };
    let ping_every = std::time::Duration::from_millis(app.config.ping_ms);
    let writer = tokio::spawn(async move {
        // The server pings every `ping_ms`: a live peer answers (and so keeps the
        // connection under its idle timeout), a dead one does not and is closed.
        let mut ping =
            tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
        // Frames queued together go out in one write (one flush for all of them). Before
        // writing, the writer lets the tasks that are ready run once: a move's event and its
        // acknowledgement (queued by two tasks) then usually leave in one write.
        'frames: loop {
            let mut f = tokio::select! {
                f = rx.recv() => match f { Some(f) => f, None => break },
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Default::default())).await.is_err() {
                        break;
                    }
                    continue;
                }
            };
            let mut yielded = false;
            loop {
                if f.is_empty() {
                    let _ = sink.flush().await;
                    break 'frames;
                }
                queued.fetch_sub(f.len(), Ordering::Relaxed);
                if sink.feed(Message::Text(f.as_ref().into())).await.is_err() {
                    break 'frames;
                }
                match rx.try_recv() {
                    Ok(next) => f = next,
                    Err(_) if !yielded => {
                        yielded = true;
                        tokio::task::yield_now().await;
                        match rx.try_recv() {
                            Ok(next) => f = next,
                            Err(_) => break,
                        }
                    }
                    Err(_) => break,
                }
            }
            if sink.flush().await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut bucket = Bucket {
        tokens: f64::from(app.config.burst),
        last: Instant::now(),
        rate: f64::from(app.config.rate_per_s),
        cap: f64::from(app.config.burst),
    };
    let mut c = Conn {
        id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
        app,
        out,
        user: None,
        joined: HashMap::new(),
        lobby: None,
    };
    let mut strikes = 0u32;
    // A peer heard from nothing (no message, no pong) for the idle timeout is dead: the
    // server's pings (every `ping_ms`) get answers from every live one.
    let idle = std::time::Duration::from_millis(c.app.config.idle_timeout_ms);
    let mut heard = Instant::now();
    let mut look = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    loop {
        let msg = tokio::select! {
            m = stream.next() => m,
            _ = look.tick() => {
                if heard.elapsed() > idle {
                    tracing::info!(conn = c.id, "closing a connection whose peer is silent");
                    break;
                }
                continue;
            }
            () = kill.notified() => {
                c.app.metrics.slow_closed.fetch_add(1, Ordering::Relaxed);
                tracing::info!(conn = c.id, "closing a connection that does not keep up");
                break;
            }
        };
        if matches!(msg, Some(Ok(_))) {
            heard = Instant::now();
        }
        let text = match msg {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Binary(b))) => {
                c.error(
                    &Error::BadRequest(
                        "send text frames holding one JSON message each, not binary frames".into(),
                    ),
                    std::str::from_utf8(&b).ok().and_then(request_id).as_ref(),
                );
                continue;
            }
            Some(Err(e)) => {
                if too_large(e) {
                    // The documented answer, then the connection closes (the rest of the
                    // frame cannot be skipped).
                    c.error(
                        &Error::TooLarge(c.app.config.max_message + 1, c.app.config.max_message),
                        None,
                    );
                }
                break;
            }
            Some(Ok(Message::Close(_))) | None => break,
            Some(Ok(_)) => continue,
        };
        if !bucket.take() {
            strikes += 1;
            c.app.metrics.rate_limited.fetch_add(1, Ordering::Relaxed);
            if strikes >= MAX_STRIKES {
                tracing::info!(conn = c.id, "closing a flooding connection");
                break;
            }
            c.error(
                &Error::RateLimited(c.app.config.rate_per_s),
                request_id(text.as_str()).as_ref(),
            );
            continue;
        }
        strikes = 0;
        if text.len() > c.app.config.max_message {
            c.error(
                &Error::TooLarge(text.len(), c.app.config.max_message),
                request_id(text.as_str()).as_ref(),
            );
            continue;
        }
        let v: Value = match serde_json::from_str(text.as_str()) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => {
                c.error(
                    &Error::BadRequest("a message is a JSON object".into()),
                    None,
                );
                continue;
            }
            Err(e) => {
                c.error(&Error::BadRequest(format!("bad JSON: {e}")), None);
                continue;
            }
        };
        let id = v.get("id").cloned();
        match c.handle(&v).await {
            Ok(Some(mut reply)) => {
                if let Some(id) = id {
                    reply["id"] = id;
                }
                c.out.send(reply.to_string().into());
            }
            Ok(None) => {}
            Err(e) => c.error(&e, id.as_ref()),
        }
    }
    c.reset().await;
    if let Some(l) = c.lobby.take() {
        l.abort();
    }
    // Flush what is queued (errors included), then close.
    let _ = c.out.tx.send(Arc::from("")).await;
    drop(c);
    let mut writer = writer;
    if tokio::time::timeout(std::time::Duration::from_secs(5), &mut writer)
        .await
        .is_err()
    {
        writer.abort();
    }
}

fn field<'a>(v: &'a Value, name: &str) -> Result<&'a str> {
    v.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| Error::BadRequest(format!("this message needs \"{name}\" (a string)")))
}

const TYPES: &str = "hello, lobby, unlobby, join, leave, setup, move, resign, draw_offer, \
draw_accept, draw_decline, rematch, chat, claim, ping";

impl Conn {
    fn error(&self, e: &Error, id: Option<&Value>) {
        self.out.send(e.to_json(id).to_string().into());
    }

    /// Drops what this connection follows: its user's notifications and every game joined.
    async fn reset(&mut self) {
        if let Some(u) = self.user.take() {
            self.app.unsubscribe_user(&u.id, &self.out);
            self.app.seen(&u.id);
        }
        for (_, (tx, _)) in self.joined.drain() {
            let _ = tx.send(Cmd::Leave { conn: self.id }).await;
        }
    }

    async fn handle(&mut self, v: &Value) -> Result<Option<Value>> {
        if v.get("v").and_then(Value::as_u64) != Some(1) {
            return Err(Error::BadRequest(
                "unsupported or missing protocol version: send \"v\":1".into(),
            ));
        }
        let t = field(v, "t")?;
        match t {
            "ping" => Ok(Some(json!({"v": 1, "t": "pong"}))),
            "hello" => {
                let u = self
                    .app
                    .identity
                    .authenticate(field(v, "token")?)
                    .ok_or(Error::Unauthorized)?;
                if self.user.as_ref() != Some(&u) {
                    // A new identity on this connection: nothing of the previous one stays
                    // (its notifications, its seats).
                    self.reset().await;
                    self.app.subscribe_user(&u.id, self.out.clone());
                }
                self.app.seen(&u.id);
                let r = json!({"v": 1, "t": "welcome", "user": u.id, "name": u.name});
                self.user = Some(u);
                Ok(Some(r))
            }
            "lobby" => {
                if self.lobby.is_none() {
                    let mut rx = self.app.lobby_updates();
                    let snapshot = self.app.lobby();
                    let out = self.out.clone();
                    let app = self.app.clone();
                    self.lobby = Some(tokio::spawn(async move {
                        loop {
                            match rx.recv().await {
                                Ok(f) => {
                                    if !out.send(f) {
                                        break;
                                    }
                                }
                                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                                    let mut l = app.lobby();
                                    l["v"] = 1.into();
                                    l["t"] = "lobby".into();
                                    if !out.send(l.to_string().into()) {
                                        break;
                                    }
                                }
                                Err(_) => break,
                            }
                        }
                    }));
                    let mut l = snapshot;
                    l["v"] = 1.into();
                    l["t"] = "lobby".into();
                    return Ok(Some(l));
                }
                let mut l = self.app.lobby();
                l["v"] = 1.into();
                l["t"] = "lobby".into();
                Ok(Some(l))
            }
            "unlobby" => {
                if let Some(l) = self.lobby.take() {
                    l.abort();
                }
                Ok(Some(json!({"v": 1, "t": "ack"})))
            }
            "join" => {
                let game = field(v, "game")?.to_string();
                let viewer = match v.get("seat_token") {
                    None | Some(Value::Null) => Viewer::Spectator,
                    Some(t) => {
                        let t = t.as_str().ok_or_else(|| {
                            Error::BadRequest("\"seat_token\" is a string".into())
                        })?;
                        let tx = self.app.game(&game).await?;
                        drop(tx);
                        Viewer::Player(self.app.check_seat_token(&game, t).ok_or_else(|| {
                            Error::Forbidden(format!(
                                "that seat token is not valid for game {game}; join without one to watch"
                            ))
                        })?)
                    }
                };
                let since = match v.get("since") {
                    None | Some(Value::Null) => None,
                    Some(n) => Some(n.as_u64().ok_or_else(|| {
                        Error::BadRequest(
                            "\"since\" is the last version seen, a whole number".into(),
                        )
                    })?),
                };
                if self.joined.len() >= 64 && !self.joined.contains_key(&game) {
                    return Err(Error::Rejected(
                        "one connection may follow at most 64 games".into(),
                    ));
                }
                let tx = self.app.game(&game).await?;
                if let Some((old, _)) = self.joined.remove(&game) {
                    let _ = old.send(Cmd::Leave { conn: self.id }).await;
                }
                let as_ = match viewer {
                    Viewer::Player(s) => json!(s.index()),
                    _ => json!("spectator"),
                };
                // The answer goes out before the game's first frame.
                let mut r = json!({"v": 1, "t": "joined", "game": game, "as": as_});
                if let Some(id) = v.get("id") {
                    r["id"] = id.clone();
                }
                self.out.send(r.to_string().into());
                tx.send(Cmd::Join {
                    viewer,
                    conn: self.id,
                    out: self.out.clone(),
                    since,
                })
                .await
                .map_err(|_| Error::Unavailable)?;
                self.joined.insert(game, (tx, viewer));
                Ok(None)
            }
            "leave" => {
                let game = field(v, "game")?;
                if let Some((tx, _)) = self.joined.remove(game) {
                    let _ = tx.send(Cmd::Leave { conn: self.id }).await;
                }
                Ok(Some(json!({"v": 1, "t": "ack", "game": game})))
            }
            "setup" | "move" | "resign" | "draw_offer" | "draw_accept" | "draw_decline"
            | "rematch" | "chat" | "claim" => {
                let game = field(v, "game")?;
                let act = match t {
                    "setup" => Act::Setup(if let Some(s) = v.get("setup") {
                        if !s.is_object() {
                            return Err(Error::BadRequest(
                                "\"setup\" is an object of square → piece code".into(),
                            ));
                        }
                        SetupChoice::Given(s.clone())
                    } else if let Some(b) = v.get("bot").and_then(Value::as_str) {
                        SetupChoice::Bot(b.to_string())
                    } else if v.get("random") == Some(&Value::Bool(true)) {
                        SetupChoice::Random
                    } else {
                        return Err(Error::BadRequest(
                            "send \"setup\":{square: piece}, \"random\":true or \"bot\":\"<name>\""
                                .into(),
                        ));
                    }),
                    "move" => Act::Move(field(v, "move")?.to_string()),
                    "resign" => Act::Resign,
                    "draw_offer" => Act::DrawOffer,
                    "draw_accept" => Act::DrawAccept,
                    "draw_decline" => Act::DrawDecline,
                    "rematch" => Act::Rematch,
                    "chat" => Act::Chat(field(v, "text")?.to_string()),
                    _ => Act::Claim,
                };
                let (tx, seat) = self.seat_in(game)?;
                let (rtx, rrx) = oneshot::channel();
                tx.send(Cmd::Act {
                    seat,
                    act,
                    reply: Some(rtx),
                })
                .await
                .map_err(|_| Error::Unavailable)?;
                let ver = rrx.await.map_err(|_| Error::Unavailable)??;
                Ok(Some(json!({"v": 1, "t": "ack", "game": game, "ver": ver})))
            }
            _ => Err(Error::BadRequest(format!(
                "unknown message type {:?}; known: {TYPES}",
                t.chars().take(32).collect::<String>()
            ))),
        }
    }

    fn seat_in(&self, game: &str) -> Result<(mpsc::Sender<Cmd>, Seat)> {
        match self.joined.get(game) {
            Some((tx, Viewer::Player(s))) => Ok((tx.clone(), *s)),
            Some(_) => Err(Error::Forbidden(
                "spectators cannot act; join with your seat token to play".into(),
            )),
            None => Err(Error::Forbidden(format!(
                "join game {} with your seat token first",
                game.chars().take(32).collect::<String>()
            ))),
        }
    }
}
