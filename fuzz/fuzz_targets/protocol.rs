//! A WebSocket client's text message, read as a server connection reads it
//! (`salpakan_server::read_client_message`, crates/server/src/protocol.rs). Never a panic; a
//! refusal is a bad request with a sentence; an accepted message says version 1 and a known
//! type; the `id` echoed is the one sent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan_server::{Error, read_client_message};
use serde_json::Value;

const TYPES: [&str; 15] = [
    "hello", "lobby", "unlobby", "join", "leave", "setup", "move", "resign", "draw_offer",
    "draw_accept", "draw_decline", "rematch", "chat", "claim", "ping",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (id, r) = read_client_message(&text);
    match r {
        Err(Error::BadRequest(why)) => assert!(why.len() > 8, "{text}: {why}"),
        Err(e) => panic!("{text}: not a bad request: {e:?}"),
        Ok(()) => {
            let v: Value = serde_json::from_str(&text).expect("accepted, so JSON");
            assert_eq!(v.get("v"), Some(&Value::from(1)), "{text}");
            let t = v.get("t").and_then(Value::as_str).unwrap_or_default();
            assert!(TYPES.contains(&t), "{text}");
            assert_eq!(id.as_ref(), v.get("id").filter(|i| !i.is_null()), "{text}");
        }
    }
});
