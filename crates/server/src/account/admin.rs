//! `salpakan admin`: moderator flags, reports, notes and closing accounts, written straight
//! into the database. A server running on the same file picks each change up within its
//! housekeeping period (`--sweep`, 10 s by default): `admin_changes` records which account
//! changed, and the server reads it again.

use std::path::Path;

use crate::error::Result;
use crate::identity::random_hex;
use crate::store::{AccountOp, admin_change, admin_reports};

/// Sets (`on`) or clears the moderator flag of the account `name`; returns its name as
/// registered.
///
/// # Errors
/// No such account, or the database cannot be opened or written.
pub fn moderator(db: &Path, name: &str, on: bool) -> Result<String> {
    let (_, name) = admin_change(db, name, |id| {
        vec![AccountOp::Moderator {
            account: id.to_string(),
            on,
        }]
    })?;
    Ok(name)
}

/// Sets a moderator's note on the account `name` (at most 500 characters); returns its
/// name as registered.
///
/// # Errors
/// A note too long, no such account, or the database cannot be opened or written.
pub fn mark(db: &Path, name: &str, note: &str) -> Result<String> {
    if note.chars().count() > 500 {
        return Err(crate::Error::BadRequest(
            "a note has at most 500 characters".into(),
        ));
    }
    let (_, name) = admin_change(db, name, |id| {
        vec![AccountOp::Mark {
            account: id.to_string(),
            note: note.to_string(),
        }]
    })?;
    Ok(name)
}

/// Closes the account `name`: it cannot log in, its sessions and API tokens end, its seat
/// tokens change (a running server also closes its connections); returns its name as
/// registered.
///
/// # Errors
/// No such account, or the database cannot be opened or written.
pub fn close(db: &Path, name: &str) -> Result<String> {
    let key = random_hex(24);
    let (_, name) = admin_change(db, name, |id| {
        vec![
            AccountOp::Close(id.to_string()),
            AccountOp::Key {
                account: id.to_string(),
                key: key.clone(),
            },
        ]
    })?;
    Ok(name)
}

/// Every report players filed (oldest first), one line each as `column=value` pairs; none
/// when the database has no reports yet (no reports table).
///
/// # Errors
/// The database cannot be opened or read.
pub fn reports(db: &Path) -> Result<Option<Vec<String>>> {
    use rusqlite::types::Value;
    let Some(rows) = admin_reports(db)? else {
        return Ok(None);
    };
    Ok(Some(
        rows.into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|(k, v)| {
                        let v = match v {
                            Value::Null => "null".to_string(),
                            Value::Integer(i) => i.to_string(),
                            Value::Real(f) => f.to_string(),
                            Value::Text(t) => serde_json::Value::from(t).to_string(),
                            Value::Blob(b) => format!("<{} bytes>", b.len()),
                        };
                        format!("{k}={v}")
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect(),
    ))
}
