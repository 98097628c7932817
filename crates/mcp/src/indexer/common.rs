//! What the indexer tools share: the index they read, page limits, cursors, the mapping of index
//! failures, the scope of the leaderboard and the summary of one game read from the chain.

use game::AdventurerId;
use starknet::core::types::Felt;

use crate::error::{ErrorCode, ToolError};
use crate::errors::{from_chain, missing_adventurer};
use crate::indexer_types::AdventurerSummary;
use crate::server::LsServer;
use game::model::Adventurer;
use game::phase::{Phase, phase};
use indexer::denshokan::DenshokanError;
use indexer::torii::values::address_string;
use indexer::torii::{PageCursor, Scope, ToriiError};
use indexer::{GameIndex, IndexError};

/// Rows per page when the agent does not say.
pub const DEFAULT_LIMIT: u32 = 50;
/// Most rows per page; larger requests are capped.
pub const MAX_LIMIT: u32 = 200;
/// Most known ids examined on the chain for one fallback page.
pub(crate) const MAX_CHAIN_SCAN: usize = 400;

impl LsServer {
    /// The index the indexer tools read: the one configured (Torii, Denshokan), else the
    /// chain's own (the sim chain's), else none.
    pub(crate) fn game_index(&self) -> Option<&dyn GameIndex> {
        match &self.indexer.index {
            Some(index) => Some(index.as_ref()),
            None => self.backend.game_index(),
        }
    }

    /// The index to read, or `INDEXER_ERROR` when there is none.
    pub(crate) fn index(&self) -> Result<&dyn GameIndex, ToolError> {
        self.game_index()
            .ok_or_else(|| indexer_error(&ToriiError::NotConfigured))
    }

    pub(crate) fn wallet(&self) -> Result<Felt, ToolError> {
        self.indexer.wallet.ok_or_else(|| {
            ToolError::validation("this server has no wallet address; give an owner")
                .with_detail("field", "owner")
        })
    }

    /// The scope asked for, else `dungeon` when the profile names a dungeon and `all` otherwise;
    /// `dungeon` on a profile without one is a validation error.
    pub(crate) fn leaderboard_scope(&self, asked: Option<Scope>) -> Result<Scope, ToolError> {
        let index = self.game_index();
        let has_dungeon = index.and_then(|i| i.dungeon()).is_some();
        // The key that names the dungeon on this profile's index (v1: Torii's, v2: Denshokan's).
        let setting = index.map_or("chain.contracts.dungeon", |i| i.dungeon_setting());
        match asked {
            Some(Scope::Dungeon) if !has_dungeon => Err(ToolError::validation(
                "scope \"dungeon\" needs a profile that names the dungeon minting official games",
            )
            .with_detail("field", "scope")
            .with_detail("setting", setting)
            .with_hint(format!(
                "use scope \"all\"; naming the dungeon is the operator's setting {setting}"
            ))),
            Some(s) => Ok(s),
            None if has_dungeon => Ok(Scope::Dungeon),
            None => Ok(Scope::All),
        }
    }
}

/// The page size: default 50, capped at 200, at least 1.
pub(crate) fn page_limit(limit: Option<u64>) -> Result<u32, ToolError> {
    match limit {
        None => Ok(DEFAULT_LIMIT),
        Some(0) => Err(ToolError::validation("limit must be at least 1")
            .with_detail("field", "limit")
            .with_detail("max", MAX_LIMIT)),
        Some(n) => Ok(n.min(u64::from(MAX_LIMIT)) as u32),
    }
}

pub(crate) fn decode_cursor(token: &str) -> Result<PageCursor, ()> {
    PageCursor::decode(token).ok_or(())
}

pub(crate) fn bad_cursor() -> ToolError {
    ToolError::validation("cursor is not a next_cursor this tool returned")
        .with_detail("field", "cursor")
        .with_hint(
            "pass next_cursor from the previous page unchanged, or omit cursor to start over",
        )
}

/// A cursor whose filters differ from the arguments given with it.
pub(crate) fn cursor_mismatch() -> ToolError {
    ToolError::validation("the cursor belongs to a page with other filters").with_hint(
        "omit live_only, mine and scope when passing a cursor, or start over without one",
    )
}

/// Maps a Torii failure that no fallback can cover to `INDEXER_ERROR`.
pub(crate) fn indexer_error(e: &ToriiError) -> ToolError {
    let hint = match e {
        ToriiError::NotConfigured => "set torii.url in the profile or LS_TORII_URL",
        ToriiError::Unsupported(_) => "point the profile at a Torii 1.7.5 or later",
        _ if e.is_transient() => "the indexer is down or busy; retry in a moment",
        _ => "the indexer answered something this server cannot read; report it",
    };
    ToolError::new(ErrorCode::IndexerError, e.to_string())
        .retryable(e.is_transient())
        .with_detail("kind", e.kind())
        .with_hint(hint)
}

