// Shared by the practice world (v1) and the v2 practice GameCore: game event emission in either
// layout, and the game actions as pure steps over (adventurer, bag) that emit their events. Each
// contract keeps its own storage, ownership check, seeds and final `adventurer` event.

// ---------------------------------------------------------------------------------------------------
// Event emission
// ---------------------------------------------------------------------------------------------------

// Where a game event goes and in which layout: `direct` is v2's `GameEvent` emitted by the game
// itself (in its earlier envelope when `legacy`), otherwise v1's Dojo world `EventEmitted`.
#[derive(Copy, Drop)]
struct Sink {
    adventurer_id: felt252,
    direct: bool,
    legacy: bool,
}

// v1 (Dojo): keys = [EventEmitted, ls_0_0_9-GameEvent selector, system address],
//            data = [1, adventurer_id, values_len, action_count, variant_index, ...payload].
// v2 (direct): keys = [sn_keccak('GameEvent'), adventurer_id], data = [variant_index, ...payload];
// v2's earlier envelope (legacy): keys = [sn_keccak('GameEvent')], data = [adventurer_id, variant_index, ...].
fn emit_game_event(sink: Sink, action_count: u16, variant: felt252, payload: Span<felt252>) {
    let mut keys = ArrayTrait::new();
    let mut data = ArrayTrait::new();
    if sink.direct && sink.legacy {
        keys.append(V2_GAME_EVENT_SELECTOR);
        data.append(sink.adventurer_id);
    } else if sink.direct {
        keys.append(V2_GAME_EVENT_SELECTOR);
        keys.append(sink.adventurer_id);
    } else {
        keys.append(EVENT_EMITTED_SELECTOR);
        keys.append(GAME_EVENT_SELECTOR);
        keys.append(starknet::get_contract_address().into());
        data.append(1);
        data.append(sink.adventurer_id);
        data.append((payload.len() + 2).into());
        data.append(action_count.into());
    }
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

// The `beast` event: v1's BeastEvent, or v2's seedless [id, health, level, special1, special2, special3].
fn emit_beast(sink: Sink, action_count: u16, beast: @Beast) {
    let event = beast_event(beast);
    if !sink.direct {
        emit_game_event(sink, action_count, EVENT_BEAST, serialized(@event));
        return;
    }
    let mut payload = ArrayTrait::new();
    event.id.serialize(ref payload);
    event.health.serialize(ref payload);
    event.level.serialize(ref payload);
    event.specials.serialize(ref payload);
    emit_game_event(sink, action_count, EVENT_BEAST, payload.span());
}

fn serialized<T, impl TSerde: Serde<T>, impl TDrop: Drop<T>>(value: @T) -> Span<felt252> {
    let mut out = ArrayTrait::new();
    value.serialize(ref out);
    out.span()
}

// ---------------------------------------------------------------------------------------------------
// Actions: preconditions, rules and their events (the caller loads, seeds, saves)
// ---------------------------------------------------------------------------------------------------

// A fresh adventurer with `weapon`, already hit by the starter beast's spoofed ambush (a fixed 10
// damage), and the starter beast's event. `beast_seed` is the seed recorded for that beast.
fn start_action(sink: Sink, weapon: u8, beast_seed: u64) -> Adventurer {
    assert(is_starting_weapon(weapon), 'Invalid starting weapon');
    let mut adventurer = new_adventurer(weapon);
    adventurer.action_count = 1;
    adventurer.health -= STARTER_BEAST_ATTACK_DAMAGE;
    let beast = starter_beast(weapon, beast_seed);
    emit_beast(sink, 1, @beast);
    adventurer
}

fn assert_can_explore_now(adventurer: @Adventurer) {
    assert_alive(adventurer);
    assert(*adventurer.stat_upgrades_available == 0, 'Stat upgrade available');
    assert_not_in_battle(adventurer);
}

// Explores one step, or until a beast (or death, or a level-up) when `till_beast`.
fn explore_action(sink: Sink, ref adventurer: Adventurer, ref bag: Bag, till_beast: bool, seed: u64) {
    let mut bag_changed = false;
    loop {
        if explore_step(sink, ref adventurer, ref bag, seed) {
            bag_changed = true;
        }
        if !till_beast || !can_explore(@adventurer) {
            break;
        };
    };
    if bag_changed {
        emit_game_event(sink, adventurer.action_count, EVENT_BAG, serialized(@bag));
    }
}

fn assert_can_fight(adventurer: @Adventurer) {
    assert_alive(adventurer);
    assert_in_battle(adventurer);
}

// Attacks once, or until one side dies when `to_the_death`; round k rolls with battle counter
// `action_count + k`.
fn attack_action(
    sink: Sink, ref adventurer: Adventurer, bag: Bag, beast: @Beast, level_seed: u64, to_the_death: bool
) {
    let luck = boosted(adventurer, bag).stats.luck;
    let mut round: u32 = 1;
    loop {
        let battle_count = wrapping_add_u16(adventurer.action_count, round);
        let (_, adventurer_crit_rnd, beast_crit_rnd, location_rnd) = get_battle_randomness(
            adventurer.xp, battle_count, level_seed
        );
        let (damage, critical_hit) = calculate_damage(
            weapon_spec(@adventurer),
            *beast.spec,
            MIN_ATTACK_DAMAGE,
            adventurer.stats.strength,
            luck,
            adventurer_crit_rnd
        );
        emit_game_event(
            sink,
            adventurer.action_count,
            EVENT_ATTACK,
            serialized(@AttackEvent { damage, location: SLOT_NONE, critical_hit })
        );
        if damage >= adventurer.beast_health {
            defeat_beast(sink, ref adventurer, beast, level_seed);
            break;
        }
        adventurer.beast_health -= damage;
        beast_counter_attack(sink, ref adventurer, beast, beast_crit_rnd, location_rnd);
        if !to_the_death || !is_alive(@adventurer) {
            break;
        }
        round += 1;
    };
}

fn assert_can_flee(adventurer: @Adventurer) {
    assert_can_fight(adventurer);
    assert(level_from_xp(*adventurer.xp) > 1, 'Cant flee starter beast');
    assert(*adventurer.stats.dexterity != 0, 'Cant flee, no dexterity');
}

// Tries to flee once, or until it succeeds or the adventurer dies when `to_the_death`.
fn flee_action(sink: Sink, ref adventurer: Adventurer, beast: @Beast, flee_seed: u64, to_the_death: bool) {
    let level = level_from_xp(adventurer.xp);
    let mut round: u32 = 1;
    loop {
        let battle_count = wrapping_add_u16(adventurer.action_count, round);
        let (flee_rnd, _, beast_crit_rnd, location_rnd) = get_battle_randomness(
            adventurer.xp, battle_count, flee_seed
        );
        let fled = avoid_threat(level, adventurer.stats.dexterity, flee_rnd);
        emit_game_event(sink, adventurer.action_count, EVENT_FLEE, serialized(@fled));
        if fled {
            adventurer.beast_health = 0;
            add_xp(ref adventurer, 1);
            emit_game_event(
                sink,
                adventurer.action_count,
                EVENT_FLED_BEAST,
                serialized(@FledBeastEvent { beast_id: *beast.id, xp_reward: 1 })
            );
            break;
        }
        beast_counter_attack(sink, ref adventurer, beast, beast_crit_rnd, location_rnd);
        if !to_the_death || !is_alive(@adventurer) {
            break;
        }
        round += 1;
    };
}

fn assert_can_equip(adventurer: @Adventurer, bag: Bag, ids: Span<u8>) {
    assert_alive(adventurer);
    assert(ids.len() != 0, 'Must provide item ids');
    assert(ids.len() <= 8, 'Too many items');
    assert_all_in_bag(bag, ids);
}

// The beast and seed of an in-battle equip's free beast attack.
#[derive(Copy, Drop)]
struct BattleRoll {
    beast: Beast,
    seed: u64,
}

// Equips `ids` from the bag; in battle the beast first gets a free attack (battle counter 0 of
// `seed`), which the caller passes only then.
fn equip_action(
    sink: Sink, ref adventurer: Adventurer, ref bag: Bag, ids: Span<u8>, battle: Option<BattleRoll>
) {
    match battle {
        Option::Some(roll) => {
            let (_, _, beast_crit_rnd, location_rnd) = get_battle_randomness(
                adventurer.xp, 0, roll.seed
            );
            beast_counter_attack(sink, ref adventurer, @roll.beast, beast_crit_rnd, location_rnd);
        },
        Option::None => {},
    };
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
    emit_game_event(sink, adventurer.action_count, EVENT_EQUIP, serialized(@ids));
    emit_game_event(sink, adventurer.action_count, EVENT_BAG, serialized(@bag));
}

// Drops equipped or bagged items (not during the starter beast).
fn drop_action(sink: Sink, ref adventurer: Adventurer, ref bag: Bag, ids: Span<u8>) {
    assert_alive(@adventurer);
    assert_not_in_battle(@adventurer);
    assert(ids.len() != 0, 'Must provide item ids');
    assert(level_from_xp(adventurer.xp) > 1, 'Cant drop during starter beast');
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
    emit_game_event(sink, adventurer.action_count, EVENT_DROP, serialized(@ids));
    if bag_changed {
        emit_game_event(sink, adventurer.action_count, EVENT_BAG, serialized(@bag));
    }
}

// Buys `purchases` from `market`, then `potions`.
fn buy_action(
    sink: Sink,
    ref adventurer: Adventurer,
    ref bag: Bag,
    market: Span<u8>,
    potions: u8,
    purchases: Span<ItemPurchase>
) {
    assert_alive(@adventurer);
    assert_not_in_battle(@adventurer);
    assert(adventurer.stat_upgrades_available == 0, 'Market is closed');
    let level = level_from_xp(adventurer.xp);
    let mut bag_changed = false;
    let mut rest = purchases;
    loop {
        match rest.pop_front() {
            Option::Some(purchase) => {
                if buy_item(ref adventurer, ref bag, market, *purchase) {
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
        emit_game_event(sink, adventurer.action_count, EVENT_BAG, serialized(@bag));
    }
    let mut payload = ArrayTrait::new();
    potions.serialize(ref payload);
    purchases.serialize(ref payload);
    emit_game_event(sink, adventurer.action_count, EVENT_BUY_ITEMS, payload.span());
}

// Spends every available stat point; each vitality point also heals immediately.
fn upgrade_action(sink: Sink, ref adventurer: Adventurer, stat_upgrades: Stats) {
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
    heal(ref adventurer, VITALITY_HEALTH * stat_upgrades.vitality.into());
    emit_game_event(sink, adventurer.action_count, EVENT_STAT_UPGRADE, serialized(@stat_upgrades));
}

// After an action: on a level-up the `level_up` and `market_items` events (the market of
// `market_seed`). Returns whether the level changed, so the caller records the new market seed.
fn level_up_events(sink: Sink, adventurer: @Adventurer, start_level: u8, market_seed: u64) -> bool {
    let level = level_from_xp(*adventurer.xp);
    if level <= start_level {
        return false;
    }
    emit_game_event(sink, *adventurer.action_count, EVENT_LEVEL_UP, serialized(@level));
    let market = market_items(sink.adventurer_id, market_seed);
    emit_game_event(sink, *adventurer.action_count, EVENT_MARKET_ITEMS, serialized(@market.span()));
    true
}

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
    sink: Sink, ref adventurer: Adventurer, beast: @Beast, crit_rnd: u8, location_rnd: u8
) {
    let hit = beast_hit(@adventurer, beast, crit_rnd, location_rnd);
    adventurer.health = saturating_sub(adventurer.health, hit.damage);
    emit_game_event(sink, adventurer.action_count, EVENT_BEAST_ATTACK, serialized(@hit));
}

// Beast killed: gold, xp, item xp, and on the very first kill the starting stats.
fn defeat_beast(sink: Sink, ref adventurer: Adventurer, beast: @Beast, level_seed: u64) {
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
        sink,
        adventurer.action_count,
        EVENT_DEFEATED_BEAST,
        serialized(@DefeatedBeastEvent { beast_id: *beast.id, gold_reward: gold, xp_reward: xp })
    );
}

// One explore step: beast (0), obstacle (1) or discovery (2). Returns whether the bag changed.
fn explore_step(
    sink: Sink, ref adventurer: Adventurer, ref bag: Bag, explore_seed: u64
) -> bool {
    let rnd = get_randomness(adventurer.xp, explore_seed);
    let outcome = rnd.r4_8 % 3;
    if outcome == 0 {
        beast_encounter(sink, ref adventurer, explore_seed, rnd);
        false
    } else if outcome == 1 {
        obstacle_encounter(sink, ref adventurer, rnd);
        false
    } else {
        discovery(sink, ref adventurer, ref bag, rnd)
    }
}

// A beast appears; unless the adventurer's wisdom avoids it, the beast ambushes first.
fn beast_encounter(sink: Sink, ref adventurer: Adventurer, seed: u64, rnd: Randomness) {
    let beast = generate_beast(@adventurer, seed, rnd);
    adventurer.beast_health = beast.starting_health;
    emit_beast(sink, adventurer.action_count, @beast);

    let level = level_from_xp(adventurer.xp);
    if !avoid_threat(level, adventurer.stats.wisdom, rnd.r3_8) {
        let mut hit = beast_hit(@adventurer, @beast, rnd.r2_8, rnd.r1_8);
        hit.damage = reduce_damage(hit.damage, BASE_DAMAGE_REDUCTION);
        if hit.damage != 0 {
            adventurer.health = saturating_sub(adventurer.health, hit.damage);
            emit_game_event(sink, adventurer.action_count, EVENT_AMBUSH, serialized(@hit));
        }
    }
}

// An obstacle: dodged with intelligence, otherwise damage; xp and item xp only if survived.
fn obstacle_encounter(sink: Sink, ref adventurer: Adventurer, rnd: Randomness) {
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
        sink,
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
fn discovery(sink: Sink, ref adventurer: Adventurer, ref bag: Bag, rnd: Randomness) -> bool {
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
        sink,
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
