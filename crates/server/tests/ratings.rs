//! Ratings, leaderboards, profiles and reputation over the real HTTP and WebSocket API:
//! rated games between accounts checked against an independent Glicko-2 computation, the
//! completion rule, rated seeks' terms, kudos, reports, the moderation API, durability
//! with the result, and that nothing about ratings follows hidden pieces.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;

use common::{act, config, guest, join, start, start_with};
use salpakan_client::{Ws, http};
use salpakan_server::{Config, ManualTime, Server};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One HTTP request with a session cookie: the status, the `Set-Cookie` session pair and
/// the JSON body.
async fn with_cookie(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &Value,
) -> (u16, Option<String>, Value) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.to_string();
    let c = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    let r = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{c}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(r.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let cookie = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, v)| {
            k.eq_ignore_ascii_case("set-cookie") && v.trim().starts_with("salpakan_session=")
        })
        .map(|(_, v)| v.trim().split(';').next().unwrap().to_string());
    (
        status,
        cookie,
        serde_json::from_str(body).unwrap_or(Value::Null),
    )
}

/// Registers an account and returns an API token for it (a Bearer token like a guest's).
async fn account(addr: SocketAddr, name: &str) -> String {
    account_and_cookie(addr, name).await.0
}

/// Registers an account: an API token for it and its session cookie.
async fn account_and_cookie(addr: SocketAddr, name: &str) -> (String, String) {
    let (st, cookie, v) = with_cookie(
        addr,
        "POST",
        "/api/accounts",
        None,
        &json!({"name": name, "password": "correct horse battery"}),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    let (st, _, v) = with_cookie(
        addr,
        "POST",
        "/api/account/tokens",
        cookie.as_deref(),
        &json!({"name": "tests"}),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    (v["token"].as_str().unwrap().to_string(), cookie.unwrap())
}

async fn get(addr: SocketAddr, path: &str, token: Option<&str>) -> (u16, Value) {
    http(addr, "GET", path, token, None).await.unwrap()
}

async fn post(addr: SocketAddr, path: &str, token: &str, body: Value) -> (u16, Value) {
    http(addr, "POST", path, Some(token), Some(&body))
        .await
        .unwrap()
}

async fn event(ws: &mut Ws, ty: &str) -> Value {
    ws.until_with(|v| v["t"] == "event" && v["e"]["type"] == ty)
        .await
        .unwrap()
}

const BLITZ: fn() -> Value = || json!({"base": 300, "inc": 0});

/// A Banqi game (dealt: it starts at once) from a seek of `a` accepted by `b`, `a` first:
/// the game and both joined seats.
async fn banqi_game(addr: SocketAddr, a: &str, b: &str, rated: bool) -> (String, Ws, Ws) {
    let (st, seek) = post(
        addr,
        "/api/seeks",
        a,
        json!({"game": "banqi", "clock": BLITZ(), "seat": "first", "rated": rated}),
    )
    .await;
    assert_eq!(st, 200, "{seek}");
    assert_eq!(seek["seek"]["rated"], rated);
    assert_eq!(seek["seek"]["board"], "banqi");
    let id = seek["seek"]["id"].as_str().unwrap();
    let (st, acc) = post(addr, &format!("/api/seeks/{id}/accept"), b, json!(null)).await;
    assert_eq!(st, 200, "{acc}");
    let game = acc["game"].as_str().unwrap().to_string();
    let (_, seat) = get(addr, &format!("/api/games/{game}/seat"), Some(a)).await;
    let (wa, _) = join(addr, &game, seat["seat_token"].as_str()).await;
    let (wb, _) = join(addr, &game, acc["seat_token"].as_str()).await;
    (game, wa, wb)
}

/// An independent Glicko-2 (Glickman's paper, the volatility found by bisection rather
/// than the Illinois method): one period holding one game, `periods` periods after the
/// player's last, τ = 0.75, the deviation kept within 45 and 350 (docs/ratings.md).
fn glicko2(me: (f64, f64, f64), opp: (f64, f64), score: f64, periods: f64) -> (f64, f64, f64) {
    let k = 173.7178;
    let (mu, phi, sigma) = ((me.0 - 1500.0) / k, me.1 / k, me.2);
    let (mu_j, phi_j) = ((opp.0 - 1500.0) / k, opp.1 / k);
    let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / std::f64::consts::PI.powi(2)).sqrt();
    let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
    let v = 1.0 / (g * g * e * (1.0 - e));
    let delta = v * g * (score - e);
    let tau = 0.75;
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        x.exp() * (delta * delta - phi * phi - v - x.exp())
            / (2.0 * (phi * phi + v + x.exp()).powi(2))
            - (x - a) / (tau * tau)
    };
    // f falls from positive to negative across its root.
    let (mut lo, mut hi) = (a - 20.0, a + 20.0);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let sigma2 = ((lo + hi) / 2.0 / 2.0).exp();
    let phi_star = (phi * phi + periods * sigma2 * sigma2).sqrt();
    let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu2 = mu + phi2 * phi2 * g * (score - e);
    (mu2 * k + 1500.0, (phi2 * k).clamp(45.0, 350.0), sigma2)
}

