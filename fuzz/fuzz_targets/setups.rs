//! Setups and deals as text (`a1:FLG b1:PVT ...`, Banqi deal text) and as a protocol
//! request's JSON (`setups`, `deal`): never a panic; an accepted setup writes back to text
//! that parses to the same setup.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan_engine::banqi::Deal;
use salpakan_engine::generals::{self, GeneralsOptions};
use salpakan_engine::stratego::{self, StrategoOptions};
use salpakan_engine::{GameKind, GameOptions, GameSpec, Seat, wire};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let seat = Seat::BOTH[usize::from(first & 1)];
    match (first >> 1) % 4 {
        0 => {
            let army = GeneralsOptions::default().army;
            if let Ok(s) = generals::Setup::parse(seat, &army, &text) {
                assert_eq!(
                    generals::Setup::parse(seat, &army, &s.text()).as_ref(),
                    Ok(&s)
                );
            }
        }
        1 => {
            let o = match (first >> 3) % 3 {
                0 => StrategoOptions::default(),
                1 => StrategoOptions::from_text("army=barrage").expect("valid"),
                _ => StrategoOptions::from_text("army=barrage setup_area=board").expect("valid"),
            };
            if let Ok(s) = stratego::Setup::parse(seat, &o, &text) {
                assert_eq!(stratego::Setup::parse(seat, &o, &s.text()).as_ref(), Ok(&s));
            }
        }
        2 => {
            if let Ok(d) = Deal::parse(&text) {
                assert_eq!(Deal::parse(&d.text()).as_ref(), Ok(&d));
            }
        }
        _ => {
            let Ok(serde_json::Value::Object(request)) = serde_json::from_str(&text) else {
                return;
            };
            let kind = GameKind::ALL[usize::from(first >> 3) % 3];
            let spec = GameSpec::default_for(kind);
            let _ = wire::new_match(&spec, &request, 1);
            if let Some(setup) = request.get("setup") {
                if let Ok(s) = wire::setup_from_json(&spec, seat, setup) {
                    // An accepted setup reads back from its own JSON as the same setup.
                    let again = wire::setup_from_json(&spec, seat, &wire::setup_json(&s));
                    assert_eq!(again.as_ref(), Ok(&s));
                }
            }
        }
    }
});
