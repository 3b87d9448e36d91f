//! Banqi scenario tests: every ruleset and option of `RULES.md` §3, the end rules, the
//! arbiter protocol, the chance API, and the no-leak property.

mod common;

use proptest::prelude::*;
use salpakan_engine::banqi::{
    Banqi, BanqiOptions, Color, Deal, Kind, Move, Piece, Repetition, Ruleset, Square,
};
use salpakan_engine::{
    Copy, EndReason, Game, GameKind, GameOptions, GameSpec, Match, Outcome, PlayError, Record,
    Seat, Viewer, rng_from_seed, wire,
};

// ---------------------------------------------------------------------------------------
// Helpers

/// A diagram with the given cells (`"a1" => "C"`, `"?p"` face down), everything else empty.
fn diagram(cells: &[(&str, &str)]) -> String {
    let mut grid = [["."; 4]; 8];
    for (sq, c) in cells {
        let s: Square = sq.parse().unwrap();
        grid[s.rank() as usize][s.file() as usize] = c;
    }
    (0..8)
        .rev()
        .map(|r| grid[r].join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Red (the first seat) to move in a position.
fn pos(o: &BanqiOptions, cells: &[(&str, &str)]) -> Banqi {
    Banqi::from_diagram(o, &diagram(cells), Color::Red, Seat::First).unwrap()
}

fn taiwan() -> BanqiOptions {
    BanqiOptions::default()
}

fn with(f: impl FnOnce(&mut BanqiOptions)) -> BanqiOptions {
    let mut o = BanqiOptions::default();
    f(&mut o);
    o
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn legal(g: &Banqi, m: &str) -> bool {
    let l = g.is_legal(mv(m));
    let mut all = Vec::new();
    g.legal_moves(&mut all);
    assert_eq!(
        l,
        all.contains(&mv(m)),
        "is_legal and legal_moves disagree on {m}"
    );
    l
}

fn play(g: &mut Banqi, m: &str) -> salpakan_engine::banqi::BanqiEvent {
    g.play(mv(m)).unwrap_or_else(|e| panic!("{m}: {e}"))
}

fn err(g: &Banqi, m: &str) -> String {
    g.clone().play(mv(m)).unwrap_err().to_string()
}

/// A deal with the given squares fixed and the rest filled with the remaining pieces.
fn deal_with(fixed: &[(&str, char)]) -> Deal {
    let mut rest: Vec<Piece> = Deal::sorted_pieces().to_vec();
    let mut cells: [Option<Piece>; 32] = [None; 32];
    for (sq, c) in fixed {
        let p = Piece::from_code(*c).unwrap();
        let i = rest.iter().position(|&x| x == p).unwrap();
        rest.remove(i);
        cells[sq.parse::<Square>().unwrap().index()] = Some(p);
    }
    let mut it = rest.into_iter();
    let pieces: [Piece; 32] =
        std::array::from_fn(|i| cells[i].unwrap_or_else(|| it.next().unwrap()));
    Deal::new(pieces).unwrap()
}

// ---------------------------------------------------------------------------------------
// Taiwan rules

#[test]
fn taiwan_cannon_captures_over_exactly_one_screen() {
    // Screens of every kind: own, enemy, face-down (either colour), up a file and along a rank.
    for (screen, screen2) in [("R", "M"), ("r", "m"), ("?P", "?P"), ("?k", "?K")] {
        let g = pos(
            &taiwan(),
            &[
                ("a1", "C"),
                ("a2", screen),
                ("a4", "n"),
                ("c1", screen2),
                ("d1", "g"),
                ("d8", "p"),
            ],
        );
        assert!(
            legal(&g, "a1-a4"),
            "screen {screen} on a file, empty square between"
        );
        assert!(
            legal(&g, "a1-d1"),
            "screen {screen} on a rank, empty square between"
        );
        let mut g2 = g.clone();
        let ev = play(&mut g2, "a1-a4");
        assert_eq!(ev.captured, Some(Piece::from_code('n').unwrap()));
        assert_eq!(
            g2.at(mv_to("a4")),
            Some((Piece::from_code('C').unwrap(), false))
        );
    }
    // A screen right next to the target, and the Cannon far from its screen.
    let g = pos(
        &taiwan(),
        &[("a1", "C"), ("a4", "P"), ("a5", "k"), ("d8", "p")],
    );
    assert!(legal(&g, "a1-a5"));
    // No screen, two screens, a screen but the target beyond another piece: no capture.
    let g = pos(&taiwan(), &[("a1", "C"), ("a3", "k"), ("d8", "p")]);
    assert!(!legal(&g, "a1-a3"));
    assert!(
        err(&g, "a1-a3").contains("exactly one piece"),
        "{}",
        err(&g, "a1-a3")
    );
    let g = pos(
        &taiwan(),
        &[
            ("a1", "C"),
            ("a2", "P"),
            ("a3", "?p"),
            ("a4", "k"),
            ("d8", "p"),
        ],
    );
    assert!(!legal(&g, "a1-a4"));
    assert!(!legal(&g, "a1-a3"), "a face-down piece is not a target");
    // The Cannon takes any piece, the General included, but never its own.
    let g = pos(
        &taiwan(),
        &[("a1", "C"), ("a2", "p"), ("a3", "K"), ("d8", "p")],
    );
    assert!(!legal(&g, "a1-a3"));
}

fn mv_to(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn taiwan_cannon_cannot_capture_adjacent_pieces() {
    let g = pos(
        &taiwan(),
        &[
            ("b2", "C"),
            ("b3", "p"),
            ("c2", "c"),
            ("a2", "k"),
            ("b1", "n"),
            ("d7", "R"),
        ],
    );
    for m in ["b2-b3", "b2-c2", "b2-a2", "b2-b1"] {
        assert!(!legal(&g, m), "{m}");
    }
    assert!(
        err(&g, "b2-b3").contains("cannot capture an adjacent"),
        "{}",
        err(&g, "b2-b3")
    );
    // It still moves one square to an empty square.
    let g = pos(&taiwan(), &[("b2", "C"), ("d8", "p")]);
    assert!(legal(&g, "b2-b3") && legal(&g, "b2-a2"));
    assert!(!legal(&g, "b2-b4"), "no long moves without a capture");
}

#[test]
fn cannon_direct_captures_adjacent_soldiers_and_cannons_only() {
    let o = with(|o| o.cannon_direct = true);
    let g = pos(
        &o,
        &[
            ("b2", "C"),
            ("b3", "p"),
            ("c2", "c"),
            ("a2", "n"),
            ("b1", "k"),
        ],
    );
    assert!(legal(&g, "b2-b3"), "Soldier");
    assert!(legal(&g, "b2-c2"), "Cannon");
    assert!(!legal(&g, "b2-a2"), "not a Horse");
    assert!(!legal(&g, "b2-b1"), "not the General");
    // It still jumps.
    let g = pos(&o, &[("a1", "C"), ("a2", "p"), ("a3", "k")]);
    assert!(legal(&g, "a1-a3") && legal(&g, "a1-a2"));
}

#[test]
fn general_cannot_capture_soldier_in_taiwan_rules() {
    let g = pos(&taiwan(), &[("b2", "K"), ("b3", "p"), ("d8", "g")]);
    assert!(!legal(&g, "b2-b3"));
    assert!(
        err(&g, "b2-b3").contains("General cannot capture a Soldier"),
        "{}",
        err(&g, "b2-b3")
    );
}

#[test]
fn soldier_captures_general_in_taiwan_rules() {
    let g = pos(&taiwan(), &[("b2", "P"), ("b3", "k"), ("d8", "g")]);
    assert!(legal(&g, "b2-b3"));
}

#[test]
fn taiwan_ranks_capture_equal_or_lower() {
    let order = ['K', 'G', 'M', 'R', 'N', 'P'];
    for (i, a) in order.iter().enumerate() {
        for (j, v) in order.iter().enumerate() {
            let victim = v.to_ascii_lowercase().to_string();
            let g = pos(
                &taiwan(),
                &[("b2", &a.to_string()), ("b3", &victim), ("d8", "c")],
            );
            let want = if *a == 'K' && *v == 'P' {
                false
            } else if *a == 'P' && *v == 'K' {
                true
            } else {
                i <= j
            };
            assert_eq!(legal(&g, "b2-b3"), want, "{a} takes {v}");
        }
    }
}

#[test]
fn any_piece_but_a_soldier_captures_a_cannon_in_taiwan_rules() {
    for a in ['K', 'G', 'M', 'R', 'N', 'P'] {
        let g = pos(
            &taiwan(),
            &[("b2", &a.to_string()), ("b3", "c"), ("d8", "p")],
        );
        assert_eq!(legal(&g, "b2-b3"), a != 'P', "{a} takes a Cannon");
    }
}

#[test]
fn moves_are_one_orthogonal_step_of_own_face_up_pieces() {
    let g = pos(
        &taiwan(),
        &[("b2", "R"), ("c3", "r"), ("a1", "?P"), ("d8", "p")],
    );
    assert!(!legal(&g, "b2-c3"), "no diagonal capture");
    assert!(!legal(&g, "c3-c4"), "not the opponent's piece");
    assert!(!legal(&g, "a1-a2"), "not a face-down piece");
    assert!(err(&g, "a1-a2").contains("face down"));
    assert!(!legal(&g, "b2-b4"));
    assert!(legal(&g, "a1"), "flip");
    assert!(!legal(&g, "b2"), "a face-up piece cannot be flipped");
}

// ---------------------------------------------------------------------------------------
// Hong Kong and mainland rules

#[test]
fn hongkong_ranking_and_no_cannon_jumps() {
    let o = with(|o| o.ruleset = Ruleset::HongKong);
    let cases = [
        ("R", "g", true),
        ("G", "r", false),
        ("N", "c", true),
        ("C", "n", false),
        ("C", "g", true),
        ("C", "c", true),
        ("G", "m", true),
        ("M", "g", false),
        ("K", "p", false),
        ("P", "k", true),
        ("P", "m", false),
        ("K", "r", true),
    ];
    for (a, v, want) in cases {
        let g = pos(&o, &[("b2", a), ("b3", v), ("d8", "p")]);
        assert_eq!(legal(&g, "b2-b3"), want, "{a} takes {v}");
    }
    let g = pos(&o, &[("a1", "C"), ("a2", "p"), ("a4", "g"), ("d8", "p")]);
    assert!(!legal(&g, "a1-a4"), "no jumps in Hong Kong rules");
}

#[test]
fn mainland_general_and_soldier_capture_each_other_and_cannons_do_not_jump() {
    let o = with(|o| o.ruleset = Ruleset::Mainland);
    let g = pos(&o, &[("b2", "K"), ("b3", "p"), ("d8", "g")]);
    assert!(legal(&g, "b2-b3"));
    let g = pos(&o, &[("b2", "P"), ("b3", "k"), ("d8", "g")]);
    assert!(legal(&g, "b2-b3"));
    let g = pos(
        &o,
        &[
            ("b2", "C"),
            ("b3", "p"),
            ("b1", "c"),
            ("a2", "n"),
            ("d8", "g"),
        ],
    );
    assert!(legal(&g, "b2-b3") && legal(&g, "b2-b1"));
    assert!(!legal(&g, "b2-a2"), "the Cannon ranks below the Horse");
    let g = pos(&o, &[("a1", "C"), ("a2", "p"), ("a4", "g"), ("d8", "p")]);
    assert!(!legal(&g, "a1-a4"), "no jumps in mainland rules");
    let g = pos(&o, &[("b2", "N"), ("b3", "c"), ("d8", "p")]);
    assert!(legal(&g, "b2-b3"));
    let g = pos(&o, &[("b2", "P"), ("b3", "c"), ("d8", "p")]);
    assert!(!legal(&g, "b2-b3"));
}

// ---------------------------------------------------------------------------------------
// Face-down captures

#[test]
fn face_down_pieces_cannot_be_captured_by_default() {
    let g = pos(
        &taiwan(),
        &[
            ("b2", "K"),
            ("b3", "?g"),
            ("a1", "C"),
            ("a2", "p"),
            ("a3", "?r"),
            ("d8", "p"),
        ],
    );
    assert!(!legal(&g, "b2-b3"));
    assert!(!legal(&g, "a1-a3"));
    let e = err(&g, "b2-b3");
    assert!(
        e.contains("face down")
            && !e.contains("Advisor")
            && !e.contains('g'.to_string().as_str().repeat(2).as_str()),
        "{e}"
    );
}

#[test]
fn capture_face_down_takes_a_capturable_piece() {
    let o = with(|o| o.capture_face_down = true);
    let mut g = pos(&o, &[("b2", "R"), ("b3", "?n"), ("d8", "p")]);
    assert!(legal(&g, "b2-b3"));
    let ev = play(&mut g, "b2-b3");
    assert_eq!(ev.revealed, Some(Piece::from_code('n').unwrap()));
    assert_eq!(ev.captured, ev.revealed);
    assert_eq!(
        g.at(mv_to("b3")),
        Some((Piece::from_code('R').unwrap(), false))
    );
    assert_eq!(g.view(&ev, Viewer::Spectator).to_string(), "b2-b3{n}");
    assert_eq!(g.observe(Viewer::Spectator).quiet_plies, 0);
}

#[test]
fn capture_face_down_attempt_on_a_stronger_or_own_piece_only_turns_it_up() {
    let o = with(|o| o.capture_face_down = true);
    for (hidden, code) in [("?g", 'g'), ("?G", 'G'), ("?p", 'p')] {
        // A Horse cannot take an Advisor, nor its own piece; a General cannot take a Soldier.
        let attacker = if code == 'p' { "K" } else { "N" };
        let mut g = pos(&o, &[("b2", attacker), ("b3", hidden), ("d8", "p")]);
        let ev = play(&mut g, "b2-b3");
        assert_eq!(ev.revealed, Some(Piece::from_code(code).unwrap()));
        assert_eq!(ev.captured, None);
        assert_eq!(
            g.at(mv_to("b3")),
            Some((Piece::from_code(code).unwrap(), false)),
            "turned up"
        );
        assert_eq!(
            g.at(mv_to("b2")).unwrap().0.to_string(),
            attacker,
            "the attacker stays"
        );
        assert_eq!(g.to_move(), Some(Seat::Second));
    }
    // A Taiwan Cannon attempts by jumping, and its jump takes anything.
    let mut g = pos(&o, &[("a1", "C"), ("a2", "?P"), ("a3", "?k"), ("d8", "p")]);
    assert!(legal(&g, "a1-a3"));
    assert!(
        !legal(&g, "a1-a2"),
        "no adjacent attempt for a Taiwan Cannon"
    );
    let ev = play(&mut g, "a1-a3");
    assert_eq!(ev.captured, Some(Piece::from_code('k').unwrap()));
}

// ---------------------------------------------------------------------------------------
// Chains

#[test]
fn chain_captures_let_the_same_side_continue_with_the_capturing_piece() {
    let o = with(|o| o.chain_captures = true);
    let mut g = pos(
        &o,
        &[
            ("a1", "R"),
            ("a2", "n"),
            ("a3", "p"),
            ("b3", "c"),
            ("d8", "k"),
            ("c1", "R"),
        ],
    );
    let ev = play(&mut g, "a1-a2");
    assert!(ev.chain_continues);
    assert_eq!(g.to_move(), Some(Seat::First), "the same seat continues");
    assert!(legal(&g, "a2-a3") && legal(&g, "end"));
    assert!(
        !legal(&g, "c1-c2"),
        "only the capturing piece, only captures"
    );
    assert!(!legal(&g, "a2-b2"), "no plain moves in a chain");
    assert!(err(&g, "c1-c2").contains("capture chain"));
    let obs = serde_json::to_value(g.observe(Viewer::Player(Seat::Second))).unwrap();
    assert_eq!(obs["chain_from"], "a2");
    let ev = play(&mut g, "a2-a3");
    assert!(ev.chain_continues, "the Cannon on b3 is next to a3");
    let ev = play(&mut g, "end");
    assert!(!ev.chain_continues);
    assert_eq!(g.to_move(), Some(Seat::Second));
    assert!(!legal(&g, "end"), "no chain to end");
    // The chain passes the turn by itself when no further capture exists.
    let mut g = pos(&o, &[("a1", "R"), ("a2", "n"), ("d8", "k")]);
    let ev = play(&mut g, "a1-a2");
    assert!(!ev.chain_continues);
    assert_eq!(g.to_move(), Some(Seat::Second));
    // Without the option a capture ends the turn.
    let mut g = pos(
        &taiwan(),
        &[("a1", "R"), ("a2", "n"), ("a3", "p"), ("d8", "k")],
    );
    play(&mut g, "a1-a2");
    assert_eq!(g.to_move(), Some(Seat::Second));
}

// ---------------------------------------------------------------------------------------
// Repetition, chase, quiet plies

/// Red's piece shuffles a1-a2-a1, black's d8-d7-d8, whoever is to move.
fn shuffle_back_and_forth(g: &mut Banqi, n: usize) {
    for _ in 0..n {
        let m = match (
            g.to_move().unwrap(),
            g.at(mv_to("a1")).is_some(),
            g.at(mv_to("d8")).is_some(),
        ) {
            (Seat::First, true, _) => "a1-a2",
            (Seat::First, false, _) => "a2-a1",
            (Seat::Second, _, true) => "d8-d7",
            (Seat::Second, _, false) => "d7-d8",
        };
        play(g, m);
    }
}

#[test]
fn threefold_repetition_draws_on_the_third_occurrence() {
    let o = with(|o| o.repetition = Repetition::Threefold);
    let mut g = pos(&o, &[("a1", "R"), ("d8", "r")]);
    shuffle_back_and_forth(&mut g, 7);
    assert_eq!(g.outcome(), None, "the start position occurred twice");
    shuffle_back_and_forth(&mut g, 1); // 8 plies: back at the start a third time
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    // Off: no draw.
    let mut g = pos(&taiwan(), &[("a1", "R"), ("d8", "r")]);
    shuffle_back_and_forth(&mut g, 12);
    assert_eq!(g.outcome(), None);
}

#[test]
fn cycle_repetition_draws_when_a_cycle_is_played_three_times_in_a_row() {
    let o = with(|o| o.repetition = Repetition::Cycle);
    let mut g = pos(&o, &[("a1", "R"), ("d8", "r")]);
    shuffle_back_and_forth(&mut g, 11);
    assert_eq!(g.outcome(), None);
    shuffle_back_and_forth(&mut g, 1);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn a_flip_or_capture_resets_repetition() {
    let o = with(|o| o.repetition = Repetition::Threefold);
    let mut g = pos(&o, &[("a1", "R"), ("d8", "r"), ("c4", "?p")]);
    shuffle_back_and_forth(&mut g, 4);
    play(&mut g, "c4");
    play(&mut g, "d8-d7");
    play(&mut g, "a1-a2");
    play(&mut g, "d7-d8");
    play(&mut g, "a2-a1");
    assert_eq!(g.outcome(), None);
}

#[test]
fn chase_rule_forbids_an_endless_chase_into_a_repeated_position() {
    // Red's Chariot chases black's Horse, which flees between b3 and b2.
    let cells = [("a1", "R"), ("a3", "n")];
    let moves = ["a1-a2", "a3-b3", "a2-a3", "b3-b2", "a3-a2", "b2-b3"];
    let o = with(|o| o.chase_rule = true);
    let mut g = pos(&o, &cells);
    let mut free = pos(&taiwan(), &cells);
    for m in moves {
        play(&mut g, m);
        play(&mut free, m);
    }
    // a2-a3 would chase the Horse again into the position after the third ply.
    assert!(legal(&free, "a2-a3"));
    assert!(!legal(&g, "a2-a3"));
    assert!(
        err(&g, "a2-a3").contains("chase rule"),
        "{}",
        err(&g, "a2-a3")
    );
    // Other moves stay legal; the fleeing side is never restricted.
    assert!(legal(&g, "a2-a1"));
    play(&mut g, "a2-a1");
    play(&mut g, "b3-b2");
    assert_eq!(g.outcome(), None);
}

#[test]
fn quiet_ply_limit_draws_and_flips_and_captures_reset_it() {
    let o = with(|o| o.max_quiet_plies = Some(6));
    let mut g = pos(&o, &[("a1", "R"), ("d8", "r"), ("c4", "?p")]);
    shuffle_back_and_forth(&mut g, 4);
    assert_eq!(g.observe(Viewer::Spectator).quiet_plies, 4);
    play(&mut g, "c4");
    assert_eq!(g.observe(Viewer::Spectator).quiet_plies, 0);
    shuffle_back_and_forth(&mut g, 5);
    assert_eq!(g.outcome(), None);
    shuffle_back_and_forth(&mut g, 1);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::QuietPlies)));
}

#[test]
fn reaching_the_quiet_limit_draws_even_if_the_opponent_cannot_act() {
    let o = with(|o| o.max_quiet_plies = Some(1));
    // Black's only piece, a Soldier in the corner, is walled in by red's move.
    let mut g = pos(&o, &[("a6", "R"), ("b7", "G"), ("a8", "p"), ("b8", "M")]);
    play(&mut g, "a6-a7");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::QuietPlies)));
    let o = with(|o| o.max_quiet_plies = None);
    let mut g = pos(&o, &[("a6", "R"), ("b7", "G"), ("a8", "p"), ("b8", "M")]);
    play(&mut g, "a6-a7");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Seat::First, EndReason::NoLegalMoves))
    );
}

