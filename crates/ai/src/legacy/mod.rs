//! Old programs in the arena, and salpakan bots in old managers (`docs/legacy-protocols.md`).
//!
//! Two protocols older than salpakan:
//!
//! - [`ucc`]: the 2012 UCC programming competition's Stratego agent protocol (`ucc:"..."`).
//! - [`ntu`]: the NTU computer Dark Chess course protocol for Banqi engines (`ntu:"..."`).
//!
//! As referee ([`LegacyBot`]), salpakan runs the program as a child process, shows it only
//! what its seat may see (built from the seat's observation and its view of each ply), and
//! decides everything. A move refused by a rule the old protocol does not know (the
//! two-squares and chase rules) is replaced by the referee with the nearest legal move of the
//! same piece, and counted; a move illegal under the protocol's own rules, a malformed line, a
//! time-out or a crash loses the game by forfeit, and is counted too ([`Incidents`]).
//!
//! The other way round, [`ucc::agent`] and [`ntu::agent`] make any salpakan bot speak those
//! protocols on stdin/stdout (`salpakan bot --protocol ucc|ntu`).

pub mod ntu;
mod process;
mod proxy;
pub mod ucc;

use std::fmt;

use rand::Rng;
use salpakan_engine::banqi::BanqiOptions;
use salpakan_engine::stratego::StrategoOptions;
use salpakan_engine::{
    AnyMatch, AnyMove, Game, GameKind, GameSpec, Match, Seat, rng_from_seed, square,
};
use serde_json::Value;

use crate::protocol::BotFailure;
use crate::{BotKind, BotSpec};

/// The parameters of `ntu:"..."` bots.
pub(crate) const NTU_PARAMS: &[(&str, &str, u64, u64)] = &[
    (
        "timeout",
        "milliseconds the program may take per answer (default 5000)",
        1,
        3_600_000,
    ),
    (
        "clock",
        "milliseconds on the engine's game clock, told by time_setting and time_left \
         (default 900000, the platform's 15 minutes)",
        1,
        86_400_000,
    ),
];

/// What the referee counted for one program (in one game, or summed over games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Incidents {
    /// Moves refused by the two-squares rule, replaced by the referee.
    pub two_squares: u32,
    /// Moves refused by the chase (more-squares) rule, replaced by the referee.
    pub chase: u32,
    /// Moves illegal under the protocol's own rules (lost the game).
    pub illegal: u32,
    /// Lines that are not the protocol (lost the game).
    pub malformed: u32,
    /// Answers later than the time limit (lost the game).
    pub timeouts: u32,
    /// Exits or closed output (lost the game).
    pub crashes: u32,
    /// `SURRENDER` or `NO_MOVE` answers (resigned the game).
    pub resignations: u32,
}

impl Incidents {
    /// Adds another count to this one.
    pub fn add(&mut self, o: &Incidents) {
        self.two_squares += o.two_squares;
        self.chase += o.chase;
        self.illegal += o.illegal;
        self.malformed += o.malformed;
        self.timeouts += o.timeouts;
        self.crashes += o.crashes;
        self.resignations += o.resignations;
    }

    /// Whether nothing was counted.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Incidents::default()
    }

    /// Only the kinds counted, e.g. `two-squares refusals 3, crashes 1` (empty if none).
    #[must_use]
    pub fn brief(&self) -> String {
        [
            ("two-squares refusals", self.two_squares),
            ("chase refusals", self.chase),
            ("illegal moves", self.illegal),
            ("malformed lines", self.malformed),
            ("time-outs", self.timeouts),
            ("crashes", self.crashes),
            ("resignations", self.resignations),
        ]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
    }

    fn count(&mut self, f: &BotFailure) {
        match f {
            BotFailure::Timeout(_) => self.timeouts += 1,
            BotFailure::Crashed(_) | BotFailure::Spawn { .. } => self.crashes += 1,
            BotFailure::BadAnswer { .. } => self.malformed += 1,
            BotFailure::Illegal { .. } => self.illegal += 1,
        }
    }
}

impl fmt::Display for Incidents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "two-squares refusals {}, chase refusals {}, illegal moves {}, malformed lines {}, \
             time-outs {}, crashes {}, resignations {}",
            self.two_squares,
            self.chase,
            self.illegal,
            self.malformed,
            self.timeouts,
            self.crashes,
            self.resignations
        )
    }
}

