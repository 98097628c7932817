// Loot Survivor practice world — a Cairo 2.1 contract that stands in for the four Dojo systems
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
//
// Composed by scripts/build-contracts.sh with contracts/shared/prelude.cairo (imports, shared ABI types),
// contracts/shared/rules.cairo (the rules) and contracts/shared/actions.cairo (the actions and event
// emission), which the v2 practice GameCore (contracts/practice_v2_game.cairo) compiles from too.

// ---------------------------------------------------------------------------------------------------
// ABI data types of the v1 world only
// ---------------------------------------------------------------------------------------------------

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
        Adventurer, Bag, Stats, ItemPurchase, GameState, GameSettings, StatsMode, GameContextDetails,
        ByteArray, Sink, BattleRoll
    };
    use super::{EVENT_ADVENTURER, serialized, emit_game_event, action_seeds, new_adventurer, empty_bag};
    use super::{boosted, level_from_xp, beast_from_seed, beast_event, market_items, wrapping_add_u16};
    use super::{
        start_action, assert_can_explore_now, explore_action, assert_can_fight, attack_action,
        assert_can_flee, flee_action, assert_can_equip, equip_action, drop_action, buy_action,
        upgrade_action, level_up_events
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
        let market = market_items(adventurer_id.into(), self.market_seeds.read(adventurer_id));
        GameState {
            adventurer: boosted(adventurer, bag),
            bag,
            beast: beast_event(@beast),
            market: market.span(),
        }
    }
    // -----------------------------------------------------------------------------------------------
    // game_systems: actions (the rules are contracts/shared/actions.cairo)
    // -----------------------------------------------------------------------------------------------

    #[external(v0)]
    fn start_game(ref self: ContractState, adventurer_id: u64, weapon: u8) {
        self.assert_token_owner(adventurer_id);
        let stored = self.adventurers.read(adventurer_id);
        assert(stored.xp == 0 && stored.health == 0, 'Adventurer already started');
        // The starter beast's seed is the adventurer id.
        let adventurer = start_action(sink(adventurer_id), weapon, adventurer_id);
        self.beast_seeds.write(adventurer_id, adventurer_id);
        self.market_seeds.write(adventurer_id, 0);
        self.finish_action(adventurer_id, adventurer, empty_bag(), 1, 0);
    }

    #[external(v0)]
    fn explore(ref self: ContractState, adventurer_id: u64, till_beast: bool) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        assert_can_explore_now(@adventurer);
        let start_level = level_from_xp(adventurer.xp);
        let (explore_seed, market_seed) = action_seeds(adventurer.xp, adventurer_id.into());
        explore_action(sink(adventurer_id), ref adventurer, ref bag, till_beast, explore_seed);
        if adventurer.beast_health != 0 {
            self.beast_seeds.write(adventurer_id, explore_seed);
        }
        self.finish_action(adventurer_id, adventurer, bag, start_level, market_seed);
    }

    #[external(v0)]
    fn attack(ref self: ContractState, adventurer_id: u64, to_the_death: bool) {
        let (mut adventurer, bag) = self.begin_action(adventurer_id);
        assert_can_fight(@adventurer);
        let start_level = level_from_xp(adventurer.xp);
        let (level_seed, market_seed) = action_seeds(adventurer.xp, adventurer_id.into());
        let beast = beast_from_seed(@adventurer, self.beast_seeds.read(adventurer_id));
        attack_action(sink(adventurer_id), ref adventurer, bag, @beast, level_seed, to_the_death);
        self.finish_action(adventurer_id, adventurer, bag, start_level, market_seed);
    }

    #[external(v0)]
    fn flee(ref self: ContractState, adventurer_id: u64, to_the_death: bool) {
        let (mut adventurer, bag) = self.begin_action(adventurer_id);
        assert_can_flee(@adventurer);
        let level = level_from_xp(adventurer.xp);
        let (flee_seed, market_seed) = action_seeds(adventurer.xp, adventurer_id.into());
        let beast = beast_from_seed(@adventurer, self.beast_seeds.read(adventurer_id));
        flee_action(sink(adventurer_id), ref adventurer, @beast, flee_seed, to_the_death);
        self.finish_action(adventurer_id, adventurer, bag, level, market_seed);
    }

    #[external(v0)]
    fn equip(ref self: ContractState, adventurer_id: u64, items: Array<u8>) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        let ids = items.span();
        assert_can_equip(@adventurer, bag, ids);
        let start_level = level_from_xp(adventurer.xp);
        let (seed, market_seed) = action_seeds(adventurer.xp, adventurer_id.into());
        // Changing equipment in battle gives the beast a free attack.
        let battle = if adventurer.beast_health != 0 {
            let beast = beast_from_seed(@adventurer, self.beast_seeds.read(adventurer_id));
            Option::Some(BattleRoll { beast, seed })
        } else {
            Option::None
        };
        equip_action(sink(adventurer_id), ref adventurer, ref bag, ids, battle);
        self.finish_action(adventurer_id, adventurer, bag, start_level, market_seed);
    }

    #[external(v0)]
    fn drop(ref self: ContractState, adventurer_id: u64, items: Array<u8>) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        drop_action(sink(adventurer_id), ref adventurer, ref bag, items.span());
        let level = level_from_xp(adventurer.xp);
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    #[external(v0)]
    fn buy_items(ref self: ContractState, adventurer_id: u64, potions: u8, items: Array<ItemPurchase>) {
        let (mut adventurer, mut bag) = self.begin_action(adventurer_id);
        let market = market_items(adventurer_id.into(), self.market_seeds.read(adventurer_id));
        buy_action(sink(adventurer_id), ref adventurer, ref bag, market.span(), potions, items.span());
        let level = level_from_xp(adventurer.xp);
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    #[external(v0)]
    fn select_stat_upgrades(ref self: ContractState, adventurer_id: u64, stat_upgrades: Stats) {
        let (mut adventurer, bag) = self.begin_action(adventurer_id);
        upgrade_action(sink(adventurer_id), ref adventurer, stat_upgrades);
        let level = level_from_xp(adventurer.xp);
        self.finish_action(adventurer_id, adventurer, bag, level, 0);
    }

    // v1 game events go through the Dojo world layout.
    fn sink(adventurer_id: u64) -> Sink {
        Sink { adventurer_id: adventurer_id.into(), direct: false, legacy: false }
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
            if level_up_events(sink(adventurer_id), @adventurer, start_level, market_seed) {
                self.market_seeds.write(adventurer_id, market_seed);
            }
            emit_game_event(
                sink(adventurer_id),
                adventurer.action_count,
                EVENT_ADVENTURER,
                serialized(@boosted(adventurer, bag))
            );
            let mut stored = adventurer;
            stored.stats.luck = 0;
            self.adventurers.write(adventurer_id, stored);
            self.bags.write(adventurer_id, bag);
        }
    }
}
