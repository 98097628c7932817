//! Reading tool arguments against the tool's JSON schema: keys the schema does not define (with
//! the keys it does, and the closest one), and quoted numbers and booleans read as what the
//! schema asks for where no alternative takes a string.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

use game::catalogue::{closest_names, fold_name};
use schemars::JsonSchema;
use serde_json::Value;

use crate::error::ToolError;

/// Most unknown keys named in one error.
const MAX_UNKNOWN_LISTED: usize = 10;

/// The JSON schema of a tool's arguments `T`, generated once per type: every call reads it.
pub(super) fn schema_of<T: JsonSchema + 'static>() -> Arc<Value> {
    static SCHEMAS: LazyLock<RwLock<HashMap<TypeId, Arc<Value>>>> = LazyLock::new(Default::default);
    let id = TypeId::of::<T>();
    if let Some(s) = SCHEMAS.read().ok().and_then(|m| m.get(&id).cloned()) {
        return s;
    }
    let schema = Arc::new(schemars::schema_for!(T).to_value());
    if let Ok(mut m) = SCHEMAS.write() {
        m.insert(id, schema.clone());
    }
    schema
}

/// A key the schema does not define.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Unknown {
    /// Where it is (`items[1].qty`).
    pub path: String,
    /// The key itself.
    pub key: String,
    /// The keys its object accepts.
    pub accepted: Vec<String>,
    /// When its value is an object of accepted keys (`{"stats": {"vitality": 1}}`): those keys.
    pub wraps: Vec<String>,
    /// The one required key its object lacks, when this is the object's only unknown key
    /// (`{"id": 81}` for `{"item": 81}`).
    pub stands_for: Option<String>,
}

/// The validation error for unknown keys: each named with the accepted keys of its object and
/// the closest of them.
pub(super) fn unknown_error(unknown: &[Unknown], root: &Value) -> ToolError {
    let paths: Vec<&str> = unknown.iter().map(|u| u.path.as_str()).collect();
    let described: Vec<String> = unknown
        .iter()
        .map(|u| {
            if !u.wraps.is_empty() {
                return format!(
                    "`{}` (its keys {} are arguments themselves: send them without `{}`)",
                    u.path,
                    u.wraps.join(", "),
                    u.key
                );
            }
            let closest = match &u.stands_for {
                Some(key) => vec![key.as_str()],
                None => closest_names(
                    &u.key,
                    u.accepted.iter().map(|k| (fold_name(k), k.as_str())),
                    1,
                ),
            };
            match closest.first() {
                Some(c) => format!("`{}` (did you mean `{c}`?)", u.path),
                None => format!("`{}`", u.path),
            }
        })
        .collect();
    let first = &unknown[0];
    let accepted = if first.accepted.is_empty() {
        "none".to_string()
    } else {
        first.accepted.join(", ")
    };
    let where_ = match first.path.rsplit_once('.') {
        Some((parent, _)) => format!(" in `{parent}`"),
        None if first.path.contains('[') => {
            format!(" in `{}`", first.path.rsplit_once('[').map_or("", |p| p.0))
        }
        None => String::new(),
    };
    ToolError::validation(format!(
        "unknown argument(s) {}: nothing was done; accepted keys{where_}: {accepted}",
        described.join(", ")
    ))
    .with_detail("unknown", &paths)
    .with_detail("allowed", top_keys(root))
    .with_hint("send only the accepted keys, as the tool's input schema names them")
}

/// The top-level keys the schema defines.
fn top_keys(root: &Value) -> Vec<String> {
    variants(root, root)
        .iter()
        .filter_map(|n| n.get("properties").and_then(Value::as_object))
        .flat_map(|p| p.keys().cloned())
        .collect()
}

/// Reads `"7"` as 7 and `"true"` as true where the schema asks for an integer, a number or a
/// boolean and none of its alternatives takes a string (models often quote them).
pub(super) fn coerce_quoted(v: &mut Value, node: &Value, root: &Value) {
    let vs = variants(node, root);
    match v {
        Value::String(s) => {
            let takes = |t: &str| vs.iter().any(|n| has_type(n, t));
            if takes("string")
                || vs
                    .iter()
                    .any(|n| n.get("enum").is_some() || n.get("const").is_some())
            {
                return;
            }
            let s = s.trim();
            if takes("integer") {
                if let Ok(n) = s.parse::<u64>() {
                    *v = Value::from(n);
                } else if let Ok(n) = s.parse::<i64>() {
                    *v = Value::from(n);
                }
            } else if takes("number") {
                if let Some(n) = s.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
                    *v = Value::Number(n);
                }
            } else if takes("boolean") {
                match s {
                    "true" => *v = Value::Bool(true),
                    "false" => *v = Value::Bool(false),
                    _ => {}
                }
            }
        }
        Value::Object(map) => {
            let props: Vec<&serde_json::Map<String, Value>> = vs
                .iter()
                .filter_map(|n| n.get("properties").and_then(Value::as_object))
                .collect();
            for (k, item) in map.iter_mut() {
                if let Some(sub) = props.iter().find_map(|p| p.get(k)) {
                    coerce_quoted(item, sub, root);
                }
            }
        }
        Value::Array(items) => {
            if let Some(sub) = vs.iter().find_map(|n| n.get("items")) {
                for item in items {
                    coerce_quoted(item, sub, root);
                }
            }
        }
        _ => {}
    }
}

