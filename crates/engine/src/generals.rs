//! Game of the Generals (Salpakan), exactly as `RULES.md` §1.
//!
//! A 9 × 8 board (`a1`..`i8`); White sets up on ranks 1–3 and Black on ranks 6–8. Every
//! piece moves one square orthogonally; moving onto an enemy piece is a challenge that the
//! arbiter decides in secret and of which the players learn only which piece(s) left the
//! board (option `reveal`).
//!
//! The board is kept as a mailbox plus one 72-bit occupancy bitboard per side, so that legal
//! move generation is a few shifts and a random playout ply costs a few nanoseconds.

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

/// Files on the board (a–i).
pub const FILES: u8 = 9;
/// Ranks on the board (1–8).
pub const RANKS: u8 = 8;
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
const FILE_I: u128 = FILE_A << (FILES - 1);

/// A piece of Game of the Generals, strongest officer first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Piece {
    /// General of the Army (5 stars).
    FiveStar = 0,
    /// General (4 stars).
    FourStar,
    /// Lieutenant General (3 stars).
    ThreeStar,
    /// Major General (2 stars).
    TwoStar,
    /// Brigadier General (1 star).
    OneStar,
    /// Colonel.
    Colonel,
    /// Lieutenant Colonel.
    LtColonel,
    /// Major.
    Major,
    /// Captain.
    Captain,
    /// 1st Lieutenant.
    FirstLt,
    /// 2nd Lieutenant.
    SecondLt,
    /// Sergeant.
    Sergeant,
    /// Private.
    Private,
    /// Spy.
    Spy,
    /// Flag.
    Flag,
}

impl Piece {
    /// All fifteen pieces, strongest officer first.
    pub const ALL: [Piece; 15] = [
        Piece::FiveStar,
        Piece::FourStar,
        Piece::ThreeStar,
        Piece::TwoStar,
        Piece::OneStar,
        Piece::Colonel,
        Piece::LtColonel,
        Piece::Major,
        Piece::Captain,
        Piece::FirstLt,
        Piece::SecondLt,
        Piece::Sergeant,
        Piece::Private,
        Piece::Spy,
        Piece::Flag,
    ];

    const CODES: [&'static str; 15] = [
        "5G", "4G", "3G", "2G", "1G", "COL", "LTC", "MAJ", "CPT", "1LT", "2LT", "SGT", "PVT",
        "SPY", "FLG",
    ];

    const NAMES: [&'static str; 15] = [
        "General of the Army",
        "General",
        "Lieutenant General",
        "Major General",
        "Brigadier General",
        "Colonel",
        "Lieutenant Colonel",
        "Major",
        "Captain",
        "1st Lieutenant",
        "2nd Lieutenant",
        "Sergeant",
        "Private",
        "Spy",
        "Flag",
    ];

    /// The record code (`5G` … `FLG`).
    #[must_use]
    pub const fn code(self) -> &'static str {
        Self::CODES[self as usize]
    }

    /// The full English name.
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

/// Who a challenge eliminates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Duel {
    /// The challenged piece is eliminated; the challenger moves in.
    AttackerWins,
    /// The challenger is eliminated.
    DefenderWins,
    /// Equal ranks: both are eliminated ("split").
    BothEliminated,
}

/// The arbitration matrix of `RULES.md` §1: the result of `attacker` challenging `defender`.
#[must_use]
pub const fn duel(attacker: Piece, defender: Piece) -> Duel {
    DUELS[attacker as usize][defender as usize]
}

const DUELS: [[Duel; 15]; 15] = {
    let mut t = [[Duel::BothEliminated; 15]; 15];
    let mut a = 0;
    while a < 15 {
        let mut d = 0;
        while d < 15 {
            let (pa, pd) = (Piece::from_index(a), Piece::from_index(d));
            t[a][d] = duel_rule(pa, pd);
            d += 1;
        }
        a += 1;
    }
    t
};

