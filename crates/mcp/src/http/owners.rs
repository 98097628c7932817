//! Which identity created each adventurer, so that over HTTP an identity acts only on its own
//! games. Kept in the data directory (a small JSON map, written whole on each new game) so
//! ownership survives a restart, and bound to the world it was recorded in (a chain and its
//! deployment, or a sim world's start): after `--fresh` or a devnet restart, adventurer 1 is a new
//! game, and the identity that owned the old one has no claim on it.

use game::AdventurerId;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The largest owners file read.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// Who created one adventurer, and in which world.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Owner {
    identity: String,
    world: String,
}

/// The adventurer → identity map of the served worlds.
#[derive(Debug, Default)]
pub struct Owners {
    path: Option<PathBuf>,
    map: Mutex<HashMap<AdventurerId, Owner>>,
}

impl Owners {
    /// The map kept in `path` (read now when it exists), or in memory only without a path. Records
    /// that name no world (kept before worlds were named) are dropped: no world vouches for them.
    pub fn open(path: Option<PathBuf>) -> std::io::Result<Self> {
        let map = match &path {
            Some(p) if p.exists() => read(p)?,
            _ => HashMap::new(),
        };
        Ok(Self {
            path,
            map: Mutex::new(map),
        })
    }

    /// Where the map is kept, if on disk.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The identity that created `adventurer_id` in `world`, if one did over HTTP.
    pub fn owner_of(&self, adventurer_id: AdventurerId, world: &str) -> Option<String> {
        self.lock()
            .get(&adventurer_id)
            .filter(|o| o.world == world)
            .map(|o| o.identity.clone())
    }

    /// Records that `identity` created `adventurer_id` in `world` (the first record in a world
    /// wins; records of other worlds are dropped) and saves.
    pub fn record(
        &self,
        adventurer_id: AdventurerId,
        identity: &str,
        world: &str,
    ) -> std::io::Result<()> {
        let mut map = self.lock();
        if map.get(&adventurer_id).is_some_and(|o| o.world == world) {
            return Ok(());
        }
        map.retain(|_, o| o.world == world);
        map.insert(
            adventurer_id,
            Owner {
                identity: identity.to_string(),
                world: world.to_string(),
            },
        );
        let Some(path) = &self.path else {
            return Ok(());
        };
        let raw: HashMap<String, &Owner> = map.iter().map(|(k, v)| (k.to_string(), v)).collect();
        let text = serde_json::to_string(&raw).map_err(std::io::Error::other)?;
        base::files::write_atomic(path, text.as_bytes())
    }

    /// The adventurers recorded in `world` with the identity that created each, by id.
    pub fn games(&self, world: &str) -> Vec<(AdventurerId, String)> {
        let mut games: Vec<_> = self
            .lock()
            .iter()
            .filter(|(_, o)| o.world == world)
            .map(|(id, o)| (*id, o.identity.clone()))
            .collect();
        games.sort();
        games
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<AdventurerId, Owner>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The owners file at `p`, bounded; entries without a world are left out.
fn read(p: &Path) -> std::io::Result<HashMap<AdventurerId, Owner>> {
    let invalid = |what: String| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{}: {what}", p.display()),
        )
    };
    let text = base::files::read_capped(p, MAX_FILE_BYTES)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", p.display())))?;
    let raw: HashMap<String, serde_json::Value> =
        serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?;
    let mut unbound = 0;
    let map: HashMap<AdventurerId, Owner> = raw
        .into_iter()
        .filter_map(|(k, v)| {
            let owner = serde_json::from_value::<Owner>(v).ok();
            unbound += usize::from(owner.is_none());
            Some((k.parse().ok()?, owner?))
        })
        .collect();
    if unbound > 0 {
        tracing::warn!(file = %p.display(), unbound, "adventurer owners recorded without their world are dropped");
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ownership_survives_a_reopen_in_its_own_world_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("owners.json");
        let owners = Owners::open(Some(path.clone())).unwrap();
        let (three, four) = (AdventurerId::from(3u64), AdventurerId::from(4u64));
        owners.record(three, "alice", "w1").unwrap();
        owners.record(three, "bob", "w1").unwrap();
        owners.record(four, "bob", "w1").unwrap();
        drop(owners);
        let again = Owners::open(Some(path.clone())).unwrap();
        assert_eq!(again.owner_of(three, "w1").as_deref(), Some("alice"));
        assert_eq!(again.owner_of(four, "w1").as_deref(), Some("bob"));
        assert_eq!(again.owner_of(AdventurerId::from(5u64), "w1"), None);
        // The world started afresh: its adventurer 3 is a new game, bob's.
        assert_eq!(again.owner_of(three, "w2"), None);
        again.record(three, "bob", "w2").unwrap();
        assert_eq!(again.owner_of(three, "w2").as_deref(), Some("bob"));
        assert_eq!(
            again.owner_of(four, "w1"),
            None,
            "the old world's records are gone"
        );
        // A file of the earlier form (no world) vouches for nothing.
        std::fs::write(&path, r#"{"3": "alice"}"#).unwrap();
        let old = Owners::open(Some(path)).unwrap();
        assert_eq!(old.owner_of(three, "w1"), None);
    }
}