// ---------------------------------------------------------------------------------------
// The end

#[test]
fn a_colour_with_no_pieces_left_loses_even_if_the_other_has_face_down_pieces() {
    let mut g = pos(
        &taiwan(),
        &[("a1", "R"), ("a2", "n"), ("c4", "?P"), ("d4", "?G")],
    );
    play(&mut g, "a1-a2");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Seat::First, EndReason::NoPiecesLeft))
    );
    assert_eq!(g.to_move(), None);
    // A face-down piece of a colour keeps that colour alive.
    let mut g = pos(&taiwan(), &[("a1", "R"), ("a2", "n"), ("c4", "?p")]);
    play(&mut g, "a1-a2");
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_player_with_no_legal_action_loses() {
    // Black's Soldier in a8 is walled in by red's Advisor and General; nothing is face down.
    let mut g = pos(
        &taiwan(),
        &[("a6", "R"), ("b8", "G"), ("a8", "p"), ("c1", "G")],
    );
    play(&mut g, "a6-a7");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Seat::First, EndReason::NoLegalMoves))
    );
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(matches!(
        g.clone().play(mv("c1-c2")),
        Err(PlayError::GameOver(_))
    ));
}

#[test]
fn a_player_whose_only_moves_the_chase_rule_forbids_loses() {
    // Red's Chariot chases black's Horse round c1 b1 c2 b2; the black Elephant on d1 walls
    // the corner. After the last ply every move of red's is a chasing move back into a
    // position of the chase, and there is nothing to capture: red cannot act and loses.
    let cells = [("c1", "R"), ("b2", "n"), ("d1", "m")];
    let moves = [
        "c1-b1", "b2-a2", "b1-c1", "a2-b2", "c1-c2", "b2-b1", "c2-c1", "b1-b2",
    ];
    let mut g = pos(&with(|o| o.chase_rule = true), &cells);
    let mut free = pos(&taiwan(), &cells);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(g.outcome(), None, "ply {}", i + 1);
        play(&mut g, m);
        play(&mut free, m);
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Seat::Second, EndReason::NoLegalMoves))
    );
    // Without the chase rule the same moves leave red its moves.
    assert_eq!(free.outcome(), None);
    assert!(legal(&free, "c1-c2") && legal(&free, "c1-b1"));
}

