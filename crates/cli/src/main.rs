//! `salpakan`: the arbiter, game records and benchmarks for Game of the Generals, Stratego
//! and Banqi.
#![forbid(unsafe_code)]

mod admin;
mod arbiter;
mod arena;
mod bench;
mod botproto;
mod play;
mod records;
mod serve;

#[cfg(test)]
mod cli_tests;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc instead of the system allocator: the game server allocates and frees many small
/// strings per move on several threads, where it measured ~18 % of the server's CPU in
/// glibc's malloc (see the README's Speed section).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// salpakan: a neutral arbiter, game server and AI for hidden-piece war games (Game of the
/// Generals, Stratego, Banqi): the server with its web client, terminal play, the arbiter
/// protocol, records, a bot arena and benchmarks.
#[derive(Parser, Debug)]
#[command(name = "salpakan", version, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the game server and its web client: lobby, live games, clocks, spectators, bots;
    /// SQLite storage (see docs/protocol.md). Prints the URL it listens on.
    Serve {
        /// Address to listen on (`127.0.0.1:0` picks a free port).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// SQLite database file (created if missing).
        #[arg(long, default_value = "salpakan.db")]
        db: PathBuf,
        /// Limits against hostile and faulty clients (see docs/operations.md).
        #[command(flatten)]
        limits: serve::Limits,
    },
    /// Load-test a server on loopback: N Game of the Generals games of random moves between
    /// WebSocket clients; reports games held, moves/s, ack latency percentiles and errors.
    Loadtest {
        /// Concurrent games, two sockets each (1 to 20000).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Moves per second per side (more than 0, at most 100).
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// Seconds to measure, after every game has started (more than 0, at most 3600).
        #[arg(long, default_value_t = 20.0)]
        seconds: f64,
        /// A running server on loopback (e.g. http://127.0.0.1:8080); without it, one is
        /// started in this process on a temporary database.
        #[arg(long)]
        url: Option<String>,
        /// Also run floods against the server while the games go on (guests, seeks, chat,
        /// joins, idle sockets, oversized frames, connection caps) and report what was
        /// refused, the server's memory and the games' latency (in-process server only).
        #[arg(long)]
        abuse: bool,
    },
    /// Play bots against each other: a round robin (or gauntlet), both seats per pairing,
    /// `--jobs` games at once; prints a results table with Elo ratings and writes every
    /// record.
    Arena {
        /// Which game: generals, stratego or banqi.
        #[arg(long)]
        game: String,
        /// Bots, comma-separated: random, greedy, mcts:ms=100, mcts:iters=2000,seed=3,
        /// cmd:"python3 examples/bot.py" (see docs/ai.md).
        #[arg(long)]
        bots: String,
        /// Games per pairing (seats alternate).
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Seed for setups, deals and bots.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Folder for every game's full record.
        #[arg(long, default_value = "arena-records")]
        records: PathBuf,
        /// Only the first bot against each of the others.
        #[arg(long)]
        gauntlet: bool,
        /// Game options as a JSON object, over the arena defaults (max_quiet_plies 200 for
        /// generals and stratego; banqi's own defaults).
        #[arg(long)]
        options: Option<String>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Speak the arbiter protocol: one JSON request per line on stdin, one JSON answer per
    /// line on stdout (see docs/arbiter-protocol.md).
    Arbiter,
    /// Play a salpakan bot in an old program's manager: speak the UCC 2012 Stratego agent
    /// protocol or the NTU Dark Chess engine protocol on stdin/stdout
    /// (see docs/legacy-protocols.md).
    Bot {
        /// The protocol: ucc (Stratego) or ntu (Banqi).
        #[arg(long)]
        protocol: String,
        /// The bot: random, greedy, mcts, expert (the strongest), or with parameters such as expert:ms=500.
        #[arg(long, default_value = "mcts")]
        bot: String,
        /// Seed for the bot's setup and choices (default: random).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Check, verify and import game records.
    #[command(subcommand)]
    Record(RecordCommand),
    /// Measure random playouts on one core: playouts/s and plies/s for each game.
    Bench {
        /// Which game: generals, stratego, banqi or all.
        #[arg(long, default_value = "all")]
        game: String,
        /// Seconds to spend on each game (more than 0, at most 3600).
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Seed for the random setups and moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Play a game against a bot in the terminal (no server, no network); the record is
    /// saved at the end. Keys: see docs/terminal.md, or press ? in the game.
    Play {
        /// Which game: generals, stratego or banqi.
        game: String,
        /// The bot: random, greedy, mcts, expert (the strongest), or with parameters such as expert:ms=500.
        #[arg(long = "vs", default_value = "mcts", value_name = "BOT")]
        vs: String,
        /// Your seat: white or black (generals), red or blue (stratego), first or second
        /// (banqi), or random. Default: the first seat.
        #[arg(long)]
        seat: Option<String>,
        /// A game option as key=value (repeat for several), e.g. --option reveal=winner.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// Seed for the bot's setup, the deal and the bot's choices (default: random).
        #[arg(long)]
        seed: Option<u64>,
        /// Where to write the record (default: salpakan-GAME-TIME.rec here).
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
    },
    /// Step through a game record in the terminal (a full record, or a seat's copy).
    Replay {
        /// The record file.
        file: PathBuf,
    },
    /// Moderate accounts on the server's database: moderator flags, reports, notes,
    /// closing (a running server picks changes up within 10 s; see docs/operations.md).
    Admin {
        /// The server's SQLite database file.
        #[arg(long, default_value = "salpakan.db")]
        db: PathBuf,
        /// What to do.
        #[command(subcommand)]
        command: admin::AdminCommand,
    },
}

#[derive(Subcommand, Debug)]
enum RecordCommand {
    /// Replay full records: print each result, or the first illegal move with its ply and why.
    Check {
        /// Record files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Replay full records and check every commitment against the revealed hidden parts
    /// (setups or deal) and salts.
    Verify {
        /// Record files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Convert records of other programs to salpakan records.
    #[command(subcommand)]
    Import(ImportCommand),
}

#[derive(Subcommand, Debug)]
enum ImportCommand {
    /// Gravon Stratego games (StraDoS2 XML); each record's TwoSquareRule tag says which
    /// two-squares limit it was replayed under and why (see docs/rules-stratego.md).
    Gravon {
        /// XML files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write each record to DIR/NAME.rec instead of standard output.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// The two-squares limit for every file, 1 to 16. Default: each record's own — 5
        /// before 2013 and 3 since, from the file name's date (3 when it has none), or 5 for
        /// a later record that only the five-move rule replays.
        #[arg(long, value_parser = clap::value_parser!(u32)
            .range(1..=i64::from(salpakan_engine::stratego::MAX_TWO_SQUARE_LIMIT)))]
        two_square_limit: Option<u32>,
    },
    /// Computer Dark Chess (Banqi) game records.
    Cdc {
        /// Record files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write each record to DIR/NAME.rec instead of standard output.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// The no-progress limit in plies, 1 or more (60 is what the course platform plays).
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
        quiet_limit: u32,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve { addr, db, limits } => serve::serve(&addr, &db, &limits),
        Command::Admin { db, command } => admin::run(&db, &command),
        Command::Loadtest {
            games,
            rate,
            seconds,
            url,
            abuse,
        } => serve::loadtest(games, rate, seconds, url, abuse),
        Command::Arbiter => arbiter::serve().map_err(|e| format!("arbiter: {e}")),
        Command::Bot {
            protocol,
            bot,
            seed,
        } => botproto::run(&protocol, &bot, seed),
        Command::Record(RecordCommand::Check { files }) => records::check(&files, false),
        Command::Record(RecordCommand::Verify { files }) => records::check(&files, true),
        Command::Record(RecordCommand::Import(ImportCommand::Gravon {
            files,
            out,
            two_square_limit,
        })) => records::import_gravon(&files, out.as_deref(), two_square_limit),
        Command::Record(RecordCommand::Import(ImportCommand::Cdc {
            files,
            out,
            quiet_limit,
        })) => records::import_cdc(&files, out.as_deref(), quiet_limit),
        Command::Arena {
            game,
            bots,
            games,
            jobs,
            seed,
            records,
            gauntlet,
            options,
            quiet,
        } => arena::run(arena::Args {
            game,
            bots,
            games,
            jobs,
            seed,
            records,
            gauntlet,
            options,
            quiet,
        }),
        Command::Bench {
            game,
            seconds,
            seed,
        } => bench::run(&game, seconds, seed),
        Command::Play {
            game,
            vs,
            seat,
            options,
            seed,
            save,
        } => play::play(&game, &vs, seat.as_deref(), &options, seed, save),
        Command::Replay { file } => play::replay(file),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("salpakan: {e}");
            ExitCode::FAILURE
        }
    }
}
