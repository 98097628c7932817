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
use crate::bindings::game_token_systems;
use crate::gate::GateCell;
use crate::generation::Deployment;
use crate::generation::reads::{ChainReads, KeptEvents};
use crate::retry::read_with_retries;
use crate::{BadAnswer, ChainError};
use game::events::GameEvent;
use game::model::{Adventurer, GameState};

/// Reads the game on one chain.
#[derive(Clone)]
pub struct ChainReader {
    pub(crate) provider: Rpc,
    deployment: Arc<Deployment>,
    chain_id: Felt,
    /// The game token contract, once read (shared by every clone).
    token: Arc<OnceLock<Felt>>,
    /// v2: adventurers' events of GameCore's earlier envelope, once read.
    pub(crate) kept: Arc<KeptEvents>,
    /// The ABI check's gate, shared with the write pipeline.
    pub(crate) abi: Arc<GateCell>,
}

impl ChainReader {
    pub(super) fn new(provider: Rpc, deployment: Deployment, chain_id: Felt) -> Self {
        let token = Arc::new(OnceLock::new());
        if let Some(t) = deployment.game().known_token() {
            let _ = token.set(t);
        }
        Self {
            provider,
            deployment: Arc::new(deployment),
            chain_id,
            token,
            kept: Arc::default(),
            abi: Arc::default(),
        }
    }

    /// The deployment this reader reads: its generation and contracts.
    pub fn deployment(&self) -> &Deployment {
        &self.deployment
    }

    /// The node's chain id.
    pub fn chain_id(&self) -> Felt {
        self.chain_id
    }

    /// The chain's clock: the latest block's timestamp (unix seconds).
    pub async fn chain_time(&self) -> Result<u64, ChainError> {
        use starknet::core::types::MaybePreConfirmedBlockWithTxHashes as B;
        let block = read_with_retries(|| {
            self.provider
                .get_block_with_tx_hashes(BlockId::Tag(BlockTag::Latest))
        })
        .await
        .map_err(ChainError::from_provider)?;
        Ok(match block {
            B::Block(b) => b.timestamp,
            B::PreConfirmedBlock(b) => b.timestamp,
        })
    }

    /// Refuses an action on a game whose token says it cannot be played now by the chain's clock
    /// (not started, or expired), before anything is built or signed; the clock is read only for
    /// tokens with a start delay or an end.
    pub async fn check_playable(&self, adventurer_id: AdventurerId) -> Result<(), ChainError> {
        let fields = game::token_fields::TokenFields::of(adventurer_id);
        if !fields.is_packed() || (fields.start_delay == 0 && fields.end_delay == 0) {
            return Ok(());
        }
        let now = self.chain_time().await?;
        match fields.unplayable_at(now) {
            Some(why) => Err(ChainError::Unplayable {
                adventurer_id,
                why,
                now,
            }),
            None => Ok(()),
        }
    }

    /// Calls a view at the pre-confirmed block and returns the raw felts (transient failures retried).
    /// A view the ABI check found different is refused before its answer is read.
    pub(crate) async fn call(&self, call: Call) -> Result<Vec<Felt>, ChainError> {
        self.abi.current().check_call(&call)?;
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
    pub(crate) async fn view<T>(
        &self,
        name: &'static str,
        call: Call,
        decode: impl FnOnce(&[Felt]) -> Result<T, starknet::core::codec::Error>,
    ) -> Result<T, ChainError> {
        crate::generation::reads::view(self, name, call, decode).await
    }

    /// The full (item-boosted) game state of an adventurer: v1's `get_game_state`, or v2's
    /// `load_assets` with the beast and market of its newest events.
    pub async fn game_state(&self, adventurer_id: AdventurerId) -> Result<GameState, ChainError> {
        self.deployment.game().game_state(self, adventurer_id).await
    }

    /// The stored (unboosted) adventurer: v1's `get_adventurer` (GameCore has no such view).
    pub async fn stored_adventurer(
        &self,
        adventurer_id: AdventurerId,
    ) -> Result<Adventurer, ChainError> {
        self.deployment
            .game()
            .stored_adventurer(self, adventurer_id)
            .await
    }

    /// The Denshokan token contract of this world: v1's `token_address`, v2's Denshokan.
    pub async fn token_address(&self) -> Result<Felt, ChainError> {
        self.deployment.game().token_address(self).await
    }

    /// The adventurer's game events in chain order, where the generation keeps them on chain
    /// (v2's GameCore events, each with its transaction's ordinal as its action count).
    pub async fn game_history(
        &self,
        adventurer_id: AdventurerId,
    ) -> Result<Vec<GameEvent>, ChainError> {
        self.deployment
            .game()
            .game_history(self, adventurer_id)
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
            return Err(ChainError::Decode(BadAnswer::NotInvoke));
        };
        let game = self.deployment.game();
        let events = game.receipt_events(&inv.events)?;
        Ok(TxReport {
            tx_hash: inv.transaction_hash,
            status: (&inv.finality_status).into(),
            block_number: r.block.block_number().into(),
            actual_fee: inv.actual_fee.amount.try_into().unwrap_or(u128::MAX),
            events,
            counts_actions: game.receipts_count_actions(),
            raw_events: inv.events.clone(),
        })
    }

    /// Checks that the deployment's game address answers as the profile's generation.
    pub(super) async fn check_generation(&self) -> Result<(), ChainError> {
        self.deployment.game().check_generation(self).await
    }

    /// Whether the contract has the entrypoint `call` names: it answers, or it fails inside the
    /// entrypoint (anything but "entry point not found" and node errors).
    pub(crate) async fn answers(&self, call: Call) -> bool {
        let request = FunctionCall {
            contract_address: call.to,
            entry_point_selector: call.selector,
            calldata: call.calldata,
        };
        match self
            .provider
            .call(request, BlockId::Tag(BlockTag::PreConfirmed))
            .await
        {
            Ok(_) => true,
            Err(starknet::providers::ProviderError::StarknetError(
                starknet::core::types::StarknetError::ContractError(data),
            )) => {
                let text = format!("{:?}", data.revert_error).to_lowercase();
                !(text.contains("entrypoint_not_found")
                    || (text.contains("entry point") && text.contains("not found")))
            }
            Err(_) => false,
        }
    }
}

#[async_trait::async_trait]
impl ChainReads for ChainReader {
    fn provider(&self) -> &Rpc {
        &self.provider
    }

    fn chain_id(&self) -> Felt {
        self.chain_id
    }

    async fn call(&self, call: Call) -> Result<Vec<Felt>, ChainError> {
        ChainReader::call(self, call).await
    }

    async fn answers(&self, call: Call) -> bool {
        ChainReader::answers(self, call).await
    }

    fn kept_events(&self) -> &KeptEvents {
        &self.kept
    }
}
