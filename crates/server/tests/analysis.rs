//! Analysis for players over the real HTTP API: refused while a game is played, queued
//! then done, kept across a restart, and only each seat's own for a game whose record is
//! never published.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{TestServer, act, config, join, new_game, start};
use salpakan_client::{Ws, http};
use salpakan_server::Server;
use serde_json::{Value, json};

async fn get(addr: SocketAddr, path: &str, token: Option<&str>) -> (u16, Value) {
    http(addr, "GET", path, token, None).await.unwrap()
}

async fn post(addr: SocketAddr, path: &str, token: Option<&str>) -> (u16, Value) {
    http(addr, "POST", path, token, None).await.unwrap()
}

async fn legal(ws: &mut Ws) -> Vec<String> {
    let l = ws.latest("legal").await.unwrap();
    serde_json::from_value(l["moves"].clone()).unwrap()
}

/// A Generals game with random setups, `plies` moves played (the first legal move each
/// time), both seats still joined.
async fn played(ts: &TestServer, options: Value, plies: usize) -> (String, [String; 2], Ws, Ws) {
    let addr = ts.addr();
    let (game, tokens) = new_game(addr, "generals", options, Value::Null).await;
    let (mut w, _) = join(addr, &game, Some(&tokens[0])).await;
    let (mut b, _) = join(addr, &game, Some(&tokens[1])).await;
    act(&mut w, json!({"t": "setup", "game": game, "random": true})).await;
    act(&mut b, json!({"t": "setup", "game": game, "random": true})).await;
    for i in 0..plies {
        let ws = if i % 2 == 0 { &mut w } else { &mut b };
        let mv = legal(ws).await[0].clone();
        act(ws, json!({"t": "move", "game": game, "move": mv})).await;
    }
    (game, tokens, w, b)
}

/// Polls `GET /api/games/{game}/analysis` until it is done.
async fn until_done(addr: SocketAddr, game: &str, token: Option<&str>) -> Value {
    for _ in 0..600 {
        let (st, v) = get(addr, &format!("/api/games/{game}/analysis"), token).await;
        assert_eq!(st, 200, "{v}");
        match v["status"].as_str() {
            Some("done") => return v,
            Some("queued" | "running") => tokio::time::sleep(Duration::from_millis(50)).await,
            _ => panic!("unexpected analysis status: {v}"),
        }
    }
    panic!("the analysis did not finish in 30 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_is_refused_until_the_game_ends_then_queued_done_and_kept_across_a_restart() {
    let ts = start("analysis").await;
    let addr = ts.addr();
    let (game, tokens, mut w, _b) = played(&ts, Value::Null, 6).await;
    let path = format!("/api/games/{game}/analysis");
    let (st, v) = post(addr, &path, None).await;
    assert_eq!(st, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("not over yet"), "{v}");
    let (st, _) = get(addr, &path, Some(&tokens[0])).await;
    assert_eq!(st, 409);

    act(&mut w, json!({"t": "resign", "game": game})).await;
    let (st, v) = get(addr, &path, None).await;
    assert_eq!((st, v["status"].as_str()), (200, Some("none")), "{v}");
    let (st, v) = post(addr, &path, None).await;
    assert_eq!(st, 202, "{v}");
    assert!(
        matches!(v["status"].as_str(), Some("queued" | "running")),
        "{v}"
    );
    let done = until_done(addr, &game, None).await;
    let a = &done["analysis"];
    assert_eq!(a["game"], "generals");
    assert_eq!(a["plies"], 6);
    assert_eq!(a["samples"], 64);
    let seats = a["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2, "a public game's analysis has both seats");
    assert_eq!(seats[0]["seat"], "white");
    assert_eq!(seats[1]["seat"], "black");
    assert_eq!(seats[0]["win"].as_array().unwrap().len(), 7);
    assert_eq!(seats[0]["result"], 0.0, "White resigned");
    assert_eq!(seats[0]["hidden"][0].as_array().unwrap().len(), 21);
    // Asking again answers with the stored analysis.
    let (st, again) = post(addr, &path, None).await;
    assert_eq!((st, &again), (200, &done));

    // A restarted server still has it.
    ts.server.stop();
    let restarted = Server::start("127.0.0.1:0".parse().unwrap(), &ts.db, config(&ts.time))
        .await
        .unwrap();
    let (st, after) = get(restarted.addr, &path, None).await;
    assert_eq!(st, 200);
    assert_eq!(after, done);
    restarted.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_reveal_at_end_shows_each_player_only_its_own_seats_analysis() {
    let ts = start("analysis-private").await;
    let addr = ts.addr();
    let (game, tokens, _w, mut b) = played(&ts, json!({"reveal_at_end": false}), 4).await;
    act(&mut b, json!({"t": "resign", "game": game})).await;
    let path = format!("/api/games/{game}/analysis");
    let (st, v) = post(addr, &path, None).await;
    assert_eq!(st, 403, "{v}");
    assert!(v["error"].as_str().unwrap().contains("seat token"), "{v}");
    let (st, v) = get(addr, &path, None).await;
    assert_eq!(st, 403, "{v}");
    let (st, v) = post(addr, &path, Some(&tokens[1])).await;
    assert_eq!(st, 202, "{v}");
    let black = until_done(addr, &game, Some(&tokens[1])).await;
    let seats = black["analysis"]["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 1);
    assert_eq!(seats[0]["seat"], "black");
    assert_eq!(seats[0]["result"], 0.0, "Black resigned");
    let white = until_done(addr, &game, Some(&tokens[0])).await;
    let seats = white["analysis"]["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 1);
    assert_eq!(seats[0]["seat"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_of_an_unknown_game_is_not_found() {
    let ts = start("analysis-unknown").await;
    let (st, v) = post(ts.addr(), "/api/games/nosuchgame/analysis", None).await;
    assert_eq!(st, 404, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_ended_before_its_first_move_has_nothing_to_analyse() {
    let ts = start("analysis-setup").await;
    let addr = ts.addr();
    let (game, tokens) = new_game(addr, "generals", Value::Null, Value::Null).await;
    let (mut w, _) = join(addr, &game, Some(&tokens[0])).await;
    act(&mut w, json!({"t": "resign", "game": game})).await;
    let (st, v) = post(addr, &format!("/api/games/{game}/analysis"), None).await;
    assert_eq!(st, 409, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("before its first move"),
        "{v}"
    );
}