fn lenient(time: &Arc<ManualTime>) -> Config {
    Config {
        leaderboard_min_games: 1,
        provisional_rd: 350.0,
        ..config(time)
    }
}

/// Five rated games between two accounts, an hour apart, each ended over the WebSocket
/// (resignations and an agreed draw): the `end` events, both profiles, both completion rates and the
/// leaderboard agree with an independent Glicko-2 computation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_moves_both_ratings_as_glicko2_computes_them() {
    let time = Arc::new(ManualTime::default());
    let ts = start_with("rated", lenient(&time), time).await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let ben = account(addr, "Ben").await;
    let mut r: [(f64, f64, f64); 2] = [(1500.0, 350.0, 0.06), (1500.0, 350.0, 0.06)];
    // Ana's score in each game: Ben resigns, Ana resigns, Ben resigns, a draw, Ben resigns.
    let scores = [1.0, 0.0, 1.0, 0.5, 1.0];
    for (n, score) in scores.into_iter().enumerate() {
        let (game, mut wa, mut wb) = banqi_game(addr, &ana, &ben, true).await;
        let (_, info) = get(addr, &format!("/api/games/{game}"), None).await;
        assert_eq!(info["rated"], true);
        assert_eq!(info["players"]["first"]["account"], true);
        assert_eq!(
            info["players"]["first"]["rating"],
            json!(r[0].0.round() as i64)
        );
        assert_eq!(info["players"]["second"]["provisional"], r[1].1 > 350.0);
        if score == 0.5 {
            act(&mut wa, json!({"t": "draw_offer", "game": game})).await;
            act(&mut wb, json!({"t": "draw_accept", "game": game})).await;
        } else {
            let loser = if score == 1.0 { &mut wb } else { &mut wa };
            act(loser, json!({"t": "resign", "game": game})).await;
        }
        let end = event(&mut wa, "end").await;
        let end_b = event(&mut wb, "end").await;
        assert_eq!(end["e"]["ratings"], end_b["e"]["ratings"]);
        // The first game is a period of its own; the others follow an hour after the one
        // before (0.21436 periods a day).
        let periods = if n == 0 { 1.0 } else { 0.21436 / 24.0 };
        let a2 = glicko2(r[0], (r[1].0, r[1].1), score, periods);
        let b2 = glicko2(r[1], (r[0].0, r[0].1), 1.0 - score, periods);
        for (seat, before, after) in [("first", r[0], a2), ("second", r[1], b2)] {
            let x = &end["e"]["ratings"][seat];
            assert_eq!(x["before"], json!(before.0.round() as i64), "{end}");
            assert_eq!(x["after"], json!(after.0.round() as i64), "{end}");
            assert_eq!(
                x["diff"],
                json!(after.0.round() as i64 - before.0.round() as i64)
            );
            assert_eq!(x["provisional"], after.1 > 350.0);
        }
        r = [a2, b2];
        ts.time.advance(3_600_000);
    }
    // The profiles: one rating on the banqi board, its history, W/D/L, completion.
    for (name, me, wins, losses) in [("Ana", r[0], 3, 1), ("Ben", r[1], 1, 3)] {
        let (st, p) = get(addr, &format!("/api/players/{name}"), None).await;
        assert_eq!(st, 200, "{p}");
        let b = &p["ratings"]["banqi"];
        assert_eq!(b["rating"], json!(me.0.round() as i64), "{p}");
        assert_eq!(b["rd"], json!(me.1.round() as i64), "{p}");
        assert_eq!(
            (&b["games"], &b["wins"], &b["draws"], &b["losses"]),
            (&json!(5), &json!(wins), &json!(1), &json!(losses))
        );
        assert_eq!(b["history"].as_array().unwrap().len(), 5);
        assert_eq!(b["history"][4][1], json!(me.0.round() as i64));
        assert_eq!(
            p["record"]["banqi"],
            json!({"wins": wins, "draws": 1, "losses": losses})
        );
        assert_eq!(
            p["reputation"],
            json!({"finished": 5, "abandoned": 0, "completion": 100, "kudos": 0})
        );
        assert_eq!(p["bot"], false);
        assert!(p.get("marked").is_none(), "only moderators see marks");
        // The history, a page at a time, newest first.
        let (_, h) = get(addr, &format!("/api/players/{name}/games?limit=3"), None).await;
        assert_eq!(h["games"].as_array().unwrap().len(), 3, "{h}");
        assert_eq!(h["games"][0]["rated"], true);
        assert_eq!(h["games"][0]["board"], "banqi");
        assert_eq!(
            h["games"][0]["result"],
            if name == "Ana" { "win" } else { "loss" }
        );
        let next = h["next"].as_str().unwrap();
        let (_, h2) = get(
            addr,
            &format!("/api/players/{name}/games?limit=3&before={next}"),
            None,
        )
        .await;
        assert_eq!(h2["games"].as_array().unwrap().len(), 2, "{h2}");
        assert_eq!(h2["next"], Value::Null);
        assert_eq!(
            h2["games"][1]["opponent"],
            if name == "Ana" { "Ben" } else { "Ana" }
        );
    }
    // The seek of an account shows its rating and completion rate.
    let (_, seek) = post(
        addr,
        "/api/seeks",
        &ana,
        json!({"game": "banqi", "clock": BLITZ(), "rated": true}),
    )
    .await;
    assert_eq!(seek["seek"]["by_rating"], json!(r[0].0.round() as i64));
    assert_eq!(seek["seek"]["by_completion"], 100);
    assert_eq!(seek["seek"]["by_account"], true);
    // The leaderboard, best first.
    let (st, lb) = get(addr, "/api/leaderboard/banqi", None).await;
    assert_eq!(st, 200, "{lb}");
    let p = &lb["players"];
    assert_eq!(p[0]["name"], "Ana", "{lb}");
    assert_eq!(p[0]["rank"], 1);
    assert_eq!(p[0]["rating"], json!(r[0].0.round() as i64));
    assert_eq!(p[0]["games"], 5);
    assert_eq!(p[0]["trend"], json!(r[0].0.round() as i64 - 1500));
    assert_eq!(p[1]["name"], "Ben");
    assert_eq!(p[1]["bot"], false);
    let (_, other) = get(addr, "/api/leaderboard/stratego", None).await;
    assert_eq!(other["players"], json!([]));
    let (st, _) = get(addr, "/api/leaderboard/chess", None).await;
    assert_eq!(st, 404);
}

