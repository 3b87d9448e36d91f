//! Stratego scenario tests: one per rule of `RULES.md` §2 and `docs/rules-stratego.md`.

mod common;
#[path = "common/stratego_twin.rs"]
mod stratego_twin;

use proptest::prelude::*;
use salpakan_engine::stratego::{
    Army, Duel, Piece, Setup, Setups, Square, Stratego, StrategoOptions,
};
use salpakan_engine::{
    Copy, EndReason, Game, GameKind, GameOptions, Match, Outcome, PlayError, Seat, SetupError,
    Viewer, rng_from_seed, wire,
};

const RED: Seat = Seat::First;
const BLUE: Seat = Seat::Second;

/// A game with a free army on the whole board: `red` and `blue` are `square:code` lists.
fn game(opts: &str, red: &str, blue: &str) -> Match<Stratego> {
    let text = format!("army=free setup_area=board {opts}");
    let o = StrategoOptions::from_text(&text).unwrap();
    let hidden = Setups([
        Setup::parse(RED, &o, red).unwrap(),
        Setup::parse(BLUE, &o, blue).unwrap(),
    ]);
    Match::start(&o, hidden, &mut rng_from_seed(1)).unwrap()
}

fn mv(s: &str) -> salpakan_engine::stratego::Move {
    s.parse().unwrap()
}

/// Plays a move and returns the arbiter's record token.
fn play(m: &mut Match<Stratego>, s: &str) -> String {
    let ev = m.play(mv(s)).unwrap_or_else(|e| panic!("{s}: {e}")).clone();
    m.game().view(&ev, Viewer::Arbiter).to_string()
}

