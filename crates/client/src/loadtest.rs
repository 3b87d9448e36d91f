//! `salpakan loadtest`: opens two WebSocket clients per game on loopback, plays random
//! Game of the Generals games between them at a given move rate, and reports the games
//! held, moves per second and the latency from sending a move to its acknowledgement (which
//! the server sends only once the move is durable).
//!
//! Loopback only: a `--url` that is not a loopback address is refused. Every loop is
//! bounded in time.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use serde_json::json;

use crate::client::{HttpConn, Ws};

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

/// What was measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// Games with both players connected and playing at the end of the measurement.
    pub games_held: usize,
    /// Moves acknowledged during the measurement.
    pub moves: u64,
    /// Moves per second during the measurement.
    pub moves_per_s: f64,
    /// Acknowledgement latency percentiles in milliseconds: p50, p90, p99, max.
    pub ack_ms: [f64; 4],
    /// Refused or failed requests.
    pub errors: u64,
    /// Games that ended (and were replaced by new ones).
    pub games_finished: u64,
    /// Moves found in the database afterwards (in-process server only).
    pub stored_moves: Option<u64>,
    /// With `--abuse`: what the floods met, and the server's memory.
    pub abuse: Option<AbuseReport>,
}

/// What `--abuse` measured.
#[derive(Clone, Debug, Default)]
pub struct AbuseReport {
    /// The server's resident memory (KiB): when it started, at the most, at the end.
    pub rss_kib: [u64; 3],
    /// Seconds the floods ran.
    pub seconds: f64,
    /// Requests, messages and connections the floods sent or opened.
    pub sent: u64,
    /// Connections refused, as the floods saw it / as the server logged it.
    pub refused: [u64; 2],
    /// Requests rate-limited, as the floods saw it / as the server logged it.
    pub rate_limited: [u64; 2],
    /// Requests refused as bad (bot parameters out of range, oversized frames).
    pub bad: u64,
    /// Connections the server closed (slow headers, readers that do not read, oversized
    /// frames, idle sockets).
    pub cut_off: u64,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "games held:      {}", self.games_held)?;
        writeln!(
            f,
            "games finished:  {} (each replaced by a new game)",
            self.games_finished
        )?;
        writeln!(f, "moves acked:     {}", self.moves)?;
        writeln!(f, "moves/s:         {:.0}", self.moves_per_s)?;
        writeln!(
            f,
            "ack latency ms:  p50 {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}",
            self.ack_ms[0], self.ack_ms[1], self.ack_ms[2], self.ack_ms[3]
        )?;
        writeln!(f, "errors:          {}", self.errors)?;
        if let Some(n) = self.stored_moves {
            writeln!(f, "moves in the db: {n} (every acked move is durable)")?;
        }
        if let Some(a) = &self.abuse {
            writeln!(
                f,
                "abuse: floods ran {:.0} s alongside, {} requests/messages/connections sent",
                a.seconds, a.sent
            )?;
            writeln!(
                f,
                "  server memory:        {:.1} MB at start, {:.1} MB at most, {:.1} MB at the end",
                a.rss_kib[0] as f64 / 1024.0,
                a.rss_kib[1] as f64 / 1024.0,
                a.rss_kib[2] as f64 / 1024.0
            )?;
            writeln!(
                f,
                "  connections refused:  {} seen by the floods, {} logged by the server",
                a.refused[0], a.refused[1]
            )?;
            writeln!(
                f,
                "  requests rate-limited: {} seen by the floods, {} logged by the server",
                a.rate_limited[0], a.rate_limited[1]
            )?;
            writeln!(f, "  refused as bad (400): {}", a.bad)?;
            writeln!(f, "  connections cut off:  {}", a.cut_off)?;
        }
        Ok(())
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
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
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

