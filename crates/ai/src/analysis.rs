//! Analysis for players (issue 16): after a game, for each seat and each ply, the win
//! probability as the strongest bot judges it and its belief about every hidden enemy piece,
//! computed only from what that seat could know at that ply.
//!
//! For every ply `p` (0 = before the first move) the match is replayed from its hidden
//! initial state up to `p`, and the seat's [`Knowledge`] at that ply is built from it with
//! [`Knowledge::of`] — the same input a bot gets, so nothing the seat could not see reaches
//! the analysis. From it:
//!
//! - **win probability**: the mean of the `expert` bot's leaf evaluation
//!   ([`AiGame::expert_evaluate`], the value its search backs up) over
//!   [`AnalysisBudget::samples`] hidden states drawn from its belief
//!   ([`AiGame::expert_belief`], [`AiGame::determinize`]), read as a chance through the
//!   game's slope on its logit ([`AiGame::ANALYSIS_SLOPE`], fitted to the results of bot
//!   games: the raw evaluation is overconfident); at a ply that ends the game on the board,
//!   the result itself. A search would need the seat to be to move, so it would
//!   judge every other ply differently (a saw-tooth graph); the evaluation over belief
//!   samples judges every ply the same way and costs `samples` determinizations a ply.
//! - **hidden pieces**: for each enemy piece on the board whose identity the seat may not
//!   know (Generals, Stratego: every enemy piece on the board, pinned ones with probability
//!   1; Banqi: every face-down piece), the probability of each rank, counted over
//!   `samples` draws of the belief's posterior ([`Belief::sample_posterior`], with
//!   [`POSTERIOR_SWEEPS`]; Banqi: exact, from the public unseen pool).
//!
//! Every ply's random draws come from a ChaCha generator seeded from the seed, the seat and
//! the ply only, so a seat's analysis is a function of what it knew and of the seed.

use salpakan_engine::{AnyMatch, GameRng, Match, Seat, rng_from_seed, with_match};
use serde::Serialize;

use crate::belief::Belief;
use crate::{AiGame, Knowledge};

/// How much work one analysis may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisBudget {
    /// Hidden states drawn from the seat's belief at every ply (for the win probability and
    /// the rank counts). At least 1.
    pub samples: u32,
    /// How many turning points to list per seat.
    pub turning_points: usize,
}

impl Default for AnalysisBudget {
    /// 64 samples a ply, 5 turning points: a 200-ply Generals game in well under a second
    /// of one core.
    fn default() -> Self {
        AnalysisBudget {
            samples: 64,
            turning_points: 5,
        }
    }
}

/// Why a game cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The game is still being played.
    #[error(
        "the game is not over yet: analysis is only for finished games; ask again once it ends"
    )]
    NotFinished,
}

/// The probabilities of the ranks one hidden piece may have.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HiddenPiece {
    /// The square it stands on (`e4`).
    pub square: String,
    /// Each possible rank's code with its probability, most likely first (ties by code);
    /// the probabilities sum to 1.
    pub ranks: Vec<(String, f64)>,
}

/// A ply where a seat's win probability changed most.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurningPoint {
    /// The ply (1 = the first move) whose move changed it.
    pub ply: usize,
    /// The win probability before that move.
    pub before: f64,
    /// The win probability after it.
    pub after: f64,
}

/// One seat's analysis of a finished game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatAnalysis {
    /// The seat's name (`white`, `red`...).
    pub seat: String,
    /// The win probability after each ply, from ply 0 (the start) to the last move, as the
    /// seat could have judged it then.
    pub win: Vec<f64>,
    /// The final result for the seat (1 won, 0.5 drawn, 0 lost): it may differ from the
    /// last ply's value when the game ended off the board (resignation, time...).
    pub result: f64,
    /// For each ply (as `win`), the hidden enemy pieces on the board with their ranks'
    /// probabilities, in square order.
    pub hidden: Vec<Vec<HiddenPiece>>,
    /// The plies whose move changed the win probability most, in ply order.
    pub turning_points: Vec<TurningPoint>,
}

