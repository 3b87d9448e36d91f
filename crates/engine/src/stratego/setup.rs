//! Setups: parsing, checking and drawing them.

use rand::seq::SliceRandom;

use crate::{GameKind, GameRng, Seat, SetupError, square};

use super::*;

/// One side's setup: where each piece stands. Valid by construction for its options.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub(super) seat: Seat,
    pub(super) placements: Vec<(Square, Piece)>,
}

impl Setup {
    /// Validates a setup for `seat`: every square in the seat's setup area, no square twice,
    /// exactly the army's pieces (any pieces for `free`, at least one).
    ///
    /// # Errors
    /// A [`SetupError`] naming the square, the piece and what is wrong.
    pub fn new(
        seat: Seat,
        options: &StrategoOptions,
        placements: &[(Square, Piece)],
    ) -> Result<Setup, SetupError> {
        let who = GameKind::Stratego.seat_name(seat).to_string();
        let area = options.setup_area.mask(seat);
        let mut seen = 0u128;
        let mut counts = [0u32; 12];
        for &(sq, p) in placements {
            if area & sq.bit() == 0 {
                return Err(SetupError::OutsideArea {
                    seat: who,
                    square: sq.to_string(),
                    piece: p.code().into(),
                    area: options.setup_area.text(seat).into(),
                });
            }
            if seen & sq.bit() != 0 {
                return Err(SetupError::Invalid(format!(
                    "{who}: {sq}: two pieces on one square"
                )));
            }
            seen |= sq.bit();
            counts[p as usize] += 1;
        }
        match options.army.counts() {
            Some(want) => {
                for p in Piece::ALL {
                    let (w, got) = (u32::from(want[p as usize]), counts[p as usize]);
                    if w != got {
                        return Err(SetupError::WrongCount {
                            seat: who,
                            piece: p.code().into(),
                            expected: w,
                            found: got,
                        });
                    }
                }
            }
            None if placements.is_empty() => {
                return Err(SetupError::Invalid(format!(
                    "{who}: a setup needs at least one piece"
                )));
            }
            None => {}
        }
        let mut placements = placements.to_vec();
        placements.sort();
        Ok(Setup { seat, placements })
    }

    pub(super) fn random_squares(seat: Seat, options: &StrategoOptions) -> Vec<Square> {
        let area = match options.army {
            // A free army is drawn as the classic army in the standard area.
            Army::Free => SetupArea::Standard.mask(seat),
            _ => options.setup_area.mask(seat),
        };
        Square::all().filter(|s| area & s.bit() != 0).collect()
    }

    pub(super) fn checked(
        seat: Seat,
        options: &StrategoOptions,
        placements: &[(Square, Piece)],
    ) -> Setup {
        match options.army {
            Army::Free => {
                let mut placements = placements.to_vec();
                placements.sort();
                Setup { seat, placements }
            }
            _ => Setup::new(seat, options, placements).expect("a placement of the army is valid"),
        }
    }

    /// A setup drawn uniformly at random: the army's pieces on random squares of the area
    /// (for `free`, the classic army on the standard ranks).
    pub fn random(seat: Seat, options: &StrategoOptions, rng: &mut GameRng) -> Setup {
        let mut squares = Self::random_squares(seat, options);
        squares.shuffle(rng);
        let placements: Vec<_> = squares.into_iter().zip(options.army.pieces()).collect();
        Self::checked(seat, options, &placements)
    }

