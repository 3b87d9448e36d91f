//! Import of Gravon StraDoS2 records: hand-made files and the real sample games.

mod common;

use salpakan_engine::gravon::{ImportError, import_gravon};
use salpakan_engine::stratego::Stratego;
use salpakan_engine::{Match, Record};

const SAMPLES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/samples/gravon"
);

#[test]
fn every_sample_game_imports_and_replays_to_its_result() {
    let dir = std::fs::read_dir(SAMPLES).expect("the shared samples exist");
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
