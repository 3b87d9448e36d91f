//! Arbiter tables for a physical board (`docs/arbiter-board.md`), over real loopback
//! sockets: pairing by room code, the challenge arbiter's announcements and secrecy,
//! durability across a restart, bad input, and the full arbiter's game.

mod common;

use std::net::SocketAddr;

use common::*;
use salpakan_client::{Ws, http};
use salpakan_server::Server;
use serde_json::{Value, json};

async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    http(addr, method, path, Some(token), body.as_ref())
        .await
        .unwrap()
}

async fn ok(addr: SocketAddr, method: &str, path: &str, token: &str, body: Value) -> Value {
    let (st, v) = call(addr, method, path, token, Some(body)).await;
    assert_eq!(st, 200, "{method} {path}: {v}");
    v
}

async fn view(addr: SocketAddr, table: &str, token: &str, seat: Option<&str>) -> Value {
    let q = seat.map_or(String::new(), |s| format!("?seat={s}"));
    let (st, v) = call(addr, "GET", &format!("/api/tables/{table}{q}"), token, None).await;
    assert_eq!(st, 200, "{v}");
    v
}

/// A challenge-arbiter table for `options`, created by Ana (White) and joined by Ben.
async fn paired(addr: SocketAddr, game: &str, options: Value) -> (String, String, String) {
    let ana = guest(addr, "Ana").await;
    let ben = guest(addr, "Ben").await;
    let t = ok(
        addr,
        "POST",
        "/api/tables",
        &ana,
        json!({"game": game, "options": options, "mode": "challenge"}),
    )
    .await;
    let code = t["code"].as_str().unwrap().to_string();
    let j = ok(
        addr,
        "POST",
        "/api/tables/join",
        &ben,
        json!({"code": code}),
    )
    .await;
    assert_eq!(j["status"], "playing");
    (t["table"].as_str().unwrap().to_string(), ana, ben)
}

