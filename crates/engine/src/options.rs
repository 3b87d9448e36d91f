//! Named game options: parsed once at the edge, trusted inside.
//!
//! Every option has a canonical text value, so that options round-trip through JSON
//! requests, record tags (`[Options "flag_rule=adjacent reveal=none"]`) and command lines.

use std::fmt::Debug;

/// Why a set of options was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// The option name is not one this game knows.
    #[error("unknown option {key:?}; this game's options are: {known}")]
    Unknown {
        /// The name given.
        key: String,
        /// The options the game knows, comma-separated.
        known: String,
    },
    /// The value does not fit the option.
    #[error("option {key}: {value:?} is not valid; expected {expected}")]
    BadValue {
        /// The option.
        key: String,
        /// The value given.
        value: String,
        /// What the option accepts.
        expected: String,
    },
    /// The options contradict each other or the game.
    #[error("{0}")]
    Inconsistent(String),
}

/// A game's options. Every field combination a value can hold is valid; invalid text never
/// becomes a value.
///
/// ```
/// use salpakan_engine::generals::{FlagRule, GeneralsOptions};
/// use salpakan_engine::{GameOptions, OptionError};
///
/// let o = GeneralsOptions::from_text("flag_rule=one_turn max_quiet_plies=200")?;
/// assert_eq!(o.flag_rule, FlagRule::OneTurn);
/// assert_eq!(o.max_quiet_plies, Some(200));
/// // One canonical form: every option, written the same way in records and protocols.
/// assert_eq!(GeneralsOptions::from_text(&o.to_text())?, o);
/// assert_eq!(o.to_json()["max_quiet_plies"], 200);
/// assert_eq!(GeneralsOptions::from_json(&serde_json::json!({"flag_rule": "one_turn", "max_quiet_plies": 200}))?, o);
/// // Bad input is refused with what to write instead.
/// let e = GeneralsOptions::from_text("flag_rule=never").unwrap_err();
/// assert_eq!(e.to_string(), "option flag_rule: \"never\" is not valid; expected one of adjacent, one_turn, electronic");
/// # Ok::<(), OptionError>(())
/// ```
pub trait GameOptions: Clone + Debug + Default + PartialEq + Send + Sync + 'static {
    /// Sets one option from its text value.
    ///
    /// # Errors
    /// [`OptionError::Unknown`] for an unknown key, [`OptionError::BadValue`] for a bad value.
    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError>;

    /// Every option with its canonical text value, in a fixed order.
    fn pairs(&self) -> Vec<(&'static str, String)>;

    /// Checks the options together once all are set (default: nothing to check).
    ///
    /// # Errors
    /// [`OptionError::Inconsistent`] when options contradict each other.
    fn validate(&self) -> Result<(), OptionError> {
        Ok(())
    }

    /// Parses `key=value` pairs over the defaults.
    ///
    /// # Errors
    /// The first bad option.
    fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, OptionError> {
        let mut o = Self::default();
        for (k, v) in pairs {
            o.set(k, v)?;
        }
        o.validate()?;
        Ok(o)
    }

    /// Parses the canonical text form: space-separated `key=value` pairs.
    ///
    /// # Errors
    /// A pair without `=`, or the first bad option.
    fn from_text(text: &str) -> Result<Self, OptionError> {
        let pairs = text
            .split_whitespace()
            .map(split_key_value)
            .collect::<Result<Vec<_>, _>>()?;
        Self::from_pairs(pairs)
    }

    /// Parses a JSON object of options (`{"flag_rule":"adjacent","max_quiet_plies":200}`).
    /// Strings, numbers and booleans are accepted; `null` means "off".
    ///
    /// # Errors
    /// A value of another JSON type, or the first bad option.
    fn from_json(value: &serde_json::Value) -> Result<Self, OptionError> {
        let obj = match value {
            serde_json::Value::Null => return Ok(Self::default()),
            serde_json::Value::Object(m) => m,
            _ => {
                return Err(OptionError::Inconsistent(
                    "options must be a JSON object such as {\"flag_rule\":\"adjacent\"}".into(),
                ));
            }
        };
        let mut texts = Vec::with_capacity(obj.len());
        for (k, v) in obj {
            let t = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Bool(b) => b.to_string(),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Null => "off".to_string(),
                other => {
                    return Err(OptionError::BadValue {
                        key: k.clone(),
                        value: other.to_string(),
                        expected: "a string, number or boolean".into(),
                    });
                }
            };
            texts.push((k.as_str(), t));
        }
        Self::from_pairs(texts.iter().map(|(k, v)| (*k, v.as_str())))
    }

    /// The canonical text form: every option as `key=value`, space-separated.
    fn to_text(&self) -> String {
        self.pairs()
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The options as a JSON object of canonical text values.
    fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Object(
            self.pairs()
                .into_iter()
                .map(|(k, v)| {
                    let j = if v == "true" {
                        serde_json::Value::Bool(true)
                    } else if v == "false" {
                        serde_json::Value::Bool(false)
                    } else if let Ok(n) = v.parse::<u64>() {
                        serde_json::Value::from(n)
                    } else {
                        serde_json::Value::String(v)
                    };
                    (k.to_string(), j)
                })
                .collect(),
        )
    }
}

