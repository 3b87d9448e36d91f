//! The accounts' rows (migration 1): accounts, their sessions and API tokens, and the
//! changes `salpakan admin` makes to a database a server may be running on.

use rusqlite::{Connection, OptionalExtension, params};

/// A stored account.
#[derive(Clone, Debug)]
pub struct AccountRow {
    /// Its id (a guest who registered keeps its guest id).
    pub id: String,
    /// Its name as registered.
    pub name: String,
    /// The name's key: lower case confusable skeleton (unique among live accounts).
    pub name_key: String,
    /// argon2id PHC string.
    pub password: String,
    /// The secret its seat tokens derive from (a former guest's is its guest token's hash,
    /// so that its seat tokens keep working).
    pub key: String,
    /// When it was created (ms).
    pub created: u64,
    /// When it was last seen (ms; 0 when never recorded).
    pub seen: u64,
    /// A moderator.
    pub moderator: bool,
    /// A built-in bot's account.
    pub bot: bool,
    /// Closed by a moderator: cannot log in.
    pub closed: bool,
    /// A moderator's note on it.
    pub mark: Option<String>,
}

/// A stored login session (the cookie's hash).
#[derive(Clone, Debug)]
pub struct SessionRow {
    /// SHA-256 hex of the cookie's value.
    pub hash: String,
    /// The account.
    pub account: String,
    /// When it was last used (ms).
    pub seen: u64,
}

/// A stored API token.
#[derive(Clone, Debug)]
pub struct TokenRow {
    /// Its public id (to list and revoke it).
    pub id: String,
    /// The account.
    pub account: String,
    /// The name the account gave it.
    pub name: String,
    /// SHA-256 hex of the token.
    pub hash: String,
    /// When it was created (ms).
    pub created: u64,
    /// When it was last used (ms), if ever.
    pub last_used: Option<u64>,
}

/// What the store holds of accounts at start-up.
#[derive(Debug, Default)]
pub struct AccountsLoaded {
    /// Every live account (not deleted).
    pub accounts: Vec<AccountRow>,
    /// Every session.
    pub sessions: Vec<SessionRow>,
    /// Every API token.
    pub tokens: Vec<TokenRow>,
    /// The last change `salpakan admin` made (see [`AccountOp`] and `admin_changes`).
    pub admin_seq: i64,
}

/// One write about accounts.
#[derive(Debug)]
pub enum AccountOp {
    /// A new account; when `from_guest`, the guest of the same id becomes it (its guest
    /// row goes: its token no longer works, its id, games and seat tokens stay).
    Create {
        /// The account.
        row: AccountRow,
        /// It was this guest (the same id).
        from_guest: bool,
    },
    /// A new session.
    Session(SessionRow),
    /// Sessions end: one by hash, or every one of an account but `except`.
    EndSessions {
        /// The account.
        account: String,
        /// One session only (by hash), or all.
        only: Option<String>,
        /// A session that stays (changing one's password keeps this device logged in).
        except: Option<String>,
    },
    /// A new password (and seat-token key).
    Password {
        /// The account.
        account: String,
        /// argon2id PHC string.
        password: String,
        /// The new key.
        key: String,
    },
    /// A new seat-token key (the seat tokens of the account's games change).
    Key {
        /// The account.
        account: String,
        /// The new key.
        key: String,
    },
    /// A new API token.
    Token(TokenRow),
    /// An API token is revoked.
    Revoke {
        /// The account.
        account: String,
        /// The token's id.
        id: String,
    },
    /// An account is deleted: its sessions and tokens go, its name is free again, and its
    /// games show it as `name` (the neutral "deleted player").
    Delete {
        /// The account.
        account: String,
        /// The name its games show from now on.
        name: String,
    },
    /// An account is closed by a moderator: it cannot log in, its sessions and tokens go.
    Close(String),
    /// A moderator's note on an account.
    Mark {
        /// The account.
        account: String,
        /// The note.
        note: String,
    },
    /// The moderator flag.
    Moderator {
        /// The account.
        account: String,
        /// On or off.
        on: bool,
    },
    /// When accounts were last seen and API tokens last used: (id, ms) each.
    Seen {
        /// Accounts.
        accounts: Vec<(String, u64)>,
        /// Sessions (by hash).
        sessions: Vec<(String, u64)>,
        /// API tokens (by id).
        tokens: Vec<(String, u64)>,
    },
}