/// What still works without the Denshokan API.
const CHAIN_READS: &str = "meanwhile ls_get_adventurer reads a game by its id, and \
                           ls_get_game_events its history, from the chain";

/// `INDEXER_ERROR` for a Denshokan failure: retryable when a retry may help (a 429 after its
/// `retry_after`, a detail then), with a hint that leads to a call that works.
fn denshokan_error(e: &DenshokanError) -> ToolError {
    let (hint, retryable) = match e {
        DenshokanError::RateLimited {
            retry_after: Some(s),
        } => (format!("the Denshokan API is rate-limiting; retry in {s} s"), true),
        DenshokanError::RateLimited { retry_after: None } => (
            "the Denshokan API is rate-limiting; retry in a minute".into(),
            true,
        ),
        DenshokanError::NotFound(_) | DenshokanError::BadRequest(_) => (
            "check the owner address (0x hex) or start over without a cursor".into(),
            false,
        ),
        DenshokanError::NotConfigured => (
            format!(
                "the operator sets deployment.indexer_url (or LS_DENSHOKAN_URL) to a Denshokan API \
                 that indexes this chain; {CHAIN_READS}"
            ),
            false,
        ),
        DenshokanError::Unauthorized(_) => (
            format!(
                "the operator sets deployment.indexer_api_key (or LS_DENSHOKAN_API_KEY) to a key \
                 this API accepts, or removes it; {CHAIN_READS}"
            ),
            false,
        ),
        DenshokanError::Ambiguous(_) => (
            "ls_get_adventurer reads the game by its id from the chain, which knows which game \
             it is"
                .into(),
            false,
        ),
        _ if e.is_transient() => (
            "the Denshokan API is down or busy; retry in a moment (ls_get_adventurer reads a game from the chain)".into(),
            true,
        ),
        _ => (
            "the Denshokan API answered something this server cannot read; report it".into(),
            false,
        ),
    };
    let message = match e {
        DenshokanError::NotConfigured => "no indexer is configured for this deployment: the \
                                          leaderboard and an owner's games are read from a \
                                          Denshokan API, and this server names none"
            .to_string(),
        _ => e.to_string(),
    };
    let out = ToolError::new(ErrorCode::IndexerError, message)
        .retryable(retryable)
        .with_detail("kind", e.kind())
        .with_hint(hint);
    match e {
        DenshokanError::RateLimited {
            retry_after: Some(s),
        } => out.with_detail("retry_after", s),
        _ => out,
    }
}

/// Maps an index failure: Torii's and Denshokan's to `INDEXER_ERROR`, the chain's as any chain
/// failure.
pub(crate) fn index_error(e: IndexError) -> ToolError {
    match e {
        IndexError::Torii(e) => indexer_error(&e),
        IndexError::Denshokan(e) => denshokan_error(&e),
        IndexError::Chain(e) => from_chain(e),
        IndexError::NoSuchAdventurer(id) => missing_adventurer(id),
        e @ IndexError::NotServed { .. } => ToolError::new(ErrorCode::IndexerError, e.to_string())
            .retryable(false)
            .with_detail("kind", "not_served")
            .with_hint(
                "start over without a cursor; an adventurer's state is in ls_get_adventurer and \
                 each action's events in its write tool's result",
            ),
    }
}

/// The cursor of the page after an offset-paged index's page, when there is one.
pub(crate) fn owner_offset_cursor(owner: Felt, next_offset: Option<u64>) -> Option<String> {
    next_offset.map(|offset| {
        PageCursor::OwnerOffset {
            owner: address_string(owner),
            offset,
        }
        .encode()
    })
}

/// The cursor of the page after `page` of an owner's games (newest first), when there is one.
pub(crate) fn owner_cursor(
    owner: Felt,
    page: &[AdventurerSummary],
    has_more: bool,
) -> Option<String> {
    let last = page.last().filter(|_| has_more)?;
    Some(
        PageCursor::Owner {
            owner: address_string(owner),
            before: last.adventurer_id,
        }
        .encode(),
    )
}

