//! The replay screen.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Wrap};
use salpakan_engine::{Seat, Viewer};
use serde_json::Value;

use crate::app::{App, BoardGeom, Screen, reason_text};

use super::{Marks, draw_board, draw_log, key_help, split_body, title_bar};

// Over 100 lines: the replay screen's panels (title, board, game panel, keys) drawn top to
// bottom from one decoded position; split, each piece would take the same areas and state.
pub(super) fn draw_replay(
    app: &App,
    f: &mut Frame,
    top: Rect,
    body: Rect,
    foot: Rect,
) -> BoardGeom {
    let Screen::Replay(r) = &app.screen else {
        unreachable!("replay screen")
    };
    let p = &r.pres;
    let file = r.path.file_name().map_or_else(
        || r.path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let copy = match r.seat {
        Some(s) => format!("{}'s copy", p.seat_title(s)),
        None => "full record".into(),
    };
    title_bar(
        f,
        top,
        format!(" salpakan replay · {} · {file} · {copy} ", p.title()),
        format!("ply {} of {} ", r.pos, r.record.plies.len()),
    );
    let (left, right) = split_body(p, body);
    let flipped = r.seat.is_some_and(|s| p.flipped_for(s));
    let last = match (&r.full, r.pos) {
        (Some(m), n) if n > 0 => m
            .history_json(Viewer::Arbiter)
            .get(n - 1)
            .map(|v| {
                let mut sq = Vec::new();
                for k in ["from", "to", "move"] {
                    if let Some(s) = v.get(k).and_then(Value::as_str) {
                        if let Some(pos) = crate::presenter::move_squares(p, s) {
                            sq.push(pos.0);
                            sq.push(pos.1);
                        }
                    }
                }
                sq
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let marks = Marks {
        last,
        ..Marks::default()
    };
    let title = match r.seat {
        Some(s) => format!(
            "{}'s setup (a seat copy cannot be replayed)",
            p.seat_title(s)
        ),
        None => "Board (arbiter's view)".into(),
    };
    let geom = draw_board(f, left, p, &r.observation, flipped, &marks, &title);
    let [info_area, log_area] =
        Layout::vertical([Constraint::Length(9), Constraint::Min(4)]).areas(right);
    let tag = |k: &str| r.record.tag(k).unwrap_or("?").to_string();
    let names: Vec<String> = Seat::BOTH
        .iter()
        .map(|&s| {
            let t = p.seat_title(s);
            format!("{t}: {}", r.record.tag(&t).unwrap_or("?"))
        })
        .collect();
    let current = if r.pos > 0 {
        r.lines.get(r.pos - 1).cloned().unwrap_or_default()
    } else {
        "the start".to_string()
    };
    let info = vec![
        Line::from(Span::styled(current, Style::new().bold())),
        Line::from(names.join("  ")),
        Line::from(format!(
            "Result {} {}",
            r.record.result,
            r.record
                .tag("Reason")
                .and_then(|x| x.parse().ok())
                .map(|x| format!("({})", reason_text(x)))
                .unwrap_or_else(|| if r.record.result == "*" {
                    "(unfinished)".to_string()
                } else {
                    String::new()
                })
        )),
        Line::from(format!("Date {}", tag("Date"))),
        Line::from(format!("Options: {}", tag("Options"))),
    ];
    f.render_widget(
        Paragraph::new(info).wrap(Wrap { trim: true }).block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Rounded)
                .title(" Game "),
        ),
        info_area,
    );
    draw_log(f, log_area, &r.lines, 0, Some(r.pos), " Plies ");
    key_help(
        f,
        foot,
        &[
            ("← →", "step"),
            ("PgUp/PgDn", "10 plies"),
            ("Home/End", "start/end"),
            ("?", "help"),
            ("q", "quit"),
        ],
    );
    geom
}
