//! `serve`: MCP on stdio or streamable HTTP over the profile's chain, until stdin closes or a
//! stop signal; writes in flight get their grace period.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::config::Settings;
use anyhow::Context as _;
use base::home;
use chain::ChainError;
use chain::generation::IndexSource;
use chain::journal::Journal;
use chain::{ChainClient, ConnectOptions};
use indexer::torii::ToriiClient;
use mcp::http::{self, HttpOptions, ServedBy, TokenTable};
use mcp::{Connect, LsServer, PendingChain};
use rmcp::ServiceExt;
use sim::SimOptions;
use starknet::core::types::Felt;

use super::args::{ServeArgs, SettingsArgs};
use super::devnet::{deploy, ensure_devnet};
use super::servers::{server_options, sim_server};
use super::signing::wallet_signer;

/// `serve`: MCP over the profile's chain, on stdio or (`--http`) streamable HTTP.
pub(crate) async fn serve(args: &SettingsArgs, serve: ServeArgs) -> anyhow::Result<()> {
    let (mut settings, env) = args.load()?;
    if serve.http.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        let exe = std::env::current_exe().unwrap_or_else(|_| "loot-survivor-mcp".into());
        eprint!(
            "{}",
            base::terminal_note::terminal_note(&exe, &settings.profile)
        );
    }
    if settings.is_sim() {
        settings.sim.fresh |= serve.fresh;
        anyhow::ensure!(!serve.with_devnet, "--with-devnet needs the devnet profile");
        let owners = sim_owners_path(&settings)?;
        let limits = owners
            .as_ref()
            .map(|p| p.with_extension("").with_extension("limits.json"));
        let http = http_options(&settings, &serve, None, owners, limits, 0)?;
        tracing::info!(
            profile = %settings.profile,
            transport = if serve.http.is_some() { "http" } else { "stdio" },
            "serving MCP on the embedded practice chain (no network, no key)"
        );
        let server = sim_server(&settings, true)?;
        return match http {
            Some(http) => serve_http(server, http).await,
            None => serve_until_stopped(server, &settings, serve.watch).await,
        };
    }
    let devnet = if serve.with_devnet {
        anyhow::ensure!(
            settings.profile == "devnet",
            "--with-devnet needs the devnet profile"
        );
        let port = settings.chain.rpc_url.port().unwrap_or(5050);
        let (devnet, url) = ensure_devnet(port).await?;
        deploy(&settings, &env, url, None).await?;
        devnet
    } else {
        None
    };
    let (account_address, signer) = wallet_signer(&settings, &env)?;
    let profile_dir = home::profile_dir(&settings.profile).context("the data directory")?;
    let http = http_options(
        &settings,
        &serve,
        Some(account_address),
        Some(profile_dir.join("http-owners.json")),
        Some(profile_dir.join("http-limits.json")),
        settings.policy.max_fee_per_tx,
    )?;
    let journal = Arc::new(Journal::open(
        &home::profile_dir(&settings.profile).context("the data directory")?,
        account_address,
    )?);
    if let Some(p) = journal.path() {
        tracing::info!(journal = %p.display(), "journal opened");
    }
    let deployment = settings.deployment()?;
    let policy = Arc::new(
        settings
            .deployment_policy_guard(&deployment, account_address)
            .with_log(journal.clone()),
    );
    let played = deployment.clone();
    let opts = ConnectOptions {
        rpc_url: settings.chain.rpc_url.clone(),
        request_timeout: Duration::from_millis(settings.chain.request_timeout_ms),
        chain_id: settings.expected_chain_id()?,
        spec_versions: settings.chain.spec_versions.clone(),
        deployment,
        account_address,
        signer,
        settings_id: settings.chain.settings_id,
        poll: Duration::from_millis(settings.tx.poll_interval_ms),
        fee_multiplier: settings.tx.fee_multiplier,
        policy,
        vrf: settings.chain.vrf,
    };
    let (rpc, unchecked) = (opts.rpc_host(), opts.checks());
    let transport = if http.is_some() { "http" } else { "stdio" };
    let again = ConnectAgain::new(&settings, &opts, &journal)?;
    let server = match ChainClient::connect(opts).await {
        Ok(client) => {
            let client = again.set_up(client).await?;
            connected_server(&settings, client, &journal, transport)?
        }
        Err(e) if e.is_unreachable() => {
            let pending = PendingChain::new(rpc, unchecked, again.into_connect());
            unreachable_server(&settings, &played, account_address, pending, &e, &journal)?
        }
        Err(e) => return Err(e.into()),
    };
    let served = match http {
        Some(http) => serve_http(server, http).await,
        None => serve_until_stopped(server, &settings, serve.watch).await,
    };
    journal.flush();
    if let Some(devnet) = devnet {
        devnet.stop().await;
        tracing::info!("stopped starknet-devnet");
    }
    served
}

