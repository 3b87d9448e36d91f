//! Analysis for players (issue 16): `POST /api/games/{id}/analysis` queues a finished
//! game's analysis (`salpakan_ai::analysis`), `GET` gives its status or its result.
//!
//! Bounded in CPU per server: one analysis runs at a time (`spawn_blocking` behind a
//! semaphore of one permit), at most `Config::analysis_queue` games wait or run, each with
//! `Config::analysis_samples` hidden states drawn a ply. A result is stored with the game
//! (table `analyses`, migration 3), so a restarted server still has it; a queued or running
//! job is not stored and is lost on a restart (ask again).
//!
//! Who sees what: a game whose full record is public (`reveal_at_end`, the default) has a
//! public analysis, both seats; otherwise only a seat (its seat token, or its player's
//! token) may ask, and it gets its own seat's analysis only. Each seat's analysis is built
//! from that seat's knowledge at each ply (see `docs/ai.md`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rusqlite::{Connection, OptionalExtension, params};
use salpakan_ai::analysis::{AnalysisBudget, analyse};
use salpakan_engine::{AnyMatch, Seat};
use tokio::sync::{Semaphore, oneshot};

use crate::app::App;
use crate::error::{Error, Result};
use crate::game::Cmd;
use crate::store::Op;

/// Migration 3: one row per analysed game, each seat's analysis as its JSON text.
pub(crate) const MIGRATION_3: &str = "
CREATE TABLE analyses (
  game TEXT PRIMARY KEY,
  -- generals, stratego or banqi
  kind TEXT NOT NULL,
  plies INTEGER NOT NULL,
  samples INTEGER NOT NULL,
  seed INTEGER NOT NULL,
  -- JSON of salpakan_ai::analysis::SeatAnalysis, first seat and second seat
  seat0 TEXT NOT NULL,
  seat1 TEXT NOT NULL,
  created INTEGER NOT NULL
);
";

/// A stored analysis.
#[derive(Clone, Debug)]
pub struct AnalysisRow {
    /// The game's id.
    pub game: String,
    /// `generals`, `stratego` or `banqi`.
    pub kind: String,
    /// The moves analysed.
    pub plies: u64,
    /// Hidden states drawn a ply.
    pub samples: u32,
    /// The seed of every draw.
    pub seed: u64,
    /// Each seat's analysis as JSON, by seat index.
    pub seats: [String; 2],
    /// When it was computed (Unix ms).
    pub created: u64,
}

/// Writes an analysis (the store's writer thread).
pub(crate) fn store(c: &Connection, a: &AnalysisRow) -> rusqlite::Result<()> {
    c.prepare_cached(
        "INSERT OR REPLACE INTO analyses (game, kind, plies, samples, seed, seat0, seat1, created)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        a.game,
        a.kind,
        i64::try_from(a.plies).unwrap_or(i64::MAX),
        a.samples,
        // SQLite integers are signed: the seed's bits are kept as they are.
        i64::from_le_bytes(a.seed.to_le_bytes()),
        a.seats[0],
        a.seats[1],
        i64::try_from(a.created).unwrap_or(i64::MAX),
    ])?;
    Ok(())
}

fn load(c: &Connection, game: &str) -> rusqlite::Result<Option<AnalysisRow>> {
    c.query_row(
        "SELECT kind, plies, samples, seed, seat0, seat1, created FROM analyses WHERE game=?1",
        params![game],
        |r| {
            Ok(AnalysisRow {
                game: game.to_string(),
                kind: r.get(0)?,
                plies: u64::try_from(r.get::<_, i64>(1)?).unwrap_or(0),
                samples: r.get(2)?,
                seed: u64::from_le_bytes(r.get::<_, i64>(3)?.to_le_bytes()),
                seats: [r.get(4)?, r.get(5)?],
                created: u64::try_from(r.get::<_, i64>(6)?).unwrap_or(0),
            })
        },
    )
    .optional()
}

/// Where a game's analysis stands while it is not stored.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Job {
    /// Waiting for the running one to finish.
    Queued,
    /// Being computed.
    Running,
    /// It failed (the sentence is for the player); asking again retries.
    Failed(String),
}

impl Job {
    fn name(&self) -> &'static str {
        match self {
            Job::Queued => "queued",
            Job::Running => "running",
            Job::Failed(_) => "failed",
        }
    }
}

