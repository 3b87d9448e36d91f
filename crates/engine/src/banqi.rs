//! Banqi (Dark Chess, Half Chess), exactly as `RULES.md` §3; see `docs/rules-banqi.md`.
//!
//! A 4 × 8 board written as files `a`–`d` and ranks `1`–`8` (the computer Dark Chess
//! convention). The 32 pieces are dealt face down by a seeded shuffle; nobody knows a
//! face-down piece: the deal is a hidden part owned by no seat, committed at the start and
//! revealed in the full record after the game. The first flip decides the colours: the
//! first mover plays the colour of the piece it turned up.
//!
//! Actions, as written in records: a flip is the bare square (`c3`, recorded `c3{K}` with
//! the piece it revealed); a move or capture is `a8-b8` (with `capture_face_down`, an
//! attempt on a face-down piece is recorded with the piece it turned up: `a8-b8{p}`); with
//! `chain_captures` every capture of a chain is its own ply by the same side, and `end`
//! ends a chain early.
//!
//! Every ply is public: all viewers see the same views. Only the face-down pieces are
//! secret, and they never appear in a player's or spectator's output.
//!
//! The state is a mailbox plus `u32` bitboards (one per colour and kind, the face-down set
//! and the occupancy), so that a random playout ply costs a few tens of nanoseconds. A
//! Zobrist hash is kept incrementally only when `repetition` or `chase_rule` is on.

use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::options::{limit_text, parse_bool, parse_choice, parse_limit, unknown_option};
use crate::{
    EndReason, Game, GameKind, GameOptions, GameRng, HiddenPart, OptionError, Outcome, OutcomeView,
    PlayError, Seat, SetupError, Viewer, square,
};

/// Files on the board (a–d).
pub const FILES: u8 = 4;
/// Ranks on the board (1–8).
pub const RANKS: u8 = 8;
const SQUARES: usize = 32;
const FILE_A: u32 = 0x1111_1111;
const FILE_D: u32 = 0x8888_8888;

// ---------------------------------------------------------------------------------------
// Pieces

/// A kind of Banqi piece (a xiangqi piece), in the Taiwan ranking, strongest first, with the
/// Cannon before the Soldier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// General (King): `K`. One per colour.
    General = 0,
    /// Advisor (Guard): `G`. Two per colour.
    Advisor,
    /// Elephant (Minister): `M`. Two per colour.
    Elephant,
    /// Chariot (Rook): `R`. Two per colour.
    Chariot,
    /// Horse (Knight): `N`. Two per colour.
    Horse,
    /// Cannon: `C`. Two per colour.
    Cannon,
    /// Soldier (Pawn): `P`. Five per colour.
    Soldier,
}

impl Kind {
    /// Every kind, in code order `K G M R N C P`.
    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Chariot,
        Kind::Horse,
        Kind::Cannon,
        Kind::Soldier,
    ];
    const CODES: [u8; 7] = *b"KGMRNCP";
    const NAMES: [&'static str; 7] = [
        "General", "Advisor", "Elephant", "Chariot", "Horse", "Cannon", "Soldier",
    ];
    const COUNTS: [u8; 7] = [1, 2, 2, 2, 2, 2, 5];

    /// The upper-case code letter.
    #[must_use]
    pub const fn code(self) -> char {
        Self::CODES[self as usize] as char
    }
    /// The English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    /// How many of this kind each colour has.
    #[must_use]
    pub const fn count(self) -> u8 {
        Self::COUNTS[self as usize]
    }
}

/// A colour: the first flip decides which seat plays which.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Red: upper-case codes.
    Red = 0,
    /// Black: lower-case codes.
    Black = 1,
}

impl Color {
    /// `red` or `black`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
    const fn from_index(i: usize) -> Color {
        if i == 0 { Color::Red } else { Color::Black }
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A piece: a colour and a kind. Written as one letter, upper case red (`K`), lower case
/// black (`k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its colour.
    pub color: Color,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// All fourteen pieces: red `K G M R N C P`, then black `k g m r n c p`.
    pub const ALL: [Piece; 14] = {
        let mut a = [Piece {
            color: Color::Red,
            kind: Kind::General,
        }; 14];
        let mut i = 0;
        while i < 14 {
            a[i] = Piece {
                color: Color::from_index(i / 7),
                kind: Kind::ALL[i % 7],
            };
            i += 1;
        }
        a
    };

    /// A piece of `color` and `kind`.
    #[must_use]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..14: red kinds, then black kinds.
    #[must_use]
    pub const fn index(self) -> usize {
        self.color as usize * 7 + self.kind as usize
    }

    /// The code letter: upper case red, lower case black.
    #[must_use]
    pub const fn code(self) -> char {
        let c = self.kind.code();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece with this code letter (case decides the colour).
    #[must_use]
    pub fn from_code(code: char) -> Option<Piece> {
        let k = Kind::CODES
            .iter()
            .position(|&c| c == code.to_ascii_uppercase() as u8)?;
        let color = if code.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, Kind::ALL[k]))
    }

    /// The piece written as this one-letter text.
    #[must_use]
    pub fn from_code_str(text: &str) -> Option<Piece> {
        let mut ch = text.chars();
        match (ch.next(), ch.next()) {
            (Some(c), None) => Piece::from_code(c),
            _ => None,
        }
    }

    const fn from_index(i: usize) -> Piece {
        Piece::ALL[i]
    }

