//! Errors of the chain layer, classified so the MCP edge can map them once to the tool taxonomy.

use std::sync::Arc;

use starknet::accounts::AccountError;
use starknet::core::types::{ContractExecutionError, Felt, StarknetError};
use starknet::providers::ProviderError;
use starknet::providers::jsonrpc::{HttpTransportError, JsonRpcClientError};

use base::redact::Redacted;
use cartridge::CartridgeError;
use cartridge::revert::{NodeRefusal, Revert, classify, node_refusal};
use journal::JournalError;

use crate::failure::{BadAnswer, Misconfigured, NetworkMismatch, RpcFailure, Unservable};
use crate::manifest::ManifestError;
use crate::node::NodeTransportError;
use crate::signing::SigningError;

/// What went wrong talking to the chain.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ChainError {
    /// Settings or manifest problems found at start.
    #[error("{0}")]
    Config(#[source] Misconfigured),
    /// A file the settings name (a manifest, a deployment's output) could not be read or written.
    #[error("{context}: {source}")]
    Io {
        /// What was being read or written.
        context: String,
        /// The I/O error.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// A file or class the settings name is not the JSON expected.
    #[error("{context}: {source}")]
    Json {
        /// What was being read.
        context: String,
        /// The parse error.
        #[source]
        source: Arc<serde_json::Error>,
    },
    /// The journal could not record the transaction before its send, so it was not sent.
    #[error("not sent: {0}")]
    Journal(#[source] Arc<JournalError>),
    /// The task recording the transaction in the journal failed (it panicked or was cancelled),
    /// so it was not sent.
    #[error("not sent: the journal could not record it: {0}")]
    Unrecorded(#[source] Arc<tokio::task::JoinError>),
    /// The store of an in-process chain (its world in a local file) could not be used: locked by
    /// another process, unreadable, or not a world this version or these settings read
    /// (`corrupt`); or its stand-in for the VRF failed. The chain that keeps the store gives the
    /// error; this layer only carries it to the tools.
    #[error("{}{source}", if *.corrupt { "" } else { "RPC error: " })]
    Store {
        /// Whether the file is not a world (a settings matter, not worth a retry).
        corrupt: bool,
        /// The store's error.
        #[source]
        source: Arc<dyn std::error::Error + Send + Sync>,
    },
    /// Something unrelated to the game failed on the way to the node.
    #[error("RPC error: {0}")]
    Rpc(#[source] RpcFailure),
    /// The node could not be reached or answered with an error unrelated to the game.
    #[error("RPC error: {0}")]
    Provider(#[source] Redacted<ProviderError>),
    /// The node or the account refused the transaction before running it (a stale nonce, a
    /// Controller session it does not accept, a compiled class hash), read where the node's or
    /// the paymaster's answer is decoded.
    #[error("RPC error: {message}")]
    Refused {
        /// What was refused.
        refusal: NodeRefusal,
        /// The answer's words (URLs redacted).
        message: String,
    },
    /// The node is not the network the profile expects.
    #[error("{0}")]
    WrongNetwork(#[source] NetworkMismatch),
    /// The game refused the action, at simulation (`tx_hash` None, no fee) or on chain.
    #[error("the game reverted the action: {}", revert.reason)]
    Revert {
        /// The decoded reason and code.
        revert: Revert,
        /// The transaction hash when the revert happened on chain.
        tx_hash: Option<Felt>,
    },
    /// The transaction was sent but did not reach the requested status in time.
    #[error("transaction {tx_hash:#x} not confirmed in time (last status: {last_status})")]
    Timeout {
        /// The sent transaction.
        tx_hash: Felt,
        /// The last status the node reported.
        last_status: super::TxStatus,
    },
    /// The caller cancelled the wait; the transaction was sent and may still land.
    #[error(
        "stopped waiting for transaction {tx_hash:#x} (last status: {last_status}); it may still land"
    )]
    Cancelled {
        /// The sent transaction.
        tx_hash: Felt,
        /// The last status the node reported.
        last_status: super::TxStatus,
    },
    /// A response could not be decoded.
    #[error("cannot decode the node's answer: {0}")]
    Decode(#[source] BadAnswer),
    /// A response is not the JSON expected.
    #[error("cannot decode the node's answer: {context}: {source}")]
    DecodeJson {
        /// Which answer.
        context: String,
        /// The parse error.
        #[source]
        source: Arc<serde_json::Error>,
    },
    /// The wallet policy refused to sign.
    #[error("{0}")]
    Policy(wallet::PolicyDenied),
    /// The server was started without a key or a Controller session: it reads, and signs nothing.
    #[error(
        "this server was started without a key or a Controller session, so it signs nothing; \
         nothing was sent"
    )]
    NoSigner,
    /// The wallet failed to sign.
    #[error("signing failed: {0}")]
    Signing(#[source] SigningError),
    /// The Controller session cannot sign (expired, revoked, not registered, old class). `renew`
    /// is the command that makes a new one.
    #[error("{problem}")]
    Session {
        /// What is wrong with the session.
        problem: crate::controller::state::SessionProblem,
        /// The command the player runs to approve a new session.
        renew: String,
        /// Whether the write was signed and sent before the refusal (it reached the paymaster or
        /// the node, and nothing reached the chain) rather than refused before signing.
        sent: bool,
    },
    /// The paymaster could not relay an outside execution, or one could not be built (no sponsor,
    /// no paymaster at this RPC, the Cartridge RPC unreachable or unreadable). A revert or a
    /// refusal the paymaster read is not one: it is [`ChainError::Revert`] or
    /// [`ChainError::Refused`], as when the node reads it.
    #[error("{0}")]
    Cartridge(#[source] CartridgeError),
    /// The request cannot be served with this profile's contracts (e.g. a dungeon entry on a
    /// profile without a dungeon); nothing was signed.
    #[error("{0}")]
    Invalid(#[source] Unservable),
    /// The id names no adventurer of this deployment (e.g. a packed second-generation id asked
    /// of a Dojo world, whose ids are u64); nothing was read or signed.
    #[error("adventurer {0} does not exist in this world")]
    NoSuchAdventurer(game::AdventurerId),
    /// The action or view has no entrypoint on this deployment's generation (`surrender` on a v1
    /// Dojo world); nothing was signed or sent.
    #[error("{action} is not an entrypoint of {}", generation.described())]
    Unsupported {
        /// The action's entrypoint name.
        action: &'static str,
        /// The deployment's generation.
        generation: crate::generation::Generation,
    },
    /// A v2 action needs randomness but the deployment's VRF source is unknown; nothing was
    /// signed or sent.
    #[error(
        "{action} draws randomness, and this v2 deployment's VRF source is not known, so \
         nothing was signed: `loot-survivor-mcp check --settle-vrf` (with the server's profile) \
         reads it off the game's recent transactions and keeps it, or set deployment.vrf_source \
         in the profile (off, nonce, salt:adventurer_state or salt:v1)"
    )]
    VrfSourceUnset {
        /// The action's entrypoint name.
        action: &'static str,
    },
    /// A v2 action draws randomness for a game whose settings are not those the deployment's VRF
    /// source holds for (a game's randomness follows its settings); nothing was signed or sent.
    #[error(
        "{action} draws randomness, and adventurer {adventurer_id} was minted with game settings \
         {settings_id}, while this deployment's VRF source holds for settings {settled}, so \
         nothing was signed"
    )]
    VrfSettingsDiffer {
        /// The action's entrypoint name.
        action: &'static str,
        /// The adventurer.
        adventurer_id: game::AdventurerId,
        /// The settings its token was minted with.
        settings_id: u32,
        /// The settings the VRF source holds for.
        settled: u32,
    },
    /// The game says the settings new games are minted with do not exist (its `settings_exist`,
    /// asked at start), so a mint would fail; nothing was signed.
    #[error(
        "the game's settings_exist says game settings {settings_id} (chain.settings_id) do not \
         exist, so a new game minted with them would fail; nothing was signed"
    )]
    SettingsMissing {
        /// The profile's `chain.settings_id`.
        settings_id: u32,
    },
    /// The game's token does not let it be played now (by the chain's clock); nothing was signed.
    #[error("adventurer {adventurer_id}'s game {}, so nothing was signed", unplayable_words(*why, *now))]
    Unplayable {
        /// The adventurer.
        adventurer_id: game::AdventurerId,
        /// Not started, or expired.
        why: game::token_fields::Unplayable,
        /// The chain's time (unix seconds, the latest block's).
        now: u64,
    },
    /// The node could not be reached at start nor since; the server serves anyway, and every
    /// call that needs the chain tries again and answers this meanwhile (nothing read or signed).
    #[error(
        "the RPC at {rpc} (chain.rpc_url) cannot be reached ({reason}), so nothing was read or \
         signed, and these are not checked yet: {unchecked}"
    )]
    Unreachable {
        /// The node's host and port (never the whole URL, which may carry a credential).
        rpc: String,
        /// Why connecting failed.
        reason: String,
        /// What connecting checks, in words ([`crate::ConnectOptions::checks`]).
        unchecked: String,
    },
    /// A new game on a deployment the profile marks archived; nothing was signed.
    #[error("{0}")]
    Archived(#[from] crate::archive::ArchivedEntry),
    /// The deployed contract's entrypoint differs from the bindings' (found by the ABI check);
    /// the write was refused before anything was signed, or the view before its answer was read.
    #[error(
        "{}: {}'s {} differs from this server's bindings (ours: {}; deployed: {})",
        if .0.write { "nothing was signed" } else { "not read" },
        .0.contract, .0.entrypoint, .0.ours, .0.deployed
    )]
    AbiMismatch(Box<crate::AbiRefusal>),
    /// The contract's class could not be read by the ABI check, before the write nor when it was
    /// checked again for it; nothing was signed.
    #[error(
        "nothing was signed: {}'s class could not be checked against this server's bindings ({}); \
         it is checked again at the next write",
        .0.contract, .0.why
    )]
    AbiUnchecked(Box<crate::gate::AbiUnchecked>),
    /// The profile names one generation and the chain answers as the other (found at connect).
    #[error("the profile says {expected} but {address:#x} answers as {}", found.described())]
    GenerationMismatch {
        /// The profile's generation.
        expected: crate::generation::Generation,
        /// What the contract answers as.
        found: crate::generation::Generation,
        /// The game address asked (game_systems or GameCore).
        address: Felt,
    },
}

