//! Squares (the shared [`board`] square on the 10 × 10 board) and moves.

use std::fmt;
use std::str::FromStr;

use crate::{PlayError, board};

use super::*;

/// A square of the 10 × 10 board, `a1` = 0, `b1` = 1, … `j10` = 99 ([`Square::all`]
/// includes the lakes).
pub type Square = board::Square<FILES, RANKS>;

impl Square {
    /// Whether this square is one of the lakes.
    #[must_use]
    pub const fn is_lake(self) -> bool {
        LAKES & (1u128 << self.0) != 0
    }
    pub(super) const fn bit(self) -> u128 {
        1u128 << self.0
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
        let (from, to) = board::parse_from_to(s).ok_or_else(bad)??;
        Ok(Move { from, to, rescue })
    }
}