    /// How many of this piece a full set has.
    #[must_use]
    pub const fn count(self) -> u8 {
        self.kind.count()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

const CODES_TEXT: &str = "K G M R N C P (red) or k g m r n c p (black)";

// ---------------------------------------------------------------------------------------
// Squares and moves

/// A square of the 4 × 8 board, `a1` = 0, `b1` = 1, … `d8` = 31.
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
    /// The index 0..32.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Every square, `a1` first, then `b1`, … `d8`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
    const fn bit(self) -> u32 {
        1 << self.0
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
            .ok_or_else(|| format!("{s:?} is not a square of the board (a1..d8)"))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(crate::game::square::name_str(self.file(), self.rank()))
    }
}

/// An action.
///
/// Written `c3` (flip), `a8-b8` (move, capture, or with `capture_face_down` an attempt on a
/// face-down piece) and `end` (end a capture chain early, with `chain_captures`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Turn up the face-down piece on this square.
    Flip(Square),
    /// Move one of one's own face-up pieces: one square to an empty square, or a capture
    /// (one square, or a Cannon's jump over one screen).
    Step {
        /// Where the piece stands.
        from: Square,
        /// Where it goes.
        to: Square,
    },
    /// End a capture chain (only with `chain_captures`, while a chain may go on).
    EndChain,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Flip(s) => write!(f, "{s}"),
            Move::Step { from, to } => write!(f, "{from}-{to}"),
            Move::EndChain => f.write_str("end"),
        }
    }
}

impl FromStr for Move {
    type Err = PlayError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("end") {
            return Ok(Move::EndChain);
        }
        let sq = |x: &str| {
            x.parse::<Square>()
                .map_err(|e| PlayError::Parse(format!("{s:?}: {e}")))
        };
        match t.split_once(['-', 'x']) {
            Some((a, b)) => Ok(Move::Step {
                from: sq(a)?,
                to: sq(b)?,
            }),
            None if t.len() >= 2 && t.len() <= 3 => Ok(Move::Flip(sq(t)?)),
            None => Err(PlayError::Parse(format!(
                "{s:?} is not a Banqi action; write a square to flip (c3), from-to to move or \
                 capture (a8-b8), or end to end a capture chain"
            ))),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Options

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

const OPTION_KEYS: [&str; 8] = [
    "ruleset",
    "cannon_direct",
    "capture_face_down",
    "chain_captures",
    "chase_rule",
    "repetition",
    "max_quiet_plies",
    "preset",
];
const RULESETS: [(&str, Ruleset); 3] = [
    ("taiwan", Ruleset::Taiwan),
    ("hongkong", Ruleset::HongKong),
    ("mainland", Ruleset::Mainland),
];
const REPETITIONS: [(&str, Repetition); 9] = [
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

// ---------------------------------------------------------------------------------------
// The deal

/// The deal: which piece lies face down on each of the 32 squares. Valid by construction:
/// exactly the 32 pieces of two xiangqi sets.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal([Piece; SQUARES]);

const PART_NAMES: [&str; 1] = ["Deal"];

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

    fn from_items<'a>(
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

// ---------------------------------------------------------------------------------------
// Board geometry and Zobrist keys

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const Z_PIECE: [[u64; SQUARES]; 14] = {
    let mut t = [[0u64; SQUARES]; 14];
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < SQUARES {
            t[p][s] = splitmix((p * SQUARES + s) as u64 * 7 + 1);
            s += 1;
        }
        p += 1;
    }
    t
};
const Z_SIDE: u64 = splitmix(0xB4_9C11);
const Z_CHAIN: [u64; SQUARES] = {
    let mut t = [0u64; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        t[s] = splitmix(0xC4A1_0000 + s as u64);
        s += 1;
    }
    t
};

/// Shifts of a bitboard one square north, south, east, west.
#[inline]
const fn shift(b: u32, dir: usize) -> u32 {
    match dir {
        0 => b << 4,
        1 => b >> 4,
        2 => (b & !FILE_D) << 1,
        _ => (b & !FILE_A) >> 1,
    }
}
const DELTAS: [i8; 4] = [4, -4, 1, -1];

const fn adjacent(sq: u8) -> u32 {
    let b = 1u32 << sq;
    shift(b, 0) | shift(b, 1) | shift(b, 2) | shift(b, 3)
}

/// The squares from `sq` in direction `dir`, as a bitboard.
const RAY_MASKS: [[u32; 4]; SQUARES] = {
    let mut t = [[0u32; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 4 {
            let mut cur = 1u32 << s;
            loop {
                cur = shift(cur, d);
                if cur == 0 {
                    break;
                }
                t[s][d] |= cur;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

impl BanqiOptions {
    /// Whether a piece of kind `attacker` captures one of kind `victim` by a one-square move
    /// under these options (the ruleset's ranking, the General/Soldier exceptions and
    /// `cannon_direct`; Taiwan Cannons otherwise capture only by jumping).
    #[must_use]
    pub fn takes_by_step(&self, attacker: Kind, victim: Kind) -> bool {
        adjacent_captures(self)[attacker as usize] & (1 << victim as u8) != 0
    }
}

/// Victim kinds (bit per [`Kind`]) each attacker kind captures by a one-square move.
fn adjacent_captures(o: &BanqiOptions) -> [u8; 7] {
    // Order of strength per ruleset, strongest first (index into Kind).
    let order: [Kind; 7] = match o.ruleset {
        Ruleset::Taiwan | Ruleset::Mainland => Kind::ALL,
        Ruleset::HongKong => [
            Kind::General,
            Kind::Chariot,
            Kind::Horse,
            Kind::Cannon,
            Kind::Advisor,
            Kind::Elephant,
            Kind::Soldier,
        ],
    };
    let rank = |k: Kind| order.iter().position(|&x| x == k).expect("every kind");
    let mut t = [0u8; 7];
    for a in Kind::ALL {
        for v in Kind::ALL {
            let mut ok = rank(a) <= rank(v);
            if a == Kind::General && v == Kind::Soldier {
                ok = o.ruleset == Ruleset::Mainland;
            }
            if a == Kind::Soldier && v == Kind::General {
                ok = true;
            }
            if a == Kind::Cannon && o.ruleset == Ruleset::Taiwan {
                ok = false;
            }
            if a == Kind::Cannon && o.cannon_direct && matches!(v, Kind::Soldier | Kind::Cannon) {
                ok = true;
            }
            if ok {
                t[a as usize] |= 1 << v as u8;
            }
        }
    }
    t
}

// ---------------------------------------------------------------------------------------
// State

/// A cell of the mailbox: 0 empty, else `1 + piece index`.
type Cell = u8;

/// A Banqi game: the arbiter's full state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Banqi {
    options: BanqiOptions,
    caps: [u8; 7],
    /// `caps` as lane masks: `capm[k][v]` is all ones when kind `k` takes kind `v`.
    capm: [[u32; 8]; 7],
    jump: bool,
    track: bool,
    cells: [Cell; SQUARES],
    /// Face-down squares.
    down: u32,
    /// Occupied squares.
    occ: u32,
    /// Face-up pieces by colour and kind.
    bb: [[u32; 8]; 2],
    /// Face-up pieces by colour.
    up: [u32; 2],
    /// Pieces of each colour still on the board, face up or down.
    remaining: [u8; 2],
    /// The colour of the first seat, once the first flip decided it.
    first_color: Option<Color>,
    turn: Seat,
    ply: u32,
    quiet: u32,
    /// The square of the piece continuing a capture chain.
    chain: Option<Square>,
    outcome: Option<Outcome>,
    /// Face-down pieces not yet seen, by piece index (public knowledge).
    unseen: [u8; 14],
    /// Captured pieces in capture order.
    captured: Vec<Piece>,
    hash: u64,
    /// Position hashes since the last flip or capture (the position after it first).
    history: Vec<u64>,
    /// Moves since the last flip or capture.
    recent: Vec<Move>,
    /// Whether each seat's last action was a chasing move.
    chasing: [bool; 2],
}

/// What one ply did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A face-down piece was turned up.
    Flip,
    /// A piece moved to an empty square.
    Move,
    /// A face-up enemy piece was captured.
    Capture,
    /// A capture was attempted on a face-down piece (`capture_face_down`): it was turned up,
    /// and taken if it could be.
    Attempt,
    /// A capture chain was ended.
    EndChain,
}

/// What happened in one ply, in full. Every part of it is public.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BanqiEvent {
    /// 1-based ply number.
    pub ply: u32,
    /// Who acted.
    pub seat: Seat,
    /// The action.
    pub mv: Move,
    /// What it did.
    pub action: Action,
    /// The piece that moved (moves, captures, attempts).
    pub piece: Option<Piece>,
    /// The piece turned up (flips, attempts).
    pub revealed: Option<Piece>,
    /// The piece captured.
    pub captured: Option<Piece>,
    /// The first seat's colour, when this ply decided the colours.
    pub colours_decided: Option<Color>,
    /// Whether the same seat acts again to continue a capture chain.
    pub chain_continues: bool,
}

/// One viewer's view of one ply. Banqi plies are public: every viewer gets the same view.
///
/// Its `Display` is the record token: `c3{K}` (flip), `a8-b8` (move or capture),
/// `a8-b8{p}` (attempt on a face-down piece), `end`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BanqiView {
    /// 1-based ply number.
    pub ply: u32,
    /// The acting seat's name (`first`/`second`).
    pub seat: &'static str,
    /// What the ply did.
    pub action: Action,
    /// The action as written (`c3`, `a8-b8`, `end`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The piece that moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
    /// The piece turned up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revealed: Option<Piece>,
    /// The piece captured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captured: Option<Piece>,
    /// Each seat's colour, when this ply decided them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colours: Option<BTreeMap<&'static str, Color>>,
    /// Whether the same seat acts again (a capture chain).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub chain_continues: bool,
}

impl fmt::Display for BanqiView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.mv)?;
        if let Some(p) = self.revealed {
            write!(f, "{{{p}}}")?;
        }
        Ok(())
    }
}

