#!/bin/sh
# Runs every fuzz target (or those named) for SECONDS each (default 180), one after the
# other, starting from the checked-in seeds; see docs/fuzzing.md.
#   fuzz/run.sh [SECONDS] [TARGET...]
# Needs cargo-fuzz (cargo install cargo-fuzz). On a stable toolchain, RUSTC_BOOTSTRAP=1
# lets it use the nightly-only flags it needs.
set -eu
cd "$(dirname "$0")"
secs=${1:-180}
[ $# -gt 0 ] && shift
targets=${*:-"moves options setups record gravon cdc arbiter bot_answer protocol"}
export RUSTC_BOOTSTRAP=1
cargo fuzz build -O
for t in $targets; do
    mkdir -p "corpus/$t"
    echo "== $t ($secs s)"
    cargo fuzz run -O "$t" "corpus/$t" "seeds/$t" -- -max_total_time="$secs" -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 2>&1 | tee "corpus/$t.log" | grep -E "stat::|Done|SUMMARY|panicked" || true
done
