//! A game token as the Denshokan API writes it, read into typed fields.
//!
//! The API serialises its `tokens` rows with camelCase keys; the numeric and bigint columns that
//! may exceed a JS number (`tokenId`, `mintedBy`, `currentScore`) as decimal strings, the integer
//! columns (`gameId`, `settingsId`, `completedAt`) as JSON numbers, timestamps as ISO strings and
//! addresses as unpadded lowercase hex (Provable-Games/denshokan `api/src/routes/tokens.ts`
//! `serializeToken`, `indexer/src/lib/schema.ts` `tokens`, `api/src/utils/validation.ts`
//! `parseAddress`, all at commit `aa8eb22`). Unknown fields are ignored, so later columns do not
//! break reading.

use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use starknet_types_core::felt::Felt;

use super::DenshokanError;

/// How far the API's `currentScore` and `gameOver` may be behind the chain: the indexer refreshes
/// them by re-reading the token URI after each `MetadataUpdate`, which takes up to about 30 s.
pub const MAX_LAG: Duration = Duration::from_secs(30);

/// What a reader should be told about any Denshokan answer, as [`TokenPage::lagging`] flags it.
pub const LAG_NOTE: &str = "scores and game-over flags come from the Denshokan index and may lag \
    the chain by up to ~30 s; an adventurer's live state comes from the chain";

/// One game token (one adventurer) as the API lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The packed token id (felt252; `game::token_fields::TokenFields` reads its fields).
    pub token_id: Felt,
    /// The game's registry id (Death Mountain is 1).
    pub game_id: u32,
    /// The minter's registry id (which dungeon or tournament minted the token).
    pub minted_by: u64,
    /// The game settings the token plays with.
    pub settings_id: u32,
    /// When it was minted (ISO 8601, as the API writes it).
    pub minted_at: String,
    /// Whether the game is over, as last indexed (may lag: [`MAX_LAG`]).
    pub game_over: bool,
    /// When the game was completed, as the token's metadata says (absent while it runs).
    pub completed_at: Option<u64>,
    /// The current owner.
    pub owner_address: Felt,
    /// The player's name, when one was set.
    pub player_name: Option<String>,
    /// The score, as last indexed (may lag: [`MAX_LAG`]).
    pub current_score: u64,
    /// When the API last updated the row (ISO 8601).
    pub last_updated_at: Option<String>,
    /// The minter's contract (the dungeon), when the API knows it.
    pub minter_address: Option<Felt>,
    /// The game's contract, when the API knows it.
    pub game_address: Option<Felt>,
    /// Whether the token cannot be transferred.
    pub soulbound: bool,
}

/// One page of tokens: `{data, total, limit, offset}` as the API answers a list.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenPage {
    /// The rows of this page.
    pub tokens: Vec<Token>,
    /// How many rows match the filters in all.
    pub total: u64,
    /// The limit the API echoes: the one asked for, which may exceed the rows it returns.
    pub limit: u64,
    /// The offset of the first row.
    pub offset: u64,
    /// Always true: scores and game-over flags may lag the chain ([`LAG_NOTE`]).
    pub lagging: bool,
    /// Age of the page when it came from the client's cache.
    pub cache_age: Option<Duration>,
    /// Set when the API failed and an older cached page is served instead.
    pub stale_because: Option<DenshokanError>,
    /// Rows of this page that name no game (no `gameId`): left out, still counted for paging.
    pub unlisted: u64,
}

impl TokenPage {
    /// The offset of the next page, or `None` when this page reaches the end (or is empty).
    /// Counted from the rows returned, not the echoed limit, which the API does not cap.
    pub fn next_offset(&self) -> Option<u64> {
        let read = self.tokens.len() as u64 + self.unlisted;
        let next = self.offset + read;
        (read > 0 && next < self.total).then_some(next)
    }
}

/// A token's place on a leaderboard: `{tokenId, rank, total, score}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenRank {
    /// The token ranked.
    pub token_id: Felt,
    /// 1-based rank: one more than the tokens in scope with a higher score, or the same score
    /// and an earlier mint.
    pub rank: u64,
    /// How many tokens the scope holds.
    pub total: u64,
    /// The token's score, as last indexed.
    pub score: u64,
    /// Always true: the rank comes from the index and may lag the chain ([`LAG_NOTE`]).
    pub lagging: bool,
}

/// A bigint the API writes as a decimal string (read also from a plain JSON number).
#[derive(Deserialize)]
#[serde(untagged)]
enum Decimal {
    Text(String),
    Number(u64),
}

