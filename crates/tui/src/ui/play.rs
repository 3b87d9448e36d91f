//! The play screen: board, side panels and the move log.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Wrap};
use salpakan_engine::{GameKind, Viewer};
use serde_json::Value;

use crate::app::{App, BoardGeom, Screen, reason_text};

use super::{Marks, draw_board, key_help, seat_color, split_body, title_bar};

// Over 100 lines: the play screen's panels (board, status, losses, log, keys) laid out
// and drawn top to bottom; split, each piece would take the same areas, observation and seat.
pub(super) fn draw_play(app: &App, f: &mut Frame, top: Rect, body: Rect, foot: Rect) -> BoardGeom {
    let Screen::Play(ps) = &app.screen else {
        unreachable!("play screen")
    };
    let p = &app.pres;
    let cfg = app.cfg.as_ref().expect("a game");
    let me = cfg.seat;
    let outcome = ps.m.outcome();
    let over = outcome.is_some();
    // Until the end the player sees only their own seat's observation; then everything.
    let viewer = if over {
        Viewer::Arbiter
    } else {
        Viewer::Player(me)
    };
    let obs = ps.m.observe_json(viewer);
    let history = ps.m.history_json(Viewer::Player(me));
    let turn = if over {
        "game over".to_string()
    } else if app.thinking() {
        "the bot is thinking…".to_string()
    } else if ps.m.to_move() == Some(me) {
        "your move".to_string()
    } else {
        "bot to move".to_string()
    };
    let you = match (p.kind, ps.m.seat_colours()) {
        (GameKind::Banqi, Some(c)) => format!("you: {} ({})", p.seat_title(me), c[me.index()]),
        _ => format!("you: {}", p.seat_title(me)),
    };
    title_bar(
        f,
        top,
        format!(" salpakan · {} · {you} vs {} ", p.title(), cfg.bot),
        format!("ply {} · {turn} ", ps.m.ply()),
    );
    let (left, right) = split_body(p, body);
    let last = history
        .last()
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
        .unwrap_or_default();
    let marks = Marks {
        cursor: (!over).then_some(ps.cursor),
        selected: ps.selected,
        targets: app.targets(),
        last,
        area: Vec::new(),
    };
    let board_title = if over {
        "Board: everything revealed"
    } else {
        "Board"
    };
    let geom = draw_board(f, left, p, &obs, p.flipped_for(me), &marks, board_title);

    let [status_area, lost_area, log_area] = Layout::vertical([
        Constraint::Length(if over { 6 } else { 5 }),
        Constraint::Length(4),
        Constraint::Min(4),
    ])
    .areas(right);
    let mut status = Vec::new();
    if let Some(o) = outcome {
        let (text, color) = match o.winner {
            Some(w) if w == me => ("You win!".to_string(), Color::LightGreen),
            Some(_) => ("The bot wins.".to_string(), Color::LightRed),
            None => ("Draw.".to_string(), Color::Yellow),
        };
        status.push(Line::from(vec![
            Span::styled(text, Style::new().fg(color).bold()),
            Span::raw(format!(
                " {} by {}",
                o.result_token(),
                reason_text(o.reason)
            )),
        ]));
        match &ps.saved {
            Some(Ok(path)) => {
                status.push(Line::from("Record saved to:"));
                status.push(Line::from(Span::styled(
                    path.display().to_string(),
                    Style::new().fg(Color::LightCyan),
                )));
            }
            Some(Err(e)) => status.push(Line::from(Span::styled(
                format!("The record could not be saved: {e}"),
                Style::new().fg(Color::LightRed),
            ))),
            None => {}
        }
    } else {
        let to_move = ps.m.to_move().map_or(String::new(), |s| {
            if s == me {
                "Your move".into()
            } else {
                "The bot's move".into()
            }
        });
        let spinner = if app.thinking() {
            let t = ps
                .job
                .as_ref()
                .map_or(0, |(_, since)| since.elapsed().as_millis());
            ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"][(t / 100 % 10) as usize]
        } else {
            ""
        };
        status.push(Line::from(vec![
            Span::styled(to_move, Style::new().bold()),
            Span::raw(if app.thinking() {
                format!(" — thinking… {spinner}")
            } else {
                String::new()
            }),
        ]));
        status.push(Line::from(p.describe(&obs, ps.cursor, Some(me))));
        if let Some(sel) = ps.selected {
            status.push(Line::from(format!(
                "selected {}: {} destination(s)",
                p.square_name(sel),
                app.targets().len()
            )));
        }
    }
    f.render_widget(
        Paragraph::new(status).wrap(Wrap { trim: true }).block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Rounded)
                .title(if over { " Game over " } else { " Status " }),
        ),
        status_area,
    );

    let losses = p.losses(&obs);
    let verb = match p.kind {
        GameKind::Generals => "eliminated",
        _ => "captured",
    };
    let mut lost = Vec::new();
    for seat in [me, me.other()] {
        let who = if seat == me { "yours" } else { "bot's" };
        let list = &losses[seat.index()];
        let labels: Vec<String> = list.iter().map(|c| p.piece_label(c)).collect();
        lost.push(Line::from(vec![
            Span::styled(
                format!("{who:>5}: "),
                Style::new().fg(seat_color(p, seat)).bold(),
            ),
            Span::raw(if labels.is_empty() {
                "none".to_string()
            } else {
                labels.join(" ")
            }),
        ]));
    }
    f.render_widget(
        Paragraph::new(lost).wrap(Wrap { trim: true }).block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Rounded)
                .title(format!(" Pieces {verb} ")),
        ),
        lost_area,
    );

    let mut lines: Vec<String> = history
        .iter()
        .map(|v| p.describe_ply(v, Some(me)))
        .collect();
    if let Some(o) = outcome {
        let who = match o.winner {
            Some(w) if w == me => "you win",
            Some(_) => "the bot wins",
            None => "a draw",
        };
        lines.push(format!(
            "  {} {who}: {}",
            o.result_token(),
            reason_text(o.reason)
        ));
    }
    draw_log(f, log_area, &lines, ps.log_scroll, None, " Log ");

    let keys: Vec<(&str, &str)> = if over {
        vec![
            ("n", "new game"),
            ("PgUp/PgDn", "scroll log"),
            ("q", "quit"),
        ]
    } else {
        vec![
            ("←↑↓→", "cursor"),
            ("Enter", "select/move"),
            (":", "type a move"),
            ("Esc", "cancel"),
            ("d", "offer draw"),
            ("R", "resign"),
            ("PgUp/PgDn", "log"),
            ("?", "help"),
            ("q", "quit"),
        ]
    };
    key_help(f, foot, &keys);
    geom
}

