//! `serve --http ADDR`: the MCP server over rmcp's streamable HTTP transport, for operators who
//! serve many agents from one process. One [`LsServer`] (one account, one nonce queue, one
//! journal) is shared by every session; each session runs behind a [`guard::Guarded`] hook that
//! keeps an identity to its own adventurers and limits. The endpoint is `/mcp`, the live page
//! `/watch` (behind the same gate); `/healthz` and `/readyz` answer load balancers without
//! authentication.

mod gate;
mod guard;
mod limits;
mod owners;
mod replies;
mod settings;
mod tokens;
mod watch;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::routing::get;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

pub use guard::{Guarded, Shared};
pub use limits::Limits;
pub use owners::Owners;
pub use settings::HttpSettings;
pub use tokens::{Identity, ServedBy, TOKENS_ENV, TokenError, TokenTable, hash_hex};

use crate::LsServer;

/// Why the HTTP server did not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// A non-loopback address without authentication.
    #[error(
        "refusing to serve on {0} without authentication: a server that signs transactions must \
         not be open to the network. Configure bearer tokens (http.tokens_file or {TOKENS_ENV}; \
         `loot-survivor-mcp token new --identity NAME` makes one) or serve on 127.0.0.1"
    )]
    Exposed(SocketAddr),
    /// The token settings are invalid.
    #[error(transparent)]
    Tokens(#[from] TokenError),
    /// Binding, serving or the ownership file failed.
    #[error("{0}")]
    Io(String),
}

/// What `serve --http` needs besides the server.
#[derive(Debug)]
pub struct HttpOptions {
    /// The address to listen on.
    pub addr: SocketAddr,
    /// The `[http]` settings.
    pub settings: HttpSettings,
    /// The accepted tokens (empty: no authentication, loopback only).
    pub tokens: TokenTable,
    /// Where adventurer ownership is kept (in memory without a path).
    pub owners: Option<PathBuf>,
    /// Where the per-identity day counters are kept (in memory without a path).
    pub limits: Option<PathBuf>,
    /// The account policy's per-transaction fee cap, the worst case of one write (0 on sim).
    pub max_fee_per_tx: u128,
    /// How long writes in flight get when stopping.
    pub grace: Duration,
}

/// Refuses a non-loopback address when no token is configured.
pub fn check_exposure(addr: SocketAddr, tokens: &TokenTable) -> Result<(), HttpError> {
    if !addr.ip().is_loopback() && tokens.is_empty() {
        return Err(HttpError::Exposed(addr));
    }
    Ok(())
}

