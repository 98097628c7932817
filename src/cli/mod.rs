//! The binary's command line: its arguments (`args`), the servers the settings make (`servers`)
//! and the subcommands, one file each.

pub mod args;
pub mod devnet;
pub mod play;
pub mod serve;
pub mod servers;
pub mod session;
pub mod token;
pub mod wallet;
