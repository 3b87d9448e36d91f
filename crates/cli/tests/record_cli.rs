//! `salpakan record check` and `record verify`, run as a user would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn salpakan(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_salpakan"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A finished game's full record, made through the arbiter protocol by always playing the
/// last legal move.
fn finished_record(seed: u64) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_salpakan"))
        .arg("arbiter")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut ask = |req: String| -> serde_json::Value {
        use std::io::BufRead;
        writeln!(stdin, "{req}").unwrap();
        let mut l = String::new();
        stdout.read_line(&mut l).unwrap();
        serde_json::from_str(&l).unwrap()
    };
    ask(format!(
        "{{\"op\":\"new\",\"game\":\"generals\",\"seed\":{seed},\"options\":{{\"max_quiet_plies\":40}}}}"
    ));
    loop {
        let legal = ask("{\"op\":\"legal\"}".into());
        let Some(mv) = legal["moves"].as_array().and_then(|m| m.last()).cloned() else {
            break;
        };
        let r = ask(format!("{{\"op\":\"play\",\"move\":{mv}}}"));
        if !r["result"].is_null() {
            break;
        }
    }
    let rec = ask("{\"op\":\"record\"}".into())["record"]
        .as_str()
        .unwrap()
        .to_string();
    let _ = child.kill();
    let _ = child.wait();
    rec
}

fn write_temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("salpakan-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn record_check_prints_the_result_of_a_good_record() {
    let rec = finished_record(3);
    let p = write_temp("good.rec", &rec);
    let out = salpakan(&["record", "check", p.to_str().unwrap()], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains(": ok: ") && stdout.contains("generals"),
        "{stdout}"
    );
    let out = salpakan(&["record", "verify", p.to_str().unwrap()], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("2 commitment(s) verified (WhiteSetup, BlackSetup)"),
        "{stdout}"
    );
}

#[test]
fn record_check_names_the_first_illegal_move_and_fails() {
    let rec = finished_record(4);
    // Replace the 3rd ply with a move that cannot be legal.
    let mut r = salpakan_engine::Record::parse(&rec).unwrap();
    r.plies[2] = "a1-c3".into();
    let p = write_temp("bad.rec", &r.to_text());
    let out = salpakan(&["record", "check", p.to_str().unwrap()], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(stdout.contains("FAILED: ply 3 (a1-c3)"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 1 record(s) failed"));
}

#[test]
fn record_verify_catches_a_changed_salt() {
    let rec = finished_record(5);
    let mut r = salpakan_engine::Record::parse(&rec).unwrap();
    let salt = r.tag("BlackSetupSalt").unwrap().to_string();
    let changed = if salt.starts_with('0') {
        salt.replacen('0', "1", 1)
    } else {
        format!("0{}", &salt[1..])
    };
    r.set_tag("BlackSetupSalt", changed);
    let p = write_temp("tampered.rec", &r.to_text());
    let ok = salpakan(&["record", "check", p.to_str().unwrap()], "");
    assert!(ok.status.success(), "the moves still replay");
    let out = salpakan(&["record", "verify", p.to_str().unwrap()], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(stdout.contains("commitment BlackSetup"), "{stdout}");
}

#[test]
fn record_check_explains_unreadable_files_and_seat_copies() {
    let out = salpakan(&["record", "check", "/nonexistent/game.rec"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("cannot read"));
    let p = write_temp("garbage.rec", "hello world\n");
    let out = salpakan(&["record", "check", p.to_str().unwrap()], "");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("FAILED: line"),
        "{:?}",
        out
    );
}
