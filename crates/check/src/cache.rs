//! Deployed classes already read, kept in the data directory by class hash
//! (`<data>/checks/abi-<class hash>.json`): a class hash names its class for good, so a restart
//! asks only `starknet_getClassHashAt` for an address whose class it has compared before.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use starknet::core::types::Felt;

/// What is kept of one class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct CachedClass {
    /// The class hash the file is named after (checked when read).
    pub(crate) class_hash: Felt,
    /// The Sierra ABI; `None` for a legacy (Cairo 0) class, which is not compared.
    pub(crate) abi: Option<Value>,
}

/// The largest kept file read (a larger one is read again from the node).
const MAX_KEPT_BYTES: u64 = 8 << 20;

/// The file a class is kept in.
pub(crate) fn path(dir: &Path, class_hash: Felt) -> PathBuf {
    dir.join(format!("abi-{}.json", class_hash.to_fixed_hex_string()))
}

/// The kept class, when its file is there and names this class hash.
pub(crate) fn load(dir: &Path, class_hash: Felt) -> Option<CachedClass> {
    let text = base::files::read_capped(&path(dir, class_hash), MAX_KEPT_BYTES).ok()?;
    let cached: CachedClass = serde_json::from_str(&text).ok()?;
    (cached.class_hash == class_hash).then_some(cached)
}

/// Keeps a class (best effort: a data directory that cannot be written only costs a refetch).
pub(crate) fn store(dir: &Path, class: &CachedClass) {
    let written = std::fs::create_dir_all(dir).and_then(|()| {
        let bytes = serde_json::to_vec(class).expect("a class serializes");
        base::files::write_atomic(&path(dir, class.class_hash), &bytes)
    });
    if let Err(e) = written {
        tracing::warn!(dir = %dir.display(), error = %e, "cannot keep the compared class");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_is_found_by_its_own_hash_only() {
        let dir = tempfile::tempdir().unwrap();
        let class = CachedClass {
            class_hash: Felt::from(0xabc_u16),
            abi: Some(serde_json::json!([])),
        };
        store(dir.path(), &class);
        assert_eq!(load(dir.path(), Felt::from(0xabc_u16)), Some(class));
        assert_eq!(load(dir.path(), Felt::from(0xabd_u16)), None);
        // A file renamed to another hash is not taken for that class.
        std::fs::rename(
            path(dir.path(), Felt::from(0xabc_u16)),
            path(dir.path(), Felt::from(0xabd_u16)),
        )
        .unwrap();
        assert_eq!(load(dir.path(), Felt::from(0xabd_u16)), None);
    }
}
