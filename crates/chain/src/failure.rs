//! What went wrong, typed, inside five of [`crate::ChainError`]'s variants: a settings problem, a
//! failure on the way to the node, another network, an answer that does not decode, a request
//! this profile cannot serve. Their words are the tools' messages (`mcp::errors::from_chain`).
//! This file names no error of its own crate's, so `error.rs` can name it without a cycle.

use std::sync::Arc;

use game::{AdventurerId, DecodeError};
use starknet::accounts::NotPreparedError;
use starknet::core::codec;
use starknet::core::types::Felt;
use starknet::core::types::contract::ComputeClassHashError;
use starknet::core::utils::NonAsciiNameError;

use crate::entry::EntryError;
use crate::generation::Generation;
use crate::identity::short_string;
use crate::manifest::ManifestError;

/// A settings or manifest problem found at start ([`crate::ChainError::Config`]): not worth a
/// retry until the operator changes the profile.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Misconfigured {
    /// The node has no contract at an address the profile names.
    #[error(
        "a game contract is not deployed at the configured address: check the profile's manifest \
         or chain.contracts (on devnet, run `loot-survivor-mcp devnet up`)"
    )]
    ContractNotFound,
    /// The game address answers as no generation's game at all.
    #[error(
        "the profile says {expected} but {address:#x} answers neither GameCore's load_assets nor \
         a Dojo world's get_game_state"
    )]
    NoGame {
        /// The profile's generation.
        expected: Generation,
        /// The game address asked.
        address: Felt,
    },
    /// The HTTP client to the node could not be built.
    #[error("HTTP client: {0}")]
    HttpClient(#[source] Arc<reqwest::Error>),
    /// `chain.token_count_storage` names no storage address.
    #[error("chain.token_count_storage '{name}': {source}")]
    StorageVar {
        /// The variable's name as the profile spells it.
        name: String,
        /// Why it has no address.
        #[source]
        source: Arc<NonAsciiNameError>,
    },
    /// The manifest could not be read, or lacks an address the server needs.
    #[error("{0}")]
    Manifest(#[source] ManifestError),
}

/// Something unrelated to the game failed on the way to the node ([`crate::ChainError::Rpc`]).
#[derive(Debug, Clone, thiserror::Error)]
pub enum RpcFailure {
    /// The node refused the account's nonce again after it was read afresh.
    #[error("the node keeps rejecting the account nonce")]
    NonceRejected,
    /// The transaction lacked a field (nonce or fee) when it was to be signed.
    #[error("incomplete transaction")]
    Incomplete(#[source] Arc<NotPreparedError>),
    /// The account could not compute a declared class's hash.
    #[error("{0}")]
    ClassHash(#[source] Arc<ComputeClassHashError>),
    /// The account's fee arithmetic overflowed.
    #[error("fee calculation overflow")]
    FeeOutOfRange,
}

/// The node is not the network the profile expects ([`crate::ChainError::WrongNetwork`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkMismatch {
    /// It serves another chain.
    #[error(
        "the node's chain id is {} but the profile expects {}",
        short_string(*found),
        short_string(*expected)
    )]
    ChainId {
        /// The profile's chain id.
        expected: Felt,
        /// The node's.
        found: Felt,
    },
    /// It speaks a JSON-RPC version the profile does not accept.
    #[error("the node speaks JSON-RPC {found}; the profile accepts {accepted:?}")]
    SpecVersion {
        /// The node's spec version.
        found: String,
        /// The prefixes the profile accepts.
        accepted: Vec<String>,
    },
}

/// An answer of the node that is not what the server reads ([`crate::ChainError::Decode`]).
#[derive(Debug, Clone, thiserror::Error)]
pub enum BadAnswer {
    /// A view's felts do not decode as its binding's output.
    #[error("{view}: {source}")]
    View {
        /// The view's entrypoint name.
        view: &'static str,
        /// The binding's decode error.
        #[source]
        source: Arc<codec::Error>,
    },
    /// A v2 `load_assets` answer does not decode as an adventurer and its bag.
    #[error("load_assets: {0}")]
    Assets(#[source] DecodeError),
    /// An event of the game's does not decode.
    #[error("{event}: {source}")]
    Event {
        /// Which event, in words ("game event", "GameEvent").
        event: &'static str,
        /// The decode error.
        #[source]
        source: DecodeError,
    },
    /// A sent transaction's receipt is not an invoke's.
    #[error("expected an invoke receipt")]
    NotInvoke,
    /// A transaction that should have minted a game token shows none in its events.
    #[error(
        "{}transaction {tx_hash:#x} carries no token id",
        action.map(|a| format!("{a} ")).unwrap_or_default()
    )]
    NoTokenId {
        /// The transaction's action, when one names it.
        action: Option<&'static str>,
        /// The transaction.
        tx_hash: Felt,
    },
    /// The node accepted the transaction under another hash than the one signed.
    #[error("the node reports hash {reported:#x} for transaction {sent:#x}")]
    OtherHash {
        /// The hash the node answered.
        reported: Felt,
        /// The hash signed and sent.
        sent: Felt,
    },
    /// The game token's minted count (read from its storage) is beyond a u64.
    #[error("the token's minted count {0:#x} is not a u64")]
    MintedCount(Felt),
    /// The mint's simulation traced something other than an invoke.
    #[error("the mint simulation is not an invoke")]
    SimulationNotInvoke,
    /// The mint's simulation emitted no token id.
    #[error("the mint simulation shows no token id")]
    NoSimulatedTokenId,
    /// The adventurer's events fill more pages than the server reads.
    #[error("adventurer {adventurer_id}'s history is longer than {pages} pages of events")]
    LongHistory {
        /// The adventurer.
        adventurer_id: AdventurerId,
        /// The pages read.
        pages: usize,
    },
}

