//! Decoding of `ls_0_0_9-GameEvent`, emitted through the Dojo world's `EventEmitted` event
//! (docs/game-rules.md#events), into typed, name-enriched events that tools return to the agent.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use starknet_types_core::felt::Felt;

use super::beast_display::BeastDisplay;
use super::catalogue::{self, ItemType, Slot, Tier};
use super::felt::{DecodeError, FeltReader};
use super::id::AdventurerId;
use super::model::{Adventurer, Bag, BeastEvent, MAX_ITEM_ID, SpecialPowers, Stats, u64_string};

mod encode;
mod v2_variants;

#[cfg(test)]
use encode::encode_details;
pub use encode::encode_game_event;
pub use v2_variants::{CollectableStats, UnknownPayload};

/// `starknet_keccak("EventEmitted")`: keys[0] of every Dojo world event.
pub const EVENT_EMITTED_SELECTOR: Felt =
    Felt::from_hex_unchecked("0x1c93f6e4703ae90f75338f29bffbe9c1662200cee981f49afeec26e892debcd");

/// Dojo selector of `ls_0_0_9-GameEvent`: keys[1] of the world's `EventEmitted`.
pub const GAME_EVENT_SELECTOR: Felt =
    Felt::from_hex_unchecked("0x53f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c");

/// One decoded game event: whose, at which action, and what happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameEvent {
    /// Adventurer (game token) id.
    pub adventurer_id: AdventurerId,
    /// Action count after the action that emitted it (shared by all events of one tx).
    pub action_count: u16,
    /// The event itself.
    pub details: GameEventDetails,
}

/// An item id with its catalogue name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ItemRef {
    /// Item id.
    pub id: u8,
    /// Item name ("Unknown item #id" if not in the catalogue).
    pub name: String,
}

impl ItemRef {
    /// Builds the reference, looking up the name.
    pub fn new(id: u8) -> Self {
        Self {
            id,
            name: catalogue::item_name(id),
        }
    }
}

/// A beast appearing (explore or start), with its catalogue facts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BeastEncounter {
    /// Beast id.
    pub id: u8,
    /// Beast name, with specials when it has them (e.g. "Demon Grasp Dragon").
    pub name: String,
    /// Beast tier.
    pub tier: Tier,
    /// Beast type (not `type`: that key is the event tag).
    pub beast_type: ItemType,
    /// Beast level.
    pub level: u16,
    /// Starting health.
    pub health: u16,
    /// Specials (name prefix/suffix from level 19).
    pub specials: SpecialPowers,
    /// Beast seed (decimal string).
    #[serde(with = "u64_string")]
    #[schemars(with = "String")]
    pub seed: u64,
    /// Whether killing it mints a collectable.
    pub is_collectable: bool,
}

impl From<BeastEvent> for BeastEncounter {
    fn from(b: BeastEvent) -> Self {
        let shown = BeastDisplay::of(&b);
        Self {
            id: b.id,
            name: shown.name,
            tier: shown.tier,
            beast_type: shown.beast_type,
            level: b.level,
            health: b.health,
            specials: b.specials,
            seed: b.seed,
            is_collectable: b.is_collectable,
        }
    }
}

impl BeastEncounter {
    /// The raw model value back (e.g. to update a cached game state).
    pub fn to_beast_event(&self) -> BeastEvent {
        BeastEvent {
            id: self.id,
            seed: self.seed,
            health: self.health,
            level: self.level,
            specials: self.specials,
            is_collectable: self.is_collectable,
        }
    }
}

/// What a discovery yielded (Cairo `DiscoveryType`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Discovery {
    /// Gold found.
    Gold {
        /// Gold amount.
        amount: u16,
    },
    /// Health found.
    Health {
        /// Health amount.
        amount: u16,
    },
    /// An item found (equipped, bagged, or converted to gold if already owned).
    Loot {
        /// The item.
        item: ItemRef,
    },
}

/// One hit: damage dealt, where, and whether it was critical.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AttackEvent {
    /// Damage dealt.
    pub damage: u16,
    /// Hit location (armor slot for beast hits, `Weapon`/`None` otherwise).
    pub location: Slot,
    /// Critical hit.
    pub critical_hit: bool,
}

