//! Game events as compact lines: one line per event that changes a decision, runs of blows
//! folded into one (see [`super::compact`] for the principle).

use game::catalogue::Slot;
use game::events::{AttackEvent, Discovery, GameEvent, GameEventDetails};

/// One short line per event; the state events (`adventurer`, `bag`) and the market list are left
/// out (the result carries them), and consecutive blows are folded into one line.
pub fn compact_events(events: &[GameEvent]) -> Vec<String> {
    let mut out = Vec::new();
    let mut blows = Blows::default();
    for e in events {
        match &e.details {
            GameEventDetails::Attack(a) => blows.dealt.add(a),
            GameEventDetails::BeastAttack(a) => blows.taken.add(a),
            GameEventDetails::Flee { success: false } => blows.failed_flees += 1,
            // A state event between blows (each round of a fight fought over several
            // transactions ends with one) does not split them.
            d => {
                if let Some(line) = event_line(d) {
                    blows.flush(&mut out);
                    out.push(line);
                }
            }
        }
    }
    blows.flush(&mut out);
    out
}

#[derive(Default)]
struct Hits {
    count: u32,
    damage: u32,
    crits: u32,
    last_location: Option<Slot>,
}

impl Hits {
    fn add(&mut self, a: &AttackEvent) {
        self.count += 1;
        self.damage += u32::from(a.damage);
        self.crits += u32::from(a.critical_hit);
        self.last_location = Some(a.location);
    }

    fn describe(&self) -> String {
        let crit = match self.crits {
            0 => String::new(),
            1 if self.count == 1 => " (crit)".into(),
            1 => " (1 crit)".into(),
            n => format!(" ({n} crits)"),
        };
        if self.count == 1 {
            format!("{}{crit}", self.damage)
        } else {
            format!("{} in {} hits{crit}", self.damage, self.count)
        }
    }
}

#[derive(Default)]
struct Blows {
    dealt: Hits,
    taken: Hits,
    failed_flees: u32,
}

impl Blows {
    fn flush(&mut self, out: &mut Vec<String>) {
        let mut parts = Vec::new();
        if self.failed_flees > 0 {
            parts.push(format!("flee failed x{}", self.failed_flees));
        }
        if self.dealt.count > 0 {
            parts.push(format!("you hit {}", self.dealt.describe()));
        }
        if self.taken.count > 0 {
            let at = match (self.taken.count, self.taken.last_location) {
                (1, Some(slot)) => format!(" on {slot:?}"),
                _ => String::new(),
            };
            parts.push(format!("beast hit {}{at}", self.taken.describe()));
        }
        if !parts.is_empty() {
            out.push(parts.join("; "));
        }
        *self = Blows::default();
    }
}

fn event_line(d: &GameEventDetails) -> Option<String> {
    Some(match d {
        GameEventDetails::Adventurer(_)
        | GameEventDetails::Bag(_)
        | GameEventDetails::MarketItems { .. }
        | GameEventDetails::Randomness(_)
        | GameEventDetails::Collectable(_) => return None,
        GameEventDetails::CollectableStats(c) => format!(
            "collectable {}: {} adventurers killed",
            c.beast_name, c.adventurers_killed
        ),
        GameEventDetails::Beast(b) => {
            format!("beast: {} level {}, {} hp", b.name, b.level, b.health)
        }
        GameEventDetails::Discovery {
            discovery,
            xp_reward,
        } => {
            let what = match discovery {
                Discovery::Gold { amount } => format!("{amount} gold"),
                Discovery::Health { amount } => format!("{amount} health"),
                Discovery::Loot { item } => item.name.clone(),
            };
            format!("found {what} (+{xp_reward} xp)")
        }
        GameEventDetails::Obstacle(o) => {
            if o.dodged {
                format!("dodged {} (+{} xp)", o.name, o.xp_reward)
            } else {
                format!(
                    "{} hit {}{} on {:?} (+{} xp)",
                    o.name,
                    o.damage,
                    if o.critical_hit { " (crit)" } else { "" },
                    o.location,
                    o.xp_reward
                )
            }
        }
        GameEventDetails::DefeatedBeast {
            beast_name,
            gold_reward,
            xp_reward,
            ..
        } => format!("defeated {beast_name}: +{gold_reward} gold, +{xp_reward} xp"),
        GameEventDetails::FledBeast {
            beast_name,
            xp_reward,
            ..
        } => format!("fled {beast_name} (+{xp_reward} xp)"),
        GameEventDetails::StatUpgrade { stats } => {
            let s = stats;
            let parts: Vec<String> = [
                ("strength", s.strength),
                ("dexterity", s.dexterity),
                ("vitality", s.vitality),
                ("intelligence", s.intelligence),
                ("wisdom", s.wisdom),
                ("charisma", s.charisma),
            ]
            .iter()
            .filter(|(_, v)| *v > 0)
            .map(|(n, v)| format!("{n} +{v}"))
            .collect();
            format!("upgraded {}", parts.join(", "))
        }
        GameEventDetails::BuyItems {
            potions,
            items_purchased,
        } => {
            let mut parts: Vec<String> = items_purchased
                .iter()
                .map(|p| format!("{}{}", p.name, if p.equip { " (equipped)" } else { "" }))
                .collect();
            if *potions > 0 {
                parts.push(format!("{potions} potion(s)"));
            }
            format!("bought {}", parts.join(", "))
        }
        GameEventDetails::Equip { items } => format!("equipped {}", names(items)),
        GameEventDetails::Drop { items } => format!("dropped {}", names(items)),
        GameEventDetails::LevelUp { level } => format!("level up: {level}"),
        GameEventDetails::Ambush(a) => format!(
            "ambushed: took {}{} on {:?}",
            a.damage,
            if a.critical_hit { " (crit)" } else { "" },
            a.location
        ),
        GameEventDetails::Attack(_) | GameEventDetails::BeastAttack(_) => return None,
        GameEventDetails::Flee { success } => {
            if *success {
                "fled".into()
            } else {
                "flee failed".into()
            }
        }
    })
}

fn names(items: &[game::events::ItemRef]) -> String {
    items
        .iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
