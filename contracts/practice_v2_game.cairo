// Practice GameCore (v2) — a Cairo 2.1 stand-in for Death Mountain's second-generation GameCore on a
// local devnet: the player entrypoints with a felt252 `adventurer_id` (a packed Denshokan token id),
// `drop_items`, `surrender`, and the view `load_assets(adventurer_id) -> (Adventurer, Bag)` with the
// v2 Adventurer (no action_count; Provable-Games/metagame_extensions
// `packages/adventurer_oracle/src/types.cairo`). Events are `GameEvent` emitted directly:
// keys [sn_keccak('GameEvent'), adventurer_id], data [variant, ...payload]; v1's payloads except the
// adventurer (the 31-felt v2 Adventurer) and the beast ([id, health, level, special1..3], no seed);
// after `set_legacy_envelope(true)` (the deploying account only) they take mainnet's earlier envelope,
// keys [sn_keccak('GameEvent')], data [adventurer_id, variant, ...payload].
//
// The rules are the practice world's (contracts/shared/*.cairo). Each action checks the caller owns
// the token (Denshokan `owner_of`) and that the game is playable: started (mint time + start_delay)
// and, where it has an end, not expired (mint time + start_delay + end_delay), the packed id's
// fields read as Denshokan packs them ('Game not started', 'Game expired').
// Randomness is chosen per game settings (the settings id, bits 70-99 of the token id): the
// constructor's `vrf_mode` for settings 0, and `set_settings` (deployer only) adds, changes or
// removes settings with a mode of their own, as mainnet reads `uses_vrf` from a game's settings:
//   0 off:   seed = poseidon([xp, adventurer_id]) (the practice world's recipe), no VRF call
//   1 nonce: seed = VRF consume_random(Source::Nonce(transaction account))
//   2 salt:  seed = VRF consume_random(Source::Salt(poseidon([adventurer_id, xp, health, beast_health])))
//            with the values `load_assets` shows before the action
// `consume_random` is called by GameCore itself, or after `set_vrf_consumer` (deployer only) by a
// randomness subsystem contract (contracts/practice_v2_randomness.cairo), whose address the
// provider then binds the seed to.
// explore, attack, flee and an in-battle equip draw one seed each and emit the `randomness` event
// (variant 17) [seed, action_count] first; (action seed, market seed) = the two u64 halves of the
// seed's low 128 bits. The battle counter v1 kept in the Adventurer (`action_count`, +1 per action)
// is kept in storage, hidden; round k of a fight rolls with `action_count + k`.
// Composed by scripts/build-contracts.sh with contracts/shared/{prelude,rules,actions}.cairo.

// The v2 Adventurer `load_assets` returns (its ABI path ends in v2::Adventurer; the rules'
// Adventurer, with action_count, is the stored record). The Bag is the rules' own.
mod v2 {
    use super::{Stats, Equipment};

    #[derive(Copy, Drop, Serde)]
    struct Adventurer {
        health: u16,
        xp: u16,
        gold: u16,
        beast_health: u16,
        stat_upgrades_available: u8,
        stats: Stats,
        equipment: Equipment,
        item_specials_salt: u16,
        beast_salt: u32,
        level_salt: u16,
    }
}

#[starknet::interface]
trait IDenshokanOwner<T> {
    fn owner_of(self: @T, token_id: u256) -> ContractAddress;
}

#[starknet::interface]
trait IVrfConsumer<T> {
    fn consume_random(ref self: T, source: Source) -> felt252;
}

// A subsystem that consumes the VRF on GameCore's behalf.
#[starknet::interface]
trait IRandomnessSubsystem<T> {
    fn draw(ref self: T, source: Source) -> felt252;
}

const VRF_OFF: u8 = 0;
const VRF_NONCE: u8 = 1;
const VRF_SALT: u8 = 2;

const TWO_POW_25: u128 = 0x2000000;
const TWO_POW_30: u128 = 0x40000000;
const TWO_POW_35: u128 = 0x800000000;
const TWO_POW_70: u128 = 0x400000000000000000;
const TWO_POW_100: u128 = 0x10000000000000000000000000;

// The settings id of a packed Denshokan token id (low u128 bits 70-99).
fn token_settings(adventurer_id: felt252) -> u32 {
    let id: u256 = adventurer_id.into();
    ((id.low / TWO_POW_70) % TWO_POW_30).try_into().unwrap()
}

// (start, end) of a packed token id in unix seconds: the mint time (high u128 bits 0-34) plus
// start_delay (low bits 100-124), and that plus end_delay (high bits 35-59); end 0: no end.
fn token_window(adventurer_id: felt252) -> (u64, u64) {
    let id: u256 = adventurer_id.into();
    let minted_at: u64 = (id.high % TWO_POW_35).try_into().unwrap();
    let start_delay: u64 = ((id.low / TWO_POW_100) % TWO_POW_25).try_into().unwrap();
    let end_delay: u64 = ((id.high / TWO_POW_35) % TWO_POW_25).try_into().unwrap();
    let start = minted_at + start_delay;
    if end_delay == 0 {
        (start, 0)
    } else {
        (start, start + end_delay)
    }
}

