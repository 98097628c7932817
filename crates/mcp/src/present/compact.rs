//! The compact rendering of results: what changed and what the next decision needs, in few
//! tokens. One line per event (runs of blows folded), a small state, the legal tools with their
//! odds (a tool whose use never changes is just its name: its description says the rest), and
//! the market as one line per item worth a look, downgrades summarized by id. The full shape
//! stays in [`super::view::AdventurerView`].
//!
//! The principle: every field a model reads must change what it would do next. A constant (the
//! profile, a success flag, a made-up hash) or a fact it already has (an unchanged market or
//! stats line) is left out, never lost: `detail: "full"`, `ls_get_adventurer` and `ls_get_tx`
//! give it back, and errors carry the hash of anything sent.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::legal::LegalAction;
use super::tools;
use game::catalogue::{self, Slot};
use game::model::{GameState, Stats};
use game::phase::{self, Phase};
use game::preview::BattlePreview;
use game::verdict::Verdict;
use game::{rules, view};

/// How much a result says: `compact` (the default) or `full` (the whole adventurer view and the
/// raw events).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Detail {
    /// What changed, the state, the legal actions with odds and the market once.
    #[default]
    Compact,
    /// The whole adventurer view (market with effects, item facts) and the raw game events.
    Full,
}

/// The beast in front of the adventurer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CompactBeast {
    /// Name with specials.
    pub name: String,
    /// Level.
    pub level: u16,
    /// Health left.
    pub health: u16,
}

/// The adventurer in a few fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CompactState {
    /// Phase: not_started, in_battle, stat_upgrade, exploring or dead.
    pub phase: Phase,
    /// Health.
    pub health: u16,
    /// Max health.
    pub max_health: u16,
    /// Gold.
    pub gold: u16,
    /// Experience.
    pub xp: u16,
    /// Level.
    pub level: u8,
    /// Unspent stat points (absent when none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stat_points: u8,
    /// Action counter (pass it as `expected_action_count`).
    pub action_count: u16,
    /// Boosted stats: "STR 2 DEX 1 VIT 3 INT 0 WIS 1 CHA 2 LUCK 4" (absent: unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<String>,
    /// The beast, only in battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beast: Option<CompactBeast>,
    /// Equipped items: "Slot: Name G<greatness>" (absent: unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equipment: Option<Vec<String>>,
    /// Bag items: "Name G<greatness>" (absent: unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bag: Option<Vec<String>>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The open market: one line per item not owned that is not a downgrade; the downgrades by id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CompactMarket {
    /// "id Name, Slot Tier, price g: effect if equipped, verdict", the biggest gains first.
    pub items: Vec<String>,
    /// The items past the lines a write's result lists, by id ("5 more: 8, 15, …").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
    /// The downgrades left out, by id ("3 downgrades: 8, 15, 22").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub downgrades: Option<String>,
}

/// Most market lines a write's result lists (the rest by id; `ls_get_adventurer` lists all).
pub const MARKET_LINES: usize = 5;

/// The compact state of `state`.
pub fn compact_state(state: &GameState) -> CompactState {
    let adv = &state.adventurer;
    let ph = phase::phase(adv);
    let seed = adv.item_specials_seed;
    let equipment = adv
        .equipment
        .worn()
        .map(|(slot, it)| {
            format!(
                "{slot:?}: {} G{}",
                view::item_display_name(&it, seed).0,
                it.greatness()
            )
        })
        .collect();
    let bag = state
        .bag
        .iter()
        .map(|it| {
            format!(
                "{} G{}",
                view::item_display_name(it, seed).0,
                it.greatness()
            )
        })
        .collect();
    let beast = view::beast_view(state).map(|b| CompactBeast {
        name: b.name,
        level: b.level,
        health: b.health,
    });
    CompactState {
        phase: ph,
        health: adv.health,
        max_health: adv.max_health(),
        gold: adv.gold,
        xp: adv.xp,
        level: adv.level(),
        stat_points: adv.stat_upgrades_available,
        action_count: adv.action_count,
        stats: Some(stats_line(&adv.stats)),
        beast,
        equipment: Some(equipment),
        bag: Some(bag),
    }
}

