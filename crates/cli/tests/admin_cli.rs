//! `salpakan admin` on the database of a running server: the change is written at once and
//! the server picks it up; an unknown name or a missing database is an error that says so
//! and changes nothing.

use std::process::Command;

fn admin(db: &std::path::Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_salpakan"))
        .args(["admin", "--db", db.to_str().unwrap()])
        .args(args)
        .output()
        .expect("salpakan runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn admin_commands_change_a_running_servers_accounts_and_refuse_unknown_names() {
    let dir = std::env::temp_dir().join(format!("salpakan-admin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("admin.db");
    let (ok, text) = admin(&dir.join("missing.db"), &["reports"]);
    assert!(!ok && text.contains("there is no database"), "{text}");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let app = rt
        .block_on(async { salpakan_server::App::start(&db, salpakan_server::Config::default()) })
        .unwrap();
    let (ana, _) = rt
        .block_on(
            app.accounts
                .register("Ana", "correct horse", None, [127, 0, 0, 1].into()),
        )
        .unwrap();
    let (ok, text) = admin(&db, &["moderator", "ana", "on"]);
    assert!(ok, "{text}");
    assert_eq!(text.trim(), "Ana is now a moderator");
    let (ok, text) = admin(&db, &["mark", "ANA", "a note"]);
    assert!(ok, "{text}");
    let (ok, text) = admin(&db, &["close", "Nobody"]);
    assert!(
        !ok && text.contains("there is no account named \"Nobody\""),
        "{text}"
    );
    let (ok, text) = admin(&db, &["reports"]);
    assert!(ok, "{text}");
    // The running server takes the changes at its next housekeeping pass.
    assert!(!app.accounts.is_moderator(&ana.id));
    rt.block_on(app.expire_guests());
    assert!(app.accounts.is_moderator(&ana.id));
    assert_eq!(
        app.accounts.info(&ana.id).unwrap().mark.as_deref(),
        Some("a note")
    );
    let (ok, text) = admin(&db, &["moderator", "Ana", "off"]);
    assert!(ok && text.contains("no longer"), "{text}");
    rt.block_on(app.expire_guests());
    assert!(!app.accounts.is_moderator(&ana.id));
    drop(app);
    drop(rt);
    let _ = std::fs::remove_dir_all(&dir);
}
