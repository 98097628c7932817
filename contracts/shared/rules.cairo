// Death Mountain's rules as the practice contracts play them (v1 = the Rust engine in crates/game):
// the ABI data types both generations share, constants, randomness, the item, beast and obstacle
// tables, combat, discoveries and the market. Composed into each game contract by
// scripts/build-contracts.sh after contracts/shared/prelude.cairo; see docs/practice-v2.md.

// ---------------------------------------------------------------------------------------------------
// ABI data types (Serde layouts identical to the mainnet manifest)
// ---------------------------------------------------------------------------------------------------

#[derive(Copy, Drop, Serde, starknet::Store)]
struct Item {
    id: u8,
    xp: u16,
}

#[derive(Copy, Drop, Serde, starknet::Store)]
struct Stats {
    strength: u8,
    dexterity: u8,
    vitality: u8,
    intelligence: u8,
    wisdom: u8,
    charisma: u8,
    luck: u8,
}

#[derive(Copy, Drop, Serde, starknet::Store)]
struct Equipment {
    weapon: Item,
    chest: Item,
    head: Item,
    waist: Item,
    foot: Item,
    hand: Item,
    neck: Item,
    ring: Item,
}

#[derive(Copy, Drop, Serde, starknet::Store)]
struct Adventurer {
    health: u16,
    xp: u16,
    gold: u16,
    beast_health: u16,
    stat_upgrades_available: u8,
    stats: Stats,
    equipment: Equipment,
    item_specials_seed: u16,
    action_count: u16,
}

#[derive(Copy, Drop, Serde, starknet::Store)]
struct Bag {
    item_1: Item,
    item_2: Item,
    item_3: Item,
    item_4: Item,
    item_5: Item,
    item_6: Item,
    item_7: Item,
    item_8: Item,
    item_9: Item,
    item_10: Item,
    item_11: Item,
    item_12: Item,
    item_13: Item,
    item_14: Item,
    item_15: Item,
    mutated: bool,
}

#[derive(Copy, Drop, Serde)]
struct ItemPurchase {
    item_id: u8,
    equip: bool,
}

#[derive(Copy, Drop, Serde)]
struct SpecialPowers {
    special1: u8,
    special2: u8,
    special3: u8,
}

#[derive(Copy, Drop, Serde)]
struct BeastEvent {
    id: u8,
    seed: u64,
    health: u16,
    level: u16,
    specials: SpecialPowers,
    is_collectable: bool,
}

// ---------------------------------------------------------------------------------------------------
// Game event payloads (GameEventDetails variants, docs/game-rules.md#events; serialized after the variant index)
// ---------------------------------------------------------------------------------------------------

#[derive(Copy, Drop, Serde)]
enum DiscoveryType {
    Gold: u16,
    Health: u16,
    Loot: u8,
}

#[derive(Copy, Drop, Serde)]
struct DiscoveryEvent {
    discovery_type: DiscoveryType,
    xp_reward: u16,
}

// `location` is the Slot enum, serialized as its variant index (see SLOT_* below).
#[derive(Copy, Drop, Serde)]
struct ObstacleEvent {
    obstacle_id: u8,
    dodged: bool,
    damage: u16,
    location: u8,
    critical_hit: bool,
    xp_reward: u16,
}

#[derive(Copy, Drop, Serde)]
struct DefeatedBeastEvent {
    beast_id: u8,
    gold_reward: u16,
    xp_reward: u16,
}

#[derive(Copy, Drop, Serde)]
struct FledBeastEvent {
    beast_id: u8,
    xp_reward: u16,
}

#[derive(Copy, Drop, Serde)]
struct AttackEvent {
    damage: u16,
    location: u8,
    critical_hit: bool,
}

// GameEventDetails variant indices.
const EVENT_ADVENTURER: felt252 = 0;
const EVENT_BAG: felt252 = 1;
const EVENT_BEAST: felt252 = 2;
const EVENT_DISCOVERY: felt252 = 3;
const EVENT_OBSTACLE: felt252 = 4;
const EVENT_DEFEATED_BEAST: felt252 = 5;
const EVENT_FLED_BEAST: felt252 = 6;
const EVENT_STAT_UPGRADE: felt252 = 7;
const EVENT_BUY_ITEMS: felt252 = 8;
const EVENT_EQUIP: felt252 = 9;
const EVENT_DROP: felt252 = 10;
const EVENT_LEVEL_UP: felt252 = 11;
const EVENT_MARKET_ITEMS: felt252 = 12;
const EVENT_AMBUSH: felt252 = 13;
const EVENT_ATTACK: felt252 = 14;
const EVENT_BEAST_ATTACK: felt252 = 15;
const EVENT_FLEE: felt252 = 16;
// v2 only: the seed an action drew, [seed, action_count] (docs/practice-v2.md).
const EVENT_RANDOMNESS: felt252 = 17;

// Dojo world event keys: starknet_keccak("EventEmitted") and the ls_0_0_9-GameEvent selector.
const EVENT_EMITTED_SELECTOR: felt252 =
    0x1c93f6e4703ae90f75338f29bffbe9c1662200cee981f49afeec26e892debcd;
const GAME_EVENT_SELECTOR: felt252 =
    0x53f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c;
