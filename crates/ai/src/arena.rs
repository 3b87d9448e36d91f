//! The arena: a round robin (or a gauntlet) between bots, both seats for each pairing, in
//! parallel, with every game's full record written to a folder, a results table and an Elo
//! ladder with 95% confidence intervals.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use salpakan_engine::{
    AnyMatch, Copy, EndReason, GameKind, GameSpec, Outcome, Seat, SeatSetup, wire,
};

use crate::legacy::{Incidents, LegacyBot, Turn};
use crate::protocol::{BotFailure, ExternalBot};
use crate::{BotKind, BotSpec, choose_move, choose_setup};

/// What to play.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The game and its options (the arena's default sets `max_quiet_plies` to 200 for
    /// Generals and Stratego: [`default_spec`]).
    pub spec: GameSpec,
    /// The bots (at least two).
    pub bots: Vec<BotSpec>,
    /// Games per pairing; seats alternate, so each bot plays half of them first.
    pub games: u32,
    /// Games played at once.
    pub jobs: usize,
    /// The seed every game's seed is drawn from.
    pub seed: u64,
    /// Where to write each game's full record (`None`: nowhere).
    pub records: Option<PathBuf>,
    /// Only the first bot against each of the others, instead of every pairing.
    pub gauntlet: bool,
    /// A game still running after this many plies is stopped as a draw.
    pub max_plies: u32,
}

impl ArenaConfig {
    /// A configuration with the arena's defaults for `kind`.
    #[must_use]
    pub fn new(kind: GameKind, bots: Vec<BotSpec>) -> ArenaConfig {
        ArenaConfig {
            spec: default_spec(kind),
            bots,
            games: 2,
            jobs: 1,
            seed: 1,
            records: None,
            gauntlet: false,
            max_plies: 3000,
        }
    }
}

/// The arena's default options: the rules' defaults, with `max_quiet_plies` 200 for
/// Generals and Stratego (RULES.md: "200 for bot arenas"); Banqi keeps its own default.
#[must_use]
pub fn default_spec(kind: GameKind) -> GameSpec {
    GameSpec::from_pairs(kind, default_option_pairs(kind).iter().copied())
        .expect("max_quiet_plies=200 is an option of Generals and Stratego")
}

/// The options where the arena's default differs from the rules' (what
/// [`default_spec`] sets), as `(key, value)` pairs.
#[must_use]
pub fn default_option_pairs(kind: GameKind) -> &'static [(&'static str, &'static str)] {
    if kind.has_setups() {
        &[("max_quiet_plies", "200")]
    } else {
        &[]
    }
}

/// Why the arena could not run.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// Fewer than two bots.
    #[error("the arena needs at least two bots; give them as --bots random,greedy,...")]
    TooFewBots,
    /// Bad options.
    #[error("bad options: {0}")]
    Options(String),
    /// The records folder could not be written.
    #[error("cannot write records to {path}: {why}")]
    Records {
        /// The folder.
        path: String,
        /// The system's reason.
        why: String,
    },
}

/// One game played.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Its number, from 0.
    pub index: usize,
    /// The bot (index into the config's bots) in each seat.
    pub seats: [usize; 2],
    /// How it ended.
    pub outcome: Outcome,
    /// Plies played.
    pub plies: u32,
    /// Why it ended, when a program failed or the ply limit stopped it.
    pub termination: Option<String>,
    /// Where its record was written.
    pub record: Option<PathBuf>,
    /// What the referee counted for each seat's legacy program (`ucc:`, `ntu:`), by seat.
    pub incidents: [Incidents; 2],
}

/// One bot's line in the table.
#[derive(Clone, Debug)]
pub struct Standing {
    /// The bot.
    pub bot: BotSpec,
    /// Games played.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Losses by forfeit (crash, time-out, illegal answer).
    pub forfeits: u32,
    /// Points (1 a win, ½ a draw) over games, 0..1.
    pub score: f64,
    /// Elo rating (the first bot is anchored at 0).
    pub elo: f64,
    /// Half-width of the 95% confidence interval of the rating.
    pub ci95: f64,
    /// What the referee counted for this bot over its games (legacy programs only).
    pub incidents: Incidents,
}

