//! Stratego Ultimate Lightning: one test per rule of `docs/rules-stratego.md`, "Ultimate
//! Lightning", and the real Gravon games in `tests/data/gravon-ul/`.

mod common;
#[path = "common/stratego_twin.rs"]
mod stratego_twin;

use proptest::prelude::*;
use salpakan_engine::gravon::import_gravon;
use salpakan_engine::stratego::{
    Army, Defuser, Duel, Piece, Setup, Setups, Square, Stratego, StrategoOptions,
};
use salpakan_engine::{
    EndReason, Game, GameOptions, Match, Outcome, PlayError, Record, Seat, Viewer, rng_from_seed,
};

const RED: Seat = Seat::First;
const BLUE: Seat = Seat::Second;

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gravon-ul");

/// A game with the Ultimate Lightning rules but a free army on the whole board.
fn game(opts: &str, red: &str, blue: &str) -> Match<Stratego> {
    let text = format!("army=ul {opts}");
    let mut o = StrategoOptions::from_text(&text).unwrap();
    o.army = Army::Free;
    o.setup_area = salpakan_engine::stratego::SetupArea::Board;
    let hidden = Setups([
        Setup::parse(RED, &o, red).unwrap(),
        Setup::parse(BLUE, &o, blue).unwrap(),
    ]);
    Match::start(&o, hidden, &mut rng_from_seed(1)).unwrap()
}

fn mv(s: &str) -> salpakan_engine::stratego::Move {
    s.parse().unwrap()
}

fn play(m: &mut Match<Stratego>, s: &str) -> String {
    let ev = m.play(mv(s)).unwrap_or_else(|e| panic!("{s}: {e}")).clone();
    m.game().view(&ev, Viewer::Arbiter).to_string()
}

fn legal(m: &Match<Stratego>, s: &str) -> bool {
    let mut all = Vec::new();
    m.game().legal_moves(&mut all);
    let listed = all.contains(&mv(s));
    assert_eq!(
        listed,
        m.game().is_legal(mv(s)),
        "{s}: legal_moves and is_legal agree"
    );
    listed
}

fn refused(m: &mut Match<Stratego>, s: &str) -> String {
    assert!(!legal(m, s), "{s} should be illegal");
    match m.play(mv(s)) {
        Err(PlayError::Illegal { reason, .. }) => reason,
        other => panic!("{s}: expected a refusal, got {other:?}"),
    }
}

const BLUE_FAR: &str = "j10:F a10:8 a9:4";

#[test]
fn ul_army_has_its_twenty_pieces_and_rules() {
    let o = StrategoOptions::from_text("army=ultimate_lightning").unwrap();
    let c = o.army.counts().unwrap();
    assert_eq!(c.iter().map(|&n| u32::from(n)).sum::<u32>(), 20);
    for (p, n) in [
        (Piece::Flag, 1),
        (Piece::Bomb, 2),
        (Piece::Spy, 1),
        (Piece::Scout, 4),
        (Piece::Miner, 2),
        (Piece::Sergeant, 2),
        (Piece::Lieutenant, 2),
        (Piece::Captain, 2),
        (Piece::Major, 1),
        (Piece::Colonel, 1),
        (Piece::General, 1),
        (Piece::Marshal, 1),
    ] {
        assert_eq!(c[p as usize], n, "{p:?}");
    }
    assert!(o.aggression && o.one_time_bombs);
    assert_eq!(
        (o.defuser, o.captain_steps, o.rescues),
        (Defuser::Scout, 2, 2)
    );
    assert_eq!(StrategoOptions::from_text("army=ul").unwrap(), o);
    // The canonical text lists only what differs from the army's own rules, and any rule
    // may be changed whatever order the options come in.
    assert_eq!(
        o.to_text(),
        "army=ultimate_lightning setup_area=standard scout_strike=true two_square_limit=3 chase_rule=true max_quiet_plies=off"
    );
    let changed = StrategoOptions::from_text("rescues=1 army=ul aggression=false").unwrap();
    assert_eq!((changed.rescues, changed.aggression), (1, false));
    assert_eq!(
        StrategoOptions::from_text(&changed.to_text()).unwrap(),
        changed
    );
    let classic = StrategoOptions::from_text(
        "aggression=true one_time_bombs=on defuser=scout captain_steps=2 rescues=2",
    )
    .unwrap();
    assert_eq!(
        StrategoOptions::from_text(&classic.to_text()).unwrap(),
        classic
    );
    assert!(StrategoOptions::from_text("captain_steps=3").is_err());
    assert!(StrategoOptions::from_text("defuser=spy").is_err());
}

