//! The subcommands of the binary, one file each (the CLI's arguments stay in `main.rs`).

pub mod devnet;
pub mod play;
pub mod serve;
pub mod token;
