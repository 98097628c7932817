//! The HTTP side of the Denshokan API: `GET` requests with a per-request timeout, one retry
//! policy (backoff on transient failures; a 429's `retryAfter` waited out when it is within the
//! options' bound), answers checked against the routes' JSON before anything reads them, and
//! list pages cached briefly (a recent page is served, flagged, when the API fails).

use std::time::Duration;

use secrecy::{ExposeSecret as _, SecretString};
use serde_json::Value;
use starknet_types_core::felt::Felt;
use url::Url;

use super::DenshokanError;
use super::query::{
    MAX_PLAYER_TOKENS_LIMIT, MAX_TOKENS_LIMIT, PlayerTokensQuery, RankScope, TokensQuery, hex,
};
use super::token::{Token, TokenPage, TokenRank};
use crate::torii::{TtlCache, endpoint, snippet};

/// The mainnet API (Provable-Games/denshokan-sdk `src/chains/constants.ts` at `dc36315`); it
/// indexes mainnet only, so only the mainnet profile names it.
pub const DEFAULT_BASE_URL: &str = "https://denshokan-api-production.up.railway.app";
/// The header an API key is sent in (Provable-Games/denshokan `api/src/middleware/apiKey.ts`,
/// which also takes `Authorization: Bearer`).
pub const API_KEY_HEADER: &str = "X-API-Key";
/// The largest answer read, in bytes: the player route's page of 100 keeps each row's `tokenUri`
/// (about 40 KB), so about 4 MB a page (docs/denshokan.md).
const MAX_BODY: usize = 16 << 20;

/// First retry delay after a transient failure; doubled on each further retry.
const BACKOFF: Duration = Duration::from_millis(100);
/// Longest backoff delay.
const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// How long a cached list page remains usable when the API fails.
const STALE_LIMIT: Duration = Duration::from_secs(300);
/// Most rows [`DenshokanClient::collect_tokens`] asks for per page.
const COLLECT_PAGE: u32 = MAX_TOKENS_LIMIT;

/// Everything the client needs to know about one Denshokan API deployment.
#[derive(Debug, Clone)]
pub struct DenshokanOptions {
    /// Base URL; the routes (`/tokens`, `/players/…`) are below it.
    pub url: Url,
    /// Per-request timeout.
    pub request_timeout: Duration,
    /// Retries after a transient failure or a rate limit.
    pub retries: u32,
    /// Longest `retryAfter` of a 429 that is waited out; a longer one is returned as
    /// [`DenshokanError::RateLimited`].
    pub max_retry_wait: Duration,
    /// How long a list page is served from memory (zero: never).
    pub cache_ttl: Duration,
    /// The API key sent with every request ([`API_KEY_HEADER`]); none: the anonymous tier.
    pub api_key: Option<SecretString>,
}

impl Default for DenshokanOptions {
    fn default() -> Self {
        Self {
            url: DEFAULT_BASE_URL.parse().expect("the default URL parses"),
            request_timeout: Duration::from_secs(10),
            retries: 2,
            max_retry_wait: Duration::from_secs(5),
            cache_ttl: Duration::from_secs(10),
            api_key: None,
        }
    }
}

/// A Denshokan API client.
pub struct DenshokanClient {
    http: reqwest::Client,
    url: Url,
    timeout_ms: u64,
    retries: u32,
    max_retry_wait: Duration,
    pages: TtlCache<String, TokenPage>,
    api_key: Option<SecretString>,
}

impl std::fmt::Debug for DenshokanClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DenshokanClient")
            .field("retries", &self.retries)
            .finish_non_exhaustive()
    }
}