/// `--abuse`: a real server process (this program's `serve`, with its default limits but
/// for the normal games' connections and guests from 127.0.0.1), the normal load, and the
/// floods of `crate::abuse` at once.
fn run_abuse(opts: &Options, host: &dyn Host) -> Result<Report, String> {
    use std::io::{BufRead, BufReader};
    if opts.url.is_some() {
        return Err("--abuse starts its own server (to watch its memory): leave out --url".into());
    }
    let dir = std::env::temp_dir().join(format!("salpakan-abuse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let db = dir.join("abuse.db");
    let _ = std::fs::remove_file(&db);
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let pairs = opts.games.clamp(1, 16);
    let mut child = std::process::Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .args(["--max-conns-per-ip", &(opts.games * 2 + 64).to_string()])
        .args(["--guest-burst", &(pairs * 2 + 20).to_string()])
        .args(["--ws-rate", "1000", "--ws-burst", "1000"])
        .env("SALPAKAN_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let pid = child.id();
    let mut out = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let mut line = String::new();
    out.read_line(&mut line).map_err(|e| e.to_string())?;
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr: SocketAddr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("the server did not start: {line:?}"))?;
    // The server's own account: its periodic "limits refused" log lines, summed.
    let logged = Arc::new(std::sync::Mutex::new([0u64; 2]));
    {
        let logged = logged.clone();
        let err = BufReader::new(child.stderr.take().ok_or("no stderr")?);
        std::thread::spawn(move || {
            for l in err.lines().map_while(Result::ok) {
                let field = |name: &str| -> u64 {
                    l.split_whitespace()
                        .find_map(|w| w.strip_prefix(name))
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0)
                };
                let mut g = logged.lock().expect("lock");
                g[0] += field("connections_refused=");
                g[1] += field("rate_limited=");
            }
        });
    }
    let rss0 = crate::abuse::rss_kib(pid).unwrap_or(0);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let seen = Arc::new(crate::abuse::Seen::default());
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let peak = Arc::new(AtomicU64::new(rss0));
    let t0 = Instant::now();
    let result = rt.block_on(async {
        let floods = tokio::spawn(crate::abuse::floods(addr, seen.clone(), stop.clone()));
        let watch = {
            let (peak, stop) = (peak.clone(), stop.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    if let Some(k) = crate::abuse::rss_kib(pid) {
                        peak.fetch_max(k, Ordering::Relaxed);
                    }
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
            })
        };
        let r = drive(
            addr,
            Options {
                abuse: false,
                ..opts.clone()
            },
        )
        .await;
        stop.store(true, Ordering::Relaxed);
        let _ = floods.await;
        let _ = watch.await;
        r
    });
    let seconds = t0.elapsed().as_secs_f64();
    drop(rt);
    // The server writes its refusal summary every 10 s: wait for the last one.
    std::thread::sleep(Duration::from_millis(10_500));
    let rss_end = crate::abuse::rss_kib(pid).unwrap_or(0);
    let _ = child.kill();
    let _ = child.wait();
    let mut report = result?;
    report.stored_moves = host.stored_moves(&db);
    let _ = std::fs::remove_dir_all(&dir);
    let g = |a: &AtomicU64| a.load(Ordering::Relaxed);
    let logged = *logged.lock().expect("lock");
    report.abuse = Some(AbuseReport {
        rss_kib: [rss0, peak.load(Ordering::Relaxed).max(rss_end), rss_end],
        seconds,
        sent: g(&seen.sent),
        refused: [g(&seen.refused), logged[0]],
        rate_limited: [g(&seen.rate_limited), logged[1]],
        bad: g(&seen.bad),
        cut_off: g(&seen.cut_off),
    });
    Ok(report)
}

