//! Writes refused until the bindings match: the entrypoints the ABI check found different,
//! refused before anything is signed ([`ChainError::AbiMismatch`]). Reads are not gated: one
//! that still decodes keeps working.

use starknet::core::types::{Call, Felt};
use starknet::core::utils::get_selector_from_name;

pub use super::refusal::AbiRefusal;
use super::{AbiCheck, Difference, Outcome};
use crate::ChainError;

/// The (contract, selector) pairs whose deployed entrypoint differs from the bindings'.
#[derive(Debug, Clone, Default)]
pub struct AbiGate {
    refused: Vec<(Felt, Felt, Difference)>,
    /// The command that shows the differences (`loot-survivor-mcp check --profile <p>`).
    check_command: String,
}

impl AbiGate {
    /// The gate of a check's differences; `check_command` is named in the refusals.
    pub fn new(check: &AbiCheck, check_command: impl Into<String>) -> Self {
        let refused = check
            .contracts
            .iter()
            .flat_map(|c| match &c.outcome {
                Outcome::Compared { differences, .. } => {
                    differences.iter().map(move |d| (c.address, d)).collect()
                }
                _ => Vec::new(),
            })
            .filter(|(_, d)| d.write)
            .filter_map(|(address, d)| {
                let selector = get_selector_from_name(&d.entrypoint).ok()?;
                Some((address, selector, d.clone()))
            })
            .collect();
        Self {
            refused,
            check_command: check_command.into(),
        }
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
            if let Some((_, _, d)) = self
                .refused
                .iter()
                .find(|(to, selector, _)| *to == call.to && *selector == call.selector)
            {
                return Err(ChainError::AbiMismatch(Box::new(AbiRefusal {
                    contract: d.contract.clone(),
                    entrypoint: d.entrypoint.clone(),
                    ours: d.ours.clone(),
                    deployed: d
                        .deployed
                        .clone()
                        .unwrap_or_else(|| "none (no such entrypoint)".into()),
                    check: self.check_command.clone(),
                })));
            }
        }
        Ok(())
    }
}