/// One square as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SquareView {
    /// Whether the piece lies face down.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub face_down: bool,
    /// The piece, if face up (or for the arbiter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
}

/// Everything one viewer may know of a Banqi game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BanqiObservation {
    /// Always `banqi`.
    pub game: &'static str,
    /// Who is looking: a seat name, `spectator` or `arbiter`.
    pub viewer: &'static str,
    /// The seat to move, `null` once over.
    pub to_move: Option<&'static str>,
    /// Plies played.
    pub ply: u32,
    /// Consecutive plies with neither a flip nor a capture.
    pub quiet_plies: u32,
    /// Each seat's colour once the first flip decided it (empty before).
    pub colours: BTreeMap<&'static str, Color>,
    /// Every occupied square: `{"piece":"K"}` face up, `{"face_down":true}` face down.
    pub board: crate::SquareMap<Square, SquareView>,
    /// The pieces still face down, by code, with how many of each (public: the unseen pool).
    pub face_down_pool: BTreeMap<String, u8>,
    /// Captured pieces of each colour, in capture order.
    pub captured: BTreeMap<&'static str, Vec<Piece>>,
    /// The square of the piece that may continue a capture chain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain_from: Option<Square>,
    /// The outcome once over.
    pub result: Option<OutcomeView>,
}

impl Banqi {
    /// The piece on `sq` (face up or down), as the arbiter sees it, and whether it is face
    /// down.
    #[must_use]
    pub fn at(&self, sq: Square) -> Option<(Piece, bool)> {
        let c = self.cells[sq.index()];
        (c != 0).then(|| (Piece::from_index(c as usize - 1), self.down & sq.bit() != 0))
    }

