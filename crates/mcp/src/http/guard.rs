//! The per-identity hook over HTTP: a [`ServerHandler`] around the one [`LsServer`] that every
//! session shares. Before a tool runs it checks that the request's identity (set by the
//! authentication gate) may act on the `adventurer_id` it names and has room under its own
//! limits; after `ls_new_game` mints, it records the identity as the new adventurer's owner, and
//! after a write of an identity with a daily fee budget it adds the fees the chain charged.
//! Results that list or describe other adventurers (`ls_list_adventurers`, `ls_get_tx`) are
//! filtered. The tools themselves are unchanged.
//!
//! Another identity's adventurer is refused with `POLICY_DENIED`, not `NOT_FOUND`: adventurer ids
//! are sequential and public on chain (the leaderboard lists them), so hiding their existence
//! would protect nothing, while "not yours" tells an agent (and the operator's log) exactly why.

use game::AdventurerId;
use std::sync::{Arc, OnceLock};

use axum::http::request::Parts;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, GetPromptRequestParams,
    GetPromptResponse, IntoContents, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::Value;

use super::limits::Limits;
use super::owners::Owners;
use super::tokens::Identity;
use crate::LsServer;
use crate::error::{ErrorCode, ToolError};

/// What all sessions of one HTTP server share.
#[derive(Debug)]
pub struct Shared {
    /// Who created which adventurer.
    pub owners: Owners,
    /// Per-identity write counters.
    pub limits: Limits,
    /// True when authentication is off (loopback, no tokens): one identity, no isolation.
    pub open: bool,
}

/// One HTTP session (or one stateless request) of the shared server.
#[derive(Debug, Clone)]
pub struct Guarded {
    inner: Arc<LsServer>,
    shared: Arc<Shared>,
    bound: Arc<OnceLock<String>>,
}

impl Guarded {
    /// A session over the shared server.
    pub fn new(inner: Arc<LsServer>, shared: Arc<Shared>) -> Self {
        Self {
            inner,
            shared,
            bound: Arc::default(),
        }
    }

    /// The identity the gate attached to this request; a session stays with its first identity.
    fn identity(&self, ctx: &RequestContext<RoleServer>) -> Result<Identity, ToolError> {
        let identity = ctx
            .extensions
            .get::<Parts>()
            .and_then(|p| p.extensions.get::<Identity>())
            .cloned()
            .ok_or_else(|| denied("this request carries no authenticated identity"))?;
        let bound = self.bound.get_or_init(|| identity.name.clone());
        if *bound != identity.name {
            tracing::warn!(session_identity = %bound, identity = %identity.name, "refused: a session used by a second identity");
            return Err(denied(
                "this session belongs to another identity; start a new session",
            ));
        }
        Ok(identity)
    }

    /// Refuses a read or a subscription of an adventurer the request's identity may not see.
    async fn may_follow(
        &self,
        uris: &[String],
        context: &RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let refused = |e: ToolError| McpError::invalid_request(e.message, None);
        for uri in uris {
            if let Some(id) = uri
                .strip_prefix("ls://adventurer/")
                .and_then(|id| AdventurerId::parse(id).ok())
            {
                let identity = self.identity(context).map_err(refused)?;
                self.check(&identity, id, "ls://adventurer")
                    .await
                    .map_err(refused)?;
            }
        }
        Ok(())
    }

    /// The world served now, as the backend names it (ownership is recorded per world).
    pub(super) async fn world(&self) -> Result<String, ToolError> {
        self.inner
            .backend
            .world()
            .await
            .map_err(crate::errors::from_chain)
    }

    /// The world `identity`'s ownership is judged in, or `None` when it need not be asked: an
    /// open server lets every identity use every adventurer.
    pub(super) async fn ownership_world(&self) -> Result<Option<String>, ToolError> {
        if self.shared.open {
            return Ok(None);
        }
        self.world().await.map(Some)
    }

    /// Whether `identity` may see and act on `adventurer_id`: an open server (`world` is `None`),
    /// a grant, or a game it created in `world`.
    pub(super) fn may_use(
        &self,
        identity: &Identity,
        adventurer_id: AdventurerId,
        world: Option<&str>,
    ) -> bool {
        let Some(world) = world else { return true };
        identity.granted.contains(&adventurer_id)
            || self.shared.owners.owner_of(adventurer_id, world).as_deref() == Some(&identity.name)
    }

