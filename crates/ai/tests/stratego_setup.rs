//! The expert's Stratego setups: drawn from where human players put their pieces, the Flag
//! walled in by Bombs, and a second wall for the enemy Miners to dig first.

use salpakan_ai::games::stratego_setup::setup;
use salpakan_engine::stratego::{Army, Piece, RANKS, Setup, SetupArea, Square, StrategoOptions};
use salpakan_engine::{Seat, rng_from_seed};

const FILES: u8 = salpakan_engine::stratego::FILES;

fn options(army: Army) -> StrategoOptions {
    StrategoOptions {
        army,
        ..StrategoOptions::default()
    }
}

/// Ranks counted from `seat`'s own back rank (0).
fn own_rank(seat: Seat, s: Square) -> u8 {
    match seat {
        Seat::First => s.rank(),
        Seat::Second => RANKS - 1 - s.rank(),
    }
}

fn at(setup: &Setup, s: Square) -> Option<Piece> {
    setup
        .placements()
        .iter()
        .find(|&&(q, _)| q == s)
        .map(|&(_, p)| p)
}

fn flag(setup: &Setup) -> Square {
    setup
        .placements()
        .iter()
        .find(|&&(_, p)| p == Piece::Flag)
        .expect("a Flag")
        .0
}

/// The squares next to `s` inside `seat`'s standard setup area.
fn doors(seat: Seat, s: Square) -> Vec<Square> {
    let (f, r) = (i16::from(s.file()), i16::from(s.rank()));
    [(f - 1, r), (f + 1, r), (f, r - 1), (f, r + 1)]
        .into_iter()
        .filter_map(|(f, r)| Square::new(u8::try_from(f).ok()?, u8::try_from(r).ok()?))
        .filter(|&d| own_rank(seat, d) < 4)
        .collect()
}

fn setups(army: Army, seat: Seat, n: u64) -> Vec<Setup> {
    let o = options(army);
    (0..n)
        .map(|seed| setup(seat, &o, &mut rng_from_seed(seed)))
        .collect()
}

