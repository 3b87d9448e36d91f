//! `salpakan play` and `salpakan replay` from the shell: mistakes are refused before the
//! terminal is touched, with a message that says what to write instead.

use std::process::{Command, Stdio};

fn salpakan(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_salpakan"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("salpakan runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn play_refuses_bad_arguments_naming_the_fix() {
    let cases: [(&[&str], &str); 7] = [
        (&["play", "chess"], "expected generals, stratego or banqi"),
        (
            &["play", "generals", "--seat", "red"],
            "choose white, black or random",
        ),
        (
            &["play", "stratego", "--vs", "nobody"],
            "unknown bot \"nobody\"",
        ),
        (&["play", "banqi", "--option", "ruleset"], "write key=value"),
        (&["play", "generals", "--option", "reveal=all"], "reveal"),
        (
            &[
                "play",
                "stratego",
                "--option",
                "army=barrage",
                "--option",
                "setup_area=moon",
            ],
            "option setup_area: \"moon\" is not valid; expected one of standard, half, board",
        ),
        (
            &["play", "banqi", "--option", "army=barrage"],
            "unknown option \"army\"",
        ),
    ];
    for (args, want) in cases {
        let (ok, err) = salpakan(args);
        assert!(!ok, "{args:?} fails");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn play_and_replay_need_a_terminal_and_say_so() {
    let (ok, err) = salpakan(&["play", "generals", "--vs", "random"]);
    assert!(!ok);
    assert!(err.contains("interactive terminal"), "{err}");
}

#[test]
fn replay_reports_an_unreadable_or_broken_record() {
    let (ok, err) = salpakan(&["replay", "/nonexistent/game.rec"]);
    assert!(!ok);
    assert!(err.contains("/nonexistent/game.rec"), "{err}");
    let path = std::env::temp_dir().join(format!("salpakan-play-cli-{}.rec", std::process::id()));
    std::fs::write(&path, "[Game \"generals\"]\n\nz9-z10\n*\n").unwrap();
    let (ok, err) = salpakan(&["replay", path.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("WhiteSetup"), "{err}");
    let _ = std::fs::remove_file(path);
}