impl AttackEvent {
    fn decode(r: &mut FeltReader) -> Result<Self, DecodeError> {
        Ok(Self {
            damage: r.u16("damage")?,
            location: read_slot(r, "location")?,
            critical_hit: r.bool("critical_hit")?,
        })
    }
}

/// An obstacle encounter during explore.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ObstacleEncounter {
    /// Obstacle id.
    pub obstacle_id: u8,
    /// Obstacle name.
    pub name: String,
    /// Obstacle tier.
    pub tier: Tier,
    /// Obstacle type (not `type`: that key is the event tag).
    pub obstacle_type: ItemType,
    /// True if dodged: then `damage` is 0 and the strike avoided is in `avoided_damage`.
    pub dodged: bool,
    /// Damage taken (0 when dodged).
    pub damage: u16,
    /// The damage the obstacle would have dealt, when dodged (the contract reports it as
    /// `damage`; here it is moved so nobody reads a dodge as a hit).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub avoided_damage: u16,
    /// Armor slot hit.
    pub location: Slot,
    /// Critical hit.
    pub critical_hit: bool,
    /// Xp gained (only if survived).
    pub xp_reward: u16,
}

/// A purchase in the `buy_items` event, with the item name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PurchasedItem {
    /// Item id.
    pub item_id: u8,
    /// Item name.
    pub name: String,
    /// Whether it was equipped.
    pub equip: bool,
}

/// The `GameEventDetails` variants in index order (docs/game-rules.md#events): 0–16 of both
/// generations, 17–19 of the second only (docs/game-v2.md#events), serialized as
/// `{"type": "<snake_case variant>", ...fields}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEventDetails {
    /// 0: the adventurer after the action (boosted stats).
    Adventurer(Adventurer),
    /// 1: the bag after it changed.
    Bag(Bag),
    /// 2: a beast appeared.
    Beast(BeastEncounter),
    /// 3: a discovery during explore.
    Discovery {
        /// What was found.
        discovery: Discovery,
        /// Xp gained.
        xp_reward: u16,
    },
    /// 4: an obstacle during explore.
    Obstacle(ObstacleEncounter),
    /// 5: the beast was killed.
    DefeatedBeast {
        /// Beast id.
        beast_id: u8,
        /// Beast name.
        beast_name: String,
        /// Gold gained.
        gold_reward: u16,
        /// Xp gained.
        xp_reward: u16,
    },
    /// 6: the adventurer fled.
    FledBeast {
        /// Beast id.
        beast_id: u8,
        /// Beast name.
        beast_name: String,
        /// Xp gained.
        xp_reward: u16,
    },
    /// 7: stat points were spent.
    StatUpgrade {
        /// Points added per stat.
        stats: Stats,
    },
    /// 8: items/potions bought.
    BuyItems {
        /// Potions bought.
        potions: u8,
        /// Items bought.
        items_purchased: Vec<PurchasedItem>,
    },
    /// 9: items equipped.
    Equip {
        /// Items equipped.
        items: Vec<ItemRef>,
    },
    /// 10: items dropped.
    Drop {
        /// Items dropped.
        items: Vec<ItemRef>,
    },
    /// 11: a new level was reached.
    LevelUp {
        /// The new level.
        level: u8,
    },
    /// 12: the market list after a level-up.
    MarketItems {
        /// Market items, each once, in the order the game lists them (the contract's list may
        /// repeat an item; repeats are dropped when decoding).
        items: Vec<ItemRef>,
    },
    /// 13: the beast ambushed the adventurer on appearance.
    Ambush(AttackEvent),
    /// 14: the adventurer hit the beast.
    Attack(AttackEvent),
    /// 15: the beast hit the adventurer.
    BeastAttack(AttackEvent),
    /// 16: a flee attempt.
    Flee {
        /// Whether it succeeded.
        success: bool,
    },
    /// 17 (v2 only): GameCore's randomness event, kept as read (its payload is not public).
    Randomness(UnknownPayload),
    /// 18 (v2 only): a collectable event, kept as read (its payload is not public).
    Collectable(UnknownPayload),
    /// 19 (v2 only): a collectable beast's kill record (Beast Mode).
    CollectableStats(CollectableStats),
}

