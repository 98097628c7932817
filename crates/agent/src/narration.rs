//! What the agent has seen of the current game, told as one line per event: the health and gold
//! after it, and one name per beast (the name with specials from the encounter, used everywhere).

use serde_json::Value;

use super::client::protocol;
use super::{AgentError, DeathCause};
use game::events::{Discovery, GameEvent, GameEventDetails};
use game::view::AdventurerView;

/// The game so far: the latest view, the beast faced, the last threat.
pub(crate) struct GameRun {
    /// The latest full view.
    pub view: Option<AdventurerView>,
    /// The beast's one name.
    beast_name: String,
    /// What the last harm was ("ambushed by a Dragon").
    pub last_threat: String,
    /// Its kind.
    pub threat: DeathCause,
    health: i32,
    max_health: u16,
    gold: i32,
}

impl Default for GameRun {
    fn default() -> Self {
        Self {
            view: None,
            beast_name: String::new(),
            last_threat: String::new(),
            threat: DeathCause::Other,
            health: 0,
            max_health: 0,
            gold: 0,
        }
    }
}

impl GameRun {
    /// "[hp 80/130 · 25 gold]" for the state before the next move.
    pub(crate) fn status(&self) -> String {
        match &self.view {
            Some(v) => format!(
                "L{:<2} hp {:>3}/{:<3} {:>3}g |",
                v.level, v.health, v.max_health, v.gold
            ),
            None => String::new(),
        }
    }

    /// Takes in an action result as a tool returns it: narrates its events and keeps the new
    /// state.
    pub(crate) fn absorb(
        &mut self,
        result: &mut Value,
        narrate: &mut (dyn FnMut(String) + Send),
    ) -> Result<(), AgentError> {
        let events: Vec<GameEvent> =
            serde_json::from_value(result["events"].take()).map_err(|e| protocol("events", e))?;
        let view: AdventurerView = serde_json::from_value(result["adventurer"].take())
            .map_err(|e| protocol("adventurer", e))?;
        self.take(&events, view, narrate);
        Ok(())
    }

    /// Takes in an action's events and the state after it: narrates the events and keeps the
    /// new state.
    pub(crate) fn take(
        &mut self,
        events: &[GameEvent],
        view: AdventurerView,
        narrate: &mut dyn FnMut(String),
    ) {
        if let Some(v) = self.view.as_ref().or(Some(&view)) {
            self.health = i32::from(v.health);
            self.max_health = v.max_health;
            self.gold = i32::from(v.gold);
        }
        for e in events {
            if let Some(line) = self.describe(&e.details) {
                narrate(format!(
                    "      hp {:>3}/{:<3} {:>3}g | {line}",
                    self.health.max(0),
                    self.max_health,
                    self.gold.max(0)
                ));
            }
        }
        if let Some(b) = &view.beast {
            self.beast_name = b.name.clone();
        }
        self.health = i32::from(view.health);
        self.max_health = view.max_health;
        self.gold = i32::from(view.gold);
        self.view = Some(view);
    }

    fn hurt(&mut self, damage: u16, cause: DeathCause, what: String) {
        self.health -= i32::from(damage);
        self.threat = cause;
        self.last_threat = what;
    }

