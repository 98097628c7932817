// Practice VRF provider — a Cairo 2.1 stand-in for Cartridge's VRF provider on a local devnet, with
// its interface (`request_random`, `consume_random`) and seed arithmetic (cartridge-gg/vrf
// `src/vrf_provider/vrf_provider_component.cairo` @ 65d6ff05, `get_seed`):
//   Salt(s)  -> poseidon([s, caller, chain_id])
//   Nonce(a) -> poseidon([nonce[a], a, caller, chain_id]), then nonce[a] += 1
// where caller is the consuming contract.
//
// SIMPLIFICATIONS compared with Cartridge's provider:
//   * No VRF proof: `consume_random` returns the seed itself, not poseidon([vrf(seed), consume_count]).
//   * Instead of checking a `submit_random` made earlier in the transaction, `consume_random` checks
//     that this transaction called `request_random(caller, source)` first with this consumer and
//     exactly this source ('VrfProvider: not requested'), and spends that request. Every consume
//     therefore needs its own request, and the nonce advances on every consume.
//   * No zero answer during fee estimation.
// Composed by scripts/build-contracts.sh with contracts/shared/prelude.cairo (the `Source` enum).

#[starknet::contract]
mod practice_vrf {
    use array::ArrayTrait;
    use traits::Into;
    use box::BoxTrait;
    use poseidon::poseidon_hash_span;
    use starknet::{ContractAddress, get_caller_address, get_tx_info};

    use super::Source;

    #[storage]
    struct Storage {
        // account -> nonce
        nonces: LegacyMap<ContractAddress, felt252>,
        // request_key(consumer, source) -> hash of the transaction that requested it
        requests: LegacyMap<felt252, felt252>,
    }

    // Marks randomness for `caller` (the consuming contract) and `source` as requested by this
    // transaction.
    #[external(v0)]
    fn request_random(ref self: ContractState, caller: ContractAddress, source: Source) {
        let tx_hash = get_tx_info().unbox().transaction_hash;
        self.requests.write(request_key(caller, source), tx_hash);
    }

    // The random value for the calling contract and `source`; reverts unless requested first in
    // this transaction.
    #[external(v0)]
    fn consume_random(ref self: ContractState, source: Source) -> felt252 {
        let caller = get_caller_address();
        let tx_info = get_tx_info().unbox();
        let key = request_key(caller, source);
        assert(self.requests.read(key) == tx_info.transaction_hash, 'VrfProvider: not requested');
        self.requests.write(key, 0);
        let mut input = ArrayTrait::new();
        match source {
            Source::Nonce(account) => {
                let nonce = self.nonces.read(account);
                self.nonces.write(account, nonce + 1);
                input.append(nonce);
                input.append(account.into());
            },
            Source::Salt(salt) => {
                input.append(salt);
            },
        };
        input.append(caller.into());
        input.append(tx_info.chain_id);
        poseidon_hash_span(input.span())
    }

    // The next nonce of `account` (what the next `Nonce(account)` seed will use).
    #[external(v0)]
    fn get_nonce(self: @ContractState, account: ContractAddress) -> felt252 {
        self.nonces.read(account)
    }

    fn request_key(consumer: ContractAddress, source: Source) -> felt252 {
        let mut input = ArrayTrait::new();
        input.append(consumer.into());
        match source {
            Source::Nonce(account) => {
                input.append(0);
                input.append(account.into());
            },
            Source::Salt(salt) => {
                input.append(1);
                input.append(salt);
            },
        };
        poseidon_hash_span(input.span())
    }
}
