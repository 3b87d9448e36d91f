//! Squares and moves: the shared [`board`] types on the 9 × 8 board.

use std::str::FromStr;

use crate::{PlayError, board};

use super::*;

/// A square of the 9 × 8 board, `a1` = 0, `b1` = 1, … `i8` = 71.
pub type Square = board::Square<FILES, RANKS>;

/// A move: one piece from one square to an orthogonally adjacent one. Written `e3-e4`.
pub type Move = board::Move<FILES, RANKS>;

impl FromStr for Move {
    type Err = PlayError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || PlayError::Parse(format!("{s:?} is not a move; write from-to, e.g. e3-e4"));
        let (from, to) = board::parse_from_to(s).ok_or_else(bad)??;
        Ok(Move { from, to })
    }
}
