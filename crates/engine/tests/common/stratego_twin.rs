//! The no-leak twin check for Stratego, shared by `stratego.rs` and `stratego_ul.rs`: a game
//! played at random, then for each seat a twin in which two enemy pieces of different ranks
//! that seat never saw swap places; the seat (and a spectator) must see the two identically.

use proptest::prelude::*;
use salpakan_engine::stratego::{Piece, Setup, Setups, Square, Stratego, StrategoOptions};
use salpakan_engine::{EndReason, Game, GameOptions, Match, Seat, Viewer, rng_from_seed};

use crate::common;

/// Plays `plies` random moves under `options` from seed `seed`, then compares twins; the
/// number compared (a twin whose moves are not all legal, or a pair of which one ended with a
/// side left without a legal move, is rejected).
pub fn twin_check(options: &str, seed: u64, plies: usize) -> Result<usize, TestCaseError> {
    let mut compared = 0;
    let o = StrategoOptions::from_text(options).unwrap();
    let mut m = Match::<Stratego>::random(&o, seed).unwrap();
    let mut rng = rng_from_seed(seed ^ 77);
    // Where each piece on the board started (a rescued piece starts where it is put back).
    let mut origin: Vec<Option<Square>> = Square::all().map(Some).collect();
    for _ in 0..plies {
        let Some(x) = m.game().random_move(&mut rng) else {
            break;
        };
        let seat = m.game().to_move().unwrap();
        let from_origin = origin[x.from.index()];
        let ev = m.play(x).unwrap().clone();
        origin[x.from.index()] = None;
        match m.game().at(x.to) {
            Some((s, _)) if s == seat => origin[x.to.index()] = from_origin,
            Some(_) => {}
            None => origin[x.to.index()] = None,
        }
        if let Some(r) = ev.rescue {
            origin[r.square.index()] = None;
        }
    }
    for viewer_seat in Seat::BOTH {
        let enemy = viewer_seat.other();
        let obs = serde_json::to_value(m.game().observe(Viewer::Player(viewer_seat))).unwrap();
        let cands: Vec<(Square, Piece, bool)> = Square::all()
            .filter_map(|s| {
                let (seat, p) = m.game().at(s)?;
                let v = &obs["board"][s.to_string()];
                (seat == enemy && v.get("piece").is_none())
                    .then(|| (s, p, v.get("moved").is_some()))
            })
            .collect();
        let pair = cands.iter().enumerate().find_map(|(i, a)| {
            cands[i + 1..]
                .iter()
                .find(|b| b.1 != a.1 && b.2 == a.2)
                .map(|b| (*a, *b))
        });
        let Some((a, b)) = pair else { continue };
        let (Some(oa), Some(ob)) = (origin[a.0.index()], origin[b.0.index()]) else {
            continue;
        };
        let mut parts = m.hidden().0.clone();
        let swapped: Vec<(Square, Piece)> = parts[enemy.index()]
            .placements()
            .iter()
            .map(|&(q, p)| {
                if q == oa {
                    (q, b.1)
                } else if q == ob {
                    (q, a.1)
                } else {
                    (q, p)
                }
            })
            .collect();
        parts[enemy.index()] = Setup::new(enemy, &o, &swapped).unwrap();
        // The same salts as the original: the same generator, past the random setups.
        let mut salt_rng = rng_from_seed(seed);
        let _ = Stratego::random_hidden(&o, &mut salt_rng);
        let mut twin = Match::<Stratego>::start(&o, Setups(parts), &mut salt_rng).unwrap();
        let mut ok = true;
        for &x in m.moves() {
            if twin.play(x).is_err() {
                ok = false;
                break;
            }
        }
        prop_assume!(ok);
        // A side left without a legal move loses at once, after either side's move (RULES.md
        // §2): an end that tells, as the rule must, that the pieces a side could have moved
        // were Bombs or its Flag. Swapping such a piece with a movable one may change that
        // end, and that is no leak.
        let immobile = |g: &Stratego| {
            g.outcome().is_some_and(|o| {
                matches!(
                    o.reason,
                    EndReason::NoLegalMoves | EndReason::NeitherCanMove
                )
            })
        };
        prop_assume!(
            m.game().outcome() == twin.game().outcome()
                || !(immobile(m.game()) || immobile(twin.game()))
        );
        prop_assert_eq!(twin.game().at(a.0), Some((enemy, b.1)));
        common::assert_same_to(&m, &twin, Viewer::Player(viewer_seat));
        common::assert_same_to(&m, &twin, Viewer::Spectator);
        compared += 1;
    }
    Ok(compared)
}
