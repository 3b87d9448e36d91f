//! The arbiter's state: the mailbox, bitboards, Zobrist keys and the repetition
//! bookkeeping.

use crate::{Outcome, Seat};

use super::*;

pub(super) static ZOBRIST: [[u64; 32]; SQUARES] = {
    let mut t = [[0u64; 32]; SQUARES];
    let mut x: u64 = 0x5a17_a4a2_57a7_e90d;
    let mut s = 0;
    while s < SQUARES {
        let mut c = 0;
        while c < 32 {
            // splitmix64
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            t[s][c] = z ^ (z >> 31);
            c += 1;
        }
        s += 1;
    }
    t
};

pub(super) const ADJACENT: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let b = 1u128 << s;
        t[s] = ((b << 10) | (b >> 10) | ((b & !FILE_J) << 1) | ((b & !FILE_A) >> 1)) & LAND;
        s += 1;
    }
    t
};

pub(super) const DELTAS: [i8; 4] = [10, -10, 1, -1];

#[inline]
pub(super) fn shift(b: u128, dir: usize) -> u128 {
    match dir {
        0 => (b << 10) & BOARD,
        1 => b >> 10,
        2 => (b & !FILE_J) << 1,
        _ => (b & !FILE_A) >> 1,
    }
}

/// The squares a straight move covers, both ends included.
pub(super) fn segment(from: u8, to: u8) -> u128 {
    let (a, b) = (from.min(to), from.max(to));
    let step = if a / FILES == b / FILES { 1 } else { FILES };
    let mut m = 0u128;
    let mut s = a;
    while s <= b {
        m |= 1u128 << s;
        s += step;
    }
    m
}

/// Each side's two-squares bookkeeping: the squares covered by its last moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct TwoSquares {
    /// Squares covered by the side's last moves, newest first.
    pub(super) covered: [u128; MAX_TWO_SQUARE_LIMIT as usize],
    /// How many of the side's last moves in a row were made by the same piece (capped).
    pub(super) run: u8,
    /// Where that piece stands now, or `NO_SQUARE` if it left the board.
    pub(super) at: u8,
    /// The side's last move, for the chase rule's exception.
    pub(super) last: (u8, u8),
    /// The squares every one of the last `limit` moves covered, when the run is long enough
    /// (0 otherwise): the piece on `at` may not cover two of them again.
    pub(super) forbidden: u128,
}

impl TwoSquares {
    pub(super) const fn new() -> Self {
        TwoSquares {
            covered: [0; MAX_TWO_SQUARE_LIMIT as usize],
            run: 0,
            at: NO_SQUARE,
            last: (NO_SQUARE, NO_SQUARE),
            forbidden: 0,
        }
    }
}

/// The continuous chase in progress, if any.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Chase {
    /// The chasing side; `None` when no chase is on.
    pub(super) chaser: Option<Seat>,
    /// Where the chased piece stands.
    pub(super) chased: u8,
    /// Board hashes of every position since the chase began (the position before the first
    /// threat included).
    pub(super) positions: Vec<u64>,
}

/// A Stratego game: the arbiter's full state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stratego {
    pub(super) options: StrategoOptions,
    pub(super) cells: [Cell; SQUARES],
    pub(super) occ: [u128; 2],
    pub(super) movable: [u128; 2],
    pub(super) scouts: [u128; 2],
    /// Squares whose piece's rank is public (shown in an attack, or a Scout's long move).
    pub(super) known: u128,
    /// Squares whose piece has moved (public: it is no Bomb or Flag).
    pub(super) moved: u128,
    pub(super) turn: Seat,
    pub(super) ply: u32,
    pub(super) quiet: u32,
    pub(super) outcome: Option<Outcome>,
    /// Pieces removed per seat, by piece (all public: every attack is shown).
    pub(super) lost: [[u8; 12]; 2],
    /// Zobrist hash of the board (pieces with ranks and owners).
    pub(super) hash: u64,
    /// The hash before the last ply.
    pub(super) hash_before: u64,
    /// The pieces of the side to move that the last ply threatened (moved next to).
    pub(super) threatened: u128,
    pub(super) two: [TwoSquares; 2],
    pub(super) chase: Chase,
    /// Squares whose piece has made a rescue (it may not make another).
    pub(super) rescuers: u128,
    /// Rescues made per seat.
    pub(super) rescued: [u8; 2],
}
