//! A third generation, built here only (one address for the game and its mint, as Provable's
//! later GameCore designs have), played through the chain client on the scripted node: a new
//! game, an action, a read and the policies, each decided by its own [`GameGeneration`]
//! methods. Nothing the Dojo world or GameCore would call is asked of the node.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use starknet::core::types::{Call, Event, Felt};
use starknet::macros::selector;

use super::pipeline_tests::{connect_to, opts, owner_key};
use super::scripted::{ONE_ADDRESS, ScriptedChain, TOKEN};
use crate::ChainError;
use crate::bindings::Entrypoint;
use crate::controller::policies::session_policy_pairs;
use crate::entry::{EntryAddresses, Player};
use crate::generation::tests::Another;
use crate::generation::{
    ActContext, ChainReads, CheckTarget, Deployment, GameGeneration, Generation, IndexSource,
    NewGamePlan, VrfRule,
};
use game::AdventurerId;
use game::engine::Action;
use game::events::GameEvent;
use game::model::{Adventurer, GameState};

/// The third generation: every decision logged by name, so the test sees which were asked.
#[derive(Debug, Default)]
struct OneAddress {
    asked: Mutex<Vec<&'static str>>,
}

impl OneAddress {
    fn at() -> Felt {
        Felt::from_hex_unchecked(ONE_ADDRESS)
    }

    fn ask(&self, what: &'static str) {
        self.asked.lock().unwrap().push(what);
    }

    fn call(name: &str, calldata: Vec<Felt>) -> Call {
        Call {
            to: Self::at(),
            selector: starknet::core::utils::get_selector_from_name(name).unwrap(),
            calldata,
        }
    }
}

#[async_trait]
impl GameGeneration for OneAddress {
    fn generation(&self) -> Generation {
        // A label only: the test asserts that no decision is made from it.
        self.ask("generation");
        Generation::V2
    }

    fn game_address(&self) -> Felt {
        Self::at()
    }

    fn signable_entrypoints(&self) -> Vec<(Felt, Felt)> {
        self.ask("signable_entrypoints");
        ["mint_game", "start_game", "explore"]
            .map(|n| {
                (
                    Self::at(),
                    starknet::core::utils::get_selector_from_name(n).unwrap(),
                )
            })
            .to_vec()
    }

    fn action_call(&self, id: AdventurerId, action: &Action) -> Result<Call, ChainError> {
        self.ask("action_call");
        Ok(match action {
            Action::StartGame { weapon } => {
                Self::call("start_game", vec![id.felt(), Felt::from(*weapon)])
            }
            Action::Explore { .. } => Self::call("explore", vec![id.felt()]),
            _ => {
                return Err(ChainError::Unsupported {
                    action: action.entrypoint(),
                    generation: Generation::V2,
                });
            }
        })
    }

    fn mint_call(&self, settings_id: u32, player: &Player) -> Call {
        self.ask("mint_call");
        Self::call("mint_game", vec![player.address, Felt::from(settings_id)])
    }

    fn new_game_plan(&self) -> NewGamePlan {
        self.ask("new_game_plan");
        NewGamePlan::OneMulticall
    }

    fn needs_state_to_act(&self, _ctx: ActContext, _action: &Action) -> bool {
        self.ask("needs_state_to_act");
        false
    }

    fn action_calls(
        &self,
        _ctx: ActContext,
        id: AdventurerId,
        action: &Action,
        _before: Option<&Adventurer>,
    ) -> Result<Vec<Call>, ChainError> {
        self.ask("action_calls");
        Ok(vec![self.action_call(id, action)?])
    }

    async fn check_generation(&self, reader: &dyn ChainReads) -> Result<(), ChainError> {
        self.ask("check_generation");
        match reader
            .answers(Self::call("adventurer_state", vec![Felt::ZERO]))
            .await
        {
            true => Ok(()),
            false => Err(ChainError::Config(crate::Misconfigured::ContractNotFound)),
        }
    }

    async fn game_state(
        &self,
        reader: &dyn ChainReads,
        id: AdventurerId,
    ) -> Result<GameState, ChainError> {
        self.ask("game_state");
        let felts = reader
            .call(Self::call("adventurer_state", vec![id.felt()]))
            .await?;
        let word = |i: usize| u64::try_from(felts[i]).unwrap_or_default();
        let mut state = GameState::default();
        state.adventurer.health = word(0) as u16;
        state.adventurer.xp = word(1) as u16;
        Ok(state)
    }

    async fn stored_adventurer(
        &self,
        reader: &dyn ChainReads,
        id: AdventurerId,
    ) -> Result<Adventurer, ChainError> {
        Ok(self.game_state(reader, id).await?.adventurer)
    }

    async fn token_address(&self, _reader: &dyn ChainReads) -> Result<Felt, ChainError> {
        Ok(Felt::from_hex_unchecked(TOKEN))
    }

    fn known_token(&self) -> Option<Felt> {
        self.ask("known_token");
        Some(Felt::from_hex_unchecked(TOKEN))
    }

