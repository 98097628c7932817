//! The feed without a socket: the latest block's number, then `starknet_getEvents` on the game's
//! event source from the first block not yet read to it, page after page up to [`MAX_PAGES`].

use starknet::core::types::{BlockId, EventFilter};
use starknet::providers::Provider;

use super::Emitted;
use crate::ChainError;
use crate::generation::EventSource;
use crate::node::Rpc;

/// Events asked for per page (the most nodes serve in one).
const PAGE: u64 = 1024;

/// Pages read at most in one poll; what lies past them is read at the next.
pub(super) const MAX_PAGES: usize = 8;

/// What one poll read.
#[derive(Debug, Default)]
pub(super) struct Read {
    /// The events, in chain order.
    pub(super) events: Vec<Emitted>,
    /// The first block the next poll reads from.
    pub(super) floor: u64,
}

/// Reads the events of blocks `floor..=latest`: one request when no block is new, then one per
/// page.
pub(super) async fn read(
    provider: &Rpc,
    source: &EventSource,
    floor: u64,
) -> Result<Read, ChainError> {
    let latest = provider
        .block_number()
        .await
        .map_err(ChainError::from_provider)?;
    let mut read = Read {
        floor,
        ..Read::default()
    };
    if latest < floor {
        return Ok(read);
    }
    let filter = EventFilter {
        from_block: Some(BlockId::Number(floor)),
        to_block: Some(BlockId::Number(latest)),
        address: Some(source.address),
        keys: Some(source.keys.clone()),
    };
    let mut token = None;
    for _ in 0..MAX_PAGES {
        let page = provider
            .get_events(filter.clone(), token.take(), PAGE)
            .await
            .map_err(ChainError::from_provider)?;
        read.events.extend(page.events.into_iter().map(|e| Emitted {
            block: e.block_number,
            tx_hash: e.transaction_hash,
            event: starknet::core::types::Event {
                from_address: e.from_address,
                keys: e.keys,
                data: e.data,
            },
        }));
        token = page.continuation_token;
        if token.is_none() {
            read.floor = latest + 1;
            return Ok(read);
        }
    }
    read.floor = resume_at(&read.events, floor);
    Ok(read)
}

/// Where a poll cut short at its page bound resumes: the block of its last event, read again
/// whole (its events may repeat), never before `floor`.
pub(super) fn resume_at(events: &[Emitted], floor: u64) -> u64 {
    events
        .iter()
        .rev()
        .find_map(|e| e.block)
        .map_or(floor, |b| b.max(floor))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feed::tests::at;

    #[test]
    fn a_poll_cut_short_resumes_at_its_last_block() {
        assert_eq!(resume_at(&[at(Some(5)), at(Some(9))], 3), 9);
        assert_eq!(resume_at(&[at(Some(9)), at(None)], 3), 9);
        assert_eq!(resume_at(&[], 3), 3);
        assert_eq!(resume_at(&[at(Some(1))], 3), 3, "never before the floor");
    }
}
