//! Events, views and observations: what each viewer is told.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

use crate::{OutcomeView, Seat};

use super::*;

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
