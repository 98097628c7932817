//! Where a transaction is, as one type: the node's statuses (received, candidate, pre-confirmed,
//! accepted on L2 or L1) and this server's own stages around them (signed, sent, send failed,
//! dropped, reverted). Written and read as the strings agents and the journal have always seen
//! (`ACCEPTED_ON_L2`, …).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use starknet::core::types::{TransactionFinalityStatus, TransactionStatus};

/// How far a write must get before the tool answers.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Confirm {
    /// Executed in the sequencer's pre-confirmed block.
    PreConfirmed,
    /// `ACCEPTED_ON_L2` (the default).
    #[default]
    Accepted,
    /// `ACCEPTED_ON_L1`.
    Finalized,
}

impl Confirm {
    /// The level's rank: pre-confirmed 1, accepted 2, finalized 3.
    pub fn rank(self) -> u8 {
        match self {
            Confirm::PreConfirmed => 1,
            Confirm::Accepted => 2,
            Confirm::Finalized => 3,
        }
    }
}

/// A transaction's status (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TxStatus {
    /// Recorded before the send; not yet handed to the node.
    Signed,
    /// Handed to the node.
    Sent,
    /// The node refused it (never on chain).
    SendFailed,
    /// The node does not know the hash.
    NotReceived,
    /// In the node's mempool.
    Received,
    /// Picked by the sequencer for the next block.
    Candidate,
    /// Executed in the pending block.
    PreConfirmed,
    /// In an L2 block.
    AcceptedOnL2,
    /// Proven on L1.
    AcceptedOnL1,
    /// Executed and reverted.
    Reverted,
    /// Sent, then forgotten by the node.
    Dropped,
}

/// How an executed transaction ended (`SUCCEEDED` or `REVERTED`, as the node says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Execution {
    /// Executed; its effects are on chain.
    Succeeded,
    /// Executed and reverted; only its fee was paid.
    Reverted,
}

impl Execution {
    /// The node's word for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Succeeded => "SUCCEEDED",
            Self::Reverted => "REVERTED",
        }
    }
}

/// Every status with its string, in one place.
const NAMES: [(TxStatus, &str); 11] = [
    (TxStatus::Signed, "SIGNED"),
    (TxStatus::Sent, "SENT"),
    (TxStatus::SendFailed, "SEND_FAILED"),
    (TxStatus::NotReceived, "NOT_RECEIVED"),
    (TxStatus::Received, "RECEIVED"),
    (TxStatus::Candidate, "CANDIDATE"),
    (TxStatus::PreConfirmed, "PRE_CONFIRMED"),
    (TxStatus::AcceptedOnL2, "ACCEPTED_ON_L2"),
    (TxStatus::AcceptedOnL1, "ACCEPTED_ON_L1"),
    (TxStatus::Reverted, "REVERTED"),
    (TxStatus::Dropped, "DROPPED"),
];

impl TxStatus {
    /// Statuses after which a transaction needs no more following.
    pub const SETTLED: [TxStatus; 5] = [
        TxStatus::AcceptedOnL2,
        TxStatus::AcceptedOnL1,
        TxStatus::Reverted,
        TxStatus::SendFailed,
        TxStatus::Dropped,
    ];

    /// The status's string (`ACCEPTED_ON_L2`, …).
    pub fn as_str(self) -> &'static str {
        NAMES
            .iter()
            .find(|(s, _)| *s == self)
            .map(|(_, n)| *n)
            .unwrap_or("UNKNOWN")
    }

    /// The status a string names, if any.
    pub fn parse(s: &str) -> Option<Self> {
        NAMES.iter().find(|(_, n)| *n == s).map(|(st, _)| *st)
    }

    /// Whether the transaction needs no more following.
    pub fn is_settled(self) -> bool {
        Self::SETTLED.contains(&self)
    }

    /// How final a status of an executed transaction is: 1 pre-confirmed, 2 accepted on L2,
    /// 3 accepted on L1, 0 for anything else.
    pub fn finality_rank(self) -> u8 {
        match self {
            Self::PreConfirmed => 1,
            Self::AcceptedOnL2 => 2,
            Self::AcceptedOnL1 => 3,
            _ => 0,
        }
    }

    /// The status a confirmation level is reached at.
    pub fn reached_by(confirm: Confirm) -> Self {
        match confirm {
            Confirm::PreConfirmed => Self::PreConfirmed,
            Confirm::Accepted => Self::AcceptedOnL2,
            Confirm::Finalized => Self::AcceptedOnL1,
        }
    }
}

impl From<&TransactionStatus> for TxStatus {
    fn from(s: &TransactionStatus) -> Self {
        match s {
            TransactionStatus::Received => Self::Received,
            TransactionStatus::Candidate => Self::Candidate,
            TransactionStatus::PreConfirmed(_) => Self::PreConfirmed,
            TransactionStatus::AcceptedOnL2(_) => Self::AcceptedOnL2,
            TransactionStatus::AcceptedOnL1(_) => Self::AcceptedOnL1,
        }
    }
}

impl From<&TransactionFinalityStatus> for TxStatus {
    fn from(f: &TransactionFinalityStatus) -> Self {
        match f {
            TransactionFinalityStatus::PreConfirmed => Self::PreConfirmed,
            TransactionFinalityStatus::AcceptedOnL2 => Self::AcceptedOnL2,
            TransactionFinalityStatus::AcceptedOnL1 => Self::AcceptedOnL1,
        }
    }
}

impl fmt::Display for TxStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for TxStatus {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TxStatus {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Self::parse(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown transaction status `{s}`")))
    }
}

/// Described as a string, as results have always described it.
impl schemars::JsonSchema for TxStatus {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        String::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_round_trips_through_its_string() {
        for (status, name) in NAMES {
            assert_eq!(status.as_str(), name);
            assert_eq!(TxStatus::parse(name), Some(status));
            let json = serde_json::to_value(status).unwrap();
            assert_eq!(json, name);
            assert_eq!(serde_json::from_value::<TxStatus>(json).unwrap(), status);
        }
        assert_eq!(TxStatus::parse("accepted_on_l2"), None);
        assert!(TxStatus::Dropped.is_settled() && !TxStatus::Sent.is_settled());
        assert!(TxStatus::AcceptedOnL1.finality_rank() > TxStatus::PreConfirmed.finality_rank());
    }
}
