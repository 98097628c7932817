//! Tool arguments: a wrapper that turns malformed arguments into our `VALIDATION_ERROR` (instead of
//! the SDK's generic message) and, in strict mode, rejects keys the tool does not define.

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::error::ToolError;

/// Arguments of type `T`, parsed lazily so that failures become typed tool errors.
#[derive(Debug)]
pub struct Args<T> {
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

impl<T: DeserializeOwned + JsonSchema> Args<T> {
    /// Parses the arguments; in strict mode unknown keys are an error.
    pub fn parse(self, strict: bool) -> Result<T, ToolError> {
        let raw = match self.raw {
            Value::Null => Value::Object(Default::default()),
            v => v,
        };
        let Value::Object(map) = &raw else {
            return Err(ToolError::validation("arguments must be a JSON object"));
        };
        if strict {
            let known = known_keys::<T>();
            let unknown: Vec<&String> = map.keys().filter(|k| !known.contains(k)).collect();
            if !unknown.is_empty() {
                return Err(ToolError::validation(format!(
                    "unknown argument(s): {}",
                    unknown
                        .iter()
                        .map(|k| k.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .with_detail("unknown", &unknown)
                .with_detail("allowed", &known)
                .with_hint("remove the unknown keys (strict mode is on)"));
            }
        }
        serde_json::from_value(raw).map_err(|e| {
            ToolError::validation(format!("invalid arguments: {e}"))
                .with_hint("check the tool's input schema")
        })
    }
}

fn known_keys<T: JsonSchema>() -> Vec<String> {
    let schema = schemars::schema_for!(T);
    schema
        .as_object()
        .and_then(|o| o.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

/// Checks that an integer argument fits the Cairo type it is sent as.
pub fn in_range(name: &str, value: u64, min: u64, max: u64) -> Result<(), ToolError> {
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

    #[derive(Debug, Deserialize, JsonSchema, PartialEq)]
    struct Sample {
        adventurer_id: u64,
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
                adventurer_id: 7,
                till_beast: false
            }
        );
    }

    #[test]
    fn negative_and_oversized_ids_are_validation_errors() {
        for bad in ["-1", "18446744073709551616", "1.5", "\"7\"", "null"] {
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
    fn non_object_arguments_are_rejected() {
        let e = args(serde_json::json!([1, 2])).parse(false).unwrap_err();
        assert!(e.message.contains("object"));
    }

    #[test]
    fn range_checks_name_the_field() {
        let e = in_range("weapon", 300, 0, 255).unwrap_err();
        assert!(e.message.contains("weapon") && e.message.contains("300"));
        assert!(in_range("weapon", 255, 0, 255).is_ok());
    }
}