impl ChainError {
    /// Classifies a provider error where the node's answer is read: contract failures become
    /// reverts (their reason decoded once), a stale nonce or a refused session
    /// [`ChainError::Refused`], the rest [`ChainError::Provider`].
    pub fn from_provider(e: ProviderError) -> Self {
        Self::from_redacted(Redacted::new(e))
    }

    /// [`ChainError::from_provider`] of an error already kept redacted.
    fn from_redacted(e: Redacted<ProviderError>) -> Self {
        match e.inner() {
            ProviderError::StarknetError(StarknetError::TransactionExecutionError(data)) => {
                return Self::revert(&execution_text(&data.execution_error));
            }
            ProviderError::StarknetError(StarknetError::ContractError(data)) => {
                return Self::revert(&execution_text(&data.revert_error));
            }
            ProviderError::StarknetError(StarknetError::ContractNotFound) => {
                return Self::Config(Misconfigured::ContractNotFound);
            }
            _ => {}
        }
        let said = answer_text(e.inner());
        if let Some(said) = &said {
            let revert = classify(said);
            if revert.is_known() {
                return Self::Revert {
                    revert,
                    tx_hash: None,
                };
            }
        }
        let refusal = match e.inner() {
            ProviderError::StarknetError(StarknetError::InvalidTransactionNonce(_)) => {
                Some(NodeRefusal::StaleNonce)
            }
            ProviderError::StarknetError(StarknetError::CompiledClassHashMismatch) => {
                Some(NodeRefusal::ClassHashMismatch)
            }
            _ => said.as_deref().and_then(|said| node_refusal(said, false)),
        };
        match refusal {
            Some(refusal) => Self::Refused {
                refusal,
                message: e.to_string(),
            },
            None => Self::Provider(e),
        }
    }

