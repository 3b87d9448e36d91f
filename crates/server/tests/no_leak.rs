//! Nothing hidden leaks over the WebSocket: two games that differ only in two enemy pieces
//! a player never sees give that player, and spectators, byte-identical frames (after the
//! game id and the commitments — which differ by design — are masked).

mod common;

use common::*;
use salpakan_client::http;
use salpakan_engine::{GameKind, GameSpec, Seat, wire};
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
    let (w, s, _) = play_twin_with(ts, white_setup, black_setup, Value::Null, false).await;
    (w, s)
}

/// Plays the twin game with `options`; with `end`, White then resigns, and a fresh
/// spectator and White each join the ended game again. Returns White's and the
/// spectators' frames (masked), and the game's id and White's seat token.
async fn play_twin_with(
    ts: &TestServer,
    white_setup: &Value,
    black_setup: &Value,
    options: Value,
    end: bool,
) -> (Vec<String>, Vec<String>, (String, String)) {
    let addr = ts.addr();
    let (game, tokens) = new_game(addr, "generals", options, json!({"base": 300, "inc": 5})).await;
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
    if end {
        act(&mut w, json!({"t": "resign", "game": game})).await;
        spec.until_with(|v| v["e"]["type"] == "end").await.unwrap();
        // Looking at the ended game again: a new spectator, White again.
        let (late, _) = join(addr, &game, None).await;
        spec.frames.extend(late.frames);
        let (again, _) = join(addr, &game, Some(&tokens[0])).await;
        w.frames.extend(again.frames);
    }
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
    (
        mask(&w.frames),
        mask(&spec.frames),
        (game.clone(), tokens[0].clone()),
    )
}

/// Black's setup with two pieces of different ranks on rank 8 (never touched in these
/// games) swapped: a twin White cannot tell from the original.
fn twin_of(black: &Value) -> Value {
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
    twin
}

/// A random Generals setup for `seat`, as the JSON a client sends.
fn setup(seat: Seat, seed: u64) -> Value {
    let setup = GameSpec::default_for(GameKind::Generals)
        .random_setup(seat, seed)
        .unwrap();
    wire::setup_json(&setup)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn player_and_spectator_frames_do_not_depend_on_unseen_enemy_pieces() {
    let ts = start("noleak").await;
    let white = setup(Seat::First, 11);
    let black = setup(Seat::Second, 12);
    let twin = twin_of(&black);
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

/// A game played with `reveal_at_end=false` reveals nothing at its end: the `end` event,
/// the syncs of the ended game (to a player and to spectators) and everything else are the
/// same whatever the enemy pieces never seen were; the full record is not published and a
/// player's own record holds only their own setup.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reveal_at_end_false_reveals_nothing_at_the_end_to_players_spectators_or_records() {
    let ts = start("noreveal").await;
    let white = setup(Seat::First, 21);
    let black = setup(Seat::Second, 22);
    let twin = twin_of(&black);
    let options = json!({"reveal_at_end": false});
    let (w1, s1, (g1, t1)) = play_twin_with(&ts, &white, &black, options.clone(), true).await;
    let (w2, s2, _) = play_twin_with(&ts, &white, &twin, options, true).await;
    let ends: Vec<&String> = w1
        .iter()
        .filter(|f| f.contains(r#""type":"end""#))
        .collect();
    assert_eq!(ends.len(), 1, "{w1:#?}");
    assert!(ends[0].contains(r#""reveal":null"#), "{}", ends[0]);
    assert!(w1.iter().any(|f| f.contains(r#""status":"ended""#)));
    assert_eq!(w1, w2, "white's frames differ");
    assert_eq!(s1, s2, "the spectators' frames differ");
    // No full record without a token; White's own copy has White's setup only.
    let (st, e) = http(
        ts.addr(),
        "GET",
        &format!("/api/games/{g1}/record"),
        None,
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 403, "{e}");
    assert!(e["error"].as_str().unwrap().contains("reveal_at_end=false"));
    let (st, rec) = http(
        ts.addr(),
        "GET",
        &format!("/api/games/{g1}/record"),
        Some(&t1),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200);
    let rec = rec.as_str().unwrap();
    assert!(
        rec.contains("WhiteSetupSalt")
            && !rec.contains("BlackSetupSalt")
            && !rec.contains("[BlackSetup \""),
        "{rec}"
    );
}
