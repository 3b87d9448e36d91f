//! The arena: round robins and gauntlets between bots.
