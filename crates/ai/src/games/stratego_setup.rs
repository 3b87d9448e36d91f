//! The expert's Stratego setups: drawn from how human players set up (the Gravon archive's
//! 33,820 classic and 3,332 Barrage setups, `crates/ai/data/stratego-setup-priors.json`),
//! with the Flag walled in by Bombs and, where Bombs are left for it, a second wall around
//! another back-rank square for the enemy Miners to dig first.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use rand::Rng;
use salpakan_engine::stratego::{Army, Piece, RANKS, Setup, SetupArea, Square, StrategoOptions};
use salpakan_engine::{GameRng, Seat};

const FILES: u8 = salpakan_engine::stratego::FILES;
/// Ranks of a standard setup area.
const SETUP_RANKS: u8 = 4;
/// Squares of a standard setup area.
const AREA: usize = FILES as usize * SETUP_RANKS as usize;

/// For each piece (by [`Piece`] discriminant) and each square of the owner's area in the
/// owner's own view (index `rank * FILES + file`, rank 0 the back rank, file 0 the owner's
/// left), the share of human setups with that piece there.
type Shares = [[f64; AREA]; 12];

/// The human shares for the classic army and for Barrage.
struct Priors {
    classic: Shares,
    barrage: Shares,
}

fn priors() -> &'static Priors {
    static PRIORS: OnceLock<Priors> = OnceLock::new();
    PRIORS.get_or_init(|| {
        #[derive(serde::Deserialize)]
        struct ArmyShares {
            squares: BTreeMap<String, BTreeMap<String, f64>>,
        }
        let text = include_str!("../../data/stratego-setup-priors.json");
        let armies: BTreeMap<String, ArmyShares> =
            serde_json::from_str(text).expect("the bundled setup priors are valid JSON");
        let shares = |name: &str| {
            let mut t = [[0.0; AREA]; 12];
            for (square, pieces) in &armies[name].squares {
                let b = square.as_bytes();
                let file = b[0] - b'a';
                let rank: u8 = square[1..].parse().expect("a rank number");
                for (piece, share) in pieces {
                    let p = Piece::ALL
                        .iter()
                        .position(|q| q.name().eq_ignore_ascii_case(piece))
                        .expect("a known piece name");
                    t[p][usize::from((rank - 1) * FILES + file)] = *share;
                }
            }
            t
        };
        Priors {
            classic: shares("classic"),
            barrage: shares("barrage"),
        }
    })
}

/// The board square of `seat`'s own-view area index.
fn square(seat: Seat, i: usize) -> Square {
    let (file, rank) = (
        (i % usize::from(FILES)) as u8,
        (i / usize::from(FILES)) as u8,
    );
    match seat {
        Seat::First => Square::new(file, rank),
        Seat::Second => Square::new(FILES - 1 - file, RANKS - 1 - rank),
    }
    .expect("on the board")
}

/// The own-view squares next to `i` in the area.
fn doors(i: usize) -> impl Iterator<Item = usize> {
    let (f, r) = (i % usize::from(FILES), i / usize::from(FILES));
    let files = usize::from(FILES);
    [
        (f > 0).then(|| i - 1),
        (f + 1 < files).then(|| i + 1),
        (r > 0).then(|| i - files),
        (r + 1 < usize::from(SETUP_RANKS)).then(|| i + files),
    ]
    .into_iter()
    .flatten()
}

/// Draws a free square by weight (uniformly when no free square has any weight).
fn draw(free: &[bool; AREA], weight: impl Fn(usize) -> f64, rng: &mut GameRng) -> usize {
    let weighted: f64 = (0..AREA).filter(|&i| free[i]).map(&weight).sum();
    let w = |i: usize| match (free[i], weighted > 0.0) {
        (false, _) => 0.0,
        (true, true) => weight(i),
        (true, false) => 1.0,
    };
    let total = if weighted > 0.0 {
        weighted
    } else {
        free.iter().filter(|&&f| f).count() as f64
    };
    let mut r = rng.random::<f64>() * total;
    let mut last = 0;
    for i in (0..AREA).filter(|&i| free[i]) {
        last = i;
        if r < w(i) {
            return i;
        }
        r -= w(i);
    }
    last
}

