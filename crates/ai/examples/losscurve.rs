//! Diagnostic: one seat's win probability over a finished record, as the analysis for
//! players computes it (64 samples a ply, seed 1): the value every 10 plies, the highest
//! value and its ply, and the four turning points. Used to find where a lost game was lost:
//! `losscurve <record> <first|second>` (the seat that moved first, or the other).
use salpakan_ai::analysis::{AnalysisBudget, analyse_seat};
use salpakan_engine::{AnyMatch, Record, Seat};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, seat] = &args[..] else {
        eprintln!("usage: losscurve <record> <first|second>");
        std::process::exit(2);
    };
    let seat = match seat.as_str() {
        "first" => Seat::First,
        "second" => Seat::Second,
        other => {
            eprintln!("the seat is first or second, not {other:?}");
            std::process::exit(2);
        }
    };
    let text = std::fs::read_to_string(path).expect("a readable record");
    let rec = Record::parse(&text).expect("a record");
    let game = AnyMatch::replay(&rec).expect("a record that replays");
    let budget = AnalysisBudget {
        samples: 64,
        turning_points: 4,
    };
    let a = analyse_seat(&game, seat, &budget, 1).expect("a finished game");
    let every: Vec<String> = a
        .win
        .iter()
        .step_by(10)
        .map(|w| format!("{w:.2}"))
        .collect();
    println!("every 10 plies: {}", every.join(" "));
    let (at, max) = a
        .win
        .iter()
        .enumerate()
        .fold((0, 0.0f64), |b, (i, &w)| if w > b.1 { (i, w) } else { b });
    println!("highest {max:.2} at ply {at} of {}", a.win.len() - 1);
    for t in &a.turning_points {
        println!("  ply {}: {:.2} -> {:.2}", t.ply, t.before, t.after);
    }
}