/// Splits one `key=value` word at its first `=`.
///
/// # Errors
/// [`OptionError::Inconsistent`] for a word without `=`.
pub(crate) fn split_key_value(word: &str) -> Result<(&str, &str), OptionError> {
    word.split_once('=').ok_or_else(|| {
        OptionError::Inconsistent(format!(
            "option {word:?}: write key=value, e.g. max_quiet_plies=200"
        ))
    })
}

/// Parses a boolean option value (`true`/`false`, `on`/`off`, `yes`/`no`, `1`/`0`).
///
/// # Errors
/// [`OptionError::BadValue`] for anything else.
pub fn parse_bool(key: &str, value: &str) -> Result<bool, OptionError> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => Err(OptionError::BadValue {
            key: key.into(),
            value: value.into(),
            expected: "true or false".into(),
        }),
    }
}

/// Parses an optional limit: a positive whole number, or `off` (also `none`, `0`) for no limit.
///
/// # Errors
/// [`OptionError::BadValue`] for anything else.
pub fn parse_limit(key: &str, value: &str) -> Result<Option<u32>, OptionError> {
    match value.to_ascii_lowercase().as_str() {
        "off" | "none" | "0" | "false" => Ok(None),
        // Any spelling of zero (`00`, `+0`) is off too, so that every value has one
        // canonical text (`0` and `off` read back as off, never as a limit of 0).
        v => v
            .parse::<u32>()
            .map(|n| (n != 0).then_some(n))
            .map_err(|_| OptionError::BadValue {
                key: key.into(),
                value: value.into(),
                expected: "a positive whole number, or off".into(),
            }),
    }
}

/// Writes an optional limit as its canonical text.
#[must_use]
pub fn limit_text(limit: Option<u32>) -> String {
    limit.map_or_else(|| "off".to_string(), |n| n.to_string())
}

/// Parses one of a fixed set of names.
///
/// # Errors
/// [`OptionError::BadValue`] listing the names.
pub fn parse_choice<T: Copy>(
    key: &str,
    value: &str,
    choices: &[(&str, T)],
) -> Result<T, OptionError> {
    choices
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(value))
        .map(|(_, v)| *v)
        .ok_or_else(|| OptionError::BadValue {
            key: key.into(),
            value: value.into(),
            expected: format!(
                "one of {}",
                choices
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}

/// The error for an unknown option key, listing the known ones.
#[must_use]
pub fn unknown_option(key: &str, known: &[&str]) -> OptionError {
    OptionError::Unknown {
        key: key.into(),
        known: known.join(", "),
    }
}
