//! The belief: constraints narrow correctly; samples respect every constraint and the counts;
//! determinized games replay the history with the same observed outcomes.

mod setups;

use salpakan_ai::belief::{Belief, Token, mask};
use salpakan_ai::{AiGame, Knowledge};
use salpakan_engine::generals::{Duel, Generals, GeneralsOptions, Move, Piece, Setup, Setups};
use salpakan_engine::stratego::{Stratego, StrategoOptions};
use salpakan_engine::{Game, GameRng, Match, Seat, Viewer, rng_from_seed};

fn sq(s: &str) -> salpakan_engine::generals::Square {
    s.parse().unwrap()
}

/// White's and Black's setups from `square:code` texts.
fn generals_match(white: &str, black: &str) -> Match<Generals> {
    let o = GeneralsOptions::default();
    let setups = Setups([
        Setup::parse(Seat::First, &o.army, white).unwrap(),
        Setup::parse(Seat::Second, &o.army, black).unwrap(),
    ]);
    Match::start(&o, setups, &mut rng_from_seed(1)).unwrap()
}

use setups::{GENERALS_BLACK as BLACK, GENERALS_WHITE as WHITE};

fn play(m: &mut Match<Generals>, mv: &str) {
    let mv: Move = mv.parse().unwrap();
    m.play(mv).unwrap();
}

fn possible(b: &Belief, start: &str) -> Vec<Piece> {
    let t = b
        .tokens()
        .iter()
        .position(|t| t.start as usize == sq(start).index())
        .unwrap();
    let m = b.possible(t);
    Piece::ALL
        .into_iter()
        .filter(|&p| m >> p as usize & 1 == 1)
        .collect()
}

#[test]
fn a_captain_that_survived_bounds_the_enemy_from_above() {
    // Black's Sergeant (c6) walks over to White's Captain (i2) and challenges it; White
    // only shuffles its 2nd Lieutenant. The Captain survives.
    let mut m = generals_match(WHITE, BLACK);
    let path = [
        "c6-c5", "c5-d5", "d5-e5", "e5-f5", "f5-g5", "g5-h5", "h5-i5", "i5-i4", "i4-i3",
    ];
    for (i, b) in path.iter().enumerate() {
        play(&mut m, if i % 2 == 0 { "b3-b4" } else { "b4-b3" });
        play(&mut m, b);
    }
    play(&mut m, "b4-b3");
    let ev = m.play("i3-i2".parse().unwrap()).unwrap().clone();
    assert_eq!(ev.challenge.unwrap().result, Duel::DefenderWins);
    let k = Knowledge::of(&m, Seat::First);
    let b = Generals::belief(&k);
    // It lost to a Captain: 1LT, 2LT, SGT or PVT. A Spy would have won; the Flag would
    // have lost too, but losing the Flag ends the game, and the game goes on.
    let got = possible(&b, "c6");
    assert_eq!(
        got,
        vec![
            Piece::FirstLt,
            Piece::SecondLt,
            Piece::Sergeant,
            Piece::Private
        ]
    );
    // And every other black piece is unconstrained except by the counts.
    assert_eq!(possible(&b, "a7").len(), 15);
}

#[test]
fn a_split_means_equal_rank() {
    let mut m = generals_match(WHITE, BLACK);
    // White's Sergeant c3 walks up to Black's Sergeant c6: a split.
    play(&mut m, "c3-c4");
    play(&mut m, "a6-a5");
    play(&mut m, "c4-c5");
    play(&mut m, "a5-a4");
    let ev = m.play("c5-c6".parse().unwrap()).unwrap().clone();
    assert_eq!(ev.challenge.unwrap().result, Duel::BothEliminated);
    let k = Knowledge::of(&m, Seat::First);
    let b = Generals::belief(&k);
    assert_eq!(possible(&b, "c6"), vec![Piece::Sergeant]);
    // The counts then exclude the Sergeant from every other black piece.
    assert!(!possible(&b, "a7").contains(&Piece::Sergeant));
}

#[test]
fn counts_narrow_the_rest_when_constraints_pin_pieces() {
    // Three tokens, army {A:1, B:2}; token 0 can only be A: the others must be B.
    let mut t0 = Token::new(0, 2);
    t0.restrict(mask([0]));
    let b = Belief::new(vec![1, 2], vec![t0, Token::new(1, 2), Token::new(2, 2)]);
    assert_eq!(b.possible(0), 0b01);
    assert_eq!(b.possible(1), 0b10);
    assert_eq!(b.possible(2), 0b10);
}