fn refused(m: &mut Match<Stratego>, s: &str) -> String {
    assert!(!m.game().is_legal(mv(s)), "{s} should be illegal");
    let mut all = Vec::new();
    m.game().legal_moves(&mut all);
    assert!(!all.contains(&mv(s)), "{s} listed as legal");
    match m.play(mv(s)) {
        Err(PlayError::Illegal { reason, .. }) => reason,
        other => panic!("{s}: expected a refusal, got {other:?}"),
    }
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

// A quiet Blue piece far away that can always make a fresh move.
const BLUE_FAR: &str = "j10:F a10:8 a9:3";

// ---------------------------------------------------------------------------------------
// Movement

#[test]
fn scout_moves_any_distance_over_empty_squares() {
    let mut m = game("", "j1:F a1:2", BLUE_FAR);
    assert!(legal(&m, "a1-a8"));
    assert!(!legal(&m, "a1-j1"), "j1 holds Red's own Flag");
    assert!(legal(&m, "a1-i1"));
    assert_eq!(play(&mut m, "a1-a7"), "a1-a7");
}

#[test]
fn scout_cannot_cross_a_lake() {
    let mut m = game("", "j1:F c2:2 a5:2", BLUE_FAR);
    assert!(legal(&m, "c2-c4"));
    assert!(!legal(&m, "c2-c7"));
    assert!(refused(&mut m, "c2-c7").contains("lake"));
    assert!(refused(&mut m, "c2-c5").contains("lake"));
    assert!(refused(&mut m, "a5-e5").contains("lake"));
    assert!(legal(&m, "a5-b5"));
}

#[test]
fn scout_cannot_jump_over_pieces() {
    let mut m = game("", "j1:F a1:2 a3:B", "j10:F a9:3 b9:2 b1:4");
    assert!(refused(&mut m, "a1-a5").contains("jump"));
    assert!(legal(&m, "a1-a2"));
    // Nor over an enemy piece.
    assert!(!legal(&m, "a1-c1"));
}

#[test]
fn only_scouts_move_more_than_one_square_and_never_diagonally() {
    let mut m = game("", "j1:F a1:10 c1:B", BLUE_FAR);
    assert!(refused(&mut m, "a1-a3").contains("only a Scout"));
    assert!(refused(&mut m, "a1-b2").contains("diagonal"));
    assert!(legal(&m, "a1-a2"));
}

#[test]
fn bombs_and_flags_never_move() {
    let mut m = game("", "j1:F a1:B e1:5", BLUE_FAR);
    assert!(refused(&mut m, "a1-a2").contains("cannot move"));
    assert!(refused(&mut m, "j1-j2").contains("cannot move"));
    assert!(refused(&mut m, "c5-c4").contains("no piece"));
}

#[test]
fn no_piece_enters_a_lake() {
    let mut m = game("", "j1:F c4:5", BLUE_FAR);
    assert!(refused(&mut m, "c4-c5").contains("lake"));
}

#[test]
fn scout_strike_on_lets_a_scout_move_and_attack_in_one_move() {
    let mut m = game("", "j1:F a1:2", "j10:F a6:3 i10:4");
    assert_eq!(play(&mut m, "a1-a6"), "a1-a6{2<3}");
}

#[test]
fn scout_strike_off_forbids_moving_and_attacking_in_one_move() {
    let mut m = game("scout_strike=false", "j1:F a1:2", "j10:F a6:3 a5:S");
    assert!(refused(&mut m, "a1-a5").contains("scout_strike"));
    assert!(legal(&m, "a1-a4"));
    let mut m = game("scout_strike=false", "j1:F a4:2", "j10:F a6:3 a5:S");
    assert_eq!(play(&mut m, "a4-a5"), "a4-a5{2>S}");
}

// ---------------------------------------------------------------------------------------
// Attacks

#[test]
fn spy_attacking_marshal_wins_but_marshal_attacking_spy_wins() {
    let mut m = game("", "j1:F a1:S", "j10:F a2:10 e9:4");
    assert_eq!(play(&mut m, "a1-a2"), "a1-a2{S>10}");
    assert_eq!(m.game().at(sq("a2")), Some((RED, Piece::Spy)));
    let mut m = game("", "j1:F a1:S e2:4", "j10:F a2:10 e9:4");
    play(&mut m, "e2-e3");
    assert_eq!(play(&mut m, "a2-a1"), "a2-a1{10>S}");
    assert_eq!(m.game().at(sq("a1")), Some((BLUE, Piece::Marshal)));
}

#[test]
fn spy_attacking_anything_else_loses() {
    let mut m = game("", "j1:F a1:S e1:4", "j10:F a2:2 e9:4");
    assert_eq!(play(&mut m, "a1-a2"), "a1-a2{S<2}");
}

#[test]
fn miner_defuses_a_bomb_and_every_other_attacker_dies_on_it() {
    let mut m = game("", "j1:F a1:3 c1:10", "j10:F a2:B c2:B e9:4");
    assert_eq!(play(&mut m, "a1-a2"), "a1-a2{3>B}");
    assert_eq!(m.game().at(sq("a2")), Some((RED, Piece::Miner)));
    play(&mut m, "e9-e8");
    assert_eq!(play(&mut m, "c1-c2"), "c1-c2{10<B}");
    assert_eq!(m.game().at(sq("c2")), Some((BLUE, Piece::Bomb)));
}

#[test]
fn equal_ranks_remove_both_pieces() {
    let mut m = game("", "j1:F a1:7 e1:4", "j10:F a2:7 e9:4");
    assert_eq!(play(&mut m, "a1-a2"), "a1-a2{7=7}");
    assert_eq!(m.game().at(sq("a1")), None);
    assert_eq!(m.game().at(sq("a2")), None);
}

#[test]
fn higher_rank_wins_and_the_attacker_takes_the_square() {
    let mut m = game("", "j1:F b4:7 e1:4", "j10:F b5:3 e9:4");
    assert_eq!(play(&mut m, "b4-b5"), "b4-b5{7>3}");
    assert_eq!(m.game().at(sq("b5")), Some((RED, Piece::Major)));
    play(&mut m, "e9-e8");
    let mut m2 = game("", "j1:F b4:3 e1:4", "j10:F b5:7 e9:4");
    assert_eq!(play(&mut m2, "b4-b5"), "b4-b5{3<7}");
    assert_eq!(m2.game().at(sq("b5")), Some((BLUE, Piece::Major)));
}

#[test]
fn capturing_the_flag_wins() {
    let mut m = game("", "j1:F a1:2", "a10:F e9:4");
    assert_eq!(play(&mut m, "a1-a10"), "a1-a10{2>F}");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(RED, EndReason::FlagCaptured))
    );
    assert!(matches!(m.play(mv("a10-a9")), Err(PlayError::GameOver(_))));
}

