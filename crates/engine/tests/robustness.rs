//! Every parser at the engine's edge, fed random and half-valid input: it never panics,
//! refuses with its typed error (whose message is a sentence), and what it accepts writes
//! back to text that parses to the same value. The cheap, always-run companion of the
//! cargo-fuzz targets in `fuzz/` (docs/fuzzing.md).

use proptest::prelude::*;
use salpakan_engine::banqi::{Banqi, Deal};
use salpakan_engine::cdc::import_cdc;
use salpakan_engine::generals::{self, Generals, GeneralsOptions};
use salpakan_engine::gravon::import_gravon;
use salpakan_engine::stratego::{self, Stratego, StrategoOptions};
use salpakan_engine::{
    Copy, Game, GameKind, GameOptions, GameSpec, PlayError, Record, Seat, replay_record, wire,
};

/// Real records the importers accept (copied into tests/data; see its README).
const GRAVON: &str = include_str!("data/gravon/barrage-2006.5-2.xml");
const CDC: &str = include_str!("data/cdc/timeout_second_mover_wins.txt");

/// `text` with the characters in `at..at+len` (clamped, on char boundaries) replaced.
fn splice(text: &str, at: usize, len: usize, with: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = at % (chars.len() + 1);
    let end = (at + len).min(chars.len());
    chars[..at]
        .iter()
        .chain(with.chars().collect::<Vec<_>>().iter())
        .chain(chars[end..].iter())
        .collect()
}

