//! The first generation: the Dojo world `ls_0_0_9`, its game, adventurer, token and settings
//! systems, events through the world, Cartridge VRF with the world's own salts, Torii.

use async_trait::async_trait;
use starknet::core::types::{Call, Event, Felt};

use super::reads::{ChainReads, view};
use super::{
    ActContext, CheckTarget, EventSource, GameGeneration, Generation, IndexSource, NewGamePlan,
    VrfRule,
};
use crate::bindings::{self, Entrypoint, adventurer_systems, game_systems, game_token_systems};
use crate::entry::{EntryAddresses, Player};
use crate::{BadAnswer, ChainError, GameAddresses, Unservable, convert, vrf};
use game::AdventurerId;
use game::engine::Action;
use game::events::{EVENT_EMITTED_SELECTOR, GAME_EVENT_SELECTOR, GameEvent, decode_game_event};
use game::model::{Adventurer, GameState};

mod calls;

/// This generation's name, as the errors about its entrypoints give it.
pub const GENERATION: Generation = Generation::V1;

#[async_trait]
impl GameGeneration for GameAddresses {
    fn generation(&self) -> Generation {
        GENERATION
    }

    fn game_address(&self) -> Felt {
        self.game_systems
    }

    fn signable_entrypoints(&self) -> Vec<(Felt, Felt)> {
        GameAddresses::signable_entrypoints(self)
    }

    fn action_call(&self, id: AdventurerId, action: &Action) -> Result<Call, ChainError> {
        calls::action_call(self.game_systems, id, action)
    }

    fn mint_call(&self, settings_id: u32, player: &Player) -> Call {
        crate::entry::mint_call(self.game_token_systems, settings_id, player)
    }

    fn new_game_plan(&self) -> NewGamePlan {
        NewGamePlan::OneMulticall
    }

    fn needs_state_to_act(&self, ctx: ActContext, action: &Action) -> bool {
        ctx.chain_vrf && vrf::may_need_randomness(action)
    }

    fn action_calls(
        &self,
        ctx: ActContext,
        id: AdventurerId,
        action: &Action,
        before: Option<&Adventurer>,
    ) -> Result<Vec<Call>, ChainError> {
        if let Action::Batch(_) = action {
            return super::batch_calls(id, action, before, |part, at| {
                self.action_calls(ctx, id, part, at)
            });
        }
        let call = self.action_call(id, action)?;
        if !self.needs_state_to_act(ctx, action) {
            return Ok(vec![call]);
        }
        let before = before.ok_or(ChainError::Invalid(Unservable::NeedsState {
            action: action.entrypoint(),
        }))?;
        Ok(vrf::bundle(self.game_systems, id, before, action, call).0)
    }

    async fn check_generation(&self, reader: &dyn ChainReads) -> Result<(), ChainError> {
        let at = self.game_systems;
        let load_assets = bindings::v2::game_core::load_assets(at, &Felt::ZERO);
        if !reader.answers(load_assets).await {
            return Ok(());
        }
        Err(ChainError::GenerationMismatch {
            expected: GENERATION,
            found: Generation::V2,
            address: at,
        })
    }

    async fn game_state(
        &self,
        reader: &dyn ChainReads,
        id: AdventurerId,
    ) -> Result<GameState, ChainError> {
        let call = game_systems::get_game_state(self.game_systems, &convert::v1_id(id)?);
        let raw = view(
            reader,
            "get_game_state",
            call,
            game_systems::decode_get_game_state,
        )
        .await?;
        convert::game_state(raw)
    }

    async fn stored_adventurer(
        &self,
        reader: &dyn ChainReads,
        id: AdventurerId,
    ) -> Result<Adventurer, ChainError> {
        let call =
            adventurer_systems::get_adventurer(self.adventurer_systems, &convert::v1_id(id)?);
        let raw = view(
            reader,
            "get_adventurer",
            call,
            adventurer_systems::decode_get_adventurer,
        )
        .await?;
        convert::adventurer(raw)
    }

    async fn token_address(&self, reader: &dyn ChainReads) -> Result<Felt, ChainError> {
        let call = game_token_systems::token_address(self.game_token_systems);
        view(
            reader,
            "token_address",
            call,
            game_token_systems::decode_token_address,
        )
        .await
    }

    fn known_token(&self) -> Option<Felt> {
        None
    }

    async fn game_history(
        &self,
        _reader: &dyn ChainReads,
        _id: AdventurerId,
    ) -> Result<Vec<GameEvent>, ChainError> {
        // Torii indexes a world's history; the chain keeps no per-adventurer filter for it.
        Err(ChainError::Unsupported {
            action: "game_history",
            generation: GENERATION,
        })
    }