async fn enter(addr: SocketAddr, table: &str, token: &str, attacks: bool, rank: &str) -> Value {
    ok(
        addr,
        "POST",
        &format!("/api/tables/{table}/entry"),
        token,
        json!({"attacks": attacks, "rank": rank}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pairing_takes_the_room_code_once_and_refuses_a_wrong_code_and_the_creator() {
    let ts = start("tables-pair").await;
    let addr = ts.addr();
    let ana = guest(addr, "Ana").await;
    let ben = guest(addr, "Ben").await;
    let cy = guest(addr, "Cy").await;
    let t = ok(
        addr,
        "POST",
        "/api/tables",
        &ana,
        json!({"game": "generals", "mode": "challenge"}),
    )
    .await;
    let code = t["code"].as_str().unwrap().to_string();
    let id = t["table"].as_str().unwrap().to_string();
    assert_eq!(code.len(), 6);
    assert!(
        code.chars()
            .all(|c| "ACDEFGHJKMNPQRTUVWXY34679".contains(c)),
        "{code}"
    );
    assert_eq!(t["status"], "waiting");
    assert_eq!(t["seat"], "white");
    // A wrong code: a clear error, and nothing changes.
    let wrong = if code.starts_with('A') {
        "CCCCCC"
    } else {
        "AAAAAA"
    };
    let (st, e) = call(
        addr,
        "POST",
        "/api/tables/join",
        &ben,
        Some(json!({"code": wrong})),
    )
    .await;
    assert_eq!(st, 404, "{e}");
    assert!(e["error"].as_str().unwrap().contains("room code"), "{e}");
    // The creator cannot take the second seat.
    let (st, e) = call(
        addr,
        "POST",
        "/api/tables/join",
        &ana,
        Some(json!({"code": code})),
    )
    .await;
    assert_eq!(st, 409, "{e}");
    assert_eq!(view(addr, &id, &ana, None).await["status"], "waiting");
    // The code in lower case with a dash works, once.
    let lower = format!("{}-{}", &code[..3], &code[3..]).to_lowercase();
    let j = ok(
        addr,
        "POST",
        "/api/tables/join",
        &ben,
        json!({"code": lower}),
    )
    .await;
    assert_eq!(
        (j["seat"].as_str(), j["status"].as_str()),
        (Some("black"), Some("playing"))
    );
    assert_eq!(j["players"], json!({"white": "Ana", "black": "Ben"}));
    assert!(j["code"].is_null(), "the code is spent");
    let (st, _) = call(
        addr,
        "POST",
        "/api/tables/join",
        &cy,
        Some(json!({"code": code})),
    )
    .await;
    assert_eq!(st, 404, "a used code is gone");
    let (st, _) = call(addr, "GET", &format!("/api/tables/{id}"), &cy, None).await;
    assert_eq!(st, 403, "a stranger sees nothing of the table");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn room_codes_cannot_be_guessed_joins_are_rate_limited_per_address() {
    let ts = start("tables-guess").await;
    let addr = ts.addr();
    let ben = guest(addr, "Ben").await;
    let mut statuses = Vec::new();
    for _ in 0..12 {
        let (st, _) = call(
            addr,
            "POST",
            "/api/tables/join",
            &ben,
            Some(json!({"code": "QQQQQQ"})),
        )
        .await;
        statuses.push(st);
    }
    assert!(statuses[..10].iter().all(|&s| s == 404), "{statuses:?}");
    assert_eq!(statuses[11], 429, "{statuses:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenge_arbiter_announces_only_what_the_rules_allow_and_reveals_the_lists_at_the_end() {
    let ts = start("tables-play").await;
    let addr = ts.addr();
    let (id, ana, ben) = paired(addr, "generals", json!({})).await;
    // 1. White's Private challenges Black's Spy: the Spy goes, no rank is announced.
    let w = enter(addr, &id, &ana, true, "PVT").await;
    assert_eq!(w["your_entry"], json!({"attacks": true, "rank": "PVT"}));
    let b = view(addr, &id, &ben, None).await;
    assert_eq!(b["entered"], json!({"white": true, "black": false}));
    assert!(b["your_entry"].is_null());
    let mut shown = b.clone();
    shown["ranks"] = Value::Null;
    assert!(
        !shown.to_string().contains("PVT"),
        "Black never sees White's entry: {b}"
    );
    let b = enter(addr, &id, &ben, false, "spy").await;
    assert_eq!(
        b["challenges"],
        json!([{"n": 1, "attacker": "white", "removed": "defender", "attacker_shown": null, "defender_shown": null, "flag_captured_by": null}])
    );
    assert_eq!(b["your_lost"], json!(["SPY"]));
    assert_eq!(b["lost_count"], json!({"white": 0, "black": 1}));
    assert!(b["reveal"].is_null());
    let mut w = view(addr, &id, &ana, None).await;
    w["ranks"] = Value::Null;
    assert!(
        !w.to_string().contains("SPY"),
        "White never learns the Spy: {w}"
    );
    assert_eq!(w["your_lost"], json!([]));
    // 2. Black's Major challenges White's Major: both go.
    enter(addr, &id, &ben, true, "MAJ").await;
    let w = enter(addr, &id, &ana, false, "MAJ").await;
    assert_eq!(w["challenges"][1]["removed"], "both");
    assert_eq!(w["challenges"][1]["attacker"], "black");
    // 3. Black's Colonel challenges White's Flag: captured, the game is over.
    enter(addr, &id, &ana, false, "FLG").await;
    let b = enter(addr, &id, &ben, true, "COL").await;
    assert_eq!(b["challenges"][2]["flag_captured_by"], "black");
    assert_eq!(
        b["result"],
        json!({"winner": "black", "reason": "flag_captured"})
    );
    assert_eq!(b["status"], "ended");
    assert_eq!(
        b["reveal"],
        json!({"white": ["MAJ", "FLG"], "black": ["SPY", "MAJ"]})
    );
    // Over: no more entries.
    let (st, e) = call(
        addr,
        "POST",
        &format!("/api/tables/{id}/entry"),
        &ana,
        Some(json!({"attacks": true, "rank": "PVT"})),
    )
    .await;
    assert_eq!(st, 409, "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reveal_winner_announces_the_surviving_rank_only() {
    let ts = start("tables-reveal").await;
    let addr = ts.addr();
    let (id, ana, ben) = paired(addr, "generals", json!({"reveal": "winner"})).await;
    enter(addr, &id, &ana, true, "SGT").await;
    let b = enter(addr, &id, &ben, false, "CPT").await;
    let c = &b["challenges"][0];
    assert_eq!(
        (
            c["removed"].as_str(),
            c["defender_shown"].as_str(),
            c["attacker_shown"].as_str()
        ),
        (Some("attacker"), Some("CPT"), None)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_tables_differing_only_in_whites_entries_look_byte_identical_to_black() {
    let ts = start("tables-secret").await;
    let addr = ts.addr();
    let mut seen = Vec::new();
    for (first, second) in [("SGT", "CPT"), ("1LT", "MAJ")] {
        let (id, ana, ben) = paired(addr, "generals", json!({})).await;
        let mut frames = Vec::new();
        // White enters first (Black sees only that it did), Black's General wins.
        enter(addr, &id, &ana, false, first).await;
        frames.push(view(addr, &id, &ben, None).await);
        frames.push(enter(addr, &id, &ben, true, "4G").await);
        // White's second piece challenges Black's Private and wins.
        enter(addr, &id, &ana, true, second).await;
        frames.push(view(addr, &id, &ben, None).await);
        frames.push(enter(addr, &id, &ben, false, "PVT").await);
        let text: Vec<String> = frames
            .iter()
            .map(|f| f.to_string().replace(&id, "TABLE"))
            .collect();
        seen.push(text);
    }
    assert_eq!(
        seen[0], seen[1],
        "Black's answers must not depend on White's ranks"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_has_every_table_where_it_was() {
    let ts = start("tables-restart").await;
    let addr = ts.addr();
    let (id, ana, ben) = paired(addr, "generals", json!({"flag_rule": "electronic"})).await;
    enter(addr, &id, &ana, true, "5G").await;
    enter(addr, &id, &ben, false, "4G").await;
    enter(addr, &id, &ana, true, "SGT").await; // pending, acknowledged: stored
    let waiting = ok(
        addr,
        "POST",
        "/api/tables",
        &ana,
        json!({"game": "stratego", "mode": "challenge"}),
    )
    .await;
    let before = (
        view(addr, &id, &ana, None).await,
        view(addr, &id, &ben, None).await,
    );
    ts.server.stop();
    let again = Server::start("127.0.0.1:0".parse().unwrap(), &ts.db, config(&ts.time))
        .await
        .unwrap();
    let a2 = again.addr;
    let after = (
        view(a2, &id, &ana, None).await,
        view(a2, &id, &ben, None).await,
    );
    assert_eq!(before, after);
    // The pending entry still counts, and the waiting table's code still works.
    let b = enter(a2, &id, &ben, false, "SPY").await;
    assert_eq!(b["challenges"][1]["removed"], "attacker");
    let cy = guest(a2, "Cy").await;
    let j = ok(
        a2,
        "POST",
        "/api/tables/join",
        &cy,
        json!({"code": waiting["code"]}),
    )
    .await;
    assert_eq!(j["kind"], "stratego");
    again.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_entries_are_refused_with_a_clear_error_and_change_nothing() {
    let ts = start("tables-bad").await;
    let addr = ts.addr();
    let ana = guest(addr, "Ana").await;
    // Before the second phone joins: out of turn.
    let t = ok(
        addr,
        "POST",
        "/api/tables",
        &ana,
        json!({"game": "generals", "mode": "challenge"}),
    )
    .await;
    let lone = t["table"].as_str().unwrap();
    let (st, e) = call(
        addr,
        "POST",
        &format!("/api/tables/{lone}/entry"),
        &ana,
        Some(json!({"attacks": true, "rank": "PVT"})),
    )
    .await;
    assert_eq!(st, 409);
    assert!(e["error"].as_str().unwrap().contains("not joined"), "{e}");
    // Bad creations.
    for body in [
        json!({"game": "banqi", "mode": "challenge"}),
        json!({"game": "generals", "mode": "sometimes"}),
        json!({"game": "generals", "mode": "challenge", "options": {"reveal": "all"}}),
        json!({"game": "chess", "mode": "full"}),
    ] {
        let (st, e) = call(addr, "POST", "/api/tables", &ana, Some(body.clone())).await;
        assert_eq!(st, 400, "{body}: {e}");
    }
    let (st, _) = http(
        addr,
        "POST",
        "/api/tables",
        None,
        Some(&json!({"game": "generals", "mode": "challenge"})),
    )
    .await
    .unwrap();
    assert_eq!(st, 401);

    let (id, ana, ben) = paired(addr, "stratego", json!({"army": "barrage"})).await;
    enter(addr, &id, &ana, true, "10").await;
    let before = (
        view(addr, &id, &ana, None).await,
        view(addr, &id, &ben, None).await,
    );
    let path = format!("/api/tables/{id}/entry");
    let refusals = [
        (
            json!({"attacks": true, "rank": "9"}),
            409,
            "both sides say they attacked",
        ),
        (json!({"attacks": false, "rank": "7"}), 400, "no Major"),
        (
            json!({"attacks": false, "rank": "Z"}),
            400,
            "not a rank of stratego",
        ),
        (json!({"attacks": false}), 400, "bad JSON"),
        (
            json!({"attacks": false, "rank": "B", "extra": 1}),
            400,
            "bad JSON",
        ),
        (
            json!({"attacks": false, "rank": "B", "seat": "red"}),
            403,
            "not yours",
        ),
    ];
    for (body, status, says) in refusals {
        let (st, e) = call(addr, "POST", &path, &ben, Some(body.clone())).await;
        assert_eq!(st, status, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(says), "{body}: {e}");
    }
    // A Bomb cannot attack.
    let (st, e) = call(
        addr,
        "POST",
        &path,
        &ana,
        Some(json!({"attacks": true, "rank": "B"})),
    )
    .await;
    assert_eq!(st, 400, "{e}");
    let (st, _) = call(
        addr,
        "POST",
        &path,
        &ana,
        Some(json!({"attacks": true, "rank": "B"})),
    )
    .await;
    assert_eq!(st, 400);
    let (st, _) = http(addr, "POST", &path, Some(&ana), None).await.unwrap();
    assert_eq!(st, 400, "an empty body");
    let (st, _) = call(
        addr,
        "POST",
        "/api/tables/000000000000000000000000/entry",
        &ana,
        Some(json!({"attacks": true, "rank": "10"})),
    )
    .await;
    assert_eq!(st, 404);
    let (st, _) = call(
        addr,
        "POST",
        &format!("/api/tables/{id}/finish"),
        &ana,
        Some(json!({"how": "flag_home"})),
    )
    .await;
    assert_eq!(st, 400, "Stratego has no Flag coming home");
    let after = (
        view(addr, &id, &ana, None).await,
        view(addr, &id, &ben, None).await,
    );
    assert_eq!(before, after, "a refused request changes nothing");
    // Stratego announces both ranks; the Bomb stops the Marshal.
    let b = enter(addr, &id, &ben, false, "B").await;
    let c = &b["challenges"][0];
    assert_eq!(
        (
            c["attacker_shown"].as_str(),
            c["defender_shown"].as_str(),
            c["removed"].as_str()
        ),
        (Some("10"), Some("B"), Some("attacker"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_arbiter_is_a_private_game_held_by_the_two_phones_or_by_one_passed_phone() {
    let ts = start("tables-full").await;
    let addr = ts.addr();
    // One passed phone: both seat tokens at once.
    let ana = guest(addr, "Ana").await;
    let t = ok(addr, "POST", "/api/tables", &ana, json!({"game": "generals", "options": {"flag_rule": "electronic"}, "mode": "full", "pass": true})).await;
    let game = t["game"].as_str().unwrap().to_string();
    assert_eq!(t["status"], "playing");
    let (wt, bt) = (
        t["seat_tokens"]["white"].as_str().unwrap(),
        t["seat_tokens"]["black"].as_str().unwrap(),
    );
    let (_, j0) = join(addr, &game, Some(wt)).await;
    let (_, j1) = join(addr, &game, Some(bt)).await;
    assert_eq!(
        (j0["state"]["seat"].as_str(), j1["state"]["seat"].as_str()),
        (Some("white"), Some("black"))
    );
    let (st, g) = http(addr, "GET", &format!("/api/games/{game}"), None, None)
        .await
        .unwrap();
    assert_eq!(st, 200);
    assert_eq!(g["public"], false);
    assert_eq!(g["options"]["flag_rule"], "electronic");
    // Ranks are entered in the game, not at the table.
    let (st, e) = call(
        addr,
        "POST",
        &format!("/api/tables/{}/entry", t["table"].as_str().unwrap()),
        &ana,
        Some(json!({"seat": "white", "attacks": true, "rank": "PVT"})),
    )
    .await;
    assert_eq!(st, 409, "{e}");
    // Two phones: the joiner gets only the second seat's token.
    let ben = guest(addr, "Ben").await;
    let t = ok(
        addr,
        "POST",
        "/api/tables",
        &ana,
        json!({"game": "stratego", "mode": "full"}),
    )
    .await;
    assert!(t["game"].is_null());
    let j = ok(
        addr,
        "POST",
        "/api/tables/join",
        &ben,
        json!({"code": t["code"]}),
    )
    .await;
    let tokens = j["seat_tokens"].as_object().unwrap();
    assert_eq!(tokens.keys().collect::<Vec<_>>(), ["blue"]);
    let mut ws = Ws::connect(addr).await.unwrap();
    ws.send(&json!({"v": 1, "t": "join", "game": j["game"], "seat_token": tokens["blue"]}))
        .await
        .unwrap();
    let joined = ws.until("joined").await.unwrap();
    assert_eq!(joined["as"], 1);
    let a = view(addr, t["table"].as_str().unwrap(), &ana, None).await;
    assert_eq!(a["game"], j["game"]);
    assert_eq!(
        a["seat_tokens"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["red"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_player_may_have_at_most_five_tables_waiting_for_a_second_phone() {
    let ts = start("tables-waiting").await;
    let addr = ts.addr();
    let ana = guest(addr, "Ana").await;
    let body = json!({"game": "generals", "mode": "challenge"});
    for _ in 0..5 {
        ok(addr, "POST", "/api/tables", &ana, body.clone()).await;
    }
    let (st, e) = call(addr, "POST", "/api/tables", &ana, Some(body.clone())).await;
    assert_eq!(st, 429, "{e}");
    assert!(e["error"].as_str().unwrap().contains("waiting"), "{e}");
    // A passed phone waits for nobody.
    ok(
        addr,
        "POST",
        "/api/tables",
        &ana,
        json!({"game": "generals", "mode": "challenge", "pass": true}),
    )
    .await;
}
