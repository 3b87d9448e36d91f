//! The arbiter protocol, driven through the real binary over stdin/stdout.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Arbiter {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Arbiter {
    fn start() -> Arbiter {
        let mut child = Command::new(env!("CARGO_BIN_EXE_salpakan"))
            .arg("arbiter")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the salpakan binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Arbiter {
            child,
            stdin,
            stdout,
        }
    }

    fn raw(&mut self, line: &str) -> Value {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut answer = String::new();
        self.stdout.read_line(&mut answer).unwrap();
        assert!(answer.ends_with('\n'), "one line per answer");
        serde_json::from_str(&answer).unwrap_or_else(|e| panic!("answer is JSON ({e}): {answer}"))
    }

    fn ask(&mut self, req: Value) -> Value {
        self.raw(&req.to_string())
    }

    fn ok(&mut self, req: Value) -> Value {
        let a = self.ask(req.clone());
        assert_eq!(a["ok"], true, "{req} -> {a}");
        a
    }

    fn refused(&mut self, req: &str) -> String {
        let a = self.raw(req);
        assert_eq!(a["ok"], false, "{req} must be refused: {a}");
        a["error"].as_str().expect("an error message").to_string()
    }
}

impl Drop for Arbiter {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn white_setup() -> Value {
    json!({"a1":"FLG","b1":"PVT","c1":"PVT","d1":"PVT","e1":"PVT","f1":"PVT","g1":"PVT",
           "a2":"SPY","b2":"SPY","c2":"5G","d2":"4G","e2":"3G","f2":"2G","g2":"1G",
           "a3":"COL","b3":"LTC","c3":"MAJ","d3":"CPT","e3":"1LT","f3":"2LT","g3":"SGT"})
}

fn black_setup() -> Value {
    json!({"a8":"FLG","b8":"PVT","c8":"PVT","d8":"PVT","e8":"PVT","f8":"PVT","g8":"PVT",
           "a7":"SPY","b7":"SPY","c7":"5G","d7":"4G","e7":"3G","f7":"2G","g7":"1G",
           "a6":"COL","b6":"LTC","c6":"MAJ","d6":"CPT","e6":"1LT","f6":"2LT","g6":"SGT"})
}

#[test]
fn new_answers_ok_with_commitments_and_legal_lists_from_to_moves() {
    let mut a = Arbiter::start();
    let n = a.ok(json!({"op":"new","game":"generals","seed":7,"id":"g1",
        "setups":{"white":white_setup(),"black":black_setup()}}));
    assert_eq!(n["id"], "g1", "the request id is echoed");
    assert_eq!(n["to_move"], "white");
    assert_eq!(n["commitments"]["WhiteSetup"].as_str().unwrap().len(), 64);
    assert!(
        n.to_string().find("\"ok\"").unwrap() < 5,
        "ok comes first: {n}"
    );
    let l = a.ok(json!({"op":"legal"}));
    let moves: Vec<&str> = l["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(moves.contains(&"d3-d4") && moves.contains(&"g3-h3") && moves.contains(&"g1-h1"));
    assert!(!moves.contains(&"a1-a2"), "a2 holds a friendly piece");
    assert_eq!(moves.len(), 10, "{moves:?}");
}

#[test]
fn play_gives_each_seat_its_own_view_and_never_a_hidden_rank() {
    let mut a = Arbiter::start();
    a.ok(json!({"op":"new","game":"generals","setups":{"white":white_setup(),"black":black_setup()}}));
    for m in ["d3-d4", "d6-d5"] {
        let r = a.ok(json!({"op":"play","move":m}));
        assert_eq!(r["result"], Value::Null);
    }
    // White's Captain challenges Black's Captain: a split.
    let r = a.ok(json!({"op":"play","move":"d4-d5"}));
    assert_eq!(r["views"]["white"]["piece"], "CPT");
    assert_eq!(
        r["views"]["white"]["challenge"]["result"],
        "both_eliminated"
    );
    assert!(
        r["views"]["white"]["challenge"].get("defender").is_none(),
        "{r}"
    );
    assert!(r["views"]["black"].get("piece").is_none(), "{r}");
    assert_eq!(r["views"]["black"]["challenge"]["defender"], "CPT");
    assert_eq!(
        r["views"]["black"]["challenge"]["emptied"],
        json!(["d4", "d5"])
    );
    assert!(!r["spectator"].to_string().contains("CPT"));
    let o = a.ok(json!({"op":"observe","seat":"black"}));
    let board = &o["observation"]["board"];
    assert_eq!(board["a8"]["piece"], "FLG");
    assert!(
        board["a1"].get("piece").is_none(),
        "white's Flag is hidden from black"
    );
    assert!(!o.to_string().contains("5G\"},\"d2") && board["c2"].get("piece").is_none());
}

#[test]
fn record_gives_the_full_record_or_a_seats_copy() {
    let mut a = Arbiter::start();
    a.ok(json!({"op":"new","game":"generals","seed":3,"players":{"white":"Ana","black":"Ben"}}));
    let full = a.ok(json!({"op":"record"}))["record"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        full.contains("[White \"Ana\"]")
            && full.contains("[WhiteSetup \"")
            && full.contains("[BlackSetupSalt")
    );
    let copy = a.ok(json!({"op":"record","seat":"black"}))["record"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(copy.contains("[Copy \"black\"]") && copy.contains("[BlackSetup \""));
    assert!(
        !copy.contains("[WhiteSetup ")
            && !copy.contains("WhiteSetupSalt")
            && copy.contains("[WhiteSetupCommit")
    );
    // A full record loads back.
    let l = a.ok(json!({"op":"load","record":full}));
    assert_eq!(l["game"], "generals");
}

#[test]
fn a_whole_game_plays_to_a_result_and_then_refuses_moves() {
    let mut a = Arbiter::start();
    a.ok(json!({"op":"new","game":"generals","seed":11,"options":{"max_quiet_plies":200}}));
    let mut result = Value::Null;
    for _ in 0..10_000 {
        let l = a.ok(json!({"op":"legal"}));
        let mv = l["moves"][0].as_str().unwrap().to_string();
        let r = a.ok(json!({"op":"play","move":mv}));
        if !r["result"].is_null() {
            result = r["result"].clone();
            break;
        }
    }
    assert!(result["reason"].is_string(), "the game ends: {result}");
    let e = a.refused(r#"{"op":"play","move":"a1-a2"}"#);
    assert!(e.contains("game is over"), "{e}");
    assert_eq!(a.ok(json!({"op":"legal"}))["moves"], json!([]));
}

#[test]
fn bad_requests_of_every_kind_get_a_clear_error_and_change_nothing() {
    let mut a = Arbiter::start();
    assert!(a.refused(r#"{"op":"legal"}"#).contains("no game yet"));
    a.ok(json!({"op":"new","game":"generals","setups":{"white":white_setup(),"black":black_setup()}}));
    let before = a.ok(json!({"op":"observe"}));
    let cases: &[(&str, &str)] = &[
        ("{not json", "not valid JSON"),
        ("[1,2]", "JSON object"),
        (r#"{"move":"e3-e4"}"#, "no \"op\""),
        (r#"{"op":"castle"}"#, "unknown op"),
        (r#"{"op":"play"}"#, "needs \"move\""),
        (r#"{"op":"play","move":"e3e4"}"#, "not a move"),
        (r#"{"op":"play","move":"z3-e4"}"#, "not a square"),
        (r#"{"op":"play","move":"e3-e5"}"#, "one square"),
        (r#"{"op":"play","move":"e6-e5"}"#, "white's turn"),
        (r#"{"op":"play","move":"h3-h4"}"#, "no piece on h3"),
        (r#"{"op":"play","move":"a1-a2"}"#, "your own"),
        (
            r#"{"op":"play","move":"e3-e4","seat":"black"}"#,
            "white's turn",
        ),
        (r#"{"op":"play","move":"e3-e4","seat":"red"}"#, "not a seat"),
        (r#"{"op":"observe","seat":7}"#, "must be a string"),
        (r#"{"op":"new","game":"chess"}"#, "unknown game"),
        (
            r#"{"op":"new","game":"generals","options":{"flag_rule":"never"}}"#,
            "adjacent, one_turn, electronic",
        ),
        (
            r#"{"op":"new","game":"generals","options":{"colour":"red"}}"#,
            "unknown option",
        ),
        (r#"{"op":"new","game":"generals","seed":-1}"#, "seed"),
        (
            r#"{"op":"new","game":"generals","setups":{"white":{"a5":"FLG"}}}"#,
            "a5",
        ),
        (
            r#"{"op":"new","game":"generals","setups":{"green":{}}}"#,
            "not a seat",
        ),
        (
            r#"{"op":"end","reason":"flag_captured","winner":"white"}"#,
            "decided on the board",
        ),
        (r#"{"op":"resign"}"#, "needs \"seat\""),
        (r#"{"op":"load","record":"nonsense"}"#, "line 1"),
    ];
    for (req, want) in cases {
        let e = a.refused(req);
        assert!(e.contains(want), "{req}: {e:?} should mention {want:?}");
        assert_eq!(
            a.ok(json!({"op":"observe"})),
            before,
            "{req} changed the game"
        );
    }
    let huge = format!(r#"{{"op":"play","move":"{}"}}"#, "x".repeat(2 << 20));
    assert!(a.refused(&huge).contains("longer than"));
    assert_eq!(a.ok(json!({"op":"observe"})), before);
    // Invalid UTF-8 gets an error too, and the arbiter keeps serving.
    a.stdin.write_all(b"{\"op\":\"\xff\"}\n").unwrap();
    let mut line = String::new();
    a.stdout.read_line(&mut line).unwrap();
    assert!(line.contains("\"ok\":false"), "{line}");
    a.ok(json!({"op":"legal"}));
}

#[test]
fn resignation_agreement_and_declared_endings_set_the_result() {
    let mut a = Arbiter::start();
    a.ok(json!({"op":"new","game":"generals","seed":1}));
    let r = a.ok(json!({"op":"resign","seat":"white"}));
    assert_eq!(
        r["result"],
        json!({"winner":"black","reason":"resignation"})
    );
    a.ok(json!({"op":"new","game":"generals","seed":1}));
    assert_eq!(
        a.ok(json!({"op":"draw"}))["result"],
        json!({"winner":null,"reason":"agreement"})
    );
    a.ok(json!({"op":"new","game":"generals","seed":1}));
    let r = a.ok(json!({"op":"end","reason":"time","winner":"black"}));
    assert_eq!(r["result"]["reason"], "time");
    let rec = a.ok(json!({"op":"record"}))["record"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        rec.contains("[Reason \"time\"]") && rec.trim_end().ends_with("0-1"),
        "{rec}"
    );
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let mut a = Arbiter::start();
    let x = a.ok(json!({"op":"new","game":"generals","seed":42}));
    let mut b = Arbiter::start();
    let y = b.ok(json!({"op":"new","game":"generals","seed":42}));
    assert_eq!(x["commitments"], y["commitments"]);
    let z = b.ok(json!({"op":"new","game":"generals"}));
    assert_ne!(
        x["commitments"], z["commitments"],
        "without a seed, the OS picks one"
    );
}

#[test]
fn stratego_plays_through_the_same_protocol_with_red_and_blue_seats() {
    let mut a = Arbiter::start();
    let n = a.ok(json!({"op":"new","game":"stratego","seed":2,"options":{"army":"barrage","two_square_limit":3}}));
    assert_eq!(n["seats"], json!(["red", "blue"]));
    assert_eq!(n["to_move"], "red");
    assert!(n["commitments"]["RedSetup"].is_string() && n["commitments"]["BlueSetup"].is_string());
    let mv = a.ok(json!({"op":"legal"}))["moves"][0]
        .as_str()
        .unwrap()
        .to_string();
    let r = a.ok(json!({"op":"play","move":mv,"seat":"red"}));
    assert!(r["views"]["red"].is_object() && r["views"]["blue"].is_object());
    let obs = a.ok(json!({"op":"observe","seat":"blue"}))["observation"].clone();
    let red_ranks = obs["board"]
        .as_object()
        .unwrap()
        .values()
        .filter(|c| c["owner"] == "red" && c.get("piece").is_some())
        .count();
    assert_eq!(
        red_ranks, 0,
        "no red rank is shown to blue before any attack: {obs}"
    );
    let e = a.refused(r#"{"op":"new","game":"stratego","setups":{"red":{"e5":"F"}}}"#);
    assert!(e.contains("e5"), "{e}");
}

#[test]
fn banqi_takes_a_deal_names_first_and_second_and_tells_colours_once_known() {
    let mut a = Arbiter::start();
    let codes = "KGGMMRRNNCCPPPPPkggmmrrnnccppppp";
    let mut deal = serde_json::Map::new();
    for (i, c) in codes.chars().enumerate() {
        let sq = format!("{}{}", (b'a' + (i % 4) as u8) as char, i / 4 + 1);
        deal.insert(sq, json!(c.to_string()));
    }
    let n = a.ok(json!({"op":"new","game":"banqi","deal":deal}));
    assert_eq!(n["seats"], json!(["first", "second"]));
    assert!(
        n.get("colours").is_none(),
        "colours are unknown before the first flip"
    );
    assert!(
        !n.to_string().contains("\"K\""),
        "the deal never appears: {n}"
    );
    // Flip a8, which holds a black Soldier: the first seat plays black.
    let r = a.ok(json!({"op":"play","move":"d8"}));
    assert_eq!(r["colours"], json!({"first":"black","second":"red"}));
    let obs = a.ok(json!({"op":"observe","seat":"second"}))["observation"].clone();
    for (sq, cell) in obs["board"].as_object().unwrap() {
        if sq == "d8" {
            assert_eq!(cell["piece"], "p");
        } else {
            assert_eq!(
                cell,
                &json!({"face_down":true}),
                "{sq} stays face down and unnamed"
            );
        }
    }
    let e = a.refused(r#"{"op":"new","game":"banqi","deal":{"a1":"K"}}"#);
    assert!(!e.is_empty());
}

#[test]
fn history_status_and_help_describe_the_game_so_far() {
    let mut a = Arbiter::start();
    a.ok(json!({"op":"new","game":"generals","setups":{"white":white_setup(),"black":black_setup()}}));
    for m in ["d3-d4", "d6-d5", "d4-d5"] {
        a.ok(json!({"op":"play","move":m}));
    }
    let h = a.ok(json!({"op":"history","seat":"black"}));
    let plies = h["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 3);
    assert_eq!(
        plies[2]["challenge"]["defender"], "CPT",
        "black knows its own Captain"
    );
    assert!(plies[2].get("piece").is_none(), "but not white's");
    let full = a.ok(json!({"op":"history"}));
    assert_eq!(
        full["plies"][2]["piece"], "CPT",
        "the arbiter sees everything"
    );
    let s = a.ok(json!({"op":"status"}));
    assert_eq!(s["ply"], 3);
    assert_eq!(s["to_move"], "black");
    assert_eq!(s["options"]["flag_rule"], "adjacent");
    let help = a.ok(json!({"op":"help"}));
    assert!(help["ops"].as_array().unwrap().iter().any(|o| o == "play"));
}
