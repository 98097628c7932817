//! Standing rules: what a player decides once and lets run over several transactions, such as
//! "fight this beast, fleeing when the win chance falls below 60 %, then explore on, drinking
//! potions below 90 % health, until the next beast or level-up". The rule names each next action
//! from the state the last one left, on the public odds only, and stops where a new decision
//! is the player's: a new beast, stat points to spend, the end of the game.

use crate::engine::{Action, EngineSettings};
use crate::model::{GameState, ItemPurchase};
use crate::phase::Phase;
use crate::policy::fight::{self, BattleChoice, FightPolicy};
use crate::policy::healing::{HealPolicy, potions_to_buy};
use crate::policy::tables::fight_odds;
use crate::view::AdventurerView;

/// A fight is fought to the death once its chosen way succeeds at least this often.
pub const TO_THE_DEATH_FROM: f64 = 0.97;

/// The rule a combined move runs on after its first transaction.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StandingRule {
    /// In the fight the move starts in: attack while the win chance is at least this (or
    /// fleeing is no likelier to save you), else flee. `None`: the fight is not the rule's.
    pub flee_below: Option<f64>,
    /// Explore on once out of battle, until a new beast, stat points or death.
    pub explore: bool,
    /// While exploring, buy potions to full health (as the gold allows) before a step when
    /// health is below this fraction of the maximum. `None`: explore until a beast in one call
    /// of the game's own loop.
    pub heal_below: Option<f64>,
}

/// A standing rule being run: it remembers whether the fight it may decide is still on.
#[derive(Debug, Clone)]
pub struct RuleRun {
    rule: StandingRule,
    own_fight: bool,
}

impl RuleRun {
    /// The rule, starting from `view` (the state the first transaction left): a fight then in
    /// progress is the one the rule was given for.
    pub fn new(rule: StandingRule, view: &AdventurerView) -> Self {
        Self {
            rule,
            own_fight: view.phase == Phase::InBattle,
        }
    }

    /// The next transaction's action, or `None` when the decision is the player's again.
    pub fn next(
        &mut self,
        state: &GameState,
        view: &AdventurerView,
        settings: &EngineSettings,
    ) -> Option<Action> {
        match view.phase {
            Phase::InBattle if self.own_fight => {
                let policy = FightPolicy {
                    fight_from: self.rule.flee_below?,
                    flee_margin: 0.0,
                    to_the_death_from: TO_THE_DEATH_FROM,
                };
                Some(
                    match fight::decide(fight_odds(state, settings), &policy).0 {
                        BattleChoice::Attack { to_the_death } => Action::Attack { to_the_death },
                        BattleChoice::Flee { to_the_death } => Action::Flee { to_the_death },
                    },
                )
            }
            Phase::Exploring if self.rule.explore => {
                self.own_fight = false;
                Some(explore_step(view, self.rule.heal_below))
            }
            _ => None,
        }
    }
}

/// One explore transaction: with potions bought first when health is below `heal_below`, one
/// step; without a threshold, the game's own loop until a beast.
pub fn explore_step(view: &AdventurerView, heal_below: Option<f64>) -> Action {
    let Some(heal_below) = heal_below else {
        return Action::Explore { till_beast: true };
    };
    let step = Action::Explore { till_beast: false };
    let heal = HealPolicy {
        heal_below,
        till_beast_from: 2.0,
        reserve_potions: 0,
    };
    let potions = potions_to_buy(
        view.health,
        view.max_health,
        view.gold,
        view.potion_price,
        &heal,
    );
    if potions == 0 || view.level <= 1 {
        return step;
    }
    Action::Batch(vec![
        Action::BuyItems {
            potions: u8::try_from(potions).unwrap_or(u8::MAX),
            items: Vec::<ItemPurchase>::new(),
        },
        step,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::adventurer_view;

    fn exploring(health: u16, gold: u16) -> GameState {
        let mut s = GameState::default();
        s.adventurer.health = health;
        s.adventurer.gold = gold;
        s.adventurer.xp = 30;
        s.adventurer.equipment.weapon.id = 12;
        s
    }

    #[test]
    fn exploring_on_heals_below_the_threshold_in_the_same_transaction() {
        let s = exploring(40, 200);
        let view = adventurer_view(1.into(), &s);
        assert!(view.max_health > 80);
        let rule = StandingRule {
            explore: true,
            heal_below: Some(0.9),
            ..StandingRule::default()
        };
        let next = RuleRun::new(rule, &view)
            .next(&s, &view, &EngineSettings::default())
            .unwrap();
        let Action::Batch(parts) = next else {
            panic!("potions, then a step: {next:?}")
        };
        assert!(matches!(parts[0], Action::BuyItems { potions, .. } if potions > 0));
        assert_eq!(parts[1], Action::Explore { till_beast: false });
        let healthy = exploring(view.max_health, 200);
        let v = adventurer_view(1.into(), &healthy);
        assert_eq!(
            explore_step(&v, Some(0.9)),
            Action::Explore { till_beast: false }
        );
        assert_eq!(explore_step(&v, None), Action::Explore { till_beast: true });
    }

    #[test]
    fn the_rule_stops_at_a_new_beast_and_at_stat_points() {
        let mut s = exploring(50, 0);
        let rule = StandingRule {
            flee_below: Some(0.6),
            explore: true,
            heal_below: None,
        };
        let calm = adventurer_view(1.into(), &s);
        let mut run = RuleRun::new(rule, &calm);
        s.adventurer.beast_health = 10;
        let fighting = adventurer_view(1.into(), &s);
        let settings = EngineSettings::default();
        assert_eq!(run.next(&s, &fighting, &settings), None, "not its fight");
        let mut run = RuleRun::new(rule, &fighting);
        assert!(
            run.next(&s, &fighting, &settings).is_some(),
            "its own fight"
        );
        s.adventurer.beast_health = 0;
        s.adventurer.stat_upgrades_available = 1;
        let points = adventurer_view(1.into(), &s);
        assert_eq!(run.next(&s, &points, &settings), None);
        let dead = GameState {
            adventurer: crate::model::Adventurer {
                health: 0,
                ..s.adventurer
            },
            ..s.clone()
        };
        assert_eq!(
            run.next(&dead, &adventurer_view(1.into(), &dead), &settings),
            None
        );
    }
}
