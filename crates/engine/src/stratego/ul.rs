//! The rules Ultimate Lightning adds to Stratego, each an option any army may use
//! (`docs/rules-stratego.md`, "Ultimate Lightning"): aggression, one-time Bombs, the Bomb
//! defuser, two-square Captains and rescues.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::{
    Army, Duel, FILES, LAKES, Move, Piece, RANKS, SetupArea, Square, Stratego, StrategoOptions,
    cell, segment,
};
use crate::options::{parse_bool, parse_choice};
use crate::{OptionError, PlayError, Seat};

/// The most rescues a side may be allowed (`rescues`).
pub const MAX_RESCUES: u8 = 9;

/// Which piece defuses Bombs (`defuser`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Defuser {
    /// The Miner (classic rules; `miner`).
    Miner,
    /// The Scout (Ultimate Lightning; `scout`): a Miner then attacks a Bomb like any piece.
    Scout,
}

const DEFUSERS: [(&str, Defuser); 2] = [("miner", Defuser::Miner), ("scout", Defuser::Scout)];

impl Defuser {
    /// The piece that defuses.
    #[must_use]
    pub const fn piece(self) -> Piece {
        match self {
            Defuser::Miner => Piece::Miner,
            Defuser::Scout => Piece::Scout,
        }
    }
}

/// A rescue: one of the mover's captured pieces put back on an empty square of the mover's
/// half of the board. Written `+7@j4` after the move (`i9-i10+7@j4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Rescue {
    /// The piece brought back.
    pub piece: Piece,
    /// Where it is put.
    pub square: Square,
}

impl fmt::Display for Rescue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{}@{}", self.piece.code(), self.square)
    }
}

impl FromStr for Rescue {
    type Err = PlayError;
    /// Parses `7@j4` (the part after the move's `+`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |why: &str| {
            PlayError::Parse(format!(
                "{s:?} is not a rescue ({why}); write piece@square after the move, e.g. a9-a10+7@j4"
            ))
        };
        let (p, sq) = s.trim().split_once('@').ok_or_else(|| bad("no @"))?;
        let piece = Piece::from_code(p.trim()).ok_or_else(|| bad("unknown piece"))?;
        let square = sq.trim().parse().map_err(|e: String| bad(&e))?;
        Ok(Rescue { piece, square })
    }
}

/// The squares a move covers (for the two-squares rule): a straight move its start, its end
/// and every square between; a Captain's turning two-square move only its start and end
/// (which of the two squares between it passed is not part of the move).
pub(super) fn covered(from: u8, to: u8) -> u128 {
    if from / FILES == to / FILES || from % FILES == to % FILES {
        segment(from, to)
    } else {
        (1u128 << from) | (1u128 << to)
    }
}

/// The enemy's back rank as seen from `seat` (rank 10 for Red, rank 1 for Blue).
const fn back_rank(seat: Seat) -> u8 {
    match seat {
        Seat::First => RANKS - 1,
        Seat::Second => 0,
    }
}

impl StrategoOptions {
    /// The result of `attacker` attacking `defender` under these options: [`super::duel`],
    /// changed by `aggression` (equal ranks: the attacker wins), `defuser` (who defuses a
    /// Bomb) and `one_time_bombs` (any other attacker is removed together with the Bomb).
    #[must_use]
    pub fn battle(&self, attacker: Piece, defender: Piece) -> Duel {
        if defender == Piece::Bomb && attacker != Piece::Bomb {
            return if attacker == self.defuser.piece() {
                Duel::AttackerWins
            } else if self.one_time_bombs {
                Duel::BothRemoved
            } else {
                Duel::DefenderWins
            };
        }
        if self.aggression && attacker == defender {
            return Duel::AttackerWins;
        }
        super::duel(attacker, defender)
    }

    /// These options with `army` and its rules (as the `army` option sets them).
    #[must_use]
    pub fn with_army(mut self, army: Army) -> StrategoOptions {
        self.army = army;
        self.set_army_rules();
        self
    }

    /// Sets the rule options to what the army plays with: Ultimate Lightning's for
    /// `ultimate_lightning`, the classic rules for every other army.
    pub(super) fn set_army_rules(&mut self) {
        let ul = self.army == Army::UltimateLightning;
        self.aggression = ul;
        self.one_time_bombs = ul;
        self.defuser = if ul { Defuser::Scout } else { Defuser::Miner };
        self.captain_steps = if ul { 2 } else { 1 };
        self.rescues = if ul { 2 } else { 0 };
    }