impl DenshokanClient {
    /// Builds a client.
    pub fn new(opts: DenshokanOptions) -> Result<Self, DenshokanError> {
        let mut headers = reqwest::header::HeaderMap::new();
        if let Some(key) = &opts.api_key {
            let mut value = reqwest::header::HeaderValue::from_str(key.expose_secret().trim())
                .map_err(|_| {
                    DenshokanError::Setup("the API key holds characters a header cannot".into())
                })?;
            value.set_sensitive(true);
            headers.insert(API_KEY_HEADER, value);
        }
        let http = reqwest::Client::builder()
            .timeout(opts.request_timeout)
            .default_headers(headers)
            .build()
            .map_err(|e| DenshokanError::Setup(e.without_url().to_string()))?;
        Ok(Self {
            http,
            url: opts.url,
            timeout_ms: u64::try_from(opts.request_timeout.as_millis()).unwrap_or(u64::MAX),
            retries: opts.retries,
            max_retry_wait: opts.max_retry_wait,
            pages: TtlCache::new(opts.cache_ttl, STALE_LIMIT),
            api_key: opts.api_key,
        })
    }

    /// One page of `GET /tokens` (always with `include_uri=false`), of at most the rows asked
    /// for, whatever the API sends.
    pub async fn tokens(&self, q: &TokensQuery) -> Result<TokenPage, DenshokanError> {
        let page = self.page("tokens", &q.pairs()).await?;
        Ok(at_most(page, q.paging.limit, MAX_TOKENS_LIMIT))
    }

    /// Every row of `GET /tokens` from the query's offset, up to `max_rows`, a full page at a
    /// time; paged by the rows returned (the API echoes the asked limit, not the capped one).
    /// The answer's `limit` is the number of rows collected.
    pub async fn collect_tokens(
        &self,
        q: &TokensQuery,
        max_rows: usize,
    ) -> Result<TokenPage, DenshokanError> {
        let mut query = q.clone();
        query.paging.limit = Some(
            q.paging
                .limit
                .unwrap_or(COLLECT_PAGE)
                .clamp(1, COLLECT_PAGE),
        );
        let mut all = self.tokens(&query).await?;
        let mut last = all.clone();
        while all.tokens.len() < max_rows {
            let Some(next) = last.next_offset() else {
                break;
            };
            query = query.at(next);
            last = self.tokens(&query).await?;
            all.total = last.total;
            all.tokens.extend(last.tokens.iter().cloned());
            if last.stale_because.is_some() {
                all.stale_because = last.stale_because.clone();
            }
        }
        all.tokens.truncate(max_rows);
        all.limit = all.tokens.len() as u64;
        Ok(all)
    }

    /// `GET /tokens/:id`: one token (its score and game-over flag may lag: `LAG_NOTE`); an
    /// unknown id is [`DenshokanError::NotFound`].
    pub async fn token(&self, id: Felt) -> Result<Token, DenshokanError> {
        let v = self.get(&format!("tokens/{id}"), &[]).await?;
        Token::from_json(data(&v)?)
    }

    /// `GET /tokens/:id/rank`: the token's rank within `scope` (not in scope, or an unknown
    /// minter: [`DenshokanError::NotFound`]).
    pub async fn rank(&self, id: Felt, scope: &RankScope) -> Result<TokenRank, DenshokanError> {
        let v = self
            .get(&format!("tokens/{id}/rank"), &scope.pairs())
            .await?;
        TokenRank::from_json(data(&v)?)
    }

    /// One page of `GET /players/:address/tokens` (at most 100 rows a page).
    pub async fn player_tokens(
        &self,
        owner: Felt,
        q: &PlayerTokensQuery,
    ) -> Result<TokenPage, DenshokanError> {
        let page = self
            .page(&format!("players/{}/tokens", hex(owner)), &q.pairs())
            .await?;
        Ok(at_most(page, q.paging.limit, MAX_PLAYER_TOKENS_LIMIT))
    }

    /// The API's change stream of game `game_id` (its WebSocket below the same URL, with the
    /// same key).
    pub fn stream(&self, game_id: u32) -> super::DenshokanStream {
        super::DenshokanStream::new(&self.url, game_id, self.api_key.clone())
    }

