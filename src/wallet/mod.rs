//! The signing wallet: a key that never leaves this layer, loaded from the environment, a file or a
//! public devnet key in the profile, and a signer that starknet-rs accounts use to sign.

mod key_source;
mod signer;

pub use key_source::{KeyError, load_signer};
pub use signer::SecretSigner;
