//! Options: the flag rule, what a challenge reveals, the army.

use crate::options::{limit_text, parse_bool, parse_choice, parse_limit, unknown_option};
use crate::{GameKind, GameOptions, OptionError, Seat};

use super::*;

/// When a Flag that reaches the far rank wins (`flag_rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlagRule {
    /// Wins at once if no enemy piece is adjacent there; otherwise the opponent gets one turn
    /// to challenge it (the default).
    Adjacent,
    /// The opponent always gets one turn to challenge it.
    OneTurn,
    /// Wins the moment it arrives.
    Electronic,
}

/// What the arbiter shows of a challenge (`reveal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reveal {
    /// Only which piece(s) left the board (the official rule, the default).
    None,
    /// Also the surviving piece's rank.
    Winner,
    /// Both ranks.
    Both,
}

/// The pieces each side plays with: a count of every piece, validated (exactly one Flag, at
/// most 27 pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Army {
    pub(super) counts: [u8; 15],
}

impl Army {
    /// The standard army of 21 pieces.
    pub const FULL: Army = Army {
        counts: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 2, 1],
    };
    /// The 11-piece army of the "only 11 pieces" variant: 5G 4G 3G 1G COL CPT 1LT PVT×2
    /// SPY FLG (the sources name no set; salpakan fixes this one).
    pub const REDUCED: Army = Army {
        counts: [1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 2, 1, 1],
    };

    /// An army from counts per piece (in [`Piece::ALL`] order).
    ///
    /// # Errors
    /// Unless there is exactly one Flag and 1 to 27 pieces in all.
    pub fn new(counts: [u8; 15]) -> Result<Army, OptionError> {
        let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        if counts[Piece::Flag as usize] != 1 {
            return Err(OptionError::Inconsistent(
                "an army must have exactly one FLG".into(),
            ));
        }
        if total > 27 {
            return Err(OptionError::Inconsistent(format!(
                "an army of {total} pieces does not fit the 27 squares of the setup area"
            )));
        }
        Ok(Army { counts })
    }

    /// How many of `piece` the army has.
    #[must_use]
    pub const fn count(&self, piece: Piece) -> u8 {
        self.counts[piece as usize]
    }

    /// How many pieces in all.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    /// Every piece of the army, strongest first, with repeats.
    #[must_use]
    pub fn pieces(&self) -> Vec<Piece> {
        Piece::ALL
            .iter()
            .flat_map(|&p| std::iter::repeat_n(p, self.count(p) as usize))
            .collect()
    }

    pub(super) fn text(&self) -> String {
        if *self == Army::FULL {
            return "full".into();
        }
        if *self == Army::REDUCED {
            return "reduced".into();
        }
        Piece::ALL
            .iter()
            .filter(|&&p| self.count(p) > 0)
            .map(|&p| format!("{}:{}", p.code(), self.count(p)))
            .collect::<Vec<_>>()
            .join(",")
    }

    pub(super) fn parse(value: &str) -> Result<Army, OptionError> {
        match value {
            "full" => return Ok(Army::FULL),
            "reduced" => return Ok(Army::REDUCED),
            _ => {}
        }
        let bad = |why: String| OptionError::BadValue {
            key: "army".into(),
            value: value.into(),
            expected: format!("full, reduced, or counts such as FLG:1,SPY:2,PVT:6,5G:1 ({why})"),
        };
        let mut counts = [0u8; 15];
        for item in value.split(',') {
            let (code, n) = item
                .split_once(':')
                .ok_or_else(|| bad(format!("{item:?} has no count")))?;
            let p = Piece::from_code(code).ok_or_else(|| bad(format!("unknown piece {code:?}")))?;
            counts[p as usize] = n
                .parse()
                .map_err(|_| bad(format!("{n:?} is not a count")))?;
        }
        Army::new(counts)
    }
}

/// Game of the Generals options (`RULES.md` §1). Every value is valid.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GeneralsOptions {
    /// Who moves first (`first`, default White).
    pub first: Seat,
    /// When a Flag on the far rank wins (`flag_rule`, default `adjacent`).
    pub flag_rule: FlagRule,
    /// What a challenge reveals (`reveal`, default `none`).
    pub reveal: Reveal,
    /// Reveal every piece to both players when the game ends (`reveal_at_end`, default on).
    pub reveal_at_end: bool,
    /// A draw after this many consecutive plies without a challenge (`max_quiet_plies`,
    /// default off).
    pub max_quiet_plies: Option<u32>,
    /// Each Flag is shown to the opponent (`open_flag`, default off).
    pub open_flag: bool,
    /// The army each side plays with (`army`, default `full`).
    pub army: Army,
}

impl Default for GeneralsOptions {
    fn default() -> Self {
        GeneralsOptions {
            first: Seat::First,
            flag_rule: FlagRule::Adjacent,
            reveal: Reveal::None,
            reveal_at_end: true,
            max_quiet_plies: None,
            open_flag: false,
            army: Army::FULL,
        }
    }
}

pub(super) const OPTION_KEYS: [&str; 7] = [
    "first",
    "flag_rule",
    "reveal",
    "reveal_at_end",
    "max_quiet_plies",
    "open_flag",
    "army",
];
pub(super) const FLAG_RULES: [(&str, FlagRule); 3] = [
    ("adjacent", FlagRule::Adjacent),
    ("one_turn", FlagRule::OneTurn),
    ("electronic", FlagRule::Electronic),
];
pub(super) const REVEALS: [(&str, Reveal); 3] = [
    ("none", Reveal::None),
    ("winner", Reveal::Winner),
    ("both", Reveal::Both),
];

impl GameOptions for GeneralsOptions {
    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        match key {
            "first" => {
                self.first = parse_choice(
                    key,
                    value,
                    &[("white", Seat::First), ("black", Seat::Second)],
                )?
            }
            "flag_rule" => self.flag_rule = parse_choice(key, value, &FLAG_RULES)?,
            "reveal" => self.reveal = parse_choice(key, value, &REVEALS)?,
            "reveal_at_end" => self.reveal_at_end = parse_bool(key, value)?,
            "max_quiet_plies" => self.max_quiet_plies = parse_limit(key, value)?,
            "open_flag" => self.open_flag = parse_bool(key, value)?,
            "army" => self.army = Army::parse(value)?,
            _ => return Err(unknown_option(key, &OPTION_KEYS)),
        }
        Ok(())
    }

    fn pairs(&self) -> Vec<(&'static str, String)> {
        fn name<T: PartialEq>(t: &[(&'static str, T)], v: T) -> Option<String> {
            t.iter()
                .find(|(_, x)| *x == v)
                .map(|(n, _)| (*n).to_string())
        }
        vec![
            (
                "first",
                GameKind::Generals.seat_name(self.first).to_string(),
            ),
            (
                "flag_rule",
                name(&FLAG_RULES, self.flag_rule).expect("listed"),
            ),
            ("reveal", name(&REVEALS, self.reveal).expect("listed")),
            ("reveal_at_end", self.reveal_at_end.to_string()),
            ("max_quiet_plies", limit_text(self.max_quiet_plies)),
            ("open_flag", self.open_flag.to_string()),
            ("army", self.army.text()),
        ]
    }
}