/// How a legacy program's turn ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A move was played (the program's, or the referee's replacement for it).
    Played,
    /// The program resigned; the text is its answer (`SURRENDER`, `NO_MOVE`).
    Resigned(String),
}

/// A program's answer, in salpakan notation.
pub(crate) enum Answer {
    Move(String),
    Resign(String),
}

enum Host {
    Ucc(ucc::Host),
    Ntu(ntu::Host),
}

/// An old program playing one seat of one game, refereed by salpakan.
pub struct LegacyBot {
    host: Host,
    incidents: Incidents,
}

impl fmt::Debug for LegacyBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LegacyBot")
            .field("incidents", &self.incidents)
            .finish_non_exhaustive()
    }
}

/// A rule an old program does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UnknownRule {
    TwoSquares,
    Chase,
}

impl LegacyBot {
    /// Starts the program of a `ucc:"..."` or `ntu:"..."` spec; `None` for other bots.
    ///
    /// # Errors
    /// [`BotFailure::Spawn`] if the program cannot be started.
    pub fn spawn(spec: &BotSpec) -> Option<Result<LegacyBot, BotFailure>> {
        let timeout = spec.param("timeout").unwrap_or(5000).max(1);
        let host = match spec.kind() {
            BotKind::Ucc(c) => ucc::Host::spawn(c, timeout).map(Host::Ucc),
            BotKind::Ntu(c) => {
                ntu::Host::spawn(c, timeout, spec.param("clock").unwrap_or(900_000)).map(Host::Ntu)
            }
            _ => return None,
        };
        Some(host.map(|host| LegacyBot {
            host,
            incidents: Incidents::default(),
        }))
    }

    /// What was counted so far in this game.
    #[must_use]
    pub fn incidents(&self) -> Incidents {
        self.incidents
    }

    /// Starts the game: Stratego programs answer their setup (as a JSON object of square to
    /// piece code), Banqi engines get ready (`None`).
    ///
    /// # Errors
    /// A failure of the program (counted).
    pub fn start(
        &mut self,
        kind: GameKind,
        seat: Seat,
        opponent: &str,
    ) -> Result<Option<Value>, BotFailure> {
        let r = match (&mut self.host, kind) {
            (Host::Ucc(h), GameKind::Stratego) => h.start(seat, opponent).map(Some),
            (Host::Ntu(h), GameKind::Banqi) => h.start().map(|()| None),
            (Host::Ucc(_), _) => Err(BotFailure::Spawn {
                command: "ucc".into(),
                why: "ucc programs play Stratego only; use --game stratego".into(),
            }),
            (Host::Ntu(_), _) => Err(BotFailure::Spawn {
                command: "ntu".into(),
                why: "ntu programs play Banqi only; use --game banqi".into(),
            }),
        };
        if let Err(e) = &r {
            self.incidents.count(e);
        }
        r
    }

    /// Asks the program for the move of `seat` (to move in `game`) and plays it; a move
    /// refused only by a rule the protocol does not know is replaced by the nearest legal
    /// move of the same piece (drawn from `seed` among equals) and counted.
    ///
    /// # Errors
    /// A failure of the program (counted): the caller forfeits the game.
    pub fn play_turn(
        &mut self,
        game: &mut AnyMatch,
        seat: Seat,
        seed: u64,
    ) -> Result<Turn, BotFailure> {
        let asked = match &mut self.host {
            Host::Ucc(h) => h.ask(game, seat),
            Host::Ntu(h) => h.ask(game, seat),
        };
        let answer = match asked {
            Ok(a) => a,
            Err(e) => {
                self.incidents.count(&e);
                return Err(e);
            }
        };
        let mv = match answer {
            Answer::Resign(text) => {
                self.incidents.resignations += 1;
                return Ok(Turn::Resigned(text));
            }
            Answer::Move(mv) => mv,
        };
        let refused = match game.parse_move(&mv).and_then(|t| game.play(t)) {
            Ok(()) => return Ok(Turn::Played),
            Err(e) => e,
        };
        match unknown_rule(game, &mv) {
            Some(rule) => {
                match rule {
                    UnknownRule::TwoSquares => self.incidents.two_squares += 1,
                    UnknownRule::Chase => self.incidents.chase += 1,
                }
                let sub = substitute(game, &mv, seed);
                game.play(sub)
                    .expect("the substitute is one of the legal moves");
                Ok(Turn::Played)
            }
            None => {
                let e = BotFailure::Illegal {
                    mv,
                    why: refused.to_string(),
                };
                self.incidents.count(&e);
                Err(e)
            }
        }
    }