fn ms(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn unms(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// Reads every live account, session and token.
pub(super) fn load(c: &Connection) -> rusqlite::Result<AccountsLoaded> {
    let accounts = c
        .prepare(
            "SELECT id, name, name_key, password, key, created, seen, moderator, bot, closed, mark
             FROM accounts WHERE deleted=0",
        )?
        .query_map([], account_row)?
        .collect::<rusqlite::Result<_>>()?;
    let sessions = c
        .prepare("SELECT hash, account, seen FROM sessions")?
        .query_map([], |r| {
            Ok(SessionRow {
                hash: r.get(0)?,
                account: r.get(1)?,
                seen: unms(r.get(2)?),
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let tokens = c
        .prepare("SELECT id, account, name, hash, created, last_used FROM api_tokens")?
        .query_map([], |r| {
            Ok(TokenRow {
                id: r.get(0)?,
                account: r.get(1)?,
                name: r.get(2)?,
                hash: r.get(3)?,
                created: unms(r.get(4)?),
                last_used: r.get::<_, Option<i64>>(5)?.map(unms),
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(AccountsLoaded {
        accounts,
        sessions,
        tokens,
        admin_seq: admin_seq(c)?,
    })
}

fn account_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<AccountRow> {
    Ok(AccountRow {
        id: r.get(0)?,
        name: r.get(1)?,
        name_key: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
        password: r.get(3)?,
        key: r.get(4)?,
        created: unms(r.get(5)?),
        seen: unms(r.get(6)?),
        moderator: r.get::<_, i64>(7)? != 0,
        bot: r.get::<_, i64>(8)? != 0,
        closed: r.get::<_, i64>(9)? != 0,
        mark: r.get(10)?,
    })
}

/// The last change `salpakan admin` made.
pub(super) fn admin_seq(c: &Connection) -> rusqlite::Result<i64> {
    c.query_row("SELECT COALESCE(MAX(seq), 0) FROM admin_changes", [], |r| {
        r.get(0)
    })
}

/// The accounts `salpakan admin` changed after `seq`, as they are now (a deleted one is
/// left out), with the last change's number.
pub(super) fn admin_changes(c: &Connection, seq: i64) -> rusqlite::Result<(Vec<AccountRow>, i64)> {
    let ids: Vec<(i64, String)> = c
        .prepare_cached("SELECT seq, account FROM admin_changes WHERE seq > ?1 ORDER BY seq")?
        .query_map([seq], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let last = ids.last().map_or(seq, |x| x.0);
    let mut q = c.prepare_cached(
        "SELECT id, name, name_key, password, key, created, seen, moderator, bot, closed, mark
         FROM accounts WHERE id=?1 AND deleted=0",
    )?;
    let mut rows = Vec::new();
    for (_, id) in ids {
        if let Some(row) = q.query_row([&id], account_row).optional()? {
            rows.push(row);
        }
    }
    Ok((rows, last))
}

/// Applies one write (inside the writer's transaction).
pub(super) fn apply(c: &Connection, op: &AccountOp) -> rusqlite::Result<()> {
    match op {
        AccountOp::Create { row, from_guest } => {
            c.prepare_cached(
                "INSERT INTO accounts (id, name, name_key, password, key, created, seen,
                   moderator, bot, closed, mark)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?
            .execute(params![
                row.id,
                row.name,
                row.name_key,
                row.password,
                row.key,
                ms(row.created),
                ms(row.seen),
                i64::from(row.moderator),
                i64::from(row.bot),
                i64::from(row.closed),
                row.mark
            ])?;
            if *from_guest {
                c.prepare_cached("DELETE FROM guests WHERE id=?1")?
                    .execute([&row.id])?;
            }
        }
        AccountOp::Session(s) => {
            c.prepare_cached(
                "INSERT INTO sessions (hash, account, created, seen) VALUES (?1, ?2, ?3, ?3)",
            )?
            .execute(params![s.hash, s.account, ms(s.seen)])?;
        }
        AccountOp::EndSessions {
            account,
            only,
            except,
        } => {
            c.prepare_cached(
                "DELETE FROM sessions WHERE account=?1 AND (?2 IS NULL OR hash=?2)
                   AND (?3 IS NULL OR hash<>?3)",
            )?
            .execute(params![account, only, except])?;
        }
        AccountOp::Password {
            account,
            password,
            key,
        } => {
            c.prepare_cached("UPDATE accounts SET password=?2, key=?3 WHERE id=?1")?
                .execute(params![account, password, key])?;
        }
        AccountOp::Key { account, key } => {
            c.prepare_cached("UPDATE accounts SET key=?2 WHERE id=?1")?
                .execute(params![account, key])?;
        }
        AccountOp::Token(t) => {
            c.prepare_cached(
                "INSERT INTO api_tokens (id, account, name, hash, created, last_used)
                 VALUES (?1, ?2, ?3, ?4, ?5, NULL)",
            )?
            .execute(params![t.id, t.account, t.name, t.hash, ms(t.created)])?;
        }
        AccountOp::Revoke { account, id } => {
            c.prepare_cached("DELETE FROM api_tokens WHERE id=?1 AND account=?2")?
                .execute(params![id, account])?;
        }
        AccountOp::Delete { account, name } => {
            end_all(c, account)?;
            c.prepare_cached(
                "UPDATE accounts SET deleted=1, name=?2, name_key=NULL, password='', mark=NULL,
                   moderator=0 WHERE id=?1",
            )?
            .execute(params![account, name])?;
            rename_in_games(c, account, name)?;
        }
        AccountOp::Close(account) => {
            end_all(c, account)?;
            c.prepare_cached("UPDATE accounts SET closed=1 WHERE id=?1")?
                .execute([account])?;
        }
        AccountOp::Mark { account, note } => {
            c.prepare_cached("UPDATE accounts SET mark=?2 WHERE id=?1")?
                .execute(params![account, note])?;
        }
        AccountOp::Moderator { account, on } => {
            c.prepare_cached("UPDATE accounts SET moderator=?2 WHERE id=?1")?
                .execute(params![account, i64::from(*on)])?;
        }
        AccountOp::Seen {
            accounts,
            sessions,
            tokens,
        } => {
            let mut q = c.prepare_cached("UPDATE accounts SET seen=?2 WHERE id=?1")?;
            for (id, at) in accounts {
                q.execute(params![id, ms(*at)])?;
            }
            let mut q = c.prepare_cached("UPDATE sessions SET seen=?2 WHERE hash=?1")?;
            for (h, at) in sessions {
                q.execute(params![h, ms(*at)])?;
            }
            let mut q = c.prepare_cached("UPDATE api_tokens SET last_used=?2 WHERE id=?1")?;
            for (id, at) in tokens {
                q.execute(params![id, ms(*at)])?;
            }
        }
    }
    Ok(())
}

/// Ends every session and API token of `account`.
fn end_all(c: &Connection, account: &str) -> rusqlite::Result<()> {
    c.prepare_cached("DELETE FROM sessions WHERE account=?1")?
        .execute([account])?;
    c.prepare_cached("DELETE FROM api_tokens WHERE account=?1")?
        .execute([account])?;
    Ok(())
}

/// Every stored game where `account` sits shows it as `name` from now on.
fn rename_in_games(c: &Connection, account: &str, name: &str) -> rusqlite::Result<()> {
    let pattern = format!("%\"user\":{}%", serde_json::Value::from(account));
    let games: Vec<(String, String)> = c
        .prepare_cached("SELECT id, players FROM games WHERE players LIKE ?1")?
        .query_map([&pattern], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut q = c.prepare_cached("UPDATE games SET players=?2 WHERE id=?1")?;
    for (id, players) in games {
        let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&players) else {
            continue;
        };
        let mut changed = false;
        if let Some(seats) = v.as_array_mut() {
            for p in seats {
                if p["user"] == account {
                    p["name"] = name.into();
                    changed = true;
                }
            }
        }
        if changed {
            q.execute(params![id, v.to_string()])?;
        }
    }
    Ok(())
}

/// One stored report as (column, value) pairs.
pub type ReportRow = Vec<(String, rusqlite::types::Value)>;

/// For `salpakan admin`: applies `ops(id)` to the live account named by key `key`, and
/// records the change for a running server to pick up, in one transaction. Returns the
/// account's id and name, or none when there is no such account.
pub(super) fn admin_change(
    c: &mut Connection,
    key: &str,
    now: u64,
    ops: impl Fn(&str) -> Vec<AccountOp>,
) -> rusqlite::Result<Option<(String, String)>> {
    let t = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let found: Option<(String, String)> = t
        .query_row(
            "SELECT id, name FROM accounts WHERE name_key=?1 AND deleted=0",
            [key],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((id, name)) = found else {
        return Ok(None);
    };
    for op in ops(&id) {
        apply(&t, &op)?;
    }
    t.execute(
        "INSERT INTO admin_changes (account, at) VALUES (?1, ?2)",
        params![id, ms(now)],
    )?;
    t.commit()?;
    Ok(Some((id, name)))
}

/// For `salpakan admin reports`: every row of the `reports` table (made by a later
/// migration), oldest first, as column-value pairs; none when the table does not exist.
pub(super) fn all_reports(c: &Connection) -> rusqlite::Result<Option<Vec<ReportRow>>> {
    let exists: i64 = c.query_row(
        "SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name='reports'",
        [],
        |r| r.get(0),
    )?;
    if exists == 0 {
        return Ok(None);
    }
    let mut q = c.prepare("SELECT * FROM reports ORDER BY rowid")?;
    let names: Vec<String> = q.column_names().iter().map(|s| (*s).to_string()).collect();
    let rows = q
        .query_map([], |r| {
            names
                .iter()
                .enumerate()
                .map(|(i, n)| Ok((n.clone(), r.get::<_, rusqlite::types::Value>(i)?)))
                .collect::<rusqlite::Result<Vec<_>>>()
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(Some(rows))
}