// The salt of `Source::Salt` in salt mode: poseidon([adventurer_id, xp, health, beast_health]).
fn action_salt(adventurer_id: felt252, adventurer: @Adventurer) -> felt252 {
    let mut input = ArrayTrait::new();
    input.append(adventurer_id);
    input.append((*adventurer.xp).into());
    input.append((*adventurer.health).into());
    input.append((*adventurer.beast_health).into());
    poseidon_hash_span(input.span())
}

#[starknet::contract]
mod practice_v2_game {
    use array::{ArrayTrait, SpanTrait};
    use box::BoxTrait;
    use option::OptionTrait;
    use traits::{Into, TryInto};
    use zeroable::Zeroable;
    use starknet::{ContractAddress, get_caller_address, get_tx_info, get_block_timestamp};

    use super::{
        Adventurer, Bag, Stats, ItemPurchase, Sink, BattleRoll, Source, v2, VRF_OFF, VRF_NONCE, VRF_SALT
    };
    use super::{token_settings, token_window};
    use super::{EVENT_ADVENTURER, EVENT_RANDOMNESS, serialized, emit_game_event, hash2};
    use super::{felt_to_two_u64, action_salt, empty_bag, boosted, level_from_xp, beast_from_seed};
    use super::{market_items, wrapping_add_u16, assert_alive};
    use super::{
        start_action, assert_can_explore_now, explore_action, assert_can_fight, attack_action,
        assert_can_flee, flee_action, assert_can_equip, equip_action, drop_action, buy_action,
        upgrade_action, level_up_events
    };
    use super::{
        IDenshokanOwnerDispatcher, IDenshokanOwnerDispatcherTrait, IVrfConsumerDispatcher,
        IVrfConsumerDispatcherTrait, IRandomnessSubsystemDispatcher, IRandomnessSubsystemDispatcherTrait
    };

    #[storage]
    struct Storage {
        denshokan: ContractAddress,
        vrf: ContractAddress,
        mode: u8,
        // Stored unboosted, in the rules' layout: `action_count` is the hidden battle counter and
        // `item_specials_seed` stays 0.
        adventurers: LegacyMap<felt252, Adventurer>,
        bags: LegacyMap<felt252, Bag>,
        started: LegacyMap<felt252, bool>,
        market_seeds: LegacyMap<felt252, u64>,
        beast_seeds: LegacyMap<felt252, u64>,
        // The account that deployed the world, and whether events take the earlier envelope.
        admin: ContractAddress,
        legacy_envelope: bool,
        // Which game settings exist, and each one's randomness mode.
        settings_known: LegacyMap<u32, bool>,
        settings_modes: LegacyMap<u32, u8>,
        // The contract that calls `consume_random` (zero: GameCore itself).
        consumer: ContractAddress,
    }

    #[constructor]
    fn constructor(ref self: ContractState, denshokan: ContractAddress, vrf: ContractAddress, vrf_mode: u8) {
        assert(vrf_mode <= VRF_SALT, 'Unknown VRF mode');
        self.denshokan.write(denshokan);
        self.vrf.write(vrf);
        self.mode.write(vrf_mode);
        self.settings_known.write(0, true);
        self.settings_modes.write(0, vrf_mode);
        self.admin.write(get_tx_info().unbox().account_contract_address);
    }

    // Adds, changes (`exists`) or removes game settings with their randomness mode; only the
    // deploying account may.
    #[external(v0)]
    fn set_settings(ref self: ContractState, settings_id: u32, exists: bool, vrf_mode: u8) {
        assert(get_caller_address() == self.admin.read(), 'Only the deployer');
        assert(vrf_mode <= VRF_SALT, 'Unknown VRF mode');
        self.settings_known.write(settings_id, exists);
        self.settings_modes.write(settings_id, vrf_mode);
    }

    // Whether game settings `settings_id` exist (GameToken mints only those).
    #[external(v0)]
    fn settings_exist(self: @ContractState, settings_id: u32) -> bool {
        self.settings_known.read(settings_id)
    }

    // Lets `consumer` (a randomness subsystem) call `consume_random` from now on; zero: GameCore
    // itself. Only the deploying account may.
    #[external(v0)]
    fn set_vrf_consumer(ref self: ContractState, consumer: ContractAddress) {
        assert(get_caller_address() == self.admin.read(), 'Only the deployer');
        self.consumer.write(consumer);
    }

