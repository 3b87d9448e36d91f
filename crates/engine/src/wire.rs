//! The JSON adapters, in one place: what the edges (the server, the arbiter protocol, the
//! bot protocol, the terminal client) read from JSON into typed values, and the JSON they
//! write from typed values. Everything inside the crates carries the typed values
//! ([`GameSpec`], [`SeatSetup`], [`AnyMove`], [`AnyMatch`]).
//!
//! ```
//! use salpakan_engine::{GameKind, Seat, Viewer, wire};
//!
//! // Options arrive as JSON: read once into a GameSpec, written back canonically.
//! let spec = wire::spec_from_json(GameKind::Stratego, &serde_json::json!({"army": "barrage"}))?;
//! assert_eq!(wire::options_json(&spec)["army"], "barrage");
//! // A seat's setup arrives as JSON: checked once into a SeatSetup.
//! let red = spec.random_setup(Seat::First, 1)?;
//! let again = wire::setup_from_json(&spec, Seat::First, &wire::setup_json(&red))?;
//! assert_eq!(again, red);
//! // A protocol request's hidden state (`setups` or `deal`), what is missing from the seed.
//! let m = wire::new_match(&spec, &serde_json::Map::new(), 8)?;
//! assert_eq!(wire::observe_json(&m, Viewer::Spectator)["ply"], 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;

use crate::any::AnyGame;
use crate::{
    AnyMatch, AnyMove, Game, GameKind, GameSpec, Match, MatchSeed, OptionError, PlayError, Seat,
    SeatSetup, StartError, Viewer, with_match,
};

/// Reads a JSON object of options (`null` for the defaults) for `kind`.
///
/// # Errors
/// A value that is not an object, an unknown key or a bad value.
pub fn spec_from_json(kind: GameKind, value: &serde_json::Value) -> Result<GameSpec, OptionError> {
    GameSpec::from_json(kind, value)
}

/// The options as a JSON object of canonical values (what protocols carry).
#[must_use]
pub fn options_json(spec: &GameSpec) -> serde_json::Value {
    spec.to_json()
}

/// Reads and checks one seat's setup, a JSON object of square → piece code, against the
/// options, before the other seat's setup is known.
///
/// # Errors
/// A game without setups, or the setup's first problem (seat, square, piece).
pub fn setup_from_json(
    spec: &GameSpec,
    seat: Seat,
    setup: &serde_json::Value,
) -> Result<SeatSetup, StartError> {
    spec.check_setup_json(seat, setup)
}

/// A setup as the JSON object of square → piece code that protocols carry.
#[must_use]
pub fn setup_json(setup: &SeatSetup) -> serde_json::Value {
    placements_json(setup.text())
}

/// A hidden part's canonical text (`a1:FLG b1:PVT ...`) as a JSON object of square → code.
#[must_use]
pub fn placements_json(text: &str) -> serde_json::Value {
    serde_json::Value::Object(
        text.split_whitespace()
            .filter_map(|w| w.split_once(':'))
            .map(|(sq, code)| (sq.to_string(), serde_json::Value::String(code.to_string())))
            .collect(),
    )
}

/// Starts a match from a protocol request: the hidden state from the request's `setups`
/// (Generals, Stratego: seat name → JSON setup) or `deal` (Banqi); what is missing is drawn
/// from `seed`, then the salts.
///
/// # Errors
/// A bad setup or deal, with a message naming what is wrong.
pub fn new_match(
    spec: &GameSpec,
    request: &serde_json::Map<String, serde_json::Value>,
    seed: impl Into<MatchSeed>,
) -> Result<AnyMatch, StartError> {
    spec.start_from_request(request, seed.into())
}

/// All three views of one ply, as JSON: each player's, the spectators' and the arbiter's.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyViews {
    /// What each seat observes, by seat index.
    pub players: [serde_json::Value; 2],
    /// What spectators observe.
    pub spectator: serde_json::Value,
    /// The arbiter's full account.
    pub arbiter: serde_json::Value,
}

fn json<T: Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).expect("views and observations serialize")
}

/// `viewer`'s whole observation, as JSON.
#[must_use]
pub fn observe_json(m: &AnyMatch, viewer: Viewer) -> serde_json::Value {
    with_match!(m, m => json(&m.game().observe(viewer)))
}

