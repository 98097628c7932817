//! Retries for reads: transient transport failures (connection errors, 429, 5xx, timeouts) are
//! retried with exponential backoff and jitter; node answers (a revert, an unknown hash) are not.

use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

use starknet::core::types::StarknetError;
use starknet::providers::ProviderError;

/// Attempts per read, the first included.
pub const READ_ATTEMPTS: u32 = 5;

/// Whether an error is a transport problem worth retrying (the node said nothing about the request).
pub fn is_transient(e: &ProviderError) -> bool {
    matches!(
        e,
        ProviderError::RateLimited
            | ProviderError::Other(_)
            | ProviderError::StarknetError(StarknetError::UnexpectedError(_))
    )
}

/// The delay before retry `attempt` (0-based): 100 ms doubling up to 2 s, times a jitter in [0.5, 1).
pub fn backoff(attempt: u32) -> Duration {
    let base = 100u64.saturating_mul(1 << attempt.min(5)).min(2_000);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(attempt);
    let jitter = 0.5 + (h.finish() % 1000) as f64 / 2000.0;
    Duration::from_millis((base as f64 * jitter) as u64)
}

/// Runs a read, retrying transient failures.
pub async fn read_with_retries<T, F, Fut>(mut op: F) -> Result<T, ProviderError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, ProviderError>>,
{
    let mut attempt = 0;
    loop {
        match op().await {
            Err(e) if is_transient(&e) && attempt + 1 < READ_ATTEMPTS => {
                tracing::debug!(error = %base::redact::redact_urls(&e.to_string()), attempt, "read failed; retrying");
                tokio::time::sleep(backoff(attempt)).await;
                attempt += 1;
            }
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn backoff_grows_and_is_bounded() {
        for a in 0..10 {
            let d = backoff(a);
            let base = 100u64 * (1 << a.min(5));
            assert!(d.as_millis() as u64 >= base.min(2000) / 2, "{a}: {d:?}");
            assert!(d.as_millis() as u64 <= base.min(2000), "{a}: {d:?}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn transient_errors_are_retried_then_succeed() {
        let calls = AtomicU32::new(0);
        let r = read_with_retries(|| async {
            if calls.fetch_add(1, Ordering::SeqCst) < 2 {
                Err(ProviderError::RateLimited)
            } else {
                Ok(7)
            }
        })
        .await;
        assert_eq!(r.unwrap(), 7);
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test(start_paused = true)]
    async fn node_answers_are_not_retried() {
        let calls = AtomicU32::new(0);
        let r: Result<(), _> = read_with_retries(|| async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(ProviderError::StarknetError(
                StarknetError::ContractNotFound,
            ))
        })
        .await;
        assert!(r.is_err());
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn retries_are_bounded() {
        let calls = AtomicU32::new(0);
        let r: Result<(), _> = read_with_retries(|| async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(ProviderError::RateLimited)
        })
        .await;
        assert!(matches!(r, Err(ProviderError::RateLimited)));
        assert_eq!(calls.load(Ordering::SeqCst), READ_ATTEMPTS);
    }
}
