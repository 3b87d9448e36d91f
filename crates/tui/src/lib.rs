//! Terminal play against a bot, and record replay, for salpakan.
#![forbid(unsafe_code)]
