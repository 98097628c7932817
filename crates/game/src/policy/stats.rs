//! Stat allocation from the advisor's stat effects: each point goes to the stat with the best
//! score, the advisor's health-equivalent value less a weight on the risk that an explore step
//! kills at full health.

use crate::advice::Stat;
use crate::model::Stats;

/// One stat's effect, as the stat advice gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct StatOption {
    /// The stat.
    pub stat: Stat,
    /// Health-equivalent value over the advisor's horizon.
    pub value: f64,
    /// Risk that one explore step kills at full health, with the point.
    pub death_risk: f64,
}

/// The stat of this name (`strength` … `charisma`), as the upgrade arguments spell it.
pub fn stat_named(name: &str) -> Option<Stat> {
    Stat::ALL.into_iter().find(|s| s.name() == name)
}

/// The best stat by `value − risk_weight × death_risk`, with its score (the last of equals).
pub fn best(options: &[StatOption], risk_weight: f64) -> Option<(&StatOption, f64)> {
    options
        .iter()
        .map(|o| (o, o.value - risk_weight * o.death_risk))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// All `points` in `stat`.
pub fn points_in(stat: Stat, points: u8) -> Stats {
    let mut s = Stats::default();
    match stat {
        Stat::Strength => s.strength = points,
        Stat::Dexterity => s.dexterity = points,
        Stat::Vitality => s.vitality = points,
        Stat::Intelligence => s.intelligence = points,
        Stat::Wisdom => s.wisdom = points,
        Stat::Charisma => s.charisma = points,
    }
    s
}