    /// The one conversion of a starknet-rs account error: the provider's answer classified by
    /// [`ChainError::from_provider`], a signer failure [`ChainError::Signing`], the account's own
    /// arithmetic RPC errors.
    pub fn from_account<S: std::error::Error + Send + Sync + 'static>(e: AccountError<S>) -> Self {
        match e {
            AccountError::Provider(p) => Self::from_provider(p),
            AccountError::Signing(s) => Self::Signing(SigningError::Account(Arc::new(s))),
            AccountError::ClassHashCalculation(e) => Self::Rpc(RpcFailure::ClassHash(Arc::new(e))),
            AccountError::FeeOutOfRange => Self::Rpc(RpcFailure::FeeOutOfRange),
        }
    }

    /// Whether the node could not be reached or did not answer as a Starknet node at all (as
    /// opposed to answering and disagreeing: another network, another generation).
    pub fn is_unreachable(&self) -> bool {
        match self {
            Self::Provider(p) => !matches!(p.inner(), ProviderError::StarknetError(_)),
            Self::Rpc(_) => true,
            Self::Cartridge(c) => c.is_unreachable(),
            _ => false,
        }
    }

    /// What the node or the account refused, when this is such a refusal (a stale nonce, a
    /// session, a class hash), whether it came as an error or as a simulated revert.
    pub fn node_refusal(&self) -> Option<NodeRefusal> {
        match self {
            Self::Refused { refusal, .. } => Some(*refusal),
            Self::Revert {
                revert,
                tx_hash: None,
            } => revert.node_refusal(),
            _ => None,
        }
    }

    /// An I/O failure on `context`.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Self::Io {
            context: context.into(),
            source: Arc::new(source),
        }
    }

    /// A settings file or class that is not the JSON expected.
    pub fn json(context: impl Into<String>, source: serde_json::Error) -> Self {
        Self::Json {
            context: context.into(),
            source: Arc::new(source),
        }
    }

    /// An answer that is not the JSON expected.
    pub fn decode_json(context: impl Into<String>, source: serde_json::Error) -> Self {
        Self::DecodeJson {
            context: context.into(),
            source: Arc::new(source),
        }
    }

    fn revert(text: &str) -> Self {
        Self::Revert {
            revert: classify(text),
            tx_hash: None,
        }
    }
}

