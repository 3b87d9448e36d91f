//! Import of computer Dark Chess records: the real sample games and hand-made files.

mod common;

use salpakan_engine::banqi::Banqi;
use salpakan_engine::cdc::{ImportError, import_cdc};
use salpakan_engine::{EndReason, Match, Record, replay_record};
use std::path::{Path, PathBuf};

fn samples_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    root.join("../../../shared/samples/cdc")
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
