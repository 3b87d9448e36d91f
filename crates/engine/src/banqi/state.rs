//! The arbiter's state, events, views and observations.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

use crate::{Outcome, OutcomeView, Seat};

use super::*;

/// A cell of the mailbox: 0 empty, else `1 + piece index`.
pub(super) type Cell = u8;

/// A Banqi game: the arbiter's full state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Banqi {
    pub(super) options: BanqiOptions,
    pub(super) caps: [u8; 7],
    /// `caps` as lane masks: `capm[k][v]` is all ones when kind `k` takes kind `v`.
    pub(super) capm: [[u32; 8]; 7],
    pub(super) jump: bool,
    pub(super) track: bool,
    pub(super) cells: [Cell; SQUARES],
    /// Face-down squares.
    pub(super) down: u32,
    /// Occupied squares.
    pub(super) occ: u32,
    /// Face-up pieces by colour and kind.
    pub(super) bb: [[u32; 8]; 2],
    /// Face-up pieces by colour.
    pub(super) up: [u32; 2],
    /// Pieces of each colour still on the board, face up or down.
    pub(super) remaining: [u8; 2],
    /// The colour of the first seat, once the first flip decided it.
    pub(super) first_color: Option<Color>,
    pub(super) turn: Seat,
    pub(super) ply: u32,
    pub(super) quiet: u32,
    /// The square of the piece continuing a capture chain.
    pub(super) chain: Option<Square>,
    pub(super) outcome: Option<Outcome>,
    /// Face-down pieces not yet seen, by piece index (public knowledge).
    pub(super) unseen: [u8; 14],
    /// Captured pieces in capture order.
    pub(super) captured: Vec<Piece>,
    pub(super) hash: u64,
    /// Position hashes since the last flip or capture (the position after it first).
    pub(super) history: Vec<u64>,
    /// Moves since the last flip or capture.
    pub(super) recent: Vec<Move>,
    /// Whether each seat's last action was a chasing move.
    pub(super) chasing: [bool; 2],
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