/// The analysis of a finished game: one [`SeatAnalysis`] per seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The game (`generals`, `stratego`, `banqi`).
    pub game: String,
    /// The moves played.
    pub plies: usize,
    /// Hidden states drawn a ply.
    pub samples: u32,
    /// The seed of every draw.
    pub seed: u64,
    /// The first seat's analysis, then the second's.
    pub seats: Vec<SeatAnalysis>,
}

/// Analyses a finished game for both seats.
///
/// # Errors
/// [`AnalysisError::NotFinished`] for a game still being played.
pub fn analyse(
    game: &AnyMatch,
    budget: &AnalysisBudget,
    seed: u64,
) -> Result<Analysis, AnalysisError> {
    let seats = Seat::BOTH
        .iter()
        .map(|&s| analyse_seat(game, s, budget, seed))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Analysis {
        game: game.kind().name().to_string(),
        plies: game.ply() as usize,
        samples: budget.samples.max(1),
        seed,
        seats,
    })
}

/// Analyses a finished game for one seat, from what that seat knew at each ply only.
///
/// # Errors
/// [`AnalysisError::NotFinished`] for a game still being played.
pub fn analyse_seat(
    game: &AnyMatch,
    seat: Seat,
    budget: &AnalysisBudget,
    seed: u64,
) -> Result<SeatAnalysis, AnalysisError> {
    let Some(outcome) = game.outcome() else {
        return Err(AnalysisError::NotFinished);
    };
    let mut a = with_match!(game, m => walk(m, seat, budget, seed));
    a.seat = game.kind().seat_name(seat).to_string();
    a.result = outcome.score(seat);
    a.turning_points = turning_points(&a.win, budget.turning_points);
    Ok(a)
}

