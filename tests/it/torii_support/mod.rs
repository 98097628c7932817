//! A local stand-in for Torii (which cannot be installed on the test machines): an HTTP server on
//! 127.0.0.1 that speaks Torii's wire format, as read in dojoengine/torii's source (v1.5–v1.8;
//! each fact is cited where it is used). SQL (`GET /sql?query=`, also POST) runs on a real SQLite
//! database holding Torii's own tables (`schema.rs`: model tables as Torii declares them,
//! `event_messages_historical`, `contracts`), filled as a chosen Torii version writes them
//! (`version.rs`: keys, ids, `event_id`, `model_id`, u64 and felt columns; `data.rs`: the event
//! JSON), and answers a JSON array of row objects typed as Torii types them, or HTTP 400 with the
//! SQLite error. GraphQL (`POST /graphql`) parses the query and answers the model root
//! `<short ns>AdventurerPackedModels` from the same database: `where` filters compared as
//! numbers, `first/last/after/before/offset/limit/order`, Torii's cursors (base64 of
//! `cursor/{primary}/{secondary}`), `totalCount`, `edges { cursor node }`, `pageInfo`, hex values
//! without leading zeros, and `{"data": null, "errors": [...]}` for unknown fields, bad arguments
//! and parse errors. Faults (HTTP 5xx, malformed or empty bodies, GraphQL errors, delays) can be
//! queued per endpoint (`answer.rs`), and every request is logged. What the tests share sits
//! beside it: `fixtures.rs` (a seeded stand-in and its client), and `tools.rs` (the tools' server),
//! which is not a module of this one: the facade's `tests/it/main.rs` declares it, because it
//! needs the `mcp` layer and the indexer crate's tests (`crates/indexer/tests/it`), which include
//! this stand-in too, may not name a layer above their own.

#![allow(dead_code)]

mod answer;
pub mod data;
pub mod fixtures;
pub mod graphql;
mod graphql_answer;
pub mod http;
pub mod schema;
pub mod version;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use game::events::GameEvent;
use game::model::Adventurer;
use game::pack::pack_adventurer;
use rusqlite::Connection;
use serde_json::{Map, Value};
use starknet_types_core::felt::Felt;

