//! A local stand-in for Torii (which cannot be installed on the test machines): an HTTP server on
//! 127.0.0.1 that speaks Torii's wire format. SQL (`GET /sql?query=`, also POST) runs on a real
//! SQLite database holding Torii-shaped tables (model tables named `<namespace>-<Model>` with
//! padded-hex u64/felt columns, `event_messages_historical`, `contracts`) and answers a JSON
//! array of row objects, or HTTP 400 with the SQLite error. GraphQL (`POST /graphql`) parses the
//! query and answers the model root `<short ns>AdventurerPackedModels` from the same database:
//! `where` filters compared as numbers, `first/last/after/before/offset/limit/order`, Torii's
//! cursors (base64 of `cursor/{primary}/{secondary}`), `totalCount`, `edges { cursor node }`,
//! `pageInfo`, hex values without leading zeros, and `{"data": null, "errors": [...]}` for
//! unknown fields, bad arguments and parse errors. Faults (HTTP 5xx, malformed or empty bodies,
//! GraphQL errors, delays) can be queued per endpoint, and every request is logged.

#![allow(dead_code)]

pub mod data;
pub mod graphql;
pub mod http;
pub mod mcp;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use loot_survivor_mcp::game::events::GameEvent;
use loot_survivor_mcp::game::model::Adventurer;
use loot_survivor_mcp::game::pack::pack_adventurer;
use rusqlite::Connection;
use rusqlite::types::ValueRef;
use serde_json::{Map, Value, json};
use starknet_types_core::felt::Felt;

use graphql::{Field, GValue};
use http::{Request, Response};

/// Which endpoint a fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    GraphQl,
    Sql,
    Any,
}

/// A failure to inject into the next matching request.
#[derive(Debug, Clone)]
pub enum Fault {
    /// HTTP status with a short text body.
    Status(u16),
    /// HTTP 200 with a body that is not JSON.
    Malformed,
    /// HTTP 200 with an empty body.
    Empty,
    /// HTTP 200 with JSON of the wrong shape (an object for SQL, a list for GraphQL).
    WrongShape,
    /// GraphQL `{"data": null, "errors": [{"message"}]}`.
    GraphQlError(String),
    /// Answer normally, but only after this long.
    Delay(Duration),
}

/// A game token as the game-token (Denshokan) models index it.
#[derive(Debug, Clone)]
pub struct Game {
    pub id: u64,
    pub owner: Felt,
    pub score: u64,
    pub game_over: bool,
    pub player_name: Option<String>,
}

struct State {
    db: Mutex<Connection>,
    faults: Mutex<VecDeque<(Endpoint, Fault)>>,
    log: Mutex<Vec<(Endpoint, String)>>,
    down: AtomicBool,
    seq: AtomicU64,
    namespace: String,
    short_ns: String,
    token_ns: String,
}

