//! The WebSocket `/ws`: versioned JSON messages for the lobby and for games (see
//! `docs/protocol.md`). Each connection has a token-bucket rate limit and a size limit;
//! a refused message gets an error and changes nothing.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Extension;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use salpakan_engine::{Seat, Viewer};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::app::App;
use crate::error::{Error, Result};
use crate::game::{Act, Cmd, Outbox, Reply};
use crate::identity::User;
use crate::protocol::{self, Frame, JoinedAs, Request, ServerMsg, request_id};

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// Consecutive refused (rate-limited) messages after which a connection is closed.
const MAX_STRIKES: u32 = 200;

/// `GET /ws`: upgrades to a WebSocket. The connection keeps its place under the
/// per-address cap for its life.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    place: Option<Extension<Arc<crate::net::Place>>>,
    headers: axum::http::HeaderMap,
) -> Response {
    // The session cookie (a cross-site upgrade carrying one was refused before this): it
    // authenticates a `hello` without a token.
    let cookie = crate::account::cookie_of(&headers).map(str::to_string);
    let limit = app.config.max_message.saturating_mul(4).max(64 * 1024);
    // Messages are small: a small read buffer (the default, 128 KiB, is zero-filled
    // before every read).
    ws.max_message_size(limit)
        .max_frame_size(limit)
        .read_buffer_size(4096)
        .on_upgrade(move |s| async move {
            connection(app, s, cookie).await;
            drop(place);
        })
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
    /// The rate limit on its messages.
    bucket: Bucket,
    /// Refused (rate-limited) messages in a row.
    strikes: u32,
    out: Outbox,
    user: Option<User>,
    /// The session cookie of the upgrade request.
    cookie: Option<String>,
    joined: HashMap<String, (mpsc::Sender<Cmd>, Viewer)>,
    lobby: Option<tokio::task::JoinHandle<()>>,
}

/// Writes a connection's frames: those queued together go out in one write (one flush for
/// all of them), and the server pings every `ping_every`: a live peer answers (and so keeps
/// the connection under its idle timeout), a dead one does not and is closed. An empty
/// frame means: flush and close.
async fn write_frames(
    mut sink: SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Frame>,
    queued: Arc<AtomicUsize>,
    ping_every: Duration,
) {
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
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
        // Before writing, the writer lets the tasks that are ready run once: a move's event
        // and its acknowledgement (queued by two tasks) then usually leave in one write.
        let mut yielded = false;
        loop {
            if f.is_empty() {
                let _ = sink.flush().await;
                break 'frames;
            }
            queued.fetch_sub(f.len(), Ordering::Relaxed);
            if sink.feed(Message::Text(f)).await.is_err() {
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
}

async fn connection(app: Arc<App>, socket: WebSocket, cookie: Option<String>) {
    let (sink, mut stream) = socket.split();
    let (tx, rx) = mpsc::channel::<Frame>(1024);
    let out = Outbox::new(tx, app.config.max_queue_bytes);
    let ping_every = Duration::from_millis(app.config.ping_ms);
    let writer = tokio::spawn(write_frames(sink, rx, out.queued.clone(), ping_every));
    let kill = out.kill.clone();
    let mut c = Conn {
        id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
        bucket: Bucket {
            tokens: f64::from(app.config.burst),
            last: Instant::now(),
            rate: f64::from(app.config.rate_per_s),
            cap: f64::from(app.config.burst),
        },
        strikes: 0,
        app,
        out,
        user: None,
        cookie,
        joined: HashMap::new(),
        lobby: None,
    };
    // A peer heard from nothing (no message, no pong) for the idle timeout is dead: the
    // server's pings (every `ping_ms`) get answers from every live one.
    let idle = Duration::from_millis(c.app.config.idle_timeout_ms);
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
                if c.out.is_signed_out() {
                    tracing::info!(conn = c.id, "closing a connection of a guest who signed out");
                } else {
                    c.app.metrics.slow_closed.fetch_add(1, Ordering::Relaxed);
                    tracing::info!(conn = c.id, "closing a connection that does not keep up");
                }
                break;
            }
        };
        if matches!(msg, Some(Ok(_))) {
            heard = Instant::now();
        }
        let go_on = match msg {
            Some(Ok(Message::Text(t))) => c.on_text(t.as_str()).await,
            Some(Ok(Message::Binary(b))) => {
                c.error(
                    &Error::BadRequest(
                        "send text frames holding one JSON message each, not binary frames".into(),
                    ),
                    std::str::from_utf8(&b).ok().and_then(request_id).as_ref(),
                );
                true
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
                false
            }
            Some(Ok(Message::Close(_))) | None => false,
            Some(Ok(_)) => true,
        };
        if !go_on {
            break;
        }
    }
    c.reset().await;
    if let Some(l) = c.lobby.take() {
        l.abort();
    }
    // Flush what is queued (errors included), then close.
    let _ = c.out.tx.send(Frame::default()).await;
    drop(c);
    let mut writer = writer;
    if tokio::time::timeout(Duration::from_secs(5), &mut writer)
        .await
        .is_err()
    {
        writer.abort();
    }
}

impl Conn {
    fn error(&self, e: &Error, id: Option<&Value>) {
        self.out.send(e.frame(id));
    }

