//! Game of the Generals, as RULES.md §1 specifies it.

mod common;

use proptest::prelude::*;
use salpakan_engine::generals::{
    Army, Duel, FlagRule, Generals, GeneralsOptions, Move, Piece, Reveal, Setup, Setups, Square,
    duel,
};
use salpakan_engine::{
    Copy, EndReason, Game, GameOptions, Match, Outcome, PlayError, Seat, SetupError, Viewer,
    rng_from_seed,
};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// A game from explicit placements (`"e3:FLG d1:PVT"`) with the given options; the army is
/// the pieces placed by White (Black must place the same pieces).
fn game_with(options: &str, white: &str, black: &str) -> Match<Generals> {
    let mut o = GeneralsOptions::from_text(options).unwrap();
    let count = |t: &str| {
        let mut counts = [0u8; 15];
        for w in t.split_whitespace() {
            let p = Piece::from_code(w.split(':').nth(1).unwrap()).unwrap();
            counts[p as usize] += 1;
        }
        counts
    };
    assert_eq!(count(white), count(black), "both sides play the same army");
    o.army = Army::new(count(white)).unwrap();
    let w = Setup::parse(Seat::First, &o.army, white).unwrap();
    let b = Setup::parse(Seat::Second, &o.army, black).unwrap();
    Match::start(&o, Setups([w, b]), &mut rng_from_seed(1)).unwrap()
}

fn play(m: &mut Match<Generals>, moves: &str) {
    for w in moves.split_whitespace() {
        m.play(mv(w)).unwrap_or_else(|e| panic!("{w}: {e}"));
    }
}

// ---- The arbitration matrix ------------------------------------------------------------

/// RULES.md's matrix written out by hand: row = challenger, column = challenged, in the order
/// 5G 4G 3G 2G 1G COL LTC MAJ CPT 1LT 2LT SGT PVT SPY FLG. `A` the challenger eliminates the
/// challenged piece, `D` the challenged piece eliminates the challenger, `B` both go.
const MATRIX: [&str; 15] = [
    "BAAAAAAAAAAAADA", // 5G
    "DBAAAAAAAAAAADA", // 4G
    "DDBAAAAAAAAAADA", // 3G
    "DDDBAAAAAAAAADA", // 2G
    "DDDDBAAAAAAAADA", // 1G
    "DDDDDBAAAAAAADA", // COL
    "DDDDDDBAAAAAADA", // LTC
    "DDDDDDDBAAAAADA", // MAJ
    "DDDDDDDDBAAAADA", // CPT
    "DDDDDDDDDBAAADA", // 1LT
    "DDDDDDDDDDBAADA", // 2LT
    "DDDDDDDDDDDBADA", // SGT
    "DDDDDDDDDDDDBAA", // PVT: loses to every officer, splits with a Private, beats Spy and Flag
    "AAAAAAAAAAAADBA", // SPY: beats every officer and the Sergeant, loses to the Private
    "DDDDDDDDDDDDDDA", // FLG: loses to everything but the Flag, which it beats as challenger
];

#[test]
fn all_225_challenge_pairs_follow_the_arbitration_matrix() {
    for (a, row) in MATRIX.iter().enumerate() {
        for (d, want) in row.chars().enumerate() {
            let (pa, pd) = (Piece::ALL[a], Piece::ALL[d]);
            let want = match want {
                'A' => Duel::AttackerWins,
                'D' => Duel::DefenderWins,
                _ => Duel::BothEliminated,
            };
            assert_eq!(duel(pa, pd), want, "{pa} challenging {pd}");
        }
    }
}

#[test]
fn a_challenge_on_the_board_removes_the_loser_and_the_winner_takes_the_square() {
    // White CPT d3 challenges Black PVT d4 and moves in; Black SPY then takes it.
    let mut m = game_with(
        "",
        "a1:FLG d3:CPT i1:PVT e1:SPY",
        "a8:FLG d6:PVT e6:SPY i8:CPT",
    );
    play(&mut m, "d3-d4 d6-d5 d4-d5");
    assert_eq!(m.game().at(sq("d5")), Some((Seat::First, Piece::Captain)));
    assert_eq!(m.game().at(sq("d4")), None);
    play(&mut m, "e6-e5 a1-a2 e5-d5");
    assert_eq!(m.game().at(sq("d5")), Some((Seat::Second, Piece::Spy)));
    assert_eq!(m.game().at(sq("e5")), None);
    // A split removes both.
    let mut m = game_with("", "a1:FLG d3:PVT", "a8:FLG d6:PVT");
    play(&mut m, "d3-d4 d6-d5 d4-d5");
    assert_eq!(m.game().at(sq("d5")), None);
    assert_eq!(m.game().at(sq("d4")), None);
}

