//! `salpakan arena`: bots against bots, with a progress bar, a results table and an Elo
//! ladder (the engine of it is `salpakan_ai::arena`).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use salpakan_ai::BotSpec;
use salpakan_ai::arena::{ArenaConfig, ArenaError, default_option_pairs, run as run_arena};
use salpakan_engine::{GameKind, wire};

/// What the arena subcommand was asked.
pub struct Args {
    /// The game.
    pub game: String,
    /// Comma-separated bots.
    pub bots: String,
    /// Games per pairing.
    pub games: u32,
    /// Parallel games.
    pub jobs: usize,
    /// Seed.
    pub seed: u64,
    /// Records folder.
    pub records: PathBuf,
    /// First bot against the others only.
    pub gauntlet: bool,
    /// Game options as JSON (merged over the arena defaults).
    pub options: Option<String>,
    /// No progress bar.
    pub quiet: bool,
}

pub fn run(a: Args) -> Result<(), String> {
    let kind: GameKind = a.game.parse()?;
    let bots = BotSpec::parse_list(&a.bots).map_err(|e| e.to_string())?;
    let mut options: serde_json::Map<String, serde_json::Value> = default_option_pairs(kind)
        .iter()
        .map(|&(k, v)| (k.to_string(), v.into()))
        .collect();
    if let Some(text) = &a.options {
        let extra: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| format!("--options must be a JSON object: {e}"))?;
        let Some(extra) = extra.as_object() else {
            return Err("--options must be a JSON object such as {\"reveal\":\"winner\"}".into());
        };
        for (k, v) in extra {
            options.insert(k.clone(), v.clone());
        }
    }
    let spec = wire::spec_from_json(kind, &serde_json::Value::Object(options))
        .map_err(|e| ArenaError::Options(e.to_string()).to_string())?;
    let cfg = ArenaConfig {
        spec,
        bots,
        games: a.games,
        jobs: a.jobs.max(1),
        seed: a.seed,
        records: Some(a.records.clone()),
        gauntlet: a.gauntlet,
        ..ArenaConfig::new(kind, Vec::new())
    };
    let start = Instant::now();
    let last = Mutex::new(0usize);
    let quiet = a.quiet;
    let progress = |done: usize, total: usize| {
        if quiet {
            return;
        }
        let mut l = last.lock().expect("progress lock");
        if done < *l {
            return;
        }
        *l = done;
        let width = 30;
        let filled = done * width / total.max(1);
        let secs = start.elapsed().as_secs_f64();
        let eta = if done > 0 {
            secs / done as f64 * (total - done) as f64
        } else {
            0.0
        };
        eprint!(
            "\r[{}{}] {done}/{total} games, {secs:.0}s elapsed, ~{eta:.0}s left ",
            "#".repeat(filled),
            "-".repeat(width - filled)
        );
        let _ = std::io::stderr().flush();
    };
    let report = run_arena(&cfg, &progress).map_err(|e| e.to_string())?;
    if !quiet {
        eprintln!();
    }
    println!(
        "{} arena: {} games ({} per pairing{}), seed {}, {} jobs, {:.0}s",
        kind,
        report.games.len(),
        cfg.games,
        if cfg.gauntlet { ", gauntlet" } else { "" },
        cfg.seed,
        cfg.jobs,
        start.elapsed().as_secs_f64()
    );
    println!();
    print!("{}", report.table());
    let forfeits: Vec<_> = report
        .games
        .iter()
        .filter_map(|g| g.termination.as_ref().map(|t| (g.index + 1, t)))
        .collect();
    if !forfeits.is_empty() {
        println!();
        println!("terminations:");
        for (i, t) in forfeits.iter().take(20) {
            println!("  game {i}: {t}");
        }
        if forfeits.len() > 20 {
            println!("  ... and {} more", forfeits.len() - 20);
        }
    }
    println!();
    println!("records: {}", a.records.display());
    Ok(())
}
