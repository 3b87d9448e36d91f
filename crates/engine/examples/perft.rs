//! Recomputes the perft fixtures in `crates/engine/tests/data/perft/` and prints them:
//! `cargo run --release -p salpakan-engine --example perft -- [--write] [generals|stratego|banqi]...`.
//!
//! Without `--write` it compares each fixture with its recorded counts and exits with 1 if
//! any differs. With `--write` it rewrites the counts in place (comments and the order of
//! lines are kept): do that only after checking that a change of counts is intended. To add
//! a fixture, write its line with `?` for each depth to compute (see `salpakan_engine::perft`).

use std::path::PathBuf;
use std::time::Instant;

use salpakan_engine::GameKind;
use salpakan_engine::perft::Fixture;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = args.iter().any(|a| a == "--write");
    let only: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft");
    let load =
        |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"));
    let mut differ = false;
    for kind in GameKind::ALL {
        if !only.is_empty() && !only.iter().any(|o| *o == kind.name()) {
            continue;
        }
        let path = dir.join(format!("{kind}.txt"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut out = String::new();
        for line in text.lines() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                out += line;
                out.push('\n');
                continue;
            }
            let f = Fixture::parse(t).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let start = Instant::now();
            let counts = f
                .compute(kind, &load)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let same = f.counts.iter().zip(&counts).all(|(a, b)| *a == Some(*b));
            differ |= !same;
            println!(
                "{kind} {}: {:?} in {:.2} s{}",
                f.name,
                counts,
                start.elapsed().as_secs_f64(),
                if same {
                    ""
                } else {
                    "  (differs from the fixture)"
                }
            );
            out += &f.line(&counts);
            out.push('\n');
        }
        if write {
            std::fs::write(&path, out).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
    if differ && !write {
        eprintln!("some counts differ from the fixtures (rerun with --write to accept them)");
        std::process::exit(1);
    }
}
