//! # salpakan-server
//!
//! The salpakan game server: guest identities, a live lobby of seeks and games, private
//! challenges, games against the built-in bots, secret setups, clocks kept on the server,
//! spectators, reconnection with versioned per-recipient events, and durable storage in
//! SQLite: every accepted event is committed (WAL, `synchronous=FULL`) before any client
//! hears of it, and every unfinished game is rebuilt on start-up.
//!
//! The protocol (HTTP JSON under `/api`, one WebSocket at `/ws`) is documented in
//! `docs/protocol.md`.
//!
//! ```no_run
//! # async fn demo() -> Result<(), salpakan_server::Error> {
//! let server = salpakan_server::Server::start(
//!     "127.0.0.1:0".parse().unwrap(),
//!     std::path::Path::new("salpakan.db"),
//!     salpakan_server::Config::default(),
//! )
//! .await?;
//! println!("listening on http://{}", server.addr);
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod account;
mod analysis;
pub(crate) mod app;
pub(crate) mod bots;
pub(crate) mod clock;
mod config;
mod error;
pub(crate) mod game;
mod http;
pub(crate) mod identity;
mod net;
mod profile;
mod protocol;
pub(crate) mod rating;
pub(crate) mod rating_book;
mod reputation;
pub(crate) mod store;
pub(crate) mod table;
mod ws;

pub use app::{App, LobbyView};
pub use clock::{ManualTime, SystemTime, TimeControl, TimeSource};
pub use config::{Config, Metrics};
pub use error::{Error, Result};
pub use store::{schema_version, stored_moves};

/// Reads one text message from a WebSocket client exactly as a connection does, without
/// acting on it: the `id` its answer would echo, and `Ok` or the sentence of the `error`
/// frame the client would get. For the fuzz target `protocol` (`fuzz/`) and tests.
pub fn read_client_message(text: &str) -> (Option<serde_json::Value>, Result<()>) {
    let (id, r) = protocol::parse_request(text);
    (id, r.map(|_| ()))
}

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, header};
use axum::routing::{any, delete, get, post};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

/// The server's routes: `/api/...` and `/ws`. Other paths are left to the web client.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/guest", post(http::guest))
        .route("/api/me", get(http::me))
        .route("/api/signout", post(http::sign_out))
        .route("/api/accounts", post(account::http::register))
        .route(
            "/api/session",
            post(account::http::login).delete(account::http::logout),
        )
        .route("/api/account", delete(account::http::delete))
        .route(
            "/api/account/password",
            post(account::http::change_password),
        )
        .route(
            "/api/account/tokens",
            get(account::http::tokens).post(account::http::create_token),
        )
        .route(
            "/api/account/tokens/{id}",
            delete(account::http::revoke_token),
        )
        .route("/api/lobby", get(http::lobby))
        .route("/api/bots", get(http::bots))
        .route("/api/seeks", post(http::create_seek))
        .route("/api/challenges", post(http::create_challenge))
        .route(
            "/api/seeks/{id}",
            get(http::get_seek).delete(http::cancel_seek),
        )
        .route("/api/seeks/{id}/accept", post(http::accept_seek))
        .route("/api/bot-games", post(http::bot_game))
        .route("/api/games", get(http::games))
        .route("/api/setup", get(http::setup))
        .route("/api/games/{id}", get(http::game))
        .route("/api/games/{id}/seat", get(http::my_seat))
        .route("/api/games/{id}/record", get(http::record))
        .route(
            "/api/games/{id}/analysis",
            get(analysis::get).post(analysis::post),
        )
        .route("/api/games/{id}/kudos", post(reputation::kudos))
        .route("/api/reports", post(reputation::report))
        .route("/api/moderation/reports", get(reputation::reports))
        .route(
            "/api/moderation/accounts/{name}",
            post(reputation::moderate),
        )
        .route("/api/leaderboard/{board}", get(profile::leaderboard))
        .route("/api/players/{name}", get(profile::player))
        .route("/api/players/{name}/games", get(profile::games))
        .route("/api/tables", post(table::http::create))
        .route("/api/tables/join", post(table::http::join))
        .route("/api/tables/{id}", get(table::http::view))
        .route("/api/tables/{id}/entry", post(table::http::entry))
        .route("/api/tables/{id}/finish", post(table::http::finish))
        .route("/api/{*rest}", any(http::not_found))
        .route("/ws", get(ws::upgrade))
        .fallback(get(web_client))
        .layer(DefaultBodyLimit::max(64 * 1024))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            account::http::cookie_guard,
        ))
        .layer(
            tower::ServiceBuilder::new()
                .layer(TimeoutLayer::with_status_code(
                    StatusCode::REQUEST_TIMEOUT,
                    Duration::from_millis(app.config.request_timeout_ms),
                ))
                .layer(RequestBodyTimeoutLayer::new(Duration::from_millis(
                    app.config.request_timeout_ms,
                )))
                .layer(header(header::CONTENT_SECURITY_POLICY, CSP))
                .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
                .layer(header(header::REFERRER_POLICY, "no-referrer"))
                .layer(header(header::X_FRAME_OPTIONS, "DENY")),
        )
        .with_state(app)
}

