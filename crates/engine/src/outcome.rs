//! How games end.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::Seat;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A Flag was captured (Generals, Stratego).
    FlagCaptured,
    /// A Game of the Generals Flag reached the far rank and survived as the flag rule requires.
    FlagReachedBackRank,
    /// The side to move had no legal move (or no movable piece) and lost.
    NoLegalMoves,
    /// Neither side could move (Stratego): a draw.
    NeitherCanMove,
    /// A side had no pieces of its colour left on the board (Banqi).
    NoPiecesLeft,
    /// The quiet-ply limit (`max_quiet_plies`) was reached: a draw.
    QuietPlies,
    /// A position repeated as often as the repetition option allows: a draw.
    Repetition,
    /// A player resigned.
    Resignation,
    /// Both players agreed to a draw.
    Agreement,
    /// A player ran out of time.
    Time,
    /// A player left the game (disconnected past the grace period, or left during setup).
    Abandonment,
    /// A program playing the seat failed: it crashed, timed out or answered an illegal move.
    Forfeit,
}

impl EndReason {
    /// Every reason, for parsing and documentation.
    pub const ALL: [EndReason; 12] = [
        EndReason::FlagCaptured,
        EndReason::FlagReachedBackRank,
        EndReason::NoLegalMoves,
        EndReason::NeitherCanMove,
        EndReason::NoPiecesLeft,
        EndReason::QuietPlies,
        EndReason::Repetition,
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::Time,
        EndReason::Abandonment,
        EndReason::Forfeit,
    ];

    /// The snake_case name used in protocols and records.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::FlagCaptured => "flag_captured",
            EndReason::FlagReachedBackRank => "flag_reached_back_rank",
            EndReason::NoLegalMoves => "no_legal_moves",
            EndReason::NeitherCanMove => "neither_can_move",
            EndReason::NoPiecesLeft => "no_pieces_left",
            EndReason::QuietPlies => "quiet_plies",
            EndReason::Repetition => "repetition",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Time => "time",
            EndReason::Abandonment => "abandonment",
            EndReason::Forfeit => "forfeit",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for EndReason {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EndReason::ALL
            .iter()
            .copied()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<_> = EndReason::ALL.iter().map(|r| r.as_str()).collect();
                format!(
                    "unknown end reason {s:?}; expected one of {}",
                    names.join(", ")
                )
            })
    }
}

/// An outcome as protocols write it: `{"winner":"white","reason":"flag_captured"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeView {
    /// The winner's seat name, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// The result of a finished game: the winner (or `None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<Seat>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `seat`.
    #[must_use]
    pub const fn win(seat: Seat, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(seat),
            reason,
        }
    }

    /// A draw.
    #[must_use]
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The PGN-style result token: `1-0` (first seat won), `0-1`, or `1/2-1/2`.
    #[must_use]
    pub const fn result_token(&self) -> &'static str {
        match self.winner {
            Some(Seat::First) => "1-0",
            Some(Seat::Second) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The outcome with seats named as `kind` names them.
    #[must_use]
    pub fn view(&self, kind: crate::GameKind) -> OutcomeView {
        OutcomeView {
            winner: self.winner.map(|s| kind.seat_name(s)),
            reason: self.reason,
        }
    }

    /// The score of `seat`: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[must_use]
    pub fn score(&self, seat: Seat) -> f64 {
        match self.winner {
            Some(w) if w == seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}
