//! Game options as `key=value` words, canonical text and JSON, for every game: never a
//! panic; accepted options write back to text and JSON that parse to the same options.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan_engine::{GameKind, GameSpec};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let kind = GameKind::ALL[usize::from(first) % 3];
    let text = String::from_utf8_lossy(rest);
    let mut specs = vec![
        GameSpec::from_text(kind, &text),
        GameSpec::from_key_values(kind, text.lines()),
    ];
    if let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) {
        specs.push(GameSpec::from_json(kind, &json));
    }
    for spec in specs.into_iter().flatten() {
        assert_eq!(spec.kind(), kind);
        assert_eq!(
            GameSpec::from_text(kind, &spec.to_text()).as_ref(),
            Ok(&spec)
        );
        assert_eq!(
            GameSpec::from_json(kind, &spec.to_json()).as_ref(),
            Ok(&spec)
        );
    }
});
