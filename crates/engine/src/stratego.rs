//! Stratego, exactly as `RULES.md` §2 (see `docs/rules-stratego.md`).
//!
//! A 10 × 10 board (`a1`..`j10`) with two lakes (c5 d5 c6 d6, g5 h5 g6 h6). Red sets up on
//! ranks 1–4 and moves first; Blue sets up on ranks 7–10. Every attack reveals both pieces
//! to both players, and they stay known afterwards.
//!
//! The board is a mailbox plus `u128` bitboards per side (occupied, movable, Scouts), so move
//! generation is a few shifts (Scout slides are generated for all Scouts at once, one
//! distance at a time). The two repetition rules are kept incrementally: the two-squares
//! rule as the intersection of the squares covered by each side's last moves, the
//! more-squares (chase) rule as the Zobrist hashes of the positions of the current chase.

use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::options::{limit_text, parse_bool, parse_choice, parse_limit, unknown_option};

mod ul;
use crate::{
    EndReason, Game, GameKind, GameOptions, GameRng, HiddenPart, OptionError, Outcome, OutcomeView,
    PlayError, Seat, SetupError, Viewer, square,
};
use ul::covered;
pub use ul::{Defuser, MAX_RESCUES, Rescue};

/// Files on the board (a–j).
pub const FILES: u8 = 10;
/// Ranks on the board (1–10).
pub const RANKS: u8 = 10;
const SQUARES: usize = (FILES as usize) * (RANKS as usize);
const BOARD: u128 = (1u128 << SQUARES) - 1;
const FILE_A: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < RANKS as usize {
        m |= 1u128 << (r * FILES as usize);
        r += 1;
    }
    m
};
const FILE_J: u128 = FILE_A << (FILES - 1);
/// The eight lake squares, as a bitboard (`a1` = bit 0, `b1` = bit 1, … `j10` = bit 99).
pub const LAKES: u128 =
    (1 << 42) | (1 << 43) | (1 << 46) | (1 << 47) | (1 << 52) | (1 << 53) | (1 << 56) | (1 << 57);
const LAND: u128 = BOARD & !LAKES;
const NO_SQUARE: u8 = u8::MAX;
/// The longest two-squares limit accepted (the rule keeps this many moves per side).
pub const MAX_TWO_SQUARE_LIMIT: u32 = 16;

// ---------------------------------------------------------------------------------------
// Pieces

/// A Stratego piece. The discriminant is the rank (Flag 0, Spy 1, Scout 2 … Marshal 10),
/// with the Bomb last (11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Piece {
    /// The Flag: immobile; capturing it wins.
    Flag = 0,
    /// The Spy (1): wins when it attacks the Marshal.
    Spy,
    /// The Scout (2): moves any distance in a straight line.
    Scout,
    /// The Miner (3): defuses Bombs.
    Miner,
    /// The Sergeant (4).
    Sergeant,
    /// The Lieutenant (5).
    Lieutenant,
    /// The Captain (6).
    Captain,
    /// The Major (7).
    Major,
    /// The Colonel (8).
    Colonel,
    /// The General (9).
    General,
    /// The Marshal (10).
    Marshal,
    /// The Bomb: immobile; removes any attacker but a Miner.
    Bomb,
}

impl Piece {
    /// All twelve pieces, by rank (Flag, Spy, Scout … Marshal, Bomb).
    pub const ALL: [Piece; 12] = [
        Piece::Flag,
        Piece::Spy,
        Piece::Scout,
        Piece::Miner,
        Piece::Sergeant,
        Piece::Lieutenant,
        Piece::Captain,
        Piece::Major,
        Piece::Colonel,
        Piece::General,
        Piece::Marshal,
        Piece::Bomb,
    ];

    const CODES: [&'static str; 12] = ["F", "S", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B"];

    const NAMES: [&'static str; 12] = [
        "Flag",
        "Spy",
        "Scout",
        "Miner",
        "Sergeant",
        "Lieutenant",
        "Captain",
        "Major",
        "Colonel",
        "General",
        "Marshal",
        "Bomb",
    ];

    /// The record code: `F B S 2 3 4 5 6 7 8 9 10`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        Self::CODES[self as usize]
    }

    /// The English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The piece with this code (case-insensitive).
    #[must_use]
    pub fn from_code(code: &str) -> Option<Piece> {
        Self::CODES
            .iter()
            .position(|c| c.eq_ignore_ascii_case(code))
            .map(|i| Self::ALL[i])
    }

    /// Whether the piece can ever move (everything but the Bomb and the Flag).
    #[must_use]
    pub const fn is_movable(self) -> bool {
        !matches!(self, Piece::Bomb | Piece::Flag)
    }

