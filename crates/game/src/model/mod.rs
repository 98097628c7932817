//! The game's data structs and their Cairo-Serde felt encoding (docs/game-rules.md#encoding), so
//! the chain layer can turn `get_game_state` results and event payloads into typed values and back.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use starknet_types_core::felt::Felt;

use super::catalogue::{self, Slot};
use super::felt::{DecodeError, FeltReader};
use super::rules;

/// Highest valid item id (the catalogue has 101 items; 0 means "empty").
pub const MAX_ITEM_ID: u8 = 101;

/// Serializes a u64 as a decimal string (JSON numbers above 2^53 lose precision in many clients)
/// and accepts either a string or a number when deserializing.
pub(crate) mod u64_string {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Writes the value as a decimal string.
    pub(crate) fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumOrStr {
        Num(u64),
        Str(String),
    }

    /// Reads a decimal string or a JSON number.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        match NumOrStr::deserialize(d)? {
            NumOrStr::Num(n) => Ok(n),
            NumOrStr::Str(s) => s.parse().map_err(D::Error::custom),
        }
    }
}

/// An item instance: catalogue id (0 = empty slot) and its accumulated xp (greatness = isqrt(xp)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Item {
    /// Catalogue id 1..=101, or 0 for "no item".
    pub id: u8,
    /// Item xp (capped at 400 by the game).
    pub xp: u16,
}

impl Item {
    /// True for an empty slot (id 0).
    pub fn is_empty(&self) -> bool {
        self.id == 0
    }

    /// Greatness (item level) derived from xp.
    pub fn greatness(&self) -> u8 {
        rules::greatness(self.xp)
    }

    /// Decodes `(id, xp)`; the id must be 0..=101.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        let id = r.bounded("id", MAX_ITEM_ID.into())? as u8;
        let xp = r.u16("xp")?;
        Ok(Self { id, xp })
    }

    /// Appends the Cairo-Serde encoding `(id, xp)`.
    pub fn encode_felts(&self, out: &mut Vec<Felt>) {
        out.extend([Felt::from(self.id), Felt::from(self.xp)]);
    }
}

/// The seven adventurer stats; luck is derived from jewelry and is only non-zero in boosted views.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Stats {
    /// Strength: +10% attack damage per point.
    pub strength: u8,
    /// Dexterity: flee chance.
    pub dexterity: u8,
    /// Vitality: +15 max health per point.
    pub vitality: u8,
    /// Intelligence: obstacle dodge chance.
    pub intelligence: u8,
    /// Wisdom: ambush avoidance chance.
    pub wisdom: u8,
    /// Charisma: market discounts.
    pub charisma: u8,
    /// Luck: critical-hit chance (from jewelry greatness).
    pub luck: u8,
}

impl Stats {
    /// Decodes the 7 stats in declaration order.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        Ok(Self {
            strength: r.u8("strength")?,
            dexterity: r.u8("dexterity")?,
            vitality: r.u8("vitality")?,
            intelligence: r.u8("intelligence")?,
            wisdom: r.u8("wisdom")?,
            charisma: r.u8("charisma")?,
            luck: r.u8("luck")?,
        })
    }

    /// Appends the 7 stats in declaration order.
    pub fn encode_felts(&self, out: &mut Vec<Felt>) {
        out.extend(
            [
                self.strength,
                self.dexterity,
                self.vitality,
                self.intelligence,
                self.wisdom,
                self.charisma,
                self.luck,
            ]
            .map(Felt::from),
        );
    }

    /// Sum of the six upgradable stats (luck excluded), as checked by `select_stat_upgrades`.
    pub fn upgrade_points(&self) -> u16 {
        [
            self.strength,
            self.dexterity,
            self.vitality,
            self.intelligence,
            self.wisdom,
            self.charisma,
        ]
        .iter()
        .map(|&v| u16::from(v))
        .sum()
    }
}

/// The eight equipped items, in the game's slot order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Equipment {
    /// Weapon slot.
    pub weapon: Item,
    /// Chest armor.
    pub chest: Item,
    /// Head armor.
    pub head: Item,
    /// Waist armor.
    pub waist: Item,
    /// Foot armor.
    pub foot: Item,
    /// Hand armor.
    pub hand: Item,
    /// Necklace.
    pub neck: Item,
    /// Ring.
    pub ring: Item,
}

impl Equipment {
    /// The item in `slot` (empty item for `Slot::None`).
    pub fn get(&self, slot: Slot) -> Item {
        match slot {
            Slot::None => Item::default(),
            Slot::Weapon => self.weapon,
            Slot::Chest => self.chest,
            Slot::Head => self.head,
            Slot::Waist => self.waist,
            Slot::Foot => self.foot,
            Slot::Hand => self.hand,
            Slot::Neck => self.neck,
            Slot::Ring => self.ring,
        }
    }

