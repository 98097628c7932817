//! Fight or flee, from the odds `ls_battle_preview` gives (never its exact outcomes): attack when
//! the win chance is high enough or beats the chance of escaping alive; else flee. One round at a
//! time unless the odds are overwhelming, so each round is decided on fresh odds.

use super::pct;

/// The odds of the fight as it stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FightOdds {
    /// Probability of winning when attacking to the death.
    pub win: f64,
    /// Probability of escaping alive when fleeing to the death (None: fleeing not allowed).
    pub flee_to_the_death: Option<f64>,
}

/// What to do in battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BattleChoice {
    /// Attack (to the death or one round).
    Attack {
        /// Attack until one side dies.
        to_the_death: bool,
    },
    /// Flee (to the death or one attempt).
    Flee {
        /// Flee until escaped or dead.
        to_the_death: bool,
    },
}

/// The thresholds of the fight policy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FightPolicy {
    /// Attack when the win chance is at least this, whatever fleeing offers.
    pub fight_from: f64,
    /// Otherwise attack unless fleeing is better by more than this.
    pub flee_margin: f64,
    /// Go to the death when the chosen option succeeds with at least this probability.
    pub to_the_death_from: f64,
}

/// Decides, with the reason ("win 23 %, flee 98 %: fleeing").
pub fn decide(odds: FightOdds, policy: &FightPolicy) -> (BattleChoice, String) {
    let label = format!(
        "win {}, flee {}",
        pct(odds.win),
        odds.flee_to_the_death.map_or("impossible".into(), pct)
    );
    let attack = match odds.flee_to_the_death {
        None => true,
        Some(escape) => odds.win >= policy.fight_from || escape <= odds.win + policy.flee_margin,
    };
    if attack {
        let to_the_death = odds.win >= policy.to_the_death_from;
        (
            BattleChoice::Attack { to_the_death },
            format!(
                "{label}: attacking{}",
                if to_the_death { " to the death" } else { "" }
            ),
        )
    } else {
        let escape = odds.flee_to_the_death.unwrap_or(0.0);
        let to_the_death = escape >= policy.to_the_death_from;
        (
            BattleChoice::Flee { to_the_death },
            format!(
                "{label}: fleeing{}",
                if to_the_death { " to the death" } else { "" }
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: FightPolicy = FightPolicy {
        fight_from: 0.7,
        flee_margin: 0.05,
        to_the_death_from: 0.97,
    };

    #[test]
    fn flees_a_losing_fight_and_fights_a_winning_one() {
        let (c, why) = decide(
            FightOdds {
                win: 0.23,
                flee_to_the_death: Some(0.98),
            },
            &P,
        );
        assert_eq!(c, BattleChoice::Flee { to_the_death: true });
        assert_eq!(why, "win 23 %, flee 98 %: fleeing to the death");
        let (c, _) = decide(
            FightOdds {
                win: 0.75,
                flee_to_the_death: Some(0.99),
            },
            &P,
        );
        assert_eq!(
            c,
            BattleChoice::Attack {
                to_the_death: false
            }
        );
    }

    #[test]
    fn fights_when_fleeing_is_no_better_or_impossible() {
        let (c, _) = decide(
            FightOdds {
                win: 0.4,
                flee_to_the_death: Some(0.42),
            },
            &P,
        );
        assert!(matches!(c, BattleChoice::Attack { .. }));
        let (c, why) = decide(
            FightOdds {
                win: 0.1,
                flee_to_the_death: None,
            },
            &P,
        );
        assert!(matches!(c, BattleChoice::Attack { .. }) && why.contains("impossible"));
    }
}
