//! Diagnostic: the `expert`'s Stratego belief about one rank, for a seat at a ply of a
//! record: every enemy piece on the board with the share of 400 sampled states that give it
//! that rank, what it has done (moves), and what it was; the likeliest first.
//! `rankprob <record> <red|blue> <ply> <piece code>`, e.g. `rankprob game.rec blue 144 3`
//! for the enemy's Miners as Blue saw them before the 145th ply.
use salpakan_ai::Knowledge;
use salpakan_ai::games::stratego_expert::belief;
use salpakan_engine::stratego::{FILES, Piece, Square, Stratego};
use salpakan_engine::{Match, Record, Seat, rng_from_seed};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: rankprob <record> <red|blue> <ply> <piece code: F, S, 2 … 10, B>");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[1]).expect("a readable record");
    let record = Record::parse(&text).expect("a Stratego record");
    let seat = match args[2].as_str() {
        "red" => Seat::First,
        "blue" => Seat::Second,
        other => panic!("a seat is red or blue, not {other}"),
    };
    let ply: usize = args[3].parse().expect("a ply");
    let piece = Piece::from_code(&args[4]).expect("a piece code");
    let full = Match::<Stratego>::replay(&record).expect("the record replays");
    let m = full.rewound(ply).expect("a ply within the record");
    let k = Knowledge::of(&m, seat);
    let b = belief(&k);
    let mut rng = rng_from_seed(1);
    let n = 400;
    let mut hits = vec![0u32; b.tokens().len()];
    for _ in 0..n {
        let sample = b.sample(&mut rng).expect("the belief has a sample");
        for (t, &p) in sample.iter().enumerate() {
            if p == piece as u8 {
                hits[t] += 1;
            }
        }
    }
    let mut rows: Vec<(u32, String)> = b
        .tokens()
        .iter()
        .zip(&hits)
        .filter_map(|(tok, &h)| {
            let at = tok.square?;
            let s = Square::new(at % FILES, at / FILES).expect("a square of the board");
            let actual = m.game().at(s).map_or("?", |(_, p)| p.name());
            Some((
                h,
                format!(
                    "{:.2} {s} ({} moves) was {actual}",
                    f64::from(h) / f64::from(n),
                    tok.moves
                ),
            ))
        })
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    for (_, row) in rows {
        println!("{row}");
    }
}
