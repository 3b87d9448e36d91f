//! The writer thread (group commit) and the checkpointer thread.

use std::sync::atomic::{AtomicI64, Ordering};

use rusqlite::Connection;
use tokio::sync::mpsc;

use super::Job;
use super::live::Live;
use super::rows::apply;
use super::schema::{CHECKPOINT_EVERY, checkpoint};

/// The least time between the starts of two group commits while writes queue up.
const COMMIT_GAP: std::time::Duration = std::time::Duration::from_millis(2);

/// The checkpointer thread: copies the WAL into the database every
/// [`CHECKPOINT_EVERY`] (PASSIVE: it never blocks the writer) and publishes how many frames
/// the WAL holds. Stops, after a last checkpoint, when the writer stops.
pub(super) fn checkpointer(
    c: &Connection,
    writer_gone: &std::sync::mpsc::Receiver<()>,
    frames: &AtomicI64,
) {
    loop {
        let stop = matches!(
            writer_gone.recv_timeout(CHECKPOINT_EVERY),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected)
        );
        match checkpoint(c) {
            Ok((_, log, _)) => frames.store(log, Ordering::Relaxed),
            Err(e) => tracing::warn!(error = %e, "checkpoint failed"),
        }
        if stop {
            return;
        }
    }
}

/// The writer thread: takes every pending job, commits the writes in one transaction,
/// answers each. A write that fails is rolled back alone (savepoints, and [`Live`]'s own
/// log) and answered with the error. Reads of unfinished games' events are answered after
/// the commit, so they see every write queued before them. The next group commit starts as
/// soon as one is answered, with whatever queued meanwhile. When the WAL has grown past
/// [`WAL_RESTART_FRAMES`](super::schema::WAL_RESTART_FRAMES), the writer checkpoints the
/// little the checkpointer has not yet copied, so that the WAL starts over.
pub(super) fn writer(
    c: Connection,
    mut live: Live,
    mut rx: mpsc::UnboundedReceiver<Job>,
    wal_frames: &AtomicI64,
    restart_frames: i64,
    _alive: std::sync::mpsc::Sender<()>,
) {
    let mut batch: Vec<Job> = Vec::new();
    let mut last_start = std::time::Instant::now();
    let mut last_writes = 0usize;
    while let Some(first) = rx.blocking_recv() {
        // Under load (the last group commit held several writes), commits start at most
        // every COMMIT_GAP: fewer, larger commits (fewer fsyncs, WAL pages and locks per
        // write) for at most that much more latency. A lone writer never waits.
        if last_writes > 1 {
            let since = last_start.elapsed();
            if since < COMMIT_GAP {
                std::thread::sleep(COMMIT_GAP - since);
            }
        }
        if wal_frames.load(Ordering::Relaxed) >= restart_frames {
            match checkpoint(&c) {
                Ok((0, log, done)) if log == done => wal_frames.store(0, Ordering::Relaxed),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "checkpoint failed"),
            }
        }
        batch.push(first);
        while batch.len() < 4096 {
            match rx.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        last_start = std::time::Instant::now();
        last_writes = batch.iter().filter(|j| matches!(j, Job::Write(..))).count();
        let mut answers: Vec<std::result::Result<(), String>> = Vec::with_capacity(batch.len());
        // Transaction and savepoint statements are prepared once (not parsed per job).
        let run = |sql: &str| {
            c.prepare_cached(sql)
                .and_then(|mut q| q.execute([]).map(|_| ()))
        };
        let committed = (|| -> rusqlite::Result<()> {
            run("BEGIN")?;
            live.index_old(&c)?;
            for job in &batch {
                let Job::Write(ops, _) = job else { continue };
                run("SAVEPOINT job")?;
                let mark = live.mark();
                let r = ops.iter().try_for_each(|op| apply(&c, &mut live, op));
                if r.is_err() {
                    run("ROLLBACK TO job")?;
                    live.rollback_to(mark);
                }
                run("RELEASE job")?;
                answers.push(r.map_err(|e| e.to_string()));
            }
            run("COMMIT")
        })();
        if committed.is_err() && !c.is_autocommit() {
            let _ = run("ROLLBACK");
        }
        match &committed {
            Ok(()) => live.committed(),
            Err(e) => {
                tracing::error!(error = %e, "commit failed");
                live.rollback_to(0);
                live.committed();
            }
        }
        let mut answers = answers.into_iter();
        for job in batch.drain(..) {
            match job {
                Job::Write(_, done) => {
                    let r = match &committed {
                        Ok(()) => answers.next().unwrap_or(Ok(())),
                        Err(e) => Err(e.to_string()),
                    };
                    let _ = done.send(r);
                }
                Job::Events(game, done) => {
                    let _ = done.send(live.events(&c, &game));
                }
            }
        }
    }
}