/// The default thresholds keep a player with few games or a provisional rating off the
/// leaderboard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_lists_no_provisional_player_nor_one_with_few_games() {
    let ts = start("lb-default").await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let ben = account(addr, "Ben").await;
    let (game, _wa, mut wb) = banqi_game(addr, &ana, &ben, true).await;
    act(&mut wb, json!({"t": "resign", "game": game})).await;
    let (_, lb) = get(addr, "/api/leaderboard/banqi", None).await;
    assert_eq!(lb["players"], json!([]));
    let (_, p) = get(addr, "/api/players/Ana", None).await;
    assert_eq!(p["ratings"]["banqi"]["provisional"], true);
}

/// A player who leaves during the setup phase has abandoned the game; the opponent
/// finished it by play.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_during_setup_counts_as_abandoned() {
    let ts = start("abandoned").await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let ben = account(addr, "Ben").await;
    let (st, seek) = post(
        addr,
        "/api/seeks",
        &ana,
        json!({"game": "stratego", "clock": BLITZ(), "seat": "red", "rated": true}),
    )
    .await;
    assert_eq!(st, 200, "{seek}");
    let id = seek["seek"]["id"].as_str().unwrap();
    let (_, acc) = post(addr, &format!("/api/seeks/{id}/accept"), &ben, json!(null)).await;
    let game = acc["game"].as_str().unwrap().to_string();
    let (_, seat) = get(addr, &format!("/api/games/{game}/seat"), Some(&ana)).await;
    let (mut red, _) = join(addr, &game, seat["seat_token"].as_str()).await;
    act(
        &mut red,
        json!({"t": "setup", "game": game, "random": true}),
    )
    .await;
    // Ben never comes: past the setup grace, the game ends.
    ts.time.advance(181_000);
    act(
        &mut red,
        json!({"t": "chat", "game": game, "text": "hello?"}),
    )
    .await;
    let end = event(&mut red, "end").await;
    assert_eq!(end["e"]["result"]["reason"], "abandonment");
    let (_, a) = get(addr, "/api/players/Ana", None).await;
    let (_, b) = get(addr, "/api/players/Ben", None).await;
    assert_eq!(a["reputation"]["finished"], 1, "{a}");
    assert_eq!(a["reputation"]["abandoned"], 0);
    assert_eq!(b["reputation"]["abandoned"], 1, "{b}");
    assert_eq!(b["reputation"]["finished"], 0);
    let (_, h) = get(addr, "/api/players/Ben/games", None).await;
    assert_eq!(h["games"][0]["reason"], "abandonment");
    assert_eq!(h["games"][0]["result"], "loss");
}

