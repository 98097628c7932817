//! The Poseidon merkle tree the Controller checks session policies against: alexandria's
//! `MerkleTree` with the Poseidon hasher (alexandria `merkle_tree`, used by controller-cairo
//! `src/session/session.cairo`). A pair is hashed smaller value first, as
//! `hades(min, max, 2)[0]`; a level of odd length is padded with a zero leaf.

use starknet::core::types::Felt;
use starknet_crypto::poseidon_hash;

/// The hash of two nodes, independent of their order.
pub(crate) fn hash_pair(a: Felt, b: Felt) -> Felt {
    if a < b {
        poseidon_hash(a, b)
    } else {
        poseidon_hash(b, a)
    }
}

/// The next level up: pairs hashed, an odd level padded with zero.
fn parent_level(level: &[Felt]) -> Vec<Felt> {
    level
        .chunks(2)
        .map(|pair| hash_pair(pair[0], pair.get(1).copied().unwrap_or(Felt::ZERO)))
        .collect()
}

/// The root of a tree over `leaves` (a single leaf is its own root; no leaf gives zero).
pub(crate) fn root(leaves: &[Felt]) -> Felt {
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level = parent_level(&level);
    }
    level.first().copied().unwrap_or(Felt::ZERO)
}

/// The sibling path from leaf `index` to the root, bottom first.
pub(crate) fn proof(leaves: &[Felt], mut index: usize) -> Vec<Felt> {
    let mut level = leaves.to_vec();
    let mut path = Vec::new();
    while level.len() > 1 {
        path.push(level.get(index ^ 1).copied().unwrap_or(Felt::ZERO));
        level = parent_level(&level);
        index /= 2;
    }
    path
}

/// Whether `proof` leads from `leaf` to `root`, as the account checks it.
pub(crate) fn verify(root: Felt, leaf: Felt, proof: &[Felt]) -> bool {
    proof
        .iter()
        .fold(leaf, |node, &sibling| hash_pair(node, sibling))
        == root
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(n: u64) -> Vec<Felt> {
        (1..=n).map(|i| Felt::from(i * 1_000_003)).collect()
    }

    #[test]
    fn every_proof_verifies_for_sizes_one_to_nine() {
        for n in 1..=9 {
            let l = leaves(n);
            let r = root(&l);
            for (i, leaf) in l.iter().enumerate() {
                let p = proof(&l, i);
                assert!(verify(r, *leaf, &p), "n={n} i={i}");
                assert!(!verify(r, *leaf + Felt::ONE, &p), "n={n} i={i}");
            }
        }
    }

    #[test]
    fn odd_levels_are_padded_with_zero() {
        let l = leaves(3);
        let want = hash_pair(hash_pair(l[0], l[1]), hash_pair(l[2], Felt::ZERO));
        assert_eq!(root(&l), want);
        assert_eq!(root(&l[..1]), l[0]);
        assert!(proof(&l[..1], 0).is_empty());
    }

    #[test]
    fn pair_hash_is_sorted() {
        let (a, b) = (Felt::from(5), Felt::from(9));
        assert_eq!(hash_pair(a, b), hash_pair(b, a));
        assert_eq!(hash_pair(a, b), poseidon_hash(a, b));
        assert_ne!(poseidon_hash(a, b), poseidon_hash(b, a));
    }
}