    fn receipt_events(&self, raw: &[Event]) -> Result<Vec<GameEvent>, ChainError> {
        let emitters = self.event_emitters();
        let mut events = Vec::new();
        for e in raw.iter().filter(|e| emitters.contains(&e.from_address)) {
            match decode_game_event(&e.keys, &e.data) {
                Ok(Some(ev)) => events.push(ev),
                Ok(None) => {}
                Err(source) => {
                    return Err(ChainError::Decode(BadAnswer::Event {
                        event: "game event",
                        source,
                    }));
                }
            }
        }
        Ok(events)
    }

    /// The world's `EventEmitted` for `ls_0_0_9-GameEvent` (the practice world is its own world).
    fn event_source(&self) -> EventSource {
        EventSource {
            address: self.world.unwrap_or(self.game_systems),
            keys: vec![vec![EVENT_EMITTED_SELECTOR], vec![GAME_EVENT_SELECTOR]],
        }
    }

    fn receipts_count_actions(&self) -> bool {
        true
    }

    fn dungeon_entries(&self, settings_id: u32) -> Option<EntryAddresses> {
        Some(self.entry_addresses(settings_id))
    }

    fn policy_guard(
        &self,
        policy: &wallet::PolicySettings,
        chain_vrf: bool,
        _account: Felt,
    ) -> wallet::PolicyGuard {
        let vrf = policy.vrf_enabled(chain_vrf);
        wallet::PolicyGuard::new(policy, vrf, self.signable_entrypoints())
            .with_ticket_approve(self.ticket_approve())
    }

    fn ticket_approve(&self) -> Option<wallet::TicketApprove> {
        GameAddresses::ticket_approve(self)
    }

    fn session_extra_pairs(&self, vrf: bool) -> Vec<(Felt, &'static str)> {
        let mut pairs = Vec::new();
        if vrf {
            pairs.push((wallet::CARTRIDGE_VRF_PROVIDER, "request_random"));
        }
        if let Some(rule) = GameAddresses::ticket_approve(self) {
            pairs.push((rule.ticket, "approve"));
        }
        pairs
    }

    fn session_uses_vrf(&self, chain_vrf: bool) -> bool {
        chain_vrf
    }

    fn contract_names(&self) -> Vec<(Felt, &'static str)> {
        let mut v = vec![
            (self.game_systems, "Game Systems (v1)"),
            (self.game_token_systems, "Game Token (v1)"),
            (wallet::CARTRIDGE_VRF_PROVIDER, "VRF Provider"),
        ];
        v.extend(self.dungeon.map(|d| (d, "Dungeon (v1)")));
        v.extend(self.ticket.map(|t| (t, "Dungeon Ticket (v1)")));
        v
    }

    fn vrf_rule(&self) -> VrfRule<'_> {
        VrfRule::Fixed("v1: Cartridge VRF with the world's own salts (docs/vrf.md)")
    }

    fn index_source(&self) -> IndexSource<'_> {
        IndexSource::Torii(self)
    }

    fn check_targets(&self) -> Vec<CheckTarget> {
        let t = |role, address, suffix| CheckTarget {
            role,
            address,
            suffix,
        };
        let mut out = vec![
            t("game_systems", self.game_systems, Some("game_systems")),
            t(
                "adventurer_systems",
                self.adventurer_systems,
                Some("adventurer_systems"),
            ),
            t(
                "game_token_systems",
                self.game_token_systems,
                Some("game_token_systems"),
            ),
            t(
                "settings_systems",
                self.settings_systems,
                Some("settings_systems"),
            ),
        ];
        let optional = [
            ("world", self.world, None),
            ("dungeon", self.dungeon, Some("dungeon")),
            ("ticket", self.ticket, Some("ticket")),
            ("golden_pass", self.golden_pass, Some("golden_pass")),
        ];
        for (role, address, suffix) in optional {
            out.extend(address.map(|address| t(role, address, suffix)));
        }
        out
    }

    fn entrypoints(&self) -> &'static [Entrypoint] {
        bindings::ENTRYPOINTS
    }

    fn unchecked(&self, _suffix: &str, name: &str) -> bool {
        // `owner_of` goes to the token `token_address()` names, not to the token systems.
        name == "owner_of"
    }

    fn abis(&self) -> &'static str {
        bindings::ABIS
    }

    fn src5_token(&self) -> Option<Felt> {
        None
    }
}
