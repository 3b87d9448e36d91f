//! Bot choices written as text: `random`, `greedy`, `mcts:ms=200`, `cmd:"python3 bot.py"`.

use std::fmt;
use std::str::FromStr;

use crate::AiError;

/// Which bot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    /// Uniformly random legal moves.
    Random,
    /// One-ply evaluation with the belief.
    Greedy,
    /// Information-set Monte Carlo tree search over sampled hidden states (the fixed
    /// reference).
    Mcts,
    /// The strongest bot: the same search with expert belief, evaluation and root moves.
    Expert,
    /// An external program speaking the bot protocol (`docs/bot-protocol.md`).
    Command(String),
    /// An old Stratego program speaking the UCC 2012 agent protocol
    /// (`docs/legacy-protocols.md`).
    Ucc(String),
    /// An old Dark Chess (Banqi) engine speaking the NTU course protocol
    /// (`docs/legacy-protocols.md`).
    Ntu(String),
}

impl BotKind {
    /// The built-in names.
    pub const NAMES: [&'static str; 4] = ["random", "greedy", "mcts", "expert"];

    fn name(&self) -> &str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Mcts => "mcts",
            BotKind::Expert => "expert",
            BotKind::Command(_) => "cmd",
            BotKind::Ucc(_) => "ucc",
            BotKind::Ntu(_) => "ntu",
        }
    }

    /// Each parameter: its name, what it does, and its range (smallest and largest value
    /// accepted). Bounded so that no bot choice can exhaust memory or pin a core.
    fn params(&self) -> &'static [(&'static str, &'static str, u64, u64)] {
        match self {
            BotKind::Random => &[("seed", "mixed into the seed of every choice", 0, u64::MAX)],
            BotKind::Greedy => &[
                ("seed", "mixed into the seed of every choice", 0, u64::MAX),
                (
                    "samples",
                    "hidden states sampled per move (default 24)",
                    1,
                    MAX_SAMPLES,
                ),
            ],
            BotKind::Mcts | BotKind::Expert => &[
                (
                    "ms",
                    "time budget per move in milliseconds (default 100)",
                    1,
                    600_000,
                ),
                (
                    "iters",
                    "iteration budget per move; deterministic for a seed (overrides ms)",
                    1,
                    1_000_000,
                ),
                ("seed", "mixed into the seed of every choice", 0, u64::MAX),
                (
                    "samples",
                    "hidden states sampled per move (default 32)",
                    1,
                    MAX_SAMPLES,
                ),
                (
                    "depth",
                    "rollout plies before the evaluation (default per game)",
                    0,
                    1000,
                ),
                (
                    "c",
                    "exploration constant in hundredths (default per game: 40 in Game of the Generals, 70 in Stratego and Banqi)",
                    0,
                    10_000,
                ),
            ],
            BotKind::Command(_) | BotKind::Ucc(_) => &[(
                "timeout",
                "milliseconds the program may take per answer (default 5000)",
                1,
                3_600_000,
            )],
            BotKind::Ntu(_) => crate::legacy::NTU_PARAMS,
        }
    }
}

/// The most hidden states a bot may sample per move.
pub const MAX_SAMPLES: u64 = 1024;

/// A bot choice parsed from text: `"random"`, `"greedy"`, `"mcts"`, `"mcts:ms=200"`,
/// `"mcts:iters=5000,seed=3"`, `cmd:"python3 examples/bot.py"`; `Display` gives it back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BotSpec {
    kind: BotKind,
    params: Vec<(String, u64)>,
}

impl BotSpec {
    /// A bot with no parameters.
    #[must_use]
    pub fn new(kind: BotKind) -> BotSpec {
        BotSpec {
            kind,
            params: Vec::new(),
        }
    }

    /// The built-in bots, weakest first: `random`, `greedy`, the reference `mcts`, and
    /// `expert` at a few strengths (the server's and web client's levels).
    #[must_use]
    pub fn builtin() -> Vec<BotSpec> {
        [
            "random",
            "greedy",
            "mcts:ms=100",
            "expert:ms=100",
            "expert:ms=300",
            "expert:ms=1000",
        ]
        .iter()
        .map(|s| s.parse().expect("built-in specs parse"))
        .collect()
    }

    /// Which bot.
    #[must_use]
    pub fn kind(&self) -> &BotKind {
        &self.kind
    }

    /// A parameter's value, if given.
    #[must_use]
    pub fn param(&self, key: &str) -> Option<u64> {
        self.params.iter().find(|(k, _)| k == key).map(|&(_, v)| v)
    }

    /// The same bot with one parameter set.
    ///
    /// # Errors
    /// [`AiError::BadParameter`] if this bot has no such parameter, [`AiError::BadSpec`]
    /// (a sentence naming the range) if the value is outside its documented range.
    pub fn with(mut self, key: &str, value: u64) -> Result<BotSpec, AiError> {
        self.check_key(key)?;
        if let Some(&(k, what, lo, hi)) = self.kind.params().iter().find(|p| p.0 == key) {
            if !(lo..=hi).contains(&value) {
                return Err(AiError::BadSpec {
                    spec: format!("{}:{k}={value}", self.kind.name()),
                    why: format!("{k} ({what}) is {lo} to {hi}"),
                });
            }
        }
        if let Some(p) = self.params.iter_mut().find(|(k, _)| k == key) {
            p.1 = value;
        } else {
            self.params.push((key.to_string(), value));
        }
        Ok(self)
    }

    /// Whether this is an external program.
    #[must_use]
    pub fn is_external(&self) -> bool {
        matches!(
            self.kind,
            BotKind::Command(_) | BotKind::Ucc(_) | BotKind::Ntu(_)
        )
    }

