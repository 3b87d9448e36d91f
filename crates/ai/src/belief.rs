//! Belief over hidden enemy pieces: for every enemy piece ("token", named by the square it
//! started on), which identities are still possible, and a sampler of complete assignments
//! that respect every constraint and the army's piece counts at once.
//!
//! Constraints per token are sets of possible identities (from challenge outcomes, shown
//! pieces, moves). Jointly, the identities of all tokens (alive and removed) must use
//! exactly the army's counts. That is a bipartite b-matching; the sampler keeps one valid
//! assignment and fixes tokens one by one in a random order, choosing among the identities
//! that an alternating path shows can still be completed, weighted by each token's prior.
//! No rejection: every sample respects everything, however late in the game.

use rand::Rng;
use rand::seq::SliceRandom;
use salpakan_engine::GameRng;

/// The most identities a game has (Generals has 15).
pub const MAX_TYPES: usize = 16;

/// One enemy piece as the seat tracks it.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The square index it started on (its name).
    pub start: u8,
    /// The square index it stands on now, `None` once removed.
    pub square: Option<u8>,
    /// The identities still possible on its own constraints, as a bit mask by identity index.
    pub allowed: u32,
    /// How many times it moved.
    pub moves: u32,
    /// How many times it attacked.
    pub attacks: u32,
    /// Prior weight of each identity (from where it started and how it behaved).
    pub prior: [f64; MAX_TYPES],
}

impl Token {
    /// A token on `start` that may be anything of `types` identities.
    #[must_use]
    pub fn new(start: u8, types: usize) -> Token {
        Token {
            start,
            square: Some(start),
            allowed: (1u32 << types) - 1,
            moves: 0,
            attacks: 0,
            prior: [1.0; MAX_TYPES],
        }
    }

    /// Narrows the token to identities in `mask`.
    pub fn restrict(&mut self, mask: u32) {
        self.allowed &= mask;
    }
}

/// The seat's belief about the enemy army.
#[derive(Clone, Debug, PartialEq)]
pub struct Belief {
    counts: Vec<u8>,
    tokens: Vec<Token>,
    /// A valid assignment (identity per token), if one exists.
    base: Option<Vec<u8>>,
}

impl Belief {
    /// A belief over `tokens` whose identities must use exactly `counts` (by identity index;
    /// at least as many as tokens in all).
    #[must_use]
    pub fn new(counts: Vec<u8>, tokens: Vec<Token>) -> Belief {
        let mut b = Belief {
            counts,
            tokens,
            base: None,
        };
        b.base = b.initial_assignment();
        b
    }

    /// The enemy pieces, alive and removed.
    #[must_use]
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// The army's counts by identity index.
    #[must_use]
    pub fn counts(&self) -> &[u8] {
        &self.counts
    }

    /// Whether some complete assignment respects every constraint and the counts.
    #[must_use]
    pub fn consistent(&self) -> bool {
        self.base.is_some()
    }

    /// The index of the token standing on square index `sq` now.
    #[must_use]
    pub fn token_on(&self, sq: u8) -> Option<usize> {
        self.tokens.iter().position(|t| t.square == Some(sq))
    }

    /// The identities token `t` may still have, as a mask: those allowed by its own
    /// constraints for which the rest of the army can still be completed within the counts.
    #[must_use]
    pub fn possible(&self, t: usize) -> u32 {
        let Some(base) = &self.base else {
            return self.tokens[t].allowed;
        };
        let fixed = vec![false; self.tokens.len()];
        let (reach, _) = self.reachable(base, &fixed, t);
        self.tokens[t].allowed & reach
    }

    /// A complete assignment (identity index per token, in token order) drawn from the
    /// belief: always within every token's constraints and exactly the counts, each token
    /// in turn weighted by its prior among what is left, which is near the belief's
    /// posterior but not it ([`Belief::sample_posterior`] draws that). `None` only if the
    /// constraints contradict each other (they never do for a real game).
    pub fn sample(&self, rng: &mut GameRng) -> Option<Vec<u8>> {
        let mut m = self.base.clone()?;
        let n = self.tokens.len();
        let mut fixed = vec![false; n];
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(rng);
        // Tokens with one possibility first: they cost nothing and narrow the others.
        order.sort_by_key(|&t| self.tokens[t].allowed.count_ones() > 1);
        for t in order {
            let (reach, next) = self.reachable(&m, &fixed, t);
            let feasible = self.tokens[t].allowed & reach;
            let total: f64 = (0..MAX_TYPES)
                .filter(|&p| feasible >> p & 1 == 1)
                .map(|p| self.tokens[t].prior[p].max(1e-9))
                .sum();
            let mut r = rng.random::<f64>() * total;
            let mut pick = m[t] as usize;
            for p in 0..MAX_TYPES {
                if feasible >> p & 1 == 1 {
                    let w = self.tokens[t].prior[p].max(1e-9);
                    pick = p;
                    if r < w {
                        break;
                    }
                    r -= w;
                }
            }
            // Move t to `pick`, shifting other tokens along the alternating path.
            let old = m[t] as usize;
            m[t] = pick as u8;
            let mut ty = pick;
            let mut free = self.free(&m);
            while ty != old && free[ty] < 0 {
                let (u, to) = next[ty].expect("a reachable identity has a path");
                m[u] = to as u8;
                free = self.free(&m);
                ty = to;
            }
            fixed[t] = true;
        }
        Some(m)
    }

