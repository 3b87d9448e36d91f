//! What the web client needs beyond play: setups for the editor, the creator's id on seeks,
//! the chat in a player's sync (never a spectator's), and the list of finished games.

mod common;

use common::*;
use salpakan_client::http;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn setups_for_the_editor_seek_ids_chat_in_sync_and_finished_games() {
    let ts = start("webapi").await;
    let addr = ts.addr();

    // a random and a bot's setup for one seat; none for Banqi
    let barrage = "%7B%22army%22%3A%22barrage%22%7D";
    for bot in ["", "&bot=greedy"] {
        let (st, v) = http(
            addr,
            "GET",
            &format!("/api/setup?game=stratego&options={barrage}&seat=red{bot}"),
            None,
            None,
        )
        .await
        .unwrap();
        assert_eq!(st, 200, "{v}");
        assert_eq!(v["seat"], "red");
        assert_eq!(v["setup"].as_object().unwrap().len(), 8, "{v}");
    }
    let (st, _) = http(addr, "GET", "/api/setup?game=banqi&seat=first", None, None)
        .await
        .unwrap();
    assert_eq!(st, 400);

    // a seek names its creator's id
    let ana = guest(addr, "Ana").await;
    let (_, me) = http(addr, "GET", "/api/me", Some(&ana), None)
        .await
        .unwrap();
    let (st, seek) = http(
        addr,
        "POST",
        "/api/seeks",
        Some(&ana),
        Some(&json!({"game": "generals"})),
    )
    .await
    .unwrap();
    assert_eq!(st, 200);
    assert_eq!(seek["seek"]["by_id"], me["id"]);

    // chat comes back in a player's sync, not a spectator's
    let (game, tokens) = new_game(addr, "generals", Value::Null, Value::Null).await;
    let (mut w, _) = join(addr, &game, Some(&tokens[0])).await;
    act(&mut w, json!({"t": "chat", "game": game, "text": "hello"})).await;
    let (_, sync) = join(addr, &game, Some(&tokens[1])).await;
    assert_eq!(sync["state"]["chat"][0]["text"], "hello", "{sync}");
    assert_eq!(sync["state"]["chat"][0]["seat"], "white");
    let (_, spec) = join(addr, &game, None).await;
    assert!(spec["state"].get("chat").is_none(), "{spec}");
    assert!(!spec.to_string().contains("hello"));

    // once over, the game is listed among the finished ones
    let (_, before) = http(addr, "GET", "/api/games?status=ended", None, None)
        .await
        .unwrap();
    assert_eq!(before["games"].as_array().unwrap().len(), 0);
    act(&mut w, json!({"t": "resign", "game": game})).await;
    let (st, after) = http(addr, "GET", "/api/games?status=ended", None, None)
        .await
        .unwrap();
    assert_eq!(st, 200);
    let g = &after["games"][0];
    assert_eq!(g["game"], game.as_str());
    assert_eq!(g["status"], "ended");
    assert_eq!(g["result"]["winner"], "black");
    assert_eq!(g["players"]["white"]["name"], "Ana");
    let (st, _) = http(addr, "GET", "/api/games?status=nonsense", None, None)
        .await
        .unwrap();
    assert_eq!(st, 400);
}