/// Whether a schema node admits JSON type `t`.
fn has_type(node: &Value, t: &str) -> bool {
    match node.get("type") {
        Some(Value::String(s)) => s == t,
        Some(Value::Array(ts)) => ts.iter().any(|x| x == t),
        _ => false,
    }
}

/// `parent.key`, or `key` at the top.
pub(super) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Follows a local `$ref` ("#/$defs/Name") to its definition (a few hops at most).
fn resolve<'a>(mut node: &'a Value, root: &'a Value) -> &'a Value {
    for _ in 0..8 {
        let Some(target) = node.get("$ref").and_then(Value::as_str) else {
            break;
        };
        match target
            .strip_prefix("#/")
            .and_then(|p| root.pointer(&format!("/{p}")))
        {
            Some(next) => node = next,
            None => break,
        }
    }
    node
}

/// The schema and its alternatives (`anyOf`, `oneOf`, `allOf`), resolved.
fn variants<'a>(node: &'a Value, root: &'a Value) -> Vec<&'a Value> {
    let node = resolve(node, root);
    let mut out = vec![node];
    for k in ["anyOf", "oneOf", "allOf"] {
        if let Some(list) = node.get(k).and_then(Value::as_array) {
            out.extend(list.iter().map(|v| resolve(v, root)));
        }
    }
    out
}

/// Collects the keys the schema does not define, at every depth, each with the keys its object
/// accepts.
pub(super) fn unknown_keys(
    v: &Value,
    node: &Value,
    root: &Value,
    path: &str,
    out: &mut Vec<Unknown>,
) {
    if out.len() >= MAX_UNKNOWN_LISTED {
        return;
    }
    let vs = variants(node, root);
    match v {
        Value::Object(map) => {
            let objects: Vec<&&Value> = vs.iter().filter(|n| is_object_schema(n)).collect();
            let open = objects.iter().any(|n| {
                n.get("additionalProperties")
                    .is_some_and(|a| a != &Value::Bool(false))
            });
            if objects.is_empty() || open {
                return;
            }
            let props: Vec<&serde_json::Map<String, Value>> = objects
                .iter()
                .filter_map(|n| n.get("properties").and_then(Value::as_object))
                .collect();
            let known = |k: &String| props.iter().any(|p| p.contains_key(k));
            // Only for an object that has an unknown key: the one required key it lacks.
            let stands_for = || {
                let missing: Vec<&str> = objects
                    .iter()
                    .filter_map(|n| n.get("required").and_then(Value::as_array))
                    .flatten()
                    .filter_map(Value::as_str)
                    .filter(|r| !map.contains_key(*r))
                    .collect();
                (missing.len() == 1 && map.keys().filter(|k| !known(k)).count() == 1)
                    .then(|| missing[0].to_string())
            };
            for (k, item) in map {
                match props.iter().find_map(|p| p.get(k)) {
                    Some(sub) => unknown_keys(item, sub, root, &join(path, k), out),
                    None if out.len() < MAX_UNKNOWN_LISTED => {
                        let accepted: Vec<String> =
                            props.iter().flat_map(|p| p.keys().cloned()).collect();
                        let wraps = match item {
                            Value::Object(inner)
                                if !inner.is_empty()
                                    && inner.keys().all(|ik| accepted.contains(ik)) =>
                            {
                                inner.keys().cloned().collect()
                            }
                            _ => Vec::new(),
                        };
                        out.push(Unknown {
                            path: join(path, k),
                            key: k.clone(),
                            accepted,
                            wraps,
                            stands_for: stands_for(),
                        })
                    }
                    None => return,
                }
            }
        }
        Value::Array(items) => {
            if let Some(sub) = vs.iter().find_map(|n| n.get("items")) {
                for (i, item) in items.iter().enumerate() {
                    unknown_keys(item, sub, root, &format!("{path}[{i}]"), out);
                }
            }
        }
        _ => {}
    }
}

/// Whether a schema describes an object (so that its keys are known: possibly none).
fn is_object_schema(node: &Value) -> bool {
    let typed = match node.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        _ => false,
    };
    typed || node.get("properties").is_some()
}
