//! `salpakan loadtest`: opens two WebSocket clients per game on loopback, plays random
//! Game of the Generals games between them at a given move rate, and reports the games
//! held, moves per second and the latency from sending a move to its acknowledgement (which
//! the server sends only once the move is durable).
//!
//! Loopback only: a `--url` that is not a loopback address is refused. Every loop is
//! bounded in time.

mod abuse_run;
mod connection;
mod driver;
mod report;

pub use report::{AbuseReport, Report};

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::time::Duration;

use abuse_run::run_abuse;
use driver::drive;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Concurrent games (two sockets each).
    pub games: usize,
    /// Moves per second per side.
    pub rate: f64,
    /// How long to measure, after every game has started.
    pub seconds: f64,
    /// A running server (`http://127.0.0.1:8080`); none starts one in this process on a
    /// temporary database.
    pub url: Option<String>,
    /// Also run the abuse floods, against a server process of its own (this program's
    /// `serve`).
    pub abuse: bool,
}

/// The server side of a run that has no `url`: the command, which links the server,
/// supplies it, so that this crate speaks only the protocol.
pub trait Host {
    /// Starts a server in this process over the (new) database `db`, listening on
    /// 127.0.0.1 at a port the system picks, with the per-address limits lifted (every
    /// client of the run comes from 127.0.0.1).
    ///
    /// # Errors
    /// The server cannot be started.
    fn start(&self, db: &Path) -> Result<Started, String>;

    /// The moves stored in the database `db` (every acknowledged move must be there);
    /// `None` when it cannot be read.
    fn stored_moves(&self, db: &Path) -> Option<u64>;
}

/// A server that [`Host::start`] started.
pub struct Started {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Stops it (called once the run and its count of stored moves are done).
    pub stop: Box<dyn FnOnce()>,
}

impl std::fmt::Debug for Started {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Started").field("addr", &self.addr).finish()
    }
}

#[derive(Default)]
struct Stats {
    moves: AtomicU64,
    errors: AtomicU64,
    finished: AtomicU64,
    playing: AtomicUsize,
    lat: std::sync::Mutex<Vec<u32>>,
}

fn loopback(url: &str) -> Result<SocketAddr, String> {
    let hostport = url
        .trim_start_matches("http://")
        .trim_start_matches("ws://")
        .trim_end_matches('/');
    let addr = hostport
        .to_socket_addrs()
        .map_err(|e| format!("bad --url {url:?}: {e}"))?
        .next()
        .ok_or_else(|| format!("bad --url {url:?}"))?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "the load generator only targets loopback addresses (127.0.0.1, ::1); {url:?} is not one"
        ));
    }
    Ok(addr)
}

/// Runs the load test; without a `url`, against a server that `host` starts in this
/// process.
///
/// # Errors
/// A bad option, a server that cannot be started or reached.
pub fn run(opts: &Options, host: &dyn Host) -> Result<Report, String> {
    if opts.games == 0 || opts.games > 20_000 {
        return Err("--games is 1 to 20000".into());
    }
    if !(opts.rate > 0.0 && opts.rate <= 100.0 && opts.seconds > 0.0 && opts.seconds <= 3600.0) {
        return Err("--rate is above 0 and at most 100; --seconds above 0 and at most 3600".into());
    }
    if opts.abuse {
        return run_abuse(opts, host);
    }
    let mut local = None;
    let addr = if let Some(u) = &opts.url {
        loopback(u)?
    } else {
        let dir = std::env::temp_dir().join(format!("salpakan-loadtest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let db = dir.join("loadtest.db");
        let _ = std::fs::remove_file(&db);
        let started = host.start(&db)?;
        let addr = started.addr;
        local = Some((db, started));
        addr
    };
    // One thread: the load generator's sides are small tasks that mostly wait, and one
    // thread wakes no other (it measured 10 % cheaper per move than two workers, leaving
    // more of a shared machine to the server under test).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let mut report = rt.block_on(drive(addr, opts.clone()))?;
    drop(rt);
    if let Some((db, started)) = local {
        std::thread::sleep(Duration::from_millis(200));
        report.stored_moves = host.stored_moves(&db);
        if let Some(dir) = db.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
        (started.stop)();
    }
    Ok(report)
}
