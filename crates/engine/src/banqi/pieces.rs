//! Kinds, colours and pieces.

use serde::{Serialize, Serializer};
use std::fmt;

/// A kind of Banqi piece (a xiangqi piece), in the Taiwan ranking, strongest first, with the
/// Cannon before the Soldier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// General (King): `K`. One per colour.
    General = 0,
    /// Advisor (Guard): `G`. Two per colour.
    Advisor,
    /// Elephant (Minister): `M`. Two per colour.
    Elephant,
    /// Chariot (Rook): `R`. Two per colour.
    Chariot,
    /// Horse (Knight): `N`. Two per colour.
    Horse,
    /// Cannon: `C`. Two per colour.
    Cannon,
    /// Soldier (Pawn): `P`. Five per colour.
    Soldier,
}

impl Kind {
    /// Every kind, in code order `K G M R N C P`.
    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Chariot,
        Kind::Horse,
        Kind::Cannon,
        Kind::Soldier,
    ];
    pub(super) const CODES: [u8; 7] = *b"KGMRNCP";
    pub(super) const NAMES: [&'static str; 7] = [
        "General", "Advisor", "Elephant", "Chariot", "Horse", "Cannon", "Soldier",
    ];
    pub(super) const COUNTS: [u8; 7] = [1, 2, 2, 2, 2, 2, 5];

    /// The upper-case code letter.
    #[must_use]
    pub const fn code(self) -> char {
        Self::CODES[self as usize] as char
    }
    /// The English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    /// How many of this kind each colour has.
    #[must_use]
    pub const fn count(self) -> u8 {
        Self::COUNTS[self as usize]
    }
}

/// A colour: the first flip decides which seat plays which.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Red: upper-case codes.
    Red = 0,
    /// Black: lower-case codes.
    Black = 1,
}

impl Color {
    /// `red` or `black`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
    pub(super) const fn from_index(i: usize) -> Color {
        if i == 0 { Color::Red } else { Color::Black }
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A piece: a colour and a kind. Written as one letter, upper case red (`K`), lower case
/// black (`k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its colour.
    pub color: Color,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// All fourteen pieces: red `K G M R N C P`, then black `k g m r n c p`.
    pub const ALL: [Piece; 14] = {
        let mut a = [Piece {
            color: Color::Red,
            kind: Kind::General,
        }; 14];
        let mut i = 0;
        while i < 14 {
            a[i] = Piece {
                color: Color::from_index(i / 7),
                kind: Kind::ALL[i % 7],
            };
            i += 1;
        }
        a
    };

    /// A piece of `color` and `kind`.
    #[must_use]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..14: red kinds, then black kinds.
    #[must_use]
    pub const fn index(self) -> usize {
        self.color as usize * 7 + self.kind as usize
    }

    /// The code letter: upper case red, lower case black.
    #[must_use]
    pub const fn code(self) -> char {
        let c = self.kind.code();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece with this code letter (case decides the colour).
    #[must_use]
    pub fn from_code(code: char) -> Option<Piece> {
        let k = Kind::CODES
            .iter()
            .position(|&c| c == code.to_ascii_uppercase() as u8)?;
        let color = if code.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, Kind::ALL[k]))
    }

    /// The piece written as this one-letter text.
    #[must_use]
    pub fn from_code_str(text: &str) -> Option<Piece> {
        let mut ch = text.chars();
        match (ch.next(), ch.next()) {
            (Some(c), None) => Piece::from_code(c),
            _ => None,
        }
    }

    pub(super) const fn from_index(i: usize) -> Piece {
        Piece::ALL[i]
    }

    /// How many of this piece a full set has.
    #[must_use]
    pub const fn count(self) -> u8 {
        self.kind.count()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

pub(super) const CODES_TEXT: &str = "K G M R N C P (red) or k g m r n c p (black)";