#[test]
fn attacks_reveal_both_ranks_and_the_opponent_keeps_knowing_them() {
    let mut m = game("", "j1:F b4:7 e1:4", "j10:F b6:3 b7:9 e9:4");
    play(&mut m, "b4-b5");
    play(&mut m, "b6-b5"); // Blue's Miner attacks the Major and loses.
    let obs = serde_json::to_value(m.game().observe(Viewer::Player(BLUE))).unwrap();
    assert_eq!(obs["board"]["b5"]["piece"], "7", "{obs}");
    assert_eq!(obs["board"]["b5"]["known"], true);
    assert_eq!(obs["eliminated"]["blue"], serde_json::json!(["3"]));
    play(&mut m, "b5-c5".replace("c5", "a5").as_str());
    // The Major moved on: Blue still knows it.
    let obs = serde_json::to_value(m.game().observe(Viewer::Player(BLUE))).unwrap();
    assert_eq!(obs["board"]["a5"]["piece"], "7", "{obs}");
    assert_eq!(obs["board"]["a5"]["moved"], true);
    // Unknown pieces show only their owner, and whether they moved.
    assert!(obs["board"]["e1"].get("piece").is_none(), "{obs}");
    let red = serde_json::to_value(m.game().observe(Viewer::Player(RED))).unwrap();
    assert!(red["board"]["b7"].get("piece").is_none(), "{red}");
    assert_eq!(red["board"]["a5"]["piece"], "7");
    let spectator = serde_json::to_value(m.game().observe(Viewer::Spectator)).unwrap();
    assert_eq!(spectator["board"]["a5"]["piece"], "7");
    assert!(spectator["board"]["b7"].get("piece").is_none());
}

#[test]
fn a_scout_moving_several_squares_shows_it_is_a_scout() {
    let mut m = game("", "j1:F a1:2 b1:2", BLUE_FAR);
    let ev = m.play(mv("a1-a4")).unwrap().clone();
    let v = m.game().view(&ev, Viewer::Player(BLUE));
    assert_eq!(v.piece, Some(Piece::Scout));
    let obs = serde_json::to_value(m.game().observe(Viewer::Player(BLUE))).unwrap();
    assert_eq!(obs["board"]["a4"]["piece"], "2");
    assert!(obs["board"]["b1"].get("piece").is_none());
    play(&mut m, "a9-a8");
    let ev = m.play(mv("b1-b2")).unwrap().clone();
    assert_eq!(m.game().view(&ev, Viewer::Player(BLUE)).piece, None);
    assert_eq!(
        m.game().view(&ev, Viewer::Player(RED)).piece,
        Some(Piece::Scout)
    );
}

// ---------------------------------------------------------------------------------------
// The two-squares rule

/// Blue moves that never repeat: a Miner walking down file a and along rank 6.
const BLUE_WALK: [&str; 8] = [
    "a9-a8", "a8-a7", "a7-a6", "a6-b6", "b6-b7", "b7-c7", "c7-c8", "c8-d8",
];

#[test]
fn two_squares_rule_allows_three_moves_then_forbids_the_fourth() {
    let mut m = game("", "j1:F e1:7", BLUE_FAR);
    for (i, r) in ["e1-e2", "e2-e1", "e1-e2"].iter().enumerate() {
        play(&mut m, r);
        play(&mut m, BLUE_WALK[i]);
    }
    assert!(refused(&mut m, "e2-e1").contains("two-squares"));
    assert!(legal(&m, "e2-e3"));
    assert!(legal(&m, "e2-f2"));
}

#[test]
fn two_squares_limit_five_is_the_older_rule_and_off_disables_it() {
    let mut m = game("two_square_limit=5", "j1:F e1:7", BLUE_FAR);
    let r = ["e1-e2", "e2-e1", "e1-e2", "e2-e1", "e1-e2"];
    for (i, x) in r.iter().enumerate() {
        play(&mut m, x);
        play(&mut m, BLUE_WALK[i]);
    }
    assert!(refused(&mut m, "e2-e1").contains("two-squares"));
    let mut m = game("two_square_limit=off", "j1:F e1:7", BLUE_FAR);
    for (i, blue) in BLUE_WALK.iter().enumerate() {
        play(&mut m, if i % 2 == 0 { "e1-e2" } else { "e2-e1" });
        play(&mut m, blue);
    }
}

#[test]
fn two_squares_rule_counts_only_moves_in_a_row_of_the_same_piece() {
    let mut m = game("", "j1:F e1:7 h1:4", BLUE_FAR);
    let red = ["e1-e2", "e2-e1", "h1-h2", "e1-e2", "e2-e1", "e1-e2"];
    for (i, r) in red.iter().enumerate() {
        play(&mut m, r);
        play(&mut m, BLUE_WALK[i]);
    }
    assert!(!legal(&m, "e2-e1"));
}

#[test]
fn two_squares_rule_counts_attacks_too() {
    // e2 holds a Blue Bomb that a Miner defuses on its first move.
    let mut m = game("", "j1:F e1:3", "j10:F e2:B a9:3");
    assert_eq!(play(&mut m, "e1-e2"), "e1-e2{3>B}");
    play(&mut m, BLUE_WALK[0]);
    play(&mut m, "e2-e1");
    play(&mut m, BLUE_WALK[1]);
    play(&mut m, "e1-e2");
    play(&mut m, BLUE_WALK[2]);
    assert!(!legal(&m, "e2-e1"));
}