    const fn from_index(i: usize) -> Piece {
        Self::ALL[i]
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// Who an attack removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Duel {
    /// The defender is removed; the attacker moves in.
    AttackerWins,
    /// The attacker is removed; the defender stays.
    DefenderWins,
    /// Equal ranks: both are removed.
    BothRemoved,
}

/// The result of `attacker` attacking `defender` (`RULES.md` §2): the higher rank wins,
/// equal ranks remove both; the Spy attacking the Marshal wins; a Miner attacking a Bomb
/// removes it, any other attacker of a Bomb is removed; any attacker takes the Flag.
#[must_use]
pub const fn duel(attacker: Piece, defender: Piece) -> Duel {
    let (a, d) = (attacker as u8, defender as u8);
    if d == Piece::Flag as u8 {
        return Duel::AttackerWins;
    }
    if d == Piece::Bomb as u8 {
        return if a == Piece::Miner as u8 {
            Duel::AttackerWins
        } else if a == Piece::Bomb as u8 {
            Duel::BothRemoved
        } else {
            Duel::DefenderWins
        };
    }
    if a == Piece::Spy as u8 && d == Piece::Marshal as u8 {
        return Duel::AttackerWins;
    }
    if a == d {
        Duel::BothRemoved
    } else if a > d {
        Duel::AttackerWins
    } else {
        Duel::DefenderWins
    }
}

// ---------------------------------------------------------------------------------------
// Squares and moves

/// A square of the 10 × 10 board, `a1` = 0, `b1` = 1, … `j10` = 99.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at zero-based `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
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
    /// The index 0..100.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Whether this square is one of the lakes.
    #[must_use]
    pub const fn is_lake(self) -> bool {
        LAKES & (1u128 << self.0) != 0
    }
    /// Every square, `a1` first (lakes included).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
    const fn bit(self) -> u128 {
        1u128 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(crate::game::square::name_str(self.file(), self.rank()))
    }
}

impl FromStr for Square {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        square::parse(s, FILES, RANKS)
            .and_then(|(f, r)| Square::new(f, r))
            .ok_or_else(|| format!("{s:?} is not a square of the board (a1..j10)"))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(crate::game::square::name_str(self.file(), self.rank()))
    }
}

/// A move: one piece from one square to another in a straight line (several squares only
/// for a Scout; two, possibly turning once, for a Captain under `captain_steps=2`), with a
/// rescue when the piece reaches the enemy's back rank under `rescues` (Ultimate
/// Lightning). Written `a4-a7`, or `a9-a10+7@j4` with a rescue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes (empty, or an enemy piece to attack).
    pub to: Square,
    /// The rescue to make if the piece stands on the enemy's back rank after the move.
    pub rescue: Option<Rescue>,
}

impl Move {
    /// A move without a rescue.
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            rescue: None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)?;
        if let Some(r) = self.rescue {
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

impl FromStr for Move {
    type Err = PlayError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (s, rescue) = match s.trim().split_once('+') {
            Some((m, r)) => (m, Some(r.parse::<Rescue>()?)),
            None => (s, None),
        };
        let bad = || PlayError::Parse(format!("{s:?} is not a move; write from-to, e.g. a4-a5"));
        let (a, b) = s.trim().split_once(['-', 'x']).ok_or_else(bad)?;
        let from = a
            .parse()
            .map_err(|e: String| PlayError::Parse(format!("{s:?}: {e}")))?;
        let to = b
            .parse()
            .map_err(|e: String| PlayError::Parse(format!("{s:?}: {e}")))?;
        Ok(Move { from, to, rescue })
    }
}

// ---------------------------------------------------------------------------------------
// Armies and options

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

const CLASSIC: [u8; 12] = [1, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6];
const BARRAGE: [u8; 12] = [1, 1, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1];
const DUEL: [u8; 12] = [1, 1, 2, 2, 0, 0, 0, 0, 0, 1, 1, 2];
const ULTIMATE_LIGHTNING: [u8; 12] = [1, 1, 4, 2, 2, 2, 2, 1, 1, 1, 1, 2];