/// The Content-Security-Policy of every answer: scripts, styles and connections from the
/// server itself only (inline styles are allowed: the piece sprites carry them), never
/// framed.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
form-action 'self'; frame-ancestors 'none'";

fn header(
    name: axum::http::HeaderName,
    value: &'static str,
) -> SetResponseHeaderLayer<axum::http::HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, axum::http::HeaderValue::from_static(value))
}

/// Every other GET: the embedded web client (`crates/webui`); client routes get `index.html`.
async fn web_client(uri: axum::http::Uri) -> axum::response::Response {
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;
    match salpakan_webui::page(uri.path()) {
        Some((body, kind)) => ([(header::CONTENT_TYPE, kind)], body).into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    /// The address it listens on (with the real port when started on port 0).
    pub addr: SocketAddr,
    /// Its state.
    pub app: Arc<App>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Opens the store at `db` (rebuilding unfinished games), binds `addr` and serves in the
    /// background.
    ///
    /// # Errors
    /// The store cannot be opened or the address cannot be bound.
    pub async fn start(addr: SocketAddr, db: &Path, config: Config) -> Result<Server> {
        let app = App::start(db, config)?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Error::Start(format!("cannot listen on {addr}: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| Error::Start(e.to_string()))?;
        let r = router(app.clone());
        let sweeper = {
            let app = Arc::downgrade(&app);
            let every = Duration::from_millis(app.upgrade().map_or(10_000, |a| a.config.sweep_ms));
            tokio::spawn(async move {
                let mut last = (0, 0);
                loop {
                    tokio::time::sleep(every).await;
                    let Some(app) = app.upgrade() else { return };
                    app.sweep();
                    app.expire_guests().await;
                    let m = &app.metrics;
                    let now = (
                        m.connections_refused
                            .load(std::sync::atomic::Ordering::Relaxed),
                        m.rate_limited.load(std::sync::atomic::Ordering::Relaxed),
                    );
                    if now != last {
                        tracing::warn!(
                            connections_refused = now.0 - last.0,
                            rate_limited = now.1 - last.1,
                            connections_open = m
                                .connections_open
                                .load(std::sync::atomic::Ordering::Relaxed),
                            "limits refused requests since the last report"
                        );
                        last = now;
                    }
                }
            })
        };
        let a = app.clone();
        let task = tokio::spawn(async move {
            let _stop_sweeper = AbortOnDrop(sweeper);
            net::serve(a, listener, r).await;
        });
        Ok(Server { addr, app, task })
    }

    /// Waits until the server stops.
    pub async fn wait(self) {
        let _ = self.task.await;
    }

    /// Stops serving.
    pub fn stop(&self) {
        self.task.abort();
    }
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// `salpakan serve`: runs a server until Ctrl-C, printing the URL it listens on.
///
/// # Errors
/// A bad setting, the store cannot be opened or written, or the address cannot be bound.
pub fn serve_blocking(addr: SocketAddr, db: &Path, config: Config) -> Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Start(format!("cannot start the async runtime: {e}")))?;
    rt.block_on(async {
        let server = Server::start(addr, db, config).await?;
        say(&format!(
            "salpakan server listening on http://{}\ndatabase: {}\n",
            server.addr,
            db.display()
        ));
        tokio::select! {
            () = server_wait(&server) => {}
            _ = tokio::signal::ctrl_c() => say("stopping\n"),
        }
        Ok(())
    })
}

/// Writes to standard output, ignoring failures: a server keeps serving when whoever started
/// it stops reading its output (a closed pipe must not take the games down).
fn say(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

async fn server_wait(s: &Server) {
    while !s.task.is_finished() {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}
