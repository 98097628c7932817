use super::*;
use crate::present::view::adventurer_view;
use game::AdventurerId;
use game::sample::sample_state;

fn view(beast_health: u16) -> Value {
    let mut state = sample_state();
    state.adventurer.beast_health = beast_health;
    json!(adventurer_view(AdventurerId::from(7u64), &state))
}

fn lines() -> Vec<String> {
    (1..=12).map(|n| format!("event {n}")).collect()
}

#[test]
fn every_section_of_a_sample_state_is_on_the_sheet() {
    let v = view(17);
    let sheet = render_sheet(&v, &lines());
    for part in [
        "Adventurer <span>#7</span>",
        "class=\"phase in_battle\">in battle</span>",
        "<div class=\"bar hp\"><span style=\"width:",
        &format!("Health {} / {}", v["health"], v["max_health"]),
        "<dt>Level</dt><dd>5</dd>",
        "<dt>XP</dt><dd>30</dd>",
        "<dt>Gold</dt><dd>55</dd>",
        "<dt>STR</dt><dd>",
        "<dt>LUCK</dt><dd>",
        "<i>Weapon</i> <span>Short Sword</span> <b>G10</b>",
        "<li class=\"empty\"><i>Ring</i> <span>empty</span></li>",
        "<section class=\"bag\"><h2>Bag</h2><ul><li>",
        "<section class=\"beast\">",
        "<div class=\"bar beast-hp",
        "<li>event 12</li>",
    ] {
        assert!(sheet.contains(part), "{part} missing from {sheet}");
    }
    assert_eq!(sheet.matches("<i>").count(), 8, "eight gear slots");
    assert!(
        !sheet.contains("event 2<"),
        "only the last {} events",
        render::EVENTS_SHOWN
    );
    assert!(!sheet.contains("class=\"market\""), "no market in battle");
}

#[test]
fn the_market_is_shown_only_when_open() {
    let open = view(0);
    assert!(
        !open["market"].as_array().unwrap().is_empty(),
        "the sample's market is open out of battle"
    );
    let sheet = render_sheet(&open, &[]);
    assert!(
        sheet.contains("<section class=\"market\"><h2>Market</h2>"),
        "{sheet}"
    );
    assert!(sheet.contains("g</b> <em class=\""), "{sheet}");
    assert!(!sheet.contains("class=\"beast\""), "no beast out of battle");
    assert!(!sheet.contains("class=\"events\""), "no events given");
    let mut closed = open.clone();
    closed["market"] = json!([]);
    assert!(!render_sheet(&closed, &[]).contains("Market"));
}

#[test]
fn text_from_the_chain_is_escaped_everywhere() {
    let evil = "<img src=x onerror=alert(1)>\"'&";
    let mut v = view(17);
    v["adventurer_id"] = json!(evil);
    v["phase"] = json!(evil);
    v["equipment"][0]["name"] = json!(evil);
    v["bag"][0]["name"] = json!(evil);
    v["beast"]["name"] = json!(evil);
    v["beast"]["tier"] = json!(evil);
    let mut open = view(0);
    open["market"][0]["name"] = json!(evil);
    open["market"][0]["verdict"] = json!(evil);
    let page = page_html(&v, &[evil.to_string()]);
    let (markup, state) = page
        .split_once("<script type=\"application/json\"")
        .unwrap();
    assert!(!state.contains("<img"), "the state writes < as \\u003c");
    for sheet in [
        render_sheet(&v, &[evil.to_string()]),
        render_sheet(&open, &[]),
        markup.to_string(),
    ] {
        assert!(!sheet.contains("<img"), "{sheet}");
        assert!(!sheet.contains("\"'&\""), "{sheet}");
        assert!(sheet.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;"));
    }
}

#[test]
fn the_page_carries_its_state_safely_and_fills_every_placeholder() {
    let mut v = view(17);
    v["beast"]["name"] = json!("</script><script>alert(1)</script>{{js}}");
    let page = page_html(&v, &["</script>".into()]);
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "the state closes no script"
    );
    assert!(page.contains("\\u003c/script>"), "the state keeps the text");
    assert!(page.contains("{{js}}"), "a value is never filled again");
    assert_eq!(page.matches("window.lsSheet = ").count(), 1);
    assert!(page.contains("data-mode=\"page\"") && page.contains("connect-src 'self'"));
    let start = page.find("id=\"state\">").unwrap() + "id=\"state\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    let state: Value = serde_json::from_str(&page[start..end]).unwrap();
    assert_eq!(state["adventurer"], v);
    assert_eq!(state["events"][0], "</script>");

    let card = card_html();
    assert!(!card.contains("{{"), "every placeholder filled");
    assert!(card.contains("data-mode=\"app\"") && card.contains("connect-src 'none'"));
    for outside in ["http://", "https://", "//cdn", "src=\"http"] {
        assert!(
            !card.contains(outside),
            "the card names no outside origin: {outside}"
        );
    }
}

#[test]
fn a_linked_tool_names_the_card_and_keeps_its_other_meta() {
    let mut tool = Tool::new("t", "d", std::sync::Arc::new(Default::default()));
    let mut meta = MetaObject::new();
    meta.0.insert("other".into(), json!(1));
    tool.meta = Some(meta);
    link_card(&mut tool);
    let meta = serde_json::to_value(&tool).unwrap()["_meta"].clone();
    assert_eq!(meta, json!({"other": 1, "ui": {"resourceUri": CARD_URI}}));
}