async fn drive(addr: SocketAddr, opts: Options) -> Result<Report, String> {
    let e = |e: crate::ClientError| e.to_string();
    // A few guests, reused: a guest may sit in many games at once.
    let mut http = HttpConn::connect(addr).await.map_err(e)?;
    let pairs = opts.games.clamp(1, 16);
    let mut guests = Vec::new();
    for i in 0..pairs * 2 {
        let (st, g) = http
            .request(
                "POST",
                "/api/guest",
                None,
                Some(&json!({"name": format!("load{i}")})),
            )
            .await
            .map_err(e)?;
        if st != 200 {
            return Err(format!("creating a guest failed: {g}"));
        }
        guests.push(g["token"].as_str().unwrap_or_default().to_string());
    }
    let guests = Arc::new(guests);
    let stats = Arc::new(Stats::default());
    let start_by = Instant::now() + Duration::from_secs_f64(opts.seconds + 120.0);
    // Games are created over 8 kept-alive HTTP connections.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<(String, [String; 2])>(opts.games);
    let creators = 8.min(opts.games);
    for c in 0..creators {
        let tx = tx.clone();
        let guests = guests.clone();
        let n = opts.games / creators + usize::from(c < opts.games % creators);
        tokio::spawn(async move {
            let Ok(mut h) = HttpConn::connect(addr).await else {
                return;
            };
            for k in 0..n {
                let p = (c + k * creators) % pairs;
                if let Some(g) = new_game(&mut h, &guests[2 * p], &guests[2 * p + 1]).await {
                    if tx.send(g).await.is_err() {
                        return;
                    }
                }
            }
        });
    }
    drop(tx);
    let t0 = Instant::now();
    let measuring = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let go = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop_at = Arc::new(std::sync::Mutex::new(None::<Instant>));
    let mut handles = Vec::new();
    let mut created = 0;
    while let Some((game, tokens)) = rx.recv().await {
        created += 1;
        for (seat, token) in tokens.into_iter().enumerate() {
            let stats = stats.clone();
            let guests = guests.clone();
            let measuring = measuring.clone();
            let go = go.clone();
            let stop_at = stop_at.clone();
            let rate = opts.rate;
            let game = game.clone();
            handles.push(tokio::spawn(async move {
                side(
                    addr, game, seat, token, rate, stats, guests, measuring, go, stop_at, start_by,
                )
                .await;
            }));
        }
        if created % 1000 == 0 {
            eprintln!(
                "loadtest: {created} games created ({:.1} s)",
                t0.elapsed().as_secs_f64()
            );
        }
    }
    eprintln!(
        "loadtest: {created} games created in {:.1} s; waiting for them to start",
        t0.elapsed().as_secs_f64()
    );
    // Wait until (nearly) every side is playing, at most 60 s.
    let want = created * 2;
    let wait_until = Instant::now() + Duration::from_secs(60);
    while stats.playing.load(Ordering::Relaxed) < want && Instant::now() < wait_until {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    eprintln!(
        "loadtest: {} of {want} sides playing; measuring for {} s",
        stats.playing.load(Ordering::Relaxed),
        opts.seconds
    );
    // Everyone starts moving at once; a few seconds of warm-up before measuring.
    go.store(true, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(3)).await;
    let m0 = stats.moves.load(Ordering::Relaxed);
    stats.lat.lock().expect("lock").clear();
    measuring.store(true, Ordering::Relaxed);
    let t1 = Instant::now();
    let end = t1 + Duration::from_secs_f64(opts.seconds);
    *stop_at.lock().expect("lock") = Some(end);
    tokio::time::sleep_until(end.into()).await;
    let elapsed = t1.elapsed().as_secs_f64();
    let moves = stats.moves.load(Ordering::Relaxed) - m0;
    let held = stats.playing.load(Ordering::Relaxed) / 2;
    measuring.store(false, Ordering::Relaxed);
    for h in &handles {
        h.abort();
    }
    let mut lat = std::mem::take(&mut *stats.lat.lock().expect("lock"));
    lat.sort_unstable();
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            return 0.0;
        }
        let i = ((lat.len() as f64 - 1.0) * p).round() as usize;
        f64::from(lat[i]) / 1000.0
    };
    Ok(Report {
        games_held: held,
        moves,
        moves_per_s: moves as f64 / elapsed,
        ack_ms: [pct(0.5), pct(0.9), pct(0.99), pct(1.0)],
        errors: stats.errors.load(Ordering::Relaxed),
        games_finished: stats.finished.load(Ordering::Relaxed),
        stored_moves: None,
        abuse: None,
    })
}

