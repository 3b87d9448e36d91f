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

use sha2::{Digest, Sha256};

use crate::stratego::{
    Army, Piece, Rescue, Setup, SetupArea, Setups, Square, Stratego, StrategoOptions,
};
use crate::{
    Copy, EndReason, Game, GameOptions, Match, OptionError, Outcome, PlayError, Record, Seat,
    SetupError, rng_from_seed,
};

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

/// One XML element: its name, parent, attributes and direct text.
#[derive(Debug)]
struct Element {
    name: String,
    parent: Option<String>,
    attrs: Vec<(String, String)>,
    text: String,
}

impl Element {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn decode(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let end = after
            .find(';')
            .ok_or_else(|| format!("unterminated entity in {s:?}"))?;
        let ent = &after[..end];
        let c = match ent {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = if let Some(h) = ent.strip_prefix("#x") {
                    u32::from_str_radix(h, 16).ok()
                } else if let Some(d) = ent.strip_prefix('#') {
                    d.parse().ok()
                } else {
                    None
                };
                code.and_then(char::from_u32)
                    .ok_or_else(|| format!("unknown entity &{ent};"))?
            }
        };
        out.push(c);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A small XML reader: elements in document order, with their parent and text. Enough for
/// StraDoS2 files (no namespaces; comments, processing instructions, doctype and CDATA are
/// accepted).
fn parse_xml(xml: &str) -> Result<Vec<Element>, (usize, String)> {
    let line_at = |pos: usize| xml[..pos].matches('\n').count() + 1;
    let mut out: Vec<Element> = Vec::new();
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut pos = 0;
    let b = xml.as_bytes();
    while pos < b.len() {
        if b[pos] != b'<' {
            let end = xml[pos..].find('<').map_or(b.len(), |i| pos + i);
            let text = &xml[pos..end];
            match stack.last() {
                Some(&(_, idx)) => {
                    let t = decode(text).map_err(|m| (line_at(pos), m))?;
                    out[idx].text.push_str(&t);
                }
                None if !text.trim().is_empty() => {
                    return Err((line_at(pos), "text outside the root element".into()));
                }
                None => {}
            }
            pos = end;
            continue;
        }
        let rest = &xml[pos..];
        let skip = |open: &str, close: &str| -> Result<Option<usize>, (usize, String)> {
            if rest.starts_with(open) {
                rest.find(close)
                    .map(|i| Some(pos + i + close.len()))
                    .ok_or_else(|| (line_at(pos), format!("{open} is never closed by {close}")))
            } else {
                Ok(None)
            }
        };
        if let Some(p) = skip("<?", "?>")? {
            pos = p;
            continue;
        }
        if let Some(p) = skip("<!--", "-->")? {
            pos = p;
            continue;
        }
        if rest.starts_with("<![CDATA[") {
            let end = rest
                .find("]]>")
                .ok_or_else(|| (line_at(pos), "CDATA section is never closed".to_string()))?;
            if let Some(&(_, idx)) = stack.last() {
                out[idx].text.push_str(&rest[9..end]);
            }
            pos += end + 3;
            continue;
        }
        if let Some(p) = skip("<!", ">")? {
            pos = p;
            continue;
        }
        let end = rest
            .find('>')
            .ok_or_else(|| (line_at(pos), "a tag is never closed with >".to_string()))?;
        let inner = &rest[1..end];
        pos += end + 1;
        if let Some(name) = inner.strip_prefix('/') {
            let name = name.trim();
            match stack.pop() {
                Some((open, _)) if open == name => {}
                Some((open, _)) => {
                    return Err((
                        line_at(pos),
                        format!("</{name}> closes <{open}>; the elements are not nested properly"),
                    ));
                }
                None => return Err((line_at(pos), format!("</{name}> closes nothing"))),
            }
            continue;
        }
        let (inner, empty) = match inner.strip_suffix('/') {
            Some(i) => (i, true),
            None => (inner, false),
        };
        let name_end = inner
            .find(|c: char| c.is_whitespace())
            .unwrap_or(inner.len());
        let name = inner[..name_end].to_string();
        if name.is_empty() {
            return Err((line_at(pos), "an element without a name".into()));
        }
        let mut attrs = Vec::new();
        let mut a = inner[name_end..].trim_start();
        while !a.is_empty() {
            let eq = a
                .find('=')
                .ok_or_else(|| (line_at(pos), format!("<{name}>: attribute without a value")))?;
            let key = a[..eq].trim().to_string();
            let v = a[eq + 1..].trim_start();
            let q = v
                .chars()
                .next()
                .filter(|c| *c == '"' || *c == '\'')
                .ok_or_else(|| {
                    (
                        line_at(pos),
                        format!("<{name}>: the value of {key} must be quoted"),
                    )
                })?;
            let close = v[1..].find(q).ok_or_else(|| {
                (
                    line_at(pos),
                    format!("<{name}>: the value of {key} is never closed"),
                )
            })?;
            let value = decode(&v[1..1 + close]).map_err(|m| (line_at(pos), m))?;
            attrs.push((key, value));
            a = v[close + 2..].trim_start();
        }
        if stack.is_empty() && out.iter().any(|e| e.parent.is_none()) {
            return Err((line_at(pos), format!("<{name}> is a second root element")));
        }
        out.push(Element {
            name: name.clone(),
            parent: stack.last().map(|(n, _)| n.clone()),
            attrs,
            text: String::new(),
        });
        if !empty {
            stack.push((name, out.len() - 1));
        }
    }
    if let Some((open, _)) = stack.pop() {
        return Err((line_at(b.len()), format!("<{open}> is never closed")));
    }
    Ok(out)
}

/// The square of a Gravon coordinate: `A`–`H`, `I`, `K` (no `J`), rows `1`–`9` and `:`
/// (row 10).
#[must_use]
pub fn gravon_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() < 2 {
        return None;
    }
    let file = match b[0].to_ascii_uppercase() {
        c @ b'A'..=b'I' => c - b'A',
        b'K' => 9,
        _ => return None,
    };
    let rank = match &text[1..] {
        ":" | "10" => 9,
        r if r.len() == 1 && (b'1'..=b'9').contains(&b[1]) => b[1] - b'1',
        _ => return None,
    };
    Square::new(file, rank)
}