#[test]
fn two_squares_rule_for_scouts_counts_moves_crossing_a_common_boundary() {
    // a1-a4, a4-a1, a1-a4: every move covered a1..a4. Any fourth move covering two of
    // those squares (crossing a boundary all three crossed) is refused.
    let mut m = game("", "j1:F a1:2", "j10:F j9:3");
    let blue = ["j9-j8", "j8-j7", "j7-j6", "j6-i6"];
    for (i, r) in ["a1-a4", "a4-a1", "a1-a4"].iter().enumerate() {
        play(&mut m, r);
        play(&mut m, blue[i]);
    }
    assert!(refused(&mut m, "a4-a2").contains("two-squares"));
    assert!(!legal(&m, "a4-a3"));
    assert!(!legal(&m, "a4-a1"));
    assert!(legal(&m, "a4-a5"), "covers a4 only of the common squares");
    assert!(legal(&m, "a4-b4"));

    // Shrinking moves: a1-a4, a4-a2, a2-a3 share a2..a3; a3-a1 crosses a2|a3 again.
    let mut m = game("", "j1:F a1:2", "j10:F j9:3");
    for (i, r) in ["a1-a4", "a4-a2", "a2-a3"].iter().enumerate() {
        play(&mut m, r);
        play(&mut m, blue[i]);
    }
    assert!(!legal(&m, "a3-a1"));
    assert!(!legal(&m, "a3-a2"));
    assert!(
        legal(&m, "a3-a4"),
        "a3-a4 crosses a3|a4, which a4-a2... a2-a3 did not all cross"
    );

    // Moves that share only one square never count: a1-a4, a4-a7, a7-a4, a4-a1 are fine.
    let mut m = game("", "j1:F a1:2", "j10:F j9:3");
    for (i, r) in ["a1-a4", "a4-a7", "a7-a4"].iter().enumerate() {
        play(&mut m, r);
        play(&mut m, blue[i]);
    }
    assert!(legal(&m, "a4-a1"));
    assert!(
        legal(&m, "a4-a5"),
        "a4-a7, a7-a4, a4-a5 would be only the third crossing of a4|a5"
    );
}

#[test]
fn two_squares_rule_for_scouts_the_archive_example_a4_j4_j4_h4_h4_j4() {
    // The Gravon archive's Scout case (docs/rules-stratego.md): a4-j4, j4-h4, h4-j4 all
    // cover h4 i4 j4, so under 3 a fourth move covering two of them is refused.
    let mut m = game("", "j1:F a4:2", BLUE_FAR);
    for (i, r) in ["a4-j4", "j4-h4", "h4-j4"].iter().enumerate() {
        play(&mut m, r);
        play(&mut m, BLUE_WALK[i]);
    }
    assert!(refused(&mut m, "j4-a4").contains("two-squares"));
    assert!(!legal(&m, "j4-i4"));
    assert!(!legal(&m, "j4-h4"));
    assert!(legal(&m, "j4-j5"), "covers j4 only of h4 i4 j4");
    assert!(legal(&m, "j4-j2"));
    // Under the older limit of 5 the fourth move is allowed.
    let mut m = game("two_square_limit=5", "j1:F a4:2", BLUE_FAR);
    for (i, r) in ["a4-j4", "j4-h4", "h4-j4"].iter().enumerate() {
        play(&mut m, r);
        play(&mut m, BLUE_WALK[i]);
    }
    assert!(legal(&m, "j4-a4"));
}

// ---------------------------------------------------------------------------------------
// The more-squares (chase) rule

/// Red's Major chases Blue's Captain round a Red Bomb on b2 (ring a1 a2 a3 b3 c3 c2 c1 b1).
fn ring_chase(opts: &str) -> Match<Stratego> {
    let mut m = game(opts, "j1:F a1:7 b2:B", "j10:F a3:6");
    let ring = ["a1", "a2", "a3", "b3", "c3", "c2", "c1", "b1"];
    for k in 0..8 {
        play(&mut m, &format!("{}-{}", ring[k], ring[(k + 1) % 8]));
        play(
            &mut m,
            &format!("{}-{}", ring[(k + 2) % 8], ring[(k + 3) % 8]),
        );
    }
    m
}

#[test]
fn chase_rule_forbids_the_chaser_to_repeat_a_position_of_the_chase() {
    let mut m = ring_chase("");
    assert_eq!(
        m.game().chase().map(|(s, q)| (s, q.to_string())),
        Some((RED, "a3".into()))
    );
    let reason = refused(&mut m, "a1-a2");
    assert!(reason.contains("more-squares"), "{reason}");
    // Not chasing is always allowed (here: the move back to b1, which threatens nothing).
    assert!(legal(&m, "a1-b1"));
}

