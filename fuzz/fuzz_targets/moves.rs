//! Move text of every game (`e3-e4`, `c3`, `end`), record tokens (`e3-e4{>}`) and square
//! names: never a panic; what parses writes back to text that parses to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan_engine::{Game, banqi, generals, square, stratego};

fn check<G: Game>(text: &str) {
    if let Ok(mv) = text.parse::<G::Move>() {
        let again: G::Move = mv.to_string().parse().expect("a written move parses");
        assert_eq!(again, mv, "{text:?} round-trips");
    }
    let _ = G::parse_token(text);
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check::<generals::Generals>(&text);
    check::<stratego::Stratego>(&text);
    check::<banqi::Banqi>(&text);
    for (files, ranks) in [(9, 8), (10, 10), (8, 4)] {
        if let Some((f, r)) = square::parse(&text, files, ranks) {
            assert!(f < files && r < ranks);
            assert_eq!(
                square::parse(square::name_str(f, r), files, ranks),
                Some((f, r))
            );
        }
    }
});