/// Serves `server` over streamable HTTP until `stop` completes, then takes no new write, gives
/// the writes in flight `opts.grace`, and closes the sessions.
pub async fn serve(
    server: LsServer,
    opts: HttpOptions,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<(), HttpError> {
    check_exposure(opts.addr, &opts.tokens)?;
    let owners = Owners::open(opts.owners).map_err(|e| {
        HttpError::Io(format!(
            "the adventurer owners file cannot be read ({e}); deleting it starts ownership over \
             (each identity then acts on the games it creates next, or is granted in the token file)"
        ))
    })?;
    if let Some(p) = owners.path() {
        tracing::info!(owners = %p.display(), "adventurer owners file");
    }
    let limits = Limits::open(opts.limits, opts.max_fee_per_tx).map_err(|e| {
        HttpError::Io(format!(
            "the identity counters file cannot be read ({e}); deleting it starts today's \
                 counts over"
        ))
    })?;
    if let Some(p) = limits.path() {
        tracing::info!(limits = %p.display(), "identity counters file");
    }
    let shared = Arc::new(Shared {
        owners,
        limits,
        open: opts.tokens.is_empty(),
    });
    let drain = server.drain();
    let inner = Arc::new(server);
    let cancel = CancellationToken::new();
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(cancel.child_token())
        .with_max_request_body_bytes(opts.settings.max_request_bytes);
    let hosts = &opts.settings.allowed_hosts;
    if !hosts.is_empty() {
        let loopback = ["localhost", "127.0.0.1", "::1"].map(String::from);
        config = config.with_allowed_hosts(loopback.into_iter().chain(hosts.iter().cloned()));
    } else if !opts.addr.ip().is_loopback() {
        config = config.disable_allowed_hosts();
    }
    let watch = Arc::new(watch::Watch {
        server: inner.clone(),
        shared: shared.clone(),
        stop: cancel.child_token(),
        stdio: false,
    });
    let service = StreamableHttpService::new(
        move || Ok(Guarded::new(inner.clone(), shared.clone())),
        LocalSessionManager::default().into(),
        config,
    );
    let authenticated = !opts.tokens.is_empty();
    let token_count = opts.tokens.len();
    let gate = Arc::new(gate::Gate {
        tokens: opts.tokens,
        origins: opts
            .settings
            .allowed_origins
            .iter()
            .map(|o| gate::normalize_origin(o))
            .collect(),
        local: Identity::local(&opts.settings),
    });
    let ready = drain.clone();
    let app = Router::new()
        .nest_service("/mcp", service)
        .route_layer(axum::middleware::from_fn_with_state(
            opts.settings.max_request_bytes,
            replies::shape,
        ))
        .route_layer(axum::middleware::from_fn_with_state(
            gate.clone(),
            gate::check,
        ))
        .merge(
            watch::routes(watch)
                .route_layer(axum::middleware::from_fn_with_state(gate, gate::check)),
        )
        .route("/healthz", get(|| async { "ok\n" }))
        .route(
            "/readyz",
            get(move || {
                let stopping = ready.stopping();
                async move {
                    if stopping {
                        (StatusCode::SERVICE_UNAVAILABLE, "stopping\n")
                    } else {
                        (StatusCode::OK, "ready\n")
                    }
                }
            }),
        );
    let listener = tokio::net::TcpListener::bind(opts.addr)
        .await
        .map_err(|e| HttpError::Io(format!("cannot listen on {}: {e}", opts.addr)))?;
    let local = listener
        .local_addr()
        .map_err(|e| HttpError::Io(e.to_string()))?;
    tracing::info!(
        url = %format!("http://{local}/mcp"),
        authenticated,
        tokens = token_count,
        "serving MCP over streamable HTTP"
    );
    tracing::info!(url = %format!("http://{local}/watch"), "the live page");
    let grace = opts.grace;
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        stop.await;
        tracing::info!("stopping: no new writes; waiting for the writes in flight");
        let left = drain.stop(grace).await;
        if left > 0 {
            tracing::warn!(
                left,
                "writes still in flight at the end of the grace period"
            );
        }
        cancel.cancel();
    })
    .await
    .map_err(|e| HttpError::Io(e.to_string()))?;
    tracing::info!("HTTP server stopped");
    Ok(())
}

/// Serves only the live page (`/watch`) on loopback `addr`, open, for a server whose MCP goes over
/// stdio; returns the address it listens on. It serves until `stop` completes.
pub async fn serve_watch(
    server: Arc<LsServer>,
    addr: SocketAddr,
    settings: &HttpSettings,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<SocketAddr, HttpError> {
    let cancel = CancellationToken::new();
    if !addr.ip().is_loopback() {
        return Err(HttpError::Exposed(addr));
    }
    let shared = Arc::new(Shared {
        owners: Owners::default(),
        limits: Limits::open(None, 0).map_err(|e| HttpError::Io(e.to_string()))?,
        open: true,
    });
    let gate = Arc::new(gate::Gate {
        tokens: TokenTable::default(),
        origins: Vec::new(),
        local: Identity::local(settings),
    });
    let app = watch::routes(Arc::new(watch::Watch {
        server,
        shared,
        stop: cancel.child_token(),
        stdio: true,
    }))
    .route_layer(axum::middleware::from_fn_with_state(gate, gate::check));
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| HttpError::Io(format!("cannot listen on {addr}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| HttpError::Io(e.to_string()))?;
    tokio::spawn(async move {
        let served = axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            stop.await;
            cancel.cancel();
        })
        .await;
        if let Err(e) = served {
            tracing::warn!(error = %e, "the live page stopped");
        }
    });
    Ok(local)
}
