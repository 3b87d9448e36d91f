//! Helpers shared by the server tests: an in-process server on a temporary database with a
//! manual clock, guests, games and joined WebSocket clients.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use salpakan_client::{Ws, http};
use salpakan_server::{Config, ManualTime, Server};
use serde_json::{Value, json};

static N: AtomicU32 = AtomicU32::new(0);

/// A fresh temporary directory.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "salpakan-{name}-{}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub struct TestServer {
    pub server: Server,
    pub time: Arc<ManualTime>,
    pub db: PathBuf,
}

impl TestServer {
    pub fn addr(&self) -> SocketAddr {
        self.server.addr
    }
}

impl Drop for TestServer {
    /// Removes the test's temporary folder (the database in it).
    fn drop(&mut self) {
        if let Some(dir) = self.db.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

pub fn config(time: &Arc<ManualTime>) -> Config {
    Config {
        time: time.clone(),
        ..Config::default()
    }
}

pub async fn start(name: &str) -> TestServer {
    let time = Arc::new(ManualTime::default());
    start_with(name, config(&time), time).await
}

pub async fn start_with(name: &str, config: Config, time: Arc<ManualTime>) -> TestServer {
    let db = temp_dir(name).join("test.db");
    let server = Server::start("127.0.0.1:0".parse().unwrap(), &db, config)
        .await
        .unwrap();
    TestServer { server, time, db }
}

pub async fn guest(addr: SocketAddr, name: &str) -> String {
    let (st, v) = http(
        addr,
        "POST",
        "/api/guest",
        None,
        Some(&json!({"name": name})),
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{v}");
    v["token"].as_str().unwrap().to_string()
}

/// A game between two new guests via a seek: returns the id and the seat tokens by seat
/// index (the seek's creator takes the first seat).
pub async fn new_game(
    addr: SocketAddr,
    game: &str,
    options: Value,
    clock: Value,
) -> (String, [String; 2]) {
    let a = guest(addr, "Ana").await;
    let b = guest(addr, "Ben").await;
    game_between(addr, &a, &b, game, options, clock).await
}

/// A game between guests `a` (the seek's creator, first seat) and `b` (who accepts it):
/// returns the id and the seat tokens by seat index.
pub async fn game_between(
    addr: SocketAddr,
    a: &str,
    b: &str,
    game: &str,
    options: Value,
    clock: Value,
) -> (String, [String; 2]) {
    let first = match game {
        "generals" => "white",
        "stratego" => "red",
        _ => "first",
    };
    let (st, seek) = http(
        addr,
        "POST",
        "/api/seeks",
        Some(a),
        Some(&json!({"game": game, "options": options, "clock": clock, "seat": first})),
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{seek}");
    let id = seek["seek"]["id"].as_str().unwrap();
    let (st, acc) = http(
        addr,
        "POST",
        &format!("/api/seeks/{id}/accept"),
        Some(b),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{acc}");
    let game = acc["game"].as_str().unwrap().to_string();
    let (_, me) = http(addr, "GET", "/api/me", Some(a), None).await.unwrap();
    let ta = me["games"][0]["seat_token"].as_str().unwrap().to_string();
    let tb = acc["seat_token"].as_str().unwrap().to_string();
    (game, [ta, tb])
}

/// A connection joined to `game` (as a seat with `token`, or as a spectator), after its
/// `joined` answer and first frame (the sync).
pub async fn join(addr: SocketAddr, game: &str, token: Option<&str>) -> (Ws, Value) {
    let mut ws = Ws::connect(addr).await.unwrap();
    let mut m = json!({"v": 1, "t": "join", "game": game});
    if let Some(t) = token {
        m["seat_token"] = t.into();
    }
    ws.send(&m).await.unwrap();
    let j = ws.recv().await.unwrap();
    assert_eq!(j["t"], "joined", "{j}");
    let sync = ws.until("sync").await.unwrap();
    (ws, sync)
}

/// Sends a game message and waits for its ack (returning it) or error (panicking).
pub async fn act(ws: &mut Ws, m: Value) -> Value {
    let mut m = m;
    m["v"] = 1.into();
    m["id"] = "req".into();
    ws.send(&m).await.unwrap();
    let r = ws.until_with(|v| v["id"] == "req").await.unwrap();
    assert_eq!(r["t"], "ack", "{m} → {r}");
    r
}

/// Sends a message and returns the error it gets.
pub async fn refused(ws: &mut Ws, m: Value) -> String {
    let mut m = m;
    m["v"] = 1.into();
    m["id"] = "bad".into();
    ws.send(&m).await.unwrap();
    let r = ws.until_with(|v| v["id"] == "bad").await.unwrap();
    assert_eq!(r["t"], "error", "{m} → {r}");
    r["error"].as_str().unwrap().to_string()
}