/// A pairing's result.
#[derive(Clone, Debug)]
pub struct PairResult {
    /// The two bots.
    pub bots: [usize; 2],
    /// Wins of the first, draws, wins of the second.
    pub wdl: [u32; 3],
}

impl PairResult {
    /// The first bot's score over the pairing, 0..1.
    #[must_use]
    pub fn score(&self) -> f64 {
        let n = self.wdl.iter().sum::<u32>().max(1);
        (f64::from(self.wdl[0]) + 0.5 * f64::from(self.wdl[1])) / f64::from(n)
    }
}

/// Everything the arena found.
#[derive(Clone, Debug)]
pub struct ArenaReport {
    /// The bots, in the configuration's order (pairings index into it).
    pub bots: Vec<BotSpec>,
    /// Every game, in game order.
    pub games: Vec<GameResult>,
    /// One line per bot, best first.
    pub standings: Vec<Standing>,
    /// One line per pairing.
    pub pairs: Vec<PairResult>,
}

fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn file_name(s: &BotSpec) -> String {
    s.to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '=' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect()
}

/// Runs the arena; `progress(done, total)` is called after each game.
///
/// # Errors
/// Too few bots, bad options, or a records folder that cannot be written.
// Over 100 lines: the pairings, the worker threads that share one queue of games, and the
// report are one flow whose shared state (queue, results, first record error) lives here.
pub fn run(
    cfg: &ArenaConfig,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<ArenaReport, ArenaError> {
    if cfg.bots.len() < 2 {
        return Err(ArenaError::TooFewBots);
    }
    for b in &cfg.bots {
        crate::legacy::check_options(b, &cfg.spec).map_err(ArenaError::Options)?;
    }
    if let Some(dir) = &cfg.records {
        std::fs::create_dir_all(dir).map_err(|e| ArenaError::Records {
            path: dir.display().to_string(),
            why: e.to_string(),
        })?;
    }
    let n = cfg.bots.len();
    let pairings: Vec<[usize; 2]> = if cfg.gauntlet {
        (1..n).map(|j| [0, j]).collect()
    } else {
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| [i, j]))
            .collect()
    };
    let mut schedule = Vec::new();
    for (p, pair) in pairings.iter().enumerate() {
        for g in 0..cfg.games {
            let seats = if g % 2 == 0 {
                *pair
            } else {
                [pair[1], pair[0]]
            };
            schedule.push((p, g, seats));
        }
    }
    let total = schedule.len();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<GameResult>> = Mutex::new(Vec::with_capacity(total));
    let record_error: Mutex<Option<ArenaError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..cfg.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= total {
                        break;
                    }
                    let (p, g, seats) = schedule[i];
                    let seed = mix(mix(cfg.seed, p as u64), u64::from(g));
                    let (mut m, termination, incidents) = play_one(cfg, seats, seed);
                    let outcome = m.outcome().expect("play_one finishes the game");
                    m.set_record_tag("Event", "salpakan arena".into());
                    m.set_record_tag("Round", (i + 1).to_string());
                    for s in Seat::BOTH {
                        let mut name = cfg.spec.kind().seat_name(s).to_string();
                        name[..1].make_ascii_uppercase();
                        m.set_record_tag(&name, cfg.bots[seats[s.index()]].to_string());
                    }
                    if let Some(t) = &termination {
                        m.set_record_tag("Termination", t.clone());
                    }
                    let refereeing: Vec<String> = Seat::BOTH
                        .into_iter()
                        .filter(|s| !incidents[s.index()].is_empty())
                        .map(|s| {
                            format!(
                                "{}: {}",
                                cfg.spec.kind().seat_name(s),
                                incidents[s.index()].brief()
                            )
                        })
                        .collect();
                    if !refereeing.is_empty() {
                        m.set_record_tag("Refereeing", refereeing.join("; "));
                    }
                    let mut record = None;
                    if let Some(dir) = &cfg.records {
                        let path = dir.join(format!(
                            "{:05}-{}-vs-{}.rec",
                            i + 1,
                            file_name(&cfg.bots[seats[0]]),
                            file_name(&cfg.bots[seats[1]])
                        ));
                        match std::fs::write(&path, m.record(Copy::Full).to_text()) {
                            Ok(()) => record = Some(path),
                            Err(e) => {
                                *record_error.lock().expect("lock") = Some(ArenaError::Records {
                                    path: path.display().to_string(),
                                    why: e.to_string(),
                                });
                            }
                        }
                    }
                    results.lock().expect("lock").push(GameResult {
                        index: i,
                        seats,
                        outcome,
                        plies: m.ply(),
                        termination,
                        record,
                        incidents,
                    });
                    let d = done.fetch_add(1, Ordering::SeqCst) + 1;
                    progress(d, total);
                }
            });
        }
    });
    if let Some(e) = record_error.into_inner().expect("lock") {
        return Err(e);
    }
    let mut games = results.into_inner().expect("lock");
    games.sort_by_key(|g| g.index);
    Ok(report(cfg, &pairings, games))
}

