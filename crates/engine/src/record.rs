//! The text record format: tags, movetext, result (see `docs/records.md`).
//!
//! This module handles the syntax only; [`crate::Match`] writes records of games and
//! replays them.

use std::fmt::Write as _;

/// Why a record was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The text is not a record.
    #[error("line {line}: {message}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A required tag is missing.
    #[error("the record has no [{0} \"...\"] tag")]
    MissingTag(String),
    /// A tag's value is not valid.
    #[error("tag [{tag}]: {message}")]
    BadTag {
        /// The tag.
        tag: String,
        /// What is wrong.
        message: String,
    },
    /// The record is a seat's copy, which lacks the hidden state needed to replay it.
    #[error(
        "this is {0}'s copy of the game, which holds only what that seat knew; only the full record (Copy \"full\") can be replayed"
    )]
    SeatCopy(String),
    /// A move in the record could not be played.
    #[error("ply {ply} ({token}): {error}")]
    IllegalMove {
        /// 1-based ply number.
        ply: usize,
        /// The token as written.
        token: String,
        /// Why it could not be played.
        error: crate::PlayError,
    },
    /// The record's annotation of a ply disagrees with what the replay produced.
    #[error("ply {ply}: the record says {recorded} but replaying the setups gives {replayed}")]
    AnnotationMismatch {
        /// 1-based ply number.
        ply: usize,
        /// The token in the record.
        recorded: String,
        /// The token the replay produced.
        replayed: String,
    },
    /// The recorded result disagrees with the replay.
    #[error("the record's result is {recorded} but the replay gives {replayed}")]
    ResultMismatch {
        /// What the record says.
        recorded: String,
        /// What the replay gives.
        replayed: String,
    },
    /// A commitment does not match the revealed hidden state and salt.
    #[error(
        "commitment {part}: the revealed {part} and salt hash to {computed}, not the committed {committed}: the hidden state was changed after the game started"
    )]
    Commitment {
        /// The hidden part.
        part: String,
        /// The published commitment.
        committed: String,
        /// The recomputed hash.
        computed: String,
    },
    /// A setup or deal in the record is invalid.
    #[error("{0}")]
    Setup(#[from] crate::SetupError),
    /// The options in the record are invalid.
    #[error("{0}")]
    Options(#[from] crate::OptionError),
}

/// A parsed record: tags in order, movetext tokens, and the result token.
///
/// ```
/// use salpakan_engine::{Record, RecordError};
///
/// let text = "[Game \"generals\"]\n[White \"Ana\"]\n\n1. a3-a4 b6-b5 2. a4-a5{>} 1-0\n";
/// let r = Record::parse(text)?;
/// assert_eq!(r.tag("White"), Some("Ana"));
/// assert_eq!(r.plies, ["a3-a4", "b6-b5", "a4-a5{>}"]);
/// assert_eq!(r.result, "1-0");
/// // Writing and parsing again gives the same record.
/// assert_eq!(Record::parse(&r.to_text())?, r);
/// // A syntax error names its line.
/// let e = Record::parse("[Game \"generals\"]\n\n1. a3-a4\n[Late \"tag\"]\n").unwrap_err();
/// assert!(matches!(e, RecordError::Syntax { line: 4, .. }));
/// # Ok::<(), RecordError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// `[Name "value"]` tags in the order written.
    pub tags: Vec<(String, String)>,
    /// One token per ply, as written (`e3-e4`, `e3-e4{>}`, `c3{K}`).
    pub plies: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl Record {
    /// The value of tag `name`.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of tag `name`, or [`RecordError::MissingTag`].
    ///
    /// # Errors
    /// When the tag is missing.
    pub fn require(&self, name: &str) -> Result<&str, RecordError> {
        self.tag(name)
            .ok_or_else(|| RecordError::MissingTag(name.to_string()))
    }

    /// Sets tag `name`, replacing an earlier value or appending.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        if let Some(t) = self.tags.iter_mut().find(|(k, _)| k == name) {
            t.1 = value;
        } else {
            self.tags.push((name.to_string(), value));
        }
    }

    /// Parses a record.
    ///
    /// # Errors
    /// [`RecordError::Syntax`] naming the line.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut rec = Record::default();
        let mut in_moves = false;
        let mut result = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let n = i + 1;
            let syntax = |m: String| RecordError::Syntax {
                line: n,
                message: m,
            };
            if line.is_empty() || line.starts_with(';') {
                continue;
            }
            if line.starts_with('[') {
                if in_moves {
                    return Err(syntax(
                        "a tag after the moves began; tags come first".into(),
                    ));
                }
                let (name, value) = parse_tag(line).map_err(syntax)?;
                if rec.tag(&name).is_some() {
                    return Err(syntax(format!("tag [{name}] appears twice")));
                }
                rec.tags.push((name, value));
                continue;
            }
            in_moves = true;
            for word in line.split_whitespace() {
                if result.is_some() {
                    return Err(syntax(format!(
                        "{word:?} after the result; the result ends the record"
                    )));
                }
                if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    result = Some(word.to_string());
                } else if is_move_number(word) {
                    continue;
                } else if word.starts_with('{') || word.contains(char::is_whitespace) {
                    return Err(syntax(format!(
                        "{word:?}: comments must be attached to a move"
                    )));
                } else if word.starts_with([';', '[']) {
                    // Written at the start of a wrapped line, it would read as a comment or
                    // a tag: no move is written so.
                    return Err(syntax(format!("{word:?}: a move cannot start with ; or [")));
                } else {
                    rec.plies.push(word.to_string());
                }
            }
        }
        rec.result = result.ok_or(RecordError::Syntax {
            line: text.lines().count().max(1),
            message: "the record does not end with a result (1-0, 0-1, 1/2-1/2 or *)".into(),
        })?;
        if rec.tags.is_empty() {
            return Err(RecordError::Syntax {
                line: 1,
                message: "a record starts with tags such as [Game \"generals\"]".into(),
            });
        }
        Ok(rec)
    }

    /// Writes the record: tags, a blank line, numbered movetext wrapped at 80 columns, result.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (k, v) in &self.tags {
            let _ = writeln!(s, "[{k} \"{}\"]", escape(v));
        }
        s.push('\n');
        let mut line = String::new();
        let mut words = Vec::with_capacity(self.plies.len() * 3 / 2 + 1);
        for (i, p) in self.plies.iter().enumerate() {
            // A move number stays on the line of its move.
            if i % 2 == 0 {
                words.push(format!("{}. {p}", i / 2 + 1));
            } else {
                words.push(p.clone());
            }
        }
        words.push(self.result.clone());
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 80 {
                s.push_str(&line);
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        s.push_str(&line);
        s.push('\n');
        s
    }
}

