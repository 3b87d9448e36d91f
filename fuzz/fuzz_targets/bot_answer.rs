//! What an external bot writes back (crates/ai/src/protocol.rs): one JSON line, a setup
//! answer, a move answer. Never a panic; every refusal is a typed `BotFailure`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan_ai::protocol::{move_from_answer, parse_answer, setup_from_answer};
use salpakan_engine::GameKind;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let Ok(answer) = parse_answer(&line) else {
        return;
    };
    for kind in GameKind::ALL {
        let _ = setup_from_answer(kind, &answer);
    }
    let _ = move_from_answer(answer);
});