/// The seat and piece of a `content` letter (`A` empty and `_` lake give `None`).
fn field_piece(c: u8) -> Option<(Seat, Piece)> {
    const ORDER: [Piece; 12] = [
        Piece::Bomb,
        Piece::Spy,
        Piece::Scout,
        Piece::Miner,
        Piece::Sergeant,
        Piece::Lieutenant,
        Piece::Captain,
        Piece::Major,
        Piece::Colonel,
        Piece::General,
        Piece::Marshal,
        Piece::Flag,
    ];
    match c {
        b'B'..=b'M' => Some((Seat::First, ORDER[(c - b'B') as usize])),
        b'N'..=b'Y' => Some((Seat::Second, ORDER[(c - b'N') as usize])),
        _ => None,
    }
}

/// The year and 1-based month from a Gravon file name such as `classic-2014.3-1505.xml`
/// (the archive numbers months from 0).
#[must_use]
pub fn date_from_file_name(file_name: &str) -> Option<(u32, u32)> {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let part = base.split('-').nth(1)?;
    let (y, m) = part.split_once('.')?;
    let (year, month): (u32, u32) = (y.parse().ok()?, m.parse().ok()?);
    ((1990..3000).contains(&year) && month < 12).then_some((year, month + 1))
}

/// The two-squares limit Gravon used for a game played in `year`: 5 before 2013, 3 since.
#[must_use]
pub const fn two_square_limit_for_year(year: u32) -> u32 {
    if year < 2013 { 5 } else { 3 }
}

/// The two-squares limit of the rule Gravon played before 2013 (its "five moves on two
/// squares" rule), which some tables kept after 2013.
pub const OLDER_TWO_SQUARE_LIMIT: u32 = 5;

/// The name of the tag in which an imported record says which two-squares limit the import
/// used and why.
pub const TWO_SQUARE_TAG: &str = "TwoSquareRule";