impl Army {
    /// The named armies with their counts.
    const NAMED: [(&'static str, Army, [u8; 12]); 4] = [
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

    fn text(&self) -> String {
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

    fn parse(value: &str) -> Result<Army, OptionError> {
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

const AREAS: [(&str, SetupArea); 3] = [
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

    fn text(self, seat: Seat) -> &'static str {
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

const OPTION_KEYS: [&str; 11] = [
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

// ---------------------------------------------------------------------------------------
// Setups

/// One side's setup: where each piece stands. Valid by construction for its options.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    seat: Seat,
    placements: Vec<(Square, Piece)>,
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

    fn random_squares(seat: Seat, options: &StrategoOptions) -> Vec<Square> {
        let area = match options.army {
            // A free army is drawn as the classic army in the standard area.
            Army::Free => SetupArea::Standard.mask(seat),
            _ => options.setup_area.mask(seat),
        };
        Square::all().filter(|s| area & s.bit() != 0).collect()
    }

    fn checked(seat: Seat, options: &StrategoOptions, placements: &[(Square, Piece)]) -> Setup {
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

fn parse_placement(seat: Seat, sq: &str, code: &str) -> Result<(Square, Piece), SetupError> {
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

const PART_NAMES: [&str; 2] = ["RedSetup", "BlueSetup"];

// ---------------------------------------------------------------------------------------
// State

/// A cell of the mailbox: 0 empty, else `1 + piece + 16 * seat`.
type Cell = u8;

const fn cell(seat: Seat, p: Piece) -> Cell {
    1 + p as u8 + ((seat as u8) << 4)
}
const fn cell_piece(c: Cell) -> Piece {
    Piece::from_index(((c - 1) & 15) as usize)
}
const fn cell_seat(c: Cell) -> Seat {
    if c & 16 != 0 {
        Seat::Second
    } else {
        Seat::First
    }
}

static ZOBRIST: [[u64; 32]; SQUARES] = {
    let mut t = [[0u64; 32]; SQUARES];
    let mut x: u64 = 0x5a17_a4a2_57a7_e90d;
    let mut s = 0;
    while s < SQUARES {
        let mut c = 0;
        while c < 32 {
            // splitmix64
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            t[s][c] = z ^ (z >> 31);
            c += 1;
        }
        s += 1;
    }
    t
};

const ADJACENT: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let b = 1u128 << s;
        t[s] = ((b << 10) | (b >> 10) | ((b & !FILE_J) << 1) | ((b & !FILE_A) >> 1)) & LAND;
        s += 1;
    }
    t
};

const DELTAS: [i8; 4] = [10, -10, 1, -1];

#[inline]
fn shift(b: u128, dir: usize) -> u128 {
    match dir {
        0 => (b << 10) & BOARD,
        1 => b >> 10,
        2 => (b & !FILE_J) << 1,
        _ => (b & !FILE_A) >> 1,
    }
}

/// The squares a straight move covers, both ends included.
fn segment(from: u8, to: u8) -> u128 {
    let (a, b) = (from.min(to), from.max(to));
    let step = if a / FILES == b / FILES { 1 } else { FILES };
    let mut m = 0u128;
    let mut s = a;
    while s <= b {
        m |= 1u128 << s;
        s += step;
    }
    m
}

/// Each side's two-squares bookkeeping: the squares covered by its last moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct TwoSquares {
    /// Squares covered by the side's last moves, newest first.
    covered: [u128; MAX_TWO_SQUARE_LIMIT as usize],
    /// How many of the side's last moves in a row were made by the same piece (capped).
    run: u8,
    /// Where that piece stands now, or `NO_SQUARE` if it left the board.
    at: u8,
    /// The side's last move, for the chase rule's exception.
    last: (u8, u8),
    /// The squares every one of the last `limit` moves covered, when the run is long enough
    /// (0 otherwise): the piece on `at` may not cover two of them again.
    forbidden: u128,
}

impl TwoSquares {
    const fn new() -> Self {
        TwoSquares {
            covered: [0; MAX_TWO_SQUARE_LIMIT as usize],
            run: 0,
            at: NO_SQUARE,
            last: (NO_SQUARE, NO_SQUARE),
            forbidden: 0,
        }
    }
}

/// The continuous chase in progress, if any.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Chase {
    /// The chasing side; `None` when no chase is on.
    chaser: Option<Seat>,
    /// Where the chased piece stands.
    chased: u8,
    /// Board hashes of every position since the chase began (the position before the first
    /// threat included).
    positions: Vec<u64>,
}

/// A Stratego game: the arbiter's full state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stratego {
    options: StrategoOptions,
    cells: [Cell; SQUARES],
    occ: [u128; 2],
    movable: [u128; 2],
    scouts: [u128; 2],
    /// Squares whose piece's rank is public (shown in an attack, or a Scout's long move).
    known: u128,
    /// Squares whose piece has moved (public: it is no Bomb or Flag).
    moved: u128,
    turn: Seat,
    ply: u32,
    quiet: u32,
    outcome: Option<Outcome>,
    /// Pieces removed per seat, by piece (all public: every attack is shown).
    lost: [[u8; 12]; 2],
    /// Zobrist hash of the board (pieces with ranks and owners).
    hash: u64,
    /// The hash before the last ply.
    hash_before: u64,
    /// The pieces of the side to move that the last ply threatened (moved next to).
    threatened: u128,
    two: [TwoSquares; 2],
    chase: Chase,
    /// Squares whose piece has made a rescue (it may not make another).
    rescuers: u128,
    /// Rescues made per seat.
    rescued: [u8; 2],
}

/// What happened in one ply, in full (the arbiter's account).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StrategoEvent {
    /// 1-based ply number.
    pub ply: u32,
    /// Who moved.
    pub seat: Seat,
    /// The move.
    pub mv: Move,
    /// The moving piece.
    pub piece: Piece,
    /// Whether the moving piece's rank is public after this ply (an attack, a Scout's move
    /// of several squares, or known before).
    pub piece_public: bool,
    /// The attack, if the move was one (always public).
    pub attack: Option<Attack>,
    /// The rescue made, if any (always public).
    pub rescue: Option<Rescue>,
}

/// An attack, in full (public to everyone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Attack {
    /// The attacking piece.
    pub attacker: Piece,
    /// The attacked piece.
    pub defender: Piece,
    /// Who was removed.
    pub result: Duel,
}

/// One viewer's view of one ply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrategoView {
    /// 1-based ply number.
    pub ply: u32,
    /// The mover's seat name.
    pub seat: &'static str,
    /// From where.
    pub from: Square,
    /// To where.
    pub to: Square,
    /// The moving piece, if this viewer may know it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
    /// The attack, if the move was one: both ranks and the result, shown to everyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack: Option<Attack>,
    /// The rescue made, if any: the piece and where it was put, shown to everyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rescue: Option<Rescue>,
}

impl fmt::Display for StrategoView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)?;
        if let Some(a) = &self.attack {
            let sign = match a.result {
                Duel::AttackerWins => '>',
                Duel::DefenderWins => '<',
                Duel::BothRemoved => '=',
            };
            write!(f, "{{{}{sign}{}}}", a.attacker.code(), a.defender.code())?;
        }
        if let Some(r) = self.rescue {
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

/// One square as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SquareView {
    /// Whose piece stands there.
    pub owner: &'static str,
    /// Its rank, if this viewer may know it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
    /// Whether its rank is known to the opponent (shown in an attack, or a Scout's long move).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub known: bool,
    /// Whether it has moved (so it is no Bomb or Flag).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub moved: bool,
}