/// Running out the clock without moving for a minute counts as abandoned; losing on time
/// while playing does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn running_out_the_clock_without_moving_counts_as_abandoned() {
    let ts = start("stall").await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let ben = account(addr, "Ben").await;
    let (game, mut wa, _wb) = banqi_game(addr, &ana, &ben, false).await;
    // Ana (first) never moves: her 300 s run out.
    ts.time.advance(301_000);
    act(&mut wa, json!({"t": "chat", "game": game, "text": "oops"})).await;
    let end = event(&mut wa, "end").await;
    assert_eq!(end["e"]["result"]["reason"], "time");
    assert!(end["e"].get("ratings").is_none(), "a casual game: {end}");
    let (_, a) = get(addr, "/api/players/Ana", None).await;
    assert_eq!(a["reputation"]["abandoned"], 1, "{a}");
    let (_, b) = get(addr, "/api/players/Ben", None).await;
    assert_eq!(b["reputation"]["finished"], 1, "{b}");
    assert_eq!(b["ratings"], json!({}), "a casual game rates nobody");
}

/// Guests play casual games only: they can neither open nor accept a rated seek, nor one
/// with a rating range.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_can_neither_create_nor_accept_a_rated_seek() {
    let ts = start("guest-rated").await;
    let addr = ts.addr();
    let g = guest(addr, "Gus").await;
    let ana = account(addr, "Ana").await;
    let rated = json!({"game": "banqi", "clock": BLITZ(), "rated": true});
    let (st, e) = post(addr, "/api/seeks", &g, rated.clone()).await;
    assert_eq!(st, 403, "{e}");
    assert!(e["error"].as_str().unwrap().contains("account"));
    let (st, _) = post(addr, "/api/challenges", &g, rated.clone()).await;
    assert_eq!(st, 403);
    let (_, seek) = post(addr, "/api/seeks", &ana, rated).await;
    let id = seek["seek"]["id"].as_str().unwrap();
    let (st, e) = post(addr, &format!("/api/seeks/{id}/accept"), &g, json!(null)).await;
    assert_eq!(st, 403, "{e}");
    // Refused, the seek stays open.
    let (st, _) = get(addr, &format!("/api/seeks/{id}"), None).await;
    assert_eq!(st, 200);
    let (_, ranged) = post(
        addr,
        "/api/seeks",
        &ana,
        json!({"game": "banqi", "clock": BLITZ(), "rating_min": 1000, "rating_max": 2000}),
    )
    .await;
    let id = ranged["seek"]["id"].as_str().unwrap();
    let (st, _) = post(addr, &format!("/api/seeks/{id}/accept"), &g, json!(null)).await;
    assert_eq!(st, 403);
    // A casual seek is open to guests, and its game is not rated.
    let (_, casual) = post(addr, "/api/seeks", &ana, json!({"game": "banqi"})).await;
    assert_eq!(casual["seek"]["rated"], false);
    assert_eq!(casual["seek"]["by_rating"], 1500);
    assert_eq!(casual["seek"]["by_provisional"], true);
    let id = casual["seek"]["id"].as_str().unwrap();
    let (st, acc) = post(addr, &format!("/api/seeks/{id}/accept"), &g, json!(null)).await;
    assert_eq!(st, 200, "{acc}");
    let (_, info) = get(
        addr,
        &format!("/api/games/{}", acc["game"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(info["rated"], false);
    let guest_seat = &info["players"]
        .as_object()
        .unwrap()
        .values()
        .find(|p| p["name"] == "Gus")
        .unwrap()
        .clone();
    assert_eq!(guest_seat["account"], false);
    assert_eq!(guest_seat["rating"], Value::Null);
}

/// Options outside the boards (another army, a changed rule) and games without a clock
/// are casual only; a seek's terms are checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_outside_the_boards_are_casual_only() {
    let ts = start("boards").await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    for (game, options) in [
        ("stratego", json!({"army": "duel"})),
        ("banqi", json!({"chain_captures": true})),
        ("generals", json!({"flag_rule": "electronic"})),
    ] {
        let (st, e) = post(
            addr,
            "/api/seeks",
            &ana,
            json!({"game": game, "options": options, "clock": BLITZ(), "rated": true}),
        )
        .await;
        assert_eq!(st, 400, "{game} {options}: {e}");
        assert!(e["error"].as_str().unwrap().contains("casual only"), "{e}");
        let (st, s) = post(
            addr,
            "/api/seeks",
            &ana,
            json!({"game": game, "options": options, "clock": BLITZ()}),
        )
        .await;
        assert_eq!(st, 200, "{s}");
        assert_eq!(s["seek"]["board"], Value::Null);
        assert_eq!(s["seek"]["by_rating"], Value::Null);
        let id = s["seek"]["id"].as_str().unwrap();
        http(
            addr,
            "DELETE",
            &format!("/api/seeks/{id}"),
            Some(&ana),
            None,
        )
        .await
        .unwrap();
    }
    // Each board by its options.
    for (game, options, board) in [
        ("generals", json!(null), "generals"),
        ("stratego", json!({"army": "barrage"}), "stratego-barrage"),
        ("stratego", json!({}), "stratego"),
    ] {
        let (st, s) = post(
            addr,
            "/api/seeks",
            &ana,
            json!({"game": game, "options": options, "clock": BLITZ(), "rated": true}),
        )
        .await;
        assert_eq!(st, 200, "{s}");
        assert_eq!(s["seek"]["board"], board);
        let id = s["seek"]["id"].as_str().unwrap();
        http(
            addr,
            "DELETE",
            &format!("/api/seeks/{id}"),
            Some(&ana),
            None,
        )
        .await
        .unwrap();
    }
    let (st, e) = post(
        addr,
        "/api/seeks",
        &ana,
        json!({"game": "banqi", "rated": true}),
    )
    .await;
    assert_eq!(st, 400, "a rated game needs a clock: {e}");
    for bad in [
        json!({"game": "banqi", "min_completion": 101}),
        json!({"game": "banqi", "rating_min": 1600, "rating_max": 1400}),
        json!({"game": "stratego", "options": {"army": "duel"}, "rating_min": 1400}),
    ] {
        let (st, e) = post(addr, "/api/seeks", &ana, bad.clone()).await;
        assert_eq!(st, 400, "{bad}: {e}");
    }
    let (st, _) = post(
        addr,
        "/api/bot-games",
        &ana,
        json!({"game": "banqi", "rated": true}),
    )
    .await;
    assert_eq!(st, 400);
}

/// An acceptor outside a seek's rating range or below its completion rate is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_acceptor_outside_the_seeks_terms_is_refused() {
    let ts = start("terms").await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let ben = account(addr, "Ben").await;
    for (terms, status) in [
        (json!({"rating_min": 1600}), 409),
        (json!({"rating_max": 1400}), 409),
        (json!({"min_completion": 50}), 409),
        (json!({"rating_min": 1400, "rating_max": 1600}), 200),
    ] {
        let mut body = json!({"game": "banqi", "clock": BLITZ()});
        for (k, v) in terms.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (_, s) = post(addr, "/api/seeks", &ana, body).await;
        let id = s["seek"]["id"].as_str().unwrap();
        let (st, e) = post(addr, &format!("/api/seeks/{id}/accept"), &ben, json!(null)).await;
        assert_eq!(st, status, "{terms}: {e}");
    }
}