/// The analyses queued or running on this server.
pub(crate) struct Analyses {
    jobs: Mutex<HashMap<String, Job>>,
    /// One analysis computes at a time.
    running: Arc<Semaphore>,
}

impl Default for Analyses {
    fn default() -> Self {
        Analyses {
            jobs: Mutex::new(HashMap::new()),
            running: Arc::new(Semaphore::new(1)),
        }
    }
}

impl Analyses {
    fn get(&self, game: &str) -> Option<Job> {
        self.jobs.lock().ok()?.get(game).cloned()
    }

    fn set(&self, game: &str, job: Option<Job>) {
        if let Ok(mut jobs) = self.jobs.lock() {
            match job {
                Some(j) => {
                    jobs.insert(game.to_string(), j);
                }
                None => {
                    jobs.remove(game);
                }
            }
        }
    }

    /// Queues `game` unless it is already queued or running; refuses past `limit` jobs.
    fn enqueue(&self, game: &str, limit: usize) -> Result<Option<Job>> {
        let mut jobs = self.jobs.lock().map_err(|_| Error::Unavailable)?;
        if let Some(j @ (Job::Queued | Job::Running)) = jobs.get(game) {
            return Ok(Some(j.clone()));
        }
        let busy = jobs
            .values()
            .filter(|j| matches!(j, Job::Queued | Job::Running))
            .count();
        if busy >= limit {
            return Err(Error::Limit(format!(
                "the server is analysing {busy} games already (its limit); ask again in a few minutes"
            )));
        }
        jobs.insert(game.to_string(), Job::Queued);
        Ok(None)
    }
}