    // Switches the events to mainnet's earlier envelope (id in data[0]) or back, so a reader of
    // both can be tested on one game; only the deploying account may.
    #[external(v0)]
    fn set_legacy_envelope(ref self: ContractState, legacy: bool) {
        assert(get_caller_address() == self.admin.read(), 'Only the deployer');
        self.legacy_envelope.write(legacy);
    }

    // The live, stat-boosted adventurer and its bag.
    #[external(v0)]
    fn load_assets(self: @ContractState, adventurer_id: felt252) -> (v2::Adventurer, Bag) {
        let bag = self.bags.read(adventurer_id);
        (self.view(adventurer_id, boosted(self.adventurers.read(adventurer_id), bag)), bag)
    }

    // The randomness mode of settings 0 (the constructor's): 0 off, 1 nonce, 2 salt.
    #[external(v0)]
    fn vrf_mode(self: @ContractState) -> u8 {
        self.mode.read()
    }

    #[external(v0)]
    fn start_game(ref self: ContractState, adventurer_id: felt252, weapon: u8) {
        self.assert_token_owner(adventurer_id);
        assert_playable(adventurer_id);
        assert(!self.started.read(adventurer_id), 'Adventurer already started');
        self.started.write(adventurer_id, true);
        // The starter beast's seed: the id's low 64 bits.
        let (_, beast_seed) = felt_to_two_u64(adventurer_id);
        let adventurer = start_action(self.sink(adventurer_id), weapon, beast_seed);
        self.beast_seeds.write(adventurer_id, beast_seed);
        self.finish_action(adventurer_id, adventurer, empty_bag(), 1, 0);
    }