// v2's GameCore emits `GameEvent` itself: keys[0] = starknet_keccak("GameEvent").
const V2_GAME_EVENT_SELECTOR: felt252 =
    0x3e037e958ba3b5c1cc99ac16aaf9896423eebd03183c41fbb26548a12336e5f;

// ---------------------------------------------------------------------------------------------------
// Constants (constants/*.cairo of the game)
// ---------------------------------------------------------------------------------------------------

// Tier: None 0, T1 1 … T5 5.  Type: None 0, Magic_or_Cloth 1, Blade_or_Hide 2, Bludgeon_or_Metal 3,
// Necklace 4, Ring 5.  Slot: None 0, Weapon 1, Chest 2, Head 3, Waist 4, Foot 5, Hand 6, Neck 7, Ring 8.
const TYPE_NONE: u8 = 0;
const TYPE_MAGIC: u8 = 1;
const TYPE_BLADE: u8 = 2;
const TYPE_BLUDGEON: u8 = 3;
const TYPE_NECKLACE: u8 = 4;
const TYPE_RING: u8 = 5;

const SLOT_NONE: u8 = 0;
const SLOT_WEAPON: u8 = 1;
const SLOT_CHEST: u8 = 2;
const SLOT_HEAD: u8 = 3;
const SLOT_WAIST: u8 = 4;
const SLOT_FOOT: u8 = 5;
const SLOT_HAND: u8 = 6;
const SLOT_NECK: u8 = 7;
const SLOT_RING: u8 = 8;

const ITEM_WAND: u8 = 12;
const ITEM_BOOK: u8 = 16;
const ITEM_SHORT_SWORD: u8 = 46;
const ITEM_CLUB: u8 = 76;
const ITEM_SILVER_RING: u8 = 4;
const NUM_ITEMS: u8 = 101;

const BEAST_TROLL: u8 = 71;
const BEAST_FAIRY: u8 = 21;
const BEAST_BEAR: u8 = 46;

const STARTING_HEALTH: u16 = 100;
const STARTING_GOLD: u16 = 40;
const STARTER_BEAST_HEALTH: u16 = 3;
const STARTER_BEAST_ATTACK_DAMAGE: u16 = 10;
const MAX_HEALTH: u16 = 1023;
const MAX_GOLD: u16 = 511;
const MAX_XP: u16 = 32767;
const MAX_ITEM_XP: u16 = 400;
const MAX_GREATNESS: u8 = 20;
const MAX_STAT_UPGRADES: u8 = 15;
const MAX_STAT_VALUE: u8 = 31;
const VITALITY_HEALTH: u16 = 15;
const POTION_HEALTH: u16 = 10;
const MIN_ATTACK_DAMAGE: u16 = 4;
const MIN_BEAST_DAMAGE: u16 = 2;
const MIN_OBSTACLE_DAMAGE: u16 = 4;
const MIN_XP_REWARD: u16 = 4;
const ITEM_XP_MULTIPLIER_BEASTS: u16 = 2;
const BEAST_SPECIAL_NAME_LEVEL: u16 = 19;
const BASE_DAMAGE_REDUCTION: u16 = 25;
const MARKET_SIZE: u32 = 25;
const STARTING_STAT_POINTS: u32 = 12;

const TWO_POW_8: u128 = 0x100;
const TWO_POW_16: u128 = 0x10000;
const TWO_POW_32: u128 = 0x100000000;
const TWO_POW_64: u128 = 0x10000000000000000;

// ---------------------------------------------------------------------------------------------------
// Small integer helpers
// ---------------------------------------------------------------------------------------------------

fn min_u32(a: u32, b: u32) -> u32 {
    if a < b {
        a
    } else {
        b
    }
}

fn max_u32(a: u32, b: u32) -> u32 {
    if a > b {
        a
    } else {
        b
    }
}

fn to_u16(value: u32) -> u16 {
    value.try_into().unwrap()
}

fn to_u8(value: u32) -> u8 {
    value.try_into().unwrap()
}

// Adds to a u16 counter, clamping at `cap`.
fn capped_add(value: u16, amount: u16, cap: u16) -> u16 {
    to_u16(min_u32(value.into() + amount.into(), cap.into()))
}

fn saturating_sub(value: u16, amount: u16) -> u16 {
    if amount >= value {
        0
    } else {
        value - amount
    }
}

// u16 counters wrap like the game's `increment_action_count`.
fn wrapping_add_u16(value: u16, amount: u32) -> u16 {
    to_u16((value.into() + amount) % 0x10000)
}

// ---------------------------------------------------------------------------------------------------
// Randomness (docs/game-rules.md#randomness)
// ---------------------------------------------------------------------------------------------------

// low128 = felt mod 2^128; returns (low128 >> 64, low128 & (2^64 - 1)).
fn felt_to_two_u64(value: felt252) -> (u64, u64) {
    let full: u256 = value.into();
    let high: u64 = (full.low / TWO_POW_64).try_into().unwrap();
    let low: u64 = (full.low % TWO_POW_64).try_into().unwrap();
    (high, low)
}

fn hash2(a: felt252, b: felt252) -> felt252 {
    let mut input = ArrayTrait::new();
    input.append(a);
    input.append(b);
    poseidon_hash_span(input.span())
}

fn hash3(a: felt252, b: felt252, c: felt252) -> felt252 {
    let mut input = ArrayTrait::new();
    input.append(a);
    input.append(b);
    input.append(c);
    poseidon_hash_span(input.span())
}

