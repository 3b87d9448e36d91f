//! Perft: the node counts of fixed positions, recomputed and compared with the fixtures in
//! `tests/data/perft/` (see its README), so that any change to move generation shows.

use std::path::PathBuf;

use salpakan_engine::GameKind;
use salpakan_engine::banqi::{Banqi, BanqiOptions};
use salpakan_engine::perft::{Fixture, parse_fixtures, perft, perft_chance, perft_counts};
use salpakan_engine::{Game, rng_from_seed};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft")
}

/// Recomputes every fixture of `kind` and fails naming each one whose counts changed.
fn check(kind: GameKind) {
    let dir = data_dir();
    let text = std::fs::read_to_string(dir.join(format!("{kind}.txt"))).expect("fixture file");
    let fixtures = parse_fixtures(&text).expect("fixtures parse");
    assert!(fixtures.len() >= 3, "{kind}: at least three fixtures");
    let load = |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| e.to_string());
    let mut wrong = Vec::new();
    for f in &fixtures {
        let want: Vec<u64> = f
            .counts
            .iter()
            .map(|c| c.unwrap_or_else(|| panic!("{}: counts not computed yet", f.name)))
            .collect();
        let got = f.compute(kind, &load).expect("the position builds");
        if got != want {
            wrong.push(format!("{}: fixture {want:?}, computed {got:?}", f.name));
        }
    }
    assert!(
        wrong.is_empty(),
        "{kind}: move generation changed (if intended, rerun the perft example with --write):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn perft_generals_counts_match_the_fixtures() {
    check(GameKind::Generals);
}

#[test]
fn perft_stratego_counts_match_the_fixtures() {
    check(GameKind::Stratego);
}

#[test]
fn perft_banqi_counts_match_the_fixtures() {
    check(GameKind::Banqi);
}

fn banqi_opening() -> Banqi {
    let o = BanqiOptions::default();
    Banqi::start(&o, Banqi::random_hidden(&o, &mut rng_from_seed(9))).unwrap()
}

#[test]
fn perft_counts_each_depth_as_perft_does() {
    let g = banqi_opening();
    let counts = perft_counts(&g, 3);
    assert_eq!(counts, (1..=3).map(|d| perft(&g, d)).collect::<Vec<_>>());
}

#[test]
fn banqi_first_flip_is_one_node_per_square_or_per_distinct_piece() {
    let g = banqi_opening();
    // 32 face-down squares; by chance each may hold any of the 14 distinct pieces.
    assert_eq!(perft(&g, 1), 32);
    assert_eq!(perft_chance(&g, 1), vec![32 * 14]);
}

#[test]
fn perft_fixture_line_round_trips() {
    let line = "mid | army=barrage | seed=2 walk=30 | moves | 8 64 530";
    let f = Fixture::parse(line).unwrap();
    assert_eq!(f.line(&[8, 64, 530]), line);
    let line = "cdc | - | cdc=a.txt ply=30 | chance | ? ?";
    let f = Fixture::parse(line).unwrap();
    assert_eq!(f.counts, vec![None, None]);
    assert_eq!(f.line(&[1, 2]), "cdc | - | cdc=a.txt ply=30 | chance | 1 2");
}

#[test]
fn perft_fixture_lines_with_mistakes_are_refused() {
    for bad in [
        "a | - | seed=1 | moves",
        "a | - | seed=x | moves | 1",
        "a | - | ply=3 | moves | 1",
        "a | - | seed=1 | sideways | 1",
        "a | - | seed=1 | moves | ",
        "a | - | seed=1 | moves | 1 two",
    ] {
        assert!(Fixture::parse(bad).is_err(), "{bad:?} is refused");
    }
}