    pub(super) async fn check(
        &self,
        identity: &Identity,
        adventurer_id: AdventurerId,
        what: &str,
    ) -> Result<(), ToolError> {
        if identity.granted.contains(&adventurer_id) {
            return Ok(());
        }
        let world = self.ownership_world().await?;
        if self.may_use(identity, adventurer_id, world.as_deref()) {
            return Ok(());
        }
        tracing::warn!(identity = %identity.name, %adventurer_id, what, "refused: another identity's adventurer");
        Err(denied(&format!(
            "adventurer {adventurer_id} does not belong to identity '{}'",
            identity.name
        ))
        .with_detail("adventurer_id", adventurer_id)
        .with_hint("act on the adventurers this identity created with ls_new_game (or was granted in the token file)"))
    }

    /// Runs the tool call with the checks around it.
    async fn guarded_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ToolError> {
        let identity = self.identity(&context)?;
        let tool = request.name.to_string();
        let adventurer_id = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("adventurer_id"))
            .and_then(|v| AdventurerId::from_json(v).ok());
        if let Some(id) = adventurer_id {
            self.check(&identity, id, &tool).await?;
        }
        let mints = tool == "ls_new_game" && adventurer_id.is_none();
        let writes = self.inner.is_write_tool(&tool);
        if writes {
            self.shared
                .limits
                .take(
                    &identity,
                    if tool == "ls_new_game" {
                        self.inner
                            .new_game_transactions(request.arguments.as_ref())
                    } else {
                        1
                    },
                )
                .inspect_err(|_| {
                    tracing::warn!(identity = %identity.name, tool, "refused: identity write limit");
                })?;
        }
        // Run to completion even if the client goes away, so a minted adventurer is recorded.
        let inner = self.inner.clone();
        let shared = self.shared.clone();
        let name = identity.name.clone();
        let payer = writes
            .then(|| identity.clone())
            .filter(|i| i.max_fee_per_day.is_some());
        let response = tokio::spawn(async move {
            let response = inner.call_tool(request, context).await;
            if mints
                && let Ok(CallToolResponse::Complete(result)) = &response
                && let Some(id) = minted_id(result)
            {
                let recorded = match inner.backend.world().await {
                    Ok(world) => shared.owners.record(id, &name, &world),
                    Err(e) => Err(std::io::Error::other(e.to_string())),
                };
                match recorded {
                    Ok(()) => tracing::info!(identity = %name, adventurer_id = %id, "new adventurer"),
                    Err(e) => tracing::error!(identity = %name, adventurer_id = %id, error = %e, "cannot save the adventurer's owner"),
                }
            }
            if let (Some(payer), Ok(CallToolResponse::Complete(result))) = (&payer, &response) {
                let fee = fees_of(&inner, result, shared.limits.max_fee_per_tx()).await;
                shared.limits.charge(payer, fee);
                tracing::debug!(identity = %payer.name, fee, "fee counted against the identity's budget");
            }
            response
        })
        .await
        .map_err(|e| ToolError::new(ErrorCode::RpcError, format!("the tool call failed: {e}")))?
        .map_err(|e| ToolError::new(ErrorCode::RpcError, e.message.to_string()))?;
        self.filter(&identity, &tool, response).await
    }

    /// Hides what another identity's adventurers did from results that could show it.
    async fn filter(
        &self,
        identity: &Identity,
        tool: &str,
        response: CallToolResponse,
    ) -> Result<CallToolResponse, ToolError> {
        let CallToolResponse::Complete(mut result) = response else {
            return Ok(response);
        };
        let Some(content) = result.structured_content.as_mut() else {
            return Ok(CallToolResponse::Complete(result));
        };
        match tool {
            "ls_get_tx" => {
                if let Some(id) = content
                    .pointer("/record/adventurer_id")
                    .and_then(|v| AdventurerId::from_json(v).ok())
                {
                    self.check(identity, id, tool).await?;
                }
            }
            "ls_list_adventurers" => {
                if let Some(Value::Array(list)) = content.get_mut("adventurers") {
                    let world = self.ownership_world().await?;
                    list.retain(|a| {
                        a.get("adventurer_id")
                            .and_then(|v| AdventurerId::from_json(v).ok())
                            .is_some_and(|id| self.may_use(identity, id, world.as_deref()))
                    });
                    content["total"] = Value::Null;
                    let text = content.to_string();
                    result.content = vec![rmcp::model::ContentBlock::text(text)];
                }
            }
            _ => {}
        }
        Ok(CallToolResponse::Complete(result))
    }
}

