//! Failures talking to the Denshokan API, classified once so the client knows what to retry and
//! the tool layer knows what to report.

/// What went wrong talking to the Denshokan API. Messages never contain the API's URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DenshokanError {
    /// The request did not complete within the per-request timeout.
    #[error("the Denshokan API did not answer within {0} ms")]
    Timeout(u64),
    /// The connection could not be made or broke off.
    #[error("cannot reach the Denshokan API: {0}")]
    Connect(String),
    /// HTTP 429: more than the API's per-address request budget; `retry_after` is the API's
    /// `retryAfter` in seconds, when it gave one, and was longer than the client may wait.
    #[error("the Denshokan API is rate-limiting this address{}", retry_hint(*.retry_after))]
    RateLimited {
        /// Seconds until the API accepts requests again, as it said.
        retry_after: Option<u64>,
    },
    /// HTTP 400: the API rejected an argument (its `error` message).
    #[error("the Denshokan API rejected the request: {0}")]
    BadRequest(String),
    /// HTTP 404: no such token, or not in the asked scope (its `error` message).
    #[error("the Denshokan API found nothing: {0}")]
    NotFound(String),
    /// HTTP 401: the API refused the API key sent, or wants one (its `error` message).
    #[error("the Denshokan API refused the request: its API key is missing or not accepted ({0})")]
    Unauthorized(String),
    /// HTTP 409: the API holds more than one game under the token id asked for (its `error`
    /// message), so it cannot say which game the id means.
    #[error("the Denshokan API cannot tell which game this token id means ({0})")]
    Ambiguous(String),
    /// The profile names no Denshokan API for this deployment.
    #[error("no Denshokan API is configured for this deployment")]
    NotConfigured,
    /// Any other HTTP error status.
    #[error("the Denshokan API answered HTTP {status}: {body}")]
    Status {
        /// The HTTP status code.
        status: u16,
        /// The start of the response body.
        body: String,
    },
    /// The answer is not the JSON shape the API's routes write.
    #[error("the Denshokan API's answer is malformed: {0}")]
    Malformed(String),
    /// The client could not be built from its options.
    #[error("the Denshokan client cannot be built: {0}")]
    Setup(String),
}

/// The suffix of the rate-limit message: how long the API asked to wait.
fn retry_hint(retry_after: Option<u64>) -> String {
    retry_after
        .map(|s| format!(" (retry after {s} s)"))
        .unwrap_or_default()
}

impl DenshokanError {
    /// Whether the same request may succeed if sent again at once (after a short backoff):
    /// timeouts, connection failures, HTTP 5xx and 408. A 429 waits for its `retryAfter`.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Timeout(_) | Self::Connect(_) => true,
            Self::Status { status, .. } => *status >= 500 || *status == 408,
            Self::RateLimited { .. }
            | Self::BadRequest(_)
            | Self::NotFound(_)
            | Self::Unauthorized(_)
            | Self::Ambiguous(_)
            | Self::NotConfigured
            | Self::Malformed(_)
            | Self::Setup(_) => false,
        }
    }

    /// The same failure with `secret` (the API key, which an answer may echo) hidden in its text.
    pub(crate) fn hiding(self, secret: &str) -> Self {
        if secret.is_empty() {
            return self;
        }
        let hide = |t: String| t.replace(secret, base::redact::HIDDEN_CREDENTIAL);
        match self {
            Self::Connect(t) => Self::Connect(hide(t)),
            Self::BadRequest(t) => Self::BadRequest(hide(t)),
            Self::NotFound(t) => Self::NotFound(hide(t)),
            Self::Unauthorized(t) => Self::Unauthorized(hide(t)),
            Self::Ambiguous(t) => Self::Ambiguous(hide(t)),
            Self::Status { status, body } => Self::Status {
                status,
                body: hide(body),
            },
            Self::Malformed(t) => Self::Malformed(hide(t)),
            Self::Setup(t) => Self::Setup(hide(t)),
            other @ (Self::Timeout(_) | Self::RateLimited { .. } | Self::NotConfigured) => other,
        }
    }

    /// A short stable name of the failure class, for tool error details.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Timeout(_) => "timeout",
            Self::Connect(_) => "connect",
            Self::RateLimited { .. } => "rate_limited",
            Self::BadRequest(_) => "bad_request",
            Self::NotFound(_) => "not_found",
            Self::Unauthorized(_) => "unauthorized",
            Self::Ambiguous(_) => "ambiguous",
            Self::NotConfigured => "not_configured",
            Self::Status { .. } => "http_status",
            Self::Malformed(_) => "malformed",
            Self::Setup(_) => "setup",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_transport_failures_and_server_errors_are_transient() {
        assert!(DenshokanError::Timeout(5).is_transient());
        assert!(DenshokanError::Connect("refused".into()).is_transient());
        for status in [500, 502, 503, 408] {
            let e = DenshokanError::Status {
                status,
                body: String::new(),
            };
            assert!(e.is_transient(), "{status}");
        }
        for e in [
            DenshokanError::RateLimited {
                retry_after: Some(3),
            },
            DenshokanError::BadRequest("Invalid token ID".into()),
            DenshokanError::NotFound("Token not found".into()),
            DenshokanError::Unauthorized("Invalid API key".into()),
            DenshokanError::Ambiguous("Ambiguous token ID".into()),
            DenshokanError::NotConfigured,
            DenshokanError::Malformed("x".into()),
        ] {
            assert!(!e.is_transient(), "{e}");
        }
    }

    #[test]
    fn the_rate_limit_message_says_how_long_to_wait() {
        let e = DenshokanError::RateLimited {
            retry_after: Some(42),
        };
        assert_eq!(
            e.to_string(),
            "the Denshokan API is rate-limiting this address (retry after 42 s)"
        );
        assert_eq!(e.kind(), "rate_limited");
        let e = DenshokanError::RateLimited { retry_after: None };
        assert!(!e.to_string().contains("retry after"));
    }
}
