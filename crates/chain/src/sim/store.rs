//! The sim world on disk: one JSON state file (the engine world, the transaction history and each
//! game's hidden seed) under the user's data directory, so one-shot clients (the MCP Inspector
//! CLI starts a server per call) can continue a game. The transaction history goes to an
//! append-only JSON-lines file beside it, so a write rewrites only the small world file and a
//! server start reads only that; the history is read when a tool asks for it.
//!
//! Concurrency: each write takes an exclusive advisory lock on a sibling lock file, reloads the
//! state if another process changed it, applies the action and saves (temp file + rename, so a
//! reader only ever sees a whole file); reads need no lock and reload when the file changed. We
//! chose a lock per write over one lock per process lifetime because a long-running host (Claude
//! Desktop) and one-shot clients must be able to play the same world side by side; a process
//! lock would refuse the second one. A write that cannot get the lock within `LOCK_WAIT` fails
//! with a clear, retryable error. The lock is `std::fs::File::try_lock` (flock on Unix,
//! LockFileEx on Windows, stable since Rust 1.89), so no locking crate is needed.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// How long a write waits for another process's write to finish.
const LOCK_WAIT: Duration = Duration::from_secs(10);

/// Why the state file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another process held the lock for longer than `LOCK_WAIT`.
    #[error(
        "the sim world at {0} is locked by another process that did not finish within 10 s; retry"
    )]
    Busy(PathBuf),
    /// Reading or writing failed.
    #[error("cannot {what} the sim world at {path}: {source}")]
    Io {
        /// What was attempted.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not a sim world this version can read.
    #[error(
        "the sim world at {path} cannot be read ({reason}); start over with `serve --fresh` (or sim.fresh = true)"
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The parse error.
        reason: String,
    },
}

/// Identifies one version of the file: a rename gives a new inode, a rewrite a new length or
/// modification time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl Stamp {
    fn of(meta: &fs::Metadata) -> Self {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        Self {
            len: meta.len(),
            modified: meta.modified().ok(),
            inode,
        }
    }
}

/// The history file is rewritten with only its newest entries once it grows past this.
const HISTORY_COMPACT_BYTES: u64 = 8_000_000;

/// The state file, its lock file and its append-only history file.
#[derive(Debug)]
pub(super) struct StateFile {
    path: PathBuf,
    lock_path: PathBuf,
    history_path: PathBuf,
}

/// Held while a write is in progress; dropping it releases the lock.
#[derive(Debug)]
pub(super) struct WriteLock {
    _file: File,
}

impl StateFile {
    /// The state file at `path` (its lock file is `path` + `.lock`, its history `path` +
    /// `.history.jsonl`).
    pub(super) fn new(path: PathBuf) -> Self {
        let sibling = |suffix: &str| {
            let mut p = path.clone().into_os_string();
            p.push(suffix);
            PathBuf::from(p)
        };
        Self {
            lock_path: sibling(".lock"),
            history_path: sibling(".history.jsonl"),
            path,
        }
    }

    /// Appends entries to the history, one JSON line each (under the write lock); once the file
    /// passes `HISTORY_COMPACT_BYTES` it is rewritten with its newest `keep` entries.
    pub(super) fn append_history<T: Serialize + DeserializeOwned>(
        &self,
        entries: &[T],
        keep: usize,
    ) -> Result<(), StoreError> {
        if entries.is_empty() {
            return Ok(());
        }
        let mut text = Vec::new();
        for e in entries {
            serde_json::to_writer(&mut text, e).map_err(|e| StoreError::Corrupt {
                path: self.history_path.clone(),
                reason: e.to_string(),
            })?;
            text.push(b'\n');
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.history_path)
            .map_err(self.io("append to the history of"))?;
        file.write_all(&text)
            .map_err(self.io("append to the history of"))?;
        let len = file.metadata().map_err(self.io("read"))?.len();
        drop(file);
        if len > HISTORY_COMPACT_BYTES {
            let all: Vec<T> = self.read_history()?;
            let newest = &all[all.len().saturating_sub(keep)..];
            let mut tmp = self.history_path.clone().into_os_string();
            tmp.push(format!(".tmp-{}", std::process::id()));
            let tmp = PathBuf::from(tmp);
            let mut text = Vec::new();
            for e in newest {
                serde_json::to_writer(&mut text, e).expect("serializable");
                text.push(b'\n');
            }
            fs::write(&tmp, &text).map_err(self.io("compact the history of"))?;
            fs::rename(&tmp, &self.history_path).map_err(self.io("compact the history of"))?;
        }
        Ok(())
    }

