//! The pieces and who wins an attack.

use serde::{Serialize, Serializer};
use std::fmt;

use crate::board::PieceTable;

/// A Stratego piece. The discriminant is the rank (Flag 0, Spy 1, Scout 2 … Marshal 10),
/// with the Bomb last (11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Piece {
    /// The Flag: immobile; capturing it wins.
    Flag = 0,
    /// The Spy (1): wins when it attacks the Marshal.
    Spy,
    /// The Scout (2): moves any distance in a straight line.
    Scout,
    /// The Miner (3): defuses Bombs.
    Miner,
    /// The Sergeant (4).
    Sergeant,
    /// The Lieutenant (5).
    Lieutenant,
    /// The Captain (6).
    Captain,
    /// The Major (7).
    Major,
    /// The Colonel (8).
    Colonel,
    /// The General (9).
    General,
    /// The Marshal (10).
    Marshal,
    /// The Bomb: immobile; removes any attacker but a Miner.
    Bomb,
}

impl Piece {
    /// All twelve pieces, by rank (Flag, Spy, Scout … Marshal, Bomb).
    pub const ALL: [Piece; 12] = [
        Piece::Flag,
        Piece::Spy,
        Piece::Scout,
        Piece::Miner,
        Piece::Sergeant,
        Piece::Lieutenant,
        Piece::Captain,
        Piece::Major,
        Piece::Colonel,
        Piece::General,
        Piece::Marshal,
        Piece::Bomb,
    ];

    pub(super) const CODES: [&'static str; 12] =
        ["F", "S", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B"];

    pub(super) const NAMES: [&'static str; 12] = [
        "Flag",
        "Spy",
        "Scout",
        "Miner",
        "Sergeant",
        "Lieutenant",
        "Captain",
        "Major",
        "Colonel",
        "General",
        "Marshal",
        "Bomb",
    ];

    /// The record code: `F B S 2 3 4 5 6 7 8 9 10`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        Self::CODES[self as usize]
    }

    /// The English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The piece with this code (case-insensitive).
    #[must_use]
    pub fn from_code(code: &str) -> Option<Piece> {
        <Piece as PieceTable>::from_code(code)
    }

    /// Whether the piece can ever move (everything but the Bomb and the Flag).
    #[must_use]
    pub const fn is_movable(self) -> bool {
        !matches!(self, Piece::Bomb | Piece::Flag)
    }
}

impl PieceTable for Piece {
    const ALL: &'static [Piece] = &Piece::ALL;
    const CODES: &'static [&'static str] = &Piece::CODES;
    #[inline]
    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// Who an attack removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Duel {
    /// The defender is removed; the attacker moves in.
    AttackerWins,
    /// The attacker is removed; the defender stays.
    DefenderWins,
    /// Equal ranks: both are removed.
    BothRemoved,
}

/// The result of `attacker` attacking `defender` (`RULES.md` §2): the higher rank wins,
/// equal ranks remove both; the Spy attacking the Marshal wins; a Miner attacking a Bomb
/// removes it, any other attacker of a Bomb is removed; any attacker takes the Flag.
#[must_use]
pub const fn duel(attacker: Piece, defender: Piece) -> Duel {
    let (a, d) = (attacker as u8, defender as u8);
    if d == Piece::Flag as u8 {
        return Duel::AttackerWins;
    }
    if d == Piece::Bomb as u8 {
        return if a == Piece::Miner as u8 {
            Duel::AttackerWins
        } else if a == Piece::Bomb as u8 {
            Duel::BothRemoved
        } else {
            Duel::DefenderWins
        };
    }
    if a == Piece::Spy as u8 && d == Piece::Marshal as u8 {
        return Duel::AttackerWins;
    }
    if a == d {
        Duel::BothRemoved
    } else if a > d {
        Duel::AttackerWins
    } else {
        Duel::DefenderWins
    }
}
