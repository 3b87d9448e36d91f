//! Board geometry, Zobrist keys and which kind takes which.

use super::*;

pub(super) const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub(super) const Z_PIECE: [[u64; SQUARES]; 14] = {
    let mut t = [[0u64; SQUARES]; 14];
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < SQUARES {
            t[p][s] = splitmix((p * SQUARES + s) as u64 * 7 + 1);
            s += 1;
        }
        p += 1;
    }
    t
};
pub(super) const Z_SIDE: u64 = splitmix(0xB4_9C11);
pub(super) const Z_CHAIN: [u64; SQUARES] = {
    let mut t = [0u64; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        t[s] = splitmix(0xC4A1_0000 + s as u64);
        s += 1;
    }
    t
};

/// Shifts of a bitboard one square north, south, east, west.
#[inline]
pub(super) const fn shift(b: u32, dir: usize) -> u32 {
    match dir {
        0 => b << 4,
        1 => b >> 4,
        2 => (b & !FILE_D) << 1,
        _ => (b & !FILE_A) >> 1,
    }
}
pub(super) const DELTAS: [i8; 4] = [4, -4, 1, -1];

pub(super) const fn adjacent(sq: u8) -> u32 {
    let b = 1u32 << sq;
    shift(b, 0) | shift(b, 1) | shift(b, 2) | shift(b, 3)
}

/// The squares from `sq` in direction `dir`, as a bitboard.
pub(super) const RAY_MASKS: [[u32; 4]; SQUARES] = {
    let mut t = [[0u32; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 4 {
            let mut cur = 1u32 << s;
            loop {
                cur = shift(cur, d);
                if cur == 0 {
                    break;
                }
                t[s][d] |= cur;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

impl BanqiOptions {
    /// Whether a piece of kind `attacker` captures one of kind `victim` by a one-square move
    /// under these options (the ruleset's ranking, the General/Soldier exceptions and
    /// `cannon_direct`; Taiwan Cannons otherwise capture only by jumping).
    #[must_use]
    pub fn takes_by_step(&self, attacker: Kind, victim: Kind) -> bool {
        takes(self, attacker, victim)
    }
}

/// Victim kinds (bit per [`Kind`]) each attacker kind captures by a one-square move.
pub(super) fn adjacent_captures(o: &BanqiOptions) -> [u8; 7] {
    let mut t = [0u8; 7];
    for a in Kind::ALL {
        for v in Kind::ALL {
            if takes(o, a, v) {
                t[a as usize] |= 1 << v as u8;
            }
        }
    }
    t
}

/// Whether `a` takes `v` by a step under the options (one pair of the table above; cheap
/// enough for an evaluation to ask per pair).
fn takes(o: &BanqiOptions, a: Kind, v: Kind) -> bool {
    // Order of strength per ruleset, strongest first (index into Kind).
    let rank = |k: Kind| match o.ruleset {
        Ruleset::Taiwan | Ruleset::Mainland => k as usize,
        Ruleset::HongKong => match k {
            Kind::General => 0,
            Kind::Chariot => 1,
            Kind::Horse => 2,
            Kind::Cannon => 3,
            Kind::Advisor => 4,
            Kind::Elephant => 5,
            Kind::Soldier => 6,
        },
    };
    let mut ok = rank(a) <= rank(v);
    if a == Kind::General && v == Kind::Soldier {
        ok = o.ruleset == Ruleset::Mainland;
    }
    if a == Kind::Soldier && v == Kind::General {
        ok = true;
    }
    if a == Kind::Cannon && o.ruleset == Ruleset::Taiwan {
        ok = false;
    }
    if a == Kind::Cannon && o.cannon_direct && matches!(v, Kind::Soldier | Kind::Cannon) {
        ok = true;
    }
    ok
}
