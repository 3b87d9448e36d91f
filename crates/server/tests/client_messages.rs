//! Any text a WebSocket client sends is read or refused with a sentence, never a panic: the
//! cheap, always-run half of the fuzz target `protocol` (docs/fuzzing.md).

use proptest::prelude::*;
use salpakan_server::{Error, read_client_message};
use serde_json::{Value, json};

/// The message types the protocol knows (docs/protocol.md).
const TYPES: [&str; 15] = [
    "hello",
    "lobby",
    "unlobby",
    "join",
    "leave",
    "setup",
    "move",
    "resign",
    "draw_offer",
    "draw_accept",
    "draw_decline",
    "rematch",
    "chat",
    "claim",
    "ping",
];

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        "[a-zA-Z0-9 _:,-]{0,12}".prop_map(Value::String),
        Just(json!("a1-a2")),
        Just(json!(1)),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// An object with the protocol's own keys, some right and some wrong.
fn message() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "game",
        "move",
        "id",
        "seat_token",
        "since",
        "setup",
        "random",
        "text",
        "token",
        "v",
        "t",
        "army",
        "seat",
        "x",
    ]);
    (
        prop::option::of(prop_oneof![Just(json!(1)), value()]),
        prop::option::of(prop_oneof![
            prop::sample::select(TYPES.to_vec()).prop_map(|t| json!(t)),
            value()
        ]),
        prop::collection::vec((key, value()), 0..5),
    )
        .prop_map(|(v, t, fields)| {
            let mut m = serde_json::Map::new();
            if let Some(v) = v {
                m.insert("v".into(), v);
            }
            if let Some(t) = t {
                m.insert("t".into(), t);
            }
            for (k, x) in fields {
                m.insert(k.to_string(), x);
            }
            Value::Object(m).to_string()
        })
}

/// A refusal is a bad request with a sentence in it.
fn refused_with_a_sentence(r: &Result<(), Error>, text: &str) -> Result<(), TestCaseError> {
    if let Err(e) = r {
        prop_assert!(matches!(e, Error::BadRequest(_)), "{text}: {e:?}");
        prop_assert!(e.to_string().len() > 8, "{text}: {e}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any text at all: read or refused with a sentence.
    #[test]
    fn any_text_is_read_or_refused_with_a_sentence(text in any::<String>()) {
        let (_, r) = read_client_message(&text);
        refused_with_a_sentence(&r, &text)?;
    }

    /// Objects with the protocol's keys: refused with a sentence, or accepted only when
    /// they say version 1 and a known type; the `id` is echoed as sent.
    #[test]
    fn a_message_is_accepted_only_with_version_1_and_a_known_type(text in message()) {
        let (id, r) = read_client_message(&text);
        refused_with_a_sentence(&r, &text)?;
        let v: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(id.as_ref(), v.get("id").filter(|i| !i.is_null()));
        if r.is_ok() {
            prop_assert_eq!(v.get("v"), Some(&json!(1)), "{}", text);
            let t = v.get("t").and_then(Value::as_str).unwrap_or_default();
            prop_assert!(TYPES.contains(&t), "{}", text);
        }
    }
}

/// The documented examples are read, and each known type without its fields is refused
/// with a sentence naming what is missing or wrong.
#[test]
fn documented_messages_are_read_and_incomplete_ones_refused() {
    for ok in [
        r#"{"v":1,"t":"ping"}"#,
        r#"{"v":1,"t":"lobby","id":7}"#,
        r#"{"v":1,"t":"join","game":"abc123"}"#,
        r#"{"v":1,"t":"move","game":"abc123","move":"a1-a2","id":3}"#,
        r#"{"v":1,"t":"setup","game":"abc123","random":true}"#,
    ] {
        let (_, r) = read_client_message(ok);
        assert!(r.is_ok(), "{ok}: {r:?}");
    }
    for t in ["join", "leave", "move", "setup", "chat"] {
        let text = format!(r#"{{"v":1,"t":"{t}"}}"#);
        let (_, r) = read_client_message(&text);
        let e = r.expect_err(&text).to_string();
        assert!(e.contains('"') || e.contains("game"), "{text}: {e}");
    }
    let (_, r) = read_client_message(r#"{"v":2,"t":"ping"}"#);
    assert!(r.unwrap_err().to_string().contains("\"v\":1"));
}
