//! The server holds against hostile and faulty clients (issue 15): each test is named after
//! the attack or fault it tries, on a real server over real loopback sockets, and checks
//! that the server refuses it, survives it, and says so.

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use common::*;
use futures_util::StreamExt;
use salpakan_client::{Ws, http};
use salpakan_server::{Config, ManualTime, Server};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn start_cfg(name: &str, f: impl FnOnce(&mut Config)) -> TestServer {
    let time = Arc::new(ManualTime::default());
    let mut c = config(&time);
    f(&mut c);
    start_with(name, c, time).await
}

/// Reads until the server closes the socket; the bytes read, or none when it stays open
/// for `within`.
async fn closed_within(s: &mut TcpStream, within: Duration) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    match tokio::time::timeout(within, s.read_to_end(&mut buf)).await {
        Ok(_) => Some(buf),
        Err(_) => None,
    }
}

async fn event(ws: &mut Ws, ty: &str) -> Value {
    ws.until_with(|v| v["t"] == "event" && v["e"]["type"] == ty)
        .await
        .unwrap()
}

/// A Generals game with both setups in, White to move.
async fn started(ts: &TestServer) -> (String, [String; 2], Ws, Ws) {
    let addr = ts.addr();
    let (game, tokens) = new_game(addr, "generals", Value::Null, Value::Null).await;
    let (mut w, _) = join(addr, &game, Some(&tokens[0])).await;
    let (mut b, _) = join(addr, &game, Some(&tokens[1])).await;
    act(&mut w, json!({"t": "setup", "game": game, "random": true})).await;
    act(&mut b, json!({"t": "setup", "game": game, "random": true})).await;
    event(&mut w, "start").await;
    event(&mut b, "start").await;
    (game, tokens, w, b)
}

async fn legal(ws: &mut Ws) -> Vec<String> {
    let l = ws.latest("legal").await.unwrap();
    serde_json::from_value(l["moves"].clone()).unwrap()
}

