//! `session new|status|revoke`: the player approves a Controller session key for this profile in the
//! Cartridge keychain; the key stays here, encrypted. `new` waits for the keychain's callback on a
//! local port and polls Cartridge's API at the same time, then checks the session on chain.

use std::io::Write as _;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::config::Settings;
use anyhow::{Context as _, bail};
use axum::extract::{RawQuery, State};
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base::home;
use chain::Deployment;
use chain::controller::policies::{
    contract_labels, deployment_mismatch, deployment_uses_vrf, describe, session_policies,
};
use chain::controller::state::{SessionProblem, SessionRef, SessionState, read_session_ref_state};
use chain::manifest::{GameAddresses, read_manifest};
use game::felt::parse_felt;
use starknet::core::types::Felt;
use starknet::providers::JsonRpcClient;
use starknet::providers::jsonrpc::HttpTransport;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use wallet::session::approval::{
    ApprovalError, ApprovalLimit, ApprovalRequest, REDIRECT_QUERY_NAME, approval_url, callback_uri,
    keychain_rpc_url, parse_callback, parse_poll_response, poll_request, query_value,
};
use wallet::session::{ApprovedSession, RecordState, SessionStore};
use wallet::session_password;

use super::args::{SessionNewArgs, SettingsArgs};

/// Shortest and longest session lifetimes accepted (as controller-cli's `--expires`).
const MIN_LIFETIME: Duration = Duration::from_secs(60);
const MAX_LIFETIME: Duration = Duration::from_secs(365 * 86_400);
/// Pause between polls of the API (each poll is itself held up to about two minutes).
const POLL_PAUSE: Duration = Duration::from_secs(2);

/// `session new`: a fresh key, the approval URL, the approval, and the chain's confirmation.
pub(crate) async fn session_new(args: &SettingsArgs, opts: &SessionNewArgs) -> anyhow::Result<()> {
    let (settings, env) = args.load()?;
    if settings.is_sim() {
        bail!(
            "the sim profile has no chain: choose a profile with --profile (sepolia, mainnet, …)"
        );
    }
    let chain_id = settings.expected_chain_id()?;
    let deployment = settings.deployment()?;
    let policies = session_policies(&deployment, session_vrf(&settings, &deployment))?;
    let password = session_password(&settings.wallet, &env)?;
    let lifetime = parse_duration(&opts.expires)?;
    if !(MIN_LIFETIME..=MAX_LIFETIME).contains(&lifetime) {
        bail!("--expires must be between 1 minute and 365 days");
    }
    let wait = parse_duration(&opts.wait)?;
    let chain_wait = parse_duration(&opts.chain_wait)?;
    let expires_at = unix_now() + lifetime.as_secs();

    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .context("cannot listen on 127.0.0.1 for the keychain's callback")?;
    let port = listener.local_addr()?.port();
    // `localhost` may resolve to ::1 in the browser: listen there too when the system has IPv6.
    let listener6 = TcpListener::bind(("::1", port)).await.ok();

    let store =
        SessionStore::at(home::profile_dir(&settings.profile).context("the data directory")?);
    if let Some(old) = store.record()? {
        eprintln!(
            "the stored session (key {}) stays in use until the new one is approved",
            old.public_key
        );
    }
    if let Some(waiting) = store.pending_record()? {
        eprintln!(
            "the session that was waiting for approval (key {}) is replaced",
            waiting.public_key
        );
    }
    let (keychain_rpc, replaced) = keychain_rpc_url(&settings.chain.rpc_url, chain_id)?;
    if replaced {
        eprintln!(
            "the profile's RPC URL carries a credential, which stays on this machine: the keychain \
             registers the session through {keychain_rpc}"
        );
    }
    let pending = store.begin(chain_id, &policies, expires_at, password.as_bytes())?;
    let callback = callback_uri(port);
    let approvals: Vec<ApprovalLimit> = deployment
        .game()
        .ticket_approve()
        .map(|rule| ApprovalLimit {
            token: rule.ticket,
            spender: rule.dungeon,
            amount: rule.amount,
        })
        .into_iter()
        .collect();
    let labels = contract_labels(&deployment);
    let url = approval_url(&ApprovalRequest {
        keychain_url: &opts.keychain_url,
        public_key: pending.public_key,
        policies: &policies,
        approvals: &approvals,
        labels: &labels,
        rpc_url: &keychain_rpc,
        expires_at,
        callback_uri: &callback,
    });
    println!(
        "Open this URL and approve the session with your Controller (for {}, generation {}):",
        describe(&deployment),
        deployment.generation()
    );
    println!("{url}");
    println!(
        "(session public key {:#x}, {} allowed entrypoints, expires at {expires_at}; waiting up to {})",
        pending.public_key,
        policies.policies().len(),
        opts.wait
    );
    std::io::stdout().flush().ok();
    if !opts.no_browser && open_browser(url.as_str()) {
        eprintln!("opened the URL in a browser");
    }

    let (tx, mut rx) = mpsc::channel::<ApprovedSession>(4);
    let state = CallbackState {
        tx,
        expires_at,
        session_key_guid: pending.session_key_guid,
        origin: opts.keychain_url.origin().ascii_serialization(),
    };
    let router = axum::Router::new()
        .route("/callback", axum::routing::any(on_callback))
        .with_state(state);
    let mut servers = vec![tokio::spawn(
        axum::serve(listener, router.clone()).into_future(),
    )];
    if let Some(l6) = listener6 {
        servers.push(tokio::spawn(axum::serve(l6, router).into_future()));
    }
    let approved = tokio::select! {
        a = rx.recv() => a.context("the callback server stopped")?,
        a = poll_api(&opts.api_url, pending.session_key_guid, chain_id) => a?,
        () = tokio::time::sleep(wait) => bail!(
            "no approval within {}; the session stays pending: run `loot-survivor-mcp session new` again",
            opts.wait
        ),
        _ = tokio::signal::ctrl_c() => bail!("interrupted; the session stays pending"),
    };
    for s in servers {
        s.abort();
    }
    eprintln!("approval received for account {:#x}", approved.address);
    let record = store.approve(&approved)?;
    let signer = store.load_signer(chain_id, password.as_bytes())?;
    let provider = JsonRpcClient::new(HttpTransport::new(settings.chain.rpc_url.clone()));
    let state = wait_on_chain(&provider, SessionRef::of(&signer), chain_wait).await?;
    match state.problem(unix_now()) {
        None => {
            println!(
                "session ready: account {:#x}{}, expires at {} (unix seconds), {} allowed entrypoints",
                signer.address(),
                record
                    .username
                    .as_deref()
                    .map(|u| format!(" ({u})"))
                    .unwrap_or_default(),
                signer.session().expires_at,
                signer.policies().policies().len()
            );
            Ok(())
        }
        Some(p) => bail!("{p} [{}]; {}", p.code(), advice(&p)),
    }
}