/// The fields of a token row that the client keeps, as the API names them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireToken {
    token_id: Decimal,
    game_id: u32,
    minted_by: Decimal,
    settings_id: u32,
    minted_at: String,
    game_over: bool,
    completed_at: Option<u64>,
    owner_address: String,
    player_name: Option<String>,
    current_score: Decimal,
    last_updated_at: Option<String>,
    minter_address: Option<String>,
    game_address: Option<String>,
    #[serde(default)]
    soulbound: bool,
}

/// The rank object of `GET /tokens/:id/rank`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireRank {
    token_id: Decimal,
    rank: u64,
    total: u64,
    score: Decimal,
}

/// A felt written in decimal (a `numeric` column): digits only, below the field prime.
pub(crate) fn decimal_felt(text: &str) -> Option<Felt> {
    if text.is_empty() || text.len() > 78 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let f = Felt::from_dec_str(text).ok()?;
    let canonical = text.trim_start_matches('0');
    (f.to_string() == canonical || (canonical.is_empty() && f == Felt::ZERO)).then_some(f)
}

/// An address written as `0x` hex.
fn hex_felt(text: &str, what: &str) -> Result<Felt, DenshokanError> {
    game::felt::parse_felt(text)
        .ok()
        .filter(|_| text.starts_with("0x"))
        .ok_or_else(|| DenshokanError::Malformed(format!("{what} is not a 0x address")))
}

impl Decimal {
    fn felt(&self, what: &str) -> Result<Felt, DenshokanError> {
        match self {
            Self::Number(n) => Some(Felt::from(*n)),
            Self::Text(s) => decimal_felt(s),
        }
        .ok_or_else(|| DenshokanError::Malformed(format!("{what} is not a decimal felt")))
    }

    fn u64(&self, what: &str) -> Result<u64, DenshokanError> {
        u64::try_from(self.felt(what)?)
            .map_err(|_| DenshokanError::Malformed(format!("{what} does not fit in 64 bits")))
    }
}

impl Token {
    /// Reads one token object of an answer's `data`.
    pub(crate) fn from_json(v: &Value) -> Result<Self, DenshokanError> {
        let w = WireToken::deserialize(v)
            .map_err(|e| DenshokanError::Malformed(format!("token row: {e}")))?;
        let optional = |a: &Option<String>, what: &str| a.as_deref().map(|s| hex_felt(s, what));
        Ok(Self {
            token_id: w.token_id.felt("tokenId")?,
            game_id: w.game_id,
            minted_by: w.minted_by.u64("mintedBy")?,
            settings_id: w.settings_id,
            minted_at: w.minted_at,
            game_over: w.game_over,
            completed_at: w.completed_at,
            owner_address: hex_felt(&w.owner_address, "ownerAddress")?,
            player_name: w.player_name,
            current_score: w.current_score.u64("currentScore")?,
            last_updated_at: w.last_updated_at,
            minter_address: optional(&w.minter_address, "minterAddress").transpose()?,
            game_address: optional(&w.game_address, "gameAddress").transpose()?,
            soulbound: w.soulbound,
        })
    }
}

impl TokenPage {
    /// Reads a list answer `{data: [Token], total, limit, offset}`.
    pub(crate) fn from_json(v: &Value) -> Result<Self, DenshokanError> {
        let rows = v
            .get("data")
            .and_then(Value::as_array)
            .ok_or_else(|| DenshokanError::Malformed("list answer has no `data` array".into()))?;
        let number = |name: &str| {
            v.get(name).and_then(Value::as_u64).ok_or_else(|| {
                DenshokanError::Malformed(format!("list answer has no numeric `{name}`"))
            })
        };
        // A row without a game id is no game's (newer Denshokan code writes such rows): it is
        // left out rather than failing the page.
        let (listed, unlisted): (Vec<&Value>, Vec<&Value>) = rows
            .iter()
            .partition(|r| r.get("gameId").is_some_and(|g| !g.is_null()));
        Ok(Self {
            tokens: listed
                .into_iter()
                .map(Token::from_json)
                .collect::<Result<_, _>>()?,
            unlisted: unlisted.len() as u64,
            total: number("total")?,
            limit: number("limit")?,
            offset: number("offset")?,
            lagging: true,
            cache_age: None,
            stale_because: None,
        })
    }
}

