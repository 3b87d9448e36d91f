//! Perft: counting the tree of legal moves from a position, to pin move generation.
//!
//! The count is taken over the arbiter's authoritative state, which knows every hidden
//! piece: a Generals or Stratego challenge is resolved by the real ranks, and a Banqi flip
//! turns up what the deal put on that square, so each flip is **one** node. [`perft_chance`]
//! counts Banqi the other way, as a chance node: each distinct piece the flip may turn up
//! (given what is still face down) is a node of its own.
//!
//! Fixtures (`crates/engine/tests/data/perft/*.txt`, see [`Fixture`]) hold the counts for
//! fixed positions, and a test recomputes them, so any change to move generation shows.
//! `cargo run --release -p salpakan-engine --example perft -- --write` rewrites them.
//!
//! ```
//! use salpakan_engine::perft::{perft, perft_counts};
//! use salpakan_engine::{Game, GameOptions, rng_from_seed};
//! use salpakan_engine::banqi::{Banqi, BanqiOptions};
//!
//! let o = BanqiOptions::default();
//! let g = Banqi::start(&o, Banqi::random_hidden(&o, &mut rng_from_seed(1))).unwrap();
//! // Every one of the 32 face-down pieces may be flipped first, and each flip is one node.
//! assert_eq!(perft(&g, 1), 32);
//! assert_eq!(perft_counts(&g, 2), vec![32, perft(&g, 2)]);
//! ```

use rand::Rng;

use crate::banqi::{Banqi, Move as BanqiMove};
use crate::record::Record;
use crate::{Game, GameKind, GameOptions, Match, rng_from_seed};

/// The number of leaves of the legal-move tree `depth` plies deep (a game that ends
/// earlier on some line contributes no leaf there). `perft(g, 0)` is 1.
///
/// # Panics
/// If the game refuses a move its own generator offered (a bug this is meant to find).
#[must_use]
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| perft(&after(game, mv), depth - 1))
        .sum()
}

/// The node counts at every depth from 1 to `depth`, in one walk of the tree:
/// `perft_counts(g, d)[i] == perft(g, i + 1)`.
///
/// # Panics
/// As [`perft`].
#[must_use]
pub fn perft_counts<G: Game>(game: &G, depth: u32) -> Vec<u64> {
    fn go<G: Game>(game: &G, level: usize, counts: &mut [u64]) {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        counts[level] += moves.len() as u64;
        if level + 1 < counts.len() {
            for &mv in &moves {
                go(&after(game, mv), level + 1, counts);
            }
        }
    }
    let mut counts = vec![0; depth as usize];
    if depth > 0 {
        go(game, 0, &mut counts);
    }
    counts
}

/// Banqi counted with flips as chance nodes: a flip of a square is one node for each
/// distinct piece (kind and colour) that may still lie face down, and every other action
/// one node. Node counts from 1 to `depth`, as [`perft_counts`].
///
/// The outcome of a flip is chosen with [`Banqi::set_face_down`] on a copy of the state,
/// so the counts depend only on what is public plus the face-down pool, not on the deal.
///
/// # Panics
/// As [`perft`].
#[must_use]
pub fn perft_chance(game: &Banqi, depth: u32) -> Vec<u64> {
    fn go(game: &Banqi, level: usize, counts: &mut [u64]) {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for &mv in &moves {
            let outcomes: Vec<Banqi> = match mv {
                BanqiMove::Flip(sq) => game
                    .flip_distribution(sq)
                    .expect("a flip offered on a face-down square")
                    .into_iter()
                    .map(|(piece, _)| {
                        let mut g = game.clone();
                        assert!(g.set_face_down(sq, piece), "an unseen piece lies face down");
                        g
                    })
                    .collect(),
                _ => vec![game.clone()],
            };
            for mut g in outcomes {
                counts[level] += 1;
                if level + 1 < counts.len() {
                    play_offered(&mut g, mv);
                    go(&g, level + 1, counts);
                }
            }
        }
    }
    let mut counts = vec![0; depth as usize];
    if depth > 0 {
        go(game, 0, &mut counts);
    }
    counts
}

fn after<G: Game>(game: &G, mv: G::Move) -> G {
    let mut g = game.clone();
    play_offered(&mut g, mv);
    g
}

fn play_offered<G: Game>(game: &mut G, mv: G::Move) {
    if let Err(e) = game.play(mv) {
        panic!("the generator offered {mv}, which play refuses: {e}");
    }
}