/// `session status`: the stored record and what the chain says about it (no password needed).
pub(crate) async fn session_status(args: &SettingsArgs) -> anyhow::Result<()> {
    let (settings, _) = args.load()?;
    let store =
        SessionStore::at(home::profile_dir(&settings.profile).context("the data directory")?);
    let pending = store.pending_record()?;
    let Some(record) = store.record()?.or_else(|| pending.clone()) else {
        println!(
            "no Controller session stored for profile {0}: make one with `loot-survivor-mcp \
             session new --profile {0}`",
            settings.profile
        );
        return Ok(());
    };
    if let Some(p) = pending.filter(|p| p.public_key != record.public_key) {
        println!(
            "a new session (key {}) is waiting for approval: this one stays in use until then",
            p.public_key
        );
    }
    let state = match record.state {
        RecordState::Pending => "pending (waiting for approval)",
        RecordState::Approved => "approved",
    };
    println!("state: {state}");
    println!("chain: {}", record.chain_id);
    if let Some(a) = &record.address {
        println!("account: {a}");
    }
    if let Some(u) = &record.username {
        println!("username: {u}");
    }
    println!("expires at: {} (unix seconds)", record.expires_at);
    println!("session public key: {}", record.public_key);
    println!("allowed entrypoints: {}", record.policies.len());
    // A profile whose deployment is incomplete still shows its session, unchecked against it.
    let other = match settings.deployment() {
        Ok(d) => deployment_mismatch(&d, &record.session_policies()?),
        Err(e) => {
            println!("deployment: cannot be read ({e:#}); the session is not checked against it");
            None
        }
    };
    let Some((address, owner_guid, session_hash)) = record.approved_parts()? else {
        if let Some(p) = &other {
            println!("problem: {p} [{}]; {}", p.code(), advice(p));
        }
        return Ok(());
    };
    println!("session hash: {session_hash:#x}");
    let provider = JsonRpcClient::new(HttpTransport::new(settings.chain.rpc_url.clone()));
    let session = SessionRef {
        address,
        session_hash,
        owner_guid,
        expires_at: record.expires_at,
    };
    match read_session_ref_state(&provider, &session)
        .await
        .map_err(chain::ChainError::from)
    {
        Ok(st) => {
            let class = st
                .class
                .map_or("unknown".to_string(), |c| c.version.to_string());
            println!(
                "on chain: class {class}, registered {}, revoked {}",
                st.registered, st.revoked
            );
            match other.or_else(|| st.problem(unix_now())) {
                None => println!("ready"),
                Some(p) => println!("problem: {p} [{}]; {}", p.code(), advice(&p)),
            }
        }
        Err(e) => {
            println!("on chain: cannot read ({e})");
            if let Some(p) = &other {
                println!("problem: {p} [{}]; {}", p.code(), advice(p));
            }
        }
    }
    Ok(())
}