#[test]
fn capturing_the_flag_wins_and_a_flag_challenging_a_flag_wins() {
    let mut m = game_with("", "a1:FLG d3:PVT", "d6:FLG i8:PVT");
    play(&mut m, "d3-d4 i8-i7 d4-d5 i7-i8 d5-d6");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(Seat::First, EndReason::FlagCaptured))
    );

    let mut m = game_with("", "d3:FLG a1:PVT", "d6:FLG i8:PVT");
    play(&mut m, "d3-d4 i8-i7 d4-d5 i7-i8 d5-d6");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(Seat::First, EndReason::FlagCaptured))
    );

    // A Flag that challenges anything else is eliminated, and its side loses.
    let mut m = game_with("", "d3:FLG a1:PVT", "a8:FLG d6:PVT");
    play(&mut m, "d3-d4 d6-d5 d4-d5");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(Seat::Second, EndReason::FlagCaptured))
    );
}

// ---- Movement ------------------------------------------------------------------------

#[test]
fn pieces_move_one_square_orthogonally_never_diagonally_or_onto_a_friend() {
    let mut m = game_with("", "e3:FLG e2:PVT", "a8:FLG i8:PVT");
    let mut legal = Vec::new();
    m.game().legal_moves(&mut legal);
    let mut names: Vec<String> = legal.iter().map(ToString::to_string).collect();
    names.sort();
    assert_eq!(
        names,
        ["e2-d2", "e2-e1", "e2-f2", "e3-d3", "e3-e4", "e3-f3"]
    );
    for (bad, why) in [
        ("e3-f4", "diagonally"),
        ("e3-e5", "one square"),
        ("e3-e2", "your own"),
        ("a8-a7", "black piece"),
        ("c3-c4", "no piece"),
    ] {
        let before = m.game().clone();
        let err = m.play(mv(bad)).unwrap_err();
        assert!(matches!(err, PlayError::Illegal { .. }), "{bad}: {err}");
        assert!(err.to_string().contains(why), "{bad}: {err}");
        assert_eq!(m.game(), &before, "an illegal move changes nothing");
    }
    assert!("e3e4".parse::<Move>().is_err());
    assert!("e3-j4".parse::<Move>().is_err());
}

#[test]
fn first_option_decides_who_moves_first() {
    let m = game_with("first=black", "a1:FLG", "a8:FLG");
    assert_eq!(m.game().to_move(), Some(Seat::Second));
    let m = game_with("", "a1:FLG", "a8:FLG");
    assert_eq!(m.game().to_move(), Some(Seat::First));
}

// ---- The flag rules ------------------------------------------------------------------

/// White's Flag walks e3..e8; Black shuffles a8-a7-a8. With `black_extra` next to e8 or not.
fn flag_walk(rule: &str, black_guard: &str) -> Match<Generals> {
    let mut m = game_with(
        &format!("flag_rule={rule}"),
        "e3:FLG a1:PVT i1:SPY",
        &format!("a8:FLG i7:SPY {black_guard}:PVT"),
    );
    play(&mut m, "e3-e4 a8-a7 e4-e5 a7-a8 e5-e6 a8-a7 e6-e7 a7-a8");
    m
}

#[test]
fn adjacent_rule_flag_arriving_unopposed_wins_at_once() {
    let mut m = flag_walk("adjacent", "b8");
    play(&mut m, "e7-e8");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(Seat::First, EndReason::FlagReachedBackRank))
    );
}

