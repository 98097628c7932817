// Loot Survivor practice world — a single Cairo 2.1 contract that stands in for the four Dojo systems
// `ls_0_0_9-game_systems`, `ls_0_0_9-adventurer_systems`, `ls_0_0_9-game_token_systems` and
// `ls_0_0_9-settings_systems` of Death Mountain (Loot Survivor 2) on a local devnet. It is also its own
// adventurer token (ERC721-like `owner_of`), so the MCP server can mint, play and read a game end to end.
//
// Function names, argument types and Serde layouts match the mainnet ls_0_0_9 manifest; struct names
// match the last path segment of the manifest types. Game events are emitted in the Dojo world layout
// (`EventEmitted` keys, `ls_0_0_9-GameEvent` selector), so the server decodes them like mainnet receipts.
//
// Rules follow Death Mountain V1 (ls_0_0_9) with the default settings (Dodge mode, base damage reduction
// 25, market size 25). Randomness is always `poseidon_hash_span([xp, adventurer_id])` (no VRF), which
// makes every game deterministic and replayable.
//
// SIMPLIFICATIONS compared with the deployed game:
//   * Item specials are never unlocked: `item_specials_seed` stays 0, items get no suffix stat boosts (and
//     no vitality heal on unlock), no name-match (special2/special3) damage bonus, and beasts' specials
//     never match the adventurer's items. Boosted stats therefore equal base stats plus computed luck.
//   * Jewelry only counts for luck (critical-hit chance): no necklace armour bonus, no Gold Ring gold bonus,
//     no Platinum/Titanium Ring damage bonus.
//   * No collectables and no kill records: `is_collectable` is always false.
//   * Only the default settings exist (settings id 0): mint_game rejects another settings id with
//     'Settings not found', and game_settings returns the defaults for any id. No Reduction stats mode,
//     no custom game seeds, no VRF whatever the chain id.
//   * No token lifecycle (start/end), objectives, context, client url, renderer or soulbound handling:
//     those mint_game arguments are accepted and ignored; tokens cannot be transferred.
//   * Every game_systems action checks the caller owns the token ('Not token owner'), then the game's
//     preconditions. An adventurer that was never started counts as dead ('Adventurer is dead'); a second
//     start_game reverts with 'Adventurer already started' (the real game panics with a ByteArray).
//   * A loot discovery that is converted to gold (item already owned, or slot taken and bag full) is
//     reported as a Gold discovery with the gold amount.
//   * In to_the_death / flee loops, round k uses battle counter `action_count + k` (action_count already
//     incremented for this transaction); an in-battle equip uses battle counter 0 (as in the game).
//   * get_game_state's beast is regenerated from the last beast seed and the current xp, so once a beast is
//     killed or fled (xp changed) it no longer describes that beast.
//   * Stat caps are enforced with short strings '<stat> pack overflow' when an upgrade would exceed 31.

use array::{ArrayTrait, SpanTrait};
use option::OptionTrait;
use serde::Serde;
use traits::{Into, TryInto};
use poseidon::poseidon_hash_span;
use integer::u16_sqrt;
use starknet::{ContractAddress, SyscallResultTrait};

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

#[derive(Drop, Serde)]
struct GameState {
    adventurer: Adventurer,
    bag: Bag,
    beast: BeastEvent,
    market: Span<u8>,
}

#[derive(Copy, Drop, Serde)]
enum StatsMode {
    Dodge: (),
    Reduction: (),
}

#[derive(Copy, Drop, Serde)]
struct GameSettings {
    settings_id: u32,
    vrf_address: ContractAddress,
    adventurer: Adventurer,
    bag: Bag,
    game_seed: u64,
    game_seed_until_xp: u16,
    in_battle: bool,
    stats_mode: StatsMode,
    base_damage_reduction: u8,
    market_size: u8,
}

// Cairo 2.1 has no core ByteArray; this struct has the same Serde layout
// ([n_full_words, words…, pending_word, pending_word_len]).
#[derive(Drop, Serde)]
struct ByteArray {
    data: Array<felt252>,
    pending_word: felt252,
    pending_word_len: u32,
}

#[derive(Drop, Serde)]
struct GameContext {
    name: ByteArray,
    value: ByteArray,
}