const fn duel_rule(a: Piece, d: Piece) -> Duel {
    use Duel::*;
    let (ai, di) = (a as u8, d as u8);
    // Flag against Flag: the challenger wins.
    if ai == Piece::Flag as u8 && di == Piece::Flag as u8 {
        return AttackerWins;
    }
    if ai == di {
        return BothEliminated;
    }
    // Any piece eliminates the Flag.
    if di == Piece::Flag as u8 {
        return AttackerWins;
    }
    if ai == Piece::Flag as u8 {
        return DefenderWins;
    }
    if ai == Piece::Spy as u8 {
        return if di <= Piece::Sergeant as u8 {
            AttackerWins
        } else {
            DefenderWins
        }; // Private beats Spy
    }
    if di == Piece::Spy as u8 {
        return if ai == Piece::Private as u8 {
            AttackerWins
        } else {
            DefenderWins
        };
    }
    // Officers, the Sergeant and the Private: the higher rank (lower index) wins.
    if ai < di { AttackerWins } else { DefenderWins }
}

/// A square of the 9 × 8 board, `a1` = 0, `b1` = 1, … `i8` = 71.
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
    /// The index 0..72.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Every square, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
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
            .ok_or_else(|| format!("{s:?} is not a square of the board (a1..i8)"))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(crate::game::square::name_str(self.file(), self.rank()))
    }
}

/// A move: one piece from one square to an orthogonally adjacent one. Written `e3-e4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes (empty, or an enemy piece to challenge).
    pub to: Square,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = PlayError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || PlayError::Parse(format!("{s:?} is not a move; write from-to, e.g. e3-e4"));
        let (a, b) = s.trim().split_once(['-', 'x']).ok_or_else(bad)?;
        let from = a
            .parse()
            .map_err(|e: String| PlayError::Parse(format!("{s:?}: {e}")))?;
        let to = b
            .parse()
            .map_err(|e: String| PlayError::Parse(format!("{s:?}: {e}")))?;
        Ok(Move { from, to })
    }
}

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
    counts: [u8; 15],
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

    fn text(&self) -> String {
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

    fn parse(value: &str) -> Result<Army, OptionError> {
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

const OPTION_KEYS: [&str; 7] = [
    "first",
    "flag_rule",
    "reveal",
    "reveal_at_end",
    "max_quiet_plies",
    "open_flag",
    "army",
];
const FLAG_RULES: [(&str, FlagRule); 3] = [
    ("adjacent", FlagRule::Adjacent),
    ("one_turn", FlagRule::OneTurn),
    ("electronic", FlagRule::Electronic),
];
const REVEALS: [(&str, Reveal); 3] = [
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

/// One side's setup: where each piece of the army stands. Valid by construction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    seat: Seat,
    placements: Vec<(Square, Piece)>,
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

fn parse_placement(seat: Seat, sq: &str, code: &str) -> Result<(Square, Piece), SetupError> {
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

fn in_area(seat: Seat, sq: Square) -> bool {
    match seat {
        Seat::First => sq.rank() < 3,
        Seat::Second => sq.rank() >= RANKS - 3,
    }
}

fn area_text(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "ranks 1-3",
        Seat::Second => "ranks 6-8",
    }
}

/// Both setups: the hidden initial state of a Game of the Generals game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setups(pub [Setup; 2]);

const PART_NAMES: [&str; 2] = ["WhiteSetup", "BlackSetup"];

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

/// A Game of the Generals game: the arbiter's full state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Generals {
    options: GeneralsOptions,
    cells: [Cell; SQUARES],
    occ: [u128; 2],
    /// Squares whose piece's rank is public (revealed by a challenge, or an open Flag).
    known: u128,
    turn: Seat,
    ply: u32,
    quiet: u32,
    /// A Flag on the far rank waiting for the opponent's one turn: its seat and square.
    pending_flag: Option<(Seat, Square)>,
    outcome: Option<Outcome>,
    /// Eliminated pieces per seat, by piece.
    lost: [[u8; 15]; 2],
    /// Of those, how many were publicly revealed.
    lost_known: [[u8; 15]; 2],
}

/// What happened in one ply, in full (the arbiter's account).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GeneralsEvent {
    /// 1-based ply number.
    pub ply: u32,
    /// Who moved.
    pub seat: Seat,
    /// The move.
    pub mv: Move,
    /// The moving piece.
    pub piece: Piece,
    /// Whether the moving piece's rank is public after this ply.
    pub piece_public: bool,
    /// The challenge, if the move was one.
    pub challenge: Option<Challenge>,
}

/// A challenge, in full.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Challenge {
    /// The challenged piece.
    pub defender: Piece,
    /// Whether the challenged piece's rank is public after this ply.
    pub defender_public: bool,
    /// Who was eliminated.
    pub result: Duel,
}