/// Converts one StraDoS2 XML file into a full salpakan record.
///
/// `file_name` names the file in messages and the `Source` tag, and gives the date. The
/// two-squares limit is `two_square_limit_override` if given; otherwise the rule of the
/// file's year (5 before 2013, 3 since; 3 when the name carries no date), except that a
/// record which the limit 3 refuses (a move, or its recorded result) but which replays
/// completely under the older limit 5 was played under 5, and is imported so. The record's
/// [`TWO_SQUARE_TAG`] tag says which limit was used and why (see `docs/rules-stratego.md`).
///
/// # Errors
/// An [`ImportError`] naming the file and the element: malformed XML, a missing or bad
/// element, setups that do not fit the game type, options out of range (an override of 0
/// or above 16), a move the rules refuse, or a result the replay does not reach. When a
/// record fails under both limits, the error is the one under the year's limit.
pub fn import_gravon(
    xml: &str,
    file_name: &str,
    two_square_limit_override: Option<u32>,
) -> Result<Record, ImportError> {
    let date = date_from_file_name(file_name);
    let (limit, why) = match (two_square_limit_override, date) {
        (Some(n), _) => {
            let m = replay_gravon(xml, file_name, n)?;
            return Ok(finish(m, &format!("{n} (given to the importer)")));
        }
        (None, Some((y, _))) => (two_square_limit_for_year(y), format!("the rule of {y}")),
        (None, None) => (3, "the file name carries no date".to_string()),
    };
    match replay_gravon(xml, file_name, limit) {
        Ok(m) => Ok(finish(
            m,
            &format!("{limit} ({why}: 5 before 2013, 3 since)"),
        )),
        Err(first) if limit < OLDER_TWO_SQUARE_LIMIT => {
            let refused = match &first {
                ImportError::Move {
                    id,
                    source_sq,
                    target_sq,
                    error,
                    ..
                } => format!("move id={id} ({source_sq}-{target_sq}) is refused: {error}"),
                ImportError::Result { message, .. } => {
                    format!("the recorded result is refused: {message}")
                }
                _ => return Err(first),
            };
            match replay_gravon(xml, file_name, OLDER_TWO_SQUARE_LIMIT) {
                Ok(m) => Ok(finish(
                    m,
                    &format!(
                        "{OLDER_TWO_SQUARE_LIMIT} (inferred: under {limit}, {why}, {refused}; \
                         the whole game replays under {OLDER_TWO_SQUARE_LIMIT}, Gravon's rule \
                         before 2013)"
                    ),
                )),
                Err(_) => Err(first),
            }
        }
        Err(e) => Err(e),
    }
}

fn finish(mut m: Match<Stratego>, two_square_rule: &str) -> Record {
    m.set_tag(TWO_SQUARE_TAG, two_square_rule);
    m.record(Copy::Full)
}

