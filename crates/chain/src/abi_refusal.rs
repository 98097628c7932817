//! What the ABI check refuses, as the errors name it.

/// A call refused because its entrypoint differs ([`crate::ChainError::AbiMismatch`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbiRefusal {
    /// The contract's role in the deployment (`game_core`, …).
    pub contract: String,
    /// The entrypoint.
    pub entrypoint: String,
    /// Whether it is a write (else a view, whose answer would be misread).
    pub write: bool,
    /// The bindings' signature.
    pub ours: String,
    /// The deployed signature (or that it has none).
    pub deployed: String,
    /// The command that runs the check (`loot-survivor-mcp check --profile <p>`).
    pub check: String,
}

/// A contract whose class the ABI check could not read ([`crate::ChainError::AbiUnchecked`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbiUnchecked {
    /// The contract's role in the deployment.
    pub contract: String,
    /// Why its class was not read.
    pub why: String,
    /// The command that runs the check.
    pub check: String,
}