    /// A position from a diagram, for puzzles, tests and analysis: 8 rows, rank 8 first,
    /// of 4 space-separated cells each: a piece code (`K`, `p`: face up), `?` and a code
    /// (`?K`: face down), or `.` (empty). Pieces missing from the diagram count as
    /// captured. `first` is the first seat's colour, `to_move` the seat to move. Such a
    /// position has no record of how it arose, so it cannot be written as a replayable
    /// record; play it with [`Game::play`].
    ///
    /// # Errors
    /// A malformed diagram or more pieces than a set holds; the message names the rank or
    /// the square.
    pub fn from_diagram(
        options: &BanqiOptions,
        diagram: &str,
        first: Color,
        to_move: Seat,
    ) -> Result<Banqi, SetupError> {
        let rows: Vec<&str> = diagram
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if rows.len() != RANKS as usize {
            return Err(SetupError::Invalid(format!(
                "a diagram has 8 rows (rank 8 first), not {}",
                rows.len()
            )));
        }
        let mut g = Banqi::start(options, Deal(Deal::sorted_pieces()))?;
        g.cells = [0; SQUARES];
        g.down = 0;
        g.occ = 0;
        g.remaining = [0; 2];
        let mut present = [0u8; 14];
        let mut unseen = [0u8; 14];
        for (i, row) in rows.iter().enumerate() {
            let rank = RANKS - 1 - i as u8;
            let cells: Vec<&str> = row.split_whitespace().collect();
            if cells.len() != FILES as usize {
                return Err(SetupError::Invalid(format!(
                    "diagram rank {}: {row:?} must have 4 cells",
                    rank + 1
                )));
            }
            for (f, cell) in cells.iter().enumerate() {
                let sq = Square::new(f as u8, rank).expect("on the board");
                if *cell == "." {
                    continue;
                }
                let (down, code) = match cell.strip_prefix('?') {
                    Some(c) => (true, c),
                    None => (false, *cell),
                };
                let p = Piece::from_code_str(code).ok_or_else(|| SetupError::UnknownPiece {
                    seat: "diagram".into(),
                    square: sq.to_string(),
                    code: (*cell).into(),
                    known: format!("{CODES_TEXT}, ? before a code for face down, . for empty"),
                })?;
                present[p.index()] += 1;
                if present[p.index()] > p.count() {
                    return Err(SetupError::WrongCount {
                        seat: "diagram".into(),
                        piece: p.code().to_string(),
                        expected: u32::from(p.count()),
                        found: u32::from(present[p.index()]),
                    });
                }
                g.cells[sq.index()] = p.index() as u8 + 1;
                g.occ |= sq.bit();
                g.remaining[p.color as usize] += 1;
                if down {
                    g.down |= sq.bit();
                    unseen[p.index()] += 1;
                } else {
                    g.bb[p.color as usize][p.kind as usize] |= sq.bit();
                    g.up[p.color as usize] |= sq.bit();
                }
            }
        }
        g.unseen = unseen;
        for p in Piece::ALL {
            for _ in present[p.index()]..p.count() {
                g.captured.push(p);
            }
        }
        g.first_color = Some(first);
        g.turn = to_move;
        g.hash = 0;
        for s in Square::all() {
            if let Some((p, false)) = g.at(s) {
                g.hash ^= Z_PIECE[p.index()][s.index()];
            }
        }
        if to_move == Seat::Second {
            g.hash ^= Z_SIDE;
        }
        g.history.clear();
        if g.track {
            g.history.push(g.hash);
        }
        for seat in Seat::BOTH {
            let c = g.colour_of(seat).expect("colours given") as usize;
            if g.remaining[c] == 0 {
                g.outcome = Some(Outcome::win(seat.other(), EndReason::NoPiecesLeft));
                return Ok(g);
            }
        }
        if !g.has_action() {
            g.outcome = Some(Outcome::win(to_move.other(), EndReason::NoLegalMoves));
        }
        Ok(g)
    }

    /// The colour `seat` plays, once the first flip decided it.
    #[must_use]
    pub fn colour_of(&self, seat: Seat) -> Option<Color> {
        self.first_color.map(|c| match seat {
            Seat::First => c,
            Seat::Second => c.other(),
        })
    }

    /// The pieces still face down, by [`Piece::index`]: public knowledge (every flip and
    /// capture is public).
    #[must_use]
    pub fn unseen_pool(&self) -> [u8; 14] {
        self.unseen
    }

    /// The chance event of flipping `sq`: each piece it may turn out to be, with its
    /// probability given everything revealed so far (every face-down square is equally
    /// likely to hold any unseen piece). `None` unless `sq` is face down.
    ///
    /// This uses only public knowledge; the arbiter's deal decides what a real flip reveals.
    #[must_use]
    pub fn flip_distribution(&self, sq: Square) -> Option<Vec<(Piece, f64)>> {
        if self.down & sq.bit() == 0 {
            return None;
        }
        let total: u32 = self.unseen.iter().map(|&n| u32::from(n)).sum();
        Some(
            Piece::ALL
                .iter()
                .filter(|p| self.unseen[p.index()] > 0)
                .map(|&p| (p, f64::from(self.unseen[p.index()]) / f64::from(total)))
                .collect(),
        )
    }

    /// Makes the face-down piece on `sq` be `piece` by swapping it with another face-down
    /// square holding `piece`: a determinization for AI search (a chance outcome chosen
    /// before playing the flip). Returns `false`, changing nothing, if `sq` is not face down
    /// or no face-down square holds `piece`. Never use this on the arbiter's game.
    pub fn set_face_down(&mut self, sq: Square, piece: Piece) -> bool {
        if self.down & sq.bit() == 0 {
            return false;
        }
        let want = piece.index() as u8 + 1;
        if self.cells[sq.index()] == want {
            return true;
        }
        let mut d = self.down;
        while d != 0 {
            let s = d.trailing_zeros() as usize;
            d &= d - 1;
            if self.cells[s] == want {
                self.cells.swap(s, sq.index());
                return true;
            }
        }
        false
    }

    #[inline]
    fn my_color(&self) -> Option<usize> {
        self.first_color.map(|c| {
            (c as usize)
                ^ match self.turn {
                    Seat::First => 0,
                    Seat::Second => 1,
                }
        })
    }