/// Replays one StraDoS2 file under the two-squares limit `limit`, up to and including its
/// result.
fn replay_gravon(xml: &str, file_name: &str, limit: u32) -> Result<Match<Stratego>, ImportError> {
    let file = file_name.to_string();
    let el_err = |element: &str, message: String| ImportError::Element {
        file: file.clone(),
        element: element.to_string(),
        message,
    };
    let elements = parse_xml(xml).map_err(|(line, message)| ImportError::Xml {
        file: file.clone(),
        line,
        message,
    })?;
    match elements.first() {
        Some(e) if e.name == "stratego" => {}
        Some(e) => {
            return Err(el_err(
                &format!("<{}>", e.name),
                "the root element must be <stratego>".into(),
            ));
        }
        None => return Err(el_err("<stratego>", "the file has no elements".into())),
    }
    let games: Vec<&Element> = elements.iter().filter(|e| e.name == "game").collect();
    let game = match games.as_slice() {
        [g] if g.parent.as_deref() == Some("stratego") => *g,
        [] => return Err(el_err("<game>", "missing inside <stratego>".into())),
        [_] => {
            return Err(el_err(
                "<game>",
                "must be directly inside <stratego>".into(),
            ));
        }
        _ => {
            return Err(el_err(
                "<game>",
                "more than one game in a file; split it first".into(),
            ));
        }
    };
    let kind = game
        .attr("type")
        .ok_or_else(|| el_err("<game>", "has no type attribute".into()))?;
    let mut options = StrategoOptions::default();
    match kind {
        "classic" => options.army = Army::Classic,
        "barrage" => options.army = Army::Barrage,
        "duell" | "duel" => options.army = Army::Duel,
        "classicfree" => {
            options.army = Army::Free;
            options.setup_area = SetupArea::Board;
        }
        "ultimate lightning" => options = options.with_army(Army::UltimateLightning),
        other => {
            return Err(el_err(
                &format!("<game type=\"{other}\">"),
                "unknown game type; expected classic, barrage, duell, classicfree or ultimate lightning"
                    .into(),
            ));
        }
    }
    let date = date_from_file_name(file_name);
    options.two_square_limit = Some(limit);
    options.validate().map_err(|source| ImportError::Options {
        file: file.clone(),
        source,
    })?;
    fn in_game<'a>(elements: &'a [Element], name: &'a str) -> impl Iterator<Item = &'a Element> {
        elements
            .iter()
            .filter(move |e| e.name == name && e.parent.as_deref() == Some("game"))
    }

    // The setups.
    let fields: Vec<&Element> = in_game(&elements, "field").collect();
    let field = match fields.as_slice() {
        [f] => *f,
        [] => return Err(el_err("<field>", "missing inside <game>".into())),
        _ => return Err(el_err("<field>", "appears more than once".into())),
    };
    let content = field
        .attr("content")
        .ok_or_else(|| el_err("<field>", "has no content attribute".into()))?;
    if content.len() != 100 || !content.is_ascii() {
        return Err(el_err(
            "<field content>",
            format!(
                "must be 100 characters, one per square; it has {}",
                content.chars().count()
            ),
        ));
    }
    let mut placements: [Vec<(Square, Piece)>; 2] = [Vec::new(), Vec::new()];
    for (i, c) in content.bytes().enumerate() {
        let sq = Square::new((i % 10) as u8, (i / 10) as u8).expect("100 squares");
        match (c, sq.is_lake()) {
            (b'_', true) | (b'A', false) => {}
            (b'_', false) => {
                return Err(el_err(
                    "<field content>",
                    format!("character {} ({sq}) is '_' but {sq} is no lake", i + 1),
                ));
            }
            (_, true) => {
                return Err(el_err(
                    "<field content>",
                    format!("character {} ({sq}) is a lake and must be '_'", i + 1),
                ));
            }
            _ => {
                let (seat, p) = field_piece(c).ok_or_else(|| {
                    el_err(
                        "<field content>",
                        format!(
                            "character {} ({sq}) is {:?}; expected A (empty), _ (lake), B-M (Red) or N-Y (Blue)",
                            i + 1,
                            c as char
                        ),
                    )
                })?;
                placements[seat.index()].push((sq, p));
            }
        }
    }
    let setup = |seat: Seat| {
        Setup::new(seat, &options, &placements[seat.index()]).map_err(|source| ImportError::Setup {
            file: file.clone(),
            source: Box::new(source),
        })
    };
    let hidden = Setups([setup(Seat::First)?, setup(Seat::Second)?]);

    // Salts from the file's own hash: no real commitment existed.
    let digest = Sha256::digest(xml.as_bytes());
    let seed = u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"));
    let mut rng = rng_from_seed(seed);
    let mut m = Match::<Stratego>::start(&options, hidden, &mut rng).map_err(|source| {
        ImportError::Setup {
            file: file.clone(),
            source: Box::new(source),
        }
    })?;
    m.set_tag("Event", "Gravon");
    m.set_tag(
        "Source",
        file_name.rsplit(['/', '\\']).next().unwrap_or(file_name),
    );
    if let Some((y, mo)) = date {
        m.set_tag("Date", format!("{y}.{mo:02}.??"));
    }
    for e in in_game(&elements, "player") {
        let tag = match e.attr("id") {
            Some("1") => "Red",
            Some("2") => "Blue",
            other => {
                return Err(el_err(
                    &format!("<player id={}>", other.unwrap_or("(none)")),
                    "the id must be 1 (Red) or 2 (Blue)".into(),
                ));
            }
        };
        m.set_tag(tag, e.text.trim());
    }

    // The moves.
    for (n, e) in in_game(&elements, "move").enumerate() {
        let want = n as u32 + 1;
        let id_text = e.attr("id").unwrap_or("");
        let element = format!("move id={id_text}");
        let id: u32 = id_text
            .parse()
            .map_err(|_| el_err(&element, "the id must be a whole number".into()))?;
        if id != want {
            return Err(el_err(
                &element,
                format!("moves must be numbered 1, 2, 3...; expected id={want}"),
            ));
        }
        let rescue = rescue_of(&elements, e).map_err(|m| el_err(&element, m))?;
        let sq = |attr: &str| -> Result<(Square, String), ImportError> {
            let t = e
                .attr(attr)
                .ok_or_else(|| el_err(&element, format!("has no {attr} attribute")))?;
            let s = square_in_move(t, rescue.is_some()).ok_or_else(|| {
                el_err(
                    &element,
                    format!("{attr} {t:?} is not a square (files A-I and K, rows 1-9 and :)"),
                )
            })?;
            Ok((s, t.to_string()))
        };
        let (from, fs) = sq("source")?;
        let (to, ts) = sq("target")?;
        let seat = if id % 2 == 1 {
            Seat::First
        } else {
            Seat::Second
        };
        if let Some(turn) = m.game().to_move() {
            debug_assert_eq!(turn, seat, "turns alternate");
        }
        let made = m
            .play(crate::stratego::Move { from, to, rescue })
            .map_err(|error| ImportError::Move {
                file: file.clone(),
                id,
                source_sq: fs,
                target_sq: ts,
                error: Box::new(error),
            })?
            .rescue;
        if rescue.is_some() && made.is_none() {
            return Err(el_err(
                &element,
                "records a <rescue>, but the moving piece does not stand on the back rank after the move"
                    .into(),
            ));
        }
    }

    // The result.
    let results: Vec<&Element> = in_game(&elements, "result").collect();
    match results.as_slice() {
        [] => {}
        [r] => conclude(&mut m, r, &file)?,
        _ => return Err(el_err("<result>", "appears more than once".into())),
    }
    Ok(m)
}

