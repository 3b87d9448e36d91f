//! What the screens need to know about one game: the board's size and square names, setup
//! areas and armies, piece names, and how to draw a cell of an observation.
//!
//! Everything here reads the engine's public types and the observation JSON a viewer is
//! given, so the screens never touch the arbiter's state.

use salpakan_engine::banqi;
use salpakan_engine::layout::Ordered;
use salpakan_engine::{GameKind, GameSpec, Seat};
use serde_json::Value;

/// A square as zero-based (file, rank); `(0, 0)` is `a1`.
pub type Pos = (u8, u8);

/// Whose colour a cell is drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// Game of the Generals: White.
    White,
    /// Game of the Generals: Black.
    Black,
    /// Stratego: Red.
    Red,
    /// Stratego: Blue.
    Blue,
    /// Banqi: a red piece.
    BanqiRed,
    /// Banqi: a black piece.
    BanqiBlack,
    /// A Banqi piece still face down.
    FaceDown,
    /// A Stratego lake.
    Lake,
    /// An empty square.
    Empty,
}

/// One square as drawn: a short label (at most 3 characters) and its colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellView {
    /// The label: a piece code, a piece's back, or a dot for an empty square.
    pub label: String,
    /// The colour.
    pub ink: Ink,
    /// A face-down piece that only the arbiter's view shows (drawn dim at the end).
    pub hidden: bool,
}

/// The back of a piece whose rank the viewer does not know.
pub const BACK: &str = "▒▒▒";
/// An empty square.
pub const EMPTY: &str = "·";
/// A lake.
pub const LAKE: &str = "≈≈≈";

/// One game's presentation: shared by the setup, play, end and replay screens.
#[derive(Clone, Debug)]
pub struct Presenter {
    /// Which game.
    pub kind: GameKind,
    /// The game with its validated options.
    pub spec: GameSpec,
    /// Files (columns) of the board.
    pub files: u8,
    /// Ranks (rows) of the board.
    pub ranks: u8,
    lakes: Vec<Pos>,
    areas: [Vec<Pos>; 2],
    army: Vec<String>,
    army_name: String,
    title: &'static str,
    names: Ordered<String>,
}

impl Presenter {
    /// The presenter for a game with its validated options: the board, the setup areas,
    /// the lakes and the army come from the engine's [`Layout`](salpakan_engine::Layout).
    #[must_use]
    pub fn new(spec: &GameSpec) -> Presenter {
        let layout = spec.layout();
        let pos = |name: &String| -> Pos {
            salpakan_engine::square::parse(name, layout.files, layout.ranks)
                .expect("a layout's squares are on its board")
        };
        Presenter {
            kind: spec.kind(),
            spec: spec.clone(),
            files: layout.files,
            ranks: layout.ranks,
            lakes: layout.lakes.iter().map(pos).collect(),
            areas: layout
                .setup_areas
                .each_ref()
                .map(|area| area.iter().map(pos).collect()),
            army: layout
                .army
                .0
                .iter()
                .flat_map(|(code, n)| std::iter::repeat_n(code.clone(), *n as usize))
                .collect(),
            army_name: if layout.has_setup {
                option_text(spec, "army")
            } else {
                String::new()
            },
            title: layout.title,
            names: layout.names,
        }
    }

