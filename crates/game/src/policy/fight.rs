//! Fight or flee, from the battle preview's odds (never an exact outcome): attack when the win
//! chance is high enough or beats the chance of escaping alive; else flee. One round at a time
//! unless the odds are overwhelming, so each round is decided on fresh odds.

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
