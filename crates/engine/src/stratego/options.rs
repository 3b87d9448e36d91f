//! Armies, setup areas and the options.

use crate::options::{limit_text, parse_bool, parse_choice, parse_limit, unknown_option};
use crate::{GameOptions, OptionError, Seat};

use super::*;

/// The pieces each side plays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Army {
    /// The 40-piece army (`classic`).
    Classic,
    /// Barrage: Flag, Bomb, Spy, 2 Scouts, Miner, General, Marshal (`barrage`).
    Barrage,
    /// Duel: Flag, 2 Bombs, Spy, 2 Scouts, 2 Miners, General, Marshal (`duel`).
    Duel,
    /// Ultimate Lightning: 20 pieces (`ultimate_lightning`, also `ul`); choosing it also
    /// sets its rules (see [`StrategoOptions`]).
    UltimateLightning,
    /// Any pieces, any counts, each side its own (`free`): only the setup area is checked.
    Free,
    /// Counts per piece, in [`Piece::ALL`] order (`F:1,B:2,S:1,2:2,...`).
    Custom([u8; 12]),
}

pub(super) const CLASSIC: [u8; 12] = [1, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6];
pub(super) const BARRAGE: [u8; 12] = [1, 1, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1];
pub(super) const DUEL: [u8; 12] = [1, 1, 2, 2, 0, 0, 0, 0, 0, 1, 1, 2];
pub(super) const ULTIMATE_LIGHTNING: [u8; 12] = [1, 1, 4, 2, 2, 2, 2, 1, 1, 1, 1, 2];

