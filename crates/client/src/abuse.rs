//! `salpakan loadtest --abuse`: the floods of issue 15, run against one server while the
//! load test's normal games go on, each from its own loopback address (127.0.0.2 and up;
//! the normal games come from 127.0.0.1): guest creation, seeks and challenges, bot games
//! with unbounded parameters, chat, joins without reading, slow headers, idle sockets
//! over the per-address cap, and oversized frames. Every flood is paced (a few hundred
//! requests a second at most) and stops when the measurement ends.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::client::{HttpConn, Ws, tcp_from};

/// What the floods saw, from the attackers' side.
#[derive(Debug, Default)]
pub struct Seen {
    /// Requests and messages sent by the floods.
    pub sent: AtomicU64,
    /// Connections refused (a 503 at once, or closed before any answer).
    pub refused: AtomicU64,
    /// Requests answered 429, and WebSocket messages refused as too many.
    pub rate_limited: AtomicU64,
    /// Requests refused as bad (400: bot parameters out of range, too large).
    pub bad: AtomicU64,
    /// Connections the server closed: slow headers, readers that do not read, oversized
    /// frames.
    pub cut_off: AtomicU64,
}

fn ip(n: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
}

fn count(seen: &Seen, status: u16) {
    match status {
        429 => seen.rate_limited.fetch_add(1, Ordering::Relaxed),
        400 | 413 => seen.bad.fetch_add(1, Ordering::Relaxed),
        _ => 0,
    };
}

async fn guest(h: &mut HttpConn) -> Option<String> {
    let (st, g) = h.request("POST", "/api/guest", None, None).await.ok()?;
    (st == 200).then(|| g["token"].as_str().map(str::to_string))?
}

