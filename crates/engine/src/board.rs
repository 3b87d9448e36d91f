//! What the rectangular-board games share: squares of an N × M board, the `from-to` move,
//! setups of `square:code` placements (parsing, the area and count checks, the record text,
//! the hidden parts), piece-code tables, the mailbox cell and the observation's square map.
//!
//! Everything here is generic over the board size with const generics, so each game gets
//! code as specialised as its own copy was; the hot move generators stay in the games.

use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::{HiddenPart, PlayError, Seat, SetupError, SquareMap, square};

/// A square of a `FILES` × `RANKS` board, `a1` = 0, `b1` = 1, … rank by rank. Each game
/// names its own: [`crate::generals::Square`], [`crate::stratego::Square`],
/// [`crate::banqi::Square`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square<const FILES: u8, const RANKS: u8>(pub(crate) u8);

impl<const FILES: u8, const RANKS: u8> Square<FILES, RANKS> {
    /// How many squares the board has.
    pub const COUNT: usize = FILES as usize * RANKS as usize;

    /// The square at zero-based `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Self> {
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
    /// The index, `0..FILES * RANKS`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// How many single orthogonal steps apart two squares are (files plus ranks).
    #[must_use]
    pub const fn steps_to(self, other: Self) -> u8 {
        self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())
    }

    /// Every square, `a1` first, then `b1`, … rank by rank.
    pub fn all() -> impl Iterator<Item = Self> {
        (0..Self::COUNT as u8).map(Square)
    }
    /// The square with this index (the caller knows it is on the board).
    pub(crate) const fn at(index: u8) -> Self {
        Square(index)
    }
}

impl<const FILES: u8, const RANKS: u8> fmt::Display for Square<FILES, RANKS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(square::name_str(self.file(), self.rank()))
    }
}

impl<const FILES: u8, const RANKS: u8> FromStr for Square<FILES, RANKS> {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        square::parse(s, FILES, RANKS)
            .and_then(|(f, r)| Square::new(f, r))
            .ok_or_else(|| {
                format!(
                    "{s:?} is not a square of the board ({})",
                    square::range(FILES, RANKS)
                )
            })
    }
}

impl<const FILES: u8, const RANKS: u8> Serialize for Square<FILES, RANKS> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(square::name_str(self.file(), self.rank()))
    }
}

/// A move from one square to another, written `from-to` (e.g. `e3-e4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move<const FILES: u8, const RANKS: u8> {
    /// Where the piece stands.
    pub from: Square<FILES, RANKS>,
    /// Where it goes.
    pub to: Square<FILES, RANKS>,
}

impl<const FILES: u8, const RANKS: u8> Square<FILES, RANKS> {
    /// The square's name (`e3`).
    #[must_use]
    pub fn name(self) -> &'static str {
        square::name_str(self.file(), self.rank())
    }
}

impl<const FILES: u8, const RANKS: u8> Move<FILES, RANKS> {
    /// Appends the move's text (`e3-e4`, as its `Display`) to `out`, without the formatting
    /// machinery (a server writes every legal move of every ply).
    pub fn write_text(self, out: &mut String) {
        out.push_str(self.from.name());
        out.push('-');
        out.push_str(self.to.name());
    }
}

impl<const FILES: u8, const RANKS: u8> fmt::Display for Move<FILES, RANKS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.from.name())?;
        f.write_str("-")?;
        f.write_str(self.to.name())
    }
}

/// The two squares of `from-to` (or `fromxto`), or `None` when `text` has no separator.
/// A square that is not on the board is a [`PlayError::Parse`] naming `text`.
pub(crate) fn parse_from_to<const FILES: u8, const RANKS: u8>(
    text: &str,
) -> Option<Result<(Square<FILES, RANKS>, Square<FILES, RANKS>), PlayError>> {
    let (a, b) = text.trim().split_once(['-', 'x'])?;
    let sq = |x: &str| {
        x.parse::<Square<FILES, RANKS>>()
            .map_err(|e| PlayError::Parse(format!("{text:?}: {e}")))
    };
    Some(sq(a).and_then(|from| Ok((from, sq(b)?))))
}

/// A game's table of piece codes: every piece in its code order, and how they are written
/// in records and setups.
pub(crate) trait PieceTable: Copy + Ord + 'static {
    /// Every piece, in the order of [`PieceTable::CODES`] (the discriminant order).
    const ALL: &'static [Self];
    /// The record codes.
    const CODES: &'static [&'static str];
    /// The index into `ALL` and `CODES`.
    fn index(self) -> usize;
    /// The record code.
    fn code(self) -> &'static str {
        Self::CODES[self.index()]
    }
    /// The piece with this code (case-insensitive).
    fn from_code(code: &str) -> Option<Self> {
        Self::CODES
            .iter()
            .position(|c| c.eq_ignore_ascii_case(code))
            .map(|i| Self::ALL[i])
    }
}