#[derive(Drop, Serde)]
struct GameContextDetails {
    name: ByteArray,
    description: ByteArray,
    id: Option<u32>,
    context: Span<GameContext>,
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

// Dojo world event keys: starknet_keccak("EventEmitted") and the ls_0_0_9-GameEvent selector.
const EVENT_EMITTED_SELECTOR: felt252 =
    0x1c93f6e4703ae90f75338f29bffbe9c1662200cee981f49afeec26e892debcd;
const GAME_EVENT_SELECTOR: felt252 =
    0x53f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c;

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
fn action_seeds(xp: u16, adventurer_id: u64) -> (u64, u64) {
    felt_to_two_u64(hash2(xp.into(), adventurer_id.into()))
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

fn market_items(adventurer_id: u64, market_seed: u64) -> Array<u8> {
    let mut remaining: u256 = hash2(adventurer_id.into(), market_seed.into()).into();
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

// ---------------------------------------------------------------------------------------------------
// Event emission (Dojo world `EventEmitted` layout)
// ---------------------------------------------------------------------------------------------------

// keys = [EventEmitted, GameEvent selector, system address];
// data = [1, adventurer_id, values_len, action_count, variant_index, ...payload].
fn emit_game_event(adventurer_id: u64, action_count: u16, variant: felt252, payload: Span<felt252>) {
    let mut keys = ArrayTrait::new();
    keys.append(EVENT_EMITTED_SELECTOR);
    keys.append(GAME_EVENT_SELECTOR);
    keys.append(starknet::get_contract_address().into());

    let mut data = ArrayTrait::new();
    data.append(1);
    data.append(adventurer_id.into());
    data.append((payload.len() + 2).into());
    data.append(action_count.into());
    data.append(variant);
    let mut rest = payload;
    loop {
        match rest.pop_front() {
            Option::Some(value) => data.append(*value),
            Option::None => {
                break;
            },
        };
    };
    starknet::emit_event_syscall(keys.span(), data.span()).unwrap_syscall();
}

fn serialized<T, impl TSerde: Serde<T>, impl TDrop: Drop<T>>(value: @T) -> Span<felt252> {
    let mut out = ArrayTrait::new();
    value.serialize(ref out);
    out.span()
}

// ---------------------------------------------------------------------------------------------------
// The contract
// ---------------------------------------------------------------------------------------------------

#[starknet::contract]
mod practice_world {
    use array::{ArrayTrait, SpanTrait};
    use option::OptionTrait;
    use serde::Serde;
    use traits::{Into, TryInto};
    use zeroable::Zeroable;
    use starknet::{ContractAddress, get_caller_address, get_contract_address, get_block_timestamp};

    use super::{
        Adventurer, Bag, Item, Stats, ItemPurchase, BeastEvent, GameState, GameSettings, StatsMode,
        GameContextDetails, ByteArray, Beast, AttackEvent, ObstacleEvent, DiscoveryEvent, DiscoveryType,
        DefeatedBeastEvent, FledBeastEvent, Randomness
    };
    use super::{
        EVENT_ADVENTURER, EVENT_BAG, EVENT_BEAST, EVENT_DISCOVERY, EVENT_OBSTACLE, EVENT_DEFEATED_BEAST,
        EVENT_FLED_BEAST, EVENT_STAT_UPGRADE, EVENT_BUY_ITEMS, EVENT_EQUIP, EVENT_DROP, EVENT_LEVEL_UP,
        EVENT_MARKET_ITEMS, EVENT_AMBUSH, EVENT_ATTACK, EVENT_BEAST_ATTACK, EVENT_FLEE
    };
    use super::{
        SLOT_NONE, MIN_ATTACK_DAMAGE, MIN_OBSTACLE_DAMAGE, STARTER_BEAST_ATTACK_DAMAGE, NUM_ITEMS,
        POTION_HEALTH, VITALITY_HEALTH, ITEM_XP_MULTIPLIER_BEASTS, BASE_DAMAGE_REDUCTION, STARTING_HEALTH
    };
    use super::{
        action_seeds, get_randomness, get_battle_randomness, is_starting_weapon, new_adventurer,
        empty_bag, boosted, emit_game_event, serialized, assert_alive, assert_in_battle,
        assert_not_in_battle, can_explore, is_alive, level_from_xp, add_xp, add_gold, heal, add_item_xp,
        generate_starting_stats, max_health, beast_from_seed, generate_beast, starter_beast, beast_event,
        beast_hit, calculate_damage, weapon_spec, armor_spec, armor_location, avoid_threat, reduce_damage,
        random_level, xp_reward, gold_reward, entity_tier, entity_type, item_tier, item_slot,
        crit_chance_from_level, discovery_loot, percent_of_255, market_items, span_contains,
        is_equipped, equipped_in_slot, set_equipped, equip_item, bag_contains, bag_add, bag_remove,
        bag_is_full, item_price, potion_price, apply_stat_upgrades, stat_sum, saturating_sub,
        wrapping_add_u16, capped_add, empty_item, CombatSpec
    };

    #[storage]
    struct Storage {
        // Adventurer token (ERC721-like): ids start at 1.
        token_count: u64,
        token_owner: LegacyMap<u64, ContractAddress>,
        // Game state, stored unboosted (luck 0) like the game's AdventurerPacked/BagPacked.
        adventurers: LegacyMap<u64, Adventurer>,
        bags: LegacyMap<u64, Bag>,
        // AdventurerEntropy.
        market_seeds: LegacyMap<u64, u64>,
        beast_seeds: LegacyMap<u64, u64>,
    }

    #[event]
    #[derive(Drop, starknet::Event)]
    enum Event {
        Transfer: Transfer,
        TokenMetadataUpdate: TokenMetadataUpdate,
    }

    // ERC721 Transfer: keys [selector, from, to, token_id.low, token_id.high], no data.
    #[derive(Drop, starknet::Event)]
    struct Transfer {
        #[key]
        from: ContractAddress,
        #[key]
        to: ContractAddress,
        #[key]
        token_id: u256,
    }

    // Token metadata: exactly 14 data felts with the token id at data[1], which is how game clients
    // recognise a freshly minted game token in a receipt.
    #[derive(Drop, starknet::Event)]
    struct TokenMetadataUpdate {
        game_id: u64,
        token_id: u64,
        minted_by: ContractAddress,
        player_name: felt252,
        settings_id: u32,
        lifecycle_start: u64,
        lifecycle_end: u64,
        minted_at: u64,
        soulbound: bool,
        game_over: bool,
        completed_all_objectives: bool,
        has_context: bool,
        objectives_count: u32,
        owner: ContractAddress,
    }

    // -----------------------------------------------------------------------------------------------
    // game_token_systems
    // -----------------------------------------------------------------------------------------------

    #[external(v0)]
    fn mint_game(
        ref self: ContractState,
        player_name: Option<felt252>,
        settings_id: Option<u32>,
        start: Option<u64>,
        end: Option<u64>,
        objective_ids: Option<Span<u32>>,
        context: Option<GameContextDetails>,
        client_url: Option<ByteArray>,
        renderer_address: Option<ContractAddress>,
        to: ContractAddress,
        soulbound: bool
    ) -> u64 {
        let settings = match settings_id {
            Option::Some(id) => id,
            Option::None => 0,
        };
        assert(settings == 0, 'Settings not found');
        let name = match player_name {
            Option::Some(name) => name,
            Option::None => 0,
        };
        let has_context = match context {
            Option::Some(_) => true,
            Option::None => false,
        };

        let token_id = self.token_count.read() + 1;
        self.token_count.write(token_id);
        self.token_owner.write(token_id, to);

        self.emit(Event::Transfer(Transfer { from: Zeroable::zero(), to, token_id: token_id.into() }));
        self
            .emit(
                Event::TokenMetadataUpdate(
                    TokenMetadataUpdate {
                        game_id: 1,
                        token_id,
                        minted_by: get_caller_address(),
                        player_name: name,
                        settings_id: settings,
                        lifecycle_start: 0,
                        lifecycle_end: 0,
                        minted_at: get_block_timestamp(),
                        soulbound,
                        game_over: false,
                        completed_all_objectives: false,
                        has_context,
                        objectives_count: 0,
                        owner: to,
                    }
                )
            );
        token_id
    }

    // The practice world is its own adventurer token contract.
    #[external(v0)]
    fn token_address(self: @ContractState) -> ContractAddress {
        get_contract_address()
    }

    #[external(v0)]
    fn owner_of(self: @ContractState, token_id: u256) -> ContractAddress {
        assert(token_id.high == 0 && token_id.low <= 0xffffffffffffffff, 'ERC721: invalid token ID');
        let owner = self.token_owner.read(token_id.low.try_into().unwrap());
        assert(!owner.is_zero(), 'ERC721: invalid token ID');
        owner
    }

    // -----------------------------------------------------------------------------------------------
    // settings_systems
    // -----------------------------------------------------------------------------------------------

    // Every token uses the default settings (id 0).
    #[external(v0)]
    fn game_settings(self: @ContractState, game_id: u64) -> GameSettings {
        GameSettings {
            settings_id: 0,
            vrf_address: Zeroable::zero(),
            adventurer: new_adventurer(0),
            bag: empty_bag(),
            game_seed: 0,
            game_seed_until_xp: 0,
            in_battle: false,
            stats_mode: StatsMode::Dodge(()),
            base_damage_reduction: 25,
            market_size: 25,
        }
    }

    // -----------------------------------------------------------------------------------------------
    // adventurer_systems
    // -----------------------------------------------------------------------------------------------

    // Stored (unboosted) adventurer, luck 0.
    #[external(v0)]
    fn get_adventurer(self: @ContractState, adventurer_id: u64) -> Adventurer {
        self.adventurers.read(adventurer_id)
    }

    #[external(v0)]
    fn get_bag(self: @ContractState, adventurer_id: u64) -> Bag {
        self.bags.read(adventurer_id)
    }

    // -----------------------------------------------------------------------------------------------
    // game_systems: views
    // -----------------------------------------------------------------------------------------------

    #[external(v0)]
    fn get_game_state(self: @ContractState, adventurer_id: u64) -> GameState {
        let adventurer = self.adventurers.read(adventurer_id);
        let bag = self.bags.read(adventurer_id);
        let beast = beast_from_seed(@adventurer, self.beast_seeds.read(adventurer_id));
        let market = market_items(adventurer_id, self.market_seeds.read(adventurer_id));
        GameState {
            adventurer: boosted(adventurer, bag),
            bag,
            beast: beast_event(@beast),
            market: market.span(),
        }
    }

    // -----------------------------------------------------------------------------------------------
    // game_systems: actions
    // -----------------------------------------------------------------------------------------------

    #[external(v0)]
    fn start_game(ref self: ContractState, adventurer_id: u64, weapon: u8) {
        self.assert_token_owner(adventurer_id);
        let stored = self.adventurers.read(adventurer_id);
        assert(stored.xp == 0 && stored.health == 0, 'Adventurer already started');
        assert(is_starting_weapon(weapon), 'Invalid starting weapon');

        let mut adventurer = new_adventurer(weapon);
        adventurer.action_count = 1;
        // The starter beast's ambush is spoofed: a fixed 10 damage.
        adventurer.health -= STARTER_BEAST_ATTACK_DAMAGE;
        let bag = empty_bag();

        // The starter beast's seed is the adventurer id.
        self.beast_seeds.write(adventurer_id, adventurer_id);
        self.market_seeds.write(adventurer_id, 0);
        let beast = starter_beast(weapon, adventurer_id);
        emit_game_event(adventurer_id, 1, EVENT_BEAST, serialized(@beast_event(@beast)));
        self.finish_action(adventurer_id, adventurer, bag, 1, 0);
    }

    #[external(v0)]
    fn explore(ref self: ContractState, adventurer_id: u64, till_beast: bool) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        assert_alive(@adventurer);
        assert(adventurer.stat_upgrades_available == 0, 'Stat upgrade available');
        assert_not_in_battle(@adventurer);

        let start_level = level_from_xp(adventurer.xp);
        let (explore_seed, market_seed) = action_seeds(adventurer.xp, adventurer_id);
        let mut bag_changed = false;
        loop {
            if explore_step(adventurer_id, ref adventurer, ref bag, explore_seed) {
                bag_changed = true;
            }
            if !till_beast || !can_explore(@adventurer) {
                break;
            };
        };
        if adventurer.beast_health != 0 {
            self.beast_seeds.write(adventurer_id, explore_seed);
        }
        if bag_changed {
            emit_game_event(adventurer_id, adventurer.action_count, EVENT_BAG, serialized(@bag));
        }
        self.finish_action(adventurer_id, adventurer, bag, start_level, market_seed);
    }

    #[external(v0)]
    fn attack(ref self: ContractState, adventurer_id: u64, to_the_death: bool) {
        let (mut adventurer, bag) = self.begin_action(adventurer_id);
        assert_alive(@adventurer);
        assert_in_battle(@adventurer);

        let start_level = level_from_xp(adventurer.xp);
        let (level_seed, market_seed) = action_seeds(adventurer.xp, adventurer_id);
        let beast = beast_from_seed(@adventurer, self.beast_seeds.read(adventurer_id));
        let luck = boosted(adventurer, bag).stats.luck;
        let mut round: u32 = 1;
        loop {
            let battle_count = wrapping_add_u16(adventurer.action_count, round);
            let (_, adventurer_crit_rnd, beast_crit_rnd, location_rnd) = get_battle_randomness(
                adventurer.xp, battle_count, level_seed
            );
            let (damage, critical_hit) = calculate_damage(
                weapon_spec(@adventurer),
                beast.spec,
                MIN_ATTACK_DAMAGE,
                adventurer.stats.strength,
                luck,
                adventurer_crit_rnd
            );
            emit_game_event(
                adventurer_id,
                adventurer.action_count,
                EVENT_ATTACK,
                serialized(@AttackEvent { damage, location: SLOT_NONE, critical_hit })
            );
            if damage >= adventurer.beast_health {
                defeat_beast(adventurer_id, ref adventurer, @beast, level_seed);
                break;
            }
            adventurer.beast_health -= damage;
            beast_counter_attack(
                adventurer_id, ref adventurer, @beast, beast_crit_rnd, location_rnd
            );
            if !to_the_death || !is_alive(@adventurer) {
                break;
            }
            round += 1;
        };
        self.finish_action(adventurer_id, adventurer, bag, start_level, market_seed);
    }

    #[external(v0)]
    fn flee(ref self: ContractState, adventurer_id: u64, to_the_death: bool) {
        let (mut adventurer, bag) = self.begin_action(adventurer_id);
        assert_alive(@adventurer);
        assert_in_battle(@adventurer);
        let level = level_from_xp(adventurer.xp);
        assert(level > 1, 'Cant flee starter beast');
        assert(adventurer.stats.dexterity != 0, 'Cant flee, no dexterity');

        let (flee_seed, market_seed) = action_seeds(adventurer.xp, adventurer_id);
        let beast = beast_from_seed(@adventurer, self.beast_seeds.read(adventurer_id));
        let mut round: u32 = 1;
        loop {
            let battle_count = wrapping_add_u16(adventurer.action_count, round);
            let (flee_rnd, _, beast_crit_rnd, location_rnd) = get_battle_randomness(
                adventurer.xp, battle_count, flee_seed
            );
            let fled = avoid_threat(level, adventurer.stats.dexterity, flee_rnd);
            emit_game_event(adventurer_id, adventurer.action_count, EVENT_FLEE, serialized(@fled));
            if fled {
                adventurer.beast_health = 0;
                add_xp(ref adventurer, 1);
                emit_game_event(
                    adventurer_id,
                    adventurer.action_count,
                    EVENT_FLED_BEAST,
                    serialized(@FledBeastEvent { beast_id: beast.id, xp_reward: 1 })
                );
                break;
            }
            beast_counter_attack(
                adventurer_id, ref adventurer, @beast, beast_crit_rnd, location_rnd
            );
            if !to_the_death || !is_alive(@adventurer) {
                break;
            }
            round += 1;
        };
        self.finish_action(adventurer_id, adventurer, bag, level, market_seed);
    }

    #[external(v0)]
    fn equip(ref self: ContractState, adventurer_id: u64, items: Array<u8>) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        assert_alive(@adventurer);
        assert(items.len() != 0, 'Must provide item ids');
        assert(items.len() <= 8, 'Too many items');
        let ids = items.span();
        assert_all_in_bag(bag, ids);

        let start_level = level_from_xp(adventurer.xp);
        let (seed, market_seed) = action_seeds(adventurer.xp, adventurer_id);
        // Changing equipment in battle gives the beast a free attack.
        if adventurer.beast_health != 0 {
            let beast = beast_from_seed(@adventurer, self.beast_seeds.read(adventurer_id));
            let (_, _, beast_crit_rnd, location_rnd) = get_battle_randomness(adventurer.xp, 0, seed);
            beast_counter_attack(
                adventurer_id, ref adventurer, @beast, beast_crit_rnd, location_rnd
            );
        }
        let mut rest = ids;
        loop {
            match rest.pop_front() {
                Option::Some(id) => {
                    let item = bag_remove(ref bag, *id);
                    equip_item(ref adventurer, ref bag, item);
                },
                Option::None => {
                    break;
                },
            };
        };
        emit_game_event(adventurer_id, adventurer.action_count, EVENT_EQUIP, serialized(@ids));
        emit_game_event(adventurer_id, adventurer.action_count, EVENT_BAG, serialized(@bag));
        self.finish_action(adventurer_id, adventurer, bag, start_level, market_seed);
    }

    #[external(v0)]
    fn drop(ref self: ContractState, adventurer_id: u64, items: Array<u8>) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        assert_alive(@adventurer);
        assert_not_in_battle(@adventurer);
        assert(items.len() != 0, 'Must provide item ids');
        let level = level_from_xp(adventurer.xp);
        assert(level > 1, 'Cant drop during starter beast');

        let ids = items.span();
        let mut bag_changed = false;
        let mut rest = ids;
        loop {
            match rest.pop_front() {
                Option::Some(id) => {
                    if drop_item(ref adventurer, ref bag, *id) {
                        bag_changed = true;
                    }
                },
                Option::None => {
                    break;
                },
            };
        };
        emit_game_event(adventurer_id, adventurer.action_count, EVENT_DROP, serialized(@ids));
        if bag_changed {
            emit_game_event(adventurer_id, adventurer.action_count, EVENT_BAG, serialized(@bag));
        }
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    #[external(v0)]
    fn buy_items(ref self: ContractState, adventurer_id: u64, potions: u8, items: Array<ItemPurchase>) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        assert_alive(@adventurer);
        assert_not_in_battle(@adventurer);
        assert(adventurer.stat_upgrades_available == 0, 'Market is closed');

        let level = level_from_xp(adventurer.xp);
        let market = market_items(adventurer_id, self.market_seeds.read(adventurer_id));
        let purchases = items.span();
        let mut bag_changed = false;
        let mut rest = purchases;
        loop {
            match rest.pop_front() {
                Option::Some(purchase) => {
                    if buy_item(ref adventurer, ref bag, market.span(), *purchase) {
                        bag_changed = true;
                    }
                },
                Option::None => {
                    break;
                },
            };
        };
        if potions != 0 {
            buy_potions(ref adventurer, level, potions);
        }
        if bag_changed {
            emit_game_event(adventurer_id, adventurer.action_count, EVENT_BAG, serialized(@bag));
        }
        let mut payload = ArrayTrait::new();
        potions.serialize(ref payload);
        purchases.serialize(ref payload);
        emit_game_event(adventurer_id, adventurer.action_count, EVENT_BUY_ITEMS, payload.span());
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    #[external(v0)]
    fn select_stat_upgrades(ref self: ContractState, adventurer_id: u64, stat_upgrades: Stats) {
        let (mut adventurer, bag) = self.begin_action(adventurer_id);
        assert_alive(@adventurer);
        assert_not_in_battle(@adventurer);
        assert(adventurer.stat_upgrades_available != 0, 'Market is closed');
        let total = stat_sum(stat_upgrades);
        let available: u32 = adventurer.stat_upgrades_available.into();
        assert(total <= available, 'insufficient stat upgrades');
        assert(total == available, 'Must use all stats');
        assert(stat_upgrades.luck == 0, 'Luck must be zero');

        let mut stats = adventurer.stats;
        apply_stat_upgrades(ref stats, stat_upgrades);
        adventurer.stats = stats;
        adventurer.stat_upgrades_available = 0;
        // Each vitality point also heals immediately.
        heal(ref adventurer, VITALITY_HEALTH * stat_upgrades.vitality.into());

        emit_game_event(
            adventurer_id, adventurer.action_count, EVENT_STAT_UPGRADE, serialized(@stat_upgrades)
        );
        let level = level_from_xp(adventurer.xp);
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    // -----------------------------------------------------------------------------------------------
    // Internals that touch storage
    // -----------------------------------------------------------------------------------------------

    #[generate_trait]
    impl InternalImpl of InternalTrait {
        fn assert_token_owner(self: @ContractState, adventurer_id: u64) {
            assert(self.token_owner.read(adventurer_id) == get_caller_address(), 'Not token owner');
        }

        // Ownership check, load, and the per-transaction action counter increment.
        fn begin_action(ref self: ContractState, adventurer_id: u64) -> (Adventurer, Bag) {
            self.assert_token_owner(adventurer_id);
            let mut adventurer = self.adventurers.read(adventurer_id);
            adventurer.action_count = wrapping_add_u16(adventurer.action_count, 1);
            (adventurer, self.bags.read(adventurer_id))
        }

        // Level-up events and market refresh, the final `adventurer` event (boosted), then save.
        fn finish_action(
            ref self: ContractState,
            adventurer_id: u64,
            adventurer: Adventurer,
            bag: Bag,
            start_level: u8,
            market_seed: u64
        ) {
            let level = level_from_xp(adventurer.xp);
            if level > start_level {
                emit_game_event(adventurer_id, adventurer.action_count, EVENT_LEVEL_UP, serialized(@level));
                self.market_seeds.write(adventurer_id, market_seed);
                let market = market_items(adventurer_id, market_seed);
                emit_game_event(
                    adventurer_id,
                    adventurer.action_count,
                    EVENT_MARKET_ITEMS,
                    serialized(@market.span())
                );
            }
            emit_game_event(
                adventurer_id, adventurer.action_count, EVENT_ADVENTURER, serialized(@boosted(adventurer, bag))
            );
            let mut stored = adventurer;
            stored.stats.luck = 0;
            self.adventurers.write(adventurer_id, stored);
            self.bags.write(adventurer_id, bag);
        }
    }

    // -----------------------------------------------------------------------------------------------
    // Action steps (pure game logic plus event emission)
    // -----------------------------------------------------------------------------------------------

    fn assert_all_in_bag(bag: Bag, mut ids: Span<u8>) {
        loop {
            match ids.pop_front() {
                Option::Some(id) => {
                    assert(bag_contains(bag, *id), 'Item not in bag');
                },
                Option::None => {
                    break;
                },
            };
        };
    }

    // The beast hits the adventurer once (counter-attack or in-battle equip).
    fn beast_counter_attack(
        adventurer_id: u64, ref adventurer: Adventurer, beast: @Beast, crit_rnd: u8, location_rnd: u8
    ) {
        let hit = beast_hit(@adventurer, beast, crit_rnd, location_rnd);
        adventurer.health = saturating_sub(adventurer.health, hit.damage);
        emit_game_event(adventurer_id, adventurer.action_count, EVENT_BEAST_ATTACK, serialized(@hit));
    }

    // Beast killed: gold, xp, item xp, and on the very first kill the starting stats.
    fn defeat_beast(adventurer_id: u64, ref adventurer: Adventurer, beast: @Beast, level_seed: u64) {
        adventurer.beast_health = 0;
        let level = level_from_xp(adventurer.xp);
        let gold = gold_reward(beast);
        let xp = xp_reward(*beast.spec.tier, *beast.spec.level, level);
        add_gold(ref adventurer, gold);
        let (previous, current) = add_xp(ref adventurer, xp);
        add_item_xp(ref adventurer, xp * ITEM_XP_MULTIPLIER_BEASTS);
        if previous == 1 && current == 2 {
            let stats = generate_starting_stats(level_seed);
            adventurer.stats = stats;
            adventurer.health += max_health(stats.vitality) - STARTING_HEALTH;
        }
        emit_game_event(
            adventurer_id,
            adventurer.action_count,
            EVENT_DEFEATED_BEAST,
            serialized(@DefeatedBeastEvent { beast_id: *beast.id, gold_reward: gold, xp_reward: xp })
        );
    }

    // One explore step: beast (0), obstacle (1) or discovery (2). Returns whether the bag changed.
    fn explore_step(
        adventurer_id: u64, ref adventurer: Adventurer, ref bag: Bag, explore_seed: u64
    ) -> bool {
        let rnd = get_randomness(adventurer.xp, explore_seed);
        let outcome = rnd.r4_8 % 3;
        if outcome == 0 {
            beast_encounter(adventurer_id, ref adventurer, explore_seed, rnd);
            false
        } else if outcome == 1 {
            obstacle_encounter(adventurer_id, ref adventurer, rnd);
            false
        } else {
            discovery(adventurer_id, ref adventurer, ref bag, rnd)
        }
    }

    // A beast appears; unless the adventurer's wisdom avoids it, the beast ambushes first.
    fn beast_encounter(adventurer_id: u64, ref adventurer: Adventurer, seed: u64, rnd: Randomness) {
        let beast = generate_beast(@adventurer, seed, rnd);
        adventurer.beast_health = beast.starting_health;
        emit_game_event(adventurer_id, adventurer.action_count, EVENT_BEAST, serialized(@beast_event(@beast)));

        let level = level_from_xp(adventurer.xp);
        if !avoid_threat(level, adventurer.stats.wisdom, rnd.r3_8) {
            let mut hit = beast_hit(@adventurer, @beast, rnd.r2_8, rnd.r1_8);
            hit.damage = reduce_damage(hit.damage, BASE_DAMAGE_REDUCTION);
            if hit.damage != 0 {
                adventurer.health = saturating_sub(adventurer.health, hit.damage);
                emit_game_event(adventurer_id, adventurer.action_count, EVENT_AMBUSH, serialized(@hit));
            }
        }
    }

    // An obstacle: dodged with intelligence, otherwise damage; xp and item xp only if survived.
    fn obstacle_encounter(adventurer_id: u64, ref adventurer: Adventurer, rnd: Randomness) {
        let id: u8 = (rnd.r1_32 % 75 + 1).try_into().unwrap();
        let level = level_from_xp(adventurer.xp);
        let obstacle = CombatSpec {
            tier: entity_tier(id), item_type: entity_type(id), level: random_level(level, rnd.r2_16)
        };
        let location = armor_location(rnd.r1_8);
        let (raw_damage, critical_hit) = calculate_damage(
            obstacle,
            armor_spec(@adventurer, location),
            MIN_OBSTACLE_DAMAGE,
            0,
            crit_chance_from_level(level),
            rnd.r2_8
        );
        let damage = reduce_damage(raw_damage, BASE_DAMAGE_REDUCTION);
        let dodged = avoid_threat(level, adventurer.stats.intelligence, rnd.r3_8);
        if !dodged {
            adventurer.health = saturating_sub(adventurer.health, damage);
        }
        let mut reward = 0;
        if is_alive(@adventurer) {
            reward = xp_reward(obstacle.tier, obstacle.level, level);
            add_xp(ref adventurer, reward);
            add_item_xp(ref adventurer, reward);
        }
        emit_game_event(
            adventurer_id,
            adventurer.action_count,
            EVENT_OBSTACLE,
            serialized(
                @ObstacleEvent {
                    obstacle_id: id, dodged, damage, location, critical_hit, xp_reward: reward
                }
            )
        );
    }

    // Gold, health or loot, plus 1 xp. Returns whether the bag changed.
    fn discovery(adventurer_id: u64, ref adventurer: Adventurer, ref bag: Bag, rnd: Randomness) -> bool {
        let level: u32 = level_from_xp(adventurer.xp).into();
        let kind = percent_of_255(rnd.r1_8);
        let amount: u16 = (rnd.r2_8.into() % level + 1).try_into().unwrap();
        let mut bag_changed = false;
        let found = if kind < 45 {
            add_gold(ref adventurer, amount);
            DiscoveryType::Gold(amount)
        } else if kind < 90 {
            heal(ref adventurer, amount * 2);
            DiscoveryType::Health(amount * 2)
        } else {
            let item_id = discovery_loot(rnd.r2_8, rnd.r3_8);
            let slot_taken = equipped_in_slot(adventurer.equipment, item_slot(item_id)).id != 0;
            let owned = is_equipped(adventurer.equipment, item_id) || bag_contains(bag, item_id);
            if owned || (slot_taken && bag_is_full(bag)) {
                // Converted to gold by tier: T1 20 … T5 4.
                let gold = item_price(item_tier(item_id), 0);
                add_gold(ref adventurer, gold);
                DiscoveryType::Gold(gold)
            } else {
                let item = Item { id: item_id, xp: 0 };
                if slot_taken {
                    bag_add(ref bag, item);
                    bag_changed = true;
                } else {
                    equip_item(ref adventurer, ref bag, item);
                }
                DiscoveryType::Loot(item_id)
            }
        };
        add_xp(ref adventurer, 1);
        emit_game_event(
            adventurer_id,
            adventurer.action_count,
            EVENT_DISCOVERY,
            serialized(@DiscoveryEvent { discovery_type: found, xp_reward: 1 })
        );
        bag_changed
    }

    // Drops an equipped or bagged item. Returns whether the bag changed.
    fn drop_item(ref adventurer: Adventurer, ref bag: Bag, id: u8) -> bool {
        if is_equipped(adventurer.equipment, id) {
            let mut equipment = adventurer.equipment;
            set_equipped(ref equipment, item_slot(id), empty_item());
            adventurer.equipment = equipment;
            false
        } else {
            assert(bag_contains(bag, id), 'Item not owned by adventurer');
            bag_remove(ref bag, id);
            true
        }
    }

    // One market purchase. Returns whether the bag changed.
    fn buy_item(ref adventurer: Adventurer, ref bag: Bag, market: Span<u8>, purchase: ItemPurchase) -> bool {
        let id = purchase.item_id;
        assert(span_contains(market, id), 'Market item does not exist');
        assert(!is_equipped(adventurer.equipment, id) && !bag_contains(bag, id), 'Item already owned');
        assert(id != 0 && id <= NUM_ITEMS, 'invalid item id');
        let price = item_price(item_tier(id), adventurer.stats.charisma);
        assert(adventurer.gold >= price, 'Not enough gold');
        adventurer.gold -= price;

        let item = Item { id, xp: 0 };
        if purchase.equip {
            let replaced = equipped_in_slot(adventurer.equipment, item_slot(id)).id != 0;
            equip_item(ref adventurer, ref bag, item);
            replaced
        } else {
            bag_add(ref bag, item);
            true
        }
    }

    // Potions heal 10 each; overfilling is limited to less than one potion.
    fn buy_potions(ref adventurer: Adventurer, level: u8, potions: u8) {
        let cost: u32 = potion_price(level, adventurer.stats.charisma).into() * potions.into();
        assert(adventurer.gold.into() >= cost, 'Not enough gold');
        let healing: u32 = POTION_HEALTH.into() * potions.into();
        let limit: u32 = max_health(adventurer.stats.vitality).into() + POTION_HEALTH.into();
        assert(adventurer.health.into() + healing < limit, 'Health already full');
        adventurer.gold -= cost.try_into().unwrap();
        heal(ref adventurer, healing.try_into().unwrap());
    }
}