#[test]
fn adjacent_rule_flag_arriving_next_to_an_enemy_gives_one_turn_and_wins_if_not_challenged() {
    let mut m = flag_walk("adjacent", "d8");
    play(&mut m, "e7-e8");
    assert_eq!(
        m.game().outcome(),
        None,
        "an enemy piece on d8 is adjacent: Black gets one turn"
    );
    // The arbiter does not announce the arrival: Black sees an ordinary move.
    let v = m
        .game()
        .view(m.events().last().unwrap(), Viewer::Player(Seat::Second));
    assert_eq!(v.to_string(), "e7-e8");
    assert_eq!(v.piece, None);
    play(&mut m, "a8-a7");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(Seat::First, EndReason::FlagReachedBackRank))
    );
}

#[test]
fn adjacent_rule_flag_challenged_in_that_one_turn_is_captured() {
    let mut m = flag_walk("adjacent", "d8");
    play(&mut m, "e7-e8 d8-e8");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(Seat::Second, EndReason::FlagCaptured))
    );
}

#[test]
fn flag_race_the_earlier_arrival_is_settled_first() {
    // Both Flags walk home; White's arrives first next to a Black piece; Black's answer
    // brings Black's own Flag to rank 1, but White's earlier arrival wins.
    let mut m = game_with("flag_rule=adjacent", "e3:FLG a3:PVT", "f6:FLG d8:PVT");
    play(
        &mut m,
        "e3-e4 f6-f5 e4-e5 f5-f4 e5-e6 f4-f3 e6-e7 f3-f2 e7-e8",
    );
    assert_eq!(m.game().outcome(), None);
    play(&mut m, "f2-f1");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(Seat::First, EndReason::FlagReachedBackRank))
    );
}

#[test]
fn one_turn_rule_always_gives_the_opponent_one_turn() {
    let mut m = flag_walk("one_turn", "b8");
    play(&mut m, "e7-e8");
    assert_eq!(
        m.game().outcome(),
        None,
        "even unopposed, Black gets one turn"
    );
    play(&mut m, "b8-b7");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(Seat::First, EndReason::FlagReachedBackRank))
    );
}

#[test]
fn electronic_rule_flag_wins_the_moment_it_arrives_even_next_to_an_enemy() {
    let mut m = flag_walk("electronic", "d8");
    play(&mut m, "e7-e8");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(Seat::First, EndReason::FlagReachedBackRank))
    );
}

#[test]
fn black_flag_goes_home_to_rank_one() {
    let mut m = game_with("first=black", "a1:FLG i3:PVT", "e6:FLG a8:PVT");
    play(
        &mut m,
        "e6-e5 i3-i4 e5-e4 i4-i3 e4-e3 i3-i4 e3-e2 i4-i3 e2-e1",
    );
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(Seat::Second, EndReason::FlagReachedBackRank))
    );
}

// ---- Draws and other endings ---------------------------------------------------------

#[test]
fn max_quiet_plies_draws_after_that_many_plies_without_a_challenge() {
    let mut m = game_with("max_quiet_plies=4", "a1:FLG i1:PVT", "a8:FLG i8:PVT");
    play(&mut m, "i1-i2 i8-i7 i2-i1");
    assert_eq!(m.game().outcome(), None);
    play(&mut m, "i7-i8");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::draw(EndReason::QuietPlies))
    );
    assert!(m.play(mv("i1-i2")).is_err(), "no move after the end");
}

#[test]
fn a_challenge_resets_the_quiet_ply_count() {
    let mut m = game_with(
        "max_quiet_plies=3",
        "a1:FLG d3:PVT i1:SPY",
        "a8:FLG d6:PVT i8:SPY",
    );
    play(&mut m, "d3-d4 d6-d5 d4-d5");
    assert_eq!(m.game().outcome(), None);
    assert_eq!(m.game().observe(Viewer::Spectator).quiet_plies, 0);
}

#[test]
fn resignation_and_agreement_end_the_game_from_outside_the_board() {
    let mut m = game_with("", "a1:FLG", "a8:FLG");
    m.conclude(Outcome::win(Seat::Second, EndReason::Resignation))
        .unwrap();
    assert_eq!(m.game().to_move(), None);
    assert!(m.conclude(Outcome::draw(EndReason::Agreement)).is_err());
}

// ---- Setups --------------------------------------------------------------------------

