//! The account's tools: a transaction by hash (what the journal recorded and what the node says)
//! and the wallet (balances, policy, spending).

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};

use super::args::Args;
use super::envelopes::{NoArgs, TxResult, WalletResult};
use super::errors::from_chain;
use super::params::TxArgs;
use super::server::LsServer;
use crate::error::{ErrorCode, SCHEMA_VERSION, ToolError};
use chain::TxStatus;

#[tool_router(router = tx_tool_router, vis = "pub(crate)")]
impl LsServer {
    #[tool(
        description = "A transaction by hash: status, execution (SUCCEEDED, or REVERTED with the game's reason), fee, game events; after a TX_TIMEOUT, use it instead of resending.",
        annotations(
            title = "Get transaction",
            read_only_hint = true,
            open_world_hint = true
        )
    )]
    async fn ls_get_tx(
        &self,
        Parameters(args): Parameters<Args<TxArgs>>,
    ) -> Result<Json<TxResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let hash = game::felt::parse_felt(&a.tx_hash).map_err(|e| {
            ToolError::validation(format!("tx_hash: {e}")).with_detail("field", "tx_hash")
        })?;
        let found = self.backend.tx(hash).await.map_err(from_chain)?;
        if found.record.is_none() && found.status == TxStatus::NotReceived {
            return Err(ToolError::new(
                ErrorCode::NotFound,
                format!(
                    "transaction {hash:#x} is unknown to the node and was not sent by this server"
                ),
            )
            .with_detail("tx_hash", format!("{hash:#x}")));
        }
        let (block_number, fee_paid, events) = match found.report {
            Some(r) => (r.block_number, Some(r.actual_fee.to_string()), r.events),
            None => (None, None, Vec::new()),
        };
        Ok(Json(TxResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            tx_hash: format!("{hash:#x}"),
            status: found.status,
            execution: found.execution.map(|e| e.as_str().to_string()),
            revert_reason: found.revert_reason,
            sent_by_this_server: found.record.is_some(),
            record: found.record,
            block_number,
            fee_paid,
            events,
        }))
    }
    #[tool(
        description = "The signing wallet: address, balances, policy (fee caps, budgets, rate), what was spent and signed, a Controller session's expiry and how to renew it. No key is shown.",
        annotations(title = "Wallet", read_only_hint = true, open_world_hint = true)
    )]
    async fn ls_wallet(
        &self,
        Parameters(args): Parameters<Args<NoArgs>>,
    ) -> Result<Json<WalletResult>, ToolError> {
        args.parse(self.opts.strict)?;
        let wallet = self.backend.wallet().await.map_err(from_chain)?;
        let note = wallet.is_none().then(|| {
            format!(
                "the {} chain signs nothing and needs no wallet",
                self.opts.chain
            )
        });
        Ok(Json(WalletResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            wallet,
            note,
        }))
    }
}
