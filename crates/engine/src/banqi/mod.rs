//! Banqi (Dark Chess, Half Chess), exactly as `RULES.md` §3; see `docs/rules-banqi.md`.
//!
//! A 4 × 8 board written as files `a`–`d` and ranks `1`–`8` (the computer Dark Chess
//! convention). The 32 pieces are dealt face down by a seeded shuffle; nobody knows a
//! face-down piece: the deal is a hidden part owned by no seat, committed at the start and
//! revealed in the full record after the game. The first flip decides the colours: the
//! first mover plays the colour of the piece it turned up.
//!
//! Actions, as written in records: a flip is the bare square (`c3`, recorded `c3{K}` with
//! the piece it revealed); a move or capture is `a8-b8` (with `capture_face_down`, an
//! attempt on a face-down piece is recorded with the piece it turned up: `a8-b8{p}`); with
//! `chain_captures` every capture of a chain is its own ply by the same side, and `end`
//! ends a chain early.
//!
//! Every ply is public: all viewers see the same views. Only the face-down pieces are
//! secret, and they never appear in a player's or spectator's output.
//!
//! The state is a mailbox plus `u32` bitboards (one per colour and kind, the face-down set
//! and the occupancy), so that a random playout ply costs a few tens of nanoseconds. A
//! Zobrist hash is kept incrementally only when `repetition` or `chase_rule` is on.

/// Files on the board (a–d).
pub const FILES: u8 = 4;
/// Ranks on the board (1–8).
pub const RANKS: u8 = 8;
const SQUARES: usize = 32;
const FILE_A: u32 = 0x1111_1111;
const FILE_D: u32 = 0x8888_8888;

mod apply;
mod deal;
mod game;
mod geometry;
mod movegen;
mod options;
mod pieces;
mod position;
mod squares;
mod state;

use apply::*;
pub use deal::*;
use geometry::*;
pub use options::*;
pub use pieces::*;
pub use squares::*;
pub use state::*;