/// A revert or a refusal is the chain's own whoever read it, and a node's answer to a session's
/// read is classified as every provider error is; the paymaster's own failures stay whole.
impl From<CartridgeError> for ChainError {
    fn from(e: CartridgeError) -> Self {
        match e {
            CartridgeError::Revert(revert) => Self::Revert {
                revert,
                tx_hash: None,
            },
            CartridgeError::Refused { refusal, message } => Self::Refused { refusal, message },
            CartridgeError::Provider(p) => Self::from_redacted(p),
            other => Self::Cartridge(other),
        }
    }
}

impl From<ManifestError> for ChainError {
    fn from(e: ManifestError) -> Self {
        Self::Config(Misconfigured::Manifest(e))
    }
}

impl From<JournalError> for ChainError {
    fn from(e: JournalError) -> Self {
        Self::Journal(Arc::new(e))
    }
}

/// The innermost message of a nested contract execution error.
/// What the node said in words, where its answer carries words: the payload of a validation
/// failure or an unexpected error, or the message and data of a JSON-RPC error starknet-rs has no
/// variant for (a node's own codes). Typed answers carry none; they are matched by variant.
fn answer_text(e: &ProviderError) -> Option<String> {
    match e {
        ProviderError::StarknetError(
            StarknetError::ValidationFailure(said) | StarknetError::UnexpectedError(said),
        ) => Some(said.clone()),
        ProviderError::Other(inner) => {
            let any = inner.as_any();
            let rpc = match any.downcast_ref::<JsonRpcClientError<NodeTransportError>>() {
                Some(JsonRpcClientError::JsonRpcError(rpc)) => Some(rpc),
                _ => match any.downcast_ref::<JsonRpcClientError<HttpTransportError>>() {
                    Some(JsonRpcClientError::JsonRpcError(rpc)) => Some(rpc),
                    _ => None,
                },
            }?;
            let data = rpc.data.as_ref().map(|d| d.to_string()).unwrap_or_default();
            Some(format!("{} {data}", rpc.message))
        }
        _ => None,
    }
}

fn execution_text(e: &ContractExecutionError) -> String {
    match e {
        ContractExecutionError::Message(m) => m.clone(),
        ContractExecutionError::Nested(inner) => execution_text(&inner.error),
    }
}

