//! The arbiter protocol (`salpakan arbiter`, crates/cli/src/arbiter.rs): each input line is
//! one request to the same arbiter. Never a panic; every answer is a JSON object with `ok`.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The cli crate is a binary; its arbiter module is pure and depends only on the engine,
// serde_json and getrandom, so it is compiled in here as it is.
#[allow(dead_code)]
#[path = "../../crates/cli/src/arbiter.rs"]
mod arbiter;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut a = arbiter::Arbiter::new();
    for line in text.lines().take(64) {
        let answer = a.handle(line);
        assert!(
            answer
                .get("ok")
                .and_then(serde_json::Value::as_bool)
                .is_some(),
            "{answer}"
        );
    }
});
