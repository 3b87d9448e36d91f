//! Accounts over the real HTTP and WebSocket API: registration, login, sessions (the
//! cookie), API tokens, names, limits, cross-site refusals, a guest becoming an account,
//! deletion, `salpakan admin` on a running server, and the upgrade of a database written
//! by release 0.1.

mod common;

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, OnceLock};

use common::{act, game_between, guest, join, start, start_with};
use salpakan_client::{Ws, http};
use salpakan_server::{Config, ManualTime};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Every log line of this test process (see [`Capture`]).
static LOGS: OnceLock<Arc<Mutex<String>>> = OnceLock::new();

/// A tracing subscriber that keeps every event's fields as text, so that a test can look
/// for secrets in what the server logs.
struct Capture(Arc<Mutex<String>>);

struct Fields<'a>(&'a mut String);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        use std::fmt::Write;
        let _ = write!(self.0, " {}={value:?}", field.name());
    }
}

impl tracing::Subscriber for Capture {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut line = String::new();
        event.record(&mut Fields(&mut line));
        let mut logs = self.0.lock().unwrap();
        logs.push_str(&line);
        logs.push('\n');
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// Installs the capturing subscriber for the whole process (once) and returns the log.
fn logs() -> Arc<Mutex<String>> {
    LOGS.get_or_init(|| {
        let l = Arc::new(Mutex::new(String::new()));
        let _ = tracing::subscriber::set_global_default(Capture(l.clone()));
        l
    })
    .clone()
}

/// One HTTP request with extra headers, from `from` (a loopback address): the status, the
/// response's headers (lower case names) and the JSON body.
async fn req(
    addr: SocketAddr,
    from: Option<IpAddr>,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> (u16, Vec<(String, String)>, Value) {
    let mut s = match from {
        Some(ip) => salpakan_client::tcp_from(ip, addr).await.unwrap(),
        None => tokio::net::TcpStream::connect(addr).await.unwrap(),
    };
    let body = body.map(Value::to_string).unwrap_or_default();
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    let r = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(r.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let hs: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = hs
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    let v = serde_json::from_str(&body).unwrap_or(Value::String(body));
    (status, hs, v)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// The session cookie a response set (`salpakan_session=<value>`), and its attributes.
fn set_cookie(headers: &[(String, String)]) -> Option<(String, String)> {
    headers
        .iter()
        .find(|(k, v)| k == "set-cookie" && v.starts_with("salpakan_session="))
        .map(|(_, v)| {
            let (pair, attrs) = v.split_once(';').unwrap_or((v, ""));
            (pair.to_string(), attrs.to_string())
        })
}

/// `Cookie: salpakan_session=…`.
fn cookie(c: &str) -> [(&str, &str); 1] {
    [("Cookie", c)]
}

/// Registers `name` (with a guest's token when given): the cookie pair and the answer.
async fn register(
    addr: SocketAddr,
    name: &str,
    password: &str,
    guest: Option<&str>,
) -> (String, Value) {
    let auth = guest.map(|t| format!("Bearer {t}"));
    let mut hs = Vec::new();
    if let Some(a) = &auth {
        hs.push(("Authorization", a.as_str()));
    }
    let (st, h, v) = req(
        addr,
        None,
        "POST",
        "/api/accounts",
        &hs,
        Some(&json!({"name": name, "password": password})),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    (set_cookie(&h).expect("a session cookie").0, v)
}

async fn login(addr: SocketAddr, name: &str, password: &str) -> (u16, Option<String>, Value) {
    let (st, h, v) = req(
        addr,
        None,
        "POST",
        "/api/session",
        &[],
        Some(&json!({"name": name, "password": password})),
    )
    .await;
    (st, set_cookie(&h).map(|c| c.0), v)
}

async fn me(addr: SocketAddr, c: &str) -> (u16, Value) {
    let (st, _, v) = req(addr, None, "GET", "/api/me", &cookie(c), None).await;
    (st, v)
}

/// Registering answers 201 with the account and sets an HttpOnly, SameSite=Lax session
/// cookie; logging in makes a second session; logging out ends this device's session only;
/// `everywhere` ends them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn register_login_logout_here_and_everywhere() {
    logs();
    let s = start("acc-sessions").await;
    let (st, h, v) = req(
        s.addr(),
        None,
        "POST",
        "/api/accounts",
        &[],
        Some(&json!({"name": "Ana", "password": "correct horse"})),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    assert_eq!(v["name"], "Ana");
    assert_eq!(v["account"], true);
    let (c1, attrs) = set_cookie(&h).unwrap();
    for a in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] {
        assert!(attrs.contains(a), "{attrs} lacks {a}");
    }
    assert!(
        !attrs.contains("Secure"),
        "no Secure without --secure-cookies"
    );
    let (st, m) = me(s.addr(), &c1).await;
    assert_eq!(st, 200, "{m}");
    assert_eq!(m["id"], v["id"]);
    assert_eq!(m["account"], true);
    assert_eq!(m["moderator"], false);
    // Another device, by name in another case.
    let (st, c2, l) = login(s.addr(), "ANA", "correct horse").await;
    assert_eq!(st, 200, "{l}");
    assert_eq!(l["id"], v["id"]);
    let c2 = c2.unwrap();
    assert_ne!(c1, c2);
    // This device logs out: its cookie is cleared and stops working; the other stays.
    let (st, h, _) = req(s.addr(), None, "DELETE", "/api/session", &cookie(&c1), None).await;
    assert_eq!(st, 200);
    assert!(set_cookie(&h).unwrap().1.contains("Max-Age=0"));
    assert_eq!(me(s.addr(), &c1).await.0, 401);
    assert_eq!(me(s.addr(), &c2).await.0, 200);
    // Everywhere: every session ends.
    let (_, c3, _) = login(s.addr(), "Ana", "correct horse").await;
    let c3 = c3.unwrap();
    let (st, _, v) = req(
        s.addr(),
        None,
        "DELETE",
        "/api/session?everywhere=true",
        &cookie(&c2),
        None,
    )
    .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(me(s.addr(), &c2).await.0, 401);
    assert_eq!(me(s.addr(), &c3).await.0, 401);
    // A server started again on the same file knows the account and its sessions.
    let (_, c4, _) = login(s.addr(), "Ana", "correct horse").await;
    let c4 = c4.unwrap();
    s.server.stop();
    let again = salpakan_server::Server::start(
        "127.0.0.1:0".parse().unwrap(),
        &s.db,
        common::config(&s.time),
    )
    .await
    .unwrap();
    assert_eq!(me(again.addr, &c4).await.0, 200);
    let (st, _, _) = login(again.addr, "Ana", "correct horse").await;
    assert_eq!(st, 200);
    again.stop();
}

/// A wrong password and an unknown name get the same 401 with the same sentence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_answers_exactly_like_an_unknown_name() {
    logs();
    let s = start("acc-wrong").await;
    register(s.addr(), "Ana", "correct horse", None).await;
    let (st1, c1, wrong) = login(s.addr(), "Ana", "wrong horse!").await;
    let (st2, c2, unknown) = login(s.addr(), "Nobody", "wrong horse!").await;
    assert_eq!((st1, st2), (401, 401));
    assert_eq!(wrong, unknown);
    assert_eq!(wrong["error"], "wrong name or password");
    assert!(c1.is_none() && c2.is_none());
}

/// Names are unique ignoring case and look-alike characters; the rules refuse mixed
/// scripts, bad characters and lengths, and short passwords; a refused registration
/// creates nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_taken_by_case_or_look_alike_and_names_against_the_rules_are_refused() {
    logs();
    let s = start("acc-names").await;
    register(s.addr(), "Ana", "correct horse", None).await;
    register(s.addr(), "ABC", "correct horse", None).await;
    register(s.addr(), "lol", "correct horse", None).await;
    let post = |name: &str, password: &str| {
        let body = json!({"name": name, "password": password});
        let addr = s.addr();
        async move {
            http(addr, "POST", "/api/accounts", None, Some(&body))
                .await
                .unwrap()
        }
    };
    for taken in ["ana", "ANA", "\u{410}\u{412}\u{421}", "l0l", "LOL"] {
        let (st, v) = post(taken, "another horse").await;
        assert_eq!(st, 409, "{taken}: {v}");
        assert_eq!(v["error"], "that name is taken");
    }
    // Mixed Latin and Cyrillic, a space, too short, too long.
    for bad in ["An\u{430}", "A na", "A", "abcdefghijklmnopqrstu"] {
        let (st, v) = post(bad, "another horse").await;
        assert_eq!(st, 400, "{bad}: {v}");
    }
    let (st, v) = post("Ben", "short").await;
    assert_eq!(st, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("8 to 128"));
    // Nothing was created by the refusals: Ben is free.
    register(s.addr(), "Ben", "correct horse", None).await;
}

/// A guest with a game in progress registers: same id, the game and its seat token stay
/// its own, and it plays on; its guest token no longer works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_who_registers_keeps_its_game_in_progress_and_plays_on() {
    logs();
    let s = start("acc-upgrade").await;
    let a = guest(s.addr(), "Guest A").await;
    let b = guest(s.addr(), "Guest B").await;
    let (game, [ta, _]) = game_between(s.addr(), &a, &b, "banqi", json!({}), Value::Null).await;
    let (_, before) = http(s.addr(), "GET", "/api/me", Some(&a), None)
        .await
        .unwrap();
    let (c, v) = register(s.addr(), "Ana", "correct horse", Some(&a)).await;
    assert_eq!(v["id"], before["id"], "the guest keeps its id");
    let (st, m) = me(s.addr(), &c).await;
    assert_eq!(st, 200);
    assert_eq!(m["account"], true);
    assert_eq!(m["games"][0]["game"], game.as_str());
    assert_eq!(
        m["games"][0]["seat_token"],
        ta.as_str(),
        "the seat token stays"
    );
    let (st, _) = http(s.addr(), "GET", "/api/me", Some(&a), None)
        .await
        .unwrap();
    assert_eq!(st, 401, "the guest token stops working");
    // The first seat plays a legal move with its old seat token.
    let (mut w, _) = join(s.addr(), &game, Some(&ta)).await;
    let legal = w.until("legal").await.unwrap();
    let mv = legal["moves"][0].as_str().unwrap().to_string();
    act(&mut w, json!({"t": "move", "game": game, "move": mv})).await;
}

/// An API token is shown once, authenticates HTTP and the WebSocket's `hello`, is listed
/// without its secret, and stops working once revoked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_tokens_are_shown_once_and_revocable() {
    logs();
    let s = start("acc-tokens").await;
    let (c, acc) = register(s.addr(), "Bot_maker", "correct horse", None).await;
    let (st, _, t) = req(
        s.addr(),
        None,
        "POST",
        "/api/account/tokens",
        &cookie(&c),
        Some(&json!({"name": "my bot"})),
    )
    .await;
    assert_eq!(st, 201, "{t}");
    let token = t["token"].as_str().unwrap().to_string();
    let (st, _, list) = req(
        s.addr(),
        None,
        "GET",
        "/api/account/tokens",
        &cookie(&c),
        None,
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(list["tokens"].as_array().unwrap().len(), 1);
    assert_eq!(list["tokens"][0]["name"], "my bot");
    assert_eq!(list["tokens"][0]["id"], t["id"]);
    assert!(
        !list.to_string().contains(&token),
        "the token is shown once"
    );
    let (st, m) = http(s.addr(), "GET", "/api/me", Some(&token), None)
        .await
        .unwrap();
    assert_eq!(st, 200);
    assert_eq!(m["id"], acc["id"]);
    let mut w = Ws::connect(s.addr()).await.unwrap();
    w.send(&json!({"v": 1, "t": "hello", "token": token}))
        .await
        .unwrap();
    let welcome = w.until("welcome").await.unwrap();
    assert_eq!(welcome["name"], "Bot_maker");
    let path = format!("/api/account/tokens/{}", t["id"].as_str().unwrap());
    let (st, _, _) = req(s.addr(), None, "DELETE", &path, &cookie(&c), None).await;
    assert_eq!(st, 200);
    let (st, _) = http(s.addr(), "GET", "/api/me", Some(&token), None)
        .await
        .unwrap();
    assert_eq!(st, 401);
    let (st, _, _) = req(s.addr(), None, "DELETE", &path, &cookie(&c), None).await;
    assert_eq!(st, 404, "a revoked token is gone");
    // A guest has no tokens to manage.
    let g = guest(s.addr(), "G").await;
    let (st, _) = http(s.addr(), "GET", "/api/account/tokens", Some(&g), None)
        .await
        .unwrap();
    assert_eq!(st, 403);
}

/// A deleted account's games stay, shown under "deleted player" (a finished game, and one
/// in progress that the deletion resigns); its password no longer logs in, and its name
/// may be registered again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_accounts_games_show_deleted_player_and_its_name_is_free() {
    logs();
    let s = start("acc-delete").await;
    let ga = guest(s.addr(), "A").await;
    let gb = guest(s.addr(), "B").await;
    let (c_ana, _) = register(s.addr(), "Ana", "correct horse", Some(&ga)).await;
    register(s.addr(), "Ben", "correct horse", Some(&gb)).await;
    // The guests' tokens died at registration: games are made with API tokens.
    let token = |c: String| {
        let addr = s.addr();
        async move {
            let (_, _, t) = req(
                addr,
                None,
                "POST",
                "/api/account/tokens",
                &cookie(&c),
                Some(&json!({"name": "t"})),
            )
            .await;
            t["token"].as_str().unwrap().to_string()
        }
    };
    let ta = token(c_ana.clone()).await;
    let (_, c_ben, _) = login(s.addr(), "Ben", "correct horse").await;
    let tb = token(c_ben.unwrap()).await;
    let (finished, [sa, _]) =
        game_between(s.addr(), &ta, &tb, "banqi", json!({}), Value::Null).await;
    let (mut w, _) = join(s.addr(), &finished, Some(&sa)).await;
    act(&mut w, json!({"t": "resign", "game": finished})).await;
    let (playing, _) = game_between(s.addr(), &ta, &tb, "banqi", json!({}), Value::Null).await;
    let (st, _, v) = req(
        s.addr(),
        None,
        "DELETE",
        "/api/account",
        &cookie(&c_ana),
        Some(&json!({"password": "wrong horse!"})),
    )
    .await;
    assert_eq!(st, 403, "{v}");
    let (st, _, v) = req(
        s.addr(),
        None,
        "DELETE",
        "/api/account",
        &cookie(&c_ana),
        Some(&json!({"password": "correct horse"})),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    for g in [&finished, &playing] {
        let (_, summary) = http(s.addr(), "GET", &format!("/api/games/{g}"), None, None)
            .await
            .unwrap();
        let names: Vec<&str> = summary["players"]
            .as_object()
            .unwrap()
            .values()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"deleted player"), "{summary}");
        assert!(names.contains(&"Ben"), "{summary}");
        assert!(!summary.to_string().contains("\"Ana\""), "{summary}");
        assert_eq!(summary["status"], "ended", "{summary}");
    }
    let (st, _) = http(s.addr(), "GET", "/api/me", Some(&ta), None)
        .await
        .unwrap();
    assert_eq!(st, 401, "its API tokens end");
    assert_eq!(me(s.addr(), &c_ana).await.0, 401, "its sessions end");
    assert_eq!(login(s.addr(), "Ana", "correct horse").await.0, 401);
    // The record (full once over) names the deleted player, not the name.
    let (_, rec) = http(
        s.addr(),
        "GET",
        &format!("/api/games/{finished}/record"),
        None,
        None,
    )
    .await
    .unwrap();
    let rec = rec.as_str().unwrap_or_default();
    assert!(!rec.contains("Ana"), "{rec}");
    // Stored: a server started again shows the same.
    s.server.stop();
    let again = salpakan_server::Server::start(
        "127.0.0.1:0".parse().unwrap(),
        &s.db,
        common::config(&s.time),
    )
    .await
    .unwrap();
    let (_, summary) = http(
        again.addr,
        "GET",
        &format!("/api/games/{finished}"),
        None,
        None,
    )
    .await
    .unwrap();
    assert!(summary.to_string().contains("deleted player"), "{summary}");
    register(again.addr, "Ana", "another horse", None).await;
    again.stop();
}

