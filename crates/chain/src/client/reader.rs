//! The read half of the chain client: views through the generated bindings at the pre-confirmed
//! block, and receipts decoded into game events. It holds no account and signs nothing.

use game::AdventurerId;
use std::sync::{Arc, OnceLock};

use starknet::core::types::{
    BlockId, BlockTag, Call, Felt, FunctionCall, TransactionReceipt,
    TransactionReceiptWithBlockInfo,
};
use starknet::providers::Provider;

use super::{Rpc, TxReport};
use crate::bindings::{adventurer_systems, game_systems, game_token_systems};
use crate::retry::read_with_retries;
use crate::{ChainError, GameAddresses, convert};
use game::events::decode_game_event;
use game::model::{Adventurer, GameState};

/// Reads the game on one chain.
#[derive(Clone)]
pub struct ChainReader {
    pub(super) provider: Rpc,
    addresses: GameAddresses,
    chain_id: Felt,
    /// The game token contract, once read (shared by every clone).
    token: Arc<OnceLock<Felt>>,
}

impl ChainReader {
    pub(super) fn new(provider: Rpc, addresses: GameAddresses, chain_id: Felt) -> Self {
        Self {
            provider,
            addresses,
            chain_id,
            token: Arc::new(OnceLock::new()),
        }
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
    pub(super) async fn view<T, E: std::fmt::Display>(
        &self,
        name: &str,
        call: Call,
        decode: impl FnOnce(&[Felt]) -> Result<T, E>,
    ) -> Result<T, ChainError> {
        let felts = self.call(call).await?;
        decode(&felts).map_err(|e| ChainError::Decode(format!("{name}: {e}")))
    }

    /// The full (item-boosted) game state of an adventurer: `get_game_state`.
    pub async fn game_state(&self, adventurer_id: AdventurerId) -> Result<GameState, ChainError> {
        let call = game_systems::get_game_state(
            self.addresses.game_systems,
            &convert::v1_id(adventurer_id)?,
        );
        let raw = self
            .view("get_game_state", call, game_systems::decode_get_game_state)
            .await?;
        convert::game_state(raw)
    }

    /// The stored (unboosted) adventurer: `get_adventurer`.
    pub async fn stored_adventurer(
        &self,
        adventurer_id: AdventurerId,
    ) -> Result<Adventurer, ChainError> {
        let call = adventurer_systems::get_adventurer(
            self.addresses.adventurer_systems,
            &convert::v1_id(adventurer_id)?,
        );
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
    pub async fn owner_of(&self, adventurer_id: AdventurerId) -> Result<Option<Felt>, ChainError> {
        let token = match self.cached_token_address().await {
            Some(t) => t,
            None => self.token_address().await?,
        };
        let (low, high) = adventurer_id.u256_words();
        let id = starknet::core::types::U256::from_words(low, high);
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

    /// The token contract's address, read once per run (it never changes); `None` if the read
    /// fails (the token id is then taken from the first matching event of any contract).
    pub(crate) async fn cached_token_address(&self) -> Option<Felt> {
        if let Some(t) = self.token.get() {
            return Some(*t);
        }
        let t = self.token_address().await.ok()?;
        let _ = self.token.set(t);
        Some(t)
    }

    /// A receipt as a [`TxReport`]: its game events (from the game's emitters) decoded in order.
    pub(super) fn report(
        &self,
        r: TransactionReceiptWithBlockInfo,
    ) -> Result<TxReport, ChainError> {
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
            status: (&inv.finality_status).into(),
            block_number: r.block.block_number().into(),
            actual_fee: inv.actual_fee.amount.try_into().unwrap_or(u128::MAX),
            events,
            raw_events: inv.events.clone(),
        })
    }
}
