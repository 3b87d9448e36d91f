//! Diagnostic: how far the belief's sequential draw ([`Belief::sample`]) is from its
//! posterior ([`Belief::sample_posterior`]) in real games: for each record, at every tenth
//! ply and for both seats, the largest and the mean difference between the two draws'
//! chance (4,000 draws each) of any identity of any enemy piece on the board (the heat map
//! of the analysis), with the expert's belief: `posteriorgap <full records...>`; with
//! `SHOW=1` in the environment, every difference over 8 points.
use salpakan_ai::belief::{Belief, MAX_TYPES};
use salpakan_ai::{AiGame, Knowledge};
use salpakan_engine::generals::Generals;
use salpakan_engine::stratego::Stratego;
use salpakan_engine::{AnyMatch, Match, Record, Seat, rng_from_seed};

/// The chance of each identity of each token on the board over `n` draws.
fn marginals(b: &Belief, n: u32, mut draw: impl FnMut() -> Vec<u8>) -> Vec<[f64; MAX_TYPES]> {
    let mut c = vec![[0.0; MAX_TYPES]; b.tokens().len()];
    for _ in 0..n {
        for (t, &p) in draw().iter().enumerate() {
            c[t][p as usize] += 1.0 / f64::from(n);
        }
    }
    c
}

fn gaps<G: AiGame<Belief = Belief>>(m: &Match<G>, name: &str, show: bool) {
    let plies = m.moves().len();
    let mut worst: f64 = 0.0;
    let mut sum = 0.0;
    let mut count = 0;
    for ply in (10..plies).step_by(10) {
        let Some(at) = m.rewound(ply) else { continue };
        for seat in Seat::BOTH {
            let k = Knowledge::of(&at, seat);
            let b = G::expert_belief(&k);
            let mut rng = rng_from_seed(ply as u64);
            let n = 4_000;
            let seq = marginals(&b, n, || b.sample(&mut rng).expect("consistent"));
            let post = marginals(&b, n, || {
                b.sample_posterior(10, &mut rng).expect("consistent")
            });
            for (t, tok) in b.tokens().iter().enumerate() {
                if tok.square.is_none() {
                    continue;
                }
                for p in 0..MAX_TYPES {
                    let d = (seq[t][p] - post[t][p]).abs();
                    if show && d > 0.08 {
                        println!(
                            "  ply {ply} {seat:?} token {t} identity {p}: {:.3} sequential, {:.3} posterior",
                            seq[t][p], post[t][p]
                        );
                    }
                    worst = worst.max(d);
                    sum += d;
                    count += 1;
                }
            }
        }
    }
    println!(
        "{name}: {} plies, largest gap {worst:.3}, mean gap {:.4}",
        plies,
        sum / f64::from(count.max(1))
    );
}

fn main() {
    let show = std::env::var_os("SHOW").is_some();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("a record");
        let rec = Record::parse(&text).expect("a record");
        match AnyMatch::replay(&rec).expect("a full record") {
            AnyMatch::Generals(m) => gaps::<Generals>(&m, &path, show),
            AnyMatch::Stratego(m) => gaps::<Stratego>(&m, &path, show),
            AnyMatch::Banqi(_) => println!("{path}: Banqi hides nothing from one seat alone"),
        }
    }
}
