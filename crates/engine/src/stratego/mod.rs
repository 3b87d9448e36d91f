//! Stratego, exactly as `RULES.md` §2 (see `docs/rules-stratego.md`).
//!
//! A 10 × 10 board (`a1`..`j10`) with two lakes (c5 d5 c6 d6, g5 h5 g6 h6). Red sets up on
//! ranks 1–4 and moves first; Blue sets up on ranks 7–10. Every attack reveals both pieces
//! to both players, and they stay known afterwards.
//!
//! The board is a mailbox plus `u128` bitboards per side (occupied, movable, Scouts), so move
//! generation is a few shifts (Scout slides are generated for all Scouts at once, one
//! distance at a time). The two repetition rules are kept incrementally: the two-squares
//! rule as the intersection of the squares covered by each side's last moves, the
//! more-squares (chase) rule as the Zobrist hashes of the positions of the current chase.

mod ul;
use ul::covered;
pub use ul::{Defuser, MAX_RESCUES, Rescue};

/// Files on the board (a–j).
pub const FILES: u8 = 10;
/// Ranks on the board (1–10).
pub const RANKS: u8 = 10;
const SQUARES: usize = (FILES as usize) * (RANKS as usize);
const BOARD: u128 = (1u128 << SQUARES) - 1;
const FILE_A: u128 = board::file_a::<FILES, RANKS>();
const FILE_J: u128 = FILE_A << (FILES - 1);
/// The eight lake squares, as a bitboard (`a1` = bit 0, `b1` = bit 1, … `j10` = bit 99).
pub const LAKES: u128 =
    (1 << 42) | (1 << 43) | (1 << 46) | (1 << 47) | (1 << 52) | (1 << 53) | (1 << 56) | (1 << 57);
const LAND: u128 = BOARD & !LAKES;
const NO_SQUARE: u8 = u8::MAX;
/// The longest two-squares limit accepted (the rule keeps this many moves per side).
pub const MAX_TWO_SQUARE_LIMIT: u32 = 16;

use crate::board::{self, Cell, cell, cell_piece, cell_seat};

mod apply;
mod game;
mod movegen;
mod options;
mod pieces;
mod setup;
mod squares;
mod state;
mod view;

pub use options::*;
pub use pieces::*;
pub use setup::*;
pub use squares::*;
pub use state::*;
pub use view::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Seat;

    #[test]
    fn lakes_and_areas() {
        for s in ["c5", "d5", "c6", "d6", "g5", "h5", "g6", "h6"] {
            assert!(s.parse::<Square>().unwrap().is_lake(), "{s}");
        }
        assert_eq!(LAKES.count_ones(), 8);
        assert_eq!(SetupArea::Standard.mask(Seat::First).count_ones(), 40);
        assert_eq!(SetupArea::Standard.mask(Seat::Second).count_ones(), 40);
        assert_eq!(SetupArea::Half.mask(Seat::Second).count_ones(), 46);
        assert_eq!(segment(0, 30).count_ones(), 4);
        assert_eq!(segment(33, 30).count_ones(), 4);
    }

    #[test]
    fn duel_table() {
        use Piece::*;
        assert_eq!(duel(Spy, Marshal), Duel::AttackerWins);
        assert_eq!(duel(Marshal, Spy), Duel::AttackerWins);
        assert_eq!(duel(Miner, Bomb), Duel::AttackerWins);
        assert_eq!(duel(Marshal, Bomb), Duel::DefenderWins);
        assert_eq!(duel(Scout, Flag), Duel::AttackerWins);
        assert_eq!(duel(Major, Major), Duel::BothRemoved);
        assert_eq!(duel(Scout, Miner), Duel::DefenderWins);
    }
}
