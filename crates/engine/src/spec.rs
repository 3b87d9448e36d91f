//! A game and its validated options, as one typed value: parsed once at the edge (a command
//! line's `key=value` words, a record's `Options` tag, a request's JSON) and trusted inside.

use crate::banqi::BanqiOptions;
use crate::generals::GeneralsOptions;
use crate::stratego::StrategoOptions;
use crate::{
    AnyMatch, Game, GameKind, GameOptions, Match, MatchSeed, OptionError, Seat, SetupError,
    StartError, rng_from_seed,
};

/// Which game, with its validated options. Every value is a valid game to start.
///
/// ```
/// use salpakan_engine::{GameKind, GameSpec};
///
/// // Command-line words, as `salpakan play --option` and the terminal client take them.
/// let spec = GameSpec::from_key_values(GameKind::Stratego, ["army=barrage", " max_quiet_plies = 100"])?;
/// assert_eq!(spec.kind(), GameKind::Stratego);
/// assert!(spec.to_text().contains("army=barrage"));
/// // The same options from their canonical text (a record's `Options` tag) and from JSON.
/// assert_eq!(GameSpec::from_text(GameKind::Stratego, &spec.to_text())?, spec);
/// assert_eq!(GameSpec::from_json(GameKind::Stratego, &spec.to_json())?, spec);
/// // Bad input is refused with a sentence saying what is wrong.
/// let e = GameSpec::from_key_values(GameKind::Banqi, ["army=barrage"]).unwrap_err();
/// assert!(e.to_string().starts_with("unknown option \"army\""));
/// # Ok::<(), salpakan_engine::OptionError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum GameSpec {
    /// Game of the Generals.
    Generals(GeneralsOptions),
    /// Stratego.
    Stratego(StrategoOptions),
    /// Banqi.
    Banqi(BanqiOptions),
}

impl GameSpec {
    /// `kind` with its default options.
    #[must_use]
    pub fn default_for(kind: GameKind) -> GameSpec {
        match kind {
            GameKind::Generals => GameSpec::Generals(GeneralsOptions::default()),
            GameKind::Stratego => GameSpec::Stratego(StrategoOptions::default()),
            GameKind::Banqi => GameSpec::Banqi(BanqiOptions::default()),
        }
    }

