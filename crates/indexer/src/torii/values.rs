//! Torii's value encodings, read tolerantly: integers arrive as JSON numbers (small types) or as
//! hex strings with or without leading zeros (u64, u128, felt252, addresses: `"0x5"` in GraphQL,
//! `"0x0000000000000005"` in SQL), booleans as JSON booleans or 0/1; they are compared as numbers,
//! never as strings. Also the padded forms Torii's SQL tables store, used to build queries.

use serde_json::Value;
use starknet_types_core::felt::Felt;

/// Reads a felt from a JSON number, a `0x` hex string (any padding) or a decimal string.
pub fn felt(v: &Value) -> Option<Felt> {
    match v {
        Value::Number(n) => n.as_u64().map(Felt::from),
        Value::String(s) => {
            let s = s.trim();
            if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                let digits = hex.trim_start_matches('0');
                if hex.is_empty()
                    || digits.len() > 64
                    || !hex.chars().all(|c| c.is_ascii_hexdigit())
                {
                    return None;
                }
                Felt::from_hex(s).ok()
            } else if !s.is_empty() && s.len() <= 78 && s.chars().all(|c| c.is_ascii_digit()) {
                Felt::from_dec_str(s).ok()
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Reads an integer that must fit in a u64.
pub fn u64_of(v: &Value) -> Option<u64> {
    felt(v).and_then(|f| u64::try_from(f).ok())
}

/// Reads a boolean from `true`/`false`, 0/1 (number or string) or `"true"`/`"false"`.
pub fn bool_of(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        other => match u64_of(other)? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        },
    }
}

/// A u64 as Torii's SQL tables store it: `0x` and 16 hex digits.
pub fn pad_u64(v: u64) -> String {
    format!("0x{v:016x}")
}

/// A felt or address as Torii's SQL model columns store it (`0x` and 64 hex digits), and the
/// form every query compares against after normalising the stored text with [`num_key`].
pub fn pad_felt(f: Felt) -> String {
    format!("0x{}", hex64(f))
}

/// Every way Torii has written one felt of an entity's `keys` and of an id such as `model_id`
/// (without the trailing `/`), each built digit by digit so that no crate's formatting decides it:
/// - unpadded, `0x1ef`: `{:#x}` up to v1.7.3 (dojoengine/torii v1.7.3,
///   crates/sqlite/sqlite/src/utils.rs `felt_to_sql_string`);
/// - `0x` and 64 digits: `{:#064x}` from v1.7.4 through v1.8.16 (same file; commit "padded SQL
///   felt", #315), all built with starknet-types-core 0.2.0, whose `LowerHex` reads the width as
///   a count of digits after `0x`, capped at 64 (starknet-io/types-rs core-v0.2.0,
///   crates/starknet-types-core/src/felt/alloc_impls.rs); the game's own client pads keys the
///   same way (`addAddressPadding`);
/// - `0x` and 62 digits (more when the felt needs them): the same format under
///   starknet-types-core 0.2.1 and later, where the width counts the `0x` (`pad_integral`), for a
///   Torii built against those.
///
/// Duplicates are dropped (a felt of 63 or 64 digits has fewer distinct forms).
pub fn felt_forms(f: Felt) -> Vec<String> {
    let full = hex64(f);
    let digits = match full.trim_start_matches('0') {
        "" => "0",
        d => d,
    };
    let mut forms = vec![format!("0x{digits}")];
    for width in [62usize, 64] {
        let padded = format!(
            "0x{}{digits}",
            "0".repeat(width.saturating_sub(digits.len()))
        );
        if !forms.contains(&padded) {
            forms.push(padded);
        }
    }
    forms
}

/// [`felt_forms`] as a SQL list of string literals, each followed by `suffix` (`/` for `keys`).
pub fn sql_forms(f: Felt, suffix: &str) -> String {
    felt_forms(f)
        .iter()
        .map(|form| format!("'{form}{suffix}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A SQL expression turning a `0x` hex text column of any width into `0x` and 64 digits (the
/// [`pad_felt`] form), so numbers
/// written by different Torii versions (u64 as 16 or 64 digits, felts padded or not) compare and
/// sort as numbers. Torii writes lowercase hex (Rust `{:x}`), so text order is numeric order.
pub fn num_key(column: &str) -> String {
    format!(
        "('0x' || substr('{}' || substr({column}, 3), -64))",
        "0".repeat(64)
    )
}

fn hex64(f: Felt) -> String {
    f.to_bytes_be().iter().map(|b| format!("{b:02x}")).collect()
}

/// An address for tool output: `0x` hex without leading zeros.
pub fn address_string(f: Felt) -> String {
    format!("{f:#x}")
}

/// A player name. The game-token model stores it as a Cairo `ByteArray`, which Torii writes as
/// the text itself (dojoengine/torii v1.8.0, crates/sqlite/sqlite/src/lib.rs, `Ty::ByteArray`
/// bound as its string); a padded felt252 short string (`0x` + 64 hex digits, as older token
/// models held it) is decoded. `None` when empty.
pub fn short_string(v: &Value) -> Option<String> {
    let s = v.as_str()?;
    if s.len() == 66 && s.starts_with("0x") {
        let f = felt(v)?;
        let text: String = f
            .to_bytes_be()
            .iter()
            .filter(|&&b| b != 0)
            .map(|&b| {
                if b.is_ascii_graphic() || b == b' ' {
                    b as char
                } else {
                    '?'
                }
            })
            .collect();
        (!text.is_empty()).then_some(text)
    } else {
        (!s.is_empty()).then(|| s.to_string())
    }
}

/// A GraphQL string literal (quotes and backslashes escaped).
pub fn graphql_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_in_every_torii_encoding() {
        assert_eq!(u64_of(&json!(5)), Some(5));
        assert_eq!(u64_of(&json!("0x5")), Some(5));
        assert_eq!(u64_of(&json!("0x0000000000000005")), Some(5));
        assert_eq!(u64_of(&json!("5")), Some(5));
        assert_eq!(u64_of(&json!("0x")), None);
        assert_eq!(u64_of(&json!("0xzz")), None);
        assert_eq!(u64_of(&json!(-1)), None);
        assert_eq!(u64_of(&json!(1.5)), None);
        assert_eq!(u64_of(&json!(null)), None);
        assert_eq!(u64_of(&json!("0x10000000000000000")), None);
        let padded = format!("0x{}1", "0".repeat(63));
        assert_eq!(felt(&json!(padded)), Some(Felt::ONE));
        assert_eq!(felt(&json!(format!("0x1{}", "0".repeat(64)))), None);
    }

    #[test]
    fn booleans_in_every_torii_encoding() {
        assert_eq!(bool_of(&json!(true)), Some(true));
        assert_eq!(bool_of(&json!(0)), Some(false));
        assert_eq!(bool_of(&json!("0x1")), Some(true));
        assert_eq!(bool_of(&json!("false")), Some(false));
        assert_eq!(bool_of(&json!(2)), None);
        assert_eq!(bool_of(&json!(null)), None);
    }

    #[test]
    fn padded_forms_match_torii_sql() {
        assert_eq!(pad_u64(0x1ef), "0x00000000000001ef");
        assert_eq!(pad_felt(Felt::from(0xabu8)).len(), 66);
        assert!(pad_felt(Felt::from(0xabu8)).ends_with("00ab"));
        assert_eq!(address_string(Felt::from(0xabu8)), "0xab");
    }

    #[test]
    fn felt_forms_cover_every_torii_version() {
        let small = felt_forms(Felt::from(0x1efu32));
        assert_eq!(small.len(), 3, "{small:?}");
        assert_eq!(small[0], "0x1ef");
        assert_eq!(small[1], format!("0x{}1ef", "0".repeat(59)));
        assert_eq!(small[2], format!("0x{}1ef", "0".repeat(61)));
        assert_eq!(felt_forms(Felt::ZERO)[0], "0x0");
        // The GameEvent selector of ls_0_0_9 has 63 digits: Torii v1.7.4 to v1.8.16 write it
        // with one leading zero.
        let selector = "0x53f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c";
        let forms = felt_forms(Felt::from_hex(selector).unwrap());
        assert_eq!(
            forms,
            [
                selector.to_string(),
                "0x053f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c".to_string()
            ]
        );
        assert_eq!(
            sql_forms(Felt::from(5u8), "/"),
            format!("'0x5/', '0x{}5/', '0x{}5/'", "0".repeat(61), "0".repeat(63))
        );
    }

    #[test]
    fn short_strings_decode() {
        let padded = format!("0x{:0>64}", "416461");
        assert_eq!(short_string(&json!(padded)), Some("Ada".into()));
        assert_eq!(short_string(&json!("Ada")), Some("Ada".into()));
        assert_eq!(
            short_string(&json!("0x41")),
            Some("0x41".into()),
            "a name, not a felt"
        );
        assert_eq!(short_string(&json!(format!("0x{}", "0".repeat(64)))), None);
        assert_eq!(short_string(&json!(null)), None);
    }

    #[test]
    fn graphql_strings_are_escaped() {
        assert_eq!(graphql_string(r#"a"b\c"#), r#""a\"b\\c""#);
    }
}
