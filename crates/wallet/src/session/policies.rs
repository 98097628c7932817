//! The (contract, entrypoint) pairs a session may call, in the order the Cartridge keychain puts
//! them before building the merkle tree, with one leaf and one proof per pair.
//!
//! The keychain (cartridge-gg/controller, `toWasmPolicies` in `packages/controller/src/utils.ts`
//! and its keychain counterpart) sorts contracts by their lower-cased address string and each
//! contract's methods by entrypoint name, both with JavaScript's `localeCompare`. Addresses are
//! compared here in the form this server sends them in an approval request: lower-case hex padded
//! to 64 digits. A root computed from another order is a different session, which the account
//! would report as not registered.

use std::cmp::Ordering;

use starknet::core::types::Felt;
use starknet::core::utils::{get_selector_from_name, starknet_keccak};
use starknet_crypto::poseidon_hash_many;

use super::SessionError;
use super::merkle;

/// The SNIP-12 revision 1 type string of a policy leaf (controller-cairo
/// `src/session/interface.cairo`, controller-rs `account_sdk/src/account/session/policy.rs`).
pub const ALLOWED_METHOD_TYPE: &str =
    "\"Allowed Method\"(\"Contract Address\":\"ContractAddress\",\"selector\":\"selector\")";

/// One allowed call target: a contract and one of its entrypoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// The contract address.
    pub contract: Felt,
    /// The entrypoint name (a Cairo identifier).
    pub entrypoint: String,
    /// `starknet_keccak(entrypoint)`.
    pub selector: Felt,
}

impl Policy {
    /// The merkle leaf: `poseidon(type_hash, contract, selector)`.
    pub fn leaf(&self) -> Felt {
        poseidon_hash_many(&[
            starknet_keccak(ALLOWED_METHOD_TYPE.as_bytes()),
            self.contract,
            self.selector,
        ])
    }

    /// The address as the keychain request carries it, used for sorting.
    pub fn contract_hex(&self) -> String {
        format!("{:#066x}", self.contract)
    }
}

/// The session's policies in keychain order, with the merkle root over their leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionPolicies {
    policies: Vec<Policy>,
    leaves: Vec<Felt>,
    root: Felt,
}

impl SessionPolicies {
    /// Sorts and deduplicates the pairs. Refuses an empty set and names that are not Cairo
    /// identifiers (their selector and sort position would be meaningless).
    pub fn new<'a>(pairs: impl IntoIterator<Item = (Felt, &'a str)>) -> Result<Self, SessionError> {
        let mut policies = Vec::new();
        for (contract, entrypoint) in pairs {
            if !is_identifier(entrypoint) {
                return Err(SessionError::InvalidEntrypoint(entrypoint.to_owned()));
            }
            let selector = get_selector_from_name(entrypoint)
                .map_err(|_| SessionError::InvalidEntrypoint(entrypoint.to_owned()))?;
            policies.push(Policy {
                contract,
                entrypoint: entrypoint.to_owned(),
                selector,
            });
        }
        if policies.is_empty() {
            return Err(SessionError::NoPolicies);
        }
        policies.sort_by(|a, b| {
            a.contract_hex()
                .cmp(&b.contract_hex())
                .then_with(|| locale_compare(&a.entrypoint, &b.entrypoint))
        });
        policies.dedup();
        let leaves: Vec<Felt> = policies.iter().map(Policy::leaf).collect();
        let root = merkle::root(&leaves);
        Ok(Self {
            policies,
            leaves,
            root,
        })
    }

    /// The policies in leaf order.
    pub fn policies(&self) -> &[Policy] {
        &self.policies
    }

    /// The merkle root (`allowed_policies_root` of the session).
    pub fn root(&self) -> Felt {
        self.root
    }

    /// The proof for a call to `selector` on `contract`, or `None` when no policy allows it.
    pub fn proof(&self, contract: Felt, selector: Felt) -> Option<Vec<Felt>> {
        let index = self
            .policies
            .iter()
            .position(|p| p.contract == contract && p.selector == selector)?;
        Some(merkle::proof(&self.leaves, index))
    }

    /// Whether `proof` shows that `leaf` belongs to this tree.
    pub fn verify(&self, leaf: Felt, proof: &[Felt]) -> bool {
        merkle::verify(self.root, leaf, proof)
    }
}

/// Whether `name` is a Cairo identifier (`[A-Za-z_][A-Za-z0-9_]*`).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// JavaScript's default `localeCompare` (ICU root collation) restricted to Cairo identifiers:
/// case-insensitively `_` before digits before letters, a prefix before its extensions, and only
/// then lower case before upper case at the first difference.
pub(crate) fn locale_compare(a: &str, b: &str) -> Ordering {
    fn primary(c: u8) -> (u8, u8) {
        match c {
            b'0'..=b'9' => (1, c),
            c if c.is_ascii_alphabetic() => (2, c.to_ascii_lowercase()),
            _ => (0, c),
        }
    }
    let by_letter = a.bytes().map(primary).cmp(b.bytes().map(primary));
    by_letter.then_with(|| {
        let upper = |c: u8| c.is_ascii_uppercase();
        a.bytes().map(upper).cmp(b.bytes().map(upper))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_order_matches_node() {
        // `[...].sort((x, y) => x.localeCompare(y))` on Node 20 (ICU, en-US).
        let node = [
            "_a", "a", "a_", "a_1", "a_b", "a1", "a9z", "ab", "aB", "Ab", "AB", "b", "get_",
            "get_x", "getx",
        ];
        let mut ours = node.to_vec();
        ours.reverse();
        ours.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(ours, node);
    }

    #[test]
    fn contracts_then_entrypoints_are_sorted() {
        let (game, vrf) = (Felt::from(0x23f), Felt::from(0x51f));
        let set = SessionPolicies::new([
            (vrf, "request_random"),
            (game, "flee"),
            (game, "attack"),
            (game, "explore"),
            (game, "attack"),
        ])
        .unwrap();
        let order: Vec<(Felt, &str)> = set
            .policies()
            .iter()
            .map(|p| (p.contract, p.entrypoint.as_str()))
            .collect();
        assert_eq!(
            order,
            [
                (game, "attack"),
                (game, "explore"),
                (game, "flee"),
                (vrf, "request_random")
            ]
        );
    }

    #[test]
    fn address_order_is_by_padded_hex_not_by_unpadded_text() {
        // Unpadded, "0x9" would sort after "0x10"; padded (and numerically) it comes first.
        let set = SessionPolicies::new([(Felt::from(0x10), "a"), (Felt::from(0x9), "a")]).unwrap();
        assert_eq!(set.policies()[0].contract, Felt::from(0x9));
    }

    #[test]
    fn every_policy_has_a_proof_that_verifies() {
        let set = SessionPolicies::new(["a", "b", "c", "d", "e"].map(|name| (Felt::from(7), name)))
            .unwrap();
        for p in set.policies() {
            let proof = set.proof(p.contract, p.selector).unwrap();
            assert!(set.verify(p.leaf(), &proof), "{}", p.entrypoint);
        }
        assert!(
            set.proof(Felt::from(8), set.policies()[0].selector)
                .is_none()
        );
    }

    #[test]
    fn bad_sets_are_refused() {
        assert!(matches!(
            SessionPolicies::new(std::iter::empty()),
            Err(SessionError::NoPolicies)
        ));
        assert!(matches!(
            SessionPolicies::new([(Felt::ONE, "not-an-identifier")]),
            Err(SessionError::InvalidEntrypoint(name)) if name == "not-an-identifier"
        ));
    }
}