#[test]
fn samples_always_respect_counts_and_constraints() {
    // Random constraint sets built from a hidden truth: every sample must fit them all.
    let mut rng = rng_from_seed(5);
    use rand::Rng;
    use rand::seq::SliceRandom;
    let counts: Vec<u8> = vec![1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 2, 1];
    for round in 0..60 {
        let mut truth: Vec<u8> = counts
            .iter()
            .enumerate()
            .flat_map(|(p, &c)| std::iter::repeat_n(p as u8, c as usize))
            .collect();
        truth.shuffle(&mut rng);
        let tokens: Vec<Token> = truth
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let mut t = Token::new(i as u8, 15);
                // Constraints always keep the truth; the tighter the later the round.
                let keep = rng.random_range(1..=15 - (round % 14));
                let mut m = 1u32 << p;
                while (m.count_ones() as usize) < keep {
                    m |= 1 << rng.random_range(0..15);
                }
                t.restrict(m);
                t.prior[rng.random_range(0..15)] = 5.0;
                t
            })
            .collect();
        let b = Belief::new(counts.clone(), tokens);
        assert!(b.consistent());
        for _ in 0..20 {
            let s = b
                .sample(&mut rng)
                .expect("consistent beliefs always sample");
            let mut used = vec![0u8; 15];
            for (t, &p) in s.iter().enumerate() {
                assert!(b.tokens()[t].allowed >> p & 1 == 1, "token {t} got {p}");
                used[p as usize] += 1;
            }
            assert_eq!(used, counts, "round {round}");
        }
    }
}

#[test]
fn determinized_generals_games_replay_with_the_same_observed_outcomes() {
    for seed in 0..12u64 {
        let mut m = Match::<Generals>::random(&GeneralsOptions::default(), seed).unwrap();
        let mut rng = rng_from_seed(seed);
        for _ in 0..(60 + 20 * seed) {
            if m.game().outcome().is_some() {
                break;
            }
            let mv = m.game().random_move(&mut rng).unwrap();
            m.play(mv).unwrap();
        }
        for seat in Seat::BOTH {
            let k = Knowledge::of(&m, seat);
            let b = Generals::belief(&k);
            assert!(b.consistent(), "seed {seed}");
            for _ in 0..5 {
                let g = Generals::determinize(&k, &b, &mut rng);
                assert_eq!(
                    g.observe(Viewer::Player(seat)),
                    m.game().observe(Viewer::Player(seat)),
                    "seed {seed}: the sample shows the seat what it saw"
                );
                assert_eq!(g.outcome(), m.game().outcome());
            }
        }
    }
}

#[test]
fn determinized_stratego_games_replay_with_the_same_observed_outcomes() {
    for seed in 0..4u64 {
        let mut m = Match::<Stratego>::random(&StrategoOptions::default(), seed).unwrap();
        let mut rng = rng_from_seed(seed);
        for _ in 0..(100 + 50 * seed) {
            if m.game().outcome().is_some() {
                break;
            }
            let mv = m.game().random_move(&mut rng).unwrap();
            m.play(mv).unwrap();
        }
        for seat in Seat::BOTH {
            let k = Knowledge::of(&m, seat);
            let b = Stratego::belief(&k);
            assert!(b.consistent(), "seed {seed}");
            for _ in 0..5 {
                let g = Stratego::determinize(&k, &b, &mut rng);
                assert_eq!(
                    g.observe(Viewer::Player(seat)),
                    m.game().observe(Viewer::Player(seat)),
                    "seed {seed}"
                );
            }
        }
    }
}

#[test]
fn stratego_pieces_that_moved_are_no_bombs_or_flags() {
    let mut m = Match::<Stratego>::random(&StrategoOptions::default(), 3).unwrap();
    let mut rng = rng_from_seed(3);
    for _ in 0..40 {
        let mv = m.game().random_move(&mut rng).unwrap();
        m.play(mv).unwrap();
    }
    let k = Knowledge::of(&m, Seat::First);
    let b = Stratego::belief(&k);
    let immobile = (1 << 0) | (1 << 11);
    let mut checked = 0;
    for (t, tok) in b.tokens().iter().enumerate() {
        if tok.moves > 0 {
            assert_eq!(b.possible(t) & immobile, 0);
            checked += 1;
        }
    }
    assert!(checked > 0);
}

