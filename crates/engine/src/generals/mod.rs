//! Game of the Generals (Salpakan), exactly as `RULES.md` §1.
//!
//! A 9 × 8 board (`a1`..`i8`); White sets up on ranks 1–3 and Black on ranks 6–8. Every
//! piece moves one square orthogonally; moving onto an enemy piece is a challenge that the
//! arbiter decides in secret and of which the players learn only which piece(s) left the
//! board (option `reveal`).
//!
//! The board is kept as a mailbox plus one 72-bit occupancy bitboard per side, so that legal
//! move generation is a few shifts and a random playout ply costs a few nanoseconds.

/// Files on the board (a–i).
pub const FILES: u8 = 9;
/// Ranks on the board (1–8).
pub const RANKS: u8 = 8;
const SQUARES: usize = (FILES as usize) * (RANKS as usize);
const BOARD: u128 = (1u128 << SQUARES) - 1;
const FILE_A: u128 = board::file_a::<FILES, RANKS>();
const FILE_I: u128 = FILE_A << (FILES - 1);

use crate::board::{self, Cell, cell, cell_piece};

mod game;
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
