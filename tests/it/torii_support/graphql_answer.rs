//! The stand-in's GraphQL answers: the model root `<short ns>AdventurerPackedModels` read from the
//! same SQLite tables, with Torii's arguments, cursors, `pageInfo`, `totalCount` and errors.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};
use starknet_types_core::felt::Felt;

use super::graphql::{self, Field, GValue};
use super::{State, pad_felt};

fn gql_error(message: String) -> Value {
    json!({"data": null, "errors": [{"message": message, "locations": [{"line": 1, "column": 1}]}]})
}

pub(super) fn run_graphql(s: &State, query: &str) -> Value {
    let fields = match graphql::parse(query) {
        Ok(f) => f,
        Err(e) => return gql_error(format!("Parse error: {e}")),
    };
    let mut data = Map::new();
    for f in &fields {
        let v = if f.name == "__typename" {
            Ok(json!("World__Query"))
        } else if f.name == format!("{}AdventurerPackedModels", s.short_ns) {
            packed_models(s, f)
        } else {
            Err(format!(
                "Unknown field \"{}\" on type \"World__Query\".",
                f.name
            ))
        };
        match v {
            Ok(v) => {
                data.insert(f.key().to_string(), v);
            }
            Err(e) => return gql_error(e),
        }
    }
    json!({"data": data})
}

