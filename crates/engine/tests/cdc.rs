//! Import of computer Dark Chess records: the real sample games and hand-made files.

mod common;

use salpakan_engine::banqi::Banqi;
use salpakan_engine::cdc::{ImportError, import_cdc};
use salpakan_engine::{Match, Record, replay_record};
use std::path::{Path, PathBuf};

/// The real games, copied into the repository (see `tests/data/README.md`).
fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cdc/archive")
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cdc")
}

fn txt_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    v.sort();
    v
}

/// Imports a file, checks the record writes, parses, replays to the same result and
/// verifies; returns the record.
fn import_and_replay(path: &Path) -> Record {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy();
    let rec = import_cdc(&text, &name, None).unwrap_or_else(|e| panic!("{e}"));
    let written = rec.to_text();
    let parsed = Record::parse(&written).unwrap();
    assert_eq!(parsed.to_text(), written);
    let m = Match::<Banqi>::replay(&parsed).unwrap_or_else(|e| panic!("{name}: {e}\n{written}"));
    m.verify(&parsed).unwrap();
    common::check_records(&m);
    let any = replay_record(&parsed).unwrap();
    assert_eq!(
        any.outcome().map(|o| o.result_token()),
        Some(rec.result.as_str()).filter(|r| *r != "*")
    );
    assert_eq!(rec.tag("DealSource"), Some("reconstructed"));
    assert_eq!(rec.tag("Source"), Some(&*name));
    // Importing twice gives the same record (salts derived from the content).
    assert_eq!(import_cdc(&text, &name, None).unwrap(), rec);
    rec
}

#[test]
fn every_sample_game_imports_and_replays_to_its_recorded_result() {
    let files = txt_files(&samples_dir());
    assert!(files.len() >= 18, "expected the 18 sample games");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let rec = import_and_replay(&f);
        let result_line = text
            .lines()
            .find(|l| l.contains("Wins") || l.contains("Draw"))
            .unwrap();
        let reason = rec.tag("Reason").unwrap();
        let want = if result_line.contains("NoMove") {
            vec!["no_legal_moves", "no_pieces_left"]
        } else if result_line.contains("NoEatFlipDraw") {
            vec!["quiet_plies"]
        } else if result_line.contains("PositionRepetitionDraw") {
            vec!["repetition"]
        } else {
            vec!["time"]
        };
        assert!(
            want.contains(&reason),
            "{}: {reason} for {result_line}",
            f.display()
        );
        let score = result_line.rsplit(' ').next().unwrap();
        let token = match score.split(',').next().unwrap().parse::<f64>().unwrap() {
            x if x > 0.9 => "1-0",
            x if x < 0.1 => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(rec.result, token, "{}", f.display());
    }
}

#[test]
fn hand_made_files_import() {
    for f in txt_files(&data_dir()) {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("bad_") {
            continue;
        }
        import_and_replay(&f);
    }
}

fn err(name: &str) -> ImportError {
    let text = std::fs::read_to_string(data_dir().join(name)).unwrap();
    import_cdc(&text, name, None).unwrap_err()
}

#[test]
fn a_timeout_is_concluded_for_the_recorded_winner() {
    let rec = import_and_replay(&data_dir().join("timeout_second_mover_wins.txt"));
    assert_eq!(rec.result, "0-1");
    assert_eq!(rec.tag("Reason"), Some("time"));
    assert_eq!(rec.tag("First"), Some("alpha"));
    assert_eq!(rec.tag("Second"), Some("beta"));
    assert_eq!(rec.plies[3], "a2-a1", "the Soldier took the General");
    assert_eq!(rec.plies[0], "a1{k}");
}

#[test]
fn a_game_without_a_result_line_imports_in_progress() {
    let rec = import_and_replay(&data_dir().join("in_progress.txt"));
    assert_eq!(rec.result, "*");
    assert_eq!(rec.plies.len(), 5);
}

#[test]
fn the_quiet_limit_is_an_import_option() {
    // v1_g017 is drawn by the 60-ply no-progress rule; with a limit of 59 the engine ends it
    // one ply early and refuses the last ply.
    let name = "v1_g017.txt";
    let text = std::fs::read_to_string(samples_dir().join(name)).unwrap();
    assert!(import_cdc(&text, name, Some(60)).is_ok());
    let e = import_cdc(&text, name, Some(59)).unwrap_err();
    assert!(matches!(e, ImportError::Illegal { .. }), "{e}");
    assert!(e.to_string().contains("quiet_plies"), "{e}");
    let rec = import_cdc(&text, name, Some(60)).unwrap();
    assert!(rec.tag("Options").unwrap().contains("max_quiet_plies=60"));
    assert!(rec.tag("Options").unwrap().contains("repetition=cycle"));
}

#[test]
fn broken_files_get_errors_naming_the_file_and_line() {
    let cases: [(&str, usize, &str); 7] = [
        ("bad_syntax.txt", 16, "c3:c4"),
        ("bad_two_red_generals.txt", 16, "2nd K"),
        ("bad_illegal_ply.txt", 16, "a1-a2"),
        ("bad_result.txt", 17, "NoMove"),
        ("bad_first_colour.txt", 13, "first 1"),
        ("bad_counts.txt", 4, "full set"),
        ("in_progress.txt", 0, ""),
    ];
    for (name, line, needle) in cases {
        if line == 0 {
            continue;
        }
        let e = err(name);
        let msg = e.to_string();
        assert!(msg.starts_with(&format!("{name}:{line}: ")), "{msg}");
        assert!(msg.contains(needle), "{msg}");
    }
    assert!(matches!(err("bad_syntax.txt"), ImportError::Syntax { .. }));
    assert!(matches!(
        err("bad_two_red_generals.txt"),
        ImportError::Inconsistent { .. }
    ));
    assert!(matches!(
        err("bad_illegal_ply.txt"),
        ImportError::Illegal { ply: 3, .. }
    ));
    assert!(matches!(
        err("bad_result.txt"),
        ImportError::ResultMismatch { .. }
    ));
    assert!(matches!(
        err("bad_first_colour.txt"),
        ImportError::Inconsistent { .. }
    ));
    assert!(matches!(
        err("bad_counts.txt"),
        ImportError::Unsupported { .. }
    ));
    let e = import_cdc("hello\n", "x.txt", None)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("x.txt:1: "), "{e}");
    assert!(matches!(
        import_cdc("INITIAL\n* 1. z9(K)\n", "y.txt", None),
        Err(ImportError::Syntax { line: 2, .. })
    ));
}

#[test]
fn imported_records_say_the_deal_was_reconstructed_and_keep_every_revealed_piece() {
    for f in txt_files(&samples_dir()) {
        let text = std::fs::read_to_string(&f).unwrap();
        let rec = import_cdc(&text, "s.txt", None).unwrap();
        let deal = salpakan_engine::banqi::Deal::parse(rec.tag("Deal").unwrap()).unwrap();
        for token in text.split_whitespace() {
            if let Some((sq, rest)) = token.split_once('(') {
                let code = rest.trim_end_matches(')');
                assert_eq!(
                    deal.at(sq.parse().unwrap()).to_string(),
                    code,
                    "{}",
                    f.display()
                );
            }
        }
    }
}
