//! The node seam. The chain client speaks to its node through starknet-rs's typed
//! `JsonRpcClient`; what carries the requests is a [`NodeTransport`]: HTTP to the profile's node,
//! or an [`RpcNode`] that answers JSON-RPC in process (the scripted nodes the write pipeline's
//! unit tests run against). Either way every request and answer passes through starknet-rs's own
//! serialization, so a scripted node answers with the node's literal JSON.

use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use starknet::providers::ProviderRequestData;
use starknet::providers::jsonrpc::{
    HttpTransport, HttpTransportError, JsonRpcMethod, JsonRpcRequest, JsonRpcResponse,
    JsonRpcTransport,
};

/// The chain client's typed JSON-RPC client over its transport.
pub type Rpc = Arc<starknet::providers::jsonrpc::JsonRpcClient<NodeTransport>>;

/// Answers Starknet JSON-RPC requests without a network.
#[async_trait::async_trait]
pub trait RpcNode: Send + Sync {
    /// The whole response envelope (`{"jsonrpc":"2.0","id":…,"result":…}`, or `"error"` in place
    /// of `"result"`) to `method` called with `params` (the request's `params`, as sent).
    async fn answer(&self, id: u64, method: &str, params: Value) -> Value;
}

/// What carries the chain client's JSON-RPC requests.
#[derive(Clone)]
pub enum NodeTransport {
    /// HTTP to a node.
    Http(HttpTransport),
    /// A node in this process.
    InProcess(Arc<dyn RpcNode>),
}

impl std::fmt::Debug for NodeTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NodeTransport::Http(_) => f.write_str("NodeTransport::Http"),
            NodeTransport::InProcess(_) => f.write_str("NodeTransport::InProcess"),
        }
    }
}

/// Why a request got no answer.
#[derive(Debug, thiserror::Error)]
pub enum NodeTransportError {
    /// The HTTP transport failed.
    #[error(transparent)]
    Http(#[from] HttpTransportError),
    /// A request or an in-process answer is not the JSON expected.
    #[error("in-process node: {0}")]
    Json(#[from] serde_json::Error),
}

impl NodeTransport {
    async fn in_process<R: DeserializeOwned>(
        node: &dyn RpcNode,
        request: Value,
    ) -> Result<JsonRpcResponse<R>, NodeTransportError> {
        let id = request.get("id").and_then(Value::as_u64).unwrap_or(1);
        let method = request
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let params = request.get("params").cloned().unwrap_or(Value::Null);
        let answer = node.answer(id, &method, params).await;
        Ok(serde_json::from_value(answer)?)
    }
}

#[async_trait::async_trait]
impl JsonRpcTransport for NodeTransport {
    type Error = NodeTransportError;

    async fn send_request<P, R>(
        &self,
        method: JsonRpcMethod,
        params: P,
    ) -> Result<JsonRpcResponse<R>, Self::Error>
    where
        P: Serialize + Send + Sync,
        R: DeserializeOwned + Send,
    {
        match self {
            NodeTransport::Http(http) => Ok(http.send_request(method, params).await?),
            NodeTransport::InProcess(node) => {
                let request = serde_json::json!({
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": method,
                    "params": params,
                });
                Self::in_process(&**node, request).await
            }
        }
    }

    async fn send_requests<R>(
        &self,
        requests: R,
    ) -> Result<Vec<JsonRpcResponse<Value>>, Self::Error>
    where
        R: AsRef<[ProviderRequestData]> + Send + Sync,
    {
        match self {
            NodeTransport::Http(http) => Ok(http.send_requests(requests).await?),
            NodeTransport::InProcess(node) => {
                let mut answers = Vec::new();
                for (id, data) in requests.as_ref().iter().enumerate() {
                    let request = serde_json::to_value(JsonRpcRequest {
                        id: id as u64,
                        data: data.clone(),
                    })?;
                    answers.push(Self::in_process(&**node, request).await?);
                }
                Ok(answers)
            }
        }
    }
}
