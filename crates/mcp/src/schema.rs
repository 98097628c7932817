//! Schema settings applied once to every tool, after schemars has generated them: a top-level
//! `title`; input schemas in plain JSON Schema (bounds instead of schemars' `uint8`-style
//! formats, which hosts warn about, and optional fields instead of `[X, "null"]`), without the
//! descriptions of the shared write options (the server instructions explain them once), of a
//! union's alternatives or of an array's items (the field's own description names their forms);
//! and small output schemas.
//! MCP gives each tool a self-contained schema, so definitions cannot be shared across tools by
//! `$ref`: instead each output schema names every top-level field with its type only, and leaves
//! nested shapes to the result itself (`ls_get_adventurer` with detail "full" shows them all). A
//! `compact | full` union becomes one object accepting both. Every result still validates against
//! its schema.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::{Map, Value, json};

/// Levels of nesting an output schema spells out (1: the result's fields, typed).
const OUTPUT_DEPTH: usize = 1;

/// The options every write tool takes (`WriteOpts`; `detail` also on `ls_get_adventurer`): typed
/// and bounded in each input schema, described once in the server instructions.
pub(crate) const SHARED_OPTIONS: [&str; 4] =
    ["expected_action_count", "confirm", "timeout_ms", "detail"];

/// The options of a move that goes on, which the server instructions also describe once (their
/// bounds stay: a percentage's maximum is not the parser's byte range).
const GO_ON_OPTIONS: [&str; 3] = ["explore", "heal_below", "flee_below"];

/// What a host puts in the model's context for one tool: its name, description and input
/// schema, as JSON (what the definitions' size budget and the token benchmark measure).
pub fn tool_definition(tool: &Tool) -> Value {
    json!({
        "name": tool.name,
        "description": tool.description,
        "inputSchema": tool.input_schema,
    })
}

/// Applies the settings to one tool.
pub(crate) fn tidy_tool(tool: &mut Tool) {
    if tool.title.is_none() {
        tool.title = tool.annotations.as_ref().and_then(|a| a.title.clone());
    }
    let mut input = Value::Object(tool.input_schema.as_ref().clone());
    inline_definitions(&mut input);
    standard_input(&mut input);
    drop_repeated_descriptions(&mut input);
    if let Value::Object(o) = input {
        tool.input_schema = Arc::new(o);
    }
    if let Some(out) = &tool.output_schema {
        tool.output_schema = Some(Arc::new(slim_output(out)));
    }
}

/// Says in a tool's input schema what strict mode enforces: an object takes no key beyond its
/// properties (`additionalProperties: false`). A union with several object alternatives is left
/// open, since the server accepts a key that any of them names.
pub(crate) fn close_input(tool: &mut Tool) {
    let mut input = Value::Object(tool.input_schema.as_ref().clone());
    close_objects(&mut input);
    if let Value::Object(o) = input {
        tool.input_schema = Arc::new(o);
    }
}

fn close_objects(v: &mut Value) {
    let Value::Object(o) = v else { return };
    if o.contains_key("properties") {
        o.entry("additionalProperties")
            .or_insert(Value::Bool(false));
    }
    for (key, child) in o.iter_mut() {
        match (key.as_str(), child) {
            ("properties" | "$defs", Value::Object(children)) => {
                children.values_mut().for_each(close_objects);
            }
            ("items", child) => close_objects(child),
            ("anyOf" | "oneOf", Value::Array(alternatives)) => {
                let objects = alternatives
                    .iter()
                    .filter(|a| a.get("properties").is_some())
                    .count();
                if objects <= 1 {
                    alternatives.iter_mut().for_each(close_objects);
                }
            }
            _ => {}
        }
    }
}

/// Integer formats schemars emits, with their bounds.
fn int_bounds(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" | "uint" => (0, u32::MAX.into()),
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" | "int" => (i32::MIN.into(), i32::MAX.into()),
        _ => return None,
    })
}

fn number(n: i128) -> Value {
    if n < 0 {
        json!(n as i64)
    } else {
        json!(n as u64)
    }
}

/// Replaces every `$ref` of an input schema by the definition (input types are not recursive;
/// a reference nested deeper than a few levels is left alone, and then `$defs` stays), and drops
/// `$schema` (MCP's default dialect is the same draft 2020-12).
pub(crate) fn inline_definitions(v: &mut Value) {
    let Some(o) = v.as_object_mut() else { return };
    o.remove("$schema");
    let defs = o
        .remove("$defs")
        .and_then(|d| d.as_object().cloned())
        .unwrap_or_default();
    let mut left = false;
    for val in o.values_mut() {
        left |= inline_refs(val, &defs, 0);
    }
    if left {
        o.insert("$defs".into(), Value::Object(defs));
    }
}