/// One viewer's view of one ply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GeneralsView {
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
    /// The challenge, if the move was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge: Option<ChallengeView>,
}

/// One viewer's view of a challenge: who was eliminated, and the ranks this viewer may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChallengeView {
    /// Who was eliminated: which squares were emptied follows from it.
    pub result: Duel,
    /// The squares emptied by the challenge.
    pub emptied: Vec<Square>,
    /// The challenged piece, if this viewer may know it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defender: Option<Piece>,
}

impl fmt::Display for GeneralsView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)?;
        if let Some(c) = &self.challenge {
            let code = |p: Option<Piece>| p.map_or("?", Piece::code);
            let sign = match c.result {
                Duel::AttackerWins => '>',
                Duel::DefenderWins => '<',
                Duel::BothEliminated => '=',
            };
            write!(f, "{{{}{sign}{}}}", code(self.piece), code(c.defender))?;
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
}

/// Everything one viewer may know of a Game of the Generals game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GeneralsObservation {
    /// Always `generals`.
    pub game: &'static str,
    /// Who is looking: a seat name, `spectator` or `arbiter`.
    pub viewer: &'static str,
    /// The seat to move, `null` once over.
    pub to_move: Option<&'static str>,
    /// Plies played.
    pub ply: u32,
    /// Consecutive plies without a challenge.
    pub quiet_plies: u32,
    /// Every occupied square.
    pub board: crate::SquareMap<Square, SquareView>,
    /// Eliminated pieces of each seat: codes this viewer may know, then `?` for the others.
    pub eliminated: BTreeMap<&'static str, Vec<&'static str>>,
    /// The outcome once over.
    pub result: Option<OutcomeView>,
}

impl Generals {
    fn piece_at(&self, sq: Square) -> Option<(Seat, Piece)> {
        let c = self.cells[sq.index()];
        (c != 0).then(|| (cell_seat(c), cell_piece(c)))
    }

    /// The piece on `sq`, as the arbiter sees it.
    #[must_use]
    pub fn at(&self, sq: Square) -> Option<(Seat, Piece)> {
        self.piece_at(sq)
    }

    /// The far rank for `seat`'s Flag (rank 8 for White, rank 1 for Black).
    const fn far_rank(seat: Seat) -> u8 {
        match seat {
            Seat::First => RANKS - 1,
            Seat::Second => 0,
        }
    }

    fn targets(own: u128) -> [u128; 4] {
        let free = !own & BOARD;
        [
            (own << FILES) & free,         // north (+9)
            (own >> FILES) & free,         // south (-9)
            ((own & !FILE_I) << 1) & free, // east (+1)
            ((own & !FILE_A) >> 1) & free, // west (-1)
        ]
    }

    const DELTAS: [i8; 4] = [FILES as i8, -(FILES as i8), 1, -1];

    fn adjacent_mask(sq: Square) -> u128 {
        let b = 1u128 << sq.0;
        ((b << FILES) | (b >> FILES) | ((b & !FILE_I) << 1) | ((b & !FILE_A) >> 1)) & BOARD
    }

