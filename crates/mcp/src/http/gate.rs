//! The HTTP gate in front of the MCP endpoint: browser origins first (403), then the bearer
//! token (401), then the request goes on with its [`Identity`] in its extensions. Refusals are
//! logged with the reason and the peer address, never with the token.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::tokens::{Identity, TokenTable};

/// What the gate checks.
#[derive(Debug)]
pub(super) struct Gate {
    /// Accepted tokens; empty means authentication is off (loopback only).
    pub tokens: TokenTable,
    /// Allowed `Origin` values, normalized.
    pub origins: Vec<String>,
    /// The identity of every request when authentication is off.
    pub local: Identity,
}

impl Gate {
    /// Whether a request's `Origin` header may call.
    fn origin_allowed(&self, origin: &HeaderValue) -> bool {
        origin
            .to_str()
            .is_ok_and(|o| self.origins.iter().any(|a| *a == normalize_origin(o)))
    }
}

/// `scheme://host[:port]` in lower case without a trailing slash, as compared.
pub(super) fn normalize_origin(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// The axum middleware: checks origin and token, attaches the identity.
pub(super) async fn check(
    State(gate): State<Arc<Gate>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
    next: Next,
) -> Response {
    if let Some(origin) = request.headers().get(header::ORIGIN)
        && !gate.origin_allowed(origin)
    {
        tracing::warn!(%peer, origin = ?origin, "refused an HTTP request: origin not allowed");
        return refusal(
            StatusCode::FORBIDDEN,
            "this Origin is not allowed (http.allowed_origins)",
        );
    }
    let identity = if gate.tokens.is_empty() {
        gate.local.clone()
    } else {
        match bearer(request.headers()) {
            None => {
                tracing::warn!(%peer, "refused an HTTP request: no bearer token");
                return unauthorized("an Authorization: Bearer <token> header is required");
            }
            Some(token) => match gate.tokens.identify(token) {
                Some(identity) => identity.clone(),
                None => {
                    tracing::warn!(%peer, "refused an HTTP request: unknown bearer token");
                    return unauthorized("the bearer token is not valid");
                }
            },
        }
    };
    request.extensions_mut().insert(identity);
    next.run(request).await
}

/// The token of an `Authorization: Bearer <token>` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    (scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty()).then(|| token.trim())
}

fn unauthorized(message: &str) -> Response {
    let mut response = refusal(StatusCode::UNAUTHORIZED, message);
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"loot-survivor-mcp\""),
    );
    response
}

fn refusal(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "error": status.canonical_reason(), "message": message });
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_tokens_are_read_from_the_header() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), None);
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer abc"),
        );
        assert_eq!(bearer(&h), Some("abc"));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bearer  xyz "),
        );
        assert_eq!(bearer(&h), Some("xyz"));
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic abc"));
        assert_eq!(bearer(&h), None);
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer "));
        assert_eq!(bearer(&h), None);
    }

    #[test]
    fn origins_compare_normalized() {
        let gate = Gate {
            tokens: TokenTable::default(),
            origins: vec![normalize_origin("https://App.example.com/")],
            local: Identity::local(&Default::default()),
        };
        assert!(gate.origin_allowed(&HeaderValue::from_static("https://app.example.com")));
        assert!(!gate.origin_allowed(&HeaderValue::from_static("https://evil.example.com")));
        assert!(!gate.origin_allowed(&HeaderValue::from_static("null")));
    }
}
