// Practice dungeon — stands in for the Beast Mode dungeon (the "ticket booth" that sells Loot Survivor
// games) on a local devnet, with the same external interface for the entrypoints the MCP server calls,
// and mints through the practice world's `mint_game` so the new adventurer id is read from the receipt
// exactly as on mainnet (the game token's 14-felt metadata event, id at data[1]).
//
// Interface facts, from the public sources (read, not copied):
//   * `buy_game(payment_type: PaymentType, player_name: Option<felt252>, to: ContractAddress,
//     soulbound: bool)`, with `PaymentType { Ticket, GoldenPass: GoldenPassInfo { address, token_id:
//     u128 } }`: Provable-Games/game-components, packages/metagame/src/ticket_booth/
//     ticket_booth_component.cairo @67b787ed and ticket_booth/structs.cairo @d9e1342e. Ticket payment
//     is a `transfer_from(caller, receiver, cost_to_play)` on the payment token (a burn when no receiver
//     is set); golden-pass payment checks the pass is configured, `owner_of(token_id) == caller` on the
//     pass contract and a per-pass cooldown, then records the use.
//   * The official client sends `approve(dungeon, 10^18)` on the ticket, then `buy_game` with payment
//     `[0]` (ticket) or `[1, pass address, pass id]`, `Some(name)`, its own address and `false`, and reads
//     the id from the receipt event with 14 data felts: Provable-Games/death-mountain,
//     client/src/dojo/useSystemCalls.ts (`buyGame`) @001dbd13.
//   * `claim_free_game(to: ContractAddress, player_name: Option<felt252>) -> u64`, callable only by the
//     dungeon's free-games claimer ('Not Allowed') during the opening campaign:
//     Provable-Games/loot-survivor-beast-mode, src/lib.cairo @5832693 (a544c40 "beast mode release").
//   * Mainnet configuration: one game costs one ticket (10^18), the Golden Token is a pass with a 7-day
//     cooldown: loot-survivor-beast-mode, scripts/deploy_mainnet.sh @5832693.
//
// SIMPLIFICATIONS compared with the deployed dungeon:
//   * One golden pass contract (set at deploy) with a cooldown and no pass or game expiry; no opening
//     time, no closing, no owner, no settings other than the practice world's default (id 0).
//   * Tickets go to `ticket_receiver_address`, or to the dungeon itself when it is zero (the real booth
//     burns them).
//   * With a zero `free_games_claimer_address` anyone may claim free games, without a campaign window or
//     a cap (the deployed dungeon lets only its claimer contract call it, for 14 days).
//   * No beast claims, rewards or jackpots.

use starknet::ContractAddress;

#[derive(Copy, Drop, Serde)]
struct GoldenPassInfo {
    address: ContractAddress,
    token_id: u128,
}

#[derive(Copy, Drop, Serde)]
enum PaymentType {
    Ticket: (),
    GoldenPass: GoldenPassInfo,
}

#[starknet::interface]
trait ITicket<T> {
    fn transfer_from(
        ref self: T, sender: ContractAddress, recipient: ContractAddress, amount: u256
    ) -> bool;
}

#[starknet::interface]
trait IGoldenPass<T> {
    fn owner_of(self: @T, token_id: u256) -> ContractAddress;
}

#[starknet::contract]
mod practice_dungeon {
    use array::{ArrayTrait, SpanTrait};
    use option::OptionTrait;
    use serde::Serde;
    use traits::{Into, TryInto};
    use zeroable::Zeroable;
    use starknet::{
        ContractAddress, get_caller_address, get_contract_address, get_block_timestamp
    };
    use super::{
        PaymentType, GoldenPassInfo, ITicketDispatcher, ITicketDispatcherTrait, IGoldenPassDispatcher,
        IGoldenPassDispatcherTrait
    };

    // starknet_keccak("mint_game") of the practice world's game_token_systems interface.
    const MINT_GAME_SELECTOR: felt252 =
        0x59587bef6abb63a9e69f5b32eb020408dbbd324fcb676d6c6a2214ed6a349f;

    #[storage]
    struct Storage {
        game_token: ContractAddress,
        ticket_token: ContractAddress,
        cost: u128,
        ticket_receiver: ContractAddress,
        pass_contract: ContractAddress,
        pass_cooldown: u64,
        pass_last_used: LegacyMap<(ContractAddress, u128), u64>,
        free_claimer: ContractAddress,
        free_claimed: u32,
    }

    #[event]
    #[derive(Drop, starknet::Event)]
    enum Event {
        GameBought: GameBought,
    }

    #[derive(Drop, starknet::Event)]
    struct GameBought {
        #[key]
        player: ContractAddress,
        token_id: u64,
        payment_type: PaymentType,
    }