/// Returns true when a reference was left in place (too deep).
fn inline_refs(v: &mut Value, defs: &Map<String, Value>, depth: usize) -> bool {
    match v {
        Value::Object(o) => {
            if o.contains_key("$ref") {
                if depth > 8 {
                    return true;
                }
                let target = deref(&Value::Object(o.clone()), defs);
                o.remove("$ref");
                for (k, val) in target {
                    o.entry(k).or_insert(val);
                }
            }
            if let Some(values) = enum_of_consts(o) {
                o.remove("oneOf");
                o.insert("type".into(), json!("string"));
                o.insert("enum".into(), Value::Array(values));
            }
            let mut left = false;
            for val in o.values_mut() {
                left |= inline_refs(val, defs, depth + 1);
            }
            left
        }
        Value::Array(a) => {
            let mut left = false;
            for x in a.iter_mut() {
                left |= inline_refs(x, defs, depth + 1);
            }
            left
        }
        _ => false,
    }
}

/// The values of a `oneOf` made only of string constants (a documented unit enum).
fn enum_of_consts(o: &Map<String, Value>) -> Option<Vec<Value>> {
    o.get("oneOf")?
        .as_array()?
        .iter()
        .map(|a| a.get("const").filter(|c| c.is_string()).cloned())
        .collect()
}

/// Rewrites an input schema in place into plain JSON Schema.
pub(crate) fn standard_input(v: &mut Value) {
    match v {
        Value::Object(o) => {
            if let Some(Value::String(f)) = o.get("format") {
                if let Some((lo, hi)) = int_bounds(f) {
                    o.remove("format");
                    o.entry("minimum").or_insert_with(|| number(lo));
                    o.entry("maximum").or_insert_with(|| number(hi));
                } else if matches!(f.as_str(), "uint64" | "int64" | "double" | "float") {
                    // Beyond 2^53 a bound is not exact in JavaScript clients: keep only the sign.
                    if f == "uint64" {
                        o.entry("minimum").or_insert_with(|| json!(0));
                    }
                    o.remove("format");
                }
            }
            if let Some(Value::Array(types)) = o.get("type")
                && types.len() >= 2
                && types.contains(&json!("null"))
            {
                let mut others: Vec<Value> = types
                    .iter()
                    .filter(|t| *t != &json!("null"))
                    .cloned()
                    .collect();
                let other = match others.len() {
                    1 => others.remove(0),
                    _ => Value::Array(others),
                };
                o.insert("type".into(), other);
                drop_null_default(o);
            }
            if let Some(Value::Array(alts)) = o.get("anyOf")
                && alts.len() == 2
                && alts.contains(&json!({ "type": "null" }))
            {
                let other = alts
                    .iter()
                    .find(|a| *a != &json!({ "type": "null" }))
                    .cloned();
                o.remove("anyOf");
                if let Some(Value::Object(other)) = other {
                    for (k, val) in other {
                        o.entry(k).or_insert(val);
                    }
                }
                drop_null_default(o);
            }
            o.values_mut().for_each(standard_input);
        }
        Value::Array(a) => a.iter_mut().for_each(standard_input),
        _ => {}
    }
}

/// Removes the descriptions and bounds of the shared write options (the server instructions
/// state them, and the arguments' parser enforces them), and the descriptions of a union's
/// alternatives and of a described array's items (the union's or array's own names them).
fn drop_repeated_descriptions(v: &mut Value) {
    if let Some(Value::Object(props)) = v.get_mut("properties") {
        for name in SHARED_OPTIONS {
            if let Some(Value::Object(p)) = props.get_mut(name) {
                for key in ["description", "minimum", "maximum"] {
                    p.remove(key);
                }
            }
        }
        for name in GO_ON_OPTIONS {
            if let Some(Value::Object(p)) = props.get_mut(name) {
                p.remove("description");
            }
        }
    }
    strip_nested(v);
}

