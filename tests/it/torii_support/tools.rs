//! What the indexer tool tests share: an in-process MCP server over the embedded sim chain, with
//! or without the Torii stand-in, and a stand-in seeded for the leaderboard. Declared by the
//! binary's root beside `torii_support` (`#[path = "torii_support/tools.rs"] mod tools;` in
//! `main.rs`), not inside it: it needs the `mcp` layer, which the indexer crate's tests, also built on the stand-in, may not
//! name.

#![allow(dead_code)]

use loot_survivor_mcp::game::AdventurerId;
use std::sync::Arc;
use std::time::Duration;

use loot_survivor_mcp::chain::{ChainError, TxLookup, TxReport, WriteOptions};
use loot_survivor_mcp::game::engine::{Action, EngineSettings};
use loot_survivor_mcp::game::model::{Adventurer, GameState};
use loot_survivor_mcp::mcp::{GameBackend, LsServer, ServerOptions, connect_in_memory};
use loot_survivor_mcp::sim::{SimChain, sim_account};
use loot_survivor_mcp::torii::{ToriiClient, ToriiOptions};
use rmcp::RoleClient;
use rmcp::service::RunningService;
use serde_json::Value;
use starknet_types_core::felt::Felt;

use crate::torii_support::fixtures::GAME;
use crate::torii_support::{FakeTorii, Game};

/// The sim chain as a remote chain would look: no index of its own, so the indexer tools must
/// use Torii or the chain fallback.
struct RemoteLike(Arc<SimChain>);

#[async_trait::async_trait]
impl GameBackend for RemoteLike {
    async fn state(&self, id: AdventurerId) -> Result<GameState, ChainError> {
        self.0.state(id).await
    }
    async fn owner(&self, id: AdventurerId) -> Result<Option<Felt>, ChainError> {
        self.0.owner(id).await
    }
    async fn mint(
        &self,
        name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        self.0.mint(name, opts).await
    }
    async fn act(
        &self,
        id: AdventurerId,
        action: &Action,
        before: Option<&Adventurer>,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.0.act(id, action, before, opts).await
    }
    async fn tx(&self, hash: Felt) -> Result<TxLookup, ChainError> {
        self.0.tx(hash).await
    }

    async fn world(&self) -> Result<String, ChainError> {
        self.0.world().await
    }
}

/// The first adventurer id the sim chain mints.
pub const FIRST_SIM_ID: u64 = 5000;

/// An MCP client of the server, and the stand-in it reads (unused without Torii).
pub struct Setup {
    pub client: RunningService<RoleClient, ()>,
    pub fake: FakeTorii,
}

/// A server over a fresh sim chain, reading the stand-in through a client with this cache TTL
/// when `with_torii` is set; without it the chain looks remote (no index of its own).
pub async fn setup(with_torii: bool, cache_ttl_ms: u64) -> Setup {
    setup_with(with_torii, cache_ttl_ms, false).await
}

/// [`setup`], with the profile naming the stand-in's dungeon when `dungeon` is set.
pub async fn setup_with(with_torii: bool, cache_ttl_ms: u64, dungeon: bool) -> Setup {
    let fake = FakeTorii::start(Felt::from(GAME)).await;
    let sim = Arc::new(SimChain::new(EngineSettings::default(), FIRST_SIM_ID));
    let backend: Arc<dyn GameBackend> = if with_torii {
        sim
    } else {
        Arc::new(RemoteLike(sim))
    };
    let mut server = LsServer::new(
        backend,
        ServerOptions {
            chain: "sim".into(),
            strict: true,
            default_timeout: Duration::from_secs(30),
        },
    )
    .with_wallet(sim_account());
    if with_torii {
        let torii = ToriiClient::new(ToriiOptions {
            url: fake.url.parse().unwrap(),
            namespace: "ls_0_0_9".into(),
            token_namespace: "relayer_0_0_1".into(),
            game_address: Felt::from(GAME),
            world_address: Some(fake.world_address),
            dungeon: dungeon.then_some(fake.dungeon),
            request_timeout: Duration::from_millis(1000),
            retries: 1,
            cache_ttl: Duration::from_millis(cache_ttl_ms),
        })
        .unwrap();
        server = server.with_torii(Arc::new(torii));
    }
    let client = connect_in_memory(server, ()).await.expect("MCP handshake");
    Setup { client, fake }
}

/// The sim wallet, the server's own account.
pub fn me() -> Felt {
    sim_account()
}

/// 230 games: every third one is this wallet's, every fourth one is over.
pub fn seed_leaderboard(fake: &FakeTorii) {
    for id in 1000..1230u64 {
        fake.add_game(&Game {
            id,
            owner: if id.is_multiple_of(3) {
                me()
            } else {
                Felt::from(7u8)
            },
            score: (id * 53) % 700,
            game_over: id.is_multiple_of(4),
            player_name: Some(format!("hero{id}")),
        });
        fake.set_adventurer(
            id,
            &Adventurer {
                health: if id.is_multiple_of(4) { 0 } else { 50 },
                xp: ((id * 53) % 700) as u16,
                action_count: 9,
                ..Adventurer::default()
            },
        );
    }
}

/// The `key` arrays of every page, concatenated.
pub fn rows(pages: &[Value], key: &str) -> Vec<Value> {
    pages
        .iter()
        .flat_map(|p| p[key].as_array().unwrap().clone())
        .collect()
}
