//! Random Stratego playouts on one core, both repetition rules on: `cargo run --release -p
//! salpakan-engine --example bench_stratego [seconds]`.

use salpakan_engine::GameOptions;
use salpakan_engine::bench::playouts;
use salpakan_engine::stratego::{Stratego, StrategoOptions};
use std::time::Duration;

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    for (name, text) in [
        ("classic (default options)", ""),
        ("classic, max_quiet_plies=200", "max_quiet_plies=200"),
        ("barrage", "army=barrage"),
    ] {
        let o = StrategoOptions::from_text(text).expect("valid options");
        let s = playouts::<Stratego>(&o, Duration::from_secs_f64(secs), 1);
        println!(
            "stratego {name}: {:.2} M plies/s, {:.0} playouts/s, {:.1} plies/game, results {:?}",
            s.plies_per_sec() / 1e6,
            s.playouts_per_sec(),
            s.plies as f64 / s.playouts as f64,
            s.results
        );
    }
}