/// Login is limited per address and per name, registration also per address and hour:
/// over a limit a 429 names it; another address and another name are not affected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_are_rate_limited_per_address_and_per_name() {
    logs();
    let time = Arc::new(ManualTime::default());
    let config = Config {
        logins_per_minute: 3,
        accounts_per_hour: 2,
        ..common::config(&time)
    };
    let s = start_with("acc-limits", config, time).await;
    let from = |n: u8| Some(IpAddr::from([127, 0, 0, n]));
    let body = |name: &str| json!({"name": name, "password": "wrong horse!"});
    // Per address: three tries (any names), then 429.
    for n in ["a1", "a2", "a3"] {
        let (st, _, _) = req(
            s.addr(),
            from(2),
            "POST",
            "/api/session",
            &[],
            Some(&body(n)),
        )
        .await;
        assert_eq!(st, 401);
    }
    let (st, _, v) = req(
        s.addr(),
        from(2),
        "POST",
        "/api/session",
        &[],
        Some(&body("a4")),
    )
    .await;
    assert_eq!(st, 429, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("from your address"),
        "{v}"
    );
    // Registration from that address is limited too.
    let (st, _, _) = req(
        s.addr(),
        from(2),
        "POST",
        "/api/accounts",
        &[],
        Some(&json!({"name": "Newcomer", "password": "correct horse"})),
    )
    .await;
    assert_eq!(st, 429);
    // Per name: three tries from three addresses, then 429 from a fourth.
    for n in 3..6 {
        let (st, _, _) = req(
            s.addr(),
            from(n),
            "POST",
            "/api/session",
            &[],
            Some(&body("Ana")),
        )
        .await;
        assert_eq!(st, 401);
    }
    let (st, _, v) = req(
        s.addr(),
        from(6),
        "POST",
        "/api/session",
        &[],
        Some(&body("ana")),
    )
    .await;
    assert_eq!(st, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("to this name"), "{v}");
    // Registrations per address and hour: two, then 429.
    for n in ["Reg1", "Reg2"] {
        let b = json!({"name": n, "password": "correct horse"});
        let (st, _, v) = req(s.addr(), from(8), "POST", "/api/accounts", &[], Some(&b)).await;
        assert_eq!(st, 201, "{v}");
    }
    let b = json!({"name": "Reg3", "password": "correct horse"});
    let (st, _, v) = req(s.addr(), from(8), "POST", "/api/accounts", &[], Some(&b)).await;
    assert_eq!(st, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("an hour"), "{v}");
    // A fresh address and name are untouched.
    let (st, _, _) = req(
        s.addr(),
        from(7),
        "POST",
        "/api/session",
        &[],
        Some(&body("Other")),
    )
    .await;
    assert_eq!(st, 401);
}