#[test]
fn setups_are_validated_with_the_square_the_piece_and_the_problem() {
    let army = Army::FULL;
    let random = Setup::random(Seat::First, &army, &mut rng_from_seed(9));
    let text = random.text();
    // Outside the area.
    let moved = text.replacen(&text[..2], "e5", 1);
    let e = Setup::parse(Seat::First, &army, &moved).unwrap_err();
    assert!(matches!(e, SetupError::OutsideArea { .. }), "{e}");
    assert!(
        e.to_string().contains("e5") && e.to_string().contains("ranks 1-3"),
        "{e}"
    );
    // A missing piece.
    let short: Vec<&str> = text.split(' ').filter(|w| !w.ends_with(":FLG")).collect();
    let e = Setup::parse(Seat::First, &army, &short.join(" ")).unwrap_err();
    assert_eq!(e.to_string(), "white: FLG: expected 1, found 0");
    // Unknown code, bad square, two pieces on a square.
    let e = Setup::parse(Seat::Second, &army, "a8:KING").unwrap_err();
    assert!(
        e.to_string().contains("a8") && e.to_string().contains("KING"),
        "{e}"
    );
    let e = Setup::parse(Seat::Second, &army, "z9:FLG").unwrap_err();
    assert!(e.to_string().contains("z9"), "{e}");
    let e = Setup::parse(
        Seat::Second,
        &Army::new([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1]).unwrap(),
        "a8:FLG a8:PVT",
    )
    .unwrap_err();
    assert!(e.to_string().contains("two pieces"), "{e}");
    // Black sets up on ranks 6-8.
    assert!(
        Setup::parse(
            Seat::Second,
            &Army::new([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]).unwrap(),
            "a1:FLG"
        )
        .is_err()
    );
}

#[test]
fn random_setups_are_valid_and_vary_with_the_seed() {
    let a = Setup::random(Seat::Second, &Army::FULL, &mut rng_from_seed(1));
    let b = Setup::random(Seat::Second, &Army::FULL, &mut rng_from_seed(2));
    assert_ne!(a, b);
    assert_eq!(
        a,
        Setup::random(Seat::Second, &Army::FULL, &mut rng_from_seed(1))
    );
    assert_eq!(
        Setup::parse(Seat::Second, &Army::FULL, &a.text()).unwrap(),
        a
    );
    assert_eq!(a.placements().len(), 21);
}

#[test]
fn options_round_trip_and_bad_options_are_refused_clearly() {
    let o = GeneralsOptions::from_text(
        "first=black flag_rule=one_turn reveal=winner reveal_at_end=false max_quiet_plies=200 open_flag=true army=reduced",
    )
    .unwrap();
    assert_eq!(o.flag_rule, FlagRule::OneTurn);
    assert_eq!(o.reveal, Reveal::Winner);
    assert_eq!(GeneralsOptions::from_text(&o.to_text()).unwrap(), o);
    assert_eq!(GeneralsOptions::from_json(&o.to_json()).unwrap(), o);
    let e = GeneralsOptions::from_text("flag_rule=sometimes").unwrap_err();
    assert!(
        e.to_string().contains("adjacent, one_turn, electronic"),
        "{e}"
    );
    let e = GeneralsOptions::from_text("colour=red").unwrap_err();
    assert!(e.to_string().contains("flag_rule"), "{e}");
    assert!(
        GeneralsOptions::from_text("army=PVT:3").is_err(),
        "an army needs its Flag"
    );
}

// ---- What each viewer sees -----------------------------------------------------------

