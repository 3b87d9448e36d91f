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

pub mod app;
pub mod bots;
pub mod client;
pub mod clock;
mod error;
pub mod game;
mod http;
pub mod identity;
pub mod loadtest;
pub mod store;
mod ws;

pub use app::{App, Config};
pub use clock::{ManualTime, SystemTime, TimeControl, TimeSource};
pub use error::{Error, Result};

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{any, get, post};

/// The server's routes: `/api/...` and `/ws`. Other paths are left to the web client.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/guest", post(http::guest))
        .route("/api/me", get(http::me))
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
        .route("/api/{*rest}", any(http::not_found))
        .route("/ws", get(ws::upgrade))
        .fallback(get(web_client))
        .layer(DefaultBodyLimit::max(64 * 1024))
        .with_state(app)
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
            .map_err(|e| Error::BadRequest(format!("cannot listen on {addr}: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| Error::BadRequest(e.to_string()))?;
        let r = router(app.clone());
        let task = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, r).await {
                tracing::error!(error = %e, "the server stopped");
            }
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

/// `salpakan serve`: runs a server until Ctrl-C, printing the URL it listens on.
///
/// # Errors
/// The store cannot be opened or the address cannot be bound.
pub fn serve_blocking(addr: SocketAddr, db: &Path) -> Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::BadRequest(e.to_string()))?;
    rt.block_on(async {
        let server = Server::start(addr, db, Config::default()).await?;
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
