//! Where a node wants the practice world deployed from: which Universal Deployer Contract it
//! hosts and which compiled-class-hash function it expects in a declare. The two differ between
//! starknet-devnet and katana, so each profile names them (`chain.udc`, `chain.casm_hash`).
//!
//! Facts from katana's source (dojoengine/katana; current line v1.8.0-rc.9, previous v1.7.1):
//! - v1.7.1 `crates/genesis/src/constant.rs` `DEFAULT_UDC_ADDRESS` is the legacy (Cairo 0) UDC
//!   address [`LEGACY_UDC`], and `crates/chain-spec/src/dev.rs` `add_default_udc` predeploys
//!   only that one.
//! - v1.8.0-rc.9 `crates/genesis/src/constant.rs` moves `DEFAULT_UDC_ADDRESS` to the Cairo 1 UDC
//!   [`NEW_UDC`] (class `0x01b2df6d…45c8`) and keeps `DEFAULT_LEGACY_UDC_ADDRESS`;
//!   `crates/chain-spec/src/dev.rs` `add_default_udc` predeploys both. The legacy UDC is thus
//!   the one address both lines serve, which is why the `katana` profile uses it.
//! - Neither line compares a declare's compiled class hash with its own compilation: v1.8.0-rc.9
//!   `crates/rpc/rpc-server/src/starknet/api.rs` `add_declare_tx` and
//!   `crates/pool/pool/src/validation/stateful.rs` only check that the class is new, and the
//!   blockifier they pin (dojoengine/sequencer, `crates/blockifier/src/transaction/transactions.rs`
//!   `try_declare`) records the hash as sent. What they record is the Poseidon hash of
//!   Starknet < 0.14.1: their blocks are Starknet 0.13.4 (v1.7.1) and 0.14.0 (v1.8.0-rc.9), per
//!   `CURRENT_STARKNET_VERSION` in `crates/primitives/src/version.rs` (in 1.8 the same file names
//!   0.14.1 as the first version that requires Blake2s), and their own hashing
//!   (`CompiledClass::class_hash` in `crates/primitives/src/class.rs`) calls cairo-lang's
//!   `compiled_class_hash`, Poseidon in the cairo-lang their `Cargo.lock` pins (2.11.2 in 1.7.1,
//!   2.12.4 in 1.8.0-rc.9). starknet-devnet 0.10.1 checks the Blake2s hash instead.

use serde::Deserialize;
use starknet::core::types::Felt;

/// The legacy (Cairo 0) Universal Deployer, predeployed by katana 1.7 and 1.8 and by
/// starknet-devnet 0.10.1.
pub const LEGACY_UDC: Felt =
    Felt::from_hex_unchecked("0x041a78e741e5af2fec34b695679bc6891742439f7afb8484ecd7766661ad02bf");

/// The Cairo 1 Universal Deployer of Starknet mainnet and Sepolia, predeployed by katana 1.8 and
/// starknet-devnet 0.10.1 (not by katana 1.7).
pub const NEW_UDC: Felt =
    Felt::from_hex_unchecked("0x02ceed65a4bd731034c01113685c831b01c15d7d432f71afb1cf1634b53a2125");

/// The compiled-class-hash function a node checks or records for a declared Sierra class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CasmHash {
    /// Starknet >= 0.14.1 (SNIP-34): starknet-devnet 0.10.1, mainnet and Sepolia today.
    Blake2s,
    /// Starknet < 0.14.1: katana 1.7 and 1.8.
    Poseidon,
}

impl CasmHash {
    /// The name used in settings and messages.
    pub fn name(self) -> &'static str {
        match self {
            CasmHash::Blake2s => "blake2s",
            CasmHash::Poseidon => "poseidon",
        }
    }

    /// The other function: the one a node that refuses this one expects.
    pub fn other(self) -> Self {
        match self {
            CasmHash::Blake2s => CasmHash::Poseidon,
            CasmHash::Poseidon => CasmHash::Blake2s,
        }
    }
}

/// The UDC and hash function of one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeployTarget {
    /// Universal Deployer Contract address.
    pub udc: Felt,
    /// Compiled-class-hash function the node expects.
    pub casm_hash: CasmHash,
}

impl Default for DeployTarget {
    /// starknet-devnet 0.10.1: the new UDC and Blake2s.
    fn default() -> Self {
        Self {
            udc: NEW_UDC,
            casm_hash: CasmHash::Blake2s,
        }
    }
}
