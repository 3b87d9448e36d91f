//! Import of Gravon StraDoS2 records: hand-made files and the real sample games.

mod common;

use salpakan_engine::gravon::{ImportError, import_gravon};
use salpakan_engine::stratego::Stratego;
use salpakan_engine::{Match, Record};

/// The real games, copied into the repository (see `tests/data/README.md`).
const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gravon/archive");

#[test]
fn every_sample_game_imports_and_replays_to_its_result() {
    let dir =
        std::fs::read_dir(SAMPLES).expect("the sample games are in tests/data/gravon/archive");
    let mut names: Vec<_> = dir
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "{names:?}");
    let mut failures = Vec::new();
    for path in &names {
        let name = path.file_name().unwrap().to_str().unwrap();
        let xml = std::fs::read_to_string(path).unwrap();
        match import_gravon(&xml, name, None) {
            Ok(rec) => {
                let text = rec.to_text();
                let parsed = Record::parse(&text).unwrap();
                let m = Match::<Stratego>::replay(&parsed)
                    .unwrap_or_else(|e| panic!("{name}: replay: {e}"));
                m.verify(&parsed).unwrap();
                assert!(salpakan_engine::Game::outcome(m.game()).is_some(), "{name}");
                common::check_records(&m);
            }
            Err(e) => failures.push(e.to_string()),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gravon");

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{DATA}/{name}")).unwrap()
}

fn import(name: &str) -> Record {
    let rec = import_gravon(&fixture(name), name, None).unwrap_or_else(|e| panic!("{e}"));
    let m = Match::<Stratego>::replay(&Record::parse(&rec.to_text()).unwrap()).unwrap();
    m.verify(&rec).unwrap();
    rec
}

#[test]
fn a_hand_made_flag_capture_imports_with_tags_and_annotations() {
    let rec = import("barrage-2014.3-1.xml");
    assert_eq!(rec.tag("Game"), Some("stratego"));
    assert_eq!(rec.tag("Event"), Some("Gravon"));
    assert_eq!(rec.tag("Source"), Some("barrage-2014.3-1.xml"));
    assert_eq!(rec.tag("Date"), Some("2014.04.??"));
    assert_eq!(rec.tag("Red"), Some("Alice"));
    assert_eq!(rec.tag("Blue"), Some("Bob & Co"));
    assert_eq!(rec.tag("Reason"), Some("flag_captured"));
    assert!(rec.tag("Options").unwrap().contains("army=barrage"));
    assert!(rec.tag("Options").unwrap().contains("two_square_limit=3"));
    assert_eq!(rec.plies, ["e1-e4", "a10-a9", "e4-e10{2>F}"]);
    assert_eq!(rec.result, "1-0");
    // The same file always gives the same record (salts from the file's hash).
    assert_eq!(import("barrage-2014.3-1.xml"), rec);
}

#[test]
fn games_before_2013_use_the_five_move_two_squares_limit() {
    let rec = import("barrage-2006.5-2.xml");
    assert!(rec.tag("Options").unwrap().contains("two_square_limit=5"));
    assert_eq!(rec.tag("Reason"), Some("resignation"));
    assert_eq!(rec.result, "0-1");
    // With the modern limit the fourth move between g1 and g2 is refused.
    let e = import_gravon(
        &fixture("barrage-2006.5-2.xml"),
        "barrage-2006.5-2.xml",
        Some(3),
    )
    .unwrap_err();
    assert!(matches!(e, ImportError::Move { id: 7, .. }), "{e}");
    let t = e.to_string();
    assert!(
        t.contains("barrage-2006.5-2.xml") && t.contains("move id=7") && t.contains("two-squares"),
        "{t}"
    );
}

#[test]
fn agreed_draws_and_time_losses_are_concluded_as_recorded() {
    let rec = import("barrage-2015.0-3.xml");
    assert_eq!(
        (rec.result.as_str(), rec.tag("Reason")),
        ("1/2-1/2", Some("agreement"))
    );
    let rec = import("barrage-2015.0-4.xml");
    assert_eq!(
        (rec.result.as_str(), rec.tag("Reason")),
        ("1-0", Some("time"))
    );
}

fn broken(edit: impl Fn(String) -> String) -> String {
    let xml = edit(fixture("barrage-2014.3-1.xml"));
    import_gravon(&xml, "broken.xml", None)
        .unwrap_err()
        .to_string()
}

#[test]
fn broken_files_get_errors_naming_the_file_and_the_element() {
    let cases: Vec<(String, &str)> = vec![
        (
            broken(|x| x.replace("source=\"E4\"", "source=\"Z4\"")),
            "move id=3: source \"Z4\" is not a square",
        ),
        (
            broken(|x| x.replace("target=\"E4\"", "target=\"J4\"")),
            "move id=1: target \"J4\"",
        ),
        (
            broken(|x| x.replace("type=\"barrage\"", "type=\"ultimate\"")),
            "<game type=\"ultimate\">",
        ),
        (
            broken(|x| x.replace("content=\"M", "content=\"")),
            "<field content>: must be 100 characters",
        ),
        (
            broken(|x| x.replace("AAAA__AA", "AAAAAAAA")),
            "is a lake and must be '_'",
        ),
        (
            broken(|x| x.replace("content=\"MB", "content=\"MZ")),
            "expected A (empty)",
        ),
        (
            broken(|x| x.replace("content=\"MB", "content=\"MM")),
            "<field content>: red: F: expected 1, found 2",
        ),
        (
            broken(|x| x.replace("<move id=\"2\"", "<move id=\"5\"")),
            "move id=5: moves must be numbered",
        ),
        (
            broken(|x| x.replace("source=\"A:\" target=\"A9\"", "source=\"B:\" target=\"B9\"")),
            "move id=2 (B:-B9): illegal move",
        ),
        (
            broken(|x| x.replace("type=\"1\" winner=\"1\"", "type=\"1\" winner=\"2\"")),
            "<result type=\"1\" winner=\"2\">: the file says 0-1",
        ),
        (
            broken(|x| x.replace("type=\"1\" winner=\"1\"", "type=\"3\" winner=\"2\"")),
            "already ended on the board",
        ),
        (
            broken(|x| x.replace("type=\"1\" winner=\"1\"", "type=\"7\" winner=\"1\"")),
            "unknown result type",
        ),
        (broken(|x| x.replace("</game>", "")), "not well-formed XML"),
        (
            broken(|x| x.replace("<field", "<nofield")),
            "<field>: missing",
        ),
        (
            broken(|x| {
                x.replace("<stratego>", "<chess>")
                    .replace("</stratego>", "</chess>")
            }),
            "root element must be <stratego>",
        ),
    ];
    for (got, want) in cases {
        assert!(got.starts_with("broken.xml"), "{got}");
        assert!(got.contains(want), "{got:?} should contain {want:?}");
    }
}

#[test]
fn an_unfinished_game_imports_as_in_progress() {
    let xml = fixture("barrage-2014.3-1.xml").replace("  <result type=\"1\" winner=\"1\"/>\n", "");
    let xml = xml.replace("  <move id=\"3\" source=\"E4\" target=\"E:\"/>\n", "");
    let rec = import_gravon(&xml, "x.xml", None).unwrap();
    assert_eq!(rec.result, "*");
    assert_eq!(rec.tag("Date"), None);
    assert!(rec.tag("Options").unwrap().contains("two_square_limit=3"));
}

// ---------------------------------------------------------------------------------------
// The two-squares limit of each record (docs/rules-stratego.md, "Which two-squares limit")

#[test]
fn a_2015_record_with_a_fourth_shuttle_while_the_other_side_shuttles_is_replayed_under_five() {
    let name = "classic-2015.2-shuttle4.xml";
    // Under the year's limit of 3 the fourth move in a row between e6 and f6 is refused.
    let e = import_gravon(&fixture(name), name, Some(3)).unwrap_err();
    assert!(matches!(e, ImportError::Move { id: 11, .. }), "{e}");
    assert!(e.to_string().contains("two-squares"), "{e}");
    // Imported as archived: the record is consistent under Gravon's older limit of 5.
    let rec = import(name);
    assert!(rec.tag("Options").unwrap().contains("two_square_limit=5"));
    let why = rec.tag("TwoSquareRule").unwrap();
    assert!(why.starts_with("5 (inferred"), "{why}");
    assert!(why.contains("move id=11 (F6-E6)"), "{why}");
    assert!(why.contains("under 3, the rule of 2015"), "{why}");
    assert!(why.contains("the two-squares rule"), "{why}");
    assert_eq!(rec.plies.len(), 12);
    assert_eq!(
        (rec.result.as_str(), rec.tag("Reason")),
        ("1-0", Some("resignation"))
    );
}

#[test]
fn a_2014_scout_record_crossing_the_same_squares_a_fourth_time_is_replayed_under_five() {
    let name = "barrage-2014.4-scout4.xml";
    // a4-j4, j4-h4, h4-j4 all cover h4 i4 j4; j4-a4 covers them again: refused under 3.
    let e = import_gravon(&fixture(name), name, Some(3)).unwrap_err();
    assert!(matches!(e, ImportError::Move { id: 13, .. }), "{e}");
    let rec = import(name);
    assert!(rec.tag("Options").unwrap().contains("two_square_limit=5"));
    let why = rec.tag("TwoSquareRule").unwrap();
    assert!(
        why.starts_with("5 (inferred") && why.contains("move id=13 (K4-A4)"),
        "{why}"
    );
    assert!(rec.plies.contains(&"j4-a4".to_string()), "{:?}", rec.plies);
}

#[test]
fn every_import_records_which_two_squares_limit_it_used_and_why() {
    let rec = import("barrage-2014.3-1.xml");
    let why = rec.tag("TwoSquareRule").unwrap();
    assert!(why.starts_with("3 (the rule of 2014"), "{why}");
    let rec = import("barrage-2006.5-2.xml");
    assert!(
        rec.tag("TwoSquareRule")
            .unwrap()
            .starts_with("5 (the rule of 2006"),
        "{:?}",
        rec.tag("TwoSquareRule")
    );
    let xml = fixture("barrage-2014.3-1.xml");
    let rec = import_gravon(&xml, "undated.xml", None).unwrap();
    assert!(
        rec.tag("TwoSquareRule")
            .unwrap()
            .starts_with("3 (the file name carries no date: 5 before 2013, 3 since)"),
        "{:?}",
        rec.tag("TwoSquareRule")
    );
    let rec = import_gravon(&xml, "barrage-2014.3-1.xml", Some(7)).unwrap();
    assert_eq!(rec.tag("TwoSquareRule"), Some("7 (given to the importer)"));
    assert!(rec.tag("Options").unwrap().contains("two_square_limit=7"));
}

#[test]
fn an_override_is_never_second_guessed() {
    // Given 3 explicitly, a record that needs 5 fails rather than being imported under 5.
    let name = "classic-2015.2-shuttle4.xml";
    assert!(import_gravon(&fixture(name), name, Some(3)).is_err());
}

#[test]
fn a_record_refused_under_both_limits_reports_the_error_under_the_years_limit() {
    // A fifth shuttle back to e6 is refused under 5 as well: the import fails, naming the
    // first move the year's limit refused.
    let name = "classic-2015.2-shuttle4.xml";
    let xml = fixture(name).replace(
        "  <move id=\"12\" source=\"A7\" target=\"A6\"/>\n",
        "  <move id=\"12\" source=\"E5\" target=\"F5\"/>\n  <move id=\"13\" source=\"E6\" target=\"F6\"/>\n  <move id=\"14\" source=\"F5\" target=\"E5\"/>\n  <move id=\"15\" source=\"F6\" target=\"E6\"/>\n",
    );
    let e = import_gravon(&xml, name, None).unwrap_err();
    assert!(matches!(e, ImportError::Move { id: 11, .. }), "{e}");
}

#[test]
fn two_square_limit_override_out_of_range_is_refused_with_a_clear_error() {
    let xml = fixture("barrage-2014.3-1.xml");
    for bad in [0, 17, u32::MAX] {
        let e = import_gravon(&xml, "f.xml", Some(bad)).unwrap_err();
        assert!(matches!(e, ImportError::Options { .. }), "{bad}: {e}");
        assert!(e.to_string().contains("1 to 16"), "{e}");
    }
    for good in [1, 16] {
        import_gravon(&xml, "f.xml", Some(good)).unwrap();
    }
}

#[test]
fn a_record_ending_when_the_mover_is_left_without_a_legal_move_replays_to_its_result() {
    // Red's third move between a1 and a2 leaves it no legal move: Gravon ended the game
    // there (result type 0, Blue wins), and so does the replay.
    let rec = import("classicfree-2014.6-stuck.xml");
    assert_eq!(
        (rec.result.as_str(), rec.tag("Reason")),
        ("0-1", Some("no_legal_moves"))
    );
    assert_eq!(rec.plies.len(), 5);
}
