//! The HTTP side of Torii: GraphQL (`POST {url}/graphql`) and SQL (`GET {url}/sql?query=`), with a
//! per-request timeout, retries with backoff on transient failures, and answers checked against
//! Torii's wire format before anything reads them.

use std::time::Duration;

use serde_json::{Map, Value};
use starknet_types_core::felt::Felt;
use url::Url;

use super::ToriiError;
use super::cache::TtlCache;
use super::head::IndexerHead;
use super::leaderboard::{LeaderboardPage, LeaderboardQuery};
use super::namespace::{is_valid, short_namespace};
use super::values;

/// First retry delay; doubled on each further retry.
/// The largest answer read, in bytes (a full page of adventurers and their models is far less).
const MAX_BODY: usize = 8 << 20;

const BACKOFF: Duration = Duration::from_millis(100);
/// Longest retry delay.
const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// How much of an error body is kept in messages.
const BODY_SNIPPET: usize = 200;
/// How long a cached leaderboard page remains usable when Torii fails.
const STALE_LIMIT: Duration = Duration::from_secs(300);

/// Everything the client needs to know about one Torii deployment.
#[derive(Debug, Clone)]
pub struct ToriiOptions {
    /// Base URL; GraphQL is at `/graphql` and SQL at `/sql` below it.
    pub url: Url,
    /// Dojo namespace of the game's models (`ls_0_0_9`).
    pub namespace: String,
    /// Namespace of the game-token models (`relayer_0_0_1`).
    pub token_namespace: String,
    /// The game's `game_token_systems` contract (the game the token models refer to).
    pub game_address: Felt,
    /// The game's Dojo world, whose row of Torii's `contracts` table says how far it indexed.
    pub world_address: Option<Felt>,
    /// The dungeon that mints the official games (profile key `chain.contracts.dungeon`): the
    /// `dungeon` scope of the leaderboard ranks only its games.
    pub dungeon: Option<Felt>,
    /// Per-request timeout.
    pub request_timeout: Duration,
    /// Retries after a transient failure.
    pub retries: u32,
    /// How long a leaderboard page is served from memory.
    pub cache_ttl: Duration,
}

/// A Torii client for one game deployment.
pub struct ToriiClient {
    http: reqwest::Client,
    graphql_url: Url,
    sql_url: Url,
    pub(super) short_ns: String,
    pub(super) namespace: String,
    pub(super) token_namespace: String,
    pub(super) game_address: Felt,
    pub(super) world_address: Option<Felt>,
    pub(crate) dungeon: Option<Felt>,
    timeout_ms: u64,
    retries: u32,
    pub(super) leaderboard_cache: TtlCache<LeaderboardQuery, LeaderboardPage>,
    pub(super) head_cache: TtlCache<(), Option<IndexerHead>>,
}

impl std::fmt::Debug for ToriiClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToriiClient")
            .field("namespace", &self.short_ns)
            .field("token_namespace", &self.token_namespace)
            .finish_non_exhaustive()
    }
}

impl ToriiClient {
    /// Builds a client; fails on a namespace that is not a plain identifier.
    pub fn new(opts: ToriiOptions) -> Result<Self, String> {
        for ns in [&opts.namespace, &opts.token_namespace] {
            if !is_valid(ns) {
                return Err(format!(
                    "Torii namespace '{ns}' is not a plain identifier (letters, digits, _)"
                ));
            }
        }
        let http = reqwest::Client::builder()
            .timeout(opts.request_timeout)
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
        Ok(Self {
            http,
            graphql_url: endpoint(&opts.url, "graphql"),
            sql_url: endpoint(&opts.url, "sql"),
            short_ns: short_namespace(&opts.namespace),
            namespace: opts.namespace.clone(),
            token_namespace: opts.token_namespace,
            game_address: opts.game_address,
            world_address: opts.world_address,
            dungeon: opts.dungeon,
            timeout_ms: u64::try_from(opts.request_timeout.as_millis()).unwrap_or(u64::MAX),
            retries: opts.retries,
            leaderboard_cache: TtlCache::new(opts.cache_ttl, STALE_LIMIT),
            head_cache: TtlCache::new(opts.cache_ttl, opts.cache_ttl),
        })
    }

    /// The GraphQL prefix of the game's models (e.g. `ls009`).
    pub fn short_namespace(&self) -> &str {
        &self.short_ns
    }

