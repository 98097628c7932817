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
use crate::deployment::{Deployment, Generation};
use crate::retry::read_with_retries;
use crate::{ChainError, GameAddresses, convert};
use game::events::decode_game_event;
use game::model::{Adventurer, GameState};

/// Reads the game on one chain.
#[derive(Clone)]
pub struct ChainReader {
    pub(super) provider: Rpc,
    deployment: Arc<Deployment>,
    /// The v1-shaped address view (for a v2 deployment: GameCore in the systems' places, the
    /// GameToken as the token systems, no world and no dungeon).
    addresses: GameAddresses,
    chain_id: Felt,
    /// The game token contract, once read (shared by every clone).
    token: Arc<OnceLock<Felt>>,
    /// v2: adventurers' events of GameCore's earlier envelope, once read.
    pub(super) legacy: Arc<super::reader_v2::LegacyEvents>,
}

impl ChainReader {
    pub(super) fn new(provider: Rpc, deployment: Deployment, chain_id: Felt) -> Self {
        let addresses = match &deployment {
            Deployment::V1(a) => a.clone(),
            Deployment::V2(c) => GameAddresses {
                world: None,
                game_systems: c.game_core,
                adventurer_systems: c.game_core,
                game_token_systems: c.game_token,
                settings_systems: c.game_core,
                dungeon: None,
                ticket: None,
                golden_pass: None,
            },
        };
        let token = Arc::new(OnceLock::new());
        if let Deployment::V2(c) = &deployment {
            let _ = token.set(c.denshokan);
        }
        Self {
            provider,
            deployment: Arc::new(deployment),
            addresses,
            chain_id,
            token,
            legacy: Arc::default(),
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

    /// The game's contract addresses (for a v2 deployment, the v1-shaped view: GameCore stands in
    /// for the systems, GameToken for the token systems).
    pub fn addresses(&self) -> &GameAddresses {
        &self.addresses
    }

    /// Calls a view at the pre-confirmed block and returns the raw felts (transient failures retried).
    pub(super) async fn call(&self, call: Call) -> Result<Vec<Felt>, ChainError> {
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

    /// The full (item-boosted) game state of an adventurer: v1's `get_game_state`, or v2's
    /// `load_assets` with the beast and market of its newest events.
    pub async fn game_state(&self, adventurer_id: AdventurerId) -> Result<GameState, ChainError> {
        if let Deployment::V2(c) = &*self.deployment {
            return self.v2_game_state(c, adventurer_id).await;
        }
        let call = game_systems::get_game_state(
            self.addresses.game_systems,
            &convert::v1_id(adventurer_id)?,
        );
        let raw = self
            .view("get_game_state", call, game_systems::decode_get_game_state)
            .await?;
        convert::game_state(raw)
    }

    /// The stored (unboosted) adventurer: v1's `get_adventurer` (GameCore has no such view).
    pub async fn stored_adventurer(
        &self,
        adventurer_id: AdventurerId,
    ) -> Result<Adventurer, ChainError> {
        if let Deployment::V2(_) = &*self.deployment {
            return Err(ChainError::Unsupported {
                action: "get_adventurer",
                generation: Generation::V2,
            });
        }
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

    /// The Denshokan token contract of this world: v1's `token_address`, v2's Denshokan.
    pub async fn token_address(&self) -> Result<Felt, ChainError> {
        if let Deployment::V2(c) = &*self.deployment {
            return Ok(c.denshokan);
        }
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
        let events = match &*self.deployment {
            Deployment::V1(a) => v1_events(&a.event_emitters(), &inv.events)?,
            Deployment::V2(c) => super::reader_v2::receipt_events(c, &inv.events)?,
        };
        Ok(TxReport {
            tx_hash: inv.transaction_hash,
            status: (&inv.finality_status).into(),
            block_number: r.block.block_number().into(),
            actual_fee: inv.actual_fee.amount.try_into().unwrap_or(u128::MAX),
            events,
            raw_events: inv.events.clone(),
        })
    }

    /// Checks that the deployment's game address answers as the profile's generation: a v2
    /// GameCore answers `load_assets` (one call); a v1 world's game_systems does not (and, when
    /// a v2 profile meets one, answers `get_game_state`: a second call, to name it).
    pub(super) async fn check_generation(&self) -> Result<(), ChainError> {
        let at = self.deployment.game_address();
        let expected = self.deployment.generation();
        let v2 = self
            .answers(crate::bindings::v2::game_core::load_assets(at, &Felt::ZERO))
            .await;
        let found = match (expected, v2) {
            (Generation::V2, true) | (Generation::V1, false) => return Ok(()),
            (Generation::V1, true) => Generation::V2,
            (Generation::V2, false) => {
                if !self.answers(game_systems::get_game_state(at, &0)).await {
                    return Err(ChainError::Config(format!(
                        "the profile says v2 but {at:#x} answers neither GameCore's load_assets \
                         nor a Dojo world's get_game_state"
                    )));
                }
                Generation::V1
            }
        };
        Err(ChainError::GenerationMismatch {
            expected,
            found,
            address: at,
        })
    }

    /// Whether the contract has the entrypoint `call` names: it answers, or it fails inside the
    /// entrypoint (anything but "entry point not found" and node errors).
    async fn answers(&self, call: Call) -> bool {
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

/// The v1 game events among a receipt's events: those of the world or game systems, in order.
fn v1_events(
    emitters: &[Felt],
    raw: &[starknet::core::types::Event],
) -> Result<Vec<game::events::GameEvent>, ChainError> {
    let mut events = Vec::new();
    for e in raw {
        if !emitters.contains(&e.from_address) {
            continue;
        }
        match decode_game_event(&e.keys, &e.data) {
            Ok(Some(ev)) => events.push(ev),
            Ok(None) => {}
            Err(err) => return Err(ChainError::Decode(format!("game event: {err}"))),
        }
    }
    Ok(events)
}