use answer::{handle, run_sql};
pub use version::ToriiVersion;

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
    version: ToriiVersion,
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
    /// The world the stand-in indexes (its row of `contracts`, the emitter of game events).
    pub world_address: Felt,
    /// The dungeon registered as minter [`DUNGEON_MINTER`].
    pub dungeon: Felt,
    state: Arc<State>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FakeTorii {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Game registry id of the game the stand-in serves (another game has id 2).
const GAME_ID: u64 = 1;
/// Minter registry id of the dungeon.
pub const DUNGEON_MINTER: u64 = 1;
/// Minter registry id of another minter (e.g. a tournament contract).
pub const OTHER_MINTER: u64 = 2;
/// The stand-in's world address.
pub const WORLD: u64 = 0x2ef5_9169;
/// The stand-in's dungeon address.
pub const DUNGEON: u64 = 0xa67e_f20b;

impl FakeTorii {
    /// Starts a fake Torii 1.8 for namespace `ls_0_0_9` and token namespace `relayer_0_0_1`.
    pub async fn start(game_address: Felt) -> Self {
        Self::start_version(game_address, ToriiVersion::V1_8).await
    }

    /// Starts a fake Torii that writes its rows as `version` does.
    pub async fn start_version(game_address: Felt, version: ToriiVersion) -> Self {
        let db = Connection::open_in_memory().expect("sqlite");
        let ns = "ls_0_0_9";
        let tok = "relayer_0_0_1";
        db.execute_batch(&schema::ddl(version, ns, tok))
            .expect("schema");
        let state = Arc::new(State {
            db: Mutex::new(db),
            faults: Mutex::new(VecDeque::new()),
            log: Mutex::new(Vec::new()),
            down: AtomicBool::new(false),
            seq: AtomicU64::new(1),
            version,
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
        let fake = Self {
            url,
            game_address,
            world_address: Felt::from(WORLD),
            dungeon: Felt::from(DUNGEON),
            state,
            task,
        };
        fake.register_game(GAME_ID, game_address);
        // Another game's tokens must never show up.
        fake.register_game(2, Felt::from(0xdeadu32));
        fake.register_minter(DUNGEON_MINTER, fake.dungeon);
        fake.register_minter(OTHER_MINTER, Felt::from(0x70u8));
        fake
    }

    /// The Torii version imitated.
    pub fn version(&self) -> ToriiVersion {
        self.state.version
    }

    fn next_seq(&self) -> u64 {
        self.state.seq.fetch_add(1, Ordering::SeqCst)
    }

    fn exec(&self, sql: &str, params: &[&dyn rusqlite::ToSql]) {
        let db = self.state.db.lock().unwrap();
        db.execute(sql, params)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    /// Writes one row of a relayer event model keyed by `key`, as Torii's `set_entity_model`
    /// does for an event message: `internal_id` is `event:` and the (scoped) entity id, every
    /// value bound as text (INTEGER columns convert it by affinity), re-emission updates the row.
    fn upsert_event_model(&self, table: &str, key: Felt, members: &[(&str, String)]) {
        let v = self.state.version;
        let entity = v.scoped(
            self.world_address,
            starknet_crypto::poseidon_hash_many(&[key]),
        );
        let event_id = v.event_id(self.next_seq(), Felt::from(0xabcu32), self.world_address, 0);
        let names: Vec<String> = members.iter().map(|(n, _)| format!("[{n}]")).collect();
        let sql = format!(
            "INSERT INTO [{table}] (internal_id, internal_event_id, internal_event_message_id, {}, \
             internal_executed_at) VALUES (?1, ?2, ?3, {}, '2026-01-01T00:00:00+00:00') \
             ON CONFLICT(internal_id) DO UPDATE SET internal_event_id = excluded.internal_event_id, {}",
            names.join(", "),
            (0..members.len())
                .map(|i| format!("?{}", i + 4))
                .collect::<Vec<_>>()
                .join(", "),
            names
                .iter()
                .map(|n| format!("{n} = excluded.{n}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
        let internal_id = format!("event:{entity}");
        let mut params: Vec<&dyn rusqlite::ToSql> = vec![&internal_id, &event_id, &entity];
        for (_, value) in members {
            params.push(value);
        }
        self.exec(&sql, &params);
    }

    fn register_game(&self, id: u64, contract: Felt) {
        let v = self.state.version;
        let table = format!("{}-GameRegistryUpdate", self.state.token_ns);
        self.upsert_event_model(
            &table,
            Felt::from(id),
            &[
                ("id", v.u64_col(id)),
                ("contract_address", v.felt_col(contract)),
            ],
        );
    }

    /// Registers a minter id (the game token's minter registry).
    pub fn register_minter(&self, id: u64, minter: Felt) {
        let v = self.state.version;
        let table = format!("{}-MinterRegistryUpdate", self.state.token_ns);
        self.upsert_event_model(
            &table,
            Felt::from(id),
            &[
                ("id", v.u64_col(id)),
                ("minter_address", v.felt_col(minter)),
            ],
        );
    }

    /// Indexes a game token minted by the dungeon (metadata, owner, score, player name).
    pub fn add_game(&self, g: &Game) {
        self.add_token(g, GAME_ID, DUNGEON_MINTER, true);
    }

    /// Indexes a game token minted by minter `minter` (see [`register_minter`]).
    pub fn add_game_minted_by(&self, g: &Game, minter: u64) {
        self.add_token(g, GAME_ID, minter, true);
    }

    /// Indexes a game token that has no score row yet (its game never reported a score).
    pub fn add_game_without_score(&self, g: &Game) {
        self.add_token(g, GAME_ID, DUNGEON_MINTER, false);
    }

    /// A token of another game contract (must never be listed).
    pub fn add_foreign_game(&self, id: u64, owner: Felt) {
        let g = Game {
            id,
            owner,
            score: u64::from(u16::MAX),
            game_over: false,
            player_name: None,
        };
        self.add_token(&g, 2, DUNGEON_MINTER, true);
    }

    fn add_token(&self, g: &Game, game_id: u64, minter: u64, with_score: bool) {
        let v = self.state.version;
        let tok = self.state.token_ns.clone();
        let key = Felt::from(g.id);
        let b = |x: bool| u8::from(x).to_string();
        self.upsert_event_model(
            &format!("{tok}-TokenMetadataUpdate"),
            key,
            &[
                ("id", v.u64_col(g.id)),
                ("game_id", v.u64_col(game_id)),
                ("minted_at", v.u64_col(1_700_000_000 + g.id)),
                ("settings_id", "0".into()),
                ("lifecycle_start", v.u64_col(0)),
                ("lifecycle_end", v.u64_col(0)),
                ("minted_by", v.u64_col(minter)),
                ("soulbound", b(false)),
                ("game_over", b(g.game_over)),
                ("completed_all_objectives", b(false)),
                ("has_context", b(false)),
                ("objectives_count", "0".into()),
            ],
        );
        self.upsert_event_model(
            &format!("{tok}-OwnersUpdate"),
            key,
            &[
                ("token_id", v.u64_col(g.id)),
                ("owner", v.felt_col(g.owner)),
                ("auth", v.felt_col(Felt::ZERO)),
            ],
        );
        if with_score {
            self.upsert_event_model(
                &format!("{tok}-TokenScoreUpdate"),
                key,
                &[("id", v.u64_col(g.id)), ("score", v.u64_col(g.score))],
            );
        }
        if let Some(name) = &g.player_name {
            // A ByteArray member is stored as its text (torii v1.8.0 lib.rs, `Ty::ByteArray`).
            self.upsert_event_model(
                &format!("{tok}-TokenPlayerNameUpdate"),
                key,
                &[("id", v.u64_col(g.id)), ("player_name", name.clone())],
            );
        }
    }

    /// Indexes (or updates) an adventurer's packed model.
    pub fn set_adventurer(&self, id: u64, a: &Adventurer) {
        let packed = pack_adventurer(a).expect("packable adventurer");
        self.set_packed_raw(id, &pad_felt(packed));
    }

    /// Indexes a raw `packed` value (e.g. one that cannot be unpacked).
    pub fn set_packed_raw(&self, id: u64, packed: &str) {
        let v = self.state.version;
        let ns = self.state.namespace.clone();
        let entity = v.scoped(
            self.world_address,
            starknet_crypto::poseidon_hash_many(&[Felt::from(id)]),
        );
        let ev = v.event_id(self.next_seq(), Felt::ONE, self.world_address, 0);
        self.exec(
            &format!(
                r#"INSERT INTO "{ns}-AdventurerPacked" (internal_id, internal_event_id,
                internal_entity_id, adventurer_id, packed, internal_executed_at)
                VALUES (?1, ?2, ?1, ?3, ?4, '2026-01-01T00:00:00+00:00')
                ON CONFLICT(internal_id) DO UPDATE SET internal_event_id = ?2, packed = ?4"#
            ),
            &[&entity, &ev, &v.u64_col(id), &packed],
        );
    }

    /// Appends the game events of one action: one transaction, its events at receipt indexes
    /// 0, 1, 2…
    pub fn add_events(&self, events: &[GameEvent]) {
        self.add_events_at(events, 0);
    }

    /// Appends the game events of one action, the first at receipt index `first_index` (a receipt
    /// also holds the events of other contracts, e.g. token transfers).
    pub fn add_events_at(&self, events: &[GameEvent], first_index: u64) {
        let block = self.next_seq();
        let tx = Felt::from(0xabc00 + block);
        for (i, e) in events.iter().enumerate() {
            self.add_model_event(
                "GameEvent",
                e.adventurer_id.to_u64().expect("a v1 id"),
                data::event_data(e),
                (block, tx, first_index + i as u64),
            );
        }
    }

    /// Appends one GameEvent history row with arbitrary `data`, in its own transaction.
    pub fn add_raw_event(&self, adventurer_id: u64, data: Value, index_in_tx: usize) {
        let block = self.next_seq();
        self.add_model_event(
            "GameEvent",
            adventurer_id,
            data,
            (block, Felt::from(0xabc00 + block), index_in_tx as u64),
        );
    }

    /// Appends one history row of model `<ns>-<model>` keyed by the adventurer id alone, at
    /// (block, transaction, receipt index).
    pub fn add_model_event(
        &self,
        model: &str,
        adventurer_id: u64,
        data: Value,
        at: (u64, Felt, u64),
    ) {
        let v = self.state.version;
        let key = Felt::from(adventurer_id);
        let entity = starknet_crypto::poseidon_hash_many(&[key]);
        let selector = model_selector(&self.state.namespace, model);
        let (block, tx, index) = at;
        let id = v.scoped(self.world_address, entity);
        let keys = v.keys(&[key]);
        let event_id = v.event_id(block, tx, self.world_address, index);
        let model_id = v.scoped(self.world_address, selector);
        let data = data.to_string();
        self.exec(
            "INSERT INTO event_messages_historical (id, keys, event_id, data, model_id, executed_at)
             VALUES (?1, ?2, ?3, ?4, ?5, '2026-01-01T00:00:00+00:00')",
            &[&id, &keys, &event_id, &data, &model_id],
        );
        if v.has_world_columns() {
            // (Torii v1.8.0's insert leaves these at their defaults; filled here as the
            // migration's backfill does, so queries cannot lean on them being empty.)
            self.exec(
                "UPDATE event_messages_historical SET world_address = ?1, entity_id = ?2
                 WHERE event_id = ?3",
                &[
                    &v.felt_id(self.world_address),
                    &v.felt_id(entity),
                    &event_id,
                ],
            );
        }
    }

    /// Sets the world's indexing position (its row of `contracts`).
    pub fn set_head(&self, block: u64, timestamp: u64) {
        self.set_contract_head(self.world_address, "WORLD", block, timestamp);
    }

    /// Sets the indexing position of any contract Torii indexes (`contract_type` as Torii's
    /// ContractType Display: WORLD, ERC20, ERC721…). Ids are written like keys
    /// (`Argument::FieldElement`, torii executor/mod.rs).
    pub fn set_contract_head(
        &self,
        address: Felt,
        contract_type: &str,
        block: u64,
        timestamp: u64,
    ) {
        let id = self.state.version.felt_id(address);
        self.exec(
            "INSERT INTO contracts (id, contract_address, contract_type, head, last_block_timestamp)
             VALUES (?1, ?1, ?2, ?3, ?4)
             ON CONFLICT(id) DO UPDATE SET head = ?3, last_block_timestamp = ?4",
            &[&id, &contract_type, &(block as i64), &(timestamp as i64)],
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

    /// Runs a statement directly (to plant rows no writer above produces).
    pub fn execute(&self, sql: &str) {
        self.exec(sql, &[]);
    }

    /// Runs SQL directly (for test assertions).
    pub fn query(&self, sql: &str) -> Result<Vec<Map<String, Value>>, String> {
        run_sql(&self.state, sql)
    }
}

/// Torii's padded hex form of a felt in model columns (`0x` and 64 digits).
pub fn pad_felt(f: Felt) -> String {
    format!("0x{}", version::hex_digits(f))
}

/// The Dojo selector of `<ns>-<model>`, computed independently of the client: Poseidon of the
/// Poseidon hashes of both names' Cairo ByteArray serializations.
pub fn model_selector(ns: &str, model: &str) -> Felt {
    fn bytearray_hash(s: &str) -> Felt {
        let b = s.as_bytes();
        let full = b.len() / 31;
        let mut felts = vec![Felt::from(full)];
        for i in 0..full {
            felts.push(Felt::from_bytes_be_slice(&b[i * 31..(i + 1) * 31]));
        }
        let rest = &b[full * 31..];
        felts.push(Felt::from_bytes_be_slice(rest));
        felts.push(Felt::from(rest.len()));
        starknet_crypto::poseidon_hash_many(&felts)
    }
    starknet_crypto::poseidon_hash_many(&[bytearray_hash(ns), bytearray_hash(model)])
}