    #[external(v0)]
    fn explore(ref self: ContractState, adventurer_id: felt252, till_beast: bool) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        assert_can_explore_now(@adventurer);
        let start_level = level_from_xp(adventurer.xp);
        let (explore_seed, market_seed) = self.draw_seeds(adventurer_id, @adventurer);
        explore_action(self.sink(adventurer_id), ref adventurer, ref bag, till_beast, explore_seed);
        if adventurer.beast_health != 0 {
            self.beast_seeds.write(adventurer_id, explore_seed);
        }
        self.finish_action(adventurer_id, adventurer, bag, start_level, market_seed);
    }

    #[external(v0)]
    fn attack(ref self: ContractState, adventurer_id: felt252, to_the_death: bool) {
        let (mut adventurer, bag) = self.begin_action(adventurer_id);
        assert_can_fight(@adventurer);
        let start_level = level_from_xp(adventurer.xp);
        let (level_seed, market_seed) = self.draw_seeds(adventurer_id, @adventurer);
        let beast = beast_from_seed(@adventurer, self.beast_seeds.read(adventurer_id));
        attack_action(self.sink(adventurer_id), ref adventurer, bag, @beast, level_seed, to_the_death);
        self.finish_action(adventurer_id, adventurer, bag, start_level, market_seed);
    }

    #[external(v0)]
    fn flee(ref self: ContractState, adventurer_id: felt252, to_the_death: bool) {
        let (mut adventurer, bag) = self.begin_action(adventurer_id);
        assert_can_flee(@adventurer);
        let level = level_from_xp(adventurer.xp);
        let (flee_seed, market_seed) = self.draw_seeds(adventurer_id, @adventurer);
        let beast = beast_from_seed(@adventurer, self.beast_seeds.read(adventurer_id));
        flee_action(self.sink(adventurer_id), ref adventurer, @beast, flee_seed, to_the_death);
        self.finish_action(adventurer_id, adventurer, bag, level, market_seed);
    }

    // Out of battle no randomness is drawn (and none need be requested).
    #[external(v0)]
    fn equip(ref self: ContractState, adventurer_id: felt252, items: Array<u8>) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        let ids = items.span();
        assert_can_equip(@adventurer, bag, ids);
        let level = level_from_xp(adventurer.xp);
        let battle = if adventurer.beast_health != 0 {
            let (seed, _) = self.draw_seeds(adventurer_id, @adventurer);
            let beast = beast_from_seed(@adventurer, self.beast_seeds.read(adventurer_id));
            Option::Some(BattleRoll { beast, seed })
        } else {
            Option::None
        };
        equip_action(self.sink(adventurer_id), ref adventurer, ref bag, ids, battle);
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    #[external(v0)]
    fn drop_items(ref self: ContractState, adventurer_id: felt252, items: Array<u8>) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        drop_action(self.sink(adventurer_id), ref adventurer, ref bag, items.span());
        let level = level_from_xp(adventurer.xp);
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    #[external(v0)]
    fn buy_items(ref self: ContractState, adventurer_id: felt252, potions: u8, items: Array<ItemPurchase>) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        let market = market_items(adventurer_id, self.market_seeds.read(adventurer_id));
        buy_action(self.sink(adventurer_id), ref adventurer, ref bag, market.span(), potions, items.span());
        let level = level_from_xp(adventurer.xp);
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    #[external(v0)]
    fn select_stat_upgrades(ref self: ContractState, adventurer_id: felt252, stat_upgrades: Stats) {
        let (mut adventurer, bag) = self.begin_action(adventurer_id);
        upgrade_action(self.sink(adventurer_id), ref adventurer, stat_upgrades);
        let level = level_from_xp(adventurer.xp);
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    // Ends the game: health 0, then the `adventurer` event.
    #[external(v0)]
    fn surrender(ref self: ContractState, adventurer_id: felt252) {
        let (mut adventurer, bag) = self.begin_action(adventurer_id);
        assert_alive(@adventurer);
        adventurer.health = 0;
        let level = level_from_xp(adventurer.xp);
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    // Refuses a game before its start or after its end (unix seconds, the block's time).
    fn assert_playable(adventurer_id: felt252) {
        let (start, end) = token_window(adventurer_id);
        let now = get_block_timestamp();
        assert(now >= start, 'Game not started');
        assert(end == 0 || now < end, 'Game expired');
    }

    #[generate_trait]
    impl InternalImpl of InternalTrait {
        fn sink(self: @ContractState, adventurer_id: felt252) -> Sink {
            Sink { adventurer_id, direct: true, legacy: self.legacy_envelope.read() }
        }

        fn assert_token_owner(self: @ContractState, adventurer_id: felt252) {
            let owner = IDenshokanOwnerDispatcher { contract_address: self.denshokan.read() }
                .owner_of(adventurer_id.into());
            assert(owner == get_caller_address(), 'Not token owner');
        }

        // Ownership check, load, and the hidden battle counter's increment.
        fn begin_action(ref self: ContractState, adventurer_id: felt252) -> (Adventurer, Bag) {
            self.assert_token_owner(adventurer_id);
            assert_playable(adventurer_id);
            let mut adventurer = self.adventurers.read(adventurer_id);
            adventurer.action_count = wrapping_add_u16(adventurer.action_count, 1);
            (adventurer, self.bags.read(adventurer_id))
        }

        // The action's seed in its game settings' mode, announced by the `randomness` event, split
        // into (action seed, market seed).
        fn draw_seeds(ref self: ContractState, adventurer_id: felt252, adventurer: @Adventurer) -> (u64, u64) {
            let mode = self.settings_modes.read(token_settings(adventurer_id));
            let seed = if mode == VRF_OFF {
                hash2((*adventurer.xp).into(), adventurer_id)
            } else if mode == VRF_NONCE {
                let account = get_tx_info().unbox().account_contract_address;
                self.consume(Source::Nonce(account))
            } else {
                self.consume(Source::Salt(action_salt(adventurer_id, adventurer)))
            };
            let count = *adventurer.action_count;
            emit_game_event(self.sink(adventurer_id), count, EVENT_RANDOMNESS, serialized(@(seed, count)));
            felt_to_two_u64(seed)
        }

        // `consume_random(source)`, called by GameCore or by its randomness subsystem.
        fn consume(ref self: ContractState, source: Source) -> felt252 {
            let consumer = self.consumer.read();
            if consumer.is_zero() {
                IVrfConsumerDispatcher { contract_address: self.vrf.read() }.consume_random(source)
            } else {
                IRandomnessSubsystemDispatcher { contract_address: consumer }.draw(source)
            }
        }

        fn view(self: @ContractState, adventurer_id: felt252, adventurer: Adventurer) -> v2::Adventurer {
            let beast_salt = self.beast_seeds.read(adventurer_id) % 0x100000000;
            let level_salt = self.market_seeds.read(adventurer_id) % 0x10000;
            v2::Adventurer {
                health: adventurer.health,
                xp: adventurer.xp,
                gold: adventurer.gold,
                beast_health: adventurer.beast_health,
                stat_upgrades_available: adventurer.stat_upgrades_available,
                stats: adventurer.stats,
                equipment: adventurer.equipment,
                item_specials_salt: 0,
                beast_salt: beast_salt.try_into().unwrap(),
                level_salt: level_salt.try_into().unwrap(),
            }
        }

        fn finish_action(
            ref self: ContractState,
            adventurer_id: felt252,
            adventurer: Adventurer,
            bag: Bag,
            start_level: u8,
            market_seed: u64
        ) {
            if level_up_events(self.sink(adventurer_id), @adventurer, start_level, market_seed) {
                self.market_seeds.write(adventurer_id, market_seed);
            }
            let view = self.view(adventurer_id, boosted(adventurer, bag));
            emit_game_event(self.sink(adventurer_id), adventurer.action_count, EVENT_ADVENTURER, serialized(@view));
            let mut stored = adventurer;
            stored.stats.luck = 0;
            self.adventurers.write(adventurer_id, stored);
            self.bags.write(adventurer_id, bag);
        }
    }
}
