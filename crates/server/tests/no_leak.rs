//! Nothing hidden leaks over the WebSocket: two games that differ only in two enemy pieces
//! a player never sees give that player, and spectators, byte-identical frames (after the
//! game id and the commitments — which differ by design — are masked).

mod common;

use common::*;
use salpakan_engine::{GameKind, Seat};
use serde_json::{Value, json};

/// Forward moves from `from_rank` to `to_rank` in distinct files, from the legal moves.
fn forward(legal: &[String], from_rank: char, to_rank: char, n: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in legal {
        let b = m.as_bytes();
        if b.len() == 5
            && b[1] as char == from_rank
            && b[4] as char == to_rank
            && b[0] == b[3]
            && !out.iter().any(|o| o.as_bytes()[0] == b[0])
        {
            out.push(m.clone());
        }
    }
    out.truncate(n);
    out
}

async fn play_twin(
    ts: &TestServer,
    white_setup: &Value,
    black_setup: &Value,
) -> (Vec<String>, Vec<String>) {
    let addr = ts.addr();
    let (game, tokens) = new_game(
        addr,
        "generals",
        Value::Null,
        json!({"base": 300, "inc": 5}),
    )
    .await;
    let (mut spec, _) = join(addr, &game, None).await;
    let (mut w, _) = join(addr, &game, Some(&tokens[0])).await;
    let (mut b, _) = join(addr, &game, Some(&tokens[1])).await;
    act(
        &mut w,
        json!({"t": "setup", "game": game, "setup": white_setup}),
    )
    .await;
    act(
        &mut b,
        json!({"t": "setup", "game": game, "setup": black_setup}),
    )
    .await;
    let legal = w.until("legal").await.unwrap();
    let legal: Vec<String> = serde_json::from_value(legal["moves"].clone()).unwrap();
    let wm = forward(&legal, '3', '4', 3);
    assert_eq!(wm.len(), 3, "{legal:?}");
    let mut commitments = Vec::new();
    for (i, mv) in wm.iter().enumerate() {
        act(&mut w, json!({"t": "move", "game": game, "move": mv})).await;
        let l = b.latest("legal").await.unwrap();
        let bl: Vec<String> = serde_json::from_value(l["moves"].clone()).unwrap();
        let bm = forward(&bl, '6', '5', 3);
        act(
            &mut b,
            json!({"t": "move", "game": game, "move": bm[i.min(bm.len() - 1)]}),
        )
        .await;
    }
    act(
        &mut w,
        json!({"t": "chat", "game": game, "text": "your move"}),
    )
    .await;
    act(&mut w, json!({"t": "draw_offer", "game": game})).await;
    act(&mut b, json!({"t": "draw_decline", "game": game})).await;
    // Let the last frames arrive, then drain.
    act(&mut w, json!({"t": "chat", "game": game, "text": "done"})).await;
    spec.send(&json!({"v": 1, "t": "ping"})).await.unwrap();
    spec.until("pong").await.unwrap();
    for f in w.frames.iter().chain(&spec.frames) {
        let v: Value = serde_json::from_str(f).unwrap();
        if let Some(c) = v["e"]["commitments"].as_object() {
            commitments.extend(c.values().map(|x| x.as_str().unwrap().to_string()));
        }
    }
    assert!(!commitments.is_empty());
    let mask = |frames: &[String]| -> Vec<String> {
        frames
            .iter()
            .map(|f| {
                let mut f = f.replace(&game, "GAME");
                for c in &commitments {
                    f = f.replace(c, "COMMITMENT");
                }
                f
            })
            .collect()
    };
    (mask(&w.frames), mask(&spec.frames))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn player_and_spectator_frames_do_not_depend_on_unseen_enemy_pieces() {
    let ts = start("noleak").await;
    let white = GameKind::Generals
        .random_setup(&Value::Null, Seat::First, 11)
        .unwrap();
    let black = GameKind::Generals
        .random_setup(&Value::Null, Seat::Second, 12)
        .unwrap();
    // The twin: two black pieces of different ranks on rank 8 (never touched) swap places.
    let mut twin = black.clone();
    let o = twin.as_object_mut().unwrap();
    let keys: Vec<String> = o.keys().filter(|k| k.ends_with('8')).cloned().collect();
    let (a, b) = keys
        .iter()
        .flat_map(|a| keys.iter().map(move |b| (a, b)))
        .find(|(a, b)| o[*a] != o[*b])
        .map(|(a, b)| (a.clone(), b.clone()))
        .unwrap();
    let (pa, pb) = (o[&a].clone(), o[&b].clone());
    o.insert(a, pb);
    o.insert(b, pa);
    assert_ne!(black, twin);

    let (w1, s1) = play_twin(&ts, &white, &black).await;
    let (w2, s2) = play_twin(&ts, &white, &twin).await;
    assert!(w1.len() > 20, "{w1:#?}");
    if std::env::var("DUMP").is_ok() {
        eprintln!("{}\n----\n{}", w1.join("\n"), s1.join("\n"));
    }
    // Move events carry each recipient's new observation: compared below like the rest.
    for frames in [&w1, &s1] {
        let moves: Vec<Value> = frames
            .iter()
            .map(|f| serde_json::from_str::<Value>(f).unwrap())
            .filter(|v| v["e"]["type"] == "move")
            .collect();
        assert!(!moves.is_empty());
        assert!(
            moves
                .iter()
                .all(|v| v["e"]["observation"]["board"].is_object())
        );
    }
    assert_eq!(w1, w2, "white's frames differ");
    assert_eq!(s1, s2, "the spectator's frames differ");
    // The spectator never sees a piece code before the end.
    for f in &s1 {
        for code in ["\"FLG\"", "\"SPY\"", "\"PVT\"", "\"5G\""] {
            assert!(!f.contains(code), "spectator saw {code}: {f}");
        }
    }
}