/// Plays one game between the bots in `seats`; returns the finished match and, when a
/// program failed or the ply limit stopped it, why.
// Over 100 lines: one game from setups to result, with each seat either a built-in bot or a
// program behind a protocol; the per-seat branches share the match and the incident log.
fn play_one(
    cfg: &ArenaConfig,
    seats: [usize; 2],
    seed: u64,
) -> (AnyMatch, Option<String>, [Incidents; 2]) {
    let kind = cfg.spec.kind();
    let specs = seats.map(|i| &cfg.bots[i]);
    let mut ext: [Option<ExternalBot>; 2] = [None, None];
    let mut legacy: [Option<LegacyBot>; 2] = [None, None];
    let mut failure: Option<(Seat, String)> = None;
    let mut setups: [Option<SeatSetup>; 2] = [None, None];
    for s in Seat::BOTH {
        let spec = specs[s.index()];
        let setup_seed = mix(seed, 100 + s as u64);
        if let Some(spawned) = LegacyBot::spawn(spec) {
            // The opponent's bot without its parameters (a seed is nobody's business).
            let opponent = BotSpec::new(specs[s.other().index()].kind().clone()).to_string();
            match spawned {
                Err(e) => {
                    failure.get_or_insert((s, e.to_string()));
                }
                Ok(mut b) => {
                    match b.start(kind, s, &opponent) {
                        Ok(Some(setup)) => match wire::setup_from_json(&cfg.spec, s, &setup) {
                            Err(e) => {
                                b.note_bad_setup();
                                failure.get_or_insert((s, format!("bad setup: {e}")));
                            }
                            Ok(setup) => setups[s.index()] = Some(setup),
                        },
                        Ok(None) => {}
                        Err(e) => {
                            failure.get_or_insert((s, e.to_string()));
                        }
                    }
                    legacy[s.index()] = Some(b);
                }
            }
        } else if let BotKind::Command(cmd) = spec.kind() {
            let timeout = spec.param("timeout").unwrap_or(5000);
            let started = ExternalBot::spawn(cmd, timeout).and_then(|mut b| {
                let setup = b.start(&cfg.spec, s)?;
                Ok((b, setup))
            });
            match started {
                Ok((b, setup)) => {
                    ext[s.index()] = Some(b);
                    if kind.has_setups() {
                        let setup = match setup {
                            Some(v) => wire::setup_from_json(&cfg.spec, s, &v),
                            None => cfg.spec.random_setup(s, setup_seed),
                        };
                        match setup {
                            Err(e) => {
                                failure.get_or_insert((s, format!("bad setup: {e}")));
                            }
                            Ok(setup) => setups[s.index()] = Some(setup),
                        }
                    }
                }
                Err(e) => {
                    failure.get_or_insert((s, e.to_string()));
                }
            }
        } else if kind.has_setups() {
            let setup = choose_setup(spec, &cfg.spec, s, setup_seed).expect("a game with setups");
            setups[s.index()] = Some(setup);
        }
    }
    let [first, second] = &setups;
    let mut m = cfg
        .spec
        .new_match([first.as_ref(), second.as_ref()], seed)
        .expect("setups checked");
    let forfeit = |m: &mut AnyMatch, s: Seat, why: &str| -> String {
        let _ = m.conclude(Outcome::win(s.other(), EndReason::Forfeit));
        format!(
            "{} ({}) forfeits: {why}",
            kind.seat_name(s),
            specs[s.index()]
        )
    };
    let mut termination = failure.map(|(s, why)| forfeit(&mut m, s, &why));
    while let Some(s) = m.to_move() {
        if m.ply() >= cfg.max_plies {
            let _ = m.conclude(Outcome::draw(EndReason::Agreement));
            termination = Some(format!("stopped as a draw after {} plies", cfg.max_plies));
            break;
        }
        if let Some(b) = legacy[s.index()].as_mut() {
            let turn_seed = mix(seed, 7 + u64::from(m.ply()));
            match b.play_turn(&mut m, s, turn_seed) {
                Ok(Turn::Played) => {}
                Ok(Turn::Resigned(answer)) => {
                    let _ = m.conclude(Outcome::win(s.other(), EndReason::Resignation));
                    termination = Some(format!(
                        "{} ({}) resigns: {answer}",
                        kind.seat_name(s),
                        specs[s.index()]
                    ));
                    break;
                }
                Err(e) => {
                    termination = Some(forfeit(&mut m, s, &e.to_string()));
                    break;
                }
            }
            continue;
        }
        let answer = match ext[s.index()].as_mut() {
            Some(b) => b.choose(&m, s).and_then(|text| {
                m.parse_move(&text).map_err(|e| BotFailure::Illegal {
                    mv: text,
                    why: e.to_string(),
                })
            }),
            None => Ok(
                choose_move(specs[s.index()], &m, s, mix(seed, u64::from(m.ply())))
                    .expect("built-in bots always move"),
            ),
        };
        let result = answer.and_then(|mv| {
            m.play(mv).map_err(|e| BotFailure::Illegal {
                mv: mv.to_string(),
                why: e.to_string(),
            })
        });
        if let Err(e) = result {
            termination = Some(forfeit(&mut m, s, &e.to_string()));
            break;
        }
    }
    let mut incidents = [Incidents::default(); 2];
    for s in Seat::BOTH {
        if let Some(b) = ext[s.index()].as_mut() {
            b.finish(&m, s);
        }
        if let Some(b) = legacy[s.index()].as_mut() {
            b.finish(&m, s);
            incidents[s.index()] = b.incidents();
        }
    }
    (m, termination, incidents)
}

