//! One adventurer's stored game (what the contract keeps: the unboosted adventurer, the bag, the
//! beast and market seeds) and how an action is applied to it, all or nothing.

use serde::{Deserialize, Serialize};
use starknet_types_core::felt::Felt;

use super::settings::EngineSettings;
use super::turn::{Turn, beast_of};
use super::world::{BeastKey, Collection};
use super::{Action, Revert, ensure};
use crate::boosts;
use crate::events::GameEventDetails;
use crate::model::{Adventurer, Bag, BeastEvent, Equipment, GameState, Item};
use crate::random;
use crate::rules;

/// Damage of the starter beast's spoofed ambush at `start_game`.
const STARTER_BEAST_ATTACK_DAMAGE: u16 = 10;

/// The stored state of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The stored adventurer: base stats (no item boosts), luck 0.
    pub adventurer: Adventurer,
    /// The bag.
    pub bag: Bag,
    /// Seed of the current (or last) beast.
    pub beast_seed: u64,
    /// Seed of the market (set at each level-up).
    pub market_seed: u64,
    /// The game's hidden seed (the stand-in for the VRF; see
    /// `EngineSettings::hidden_seed_felt`); `None` plays the public `poseidon(xp, id)` dungeon.
    pub hidden_seed: Option<Felt>,
}

/// What a successful action did.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The adventurer's action count after the action (shared by all its events).
    pub action_count: u16,
    /// The events, in emission order.
    pub events: Vec<GameEventDetails>,
    /// Named beasts killed (to add to the world's collection).
    pub collected: Vec<BeastKey>,
}

impl Game {
    /// Rebuilds the stored game from a `get_game_state` result: boosts are removed from the
    /// stats and the beast seed is the state's beast seed. The market seed is not part of the
    /// state; it is set to 0 (the next level-up replaces it).
    pub fn from_state(state: &GameState) -> Self {
        let bag = Bag {
            mutated: false,
            ..state.bag
        };
        Self {
            adventurer: boosts::unboosted(&state.adventurer, &bag),
            bag,
            beast_seed: state.beast.seed,
            market_seed: 0,
            hidden_seed: None,
        }
    }

    /// The current (or last) beast, regenerated from its seed.
    pub fn beast(&self, settings: &EngineSettings, collection: &Collection) -> BeastEvent {
        beast_of(&self.adventurer, self.beast_seed, settings, collection).0
    }

    /// What `get_game_state` returns: the boosted adventurer, the bag, the beast, the market.
    pub fn state(
        &self,
        id: impl Into<Felt>,
        settings: &EngineSettings,
        collection: &Collection,
    ) -> GameState {
        GameState {
            adventurer: boosts::boosted(&self.adventurer, &self.bag),
            bag: self.bag,
            beast: self.beast(settings, collection),
            market: random::market_items(id, self.market_seed, settings.market_size),
        }
    }

    /// Applies one action for adventurer `id`; on a revert the game is unchanged.
    pub fn apply(
        &mut self,
        id: impl Into<Felt>,
        action: &Action,
        settings: &EngineSettings,
        collection: &Collection,
    ) -> Result<Outcome, Revert> {
        self.run(id.into(), action, None, None, settings, collection)
    }

    /// [`Game::apply`] with the seed a chain announced for this action (its `randomness` event),
    /// which replaces the seed the engine would derive; `None` for an action that drew none.
    pub fn apply_drawn(
        &mut self,
        id: Felt,
        action: &Action,
        drawn: Option<Felt>,
        settings: &EngineSettings,
        collection: &Collection,
    ) -> Result<Outcome, Revert> {
        self.run(id, action, None, drawn, settings, collection)
    }

    /// [`Game::apply`], buying from `market` when given (a copy made by [`Game::from_state`]
    /// knows the market's items from the state, not its seed).
    pub fn apply_in(
        &mut self,
        id: u64,
        action: &Action,
        market: Option<&[u8]>,
        settings: &EngineSettings,
        collection: &Collection,
    ) -> Result<Outcome, Revert> {
        self.run(id.into(), action, market, None, settings, collection)
    }

