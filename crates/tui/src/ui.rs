//! Drawing the screens with ratatui.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};
use salpakan_engine::{GameKind, Seat, Viewer};
use serde_json::Value;

use crate::app::{App, BoardGeom, Input, Screen, Tone, reason_text};
use crate::presenter::{EMPTY, Ink, Pos, Presenter};

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

fn draw_setup(app: &App, f: &mut Frame, top: Rect, body: Rect, foot: Rect) -> BoardGeom {
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

fn draw_play(app: &App, f: &mut Frame, top: Rect, body: Rect, foot: Rect) -> BoardGeom {
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

fn draw_log(
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

fn draw_replay(app: &App, f: &mut Frame, top: Rect, body: Rect, foot: Rect) -> BoardGeom {
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

fn help(app: &App, f: &mut Frame, area: Rect) {
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
