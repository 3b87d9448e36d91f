//! A match: one game under the arbiter, with its commitments, history and records.

use std::collections::BTreeMap;

use crate::commit::{Salt, commitment};
use crate::record::{Record, RecordError};
use crate::{EndReason, Game, GameOptions, GameRng, HiddenPart, Outcome, PlayError, Seat, Viewer};

/// Which copy of a record to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Copy {
    /// The arbiter's full record: every hidden part with its salt. Replays and verifies.
    Full,
    /// A seat's copy: only what that seat knew (its own hidden parts, its view of every ply).
    Seat(Seat),
}

/// One game under the arbiter: the state, the hidden initial state and its commitments,
/// every ply played, and the record tags (players, date...).
///
/// ```
/// use salpakan_engine::stratego::{Stratego, StrategoOptions};
/// use salpakan_engine::{Copy, Game, GameOptions, Match, Record, Seat};
///
/// let options = StrategoOptions::from_text("army=barrage")?;
/// let mut m = Match::<Stratego>::random(&options, 11)?;
/// // Both setups are committed to before the first move: (part name, SHA-256 hex).
/// assert_eq!(m.commitments().len(), 2);
/// for _ in 0..6 {
///     let mut moves = Vec::new();
///     m.game().legal_moves(&mut moves);
///     m.play(moves[0])?;
/// }
/// m.set_tag("Red", "Ana");
///
/// // The full record reveals both setups and salts; it replays and verifies.
/// let text = m.record(Copy::Full).to_text();
/// let record = Record::parse(&text)?;
/// let replayed = Match::<Stratego>::replay(&record)?;
/// replayed.verify(&record)?;
/// assert_eq!(replayed.moves(), m.moves());
/// assert_eq!(record.tag("Red"), Some("Ana"));
///
/// // A seat's copy holds only what that seat knew: its own setup, not the other's.
/// let red = m.record(Copy::Seat(Seat::First));
/// assert!(red.tag("RedSetup").is_some() && red.tag("BlueSetup").is_none());
/// assert!(Match::<Stratego>::replay(&red).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Match<G: Game> {
    game: G,
    hidden: G::Hidden,
    parts: Vec<HiddenPart>,
    salts: Vec<Salt>,
    commitments: Vec<String>,
    events: Vec<G::Event>,
    moves: Vec<G::Move>,
    /// Extra record tags (players, date, event...), written after `Game`.
    tags: Vec<(String, String)>,
    seed: Option<crate::MatchSeed>,
}

impl<G: Game> Match<G> {
    /// Starts a match. One salt per hidden part is drawn from `rng`, and the commitments are
    /// computed at once.
    ///
    /// # Errors
    /// When the hidden state does not fit the options.
    pub fn start(
        options: &G::Options,
        hidden: G::Hidden,
        rng: &mut GameRng,
    ) -> Result<Self, crate::SetupError> {
        let parts = G::hidden_parts(&hidden);
        let salts: Vec<Salt> = parts.iter().map(|_| Salt::random(rng)).collect();
        Self::with_salts(options, hidden, salts)
    }

    /// Starts a match with the hidden state drawn at random from `seed` (setups or deal, then
    /// the salts).
    ///
    /// # Errors
    /// Never for valid options; kept fallible for uniformity.
    pub fn random(options: &G::Options, seed: u64) -> Result<Self, crate::SetupError> {
        let mut rng = crate::rng_from_seed(seed);
        let hidden = G::random_hidden(options, &mut rng);
        let mut m = Self::start(options, hidden, &mut rng)?;
        m.seed = Some(seed.into());
        Ok(m)
    }

    fn with_salts(
        options: &G::Options,
        hidden: G::Hidden,
        salts: Vec<Salt>,
    ) -> Result<Self, crate::SetupError> {
        let game = G::start(options, hidden.clone())?;
        let parts = G::hidden_parts(&hidden);
        let commitments = parts
            .iter()
            .zip(&salts)
            .map(|(p, s)| commitment(p.name, &p.text, s))
            .collect();
        Ok(Match {
            game,
            hidden,
            parts,
            salts,
            commitments,
            events: Vec::new(),
            moves: Vec::new(),
            tags: Vec::new(),
            seed: None,
        })
    }

    /// Records the seed the hidden state was drawn from (written in the full record).
    pub fn set_seed(&mut self, seed: impl Into<crate::MatchSeed>) {
        self.seed = Some(seed.into());
    }

    /// The game state (the arbiter's: it holds everything).
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The hidden initial state (the arbiter's).
    pub fn hidden(&self) -> &G::Hidden {
        &self.hidden
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The events of the plies played so far.
    pub fn events(&self) -> &[G::Event] {
        &self.events
    }

    /// The public commitments: (part name, SHA-256 hex), in part order.
    pub fn commitments(&self) -> Vec<(&'static str, &str)> {
        self.parts
            .iter()
            .zip(&self.commitments)
            .map(|(p, c)| (p.name, c.as_str()))
            .collect()
    }

    /// Sets a record tag such as `White`, `Date` or `Event`.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        if let Some(t) = self.tags.iter_mut().find(|(k, _)| k == name) {
            t.1 = value;
        } else {
            self.tags.push((name.to_string(), value));
        }
    }

