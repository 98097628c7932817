// Practice GameToken (v2) — a Cairo 2.1 stand-in for Death Mountain's GameToken on a local devnet:
// `mint_game` with the IMinigame signature (Provable-Games/denshokan-sdk `src/rpc/abis/minigame.json`
// @ dc363150), minting through the practice Denshokan, plus `score` and `game_over` read from the
// practice GameCore's `load_assets`. The constructor registers this token with Denshokan (game id 1
// on a fresh Denshokan).
//
// A mint asks GameCore's `settings_exist` first ('Settings not found'), as Denshokan's mint asks
// the game (Provable-Games/denshokan `DENSHOKAN-LITE-PLAN.md` @ d507fe7).
//
// SIMPLIFICATIONS: player name, context
// details, client url, renderer and skills addresses are accepted and ignored (only whether a
// context was given reaches the id); no caller check (anyone may mint, as upstream).
// Composed by scripts/build-contracts.sh with contracts/shared/prelude.cairo (ByteArray, contexts).

#[starknet::interface]
trait IPracticeDenshokan<T> {
    fn register_game(ref self: T) -> u128;
    fn mint(
        ref self: T,
        minter: ContractAddress,
        to: ContractAddress,
        settings_id: u32,
        start: u64,
        end: u64,
        objective_id: u32,
        soulbound: bool,
        paymaster: bool,
        has_context: bool,
        salt: u16,
        metadata: u16
    ) -> felt252;
}

// The first two felts of GameCore's `load_assets` answer (the Adventurer's health and xp): Serde
// reads only what it needs.
#[starknet::interface]
trait IGameCoreHead<T> {
    fn load_assets(self: @T, adventurer_id: felt252) -> (u16, u16);
}

// GameCore's settings table.
#[starknet::interface]
trait IGameSettings<T> {
    fn settings_exist(self: @T, settings_id: u32) -> bool;
}

#[starknet::contract]
mod practice_v2_token {
    use option::OptionTrait;
    use traits::Into;
    use starknet::{ContractAddress, get_caller_address};

    use super::{GameContextDetails, ByteArray};
    use super::{
        IPracticeDenshokanDispatcher, IPracticeDenshokanDispatcherTrait, IGameCoreHeadDispatcher,
        IGameCoreHeadDispatcherTrait, IGameSettingsDispatcher, IGameSettingsDispatcherTrait
    };

    #[storage]
    struct Storage {
        denshokan: ContractAddress,
        game: ContractAddress,
    }

    #[constructor]
    fn constructor(ref self: ContractState, denshokan: ContractAddress, game: ContractAddress) {
        self.denshokan.write(denshokan);
        self.game.write(game);
        IPracticeDenshokanDispatcher { contract_address: denshokan }.register_game();
    }

    #[external(v0)]
    fn mint_game(
        ref self: ContractState,
        player_name: Option<felt252>,
        settings_id: Option<u32>,
        start: Option<u64>,
        end: Option<u64>,
        objective_id: Option<u32>,
        context: Option<GameContextDetails>,
        client_url: Option<ByteArray>,
        renderer_address: Option<ContractAddress>,
        skills_address: Option<ContractAddress>,
        to: ContractAddress,
        soulbound: bool,
        paymaster: bool,
        salt: u16,
        metadata: u16
    ) -> felt252 {
        let settings = unwrap_or_zero_u32(settings_id);
        assert(
            IGameSettingsDispatcher { contract_address: self.game.read() }.settings_exist(settings),
            'Settings not found'
        );
        let has_context = match context {
            Option::Some(_) => true,
            Option::None => false,
        };
        IPracticeDenshokanDispatcher { contract_address: self.denshokan.read() }
            .mint(
                get_caller_address(),
                to,
                settings,
                unwrap_or_zero_u64(start),
                unwrap_or_zero_u64(end),
                unwrap_or_zero_u32(objective_id),
                soulbound,
                paymaster,
                has_context,
                salt,
                metadata
            )
    }

    // The score is the adventurer's xp.
    #[external(v0)]
    fn score(self: @ContractState, token_id: felt252) -> u32 {
        let (_, xp) = IGameCoreHeadDispatcher { contract_address: self.game.read() }
            .load_assets(token_id);
        xp.into()
    }

    // Over once the adventurer's health is 0 (a token never started counts as over).
    #[external(v0)]
    fn game_over(self: @ContractState, token_id: felt252) -> bool {
        let (health, _) = IGameCoreHeadDispatcher { contract_address: self.game.read() }
            .load_assets(token_id);
        health == 0
    }

    #[external(v0)]
    fn token_address(self: @ContractState) -> ContractAddress {
        self.denshokan.read()
    }

    #[external(v0)]
    fn game_address(self: @ContractState) -> ContractAddress {
        self.game.read()
    }

    fn unwrap_or_zero_u32(value: Option<u32>) -> u32 {
        match value {
            Option::Some(v) => v,
            Option::None => 0,
        }
    }

    fn unwrap_or_zero_u64(value: Option<u64>) -> u64 {
        match value {
            Option::Some(v) => v,
            Option::None => 0,
        }
    }
}
