//! Which identity created each adventurer, so that over HTTP an identity acts only on its own
//! games. Kept in the data directory (a small JSON map, rewritten through a temporary file and a
//! rename on each new game) so ownership survives a restart.

use game::AdventurerId;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The adventurer → identity map of one served world.
#[derive(Debug, Default)]
pub struct Owners {
    path: Option<PathBuf>,
    map: Mutex<HashMap<AdventurerId, String>>,
}

impl Owners {
    /// The map kept in `path` (read now when it exists), or in memory only without a path.
    pub fn open(path: Option<PathBuf>) -> std::io::Result<Self> {
        let map = match &path {
            Some(p) if p.exists() => {
                let text = std::fs::read_to_string(p)?;
                let raw: HashMap<String, String> = serde_json::from_str(&text).map_err(|e| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("{}: {e}", p.display()),
                    )
                })?;
                raw.into_iter()
                    .filter_map(|(k, v)| Some((k.parse().ok()?, v)))
                    .collect()
            }
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

    /// The identity that created `adventurer_id`, if one did over HTTP.
    pub fn owner_of(&self, adventurer_id: AdventurerId) -> Option<String> {
        self.lock().get(&adventurer_id).cloned()
    }

    /// Records that `identity` created `adventurer_id` (the first record wins) and saves.
    pub fn record(&self, adventurer_id: AdventurerId, identity: &str) -> std::io::Result<()> {
        let mut map = self.lock();
        if map.contains_key(&adventurer_id) {
            return Ok(());
        }
        map.insert(adventurer_id, identity.to_string());
        let Some(path) = &self.path else {
            return Ok(());
        };
        let raw: HashMap<String, &String> = map.iter().map(|(k, v)| (k.to_string(), v)).collect();
        let text = serde_json::to_string(&raw).map_err(std::io::Error::other)?;
        base::files::write_atomic(path, text.as_bytes())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<AdventurerId, String>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ownership_survives_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("owners.json");
        let owners = Owners::open(Some(path.clone())).unwrap();
        owners.record(AdventurerId::from(3u64), "alice").unwrap();
        owners.record(AdventurerId::from(3u64), "bob").unwrap();
        owners.record(AdventurerId::from(4u64), "bob").unwrap();
        drop(owners);
        let again = Owners::open(Some(path)).unwrap();
        assert_eq!(
            again.owner_of(AdventurerId::from(3u64)).as_deref(),
            Some("alice")
        );
        assert_eq!(
            again.owner_of(AdventurerId::from(4u64)).as_deref(),
            Some("bob")
        );
        assert_eq!(again.owner_of(AdventurerId::from(5u64)), None);
    }
}
