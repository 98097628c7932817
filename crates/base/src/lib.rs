//! Base utilities below every layer of loot-survivor-mcp: redaction of secrets in text a person or
//! a model may read, the data directory and the files kept in it, the starknet-devnet child process, and terminal notes.

pub mod devnet;
pub mod files;
pub mod home;
pub mod http_body;
pub mod redact;
pub mod terminal_note;