/// One row of a model table, with the values the connection needs.
struct Row {
    entity: String,
    event_id: String,
    fields: Vec<(&'static str, Felt)>,
}

impl Row {
    fn get(&self, name: &str) -> Option<Felt> {
        self.fields
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }
}

const PACKED_FIELDS: &[&str] = &["adventurer_id", "packed"];
const OPS: &[&str] = &[
    "NEQ", "GTE", "LTE", "NOTIN", "NOTLIKE", "EQ", "GT", "LT", "IN", "LIKE",
];

fn to_felt(v: &GValue) -> Result<Felt, String> {
    match v {
        GValue::Int(i) if *i >= 0 => Ok(Felt::from(*i as u64)),
        GValue::Str(s) if s.starts_with("0x") => {
            Felt::from_hex(s).map_err(|_| format!("Invalid value \"{s}\""))
        }
        GValue::Str(s) => Felt::from_dec_str(s).map_err(|_| format!("Invalid value \"{s}\"")),
        other => Err(format!("Invalid value {other:?}")),
    }
}

fn matches(row: &Row, key: &str, value: &GValue) -> Result<bool, String> {
    let (field, op) = PACKED_FIELDS
        .iter()
        .find_map(|f| {
            let rest = key.strip_prefix(f)?;
            if rest.is_empty() {
                Some((*f, "EQ"))
            } else {
                OPS.iter().find(|o| **o == rest).map(|o| (*f, *o))
            }
        })
        .ok_or_else(|| {
            format!(
                "Unknown field \"{key}\" of input type \"ls_0_0_9_AdventurerPackedWhereInput\"."
            )
        })?;
    let actual = row.get(field).expect("field");
    let list = |v: &GValue| -> Result<Vec<Felt>, String> {
        match v {
            GValue::List(items) => items.iter().map(to_felt).collect(),
            other => Ok(vec![to_felt(other)?]),
        }
    };
    Ok(match op {
        "EQ" => actual == to_felt(value)?,
        "NEQ" => actual != to_felt(value)?,
        "GT" => actual > to_felt(value)?,
        "GTE" => actual >= to_felt(value)?,
        "LT" => actual < to_felt(value)?,
        "LTE" => actual <= to_felt(value)?,
        "IN" => list(value)?.contains(&actual),
        "NOTIN" => !list(value)?.contains(&actual),
        _ => return Err(format!("{op} is not supported on numeric fields")),
    })
}

fn encode_cursor(primary: &str, secondary: &str) -> String {
    STANDARD.encode(format!("cursor/{primary}/{secondary}"))
}

fn decode_cursor(c: &str) -> Result<(String, String), String> {
    let bytes = STANDARD
        .decode(c)
        .map_err(|_| "Invalid cursor".to_string())?;
    let text = String::from_utf8(bytes).map_err(|_| "Invalid cursor".to_string())?;
    let rest = text.strip_prefix("cursor/").ok_or("Invalid cursor")?;
    let (p, s) = rest.split_once('/').ok_or("Invalid cursor")?;
    Ok((p.to_string(), s.to_string()))
}

fn int_arg(f: &Field, name: &str) -> Result<Option<usize>, String> {
    match f.arg(name) {
        None | Some(GValue::Null) => Ok(None),
        Some(GValue::Int(i)) if *i >= 0 => Ok(Some(*i as usize)),
        Some(other) => Err(format!("Invalid value for argument \"{name}\": {other:?}")),
    }
}

fn str_arg(f: &Field, name: &str) -> Result<Option<String>, String> {
    match f.arg(name) {
        None | Some(GValue::Null) => Ok(None),
        Some(GValue::Str(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("Invalid value for argument \"{name}\": {other:?}")),
    }
}

fn packed_models(s: &State, f: &Field) -> Result<Value, String> {
    const ARGS: &[&str] = &[
        "first", "last", "before", "after", "offset", "limit", "where", "order",
    ];
    for (name, _) in &f.args {
        if !ARGS.contains(&name.as_str()) {
            return Err(format!(
                "Unknown argument \"{name}\" on field \"{}\".",
                f.name
            ));
        }
    }
    let first = int_arg(f, "first")?;
    let last = int_arg(f, "last")?;
    let after = str_arg(f, "after")?;
    let before = str_arg(f, "before")?;
    let offset = int_arg(f, "offset")?;
    let limit = int_arg(f, "limit")?;
    if first.is_some() && last.is_some() {
        return Err("Passing both `first` and `last` is not supported.".into());
    }
    if after.is_some() && before.is_some() {
        return Err("Passing both `after` and `before` is not supported.".into());
    }
    let cursors = first.is_some() || last.is_some() || after.is_some() || before.is_some();
    if cursors && (offset.is_some() || limit.is_some()) {
        return Err("Pagination error: offset/limit cannot be mixed with cursor arguments".into());
    }
    let mut rows: Vec<Row> = {
        let db = s.db.lock().unwrap();
        let mut stmt = db
            .prepare(&format!(
                r#"SELECT internal_id, internal_event_id, adventurer_id, packed FROM "{}-AdventurerPacked""#,
                s.namespace
            ))
            .map_err(|e| e.to_string())?;
        stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
            ))
        })
        .map_err(|e| e.to_string())?
        .map(|r| {
            let (entity, event_id, id, packed) = r.map_err(|e| e.to_string())?;
            Ok(Row {
                entity,
                event_id,
                fields: vec![
                    (
                        "adventurer_id",
                        Felt::from_hex(&id).map_err(|e| e.to_string())?,
                    ),
                    (
                        "packed",
                        Felt::from_hex(&packed).map_err(|e| e.to_string())?,
                    ),
                ],
            })
        })
        .collect::<Result<_, String>>()?
    };
    if let Some(w) = f.arg("where") {
        let GValue::Object(conds) = w else {
            return Err("Invalid value for argument \"where\"".into());
        };
        let mut kept = Vec::new();
        for row in rows {
            let mut ok = true;
            for (k, v) in conds {
                ok &= matches(&row, k, v)?;
            }
            if ok {
                kept.push(row);
            }
        }
        rows = kept;
    }
    // Ordering: by event id (newest first) unless `order` names a field; the entity id breaks ties.
    let (order_field, desc) = match f.arg("order") {
        None | Some(GValue::Null) => (None, true),
        Some(GValue::Object(o)) => {
            let get = |k: &str| o.iter().find(|(n, _)| n == k).map(|(_, v)| v);
            let desc = match get("direction") {
                Some(GValue::Enum(d)) if d == "DESC" => true,
                Some(GValue::Enum(d)) if d == "ASC" => false,
                other => return Err(format!("Invalid order direction {other:?}")),
            };
            let field = match get("field") {
                Some(GValue::Enum(fld)) if fld == "ADVENTURER_ID" => "adventurer_id",
                Some(GValue::Enum(fld)) if fld == "PACKED" => "packed",
                other => return Err(format!("Invalid order field {other:?}")),
            };
            (Some(field), desc)
        }
        Some(_) => return Err("Invalid value for argument \"order\"".into()),
    };
    let primary = |r: &Row| -> String {
        match order_field {
            Some(fld) => pad_felt(r.get(fld).unwrap()),
            None => r.event_id.clone(),
        }
    };
    rows.sort_by(|a, b| {
        let ka = (primary(a), a.entity.clone());
        let kb = (primary(b), b.entity.clone());
        if desc { kb.cmp(&ka) } else { ka.cmp(&kb) }
    });
    let total = rows.len();
    let keyed: Vec<(String, String)> = rows
        .iter()
        .map(|r| (primary(r), r.entity.clone()))
        .collect();
    let in_order = |a: &(String, String), b: &(String, String)| if desc { a > b } else { a < b };
    let mut start = 0;
    let mut end = rows.len();
    if let Some(c) = &after {
        let k = decode_cursor(c)?;
        start = keyed
            .iter()
            .position(|x| in_order(&k, x))
            .unwrap_or(rows.len());
    }
    if let Some(c) = &before {
        let k = decode_cursor(c)?;
        end = keyed
            .iter()
            .position(|x| !in_order(x, &k))
            .unwrap_or(rows.len());
    }
    if cursors {
        match (first, last) {
            (Some(n), _) => end = end.min(start + n),
            (_, Some(n)) => start = start.max(end.saturating_sub(n)),
            _ => end = end.min(start + 10),
        }
    } else {
        start = offset.unwrap_or(0).min(rows.len());
        end = (start + limit.unwrap_or(10)).min(rows.len());
    }
    let end = end.max(start);
    let page: Vec<usize> = (start..end).collect();
    let mut conn = Map::new();
    for sel in &f.selection {
        let v = match sel.name.as_str() {
            "totalCount" => json!(total),
            "__typename" => json!("ls_0_0_9_AdventurerPackedConnection"),
            "edges" => {
                let mut edges = Vec::new();
                for &i in &page {
                    let mut e = Map::new();
                    for es in &sel.selection {
                        let v = match es.name.as_str() {
                            "cursor" => json!(encode_cursor(&keyed[i].0, &keyed[i].1)),
                            "node" => node(&rows[i], es)?,
                            other => {
                                return Err(format!(
                                    "Unknown field \"{other}\" on type \"ls_0_0_9_AdventurerPackedEdge\"."
                                ));
                            }
                        };
                        e.insert(es.key().to_string(), v);
                    }
                    edges.push(Value::Object(e));
                }
                Value::Array(edges)
            }
            "pageInfo" => {
                let mut p = Map::new();
                for ps in &sel.selection {
                    let v = match ps.name.as_str() {
                        "hasNextPage" => json!(end < rows.len()),
                        "hasPreviousPage" => json!(start > 0),
                        "startCursor" => page
                            .first()
                            .map(|&i| json!(encode_cursor(&keyed[i].0, &keyed[i].1)))
                            .unwrap_or(Value::Null),
                        "endCursor" => page
                            .last()
                            .map(|&i| json!(encode_cursor(&keyed[i].0, &keyed[i].1)))
                            .unwrap_or(Value::Null),
                        other => {
                            return Err(format!(
                                "Unknown field \"{other}\" on type \"World__PageInfo\"."
                            ));
                        }
                    };
                    p.insert(ps.key().to_string(), v);
                }
                Value::Object(p)
            }
            other => {
                return Err(format!(
                    "Unknown field \"{other}\" on type \"ls_0_0_9_AdventurerPackedConnection\"."
                ));
            }
        };
        conn.insert(sel.key().to_string(), v);
    }
    Ok(Value::Object(conn))
}

fn node(row: &Row, f: &Field) -> Result<Value, String> {
    let mut m = Map::new();
    for sel in &f.selection {
        let v = match sel.name.as_str() {
            "__typename" => json!("ls_0_0_9_AdventurerPacked"),
            name if PACKED_FIELDS.contains(&name) => {
                json!(format!("{:#x}", row.get(name).unwrap()))
            }
            other => {
                return Err(format!(
                    "Unknown field \"{other}\" on type \"ls_0_0_9_AdventurerPacked\"."
                ));
            }
        };
        m.insert(sel.key().to_string(), v);
    }
    Ok(Value::Object(m))
}