fn report(cfg: &ArenaConfig, pairings: &[[usize; 2]], games: Vec<GameResult>) -> ArenaReport {
    let n = cfg.bots.len();
    let mut st: Vec<Standing> = cfg
        .bots
        .iter()
        .map(|b| Standing {
            bot: b.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            forfeits: 0,
            score: 0.0,
            elo: 0.0,
            ci95: 0.0,
            incidents: Incidents::default(),
        })
        .collect();
    // points[i][j]: points of i against j; played[i][j]: games between them.
    let mut points = vec![vec![0.0f64; n]; n];
    let mut played = vec![vec![0.0f64; n]; n];
    let mut pairs: Vec<PairResult> = pairings
        .iter()
        .map(|&b| PairResult {
            bots: b,
            wdl: [0; 3],
        })
        .collect();
    for g in &games {
        for s in Seat::BOTH {
            let me = g.seats[s.index()];
            let them = g.seats[s.other().index()];
            let sc = g.outcome.score(s);
            let line = &mut st[me];
            line.games += 1;
            match g.outcome.winner {
                None => line.draws += 1,
                Some(w) if w == s => line.wins += 1,
                Some(_) => {
                    line.losses += 1;
                    if g.outcome.reason == EndReason::Forfeit {
                        line.forfeits += 1;
                    }
                }
            }
            line.incidents.add(&g.incidents[s.index()]);
            points[me][them] += sc;
            played[me][them] += 1.0;
        }
        if let Some(p) = pairs
            .iter_mut()
            .find(|p| p.bots.contains(&g.seats[0]) && p.bots.contains(&g.seats[1]))
        {
            let first = p.bots[0];
            let first_seat = if g.seats[0] == first {
                Seat::First
            } else {
                Seat::Second
            };
            match g.outcome.winner {
                None => p.wdl[1] += 1,
                Some(w) if w == first_seat => p.wdl[0] += 1,
                Some(_) => p.wdl[2] += 1,
            }
        }
    }
    for line in &mut st {
        line.score =
            (f64::from(line.wins) + 0.5 * f64::from(line.draws)) / f64::from(line.games.max(1));
    }
    let (elo, ci) = elo(&points, &played);
    for (i, line) in st.iter_mut().enumerate() {
        line.elo = elo[i];
        line.ci95 = ci[i];
    }
    st.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    ArenaReport {
        bots: cfg.bots.clone(),
        games,
        standings: st,
        pairs,
    }
}

