//! The chain client: connects, reads game state through the bindings and runs game actions from
//! the wallet's account, one write at a time, with a fee estimate (simulation) before every send.
//! By job: [`actions`] turns actions into contract calls, [`send`] signs, sends and follows a
//! transaction to its receipt, [`lookup`] answers transaction and wallet lookups.

use game::AdventurerId;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use starknet::accounts::Account;
use starknet::core::types::{Call, Event, Felt};
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};

use crate::controller::cartridge::CartridgePaymaster;
use crate::identity::short_string;
use crate::node::NodeTransport;
use crate::paymaster::Paymaster;

use super::ledger::TxLedger;
use super::token_id::token_id_from_events;
use super::wallet_account::{AccountSigner, WalletAccount as Wallet};
use super::{BadAnswer, ChainError, Misconfigured, NetworkMismatch};
use crate::generation::{ActContext, Deployment};
use crate::{Confirm, Hooks};
use game::engine::Action;
use game::events::GameEvent;
use game::model::Adventurer;
use wallet::PolicyGuard;

mod entry;
mod lookup;
mod outcome;
#[cfg(test)]
mod pipeline_tests;
mod plan;
mod reader;
#[cfg(test)]
mod scripted;
mod send;
mod sponsored;
mod submitter;
#[cfg(test)]
mod third_generation_tests;

pub use lookup::{TokenBalance, TxLookup, WalletReport};
pub(crate) use plan::Plan;
pub use reader::ChainReader;
pub(crate) use submitter::Submitter;

pub(crate) use crate::node::Rpc;
type WalletAccount = Wallet<Rpc>;

/// How long a signed outside execution stays valid (its `execute_before` from now).
pub(crate) const OUTSIDE_EXECUTION_VALIDITY: Duration = Duration::from_secs(600);

/// What a confirmed write produced.
#[derive(Debug, Clone, Serialize)]
pub struct TxReport {
    /// The transaction hash.
    pub tx_hash: Felt,
    /// Finality status of the receipt (`ACCEPTED_ON_L2`, …).
    pub status: super::TxStatus,
    /// Block number, when in a block.
    pub block_number: Option<u64>,
    /// The fee actually paid (in FRI for STRK fees).
    pub actual_fee: u128,
    /// The game events of the receipt, in emission order.
    pub events: Vec<GameEvent>,
    /// Whether the events carry the adventurer's action count (the generation's receipts say;
    /// else the count is read with the state).
    #[serde(skip)]
    pub counts_actions: bool,
    /// Raw receipt events, for token-id extraction.
    #[serde(skip)]
    pub raw_events: Vec<Event>,
}

/// Confirmation, timing and observers of one write.
#[derive(Debug, Clone)]
pub struct WriteOptions {
    /// Required confirmation level.
    pub confirm: Confirm,
    /// How long to wait for it.
    pub timeout: Duration,
    /// Progress reporting and cancellation.
    pub hooks: Hooks,
}

/// Reads and writes the game on one chain with one account: a [`ChainReader`] (which it
/// dereferences to, for reads) and the account's write pipeline.
pub struct ChainClient {
    submitter: Submitter,
    pub(super) settings_id: u32,
    /// Randomness-consuming actions go through Cartridge VRF and outside execution.
    vrf: bool,
    rpc_url: url::Url,
    /// Fee tokens the wallet report lists, as (symbol, address); the profile's `chain.fee_tokens`.
    fee_tokens: Vec<(String, Felt)>,
    /// The chain as the journal names it (chain id and block 0).
    chain_identity: String,
    /// Set when the profile marks this deployment archived: new games are refused.
    archive: Option<crate::Archive>,
    /// Set when the game said the settings new games are minted with do not exist: new games
    /// are refused before signing.
    missing_settings: Option<u32>,
    /// Every writer's changes, made at the first ask (on the subscriber's endpoint, if any).
    feed: std::sync::OnceLock<crate::ChangeFeed>,
}

impl ConnectOptions {
    /// What connecting checks, in words: the chain id, the JSON-RPC version, the generation.
    pub fn checks(&self) -> String {
        format!(
            "the chain id ({}), the JSON-RPC version ({}), and that {:#x} answers as {}",
            short_string(self.chain_id),
            self.spec_versions.join(" or "),
            self.deployment.game_address(),
            self.deployment.generation().described()
        )
    }