    /// `GET /health`, tried once: the API and its database (200 with `status: "ok"`, or 503 with
    /// `"degraded"` when the database does not answer; Provable-Games/denshokan
    /// `api/src/index.ts` at `1396b99`, `api/src/db/client.ts` at `f7f3b3f`).
    pub async fn health(&self) -> Result<Health, DenshokanError> {
        self.health_once().await.map_err(|e| self.hide_key(e))
    }

    /// One `GET /health`, its errors as the API wrote them.
    async fn health_once(&self) -> Result<Health, DenshokanError> {
        let resp = self
            .http
            .get(endpoint(&self.url, "health"))
            .send()
            .await
            .map_err(|e| self.transport_error(e))?;
        let status = resp.status().as_u16();
        let text = base::http_body::text_capped(resp, MAX_BODY)
            .await
            .map_err(|e| self.body_error(e))?;
        let answer: Option<Value> = parsed(&text);
        let word = match answer.as_ref().and_then(|v| v["status"].as_str()) {
            Some(word) if matches!(status, 200 | 503) => word,
            _ => {
                parse_answer(status, &text)?;
                return Err(DenshokanError::Malformed(
                    "the health answer has no `status`".into(),
                ));
            }
        };
        let v = answer.as_ref().expect("a status was read from it");
        Ok(Health {
            ok: status == 200 && word == "ok",
            status: word.to_string(),
            db: v["db"].as_bool().unwrap_or(false),
            latest_block: v["latestBlock"].as_u64(),
        })
    }