// The per-action seed pair: (explore / attack / flee / beast seed, market seed).
fn action_seeds(xp: u16, adventurer_id: felt252) -> (u64, u64) {
    felt_to_two_u64(hash2(xp.into(), adventurer_id))
}

// Random values derived from one seed, in the order of the game's `get_randomness`.
#[derive(Copy, Drop)]
struct Randomness {
    r1_32: u32,
    r2_32: u32,
    r1_16: u16,
    r2_16: u16,
    r1_8: u8,
    r2_8: u8,
    r3_8: u8,
    r4_8: u8,
}

fn get_randomness(xp: u16, seed: u64) -> Randomness {
    let (a, b) = felt_to_two_u64(hash2(xp.into(), seed.into()));
    let a: u128 = a.into();
    let b: u128 = b.into();
    let r3_32 = b / TWO_POW_32;
    let r4_32 = b % TWO_POW_32;
    let r3_16 = r4_32 / TWO_POW_16;
    let r4_16 = r4_32 % TWO_POW_16;
    Randomness {
        r1_32: (a / TWO_POW_32).try_into().unwrap(),
        r2_32: (a % TWO_POW_32).try_into().unwrap(),
        r1_16: (r3_32 / TWO_POW_16).try_into().unwrap(),
        r2_16: (r3_32 % TWO_POW_16).try_into().unwrap(),
        r1_8: (r3_16 / TWO_POW_8).try_into().unwrap(),
        r2_8: (r3_16 % TWO_POW_8).try_into().unwrap(),
        r3_8: (r4_16 / TWO_POW_8).try_into().unwrap(),
        r4_8: (r4_16 % TWO_POW_8).try_into().unwrap(),
    }
}

// The four bytes (big-endian) of poseidon([xp, seed, battle_count]) mod 2^32.
fn get_battle_randomness(xp: u16, battle_count: u16, seed: u64) -> (u8, u8, u8, u8) {
    let full: u256 = hash3(xp.into(), seed.into(), battle_count.into()).into();
    let v = full.low % TWO_POW_32;
    (
        (v / 0x1000000).try_into().unwrap(),
        ((v / 0x10000) % TWO_POW_8).try_into().unwrap(),
        ((v / TWO_POW_8) % TWO_POW_8).try_into().unwrap(),
        (v % TWO_POW_8).try_into().unwrap()
    )
}

// ---------------------------------------------------------------------------------------------------
// Items, beasts and obstacles (docs/game-rules.md#catalogue tables, expressed as id ranges)
// ---------------------------------------------------------------------------------------------------

fn item_tier(id: u8) -> u8 {
    if id == 0 || id > NUM_ITEMS {
        0
    } else if id <= 3 {
        1 // necklaces
    } else if id == 4 {
        2 // Silver Ring
    } else if id == 5 {
        3 // Bronze Ring
    } else if id <= 8 {
        1 // Platinum, Titanium, Gold Ring
    } else if id <= 16 {
        // Ghost Wand, Grave Wand, Bone Wand, Wand, Grimoire, Chronicle, Tome, Book
        let pattern = (id - 9) % 4;
        if pattern == 3 {
            5
        } else {
            pattern + 1
        }
    } else {
        (id - 17) % 5 + 1 // armour and blade/bludgeon weapons come in T1..T5 runs of five
    }
}

fn item_type(id: u8) -> u8 {
    if id == 0 || id > NUM_ITEMS {
        TYPE_NONE
    } else if id <= 3 {
        TYPE_NECKLACE
    } else if id <= 8 {
        TYPE_RING
    } else if id <= 41 {
        TYPE_MAGIC
    } else if id <= 71 {
        TYPE_BLADE
    } else {
        TYPE_BLUDGEON
    }
}

fn item_slot(id: u8) -> u8 {
    if id == 0 || id > NUM_ITEMS {
        return SLOT_NONE;
    }
    if id <= 3 {
        return SLOT_NECK;
    }
    if id <= 8 {
        return SLOT_RING;
    }
    if id <= 16 {
        return SLOT_WEAPON;
    }
    // From id 17 on, runs of five: cloth chest..hand (groups 0-4), blades (5), hide chest..hand (6-10),
    // bludgeons (11), metal chest..hand (12-16).
    let group = (id - 17) / 5;
    if group == 5 || group == 11 {
        SLOT_WEAPON
    } else if group < 5 {
        SLOT_CHEST + group
    } else if group < 11 {
        SLOT_CHEST + group - 6
    } else {
        SLOT_CHEST + group - 12
    }
}

fn is_starting_weapon(id: u8) -> bool {
    id == ITEM_WAND || id == ITEM_BOOK || id == ITEM_SHORT_SWORD || id == ITEM_CLUB
}

// Beasts and obstacles share the id layout: 25 per type, tiers in runs of five.
fn entity_tier(id: u8) -> u8 {
    ((id - 1) % 25) / 5 + 1
}

fn entity_type(id: u8) -> u8 {
    (id - 1) / 25 + 1
}

// Attack/armour multiplier by tier (T1 5 … T5 1, None 0); also the gold and xp reward multiplier.
fn tier_multiplier(tier: u8) -> u32 {
    if tier == 0 || tier > 5 {
        0
    } else {
        6 - tier.into()
    }
}