    /// Victims of an enemy of colour `en` that attacker kind `k` captures adjacently.
    #[inline]
    fn victims(&self, k: usize, en: usize) -> u32 {
        let m = &self.capm[k];
        let e = &self.bb[en];
        e.iter().zip(m).fold(0, |v, (a, b)| v | (a & b))
    }

    /// The target of a Cannon jump from `from` in `dir`: the first piece after exactly one
    /// screen, if any.
    #[inline]
    fn jump_target(&self, from: usize, dir: usize) -> Option<usize> {
        let mut b = RAY_MASKS[from][dir] & self.occ;
        if b.count_ones() < 2 {
            return None;
        }
        if DELTAS[dir] > 0 {
            b &= b - 1;
            Some(b.trailing_zeros() as usize)
        } else {
            b &= !(1 << (31 - b.leading_zeros()));
            Some(31 - b.leading_zeros() as usize)
        }
    }

    /// The destinations of one-square moves and captures of colour `me`'s face-up pieces
    /// (only from `restrict`), one bitboard per direction: the source of a destination `t`
    /// in direction `dir` is `t - DELTAS[dir]` (pieces of different kinds stand on
    /// different squares, so the directions' sets never mix them up). Without `with_empty`
    /// only captures (and attempts on face-down pieces) are included.
    #[inline(always)]
    fn step_targets(&self, me: usize, restrict: u32, with_empty: bool) -> [u32; 4] {
        let en = 1 - me;
        let empty = if with_empty { !self.occ } else { 0 };
        let fd = if self.options.capture_face_down {
            self.down
        } else {
            0
        };
        let mut out = [0u32; 4];
        for k in 0..7 {
            let pcs = self.bb[me][k] & restrict;
            if pcs == 0 {
                continue;
            }
            let mut tgt = empty | self.victims(k, en);
            if self.caps[k] != 0 {
                tgt |= fd;
            }
            for (dir, o) in out.iter_mut().enumerate() {
                *o |= shift(pcs, dir) & tgt;
            }
        }
        out
    }

    /// Cannon jumps of colour `me` (Taiwan rules), only from `restrict`.
    #[inline]
    fn gen_jumps(&self, me: usize, restrict: u32, mut push: impl FnMut(Move)) {
        if !self.jump {
            return;
        }
        let mut c = self.bb[me][Kind::Cannon as usize] & restrict;
        if c == 0 {
            return;
        }
        let fd = if self.options.capture_face_down {
            self.down
        } else {
            0
        };
        let jt = self.up[1 - me] | fd;
        while c != 0 {
            let from = c.trailing_zeros() as usize;
            c &= c - 1;
            for dir in 0..4 {
                if let Some(t) = self.jump_target(from, dir) {
                    if jt & (1 << t) != 0 {
                        push(Move::Step {
                            from: Square(from as u8),
                            to: Square(t as u8),
                        });
                    }
                }
            }
        }
    }

    /// Generates every capture and move of colour `me`'s face-up pieces (chain: only
    /// captures from the chain square).
    #[inline]
    fn gen_steps(&self, me: usize, only_from: Option<Square>, mut push: impl FnMut(Move)) {
        let restrict = only_from.map_or(u32::MAX, Square::bit);
        let t = self.step_targets(me, restrict, only_from.is_none());
        for (dir, &bits) in t.iter().enumerate() {
            let mut d = bits;
            while d != 0 {
                let to = d.trailing_zeros() as u8;
                d &= d - 1;
                push(Move::Step {
                    from: Square((to as i8 - DELTAS[dir]) as u8),
                    to: Square(to),
                });
            }
        }
        self.gen_jumps(me, restrict, push);
    }

    /// Every legal action of the side to move, before the chase filter.
    fn gen_all(&self, mut push: impl FnMut(Move)) {
        if let Some(sq) = self.chain {
            let me = self.my_color().expect("colours known in a chain");
            self.gen_steps(me, Some(sq), &mut push);
            push(Move::EndChain);
            return;
        }
        let mut d = self.down;
        while d != 0 {
            let s = d.trailing_zeros() as u8;
            d &= d - 1;
            push(Move::Flip(Square(s)));
        }
        if let Some(me) = self.my_color() {
            self.gen_steps(me, None, push);
        }
    }

    /// The squares the piece of kind `k` and colour `me` on `sq` attacks (could capture
    /// next), face-up enemies only.
    fn attacks(&self, me: usize, k: usize, sq: usize) -> u32 {
        let en = 1 - me;
        let mut a = adjacent(sq as u8) & self.victims(k, en);
        if self.jump && k == Kind::Cannon as usize {
            for dir in 0..4 {
                if let Some(t) = self.jump_target(sq, dir) {
                    a |= (1 << t) & self.up[en];
                }
            }
        }
        a
    }

    /// Whether a move to an empty square is a chase, and the hash after it.
    fn chase_info(&self, from: Square, to: Square) -> (bool, u64) {
        let mut g = self.clone();
        let me = g.my_color().expect("moves need colours");
        let p = g.cells[from.index()] as usize - 1;
        g.cells[to.index()] = g.cells[from.index()];
        g.cells[from.index()] = 0;
        let fb = from.bit() | to.bit();
        g.bb[me][p % 7] ^= fb;
        g.up[me] ^= fb;
        g.occ ^= fb;
        let chase = g.attacks(me, p % 7, to.index()) != 0;
        let h = self.hash ^ Z_PIECE[p][from.index()] ^ Z_PIECE[p][to.index()] ^ Z_SIDE;
        (chase, h)
    }

