//! `salpakan bench`: random playouts on one core, as a table.

use std::time::Duration;

use salpakan_engine::banqi::Banqi;
use salpakan_engine::bench::{PlayoutStats, playouts};
use salpakan_engine::generals::Generals;
use salpakan_engine::stratego::Stratego;
use salpakan_engine::{Game, GameOptions};

struct Row {
    game: &'static str,
    options: String,
    stats: PlayoutStats,
}

fn measure<G: Game>(
    game: &'static str,
    options: &str,
    seconds: f64,
    seed: u64,
) -> Result<Row, String> {
    let o = G::Options::from_text(options).map_err(|e| format!("{game}: {e}"))?;
    let stats = playouts::<G>(&o, Duration::from_secs_f64(seconds), seed);
    Ok(Row {
        game,
        options: options.to_string(),
        stats,
    })
}

/// Runs the benchmark for `which` (a game name or `all`) and prints the table.
pub fn run(which: &str, seconds: f64, seed: u64) -> Result<(), String> {
    if !(seconds > 0.0 && seconds <= 3600.0) {
        return Err("--seconds must be more than 0 and at most 3600".into());
    }
    let all = which == "all";
    let mut rows = Vec::new();
    if all || which == "generals" {
        rows.push(measure::<Generals>(
            "generals",
            "max_quiet_plies=200",
            seconds,
            seed,
        )?);
    }
    if all || which == "stratego" {
        rows.push(measure::<Stratego>(
            "stratego",
            "army=classic",
            seconds,
            seed,
        )?);
        rows.push(measure::<Stratego>(
            "stratego",
            "army=barrage",
            seconds,
            seed,
        )?);
        rows.push(measure::<Stratego>(
            "stratego",
            "army=ultimate_lightning",
            seconds,
            seed,
        )?);
    }
    if all || which == "banqi" {
        rows.push(measure::<Banqi>("banqi", "ruleset=taiwan", seconds, seed)?);
        rows.push(measure::<Banqi>("banqi", "preset=olympiad", seconds, seed)?);
    }
    if rows.is_empty() {
        return Err(format!(
            "unknown game {which:?}; expected generals, stratego, banqi or all"
        ));
    }
    println!("Random playouts, full legality, one thread ({seconds} s per game, seed {seed})");
    println!();
    println!(
        "{:<10} {:>10} {:>14} {:>14} {:>10} {:>17}  options",
        "game", "playouts", "playouts/s", "plies/s", "plies/game", "wins 1st/2nd/draw"
    );
    for r in rows {
        let s = &r.stats;
        println!(
            "{:<10} {:>10} {:>14} {:>14} {:>10.1} {:>17}  {}",
            r.game,
            s.playouts,
            group(s.playouts_per_sec()),
            group(s.plies_per_sec()),
            s.plies as f64 / s.playouts.max(1) as f64,
            format!("{}/{}/{}", s.results[0], s.results[1], s.results[2]),
            r.options
        );
    }
    Ok(())
}

/// A whole number with thousands separators.
fn group(x: f64) -> String {
    let n = x.round() as u64;
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