// Greatness = isqrt(xp) capped at 20 (an empty slot, xp 0, has greatness 1).
fn greatness(xp: u16) -> u8 {
    if xp == 0 {
        1
    } else {
        let g = u16_sqrt(xp);
        if g > MAX_GREATNESS {
            MAX_GREATNESS
        } else {
            g
        }
    }
}

fn level_from_xp(xp: u16) -> u8 {
    if xp == 0 {
        1
    } else {
        u16_sqrt(xp)
    }
}

fn item_price(tier: u8, charisma: u8) -> u16 {
    let base = tier_multiplier(tier) * 4;
    to_u16(max_u32(base, charisma.into() + 1) - charisma.into())
}

fn potion_price(level: u8, charisma: u8) -> u16 {
    let discount: u32 = charisma.into() * 2;
    to_u16(max_u32(level.into(), discount + 1) - discount)
}

// ---------------------------------------------------------------------------------------------------
// Adventurer helpers
// ---------------------------------------------------------------------------------------------------

fn empty_item() -> Item {
    Item { id: 0, xp: 0 }
}

fn empty_stats() -> Stats {
    Stats { strength: 0, dexterity: 0, vitality: 0, intelligence: 0, wisdom: 0, charisma: 0, luck: 0 }
}

fn empty_equipment() -> Equipment {
    Equipment {
        weapon: empty_item(),
        chest: empty_item(),
        head: empty_item(),
        waist: empty_item(),
        foot: empty_item(),
        hand: empty_item(),
        neck: empty_item(),
        ring: empty_item(),
    }
}

fn empty_bag() -> Bag {
    let e = empty_item();
    Bag {
        item_1: e,
        item_2: e,
        item_3: e,
        item_4: e,
        item_5: e,
        item_6: e,
        item_7: e,
        item_8: e,
        item_9: e,
        item_10: e,
        item_11: e,
        item_12: e,
        item_13: e,
        item_14: e,
        item_15: e,
        mutated: false,
    }
}

// `ImplAdventurer::new(weapon)`: 100 HP, 40 gold, starter beast with 3 HP.
fn new_adventurer(weapon: u8) -> Adventurer {
    let mut equipment = empty_equipment();
    equipment.weapon = Item { id: weapon, xp: 0 };
    Adventurer {
        health: STARTING_HEALTH,
        xp: 0,
        gold: STARTING_GOLD,
        beast_health: STARTER_BEAST_HEALTH,
        stat_upgrades_available: 0,
        stats: empty_stats(),
        equipment,
        item_specials_seed: 0,
        action_count: 0,
    }
}

fn max_health(vitality: u8) -> u16 {
    to_u16(min_u32(STARTING_HEALTH.into() + VITALITY_HEALTH.into() * vitality.into(), MAX_HEALTH.into()))
}

fn heal(ref adventurer: Adventurer, amount: u16) {
    adventurer.health = capped_add(adventurer.health, amount, max_health(adventurer.stats.vitality));
}

fn add_gold(ref adventurer: Adventurer, amount: u16) {
    adventurer.gold = capped_add(adventurer.gold, amount, MAX_GOLD);
}

fn add_stat_points(ref adventurer: Adventurer, amount: u32) {
    adventurer
        .stat_upgrades_available =
            to_u8(min_u32(adventurer.stat_upgrades_available.into() + amount, MAX_STAT_UPGRADES.into()));
}

// Adds xp; every level gained gives one stat point. Returns (previous level, new level).
fn add_xp(ref adventurer: Adventurer, amount: u16) -> (u8, u8) {
    let previous = level_from_xp(adventurer.xp);
    adventurer.xp = capped_add(adventurer.xp, amount, MAX_XP);
    let current = level_from_xp(adventurer.xp);
    if current > previous {
        add_stat_points(ref adventurer, (current - previous).into());
    }
    (previous, current)
}

fn is_alive(adventurer: @Adventurer) -> bool {
    *adventurer.health != 0
}

fn in_battle(adventurer: @Adventurer) -> bool {
    *adventurer.beast_health != 0
}

fn can_explore(adventurer: @Adventurer) -> bool {
    is_alive(adventurer) && !in_battle(adventurer) && *adventurer.stat_upgrades_available == 0
}

fn assert_alive(adventurer: @Adventurer) {
    assert(is_alive(adventurer), 'Adventurer is dead');
}

fn assert_in_battle(adventurer: @Adventurer) {
    assert(in_battle(adventurer), 'Not in battle');
}

fn assert_not_in_battle(adventurer: @Adventurer) {
    assert(!in_battle(adventurer), 'Action not allowed in battle');
}

// `generate_starting_stats`: 12 points, each assigned by successive base-6 digits of the seed.
// (Counted in plain variables: Cairo 2.1 loops do not carry struct-member assignments out of the loop.)
fn generate_starting_stats(seed: u64) -> Stats {
    let mut counts: Array<u8> = ArrayTrait::new();
    let mut remaining = seed;
    let mut i: u32 = 0;
    loop {
        if i == STARTING_STAT_POINTS {
            break;
        }
        counts.append((remaining % 6).try_into().unwrap());
        remaining = remaining / 6;
        i += 1;
    };
    Stats {
        strength: count_of(counts.span(), 0),
        dexterity: count_of(counts.span(), 1),
        vitality: count_of(counts.span(), 2),
        intelligence: count_of(counts.span(), 3),
        wisdom: count_of(counts.span(), 4),
        charisma: count_of(counts.span(), 5),
        luck: 0,
    }
}