/// Runs every flood against `addr` until `stop`.
// Over 100 lines: each flood is a short task spawned here (HTTP, chat and joins, slow
// sockets, oversized frames); together they read as the list of attacks the run makes.
pub async fn floods(addr: SocketAddr, seen: Arc<Seen>, stop: Arc<AtomicBool>) {
    let mut tasks = Vec::new();
    // Guests, seeks, challenges and bot games over kept-alive HTTP connections.
    {
        let (seen, stop) = (seen.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let Ok(mut h) = HttpConn::connect_from(ip(2), addr).await else {
                return;
            };
            let Some(me) = guest(&mut h).await else {
                return;
            };
            let bodies = [
                ("/api/guest", json!({})),
                ("/api/seeks", json!({"game": "generals"})),
                ("/api/challenges", json!({"game": "stratego"})),
                ("/api/bot-games", json!({"game": "banqi", "bot": "random"})),
                (
                    "/api/bot-games",
                    json!({"game": "generals", "bot": "mcts:samples=1000000000000"}),
                ),
                (
                    "/api/bot-games",
                    json!({"game": "generals", "bot": "greedy:samples=4000000000"}),
                ),
            ];
            let mut k = 0;
            while !stop.load(Ordering::Relaxed) {
                let (path, body) = &bodies[k % bodies.len()];
                k += 1;
                seen.sent.fetch_add(1, Ordering::Relaxed);
                match h.request("POST", path, Some(&me), Some(body)).await {
                    Ok((st, _)) => count(&seen, st),
                    Err(_) => {
                        let Ok(n) = HttpConn::connect_from(ip(2), addr).await else {
                            return;
                        };
                        h = n;
                    }
                }
                tokio::time::sleep(Duration::from_millis(4)).await;
            }
        }));
    }
    // Chat and joins without reading, in a game of two attackers.
    {
        let (seen, stop) = (seen.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let Some((game, tokens)) = attackers_game(addr).await else {
                return;
            };
            let chat = {
                let (seen, stop, game, token) =
                    (seen.clone(), stop.clone(), game.clone(), tokens[0].clone());
                tokio::spawn(async move {
                    let line = "spam ".repeat(100);
                    while !stop.load(Ordering::Relaxed) {
                        let Ok(mut ws) = Ws::connect_from(ip(3), addr).await else {
                            return;
                        };
                        let join = json!({"v": 1, "t": "join", "game": game, "seat_token": token});
                        let _ = ws.send(&join).await;
                        while !stop.load(Ordering::Relaxed) {
                            let m = json!({"v": 1, "t": "chat", "game": game, "text": line});
                            seen.sent.fetch_add(1, Ordering::Relaxed);
                            if ws.send(&m).await.is_err() {
                                break;
                            }
                            // Read what came back, counting refusals.
                            while let Ok(t) = ws.recv_text_within(Duration::from_millis(1)).await {
                                if t.contains("\"t\":\"error\"") && t.contains("too many") {
                                    seen.rate_limited.fetch_add(1, Ordering::Relaxed);
                                }
                            }
                            tokio::time::sleep(Duration::from_millis(20)).await;
                        }
                    }
                })
            };
            let join =
                json!({"v": 1, "t": "join", "game": game, "seat_token": tokens[1]}).to_string();
            while !stop.load(Ordering::Relaxed) {
                let Ok(mut ws) = Ws::connect_from(ip(4), addr).await else {
                    return;
                };
                // Join again and again, never reading, until the server cuts it off.
                loop {
                    seen.sent.fetch_add(1, Ordering::Relaxed);
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if ws.send_text(join.clone()).await.is_err() {
                        seen.cut_off.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
            chat.abort();
        }));
    }
    // Slow headers and idle sockets: as many as the per-address cap lets in, and more.
    for n in [5u8, 6] {
        let (seen, stop) = (seen.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let slow = n == 5;
            let mut socks: Vec<tokio::net::TcpStream> = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                while socks.len() < 200 {
                    let Ok(mut s) = tcp_from(ip(n), addr).await else {
                        break;
                    };
                    seen.sent.fetch_add(1, Ordering::Relaxed);
                    if slow {
                        let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await;
                    }
                    socks.push(s);
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
                let mut kept = Vec::new();
                for mut s in socks.drain(..) {
                    if slow {
                        let _ = s.write_all(b"X-Slow: y\r\n").await;
                    }
                    let mut b = [0u8; 256];
                    match tokio::time::timeout(Duration::from_millis(1), s.read(&mut b)).await {
                        Ok(Ok(k)) if k > 0 && b.starts_with(b"HTTP/1.1 503") => {
                            seen.refused.fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(_) => {
                            seen.cut_off.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(_) => kept.push(s),
                    }
                }
                socks = kept;
            }
        }));
    }
    // Oversized frames.
    {
        let (seen, stop) = (seen.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let big = "z".repeat(300_000);
            while !stop.load(Ordering::Relaxed) {
                let Ok(mut ws) = Ws::connect_from(ip(7), addr).await else {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                seen.sent.fetch_add(1, Ordering::Relaxed);
                let _ = ws.send_text(big.clone()).await;
                if let Ok(v) = ws.recv_within(Duration::from_secs(5)).await {
                    if v["t"] == "error" {
                        seen.bad.fetch_add(1, Ordering::Relaxed);
                    }
                }
                if ws.recv_within(Duration::from_secs(5)).await.is_err() {
                    seen.cut_off.fetch_add(1, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }));
    }
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for t in tasks {
        t.abort();
    }
}

/// A game between two attackers (from 127.0.0.8): its id and both seat tokens.
async fn attackers_game(addr: SocketAddr) -> Option<(String, [String; 2])> {
    let mut h = HttpConn::connect_from(ip(8), addr).await.ok()?;
    let a = guest(&mut h).await?;
    let b = guest(&mut h).await?;
    let (_, s) = h
        .request(
            "POST",
            "/api/seeks",
            Some(&a),
            Some(&json!({"game": "generals", "seat": "white"})),
        )
        .await
        .ok()?;
    let id = s["seek"]["id"].as_str()?.to_string();
    let (_, acc) = h
        .request("POST", &format!("/api/seeks/{id}/accept"), Some(&b), None)
        .await
        .ok()?;
    let game = acc["game"].as_str()?.to_string();
    let (_, mine) = h
        .request("GET", &format!("/api/games/{game}/seat"), Some(&a), None)
        .await
        .ok()?;
    let ta = mine["seat_token"].as_str()?.to_string();
    let tb = acc["seat_token"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_default();
    let _ = Value::Null;
    Some((game, [ta, tb]))
}

/// The resident memory of process `pid` in KiB (Linux), if known.
#[must_use]
pub fn rss_kib(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}