    /// Puts `item` in `slot` (no-op for `Slot::None`).
    pub fn set(&mut self, slot: Slot, item: Item) {
        let target = match slot {
            Slot::None => return,
            Slot::Weapon => &mut self.weapon,
            Slot::Chest => &mut self.chest,
            Slot::Head => &mut self.head,
            Slot::Waist => &mut self.waist,
            Slot::Foot => &mut self.foot,
            Slot::Hand => &mut self.hand,
            Slot::Neck => &mut self.neck,
            Slot::Ring => &mut self.ring,
        };
        *target = item;
    }

    /// All eight `(slot, item)` pairs in slot order, empty ones included.
    pub fn slots(&self) -> [(Slot, Item); 8] {
        Slot::ALL.map(|s| (s, self.get(s)))
    }

    /// True if an item with this id is equipped.
    pub fn contains(&self, id: u8) -> bool {
        id != 0 && self.slots().iter().any(|(_, it)| it.id == id)
    }

    /// Decodes 8 `(id, xp)` pairs.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        let mut items = [Item::default(); 8];
        for (slot, it) in Slot::ALL.iter().zip(items.iter_mut()) {
            let name = format!("{slot:?}").to_lowercase();
            *it = Item::decode_felts(r).map_err(|e| e.within(&name))?;
        }
        Ok(Self::from_slots(items))
    }

    /// The equipment of eight items in slot order (weapon, chest, head, waist, foot, hand, neck,
    /// ring).
    pub fn from_slots(items: [Item; 8]) -> Self {
        let [weapon, chest, head, waist, foot, hand, neck, ring] = items;
        Self {
            weapon,
            chest,
            head,
            waist,
            foot,
            hand,
            neck,
            ring,
        }
    }

    /// The equipped `(slot, item)` pairs in slot order, empty slots left out.
    pub fn worn(&self) -> impl Iterator<Item = (Slot, Item)> {
        self.slots().into_iter().filter(|(_, it)| !it.is_empty())
    }

    /// Appends the 8 `(id, xp)` pairs.
    pub fn encode_felts(&self, out: &mut Vec<Felt>) {
        for (_, it) in self.slots() {
            it.encode_felts(out);
        }
    }
}

/// The adventurer as returned by `get_game_state` / the `adventurer` event (30 felts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Adventurer {
    /// Current health (0 = dead or not started).
    pub health: u16,
    /// Experience; level = isqrt(xp).
    pub xp: u16,
    /// Gold (cap 511).
    pub gold: u16,
    /// Health of the current beast; > 0 means in battle.
    pub beast_health: u16,
    /// Unspent stat points; > 0 blocks exploring and the market.
    pub stat_upgrades_available: u8,
    /// Stats (boosted by items in `get_game_state` and events).
    pub stats: Stats,
    /// Equipped items.
    pub equipment: Equipment,
    /// Seed of item special names (0 until an item first reaches greatness 15).
    pub item_specials_seed: u16,
    /// Number of actions taken (u16, wraps); identifies the adventurer's state version.
    pub action_count: u16,
}

/// Number of felts in a serialized [`Adventurer`].
pub const ADVENTURER_FELTS: usize = 30;
/// Number of felts in a serialized [`Bag`].
pub const BAG_FELTS: usize = 31;
/// Number of felts in a serialized [`BeastEvent`].
pub const BEAST_EVENT_FELTS: usize = 8;

impl Adventurer {
    /// Level derived from xp (1 at xp 0).
    pub fn level(&self) -> u8 {
        rules::level_from_xp(self.xp)
    }

    /// Maximum health from (boosted) vitality.
    pub fn max_health(&self) -> u16 {
        rules::max_health(self.stats.vitality)
    }

    /// True when health is above zero.
    pub fn is_alive(&self) -> bool {
        self.health > 0
    }

    /// True when a beast is being fought.
    pub fn in_battle(&self) -> bool {
        self.beast_health > 0
    }