fn count_of(mut values: Span<u8>, wanted: u8) -> u8 {
    let mut count: u8 = 0;
    loop {
        match values.pop_front() {
            Option::Some(value) => {
                if *value == wanted {
                    count += 1;
                }
            },
            Option::None => {
                break;
            },
        };
    };
    count
}

// Adds upgrade points to base stats, enforcing the 5-bit packing limit of the game.
fn apply_stat_upgrades(ref stats: Stats, upgrades: Stats) {
    stats.strength = checked_stat(stats.strength, upgrades.strength, 'strength pack overflow');
    stats.dexterity = checked_stat(stats.dexterity, upgrades.dexterity, 'dexterity pack overflow');
    stats.vitality = checked_stat(stats.vitality, upgrades.vitality, 'vitality pack overflow');
    stats
        .intelligence = checked_stat(stats.intelligence, upgrades.intelligence, 'intelligence pack overflow');
    stats.wisdom = checked_stat(stats.wisdom, upgrades.wisdom, 'wisdom pack overflow');
    stats.charisma = checked_stat(stats.charisma, upgrades.charisma, 'charisma pack overflow');
}

fn checked_stat(value: u8, add: u8, error: felt252) -> u8 {
    let total: u32 = value.into() + add.into();
    assert(total <= MAX_STAT_VALUE.into(), error);
    to_u8(total)
}

fn stat_sum(stats: Stats) -> u32 {
    stats.strength.into()
        + stats.dexterity.into()
        + stats.vitality.into()
        + stats.intelligence.into()
        + stats.wisdom.into()
        + stats.charisma.into()
}

// ---------------------------------------------------------------------------------------------------
// Equipment and bag
// ---------------------------------------------------------------------------------------------------

fn equipped_in_slot(equipment: Equipment, slot: u8) -> Item {
    if slot == SLOT_WEAPON {
        equipment.weapon
    } else if slot == SLOT_CHEST {
        equipment.chest
    } else if slot == SLOT_HEAD {
        equipment.head
    } else if slot == SLOT_WAIST {
        equipment.waist
    } else if slot == SLOT_FOOT {
        equipment.foot
    } else if slot == SLOT_HAND {
        equipment.hand
    } else if slot == SLOT_NECK {
        equipment.neck
    } else if slot == SLOT_RING {
        equipment.ring
    } else {
        empty_item()
    }
}

fn set_equipped(ref equipment: Equipment, slot: u8, item: Item) {
    if slot == SLOT_WEAPON {
        equipment.weapon = item;
    } else if slot == SLOT_CHEST {
        equipment.chest = item;
    } else if slot == SLOT_HEAD {
        equipment.head = item;
    } else if slot == SLOT_WAIST {
        equipment.waist = item;
    } else if slot == SLOT_FOOT {
        equipment.foot = item;
    } else if slot == SLOT_HAND {
        equipment.hand = item;
    } else if slot == SLOT_NECK {
        equipment.neck = item;
    } else if slot == SLOT_RING {
        equipment.ring = item;
    }
}

fn equipped_items(equipment: Equipment) -> Array<Item> {
    let mut items = ArrayTrait::new();
    items.append(equipment.weapon);
    items.append(equipment.chest);
    items.append(equipment.head);
    items.append(equipment.waist);
    items.append(equipment.foot);
    items.append(equipment.hand);
    items.append(equipment.neck);
    items.append(equipment.ring);
    items
}

fn is_equipped(equipment: Equipment, item_id: u8) -> bool {
    item_id != 0 && equipped_in_slot(equipment, item_slot(item_id)).id == item_id
}

fn bag_items(bag: Bag) -> Array<Item> {
    let mut items = ArrayTrait::new();
    items.append(bag.item_1);
    items.append(bag.item_2);
    items.append(bag.item_3);
    items.append(bag.item_4);
    items.append(bag.item_5);
    items.append(bag.item_6);
    items.append(bag.item_7);
    items.append(bag.item_8);
    items.append(bag.item_9);
    items.append(bag.item_10);
    items.append(bag.item_11);
    items.append(bag.item_12);
    items.append(bag.item_13);
    items.append(bag.item_14);
    items.append(bag.item_15);
    items
}

fn bag_from_items(items: Span<Item>) -> Bag {
    Bag {
        item_1: *items.at(0),
        item_2: *items.at(1),
        item_3: *items.at(2),
        item_4: *items.at(3),
        item_5: *items.at(4),
        item_6: *items.at(5),
        item_7: *items.at(6),
        item_8: *items.at(7),
        item_9: *items.at(8),
        item_10: *items.at(9),
        item_11: *items.at(10),
        item_12: *items.at(11),
        item_13: *items.at(12),
        item_14: *items.at(13),
        item_15: *items.at(14),
        mutated: false,
    }
}

// Index of the first bag slot holding `item_id` (0 finds the first free slot), or 15 if none.
fn bag_index_of(bag: Bag, item_id: u8) -> u32 {
    let items = bag_items(bag);
    let mut i: u32 = 0;
    loop {
        if i == items.len() || (*items.at(i)).id == item_id {
            break;
        }
        i += 1;
    };
    i
}

fn bag_contains(bag: Bag, item_id: u8) -> bool {
    item_id != 0 && bag_index_of(bag, item_id) < 15
}

