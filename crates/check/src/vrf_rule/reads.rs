//! The reads the detection makes besides the transactions: GameCore's transactions in a window
//! of blocks, the adventurer's state before one of them, and the provider's nonce of an address
//! around a block.

use starknet::core::types::{BlockId, BlockTag, EventFilter, Felt};
use starknet::providers::Provider;

use super::classify::PriorState;
use crate::CheckError;
use chain::ChainError;
use chain::retry::read_with_retries;
use game::AdventurerId;
use game::events::GameEventDetails;
use game::v2::{GAME_CORE_EVENT_SELECTOR, decode_game_core_event};

/// Events asked for per `starknet_getEvents` page.
const PAGE: u64 = 1024;

/// Pages read per window, and for one adventurer's history.
const MAX_PAGES: usize = 16;

/// GameCore's transactions with a `GameEvent` in blocks `from..=to`, in chain order, each once.
pub(super) async fn gamecore_transactions<P: Provider + Sync>(
    provider: &P,
    game_core: Felt,
    from: u64,
    to: u64,
) -> Result<Vec<(Felt, Option<u64>)>, CheckError> {
    let filter = EventFilter {
        from_block: Some(BlockId::Number(from)),
        to_block: Some(BlockId::Number(to)),
        address: Some(game_core),
        keys: Some(vec![vec![GAME_CORE_EVENT_SELECTOR]]),
    };
    let mut out: Vec<(Felt, Option<u64>)> = Vec::new();
    let mut token = None;
    for _ in 0..MAX_PAGES {
        let page = read_with_retries(|| provider.get_events(filter.clone(), token.clone(), PAGE))
            .await
            .map_err(ChainError::from_provider)?;
        for e in page.events {
            if out.last().map(|l| l.0) != Some(e.transaction_hash) {
                out.push((e.transaction_hash, e.block_number));
            }
        }
        token = page.continuation_token;
        if token.is_none() {
            return Ok(out);
        }
    }
    tracing::warn!(
        from,
        to,
        "GameCore's events in these blocks fill {MAX_PAGES} pages; the newest were not read"
    );
    Ok(out)
}

/// The provider `vrf`'s nonce of `address` in its map `storage_var`, at the end of the block
/// before `block` and of `block` (the pre-confirmed state when `None`): the range the nonce a
/// transaction of that block spent lies in; `None` when a value is not a small counter.
pub async fn provider_nonces<P: Provider + Sync>(
    provider: &P,
    vrf: Felt,
    storage_var: &str,
    address: Felt,
    block: Option<u64>,
) -> Result<Option<(u64, u64)>, CheckError> {
    let key = starknet::core::utils::get_storage_var_address(storage_var, &[address]).map_err(
        |source| CheckError::StorageVar {
            name: storage_var.to_owned(),
            source,
        },
    )?;
    let read = |at: BlockId| async move {
        let v = read_with_retries(|| provider.get_storage_at(vrf, key, at))
            .await
            .map_err(ChainError::from_provider)?;
        Ok::<_, ChainError>(u64::try_from(v).ok())
    };
    let (before, after) = match block {
        Some(0) => (Some(0), read(BlockId::Number(0)).await?),
        Some(b) => (
            read(BlockId::Number(b - 1)).await?,
            read(BlockId::Number(b)).await?,
        ),
        None => (
            read(BlockId::Tag(BlockTag::Latest)).await?,
            read(BlockId::Tag(BlockTag::PreConfirmed)).await?,
        ),
    };
    Ok(before.zip(after))
}

/// The adventurer's newest `adventurer` event before the action, with the count of its earlier
/// transactions, from its GameCore events up to the transaction's block. The action is the
/// transaction `tx_hash`'s call after `earlier_calls` calls of the adventurer's (each emits one
/// `adventurer` event), so a multicall's upgrade before its explore counts. `None` when no such
/// event comes first, or the events keyed by the adventurer do not reach the transaction (an
/// envelope with the id in the data cannot be filtered by key).
pub(super) async fn prior_state<P: Provider + Sync>(
    provider: &P,
    game_core: Felt,
    id: AdventurerId,
    tx_hash: Felt,
    earlier_calls: usize,
    block_number: Option<u64>,
) -> Result<Option<PriorState>, CheckError> {
    let filter = EventFilter {
        from_block: Some(BlockId::Number(0)),
        to_block: Some(block_number.map_or(BlockId::Tag(BlockTag::PreConfirmed), BlockId::Number)),
        address: Some(game_core),
        keys: Some(vec![vec![GAME_CORE_EVENT_SELECTOR], vec![id.felt()]]),
    };
    let (mut state, mut actions, mut last_tx) = (None::<PriorState>, 0u16, None);
    let (mut entered, mut seen_in_tx) = (false, 0usize);
    let mut token = None;
    for _ in 0..MAX_PAGES {
        let page = read_with_retries(|| provider.get_events(filter.clone(), token.clone(), PAGE))
            .await
            .map_err(ChainError::from_provider)?;
        for e in &page.events {
            let in_tx = e.transaction_hash == tx_hash;
            if (in_tx && seen_in_tx == earlier_calls) || (!in_tx && entered) {
                return Ok(state.map(|s| PriorState { actions, ..s }));
            }
            entered |= in_tx;
            let decoded =
                decode_game_core_event(&e.keys, &e.data).map_err(CheckError::GameEvent)?;
            let Some(d) = decoded.filter(|d| d.adventurer_id == id) else {
                continue;
            };
            if !in_tx && last_tx != Some(e.transaction_hash) {
                last_tx = Some(e.transaction_hash);
                actions = actions.wrapping_add(1);
            }
            if let GameEventDetails::Adventurer(a) = d.details {
                state = Some(PriorState {
                    adventurer_id: id,
                    xp: a.xp,
                    health: a.health,
                    beast_health: a.beast_health,
                    actions,
                });
                seen_in_tx += usize::from(in_tx);
            }
        }
        token = page.continuation_token;
        if token.is_none() {
            break;
        }
    }
    tracing::warn!(%id, tx = %format!("{tx_hash:#x}"), "the adventurer's keyed events do not reach the transaction");
    Ok(None)
}
