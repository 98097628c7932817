//! The stand-in's tables, declared as Torii declares them (dojoengine/torii v1.8.0):
//! - a model table per `<namespace>-<Model>` (crates/sqlite/sqlite/src/lib.rs
//!   `build_model_query`/`add_columns_recursive`): `internal_id TEXT NOT NULL PRIMARY KEY,
//!   internal_event_id TEXT NOT NULL, internal_entity_id TEXT, internal_event_message_id TEXT`,
//!   the members (u8/u16/u32/bool INTEGER; u64, u128, felt252 and addresses TEXT, by dojo-types
//!   `Primitive::to_sql_type`; ByteArray and arrays TEXT; an enum a TEXT column holding the
//!   variant name with a CHECK of the names, plus `<enum>.<Variant>.<member>` columns), then
//!   `internal_executed_at`, `internal_created_at`, `internal_updated_at`;
//! - `event_messages_historical` (crates/migrations/20241028234131_event_message_historical.sql,
//!   v1.8 adds world_address and entity_id);
//! - `contracts` (crates/migrations/20240829114436_merge_worlds_and_indexer.sql and the later
//!   ALTERs: last_block_timestamp and tps in 20240923155431_tps.sql, updated_at in
//!   20250909141655_contracts_updated_at.sql, last_pending_block_tx renames).
//!
//! The game-token models are the relayer's Dojo events as the game-token component declares them
//! (Provable-Games/metagame-sdk, the Cairo definitions quoted in its event types): TokenMetadataUpdate
//! {#[key] id: u64, game_id: u64, minted_at: u64, settings_id: u32, lifecycle_start: u64,
//! lifecycle_end: u64, minted_by: u64, soulbound, game_over, completed_all_objectives,
//! has_context: bool, objectives_count: u8}, OwnersUpdate {#[key] token_id: u64, owner, auth},
//! TokenScoreUpdate {#[key] id: u64, score: u64}, TokenPlayerNameUpdate {#[key] id: u64,
//! player_name: ByteArray}, GameRegistryUpdate {#[key] id: u64, contract_address},
//! MinterRegistryUpdate {#[key] id: u64, minter_address}.

use super::version::ToriiVersion;

/// A model table with Torii's internal columns around `members` (`[name] TYPE` each).
pub fn model_table(name: &str, members: &[&str]) -> String {
    let cols: String = members.iter().map(|m| format!("{m}, ")).collect();
    format!(
        "CREATE TABLE IF NOT EXISTS [{name}] (internal_id TEXT NOT NULL PRIMARY KEY, \
         internal_event_id TEXT NOT NULL, internal_entity_id TEXT, internal_event_message_id TEXT, \
         {cols}internal_executed_at DATETIME NOT NULL, \
         internal_created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, \
         internal_updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP);"
    )
}

/// Every table the stand-in serves, for namespace `ns` and token namespace `tok`.
pub fn ddl(version: ToriiVersion, ns: &str, tok: &str) -> String {
    let mut out = vec![
        model_table(
            &format!("{tok}-TokenMetadataUpdate"),
            &[
                "[id] TEXT",
                "[game_id] TEXT",
                "[minted_at] TEXT",
                "[settings_id] INTEGER",
                "[lifecycle_start] TEXT",
                "[lifecycle_end] TEXT",
                "[minted_by] TEXT",
                "[soulbound] INTEGER",
                "[game_over] INTEGER",
                "[completed_all_objectives] INTEGER",
                "[has_context] INTEGER",
                "[objectives_count] INTEGER",
            ],
        ),
        model_table(
            &format!("{tok}-OwnersUpdate"),
            &["[token_id] TEXT", "[owner] TEXT", "[auth] TEXT"],
        ),
        model_table(
            &format!("{tok}-TokenScoreUpdate"),
            &["[id] TEXT", "[score] TEXT"],
        ),
        model_table(
            &format!("{tok}-TokenPlayerNameUpdate"),
            &["[id] TEXT", "[player_name] TEXT"],
        ),
        model_table(
            &format!("{tok}-GameRegistryUpdate"),
            &["[id] TEXT", "[contract_address] TEXT"],
        ),
        model_table(
            &format!("{tok}-MinterRegistryUpdate"),
            &["[id] TEXT", "[minter_address] TEXT"],
        ),
        model_table(
            &format!("{ns}-AdventurerPacked"),
            &["[adventurer_id] TEXT", "[packed] TEXT"],
        ),
        "CREATE TABLE event_messages_historical (id TEXT NOT NULL, keys TEXT NOT NULL, \
         event_id TEXT NOT NULL, data TEXT NOT NULL, model_id TEXT NOT NULL, \
         executed_at DATETIME NOT NULL, created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, \
         updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP);"
            .into(),
        "CREATE TABLE contracts (id TEXT NOT NULL PRIMARY KEY, contract_address TEXT NOT NULL, \
         contract_type TEXT NOT NULL, head BIGINT, last_pending_block_tx TEXT, \
         created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, last_block_timestamp INTEGER, \
         tps INTEGER, updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP);"
            .into(),
    ];
    if version.has_world_columns() {
        out.push(
            "ALTER TABLE event_messages_historical ADD COLUMN world_address TEXT NOT NULL DEFAULT '';\
             ALTER TABLE event_messages_historical ADD COLUMN entity_id TEXT NOT NULL DEFAULT '';"
                .into(),
        );
    }
    out.join("\n")
}
