//! An engine action as the MCP tool call that makes it: the tool's name and its arguments. The
//! built-in agent sends these calls, and the advice line shows the same call in short form.

use game::AdventurerId;
use serde_json::{Map, Value, json};

use super::tools;
use game::engine::Action;
use game::moves::StandingRule;

/// The tool call (name and arguments) that makes `action` on adventurer `id`, as any MCP client
/// sends it.
pub fn tool_call(id: AdventurerId, action: &Action) -> (&'static str, Value) {
    match action {
        Action::StartGame { weapon } => (tools::NEW_GAME, json!({ "weapon": weapon })),
        Action::Explore { till_beast } => (
            tools::EXPLORE,
            json!({ "adventurer_id": id, "till_beast": till_beast }),
        ),
        Action::Attack { to_the_death } => (
            tools::ATTACK,
            json!({ "adventurer_id": id, "to_the_death": to_the_death }),
        ),
        Action::Flee { to_the_death } => (
            tools::FLEE,
            json!({ "adventurer_id": id, "to_the_death": to_the_death }),
        ),
        Action::Equip { items } => (tools::EQUIP, json!({ "adventurer_id": id, "items": items })),
        Action::Drop { items } => (tools::DROP, json!({ "adventurer_id": id, "items": items })),
        Action::BuyItems { potions, items } => {
            let items: Vec<Value> = items
                .iter()
                .map(|i| json!({ "item": i.item_id, "equip": i.equip }))
                .collect();
            (
                tools::BUY_ITEM,
                json!({ "adventurer_id": id, "items": items, "potions": potions }),
            )
        }
        Action::Upgrade { stats: s } => (
            tools::UPGRADE,
            json!({
                "adventurer_id": id,
                "strength": s.strength, "dexterity": s.dexterity, "vitality": s.vitality,
                "intelligence": s.intelligence, "wisdom": s.wisdom, "charisma": s.charisma,
            }),
        ),
        Action::Surrender => (
            tools::SURRENDER,
            json!({ "adventurer_id": id, "confirm_surrender": true }),
        ),
        Action::Batch(parts) => batch_call(id, parts),
    }
}

/// A batch as its first part's tool with the later parts' arguments: the purchases of an
/// upgrade, and `explore` when it ends by exploring.
fn batch_call(id: AdventurerId, parts: &[Action]) -> (&'static str, Value) {
    let Some((first, rest)) = parts.split_first() else {
        return (tools::EXPLORE, json!({ "adventurer_id": id }));
    };
    let (tool, mut args) = tool_call(id, first);
    for part in rest {
        let extra = match part {
            Action::Explore { .. } => json!({ "explore": true }),
            other => tool_call(id, other).1,
        };
        if let (Value::Object(args), Value::Object(extra)) = (&mut args, extra) {
            args.extend(extra);
        }
    }
    (tool, args)
}

/// A combined move in short form: the call of its first transaction with the rule it goes on
/// with (`ls_attack {"flee_below":60,"explore":true,"heal_below":90}`).
pub fn move_call(action: &Action, rule: Option<&StandingRule>) -> String {
    let (tool, mut args) = tool_call(AdventurerId::default(), action);
    if let (Some(rule), Value::Object(map)) = (rule, &mut args) {
        let pct = |f: f64| json!((f * 100.0).round() as u64);
        if let Some(f) = rule.flee_below {
            map.insert("flee_below".into(), pct(f));
        }
        if rule.explore && tool != tools::EXPLORE {
            map.insert("explore".into(), json!(true));
        }
        if let Some(h) = rule.heal_below {
            map.insert("heal_below".into(), pct(h));
        }
    }
    short_form(tool, &args)
}

/// The call in short form, `ls_attack {"to_the_death":true}`: the arguments other than the
/// adventurer and those at their default (false, 0, empty) left out, so the call works as shown
/// once the adventurer is added.
pub fn short_call(action: &Action) -> String {
    let (tool, args) = tool_call(AdventurerId::default(), action);
    short_form(tool, &args)
}

/// `tool` and `args` without the adventurer and the arguments at their defaults.
fn short_form(tool: &str, args: &Value) -> String {
    let args: Map<String, Value> = args
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, v)| k.as_str() != "adventurer_id" && !crate::schema::is_zero(v))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if args.is_empty() {
        tool.to_string()
    } else {
        format!("{tool} {}", Value::Object(args))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::model::{ItemPurchase, Stats};

    #[test]
    fn short_calls_keep_only_what_differs_from_the_defaults() {
        let attack = Action::Attack { to_the_death: true };
        assert_eq!(short_call(&attack), r#"ls_attack {"to_the_death":true}"#);
        let explore = Action::Explore { till_beast: false };
        assert_eq!(short_call(&explore), "ls_explore");
        let upgrade = Action::Upgrade {
            stats: Stats {
                vitality: 2,
                ..Stats::default()
            },
        };
        assert_eq!(short_call(&upgrade), r#"ls_upgrade {"vitality":2}"#);
        let buy = Action::BuyItems {
            potions: 0,
            items: vec![ItemPurchase {
                item_id: 81,
                equip: true,
            }],
        };
        let call = short_call(&buy);
        let args = call.strip_prefix("ls_buy_item ").expect("the tool first");
        assert_eq!(
            serde_json::from_str::<Value>(args).unwrap(),
            json!({"items": [{"item": 81, "equip": true}]})
        );
    }

    #[test]
    fn full_calls_name_the_adventurer() {
        let (tool, args) = tool_call(AdventurerId::from(7u64), &Action::Drop { items: vec![3] });
        assert_eq!(tool, "ls_drop");
        assert_eq!(args, json!({"adventurer_id": 7, "items": [3]}));
    }
}