    /// Decodes the 30-felt Cairo-Serde form.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        let inner = |r: &mut FeltReader| -> Result<Self, DecodeError> {
            let shared = Self::decode_shared(r)?;
            Ok(Self {
                item_specials_seed: r.u16("item_specials_seed")?,
                action_count: r.u16("action_count")?,
                ..shared
            })
        };
        inner(r).map_err(|e| e.within("adventurer"))
    }

    /// Decodes the 27 leading felts both generations share (health … equipment); the v1-only
    /// fields are 0.
    pub(crate) fn decode_shared(r: &mut FeltReader) -> Result<Self, DecodeError> {
        Ok(Self {
            health: r.u16("health")?,
            xp: r.u16("xp")?,
            gold: r.u16("gold")?,
            beast_health: r.u16("beast_health")?,
            stat_upgrades_available: r.u8("stat_upgrades_available")?,
            stats: Stats::decode_felts(r).map_err(|e| e.within("stats"))?,
            equipment: Equipment::decode_felts(r).map_err(|e| e.within("equipment"))?,
            item_specials_seed: 0,
            action_count: 0,
        })
    }

    /// Decodes exactly 30 felts (e.g. a `get_adventurer` call result).
    pub fn from_felts(felts: &[Felt]) -> Result<Self, DecodeError> {
        let mut r = FeltReader::new(felts);
        let a = Self::decode_felts(&mut r)?;
        r.finish()?;
        Ok(a)
    }

    /// Appends the 30-felt Cairo-Serde form.
    pub fn encode_felts(&self, out: &mut Vec<Felt>) {
        self.encode_shared(out);
        out.extend([self.item_specials_seed, self.action_count].map(Felt::from));
    }

    /// Appends the 27 leading felts both generations share (health … equipment).
    pub(crate) fn encode_shared(&self, out: &mut Vec<Felt>) {
        out.extend([self.health, self.xp, self.gold, self.beast_health].map(Felt::from));
        out.push(Felt::from(self.stat_upgrades_available));
        self.stats.encode_felts(out);
        self.equipment.encode_felts(out);
    }
}

/// The adventurer's bag: 15 item slots (id 0 = free) plus the in-memory `mutated` flag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Bag {
    /// The 15 bag slots, `item_1` … `item_15`.
    pub items: [Item; 15],
    /// Whether the contract changed the bag during the call (never stored).
    pub mutated: bool,
}

impl Bag {
    /// Non-empty bag items in slot order.
    pub fn iter(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(|i| !i.is_empty())
    }

    /// True if the bag holds an item with this id.
    pub fn contains(&self, id: u8) -> bool {
        id != 0 && self.items.iter().any(|i| i.id == id)
    }

    /// True when all 15 slots are taken.
    pub fn is_full(&self) -> bool {
        self.items.iter().all(|i| !i.is_empty())
    }

    /// Decodes the 31-felt Cairo-Serde form.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        let inner = |r: &mut FeltReader| -> Result<Self, DecodeError> {
            let mut items = [Item::default(); 15];
            for (i, it) in items.iter_mut().enumerate() {
                *it = Item::decode_felts(r).map_err(|e| e.within(&format!("item_{}", i + 1)))?;
            }
            Ok(Self {
                items,
                mutated: r.bool("mutated")?,
            })
        };
        inner(r).map_err(|e| e.within("bag"))
    }

    /// Appends the 31-felt Cairo-Serde form.
    pub fn encode_felts(&self, out: &mut Vec<Felt>) {
        for it in &self.items {
            it.encode_felts(out);
        }
        out.push(Felt::from(self.mutated));
    }
}

/// Special powers of an item or beast: suffix (special1, 1..=16) and name prefix/suffix
/// (special2 1..=69, special3 1..=18); 0 = none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SpecialPowers {
    /// Item suffix ("of Power" …), 0 = none.
    pub special1: u8,
    /// Name prefix ("Agony" …), 0 = none.
    pub special2: u8,
    /// Name suffix ("Bane" …), 0 = none.
    pub special3: u8,
}

impl SpecialPowers {
    /// Decodes 3 u8 felts.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        Ok(Self {
            special1: r.u8("special1")?,
            special2: r.u8("special2")?,
            special3: r.u8("special3")?,
        })
    }

    /// Appends 3 felts.
    pub fn encode_felts(&self, out: &mut Vec<Felt>) {
        out.extend([self.special1, self.special2, self.special3].map(Felt::from));
    }

    /// "Prefix Suffix" name part (e.g. "Demon Grasp"), if special2/special3 are set.
    pub fn name_prefix(&self) -> Option<String> {
        let p = catalogue::special2_name(self.special2);
        let s = catalogue::special3_name(self.special3);
        match (p, s) {
            (Some(p), Some(s)) => Some(format!("{p} {s}")),
            (Some(p), None) => Some(p.to_string()),
            (None, Some(s)) => Some(s.to_string()),
            (None, None) => None,
        }
    }

    /// Full display name for a thing called `base`, e.g. "Demon Grasp Katana of Power".
    pub fn full_name(&self, base: &str) -> String {
        let mut name = match self.name_prefix() {
            Some(p) => format!("{p} {base}"),
            None => base.to_string(),
        };
        if let Some(suffix) = catalogue::special1_name(self.special1) {
            name.push(' ');
            name.push_str(suffix);
        }
        name
    }
}

