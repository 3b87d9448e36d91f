//! Replaying one file: setups from `<field content>`, the moves, the result.

use sha2::{Digest, Sha256};

use crate::stratego::{
    Army, Piece, Rescue, Setup, SetupArea, Setups, Square, Stratego, StrategoOptions,
};
use crate::{EndReason, Game, GameOptions, Match, Outcome, Seat, rng_from_seed};

use super::*;

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
pub(super) fn field_piece(c: u8) -> Option<(Seat, Piece)> {
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

/// Replays one StraDoS2 file under the two-squares limit `limit`, up to and including its
/// result.
pub(super) fn replay_gravon(
    xml: &str,
    file_name: &str,
    limit: u32,
) -> Result<Match<Stratego>, ImportError> {
    let file = file_name.to_string();
    let el_err = |element: &str, message: String| element_error(&file, element, message);
    let elements = parse_xml(xml).map_err(|(line, message)| ImportError::Xml {
        file: file.clone(),
        line,
        message,
    })?;
    let game = game_element(&elements, &file)?;
    let options = options_of(game, limit, &file)?;
    let hidden = setups_of(&elements, &options, &file)?;
    let date = date_from_file_name(file_name);

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

    play_moves(&mut m, &elements, &file)?;

    // The result.
    let results: Vec<&Element> = in_game(&elements, "result").collect();
    match results.as_slice() {
        [] => {}
        [r] => conclude(&mut m, r, &file)?,
        _ => return Err(el_err("<result>", "appears more than once".into())),
    }
    Ok(m)
}

/// The `ImportError::Element` of `file` for `element`.
fn element_error(file: &str, element: &str, message: String) -> ImportError {
    ImportError::Element {
        file: file.to_string(),
        element: element.to_string(),
        message,
    }
}

/// The elements `name` directly inside `<game>`.
fn in_game<'a>(elements: &'a [Element], name: &'a str) -> impl Iterator<Item = &'a Element> {
    elements
        .iter()
        .filter(move |e| e.name == name && e.parent.as_deref() == Some("game"))
}

/// The one `<game>` directly inside the root `<stratego>`.
fn game_element<'a>(elements: &'a [Element], file: &str) -> Result<&'a Element, ImportError> {
    let el_err = |element: &str, message: String| element_error(file, element, message);
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
    Ok(game)
}

/// The options of the `<game type>`, under the two-squares limit `limit`.
fn options_of(game: &Element, limit: u32, file: &str) -> Result<StrategoOptions, ImportError> {
    let el_err = |element: &str, message: String| element_error(file, element, message);
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
    options.two_square_limit = Some(limit);
    options.validate().map_err(|source| ImportError::Options {
        file: file.to_string(),
        source,
    })?;
    Ok(options)
}

/// Both setups, read from `<field content>`.
fn setups_of(
    elements: &[Element],
    options: &StrategoOptions,
    file: &str,
) -> Result<Setups, ImportError> {
    let el_err = |element: &str, message: String| element_error(file, element, message);
    let fields: Vec<&Element> = in_game(elements, "field").collect();
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
        Setup::new(seat, options, &placements[seat.index()]).map_err(|source| ImportError::Setup {
            file: file.to_string(),
            source: Box::new(source),
        })
    };
    Ok(Setups([setup(Seat::First)?, setup(Seat::Second)?]))
}

/// Plays every `<move>` of the game, in order.
fn play_moves(
    m: &mut Match<Stratego>,
    elements: &[Element],
    file: &str,
) -> Result<(), ImportError> {
    let el_err = |element: &str, message: String| element_error(file, element, message);
    for (n, e) in in_game(elements, "move").enumerate() {
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
        let rescue = rescue_of(elements, e).map_err(|m| el_err(&element, m))?;
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
                file: file.to_string(),
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

    Ok(())
}

/// A square of a `<move>`: as [`gravon_square`], and in a move that carries a rescue also
/// file `J` for the tenth file (`K`): the archive's rescue moves write it so (see
/// `docs/rules-stratego.md`, "Ultimate Lightning").
pub(super) fn square_in_move(text: &str, with_rescue: bool) -> Option<Square> {
    match text.as_bytes() {
        [b'J' | b'j', ..] if with_rescue => gravon_square(&format!("K{}", &text[1..])),
        _ => gravon_square(text),
    }
}

/// The `<rescue rescuefield="K4" rescuepiece="8"/>` inside the move element `mv`, if any.
/// `rescuepiece` is the piece's letter number in `<field content>` (B = 1 … M = 12 for Red,
/// N = 13 … Y = 24 for Blue); the archive writes Blue's pieces with either number, so only
/// the piece is read from it (the rescuer is the mover).
pub(super) fn rescue_of(elements: &[Element], mv: &Element) -> Result<Option<Rescue>, String> {
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

pub(super) fn conclude(
    m: &mut Match<Stratego>,
    r: &Element,
    file: &str,
) -> Result<(), ImportError> {
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
