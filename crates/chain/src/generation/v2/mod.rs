//! The second generation: GameCore, GameToken, Denshokan and a VRF provider, no Torii
//! (docs/generations.md).

use async_trait::async_trait;
use starknet::core::types::{Call, Event, Felt};

use super::reads::ChainReads;
use super::{
    ActContext, CheckTarget, EventSource, GameGeneration, Generation, IndexSource, NewGamePlan,
    VrfRule,
};
use crate::bindings::{self, Entrypoint};
use crate::entry::{EntryAddresses, Player};
use crate::{ChainError, Misconfigured, vrf};
use game::AdventurerId;
use game::engine::Action;
use game::events::GameEvent;
use game::model::{Adventurer, GameState};

mod act;
mod calls;
pub mod contracts;
pub(crate) mod history;

pub use contracts::{SaltRecipe, V2Contracts, VrfSource};

/// This generation's name.
pub(crate) const GENERATION: Generation = Generation::V2;

#[async_trait]
impl GameGeneration for V2Contracts {
    fn generation(&self) -> Generation {
        GENERATION
    }

    fn game_address(&self) -> Felt {
        self.game_core
    }

    fn signable_entrypoints(&self) -> Vec<(Felt, Felt)> {
        V2Contracts::signable_entrypoints(self)
    }

    fn action_call(&self, id: AdventurerId, action: &Action) -> Result<Call, ChainError> {
        if let Action::Batch(parts) = action {
            return Err(ChainError::Invalid(crate::Unservable::Batch(
                game::engine::BatchError::Size(parts.len()),
            )));
        }
        Ok(calls::action_call(self.game_core, id, action))
    }

    fn mint_call(&self, settings_id: u32, player: &Player) -> Call {
        calls::mint_call(self, settings_id, player.name, player.address)
    }

    fn new_game_plan(&self) -> NewGamePlan {
        NewGamePlan::MintThenStart
    }

    fn needs_state_to_act(&self, _ctx: ActContext, action: &Action) -> bool {
        vrf::v2_needs_state(self.vrf_source, action)
    }

    fn action_calls(
        &self,
        ctx: ActContext,
        id: AdventurerId,
        action: &Action,
        before: Option<&Adventurer>,
    ) -> Result<Vec<Call>, ChainError> {
        super::batch_calls(id, action, before, |part, at| {
            let call = self.action_call(id, part)?;
            act::action_calls(self, ctx.account, id, part, at, call)
        })
    }

    async fn check_generation(&self, reader: &dyn ChainReads) -> Result<(), ChainError> {
        let at = self.game_core;
        if reader
            .answers(bindings::v2::game_core::load_assets(at, &Felt::ZERO))
            .await
        {
            return Ok(());
        }
        if !reader
            .answers(bindings::game_systems::get_game_state(at, &0))
            .await
        {
            return Err(ChainError::Config(Misconfigured::NoGame {
                expected: GENERATION,
                address: at,
            }));
        }
        Err(ChainError::GenerationMismatch {
            expected: GENERATION,
            found: Generation::V1,
            address: at,
        })
    }

    async fn game_state(
        &self,
        reader: &dyn ChainReads,
        id: AdventurerId,
    ) -> Result<GameState, ChainError> {
        history::V2Reads(reader).v2_game_state(self, id).await
    }

    async fn stored_adventurer(
        &self,
        _reader: &dyn ChainReads,
        _id: AdventurerId,
    ) -> Result<Adventurer, ChainError> {
        Err(ChainError::Unsupported {
            action: "get_adventurer",
            generation: GENERATION,
        })
    }

    async fn token_address(&self, _reader: &dyn ChainReads) -> Result<Felt, ChainError> {
        Ok(self.denshokan)
    }

    fn known_token(&self) -> Option<Felt> {
        Some(self.denshokan)
    }

    async fn game_history(
        &self,
        reader: &dyn ChainReads,
        id: AdventurerId,
    ) -> Result<Vec<GameEvent>, ChainError> {
        history::V2Reads(reader).history(self, id).await
    }

    fn receipt_events(&self, raw: &[Event]) -> Result<Vec<GameEvent>, ChainError> {
        history::receipt_events(self, raw)
    }

    /// GameCore's `GameEvent`s, of either envelope.
    fn event_source(&self) -> EventSource {
        EventSource {
            address: self.game_core,
            keys: vec![vec![game::v2::GAME_CORE_EVENT_SELECTOR]],
        }
    }

    fn receipts_count_actions(&self) -> bool {
        // GameCore's events carry no action count: it is read from the history.
        false
    }

    fn dungeon_entries(&self, _settings_id: u32) -> Option<EntryAddresses> {
        // The dungeons' v2 calldata is not public.
        None
    }

    fn policy_guard(
        &self,
        policy: &wallet::PolicySettings,
        _chain_vrf: bool,
        account: Felt,
    ) -> wallet::PolicyGuard {
        // Exactly the VRF request the source asks for: none when off or unset.
        let (requests, form) = match self.vrf_source {
            Some(VrfSource::Nonce) => (true, wallet::VrfForm::Nonce(account)),
            Some(VrfSource::Salt(_)) => (true, wallet::VrfForm::Salt),
            Some(VrfSource::Off) | None => (false, wallet::VrfForm::Salt),
        };
        let vrf = policy.vrf_enabled(requests);
        wallet::PolicyGuard::new(policy, vrf, self.signable_entrypoints()).with_vrf(
            self.vrf_provider,
            form,
            Some(self.vrf_caller()),
        )
    }

    fn ticket_approve(&self) -> Option<wallet::TicketApprove> {
        None
    }

    fn session_extra_pairs(&self, vrf: bool) -> Vec<(Felt, &'static str)> {
        if vrf {
            vec![(self.vrf_provider, "request_random")]
        } else {
            Vec::new()
        }
    }

    fn session_uses_vrf(&self, _chain_vrf: bool) -> bool {
        // An unset source may be set later, and a session approved without the request could
        // not follow it.
        self.vrf_source != Some(VrfSource::Off)
    }

    fn contract_names(&self) -> Vec<(Felt, &'static str)> {
        vec![
            (self.game_core, "Game Core (v2)"),
            (self.game_token, "Game Token (v2)"),
            (self.vrf_provider, "VRF Provider"),
        ]
    }

    fn vrf_rule(&self) -> VrfRule<'_> {
        VrfRule::Read(self)
    }

    fn index_source(&self) -> IndexSource<'_> {
        IndexSource::Denshokan {
            minter: self.minter.or(self.dungeon),
        }
    }

    fn check_targets(&self) -> Vec<CheckTarget> {
        let t = |role, address, suffix| CheckTarget {
            role,
            address,
            suffix,
        };
        let mut out = vec![
            t("game_core", self.game_core, Some("game")),
            t("game_token", self.game_token, Some("token")),
            t("denshokan", self.denshokan, Some("denshokan")),
            t("vrf_provider", self.vrf_provider, Some("vrf")),
        ];
        out.extend(self.dungeon.map(|d| t("dungeon", d, None)));
        out
    }

    fn entrypoints(&self) -> &'static [Entrypoint] {
        bindings::v2::ENTRYPOINTS
    }

    fn unchecked(&self, _suffix: &str, _name: &str) -> bool {
        false
    }

    fn abis(&self) -> &'static str {
        bindings::v2::ABIS
    }

    fn src5_token(&self) -> Option<Felt> {
        Some(self.denshokan)
    }
}
