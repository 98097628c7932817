//! The chain client: reads game state through the bindings and sends game actions from the
//! wallet's account, one write at a time, with a fee estimate (simulation) before every send.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::Serialize;
use starknet::accounts::{Account, ConnectedAccount, ExecutionEncoding, SingleOwnerAccount};
use starknet::core::types::{
    BlockId, BlockTag, Call, Event, ExecutionResult, Felt, FunctionCall, StarknetError,
    TransactionReceipt, TransactionReceiptWithBlockInfo,
};
use starknet::providers::Provider;
use starknet::providers::ProviderError;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet::signers::Signer;

use super::bindings::{adventurer_systems, game_systems, game_token_systems};
use super::ledger::{TxLedger, TxRecord};
use super::new_game::Plan;
use super::outside::{ANY_CALLER, OutsideExecution};
use super::retry::read_with_retries;
use super::submit::{
    Confirm, Hooks, Progress, execution_of, finality_name, status_name, wait_for_receipt,
};
use super::token_id::token_id_from_events;
use super::{ChainError, GameAddresses, convert};
use super::{cartridge, vrf};
use crate::game::events::{GameEvent, decode_game_event};
use crate::game::model::{GameState, Stats};
use crate::wallet::{PolicyGuard, SecretSigner};

type Rpc = Arc<JsonRpcClient<HttpTransport>>;
type WalletAccount = SingleOwnerAccount<Rpc, Arc<SecretSigner>>;

/// How long a signed outside execution stays valid (its `execute_before` from now).
pub const OUTSIDE_EXECUTION_VALIDITY: Duration = Duration::from_secs(600);

/// A game action the wallet can sign, as the contract receives it.
#[derive(Debug, Clone, PartialEq)]
pub enum GameAction {
    /// `start_game(id, weapon)`.
    StartGame {
        /// Starting weapon item id.
        weapon: u8,
    },
    /// `explore(id, till_beast)`.
    Explore {
        /// Keep exploring until a beast appears.
        till_beast: bool,
    },
    /// `attack(id, to_the_death)`.
    Attack {
        /// Keep attacking until one side dies.
        to_the_death: bool,
    },
    /// `flee(id, to_the_death)`.
    Flee {
        /// Keep trying until fled or dead.
        to_the_death: bool,
    },
    /// `equip(id, items)`.
    Equip {
        /// Item ids from the bag.
        items: Vec<u8>,
    },
    /// `drop(id, items)`.
    Drop {
        /// Item ids equipped or in the bag.
        items: Vec<u8>,
    },
    /// `buy_items(id, potions, items)`.
    BuyItems {
        /// Potions to buy.
        potions: u8,
        /// (item id, equip now) pairs.
        items: Vec<(u8, bool)>,
    },
    /// `select_stat_upgrades(id, stats)`.
    Upgrade {
        /// Points per stat (luck must be 0).
        stats: Stats,
    },
}