/// A request from another site's page (its `Origin`) that would act with the session
/// cookie is refused, as is a WebSocket upgrade carrying the cookie; the server's own
/// origin, and a Bearer token, are accepted. The upgrade's cookie authenticates `hello`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cross_site_cookie_post_and_websocket_upgrade_are_refused() {
    logs();
    let s = start("acc-origin").await;
    let (c, acc) = register(s.addr(), "Ana", "correct horse", None).await;
    let seek = json!({"game": "banqi"});
    let evil = ("Origin", "https://evil.example");
    let own = format!("http://{}", s.addr());
    let (st, _, v) = req(
        s.addr(),
        None,
        "POST",
        "/api/seeks",
        &[cookie(&c)[0], evil],
        Some(&seek),
    )
    .await;
    assert_eq!(st, 403, "{v}");
    let (st, _, v) = req(
        s.addr(),
        None,
        "DELETE",
        "/api/session",
        &[cookie(&c)[0], ("Origin", "null")],
        None,
    )
    .await;
    assert_eq!(st, 403, "{v}");
    assert_eq!(
        me(s.addr(), &c).await.0,
        200,
        "the refused logout changed nothing"
    );
    let (st, _, v) = req(
        s.addr(),
        None,
        "POST",
        "/api/seeks",
        &[cookie(&c)[0], ("Origin", &own)],
        Some(&seek),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["seek"]["by_id"], acc["id"]);
    // Reading is not refused (a browser does not let another site read the answer).
    let (st, _, _) = req(
        s.addr(),
        None,
        "GET",
        "/api/me",
        &[cookie(&c)[0], evil],
        None,
    )
    .await;
    assert_eq!(st, 200);
    // The WebSocket: refused with the cookie from another site, accepted from this one.
    let ws_req = |origin: &str| {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut r = format!("ws://{}/ws", s.addr())
            .into_client_request()
            .unwrap();
        r.headers_mut().insert("Cookie", c.parse().unwrap());
        r.headers_mut().insert("Origin", origin.parse().unwrap());
        r
    };
    let refused = tokio_tungstenite::connect_async(ws_req("https://evil.example")).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403),
        other => panic!("expected a 403, got {other:?}"),
    }
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_req(&own))
        .await
        .unwrap();
    use futures_util::{SinkExt, StreamExt};
    ws.send(tokio_tungstenite::tungstenite::Message::Text(
        json!({"v": 1, "t": "hello"}).to_string().into(),
    ))
    .await
    .unwrap();
    let welcome = loop {
        let m = ws.next().await.unwrap().unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = m {
            break serde_json::from_str::<Value>(&t).unwrap();
        }
    };
    assert_eq!(welcome["t"], "welcome", "{welcome}");
    assert_eq!(welcome["user"], acc["id"]);
}

