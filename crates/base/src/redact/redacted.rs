//! An error kept whole as a typed source but shown without the credentials a URL in its text may
//! carry (a node's or the paymaster's URL with an API key).

use std::sync::Arc;

/// An underlying error kept as a typed source, shown (Display and Debug) with its URLs redacted:
/// a node's or the paymaster's URL may carry an API key. Its own sources are not exposed, for
/// the same reason; [`Redacted::inner`] gives the error itself.
pub struct Redacted<E>(Arc<E>);

impl<E> Clone for Redacted<E> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<E: std::fmt::Display> Redacted<E> {
    /// Wraps an error.
    pub fn new(e: E) -> Self {
        Self(Arc::new(e))
    }

    /// The error itself (its text unredacted: do not log it).
    pub fn inner(&self) -> &E {
        &self.0
    }
}

impl<E: std::fmt::Display> std::fmt::Display for Redacted<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&super::redact_urls(&self.0.to_string()))
    }
}

impl<E: std::fmt::Display> std::fmt::Debug for Redacted<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Redacted").field(&self.to_string()).finish()
    }
}

impl<E: std::fmt::Display> std::error::Error for Redacted<E> {}