/// A player gives the opponent of a finished game one "good game", never two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kudos_are_given_once_per_finished_game() {
    let ts = start("kudos").await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let ben = account(addr, "Ben").await;
    let (game, mut wa, _wb) = banqi_game(addr, &ana, &ben, false).await;
    let path = format!("/api/games/{game}/kudos");
    let (st, e) = post(addr, &path, &ana, json!(null)).await;
    assert_eq!(st, 409, "not over yet: {e}");
    act(&mut wa, json!({"t": "resign", "game": game})).await;
    let (st, k) = post(addr, &path, &ana, json!(null)).await;
    assert_eq!(st, 200, "{k}");
    assert_eq!(k["kudos"], "Ben");
    let (st, e) = post(addr, &path, &ana, json!(null)).await;
    assert_eq!(st, 409, "{e}");
    let (st, _) = post(addr, &path, &ben, json!(null)).await;
    assert_eq!(st, 200);
    let cy = account(addr, "Cy").await;
    let (st, _) = post(addr, &path, &cy, json!(null)).await;
    assert_eq!(st, 403, "not a player of the game");
    let (_, b) = get(addr, "/api/players/Ben", None).await;
    assert_eq!(b["reputation"]["kudos"], 1, "{b}");
}

/// Reports need an account, name an existing player, and are rate-limited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_are_rate_limited() {
    let ts = start("reports").await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let _ben = account(addr, "Ben").await;
    let g = guest(addr, "Gus").await;
    let report = json!({"name": "Ben", "reason": "stalling", "text": "let the clock run"});
    let (st, _) = post(addr, "/api/reports", &g, report.clone()).await;
    assert_eq!(st, 403);
    let (st, e) = post(
        addr,
        "/api/reports",
        &ana,
        json!({"name": "Nobody", "reason": "abuse"}),
    )
    .await;
    assert_eq!(st, 404, "{e}");
    let (st, e) = post(
        addr,
        "/api/reports",
        &ana,
        json!({"name": "Ben", "reason": "rude"}),
    )
    .await;
    assert_eq!(st, 400, "{e}");
    let long = json!({"name": "Ben", "reason": "other", "text": "x".repeat(501)});
    let (st, _) = post(addr, "/api/reports", &ana, long).await;
    assert_eq!(st, 400);
    for _ in 0..3 {
        let (st, r) = post(addr, "/api/reports", &ana, report.clone()).await;
        assert_eq!(st, 201, "{r}");
    }
    let (st, e) = post(addr, "/api/reports", &ana, report).await;
    assert_eq!(st, 429, "{e}");
}

