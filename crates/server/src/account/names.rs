//! Account names: what is allowed, and the key that makes two names the same (case and
//! confusable look-alikes, by the UTS #39 skeleton).

use unicode_security::{MixedScript, skeleton};

use crate::error::{Error, Result};

/// The fewest characters in an account name.
pub const MIN_NAME: usize = 2;
/// The most characters in an account name.
pub const MAX_NAME: usize = 20;

/// Checks an account name: 2 to 20 letters, digits, `_` or `-`, all letters of one script
/// (no `Ana` with a Cyrillic `А`).
///
/// # Errors
/// [`Error::BadRequest`] saying the rule broken.
pub fn check_account_name(name: &str) -> Result<()> {
    let n = name.chars().count();
    if !(MIN_NAME..=MAX_NAME).contains(&n)
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(Error::BadRequest(format!(
            "an account name has {MIN_NAME} to {MAX_NAME} letters, digits, '_' or '-'"
        )));
    }
    if !name.is_single_script() {
        return Err(Error::BadRequest(
            "an account name's letters are all of one script (not Latin mixed with Cyrillic, for example)".into(),
        ));
    }
    Ok(())
}

/// The key two names share when they look alike: the UTS #39 confusable skeleton, in lower
/// case (`Ana`, `ana`, `ANA` and a Cyrillic `АNА` have one key; so do `l0l` and `lol`).
#[must_use]
pub fn name_key(name: &str) -> String {
    // The skeleton first (a Cyrillic capital В is a Latin B, while its small в is a small
    // capital ʙ, not a b), then lower case. Lower-casing a skeleton can give a character
    // with a skeleton of its own: go on until nothing changes (four rounds bound it).
    let mut k = name.to_string();
    for _ in 0..4 {
        let next: String = skeleton(&k).collect::<String>().to_lowercase();
        if next == k {
            break;
        }
        k = next;
    }
    k
}

/// Checks a password: 8 to 128 characters, nothing else required (as OWASP advises).
///
/// # Errors
/// [`Error::BadRequest`] saying the rule.
pub fn check_password(password: &str) -> Result<()> {
    let n = password.chars().count();
    if (8..=128).contains(&n) {
        Ok(())
    } else {
        Err(Error::BadRequest(
            "a password has 8 to 128 characters".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names that differ only by case or by look-alike characters share a key.
    #[test]
    fn case_and_confusables_share_a_key() {
        assert_eq!(name_key("Ana"), name_key("aNA"));
        // Cyrillic А, В, С (one script, so allowed as a name) look like Latin ABC.
        let cyrillic = "\u{410}\u{412}\u{421}";
        assert!(check_account_name(cyrillic).is_ok());
        assert_eq!(name_key(cyrillic), name_key("abc"));
        assert_eq!(name_key("l0l"), name_key("LOL"));
        assert_ne!(name_key("Ana"), name_key("Anna"));
    }

    /// The name rule: length, characters, one script.
    #[test]
    fn names_have_two_to_twenty_letters_digits_underscores_or_dashes_of_one_script() {
        for ok in [
            "ab",
            "Ana_2",
            "x-y",
            "Jośé",
            "三国志",
            "a234567890123456789b",
        ] {
            assert!(check_account_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "a",
            "a b",
            "a.b",
            "a234567890123456789bc",
            "An\u{430}",
            "",
            "a\u{200b}b",
        ] {
            assert!(check_account_name(bad).is_err(), "{bad:?}");
        }
    }

    /// Passwords: 8 to 128 characters, counted as characters, not bytes.
    #[test]
    fn passwords_have_eight_to_128_characters() {
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password(&"é".repeat(128)).is_ok());
        assert!(check_password(&"x".repeat(129)).is_err());
    }
}
