//! Seats and viewers: who plays, and who is looking.

use serde::{Deserialize, Serialize};

/// One of the two seats of a game.
///
/// Every game has exactly two seats. `First` is White in Game of the Generals, Red in
/// Stratego and the first mover in Banqi; the games name their seats through
/// [`crate::GameKind::seat_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// White (Generals), Red (Stratego), the first mover (Banqi).
    First = 0,
    /// Black (Generals), Blue (Stratego), the second mover (Banqi).
    Second = 1,
}

impl Seat {
    /// Both seats, first then second.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// The other seat.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// 0 for the first seat, 1 for the second: an index into per-seat arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with the given index (0 or 1).
    #[inline]
    #[must_use]
    pub const fn from_index(i: usize) -> Seat {
        if i == 0 { Seat::First } else { Seat::Second }
    }
}

/// Who is looking at a game: a player, a spectator, or the arbiter itself.
///
/// Everything that leaves the engine (observations, ply views, records) is produced for a
/// viewer. A player sees their own pieces and what they were shown; a spectator sees only
/// public facts; the arbiter sees everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The player in this seat.
    Player(Seat),
    /// Anyone watching: only public facts.
    Spectator,
    /// The arbiter: the full state. Never sent to a player before the game ends.
    Arbiter,
}

impl Viewer {
    /// Whether this viewer may see everything that `seat` owns (the seat itself, or the arbiter).
    #[inline]
    #[must_use]
    pub fn sees_own(self, seat: Seat) -> bool {
        match self {
            Viewer::Player(s) => s == seat,
            Viewer::Spectator => false,
            Viewer::Arbiter => true,
        }
    }

    /// The seat of a player viewer.
    #[must_use]
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Player(s) => Some(s),
            _ => None,
        }
    }
}
