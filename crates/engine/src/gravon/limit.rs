//! Which two-squares limit a record was played under: the year's rule, an override,
//! or the older limit when only that replays the record.

use crate::stratego::Stratego;
use crate::{Copy, Match, Record};

use super::*;

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

pub(super) fn finish(mut m: Match<Stratego>, two_square_rule: &str) -> Record {
    m.set_tag(TWO_SQUARE_TAG, two_square_rule);
    m.record(Copy::Full)
}
