//! Adventurers from Torii: the packed model of a set of ids (GraphQL, paged with Torii's cursors)
//! and one owner's games (SQL over the game-token models, which GraphQL cannot join).

use game::AdventurerId;
use std::collections::BTreeMap;

use serde_json::Value;
use starknet_types_core::felt::Felt;

use super::client::{field, sql_template, strip_comments};
use super::values::{self, pad_felt, pad_u64};
use super::{ToriiClient, ToriiError};
use game::model::Adventurer;
use game::pack::unpack_adventurer;

const PACKED_GRAPHQL: &str = include_str!("queries/adventurers_packed.graphql");
const OWNER_SQL: &str = include_str!("queries/owner_games.sql");

/// Edges asked for per GraphQL page.
pub const PACKED_PAGE: usize = 100;

/// Packed adventurers found, and what could not be read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PackedAdventurers {
    /// Decoded adventurers (stored base stats, no item boosts) by id.
    pub by_id: BTreeMap<u64, Adventurer>,
    /// Rows that could not be decoded.
    pub warnings: Vec<String>,
}

/// One of an owner's games, as the token models describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedGame {
    /// Token (adventurer) id.
    pub adventurer_id: AdventurerId,
    /// Whether the token says the game is over.
    pub game_over: bool,
    /// Score (the adventurer's xp).
    pub score: u64,
    /// Player name, when set.
    pub player_name: Option<String>,
    /// The stored adventurer, when read: [`GameIndex::owner_games`](crate::GameIndex::owner_games)
    /// fills it; [`ToriiClient::owner_games`] reads the token models only.
    pub adventurer: Option<Adventurer>,
}

/// A page of an owner's games, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedGamesPage {
    /// The games.
    pub games: Vec<OwnedGame>,
    /// How many games the owner has in all.
    pub total: Option<u64>,
    /// Whether older games follow.
    pub has_more: bool,
    /// What could not be read (e.g. the adventurers when their lookup failed).
    pub warnings: Vec<String>,
    /// Where the next page starts, for an index that pages by offset (Denshokan); `None` for
    /// one that pages by id, and on the last page.
    pub next_offset: Option<u64>,
}

impl ToriiClient {
    /// The packed adventurers among `ids`, following Torii's cursors page by page.
    pub async fn packed_adventurers(&self, ids: &[u64]) -> Result<PackedAdventurers, ToriiError> {
        let mut out = PackedAdventurers::default();
        if ids.is_empty() {
            return Ok(out);
        }
        let list = format!(
            "[{}]",
            ids.iter()
                .map(|&id| format!("\"{}\"", pad_u64(id)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let root = format!("{}AdventurerPackedModels", self.short_ns);
        let mut after: Option<String> = None;
        let max_pages = ids.len() / PACKED_PAGE + 2;
        for _ in 0..max_pages {
            let after_arg = after
                .as_deref()
                .map(|c| format!("after: {}", values::graphql_string(c)))
                .unwrap_or_default();
            let query = strip_comments(PACKED_GRAPHQL)
                .replace("__NS__", &self.short_ns)
                .replace("__IDS__", &list)
                .replace("__FIRST__", &PACKED_PAGE.min(ids.len()).to_string())
                .replace("__AFTER__", &after_arg);
            let data = self.graphql(&query).await?;
            let conn = data
                .get(&root)
                .ok_or_else(|| ToriiError::Malformed(format!("GraphQL data has no `{root}`")))?;
            let edges = field(conn, "edges", &root)?
                .as_array()
                .ok_or_else(|| ToriiError::Malformed(format!("{root}.edges is not a list")))?;
            for edge in edges {
                let node = field(edge, "node", "edge")?;
                let id = field(node, "adventurer_id", "node")
                    .ok()
                    .and_then(values::u64_of);
                let packed = field(node, "packed", "node").ok().and_then(values::felt);
                match (id, packed) {
                    (Some(id), Some(p)) => match unpack_adventurer(p) {
                        Ok(a) => {
                            out.by_id.insert(id, a);
                        }
                        Err(e) => out
                            .warnings
                            .push(format!("adventurer {id}: packed state unreadable ({e})")),
                    },
                    _ => out
                        .warnings
                        .push("an AdventurerPacked row has no valid id or packed value".into()),
                }
            }
            let info = field(conn, "pageInfo", &root)?;
            let has_next = info
                .get("hasNextPage")
                .and_then(Value::as_bool)
                .ok_or_else(|| ToriiError::Malformed("pageInfo.hasNextPage missing".into()))?;
            if !has_next || edges.is_empty() {
                return Ok(out);
            }
            let end = info
                .get("endCursor")
                .and_then(Value::as_str)
                .ok_or_else(|| ToriiError::Malformed("pageInfo.endCursor missing".into()))?;
            if after.as_deref() == Some(end) {
                return Err(ToriiError::Malformed(
                    "Torii returned the same page cursor twice".into(),
                ));
            }
            after = Some(end.to_string());
        }
        Err(ToriiError::Malformed(format!(
            "Torii kept paging past {max_pages} pages for {} ids",
            ids.len()
        )))
    }

    /// An owner's games of this game contract, newest first, below `before` when given.
    pub async fn owner_games(
        &self,
        owner: Felt,
        before: Option<u64>,
        limit: u32,
    ) -> Result<OwnedGamesPage, ToriiError> {
        let before = before
            .map(|b| format!("AND token_key < '{}'", pad_felt(Felt::from(b))))
            .unwrap_or_default();
        let query = sql_template(OWNER_SQL)
            .replace("__TOK__", &self.token_namespace)
            .replace("__GAME__", &pad_felt(self.game_address))
            .replace("__OWNER__", &pad_felt(owner))
            .replace("__BEFORE__", &before)
            .replace("__LIMIT__", &(u64::from(limit) + 1).to_string());
        let rows = self.sql(&query).await?;
        let total = rows
            .first()
            .and_then(|r| r.get("total"))
            .and_then(values::u64_of);
        let mut games = rows
            .iter()
            .map(|r| {
                let adventurer_id =
                    r.get("token_id").and_then(values::u64_of).ok_or_else(|| {
                        ToriiError::Malformed("game row has no valid token_id".into())
                    })?;
                Ok(OwnedGame {
                    adventurer_id: adventurer_id.into(),
                    game_over: r
                        .get("game_over")
                        .and_then(values::bool_of)
                        .unwrap_or(false),
                    score: r.get("score").and_then(values::u64_of).unwrap_or(0),
                    player_name: r.get("player_name").and_then(values::short_string),
                    adventurer: None,
                })
            })
            .collect::<Result<Vec<_>, ToriiError>>()?;
        let has_more = games.len() > limit as usize;
        games.truncate(limit as usize);
        Ok(OwnedGamesPage {
            games,
            total,
            has_more,
            warnings: Vec::new(),
            next_offset: None,
        })
    }
}