    pub(super) fn set_variant_rule(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let small = |max: u8| -> Result<u8, OptionError> {
            value
                .parse::<u8>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or_else(|| OptionError::BadValue {
                    key: key.into(),
                    value: value.into(),
                    expected: format!("a whole number up to {max}"),
                })
        };
        match key {
            "aggression" => self.aggression = parse_bool(key, value)?,
            "one_time_bombs" => self.one_time_bombs = parse_bool(key, value)?,
            "defuser" => self.defuser = parse_choice(key, value, &DEFUSERS)?,
            "captain_steps" => {
                self.captain_steps = match small(2)? {
                    0 => {
                        return Err(OptionError::BadValue {
                            key: key.into(),
                            value: value.into(),
                            expected: "1 or 2".into(),
                        });
                    }
                    n => n,
                };
            }
            _ => self.rescues = small(MAX_RESCUES)?,
        }
        Ok(())
    }

    /// The rule options that differ from the army's own rules (so the canonical text of a
    /// classic game stays as it was, and an Ultimate Lightning game lists only changes).
    pub(super) fn variant_rule_pairs(&self) -> Vec<(&'static str, String)> {
        let mut base = self.clone();
        base.set_army_rules();
        let mut out = Vec::new();
        if self.aggression != base.aggression {
            out.push(("aggression", self.aggression.to_string()));
        }
        if self.one_time_bombs != base.one_time_bombs {
            out.push(("one_time_bombs", self.one_time_bombs.to_string()));
        }
        if self.defuser != base.defuser {
            let name = DEFUSERS
                .iter()
                .find(|(_, d)| *d == self.defuser)
                .map_or("miner", |(n, _)| n);
            out.push(("defuser", name.to_string()));
        }
        if self.captain_steps != base.captain_steps {
            out.push(("captain_steps", self.captain_steps.to_string()));
        }
        if self.rescues != base.rescues {
            out.push(("rescues", self.rescues.to_string()));
        }
        out
    }
}

impl Stratego {
    /// Whether `piece` moving `from`-`to` is a Captain's two-square move under
    /// `captain_steps=2` (straight, or turning once).
    pub(super) fn is_two_step(&self, piece: Piece, from: Square, to: Square) -> bool {
        piece == Piece::Captain && self.options.captain_steps > 1 && from.steps_to(to) == 2
    }

    /// The empty land squares a two-square move from `from` to `to` may pass.
    fn two_step_paths(&self, from: Square, to: Square) -> impl Iterator<Item = Square> {
        let empty = self.empty();
        let (ff, fr, tf, tr) = (from.file(), from.rank(), to.file(), to.rank());
        let mids = [Square::new(tf, fr), Square::new(ff, tr)];
        let straight = ff == tf || fr == tr;
        let mid = Square::new(u8::midpoint(ff, tf), u8::midpoint(fr, tr));
        let list = if straight { [mid, None] } else { mids };
        list.into_iter()
            .flatten()
            .filter(move |m| empty & (1u128 << m.index()) != 0)
    }

    /// Why a Captain's two-square move `from`-`to` is impossible; `None` if it is possible.
    pub(super) fn two_step_error(&self, from: Square, to: Square) -> Option<String> {
        if self.two_step_paths(from, to).next().is_some() {
            return None;
        }
        Some(format!(
            "a Captain moves two squares only over an empty square that is no lake; nothing \
             leads from {from} to {to}"
        ))
    }

    /// Every pseudo-legal two-square Captain move of `me` (none unless `captain_steps=2`).
    pub(super) fn two_steps(&self, me: Seat) -> Vec<(u8, u8)> {
        let mut out = Vec::new();
        if self.options.captain_steps < 2 {
            return out;
        }
        let open = self.empty() | self.occ[me.other().index()];
        let mut mine = self.movable[me.index()];
        while mine != 0 {
            let from = mine.trailing_zeros() as u8;
            mine &= mine - 1;
            if self.cells[from as usize] == 0
                || super::cell_piece::<Piece>(self.cells[from as usize]) != Piece::Captain
            {
                continue;
            }
            let f = Square::at(from);
            for (df, dr) in [
                (2i8, 0i8),
                (-2, 0),
                (0, 2),
                (0, -2),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let (Some(tf), Some(tr)) = (
                    f.file().checked_add_signed(df),
                    f.rank().checked_add_signed(dr),
                ) else {
                    continue;
                };
                let Some(t) = Square::new(tf, tr) else {
                    continue;
                };
                if open & t.bit() != 0 && self.two_step_paths(f, t).next().is_some() {
                    out.push((from, t.0));
                }
            }
        }
        out
    }