#[test]
fn ul_random_and_sensible_setups_are_valid() {
    let o = StrategoOptions::from_text("army=ul").unwrap();
    for seed in 0..20 {
        let mut rng = rng_from_seed(seed);
        for seat in [RED, BLUE] {
            let s = Setup::random(seat, &o, &mut rng);
            assert_eq!(Setup::parse(seat, &o, &s.text()).unwrap(), s);
            let s = Setup::sensible(seat, &o, &mut rng);
            assert_eq!(Setup::parse(seat, &o, &s.text()).unwrap(), s);
        }
    }
}

#[test]
fn ul_attacker_wins_between_equal_ranks() {
    let o = StrategoOptions::from_text("army=ul").unwrap();
    for p in Piece::ALL.into_iter().filter(|p| p.is_movable()) {
        assert_eq!(o.battle(p, p), Duel::AttackerWins, "{p:?}");
    }
    let mut m = game("", "j1:F a4:7", "j10:F a5:7 b9:4");
    assert_eq!(play(&mut m, "a4-a5"), "a4-a5{7>7}");
    let classic = StrategoOptions::default();
    assert_eq!(
        classic.battle(Piece::Major, Piece::Major),
        Duel::BothRemoved
    );
}

#[test]
fn ul_bomb_is_removed_after_its_first_capture() {
    let mut m = game("", "j1:F a4:10 b4:5", "j10:F a5:B b5:B e9:4");
    assert_eq!(play(&mut m, "a4-a5"), "a4-a5{10=B}");
    assert!(
        m.game().at("a5".parse().unwrap()).is_none(),
        "the Bomb is gone"
    );
    play(&mut m, "e9-e8");
    assert_eq!(play(&mut m, "b4-b5"), "b4-b5{5=B}");
    let classic = StrategoOptions::default();
    assert_eq!(
        classic.battle(Piece::Marshal, Piece::Bomb),
        Duel::DefenderWins
    );
}

#[test]
fn ul_scouts_defuse_bombs_and_miners_do_not() {
    let mut m = game("", "j1:F a1:2 b4:3", "j10:F a8:B b5:B e9:4");
    assert_eq!(
        play(&mut m, "a1-a8"),
        "a1-a8{2>B}",
        "a Scout strikes a Bomb from afar"
    );
    play(&mut m, "e9-e8");
    assert_eq!(
        play(&mut m, "b4-b5"),
        "b4-b5{3=B}",
        "a Miner dies with the Bomb"
    );
    let o = StrategoOptions::from_text("army=ul").unwrap();
    assert_eq!(o.battle(Piece::Scout, Piece::Bomb), Duel::AttackerWins);
    assert_eq!(o.battle(Piece::Miner, Piece::Bomb), Duel::BothRemoved);
}