    /// Plays `mv` and returns its event.
    ///
    /// # Errors
    /// As [`Game::play`]; nothing changes.
    pub fn play(&mut self, mv: G::Move) -> Result<&G::Event, PlayError> {
        let ev = self.game.play(mv)?;
        self.moves.push(mv);
        self.events.push(ev);
        Ok(self.events.last().expect("just pushed"))
    }

    /// The match as it stood after its first `plies` plies (all of them when more are
    /// asked): the same hidden state, salts, commitments, tags and seed, with those moves
    /// played again and no conclusion from outside the board. A server uses it to write
    /// again what it sent at an earlier ply instead of keeping every frame.
    ///
    /// `None` only when the match cannot be rebuilt, which a match built by this crate
    /// never is (its hidden state fits its options and its moves were legal when played).
    ///
    /// ```
    /// use salpakan_engine::{Game, Match, generals::{Generals, GeneralsOptions}};
    ///
    /// let mut m = Match::<Generals>::random(&GeneralsOptions::default(), 7)?;
    /// let mut moves = Vec::new();
    /// for _ in 0..6 {
    ///     moves.clear();
    ///     m.game().legal_moves(&mut moves);
    ///     m.play(moves[0])?;
    /// }
    /// let earlier = m.rewound(4).expect("a match of this crate rebuilds");
    /// assert_eq!(earlier.moves(), &m.moves()[..4]);
    /// assert_eq!(earlier.commitments(), m.commitments());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn rewound(&self, plies: usize) -> Option<Self> {
        let mut m =
            Self::with_salts(self.game.options(), self.hidden.clone(), self.salts.clone()).ok()?;
        for &mv in &self.moves[..plies.min(self.moves.len())] {
            m.play(mv).ok()?;
        }
        m.tags.clone_from(&self.tags);
        m.seed = self.seed;
        Some(m)
    }

    /// Ends the game from outside the board.
    ///
    /// # Errors
    /// If it is already over.
    pub fn conclude(&mut self, outcome: Outcome) -> Result<(), PlayError> {
        self.game.conclude(outcome)
    }

    /// Writes a record copy.
    pub fn record(&self, copy: Copy) -> Record {
        let kind = G::KIND;
        let mut r = Record::default();
        r.set_tag("Game", kind.name());
        r.set_tag(
            "Copy",
            match copy {
                Copy::Full => "full",
                Copy::Seat(s) => kind.seat_name(s),
            },
        );
        for (k, v) in &self.tags {
            r.set_tag(k, v.clone());
        }
        r.set_tag("Options", self.game.options().to_text());
        if let (Copy::Full, Some(seed)) = (copy, self.seed) {
            r.set_tag("Seed", seed.to_string());
        }
        let outcome = self.game.outcome();
        r.set_tag("Result", outcome.map_or("*", |o| o.result_token()));
        if let Some(o) = outcome {
            r.set_tag("Reason", o.reason.as_str());
        }
        r.set_tag("Plies", self.events.len().to_string());
        for ((p, salt), c) in self.parts.iter().zip(&self.salts).zip(&self.commitments) {
            r.set_tag(&format!("{}Commit", p.name), c.clone());
            let reveal = match copy {
                Copy::Full => true,
                Copy::Seat(s) => p.owner == Some(s),
            };
            if reveal {
                r.set_tag(&format!("{}Salt", p.name), salt.to_string());
                r.set_tag(p.name, p.text.clone());
            }
        }
        let viewer = match copy {
            Copy::Full => Viewer::Arbiter,
            Copy::Seat(s) => Viewer::Player(s),
        };
        r.plies = self
            .events
            .iter()
            .map(|e| self.game.view(e, viewer).to_string())
            .collect();
        r.result = outcome.map_or("*", |o| o.result_token()).to_string();
        r
    }

    /// Replays a full record: rebuilds the hidden state, plays every ply (checking every
    /// annotation against the replay) and applies the recorded ending. Commitments are not
    /// checked here; see [`Match::verify`].
    ///
    /// # Errors
    /// The first problem found: a bad tag, an illegal move with its ply, an annotation or a
    /// result that disagrees with the replay.
    // Over 100 lines: one pass over the record (tags, hidden parts, every ply with its
    // annotation checked, the ending) whose checks all read the match being rebuilt.
    pub fn replay(record: &Record) -> Result<Self, RecordError> {
        let game = record.require("Game")?;
        if game != G::KIND.name() {
            return Err(RecordError::BadTag {
                tag: "Game".into(),
                message: format!("this is a {game} record, not {}", G::KIND.name()),
            });
        }
        if let Some(c) = record.tag("Copy") {
            if c != "full" {
                return Err(RecordError::SeatCopy(c.to_string()));
            }
        }
        let options = G::Options::from_text(record.tag("Options").unwrap_or(""))?;
        let mut texts = BTreeMap::new();
        let mut salts = Vec::new();
        let probe = G::hidden_part_names(&options);
        for name in probe {
            texts.insert((*name).to_string(), record.require(name)?.to_string());
            let salt = match record.tag(&format!("{name}Salt")) {
                Some(s) => s.parse().map_err(|m| RecordError::BadTag {
                    tag: format!("{name}Salt"),
                    message: m,
                })?,
                None => Salt([0; 16]),
            };
            salts.push(salt);
        }
        let hidden = G::hidden_from_parts(&options, &texts)?;
        let mut m = Self::with_salts(&options, hidden, salts)?;
        // Keep the published commitments as recorded, so that verify can compare them.
        for (i, name) in probe.iter().enumerate() {
            if let Some(c) = record.tag(&format!("{name}Commit")) {
                m.commitments[i] = c.to_string();
            }
        }
        for (k, v) in &record.tags {
            let own = matches!(
                k.as_str(),
                "Game" | "Copy" | "Options" | "Seed" | "Result" | "Reason" | "Plies"
            ) || probe.iter().any(|name| {
                k == name || *k == format!("{name}Salt") || *k == format!("{name}Commit")
            });
            if !own {
                m.set_tag(k, v.clone());
            }
        }
        if let Some(seed) = record.tag("Seed") {
            m.seed =
                Some(
                    seed.parse::<crate::MatchSeed>()
                        .map_err(|message| RecordError::BadTag {
                            tag: "Seed".into(),
                            message,
                        })?,
                );
        }
        for (i, token) in record.plies.iter().enumerate() {
            let ply = i + 1;
            let mv = G::parse_token(token).map_err(|error| RecordError::IllegalMove {
                ply,
                token: token.clone(),
                error,
            })?;
            m.play(mv).map_err(|error| RecordError::IllegalMove {
                ply,
                token: token.clone(),
                error,
            })?;
            if token.contains('{') {
                let replayed = m
                    .game
                    .view(m.events.last().expect("played"), Viewer::Arbiter)
                    .to_string();
                if &replayed != token {
                    return Err(RecordError::AnnotationMismatch {
                        ply,
                        recorded: token.clone(),
                        replayed,
                    });
                }
            }
        }
        let recorded_reason = record
            .tag("Reason")
            .map(str::parse::<EndReason>)
            .transpose()
            .map_err(|m| RecordError::BadTag {
                tag: "Reason".into(),
                message: m,
            })?;
        match (m.game.outcome(), record.result.as_str()) {
            (None, "*") => {}
            (None, res) => {
                let reason = recorded_reason.ok_or_else(|| RecordError::ResultMismatch {
                    recorded: res.to_string(),
                    replayed: "a game still in progress (and no [Reason] tag says how it ended)"
                        .into(),
                })?;
                let winner = match res {
                    "1-0" => Some(Seat::First),
                    "0-1" => Some(Seat::Second),
                    _ => None,
                };
                if !reason_ends_off_board(reason) {
                    return Err(RecordError::ResultMismatch {
                        recorded: format!("{res} ({reason})"),
                        replayed: "a game still in progress".into(),
                    });
                }
                m.game
                    .conclude(Outcome { winner, reason })
                    .map_err(|error| RecordError::IllegalMove {
                        ply: record.plies.len(),
                        token: res.to_string(),
                        error,
                    })?;
            }
            (Some(o), res) => {
                let same_reason = recorded_reason.is_none_or(|r| r == o.reason);
                if res != o.result_token() || !same_reason {
                    return Err(RecordError::ResultMismatch {
                        recorded: format!(
                            "{res}{}",
                            recorded_reason
                                .map(|r| format!(" ({r})"))
                                .unwrap_or_default()
                        ),
                        replayed: format!("{} ({})", o.result_token(), o.reason),
                    });
                }
            }
        }
        Ok(m)
    }

    /// Checks every commitment of a replayed full record against its revealed part and salt.
    ///
    /// # Errors
    /// [`RecordError::Commitment`] for the first mismatch, or a missing salt or commitment.
    pub fn verify(&self, record: &Record) -> Result<(), RecordError> {
        for (p, salt) in self.parts.iter().zip(&self.salts) {
            let committed = record.require(&format!("{}Commit", p.name))?;
            record.require(&format!("{}Salt", p.name))?;
            let computed = commitment(p.name, &p.text, salt);
            if computed != committed {
                return Err(RecordError::Commitment {
                    part: p.name.to_string(),
                    committed: committed.to_string(),
                    computed,
                });
            }
        }
        Ok(())
    }
}

/// Whether a game can end for this reason without the board deciding it.
#[must_use]
pub fn reason_ends_off_board(reason: EndReason) -> bool {
    matches!(
        reason,
        EndReason::Resignation
            | EndReason::Agreement
            | EndReason::Time
            | EndReason::Abandonment
            | EndReason::Forfeit
    )
}
