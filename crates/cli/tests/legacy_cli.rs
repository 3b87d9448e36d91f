//! Round trips: `salpakan bot --protocol ucc|ntu` (a salpakan bot speaking an old protocol)
//! against the arena's `ucc:"..."` and `ntu:"..."` hosts (salpakan refereeing an old
//! program), so each side of each protocol is checked by the other.

use std::io::Write;
use std::process::{Command, Stdio};

const SALPAKAN: &str = env!("CARGO_BIN_EXE_salpakan");

struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn arena(game: &str, bots: &str, options: &str) -> String {
    let dir = TempDir(
        std::env::temp_dir().join(format!("salpakan-legacy-cli-{game}-{}", std::process::id())),
    );
    let out = Command::new(SALPAKAN)
        .args([
            "arena", "--game", game, "--bots", bots, "--games", "2", "--quiet",
        ])
        .args(["--options", options, "--records"])
        .arg(&dir.0)
        .output()
        .expect("salpakan runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn clean_refereeing(text: &str) {
    assert!(!text.contains("forfeits"), "{text}");
    let line = text
        .lines()
        .find(|l| (l.starts_with("ucc:") || l.starts_with("ntu:")) && l.contains("refusals"))
        .unwrap_or_else(|| panic!("no refereeing line in {text}"));
    assert!(
        line.contains("illegal moves 0, malformed lines 0, time-outs 0, crashes 0"),
        "{line}"
    );
}

#[test]
fn salpakan_bot_speaking_ucc_plays_whole_games_under_the_arenas_ucc_referee() {
    let bots = format!("ucc:\"{SALPAKAN} bot --protocol ucc --bot random --seed 3\",random");
    let text = arena("stratego", &bots, "{\"max_quiet_plies\":60}");
    clean_refereeing(&text);
}

#[test]
fn salpakan_bot_speaking_ntu_plays_whole_games_under_the_arenas_ntu_referee() {
    let bots = format!("ntu:\"{SALPAKAN} bot --protocol ntu --bot greedy --seed 3\",random");
    let text = arena(
        "banqi",
        &bots,
        "{\"max_quiet_plies\":60,\"repetition\":\"cycle\"}",
    );
    clean_refereeing(&text);
}

#[test]
fn bot_protocol_answers_the_ucc_setup_with_a_full_army_in_its_own_rows() {
    let mut child = Command::new(SALPAKAN)
        .args(["bot", "--protocol", "ucc", "--bot", "random", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("salpakan runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"BLUE someone 10 10\nQUIT\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 4, "{text}");
    let mut tokens: Vec<char> = rows.concat().chars().collect();
    tokens.sort_unstable();
    let mut army: Vec<char> = "12334445555666677778888899999999sBBBBBBF".chars().collect();
    army.sort_unstable();
    assert_eq!(tokens, army);
}

#[test]
fn bot_protocol_refuses_an_unknown_protocol_or_an_external_bot() {
    for (args, want) in [
        (
            ["bot", "--protocol", "uci", "--bot", "random"],
            "choose ucc",
        ),
        (
            ["bot", "--protocol", "ucc", "--bot", "cmd:\"x\""],
            "built-in bot",
        ),
    ] {
        let out = Command::new(SALPAKAN)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{err}");
    }
}
