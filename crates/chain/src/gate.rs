//! The ABI check's verdict, held where reads and writes pass: an entrypoint found different is
//! refused before anything is signed ([`ChainError::AbiMismatch`]), or before a view's answer is
//! decoded; a contract whose class could not be read is checked again before a write reaches it
//! ([`AbiRecheck`]) and refused while it stays unchecked ([`ChainError::AbiUnchecked`]). The
//! check that fills the gate is a layer above.

use std::sync::{Arc, PoisonError, RwLock};

use starknet::core::types::{Call, Felt};
use starknet::core::utils::get_selector_from_name;

use crate::ChainError;
pub use crate::abi_refusal::{AbiRefusal, AbiUnchecked};

/// The (contract, selector) pairs whose deployed entrypoint differs from the bindings', and the
/// contracts not checked.
#[derive(Debug, Clone, Default)]
pub struct AbiGate {
    refused: Vec<(Felt, Felt, AbiRefusal)>,
    unchecked: Vec<(Felt, AbiUnchecked)>,
}

impl AbiGate {
    /// The gate refusing each (contract address, refusal) pair's entrypoint on that contract
    /// (a refusal whose entrypoint is not a valid name is left out: no call can select it), and
    /// holding writes to each unchecked contract.
    pub fn new(
        refused: impl IntoIterator<Item = (Felt, AbiRefusal)>,
        unchecked: impl IntoIterator<Item = (Felt, AbiUnchecked)>,
    ) -> Self {
        let refused = refused
            .into_iter()
            .filter_map(|(address, r)| {
                let selector = get_selector_from_name(&r.entrypoint).ok()?;
                Some((address, selector, r))
            })
            .collect();
        Self {
            refused,
            unchecked: unchecked.into_iter().collect(),
        }
    }

    /// How many entrypoints are refused (writes and views).
    pub fn refused_count(&self) -> usize {
        self.refused.len()
    }

    /// Whether nothing is refused and every contract was checked.
    pub fn is_clear(&self) -> bool {
        self.refused.is_empty() && self.unchecked.is_empty()
    }

    /// The contracts not checked, with why.
    pub fn unchecked(&self) -> impl Iterator<Item = &AbiUnchecked> {
        self.unchecked.iter().map(|(_, u)| u)
    }

    /// Refuses the first call whose entrypoint differs on its contract, or that goes to a
    /// contract not checked.
    pub fn check_calls(&self, calls: &[Call]) -> Result<(), ChainError> {
        for call in calls {
            self.check_call(call)?;
            if let Some((_, u)) = self.unchecked.iter().find(|(to, _)| *to == call.to) {
                return Err(ChainError::AbiUnchecked(Box::new(u.clone())));
            }
        }
        Ok(())
    }

    /// Refuses a view whose deployed answer (or arguments) differ from what the bindings decode.
    pub fn check_call(&self, call: &Call) -> Result<(), ChainError> {
        match self
            .refused
            .iter()
            .find(|(to, selector, _)| *to == call.to && *selector == call.selector)
        {
            Some((_, _, r)) => Err(ChainError::AbiMismatch(Box::new(r.clone()))),
            None => Ok(()),
        }
    }
}

/// Runs the ABI check again (implemented a layer above, where the check is).
#[async_trait::async_trait]
pub trait AbiRecheck: Send + Sync {
    /// The gate of a new check.
    async fn recheck(&self) -> AbiGate;
}

/// The gate a client's reader and writer share, and how to check again.
#[derive(Default)]
pub(crate) struct GateCell {
    gate: RwLock<Arc<AbiGate>>,
    recheck: RwLock<Option<Arc<dyn AbiRecheck>>>,
    /// One re-check at a time: writes that wait for it use its gate.
    rechecking: tokio::sync::Mutex<()>,
}

impl GateCell {
    /// The gate in force.
    pub(crate) fn current(&self) -> Arc<AbiGate> {
        self.gate
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Puts `gate` in force, with how to check again while a contract is unchecked.
    pub(crate) fn set(&self, gate: AbiGate, recheck: Option<Arc<dyn AbiRecheck>>) {
        *self.gate.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(gate);
        *self.recheck.write().unwrap_or_else(PoisonError::into_inner) = recheck;
    }

    /// Checks again when a contract is unchecked, so a write is judged on a check that read
    /// every class it could; the gate in force afterwards.
    pub(crate) async fn checked(&self) -> Arc<AbiGate> {
        if self.current().unchecked.is_empty() {
            return self.current();
        }
        let _one = self.rechecking.lock().await;
        let gate = self.current();
        let recheck = self
            .recheck
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let (false, Some(recheck)) = (gate.unchecked.is_empty(), recheck) else {
            return gate;
        };
        let fresh = recheck.recheck().await;
        tracing::info!(
            refused = fresh.refused_count(),
            unchecked = fresh.unchecked.len(),
            "ABI check run again before a write"
        );
        let fresh = Arc::new(fresh);
        *self.gate.write().unwrap_or_else(PoisonError::into_inner) = fresh.clone();
        fresh
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    fn unchecked_at(address: Felt) -> AbiGate {
        let u = AbiUnchecked {
            contract: "game_core".into(),
            why: "RPC error: timed out".into(),
            check: "check".into(),
        };
        AbiGate::new([], [(address, u)])
    }

    /// A re-check whose node answers from the `answers_from`-th call on.
    struct Node {
        calls: AtomicUsize,
        answers_from: usize,
    }

    #[async_trait::async_trait]
    impl AbiRecheck for Node {
        async fn recheck(&self) -> AbiGate {
            let n = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
            if n >= self.answers_from {
                AbiGate::default()
            } else {
                unchecked_at(Felt::ONE)
            }
        }
    }

    #[tokio::test]
    async fn an_unchecked_contract_is_checked_again_before_a_write_and_refused_meanwhile() {
        let write = Call {
            to: Felt::ONE,
            selector: Felt::TWO,
            calldata: vec![],
        };
        let cell = GateCell::default();
        let node = Arc::new(Node {
            calls: AtomicUsize::new(0),
            answers_from: 2,
        });
        cell.set(unchecked_at(Felt::ONE), Some(node.clone()));
        // Still down: refused, and a view is not held (only writes wait for a check).
        let first = cell.checked().await;
        assert!(matches!(
            first.check_calls(std::slice::from_ref(&write)),
            Err(ChainError::AbiUnchecked(_))
        ));
        assert!(first.check_call(&write).is_ok());
        // Up again: the write passes, and a checked gate is not checked again.
        assert!(
            cell.checked()
                .await
                .check_calls(std::slice::from_ref(&write))
                .is_ok()
        );
        cell.checked().await;
        assert_eq!(node.calls.load(Ordering::SeqCst), 2);
        // Without a way to check again, the contract stays unchecked.
        let alone = GateCell::default();
        alone.set(unchecked_at(Felt::ONE), None);
        assert!(alone.checked().await.check_calls(&[write]).is_err());
    }
}
