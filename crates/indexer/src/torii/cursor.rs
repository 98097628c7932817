//! Opaque page tokens handed to the agent as `next_cursor` and taken back as `cursor`. They are
//! base64url JSON so they survive any client, and every field is re-validated on the way in
//! (numbers only) because the agent can edit them; nothing from a cursor reaches a query as text.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use game::AdventurerId;
use serde::{Deserialize, Serialize};

use super::leaderboard::Scope;

/// Where the next page starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k", deny_unknown_fields)]
pub enum PageCursor {
    /// Leaderboard: rows ranked after `rank`, with the filters of the first page.
    #[serde(rename = "lb")]
    Leaderboard {
        /// Last rank returned.
        rank: u64,
        /// Only games not over.
        live: bool,
        /// Only this owner's games (padded address) when set.
        owner: Option<String>,
        /// Which games are ranked (cursors issued before scopes existed ranked every game).
        #[serde(default)]
        scope: Scope,
        /// Rows of the filtered list already returned, for an index that pages by offset
        /// (Denshokan); absent for one that pages by rank.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offset: Option<u64>,
    },
    /// An owner's games, newest (highest token id) first: ids below `before`.
    #[serde(rename = "own")]
    Owner {
        /// Owner address (`0x` hex).
        owner: String,
        /// Smallest id returned so far.
        before: AdventurerId,
    },
    /// An owner's games in an offset-paged index's order (Denshokan: newest mint first; packed
    /// ids do not sort by mint time): the rows after the first `offset`.
    #[serde(rename = "owno")]
    OwnerOffset {
        /// Owner address (`0x` hex).
        owner: String,
        /// Rows already returned.
        offset: u64,
    },
    /// An adventurer's events in chain order: from `action` on, skipping `skip` events of it.
    #[serde(rename = "ev")]
    Events {
        /// The adventurer.
        id: AdventurerId,
        /// Action count of the last event returned.
        action: u64,
        /// Events with that action count already returned.
        skip: u64,
    },
}

impl PageCursor {
    /// The token given to the agent.
    pub fn encode(&self) -> String {
        let json = serde_json::to_vec(self).unwrap_or_default();
        URL_SAFE_NO_PAD.encode(json)
    }

    /// Parses a token; `None` if it is not one this server issued.
    pub fn decode(token: &str) -> Option<Self> {
        if token.len() > 512 {
            return None;
        }
        let bytes = URL_SAFE_NO_PAD.decode(token.trim()).ok()?;
        let c: Self = serde_json::from_slice(&bytes).ok()?;
        let owner_ok = |o: &str| {
            o.starts_with("0x")
                && o.len() <= 66
                && o.len() > 2
                && o[2..].chars().all(|c| c.is_ascii_hexdigit())
        };
        match &c {
            Self::Leaderboard { owner: Some(o), .. }
            | Self::Owner { owner: o, .. }
            | Self::OwnerOffset { owner: o, .. }
                if !owner_ok(o) =>
            {
                None
            }
            _ => Some(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip() {
        for c in [
            PageCursor::Leaderboard {
                rank: 50,
                live: true,
                owner: Some("0xabc".into()),
                scope: Scope::Dungeon,
                offset: None,
            },
            PageCursor::Leaderboard {
                rank: 71,
                live: true,
                owner: None,
                scope: Scope::All,
                offset: Some(20),
            },
            PageCursor::OwnerOffset {
                owner: "0x1".into(),
                offset: 40,
            },
            PageCursor::Owner {
                owner: "0x1".into(),
                before: AdventurerId::from(9u64),
            },
            PageCursor::Events {
                id: AdventurerId::from(7u64),
                action: 3,
                skip: 2,
            },
        ] {
            let t = c.encode();
            assert!(
                t.chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_')
            );
            assert_eq!(PageCursor::decode(&t), Some(c));
        }
    }

    #[test]
    fn a_rank_paged_cursor_is_written_as_before_offsets_existed() {
        let c = PageCursor::Leaderboard {
            rank: 50,
            live: false,
            owner: None,
            scope: Scope::All,
            offset: None,
        };
        let json = String::from_utf8(URL_SAFE_NO_PAD.decode(c.encode()).unwrap()).unwrap();
        assert_eq!(
            json,
            r#"{"k":"lb","rank":50,"live":false,"owner":null,"scope":"all"}"#
        );
        assert_eq!(PageCursor::decode(&c.encode()), Some(c));
    }

    #[test]
    fn foreign_or_edited_cursors_are_refused() {
        assert_eq!(PageCursor::decode("not a cursor"), None);
        assert_eq!(PageCursor::decode(""), None);
        let evil = URL_SAFE_NO_PAD.encode(r#"{"k":"own","owner":"0x1' OR 1=1 --","before":1}"#);
        assert_eq!(PageCursor::decode(&evil), None);
        let neg = URL_SAFE_NO_PAD.encode(r#"{"k":"lb","rank":-1,"live":false,"owner":null}"#);
        assert_eq!(PageCursor::decode(&neg), None);
        let evil = URL_SAFE_NO_PAD.encode(r#"{"k":"owno","owner":"0x1;","offset":1}"#);
        assert_eq!(PageCursor::decode(&evil), None);
        let neg = URL_SAFE_NO_PAD.encode(r#"{"k":"owno","owner":"0x1","offset":-5}"#);
        assert_eq!(PageCursor::decode(&neg), None);
        let extra = URL_SAFE_NO_PAD.encode(r#"{"k":"ev","id":1,"action":1,"skip":0,"x":1}"#);
        assert_eq!(PageCursor::decode(&extra), None);
    }
}