/// What a confirmed write produced.
#[derive(Debug, Clone, Serialize)]
pub struct TxReport {
    /// The transaction hash.
    pub tx_hash: Felt,
    /// Finality status of the receipt (`ACCEPTED_ON_L2`, …).
    pub status: &'static str,
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
    signer: Arc<SecretSigner>,
    rpc_url: url::Url,
    http: reqwest::Client,
    /// Distinguishes outside-execution nonces made in the same nanosecond.
    outside_counter: std::sync::atomic::AtomicU64,
    /// Fee tokens `ls_wallet` reports, as (symbol, address); the profile's `chain.fee_tokens`.
    fee_tokens: Vec<(String, Felt)>,
    /// The game token contract, once read.
    token: std::sync::OnceLock<Felt>,
    /// Where sent transactions are followed by subscription (`None`: polling).
    subscriber: Option<super::subscribe::Subscriber>,
    /// Storage key of the game token's minted count, where its layout is known.
    pub(super) token_count_key: Option<Felt>,
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
    /// The signer for that account.
    pub signer: Arc<SecretSigner>,
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
pub fn provider(url: url::Url, timeout: Duration) -> Result<Rpc, ChainError> {
    let http = reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(|e| ChainError::Config(format!("HTTP client: {e}")))?;
    Ok(Arc::new(JsonRpcClient::new(
        HttpTransport::new_with_client(url, http),
    )))
}

impl ChainClient {
    /// Connects and checks that the node is the network the profile expects.
    pub async fn connect(opts: ConnectOptions) -> Result<Self, ChainError> {
        let http = reqwest::Client::builder()
            .timeout(opts.request_timeout)
            .build()
            .map_err(|e| ChainError::Config(format!("HTTP client: {e}")))?;
        let provider = provider(opts.rpc_url.clone(), opts.request_timeout)?;
        let chain_id = provider
            .chain_id()
            .await
            .map_err(|e| ChainError::from_provider(&e))?;
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
            .map_err(|e| ChainError::from_provider(&e))?;
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
        let mut account = SingleOwnerAccount::new(
            provider.clone(),
            opts.signer.clone(),
            opts.account_address,
            chain_id,
            ExecutionEncoding::New,
        );
        account.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));
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
            signer: opts.signer,
            rpc_url: opts.rpc_url,
            http,
            outside_counter: std::sync::atomic::AtomicU64::new(0),
            fee_tokens: FEE_TOKENS
                .iter()
                .map(|(symbol, addr)| (symbol.to_string(), Felt::from_hex_unchecked(addr)))
                .collect(),
            token: std::sync::OnceLock::new(),
            subscriber: None,
            token_count_key: None,
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
        .map_err(|e| ChainError::from_provider(&e))
    }

    /// The full (item-boosted) game state of an adventurer: `get_game_state`.
    pub async fn game_state(&self, adventurer_id: u64) -> Result<GameState, ChainError> {
        let felts = self
            .call(game_systems::get_game_state(
                self.addresses.game_systems,
                &adventurer_id,
            ))
            .await?;
        let raw = game_systems::decode_get_game_state(&felts)
            .map_err(|e| ChainError::Decode(format!("get_game_state: {e}")))?;
        convert::game_state(raw)
    }

    /// The stored (unboosted) adventurer: `get_adventurer`.
    pub async fn stored_adventurer(
        &self,
        adventurer_id: u64,
    ) -> Result<crate::game::model::Adventurer, ChainError> {
        let felts = self
            .call(adventurer_systems::get_adventurer(
                self.addresses.adventurer_systems,
                &adventurer_id,
            ))
            .await?;
        let raw = adventurer_systems::decode_get_adventurer(&felts)
            .map_err(|e| ChainError::Decode(format!("get_adventurer: {e}")))?;
        convert::adventurer(raw)
    }

    /// The Denshokan token contract of this world: `token_address`.
    pub async fn token_address(&self) -> Result<Felt, ChainError> {
        let felts = self
            .call(game_token_systems::token_address(
                self.addresses.game_token_systems,
            ))
            .await?;
        game_token_systems::decode_token_address(&felts)
            .map_err(|e| ChainError::Decode(format!("token_address: {e}")))
    }

    /// The owner of an adventurer token (ERC721 `owner_of` on `token_address()`), or `None` when
    /// the token was never minted.
    pub async fn owner_of(&self, adventurer_id: u64) -> Result<Option<Felt>, ChainError> {
        let token = match self.cached_token_address().await {
            Some(t) => t,
            None => self.token_address().await?,
        };
        let id = starknet::core::types::U256::from_words(u128::from(adventurer_id), 0);
        match self.call(game_token_systems::owner_of(token, &id)).await {
            Ok(felts) => {
                let owner = game_token_systems::decode_owner_of(&felts)
                    .map_err(|e| ChainError::Decode(format!("owner_of: {e}")))?;
                Ok((owner != Felt::ZERO).then_some(owner))
            }
            Err(ChainError::Revert { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The call that mints a game token with this profile's settings to the wallet.
    pub fn mint_call(&self, player_name: Option<Felt>) -> Call {
        game_token_systems::mint_game(
            self.addresses.game_token_systems,
            &player_name,
            &Some(self.settings_id),
            &None,
            &None,
            &None,
            &None,
            &None,
            &None,
            &self.account.address(),
            &false,
        )
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
    /// randomness (read from the adventurer's current state) is bundled after `request_random`
    /// and sent as an outside execution through the Cartridge paymaster; every other write is a
    /// plain invoke from the wallet's account.
    pub async fn act(
        &self,
        adventurer_id: u64,
        action: &GameAction,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        let name = action_name(action);
        let call = self.action_call(adventurer_id, action);
        if self.vrf && vrf::may_need_randomness(action) {
            let before = self.game_state(adventurer_id).await?;
            let (calls, bundled) = vrf::bundle(
                self.addresses.game_systems,
                adventurer_id,
                &before.adventurer,
                action,
                call,
            );
            if bundled {
                return self
                    .execute_outside(calls, Some(adventurer_id), name, opts)
                    .await;
            }
            return self.execute(calls, Some(adventurer_id), name, opts).await;
        }
        self.execute(vec![call], Some(adventurer_id), name, opts)
            .await
    }

    /// Signs the calls as a SNIP-9 v2 outside execution (any caller, valid for
    /// [`OUTSIDE_EXECUTION_VALIDITY`]) and submits it with
    /// `cartridge_addExecuteOutsideTransaction`; then tracks the paymaster's transaction like
    /// any other write. The wallet pays no fee, so none is counted against the budget.
    async fn execute_outside(
        &self,
        calls: Vec<Call>,
        adventurer_id: Option<u64>,
        action: &str,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.policy
            .check_calls(&calls)
            .map_err(ChainError::Policy)?;
        let _lock = self.write_lock.lock().await;
        self.policy
            .check_rate(SystemTime::now())
            .map_err(ChainError::Policy)?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let counter = self
            .outside_counter
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nonce = starknet_crypto::poseidon_hash_many(&[
            self.account.address(),
            Felt::from(now.as_nanos()),
            Felt::from(counter),
        ]);
        let execution = OutsideExecution {
            caller: ANY_CALLER,
            nonce,
            execute_after: 0,
            execute_before: now.as_secs() + OUTSIDE_EXECUTION_VALIDITY.as_secs(),
            calls,
        };
        let signed = execution
            .sign(&*self.signer, self.account.address(), self.chain_id)
            .await
            .map_err(|e| ChainError::Signing(e.to_string()))?;
        tracing::info!(
            outside_hash = %format!("{:#x}", signed.hash),
            action,
            "submitting outside execution to the Cartridge paymaster"
        );
        let hash = cartridge::submit(&self.http, &self.rpc_url, &signed).await?;
        if let Err(e) = self.ledger.record(hash, adventurer_id, action, nonce, 0) {
            tracing::error!(tx_hash = %format!("{hash:#x}"), "sent but not journaled: {e}");
        }
        self.track(hash, action, opts, Sent::Sponsored).await
    }

    /// The contract call for an action (built with the generated bindings).
    pub fn action_call(&self, id: u64, action: &GameAction) -> Call {
        let gs = self.addresses.game_systems;
        match action {
            GameAction::StartGame { weapon } => game_systems::start_game(gs, &id, weapon),
            GameAction::Explore { till_beast } => game_systems::explore(gs, &id, till_beast),
            GameAction::Attack { to_the_death } => game_systems::attack(gs, &id, to_the_death),
            GameAction::Flee { to_the_death } => game_systems::flee(gs, &id, to_the_death),
            GameAction::Equip { items } => game_systems::equip(gs, &id, items),
            GameAction::Drop { items } => game_systems::drop(gs, &id, items),
            GameAction::BuyItems { potions, items } => {
                let items: Vec<_> = items
                    .iter()
                    .map(|&(item_id, equip)| super::bindings::ItemPurchase { item_id, equip })
                    .collect();
                game_systems::buy_items(gs, &id, potions, &items)
            }
            GameAction::Upgrade { stats } => {
                game_systems::select_stat_upgrades(gs, &id, &convert::stats_to_abi(stats))
            }
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
    /// signed with (built under the write lock, so no other write of this account comes between).
    pub(super) async fn execute_planned(
        &self,
        plan: Plan,
        adventurer_id: Option<u64>,
        action: &str,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.policy
            .check_calls(plan.known_calls())
            .map_err(ChainError::Policy)?;
        let mut next_nonce = self.write_lock.lock().await;
        self.policy
            .check_rate(SystemTime::now())
            .map_err(ChainError::Policy)?;
        let mut resynced = false;
        let ((hash, bound), nonce) = loop {
            let nonce = match *next_nonce {
                Some(n) => n,
                None => read_with_retries(|| self.account.get_nonce())
                    .await
                    .map_err(|e| ChainError::from_provider(&e))?,
            };
            let sent = match self.build(&plan, nonce).await {
                Ok(calls) => {
                    self.policy
                        .check_calls(&calls)
                        .map_err(ChainError::Policy)?;
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
                    return Err(e);
                }
            }
        };
        *next_nonce = Some(nonce + Felt::ONE);
        self.track(hash, action, opts, Sent::Paid { bound }).await
    }

    /// Waits for a sent transaction at the requested confirmation level, records its status and
    /// (when the wallet pays) its fee against the budget, and reports its game events. The send
    /// is counted (at its fee bound) while the first receipt request is on its way.
    async fn track(
        &self,
        hash: Felt,
        action: &str,
        opts: WriteOptions,
        sent: Sent,
    ) -> Result<TxReport, ChainError> {
        let sent_at = SystemTime::now();
        let bound = match sent {
            Sent::Paid { bound } => bound,
            Sent::Sponsored => 0,
        };
        // The first receipt request goes out first; then, while it is out, the send is reported
        // and counted against the budgets (memory, at once; the journal's rows on its writer
        // thread).
        let bookkeeping = async {
            opts.hooks.report(Progress::Submitted { tx_hash: hash });
            tracing::info!(tx_hash = %format!("{hash:#x}"), action, "transaction sent");
            self.ledger.set_status(hash, "SENT");
            self.policy.record_sent(hash, bound, sent_at);
        };
        let (waited, ()) = tokio::join!(
            wait_for_receipt(
                &*self.provider,
                hash,
                opts.confirm,
                opts.timeout,
                self.poll,
                &opts.hooks,
                self.subscriber.as_ref(),
            ),
            bookkeeping
        );
        let paid = matches!(sent, Sent::Paid { .. });
        match waited {
            Ok(receipt) => {
                self.ledger
                    .set_status(hash, finality_name(receipt.receipt.finality_status()));
                let report = self.report(receipt)?;
                if paid {
                    self.policy.record_sent(hash, report.actual_fee, sent_at);
                }
                Ok(report)
            }
            Err(e) => {
                // The send stays counted at its fee bound until its receipt is known.
                let status = match &e {
                    ChainError::Revert { .. } => "REVERTED".to_string(),
                    ChainError::Timeout { last_status, .. }
                    | ChainError::Cancelled { last_status, .. } => last_status.clone(),
                    _ => "UNKNOWN".to_string(),
                };
                self.ledger.set_status(hash, &status);
                Err(e)
            }
        }
    }

    /// Estimates (a revert here costs nothing), signs with pinned gas bounds, records the hash
    /// and sends. After an uncertain send the hash is looked up before anything else happens.
    async fn sign_and_send(
        &self,
        calls: &[Call],
        nonce: Felt,
        adventurer_id: Option<u64>,
        action: &str,
        opts: &WriteOptions,
    ) -> Result<(Felt, u128), SendFailure> {
        let exec = self.account.execute_v3(calls.to_vec()).nonce(nonce).tip(0);
        let fee = exec
            .estimate_fee()
            .await
            .map_err(SendFailure::from_account)?;
        opts.hooks.report(Progress::Simulated {
            fee: fee.overall_fee,
        });
        let m = self.fee_multiplier;
        let scale_u64 = |v: u64| ((v as f64) * m).ceil() as u64;
        let scale_u128 = |v: u128| ((v as f64) * m).ceil() as u128;
        let exec = exec
            .l1_gas(scale_u64(fee.l1_gas_consumed).max(1))
            .l1_gas_price(scale_u128(fee.l1_gas_price))
            .l2_gas(scale_u64(fee.l2_gas_consumed))
            .l2_gas_price(scale_u128(fee.l2_gas_price))
            .l1_data_gas(scale_u64(fee.l1_data_gas_consumed))
            .l1_data_gas_price(scale_u128(fee.l1_data_gas_price));
        let max_fee = u128::from(scale_u64(fee.l1_gas_consumed).max(1))
            * scale_u128(fee.l1_gas_price)
            + u128::from(scale_u64(fee.l2_gas_consumed)) * scale_u128(fee.l2_gas_price)
            + u128::from(scale_u64(fee.l1_data_gas_consumed)) * scale_u128(fee.l1_data_gas_price);
        self.policy
            .check_fee(max_fee)
            .map_err(|d| SendFailure::Other(ChainError::Policy(d)))?;
        let prepared = exec
            .prepared()
            .map_err(|_| SendFailure::Other(ChainError::Rpc("incomplete transaction".into())))?;
        let hash = prepared.transaction_hash(false);
        // The record is committed on a blocking thread while the transaction is signed (its sync
        // to the disk follows on the journal's writer thread): both must be done before the send,
        // and neither needs the other.
        let ledger = self.ledger.clone();
        let name = action.to_string();
        let record = tokio::task::spawn_blocking(move || {
            ledger.record(hash, adventurer_id, &name, nonce, max_fee)
        });
        // Signed here from the hash just computed (the account would compute it again).
        let request = match prepared.get_invoke_request(false, true).await {
            Ok(mut request) => match self.signer.sign_hash(&hash).await {
                Ok(signature) => {
                    request.signature = vec![signature.r, signature.s];
                    Ok(request)
                }
                Err(e) => Err(e.to_string()),
            },
            Err(e) => Err(e.to_string()),
        };
        match record.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                return Err(SendFailure::Other(ChainError::Config(format!(
                    "not sent: {e}"
                ))));
            }
            Err(e) => {
                return Err(SendFailure::Other(ChainError::Config(format!(
                    "not sent: the journal could not record it: {e}"
                ))));
            }
        }
        let request = match request {
            Ok(request) => request,
            Err(e) => {
                self.ledger.set_status(hash, "SEND_FAILED");
                return Err(SendFailure::Other(ChainError::Signing(e)));
            }
        };
        self.send_signed(request, hash)
            .await
            .map(|hash| (hash, max_fee))
    }

    /// Sends a signed transaction; after an uncertain failure, asks the node whether it has it.
    async fn send_signed(
        &self,
        request: starknet::core::types::BroadcastedInvokeTransactionV3,
        hash: Felt,
    ) -> Result<Felt, SendFailure> {
        match self.provider.add_invoke_transaction(request).await {
            Ok(r) if r.transaction_hash == hash => Ok(hash),
            Ok(r) => Err(SendFailure::Other(ChainError::Decode(format!(
                "the node reports hash {:#x} for transaction {hash:#x}",
                r.transaction_hash
            )))),
            Err(ProviderError::StarknetError(StarknetError::DuplicateTx)) => Ok(hash),
            Err(e) => {
                let failure = SendFailure::from_account(
                    starknet::accounts::AccountError::<String>::Provider(e),
                );
                if let SendFailure::Other(ChainError::Rpc(_)) = &failure
                    && self.node_knows(hash).await
                {
                    tracing::info!(tx_hash = %format!("{hash:#x}"), "send looked failed but the node has it");
                    return Ok(hash);
                }
                self.ledger.set_status(hash, "SEND_FAILED");
                Err(failure)
            }
        }
    }

    /// Whether the node knows a transaction (looked up a few times, for lagging nodes).
    async fn node_knows(&self, hash: Felt) -> bool {
        for attempt in 0..3 {
            match self.provider.get_transaction_status(hash).await {
                Ok(_) => return true,
                Err(ProviderError::StarknetError(StarknetError::TransactionHashNotFound)) => {}
                Err(_) => {}
            }
            tokio::time::sleep(super::retry::backoff(attempt)).await;
        }
        false
    }

    /// Status, receipt and game events of a transaction, plus what this server recorded of it.
    pub async fn get_tx(&self, hash: Felt) -> Result<TxLookup, ChainError> {
        let record = self.ledger.get(hash);
        let status = read_with_retries(|| self.provider.get_transaction_status(hash)).await;
        let status = match status {
            Ok(s) => s,
            Err(ProviderError::StarknetError(StarknetError::TransactionHashNotFound)) => {
                return Ok(TxLookup {
                    record,
                    status: "NOT_RECEIVED".into(),
                    execution: None,
                    revert_reason: None,
                    report: None,
                });
            }
            Err(e) => return Err(ChainError::from_provider(&e)),
        };
        let (execution, revert_reason) = match execution_of(&status) {
            Some(ExecutionResult::Succeeded) => (Some("SUCCEEDED".to_string()), None),
            Some(ExecutionResult::Reverted { reason }) => (
                Some("REVERTED".to_string()),
                Some(super::revert::classify(reason).reason),
            ),
            None => (None, None),
        };
        let report = match execution.as_deref() {
            Some(_) => {
                let receipt = read_with_retries(|| self.provider.get_transaction_receipt(hash))
                    .await
                    .map_err(|e| ChainError::from_provider(&e))?;
                Some(self.report(receipt)?)
            }
            None => None,
        };
        Ok(TxLookup {
            record,
            status: status_name(&status).to_string(),
            execution,
            revert_reason,
            report,
        })
    }

    /// The account's balance of an ERC20 token (STRK, ETH), in its smallest unit.
    pub async fn balance_of(&self, token: Felt) -> Result<u128, ChainError> {
        let felts = self
            .call(super::bindings::erc20::balance_of(
                token,
                &self.account.address(),
            ))
            .await?;
        let v = super::bindings::erc20::decode_balance_of(&felts)
            .map_err(|e| ChainError::Decode(format!("balance_of: {e}")))?;
        Ok(if v.high() == 0 { v.low() } else { u128::MAX })
    }

    /// Address, chain, fee-token balances, policy and spending of the wallet.
    pub async fn wallet_report(&self) -> Result<WalletReport, ChainError> {
        let mut balances = Vec::new();
        for (symbol, token) in &self.fee_tokens {
            let amount = self.balance_of(*token).await?;
            balances.push(TokenBalance {
                token: symbol.clone(),
                address: token.to_fixed_hex_string(),
                amount: amount.to_string(),
                formatted: crate::wallet::format_strk(amount),
            });
        }
        Ok(WalletReport {
            account_address: format!("{:#x}", self.account.address()),
            chain_id: short_string(self.chain_id),
            balances,
            policy: self.policy.snapshot(),
            transactions_signed: self.ledger.len(),
        })
    }

    /// The wallet policy in force and what was spent.
    pub fn policy(&self) -> &PolicyGuard {
        &self.policy
    }

    /// The ledger of transactions signed by this account (the journal).
    pub fn ledger(&self) -> &TxLedger {
        &self.ledger
    }

    /// Reports these fee tokens in `ls_wallet` (the profile's `chain.fee_tokens`), in this order.
    pub fn with_fee_tokens(mut self, tokens: Vec<(String, Felt)>) -> Self {
        self.fee_tokens = tokens;
        self
    }

    /// Follows sent transactions as `follow` says (settings `tx.follow`, `tx.ws_url`); polling
    /// until this is called.
    pub fn with_follow(mut self, follow: super::Follow, ws_url: Option<&url::Url>) -> Self {
        self.subscriber = super::subscribe::Subscriber::new(follow, &self.rpc_url, ws_url);
        if let Some(s) = &self.subscriber {
            tracing::info!(endpoint = %s.url(), "sent transactions are watched by subscription");
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

    /// Keeps the ledger in `journal` (durable, shared with the policy's counters and replays).
    pub fn with_journal(mut self, journal: Arc<super::journal::Journal>) -> Self {
        self.ledger = TxLedger::new(journal);
        self
    }

    fn report(&self, r: TransactionReceiptWithBlockInfo) -> Result<TxReport, ChainError> {
        let TransactionReceipt::Invoke(inv) = &r.receipt else {
            return Err(ChainError::Decode("expected an invoke receipt".into()));
        };
        let emitters = self.addresses.event_emitters();
        let mut events = Vec::new();
        for e in &inv.events {
            if !emitters.contains(&e.from_address) {
                continue;
            }
            match decode_game_event(&e.keys, &e.data) {
                Ok(Some(ev)) => events.push(ev),
                Ok(None) => {}
                Err(err) => {
                    return Err(ChainError::Decode(format!("game event: {err}")));
                }
            }
        }
        Ok(TxReport {
            tx_hash: inv.transaction_hash,
            status: finality_name(&inv.finality_status),
            block_number: r.block.block_number().into(),
            actual_fee: inv.actual_fee.amount.try_into().unwrap_or(u128::MAX),
            events,
            raw_events: inv.events.clone(),
        })
    }
}

/// The fee tokens `ls_wallet` reports unless the profile names others (same addresses on mainnet,
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

/// One fee-token balance.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TokenBalance {
    /// Token symbol.
    pub token: String,
    /// Token contract address.
    pub address: String,
    /// Balance in the smallest unit (FRI, wei), as a decimal string.
    pub amount: String,
    /// Balance in whole tokens (18 decimals).
    pub formatted: String,
}

/// What `ls_wallet` reports about the signing account.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct WalletReport {
    /// The account contract address.
    pub account_address: String,
    /// The node's chain id (short string when printable).
    pub chain_id: String,
    /// Fee-token balances.
    pub balances: Vec<TokenBalance>,
    /// The policy in force and what this server run spent.
    pub policy: crate::wallet::PolicySnapshot,
    /// Transactions signed by this account (every run in the journal).
    pub transactions_signed: usize,
}

/// What a transaction lookup found.
#[derive(Debug, Clone)]
pub struct TxLookup {
    /// What this server recorded when it signed the transaction (None: not sent by this run).
    pub record: Option<TxRecord>,
    /// `NOT_RECEIVED`, `RECEIVED`, `PRE_CONFIRMED`, `ACCEPTED_ON_L2`, `ACCEPTED_ON_L1`.
    pub status: String,
    /// `SUCCEEDED` or `REVERTED` once executed.
    pub execution: Option<String>,
    /// The game's reason when reverted.
    pub revert_reason: Option<String>,
    /// Receipt details and decoded game events once executed.
    pub report: Option<TxReport>,
}

/// Who pays for a sent transaction.
#[derive(Debug, Clone, Copy)]
enum Sent {
    /// The wallet, at most `bound` (counted against the budget until the receipt gives the fee).
    Paid { bound: u128 },
    /// The Cartridge paymaster (an outside execution): counted for the rate limit only.
    Sponsored,
}

/// Why a send did not happen.
enum SendFailure {
    /// The nonce was stale: re-read it and try again.
    Nonce,
    /// Anything else.
    Other(ChainError),
}

impl SendFailure {
    /// A stale nonce, whether the send refused it or the simulation before it did (another client
    /// of the same account moved it on), else the error itself.
    fn from_chain(e: ChainError) -> Self {
        let stale = match &e {
            ChainError::Rpc(m) => m.to_lowercase().contains("nonce"),
            ChainError::Revert {
                revert,
                tx_hash: None,
            } => {
                // devnet says "Account transaction nonce is invalid." at the estimate and
                // "Invalid transaction nonce of contract …" at a simulation; the game never
                // speaks of nonces.
                let reason = revert.reason.to_lowercase();
                reason.contains("nonce") && reason.contains("invalid")
            }
            _ => false,
        };
        if stale {
            SendFailure::Nonce
        } else {
            SendFailure::Other(e)
        }
    }

    fn from_account<S: std::fmt::Display>(e: starknet::accounts::AccountError<S>) -> Self {
        match e {
            starknet::accounts::AccountError::Provider(ProviderError::StarknetError(
                StarknetError::InvalidTransactionNonce(_),
            )) => SendFailure::Nonce,
            starknet::accounts::AccountError::Provider(p) => {
                SendFailure::from_chain(ChainError::from_provider(&p))
            }
            starknet::accounts::AccountError::Signing(s) => {
                SendFailure::Other(ChainError::Signing(s.to_string()))
            }
            other => SendFailure::Other(ChainError::Rpc(super::redact_urls(&other.to_string()))),
        }
    }
}

/// The entrypoint name of an action, for the ledger and logs.
pub fn action_name(action: &GameAction) -> &'static str {
    match action {
        GameAction::StartGame { .. } => "start_game",
        GameAction::Explore { .. } => "explore",
        GameAction::Attack { .. } => "attack",
        GameAction::Flee { .. } => "flee",
        GameAction::Equip { .. } => "equip",
        GameAction::Drop { .. } => "drop",
        GameAction::BuyItems { .. } => "buy_items",
        GameAction::Upgrade { .. } => "select_stat_upgrades",
    }
}

fn short_string(f: Felt) -> String {
    starknet::core::utils::parse_cairo_short_string(&f).unwrap_or_else(|_| format!("{f:#x}"))
}