// ---- 1. bot parameters -------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_game_asking_for_a_trillion_samples_is_refused_with_the_range() {
    let ts = start("hugebot").await;
    let addr = ts.addr();
    let t = guest(addr, "Ana").await;
    for bot in [
        "mcts:samples=1000000000000",
        "greedy:samples=1000000000000",
        "greedy:samples=100000",
    ] {
        let (st, v) = http(
            addr,
            "POST",
            "/api/bot-games",
            Some(&t),
            Some(&json!({"game": "generals", "bot": bot})),
        )
        .await
        .unwrap();
        assert_eq!(st, 400, "{bot}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(" to "), "{bot}: the error names the range: {e}");
    }
    // The server is still up.
    let (st, _) = http(addr, "GET", "/api/lobby", None, None).await.unwrap();
    assert_eq!(st, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_game_whose_bot_cannot_be_built_does_not_stop_the_server() {
    let dir = temp_dir("badbot");
    let db = dir.join("s.db");
    let time = Arc::new(ManualTime::default());
    let (game, token) = {
        let s = Server::start("127.0.0.1:0".parse().unwrap(), &db, config(&time))
            .await
            .unwrap();
        let t = guest(s.addr, "Ana").await;
        let (st, v) = http(
            s.addr,
            "POST",
            "/api/bot-games",
            Some(&t),
            Some(&json!({"game": "generals", "bot": "greedy", "seat": "white"})),
        )
        .await
        .unwrap();
        assert_eq!(st, 200, "{v}");
        s.stop();
        (
            v["game"].as_str().unwrap().to_string(),
            v["seat_token"].as_str().unwrap().to_string(),
        )
    };
    // As a server without bounds stored it: a bot that would allocate without end.
    let c = rusqlite::Connection::open(&db).unwrap();
    let players: String = c
        .query_row("SELECT players FROM games WHERE id=?1", [&game], |r| {
            r.get(0)
        })
        .unwrap();
    let players = players.replace("\"greedy\"", "\"greedy:samples=1000000000000\"");
    c.execute("UPDATE games SET players=?2 WHERE id=?1", [&game, &players])
        .unwrap();
    drop(c);
    let s = Server::start("127.0.0.1:0".parse().unwrap(), &db, config(&time))
        .await
        .expect("the server starts");
    let (mut w, _) = join(s.addr, &game, Some(&token)).await;
    act(&mut w, json!({"t": "setup", "game": game, "random": true})).await;
    event(&mut w, "start").await;
    let mv = legal(&mut w).await[0].clone();
    act(&mut w, json!({"t": "move", "game": game, "move": mv})).await;
    // The bot (fallen back to its default parameters) answers.
    let reply = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let e = event(&mut w, "move").await;
            if e["e"]["to_move"] == "white" {
                return e;
            }
        }
    })
    .await
    .expect("the bot moves");
    assert_eq!(reply["e"]["to_move"], "white");
    s.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 2. chat, joins and send queues ------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_flood_from_one_player_is_rate_limited() {
    let ts = start_cfg("chatflood", |c| {
        c.chat_burst = 5;
        c.chat_per_minute = 6;
    })
    .await;
    let (game, _, mut w, _b) = started(&ts).await;
    for i in 0..5 {
        act(
            &mut w,
            json!({"t": "chat", "game": game, "text": format!("hi {i}")}),
        )
        .await;
    }
    let e = refused(&mut w, json!({"t": "chat", "game": game, "text": "spam"})).await;
    assert!(e.contains("too many chat lines"), "{e}");
    assert!(ts.server.app.metrics.rate_limited.load(Ordering::Relaxed) >= 1);
    // Ten seconds later, one more line is allowed (6 a minute).
    ts.time.advance(10_000);
    act(&mut w, json!({"t": "chat", "game": game, "text": "later"})).await;
    let e = refused(&mut w, json!({"t": "chat", "game": game, "text": "spam"})).await;
    assert!(e.contains("too many chat lines"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_keeps_and_syncs_a_bounded_number_of_chat_lines() {
    let ts = start_cfg("chatkeep", |c| {
        c.chat_burst = 1000;
        c.chat_per_minute = 1_000_000;
        c.chat_keep = 10;
        c.chat_max = 30;
    })
    .await;
    let (game, tokens, mut w, _b) = started(&ts).await;
    for i in 0..30 {
        act(
            &mut w,
            json!({"t": "chat", "game": game, "text": format!("line {i}")}),
        )
        .await;
    }
    let e = refused(
        &mut w,
        json!({"t": "chat", "game": game, "text": "one more"}),
    )
    .await;
    assert!(e.contains("chat is full"), "{e}");
    let (_, sync) = join(ts.addr(), &game, Some(&tokens[1])).await;
    let chat = sync["state"]["chat"].as_array().unwrap();
    assert_eq!(chat.len(), 10);
    assert_eq!(chat[9]["text"], "line 29");
    assert_eq!(chat[0]["text"], "line 20");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_joins_over_and_over_without_reading_is_cut_off_by_bytes_queued() {
    let ts = start_cfg("joinflood", |c| {
        c.rate_per_s = 100_000;
        c.burst = 100_000;
        c.chat_burst = 1000;
        c.chat_per_minute = 1_000_000;
        c.max_queue_bytes = 256 * 1024;
    })
    .await;
    let addr = ts.addr();
    let (game, tokens, mut w, _b) = started(&ts).await;
    // A sync of about 50 KB (100 lines of 500 characters).
    let line = "x".repeat(500);
    for _ in 0..100 {
        act(&mut w, json!({"t": "chat", "game": game, "text": line})).await;
    }
    // Black (not to move: two frames a join) joins 300 times and never reads: 15 MB,
    // more than the sockets' buffers hold.
    let mut flood = Ws::connect(addr).await.unwrap();
    let join = json!({"v": 1, "t": "join", "game": game, "seat_token": tokens[1]}).to_string();
    for _ in 0..300 {
        if flood.send_text(join.clone()).await.is_err() {
            break;
        }
    }
    let m = &ts.server.app.metrics;
    let mut cut = false;
    for _ in 0..100 {
        if m.slow_closed.load(Ordering::Relaxed) >= 1 {
            cut = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(cut, "the flooding connection was not closed: {}", m.json());
    // The game goes on for the others.
    let mv = legal(&mut w).await[0].clone();
    act(&mut w, json!({"t": "move", "game": game, "move": mv})).await;
}

// ---- 3. a failed database write ----------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_failed_database_write_does_not_freeze_the_game() {
    let ts = start("failedwrite").await;
    let (game, _, mut w, mut b) = started(&ts).await;
    let moves = legal(&mut w).await;
    ts.server.app.store.fail_next_writes(1);
    let e = refused(&mut w, json!({"t": "move", "game": game, "move": moves[0]})).await;
    assert!(e.contains("could not store"), "{e}");
    // The players are told, and get the game as stored.
    let n = w.until("notice").await.unwrap();
    assert_eq!(n["notice"], "storage");
    let sync = w.until("sync").await.unwrap();
    assert_eq!(sync["state"]["to_move"], "white");
    // Once the store works again, the game goes on.
    act(&mut w, json!({"t": "move", "game": game, "move": moves[0]})).await;
    let e = event(&mut b, "move").await;
    assert_eq!(e["e"]["to_move"], "black");
    let mv = legal(&mut b).await[0].clone();
    act(&mut b, json!({"t": "move", "game": game, "move": mv})).await;
    // Nothing acknowledged was lost: a fresh look at the game has both moves.
    let (_, sync) = join(ts.addr(), &game, None).await;
    assert_eq!(sync["state"]["history"].as_array().unwrap().len(), 2);
}

// ---- 4. sockets: caps, timeouts, dead peers -------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_many_connections_from_one_address_are_refused() {
    let ts = start_cfg("conncap", |c| c.max_conns_per_ip = 8).await;
    let mut socks = Vec::new();
    for _ in 0..20 {
        socks.push(TcpStream::connect(ts.addr()).await.unwrap());
    }
    let mut refused = 0;
    for s in &mut socks {
        if let Some(b) = closed_within(s, Duration::from_millis(300)).await {
            assert!(String::from_utf8_lossy(&b).contains("503"));
            refused += 1;
        }
    }
    assert_eq!(refused, 12);
    let m = &ts.server.app.metrics;
    assert_eq!(m.connections_refused.load(Ordering::Relaxed), 12);
    // Once they close, others may come.
    drop(socks);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (st, _) = http(ts.addr(), "GET", "/api/lobby", None, None)
        .await
        .unwrap();
    assert_eq!(st, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loopback_can_open_many_sockets_when_configured_to() {
    let ts = start_cfg("manysockets", |c| c.max_conns_per_ip = 3000).await;
    let mut socks = Vec::new();
    for _ in 0..2000 {
        socks.push(TcpStream::connect(ts.addr()).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let m = &ts.server.app.metrics;
    assert_eq!(m.connections_refused.load(Ordering::Relaxed), 0);
    assert_eq!(m.connections_open.load(Ordering::Relaxed), 2000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slowloris_request_is_cut_off_by_the_header_timeout() {
    let ts = start_cfg("slowloris", |c| c.header_timeout_ms = 500).await;
    let mut s = TcpStream::connect(ts.addr()).await.unwrap();
    s.write_all(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // One header line every 100 ms, never the end of the headers.
    let start = std::time::Instant::now();
    let mut closed = false;
    for i in 0..40 {
        if s.write_all(format!("X-{i}: y\r\n").as_bytes())
            .await
            .is_err()
        {
            closed = true;
            break;
        }
        let mut b = [0u8; 512];
        if let Ok(r) = tokio::time::timeout(Duration::from_millis(100), s.read(&mut b)).await {
            // An answer (408) or the end of the stream.
            let _ = r;
            closed = true;
            break;
        }
    }
    assert!(closed, "the slow request was still open after 4 s");
    assert!(start.elapsed() < Duration::from_secs(3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_idle_kept_alive_connections_are_closed_after_the_header_timeout() {
    let ts = start_cfg("idle", |c| c.header_timeout_ms = 400).await;
    // Silent from the start.
    let mut s = TcpStream::connect(ts.addr()).await.unwrap();
    assert!(
        closed_within(&mut s, Duration::from_secs(3))
            .await
            .is_some(),
        "a silent connection stayed open"
    );
    // Kept alive after one request, and then silent.
    let mut s = TcpStream::connect(ts.addr()).await.unwrap();
    s.write_all(b"GET /api/bots HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut b = [0u8; 4096];
    let n = s.read(&mut b).await.unwrap();
    assert!(b[..n].starts_with(b"HTTP/1.1 200"));
    let start = std::time::Instant::now();
    assert!(
        closed_within(&mut s, Duration::from_secs(3))
            .await
            .is_some(),
        "an idle kept-alive connection stayed open"
    );
    assert!(start.elapsed() >= Duration::from_millis(300));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_websocket_peer_that_never_answers_pings_is_closed() {
    let ts = start_cfg("deadpeer", |c| {
        c.idle_timeout_ms = 500;
        c.ping_ms = 100;
    })
    .await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", ts.addr()))
        .await
        .unwrap();
    // A live peer that only listens answers the pings (its reads do) and stays...
    let mut live = Ws::connect(ts.addr()).await.unwrap();
    let until = std::time::Instant::now() + Duration::from_millis(1500);
    while std::time::Instant::now() < until {
        let _ = live.recv_within(Duration::from_millis(100)).await;
    }
    live.send(&json!({"v": 1, "t": "ping"})).await.unwrap();
    live.until("pong")
        .await
        .expect("a live listener stays connected");
    // ...the dead one, which read nothing (so answered no ping) meanwhile, was closed.
    // ...and finds the connection closed.
    let ended = tokio::time::timeout(Duration::from_secs(3), async {
        while let Some(m) = ws.next().await {
            if m.is_err() || matches!(m, Ok(tokio_tungstenite::tungstenite::Message::Close(_))) {
                break;
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the dead peer's connection stayed open");
}

// ---- 5. identities, seeks, challenges and bot games ----------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_creation_flood_from_one_address_is_rate_limited() {
    let ts = start_cfg("guestflood", |c| {
        c.guests_per_minute = 5;
        c.guest_burst = 5;
    })
    .await;
    let mut codes = Vec::new();
    for _ in 0..8 {
        let (st, v) = http(ts.addr(), "POST", "/api/guest", None, None)
            .await
            .unwrap();
        if st == 429 {
            assert!(v["error"].as_str().unwrap().contains("a minute"), "{v}");
        }
        codes.push(st);
    }
    assert_eq!(codes, [200, 200, 200, 200, 200, 429, 429, 429]);
    assert_eq!(
        ts.server.app.metrics.rate_limited.load(Ordering::Relaxed),
        3
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_and_challenge_flood_from_one_guest_is_capped() {
    let ts = start_cfg("seekflood", |c| c.max_open_seeks = 3).await;
    let t = guest(ts.addr(), "Ana").await;
    let mut codes = Vec::new();
    let mut first = None;
    for path in [
        "/api/seeks",
        "/api/challenges",
        "/api/seeks",
        "/api/seeks",
        "/api/challenges",
    ] {
        let (st, v) = http(
            ts.addr(),
            "POST",
            path,
            Some(&t),
            Some(&json!({"game": "generals"})),
        )
        .await
        .unwrap();
        if st == 200 && first.is_none() {
            first = v["seek"]["id"].as_str().map(str::to_string);
        }
        codes.push(st);
    }
    assert_eq!(codes, [200, 200, 200, 429, 429]);
    // Cancelling one makes room for another.
    let id = first.unwrap();
    let (st, _) = http(
        ts.addr(),
        "DELETE",
        &format!("/api/seeks/{id}"),
        Some(&t),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200);
    let (st, _) = http(
        ts.addr(),
        "POST",
        "/api/seeks",
        Some(&t),
        Some(&json!({"game": "banqi"})),
    )
    .await
    .unwrap();
    assert_eq!(st, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_of_a_creator_who_is_gone_expire_and_leave_the_lobby() {
    let ts = start_cfg("seekexpiry", |c| {
        c.sweep_ms = 30;
        c.seek_idle_ms = 60_000;
    })
    .await;
    let addr = ts.addr();
    let gone = guest(addr, "Gone").await;
    let here = guest(addr, "Here").await;
    let mut ids = Vec::new();
    for t in [&gone, &here] {
        let (_, v) = http(
            addr,
            "POST",
            "/api/seeks",
            Some(t),
            Some(&json!({"game": "generals"})),
        )
        .await
        .unwrap();
        ids.push(v["seek"]["id"].as_str().unwrap().to_string());
    }
    // "Here" keeps a connection open (and said hello); "Gone" does nothing.
    let mut ws = Ws::connect(addr).await.unwrap();
    ws.send(&json!({"v": 1, "t": "hello", "token": here}))
        .await
        .unwrap();
    ws.until("welcome").await.unwrap();
    ts.time.advance(30_000);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (st, _) = http(addr, "GET", &format!("/api/seeks/{}", ids[0]), None, None)
        .await
        .unwrap();
    assert_eq!(st, 200, "not yet");
    ts.time.advance(31_000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (st, _) = http(addr, "GET", &format!("/api/seeks/{}", ids[0]), None, None)
        .await
        .unwrap();
    assert_eq!(st, 404, "the seek of a creator gone 61 s is closed");
    let (st, _) = http(addr, "GET", &format!("/api/seeks/{}", ids[1]), None, None)
        .await
        .unwrap();
    assert_eq!(st, 200, "the seek of a connected creator stays");
    let (_, lobby) = http(addr, "GET", "/api/lobby", None, None).await.unwrap();
    assert_eq!(lobby["seeks"].as_array().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_game_flood_from_one_guest_is_capped() {
    let ts = start_cfg("botflood", |c| c.max_bot_games = 2).await;
    let t = guest(ts.addr(), "Ana").await;
    let mut codes = Vec::new();
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let (st, v) = http(
            ts.addr(),
            "POST",
            "/api/bot-games",
            Some(&t),
            Some(&json!({"game": "generals", "bot": "random"})),
        )
        .await
        .unwrap();
        if st == 200 {
            tokens.push((
                v["game"].as_str().unwrap().to_string(),
                v["seat_token"].as_str().unwrap().to_string(),
            ));
        }
        codes.push(st);
    }
    assert_eq!(codes, [200, 200, 429]);
    // Resigning one makes room for another.
    let (game, token) = &tokens[0];
    let (mut ws, _) = join(ts.addr(), game, Some(token)).await;
    act(&mut ws, json!({"t": "resign", "game": game})).await;
    let (st, v) = http(
        ts.addr(),
        "POST",
        "/api/bot-games",
        Some(&t),
        Some(&json!({"game": "generals", "bot": "random"})),
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{v}");
}

// ---- weaknesses ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandonment_claim_during_setup_waits_for_the_three_minute_setup_grace() {
    let ts = start("setupclaim").await;
    let (game, tokens) = new_game(ts.addr(), "generals", Value::Null, Value::Null).await;
    let (mut w, _) = join(ts.addr(), &game, Some(&tokens[0])).await;
    let (b, _) = join(ts.addr(), &game, Some(&tokens[1])).await;
    act(&mut w, json!({"t": "setup", "game": game, "random": true})).await;
    b.close().await;
    w.until_with(|v| v["t"] == "presence" && v["online"] == false)
        .await
        .unwrap();
    ts.time.advance(61_000);
    let e = refused(&mut w, json!({"t": "claim", "game": game})).await;
    assert!(e.contains("180 s"), "{e}");
    ts.time.advance(120_000);
    // Past three minutes the absent seat has lost (by itself, or on the claim).
    w.send(&json!({"v": 1, "t": "claim", "game": game, "id": "c"}))
        .await
        .unwrap();
    w.until_with(|v| v["id"] == "c").await.unwrap();
    let end = event(&mut w, "end").await;
    assert_eq!(
        end["e"]["result"],
        json!({"winner": "white", "reason": "abandonment"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_and_challenge_ids_carry_96_random_bits_and_private_games_are_listed_nowhere() {
    let ts = start("ids").await;
    let addr = ts.addr();
    let a = guest(addr, "Ana").await;
    let b = guest(addr, "Ben").await;
    let (_, ch) = http(
        addr,
        "POST",
        "/api/challenges",
        Some(&a),
        Some(&json!({"game": "generals"})),
    )
    .await
    .unwrap();
    let id = ch["seek"]["id"].as_str().unwrap().to_string();
    assert!(
        id.len() >= 24 && id.bytes().all(|c| c.is_ascii_hexdigit()),
        "{id}"
    );
    let (_, lobby) = http(addr, "GET", "/api/lobby", None, None).await.unwrap();
    assert!(!lobby.to_string().contains(&id));
    let (st, acc) = http(
        addr,
        "POST",
        &format!("/api/seeks/{id}/accept"),
        Some(&b),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{acc}");
    let game = acc["game"].as_str().unwrap().to_string();
    assert!(
        game.len() >= 24 && game.bytes().all(|c| c.is_ascii_hexdigit()),
        "{game}"
    );
    let (mut ws, _) = join(addr, &game, acc["seat_token"].as_str()).await;
    act(&mut ws, json!({"t": "resign", "game": game})).await;
    for path in ["/api/lobby", "/api/games", "/api/games?status=ended"] {
        let (_, v) = http(addr, "GET", path, None, None).await.unwrap();
        assert!(
            !v.to_string().contains(&game),
            "{path} lists the private game"
        );
    }
    // Distinct ids (no counter, no clock).
    let mut seen = std::collections::HashSet::new();
    for _ in 0..3 {
        let (_, v) = http(
            addr,
            "POST",
            "/api/challenges",
            Some(&b),
            Some(&json!({"game": "banqi"})),
        )
        .await
        .unwrap();
        assert!(seen.insert(v["seek"]["id"].as_str().unwrap().to_string()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_reply_to_a_request_with_an_id_carries_it() {
    let ts = start_cfg("errorids", |c| {
        c.rate_per_s = 1;
        c.burst = 5;
    })
    .await;
    let mut ws = Ws::connect(ts.addr()).await.unwrap();
    // Too large (16 KiB is the limit), binary, then over the rate.
    let big = json!({"v": 1, "t": "chat", "id": "big", "game": "g", "text": "x".repeat(20_000)});
    ws.send(&big).await.unwrap();
    let r = ws.until_with(|v| v["t"] == "error").await.unwrap();
    assert_eq!(
        (
            r["id"].as_str(),
            r["error"].as_str().map(|e| e.contains("too large"))
        ),
        (Some("big"), Some(true)),
        "{r}"
    );
    for i in 0..12 {
        ws.send(&json!({"v": 1, "t": "ping", "id": i}))
            .await
            .unwrap();
    }
    let mut limited = 0;
    for _ in 0..12 {
        let r = ws.recv().await.unwrap();
        assert!(r["id"].is_number(), "an answer without its id: {r}");
        if r["t"] == "error" {
            assert!(r["error"].as_str().unwrap().contains("too many"), "{r}");
            limited += 1;
        }
    }
    assert!(limited >= 6, "{limited}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_frame_over_the_limit_gets_the_error_and_then_the_close() {
    let ts = start("bigframe").await;
    let mut ws = Ws::connect(ts.addr()).await.unwrap();
    ws.send_text("y".repeat(300_000)).await.unwrap();
    let r = ws.recv().await.expect("an error before the close");
    assert_eq!(r["t"], "error", "{r}");
    assert!(r["error"].as_str().unwrap().contains("too large"), "{r}");
    assert!(
        ws.recv_within(Duration::from_secs(3)).await.is_err(),
        "then the connection closes"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_hello_drops_the_first_identitys_notifications() {
    let ts = start("secondhello").await;
    let addr = ts.addr();
    let a = guest(addr, "Ana").await;
    let b = guest(addr, "Ben").await;
    let c = guest(addr, "Cid").await;
    let mut ws = Ws::connect(addr).await.unwrap();
    for t in [&a, &b] {
        ws.send(&json!({"v": 1, "t": "hello", "token": t}))
            .await
            .unwrap();
        ws.until("welcome").await.unwrap();
    }
    // A game for Ana (Cid accepts her seek) and one for Ben (Cid accepts his).
    for t in [&a, &b] {
        let (_, s) = http(
            addr,
            "POST",
            "/api/seeks",
            Some(t),
            Some(&json!({"game": "generals"})),
        )
        .await
        .unwrap();
        let id = s["seek"]["id"].as_str().unwrap();
        let (st, _) = http(
            addr,
            "POST",
            &format!("/api/seeks/{id}/accept"),
            Some(&c),
            None,
        )
        .await
        .unwrap();
        assert_eq!(st, 200);
    }
    ws.send(&json!({"v": 1, "t": "ping"})).await.unwrap();
    ws.until("pong").await.unwrap();
    let seats: Vec<&String> = ws
        .frames
        .iter()
        .filter(|f| f.contains("\"t\":\"seat\""))
        .collect();
    assert_eq!(seats.len(), 1, "only Ben's seat: {seats:?}");
    let (_, me_b) = http(addr, "GET", "/api/me", Some(&b), None).await.unwrap();
    assert!(seats[0].contains(me_b["games"][0]["game"].as_str().unwrap()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_and_answer_carries_the_security_headers() {
    let ts = start("headers").await;
    for path in ["/", "/api/lobby", "/api/nope", "/assets/app.js"] {
        let mut s = TcpStream::connect(ts.addr()).await.unwrap();
        s.write_all(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
        let mut b = Vec::new();
        s.read_to_end(&mut b).await.unwrap();
        let head = String::from_utf8_lossy(&b).to_ascii_lowercase();
        let head = head.split("\r\n\r\n").next().unwrap().to_string();
        for h in [
            "content-security-policy: default-src 'self'",
            "frame-ancestors 'none'",
            "x-content-type-options: nosniff",
            "referrer-policy: no-referrer",
            "x-frame-options: deny",
        ] {
            assert!(head.contains(h), "{path}: no {h:?} in\n{head}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_who_signs_out_everywhere_loses_its_token_seat_tokens_and_connections() {
    let ts = start("signout").await;
    let addr = ts.addr();
    let (game, tokens) = new_game(addr, "generals", Value::Null, Value::Null).await;
    let b = guest(addr, "Bea").await;
    let c = guest(addr, "Cal").await;
    let (g2, [seat_token, _]) =
        game_between(addr, &b, &c, "generals", Value::Null, Value::Null).await;
    let mut hello = Ws::connect(addr).await.unwrap();
    hello
        .send(&json!({"v": 1, "t": "hello", "token": b}))
        .await
        .unwrap();
    hello.until("welcome").await.unwrap();
    // Before: the seat token works.
    let (w, _) = join(addr, &g2, Some(&seat_token)).await;
    w.close().await;
    let (st, _) = http(addr, "POST", "/api/signout", Some(&b), None)
        .await
        .unwrap();
    assert_eq!(st, 200);
    let (st, _) = http(addr, "GET", "/api/me", Some(&b), None).await.unwrap();
    assert_eq!(st, 401, "the guest token is dead");
    let mut ws = Ws::connect(addr).await.unwrap();
    let e = refused(
        &mut ws,
        json!({"t": "join", "game": g2, "seat_token": seat_token}),
    )
    .await;
    assert!(e.contains("not valid"), "the seat token is dead: {e}");
    assert!(
        hello.recv_within(Duration::from_secs(5)).await.is_err(),
        "its connection was closed"
    );
    assert_eq!(
        ts.server.app.metrics.slow_closed.load(Ordering::Relaxed),
        0,
        "a connection closed by a sign-out is not counted as a slow client"
    );
    // Others are untouched.
    let (mut w, _) = join(addr, &game, Some(&tokens[0])).await;
    act(&mut w, json!({"t": "setup", "game": game, "random": true})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_unseen_past_the_expiry_loses_its_token_and_seat_tokens() {
    let ts = start_cfg("guestttl", |c| {
        c.guest_ttl_ms = 60_000;
        c.sweep_ms = 30;
    })
    .await;
    let addr = ts.addr();
    let a = guest(addr, "Ana").await;
    let b = guest(addr, "Ben").await;
    let (game, [ta, _]) = game_between(addr, &a, &b, "generals", Value::Null, Value::Null).await;
    ts.time.advance(50_000);
    // Ben is seen again; Ana is not.
    let (st, _) = http(addr, "GET", "/api/me", Some(&b), None).await.unwrap();
    assert_eq!(st, 200);
    ts.time.advance(20_000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (st, _) = http(addr, "GET", "/api/me", Some(&a), None).await.unwrap();
    assert_eq!(st, 401, "Ana's token expired");
    let (st, _) = http(addr, "GET", "/api/me", Some(&b), None).await.unwrap();
    assert_eq!(st, 200, "Ben's did not");
    let mut ws = Ws::connect(addr).await.unwrap();
    let e = refused(
        &mut ws,
        json!({"t": "join", "game": game, "seat_token": ta}),
    )
    .await;
    assert!(e.contains("not valid"), "{e}");
    // Stored: a server started again on the database does not know Ana's token.
    let again = Server::start("127.0.0.1:0".parse().unwrap(), &ts.db, config(&ts.time))
        .await
        .unwrap();
    let (st, _) = http(again.addr, "GET", "/api/me", Some(&a), None)
        .await
        .unwrap();
    assert_eq!(st, 401);
    again.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_body_sent_a_byte_at_a_time_is_cut_off_by_the_request_timeout() {
    let ts = start_cfg("slowbody", |c| c.request_timeout_ms = 500).await;
    let mut s = TcpStream::connect(ts.addr()).await.unwrap();
    s.write_all(
        b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{",
    )
    .await
    .unwrap();
    let start = std::time::Instant::now();
    let mut answer = Vec::new();
    for _ in 0..40 {
        if s.write_all(b" ").await.is_err() {
            break;
        }
        let mut b = [0u8; 512];
        match tokio::time::timeout(Duration::from_millis(100), s.read(&mut b)).await {
            Ok(Ok(n)) => {
                answer.extend_from_slice(&b[..n]);
                break;
            }
            Ok(Err(_)) => break,
            Err(_) => {}
        }
    }
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "the slow body was still being read after {:?}",
        start.elapsed()
    );
    let text = String::from_utf8_lossy(&answer);
    assert!(text.is_empty() || text.starts_with("HTTP/1.1 4"), "{text}");
}
