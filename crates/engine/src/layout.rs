//! [`Layout`]: what a client needs to draw a game — the board, the seats, the setup areas,
//! the lakes, the pieces and the armies — in one serializable description. The terminal
//! client takes its geometry from it, and the web client from `web/assets/layout.js`, a
//! file generated from it (`cargo run -p salpakan-engine --example layout_js`).

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::banqi;
use crate::generals::{self, GeneralsOptions};
use crate::stratego::{self, StrategoOptions};
use crate::{GameKind, GameOptions, GameSpec, Seat, square};

/// Piece codes with a count or a name each, in order; serialized as a JSON object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ordered<T>(pub Vec<(String, T)>);

impl<T> Ordered<T> {
    /// The value for `key`, if any.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<T: Serialize> Serialize for Ordered<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// One game's layout for a client. Squares are named as in the notation (`a1` is the
/// first seat's left corner).
///
/// ```
/// use salpakan_engine::{GameKind, GameSpec, Seat};
///
/// let l = GameKind::Stratego.layout();
/// assert_eq!((l.files, l.ranks, l.seats), (10, 10, ["red", "blue"]));
/// assert_eq!(l.lakes.len(), 8);
/// assert_eq!(l.armies.get("barrage").unwrap().get("2"), Some(&2));
/// // The layout of a spec follows its options: here Barrage, set up anywhere.
/// let spec = GameSpec::from_text(GameKind::Stratego, "army=barrage setup_area=board")?;
/// let l = spec.layout();
/// assert_eq!(l.army.0.iter().map(|(_, n)| n).sum::<u32>(), 8);
/// assert_eq!(l.setup_areas[Seat::First.index()].len(), 92);
/// # Ok::<(), salpakan_engine::OptionError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Layout {
    /// The game's name in protocols (`generals`).
    pub game: &'static str,
    /// The game's full English name (`Game of the Generals`).
    pub title: &'static str,
    /// Files (columns), `a` first.
    pub files: u8,
    /// Ranks (rows), `1` first.
    pub ranks: u8,
    /// The seats' names, first seat first.
    pub seats: [&'static str; 2],
    /// Whether players set up their pieces (Banqi is dealt).
    pub has_setup: bool,
    /// The squares each seat sets up on, by seat index (for these options).
    pub setup_areas: [Vec<String>; 2],
    /// The squares no piece may enter.
    pub lakes: Vec<String>,
    /// Every piece code, strongest first (Banqi: red, then black): the order of a tray.
    pub order: Vec<String>,
    /// The army each side sets up with under these options: code → count, in the engine's
    /// piece order (`Piece::ALL`; empty for Banqi).
    pub army: Ordered<u32>,
    /// The named armies of the `army` option: name → (code → count).
    pub armies: Ordered<Ordered<u32>>,
    /// Each piece's English name by code (Banqi: with its colour, `red General`).
    pub names: Ordered<String>,
}

/// The named armies of each game, in the order the options list them.
const GENERALS_ARMIES: [&str; 2] = ["full", "reduced"];
const STRATEGO_ARMIES: [&str; 4] = ["classic", "barrage", "duel", "ultimate_lightning"];

/// Stratego's pieces strongest first, as players rank them: the Marshal down to the Scout,
/// then the Spy, the Bombs and the Flag (the engine's `Piece::ALL` starts at the Flag).
const STRATEGO_ORDER: [stratego::Piece; 12] = {
    use stratego::Piece::*;
    [
        Marshal, General, Colonel, Major, Captain, Lieutenant, Sergeant, Miner, Scout, Spy, Bomb,
        Flag,
    ]
};

/// The squares of a board matching `keep`, `a1` first.
fn squares(files: u8, ranks: u8, keep: impl Fn(u8, u8) -> bool) -> Vec<String> {
    (0..ranks)
        .flat_map(|r| (0..files).map(move |f| (f, r)))
        .filter(|&(f, r)| keep(f, r))
        .map(|(f, r)| square::name(f, r))
        .collect()
}

/// Counts of `pieces` (with repeats, strongest first) by code, in order.
fn counts<'a>(pieces: impl IntoIterator<Item = &'a str>) -> Ordered<u32> {
    let mut out: Vec<(String, u32)> = Vec::new();
    for code in pieces {
        match out.iter_mut().find(|(k, _)| k == code) {
            Some((_, n)) => *n += 1,
            None => out.push((code.to_string(), 1)),
        }
    }
    Ordered(out)
}

fn generals_army(o: &GeneralsOptions) -> Ordered<u32> {
    counts(o.army.pieces().iter().map(|p| p.code()))
}

fn stratego_army(o: &StrategoOptions) -> Ordered<u32> {
    counts(o.army.pieces().iter().map(|p| p.code()))
}