impl GameEventDetails {
    /// The snake_case variant name, as in the `type` JSON field.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Adventurer(_) => "adventurer",
            Self::Bag(_) => "bag",
            Self::Beast(_) => "beast",
            Self::Discovery { .. } => "discovery",
            Self::Obstacle(_) => "obstacle",
            Self::DefeatedBeast { .. } => "defeated_beast",
            Self::FledBeast { .. } => "fled_beast",
            Self::StatUpgrade { .. } => "stat_upgrade",
            Self::BuyItems { .. } => "buy_items",
            Self::Equip { .. } => "equip",
            Self::Drop { .. } => "drop",
            Self::LevelUp { .. } => "level_up",
            Self::MarketItems { .. } => "market_items",
            Self::Ambush(_) => "ambush",
            Self::Attack(_) => "attack",
            Self::BeastAttack(_) => "beast_attack",
            Self::Flee { .. } => "flee",
            Self::Randomness(_) => "randomness",
            Self::Collectable(_) => "collectable",
            Self::CollectableStats(_) => "collectable_stats",
        }
    }

    /// Decodes the v1 world's `[variant_index, ...payload]` (variants 0–16), consuming exactly
    /// the payload.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        let variant = r.variant("details", 17)?;
        Self::decode_payload(variant, r)
    }

    /// Decodes the payload of variant 0–16 in the v1 layout (the second generation shares all
    /// but 0 and 2), shaped for the agent.
    pub(crate) fn decode_payload(variant: u8, r: &mut FeltReader) -> Result<Self, DecodeError> {
        let d = match variant {
            0 => Self::Adventurer(Adventurer::decode_felts(r)?),
            1 => Self::Bag(Bag::decode_felts(r)?),
            2 => Self::Beast(BeastEvent::decode_felts(r)?.into()),
            3 => {
                let kind = r.variant("discovery_type", 3)?;
                let discovery = match kind {
                    0 => Discovery::Gold {
                        amount: r.u16("amount")?,
                    },
                    1 => Discovery::Health {
                        amount: r.u16("amount")?,
                    },
                    _ => Discovery::Loot {
                        item: ItemRef::new(read_item_id(r, "item_id")?),
                    },
                };
                Self::Discovery {
                    discovery,
                    xp_reward: r.u16("xp_reward")?,
                }
            }
            4 => {
                let obstacle_id = r.u8("obstacle_id")?;
                let info = catalogue::obstacle(obstacle_id);
                Self::Obstacle(ObstacleEncounter {
                    obstacle_id,
                    name: info.map_or_else(
                        || format!("Unknown obstacle #{obstacle_id}"),
                        |o| o.name.to_string(),
                    ),
                    tier: info.map_or(Tier::None, |o| o.tier),
                    obstacle_type: info.map_or(ItemType::None, |o| o.obstacle_type),
                    dodged: r.bool("dodged")?,
                    damage: r.u16("damage")?,
                    avoided_damage: 0,
                    location: read_slot(r, "location")?,
                    critical_hit: r.bool("critical_hit")?,
                    xp_reward: r.u16("xp_reward")?,
                })
            }
            5 => {
                let beast_id = r.u8("beast_id")?;
                Self::DefeatedBeast {
                    beast_id,
                    beast_name: crate::beast_display::name(beast_id),
                    gold_reward: r.u16("gold_reward")?,
                    xp_reward: r.u16("xp_reward")?,
                }
            }
            6 => {
                let beast_id = r.u8("beast_id")?;
                Self::FledBeast {
                    beast_id,
                    beast_name: crate::beast_display::name(beast_id),
                    xp_reward: r.u16("xp_reward")?,
                }
            }
            7 => Self::StatUpgrade {
                stats: Stats::decode_felts(r).map_err(|e| e.within("stats"))?,
            },
            8 => {
                let potions = r.u8("potions")?;
                let items = r.array("items_purchased", 2, |r| {
                    let p = super::model::ItemPurchase::decode_felts(r)?;
                    Ok(PurchasedItem {
                        item_id: p.item_id,
                        name: catalogue::item_name(p.item_id),
                        equip: p.equip,
                    })
                })?;
                Self::BuyItems {
                    potions,
                    items_purchased: items,
                }
            }
            9 => Self::Equip {
                items: read_item_list(r)?,
            },
            10 => Self::Drop {
                items: read_item_list(r)?,
            },
            11 => Self::LevelUp {
                level: r.u8("level")?,
            },
            12 => Self::MarketItems {
                items: read_item_list(r)?,
            },
            13 => Self::Ambush(AttackEvent::decode(r)?),
            14 => Self::Attack(AttackEvent::decode(r)?),
            15 => Self::BeastAttack(AttackEvent::decode(r)?),
            16 => Self::Flee {
                success: r.bool("flee")?,
            },
            other => {
                return Err(DecodeError::Invalid {
                    field: "details".into(),
                    reason: format!("variant {other} has no shared payload layout"),
                });
            }
        };
        Ok(d.for_agent())
    }

    /// What the agent reads, from what the contract emits: a dodged obstacle's damage moves to
    /// `avoided_damage`, and a repeated market item is listed once. Idempotent; the engine's
    /// rules keep the contract's raw values.
    pub fn for_agent(mut self) -> Self {
        match &mut self {
            Self::Obstacle(o) if o.dodged && o.damage > 0 => {
                o.avoided_damage = o.damage;
                o.damage = 0;
            }
            Self::MarketItems { items } => {
                let mut seen = [false; 256];
                items.retain(|i| !std::mem::replace(&mut seen[usize::from(i.id)], true));
            }
            _ => {}
        }
        self
    }
}