/// A square of a `<move>`: as [`gravon_square`], and in a move that carries a rescue also
/// file `J` for the tenth file (`K`): the archive's rescue moves write it so (see
/// `docs/rules-stratego.md`, "Ultimate Lightning").
fn square_in_move(text: &str, with_rescue: bool) -> Option<Square> {
    match text.as_bytes() {
        [b'J' | b'j', ..] if with_rescue => gravon_square(&format!("K{}", &text[1..])),
        _ => gravon_square(text),
    }
}

/// The `<rescue rescuefield="K4" rescuepiece="8"/>` inside the move element `mv`, if any.
/// `rescuepiece` is the piece's letter number in `<field content>` (B = 1 … M = 12 for Red,
/// N = 13 … Y = 24 for Blue); the archive writes Blue's pieces with either number, so only
/// the piece is read from it (the rescuer is the mover).
fn rescue_of(elements: &[Element], mv: &Element) -> Result<Option<Rescue>, String> {
    let Some(at) = elements.iter().position(|x| std::ptr::eq(x, mv)) else {
        return Ok(None);
    };
    let inside: Vec<&Element> = elements[at + 1..]
        .iter()
        .take_while(|x| x.name != "move" && x.parent.as_deref() == Some("move"))
        .filter(|x| x.name == "rescue")
        .collect();
    let r = match inside.as_slice() {
        [] => return Ok(None),
        [r] => *r,
        _ => return Err("has more than one <rescue>".into()),
    };
    let field = r
        .attr("rescuefield")
        .ok_or("<rescue> has no rescuefield attribute")?;
    let square = gravon_square(field).ok_or_else(|| {
        format!("<rescue rescuefield={field:?}> is not a square (files A-I and K, rows 1-9 and :)")
    })?;
    let code = r
        .attr("rescuepiece")
        .ok_or("<rescue> has no rescuepiece attribute")?;
    let piece = code
        .parse::<u8>()
        .ok()
        .filter(|n| (1..=24).contains(n))
        .and_then(|n| field_piece(b'A' + (n - 1) % 12 + 1))
        .map(|(_, p)| p)
        .ok_or_else(|| {
            format!("<rescue rescuepiece={code:?}> is not a piece number (1-12 Red, 13-24 Blue)")
        })?;
    Ok(Some(Rescue { piece, square }))
}

fn conclude(m: &mut Match<Stratego>, r: &Element, file: &str) -> Result<(), ImportError> {
    let kind = r.attr("type").unwrap_or("").to_string();
    let winner_text = r.attr("winner").unwrap_or("").to_string();
    let err = |message: String| ImportError::Result {
        file: file.to_string(),
        kind: kind.clone(),
        winner: winner_text.clone(),
        message,
    };
    let winner = match winner_text.as_str() {
        "1" => Some(Seat::First),
        "2" => Some(Seat::Second),
        "3" => None,
        _ => return Err(err("winner must be 1 (Red), 2 (Blue) or 3 (draw)".into())),
    };
    let t: u32 = kind
        .parse()
        .map_err(|_| err("the type must be a number".into()))?;
    let name = |o: Option<Outcome>| match o {
        None => "a game still in progress".to_string(),
        Some(o) => format!("{} by {}", o.result_token(), o.reason),
    };
    let on_board = match t {
        0 => Some(EndReason::NoLegalMoves),
        1 => Some(EndReason::FlagCaptured),
        2 => Some(EndReason::NeitherCanMove),
        _ => None,
    };
    if let Some(reason) = on_board {
        let want = Outcome { winner, reason };
        let got = m.game().outcome();
        if got != Some(want) {
            return Err(err(format!(
                "the file says {} but replaying the moves gives {}",
                name(Some(want)),
                name(got)
            )));
        }
        return Ok(());
    }
    let reason = match t {
        3 => EndReason::Resignation,
        4 => EndReason::Agreement,
        10..=14 => EndReason::Time,
        _ => {
            return Err(err(
                "unknown result type; expected 0-4 or 10-14 (see docs/rules-stratego.md)".into(),
            ));
        }
    };
    let want = Outcome { winner, reason };
    if m.game().outcome().is_some() {
        return Err(err(format!(
            "the file says {} but the game already ended on the board: {}",
            name(Some(want)),
            name(m.game().outcome())
        )));
    }
    m.conclude(want)
        .map_err(|e| err(format!("cannot end the game: {e}")))
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
