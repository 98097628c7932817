//! The adventurer sheet, one HTML/CSS/JS inside the binary (no CDN, no build step), shown two
//! ways: as a page (the server renders the sheet, so it reads without JavaScript; its script then
//! keeps it live) and as an MCP App card (SEP-1865) that renders the tool result the host hands it.

mod render;

use std::sync::OnceLock;

use rmcp::model::{MetaObject, Tool};
use serde_json::{Value, json};

pub use render::{escape, render_sheet};

/// The card's resource: an MCP App (`_meta.ui.resourceUri` of the tools that return a state).
pub const CARD_URI: &str = "ui://loot-survivor/adventurer-card";
/// The MIME type of an MCP App's HTML (SEP-1865).
pub const APP_MIME: &str = "text/html;profile=mcp-app";
/// The MCP Apps extension's id, declared in the server's capabilities (SEP-1865).
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";

const TEMPLATE: &str = include_str!("sheet.html");
const CSS: &str = include_str!("sheet.css");
const JS: &str = include_str!("sheet.js");

/// The card's HTML: an empty sheet that the host's tool result fills; it opens no connection.
pub fn card_html() -> &'static str {
    static CARD: OnceLock<String> = OnceLock::new();
    CARD.get_or_init(|| {
        fill(&[
            ("title", "Loot Survivor adventurer".into()),
            ("connect", "'none'".into()),
            ("mode", "app".into()),
            (
                "sheet",
                "<p class=\"none\">Waiting for the game…</p>".into(),
            ),
            ("state", "null".into()),
        ])
    })
}

/// The page of one adventurer: the sheet rendered here from `view` (as `ls_get_adventurer`
/// returns it in full) and its last `events`, and the same state for the script that keeps it
/// live (which may connect to its own origin only).
pub fn page_html(view: &Value, events: &[String]) -> String {
    live_page_html(view, events, "")
}

/// [`page_html`] whose script follows the server-sent events at `stream` (a same-origin URL; no
/// stream when empty), drawing each `state` event's model.
pub fn live_page_html(view: &Value, events: &[String], stream: &str) -> String {
    let state = json!({ "adventurer": view, "events": events });
    fill(&[
        (
            "title",
            format!("Adventurer #{}", escape(&id_text(&view["adventurer_id"]))),
        ),
        ("connect", "'self'".into()),
        ("mode", "page".into()),
        ("stream", escape(stream)),
        ("sheet", render_sheet(view, events)),
        ("state", script_json(&state)),
    ])
}

/// Links a tool to the card: `_meta.ui.resourceUri` (hosts without MCP Apps ignore it).
pub fn link_card(tool: &mut Tool) {
    let mut meta = tool.meta.take().unwrap_or_default();
    meta.0
        .insert("ui".into(), json!({ "resourceUri": CARD_URI }));
    tool.meta = Some(meta);
}

/// The `_meta` of the card's contents: a border, and no `csp`, so the host's most restrictive
/// default applies (the card needs no outside origin).
pub fn card_meta() -> MetaObject {
    let mut meta = MetaObject::new();
    meta.0.insert("ui".into(), json!({ "prefersBorder": true }));
    meta
}

fn id_text(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// JSON that is safe inside a `<script>` element: no `<` at all (`\u003c` means the same).
fn script_json(v: &Value) -> String {
    v.to_string().replace('<', "\\u003c")
}

/// The template with each `{{key}}` replaced, in one pass: a value is never scanned again, so
/// text from the chain cannot name a placeholder.
fn fill(values: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(TEMPLATE.len() + CSS.len() + JS.len() + 4096);
    let mut rest = TEMPLATE;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").map_or(rest.len(), |e| start + e);
        let key = &rest[start + 2..end];
        match key {
            "css" => out.push_str(CSS),
            "js" => out.push_str(JS),
            _ => {
                let value = values.iter().find(|(k, _)| *k == key);
                out.push_str(value.map_or("", |(_, v)| v.as_str()));
            }
        }
        rest = &rest[(end + 2).min(rest.len())..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
