//! One action in progress: the stored adventurer and bag being changed, the events emitted so
//! far, and the helpers every action shares (boosted view, health, gold, the closing events).

use starknet_types_core::felt::Felt;

use super::settings::EngineSettings;
use super::world::{BeastKey, Collection};
use crate::boosts;
use crate::catalogue::{self, ItemType};
use crate::events::{GameEventDetails, ItemRef};
use crate::model::{Adventurer, Bag, BeastEvent};
use crate::random::{self, Randomness};
use crate::rules;

/// The working state of one action; committed only if the action succeeds.
pub(super) struct Turn<'a> {
    /// Adventurer (game token) id, a felt: v2 ids are packed 251-bit token ids.
    pub id: Felt,
    /// World settings.
    pub settings: &'a EngineSettings,
    /// Stored adventurer: base stats, luck 0.
    pub adv: Adventurer,
    /// Bag.
    pub bag: Bag,
    /// Seed of the current (or last) beast.
    pub beast_seed: u64,
    /// Seed of the market, set on level-up.
    pub market_seed: u64,
    /// The game's hidden seed, if its randomness is hidden.
    pub hidden_seed: Option<Felt>,
    /// The seed this action was given (a replay of a chain's `randomness` event), if any: it
    /// wins over every derivation.
    pub drawn: Option<Felt>,
    /// Named beasts already killed in this world.
    pub collection: &'a Collection,
    /// Named beasts killed during this action.
    pub collected: Vec<BeastKey>,
    /// Events emitted so far, in order.
    pub events: Vec<GameEventDetails>,
}

impl Turn<'_> {
    /// The adventurer with item boosts and luck, as the contract loads it.
    pub(super) fn boosted(&self) -> Adventurer {
        boosts::boosted(&self.adv, &self.bag)
    }

    /// Current level.
    pub(super) fn level(&self) -> u8 {
        self.adv.level()
    }

    /// Emits an event.
    pub(super) fn emit(&mut self, details: GameEventDetails) {
        self.events.push(details);
    }

    /// Max health from boosted vitality.
    pub(super) fn max_health(&self) -> u16 {
        rules::max_health(self.boosted().stats.vitality)
    }

    /// Heals, capped at max health.
    pub(super) fn heal(&mut self, amount: u16) {
        let max = self.max_health();
        self.adv.health = self.adv.health.saturating_add(amount).min(max);
    }

    /// Takes damage (health floors at 0).
    pub(super) fn hurt(&mut self, damage: u16) {
        self.adv.health = self.adv.health.saturating_sub(damage);
    }

    /// Adds gold, capped at 511.
    pub(super) fn add_gold(&mut self, amount: u16) {
        self.adv.gold = self.adv.gold.saturating_add(amount).min(rules::MAX_GOLD);
    }

    /// The current (or last) beast, regenerated from its seed, and the randomness it came from.
    pub(super) fn beast(&self) -> (BeastEvent, Randomness) {
        beast_of(&self.adv, self.beast_seed, self.settings, self.collection)
    }

    /// This action's two seeds (action / beast seed, market seed): the given seed's, else from
    /// the hidden seed when the game has one, else the public `poseidon(xp, id)`. Read before
    /// the action changes xp.
    pub(super) fn action_seeds(&self) -> (u64, u64) {
        if let Some(seed) = self.drawn {
            return random::felt_to_two_u64(seed);
        }
        let xp = self.adv.xp;
        match self.hidden_seed {
            Some(hidden) => random::felt_to_two_u64(self.settings.hidden_seed_felt(
                hidden,
                xp,
                self.id,
                self.adv.action_count,
                self.adv.in_battle(),
            )),
            None => self.settings.action_seeds(xp, self.id),
        }
    }

    /// The market list for a market seed.
    pub(super) fn market(&self, market_seed: u64) -> Vec<u8> {
        random::market_items(self.id, market_seed, self.settings.market_size)
    }

    /// Closes the action: `level_up` and `market_items` (new market seed) when the level rose,
    /// then the boosted `adventurer`.
    pub(super) fn finish(&mut self, start_level: u8, market_seed: u64) {
        let level = self.level();
        if level > start_level {
            self.emit(GameEventDetails::LevelUp { level });
            self.market_seed = market_seed;
            let items = self
                .market(market_seed)
                .into_iter()
                .map(ItemRef::new)
                .collect();
            self.emit(GameEventDetails::MarketItems { items });
        }
        let boosted = self.boosted();
        self.emit(GameEventDetails::Adventurer(boosted));
    }
}

/// The beast met with `seed` by an adventurer at its current xp and level (the starter beast at
/// level 1), with `is_collectable` as the world's rules and collection say.
pub(super) fn beast_of(
    adv: &Adventurer,
    seed: u64,
    settings: &EngineSettings,
    collection: &Collection,
) -> (BeastEvent, Randomness) {
    let r = random::get_randomness(adv.xp, seed);
    let weapon_type =
        catalogue::item(adv.equipment.weapon.id).map_or(ItemType::None, |i| i.item_type);
    let mut beast = random::generate_beast(adv.level(), weapon_type, &r, seed);
    beast.is_collectable = settings.rules.collectables
        && beast.is_collectable
        && !collection.contains(&world_key(&beast));
    (beast, r)
}

/// The key of a named beast in the collection: (id, special2, special3).
pub(super) fn world_key(beast: &BeastEvent) -> BeastKey {
    (beast.id, beast.specials.special2, beast.specials.special3)
}