/// Plays `plies` moves chosen by a generator seeded with `seed`, each drawn uniformly from
/// the legal moves sorted by their text (so the walk depends only on the set of legal
/// moves, not on the order the generator lists them in). Stops early if the game ends.
pub fn walk<G: Game>(game: &mut G, plies: u32, seed: u64) {
    let mut rng = rng_from_seed(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return;
        }
        let mut named: Vec<(String, G::Move)> = moves.iter().map(|m| (m.to_string(), *m)).collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        let mv = named[rng.random_range(0..named.len())].1;
        play_offered(game, mv);
    }
}

/// How a fixture counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every legal move of the authoritative state is a node ([`perft_counts`]).
    Moves,
    /// Banqi flips as chance nodes ([`perft_chance`]).
    Chance,
}

/// Where a fixture's position comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The hidden state drawn from this seed ([`crate::Match::random`]).
    Seed(u64),
    /// A Gravon (StraDoS2 XML) record in the data folder, imported with its file's date.
    Gravon(String),
    /// A computer Dark Chess record in the data folder, imported with the default limit.
    Cdc(String),
    /// A salpakan full record in the data folder.
    Record(String),
}

/// One fixture line: a position and its node counts at depths 1, 2, ...
///
/// Written `name | options | start | mode | counts`, e.g.
/// `opening | army=barrage | seed=3 walk=10 | moves | 8 64 530`: options in their canonical
/// `key=value` text (`-` for the defaults); the start is `seed=N`, `gravon=FILE`, `cdc=FILE`
/// or `record=FILE`, followed by `ply=N` (replay a record's first N plies) and/or `walk=N`
/// (then play N moves chosen by [`walk`], seeded by the seed or 0); the mode is `moves` or
/// `chance`; counts of `?` are to be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// A name unique in its file.
    pub name: String,
    /// The options as `key=value` text (empty for the defaults).
    pub options: String,
    /// Where the position comes from.
    pub source: Source,
    /// Plies of the record to replay before counting (records only).
    pub ply: Option<usize>,
    /// Seeded random moves to play before counting.
    pub walk: u32,
    /// How nodes are counted.
    pub mode: Mode,
    /// Node counts at depths 1..; `None` where not yet computed.
    pub counts: Vec<Option<u64>>,
}