fn is_move_number(w: &str) -> bool {
    w.len() > 1 && w.ends_with('.') && w[..w.len() - 1].bytes().all(|b| b.is_ascii_digit())
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("{line:?} is not a tag; write [Name \"value\"]"))?;
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("{line:?} is not a tag; write [Name \"value\"]"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("tag name {name:?} must be letters, digits or _"));
    }
    let rest = rest.trim();
    let body = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| format!("the value of tag [{name}] must be in double quotes"))?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                _ => {
                    return Err(format!(
                        "tag [{name}]: a backslash must be followed by \\ or \""
                    ));
                }
            },
            '"' => {
                return Err(format!(
                    "tag [{name}]: a quote inside the value must be written \\\""
                ));
            }
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_text_round_trips() {
        let r = Record {
            tags: vec![
                ("Game".into(), "generals".into()),
                ("White".into(), "A \"quoted\" \\ name".into()),
            ],
            plies: (0..41)
                .map(|i| format!("a{}-b{}{{>}}", i % 8 + 1, i % 8 + 1))
                .collect(),
            result: "1/2-1/2".into(),
        };
        let t = r.to_text();
        assert!(t.lines().all(|l| l.len() <= 80), "{t}");
        let p = Record::parse(&t).unwrap();
        assert_eq!(p, r);
        assert_eq!(p.to_text(), t);
    }

    /// Found by the `record` fuzz target: a ply token starting with `;` was accepted in
    /// the middle of a line, then written at the start of a wrapped line, where it reads as
    /// a comment, so the record changed on a round trip.
    #[test]
    fn fuzz_record_crash_a_ply_starting_with_a_comment_or_tag_mark_is_refused() {
        for bad in [";6{p}", "[x"] {
            let text = format!("[Game \"generals\"]\n\n1. a3-a4 {bad} *\n");
            let e = Record::parse(&text).unwrap_err();
            assert!(
                matches!(&e, RecordError::Syntax { line: 3, message } if message.contains("cannot start with")),
                "{e}"
            );
        }
        // A whole line starting with ; is still a comment.
        let r = Record::parse("[Game \"generals\"]\n\n; a comment\n1. a3-a4 *\n").unwrap();
        assert_eq!(r.plies, ["a3-a4"]);
    }

    #[test]
    fn malformed_records_name_the_line() {
        let e = Record::parse("[Game \"generals\"]\n\n1. e3-e4\n[Late \"x\"]\n*\n").unwrap_err();
        assert!(matches!(e, RecordError::Syntax { line: 4, .. }), "{e}");
        let e = Record::parse("[Game generals]\n*\n").unwrap_err();
        assert!(matches!(e, RecordError::Syntax { line: 1, .. }), "{e}");
        let e = Record::parse("[Game \"generals\"]\n1. e3-e4\n").unwrap_err();
        assert!(e.to_string().contains("result"), "{e}");
        let e = Record::parse("[Game \"g\"]\n[Game \"h\"]\n*").unwrap_err();
        assert!(e.to_string().contains("twice"), "{e}");
        let e = Record::parse("[Game \"g\"]\n1-0 e3-e4").unwrap_err();
        assert!(e.to_string().contains("after the result"), "{e}");
    }
}
