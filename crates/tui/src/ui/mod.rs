//! Drawing the screens with ratatui.

mod help;
mod play;
mod replay;
mod setup_screen;

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};
use salpakan_engine::{GameKind, Seat};
use serde_json::Value;

use crate::app::{App, BoardGeom, Input, Screen, Tone};
use crate::presenter::{EMPTY, Ink, Pos, Presenter};

use help::help;
use play::{draw_log, draw_play};
use replay::draw_replay;
use setup_screen::draw_setup;

/// The smallest terminal the screens fit in.
pub const MIN_SIZE: (u16, u16) = (80, 24);

const TITLE_BG: Color = Color::Indexed(24);
const KEY: Color = Color::Yellow;

/// Marks on the board.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The cursor.
    pub cursor: Option<Pos>,
    /// The piece picked to move (or held on the setup screen).
    pub selected: Option<Pos>,
    /// Where the selected piece may go.
    pub targets: Vec<Pos>,
    /// The last ply's squares.
    pub last: Vec<Pos>,
    /// A shaded area (the setup area).
    pub area: Vec<Pos>,
}

fn ink_style(ink: Ink) -> Style {
    match ink {
        Ink::White => Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
        Ink::Black => Style::new()
            .fg(Color::LightMagenta)
            .add_modifier(Modifier::BOLD),
        Ink::Red | Ink::BanqiRed => Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD),
        Ink::Blue => Style::new()
            .fg(Color::LightBlue)
            .add_modifier(Modifier::BOLD),
        Ink::BanqiBlack => Style::new()
            .fg(Color::LightCyan)
            .add_modifier(Modifier::BOLD),
        Ink::FaceDown => Style::new().fg(Color::Indexed(137)),
        Ink::Lake => Style::new().fg(Color::Blue),
        Ink::Empty => Style::new().fg(Color::DarkGray),
    }
}

/// The colour used for a seat's name.
fn seat_color(p: &Presenter, seat: Seat) -> Color {
    match (p.kind, seat) {
        (GameKind::Generals, Seat::First) => Color::White,
        (GameKind::Generals, Seat::Second) => Color::LightMagenta,
        (GameKind::Stratego, Seat::First) => Color::LightRed,
        (GameKind::Stratego, Seat::Second) => Color::LightBlue,
        (GameKind::Banqi, _) => Color::Yellow,
    }
}

/// Cell sizes (columns, rows), largest first: the board takes the largest that fits.
const CELL_SIZES: [(u16, u16); 3] = [(7, 3), (5, 1), (4, 1)];

/// The cell size for a board of `p` in a body of this size, leaving `side` columns for the
/// panels beside it.
fn cell_size(p: &Presenter, body: Rect, side: u16) -> (u16, u16) {
    let (files, ranks) = (u16::from(p.files), u16::from(p.ranks));
    CELL_SIZES
        .into_iter()
        .find(|&(w, h)| files * w + 8 + side <= body.width && ranks * h + 4 <= body.height)
        .unwrap_or((4, 1))
}