    fn run(
        &mut self,
        id: Felt,
        action: &Action,
        market: Option<&[u8]>,
        drawn: Option<Felt>,
        settings: &EngineSettings,
        collection: &Collection,
    ) -> Result<Outcome, Revert> {
        if let Action::Batch(parts) = action {
            return self.run_batch(id, parts, market, drawn, settings, collection);
        }
        let mut turn = Turn {
            id,
            settings,
            adv: self.adventurer,
            bag: self.bag,
            beast_seed: self.beast_seed,
            market_seed: self.market_seed,
            hidden_seed: self.hidden_seed,
            drawn,
            collection,
            collected: Vec::new(),
            events: Vec::new(),
        };
        // Every action counts first (start_game then sets the count of a new game to 1).
        turn.adv.action_count = turn.adv.action_count.wrapping_add(1);
        match action {
            Action::StartGame { weapon } => start_game(&mut turn, *weapon)?,
            Action::Explore { till_beast } => turn.explore(*till_beast)?,
            Action::Attack { to_the_death } => turn.attack(*to_the_death)?,
            Action::Flee { to_the_death } => turn.flee(*to_the_death)?,
            Action::Equip { items } => turn.equip(items)?,
            Action::Drop { items } => turn.drop_items(items)?,
            Action::BuyItems { potions, items } => match market {
                Some(m) => turn.buy_in(m, *potions, items)?,
                None => turn.buy(*potions, items)?,
            },
            Action::Upgrade { stats } => turn.upgrade(stats)?,
            Action::Surrender => surrender(&mut turn)?,
            Action::Batch(_) => unreachable!("batches run part by part above"),
        }
        self.adventurer = turn.adv;
        self.adventurer.stats.luck = 0;
        self.bag = turn.bag;
        self.beast_seed = turn.beast_seed;
        self.market_seed = turn.market_seed;
        Ok(Outcome {
            action_count: self.adventurer.action_count,
            events: turn.events,
            collected: turn.collected,
        })
    }
}

impl Game {
    /// A batch's parts in order on a copy, kept only when every part passed (a multicall
    /// reverts whole); the seed a chain announced goes to the last part, the one that draws.
    fn run_batch(
        &mut self,
        id: Felt,
        parts: &[Action],
        market: Option<&[u8]>,
        drawn: Option<Felt>,
        settings: &EngineSettings,
        collection: &Collection,
    ) -> Result<Outcome, Revert> {
        let mut copy = self.clone();
        let mut events = Vec::new();
        let mut collected = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            let drawn = drawn.filter(|_| i + 1 == parts.len());
            let o = copy.run(id, part, market, drawn, settings, collection)?;
            events.extend(o.events);
            collected.extend(o.collected);
        }
        *self = copy;
        Ok(Outcome {
            action_count: self.adventurer.action_count,
            events,
            collected,
        })
    }
}

/// `ImplAdventurer::new(weapon)`: 100 health, 40 gold, the weapon, the starter beast's 3 health.
pub fn new_adventurer(weapon: u8) -> Adventurer {
    Adventurer {
        health: rules::STARTING_HEALTH,
        gold: rules::STARTING_GOLD,
        beast_health: rules::STARTER_BEAST_HEALTH,
        equipment: Equipment {
            weapon: Item { id: weapon, xp: 0 },
            ..Equipment::default()
        },
        ..Adventurer::default()
    }
}

/// `start_game(weapon)`: 100 health less the starter beast's 10, 40 gold, the weapon, and the
/// starter beast (seed = the id's low 64 bits, 3 health) in front; action count 1.
fn start_game(turn: &mut Turn<'_>, weapon: u8) -> Result<(), Revert> {
    ensure(
        turn.adv.xp == 0 && turn.adv.health == 0,
        Revert::AlreadyStarted,
    )?;
    ensure(
        rules::STARTING_WEAPONS.contains(&weapon),
        Revert::InvalidStartingWeapon,
    )?;
    turn.adv = new_adventurer(weapon);
    turn.adv.health -= STARTER_BEAST_ATTACK_DAMAGE;
    turn.adv.action_count = 1;
    turn.bag = Bag::default();
    turn.beast_seed = random::felt_to_two_u64(turn.id).1;
    turn.market_seed = 0;
    let (beast, _) = turn.beast();
    turn.emit(GameEventDetails::Beast(beast.into()));
    let boosted = turn.boosted();
    turn.emit(GameEventDetails::Adventurer(boosted));
    Ok(())
}

/// `surrender()` as the v2 practice world plays it: a living adventurer's health goes to 0, then
/// the `adventurer` event.
fn surrender(turn: &mut Turn<'_>) -> Result<(), Revert> {
    ensure(turn.adv.is_alive(), Revert::AdventurerDead)?;
    turn.adv.health = 0;
    let level = turn.level();
    turn.finish(level, 0);
    Ok(())
}
