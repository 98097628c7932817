//! Which chain a node serves, as the journal names it: the chain id, and the hash and timestamp of
//! block 0. A devnet started afresh keeps its chain id and even block 0's hash (starknet-devnet
//! 0.10.1 with the same seed: seen here), but block 0 is stamped with the start time, so records
//! made before a restart are told apart from those made after it.

use starknet::core::types::{BlockId, Felt, MaybePreConfirmedBlockWithTxHashes};
use starknet::providers::Provider;

use super::retry::read_with_retries;

/// `<chain id>/<block 0 hash>/<block 0 timestamp>`, or the chain id alone when the node serves
/// no block 0 (a node that prunes history; its records are then told apart by chain id only).
pub(crate) async fn chain_identity<P: Provider + Sync>(provider: &P, chain_id: Felt) -> String {
    match read_with_retries(|| provider.get_block_with_tx_hashes(BlockId::Number(0))).await {
        Ok(MaybePreConfirmedBlockWithTxHashes::Block(b)) => {
            format!("{chain_id:#x}/{:#x}/{}", b.block_hash, b.timestamp)
        }
        Ok(MaybePreConfirmedBlockWithTxHashes::PreConfirmedBlock(_)) => format!("{chain_id:#x}"),
        Err(e) => {
            tracing::warn!(
                error = %base::redact::redact_urls(&e.to_string()),
                "the node does not serve block 0: the journal tells chains apart by chain id only"
            );
            format!("{chain_id:#x}")
        }
    }
}

/// A chain id as its short string (`SN_MAIN`), else in hex.
pub(crate) fn short_string(f: Felt) -> String {
    starknet::core::utils::parse_cairo_short_string(&f).unwrap_or_else(|_| format!("{f:#x}"))
}
