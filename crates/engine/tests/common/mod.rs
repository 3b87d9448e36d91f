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

/// Every move text the games' notations can write on a board of up to 10 × 10: `end`, each
/// square alone (a Banqi flip), and every `from-to` pair. Texts that do not parse for a
/// game (another board size, a form the game has not) are skipped by
/// [`accepted_equals_generated`].
pub fn all_move_texts() -> Vec<String> {
    let squares: Vec<String> = (1..=10)
        .flat_map(|r| ('a'..='j').map(move |f| format!("{f}{r}")))
        .collect();
    let mut v = vec!["end".to_string()];
    v.extend(squares.iter().cloned());
    for a in &squares {
        for b in &squares {
            v.push(format!("{a}-{b}"));
        }
    }
    v
}

/// The moves the engine accepts in `g` — every text of `texts` that parses and that
/// [`Game::play`] takes on a copy of the state — are exactly the moves
/// [`Game::legal_moves`] generates, and [`Game::is_legal`] agrees with both. A refusal
/// changes nothing.
pub fn accepted_equals_generated<G: Game + PartialEq>(
    g: &G,
    texts: &[String],
) -> Result<(), String> {
    use std::collections::HashSet;
    let mut generated = Vec::new();
    g.legal_moves(&mut generated);
    let generated: HashSet<G::Move> = generated.into_iter().collect();
    let mut accepted = HashSet::new();
    for t in texts {
        let Ok(mv) = t.parse::<G::Move>() else {
            continue;
        };
        let mut copy = g.clone();
        let ok = copy.play(mv).is_ok();
        if !ok && copy != *g {
            return Err(format!("the refused move {mv} changed the state"));
        }
        if ok != g.is_legal(mv) {
            return Err(format!("{mv}: play says {ok}, is_legal says {}", !ok));
        }
        if ok {
            accepted.insert(mv);
        }
    }
    if accepted != generated {
        let only_accepted: Vec<String> = accepted
            .difference(&generated)
            .map(|m| m.to_string())
            .collect();
        let only_generated: Vec<String> = generated
            .difference(&accepted)
            .map(|m| m.to_string())
            .collect();
        return Err(format!(
            "accepted but not generated: {only_accepted:?}; generated but not accepted: {only_generated:?}"
        ));
    }
    Ok(())
}

/// Plays random moves from `m` for up to `plies` plies, checking after every ply that a
/// side to move has a legal move unless the game is over (and none once it is over).
pub fn random_plies_never_stuck<G: Game>(
    m: &mut Match<G>,
    plies: usize,
    seed: u64,
) -> Result<(), String> {
    let mut rng = rng_from_seed(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        m.game().legal_moves(&mut moves);
        match (m.game().outcome(), moves.is_empty()) {
            (None, true) => {
                return Err(format!(
                    "ply {}: the side to move has no legal move but the game is not over",
                    m.game().ply()
                ));
            }
            (Some(o), false) => {
                return Err(format!("the game is over ({o:?}) yet moves are generated"));
            }
            (Some(_), true) => return Ok(()),
            (None, false) => {}
        }
        // Half the time, move the piece moved two plies ago straight back when that is legal:
        // back-and-forth play reaches the repetition rules' positions far more often.
        let back = m.moves().len().checked_sub(2).and_then(|i| {
            let text = m.moves()[i].to_string();
            let (a, b) = text.split_once('-')?;
            format!("{b}-{a}").parse::<G::Move>().ok()
        });
        let mv = match back {
            Some(b) if moves.contains(&b) && rand::Rng::random_bool(&mut rng, 0.5) => b,
            _ => moves[rand::Rng::random_range(&mut rng, 0..moves.len())],
        };
        m.play(mv)
            .map_err(|e| format!("generated move {mv} refused: {e}"))?;
    }
    Ok(())
}