/// The exact chance of each identity for each token: every assignment within the tokens'
/// constraints and exactly the counts, weighed by the product of the tokens' priors.
fn exact_marginals(b: &Belief) -> Vec<Vec<f64>> {
    fn visit(
        b: &Belief,
        a: &mut Vec<usize>,
        left: &mut [u8],
        w: f64,
        out: &mut [Vec<f64>],
        total: &mut f64,
    ) {
        let i = a.len();
        if i == b.tokens().len() {
            *total += w;
            for (t, &p) in a.iter().enumerate() {
                out[t][p] += w;
            }
            return;
        }
        let t = &b.tokens()[i];
        for p in 0..left.len() {
            if left[p] > 0 && t.allowed >> p & 1 == 1 {
                left[p] -= 1;
                a.push(p);
                visit(b, a, left, w * t.prior[p], out, total);
                a.pop();
                left[p] += 1;
            }
        }
    }
    let mut out = vec![vec![0.0; b.counts().len()]; b.tokens().len()];
    let mut total = 0.0;
    let mut left = b.counts().to_vec();
    visit(b, &mut Vec::new(), &mut left, 1.0, &mut out, &mut total);
    for row in &mut out {
        row.iter_mut().for_each(|x| *x /= total);
    }
    out
}

/// The largest gap between the sampled and the exact chance of any identity of any token,
/// over `n` draws of `draw`.
fn largest_gap(b: &Belief, n: u32, mut draw: impl FnMut(&mut GameRng) -> Vec<u8>) -> f64 {
    let exact = exact_marginals(b);
    let mut rng = rng_from_seed(3);
    let mut seen = vec![vec![0u32; b.counts().len()]; b.tokens().len()];
    for _ in 0..n {
        for (t, &p) in draw(&mut rng).iter().enumerate() {
            seen[t][p as usize] += 1;
        }
    }
    let mut gap: f64 = 0.0;
    for (row, ex) in seen.iter().zip(&exact) {
        for (&c, &e) in row.iter().zip(ex) {
            gap = gap.max((f64::from(c) / f64::from(n) - e).abs());
        }
    }
    gap
}

/// A small army of nine pieces: kinds with 5 (`extra` more spare), 2, 1 and 1 pieces (as
/// Scouts, Colonels, a Marshal and a Spy); one token shown to be kind 0 or kind 2 (a piece
/// that beat a known one), one that moved (not kind 3), one whose prior favours kind 3
/// threefold, one that disfavours kind 1.
fn small_army(extra: u8) -> Belief {
    let mut tokens: Vec<Token> = (0..9).map(|i| Token::new(i, 4)).collect();
    tokens[0].restrict(0b0101);
    tokens[1].restrict(0b0111);
    tokens[2].prior[3] = 3.0;
    tokens[3].prior[1] = 0.5;
    Belief::new(vec![5 + extra, 2, 1, 1], tokens)
}

#[test]
fn posterior_sampling_follows_the_exact_posterior_where_the_sequential_draw_does_not() {
    let b = small_army(0);
    let exact = exact_marginals(&b);
    // The token shown to be kind 0 or kind 2 is kind 2 one time in six: one of the six
    // pieces of the two kinds.
    assert!((exact[0][2] - 1.0 / 6.0).abs() < 1e-9, "{}", exact[0][2]);
    let sequential = largest_gap(&b, 40_000, |rng| b.sample(rng).expect("consistent"));
    let posterior = largest_gap(&b, 40_000, |rng| {
        b.sample_posterior(10, rng).expect("consistent")
    });
    assert!(
        sequential > 0.05,
        "the sequential draw is off by {sequential:.3}"
    );
    assert!(
        posterior < 0.015,
        "the posterior draw is off by {posterior:.3}"
    );
}

#[test]
fn posterior_sampling_keeps_the_constraints_and_counts_with_pieces_to_spare() {
    // Two Scouts more than the tokens can hold: the chain also gives a token an identity
    // the counts leave spare, and never more of a kind than the army has.
    let b = small_army(2);
    let mut rng = rng_from_seed(9);
    for _ in 0..2_000 {
        let a = b.sample_posterior(10, &mut rng).expect("consistent");
        for (t, &p) in a.iter().enumerate() {
            assert!(b.tokens()[t].allowed >> p & 1 == 1, "token {t} drew {p}");
        }
        for (p, &c) in b.counts().iter().enumerate() {
            assert!(a.iter().filter(|&&x| usize::from(x) == p).count() <= usize::from(c));
        }
    }
    let posterior = largest_gap(&b, 40_000, |rng| {
        b.sample_posterior(10, rng).expect("consistent")
    });
    assert!(
        posterior < 0.015,
        "the posterior draw is off by {posterior:.3}"
    );
}
