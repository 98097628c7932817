//! A write the ABI check refuses, as the error names it.

/// A write refused because its entrypoint differs ([`ChainError::AbiMismatch`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbiRefusal {
    /// The contract's role in the deployment (`game_core`, …).
    pub contract: String,
    /// The entrypoint.
    pub entrypoint: String,
    /// The bindings' signature.
    pub ours: String,
    /// The deployed signature (or that it has none).
    pub deployed: String,
    /// The command that runs the check (`loot-survivor-mcp check --profile <p>`).
    pub check: String,
}