/// Everything one viewer may know of a Stratego game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrategoObservation {
    /// Always `stratego`.
    pub game: &'static str,
    /// Who is looking: a seat name, `spectator` or `arbiter`.
    pub viewer: &'static str,
    /// The seat to move, `null` once over.
    pub to_move: Option<&'static str>,
    /// Plies played.
    pub ply: u32,
    /// Consecutive plies without an attack.
    pub quiet_plies: u32,
    /// Every occupied square.
    pub board: crate::SquareMap<Square, SquareView>,
    /// The pieces each seat has lost (all public: attacks are shown), by rank.
    pub eliminated: BTreeMap<&'static str, Vec<&'static str>>,
    /// The outcome once over.
    pub result: Option<OutcomeView>,
}

/// Up to 4 directions × 9 distances of target sets, each with its source offset.
struct Targets {
    sets: [(u128, i8); 40],
    n: usize,
}

impl Stratego {
    fn piece_at(&self, sq: Square) -> Option<(Seat, Piece)> {
        let c = self.cells[sq.index()];
        (c != 0).then(|| (cell_seat(c), cell_piece(c)))
    }

    /// The piece on `sq`, as the arbiter sees it.
    #[must_use]
    pub fn at(&self, sq: Square) -> Option<(Seat, Piece)> {
        self.piece_at(sq)
    }

    /// The Zobrist hash of the board (pieces, ranks and owners).
    #[must_use]
    pub fn board_hash(&self) -> u64 {
        self.hash
    }

    /// Whether a chase is on, and who is chasing whose piece on which square.
    #[must_use]
    pub fn chase(&self) -> Option<(Seat, Square)> {
        self.chase.chaser.map(|s| (s, Square(self.chase.chased)))
    }

    fn empty(&self) -> u128 {
        LAND & !(self.occ[0] | self.occ[1])
    }

    /// Every pseudo-legal move of `me` (repetition rules not applied), as target sets.
    fn targets(&self, me: Seat) -> Targets {
        let mut t = Targets {
            sets: [(0, 0); 40],
            n: 0,
        };
        let empty = self.empty();
        let enemy = self.occ[me.other().index()];
        let far_enemy = if self.options.scout_strike { enemy } else { 0 };
        for (dir, &d) in DELTAS.iter().enumerate() {
            let step = shift(self.movable[me.index()], dir) & (empty | enemy);
            if step != 0 {
                t.sets[t.n] = (step, d);
                t.n += 1;
            }
            let mut run = shift(self.scouts[me.index()], dir) & empty;
            let mut k = 2i8;
            while run != 0 {
                let next = shift(run, dir);
                let to = next & (empty | far_enemy);
                if to != 0 {
                    t.sets[t.n] = (to, d * k);
                    t.n += 1;
                }
                run = next & empty;
                k += 1;
            }
        }
        t
    }

    fn has_pseudo_move(&self, me: Seat) -> bool {
        let open = self.empty() | self.occ[me.other().index()];
        let m = self.movable[me.index()];
        (shift(m, 0) | shift(m, 1) | shift(m, 2) | shift(m, 3)) & open != 0
    }

    /// Whether the repetition rules allow `me` the pseudo-legal move `from`-`to`.
    #[inline]
    fn repetition_ok(&self, me: Seat, from: u8, to: u8) -> bool {
        let two = &self.two[me.index()];
        if two.forbidden != 0
            && from == two.at
            && (two.forbidden & covered(from, to)).count_ones() >= 2
        {
            return false;
        }
        !self.chase_forbids(me, from, to)
    }

    /// The more-squares rule: whether `from`-`to` is a chasing move of `me` that would
    /// repeat a position of the chase (and is not the move straight back).
    fn chase_forbids(&self, me: Seat, from: u8, to: u8) -> bool {
        if self.chase.chaser != Some(me)
            || self.cells[to as usize] != 0
            || ADJACENT[to as usize] & (1u128 << self.chase.chased) == 0
        {
            return false;
        }
        let (lf, lt) = self.two[me.index()].last;
        if from == lt && to == lf {
            return false;
        }
        let c = self.cells[from as usize] as usize;
        let after = self.hash ^ ZOBRIST[from as usize][c] ^ ZOBRIST[to as usize][c];
        self.chase.positions.contains(&after)
    }

