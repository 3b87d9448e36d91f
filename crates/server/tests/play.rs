//! Playing on the server: clocks, reconnection, abandonment, draws, resignation, rematch,
//! chat, records, and games against a bot.

mod common;

use std::sync::Arc;

use common::*;
use salpakan_client::{Ws, http};
use salpakan_server::{Config, ManualTime};
use serde_json::{Value, json};

async fn event(ws: &mut Ws, ty: &str) -> Value {
    ws.until_with(|v| v["t"] == "event" && v["e"]["type"] == ty)
        .await
        .unwrap()
}

async fn legal(ws: &mut Ws) -> Vec<String> {
    let l = ws.latest("legal").await.unwrap();
    serde_json::from_value(l["moves"].clone()).unwrap()
}

/// A started Generals game (random setups) with both players joined.
async fn started(ts: &TestServer, clock: Value) -> (String, [String; 2], Ws, Ws) {
    let addr = ts.addr();
    let (game, tokens) = new_game(addr, "generals", Value::Null, clock).await;
    let (mut w, _) = join(addr, &game, Some(&tokens[0])).await;
    let (mut b, _) = join(addr, &game, Some(&tokens[1])).await;
    act(&mut w, json!({"t": "setup", "game": game, "random": true})).await;
    act(&mut b, json!({"t": "setup", "game": game, "bot": "greedy"})).await;
    event(&mut w, "start").await;
    event(&mut b, "start").await;
    (game, tokens, w, b)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_charge_the_mover_add_the_increment_and_flag_falls_on_the_server() {
    let ts = start("clocks").await;
    let (game, _, mut w, mut b) = started(&ts, json!({"base": 60, "inc": 2})).await;
    let mv = legal(&mut w).await[0].clone();
    ts.time.advance(4_000);
    act(&mut w, json!({"t": "move", "game": game, "move": mv})).await;
    let e = event(&mut b, "move").await;
    assert_eq!(
        e["e"]["clocks"],
        json!({"white": 58_000, "black": 60_000, "running": "black"})
    );
    ts.time.advance(60_000);
    // Any message to the game makes it look at the clock: Black's time is up.
    let err = refused(&mut b, json!({"t": "move", "game": game, "move": "a6-a5"})).await;
    assert!(err.contains("over"), "{err}");
    let end = event(&mut w, "end").await;
    assert_eq!(
        end["e"]["result"],
        json!({"winner": "white", "reason": "time"})
    );
    assert_eq!(end["e"]["clocks"]["black"], 0);
    assert!(end["e"]["reveal"]["salts"]["WhiteSetup"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnecting_client_gets_the_missed_events_or_the_full_view() {
    let ts = start("reconnect").await;
    let addr = ts.addr();
    let (game, tokens, mut w, mut b) = started(&ts, Value::Null).await;
    let mv = legal(&mut w).await[0].clone();
    let a = act(&mut w, json!({"t": "move", "game": game, "move": mv})).await;
    let seen = a["ver"].as_u64().unwrap();
    w.close().await;
    let mv = legal(&mut b).await[0].clone();
    act(&mut b, json!({"t": "move", "game": game, "move": mv})).await;
    let last = act(
        &mut b,
        json!({"t": "chat", "game": game, "text": "still there?"}),
    )
    .await;
    let last = last["ver"].as_u64().unwrap();

    // With the last version seen: exactly the missed events, in order, then the legal moves.
    let mut w = Ws::connect(addr).await.unwrap();
    w.send(&json!({"v": 1, "t": "join", "game": game, "seat_token": tokens[0], "since": seen}))
        .await
        .unwrap();
    assert_eq!(w.recv().await.unwrap()["t"], "joined");
    for ver in seen + 1..=last {
        let f = w.recv().await.unwrap();
        assert_eq!(
            (f["t"].as_str(), f["ver"].as_u64()),
            (Some("event"), Some(ver)),
            "{f}"
        );
    }
    let l = w.recv().await.unwrap();
    assert_eq!(
        (l["t"].as_str(), l["ver"].as_u64()),
        (Some("legal"), Some(last))
    );

    // Without it (or from the future): the full current view.
    let (_, sync) = join(addr, &game, Some(&tokens[0])).await;
    assert_eq!(sync["ver"], last);
    assert_eq!(sync["state"]["history"].as_array().unwrap().len(), 2);
    assert_eq!(sync["state"]["seat"], "white");
    let mut x = Ws::connect(addr).await.unwrap();
    x.send(&json!({"v": 1, "t": "join", "game": game, "since": last + 50}))
        .await
        .unwrap();
    x.recv().await.unwrap();
    assert_eq!(x.recv().await.unwrap()["t"], "sync");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_missed_more_than_the_kept_events_gets_the_full_view() {
    let time = Arc::new(ManualTime::default());
    // Chat makes the events here: its per-player limit is lifted.
    let config = Config {
        rate_per_s: 10_000,
        burst: 10_000,
        chat_per_minute: 1_000_000,
        chat_burst: 1_000,
        chat_keep: 300,
        ..config(&time)
    };
    let ts = start_with("keptevents", config, time).await;
    let addr = ts.addr();
    let (game, tokens, mut w, _b) = started(&ts, Value::Null).await;
    let first = act(&mut w, json!({"t": "chat", "game": game, "text": "0"})).await;
    let first = first["ver"].as_u64().unwrap();
    let mut last = first;
    for i in 1..300 {
        let a = act(
            &mut w,
            json!({"t": "chat", "game": game, "text": i.to_string()}),
        )
        .await;
        last = a["ver"].as_u64().unwrap();
    }
    assert_eq!(last, first + 299);
    // 256 events are kept: from `last - 256` the client gets them one by one...
    let mut c = Ws::connect(addr).await.unwrap();
    c.send(
        &json!({"v": 1, "t": "join", "game": game, "seat_token": tokens[1], "since": last - 256}),
    )
    .await
    .unwrap();
    assert_eq!(c.recv().await.unwrap()["t"], "joined");
    let f = c.recv().await.unwrap();
    assert_eq!(
        (f["t"].as_str(), f["ver"].as_u64()),
        (Some("event"), Some(last - 255))
    );
    // ...from one version earlier, the full current view.
    let mut c = Ws::connect(addr).await.unwrap();
    c.send(
        &json!({"v": 1, "t": "join", "game": game, "seat_token": tokens[1], "since": last - 257}),
    )
    .await
    .unwrap();
    assert_eq!(c.recv().await.unwrap()["t"], "joined");
    let f = c.recv().await.unwrap();
    assert_eq!(
        (f["t"].as_str(), f["ver"].as_u64()),
        (Some("sync"), Some(last))
    );
    assert_eq!(f["state"]["chat"].as_array().unwrap().len(), 300);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_catch_up_over_moves_made_while_someone_watched_and_get_a_sync_otherwise() {
    let ts = start("spectators").await;
    let addr = ts.addr();
    let (game, _, mut w, mut b) = started(&ts, Value::Null).await;
    // Nobody watches this move: spectators' views of it are not kept.
    let mv = legal(&mut w).await[0].clone();
    act(&mut w, json!({"t": "move", "game": game, "move": mv})).await;
    let (_watcher, sync) = join(addr, &game, None).await;
    let seen = sync["ver"].as_u64().unwrap();
    let mut z = Ws::connect(addr).await.unwrap();
    z.send(&json!({"v": 1, "t": "join", "game": game, "since": seen - 1}))
        .await
        .unwrap();
    assert_eq!(z.recv().await.unwrap()["t"], "joined");
    assert_eq!(z.recv().await.unwrap()["t"], "sync");
    // While someone watches, they are kept: a spectator back from `seen` gets each event.
    let mv = legal(&mut b).await[0].clone();
    let a = act(&mut b, json!({"t": "move", "game": game, "move": mv})).await;
    let last = a["ver"].as_u64().unwrap();
    let mut z = Ws::connect(addr).await.unwrap();
    z.send(&json!({"v": 1, "t": "join", "game": game, "since": seen}))
        .await
        .unwrap();
    assert_eq!(z.recv().await.unwrap()["t"], "joined");
    for ver in seen + 1..=last {
        let f = z.recv().await.unwrap();
        assert_eq!(
            (f["t"].as_str(), f["ver"].as_u64()),
            (Some("event"), Some(ver)),
            "{f}"
        );
        if f["e"]["type"] == "move" {
            assert_eq!(f["e"]["observation"]["viewer"], "spectator");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_away_past_the_grace_period_loses_on_the_opponents_claim() {
    let time = Arc::new(ManualTime::default());
    let config = Config {
        grace_ms: 30_000,
        ..config(&time)
    };
    let ts = start_with("claim", config, time).await;
    let (game, _, w, mut b) = started(&ts, Value::Null).await;
    let err = refused(&mut b, json!({"t": "claim", "game": game})).await;
    assert!(err.contains("connected"), "{err}");
    w.close().await;
    b.until_with(|v| v["t"] == "presence" && v["online"] == false)
        .await
        .unwrap();
    ts.time.advance(10_000);
    let err = refused(&mut b, json!({"t": "claim", "game": game})).await;
    assert!(err.contains("after 30 s"), "{err}");
    ts.time.advance(20_000);
    act(&mut b, json!({"t": "claim", "game": game})).await;
    let end = event(&mut b, "end").await;
    assert_eq!(
        end["e"]["result"],
        json!({"winner": "black", "reason": "abandonment"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_during_setup_loses_after_the_grace_period() {
    let time = Arc::new(ManualTime::default());
    let config = Config {
        setup_grace_ms: 60_000,
        ..config(&time)
    };
    let ts = start_with("setupleave", config, time).await;
    let (game, tokens) = new_game(ts.addr(), "stratego", Value::Null, Value::Null).await;
    let (mut red, _) = join(ts.addr(), &game, Some(&tokens[0])).await;
    act(
        &mut red,
        json!({"t": "setup", "game": game, "random": true}),
    )
    .await;
    ts.time.advance(61_000);
    act(
        &mut red,
        json!({"t": "chat", "game": game, "text": "hello?"}),
    )
    .await;
    let end = event(&mut red, "end").await;
    assert_eq!(
        end["e"]["result"],
        json!({"winner": "red", "reason": "abandonment"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draws_resignation_rematch_chat_and_records() {
    let ts = start("social").await;
    let addr = ts.addr();
    let (game, tokens, mut w, mut b) = started(&ts, json!({"base": 300, "inc": 0})).await;
    // Chat reaches the opponent.
    act(
        &mut w,
        json!({"t": "chat", "game": game, "text": "good luck"}),
    )
    .await;
    let c = event(&mut b, "chat").await;
    assert_eq!(c["e"]["text"], "good luck");
    // A seat's own record copy at any time; the full record only after the end.
    let path = format!("/api/games/{game}/record");
    let (st, own) = http(addr, "GET", &path, Some(&tokens[1]), None)
        .await
        .unwrap();
    assert_eq!(st, 200);
    let own = own.as_str().unwrap();
    assert!(
        own.contains("[Copy \"black\"]") && own.contains("[BlackSetup "),
        "{own}"
    );
    assert!(!own.contains("[WhiteSetup "), "{own}");
    let (st, _) = http(addr, "GET", &path, None, None).await.unwrap();
    assert_eq!(st, 403);
    // Draw offered, declined, offered again and accepted.
    act(&mut w, json!({"t": "draw_offer", "game": game})).await;
    event(&mut b, "draw_offer").await;
    let err = refused(&mut w, json!({"t": "draw_accept", "game": game})).await;
    assert!(err.contains("no draw offer"), "{err}");
    act(&mut b, json!({"t": "draw_decline", "game": game})).await;
    act(&mut b, json!({"t": "draw_offer", "game": game})).await;
    act(&mut w, json!({"t": "draw_accept", "game": game})).await;
    let end = event(&mut b, "end").await;
    assert_eq!(
        end["e"]["result"],
        json!({"winner": null, "reason": "agreement"})
    );
    let (st, full) = http(addr, "GET", &path, None, None).await.unwrap();
    assert_eq!(st, 200);
    let full = full.as_str().unwrap();
    assert!(
        full.contains("[WhiteSetupSalt ") && full.contains("[BlackSetup "),
        "{full}"
    );
    // A live game's seed is 256 bits from the OS (64 hex digits), revealed only at the end.
    let seed = full
        .lines()
        .find_map(|l| l.strip_prefix("[Seed \""))
        .and_then(|l| l.strip_suffix("\"]"))
        .unwrap_or_else(|| panic!("no Seed tag in {full}"));
    assert!(
        seed.len() == 64 && seed.bytes().all(|b| b.is_ascii_hexdigit()),
        "{seed}"
    );
    assert!(!own.contains("[Seed "), "{own}");
    // Rematch: seats swap, each player gets the new seat token.
    act(&mut b, json!({"t": "rematch", "game": game})).await;
    act(&mut w, json!({"t": "rematch", "game": game})).await;
    let r = event(&mut w, "rematch").await;
    let new = r["e"]["game"].as_str().unwrap().to_string();
    let seat = w.until("seat").await.unwrap();
    assert_eq!(
        (seat["game"].as_str(), seat["seat"].as_str()),
        (Some(new.as_str()), Some("black"))
    );
    let bseat = b.until("seat").await.unwrap();
    assert_eq!(bseat["seat"], "white");
    let (mut w2, sync) = join(addr, &new, seat["seat_token"].as_str()).await;
    assert_eq!(sync["state"]["seat"], "black");
    assert_eq!(sync["state"]["players"]["black"]["name"], "Ana");
    act(&mut w2, json!({"t": "resign", "game": new})).await;
    let end = event(&mut w2, "end").await;
    assert_eq!(
        end["e"]["result"],
        json!({"winner": "white", "reason": "resignation"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_sets_up_and_answers_every_move() {
    let ts = start("bot").await;
    let addr = ts.addr();
    let me = guest(addr, "Cy").await;
    let (st, lobby) = http(addr, "GET", "/api/lobby", None, None).await.unwrap();
    assert_eq!(st, 200);
    let bots: Vec<String> = serde_json::from_value(lobby["bots"].clone()).unwrap();
    assert!(bots.contains(&"greedy".to_string()) && bots.iter().any(|b| b.starts_with("mcts")));
    for (game, bot) in [("generals", "greedy"), ("banqi", "mcts:ms=20")] {
        let (st, g) = http(
            addr,
            "POST",
            "/api/bot-games",
            Some(&me),
            Some(&json!({"game": game, "bot": bot, "seat": if game == "banqi" { "first" } else { "white" }})),
        )
        .await
        .unwrap();
        assert_eq!(st, 200, "{g}");
        let id = g["game"].as_str().unwrap();
        let (mut ws, _) = join(addr, id, g["seat_token"].as_str()).await;
        if game == "generals" {
            act(&mut ws, json!({"t": "setup", "game": id, "random": true})).await;
        }
        for _ in 0..3 {
            let mv = legal(&mut ws).await[0].clone();
            act(&mut ws, json!({"t": "move", "game": id, "move": mv})).await;
            let reply = event(&mut ws, "move").await;
            assert_eq!(
                reply["e"]["view"]["seat"],
                if game == "banqi" { "first" } else { "white" }
            );
            let reply = event(&mut ws, "move").await;
            assert_eq!(
                reply["e"]["view"]["seat"],
                if game == "banqi" { "second" } else { "black" },
                "{reply}"
            );
        }
    }
    let (st, e) = http(
        addr,
        "POST",
        "/api/bot-games",
        Some(&me),
        Some(&json!({"game": "generals", "bot": "cmd:\"rm -rf /\""})),
    )
    .await
    .unwrap();
    assert_eq!(st, 400, "{e}");
}

/// The frames of `ws` that are events, by version (raw text, as received).
fn event_frames(ws: &Ws) -> std::collections::BTreeMap<u64, String> {
    ws.frames
        .iter()
        .filter_map(|t| {
            let v: Value = serde_json::from_str(t).ok()?;
            (v["t"] == "event").then(|| (v["ver"].as_u64().unwrap(), t.clone()))
        })
        .collect()
}

/// Catching up after `since`, a new connection as `token` (a seat) or a spectator (none)
/// gets exactly these frames before its `legal` (raw text).
async fn caught_up(
    addr: std::net::SocketAddr,
    game: &str,
    token: Option<&str>,
    since: u64,
    last: u64,
) -> Vec<String> {
    let mut c = Ws::connect(addr).await.unwrap();
    let mut join = json!({"v": 1, "t": "join", "game": game, "since": since});
    if let Some(t) = token {
        join["seat_token"] = json!(t);
    }
    c.send(&join).await.unwrap();
    assert_eq!(c.recv().await.unwrap()["t"], "joined");
    let mut got = Vec::new();
    for _ in since..last {
        let f = c.recv().await.unwrap();
        assert_eq!(f["t"], "event", "a catch-up sends each missed event: {f}");
        got.push(c.frames.last().unwrap().clone());
    }
    got
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_catching_up_gets_each_missed_event_byte_for_byte_as_it_was_sent() {
    // Moves are not kept as sent but written again from the match when a client catches
    // up: what it gets must be exactly what it would have got live, in every game, for a
    // seat and for a spectator, up to and past the move that ends the game.
    let time = Arc::new(ManualTime::default());
    let config = Config {
        rate_per_s: 10_000,
        burst: 10_000,
        ..config(&time)
    };
    let ts = start_with("catchup", config, time).await;
    let addr = ts.addr();
    for (kind, options, plies) in [
        // At most 200 plies: a game keeps its last 256 events.
        ("generals", Value::Null, 200),
        ("stratego", json!({"army": "barrage"}), 200),
        ("banqi", Value::Null, 200),
    ] {
        let (game, tokens) = new_game(addr, kind, options, Value::Null).await;
        let (mut a, synced) = join(addr, &game, Some(&tokens[0])).await;
        let (mut b, _) = join(addr, &game, Some(&tokens[1])).await;
        let (mut watcher, sync) = join(addr, &game, None).await;
        let since = sync["ver"].as_u64().unwrap();
        let first = synced["state"]["seat"].clone();
        let mut to_move = if kind == "banqi" {
            // Dealt at once: the game was under way before anyone joined.
            synced["state"]["to_move"].clone()
        } else {
            act(&mut a, json!({"t": "setup", "game": game, "random": true})).await;
            act(&mut b, json!({"t": "setup", "game": game, "random": true})).await;
            event(&mut b, "start").await;
            event(&mut a, "start").await["e"]["to_move"].clone()
        };
        let mut ply = 0;
        while let (Some(name), true) = (to_move.as_str(), ply < plies) {
            let seat = if name == first { 0 } else { 1 };
            let ws = if seat == 0 { &mut a } else { &mut b };
            let mv = legal(ws).await[0].clone();
            act(ws, json!({"t": "move", "game": game, "move": mv})).await;
            let e = event(&mut a, "move").await;
            event(&mut b, "move").await;
            event(&mut watcher, "move").await;
            to_move = e["e"]["to_move"].clone();
            ply += 1;
        }
        if to_move.is_null() {
            event(&mut a, "end").await;
            event(&mut watcher, "end").await;
        } else {
            act(&mut a, json!({"t": "resign", "game": game})).await;
            event(&mut a, "end").await;
            event(&mut watcher, "end").await;
        }
        assert!(ply > 10, "{kind}: only {ply} plies were played");
        let live_a = event_frames(&a);
        let live_w = event_frames(&watcher);
        let last = *live_a.keys().last().unwrap();
        // From the start and from the middle of the game.
        for from in [since, since + (last - since) / 2] {
            let got = caught_up(addr, &game, Some(&tokens[0]), from, last).await;
            let want: Vec<String> = live_a.range(from + 1..).map(|(_, t)| t.clone()).collect();
            assert_eq!(got, want, "{kind}: a seat catching up from version {from}");
            let got = caught_up(addr, &game, None, from, last).await;
            let want: Vec<String> = live_w.range(from + 1..).map(|(_, t)| t.clone()).collect();
            assert_eq!(
                got, want,
                "{kind}: a spectator catching up from version {from}"
            );
        }
    }
}