    fn illegal(&self, mv: Move) -> Option<String> {
        let me = self.turn;
        let name = |s: Seat| GameKind::Generals.seat_name(s);
        match self.piece_at(mv.from) {
            None => return Some(format!("there is no piece on {}", mv.from)),
            Some((s, _)) if s != me => {
                return Some(format!(
                    "{} holds a {} piece; it is {}'s turn",
                    mv.from,
                    name(s),
                    name(me)
                ));
            }
            _ => {}
        }
        let (df, dr) = (
            (i16::from(mv.from.file()) - i16::from(mv.to.file())).abs(),
            (i16::from(mv.from.rank()) - i16::from(mv.to.rank())).abs(),
        );
        if df + dr != 1 {
            return Some(
                "a piece moves one square forward, backward or sideways, never diagonally".into(),
            );
        }
        if matches!(self.piece_at(mv.to), Some((s, _)) if s == me) {
            return Some(format!("{} holds one of your own pieces", mv.to));
        }
        None
    }

    /// Applies a legal move; returns the event. The heart of the rules.
    fn apply(&mut self, mv: Move) -> GeneralsEvent {
        let me = self.turn;
        let them = me.other();
        let (from, to) = (mv.from.index(), mv.to.index());
        let (fb, tb) = (1u128 << from, 1u128 << to);
        let mover = self.cells[from];
        let piece = cell_piece(mover);
        let target = self.cells[to];
        self.ply += 1;
        let mover_known = self.known & fb != 0;
        self.known &= !fb;
        // The one turn the opponent had against a Flag that reached the far rank.
        let pending = self.pending_flag.take();
        let mut challenge = None;
        let mut piece_public = mover_known;
        if target == 0 {
            self.cells[to] = mover;
            self.cells[from] = 0;
            self.occ[me.index()] ^= fb | tb;
            if mover_known {
                self.known |= tb;
            }
            self.quiet += 1;
        } else {
            let defender = cell_piece(target);
            let result = duel(piece, defender);
            let target_known = self.known & tb != 0;
            let reveal = self.options.reveal;
            self.cells[from] = 0;
            self.occ[me.index()] &= !fb;
            self.quiet = 0;
            let defender_public;
            match result {
                Duel::AttackerWins => {
                    self.cells[to] = mover;
                    self.occ[them.index()] &= !tb;
                    self.occ[me.index()] |= tb;
                    piece_public = mover_known || reveal != Reveal::None;
                    defender_public = target_known || reveal == Reveal::Both;
                    self.known &= !tb;
                    if piece_public {
                        self.known |= tb;
                    }
                    self.lose(them, defender, defender_public);
                }
                Duel::DefenderWins => {
                    piece_public = mover_known || reveal == Reveal::Both;
                    defender_public = target_known || reveal != Reveal::None;
                    if defender_public {
                        self.known |= tb;
                    }
                    self.lose(me, piece, piece_public);
                }
                Duel::BothEliminated => {
                    self.cells[to] = 0;
                    self.occ[them.index()] &= !tb;
                    self.known &= !tb;
                    piece_public = mover_known || reveal == Reveal::Both;
                    defender_public = target_known || reveal == Reveal::Both;
                    self.lose(me, piece, piece_public);
                    self.lose(them, defender, defender_public);
                }
            }
            challenge = Some(Challenge {
                defender,
                defender_public,
                result,
            });
            if defender == Piece::Flag && result != Duel::DefenderWins {
                self.outcome = Some(Outcome::win(me, EndReason::FlagCaptured));
            } else if piece == Piece::Flag && result != Duel::AttackerWins {
                self.outcome = Some(Outcome::win(them, EndReason::FlagCaptured));
            }
        }
        self.turn = them;
        if self.outcome.is_none() {
            if let Some((flag_seat, _)) = pending {
                // The opponent's one turn did not capture the Flag: it wins, even if this
                // very move brought the opponent's own Flag home (the earlier arrival first).
                self.outcome = Some(Outcome::win(flag_seat, EndReason::FlagReachedBackRank));
            } else if piece == Piece::Flag
                && self.cells[to] == mover
                && mv.to.rank() == Self::far_rank(me)
            {
                let enemy_adjacent = Self::adjacent_mask(mv.to) & self.occ[them.index()] != 0;
                let wins_now = match self.options.flag_rule {
                    FlagRule::Electronic => true,
                    FlagRule::Adjacent => !enemy_adjacent,
                    FlagRule::OneTurn => false,
                };
                if wins_now {
                    self.outcome = Some(Outcome::win(me, EndReason::FlagReachedBackRank));
                } else {
                    self.pending_flag = Some((me, mv.to));
                }
            }
        }
        if self.outcome.is_none() {
            if self.max_quiet_reached() {
                self.outcome = Some(Outcome::draw(EndReason::QuietPlies));
            } else if self.occ[them.index()] == 0
                || Self::targets(self.occ[them.index()])
                    .iter()
                    .all(|&t| t == 0)
            {
                self.outcome = Some(Outcome::win(me, EndReason::NoLegalMoves));
            }
        }
        GeneralsEvent {
            ply: self.ply,
            seat: me,
            mv,
            piece,
            piece_public,
            challenge,
        }
    }

