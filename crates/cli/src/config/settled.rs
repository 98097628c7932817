//! What a live check settled for a profile (`--settle-vrf`): `<data>/settled/<profile>.toml`,
//! holding `[deployment] vrf_source` (with the contract that consumes the randomness and the game
//! settings it was read for, `vrf_consumer` and `vrf_settings`) and the chain and GameCore it was
//! read on (`[settled_on]`).
//! It is put in force after the profile is loaded, above the profile files and below the
//! environment, only where the profile names that chain and GameCore; a file for another, or one
//! that cannot be read, is ignored with a warning naming it (docs/vrf.md#finding-a-deployments-vrf-rule).

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use chain::VrfSource;
use check::vrf_rule::SettledRule;
use serde::Deserialize;
use starknet::core::types::Felt;

use super::{ConfigError, GenerationSetting, Settings};

/// The largest settled file read.
const MAX_SETTLED_BYTES: u64 = 64 * 1024;

/// A settled file: the one key it may set, and where it was read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettledFile {
    deployment: SettledDeployment,
    settled_on: SettledOn,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettledDeployment {
    vrf_source: String,
    vrf_consumer: Option<String>,
    vrf_settings: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettledOn {
    chain_id: String,
    game_core: String,
}

/// The settled file of `profile` under the data directory `data`.
pub fn settled_path(data: &Path, profile: &str) -> PathBuf {
    data.join("settled").join(format!("{profile}.toml"))
}

/// Writes `rule` as `profile`'s settled VRF source under the data directory `data`, read on
/// chain `chain_id` off GameCore `game_core`, with `evidence` (one line: what it was read from)
/// as a comment; returns the file written.
pub fn settle_vrf_source(
    data: &Path,
    profile: &str,
    rule: &SettledRule,
    chain_id: Felt,
    game_core: Felt,
    evidence: &str,
) -> Result<PathBuf, ConfigError> {
    let path = settled_path(data, profile);
    let io = |e: std::io::Error| ConfigError::Invalid(format!("{}: {e}", path.display()));
    std::fs::create_dir_all(path.parent().unwrap_or(data)).map_err(io)?;
    let mut deployment = format!("vrf_source = \"{}\"\n", rule.source.name());
    if let Some(c) = rule.consumer {
        deployment.push_str(&format!("vrf_consumer = \"{}\"\n", c.to_fixed_hex_string()));
    }
    if let Some(id) = rule.settings_id {
        deployment.push_str(&format!("vrf_settings = {id}\n"));
    }
    let text = format!(
        "# Settled by a live check: {}\n[deployment]\n{deployment}\n[settled_on]\nchain_id = \"{}\"\ngame_core = \"{}\"\n",
        evidence.replace(|c: char| c.is_control(), " "),
        chain_id.to_fixed_hex_string(),
        game_core.to_fixed_hex_string(),
    );
    base::files::write_atomic(&path, text.as_bytes()).map_err(io)?;
    Ok(path)
}

/// Puts `profile`'s settled VRF source in force in `settings` when the data directory named by
/// `env` has one for the chain and GameCore `settings` name, unless `overrides` (the environment
/// and the command line) set the source themselves.
pub(super) fn apply(
    settings: &mut Settings,
    env: &HashMap<String, String>,
    overrides: &[(String, String)],
) {
    let data =
        base::home::data_dir_from(|k| env.get(k).filter(|v| !v.is_empty()).map(OsString::from));
    let path = settled_path(&data, &settings.profile);
    let settled = match read(&path) {
        Ok(None) => return,
        Ok(Some(s)) => s,
        Err(why) => {
            tracing::warn!(
                file = %path.display(),
                "the settled file is ignored: {why}; delete it, or settle again with `loot-survivor-mcp check --profile {} --settle-vrf`",
                settings.profile
            );
            return;
        }
    };
    if settings.deployment.generation != GenerationSetting::V2 {
        tracing::warn!(file = %path.display(), "the settled file is ignored: the profile plays a v1 world, whose VRF rule is fixed");
        return;
    }
    if overrides.iter().any(|(k, _)| k == "deployment.vrf_source") {
        tracing::info!(file = %path.display(), "the settled vrf_source is not used: the environment or the command line sets deployment.vrf_source");
        return;
    }
    let here = settings
        .expected_chain_id()
        .ok()
        .zip(settings.deployment.v2_contracts().ok().map(|c| c.game_core));
    match here {
        Some(on)
            if on == (settled.chain_id, settled.game_core)
                && settled
                    .rule
                    .settings_id
                    .is_some_and(|id| id != settings.chain.settings_id) =>
        {
            tracing::warn!(
                file = %path.display(),
                "the settled file is ignored: it was read for games of settings {}, and the profile mints with chain.settings_id = {}; settle again with `loot-survivor-mcp check --profile {} --settle-vrf`",
                settled.rule.settings_id.unwrap_or_default(),
                settings.chain.settings_id,
                settings.profile
            );
        }
        Some(on) if on == (settled.chain_id, settled.game_core) => {
            tracing::info!(
                file = %path.display(),
                vrf_source = settled.rule.source.name(),
                vrf_consumer = ?settled.rule.consumer.map(|c| format!("{c:#x}")),
                vrf_settings = ?settled.rule.settings_id,
                "deployment.vrf_source is the one a live check settled for this chain and GameCore"
            );
            settings.deployment.vrf_source = Some(settled.rule.source.name().to_string());
            settings.deployment.vrf_consumer = settled.rule.consumer.map(|c| format!("{c:#x}"));
            settings.deployment.vrf_settings = settled.rule.settings_id;
        }
        _ => tracing::warn!(
            file = %path.display(),
            settled_chain_id = %format!("{:#x}", settled.chain_id),
            settled_game_core = %format!("{:#x}", settled.game_core),
            "the settled file is ignored: it was settled on another chain or GameCore than the profile's"
        ),
    }
}

/// A settled file's content.
struct Settled {
    rule: SettledRule,
    chain_id: Felt,
    game_core: Felt,
}

/// Reads a settled file: `None` when there is none, `Err` (why) when it cannot be used.
fn read(path: &Path) -> Result<Option<Settled>, String> {
    let text = match base::files::read_capped(path, MAX_SETTLED_BYTES) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let file: SettledFile = config::Config::builder()
        .add_source(config::File::from_str(&text, config::FileFormat::Toml))
        .build()
        .and_then(config::Config::try_deserialize)
        .map_err(|e| e.to_string())?;
    let felt =
        |name: &str, v: &str| Felt::from_hex(v.trim()).map_err(|e| format!("{name} {v:?}: {e}"));
    let consumer = match &file.deployment.vrf_consumer {
        Some(c) => Some(felt("deployment.vrf_consumer", c)?),
        None => None,
    };
    Ok(Some(Settled {
        rule: SettledRule {
            source: file.deployment.vrf_source.parse::<VrfSource>()?,
            consumer,
            settings_id: file.deployment.vrf_settings,
        },
        chain_id: felt("settled_on.chain_id", &file.settled_on.chain_id)?,
        game_core: felt("settled_on.game_core", &file.settled_on.game_core)?,
    }))
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

    /// The environment of a v2 devnet profile whose GameCore is `game_core`.
    fn v2(game_core: &str) -> Vec<(&str, &str)> {
        vec![
            ("LS_GENERATION", "v2"),
            ("LS_DEPLOYMENT__DEPLOYMENT_FILE", ""),
            ("LS_DEPLOYMENT__GAME_CORE", game_core),
            ("LS_DEPLOYMENT__GAME_TOKEN", "0x70"),
            ("LS_DEPLOYMENT__DENSHOKAN", "0xde"),
            ("LS_DEPLOYMENT__VRF_PROVIDER", "0xf0"),
        ]
    }

    fn sepolia() -> Felt {
        Felt::from_bytes_be_slice(b"SN_SEPOLIA")
    }

    fn settle(home: &Path, source: VrfSource, chain_id: Felt, game_core: u8) -> PathBuf {
        let rule = SettledRule {
            source,
            consumer: None,
            settings_id: None,
        };
        settle_vrf_source(
            home,
            "devnet",
            &rule,
            chain_id,
            Felt::from(game_core),
            "tx 0x1\nseen",
        )
        .unwrap()
    }

    #[test]
    fn a_settled_source_applies_on_its_chain_and_game_core_between_the_profile_and_the_environment()
    {
        let home = tempfile::tempdir().unwrap();
        let here = v2("0x6a");
        assert_eq!(source(&load(home.path(), "devnet", &here).unwrap()), None);
        let path = settle(home.path(), VrfSource::Nonce, sepolia(), 0x6a);
        assert_eq!(path, home.path().join("settled").join("devnet.toml"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "# Settled by a live check: tx 0x1 seen\n[deployment]\nvrf_source = \"nonce\"\n\n\
             [settled_on]\nchain_id = \"0x00000000000000000000000000000000000000000000534e5f5345504f4c4941\"\n\
             game_core = \"0x000000000000000000000000000000000000000000000000000000000000006a\"\n"
        );
        assert_eq!(
            source(&load(home.path(), "devnet", &here).unwrap()),
            Some("nonce")
        );
        let mut env = here.clone();
        env.push(("LS_DEPLOYMENT__VRF_SOURCE", "off"));
        assert_eq!(
            source(&load(home.path(), "devnet", &env).unwrap()),
            Some("off"),
            "the environment wins"
        );
        assert_eq!(
            source(&load(home.path(), "katana", &here).unwrap()),
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
        let mut env = here.clone();
        env.push(("LS_CONFIG_DIR", dir_env.as_str()));
        assert_eq!(
            source(&load(home.path(), "devnet", &env).unwrap()),
            Some("nonce")
        );

        // Settling again replaces it.
        settle(
            home.path(),
            VrfSource::Salt(chain::SaltRecipe::V1),
            sepolia(),
            0x6a,
        );
        assert_eq!(
            source(&load(home.path(), "devnet", &here).unwrap()),
            Some("salt:v1")
        );
    }

    #[test]
    fn a_settled_consumer_and_settings_apply_with_the_source() {
        let home = tempfile::tempdir().unwrap();
        let rule = SettledRule {
            source: VrfSource::Salt(chain::SaltRecipe::AdventurerState),
            consumer: Some(Felt::from(0x5b5_u16)),
            settings_id: Some(1),
        };
        let path = settle_vrf_source(
            home.path(),
            "devnet",
            &rule,
            sepolia(),
            Felt::from(0x6a_u8),
            "x",
        )
        .unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        assert!(
            text.contains(
                "vrf_consumer = \"0x00000000000000000000000000000000000000000000000000000000000005b5\"\nvrf_settings = 1\n"
            ),
            "{text}"
        );
        let mut env = v2("0x6a");
        env.push(("LS_CHAIN__SETTINGS_ID", "1"));
        let s = load(home.path(), "devnet", &env).unwrap();
        let c = s.deployment.v2_contracts().unwrap();
        assert_eq!(
            (c.vrf_source, c.vrf_consumer, c.vrf_settings),
            (Some(rule.source), rule.consumer, Some(1))
        );
        // A profile minting with other settings does not take it.
        assert_eq!(
            source(&load(home.path(), "devnet", &v2("0x6a")).unwrap()),
            None
        );
    }

    #[test]
    fn a_settled_source_is_ignored_on_another_chain_or_game_core() {
        let home = tempfile::tempdir().unwrap();
        settle(home.path(), VrfSource::Nonce, sepolia(), 0x6a);
        assert_eq!(
            source(&load(home.path(), "devnet", &v2("0x6b")).unwrap()),
            None
        );
        let mut other_chain = v2("0x6a");
        other_chain.push(("LS_CHAIN__CHAIN_ID", "SN_MAIN"));
        assert_eq!(
            source(&load(home.path(), "devnet", &other_chain).unwrap()),
            None
        );
        // A v1 profile has no source to settle.
        assert_eq!(source(&load(home.path(), "devnet", &[]).unwrap()), None);
    }

    #[test]
    fn a_settled_file_that_cannot_be_used_is_ignored_so_settling_again_works() {
        let home = tempfile::tempdir().unwrap();
        let path = settled_path(home.path(), "devnet");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let on = "\n[settled_on]\nchain_id = \"0x534e5f5345504f4c4941\"\ngame_core = \"0x6a\"\n";
        for text in [
            String::new(),
            "[deployment]\nvrf_source = \"nonce\"\n".to_string(),
            format!("[deployment]\nvrf_source = \"nonce\"\ngame_core = \"0x1\"\n{on}"),
            format!("[deployment]\nvrf_source = \"salt\"\n{on}"),
            "x".repeat(MAX_SETTLED_BYTES as usize + 1),
        ] {
            std::fs::write(&path, &text).unwrap();
            let loaded = load(home.path(), "devnet", &v2("0x6a"));
            assert_eq!(source(&loaded.unwrap()), None, "{text:.80}");
        }
        std::fs::write(&path, format!("[deployment]\nvrf_source = \"nonce\"\n{on}")).unwrap();
        assert_eq!(
            source(&load(home.path(), "devnet", &v2("0x6a")).unwrap()),
            Some("nonce")
        );
        settle(home.path(), VrfSource::Off, sepolia(), 0x6a);
        assert_eq!(
            source(&load(home.path(), "devnet", &v2("0x6a")).unwrap()),
            Some("off")
        );
    }
}
