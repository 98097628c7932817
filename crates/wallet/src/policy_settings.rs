//! The `[policy]` section of a profile: what the policy guard lets the wallet sign, and FRI amounts
//! written as decimal strings (TOML integers stop at about 9.2 STRK).

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

/// FRI per STRK (`10^18`).
pub const FRI_PER_STRK: u128 = 1_000_000_000_000_000_000;

/// Limits on what the wallet signs in one server run (`[policy]`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicySettings {
    /// Refuse every write: the server only reads.
    pub read_only: bool,
    /// Largest fee one transaction may be charged (its max-fee bound), in FRI.
    #[serde(deserialize_with = "deserialize_fri")]
    pub max_fee_per_tx: u128,
    /// Fees this server run may spend in total, in FRI.
    #[serde(deserialize_with = "deserialize_fri")]
    pub session_fee_budget: u128,
    /// Fees all runs of this account may spend per UTC day, in FRI (counted in the journal, so
    /// a restart does not reset it). Unset: no daily limit.
    #[serde(default = "no_limit", deserialize_with = "deserialize_fri")]
    pub daily_fee_budget: u128,
    /// Transactions allowed in any 60-second window.
    pub max_tx_per_minute: u32,
    /// Allow the Cartridge VRF `request_random` call; unset follows `chain.vrf`.
    #[serde(default)]
    pub allow_vrf: Option<bool>,
}

impl PolicySettings {
    /// Whether the VRF `request_random` call is allowed, given the profile's `chain.vrf`.
    pub fn vrf_enabled(&self, chain_vrf: bool) -> bool {
        self.allow_vrf.unwrap_or(chain_vrf)
    }

    /// Checks values that would make every write fail for no stated reason.
    pub fn validate(&self) -> Result<(), String> {
        if self.read_only {
            return Ok(());
        }
        if self.max_fee_per_tx == 0 {
            return Err(
                "policy.max_fee_per_tx must be positive (use policy.read_only = true \
                        to disable writes)"
                    .into(),
            );
        }
        if self.session_fee_budget == 0 {
            return Err(
                "policy.session_fee_budget must be positive (use policy.read_only = \
                        true to disable writes)"
                    .into(),
            );
        }
        if self.max_tx_per_minute == 0 {
            return Err(
                "policy.max_tx_per_minute must be positive (use policy.read_only = \
                        true to disable writes)"
                    .into(),
            );
        }
        Ok(())
    }
}

fn no_limit() -> u128 {
    u128::MAX
}

/// An amount of fee token, in FRI (exact, as a decimal string) and in STRK (for reading).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FeeAmount {
    /// The amount in FRI, as a decimal string (JSON numbers cannot hold every u128).
    pub fri: String,
    /// The same amount in STRK (`fri / 10^18`), as a decimal string.
    pub strk: String,
}

impl From<u128> for FeeAmount {
    fn from(fri: u128) -> Self {
        Self {
            fri: fri.to_string(),
            strk: format_strk(fri),
        }
    }
}