    /// The game's full name.
    #[must_use]
    pub fn title(&self) -> &'static str {
        self.title
    }

    /// A seat's name with a capital (`White`, `Red`, `First`).
    #[must_use]
    pub fn seat_title(&self, seat: Seat) -> String {
        capitalize(self.kind.seat_name(seat))
    }

    /// The army option as text (`full`, `classic`, …), for naming setup folders.
    #[must_use]
    pub fn army_name(&self) -> &str {
        &self.army_name
    }

    /// Whether the board is drawn upside down for `seat` (so that its own side is at the
    /// bottom). Banqi is always drawn with `a1` at the bottom left.
    #[must_use]
    pub fn flipped_for(&self, seat: Seat) -> bool {
        self.kind != GameKind::Banqi && seat == Seat::Second
    }

    /// The name of a square (`e4`).
    #[must_use]
    pub fn square_name(&self, (f, r): Pos) -> String {
        salpakan_engine::square::name(f, r)
    }

    /// The square with this name, if it is on the board.
    #[must_use]
    pub fn parse_square(&self, text: &str) -> Option<Pos> {
        salpakan_engine::square::parse(text.trim(), self.files, self.ranks)
    }

    /// Whether `pos` is a lake.
    #[must_use]
    pub fn is_lake(&self, pos: Pos) -> bool {
        self.lakes.contains(&pos)
    }

    /// The squares where `seat` sets up.
    #[must_use]
    pub fn setup_area(&self, seat: Seat) -> &[Pos] {
        &self.areas[seat.index()]
    }

    /// The army each side sets up, as piece codes strongest first, with repeats.
    #[must_use]
    pub fn army(&self) -> &[String] {
        &self.army
    }

    /// The army as (code, count) in order, each code once.
    #[must_use]
    pub fn army_counts(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for c in &self.army {
            match out.iter_mut().find(|(k, _)| k == c) {
                Some((_, n)) => *n += 1,
                None => out.push((c.clone(), 1)),
            }
        }
        out
    }

    /// A piece's English name from its code (`COL` → `Colonel`, `10` → `Marshal`,
    /// `k` → `black General`); the code itself if unknown.
    #[must_use]
    pub fn piece_name(&self, code: &str) -> String {
        self.names
            .get(code)
            .map_or_else(|| code.to_string(), Clone::clone)
    }

    /// A piece's label on the board (at most 3 characters).
    #[must_use]
    pub fn piece_label(&self, code: &str) -> String {
        match self.kind {
            GameKind::Banqi => banqi::Piece::from_code_str(code)
                .map_or_else(|| code.to_string(), |p| p.kind.name()[..3].to_string()),
            _ => code.to_string(),
        }
    }

    /// The colour of a piece of `owner` (a seat name) or, in Banqi, of the piece `code`.
    #[must_use]
    pub fn ink_of(&self, owner: Option<&str>, code: Option<&str>) -> Ink {
        match self.kind {
            GameKind::Generals => match owner {
                Some("black") => Ink::Black,
                _ => Ink::White,
            },
            GameKind::Stratego => match owner {
                Some("blue") => Ink::Blue,
                _ => Ink::Red,
            },
            GameKind::Banqi => match code.and_then(banqi::Piece::from_code_str) {
                Some(p) if p.color == banqi::Color::Black => Ink::BanqiBlack,
                Some(_) => Ink::BanqiRed,
                None => Ink::FaceDown,
            },
        }
    }

    /// How to draw `pos` in an observation (any viewer's `observe` JSON).
    #[must_use]
    pub fn cell(&self, observation: &Value, pos: Pos) -> CellView {
        if self.is_lake(pos) {
            return CellView {
                label: LAKE.into(),
                ink: Ink::Lake,
                hidden: false,
            };
        }
        let name = self.square_name(pos);
        let Some(sq) = observation.get("board").and_then(|b| b.get(&name)) else {
            return CellView {
                label: EMPTY.into(),
                ink: Ink::Empty,
                hidden: false,
            };
        };
        let piece = sq.get("piece").and_then(Value::as_str);
        if self.kind == GameKind::Banqi {
            let face_down = sq
                .get("face_down")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            return match (face_down, piece) {
                (true, None) => CellView {
                    label: BACK.into(),
                    ink: Ink::FaceDown,
                    hidden: false,
                },
                (fd, Some(p)) => CellView {
                    label: self.piece_label(p),
                    ink: self.ink_of(None, Some(p)),
                    hidden: fd,
                },
                (false, None) => CellView {
                    label: EMPTY.into(),
                    ink: Ink::Empty,
                    hidden: false,
                },
            };
        }
        let owner = sq.get("owner").and_then(Value::as_str);
        CellView {
            label: piece.map_or_else(|| BACK.to_string(), |p| self.piece_label(p)),
            ink: self.ink_of(owner, piece),
            hidden: false,
        }
    }

    /// The owner (seat) of the piece on `pos` in an observation, if the viewer knows it. In
    /// Banqi a face-up piece belongs to the seat that plays its colour.
    #[must_use]
    pub fn owner_at(&self, observation: &Value, pos: Pos) -> Option<Seat> {
        let sq = observation.get("board")?.get(self.square_name(pos))?;
        if self.kind == GameKind::Banqi {
            let code = sq.get("piece").and_then(Value::as_str)?;
            if sq.get("face_down").and_then(Value::as_bool) == Some(true) {
                return None;
            }
            let colour = banqi::Piece::from_code_str(code)?.color.name();
            let colours = observation.get("colours")?;
            return Seat::BOTH.into_iter().find(|&s| {
                colours.get(self.kind.seat_name(s)).and_then(Value::as_str) == Some(colour)
            });
        }
        self.kind
            .parse_seat(sq.get("owner").and_then(Value::as_str)?)
    }

    /// A sentence about `pos` for the status line: `e4: your Colonel`, `d6: an enemy piece`.
    #[must_use]
    pub fn describe(&self, observation: &Value, pos: Pos, me: Option<Seat>) -> String {
        let name = self.square_name(pos);
        if self.is_lake(pos) {
            return format!("{name}: a lake");
        }
        let Some(sq) = observation.get("board").and_then(|b| b.get(&name)) else {
            return format!("{name}: empty");
        };
        let piece = sq.get("piece").and_then(Value::as_str);
        if self.kind == GameKind::Banqi {
            let face_down = sq.get("face_down").and_then(Value::as_bool) == Some(true);
            return match (face_down, piece) {
                (true, Some(p)) => format!("{name}: face down ({})", self.piece_name(p)),
                (true, None) => format!("{name}: a face-down piece"),
                (false, Some(p)) => {
                    let whose = match (me, self.owner_at(observation, pos)) {
                        (Some(m), Some(o)) if m == o => " (yours)",
                        (Some(_), Some(_)) => " (the bot's)",
                        _ => "",
                    };
                    format!("{name}: {}{whose}", self.piece_name(p))
                }
                (false, None) => format!("{name}: empty"),
            };
        }
        let owner = sq
            .get("owner")
            .and_then(Value::as_str)
            .and_then(|o| self.kind.parse_seat(o));
        let whose = match (me, owner) {
            (Some(m), Some(o)) if m == o => "your".to_string(),
            (Some(_), Some(_)) => "the bot's".to_string(),
            (None, Some(o)) => self.seat_title(o),
            _ => String::new(),
        };
        match piece {
            Some(p) => format!("{name}: {whose} {} ({p})", self.piece_name(p)),
            None => format!("{name}: {whose} piece, rank unknown"),
        }
    }

    /// The captured or eliminated pieces of each seat in an observation, as labels
    /// (`?` for a piece whose rank the viewer does not know), by seat index. In Banqi,
    /// by the seat that plays the colour (before the first flip nobody has lost anything).
    #[must_use]
    pub fn losses(&self, observation: &Value) -> [Vec<String>; 2] {
        let list = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        if self.kind == GameKind::Banqi {
            let colours = observation.get("colours");
            return Seat::BOTH.map(|s| {
                let colour = colours
                    .and_then(|c| c.get(self.kind.seat_name(s)))
                    .and_then(Value::as_str);
                colour
                    .map(|c| list(observation.get("captured").and_then(|x| x.get(c))))
                    .unwrap_or_default()
            });
        }
        Seat::BOTH.map(|s| {
            list(
                observation
                    .get("eliminated")
                    .and_then(|x| x.get(self.kind.seat_name(s))),
            )
        })
    }

    /// One ply view (JSON, as `history_json` gives it) as a line of the log. `me` names the
    /// seat that is "You" (none for a replay).
    #[must_use]
    pub fn describe_ply(&self, view: &Value, me: Option<Seat>) -> String {
        let s = |k: &str| view.get(k).and_then(Value::as_str);
        let n = view.get("ply").and_then(Value::as_u64).unwrap_or(0);
        let seat = s("seat").and_then(|x| self.kind.parse_seat(x));
        let who = match (me, seat) {
            (Some(m), Some(x)) if m == x => "You".to_string(),
            (Some(_), Some(_)) => "Bot".to_string(),
            (_, Some(x)) => self.seat_title(x),
            _ => "?".to_string(),
        };
        let head = format!("{n:>3}. {who}");
        match self.kind {
            GameKind::Generals | GameKind::Stratego => {
                let (from, to) = (s("from").unwrap_or("?"), s("to").unwrap_or("?"));
                let piece = s("piece");
                let mut line = match piece {
                    Some(p) => format!("{head} {p} {from}-{to}"),
                    None => format!("{head} {from}-{to}"),
                };
                let fight = view.get("challenge").or_else(|| view.get("attack"));
                if let Some(c) = fight {
                    let get = |k: &str| c.get(k).and_then(Value::as_str);
                    let attacker = get("attacker").or(piece).unwrap_or("?");
                    let defender = get("defender").unwrap_or("?");
                    let result = match get("result") {
                        Some("attacker_wins") => format!("{attacker} beats {defender}"),
                        Some("defender_wins") => format!("{attacker} loses to {defender}"),
                        Some("both_eliminated" | "both_removed") => {
                            format!("{attacker} and {defender} both out")
                        }
                        _ => format!("{attacker} vs {defender}"),
                    };
                    let verb = if self.kind == GameKind::Generals {
                        "challenge"
                    } else {
                        "attack"
                    };
                    line = format!("{head} {from}-{to} {verb}: {result}");
                }
                line
            }
            GameKind::Banqi => {
                let name = |k: &str| s(k).map(|c| self.piece_name(c));
                let mv = s("move").unwrap_or("?");
                let you = who == "You";
                let verb = |third: &'static str, base: &'static str| if you { base } else { third };
                let mut line = match s("action") {
                    Some("flip") => format!(
                        "{head} {} {mv}: {}",
                        verb("flips", "flip"),
                        name("revealed").unwrap_or_default()
                    ),
                    Some("capture") => format!(
                        "{head} {mv}: {} takes {}",
                        name("piece").unwrap_or_default(),
                        name("captured").unwrap_or_default()
                    ),
                    Some("attempt") => {
                        let mut t = format!(
                            "{head} {mv}: {} turns up {}",
                            name("piece").unwrap_or_default(),
                            name("revealed").unwrap_or_default()
                        );
                        if let Some(c) = name("captured") {
                            t.push_str(&format!(", takes {c}"));
                        }
                        t
                    }
                    Some("end_chain") => {
                        format!("{head} {} the capture chain", verb("ends", "end"))
                    }
                    _ => format!("{head} {mv} {}", name("piece").unwrap_or_default()),
                };
                if let Some(c) = view.get("colours") {
                    let colour = |seat: Seat| {
                        c.get(self.kind.seat_name(seat))
                            .and_then(Value::as_str)
                            .unwrap_or("?")
                            .to_string()
                    };
                    match me {
                        Some(m) => {
                            line.push_str(&format!(" — you play {}", colour(m)));
                        }
                        None => line.push_str(&format!(
                            " — first plays {}, second {}",
                            colour(Seat::First),
                            colour(Seat::Second)
                        )),
                    }
                }
                if view.get("chain_continues").and_then(Value::as_bool) == Some(true) {
                    line.push_str(" (may capture again)");
                }
                line
            }
        }
    }
}

/// The canonical text of option `key` (empty if the game has no such option).
fn option_text(spec: &GameSpec, key: &str) -> String {
    spec.pairs()
        .into_iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
        .unwrap_or_default()
}

/// `white` → `White`.
#[must_use]
pub fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Parses a legal move's text into (from, to) squares, or a flip's single square as
/// (square, square), or `None` for `end`.
#[must_use]
pub fn move_squares(p: &Presenter, mv: &str) -> Option<(Pos, Pos)> {
    match mv.split_once('-') {
        Some((a, b)) => Some((p.parse_square(a)?, p.parse_square(b)?)),
        None => p.parse_square(mv).map(|s| (s, s)),
    }
}
