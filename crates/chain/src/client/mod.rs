//! The chain client: connects, reads game state through the bindings and runs game actions from
//! the wallet's account, one write at a time, with a fee estimate (simulation) before every send.
//! By job: [`actions`] turns actions into contract calls, [`send`] signs, sends and follows a
//! transaction to its receipt, [`lookup`] answers transaction and wallet lookups.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::Serialize;
use starknet::accounts::{Account, ConnectedAccount};
use starknet::core::types::{BlockId, BlockTag, Call, Event, Felt, FunctionCall};
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};

use crate::node::NodeTransport;
use crate::paymaster::{CartridgePaymaster, Paymaster};

use super::bindings::{adventurer_systems, game_systems, game_token_systems};
use super::ledger::TxLedger;
use super::new_game::Plan;
use super::retry::read_with_retries;
use super::submit::{Confirm, Hooks};
use super::token_id::token_id_from_events;
use super::vrf;
use super::wallet_account::{AccountSigner, WalletAccount as Wallet};
use super::{ChainError, GameAddresses, convert};
use game::engine::Action;
use game::events::GameEvent;
use game::model::{Adventurer, GameState};
use wallet::PolicyGuard;

mod actions;
mod lookup;
#[cfg(test)]
mod pipeline_tests;
#[cfg(test)]
mod scripted;
mod send;
mod session;
mod sponsored;

pub use lookup::{TokenBalance, TxLookup, WalletReport};
use send::{SendFailure, Sent};
pub use session::SessionReport;
use sponsored::Sponsorship;

type Rpc = Arc<JsonRpcClient<NodeTransport>>;
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

/// Reads and writes the game on one chain with one account.
pub struct ChainClient {
    provider: Rpc,
    account: WalletAccount,
    addresses: GameAddresses,
    pub(super) settings_id: u32,
    chain_id: Felt,
    poll: Duration,
    fee_multiplier: f64,
    /// Held for the whole of a write; holds the next nonce once known.
    write_lock: tokio::sync::Mutex<Option<Felt>>,
    ledger: TxLedger,
    policy: Arc<PolicyGuard>,
    /// Randomness-consuming actions go through Cartridge VRF and outside execution.
    vrf: bool,
    rpc_url: url::Url,
    /// Relays outside executions (VRF-bundled actions, a session's sponsored writes).
    paymaster: Arc<dyn Paymaster>,
    /// Distinguishes outside-execution nonces made in the same nanosecond.
    outside_counter: std::sync::atomic::AtomicU64,
    /// Fee tokens the wallet report lists, as (symbol, address); the profile's `chain.fee_tokens`.
    fee_tokens: Vec<(String, Felt)>,
    /// The game token contract, once read.
    token: std::sync::OnceLock<Felt>,
    /// Where sent transactions are followed by subscription (`None`: polling).
    subscriber: Option<super::subscribe::Subscriber>,
    /// Storage key of the game token's minted count, where its layout is known.
    pub(super) token_count_key: Option<Felt>,
    /// The chain as the journal names it (chain id and block 0).
    chain_identity: String,
    /// The session last checked on chain and what stopped it, if anything (session wallets).
    session_known: tokio::sync::Mutex<Option<(Felt, Option<super::session_state::SessionProblem>)>>,
    /// This RPC has no Cartridge paymaster (it answered "method not found"): sessions send
    /// directly.
    paymaster_absent: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for ChainClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChainClient")
            .field("account", &format_args!("{:#x}", self.account.address()))
            .field("chain_id", &format_args!("{:#x}", self.chain_id))
            .finish_non_exhaustive()
    }
}

/// Everything needed to connect.
pub struct ConnectOptions {
    /// Node URL.
    pub rpc_url: url::Url,
    /// Per-request timeout.
    pub request_timeout: Duration,
    /// Expected chain id.
    pub chain_id: Felt,
    /// Accepted spec version prefixes.
    pub spec_versions: Vec<String>,
    /// Game contract addresses.
    pub addresses: GameAddresses,
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
    /// `cartridge_addExecuteOutsideTransaction` on `rpc_url`.
    pub vrf: bool,
}

/// A JSON-RPC provider with a request timeout (starknet-rs's default client has none).
pub(crate) fn provider(url: url::Url, timeout: Duration) -> Result<Rpc, ChainError> {
    let http = reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(|e| ChainError::Config(format!("HTTP client: {e}")))?;
    Ok(Arc::new(JsonRpcClient::new(NodeTransport::Http(
        HttpTransport::new_with_client(url, http),
    ))))
}

