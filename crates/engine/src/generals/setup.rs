//! Setups: parsing, checking and drawing them.

use rand::seq::SliceRandom;

use crate::{GameKind, GameRng, Seat, SetupError, board};

use super::*;

/// One side's setup: where each piece of the army stands. Valid by construction.
pub type Setup = board::Setup<FILES, RANKS, Piece>;

/// The piece codes, as setup errors list them.
const KNOWN: &str = "5G 4G 3G 2G 1G COL LTC MAJ CPT 1LT 2LT SGT PVT SPY FLG";

/// What a setup of `seat` is checked against: White on ranks 1-3, Black on ranks 6-8.
fn rules(seat: Seat) -> board::SetupRules<'static, FILES, RANKS> {
    let (area, area_text) = match seat {
        Seat::First => (board::ranks_mask::<FILES, RANKS>(0, 3), "ranks 1-3"),
        Seat::Second => (
            board::ranks_mask::<FILES, RANKS>(RANKS - 3, RANKS),
            "ranks 6-8",
        ),
    };
    board::SetupRules {
        who: GameKind::Generals.seat_name(seat),
        area,
        area_text,
        known: KNOWN,
        example: "FLG",
    }
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
        let rules = rules(seat);
        let mut counts = [0u32; 15];
        rules.place(placements, &mut counts)?;
        rules.check_counts::<Piece>(&counts, &army.counts)?;
        Ok(Setup::sorted(seat, placements))
    }

    /// A setup drawn uniformly at random: the army's pieces on random squares of the area.
    pub fn random(seat: Seat, army: &Army, rng: &mut GameRng) -> Setup {
        let area = rules(seat).area;
        let mut squares: Vec<Square> = Square::all().filter(|s| area >> s.0 & 1 != 0).collect();
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
        let placements = rules(seat).parse_text(text)?;
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
        let rules = rules(seat);
        let obj = rules.json_object(value)?;
        let mut placements = Vec::with_capacity(obj.len());
        for (sq, code) in obj {
            let code = code.as_str().ok_or_else(|| {
                SetupError::Invalid(format!(
                    "{}: {sq}: the piece must be a code string such as \"FLG\"",
                    rules.who
                ))
            })?;
            placements.push(rules.placement(sq, code)?);
        }
        Setup::new(seat, army, &placements)
    }
}

/// Both setups: the hidden initial state of a Game of the Generals game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setups(pub [Setup; 2]);

pub(super) const PART_NAMES: [&str; 2] = ["WhiteSetup", "BlackSetup"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_errors_list_every_piece_code() {
        assert_eq!(KNOWN, Piece::CODES.join(" "));
    }
}
