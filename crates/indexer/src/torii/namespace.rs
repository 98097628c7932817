//! The Dojo namespace of the game's models and the short form Torii's GraphQL uses in root field
//! names (`ls_0_0_9` → `ls009`, so `ls009AdventurerPackedModels`).

use std::path::Path;

use serde_json::Value;
use starknet_types_core::felt::Felt;

/// The namespace of the official V1 deployment, used when neither the settings nor a manifest
/// name one.
pub const DEFAULT_NAMESPACE: &str = "ls_0_0_9";

/// Whether a namespace is safe to splice into SQL table names and GraphQL field names.
pub fn is_valid(ns: &str) -> bool {
    !ns.is_empty()
        && ns.len() <= 64
        && ns.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !ns.starts_with(|c: char| c.is_ascii_digit())
}

/// Torii's GraphQL prefix for a namespace: camelCase with the underscores removed
/// (`ls_0_0_9` → `ls009`, `relayer_0_0_1` → `relayer001`, `my_game` → `myGame`).
pub fn short_namespace(ns: &str) -> String {
    let mut out = String::with_capacity(ns.len());
    for (i, word) in ns.split('_').filter(|w| !w.is_empty()).enumerate() {
        if i == 0 {
            out.push_str(&word.to_ascii_lowercase());
        } else {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                out.push(first.to_ascii_uppercase());
                out.extend(chars);
            }
        }
    }
    out
}

/// The Dojo selector of a model or event (`<namespace>-<name>`): the Poseidon hash of the
/// Poseidon hashes of the two names serialized as Cairo `ByteArray`s. Torii files
/// `event_messages_historical.model_id` under it (dojoengine/torii v1.8.0,
/// crates/sqlite/sqlite/src/storage.rs `set_event_message`: `compute_selector_from_names`).
/// Hand-rolled because the crate that defines it (dojo-world) is not on crates.io.
pub fn dojo_selector(namespace: &str, name: &str) -> Felt {
    starknet_crypto::poseidon_hash_many(&[bytearray_hash(namespace), bytearray_hash(name)])
}

/// Poseidon hash of a string's Cairo `ByteArray` serialization: the count of full 31-byte words,
/// the words, the pending word and its length in bytes.
fn bytearray_hash(s: &str) -> Felt {
    let bytes = s.as_bytes();
    let chunks: Vec<&[u8]> = bytes.chunks(31).collect();
    let (full, pending): (&[&[u8]], &[u8]) = match chunks.last() {
        Some(last) if last.len() < 31 => (&chunks[..chunks.len() - 1], last),
        _ => (&chunks[..], &[]),
    };
    let mut felts = vec![Felt::from(full.len())];
    felts.extend(full.iter().map(|w| Felt::from_bytes_be_slice(w)));
    felts.push(Felt::from_bytes_be_slice(pending));
    felts.push(Felt::from(pending.len()));
    starknet_crypto::poseidon_hash_many(&felts)
}

/// The game's namespace named by a Dojo manifest: `world.namespace` when present, else the
/// prefix of the `*-game_systems` tag, else of the first contract tag.
pub fn namespace_of(manifest: &Value) -> Option<String> {
    if let Some(ns) = manifest["world"]["namespace"]
        .as_str()
        .filter(|s| is_valid(s))
    {
        return Some(ns.to_string());
    }
    let tags: Vec<&str> = manifest["contracts"]
        .as_array()?
        .iter()
        .filter_map(|c| c["tag"].as_str())
        .collect();
    let prefix = |t: &&str| t.split_once('-').map(|(ns, _)| ns.to_string());
    tags.iter()
        .find(|t| t.ends_with("-game_systems"))
        .and_then(prefix)
        .or_else(|| tags.first().and_then(prefix))
        .filter(|ns| is_valid(ns))
}

/// Reads the namespace from a manifest file.
pub fn namespace_from_manifest(path: &Path) -> Result<Option<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the manifest {}: {e}", path.display()))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| format!("manifest {} is not JSON: {e}", path.display()))?;
    Ok(namespace_of(&v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_names_match_torii() {
        assert_eq!(short_namespace("ls_0_0_9"), "ls009");
        assert_eq!(short_namespace("relayer_0_0_1"), "relayer001");
        assert_eq!(short_namespace("my_game"), "myGame");
        assert_eq!(short_namespace("ls"), "ls");
    }

    #[test]
    fn namespace_comes_from_the_world_or_the_tags() {
        let m = json!({"world": {"namespace": "ls_0_0_9"}, "contracts": []});
        assert_eq!(namespace_of(&m).as_deref(), Some("ls_0_0_9"));
        let m = json!({"world": {"name": "Provable Games"}, "contracts": [
            {"tag": "ls_0_0_6-adventurer_systems"}, {"tag": "ls_0_0_6-game_systems"}]});
        assert_eq!(namespace_of(&m).as_deref(), Some("ls_0_0_6"));
        let m = json!({"world": {}, "contracts": [{"tag": "x y; DROP TABLE-game_systems"}]});
        assert_eq!(namespace_of(&m), None);
        assert_eq!(namespace_of(&json!({})), None);
    }

    #[test]
    fn the_game_event_selector_matches_the_official_manifest() {
        // The official manifest's `ls_0_0_9-GameEvent` selector (docs/game-rules.md#events).
        assert_eq!(
            format!("{:#x}", dojo_selector("ls_0_0_9", "GameEvent")),
            "0x53f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c"
        );
        assert_ne!(
            dojo_selector("ls_0_0_9", "GameEvent"),
            dojo_selector("ls_0_0_9", "AdventurerKilled")
        );
    }

    #[test]
    fn only_identifier_namespaces_are_valid() {
        assert!(is_valid("ls_0_0_9"));
        assert!(!is_valid("ls-0"));
        assert!(!is_valid("a\"b"));
        assert!(!is_valid(""));
        assert!(!is_valid("9ls"));
    }

    #[test]
    fn the_practice_manifest_names_ls_0_0_9() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../abi/practice_world.json");
        assert_eq!(
            namespace_from_manifest(&path).unwrap().as_deref(),
            Some("ls_0_0_9")
        );
    }
}
