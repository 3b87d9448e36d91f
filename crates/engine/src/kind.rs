//! [`GameKind`]: which of the three games, with its names for seats and viewers.

use std::fmt;
use std::str::FromStr;

use crate::{Seat, Viewer};

/// The games salpakan plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Game of the Generals (Salpakan).
    Generals,
    /// Stratego.
    Stratego,
    /// Banqi (Dark Chess, Half Chess).
    Banqi,
}

impl GameKind {
    /// Every game.
    pub const ALL: [GameKind; 3] = [GameKind::Generals, GameKind::Stratego, GameKind::Banqi];

    /// The name used in protocols and records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Generals => "generals",
            GameKind::Stratego => "stratego",
            GameKind::Banqi => "banqi",
        }
    }

    /// The game's own name for a seat (`white`/`black`, `red`/`blue`, `first`/`second`).
    #[must_use]
    pub const fn seat_name(self, seat: Seat) -> &'static str {
        match (self, seat) {
            (GameKind::Generals, Seat::First) => "white",
            (GameKind::Generals, Seat::Second) => "black",
            (GameKind::Stratego, Seat::First) => "red",
            (GameKind::Stratego, Seat::Second) => "blue",
            (GameKind::Banqi, Seat::First) => "first",
            (GameKind::Banqi, Seat::Second) => "second",
        }
    }

    /// The name of a viewer in this game: a seat name, `spectator` or `arbiter`.
    #[must_use]
    pub const fn viewer_name(self, viewer: Viewer) -> &'static str {
        match viewer {
            Viewer::Player(s) => self.seat_name(s),
            Viewer::Spectator => "spectator",
            Viewer::Arbiter => "arbiter",
        }
    }

    /// The seat with this name in this game.
    #[must_use]
    pub fn parse_seat(self, name: &str) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|&s| self.seat_name(s).eq_ignore_ascii_case(name))
    }

    /// The board's size: (files, ranks).
    #[must_use]
    pub const fn board_size(self) -> (u8, u8) {
        match self {
            GameKind::Generals => (9, 8),
            GameKind::Stratego => (10, 10),
            GameKind::Banqi => (4, 8),
        }
    }

    /// Whether players submit secret setups (Generals, Stratego); Banqi is dealt instead.
    #[must_use]
    pub const fn has_setups(self) -> bool {
        !matches!(self, GameKind::Banqi)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown game {s:?}; expected generals, stratego or banqi"))
    }
}
