//! Diagnostic: the time of the `expert`'s search at a fixed number of iterations, over the
//! positions at every tenth ply (5, 15, … up to ply 115) of four games between two greedy
//! bots: `expertspeed <game> <iterations> [rounds]`. Prints the time per search, the
//! iterations per second and a checksum of every search's root (its moves' visits and
//! values), so that a faster search can be shown to make the same choices, count for count.
mod greedy;

use std::time::{Duration, Instant};

use salpakan_ai::bots::mcts_params;
use salpakan_ai::{AiGame, BotSpec, Knowledge};
use salpakan_engine::{AnyMatch, GameKind, Match, Seat, rng_from_seed, with_match};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind: GameKind = args[1].parse().expect("a game");
    let iters: u64 = args[2].parse().expect("a number of iterations");
    let rounds: usize = args
        .get(3)
        .map_or(1, |a| a.parse().expect("a number of rounds"));
    let expert: BotSpec = format!("expert:iters={iters}").parse().expect("a bot");
    let mut positions: Vec<(AnyMatch, Seat)> = Vec::new();
    greedy::each_position(kind, |m, s| {
        if m.ply() % 10 == 5 && m.ply() < 120 {
            positions.push((m.clone(), s));
        }
    });
    fn search<G: AiGame>(m: &Match<G>, s: Seat, spec: &BotSpec) -> (u64, u64) {
        let k = Knowledge::of(m, s);
        let r = G::expert_search(&k, &mcts_params::<G>(spec), &mut rng_from_seed(1));
        let sum = r.root.iter().fold(0u64, |h, (_, visits, value)| {
            (h ^ u64::from(*visits) ^ value.to_bits()).wrapping_mul(0x0100_0000_01b3)
        });
        (r.iterations, sum)
    }
    let mut elapsed = Duration::ZERO;
    let mut total = 0u64;
    let mut checksum = 0u64;
    for _ in 0..rounds {
        for (m, s) in &positions {
            let t = Instant::now();
            let (n, sum) = with_match!(m, m => search(m, *s, &expert));
            elapsed += t.elapsed();
            total += n;
            checksum = (checksum ^ sum).wrapping_mul(0x0100_0000_01b3);
        }
    }
    let searches = (positions.len() * rounds) as f64;
    println!(
        "{kind}: {} searches, {:.2} ms a search, {:.0} iterations a second, checksum {checksum:016x}",
        positions.len() * rounds,
        elapsed.as_secs_f64() * 1000.0 / searches,
        total as f64 / elapsed.as_secs_f64(),
    );
}