/// One game as the chain describes it.
pub(crate) fn chain_summary(id: AdventurerId, a: &Adventurer) -> AdventurerSummary {
    let p = phase(a);
    AdventurerSummary {
        adventurer_id: id,
        token: game::token_fields::TokenInfo::of(id),
        phase: Some(p),
        level: a.level(),
        xp: a.xp,
        health: Some(a.health),
        gold: Some(a.gold),
        action_count: Some(a.action_count),
        player_name: None,
        game_over: p == Phase::Dead,
        source: "chain".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn limits_default_cap_and_floor() {
        assert_eq!(page_limit(None).unwrap(), 50);
        assert_eq!(page_limit(Some(1)).unwrap(), 1);
        assert_eq!(page_limit(Some(200)).unwrap(), 200);
        assert_eq!(page_limit(Some(201)).unwrap(), 200);
        assert_eq!(page_limit(Some(u64::MAX)).unwrap(), 200);
        let e = page_limit(Some(0)).unwrap_err();
        assert_eq!(e.code, ErrorCode::ValidationError);
    }

    #[test]
    fn indexer_errors_say_whether_to_retry() {
        let e = indexer_error(&ToriiError::Timeout(5));
        assert_eq!(e.code, ErrorCode::IndexerError);
        assert!(e.retryable);
        assert_eq!(e.details["kind"], "timeout");
        let e = indexer_error(&ToriiError::Malformed("x".into()));
        assert!(!e.retryable);
        let e = indexer_error(&ToriiError::NotConfigured);
        assert!(!e.retryable);
        assert!(e.hint.unwrap().contains("LS_TORII_URL"));
        let e = indexer_error(&ToriiError::Unsupported("keys".into()));
        assert!(e.hint.unwrap().contains("1.7.5"));
    }

    #[test]
    fn index_errors_keep_their_layer_s_code() {
        let e = index_error(IndexError::Torii(ToriiError::Timeout(5)));
        assert_eq!((e.code, e.retryable), (ErrorCode::IndexerError, true));
        let e = index_error(IndexError::Chain(chain::ChainError::Rpc(
            chain::RpcFailure::NonceRejected,
        )));
        assert_eq!(e.code, ErrorCode::RpcError);
        let e = index_error(IndexError::NoSuchAdventurer(AdventurerId::from(9u64)));
        assert_eq!(e.code, ErrorCode::NotFound);
        assert_eq!(e.details["adventurer_id"], 9);
    }

    #[test]
    fn denshokan_failures_are_indexer_errors_that_say_when_to_retry() {
        let limited = DenshokanError::RateLimited {
            retry_after: Some(42),
        };
        let e = index_error(IndexError::Denshokan(limited));
        assert_eq!((e.code, e.retryable), (ErrorCode::IndexerError, true));
        assert_eq!(e.details["retry_after"], 42);
        assert_eq!(e.details["kind"], "rate_limited");
        assert!(e.hint.unwrap().contains("retry in 42 s"));
        let e = index_error(IndexError::Denshokan(DenshokanError::Connect("x".into())));
        assert!(e.retryable);
        assert!(e.details.get("retry_after").is_none());
        assert!(e.hint.unwrap().contains("retry in a moment"));
        let e = index_error(IndexError::Denshokan(DenshokanError::Malformed("x".into())));
        assert!(!e.retryable);
        assert!(e.hint.unwrap().contains("report it"));
        let e = index_error(IndexError::Denshokan(DenshokanError::NotConfigured));
        assert_eq!(
            (e.retryable, &e.details["kind"]),
            (false, &json!("not_configured"))
        );
        assert!(
            e.message
                .starts_with("no indexer is configured for this deployment")
        );
        let hint = e.hint.unwrap();
        assert!(hint.contains("deployment.indexer_url") && hint.contains("ls_get_adventurer"));
        assert!(!hint.contains("retry"), "{hint}");
        let e = index_error(IndexError::Denshokan(DenshokanError::Unauthorized(
            "no".into(),
        )));
        assert_eq!(
            (e.retryable, &e.details["kind"]),
            (false, &json!("unauthorized"))
        );
        assert!(e.hint.unwrap().contains("deployment.indexer_api_key"));
        let e = index_error(IndexError::Denshokan(DenshokanError::Ambiguous(
            "two".into(),
        )));
        assert_eq!(
            (e.retryable, &e.details["kind"]),
            (false, &json!("ambiguous"))
        );
        assert!(
            e.message.contains("cannot tell which game"),
            "{}",
            e.message
        );
        assert!(e.hint.unwrap().starts_with("ls_get_adventurer"));
        let e = index_error(IndexError::NotServed {
            index: "denshokan",
            what: "event histories",
        });
        assert_eq!((e.code, e.retryable), (ErrorCode::IndexerError, false));
        assert_eq!(e.details["kind"], "not_served");
        assert_eq!(
            e.message,
            "the denshokan index does not serve event histories"
        );
    }
}
