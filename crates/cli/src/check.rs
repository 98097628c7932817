//! `check`: whether the profile's chain holds what the server's bindings expect (docs/check.md):
//! the node's chain id, the ABI check of every contract, the generation the game address speaks,
//! the VRF rule GameCore's recent actions follow (v2; `--settle-vrf` keeps it for the profile),
//! and the indexer (v2: the Denshokan API; v1: Torii when configured); a table (or `--json`) on
//! stdout. Exit code 1 when something differs, 2 when something did not answer, 0 otherwise. No
//! wallet or key is read. `serve` runs the same ABI check at start ([`gate_writes`]).

use std::io::Write as _;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use chain::generation::{ChainReads, IndexSource, VrfRule};
use chain::{ChainClient, Deployment};
use check::vrf_rule::{Conclusion, DetectOptions, Seeds, VrfRuleReport};
use check::{Check, Report, Section, Status};
use indexer::GameIndex;
use indexer::denshokan::{DEATH_MOUNTAIN_GAME_ID, DenshokanIndex};
use indexer::torii::{LeaderboardQuery, Scope, ToriiClient};

use crate::args::{CheckArgs, SettingsArgs};
use crate::config::Settings;

/// Rows asked of the leaderboard to see that it answers.
const LEADERBOARD_ROWS: u32 = 5;

/// `check`: prints the report and returns its exit code.
pub(crate) async fn check(args: &SettingsArgs, check: &CheckArgs) -> anyhow::Result<ExitCode> {
    let (settings, _env) = args.load()?;
    anyhow::ensure!(
        !settings.is_sim(),
        "check reads a chain and the sim profile has none: pass --profile devnet, sepolia or mainnet"
    );
    let report = report(&settings).await?;
    if check.settle_vrf {
        settle(&settings, &report)?;
    }
    let shown = if check.json {
        serde_json::to_string_pretty(&report)? + "\n"
    } else {
        report.table()
    };
    // A node's or an indexer's URL in an error may carry a key.
    let shown = base::redact::hide_credentials(&shown);
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(shown.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
        _ => {}
    }
    Ok(ExitCode::from(report.exit_code()))
}

/// The report of `settings`' profile: sections `node`, `abi`, `generation`, `settings`, `vrf` and
/// `indexer`.
pub(crate) async fn report(settings: &Settings) -> anyhow::Result<Report> {
    let deployment = settings.deployment()?;
    let timeout = Duration::from_millis(settings.chain.request_timeout_ms);
    let rpc = check::rpc(settings.chain.rpc_url.clone(), timeout)?;
    let mut report = Report {
        profile: settings.profile.clone(),
        generation: deployment.generation().to_string(),
        ..Report::default()
    };
    report.push(check::node_section(&rpc, settings.expected_chain_id()?).await);
    let abi = check::check_abi(&rpc, &deployment, Some(&cache_dir())).await;
    report.push(abi.section());
    report.push(abi.generation_section(&deployment));
    let settings_id = settings.chain.settings_id;
    let exist = check::probe::settings_check(
        &rpc,
        deployment.game_address(),
        abi.settings_view,
        settings_id,
    )
    .await;
    report.push(Section {
        name: "settings".into(),
        checks: vec![exist],
    });
    let (vrf, evidence) = vrf_section(settings, &deployment, &rpc).await?;
    report.push(vrf);
    report.vrf_rule = evidence;
    report.push(indexer_section(settings, &deployment).await);
    Ok(report)
}

