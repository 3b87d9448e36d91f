//! Diagnostic: the belief's chance that each enemy piece is the Flag, for a seat at a ply of
//! a Generals record, and with an iteration count (or `ms100` for a time) the `expert`'s root
//! moves there (the most visited first, with their visits and mean values; the iterations
//! run and the time on standard error):
//! `flagprob <record> <white|black> <ply> [expert-iterations | ms<milliseconds>]`. The
//! belief is the reference's (`mcts`'s), or the expert's with `EXPERT=1` in the environment.
mod common;

use salpakan_ai::bots::mcts_params;
use salpakan_ai::games::generals::{belief, expert_belief};
use salpakan_ai::{BotSpec, Knowledge};
use salpakan_engine::generals::{Generals, Piece, Square};
use salpakan_engine::{Record, Seat, rng_from_seed};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("a record");
    let rec = Record::parse(&text).expect("a record");
    let seat = if args[2] == "white" {
        Seat::First
    } else {
        Seat::Second
    };
    let ply: usize = args[3].parse().expect("a ply");
    let m = common::match_at_ply(&rec, ply).expect("replays");
    let k = Knowledge::of(&m, seat);
    let b = if std::env::var_os("EXPERT").is_some() {
        expert_belief(&k)
    } else {
        belief(&k)
    };
    let mut rng = rng_from_seed(1);
    let n = 400;
    let mut flag = vec![0u32; b.tokens().len()];
    for _ in 0..n {
        let a = b.sample(&mut rng).expect("a sample");
        for (t, &p) in a.iter().enumerate() {
            if p == Piece::Flag as u8 {
                flag[t] += 1;
            }
        }
    }
    let mut rows: Vec<(f64, String)> = b
        .tokens()
        .iter()
        .enumerate()
        .filter_map(|(t, tok)| {
            tok.square.map(|s| {
                (
                    f64::from(flag[t]) / f64::from(n),
                    format!(
                        "{} (from {}, {} moves, {} attacks)",
                        common::square(s),
                        common::square(tok.start),
                        tok.moves,
                        tok.attacks
                    ),
                )
            })
        })
        .collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (p, s) in rows.iter().take(6) {
        println!("{p:.2} {s}");
    }
    let actual = Square::all().find(|&s| m.game().at(s) == Some((seat.other(), Piece::Flag)));
    println!(
        "actual flag: {}",
        actual.map_or("-".into(), |s| s.to_string())
    );
    if let Some(budget) = args.get(4) {
        let spec: BotSpec = match budget.strip_prefix("ms") {
            Some(ms) => format!("expert:ms={ms}"),
            None => format!("expert:iters={budget}"),
        }
        .parse()
        .expect("an iteration count or ms<milliseconds>");
        let t0 = std::time::Instant::now();
        let r = salpakan_ai::expert::search(&k, &mcts_params::<Generals>(&spec), &mut rng);
        eprintln!("{} iterations in {:?}", r.iterations, t0.elapsed());
        let mut root = r.root;
        root.sort_by_key(|r| std::cmp::Reverse(r.1));
        for (mv, visits, value) in root.iter().take(8) {
            println!("{}-{} {visits} {value:.3}", mv.from, mv.to);
        }
    }
}