#[test]
fn chase_rule_off_allows_endless_chasing() {
    let mut m = ring_chase("chase_rule=false");
    assert!(legal(&m, "a1-a2"));
    play(&mut m, "a1-a2");
}

#[test]
fn the_chased_side_may_repeat_positions() {
    let mut m = ring_chase("");
    play(&mut m, "a1-b1");
    // Blue is not chasing: any move.
    assert!(legal(&m, "a3-a2"));
}

#[test]
fn chasing_back_to_the_square_just_left_is_allowed_until_the_two_squares_rule_stops_it() {
    // Red's Major chases Blue's Captain between b3 and c3; walls of Red Bombs.
    let mut m = game("", "j1:F b1:7 a2:B a3:B d2:B d3:B", "j10:F b4:B c4:B b3:6");
    play(&mut m, "b1-b2"); // threatens b3
    play(&mut m, "b3-c3"); // evades: the chase begins
    play(&mut m, "b2-c2"); // chases
    let h_after_first_threat = {
        let mut g = game("", "j1:F b1:7 a2:B a3:B d2:B d3:B", "j10:F b4:B c4:B b3:6");
        play(&mut g, "b1-b2");
        g.game().board_hash()
    };
    play(&mut m, "c3-b3"); // evades back
    // c2-b2 repeats the position after b1-b2, but goes back to the square it came from.
    assert!(legal(&m, "c2-b2"));
    play(&mut m, "c2-b2");
    assert_eq!(m.game().board_hash(), h_after_first_threat);
    play(&mut m, "b3-c3");
    assert!(
        legal(&m, "b2-c2"),
        "back again: b2-c2, c2-b2, b2-c2 is three moves"
    );
    play(&mut m, "b2-c2");
    // Blue's Captain has moved b3-c3, c3-b3, b3-c3: its fourth move between them is
    // refused by the two-squares rule.
    assert!(refused(&mut m, "c3-b3").contains("two-squares"));
}

// ---------------------------------------------------------------------------------------
// No move, draws, endings

#[test]
fn a_player_left_without_movable_pieces_loses() {
    let mut m = game("", "j1:F e4:10", "j10:F e5:2 a10:B");
    assert_eq!(play(&mut m, "e4-e5"), "e4-e5{10>2}");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(RED, EndReason::NoLegalMoves))
    );
}

#[test]
fn losing_ones_own_last_movable_piece_loses_at_once() {
    let mut m = game("", "j1:F e4:2", "j10:F e5:B a10:4");
    assert_eq!(play(&mut m, "e4-e5"), "e4-e5{2<B}");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(BLUE, EndReason::NoLegalMoves))
    );
}

#[test]
fn neither_side_able_to_move_is_a_draw() {
    let mut m = game("", "j1:F e4:7", "j10:F e5:7");
    assert_eq!(play(&mut m, "e4-e5"), "e4-e5{7=7}");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::draw(EndReason::NeitherCanMove))
    );
}

#[test]
fn pieces_walled_in_by_their_own_side_cannot_move() {
    // Red's only movable piece is boxed in by its own Bombs and the board edge.
    let m = game("", "a1:F a2:4 a3:B b2:B b1:B", "j10:F a10:4");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(BLUE, EndReason::NoLegalMoves))
    );
}

#[test]
fn a_player_whose_only_moves_break_the_two_squares_rule_loses_as_soon_as_it_moved() {
    // Red's only movable piece shuttles a1-a2 in a corridor of its own Bombs. After its
    // third move it stands on a2 and its only move, back to a1, is forbidden: Red has no
    // legal move and loses at once, before Blue moves (as Gravon ends such games).
    let mut m = game("", "j1:F a1:4 a3:B b1:B b2:B", BLUE_FAR);
    for (i, r) in ["a1-a2", "a2-a1"].iter().enumerate() {
        play(&mut m, r);
        assert_eq!(m.game().outcome(), None);
        play(&mut m, BLUE_WALK[i]);
    }
    play(&mut m, "a1-a2");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(BLUE, EndReason::NoLegalMoves))
    );
    // The same game under the older limit of 5 goes on.
    let mut m = game("two_square_limit=5", "j1:F a1:4 a3:B b1:B b2:B", BLUE_FAR);
    for (i, r) in ["a1-a2", "a2-a1", "a1-a2"].iter().enumerate() {
        play(&mut m, r);
        play(&mut m, BLUE_WALK[i]);
    }
    assert_eq!(m.game().outcome(), None);
}

