//! Random playouts, for `salpakan bench`: full legality, one core, no shortcuts.

use std::time::{Duration, Instant};

use crate::{Game, GameRng, rng_from_seed};

/// What a playout run measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutStats {
    /// Games played to their end.
    pub playouts: u64,
    /// Plies played in all.
    pub plies: u64,
    /// Wall time spent.
    pub elapsed: Duration,
    /// Games won by the first seat, won by the second, drawn.
    pub results: [u64; 3],
}

impl PlayoutStats {
    /// Playouts per second.
    #[must_use]
    pub fn playouts_per_sec(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64()
    }
    /// Plies per second.
    #[must_use]
    pub fn plies_per_sec(&self) -> f64 {
        self.plies as f64 / self.elapsed.as_secs_f64()
    }
}

/// Plays one game from `start` to its end with uniformly random legal moves; returns the
/// number of plies. Games that can run forever must be given a quiet-ply limit.
pub fn playout<G: Game>(start: &G, rng: &mut GameRng) -> (G, u64) {
    let mut g = start.clone();
    let mut plies = 0;
    while let Some(mv) = g.random_move(rng) {
        g.play_unchecked(mv);
        plies += 1;
    }
    (g, plies)
}

/// Runs random playouts for at least `budget`, each from a fresh random hidden state.
/// Setting up each game (random setups or deal) is counted in the time, not in the plies.
pub fn playouts<G: Game>(options: &G::Options, budget: Duration, seed: u64) -> PlayoutStats {
    let mut rng = rng_from_seed(seed);
    let t0 = Instant::now();
    let mut s = PlayoutStats {
        playouts: 0,
        plies: 0,
        elapsed: Duration::ZERO,
        results: [0; 3],
    };
    while t0.elapsed() < budget {
        let hidden = G::random_hidden(options, &mut rng);
        let start = G::start(options, hidden).expect("random hidden state fits its options");
        let (end, n) = playout(&start, &mut rng);
        s.playouts += 1;
        s.plies += n;
        let i = match end.outcome().and_then(|o| o.winner) {
            Some(crate::Seat::First) => 0,
            Some(crate::Seat::Second) => 1,
            None => 2,
        };
        s.results[i] += 1;
    }
    s.elapsed = t0.elapsed();
    s
}