#[test]
fn ul_captain_moves_two_squares_straight_or_turning_once() {
    let m = game("", "j1:F e2:6 a1:7", BLUE_FAR);
    for to in ["e4", "g2", "c2", "d3", "f3", "d1", "f1", "e3", "e1"] {
        assert!(legal(&m, &format!("e2-{to}")), "e2-{to}");
    }
    assert!(!legal(&m, "e2-e5"), "three squares");
    assert!(!legal(&m, "e2-g3"), "a knight's move is three squares");
    assert!(!legal(&m, "a1-a3"), "a Major moves one square");
    // Blocked: both squares between a turning move occupied, or the square of a straight one.
    let mut m = game("", "j1:F e2:6 e3:4 f2:4 a1:7", BLUE_FAR);
    let why = refused(&mut m, "e2-f3");
    assert!(why.contains("two squares"), "{why}");
    assert!(!legal(&m, "e2-e4"));
    assert!(legal(&m, "e2-d3"));
    // Lakes: c5 and d5 are lakes.
    let m = game("", "j1:F c4:6 a1:7", BLUE_FAR);
    assert!(!legal(&m, "c4-c6"));
    assert!(legal(&m, "c4-b5"), "via b4");
}

#[test]
fn ul_captain_may_attack_at_the_end_of_a_two_square_move() {
    let mut m = game("", "j1:F e2:6", "j10:F f3:5 e4:7 a9:4");
    assert_eq!(play(&mut m, "e2-f3"), "e2-f3{6>5}");
    play(&mut m, "a9-a8");
    assert_eq!(play(&mut m, "f3-f4"), "f3-f4");
}

#[test]
fn ul_captain_turning_shows_it_is_a_captain_but_a_straight_two_square_move_does_not() {
    let mut m = game("", "j1:F e2:6 a1:2", BLUE_FAR);
    let ev = m.play(mv("e2-f3")).unwrap().clone();
    assert_eq!(
        m.game().view(&ev, Viewer::Player(BLUE)).piece,
        Some(Piece::Captain)
    );
    play(&mut m, "a9-a8");
    let ev = m.play(mv("a1-a3")).unwrap().clone();
    assert_eq!(
        m.game().view(&ev, Viewer::Player(BLUE)).piece,
        None,
        "a Scout or a Captain"
    );
    play(&mut m, "a8-a9");
    let ev = m.play(mv("f3-f5")).unwrap().clone();
    assert_eq!(
        m.game().view(&ev, Viewer::Player(BLUE)).piece,
        Some(Piece::Captain),
        "known since e2-f3"
    );
}

/// Red's Colonel on b9 reaches rank 10 with a lost Major to rescue.
fn rescue_position() -> Match<Stratego> {
    let mut m = game("", "j1:F b9:8 e4:7 a1:5", "j10:F e5:10 d10:5 h9:4 h10:2");
    assert_eq!(play(&mut m, "e4-e5"), "e4-e5{7<10}");
    play(&mut m, "h9-h8");
    m
}

#[test]
fn ul_rescue_brings_back_a_lost_piece_when_reaching_the_back_rank() {
    let mut m = rescue_position();
    assert!(legal(&m, "b9-b10+7@e4"));
    assert!(legal(&m, "b9-b10"), "a rescue is optional");
    assert!(!legal(&m, "b9-b10+10@e4"), "no Marshal was lost");
    assert!(!legal(&m, "b9-a9+7@e4"), "a9 is not on the back rank");
    assert!(
        !legal(&m, "b9-b10+7@e6"),
        "a rescued piece goes on its own half"
    );
    assert!(!legal(&m, "b9-b10+7@a1"), "onto an empty square");
    assert_eq!(play(&mut m, "b9-b10+7@e4"), "b9-b10+7@e4");
    let o = m.game().observe(Viewer::Player(BLUE));
    let v = o.board.get(&"e4".parse().unwrap()).unwrap();
    assert_eq!(
        (v.piece, v.known),
        (Some(Piece::Major), true),
        "a rescue is public"
    );
    assert!(o.eliminated["red"].is_empty(), "the Major is back");
    assert_eq!(m.game().rescues_made(), [1, 0]);
}