    /// Whether the move shows the moving piece's rank to everybody: a move of three or more
    /// squares (only a Scout), a turning two-square move (only a Captain), a straight
    /// two-square move when Captains move one square (only a Scout).
    pub(super) fn move_shows_rank(&self, piece: Piece, mv: Move) -> bool {
        let d = mv.from.steps_to(mv.to);
        if d <= 1 {
            return false;
        }
        let straight = mv.from.file() == mv.to.file() || mv.from.rank() == mv.to.rank();
        d >= 3
            || !straight
            || self.options.captain_steps < 2
            || (piece != Piece::Captain && piece != Piece::Scout)
    }

    /// Whether `piece` of `me` arriving on `to` may make a rescue.
    fn may_rescue(&self, me: Seat, from: u8, to: u8, piece: Piece) -> bool {
        self.options.rescues > self.rescued[me.index()]
            && piece != Piece::Scout
            && to / FILES == back_rank(me)
            && self.rescuers & (1u128 << from) == 0
    }

    /// The empty squares of `me`'s half where a rescued piece may be put (after the move
    /// `from`-`to`: `from` is then empty).
    fn rescue_squares(&self, me: Seat, from: u8) -> u128 {
        SetupArea::Half.mask(me) & (self.empty() | (1u128 << from)) & !LAKES
    }

    /// Why the rescue `r` with the move `mv` of `piece` is refused; `None` if allowed.
    pub(super) fn rescue_error(
        &self,
        me: Seat,
        mv: Move,
        piece: Piece,
        r: Rescue,
    ) -> Option<String> {
        if self.options.rescues == 0 {
            return Some("this game has no rescues (rescues is 0)".into());
        }
        if self.rescued[me.index()] >= self.options.rescues {
            return Some(format!(
                "you have made all {} of your rescues",
                self.options.rescues
            ));
        }
        if piece == Piece::Scout {
            return Some("a Scout cannot make a rescue".into());
        }
        if mv.to.0 / FILES != back_rank(me) {
            return Some(format!(
                "a rescue is made by moving onto the enemy's back rank (rank {}); {} is not on it",
                back_rank(me) + 1,
                mv.to
            ));
        }
        if self.rescuers & mv.from.bit() != 0 {
            return Some("this piece has already made a rescue; one piece cannot make two".into());
        }
        if self.lost[me.index()][r.piece as usize] == 0 {
            return Some(format!("you have no captured {} to rescue", r.piece.name()));
        }
        if self.rescue_squares(me, mv.from.0) & r.square.bit() == 0 {
            return Some(format!(
                "a rescued piece goes on an empty square of your half of the board (ranks {}); {} is not one",
                match me {
                    Seat::First => "1-5",
                    Seat::Second => "6-10",
                },
                r.square
            ));
        }
        None
    }

    /// Pushes the move `from`-`to` of `me`, and with it every rescue it may make.
    pub(super) fn push_move(&self, me: Seat, from: u8, to: u8, out: &mut Vec<Move>) {
        let mv = Move::new(Square::at(from), Square::at(to));
        out.push(mv);
        if self.options.rescues == 0 {
            return;
        }
        let piece = super::cell_piece(self.cells[from as usize]);
        if !self.may_rescue(me, from, to, piece) {
            return;
        }
        let squares = self.rescue_squares(me, from);
        for p in Piece::ALL {
            if self.lost[me.index()][p as usize] == 0 {
                continue;
            }
            let mut bits = squares;
            while bits != 0 {
                let s = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                out.push(Move {
                    rescue: Some(Rescue {
                        piece: p,
                        square: Square::at(s),
                    }),
                    ..mv
                });
            }
        }
    }

    /// Makes the rescue `r` for `me`, whose piece now stands on `at`.
    pub(super) fn make_rescue(&mut self, me: Seat, at: usize, r: Rescue) {
        if self.cells[r.square.index()] != 0 || self.lost[me.index()][r.piece as usize] == 0 {
            // Only reachable through `play_unchecked` with a move that is not legal here
            // (e.g. a bot's determinized world): keep the state consistent, skip the rescue.
            return;
        }
        self.lost[me.index()][r.piece as usize] -= 1;
        self.put(r.square.index(), cell(me, r.piece));
        self.known |= r.square.bit();
        self.rescuers |= 1u128 << at;
        self.rescued[me.index()] += 1;
    }

    /// Rescues each seat has made.
    #[must_use]
    pub fn rescues_made(&self) -> [u8; 2] {
        self.rescued
    }
}
