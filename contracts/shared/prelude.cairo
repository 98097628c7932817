// The first fragment of every composed practice contract (scripts/build-contracts.sh): the
// top-level imports, and the ABI types more than one contract shares.

use array::{ArrayTrait, SpanTrait};
use option::OptionTrait;
use serde::Serde;
use traits::{Into, TryInto};
use poseidon::poseidon_hash_span;
use integer::u16_sqrt;
use starknet::{ContractAddress, SyscallResultTrait};

// Cairo 2.1 has no core ByteArray; this struct has the same Serde layout
// ([n_full_words, words…, pending_word, pending_word_len]).
#[derive(Drop, Serde)]
struct ByteArray {
    data: Array<felt252>,
    pending_word: felt252,
    pending_word_len: u32,
}

#[derive(Drop, Serde)]
struct GameContext {
    name: ByteArray,
    value: ByteArray,
}

#[derive(Drop, Serde)]
struct GameContextDetails {
    name: ByteArray,
    description: ByteArray,
    id: Option<u32>,
    context: Span<GameContext>,
}

// The VRF randomness source, as Cartridge's provider takes it (cartridge-gg/vrf `src/types.cairo`
// @ 65d6ff05): variant 0 `Nonce(account)`, variant 1 `Salt(salt)`.
#[derive(Copy, Drop, Serde)]
enum Source {
    Nonce: ContractAddress,
    Salt: felt252,
}