/// What an [`ChainError::Unplayable`] says of the game.
fn unplayable_words(why: game::token_fields::Unplayable, now: u64) -> String {
    use game::token_fields::Unplayable;
    match why {
        Unplayable::NotStarted { starts_at } => format!(
            "has not started: it may be played from {starts_at} (unix seconds; the chain's time is {now})"
        ),
        Unplayable::Expired { expired_at } => {
            format!("expired at {expired_at} (unix seconds; the chain's time is {now})")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_execution_errors_yield_the_inner_reason() {
        let inner = ContractExecutionError::Message(
            "(0x4e6f7420696e20626174746c65 ('Not in battle'))".into(),
        );
        assert!(execution_text(&inner).contains("Not in battle"));
    }

    fn starknet(e: StarknetError) -> ProviderError {
        ProviderError::StarknetError(e)
    }

    #[test]
    fn provider_answers_are_classified_where_they_are_read() {
        let nonce = ChainError::from_provider(starknet(StarknetError::InvalidTransactionNonce(
            "Account nonce: 0x5; got: 0x4".into(),
        )));
        assert_eq!(nonce.node_refusal(), Some(NodeRefusal::StaleNonce));
        assert!(matches!(nonce, ChainError::Refused { .. }), "{nonce:?}");

        let session = ChainError::from_provider(starknet(StarknetError::ValidationFailure(
            "Account validation failed: ('session/not-registered')".into(),
        )));
        assert_eq!(session.node_refusal(), Some(NodeRefusal::Session));

        let data = starknet::core::types::TransactionExecutionErrorData {
            transaction_index: 0,
            execution_error: ContractExecutionError::Message(
                "Account transaction nonce is invalid.".into(),
            ),
        };
        let stale =
            ChainError::from_provider(starknet(StarknetError::TransactionExecutionError(data)));
        assert!(matches!(stale, ChainError::Revert { .. }), "{stale:?}");
        assert_eq!(stale.node_refusal(), Some(NodeRefusal::StaleNonce));

        let busy = ChainError::from_provider(starknet(StarknetError::BlockNotFound));
        assert!(matches!(busy, ChainError::Provider(_)), "{busy:?}");
        assert_eq!(busy.node_refusal(), None);
        assert!(busy.to_string().starts_with("RPC error: "), "{busy}");
        assert!(std::error::Error::source(&busy).is_some());
    }

    #[test]
    fn a_node_error_without_a_starknet_code_is_read_from_its_message_and_data() {
        use starknet::providers::jsonrpc::JsonRpcError;
        let answer = |message: &str, data: Option<serde_json::Value>| {
            ProviderError::from(JsonRpcClientError::<NodeTransportError>::JsonRpcError(
                JsonRpcError {
                    code: -32000,
                    message: message.into(),
                    data,
                },
            ))
        };
        let stale = ChainError::from_provider(answer(
            "Invalid transaction nonce",
            Some(serde_json::json!("expected 0x7, got 0x6")),
        ));
        assert_eq!(stale.node_refusal(), Some(NodeRefusal::StaleNonce));
        let session = ChainError::from_provider(answer(
            "Account validation failed",
            Some(serde_json::json!({"reason": "session/expired"})),
        ));
        assert_eq!(session.node_refusal(), Some(NodeRefusal::Session));
        let other = ChainError::from_provider(answer("Internal error", None));
        assert!(matches!(other, ChainError::Provider(_)), "{other:?}");
        // Only the node's answer is read: a transport failure is not classified by its text.
        let transport = ProviderError::from(JsonRpcClientError::<NodeTransportError>::JsonError(
            serde_json::from_str::<u8>("\"nonce invalid session/x\"").unwrap_err(),
        ));
        assert!(
            matches!(
                ChainError::from_provider(transport),
                ChainError::Provider(_)
            ),
            "a transport error is never a refusal"
        );
    }

    #[test]
    fn account_errors_have_one_conversion() {
        let no_key = std::io::Error::other("no key");
        let e = ChainError::from_account(AccountError::Signing(no_key));
        assert!(
            matches!(e, ChainError::Signing(ref s) if s.to_string() == "no key"),
            "{e:?}"
        );
        let e = ChainError::from_account(AccountError::<std::io::Error>::Provider(
            ProviderError::StarknetError(StarknetError::InvalidTransactionNonce(String::new())),
        ));
        assert_eq!(e.node_refusal(), Some(NodeRefusal::StaleNonce));
    }

    #[test]
    fn redacted_sources_hide_url_keys() {
        let e = ChainError::from_provider(ProviderError::StarknetError(
            StarknetError::UnexpectedError(
                "boom at https://api.cartridge.gg/x/starknet/mainnet?key=SECRET".into(),
            ),
        ));
        assert!(!e.to_string().contains("SECRET"), "{e}");
        assert!(!format!("{e:?}").contains("SECRET"), "{e:?}");
    }

    #[test]
    fn the_paymaster_s_reverts_and_refusals_are_the_chain_s_own() {
        let e = ChainError::from(CartridgeError::Revert(classify("('Not in battle')")));
        assert!(
            matches!(&e, ChainError::Revert { tx_hash: None, revert } if revert.is_known()),
            "{e:?}"
        );
        let e = ChainError::from(CartridgeError::Refused {
            refusal: NodeRefusal::Session,
            message: "session/expired".into(),
        });
        assert_eq!(e.node_refusal(), Some(NodeRefusal::Session));
        let e = ChainError::from(CartridgeError::Provider(Redacted::new(starknet(
            StarknetError::InvalidTransactionNonce(String::new()),
        ))));
        assert!(matches!(e, ChainError::Refused { .. }), "{e:?}");
        let e = ChainError::from(CartridgeError::Unsponsored("no credits".into()));
        assert!(matches!(
            e,
            ChainError::Cartridge(CartridgeError::Unsponsored(_))
        ));
        assert!(std::error::Error::source(&e).is_some());
        assert_eq!(
            e.to_string(),
            "the paymaster does not sponsor these calls: no credits"
        );
    }
}