fn strip_nested(v: &mut Value) {
    match v {
        Value::Object(o) => {
            // Defaults that are the type's zero say nothing, and the parser enforces a byte's
            // range (a number out of it is refused with the field named).
            if matches!(o.get("default"), Some(d) if is_zero(d)) {
                o.remove("default");
            }
            if o.get("minimum") == Some(&json!(0)) {
                o.remove("minimum");
                if o.get("maximum") == Some(&json!(u8::MAX)) {
                    o.remove("maximum");
                }
            }
            if o.contains_key("description")
                && let Some(Value::Object(items)) = o.get_mut("items")
            {
                items.remove("description");
            }
            if let Some(Value::Array(alts)) = o.get_mut("anyOf") {
                // A union inside a union is the same union, spelled once.
                let flat: Vec<Value> = alts
                    .iter()
                    .flat_map(|a| match a.get("anyOf") {
                        Some(Value::Array(inner))
                            if a.as_object()
                                .is_some_and(|m| m.len() <= 2 && !m.contains_key("type")) =>
                        {
                            inner.clone()
                        }
                        _ => vec![a.clone()],
                    })
                    .collect();
                *alts = flat;
                for a in alts.iter_mut() {
                    if let Some(a) = a.as_object_mut() {
                        a.remove("description");
                    }
                }
            }
            o.values_mut().for_each(strip_nested);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_nested),
        _ => {}
    }
}

