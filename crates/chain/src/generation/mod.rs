//! The game's generations behind one seam: what a profile plays ([`Deployment`]) and what each
//! generation decides ([`GameGeneration`]): an action's calls with its VRF request, the new-game
//! plan, the state read, the receipt's events, token and owner reads, session policies and what
//! the ABI check expects (docs/generations.md). Each generation is one folder ([`v1`], [`v2`]);
//! [`Deployment::game`] is the one place that dispatches on a deployment's generation.

use async_trait::async_trait;
use starknet::core::types::{Call, Event, Felt};

use crate::ChainError;
use crate::bindings::Entrypoint;
use crate::entry::{EntryAddresses, Player};
use game::AdventurerId;
use game::engine::Action;
use game::events::GameEvent;
use game::model::{Adventurer, GameState};

mod label;
mod probe;
pub mod reads;
pub mod v1;
pub mod v2;

pub use label::Generation;
pub use reads::ChainReads;
pub use v2::contracts::{SaltRecipe, V2Contracts, VrfSource};

use crate::GameAddresses;

/// A profile's deployment: which generation, and its contracts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deployment {
    /// The Dojo world's systems.
    V1(GameAddresses),
    /// GameCore, GameToken, Denshokan and the VRF provider.
    V2(V2Contracts),
    /// A generation built by a unit test, to prove that nothing outside this seam assumes one.
    #[cfg(test)]
    Other(tests::Another),
}

impl Deployment {
    /// What this deployment's generation decides: the one dispatch on a deployment's generation.
    pub fn game(&self) -> &dyn GameGeneration {
        match self {
            Deployment::V1(a) => a,
            Deployment::V2(c) => c,
            #[cfg(test)]
            Deployment::Other(t) => &*t.0,
        }
    }

    /// The generation this deployment plays.
    pub fn generation(&self) -> Generation {
        self.game().generation()
    }

    /// The address that answers the generation check at connect: game_systems or GameCore.
    pub fn game_address(&self) -> Felt {
        self.game().game_address()
    }

    /// The (contract, selector) pairs the wallet may sign on this deployment.
    pub fn signable_entrypoints(&self) -> Vec<(Felt, Felt)> {
        self.game().signable_entrypoints()
    }
}

/// How a generation enters a new game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewGamePlan {
    /// The mint and the start in one multicall, the id predicted at the nonce it is sent at.
    OneMulticall,
    /// The mint, then the start: two transactions (the id cannot be predicted).
    MintThenStart,
}

/// Where a generation's leaderboard and owners' games are indexed.
#[derive(Debug, Clone, Copy)]
pub enum IndexSource<'a> {
    /// A Torii indexer of this Dojo world (when the profile names one).
    Torii(&'a GameAddresses),
    /// The Denshokan API, counting the games of this minter (or dungeon) on its leaderboard.
    Denshokan {
        /// The minter whose games count, if the profile names one.
        minter: Option<Felt>,
    },
}

/// How a generation's VRF requests are ruled.
#[derive(Debug, Clone, Copy)]
pub enum VrfRule<'a> {
    /// Fixed by the game itself, nothing to read or settle: why, in words.
    Fixed(&'static str),
    /// Per deployment, read off GameCore's transactions and kept in the profile.
    Read(&'a V2Contracts),
}

/// One contract the ABI check compares: its role, address and the tag suffix of our bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckTarget {
    /// What it is to the game ("game_core", "dungeon", …).
    pub role: &'static str,
    /// Its address.
    pub address: Felt,
    /// The tag suffix of its bindings; `None`: we call nothing there that is bound.
    pub suffix: Option<&'static str>,
}

/// Where a generation's game events come from: the contract that emits them and the keys that
/// pick them out (the change feed's filter; a node may also match events with fewer keys).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventSource {
    /// The emitting contract.
    pub address: Felt,
    /// The keys filter, one list of accepted values per key position.
    pub keys: Vec<Vec<Felt>>,
}

