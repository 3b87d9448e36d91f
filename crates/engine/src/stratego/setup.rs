//! Setups: parsing, checking and drawing them.

use rand::seq::SliceRandom;

use crate::{GameKind, GameRng, Seat, SetupError, board};

use super::*;

/// One side's setup: where each piece stands. Valid by construction for its options.
pub type Setup = board::Setup<FILES, RANKS, Piece>;

/// What a setup of `seat` is checked against under `options`.
fn rules(seat: Seat, options: &StrategoOptions) -> board::SetupRules<'static, FILES, RANKS> {
    board::SetupRules {
        who: GameKind::Stratego.seat_name(seat),
        area: options.setup_area.mask(seat),
        area_text: options.setup_area.text(seat),
        known: "F B S 2 3 4 5 6 7 8 9 10",
        example: "F",
    }
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
        let rules = rules(seat, options);
        let mut counts = [0u32; 12];
        rules.place(placements, &mut counts)?;
        match options.army.counts() {
            Some(want) => rules.check_counts::<Piece>(&counts, &want)?,
            None if placements.is_empty() => {
                return Err(SetupError::Invalid(format!(
                    "{}: a setup needs at least one piece",
                    rules.who
                )));
            }
            None => {}
        }
        Ok(Setup::sorted(seat, placements))
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
            Army::Free => Setup::sorted(seat, placements),
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
        let placements = rules(seat, options).parse_text(text)?;
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
        let rules = rules(seat, options);
        let obj = rules.json_object(value)?;
        let mut placements = Vec::with_capacity(obj.len());
        for (sq, code) in obj {
            let code = match code {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => {
                    return Err(SetupError::Invalid(format!(
                        "{}: {sq}: the piece must be a code such as \"F\", \"S\" or \"10\"",
                        rules.who
                    )));
                }
            };
            placements.push(rules.placement(sq, &code)?);
        }
        Setup::new(seat, options, &placements)
    }
}

/// Both setups: the hidden initial state of a Stratego game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setups(pub [Setup; 2]);

pub(super) const PART_NAMES: [&str; 2] = ["RedSetup", "BlueSetup"];