    fn describe(&mut self, d: &GameEventDetails) -> Option<String> {
        let crit = |c: bool| if c { " (critical)" } else { "" };
        Some(match d {
            GameEventDetails::Beast(b) => {
                self.beast_name = b.name.clone();
                format!(
                    "{} {} appears: level {}, {} health",
                    article(&b.name),
                    b.name,
                    b.level,
                    b.health
                )
            }
            GameEventDetails::Ambush(a) => {
                let what = format!(
                    "ambushed by {} {}",
                    article(&self.beast_name),
                    self.beast_name
                );
                self.hurt(a.damage, DeathCause::Ambush, what);
                format!(
                    "ambushed: -{} on the {:?}{}",
                    a.damage,
                    a.location,
                    crit(a.critical_hit)
                )
            }
            GameEventDetails::Obstacle(o) => {
                if o.dodged {
                    format!("dodged {} (+{} xp)", o.name, o.xp_reward)
                } else {
                    self.hurt(
                        o.damage,
                        DeathCause::Obstacle,
                        format!("hit by the obstacle {}", o.name),
                    );
                    format!(
                        "{}: -{} on the {:?}{} (+{} xp)",
                        o.name,
                        o.damage,
                        o.location,
                        crit(o.critical_hit),
                        o.xp_reward
                    )
                }
            }
            GameEventDetails::Discovery { discovery, .. } => match discovery {
                Discovery::Gold { amount } => {
                    self.gold += i32::from(*amount);
                    format!("found {amount} gold")
                }
                Discovery::Health { amount } => {
                    self.health = (self.health + i32::from(*amount)).min(self.max_health.into());
                    format!("found {amount} health")
                }
                Discovery::Loot { item } => format!("found {} {}", article(&item.name), item.name),
            },
            GameEventDetails::Attack(a) => {
                format!(
                    "you hit the {} for {}{}",
                    self.beast_name,
                    a.damage,
                    crit(a.critical_hit)
                )
            }
            GameEventDetails::BeastAttack(a) => {
                let what = format!(
                    "killed by {} {}",
                    article(&self.beast_name),
                    self.beast_name
                );
                self.hurt(a.damage, DeathCause::Beast, what);
                format!(
                    "the {} hits your {:?} for {}{}",
                    self.beast_name,
                    a.location,
                    a.damage,
                    crit(a.critical_hit)
                )
            }
            GameEventDetails::DefeatedBeast {
                gold_reward,
                xp_reward,
                ..
            } => {
                self.gold += i32::from(*gold_reward);
                format!(
                    "{} defeated: +{xp_reward} xp, +{gold_reward} gold",
                    self.beast_name
                )
            }
            GameEventDetails::FledBeast { .. } => format!("escaped the {}", self.beast_name),
            GameEventDetails::Flee { success: false } => "failed to flee".to_string(),
            GameEventDetails::LevelUp { level } => format!("reached level {level}"),
            GameEventDetails::StatUpgrade { stats } => {
                let mut parts = Vec::new();
                for (n, v) in [
                    ("str", stats.strength),
                    ("dex", stats.dexterity),
                    ("vit", stats.vitality),
                    ("int", stats.intelligence),
                    ("wis", stats.wisdom),
                    ("cha", stats.charisma),
                ] {
                    if v > 0 {
                        parts.push(format!("+{v} {n}"));
                    }
                }
                format!("stats {}", parts.join(" "))
            }
            GameEventDetails::BuyItems {
                potions,
                items_purchased,
            } => {
                let names: Vec<&str> = items_purchased.iter().map(|i| i.name.as_str()).collect();
                match (names.is_empty(), *potions) {
                    (true, p) => format!("bought {p} potions"),
                    (false, 0) => format!("bought {}", names.join(", ")),
                    (false, p) => format!("bought {} and {p} potions", names.join(", ")),
                }
            }
            GameEventDetails::Equip { items } => format!(
                "equipped {}",
                items
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            GameEventDetails::Drop { items } => format!(
                "dropped {}",
                items
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => return None,
        })
    }
}

/// "a" or "an" before a name.
fn article(name: &str) -> &'static str {
    match name.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::events::{AttackEvent, BeastEncounter};
    use game::model::{BeastEvent, GameState, SpecialPowers};
    use game::view::adventurer_view;
    use game::{AdventurerId, Slot};

    /// Pins the `play` lines that name a beast: from its encounter and from the view in battle.
    #[test]
    fn play_lines_name_the_beast_with_its_specials() {
        let beast = BeastEvent {
            id: 29,
            health: 40,
            level: 20,
            specials: SpecialPowers {
                special1: 0,
                special2: 18,
                special3: 6,
            },
            ..Default::default()
        };
        let mut state = GameState {
            beast,
            ..Default::default()
        };
        state.adventurer.health = 100;
        state.adventurer.beast_health = 40;
        let ev = |details| GameEvent {
            adventurer_id: AdventurerId::from(1),
            action_count: 3,
            details,
        };
        let blow = |damage, location| AttackEvent {
            damage,
            location,
            critical_hit: false,
        };
        let mut lines = Vec::new();
        let mut run = GameRun::default();
        let view = adventurer_view(AdventurerId::from(1), &state);
        let met = [ev(GameEventDetails::Beast(BeastEncounter::from(beast)))];
        run.take(&met, view.clone(), &mut |l| lines.push(l));
        let mut run = GameRun::default();
        let fight = [
            ev(GameEventDetails::Attack(blow(4, Slot::Weapon))),
            ev(GameEventDetails::BeastAttack(blow(9, Slot::Chest))),
            ev(GameEventDetails::FledBeast {
                beast_id: 29,
                beast_name: "Dragon".into(),
                xp_reward: 1,
            }),
        ];
        run.take(&[], view.clone(), &mut |l| lines.push(l));
        run.take(&fight, view, &mut |l| lines.push(l));
        assert_eq!(
            lines,
            vec![
                "      hp 100/100   0g | a Demon Grasp Dragon appears: level 20, 40 health",
                "      hp 100/100   0g | you hit the Demon Grasp Dragon for 4",
                "      hp  91/100   0g | the Demon Grasp Dragon hits your Chest for 9",
                "      hp  91/100   0g | escaped the Demon Grasp Dragon",
            ]
        );
    }
}
