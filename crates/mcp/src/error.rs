//! The tool error taxonomy shared by every tool (docs/writes-and-journal.md#errors): one code per
//! failure class, a message an agent can act on, whether a retry may help, a hint, and structured
//! details.

use serde::Serialize;
use serde_json::Value;

/// Version of the response envelopes; bumped on breaking changes to tool outputs.
pub const SCHEMA_VERSION: &str = "1";

/// The failure classes a tool can report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// The arguments are malformed or out of range; nothing was sent.
    ValidationError,
    /// The wallet policy refused to sign.
    PolicyDenied,
    /// The node could not be reached or answered with an error.
    RpcError,
    /// The game contract refused the action (simulated or on chain).
    ContractRevert,
    /// The transaction was sent but not confirmed in time; `tx_hash` is in the details.
    TxTimeout,
    /// The adventurer moved on since the agent looked.
    StaleState,
    /// The adventurer, token or transaction does not exist.
    NotFound,
    /// The indexer failed and no fallback exists.
    IndexerError,
    /// The wallet's Controller session cannot sign (expired, revoked, not registered, or the
    /// account's class is not supported); the player must approve a new one.
    SessionInvalid,
}

/// A tool failure in the taxonomy; rendered as `{ok:false, error:{…}}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolError {
    /// The failure class.
    pub code: ErrorCode,
    /// What went wrong, in words an agent can act on. Never contains a secret or an RPC URL.
    pub message: String,
    /// Whether the same call may succeed if retried unchanged.
    pub retryable: bool,
    /// What to do next.
    pub hint: Option<String>,
    /// Structured context: the game's revert code and reason, a transaction hash, the field at fault.
    pub details: Value,
}

impl ToolError {
    /// A new error with no hint and no details.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        let retryable = matches!(code, ErrorCode::RpcError | ErrorCode::IndexerError);
        Self {
            code,
            message: message.into(),
            retryable,
            hint: None,
            details: Value::Object(Default::default()),
        }
    }

    /// Invalid arguments.
    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::ValidationError, message)
    }

    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Adds one detail field.
    pub fn with_detail(mut self, key: &str, value: impl Serialize) -> Self {
        if let Value::Object(map) = &mut self.details {
            map.insert(
                key.to_string(),
                serde_json::to_value(value).unwrap_or(Value::Null),
            );
        }
        self
    }

    /// Overrides whether a retry may help.
    pub fn retryable(mut self, retryable: bool) -> Self {
        self.retryable = retryable;
        self
    }

    /// The JSON envelope returned to the agent.
    pub fn envelope(&self) -> Value {
        serde_json::json!({
            "ok": false,
            "schema_version": SCHEMA_VERSION,
            "error": self,
        })
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.code, self.message)
    }
}

impl std::error::Error for ToolError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_carries_code_and_details() {
        let e = ToolError::new(ErrorCode::ContractRevert, "Not in battle")
            .with_detail("reason", "Not in battle")
            .with_hint("explore first");
        let v = e.envelope();
        assert_eq!(v["ok"], false);
        assert_eq!(v["error"]["code"], "CONTRACT_REVERT");
        assert_eq!(v["error"]["details"]["reason"], "Not in battle");
        assert_eq!(v["error"]["hint"], "explore first");
        assert_eq!(v["error"]["retryable"], false);
        assert_eq!(v["schema_version"], SCHEMA_VERSION);
    }

    #[test]
    fn rpc_errors_are_retryable_by_default() {
        assert!(ToolError::new(ErrorCode::RpcError, "x").retryable);
        assert!(!ToolError::validation("x").retryable);
    }
}
