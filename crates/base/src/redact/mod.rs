//! Keeps values that could be keys or passwords out of start-up errors, which MCP hosts keep in
//! their log files. A key put in the wrong setting (a path, an address, a URL, a profile name)
//! must not be echoed by the error about that setting: errors name the setting and what is wrong,
//! and anything key-shaped left in a message is hidden. Credentials in URLs: the `urls` module;
//! an error kept whole but shown without them: [`Redacted`].

mod redacted;
mod urls;

pub use redacted::Redacted;

pub use urls::{
    HIDDEN_CREDENTIAL, has_credentials, hide_credentials, redact_urls, register_credential,
    register_url_credentials, shown_url,
};

/// Shortest run of hex digits treated as possible key material (addresses and keys are up to 64).
const MIN_HEX_RUN: usize = 20;
/// Shortest run of decimal digits treated as possible key material (a u64 has at most 20).
const MIN_DEC_RUN: usize = 21;
/// What replaces hidden key material.
pub const HIDDEN: &str = "<hidden: looks like a key>";

/// Whether `value` holds something that looks like a private key (or a felt of that size): a run
/// of hex digits with or without `0x`, padded or not, or a long decimal number.
pub fn looks_like_key(value: &str) -> bool {
    redact(value) != value
}

/// `text` with every run of at least 20 hex digits (with or without `0x`) or 21 decimal digits
/// replaced by [`HIDDEN`].
pub fn redact(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_hexdigit() {
            i += 1;
            continue;
        }
        let start = i;
        let prefixed = b[i] == b'0'
            && matches!(b.get(i + 1), Some(b'x' | b'X'))
            && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        let digits = if prefixed { i + 2 } else { i };
        let mut j = digits;
        while j < b.len() && b[j].is_ascii_hexdigit() {
            j += 1;
        }
        let run = &b[digits..j];
        let decimal_only = !prefixed && run.iter().all(u8::is_ascii_digit);
        let min = if decimal_only {
            MIN_DEC_RUN
        } else {
            MIN_HEX_RUN
        };
        if run.len() >= min {
            out.push_str(&text[copied..start]);
            out.push_str(HIDDEN);
            copied = j;
        }
        i = j;
    }
    out.push_str(&text[copied..]);
    out
}

/// A configured path as it may appear in an error: shown only when it looks like a path (it has
/// a `/`) and holds nothing key-shaped; otherwise a note that it was hidden.
pub fn shown_path(value: &str) -> String {
    if looks_like_key(value) {
        return "(value hidden: it looks like a key, not a path)".into();
    }
    if !value.contains('/') || value.chars().count() > 512 {
        return "(value hidden: it does not look like a path)".into();
    }
    format!("'{value}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "0x3c9a4d7b21e85f06ad4e9c1f7b20d35e8a61c47f09be2d3a5c8e71f40b6d92e";

    #[test]
    fn keys_in_any_form_are_recognised_and_hidden() {
        let plain = KEY.trim_start_matches("0x");
        let padded = format!("0x{plain:0>64}");
        let decimal = starknet::core::types::Felt::from_hex(KEY)
            .unwrap()
            .to_string();
        for form in [
            KEY,
            plain,
            &padded,
            &decimal,
            &format!("  {KEY}\n"),
            &KEY.to_uppercase(),
        ] {
            assert!(looks_like_key(form), "{form}");
            let text = format!("error: `{form}` for key `wallet.keystore`");
            let r = redact(&text);
            assert!(
                !r.contains(&plain[10..30]) && !r.contains(&decimal[10..30]),
                "{r}"
            );
            assert!(r.contains("wallet.keystore") && r.contains(HIDDEN), "{r}");
            assert!(!shown_path(form).contains(&form.trim()[4..20]));
        }
    }

    #[test]
    fn ordinary_text_and_paths_are_kept() {
        for text in [
            "tx.timeout_ms must be positive, got 0",
            "/home/ada/.config/loot-survivor-mcp/keystore.json",
            "port 5050 at 127.0.0.1; id 18446744073709551615",
            "invalid type: string \"abc\", expected u64",
        ] {
            assert_eq!(redact(text), text);
            assert!(!looks_like_key(text));
        }
        assert_eq!(shown_path("/tmp/key.txt"), "'/tmp/key.txt'");
        assert!(shown_path("hunter2").contains("hidden"));
    }
}