/// The `vrf` section: on v2, the rule GameCore's newest actions show against the profile's
/// `vrf_source` (the evidence goes with the JSON report); v1's rule is known.
async fn vrf_section(
    settings: &Settings,
    deployment: &Deployment,
    rpc: &(impl starknet::providers::Provider + Sync),
) -> anyhow::Result<(Section, Option<VrfRuleReport>)> {
    let name = "vrf rule";
    let section = |check| Section {
        name: "vrf".into(),
        checks: vec![check],
    };
    let c = match deployment.game().vrf_rule() {
        VrfRule::Read(c) => c,
        VrfRule::Fixed(known) => {
            return Ok((section(Check::new(name, Status::Skipped, known)), None));
        }
    };
    let opts = DetectOptions::for_settings(settings.chain.settings_id);
    let found = match check::vrf_rule::detect(rpc, c, settings.expected_chain_id()?, &opts).await {
        Ok(found) => found,
        Err(e) => {
            return Ok((
                section(Check::new(name, Status::Unreachable, e.to_string())),
                None,
            ));
        }
    };
    let summary = found.summary();
    // A request names the contract that consumes; the profile's requests must name the same.
    let other_consumer = found.consumer().filter(|&x| x != c.vrf_caller());
    let check = match (&found.conclusion, found.source(), c.vrf_source) {
        (Conclusion::NoActions, ..) => Check::new(name, Status::Skipped, summary),
        (Conclusion::Found { .. }, Some(_), Some(_)) if other_consumer.is_some() => Check::new(
            name,
            Status::Mismatch,
            format!(
                "{summary}; the profile's requests name {:#x} as the consumer (deployment.vrf_consumer)",
                c.vrf_caller()
            ),
        ),
        (Conclusion::Found { .. }, Some(seen), Some(set)) if seen == set => Check::new(
            name,
            Status::Ok,
            format!("{summary}; the profile says the same"),
        ),
        (Conclusion::Found { .. }, _, Some(set)) => Check::new(
            name,
            Status::Mismatch,
            format!("{summary}; the profile says {}", set.name()),
        ),
        (Conclusion::Found { .. }, _, None) => Check::new(
            name,
            Status::Ok,
            format!("{summary}; the profile leaves vrf_source unset: --settle-vrf keeps it"),
        ),
        _ => Check::new(name, Status::Mismatch, summary),
    };
    Ok((section(check), Some(found)))
}

/// How long `serve` gives the VRF rule's reading at start.
const VRF_AT_START: Duration = Duration::from_secs(10);

/// `serve` on a v2 deployment whose VRF source is unset: reads the rule GameCore's newest actions
/// show (bounded by [`VRF_AT_START`]) and logs it with the command that keeps it; nothing is set
/// from it, so actions that draw randomness stay refused until the operator settles it.
pub(crate) async fn vrf_at_start(client: &ChainClient, profile: &str) {
    let VrfRule::Read(c) = client.deployment().game().vrf_rule() else {
        return;
    };
    if c.vrf_source.is_some() {
        return;
    }
    let settle = format!("{} --settle-vrf", check_command(profile));
    match tokio::time::timeout(
        VRF_AT_START,
        check::read_vrf_rule(client, &DetectOptions::for_settings(client.settings_id())),
    )
    .await
    {
        Ok(Ok(found)) if found.source().is_some() => tracing::warn!(
            "deployment.vrf_source is unset, so actions that draw randomness are refused; {}; `{settle}` keeps it",
            found.summary()
        ),
        Ok(Ok(found)) => tracing::warn!(
            "deployment.vrf_source is unset, so actions that draw randomness are refused; {}",
            found.summary()
        ),
        Ok(Err(e)) => tracing::warn!(
            error = %e,
            "deployment.vrf_source is unset and the VRF rule could not be read; `{settle}` tries again"
        ),
        Err(_) => tracing::warn!(
            "deployment.vrf_source is unset and the VRF rule was not read within {VRF_AT_START:?}; `{settle}` reads it"
        ),
    }
}

