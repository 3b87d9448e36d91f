//! `salpakan --help` and every subcommand's `--help`, run as a user would: each succeeds
//! and lists what it should. The subcommands are found from the help itself, so a new one
//! is checked without editing this test.

use std::process::Command;

fn help(path: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_salpakan"))
        .args(path)
        .arg("--help")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "salpakan {} --help failed: {}",
        path.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommand names in a help text's `Commands:` section (without `help`).
fn commands(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("    "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

fn walk(path: Vec<String>, seen: &mut Vec<String>) {
    let text = help(&path);
    assert!(text.contains("Usage: salpakan"), "{path:?}:\n{text}");
    seen.push(path.join(" "));
    for c in commands(&text) {
        let mut p = path.clone();
        p.push(c);
        walk(p, seen);
    }
}

#[test]
fn every_subcommand_help_runs_and_succeeds() {
    let mut seen = Vec::new();
    walk(Vec::new(), &mut seen);
    for want in [
        "serve",
        "loadtest",
        "arena",
        "arbiter",
        "bot",
        "record",
        "record check",
        "record verify",
        "record import",
        "record import gravon",
        "record import cdc",
        "bench",
        "play",
        "replay",
    ] {
        assert!(
            seen.iter().any(|s| s == want),
            "{want} not reached: {seen:?}"
        );
    }
}

#[test]
fn record_import_gravon_with_two_square_limit_zero_or_seventeen_fails_cleanly() {
    // It used to panic inside the engine; now the flag is refused at the edge.
    for bad in ["0", "17"] {
        let out = Command::new(env!("CARGO_BIN_EXE_salpakan"))
            .args(["record", "import", "gravon", "--two-square-limit", bad])
            .arg("no-such-file.xml")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("1..=16") && !err.contains("panicked"), "{err}");
    }
}
