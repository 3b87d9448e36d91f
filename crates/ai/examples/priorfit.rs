//! Diagnostic: how often each Generals piece stands at each depth (0 = back rank) in the
//! reference's setups (`greedy`'s and `mcts`'s, 40,000 drawn), and the prior weights by
//! piece and depth that make the belief's samples at the start of a game put each piece at
//! each depth as often (iterative proportional fitting over the starts of 2,000 games a
//! round): `cargo run --release -p salpakan-ai --example priorfit`. The belief's own
//! priors give other shares (`docs/ai.md`, *Tried on 5 December 2026*).

use salpakan_ai::Knowledge;
use salpakan_ai::belief::Belief;
use salpakan_ai::games::generals::{belief, setup};
use salpakan_engine::generals::{FILES, Generals, GeneralsOptions, Piece, RANKS, Setups};
use salpakan_engine::{GameRng, Match, Seat, rng_from_seed};

/// How many ranks a square of `rank` (in Black's half) stands from Black's back rank.
fn depth(rank: u8) -> usize {
    usize::from(RANKS - 1 - rank)
}

/// The prior weights by piece and depth: the belief's own (`None`), or a table.
type Weights<'a> = Option<&'a [[f64; 3]; 15]>;

/// Each piece's share at each depth: in `n` setups, or when `w` is given in the belief's
/// samples at the start of `n` games, with its prior weights.
fn shares(w: Option<Weights>, n: u32, rng: &mut GameRng) -> [[f64; 3]; 15] {
    let options = GeneralsOptions::default();
    let mut c = [[0u32; 3]; 15];
    for _ in 0..n {
        let theirs = setup(Seat::Second, &options, rng);
        let Some(w) = w else {
            for &(q, p) in theirs.placements() {
                c[p as usize][depth(q.rank())] += 1;
            }
            continue;
        };
        let mine = setup(Seat::First, &options, rng);
        let m = Match::<Generals>::start(&options, Setups([mine, theirs]), rng).expect("valid");
        let start = belief(&Knowledge::of(&m, Seat::First));
        let mut tokens = start.tokens().to_vec();
        if let Some(w) = w {
            for t in &mut tokens {
                let d = depth(t.start / FILES);
                for p in Piece::ALL {
                    t.prior[p as usize] = w[p as usize][d];
                }
            }
        }
        let b = Belief::new(start.counts().to_vec(), tokens);
        for _ in 0..20 {
            let a = b.sample(rng).expect("a sample");
            for (t, &p) in b.tokens().iter().zip(&a) {
                c[p as usize][depth(t.start / FILES)] += 1;
            }
        }
    }
    c.map(|r| {
        let t = f64::from(r.iter().sum::<u32>().max(1));
        r.map(|x| f64::from(x) / t)
    })
}

fn main() {
    let mut rng = rng_from_seed(5);
    let n = 40_000;
    let real = shares(None, n, &mut rng);
    let own = shares(Some(None), n / 20, &mut rng);
    let mut w = real.map(|r| r.map(|x| 3.0 * x.max(0.005)));
    for round in 0..8 {
        let got = shares(Some(Some(&w)), n / 20, &mut rng);
        let mut err: f64 = 0.0;
        for p in 0..15 {
            for d in 0..3 {
                err = err.max((got[p][d] - real[p][d]).abs());
                w[p][d] *= (real[p][d].max(0.005) / got[p][d].max(0.005)).powf(0.8);
            }
        }
        println!("round {round}: largest difference {err:.3}");
    }
    println!("piece: share at depth 0/1/2 in the setups | in the belief | fitted weights");
    for p in Piece::ALL {
        let (r, o, x) = (real[p as usize], own[p as usize], w[p as usize]);
        println!(
            "{:>4}: {:.2} {:.2} {:.2} | {:.2} {:.2} {:.2} | [{:.2}, {:.2}, {:.2}]",
            p.code(),
            r[0],
            r[1],
            r[2],
            o[0],
            o[1],
            o[2],
            x[0] / x[1],
            1.0,
            x[2] / x[1]
        );
    }
}
