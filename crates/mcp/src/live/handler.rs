//! The MCP side of following: `resources/subscribe` and `resources/unsubscribe` (the 2025
//! revisions) and `subscriptions/listen` (2026-07-28), over the session registry.

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::SubscriptionFilter;
use rmcp::service::{RequestContext, SubscriptionContext};

use super::{SubscribeError, Target, Via, session_key};
use crate::error::ToolError;
use crate::server::LsServer;

impl LsServer {
    /// Starts following other writers' changes (once per server), for a first subscription:
    /// the chain's feed, and the index's own stream when it has one.
    pub fn watch_feed(&self) {
        if let Some(wake) = self.live.start_polling() {
            let live = std::sync::Arc::downgrade(&self.live);
            super::poller::spawn(self.backend.clone(), live.clone(), wake);
            if let Some(stream) = self.indexer.index.as_ref().and_then(|i| i.change_stream()) {
                super::index_feed::spawn(stream, live);
            }
        }
    }

    /// Refuses an adventurer this world does not hold (`NOT_FOUND`).
    pub(crate) async fn require_adventurer(&self, id: game::AdventurerId) -> Result<(), ToolError> {
        let state = self.read_state(id).await?;
        self.ensure_minted(id, &state).await
    }

    /// `resources/subscribe`: follows `uri` for the request's session.
    pub(crate) async fn subscribe_uri(
        &self,
        uri: &str,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let target = followable(uri)?;
        if let Target::Adventurer(id) = target {
            self.require_adventurer(id)
                .await
                .map_err(|e| ErrorData::resource_not_found(e.message, None))?;
        }
        self.watch_feed();
        self.live
            .subscribe(
                &session_key(ctx),
                Some(ctx.peer.clone()),
                uri,
                target,
                Via::Resource,
            )
            .map(|_| ())
            .map_err(registry_error)
    }

    /// `resources/unsubscribe`: stops following `uri` for the request's session.
    pub(crate) fn unsubscribe_uri(
        &self,
        uri: &str,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let target = followable(uri)?;
        self.live
            .unsubscribe_target(&session_key(ctx), target, Via::Resource)
            .map_err(registry_error)
    }

    /// The part of a `subscriptions/listen` filter this server honours: the followable URIs.
    pub(crate) fn accepted_filter(&self, requested: &SubscriptionFilter) -> SubscriptionFilter {
        let uris = requested.resource_subscriptions.iter().flatten();
        uris.filter(|u| Target::from_uri(u).is_ok())
            .fold(SubscriptionFilter::builder(), |b, u| {
                b.resource_subscription(u.clone())
            })
            .build()
    }

    /// Runs one `subscriptions/listen` stream until the client cancels it.
    pub(crate) async fn run_listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let ctx = context.request_context();
        let key = session_key(ctx);
        let targets: Vec<(Target, String)> = context
            .accepted()
            .resource_subscriptions
            .iter()
            .flatten()
            .filter_map(|u| Some((Target::from_uri(u).ok()?, u.clone())))
            .collect();
        self.watch_feed();
        let id = self
            .live
            .listen(&key, ctx.peer.clone(), targets, context.sink().clone())
            .map_err(registry_error)?;
        context.cancelled().await;
        self.live.end_listen(&key, id);
        Ok(())
    }
}

/// The target `uri` names, or an invalid-params error naming what can be followed.
fn followable(uri: &str) -> Result<Target, ErrorData> {
    Target::from_uri(uri).map_err(|why| ErrorData::invalid_params(why, None))
}

fn registry_error(e: SubscribeError) -> ErrorData {
    match e {
        SubscribeError::Limit => ErrorData::invalid_request(e.to_string(), None),
        SubscribeError::NotSubscribed(_) => ErrorData::invalid_params(e.to_string(), None),
    }
}
