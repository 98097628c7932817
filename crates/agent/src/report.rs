//! Per-game results and their summary over many games: median, p10, p90 and max of level and xp,
//! actions, causes of death, the level distribution and the time each decision took. Percentiles
//! are nearest-rank on the sorted values (index `round(p × (n − 1))`), so they are always a level
//! some game reached.

use game::AdventurerId;
use std::collections::BTreeMap;

use serde::Serialize;

use super::{DeathCause, Ending};

/// The result of one game.
#[derive(Debug, Clone, Serialize)]
pub struct GameSummary {
    /// The adventurer played.
    pub adventurer_id: AdventurerId,
    /// Final level.
    pub level: u8,
    /// Final xp.
    pub xp: u16,
    /// Final gold.
    pub gold: u16,
    /// Game-changing tool calls made.
    pub actions: u32,
    /// How it ended.
    pub ending: Ending,
    /// What kind of harm killed the adventurer.
    pub cause: Option<DeathCause>,
    /// What killed the adventurer, in words.
    pub killed_by: Option<String>,
    /// Microseconds each decision took (left out of the game's JSON line: the summary has them).
    #[serde(skip)]
    pub decision_us: Vec<f64>,
}

/// Median, p10, p90 and max of one figure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// 10th percentile.
    pub p10: f64,
    /// Median.
    pub median: f64,
    /// 90th percentile.
    pub p90: f64,
    /// Largest.
    pub max: f64,
    /// Mean.
    pub mean: f64,
}

impl Spread {
    /// The spread of `values` (all zero when empty).
    pub fn of(values: &[f64]) -> Self {
        if values.is_empty() {
            return Self {
                p10: 0.0,
                median: 0.0,
                p90: 0.0,
                max: 0.0,
                mean: 0.0,
            };
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let at = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
        Self {
            p10: at(0.1),
            median: at(0.5),
            p90: at(0.9),
            max: v[v.len() - 1],
            mean: v.iter().sum::<f64>() / v.len() as f64,
        }
    }
}

/// The summary of many games.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Strategy that played.
    pub strategy: String,
    /// Games played.
    pub games: usize,
    /// Final levels.
    pub level: Spread,
    /// Final xp.
    pub xp: Spread,
    /// Actions per game.
    pub actions: Spread,
    /// Deaths by cause (ambush, obstacle, beast, other) and games stopped at the action cap.
    pub endings: BTreeMap<String, usize>,
    /// Games per final level.
    pub levels: BTreeMap<u8, usize>,
    /// Microseconds per decision, over every decision of every game. Left out unless asked for
    /// (`play --decision-cost`): a wall-clock time varies from run to run, and `play --json` is
    /// the same for the same seed.
    #[serde(skip)]
    pub decision_us: Spread,
}

impl Summary {
    /// Summarises `games` played by `strategy`.
    pub fn of(strategy: &str, games: &[GameSummary]) -> Self {
        let f = |g: fn(&GameSummary) -> f64| games.iter().map(g).collect::<Vec<_>>();
        let mut endings = BTreeMap::new();
        let mut levels = BTreeMap::new();
        for g in games {
            let key = match (g.ending, g.cause) {
                (Ending::ActionCap, _) => "action_cap".to_string(),
                (_, Some(c)) => serde_json::to_value(c)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_else(|| "other".into()),
                _ => "other".into(),
            };
            *endings.entry(key).or_insert(0) += 1;
            *levels.entry(g.level).or_insert(0) += 1;
        }
        Self {
            strategy: strategy.to_string(),
            games: games.len(),
            level: Spread::of(&f(|g| f64::from(g.level))),
            xp: Spread::of(&f(|g| f64::from(g.xp))),
            actions: Spread::of(&f(|g| f64::from(g.actions))),
            endings,
            levels,
            decision_us: Spread::of(
                &games
                    .iter()
                    .flat_map(|g| g.decision_us.iter().copied())
                    .collect::<Vec<_>>(),
            ),
        }
    }

    /// One line: "planner, 1000 games: level median 14 (p10 8, p90 20, max 31) ...".
    pub fn line(&self) -> String {
        let pct = |n: usize| 100.0 * n as f64 / self.games.max(1) as f64;
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, n)| format!("{k} {:.0} %", pct(*n)))
            .collect();
        format!(
            "{}, {} games: level median {} (p10 {}, p90 {}, max {}, mean {:.1}); xp median {} (p10 {}, p90 {}, max {}); actions median {}; deaths: {}",
            self.strategy,
            self.games,
            self.level.median,
            self.level.p10,
            self.level.p90,
            self.level.max,
            self.level.mean,
            self.xp.median,
            self.xp.p10,
            self.xp.p90,
            self.xp.max,
            self.actions.median,
            endings.join(", "),
        )
    }

    /// The time a decision took: "decision median 33 µs (p90 120)".
    pub fn decision_cost(&self) -> String {
        format!(
            "decision median {:.0} µs (p90 {:.0})",
            self.decision_us.median, self.decision_us.p90
        )
    }

    /// The level distribution as text bars, one line per level.
    pub fn histogram(&self) -> Vec<String> {
        let most = self.levels.values().copied().max().unwrap_or(1).max(1);
        self.levels
            .iter()
            .map(|(level, n)| {
                let bar = "#".repeat((n * 40).div_ceil(most));
                format!("  level {level:>3}: {n:>5} {bar}")
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(level: u8, cause: Option<DeathCause>) -> GameSummary {
        GameSummary {
            adventurer_id: AdventurerId::from(1u64),
            level,
            xp: u16::from(level).pow(2),
            gold: 0,
            actions: 10,
            ending: if cause.is_some() {
                Ending::Died
            } else {
                Ending::ActionCap
            },
            cause,
            killed_by: None,
            decision_us: vec![f64::from(level); 3],
        }
    }

    #[test]
    fn spread_uses_nearest_rank() {
        let v: Vec<f64> = (1..=11).map(f64::from).collect();
        let s = Spread::of(&v);
        assert_eq!((s.p10, s.median, s.p90, s.max), (2.0, 6.0, 10.0, 11.0));
        assert_eq!(s.mean, 6.0);
    }

    #[test]
    fn summary_counts_causes_and_levels() {
        let games = [
            game(3, Some(DeathCause::Ambush)),
            game(3, Some(DeathCause::Obstacle)),
            game(9, Some(DeathCause::Beast)),
            game(12, None),
        ];
        let s = Summary::of("planner", &games);
        assert_eq!(s.endings["ambush"], 1);
        assert_eq!(s.endings["action_cap"], 1);
        assert_eq!(s.levels[&3], 2);
        assert_eq!(s.histogram().len(), 3);
        assert!(s.line().contains("level median 9"));
        assert_eq!(
            s.decision_us.median, 9.0,
            "over every decision of every game"
        );
        assert!(!s.line().contains("decision"), "{}", s.line());
        assert_eq!(s.decision_cost(), "decision median 9 µs (p90 12)");
    }
}
