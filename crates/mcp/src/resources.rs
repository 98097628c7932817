//! MCP resources: the rules guide an agent needs, the item/beast/obstacle catalogues as compact
//! tables (a header row of column names, then one row per entry), and an adventurer's state as
//! the template `ls://adventurer/{id}`; and the adventurer card, an MCP App (`crate::sheet`).

use rmcp::ErrorData;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};
use serde_json::{Value, json};

use super::errors::from_chain;
use super::server::LsServer;
use crate::present::view::adventurer_view;
use crate::sheet;
use game::catalogue;
use game::rules;

/// The rules guide, written for an agent.
pub const RULES_URI: &str = "ls://rules";
/// The 101 items.
pub const ITEMS_URI: &str = "ls://catalogue/items";
/// The 75 beasts.
pub const BEASTS_URI: &str = "ls://catalogue/beasts";
/// The 75 obstacles.
pub const OBSTACLES_URI: &str = "ls://catalogue/obstacles";
/// An adventurer's full state (as `ls_get_adventurer` with `detail: "full"`).
pub const ADVENTURER_TEMPLATE: &str = "ls://adventurer/{id}";

const RULES_GUIDE: &str = include_str!("rules_guide.md");

/// The fixed resources.
pub fn list() -> ListResourcesResult {
    let r = |uri: &str, name: &str, mime: &str, about: &str| {
        Resource::new(uri, name)
            .with_mime_type(mime)
            .with_description(about)
    };
    ListResourcesResult::with_all_items(vec![
        r(
            RULES_URI,
            "rules",
            "text/markdown",
            "How Loot Survivor plays: phases, stats, combat, market, advice (about 1 K tokens).",
        ),
        r(
            ITEMS_URI,
            "items",
            "application/json",
            "The 101 items: id, name, tier, type, slot, base price.",
        ),
        r(
            BEASTS_URI,
            "beasts",
            "application/json",
            "The 75 beasts: id, name, tier, type.",
        ),
        r(
            OBSTACLES_URI,
            "obstacles",
            "application/json",
            "The 75 obstacles: id, name, tier, type.",
        ),
        r(
            crate::live::LEADERBOARD_URI,
            "leaderboard",
            "application/json",
            "The first page of ranked games, as ls_get_leaderboard gives it; can be subscribed.",
        ),
        r(
            sheet::CARD_URI,
            "adventurer-card",
            sheet::APP_MIME,
            "An adventurer's sheet, drawn by the host from the result of a tool that links it.",
        ),
    ])
}

/// The resource templates.
pub fn templates() -> ListResourceTemplatesResult {
    ListResourceTemplatesResult::with_all_items(vec![
        ResourceTemplate::new(ADVENTURER_TEMPLATE, "adventurer")
            .with_mime_type("application/json")
            .with_description(
                "An adventurer's full state: stats, equipment, bag, beast, market, phase, legal actions; can be subscribed.",
            ),
    ])
}

impl LsServer {
    /// Reads one resource; an unknown URI or adventurer is `resource_not_found`.
    pub(super) async fn read_resource_uri(
        &self,
        uri: &str,
    ) -> Result<ReadResourceResult, ErrorData> {
        tracing::debug!(uri, "resource read");
        let text = match uri {
            RULES_URI => {
                return Ok(ReadResourceResult::new(vec![
                    ResourceContents::text(RULES_GUIDE, uri).with_mime_type("text/markdown"),
                ]));
            }
            ITEMS_URI => items_table().to_string(),
            BEASTS_URI => beasts_table().to_string(),
            OBSTACLES_URI => obstacles_table().to_string(),
            crate::live::LEADERBOARD_URI => self.leaderboard_json().await?,
            sheet::CARD_URI => {
                return Ok(ReadResourceResult::new(vec![
                    ResourceContents::text(sheet::card_html(), uri)
                        .with_mime_type(sheet::APP_MIME)
                        .with_meta(sheet::card_meta()),
                ]));
            }
            _ => match uri.strip_prefix("ls://adventurer/") {
                Some(id) => self.adventurer_json(uri, id).await?,
                None => return Err(not_found(uri, "no such resource")),
            },
        };
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, uri).with_mime_type("application/json"),
        ]))
    }

    /// The leaderboard's first page, as `ls_get_leaderboard` with no arguments answers it.
    async fn leaderboard_json(&self) -> Result<String, ErrorData> {
        let args = crate::indexer_types::LeaderboardArgs::default();
        let page = self
            .leaderboard_page(&args, crate::torii_tools::DEFAULT_LIMIT)
            .await
            .map_err(|e| ErrorData::internal_error(e.message, None))?;
        Ok(json!(page).to_string())
    }

    async fn adventurer_json(&self, uri: &str, id: &str) -> Result<String, ErrorData> {
        let id = game::AdventurerId::parse(id)
            .map_err(|_| not_found(uri, "the adventurer id must be a decimal or 0x-hex number"))?;
        match self
            .adventurer_value(id)
            .await
            .map_err(|e| ErrorData::internal_error(e.message, None))?
        {
            Some(view) => Ok(view.to_string()),
            None => Err(not_found(uri, &format!("adventurer {id} does not exist"))),
        }
    }

    /// The full view of adventurer `id` (as `ls_get_adventurer` gives it), `None` when this world
    /// holds no such game.
    pub(crate) async fn adventurer_value(
        &self,
        id: game::AdventurerId,
    ) -> Result<Option<Value>, crate::error::ToolError> {
        let state = self.backend.state(id).await.map_err(from_chain)?;
        if !self.minted(id, &state).await.map_err(from_chain)? {
            return Ok(None);
        }
        Ok(Some(json!(adventurer_view(id, &state))))
    }
}

fn not_found(uri: &str, why: &str) -> ErrorData {
    ErrorData::resource_not_found(format!("{uri}: {why}"), Some(json!({ "uri": uri })))
}

fn table(columns: &[&str], rows: Vec<Value>) -> Value {
    json!({ "columns": columns, "rows": rows })
}

fn items_table() -> Value {
    let rows = catalogue::ITEMS
        .iter()
        .map(|i| {
            json!([
                i.id,
                i.name,
                i.tier,
                i.item_type,
                i.slot,
                rules::item_price(i.tier, 0)
            ])
        })
        .collect();
    table(&["id", "name", "tier", "type", "slot", "price"], rows)
}

fn beasts_table() -> Value {
    let rows = catalogue::beasts()
        .map(|b| json!([b.id, b.name, b.tier, b.beast_type]))
        .collect();
    table(&["id", "name", "tier", "type"], rows)
}

fn obstacles_table() -> Value {
    let rows = catalogue::obstacles()
        .map(|o| json!([o.id, o.name, o.tier, o.obstacle_type]))
        .collect();
    table(&["id", "name", "tier", "type"], rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_tables_are_complete_and_compact() {
        let items = items_table();
        assert_eq!(items["rows"].as_array().unwrap().len(), 101);
        assert_eq!(items["rows"][45][1], "Short Sword");
        assert_eq!(items["rows"][45][5], 4, "T5 base price");
        assert_eq!(beasts_table()["rows"].as_array().unwrap().len(), 75);
        assert_eq!(obstacles_table()["rows"].as_array().unwrap().len(), 75);
        assert!(
            items.to_string().len() < 8_000,
            "{}",
            items.to_string().len()
        );
    }

    #[test]
    fn the_guide_covers_the_loop() {
        for word in ["ls_new_game", "stat_upgrade", "verdict", "Potions", "flee"] {
            assert!(RULES_GUIDE.contains(word), "{word}");
        }
    }
}