/// The seed of a game's analysis: from its id (FNV-1a), so that the same game gives the
/// same analysis on any server.
fn seed_of(game: &str) -> u64 {
    game.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Which seats' analyses the caller may see: both for a game whose record is public once
/// over, else only the caller's own seat.
async fn allowed(app: &Arc<App>, headers: &HeaderMap, id: &str) -> Result<Vec<Seat>> {
    let (tx, rx) = oneshot::channel();
    let summary = app.ask(id, Cmd::Summary { reply: tx }, rx).await?;
    if summary["status"] != "ended" {
        return Err(Error::Rejected(
            "the game is not over yet: analysis is only for finished games; ask again once it ends"
                .into(),
        ));
    }
    if crate::game::reveals_at_end(&summary["options"]) {
        return Ok(Seat::BOTH.to_vec());
    }
    match crate::http::caller_seat(app, headers, id) {
        Some(s) => Ok(vec![s]),
        None => Err(Error::Forbidden(
            "this game was played with reveal_at_end=false: only its players may see its analysis, each their own seat's; send your seat token (Authorization: Bearer <seat token>)".into(),
        )),
    }
}

/// The answer for a stored analysis, with the seats the caller may see.
fn done(id: &str, row: &AnalysisRow, seats: &[Seat]) -> Response {
    let mut body = format!(
        "{{\"v\":1,\"game\":{},\"status\":\"done\",\"analysis\":{{\"game\":{},\"plies\":{},\"samples\":{},\"seed\":{},\"seats\":[",
        serde_json::Value::from(id),
        serde_json::Value::from(row.kind.as_str()),
        row.plies,
        row.samples,
        row.seed
    );
    for (i, s) in seats.iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push_str(&row.seats[s.index()]);
    }
    body.push_str("]}}");
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

fn status(id: &str, code: StatusCode, job: Option<&Job>) -> Response {
    let mut v = serde_json::json!({"v": 1, "game": id, "status": job.map_or("none", Job::name)});
    if let Some(Job::Failed(why)) = job {
        v["error"] = why.as_str().into();
    }
    (code, axum::Json(v)).into_response()
}

/// The seats the caller may see (refusing as [`allowed`] does) and the stored analysis.
async fn seats_and_stored(
    app: &Arc<App>,
    headers: &HeaderMap,
    id: &str,
) -> Result<(Vec<Seat>, Option<AnalysisRow>)> {
    let seats = allowed(app, headers, id).await?;
    let key = id.to_string();
    let stored = app.store.read(move |c| load(c, &key)).await?;
    Ok((seats, stored))
}

/// `GET /api/games/{id}/analysis`: the analysis once done (`status: done`, `analysis`),
/// else `none`, `queued`, `running` or `failed` (with `error`).
pub async fn get(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    let (seats, stored) = seats_and_stored(&app, &headers, &id).await?;
    if let Some(row) = stored {
        return Ok(done(&id, &row, &seats));
    }
    Ok(status(&id, StatusCode::OK, app.analyses.get(&id).as_ref()))
}

/// `POST /api/games/{id}/analysis`: queues the analysis of a finished game (202 with its
/// status), or answers 200 with it when it is already done.
pub async fn post(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    let (seats, stored) = seats_and_stored(&app, &headers, &id).await?;
    if let Some(row) = stored {
        return Ok(done(&id, &row, &seats));
    }
    let (tx, rx) = oneshot::channel();
    let m = app.ask(&id, Cmd::Finished { reply: tx }, rx).await??;
    if let Some(job) = app.analyses.enqueue(&id, app.config.analysis_queue)? {
        return Ok(status(&id, StatusCode::ACCEPTED, Some(&job)));
    }
    tokio::spawn(run(app.clone(), id.clone(), m));
    Ok(status(&id, StatusCode::ACCEPTED, Some(&Job::Queued)))
}

/// Runs one queued analysis when the permit is free, stores it, and forgets the job.
async fn run(app: Arc<App>, id: String, m: AnyMatch) {
    let Ok(_permit) = app.analyses.running.clone().acquire_owned().await else {
        return;
    };
    app.analyses.set(&id, Some(Job::Running));
    let budget = AnalysisBudget {
        samples: app.config.analysis_samples,
        ..AnalysisBudget::default()
    };
    let seed = seed_of(&id);
    let computed = tokio::task::spawn_blocking(move || analyse(&m, &budget, seed)).await;
    let row = match computed {
        Ok(Ok(a)) => {
            let json = |i: usize| serde_json::to_string(&a.seats[i]).map_err(|e| e.to_string());
            match (json(0), json(1)) {
                (Ok(s0), Ok(s1)) => Ok(AnalysisRow {
                    game: id.clone(),
                    kind: a.game.clone(),
                    plies: a.plies as u64,
                    samples: a.samples,
                    seed: a.seed,
                    seats: [s0, s1],
                    created: crate::account::unix_ms(),
                }),
                (Err(e), _) | (_, Err(e)) => Err(e),
            }
        }
        Ok(Err(e)) => Err(e.to_string()),
        Err(e) => Err(format!("the analysis stopped: {e}")),
    };
    let outcome = match row {
        Ok(row) => app
            .store
            .write(vec![Op::Analysis(row)])
            .await
            .map_err(|e| e.to_string()),
        Err(e) => Err(e),
    };
    match outcome {
        Ok(()) => app.analyses.set(&id, None),
        Err(e) => {
            tracing::error!(game = %id, error = %e, "an analysis failed");
            app.analyses.set(
                &id,
                Some(Job::Failed(
                    "the analysis failed on the server; ask again, and report it if it fails again"
                        .into(),
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At most `limit` games wait or run; asking again for one of them is no new job; a
    /// failed job may be asked for again.
    #[test]
    fn the_queue_refuses_past_its_limit_and_holds_one_job_per_game() {
        let q = Analyses::default();
        assert_eq!(q.enqueue("a", 2).unwrap(), None);
        assert_eq!(q.enqueue("a", 2).unwrap(), Some(Job::Queued));
        q.set("a", Some(Job::Running));
        assert_eq!(q.enqueue("a", 2).unwrap(), Some(Job::Running));
        assert_eq!(q.enqueue("b", 2).unwrap(), None);
        let full = q.enqueue("c", 2).unwrap_err();
        assert!(matches!(full, Error::Limit(_)));
        assert!(full.to_string().contains("ask again"), "{full}");
        q.set("b", Some(Job::Failed("x".into())));
        assert_eq!(
            q.enqueue("c", 2).unwrap(),
            None,
            "a failed job holds no place"
        );
        assert_eq!(
            q.enqueue("b", 3).unwrap(),
            None,
            "a failed job may be asked again"
        );
        q.set("a", None);
        assert_eq!(q.get("a"), None);
    }

    /// The seed depends on the game's id only.
    #[test]
    fn a_games_analysis_seed_comes_from_its_id() {
        assert_eq!(seed_of("abc"), seed_of("abc"));
        assert_ne!(seed_of("abc"), seed_of("abd"));
    }
}
