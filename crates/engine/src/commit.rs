//! Commitments to hidden initial state, and the seeded random source.
//!
//! At the start of a game the arbiter publishes, for each hidden part (a setup, the Banqi
//! deal), `SHA-256("salpakan-commit-v1\n" || name || "\n" || text || "\n" || salt)` in
//! lower-case hex, where `name` is the part's record tag (`WhiteSetup`, `Deal`), `text` its
//! canonical text and `salt` 32 lower-case hex digits. After the game the full record reveals
//! the text and the salt, and anyone can recompute the hash.

use rand::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// The random generator every game uses: ChaCha20, seeded from a `u64`.
pub type GameRng = rand_chacha::ChaCha20Rng;

/// A generator for `seed`. The same seed always gives the same stream.
#[must_use]
pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// The seed a match's hidden state (random setups, the Banqi deal) and salts are drawn from.
///
/// A live game takes a [`MatchSeed::Full`] seed of 256 bits from the operating system's
/// secure random source (the server draws it; the engine does no I/O), so that nobody can
/// guess the deal or the salts by trying seeds. Tests, the terminal and records written
/// before 256-bit seeds use a [`MatchSeed::Short`] number, which gives the same stream as
/// [`rng_from_seed`]; both forms replay identically from a record's `Seed` tag.
///
/// ```
/// use salpakan_engine::MatchSeed;
///
/// let text = format!("{}2a", "00".repeat(31));
/// let full: MatchSeed = text.parse().unwrap();
/// assert_eq!(full.to_string(), text);
/// let short: MatchSeed = "7".parse().unwrap();
/// assert_eq!(short, MatchSeed::Short(7));
/// assert!("seven".parse::<MatchSeed>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchSeed {
    /// A 64-bit seed, written as a decimal number (tests, the terminal, older records).
    Short(u64),
    /// A 256-bit ChaCha20 key, written as 64 lower-case hex digits (live games).
    Full([u8; 32]),
}

impl MatchSeed {
    /// The generator this seed gives. The same seed always gives the same stream.
    #[must_use]
    pub fn rng(&self) -> GameRng {
        match *self {
            MatchSeed::Short(n) => GameRng::seed_from_u64(n),
            MatchSeed::Full(key) => GameRng::from_seed(key),
        }
    }
}

impl From<u64> for MatchSeed {
    fn from(n: u64) -> Self {
        MatchSeed::Short(n)
    }
}

impl fmt::Debug for MatchSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A live game's seed is secret until it ends: never print it by accident in logs.
        f.write_str("MatchSeed(..)")
    }
}

impl fmt::Display for MatchSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchSeed::Short(n) => write!(f, "{n}"),
            MatchSeed::Full(key) => f.write_str(&to_hex(key)),
        }
    }
}

impl FromStr for MatchSeed {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower_hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if s.len() == 64 && s.bytes().all(lower_hex) {
            if let Some(bytes) = from_hex(s) {
                let mut key = [0u8; 32];
                key.copy_from_slice(&bytes);
                return Ok(MatchSeed::Full(key));
            }
        }
        let canonical = s == "0" || !s.starts_with('0');
        if !s.is_empty() && canonical && s.bytes().all(|b| b.is_ascii_digit()) {
            if let Ok(n) = s.parse() {
                return Ok(MatchSeed::Short(n));
            }
        }
        Err(format!(
            "seed {s:?} must be a whole number below 2^64 (no leading zeros) or 64 lower-case hexadecimal digits"
        ))
    }
}

/// A 128-bit secret salt.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Salt(pub [u8; 16]);

impl Salt {
    /// Draws a salt from `rng`.
    pub fn random(rng: &mut impl RngCore) -> Salt {
        let mut b = [0u8; 16];
        rng.fill_bytes(&mut b);
        Salt(b)
    }
}

impl fmt::Debug for Salt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print a salt by accident in logs.
        f.write_str("Salt(..)")
    }
}

impl fmt::Display for Salt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_hex(&self.0))
    }
}

impl FromStr for Salt {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bytes = from_hex(s)
            .filter(|b| b.len() == 16)
            .ok_or_else(|| format!("salt {s:?} must be 32 hexadecimal digits"))?;
        let mut b = [0u8; 16];
        b.copy_from_slice(&bytes);
        Ok(Salt(b))
    }
}

/// The commitment to one hidden part: lower-case hex SHA-256 (see the module docs).
#[must_use]
pub fn commitment(name: &str, text: &str, salt: &Salt) -> String {
    let mut h = Sha256::new();
    h.update(b"salpakan-commit-v1\n");
    h.update(name.as_bytes());
    h.update(b"\n");
    h.update(text.as_bytes());
    h.update(b"\n");
    h.update(salt.to_string().as_bytes());
    to_hex(&h.finalize())
}

/// Lower-case hex of `bytes`.
#[must_use]
pub fn to_hex(bytes: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(D[(b >> 4) as usize] as char);
        s.push(D[(b & 15) as usize] as char);
    }
    s
}

/// Bytes of a hex string, or `None` if it is not hex of even length.
#[must_use]
pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitment_changes_with_text_salt_and_name() {
        let s = Salt([7; 16]);
        let base = commitment("WhiteSetup", "a1:FLG", &s);
        assert_eq!(base.len(), 64);
        assert_ne!(base, commitment("WhiteSetup", "a1:PVT", &s));
        assert_ne!(base, commitment("BlackSetup", "a1:FLG", &s));
        assert_ne!(base, commitment("WhiteSetup", "a1:FLG", &Salt([8; 16])));
        assert_eq!(base, commitment("WhiteSetup", "a1:FLG", &s));
    }

    #[test]
    fn salt_round_trips_through_hex_and_debug_hides_it() {
        let s = Salt::random(&mut rng_from_seed(3));
        assert_eq!(s.to_string().parse::<Salt>().unwrap(), s);
        assert_eq!(format!("{s:?}"), "Salt(..)");
        assert!("xyz".parse::<Salt>().is_err());
    }
}