fn bag_is_full(bag: Bag) -> bool {
    bag_index_of(bag, 0) == 15
}

// Returns a copy of `bag` with slot `index` replaced by `item`.
fn bag_with_slot(bag: Bag, index: u32, item: Item) -> Bag {
    let mut items = bag_items(bag).span();
    let mut updated = ArrayTrait::new();
    let mut i: u32 = 0;
    loop {
        match items.pop_front() {
            Option::Some(current) => {
                if i == index {
                    updated.append(item);
                } else {
                    updated.append(*current);
                }
            },
            Option::None => {
                break;
            },
        };
        i += 1;
    };
    bag_from_items(updated.span())
}

fn bag_add(ref bag: Bag, item: Item) {
    let free = bag_index_of(bag, 0);
    assert(free < 15, 'Bag is full');
    bag = bag_with_slot(bag, free, item);
}

fn bag_remove(ref bag: Bag, item_id: u8) -> Item {
    let index = bag_index_of(bag, item_id);
    assert(item_id != 0 && index < 15, 'Item not in bag');
    let item = *bag_items(bag).at(index);
    bag = bag_with_slot(bag, index, empty_item());
    item
}

// Equips `item`; an item already in that slot moves to the bag ('Bag is full' if it cannot).
fn equip_item(ref adventurer: Adventurer, ref bag: Bag, item: Item) {
    let slot = item_slot(item.id);
    let current = equipped_in_slot(adventurer.equipment, slot);
    if current.id != 0 {
        bag_add(ref bag, current);
    }
    let mut equipment = adventurer.equipment;
    set_equipped(ref equipment, slot, item);
    adventurer.equipment = equipment;
}

// Luck (critical-hit chance) = greatness of the equipped necklace and ring (empty slots count 1 each),
// the Silver Ring counts twice, plus the greatness of every piece of jewelry in the bag.
fn luck(adventurer: @Adventurer, bag: Bag) -> u8 {
    let equipment = *adventurer.equipment;
    let mut total: u32 = greatness(equipment.neck.xp).into() + greatness(equipment.ring.xp).into();
    if equipment.ring.id == ITEM_SILVER_RING {
        total += greatness(equipment.ring.xp).into();
    }
    let mut items = bag_items(bag).span();
    loop {
        match items.pop_front() {
            Option::Some(item) => {
                let kind = item_type(*item.id);
                if kind == TYPE_NECKLACE || kind == TYPE_RING {
                    total += greatness(*item.xp).into();
                }
            },
            Option::None => {
                break;
            },
        };
    };
    to_u8(min_u32(total, 255))
}

// The adventurer as the game's load_assets sees it: stored stats plus computed luck.
fn boosted(adventurer: Adventurer, bag: Bag) -> Adventurer {
    let mut result = adventurer;
    result.stats.luck = luck(@adventurer, bag);
    result
}

// Gives every equipped item `amount` xp (cap 400); an item reaching greatness 20 grants a stat point.
fn add_item_xp(ref adventurer: Adventurer, amount: u16) {
    let mut equipment = adventurer.equipment;
    let mut slot = SLOT_WEAPON;
    loop {
        if slot > SLOT_RING {
            break;
        }
        let item = equipped_in_slot(equipment, slot);
        if item.id != 0 {
            let before = greatness(item.xp);
            let xp = capped_add(item.xp, amount, MAX_ITEM_XP);
            set_equipped(ref equipment, slot, Item { id: item.id, xp });
            if before < MAX_GREATNESS && greatness(xp) == MAX_GREATNESS {
                add_stat_points(ref adventurer, 1);
            }
        }
        slot += 1;
    };
    adventurer.equipment = equipment;
}

// ---------------------------------------------------------------------------------------------------
// Combat (docs/game-rules.md#combat)
// ---------------------------------------------------------------------------------------------------

#[derive(Copy, Drop)]
struct CombatSpec {
    tier: u8,
    item_type: u8,
    level: u16,
}

#[derive(Copy, Drop)]
struct Beast {
    id: u8,
    seed: u64,
    starting_health: u16,
    spec: CombatSpec,
    special2: u8,
    special3: u8,
}

// 0 weak, 1 fair, 2 strong.
fn effectiveness(weapon_type: u8, armor_type: u8) -> u8 {
    if weapon_type == TYPE_MAGIC {
        if armor_type == TYPE_MAGIC {
            1
        } else if armor_type == TYPE_BLADE {
            0
        } else {
            2
        }
    } else if weapon_type == TYPE_BLADE {
        if armor_type == TYPE_BLADE {
            1
        } else if armor_type == TYPE_BLUDGEON {
            0
        } else {
            2
        }
    } else if weapon_type == TYPE_BLUDGEON {
        if armor_type == TYPE_BLUDGEON {
            1
        } else if armor_type == TYPE_MAGIC {
            0
        } else {
            2
        }
    } else {
        1
    }
}

fn is_critical_hit(chance: u8, rnd: u8) -> bool {
    chance >= 100 || (chance.into() * 255_u32) / 100 > rnd.into()
}

