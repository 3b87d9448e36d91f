//! The pieces and the arbitration matrix.

use serde::{Serialize, Serializer};
use std::fmt;

use crate::board::PieceTable;

/// A piece of Game of the Generals, strongest officer first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Piece {
    /// General of the Army (5 stars).
    FiveStar = 0,
    /// General (4 stars).
    FourStar,
    /// Lieutenant General (3 stars).
    ThreeStar,
    /// Major General (2 stars).
    TwoStar,
    /// Brigadier General (1 star).
    OneStar,
    /// Colonel.
    Colonel,
    /// Lieutenant Colonel.
    LtColonel,
    /// Major.
    Major,
    /// Captain.
    Captain,
    /// 1st Lieutenant.
    FirstLt,
    /// 2nd Lieutenant.
    SecondLt,
    /// Sergeant.
    Sergeant,
    /// Private.
    Private,
    /// Spy.
    Spy,
    /// Flag.
    Flag,
}

impl Piece {
    /// All fifteen pieces, strongest officer first.
    pub const ALL: [Piece; 15] = [
        Piece::FiveStar,
        Piece::FourStar,
        Piece::ThreeStar,
        Piece::TwoStar,
        Piece::OneStar,
        Piece::Colonel,
        Piece::LtColonel,
        Piece::Major,
        Piece::Captain,
        Piece::FirstLt,
        Piece::SecondLt,
        Piece::Sergeant,
        Piece::Private,
        Piece::Spy,
        Piece::Flag,
    ];

    pub(super) const CODES: [&'static str; 15] = [
        "5G", "4G", "3G", "2G", "1G", "COL", "LTC", "MAJ", "CPT", "1LT", "2LT", "SGT", "PVT",
        "SPY", "FLG",
    ];

    pub(super) const NAMES: [&'static str; 15] = [
        "General of the Army",
        "General",
        "Lieutenant General",
        "Major General",
        "Brigadier General",
        "Colonel",
        "Lieutenant Colonel",
        "Major",
        "Captain",
        "1st Lieutenant",
        "2nd Lieutenant",
        "Sergeant",
        "Private",
        "Spy",
        "Flag",
    ];

    /// The record code (`5G` … `FLG`).
    #[must_use]
    pub const fn code(self) -> &'static str {
        Self::CODES[self as usize]
    }

    /// The full English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The piece with this code (case-insensitive).
    #[must_use]
    pub fn from_code(code: &str) -> Option<Piece> {
        <Piece as PieceTable>::from_code(code)
    }

    pub(super) const fn from_index(i: usize) -> Piece {
        Self::ALL[i]
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

/// Who a challenge eliminates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Duel {
    /// The challenged piece is eliminated; the challenger moves in.
    AttackerWins,
    /// The challenger is eliminated.
    DefenderWins,
    /// Equal ranks: both are eliminated ("split").
    BothEliminated,
}

/// The arbitration matrix of `RULES.md` §1: the result of `attacker` challenging `defender`.
#[must_use]
pub const fn duel(attacker: Piece, defender: Piece) -> Duel {
    DUELS[attacker as usize][defender as usize]
}

pub(super) const DUELS: [[Duel; 15]; 15] = {
    let mut t = [[Duel::BothEliminated; 15]; 15];
    let mut a = 0;
    while a < 15 {
        let mut d = 0;
        while d < 15 {
            let (pa, pd) = (Piece::from_index(a), Piece::from_index(d));
            t[a][d] = duel_rule(pa, pd);
            d += 1;
        }
        a += 1;
    }
    t
};

pub(super) const fn duel_rule(a: Piece, d: Piece) -> Duel {
    use Duel::*;
    let (ai, di) = (a as u8, d as u8);
    // Flag against Flag: the challenger wins.
    if ai == Piece::Flag as u8 && di == Piece::Flag as u8 {
        return AttackerWins;
    }
    if ai == di {
        return BothEliminated;
    }
    // Any piece eliminates the Flag.
    if di == Piece::Flag as u8 {
        return AttackerWins;
    }
    if ai == Piece::Flag as u8 {
        return DefenderWins;
    }
    if ai == Piece::Spy as u8 {
        return if di <= Piece::Sergeant as u8 {
            AttackerWins
        } else {
            DefenderWins
        }; // Private beats Spy
    }
    if di == Piece::Spy as u8 {
        return if ai == Piece::Private as u8 {
            AttackerWins
        } else {
            DefenderWins
        };
    }
    // Officers, the Sergeant and the Private: the higher rank (lower index) wins.
    if ai < di { AttackerWins } else { DefenderWins }
}
