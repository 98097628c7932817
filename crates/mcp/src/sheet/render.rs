//! The sheet's markup, rendered on the server from the adventurer view: the page reads without
//! JavaScript. `sheet.js` renders the very same markup in the browser; keep the two in step.

use std::fmt::Write;

use serde_json::Value;

/// The eight gear slots, in the game's order.
pub(crate) const SLOTS: [&str; 8] = [
    "Weapon", "Chest", "Head", "Waist", "Foot", "Hand", "Neck", "Ring",
];
/// The stats, as the view names them, with their short labels.
const STATS: [(&str, &str); 7] = [
    ("strength", "STR"),
    ("dexterity", "DEX"),
    ("vitality", "VIT"),
    ("intelligence", "INT"),
    ("wisdom", "WIS"),
    ("charisma", "CHA"),
    ("luck", "LUCK"),
];
/// Events shown: the last ones.
pub(crate) const EVENTS_SHOWN: usize = 10;

/// HTML-escapes `s` (text and attribute values).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A number or string of the view, escaped; "–" when absent.
fn val(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => escape(s),
        _ => "–".into(),
    }
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

/// A bar of `now` out of `max` (clamped to 0..=100 %), with its label.
fn bar(class: &str, label: &str, now: &Value, max: &Value) -> String {
    let top = int(max).max(int(now)).max(1);
    let pct = (int(now).max(0) * 100 / top).min(100);
    let low = if pct < 30 { " low" } else { "" };
    format!(
        "<div class=\"bar {class}{low}\"><span style=\"width:{pct}%\"></span><b>{label} {} / {}</b></div>",
        val(now),
        val(max)
    )
}

/// The sheet of the adventurer `view` (the `ls_get_adventurer` full view) with its last `events`
/// as lines: header, health, level, xp, gold, stats, gear, bag, beast, the open market, events.
pub fn render_sheet(view: &Value, events: &[String]) -> String {
    let a = view;
    let phase = a["phase"].as_str().unwrap_or("unknown");
    let mut h = format!(
        "<header><h1>Adventurer <span>#{}</span></h1><span class=\"phase {}\">{}</span></header>",
        val(&a["adventurer_id"]),
        escape(phase),
        escape(&phase.replace('_', " "))
    );
    h += &bar("hp", "Health", &a["health"], &a["max_health"]);
    let points = int(&a["stat_upgrades_available"]);
    let _ = write!(
        h,
        "<dl class=\"vitals\"><div><dt>Level</dt><dd>{}</dd></div><div><dt>XP</dt><dd>{}</dd></div><div><dt>Gold</dt><dd>{}</dd></div>",
        val(&a["level"]),
        val(&a["xp"]),
        val(&a["gold"])
    );
    if points > 0 {
        let _ = write!(h, "<div><dt>Stat points</dt><dd>{points}</dd></div>");
    }
    h += "</dl>";
    h += &beast(&a["beast"]);
    h += &stats(&a["stats"]);
    h += &gear(&a["equipment"]);
    h += &bag(&a["bag"]);
    h += &market(&a["market"]);
    h += &event_lines(events);
    h
}

fn beast(b: &Value) -> String {
    if !b.is_object() {
        return String::new();
    }
    let start = if b["starting_health"].is_null() {
        &b["health"]
    } else {
        &b["starting_health"]
    };
    let mut h = format!(
        "<section class=\"beast\"><h2>Beast</h2><p><span class=\"name\">{}</span> level {}",
        val(&b["name"]),
        val(&b["level"])
    );
    if let Some(tier) = b["tier"].as_str() {
        let _ = write!(h, " {}", escape(tier));
    }
    h += "</p>";
    h += &bar("beast-hp", "Health", &b["health"], start);
    h + "</section>"
}

fn stats(stats: &Value) -> String {
    if !stats.is_object() {
        return unknown("stats", "Stats");
    }
    let mut h = String::from("<section class=\"stats\"><h2>Stats</h2><dl>");
    for (key, label) in STATS {
        let _ = write!(
            h,
            "<div><dt>{label}</dt><dd>{}</dd></div>",
            val(&stats[key])
        );
    }
    h + "</dl></section>"
}

fn unknown(class: &str, title: &str) -> String {
    format!(
        "<section class=\"{class}\"><h2>{title}</h2><p class=\"none\">not in this result</p></section>"
    )
}

fn gear(equipment: &Value) -> String {
    let Some(items) = equipment.as_array() else {
        return unknown("gear", "Gear");
    };
    let mut h = String::from("<section class=\"gear\"><h2>Gear</h2><ul>");
    for slot in SLOTS {
        match items.iter().find(|i| i["slot"] == slot) {
            Some(i) => {
                let _ = write!(
                    h,
                    "<li><i>{slot}</i> <span>{}</span> <b>G{}</b></li>",
                    val(&i["name"]),
                    val(&i["greatness"])
                );
            }
            None => {
                let _ = write!(
                    h,
                    "<li class=\"empty\"><i>{slot}</i> <span>empty</span></li>"
                );
            }
        }
    }
    h + "</ul></section>"
}

fn bag(bag: &Value) -> String {
    let Some(items) = bag.as_array() else {
        return unknown("bag", "Bag");
    };
    if items.is_empty() {
        return "<section class=\"bag\"><h2>Bag</h2><p class=\"none\">empty</p></section>".into();
    }
    let mut h = String::from("<section class=\"bag\"><h2>Bag</h2><ul>");
    for i in items {
        let _ = write!(
            h,
            "<li><span>{}</span> <b>G{}</b></li>",
            val(&i["name"]),
            val(&i["greatness"])
        );
    }
    h + "</ul></section>"
}

fn market(market: &Value) -> String {
    let Some(items) = market.as_array().filter(|m| !m.is_empty()) else {
        return String::new();
    };
    let mut h = String::from("<section class=\"market\"><h2>Market</h2><ul>");
    for i in items {
        let verdict = i["verdict"].as_str().unwrap_or("");
        let _ = write!(
            h,
            "<li><span>{}</span> <i>{} {}</i> <b>{}g</b> <em class=\"{}\">{}</em></li>",
            val(&i["name"]),
            val(&i["slot"]),
            val(&i["tier"]),
            val(&i["price"]),
            escape(verdict),
            escape(&verdict.replace('_', " "))
        );
    }
    h + "</ul></section>"
}

fn event_lines(events: &[String]) -> String {
    if events.is_empty() {
        return String::new();
    }
    let mut h = String::from("<section class=\"events\"><h2>Last events</h2><ol>");
    for e in &events[events.len().saturating_sub(EVENTS_SHOWN)..] {
        let _ = write!(h, "<li>{}</li>", escape(e));
    }
    h + "</ol></section>"
}