fn move_round_trips<G: Game>(text: &str) -> Result<(), TestCaseError> {
    match text.parse::<G::Move>() {
        Ok(mv) => {
            let again: G::Move = mv.to_string().parse().expect("a written move parses");
            prop_assert_eq!(again, mv);
        }
        Err(e) => {
            prop_assert!(matches!(e, PlayError::Parse(_)), "{e:?}");
            prop_assert!(!e.to_string().is_empty());
        }
    }
    let _ = G::parse_token(text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn robust_move_text_of_every_game_parses_or_is_a_parse_error(
        text in prop_oneof![any::<String>(), "[a-k]{1,2}[0-9]{0,3}([-x][a-k]?[0-9]{0,3})?(\\{[^}]{0,4}\\}?)?", "end|END|e nd"]
    ) {
        move_round_trips::<Generals>(&text)?;
        move_round_trips::<Stratego>(&text)?;
        move_round_trips::<Banqi>(&text)?;
    }

    #[test]
    fn robust_options_text_and_json_parse_or_are_option_errors(
        game in 0usize..3,
        text in prop_oneof![
            any::<String>(),
            "(( |\\t)*[a-z_]{0,16}=?[a-z0-9:,_-]{0,12}){0,5}",
            "\\{(\"[a-z_]{1,16}\": ?(\"[a-z0-9]{0,8}\"|[0-9]{1,12}|true|null|\\[\\]),?){0,4}\\}",
        ]
    ) {
        let kind = GameKind::ALL[game];
        let mut results = vec![GameSpec::from_text(kind, &text)];
        if let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) {
            results.push(GameSpec::from_json(kind, &json));
        }
        for r in results {
            match r {
                Ok(spec) => {
                    prop_assert_eq!(GameSpec::from_text(kind, &spec.to_text()), Ok(spec.clone()));
                    prop_assert_eq!(GameSpec::from_json(kind, &spec.to_json()), Ok(spec));
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }

    #[test]
    fn robust_setup_and_deal_text_parse_or_are_setup_errors(
        seat in 0usize..2,
        text in prop_oneof![
            any::<String>(),
            "([a-k](10|[0-9])[:=][A-Z0-9]{1,3}[ ,]){0,40}",
            "[A-Za-z.?]{0,40}( [A-Za-z.?]{0,8}){0,4}",
        ]
    ) {
        let seat = Seat::BOTH[seat];
        let army = GeneralsOptions::default().army;
        if let Ok(s) = generals::Setup::parse(seat, &army, &text) {
            prop_assert_eq!(generals::Setup::parse(seat, &army, &s.text()), Ok(s));
        }
        for o in [StrategoOptions::default(), StrategoOptions::from_text("army=barrage").expect("valid")] {
            if let Ok(s) = stratego::Setup::parse(seat, &o, &text) {
                prop_assert_eq!(stratego::Setup::parse(seat, &o, &s.text()), Ok(s));
            }
        }
        match Deal::parse(&text) {
            Ok(d) => prop_assert_eq!(Deal::parse(&d.text()), Ok(d)),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn robust_protocol_setups_and_deals_in_json_start_or_are_refused(
        game in 0usize..3,
        text in "\\{\"(setups|deal)\": ?(\\{(\"(white|black|red|blue|[a-k][0-9])\": ?(\"[A-Z]{0,3}\"|\\{\\}|1),?){0,4}\\}|\"[A-Za-z]{0,32}\"|null|\\[\\])\\}",
    ) {
        let kind = GameKind::ALL[game];
        if let Ok(serde_json::Value::Object(request)) = serde_json::from_str(&text) {
            if let Err(e) = wire::new_match(&GameSpec::default_for(kind), &request, 3) {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }

    #[test]
    fn robust_records_parse_and_replay_or_are_record_errors(
        text in prop_oneof![
            any::<String>(),
            "(\\[(Game|Options|Copy|Result|Reason|WhiteSetup|Deal|Seed) \"[a-z0-9 =:_]{0,12}\"\\]\n){0,6}\n([a-i][1-8]-[a-i][1-8](\\{[<>=]\\})? ){0,6}(1-0|0-1|\\*|1/2-1/2)?",
        ]
    ) {
        match Record::parse(&text) {
            Ok(r) => {
                prop_assert_eq!(Record::parse(&r.to_text()), Ok(r.clone()));
                match replay_record(&r) {
                    Ok(m) => {
                        let full = m.record(Copy::Full);
                        prop_assert!(replay_record(&full).is_ok());
                    }
                    Err(e) => prop_assert!(!e.to_string().is_empty()),
                }
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn robust_gravon_import_of_damaged_files_imports_or_is_an_import_error(
        at in 0usize..700, len in 0usize..40, with in "[ -~\n]{0,12}", limit in proptest::option::of(1u32..=16),
    ) {
        let xml = splice(GRAVON, at, len, &with);
        match import_gravon(&xml, "barrage-2006.5-2.xml", limit) {
            Ok(r) => prop_assert!(replay_record(&r).is_ok(), "an imported record replays"),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn robust_cdc_import_of_damaged_files_imports_or_is_an_import_error(
        at in 0usize..300, len in 0usize..20, with in "[ -~\n]{0,12}", limit in proptest::option::of(1u32..=200),
    ) {
        let text = splice(CDC, at, len, &with);
        match import_cdc(&text, "g001.txt", limit) {
            Ok(r) => prop_assert!(replay_record(&r).is_ok(), "an imported record replays"),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

#[test]
fn robust_splice_replaces_the_range() {
    assert_eq!(splice("abcdef", 2, 2, "XY"), "abXYef");
    assert_eq!(splice("abc", 10, 5, "Z"), "abZ");
    assert_eq!(splice("abc", 3, 5, "Z"), "abcZ");
}

/// Found by the `options` fuzz target: `max_quiet_plies=00` became a limit of 0 plies,
/// written back as `0`, which reads as off: a value without a canonical text.
#[test]
fn fuzz_options_crash_zero_written_00_is_off_like_0() {
    for kind in GameKind::ALL {
        for zero in ["00", "+0", "0000"] {
            let spec = GameSpec::from_text(kind, &format!("max_quiet_plies={zero}")).unwrap();
            assert_eq!(
                spec,
                GameSpec::from_text(kind, "max_quiet_plies=off").unwrap()
            );
            assert_eq!(GameSpec::from_text(kind, &spec.to_text()).unwrap(), spec);
        }
    }
    let spec = GameSpec::from_text(GameKind::Stratego, "two_square_limit=00").unwrap();
    assert_eq!(
        spec,
        GameSpec::from_text(GameKind::Stratego, "two_square_limit=off").unwrap()
    );
}

/// Found by the `cdc` fuzz target: a players line whose `vs` is set off by a tab or a
/// carriage return instead of a space panicked the importer.
#[test]
fn fuzz_cdc_crash_players_separated_by_other_white_space_are_read() {
    for sep in ["\t", "\r", "  "] {
        let text = CDC.replace("* alpha vs beta", &format!("* alpha{sep}vs{sep}beta"));
        assert_ne!(text, CDC);
        let r = import_cdc(&text, "g001.txt", None).expect("imports");
        let names: Vec<&str> = r.tags.iter().map(|(_, v)| v.as_str()).collect();
        assert!(
            names.contains(&"alpha") && names.contains(&"beta"),
            "{:?}",
            r.tags
        );
    }
}