#[test]
fn the_first_flip_decides_the_colours() {
    for (first, second_colour) in [('k', Color::Red), ('P', Color::Black)] {
        let deal = deal_with(&[("c3", first)]);
        let mut m = Match::<Banqi>::start(&taiwan(), deal, &mut rng_from_seed(1)).unwrap();
        let obs = serde_json::to_value(m.game().observe(Viewer::Spectator)).unwrap();
        assert_eq!(obs["colours"], serde_json::json!({}));
        assert_eq!(obs["board"]["c3"], serde_json::json!({"face_down": true}));
        let mut moves = Vec::new();
        m.game().legal_moves(&mut moves);
        assert_eq!(moves.len(), 32, "only flips at the start");
        let ev = m.play(mv("c3")).unwrap().clone();
        assert_eq!(m.game().colour_of(Seat::Second), Some(second_colour));
        let view = m.game().view(&ev, Viewer::Player(Seat::Second));
        assert_eq!(view.to_string(), format!("c3{{{first}}}"));
        let j = serde_json::to_value(&view).unwrap();
        assert_eq!(j["colours"]["second"], second_colour.name());
        let obs = serde_json::to_value(m.game().observe(Viewer::Player(Seat::First))).unwrap();
        assert_eq!(obs["colours"]["second"], second_colour.name());
        assert_eq!(obs["board"]["c3"]["piece"], first.to_string());
        assert_eq!(obs["to_move"], "second");
    }
}