    /// A better-than-random setup for bots and quick games: the Flag on the back rank, the
    /// Bombs around it (beside and in front of it, the rest on the two back ranks), Scouts
    /// towards the front, Miners towards the back, the rest at random.
    pub fn sensible(seat: Seat, options: &StrategoOptions, rng: &mut GameRng) -> Setup {
        let squares = Self::random_squares(seat, options);
        let depth = |s: Square| match seat {
            Seat::First => s.rank(),
            Seat::Second => RANKS - 1 - s.rank(),
        };
        let mut free: Vec<Square> = squares.clone();
        free.shuffle(rng);
        let mut pieces = options.army.pieces();
        let mut placements = Vec::with_capacity(pieces.len());
        let take = |free: &mut Vec<Square>, pref: &dyn Fn(Square) -> bool| -> Square {
            let i = free.iter().position(|&s| pref(s)).unwrap_or(0);
            free.swap_remove(i)
        };
        let min_depth = squares.iter().map(|&s| depth(s)).min().unwrap_or(0);
        let max_depth = squares.iter().map(|&s| depth(s)).max().unwrap_or(0);
        let count = |pieces: &mut Vec<Piece>, p: Piece| {
            let n = pieces.iter().filter(|&&q| q == p).count();
            pieces.retain(|&q| q != p);
            n
        };
        let flags = count(&mut pieces, Piece::Flag);
        let bombs = count(&mut pieces, Piece::Bomb);
        let scouts = count(&mut pieces, Piece::Scout);
        let miners = count(&mut pieces, Piece::Miner);
        let mut flag_sq = None;
        for _ in 0..flags {
            let s = take(&mut free, &|s| depth(s) == min_depth);
            flag_sq.get_or_insert(s);
            placements.push((s, Piece::Flag));
        }
        for _ in 0..bombs {
            let near = |s: Square| {
                flag_sq.is_some_and(|f: Square| {
                    let (df, dr) = (
                        i16::from(f.file()) - i16::from(s.file()),
                        i16::from(f.rank()) - i16::from(s.rank()),
                    );
                    df.abs() + dr.abs() == 1
                })
            };
            let i = free
                .iter()
                .position(|&s| near(s))
                .or_else(|| free.iter().position(|&s| depth(s) <= min_depth + 1));
            let s = free.swap_remove(i.unwrap_or(0));
            placements.push((s, Piece::Bomb));
        }
        for _ in 0..scouts {
            let s = take(&mut free, &|s| {
                depth(s) == max_depth || depth(s) + 1 == max_depth
            });
            placements.push((s, Piece::Scout));
        }
        for _ in 0..miners {
            let s = take(&mut free, &|s| depth(s) <= min_depth + 1);
            placements.push((s, Piece::Miner));
        }
        for p in pieces {
            let s = take(&mut free, &|_| true);
            placements.push((s, p));
        }
        Self::checked(seat, options, &placements)
    }

    /// Parses the canonical text (`a1:F b1:B …`): `square:code` items separated by spaces
    /// or commas.
    ///
    /// # Errors
    /// As [`Setup::new`], or a malformed item.
    pub fn parse(seat: Seat, options: &StrategoOptions, text: &str) -> Result<Setup, SetupError> {
        let mut placements = Vec::new();
        for item in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let (sq, code) = item.split_once([':', '=']).ok_or_else(|| {
                SetupError::Invalid(format!("{item:?} must be written square:piece, e.g. a1:F"))
            })?;
            placements.push(parse_placement(seat, sq, code)?);
        }
        Setup::new(seat, options, &placements)
    }

    /// Reads `{"a1":"F","b1":"B",...}`.
    ///
    /// # Errors
    /// As [`Setup::new`], or a value that is not a piece code.
    pub fn from_json(
        seat: Seat,
        options: &StrategoOptions,
        value: &serde_json::Value,
    ) -> Result<Setup, SetupError> {
        let who = GameKind::Stratego.seat_name(seat);
        let obj = value.as_object().ok_or_else(|| {
            SetupError::Invalid(format!(
                "{who}: a setup is an object of square to piece, e.g. {{\"a1\":\"F\"}}"
            ))
        })?;
        let mut placements = Vec::with_capacity(obj.len());
        for (sq, code) in obj {
            let code = match code {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => {
                    return Err(SetupError::Invalid(format!(
                        "{who}: {sq}: the piece must be a code such as \"F\", \"S\" or \"10\""
                    )));
                }
            };
            placements.push(parse_placement(seat, sq, &code)?);
        }
        Setup::new(seat, options, &placements)
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
    let who = GameKind::Stratego.seat_name(seat).to_string();
    let s: Square = sq.parse().map_err(|_| SetupError::BadSquare {
        seat: who.clone(),
        text: sq.into(),
        board: square::range(FILES, RANKS),
    })?;
    let p = Piece::from_code(code).ok_or_else(|| SetupError::UnknownPiece {
        seat: who,
        square: sq.into(),
        code: code.into(),
        known: "F B S 2 3 4 5 6 7 8 9 10".into(),
    })?;
    Ok((s, p))
}

/// Both setups: the hidden initial state of a Stratego game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setups(pub [Setup; 2]);

pub(super) const PART_NAMES: [&str; 2] = ["RedSetup", "BlueSetup"];
