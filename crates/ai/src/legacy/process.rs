//! A child program spoken to one line at a time, that can neither hang nor outlive the
//! referee: writes go through a thread (a program that stops reading cannot block the
//! referee), reads wait at most a deadline, and the program is killed and reaped when it is
//! dropped.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::protocol::BotFailure;

/// A running program.
pub(crate) struct Program {
    child: Child,
    /// Whether the program runs in its own process group (a command with shell syntax).
    group: bool,
    input: Option<Sender<String>>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Program {
    /// Starts `command` with `sh -c "exec command"`, so that the process the referee holds
    /// (and kills) is the program itself, not a shell around it; a command with shell
    /// syntax (`cd dir && ./agent`, pipes) runs as `sh -c command` in a process group of its
    /// own, killed as a whole.
    pub(crate) fn spawn(command: &str) -> Result<Program, BotFailure> {
        let simple = !command.contains([';', '&', '|', '(', ')', '\n', '`']);
        let line = if simple {
            format!("exec {command}")
        } else {
            command.to_string()
        };
        let mut cmd = Command::new("sh");
        if !simple {
            // The shell and what it starts form one process group, killed together.
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .arg("-c")
            .arg(line)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| BotFailure::Spawn {
                command: command.to_string(),
                why: e.to_string(),
            })?;
        let stdout = child.stdout.take().expect("piped");
        // Bounded: a program that floods its output blocks instead of filling memory.
        let (tx, lines) = sync_channel(1024);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let line = line.trim_end_matches('\r').to_string();
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let err_pipe = child.stderr.take().expect("piped");
        let keep = Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in BufReader::new(err_pipe).lines() {
                let Ok(line) = line else { break };
                let mut s = keep.lock().expect("stderr buffer");
                s.push_str(&line);
                s.push('\n');
                if s.len() > 2000 {
                    let cut = s.len() - 1000;
                    let cut = (cut..s.len()).find(|&i| s.is_char_boundary(i)).unwrap_or(0);
                    *s = s[cut..].to_string();
                }
            }
        });
        let mut stdin = child.stdin.take().expect("piped");
        let (input, queue) = channel::<String>();
        std::thread::spawn(move || {
            for line in queue {
                if stdin
                    .write_all(line.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        Ok(Program {
            child,
            group: !simple,
            input: Some(input),
            lines,
            stderr,
        })
    }

    /// Queues one line (a newline is added); never blocks.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), BotFailure> {
        let ok = self
            .input
            .as_ref()
            .is_some_and(|i| i.send(format!("{line}\n")).is_ok());
        if ok { Ok(()) } else { Err(self.crashed()) }
    }

    /// The next line, waiting until `deadline` at most.
    pub(crate) fn recv_until(
        &mut self,
        deadline: Instant,
        limit_ms: u64,
    ) -> Result<String, BotFailure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(BotFailure::Timeout(limit_ms)),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
        }
    }

    /// The failure of a program that exited or closed its output: its exit status and its
    /// last error line.
    pub(crate) fn crashed(&mut self) -> BotFailure {
        // Give the program and the reader threads a moment to finish.
        let mut status = String::new();
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = format!(" ({s})");
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let err = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        let last = err.lines().last().unwrap_or("").trim().to_string();
        BotFailure::Crashed(if last.is_empty() {
            status
        } else {
            format!("{status}; its last error line: {last}")
        })
    }

    /// Closes the program's input, waits up to `grace` for it to exit, then kills it; in
    /// every case the process is reaped.
    pub(crate) fn close(&mut self, grace: Duration) {
        self.input = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Also when the shell of a shell command exited: what it started may still run.
        self.kill();
    }

    /// Kills the program (and, for a shell command, its process group) and reaps it.
    fn kill(&mut self) {
        if self.group {
            // No signal API without `unsafe` in std: the system's kill(1) signals the group.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.child.id())])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.input = None;
        if self.group || !matches!(self.child.try_wait(), Ok(Some(_))) {
            self.kill();
        }
    }
}
