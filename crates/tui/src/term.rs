//! The real terminal: raw mode, the alternate screen and mouse capture on the way in, all
//! restored on the way out and on a panic.

use std::io::stdout;
use std::path::PathBuf;
use std::time::Duration;

use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;

use crate::{App, PlayConfig, TuiError};

fn terminal_error(e: std::io::Error) -> TuiError {
    TuiError::Terminal(e.to_string())
}

fn run(mut app: App) -> Result<App, TuiError> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(TuiError::Terminal(
            "this needs an interactive terminal (standard input and output are not one); \
             run it in a terminal window, not in a pipe"
                .into(),
        ));
    }
    let mut terminal = ratatui::try_init().map_err(terminal_error)?;
    let _ = execute!(stdout(), EnableMouseCapture);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatui::restore();
        hook(info);
    }));
    let result = (|| -> Result<(), TuiError> {
        let mut dirty = true;
        while !app.quit {
            if dirty {
                terminal
                    .draw(|f| crate::ui::draw(&mut app, f))
                    .map_err(terminal_error)?;
                dirty = false;
            }
            if event::poll(Duration::from_millis(50)).map_err(terminal_error)? {
                let ev = event::read().map_err(terminal_error)?;
                app.handle(&ev);
                dirty = true;
            }
            if app.tick() || app.thinking() {
                dirty = true;
            }
        }
        Ok(())
    })();
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
    let _ = std::panic::take_hook();
    result.map(|()| app)
}

/// Plays a game in the terminal until the user quits. Returns where the record(s) went, to
/// print after the terminal is restored.
///
/// # Errors
/// Bad options, an unknown bot, or a terminal that cannot be used.
pub fn run_play(cfg: PlayConfig) -> Result<Vec<Result<PathBuf, String>>, TuiError> {
    let app = App::new(cfg)?;
    let app = run(app)?;
    Ok(app.records)
}

/// Steps through the record in `path` in the terminal.
///
/// # Errors
/// A record that cannot be read or replayed, or a terminal that cannot be used.
pub fn run_replay(path: PathBuf) -> Result<(), TuiError> {
    let text = std::fs::read_to_string(&path).map_err(|e| TuiError::Io {
        path: path.clone(),
        error: e.to_string(),
    })?;
    let app = App::replay(path, &text)?;
    run(app).map(|_| ())
}
