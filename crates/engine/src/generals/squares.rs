//! Squares and moves.

use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

use crate::{PlayError, square};

use super::*;

/// A square of the 9 × 8 board, `a1` = 0, `b1` = 1, … `i8` = 71.
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
    /// The index 0..72.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Every square, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
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
            .ok_or_else(|| format!("{s:?} is not a square of the board (a1..i8)"))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(crate::game::square::name_str(self.file(), self.rank()))
    }
}

/// A move: one piece from one square to an orthogonally adjacent one. Written `e3-e4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes (empty, or an enemy piece to challenge).
    pub to: Square,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = PlayError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || PlayError::Parse(format!("{s:?} is not a move; write from-to, e.g. e3-e4"));
        let (a, b) = s.trim().split_once(['-', 'x']).ok_or_else(bad)?;
        let from = a
            .parse()
            .map_err(|e: String| PlayError::Parse(format!("{s:?}: {e}")))?;
        let to = b
            .parse()
            .map_err(|e: String| PlayError::Parse(format!("{s:?}: {e}")))?;
        Ok(Move { from, to })
    }
}