    fn has_legal_move(&self, me: Seat) -> bool {
        if self.two[me.index()].forbidden == 0 && self.chase.chaser != Some(me) {
            // Neither repetition rule restricts `me` now: every pseudo-legal move is legal.
            return self.has_pseudo_move(me);
        }
        // One-square moves first: almost always one of them is legal.
        let open = self.empty() | self.occ[me.other().index()];
        for (dir, &d) in DELTAS.iter().enumerate() {
            let mut bits = shift(self.movable[me.index()], dir) & open;
            while bits != 0 {
                let to = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                if self.repetition_ok(me, (to as i8 - d) as u8, to) {
                    return true;
                }
            }
        }
        let t = self.targets(me);
        for &(set, d) in &t.sets[..t.n] {
            let mut bits = set;
            while bits != 0 {
                let to = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                if self.repetition_ok(me, (to as i8 - d) as u8, to) {
                    return true;
                }
            }
        }
        self.two_steps(me)
            .into_iter()
            .any(|(from, to)| self.repetition_ok(me, from, to))
    }

    /// Why `mv` is illegal for the side to move, in the mover's terms; `None` if legal.
    fn illegal(&self, mv: Move) -> Option<String> {
        let me = self.turn;
        let name = |s: Seat| GameKind::Stratego.seat_name(s);
        let piece = match self.piece_at(mv.from) {
            None => return Some(format!("there is no piece on {}", mv.from)),
            Some((s, _)) if s != me => {
                return Some(format!(
                    "{} holds a {} piece; it is {}'s turn",
                    mv.from,
                    name(s),
                    name(me)
                ));
            }
            Some((_, p)) => p,
        };
        if !piece.is_movable() {
            return Some(format!("your {} on {} cannot move", piece.name(), mv.from));
        }
        if mv.to.is_lake() {
            return Some(format!("{} is a lake", mv.to));
        }
        if mv.from == mv.to {
            return Some("a move must leave its square".into());
        }
        let two_step = self.is_two_step(piece, mv.from, mv.to);
        let seg = covered(mv.from.0, mv.to.0);
        let dist = seg.count_ones() - 1;
        if two_step {
            if let Some(why) = self.two_step_error(mv.from, mv.to) {
                return Some(why);
            }
        } else {
            if mv.from.file() != mv.to.file() && mv.from.rank() != mv.to.rank() {
                return Some("pieces move in straight lines, never diagonally".into());
            }
            let between = seg & !mv.from.bit() & !mv.to.bit();
            if dist > 1 && piece != Piece::Scout {
                return Some(format!(
                    "only a Scout moves more than one square; your {} moves one{}",
                    piece.name(),
                    if self.options.captain_steps > 1 {
                        " (a Captain two)"
                    } else {
                        ""
                    }
                ));
            }
            if between & LAKES != 0 {
                return Some("a Scout cannot cross a lake".into());
            }
            if between & (self.occ[0] | self.occ[1]) != 0 {
                return Some("a Scout cannot jump over pieces".into());
            }
        }
        let target = self.piece_at(mv.to);
        match target {
            Some((s, _)) if s == me => {
                return Some(format!("{} holds one of your own pieces", mv.to));
            }
            Some(_) if !two_step && dist > 1 && !self.options.scout_strike => {
                return Some(
                    "a Scout may not move and attack in one move in this game (scout_strike is off)"
                        .into(),
                );
            }
            _ => {}
        }
        let two = &self.two[me.index()];
        if two.forbidden != 0 && mv.from.0 == two.at && (two.forbidden & seg).count_ones() >= 2 {
            return Some(format!(
                "the two-squares rule: this piece has already moved {} times in a row between the same two squares",
                self.options.two_square_limit.unwrap_or(0)
            ));
        }
        if self.chase_forbids(me, mv.from.0, mv.to.0) {
            return Some(
                "the more-squares rule: as the continuous chaser you may not repeat a position of this chase"
                    .into(),
            );
        }
        if let Some(r) = mv.rescue {
            return self.rescue_error(me, mv, piece, r);
        }
        None
    }

    fn put(&mut self, sq: usize, c: Cell) {
        let (seat, p) = (cell_seat(c).index(), cell_piece(c));
        let b = 1u128 << sq;
        self.cells[sq] = c;
        self.occ[seat] |= b;
        if p.is_movable() {
            self.movable[seat] |= b;
        }
        if p == Piece::Scout {
            self.scouts[seat] |= b;
        }
        self.hash ^= ZOBRIST[sq][c as usize];
    }

    fn take(&mut self, sq: usize) -> Cell {
        let c = self.cells[sq];
        let seat = cell_seat(c).index();
        let nb = !(1u128 << sq);
        self.cells[sq] = 0;
        self.occ[seat] &= nb;
        self.movable[seat] &= nb;
        self.scouts[seat] &= nb;
        self.known &= nb;
        self.rescuers &= nb;
        self.moved &= nb;
        self.hash ^= ZOBRIST[sq][c as usize];
        c
    }

