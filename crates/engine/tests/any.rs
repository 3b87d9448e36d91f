//! `AnyMatch`: the enum of the three games, with typed moves.

use salpakan_engine::{
    AnyMatch, AnyMove, EndReason, GameKind, GameSpec, Outcome, PlayError, Seat, Viewer, wire,
};

fn new(kind: GameKind, seed: u64) -> AnyMatch {
    GameSpec::default_for(kind)
        .new_match([None, None], seed)
        .unwrap()
}

#[test]
fn a_move_of_another_game_is_a_typed_error_and_changes_nothing() {
    let mut generals = new(GameKind::Generals, 1);
    let banqi = new(GameKind::Banqi, 1);
    let flip = banqi.legal_moves()[0];
    assert_eq!(flip.kind(), GameKind::Banqi);
    let e = generals.play(flip).unwrap_err();
    assert_eq!(
        e,
        PlayError::WrongGame {
            mv: flip.to_string(),
            game: GameKind::Banqi,
            expected: GameKind::Generals
        }
    );
    assert!(!generals.is_legal(&flip));
    assert!(matches!(
        generals.check_move(&flip),
        Err(PlayError::WrongGame { .. })
    ));
    assert!(wire::play_sent(&mut generals, flip).is_err());
    assert!(wire::play_views(&mut generals, flip).is_err());
    assert_eq!(generals.ply(), 0);
}

#[test]
fn an_illegal_moves_reason_comes_from_one_check_and_nothing_changes() {
    for kind in GameKind::ALL {
        let mut m = new(kind, 3);
        let legal = m.legal_moves();
        for mv in &legal {
            assert!(m.is_legal(mv));
            assert_eq!(m.check_move(mv), Ok(()), "{kind} {mv}");
        }
        assert_eq!(m.ply(), 0, "checking a legal move plays nothing");
        // After one ply the same move is illegal: its piece has gone, or it is face up.
        let first = legal[0];
        m.play(first).unwrap();
        let after = m.observe_json_text(Viewer::Arbiter);
        let e = m.check_move(&first).unwrap_err();
        assert!(matches!(e, PlayError::Illegal { .. }), "{kind}: {e}");
        assert_eq!(m.observe_json_text(Viewer::Arbiter), after, "{kind}");
        assert_eq!(m.ply(), 1);
    }
}

#[test]
fn moves_parse_at_the_edge_and_write_back_to_the_same_text() {
    for kind in GameKind::ALL {
        let m = new(kind, 5);
        for mv in m.legal_moves() {
            let text = mv.to_string();
            assert_eq!(m.parse_move(&text), Ok(mv));
            assert_eq!(serde_json::to_value(mv).unwrap(), serde_json::json!(text));
        }
        assert!(matches!(
            m.parse_move("not a move"),
            Err(PlayError::Parse(_))
        ));
    }
}

#[test]
fn once_over_no_text_is_a_move() {
    let mut m = new(GameKind::Stratego, 2);
    m.conclude(Outcome::win(Seat::First, EndReason::Resignation))
        .unwrap();
    assert!(matches!(m.parse_move("a4-a5"), Err(PlayError::GameOver(_))));
    assert!(m.legal_moves().is_empty());
}

#[test]
fn the_three_sent_views_are_the_text_of_the_json_views() {
    for kind in GameKind::ALL {
        let (mut a, mut b) = (new(kind, 9), new(kind, 9));
        for _ in 0..8 {
            let Some(&mv) = a.legal_moves().first() else {
                break;
            };
            let views = wire::play_views(&mut a, mv).unwrap();
            let sent = wire::play_sent(&mut b, mv).unwrap();
            assert_eq!(sent[0], views.players[0].to_string());
            assert_eq!(sent[1], views.players[1].to_string());
            assert_eq!(sent[2], views.spectator.to_string());
            assert_eq!(
                a.observe_json(Viewer::Spectator).to_string(),
                b.observe_json_text(Viewer::Spectator)
            );
        }
    }
}

#[test]
fn typed_accessors_give_one_games_match() {
    let m = new(GameKind::Stratego, 4);
    assert!(m.as_stratego().is_some());
    assert!(m.as_generals().is_none() && m.as_banqi().is_none());
    assert_eq!(m.spec(), GameSpec::default_for(GameKind::Stratego));
    assert!(matches!(m.legal_moves()[0], AnyMove::Stratego(_)));
}

/// Every viewer's observation as `serde_json` writes it, by the game's own type.
fn serde_observations(m: &AnyMatch) -> Vec<String> {
    use salpakan_engine::Game;
    fn text<T: serde::Serialize>(t: &T) -> String {
        serde_json::to_string(t).unwrap()
    }
    let views = [
        Viewer::Player(Seat::First),
        Viewer::Player(Seat::Second),
        Viewer::Spectator,
        Viewer::Arbiter,
    ];
    views
        .iter()
        .map(|&v| match m {
            AnyMatch::Generals(g) => text(&g.game().observe(v)),
            AnyMatch::Stratego(g) => text(&g.game().observe(v)),
            AnyMatch::Banqi(g) => text(&g.game().observe(v)),
        })
        .collect()
}

#[test]
fn observations_written_by_hand_are_byte_for_byte_the_serde_text() {
    let views = [
        Viewer::Player(Seat::First),
        Viewer::Player(Seat::Second),
        Viewer::Spectator,
        Viewer::Arbiter,
    ];
    for kind in GameKind::ALL {
        for seed in 0..6u64 {
            let mut m = new(kind, seed);
            let mut ply = 0u64;
            loop {
                let hand: Vec<String> = views.iter().map(|&v| m.observe_json_text(v)).collect();
                assert_eq!(hand, serde_observations(&m), "{kind} seed {seed} ply {ply}");
                let legal = m.legal_moves();
                if legal.is_empty() {
                    break;
                }
                if ply == 300 {
                    // A long game ends by resignation: the result is written too.
                    m.conclude(Outcome::win(Seat::Second, EndReason::Resignation))
                        .unwrap();
                    continue;
                }
                let k = usize::try_from(seed.wrapping_mul(7919).wrapping_add(ply * 104_729))
                    .unwrap()
                    % legal.len();
                m.play(legal[k]).unwrap();
                ply += 1;
            }
            assert!(m.outcome().is_some(), "{kind} seed {seed} ended");
        }
    }
}

#[test]
fn a_moves_written_text_is_its_display() {
    for kind in GameKind::ALL {
        let m = new(kind, 11);
        for mv in m.legal_moves() {
            let mut out = String::from("x");
            mv.write_text(&mut out);
            assert_eq!(out, format!("x{mv}"));
        }
    }
}