/// Draws the board of `observation` in `area` and returns where its cells are.
// Over 100 lines: one pass over ranks, cell rows and files that builds the board's lines
// (coordinates, pieces, marks); the cell size and the marks are shared by every step.
pub fn draw_board(
    f: &mut Frame,
    area: Rect,
    p: &Presenter,
    observation: &Value,
    flipped: bool,
    marks: &Marks,
    title: &str,
) -> BoardGeom {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .title(Span::styled(format!(" {title} "), Style::new().bold()));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let (cell_w, cell_h) = cell_size(p, area, 0);
    let files = u16::from(p.files);
    let board_w = files * cell_w + 6;
    let board_h = u16::from(p.ranks) * cell_h + 2;
    let x0 = inner.x + inner.width.saturating_sub(board_w) / 2;
    let y0 = inner.y + inner.height.saturating_sub(board_h) / 2;
    let col_of = |i: u8| if flipped { p.files - 1 - i } else { i };
    let row_of = |i: u8| if flipped { i } else { p.ranks - 1 - i };
    let letters: Line = {
        let mut s = vec![Span::raw("   ")];
        for i in 0..p.files {
            let letter = (b'a' + col_of(i)) as char;
            s.push(Span::styled(
                format!("{:^w$}", letter, w = cell_w as usize),
                Style::new().fg(Color::Gray),
            ));
        }
        Line::from(s)
    };
    let mut lines = vec![letters.clone()];
    for i in 0..p.ranks {
        let r = row_of(i);
        for sub in 0..cell_h {
            let middle = sub == cell_h / 2;
            let rank_label = |left: bool| {
                let t = match (middle, left) {
                    (false, _) => "   ".to_string(),
                    (true, true) => format!("{:>2} ", r + 1),
                    (true, false) => format!(" {:<2}", r + 1),
                };
                Span::styled(t, Style::new().fg(Color::Gray))
            };
            let mut s = vec![rank_label(true)];
            for j in 0..p.files {
                let pos = (col_of(j), r);
                let c = p.cell(observation, pos);
                let dark = (pos.0 + pos.1) % 2 == 0;
                let mut bg = if marks.area.contains(&pos) {
                    if dark {
                        Color::Indexed(23)
                    } else {
                        Color::Indexed(24)
                    }
                } else if dark {
                    Color::Indexed(235)
                } else {
                    Color::Indexed(237)
                };
                if marks.last.contains(&pos) {
                    bg = Color::Indexed(58);
                }
                if marks.targets.contains(&pos) {
                    bg = Color::Indexed(28);
                }
                if marks.selected == Some(pos) {
                    bg = Color::Indexed(25);
                }
                let mut style = ink_style(c.ink).bg(bg);
                if c.hidden {
                    style = style.add_modifier(Modifier::DIM | Modifier::ITALIC);
                }
                let label = if !middle {
                    String::new()
                } else if marks.targets.contains(&pos) && c.label == EMPTY {
                    "•".to_string()
                } else {
                    c.label
                };
                if marks.cursor == Some(pos) {
                    style = style.bg(Color::Yellow).fg(Color::Black);
                }
                let text = if cell_w == 4 {
                    format!("{label:^4}")
                } else {
                    let pad = (cell_w as usize - 3) / 2;
                    format!("{}{label:^3}{}", " ".repeat(pad), " ".repeat(pad))
                };
                s.push(Span::styled(text, style));
            }
            s.push(rank_label(false));
            lines.push(Line::from(s));
        }
    }
    lines.push(letters);
    let rect = Rect::new(x0, y0, board_w.min(inner.width), board_h.min(inner.height));
    f.render_widget(Paragraph::new(lines), rect);
    BoardGeom {
        cells: Rect::new(
            x0 + 3,
            y0 + 1,
            files * cell_w,
            (u16::from(p.ranks) * cell_h).min(inner.height.saturating_sub(1)),
        ),
        cell_w,
        cell_h,
        flipped,
    }
}

fn title_bar(f: &mut Frame, area: Rect, left: String, right: String) {
    let w = area.width as usize;
    let pad = w.saturating_sub(left.chars().count() + right.chars().count());
    let line = format!("{left}{}{right}", " ".repeat(pad));
    f.render_widget(
        Paragraph::new(line).style(Style::new().bg(TITLE_BG).fg(Color::White).bold()),
        area,
    );
}

fn key_help(f: &mut Frame, area: Rect, keys: &[(&str, &str)]) {
    // Wrap between items, never inside one.
    let mut lines: Vec<Line> = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    let mut used = 0usize;
    for (k, what) in keys {
        let key = format!(" {k}");
        let text = format!(" {what} ");
        let w = key.chars().count() + text.chars().count();
        if used + w > area.width as usize && !spans.is_empty() {
            lines.push(Line::from(std::mem::take(&mut spans)));
            used = 0;
        }
        used += w;
        spans.push(Span::styled(key, Style::new().fg(KEY).bold()));
        spans.push(Span::styled(text, Style::new().fg(Color::Gray)));
    }
    lines.push(Line::from(spans));
    f.render_widget(
        Paragraph::new(lines).style(Style::new().bg(Color::Indexed(236))),
        area,
    );
}

