//! Tool arguments: a wrapper that turns malformed arguments into our `VALIDATION_ERROR` (instead of
//! the SDK's generic message), reads quoted numbers and booleans where the schema is unambiguous,
//! and in strict mode (the default) rejects keys the tool does not define.

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::arg_schema::{self, join};
use crate::error::ToolError;

/// Arguments of type `T`, parsed lazily so that failures become typed tool errors.
#[derive(Debug)]
pub(crate) struct Args<T> {
    raw: Value,
    _marker: PhantomData<T>,
}

impl<'de, T> Deserialize<'de> for Args<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Self {
            raw: Value::deserialize(d)?,
            _marker: PhantomData,
        })
    }
}

impl<T: JsonSchema> JsonSchema for Args<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

impl<T: DeserializeOwned + JsonSchema + 'static> Args<T> {
    /// Parses the arguments after checking them against the input limits (before any other work
    /// on them); in strict mode unknown keys at any depth are an error.
    pub(crate) fn parse(self, strict: bool) -> Result<T, ToolError> {
        let raw = match self.raw {
            Value::Null => Value::Object(Default::default()),
            v => v,
        };
        if !raw.is_object() {
            return Err(ToolError::validation("arguments must be a JSON object")
                .with_hint("pass the tool's arguments as an object"));
        }
        check_limits(&raw, "", None, 0)?;
        let mut raw = raw;
        let schema = arg_schema::schema_of::<T>();
        let root = &*schema;
        arg_schema::coerce_quoted(&mut raw, root, root);
        if strict {
            let mut unknown = Vec::new();
            arg_schema::unknown_keys(&raw, root, root, "", &mut unknown);
            if !unknown.is_empty() {
                return Err(arg_schema::unknown_error(&unknown, root));
            }
        }
        serde_json::from_value(raw).map_err(|e| {
            ToolError::validation(format!("invalid arguments: {}", shown(&e.to_string())))
                .with_hint("check the tool's input schema")
        })
    }
}

/// Longest string accepted in any argument, in bytes (the longest legitimate one, a page cursor,
/// is under 200).
pub(crate) const MAX_STRING_BYTES: usize = 512;
/// Longest name or query (item, beast, player name, lookup query, filters), in characters.
pub(crate) const MAX_NAME_CHARS: usize = 64;
/// Most entries in any array argument (tools take at most 8 items).
pub(crate) const MAX_ARRAY_LEN: usize = 32;
/// Most keys in any object argument.
pub(crate) const MAX_OBJECT_KEYS: usize = 64;
/// Deepest nesting of objects and arrays in the arguments.
pub(crate) const MAX_DEPTH: usize = 6;

/// Argument keys whose strings are names or queries, capped at [`MAX_NAME_CHARS`].
const NAME_KEYS: &[&str] = &[
    "query",
    "player_name",
    "weapon",
    "item",
    "items",
    "equip",
    "beast",
    "type",
    "slot",
    "tier",
];

fn too_big(field: &str, what: String, limit: usize) -> ToolError {
    let field = if field.is_empty() { "arguments" } else { field };
    ToolError::validation(format!("{field}: {what}"))
        .with_detail("field", field)
        .with_detail("limit", limit)
}

