//! The external bot protocol (JSON Lines over stdin/stdout).