    /// Whether the chase rule forbids `mv`: a chasing move by a side whose previous move
    /// was also a chase, leading to a position that already occurred since the last flip or
    /// capture.
    fn chase_forbidden(&self, mv: Move) -> bool {
        if !self.options.chase_rule || self.chain.is_some() {
            return false;
        }
        let Move::Step { from, to } = mv else {
            return false;
        };
        if self.occ & to.bit() != 0 || !self.chasing[self.turn.index()] {
            return false;
        }
        let (chase, h) = self.chase_info(from, to);
        chase && self.history.contains(&h)
    }

    fn has_action(&self) -> bool {
        if self.chain.is_some() {
            return true;
        }
        if self.down != 0 {
            return true;
        }
        let Some(me) = self.my_color() else {
            return false;
        };
        let own = self.up[me];
        if (shift(own, 0) | shift(own, 1) | shift(own, 2) | shift(own, 3)) & !self.occ != 0
            && !self.options.chase_rule
        {
            return true;
        }
        if !self.options.chase_rule {
            let t = self.step_targets(me, u32::MAX, true);
            if t.iter().any(|&b| b != 0) {
                return true;
            }
        }
        let mut any = false;
        self.gen_steps(me, None, |mv| {
            if !any && !self.chase_forbidden(mv) {
                any = true;
            }
        });
        any
    }

    /// Why `mv` is illegal now, in the mover's terms (never naming a face-down piece).
    fn illegal(&self, mv: Move) -> Option<String> {
        let mut legal = false;
        self.gen_all(|m| legal |= m == mv);
        if legal {
            return if self.chase_forbidden(mv) {
                Some(
                    "the chase rule forbids continuing an endless chase into a position that \
                     already occurred"
                        .into(),
                )
            } else {
                None
            };
        }
        if let Some(sq) = self.chain {
            return Some(format!(
                "you are in a capture chain: capture again with the piece on {sq}, or write end"
            ));
        }
        Some(match mv {
            Move::EndChain => "there is no capture chain to end".into(),
            Move::Flip(sq) => match self.at(sq) {
                None => format!("{sq} is empty; only a face-down piece can be flipped"),
                Some(_) => format!("{sq} is already face up"),
            },
            Move::Step { from, to } => self.why_step(from, to),
        })
    }

    fn why_step(&self, from: Square, to: Square) -> String {
        let Some(me) = self.my_color() else {
            return "no piece is face up yet: the first action must flip a piece".into();
        };
        let me_c = Color::from_index(me);
        let Some((p, down)) = self.at(from) else {
            return format!("there is no piece on {from}");
        };
        if down {
            return format!("{from} is face down; only your own face-up pieces move");
        }
        if p.color != me_c {
            return format!(
                "{from} holds a {} piece; you play {}",
                p.color.name(),
                me_c.name()
            );
        }
        let adj = adjacent(from.0) & to.bit() != 0;
        let target = self.at(to);
        match target {
            None if adj => "this move is not allowed now".into(),
            None => "a piece moves one square forward, backward or sideways, never diagonally or further"
                .into(),
            Some((_, true)) => {
                if self.options.capture_face_down {
                    format!("the {} on {from} cannot attack {to} this way", p.kind.name())
                } else {
                    format!("{to} is face down; only face-up enemy pieces can be captured (flip it instead)")
                }
            }
            Some((q, false)) if q.color == me_c => format!("{to} holds one of your own pieces"),
            Some((q, false)) => {
                if p.kind == Kind::Cannon && self.jump {
                    if adj && self.caps[Kind::Cannon as usize] & (1 << q.kind as u8) == 0 {
                        format!(
                            "a Cannon cannot capture an adjacent {}; it captures by jumping over exactly one piece",
                            q.kind.name()
                        )
                    } else {
                        format!(
                            "a Cannon captures along a rank or file over exactly one piece, with only empty squares otherwise between; that is not so from {from} to {to}"
                        )
                    }
                } else if !adj {
                    "a piece moves and captures one square forward, backward or sideways".into()
                } else {
                    format!(
                        "a {} cannot capture a {} under {} rules",
                        p.kind.name(),
                        q.kind.name(),
                        RULESETS
                            .iter()
                            .find(|(_, r)| *r == self.options.ruleset)
                            .map_or("these", |(n, _)| *n)
                    )
                }
            }
        }
    }

    #[inline]
    fn put_up(&mut self, sq: usize, p: usize) {
        let b = 1u32 << sq;
        self.bb[p / 7][p % 7] |= b;
        self.up[p / 7] |= b;
        if self.track {
            self.hash ^= Z_PIECE[p][sq];
        }
    }

    #[inline]
    fn take_up(&mut self, sq: usize, p: usize) {
        let b = 1u32 << sq;
        self.bb[p / 7][p % 7] &= !b;
        self.up[p / 7] &= !b;
        if self.track {
            self.hash ^= Z_PIECE[p][sq];
        }
    }

