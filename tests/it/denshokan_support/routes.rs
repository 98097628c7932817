//! The stand-in's routes, each written from its upstream handler (Provable-Games/denshokan at
//! `aa8eb22`; file and handler named on each) with the answer's JSON spelled out here.

use std::cmp::Ordering;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::State as Shared;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::Response;
use serde_json::{Value, json};
use starknet_types_core::felt::Felt;

use super::{Fault, Logged, Row, State};

/// Every request goes to one handler, which logs it, applies a queued fault (the rate limiter
/// is middleware on `*` in `api/src/index.ts`, so it answers before any route) and routes it.
pub(crate) fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/ws", axum::routing::get(super::socket::route))
        .fallback(handle)
        .with_state(state)
}

/// A header's value as text, if it has one.
fn header_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// A request as the stand-in logs it: where it went and the credentials it carried.
pub(crate) fn logged(path: String, query: Vec<(String, String)>, headers: &HeaderMap) -> Logged {
    Logged {
        path,
        query,
        api_key: header_value(headers, "x-api-key"),
        authorization: header_value(headers, "authorization"),
    }
}

async fn handle(Shared(s): Shared<Arc<State>>, headers: HeaderMap, uri: Uri) -> Response {
    let query: Vec<(String, String)> = uri
        .query()
        .map(|q| {
            url::form_urlencoded::parse(q.as_bytes())
                .into_owned()
                .collect()
        })
        .unwrap_or_default();
    let path = uri.path().to_string();
    s.log
        .lock()
        .unwrap()
        .push(logged(path.clone(), query.clone(), &headers));
    let header = |name: &str| header_value(&headers, name);
    if let Some(f) = s.faults.lock().unwrap().pop_front() {
        return fault(f);
    }
    // `api/src/middleware/apiKey.ts` (`identifyCaller`): `X-API-Key`, else a bearer token; none
    // is the anonymous tier, an unknown one a 401.
    let bearer =
        header("authorization").and_then(|a| a.strip_prefix("Bearer ").map(str::to_string));
    if let Some(key) = header("x-api-key").or(bearer)
        && !s.keys.lock().unwrap().contains(&key.trim().to_string())
    {
        return json_answer(401, json!({ "error": "Invalid API key" }));
    }
    let q = |name: &str| {
        query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match segments.as_slice() {
        ["tokens"] => list_tokens(&s, &q),
        ["tokens", id] => one_token(&s, id),
        ["tokens", id, "rank"] => rank(&s, id, &q),
        ["players", address, "tokens"] => player_tokens(&s, address, &q),
        ["health"] => health(&s),
        // Hono's default notFound handler.
        _ => text(404, "404 Not Found"),
    }
}

fn fault(f: Fault) -> Response {
    match f {
        // `api/src/middleware/rateLimit.ts`: `{ error, retryAfter }` with status 429.
        Fault::RateLimited(secs) => json_answer(
            429,
            json!({ "error": "Rate limit exceeded", "retryAfter": secs }),
        ),
        Fault::Status(status, body) => text(status, body),
        Fault::Malformed => text(200, "<html>upstream error</html>"),
        Fault::Json(status, body) => json_answer(status, serde_json::from_str(body).unwrap()),
    }
}

/// `GET /health` (Provable-Games/denshokan `api/src/index.ts` at `1396b99`):
/// `{ status: dbOk ? "ok" : "degraded", db: dbOk, latestBlock }` with status 200, or 503 when the
/// database does not answer; `latestBlock` is a number or `null` (`api/src/db/client.ts` at
/// `f7f3b3f`, `getLatestIndexedBlock`).
fn health(s: &State) -> Response {
    let (db, latest_block) = *s.health.lock().unwrap();
    json_answer(
        if db { 200 } else { 503 },
        json!({
            "status": if db { "ok" } else { "degraded" },
            "db": db,
            "latestBlock": latest_block,
        }),
    )
}

/// `GET /tokens` (`api/src/routes/tokens.ts`, `app.get("/")`).
fn list_tokens<'a>(s: &State, q: &dyn Fn(&str) -> Option<&'a str>) -> Response {
    let limit = parse_non_negative_int(q("limit"), 50);
    // The route caps the rows at 1,000 but echoes the limit it was given.
    let capped = if s.every_row.load(std::sync::atomic::Ordering::SeqCst) {
        u64::MAX
    } else {
        limit.min(1000)
    };
    let offset = parse_non_negative_int(q("offset"), 0);
    let Some(filter) = Filter::from_query(s, q) else {
        // An unknown minter: an empty page.
        let empty = json!({ "data": [], "total": 0, "limit": limit, "offset": offset });
        return json_answer(200, empty);
    };
    let rows = s.rows.lock().unwrap().clone();
    let mut hits: Vec<&Row> = rows.iter().filter(|r| filter.keeps(r)).collect();
    let fields = ["score", "minted", "updated", "completedAt"];
    sort(&mut hits, q("sort_by"), &fields, q("sort_order"));
    let include_uri = q("include_uri") != Some("false");
    let total = hits.len();
    let data: Vec<Value> = hits
        .into_iter()
        .skip(offset as usize)
        .take(capped as usize)
        .map(|r| token_json(s, r, include_uri))
        .collect();
    json_answer(
        200,
        json!({ "data": data, "total": total, "limit": limit, "offset": offset }),
    )
}