impl TokenRank {
    /// Reads a rank answer's `data`.
    pub(crate) fn from_json(v: &Value) -> Result<Self, DenshokanError> {
        let w = WireRank::deserialize(v)
            .map_err(|e| DenshokanError::Malformed(format!("rank: {e}")))?;
        Ok(Self {
            token_id: w.token_id.felt("tokenId")?,
            rank: w.rank,
            total: w.total,
            score: w.score.u64("score")?,
            lagging: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row() -> Value {
        json!({
            "id": "5d2c4f7e-0000-4000-8000-000000000001",
            "tokenId": "1809251394333065553493296640760748560207343510400633813116524750123642650624",
            "gameId": 1, "mintedBy": "19", "settingsId": 0,
            "mintedAt": "2025-10-01T12:00:00.000Z", "gameOver": true, "completedAt": 1759320000,
            "ownerAddress": "0x5b1e", "playerName": null, "currentScore": "161",
            "lastUpdatedAt": "2025-10-01T12:30:00.000Z", "minterAddress": "0xd0",
            "gameAddress": null, "soulbound": false, "createdAtBlock": "1700000",
            "somethingNew": {"nested": [1, 2]}
        })
    }

    #[test]
    fn a_row_is_read_with_its_big_id_and_unknown_fields_ignored() {
        let t = Token::from_json(&row()).unwrap();
        assert_eq!(t.token_id, Felt::from(1u8) * Felt::TWO.pow(250u32));
        assert_eq!(t.minted_by, 19);
        assert_eq!(t.current_score, 161);
        assert_eq!(t.owner_address, Felt::from(0x5b1e_u64));
        assert_eq!(t.minter_address, Some(Felt::from(0xd0_u64)));
        assert_eq!(t.game_address, None);
        assert_eq!(t.completed_at, Some(1_759_320_000));
    }

    #[test]
    fn bad_numbers_and_addresses_are_malformed() {
        for (key, value) in [
            ("tokenId", json!("-1")),
            ("tokenId", json!("0x10")),
            ("tokenId", json!("1e3")),
            ("currentScore", json!("18446744073709551616")),
            ("ownerAddress", json!("5b1e")),
            ("gameOver", json!("yes")),
        ] {
            let mut r = row();
            r[key] = value.clone();
            let e = Token::from_json(&r).unwrap_err();
            assert!(matches!(e, DenshokanError::Malformed(_)), "{key}={value}");
        }
    }

    #[test]
    fn decimal_felts_are_canonical_and_below_the_prime() {
        assert_eq!(decimal_felt("0"), Some(Felt::ZERO));
        assert_eq!(decimal_felt("007"), Some(Felt::from(7u8)));
        let p = "3618502788666131213697322783095070105623107215331596699973092056135872020481";
        assert_eq!(decimal_felt(p), None);
        let p_minus_1 =
            "3618502788666131213697322783095070105623107215331596699973092056135872020480";
        assert_eq!(decimal_felt(p_minus_1), Some(Felt::MAX));
        assert_eq!(decimal_felt(""), None);
        assert_eq!(decimal_felt("+1"), None);
    }

    #[test]
    fn pages_know_where_the_next_one_starts() {
        let page = |n: usize, total: u64, offset: u64| TokenPage {
            tokens: vec![Token::from_json(&row()).unwrap(); n],
            total,
            limit: 5000,
            offset,
            lagging: true,
            cache_age: None,
            stale_because: None,
            unlisted: 0,
        };
        assert_eq!(page(1000, 1205, 0).next_offset(), Some(1000));
        assert_eq!(page(205, 1205, 1000).next_offset(), None);
        assert_eq!(page(0, 1205, 2000).next_offset(), None);
    }

    #[test]
    fn pages_and_ranks_are_read() {
        let p =
            TokenPage::from_json(&json!({"data": [row()], "total": 7, "limit": 50, "offset": 0}))
                .unwrap();
        assert_eq!(
            (p.tokens.len(), p.total, p.limit, p.lagging),
            (1, 7, 50, true)
        );
        assert!(TokenPage::from_json(&json!({"data": [], "total": "7"})).is_err());
        // A row that names no game is left out, and still counted for paging.
        let mut gameless = row();
        gameless["gameId"] = Value::Null;
        let mut missing = row();
        missing.as_object_mut().unwrap().remove("gameId");
        let p = TokenPage::from_json(
            &json!({"data": [row(), gameless, missing], "total": 9, "limit": 3, "offset": 0}),
        )
        .unwrap();
        assert_eq!(
            (p.tokens.len(), p.unlisted, p.next_offset()),
            (1, 2, Some(3))
        );
        let r =
            TokenRank::from_json(&json!({"tokenId": "42", "rank": 3, "total": 9, "score": "88"}))
                .unwrap();
        assert_eq!(
            (r.token_id, r.rank, r.total, r.score),
            (Felt::from(42u8), 3, 9, 88)
        );
    }
}