    /// One text message: the rate limit, the size limit, then the request. False when the
    /// connection must close (it keeps flooding).
    async fn on_text(&mut self, text: &str) -> bool {
        if !self.bucket.take() {
            self.strikes += 1;
            self.app
                .metrics
                .rate_limited
                .fetch_add(1, Ordering::Relaxed);
            if self.strikes >= MAX_STRIKES {
                tracing::info!(conn = self.id, "closing a flooding connection");
                return false;
            }
            self.error(
                &Error::RateLimited(self.app.config.rate_per_s),
                request_id(text).as_ref(),
            );
            return true;
        }
        self.strikes = 0;
        if text.len() > self.app.config.max_message {
            self.error(
                &Error::TooLarge(text.len(), self.app.config.max_message),
                request_id(text).as_ref(),
            );
            return true;
        }
        let (id, request) = protocol::parse_request(text);
        let answer = match request {
            Ok(r) => self.handle(r, id.as_ref()).await,
            Err(e) => Err(e),
        };
        match answer {
            Ok(Some(reply)) => {
                self.out.send(reply);
            }
            Ok(None) => {}
            Err(e) => self.error(&e, id.as_ref()),
        }
        true
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

    /// Acts on one request; its answer (if any) as a frame, with the request's `id`.
    async fn handle(&mut self, r: Request, id: Option<&Value>) -> Result<Option<Frame>> {
        let frame = |m: &ServerMsg<'_>| Ok(Some(protocol::frame(m, id)));
        match r {
            Request::Ping => frame(&ServerMsg::Pong),
            Request::Hello { token } => {
                let u = self.hello(token.as_deref()).await?;
                frame(&ServerMsg::Welcome {
                    user: &u.id,
                    name: &u.name,
                })
            }
            Request::Lobby => {
                // Updates are followed before the snapshot is taken: none falls between.
                if self.lobby.is_none() {
                    self.follow_lobby();
                }
                let l = self.app.lobby();
                frame(&ServerMsg::Lobby {
                    seeks: &l.seeks,
                    games: &l.games,
                })
            }
            Request::Unlobby => {
                if let Some(l) = self.lobby.take() {
                    l.abort();
                }
                frame(&ServerMsg::Ack {
                    game: None,
                    ver: None,
                })
            }
            Request::Join {
                game,
                seat_token,
                since,
            } => {
                self.join(game, seat_token, since, id).await?;
                Ok(None)
            }
            Request::Leave { game } => {
                if let Some((tx, _)) = self.joined.remove(&game) {
                    let _ = tx.send(Cmd::Leave { conn: self.id }).await;
                }
                frame(&ServerMsg::Ack {
                    game: Some(&game),
                    ver: None,
                })
            }
            Request::Act { game, act } => {
                self.act(&game, act, id).await?;
                Ok(None)
            }
        }
    }

    /// `hello`: this connection speaks for the guest or account of `token` (or, without
    /// one, of the upgrade request's session cookie) from now on.
    async fn hello(&mut self, token: Option<&str>) -> Result<User> {
        let u = match (token, &self.cookie) {
            (Some(t), _) => self.app.identity.authenticate(t),
            (None, Some(c)) => self.app.accounts.session_user(c),
            (None, None) => {
                return Err(Error::BadRequest(
                    "this message needs \"token\" (a string), or a session cookie on the WebSocket's upgrade request".into(),
                ));
            }
        }
        .ok_or(Error::Unauthorized)?;
        if self.user.as_ref() != Some(&u) {
            // A new identity on this connection: nothing of the previous one stays (its
            // notifications, its seats).
            self.reset().await;
            self.app.subscribe_user(&u.id, self.out.clone());
        }
        self.app.seen(&u.id);
        self.user = Some(u.clone());
        Ok(u)
    }

    /// Starts forwarding lobby updates to this connection (a fresh snapshot when it lags).
    fn follow_lobby(&mut self) {
        let mut rx = self.app.lobby_updates();
        let out = self.out.clone();
        let app = self.app.clone();
        self.lobby = Some(tokio::spawn(async move {
            loop {
                let f = match rx.recv().await {
                    Ok(f) => f,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        let l = app.lobby();
                        protocol::frame(
                            &ServerMsg::Lobby {
                                seeks: &l.seeks,
                                games: &l.games,
                            },
                            None,
                        )
                    }
                    Err(_) => break,
                };
                if !out.send(f) {
                    break;
                }
            }
        }));
    }

    /// `join`: follows `game` as the seat of `seat_token`, or as a spectator. The `joined`
    /// answer goes out before the game's first frame.
    async fn join(
        &mut self,
        game: String,
        seat_token: Option<String>,
        since: Option<u64>,
        id: Option<&Value>,
    ) -> Result<()> {
        let viewer = match seat_token {
            None => Viewer::Spectator,
            Some(t) => {
                drop(self.app.game(&game).await?);
                Viewer::Player(self.app.check_seat_token(&game, &t).ok_or_else(|| {
                    Error::Forbidden(format!(
                        "that seat token is not valid for game {game}; join without one to watch"
                    ))
                })?)
            }
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
            Viewer::Player(s) => JoinedAs::Seat(s.index()),
            _ => JoinedAs::Spectator("spectator"),
        };
        self.out
            .send(protocol::frame(&ServerMsg::Joined { game: &game, as_ }, id));
        tx.send(Cmd::Join {
            viewer,
            conn: self.id,
            out: self.out.clone(),
            since,
        })
        .await
        .map_err(|_| Error::Unavailable)?;
        self.joined.insert(game, (tx, viewer));
        Ok(())
    }

    /// A seat's action: sent to the game, which answers this connection itself (`ack`
    /// once the events it made are stored and sent, or `error`). The reader does not wait:
    /// the game takes a connection's actions in the order they came.
    async fn act(&self, game: &str, act: Act, id: Option<&Value>) -> Result<()> {
        let (tx, seat) = self.seat_in(game)?;
        tx.send(Cmd::Act {
            seat,
            act,
            reply: Some(Reply::Conn {
                conn: self.id,
                id: id.cloned(),
            }),
        })
        .await
        .map_err(|_| Error::Unavailable)
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