/// `--settle-vrf`: writes the rule found as the profile's settled `vrf_source`, bound to the
/// chain and GameCore it was read on, or fails saying why there is none to keep: only a report
/// whose node and generation checks are `ok` settles, and only a rule its actions show well
/// enough ([`VrfRuleReport::settled_rule`]).
fn settle(settings: &Settings, report: &Report) -> anyhow::Result<()> {
    for name in ["node", "generation"] {
        let section = report.sections.iter().find(|s| s.name == name);
        // Its first check (the chain id; what the game address speaks) must be `ok`, the others
        // `ok` or `skipped` (a Denshokan class without SRC5).
        let failed = section.map_or(Some("it was not run".to_string()), |s| {
            s.checks
                .iter()
                .enumerate()
                .find(|(i, c)| c.status != Status::Ok && (*i == 0 || c.status != Status::Skipped))
                .map(|(_, c)| format!("{}: {}", c.name, c.detail))
        });
        if let Some(why) = failed {
            anyhow::bail!("--settle-vrf: nothing kept: the {name} check is not ok ({why})");
        }
    }
    let found = report.vrf_rule.as_ref().ok_or_else(|| {
        anyhow::anyhow!(
            "--settle-vrf: no VRF rule was read (a v2 profile whose node answers has one)"
        )
    })?;
    let deployment = settings.deployment()?;
    let VrfRule::Read(contracts) = deployment.game().vrf_rule() else {
        anyhow::bail!("--settle-vrf: this deployment's VRF rule is fixed; nothing to keep");
    };
    // A local devnet's practice VRF provider is sent no seed (docs/vrf.md).
    let seeds = if settings.is_local_devnet() {
        Seeds::SentOrNone
    } else {
        Seeds::Verified
    };
    let rule = found
        .settled_rule(contracts.vrf_provider, seeds)
        .map_err(|e| anyhow::anyhow!("--settle-vrf: nothing kept: {e}"))?;
    let path = crate::config::settle_vrf_source(
        &base::home::data_dir(),
        &settings.profile,
        &rule,
        found.chain_id,
        found.game_core,
        &found.summary(),
    )?;
    let consumer = rule
        .consumer
        .map(|c| format!(", vrf_consumer = {c:#x}"))
        .unwrap_or_default();
    let of = rule
        .settings_id
        .map(|id| format!(", vrf_settings = {id}"))
        .unwrap_or_default();
    eprintln!(
        "settled: {} keeps vrf_source = {}{consumer}{of} for profile {} on chain {:#x} and GameCore {:#x} (it applies below the environment and above the profile file, on that chain and GameCore only)",
        path.display(),
        rule.source.name(),
        settings.profile,
        found.chain_id,
        found.game_core
    );
    Ok(())
}

/// Where compared classes are kept: `<data>/checks/`.
fn cache_dir() -> std::path::PathBuf {
    base::home::data_dir().join("checks")
}

/// The command that shows a profile's report.
fn check_command(profile: &str) -> String {
    format!("loot-survivor-mcp check --profile {profile}")
}

/// The `indexer` section: on v2 the Denshokan API's health and one leaderboard page when the
/// profile names one; on v1 one leaderboard page from Torii when the profile names one.
async fn indexer_section(settings: &Settings, deployment: &Deployment) -> Section {
    let checks = match deployment.game().index_source() {
        IndexSource::Denshokan { minter } => match settings.denshokan_client() {
            Ok(None) => vec![Check::new(
                "denshokan",
                Status::Skipped,
                "no Denshokan API configured for this deployment (deployment.indexer_url)",
            )],
            Ok(Some(client)) => {
                let client = Arc::new(client);
                let health = match client.health().await {
                    Ok(h) => Check::new(
                        "denshokan health",
                        if h.ok {
                            Status::Ok
                        } else {
                            Status::Unreachable
                        },
                        format!(
                            "status {}, database {}, latest block {}",
                            h.status,
                            if h.db { "up" } else { "down" },
                            h.latest_block.map_or("unknown".into(), |b| b.to_string())
                        ),
                    ),
                    Err(e) => Check::new("denshokan health", Status::Unreachable, e.to_string()),
                };
                let index = DenshokanIndex::new(client, DEATH_MOUNTAIN_GAME_ID, minter);
                vec![health, leaderboard("denshokan leaderboard", &index).await]
            }
            Err(e) => vec![Check::new("denshokan", Status::Mismatch, format!("{e:#}"))],
        },
        IndexSource::Torii(a) => match settings
            .torii_options(a)
            .and_then(|o| o.map(ToriiClient::new).transpose())
        {
            Ok(Some(torii)) => vec![leaderboard("torii leaderboard", &torii).await],
            Ok(None) => vec![Check::new(
                "torii",
                Status::Skipped,
                "no Torii configured (torii.url)",
            )],
            Err(e) => vec![Check::new("torii", Status::Mismatch, e)],
        },
    };
    Section {
        name: "indexer".into(),
        checks,
    }
}

