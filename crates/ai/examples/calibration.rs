//! Diagnostic: how well the analysis for players' win probability is calibrated. For every
//! full record under the given folders, each seat's analysis (as `GET .../analysis` computes
//! it: 64 samples a ply) is set against the seat's result; prints, in ten bins of the win
//! probability, how many plies fell there and the mean result they led to, with the log loss
//! and the Brier score over all plies (the last ply of a game decided on the board left out:
//! it is the result itself). Then the slope on the logit that fits the results best, over
//! the values shown: those already went through each game's `AiGame::ANALYSIS_SLOPE`, so a
//! refit sets that constant to its value times this one (about 1 when the analysis is
//! calibrated for these games; run it on records of one game at a time).
//! `calibration <folder> [<folder> ...]`
use salpakan_ai::analysis::{AnalysisBudget, analyse_seat, calibrated};
use salpakan_engine::{AnyMatch, Record, Seat};

fn main() {
    let folders: Vec<String> = std::env::args().skip(1).collect();
    if folders.is_empty() {
        eprintln!("usage: calibration <folder of full records> [...]");
        std::process::exit(2);
    }
    let budget = AnalysisBudget {
        samples: 64,
        turning_points: 0,
    };
    let mut points: Vec<(f64, f64)> = Vec::new();
    let mut games = 0;
    for folder in &folders {
        let mut paths: Vec<_> = std::fs::read_dir(folder)
            .expect("a readable folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        paths.sort();
        for p in paths {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let Ok(rec) = Record::parse(&text) else {
                continue;
            };
            let Ok(game) = AnyMatch::replay(&rec) else {
                continue;
            };
            games += 1;
            for seat in Seat::BOTH {
                let Ok(a) = analyse_seat(&game, seat, &budget, 1) else {
                    continue;
                };
                let n = a.win.len().saturating_sub(1);
                points.extend(a.win[..n].iter().map(|&w| (w, a.result)));
            }
        }
    }
    println!("{games} games, {} seat-plies", points.len());
    report("as the analysis says it", &points);
    // The slope on the logit that fits the results best: the log loss is convex in it, so a
    // ternary search over 0.01 to 3 finds it (no intercept: both seats of every game are
    // counted, so the fit is symmetric).
    let loss_at = |a: f64| {
        points
            .iter()
            .map(|&(w, r)| {
                let p = calibrated(w, a).clamp(1e-12, 1.0 - 1e-12);
                -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
            })
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (0.01f64, 3.0f64);
    for _ in 0..80 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if loss_at(m1) < loss_at(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let a = (lo + hi) / 2.0;
    println!("\nbest slope on the logit of the values shown: {a:.3}");
    let scaled: Vec<(f64, f64)> = points.iter().map(|&(w, r)| (calibrated(w, a), r)).collect();
    report("with that slope", &scaled);
}

fn report(title: &str, points: &[(f64, f64)]) {
    println!("{title}:");
    let mut bins = [(0usize, 0.0f64, 0.0f64); 10];
    let (mut log_loss, mut brier) = (0.0, 0.0);
    for &(w, r) in points {
        let b = ((w * 10.0) as usize).min(9);
        bins[b].0 += 1;
        bins[b].1 += w;
        bins[b].2 += r;
        let p = w.clamp(1e-6, 1.0 - 1e-6);
        log_loss -= r * p.ln() + (1.0 - r) * (1.0 - p).ln();
        brier += (w - r) * (w - r);
    }
    let n = points.len() as f64;
    println!("log loss {:.4}, Brier {:.4}", log_loss / n, brier / n);
    println!("win probability   plies   mean said   mean result");
    for (i, &(c, w, r)) in bins.iter().enumerate() {
        if c > 0 {
            println!(
                "{:.1}-{:.1}         {c:>7}      {:.3}        {:.3}",
                i as f64 / 10.0,
                (i + 1) as f64 / 10.0,
                w / c as f64,
                r / c as f64
            );
        }
    }
}
