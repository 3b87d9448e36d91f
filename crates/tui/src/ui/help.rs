//! The help overlay.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph};
use salpakan_engine::GameKind;

use crate::app::{App, Screen};

use super::KEY;

pub(super) fn help(app: &App, f: &mut Frame, area: Rect) {
    let mut lines: Vec<Line> = Vec::new();
    let k = |key: &str, what: &str| {
        Line::from(vec![
            Span::styled(format!("{key:>16}  "), Style::new().fg(KEY).bold()),
            Span::raw(what.to_string()),
        ])
    };
    match &app.screen {
        Screen::Setup(_) => {
            lines.push(
                Line::from("Setup: place every piece of your army in the shaded area.").bold(),
            );
            lines.push(k("arrow keys", "move the cursor (or click a square)"));
            lines.push(k(
                "Tab / Shift-Tab",
                "choose the next / previous piece to place",
            ));
            lines.push(k(
                "Enter / Space",
                "place the piece; on a placed piece: pick it up,",
            ));
            lines.push(k("", "then Enter on another square moves or swaps it"));
            lines.push(k("x / Delete", "put the piece under the cursor back"));
            lines.push(k("r / b", "a random setup / the bot's setup for you"));
            lines.push(k("c", "clear the board"));
            lines.push(k("s / l", "save / load a setup (a name, or a path)"));
            lines.push(k("g", "start the game"));
            lines.push(k("q", "quit"));
        }
        Screen::Play(_) => {
            lines.push(
                Line::from("Play: you see your own pieces; the bot's are backs (▒▒▒).").bold(),
            );
            lines.push(k("arrow keys", "move the cursor (or click a square)"));
            lines.push(k(
                "Enter / Space",
                "select a piece, then Enter on a green square",
            ));
            if app.pres.kind == GameKind::Banqi {
                lines.push(k("", "Enter on a face-down piece flips it"));
            }
            lines.push(k(": or m", "type a move: e3-e4 (Banqi: c3 flips, end)"));
            lines.push(k("Esc", "cancel the selection"));
            lines.push(k("d", "offer a draw (the bot answers)"));
            lines.push(k("R", "resign (asks first)"));
            lines.push(k("PgUp / PgDn", "scroll the log"));
            lines.push(k("n", "after the game: a new game"));
            lines.push(k("q", "quit (asks first; the record is saved)"));
        }
        Screen::Replay(_) => {
            lines.push(Line::from("Replay: step through the record.").bold());
            lines.push(k("→ / Space", "next ply"));
            lines.push(k("←", "previous ply"));
            lines.push(k("PgDn / PgUp", "10 plies on / back"));
            lines.push(k("Home / End", "the start / the end"));
            lines.push(k("q / Esc", "quit"));
        }
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "any key closes this help",
        Style::new().fg(Color::Gray),
    )));
    let w = 70.min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    f.render_widget(Clear, rect);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Double)
                .title(" Help "),
        ),
        rect,
    );
}
