//! Squares and moves.

use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

use crate::{PlayError, square};

use super::*;

/// A square of the 10 × 10 board, `a1` = 0, `b1` = 1, … `j10` = 99.
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
    /// The index 0..100.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Whether this square is one of the lakes.
    #[must_use]
    pub const fn is_lake(self) -> bool {
        LAKES & (1u128 << self.0) != 0
    }
    /// Every square, `a1` first (lakes included).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
    pub(super) const fn bit(self) -> u128 {
        1u128 << self.0
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
            .ok_or_else(|| format!("{s:?} is not a square of the board (a1..j10)"))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(crate::game::square::name_str(self.file(), self.rank()))
    }
}

/// A move: one piece from one square to another in a straight line (several squares only
/// for a Scout; two, possibly turning once, for a Captain under `captain_steps=2`), with a
/// rescue when the piece reaches the enemy's back rank under `rescues` (Ultimate
/// Lightning). Written `a4-a7`, or `a9-a10+7@j4` with a rescue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes (empty, or an enemy piece to attack).
    pub to: Square,
    /// The rescue to make if the piece stands on the enemy's back rank after the move.
    pub rescue: Option<Rescue>,
}

impl Move {
    /// A move without a rescue.
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            rescue: None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)?;
        if let Some(r) = self.rescue {
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

impl FromStr for Move {
    type Err = PlayError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (s, rescue) = match s.trim().split_once('+') {
            Some((m, r)) => (m, Some(r.parse::<Rescue>()?)),
            None => (s, None),
        };
        let bad = || PlayError::Parse(format!("{s:?} is not a move; write from-to, e.g. a4-a5"));
        let (a, b) = s.trim().split_once(['-', 'x']).ok_or_else(bad)?;
        let from = a
            .parse()
            .map_err(|e: String| PlayError::Parse(format!("{s:?}: {e}")))?;
        let to = b
            .parse()
            .map_err(|e: String| PlayError::Parse(format!("{s:?}: {e}")))?;
        Ok(Move { from, to, rescue })
    }
}
