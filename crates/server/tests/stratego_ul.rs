//! Stratego Ultimate Lightning over the protocol: the army is chosen in a seek's options,
//! and a rescue is offered in `legal`, played as a move and shown to both sides.

mod common;

use common::*;
use salpakan_client::Ws;
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

fn placements(text: &str) -> Value {
    let mut m = serde_json::Map::new();
    for item in text.split_whitespace() {
        let (s, p) = item.split_once(':').unwrap();
        m.insert(s.into(), p.into());
    }
    Value::Object(m)
}

/// Red: a Scout on a4 and a Captain on j4 in front, the rest on ranks 1–2.
const RED: &str = "a4:2 j4:6 a1:F b1:B c1:B d1:S e1:2 f1:2 g1:2 h1:3 i1:3 j1:4 \
                   a2:4 b2:5 c2:5 d2:6 e2:7 f2:8 g2:9 h2:10";
/// Blue: its Marshal on a7, a Scout on e7, the rest on ranks 9–10; file j empty.
const BLUE: &str = "a7:10 e7:2 a10:F b10:B c10:B d10:S e10:2 f10:2 g10:2 h10:3 i10:3 \
                    a9:4 b9:4 c9:5 d9:5 e9:6 f9:6 g9:7 h9:8 i9:9";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ul_game_with_a_rescue_plays_over_the_protocol() {
    let ts = start("ul").await;
    let addr = ts.addr();
    let (game, tokens) = new_game(
        addr,
        "stratego",
        json!({"army": "ultimate_lightning"}),
        Value::Null,
    )
    .await;
    let (mut r, sync) = join(addr, &game, Some(&tokens[0])).await;
    let (mut b, _) = join(addr, &game, Some(&tokens[1])).await;
    let (mut watcher, _) = join(addr, &game, None).await;
    assert_eq!(
        sync["state"]["options"]["army"], "ultimate_lightning",
        "{sync}"
    );
    act(
        &mut r,
        json!({"t": "setup", "game": game, "setup": placements(RED)}),
    )
    .await;
    act(
        &mut b,
        json!({"t": "setup", "game": game, "setup": placements(BLUE)}),
    )
    .await;
    event(&mut r, "start").await;
    let moves = [
        (true, "a4-a7"),
        (false, "e7-e6"),
        (true, "j4-j6"),
        (false, "e6-e5"),
        (true, "j6-j8"),
        (false, "e5-e6"),
    ];
    for (red, mv) in moves {
        let ws = if red { &mut r } else { &mut b };
        let l = legal(ws).await;
        assert!(l.contains(&mv.to_string()), "{mv} in {l:?}");
        act(ws, json!({"t": "move", "game": game, "move": mv})).await;
        event(&mut r, "move").await;
        event(&mut b, "move").await;
    }
    // The Captain reaches Blue's back rank: the Scout lost on a7 may come back.
    let l = legal(&mut r).await;
    assert!(l.contains(&"j8-j10".to_string()), "{l:?}");
    assert!(l.contains(&"j8-j10+2@a4".to_string()), "{l:?}");
    assert!(
        !l.iter().any(|m| m.starts_with("j8-j10+10")),
        "no Marshal was lost"
    );
    let err = refused(
        &mut r,
        json!({"t": "move", "game": game, "move": "j8-j10+2@a7"}),
    )
    .await;
    assert!(err.contains("half"), "{err}");
    act(
        &mut r,
        json!({"t": "move", "game": game, "move": "j8-j10+2@a4"}),
    )
    .await;
    for ws in [&mut r, &mut b, &mut watcher] {
        let e = ws
            .until_with(|v| v["t"] == "event" && v["e"]["view"]["ply"] == 7)
            .await
            .unwrap();
        assert_eq!(
            e["e"]["view"]["rescue"],
            json!({"piece": "2", "square": "a4"}),
            "{e}"
        );
        let a4 = &e["e"]["observation"]["board"]["a4"];
        assert_eq!(
            (a4["owner"].as_str(), a4["piece"].as_str()),
            (Some("red"), Some("2")),
            "{e}"
        );
        assert_eq!(e["e"]["observation"]["eliminated"]["red"], json!([]), "{e}");
    }
    // The record keeps the rescue.
    act(&mut b, json!({"t": "resign", "game": game})).await;
    let end = event(&mut r, "end").await;
    assert_eq!(end["e"]["result"]["winner"], "red");
    let (st, rec) = salpakan_client::http(
        addr,
        "GET",
        &format!("/api/games/{game}/record"),
        None,
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200);
    let text = rec.as_str().unwrap();
    assert!(
        text.contains("a4-a7{2<10}") && text.contains("j8-j10+2@a4"),
        "{text}"
    );
}
