//! The practice deployers: they declare and deploy the practice worlds on a Starknet node
//! (starknet-devnet, katana, a testnet) for `devnet deploy` and the tests. Off the runtime path:
//! only the command line uses them, and the server plays what they wrote through `chain`.

pub mod dungeon;
mod error;
pub mod target;
pub mod v2;
pub mod world;

pub use error::DeployError;