    /// A list page: from the cache when fresh, else from the API, else (the API failing) a
    /// cached page up to a few minutes old, else the error.
    async fn page(
        &self,
        path: &str,
        pairs: &[(&'static str, String)],
    ) -> Result<TokenPage, DenshokanError> {
        let key = self.url_of(path, pairs).to_string();
        if let Some(c) = self.pages.fresh(&key) {
            return Ok(TokenPage {
                cache_age: Some(c.age),
                ..c.value
            });
        }
        let fetched = self.get(path, pairs).await;
        match fetched.and_then(|v| TokenPage::from_json(&v)) {
            Ok(page) => {
                self.pages.put(key, page.clone());
                Ok(page)
            }
            Err(e) => match self.pages.stale(&key) {
                Some(c) => Ok(TokenPage {
                    cache_age: Some(c.age),
                    stale_because: Some(e),
                    ..c.value
                }),
                None => Err(e),
            },
        }
    }

    /// `GET {url}/{path}?{pairs}` under the retry policy, returning the answer's JSON object.
    async fn get(
        &self,
        path: &str,
        pairs: &[(&'static str, String)],
    ) -> Result<Value, DenshokanError> {
        let url = self.url_of(path, pairs);
        let mut backoff = BACKOFF;
        let mut tries = 0;
        loop {
            let e = match self.attempt(url.clone()).await {
                Ok(v) => return Ok(v),
                Err(e) => e,
            };
            match retry_wait(&e, backoff, self.max_retry_wait) {
                Some(wait) if tries < self.retries => {
                    tracing::debug!(error = %e, attempt = tries + 1, "Denshokan request failed; retrying");
                    tries += 1;
                    tokio::time::sleep(wait).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
                _ => return Err(e),
            }
        }
    }

    async fn attempt(&self, url: Url) -> Result<Value, DenshokanError> {
        let resp = self
            .http
            .get(url)
            .send()
            .await
            .map_err(|e| self.transport_error(e))?;
        let status = resp.status().as_u16();
        let text = base::http_body::text_capped(resp, MAX_BODY)
            .await
            .map_err(|e| self.body_error(e))?;
        parse_answer(status, &text).map_err(|e| self.hide_key(e))
    }

    /// `e` with the API key hidden, should the answer have echoed it.
    fn hide_key(&self, e: DenshokanError) -> DenshokanError {
        match &self.api_key {
            Some(key) => e.hiding(key.expose_secret().trim()),
            None => e,
        }
    }

    fn url_of(&self, path: &str, pairs: &[(&'static str, String)]) -> Url {
        let mut url = endpoint(&self.url, path);
        if !pairs.is_empty() {
            let mut q = url.query_pairs_mut();
            for (k, v) in pairs {
                q.append_pair(k, v);
            }
        }
        url
    }

    fn body_error(&self, e: base::http_body::BodyError) -> DenshokanError {
        match e {
            base::http_body::BodyError::Read(e) => self.transport_error(e),
            too_large => DenshokanError::Malformed(too_large.to_string()),
        }
    }

    fn transport_error(&self, e: reqwest::Error) -> DenshokanError {
        if e.is_timeout() {
            DenshokanError::Timeout(self.timeout_ms)
        } else {
            DenshokanError::Connect(base::redact::redact_urls(&e.without_url().to_string()))
        }
    }
}

/// What `GET /health` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Health {
    /// HTTP 200 with `status: "ok"`.
    pub ok: bool,
    /// The answer's `status`: `ok` or `degraded`.
    pub status: String,
    /// Whether the API reaches its database.
    pub db: bool,
    /// The newest block the indexer has processed, when it knows one.
    pub latest_block: Option<u64>,
}

/// `page` cut to the rows asked for (`limit`, at most `cap`): an API that sends more is not
/// trusted for more (each row of a filtered leaderboard costs a `/rank` request).
fn at_most(mut page: TokenPage, limit: Option<u32>, cap: u32) -> TokenPage {
    let asked = u64::from(limit.map_or(cap, |l| l.min(cap)));
    page.unlisted = page.unlisted.min(asked);
    page.tokens.truncate((asked - page.unlisted) as usize);
    page
}

/// An answer's JSON, its strings without control characters.
fn parsed(text: &str) -> Option<Value> {
    let mut v = serde_json::from_str(text).ok()?;
    crate::text::strip_controls(&mut v);
    Some(v)
}

/// How long to wait before retrying after `e`, or `None` when it is not retried: a 429 waits its
/// `retryAfter` if that is within `max_wait` (the backoff if it gave none), a transient failure
/// the backoff.
fn retry_wait(e: &DenshokanError, backoff: Duration, max_wait: Duration) -> Option<Duration> {
    match e {
        DenshokanError::RateLimited {
            retry_after: Some(s),
        } => Some(Duration::from_secs(*s)).filter(|d| *d <= max_wait),
        DenshokanError::RateLimited { retry_after: None } => Some(backoff.min(max_wait)),
        e if e.is_transient() => Some(backoff),
        _ => None,
    }
}

/// The `data` member of a single-object answer.
fn data(v: &Value) -> Result<&Value, DenshokanError> {
    v.get("data")
        .filter(|d| d.is_object())
        .ok_or_else(|| DenshokanError::Malformed("answer has no `data` object".into()))
}

/// Checks an answer: a JSON object on 2xx; `{error}` on 400, 401, 404 and 409; `{error,
/// retryAfter}` on 429 (Provable-Games/denshokan `api/src/middleware/rateLimit.ts` at `aa8eb22`;
/// 401 from `api/src/middleware/apiKey.ts` and 409 from `GET /tokens/:id` at `2527bda`).
fn parse_answer(status: u16, text: &str) -> Result<Value, DenshokanError> {
    let parsed: Option<Value> = parsed(text);
    let message = || {
        let m = parsed
            .as_ref()
            .and_then(|v| v.get("error"))
            .and_then(Value::as_str)
            .map(snippet)
            .unwrap_or_else(|| snippet(text));
        base::redact::redact_urls(&m)
    };
    match status {
        200..300 => match parsed {
            Some(v @ Value::Object(_)) => Ok(v),
            _ => Err(DenshokanError::Malformed(format!(
                "answer is not a JSON object: {}",
                message()
            ))),
        },
        400 => Err(DenshokanError::BadRequest(message())),
        401 => Err(DenshokanError::Unauthorized(message())),
        404 => Err(DenshokanError::NotFound(message())),
        409 => Err(DenshokanError::Ambiguous(message())),
        429 => Err(DenshokanError::RateLimited {
            retry_after: parsed
                .as_ref()
                .and_then(|v| v.get("retryAfter"))
                .and_then(Value::as_u64),
        }),
        _ => Err(DenshokanError::Status {
            status,
            body: message(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    #[test]
    fn answers_are_classified_by_status() {
        assert!(parse_answer(200, r#"{"data":{"a":1}}"#).is_ok());
        assert!(matches!(
            parse_answer(200, "[]"),
            Err(DenshokanError::Malformed(_))
        ));
        assert!(matches!(
            parse_answer(200, "<html>"),
            Err(DenshokanError::Malformed(_))
        ));
        /// (status, body, the error it becomes, the message it keeps).
        type Case = (
            u16,
            &'static str,
            fn(String) -> DenshokanError,
            &'static str,
        );
        let typed: [Case; 5] = [
            (
                400,
                r#"{"error":"Invalid token ID"}"#,
                DenshokanError::BadRequest,
                "Invalid token ID",
            ),
            (
                401,
                r#"{"error":"Invalid API key"}"#,
                DenshokanError::Unauthorized,
                "Invalid API key",
            ),
            (
                404,
                r#"{"error":"Token not found"}"#,
                DenshokanError::NotFound,
                "Token not found",
            ),
            (
                404,
                "404 Not Found",
                DenshokanError::NotFound,
                "404 Not Found",
            ),
            (
                409,
                r#"{"error":"Ambiguous token ID"}"#,
                DenshokanError::Ambiguous,
                "Ambiguous token ID",
            ),
        ];
        for (status, body, expected, message) in typed {
            assert_eq!(
                parse_answer(status, body),
                Err(expected(message.into())),
                "{status}"
            );
        }
        assert_eq!(
            parse_answer(429, r#"{"error":"Rate limit exceeded","retryAfter":17}"#),
            Err(DenshokanError::RateLimited {
                retry_after: Some(17)
            })
        );
        let e = parse_answer(
            502,
            "upstream at https://u:pw@h.example/x?key=s3cret failed",
        )
        .unwrap_err();
        assert!(e.is_transient());
        assert!(
            !e.to_string().contains("s3cret") && !e.to_string().contains("pw"),
            "{e}"
        );
    }

    #[test]
    fn the_retry_policy_waits_out_short_rate_limits_only() {
        let limited = |s| DenshokanError::RateLimited { retry_after: s };
        assert_eq!(retry_wait(&limited(Some(2)), S / 10, 5 * S), Some(2 * S));
        assert_eq!(retry_wait(&limited(Some(6)), S / 10, 5 * S), None);
        assert_eq!(retry_wait(&limited(None), S / 10, 5 * S), Some(S / 10));
        assert_eq!(
            retry_wait(&DenshokanError::Timeout(1), S / 10, 5 * S),
            Some(S / 10)
        );
        let bad = DenshokanError::BadRequest("x".into());
        assert_eq!(retry_wait(&bad, S / 10, 5 * S), None);
    }

    #[test]
    fn urls_keep_the_base_and_carry_the_pairs() {
        let c = DenshokanClient::new(DenshokanOptions {
            url: "https://h.example/api?key=abc".parse().unwrap(),
            ..Default::default()
        })
        .unwrap();
        let q = TokensQuery {
            game_id: Some(1),
            ..Default::default()
        };
        assert_eq!(
            c.url_of("tokens", &q.pairs()).as_str(),
            "https://h.example/api/tokens?key=abc&game_id=1&offset=0&include_uri=false"
        );
        assert_eq!(
            DenshokanOptions::default().url.as_str(),
            "https://denshokan-api-production.up.railway.app/"
        );
    }
}
