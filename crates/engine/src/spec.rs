//! A game and its validated options, as one typed value: parsed once at the edge (a command
//! line's `key=value` words, a record's `Options` tag, a request's JSON) and trusted inside.

use crate::banqi::Banqi;
use crate::banqi::BanqiOptions;
use crate::generals::Generals;
use crate::generals::GeneralsOptions;
use crate::stratego::Stratego;
use crate::stratego::StrategoOptions;
use crate::{
    AnyGame, AnyMatch, Game, GameKind, GameOptions, Match, MatchSeed, OptionError, Seat,
    SetupError, StartError, rng_from_seed,
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

    /// Starts a match: each seat's setup where given (Generals, Stratego), what is missing
    /// (a setup, Banqi's deal) drawn from `seed`, then the salts from `seed`.
    ///
    /// ```
    /// use salpakan_engine::{GameKind, GameSpec, Seat};
    ///
    /// let spec = GameSpec::from_text(GameKind::Generals, "")?;
    /// let white = spec.random_setup(Seat::First, 9)?;
    /// let m = spec.new_match([Some(&white), None], 4)?;
    /// assert_eq!(m.commitment_list().len(), 2);
    /// // A setup is checked again against these options: a setup of another seat is refused.
    /// assert!(spec.new_match([None, Some(&white)], 4).is_err());
    /// # Ok::<(), salpakan_engine::StartError>(())
    /// ```
    ///
    /// # Errors
    /// A setup of another game or seat, or one that does not fit these options.
    pub fn new_match(
        &self,
        setups: [Option<&SeatSetup>; 2],
        seed: impl Into<MatchSeed>,
    ) -> Result<AnyMatch, StartError> {
        let mut request = serde_json::Map::new();
        if setups.iter().any(Option::is_some) {
            let kind = self.kind();
            let mut given = serde_json::Map::new();
            for (seat, setup) in Seat::BOTH.into_iter().zip(setups) {
                if let Some(setup) = setup {
                    setup.fits(kind, seat)?;
                    given.insert(kind.seat_name(seat).into(), crate::wire::setup_json(setup));
                }
            }
            request.insert("setups".into(), serde_json::Value::Object(given));
        }
        self.start_from_request(&request, seed.into())
    }

    /// Starts a match from a protocol request's hidden state (`setups` or `deal`, read by
    /// the game's [`Game::hidden_from_json`]); what is missing is drawn from `seed`. The
    /// JSON edge is [`wire::new_match`](crate::wire::new_match).
    pub(crate) fn start_from_request(
        &self,
        request: &serde_json::Map<String, serde_json::Value>,
        seed: MatchSeed,
    ) -> Result<AnyMatch, StartError> {
        fn go<G: AnyGame>(
            options: &G::Options,
            request: &serde_json::Map<String, serde_json::Value>,
            seed: MatchSeed,
        ) -> Result<AnyMatch, StartError> {
            let mut rng = seed.rng();
            let hidden = G::hidden_from_json(options, request, &mut rng)?;
            let mut m = Match::<G>::start(options, hidden, &mut rng)?;
            m.set_seed(seed);
            Ok(G::any_match(m))
        }
        match self {
            GameSpec::Generals(o) => go::<Generals>(o, request, seed),
            GameSpec::Stratego(o) => go::<Stratego>(o, request, seed),
            GameSpec::Banqi(o) => go::<Banqi>(o, request, seed),
        }
    }

    /// Checks one seat's setup, given as the game's JSON object of square → piece code,
    /// before the other seat's setup is known; the JSON edge is
    /// [`wire::setup_from_json`](crate::wire::setup_from_json).
    pub(crate) fn check_setup_json(
        &self,
        seat: Seat,
        setup: &serde_json::Value,
    ) -> Result<SeatSetup, StartError> {
        fn go<G: Game>(
            options: &G::Options,
            seat: Seat,
            setup: &serde_json::Value,
        ) -> Result<SeatSetup, StartError> {
            let mut request = serde_json::Map::new();
            let name = G::KIND.seat_name(seat);
            request.insert("setups".into(), serde_json::json!({ name: setup }));
            let hidden = G::hidden_from_json(options, &request, &mut rng_from_seed(0))?;
            SeatSetup::of::<G>(&hidden, seat)
        }
        match self {
            GameSpec::Generals(o) => go::<Generals>(o, seat, setup),
            GameSpec::Stratego(o) => go::<Stratego>(o, seat, setup),
            GameSpec::Banqi(_) => Err(no_setups(GameKind::Banqi)),
        }
    }

    /// A random setup for `seat` drawn from `seed`.
    ///
    /// # Errors
    /// A game without setups.
    pub fn random_setup(&self, seat: Seat, seed: u64) -> Result<SeatSetup, StartError> {
        fn go<G: Game>(
            options: &G::Options,
            seat: Seat,
            seed: u64,
        ) -> Result<SeatSetup, StartError> {
            let hidden = G::random_hidden(options, &mut rng_from_seed(seed));
            SeatSetup::of::<G>(&hidden, seat)
        }
        match self {
            GameSpec::Generals(o) => go::<Generals>(o, seat, seed),
            GameSpec::Stratego(o) => go::<Stratego>(o, seat, seed),
            GameSpec::Banqi(_) => Err(no_setups(GameKind::Banqi)),
        }
    }
}

/// One seat's setup (Generals, Stratego), checked against a game's options: made by
/// [`GameSpec::random_setup`], by [`wire::setup_from_json`](crate::wire::setup_from_json)
/// at the JSON edge, or by a bot; handed to [`GameSpec::new_match`]. Its text is the
/// canonical placement (`a1:FLG b1:PVT ...`, the record's setup tag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatSetup {
    kind: GameKind,
    seat: Seat,
    text: String,
}

impl SeatSetup {
    /// The setup of `seat` in a hidden state of `G`.
    pub(crate) fn of<G: Game>(hidden: &G::Hidden, seat: Seat) -> Result<SeatSetup, StartError> {
        G::hidden_parts(hidden)
            .into_iter()
            .find(|p| p.owner == Some(seat))
            .map(|p| SeatSetup {
                kind: G::KIND,
                seat,
                text: p.text,
            })
            .ok_or_else(|| no_setups(G::KIND))
    }

    /// A checked setup from a game's own typed setup: `text` is that setup's canonical
    /// text (for code, such as the bots, that builds setups of one game's types).
    ///
    /// # Errors
    /// A setup that does not fit `spec` for `seat`.
    pub fn from_text(spec: &GameSpec, seat: Seat, text: &str) -> Result<SeatSetup, StartError> {
        spec.check_setup_json(seat, &crate::wire::placements_json(text))
    }

    /// Which game.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// Whose setup.
    #[must_use]
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The canonical placement text, `square:code` words.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Refuses this setup for another game or seat.
    fn fits(&self, kind: GameKind, seat: Seat) -> Result<(), StartError> {
        if self.kind != kind || self.seat != seat {
            return Err(StartError::Setup(SetupError::Invalid(format!(
                "this is a setup for {} in {}, not for {} in {}",
                self.kind.seat_name(self.seat),
                self.kind,
                kind.seat_name(seat),
                kind
            ))));
        }
        Ok(())
    }
}

/// The error for a setup asked of a game whose pieces are dealt.
pub(crate) fn no_setups(kind: GameKind) -> StartError {
    StartError::Setup(SetupError::Invalid(format!(
        "{} has no setups: the pieces are dealt",
        kind.name()
    )))
}
