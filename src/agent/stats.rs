//! Stat allocation from the advisor's stat effects (`ls_advise` about stats): each point goes to
//! the stat with the best score, the advisor's health-equivalent value less a weight on the risk
//! that an explore step kills at full health.

use serde::Deserialize;
use serde_json::{Value, json};

/// One stat's effect as `ls_advise` gives it.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct StatOption {
    /// Stat name (the `ls_upgrade` argument).
    pub stat: String,
    /// Health-equivalent value over the advisor's horizon.
    pub value: f64,
    /// Risk that one explore step kills at full health, with the point.
    pub death_risk: f64,
}

/// Reads the options out of an `ls_advise` result.
pub fn options(advice: &Value) -> Vec<StatOption> {
    advice["stats"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| {
                    Some(StatOption {
                        stat: s["stat"].as_str()?.to_string(),
                        value: s["value"].as_f64()?,
                        death_risk: s["with_point"]["death_risk"].as_f64()?,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The best stat by `value − risk_weight × death_risk`, with the reason.
pub fn best(options: &[StatOption], risk_weight: f64) -> Option<(&StatOption, f64)> {
    options
        .iter()
        .map(|o| (o, o.value - risk_weight * o.death_risk))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// `ls_upgrade` arguments putting all `points` into `stat`.
pub fn upgrade_args(id: u64, stat: &str, points: u8) -> Value {
    let mut args = json!({
        "adventurer_id": id,
        "strength": 0, "dexterity": 0, "vitality": 0,
        "intelligence": 0, "wisdom": 0, "charisma": 0,
    });
    args[stat] = points.into();
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn risk_weight_can_outrank_value() {
        let advice = json!({"stats": [
            {"stat": "charisma", "value": 40.0, "with_point": {"death_risk": 0.02}},
            {"stat": "vitality", "value": 30.0, "with_point": {"death_risk": 0.01}},
        ]});
        let opts = options(&advice);
        assert_eq!(opts.len(), 2);
        assert_eq!(best(&opts, 0.0).unwrap().0.stat, "charisma");
        assert_eq!(best(&opts, 2000.0).unwrap().0.stat, "vitality");
        let args = upgrade_args(3, "wisdom", 2);
        assert_eq!(
            (args["wisdom"].as_u64(), args["charisma"].as_u64()),
            (Some(2), Some(0))
        );
    }
}
