//! What a generation reads through the chain client ([`ChainReads`]): the seam that keeps the
//! generations below the client, which implements it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use starknet::core::types::{Call, EmittedEvent, Felt};

use crate::node::Rpc;
use crate::{BadAnswer, ChainError};
use game::AdventurerId;

/// The chain as a generation reads it: views at the pre-confirmed block, the node for event
/// reads, and a cache of events that do not change.
#[async_trait]
pub trait ChainReads: Send + Sync {
    /// The node.
    fn provider(&self) -> &Rpc;

    /// The node's chain id.
    fn chain_id(&self) -> Felt;

    /// Calls a view and returns the raw felts (transient failures retried).
    async fn call(&self, call: Call) -> Result<Vec<Felt>, ChainError>;

    /// Whether the contract has the entrypoint `call` names: it answers, or it fails inside the
    /// entrypoint (anything but "entry point not found" and node errors).
    async fn answers(&self, call: Call) -> bool;

    /// Events kept once read.
    fn kept_events(&self) -> &KeptEvents;
}

/// Calls the view `name` through `reads` and decodes its answer with its binding's decoder.
pub(crate) async fn view<T>(
    reads: &dyn ChainReads,
    name: &'static str,
    call: Call,
    decode: impl FnOnce(&[Felt]) -> Result<T, starknet::core::codec::Error>,
) -> Result<T, ChainError> {
    let felts = reads.call(call).await?;
    decode(&felts).map_err(|e| {
        ChainError::Decode(BadAnswer::View {
            view: name,
            source: std::sync::Arc::new(e),
        })
    })
}

/// Adventurers' events kept once read (a v2 game's earlier-envelope events: their blocks are
/// done), shared by every clone of a reader; emptied when it holds [`KEPT`] adventurers.
#[derive(Default)]
pub struct KeptEvents(Mutex<HashMap<AdventurerId, Arc<Vec<EmittedEvent>>>>);

/// Adventurers whose earlier-envelope events are kept at most.
const KEPT: usize = 1024;

impl KeptEvents {
    pub(crate) fn get(&self, id: AdventurerId) -> Option<Arc<Vec<EmittedEvent>>> {
        self.0.lock().ok()?.get(&id).cloned()
    }

    pub(crate) fn keep(
        &self,
        id: AdventurerId,
        events: Vec<EmittedEvent>,
    ) -> Arc<Vec<EmittedEvent>> {
        let events = Arc::new(events);
        if let Ok(mut kept) = self.0.lock() {
            if kept.len() >= KEPT {
                kept.clear();
            }
            kept.insert(id, events.clone());
        }
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_events_are_per_adventurer_and_bounded() {
        let kept = KeptEvents::default();
        let id = AdventurerId::from(7u64);
        assert!(kept.get(id).is_none());
        kept.keep(id, Vec::new());
        assert_eq!(
            kept.get(id).map(|e| e.len()),
            Some(0),
            "an empty history is kept too"
        );
        for n in 0..KEPT as u64 {
            kept.keep(AdventurerId::from(100 + n), Vec::new());
        }
        assert!(kept.get(id).is_none(), "a full store starts over");
        assert!(
            kept.get(AdventurerId::from(100 + KEPT as u64 - 1))
                .is_some()
        );
    }
}