    async fn game_history(
        &self,
        _reader: &dyn ChainReads,
        _id: AdventurerId,
    ) -> Result<Vec<GameEvent>, ChainError> {
        Ok(Vec::new())
    }

    fn receipt_events(&self, _raw: &[Event]) -> Result<Vec<GameEvent>, ChainError> {
        self.ask("receipt_events");
        Ok(Vec::new())
    }

    fn event_source(&self) -> crate::generation::EventSource {
        self.ask("event_source");
        crate::generation::EventSource {
            address: Self::at(),
            keys: vec![],
        }
    }

    fn receipts_count_actions(&self) -> bool {
        self.ask("receipts_count_actions");
        false
    }

    fn dungeon_entries(&self, _settings_id: u32) -> Option<EntryAddresses> {
        None
    }

    fn policy_guard(
        &self,
        policy: &wallet::PolicySettings,
        _chain_vrf: bool,
        _account: Felt,
    ) -> wallet::PolicyGuard {
        wallet::PolicyGuard::new(policy, false, self.signable_entrypoints())
    }

    fn ticket_approve(&self) -> Option<wallet::TicketApprove> {
        None
    }

    fn session_extra_pairs(&self, _vrf: bool) -> Vec<(Felt, &'static str)> {
        self.ask("session_extra_pairs");
        Vec::new()
    }

    fn session_uses_vrf(&self, _chain_vrf: bool) -> bool {
        false
    }

    fn contract_names(&self) -> Vec<(Felt, &'static str)> {
        vec![(Self::at(), "Game (one address)")]
    }

    fn vrf_rule(&self) -> VrfRule<'_> {
        VrfRule::Fixed("the game draws its own seed")
    }

    fn index_source(&self) -> IndexSource<'_> {
        IndexSource::Denshokan { minter: None }
    }

    fn check_targets(&self) -> Vec<CheckTarget> {
        vec![CheckTarget {
            role: "game",
            address: Self::at(),
            suffix: None,
        }]
    }

    fn entrypoints(&self) -> &'static [Entrypoint] {
        &[]
    }

    fn unchecked(&self, _suffix: &str, _name: &str) -> bool {
        false
    }

    fn abis(&self) -> &'static str {
        "{}"
    }

    fn src5_token(&self) -> Option<Felt> {
        None
    }
}

#[tokio::test]
async fn a_third_generation_plays_through_its_own_decisions_only() {
    let chain = ScriptedChain::new(0);
    let third = Arc::new(OneAddress::default());
    let deployment = Deployment::Other(Another(third.clone()));
    let client = connect_to(
        &chain,
        Arc::new(chain.clone()),
        owner_key(),
        false,
        deployment,
    )
    .await
    .expect("the third generation's own check passes at connect");

    // Policy: the guard and a session's policies are the third generation's entrypoints.
    let pairs = session_policy_pairs(client.deployment(), true);
    assert_eq!(
        pairs,
        vec![
            (OneAddress::at(), "mint_game"),
            (OneAddress::at(), "start_game"),
            (OneAddress::at(), "explore"),
        ]
    );

    // A new game: its plan (one multicall), its mint, its start.
    let minted = client
        .mint_and_start(None, 12, opts(Duration::from_secs(5)))
        .await
        .expect("a new game");
    assert_eq!(minted.adventurer_id, AdventurerId::from(1u64));
    assert!(!minted.report.counts_actions);

    // An action, then a read.
    let explore = Action::Explore { till_beast: false };
    let report = client
        .act(
            minted.adventurer_id,
            &explore,
            None,
            opts(Duration::from_secs(5)),
        )
        .await
        .expect("an explore");
    assert!(report.events.is_empty());
    let state = client.game_state(minted.adventurer_id).await.unwrap();
    assert_eq!((state.adventurer.health, state.adventurer.xp), (100, 5));

    // The node ran exactly the third generation's calls, and was asked no view of another's.
    let executed = chain.with(|s| s.executed.clone());
    let start = vec![Felt::ONE, Felt::from(12u8)];
    assert_eq!(
        executed,
        vec![
            vec![
                (
                    selector!("mint_game"),
                    vec![Felt::from_hex_unchecked("0xacc0"), Felt::ZERO]
                ),
                (selector!("start_game"), start),
            ],
            vec![(selector!("explore"), vec![Felt::ONE])],
        ]
    );
    let asked = third.asked.lock().unwrap().clone();
    for decision in [
        "check_generation",
        "signable_entrypoints",
        "session_extra_pairs",
        "new_game_plan",
        "mint_call",
        "action_call",
        "needs_state_to_act",
        "action_calls",
        "receipt_events",
        "receipts_count_actions",
        "game_state",
    ] {
        assert!(
            asked.contains(&decision),
            "{decision} was not asked: {asked:?}"
        );
    }
    assert!(
        !asked.contains(&"generation"),
        "a decision was made from the label: {asked:?}"
    );
}