/// The server over a connected chain client (set up by [`ConnectAgain::set_up`]) and the indexer
/// the profile names (Torii on v1, Denshokan and GameCore's events on v2).
fn connected_server(
    settings: &Settings,
    client: Arc<ChainClient>,
    journal: &Arc<Journal>,
    transport: &str,
) -> anyhow::Result<LsServer> {
    tracing::info!(
        profile = %settings.profile,
        account = %format!("{:#x}", client.account_address()),
        transport,
        "serving MCP"
    );
    let account = client.account_address();
    let torii = match client.deployment().game().index_source() {
        IndexSource::Torii(addresses) => settings
            .torii_options(addresses)
            .and_then(|o| o.map(ToriiClient::new).transpose())
            .map_err(anyhow::Error::msg)?,
        IndexSource::Denshokan { .. } => None,
    };
    let v2_index = settings.v2_index(client.deployment(), client.clone())?;
    let mut server = LsServer::new(client, server_options(settings))
        .with_detail(settings.server.detail)
        .with_advice(settings.server.advice)
        .with_combined_moves(settings.server.combined_moves)
        .with_wallet(account)
        .with_journal(journal.clone());
    if let Some(torii) = torii {
        tracing::info!(
            namespace = torii.short_namespace(),
            "Torii indexer configured"
        );
        server = server.with_torii(Arc::new(torii));
    }
    if let Some(index) = v2_index {
        say_v2_index(&index);
        server = server.with_index(Arc::new(index));
    }
    Ok(server)
}

/// The server when the node could not be reached at start (`failed`, said once on stderr): each
/// call that needs the chain connects first, and answers why it cannot while the node stays
/// unreachable; the indexer the profile names is there from the start (Torii on v1; the Denshokan
/// API on v2, its histories read through the pending chain).
fn unreachable_server(
    settings: &Settings,
    deployment: &chain::Deployment,
    account: Felt,
    pending: PendingChain,
    failed: &ChainError,
    journal: &Arc<Journal>,
) -> anyhow::Result<LsServer> {
    tracing::warn!(
        profile = %settings.profile,
        rpc = %base::redact::shown_url(&settings.chain.rpc_url),
        "{}; serving anyway: each call that needs the chain tries to connect again and answers \
         this while the node stays unreachable",
        pending.unreachable(failed)
    );
    let pending = Arc::new(pending);
    let mut server = LsServer::new(pending.clone(), server_options(settings))
        .with_detail(settings.server.detail)
        .with_advice(settings.server.advice)
        .with_combined_moves(settings.server.combined_moves)
        .with_wallet(account)
        .with_journal(journal.clone());
    if let IndexSource::Torii(addresses) = deployment.game().index_source()
        && let Some(torii) = settings
            .torii_options(addresses)
            .and_then(|o| o.map(ToriiClient::new).transpose())
            .map_err(anyhow::Error::msg)?
    {
        server = server.with_torii(Arc::new(torii));
    }
    if let Some(index) = settings.v2_index(deployment, pending)? {
        say_v2_index(&index);
        server = server.with_index(Arc::new(index));
    }
    Ok(server)
}

/// Logs what answers the indexer tools on v2: the Denshokan API, if the profile names one, and
/// the chain's GameCore events.
fn say_v2_index(index: &indexer::denshokan::DenshokanIndex) {
    if index.has_api() {
        tracing::info!(
            "the Denshokan API and the chain's GameCore events answer the indexer tools"
        );
    } else {
        tracing::warn!(
            "no Denshokan API is configured for this deployment (deployment.indexer_url, \
             LS_DENSHOKAN_URL): the leaderboard and owners' games are refused; game histories \
             are read from the chain"
        );
    }
}

/// What connecting takes, kept to connect again after a failure at start, and how a connected
/// client is set up (journal, fee tokens, following, the archive mark, the ABI check, pending
/// transactions).
#[derive(Clone)]
struct ConnectAgain {
    opts: Arc<ConnectOptions>,
    journal: Arc<Journal>,
    fee_tokens: Vec<(String, Felt)>,
    follow: chain::Follow,
    ws_url: Option<url::Url>,
    token_count_storage: String,
    archive: Option<chain::Archive>,
    profile: String,
}

impl ConnectAgain {
    fn new(
        settings: &Settings,
        opts: &ConnectOptions,
        journal: &Arc<Journal>,
    ) -> anyhow::Result<Self> {
        Ok(Self {
            opts: Arc::new(opts.clone()),
            journal: journal.clone(),
            fee_tokens: settings.fee_tokens()?,
            follow: settings.tx.follow,
            ws_url: settings.tx.ws_url.clone(),
            token_count_storage: settings.chain.token_count_storage.clone(),
            archive: settings.archive(),
            profile: settings.profile.clone(),
        })
    }

    /// The client as the server uses it: writes whose entrypoints differ from the deployed
    /// classes are refused (the ABI check), an unset VRF source is looked for (and logged), and
    /// transactions an earlier run left pending are followed.
    async fn set_up(&self, client: ChainClient) -> Result<Arc<ChainClient>, ChainError> {
        let client = super::check::gate_writes(client, &self.profile).await;
        super::check::vrf_at_start(&client, &self.profile).await;
        let client = Arc::new(
            client
                .with_journal(self.journal.clone())
                .with_fee_tokens(self.fee_tokens.clone())
                .with_follow(self.follow, self.ws_url.as_ref())
                .with_token_count_storage(&self.token_count_storage)?
                .with_archive(self.archive.clone()),
        );
        let following = client.clone();
        tokio::spawn(async move {
            let n = following.follow_pending().await;
            if n > 0 {
                tracing::info!(
                    n,
                    "followed the transactions left pending by an earlier run"
                );
            }
        });
        Ok(client)
    }