/// The seed of one seat's draws at one ply.
fn ply_seed(seed: u64, seat: Seat, ply: usize) -> u64 {
    seed ^ (seat.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (ply as u64)
            .wrapping_mul(0xD1B5_4A32_D192_ED03)
            .rotate_left(29)
}

fn walk<G: AiGame>(m: &Match<G>, seat: Seat, budget: &AnalysisBudget, seed: u64) -> SeatAnalysis {
    let samples = budget.samples.max(1);
    // The salts do not matter here: the replay only feeds `Knowledge::of`.
    let mut replay = Match::<G>::start(
        m.game().options(),
        m.hidden().clone(),
        &mut rng_from_seed(0),
    )
    .expect("a played match's hidden state is valid");
    let mut win = Vec::with_capacity(m.moves().len() + 1);
    let mut hidden = Vec::with_capacity(m.moves().len() + 1);
    for ply in 0..=m.moves().len() {
        if ply > 0 {
            replay
                .play(m.moves()[ply - 1])
                .expect("the match's own moves replay");
        }
        let mut rng = rng_from_seed(ply_seed(seed, seat, ply));
        let k = Knowledge::of(&replay, seat);
        let belief = G::expert_belief(&k);
        win.push(match replay.game().outcome() {
            Some(o) => o.score(seat),
            None => win_probability(&k, &belief, samples, &mut rng),
        });
        hidden.push(G::hidden_marginals(&k, &belief, samples, &mut rng));
    }
    SeatAnalysis {
        seat: String::new(),
        win,
        result: 0.5,
        hidden,
        turning_points: Vec::new(),
    }
}

/// The expert's mean leaf evaluation for the seat over `samples` determinizations (one,
/// when the evaluation reads nothing hidden: every sample would give the same value).
fn win_probability<G: AiGame>(
    k: &Knowledge<G>,
    belief: &G::Belief,
    samples: u32,
    rng: &mut GameRng,
) -> f64 {
    let samples = if G::EXPERT_EVALUATION_IS_PUBLIC {
        1
    } else {
        samples
    };
    let pool: Vec<G> = (0..samples)
        .map(|_| G::determinize(k, belief, rng))
        .collect();
    let ctx = G::expert_context(k, &pool);
    let total: f64 = pool
        .iter()
        .map(|g| G::expert_evaluate(g, k.seat(), &ctx))
        .sum();
    round(calibrated(total / f64::from(samples), G::ANALYSIS_SLOPE))
}

/// The evaluation `v` read as a winning chance: its logit times `slope`
/// ([`AiGame::ANALYSIS_SLOPE`]). Keeps 0.5, the order of any two values, and 0 and 1 (a
/// game the evaluation sees decided).
#[must_use]
pub fn calibrated(v: f64, slope: f64) -> f64 {
    if v <= 0.0 || v >= 1.0 {
        return v.clamp(0.0, 1.0);
    }
    let logit = (v / (1.0 - v)).ln();
    1.0 / (1.0 + (-slope * logit).exp())
}

/// Rounds a probability to 4 decimals (the JSON stays short; the graph cannot show more).
fn round(p: f64) -> f64 {
    (p * 10_000.0).round() / 10_000.0
}

/// The `n` plies whose move changed the win probability most (the earlier on a tie), in
/// ply order.
#[must_use]
pub fn turning_points(win: &[f64], n: usize) -> Vec<TurningPoint> {
    let mut all: Vec<TurningPoint> = win
        .windows(2)
        .enumerate()
        .map(|(i, w)| TurningPoint {
            ply: i + 1,
            before: w[0],
            after: w[1],
        })
        .filter(|t| t.after != t.before)
        .collect();
    all.sort_by(|a, b| {
        (b.after - b.before)
            .abs()
            .total_cmp(&(a.after - a.before).abs())
            .then(a.ply.cmp(&b.ply))
    });
    all.truncate(n);
    all.sort_by_key(|t| t.ply);
    all
}

/// The sweeps of [`Belief::sample_posterior`]'s chain behind each draw of the hidden pieces'
/// heat map: the belief's sequential draw alone put a Generals piece's chance of being the
/// Flag at 34% where its posterior says 58% (`posteriorgap` example, `docs/ai.md`); ten
/// sweeps bring a small army's every chance within a point of the exact posterior
/// (`posterior_sampling_follows_the_exact_posterior_where_the_sequential_draw_does_not`).
pub const POSTERIOR_SWEEPS: usize = 10;

/// The rank marginals of every token on the board, counted over `samples` draws of a
/// token belief (Generals, Stratego). `square` names a square index; `code` an identity.
pub(crate) fn token_marginals(
    b: &Belief,
    samples: u32,
    rng: &mut GameRng,
    square: impl Fn(u8) -> String,
    code: impl Fn(usize) -> String,
) -> Vec<HiddenPiece> {
    let mut on_board: Vec<(usize, u8)> = b
        .tokens()
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.square.map(|s| (i, s)))
        .collect();
    on_board.sort_by_key(|&(_, s)| s);
    let mut counts = vec![[0u32; crate::belief::MAX_TYPES]; on_board.len()];
    let mut drawn = 0u32;
    for _ in 0..samples {
        let Some(a) = b.sample_posterior(POSTERIOR_SWEEPS, rng) else {
            break;
        };
        drawn += 1;
        for (c, &(t, _)) in counts.iter_mut().zip(&on_board) {
            c[a[t] as usize] += 1;
        }
    }
    on_board
        .iter()
        .zip(&counts)
        .map(|(&(t, s), c)| {
            let ranks: Vec<(usize, f64)> = if drawn == 0 {
                // Contradictory constraints (never in a real game): what the token allows.
                let allowed = b.tokens()[t].allowed;
                let n = f64::from(allowed.count_ones().max(1));
                (0..crate::belief::MAX_TYPES)
                    .filter(|&p| allowed >> p & 1 == 1)
                    .map(|p| (p, 1.0 / n))
                    .collect()
            } else {
                (0..crate::belief::MAX_TYPES)
                    .filter(|&p| c[p] > 0)
                    .map(|p| (p, f64::from(c[p]) / f64::from(drawn)))
                    .collect()
            };
            HiddenPiece {
                square: square(s),
                ranks: sorted(ranks.into_iter().map(|(p, q)| (code(p), q)).collect()),
            }
        })
        .collect()
}

/// Ranks most likely first, then by code; probabilities rounded.
pub(crate) fn sorted(mut ranks: Vec<(String, f64)>) -> Vec<(String, f64)> {
    ranks.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for r in &mut ranks {
        r.1 = round(r.1);
    }
    ranks
}