async fn new_game(h: &mut HttpConn, a: &str, b: &str) -> Option<(String, [String; 2])> {
    let (st, seek) = h
        .request(
            "POST",
            "/api/seeks",
            Some(a),
            Some(
                &json!({"game": "generals", "seat": "white", "options": {"max_quiet_plies": 200}}),
            ),
        )
        .await
        .ok()?;
    if st != 200 {
        eprintln!("loadtest: seek refused: {seek}");
        return None;
    }
    let id = seek["seek"]["id"].as_str()?;
    let (st, acc) = h
        .request("POST", &format!("/api/seeks/{id}/accept"), Some(b), None)
        .await
        .ok()?;
    if st != 200 {
        return None;
    }
    let game = acc["game"].as_str()?.to_string();
    let (_, mine) = h
        .request("GET", &format!("/api/games/{game}/seat"), Some(a), None)
        .await
        .ok()?;
    Some((
        game,
        [
            mine["seat_token"].as_str()?.to_string(),
            acc["seat_token"].as_str()?.to_string(),
        ],
    ))
}

#[allow(clippy::too_many_arguments)]
async fn side(
    addr: SocketAddr,
    mut game: String,
    seat: usize,
    mut token: String,
    rate: f64,
    stats: Arc<Stats>,
    guests: Arc<Vec<String>>,
    measuring: Arc<std::sync::atomic::AtomicBool>,
    go: Arc<std::sync::atomic::AtomicBool>,
    stop_at: Arc<std::sync::Mutex<Option<Instant>>>,
    give_up: Instant,
) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(
        seat as u64
            ^ game
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))),
    );
    let Ok(mut ws) = Ws::connect(addr).await else {
        stats.errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let period = Duration::from_secs_f64(1.0 / rate);
    let mut next = Instant::now() + period.mul_f64(rng.random::<f64>());
    let mut playing = false;
    let mut n = 0u64;
    let wait = Duration::from_secs(30);
    'games: loop {
        let join = format!(r#"{{"v":1,"t":"join","game":"{game}","seat_token":"{token}"}}"#);
        if ws.send_text(join).await.is_err() {
            break;
        }
        let setup = format!(r#"{{"v":1,"t":"setup","game":"{game}","random":true}}"#);
        let _ = ws.send_text(setup).await;
        loop {
            if Instant::now() > give_up {
                break 'games;
            }
            if let Some(t) = *stop_at.lock().expect("lock") {
                if Instant::now() > t {
                    break 'games;
                }
            }
            let Ok(text) = ws.recv_text_within(wait).await else {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                break 'games;
            };
            match Frame::of(&text) {
                Frame::Start if !playing => {
                    playing = true;
                    stats.playing.fetch_add(1, Ordering::Relaxed);
                }
                Frame::End => {
                    stats.finished.fetch_add(1, Ordering::Relaxed);
                    // Both ask for a rematch: the second request creates the next game.
                    let _ = ws.send_text(rematch(&game)).await;
                }
                Frame::Seat => {
                    let leave = format!(r#"{{"v":1,"t":"leave","game":"{game}"}}"#);
                    let _ = ws.send_text(leave).await;
                    (game, token) = seat_frame(&text);
                    continue 'games;
                }
                Frame::Legal(moves) => {
                    let count = moves.split(',').count();
                    if moves.is_empty() {
                        continue;
                    }
                    let k = rng.random_range(0..count);
                    let mv = moves
                        .split(',')
                        .nth(k)
                        .unwrap_or_default()
                        .trim_matches('"')
                        .to_string();
                    while !go.load(Ordering::Relaxed) {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        next = Instant::now() + period.mul_f64(rng.random::<f64>());
                    }
                    let now = Instant::now();
                    if next > now {
                        tokio::time::sleep_until(next.into()).await;
                    }
                    next = next.max(now) + period;
                    n += 1;
                    let sent = Instant::now();
                    let m =
                        format!(r#"{{"v":1,"t":"move","game":"{game}","move":"{mv}","id":{n}}}"#);
                    if ws.send_text(m).await.is_err() {
                        break 'games;
                    }
                    // Wait for this move's ack (events may come first).
                    loop {
                        let Ok(text) = ws.recv_text_within(wait).await else {
                            stats.errors.fetch_add(1, Ordering::Relaxed);
                            break 'games;
                        };
                        match Frame::of(&text) {
                            Frame::Ack(Some(id)) if id == n => {
                                stats.moves.fetch_add(1, Ordering::Relaxed);
                                if measuring.load(Ordering::Relaxed) {
                                    let us = u32::try_from(sent.elapsed().as_micros())
                                        .unwrap_or(u32::MAX);
                                    stats.lat.lock().expect("lock").push(us);
                                }
                                break;
                            }
                            Frame::Error(Some(id)) if id == n => {
                                stats.errors.fetch_add(1, Ordering::Relaxed);
                                break;
                            }
                            Frame::End => {
                                stats.finished.fetch_add(1, Ordering::Relaxed);
                                let _ = ws.send_text(rematch(&game)).await;
                            }
                            Frame::Seat => {
                                (game, token) = seat_frame(&text);
                                continue 'games;
                            }
                            _ => {}
                        }
                    }
                }
                Frame::Error(_) => {
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                }
                _ => {}
            }
        }
    }
    let _ = guests;
    if playing {
        stats.playing.fetch_sub(1, Ordering::Relaxed);
    }
    ws.close().await;
}

fn rematch(game: &str) -> String {
    format!(r#"{{"v":1,"t":"rematch","game":"{game}"}}"#)
}

/// A `seat` message's game and seat token (rare: parsed in full).
fn seat_frame(text: &str) -> (String, String) {
    let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    (s("game"), s("seat_token"))
}

/// What the load generator needs of a server frame, read without parsing the whole frame
/// (the server writes `"t"` before the other fields, and an event's `"type"` first in it).
#[derive(Debug, PartialEq, Eq)]
enum Frame<'a> {
    /// An event that starts a game.
    Start,
    /// An event that ends one.
    End,
    /// A new game's seat token.
    Seat,
    /// The legal moves: the inside of the JSON array (`"a1-a2","b1-b2"`).
    Legal(&'a str),
    /// An ack, with its id.
    Ack(Option<u64>),
    /// An error, with its id.
    Error(Option<u64>),
    /// Anything else.
    Other,
}

impl<'a> Frame<'a> {
    fn of(text: &'a str) -> Frame<'a> {
        let after = |key: &str| text.find(key).map(|i| &text[i + key.len()..]);
        let id = || {
            after(r#""id":"#).and_then(|r| {
                let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
                r[..end].parse().ok()
            })
        };
        let t = after(r#""t":""#).and_then(|r| r.split('"').next());
        match t {
            Some("event") => {
                if text.contains(r#""e":{"type":"start""#) {
                    Frame::Start
                } else if text.contains(r#""e":{"type":"end""#) {
                    Frame::End
                } else {
                    Frame::Other
                }
            }
            Some("legal") => after(r#""moves":["#)
                .and_then(|r| r.split(']').next())
                .map_or(Frame::Other, Frame::Legal),
            Some("seat") => Frame::Seat,
            Some("ack") => Frame::Ack(id()),
            Some("error") => Frame::Error(id()),
            _ => Frame::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Frame;

    #[test]
    fn frames_are_read_without_parsing() {
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"ack","game":"ab","ver":7,"id":12}"#),
            Frame::Ack(Some(12))
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"error","error":"no \"t\":\"ack\"","id":3}"#),
            Frame::Error(Some(3))
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"legal","game":"ab","ver":3,"moves":["a1-a2","b1-b2"]}"#),
            Frame::Legal(r#""a1-a2","b1-b2""#)
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"event","game":"ab","ver":3,"e":{"type":"start","x":1}}"#),
            Frame::Start
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"event","game":"ab","ver":9,"e":{"type":"end"}}"#),
            Frame::End
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"event","game":"ab","ver":4,"e":{"type":"move"}}"#),
            Frame::Other
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"seat","game":"cd","seat":"black","seat_token":"x"}"#),
            Frame::Seat
        );
    }
}
