//! The setup screen's state: which piece stands where, what is left to place, and setup
//! files (plain text, the engine's canonical `a1:FLG b1:PVT ...`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use salpakan_engine::{Seat, SeatSetup, wire};
use serde_json::Value;

use crate::TuiError;
use crate::presenter::{Pos, Presenter};

/// A setup being made on the setup screen.
#[derive(Clone, Debug)]
pub struct SetupState {
    /// The seat setting up.
    pub seat: Seat,
    /// Piece code on each placed square.
    pub placed: BTreeMap<Pos, String>,
    /// The army: each code once, with how many the army has.
    pub counts: Vec<(String, usize)>,
    /// The index in `counts` of the piece to place next.
    pub pick: usize,
    /// The cursor.
    pub cursor: Pos,
    /// A square picked up to move or swap.
    pub held: Option<Pos>,
}

impl SetupState {
    /// An empty setup for `seat`, the cursor on the first square of its area.
    #[must_use]
    pub fn new(p: &Presenter, seat: Seat) -> SetupState {
        let area = p.setup_area(seat);
        let cursor = match seat {
            Seat::First => area.first().copied(),
            Seat::Second => area.last().copied(),
        }
        .unwrap_or((0, 0));
        SetupState {
            seat,
            placed: BTreeMap::new(),
            counts: p.army_counts(),
            pick: 0,
            cursor,
            held: None,
        }
    }

    /// How many of the piece at `counts[i]` are still to place.
    #[must_use]
    pub fn remaining(&self, i: usize) -> usize {
        let Some((code, n)) = self.counts.get(i) else {
            return 0;
        };
        n.saturating_sub(self.placed.values().filter(|c| *c == code).count())
    }

    /// Pieces still to place, in all.
    #[must_use]
    pub fn left(&self) -> usize {
        (0..self.counts.len()).map(|i| self.remaining(i)).sum()
    }

    /// Moves the pick to the next (`forward`) or previous piece that is still to place.
    pub fn cycle_pick(&mut self, forward: bool) {
        let n = self.counts.len();
        if n == 0 {
            return;
        }
        for step in 1..=n {
            let i = if forward {
                (self.pick + step) % n
            } else {
                (self.pick + n * step - step) % n
            };
            if self.remaining(i) > 0 {
                self.pick = i;
                return;
            }
        }
    }

    fn fix_pick(&mut self) {
        if self.remaining(self.pick) == 0 {
            self.cycle_pick(true);
        }
    }

    /// The action on the cursor square (Enter, Space, a click): put the picked piece on an
    /// empty square; pick up a placed piece; put a held piece down (moving it, or swapping
    /// with the piece there). Returns a message for the status line.
    pub fn act(&mut self, p: &Presenter) -> String {
        let at = self.cursor;
        let name = p.square_name(at);
        if !p.setup_area(self.seat).contains(&at) {
            return format!("{name} is outside your setup area (the shaded squares)");
        }
        if let Some(from) = self.held.take() {
            if from == at {
                return format!("put back on {name}");
            }
            let moving = self.placed.remove(&from);
            let there = self.placed.remove(&at);
            if let Some(m) = moving {
                self.placed.insert(at, m);
            }
            if let Some(t) = there {
                self.placed.insert(from, t);
                return format!("swapped {} and {name}", p.square_name(from));
            }
            return format!("moved to {name}");
        }
        if let Some(code) = self.placed.get(&at) {
            let msg = format!(
                "holding the {} from {name}: move the cursor and press Enter to move or swap it",
                p.piece_name(code)
            );
            self.held = Some(at);
            return msg;
        }
        self.fix_pick();
        if self.remaining(self.pick) == 0 {
            return "every piece is placed: press g to start".into();
        }
        let code = self.counts[self.pick].0.clone();
        let msg = format!("{} on {name}", p.piece_name(&code));
        self.placed.insert(at, code);
        self.fix_pick();
        msg
    }

    /// Puts the piece on the cursor square back in the army.
    pub fn remove(&mut self, p: &Presenter) -> String {
        self.held = None;
        match self.placed.remove(&self.cursor) {
            Some(code) => {
                if let Some(i) = self.counts.iter().position(|(c, _)| *c == code) {
                    self.pick = i;
                }
                format!("{} back to the army", p.piece_name(&code))
            }
            None => format!("{} is empty", p.square_name(self.cursor)),
        }
    }

