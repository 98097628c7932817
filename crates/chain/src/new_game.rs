//! A new game in one transaction: the mint and `start_game` as one multicall.
//!
//! `start_game` needs the token id, which the mint assigns. Neither the practice world nor the
//! game's token contract has a view of the next id, and a multicall cannot pass one call's
//! result to the next, so the id is predicted by simulating the mint alone at the nonce the
//! multicall will use, under the account's write lock (no other write of this account comes
//! between), against the pre-confirmed block; the token id is then read from the multicall's own
//! receipt. If another player's mint lands first, the prediction is wrong and the multicall
//! reverts as a whole: at the fee estimate (a `CONTRACT_REVERT`, nothing signed) or, in the rare
//! race inside a block, on chain (nothing minted, a fee paid); the agent calls again either way.
//! Where the token's storage layout is known (`chain.token_count_storage`: the practice world's
//! `token_count`), the id is one more than the minted count read from storage instead, which
//! costs the node a storage lookup rather than a run of the mint.
//! Cost: predict, estimate, send, receipt — four requests instead of six.
//!
//! A v2 id cannot be predicted: Denshokan packs the block timestamp and the low 10 bits of the
//! minting transaction's hash into it (docs/practice-v2.md#token-ids), and the hash depends on
//! the calls, the id among them. A v2 new game is therefore two transactions: the mint, its id
//! read from the receipt's Denshokan `Transfer`, then `start_game`.

use game::AdventurerId;
use starknet::accounts::{Account, ConnectedAccount};
use starknet::core::types::{
    BlockId, BlockTag, Call, Event, ExecuteInvocation, Felt, FunctionInvocation, TransactionTrace,
};
use starknet::providers::Provider;

use super::client::{ChainClient, Plan, Submitter, TxReport, WriteOptions};
use super::token_id::token_id_from_events;
use super::{BadAnswer, ChainError};

/// A game minted and started in one transaction.
#[derive(Debug, Clone)]
pub struct MintedGame {
    /// The new adventurer (token) id, read from the receipt.
    pub adventurer_id: AdventurerId,
    /// The transaction that minted it (the same as the start's when they were one).
    pub mint_tx_hash: Felt,
    /// The start's transaction.
    pub report: TxReport,
}

/// Every event of an invocation and the calls it made, in order.
fn collect_events(inv: &FunctionInvocation, out: &mut Vec<Event>) {
    let mut own: Vec<_> = inv.events.iter().collect();
    own.sort_by_key(|e| e.order);
    for e in own {
        out.push(Event {
            from_address: inv.contract_address,
            keys: e.keys.clone(),
            data: e.data.clone(),
        });
    }
    for call in &inv.calls {
        collect_events(call, out);
    }
}

impl ChainClient {
    /// Mints a game token to the wallet and starts it with `weapon`: in one transaction on a v1
    /// world, in two on a v2 deployment (the id cannot be predicted there).
    pub async fn mint_and_start(
        &self,
        player_name: Option<Felt>,
        weapon: u8,
        opts: WriteOptions,
    ) -> Result<MintedGame, ChainError> {
        self.check_archive(crate::entry::Entry::Mint)?;
        if self.deployment().game().new_game_plan() == crate::generation::NewGamePlan::MintThenStart
        {
            // Room for both transactions first, so no mint is paid for a refused start.
            self.check_new_game()?;
            let (id, mint) = self.mint_game(player_name, opts.clone()).await?;
            let start = game::engine::Action::StartGame { weapon };
            let report = self.act(id, &start, None, opts).await?;
            return Ok(MintedGame {
                adventurer_id: id,
                mint_tx_hash: mint.tx_hash,
                report,
            });
        }
        let plan = Plan::MintAndStart {
            mint: self.mint_call(player_name),
            weapon,
        };
        let report = self
            .submitter()
            .execute_planned(plan, None, "mint_game+start_game", opts)
            .await?;
        let token = self.cached_token_address().await;
        let id = token_id_from_events(&report.raw_events, token).ok_or(ChainError::Decode(
            BadAnswer::NoTokenId {
                action: None,
                tx_hash: report.tx_hash,
            },
        ))?;
        Ok(MintedGame {
            adventurer_id: id,
            mint_tx_hash: report.tx_hash,
            report,
        })
    }
}

impl Submitter {
    /// The calls of a plan at `nonce`.
    pub(super) async fn build(&self, plan: &Plan, nonce: Felt) -> Result<Vec<Call>, ChainError> {
        match plan {
            Plan::Calls(calls) => Ok(calls.clone()),
            Plan::MintAndStart { mint, weapon } => {
                let id = self.predict_token_id(mint, nonce).await?;
                let start = game::engine::Action::StartGame { weapon: *weapon };
                let start = self.reader.deployment().game().action_call(id, &start)?;
                Ok(vec![mint.clone(), start])
            }
        }
    }

    /// The id `mint` would assign if sent now at `nonce`: one more than the token's minted count
    /// where its storage layout is known (a storage read costs the node far less than running
    /// the mint), else from a simulation's events.
    async fn predict_token_id(&self, mint: &Call, nonce: Felt) -> Result<AdventurerId, ChainError> {
        if let (Some(key), Some(token)) = (
            self.token_count_key,
            self.reader.cached_token_address().await,
        ) {
            let count = super::retry::read_with_retries(|| {
                self.account.provider().get_storage_at(
                    token,
                    key,
                    BlockId::Tag(BlockTag::PreConfirmed),
                )
            })
            .await
            .map_err(ChainError::from_provider)?;
            return u64::try_from(count + Felt::ONE)
                .map(AdventurerId::from)
                .map_err(|_| ChainError::Decode(BadAnswer::MintedCount(count)));
        }
        let simulated = self
            .account
            .execute_v3(vec![mint.clone()])
            .nonce(nonce)
            .simulate(true, true)
            .await
            .map_err(crate::wallet_account::account_error)?;
        let TransactionTrace::Invoke(trace) = simulated.transaction_trace else {
            return Err(ChainError::Decode(BadAnswer::SimulationNotInvoke));
        };
        let invocation = match trace.execute_invocation {
            ExecuteInvocation::Success(inv) => inv,
            ExecuteInvocation::Reverted(r) => {
                return Err(ChainError::Revert {
                    revert: super::revert::classify(&r.revert_reason),
                    tx_hash: None,
                });
            }
        };
        let mut events = Vec::new();
        collect_events(&invocation, &mut events);
        let token = self.reader.cached_token_address().await;
        token_id_from_events(&events, token)
            .ok_or(ChainError::Decode(BadAnswer::NoSimulatedTokenId))
    }
}