/// A cell of a mailbox: 0 empty, else `1 + piece index + 16 * seat`.
pub(crate) type Cell = u8;

/// The cell of `seat`'s `piece`.
#[inline]
pub(crate) fn cell<P: PieceTable>(seat: Seat, piece: P) -> Cell {
    1 + piece.index() as u8 + ((seat as u8) << 4)
}

/// The piece of an occupied cell.
#[inline]
pub(crate) fn cell_piece<P: PieceTable>(c: Cell) -> P {
    P::ALL[((c - 1) & 15) as usize]
}

/// The owner of an occupied cell.
#[inline]
pub(crate) const fn cell_seat(c: Cell) -> Seat {
    if c & 16 != 0 {
        Seat::Second
    } else {
        Seat::First
    }
}

/// The owner and piece on square `index` of a mailbox, if any.
#[inline]
pub(crate) fn cell_at<P: PieceTable>(cells: &[Cell], index: usize) -> Option<(Seat, P)> {
    let c = cells[index];
    (c != 0).then(|| (cell_seat(c), cell_piece(c)))
}

/// The squares of file `a` of a `FILES` × `RANKS` board, as a bitboard (`a1` = bit 0).
pub(crate) const fn file_a<const FILES: u8, const RANKS: u8>() -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < RANKS as usize {
        m |= 1u128 << (r * FILES as usize);
        r += 1;
    }
    m
}

/// The occupied squares of a mailbox, each with what `view` makes of its owner and piece:
/// the board of an observation.
pub(crate) fn occupied<const FILES: u8, const RANKS: u8, P: PieceTable, V>(
    cells: &[Cell],
    mut view: impl FnMut(Square<FILES, RANKS>, Seat, P) -> V,
) -> SquareMap<Square<FILES, RANKS>, V> {
    Square::all()
        .filter_map(|sq| {
            let (seat, p) = cell_at(cells, sq.index())?;
            Some((sq, view(sq, seat, p)))
        })
        .collect()
}

/// One side's setup: where each piece stands, in square order. Each game builds and checks
/// its own (`generals::Setup::new`, `stratego::Setup::new`): valid by construction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup<const FILES: u8, const RANKS: u8, P> {
    pub(crate) seat: Seat,
    pub(crate) placements: Vec<(Square<FILES, RANKS>, P)>,
}

impl<const FILES: u8, const RANKS: u8, P: Copy + Ord + fmt::Display> Setup<FILES, RANKS, P> {
    /// The setup of `placements`, sorted into square order (already checked by the caller).
    pub(crate) fn sorted(seat: Seat, placements: &[(Square<FILES, RANKS>, P)]) -> Self {
        let mut placements = placements.to_vec();
        placements.sort();
        Setup { seat, placements }
    }

    /// The seat this setup belongs to.
    #[must_use]
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Where each piece stands, in square order.
    #[must_use]
    pub fn placements(&self) -> &[(Square<FILES, RANKS>, P)] {
        &self.placements
    }

