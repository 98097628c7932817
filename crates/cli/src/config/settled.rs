//! What a live check settled for a profile (`--settle-vrf`): `<data>/settled/<profile>.toml`,
//! holding only `[deployment] vrf_source`, layered above the profile files and below the
//! environment (docs/vrf.md#finding-a-deployments-vrf-rule).

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use chain::VrfSource;
use config::builder::DefaultState;
use config::{Config, ConfigBuilder, File, FileFormat};
use serde::Deserialize;

use super::ConfigError;

/// The one key a settled file may hold.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettledFile {
    deployment: SettledDeployment,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettledDeployment {
    vrf_source: String,
}

/// The settled file of `profile` under the data directory `data`.
pub fn settled_path(data: &Path, profile: &str) -> PathBuf {
    data.join("settled").join(format!("{profile}.toml"))
}

/// Writes `source` as `profile`'s settled VRF source under the data directory `data`, with
/// `evidence` (one line: what it was read from) as a comment; returns the file written.
pub fn settle_vrf_source(
    data: &Path,
    profile: &str,
    source: VrfSource,
    evidence: &str,
) -> Result<PathBuf, ConfigError> {
    let path = settled_path(data, profile);
    let io = |e: std::io::Error| ConfigError::Invalid(format!("{}: {e}", path.display()));
    std::fs::create_dir_all(path.parent().unwrap_or(data)).map_err(io)?;
    let text = format!(
        "# Settled by a live check: {}\n[deployment]\nvrf_source = \"{}\"\n",
        evidence.replace(['\n', '\r'], " "),
        source.name()
    );
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)?;
    Ok(path)
}

/// Adds `profile`'s settled file, when the data directory named by `env` has one, as a layer of
/// `b`; a file with any other key or an unknown source is an error naming it.
pub(super) fn add_layer(
    b: ConfigBuilder<DefaultState>,
    env: &HashMap<String, String>,
    profile: &str,
) -> Result<ConfigBuilder<DefaultState>, ConfigError> {
    let data =
        base::home::data_dir_from(|k| env.get(k).filter(|v| !v.is_empty()).map(OsString::from));
    let path = settled_path(&data, profile);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(b),
        Err(e) => return Err(ConfigError::Invalid(format!("{}: {e}", path.display()))),
    };
    let invalid = |e: String| {
        ConfigError::Invalid(format!(
            "settled file {}: {e}; delete it, or settle again with --settle-vrf",
            path.display()
        ))
    };
    let settled: SettledFile = Config::builder()
        .add_source(File::from_str(&text, FileFormat::Toml))
        .build()
        .and_then(Config::try_deserialize)
        .map_err(|e| invalid(e.to_string()))?;
    settled
        .deployment
        .vrf_source
        .parse::<VrfSource>()
        .map_err(invalid)?;
    Ok(b.add_source(File::from_str(&text, FileFormat::Toml)))
}

#[cfg(test)]
mod tests {
    use super::super::{LoadOptions, Settings};
    use super::*;

    fn load(home: &Path, profile: &str, env: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let mut env: HashMap<String, String> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        env.insert("LS_HOME".into(), home.display().to_string());
        Settings::load(&LoadOptions {
            profile: Some(profile.into()),
            env,
            ..LoadOptions::default()
        })
    }

    fn source(s: &Settings) -> Option<&str> {
        s.deployment.vrf_source.as_deref()
    }

    #[test]
    fn a_settled_source_is_read_back_between_the_profile_and_the_environment() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(source(&load(home.path(), "devnet", &[]).unwrap()), None);
        let path = settle_vrf_source(
            home.path(),
            "devnet",
            VrfSource::Nonce,
            "tx 0x1\non GameCore 0x2",
        )
        .unwrap();
        assert_eq!(path, home.path().join("settled").join("devnet.toml"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "# Settled by a live check: tx 0x1 on GameCore 0x2\n[deployment]\nvrf_source = \"nonce\"\n"
        );
        assert_eq!(
            source(&load(home.path(), "devnet", &[]).unwrap()),
            Some("nonce")
        );
        let env = [("LS_DEPLOYMENT__VRF_SOURCE", "off")];
        assert_eq!(
            source(&load(home.path(), "devnet", &env).unwrap()),
            Some("off"),
            "the environment wins"
        );
        assert_eq!(
            source(&load(home.path(), "katana", &[]).unwrap()),
            None,
            "another profile's"
        );

        // Above a profile file of the config directory.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("devnet.toml"),
            "[deployment]\nvrf_source = \"salt:adventurer_state\"\n",
        )
        .unwrap();
        let dir_env = dir.path().display().to_string();
        let s = load(
            home.path(),
            "devnet",
            &[("LS_CONFIG_DIR", dir_env.as_str())],
        )
        .unwrap();
        assert_eq!(source(&s), Some("nonce"));

        // Settling again replaces it.
        settle_vrf_source(
            home.path(),
            "devnet",
            VrfSource::Salt(chain::SaltRecipe::V1),
            "x",
        )
        .unwrap();
        assert_eq!(
            source(&load(home.path(), "devnet", &[]).unwrap()),
            Some("salt:v1")
        );
    }

    #[test]
    fn a_settled_file_with_another_key_or_source_is_refused_by_name() {
        let home = tempfile::tempdir().unwrap();
        let path = settled_path(home.path(), "devnet");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            "[deployment]\nvrf_source = \"nonce\"\ngame_core = \"0x1\"\n",
        )
        .unwrap();
        let e = load(home.path(), "devnet", &[]).unwrap_err().to_string();
        assert!(e.contains("game_core") && e.contains("devnet.toml"), "{e}");
        std::fs::write(&path, "[deployment]\nvrf_source = \"salt\"\n").unwrap();
        let e = load(home.path(), "devnet", &[]).unwrap_err().to_string();
        assert!(
            e.contains("unknown VRF source") && e.contains("delete it"),
            "{e}"
        );
    }
}
