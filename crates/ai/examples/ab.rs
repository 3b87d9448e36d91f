//! A quick A/B run without building the CLI: `ab <game> <bot-a> <bot-b> <games> <jobs> <seed>`.
//! Prints the arena table and, for the first bot, how its wins, draws and losses ended.
use std::collections::BTreeMap;

use salpakan_ai::BotSpec;
use salpakan_ai::arena::{ArenaConfig, run};
use salpakan_engine::GameKind;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind: GameKind = args[1].parse().expect("a game");
    let bots: Vec<BotSpec> = vec![
        args[2].parse().expect("a bot"),
        args[3].parse().expect("a bot"),
    ];
    let mut cfg = ArenaConfig::new(kind, bots);
    cfg.games = args.get(4).map_or(20, |s| s.parse().expect("games"));
    cfg.jobs = args.get(5).map_or(2, |s| s.parse().expect("jobs"));
    cfg.seed = args.get(6).map_or(1, |s| s.parse().expect("seed"));
    cfg.records = std::env::var_os("AB_RECORDS").map(Into::into);
    let t = std::time::Instant::now();
    let report = run(&cfg, &|_, _| {}).expect("the arena runs");
    let mut how: BTreeMap<String, u32> = BTreeMap::new();
    let mut plies = 0u64;
    for g in &report.games {
        let a = if g.seats[0] == 0 {
            salpakan_engine::Seat::First
        } else {
            salpakan_engine::Seat::Second
        };
        let r = match g.outcome.winner {
            None => "draw",
            Some(w) if w == a => "win",
            Some(_) => "loss",
        };
        *how.entry(format!("{r} {:?}", g.outcome.reason))
            .or_default() += 1;
        plies += u64::from(g.plies);
    }
    print!("{}", report.table());
    println!(
        "{how:?} mean plies {} ({:.0}s)",
        plies / report.games.len().max(1) as u64,
        t.elapsed().as_secs_f64()
    );
}