/// The same as JSON text, written directly (without building a `Value` first).
#[must_use]
pub fn observe_json_text(m: &AnyMatch, viewer: Viewer) -> String {
    let mut out = String::with_capacity(2048);
    write_observe_json(m, viewer, &mut out);
    out
}

/// Appends the same JSON text to `out` (a server writes it straight into a frame).
pub fn write_observe_json(m: &AnyMatch, viewer: Viewer, out: &mut String) {
    fn go<G: Game>(m: &Match<G>, viewer: Viewer, out: &mut String) {
        G::write_observation_json(&m.game().observe(viewer), out);
    }
    with_match!(m, m => go(m, viewer, out));
}

/// `viewer`'s view of every ply so far, as JSON.
#[must_use]
pub fn history_json(m: &AnyMatch, viewer: Viewer) -> Vec<serde_json::Value> {
    fn go<G: Game>(m: &Match<G>, viewer: Viewer) -> Vec<serde_json::Value> {
        let g = m.game();
        m.events()
            .iter()
            .map(|e| json(&g.view(e, viewer)))
            .collect()
    }
    with_match!(m, m => go(m, viewer))
}

/// Plays `mv` and returns all three views of the ply as JSON.
///
/// # Errors
/// As [`AnyMatch::play`]; nothing changes.
pub fn play_views(m: &mut AnyMatch, mv: AnyMove) -> Result<PlyViews, PlayError> {
    fn go<G: AnyGame>(m: &mut Match<G>, mv: AnyMove) -> Result<PlyViews, PlayError> {
        let mv = G::typed_move(mv).ok_or_else(|| PlayError::WrongGame {
            mv: mv.to_string(),
            game: mv.kind(),
            expected: G::KIND,
        })?;
        m.play(mv)?;
        let (g, ev) = (m.game(), m.events().last().expect("just played"));
        Ok(PlyViews {
            players: Seat::BOTH.map(|s| json(&g.view(ev, Viewer::Player(s)))),
            spectator: json(&g.view(ev, Viewer::Spectator)),
            arbiter: json(&g.view(ev, Viewer::Arbiter)),
        })
    }
    with_match!(m, m => go(m, mv))
}

/// Plays `mv` for a server: only the views it sends (each seat's, then the spectators'),
/// as JSON text written directly.
///
/// # Errors
/// As [`AnyMatch::play`]; nothing changes.
pub fn play_sent(m: &mut AnyMatch, mv: AnyMove) -> Result<[String; 3], PlayError> {
    m.play(mv)?;
    fn go<G: Game>(m: &Match<G>) -> [String; 3] {
        let (g, ev) = (m.game(), m.events().last().expect("just played"));
        let text = |v: Viewer| serde_json::to_string(&g.view(ev, v)).expect("views serialize");
        [
            text(Viewer::Player(Seat::First)),
            text(Viewer::Player(Seat::Second)),
            text(Viewer::Spectator),
        ]
    }
    Ok(with_match!(&*m, m => go(m)))
}

impl AnyMatch {
    /// `viewer`'s whole observation, as JSON: [`observe_json`].
    #[must_use]
    pub fn observe_json(&self, viewer: Viewer) -> serde_json::Value {
        observe_json(self, viewer)
    }

    /// `viewer`'s whole observation as JSON text: [`observe_json_text`].
    #[must_use]
    pub fn observe_json_text(&self, viewer: Viewer) -> String {
        observe_json_text(self, viewer)
    }

    /// Appends `viewer`'s whole observation as JSON text to `out`: [`write_observe_json`].
    pub fn write_observe_json(&self, viewer: Viewer, out: &mut String) {
        write_observe_json(self, viewer, out);
    }

    /// `viewer`'s view of every ply so far, as JSON: [`history_json`].
    #[must_use]
    pub fn history_json(&self, viewer: Viewer) -> Vec<serde_json::Value> {
        history_json(self, viewer)
    }

    /// Plays `mv` and returns the three views of the ply as JSON: [`play_views`].
    ///
    /// # Errors
    /// As [`AnyMatch::play`]; nothing changes.
    pub fn play_views(&mut self, mv: AnyMove) -> Result<PlyViews, PlayError> {
        play_views(self, mv)
    }

    /// Plays `mv` and returns the views a server sends as JSON text: [`play_sent`].
    ///
    /// # Errors
    /// As [`AnyMatch::play`]; nothing changes.
    pub fn play_sent(&mut self, mv: AnyMove) -> Result<[String; 3], PlayError> {
        play_sent(self, mv)
    }
}