#[test]
fn expert_setups_are_whole_armies_for_every_army_and_area() {
    for army in [
        Army::Classic,
        Army::Barrage,
        Army::Duel,
        Army::UltimateLightning,
        Army::Free,
    ] {
        for area in [SetupArea::Standard, SetupArea::Half, SetupArea::Board] {
            let o = StrategoOptions {
                army,
                setup_area: area,
                ..StrategoOptions::default()
            };
            for seat in [Seat::First, Seat::Second] {
                for seed in 0..20 {
                    let s = setup(seat, &o, &mut rng_from_seed(seed));
                    if let Some(counts) = army.counts() {
                        let n: usize = counts.iter().map(|&c| usize::from(c)).sum();
                        assert_eq!(s.placements().len(), n, "{army:?} {area:?} {seat:?}");
                        assert!(
                            Setup::new(seat, &o, s.placements()).is_ok(),
                            "{army:?} {area:?} {seat:?} seed {seed}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_expert_flag_stands_on_its_two_back_ranks_walled_in_by_bombs() {
    for seat in [Seat::First, Seat::Second] {
        for (seed, s) in setups(Army::Classic, seat, 300).iter().enumerate() {
            let f = flag(s);
            assert!(own_rank(seat, f) < 2, "seed {seed}: Flag on {f:?}");
            for d in doors(seat, f) {
                assert_eq!(at(s, d), Some(Piece::Bomb), "seed {seed}: door {d:?}");
            }
        }
    }
}

#[test]
fn the_expert_flag_follows_where_human_players_put_theirs() {
    // In the Gravon archive's classic setups, 90% of the Flags stand on the back rank and 7%
    // on the next (so 93% of those on the two), more on the files behind the lanes (d, e,
    // g: 42%) than in the corners (a, j: 22%).
    for seat in [Seat::First, Seat::Second] {
        let all = setups(Army::Classic, seat, 2000);
        let back = all.iter().filter(|s| own_rank(seat, flag(s)) == 0).count();
        assert!(
            (1800..=1910).contains(&back),
            "{seat:?}: {back} of 2000 on the back rank"
        );
        let own_file = |s: Square| match seat {
            Seat::First => s.file(),
            Seat::Second => FILES - 1 - s.file(),
        };
        let files = |fs: &[u8]| {
            all.iter()
                .filter(|s| fs.contains(&own_file(flag(s))))
                .count()
        };
        assert!(files(&[3, 4, 6]) > files(&[0, 9]), "{seat:?}");
    }
}

#[test]
fn the_expert_puts_its_marshal_forward_and_its_scouts_in_front() {
    // Humans: the Marshal on the two front ranks in 81% of setups; 2.8 Scouts on the front
    // rank of a setup against 1.4 on the back rank.
    for seat in [Seat::First, Seat::Second] {
        let all = setups(Army::Classic, seat, 1000);
        let forward = all
            .iter()
            .filter(|s| {
                s.placements()
                    .iter()
                    .any(|&(q, p)| p == Piece::Marshal && own_rank(seat, q) >= 2)
            })
            .count();
        assert!(
            forward > 700,
            "{seat:?}: Marshal forward in {forward} of 1000"
        );
        let scouts_on = |rank: u8| -> usize {
            all.iter()
                .flat_map(|s| s.placements())
                .filter(|&&(q, p)| p == Piece::Scout && own_rank(seat, q) == rank)
                .count()
        };
        let (front_scouts, back_scouts) = (scouts_on(3), scouts_on(0));
        assert!(
            2 * front_scouts > 3 * back_scouts,
            "{seat:?}: {front_scouts} against {back_scouts}"
        );
    }
}

#[test]
fn expert_setups_wall_in_a_second_back_rank_square_away_from_the_flag() {
    let seat = Seat::First;
    let all = setups(Army::Classic, seat, 500);
    let decoys = all
        .iter()
        .filter(|s| {
            let f = flag(s);
            (0..FILES).any(|file| {
                let c = Square::new(file, 0).expect("on the board");
                file.abs_diff(f.file()) >= 3
                    && at(s, c) != Some(Piece::Bomb)
                    && doors(seat, c)
                        .iter()
                        .all(|&d| at(s, d) == Some(Piece::Bomb))
            })
        })
        .count();
    assert!(decoys > 400, "{decoys} of 500 with a second wall");
}

#[test]
fn barrage_setups_follow_the_barrage_players() {
    // Barrage players put the Flag on the back rank in 75% of setups, on the next in 13%.
    let all = setups(Army::Barrage, Seat::First, 500);
    let back = all.iter().filter(|s| flag(s).rank() == 0).count();
    assert!(back > 380, "{back} of 500 Barrage Flags on the back rank");
}

#[test]
fn a_single_bomb_walls_a_door_of_the_flag_on_no_fixed_side() {
    // Barrage has one Bomb: it stands beside the Flag, on a door drawn where human players
    // put Bombs, so that it does not tell which side the Flag is on.
    let seat = Seat::First;
    let mut sides = [0u32; 3];
    for s in setups(Army::Barrage, seat, 300) {
        let f = flag(&s);
        let b = s
            .placements()
            .iter()
            .find(|&&(_, p)| p == Piece::Bomb)
            .expect("a Bomb")
            .0;
        assert!(doors(seat, f).contains(&b), "Bomb on {b:?}, Flag on {f:?}");
        let side = match (b.file().cmp(&f.file()), b.rank().cmp(&f.rank())) {
            (std::cmp::Ordering::Less, _) => 0,
            (std::cmp::Ordering::Greater, _) => 1,
            _ => 2,
        };
        sides[side] += 1;
    }
    assert!(
        sides.iter().all(|&n| n >= 20),
        "left, right, in front or behind: {sides:?}"
    );
}
