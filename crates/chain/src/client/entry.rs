//! Entering a new game from the chain client: refused before signing where the deployment cannot
//! serve the entry, else sent as one multicall (docs of [`crate::entry`]).

use game::AdventurerId;
use starknet::core::types::Felt;

use super::{ChainClient, TxReport, WriteOptions};
use crate::entry::{Entry, EntryAddresses, Player, check_entry, entry_calls};
use crate::{ChainError, Unservable};

impl ChainClient {
    /// Refuses, before anything is signed, an entry this deployment cannot serve: any new game on
    /// an archived one, a dungeon entry on v2 (the dungeons' v2 calldata is not public) or on a
    /// profile naming no dungeon.
    pub fn check_entry(&self, entry: Entry) -> Result<(), ChainError> {
        self.check_archive(entry)?;
        if entry == Entry::Mint {
            return Ok(());
        }
        self.dungeon_addresses(entry, 0).map(drop)
    }

    /// Where a dungeon `entry` goes on this deployment, minting with `settings_id`; refused
    /// where the deployment has no dungeon it can build calls for, or lacks a contract `entry`
    /// needs.
    fn dungeon_addresses(
        &self,
        entry: Entry,
        settings_id: u32,
    ) -> Result<EntryAddresses, ChainError> {
        let Some(addresses) = self.deployment().game().dungeon_entries(settings_id) else {
            return Err(ChainError::Invalid(Unservable::DungeonUnpublished {
                entry: entry.name(),
                generation: self.deployment().generation(),
            }));
        };
        check_entry(entry, &addresses).map_err(|e| ChainError::Invalid(Unservable::Entry(e)))?;
        Ok(addresses)
    }

    /// Enters a new game for this wallet with `entry` (one multicall) and returns the new
    /// adventurer id, read from the receipt as for a mint; a plain mint is
    /// [`ChainClient::mint_game`] (the deployment's generation's mint).
    pub async fn enter_game(
        &self,
        entry: Entry,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        self.check_archive(entry)?;
        if entry == Entry::Mint {
            return self.mint_game(player_name, opts).await;
        }
        let addresses = self.dungeon_addresses(entry, self.settings_id)?;
        let player = Player {
            address: self.account_address(),
            name: player_name,
        };
        let calls = entry_calls(entry, &addresses, &player)
            .map_err(|e| ChainError::Invalid(Unservable::Entry(e)))?;
        let action = match entry {
            Entry::Mint => "mint_game",
            Entry::Free => "claim_free_game",
            Entry::Ticket | Entry::GoldenPass { .. } => "buy_game",
        };
        let report = self.submitter().execute(calls, None, action, opts).await?;
        let id = self.minted_id(&report, action).await?;
        Ok((id, report))
    }
}