    /// The node's host and port as messages may show them (no path, query or credential).
    pub fn rpc_host(&self) -> String {
        let host = self.rpc_url.host_str().unwrap_or("(no host)");
        match self.rpc_url.port() {
            Some(p) => format!("{host}:{p}"),
            None => host.to_string(),
        }
    }
}

impl std::ops::Deref for ChainClient {
    type Target = ChainReader;

    fn deref(&self) -> &ChainReader {
        &self.submitter.reader
    }
}

impl std::fmt::Debug for ChainClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChainClient")
            .field("account", &format_args!("{:#x}", self.account_address()))
            .field("chain_id", &format_args!("{:#x}", self.chain_id()))
            .finish_non_exhaustive()
    }
}

/// Everything needed to connect.
#[derive(Clone)]
pub struct ConnectOptions {
    /// Node URL.
    pub rpc_url: url::Url,
    /// Per-request timeout.
    pub request_timeout: Duration,
    /// Expected chain id.
    pub chain_id: Felt,
    /// Accepted spec version prefixes.
    pub spec_versions: Vec<String>,
    /// What the profile plays: the generation and its contracts (checked against the chain at
    /// connect).
    pub deployment: Deployment,
    /// The account contract.
    pub account_address: Felt,
    /// Who signs for that account: its key, or a Controller session.
    pub signer: AccountSigner,
    /// Settings id for new games.
    pub settings_id: u32,
    /// Receipt polling interval.
    pub poll: Duration,
    /// Safety factor on estimated gas.
    pub fee_multiplier: f64,
    /// What the wallet may sign.
    pub policy: Arc<PolicyGuard>,
    /// Whether the profile needs Cartridge VRF (`chain.vrf`): randomness-consuming actions are
    /// then bundled with `request_random` and sent as SNIP-9 outside executions to
    /// `cartridge_addExecuteOutsideTransaction` on `rpc_url`. On a v2 deployment the bundle
    /// follows its VRF source, and goes as an outside execution when this is set, else as a
    /// multicall from the account.
    pub vrf: bool,
}

impl ChainClient {
    /// Connects over HTTP to the node at `rpc_url`, whose Cartridge paymaster (when it has one)
    /// relays outside executions, and checks that it is the network the profile expects.
    pub async fn connect(opts: ConnectOptions) -> Result<Self, ChainError> {
        let http = reqwest::Client::builder()
            .timeout(opts.request_timeout)
            .build()
            .map_err(|e| ChainError::Config(Misconfigured::HttpClient(Arc::new(e))))?;
        let node = NodeTransport::Http(HttpTransport::new_with_client(
            opts.rpc_url.clone(),
            http.clone(),
        ));
        let paymaster = Arc::new(CartridgePaymaster::new(http, opts.rpc_url.clone()));
        Self::connect_through(opts, node, paymaster).await
    }

    /// [`ChainClient::connect`] through these seams: the node's transport and the paymaster.
    pub async fn connect_through(
        opts: ConnectOptions,
        node: NodeTransport,
        paymaster: Arc<dyn Paymaster>,
    ) -> Result<Self, ChainError> {
        let provider = Arc::new(JsonRpcClient::new(node));
        let chain_id = provider
            .chain_id()
            .await
            .map_err(ChainError::from_provider)?;
        if chain_id != opts.chain_id {
            return Err(ChainError::WrongNetwork(NetworkMismatch::ChainId {
                expected: opts.chain_id,
                found: chain_id,
            }));
        }
        let spec = provider
            .spec_version()
            .await
            .map_err(ChainError::from_provider)?;
        if !opts
            .spec_versions
            .iter()
            .any(|p| spec.starts_with(p.as_str()))
        {
            return Err(ChainError::WrongNetwork(NetworkMismatch::SpecVersion {
                found: spec,
                accepted: opts.spec_versions,
            }));
        }
        let chain_identity = super::identity::chain_identity(&provider, chain_id).await;
        let account = Wallet::new(
            provider.clone(),
            opts.account_address,
            chain_id,
            opts.signer,
        );
        let reader = ChainReader::new(provider, opts.deployment, chain_id);
        reader.check_generation().await?;
        let submitter = Submitter::new(
            reader,
            account,
            opts.policy,
            paymaster,
            opts.poll,
            opts.fee_multiplier,
        );
        Ok(Self {
            submitter,
            settings_id: opts.settings_id,
            vrf: opts.vrf,
            rpc_url: opts.rpc_url,
            fee_tokens: FEE_TOKENS
                .iter()
                .map(|(symbol, addr)| (symbol.to_string(), Felt::from_hex_unchecked(addr)))
                .collect(),
            chain_identity,
            archive: None,
            missing_settings: None,
            feed: std::sync::OnceLock::new(),
        })
    }

