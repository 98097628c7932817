//! The chain client: reads game state through the bindings and sends game actions from the
//! wallet's account, one write at a time, with a fee estimate (simulation) before every send.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use starknet::accounts::{Account, ConnectedAccount, ExecutionEncoding, SingleOwnerAccount};
use starknet::core::types::{
    BlockId, BlockTag, Call, Event, Felt, FunctionCall, TransactionReceipt,
    TransactionReceiptWithBlockInfo,
};
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};

use super::bindings::{adventurer_systems, game_systems, game_token_systems};
use super::submit::{Confirm, finality_name, wait_for_receipt};
use super::{ChainError, GameAddresses, convert};
use crate::game::events::{GameEvent, decode_game_event};
use crate::game::model::{GameState, Stats};
use crate::wallet::SecretSigner;

type Rpc = Arc<JsonRpcClient<HttpTransport>>;
type WalletAccount = SingleOwnerAccount<Rpc, Arc<SecretSigner>>;

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

/// Confirmation and timing of one write.
#[derive(Debug, Clone, Copy)]
pub struct WriteOptions {
    /// Required confirmation level.
    pub confirm: Confirm,
    /// How long to wait for it.
    pub timeout: Duration,
}

/// Reads and writes the game on one chain with one account.
pub struct ChainClient {
    provider: Rpc,
    account: WalletAccount,
    addresses: GameAddresses,
    settings_id: u32,
    chain_id: Felt,
    poll: Duration,
    fee_multiplier: f64,
    write_lock: tokio::sync::Mutex<()>,
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
        let provider = provider(opts.rpc_url, opts.request_timeout)?;
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
            opts.signer,
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
            write_lock: tokio::sync::Mutex::new(()),
        })
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

    /// Calls a view at the pre-confirmed block and returns the raw felts.
    async fn call(&self, call: Call) -> Result<Vec<Felt>, ChainError> {
        self.provider
            .call(
                FunctionCall {
                    contract_address: call.to,
                    entry_point_selector: call.selector,
                    calldata: call.calldata,
                },
                BlockId::Tag(BlockTag::PreConfirmed),
            )
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

    /// Mints a new game token to the wallet and returns its id (read from the receipt).
    pub async fn mint_game(
        &self,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(u64, TxReport), ChainError> {
        let call = game_token_systems::mint_game(
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
        );
        let report = self.execute(vec![call], opts).await?;
        let token = self.token_address().await.ok();
        let id = token_id_from_events(&report.raw_events, token).ok_or_else(|| {
            ChainError::Decode(format!(
                "mint transaction {:#x} carries no token id",
                report.tx_hash
            ))
        })?;
        Ok((id, report))
    }

    /// Signs and sends one game action and waits for it.
    pub async fn act(
        &self,
        adventurer_id: u64,
        action: &GameAction,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.execute(vec![self.action_call(adventurer_id, action)], opts)
            .await
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

    /// Simulates (fee estimate), signs, sends and waits; one write at a time for this account.
    async fn execute(&self, calls: Vec<Call>, opts: WriteOptions) -> Result<TxReport, ChainError> {
        let _guard = self.write_lock.lock().await;
        let nonce = self
            .account
            .get_nonce()
            .await
            .map_err(|e| ChainError::from_provider(&e))?;
        let exec = self.account.execute_v3(calls).nonce(nonce).tip(0);
        let fee = exec.estimate_fee().await.map_err(account_error)?;
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
        let sent = exec.send().await.map_err(account_error)?;
        let hash = sent.transaction_hash;
        tracing::info!(tx_hash = %format!("{hash:#x}"), "transaction sent");
        let receipt =
            wait_for_receipt(&*self.provider, hash, opts.confirm, opts.timeout, self.poll).await?;
        self.report(receipt)
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

fn account_error<S: std::fmt::Display>(e: starknet::accounts::AccountError<S>) -> ChainError {
    match e {
        starknet::accounts::AccountError::Provider(p) => ChainError::from_provider(&p),
        starknet::accounts::AccountError::Signing(s) => ChainError::Signing(s.to_string()),
        other => ChainError::Rpc(super::redact_urls(&other.to_string())),
    }
}

/// Finds the new token id in a mint receipt: the Denshokan token-metadata event (14 data felts,
/// id at `data[1]`), else an ERC721 `Transfer` from the zero address emitted by the token contract.
pub fn token_id_from_events(events: &[Event], token: Option<Felt>) -> Option<u64> {
    let to_u64 = |f: &Felt| u64::try_from(*f).ok();
    if let Some(e) = events.iter().find(|e| e.data.len() == 14) {
        return to_u64(&e.data[1]);
    }
    let transfer = starknet::macros::selector!("Transfer");
    events
        .iter()
        .filter(|e| token.is_none_or(|t| e.from_address == t))
        .find(|e| e.keys.len() == 5 && e.keys[0] == transfer && e.keys[1] == Felt::ZERO)
        .and_then(|e| to_u64(&e.keys[3]))
}

fn short_string(f: Felt) -> String {
    starknet::core::utils::parse_cairo_short_string(&f).unwrap_or_else(|_| format!("{f:#x}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(from: u64, keys: Vec<Felt>, data: Vec<Felt>) -> Event {
        Event {
            from_address: Felt::from(from),
            keys,
            data,
        }
    }

    #[test]
    fn token_id_from_metadata_event() {
        let mut data = vec![Felt::ZERO; 14];
        data[1] = Felt::from(42u8);
        let events = vec![event(1, vec![Felt::ONE], data)];
        assert_eq!(token_id_from_events(&events, None), Some(42));
    }

    #[test]
    fn token_id_from_transfer_event_of_the_token_contract() {
        let sel = starknet::macros::selector!("Transfer");
        let keys = vec![
            sel,
            Felt::ZERO,
            Felt::from(9u8),
            Felt::from(7u8),
            Felt::ZERO,
        ];
        let events = vec![
            event(5, keys.clone(), vec![]),
            event(
                6,
                vec![sel, Felt::ZERO, Felt::ONE, Felt::from(8u8), Felt::ZERO],
                vec![],
            ),
        ];
        assert_eq!(
            token_id_from_events(&events, Some(Felt::from(6u8))),
            Some(8)
        );
        assert_eq!(token_id_from_events(&events, None), Some(7));
        assert_eq!(token_id_from_events(&[], None), None);
    }
}