/// `session revoke`: destroys the local key and says how the owner revokes it on chain too.
pub(crate) async fn session_revoke(args: &SettingsArgs) -> anyhow::Result<()> {
    let (settings, _) = args.load()?;
    let store =
        SessionStore::at(home::profile_dir(&settings.profile).context("the data directory")?);
    let parts = store
        .record()?
        .map(|r| r.approved_parts())
        .transpose()?
        .flatten();
    if !store.remove()? {
        println!(
            "no Controller session stored for profile {}",
            settings.profile
        );
        return Ok(());
    }
    println!("the local session key is destroyed: nobody can sign with it any more");
    if let Some((address, _, session_hash)) = parts {
        println!(
            "the account still lists the session until its owner revokes it: in the Cartridge \
             keychain's session settings, or by calling revoke_session({session_hash:#x}) from \
             the account {address:#x}"
        );
    }
    Ok(())
}

/// The game's addresses from the profile (manifest, then `chain.contracts` on top).
pub(crate) fn game_addresses(settings: &Settings) -> anyhow::Result<GameAddresses> {
    let mut tags = match settings.manifest_path() {
        Some(p) => read_manifest(&p)?,
        None => Default::default(),
    };
    for (tag, addr) in &settings.chain.contracts {
        tags.insert(tag.clone(), parse_felt(addr).map_err(anyhow::Error::msg)?);
    }
    Ok(GameAddresses::from_map(&tags)?)
}

/// Whether the profile's session asks for `request_random` (see [`deployment_uses_vrf`]), under
/// the server's own `policy.vrf` override.
pub(crate) fn session_vrf(settings: &Settings, deployment: &Deployment) -> bool {
    settings
        .policy
        .vrf_enabled(deployment_uses_vrf(deployment, settings.chain.vrf))
}

/// What the callback handler needs.
#[derive(Clone)]
struct CallbackState {
    tx: mpsc::Sender<ApprovedSession>,
    expires_at: u64,
    session_key_guid: Felt,
    origin: String,
}

/// `/callback`: the keychain's POST (JSON body), its redirect (`?startapp=` base64), and the
/// browser's CORS preflight before the POST (the keychain page is on another origin).
async fn on_callback(
    State(st): State<CallbackState>,
    method: Method,
    RawQuery(query): RawQuery,
    body: String,
) -> Response {
    let cors = [
        (header::ACCESS_CONTROL_ALLOW_ORIGIN, st.origin.clone()),
        (
            header::ACCESS_CONTROL_ALLOW_METHODS,
            "GET, POST, OPTIONS".into(),
        ),
        (header::ACCESS_CONTROL_ALLOW_HEADERS, "content-type".into()),
        (
            header::HeaderName::from_static("access-control-allow-private-network"),
            "true".into(),
        ),
    ];
    let payload = match method {
        Method::OPTIONS => return (StatusCode::NO_CONTENT, cors).into_response(),
        Method::POST => Some(body),
        Method::GET => query.and_then(|q| query_value(&q, REDIRECT_QUERY_NAME)),
        _ => return (StatusCode::METHOD_NOT_ALLOWED, cors).into_response(),
    };
    let Some(payload) = payload else {
        return (StatusCode::BAD_REQUEST, cors, "no session in the request").into_response();
    };
    match parse_callback(&payload, st.expires_at, st.session_key_guid) {
        Ok(approved) => {
            let _ = st.tx.try_send(approved);
            (
                StatusCode::OK,
                cors,
                "Session received by loot-survivor-mcp. You can close this window.",
            )
                .into_response()
        }
        Err(e) => {
            tracing::warn!(error = %e, "ignored a callback that carries no usable session");
            (StatusCode::BAD_REQUEST, cors, e.to_string()).into_response()
        }
    }
}

