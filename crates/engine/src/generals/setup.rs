//! Setups: parsing, checking and drawing them.

use rand::seq::SliceRandom;

use crate::{GameKind, GameRng, Seat, SetupError, square};

use super::*;

/// One side's setup: where each piece of the army stands. Valid by construction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub(super) seat: Seat,
    pub(super) placements: Vec<(Square, Piece)>,
}

impl Setup {
    /// Validates a setup for `seat` with `army`: every square in the seat's three nearest
    /// ranks, no square twice, exactly the army's pieces.
    ///
    /// # Errors
    /// A [`SetupError`] naming the square, the piece and what is wrong.
    pub fn new(
        seat: Seat,
        army: &Army,
        placements: &[(Square, Piece)],
    ) -> Result<Setup, SetupError> {
        let who = GameKind::Generals.seat_name(seat).to_string();
        let mut seen = [false; SQUARES];
        let mut counts = [0u32; 15];
        for &(sq, p) in placements {
            if !in_area(seat, sq) {
                return Err(SetupError::OutsideArea {
                    seat: who,
                    square: sq.to_string(),
                    piece: p.code().into(),
                    area: area_text(seat).into(),
                });
            }
            if std::mem::replace(&mut seen[sq.index()], true) {
                return Err(SetupError::Invalid(format!(
                    "{who}: {sq}: two pieces on one square"
                )));
            }
            counts[p as usize] += 1;
        }
        for p in Piece::ALL {
            let (want, got) = (u32::from(army.count(p)), counts[p as usize]);
            if want != got {
                return Err(SetupError::WrongCount {
                    seat: who,
                    piece: p.code().into(),
                    expected: want,
                    found: got,
                });
            }
        }
        let mut placements = placements.to_vec();
        placements.sort();
        Ok(Setup { seat, placements })
    }

    /// A setup drawn uniformly at random: the army's pieces on random squares of the area.
    pub fn random(seat: Seat, army: &Army, rng: &mut GameRng) -> Setup {
        let mut squares: Vec<Square> = Square::all().filter(|&s| in_area(seat, s)).collect();
        squares.shuffle(rng);
        let placements: Vec<_> = squares.into_iter().zip(army.pieces()).collect();
        Setup::new(seat, army, &placements).expect("a random placement of the army is valid")
    }

    /// Parses the canonical text (`a1:FLG b1:PVT …`) or a JSON-like list of `square:code`
    /// separated by spaces or commas.
    ///
    /// # Errors
    /// As [`Setup::new`], or a malformed item.
    pub fn parse(seat: Seat, army: &Army, text: &str) -> Result<Setup, SetupError> {
        let mut placements = Vec::new();
        for item in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let (sq, code) = item.split_once([':', '=']).ok_or_else(|| {
                SetupError::Invalid(format!(
                    "{item:?} must be written square:piece, e.g. a1:FLG"
                ))
            })?;
            placements.push(parse_placement(seat, sq, code)?);
        }
        Setup::new(seat, army, &placements)
    }

    /// Reads `{"a1":"FLG","b1":"PVT",...}`.
    ///
    /// # Errors
    /// As [`Setup::new`], or a value that is not a piece code.
    pub fn from_json(
        seat: Seat,
        army: &Army,
        value: &serde_json::Value,
    ) -> Result<Setup, SetupError> {
        let who = GameKind::Generals.seat_name(seat);
        let obj = value.as_object().ok_or_else(|| {
            SetupError::Invalid(format!(
                "{who}: a setup is an object of square to piece, e.g. {{\"a1\":\"FLG\"}}"
            ))
        })?;
        let mut placements = Vec::with_capacity(obj.len());
        for (sq, code) in obj {
            let code = code.as_str().ok_or_else(|| {
                SetupError::Invalid(format!(
                    "{who}: {sq}: the piece must be a code string such as \"FLG\""
                ))
            })?;
            placements.push(parse_placement(seat, sq, code)?);
        }
        Setup::new(seat, army, &placements)
    }

    /// The seat this setup belongs to.
    #[must_use]
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Where each piece stands, in square order.
    #[must_use]
    pub fn placements(&self) -> &[(Square, Piece)] {
        &self.placements
    }

    /// The canonical text: `square:code` in square order, space-separated.
    #[must_use]
    pub fn text(&self) -> String {
        self.placements
            .iter()
            .map(|(s, p)| format!("{s}:{}", p.code()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

pub(super) fn parse_placement(
    seat: Seat,
    sq: &str,
    code: &str,
) -> Result<(Square, Piece), SetupError> {
    let who = GameKind::Generals.seat_name(seat).to_string();
    let s: Square = sq.parse().map_err(|_| SetupError::BadSquare {
        seat: who.clone(),
        text: sq.into(),
        board: square::range(FILES, RANKS),
    })?;
    let p = Piece::from_code(code).ok_or_else(|| SetupError::UnknownPiece {
        seat: who,
        square: sq.into(),
        code: code.into(),
        known: Piece::CODES.join(" "),
    })?;
    Ok((s, p))
}

pub(super) fn in_area(seat: Seat, sq: Square) -> bool {
    match seat {
        Seat::First => sq.rank() < 3,
        Seat::Second => sq.rank() >= RANKS - 3,
    }
}

pub(super) fn area_text(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "ranks 1-3",
        Seat::Second => "ranks 6-8",
    }
}

/// Both setups: the hidden initial state of a Game of the Generals game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setups(pub [Setup; 2]);

pub(super) const PART_NAMES: [&str; 2] = ["WhiteSetup", "BlackSetup"];
