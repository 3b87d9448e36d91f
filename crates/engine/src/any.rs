//! [`AnyMatch`]: a match of any of the three games, as one enum, with typed moves
//! ([`AnyMove`]). This module is the one place that dispatches over the games: every
//! method goes through [`with_match!`](crate::with_match), and the per-game glue is the
//! [`AnyGame`] trait.

use std::fmt;

use crate::banqi::Banqi;
use crate::generals::Generals;
use crate::record::{Record, RecordError};
use crate::stratego::Stratego;
use crate::{
    Copy, Game, GameKind, GameSpec, Match, Outcome, PlayError, Seat, banqi, generals, stratego,
};

/// Runs `$body` with `$m` bound to the typed [`Match`] inside an [`AnyMatch`] (by value,
/// reference or mutable reference, as `$any` is). The body is compiled once per game, so it
/// may call generic code over [`Game`] (or any trait the three games implement, such as the
/// ai crate's `AiGame`). This macro is the one place that lists the games.
///
/// ```
/// use salpakan_engine::{AnyMatch, Game, GameKind, GameSpec, with_match};
///
/// let m = GameSpec::default_for(GameKind::Stratego).new_match([None, None], 3)?;
/// // The body sees `Match<Stratego>`, and could call code generic over `Game`.
/// let ply = with_match!(&m, typed => typed.game().ply());
/// assert_eq!(ply, m.ply());
/// # Ok::<(), salpakan_engine::StartError>(())
/// ```
#[macro_export]
macro_rules! with_match {
    ($any:expr, $m:ident => $body:expr) => {
        match $any {
            $crate::AnyMatch::Generals($m) => $body,
            $crate::AnyMatch::Stratego($m) => $body,
            $crate::AnyMatch::Banqi($m) => $body,
        }
    };
}

/// A move of any of the three games: the game's own typed [`Game::Move`]. Its `Display`
/// is the move in the game's notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A Game of the Generals move.
    Generals(generals::Move),
    /// A Stratego move.
    Stratego(stratego::Move),
    /// A Banqi move (a flip or a move).
    Banqi(banqi::Move),
}

impl AnyMove {
    /// Which game this move belongs to.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyMove::Generals(_) => GameKind::Generals,
            AnyMove::Stratego(_) => GameKind::Stratego,
            AnyMove::Banqi(_) => GameKind::Banqi,
        }
    }

    /// Appends the move's text (its `Display`) to `out`; a Game of the Generals move is
    /// written without the formatting machinery.
    pub fn write_text(&self, out: &mut String) {
        match self {
            AnyMove::Generals(m) => m.write_text(out),
            _ => {
                use std::fmt::Write;
                let _ = write!(out, "{self}");
            }
        }
    }
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Generals(m) => m.fmt(f),
            AnyMove::Stratego(m) => m.fmt(f),
            AnyMove::Banqi(m) => m.fmt(f),
        }
    }
}