/// Polls `subscribeCreateSession` until the API names the session. Network trouble and GraphQL
/// errors are retried (the callback may still arrive); a revoked, foreign-chain or otherwise
/// authorized session ends the wait.
async fn poll_api(api: &url::Url, guid: Felt, chain_id: Felt) -> anyhow::Result<ApprovedSession> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(130))
        .build()?;
    let mut warned = false;
    loop {
        let outcome = match client
            .post(api.clone())
            .json(&poll_request(guid))
            .send()
            .await
        {
            Ok(r) if r.status().is_success() => match r.text().await {
                Ok(body) => match parse_poll_response(&body, chain_id) {
                    Ok(Some(a)) => return Ok(a),
                    Ok(None) => Ok(()),
                    Err(e @ ApprovalError::Api(_)) => Err(e.to_string()),
                    Err(e) => return Err(e.into()),
                },
                Err(e) => Err(e.to_string()),
            },
            Ok(r) => Err(format!("HTTP {}", r.status())),
            Err(e) => Err(e.without_url().to_string()),
        };
        if let Err(problem) = outcome {
            if warned {
                tracing::debug!(%problem, "polling the Cartridge API");
            } else {
                tracing::warn!(%problem, "cannot poll the Cartridge API; still waiting for the callback");
                warned = true;
            }
        }
        tokio::time::sleep(POLL_PAUSE).await;
    }
}

/// Reads the session's state, retrying while it is not registered yet (the approval's
/// transaction may still be on its way) for up to `wait`.
async fn wait_on_chain(
    provider: &JsonRpcClient<HttpTransport>,
    session: SessionRef,
    wait: Duration,
) -> anyhow::Result<SessionState> {
    let deadline = Instant::now() + wait;
    loop {
        let state = read_session_ref_state(provider, &session)
            .await
            .context("cannot read the session from the chain")?;
        let retry = matches!(
            state.problem(unix_now()),
            Some(SessionProblem::NotRegistered)
        );
        if !retry || Instant::now() >= deadline {
            return Ok(state);
        }
        tokio::time::sleep(Duration::from_secs(2).min(wait)).await;
    }
}

/// What to do about a session problem.
fn advice(p: &SessionProblem) -> &'static str {
    match p {
        SessionProblem::NotRegistered => {
            "the approval did not reach the chain, or the keychain registered other policies (a \
             method switched off): run `loot-survivor-mcp session new` and approve every method"
        }
        SessionProblem::Expired { .. } | SessionProblem::Revoked | SessionProblem::Missing => {
            "run `loot-survivor-mcp session new` for a new session"
        }
        SessionProblem::OtherDeployment { .. } => {
            "run `loot-survivor-mcp session new` with this profile: it asks for this deployment's \
             calls"
        }
        SessionProblem::UnsupportedClass { .. } => {
            "log in to the Controller once in the Cartridge keychain (it upgrades), then run \
             `loot-survivor-mcp session new`"
        }
    }
}

/// Opens `url` in a browser when one can be shown; says whether a browser was started.
fn open_browser(url: &str) -> bool {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(unix)
        && ["DISPLAY", "WAYLAND_DISPLAY"]
            .iter()
            .any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty()))
    {
        "xdg-open"
    } else {
        return false;
    };
    std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .is_ok()
}

/// `90s`, `10m`, `2h`, `7d`, `1w` (also `min`, `hr`, `day(s)`, `week(s)`).
pub(crate) fn parse_duration(s: &str) -> anyhow::Result<Duration> {
    let s = s.trim().to_ascii_lowercase();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit) = s.split_at(split);
    let n: u64 = n
        .parse()
        .with_context(|| format!("'{s}' is not a duration such as 90s, 10m, 2h or 7d"))?;
    let secs = match unit.trim() {
        "s" | "sec" | "secs" => 1,
        "m" | "min" | "mins" => 60,
        "h" | "hr" | "hrs" => 3600,
        "d" | "day" | "days" => 86_400,
        "w" | "week" | "weeks" => 604_800,
        _ => bail!("'{s}' is not a duration such as 90s, 10m, 2h or 7d"),
    };
    Ok(Duration::from_secs(n.saturating_mul(secs)))
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("7d").unwrap(), Duration::from_secs(604_800));
        assert_eq!(parse_duration("10m").unwrap(), Duration::from_secs(600));
        assert_eq!(parse_duration("90s").unwrap(), Duration::from_secs(90));
        assert_eq!(
            parse_duration("7days").unwrap(),
            Duration::from_secs(604_800)
        );
        assert!(parse_duration("7").is_err());
        assert!(parse_duration("d").is_err());
        assert!(parse_duration("1y").is_err());
    }
}
