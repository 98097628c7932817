//! The Denshokan API of Provable Games: the leaderboard, an owner's games and a game's rank for
//! the game generation that has no Torii world (mainnet's Death Mountain v2).
//!
//! A REST service over the indexed game tokens (Provable-Games/denshokan `api/src/routes/*.ts`
//! at commit `aa8eb22`): `GET /tokens` (filtered, sorted, paged, at most 1,000 rows a page),
//! `GET /tokens/:id`, `GET /tokens/:id/rank` and `GET /players/:address/tokens` (at most 100
//! rows), and `GET /health` for `check`. Token ids are felts (they pack the game, the minter
//! and the mint time into 251 bits).
//! Scores and game-over flags may lag the chain by up to ~30 s ([`LAG_NOTE`]): every list and
//! rank says so, and live state is read from the chain. [`DenshokanIndex`] answers the indexer
//! tools' leaderboard and owner's games from it, and [`DenshokanStream`] (its WebSocket) tells the
//! followers of the leaderboard when the API's tokens change.

mod client;
mod error;
mod index;
mod messages;
mod query;
mod socket;
mod token;

pub use client::{API_KEY_HEADER, DEFAULT_BASE_URL, DenshokanClient, DenshokanOptions, Health};
pub use error::DenshokanError;
pub use index::{DEATH_MOUNTAIN_GAME_ID, DenshokanIndex};
pub use query::{
    MAX_PLAYER_TOKENS_LIMIT, MAX_TOKENS_LIMIT, Paging, PlayerTokensQuery, RankScope, SortBy,
    SortOrder, TokensQuery,
};
pub use socket::{DenshokanStream, StreamError};
pub use token::{LAG_NOTE, MAX_LAG, Token, TokenPage, TokenRank};