// ---------------------------------------------------------------------------------------
// Options, deals, protocol

#[test]
fn options_round_trip_and_the_olympiad_preset() {
    let o = BanqiOptions::default();
    assert_eq!(
        o.to_text(),
        "ruleset=taiwan cannon_direct=false capture_face_down=false chain_captures=false chase_rule=false repetition=off max_quiet_plies=50"
    );
    let ol = BanqiOptions::from_text("preset=olympiad").unwrap();
    assert_eq!(ol, BanqiOptions::olympiad());
    assert_eq!(ol.max_quiet_plies, Some(180));
    assert_eq!(ol.repetition, Repetition::Threefold);
    assert_eq!(BanqiOptions::from_text(&ol.to_text()).unwrap(), ol);
    let all = BanqiOptions::from_text(
        "ruleset=hongkong cannon_direct=true capture_face_down=on chain_captures=yes chase_rule=1 repetition=cycle max_quiet_plies=off",
    )
    .unwrap();
    assert_eq!(BanqiOptions::from_text(&all.to_text()).unwrap(), all);
    assert_eq!(BanqiOptions::from_json(&all.to_json()).unwrap(), all);
    assert_eq!(
        BanqiOptions::from_text("repetition=true")
            .unwrap()
            .repetition,
        Repetition::Threefold
    );
    let e = BanqiOptions::from_text("ruleset=macau")
        .unwrap_err()
        .to_string();
    assert!(e.contains("taiwan, hongkong, mainland"), "{e}");
    let e = BanqiOptions::from_text("flag_rule=adjacent")
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannon_direct"), "{e}");
}