    /// Applies a legal move; returns the event. The heart of the rules.
    fn apply(&mut self, mv: Move) -> StrategoEvent {
        let me = self.turn;
        let them = me.other();
        let (from, to) = (mv.from.index(), mv.to.index());
        let tb = 1u128 << to;
        let before = self.hash;
        let was_known = self.known & (1u128 << from) != 0;
        let was_rescuer = self.rescuers & (1u128 << from) != 0;
        let seg = covered(from as u8, to as u8);
        let mover = self.take(from);
        let piece = cell_piece(mover);
        let long = self.move_shows_rank(piece, mv);
        self.ply += 1;
        let mut attack = None;
        let stands = if self.cells[to] == 0 {
            self.put(to, mover);
            self.quiet += 1;
            true
        } else {
            self.quiet = 0;
            let target = self.cells[to];
            let defender = cell_piece(target);
            let result = self.options.battle(piece, defender);
            attack = Some(Attack {
                attacker: piece,
                defender,
                result,
            });
            match result {
                Duel::AttackerWins => {
                    self.take(to);
                    self.put(to, mover);
                    self.lost[them.index()][defender as usize] += 1;
                    if defender == Piece::Flag {
                        self.outcome = Some(Outcome::win(me, EndReason::FlagCaptured));
                    }
                    true
                }
                Duel::DefenderWins => {
                    self.known |= tb;
                    self.lost[me.index()][piece as usize] += 1;
                    false
                }
                Duel::BothRemoved => {
                    self.take(to);
                    self.lost[me.index()][piece as usize] += 1;
                    self.lost[them.index()][defender as usize] += 1;
                    false
                }
            }
        };
        let piece_public = was_known || long || attack.is_some();
        let mut rescue = None;
        if stands {
            self.moved |= tb;
            if piece_public {
                self.known |= tb;
            }
            if was_rescuer {
                self.rescuers |= tb;
            }
            if let Some(r) = mv.rescue {
                self.make_rescue(me, to, r);
                rescue = Some(r);
            }
        }
        self.track_two_squares(me, from as u8, to as u8, seg, stands);
        self.track_chase(me, from as u8, to as u8, attack.is_some(), before);
        self.turn = them;
        if self.outcome.is_none() {
            if self
                .options
                .max_quiet_plies
                .is_some_and(|n| self.quiet >= n)
            {
                self.outcome = Some(Outcome::draw(EndReason::QuietPlies));
            } else {
                // Both sides under the same legality as move generation (the repetition
                // rules included): a side left without a legal move loses at once.
                let them_can = self.has_legal_move(them);
                let me_can = self.has_legal_move(me);
                self.outcome = match (me_can, them_can) {
                    (true, true) => None,
                    (true, false) => Some(Outcome::win(me, EndReason::NoLegalMoves)),
                    (false, true) => Some(Outcome::win(them, EndReason::NoLegalMoves)),
                    (false, false) => Some(Outcome::draw(EndReason::NeitherCanMove)),
                };
            }
        }
        StrategoEvent {
            ply: self.ply,
            seat: me,
            mv,
            piece,
            piece_public,
            attack,
            rescue,
        }
    }

    fn track_two_squares(&mut self, me: Seat, from: u8, to: u8, seg: u128, stands: bool) {
        let Some(limit) = self.options.two_square_limit else {
            self.two[me.index()].last = (from, to);
            return;
        };
        let limit = limit as usize;
        let two = &mut self.two[me.index()];
        two.run = if two.at == from {
            (two.run + 1).min(limit as u8)
        } else {
            1
        };
        two.covered.copy_within(0..limit - 1, 1);
        two.covered[0] = seg;
        two.at = if stands { to } else { NO_SQUARE };
        two.last = (from, to);
        two.forbidden = if stands && two.run as usize >= limit {
            let and = two.covered[..limit].iter().fold(BOARD, |a, &m| a & m);
            if and.count_ones() >= 2 { and } else { 0 }
        } else {
            0
        };
    }

    fn track_chase(&mut self, me: Seat, from: u8, to: u8, attack: bool, before: u64) {
        if !self.options.chase_rule {
            return;
        }
        let them = me.other();
        let threatened_before = self.threatened;
        let now = self.hash;
        match self.chase.chaser {
            Some(c) if c == me => {
                if !attack && ADJACENT[to as usize] & (1u128 << self.chase.chased) != 0 {
                    self.chase.positions.push(now);
                } else {
                    self.chase.chaser = None;
                }
            }
            Some(_) => {
                if !attack && from == self.chase.chased {
                    self.chase.chased = to;
                    self.chase.positions.push(now);
                } else {
                    self.chase.chaser = None;
                }
            }
            None => {}
        }
        if self.chase.chaser.is_none() && !attack && threatened_before & (1u128 << from) != 0 {
            // An evasion of the piece the opponent just moved next to: a chase begins.
            self.chase.chaser = Some(them);
            self.chase.chased = to;
            self.chase.positions.clear();
            self.chase
                .positions
                .extend_from_slice(&[self.hash_before, before, now]);
        }
        self.hash_before = before;
        self.threatened = if attack {
            0
        } else {
            ADJACENT[to as usize] & self.occ[them.index()]
        };
    }

    /// Whether `viewer` may see the rank of `seat`'s piece whose rank is public or not.
    fn sees(viewer: Viewer, seat: Seat, public: bool) -> bool {
        viewer.sees_own(seat) || public
    }
}

impl Game for Stratego {
    const KIND: GameKind = GameKind::Stratego;
    type Options = StrategoOptions;
    type Move = Move;
    type Hidden = Setups;
    type Event = StrategoEvent;
    type View = StrategoView;
    type Observation = StrategoObservation;

