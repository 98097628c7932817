//! Typed bindings generated at build time from the practice world's Dojo manifest
//! (`abi/practice_world.json`, see `crates/chain/build.rs`): selectors, calldata builders and output decoders
//! for every entrypoint the server calls. Its interface matches the official `ls_0_0_9` world
//! (checked against the mainnet manifest by `tests/interface.rs`).

#![allow(clippy::too_many_arguments, clippy::ptr_arg)]

/// One entrypoint the server may call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entrypoint {
    /// Dojo tag suffix of the contract (`game_systems`, …).
    pub tag_suffix: &'static str,
    /// Contract type name.
    pub contract: &'static str,
    /// Function name.
    pub name: &'static str,
    /// `starknet_keccak` of the name.
    pub selector: starknet::core::types::Felt,
    /// Whether the ABI declares it as a view.
    pub view: bool,
    /// Whether it belongs to the official `ls_0_0_9` systems (false: the token's ERC721 interface).
    pub official: bool,
}

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));

/// The name of an entrypoint the server may call (the bindings' and the VRF provider's
/// `request_random`), for messages and session policies; `None`: not one of ours.
pub fn entrypoint_name(selector: starknet::core::types::Felt) -> Option<&'static str> {
    if selector == wallet::REQUEST_RANDOM_SELECTOR {
        return Some("request_random");
    }
    ENTRYPOINTS
        .iter()
        .find(|e| e.selector == selector)
        .map(|e| e.name)
}
