//! The challenge arbiter (`challenge::decide`) agrees with the games themselves: for every
//! pair of ranks of every game, under every option that changes a battle, the ruling equals
//! what the engine does when that very attack is played on a board.

use salpakan_engine::challenge::{self, Removed, Side};
use salpakan_engine::generals::{self, Generals, GeneralsOptions};
use salpakan_engine::stratego::{self, Stratego, StrategoOptions};
use salpakan_engine::{
    EndReason, Game, GameKind, GameOptions, GameSpec, Match, Seat, rng_from_seed,
};

/// Plays White's `attacker` (from e3) onto Black's `defender` (from e6) on a board holding
/// only those two pieces and the Flags, and returns the event of the challenge and the match.
fn generals_on_board(
    options: &str,
    attacker: generals::Piece,
    defender: generals::Piece,
) -> (generals::GeneralsEvent, Match<Generals>) {
    use generals::Piece::Flag;
    let mut o = GeneralsOptions::from_text(options).unwrap();
    // Both sides play the same army: the two ranks and one Flag.
    let mut counts = [0u8; 15];
    counts[Flag as usize] = 1;
    counts[attacker as usize] = counts[attacker as usize].max(1);
    counts[defender as usize] = counts[defender as usize].max(1);
    if attacker == defender && attacker != Flag {
        counts[attacker as usize] = 1;
    }
    o.army = generals::Army::new(counts).unwrap();
    let place = |seat: Seat, main: generals::Piece, main_sq: &str, rest: [&str; 2]| {
        let mut text = vec![format!("{main_sq}:{}", main.code())];
        let mut others: Vec<generals::Piece> = o.army.pieces();
        let i = others.iter().position(|&p| p == main).unwrap();
        others.remove(i);
        for (p, sq) in others.iter().zip(rest) {
            text.push(format!("{sq}:{}", p.code()));
        }
        generals::Setup::parse(seat, &o.army, &text.join(" ")).unwrap()
    };
    let white = place(Seat::First, attacker, "e3", ["a1", "b1"]);
    let black = place(Seat::Second, defender, "e6", ["a8", "b8"]);
    let mut m: Match<Generals> =
        Match::start(&o, generals::Setups([white, black]), &mut rng_from_seed(1)).unwrap();
    for mv in ["e3-e4", "e6-e5"] {
        m.play(mv.parse().unwrap()).unwrap();
        assert!(m.game().outcome().is_none(), "{mv} ends nothing");
    }
    let ev = m.play("e4-e5".parse().unwrap()).unwrap().clone();
    (ev, m)
}