    /// Counts a setup the protocol's own rules refuse (the arena forfeits the game).
    pub fn note_bad_setup(&mut self) {
        self.incidents.illegal += 1;
    }

    /// Tells the program how the game went and ends it (killed if it does not exit).
    pub fn finish(&mut self, game: &AnyMatch, seat: Seat) {
        match &mut self.host {
            Host::Ucc(h) => h.finish(game, seat),
            Host::Ntu(h) => h.finish(game, seat),
        }
    }
}

/// Checks that `options` are rules a program of `spec`'s protocol can play (`Ok` for other
/// bots): the UCC manager's classic army on four ranks with Scouts that strike; the NTU
/// platform's Taiwan captures without chains or attempts on face-down pieces.
///
/// # Errors
/// What does not fit, and what to choose instead.
pub fn check_options(spec: &BotSpec, game: &GameSpec) -> Result<(), String> {
    match spec.kind() {
        BotKind::Ucc(_) => {
            let GameSpec::Stratego(o) = game else {
                return Err(format!(
                    "{spec} speaks the UCC Stratego protocol; use --game stratego"
                ));
            };
            let d = StrategoOptions::default();
            if o.army != d.army || o.setup_area != d.setup_area || !o.scout_strike {
                return Err(format!(
                    "{spec}: UCC programs play the classic army set up on four ranks with \
                     scout_strike on; leave army, setup_area and scout_strike at their defaults"
                ));
            }
            // The protocol has no words for rescues or two-square Captains, and its programs
            // know only the classic duels.
            if o.aggression != d.aggression
                || o.one_time_bombs != d.one_time_bombs
                || o.defuser != d.defuser
                || o.captain_steps != d.captain_steps
                || o.rescues != d.rescues
            {
                return Err(format!(
                    "{spec}: UCC programs play the classic rules; leave aggression, \
                     one_time_bombs, defuser, captain_steps and rescues at their defaults"
                ));
            }
            Ok(())
        }
        BotKind::Ntu(_) => {
            let GameSpec::Banqi(o) = game else {
                return Err(format!(
                    "{spec} speaks the NTU Dark Chess protocol; use --game banqi"
                ));
            };
            let d = BanqiOptions::default();
            if o.ruleset != d.ruleset || o.cannon_direct || o.capture_face_down || o.chain_captures
            {
                return Err(format!(
                    "{spec}: NTU engines play Taiwan captures without chains, direct cannon \
                     captures or attempts on face-down pieces; leave ruleset, cannon_direct, \
                     capture_face_down and chain_captures at their defaults"
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Which unknown rule alone refuses `mv` now: the move is replayed on the same game with the
/// two-squares rule off (then the chase rule too) and checked there.
fn unknown_rule(game: &AnyMatch, mv: &str) -> Option<UnknownRule> {
    fn legal_with<G: Game>(m: &Match<G>, options: G::Options, mv: &str) -> bool {
        let Ok(mut g) = G::start(&options, m.hidden().clone()) else {
            return false;
        };
        for &x in m.moves() {
            if g.play(x).is_err() {
                return false;
            }
        }
        mv.parse::<G::Move>().is_ok_and(|x| g.is_legal(x))
    }
    match game {
        AnyMatch::Stratego(m) => {
            let mut o = m.game().options().clone();
            if o.two_square_limit.is_some() {
                o.two_square_limit = None;
                if legal_with(m, o.clone(), mv) {
                    return Some(UnknownRule::TwoSquares);
                }
            }
            if o.chase_rule {
                o.chase_rule = false;
                if legal_with(m, o, mv) {
                    return Some(UnknownRule::Chase);
                }
            }
            None
        }
        AnyMatch::Banqi(m) => {
            let mut o = m.game().options().clone();
            if o.chase_rule {
                o.chase_rule = false;
                if legal_with(m, o, mv) {
                    return Some(UnknownRule::Chase);
                }
            }
            None
        }
        AnyMatch::Generals(_) => None,
    }
}

/// The referee's replacement for a refused move `from-to`: a legal move of the same piece
/// that lands nearest to `to`, else any legal move; ties drawn from `seed`.
fn substitute(game: &AnyMatch, refused: &str, seed: u64) -> AnyMove {
    let (files, ranks) = game.kind().board_size();
    let parse = |t: &str| square::parse(t, files, ranks);
    let split = |m: &str| -> Option<((u8, u8), (u8, u8))> {
        let (a, b) = m.split_once('-')?;
        Some((parse(a)?, parse(b)?))
    };
    let moves = game.legal_moves();
    let legal: Vec<String> = moves.iter().map(ToString::to_string).collect();
    let mut rng = rng_from_seed(seed ^ u64::from(game.ply()).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut best: Vec<&String> = Vec::new();
    if let Some((from, to)) = split(refused) {
        let mut best_d = u32::MAX;
        for m in &legal {
            if let Some((f, t)) = split(m) {
                if f != from {
                    continue;
                }
                let d = u32::from(t.0.abs_diff(to.0)) + u32::from(t.1.abs_diff(to.1));
                if d < best_d {
                    best_d = d;
                    best.clear();
                }
                if d == best_d {
                    best.push(m);
                }
            }
        }
    }
    if best.is_empty() {
        best = legal.iter().collect();
    }
    let pick = best[rng.random_range(0..best.len())];
    moves[legal
        .iter()
        .position(|l| l == pick)
        .expect("one of the legal moves")]
}

#[cfg(test)]
mod tests {
    use super::*;
    use salpakan_engine::stratego::{Move, Stratego};

    #[test]
    fn ucc_programs_are_refused_the_rules_their_protocol_cannot_express() {
        let spec: BotSpec = "ucc:\"agent\"".parse().unwrap();
        let ok = GameSpec::default_for(GameKind::Stratego);
        assert_eq!(check_options(&spec, &ok), Ok(()));
        for (k, v) in [
            ("aggression", "true"),
            ("one_time_bombs", "true"),
            ("defuser", "scout"),
            ("captain_steps", "2"),
            ("rescues", "2"),
        ] {
            let o = GameSpec::from_pairs(GameKind::Stratego, [(k, v)]).unwrap();
            let e = check_options(&spec, &o).unwrap_err();
            assert!(e.contains(k), "{k}: {e}");
        }
    }

    /// In random games, every move that only the two-squares or chase rule refuses is
    /// classified so, and its replacement is legal and moves the same piece when that piece
    /// has a legal move.
    #[test]
    fn moves_refused_only_by_unknown_rules_are_replaced_by_a_legal_move_of_the_same_piece() {
        let mut found = [0u32; 2];
        for seed in 1..40u64 {
            let o = StrategoOptions {
                two_square_limit: Some(2),
                ..StrategoOptions::default()
            };
            let mut lax_o = o.clone();
            lax_o.two_square_limit = None;
            lax_o.chase_rule = false;
            let mut m = Match::<Stratego>::random(&o, seed).unwrap();
            let mut lax = Stratego::start(&lax_o, m.hidden().clone()).unwrap();
            let mut rng = rng_from_seed(seed);
            while m.game().to_move().is_some() && m.game().ply() < 300 {
                let mut all = Vec::new();
                lax.legal_moves(&mut all);
                for mv in all {
                    if m.game().is_legal(mv) {
                        continue;
                    }
                    let any = AnyMatch::from(m.clone());
                    let text = mv.to_string();
                    let rule = unknown_rule(&any, &text).expect("refused by a rule");
                    found[(rule == UnknownRule::Chase) as usize] += 1;
                    let sub: Move = substitute(&any, &text, seed).to_string().parse().unwrap();
                    assert!(m.game().is_legal(sub), "{sub} replaces {mv}");
                    let mut legal = Vec::new();
                    m.game().legal_moves(&mut legal);
                    if legal.iter().any(|l| l.from == mv.from) {
                        assert_eq!(sub.from, mv.from, "{sub} replaces {mv}");
                    }
                }
                // Shuffle pieces back and forth half the time, to meet the rules.
                let mut legal = Vec::new();
                m.game().legal_moves(&mut legal);
                let back = m.moves().len().checked_sub(2).map(|i| m.moves()[i]);
                let mv = back
                    .map(|b| Move::new(b.to, b.from))
                    .filter(|b| rng.random_bool(0.5) && legal.contains(b))
                    .unwrap_or_else(|| legal[rng.random_range(0..legal.len())]);
                m.play(mv).unwrap();
                lax.play(mv).unwrap();
            }
        }
        // Random play meets the two-squares rule often, the chase rule (almost) never.
        assert!(found[0] > 10, "two-squares refusals met: {found:?}");
    }
}