    /// The canonical text: `square:code` in square order, space-separated.
    #[must_use]
    pub fn text(&self) -> String {
        self.placements
            .iter()
            .map(|(s, p)| format!("{s}:{p}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// What a game's setups are checked against besides the board: who the seat is in messages,
/// the setup area, the pieces' codes for messages.
pub(crate) struct SetupRules<'a, const FILES: u8, const RANKS: u8> {
    /// The seat's name, e.g. `white`.
    pub who: &'a str,
    /// The squares of the setup area, as a bitboard (`a1` = bit 0).
    pub area: u128,
    /// The setup area in words, e.g. `ranks 1-3`.
    pub area_text: &'a str,
    /// The piece codes, for "expected one of …".
    pub known: &'a str,
    /// A piece code for the examples, e.g. `FLG`.
    pub example: &'a str,
}

impl<const FILES: u8, const RANKS: u8> SetupRules<'_, FILES, RANKS> {
    /// Checks that every square is in the area and holds one piece, and counts the pieces
    /// by [`PieceTable::index`].
    pub fn place<P: PieceTable>(
        &self,
        placements: &[(Square<FILES, RANKS>, P)],
        counts: &mut [u32],
    ) -> Result<(), SetupError> {
        let mut seen = 0u128;
        for &(sq, p) in placements {
            let bit = 1u128 << sq.0;
            if self.area & bit == 0 {
                return Err(SetupError::OutsideArea {
                    seat: self.who.to_string(),
                    square: sq.to_string(),
                    piece: p.code().into(),
                    area: self.area_text.into(),
                });
            }
            if seen & bit != 0 {
                return Err(SetupError::Invalid(format!(
                    "{}: {sq}: two pieces on one square",
                    self.who
                )));
            }
            seen |= bit;
            counts[p.index()] += 1;
        }
        Ok(())
    }

    /// Checks that `counts` (by [`PieceTable::index`]) are exactly `want`.
    pub fn check_counts<P: PieceTable>(
        &self,
        counts: &[u32],
        want: &[u8],
    ) -> Result<(), SetupError> {
        for &p in P::ALL {
            let (w, got) = (u32::from(want[p.index()]), counts[p.index()]);
            if w != got {
                return Err(SetupError::WrongCount {
                    seat: self.who.to_string(),
                    piece: p.code().into(),
                    expected: w,
                    found: got,
                });
            }
        }
        Ok(())
    }

    /// One `square:code` placement.
    pub fn placement<P: PieceTable>(
        &self,
        sq: &str,
        code: &str,
    ) -> Result<(Square<FILES, RANKS>, P), SetupError> {
        let s: Square<FILES, RANKS> = sq.parse().map_err(|_| SetupError::BadSquare {
            seat: self.who.to_string(),
            text: sq.into(),
            board: square::range(FILES, RANKS),
        })?;
        let p = P::from_code(code).ok_or_else(|| SetupError::UnknownPiece {
            seat: self.who.to_string(),
            square: sq.into(),
            code: code.into(),
            known: self.known.into(),
        })?;
        Ok((s, p))
    }

    /// The placements of a setup's text: `square:code` items (or `square=code`) separated
    /// by spaces or commas.
    pub fn parse_text<P: PieceTable>(
        &self,
        text: &str,
    ) -> Result<Vec<(Square<FILES, RANKS>, P)>, SetupError> {
        let mut placements = Vec::new();
        for item in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let (sq, code) = item.split_once([':', '=']).ok_or_else(|| {
                SetupError::Invalid(format!(
                    "{item:?} must be written square:piece, e.g. a1:{}",
                    self.example
                ))
            })?;
            placements.push(self.placement(sq, code)?);
        }
        Ok(placements)
    }

    /// The object of a JSON setup, `{"a1":"FLG",...}`.
    pub fn json_object<'v>(
        &self,
        value: &'v serde_json::Value,
    ) -> Result<&'v serde_json::Map<String, serde_json::Value>, SetupError> {
        value.as_object().ok_or_else(|| {
            SetupError::Invalid(format!(
                "{}: a setup is an object of square to piece, e.g. {{\"a1\":\"{}\"}}",
                self.who, self.example
            ))
        })
    }
}

/// The squares of ranks `from..to` (zero-based, `to` excluded) of a `FILES` × `RANKS` board,
/// as a bitboard.
pub(crate) const fn ranks_mask<const FILES: u8, const RANKS: u8>(from: u8, to: u8) -> u128 {
    let low = from as u32 * FILES as u32;
    let high = to as u32 * FILES as u32;
    let below_high = if high >= 128 {
        u128::MAX
    } else {
        (1u128 << high) - 1
    };
    below_high & !((1u128 << low) - 1)
}

/// The hidden parts of both setups: part `names[i]` is seat `i`'s setup text.
pub(crate) fn setup_parts<const FILES: u8, const RANKS: u8, P: Copy + Ord + fmt::Display>(
    setups: &[Setup<FILES, RANKS, P>; 2],
    names: &'static [&'static str; 2],
) -> Vec<HiddenPart> {
    setups
        .iter()
        .enumerate()
        .map(|(i, s)| HiddenPart {
            name: names[i],
            owner: Some(Seat::from_index(i)),
            text: s.text(),
        })
        .collect()
}

/// Both setups from the hidden parts `names`, each read by `parse`.
pub(crate) fn setups_from_parts<T>(
    parts: &BTreeMap<String, String>,
    names: &[&str; 2],
    parse: impl Fn(Seat, &str) -> Result<T, SetupError>,
) -> Result<[T; 2], SetupError> {
    let get = |i: usize| {
        let text = parts
            .get(names[i])
            .ok_or_else(|| SetupError::Invalid(format!("the {} is missing", names[i])))?;
        parse(Seat::from_index(i), text)
    };
    Ok([get(0)?, get(1)?])
}
