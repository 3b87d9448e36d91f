//! The challenge arbiter: one challenge decided from the two ranks alone, for players who
//! keep their own board (`docs/arbiter-board.md`).
//!
//! Each side tells the arbiter the rank of its own piece; [`decide`] answers with what the
//! game's rules let the arbiter announce: which piece leaves the board (or both), whether a
//! Flag was captured, and the ranks the options let be shown (Game of the Generals:
//! `reveal`; Stratego: both ranks, always). The battle itself is the engine's own
//! ([`generals::duel`], [`stratego::StrategoOptions::battle`]): nothing is decided here that
//! the games do not decide when the same attack is played on a board.
//!
//! ```
//! use salpakan_engine::challenge::{Removed, Side, decide};
//! use salpakan_engine::{GameKind, GameSpec};
//!
//! let spec = GameSpec::default_for(GameKind::Generals);
//! // A Private challenges a Spy: the Spy leaves the board; nothing else is said.
//! let r = decide(&spec, "PVT", "SPY")?;
//! assert_eq!(r.removed, Removed::Defender);
//! assert_eq!((r.attacker_shown, r.defender_shown, r.flag_captured_by), (None, None, None));
//! // Any piece that challenges the Flag captures it: the game is over.
//! assert_eq!(decide(&spec, "SPY", "FLG")?.flag_captured_by, Some(Side::Attacker));
//! # Ok::<(), salpakan_engine::challenge::ChallengeError>(())
//! ```

use serde::Serialize;
use thiserror::Error;

use crate::generals::{self, GeneralsOptions, Reveal};
use crate::stratego::{self, StrategoOptions};
use crate::{GameKind, GameSpec};

/// One of the two pieces of a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The piece that moved onto the other.
    Attacker,
    /// The piece that was challenged.
    Defender,
}

/// Which piece(s) a challenge takes off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Removed {
    /// The attacker leaves the board; the defender stays.
    Attacker,
    /// The defender leaves the board; the attacker takes its square.
    Defender,
    /// Both leave the board.
    Both,
}

/// What the arbiter announces of one challenge: everything in it is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Ruling {
    /// Which piece(s) leave the board.
    pub removed: Removed,
    /// The side that captured the other's Flag (the game is over), if one did.
    pub flag_captured_by: Option<Side>,
    /// The attacker's rank code, when the rules let it be announced.
    pub attacker_shown: Option<&'static str>,
    /// The defender's rank code, when the rules let it be announced.
    pub defender_shown: Option<&'static str>,
}

/// Why a challenge cannot be decided. The messages name only the rank the caller gave.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ChallengeError {
    /// The game has no hidden challenges.
    #[error("{0} has no hidden challenges to arbitrate: every battle is decided face up")]
    NoChallenges(&'static str),
    /// Not a rank code of the game.
    #[error("{code:?} is not a rank of {game}; use one of {expected}")]
    UnknownRank {
        /// The game's name.
        game: &'static str,
        /// What was given.
        code: String,
        /// The game's rank codes.
        expected: String,
    },
    /// A rank the army of these options does not have.
    #[error("the army of this game has no {name} ({code}); enter the rank of your own piece")]
    NotInArmy {
        /// The rank's name.
        name: &'static str,
        /// Its code.
        code: &'static str,
    },
    /// A piece that never moves cannot attack.
    #[error("a {0} never moves, so it cannot attack; the attacker is the piece that moved")]
    CannotAttack(&'static str),
}

/// The rank codes of `kind` that a side may enter (strongest first for Game of the
/// Generals, by rank for Stratego), limited to the pieces of the spec's army; empty for a
/// game without hidden challenges.
#[must_use]
pub fn ranks(spec: &GameSpec) -> Vec<&'static str> {
    match spec {
        GameSpec::Generals(o) => generals::Piece::ALL
            .iter()
            .filter(|&&p| o.army.count(p) > 0)
            .map(|p| p.code())
            .collect(),
        GameSpec::Stratego(o) => {
            let army = o.army.pieces();
            stratego::Piece::ALL
                .iter()
                .filter(|p| army.contains(p))
                .map(|p| p.code())
                .collect()
        }
        GameSpec::Banqi(_) => Vec::new(),
    }
}

