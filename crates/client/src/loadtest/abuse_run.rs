//! `--abuse`: a real server process, the normal load and the floods at once.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{AbuseReport, Host, Options, Report};

use super::driver::drive;

/// `--abuse`: a real server process (this program's `serve`, with its default limits but
/// for the normal games' connections and guests from 127.0.0.1), the normal load, and the
/// floods of `crate::abuse` at once.
// Over 100 lines: the steps of one run in the order they must happen (start the server
// process, read its logs, run the load and the floods, stop it, sum up); split, they would
// pass the child process, its pid and the shared counters around.
pub(super) fn run_abuse(opts: &Options, host: &dyn Host) -> Result<Report, String> {
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