// `calculate_damage` without special-name bonuses: returns (damage, critical_hit).
fn calculate_damage(
    attack: CombatSpec,
    armor: CombatSpec,
    minimum: u16,
    strength: u8,
    crit_chance: u8,
    crit_rnd: u8
) -> (u16, bool) {
    let base_attack: u32 = attack.level.into() * tier_multiplier(attack.tier);
    let base_armor: u32 = armor.level.into() * tier_multiplier(armor.tier);
    let half = base_attack / 2;
    let effect = effectiveness(attack.item_type, armor.item_type);
    let elemental = if effect == 2 {
        base_attack + half
    } else if effect == 0 {
        base_attack - half
    } else {
        base_attack
    };
    let strength_bonus = elemental * strength.into() * 10 / 100;
    let critical_hit = is_critical_hit(crit_chance, crit_rnd);
    let crit_bonus = if critical_hit {
        elemental
    } else {
        0
    };
    let total_attack = elemental + strength_bonus + crit_bonus;
    let minimum: u32 = minimum.into();
    let damage = if total_attack > base_armor + minimum {
        total_attack - base_armor
    } else {
        minimum
    };
    (to_u16(min_u32(damage, 0xffff)), critical_hit)
}

// `ability_based_avoid_threat`: dodge/flee/ambush checks.
fn avoid_threat(level: u8, stat: u8, rnd: u8) -> bool {
    stat >= level || stat.into() > (level.into() * rnd.into()) / 255_u32
}

// Armour location of a beast or obstacle hit: Chest, Head, Waist, Foot or Hand.
fn armor_location(rnd: u8) -> u8 {
    SLOT_CHEST + rnd % 5
}

fn armor_spec(adventurer: @Adventurer, location: u8) -> CombatSpec {
    let item = equipped_in_slot(*adventurer.equipment, location);
    if item.id == 0 {
        CombatSpec { tier: 0, item_type: TYPE_NONE, level: 0 }
    } else {
        CombatSpec { tier: item_tier(item.id), item_type: item_type(item.id), level: greatness(item.xp).into() }
    }
}

fn weapon_spec(adventurer: @Adventurer) -> CombatSpec {
    let weapon = *adventurer.equipment.weapon;
    if weapon.id == 0 {
        CombatSpec { tier: 0, item_type: TYPE_NONE, level: 0 }
    } else {
        CombatSpec {
            tier: item_tier(weapon.id), item_type: item_type(weapon.id), level: greatness(weapon.xp).into()
        }
    }
}

fn crit_chance_from_level(level: u8) -> u8 {
    if level > 100 {
        100
    } else {
        level
    }
}

// One beast hit on the adventurer (counter-attack, or ambush before the reduction).
fn beast_hit(adventurer: @Adventurer, beast: @Beast, crit_rnd: u8, location_rnd: u8) -> AttackEvent {
    let location = armor_location(location_rnd);
    let level = level_from_xp(*adventurer.xp);
    let (damage, critical_hit) = calculate_damage(
        *beast.spec,
        armor_spec(adventurer, location),
        MIN_BEAST_DAMAGE,
        0,
        crit_chance_from_level(level),
        crit_rnd
    );
    AttackEvent { damage, location, critical_hit }
}

fn reduce_damage(damage: u16, percent: u16) -> u16 {
    to_u16(damage.into() * (100 - percent.into()) / 100_u32)
}

// Level-based random level used by beasts and obstacles.
fn random_level(adventurer_level: u8, level_rnd: u16) -> u16 {
    let range: u32 = 3 * adventurer_level.into();
    let bonus: u32 = if adventurer_level >= 50 {
        80
    } else if adventurer_level >= 40 {
        40
    } else if adventurer_level >= 30 {
        20
    } else if adventurer_level >= 20 {
        10
    } else {
        0
    };
    to_u16(1 + level_rnd.into() % range + bonus)
}

fn random_beast_health(adventurer_level: u8, health_rnd: u16) -> u16 {
    let range: u32 = 20 * adventurer_level.into();
    let bonus: u32 = if adventurer_level >= 50 {
        500
    } else if adventurer_level >= 40 {
        400
    } else if adventurer_level >= 30 {
        200
    } else if adventurer_level >= 20 {
        100
    } else {
        10
    };
    to_u16(min_u32(1 + health_rnd.into() % range + bonus, MAX_HEALTH.into()))
}

fn starter_beast_id(weapon_type: u8) -> u8 {
    if weapon_type == TYPE_MAGIC {
        BEAST_TROLL
    } else if weapon_type == TYPE_BLADE {
        BEAST_FAIRY
    } else if weapon_type == TYPE_BLUDGEON {
        BEAST_BEAR
    } else {
        0
    }
}

fn starter_beast(weapon_id: u8, seed: u64) -> Beast {
    let id = starter_beast_id(item_type(weapon_id));
    let (tier, kind) = if id == 0 {
        (0, TYPE_NONE)
    } else {
        (entity_tier(id), entity_type(id))
    };
    Beast {
        id,
        seed,
        starting_health: STARTER_BEAST_HEALTH,
        spec: CombatSpec { tier, item_type: kind, level: 1 },
        special2: 0,
        special3: 0,
    }
}