/// `GET /tokens/:id` (`api/src/routes/tokens.ts`, `app.get("/:id")`).
fn one_token(s: &State, id: &str) -> Response {
    let Some(id) = parse_token_id(id) else {
        return json_answer(400, json!({ "error": "Invalid token ID" }));
    };
    let rows = s.rows.lock().unwrap();
    match rows.iter().find(|r| r.token_id == id) {
        // `serializeToken` keeps `tokenUri` unless asked not to; this route never asks.
        Some(r) => json_answer(200, json!({ "data": token_json(s, r, true) })),
        None => json_answer(404, json!({ "error": "Token not found" })),
    }
}

/// `GET /tokens/:id/rank` (`api/src/routes/tokens.ts`, scope from `api/src/utils/rank.ts`
/// `parseRankScopeFromGetter`, rank from `computeRank`).
fn rank<'a>(s: &State, id: &str, q: &dyn Fn(&str) -> Option<&'a str>) -> Response {
    let Some(id) = parse_token_id(id) else {
        return json_answer(400, json!({ "error": "Invalid token ID" }));
    };
    let Some(filter) = Filter::from_query(s, q) else {
        return json_answer(404, json!({ "error": "Minter not found" }));
    };
    let rows = s.rows.lock().unwrap().clone();
    let scope: Vec<&Row> = rows.iter().filter(|r| filter.keeps(r)).collect();
    let Some(target) = scope.iter().find(|r| r.token_id == id) else {
        return json_answer(404, json!({ "error": "Token not found in scope" }));
    };
    let better = scope
        .iter()
        .filter(|r| {
            r.current_score > target.current_score
                || (r.current_score == target.current_score && r.minted_at < target.minted_at)
        })
        .count();
    json_answer(
        200,
        json!({ "data": {
            "tokenId": id,
            "rank": better + 1,
            "total": scope.len(),
            "score": target.current_score.to_string(),
        } }),
    )
}

/// `GET /players/:address/tokens` (`api/src/routes/players.ts`).
fn player_tokens<'a>(s: &State, address: &str, q: &dyn Fn(&str) -> Option<&'a str>) -> Response {
    let Some(owner) = parse_address(Some(address)) else {
        return json_answer(400, json!({ "error": "Invalid address" }));
    };
    let game_id = parse_optional_int(q("game_id"));
    let game_over = q("game_over");
    let limit = parse_non_negative_int(q("limit"), 50);
    let offset = parse_non_negative_int(q("offset"), 0);
    let rows = s.rows.lock().unwrap().clone();
    let filter = Filter {
        game_id,
        game_over,
        owner: Some(owner),
        minted_by: None,
    };
    let mut hits: Vec<&Row> = rows.iter().filter(|r| filter.keeps(r)).collect();
    // This route's sort fields have no `completedAt`: it falls back to `lastUpdatedAt`.
    sort(
        &mut hits,
        q("sort_by"),
        &["score", "minted", "updated"],
        q("sort_order"),
    );
    let total = hits.len();
    // Capped at 100 rows; `include_uri` is not read here, so every row carries its `tokenUri`.
    let data: Vec<Value> = hits
        .into_iter()
        .skip(offset as usize)
        .take(limit.min(100) as usize)
        .map(|r| token_json(s, r, true))
        .collect();
    json_answer(
        200,
        json!({ "data": data, "total": total, "limit": limit, "offset": offset }),
    )
}

/// The `where` conditions the routes build from their filters: each applies when given, and
/// `game_over` only when it is exactly `true` or `false`.
struct Filter<'a> {
    game_id: Option<u64>,
    game_over: Option<&'a str>,
    owner: Option<String>,
    minted_by: Option<u64>,
}

impl<'a> Filter<'a> {
    /// The `game_id`, `game_over`, `owner` and `minter_address` filters of a query; `None` when
    /// the minter is not registered (each route answers that in its own way).
    fn from_query(s: &State, q: &dyn Fn(&str) -> Option<&'a str>) -> Option<Self> {
        let minted_by = match parse_address(q("minter_address")) {
            Some(a) => Some(minter_id(s, &a)?),
            None => None,
        };
        Some(Self {
            game_id: parse_optional_int(q("game_id")),
            game_over: q("game_over"),
            owner: parse_address(q("owner")),
            minted_by,
        })
    }

    fn keeps(&self, r: &Row) -> bool {
        self.game_id.is_none_or(|g| r.game_id == g)
            && self.owner.as_ref().is_none_or(|o| &r.owner_address == o)
            && self.minted_by.is_none_or(|m| r.minted_by == m)
            && (self.game_over != Some("true") || r.game_over)
            && (self.game_over != Some("false") || !r.game_over)
    }
}

