//! The deployers' failures: their own (an artifact, the node's UDC or class at an address, a
//! setting) and, whole, the chain layer's (the node, the account, a file).

use chain::ChainError;
use starknet::core::types::Felt;
use starknet::core::types::contract::JsonError;

use crate::target::CasmHash;

/// Why a practice world could not be declared, deployed or read back.
#[derive(Debug, thiserror::Error)]
pub enum DeployError {
    /// The node, the account or a file failed as it does for the server.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// A committed compiled class hash is not a felt (a broken build output).
    #[error("{} compiled class hash: {reason}", function.name())]
    CasmHash {
        /// The hash function whose file it is.
        function: CasmHash,
        /// Why it is not a felt.
        reason: String,
    },
    /// A committed Sierra class could not be flattened to compute its hash.
    #[error("cannot flatten {class}: {source}")]
    Flatten {
        /// Which class, in words.
        class: &'static str,
        /// starknet-rs's error.
        #[source]
        source: JsonError,
    },
    /// The HTTP client to the node could not be built.
    #[error("HTTP client: {0}")]
    HttpClient(#[source] reqwest::Error),
    /// The contract's deterministic address holds a contract of another class.
    #[error("address {address:#x} holds another class ({other:#x})")]
    OtherClass {
        /// The address the UDC would deploy at.
        address: Felt,
        /// The class found there.
        other: Felt,
    },
    /// Nothing is deployed at the profile's UDC address on this node.
    #[error(
        "no Universal Deployer at {udc:#x} on this node: set chain.udc to the UDC it predeploys \
         (katana: {:#x}; starknet-devnet and public networks: {:#x})",
        crate::target::LEGACY_UDC,
        crate::target::NEW_UDC
    )]
    NoUdc {
        /// The profile's `chain.udc`.
        udc: Felt,
    },
    /// The node refused the declare's compiled class hash: it expects the other function.
    #[error(
        "the node rejected the {} compiled class hash (CompiledClassHashMismatch): it expects \
         another hash function; set chain.casm_hash = \"{}\"",
        sent.name(),
        sent.other().name()
    )]
    CasmHashMismatch {
        /// The function the declare's hash was computed with.
        sent: CasmHash,
        /// The node's refusal.
        #[source]
        source: ChainError,
    },
    /// A randomness mode that is not one of GameCore's.
    #[error("unknown VRF mode {0:?}: off, nonce or salt")]
    UnknownVrfMode(String),
    /// Game settings not written `<id>:<mode>`.
    #[error(
        "game settings {0:?}: expected <id>:<mode>, e.g. 1:salt (id a u32; mode off, nonce or salt)"
    )]
    BadSettings(String),
}