    /// Which game.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            GameSpec::Generals(_) => GameKind::Generals,
            GameSpec::Stratego(_) => GameKind::Stratego,
            GameSpec::Banqi(_) => GameKind::Banqi,
        }
    }

    /// Parses `(key, value)` pairs over `kind`'s defaults.
    ///
    /// # Errors
    /// The first unknown key or bad value, or options that contradict each other.
    pub fn from_pairs<'a>(
        kind: GameKind,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<GameSpec, OptionError> {
        Ok(match kind {
            GameKind::Generals => GameSpec::Generals(GeneralsOptions::from_pairs(pairs)?),
            GameKind::Stratego => GameSpec::Stratego(StrategoOptions::from_pairs(pairs)?),
            GameKind::Banqi => GameSpec::Banqi(BanqiOptions::from_pairs(pairs)?),
        })
    }

    /// Parses `key=value` words, one option each (spaces around the key and the value are
    /// ignored), as command lines give them (`--option reveal=winner`).
    ///
    /// # Errors
    /// A word without `=`, then as [`GameSpec::from_pairs`].
    pub fn from_key_values<'a>(
        kind: GameKind,
        words: impl IntoIterator<Item = &'a str>,
    ) -> Result<GameSpec, OptionError> {
        let pairs = words
            .into_iter()
            .map(|w| crate::options::split_key_value(w).map(|(k, v)| (k.trim(), v.trim())))
            .collect::<Result<Vec<_>, _>>()?;
        GameSpec::from_pairs(kind, pairs)
    }

    /// Parses the canonical text form, space-separated `key=value` words (a record's
    /// `Options` tag; empty for the defaults).
    ///
    /// # Errors
    /// As [`GameSpec::from_key_values`].
    pub fn from_text(kind: GameKind, text: &str) -> Result<GameSpec, OptionError> {
        GameSpec::from_key_values(kind, text.split_whitespace())
    }

    /// Parses a JSON object of options (`null` for the defaults), as
    /// [`GameOptions::from_json`].
    ///
    /// # Errors
    /// A value that is not an object, then as [`GameSpec::from_pairs`].
    pub fn from_json(kind: GameKind, value: &serde_json::Value) -> Result<GameSpec, OptionError> {
        Ok(match kind {
            GameKind::Generals => GameSpec::Generals(GeneralsOptions::from_json(value)?),
            GameKind::Stratego => GameSpec::Stratego(StrategoOptions::from_json(value)?),
            GameKind::Banqi => GameSpec::Banqi(BanqiOptions::from_json(value)?),
        })
    }

    /// Every option with its canonical text value, in a fixed order.
    #[must_use]
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        match self {
            GameSpec::Generals(o) => o.pairs(),
            GameSpec::Stratego(o) => o.pairs(),
            GameSpec::Banqi(o) => o.pairs(),
        }
    }

    /// The canonical text form (every option, `key=value`, space-separated).
    #[must_use]
    pub fn to_text(&self) -> String {
        match self {
            GameSpec::Generals(o) => o.to_text(),
            GameSpec::Stratego(o) => o.to_text(),
            GameSpec::Banqi(o) => o.to_text(),
        }
    }

    /// The options as a JSON object of canonical values (what protocols carry).
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            GameSpec::Generals(o) => o.to_json(),
            GameSpec::Stratego(o) => o.to_json(),
            GameSpec::Banqi(o) => o.to_json(),
        }
    }

    /// Starts a match from a protocol request: the hidden state from the request (`setups`
    /// or `deal`; what is missing is drawn from `seed`), salts from `seed`.
    ///
    /// # Errors
    /// A bad setup or deal, with a message naming what is wrong.
    pub fn new_match(
        &self,
        request: &serde_json::Map<String, serde_json::Value>,
        seed: impl Into<MatchSeed>,
    ) -> Result<Box<dyn AnyMatch>, StartError> {
        fn go<G: Game>(
            options: &G::Options,
            request: &serde_json::Map<String, serde_json::Value>,
            seed: MatchSeed,
        ) -> Result<Box<dyn AnyMatch>, StartError> {
            let mut rng = seed.rng();
            let hidden = G::hidden_from_json(options, request, &mut rng)?;
            let mut m = Match::<G>::start(options, hidden, &mut rng)?;
            m.set_seed(seed);
            Ok(Box::new(m))
        }
        let seed = seed.into();
        match self {
            GameSpec::Generals(o) => go::<crate::generals::Generals>(o, request, seed),
            GameSpec::Stratego(o) => go::<crate::stratego::Stratego>(o, request, seed),
            GameSpec::Banqi(o) => go::<crate::banqi::Banqi>(o, request, seed),
        }
    }

    /// Checks one seat's setup, given as a JSON object of square → piece code, before the
    /// other seat's setup is known.
    ///
    /// # Errors
    /// A game without setups, or the setup's first problem (seat, square, piece).
    pub fn check_setup(&self, seat: Seat, setup: &serde_json::Value) -> Result<(), StartError> {
        fn go<G: Game>(
            options: &G::Options,
            name: &str,
            setup: &serde_json::Value,
        ) -> Result<(), StartError> {
            let mut request = serde_json::Map::new();
            request.insert("setups".into(), serde_json::json!({ name: setup }));
            G::hidden_from_json(options, &request, &mut rng_from_seed(0))?;
            Ok(())
        }
        let name = self.kind().seat_name(seat);
        match self {
            GameSpec::Generals(o) => go::<crate::generals::Generals>(o, name, setup),
            GameSpec::Stratego(o) => go::<crate::stratego::Stratego>(o, name, setup),
            GameSpec::Banqi(_) => Err(crate::no_setups(GameKind::Banqi)),
        }
    }

    /// A random setup for `seat` drawn from `seed`, as a JSON object of square → piece code.
    ///
    /// # Errors
    /// A game without setups.
    pub fn random_setup(&self, seat: Seat, seed: u64) -> Result<serde_json::Value, StartError> {
        fn go<G: Game>(
            options: &G::Options,
            seat: Seat,
            seed: u64,
        ) -> Result<serde_json::Value, StartError> {
            let hidden = G::random_hidden(options, &mut rng_from_seed(seed));
            let part = G::hidden_parts(&hidden)
                .into_iter()
                .find(|p| p.owner == Some(seat))
                .ok_or_else(|| {
                    StartError::Setup(SetupError::Invalid(
                        "this game has no setup for that seat".into(),
                    ))
                })?;
            Ok(crate::placements_json(&part.text))
        }
        match self {
            GameSpec::Generals(o) => go::<crate::generals::Generals>(o, seat, seed),
            GameSpec::Stratego(o) => go::<crate::stratego::Stratego>(o, seat, seed),
            GameSpec::Banqi(_) => Err(crate::no_setups(GameKind::Banqi)),
        }
    }
}