/// Decides a challenge of `attacker` (the moving piece's rank code) on `defender` under
/// `spec`'s rules.
///
/// # Errors
/// A [`ChallengeError`] for Banqi, a code that is not a rank of the game or of its army, or
/// (Stratego) an attacker that never moves.
pub fn decide(spec: &GameSpec, attacker: &str, defender: &str) -> Result<Ruling, ChallengeError> {
    match spec {
        GameSpec::Generals(o) => {
            let a = generals_rank(o, attacker)?;
            let d = generals_rank(o, defender)?;
            Ok(generals_ruling(o, a, d))
        }
        GameSpec::Stratego(o) => {
            let a = stratego_rank(o, attacker)?;
            let d = stratego_rank(o, defender)?;
            if !a.is_movable() {
                return Err(ChallengeError::CannotAttack(a.name()));
            }
            Ok(stratego_ruling(o, a, d))
        }
        GameSpec::Banqi(_) => Err(ChallengeError::NoChallenges("Banqi")),
    }
}

fn generals_rank(o: &GeneralsOptions, code: &str) -> Result<generals::Piece, ChallengeError> {
    let p =
        generals::Piece::from_code(code.trim()).ok_or_else(|| unknown(GameKind::Generals, code))?;
    if o.army.count(p) == 0 {
        return Err(ChallengeError::NotInArmy {
            name: p.name(),
            code: p.code(),
        });
    }
    Ok(p)
}

fn stratego_rank(o: &StrategoOptions, code: &str) -> Result<stratego::Piece, ChallengeError> {
    let p =
        stratego::Piece::from_code(code.trim()).ok_or_else(|| unknown(GameKind::Stratego, code))?;
    if !o.army.pieces().contains(&p) {
        return Err(ChallengeError::NotInArmy {
            name: p.name(),
            code: p.code(),
        });
    }
    Ok(p)
}

fn unknown(kind: GameKind, code: &str) -> ChallengeError {
    let expected: Vec<&str> = match kind {
        GameKind::Generals => generals::Piece::ALL.iter().map(|p| p.code()).collect(),
        _ => stratego::Piece::ALL.iter().map(|p| p.code()).collect(),
    };
    ChallengeError::UnknownRank {
        game: kind.name(),
        code: code.chars().take(12).collect(),
        expected: expected.join(" "),
    }
}

/// A Game of the Generals challenge: the duel of `RULES.md` §1 ([`generals::duel`]); under
/// `reveal=winner` the surviving piece's rank is announced, under `reveal=both` both ranks;
/// a Flag challenged (or challenging) and not surviving is captured.
#[must_use]
pub fn generals_ruling(
    o: &GeneralsOptions,
    attacker: generals::Piece,
    defender: generals::Piece,
) -> Ruling {
    use generals::Duel;
    let result = generals::duel(attacker, defender);
    let removed = match result {
        Duel::AttackerWins => Removed::Defender,
        Duel::DefenderWins => Removed::Attacker,
        Duel::BothEliminated => Removed::Both,
    };
    let flag_captured_by = if defender == generals::Piece::Flag && result != Duel::DefenderWins {
        Some(Side::Attacker)
    } else if attacker == generals::Piece::Flag && result != Duel::AttackerWins {
        Some(Side::Defender)
    } else {
        None
    };
    let (show_attacker, show_defender) = match (o.reveal, result) {
        (Reveal::None, _) => (false, false),
        (Reveal::Both, _) => (true, true),
        (Reveal::Winner, Duel::AttackerWins) => (true, false),
        (Reveal::Winner, Duel::DefenderWins) => (false, true),
        (Reveal::Winner, Duel::BothEliminated) => (false, false),
    };
    Ruling {
        removed,
        flag_captured_by,
        attacker_shown: show_attacker.then(|| attacker.code()),
        defender_shown: show_defender.then(|| defender.code()),
    }
}

/// A Stratego attack: the battle of these options ([`StrategoOptions::battle`]: the Spy and
/// the Marshal, the defuser and Bombs, one-time Bombs, aggression); both ranks are always
/// announced; a Flag attacked is captured.
#[must_use]
pub fn stratego_ruling(
    o: &StrategoOptions,
    attacker: stratego::Piece,
    defender: stratego::Piece,
) -> Ruling {
    use stratego::Duel;
    let result = o.battle(attacker, defender);
    let removed = match result {
        Duel::AttackerWins => Removed::Defender,
        Duel::DefenderWins => Removed::Attacker,
        Duel::BothRemoved => Removed::Both,
    };
    let flag_captured_by = (defender == stratego::Piece::Flag && result == Duel::AttackerWins)
        .then_some(Side::Attacker);
    Ruling {
        removed,
        flag_captured_by,
        attacker_shown: Some(attacker.code()),
        defender_shown: Some(defender.code()),
    }
}