fn stats_line(s: &Stats) -> String {
    format!(
        "STR {} DEX {} VIT {} INT {} WIS {} CHA {} LUCK {}",
        s.strength, s.dexterity, s.vitality, s.intelligence, s.wisdom, s.charisma, s.luck
    )
}

/// The market ids as the game lists them, deduplicated and sorted: what identifies "a market".
pub fn market_ids(state: &GameState) -> Vec<u8> {
    let mut ids = state.market.clone();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The open market without the items the adventurer owns, downgrades summarized by id, the
/// biggest gains first and at most `lines` of them (the rest by id); `None` when the market is
/// closed. It is shown while stat points wait too: a level-up's purchases go with its points
/// (`ls_upgrade` takes `items`).
pub fn compact_market(state: &GameState, lines: Option<usize>) -> Option<CompactMarket> {
    let adv = &state.adventurer;
    if !phase::market_open(adv) && phase::phase(adv) != phase::Phase::StatUpgrade {
        return None;
    }
    let mut ranked = Vec::new();
    let mut downgrades = Vec::new();
    for id in market_ids(state).into_iter().filter(|&id| !state.owns(id)) {
        let Some(info) = catalogue::item(id) else {
            continue;
        };
        let e = view::item_effect(state, id);
        let verdict = match Verdict::of(info.slot, &e) {
            Verdict::Upgrade => "upgrade",
            Verdict::Downgrade => {
                downgrades.push(id.to_string());
                continue;
            }
            Verdict::Same => "same",
            Verdict::EmptySlot => "empty slot",
        };
        let price = rules::item_price(info.tier, adv.stats.charisma);
        let effect = match info.slot {
            Slot::Neck | Slot::Ring => format!("luck {:+}", e.luck_change),
            Slot::Weapon => format!("attack {} (now {})", e.power, e.current_power),
            _ => format!("armor {} (now {})", e.power, e.current_power),
        };
        let gain = match info.slot {
            Slot::Neck | Slot::Ring => i32::from(e.luck_change),
            _ => i32::from(e.power) - i32::from(e.current_power),
        };
        let line = format!(
            "{id} {}, {:?} {:?}, {price}g: {effect}, {verdict}",
            info.name, info.slot, info.tier
        );
        ranked.push(((verdict == "same", -gain, price, id), line));
    }
    ranked.sort_by_key(|(key, _)| *key);
    let shown = lines.unwrap_or(usize::MAX).min(ranked.len());
    let rest: Vec<String> = ranked[shown..]
        .iter()
        .map(|(k, _)| k.3.to_string())
        .collect();
    let more = (!rest.is_empty()).then(|| format!("{} more: {}", rest.len(), rest.join(", ")));
    let items = ranked
        .into_iter()
        .take(shown)
        .map(|(_, line)| line)
        .collect();
    let downgrades = (!downgrades.is_empty())
        .then(|| format!("{} downgrades: {}", downgrades.len(), downgrades.join(", ")));
    Some(CompactMarket {
        items,
        more,
        downgrades,
    })
}

/// The legal tools of `state` (`legal`, described with `odds`: [`super::legal`]), one line each
/// with what matters for choosing: odds in battle, points to spend, potion prices; the other tools
/// by name.
pub fn compact_actions(
    state: &GameState,
    legal: &[LegalAction],
    odds: Option<&BattlePreview>,
) -> Vec<String> {
    let adv = &state.adventurer;
    legal
        .iter()
        .map(|a| {
            let note = match a.tool.as_str() {
                tools::ATTACK => odds.map_or_else(
                    || "kills the starter beast in one hit".to_string(),
                    |p| {
                        format!(
                            "win {:.0}% to the death; you hit {} ({} crit, {:.0}%) vs {} hp; it hits {}-{}",
                            p.win_probability * 100.0,
                            p.damage,
                            p.critical_damage,
                            p.critical_chance * 100.0,
                            p.beast_health,
                            p.beast_min_damage,
                            p.beast_max_damage
                        )
                    },
                ),
                tools::FLEE => odds
                    .and_then(|p| p.flee_chance.zip(p.flee_to_the_death_probability))
                    .map_or_else(
                        || "a failed try lets the beast hit".to_string(),
                        |(once, ttd)| {
                            format!(
                                "{:.0}% per try, {:.0}% escaping alive to the death",
                                once * 100.0,
                                ttd * 100.0
                            )
                        },
                    ),
                tools::UPGRADE => {
                    format!("spend exactly {} point(s)", adv.stat_upgrades_available)
                }
                tools::BUY_ITEM => format!(
                    "potions {}g each, up to {} (gold, max_health cap)",
                    rules::potion_price(adv.level(), adv.stats.charisma),
                    phase::affordable_potions(adv)
                ),
                _ => String::new(),
            };
            if note.is_empty() {
                a.tool.clone()
            } else {
                format!("{}: {note}", a.tool)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::event_lines::compact_events;
    use crate::present::legal::{battle_odds, legal_actions};
    use game::events::{AttackEvent, GameEvent, GameEventDetails};

    fn actions_of(s: &GameState) -> Vec<String> {
        let odds = battle_odds(s);
        compact_actions(s, &legal_actions(s, odds.as_ref()), odds.as_ref())
    }
    use game::events::{BeastEncounter, ItemRef};
    use game::sample::sample_state;

    fn ev(details: GameEventDetails) -> GameEvent {
        GameEvent {
            adventurer_id: game::AdventurerId::from(1u64),
            action_count: 3,
            details,
        }
    }

    fn blow(damage: u16, critical_hit: bool, location: Slot) -> AttackEvent {
        AttackEvent {
            damage,
            location,
            critical_hit,
        }
    }

    #[test]
    fn exploring_state_and_market_leave_out_owned_items() {
        let s = sample_state();
        let c = compact_state(&s);
        assert_eq!(c.phase, Phase::Exploring);
        assert_eq!((c.health, c.max_health, c.gold, c.level), (120, 130, 55, 5));
        assert!(c.beast.is_none());
        assert_eq!(c.equipment.expect("shown")[0], "Weapon: Short Sword G10");
        assert_eq!(c.stat_points, 0);
        let json = serde_json::to_value(compact_state(&s)).unwrap();
        assert!(json.get("stat_points").is_none(), "no points, no field");
        let m = compact_market(&s, None).expect("open");
        assert!(s.owns(42), "the sample owns item 42, which is on sale");
        assert!(
            m.items.iter().all(|l| !l.starts_with("42 ")),
            "{:?}",
            m.items
        );
        let (down, listed): (Vec<u8>, Vec<u8>) = market_ids(&s)
            .into_iter()
            .filter(|&id| !s.owns(id))
            .partition(|&id| game::verdict::verdict(&s, id) == Verdict::Downgrade);
        assert_eq!(m.items.len(), listed.len(), "{:?}", m.items);
        assert!(
            m.items
                .iter()
                .any(|l| l.starts_with("4 Silver Ring, Ring T2, 14g: luck +1")),
            "{:?}",
            m.items
        );
        assert!(listed.len() >= 2, "{:?}", m.items);
        let capped = compact_market(&s, Some(1)).expect("open");
        assert_eq!(capped.items, m.items[..1], "the biggest gain first");
        let more = capped.more.expect("the rest by id");
        assert!(
            more.starts_with(&format!("{} more: ", listed.len() - 1)),
            "{more}"
        );
        for (line, id) in listed.iter().map(|id| {
            let line = m.items.iter().find(|l| l.starts_with(&format!("{id} ")));
            (line.expect("each listed id has its line"), *id)
        }) {
            let expected = match game::verdict::verdict(&s, id) {
                Verdict::Upgrade => ", upgrade",
                Verdict::Same => ", same",
                Verdict::EmptySlot => ", empty slot",
                Verdict::Downgrade => unreachable!("downgrades are summarized"),
            };
            assert!(
                line.ends_with(expected),
                "{line} should end with {expected}"
            );
        }
        let ids: Vec<String> = down.iter().map(u8::to_string).collect();
        let summary =
            (!down.is_empty()).then(|| format!("{} downgrades: {}", down.len(), ids.join(", ")));
        assert_eq!(m.downgrades, summary);
        let actions = actions_of(&s);
        assert_eq!(
            actions[0], "ls_explore",
            "a tool that never changes is its name"
        );
        let adv = &s.adventurer;
        let price = rules::potion_price(adv.level(), adv.stats.charisma);
        let line = format!("ls_buy_item: potions {price}g each, up to 1 (gold, max_health cap)");
        assert!(actions.contains(&line), "{actions:?}");
    }

    #[test]
    fn battle_state_has_the_beast_and_odds_and_no_market() {
        let mut s = sample_state();
        s.adventurer.beast_health = 17;
        let c = compact_state(&s);
        assert_eq!(c.phase, Phase::InBattle);
        let b = c.beast.expect("beast in battle");
        assert_eq!(
            (b.name.as_str(), b.level, b.health),
            ("Demon Grasp Dragon", 20, 17)
        );
        assert_eq!(
            serde_json::to_string(&b).unwrap(),
            r#"{"name":"Demon Grasp Dragon","level":20,"health":17}"#
        );
        let mut unknown = s.clone();
        unknown.beast.id = 0;
        let b = compact_state(&unknown).beast.expect("beast in battle");
        assert_eq!(b.name, "Demon Grasp Unknown beast #0");
        assert!(compact_market(&s, None).is_none());
        let actions = actions_of(&s);
        assert!(actions[0].starts_with("ls_attack: win "), "{actions:?}");
        assert!(actions[0].contains("vs 17 hp"), "{actions:?}");
        assert!(
            actions
                .iter()
                .any(|a| a.starts_with("ls_flee: ") && a.contains("% per try"))
        );
    }

    #[test]
    fn events_are_short_and_blows_fold() {
        let beast = BeastEncounter::from(sample_state().beast);
        let events = vec![
            ev(GameEventDetails::Adventurer(Default::default())),
            ev(GameEventDetails::Beast(beast)),
            ev(GameEventDetails::Attack(blow(10, false, Slot::Weapon))),
            ev(GameEventDetails::BeastAttack(blow(4, false, Slot::Chest))),
            ev(GameEventDetails::Attack(blow(20, true, Slot::Weapon))),
            ev(GameEventDetails::BeastAttack(blow(5, true, Slot::Head))),
            ev(GameEventDetails::Attack(blow(11, false, Slot::Weapon))),
            ev(GameEventDetails::DefeatedBeast {
                beast_id: 29,
                beast_name: "Dragon".into(),
                gold_reward: 12,
                xp_reward: 30,
            }),
            ev(GameEventDetails::LevelUp { level: 6 }),
            ev(GameEventDetails::MarketItems {
                items: vec![ItemRef::new(4)],
            }),
            ev(GameEventDetails::Equip {
                items: vec![ItemRef::new(46)],
            }),
        ];
        let lines = compact_events(&events);
        assert_eq!(
            lines,
            vec![
                "beast: Demon Grasp Dragon level 20, 40 hp",
                "you hit 41 in 3 hits (1 crit); beast hit 9 in 2 hits (1 crit)",
                "defeated Dragon: +12 gold, +30 xp",
                "level up: 6",
                "equipped Short Sword",
            ]
        );
    }

    #[test]
    fn single_blows_and_flees_read_naturally() {
        let lines = compact_events(&[
            ev(GameEventDetails::Flee { success: false }),
            ev(GameEventDetails::BeastAttack(blow(7, false, Slot::Foot))),
            ev(GameEventDetails::Flee { success: true }),
        ]);
        assert_eq!(lines, vec!["flee failed x1; beast hit 7 on Foot", "fled"]);
    }

    #[test]
    fn rounds_fought_over_several_transactions_fold_into_one_line() {
        let round = |dealt, taken| {
            [
                ev(GameEventDetails::Attack(blow(dealt, false, Slot::Weapon))),
                ev(GameEventDetails::BeastAttack(blow(
                    taken,
                    false,
                    Slot::Hand,
                ))),
                ev(GameEventDetails::Adventurer(Default::default())),
            ]
        };
        let events: Vec<_> = [round(4, 19), round(4, 2), round(4, 11)].concat();
        assert_eq!(
            compact_events(&events),
            vec!["you hit 12 in 3 hits; beast hit 32 in 3 hits"]
        );
    }

    #[test]
    fn detail_parses_snake_case() {
        let d: Detail = serde_json::from_value(serde_json::json!("full")).unwrap();
        assert_eq!(d, Detail::Full);
        assert_eq!(Detail::default(), Detail::Compact);
        assert!(serde_json::from_value::<Detail>(serde_json::json!("verbose")).is_err());
    }
}