impl Fixture {
    /// Parses one fixture line (see [`Fixture`]).
    ///
    /// # Errors
    /// A sentence naming what is wrong.
    pub fn parse(line: &str) -> Result<Fixture, String> {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [name, options, start, mode, counts] = fields[..] else {
            return Err(format!(
                "{line:?}: write name | options | start | mode | counts"
            ));
        };
        let mut source = None;
        let mut ply = None;
        let mut walk = 0;
        for word in start.split_whitespace() {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| format!("{word:?}: the start is written key=value"))?;
            let num = |v: &str| {
                v.parse::<u64>()
                    .map_err(|_| format!("{word:?}: {v:?} is not a whole number"))
            };
            match k {
                "seed" => source = Some(Source::Seed(num(v)?)),
                "gravon" => source = Some(Source::Gravon(v.to_string())),
                "cdc" => source = Some(Source::Cdc(v.to_string())),
                "record" => source = Some(Source::Record(v.to_string())),
                "ply" => ply = Some(usize::try_from(num(v)?).map_err(|e| e.to_string())?),
                "walk" => walk = u32::try_from(num(v)?).map_err(|e| e.to_string())?,
                _ => {
                    return Err(format!(
                        "{word:?}: expected seed, gravon, cdc, record, ply or walk"
                    ));
                }
            }
        }
        let source = source.ok_or_else(|| format!("{start:?}: no seed, gravon, cdc or record"))?;
        let mode = match mode {
            "moves" => Mode::Moves,
            "chance" => Mode::Chance,
            _ => return Err(format!("{mode:?}: the mode is moves or chance")),
        };
        let counts = counts
            .split_whitespace()
            .map(|c| match c {
                "?" => Ok(None),
                _ => c
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("{c:?} is not a node count")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if counts.is_empty() {
            return Err(format!(
                "{name}: no counts (write ? for each depth to compute)"
            ));
        }
        Ok(Fixture {
            name: name.to_string(),
            options: if options == "-" {
                String::new()
            } else {
                options.to_string()
            },
            source,
            ply,
            walk,
            mode,
            counts,
        })
    }

    /// The line this fixture is written as, with `counts` in place of its own.
    #[must_use]
    pub fn line(&self, counts: &[u64]) -> String {
        let mut start = match &self.source {
            Source::Seed(s) => format!("seed={s}"),
            Source::Gravon(f) => format!("gravon={f}"),
            Source::Cdc(f) => format!("cdc={f}"),
            Source::Record(f) => format!("record={f}"),
        };
        if let Some(p) = self.ply {
            start += &format!(" ply={p}");
        }
        if self.walk > 0 {
            start += &format!(" walk={}", self.walk);
        }
        let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
        format!(
            "{} | {} | {start} | {} | {}",
            self.name,
            if self.options.is_empty() {
                "-"
            } else {
                &self.options
            },
            match self.mode {
                Mode::Moves => "moves",
                Mode::Chance => "chance",
            },
            counts.join(" ")
        )
    }

    /// Builds the position and counts its tree to the fixture's depth.
    ///
    /// `load` reads a file of the data folder by name.
    ///
    /// # Errors
    /// Bad options, a file that cannot be read or imported, a chance count outside Banqi.
    pub fn compute(
        &self,
        kind: GameKind,
        load: &dyn Fn(&str) -> Result<String, String>,
    ) -> Result<Vec<u64>, String> {
        let depth = u32::try_from(self.counts.len()).map_err(|e| e.to_string())?;
        match (kind, self.mode) {
            (GameKind::Generals, Mode::Moves) => Ok(perft_counts(
                &self.position::<crate::generals::Generals>(load)?,
                depth,
            )),
            (GameKind::Stratego, Mode::Moves) => Ok(perft_counts(
                &self.position::<crate::stratego::Stratego>(load)?,
                depth,
            )),
            (GameKind::Banqi, Mode::Moves) => {
                Ok(perft_counts(&self.position::<Banqi>(load)?, depth))
            }
            (GameKind::Banqi, Mode::Chance) => {
                Ok(perft_chance(&self.position::<Banqi>(load)?, depth))
            }
            (_, Mode::Chance) => Err(format!("{}: only Banqi has chance nodes", self.name)),
        }
    }

    /// The fixture's position in game `G`.
    ///
    /// # Errors
    /// As [`Fixture::compute`].
    pub fn position<G: Game>(
        &self,
        load: &dyn Fn(&str) -> Result<String, String>,
    ) -> Result<G, String> {
        let name = &self.name;
        let (mut game, seed) = match &self.source {
            Source::Seed(seed) => {
                let o = G::Options::from_text(&self.options).map_err(|e| format!("{name}: {e}"))?;
                let m = Match::<G>::random(&o, *seed).map_err(|e| format!("{name}: {e}"))?;
                (m.game().clone(), *seed)
            }
            Source::Gravon(file) | Source::Cdc(file) | Source::Record(file) => {
                let text = load(file)?;
                let mut record = match &self.source {
                    Source::Gravon(_) => crate::gravon::import_gravon(&text, file, None)
                        .map_err(|e| e.to_string())?,
                    Source::Cdc(_) => {
                        crate::cdc::import_cdc(&text, file, None).map_err(|e| e.to_string())?
                    }
                    _ => Record::parse(&text).map_err(|e| format!("{file}: {e}"))?,
                };
                if let Some(p) = self.ply {
                    truncate(&mut record, p);
                }
                let m = Match::<G>::replay(&record).map_err(|e| format!("{file}: {e}"))?;
                let options = m.game().options().to_text();
                let want =
                    G::Options::from_text(&self.options).map_err(|e| format!("{name}: {e}"))?;
                if !self.options.is_empty() && want != *m.game().options() {
                    return Err(format!(
                        "{name}: the record's options are {options:?}, not {:?}",
                        self.options
                    ));
                }
                (m.game().clone(), 0)
            }
        };
        walk(&mut game, self.walk, seed);
        Ok(game)
    }
}

/// Cuts a record after its first `plies` plies (a game still in progress).
fn truncate(record: &mut Record, plies: usize) {
    record.plies.truncate(plies);
    record.result = "*".into();
    record
        .tags
        .retain(|(k, _)| !matches!(k.as_str(), "Result" | "Reason" | "Plies"));
}

/// Parses a fixture file: `#` comments, blank lines and one [`Fixture`] a line.
///
/// # Errors
/// The first bad line, with its number.
pub fn parse_fixtures(text: &str) -> Result<Vec<Fixture>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| Fixture::parse(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}
