//! Squares (the shared [`board`] square on the 4 × 8 board) and actions.

use std::fmt;
use std::str::FromStr;

use crate::{PlayError, board};

use super::*;

/// A square of the 4 × 8 board, `a1` = 0, `b1` = 1, … `d8` = 31.
pub type Square = board::Square<FILES, RANKS>;

impl Square {
    pub(super) const fn bit(self) -> u32 {
        1 << self.0
    }
}

/// An action.
///
/// Written `c3` (flip), `a8-b8` (move, capture, or with `capture_face_down` an attempt on a
/// face-down piece) and `end` (end a capture chain early, with `chain_captures`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Turn up the face-down piece on this square.
    Flip(Square),
    /// Move one of one's own face-up pieces: one square to an empty square, or a capture
    /// (one square, or a Cannon's jump over one screen).
    Step {
        /// Where the piece stands.
        from: Square,
        /// Where it goes.
        to: Square,
    },
    /// End a capture chain (only with `chain_captures`, while a chain may go on).
    EndChain,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Flip(s) => write!(f, "{s}"),
            Move::Step { from, to } => write!(f, "{from}-{to}"),
            Move::EndChain => f.write_str("end"),
        }
    }
}

impl FromStr for Move {
    type Err = PlayError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("end") {
            return Ok(Move::EndChain);
        }
        let sq = |x: &str| {
            x.parse::<Square>()
                .map_err(|e| PlayError::Parse(format!("{s:?}: {e}")))
        };
        match board::parse_from_to(s) {
            Some(squares) => {
                let (from, to) = squares?;
                Ok(Move::Step { from, to })
            }
            None if t.len() >= 2 && t.len() <= 3 => Ok(Move::Flip(sq(t)?)),
            None => Err(PlayError::Parse(format!(
                "{s:?} is not a Banqi action; write a square to flip (c3), from-to to move or \
                 capture (a8-b8), or end to end a capture chain"
            ))),
        }
    }
}
