//! Files the server keeps in its data directory, written so that a reader (this process after a
//! crash, or another process on the same directory) sees the old file or the new one, never a
//! part of one, and two writers never share a temporary file.

use std::io::Write as _;
use std::path::Path;

/// Writes `bytes` to a fresh file beside `path` with a random name (mode 0600 on Unix), syncs
/// it, renames it over `path`, then syncs the directory; the temporary file is removed on error.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy());
    let mut suffix = [0u8; 8];
    getrandom::fill(&mut suffix)
        .map_err(|e| std::io::Error::other(format!("no randomness: {e}")))?;
    let suffix: String = suffix.iter().map(|b| format!("{b:02x}")).collect();
    let tmp = dir.join(format!(".{name}.{suffix}.tmp"));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let result = options
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    sync_dir(dir);
    Ok(())
}

/// The text of the regular file at `path` when it is at most `max` bytes; a larger file is an
/// `InvalidData` error naming the bound, read no further (a kept file is not trusted for its size).
pub fn read_capped(path: &Path, max: u64) -> std::io::Result<String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path)?;
    let mut text = String::new();
    file.take(max + 1).read_to_string(&mut text)?;
    if text.len() as u64 > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("it is over {max} bytes"),
        ));
    }
    Ok(text)
}

/// Syncs a directory after renames in it (best effort: not every system can).
pub fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_the_file_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kept.json");
        write_atomic(&path, b"old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("kept.json")]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // A directory that is not there: an error, and nothing written.
        assert!(write_atomic(&dir.path().join("no/such/file"), b"x").is_err());
    }

    #[test]
    fn a_read_stops_at_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kept.json");
        std::fs::write(&path, "12345").unwrap();
        assert_eq!(read_capped(&path, 5).unwrap(), "12345");
        let e = read_capped(&path, 4).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(e.to_string(), "it is over 4 bytes");
        let missing = read_capped(&dir.path().join("none"), 4).unwrap_err();
        assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
    }
}