    /// Runs a GraphQL query and returns its `data` object.
    pub async fn graphql(&self, query: &str) -> Result<Map<String, Value>, ToriiError> {
        let body = serde_json::json!({ "query": query });
        self.with_retries(|| async {
            let resp = self
                .http
                .post(self.graphql_url.clone())
                .json(&body)
                .send()
                .await
                .map_err(|e| self.transport_error(e))?;
            let status = resp.status().as_u16();
            let text = base::http_body::text_capped(resp, MAX_BODY)
                .await
                .map_err(|e| self.body_error(e))?;
            parse_graphql(status, &text)
        })
        .await
    }

    /// Runs a SQL query and returns its rows.
    pub async fn sql(&self, query: &str) -> Result<Vec<Map<String, Value>>, ToriiError> {
        self.with_retries(|| async {
            let resp = self
                .http
                .get(self.sql_url.clone())
                .query(&[("query", query)])
                .send()
                .await
                .map_err(|e| self.transport_error(e))?;
            let status = resp.status().as_u16();
            let text = base::http_body::text_capped(resp, MAX_BODY)
                .await
                .map_err(|e| self.body_error(e))?;
            parse_sql(status, &text)
        })
        .await
    }

    async fn with_retries<T, F, Fut>(&self, mut attempt: F) -> Result<T, ToriiError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, ToriiError>>,
    {
        let mut delay = BACKOFF;
        let mut tries = 0;
        loop {
            match attempt().await {
                Err(e) if e.is_transient() && tries < self.retries => {
                    tracing::debug!(error = %e, attempt = tries + 1, "Torii request failed; retrying");
                    tries += 1;
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(MAX_BACKOFF);
                }
                other => return other,
            }
        }
    }

    fn body_error(&self, e: base::http_body::BodyError) -> ToriiError {
        match e {
            base::http_body::BodyError::Read(e) => self.transport_error(e),
            too_large => ToriiError::Malformed(too_large.to_string()),
        }
    }

    fn transport_error(&self, e: reqwest::Error) -> ToriiError {
        if e.is_timeout() {
            ToriiError::Timeout(self.timeout_ms)
        } else {
            ToriiError::Connect(e.without_url().to_string())
        }
    }
}

/// `{base}/{name}`, keeping any query string of the base URL.
pub(crate) fn endpoint(base: &Url, name: &str) -> Url {
    let mut u = base.clone();
    let path = format!("{}/{name}", base.path().trim_end_matches('/'));
    u.set_path(&path);
    u
}

/// The start of a body for an error message, control characters dropped.
pub(crate) fn snippet(text: &str) -> String {
    let clean: String = text
        .chars()
        .filter(|c| !c.is_control())
        .take(BODY_SNIPPET)
        .collect();
    if clean.is_empty() {
        "(empty body)".into()
    } else {
        clean
    }
}

/// Checks a GraphQL answer: `{"data": {...}}` on success, `{"errors": [{"message"}...]}` otherwise.
pub(super) fn parse_graphql(status: u16, text: &str) -> Result<Map<String, Value>, ToriiError> {
    let parsed: Option<Value> = serde_json::from_str(text).ok().map(|mut v| {
        crate::text::strip_controls(&mut v);
        v
    });
    let errors = parsed
        .as_ref()
        .and_then(|v| v.get("errors"))
        .and_then(Value::as_array)
        .filter(|e| !e.is_empty());
    if let Some(errors) = errors {
        let messages: Vec<String> = errors
            .iter()
            .map(|e| {
                e.get("message")
                    .and_then(Value::as_str)
                    .map(snippet)
                    .unwrap_or_else(|| snippet(&e.to_string()))
            })
            .collect();
        return if status >= 500 {
            Err(ToriiError::Status {
                status,
                body: messages.join("; "),
            })
        } else {
            Err(ToriiError::GraphQl(messages.join("; ")))
        };
    }
    if !(200..300).contains(&status) {
        return Err(ToriiError::Status {
            status,
            body: snippet(text),
        });
    }
    let Some(v) = parsed else {
        return Err(ToriiError::Malformed(format!(
            "GraphQL answer is not JSON: {}",
            snippet(text)
        )));
    };
    match v.get("data") {
        Some(Value::Object(data)) => Ok(data.clone()),
        _ => Err(ToriiError::Malformed(
            "GraphQL answer has neither data nor errors".into(),
        )),
    }
}

/// Checks a SQL answer: a JSON array of row objects.
pub(super) fn parse_sql(status: u16, text: &str) -> Result<Vec<Map<String, Value>>, ToriiError> {
    if !(200..300).contains(&status) {
        return Err(ToriiError::Status {
            status,
            body: snippet(text),
        });
    }
    let mut v: Value = serde_json::from_str(text)
        .map_err(|_| ToriiError::Malformed(format!("SQL answer is not JSON: {}", snippet(text))))?;
    crate::text::strip_controls(&mut v);
    let Value::Array(rows) = v else {
        return Err(ToriiError::Malformed(
            "SQL answer is not an array of rows".into(),
        ));
    };
    rows.into_iter()
        .map(|r| match r {
            Value::Object(m) => Ok(m),
            _ => Err(ToriiError::Malformed("SQL row is not an object".into())),
        })
        .collect()
}

