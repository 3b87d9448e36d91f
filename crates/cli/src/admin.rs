//! `salpakan admin`: moderators, reports, notes and closing accounts, on the server's
//! database file. It writes the file directly (SQLite allows it while a server runs on the
//! same file); a running server picks each change up within its housekeeping period (10 s
//! by default). See docs/operations.md.

use std::path::Path;

/// What `salpakan admin` does.
#[derive(clap::Subcommand, Debug)]
pub enum AdminCommand {
    /// Make an account a moderator (on) or not (off).
    Moderator {
        /// The account's name.
        name: String,
        /// on or off.
        #[arg(value_parser = ["on", "off"])]
        state: String,
    },
    /// List the reports players filed, oldest first.
    Reports,
    /// Put a moderator's note on an account (replacing its last one; at most 500
    /// characters).
    Mark {
        /// The account's name.
        name: String,
        /// The note.
        text: String,
    },
    /// Close an account: it cannot log in, its sessions and API tokens end, its
    /// connections close.
    Close {
        /// The account's name.
        name: String,
    },
}

/// Runs one admin command on the database `db`.
///
/// # Errors
/// The database cannot be opened (or is missing), or no account has that name.
pub fn run(db: &Path, cmd: &AdminCommand) -> Result<(), String> {
    if !db.exists() {
        return Err(format!(
            "there is no database {}; give the server's file with --db",
            db.display()
        ));
    }
    let e = |e: salpakan_server::Error| format!("admin: {e}");
    match cmd {
        AdminCommand::Moderator { name, state } => {
            let on = state == "on";
            let name = salpakan_server::account::admin::moderator(db, name, on).map_err(e)?;
            println!(
                "{name} is {} a moderator",
                if on { "now" } else { "no longer" }
            );
        }
        AdminCommand::Reports => match salpakan_server::account::admin::reports(db).map_err(e)? {
            Some(lines) if !lines.is_empty() => {
                for l in lines {
                    println!("{l}");
                }
            }
            _ => println!("no reports"),
        },
        AdminCommand::Mark { name, text } => {
            let name = salpakan_server::account::admin::mark(db, name, text).map_err(e)?;
            println!("{name} marked");
        }
        AdminCommand::Close { name } => {
            let name = salpakan_server::account::admin::close(db, name).map_err(e)?;
            println!("{name} closed");
        }
    }
    Ok(())
}