#[test]
fn ul_rescue_by_an_attack_happens_only_if_the_attacker_stands() {
    let mut m = game("", "j1:F e4:7 c9:4 a1:4", "j10:F e5:10 c10:5 h9:4");
    play(&mut m, "e4-e5");
    play(&mut m, "h9-h8");
    // The Sergeant loses to the Lieutenant: the move is legal, the rescue is not made.
    assert_eq!(play(&mut m, "c9-c10+7@e4"), "c9-c10{4<5}");
    assert_eq!(m.game().rescues_made(), [0, 0]);
    assert_eq!(
        m.game().observe(Viewer::Arbiter).eliminated["red"],
        vec!["4", "7"]
    );
    let mut m2 = game("", "j1:F e4:7 d9:10", "j10:F e5:10 d10:5 h9:4");
    play(&mut m2, "e4-e5");
    play(&mut m2, "h9-h8");
    assert_eq!(play(&mut m2, "d9-d10+7@e4"), "d9-d10{10>5}+7@e4");
    assert_eq!(m2.game().rescues_made(), [1, 0]);
}

#[test]
fn ul_scouts_cannot_rescue() {
    let mut m = game("", "j1:F b1:2 e4:7", "j10:F e5:10 h9:4");
    play(&mut m, "e4-e5");
    play(&mut m, "h9-h8");
    let why = refused(&mut m, "b1-b10+7@e4");
    assert!(why.contains("Scout"), "{why}");
}

#[test]
fn ul_rescue_at_most_twice_and_never_twice_by_one_piece() {
    let mut m = game(
        "",
        "j1:F a9:8 c9:9 e9:7 e4:7 f4:5 i4:4",
        "j10:F e5:10 f5:10 i5:10 i9:4 h10:4",
    );
    for s in ["e4-e5", "i9-i8", "f4-f5", "h10-h9", "i4-i5", "i8-i7"] {
        play(&mut m, s);
    }
    assert_eq!(m.game().observe(Viewer::Arbiter).eliminated["red"].len(), 3);
    play(&mut m, "a9-a10+7@e4");
    play(&mut m, "h9-h8");
    let why = refused(&mut m, "a10-b10+5@f4");
    assert!(why.contains("one piece cannot make two"), "{why}");
    play(&mut m, "c9-c10+5@f4");
    play(&mut m, "i7-i8");
    let why = refused(&mut m, "e9-e10+4@i4");
    assert!(why.contains("all 2"), "{why}");
    assert!(legal(&m, "e9-e10"));
    assert_eq!(m.game().rescues_made(), [2, 0]);
}

#[test]
fn ul_rescue_is_written_after_the_attack_and_read_back_from_records() {
    let tok = "d9-d10{10>5}+7@e4";
    let mv = <Stratego as Game>::parse_token(tok).unwrap();
    assert_eq!(mv.to_string(), "d9-d10+7@e4");
    assert!(
        "d9-d10+7"
            .parse::<salpakan_engine::stratego::Move>()
            .is_err()
    );
    assert!(
        "d9-d10+Q@e4"
            .parse::<salpakan_engine::stratego::Move>()
            .is_err()
    );
}

#[test]
fn ul_a_side_without_movable_pieces_loses_even_with_rescues_left() {
    let mut m = game("", "j1:F e4:4", "j10:F e5:B a9:4");
    assert_eq!(play(&mut m, "e4-e5"), "e4-e5{4=B}");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(BLUE, EndReason::NoLegalMoves))
    );
}

#[test]
fn ul_random_games_keep_the_invariants_and_end() {
    let o = StrategoOptions::from_text("army=ul max_quiet_plies=400").unwrap();
    let mut rescues = 0;
    for seed in 0..30 {
        let mut rng = rng_from_seed(seed + 1000);
        let mut m = Match::<Stratego>::random(&o, seed).unwrap();
        while m.game().outcome().is_none() {
            let mut all = Vec::new();
            m.game().legal_moves(&mut all);
            assert!(!all.is_empty(), "a side to move has a legal move");
            for mv in &all {
                assert!(m.game().is_legal(*mv), "{mv} listed but refused");
            }
            let mv = m.game().random_move(&mut rng).unwrap();
            let ev = m.play(mv).unwrap().clone();
            rescues += usize::from(ev.rescue.is_some());
        }
        common::check_records(&m);
    }
    assert!(rescues > 0, "random play makes rescues");
}