/// The moderation API answers 403 to anyone but a moderator.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_moderator_gets_403_from_the_moderation_api() {
    let ts = start("moderation").await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let _ben = account(addr, "Ben").await;
    let g = guest(addr, "Gus").await;
    for t in [&ana, &g] {
        let (st, _) = get(addr, "/api/moderation/reports", Some(t)).await;
        assert_eq!(st, 403);
        for body in [
            json!({"action": "close"}),
            json!({"action": "mark", "note": "x"}),
        ] {
            let (st, _) = post(addr, "/api/moderation/accounts/Ben", t, body).await;
            assert_eq!(st, 403);
        }
    }
    let (st, _) = get(addr, "/api/moderation/reports", None).await;
    assert_eq!(st, 401);
    // Ben was not closed: he still has a profile and can be reported.
    let (st, _) = get(addr, "/api/players/Ben", None).await;
    assert_eq!(st, 200);
}

/// The rating change is stored with the result: a restarted server has both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rating_update_survives_a_restart_with_the_result() {
    let time = Arc::new(ManualTime::default());
    let ts = start_with("rating-restart", lenient(&time), time).await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let ben = account(addr, "Ben").await;
    let (game, _wa, mut wb) = banqi_game(addr, &ana, &ben, true).await;
    act(&mut wb, json!({"t": "resign", "game": game})).await;
    let (_, before) = get(addr, "/api/players/Ana", None).await;
    let (_, lb) = get(addr, "/api/leaderboard/banqi", None).await;
    ts.server.stop();
    let again = Server::start("127.0.0.1:0".parse().unwrap(), &ts.db, lenient(&ts.time))
        .await
        .unwrap();
    let a2 = again.addr;
    let (_, after) = get(a2, "/api/players/Ana", None).await;
    assert_eq!(before["ratings"], after["ratings"]);
    assert!(after["ratings"]["banqi"]["rating"].as_i64().unwrap() > 1500);
    let (_, lb2) = get(a2, "/api/leaderboard/banqi", None).await;
    assert_eq!(lb["players"], lb2["players"]);
    let (_, g) = get(a2, &format!("/api/games/{game}"), None).await;
    assert_eq!(g["result"]["winner"], "first");
    // The next rated game starts from the stored rating.
    let (game2, _, _) = banqi_game(a2, &ana, &ben, true).await;
    let (_, g2) = get(a2, &format!("/api/games/{game2}"), None).await;
    assert_eq!(
        g2["players"]["first"]["rating"],
        after["ratings"]["banqi"]["rating"]
    );
    again.stop();
}