/// The adventurer `ls_new_game` minted: from its result, or from the error of a start that
/// failed after the mint.
fn minted_id(result: &CallToolResult) -> Option<AdventurerId> {
    if let Some(id) = result
        .structured_content
        .as_ref()
        .and_then(|c| c.get("adventurer_id"))
        .and_then(|v| AdventurerId::from_json(v).ok())
    {
        return Some(id);
    }
    result.content.iter().find_map(|c| {
        let text = c.as_text()?;
        let v: Value = serde_json::from_str(&text.text).ok()?;
        AdventurerId::from_json(v.pointer("/error/details/adventurer_id")?).ok()
    })
}

/// The fees the chain charged the transactions a write result names (the action and, for a new
/// game, its mint, each counted once; or those of a write that failed after sending). Read from the
/// receipts, since the compact result carries no fee; a transaction whose receipt cannot be read
/// counts as the account's per-transaction cap. A replayed result sent nothing new.
async fn fees_of(inner: &LsServer, result: &CallToolResult, cap: u128) -> u128 {
    let body = result.structured_content.clone().or_else(|| {
        result
            .content
            .iter()
            .find_map(|c| serde_json::from_str::<Value>(&c.as_text()?.text).ok())
    });
    let Some(body) = body else { return 0 };
    if body.get("replayed").and_then(Value::as_bool) == Some(true) {
        return 0;
    }
    let mut hashes: Vec<_> = [
        "/tx",
        "/mint_tx",
        "/tx_hash",
        "/mint_tx_hash",
        "/error/details/tx_hash",
        "/error/details/mint_tx_hash",
    ]
    .iter()
    .filter_map(|p| body.pointer(p)?.as_str())
    .filter_map(|h| game::felt::parse_felt(h).ok())
    .collect();
    // A new game sent as one multicall reports the same hash as its action and its mint.
    hashes.sort();
    hashes.dedup();
    let mut total = 0u128;
    for hash in hashes {
        let fee = match inner.backend.tx(hash).await {
            Ok(found) => found.report.map(|r| r.actual_fee),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read a receipt for the identity's fee budget");
                None
            }
        };
        total = total.saturating_add(fee.unwrap_or(cap));
    }
    total
}

fn denied(message: &str) -> ToolError {
    ToolError::new(ErrorCode::PolicyDenied, message)
}

impl ServerHandler for Guarded {
    fn get_info(&self) -> ServerConfig {
        self.inner.get_info()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        self.inner.list_tools(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.get_tool(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        Ok(self
            .guarded_call(request, context)
            .await
            .unwrap_or_else(|e| CallToolResult::error(e.into_contents()).into()))
    }

    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CustomResult, McpError> {
        self.inner.on_custom_request(request, context).await
    }

    /// Log notifications are not sent over HTTP: the logging layer forwards the whole process's
    /// log, which would show one identity what the others do. Accepted (so clients do not fail)
    /// and ignored.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        tracing::debug!(level = ?request.level, "logging/setLevel over HTTP: no log notifications are sent");
        Ok(())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        self.inner.list_resources(request, context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        self.inner.list_resource_templates(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        self.may_follow(std::slice::from_ref(&request.uri), &context)
            .await?;
        self.inner.read_resource(request, context).await
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: rmcp::model::SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.may_follow(std::slice::from_ref(&request.uri), &context)
            .await?;
        self.inner.subscribe(request, context).await
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: rmcp::model::UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.inner.unsubscribe(request, context).await
    }

    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        self.inner.accepted_subscription_filter(requested)
    }

    async fn listen(&self, context: rmcp::service::SubscriptionContext) -> Result<(), McpError> {
        let uris = context
            .accepted()
            .resource_subscriptions
            .clone()
            .unwrap_or_default();
        self.may_follow(&uris, context.request_context()).await?;
        self.inner.listen(context).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        self.inner.list_prompts(request, context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        self.inner.get_prompt(request, context).await
    }
}