/// False, zero or an empty array: a value that says nothing as a default or an argument.
pub(crate) fn is_zero(v: &Value) -> bool {
    match v {
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

fn drop_null_default(o: &mut Map<String, Value>) {
    if o.get("default") == Some(&Value::Null) {
        o.remove("default");
    }
}

/// The small output schema of a generated one (see the module doc).
pub(crate) fn slim_output(schema: &JsonObject) -> JsonObject {
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let root = Value::Object(schema.clone());
    let branches: Vec<Map<String, Value>> = match root.get("anyOf").and_then(Value::as_array) {
        Some(alts) => alts.iter().map(|a| deref(a, &defs)).collect(),
        None => vec![deref(&root, &defs)],
    };
    let mut properties = Map::new();
    let mut required: Option<Vec<Value>> = None;
    for b in &branches {
        if let Some(Value::Object(props)) = b.get("properties") {
            for (name, p) in props {
                let slim = slim(p, &defs, 1);
                match properties.get_mut(name) {
                    None => {
                        properties.insert(name.clone(), Value::Object(slim));
                    }
                    Some(Value::Object(seen)) if seen != &slim => loosen(seen, &slim),
                    Some(_) => {}
                }
            }
        }
        let req: Vec<Value> = b
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        required = Some(match required {
            None => req,
            Some(r) => r.into_iter().filter(|x| req.contains(x)).collect(),
        });
    }
    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    if let Some(r) = required.filter(|r| !r.is_empty()) {
        out.insert("required".into(), Value::Array(r));
    }
    out
}

/// A schema with its `$ref` resolved (the outer description wins).
fn deref(v: &Value, defs: &Map<String, Value>) -> Map<String, Value> {
    let Some(o) = v.as_object() else {
        return Map::new();
    };
    let Some(r) = o.get("$ref").and_then(Value::as_str) else {
        return o.clone();
    };
    let name = r.rsplit('/').next().unwrap_or_default();
    let mut target = defs
        .get(name)
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(d) = o.get("description") {
        target.insert("description".into(), d.clone());
    }
    target
}

/// The JSON types a schema allows, `None` when it does not say.
fn types_of(s: &Map<String, Value>, defs: &Map<String, Value>) -> Option<Vec<Value>> {
    if let Some(t) = s.get("type") {
        return Some(match t {
            Value::Array(ts) => ts.clone(),
            t => vec![t.clone()],
        });
    }
    if s.contains_key("properties") {
        return Some(vec![json!("object")]);
    }
    if let Some(Value::String(_)) = s.get("const") {
        return Some(vec![json!("string")]);
    }
    let alts = s
        .get("anyOf")
        .or_else(|| s.get("oneOf"))
        .and_then(Value::as_array)?;
    let mut all = Vec::new();
    for a in alts {
        for t in types_of(&deref(a, defs), defs)? {
            if !all.contains(&t) {
                all.push(t);
            }
        }
    }
    Some(all)
}

fn slim(v: &Value, defs: &Map<String, Value>, depth: usize) -> Map<String, Value> {
    let s = deref(v, defs);
    let mut out = Map::new();
    let types = types_of(&s, defs);
    if let Some(t) = &types {
        out.insert(
            "type".into(),
            if t.len() == 1 {
                t[0].clone()
            } else {
                Value::Array(t.clone())
            },
        );
    }
    if depth < OUTPUT_DEPTH {
        let object = match s.get("anyOf").and_then(Value::as_array) {
            Some(alts) => alts
                .iter()
                .map(|a| deref(a, defs))
                .find(|a| a.contains_key("properties")),
            None => Some(s.clone()),
        };
        if let Some(Value::Object(props)) = object.as_ref().and_then(|o| o.get("properties")) {
            let props: Map<String, Value> = props
                .iter()
                .map(|(k, p)| (k.clone(), Value::Object(slim(p, defs, depth + 1))))
                .collect();
            out.insert("properties".into(), Value::Object(props));
        }
        if let Some(items) = s.get("items") {
            out.insert("items".into(), Value::Object(slim(items, defs, depth + 1)));
        }
    }
    out
}

/// Widens `seen` so it also accepts what `other` describes (the two shapes of a union).
fn loosen(seen: &mut Map<String, Value>, other: &Map<String, Value>) {
    let mut types: Vec<Value> = match seen.get("type") {
        Some(Value::Array(t)) => t.clone(),
        Some(t) => vec![t.clone()],
        None => Vec::new(),
    };
    match other.get("type") {
        Some(Value::Array(t)) => types.extend(t.iter().cloned()),
        Some(t) => types.push(t.clone()),
        None => types.clear(),
    }
    let keep_type = !types.is_empty() && seen.contains_key("type");
    types.dedup();
    let mut unique = Vec::new();
    for t in types {
        if !unique.contains(&t) {
            unique.push(t);
        }
    }
    seen.clear();
    if keep_type {
        seen.insert(
            "type".into(),
            if unique.len() == 1 {
                unique[0].clone()
            } else {
                Value::Array(unique)
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_formats_become_bounds_and_nullable_types_optional() {
        let mut s = json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255},
                "b": {"type": ["integer", "null"], "format": "uint16", "default": null},
                "id": {"type": ["integer", "string", "null"], "default": null},
                "c": {"anyOf": [{"$ref": "#/$defs/Confirm"}, {"type": "null"}], "default": null},
                "d": {"type": "integer", "format": "int16"}
            }
        });
        standard_input(&mut s);
        assert_eq!(
            s["properties"]["a"],
            json!({"type": "integer", "minimum": 0, "maximum": 255})
        );
        assert_eq!(
            s["properties"]["b"],
            json!({"type": "integer", "minimum": 0, "maximum": 65535})
        );
        assert_eq!(
            s["properties"]["id"],
            json!({"type": ["integer", "string"]})
        );
        assert_eq!(s["properties"]["c"], json!({"$ref": "#/$defs/Confirm"}));
        assert_eq!(s["properties"]["d"]["minimum"], json!(-32768));
        assert!(!s.to_string().contains("format"));
    }

    #[test]
    fn shared_options_alternatives_and_items_lose_their_descriptions() {
        let mut s = json!({
            "type": "object",
            "properties": {
                "timeout_ms": {"type": "integer", "minimum": 0, "description": "How long."},
                "weapon": {"description": "Id or name.", "anyOf": [
                    {"type": "integer", "description": "Id."},
                    {"type": "string", "description": "Name."}
                ]},
                "items": {"type": "array", "description": "Items.", "items": {"description": "An item."}},
                "bare": {"type": "array", "items": {"description": "An item."}}
            }
        });
        drop_repeated_descriptions(&mut s);
        let p = &s["properties"];
        assert_eq!(p["timeout_ms"], json!({"type": "integer"}));
        assert_eq!(p["weapon"]["description"], "Id or name.");
        assert_eq!(p["weapon"]["anyOf"][1], json!({"type": "string"}));
        assert_eq!(p["items"]["items"], json!({}));
        assert_eq!(p["bare"]["items"]["description"], "An item.");
    }

    #[test]
    fn output_unions_merge_and_nesting_is_cut() {
        let schema = json!({
            "type": "object",
            "anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
            "$defs": {
                "A": {"type": "object", "required": ["ok", "events"], "properties": {
                    "ok": {"type": "boolean", "description": "Always true. More."},
                    "events": {"type": "array", "items": {"type": "string"}}
                }},
                "B": {"type": "object", "required": ["ok"], "properties": {
                    "ok": {"type": "boolean", "description": "Always true. More."},
                    "events": {"type": "array", "items": {"$ref": "#/$defs/E"}},
                    "deep": {"$ref": "#/$defs/E"}
                }},
                "E": {"type": "object", "properties": {"x": {"$ref": "#/$defs/E"}}}
            }
        });
        let out = Value::Object(slim_output(schema.as_object().unwrap()));
        assert_eq!(out["required"], json!(["ok"]));
        assert_eq!(out["properties"]["ok"], json!({"type": "boolean"}));
        assert_eq!(
            out["properties"]["events"],
            json!({"type": "array"}),
            "items differ: loosened"
        );
        assert_eq!(
            out["properties"]["deep"],
            json!({"type": "object"}),
            "nesting cut"
        );
        assert!(!out.to_string().contains("$ref"));
    }
}