#[test]
fn generals_challenge_arbiter_equals_a_challenge_played_on_the_board_for_every_pair_and_option() {
    use generals::Duel;
    let mut checked = 0;
    for reveal in ["none", "winner", "both"] {
        for flag_rule in ["adjacent", "one_turn", "electronic"] {
            let options = format!("reveal={reveal} flag_rule={flag_rule}");
            for a in generals::Piece::ALL {
                for d in generals::Piece::ALL {
                    let (ev, m) = generals_on_board(&options, a, d);
                    let c = ev.challenge.expect("a challenge");
                    // The table's options: the default army has every rank.
                    let spec = GameSpec::from_text(GameKind::Generals, &options).unwrap();
                    let r = challenge::decide(&spec, a.code(), d.code()).unwrap();
                    let removed = match c.result {
                        Duel::AttackerWins => Removed::Defender,
                        Duel::DefenderWins => Removed::Attacker,
                        Duel::BothEliminated => Removed::Both,
                    };
                    assert_eq!(r.removed, removed, "{options}: {a} on {d}");
                    let captured = m.game_outcome_flag_captured();
                    assert_eq!(r.flag_captured_by, captured, "{options}: {a} on {d}");
                    assert_eq!(
                        r.attacker_shown,
                        ev.piece_public.then(|| a.code()),
                        "{options}: {a} on {d}"
                    );
                    assert_eq!(
                        r.defender_shown,
                        c.defender_public.then(|| d.code()),
                        "{options}: {a} on {d}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 9 * 15 * 15);
}

/// Who captured a Flag in the match's outcome, as a side of the last challenge (White
/// attacked in these tests).
trait FlagCaptured {
    fn game_outcome_flag_captured(&self) -> Option<Side>;
}

impl FlagCaptured for Match<Generals> {
    fn game_outcome_flag_captured(&self) -> Option<Side> {
        let o = self.game().outcome()?;
        (o.reason == EndReason::FlagCaptured).then(|| match o.winner {
            Some(Seat::First) => Side::Attacker,
            Some(Seat::Second) => Side::Defender,
            None => panic!("a captured Flag has a winner"),
        })
    }
}

impl FlagCaptured for Match<Stratego> {
    fn game_outcome_flag_captured(&self) -> Option<Side> {
        let o = self.game().outcome()?;
        (o.reason == EndReason::FlagCaptured).then(|| match o.winner {
            Some(Seat::First) => Side::Attacker,
            Some(Seat::Second) => Side::Defender,
            None => panic!("a captured Flag has a winner"),
        })
    }
}

#[test]
fn stratego_challenge_arbiter_equals_an_attack_played_on_the_board_for_every_pair_and_option() {
    use stratego::{Duel, Piece};
    let mut checked = 0;
    for aggression in [false, true] {
        for one_time in [false, true] {
            for defuser in ["miner", "scout"] {
                let rules =
                    format!("aggression={aggression} one_time_bombs={one_time} defuser={defuser}");
                let o = StrategoOptions::from_text(&format!("army=free setup_area=board {rules}"))
                    .unwrap();
                let spec = GameSpec::Stratego(o.clone());
                for a in Piece::ALL {
                    for d in Piece::ALL {
                        if !a.is_movable() {
                            let e = challenge::decide(&spec, a.code(), d.code()).unwrap_err();
                            assert!(e.to_string().contains("cannot attack"), "{e}");
                            continue;
                        }
                        // Each side keeps a Flag and a Scout away from the fight, so the
                        // attack itself decides whether the game ends.
                        let mut red = format!("e4:{} b1:2", a.code());
                        red.push_str(" a1:F");
                        let mut blue = format!("e5:{} i10:2", d.code());
                        if d != Piece::Flag {
                            blue.push_str(" j10:F");
                        }
                        let setups = stratego::Setups([
                            stratego::Setup::parse(Seat::First, &o, &red).unwrap(),
                            stratego::Setup::parse(Seat::Second, &o, &blue).unwrap(),
                        ]);
                        let mut m: Match<Stratego> =
                            Match::start(&o, setups, &mut rng_from_seed(1)).unwrap();
                        let ev = m.play("e4-e5".parse().unwrap()).unwrap().clone();
                        let attack = ev.attack.expect("an attack");
                        let r = challenge::decide(&spec, a.code(), d.code()).unwrap();
                        let removed = match attack.result {
                            Duel::AttackerWins => Removed::Defender,
                            Duel::DefenderWins => Removed::Attacker,
                            Duel::BothRemoved => Removed::Both,
                        };
                        assert_eq!(r.removed, removed, "{rules}: {a} on {d}");
                        assert_eq!(
                            r.flag_captured_by,
                            m.game_outcome_flag_captured(),
                            "{rules}: {a} on {d}"
                        );
                        // Stratego shows both ranks of every attack, to everyone.
                        let seen = m.game().view(&ev, salpakan_engine::Viewer::Spectator);
                        let shown = seen.attack.expect("attacks are public");
                        assert_eq!(r.attacker_shown, Some(shown.attacker.code()));
                        assert_eq!(r.defender_shown, Some(shown.defender.code()));
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 8 * 10 * 12);
}

#[test]
fn challenge_arbiter_refuses_banqi_unknown_ranks_and_ranks_outside_the_army() {
    let banqi = GameSpec::default_for(GameKind::Banqi);
    assert!(challenge::decide(&banqi, "K", "P").is_err());
    assert!(challenge::ranks(&banqi).is_empty());
    let generals = GameSpec::default_for(GameKind::Generals);
    let e = challenge::decide(&generals, "KING", "PVT").unwrap_err();
    assert!(e.to_string().contains("not a rank of generals"), "{e}");
    let reduced = GameSpec::from_text(GameKind::Generals, "army=reduced").unwrap();
    let e = challenge::decide(&reduced, "2G", "PVT").unwrap_err();
    assert!(e.to_string().contains("no Major General"), "{e}");
    assert_eq!(challenge::ranks(&generals).len(), 15);
    assert_eq!(challenge::ranks(&reduced).len(), 11 - 1);
    let barrage = GameSpec::from_text(GameKind::Stratego, "army=barrage").unwrap();
    assert!(challenge::decide(&barrage, "3", "B").is_ok());
    assert!(challenge::decide(&barrage, "4", "B").is_err());
}