/// Checks sizes in one pass that stops at the first excess: strings, arrays, keys, depth.
fn check_limits(v: &Value, path: &str, key: Option<&str>, depth: usize) -> Result<(), ToolError> {
    if depth > MAX_DEPTH {
        return Err(too_big(
            path,
            format!("nested deeper than {MAX_DEPTH} levels"),
            MAX_DEPTH,
        ));
    }
    match v {
        Value::String(s) => {
            if s.len() > MAX_STRING_BYTES {
                return Err(too_big(
                    path,
                    format!("{} bytes, at most {MAX_STRING_BYTES}", s.len()),
                    MAX_STRING_BYTES,
                ));
            }
            if key.is_some_and(|k| NAME_KEYS.contains(&k)) {
                let chars = s.chars().count();
                if chars > MAX_NAME_CHARS {
                    return Err(too_big(
                        path,
                        format!("a name of {chars} characters, at most {MAX_NAME_CHARS}"),
                        MAX_NAME_CHARS,
                    ));
                }
            }
        }
        Value::Array(items) => {
            if items.len() > MAX_ARRAY_LEN {
                return Err(too_big(
                    path,
                    format!("{} entries, at most {MAX_ARRAY_LEN}", items.len()),
                    MAX_ARRAY_LEN,
                ));
            }
            for (i, item) in items.iter().enumerate() {
                check_limits(item, &format!("{path}[{i}]"), key, depth + 1)?;
            }
        }
        Value::Object(map) => {
            if map.len() > MAX_OBJECT_KEYS {
                return Err(too_big(
                    path,
                    format!("{} keys, at most {MAX_OBJECT_KEYS}", map.len()),
                    MAX_OBJECT_KEYS,
                ));
            }
            for (k, item) in map {
                if k.len() > MAX_STRING_BYTES {
                    return Err(too_big(
                        path,
                        format!("a key of {} bytes, at most {MAX_STRING_BYTES}", k.len()),
                        MAX_STRING_BYTES,
                    ));
                }
                check_limits(item, &join(path, k), Some(k), depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// A user-supplied string cut to a length fit for an error message.
pub(crate) fn shown(s: &str) -> String {
    const MAX: usize = 48;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// Checks that an integer argument fits the Cairo type it is sent as.
pub(crate) fn in_range(name: &str, value: u64, min: u64, max: u64) -> Result<(), ToolError> {
    if value < min || value > max {
        return Err(ToolError::validation(format!(
            "{name} must be between {min} and {max}, got {value}"
        ))
        .with_detail("field", name));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, Deserialize, JsonSchema, PartialEq)]
    struct Sample {
        adventurer_id: game::AdventurerId,
        #[serde(default)]
        till_beast: bool,
    }

    fn args(v: Value) -> Args<Sample> {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn parses_valid_arguments() {
        let s = args(serde_json::json!({"adventurer_id": 7}))
            .parse(true)
            .unwrap();
        assert_eq!(
            s,
            Sample {
                adventurer_id: game::AdventurerId::from(7u64),
                till_beast: false
            }
        );
    }

    #[test]
    fn negative_and_oversized_ids_are_validation_errors() {
        for bad in [
            "-1",
            "18446744073709551616",
            "1.5",
            "\"-7\"",
            "\"1.5\"",
            "null",
        ] {
            let v: Value = serde_json::from_str(&format!("{{\"adventurer_id\": {bad}}}")).unwrap();
            let e = args(v).parse(false).unwrap_err();
            assert_eq!(e.code, crate::error::ErrorCode::ValidationError, "{bad}");
        }
    }

    #[test]
    fn strict_mode_rejects_unknown_keys_and_lax_mode_ignores_them() {
        let v = serde_json::json!({"adventurer_id": 1, "tilbeast": true});
        let e = args(v.clone()).parse(true).unwrap_err();
        assert!(e.message.contains("tilbeast"), "{}", e.message);
        assert!(args(v).parse(false).is_ok());
    }

    #[test]
    fn quoted_numbers_and_booleans_are_read_where_the_schema_is_unambiguous() {
        let s = args(serde_json::json!({"adventurer_id": "7", "till_beast": "true"}))
            .parse(true)
            .unwrap();
        assert_eq!(
            s,
            Sample {
                adventurer_id: game::AdventurerId::from(7u64),
                till_beast: true
            }
        );
        for bad in [
            json!({"adventurer_id": "seven"}),
            json!({"adventurer_id": 1, "till_beast": "yes"}),
        ] {
            assert!(args(bad).parse(true).is_err());
        }
        // A string alternative keeps the string: `item` may be a name.
        let o = outer(json!({"items": [{"item": "12", "equip": "false"}]})).unwrap();
        assert_eq!((o.items[0].item.as_str(), o.items[0].equip), ("12", false));
    }

    #[test]
    fn unknown_keys_name_the_accepted_keys_and_the_closest() {
        let e = args(json!({"adventurer_id": 1, "till_beats": true}))
            .parse(true)
            .unwrap_err();
        assert!(
            e.message.contains("did you mean `till_beast`"),
            "{}",
            e.message
        );
        assert!(
            e.message
                .contains("accepted keys: adventurer_id, till_beast"),
            "{}",
            e.message
        );
        let e = outer(json!({"items": [{"id": 81, "equip": true}]})).unwrap_err();
        assert!(
            e.message.contains("`items[0].id`") && e.message.contains("in `items[0]`: equip, item"),
            "{}",
            e.message
        );
    }

    #[test]
    fn non_object_arguments_are_rejected() {
        let e = args(serde_json::json!([1, 2])).parse(false).unwrap_err();
        assert!(e.message.contains("object"));
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Inner {
        item: String,
        #[serde(default)]
        equip: bool,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Outer {
        #[serde(default)]
        items: Vec<Inner>,
        #[serde(default)]
        first: Option<Inner>,
        #[serde(flatten)]
        opts: Flat,
    }

    #[derive(Debug, Default, Deserialize, JsonSchema)]
    struct Flat {
        #[serde(default)]
        timeout_ms: Option<u64>,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Empty {}

    fn outer(v: Value) -> Result<Outer, ToolError> {
        serde_json::from_value::<Args<Outer>>(v)
            .unwrap()
            .parse(true)
    }

    #[test]
    fn strict_mode_rejects_unknown_keys_at_every_depth() {
        let ok = outer(serde_json::json!({
            "items": [{"item": "wand", "equip": true}], "first": {"item": "x"}, "timeout_ms": 5
        }))
        .unwrap();
        assert_eq!(
            (ok.items[0].item.as_str(), ok.items[0].equip),
            ("wand", true)
        );
        assert_eq!(ok.first.map(|f| f.item), Some("x".to_string()));
        assert_eq!(ok.opts.timeout_ms, Some(5));
        let e = outer(serde_json::json!({"items": [{"item": "wand"}, {"item": "a", "qty": 2}]}))
            .unwrap_err();
        assert_eq!(e.details["unknown"], serde_json::json!(["items[1].qty"]));
        let e =
            outer(serde_json::json!({"first": {"item": "x", "level": 3}, "extra": 1})).unwrap_err();
        assert_eq!(
            e.details["unknown"],
            serde_json::json!(["extra", "first.level"])
        );
        let none = serde_json::from_value::<Args<Empty>>(serde_json::json!({"x": 1}))
            .unwrap()
            .parse(true)
            .unwrap_err();
        assert_eq!(none.details["unknown"], serde_json::json!(["x"]));
        let lax = serde_json::from_value::<Args<Outer>>(
            serde_json::json!({"items": [{"item": "a", "qty": 2}]}),
        )
        .unwrap()
        .parse(false);
        assert!(lax.is_ok());
    }

    #[test]
    fn oversized_arguments_are_refused_without_echoing_them() {
        let long = "k".repeat(1_000_000);
        for (v, field) in [
            (
                serde_json::json!({"items": [{"item": long}]}),
                "items[0].item",
            ),
            (
                serde_json::json!({"first": {"item": "x".repeat(65)}}),
                "first.item",
            ),
            (
                serde_json::json!({"items": vec![serde_json::json!({"item": "a"}); 10_000]}),
                "items",
            ),
            (serde_json::json!({"other": long}), "other"),
        ] {
            let e = outer(v).unwrap_err();
            assert_eq!(e.details["field"], field, "{}", e.message);
            assert!(
                e.message.len() < 200 && !e.message.contains("kkkk"),
                "{}",
                e.message
            );
        }
        let mut deep = serde_json::json!(1);
        for _ in 0..200 {
            deep = serde_json::json!([deep]);
        }
        let e = outer(serde_json::json!({"items": deep})).unwrap_err();
        assert!(e.message.contains("nested deeper"), "{}", e.message);
        let wide: serde_json::Map<String, Value> =
            (0..100).map(|i| (format!("k{i}"), Value::Null)).collect();
        assert!(outer(Value::Object(wide)).is_err());
        assert!(outer(serde_json::json!({"first": {"item": "x".repeat(64)}})).is_ok());
    }

    #[test]
    fn range_checks_name_the_field() {
        let e = in_range("weapon", 300, 0, 255).unwrap_err();
        assert!(e.message.contains("weapon") && e.message.contains("300"));
        assert!(in_range("weapon", 255, 0, 255).is_ok());
    }
}