/// Bradley–Terry maximum-likelihood ratings in Elo points (the first bot anchored at 0),
/// with each pairing given one virtual draw so that perfect scores stay finite, and the
/// 95% confidence half-width of each rating from the observed information.
#[must_use]
pub fn elo(points: &[Vec<f64>], played: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let n = points.len();
    let mut w = vec![vec![0.0; n]; n];
    let mut g = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && played[i][j] > 0.0 {
                w[i][j] = points[i][j] + 0.5;
                g[i][j] = played[i][j] + 1.0;
            }
        }
    }
    // Minorization–maximization on strengths.
    let mut s = vec![1.0f64; n];
    for _ in 0..2000 {
        let mut next = s.clone();
        for i in 0..n {
            let wins: f64 = w[i].iter().sum();
            let denom: f64 = (0..n)
                .filter(|&j| j != i && g[i][j] > 0.0)
                .map(|j| g[i][j] / (s[i] + s[j]))
                .sum();
            if denom > 0.0 && wins > 0.0 {
                next[i] = wins / denom;
            }
        }
        let anchor = next[0];
        for v in &mut next {
            *v /= anchor;
        }
        let delta: f64 = s.iter().zip(&next).map(|(a, b)| (a - b).abs()).sum();
        s = next;
        if delta < 1e-12 {
            break;
        }
    }
    let k = 400.0 / std::f64::consts::LN_10;
    let ratings: Vec<f64> = s.iter().map(|v| k * v.ln()).collect();
    let ci = (0..n)
        .map(|i| {
            let info: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| {
                    let p = s[i] / (s[i] + s[j]);
                    played[i][j] * p * (1.0 - p)
                })
                .sum();
            if info > 0.0 {
                1.96 * k / info.sqrt()
            } else {
                f64::INFINITY
            }
        })
        .collect();
    (ratings, ci)
}

impl ArenaReport {
    /// The results as text: the table of wins, draws, losses and scores with the Elo
    /// ladder, then each pairing's score.
    #[must_use]
    pub fn table(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let width = self
            .standings
            .iter()
            .map(|s| s.bot.to_string().len())
            .max()
            .unwrap_or(4)
            .max(4);
        let _ = writeln!(
            out,
            "{:<width$}  {:>5}  {:>5}  {:>5}  {:>5}  {:>6}  {:>7}  {:>6}",
            "bot", "games", "wins", "draws", "losses", "score", "elo", "±95%"
        );
        for s in &self.standings {
            let _ = writeln!(
                out,
                "{:<width$}  {:>5}  {:>5}  {:>5}  {:>5}  {:>5.1}%  {:>+7.0}  {:>6.0}",
                s.bot.to_string(),
                s.games,
                s.wins,
                s.draws,
                s.losses,
                100.0 * s.score,
                s.elo,
                s.ci95
            );
        }
        out.push('\n');
        for p in &self.pairs {
            let _ = writeln!(
                out,
                "{} vs {}: {}-{}-{} (wins-draws-losses), score {:.1}%",
                self.bots[p.bots[0]],
                self.bots[p.bots[1]],
                p.wdl[0],
                p.wdl[1],
                p.wdl[2],
                100.0 * p.score()
            );
        }
        let counted: Vec<&Standing> = self
            .standings
            .iter()
            .filter(|s| {
                matches!(s.bot.kind(), BotKind::Ucc(_) | BotKind::Ntu(_)) || !s.incidents.is_empty()
            })
            .collect();
        if !counted.is_empty() {
            out.push_str("\nrefereeing of legacy programs (docs/legacy-protocols.md):\n");
            for s in counted {
                let _ = writeln!(out, "{}: {}", s.bot, s.incidents);
            }
        }
        out
    }
}
