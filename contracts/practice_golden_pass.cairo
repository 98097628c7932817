// Practice golden pass — a minimal ERC721 that stands in for the Golden Token on a local devnet. The
// official ticket booth only asks a golden pass contract for `owner_of(token_id: u256)` (the caller must
// own the pass), so that, `balance_of` and a mint are all this contract offers.
//
// SIMPLIFICATIONS: `mint` is open to anyone (practice wallets and tests need passes) and passes cannot be
// transferred (no transfer, approval or metadata entrypoints).

use starknet::ContractAddress;

#[starknet::contract]
mod practice_golden_pass {
    use traits::Into;
    use zeroable::Zeroable;
    use starknet::ContractAddress;

    #[storage]
    struct Storage {
        minted: u128,
        owners: LegacyMap<u128, ContractAddress>,
        balances: LegacyMap<ContractAddress, u256>,
    }

    #[event]
    #[derive(Drop, starknet::Event)]
    enum Event {
        Transfer: Transfer,
    }

    // ERC721 Transfer: keys [selector, from, to, token_id.low, token_id.high].
    #[derive(Drop, starknet::Event)]
    struct Transfer {
        #[key]
        from: ContractAddress,
        #[key]
        to: ContractAddress,
        #[key]
        token_id: u256,
    }

    #[external(v0)]
    fn name(self: @ContractState) -> felt252 {
        'Practice Golden Pass'
    }

    #[external(v0)]
    fn symbol(self: @ContractState) -> felt252 {
        'GOLDEN'
    }

    #[external(v0)]
    fn balance_of(self: @ContractState, account: ContractAddress) -> u256 {
        self.balances.read(account)
    }

    #[external(v0)]
    fn owner_of(self: @ContractState, token_id: u256) -> ContractAddress {
        assert(token_id.high == 0, 'ERC721: invalid token ID');
        let owner = self.owners.read(token_id.low);
        assert(!owner.is_zero(), 'ERC721: invalid token ID');
        owner
    }

    // Practice mint: anyone may mint a pass to anyone; ids start at 1. Returns the new id.
    #[external(v0)]
    fn mint(ref self: ContractState, to: ContractAddress) -> u256 {
        assert(!to.is_zero(), 'ERC721: mint to 0');
        let id = self.minted.read() + 1;
        self.minted.write(id);
        self.owners.write(id, to);
        self.balances.write(to, self.balances.read(to) + 1);
        let token_id: u256 = id.into();
        self.emit(Event::Transfer(Transfer { from: Zeroable::zero(), to, token_id }));
        token_id
    }
}