/// Passwords (and session cookies) never reach the log, whatever happens to them:
/// registration, a wrong login, a password change, a deletion.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passwords_never_reach_the_log() {
    let log = logs();
    let s = start("acc-logs").await;
    let (c, _) = register(s.addr(), "Loggy", "first-secret-pw", None).await;
    login(s.addr(), "Loggy", "second-secret-pw").await;
    login(s.addr(), "Nobody", "third-secret-pw").await;
    let (st, _, v) = req(
        s.addr(),
        None,
        "POST",
        "/api/account/password",
        &cookie(&c),
        Some(&json!({"old": "first-secret-pw", "new": "fourth-secret-pw"})),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let (st, _, _) = login(s.addr(), "Loggy", "first-secret-pw").await;
    assert_eq!(st, 401, "the old password no longer logs in");
    let (st, _, _) = login(s.addr(), "Loggy", "fourth-secret-pw").await;
    assert_eq!(st, 200);
    let (st, _, _) = req(
        s.addr(),
        None,
        "DELETE",
        "/api/account",
        &cookie(&c),
        Some(&json!({"password": "fourth-secret-pw"})),
    )
    .await;
    assert_eq!(st, 200);
    let text = log.lock().unwrap().clone();
    assert!(
        text.contains("account registered"),
        "the log is captured: {text}"
    );
    assert!(text.contains("password changed"));
    for secret in [
        "first-secret-pw",
        "second-secret-pw",
        "third-secret-pw",
        "fourth-secret-pw",
    ] {
        assert!(!text.contains(secret), "{secret} was logged");
    }
    let value = c.split_once('=').unwrap().1;
    assert!(!text.contains(value), "a session cookie was logged");
}

