//! A local stand-in for the Denshokan API of Provable Games: an axum server on 127.0.0.1 that
//! answers the four routes the client calls as the upstream routes at
//! Provable-Games/denshokan commit `aa8eb22` write them (`api/src/routes/tokens.ts`,
//! `api/src/routes/players.ts`, `api/src/utils/rank.ts`, `api/src/utils/validation.ts`,
//! `api/src/middleware/rateLimit.ts`, `api/src/index.ts`; the row's columns from
//! `indexer/src/lib/schema.ts`). Its answers are written out literally here (`routes.rs`), never
//! with the client's own code: camelCase keys, `tokenId`/`mintedBy`/`currentScore` and the block
//! numbers as decimal strings, `{data, total, limit, offset}` with the asked (uncapped) limit
//! echoed, 1,000 rows at most on `/tokens` and 100 on `/players/:address/tokens` (both clamp
//! larger limits rather than refuse them), `{"error": "..."}` bodies on 400 and 404, and
//! `{"error": "Rate limit exceeded", "retryAfter": n}` on 429. `GET /health` answers as
//! `api/src/index.ts` at commit `1396b99` writes it (routes.rs). API keys are checked as
//! `api/src/middleware/apiKey.ts` (at `2527bda`) checks them: one sent as `X-API-Key` or
//! `Authorization: Bearer`, none the anonymous tier, and one it does not hold (any, while it holds
//! none) answered 401 `{"error": "Invalid API key"}` before any route. Faults can be queued, every request is logged with the key it carried,
//! and the server can be stopped. `GET /ws` is the API's WebSocket (`socket.rs`): the test writes
//! each push's JSON out itself, and the connections are counted.

#![allow(dead_code)]

mod routes;
mod socket;

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Minter registry id of the official dungeon.
pub const DUNGEON_MINTER: u64 = 19;
/// The dungeon's contract, as the API stores it (unpadded lowercase hex).
pub const DUNGEON: &str = "0x58f888ba5897efa811eca5e5818540d35b664f4281660cd839cd5a4b0bf4582";
/// Minter registry id of another minter (a tournament).
pub const OTHER_MINTER: u64 = 38;
/// The other minter's contract.
pub const OTHER: &str = "0x3a2a3a2b2c";
/// The game's contract (game id 1).
pub const GAME: &str = "0x5e2dfbdc3c193de629e5beb116083b06bd944c1608c9c793351d5792ba29863";

/// One row of the API's `tokens` table, with values as the stand-in's caller writes them.
#[derive(Debug, Clone)]
pub struct Row {
    /// `token_id`, a decimal number (a `numeric` column).
    pub token_id: String,
    pub game_id: u64,
    pub minted_by: u64,
    pub settings_id: u64,
    /// `minted_at`, already in the ISO form JSON gives a timestamp.
    pub minted_at: String,
    pub game_over: bool,
    pub completed_at: Option<u64>,
    /// `owner_address`, unpadded lowercase hex.
    pub owner_address: String,
    pub player_name: Option<String>,
    pub current_score: u64,
    pub last_updated_at: String,
    pub soulbound: bool,
}

impl Row {
    /// A running Death Mountain game of the dungeon, minted at second `n` of the day.
    pub fn new(token_id: &str, owner: &str, score: u64, n: u32) -> Self {
        Self {
            token_id: token_id.into(),
            game_id: 1,
            minted_by: DUNGEON_MINTER,
            settings_id: 0,
            minted_at: iso(n),
            game_over: false,
            completed_at: None,
            owner_address: owner.into(),
            player_name: None,
            current_score: score,
            last_updated_at: iso(n + 1),
            soulbound: false,
        }
    }
}