/// What the chain client knows when it turns an action into calls.
#[derive(Debug, Clone, Copy)]
pub struct ActContext {
    /// The signing account.
    pub account: Felt,
    /// The profile's `chain.vrf` (v1: Cartridge VRF and outside executions).
    pub chain_vrf: bool,
}

/// Everything a game generation decides. A new generation implements every method (none has a
/// default), so the compiler walks it through each decision.
#[async_trait]
pub trait GameGeneration: Send + Sync + std::fmt::Debug {
    /// Its name in messages and settings.
    fn generation(&self) -> Generation;

    /// The address that answers the generation check at connect.
    fn game_address(&self) -> Felt;

    /// The (contract, selector) pairs the wallet may sign.
    fn signable_entrypoints(&self) -> Vec<(Felt, Felt)>;

    /// The contract call an action becomes; an action the generation has no entrypoint for is
    /// refused.
    fn action_call(&self, id: AdventurerId, action: &Action) -> Result<Call, ChainError>;

    /// The call that mints a game with `settings_id` to `player`.
    fn mint_call(&self, settings_id: u32, player: &Player) -> Call;

    /// How a new game is entered.
    fn new_game_plan(&self) -> NewGamePlan;

    /// Whether [`GameGeneration::action_calls`] needs the adventurer's state before `action`.
    fn needs_state_to_act(&self, ctx: ActContext, action: &Action) -> bool;

    /// An action's calls, the VRF request first when it draws randomness; `before` is the state
    /// before it, read when [`GameGeneration::needs_state_to_act`] said so.
    fn action_calls(
        &self,
        ctx: ActContext,
        id: AdventurerId,
        action: &Action,
        before: Option<&Adventurer>,
    ) -> Result<Vec<Call>, ChainError>;

    /// Checks, with calls, that the game address answers as this generation.
    async fn check_generation(&self, reader: &dyn ChainReads) -> Result<(), ChainError>;

    /// The full (item-boosted) game state of an adventurer.
    async fn game_state(
        &self,
        reader: &dyn ChainReads,
        id: AdventurerId,
    ) -> Result<GameState, ChainError>;

    /// The stored (unboosted) adventurer, where the generation has such a view.
    async fn stored_adventurer(
        &self,
        reader: &dyn ChainReads,
        id: AdventurerId,
    ) -> Result<Adventurer, ChainError>;

    /// The token contract whose ids are the adventurers.
    async fn token_address(&self, reader: &dyn ChainReads) -> Result<Felt, ChainError>;

    /// The token contract when the deployment names it (no read needed).
    fn known_token(&self) -> Option<Felt>;

    /// An adventurer's game events in chain order, where the chain keeps them readable.
    async fn game_history(
        &self,
        reader: &dyn ChainReads,
        id: AdventurerId,
    ) -> Result<Vec<GameEvent>, ChainError>;

    /// The game events among a receipt's events, in order.
    fn receipt_events(&self, raw: &[Event]) -> Result<Vec<GameEvent>, ChainError>;

    /// Where its game events come from, for following every writer's changes.
    fn event_source(&self) -> EventSource;

    /// Whether a receipt's events carry the adventurer's action count (else it is read).
    fn receipts_count_actions(&self) -> bool;

    /// The entries (dungeon purchases) this deployment can serve, `None` when it has none it
    /// can build calls for.
    fn dungeon_entries(&self, settings_id: u32) -> Option<EntryAddresses>;

    /// The wallet's guard for this deployment signed for by `account`, under the profile's
    /// `policy` and `chain.vrf`: what it may sign, and exactly the VRF request it may send.
    fn policy_guard(
        &self,
        policy: &wallet::PolicySettings,
        chain_vrf: bool,
        account: Felt,
    ) -> wallet::PolicyGuard;

    /// The bounded ticket approval a dungeon entry signs, if any.
    fn ticket_approve(&self) -> Option<wallet::TicketApprove>;