    fn max_quiet_reached(&self) -> bool {
        self.options
            .max_quiet_plies
            .is_some_and(|n| self.quiet >= n)
    }

    fn lose(&mut self, seat: Seat, p: Piece, public: bool) {
        self.lost[seat.index()][p as usize] += 1;
        if public {
            self.lost_known[seat.index()][p as usize] += 1;
        }
    }

    /// Whether `viewer` may see the rank of `seat`'s piece that is (or was) public or not.
    fn sees(&self, viewer: Viewer, seat: Seat, public: bool) -> bool {
        viewer.sees_own(seat) || public || (self.outcome.is_some() && self.options.reveal_at_end)
    }
}

impl Game for Generals {
    const KIND: GameKind = GameKind::Generals;
    type Options = GeneralsOptions;
    type Move = Move;
    type Hidden = Setups;
    type Event = GeneralsEvent;
    type View = GeneralsView;
    type Observation = GeneralsObservation;

    fn start(options: &GeneralsOptions, hidden: Setups) -> Result<Self, SetupError> {
        let mut g = Generals {
            options: options.clone(),
            cells: [0; SQUARES],
            occ: [0; 2],
            known: 0,
            turn: options.first,
            ply: 0,
            quiet: 0,
            pending_flag: None,
            outcome: None,
            lost: [[0; 15]; 2],
            lost_known: [[0; 15]; 2],
        };
        for (i, setup) in hidden.0.iter().enumerate() {
            let seat = Seat::from_index(i);
            // Re-validate against these options: a setup made for another army is refused.
            let setup = Setup::new(seat, &options.army, &setup.placements)?;
            for &(sq, p) in &setup.placements {
                g.cells[sq.index()] = cell(seat, p);
                g.occ[i] |= 1u128 << sq.0;
                if p == Piece::Flag && options.open_flag {
                    g.known |= 1u128 << sq.0;
                }
            }
        }
        Ok(g)
    }

    fn random_hidden(options: &GeneralsOptions, rng: &mut GameRng) -> Setups {
        Setups(Seat::BOTH.map(|s| Setup::random(s, &options.army, rng)))
    }

    fn hidden_from_json(
        options: &GeneralsOptions,
        request: &serde_json::Map<String, serde_json::Value>,
        rng: &mut GameRng,
    ) -> Result<Setups, SetupError> {
        let given = match request.get("setups") {
            None | Some(serde_json::Value::Null) => serde_json::Map::new(),
            Some(serde_json::Value::Object(m)) => m.clone(),
            Some(_) => {
                return Err(SetupError::Invalid(
                    "setups must be an object {\"white\":{...},\"black\":{...}}".into(),
                ));
            }
        };
        if let Some(k) = given
            .keys()
            .find(|k| GameKind::Generals.parse_seat(k).is_none())
        {
            return Err(SetupError::Invalid(format!(
                "setups: {k:?} is not a seat; use white and black"
            )));
        }
        let mut out = Vec::with_capacity(2);
        for seat in Seat::BOTH {
            let setup = match given.get(GameKind::Generals.seat_name(seat)) {
                Some(v) => Setup::from_json(seat, &options.army, v)?,
                None => Setup::random(seat, &options.army, rng),
            };
            out.push(setup);
        }
        let [w, b]: [Setup; 2] = out.try_into().expect("two seats");
        Ok(Setups([w, b]))
    }