    /// A connection attempt for [`PendingChain`].
    fn into_connect(self) -> Connect {
        Box::new(move || {
            let again = self.clone();
            Box::pin(async move {
                let client = ChainClient::connect((*again.opts).clone()).await?;
                again.set_up(client).await
            })
        })
    }
}

/// The HTTP options of `serve --http`, checked before anything else starts: a non-loopback
/// address without tokens is refused here.
pub(crate) fn http_options(
    settings: &Settings,
    serve: &ServeArgs,
    account: Option<starknet::core::types::Felt>,
    owners: Option<PathBuf>,
    limits: Option<PathBuf>,
    max_fee_per_tx: u128,
) -> anyhow::Result<Option<HttpOptions>> {
    let Some(addr) = serve.http else {
        return Ok(None);
    };
    let file = settings
        .http
        .tokens_file
        .as_deref()
        .map(base::home::resolve);
    let env = std::env::var(http::TOKENS_ENV).ok();
    let tokens = TokenTable::load(
        file.as_deref(),
        env.as_deref(),
        &ServedBy {
            profile: &settings.profile,
            account,
        },
        &settings.http,
    )?;
    http::check_exposure(addr, &tokens)?;
    Ok(Some(HttpOptions {
        addr,
        settings: settings.http.clone(),
        tokens,
        owners,
        limits,
        max_fee_per_tx,
        grace: Duration::from_millis(settings.server.shutdown_grace_ms),
    }))
}

/// Where `serve --http` keeps adventurer owners on sim: beside the world file (none for a world
/// kept in memory).
pub(crate) fn sim_owners_path(settings: &Settings) -> anyhow::Result<Option<PathBuf>> {
    if !settings.sim.persist {
        return Ok(None);
    }
    let dir = base::home::profile_dir("sim")
        .context("cannot create the sim folder in the data directory (set LS_HOME)")?;
    let world = SimOptions::state_path(&dir, settings.sim.randomness());
    Ok(Some(world.with_extension("owners.json")))
}

/// Serves MCP over streamable HTTP until SIGTERM/SIGINT.
pub(crate) async fn serve_http(server: LsServer, opts: HttpOptions) -> anyhow::Result<()> {
    let signals = StopSignals::new()?;
    http::serve(server, opts, async move {
        let signal = signals.recv().await;
        tracing::info!(signal, "stop signal");
    })
    .await?;
    Ok(())
}

/// Serves MCP on stdio until stdin closes or SIGTERM/SIGINT arrives. On a signal no new write is
/// taken, and the writes in flight get `server.shutdown_grace_ms` to reach their answer.
pub(crate) async fn serve_until_stopped(
    server: LsServer,
    settings: &Settings,
    watch: Option<std::net::SocketAddr>,
) -> anyhow::Result<()> {
    let (page_stop, page_stopped) = tokio::sync::oneshot::channel::<()>();
    if let Some(addr) = watch {
        let stopped = async move {
            let _ = page_stopped.await;
        };
        let at = http::serve_watch(Arc::new(server.clone()), addr, &settings.http, stopped).await?;
        eprintln!("loot-survivor-mcp: the live page is at http://{at}/watch");
    }
    let grace = Duration::from_millis(settings.server.shutdown_grace_ms);
    let drain = server.drain();
    // Registered before the handshake, so no signal falls between serving and listening.
    let signals = StopSignals::new()?;
    let running = server.serve(mcp::transport::stdio()).await?;
    let cancel = running.cancellation_token();
    let stopper = tokio::spawn(async move {
        let signal = signals.recv().await;
        tracing::info!(
            signal,
            "stopping: no new writes; waiting for the writes in flight"
        );
        let left = drain.stop(grace).await;
        if left > 0 {
            tracing::warn!(
                left,
                "writes still in flight at the end of the grace period"
            );
        }
        // Let the last answers reach stdout before the transport closes.
        tokio::time::sleep(Duration::from_millis(200)).await;
        cancel.cancel();
    });
    let quit = running.waiting().await;
    stopper.abort();
    let _ = page_stop.send(());
    tracing::info!("MCP service stopped");
    quit?;
    Ok(())
}

/// SIGTERM and SIGINT (Ctrl-C elsewhere), listened to from creation on.
struct StopSignals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl StopSignals {
    fn new() -> std::io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Self {
                term: signal(SignalKind::terminate())?,
                int: signal(SignalKind::interrupt())?,
            })
        }
        #[cfg(not(unix))]
        Ok(Self {})
    }

    /// The name of the first stop signal received.
    async fn recv(mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.int.recv() => "SIGINT",
                _ = self.term.recv() => "SIGTERM",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}