    /// Applies a legal action; returns the event. The heart of the rules.
    fn apply(&mut self, mv: Move) -> BanqiEvent {
        let seat = self.turn;
        self.ply += 1;
        let mut ev = BanqiEvent {
            ply: self.ply,
            seat,
            mv,
            action: Action::Move,
            piece: None,
            revealed: None,
            captured: None,
            colours_decided: None,
            chain_continues: false,
        };
        let mut irreversible = false;
        let mut chase_now = false;
        if self.track {
            if let Some(c) = self.chain {
                self.hash ^= Z_CHAIN[c.index()];
            }
        }
        let was_chain = self.chain.take();
        match mv {
            Move::Flip(sq) => {
                let s = sq.index();
                let p = self.cells[s] as usize - 1;
                self.down &= !sq.bit();
                self.unseen[p] -= 1;
                self.put_up(s, p);
                let piece = Piece::from_index(p);
                if self.first_color.is_none() {
                    let c = match seat {
                        Seat::First => piece.color,
                        Seat::Second => piece.color.other(),
                    };
                    self.first_color = Some(c);
                    ev.colours_decided = Some(c);
                }
                ev.action = Action::Flip;
                ev.revealed = Some(piece);
                irreversible = true;
            }
            Move::Step { from, to } => {
                let (f, t) = (from.index(), to.index());
                let p = self.cells[f] as usize - 1;
                let me = p / 7;
                ev.piece = Some(Piece::from_index(p));
                let tb = to.bit();
                let mut capture = None;
                if self.down & tb != 0 {
                    // An attempt on a face-down piece: it is turned up, and taken if it can be.
                    let v = self.cells[t] as usize - 1;
                    self.down &= !tb;
                    self.unseen[v] -= 1;
                    ev.action = Action::Attempt;
                    ev.revealed = Some(Piece::from_index(v));
                    irreversible = true;
                    let adj = adjacent(from.0) & tb != 0;
                    let ok = v / 7 != me
                        && if adj {
                            self.caps[p % 7] & (1 << (v % 7)) != 0
                        } else {
                            true // a Cannon's jump takes any piece
                        };
                    if ok {
                        capture = Some(v);
                    } else {
                        self.put_up(t, v);
                    }
                } else if self.occ & tb != 0 {
                    let v = self.cells[t] as usize - 1;
                    self.take_up(t, v);
                    ev.action = Action::Capture;
                    capture = Some(v);
                    irreversible = true;
                }
                if let Some(v) = capture {
                    self.remaining[v / 7] -= 1;
                    self.occ &= !tb;
                    let vp = Piece::from_index(v);
                    self.captured.push(vp);
                    ev.captured = Some(vp);
                }
                if ev.action != Action::Attempt || capture.is_some() {
                    self.cells[t] = self.cells[f];
                    self.cells[f] = 0;
                    self.occ = (self.occ & !from.bit()) | tb;
                    self.take_up(f, p);
                    self.put_up(t, p);
                    if capture.is_none() && self.options.chase_rule {
                        chase_now = self.attacks(me, p % 7, t) != 0;
                    }
                }
                if capture.is_some() && self.options.chain_captures && self.remaining[1 - me] > 0 {
                    let mut more = false;
                    self.gen_steps(me, Some(to), |_| more = true);
                    if more {
                        self.chain = Some(to);
                        ev.chain_continues = true;
                    }
                }
            }
            Move::EndChain => {
                ev.action = Action::EndChain;
                debug_assert!(was_chain.is_some());
            }
        }
        if irreversible {
            self.quiet = 0;
        } else if mv != Move::EndChain {
            self.quiet += 1;
        }
        self.chasing[seat.index()] = chase_now;
        if !ev.chain_continues {
            self.turn = seat.other();
            if self.track {
                self.hash ^= Z_SIDE;
            }
        } else if self.track {
            self.hash ^= Z_CHAIN[to_square(mv).index()];
        }
        if self.track {
            if irreversible {
                self.history.clear();
                self.recent.clear();
            } else {
                self.recent.push(mv);
            }
            self.history.push(self.hash);
        }
        // The end of the game.
        let enemy = self.colour_of(seat).map(|c| c.other() as usize);
        if enemy.is_some_and(|e| self.remaining[e] == 0) {
            self.outcome = Some(Outcome::win(seat, EndReason::NoPiecesLeft));
        } else if self
            .options
            .max_quiet_plies
            .is_some_and(|n| self.quiet >= n)
        {
            self.outcome = Some(Outcome::draw(EndReason::QuietPlies));
        } else if self.repeated() {
            self.outcome = Some(Outcome::draw(EndReason::Repetition));
        } else if !self.has_action() {
            self.outcome = Some(Outcome::win(self.turn.other(), EndReason::NoLegalMoves));
        }
        ev
    }

    fn repeated(&self) -> bool {
        match self.options.repetition {
            Repetition::Off => false,
            Repetition::Threefold => self.history.iter().filter(|&&h| h == self.hash).count() >= 3,
            Repetition::Cycle => {
                let r = &self.recent;
                let n = r.len();
                (1..=n / 3).any(|k| {
                    r[n - k..] == r[n - 2 * k..n - k] && r[n - k..] == r[n - 3 * k..n - 2 * k]
                })
            }
        }
    }
}

/// The index of the `n`-th set bit of `b` (from the lowest).
#[inline]
fn nth_bit(mut b: u32, mut n: u32) -> u8 {
    let mut base = 0;
    for width in [16u32, 8, 4] {
        let low = (b & ((1 << width) - 1)).count_ones();
        if n >= low {
            n -= low;
            b >>= width;
            base += width;
        }
    }
    for _ in 0..n {
        b &= b - 1;
    }
    (base + b.trailing_zeros()) as u8
}

fn to_square(mv: Move) -> Square {
    match mv {
        Move::Flip(s) | Move::Step { to: s, .. } => s,
        Move::EndChain => Square(0),
    }
}

impl Game for Banqi {
    const KIND: GameKind = GameKind::Banqi;

    fn seat_colours(&self) -> Option<[&'static str; 2]> {
        self.first_color.map(|c| [c.name(), c.other().name()])
    }
    type Options = BanqiOptions;
    type Move = Move;
    type Hidden = Deal;
    type Event = BanqiEvent;
    type View = BanqiView;
    type Observation = BanqiObservation;