    /// A complete assignment drawn from the belief's posterior itself: every assignment
    /// within the constraints and exactly the counts, with the chance of the product of its
    /// tokens' priors. [`Belief::sample`]'s sequential draw is only near it (a token drawn
    /// late takes what the others left, so a prior that favours one identity threefold may
    /// give it a quarter of the samples where the posterior gives it a third); this one
    /// starts from such a draw and runs `sweeps` × (number of tokens) steps of a Metropolis
    /// chain whose steps swap two tokens' identities, or give a token an identity the
    /// counts leave spare, each accepted with the ratio of the priors' products. `None`
    /// only if the constraints contradict each other.
    pub fn sample_posterior(&self, sweeps: usize, rng: &mut GameRng) -> Option<Vec<u8>> {
        let mut m = self.sample(rng)?;
        let n = self.tokens.len();
        if n < 2 {
            return Some(m);
        }
        let mut free = self.free(&m);
        let prior = |t: usize, p: u8| self.tokens[t].prior[p as usize].max(1e-9);
        for _ in 0..sweeps * n {
            let u = rng.random_range(0..n);
            let (pu, allowed_u) = (m[u], self.tokens[u].allowed);
            // One step in eight (when the counts leave any identity spare) offers a spare
            // identity; the others a swap.
            if rng.random_range(0..8) == 0 {
                let spare: u32 = (0..MAX_TYPES)
                    .filter(|&p| free[p] > 0)
                    .fold(0, |acc, p| acc | 1 << p);
                if spare != 0 {
                    // Propose uniformly among the spare identities (one the token may
                    // not take is refused); the way back is drawn among the spare
                    // identities after the step, hence their numbers in the ratio.
                    let k = rng.random_range(0..spare.count_ones());
                    let p = (0..MAX_TYPES)
                        .filter(|&p| spare >> p & 1 == 1)
                        .nth(k as usize)
                        .expect("counted") as u8;
                    let mut after = spare | 1 << pu;
                    if free[p as usize] == 1 {
                        after &= !(1 << p);
                    }
                    let ratio = prior(u, p) / prior(u, pu) * f64::from(spare.count_ones())
                        / f64::from(after.count_ones());
                    if p != pu
                        && allowed_u >> p & 1 == 1
                        && (ratio >= 1.0 || rng.random::<f64>() < ratio)
                    {
                        free[pu as usize] += 1;
                        free[p as usize] -= 1;
                        m[u] = p;
                    }
                    continue;
                }
            }
            let v = rng.random_range(0..n);
            let pv = m[v];
            if pu == pv || self.tokens[v].allowed >> pu & 1 == 0 || allowed_u >> pv & 1 == 0 {
                continue;
            }
            let ratio = prior(u, pv) * prior(v, pu) / (prior(u, pu) * prior(v, pv));
            if ratio >= 1.0 || rng.random::<f64>() < ratio {
                m[u] = pv;
                m[v] = pu;
            }
        }
        Some(m)
    }

    /// Spare capacity per identity under assignment `m` (negative: over-used).
    fn free(&self, m: &[u8]) -> [i32; MAX_TYPES] {
        let mut f = [0i32; MAX_TYPES];
        for (p, &c) in self.counts.iter().enumerate() {
            f[p] = i32::from(c);
        }
        for &p in m {
            f[p as usize] -= 1;
        }
        f
    }

    /// The identities token `t` could take given assignment `m` with the `fixed` tokens held,
    /// and for each such identity the token to shift out of it and where.
    fn reachable(
        &self,
        m: &[u8],
        fixed: &[bool],
        t: usize,
    ) -> (u32, [Option<(usize, usize)>; MAX_TYPES]) {
        let free = self.free(m);
        let mut reach: u32 = 1 << m[t];
        for (p, &f) in free.iter().enumerate() {
            if f > 0 {
                reach |= 1 << p;
            }
        }
        let mut next = [None; MAX_TYPES];
        loop {
            let mut grew = false;
            for (u, tok) in self.tokens.iter().enumerate() {
                if u == t || fixed[u] {
                    continue;
                }
                let cur = m[u] as usize;
                if reach >> cur & 1 == 1 {
                    continue;
                }
                let to = tok.allowed & reach & !(1 << cur);
                if to != 0 {
                    reach |= 1 << cur;
                    next[cur] = Some((u, to.trailing_zeros() as usize));
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        (reach, next)
    }

    /// Some assignment within the constraints and counts (Kuhn's augmenting paths).
    fn initial_assignment(&self) -> Option<Vec<u8>> {
        let n = self.tokens.len();
        let mut m: Vec<Option<usize>> = vec![None; n];
        let mut left: Vec<i32> = self.counts.iter().map(|&c| i32::from(c)).collect();
        left.resize(MAX_TYPES, 0);
        fn augment(
            b: &Belief,
            t: usize,
            m: &mut Vec<Option<usize>>,
            left: &mut Vec<i32>,
            seen: &mut u32,
        ) -> bool {
            let allowed = b.tokens[t].allowed;
            for p in 0..MAX_TYPES {
                if allowed >> p & 1 == 0 || *seen >> p & 1 == 1 {
                    continue;
                }
                *seen |= 1 << p;
                if left[p] > 0 {
                    left[p] -= 1;
                    m[t] = Some(p);
                    return true;
                }
                for u in 0..m.len() {
                    if m[u] == Some(p) && augment(b, u, m, left, seen) {
                        // u moved elsewhere (taking that capacity): p's slot goes to t.
                        m[t] = Some(p);
                        return true;
                    }
                }
            }
            false
        }
        for t in 0..n {
            let mut seen = 0u32;
            if !augment(self, t, &mut m, &mut left, &mut seen) {
                return None;
            }
        }
        Some(m.into_iter().map(|p| p.expect("matched") as u8).collect())
    }
}

/// The bit mask of identity indices `ps`.
#[must_use]
pub fn mask<I: IntoIterator<Item = usize>>(ps: I) -> u32 {
    ps.into_iter().fold(0, |m, p| m | 1 << p)
}
