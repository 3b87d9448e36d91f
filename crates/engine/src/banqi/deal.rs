//! The deal: the hidden order of the face-down pieces.

use rand::seq::SliceRandom;

use crate::{GameRng, SetupError, square};

use super::*;

/// The deal: which piece lies face down on each of the 32 squares. Valid by construction:
/// exactly the 32 pieces of two xiangqi sets.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal(pub(super) [Piece; SQUARES]);

pub(super) const PART_NAMES: [&str; 1] = ["Deal"];

impl Deal {
    /// Validates a deal given square by square (`a1`, `b1`, … `d8`).
    ///
    /// # Errors
    /// [`SetupError::WrongCount`] if the pieces are not exactly two xiangqi sets.
    pub fn new(pieces: [Piece; SQUARES]) -> Result<Deal, SetupError> {
        let mut counts = [0u32; 14];
        for p in pieces {
            counts[p.index()] += 1;
        }
        for p in Piece::ALL {
            let (want, got) = (u32::from(p.count()), counts[p.index()]);
            if want != got {
                return Err(SetupError::WrongCount {
                    seat: "deal".into(),
                    piece: p.code().to_string(),
                    expected: want,
                    found: got,
                });
            }
        }
        Ok(Deal(pieces))
    }

    /// A deal shuffled uniformly from `rng`.
    pub fn random(rng: &mut GameRng) -> Deal {
        let mut pieces = Self::sorted_pieces();
        pieces.shuffle(rng);
        Deal(pieces)
    }

    /// The 32 pieces in code order (`K G G M M … p p p p p`).
    #[must_use]
    pub fn sorted_pieces() -> [Piece; SQUARES] {
        let mut out = [Piece::ALL[0]; SQUARES];
        let mut i = 0;
        for p in Piece::ALL {
            for _ in 0..p.count() {
                out[i] = p;
                i += 1;
            }
        }
        out
    }

    /// The piece dealt on `sq`.
    #[must_use]
    pub fn at(&self, sq: Square) -> Piece {
        self.0[sq.index()]
    }

    /// The canonical text: `square:code` for all 32 squares in square order (`a1 b1 c1 d1
    /// a2 …`), space-separated.
    #[must_use]
    pub fn text(&self) -> String {
        Square::all()
            .map(|s| format!("{s}:{}", self.at(s)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub(super) fn from_items<'a>(
        items: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Deal, SetupError> {
        let mut cells: [Option<Piece>; SQUARES] = [None; SQUARES];
        for (sq, code) in items {
            let s: Square = sq.parse().map_err(|_| SetupError::BadSquare {
                seat: "deal".into(),
                text: sq.into(),
                board: square::range(FILES, RANKS),
            })?;
            let p = Piece::from_code_str(code).ok_or_else(|| SetupError::UnknownPiece {
                seat: "deal".into(),
                square: sq.into(),
                code: code.into(),
                known: CODES_TEXT.into(),
            })?;
            if cells[s.index()].replace(p).is_some() {
                return Err(SetupError::Invalid(format!(
                    "deal: {s} is given twice; name each of the 32 squares once"
                )));
            }
        }
        let mut pieces = [Piece::ALL[0]; SQUARES];
        for s in Square::all() {
            pieces[s.index()] = cells[s.index()].ok_or_else(|| {
                SetupError::Invalid(format!(
                    "deal: {s} has no piece; a deal names all 32 squares a1..d8"
                ))
            })?;
        }
        Deal::new(pieces)
    }

    /// Parses the canonical text (`a1:K b1:p …`; commas also separate).
    ///
    /// # Errors
    /// A malformed item, a bad square or code, a square missing or given twice, or wrong
    /// counts.
    pub fn parse(text: &str) -> Result<Deal, SetupError> {
        let mut items = Vec::with_capacity(SQUARES);
        for item in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let pair = item.split_once([':', '=']).ok_or_else(|| {
                SetupError::Invalid(format!(
                    "deal: {item:?} must be written square:piece, e.g. a1:K"
                ))
            })?;
            items.push(pair);
        }
        Deal::from_items(items)
    }

    /// Reads `{"a1":"K","b1":"p",...}` naming all 32 squares.
    ///
    /// # Errors
    /// As [`Deal::parse`], or a value that is not a code string.
    pub fn from_json(value: &serde_json::Value) -> Result<Deal, SetupError> {
        let obj = value.as_object().ok_or_else(|| {
            SetupError::Invalid(
                "deal must be an object of all 32 squares to piece codes, e.g. {\"a1\":\"K\",\"b1\":\"p\",...}"
                    .into(),
            )
        })?;
        let mut items = Vec::with_capacity(obj.len());
        for (sq, code) in obj {
            let code = code.as_str().ok_or_else(|| {
                SetupError::Invalid(format!(
                    "deal: {sq}: the piece must be a code string such as \"K\" or \"p\""
                ))
            })?;
            items.push((sq.as_str(), code));
        }
        Deal::from_items(items)
    }
}