/// Ratings change only at the end, from the result: during the game every recipient (each
/// seat, a spectator) sees the same rating facts, the same as before the first move, and
/// the profiles do not move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_in_the_rating_json_depends_on_hidden_pieces() {
    let ts = start("rating-noleak").await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let ben = account(addr, "Ben").await;
    let (game, mut wa, mut wb) = banqi_game(addr, &ana, &ben, true).await;
    let (_, start_info) = get(addr, &format!("/api/games/{game}"), None).await;
    let (_, profile) = get(addr, "/api/players/Ana", None).await;
    // A few plies: flips reveal pieces.
    for ply in 0..6 {
        let ws = if ply % 2 == 0 { &mut wa } else { &mut wb };
        let l = ws.latest("legal").await.unwrap();
        let mv = l["moves"][0].as_str().unwrap().to_string();
        act(ws, json!({"t": "move", "game": game, "move": mv})).await;
    }
    let (_, info) = get(addr, &format!("/api/games/{game}"), None).await;
    assert_eq!(info["players"], start_info["players"]);
    assert_eq!(info["rated"], true);
    assert!(info.get("ratings").is_none());
    let mut views = Vec::new();
    for t in [None, Some(&ana), Some(&ben)] {
        let token = match t {
            None => None,
            Some(t) => {
                let (_, s) = get(addr, &format!("/api/games/{game}/seat"), Some(t)).await;
                Some(s["seat_token"].as_str().unwrap().to_string())
            }
        };
        let (_, sync) = join(addr, &game, token.as_deref()).await;
        views.push((
            sync["state"]["players"].clone(),
            sync["state"]["rated"].clone(),
        ));
    }
    assert!(views.iter().all(|v| *v == views[0]), "{views:?}");
    assert_eq!(views[0].0, start_info["players"]);
    let (_, p) = get(addr, "/api/players/Ana", None).await;
    assert_eq!(p["ratings"], profile["ratings"]);
    // The end's rating changes are one public fact, the same for everyone.
    act(&mut wb, json!({"t": "resign", "game": game})).await;
    let ea = event(&mut wa, "end").await;
    let eb = event(&mut wb, "end").await;
    assert_eq!(ea["e"]["ratings"], eb["e"]["ratings"]);
    assert!(ea["e"]["ratings"]["first"]["diff"].as_i64().unwrap() > 0);
}

/// A bot game on a board against an account moves the bot's rating only; the bot has an
/// account of its own with a profile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_game_moves_only_the_bots_rating() {
    let ts = start("bot-rating").await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let (st, g) = post(
        addr,
        "/api/bot-games",
        &ana,
        json!({"game": "banqi", "bot": "greedy", "seat": "first"}),
    )
    .await;
    assert_eq!(st, 200, "{g}");
    let game = g["game"].as_str().unwrap().to_string();
    let (_, info) = get(addr, &format!("/api/games/{game}"), None).await;
    assert_eq!(info["rated"], false, "the player's rating does not move");
    assert_eq!(info["players"]["second"]["account"], true);
    assert_eq!(info["players"]["second"]["rating"], 1500);
    let (mut ws, _) = join(addr, &game, g["seat_token"].as_str()).await;
    act(&mut ws, json!({"t": "resign", "game": game})).await;
    let end = event(&mut ws, "end").await;
    let r = &end["e"]["ratings"];
    assert!(r.get("first").is_none(), "{end}");
    assert!(r["second"]["diff"].as_i64().unwrap() > 0, "{end}");
    let (st, bot) = get(addr, "/api/players/greedy", None).await;
    assert_eq!(st, 200, "{bot}");
    assert_eq!(bot["bot"], true);
    assert_eq!(bot["ratings"]["banqi"]["wins"], 1);
    let (_, p) = get(addr, "/api/players/Ana", None).await;
    assert_eq!(p["ratings"], json!({}), "{p}");
    assert_eq!(p["record"]["banqi"]["losses"], 1);
    let (_, h) = get(addr, "/api/players/Ana/games", None).await;
    assert_eq!(h["games"][0]["rated"], false);
    assert_eq!(h["games"][0]["opponent"], "bot greedy");
    // A guest's bot game rates nobody.
    let gus = guest(addr, "Gus").await;
    let (_, g) = post(
        addr,
        "/api/bot-games",
        &gus,
        json!({"game": "banqi", "bot": "greedy"}),
    )
    .await;
    let (_, info) = get(
        addr,
        &format!("/api/games/{}", g["game"].as_str().unwrap()),
        None,
    )
    .await;
    let bot_seat = info["players"]
        .as_object()
        .unwrap()
        .values()
        .find(|p| p["bot"] == "greedy")
        .unwrap()
        .clone();
    assert_eq!(bot_seat["rating"], Value::Null);
}