#[test]
fn reveal_none_shows_only_who_left_the_board() {
    let mut m = game_with("", "a1:FLG d3:CPT i1:PVT", "a8:FLG d6:PVT i8:CPT");
    play(&mut m, "d3-d4 d6-d5 d4-d5");
    let ev = m.events().last().unwrap();
    let black = m.game().view(ev, Viewer::Player(Seat::Second));
    assert_eq!(black.to_string(), "d4-d5{?>PVT}");
    let white = m.game().view(ev, Viewer::Player(Seat::First));
    assert_eq!(white.to_string(), "d4-d5{CPT>?}");
    assert_eq!(
        m.game().view(ev, Viewer::Spectator).to_string(),
        "d4-d5{?>?}"
    );
    assert_eq!(
        m.game().view(ev, Viewer::Arbiter).to_string(),
        "d4-d5{CPT>PVT}"
    );
    let json = serde_json::to_string(&black).unwrap();
    assert!(!json.contains("CPT"), "{json}");
    assert!(json.contains(r#""emptied":["d4"]"#), "{json}");
    let obs = m.game().observe(Viewer::Player(Seat::Second));
    assert_eq!(
        obs.board[&sq("d5")].piece,
        None,
        "the winner's rank stays hidden"
    );
    assert_eq!(obs.eliminated["black"], ["PVT"]);
}

#[test]
fn reveal_winner_shows_the_survivor_and_keeps_it_known() {
    let mut m = game_with(
        "reveal=winner",
        "a1:FLG d3:CPT i1:PVT",
        "a8:FLG d6:PVT i8:CPT",
    );
    play(&mut m, "d3-d4 d6-d5 d4-d5");
    let ev = m.events().last().unwrap();
    assert_eq!(
        m.game().view(ev, Viewer::Player(Seat::Second)).to_string(),
        "d4-d5{CPT>PVT}"
    );
    assert_eq!(
        m.game().view(ev, Viewer::Spectator).to_string(),
        "d4-d5{CPT>?}"
    );
    play(&mut m, "a8-a7 d5-d6");
    let obs = m.game().observe(Viewer::Player(Seat::Second));
    assert_eq!(
        obs.board[&sq("d6")].piece,
        Some(Piece::Captain),
        "the revealed piece stays known as it moves"
    );
    assert_eq!(obs.board[&sq("i1")].piece, None);
}

#[test]
fn reveal_both_shows_both_ranks() {
    let mut m = game_with(
        "reveal=both",
        "a1:FLG d3:PVT i1:CPT",
        "a8:FLG d6:CPT i8:PVT",
    );
    play(&mut m, "d3-d4 d6-d5 d4-d5");
    let ev = m.events().last().unwrap();
    assert_eq!(
        m.game().view(ev, Viewer::Spectator).to_string(),
        "d4-d5{PVT<CPT}"
    );
    assert_eq!(
        m.game().observe(Viewer::Spectator).eliminated["white"],
        ["PVT"]
    );
}

#[test]
fn open_flag_shows_each_flag_to_the_opponent() {
    let m = game_with("open_flag=true", "a1:FLG b1:PVT", "a8:FLG b8:PVT");
    let obs = m.game().observe(Viewer::Player(Seat::First));
    assert_eq!(obs.board[&sq("a8")].piece, Some(Piece::Flag));
    assert_eq!(obs.board[&sq("b8")].piece, None);
}

#[test]
fn reveal_at_end_shows_every_piece_once_the_game_is_over() {
    for (opt, shown) in [("reveal_at_end=true", true), ("reveal_at_end=false", false)] {
        let mut m = game_with(opt, "a1:FLG d3:PVT i1:SPY", "d6:FLG i8:SPY a8:PVT");
        assert_eq!(
            m.game().observe(Viewer::Spectator).board[&sq("i8")].piece,
            None
        );
        play(&mut m, "d3-d4 i8-i7 d4-d5 i7-i8 d5-d6");
        assert!(m.game().outcome().is_some());
        assert_eq!(
            m.game().observe(Viewer::Spectator).board[&sq("i8")]
                .piece
                .is_some(),
            shown,
            "{opt}"
        );
    }
}

// ---- Random games --------------------------------------------------------------------

fn arena_options() -> GeneralsOptions {
    GeneralsOptions {
        max_quiet_plies: Some(200),
        ..GeneralsOptions::default()
    }
}

#[test]
fn random_games_keep_every_invariant_and_replay_from_their_records() {
    for seed in 0..40 {
        let mut o = arena_options();
        o.flag_rule =
            [FlagRule::Adjacent, FlagRule::OneTurn, FlagRule::Electronic][seed as usize % 3];
        o.reveal = [Reveal::None, Reveal::Winner, Reveal::Both][seed as usize / 3 % 3];
        o.first = Seat::from_index(seed as usize % 2);
        common::random_game_invariants::<Generals>(&o, seed, 100_000);
    }
}

#[test]
fn a_record_with_a_wrong_annotation_or_result_is_refused() {
    let m = common::random_game_invariants::<Generals>(&arena_options(), 5, 100_000);
    let full = m.record(Copy::Full);
    let i = full
        .plies
        .iter()
        .position(|p| p.contains('{'))
        .expect("a random game has challenges");
    let mut bad = full.clone();
    bad.plies[i] = bad.plies[i]
        .replace('>', "#")
        .replace('<', ">")
        .replace('#', "<");
    if bad.plies[i] == full.plies[i] {
        bad.plies[i] = bad.plies[i].replace('=', ">");
    }
    let e = Match::<Generals>::replay(&bad).unwrap_err();
    assert!(e.to_string().contains(&format!("ply {}", i + 1)), "{e}");
    let mut bad = full.clone();
    bad.result = if full.result == "1-0" {
        "0-1".into()
    } else {
        "1-0".into()
    };
    assert!(Match::<Generals>::replay(&bad).is_err());
    let mut bad = full.clone();
    bad.plies[0] = "a1-a5".into();
    let e = Match::<Generals>::replay(&bad).unwrap_err();
    assert!(e.to_string().starts_with("ply 1 (a1-a5)"), "{e}");
}

#[test]
fn a_tampered_setup_fails_verification() {
    let m = common::random_game_invariants::<Generals>(&arena_options(), 11, 100_000);
    let mut rec = m.record(Copy::Full);
    // Swap two of White's pieces in the revealed setup: the commitment no longer matches.
    let setup = rec.tag("WhiteSetup").unwrap().to_string();
    let mut items: Vec<String> = setup.split(' ').map(String::from).collect();
    let (i, j) = (0..items.len())
        .flat_map(|i| (0..items.len()).map(move |j| (i, j)))
        .find(|&(i, j)| items[i].split(':').nth(1) != items[j].split(':').nth(1))
        .unwrap();
    let (a, b) = (
        items[i].split(':').nth(1).unwrap().to_string(),
        items[j].split(':').nth(1).unwrap().to_string(),
    );
    items[i] = format!("{}:{b}", items[i].split(':').next().unwrap());
    items[j] = format!("{}:{a}", items[j].split(':').next().unwrap());
    rec.set_tag("WhiteSetup", items.join(" "));
    let verdict = Match::<Generals>::replay(&rec).and_then(|r| r.verify(&rec));
    assert!(verdict.is_err(), "a changed setup must not verify");
}

// ---- Nothing hidden leaks ------------------------------------------------------------

/// Plays `plies` random moves from `setups`; returns the match and, for each of the
/// opponent's pieces (by starting square), whether it was ever in a challenge.
fn play_random(
    o: &GeneralsOptions,
    setups: Setups,
    seed: u64,
    plies: usize,
) -> (Match<Generals>, Vec<Move>) {
    let mut m = Match::<Generals>::start(o, setups, &mut rng_from_seed(seed)).unwrap();
    let mut rng = rng_from_seed(seed + 1);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let Some(mv) = m.game().random_move(&mut rng) else {
            break;
        };
        m.play(mv).unwrap();
        moves.push(mv);
    }
    (m, moves)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Two games that differ only in the ranks of two enemy pieces a seat never saw in a
    /// challenge look byte-identical to that seat and to spectators: observation, every ply
    /// view, and the seat's record copy.
    #[test]
    fn states_differing_only_in_unseen_ranks_look_identical(
        seed in 0u64..1_000_000,
        plies in 0usize..160,
        viewer in 0usize..2,
        pick in any::<(u8, u8)>(),
        flag_rule in 0usize..3,
    ) {
        let seat = Seat::from_index(viewer);
        let enemy = seat.other();
        let o = GeneralsOptions {
            flag_rule: [FlagRule::Adjacent, FlagRule::OneTurn, FlagRule::Electronic][flag_rule],
            reveal_at_end: false,
            ..arena_options()
        };
        let mut rng = rng_from_seed(seed);
        let setups = Generals::random_hidden(&o, &mut rng);
        let (a, moves) = play_random(&o, setups.clone(), seed, plies);
        // Follow every enemy piece from its starting square; note which were ever challenged.
        let start: Vec<(Square, Piece)> = setups.0[enemy.index()].placements().to_vec();
        let mut pos: Vec<Option<Square>> = start.iter().map(|&(s, _)| Some(s)).collect();
        let mut touched = vec![false; start.len()];
        for (m, ev) in moves.iter().zip(a.events()) {
            for (i, p) in pos.iter_mut().enumerate() {
                let involved = *p == Some(m.to) || *p == Some(m.from);
                if involved && ev.challenge.is_some() {
                    touched[i] = true;
                }
                if *p == Some(m.from) {
                    *p = Some(m.to);
                }
            }
        }
        let candidates: Vec<usize> = (0..start.len())
            .filter(|&i| !touched[i] && start[i].1 != Piece::Flag)
            .collect();
        prop_assume!(candidates.len() >= 2);
        let i = candidates[pick.0 as usize % candidates.len()];
        let j = candidates[pick.1 as usize % candidates.len()];
        prop_assume!(start[i].1 != start[j].1);
        let mut swapped = start.clone();
        swapped[i].1 = start[j].1;
        swapped[j].1 = start[i].1;
        let mut twin = setups.clone();
        twin.0[enemy.index()] = Setup::new(enemy, &o.army, &swapped).unwrap();
        let mut b = Match::<Generals>::start(&o, twin, &mut rng_from_seed(seed)).unwrap();
        for m in &moves {
            b.play(*m).unwrap();
        }
        prop_assert_eq!(a.game().outcome(), b.game().outcome());
        common::assert_same_to(&a, &b, Viewer::Player(seat));
        common::assert_same_to(&a, &b, Viewer::Spectator);
        let (mut la, mut lb) = (Vec::new(), Vec::new());
        a.game().legal_moves(&mut la);
        b.game().legal_moves(&mut lb);
        prop_assert_eq!(la, lb);
    }
}

#[test]
fn a_single_seats_setup_is_checked_before_the_other_is_known() {
    use salpakan_engine::{GameKind, GameSpec, wire};
    let generals = GameSpec::default_for(GameKind::Generals);
    let good = generals.random_setup(Seat::Second, 4).unwrap();
    let good = wire::setup_json(&good);
    assert_eq!(good.as_object().unwrap().len(), 21);
    let checked = wire::setup_from_json(&generals, Seat::Second, &good).unwrap();
    assert_eq!(wire::setup_json(&checked), good);
    let e = wire::setup_from_json(&generals, Seat::First, &good).unwrap_err();
    assert!(e.to_string().starts_with("white: "), "{e}");
    let stratego = GameSpec::default_for(GameKind::Stratego);
    assert!(wire::setup_from_json(&stratego, Seat::First, &serde_json::json!({"a1":"F"})).is_err());
    let barrage = GameSpec::from_text(GameKind::Stratego, "army=barrage").unwrap();
    let red = barrage.random_setup(Seat::First, 1).unwrap();
    wire::setup_from_json(&barrage, Seat::First, &wire::setup_json(&red)).unwrap();
    // A setup is typed: it starts only a match of its game, for its seat.
    assert!(barrage.new_match([Some(&red), None], 1).is_ok());
    assert!(barrage.new_match([None, Some(&red)], 1).is_err());
    assert!(stratego.new_match([Some(&red), None], 1).is_err());
    let banqi = GameSpec::default_for(GameKind::Banqi);
    assert!(banqi.random_setup(Seat::First, 1).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// For random options, setups and random (partly back-and-forth) play: every move the
    /// engine accepts through parse and play is generated and vice versa, and a side to
    /// move always has a legal move unless the game is over.
    #[test]
    fn accepted_moves_are_the_generated_moves_and_no_side_is_stuck(
        seed in any::<u64>(),
        plies in 0usize..300,
        flag_rule in 0usize..3,
        first in any::<bool>(),
    ) {
        let o = GeneralsOptions::from_pairs([
            ("flag_rule", ["adjacent", "one_turn", "electronic"][flag_rule]),
            ("first", if first { "white" } else { "black" }),
        ])
        .unwrap();
        let mut m = Match::<Generals>::random(&o, seed).unwrap();
        common::random_plies_never_stuck(&mut m, plies, seed).map_err(TestCaseError::fail)?;
        common::accepted_equals_generated(m.game(), &common::all_move_texts())
            .map_err(TestCaseError::fail)?;
    }
}

#[test]
fn a_256_bit_match_seed_replays_identically_from_its_record() {
    use rand::RngCore;
    use salpakan_engine::{MatchSeed, Record};
    let o = GeneralsOptions::default();
    let seed = MatchSeed::Full(std::array::from_fn(|i| i as u8 * 7 + 1));
    let mut m = Match::<Generals>::start(
        &o,
        Generals::random_hidden(&o, &mut seed.rng()),
        &mut seed.rng(),
    )
    .unwrap();
    m.set_seed(seed);
    let text = m.record(Copy::Full).to_text();
    assert!(text.contains(&format!("[Seed \"{seed}\"]")), "{text}");
    let back = Match::<Generals>::replay(&Record::parse(&text).unwrap()).unwrap();
    assert_eq!(back.record(Copy::Full).to_text(), text);
    // Another key gives another stream: all 256 bits count.
    let mut other = [0u8; 32];
    other[31] = 1;
    assert_ne!(
        MatchSeed::Full([0; 32]).rng().next_u64(),
        MatchSeed::Full(other).rng().next_u64()
    );
}

#[test]
fn a_short_match_seed_gives_the_stream_older_records_were_drawn_from() {
    use rand::RngCore;
    use salpakan_engine::MatchSeed;
    for n in [0u64, 7, u64::MAX] {
        assert_eq!(
            MatchSeed::Short(n).rng().next_u64(),
            rng_from_seed(n).next_u64()
        );
        assert_eq!(n.to_string().parse::<MatchSeed>(), Ok(MatchSeed::Short(n)));
    }
    for bad in [
        "",
        "-1",
        "18446744073709551616",
        "0x10",
        &"A".repeat(64),
        &"0".repeat(63),
    ] {
        assert!(bad.parse::<MatchSeed>().is_err(), "{bad:?} was accepted");
    }
}

#[test]
fn game_spec_parses_key_values_text_and_json_to_the_same_typed_options() {
    use salpakan_engine::{GameKind, GameSpec, OptionError};
    let words = GameSpec::from_key_values(
        GameKind::Generals,
        [" reveal = winner", "max_quiet_plies=90"],
    )
    .unwrap();
    let GameSpec::Generals(o) = &words else {
        panic!("a Generals spec")
    };
    assert_eq!(o.max_quiet_plies, Some(90));
    assert_eq!(
        GameSpec::from_text(GameKind::Generals, &words.to_text()).unwrap(),
        words
    );
    assert_eq!(
        GameSpec::from_json(GameKind::Generals, &words.to_json()).unwrap(),
        words
    );
    assert_eq!(
        GameSpec::from_text(GameKind::Generals, "").unwrap(),
        GameSpec::default_for(GameKind::Generals)
    );
    assert!(matches!(
        GameSpec::from_key_values(GameKind::Generals, ["reveal"]),
        Err(OptionError::Inconsistent(m)) if m.contains("write key=value")
    ));
    assert!(matches!(
        GameSpec::from_key_values(GameKind::Generals, ["reveal=sometimes"]),
        Err(OptionError::BadValue { key, .. }) if key == "reveal"
    ));
}

#[test]
fn occupied_squares_are_exactly_each_sides_pieces_at_every_ply() {
    for seed in 0..6 {
        let mut m = Match::<Generals>::random(&arena_options(), seed).unwrap();
        let mut rng = rng_from_seed(seed ^ 0x0cc);
        loop {
            for seat in Seat::BOTH {
                let expected = Square::all()
                    .filter(|&s| matches!(m.game().at(s), Some((o, _)) if o == seat))
                    .fold(0u128, |bits, s| bits | 1 << s.index());
                assert_eq!(m.game().occupied(seat), expected, "seed {seed}");
            }
            let Some(mv) = m.game().random_move(&mut rng) else {
                break;
            };
            m.play(mv).unwrap();
        }
    }
}
