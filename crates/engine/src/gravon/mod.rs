//! Import of Gravon StraDoS2 XML game records into salpakan records (see
//! `docs/rules-stratego.md`, "Importing Gravon records").
//!
//! ```text
//! <stratego><game type="classic|barrage|duell|classicfree|ultimate lightning">
//!  <field content="...100 characters..."/>
//!  <move id="1" source="I4" target="I7"/> ...
//!  <move id="77" source="I9" target="I:"><rescue rescuefield="K4" rescuepiece="8"/></move>
//!  <player id="1">...</player><player id="2">...</player>
//!  <result type="1" winner="2"/></game></stratego>
//! ```
//!
//! Files are `A`–`H`, `I`, `K` (no `J`), rows `1`–`9` and `:` for row 10; row 1 is Red's
//! back rank. The setups are read from `content`, the moves are replayed by the engine
//! (which decides every attack from the setups), and the game is concluded as `result`
//! says. The two-squares limit is decided per record (the year's rule, or the older limit
//! 5 when only that replays the record) and written in the `TwoSquareRule` tag. Imported
//! games had no commitment: the salts are drawn from a generator seeded with
//! the SHA-256 of the file's text, so the record verifies and the same file always gives
//! the same record.

use crate::{OptionError, PlayError, SetupError};

mod limit;
mod replay;
mod xml;

pub use limit::*;
pub use replay::*;
use xml::*;

/// Why a Gravon file could not be imported. Every message names the file and the element.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The text is not well-formed XML.
    #[error("{file}: not well-formed XML at line {line}: {message}")]
    Xml {
        /// The file name.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An element is missing, repeated, or has a bad attribute.
    #[error("{file}: {element}: {message}")]
    Element {
        /// The file name.
        file: String,
        /// The element, e.g. `<field content>` or `move id=17`.
        element: String,
        /// What is wrong.
        message: String,
    },
    /// The setups read from `<field content>` are not valid for the game type.
    #[error("{file}: <field content>: {source}")]
    Setup {
        /// The file name.
        file: String,
        /// The setup problem.
        source: Box<SetupError>,
    },
    /// The options derived for the game are not valid.
    #[error("{file}: <game type>: {source}")]
    Options {
        /// The file name.
        file: String,
        /// The option problem.
        source: OptionError,
    },
    /// A recorded move is refused by the rules.
    #[error("{file}: move id={id} ({source_sq}-{target_sq}): {error}")]
    Move {
        /// The file name.
        file: String,
        /// The move's id.
        id: u32,
        /// The source square as written in the file.
        source_sq: String,
        /// The target square as written in the file.
        target_sq: String,
        /// Why the engine refused it.
        error: Box<PlayError>,
    },
    /// The recorded result disagrees with the replay.
    #[error("{file}: <result type=\"{kind}\" winner=\"{winner}\">: {message}")]
    Result {
        /// The file name.
        file: String,
        /// The result type as written.
        kind: String,
        /// The winner as written.
        winner: String,
        /// What disagrees.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravon_squares() {
        assert_eq!(gravon_square("A1").unwrap().to_string(), "a1");
        assert_eq!(gravon_square("K:").unwrap().to_string(), "j10");
        assert_eq!(gravon_square("I4").unwrap().to_string(), "i4");
        assert!(gravon_square("J4").is_none());
        assert!(gravon_square("Z4").is_none());
        assert!(gravon_square("A0").is_none());
    }

    #[test]
    fn dates_from_names() {
        assert_eq!(date_from_file_name("classic-2014.3-1.xml"), Some((2014, 4)));
        assert_eq!(
            date_from_file_name("dir/barrage-2006.0-1.xml"),
            Some((2006, 1))
        );
        assert_eq!(date_from_file_name("game.xml"), None);
        assert_eq!(two_square_limit_for_year(2006), 5);
        assert_eq!(two_square_limit_for_year(2014), 3);
    }

    #[test]
    fn xml_reader() {
        let e = parse_xml("<?xml version=\"1.0\"?><a x='1 &amp; 2'><!-- c --><b>t&lt;</b><c/></a>")
            .unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].attr("x"), Some("1 & 2"));
        assert_eq!(e[1].text, "t<");
        assert_eq!(e[2].parent.as_deref(), Some("a"));
        assert!(parse_xml("<a><b></a>").is_err());
        assert!(parse_xml("<a>").is_err());
    }
}
