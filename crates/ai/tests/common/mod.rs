//! Helpers shared by the ai crate's tests.

use salpakan_engine::generals::{Generals, GeneralsOptions, Setup, Setups};
use salpakan_engine::{Match, Seat, rng_from_seed};

/// Two Generals matches that differ only in Black's setup: the same squares, with the
/// pieces shuffled among them (so Black's moves stay legal in both and White sees the same
/// squares occupied). The second match's salts come from `second_salts`.
pub fn shuffled_black_pair(
    o: &GeneralsOptions,
    second_salts: u64,
) -> (Match<Generals>, Match<Generals>) {
    let white = Setup::random(Seat::First, &o.army, &mut rng_from_seed(1));
    let black_a = Setup::random(Seat::Second, &o.army, &mut rng_from_seed(2));
    let mut pieces: Vec<_> = black_a.placements().iter().map(|&(_, p)| p).collect();
    pieces.rotate_left(5);
    let placements: Vec<_> = black_a
        .placements()
        .iter()
        .zip(pieces)
        .map(|(&(s, _), p)| (s, p))
        .collect();
    let black_b = Setup::new(Seat::Second, &o.army, &placements).unwrap();
    let a = Match::<Generals>::start(o, Setups([white.clone(), black_a]), &mut rng_from_seed(3))
        .unwrap();
    let b = Match::<Generals>::start(
        o,
        Setups([white, black_b]),
        &mut rng_from_seed(second_salts),
    )
    .unwrap();
    (a, b)
}