    /// Every history entry, oldest first (a line cut short by a concurrent append is skipped).
    pub(super) fn read_history<T: DeserializeOwned>(&self) -> Result<Vec<T>, StoreError> {
        let text = match fs::read_to_string(&self.history_path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(self.io("read the history of")(e)),
        };
        Ok(text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect())
    }

    /// Empties the history (starting over).
    pub(super) fn clear_history(&self) -> Result<(), StoreError> {
        match fs::remove_file(&self.history_path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(self.io("clear the history of")(e)),
        }
    }

    /// Where the state lives.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    fn io(&self, what: &'static str) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
        move |source| StoreError::Io {
            what,
            path: self.path.clone(),
            source,
        }
    }

    /// The current version of the file, `None` when there is none.
    pub(super) fn stamp(&self) -> Result<Option<Stamp>, StoreError> {
        match fs::metadata(&self.path) {
            Ok(m) => Ok(Some(Stamp::of(&m))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.io("read")(e)),
        }
    }

    /// Reads the state and the version read, `None` when there is no file yet.
    pub(super) fn read<T: DeserializeOwned>(&self) -> Result<Option<(T, Stamp)>, StoreError> {
        let mut file = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.io("open")(e)),
        };
        let stamp = Stamp::of(&file.metadata().map_err(self.io("read"))?);
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(self.io("read"))?;
        let state = serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
            path: self.path.clone(),
            reason: e.to_string(),
        })?;
        Ok(Some((state, stamp)))
    }

    /// Replaces the file atomically (temp file, sync, rename); returns the new version.
    pub(super) fn write<T: Serialize>(&self, state: &T) -> Result<Stamp, StoreError> {
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir).map_err(self.io("create the folder of"))?;
        }
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(format!(".tmp-{}", std::process::id()));
        let tmp = PathBuf::from(tmp);
        let text = serde_json::to_vec(state).map_err(|e| StoreError::Corrupt {
            path: self.path.clone(),
            reason: e.to_string(),
        })?;
        let mut file = File::create(&tmp).map_err(self.io("write"))?;
        file.write_all(&text).map_err(self.io("write"))?;
        file.sync_all().map_err(self.io("write"))?;
        drop(file);
        fs::rename(&tmp, &self.path).map_err(self.io("replace"))?;
        let stamp = self.stamp()?;
        stamp.ok_or_else(|| self.io("find")(std::io::Error::from(std::io::ErrorKind::NotFound)))
    }

    /// Takes the write lock, waiting up to `LOCK_WAIT` for another process.
    pub(super) fn lock(&self) -> Result<WriteLock, StoreError> {
        if let Some(dir) = self.lock_path.parent() {
            fs::create_dir_all(dir).map_err(self.io("create the folder of"))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.lock_path)
            .map_err(self.io("lock"))?;
        let start = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(WriteLock { _file: file }),
                Err(fs::TryLockError::WouldBlock) if start.elapsed() < LOCK_WAIT => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(StoreError::Busy(self.path.clone()));
                }
                Err(fs::TryLockError::Error(e)) => return Err(self.io("lock")(e)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_whole_files_and_locks_exclude() {
        let dir = tempfile::tempdir().unwrap();
        let f = StateFile::new(dir.path().join("sub").join("w.json"));
        assert!(f.read::<Vec<u32>>().unwrap().is_none());
        assert_eq!(f.stamp().unwrap(), None);
        let s1 = f.write(&vec![1u32, 2]).unwrap();
        let (v, s) = f.read::<Vec<u32>>().unwrap().unwrap();
        assert_eq!((v, s), (vec![1, 2], s1));
        let s2 = f.write(&vec![3u32]).unwrap();
        assert_ne!(s1, s2, "a rewrite is a new version");
        let held = f.lock().unwrap();
        let other = StateFile::new(f.path().to_path_buf());
        let file = OpenOptions::new()
            .write(true)
            .open(&other.lock_path)
            .unwrap();
        assert!(matches!(file.try_lock(), Err(fs::TryLockError::WouldBlock)));
        drop(held);
        assert!(file.try_lock().is_ok());
        f.append_history(&[1u32, 2], 10).unwrap();
        f.append_history(&[3u32], 10).unwrap();
        assert_eq!(f.read_history::<u32>().unwrap(), [1, 2, 3]);
        f.clear_history().unwrap();
        assert!(f.read_history::<u32>().unwrap().is_empty());
        fs::write(f.path(), "{not json").unwrap();
        let e = f.read::<Vec<u32>>().unwrap_err();
        assert!(e.to_string().contains("--fresh"), "{e}");
    }
}