    fn start(options: &StrategoOptions, hidden: Setups) -> Result<Self, SetupError> {
        // The fields are public: options built by hand are checked here too.
        options
            .validate()
            .map_err(|e| SetupError::Invalid(format!("the options are not valid: {e}")))?;
        let mut g = Stratego {
            options: options.clone(),
            cells: [0; SQUARES],
            occ: [0; 2],
            movable: [0; 2],
            scouts: [0; 2],
            known: 0,
            moved: 0,
            turn: Seat::First,
            ply: 0,
            quiet: 0,
            outcome: None,
            lost: [[0; 12]; 2],
            hash: 0,
            hash_before: 0,
            threatened: 0,
            two: [TwoSquares::new(), TwoSquares::new()],
            chase: Chase {
                chaser: None,
                chased: NO_SQUARE,
                positions: Vec::new(),
            },
            rescuers: 0,
            rescued: [0; 2],
        };
        for (i, setup) in hidden.0.iter().enumerate() {
            let seat = Seat::from_index(i);
            // Re-validate against these options: a setup made for another army is refused.
            let setup = Setup::new(seat, options, &setup.placements)?;
            for &(sq, p) in &setup.placements {
                if g.cells[sq.index()] != 0 {
                    return Err(SetupError::Invalid(format!(
                        "{sq} holds a piece of each side; the setups overlap"
                    )));
                }
                g.put(sq.index(), cell(seat, p));
            }
        }
        g.hash_before = g.hash;
        // A side that cannot move at the start loses at once (both: a draw).
        let (r, b) = (
            g.has_pseudo_move(Seat::First),
            g.has_pseudo_move(Seat::Second),
        );
        g.outcome = match (r, b) {
            (true, true) => None,
            (true, false) => Some(Outcome::win(Seat::First, EndReason::NoLegalMoves)),
            (false, true) => Some(Outcome::win(Seat::Second, EndReason::NoLegalMoves)),
            (false, false) => Some(Outcome::draw(EndReason::NeitherCanMove)),
        };
        Ok(g)
    }

    fn random_hidden(options: &StrategoOptions, rng: &mut GameRng) -> Setups {
        Setups(Seat::BOTH.map(|s| Setup::random(s, options, rng)))
    }

    fn hidden_from_json(
        options: &StrategoOptions,
        request: &serde_json::Map<String, serde_json::Value>,
        rng: &mut GameRng,
    ) -> Result<Setups, SetupError> {
        let given = match request.get("setups") {
            None | Some(serde_json::Value::Null) => serde_json::Map::new(),
            Some(serde_json::Value::Object(m)) => m.clone(),
            Some(_) => {
                return Err(SetupError::Invalid(
                    "setups must be an object {\"red\":{...},\"blue\":{...}}".into(),
                ));
            }
        };
        if let Some(k) = given
            .keys()
            .find(|k| GameKind::Stratego.parse_seat(k).is_none())
        {
            return Err(SetupError::Invalid(format!(
                "setups: {k:?} is not a seat; use red and blue"
            )));
        }
        let mut out = Vec::with_capacity(2);
        for seat in Seat::BOTH {
            let setup = match given.get(GameKind::Stratego.seat_name(seat)) {
                Some(v) => Setup::from_json(seat, options, v)?,
                None => Setup::random(seat, options, rng),
            };
            out.push(setup);
        }
        let [r, b]: [Setup; 2] = out.try_into().expect("two seats");
        Ok(Setups([r, b]))
    }