#[test]
fn a_side_to_move_whose_only_moves_break_the_two_squares_rule_loses() {
    // Blue's Sergeant shuttles a10-a9 between its own Bombs; then Red's Marshal takes
    // Blue's only other movable piece, the Scout on e6. Blue, to move, has only a9-a10,
    // which the two-squares rule forbids: Blue loses.
    let mut m = game("", "j1:F e4:10", "j10:F a10:4 a8:B b9:B b10:B e6:2");
    for (r, b) in [
        ("e4-e3", "a10-a9"),
        ("e3-e4", "a9-a10"),
        ("e4-e5", "a10-a9"),
    ] {
        play(&mut m, r);
        play(&mut m, b);
        assert_eq!(m.game().outcome(), None);
    }
    assert_eq!(play(&mut m, "e5-e6"), "e5-e6{10>2}");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::win(RED, EndReason::NoLegalMoves))
    );
}

#[test]
fn max_quiet_plies_draws_after_that_many_plies_without_an_attack() {
    let mut m = game("max_quiet_plies=4", "j1:F e1:7", BLUE_FAR);
    play(&mut m, "e1-e2");
    play(&mut m, "a9-a8");
    play(&mut m, "e2-e3");
    assert_eq!(m.game().outcome(), None);
    play(&mut m, "a8-a7");
    assert_eq!(
        m.game().outcome(),
        Some(Outcome::draw(EndReason::QuietPlies))
    );
}

#[test]
fn resignation_and_agreed_draws_end_the_game_and_replay() {
    let mut m = game("", "j1:F e1:7", BLUE_FAR);
    play(&mut m, "e1-e2");
    m.conclude(Outcome::win(RED, EndReason::Resignation))
        .unwrap();
    common::check_records(&m);
    let mut m = game("", "j1:F e1:7", BLUE_FAR);
    m.conclude(Outcome::draw(EndReason::Agreement)).unwrap();
    assert!(m.conclude(Outcome::draw(EndReason::Agreement)).is_err());
    common::check_records(&m);
}

// ---------------------------------------------------------------------------------------
// Armies, setups, options

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn every_army_plays_random_games_that_keep_the_invariants() {
    for (k, army) in [
        "classic",
        "barrage",
        "duel",
        "free",
        "F:1,B:3,S:1,2:4,3:2,10:1",
    ]
    .iter()
    .enumerate()
    {
        let o = StrategoOptions::from_pairs([("army", *army), ("max_quiet_plies", "300")]).unwrap();
        for seed in 0..3 {
            let m = common::random_game_invariants::<Stratego>(&o, seed + 10 * k as u64, 20_000);
            assert!(m.game().outcome().is_some());
        }
    }
}

#[test]
fn random_classic_games_without_a_quiet_limit_end() {
    for seed in 0..4 {
        common::random_game_invariants::<Stratego>(&StrategoOptions::default(), seed, 200_000);
    }
}

#[test]
fn named_armies_have_their_pieces() {
    let count = |a: &str| {
        let o = StrategoOptions::from_pairs([("army", a)]).unwrap();
        o.army.pieces()
    };
    assert_eq!(count("classic").len(), 40);
    let b = count("barrage");
    assert_eq!(b.len(), 8);
    assert_eq!(b.iter().filter(|&&p| p == Piece::Scout).count(), 2);
    let d = count("duel");
    assert_eq!(d.len(), 10);
    assert_eq!(d.iter().filter(|&&p| p == Piece::Bomb).count(), 2);
    assert_eq!(d.iter().filter(|&&p| p == Piece::Miner).count(), 2);
    // Counts equal to a named army give that army.
    let o = StrategoOptions::from_pairs([("army", "F:1,B:1,S:1,2:2,3:1,9:1,10:1")]).unwrap();
    assert_eq!(o.army, Army::Barrage);
}

#[test]
fn options_round_trip_and_bad_values_are_explained() {
    let o = StrategoOptions::from_text(
        "army=F:1,B:2,S:1,2:3,10:1 two_square_limit=5 chase_rule=false scout_strike=off max_quiet_plies=100 setup_area=half",
    )
    .unwrap();
    assert_eq!(StrategoOptions::from_text(&o.to_text()).unwrap(), o);
    assert_eq!(StrategoOptions::from_json(&o.to_json()).unwrap(), o);
    assert_eq!(
        StrategoOptions::default().to_text(),
        "army=classic setup_area=standard scout_strike=true two_square_limit=3 chase_rule=true max_quiet_plies=off"
    );
    let e = StrategoOptions::from_text("army=F:2")
        .unwrap_err()
        .to_string();
    assert!(e.contains("Flag"), "{e}");
    let e = StrategoOptions::from_text("army=X:1")
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown piece"), "{e}");
    let e = StrategoOptions::from_text("two_square_limit=99")
        .unwrap_err()
        .to_string();
    assert!(e.contains("16"), "{e}");
    let e = StrategoOptions::from_text("army=F:1,2:45")
        .unwrap_err()
        .to_string();
    assert!(e.contains("does not fit"), "{e}");
    assert!(StrategoOptions::from_text("army=F:1,2:45 setup_area=board").is_ok());
}

