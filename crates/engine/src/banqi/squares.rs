//! Squares and actions.

use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

use crate::{PlayError, square};

use super::*;

/// A square of the 4 × 8 board, `a1` = 0, `b1` = 1, … `d8` = 31.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub(super) u8);

impl Square {
    /// The square at zero-based `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }
    /// Zero-based file (0 = a).
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }
    /// Zero-based rank (0 = rank 1).
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }
    /// The index 0..32.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Every square, `a1` first, then `b1`, … `d8`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
    pub(super) const fn bit(self) -> u32 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(crate::game::square::name_str(self.file(), self.rank()))
    }
}

impl FromStr for Square {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        square::parse(s, FILES, RANKS)
            .and_then(|(f, r)| Square::new(f, r))
            .ok_or_else(|| format!("{s:?} is not a square of the board (a1..d8)"))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(crate::game::square::name_str(self.file(), self.rank()))
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
        match t.split_once(['-', 'x']) {
            Some((a, b)) => Ok(Move::Step {
                from: sq(a)?,
                to: sq(b)?,
            }),
            None if t.len() >= 2 && t.len() <= 3 => Ok(Move::Flip(sq(t)?)),
            None => Err(PlayError::Parse(format!(
                "{s:?} is not a Banqi action; write a square to flip (c3), from-to to move or \
                 capture (a8-b8), or end to end a capture chain"
            ))),
        }
    }
}
