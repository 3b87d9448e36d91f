//! Random Taiwan-rules Banqi playouts on one core: `cargo run --release -p salpakan-engine
//! --example bench_banqi [seconds] [taiwan|olympiad]`.

use salpakan_engine::banqi::{Banqi, BanqiOptions};
use salpakan_engine::bench::playouts;
use std::time::Duration;

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let only = std::env::args().nth(2);
    for (name, o) in [
        ("taiwan (default)", BanqiOptions::default()),
        ("olympiad", BanqiOptions::olympiad()),
    ] {
        if only.as_deref().is_some_and(|o| !name.starts_with(o)) {
            continue;
        }
        let s = playouts::<Banqi>(&o, Duration::from_secs_f64(secs), 1);
        println!(
            "banqi {name}: {:.1} M plies/s, {:.0} playouts/s, {:.1} plies/game, results {:?}",
            s.plies_per_sec() / 1e6,
            s.playouts_per_sec(),
            s.plies as f64 / s.playouts as f64,
            s.results
        );
    }
}
