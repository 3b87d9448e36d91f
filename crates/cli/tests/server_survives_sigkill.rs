//! Every accepted move is durable before anyone hears of it: kill the real `salpakan serve`
//! with SIGKILL mid-game, restart it on the same database, and every game, version, clock,
//! guest and seat token is where it was.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

use salpakan_client::{Ws, http};
use serde_json::{Value, json};

fn serve(db: &std::path::Path) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_salpakan"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .env("SALPAKAN_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("salpakan serve starts");
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut line).unwrap();
    // Keep reading what the server prints, as a terminal would.
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    let addr = url.trim_start_matches("http://").parse().unwrap();
    (child, addr)
}

async fn joined(addr: SocketAddr, game: &str, token: &str) -> (Ws, Value) {
    let mut ws = Ws::connect(addr).await.unwrap();
    ws.send(&json!({"v": 1, "t": "join", "game": game, "seat_token": token}))
        .await
        .unwrap();
    assert_eq!(ws.recv().await.unwrap()["t"], "joined");
    let sync = ws.until("sync").await.unwrap();
    (ws, sync)
}

async fn ack(ws: &mut Ws, mut m: Value) -> Value {
    m["v"] = 1.into();
    m["id"] = "x".into();
    ws.send(&m).await.unwrap();
    let a = ws.until_with(|v| v["id"] == "x").await.unwrap();
    assert_eq!(a["t"], "ack", "{m} → {a}");
    a
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_survives_sigkill_with_its_versions_clocks_and_tokens() {
    let dir = std::env::temp_dir().join(format!("salpakan-sigkill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("server.db");
    let (mut child, addr) = serve(&db);

    let guest = |name: &'static str| async move {
        let (st, g) = http(
            addr,
            "POST",
            "/api/guest",
            None,
            Some(&json!({"name": name})),
        )
        .await
        .unwrap();
        assert_eq!(st, 200);
        g["token"].as_str().unwrap().to_string()
    };
    let (ana, ben) = (guest("Ana").await, guest("Ben").await);
    let (_, seek) = http(
        addr,
        "POST",
        "/api/seeks",
        Some(&ana),
        Some(&json!({"game": "generals", "seat": "white", "clock": {"base": 600, "inc": 5}})),
    )
    .await
    .unwrap();
    let id = seek["seek"]["id"].as_str().unwrap();
    let (_, acc) = http(
        addr,
        "POST",
        &format!("/api/seeks/{id}/accept"),
        Some(&ben),
        None,
    )
    .await
    .unwrap();
    let game = acc["game"].as_str().unwrap().to_string();
    let (_, seat) = http(
        addr,
        "GET",
        &format!("/api/games/{game}/seat"),
        Some(&ana),
        None,
    )
    .await
    .unwrap();
    let tokens = [
        seat["seat_token"].as_str().unwrap().to_string(),
        acc["seat_token"].as_str().unwrap().to_string(),
    ];

    let (mut w, _) = joined(addr, &game, &tokens[0]).await;
    let (mut b, _) = joined(addr, &game, &tokens[1]).await;
    ack(&mut w, json!({"t": "setup", "game": game, "random": true})).await;
    ack(&mut b, json!({"t": "setup", "game": game, "random": true})).await;
    let mut last = 0;
    let mut last_clocks = Value::Null;
    for ply in 0..7 {
        let ws = if ply % 2 == 0 { &mut w } else { &mut b };
        let legal = ws.latest("legal").await.unwrap();
        let mv = legal["moves"][0].clone();
        let a = ack(ws, json!({"t": "move", "game": game, "move": mv})).await;
        last = a["ver"].as_u64().unwrap();
        let e = ws
            .until_with(|v| v["t"] == "event" && v["ver"] == last)
            .await
            .unwrap();
        last_clocks = e["e"]["clocks"].clone();
    }
    ack(
        &mut b,
        json!({"t": "chat", "game": game, "text": "before the crash"}),
    )
    .await;
    let before = joined(addr, &game, &tokens[1]).await.1;
    let ver = before["ver"].as_u64().unwrap();
    assert_eq!(ver, last + 1);

    // SIGKILL: no shutdown code runs.
    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, addr) = serve(&db);

    // The guest token still works and still knows its game.
    let (st, me) = http(addr, "GET", "/api/me", Some(&ana), None)
        .await
        .unwrap();
    assert_eq!(st, 200, "{me}");
    assert_eq!(me["games"][0]["game"], game.as_str());
    // The seat tokens still work; the same version, history, observation and clocks.
    let (mut b, after) = joined(addr, &game, &tokens[1]).await;
    assert_eq!(after["ver"], ver);
    for k in [
        "history",
        "observation",
        "players",
        "commitments",
        "to_move",
        "your_setup",
    ] {
        assert_eq!(
            after["state"][k], before["state"][k],
            "{k} changed across the restart"
        );
    }
    let running = last_clocks["running"].as_str().unwrap();
    let waiting = if running == "white" { "black" } else { "white" };
    assert_eq!(after["state"]["clocks"][waiting], last_clocks[waiting]);
    let stored = last_clocks[running].as_u64().unwrap();
    let now = after["state"]["clocks"][running].as_u64().unwrap();
    assert!(
        now <= stored && stored - now < 3_000,
        "running clock {stored} → {now}"
    );
    // Missed nothing: a client catching up from a version before the restart gets the full
    // current view at the stored version (events sent before a restart are not kept).
    let mut c = Ws::connect(addr).await.unwrap();
    c.send(&json!({"v": 1, "t": "join", "game": game, "since": ver - 2}))
        .await
        .unwrap();
    c.recv().await.unwrap();
    let caught_up = c.recv().await.unwrap();
    assert_eq!(caught_up["t"], "sync");
    assert_eq!(caught_up["ver"], ver);
    assert_eq!(
        caught_up["state"]["history"].as_array().map(Vec::len),
        after["state"]["history"].as_array().map(Vec::len)
    );
    // And play goes on from the next version.
    let (mut w, _) = joined(addr, &game, &tokens[0]).await;
    let ws = if after["state"]["to_move"] == "white" {
        &mut w
    } else {
        &mut b
    };
    let legal = ws.latest("legal").await.unwrap();
    let a = ack(
        ws,
        json!({"t": "move", "game": game, "move": legal["moves"][0]}),
    )
    .await;
    assert_eq!(a["ver"], ver + 1);

    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_keeps_serving_when_its_output_is_closed() {
    let dir = std::env::temp_dir().join(format!("salpakan-stdout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_salpakan"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.join("server.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("salpakan serve starts");
    let mut line = String::new();
    // Read the first line, then close the pipe, as a supervisor that stops reading would.
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: SocketAddr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap()
        .parse()
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (status, _) = http(
        addr,
        "POST",
        "/api/guest",
        None,
        Some(&json!({"name": "Ana"})),
    )
    .await
    .expect("the server still answers");
    assert_eq!(status, 200);
    assert!(
        child.try_wait().unwrap().is_none(),
        "the server is still running"
    );
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