/// The named armies, each read through the options' own parser.
fn armies<O: GameOptions>(
    names: &[&str],
    army: impl Fn(&O) -> Ordered<u32>,
) -> Ordered<Ordered<u32>> {
    Ordered(
        names
            .iter()
            .map(|&name| {
                let o = O::from_pairs([("army", name)]).expect("a named army is an option value");
                (name.to_string(), army(&o))
            })
            .collect(),
    )
}

impl GameSpec {
    /// The layout of this game under these options (setup areas and army follow them).
    #[must_use]
    pub fn layout(&self) -> Layout {
        let kind = self.kind();
        let (files, ranks) = kind.board_size();
        let seats = Seat::BOTH.map(|s| kind.seat_name(s));
        let base = |title, setup_areas, lakes, order, army, armies, names| Layout {
            game: kind.name(),
            title,
            files,
            ranks,
            seats,
            has_setup: kind.has_setups(),
            setup_areas,
            lakes,
            order,
            army,
            armies,
            names,
        };
        match self {
            GameSpec::Generals(o) => {
                // Each side sets up on its first three ranks.
                let area = |seat: Seat| {
                    squares(files, ranks, |_, r| match seat {
                        Seat::First => r < 3,
                        Seat::Second => r >= ranks - 3,
                    })
                };
                let pieces = generals::Piece::ALL;
                base(
                    "Game of the Generals",
                    Seat::BOTH.map(area),
                    Vec::new(),
                    pieces.iter().map(|p| p.code().to_string()).collect(),
                    generals_army(o),
                    armies::<GeneralsOptions>(&GENERALS_ARMIES, generals_army),
                    Ordered(
                        pieces
                            .iter()
                            .map(|p| (p.code().to_string(), p.name().to_string()))
                            .collect(),
                    ),
                )
            }
            GameSpec::Stratego(o) => {
                let area = |seat: Seat| {
                    let mask = o.setup_area.mask(seat);
                    stratego::Square::all()
                        .filter(|s| mask & (1u128 << s.index()) != 0)
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                };
                let pieces = STRATEGO_ORDER;
                base(
                    "Stratego",
                    Seat::BOTH.map(area),
                    stratego::Square::all()
                        .filter(|s| s.is_lake())
                        .map(|s| s.to_string())
                        .collect(),
                    pieces.iter().map(|p| p.code().to_string()).collect(),
                    stratego_army(o),
                    armies::<StrategoOptions>(&STRATEGO_ARMIES, stratego_army),
                    Ordered(
                        pieces
                            .iter()
                            .map(|p| (p.code().to_string(), p.name().to_string()))
                            .collect(),
                    ),
                )
            }
            GameSpec::Banqi(_) => {
                let pieces = banqi::Piece::ALL;
                base(
                    "Banqi",
                    [Vec::new(), Vec::new()],
                    Vec::new(),
                    pieces.iter().map(|p| p.code().to_string()).collect(),
                    Ordered::default(),
                    Ordered::default(),
                    Ordered(
                        pieces
                            .iter()
                            .map(|p| {
                                let name = format!("{} {}", p.color.name(), p.kind.name());
                                (p.code().to_string(), name)
                            })
                            .collect(),
                    ),
                )
            }
        }
    }
}

impl GameKind {
    /// The layout of this game under its default options.
    #[must_use]
    pub fn layout(self) -> Layout {
        GameSpec::default_for(self).layout()
    }
}

/// The text of `web/assets/layout.js`: every game's default [`Layout`] as an ES module
/// (`export const LAYOUT = {...}`), for the web client. The engine's test
/// `the_web_clients_layout_file_is_generated_from_the_engine` keeps the committed file equal
/// to this; regenerate it with
/// `cargo run -p salpakan-engine --example layout_js > web/assets/layout.js`.
#[must_use]
pub fn layout_js() -> String {
    let games: Vec<String> = GameKind::ALL
        .iter()
        .map(|k| {
            let json = serde_json::to_string(&k.layout()).expect("layouts serialize");
            format!("  {}: {json},\n", k.name())
        })
        .collect();
    let json = format!("{{\n{}}}", games.concat());
    format!(
        "// Generated from the engine (salpakan_engine::layout::layout_js): do not edit.\n\
         // Regenerate: cargo run -p salpakan-engine --example layout_js > web/assets/layout.js\n\
         \n\
         /**\n \
         * @typedef {{object}} Layout\n \
         * @property {{string}} game\n \
         * @property {{string}} title\n \
         * @property {{number}} files\n \
         * @property {{number}} ranks\n \
         * @property {{[string, string]}} seats\n \
         * @property {{boolean}} has_setup\n \
         * @property {{[string[], string[]]}} setup_areas\n \
         * @property {{string[]}} lakes\n \
         * @property {{string[]}} order          piece codes strongest first\n \
         * @property {{Record<string, number>}} army\n \
         * @property {{Record<string, Record<string, number>>}} armies\n \
         * @property {{Record<string, string>}} names\n \
         */\n\
         \n\
         /** @type {{Record<'generals' | 'stratego' | 'banqi', Layout>}} */\n\
         export const LAYOUT = {json};\n"
    )
}
