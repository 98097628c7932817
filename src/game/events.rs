//! Decoding of `ls_0_0_9-GameEvent`, emitted through the Dojo world's `EventEmitted` event
//! (docs/game-rules.md#events), into typed, name-enriched events that tools return to the agent.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use starknet_types_core::felt::Felt;

use super::catalogue::{self, ItemType, Slot, Tier};
use super::felt::{DecodeError, FeltReader};
use super::model::{Adventurer, Bag, BeastEvent, MAX_ITEM_ID, SpecialPowers, Stats, u64_string};

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
    pub adventurer_id: u64,
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
        let info = catalogue::beast(b.id);
        let base = info.map_or_else(
            || format!("Unknown beast #{}", b.id),
            |i| i.name.to_string(),
        );
        Self {
            id: b.id,
            name: b.specials.full_name(&base),
            tier: info.map_or(Tier::None, |i| i.tier),
            beast_type: info.map_or(ItemType::None, |i| i.beast_type),
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

/// The 17 `GameEventDetails` variants (index order of docs/game-rules.md#events), serialized as
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
        }
    }

    /// Decodes `[variant_index, ...payload]`, consuming exactly the payload.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        let variant = r.variant("details", 17)?;
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
                    beast_name: beast_name(beast_id),
                    gold_reward: r.u16("gold_reward")?,
                    xp_reward: r.u16("xp_reward")?,
                }
            }
            6 => {
                let beast_id = r.u8("beast_id")?;
                Self::FledBeast {
                    beast_id,
                    beast_name: beast_name(beast_id),
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
            _ => Self::Flee {
                success: r.bool("flee")?,
            },
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

fn beast_name(id: u8) -> String {
    catalogue::beast(id).map_or_else(|| format!("Unknown beast #{id}"), |b| b.name.to_string())
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
    let adventurer_id = r.u64("adventurer_id")?;
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
    let mut out = Vec::new();
    for (keys, data) in events {
        if let Some(e) = decode_game_event(keys, data)? {
            out.push(e);
        }
    }
    Ok(out)
}

/// Encodes an event into `(keys, data)` as the world emits it (inverse of [`decode_game_event`]);
/// used by the practice chain and tests. `system` is the emitting system's address (keys[2]).
pub fn encode_game_event(event: &GameEvent, system: Felt) -> (Vec<Felt>, Vec<Felt>) {
    let mut values = vec![Felt::from(event.action_count)];
    encode_details(&event.details, &mut values);
    let mut data = vec![
        Felt::ONE,
        Felt::from(event.adventurer_id),
        Felt::from(values.len()),
    ];
    data.extend(values);
    (
        vec![EVENT_EMITTED_SELECTOR, GAME_EVENT_SELECTOR, system],
        data,
    )
}

fn encode_items(items: &[ItemRef], out: &mut Vec<Felt>) {
    out.push(Felt::from(items.len()));
    out.extend(items.iter().map(|i| Felt::from(i.id)));
}

fn encode_attack(a: &AttackEvent, out: &mut Vec<Felt>) {
    out.extend([
        Felt::from(a.damage),
        Felt::from(a.location.index()),
        Felt::from(a.critical_hit),
    ]);
}

fn encode_details(d: &GameEventDetails, out: &mut Vec<Felt>) {
    use GameEventDetails as D;
    let index: u8 = match d {
        D::Adventurer(_) => 0,
        D::Bag(_) => 1,
        D::Beast(_) => 2,
        D::Discovery { .. } => 3,
        D::Obstacle(_) => 4,
        D::DefeatedBeast { .. } => 5,
        D::FledBeast { .. } => 6,
        D::StatUpgrade { .. } => 7,
        D::BuyItems { .. } => 8,
        D::Equip { .. } => 9,
        D::Drop { .. } => 10,
        D::LevelUp { .. } => 11,
        D::MarketItems { .. } => 12,
        D::Ambush(_) => 13,
        D::Attack(_) => 14,
        D::BeastAttack(_) => 15,
        D::Flee { .. } => 16,
    };
    out.push(Felt::from(index));
    match d {
        D::Adventurer(a) => a.encode_felts(out),
        D::Bag(b) => b.encode_felts(out),
        D::Beast(b) => b.to_beast_event().encode_felts(out),
        D::Discovery {
            discovery,
            xp_reward,
        } => {
            match discovery {
                Discovery::Gold { amount } => out.extend([Felt::ZERO, Felt::from(*amount)]),
                Discovery::Health { amount } => out.extend([Felt::ONE, Felt::from(*amount)]),
                Discovery::Loot { item } => out.extend([Felt::TWO, Felt::from(item.id)]),
            }
            out.push(Felt::from(*xp_reward));
        }
        D::Obstacle(o) => out.extend([
            Felt::from(o.obstacle_id),
            Felt::from(o.dodged),
            Felt::from(o.damage.max(o.avoided_damage)),
            Felt::from(o.location.index()),
            Felt::from(o.critical_hit),
            Felt::from(o.xp_reward),
        ]),
        D::DefeatedBeast {
            beast_id,
            gold_reward,
            xp_reward,
            ..
        } => out.extend([
            Felt::from(*beast_id),
            Felt::from(*gold_reward),
            Felt::from(*xp_reward),
        ]),
        D::FledBeast {
            beast_id,
            xp_reward,
            ..
        } => out.extend([Felt::from(*beast_id), Felt::from(*xp_reward)]),
        D::StatUpgrade { stats } => stats.encode_felts(out),
        D::BuyItems {
            potions,
            items_purchased,
        } => {
            out.push(Felt::from(*potions));
            out.push(Felt::from(items_purchased.len()));
            for p in items_purchased {
                out.extend([Felt::from(p.item_id), Felt::from(p.equip)]);
            }
        }
        D::Equip { items } | D::Drop { items } | D::MarketItems { items } => {
            encode_items(items, out)
        }
        D::LevelUp { level } => out.push(Felt::from(*level)),
        D::Ambush(a) | D::Attack(a) | D::BeastAttack(a) => encode_attack(a, out),
        D::Flee { success } => out.push(Felt::from(*success)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::model::tests::sample_state;
    use serde_json::json;

    fn felts(v: &[u64]) -> Vec<Felt> {
        v.iter().map(|&x| Felt::from(x)).collect()
    }

    fn keys() -> Vec<Felt> {
        vec![
            EVENT_EMITTED_SELECTOR,
            GAME_EVENT_SELECTOR,
            Felt::from(0x6f7cu64),
        ]
    }

    /// Wraps a hand-built `[variant, ...payload]` in the world event data layout.
    fn data(adv: u64, action: u64, values: &[u64]) -> Vec<Felt> {
        let mut d = vec![1, adv, values.len() as u64 + 1, action];
        d.extend_from_slice(values);
        felts(&d)
    }

    fn decode(values: &[u64]) -> GameEventDetails {
        let e = decode_game_event(&keys(), &data(77, 5, values))
            .unwrap()
            .unwrap();
        assert_eq!((e.adventurer_id, e.action_count), (77, 5));
        e.details
    }

    #[test]
    fn selectors_are_the_documented_values() {
        assert_eq!(
            format!("{EVENT_EMITTED_SELECTOR:#x}"),
            "0x1c93f6e4703ae90f75338f29bffbe9c1662200cee981f49afeec26e892debcd"
        );
        assert_eq!(
            format!("{GAME_EVENT_SELECTOR:#x}"),
            "0x53f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c"
        );
    }

    #[test]
    fn other_events_are_ignored() {
        let d = data(1, 1, &[16, 1]);
        assert_eq!(decode_game_event(&[], &d).unwrap(), None);
        assert_eq!(
            decode_game_event(&[EVENT_EMITTED_SELECTOR], &d).unwrap(),
            None
        );
        assert_eq!(
            decode_game_event(&[EVENT_EMITTED_SELECTOR, Felt::ONE], &d).unwrap(),
            None
        );
        assert_eq!(
            decode_game_event(&[GAME_EVENT_SELECTOR, EVENT_EMITTED_SELECTOR], &d).unwrap(),
            None
        );
    }

    #[test]
    fn decodes_adventurer_and_bag() {
        let s = sample_state();
        let mut v = vec![Felt::ZERO];
        s.adventurer.encode_felts(&mut v);
        let vals: Vec<u64> = v.iter().map(|f| u64::try_from(*f).unwrap()).collect();
        assert_eq!(decode(&vals), GameEventDetails::Adventurer(s.adventurer));
        let mut v = vec![Felt::ONE];
        s.bag.encode_felts(&mut v);
        let vals: Vec<u64> = v.iter().map(|f| u64::try_from(*f).unwrap()).collect();
        assert_eq!(decode(&vals), GameEventDetails::Bag(s.bag));
    }

    #[test]
    fn decodes_beast() {
        let GameEventDetails::Beast(b) = decode(&[2, 29, 12345, 80, 20, 0, 18, 6, 1]) else {
            panic!("not a beast")
        };
        assert_eq!(
            (b.id, b.seed, b.health, b.level, b.is_collectable),
            (29, 12345, 80, 20, true)
        );
        assert_eq!(b.name, "Demon Grasp Dragon");
        assert_eq!((b.tier, b.beast_type), (Tier::T1, ItemType::BladeOrHide));
        let v = serde_json::to_value(GameEventDetails::Beast(b)).unwrap();
        assert_eq!(v["type"], "beast");
        assert_eq!(v["seed"], "12345");
        assert_eq!(v["tier"], "T1");
    }

    #[test]
    fn decodes_discoveries() {
        assert_eq!(
            decode(&[3, 0, 7, 1]),
            GameEventDetails::Discovery {
                discovery: Discovery::Gold { amount: 7 },
                xp_reward: 1
            }
        );
        assert_eq!(
            decode(&[3, 1, 12, 1]),
            GameEventDetails::Discovery {
                discovery: Discovery::Health { amount: 12 },
                xp_reward: 1
            }
        );
        let d = decode(&[3, 2, 42, 1]);
        let v = serde_json::to_value(&d).unwrap();
        assert_eq!(
            v,
            json!({"type": "discovery", "discovery": {"kind": "loot", "item": {"id": 42, "name": "Katana"}}, "xp_reward": 1})
        );
    }

    #[test]
    fn decodes_obstacle() {
        let GameEventDetails::Obstacle(o) = decode(&[4, 22, 0, 9, 3, 1, 4]) else {
            panic!()
        };
        assert_eq!(o.name, "Curse");
        assert_eq!(
            (o.tier, o.obstacle_type),
            (Tier::T5, ItemType::MagicOrCloth)
        );
        assert!(!o.dodged && o.critical_hit);
        assert_eq!((o.damage, o.location, o.xp_reward), (9, Slot::Head, 4));
        let v = serde_json::to_value(GameEventDetails::Obstacle(o)).unwrap();
        assert_eq!(v["type"], "obstacle");
        assert_eq!(v["location"], "Head");
        assert!(v.get("avoided_damage").is_none(), "only on a dodge");
    }

    #[test]
    fn a_dodged_obstacle_reports_no_damage_taken() {
        let GameEventDetails::Obstacle(o) = decode(&[4, 22, 1, 9, 3, 0, 4]) else {
            panic!()
        };
        assert!(o.dodged);
        assert_eq!((o.damage, o.avoided_damage), (0, 9));
        let v = serde_json::to_value(GameEventDetails::Obstacle(o.clone())).unwrap();
        assert_eq!(
            (v["damage"].as_u64(), v["avoided_damage"].as_u64()),
            (Some(0), Some(9))
        );
        let mut felts = Vec::new();
        encode_details(&GameEventDetails::Obstacle(o), &mut felts);
        assert_eq!(
            felts[3],
            Felt::from(9u8),
            "encodes back the contract's value"
        );
    }

    #[test]
    fn decodes_battle_outcomes() {
        assert_eq!(
            decode(&[5, 71, 0, 4]),
            GameEventDetails::DefeatedBeast {
                beast_id: 71,
                beast_name: "Troll".into(),
                gold_reward: 0,
                xp_reward: 4
            }
        );
        assert_eq!(
            decode(&[6, 46, 1]),
            GameEventDetails::FledBeast {
                beast_id: 46,
                beast_name: "Bear".into(),
                xp_reward: 1
            }
        );
        assert_eq!(decode(&[16, 1]), GameEventDetails::Flee { success: true });
        assert_eq!(decode(&[16, 0]), GameEventDetails::Flee { success: false });
        let hit = AttackEvent {
            damage: 14,
            location: Slot::Chest,
            critical_hit: false,
        };
        assert_eq!(decode(&[13, 14, 2, 0]), GameEventDetails::Ambush(hit));
        assert_eq!(decode(&[14, 14, 2, 0]), GameEventDetails::Attack(hit));
        assert_eq!(decode(&[15, 14, 2, 0]), GameEventDetails::BeastAttack(hit));
        let v = serde_json::to_value(decode(&[15, 14, 2, 1])).unwrap();
        assert_eq!(
            v,
            json!({"type": "beast_attack", "damage": 14, "location": "Chest", "critical_hit": true})
        );
    }

    #[test]
    fn decodes_progression_and_market_events() {
        assert_eq!(
            decode(&[7, 1, 0, 2, 0, 0, 0, 0]),
            GameEventDetails::StatUpgrade {
                stats: Stats {
                    strength: 1,
                    vitality: 2,
                    ..Default::default()
                }
            }
        );
        assert_eq!(decode(&[11, 3]), GameEventDetails::LevelUp { level: 3 });
        assert_eq!(
            decode(&[8, 2, 2, 42, 1, 8, 0]),
            GameEventDetails::BuyItems {
                potions: 2,
                items_purchased: vec![
                    PurchasedItem {
                        item_id: 42,
                        name: "Katana".into(),
                        equip: true
                    },
                    PurchasedItem {
                        item_id: 8,
                        name: "Gold Ring".into(),
                        equip: false
                    },
                ]
            }
        );
        assert_eq!(
            decode(&[9, 1, 46]),
            GameEventDetails::Equip {
                items: vec![ItemRef::new(46)]
            }
        );
        assert_eq!(decode(&[10, 0]), GameEventDetails::Drop { items: vec![] });
        let GameEventDetails::MarketItems { items } = decode(&[12, 3, 1, 1, 101]) else {
            panic!()
        };
        assert_eq!(
            items.iter().map(|i| i.id).collect::<Vec<_>>(),
            vec![1, 101],
            "the contract's repeated item is listed once"
        );
        assert_eq!(items[1].name, "Heavy Gloves");
    }

    #[test]
    fn rejects_malformed_events() {
        let k = keys();
        // Unknown variant.
        assert!(matches!(
            decode_game_event(&k, &data(1, 1, &[17])),
            Err(DecodeError::UnknownVariant { .. })
        ));
        // Short payload.
        assert!(decode_game_event(&k, &data(1, 1, &[14, 3])).is_err());
        // Trailing payload.
        assert!(decode_game_event(&k, &data(1, 1, &[16, 1, 0])).is_err());
        // Bad bool / slot / item id / discovery type.
        assert!(decode_game_event(&k, &data(1, 1, &[16, 2])).is_err());
        assert!(decode_game_event(&k, &data(1, 1, &[14, 3, 9, 0])).is_err());
        assert!(decode_game_event(&k, &data(1, 1, &[9, 1, 102])).is_err());
        assert!(decode_game_event(&k, &data(1, 1, &[3, 3, 1, 1])).is_err());
        // keys_len must be 1; values_len must match.
        let mut d = data(1, 1, &[16, 1]);
        d[0] = Felt::TWO;
        assert!(decode_game_event(&k, &d).is_err());
        let mut d = data(1, 1, &[16, 1]);
        d[2] = Felt::from(9u8);
        assert!(decode_game_event(&k, &d).is_err());
        // Empty / truncated headers.
        assert!(decode_game_event(&k, &[]).is_err());
        assert!(decode_game_event(&k, &felts(&[1, 5])).is_err());
        // Huge array length doesn't allocate or panic.
        assert!(decode_game_event(&k, &data(1, 1, &[12, u32::MAX as u64])).is_err());
        // action_count above u16.
        assert!(decode_game_event(&k, &data(1, 70_000, &[16, 1])).is_err());
    }

    #[test]
    fn encode_roundtrips_every_variant() {
        let s = sample_state();
        let hit = AttackEvent {
            damage: 3,
            location: Slot::Foot,
            critical_hit: true,
        };
        let all = vec![
            GameEventDetails::Adventurer(s.adventurer),
            GameEventDetails::Bag(s.bag),
            GameEventDetails::Beast(s.beast.into()),
            GameEventDetails::Discovery {
                discovery: Discovery::Loot {
                    item: ItemRef::new(9),
                },
                xp_reward: 1,
            },
            decode(&[4, 51, 1, 20, 6, 0, 5]),
            decode(&[5, 29, 50, 40]),
            decode(&[6, 1, 1]),
            GameEventDetails::StatUpgrade {
                stats: s.adventurer.stats,
            },
            decode(&[8, 0, 1, 101, 1]),
            decode(&[9, 2, 42, 8]),
            decode(&[10, 1, 46]),
            GameEventDetails::LevelUp { level: 9 },
            decode(&[12, 2, 5, 6]),
            GameEventDetails::Ambush(hit),
            GameEventDetails::Attack(hit),
            GameEventDetails::BeastAttack(hit),
            GameEventDetails::Flee { success: false },
        ];
        assert_eq!(all.len(), 17);
        for (i, details) in all.into_iter().enumerate() {
            let e = GameEvent {
                adventurer_id: u64::MAX,
                action_count: 65535,
                details,
            };
            let (k, d) = encode_game_event(&e, Felt::ONE);
            assert_eq!(u64::try_from(d[4]).unwrap(), i as u64, "variant index");
            assert_eq!(decode_game_event(&k, &d).unwrap().as_ref(), Some(&e));
            // JSON round trip too, with the snake_case tag.
            let v = serde_json::to_value(&e).unwrap();
            assert_eq!(v["details"]["type"], e.details.kind());
            assert_eq!(serde_json::from_value::<GameEvent>(v).unwrap(), e);
        }
    }

    #[test]
    fn json_schema_lists_every_variant() {
        let schema = serde_json::to_string(&schemars::schema_for!(GameEvent)).unwrap();
        for kind in [
            "adventurer",
            "bag",
            "beast",
            "discovery",
            "obstacle",
            "defeated_beast",
            "fled_beast",
            "stat_upgrade",
            "buy_items",
            "equip",
            "drop",
            "level_up",
            "market_items",
            "ambush",
            "attack",
            "beast_attack",
            "flee",
        ] {
            assert!(
                schema.contains(&format!("\"{kind}\"")),
                "{kind} missing from schema"
            );
        }
    }

    #[test]
    fn decode_many_skips_foreign_events() {
        let (k1, d1) = encode_game_event(
            &GameEvent {
                adventurer_id: 3,
                action_count: 2,
                details: GameEventDetails::LevelUp { level: 2 },
            },
            Felt::ONE,
        );
        let foreign_k = [Felt::from(0x99u8)];
        let foreign_d = [Felt::ONE];
        let evs =
            decode_game_events([(&foreign_k[..], &foreign_d[..]), (&k1[..], &d1[..])]).unwrap();
        assert_eq!(evs.len(), 1);
        assert_eq!(evs[0].details.kind(), "level_up");
    }
}