    /// The wallet's account address.
    pub fn account_address(&self) -> Felt {
        self.submitter.account.address()
    }

    /// The account's write pipeline.
    pub(crate) fn submitter(&self) -> &Submitter {
        &self.submitter
    }

    /// Mints a new game token to the wallet and returns its id (read from the receipt).
    pub async fn mint_game(
        &self,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        self.check_archive(crate::entry::Entry::Mint)?;
        let call = self.mint_call(player_name);
        let report = self
            .submitter
            .execute(vec![call], None, "mint_game", opts)
            .await?;
        let id = self.minted_id(&report, "mint_game").await?;
        Ok((id, report))
    }

    /// The id of the game token `report`'s transaction (`action`) minted, from its events.
    pub(super) async fn minted_id(
        &self,
        report: &TxReport,
        action: &'static str,
    ) -> Result<AdventurerId, ChainError> {
        let token = self.cached_token_address().await;
        token_id_from_events(&report.raw_events, token).ok_or(ChainError::Decode(
            BadAnswer::NoTokenId {
                action: Some(action),
                tx_hash: report.tx_hash,
            },
        ))
    }

    /// The contract call for an action (built with the generated bindings of the deployment's
    /// generation); an action the generation has no entrypoint for is refused here.
    pub fn action_call(&self, id: AdventurerId, action: &Action) -> Result<Call, ChainError> {
        self.deployment().game().action_call(id, action)
    }

    /// The call that mints a game token with this profile's settings to the wallet.
    pub fn mint_call(&self, player_name: Option<Felt>) -> Call {
        let player = crate::entry::Player {
            address: self.account_address(),
            name: player_name,
        };
        self.deployment()
            .game()
            .mint_call(self.settings_id, &player)
    }

    /// What the deployment's generation is told when it turns an action into calls.
    fn act_context(&self) -> ActContext {
        ActContext {
            account: self.account_address(),
            chain_vrf: self.vrf,
        }
    }

    /// Signs and sends one game action and waits for it. An action that draws randomness is
    /// bundled after the VRF request its generation asks for (its salt from the adventurer's
    /// state before the action: `before` when the caller holds it, else read from the chain)
    /// and sent as an outside execution through the Cartridge paymaster on VRF profiles; every
    /// other write is a plain invoke from the wallet's account.
    pub async fn act(
        &self,
        adventurer_id: AdventurerId,
        action: &Action,
        before: Option<&Adventurer>,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        let name = action.entrypoint();
        self.check_playable(adventurer_id).await?;
        let game = self.deployment().game();
        let read;
        let before = match before {
            None if game.needs_state_to_act(self.act_context(), action) => {
                read = self.game_state(adventurer_id).await?.adventurer;
                Some(&read)
            }
            before => before,
        };
        let calls = game.action_calls(self.act_context(), adventurer_id, action, before)?;
        self.send_bundle(calls, adventurer_id, name, opts).await
    }

    /// Sends an action's calls: with a VRF request first, as an outside execution through the
    /// paymaster on VRF profiles, else (and without one) as an invoke from the account.
    async fn send_bundle(
        &self,
        calls: Vec<Call>,
        adventurer_id: AdventurerId,
        name: &str,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        if calls.len() > 1 && self.vrf {
            return self
                .submitter
                .execute_outside(calls, Some(adventurer_id), name, opts)
                .await;
        }
        self.submitter
            .execute(calls, Some(adventurer_id), name, opts)
            .await
    }

    /// Whether [`ChainClient::act`] needs the adventurer's state before `action` (to salt the
    /// VRF request, or on v2 to know whether an equip is in battle): a caller that holds it hands
    /// it over and spares the chain a read.
    pub fn needs_state_to_act(&self, action: &Action) -> bool {
        self.deployment()
            .game()
            .needs_state_to_act(self.act_context(), action)
    }

    /// The wallet policy in force and what was spent.
    pub fn policy(&self) -> &PolicyGuard {
        &self.submitter.policy
    }

    /// The ledger of transactions signed by this account (the journal).
    pub fn ledger(&self) -> &TxLedger {
        &self.submitter.ledger
    }

    /// Reports these fee tokens in the wallet report (the profile's `chain.fee_tokens`), in this order.
    pub fn with_fee_tokens(mut self, tokens: Vec<(String, Felt)>) -> Self {
        self.fee_tokens = tokens;
        self
    }