/// The Flag stands on one of the two back ranks (as 97% of the human Flags do).
const FLAG_RANKS: usize = 2;

/// The expert's setup for `seat`. For an army with counts in the standard area: the Flag
/// drawn where human players put theirs on the two back ranks, a Bomb on each of its doors,
/// a decoy wall of the Bombs left around another back-rank square, then the other pieces,
/// each drawn where human players put it (the remaining Bombs first, then strongest first).
/// Otherwise the engine's sensible setup.
#[must_use]
pub fn setup(seat: Seat, options: &StrategoOptions, rng: &mut GameRng) -> Setup {
    let Some(counts) = options.army.counts() else {
        return Setup::sensible(seat, options, rng);
    };
    if options.setup_area != SetupArea::Standard
        || counts.iter().map(|&c| usize::from(c)).sum::<usize>() > AREA
    {
        return Setup::sensible(seat, options, rng);
    }
    let shares = match options.army {
        Army::Barrage => &priors().barrage,
        _ => &priors().classic,
    };
    let mut free = [true; AREA];
    let mut placements: Vec<(Square, Piece)> = Vec::with_capacity(AREA);
    let mut left = counts;
    let mut put = |i: usize, p: Piece, free: &mut [bool; AREA], left: &mut [u8; 12]| {
        free[i] = false;
        left[p as usize] -= 1;
        placements.push((square(seat, i), p));
    };
    let bomb = Piece::Bomb as usize;
    let mut flag = None;
    while left[Piece::Flag as usize] > 0 {
        let i = draw(
            &free,
            |i| {
                if i < FLAG_RANKS * usize::from(FILES) {
                    shares[Piece::Flag as usize][i]
                } else {
                    0.0
                }
            },
            rng,
        );
        flag.get_or_insert(i);
        put(i, Piece::Flag, &mut free, &mut left);
    }
    if let Some(f) = flag {
        // The wall: a Bomb on each door of the Flag; with too few Bombs for that (Barrage,
        // Duel), on doors drawn where human players put Bombs.
        let mut open = [false; AREA];
        for d in doors(f).filter(|&d| free[d]) {
            open[d] = true;
        }
        while left[bomb] > 0 && open.contains(&true) {
            let d = if usize::from(left[bomb]) >= open.iter().filter(|&&o| o).count() {
                open.iter().position(|&o| o).expect("an open door")
            } else {
                draw(&open, |i| shares[bomb][i], rng)
            };
            open[d] = false;
            put(d, Piece::Bomb, &mut free, &mut left);
        }
        // The decoy: a second wall around a back-rank square at least 3 files away, drawn
        // where human players put their Flags; the square itself is filled later.
        if left[bomb] >= 2 {
            let files = usize::from(FILES);
            let far = |i: usize| {
                if i < files && (i % files).abs_diff(f % files) >= 3 {
                    shares[Piece::Flag as usize][i]
                } else {
                    0.0
                }
            };
            if (0..AREA).any(|i| free[i] && far(i) > 0.0) {
                let c = draw(&free, far, rng);
                free[c] = false;
                for d in doors(c) {
                    if left[bomb] > 0 && free[d] {
                        put(d, Piece::Bomb, &mut free, &mut left);
                    }
                }
                free[c] = true;
            }
        }
    }
    const ORDER: [Piece; 11] = [
        Piece::Bomb,
        Piece::Marshal,
        Piece::General,
        Piece::Spy,
        Piece::Colonel,
        Piece::Major,
        Piece::Miner,
        Piece::Scout,
        Piece::Captain,
        Piece::Lieutenant,
        Piece::Sergeant,
    ];
    for p in ORDER {
        while left[p as usize] > 0 {
            let i = draw(&free, |i| shares[p as usize][i], rng);
            put(i, p, &mut free, &mut left);
        }
    }
    Setup::new(seat, options, &placements).expect("a placement of the army is valid")
}
