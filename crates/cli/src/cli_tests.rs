//! The command line as documented: every subcommand's help, and every command line the
//! README and the docs show, parse with this binary's clap definition.

use clap::CommandFactory;
use clap::Parser;
use clap::error::ErrorKind;

use crate::Cli;

/// Every subcommand path, e.g. `["record", "import", "gravon"]`.
fn subcommand_paths(cmd: &clap::Command, prefix: &[String], out: &mut Vec<Vec<String>>) {
    for sub in cmd.get_subcommands() {
        let mut path = prefix.to_vec();
        path.push(sub.get_name().to_string());
        out.push(path.clone());
        subcommand_paths(sub, &path, out);
    }
}

#[test]
fn the_command_line_definition_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn every_subcommand_has_help_that_describes_it_and_each_flag() {
    let mut paths = Vec::new();
    subcommand_paths(&Cli::command(), &[], &mut paths);
    let names: Vec<String> = paths.iter().map(|p| p.join(" ")).collect();
    for want in [
        "serve",
        "record import gravon",
        "record import cdc",
        "bench",
        "play",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} missing: {names:?}");
    }
    for path in &paths {
        let mut args = vec!["salpakan".to_string()];
        args.extend(path.iter().cloned());
        args.push("--help".into());
        let err = Cli::try_parse_from(&args).expect_err("--help stops parsing");
        assert_eq!(err.kind(), ErrorKind::DisplayHelp, "{args:?}: {err}");
        let text = err.to_string();
        assert!(text.contains("Usage: salpakan"), "{args:?}:\n{text}");
    }
    // Every subcommand and every flag (but help and version) says what it is for.
    fn described(cmd: &clap::Command, path: &str) {
        if path != "salpakan help" {
            assert!(cmd.get_about().is_some(), "{path} has no description");
            for a in cmd.get_arguments() {
                let id = a.get_id().as_str();
                if id != "help" && id != "version" {
                    assert!(a.get_help().is_some(), "{path} {id} has no help");
                }
            }
        }
        for sub in cmd.get_subcommands() {
            described(sub, &format!("{path} {}", sub.get_name()));
        }
    }
    described(&Cli::command(), "salpakan");
}

/// The `salpakan ...` command lines of the fenced code blocks of `text` (untagged, `sh`,
/// `bash`, `shell` or `console`), as argument lists starting with `salpakan`. In a block
/// with `$ ` prompts only the prompted lines are commands (the others are output);
/// `cargo run --release -- ` and `./target/release/salpakan` after a pipe are understood;
/// lines ending in `\` continue on the next; a trailing `&` and `# comments` are dropped.
fn command_lines(text: &str) -> Vec<Vec<String>> {
    // (is a shell block, its lines) for every fenced block.
    let mut blocks: Vec<(bool, Vec<String>)> = Vec::new();
    let mut current: Option<(bool, Vec<String>)> = None;
    for line in text.lines() {
        if let Some(lang) = line.trim().strip_prefix("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => {
                    let shell = matches!(lang.trim(), "" | "sh" | "bash" | "shell" | "console");
                    current = Some((shell, Vec::new()));
                }
            }
            continue;
        }
        if let Some((_, lines)) = current.as_mut() {
            lines.push(line.trim().to_string());
        }
    }
    // Lines ending in `\` continue on the next line.
    for (_, lines) in &mut blocks {
        let mut joined: Vec<String> = Vec::new();
        let mut open = false;
        for l in lines.drain(..) {
            match joined.last_mut() {
                Some(last) if open => last.push_str(&format!(" {l}")),
                _ => joined.push(l),
            }
            let last = joined.last_mut().expect("just pushed");
            open = last.ends_with('\\');
            if open {
                last.pop();
            }
        }
        *lines = joined;
    }
    let mut out = Vec::new();
    for (_, block) in blocks.iter().filter(|(shell, _)| *shell) {
        let prompted = block.iter().any(|l| l.starts_with("$ "));
        for line in block {
            let t = match line.strip_prefix("$ ") {
                Some(t) => t,
                None if prompted => continue,
                None => line,
            };
            let t = t.rsplit_once("| ").map_or(t, |(_, rest)| rest);
            let Some(rest) = t
                .strip_prefix("cargo run --release -- ")
                .or_else(|| t.strip_prefix("salpakan "))
                .or_else(|| t.strip_prefix("./target/release/salpakan "))
            else {
                continue;
            };
            let rest = rest.split(" #").next().unwrap_or(rest).trim();
            let rest = rest.strip_suffix('&').unwrap_or(rest).trim();
            let mut args = vec!["salpakan".to_string()];
            args.extend(shlex::split(rest).unwrap_or_else(|| panic!("cannot split {line:?}")));
            out.push(args);
        }
    }
    out
}

#[test]
fn the_readme_and_docs_command_lines_parse() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ is in the repository")
        .map(|e| e.expect("a docs entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        for args in command_lines(&text) {
            // The examples use globs the shell would expand; any file name parses the same.
            let args: Vec<String> = args.into_iter().map(|a| a.replace('*', "x")).collect();
            if let Err(e) = Cli::try_parse_from(&args) {
                panic!("{}: {args:?} does not parse:\n{e}", f.display());
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} command lines found");
}

#[test]
fn command_lines_are_found_in_code_blocks_and_output_is_skipped() {
    let text = "salpakan nope\n\
        ```sh\ncargo run --release -- serve   # run\nx | ./target/release/salpakan arbiter\n\
        salpakan bench --game banqi &\nls\n```\n\
        ```\n$ salpakan record verify g.rec\nsalpakan server listening\n```\n\
        ```json\nsalpakan nope\n```\n\
        ```\nsalpakan arena --bots 'random,cmd:\"python3 b.py\"' \\\n  --games 2\n```\n";
    let got = command_lines(text);
    assert_eq!(
        got,
        vec![
            vec!["salpakan", "serve"],
            vec!["salpakan", "arbiter"],
            vec!["salpakan", "bench", "--game", "banqi"],
            vec!["salpakan", "record", "verify", "g.rec"],
            vec![
                "salpakan",
                "arena",
                "--bots",
                "random,cmd:\"python3 b.py\"",
                "--games",
                "2"
            ],
        ]
    );
}

#[test]
fn record_import_gravon_two_square_limit_out_of_range_is_refused_with_the_range() {
    for bad in ["0", "17", "4294967296", "many"] {
        let err = Cli::try_parse_from([
            "salpakan",
            "record",
            "import",
            "gravon",
            "--two-square-limit",
            bad,
            "f.xml",
        ])
        .expect_err(bad);
        assert_eq!(err.kind(), ErrorKind::ValueValidation, "{bad}: {err}");
        assert!(err.to_string().contains("--two-square-limit"), "{err}");
    }
    for good in ["1", "3", "16"] {
        Cli::try_parse_from([
            "salpakan",
            "record",
            "import",
            "gravon",
            "--two-square-limit",
            good,
            "f.xml",
        ])
        .unwrap();
    }
}

#[test]
fn record_import_cdc_quiet_limit_zero_is_refused() {
    let err = Cli::try_parse_from([
        "salpakan",
        "record",
        "import",
        "cdc",
        "--quiet-limit",
        "0",
        "g.txt",
    ])
    .expect_err("0 plies is no limit");
    assert_eq!(err.kind(), ErrorKind::ValueValidation, "{err}");
}