    fn hidden_part_names(_: &StrategoOptions) -> &'static [&'static str] {
        &PART_NAMES
    }

    fn hidden_parts(hidden: &Setups) -> Vec<HiddenPart> {
        hidden
            .0
            .iter()
            .enumerate()
            .map(|(i, s)| HiddenPart {
                name: PART_NAMES[i],
                owner: Some(Seat::from_index(i)),
                text: s.text(),
            })
            .collect()
    }

    fn hidden_from_parts(
        options: &StrategoOptions,
        parts: &BTreeMap<String, String>,
    ) -> Result<Setups, SetupError> {
        let get = |i: usize| {
            let text = parts
                .get(PART_NAMES[i])
                .ok_or_else(|| SetupError::Invalid(format!("the {} is missing", PART_NAMES[i])))?;
            Setup::parse(Seat::from_index(i), options, text)
        };
        Ok(Setups([get(0)?, get(1)?]))
    }

    fn options(&self) -> &StrategoOptions {
        &self.options
    }

    fn to_move(&self) -> Option<Seat> {
        self.outcome.is_none().then_some(self.turn)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        let me = self.turn;
        let t = self.targets(me);
        for &(set, d) in &t.sets[..t.n] {
            let mut bits = set;
            while bits != 0 {
                let to = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let from = (to as i8 - d) as u8;
                if self.repetition_ok(me, from, to) {
                    self.push_move(me, from, to, out);
                }
            }
        }
        for (from, to) in self.two_steps(me) {
            if self.repetition_ok(me, from, to) {
                self.push_move(me, from, to, out);
            }
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.outcome.is_none() && self.illegal(mv).is_none()
    }

    fn random_move(&self, rng: &mut GameRng) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        let me = self.turn;
        if self.options.captain_steps > 1 || self.options.rescues > 0 {
            // Two-square Captains and rescues: uniform over the full list.
            let mut v = Vec::new();
            self.legal_moves(&mut v);
            return (!v.is_empty()).then(|| v[rng.random_range(0..v.len())]);
        }
        let t = self.targets(me);
        let sets = &t.sets[..t.n];
        let total: u32 = sets.iter().map(|(b, _)| b.count_ones()).sum();
        if total == 0 {
            return None;
        }
        // Uniform over the pseudo-legal moves, redrawn while the repetition rules refuse
        // one: uniform over the legal moves. Few moves are ever refused; after a few
        // refusals, draw from the full list instead.
        for _ in 0..8 {
            let mut r = rng.random_range(0..total);
            for &(set, d) in sets {
                let n = set.count_ones();
                if r < n {
                    let mut bits = set;
                    for _ in 0..r {
                        bits &= bits - 1;
                    }
                    let to = bits.trailing_zeros() as u8;
                    let from = (to as i8 - d) as u8;
                    if self.repetition_ok(me, from, to) {
                        return Some(Move::new(Square(from), Square(to)));
                    }
                    break;
                }
                r -= n;
            }
        }
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        (!v.is_empty()).then(|| v[rng.random_range(0..v.len())])
    }

    fn play(&mut self, mv: Move) -> Result<StrategoEvent, PlayError> {
        if let Some(o) = self.outcome {
            return Err(PlayError::game_over(o));
        }
        if let Some(reason) = self.illegal(mv) {
            return Err(PlayError::Illegal {
                mv: mv.to_string(),
                reason,
            });
        }
        Ok(self.apply(mv))
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.apply(mv);
    }

    /// A record token with its attack part (`{7>3}`) left out: `b2-b1{7>5}+9@f7` is the
    /// move `b2-b1+9@f7`.
    fn parse_token(token: &str) -> Result<Move, PlayError> {
        match (token.find('{'), token.find('}')) {
            (Some(i), Some(j)) if i < j => format!("{}{}", &token[..i], &token[j + 1..]).parse(),
            _ => token.parse(),
        }
    }

    fn conclude(&mut self, outcome: Outcome) -> Result<(), PlayError> {
        if let Some(o) = self.outcome {
            return Err(PlayError::game_over(o));
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    fn view(&self, e: &StrategoEvent, viewer: Viewer) -> StrategoView {
        StrategoView {
            ply: e.ply,
            seat: GameKind::Stratego.seat_name(e.seat),
            from: e.mv.from,
            to: e.mv.to,
            piece: Self::sees(viewer, e.seat, e.piece_public).then_some(e.piece),
            attack: e.attack,
            rescue: e.rescue,
        }
    }

    fn observe(&self, viewer: Viewer) -> StrategoObservation {
        let kind = GameKind::Stratego;
        let board = Square::all()
            .filter_map(|sq| {
                let (seat, p) = self.piece_at(sq)?;
                let known = self.known & sq.bit() != 0;
                Some((
                    sq,
                    SquareView {
                        owner: kind.seat_name(seat),
                        piece: Self::sees(viewer, seat, known).then_some(p),
                        known,
                        moved: self.moved & sq.bit() != 0,
                    },
                ))
            })
            .collect();
        let eliminated = Seat::BOTH
            .iter()
            .map(|&seat| {
                let codes = Piece::ALL
                    .iter()
                    .flat_map(|&p| {
                        std::iter::repeat_n(p.code(), self.lost[seat.index()][p as usize] as usize)
                    })
                    .collect();
                (kind.seat_name(seat), codes)
            })
            .collect();
        StrategoObservation {
            game: kind.name(),
            viewer: kind.viewer_name(viewer),
            to_move: self.to_move().map(|s| kind.seat_name(s)),
            ply: self.ply,
            quiet_plies: self.quiet,
            board,
            eliminated,
            result: self.outcome.map(|o| o.view(kind)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lakes_and_areas() {
        for s in ["c5", "d5", "c6", "d6", "g5", "h5", "g6", "h6"] {
            assert!(s.parse::<Square>().unwrap().is_lake(), "{s}");
        }
        assert_eq!(LAKES.count_ones(), 8);
        assert_eq!(SetupArea::Standard.mask(Seat::First).count_ones(), 40);
        assert_eq!(SetupArea::Standard.mask(Seat::Second).count_ones(), 40);
        assert_eq!(SetupArea::Half.mask(Seat::Second).count_ones(), 46);
        assert_eq!(segment(0, 30).count_ones(), 4);
        assert_eq!(segment(33, 30).count_ones(), 4);
    }

    #[test]
    fn duel_table() {
        use Piece::*;
        assert_eq!(duel(Spy, Marshal), Duel::AttackerWins);
        assert_eq!(duel(Marshal, Spy), Duel::AttackerWins);
        assert_eq!(duel(Miner, Bomb), Duel::AttackerWins);
        assert_eq!(duel(Marshal, Bomb), Duel::DefenderWins);
        assert_eq!(duel(Scout, Flag), Duel::AttackerWins);
        assert_eq!(duel(Major, Major), Duel::BothRemoved);
        assert_eq!(duel(Scout, Miner), Duel::DefenderWins);
    }
}
