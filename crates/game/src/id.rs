//! An adventurer's id: a game token id, which is a felt252. The Dojo world (v1) mints small
//! integers; the second generation's Denshokan token ids are packed 251-bit numbers
//! ([`crate::token_fields`]), beyond what a JSON number holds exactly.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use starknet_types_core::felt::Felt;

use crate::felt::parse_felt;

/// Largest integer a JSON number carries exactly (2^53 - 1): larger ids are written as strings.
pub const MAX_JSON_INTEGER: u64 = (1 << 53) - 1;

/// An adventurer (game token) id. Written in JSON as a number when it fits 2^53, else as a
/// decimal string; read from a number up to 2^53, or a decimal or `0x` hex string.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct AdventurerId(Felt);

/// Why text or a JSON value is not an adventurer id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    /// Not a decimal or `0x` hex felt.
    #[error("expected a decimal or 0x-hex id ({0})")]
    Text(String),
    /// A JSON number above 2^53, which JSON cannot carry exactly.
    #[error("above 2^53: pass the id as a string ({0})")]
    Imprecise(String),
}

impl AdventurerId {
    /// The id as the felt the contracts take.
    pub const fn felt(self) -> Felt {
        self.0
    }

    /// The id as a `u64`, when it is one (every v1 id is).
    pub fn to_u64(self) -> Option<u64> {
        u64::try_from(self.0).ok()
    }

    /// The low 64 bits: a stable number for simulations that only need to tell adventurers
    /// apart (the v1 rules take a `u64` id, and every v1 id is one).
    pub fn low_u64(self) -> u64 {
        self.u256_words().0 as u64
    }

    /// The id as a u256's `(low, high)` 128-bit words (ERC721 token ids are u256).
    pub fn u256_words(self) -> (u128, u128) {
        let b = self.0.to_bytes_be();
        let high = u128::from_be_bytes(b[..16].try_into().expect("16 bytes"));
        let low = u128::from_be_bytes(b[16..].try_into().expect("16 bytes"));
        (low, high)
    }

    /// The id of a u256 token id's words, if it is below the field prime.
    pub fn from_u256_words(low: u128, high: u128) -> Option<Self> {
        let mut bytes = [0u8; 32];
        bytes[..16].copy_from_slice(&high.to_be_bytes());
        bytes[16..].copy_from_slice(&low.to_be_bytes());
        // `from_bytes_be` reduces modulo the prime: a value that does not read back was above it.
        let felt = Felt::from_bytes_be(&bytes);
        (felt.to_bytes_be() == bytes).then_some(Self(felt))
    }

    /// Parses a decimal or `0x` hex id below the field prime.
    pub fn parse(text: &str) -> Result<Self, IdError> {
        parse_felt(text)
            .map(Self)
            .map_err(|why| IdError::Text(format!("\"{}\": {why}", shorten(text))))
    }

    /// Reads an id from a JSON number (up to 2^53) or string (decimal or `0x` hex).
    pub fn from_json(value: &serde_json::Value) -> Result<Self, IdError> {
        match value {
            serde_json::Value::String(s) => Self::parse(s),
            serde_json::Value::Number(n) => match n.as_u64() {
                Some(v) if v <= MAX_JSON_INTEGER => Ok(Self::from(v)),
                Some(v) => Err(IdError::Imprecise(v.to_string())),
                None => Err(IdError::Text(format!("{n}: not a non-negative integer"))),
            },
            other => Err(IdError::Text(format!(
                "{}: not a number or string",
                kind(other)
            ))),
        }
    }
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= 80 {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(80).collect::<String>())
    }
}

fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
    }
}

impl From<u64> for AdventurerId {
    fn from(v: u64) -> Self {
        Self(Felt::from(v))
    }
}

impl PartialEq<u64> for AdventurerId {
    fn eq(&self, other: &u64) -> bool {
        self.to_u64() == Some(*other)
    }
}

impl From<Felt> for AdventurerId {
    fn from(f: Felt) -> Self {
        Self(f)
    }
}

impl From<AdventurerId> for Felt {
    fn from(id: AdventurerId) -> Self {
        id.0
    }
}

impl fmt::Display for AdventurerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for AdventurerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::str::FromStr for AdventurerId {
    type Err = IdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl Serialize for AdventurerId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.to_u64() {
            Some(v) if v <= MAX_JSON_INTEGER => s.serialize_u64(v),
            _ => s.collect_str(&self.0),
        }
    }
}

impl<'de> Deserialize<'de> for AdventurerId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        Self::from_json(&v).map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for AdventurerId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AdventurerId".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": ["integer", "string"] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// 2^250 + 7, written out.
    const BIG_DEC: &str =
        "1809251394333065553493296640760748560207343510400633813116524750123642650631";

    #[test]
    fn small_ids_are_json_numbers_and_big_ones_strings() {
        assert_eq!(
            serde_json::to_value(AdventurerId::from(7)).unwrap(),
            json!(7)
        );
        let edge = AdventurerId::from(MAX_JSON_INTEGER);
        assert_eq!(
            serde_json::to_value(edge).unwrap(),
            json!(9007199254740991u64)
        );
        let past = AdventurerId::from(MAX_JSON_INTEGER + 1);
        assert_eq!(
            serde_json::to_value(past).unwrap(),
            json!("9007199254740992")
        );
        let big = AdventurerId::parse(BIG_DEC).unwrap();
        assert_eq!(serde_json::to_value(big).unwrap(), json!(BIG_DEC));
        assert_eq!(big.to_u64(), None);
    }

    #[test]
    fn ids_read_from_numbers_decimal_and_hex() {
        let from = |v| serde_json::from_value::<AdventurerId>(v).unwrap();
        assert_eq!(from(json!(12)), AdventurerId::from(12));
        assert_eq!(from(json!("12")), AdventurerId::from(12));
        assert_eq!(from(json!("0xc")), AdventurerId::from(12));
        let big = from(json!(BIG_DEC));
        let hex = format!("0x4{}7", "0".repeat(61));
        assert_eq!(hex.len(), 65);
        assert_eq!(from(json!(hex)), big);
        assert_eq!(big.to_string(), BIG_DEC);
    }

    #[test]
    fn u256_words_round_trip_below_the_prime() {
        let big = AdventurerId::parse(BIG_DEC).unwrap();
        let (low, high) = big.u256_words();
        assert_eq!((low, high), (7, 1 << 122));
        assert_eq!(AdventurerId::from_u256_words(low, high), Some(big));
        assert_eq!(AdventurerId::from_u256_words(u128::MAX, u128::MAX), None);
        assert_eq!(big.low_u64(), 7);
    }

    #[test]
    fn bad_ids_say_what_was_expected() {
        let err = |v| {
            serde_json::from_value::<AdventurerId>(v)
                .unwrap_err()
                .to_string()
        };
        assert!(err(json!(9007199254740993u64)).contains("pass the id as a string"));
        assert!(err(json!(-1)).contains("non-negative integer"));
        assert!(err(json!(1.5)).contains("non-negative integer"));
        assert!(err(json!("seven")).contains("decimal or 0x-hex"));
        assert!(err(json!(true)).contains("a boolean"));
        let prime = "3618502788666131213697322783095070105623107215331596699973092056135872020481";
        assert!(err(json!(prime)).contains("out of the felt range"));
    }
}
