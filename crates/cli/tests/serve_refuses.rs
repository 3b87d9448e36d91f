//! `salpakan serve` refuses to start rather than serve badly: a database it cannot write,
//! or a limit out of its range, stops it at once with a message saying what to fix.

use std::process::Command;
use std::time::Duration;

fn serve(args: &[&str]) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_salpakan"))
        .arg("serve")
        .args(args)
        .env("SALPAKAN_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("salpakan starts");
    // A server that does start is stopped after a moment (the test then fails).
    for _ in 0..100 {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    if child.try_wait().unwrap().is_none() {
        let _ = child.kill();
    }
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn a_read_only_database_stops_the_server_at_start_with_a_clear_message() {
    let dir = std::env::temp_dir().join(format!("salpakan-rodb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("ro.db");
    // A database, closed cleanly (no WAL left beside it)...
    let rt = tokio::runtime::Runtime::new().unwrap();
    let app = rt
        .block_on(async { salpakan_server::App::start(&db, salpakan_server::Config::default()) })
        .unwrap();
    drop(app);
    drop(rt);
    let wal = dir.join("ro.db-wal");
    for _ in 0..100 {
        if !wal.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // ...that SQLite may read but not write (its header's write version is 3; a file
    // without write permission does the same for a user other than root).
    let mut bytes = std::fs::read(&db).unwrap();
    bytes[18] = 3;
    std::fs::write(&db, bytes).unwrap();
    let (ok, text) = serve(&["--addr", "127.0.0.1:0", "--db", db.to_str().unwrap()]);
    assert!(!ok, "{text}");
    assert!(!text.contains("listening"), "{text}");
    assert!(
        text.contains("ro.db") && text.contains("writable"),
        "the message names the file and what to check: {text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_serve_limit_out_of_range_stops_the_server_with_the_flag_named() {
    let dir = std::env::temp_dir().join(format!("salpakan-badflag-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("x.db");
    for (flag, value) in [
        ("--max-conns-per-ip", "0"),
        ("--idle-timeout", "0"),
        ("--max-message", "5"),
    ] {
        let (ok, text) = serve(&[
            "--addr",
            "127.0.0.1:0",
            "--db",
            db.to_str().unwrap(),
            flag,
            value,
        ]);
        assert!(!ok && text.contains(flag), "{flag} {value}: {text}");
        assert!(!text.contains("panicked"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
