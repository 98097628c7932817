// Practice Denshokan — a Cairo 2.1 stand-in for Denshokan, the shared ERC721 whose packed felt252
// token id is the adventurer id, on a local devnet. The id packs, as Provable-Games/denshokan-sdk
// `src/utils/token-id.ts` @ dc363150 decodes it (251 bits; low u128 then high u128):
//   game_id 0-29 | minted_by 30-69 | settings_id 70-99 | start_delay 100-124 | soulbound 125 |
//   has_context 126 | paymaster 127 || minted_at 128-162 | end_delay 163-187 | objective_id 188-217 |
//   tx_hash 218-227 | salt 228-237 | metadata 238-250
// A game contract registers itself once (`register_game`, game ids from 1) and mints through `mint`;
// `minted_by` is the registry id of the address that asked the game for the token (from 1), and
// `tx_hash` the low 10 bits of the minting transaction's hash. Each mint emits the ERC721 `Transfer`
// from zero (OpenZeppelin layout: keys [selector, from, to, id.low, id.high]) and the ERC-4906
// `MetadataUpdate`.
//
// SIMPLIFICATIONS compared with Denshokan: no transfers, approvals, token URI, lifecycle or
// objectives; start_delay is `start - now` and end_delay `end - max(start, now)` when in the future,
// else 0, so the game's end is the mint time plus both delays.

#[starknet::contract]
mod practice_denshokan {
    use traits::{Into, TryInto};
    use option::OptionTrait;
    use box::BoxTrait;
    use zeroable::Zeroable;
    use starknet::{ContractAddress, get_caller_address, get_block_timestamp, get_tx_info};

    const TWO_POW_10: u128 = 0x400;
    const TWO_POW_13: u128 = 0x2000;
    const TWO_POW_25: u128 = 0x2000000;
    const TWO_POW_30: u128 = 0x40000000;
    const TWO_POW_35: u128 = 0x800000000;
    const TWO_POW_40: u128 = 0x10000000000;
    const TWO_POW_60: u128 = 0x1000000000000000;
    const TWO_POW_70: u128 = 0x400000000000000000;
    const TWO_POW_90: u128 = 0x40000000000000000000000;
    const TWO_POW_100: u128 = 0x10000000000000000000000000;
    const TWO_POW_110: u128 = 0x4000000000000000000000000000;
    const TWO_POW_125: u128 = 0x200000000000000000000000000000;
    const TWO_POW_126: u128 = 0x400000000000000000000000000000;
    const TWO_POW_127: u128 = 0x800000000000000000000000000000;
    const TWO_POW_128: felt252 = 0x100000000000000000000000000000000;

    #[storage]
    struct Storage {
        game_count: u128,
        game_ids: LegacyMap<ContractAddress, u128>,
        minter_count: u128,
        minter_ids: LegacyMap<ContractAddress, u128>,
        owners: LegacyMap<felt252, ContractAddress>,
        balances: LegacyMap<ContractAddress, u256>,
    }

    #[event]
    #[derive(Drop, starknet::Event)]
    enum Event {
        Transfer: Transfer,
        MetadataUpdate: MetadataUpdate,
    }

    #[derive(Drop, starknet::Event)]
    struct Transfer {
        #[key]
        from: ContractAddress,
        #[key]
        to: ContractAddress,
        #[key]
        token_id: u256,
    }

    #[derive(Drop, starknet::Event)]
    struct MetadataUpdate {
        token_id: u256,
    }

    // Registers the calling game contract; returns its game id (the first game gets 1).
    #[external(v0)]
    fn register_game(ref self: ContractState) -> u128 {
        let game = get_caller_address();
        let known = self.game_ids.read(game);
        if known != 0 {
            return known;
        }
        let id = self.game_count.read() + 1;
        self.game_count.write(id);
        self.game_ids.write(game, id);
        id
    }

