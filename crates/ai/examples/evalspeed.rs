//! Diagnostic: the time of one `expert` evaluation in Stratego, over every third position of
//! four games between two greedy bots (each evaluated for both seats, many times):
//! `evalspeed [rounds]`. Prints the mean nanoseconds an evaluation and a checksum of the
//! values, so that a faster evaluation can be shown to give the same values.
mod greedy;

use std::time::Instant;

use salpakan_ai::Knowledge;
use salpakan_ai::games::stratego_expert::{context, evaluate};
use salpakan_engine::{AnyMatch, GameKind, Seat};

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(200, |a| a.parse().expect("a number of rounds"));
    let mut states = Vec::new();
    greedy::each_position(GameKind::Stratego, |m, s| {
        if let AnyMatch::Stratego(sm) = m
            && m.ply() % 3 == 0
        {
            let k = Knowledge::of(sm, s);
            let ctx = context(&k, std::slice::from_ref(sm.game()));
            states.push((sm.game().clone(), ctx));
        }
    });
    let start = Instant::now();
    let mut sum = 0.0;
    for _ in 0..rounds {
        for (g, ctx) in &states {
            for seat in Seat::BOTH {
                sum += evaluate(g, seat, ctx);
            }
        }
    }
    let n = rounds * states.len() * 2;
    println!(
        "{} positions, {n} evaluations: {:.0} ns each, checksum {sum:.12}",
        states.len(),
        start.elapsed().as_nanos() as f64 / n as f64
    );
}
