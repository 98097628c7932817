//! Where state that must survive a restart lives: the user's data directory, never the repository
//! or the build directory. `LS_HOME` overrides it (tests point it at a temporary directory).
//! Hand-rolled rather than a `dirs` dependency: three environment variables cover the platforms
//! we ship on, and the rule stays visible in one place.

use std::path::{Path, PathBuf};

/// The application's folder name inside the platform data directory.
const APP: &str = "loot-survivor-mcp";

/// The data directory: `LS_HOME`, else `$XDG_DATA_HOME/loot-survivor-mcp`, else the platform
/// default (`~/.local/share/…` on Linux, `~/Library/Application Support/…` on macOS,
/// `%APPDATA%\…` on Windows), else `./.loot-survivor-mcp` when no home is known.
pub fn data_dir() -> PathBuf {
    data_dir_from(|k| std::env::var_os(k).filter(|v| !v.is_empty()))
}

/// `data_dir` over an explicit environment (for tests).
pub fn data_dir_from(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> PathBuf {
    if let Some(home) = env("LS_HOME") {
        return PathBuf::from(home);
    }
    if let Some(xdg) = env("XDG_DATA_HOME") {
        return Path::new(&xdg).join(APP);
    }
    if cfg!(windows)
        && let Some(appdata) = env("APPDATA")
    {
        return Path::new(&appdata).join(APP);
    }
    match env("HOME") {
        Some(home) if cfg!(target_os = "macos") => Path::new(&home)
            .join("Library")
            .join("Application Support")
            .join(APP),
        Some(home) => Path::new(&home).join(".local").join("share").join(APP),
        None => PathBuf::from(".").join(format!(".{APP}")),
    }
}

/// A sub-directory of the data directory for one profile (e.g. `sim`, `devnet`), created on
/// first use.
pub fn profile_dir(profile: &str) -> std::io::Result<PathBuf> {
    let dir = data_dir().join(profile);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Resolves a relative path (a manifest, a key file) against the data directory
/// ([`data_dir`]: `LS_HOME`, else the platform's), never the build directory, so a
/// copied or installed binary finds the same files.
pub fn resolve(p: &Path) -> PathBuf {
    if p.is_absolute() {
        return p.to_path_buf();
    }
    data_dir().join(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::ffi::OsString;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let map: HashMap<String, OsString> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn ls_home_wins() {
        let d = data_dir_from(env(&[("LS_HOME", "/x/ls"), ("XDG_DATA_HOME", "/xdg")]));
        assert_eq!(d, PathBuf::from("/x/ls"));
    }

    #[test]
    fn xdg_then_home() {
        let d = data_dir_from(env(&[("XDG_DATA_HOME", "/xdg"), ("HOME", "/h")]));
        assert_eq!(d, PathBuf::from("/xdg/loot-survivor-mcp"));
        let d = data_dir_from(env(&[("HOME", "/h")]));
        if cfg!(target_os = "linux") {
            assert_eq!(d, PathBuf::from("/h/.local/share/loot-survivor-mcp"));
        }
    }

    #[test]
    fn no_home_stays_relative() {
        let d = data_dir_from(env(&[]));
        assert_eq!(d, PathBuf::from("./.loot-survivor-mcp"));
    }
}