fn status_line(f: &mut Frame, area: Rect, app: &App) {
    let line = match &app.input {
        Input::Command(t) => Line::from(vec![
            Span::styled(" move: ", Style::new().fg(KEY).bold()),
            Span::raw(t.clone()),
            Span::styled("█", Style::new().fg(Color::Gray)),
        ]),
        Input::SaveSetup(t) => Line::from(vec![
            Span::styled(" save setup as: ", Style::new().fg(KEY).bold()),
            Span::raw(t.clone()),
            Span::styled("█", Style::new().fg(Color::Gray)),
        ]),
        Input::LoadSetup(t) => Line::from(vec![
            Span::styled(" load setup: ", Style::new().fg(KEY).bold()),
            Span::raw(t.clone()),
            Span::styled("█", Style::new().fg(Color::Gray)),
        ]),
        _ => match &app.message {
            Some((m, Tone::Error)) => Line::from(Span::styled(
                format!(" {m}"),
                Style::new().fg(Color::LightRed),
            )),
            Some((m, Tone::Info)) => Line::from(Span::styled(format!(" {m}"), Style::new())),
            None => Line::from(""),
        },
    };
    f.render_widget(Paragraph::new(line), area);
}

fn message_over_prompt(app: &App) -> Option<Line<'static>> {
    match &app.input {
        Input::SaveSetup(_) | Input::LoadSetup(_) | Input::Command(_) => app
            .message
            .as_ref()
            .map(|(m, _)| Line::from(Span::styled(format!(" {m}"), Style::new().fg(Color::Gray)))),
        _ => None,
    }
}

/// Renders the whole screen.
pub fn draw(app: &mut App, f: &mut Frame) {
    let area = f.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        too_small(f, area);
        app.board_geom = None;
        return;
    }
    let [top, body, msg, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(10),
        Constraint::Length(1),
        Constraint::Length(2),
    ])
    .areas(area);
    app.board_geom = match &app.screen {
        Screen::Setup(_) => Some(draw_setup(app, f, top, body, foot)),
        Screen::Play(_) => Some(draw_play(app, f, top, body, foot)),
        Screen::Replay(_) => Some(draw_replay(app, f, top, body, foot)),
    };
    status_line(f, msg, app);
    if let Some(hint) = message_over_prompt(app) {
        f.render_widget(Clear, foot);
        f.render_widget(
            Paragraph::new(hint)
                .wrap(Wrap { trim: true })
                .style(Style::new().bg(Color::Indexed(236))),
            foot,
        );
    }
    if app.input == Input::Help {
        help(app, f, area);
    }
}

fn too_small(f: &mut Frame, area: Rect) {
    let text = vec![
        Line::from(Span::styled(
            "The terminal is too small",
            Style::new().bold(),
        )),
        Line::from(""),
        Line::from(format!(
            "salpakan needs at least {}×{}; this one is {}×{}.",
            MIN_SIZE.0, MIN_SIZE.1, area.width, area.height
        )),
        Line::from("Enlarge the window (or make the font smaller)."),
        Line::from("Ctrl-C quits."),
    ];
    let h = (text.len() as u16).min(area.height);
    let y = area.y + area.height.saturating_sub(h) / 2;
    f.render_widget(
        Paragraph::new(text)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true }),
        Rect::new(area.x, y, area.width, h),
    );
}

fn split_body(p: &Presenter, body: Rect) -> (Rect, Rect) {
    let (w, _) = cell_size(p, body, 40);
    let board = u16::from(p.files) * w + 8;
    let [l, r] = Layout::horizontal([Constraint::Length(board), Constraint::Min(30)]).areas(body);
    (l, r)
}