    fn start(options: &BanqiOptions, hidden: Deal) -> Result<Self, SetupError> {
        let deal = Deal::new(hidden.0)?;
        let mut cells = [0; SQUARES];
        let mut unseen = [0u8; 14];
        for s in Square::all() {
            let p = deal.at(s);
            cells[s.index()] = p.index() as u8 + 1;
            unseen[p.index()] += 1;
        }
        let track = options.repetition != Repetition::Off || options.chase_rule;
        let mut g = Banqi {
            options: options.clone(),
            caps: adjacent_captures(options),
            capm: adjacent_captures(options)
                .map(|c| std::array::from_fn(|v| if c & (1 << v) != 0 { u32::MAX } else { 0 })),
            jump: options.ruleset == Ruleset::Taiwan,
            track,
            cells,
            down: u32::MAX,
            occ: u32::MAX,
            bb: [[0; 8]; 2],
            up: [0; 2],
            remaining: [16, 16],
            first_color: None,
            turn: Seat::First,
            ply: 0,
            quiet: 0,
            chain: None,
            outcome: None,
            unseen,
            captured: Vec::new(),
            hash: 0,
            history: Vec::new(),
            recent: Vec::new(),
            chasing: [false; 2],
        };
        if track {
            g.history.push(0);
        }
        Ok(g)
    }

    fn random_hidden(_: &BanqiOptions, rng: &mut GameRng) -> Deal {
        Deal::random(rng)
    }

    fn hidden_from_json(
        _: &BanqiOptions,
        request: &serde_json::Map<String, serde_json::Value>,
        rng: &mut GameRng,
    ) -> Result<Deal, SetupError> {
        match request.get("deal") {
            None | Some(serde_json::Value::Null) => Ok(Deal::random(rng)),
            Some(v) => Deal::from_json(v),
        }
    }

    fn hidden_part_names(_: &BanqiOptions) -> &'static [&'static str] {
        &PART_NAMES
    }

    fn hidden_parts(hidden: &Deal) -> Vec<HiddenPart> {
        vec![HiddenPart {
            name: PART_NAMES[0],
            owner: None,
            text: hidden.text(),
        }]
    }

    fn hidden_from_parts(
        _: &BanqiOptions,
        parts: &BTreeMap<String, String>,
    ) -> Result<Deal, SetupError> {
        let text = parts
            .get(PART_NAMES[0])
            .ok_or_else(|| SetupError::Invalid("the Deal is missing".into()))?;
        Deal::parse(text)
    }

    fn options(&self) -> &BanqiOptions {
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
        if self.options.chase_rule {
            self.gen_all(|m| {
                if !self.chase_forbidden(m) {
                    out.push(m);
                }
            });
        } else {
            self.gen_all(|m| out.push(m));
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.outcome.is_none() && self.illegal(mv).is_none()
    }

    fn random_move(&self, rng: &mut GameRng) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        if self.options.chase_rule || self.chain.is_some() {
            let mut v = Vec::new();
            self.legal_moves(&mut v);
            return (!v.is_empty()).then(|| v[rng.random_range(0..v.len())]);
        }
        let flips = self.down.count_ones();
        let mut t = [0u32; 4];
        let mut jumps = [Move::EndChain; 8];
        let mut nj = 0;
        if let Some(me) = self.my_color() {
            t = self.step_targets(me, u32::MAX, true);
            self.gen_jumps(me, u32::MAX, |m| {
                jumps[nj] = m;
                nj += 1;
            });
        }
        let counts = t.map(u32::count_ones);
        let total = flips + counts.iter().sum::<u32>() + nj as u32;
        if total == 0 {
            return None;
        }
        let mut r = rng.random_range(0..total);
        if r < flips {
            return Some(Move::Flip(Square(nth_bit(self.down, r))));
        }
        r -= flips;
        for dir in 0..4 {
            if r < counts[dir] {
                let to = nth_bit(t[dir], r);
                return Some(Move::Step {
                    from: Square((to as i8 - DELTAS[dir]) as u8),
                    to: Square(to),
                });
            }
            r -= counts[dir];
        }
        Some(jumps[r as usize])
    }

    fn play(&mut self, mv: Move) -> Result<BanqiEvent, PlayError> {
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

    fn conclude(&mut self, outcome: Outcome) -> Result<(), PlayError> {
        if let Some(o) = self.outcome {
            return Err(PlayError::game_over(o));
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    fn view(&self, e: &BanqiEvent, _viewer: Viewer) -> BanqiView {
        let kind = GameKind::Banqi;
        BanqiView {
            ply: e.ply,
            seat: kind.seat_name(e.seat),
            action: e.action,
            mv: e.mv.to_string(),
            piece: e.piece,
            revealed: e.revealed,
            captured: e.captured,
            colours: e.colours_decided.map(|c| {
                BTreeMap::from([
                    (kind.seat_name(Seat::First), c),
                    (kind.seat_name(Seat::Second), c.other()),
                ])
            }),
            chain_continues: e.chain_continues,
        }
    }

    fn observe(&self, viewer: Viewer) -> BanqiObservation {
        let kind = GameKind::Banqi;
        let all = viewer == Viewer::Arbiter;
        let board = Square::all()
            .filter_map(|sq| {
                let (p, down) = self.at(sq)?;
                Some((
                    sq,
                    SquareView {
                        face_down: down,
                        piece: (!down || all).then_some(p),
                    },
                ))
            })
            .collect();
        let mut captured: BTreeMap<&'static str, Vec<Piece>> =
            BTreeMap::from([("red", Vec::new()), ("black", Vec::new())]);
        for p in &self.captured {
            captured
                .get_mut(p.color.name())
                .expect("both colours")
                .push(*p);
        }
        BanqiObservation {
            game: kind.name(),
            viewer: kind.viewer_name(viewer),
            to_move: self.to_move().map(|s| kind.seat_name(s)),
            ply: self.ply,
            quiet_plies: self.quiet,
            colours: Seat::BOTH
                .iter()
                .filter_map(|&s| Some((kind.seat_name(s), self.colour_of(s)?)))
                .collect(),
            board,
            face_down_pool: Piece::ALL
                .iter()
                .filter(|p| self.unseen[p.index()] > 0)
                .map(|p| (p.code().to_string(), self.unseen[p.index()]))
                .collect(),
            captured,
            chain_from: self.chain,
            result: self.outcome.map(|o| o.view(kind)),
        }
    }
}