/// Orders rows as the routes' `orderBy(sortColumn, asc(mintedAt))` does in PostgreSQL: unknown
/// fields sort by `lastUpdatedAt`, descending unless `sort_order=asc`, NULLs first when
/// descending (and last when ascending), ties by earliest mint.
fn sort(rows: &mut [&Row], by: Option<&str>, known: &[&str], order: Option<&str>) {
    let field = by.filter(|b| known.contains(b)).unwrap_or("updated");
    let asc = order == Some("asc");
    rows.sort_by(|a, b| {
        let primary = match field {
            "score" => a.current_score.cmp(&b.current_score),
            "minted" => a.minted_at.cmp(&b.minted_at),
            // NULL is larger than any value in PostgreSQL's ordering.
            "completedAt" => match (a.completed_at, b.completed_at) {
                (Some(x), Some(y)) => x.cmp(&y),
                (None, None) => Ordering::Equal,
                (None, _) => Ordering::Greater,
                (_, None) => Ordering::Less,
            },
            _ => a.last_updated_at.cmp(&b.last_updated_at),
        };
        let primary = if asc { primary } else { primary.reverse() };
        primary.then_with(|| a.minted_at.cmp(&b.minted_at))
    });
}

/// A row as `serializeToken` writes it, with `minterAddress` and `gameAddress` resolved from the
/// registries (null when unknown).
fn token_json(s: &State, r: &Row, include_uri: bool) -> Value {
    let mut v = json!({
        "id": format!("00000000-0000-4000-8000-{:012}", r.current_score),
        "tokenId": r.token_id,
        "gameId": r.game_id,
        "mintedBy": r.minted_by.to_string(),
        "settingsId": r.settings_id,
        "mintedAt": r.minted_at,
        "startDelay": 0,
        "endDelay": 0,
        "objectiveId": 0,
        "soulbound": r.soulbound,
        "hasContext": false,
        "paymaster": false,
        "txHash": 0,
        "salt": 0,
        "metadata": 0,
        "gameOver": r.game_over,
        "completedAllObjectives": false,
        "completedAt": r.completed_at,
        "ownerAddress": r.owner_address,
        "mintedTo": r.owner_address,
        "playerName": r.player_name,
        "clientUrl": null,
        "contextId": null,
        "contextName": null,
        "rendererAddress": null,
        "skillsAddress": null,
        "currentScore": r.current_score.to_string(),
        "createdAtBlock": "1700000",
        "lastUpdatedBlock": "1700100",
        "lastUpdatedAt": r.last_updated_at,
    });
    if include_uri {
        v["tokenUri"] = json!("data:application/json;base64,eyJuYW1lIjoiQWR2ZW50dXJlciJ9");
        v["tokenUriFetchFailed"] = json!(false);
        v["tokenUriFetchLastError"] = Value::Null;
    }
    v["minterAddress"] = json!(s.minters.lock().unwrap().get(&r.minted_by));
    v["gameAddress"] = json!(s.games.lock().unwrap().get(&r.game_id));
    v
}

fn minter_id(s: &State, address: &str) -> Option<u64> {
    let minters = s.minters.lock().unwrap();
    minters
        .iter()
        .find(|(_, a)| *a == address)
        .map(|(id, _)| *id)
}

/// `api/src/utils/validation.ts` `parseNonNegativeInt`: JS `parseInt` of the leading digits,
/// the default when absent, empty, not a number or negative.
fn parse_non_negative_int(v: Option<&str>, default: u64) -> u64 {
    parse_optional_int(v).unwrap_or(default)
}

/// `parseGameId` / `parseOptionalNonNegativeInt`: the same, `None` instead of a default.
fn parse_optional_int(v: Option<&str>) -> Option<u64> {
    let digits: String = v?
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// `parseAddress`: `0x` and hex digits, else ignored; normalised to unpadded lowercase hex.
fn parse_address(v: Option<&str>) -> Option<String> {
    let hex = v?.strip_prefix("0x")?;
    if hex.is_empty() || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let digits = hex.trim_start_matches('0').to_ascii_lowercase();
    Some(format!(
        "0x{}",
        if digits.is_empty() { "0" } else { &digits }
    ))
}

/// `parseTokenId`: JS `BigInt` of the text (decimal, or `0x` hex), non-negative, written back in
/// decimal; anything else is refused.
fn parse_token_id(v: &str) -> Option<String> {
    let v = v.trim();
    if let Some(hex) = v.strip_prefix("0x") {
        return Felt::from_hex(&format!("0x{hex}"))
            .ok()
            .map(|f| f.to_string());
    }
    if v.is_empty() || !v.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let digits = v.trim_start_matches('0');
    Some(if digits.is_empty() {
        "0".into()
    } else {
        digits.into()
    })
}

fn json_answer(status: u16, v: Value) -> Response {
    answer(status, "application/json", v.to_string())
}

pub(super) fn text(status: u16, body: &str) -> Response {
    answer(status, "text/plain; charset=UTF-8", body.to_string())
}

fn answer(status: u16, content_type: &str, body: String) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap())
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .unwrap()
}