/// `salpakan admin` writes the database a server is running on, and the server picks the
/// change up: a moderator flag, a note, and closing an account (which ends its sessions
/// and refuses its logins).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_changes_reach_a_running_server() {
    logs();
    let time = Arc::new(ManualTime::default());
    let config = Config {
        sweep_ms: 50,
        ..common::config(&time)
    };
    let s = start_with("acc-admin", config, time).await;
    let (c, _) = register(s.addr(), "Mod", "correct horse", None).await;
    let (c2, _) = register(s.addr(), "Troll", "correct horse", None).await;
    let db = s.db.clone();
    let name = tokio::task::spawn_blocking(move || {
        salpakan_server::account::admin::moderator(&db, "mod", true)
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(name, "Mod");
    let db = s.db.clone();
    tokio::task::spawn_blocking(move || {
        salpakan_server::account::admin::mark(&db, "Troll", "spams chat").unwrap();
        salpakan_server::account::admin::close(&db, "Troll").unwrap();
        assert!(salpakan_server::account::admin::close(&db, "Nobody").is_err());
    })
    .await
    .unwrap();
    let mut picked = false;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        if me(s.addr(), &c).await.1["moderator"] == true && me(s.addr(), &c2).await.0 == 401 {
            picked = true;
            break;
        }
    }
    assert!(picked, "the running server picked the changes up");
    let (st, _, v) = login(s.addr(), "Troll", "correct horse").await;
    assert_eq!(st, 403, "{v}");
    assert_eq!(
        s.server
            .app
            .accounts
            .by_name("troll")
            .unwrap()
            .mark
            .as_deref(),
        Some("spams chat")
    );
}

