//! What the Generals diagnostics (`flagprob`, `spyprob`) share: a record's game as it stood
//! at a ply, and a square from its index.
use salpakan_engine::generals::{FILES, Generals, Square};
use salpakan_engine::{Match, Record, RecordError};

/// The game of the full record `full` after its first `ply` plies, still going on.
///
/// # Errors
/// If the cut record does not replay.
pub fn match_at_ply(full: &Record, ply: usize) -> Result<Match<Generals>, RecordError> {
    let mut rec = full.clone();
    rec.plies.truncate(ply);
    rec.result = "*".into();
    rec.tags
        .retain(|(k, _)| k != "Result" && k != "Reason" && k != "Plies");
    Match::<Generals>::replay(&rec)
}

/// The square of index `i` (`Square::index`), as the belief's tokens keep squares.
pub fn square(i: u8) -> Square {
    Square::new(i % FILES, i / FILES).expect("a square of the board")
}