/// A query template without its comment lines (`#` in GraphQL, `--` in SQL), which document the
/// placeholders and need not travel.
pub(super) fn strip_comments(template: &str) -> String {
    template
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !t.is_empty() && !t.starts_with('#') && !t.starts_with("--")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A SQL template ready to send: comment lines dropped and every `__NUM(expr)__` replaced by
/// the expression reading `expr` as a 64-digit number ([`values::num_key`]).
pub(super) fn sql_template(template: &str) -> String {
    let mut text = strip_comments(template);
    while let Some(start) = text.find("__NUM(") {
        let open = start + "__NUM(".len();
        let mut depth = 1usize;
        let mut end = None;
        for (i, c) in text[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = end.filter(|&c| text[c + 1..].starts_with("__")) else {
            break;
        };
        let expanded = values::num_key(&text[open..close]);
        text.replace_range(start..close + 3, &expanded);
    }
    text
}

/// A required field of a GraphQL object, or a malformed-answer error naming it.
pub(super) fn field<'a>(obj: &'a Value, name: &str, what: &str) -> Result<&'a Value, ToriiError> {
    obj.get(name)
        .ok_or_else(|| ToriiError::Malformed(format!("{what} has no `{name}`")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_keep_the_base_path_and_query() {
        let base: Url = "https://h.example/x/pg/torii?key=abc".parse().unwrap();
        assert_eq!(
            endpoint(&base, "graphql").as_str(),
            "https://h.example/x/pg/torii/graphql?key=abc"
        );
        let base: Url = "http://127.0.0.1:8080/".parse().unwrap();
        assert_eq!(endpoint(&base, "sql").as_str(), "http://127.0.0.1:8080/sql");
    }

    #[test]
    fn graphql_answers_are_checked() {
        assert!(parse_graphql(200, r#"{"data":{"a":1}}"#).is_ok());
        let e = parse_graphql(
            200,
            r#"{"data":null,"errors":[{"message":"Unknown field"}]}"#,
        )
        .unwrap_err();
        assert_eq!(e, ToriiError::GraphQl("Unknown field".into()));
        assert!(!e.is_transient());
        let e = parse_graphql(503, "busy").unwrap_err();
        assert!(e.is_transient());
        assert!(matches!(
            parse_graphql(200, "{"),
            Err(ToriiError::Malformed(_))
        ));
        assert!(matches!(
            parse_graphql(200, ""),
            Err(ToriiError::Malformed(_))
        ));
        assert!(matches!(
            parse_graphql(200, "[]"),
            Err(ToriiError::Malformed(_))
        ));
        assert!(matches!(
            parse_graphql(200, r#"{"errors":[]}"#),
            Err(ToriiError::Malformed(_))
        ));
    }

    #[test]
    fn comments_are_stripped_from_templates() {
        let t = "# doc __NS__\nquery Q {\n  # more\n  a\n}\n-- sql doc\nSELECT 1";
        assert_eq!(strip_comments(t), "query Q {\n  a\n}\nSELECT 1");
    }

    #[test]
    fn number_keys_are_expanded_with_nested_parentheses() {
        let t = "-- doc __NUM(x)__\nSELECT __NUM(COALESCE(s.score, '0x0'))__ AS k, __NUM(a)__";
        let out = sql_template(t);
        assert!(!out.contains("__NUM"), "{out}");
        assert!(
            out.contains(&values::num_key("COALESCE(s.score, '0x0')")),
            "{out}"
        );
        assert!(out.ends_with(&values::num_key("a")), "{out}");
    }

    #[test]
    fn sql_answers_are_checked() {
        assert_eq!(parse_sql(200, "[]").unwrap().len(), 0);
        assert_eq!(parse_sql(200, r#"[{"a":1}]"#).unwrap()[0]["a"], 1);
        assert!(matches!(
            parse_sql(200, "[1]"),
            Err(ToriiError::Malformed(_))
        ));
        assert!(matches!(
            parse_sql(200, "{}"),
            Err(ToriiError::Malformed(_))
        ));
        let e = parse_sql(400, "no such table: x").unwrap_err();
        assert!(!e.is_transient());
        assert!(e.to_string().contains("no such table"));
    }
}
