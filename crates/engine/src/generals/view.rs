//! Events, views and observations: what each viewer is told.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

use crate::{OutcomeView, Seat};

use super::*;

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

/// Appends `s` as a JSON string. Everything an observation names comes from the engine's
/// fixed tables (seats, viewers, squares, piece codes, `?`), none of which needs escaping
/// (a test compares every observation with `serde_json`'s text).
fn push_json_str(out: &mut String, s: &str) {
    debug_assert!(
        s.bytes()
            .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\'),
        "{s:?} needs escaping"
    );
    out.reserve(s.len() + 2);
    out.push('"');
    out.push_str(s);
    out.push('"');
}

impl GeneralsObservation {
    /// Appends the observation as JSON text, byte for byte as `serde_json` writes it,
    /// without its serializer (observations are written for every recipient of every ply).
    pub fn write_json(&self, out: &mut String) {
        use std::fmt::Write;
        out.push_str(r#"{"game":"#);
        push_json_str(out, self.game);
        out.push_str(r#","viewer":"#);
        push_json_str(out, self.viewer);
        out.push_str(r#","to_move":"#);
        match self.to_move {
            Some(s) => push_json_str(out, s),
            None => out.push_str("null"),
        }
        let _ = write!(
            out,
            r#","ply":{},"quiet_plies":{},"board":{{"#,
            self.ply, self.quiet_plies
        );
        for (i, (sq, v)) in self.board.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_json_str(out, sq.name());
            out.push_str(r#":{"owner":"#);
            push_json_str(out, v.owner);
            if let Some(p) = v.piece {
                out.push_str(r#","piece":"#);
                push_json_str(out, p.code());
            }
            out.push('}');
        }
        out.push_str(r#"},"eliminated":{"#);
        for (i, (seat, codes)) in self.eliminated.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_json_str(out, seat);
            out.push_str(":[");
            for (j, c) in codes.iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                push_json_str(out, c);
            }
            out.push(']');
        }
        out.push_str(r#"},"result":"#);
        match &self.result {
            Some(r) => out.push_str(&serde_json::to_string(r).expect("an outcome serializes")),
            None => out.push_str("null"),
        }
        out.push('}');
    }
}
