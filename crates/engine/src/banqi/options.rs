//! The options: rulesets, repetition rules.

use crate::options::{limit_text, parse_bool, parse_choice, parse_limit, unknown_option};
use crate::{GameOptions, OptionError};

/// Which capture rules (`ruleset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ruleset {
    /// General > Advisor > Elephant > Chariot > Horse > Soldier; the Cannon captures only by
    /// jumping one screen; General cannot take Soldiers, Soldiers take the General (default).
    Taiwan,
    /// General > Chariot > Horse > Cannon > Advisor > Elephant > Soldier, all by one-square
    /// moves; Soldiers take the General, the General cannot take Soldiers.
    HongKong,
    /// The Taiwan ranking with the Cannon just above the Soldier and no jumping; General and
    /// Soldier take each other.
    Mainland,
}

/// When a repeated position draws (`repetition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Never (the default).
    Off,
    /// The third occurrence of a position with the same side to move (`RULES.md` §3).
    Threefold,
    /// The computer Dark Chess rule: the last `3k` plies are one `k`-ply sequence played
    /// three times in a row (a cycle repeated the third time). Used for imported records.
    Cycle,
}

/// Banqi options (`RULES.md` §3). Every value is valid.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BanqiOptions {
    /// Capture rules (`ruleset`, default `taiwan`).
    pub ruleset: Ruleset,
    /// Cannons also capture Soldiers and Cannons by a one-square move (`cannon_direct`).
    pub cannon_direct: bool,
    /// A capture may be attempted on a face-down piece (`capture_face_down`).
    pub capture_face_down: bool,
    /// Several captures in one turn (`chain_captures`).
    pub chain_captures: bool,
    /// Endless chasing forbidden (`chase_rule`, default off).
    pub chase_rule: bool,
    /// Repetition draws (`repetition`, default off).
    pub repetition: Repetition,
    /// A draw after this many consecutive plies with neither a flip nor a capture
    /// (`max_quiet_plies`, default 50).
    pub max_quiet_plies: Option<u32>,
}

impl Default for BanqiOptions {
    fn default() -> Self {
        BanqiOptions {
            ruleset: Ruleset::Taiwan,
            cannon_direct: false,
            capture_face_down: false,
            chain_captures: false,
            chase_rule: false,
            repetition: Repetition::Off,
            max_quiet_plies: Some(50),
        }
    }
}

impl BanqiOptions {
    /// The `olympiad` preset, as computer tournaments play: Taiwan rules, 180 quiet plies,
    /// threefold repetition.
    #[must_use]
    pub fn olympiad() -> BanqiOptions {
        BanqiOptions {
            ruleset: Ruleset::Taiwan,
            repetition: Repetition::Threefold,
            max_quiet_plies: Some(180),
            ..BanqiOptions::default()
        }
    }

    /// The rules of imported computer Dark Chess records: Taiwan rules, the given no-progress
    /// limit (60 plies on the common platforms), cycle repetition.
    #[must_use]
    pub fn cdc(quiet_limit: u32) -> BanqiOptions {
        BanqiOptions {
            ruleset: Ruleset::Taiwan,
            repetition: Repetition::Cycle,
            max_quiet_plies: Some(quiet_limit),
            ..BanqiOptions::default()
        }
    }
}

pub(super) const OPTION_KEYS: [&str; 8] = [
    "ruleset",
    "cannon_direct",
    "capture_face_down",
    "chain_captures",
    "chase_rule",
    "repetition",
    "max_quiet_plies",
    "preset",
];
pub(super) const RULESETS: [(&str, Ruleset); 3] = [
    ("taiwan", Ruleset::Taiwan),
    ("hongkong", Ruleset::HongKong),
    ("mainland", Ruleset::Mainland),
];
pub(super) const REPETITIONS: [(&str, Repetition); 9] = [
    ("off", Repetition::Off),
    ("threefold", Repetition::Threefold),
    ("cycle", Repetition::Cycle),
    ("false", Repetition::Off),
    ("no", Repetition::Off),
    ("0", Repetition::Off),
    ("true", Repetition::Threefold),
    ("on", Repetition::Threefold),
    ("yes", Repetition::Threefold),
];

impl GameOptions for BanqiOptions {
    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        match key {
            "ruleset" => self.ruleset = parse_choice(key, value, &RULESETS)?,
            "cannon_direct" => self.cannon_direct = parse_bool(key, value)?,
            "capture_face_down" => self.capture_face_down = parse_bool(key, value)?,
            "chain_captures" => self.chain_captures = parse_bool(key, value)?,
            "chase_rule" => self.chase_rule = parse_bool(key, value)?,
            "repetition" => self.repetition = parse_choice(key, value, &REPETITIONS)?,
            "max_quiet_plies" => self.max_quiet_plies = parse_limit(key, value)?,
            "preset" => {
                let o = parse_choice(key, value, &[("olympiad", ()), ("default", ())])
                    .map(|()| value.to_ascii_lowercase())?;
                let base = if o == "olympiad" {
                    BanqiOptions::olympiad()
                } else {
                    BanqiOptions::default()
                };
                self.ruleset = base.ruleset;
                self.repetition = base.repetition;
                self.max_quiet_plies = base.max_quiet_plies;
            }
            _ => return Err(unknown_option(key, &OPTION_KEYS)),
        }
        Ok(())
    }

    fn pairs(&self) -> Vec<(&'static str, String)> {
        fn name<T: PartialEq>(t: &[(&'static str, T)], v: T) -> String {
            t.iter()
                .find(|(_, x)| *x == v)
                .map(|(n, _)| (*n).to_string())
                .expect("listed")
        }
        vec![
            ("ruleset", name(&RULESETS, self.ruleset)),
            ("cannon_direct", self.cannon_direct.to_string()),
            ("capture_face_down", self.capture_face_down.to_string()),
            ("chain_captures", self.chain_captures.to_string()),
            ("chase_rule", self.chase_rule.to_string()),
            ("repetition", name(&REPETITIONS, self.repetition)),
            ("max_quiet_plies", limit_text(self.max_quiet_plies)),
        ]
    }
}
