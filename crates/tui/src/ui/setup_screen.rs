//! The setup screen.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Wrap};

use crate::app::{App, BoardGeom, Screen};

use super::{Marks, draw_board, key_help, split_body, title_bar};

// Over 100 lines: the setup screen's panels (title, board, army, setup panel, keys) drawn
// top to bottom; split, each piece would take the same areas and setup state.
pub(super) fn draw_setup(app: &App, f: &mut Frame, top: Rect, body: Rect, foot: Rect) -> BoardGeom {
    let Screen::Setup(s) = &app.screen else {
        unreachable!("setup screen")
    };
    let p = &app.pres;
    let cfg = app.cfg.as_ref().expect("a game");
    title_bar(
        f,
        top,
        format!(
            " salpakan · {} · setup · you play {}",
            p.title(),
            p.seat_title(cfg.seat)
        ),
        format!("vs {} ", cfg.bot),
    );
    let (left, right) = split_body(p, body);
    let mut board = serde_json::Map::new();
    for (pos, code) in &s.placed {
        board.insert(
            p.square_name(*pos),
            serde_json::json!({"owner": p.kind.seat_name(s.seat), "piece": code}),
        );
    }
    let obs = serde_json::json!({ "board": board });
    let marks = Marks {
        cursor: Some(s.cursor),
        selected: s.held,
        area: p.setup_area(s.seat).to_vec(),
        ..Marks::default()
    };
    let geom = draw_board(
        f,
        left,
        p,
        &obs,
        p.flipped_for(s.seat),
        &marks,
        "Your setup area (shaded)",
    );
    let [army_area, info_area] =
        Layout::vertical([Constraint::Min(6), Constraint::Length(6)]).areas(right);
    let mut lines = Vec::new();
    // Marker, code, two spaces, the name, a space, "n/n": the name gets what is left.
    let name_w = (army_area.width as usize)
        .saturating_sub(2 + 6 + 1 + 5)
        .clamp(4, 22);
    for (i, (code, n)) in s.counts.iter().enumerate() {
        let left_n = s.remaining(i);
        let chosen = i == s.pick && left_n > 0;
        let style = if chosen {
            Style::new().fg(Color::Black).bg(Color::Yellow).bold()
        } else if left_n == 0 {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new()
        };
        let name: String = p.piece_name(code).chars().take(name_w).collect();
        lines.push(Line::from(Span::styled(
            format!(
                "{} {:>3}  {:<name_w$} {left_n}/{n}",
                if chosen { "▶" } else { " " },
                code,
                name
            ),
            style,
        )));
    }
    let rows = army_area.height.saturating_sub(2) as usize;
    let skip = (s.pick + 1).saturating_sub(rows);
    f.render_widget(
        Paragraph::new(lines.into_iter().skip(skip).collect::<Vec<_>>()).block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Rounded)
                .title(" Army: Tab picks the piece "),
        ),
        army_area,
    );
    let total = p.army().len();
    let info = vec![
        Line::from(format!("placed {} of {total}", total - s.left())),
        Line::from(p.describe(&obs, s.cursor, Some(s.seat))),
        Line::from(match s.held {
            Some(h) => format!("holding the piece from {}", p.square_name(h)),
            None => String::new(),
        }),
        Line::from(if s.left() == 0 {
            Span::styled(
                "ready: press g to start",
                Style::new().fg(Color::LightGreen).bold(),
            )
        } else {
            Span::raw("")
        }),
    ];
    f.render_widget(
        Paragraph::new(info).wrap(Wrap { trim: true }).block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Rounded)
                .title(" Setup "),
        ),
        info_area,
    );
    key_help(
        f,
        foot,
        &[
            ("←↑↓→", "cursor"),
            ("Tab", "next piece"),
            ("Enter", "place/pick up/swap"),
            ("x", "remove"),
            ("r", "random"),
            ("b", "bot's setup"),
            ("c", "clear"),
            ("s", "save"),
            ("l", "load"),
            ("g", "start"),
            ("?", "help"),
            ("q", "quit"),
        ],
    );
    geom
}