    /// Empties the board.
    pub fn clear(&mut self) {
        self.placed.clear();
        self.held = None;
        self.pick = 0;
    }

    /// Replaces the setup with `value` (a JSON object square → code, as the engine gives).
    ///
    /// # Errors
    /// A square that is not on the board or a value that is not a code.
    pub fn set_from_json(&mut self, p: &Presenter, value: &Value) -> Result<(), TuiError> {
        let obj = value
            .as_object()
            .ok_or_else(|| TuiError::Setup("a setup is an object of square → piece".into()))?;
        let mut placed = BTreeMap::new();
        for (sq, code) in obj {
            let pos = p
                .parse_square(sq)
                .ok_or_else(|| TuiError::Setup(format!("{sq:?} is not a square of this board")))?;
            let code = code
                .as_str()
                .ok_or_else(|| TuiError::Setup(format!("{sq}: the piece must be a code")))?;
            placed.insert(pos, code.to_string());
        }
        self.placed = placed;
        self.held = None;
        self.pick = 0;
        self.fix_pick();
        Ok(())
    }

    /// The setup as JSON (square → code), as the engine reads it.
    #[must_use]
    pub fn to_json(&self, p: &Presenter) -> Value {
        Value::Object(
            self.sorted()
                .into_iter()
                .map(|(pos, c)| (p.square_name(pos), Value::String(c)))
                .collect(),
        )
    }

    /// The canonical text: `square:code` in square order (`a1 b1 … a2 …`).
    #[must_use]
    pub fn to_text(&self, p: &Presenter) -> String {
        self.sorted()
            .into_iter()
            .map(|(pos, c)| format!("{}:{c}", p.square_name(pos)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn sorted(&self) -> Vec<(Pos, String)> {
        let mut v: Vec<(Pos, String)> = self.placed.iter().map(|(k, c)| (*k, c.clone())).collect();
        v.sort_by_key(|((f, r), _)| (*r, *f));
        v
    }

    /// Checks the setup with the engine; the checked setup to start a game with.
    ///
    /// # Errors
    /// The engine's message: which square, which piece, what is wrong.
    pub fn validate(&self, p: &Presenter) -> Result<SeatSetup, TuiError> {
        wire::setup_from_json(&p.spec, self.seat, &self.to_json(p))
            .map_err(|e| TuiError::Setup(e.to_string()))
    }
}

/// Parses setup text (`a1:FLG b1:PVT ...`, spaces, commas or new lines between items;
/// lines starting with `#` are comments) into JSON square → code.
///
/// # Errors
/// An item not written `square:code`.
pub fn parse_setup_text(text: &str) -> Result<Value, TuiError> {
    let mut obj = serde_json::Map::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        for item in line.split([' ', ',', '\t']).filter(|w| !w.is_empty()) {
            let (sq, code) = item.split_once([':', '=']).ok_or_else(|| {
                TuiError::Setup(format!(
                    "{item:?} must be written square:piece, e.g. a1:FLG"
                ))
            })?;
            obj.insert(sq.to_ascii_lowercase(), Value::String(code.to_string()));
        }
    }
    Ok(Value::Object(obj))
}

/// The folder where named setups are kept: `$XDG_DATA_HOME/salpakan/setups/<game>-<army>`
/// (or `~/.local/share/...`), or `base/<game>-<army>` when `base` is given.
#[must_use]
pub fn setups_dir(p: &Presenter, base: Option<&Path>) -> PathBuf {
    let army: String = p
        .army_name()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let leaf = format!("{}-{army}", p.kind.name());
    if let Some(b) = base {
        return b.join(leaf);
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    data.join("salpakan").join("setups").join(leaf)
}

/// Where a setup named `name` lives: a path as given when it has a `/` or ends in
/// `.setup`, else `<dir>/<name>.setup`.
///
/// # Errors
/// An empty name.
pub fn setup_path(dir: &Path, name: &str) -> Result<PathBuf, TuiError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(TuiError::Setup("give the setup a name (or a path)".into()));
    }
    if name.contains('/') || name.ends_with(".setup") {
        let expanded = match (name.strip_prefix("~/"), std::env::var_os("HOME")) {
            (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
            _ => PathBuf::from(name),
        };
        return Ok(expanded);
    }
    Ok(dir.join(format!("{name}.setup")))
}

/// The names of the setups saved in `dir`, sorted.
#[must_use]
pub fn saved_setups(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    n.strip_suffix(".setup").map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
