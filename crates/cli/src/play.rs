//! `salpakan play` and `salpakan replay`: the terminal game and record viewer
//! (crate `salpakan-tui`).

use std::path::PathBuf;

use salpakan_engine::{GameKind, GameSpec, Seat};
use salpakan_tui::{PlayConfig, app::fresh_seed};

/// Plays `game` against `bot` in the terminal.
pub fn play(
    game: &str,
    bot: &str,
    seat: Option<&str>,
    options: &[String],
    seed: Option<u64>,
    save: Option<PathBuf>,
) -> Result<(), String> {
    let kind: GameKind = game.parse()?;
    let seed = seed.unwrap_or_else(fresh_seed);
    let seat = match seat {
        None => Seat::First,
        Some(s) if s.eq_ignore_ascii_case("random") => Seat::from_index((seed % 2) as usize),
        Some(s) => kind.parse_seat(s).ok_or_else(|| {
            format!(
                "{kind} has no seat {s:?}; choose {}, {} or random",
                kind.seat_name(Seat::First),
                kind.seat_name(Seat::Second)
            )
        })?,
    };
    let spec = GameSpec::from_key_values(kind, options.iter().map(String::as_str))
        .map_err(|e| format!("bad options: {e}"))?;
    let cfg = PlayConfig {
        spec,
        bot: bot.to_string(),
        seat,
        seed,
        save,
        out_dir: PathBuf::new(),
        setups_base: None,
    };
    let records = salpakan_tui::run_play(cfg).map_err(|e| e.to_string())?;
    for r in records {
        match r {
            Ok(path) => println!(
                "record saved to {} (check it: salpakan record check {0}; watch it: salpakan replay {0})",
                path.display()
            ),
            Err(e) => eprintln!("salpakan: the record could not be saved: {e}"),
        }
    }
    Ok(())
}

/// Steps through a record in the terminal.
pub fn replay(file: PathBuf) -> Result<(), String> {
    salpakan_tui::run_replay(file).map_err(|e| e.to_string())
}