fn is_zero(v: &u16) -> bool {
    *v == 0
}

fn read_slot(r: &mut FeltReader, field: &str) -> Result<Slot, DecodeError> {
    let i = r.variant(field, 9)?;
    Ok(Slot::from_index(i).unwrap_or_default())
}

fn read_item_id(r: &mut FeltReader, field: &str) -> Result<u8, DecodeError> {
    Ok(r.bounded(field, MAX_ITEM_ID.into())? as u8)
}

fn read_item_list(r: &mut FeltReader) -> Result<Vec<ItemRef>, DecodeError> {
    r.array("items", 1, |r| Ok(ItemRef::new(read_item_id(r, "id")?)))
}

/// Decodes one receipt event. Returns `Ok(None)` when the keys are not the world's
/// `EventEmitted` for `ls_0_0_9-GameEvent`, `Ok(Some)` when decoded, and `Err` when it is a
/// GameEvent whose data is malformed. Data layout:
/// `[keys_len(=1), adventurer_id, values_len, action_count, variant_index, ...payload]`.
pub fn decode_game_event(keys: &[Felt], data: &[Felt]) -> Result<Option<GameEvent>, DecodeError> {
    if keys.len() < 2 || keys[0] != EVENT_EMITTED_SELECTOR || keys[1] != GAME_EVENT_SELECTOR {
        return Ok(None);
    }
    let mut r = FeltReader::new(data);
    let keys_len = r.u32("keys_len")?;
    if keys_len != 1 {
        return Err(DecodeError::Invalid {
            field: "keys_len".into(),
            reason: format!("expected 1 key (adventurer_id), got {keys_len}"),
        });
    }
    let adventurer_id = AdventurerId::from(r.u64("adventurer_id")?);
    let values_len = r.len("values_len", 1)?;
    if values_len != r.remaining() {
        return Err(DecodeError::Invalid {
            field: "values_len".into(),
            reason: format!("says {values_len} felts but {} follow", r.remaining()),
        });
    }
    let action_count = r.u16("action_count")?;
    let details = GameEventDetails::decode_felts(&mut r).map_err(|e| e.within("details"))?;
    r.finish()?;
    Ok(Some(GameEvent {
        adventurer_id,
        action_count,
        details,
    }))
}

/// Decodes every GameEvent among `(keys, data)` pairs (e.g. a receipt's events), skipping other
/// events and failing on the first malformed GameEvent.
pub fn decode_game_events<'a>(
    events: impl IntoIterator<Item = (&'a [Felt], &'a [Felt])>,
) -> Result<Vec<GameEvent>, DecodeError> {
    decode_matching(events, decode_game_event)
}

/// Runs `decode` over `(keys, data)` pairs, keeping what it recognises, in order, and stopping
/// at the first error (the loop of both generations' receipt decoders).
pub(crate) fn decode_matching<'a, T>(
    events: impl IntoIterator<Item = (&'a [Felt], &'a [Felt])>,
    decode: impl Fn(&[Felt], &[Felt]) -> Result<Option<T>, DecodeError>,
) -> Result<Vec<T>, DecodeError> {
    let mut out = Vec::new();
    for (keys, data) in events {
        out.extend(decode(keys, data)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