impl Army {
    /// The named armies with their counts.
    pub(super) const NAMED: [(&'static str, Army, [u8; 12]); 4] = [
        ("classic", Army::Classic, CLASSIC),
        ("barrage", Army::Barrage, BARRAGE),
        ("duel", Army::Duel, DUEL),
        (
            "ultimate_lightning",
            Army::UltimateLightning,
            ULTIMATE_LIGHTNING,
        ),
    ];

    /// An army from counts per piece (in [`Piece::ALL`] order); the counts of a named army
    /// give that army.
    ///
    /// # Errors
    /// Unless there is exactly one Flag and at most 92 pieces.
    pub fn custom(counts: [u8; 12]) -> Result<Army, OptionError> {
        if let Some((_, a, _)) = Self::NAMED.iter().find(|(_, _, c)| *c == counts) {
            return Ok(*a);
        }
        if counts[Piece::Flag as usize] != 1 {
            return Err(OptionError::Inconsistent(
                "a custom army must have exactly one Flag (F:1)".into(),
            ));
        }
        let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        if total > LAND.count_ones() {
            return Err(OptionError::Inconsistent(format!(
                "an army of {total} pieces does not fit the board"
            )));
        }
        Ok(Army::Custom(counts))
    }

    /// How many of each piece, in [`Piece::ALL`] order; `None` for `free`.
    #[must_use]
    pub const fn counts(&self) -> Option<[u8; 12]> {
        match self {
            Army::Classic => Some(CLASSIC),
            Army::Barrage => Some(BARRAGE),
            Army::Duel => Some(DUEL),
            Army::UltimateLightning => Some(ULTIMATE_LIGHTNING),
            Army::Free => None,
            Army::Custom(c) => Some(*c),
        }
    }

    /// Every piece of the army (the classic army for `free`), with repeats.
    #[must_use]
    pub fn pieces(&self) -> Vec<Piece> {
        let counts = self.counts().unwrap_or(CLASSIC);
        Piece::ALL
            .iter()
            .flat_map(|&p| std::iter::repeat_n(p, counts[p as usize] as usize))
            .collect()
    }

    pub(super) fn text(&self) -> String {
        match self {
            Army::Classic => "classic".into(),
            Army::Barrage => "barrage".into(),
            Army::Duel => "duel".into(),
            Army::UltimateLightning => "ultimate_lightning".into(),
            Army::Free => "free".into(),
            Army::Custom(c) => Piece::ALL
                .iter()
                .filter(|&&p| c[p as usize] > 0)
                .map(|&p| format!("{}:{}", p.code(), c[p as usize]))
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    pub(super) fn parse(value: &str) -> Result<Army, OptionError> {
        match value.to_ascii_lowercase().as_str() {
            "classic" => return Ok(Army::Classic),
            "barrage" => return Ok(Army::Barrage),
            "duel" | "duell" => return Ok(Army::Duel),
            "ultimate_lightning" | "ul" => return Ok(Army::UltimateLightning),
            "free" => return Ok(Army::Free),
            _ => {}
        }
        let bad = |why: String| OptionError::BadValue {
            key: "army".into(),
            value: value.into(),
            expected: format!(
                "classic, barrage, duel, ultimate_lightning, free, or counts such as F:1,B:2,S:1,2:2,3:2,9:1,10:1 ({why})"
            ),
        };
        let mut counts = [0u8; 12];
        for item in value.split(',').filter(|i| !i.trim().is_empty()) {
            let (code, n) = item
                .split_once(':')
                .ok_or_else(|| bad(format!("{item:?} has no count")))?;
            let p = Piece::from_code(code.trim())
                .ok_or_else(|| bad(format!("unknown piece {code:?}")))?;
            counts[p as usize] = n
                .trim()
                .parse()
                .map_err(|_| bad(format!("{n:?} is not a count")))?;
        }
        Army::custom(counts)
    }
}

/// Where each side may set up (`setup_area`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupArea {
    /// Red on ranks 1–4, Blue on ranks 7–10 (`standard`, the default).
    Standard,
    /// Each side's own half: Red on ranks 1–5, Blue on ranks 6–10, lakes excluded (`half`).
    Half,
    /// Anywhere on the board but the lakes (`board`; Gravon's "classicfree").
    Board,
}

pub(super) const AREAS: [(&str, SetupArea); 3] = [
    ("standard", SetupArea::Standard),
    ("half", SetupArea::Half),
    ("board", SetupArea::Board),
];

impl SetupArea {
    /// The squares of `seat`'s area.
    #[must_use]
    pub const fn mask(self, seat: Seat) -> u128 {
        let ranks = match self {
            SetupArea::Standard => 4,
            SetupArea::Half => 5,
            SetupArea::Board => return LAND,
        };
        let red = (1u128 << (ranks * FILES as u32)) - 1;
        match seat {
            Seat::First => red & LAND,
            Seat::Second => (red << ((RANKS as u32 - ranks) * FILES as u32)) & LAND,
        }
    }

    pub(super) fn text(self, seat: Seat) -> &'static str {
        match (self, seat) {
            (SetupArea::Standard, Seat::First) => "ranks 1-4",
            (SetupArea::Standard, Seat::Second) => "ranks 7-10",
            (SetupArea::Half, Seat::First) => "ranks 1-5 without the lakes",
            (SetupArea::Half, Seat::Second) => "ranks 6-10 without the lakes",
            (SetupArea::Board, _) => "any square but the lakes",
        }
    }
}

/// Stratego options (`RULES.md` §2). Every value is valid.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StrategoOptions {
    /// The army each side plays with (`army`, default `classic`).
    pub army: Army,
    /// Where the sides set up (`setup_area`, default `standard`).
    pub setup_area: SetupArea,
    /// A Scout may move several squares and attack in the same move (`scout_strike`,
    /// default on).
    pub scout_strike: bool,
    /// The two-squares rule: at most this many moves in a row between the same two squares
    /// (`two_square_limit`, default 3; older play used 5; `off` for none).
    pub two_square_limit: Option<u32>,
    /// The more-squares (continuous chase) rule (`chase_rule`, default on).
    pub chase_rule: bool,
    /// A draw after this many consecutive plies without an attack (`max_quiet_plies`,
    /// default off).
    pub max_quiet_plies: Option<u32>,
    /// Between equal ranks the attacker wins (`aggression`; on in Ultimate Lightning).
    pub aggression: bool,
    /// A Bomb is removed with any piece it stops (`one_time_bombs`; on in Ultimate
    /// Lightning).
    pub one_time_bombs: bool,
    /// Which piece defuses Bombs (`defuser`: `miner`, or `scout` in Ultimate Lightning).
    pub defuser: Defuser,
    /// How many squares a Captain moves (`captain_steps`: 1, or 2 in Ultimate Lightning).
    pub captain_steps: u8,
    /// Rescues each side may make by reaching the enemy's back rank (`rescues`: 0, or 2 in
    /// Ultimate Lightning).
    pub rescues: u8,
}