    #[constructor]
    fn constructor(
        ref self: ContractState,
        game_token_address: ContractAddress,
        payment_token: ContractAddress,
        cost_to_play: u128,
        ticket_receiver_address: ContractAddress,
        golden_pass_address: ContractAddress,
        golden_pass_cooldown: u64,
        free_games_claimer_address: ContractAddress
    ) {
        assert(!game_token_address.is_zero(), 'Game address cannot be zero');
        assert(cost_to_play > 0, 'Cost to play must be positive');
        assert(golden_pass_cooldown > 0, 'Cooldown must be positive');
        self.game_token.write(game_token_address);
        self.ticket_token.write(payment_token);
        self.cost.write(cost_to_play);
        self.ticket_receiver.write(ticket_receiver_address);
        self.pass_contract.write(golden_pass_address);
        self.pass_cooldown.write(golden_pass_cooldown);
        self.free_claimer.write(free_games_claimer_address);
    }

    #[external(v0)]
    fn buy_game(
        ref self: ContractState,
        payment_type: PaymentType,
        player_name: Option<felt252>,
        to: ContractAddress,
        soulbound: bool
    ) -> u64 {
        let caller = get_caller_address();
        match payment_type {
            PaymentType::Ticket(()) => self.take_ticket(caller),
            PaymentType::GoldenPass(pass) => self.use_golden_pass(caller, pass),
        }
        let token_id = self.mint(player_name, to, soulbound);
        self.emit(Event::GameBought(GameBought { player: to, token_id, payment_type }));
        token_id
    }

    #[external(v0)]
    fn claim_free_game(
        ref self: ContractState, to: ContractAddress, player_name: Option<felt252>
    ) -> u64 {
        let claimer = self.free_claimer.read();
        assert(claimer.is_zero() || get_caller_address() == claimer, 'Not Allowed');
        self.free_claimed.write(self.free_claimed.read() + 1);
        self.mint(player_name, to, false)
    }

    #[external(v0)]
    fn payment_token(self: @ContractState) -> ContractAddress {
        self.ticket_token.read()
    }

    #[external(v0)]
    fn cost_to_play(self: @ContractState) -> u128 {
        self.cost.read()
    }

    #[external(v0)]
    fn ticket_receiver_address(self: @ContractState) -> ContractAddress {
        self.ticket_receiver.read()
    }

    #[external(v0)]
    fn golden_pass_last_used(
        self: @ContractState, golden_pass_address: ContractAddress, token_id: u128
    ) -> u64 {
        self.pass_last_used.read((golden_pass_address, token_id))
    }

    #[external(v0)]
    fn get_game_token_address(self: @ContractState) -> ContractAddress {
        self.game_token.read()
    }

    #[external(v0)]
    fn get_free_games_claimer_address(self: @ContractState) -> ContractAddress {
        self.free_claimer.read()
    }

    #[external(v0)]
    fn get_free_games_claimed(self: @ContractState) -> u32 {
        self.free_claimed.read()
    }

    #[generate_trait]
    impl InternalImpl of InternalTrait {
        // One ticket (cost_to_play) moves from the buyer to the receiver; needs the buyer's approve.
        fn take_ticket(ref self: ContractState, caller: ContractAddress) {
            let token = self.ticket_token.read();
            assert(!token.is_zero(), 'Payment token cannot be zero');
            let mut receiver = self.ticket_receiver.read();
            if receiver.is_zero() {
                receiver = get_contract_address();
            }
            let paid = ITicketDispatcher { contract_address: token }
                .transfer_from(caller, receiver, self.cost.read().into());
            assert(paid, 'Ticket payment failed');
        }

        fn use_golden_pass(ref self: ContractState, caller: ContractAddress, pass: GoldenPassInfo) {
            assert(pass.address == self.pass_contract.read(), 'Golden pass not configured');
            let owner = IGoldenPassDispatcher { contract_address: pass.address }
                .owner_of(pass.token_id.into());
            assert(owner == caller, 'Not owner of golden pass');
            let now = get_block_timestamp();
            let last_used = self.pass_last_used.read((pass.address, pass.token_id));
            if last_used != 0 {
                assert(now >= last_used + self.pass_cooldown.read(), 'Golden pass on cooldown');
            }
            self.pass_last_used.write((pass.address, pass.token_id), now);
        }

        // mint_game(Some(name) | None, Some(0), None x6, to, soulbound) on the practice world.
        fn mint(
            ref self: ContractState, player_name: Option<felt252>, to: ContractAddress, soulbound: bool
        ) -> u64 {
            let mut calldata = ArrayTrait::new();
            player_name.serialize(ref calldata);
            let settings_id: Option<u32> = Option::Some(0);
            settings_id.serialize(ref calldata);
            let mut nones = 0;
            loop {
                if nones == 6 {
                    break;
                }
                calldata.append(1);
                nones += 1;
            };
            to.serialize(ref calldata);
            soulbound.serialize(ref calldata);
            let mut result = starknet::call_contract_syscall(
                self.game_token.read(), MINT_GAME_SELECTOR, calldata.span()
            )
                .unwrap_syscall();
            let token_id: u64 = (*result.pop_front().unwrap()).try_into().unwrap();
            token_id
        }
    }
}
