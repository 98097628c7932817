// Practice randomness subsystem (v2) — a Cairo 2.1 contract that consumes the VRF on GameCore's
// behalf, as mainnet's GameCore may leave it to one of its subsystem contracts (Provable-Games
// game-components `docs/denshokan-lite-migration.md` names five: combat, exploration, market,
// inventory, stat upgrades). Cartridge's provider binds a seed to the contract that calls
// `consume_random` (cartridge-gg/vrf `src/vrf_provider/vrf_provider_component.cairo` @ 65d6ff05,
// `get_seed`), so a deployment that uses this subsystem needs `request_random(caller = this
// contract, …)`: the `check` that reads a deployment's rule must find which contract that is.
// Only its GameCore may draw. Composed by scripts/build-contracts.sh with
// contracts/shared/prelude.cairo (the `Source` enum).

#[starknet::interface]
trait IVrfConsumer<T> {
    fn consume_random(ref self: T, source: Source) -> felt252;
}

#[starknet::contract]
mod practice_v2_randomness {
    use starknet::{ContractAddress, get_caller_address};

    use super::{Source, IVrfConsumerDispatcher, IVrfConsumerDispatcherTrait};

    #[storage]
    struct Storage {
        game: ContractAddress,
        vrf: ContractAddress,
    }

    #[constructor]
    fn constructor(ref self: ContractState, game: ContractAddress, vrf: ContractAddress) {
        self.game.write(game);
        self.vrf.write(vrf);
    }

    // The provider's random value for `source`, consumed by this contract; only GameCore may ask.
    #[external(v0)]
    fn draw(ref self: ContractState, source: Source) -> felt252 {
        assert(get_caller_address() == self.game.read(), 'Only the game');
        IVrfConsumerDispatcher { contract_address: self.vrf.read() }.consume_random(source)
    }

    // The GameCore this subsystem serves.
    #[external(v0)]
    fn game_address(self: @ContractState) -> ContractAddress {
        self.game.read()
    }
}
