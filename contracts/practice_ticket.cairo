// Practice dungeon ticket — a minimal ERC20 (18 decimals, one ticket = 10^18) that stands in for the Beast
// Mode "dungeon ticket" on a local devnet. The practice dungeon (practice_dungeon.cairo) takes one ticket
// from the buyer with `transfer_from`, after the buyer's `approve`, as the official ticket booth does.
//
// Entrypoint names and argument types follow the standard Starknet ERC20 interface (snake_case,
// u256 amounts). SIMPLIFICATION: `mint` is open to anyone (a faucet), so tests and practice wallets can
// hold tickets; the real ticket is only obtained by swapping for it.

use starknet::ContractAddress;

#[starknet::contract]
mod practice_ticket {
    use traits::Into;
    use zeroable::Zeroable;
    use starknet::{ContractAddress, get_caller_address};

    #[storage]
    struct Storage {
        supply: u256,
        balances: LegacyMap<ContractAddress, u256>,
        allowances: LegacyMap<(ContractAddress, ContractAddress), u256>,
    }

    #[event]
    #[derive(Drop, starknet::Event)]
    enum Event {
        Transfer: Transfer,
        Approval: Approval,
    }

    #[derive(Drop, starknet::Event)]
    struct Transfer {
        #[key]
        from: ContractAddress,
        #[key]
        to: ContractAddress,
        value: u256,
    }

    #[derive(Drop, starknet::Event)]
    struct Approval {
        #[key]
        owner: ContractAddress,
        #[key]
        spender: ContractAddress,
        value: u256,
    }

    #[external(v0)]
    fn name(self: @ContractState) -> felt252 {
        'Practice Dungeon Ticket'
    }

    #[external(v0)]
    fn symbol(self: @ContractState) -> felt252 {
        'TICKET'
    }

    #[external(v0)]
    fn decimals(self: @ContractState) -> u8 {
        18
    }

    #[external(v0)]
    fn total_supply(self: @ContractState) -> u256 {
        self.supply.read()
    }

    #[external(v0)]
    fn balance_of(self: @ContractState, account: ContractAddress) -> u256 {
        self.balances.read(account)
    }

    #[external(v0)]
    fn allowance(self: @ContractState, owner: ContractAddress, spender: ContractAddress) -> u256 {
        self.allowances.read((owner, spender))
    }

    #[external(v0)]
    fn approve(ref self: ContractState, spender: ContractAddress, amount: u256) -> bool {
        let owner = get_caller_address();
        assert(!spender.is_zero(), 'ERC20: approve to 0');
        self.allowances.write((owner, spender), amount);
        self.emit(Event::Approval(Approval { owner, spender, value: amount }));
        true
    }

    #[external(v0)]
    fn transfer(ref self: ContractState, recipient: ContractAddress, amount: u256) -> bool {
        let sender = get_caller_address();
        self.move_tokens(sender, recipient, amount);
        true
    }

    #[external(v0)]
    fn transfer_from(
        ref self: ContractState, sender: ContractAddress, recipient: ContractAddress, amount: u256
    ) -> bool {
        let spender = get_caller_address();
        let allowed = self.allowances.read((sender, spender));
        assert(allowed >= amount, 'ERC20: insufficient allowance');
        self.allowances.write((sender, spender), allowed - amount);
        self.move_tokens(sender, recipient, amount);
        true
    }

    // Practice faucet: anyone may mint tickets to anyone.
    #[external(v0)]
    fn mint(ref self: ContractState, recipient: ContractAddress, amount: u256) -> bool {
        assert(!recipient.is_zero(), 'ERC20: mint to 0');
        self.supply.write(self.supply.read() + amount);
        self.balances.write(recipient, self.balances.read(recipient) + amount);
        self.emit(Event::Transfer(Transfer { from: Zeroable::zero(), to: recipient, value: amount }));
        true
    }

    #[generate_trait]
    impl InternalImpl of InternalTrait {
        fn move_tokens(
            ref self: ContractState, sender: ContractAddress, recipient: ContractAddress, amount: u256
        ) {
            assert(!recipient.is_zero(), 'ERC20: transfer to 0');
            let balance = self.balances.read(sender);
            assert(balance >= amount, 'ERC20: insufficient balance');
            self.balances.write(sender, balance - amount);
            self.balances.write(recipient, self.balances.read(recipient) + amount);
            self.emit(Event::Transfer(Transfer { from: sender, to: recipient, value: amount }));
        }
    }
}