fn sample(name: &str) -> String {
    std::fs::read_to_string(format!("{SAMPLES}/{name}")).unwrap()
}

#[test]
fn ul_gravon_sample_games_replay_to_their_recorded_results() {
    let mut names: Vec<String> = std::fs::read_dir(SAMPLES)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".xml"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 3);
    let mut rescues = Vec::new();
    for name in &names {
        let rec = import_gravon(&sample(name), name, None).unwrap_or_else(|e| panic!("{e}"));
        let parsed = Record::parse(&rec.to_text()).unwrap();
        let m = Match::<Stratego>::replay(&parsed).unwrap_or_else(|e| panic!("{name}: {e}"));
        m.verify(&parsed).unwrap();
        assert!(m.game().outcome().is_some(), "{name}");
        assert!(m.game().options().aggression, "{name}");
        rescues.push(m.game().rescues_made());
        common::check_records(&m);
    }
    // 2005.5-4822: Blue twice; 2014.3-717: both sides twice; 2014.6-1138: none.
    assert_eq!(rescues, vec![[0, 2], [2, 2], [0, 0]]);
}

#[test]
fn ul_gravon_rescue_moves_read_j_as_the_tenth_file() {
    let xml = sample("ultimate lightning-2005.5-4822.xml");
    let rec = import_gravon(&xml, "ultimate lightning-2005.5-4822.xml", None).unwrap();
    let text = rec.to_text();
    assert!(
        text.contains("j2-j1+10@e7"),
        "the Colonel's K2-K1 rescues the Marshal"
    );
    // Outside a rescue move, J is no square.
    let bad = xml.replace(
        "<move id=\"1\" source=\"E4\" target=\"E5\"/>",
        "<move id=\"1\" source=\"J4\" target=\"J5\"/>",
    );
    let e = import_gravon(&bad, "x.xml", None).unwrap_err().to_string();
    assert!(e.contains("move id=1"), "{e}");
}

#[test]
fn ul_random_games_pass_the_common_invariants() {
    let o = StrategoOptions::from_text("army=ul max_quiet_plies=300").unwrap();
    for seed in 0..6 {
        common::random_game_invariants::<Stratego>(&o, seed, 20_000);
    }
}

// ---------------------------------------------------------------------------------------
// No leak (as in tests/stratego.rs, for Ultimate Lightning): twins that differ only in
// unseen enemy ranks look identical to that viewer and to spectators, rescues included.

fn ul_twin_check(seed: u64, plies: usize) -> Result<usize, TestCaseError> {
    stratego_twin::twin_check("army=ul max_quiet_plies=400", seed, plies)
}

