//! The indexes of loot-survivor-mcp: what a chain node cannot answer (leaderboards, an owner's
//! games, an adventurer's event history). [`GameIndex`] is the one interface the tools call;
//! Torii (the Dojo world's indexer) implements it, and so does the embedded sim chain; the
//! Denshokan API (`denshokan`, its `DenshokanIndex`) does for the generation without Torii, and
//! pushes its own changes too ([`ChangeStream`]).

mod change_stream;
pub mod denshokan;
mod game_index;
mod history_page;
mod sim_index;
mod text;
pub mod torii;

pub use change_stream::{ChangeKind, ChangeSink, ChangeStream, IndexChange};
pub use game_index::{GameEventsSource, GameIndex, IndexError};

// The integration tests' stand-ins (`tests/it`) need these dev-dependencies; the unit tests are
// built with every dev-dependency too, so they are named here to keep `unused_crate_dependencies`
// on for the rest.
#[cfg(test)]
use {axum as _, rusqlite as _};
