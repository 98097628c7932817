//! The lookahead planner: where a decision matters (fight or flee, stat points, spending gold on
//! items or saving it), each candidate move is scored by rollouts of the planner itself on copies
//! of the game under hidden seeds it samples from the public state (never the game's own), and
//! the planner's move is kept unless another is clearly better. The budget is counted in
//! rollouts and actions, never in time, so a decision is the same on every machine.

use super::rollout::{Horizon, Replica, SeedSampler, rollout};
use super::stats::points_in;
use super::{Decision, ParamError, Params, Policy, tables};
use crate::advice::Stat;
use crate::engine::{Action, EngineSettings};
use crate::model::GameState;
use crate::phase::Phase;
use crate::view::AdventurerView;

/// How much a decision may spend on rollouts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Rollouts per candidate before one may be set aside (the seeds are shared by candidates).
    pub min_rollouts: u32,
    /// Most rollouts per candidate.
    pub max_rollouts: u32,
    /// Standard errors by which a candidate must beat another (paired over the same seeds) to
    /// set it aside or to replace the planner's move.
    pub z: f64,
    /// How far each rollout plays.
    pub horizon: Horizon,
    /// A fight is looked at only when its win chance is below this and not a sure flight.
    pub sure: f64,
    /// Which decisions are looked at (the others are the planner's).
    pub looks: Looks,
}

/// The kinds of decision the lookahead compares candidates for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Looks {
    /// Fight or flee.
    pub battle: bool,
    /// Where the stat points go.
    pub stats: bool,
    /// Items bought or the gold saved.
    pub gold: bool,
}

impl Looks {
    /// Every kind.
    pub const ALL: Self = Self {
        battle: true,
        stats: true,
        gold: true,
    };

    /// Sets one kind on (1) or off (0) by its name (`battle`, `stats`, `gold`).
    pub fn set(&mut self, kind: &str, name: &str, on: f64) -> Result<(), ParamError> {
        let on = on != 0.0;
        match kind {
            "battle" => self.battle = on,
            "stats" => self.stats = on,
            "gold" => self.gold = on,
            _ => return Err(ParamError::Unknown(name.to_string())),
        }
        Ok(())
    }
}

impl Default for Budget {
    fn default() -> Self {
        Self {
            min_rollouts: 4,
            max_rollouts: 12,
            z: 2.0,
            horizon: Horizon {
                levels: 1,
                steps: 300,
                death_cost: 100.0,
            },
            sure: 0.97,
            looks: Looks::ALL,
        }
    }
}

impl Budget {
    /// Sets one budget figure by its `--param` name (`look_min`, `look_max`, `look_z`,
    /// `look_levels`, `look_steps`, `look_death`, `look_sure`, and `look_battle`, `look_stats`,
    /// `look_gold` at 0 or 1).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let v = ParamError::number(name, value)?;
        match name {
            "look_min" => self.min_rollouts = v as u32,
            "look_max" => self.max_rollouts = v as u32,
            "look_z" => self.z = v,
            "look_levels" => self.horizon.levels = v as u8,
            "look_steps" => self.horizon.steps = v as u32,
            "look_death" => self.horizon.death_cost = v,
            "look_sure" => self.sure = v,
            _ => match name.strip_prefix("look_") {
                Some(kind) => self.looks.set(kind, name, v)?,
                None => return Err(ParamError::Unknown(name.to_string())),
            },
        }
        Ok(())
    }
}

/// A candidate move: the action, and whether the rollout then buys no item until the next level
/// (saving the gold for potions).
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The first action.
    pub action: Action,
    /// No item bought until the next level.
    pub save: bool,
}

/// The candidates' mean scores and the one chosen (0: the planner's move).
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// Index of the chosen candidate.
    pub index: usize,
    /// Mean score of each candidate over its rollouts.
    pub means: Vec<f64>,
    /// Rollouts played, all candidates together.
    pub rollouts: u32,
}