/// One leaderboard page from `index`: whether the indexer answers the query the tools send.
async fn leaderboard(name: &str, index: &dyn GameIndex) -> Check {
    let query = LeaderboardQuery {
        scope: Scope::All,
        after_rank: 0,
        limit: LEADERBOARD_ROWS,
        live_only: false,
        owner: None,
    };
    match index.leaderboard(&query).await {
        Ok(f) => Check::new(
            name,
            Status::Ok,
            format!(
                "{} rows on the first page{}",
                f.page.rows.len(),
                f.page.total.map_or(String::new(), |t| format!(" of {t}"))
            ),
        ),
        Err(e) => Check::new(name, Status::Unreachable, e.to_string()),
    }
}

/// `serve`'s ABI check: compares the deployment with the bindings and refuses, before signing
/// (or reading a view), the calls whose entrypoints differ. A contract whose class could not be
/// read is checked again before a write reaches it, and its writes are refused meanwhile.
pub(crate) async fn gate_writes(client: ChainClient, profile: &str) -> ChainClient {
    let abi = check::check_abi(
        &**client.provider(),
        client.deployment(),
        Some(&cache_dir()),
    )
    .await;
    let command = check_command(profile);
    if let Some(why) = abi.unreachable() {
        tracing::warn!(error = %why, "ABI check: a contract's class could not be read; it is checked again before a write reaches it, and `{command}` shows it");
    }
    for d in abi.differences() {
        tracing::warn!(
            contract = %d.contract,
            entrypoint = %d.entrypoint,
            ours = %d.ours,
            deployed = d.deployed.as_deref().unwrap_or("none"),
            write = d.write,
            "ABI check: the deployed entrypoint differs from the bindings"
        );
    }
    let gate = abi.gate(&command);
    if gate.is_clear() {
        tracing::info!(
            fetched = abi.classes_fetched,
            "ABI check: the deployed entrypoints match the bindings"
        );
    } else if gate.refused_count() > 0 {
        tracing::warn!(
            refused = gate.refused_count(),
            "ABI check: calls to entrypoints that differ are refused; `{command}` lists them"
        );
    }
    // The settings new games are minted with, asked where the game's class can say.
    let settings = check::probe::settings_check(
        &**client.provider(),
        client.deployment().game_address(),
        abi.settings_view,
        client.settings_id(),
    )
    .await;
    let missing = settings.status == Status::Mismatch;
    if missing {
        tracing::warn!("{}: new games are refused before signing", settings.detail);
    }
    let recheck = check::Recheck::new(&client, Some(cache_dir()), command);
    client
        .with_abi_gate(gate, Some(Arc::new(recheck)))
        .with_missing_settings(missing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::tests::load;

    #[tokio::test]
    async fn a_v2_profile_without_an_indexer_url_skips_the_denshokan_checks() {
        let mut settings = load(Some("mainnet"), &[]).unwrap();
        settings.deployment.indexer_url = None;
        let deployment = settings.deployment().unwrap();
        let section = indexer_section(&settings, &deployment).await;
        assert_eq!(section.checks.len(), 1, "{:?}", section.checks);
        let only = &section.checks[0];
        assert_eq!(
            (only.name.as_str(), only.status),
            ("denshokan", Status::Skipped)
        );
        assert!(
            only.detail.contains("deployment.indexer_url"),
            "{}",
            only.detail
        );
    }
}