/// Serialized as its text in the game's notation (what protocols carry).
impl serde::Serialize for AnyMove {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The glue between one game's types and the enums [`AnyMatch`], [`AnyMove`] and
/// [`GameSpec`]; implemented by the three games.
pub trait AnyGame: Game {
    /// The match as an [`AnyMatch`].
    fn any_match(m: Match<Self>) -> AnyMatch;
    /// The typed match inside `m`, when `m` is of this game.
    fn typed_match(m: &AnyMatch) -> Option<&Match<Self>>;
    /// The move as an [`AnyMove`].
    fn any_move(mv: Self::Move) -> AnyMove;
    /// The typed move inside `mv`, when it is a move of this game.
    fn typed_move(mv: AnyMove) -> Option<Self::Move>;
    /// The options as a [`GameSpec`].
    fn spec(options: &Self::Options) -> GameSpec;
}

macro_rules! any_game {
    ($game:ty, $variant:ident) => {
        impl AnyGame for $game {
            fn any_match(m: Match<Self>) -> AnyMatch {
                AnyMatch::$variant(m)
            }
            fn typed_match(m: &AnyMatch) -> Option<&Match<Self>> {
                match m {
                    AnyMatch::$variant(m) => Some(m),
                    _ => None,
                }
            }
            fn any_move(mv: Self::Move) -> AnyMove {
                AnyMove::$variant(mv)
            }
            fn typed_move(mv: AnyMove) -> Option<Self::Move> {
                match mv {
                    AnyMove::$variant(m) => Some(m),
                    _ => None,
                }
            }
            fn spec(options: &Self::Options) -> GameSpec {
                GameSpec::$variant(options.clone())
            }
        }

        impl From<Match<$game>> for AnyMatch {
            fn from(m: Match<$game>) -> AnyMatch {
                AnyMatch::$variant(m)
            }
        }
    };
}

any_game!(Generals, Generals);
any_game!(Stratego, Stratego);
any_game!(Banqi, Banqi);

/// A match of any game: what the server, the arbiter protocol, the bots' entry points and
/// the terminal client hold. Moves are typed ([`AnyMove`]): parse them once at the edge
/// with [`AnyMatch::parse_move`]. The JSON forms of its views and observations are in
/// [`wire`](crate::wire).
///
/// ```
/// use salpakan_engine::{AnyMatch, GameKind, GameSpec, PlayError, Seat, Viewer};
///
/// // A Banqi match, the deal drawn from the seed.
/// let spec = GameSpec::from_text(GameKind::Banqi, "max_quiet_plies=60")?;
/// let mut m = spec.new_match([None, None], 5)?;
/// assert_eq!((m.kind(), m.to_move()), (GameKind::Banqi, Some(Seat::First)));
/// assert_eq!(m.spec(), spec);
///
/// let moves = m.legal_moves(); // typed; a flip is written as the square's name
/// assert_eq!(moves.len(), 32);
/// let views = m.play_views(moves[0])?;
/// // A flip is public: every viewer sees the same piece turned up.
/// assert_eq!(views.players[0], views.spectator);
/// assert_eq!(m.observe_json(Viewer::Spectator)["ply"], 1);
///
/// // Bad text is a parse error; an illegal move is refused and changes nothing.
/// assert!(matches!(m.parse_move("z9"), Err(PlayError::Parse(_))));
/// assert!(m.play(moves[0]).is_err());
/// assert_eq!(m.ply(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
// A server holds one match per game in place and rarely moves it; boxing the larger
// variants would add an indirection to every call for no gain.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AnyMatch {
    /// Game of the Generals.
    Generals(Match<Generals>),
    /// Stratego.
    Stratego(Match<Stratego>),
    /// Banqi.
    Banqi(Match<Banqi>),
}

/// A move of one game played on a match of another.
fn wrong_game(mv: AnyMove, expected: GameKind) -> PlayError {
    PlayError::WrongGame {
        mv: mv.to_string(),
        game: mv.kind(),
        expected,
    }
}

/// `mv` as a move of `G`, or the error for a move of another game.
fn typed<G: AnyGame>(mv: AnyMove) -> Result<G::Move, PlayError> {
    G::typed_move(mv).ok_or_else(|| wrong_game(mv, G::KIND))
}

impl AnyMatch {
    /// Replays any full record, whatever its game.
    ///
    /// # Errors
    /// A missing or unknown `Game` tag, or the first problem in the record.
    pub fn replay(record: &Record) -> Result<AnyMatch, RecordError> {
        let g = record.require("Game")?;
        let kind: GameKind = g.parse().map_err(|m| RecordError::BadTag {
            tag: "Game".into(),
            message: m,
        })?;
        Ok(match kind {
            GameKind::Generals => Match::<Generals>::replay(record)?.into(),
            GameKind::Stratego => Match::<Stratego>::replay(record)?.into(),
            GameKind::Banqi => Match::<Banqi>::replay(record)?.into(),
        })
    }