/// Scores `candidates` (the planner's move first) by rollouts of `scout` on the copies `copy(k)`
/// gives for seed `k` (the same copy for every candidate), setting aside those clearly behind;
/// the planner's move is kept unless the best beats it by `z` standard errors.
pub fn search(
    candidates: &[Candidate],
    mut copy: impl FnMut(u32) -> Replica,
    scout: &mut Policy,
    settings: &EngineSettings,
    budget: &Budget,
) -> Choice {
    let n = candidates.len();
    let mut scores: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut open = vec![true; n];
    let mut rollouts = 0;
    for k in 0..budget.max_rollouts {
        let replica = copy(k);
        for (i, c) in candidates.iter().enumerate().filter(|(i, _)| open[*i]) {
            let mut scout = Saving::new(scout, c.save, replica.level());
            scores[i].push(rollout(
                replica.clone(),
                &c.action,
                &mut |s, v| scout.decide(s, v),
                settings,
                &budget.horizon,
            ));
            rollouts += 1;
        }
        if k + 1 >= budget.min_rollouts {
            let lead = leader(&scores, &open);
            for j in 0..n {
                if j != lead && open[j] && ahead(&scores[lead], &scores[j], budget.z) {
                    open[j] = false;
                }
            }
            if open.iter().filter(|o| **o).count() < 2 {
                break;
            }
        }
    }
    let lead = leader(&scores, &open);
    let index = if !open[0] || ahead(&scores[lead], &scores[0], budget.z) {
        lead
    } else {
        0
    };
    Choice {
        index,
        means: scores.iter().map(|s| mean(s)).collect(),
        rollouts,
    }
}

/// The open candidate with the best mean (the first of equals).
fn leader(scores: &[Vec<f64>], open: &[bool]) -> usize {
    (0..scores.len())
        .filter(|&i| open[i])
        .fold(None, |best: Option<usize>, i| match best {
            Some(b) if mean(&scores[b]) >= mean(&scores[i]) => Some(b),
            _ => Some(i),
        })
        .unwrap_or(0)
}

/// Whether `a` beats `b` by more than `z` standard errors of their paired differences (over the
/// seeds both played); with one seed, by any margin.
fn ahead(a: &[f64], b: &[f64], z: f64) -> bool {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let m = mean(&d);
    let n = d.len() as f64;
    let se = if d.len() < 2 {
        0.0
    } else {
        (d.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0) / n).sqrt()
    };
    m > z * se && m > 0.0
}

fn mean(s: &[f64]) -> f64 {
    if s.is_empty() {
        f64::NEG_INFINITY
    } else {
        s.iter().sum::<f64>() / s.len() as f64
    }
}

/// The planner in a rollout, buying no item before the next level when the candidate saves.
struct Saving<'a> {
    policy: &'a mut Policy,
    until: Option<u8>,
}

impl<'a> Saving<'a> {
    fn new(policy: &'a mut Policy, save: bool, level: u8) -> Self {
        Self {
            policy,
            until: save.then_some(level + 1),
        }
    }

    fn decide(&mut self, state: &GameState, view: &AdventurerView) -> Action {
        let d = self.policy.decide(state, view);
        match self.until {
            Some(until) if view.level < until => without_items(d).action,
            _ => d.action,
        }
    }
}

/// The decision with its item purchases taken out (the potions kept, else one explore step).
fn without_items(d: Decision) -> Decision {
    match d.action {
        Action::BuyItems { potions, items } if !items.is_empty() => {
            if potions > 0 {
                Decision::new(
                    Action::BuyItems {
                        potions,
                        items: Vec::new(),
                    },
                    format!("saving the gold: {potions} potions only"),
                )
            } else {
                Decision::new(
                    Action::Explore { till_beast: false },
                    "saving the gold: exploring one step",
                )
            }
        }
        action => Decision { action, ..d },
    }
}

