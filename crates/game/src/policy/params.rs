//! The planner's tunable parameters (tuned by self-play on sim; see docs/agent.md) and the stat
//! floors among them.

use super::fight::FightPolicy;
use super::healing::HealPolicy;
use crate::advice::Stat;
use crate::model::Stats;

/// A parameter `Params::set` could not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// The value is not a number.
    #[error("--param {name}: '{value}' is not a number")]
    NotANumber {
        /// Parameter name.
        name: String,
        /// The value given.
        value: String,
    },
    /// No parameter has this name.
    #[error("unknown --param '{0}'")]
    Unknown(String),
}

impl ParamError {
    /// The number a `--param name=value` gives, or the error naming it.
    pub fn number(name: &str, value: &str) -> Result<f64, ParamError> {
        value.parse().map_err(|_| ParamError::NotANumber {
            name: name.to_string(),
            value: value.to_string(),
        })
    }
}

/// The planner's tunable parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Fight policy.
    pub fight: FightPolicy,
    /// Healing policy.
    pub heal: HealPolicy,
    /// Least health saved per gold for an item to be bought.
    pub min_item_per_gold: f64,
    /// Swap weapons in battle when another wins by at least this much more.
    pub swap_gain: f64,
    /// Health one death avoided is worth, when choosing items.
    pub risk_weight: f64,
    /// Health one unit of the risk that a step kills is worth, when choosing stats.
    pub stat_risk_weight: f64,
    /// Floors as fractions of the level, by stat (dexterity: flee; charisma: cheap potions;
    /// wisdom: ambushes; intelligence: obstacles); the stat furthest below its floor gets the
    /// points, and the advisor's ranking decides once all are met.
    pub floors: Floors,
    /// Bag fill from which spare gear is dropped.
    pub drop_at: usize,
    /// Projected attack factor over the equipped weapon's for a weapon to be bought.
    pub weapon_gain: f64,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            fight: FightPolicy {
                fight_from: 0.6,
                flee_margin: 0.0,
                to_the_death_from: 0.97,
            },
            heal: HealPolicy {
                heal_below: 0.9,
                till_beast_from: 2.0,
                reserve_potions: 10,
            },
            min_item_per_gold: 1.0,
            swap_gain: 0.15,
            risk_weight: 10_000.0,
            stat_risk_weight: 10_000.0,
            floors: Floors {
                charisma: 0.35,
                ..Floors::default()
            },
            drop_at: 12,
            weapon_gain: 1.5,
        }
    }
}

impl Params {
    /// The planner before its last tuning (issue 14's second round): a risk weight of 2,000
    /// for items and stats and no charisma floor.
    pub fn previous() -> Self {
        Self {
            risk_weight: 2000.0,
            stat_risk_weight: 2000.0,
            floors: Floors::default(),
            ..Self::default()
        }
    }

    /// Sets one parameter by name (`play --param name=value`, for self-play tuning).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let v = ParamError::number(name, value)?;
        match name {
            "fight_from" => self.fight.fight_from = v,
            "flee_margin" => self.fight.flee_margin = v,
            "to_the_death_from" => self.fight.to_the_death_from = v,
            "heal_below" => self.heal.heal_below = v,
            "till_beast_from" => self.heal.till_beast_from = v,
            "reserve_potions" => self.heal.reserve_potions = v as u32,
            "min_item_per_gold" => self.min_item_per_gold = v,
            "swap_gain" => self.swap_gain = v,
            "risk_weight" => self.risk_weight = v,
            "stat_risk_weight" => self.stat_risk_weight = v,
            "dex_ratio" => self.floors.dexterity = v,
            "cha_ratio" => self.floors.charisma = v,
            "wis_ratio" => self.floors.wisdom = v,
            "int_ratio" => self.floors.intelligence = v,
            "vit_ratio" => self.floors.vitality = v,
            "str_ratio" => self.floors.strength = v,
            "drop_at" => self.drop_at = v as usize,
            "weapon_gain" => self.weapon_gain = v,
            _ => return Err(ParamError::Unknown(name.to_string())),
        }
        Ok(())
    }
}

/// Stat floors as fractions of the level.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Floors {
    /// Strength.
    pub strength: f64,
    /// Dexterity.
    pub dexterity: f64,
    /// Vitality.
    pub vitality: f64,
    /// Intelligence.
    pub intelligence: f64,
    /// Wisdom.
    pub wisdom: f64,
    /// Charisma.
    pub charisma: f64,
}

impl Floors {
    /// The stat furthest below its floor at `level` (stat, value, floor), if any; the last of
    /// equals in the order dexterity, charisma, wisdom, intelligence, vitality, strength.
    pub fn most_behind(&self, stats: &Stats, level: u8) -> Option<(Stat, u8, f64)> {
        let l = f64::from(level);
        [
            (Stat::Dexterity, self.dexterity),
            (Stat::Charisma, self.charisma),
            (Stat::Wisdom, self.wisdom),
            (Stat::Intelligence, self.intelligence),
            (Stat::Vitality, self.vitality),
            (Stat::Strength, self.strength),
        ]
        .into_iter()
        .map(|(stat, ratio)| (stat, stat.get(stats), ratio * l))
        .filter(|(_, have, floor)| *have < 31 && f64::from(*have) < *floor)
        .max_by(|a, b| (a.2 - f64::from(a.1)).total_cmp(&(b.2 - f64::from(b.1))))
    }
}