    /// The (contract, entrypoint) pairs a Controller session beyond the signable ones needs:
    /// the VRF request when `vrf`, the ticket's approval.
    fn session_extra_pairs(&self, vrf: bool) -> Vec<(Felt, &'static str)>;

    /// Whether a session asks for the VRF request (`chain_vrf`: the profile's `chain.vrf`).
    fn session_uses_vrf(&self, chain_vrf: bool) -> bool;

    /// The deployment's contracts as the keychain names them, (contract, name).
    fn contract_names(&self) -> Vec<(Felt, &'static str)>;

    /// How its VRF requests are ruled.
    fn vrf_rule(&self) -> VrfRule<'_>;

    /// Where its leaderboard and owners' games are indexed.
    fn index_source(&self) -> IndexSource<'_>;

    /// The contracts the ABI check compares.
    fn check_targets(&self) -> Vec<CheckTarget>;

    /// The bound entrypoints the server calls, all contracts together.
    fn entrypoints(&self) -> &'static [Entrypoint];

    /// Whether the ABI check leaves out entrypoint `name` of the contract tagged `suffix` (it is
    /// called elsewhere than the bindings say).
    fn unchecked(&self, suffix: &str, name: &str) -> bool;

    /// Our ABIs by tag suffix, as JSON.
    fn abis(&self) -> &'static str;

    /// The token whose SRC5 interfaces the check asks about, if the generation has one.
    fn src5_token(&self) -> Option<Felt>;
}

/// The calls of a transaction carrying `action`: a single action's by `one`; a batch's parts'
/// calls in order, each built by `one` from the state before it (the parts before it played on
/// the engine: a stat point or a potion changes the health a VRF salt may read, and every
/// action counts), with the one VRF request, the last part's, first. A part before the last that
/// would need a request is refused.
pub(crate) fn batch_calls(
    id: AdventurerId,
    action: &Action,
    before: Option<&Adventurer>,
    one: impl Fn(&Action, Option<&Adventurer>) -> Result<Vec<Call>, ChainError>,
) -> Result<Vec<Call>, ChainError> {
    let Action::Batch(parts) = action else {
        return one(action, before);
    };
    let refused = |index: usize, part: &Action| {
        ChainError::Invalid(crate::Unservable::Batch(game::engine::BatchError::Part {
            index,
            entrypoint: part.entrypoint(),
        }))
    };
    let mut at = before.copied();
    let mut calls = Vec::with_capacity(parts.len() + 1);
    for (i, part) in parts.iter().enumerate() {
        if matches!(part, Action::Batch(_)) {
            return Err(refused(i, part));
        }
        let mut part_calls = one(part, at.as_ref())?;
        if i + 1 == parts.len() {
            let last = part_calls.pop().ok_or_else(|| refused(i, part))?;
            calls.splice(0..0, part_calls);
            calls.push(last);
            break;
        }
        if part_calls.len() != 1 {
            return Err(refused(i, part));
        }
        calls.append(&mut part_calls);
        if let Some(a) = &mut at {
            *a = after_part(id, a, part).ok_or_else(|| refused(i, part))?;
        }
    }
    Ok(calls)
}

/// The (boosted) adventurer after a part that draws nothing, played on the engine from
/// `before`; the items bought stand in for the market they are bought from. `None`: refused.
fn after_part(id: AdventurerId, before: &Adventurer, part: &Action) -> Option<Adventurer> {
    use game::engine::{Collection, EngineSettings, Game};
    let bag = game::model::Bag::default();
    let market: Vec<u8> = match part {
        Action::BuyItems { items, .. } => items.iter().map(|p| p.item_id).collect(),
        _ => Vec::new(),
    };
    let mut game = Game {
        adventurer: game::boosts::unboosted(before, &bag),
        ..Game::default()
    };
    let settings = EngineSettings::default();
    game.apply_in(
        id.low_u64(),
        part,
        Some(&market),
        &settings,
        &Collection::new(),
    )
    .ok()?;
    Some(game::boosts::boosted(&game.adventurer, &bag))
}

#[cfg(test)]
pub mod tests;