/// Splits `text` into rows of at most `width` characters at spaces; continuation rows are
/// indented.
fn wrap_text(text: &str, width: usize) -> Vec<String> {
    let width = width.max(12);
    let lead = text.len() - text.trim_start().len();
    let mut rows = Vec::new();
    let mut row = text[..lead].to_string();
    let mut fresh = true;
    for word in text.trim_start().split(' ').filter(|w| !w.is_empty()) {
        let need = row.chars().count() + usize::from(!fresh) + word.chars().count();
        if need > width && !fresh {
            rows.push(std::mem::replace(&mut row, " ".repeat(6)));
            fresh = true;
        }
        if !fresh {
            row.push(' ');
        }
        row.push_str(word);
        fresh = false;
    }
    if !fresh {
        rows.push(row);
    }
    rows
}

pub(super) fn draw_log(
    f: &mut Frame,
    area: Rect,
    lines: &[String],
    scroll_back: usize,
    current: Option<usize>,
    title: &str,
) {
    let rows_shown = area.height.saturating_sub(2) as usize;
    let width = area.width.saturating_sub(2) as usize;
    // Every display row, with the index of its line.
    let rows: Vec<(usize, String)> = lines
        .iter()
        .enumerate()
        .flat_map(|(i, l)| wrap_text(l, width).into_iter().map(move |r| (i, r)))
        .collect();
    let end = match current {
        // Keep the current ply in view, a few rows from the bottom.
        Some(c) => {
            let last_row = rows
                .iter()
                .rposition(|(i, _)| *i + 1 == c)
                .map_or(0, |r| r + 1);
            (last_row + 3)
                .min(rows.len())
                .max(rows_shown.min(rows.len()))
        }
        None => rows
            .len()
            .saturating_sub(scroll_back.min(rows.len().saturating_sub(rows_shown))),
    };
    let start = end.saturating_sub(rows_shown);
    let shown: Vec<Line> = rows[start..end]
        .iter()
        .map(|(idx, l)| {
            let text = &lines[*idx];
            let mut style = Style::new();
            if text.contains("challenge:") || text.contains("attack:") || text.contains(" takes ") {
                style = style.fg(Color::LightYellow);
            }
            if current.is_some_and(|c| c > 0 && idx + 1 == c) {
                style = style.bg(Color::Indexed(238)).bold();
            }
            Line::from(Span::styled(l.clone(), style))
        })
        .collect();
    f.render_widget(
        Paragraph::new(shown).block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Rounded)
                .title(title.to_string()),
        ),
        area,
    );
}