/// The database of release 0.1 (tests/fixtures/release-0.1.db, see make_release_0_1.py)
/// opens in this server: it is migrated to the latest schema version, the finished game is
/// there with its result, the game in progress continues with a legal move, the guests are
/// still who they were, and the arbiter table is there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_release_0_1_database_upgrades_without_losing_a_game() {
    logs();
    let dir = common::temp_dir("acc-fixture");
    let db = dir.join("release-0.1.db");
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(fixtures.join("release-0.1.db"), &db).unwrap();
    let facts: Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("release-0.1.json")).unwrap())
            .unwrap();
    let version = |db: &std::path::Path| -> u32 {
        let c = rusqlite::Connection::open(db).unwrap();
        c.query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(version(&db), 0, "release 0.1 wrote version 0");
    let time = Arc::new(ManualTime::default());
    let s = start_with_db(&db, common::config(&time)).await;
    assert!(version(&db) >= 1, "migrated");
    let guests = &facts["guests"];
    // The finished game, with its result.
    let finished = facts["finished"].as_str().unwrap();
    let (st, g) = http(s.addr, "GET", &format!("/api/games/{finished}"), None, None)
        .await
        .unwrap();
    assert_eq!(st, 200, "{g}");
    assert_eq!(g["status"], "ended");
    assert_eq!(g["result"]["reason"], "resignation", "{g}");
    let (_, ended) = http(s.addr, "GET", "/api/games?status=ended", None, None)
        .await
        .unwrap();
    assert!(ended.to_string().contains(finished));
    // The game in progress: its player is still who it was and plays a legal move.
    let playing = facts["in_progress"].as_str().unwrap();
    let (st, g) = http(s.addr, "GET", &format!("/api/games/{playing}"), None, None)
        .await
        .unwrap();
    assert_eq!(st, 200, "{g}");
    assert_eq!(g["status"], "playing", "{g}");
    let mut moved = false;
    for who in ["Cy", "Dee"] {
        let token = guests[who].as_str().unwrap();
        let (st, m) = http(s.addr, "GET", "/api/me", Some(token), None)
            .await
            .unwrap();
        assert_eq!(st, 200, "{m}");
        assert_eq!(m["name"], who);
        assert_eq!(m["account"], false);
        let seat = m["games"][0]["seat_token"].as_str().unwrap().to_string();
        let (mut w, sync) = join(s.addr, playing, Some(&seat)).await;
        let ver = sync["ver"].as_u64().unwrap();
        assert!(ver >= 6, "two setups, a start and four moves: {sync}");
        if let Ok(legal) = w.recv_within(std::time::Duration::from_secs(2)).await {
            if legal["t"] == "legal" {
                let mv = legal["moves"][0].as_str().unwrap().to_string();
                let ack = act(&mut w, json!({"t": "move", "game": playing, "move": mv})).await;
                assert_eq!(ack["ver"].as_u64().unwrap(), ver + 1);
                moved = true;
            }
        }
    }
    assert!(moved, "the seat to move got its legal moves and moved");
    // The arbiter table.
    let table = facts["table"].as_str().unwrap();
    let ben = guests["Ben"].as_str().unwrap();
    let (st, t) = http(
        s.addr,
        "GET",
        &format!("/api/tables/{table}"),
        Some(ben),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{t}");
    // A guest of release 0.1 registers and keeps its finished game.
    let ana = guests["Ana"].as_str().unwrap();
    let (c, acc) = register(s.addr, "Ana", "correct horse", Some(ana)).await;
    let (_, m) = me(s.addr, &c).await;
    assert_eq!(m["id"], acc["id"]);
    assert!(m["games"].to_string().contains(finished), "{m}");
    s.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

async fn start_with_db(db: &std::path::Path, config: Config) -> salpakan_server::Server {
    salpakan_server::Server::start("127.0.0.1:0".parse().unwrap(), db, config)
        .await
        .unwrap()
}

/// A built-in bot's account (for ratings): made once per bot name, marked as a bot, its
/// name taken, and nobody can log in to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_account_is_made_once_and_cannot_be_logged_in_to() {
    logs();
    let s = start("acc-bot").await;
    let accounts = &s.server.app.accounts;
    let a = accounts.bot_account("mcts:ms=300").await.unwrap();
    let b = accounts.bot_account("mcts:ms=300").await.unwrap();
    assert_eq!(a, b);
    assert!(a.account);
    assert!(accounts.info(&a.id).unwrap().bot);
    let (st, _, _) = login(s.addr(), "mcts:ms=300", "").await;
    assert_eq!(st, 401);
    // A person's account name cannot be a bot's.
    register(s.addr(), "greedy", "correct horse", None).await;
    assert!(accounts.bot_account("greedy").await.is_err());
}