    /// Follows sent transactions as `follow` says (settings `tx.follow`, `tx.ws_url`); polling
    /// until this is called.
    pub fn with_follow(mut self, follow: super::Follow, ws_url: Option<&url::Url>) -> Self {
        self.submitter.subscriber =
            super::subscribe::Subscriber::new(follow, &self.rpc_url, ws_url);
        if let Some(s) = &self.submitter.subscriber {
            tracing::info!(endpoint = %base::redact::shown_url(s.url()), "sent transactions are watched by subscription");
        }
        self
    }

    /// The adventurers any writer changed since `cursor` (the change feed: a subscription on the
    /// endpoint transactions are followed on, else polling by block).
    pub async fn changes_since(
        &self,
        cursor: Option<u64>,
    ) -> Result<(u64, Vec<crate::Change>), ChainError> {
        let feed = self.feed.get_or_init(|| {
            let endpoint = self.submitter.subscriber.as_ref().map(|s| s.url().clone());
            crate::ChangeFeed::new(self.provider.clone(), self.deployment().clone(), endpoint)
        });
        feed.changed_since(cursor).await
    }

    /// Stops the change feed until it is asked again.
    pub async fn stop_changes(&self) {
        if let Some(feed) = self.feed.get() {
            feed.stop().await;
        }
    }

    /// Reads the next token id from the game token's storage variable `var` (the profile's
    /// `chain.token_count_storage`; empty: simulate the mint instead).
    pub fn with_token_count_storage(mut self, var: &str) -> Result<Self, ChainError> {
        let var = var.trim();
        if !var.is_empty() {
            let key = starknet::core::utils::get_storage_var_address(var, &[]).map_err(|e| {
                ChainError::Config(Misconfigured::StorageVar {
                    name: var.to_string(),
                    source: Arc::new(e),
                })
            })?;
            self.submitter.token_count_key = Some(key);
        }
        Ok(self)
    }

    /// Marks the deployment archived (the profile's `deployment.archived`): entering a new game
    /// is refused before signing unless the archive allows it.
    pub fn with_archive(mut self, archive: Option<crate::Archive>) -> Self {
        self.archive = archive;
        self
    }

    /// Refuses a new game by `entry` on an archived deployment (nothing is signed).
    pub fn check_archive(&self, entry: crate::entry::Entry) -> Result<(), ChainError> {
        if let Some(settings_id) = self.missing_settings
            && entry == crate::entry::Entry::Mint
        {
            return Err(ChainError::SettingsMissing { settings_id });
        }
        match &self.archive {
            Some(a) => Ok(a.check_entry(entry.name())?),
            None => Ok(()),
        }
    }

    /// The game settings new games are minted with (`chain.settings_id`).
    pub fn settings_id(&self) -> u32 {
        self.settings_id
    }

    /// Refuses new games before signing: the game said the settings they are minted with
    /// (`chain.settings_id`) do not exist, so the mint would fail.
    pub fn with_missing_settings(mut self, missing: bool) -> Self {
        self.missing_settings = missing.then_some(self.settings_id);
        self
    }

    /// Which world this client plays: the chain as the journal names it (chain id, block 0's
    /// hash and time, so a restarted devnet is another world) and the deployment's game address.
    pub fn world_identity(&self) -> String {
        format!(
            "{}/{:#x}",
            self.chain_identity,
            self.deployment().game_address()
        )
    }

    /// Refuses, before signing (or, for a view, reading), the calls whose entrypoints `gate`
    /// holds (the ABI check's differences); while a contract is unchecked, `recheck` runs the
    /// check again before a write.
    pub fn with_abi_gate(
        self,
        gate: crate::AbiGate,
        recheck: Option<Arc<dyn crate::AbiRecheck>>,
    ) -> Self {
        self.submitter.reader.abi.set(gate, recheck);
        self
    }

    /// Keeps the ledger in `journal` (durable, shared with the policy's counters and replays),
    /// its records named by this chain.
    pub fn with_journal(mut self, journal: Arc<super::journal::Journal>) -> Self {
        journal.bind_chain(&self.chain_identity);
        self.submitter.ledger = TxLedger::new(journal);
        self
    }
}

/// The fee tokens the wallet report lists unless the profile names others (same addresses on mainnet,
/// Sepolia, starknet-devnet and katana's dev chain).
const FEE_TOKENS: [(&str, &str); 2] = [
    (
        "STRK",
        "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d",
    ),
    (
        "ETH",
        "0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7",
    ),
];
