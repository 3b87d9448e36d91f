//! `salpakan bot --protocol ucc|ntu`: a salpakan bot speaking an old program's protocol on
//! stdin/stdout, for those programs' own managers (see docs/legacy-protocols.md).

use salpakan_ai::BotSpec;
use salpakan_ai::legacy::{ntu, ucc};

/// Runs `bot` as a UCC agent or an NTU engine until the manager ends the game.
pub fn run(protocol: &str, bot: &str, seed: Option<u64>) -> Result<(), String> {
    let spec: BotSpec = bot
        .parse()
        .map_err(|e: salpakan_ai::AiError| e.to_string())?;
    if spec.is_external() {
        return Err(format!(
            "{spec} is an external program; --bot takes a built-in bot (random, greedy, mcts:ms=100)"
        ));
    }
    let seed = match seed {
        Some(s) => s,
        None => {
            let mut b = [0u8; 8];
            getrandom::fill(&mut b).map_err(|e| format!("no secure random seed: {e}"))?;
            u64::from_le_bytes(b)
        }
    };
    let input = std::io::stdin().lock();
    let output = std::io::stdout().lock();
    match protocol.to_ascii_lowercase().as_str() {
        "ucc" => ucc::agent(&spec, input, output, seed),
        "ntu" => ntu::agent(&spec, input, output, seed),
        other => Err(format!(
            "unknown protocol {other:?}; choose ucc (UCC 2012 Stratego agents) or ntu (NTU Dark Chess engines)"
        )),
    }
    .map_err(|e| format!("bot --protocol {protocol}: {e}"))
}
