//! A bot game whose human player is gone ends (issue 15): a player who opens games against
//! bots and leaves them must not keep them, and their bots' work, alive for ever.
//!
//! It also pins down a race: when the player's connection closed while the bot's move was
//! on its way to it, the game dropped the player's subscription without counting the seat
//! away, so the spectator never heard `presence` (about one run in twenty; found with this
//! test, fixed in `game/outbox.rs`'s `drop_closed`).

mod common;

use std::sync::Arc;

use common::*;
use salpakan_client::{Ws, http};
use salpakan_server::{Config, ManualTime};
use serde_json::{Value, json};

async fn start_cfg(name: &str, f: impl FnOnce(&mut Config)) -> TestServer {
    let time = Arc::new(ManualTime::default());
    let mut c = config(&time);
    f(&mut c);
    start_with(name, c, time).await
}

async fn event(ws: &mut Ws, ty: &str) -> Value {
    ws.until_with(|v| v["t"] == "event" && v["e"]["type"] == ty)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_game_whose_player_is_gone_ends() {
    let ts = start_cfg("botaway", |c| c.bot_game_away_ms = 300_000).await;
    let t = guest(ts.addr(), "Ana").await;
    let (_, v) = http(
        ts.addr(),
        "POST",
        "/api/bot-games",
        Some(&t),
        Some(&json!({"game": "generals", "bot": "random", "seat": "black"})),
    )
    .await
    .unwrap();
    let game = v["game"].as_str().unwrap().to_string();
    let (mut ws, _) = join(ts.addr(), &game, v["seat_token"].as_str()).await;
    act(&mut ws, json!({"t": "setup", "game": game, "random": true})).await;
    event(&mut ws, "start").await;
    let (mut spec, _) = join(ts.addr(), &game, None).await;
    ws.close().await;
    spec.until_with(|v| v["t"] == "presence" && v["online"] == false)
        .await
        .unwrap();
    ts.time.advance(299_000);
    let (_, sync) = join(ts.addr(), &game, None).await;
    assert_eq!(sync["state"]["status"], "playing");
    ts.time.advance(2_000);
    // The game looks at its deadlines when anything reaches it (here a spectator).
    let (_, sync) = join(ts.addr(), &game, None).await;
    assert_eq!(sync["state"]["status"], "ended", "{sync}");
    assert_eq!(
        sync["state"]["result"],
        json!({"winner": "white", "reason": "abandonment"})
    );
}