    fn hidden_part_names(_: &GeneralsOptions) -> &'static [&'static str] {
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
        options: &GeneralsOptions,
        parts: &BTreeMap<String, String>,
    ) -> Result<Setups, SetupError> {
        let get = |i: usize| {
            let text = parts
                .get(PART_NAMES[i])
                .ok_or_else(|| SetupError::Invalid(format!("the {} is missing", PART_NAMES[i])))?;
            Setup::parse(Seat::from_index(i), &options.army, text)
        };
        Ok(Setups([get(0)?, get(1)?]))
    }

    fn options(&self) -> &GeneralsOptions {
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
        let t = Self::targets(self.occ[self.turn.index()]);
        for (dir, mut bits) in t.into_iter().enumerate() {
            let d = Self::DELTAS[dir];
            while bits != 0 {
                let to = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                out.push(Move {
                    from: Square((to as i8 - d) as u8),
                    to: Square(to),
                });
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
        let t = Self::targets(self.occ[self.turn.index()]);
        let counts = t.map(|b| b.count_ones());
        let total: u32 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        let mut r = rng.random_range(0..total);
        for dir in 0..4 {
            if r < counts[dir] {
                let mut bits = t[dir];
                for _ in 0..r {
                    bits &= bits - 1;
                }
                let to = bits.trailing_zeros() as u8;
                return Some(Move {
                    from: Square((to as i8 - Self::DELTAS[dir]) as u8),
                    to: Square(to),
                });
            }
            r -= counts[dir];
        }
        unreachable!("r < total")
    }

    fn play(&mut self, mv: Move) -> Result<GeneralsEvent, PlayError> {
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
        self.pending_flag = None;
        Ok(())
    }

    fn view(&self, e: &GeneralsEvent, viewer: Viewer) -> GeneralsView {
        let all = viewer == Viewer::Arbiter;
        let them = e.seat.other();
        GeneralsView {
            ply: e.ply,
            seat: GameKind::Generals.seat_name(e.seat),
            from: e.mv.from,
            to: e.mv.to,
            piece: (all || viewer.sees_own(e.seat) || e.piece_public).then_some(e.piece),
            challenge: e.challenge.map(|c| ChallengeView {
                result: c.result,
                emptied: match c.result {
                    Duel::AttackerWins | Duel::DefenderWins => vec![e.mv.from],
                    Duel::BothEliminated => vec![e.mv.from, e.mv.to],
                },
                defender: (all || viewer.sees_own(them) || c.defender_public).then_some(c.defender),
            }),
        }
    }

    fn observe(&self, viewer: Viewer) -> GeneralsObservation {
        let kind = GameKind::Generals;
        let board = Square::all()
            .filter_map(|sq| {
                let (seat, p) = self.piece_at(sq)?;
                let public = self.known & (1u128 << sq.0) != 0;
                let piece = self.sees(viewer, seat, public).then_some(p);
                Some((
                    sq,
                    SquareView {
                        owner: kind.seat_name(seat),
                        piece,
                    },
                ))
            })
            .collect();
        let eliminated = Seat::BOTH
            .iter()
            .map(|&seat| {
                let (lost, known) = (&self.lost[seat.index()], &self.lost_known[seat.index()]);
                let mut codes = Vec::new();
                let mut hidden = 0;
                for p in Piece::ALL {
                    let i = p as usize;
                    let shown = if self.sees(viewer, seat, false) {
                        lost[i]
                    } else {
                        known[i]
                    };
                    codes.extend(std::iter::repeat_n(p.code(), shown as usize));
                    hidden += lost[i] - shown;
                }
                codes.extend(std::iter::repeat_n("?", hidden as usize));
                (kind.seat_name(seat), codes)
            })
            .collect();
        GeneralsObservation {
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