impl Default for StrategoOptions {
    fn default() -> Self {
        StrategoOptions {
            army: Army::Classic,
            setup_area: SetupArea::Standard,
            scout_strike: true,
            two_square_limit: Some(3),
            chase_rule: true,
            max_quiet_plies: None,
            aggression: false,
            one_time_bombs: false,
            defuser: Defuser::Miner,
            captain_steps: 1,
            rescues: 0,
        }
    }
}

pub(super) const OPTION_KEYS: [&str; 11] = [
    "army",
    "setup_area",
    "scout_strike",
    "two_square_limit",
    "chase_rule",
    "max_quiet_plies",
    "aggression",
    "one_time_bombs",
    "defuser",
    "captain_steps",
    "rescues",
];

impl GameOptions for StrategoOptions {
    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        match key {
            "army" => {
                self.army = Army::parse(value)?;
                self.set_army_rules();
            }
            "setup_area" => self.setup_area = parse_choice(key, value, &AREAS)?,
            "scout_strike" => self.scout_strike = parse_bool(key, value)?,
            "two_square_limit" => {
                let l = parse_limit(key, value)?;
                if l.is_some_and(|n| n > MAX_TWO_SQUARE_LIMIT) {
                    return Err(OptionError::BadValue {
                        key: key.into(),
                        value: value.into(),
                        expected: format!("1 to {MAX_TWO_SQUARE_LIMIT}, or off"),
                    });
                }
                self.two_square_limit = l;
            }
            "chase_rule" => self.chase_rule = parse_bool(key, value)?,
            "max_quiet_plies" => self.max_quiet_plies = parse_limit(key, value)?,
            "aggression" | "one_time_bombs" | "defuser" | "captain_steps" | "rescues" => {
                self.set_variant_rule(key, value)?;
            }
            _ => return Err(unknown_option(key, &OPTION_KEYS)),
        }
        Ok(())
    }

    fn pairs(&self) -> Vec<(&'static str, String)> {
        let area = AREAS
            .iter()
            .find(|(_, a)| *a == self.setup_area)
            .map(|(n, _)| (*n).to_string())
            .expect("listed");
        let mut pairs = vec![
            ("army", self.army.text()),
            ("setup_area", area),
            ("scout_strike", self.scout_strike.to_string()),
            ("two_square_limit", limit_text(self.two_square_limit)),
            ("chase_rule", self.chase_rule.to_string()),
            ("max_quiet_plies", limit_text(self.max_quiet_plies)),
        ];
        pairs.extend(self.variant_rule_pairs());
        pairs
    }

    /// As the trait's, but `army` is applied first: it sets its army's rules, which the
    /// other options given then override (whatever order they come in).
    fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, OptionError> {
        let mut pairs: Vec<_> = pairs.into_iter().collect();
        pairs.sort_by_key(|(k, _)| *k != "army");
        let mut o = Self::default();
        for (k, v) in pairs {
            o.set(k, v)?;
        }
        o.validate()?;
        Ok(o)
    }

    fn validate(&self) -> Result<(), OptionError> {
        if let Some(n) = self
            .two_square_limit
            .filter(|n| !(1..=MAX_TWO_SQUARE_LIMIT).contains(n))
        {
            return Err(OptionError::BadValue {
                key: "two_square_limit".into(),
                value: n.to_string(),
                expected: format!("1 to {MAX_TWO_SQUARE_LIMIT}, or off"),
            });
        }
        if let Some(c) = self.army.counts() {
            let total: u32 = c.iter().map(|&n| u32::from(n)).sum();
            let room = self.setup_area.mask(Seat::First).count_ones();
            if total > room {
                return Err(OptionError::Inconsistent(format!(
                    "an army of {total} pieces does not fit a setup area of {room} squares; \
                     choose a smaller army or setup_area=half or board"
                )));
            }
        }
        Ok(())
    }
}