/// A beast as in the `beast` event and `get_game_state` (the current or last beast; 8 felts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BeastEvent {
    /// Beast id 1..=75 (0 if none was ever met).
    pub id: u8,
    /// Beast seed (serialized as a decimal string: it can exceed 2^53).
    #[serde(with = "u64_string")]
    #[schemars(with = "String")]
    pub seed: u64,
    /// Starting health of the beast.
    pub health: u16,
    /// Beast level.
    pub level: u16,
    /// Name specials (only from level 19).
    pub specials: SpecialPowers,
    /// Whether killing it would mint a collectable (Beast Mode).
    pub is_collectable: bool,
}

impl BeastEvent {
    /// The name shown for this beast: its specials around the catalogue's name.
    pub fn display_name(&self) -> String {
        crate::beast_display::BeastDisplay::of(self).name
    }
}

impl BeastEvent {
    /// Decodes the 8-felt Cairo-Serde form.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        let inner = |r: &mut FeltReader| -> Result<Self, DecodeError> {
            Ok(Self {
                id: r.u8("id")?,
                seed: r.u64("seed")?,
                health: r.u16("health")?,
                level: r.u16("level")?,
                specials: SpecialPowers::decode_felts(r).map_err(|e| e.within("specials"))?,
                is_collectable: r.bool("is_collectable")?,
            })
        };
        inner(r).map_err(|e| e.within("beast"))
    }

    /// Appends the 8-felt Cairo-Serde form.
    pub fn encode_felts(&self, out: &mut Vec<Felt>) {
        out.push(Felt::from(self.id));
        out.push(Felt::from(self.seed));
        out.extend([self.health, self.level].map(Felt::from));
        self.specials.encode_felts(out);
        out.push(Felt::from(self.is_collectable));
    }
}

/// The full `get_game_state` result: boosted adventurer, bag, current/last beast, market ids.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameState {
    /// Adventurer with item boosts and luck applied.
    pub adventurer: Adventurer,
    /// Bag.
    pub bag: Bag,
    /// Current beast if in battle, otherwise the last one met.
    pub beast: BeastEvent,
    /// Market item ids (may contain duplicates; meaningful only when the market is open).
    pub market: Vec<u8>,
}

impl GameState {
    /// Decodes a complete `get_game_state` result (§3.4): 30 + 31 + 8 felts, then the market span;
    /// trailing felts are an error.
    pub fn decode_felts(felts: &[Felt]) -> Result<Self, DecodeError> {
        let mut r = FeltReader::new(felts);
        let adventurer = Adventurer::decode_felts(&mut r)?;
        let bag = Bag::decode_felts(&mut r)?;
        let beast = BeastEvent::decode_felts(&mut r)?;
        let market = r.array("market", 1, |r| {
            Ok(r.bounded("id", MAX_ITEM_ID.into())? as u8)
        })?;
        r.finish()?;
        Ok(Self {
            adventurer,
            bag,
            beast,
            market,
        })
    }

    /// Encodes to the `get_game_state` felt layout (inverse of [`GameState::decode_felts`]).
    pub fn to_felts(&self) -> Vec<Felt> {
        let mut out = Vec::with_capacity(70 + self.market.len());
        self.adventurer.encode_felts(&mut out);
        self.bag.encode_felts(&mut out);
        self.beast.encode_felts(&mut out);
        out.push(Felt::from(self.market.len()));
        out.extend(self.market.iter().map(|&id| Felt::from(id)));
        out
    }

    /// True if the item id is equipped or in the bag.
    pub fn owns(&self, id: u8) -> bool {
        self.adventurer.equipment.contains(id) || self.bag.contains(id)
    }
}

/// One purchase in `buy_items` (and in the `buy_items` event): item id and whether to equip it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ItemPurchase {
    /// Item id 1..=101.
    pub item_id: u8,
    /// Equip immediately (otherwise it goes to the bag).
    pub equip: bool,
}

impl ItemPurchase {
    /// Decodes `(item_id, equip)`.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        Ok(Self {
            item_id: r.bounded("item_id", MAX_ITEM_ID.into())? as u8,
            equip: r.bool("equip")?,
        })
    }

    /// Appends `(item_id, equip)` (for building `buy_items` calldata).
    pub fn encode_felts(&self, out: &mut Vec<Felt>) {
        out.extend([Felt::from(self.item_id), Felt::from(self.equip)]);
    }
}

#[cfg(test)]
pub(crate) mod tests;
