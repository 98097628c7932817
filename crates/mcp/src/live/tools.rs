//! The subscription tools, for hosts that show a model no notifications: follow an adventurer or
//! the leaderboard, stop, and collect what changed since the last look (waiting a few seconds at
//! most for a first change).

use std::time::Duration;

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{SubscribeError, SubscriptionInfo, Target, Via, session_key};
use crate::args::Args;
use crate::error::{ErrorCode, SCHEMA_VERSION, ToolError};
use crate::server::LsServer;
use game::AdventurerId;

/// The longest `ls_subscriptions` waits for a change.
const MAX_WAIT_SECONDS: u64 = 10;

/// `ls_subscribe` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct SubscribeArgs {
    /// The adventurer to follow; omit with `leaderboard: true`.
    #[serde(default)]
    pub adventurer_id: Option<AdventurerId>,
    /// Follow the leaderboard.
    #[serde(default)]
    pub leaderboard: bool,
}

/// `ls_unsubscribe` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct UnsubscribeArgs {
    /// From `ls_subscribe` or `ls_subscriptions`.
    pub subscription_id: u64,
}

/// `ls_subscriptions` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct SubscriptionsArgs {
    /// Seconds (≤ 10) to wait for a change when none is pending.
    #[serde(default)]
    pub wait_seconds: u64,
}

/// What the subscription tools answer: this session's subscriptions and what changed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SubscriptionsResult {
    /// Always true.
    pub ok: bool,
    /// The result format's version.
    pub schema_version: String,
    /// Every subscription of this session (a listen stream's show under one id).
    pub subscriptions: Vec<SubscriptionInfo>,
    /// The followed URIs whose target changed since the last look: read them again
    /// (`ls_get_adventurer`, `ls_get_leaderboard`).
    pub changed: Vec<String>,
}

#[tool_router(router = live_tool_router, vis = "pub(crate)")]
impl LsServer {
    #[tool(
        description = "Follow an adventurer or the leaderboard; ls_subscriptions then says when it changed. At most 100 per session.",
        annotations(title = "Subscribe", read_only_hint = true, open_world_hint = false)
    )]
    async fn ls_subscribe(
        &self,
        Parameters(args): Parameters<Args<SubscribeArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<SubscriptionsResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let target = match (a.adventurer_id, a.leaderboard) {
            (Some(id), false) => Target::Adventurer(id),
            (None, true) => Target::Leaderboard,
            _ => {
                return Err(ToolError::validation(
                    "give adventurer_id, or leaderboard: true (one of the two)",
                )
                .with_detail("field", "adventurer_id"));
            }
        };
        if let Target::Adventurer(id) = target {
            self.require_adventurer(id).await?;
        }
        let key = session_key(&ctx);
        let uri = target.uri();
        self.watch_feed();
        self.live
            .subscribe(&key, Some(ctx.peer.clone()), &uri, target, Via::Tool)
            .map_err(subscribe_error)?;
        Ok(Json(self.subscriptions(&key, false)))
    }

    #[tool(
        description = "Stop following: a subscription_id from ls_subscribe or ls_subscriptions.",
        annotations(title = "Unsubscribe", read_only_hint = true, open_world_hint = false)
    )]
    async fn ls_unsubscribe(
        &self,
        Parameters(args): Parameters<Args<UnsubscribeArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<SubscriptionsResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let key = session_key(&ctx);
        self.live
            .unsubscribe_id(&key, a.subscription_id)
            .map_err(subscribe_error)?;
        Ok(Json(self.subscriptions(&key, false)))
    }

    #[tool(
        description = "This session's subscriptions and the followed URIs changed since the last call.",
        annotations(
            title = "Subscriptions",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn ls_subscriptions(
        &self,
        Parameters(args): Parameters<Args<SubscriptionsArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<SubscriptionsResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        if a.wait_seconds > MAX_WAIT_SECONDS {
            return Err(ToolError::validation(format!(
                "wait_seconds is at most {MAX_WAIT_SECONDS}"
            ))
            .with_detail("field", "wait_seconds"));
        }
        let key = session_key(&ctx);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(a.wait_seconds);
        loop {
            let pending = self.live.list(&key, false).iter().any(|s| s.changed);
            if pending || tokio::time::Instant::now() >= deadline || ctx.ct.is_cancelled() {
                return Ok(Json(self.subscriptions(&key, true)));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl LsServer {
    /// Session `key`'s subscriptions and, with `collect`, what changed (then taken).
    fn subscriptions(&self, key: &str, collect: bool) -> SubscriptionsResult {
        let subscriptions = self.live.list(key, collect);
        let changed = subscriptions
            .iter()
            .filter(|s| collect && s.changed)
            .map(|s| s.uri.clone())
            .collect();
        SubscriptionsResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            subscriptions,
            changed,
        }
    }
}

/// The tool error of a refused subscription.
fn subscribe_error(e: SubscribeError) -> ToolError {
    match e {
        SubscribeError::Limit => ToolError::new(ErrorCode::PolicyDenied, e.to_string())
            .with_detail("rule", "max_subscriptions")
            .with_hint("ls_unsubscribe one of the subscriptions ls_subscriptions lists"),
        SubscribeError::NotSubscribed(_) => ToolError::new(ErrorCode::NotFound, e.to_string())
            .with_detail("field", "subscription_id")
            .with_hint("ls_subscriptions lists this session's subscriptions"),
    }
}