// `get_beast`: the starter beast at level 1, otherwise a random beast from the explore randomness.
fn generate_beast(adventurer: @Adventurer, seed: u64, rnd: Randomness) -> Beast {
    let level = level_from_xp(*adventurer.xp);
    if level == 1 {
        return starter_beast(*adventurer.equipment.weapon.id, seed);
    }
    let id = to_u8(rnd.r1_32 % 75 + 1);
    let beast_level = random_level(level, rnd.r2_16);
    let (special2, special3) = if beast_level >= BEAST_SPECIAL_NAME_LEVEL {
        (1 + rnd.r1_8 % 69, 1 + rnd.r2_8 % 18)
    } else {
        (0, 0)
    };
    Beast {
        id,
        seed,
        starting_health: random_beast_health(level, rnd.r1_16),
        spec: CombatSpec { tier: entity_tier(id), item_type: entity_type(id), level: beast_level },
        special2,
        special3,
    }
}

// The current (or last) beast, regenerated from the stored beast seed (xp does not change in battle).
fn beast_from_seed(adventurer: @Adventurer, beast_seed: u64) -> Beast {
    generate_beast(adventurer, beast_seed, get_randomness(*adventurer.xp, beast_seed))
}

fn beast_event(beast: @Beast) -> BeastEvent {
    BeastEvent {
        id: *beast.id,
        seed: *beast.seed,
        health: *beast.starting_health,
        level: *beast.spec.level,
        specials: SpecialPowers { special1: 0, special2: *beast.special2, special3: *beast.special3 },
        is_collectable: false,
    }
}

// `(MULT[tier] * level / 2) * (100 - min(2 * adventurer_level, 95)) / 100`, at least 4.
fn xp_reward(tier: u8, level: u16, adventurer_level: u8) -> u16 {
    let base = tier_multiplier(tier) * level.into() / 2;
    let decay = min_u32(2 * adventurer_level.into(), 95);
    to_u16(max_u32(base * (100 - decay) / 100, MIN_XP_REWARD.into()))
}

fn gold_reward(beast: @Beast) -> u16 {
    to_u16(tier_multiplier(*beast.spec.tier) * (*beast.spec.level).into() / 2)
}

// ---------------------------------------------------------------------------------------------------
// Discoveries (docs/game-rules.md#discoveries, loot lists in the game's order)
// ---------------------------------------------------------------------------------------------------

fn loot_list(tier: u8) -> Array<u8> {
    let mut a = ArrayTrait::new();
    if tier == 5 {
        a.append(16); a.append(12); a.append(26); a.append(31); a.append(21); a.append(36);
        a.append(41); a.append(76); a.append(86); a.append(81); a.append(96); a.append(91);
        a.append(101); a.append(46); a.append(61); a.append(66); a.append(51); a.append(71);
        a.append(56);
    } else if tier == 4 {
        a.append(45); a.append(60); a.append(65); a.append(50); a.append(55); a.append(70);
        a.append(75); a.append(80); a.append(85); a.append(95); a.append(100); a.append(90);
        a.append(20); a.append(25); a.append(30); a.append(35); a.append(40);
    } else if tier == 3 {
        a.append(15); a.append(11); a.append(19); a.append(24); a.append(29); a.append(34);
        a.append(39); a.append(44); a.append(49); a.append(64); a.append(59); a.append(69);
        a.append(54); a.append(74); a.append(94); a.append(99); a.append(79); a.append(84);
        a.append(89);
    } else if tier == 2 {
        a.append(10); a.append(14); a.append(18); a.append(23); a.append(28); a.append(33);
        a.append(38); a.append(43); a.append(53); a.append(58); a.append(63); a.append(48);
        a.append(68); a.append(73); a.append(78); a.append(88); a.append(83); a.append(93);
        a.append(98);
    } else {
        a.append(9); a.append(13); a.append(17); a.append(22); a.append(27); a.append(32);
        a.append(37); a.append(42); a.append(47); a.append(52); a.append(57); a.append(67);
        a.append(62); a.append(72); a.append(77); a.append(82); a.append(92); a.append(97);
        a.append(87);
    }
    a
}

fn percent_of_255(rnd: u8) -> u32 {
    (rnd.into() * 100_u32 + 127) / 255
}

fn discovery_loot(amount_rnd1: u8, amount_rnd2: u8) -> u8 {
    let p = percent_of_255(amount_rnd1);
    let tier = if p < 50 {
        5
    } else if p < 80 {
        4
    } else if p < 92 {
        3
    } else if p < 98 {
        2
    } else {
        1
    };
    let list = loot_list(tier);
    *list.at(amount_rnd2.into() % list.len())
}

// ---------------------------------------------------------------------------------------------------
// Market (deployed ls_0_0_9 list, docs/game-rules.md#market)
// ---------------------------------------------------------------------------------------------------

fn market_items(adventurer_id: felt252, market_seed: u64) -> Array<u8> {
    let mut remaining: u256 = hash2(adventurer_id, market_seed.into()).into();
    let mut items = ArrayTrait::new();
    let mut passes: u32 = 0;
    loop {
        if passes == 31 || items.len() == MARKET_SIZE {
            break;
        }
        let byte: u8 = (remaining.low % TWO_POW_8).try_into().unwrap();
        remaining = remaining / 256;
        passes += 1;
        if byte < 202 {
            items.append(byte % NUM_ITEMS + 1);
        };
    };
    items
}

fn span_contains(mut items: Span<u8>, value: u8) -> bool {
    let mut found = false;
    loop {
        match items.pop_front() {
            Option::Some(item) => {
                if *item == value {
                    found = true;
                    break;
                }
            },
            Option::None => {
                break;
            },
        };
    };
    found
}