/// The fake Torii server.
pub struct FakeTorii {
    /// Base URL (`http://127.0.0.1:<port>`).
    pub url: String,
    /// The game's `game_token_systems` address the token models refer to.
    pub game_address: Felt,
    state: Arc<State>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FakeTorii {
    fn drop(&mut self) {
        self.task.abort();
    }
}

const GAME_ID: i64 = 1;

impl FakeTorii {
    /// Starts a fake Torii for namespace `ls_0_0_9` and token namespace `relayer_0_0_1`.
    pub async fn start(game_address: Felt) -> Self {
        let db = Connection::open_in_memory().expect("sqlite");
        let ns = "ls_0_0_9";
        let tok = "relayer_0_0_1";
        db.execute_batch(&format!(
            r#"
            CREATE TABLE "{tok}-TokenMetadataUpdate" (internal_id TEXT PRIMARY KEY, internal_event_id TEXT,
                id TEXT NOT NULL, game_id INTEGER, minted_at TEXT, minted_by TEXT, settings_id INTEGER,
                lifecycle_start TEXT, lifecycle_end TEXT, soulbound INTEGER, game_over INTEGER,
                completed_all_objectives INTEGER);
            CREATE TABLE "{tok}-OwnersUpdate" (internal_id TEXT PRIMARY KEY, internal_event_id TEXT,
                token_id TEXT NOT NULL, owner TEXT NOT NULL);
            CREATE TABLE "{tok}-TokenScoreUpdate" (internal_id TEXT PRIMARY KEY, internal_event_id TEXT,
                id TEXT NOT NULL, score TEXT NOT NULL);
            CREATE TABLE "{tok}-TokenPlayerNameUpdate" (internal_id TEXT PRIMARY KEY, internal_event_id TEXT,
                id TEXT NOT NULL, player_name TEXT NOT NULL);
            CREATE TABLE "{tok}-GameRegistryUpdate" (internal_id TEXT PRIMARY KEY, internal_event_id TEXT,
                id INTEGER NOT NULL, contract_address TEXT NOT NULL, name TEXT);
            CREATE TABLE "{ns}-AdventurerPacked" (internal_id TEXT PRIMARY KEY, internal_event_id TEXT NOT NULL,
                adventurer_id TEXT NOT NULL, packed TEXT NOT NULL);
            CREATE TABLE event_messages_historical (id TEXT NOT NULL, keys TEXT NOT NULL,
                event_id TEXT NOT NULL, data TEXT NOT NULL, model_id TEXT NOT NULL,
                executed_at DATETIME NOT NULL, created_at DATETIME DEFAULT CURRENT_TIMESTAMP);
            CREATE TABLE contracts (id TEXT PRIMARY KEY, contract_address TEXT, contract_type TEXT,
                head INTEGER, last_block_timestamp INTEGER);
            "#
        ))
        .expect("schema");
        db.execute(
            &format!(r#"INSERT INTO "{tok}-GameRegistryUpdate" VALUES ('g1', 'e0', ?1, ?2, 'Loot Survivor')"#),
            rusqlite::params![GAME_ID, pad_felt(game_address)],
        )
        .expect("game registry");
        // Another game's token, which must never show up.
        db.execute(
            &format!(
                r#"INSERT INTO "{tok}-GameRegistryUpdate" VALUES ('g2', 'e0', 2, ?1, 'Other')"#
            ),
            rusqlite::params![pad_felt(Felt::from(0xdeadu32))],
        )
        .expect("game registry");
        let state = Arc::new(State {
            db: Mutex::new(db),
            faults: Mutex::new(VecDeque::new()),
            log: Mutex::new(Vec::new()),
            down: AtomicBool::new(false),
            seq: AtomicU64::new(1),
            namespace: ns.into(),
            short_ns: "ls009".into(),
            token_ns: tok.into(),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let s = state.clone();
        let handler: http::Handler = Arc::new(move |req| {
            let s = s.clone();
            Box::pin(async move { handle(&s, req).await })
        });
        let task = tokio::spawn(http::serve(listener, handler));
        Self {
            url,
            game_address,
            state,
            task,
        }
    }

    fn next_seq(&self) -> u64 {
        self.state.seq.fetch_add(1, Ordering::SeqCst)
    }

    fn exec(&self, sql: &str, params: &[&dyn rusqlite::ToSql]) {
        let db = self.state.db.lock().unwrap();
        db.execute(sql, params)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    /// Indexes a game token (metadata, owner, score, player name).
    pub fn add_game(&self, g: &Game) {
        let tok = self.state.token_ns.clone();
        let id = data::pad_u64(g.id);
        let ev = format!("e{}", self.next_seq());
        self.exec(
            &format!(
                r#"INSERT INTO "{tok}-TokenMetadataUpdate" (internal_id, internal_event_id, id, game_id,
                minted_at, minted_by, settings_id, soulbound, game_over) VALUES (?1, ?2, ?1, ?3, ?4, '0x01', 0, 0, ?5)"#
            ),
            &[&id, &ev, &GAME_ID, &data::pad_u64(1_700_000_000 + g.id), &(g.game_over as i64)],
        );
        self.exec(
            &format!(r#"INSERT INTO "{tok}-OwnersUpdate" VALUES (?1, ?2, ?1, ?3)"#),
            &[&id, &ev, &pad_felt(g.owner)],
        );
        self.exec(
            &format!(r#"INSERT INTO "{tok}-TokenScoreUpdate" VALUES (?1, ?2, ?1, ?3)"#),
            &[&id, &ev, &data::pad_u64(g.score)],
        );
        if let Some(name) = &g.player_name {
            let felt = starknet::core::utils::cairo_short_string_to_felt(name).unwrap();
            self.exec(
                &format!(r#"INSERT INTO "{tok}-TokenPlayerNameUpdate" VALUES (?1, ?2, ?1, ?3)"#),
                &[&id, &ev, &pad_felt(felt)],
            );
        }
    }

    /// A token of another game contract (must never be listed).
    pub fn add_foreign_game(&self, id: u64, owner: Felt) {
        let tok = self.state.token_ns.clone();
        let pid = data::pad_u64(id);
        self.exec(
            &format!(
                r#"INSERT INTO "{tok}-TokenMetadataUpdate" (internal_id, internal_event_id, id, game_id, game_over)
                VALUES (?1, 'e0', ?1, 2, 0)"#
            ),
            &[&pid],
        );
        self.exec(
            &format!(r#"INSERT INTO "{tok}-OwnersUpdate" VALUES (?1, 'e0', ?1, ?2)"#),
            &[&pid, &pad_felt(owner)],
        );
        self.exec(
            &format!(r#"INSERT INTO "{tok}-TokenScoreUpdate" VALUES (?1, 'e0', ?1, ?2)"#),
            &[&pid, &data::pad_u64(u64::from(u16::MAX))],
        );
    }

    /// Indexes (or updates) an adventurer's packed model.
    pub fn set_adventurer(&self, id: u64, a: &Adventurer) {
        let packed = pack_adventurer(a).expect("packable adventurer");
        self.set_packed_raw(id, &pad_felt(packed));
    }

    /// Indexes a raw `packed` value (e.g. one that cannot be unpacked).
    pub fn set_packed_raw(&self, id: u64, packed: &str) {
        let ns = self.state.namespace.clone();
        let ev = format!("0x{:062x}:0x1:0x00", self.next_seq());
        self.exec(
            &format!(
                r#"INSERT INTO "{ns}-AdventurerPacked" VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT(internal_id) DO UPDATE SET internal_event_id = ?2, packed = ?4"#
            ),
            &[&entity_id(id), &ev, &data::pad_u64(id), &packed],
        );
    }

    /// Appends game events to the history, in order (events of one action share a transaction).
    pub fn add_events(&self, events: &[GameEvent]) {
        for (i, e) in events.iter().enumerate() {
            self.add_raw_event(e.adventurer_id, data::event_data(e), i);
        }
    }

    /// Appends one history row with arbitrary `data`.
    pub fn add_raw_event(&self, adventurer_id: u64, data: Value, index_in_tx: usize) {
        let block = self.next_seq();
        let keys = format!("{}/", pad_felt(Felt::from(adventurer_id)));
        let event_id = format!("0x{block:062x}:0x{:x}:0x{index_in_tx:02x}", 0xabc + block);
        self.exec(
            "INSERT INTO event_messages_historical (id, keys, event_id, data, model_id, executed_at)
             VALUES (?1, ?2, ?3, ?4, ?5, '2026-01-01T00:00:00Z')",
            &[
                &entity_id(adventurer_id),
                &keys,
                &event_id,
                &data.to_string(),
                &"0x53f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c",
            ],
        );
    }

    /// Sets Torii's indexing position.
    pub fn set_head(&self, block: u64, timestamp: u64) {
        self.exec(
            "INSERT INTO contracts VALUES ('w', '0x1', 'WORLD', ?1, ?2)
             ON CONFLICT(id) DO UPDATE SET head = ?1, last_block_timestamp = ?2",
            &[&(block as i64), &(timestamp as i64)],
        );
    }

    /// Queues a fault for the next request to `endpoint`.
    pub fn fail_next(&self, endpoint: Endpoint, fault: Fault) {
        self.state
            .faults
            .lock()
            .unwrap()
            .push_back((endpoint, fault));
    }

    /// Makes every request fail with HTTP 503 (or recover).
    pub fn set_down(&self, down: bool) {
        self.state.down.store(down, Ordering::SeqCst);
    }

    /// Requests received so far: (endpoint, GraphQL query or SQL text).
    pub fn requests(&self) -> Vec<(Endpoint, String)> {
        self.state.log.lock().unwrap().clone()
    }

    /// Forgets the request log.
    pub fn clear_log(&self) {
        self.state.log.lock().unwrap().clear();
    }

    /// Runs SQL directly (for test assertions).
    pub fn query(&self, sql: &str) -> Result<Vec<Map<String, Value>>, String> {
        run_sql(&self.state, sql)
    }
}

/// Torii's padded hex form of a felt.
pub fn pad_felt(f: Felt) -> String {
    format!(
        "0x{}",
        f.to_bytes_be()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    )
}

fn entity_id(adventurer_id: u64) -> String {
    let h = starknet_crypto::poseidon_hash_many(&[Felt::from(adventurer_id)]);
    format!("{h:#x}")
}

async fn handle(s: &State, req: Request) -> Response {
    let endpoint = match (req.method.as_str(), req.path.as_str()) {
        (_, "/graphql") => Endpoint::GraphQl,
        (_, "/sql") => Endpoint::Sql,
        _ => return Response::text(404, "not found"),
    };
    let text = match endpoint {
        Endpoint::GraphQl => serde_json::from_slice::<Value>(&req.body)
            .ok()
            .and_then(|v| v.get("query").and_then(Value::as_str).map(String::from)),
        _ => req
            .query
            .iter()
            .find(|(k, _)| k == "query")
            .map(|(_, v)| v.clone())
            .or_else(|| {
                (req.method == "POST").then(|| String::from_utf8_lossy(&req.body).to_string())
            }),
    };
    s.log
        .lock()
        .unwrap()
        .push((endpoint, text.clone().unwrap_or_default()));
    if s.down.load(Ordering::SeqCst) {
        return Response::text(503, "service unavailable");
    }
    let fault = {
        let mut q = s.faults.lock().unwrap();
        let pos = q
            .iter()
            .position(|(e, _)| *e == endpoint || *e == Endpoint::Any);
        pos.and_then(|p| q.remove(p)).map(|(_, f)| f)
    };
    match fault {
        Some(Fault::Status(code)) => return Response::text(code, "upstream failure"),
        Some(Fault::Malformed) => {
            return Response {
                status: 200,
                content_type: "application/json",
                body: b"{\"data\": {\"ls009Adv".to_vec(),
            };
        }
        Some(Fault::Empty) => {
            return Response {
                status: 200,
                content_type: "application/json",
                body: Vec::new(),
            };
        }
        Some(Fault::WrongShape) => {
            return match endpoint {
                Endpoint::Sql => Response::json(200, &json!({"rows": []})),
                _ => Response::json(200, &json!([])),
            };
        }
        Some(Fault::GraphQlError(m)) => {
            return Response::json(200, &json!({"data": null, "errors": [{"message": m}]}));
        }
        Some(Fault::Delay(d)) => tokio::time::sleep(d).await,
        None => {}
    }
    match endpoint {
        Endpoint::Sql => match req.method.as_str() {
            "GET" | "POST" => match text {
                Some(q) => match run_sql(s, &q) {
                    Ok(rows) => Response::json(
                        200,
                        &Value::Array(rows.into_iter().map(Value::Object).collect()),
                    ),
                    Err(e) => Response::text(400, &format!("Query error: {e}")),
                },
                None => Response::text(400, "missing query"),
            },
            _ => Response::text(405, "method not allowed"),
        },
        _ => {
            if req.method != "POST" {
                return Response::text(405, "method not allowed");
            }
            match text {
                Some(q) => Response::json(200, &run_graphql(s, &q)),
                None => Response::text(400, "invalid GraphQL request body"),
            }
        }
    }
}

fn run_sql(s: &State, sql: &str) -> Result<Vec<Map<String, Value>>, String> {
    let db = s.db.lock().unwrap();
    let mut stmt = db.prepare(sql).map_err(|e| e.to_string())?;
    let names: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
    let mut rows = stmt.query([]).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(|e| e.to_string())? {
        let mut m = Map::new();
        for (i, n) in names.iter().enumerate() {
            let v = match r.get_ref(i).map_err(|e| e.to_string())? {
                ValueRef::Null => Value::Null,
                ValueRef::Integer(i) => json!(i),
                ValueRef::Real(f) => json!(f),
                ValueRef::Text(t) => Value::String(String::from_utf8_lossy(t).to_string()),
                ValueRef::Blob(b) => Value::String(STANDARD.encode(b)),
            };
            m.insert(n.clone(), v);
        }
        out.push(m);
    }
    Ok(out)
}

fn gql_error(message: String) -> Value {
    json!({"data": null, "errors": [{"message": message, "locations": [{"line": 1, "column": 1}]}]})
}

fn run_graphql(s: &State, query: &str) -> Value {
    let fields = match graphql::parse(query) {
        Ok(f) => f,
        Err(e) => return gql_error(format!("Parse error: {e}")),
    };
    let mut data = Map::new();
    for f in &fields {
        let v = if f.name == "__typename" {
            Ok(json!("World__Query"))
        } else if f.name == format!("{}AdventurerPackedModels", s.short_ns) {
            packed_models(s, f)
        } else {
            Err(format!(
                "Unknown field \"{}\" on type \"World__Query\".",
                f.name
            ))
        };
        match v {
            Ok(v) => {
                data.insert(f.key().to_string(), v);
            }
            Err(e) => return gql_error(e),
        }
    }
    json!({"data": data})
}

/// One row of a model table, with the values the connection needs.
struct Row {
    entity: String,
    event_id: String,
    fields: Vec<(&'static str, Felt)>,
}

impl Row {
    fn get(&self, name: &str) -> Option<Felt> {
        self.fields
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }
}

const PACKED_FIELDS: &[&str] = &["adventurer_id", "packed"];
const OPS: &[&str] = &[
    "NEQ", "GTE", "LTE", "NOTIN", "NOTLIKE", "EQ", "GT", "LT", "IN", "LIKE",
];

fn to_felt(v: &GValue) -> Result<Felt, String> {
    match v {
        GValue::Int(i) if *i >= 0 => Ok(Felt::from(*i as u64)),
        GValue::Str(s) if s.starts_with("0x") => {
            Felt::from_hex(s).map_err(|_| format!("Invalid value \"{s}\""))
        }
        GValue::Str(s) => Felt::from_dec_str(s).map_err(|_| format!("Invalid value \"{s}\"")),
        other => Err(format!("Invalid value {other:?}")),
    }
}

fn matches(row: &Row, key: &str, value: &GValue) -> Result<bool, String> {
    let (field, op) = PACKED_FIELDS
        .iter()
        .find_map(|f| {
            let rest = key.strip_prefix(f)?;
            if rest.is_empty() {
                Some((*f, "EQ"))
            } else {
                OPS.iter().find(|o| **o == rest).map(|o| (*f, *o))
            }
        })
        .ok_or_else(|| {
            format!(
                "Unknown field \"{key}\" of input type \"ls_0_0_9_AdventurerPackedWhereInput\"."
            )
        })?;
    let actual = row.get(field).expect("field");
    let list = |v: &GValue| -> Result<Vec<Felt>, String> {
        match v {
            GValue::List(items) => items.iter().map(to_felt).collect(),
            other => Ok(vec![to_felt(other)?]),
        }
    };
    Ok(match op {
        "EQ" => actual == to_felt(value)?,
        "NEQ" => actual != to_felt(value)?,
        "GT" => actual > to_felt(value)?,
        "GTE" => actual >= to_felt(value)?,
        "LT" => actual < to_felt(value)?,
        "LTE" => actual <= to_felt(value)?,
        "IN" => list(value)?.contains(&actual),
        "NOTIN" => !list(value)?.contains(&actual),
        _ => return Err(format!("{op} is not supported on numeric fields")),
    })
}

fn encode_cursor(primary: &str, secondary: &str) -> String {
    STANDARD.encode(format!("cursor/{primary}/{secondary}"))
}

fn decode_cursor(c: &str) -> Result<(String, String), String> {
    let bytes = STANDARD
        .decode(c)
        .map_err(|_| "Invalid cursor".to_string())?;
    let text = String::from_utf8(bytes).map_err(|_| "Invalid cursor".to_string())?;
    let rest = text.strip_prefix("cursor/").ok_or("Invalid cursor")?;
    let (p, s) = rest.split_once('/').ok_or("Invalid cursor")?;
    Ok((p.to_string(), s.to_string()))
}

fn int_arg(f: &Field, name: &str) -> Result<Option<usize>, String> {
    match f.arg(name) {
        None | Some(GValue::Null) => Ok(None),
        Some(GValue::Int(i)) if *i >= 0 => Ok(Some(*i as usize)),
        Some(other) => Err(format!("Invalid value for argument \"{name}\": {other:?}")),
    }
}

fn str_arg(f: &Field, name: &str) -> Result<Option<String>, String> {
    match f.arg(name) {
        None | Some(GValue::Null) => Ok(None),
        Some(GValue::Str(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("Invalid value for argument \"{name}\": {other:?}")),
    }
}

fn packed_models(s: &State, f: &Field) -> Result<Value, String> {
    const ARGS: &[&str] = &[
        "first", "last", "before", "after", "offset", "limit", "where", "order",
    ];
    for (name, _) in &f.args {
        if !ARGS.contains(&name.as_str()) {
            return Err(format!(
                "Unknown argument \"{name}\" on field \"{}\".",
                f.name
            ));
        }
    }
    let first = int_arg(f, "first")?;
    let last = int_arg(f, "last")?;
    let after = str_arg(f, "after")?;
    let before = str_arg(f, "before")?;
    let offset = int_arg(f, "offset")?;
    let limit = int_arg(f, "limit")?;
    if first.is_some() && last.is_some() {
        return Err("Passing both `first` and `last` is not supported.".into());
    }
    if after.is_some() && before.is_some() {
        return Err("Passing both `after` and `before` is not supported.".into());
    }
    let cursors = first.is_some() || last.is_some() || after.is_some() || before.is_some();
    if cursors && (offset.is_some() || limit.is_some()) {
        return Err("Pagination error: offset/limit cannot be mixed with cursor arguments".into());
    }
    let mut rows: Vec<Row> = {
        let db = s.db.lock().unwrap();
        let mut stmt = db
            .prepare(&format!(
                r#"SELECT internal_id, internal_event_id, adventurer_id, packed FROM "{}-AdventurerPacked""#,
                s.namespace
            ))
            .map_err(|e| e.to_string())?;
        stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
            ))
        })
        .map_err(|e| e.to_string())?
        .map(|r| {
            let (entity, event_id, id, packed) = r.map_err(|e| e.to_string())?;
            Ok(Row {
                entity,
                event_id,
                fields: vec![
                    (
                        "adventurer_id",
                        Felt::from_hex(&id).map_err(|e| e.to_string())?,
                    ),
                    (
                        "packed",
                        Felt::from_hex(&packed).map_err(|e| e.to_string())?,
                    ),
                ],
            })
        })
        .collect::<Result<_, String>>()?
    };
    if let Some(w) = f.arg("where") {
        let GValue::Object(conds) = w else {
            return Err("Invalid value for argument \"where\"".into());
        };
        let mut kept = Vec::new();
        for row in rows {
            let mut ok = true;
            for (k, v) in conds {
                ok &= matches(&row, k, v)?;
            }
            if ok {
                kept.push(row);
            }
        }
        rows = kept;
    }
    // Ordering: by event id (newest first) unless `order` names a field; the entity id breaks ties.
    let (order_field, desc) = match f.arg("order") {
        None | Some(GValue::Null) => (None, true),
        Some(GValue::Object(o)) => {
            let get = |k: &str| o.iter().find(|(n, _)| n == k).map(|(_, v)| v);
            let desc = match get("direction") {
                Some(GValue::Enum(d)) if d == "DESC" => true,
                Some(GValue::Enum(d)) if d == "ASC" => false,
                other => return Err(format!("Invalid order direction {other:?}")),
            };
            let field = match get("field") {
                Some(GValue::Enum(fld)) if fld == "ADVENTURER_ID" => "adventurer_id",
                Some(GValue::Enum(fld)) if fld == "PACKED" => "packed",
                other => return Err(format!("Invalid order field {other:?}")),
            };
            (Some(field), desc)
        }
        Some(_) => return Err("Invalid value for argument \"order\"".into()),
    };
    let primary = |r: &Row| -> String {
        match order_field {
            Some(fld) => pad_felt(r.get(fld).unwrap()),
            None => r.event_id.clone(),
        }
    };
    rows.sort_by(|a, b| {
        let ka = (primary(a), a.entity.clone());
        let kb = (primary(b), b.entity.clone());
        if desc { kb.cmp(&ka) } else { ka.cmp(&kb) }
    });
    let total = rows.len();
    let keyed: Vec<(String, String)> = rows
        .iter()
        .map(|r| (primary(r), r.entity.clone()))
        .collect();
    let in_order = |a: &(String, String), b: &(String, String)| if desc { a > b } else { a < b };
    let mut start = 0;
    let mut end = rows.len();
    if let Some(c) = &after {
        let k = decode_cursor(c)?;
        start = keyed
            .iter()
            .position(|x| in_order(&k, x))
            .unwrap_or(rows.len());
    }
    if let Some(c) = &before {
        let k = decode_cursor(c)?;
        end = keyed
            .iter()
            .position(|x| !in_order(x, &k))
            .unwrap_or(rows.len());
    }
    if cursors {
        match (first, last) {
            (Some(n), _) => end = end.min(start + n),
            (_, Some(n)) => start = start.max(end.saturating_sub(n)),
            _ => end = end.min(start + 10),
        }
    } else {
        start = offset.unwrap_or(0).min(rows.len());
        end = (start + limit.unwrap_or(10)).min(rows.len());
    }
    let end = end.max(start);
    let page: Vec<usize> = (start..end).collect();
    let mut conn = Map::new();
    for sel in &f.selection {
        let v = match sel.name.as_str() {
            "totalCount" => json!(total),
            "__typename" => json!("ls_0_0_9_AdventurerPackedConnection"),
            "edges" => {
                let mut edges = Vec::new();
                for &i in &page {
                    let mut e = Map::new();
                    for es in &sel.selection {
                        let v = match es.name.as_str() {
                            "cursor" => json!(encode_cursor(&keyed[i].0, &keyed[i].1)),
                            "node" => node(&rows[i], es)?,
                            other => {
                                return Err(format!(
                                    "Unknown field \"{other}\" on type \"ls_0_0_9_AdventurerPackedEdge\"."
                                ));
                            }
                        };
                        e.insert(es.key().to_string(), v);
                    }
                    edges.push(Value::Object(e));
                }
                Value::Array(edges)
            }
            "pageInfo" => {
                let mut p = Map::new();
                for ps in &sel.selection {
                    let v = match ps.name.as_str() {
                        "hasNextPage" => json!(end < rows.len()),
                        "hasPreviousPage" => json!(start > 0),
                        "startCursor" => page
                            .first()
                            .map(|&i| json!(encode_cursor(&keyed[i].0, &keyed[i].1)))
                            .unwrap_or(Value::Null),
                        "endCursor" => page
                            .last()
                            .map(|&i| json!(encode_cursor(&keyed[i].0, &keyed[i].1)))
                            .unwrap_or(Value::Null),
                        other => {
                            return Err(format!(
                                "Unknown field \"{other}\" on type \"World__PageInfo\"."
                            ));
                        }
                    };
                    p.insert(ps.key().to_string(), v);
                }
                Value::Object(p)
            }
            other => {
                return Err(format!(
                    "Unknown field \"{other}\" on type \"ls_0_0_9_AdventurerPackedConnection\"."
                ));
            }
        };
        conn.insert(sel.key().to_string(), v);
    }
    Ok(Value::Object(conn))
}

fn node(row: &Row, f: &Field) -> Result<Value, String> {
    let mut m = Map::new();
    for sel in &f.selection {
        let v = match sel.name.as_str() {
            "__typename" => json!("ls_0_0_9_AdventurerPacked"),
            name if PACKED_FIELDS.contains(&name) => {
                json!(format!("{:#x}", row.get(name).unwrap()))
            }
            other => {
                return Err(format!(
                    "Unknown field \"{other}\" on type \"ls_0_0_9_AdventurerPacked\"."
                ));
            }
        };
        m.insert(sel.key().to_string(), v);
    }
    Ok(Value::Object(m))
}