#[test]
fn setups_are_validated_with_precise_errors() {
    let o = StrategoOptions::from_pairs([("army", "barrage")]).unwrap();
    let ok = "a1:F b1:B c1:S d1:2 e1:2 f1:3 g1:9 h1:10";
    assert!(Setup::parse(RED, &o, ok).is_ok());
    let e = Setup::parse(RED, &o, "a5:F b1:B c1:S d1:2 e1:2 f1:3 g1:9 h1:10").unwrap_err();
    assert!(matches!(e, SetupError::OutsideArea { .. }), "{e}");
    assert!(e.to_string().contains("ranks 1-4"), "{e}");
    let e = Setup::parse(BLUE, &o, ok).unwrap_err();
    assert!(e.to_string().contains("ranks 7-10"), "{e}");
    let e = Setup::parse(RED, &o, "a1:F b1:B c1:S d1:2 e1:3 f1:3 g1:9 h1:10").unwrap_err();
    assert!(matches!(e, SetupError::WrongCount { .. }), "{e}");
    let e = Setup::parse(RED, &o, "a1:F a1:B").unwrap_err();
    assert!(e.to_string().contains("two pieces"), "{e}");
    let e = Setup::parse(RED, &o, "a1:Q").unwrap_err();
    assert!(matches!(e, SetupError::UnknownPiece { .. }), "{e}");
    let e = Setup::parse(RED, &o, "k1:F").unwrap_err();
    assert!(matches!(e, SetupError::BadSquare { .. }), "{e}");
    // Free armies anywhere but the lakes.
    let f = StrategoOptions::from_text("army=free setup_area=board").unwrap();
    assert!(Setup::parse(RED, &f, "e9:F").is_ok());
    assert!(Setup::parse(RED, &f, "c5:F").is_err());
    // Overlapping free setups are refused at the start.
    let h = Setups([
        Setup::parse(RED, &f, "e5:F").unwrap(),
        Setup::parse(BLUE, &f, "e5:F").unwrap(),
    ]);
    assert!(Stratego::start(&f, h).is_err());
}

#[test]
fn protocol_setups_are_read_by_seat_and_missing_ones_drawn() {
    let req = serde_json::json!({
        "op": "new", "game": "stratego", "options": {"army": "barrage"},
        "setups": {"red": {"a1":"F","b1":"B","c1":"S","d1":"2","e1":"2","f1":"3","g1":"9","h1":"10"}}
    });
    let spec = wire::spec_from_json(GameKind::Stratego, &req["options"]).unwrap();
    let m = wire::new_match(&spec, req.as_object().unwrap(), 5).unwrap();
    let obs = m.observe_json(Viewer::Player(RED));
    assert_eq!(obs["board"]["a1"]["piece"], "F");
    assert_eq!(obs["board"].as_object().unwrap().len(), 16);
    let bad = serde_json::json!({"setups": {"green": {}}});
    let e = Stratego::hidden_from_json(
        &StrategoOptions::default(),
        bad.as_object().unwrap(),
        &mut rng_from_seed(1),
    )
    .unwrap_err();
    assert!(e.to_string().contains("red and blue"), "{e}");
}

#[test]
fn sensible_setups_keep_the_flag_at_the_back_behind_bombs() {
    for army in ["classic", "barrage", "duel"] {
        let o = StrategoOptions::from_pairs([("army", army)]).unwrap();
        for seed in 0..20 {
            for seat in Seat::BOTH {
                let s = Setup::sensible(seat, &o, &mut rng_from_seed(seed));
                let back = if seat == RED { 0 } else { 9 };
                let (f, _) = s
                    .placements()
                    .iter()
                    .find(|(_, p)| *p == Piece::Flag)
                    .unwrap();
                assert_eq!(f.rank(), back, "{army}: {}", s.text());
                let bombs_next = s
                    .placements()
                    .iter()
                    .filter(|(q, p)| {
                        *p == Piece::Bomb
                            && (i16::from(q.file()) - i16::from(f.file())).abs()
                                + (i16::from(q.rank()) - i16::from(f.rank())).abs()
                                == 1
                    })
                    .count();
                assert!(bombs_next >= 1, "{army}: {}", s.text());
                // Valid for its options.
                Setup::parse(seat, &o, &s.text()).unwrap();
            }
        }
    }
}