/// An ISO timestamp `n` seconds after 2025-10-01T00:00:00Z (`n` < 86,400 × 28).
pub fn iso(n: u32) -> String {
    let (day, rest) = (n / 86_400, n % 86_400);
    format!(
        "2025-10-{:02}T{:02}:{:02}:{:02}.000Z",
        day + 1,
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// A failure to answer the next request with, before any route runs.
#[derive(Debug, Clone)]
pub enum Fault {
    /// The rate limiter's 429 with this `retryAfter`.
    RateLimited(u64),
    /// An HTTP status with a text body (Hono's default error pages).
    Status(u16, &'static str),
    /// HTTP 200 with a body that is not JSON.
    Malformed,
    /// Any literal JSON answer.
    Json(u16, &'static str),
}

/// One request as the stand-in received it.
#[derive(Debug, Clone)]
pub struct Logged {
    pub path: String,
    pub query: Vec<(String, String)>,
    /// The `X-API-Key` header, when sent.
    pub api_key: Option<String>,
    /// The `Authorization` header, when sent.
    pub authorization: Option<String>,
}

impl Logged {
    /// The value of query parameter `name`, if sent.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
pub(crate) struct State {
    /// What `/health` says: the database answers, and the newest indexed block.
    health: Mutex<(bool, Option<u64>)>,
    rows: Mutex<Vec<Row>>,
    minters: Mutex<BTreeMap<u64, String>>,
    games: Mutex<BTreeMap<u64, String>>,
    faults: Mutex<VecDeque<Fault>>,
    log: Mutex<Vec<Logged>>,
    /// Send every row whatever the asked limit (an API that does not keep to its own cap).
    every_row: std::sync::atomic::AtomicBool,
    /// The API keys it accepts (`API_KEYS`); a request without a key is anonymous and served.
    keys: Mutex<Vec<String>>,
    /// Play an API without the WebSocket route (`GET /ws` is a 404).
    no_socket: AtomicBool,
    /// WebSocket connections ever opened, open now, and open and subscribed now.
    sockets_opened: AtomicUsize,
    sockets_open: AtomicUsize,
    sockets_subscribed: AtomicUsize,
    /// Every text message the connections sent, oldest first.
    socket_received: Mutex<Vec<String>>,
    /// What the test pushes, sent as is to every subscribed connection.
    pushes: Pushes,
    /// Told to drop every open connection (a restart of the API).
    kick: tokio::sync::Notify,
}

/// The channel of the test's pushes.
pub(crate) struct Pushes(tokio::sync::broadcast::Sender<String>);

impl Default for Pushes {
    fn default() -> Self {
        Self(tokio::sync::broadcast::channel(64).0)
    }
}

/// The stand-in's WebSocket connections, as counted so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sockets {
    /// Connections ever opened.
    pub opened: usize,
    /// Connections open now.
    pub open: usize,
    /// Connections open now that subscribed.
    pub subscribed: usize,
}

/// The running stand-in.
pub struct FakeDenshokan {
    /// Base URL (`http://127.0.0.1:<port>`).
    pub url: String,
    state: Arc<State>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FakeDenshokan {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FakeDenshokan {
    /// Starts an empty stand-in that knows the dungeon, another minter and game 1.
    pub async fn start() -> Self {
        let state = Arc::new(State::default());
        *state.health.lock().unwrap() = (true, None);
        state.minters.lock().unwrap().extend([
            (DUNGEON_MINTER, DUNGEON.into()),
            (OTHER_MINTER, OTHER.into()),
        ]);
        state.games.lock().unwrap().insert(1, GAME.into());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let router = routes::router(state.clone());
        let task = tokio::spawn(async move {
            axum::serve(listener, router).await.expect("serve");
        });
        Self { url, state, task }
    }

    /// Adds rows to the `tokens` table.
    pub fn add(&self, rows: impl IntoIterator<Item = Row>) {
        self.state.rows.lock().unwrap().extend(rows);
    }

    /// What `/health` answers: whether the database is up, and the newest indexed block.
    /// Answers `GET /tokens` with every row, whatever limit is asked (a lying or broken API).
    pub fn send_every_row(&self) {
        self.state
            .every_row
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn set_health(&self, db: bool, latest_block: Option<u64>) {
        *self.state.health.lock().unwrap() = (db, latest_block);
    }

    /// Accepts `key` as an API key; any other key presented is refused with 401.
    pub fn accept_key(&self, key: &str) {
        self.state.keys.lock().unwrap().push(key.into());
    }

    /// Queues a fault for the next request.
    pub fn fault(&self, f: Fault) {
        self.state.faults.lock().unwrap().push_back(f);
    }

    /// Every request so far, oldest first.
    pub fn log(&self) -> Vec<Logged> {
        self.state.log.lock().unwrap().clone()
    }

    /// Answers `GET /ws` with a 404, as an API without the WebSocket would.
    pub fn without_socket(&self) {
        self.state.no_socket.store(true, Ordering::SeqCst);
    }

    /// Sends `text` as is to every subscribed WebSocket connection.
    pub fn push(&self, text: &str) {
        let _ = self.state.pushes.0.send(text.to_string());
    }

    /// Drops every open WebSocket connection without a close frame, as a restarted API would.
    pub fn drop_sockets(&self) {
        self.state.kick.notify_waiters();
    }

    /// The WebSocket connections so far.
    pub fn sockets(&self) -> Sockets {
        Sockets {
            opened: self.state.sockets_opened.load(Ordering::SeqCst),
            open: self.state.sockets_open.load(Ordering::SeqCst),
            subscribed: self.state.sockets_subscribed.load(Ordering::SeqCst),
        }
    }

    /// Every text message the WebSocket connections sent, oldest first.
    pub fn socket_received(&self) -> Vec<String> {
        self.state.socket_received.lock().unwrap().clone()
    }

    /// Waits up to `within` for `done` to hold of the connections; whether it did.
    pub async fn sockets_until(&self, within: Duration, done: impl Fn(Sockets) -> bool) -> bool {
        let deadline = tokio::time::Instant::now() + within;
        while !done(self.sockets()) {
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        true
    }

    /// Stops answering: the port is closed.
    pub async fn stop(&self) {
        self.task.abort();
        while !self.task.is_finished() {
            tokio::task::yield_now().await;
        }
    }
}
