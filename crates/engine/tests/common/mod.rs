//! Checks every game must pass, shared by the games' test files.
#![allow(dead_code)]

use salpakan_engine::{Copy, Game, Match, Record, Seat, Viewer, rng_from_seed};

/// Plays a random game from `seed` to its end (the options must bound its length) and checks
/// the invariants every game keeps:
/// - the side to move has a legal move unless the game is over, and `is_legal` agrees with
///   `legal_moves` on every listed move;
/// - the full record writes, parses and writes again identically;
/// - the full record replays to the identical state, outcome and every viewer's observation;
/// - the commitments verify; a seat's copy reveals no hidden part that seat does not own.
///
/// Returns the finished match.
pub fn random_game_invariants<G: Game + PartialEq>(
    options: &G::Options,
    seed: u64,
    max_plies: usize,
) -> Match<G> {
    let mut m = Match::<G>::random(options, seed).expect("random setups are valid");
    let mut rng = rng_from_seed(seed ^ 0x5eed);
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        moves.clear();
        m.game().legal_moves(&mut moves);
        if m.game().outcome().is_some() {
            assert!(moves.is_empty(), "no legal moves once the game is over");
            break;
        }
        assert!(
            !moves.is_empty(),
            "a side to move with no legal move must already have lost"
        );
        for mv in &moves {
            assert!(m.game().is_legal(*mv), "{mv} listed but is_legal says no");
            let back: G::Move = mv.to_string().parse().expect("moves parse back");
            assert_eq!(back, *mv);
        }
        let mv = m.game().random_move(&mut rng).expect("a move");
        assert!(moves.contains(&mv), "random_move {mv} must be a legal move");
        m.play(mv).expect("legal moves play");
    }
    assert!(
        m.game().outcome().is_some(),
        "game did not end within {max_plies} plies"
    );
    check_records(&m);
    m
}

/// Record round trips and replay for a match in any state.
pub fn check_records<G: Game + PartialEq>(m: &Match<G>) {
    let full = m.record(Copy::Full);
    let text = full.to_text();
    let parsed = Record::parse(&text).expect("the full record parses");
    assert_eq!(
        parsed.to_text(),
        text,
        "write -> parse -> write is identical"
    );
    let replayed =
        Match::<G>::replay(&parsed).unwrap_or_else(|e| panic!("replay failed: {e}\n{text}"));
    assert_eq!(
        replayed.game(),
        m.game(),
        "replay reaches the identical state"
    );
    for v in [
        Viewer::Arbiter,
        Viewer::Spectator,
        Viewer::Player(Seat::First),
        Viewer::Player(Seat::Second),
    ] {
        assert_eq!(
            serde_json::to_string(&replayed.game().observe(v)).unwrap(),
            serde_json::to_string(&m.game().observe(v)).unwrap()
        );
    }
    replayed.verify(&parsed).expect("commitments verify");
    assert_eq!(
        replayed.record(Copy::Full).to_text(),
        text,
        "the replay writes the same record"
    );
    for seat in Seat::BOTH {
        let copy = m.record(Copy::Seat(seat));
        let parts = G::hidden_parts(m.hidden());
        for p in &parts {
            assert_eq!(
                copy.tag(p.name).is_some(),
                p.owner == Some(seat),
                "{} in {seat:?}'s copy",
                p.name
            );
            assert!(copy.tag(&format!("{}Commit", p.name)).is_some());
        }
        let ct = copy.to_text();
        assert_eq!(Record::parse(&ct).unwrap().to_text(), ct);
        assert!(
            Match::<G>::replay(&Record::parse(&ct).unwrap()).is_err(),
            "a seat copy does not replay"
        );
    }
}

/// The byte-identical output check: `a` and `b` must look the same to `viewer`, in the
/// observation and in the view of every ply so far.
pub fn assert_same_to<G: Game>(a: &Match<G>, b: &Match<G>, viewer: Viewer) {
    let oa = serde_json::to_string(&a.game().observe(viewer)).unwrap();
    let ob = serde_json::to_string(&b.game().observe(viewer)).unwrap();
    assert_eq!(oa, ob, "observation differs for {viewer:?}");
    assert_eq!(a.events().len(), b.events().len());
    for (ea, eb) in a.events().iter().zip(b.events()) {
        let va = serde_json::to_string(&a.game().view(ea, viewer)).unwrap();
        let vb = serde_json::to_string(&b.game().view(eb, viewer)).unwrap();
        assert_eq!(va, vb, "ply view differs for {viewer:?}");
        assert_eq!(
            a.game().view(ea, viewer).to_string(),
            b.game().view(eb, viewer).to_string()
        );
    }
    if let Viewer::Player(s) = viewer {
        assert_eq!(
            a.record(Copy::Seat(s))
                .to_text()
                .lines()
                .filter(|l| !l.contains("Commit"))
                .collect::<Vec<_>>(),
            b.record(Copy::Seat(s))
                .to_text()
                .lines()
                .filter(|l| !l.contains("Commit"))
                .collect::<Vec<_>>(),
            "seat copy differs (apart from the opponent's commitment)"
        );
    }
}
