//! The driver: opens the games, runs their sides for the given time, and gathers the figures.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::client::HttpConn;

use super::{Options, Report, Stats};

use super::connection::side;

// Over 100 lines: the phases of a run in order (guests, games, waiting for every side,
// warm-up, measuring, stopping); split, they would pass the shared flags and counters around.
pub(super) async fn drive(addr: SocketAddr, opts: Options) -> Result<Report, String> {
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