#[test]
fn ul_no_leak_twins_are_found_and_compared() {
    let mut n = 0;
    for seed in 0..40 {
        // A twin whose moves are not all legal (a swapped piece could not have moved so:
        // the viewer can tell them apart) is skipped.
        match ul_twin_check(seed, 40 + 10 * seed as usize) {
            Ok(c) => n += c,
            Err(TestCaseError::Reject(_)) => {}
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
    assert!(n >= 20, "only {n} twins compared");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn ul_no_leak_twins_differing_in_unseen_enemy_ranks_look_identical(seed in 0u64..1_000_000, plies in 0usize..300) {
        ul_twin_check(seed, plies)?;
    }
}

#[test]
fn ul_two_squares_rule_counts_captain_two_square_moves() {
    // Straight: a1-a3 covers a1 a2 a3; the fourth crossing in a row is refused.
    let mut m = game("", "j1:F a1:6", "j10:F a10:8 c9:4 a9:4");
    for (r, b) in [("a1-a3", "c9-c8"), ("a3-a1", "c8-c9"), ("a1-a3", "c9-c8")] {
        play(&mut m, r);
        play(&mut m, b);
    }
    let why = refused(&mut m, "a3-a1");
    assert!(why.contains("two-squares"), "{why}");
    assert!(!legal(&m, "a3-a2"), "a3-a2 crosses a2|a3 again");
    assert!(legal(&m, "a3-a5"));
    // Turning: e2-f3 covers only e2 and f3.
    let mut m = game("", "j1:F e2:6", "j10:F a10:8 c9:4 a9:4");
    for (r, b) in [("e2-f3", "c9-c8"), ("f3-e2", "c8-c9"), ("e2-f3", "c9-c8")] {
        play(&mut m, r);
        play(&mut m, b);
    }
    let why = refused(&mut m, "f3-e2");
    assert!(why.contains("two-squares"), "{why}");
    assert!(legal(&m, "f3-e3"), "shares only f3 with the run");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// As tests/stratego.rs's property for the classic rules, with rescues: after random
    /// play, every move text the engine accepts (every from-to, and every rescue of every
    /// piece to every square for the pieces near the enemy's back rank) is generated and
    /// vice versa, and a side to move always has a legal move unless the game is over.
    #[test]
    fn ul_accepted_moves_are_the_generated_moves_and_no_side_is_stuck(
        seed in any::<u64>(),
        plies in 0usize..300,
    ) {
        let o = StrategoOptions::from_text("army=ul").unwrap();
        let mut m = Match::<Stratego>::random(&o, seed).unwrap();
        common::random_plies_never_stuck(&mut m, plies, seed).map_err(TestCaseError::fail)?;
        common::accepted_equals_generated(m.game(), &rescue_texts(&m))
            .map_err(TestCaseError::fail)?;
    }
}

/// Every from-to text, and every rescue of every piece to every square after a move onto
/// the enemy's back rank by a piece of the side to move standing near it.
fn rescue_texts(m: &Match<Stratego>) -> Vec<String> {
    let mut texts = common::all_move_texts();
    if let Some(me) = m.game().to_move() {
        let back = if me == RED { 9 } else { 0 };
        let near: Vec<Square> = Square::all()
            .filter(|s| {
                s.rank().abs_diff(back) <= 2 && matches!(m.game().at(*s), Some((o, _)) if o == me)
            })
            .collect();
        for from in near {
            for to in Square::all().filter(|s| s.rank() == back) {
                for p in Piece::ALL {
                    for at in Square::all() {
                        texts.push(format!("{from}-{to}+{}@{at}", p.code()));
                    }
                }
            }
        }
    }
    texts
}

#[test]
fn ul_accepted_rescues_are_exactly_the_generated_rescues() {
    let mut m = game(
        "",
        "j1:F a9:8 c9:9 e9:7 d8:6 b9:2 e4:7 f4:5 i4:4",
        "j10:F e5:10 f5:10 i5:10 i9:4 h10:4 c10:5",
    );
    for s in ["e4-e5", "i9-i8", "f4-f5", "h10-h9"] {
        play(&mut m, s);
    }
    let mut g = Vec::new();
    m.game().legal_moves(&mut g);
    assert!(g.iter().filter(|x| x.rescue.is_some()).count() > 100);
    common::accepted_equals_generated(m.game(), &rescue_texts(&m)).unwrap();
    play(&mut m, "a9-a10+7@e4");
    play(&mut m, "h9-h8");
    // The rescuer stands on a10 and may not rescue again; the others may, once more.
    common::accepted_equals_generated(m.game(), &rescue_texts(&m)).unwrap();
    play(&mut m, "d8-d10+5@f4");
    play(&mut m, "h8-h9");
    // Both rescues made: none is generated or accepted.
    let mut g = Vec::new();
    m.game().legal_moves(&mut g);
    assert!(g.iter().all(|x| x.rescue.is_none()));
    common::accepted_equals_generated(m.game(), &rescue_texts(&m)).unwrap();
}