impl ChainClient {
    /// Connects over HTTP to the node at `rpc_url`, whose Cartridge paymaster (when it has one)
    /// relays outside executions, and checks that it is the network the profile expects.
    pub async fn connect(opts: ConnectOptions) -> Result<Self, ChainError> {
        let http = reqwest::Client::builder()
            .timeout(opts.request_timeout)
            .build()
            .map_err(|e| ChainError::Config(format!("HTTP client: {e}")))?;
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
            return Err(ChainError::WrongNetwork(format!(
                "the node's chain id is {} but the profile expects {}",
                short_string(chain_id),
                short_string(opts.chain_id)
            )));
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
            return Err(ChainError::WrongNetwork(format!(
                "the node speaks JSON-RPC {spec}; the profile accepts {:?}",
                opts.spec_versions
            )));
        }
        let chain_identity = super::identity::chain_identity(&provider, chain_id).await;
        let account = Wallet::new(
            provider.clone(),
            opts.account_address,
            chain_id,
            opts.signer,
        );
        Ok(Self {
            provider,
            account,
            addresses: opts.addresses,
            settings_id: opts.settings_id,
            chain_id,
            poll: opts.poll,
            fee_multiplier: opts.fee_multiplier,
            write_lock: tokio::sync::Mutex::new(None),
            ledger: TxLedger::default(),
            policy: opts.policy,
            vrf: opts.vrf,
            rpc_url: opts.rpc_url,
            paymaster,
            outside_counter: std::sync::atomic::AtomicU64::new(0),
            fee_tokens: FEE_TOKENS
                .iter()
                .map(|(symbol, addr)| (symbol.to_string(), Felt::from_hex_unchecked(addr)))
                .collect(),
            token: std::sync::OnceLock::new(),
            subscriber: None,
            token_count_key: None,
            chain_identity,
            session_known: tokio::sync::Mutex::new(None),
            paymaster_absent: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The wallet's account, connected to the node.
    pub(super) fn wallet_account(&self) -> &WalletAccount {
        &self.account
    }

    /// The wallet's account address.
    pub fn account_address(&self) -> Felt {
        self.account.address()
    }

    /// The node's chain id.
    pub fn chain_id(&self) -> Felt {
        self.chain_id
    }

    /// The game's contract addresses.
    pub fn addresses(&self) -> &GameAddresses {
        &self.addresses
    }

    /// Calls a view at the pre-confirmed block and returns the raw felts (transient failures retried).
    async fn call(&self, call: Call) -> Result<Vec<Felt>, ChainError> {
        let request = FunctionCall {
            contract_address: call.to,
            entry_point_selector: call.selector,
            calldata: call.calldata,
        };
        read_with_retries(|| {
            self.provider
                .call(request.clone(), BlockId::Tag(BlockTag::PreConfirmed))
        })
        .await
        .map_err(ChainError::from_provider)
    }

    /// Calls the view `name` and decodes its answer with its binding's decoder.
    async fn view<T, E: std::fmt::Display>(
        &self,
        name: &str,
        call: Call,
        decode: impl FnOnce(&[Felt]) -> Result<T, E>,
    ) -> Result<T, ChainError> {
        let felts = self.call(call).await?;
        decode(&felts).map_err(|e| ChainError::Decode(format!("{name}: {e}")))
    }

    /// The full (item-boosted) game state of an adventurer: `get_game_state`.
    pub async fn game_state(&self, adventurer_id: u64) -> Result<GameState, ChainError> {
        let call = game_systems::get_game_state(self.addresses.game_systems, &adventurer_id);
        let raw = self
            .view("get_game_state", call, game_systems::decode_get_game_state)
            .await?;
        convert::game_state(raw)
    }

    /// The stored (unboosted) adventurer: `get_adventurer`.
    pub async fn stored_adventurer(
        &self,
        adventurer_id: u64,
    ) -> Result<game::model::Adventurer, ChainError> {
        let call =
            adventurer_systems::get_adventurer(self.addresses.adventurer_systems, &adventurer_id);
        let raw = self
            .view(
                "get_adventurer",
                call,
                adventurer_systems::decode_get_adventurer,
            )
            .await?;
        convert::adventurer(raw)
    }

    /// The Denshokan token contract of this world: `token_address`.
    pub async fn token_address(&self) -> Result<Felt, ChainError> {
        let call = game_token_systems::token_address(self.addresses.game_token_systems);
        self.view(
            "token_address",
            call,
            game_token_systems::decode_token_address,
        )
        .await
    }

    /// The owner of an adventurer token (ERC721 `owner_of` on `token_address()`), or `None` when
    /// the token was never minted.
    pub async fn owner_of(&self, adventurer_id: u64) -> Result<Option<Felt>, ChainError> {
        let token = match self.cached_token_address().await {
            Some(t) => t,
            None => self.token_address().await?,
        };
        let id = starknet::core::types::U256::from_words(u128::from(adventurer_id), 0);
        let call = game_token_systems::owner_of(token, &id);
        match self
            .view("owner_of", call, game_token_systems::decode_owner_of)
            .await
        {
            Ok(owner) => Ok((owner != Felt::ZERO).then_some(owner)),
            Err(ChainError::Revert { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The call that mints a game token with this profile's settings to the wallet.
    pub fn mint_call(&self, player_name: Option<Felt>) -> Call {
        let player = super::entry::Player {
            address: self.account.address(),
            name: player_name,
        };
        super::entry::mint_call(self.addresses.game_token_systems, self.settings_id, &player)
    }

    /// The token contract's address, read once per run (it never changes); `None` if the read
    /// fails (the token id is then taken from the first matching event of any contract).
    pub(super) async fn cached_token_address(&self) -> Option<Felt> {
        if let Some(t) = self.token.get() {
            return Some(*t);
        }
        let t = self.token_address().await.ok()?;
        let _ = self.token.set(t);
        Some(t)
    }

    /// Mints a new game token to the wallet and returns its id (read from the receipt).
    pub async fn mint_game(
        &self,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(u64, TxReport), ChainError> {
        let call = self.mint_call(player_name);
        let report = self.execute(vec![call], None, "mint_game", opts).await?;
        let id = self.minted_id(&report, "mint_game").await?;
        Ok((id, report))
    }

    /// The id of the game token `report`'s transaction (`action`) minted, from its events.
    pub(super) async fn minted_id(
        &self,
        report: &TxReport,
        action: &str,
    ) -> Result<u64, ChainError> {
        let token = self.cached_token_address().await;
        token_id_from_events(&report.raw_events, token).ok_or_else(|| {
            ChainError::Decode(format!(
                "{action} transaction {:#x} carries no token id",
                report.tx_hash
            ))
        })
    }

    /// Signs and sends one game action and waits for it. On VRF profiles an action that consumes
    /// randomness is bundled after `request_random` (its salt from the adventurer's state before
    /// the action: `before` when the caller holds it, else read from the chain) and sent as an
    /// outside execution through the Cartridge paymaster; every other write is a plain invoke from
    /// the wallet's account.
    pub async fn act(
        &self,
        adventurer_id: u64,
        action: &Action,
        before: Option<&Adventurer>,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        let name = action.entrypoint();
        let call = self.action_call(adventurer_id, action);
        if !self.needs_state_to_act(action) {
            return self
                .execute(vec![call], Some(adventurer_id), name, opts)
                .await;
        }
        let read;
        let before = match before {
            Some(adventurer) => adventurer,
            None => {
                read = self.game_state(adventurer_id).await?.adventurer;
                &read
            }
        };
        let (calls, bundled) = vrf::bundle(
            self.addresses.game_systems,
            adventurer_id,
            before,
            action,
            call,
        );
        if bundled {
            return self
                .execute_outside(calls, Some(adventurer_id), name, opts)
                .await;
        }
        self.execute(calls, Some(adventurer_id), name, opts).await
    }

    /// Whether [`ChainClient::act`] needs the adventurer's state before `action` (to salt the
    /// VRF request): a caller that holds it hands it over and spares the chain a read.
    pub fn needs_state_to_act(&self, action: &Action) -> bool {
        self.vrf && vrf::may_need_randomness(action)
    }

    /// Refuses, before anything is signed, calls the server's policy or the session's forbid.
    fn may_sign(&self, calls: &[Call]) -> Result<(), ChainError> {
        self.policy.check_calls(calls).map_err(ChainError::Policy)?;
        self.account.signer().check_calls(calls)
    }

    /// Checks the calls planning made (a mint+start's predicted start) against the policies; a
    /// plan of known calls was checked before the lock.
    fn check_planned(&self, plan: &Plan, calls: &[Call]) -> Result<(), ChainError> {
        match plan {
            Plan::Calls(_) => Ok(()),
            Plan::MintAndStart { .. } => self.may_sign(calls),
        }
    }

    /// Simulates (fee estimate), signs, records, sends and waits; one write at a time for this
    /// account, with a local nonce that is re-read from the node after any nonce error.
    pub(super) async fn execute(
        &self,
        calls: Vec<Call>,
        adventurer_id: Option<u64>,
        action: &str,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.execute_planned(Plan::Calls(calls), adventurer_id, action, opts)
            .await
    }

    /// [`ChainClient::execute`] for calls that may depend on the chain at the nonce they are
    /// signed with. The account's write lock is taken before anything is planned and held until
    /// the receipt, on the sponsored route as on the paid one, so no other write of this account
    /// comes between a plan (a predicted token id) and its transaction. Each built set of calls
    /// is checked against the policies once, right before it is signed.
    pub(super) async fn execute_planned(
        &self,
        plan: Plan,
        adventurer_id: Option<u64>,
        action: &str,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        if let Plan::Calls(calls) = &plan {
            self.may_sign(calls)?;
        }
        self.session_ready().await?;
        let mut next_nonce = self.write_lock.lock().await;
        self.policy
            .check_rate(SystemTime::now())
            .map_err(ChainError::Policy)?;
        let mut declined = match self
            .try_sponsored(&mut next_nonce, &plan, adventurer_id, action, &opts)
            .await?
        {
            Sponsorship::Sent(report) => return Ok(report),
            Sponsorship::Declined(built) => built,
        };
        let mut resynced = false;
        let ((hash, bound), nonce) = loop {
            let nonce = match *next_nonce {
                Some(n) => n,
                None => read_with_retries(|| self.account.get_nonce())
                    .await
                    .map_err(ChainError::from_provider)?,
            };
            let built = match declined.take() {
                Some((at, calls)) if at == nonce => Ok(calls),
                _ => match self.build(&plan, nonce).await {
                    Ok(calls) => {
                        self.check_planned(&plan, &calls)?;
                        Ok(calls)
                    }
                    Err(e) => Err(e),
                },
            };
            let sent = match built {
                Ok(calls) => {
                    self.sign_and_send(&calls, nonce, adventurer_id, action, &opts)
                        .await
                }
                Err(e) => Err(SendFailure::from_chain(e)),
            };
            match sent {
                Ok(sent) => break (sent, nonce),
                Err(SendFailure::Nonce) if !resynced => {
                    tracing::info!("nonce rejected; re-reading it from the node");
                    *next_nonce = None;
                    resynced = true;
                }
                Err(SendFailure::Nonce) => {
                    *next_nonce = None;
                    return Err(ChainError::Rpc(
                        "the node keeps rejecting the account nonce".into(),
                    ));
                }
                Err(SendFailure::Other(e)) => {
                    *next_nonce = None;
                    return Err(self.session_refused(e).await);
                }
            }
        };
        *next_nonce = Some(nonce + Felt::ONE);
        self.track(hash, action, opts, Sent::Paid { bound }).await
    }

    /// The wallet policy in force and what was spent.
    pub fn policy(&self) -> &PolicyGuard {
        &self.policy
    }

    /// The ledger of transactions signed by this account (the journal).
    pub fn ledger(&self) -> &TxLedger {
        &self.ledger
    }

    /// Reports these fee tokens in the wallet report (the profile's `chain.fee_tokens`), in this order.
    pub fn with_fee_tokens(mut self, tokens: Vec<(String, Felt)>) -> Self {
        self.fee_tokens = tokens;
        self
    }

    /// Follows sent transactions as `follow` says (settings `tx.follow`, `tx.ws_url`); polling
    /// until this is called.
    pub fn with_follow(mut self, follow: super::Follow, ws_url: Option<&url::Url>) -> Self {
        self.subscriber = super::subscribe::Subscriber::new(follow, &self.rpc_url, ws_url);
        if let Some(s) = &self.subscriber {
            tracing::info!(endpoint = %base::redact::shown_url(s.url()), "sent transactions are watched by subscription");
        }
        self
    }

    /// Reads the next token id from the game token's storage variable `var` (the profile's
    /// `chain.token_count_storage`; empty: simulate the mint instead).
    pub fn with_token_count_storage(mut self, var: &str) -> Result<Self, ChainError> {
        let var = var.trim();
        if !var.is_empty() {
            let key = starknet::core::utils::get_storage_var_address(var, &[]).map_err(|e| {
                ChainError::Config(format!("chain.token_count_storage '{var}': {e}"))
            })?;
            self.token_count_key = Some(key);
        }
        Ok(self)
    }

    /// Keeps the ledger in `journal` (durable, shared with the policy's counters and replays),
    /// its records named by this chain.
    pub fn with_journal(mut self, journal: Arc<super::journal::Journal>) -> Self {
        journal.bind_chain(&self.chain_identity);
        self.ledger = TxLedger::new(journal);
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

fn short_string(f: Felt) -> String {
    starknet::core::utils::parse_cairo_short_string(&f).unwrap_or_else(|_| format!("{f:#x}"))
}