/// Formats FRI as STRK without trailing zeros (`1_500_000_000_000_000_000` → `"1.5"`).
pub fn format_strk(fri: u128) -> String {
    let whole = fri / FRI_PER_STRK;
    let frac = fri % FRI_PER_STRK;
    if frac == 0 {
        return whole.to_string();
    }
    let digits = format!("{frac:018}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

/// Parses a FRI amount: decimal digits, optionally grouped with `_` (`"1_000_000"`).
pub fn parse_fri(s: &str) -> Result<u128, String> {
    let t = s.trim();
    let digits: String = t.chars().filter(|&c| c != '_').collect();
    let well_formed = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && !t.starts_with('_')
        && !t.ends_with('_');
    if !well_formed {
        return Err(format!(
            "'{s}' is not a FRI amount (a non-negative decimal integer; 1 STRK = 10^18 FRI)"
        ));
    }
    digits
        .parse()
        .map_err(|_| format!("'{s}' is too large for a FRI amount"))
}

/// Deserializes a FRI amount from an integer or a decimal string.
fn deserialize_fri<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
    struct Fri;
    impl Visitor<'_> for Fri {
        type Value = u128;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a FRI amount: a non-negative integer or a decimal string")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u128, E> {
            Ok(v.into())
        }
        fn visit_u128<E: de::Error>(self, v: u128) -> Result<u128, E> {
            Ok(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u128, E> {
            u128::try_from(v).map_err(|_| E::custom("a FRI amount cannot be negative"))
        }
        fn visit_i128<E: de::Error>(self, v: i128) -> Result<u128, E> {
            u128::try_from(v).map_err(|_| E::custom("a FRI amount cannot be negative"))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<u128, E> {
            parse_fri(v).map_err(E::custom)
        }
    }
    d.deserialize_any(Fri)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_json(v: serde_json::Value) -> Result<PolicySettings, serde_json::Error> {
        serde_json::from_value(v)
    }

    #[test]
    fn fri_amounts_parse_from_strings_and_integers() {
        let p = from_json(serde_json::json!({
            "read_only": false,
            "max_fee_per_tx": 5,
            "session_fee_budget": "340282366920938463463374607431768211455",
            "max_tx_per_minute": 10,
        }))
        .unwrap();
        assert_eq!(p.max_fee_per_tx, 5);
        assert_eq!(p.session_fee_budget, u128::MAX);
        assert_eq!(p.allow_vrf, None);
        assert_eq!(parse_fri("1_000_000").unwrap(), 1_000_000);
        for bad in [
            "",
            "-1",
            "1.5",
            "0x10",
            "_1",
            "1e18",
            "340282366920938463463374607431768211456",
        ] {
            assert!(parse_fri(bad).is_err(), "{bad}");
        }
        let e = from_json(serde_json::json!({
            "read_only": false, "max_fee_per_tx": -3, "session_fee_budget": 1, "max_tx_per_minute": 1,
        }))
        .unwrap_err();
        assert!(e.to_string().contains("negative"), "{e}");
    }

    #[test]
    fn unknown_policy_keys_are_rejected() {
        let e = from_json(serde_json::json!({
            "read_only": false, "max_fee_per_tx": 1, "session_fee_budget": 1,
            "max_tx_per_minute": 1, "max_fee": 3,
        }))
        .unwrap_err();
        assert!(e.to_string().contains("max_fee"), "{e}");
    }

    #[test]
    fn vrf_follows_the_chain_unless_set() {
        let mut p = from_json(serde_json::json!({
            "read_only": false, "max_fee_per_tx": 1, "session_fee_budget": 1, "max_tx_per_minute": 1,
        }))
        .unwrap();
        assert!(p.vrf_enabled(true) && !p.vrf_enabled(false));
        p.allow_vrf = Some(false);
        assert!(!p.vrf_enabled(true));
        p.allow_vrf = Some(true);
        assert!(p.vrf_enabled(false));
    }

    #[test]
    fn zero_limits_are_rejected_unless_read_only() {
        let mut p = PolicySettings {
            read_only: false,
            max_fee_per_tx: 1,
            session_fee_budget: 1,
            daily_fee_budget: 1,
            max_tx_per_minute: 0,
            allow_vrf: None,
        };
        assert!(
            p.validate()
                .unwrap_err()
                .contains("policy.max_tx_per_minute")
        );
        p.read_only = true;
        assert!(p.validate().is_ok());
    }

    #[test]
    fn strk_formatting() {
        assert_eq!(format_strk(0), "0");
        assert_eq!(format_strk(FRI_PER_STRK), "1");
        assert_eq!(format_strk(1_500_000_000_000_000_000), "1.5");
        assert_eq!(format_strk(1), "0.000000000000000001");
        assert_eq!(
            FeeAmount::from(250_000_000_000_000_000),
            FeeAmount {
                fri: "250000000000000000".into(),
                strk: "0.25".into()
            }
        );
    }
}