/// The moves worth comparing with the planner's `base` (which comes first), none when the
/// decision is not one where they differ enough to matter or not a kind `budget` looks at.
pub fn candidates(
    state: &GameState,
    view: &AdventurerView,
    base: &Decision,
    settings: &EngineSettings,
    budget: &Budget,
) -> Vec<Candidate> {
    let (sure, looks) = (budget.sure, budget.looks);
    let first = Candidate {
        action: base.action.clone(),
        save: false,
    };
    let mut out = vec![first];
    let mut add = |action: Action, save: bool| {
        let c = Candidate { action, save };
        if !out.contains(&c) {
            out.push(c);
        }
    };
    match (view.phase, &base.action) {
        (Phase::InBattle, _) if view.level > 1 && looks.battle => {
            let odds = tables::fight_odds(state, settings);
            let flee = odds.flee_to_the_death;
            if odds.win >= sure || (odds.win <= 1.0 - sure && flee.is_some_and(|f| f >= sure)) {
                return Vec::new();
            }
            add(
                Action::Attack {
                    to_the_death: false,
                },
                false,
            );
            if flee.is_some() {
                add(
                    Action::Flee {
                        to_the_death: false,
                    },
                    false,
                );
            }
        }
        (Phase::StatUpgrade, _) if looks.stats => {
            for stat in Stat::ALL {
                add(
                    Action::Upgrade {
                        stats: points_in(stat, view.stat_upgrades_available),
                    },
                    false,
                );
            }
        }
        (_, Action::BuyItems { .. }) if looks.gold => {
            if let Decision { action, .. } = without_items(base.clone())
                && action != base.action
            {
                add(action, true);
            }
        }
        _ => {}
    }
    if out.len() < 2 { Vec::new() } else { out }
}

/// The lookahead planner for one game (start a new one for each game).
#[derive(Debug, Clone)]
pub struct Lookahead {
    planner: Policy,
    scout: Policy,
    settings: EngineSettings,
    budget: Budget,
    saving: Option<u8>,
    rollouts: u64,
}

impl Lookahead {
    /// A lookahead over the planner with these parameters, on a world with these rules, within
    /// this budget per decision.
    pub fn new(params: Params, settings: EngineSettings, budget: Budget) -> Self {
        Self::with_rules(params, settings, settings, budget)
    }

    /// A lookahead whose planner assumes `advisor` rules while its copies play by `world`'s
    /// (the ceiling's exact copies need the world's own rules).
    pub fn with_rules(
        params: Params,
        advisor: EngineSettings,
        world: EngineSettings,
        budget: Budget,
    ) -> Self {
        let planner = Policy::new(params, advisor);
        Self {
            scout: planner.clone(),
            planner,
            settings: world,
            budget,
            saving: None,
            rollouts: 0,
        }
    }

    /// Rollouts played so far in this game.
    pub fn rollouts(&self) -> u64 {
        self.rollouts
    }

    /// The next move for `state` (as `get_game_state` returns it, no hidden seed) and `view`.
    pub fn decide(&mut self, state: &GameState, view: &AdventurerView) -> Decision {
        let id = view.adventurer_id.low_u64();
        let seeds = SeedSampler::of(state);
        self.decide_on(state, view, |k| Replica::of_state(state, id, seeds.seed(k)))
    }

    /// The next move, rollouts played on the copies `copy(k)` gives for seed `k`.
    pub fn decide_on(
        &mut self,
        state: &GameState,
        view: &AdventurerView,
        copy: impl FnMut(u32) -> Replica,
    ) -> Decision {
        let mut base = self.planner.decide(state, view);
        if self.saving == Some(view.level) {
            return without_items(base);
        }
        let cands = candidates(state, view, &base, &self.settings, &self.budget);
        if cands.is_empty() {
            return base;
        }
        let choice = search(&cands, copy, &mut self.scout, &self.settings, &self.budget);
        self.rollouts += u64::from(choice.rollouts);
        let pick = &cands[choice.index];
        if pick.save {
            self.saving = Some(view.level);
        }
        let note = describe(&choice);
        if choice.index == 0 {
            base.reason = format!("{} ({note})", base.reason);
            return base;
        }
        let reason = match &pick.action {
            Action::Upgrade { stats } => Stat::ALL
                .into_iter()
                .find(|&s| points_in(s, view.stat_upgrades_available) == *stats)
                .map_or("stat points".to_string(), |s| {
                    format!("stat points to {}", s.name())
                }),
            a if pick.save => format!("{} without items, saving the gold", a.entrypoint()),
            a => a.entrypoint().to_string(),
        };
        Decision::new(pick.action.clone(), format!("lookahead: {reason} ({note})"))
    }
}

/// "means 41.2 / 38.0 over 48 rollouts".
pub fn describe(choice: &Choice) -> String {
    let means: Vec<String> = choice.means.iter().map(|m| format!("{m:.1}")).collect();
    format!(
        "means {} over {} rollouts, took {}",
        means.join(" / "),
        choice.rollouts,
        choice.index + 1
    )
}
