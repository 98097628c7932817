//! The ABI check run again for a connected client (chain's [`AbiRecheck`]): while a contract's
//! class could not be read, the client asks for it before a write instead of writing unchecked.

use std::path::PathBuf;

use async_trait::async_trait;
use chain::generation::ChainReads;
use chain::node::Rpc;
use chain::{AbiGate, AbiRecheck, ChainReader, Deployment};

use crate::check_abi;

/// The check of one client's deployment, through its node, keeping classes in `cache`.
pub struct Recheck {
    node: Rpc,
    deployment: Deployment,
    cache: Option<PathBuf>,
    command: String,
}

impl Recheck {
    /// The check of `reader`'s deployment; `command` shows the differences to the operator.
    pub fn new(reader: &ChainReader, cache: Option<PathBuf>, command: impl Into<String>) -> Self {
        Self {
            node: reader.provider().clone(),
            deployment: reader.deployment().clone(),
            cache,
            command: command.into(),
        }
    }
}

#[async_trait]
impl AbiRecheck for Recheck {
    async fn recheck(&self) -> AbiGate {
        check_abi(&*self.node, &self.deployment, self.cache.as_deref())
            .await
            .gate(&self.command)
    }
}
