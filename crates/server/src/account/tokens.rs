//! Named API tokens: listed, created (shown once) and revoked.

use super::*;

impl Accounts {
    /// `account`'s API tokens (never the tokens themselves), oldest first.
    #[must_use]
    pub fn tokens(&self, account: &str) -> Vec<Value> {
        let st = self.state();
        let mut list: Vec<&TokenRow> = st
            .tokens
            .values()
            .map(|t| &t.row)
            .filter(|t| t.account == account)
            .collect();
        list.sort_by(|a, b| a.created.cmp(&b.created).then(a.id.cmp(&b.id)));
        list.iter()
            .map(|t| json!({"id": t.id, "name": t.name, "created": t.created, "last_used": t.last_used}))
            .collect()
    }

    /// A new API token for `account` named `name`: its id and the token (shown once).
    ///
    /// # Errors
    /// A bad name (400), too many tokens (409), a storage failure.
    pub async fn create_token(&self, account: &str, name: &str) -> Result<(String, String)> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
            return Err(Error::BadRequest(
                "a token's name has 1 to 40 characters".into(),
            ));
        }
        let held = self
            .state()
            .tokens
            .values()
            .filter(|t| t.row.account == account)
            .count();
        if held >= MAX_TOKENS {
            return Err(Error::Rejected(format!(
                "an account holds at most {MAX_TOKENS} API tokens; revoke one first"
            )));
        }
        let token = random_hex(24);
        let row = TokenRow {
            id: random_hex(8),
            account: account.to_string(),
            name: name.to_string(),
            hash: token_hash(&token),
            created: unix_ms(),
            last_used: None,
        };
        self.store
            .write(vec![Op::Account(AccountOp::Token(row.clone()))])
            .await?;
        let id = row.id.clone();
        self.state().tokens.insert(
            row.hash.clone(),
            Tok {
                row,
                stored_used: None,
            },
        );
        Ok((id, token))
    }

    /// Revokes `account`'s API token `id`.
    ///
    /// # Errors
    /// No such token of this account (404), a storage failure.
    pub async fn revoke_token(&self, account: &str, id: &str) -> Result<()> {
        let hash = self
            .state()
            .tokens
            .iter()
            .find(|(_, t)| t.row.id == id && t.row.account == account)
            .map(|(h, _)| h.clone())
            .ok_or_else(|| Error::NotFound("you have no API token with that id".into()))?;
        self.store
            .write(vec![Op::Account(AccountOp::Revoke {
                account: account.to_string(),
                id: id.to_string(),
            })])
            .await?;
        self.state().tokens.remove(&hash);
        Ok(())
    }
}
