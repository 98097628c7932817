//! The sim chain under a benchmark's server, noting what it was sent: every action that landed,
//! in order, and the transactions (mints and actions; a combined move's multicall is one).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use loot_survivor_mcp::chain::{ChainError, TxLookup, TxReport, WriteOptions};
use loot_survivor_mcp::game::AdventurerId;
use loot_survivor_mcp::game::engine::{Action, EngineSettings};
use loot_survivor_mcp::game::model::{Adventurer, GameState};
use loot_survivor_mcp::mcp::GameBackend;
use loot_survivor_mcp::sim::SimChain;
use starknet_types_core::felt::Felt;

/// A sim chain that remembers what landed on it.
pub struct RecordedSim {
    sim: SimChain,
    actions: Mutex<Vec<Action>>,
    txs: AtomicU64,
}

impl RecordedSim {
    /// Records what `sim` is sent.
    pub fn new(sim: SimChain) -> Self {
        Self {
            sim,
            actions: Mutex::new(Vec::new()),
            txs: AtomicU64::new(0),
        }
    }

    /// The actions that landed, in order.
    #[allow(dead_code, reason = "each benchmark reads what it measures")]
    pub fn actions(&self) -> Vec<Action> {
        self.actions.lock().unwrap().clone()
    }

    /// The transactions that landed so far.
    #[allow(dead_code, reason = "each benchmark reads what it measures")]
    pub fn txs(&self) -> u64 {
        self.txs.load(Ordering::Relaxed)
    }
}

#[async_trait::async_trait]
impl GameBackend for RecordedSim {
    async fn state(&self, id: AdventurerId) -> Result<GameState, ChainError> {
        self.sim.state(id).await
    }
    async fn owner(&self, id: AdventurerId) -> Result<Option<Felt>, ChainError> {
        self.sim.owner(id).await
    }
    async fn mint(
        &self,
        name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        let r = self.sim.mint(name, opts).await;
        if r.is_ok() {
            self.txs.fetch_add(1, Ordering::Relaxed);
        }
        r
    }
    async fn act(
        &self,
        id: AdventurerId,
        action: &Action,
        before: Option<&Adventurer>,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        let r = self.sim.act(id, action, before, opts).await;
        if r.is_ok() {
            self.txs.fetch_add(1, Ordering::Relaxed);
            self.actions.lock().unwrap().push(action.clone());
        }
        r
    }
    async fn tx(&self, hash: Felt) -> Result<TxLookup, ChainError> {
        self.sim.tx(hash).await
    }
    async fn world(&self) -> Result<String, ChainError> {
        self.sim.world().await
    }
    fn reads_are_local(&self) -> bool {
        self.sim.reads_are_local()
    }
    fn simulated(&self) -> bool {
        self.sim.simulated()
    }
    fn deterministic_rules(&self) -> Option<EngineSettings> {
        self.sim.deterministic_rules()
    }
}
