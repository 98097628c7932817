//! Failures talking to Torii, classified once so the client knows what to retry and the tool
//! layer knows what to report.

/// What went wrong talking to Torii. Messages never contain the Torii URL (it may embed a key).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToriiError {
    /// No Torii URL is configured for this profile.
    #[error("no Torii indexer is configured for this profile (set torii.url or LS_TORII_URL)")]
    NotConfigured,
    /// The request did not complete within the per-request timeout.
    #[error("Torii did not answer within {0} ms")]
    Timeout(u64),
    /// The connection could not be made or broke off.
    #[error("cannot reach Torii: {0}")]
    Connect(String),
    /// Torii answered with an HTTP error status.
    #[error("Torii answered HTTP {status}: {body}")]
    Status {
        /// The HTTP status code.
        status: u16,
        /// The start of the response body.
        body: String,
    },
    /// The answer is not the JSON shape Torii's wire format promises.
    #[error("Torii's answer is malformed: {0}")]
    Malformed(String),
    /// Torii's data is written in a form this server cannot read (another Torii version).
    #[error("Torii's data cannot be read by this server: {0}")]
    Unsupported(String),
    /// Torii answered `{"errors": [...]}` to a GraphQL query.
    #[error("Torii rejected the GraphQL query: {0}")]
    GraphQl(String),
}

impl ToriiError {
    /// Whether the same request may succeed if sent again: timeouts, connection failures, HTTP
    /// 5xx, 408 and 429. Malformed answers and rejected queries are not retried.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Timeout(_) | Self::Connect(_) => true,
            Self::Status { status, .. } => *status >= 500 || *status == 408 || *status == 429,
            Self::NotConfigured | Self::Malformed(_) | Self::GraphQl(_) | Self::Unsupported(_) => {
                false
            }
        }
    }

    /// A short stable name of the failure class, for tool error details.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::NotConfigured => "not_configured",
            Self::Timeout(_) => "timeout",
            Self::Connect(_) => "connect",
            Self::Status { .. } => "http_status",
            Self::Malformed(_) => "malformed",
            Self::GraphQl(_) => "graphql",
            Self::Unsupported(_) => "unsupported_version",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transient_failures_are_the_retryable_ones() {
        assert!(ToriiError::Timeout(5).is_transient());
        assert!(ToriiError::Connect("refused".into()).is_transient());
        for status in [500, 502, 503, 408, 429] {
            let e = ToriiError::Status {
                status,
                body: String::new(),
            };
            assert!(e.is_transient(), "{status}");
        }
        for e in [
            ToriiError::Status {
                status: 400,
                body: String::new(),
            },
            ToriiError::Malformed("x".into()),
            ToriiError::GraphQl("x".into()),
            ToriiError::NotConfigured,
        ] {
            assert!(!e.is_transient(), "{e}");
        }
    }
}
