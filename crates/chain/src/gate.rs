//! Writes refused until the bindings match: the entrypoints the ABI check found different,
//! refused before anything is signed ([`ChainError::AbiMismatch`]). Reads are not gated: one
//! that still decodes keeps working. The check that fills the gate is a layer above.

use starknet::core::types::{Call, Felt};
use starknet::core::utils::get_selector_from_name;

use crate::ChainError;
pub use crate::abi_refusal::AbiRefusal;

/// The (contract, selector) pairs whose deployed entrypoint differs from the bindings'.
#[derive(Debug, Clone, Default)]
pub struct AbiGate {
    refused: Vec<(Felt, Felt, AbiRefusal)>,
}

impl AbiGate {
    /// The gate refusing each (contract address, refusal) pair's entrypoint on that contract;
    /// a refusal whose entrypoint is not a valid name is left out (no call can select it).
    pub fn new(refused: impl IntoIterator<Item = (Felt, AbiRefusal)>) -> Self {
        let refused = refused
            .into_iter()
            .filter_map(|(address, r)| {
                let selector = get_selector_from_name(&r.entrypoint).ok()?;
                Some((address, selector, r))
            })
            .collect();
        Self { refused }
    }

    /// How many write entrypoints are refused.
    pub fn len(&self) -> usize {
        self.refused.len()
    }

    /// Whether no write is refused.
    pub fn is_empty(&self) -> bool {
        self.refused.is_empty()
    }

    /// Refuses the first call whose entrypoint differs on its contract.
    pub fn check_calls(&self, calls: &[Call]) -> Result<(), ChainError> {
        for call in calls {
            if let Some((_, _, r)) = self
                .refused
                .iter()
                .find(|(to, selector, _)| *to == call.to && *selector == call.selector)
            {
                return Err(ChainError::AbiMismatch(Box::new(r.clone())));
            }
        }
        Ok(())
    }
}