#[test]
fn deals_are_validated_and_round_trip() {
    let d = Deal::random(&mut rng_from_seed(9));
    assert_eq!(Deal::parse(&d.text()).unwrap(), d);
    let mut pieces = Deal::sorted_pieces();
    pieces[0] = Piece::new(Color::Black, Kind::General);
    let e = Deal::new(pieces).unwrap_err().to_string();
    assert!(
        e.contains("deal") && e.contains("expected 1, found 0"),
        "{e}"
    );
    let e = Deal::parse("a1:K").unwrap_err().to_string();
    assert!(e.contains("b1 has no piece"), "{e}");
    let e = Deal::parse(&d.text().replace("a1:", "e1:"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("e1"), "{e}");
    let e = Deal::parse(&d.text().replacen(':', ":X", 1).replacen(":X", ":Z", 1))
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown piece"), "{e}");
}

#[test]
fn new_match_takes_an_explicit_deal_or_a_seed() {
    let deal = deal_with(&[("a1", 'K'), ("a2", 'p')]);
    let obj: serde_json::Map<String, serde_json::Value> = Square::all()
        .map(|s| {
            (
                s.to_string(),
                serde_json::Value::String(deal.at(s).to_string()),
            )
        })
        .collect();
    let req = serde_json::json!({ "deal": obj });
    let spec =
        wire::spec_from_json(GameKind::Banqi, &serde_json::json!({"ruleset":"taiwan"})).unwrap();
    let mut m = wire::new_match(&spec, req.as_object().unwrap(), 5).unwrap();
    let views = m.play_views(m.parse_move("a2").unwrap()).unwrap();
    assert_eq!(views.spectator["revealed"], "p");
    assert_eq!(views.players[0], views.players[1]);
    let obs = m.observe_json(Viewer::Player(Seat::Second));
    assert_eq!(
        obs["colours"],
        serde_json::json!({"first":"black","second":"red"})
    );
    assert_eq!(m.legal_moves().len(), 31);
    let e = m.play(m.parse_move("a2").unwrap()).unwrap_err().to_string();
    assert!(e.contains("already face up"), "{e}");
    // A seed deals at random; the same seed deals the same.
    let defaults = GameSpec::default_for(GameKind::Banqi);
    let a = defaults.new_match([None, None], 3).unwrap();
    let b = wire::new_match(&defaults, &serde_json::Map::new(), 3).unwrap();
    assert_eq!(a.commitment_list(), b.commitment_list());
    // A bad deal names the square.
    let mut bad = obj.clone();
    bad.remove("c5");
    let e = wire::new_match(
        &defaults,
        serde_json::json!({"deal": bad}).as_object().unwrap(),
        1,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("c5"), "{e}");
}

#[test]
fn flip_distribution_is_the_unseen_pool() {
    let deal = deal_with(&[("a1", 'K'), ("a2", 'p')]);
    let mut g = Banqi::start(&taiwan(), deal).unwrap();
    let d = g.flip_distribution(mv_to("c3")).unwrap();
    assert_eq!(d.len(), 14);
    assert!((d.iter().map(|x| x.1).sum::<f64>() - 1.0).abs() < 1e-12);
    let k = d.iter().find(|x| x.0.to_string() == "K").unwrap().1;
    assert!((k - 1.0 / 32.0).abs() < 1e-12);
    play(&mut g, "a1");
    assert!(
        g.flip_distribution(mv_to("a1")).is_none(),
        "a face-up square is not chance"
    );
    let d = g.flip_distribution(mv_to("c3")).unwrap();
    assert!(
        d.iter().all(|x| x.0.to_string() != "K"),
        "the only red General is seen"
    );
    let p = d.iter().find(|x| x.0.to_string() == "p").unwrap().1;
    assert!((p - 5.0 / 31.0).abs() < 1e-12);
    // Determinization: make c3 hold the black Soldier, then flip it.
    let mut h = g.clone();
    assert!(h.set_face_down(mv_to("c3"), Piece::from_code('p').unwrap()));
    let ev = play(&mut h, "c3");
    assert_eq!(ev.revealed, Some(Piece::from_code('p').unwrap()));
    assert!(!h.set_face_down(mv_to("a1"), Piece::from_code('p').unwrap()));
}

#[test]
fn errors_never_name_a_face_down_piece() {
    let o = with(|o| o.capture_face_down = false);
    let g = pos(
        &o,
        &[
            ("b2", "N"),
            ("b3", "?k"),
            ("c2", "?G"),
            ("a1", "C"),
            ("a2", "?R"),
            ("a4", "?m"),
            ("d8", "p"),
        ],
    );
    for m in ["b2-b3", "b2-c2", "a1-a4", "b3-b4", "a2-a3", "b3", "c2-c3"] {
        if let Err(e) = g.clone().play(mv(m)) {
            let e = e.to_string();
            for name in ["General", "Advisor", "Chariot", "Elephant", "{"] {
                assert!(!e.contains(name), "{m}: {e} names {name}");
            }
        }
    }
}

#[test]
fn malformed_actions_say_how_to_write_them() {
    let e = "z9".parse::<Move>().unwrap_err().to_string();
    assert!(e.contains("not a square"), "{e}");
    let e = "flip".parse::<Move>().unwrap_err().to_string();
    assert!(e.contains("c3") && e.contains("a8-b8"), "{e}");
    assert_eq!(mv("c3").to_string(), "c3");
    assert_eq!(mv("a8-b8").to_string(), "a8-b8");
    assert_eq!(mv("END"), Move::EndChain);
}

// ---------------------------------------------------------------------------------------
// Random games and records

#[test]
fn random_games_keep_the_invariants_under_every_ruleset_and_option() {
    let variants = [
        "ruleset=taiwan",
        "ruleset=hongkong",
        "ruleset=mainland",
        "cannon_direct=true",
        "capture_face_down=true",
        "chain_captures=true capture_face_down=true",
        "chase_rule=true repetition=threefold",
        "preset=olympiad",
        "repetition=cycle max_quiet_plies=60",
        "ruleset=hongkong chain_captures=true max_quiet_plies=20",
    ];
    for (i, v) in variants.iter().enumerate() {
        let o = BanqiOptions::from_text(v).unwrap();
        for seed in 0..4 {
            let m = common::random_game_invariants::<Banqi>(&o, seed * 31 + i as u64, 5000);
            let rec = m.record(Copy::Full);
            assert!(rec.tag("Deal").is_some());
            for s in Seat::BOTH {
                assert!(
                    m.record(Copy::Seat(s)).tag("Deal").is_none(),
                    "nobody owns the deal"
                );
            }
        }
    }
}

#[test]
fn a_record_replays_with_flip_annotations_checked() {
    let m = common::random_game_invariants::<Banqi>(&taiwan(), 77, 5000);
    let text = m.record(Copy::Full).to_text();
    // Tamper with the first flip's annotation: the replay refuses it.
    let rec = Record::parse(&text).unwrap();
    let first = rec.plies[0].clone();
    let (sq, _) = first.split_once('{').unwrap();
    let other = if first.ends_with("{K}") { "{k}" } else { "{K}" };
    let mut bad = rec.clone();
    bad.plies[0] = format!("{sq}{other}");
    let e = Match::<Banqi>::replay(&bad).unwrap_err().to_string();
    assert!(e.contains("ply 1"), "{e}");
}

// ---------------------------------------------------------------------------------------
// No leak

/// Plays `moves` on a match from `deal`.
fn replay_moves(deal: Deal, moves: &[Move], o: &BanqiOptions) -> Match<Banqi> {
    let mut m = Match::<Banqi>::start(o, deal, &mut rng_from_seed(42)).unwrap();
    for &mv in moves {
        m.play(mv).unwrap();
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The deal never shows before it is revealed: two deals that differ only in pieces never
    /// turned up look byte-identical to both seats and to spectators, in every observation,
    /// every ply view and the seat copies of the record.
    #[test]
    fn face_down_pieces_never_leak(seed in any::<u64>(), plies in 1usize..400, variant in 0usize..3) {
        let o = [
            BanqiOptions::default(),
            BanqiOptions::from_text("capture_face_down=true chain_captures=true").unwrap(),
            BanqiOptions::olympiad(),
        ][variant].clone();
        let mut rng = rng_from_seed(seed);
        let deal = Deal::random(&mut rng);
        let mut m = Match::<Banqi>::start(&o, deal.clone(), &mut rng_from_seed(42)).unwrap();
        for _ in 0..plies {
            match m.game().random_move(&mut rng) {
                Some(mv) => { m.play(mv).unwrap(); }
                None => break,
            }
        }
        // Squares still face down, holding two different pieces: swap them.
        let down: Vec<Square> = Square::all().filter(|&s| matches!(m.game().at(s), Some((_, true)))).collect();
        let pair = down.iter().flat_map(|&a| down.iter().map(move |&b| (a, b)))
            .find(|&(a, b)| deal.at(a) != deal.at(b));
        prop_assume!(pair.is_some());
        let (a, b) = pair.unwrap();
        let mut pieces: [Piece; 32] = std::array::from_fn(|i| deal.at(Square::all().nth(i).unwrap()));
        pieces.swap(a.index(), b.index());
        let twin = replay_moves(Deal::new(pieces).unwrap(), m.moves(), &o);
        prop_assert_eq!(twin.game().outcome(), m.game().outcome());
        for v in [Viewer::Player(Seat::First), Viewer::Player(Seat::Second), Viewer::Spectator] {
            common::assert_same_to(&m, &twin, v);
        }
        // The arbiter does see the difference.
        prop_assert_ne!(
            serde_json::to_string(&m.game().observe(Viewer::Arbiter)).unwrap(),
            serde_json::to_string(&twin.game().observe(Viewer::Arbiter)).unwrap()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// For random options, deals and random (partly back-and-forth) play: every action the
    /// engine accepts through parse and play (flips, steps, captures, `end`) is generated and
    /// vice versa, and a side to move always has a legal action unless the game is over.
    #[test]
    fn accepted_moves_are_the_generated_moves_and_no_side_is_stuck(
        seed in any::<u64>(),
        plies in 0usize..300,
        ruleset in 0usize..3,
        flags in 0u8..32,
        repetition in 0usize..3,
    ) {
        let on = |bit: u8| (flags >> bit & 1 == 1).to_string();
        let (cd, cfd, cc, cr) = (on(0), on(1), on(2), on(3));
        let o = BanqiOptions::from_pairs([
            ("ruleset", ["taiwan", "hongkong", "mainland"][ruleset]),
            ("cannon_direct", cd.as_str()),
            ("capture_face_down", cfd.as_str()),
            ("chain_captures", cc.as_str()),
            ("chase_rule", cr.as_str()),
            ("repetition", ["off", "threefold", "cycle"][repetition]),
        ])
        .unwrap();
        let mut m = Match::<Banqi>::random(&o, seed).unwrap();
        common::random_plies_never_stuck(&mut m, plies, seed).map_err(TestCaseError::fail)?;
        common::accepted_equals_generated(m.game(), &common::all_move_texts())
            .map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// `legal_captures` lists exactly the legal actions that capture a face-up enemy piece,
    /// in the order `legal_moves` lists them, under random options and random play
    /// (capture chains included).
    #[test]
    fn legal_captures_are_the_legal_captures_of_face_up_pieces_in_order(
        seed in any::<u64>(),
        plies in 0usize..300,
        ruleset in 0usize..3,
        flags in 0u8..16,
    ) {
        let on = |bit: u8| (flags >> bit & 1 == 1).to_string();
        let o = BanqiOptions::from_pairs([
            ("ruleset", ["taiwan", "hongkong", "mainland"][ruleset]),
            ("cannon_direct", on(0).as_str()),
            ("capture_face_down", on(1).as_str()),
            ("chain_captures", on(2).as_str()),
            ("chase_rule", on(3).as_str()),
        ])
        .unwrap();
        let mut rng = rng_from_seed(seed);
        let mut g = Banqi::start(&o, Deal::random(&mut rng)).unwrap();
        let mut compared = 0;
        for _ in 0..plies {
            let mut all = Vec::new();
            g.legal_moves(&mut all);
            let side = g.to_move();
            let expected: Vec<Move> = all
                .into_iter()
                .filter(|&m| match m {
                    Move::Step { to, .. } => matches!(
                        g.at(to),
                        Some((p, false)) if Some(p.color) != side.and_then(|s| g.colour_of(s))
                    ),
                    _ => false,
                })
                .collect();
            let mut captures = Vec::new();
            g.legal_captures(&mut captures);
            prop_assert_eq!(&captures, &expected);
            compared += usize::from(!expected.is_empty());
            match g.random_move(&mut rng) {
                Some(mv) => g.play_unchecked(mv),
                None => break,
            }
        }
        prop_assert!(plies < 60 || compared > 0, "no position with a capture was compared");
    }
}

/// The search key tells apart two positions with the same board whose seats play the
/// other colours: the first two flips made in the other order, turning up a red and a
/// black Soldier.
#[test]
fn the_search_key_tells_the_seats_colours_apart() {
    let deal = deal_with(&[("a1", 'P'), ("b1", 'p')]);
    let mut red_first = Banqi::start(&taiwan(), deal.clone()).unwrap();
    play(&mut red_first, "a1");
    play(&mut red_first, "b1");
    let mut black_first = Banqi::start(&taiwan(), deal).unwrap();
    play(&mut black_first, "b1");
    play(&mut black_first, "a1");
    for s in Square::all() {
        assert_eq!(red_first.at(s), black_first.at(s), "{s}");
    }
    assert_eq!(red_first.colour_of(Seat::First), Some(Color::Red));
    assert_eq!(black_first.colour_of(Seat::First), Some(Color::Black));
    assert_ne!(red_first.search_key(), black_first.search_key());
}
