//! The filters, sort and paging of the Denshokan API's list routes, as query-string pairs.
//!
//! Names and values are those the routes read (Provable-Games/denshokan `api/src/routes/tokens.ts`
//! `GET /`, `api/src/routes/players.ts` `GET /:address/tokens`, `api/src/utils/rank.ts`
//! `parseRankScopeFromGetter`, at commit `aa8eb22`): addresses as `0x` hex (the API lowercases
//! and unpads them itself), booleans as `true`/`false`, numbers in decimal.

use starknet_types_core::felt::Felt;

/// Most rows `GET /tokens` returns in one page (the route caps larger limits to this).
pub const MAX_TOKENS_LIMIT: u32 = 1000;
/// Most rows `GET /players/:address/tokens` returns in one page (capped the same way).
pub const MAX_PLAYER_TOKENS_LIMIT: u32 = 100;

/// What a list is sorted by (the routes' `sort_by`; unknown names sort by last update).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SortBy {
    /// `currentScore`.
    Score,
    /// `mintedAt`.
    Minted,
    /// `lastUpdatedAt` (the API's default).
    Updated,
    /// `completedAt` (only `GET /tokens` knows it; the player route sorts by last update).
    CompletedAt,
}

impl SortBy {
    /// The name the API reads.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Score => "score",
            Self::Minted => "minted",
            Self::Updated => "updated",
            Self::CompletedAt => "completedAt",
        }
    }
}

/// Sort direction (the API's default is descending).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SortOrder {
    /// Smallest first.
    Asc,
    /// Largest first.
    Desc,
}

impl SortOrder {
    /// The name the API reads.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Asc => "asc",
            Self::Desc => "desc",
        }
    }
}

/// Sort and paging, as both list routes read them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Paging {
    /// The sort field.
    pub sort_by: Option<SortBy>,
    /// The sort direction.
    pub sort_order: Option<SortOrder>,
    /// Rows per page, sent capped at the route's cap; the API's default is 50.
    pub limit: Option<u32>,
    /// Rows to skip.
    pub offset: u64,
}

impl Paging {
    /// Pushes the sort, the limit capped at `cap`, the offset and `include_uri=false`.
    fn push_pairs(&self, out: &mut Vec<(&'static str, String)>, cap: u32) {
        push(out, "sort_by", self.sort_by.map(SortBy::as_str));
        push(out, "sort_order", self.sort_order.map(SortOrder::as_str));
        push(out, "limit", self.limit.map(|l| l.min(cap)));
        push(out, "offset", Some(self.offset));
        out.push(("include_uri", "false".into()));
    }
}

/// A `GET /tokens` request: every filter is optional; `include_uri=false` is always sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct TokensQuery {
    /// Only this game's tokens (Death Mountain is 1).
    pub game_id: Option<u32>,
    /// Only tokens minted by this contract (the official scope: the dungeon). An address the API
    /// does not know as a minter gives an empty page.
    pub minter_address: Option<Felt>,
    /// Only tokens this address owns.
    pub owner: Option<Felt>,
    /// Only finished (`true`) or running (`false`) games.
    pub game_over: Option<bool>,
    /// Sort and paging; the limit is capped at [`MAX_TOKENS_LIMIT`].
    pub paging: Paging,
}

impl TokensQuery {
    /// The query-string pairs, in a fixed order.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        push(&mut out, "game_id", self.game_id);
        push(&mut out, "minter_address", self.minter_address.map(hex));
        push(&mut out, "owner", self.owner.map(hex));
        push(&mut out, "game_over", self.game_over);
        self.paging.push_pairs(&mut out, MAX_TOKENS_LIMIT);
        out
    }

    /// The same query at another offset.
    pub fn at(&self, offset: u64) -> Self {
        let mut q = self.clone();
        q.paging.offset = offset;
        q
    }
}

/// A `GET /players/:address/tokens` request (the address is the path's). `include_uri=false` is
/// sent as on `/tokens`, though at `aa8eb22` this route ignores it and every row carries its
/// `tokenUri` (about 40 KB), and its sort has no `completedAt` (it sorts by last update).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct PlayerTokensQuery {
    /// Only this game's tokens.
    pub game_id: Option<u32>,
    /// Only finished (`true`) or running (`false`) games.
    pub game_over: Option<bool>,
    /// Sort and paging; the limit is capped at [`MAX_PLAYER_TOKENS_LIMIT`].
    pub paging: Paging,
}

impl PlayerTokensQuery {
    /// The query-string pairs, in a fixed order.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        push(&mut out, "game_id", self.game_id);
        push(&mut out, "game_over", self.game_over);
        self.paging.push_pairs(&mut out, MAX_PLAYER_TOKENS_LIMIT);
        out
    }
}

/// The scope a rank is counted in (`GET /tokens/:id/rank`); all filters optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct RankScope {
    /// Only this game's tokens.
    pub game_id: Option<u32>,
    /// Only tokens minted by this contract (the dungeon). An unknown minter is a 404.
    pub minter_address: Option<Felt>,
    /// Only finished (`true`) or running (`false`) games.
    pub game_over: Option<bool>,
}

impl RankScope {
    /// The query-string pairs, in a fixed order.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        push(&mut out, "game_id", self.game_id);
        push(&mut out, "minter_address", self.minter_address.map(hex));
        push(&mut out, "game_over", self.game_over);
        out
    }
}

/// An address as the API's `parseAddress` accepts it: `0x` and lowercase hex.
pub(crate) fn hex(f: Felt) -> String {
    format!("{f:#x}")
}

fn push<T: ToString>(out: &mut Vec<(&'static str, String)>, name: &'static str, v: Option<T>) {
    if let Some(v) = v {
        out.push((name, v.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_filter_is_named_as_the_route_reads_it() {
        let q = TokensQuery {
            game_id: Some(1),
            minter_address: Some(Felt::from(0xABCu64)),
            owner: Some(Felt::from(0x5b1eu64)),
            game_over: Some(false),
            paging: Paging {
                sort_by: Some(SortBy::CompletedAt),
                sort_order: Some(SortOrder::Asc),
                limit: Some(20),
                offset: 40,
            },
        };
        let text: Vec<String> = q.pairs().iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(
            text.join("&"),
            "game_id=1&minter_address=0xabc&owner=0x5b1e&game_over=false&sort_by=completedAt\
             &sort_order=asc&limit=20&offset=40&include_uri=false"
        );
    }

    #[test]
    fn limits_are_capped_and_include_uri_is_always_false() {
        let paging = Paging {
            limit: Some(5000),
            ..Default::default()
        };
        let q = TokensQuery {
            paging: paging.clone(),
            ..Default::default()
        };
        let pairs = q.pairs();
        assert!(pairs.contains(&("limit", "1000".into())));
        assert_eq!(pairs.last(), Some(&("include_uri", "false".into())));
        let pairs = TokensQuery::default().pairs();
        assert!(!pairs.iter().any(|(k, _)| *k == "limit"));
        assert!(pairs.contains(&("include_uri", "false".into())));
        let p = PlayerTokensQuery {
            paging,
            ..Default::default()
        };
        assert!(p.pairs().contains(&("limit", "100".into())));
        assert_eq!(q.at(1000).paging.offset, 1000);
        assert_eq!(q.at(1000).paging.limit, Some(5000));
    }

    #[test]
    fn rank_scopes_send_only_what_is_set() {
        assert!(RankScope::default().pairs().is_empty());
        let s = RankScope {
            minter_address: Some(Felt::from(0xd0u64)),
            ..Default::default()
        };
        assert_eq!(s.pairs(), vec![("minter_address", "0xd0".to_string())]);
    }
}