    // Mints the next token of the calling (registered) game to `to`, on behalf of `minter`.
    #[external(v0)]
    fn mint(
        ref self: ContractState,
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
    ) -> felt252 {
        let game_id = self.game_ids.read(get_caller_address());
        assert(game_id != 0, 'Denshokan: game not registered');
        assert(!to.is_zero(), 'ERC721: invalid receiver');
        let now = get_block_timestamp();
        let minted_by = self.minter_id(minter);

        let mut low: u128 = field(game_id, TWO_POW_30, 1, 'game_id overflow');
        low += field(minted_by, TWO_POW_40, TWO_POW_30, 'minted_by overflow');
        low += field(settings_id.into(), TWO_POW_30, TWO_POW_70, 'settings_id overflow');
        low += field(delay(start, now), TWO_POW_25, TWO_POW_100, 'start_delay overflow');
        low += flag(soulbound, TWO_POW_125) + flag(has_context, TWO_POW_126) + flag(paymaster, TWO_POW_127);

        let tx_hash: u256 = get_tx_info().unbox().transaction_hash.into();
        let mut high: u128 = field(now.into(), TWO_POW_35, 1, 'minted_at overflow');
        // The end counts from the start (expiry = mint time + start_delay + end_delay).
        let begins = if start > now {
            start
        } else {
            now
        };
        high += field(delay(end, begins), TWO_POW_25, TWO_POW_35, 'end_delay overflow');
        high += field(objective_id.into(), TWO_POW_30, TWO_POW_60, 'objective_id overflow');
        high += field(tx_hash.low % TWO_POW_10, TWO_POW_10, TWO_POW_90, 'tx_hash overflow');
        high += field(salt.into(), TWO_POW_10, TWO_POW_100, 'salt overflow');
        high += field(metadata.into(), TWO_POW_13, TWO_POW_110, 'metadata overflow');

        let token_id: felt252 = low.into() + high.into() * TWO_POW_128;
        assert(self.owners.read(token_id).is_zero(), 'ERC721: token already minted');
        self.owners.write(token_id, to);
        self.balances.write(to, self.balances.read(to) + 1);
        let id = u256 { low, high };
        self.emit(Event::Transfer(Transfer { from: Zeroable::zero(), to, token_id: id }));
        self.emit(Event::MetadataUpdate(MetadataUpdate { token_id: id }));
        token_id
    }

    #[external(v0)]
    fn owner_of(self: @ContractState, token_id: u256) -> ContractAddress {
        let key: Option<felt252> = token_id.try_into();
        assert(key.is_some(), 'ERC721: invalid token ID');
        let owner = self.owners.read(key.unwrap());
        assert(!owner.is_zero(), 'ERC721: invalid token ID');
        owner
    }

    #[external(v0)]
    fn balance_of(self: @ContractState, account: ContractAddress) -> u256 {
        self.balances.read(account)
    }

    // The registry id of `minter` (the first minter gets 1).
    #[external(v0)]
    fn minter_id_of(self: @ContractState, minter: ContractAddress) -> u128 {
        self.minter_ids.read(minter)
    }

    #[generate_trait]
    impl InternalImpl of InternalTrait {
        fn minter_id(ref self: ContractState, minter: ContractAddress) -> u128 {
            let known = self.minter_ids.read(minter);
            if known != 0 {
                return known;
            }
            let id = self.minter_count.read() + 1;
            self.minter_count.write(id);
            self.minter_ids.write(minter, id);
            id
        }
    }

    // `value` placed at `offset` (a power of two), checked to fit below `limit`.
    fn field(value: u128, limit: u128, offset: u128, error: felt252) -> u128 {
        assert(value < limit, error);
        value * offset
    }

    fn flag(value: bool, offset: u128) -> u128 {
        if value {
            offset
        } else {
            0
        }
    }

    fn delay(at: u64, now: u64) -> u128 {
        if at > now {
            (at - now).into()
        } else {
            0
        }
    }
}