    /// Which game.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        fn go<G: Game>(_: &Match<G>) -> GameKind {
            G::KIND
        }
        with_match!(self, m => go(m))
    }

    /// The game and its options.
    #[must_use]
    pub fn spec(&self) -> GameSpec {
        fn go<G: AnyGame>(m: &Match<G>) -> GameSpec {
            G::spec(m.game().options())
        }
        with_match!(self, m => go(m))
    }

    /// The typed Game of the Generals match, if it is one.
    #[must_use]
    pub fn as_generals(&self) -> Option<&Match<Generals>> {
        Generals::typed_match(self)
    }

    /// The typed Stratego match, if it is one.
    #[must_use]
    pub fn as_stratego(&self) -> Option<&Match<Stratego>> {
        Stratego::typed_match(self)
    }

    /// The typed Banqi match, if it is one.
    #[must_use]
    pub fn as_banqi(&self) -> Option<&Match<Banqi>> {
        Banqi::typed_match(self)
    }

    /// The seat to move, `None` once over.
    #[must_use]
    pub fn to_move(&self) -> Option<Seat> {
        with_match!(self, m => m.game().to_move())
    }

    /// The outcome once over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        with_match!(self, m => m.game().outcome())
    }

    /// Plies played.
    #[must_use]
    pub fn ply(&self) -> u32 {
        with_match!(self, m => m.game().ply())
    }

    /// The colour each seat plays, once known (Banqi), by seat index.
    #[must_use]
    pub fn seat_colours(&self) -> Option<[&'static str; 2]> {
        with_match!(self, m => m.game().seat_colours())
    }

    /// Parses a move of this game written in its notation (a move arriving from outside).
    ///
    /// # Errors
    /// [`PlayError::GameOver`] once the game is over (no text is a move then), else
    /// [`PlayError::Parse`] when the text is not a move of this game.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, PlayError> {
        fn go<G: AnyGame>(m: &Match<G>, text: &str) -> Result<AnyMove, PlayError> {
            if let Some(o) = m.game().outcome() {
                return Err(PlayError::game_over(o));
            }
            text.parse::<G::Move>().map(G::any_move)
        }
        with_match!(self, m => go(m, text))
    }

    /// The legal moves of the side to move (none once over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        fn go<G: AnyGame>(m: &Match<G>) -> Vec<AnyMove> {
            let mut v = Vec::new();
            m.game().legal_moves(&mut v);
            v.into_iter().map(G::any_move).collect()
        }
        with_match!(self, m => go(m))
    }

    /// Whether `mv` is legal now (false for a move of another game).
    #[must_use]
    pub fn is_legal(&self, mv: &AnyMove) -> bool {
        fn go<G: AnyGame>(m: &Match<G>, mv: AnyMove) -> bool {
            G::typed_move(mv).is_some_and(|mv| m.game().is_legal(mv))
        }
        with_match!(self, m => go(m, *mv))
    }

    /// Checks `mv` without playing it: `Ok` when it is legal now, else the error
    /// [`AnyMatch::play`] gives, in the mover's terms. The refusal comes from the game's
    /// own `play`, which refuses an illegal move without changing anything (every game's
    /// `is_legal` is exactly `play`'s check), so nothing is cloned and nothing changes.
    ///
    /// # Errors
    /// A move of another game, the game being over, or why the move is illegal.
    pub fn check_move(&mut self, mv: &AnyMove) -> Result<(), PlayError> {
        fn go<G: AnyGame>(m: &mut Match<G>, mv: AnyMove) -> Result<(), PlayError> {
            let mv = typed::<G>(mv)?;
            if m.game().is_legal(mv) {
                return Ok(());
            }
            m.play(mv).map(|_| ())
        }
        with_match!(self, m => go(m, *mv))
    }

    /// Plays `mv` for the side to move, without building any view (see
    /// [`AnyMatch::play_views`] and [`AnyMatch::play_sent`] for the views).
    ///
    /// # Errors
    /// A move of another game ([`PlayError::WrongGame`]), the game being over, or an
    /// illegal move; nothing changes.
    pub fn play(&mut self, mv: AnyMove) -> Result<(), PlayError> {
        fn go<G: AnyGame>(m: &mut Match<G>, mv: AnyMove) -> Result<(), PlayError> {
            m.play(typed::<G>(mv)?).map(|_| ())
        }
        with_match!(self, m => go(m, mv))
    }

    /// The match as it stood after its first `plies` plies: [`Match::rewound`].
    #[must_use]
    pub fn rewound(&self, plies: usize) -> Option<AnyMatch> {
        with_match!(self, m => m.rewound(plies).map(AnyMatch::from))
    }

    /// Ends the game from outside the board.
    ///
    /// # Errors
    /// If it is already over.
    pub fn conclude(&mut self, outcome: Outcome) -> Result<(), PlayError> {
        with_match!(self, m => m.conclude(outcome))
    }

    /// The public commitments: (part name, SHA-256 hex).
    #[must_use]
    pub fn commitment_list(&self) -> Vec<(String, String)> {
        with_match!(self, m => m
            .commitments()
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect())
    }

    /// Sets a record tag.
    pub fn set_record_tag(&mut self, name: &str, value: String) {
        with_match!(self, m => m.set_tag(name, value));
    }

    /// Writes a record copy.
    #[must_use]
    pub fn record(&self, copy: Copy) -> Record {
        with_match!(self, m => m.record(copy))
    }

    /// Verifies the commitments of `record` (which this match was replayed from).
    ///
    /// # Errors
    /// The first commitment that does not match.
    pub fn verify_record(&self, record: &Record) -> Result<(), RecordError> {
        with_match!(self, m => m.verify(record))
    }
}

/// Replays any full record, whatever its game: [`AnyMatch::replay`].
///
/// # Errors
/// A missing or unknown `Game` tag, or the first problem in the record.
pub fn replay_record(record: &Record) -> Result<AnyMatch, RecordError> {
    AnyMatch::replay(record)
}