/// A request this profile's contracts cannot serve; nothing was signed
/// ([`crate::ChainError::Invalid`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unservable {
    /// A dungeon entry on a deployment whose dungeons' calldata is not public.
    #[error(
        "entry \"{entry}\" buys a game at a dungeon, and the dungeons' calldata on this \
         {generation} deployment is not public yet: use entry \"mint\" (such a game counts on no \
         dungeon's leaderboard)"
    )]
    DungeonUnpublished {
        /// The entry asked for.
        entry: &'static str,
        /// The deployment's generation.
        generation: Generation,
    },
    /// A dungeon entry on a chain without a dungeon (the embedded sim).
    #[error(
        "entry \"{entry}\" buys a game at a dungeon, and this chain has none; use entry \"mint\""
    )]
    NoDungeon {
        /// The entry asked for.
        entry: &'static str,
    },
    /// The entry needs a contract the profile does not name.
    #[error("{0}")]
    Entry(#[source] EntryError),
    /// A batch whose parts cannot go in one transaction.
    #[error("{0}")]
    Batch(#[source] game::engine::BatchError),
    /// A VRF action's salt comes from the adventurer's state, which the caller did not give.
    #[error("{action} on a VRF profile needs the adventurer's state before it (its salt)")]
    NeedsState {
        /// The action's entrypoint name.
        action: &'static str,
    },
    /// The wallet's account signs invokes only.
    #[error("the wallet's account does not sign declarations")]
    Declaration,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ChainError;

    #[test]
    fn the_words_are_those_the_tools_showed_before_the_payloads_were_typed() {
        let sepolia = Felt::from_hex_unchecked("0x534e5f5345504f4c4941");
        let main = Felt::from_hex_unchecked("0x534e5f4d41494e");
        let e = ChainError::WrongNetwork(NetworkMismatch::ChainId {
            expected: main,
            found: sepolia,
        });
        assert_eq!(
            e.to_string(),
            "the node's chain id is SN_SEPOLIA but the profile expects SN_MAIN"
        );
        let e = ChainError::Decode(BadAnswer::NoTokenId {
            action: Some("buy_game"),
            tx_hash: Felt::from(0xabcu32),
        });
        assert_eq!(
            e.to_string(),
            "cannot decode the node's answer: buy_game transaction 0xabc carries no token id"
        );
        let unnamed = BadAnswer::NoTokenId {
            action: None,
            tx_hash: Felt::from(0xabcu32),
        };
        assert_eq!(unnamed.to_string(), "transaction 0xabc carries no token id");
        let e = ChainError::Rpc(RpcFailure::NonceRejected);
        assert_eq!(
            e.to_string(),
            "RPC error: the node keeps rejecting the account nonce"
        );
        let e = ChainError::Invalid(Unservable::NoDungeon { entry: "ticket" });
        assert_eq!(
            e.to_string(),
            "entry \"ticket\" buys a game at a dungeon, and this chain has none; use entry \"mint\""
        );
        let e = ChainError::from(ManifestError::NoAddress {
            tag: "adventurer_systems",
        });
        assert_eq!(
            e.to_string(),
            "no address for the adventurer_systems contract"
        );
    }

    #[test]
    fn the_underlying_errors_stay_whole() {
        let e = ChainError::Decode(BadAnswer::Assets(DecodeError::UnexpectedEnd {
            field: "adventurer".into(),
            position: 3,
            len: 3,
        }));
        let source = std::error::Error::source(&e).expect("the answer");
        let decode = std::error::Error::source(source).expect("the decode error");
        assert!(decode.downcast_ref::<DecodeError>().is_some(), "{decode}");
        let storage = starknet::core::utils::get_storage_var_address("é", &[]).unwrap_err();
        let e = ChainError::Config(Misconfigured::StorageVar {
            name: "é".into(),
            source: Arc::new(storage),
        });
        assert!(
            e.to_string().starts_with("chain.token_count_storage 'é': "),
            "{e}"
        );
    }
}