    fn check_key(&self, key: &str) -> Result<(), AiError> {
        let known = self.kind.params();
        if known.iter().any(|(k, ..)| *k == key) {
            Ok(())
        } else {
            Err(AiError::BadParameter {
                bot: self.kind.name().to_string(),
                key: key.to_string(),
                expected: known
                    .iter()
                    .map(|(k, d, lo, hi)| format!("{k} ({d}; {lo} to {hi})"))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }

    /// Parses a comma-separated list of bots, where parameters of one bot are also separated
    /// by commas: `random,greedy,mcts:iters=500,seed=2,cmd:"python3 bot.py"`. An item
    /// `key=value` belongs to the bot before it.
    ///
    /// # Errors
    /// The first bot that does not parse.
    pub fn parse_list(text: &str) -> Result<Vec<BotSpec>, AiError> {
        let mut items: Vec<String> = Vec::new();
        let mut cur = String::new();
        let mut quoted = false;
        for ch in text.chars() {
            match ch {
                '"' => {
                    quoted = !quoted;
                    cur.push(ch);
                }
                ',' if !quoted => items.push(std::mem::take(&mut cur)),
                _ => cur.push(ch),
            }
        }
        items.push(cur);
        let mut specs: Vec<String> = Vec::new();
        for item in items {
            let item = item.trim().to_string();
            if item.is_empty() {
                continue;
            }
            let is_param = !item.contains(':') && item.contains('=');
            match specs.last_mut() {
                Some(last) if is_param => {
                    last.push(if last.contains(':') { ',' } else { ':' });
                    last.push_str(&item);
                }
                _ => specs.push(item),
            }
        }
        specs.iter().map(|s| s.parse()).collect()
    }
}

impl FromStr for BotSpec {
    type Err = AiError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let (name, rest) = match s.split_once(':') {
            Some((n, r)) => (n.trim(), r.trim()),
            None => (s, ""),
        };
        let (kind, params_text) = match name.to_ascii_lowercase().as_str() {
            "random" => (BotKind::Random, rest),
            "greedy" => (BotKind::Greedy, rest),
            "mcts" => (BotKind::Mcts, rest),
            "expert" => (BotKind::Expert, rest),
            proto @ ("cmd" | "ucc" | "ntu") => {
                let body = rest.strip_prefix('"').ok_or_else(|| AiError::BadSpec {
                    spec: s.to_string(),
                    why: format!("write an external bot as {proto}:\"program arguments\""),
                })?;
                let end = body.find('"').ok_or_else(|| AiError::BadSpec {
                    spec: s.to_string(),
                    why: "the command has no closing quote".into(),
                })?;
                let command = body[..end].trim().to_string();
                if command.is_empty() {
                    return Err(AiError::BadSpec {
                        spec: s.to_string(),
                        why: "the command is empty".into(),
                    });
                }
                let after = body[end + 1..].trim();
                let after = after.strip_prefix(',').unwrap_or(after);
                let kind = match proto {
                    "ucc" => BotKind::Ucc(command),
                    "ntu" => BotKind::Ntu(command),
                    _ => BotKind::Command(command),
                };
                (kind, after)
            }
            _ => {
                return Err(AiError::UnknownBot {
                    name: name.to_string(),
                    known: format!(
                        "{}, or cmd:\"program\", ucc:\"program\", ntu:\"program\"",
                        BotKind::NAMES.join(", ")
                    ),
                });
            }
        };
        let mut spec = BotSpec::new(kind);
        for item in params_text
            .split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
        {
            let (k, v) = item.split_once('=').ok_or_else(|| AiError::BadSpec {
                spec: s.to_string(),
                why: format!("{item:?} is not key=value"),
            })?;
            let v: u64 = v.trim().parse().map_err(|_| AiError::BadSpec {
                spec: s.to_string(),
                why: format!("{k}: {v:?} is not a whole number"),
            })?;
            spec = spec.with(k.trim(), v)?;
        }
        Ok(spec)
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            BotKind::Command(c) => write!(f, "cmd:\"{c}\"")?,
            BotKind::Ucc(c) => write!(f, "ucc:\"{c}\"")?,
            BotKind::Ntu(c) => write!(f, "ntu:\"{c}\"")?,
            k => f.write_str(k.name())?,
        }
        for (i, (k, v)) in self.params.iter().enumerate() {
            let sep = if i == 0 && !self.is_external() {
                ':'
            } else {
                ','
            };
            write!(f, "{sep}{k}={v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bot parameter outside its documented range is refused with a sentence naming the
    /// range (a sample count of 10^12 once aborted the server on allocation).
    #[test]
    fn a_huge_bot_parameter_is_refused_with_its_range() {
        for (text, range) in [
            ("mcts:samples=1000000000000", "1 to 1024"),
            ("greedy:samples=1000000000000", "1 to 1024"),
            ("greedy:samples=0", "1 to 1024"),
            ("mcts:iters=99999999999", "1 to 1000000"),
            ("mcts:ms=0", "1 to 600000"),
            ("mcts:depth=5000", "0 to 1000"),
            ("mcts:c=100000", "0 to 10000"),
            ("expert:iters=99999999999", "1 to 1000000"),
            ("expert:samples=0", "1 to 1024"),
        ] {
            let e = text.parse::<BotSpec>().unwrap_err().to_string();
            assert!(e.contains(range), "{text}: {e}");
        }
        for ok in [
            "greedy:samples=1024",
            "mcts:samples=1,depth=0,c=0",
            "random:seed=18446744073709551615",
        ] {
            assert!(ok.parse::<BotSpec>().is_ok(), "{ok}");
        }
    }
}
