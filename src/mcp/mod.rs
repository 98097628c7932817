//! The MCP tool surface: parameters, descriptions, annotations and result envelopes, over a
//! [`GameBackend`].

mod args;
mod backend;
mod errors;
mod params;
mod server;

pub use backend::GameBackend;
pub use errors::from_chain;
pub use server::{ActionResult, AdventurerResult, LsServer, ServerOptions};