#[test]
fn record_tokens_annotate_attacks_with_both_ranks() {
    let mut m = game("", "j1:F b4:7 e1:4", "j10:F b5:3 e9:4");
    play(&mut m, "b4-b5");
    let rec = m.record(Copy::Seat(BLUE));
    assert_eq!(rec.plies, vec!["b4-b5{7>3}".to_string()]);
    assert!(rec.tag("RedSetup").is_none());
    assert!(rec.tag("BlueSetup").is_some());
    common::check_records(&m);
}

#[test]
fn attack_results_are_public_in_every_view() {
    let mut m = game("", "j1:F b4:7 e1:4", "j10:F b5:3 e9:4");
    let ev = m.play(mv("b4-b5")).unwrap().clone();
    for v in [Viewer::Spectator, Viewer::Player(BLUE)] {
        let view = m.game().view(&ev, v);
        let a = view.attack.unwrap();
        assert_eq!(
            (a.attacker, a.defender, a.result),
            (Piece::Major, Piece::Miner, Duel::AttackerWins)
        );
        assert_eq!(view.piece, Some(Piece::Major));
    }
}

#[test]
fn refusals_never_name_a_hidden_enemy_rank() {
    let mut m = game("", "j1:F a1:2", "j10:F a3:10 b9:4");
    for bad in ["a1-a4", "a1-b2", "j1-j2", "a3-a4"] {
        if let Err(e) = m.play(mv(bad)) {
            let t = e.to_string();
            assert!(!t.contains("Marshal") && !t.contains("10"), "{t}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// No leak: twins that differ only in what a viewer cannot tell apart look identical.

fn twin_check(seed: u64, plies: usize) -> Result<usize, TestCaseError> {
    stratego_twin::twin_check("max_quiet_plies=400", seed, plies)
}

#[test]
fn no_leak_twins_are_found_and_compared() {
    let mut n = 0;
    for seed in 0..20 {
        n += twin_check(seed, 40 + 10 * seed as usize).unwrap();
    }
    assert!(n >= 30, "only {n} twins compared");
}

#[test]
fn no_leak_twins_leave_out_a_pair_of_which_one_ended_with_a_side_unable_to_move() {
    // Blue's Sergeant shuffles i7-i6 until the two-squares rule stops it; Blue's other
    // pieces with room to move are Bombs or its Flag: Blue loses at once. In a twin where
    // one of those unmoved pieces is movable, the game goes on (found by the proptest
    // below).
    let o = StrategoOptions::from_text("max_quiet_plies=400").unwrap();
    let mut m = Match::<Stratego>::random(&o, 946_840).unwrap();
    let mut rng = rng_from_seed(946_840 ^ 77);
    for _ in 0..12 {
        let mv = m.game().random_move(&mut rng).unwrap();
        m.play(mv).unwrap();
    }
    assert_eq!(
        m.game().outcome().map(|o| o.reason),
        Some(EndReason::NoLegalMoves)
    );
    assert!(
        matches!(twin_check(946_840, 12), Err(TestCaseError::Reject(_))),
        "the pair is left out"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn no_leak_twins_differing_in_unseen_enemy_ranks_look_identical(seed in 0u64..1_000_000, plies in 0usize..300) {
        twin_check(seed, plies)?;
    }
}

// ---------------------------------------------------------------------------------------
// Accepted moves are generated moves; no side is ever stuck

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// For random options, setups and random (partly back-and-forth) play: every move the
    /// engine accepts through parse and play is generated and vice versa, and a side to
    /// move always has a legal move unless the game is over.
    #[test]
    fn accepted_moves_are_the_generated_moves_and_no_side_is_stuck(
        seed in any::<u64>(),
        plies in 0usize..300,
        army in 0usize..5,
        limit in 0usize..5,
        chase_rule in any::<bool>(),
        scout_strike in any::<bool>(),
    ) {
        let army = ["classic", "barrage", "duel", "free", "F:1,B:2,S:1,2:3,3:1,4:2,10:1"][army];
        let limit = ["1", "2", "3", "5", "off"][limit];
        let chase = chase_rule.to_string();
        let strike = scout_strike.to_string();
        let o = StrategoOptions::from_pairs([
            ("army", army),
            ("two_square_limit", limit),
            ("chase_rule", chase.as_str()),
            ("scout_strike", strike.as_str()),
        ])
        .unwrap();
        let mut m = Match::<Stratego>::random(&o, seed).unwrap();
        common::random_plies_never_stuck(&mut m, plies, seed).map_err(TestCaseError::fail)?;
        common::accepted_equals_generated(m.game(), &common::all_move_texts())
            .map_err(TestCaseError::fail)?;
    }
}
