//! Text from an indexer's answer made safe to show: control characters (a terminal's escape
//! codes, line breaks inside a name) removed from every string before a table or a model sees it.

use serde_json::Value;

/// Removes control characters from every string (keys included) in `v`.
pub(crate) fn strip_controls(v: &mut Value) {
    match v {
        Value::String(s) => strip(s),
        Value::Array(items) => items.iter_mut().for_each(strip_controls),
        Value::Object(map) => {
            if map.keys().any(|k| k.chars().any(char::is_control)) {
                let clean = std::mem::take(map)
                    .into_iter()
                    .map(|(mut k, v)| {
                        strip(&mut k);
                        (k, v)
                    })
                    .collect();
                *map = clean;
            }
            map.values_mut().for_each(strip_controls);
        }
        _ => {}
    }
}

fn strip(s: &mut String) {
    if s.chars().any(char::is_control) {
        s.retain(|c| !c.is_control());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escape_codes_and_line_breaks_are_removed_everywhere() {
        let mut v =
            json!({"player_name": "Ada\u{1b}[2J\nLovelace", "rows": [{"k\u{7}": "x\ty"}], "n": 3});
        strip_controls(&mut v);
        assert_eq!(
            v,
            json!({"player_name": "Ada[2JLovelace", "rows": [{"k": "xy"}], "n": 3})
        );
    }
}
