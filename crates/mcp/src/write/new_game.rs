//! `ls_new_game`: start a given adventurer, or mint one and start it. Where the chain offers it,
//! mint and start go in one transaction (see `ChainClient::mint_and_start`); otherwise the mint
//! is its own transaction and its id comes from its receipt. A game bought at the dungeon
//! (`entry` ticket, golden pass or free) is always its own transaction, then the start: the id
//! prediction that `mint_and_start` uses covers the direct mint only.

use game::AdventurerId;
use rmcp::handler::server::wrapper::Json;
use starknet::core::types::Felt;

use super::super::envelopes::WriteResult;
use super::super::errors::from_chain;
use super::super::server::LsServer;
use crate::error::ToolError;
use crate::params::EntryArg;
use crate::present::compact::Detail;
use chain::WriteOptions;
use chain::entry::Entry;
use game::engine::Action;

/// What `ls_new_game` was asked for, once validated.
pub(crate) struct NewGame {
    /// Answer detail.
    pub detail: Option<Detail>,
    /// For a retry of a start: the action count the agent saw.
    pub expected_action_count: Option<u16>,
    /// An adventurer minted earlier, to start instead of minting.
    pub adventurer_id: Option<AdventurerId>,
    /// Starting weapon id.
    pub weapon: u8,
    /// Player name for the mint.
    pub player_name: Option<Felt>,
    /// How the adventurer is obtained: minted directly or bought at the dungeon.
    pub entry: Entry,
}

impl LsServer {
    /// How many transactions `ls_new_game` with these arguments sends (what per-identity limits
    /// count): one to start a given adventurer or to mint and start at once on a chain, two where
    /// the mint is its own transaction (the sim chain, dungeon entries).
    pub(crate) fn new_game_transactions(
        &self,
        args: Option<&serde_json::Map<String, serde_json::Value>>,
    ) -> u32 {
        let arg = |k: &str| args.and_then(|a| a.get(k)).filter(|v| !v.is_null());
        if arg("adventurer_id").is_some() {
            return 1;
        }
        // An entry the tool will refuse counts as two: the conservative side of a limit.
        let direct = arg("entry").is_none_or(|e| {
            serde_json::from_value::<EntryArg>(e.clone()).is_ok_and(|e| e == EntryArg::Mint)
        });
        if direct && self.backend.mints_and_starts_at_once() {
            1
        } else {
            2
        }
    }

    /// Mints (unless an id is given) and starts a game.
    pub(crate) async fn new_game(
        &self,
        a: NewGame,
        opts: WriteOptions,
    ) -> Result<Json<WriteResult>, ToolError> {
        let start = Action::StartGame { weapon: a.weapon };
        if let Some(id) = a.adventurer_id {
            return self
                .write(a.detail, a.expected_action_count, id, start, opts, None)
                .await;
        }
        self.backend.check_entry(a.entry).map_err(from_chain)?;
        // One transaction: the policy checks it like any write, and a refusal mints nothing.
        if a.entry == Entry::Mint
            && let Some(done) = self
                .backend
                .mint_and_start(a.player_name, a.weapon, opts.clone())
                .await
        {
            let done = done.map_err(from_chain)?;
            let (mut out, state) = self.finish(done.adventurer_id, done.report, &start).await?;
            out.mint_tx_hash = Some(format!("{:#x}", done.mint_tx_hash));
            return self.render(a.detail, out, Some(state)).await;
        }
        // Two transactions: room for both is checked before the mint, so no mint is wasted.
        self.backend.check_new_game().await.map_err(from_chain)?;
        let (id, report) = self
            .backend
            .enter(a.entry, a.player_name, opts.clone())
            .await
            .map_err(from_chain)?;
        let mint_tx = format!("{:#x}", report.tx_hash);
        let (mut out, state) = self
            .write_full(a.expected_action_count, id, start, opts, None)
            .await
            .map_err(|e| {
                e.with_detail("adventurer_id", id)
                    .with_detail("mint_tx_hash", &mint_tx)
                    .with_hint(format!(
                        "adventurer {id} was minted; retry ls_new_game with adventurer_id {id}"
                    ))
            })?;
        out.mint_tx_hash = Some(mint_tx);
        self.render(a.detail, out, state).await
    }
}
