//! What a write sends: calls, or a plan that becomes calls at the nonce they are sent at.

use starknet::core::types::Call;

/// The calls of a write, or how to build them once the nonce is known.
pub(crate) enum Plan {
    /// These calls.
    Calls(Vec<Call>),
    /// `mint` followed by `start_game(<the id the mint will assign>, weapon)`.
    MintAndStart {
        /// The mint call.
        mint: Call,
        /// Starting weapon id.
        weapon: u8,
    },
}