/// A moderator (named with `salpakan admin`) reads the reports, marks an account (its mark
/// shows to moderators only) and closes it (it leaves the leaderboard).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moderator_reads_reports_marks_and_closes_accounts() {
    let time = Arc::new(ManualTime::default());
    let config = Config {
        sweep_ms: 50,
        ..lenient(&time)
    };
    let ts = start_with("moderator", config, time).await;
    let addr = ts.addr();
    let m = account(addr, "Mod").await;
    let ana = account(addr, "Ana").await;
    let ben = account(addr, "Ben").await;
    let (game, _wa, mut wb) = banqi_game(addr, &ana, &ben, true).await;
    act(&mut wb, json!({"t": "resign", "game": game})).await;
    let (st, _) = post(
        addr,
        "/api/reports",
        &ben,
        json!({"name": "Ana", "game": game, "reason": "abuse", "text": "rude in chat"}),
    )
    .await;
    assert_eq!(st, 201);
    let db = ts.db.clone();
    tokio::task::spawn_blocking(move || {
        salpakan_server::account::admin::moderator(&db, "Mod", true)
    })
    .await
    .unwrap()
    .unwrap();
    let mut reports = Value::Null;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let (st, r) = get(addr, "/api/moderation/reports", Some(&m)).await;
        if st == 200 {
            reports = r;
            break;
        }
    }
    assert_eq!(reports["reports"][0]["name"], "Ana", "{reports}");
    assert_eq!(reports["reports"][0]["by"], "Ben");
    assert_eq!(reports["reports"][0]["reason"], "abuse");
    assert_eq!(reports["reports"][0]["text"], "rude in chat");
    let (st, v) = post(
        addr,
        "/api/moderation/accounts/Ana",
        &m,
        json!({"action": "mark", "note": "warned"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let (_, p) = get(addr, "/api/players/Ana", Some(&m)).await;
    assert_eq!(p["marked"], "warned");
    let (_, p) = get(addr, "/api/players/Ana", Some(&ben)).await;
    assert!(p.get("marked").is_none());
    let (_, lb) = get(addr, "/api/leaderboard/banqi", None).await;
    assert_eq!(lb["players"][0]["name"], "Ana", "{lb}");
    let (st, v) = post(
        addr,
        "/api/moderation/accounts/Ana",
        &m,
        json!({"action": "close"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let (_, lb) = get(addr, "/api/leaderboard/banqi", None).await;
    assert_eq!(lb["players"].as_array().unwrap().len(), 1, "{lb}");
    assert_eq!(lb["players"][0]["name"], "Ben");
    let (st, _) = get(addr, "/api/me", Some(&ana)).await;
    assert_eq!(st, 401, "a closed account's tokens end");
}

/// A deleted account leaves the leaderboards and its profile; its opponents' histories
/// show it under the neutral name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_account_leaves_the_leaderboard_and_shows_as_deleted_player() {
    let time = Arc::new(ManualTime::default());
    let ts = start_with("deleted", lenient(&time), time).await;
    let addr = ts.addr();
    let ana = account(addr, "Ana").await;
    let (ben, ben_cookie) = account_and_cookie(addr, "Ben").await;
    let (game, _wa, mut wb) = banqi_game(addr, &ana, &ben, true).await;
    act(&mut wb, json!({"t": "resign", "game": game})).await;
    let (_, lb) = get(addr, "/api/leaderboard/banqi", None).await;
    assert_eq!(lb["players"].as_array().unwrap().len(), 2, "{lb}");
    let (st, _, v) = with_cookie(
        addr,
        "DELETE",
        "/api/account",
        Some(&ben_cookie),
        &json!({"password": "correct horse battery"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let (_, lb) = get(addr, "/api/leaderboard/banqi", None).await;
    assert_eq!(lb["players"].as_array().unwrap().len(), 1, "{lb}");
    assert_eq!(lb["players"][0]["name"], "Ana");
    let (st, _) = get(addr, "/api/players/Ben", None).await;
    assert_eq!(st, 404);
    let (_, h) = get(addr, "/api/players/Ana/games", None).await;
    assert_eq!(h["games"][0]["opponent"], "deleted player", "{h}");
    assert_eq!(
        h["games"][0]["opponent_account"], false,
        "no profile to link to: {h}"
    );
}
