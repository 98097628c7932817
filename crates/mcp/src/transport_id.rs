//! Reading the `id` of a JSON-RPC message that cannot be parsed (too deep, too long, not UTF-8,
//! NaN), so that the error answering it can carry that id; serde cannot help with such lines, and
//! the scan must work on a line streamed past in pieces, in O(1) memory.

use serde_json::Value;

/// The `id` of a message that does not parse, read by [`IdScanner`] (null when none is found).
pub(crate) fn scan_id(bytes: &[u8]) -> Value {
    let mut s = IdScanner::default();
    s.feed(bytes);
    s.id()
}

/// Finds the top-level `"id"` member of a JSON object without parsing it: one pass over the
/// bytes (fed in pieces of any size), tracking only string state and nesting depth, so it works
/// on lines that are too deep, too long or not UTF-8, in O(length) time and O(1) memory.
#[derive(Default)]
pub(crate) struct IdScanner {
    depth: usize,
    started: bool,
    in_string: bool,
    escaped: bool,
    /// At depth 1, the next string is a key.
    expect_key: bool,
    /// Bytes of the depth-1 key being read (only up to 3 are kept; "id" has 2).
    key: Vec<u8>,
    key_len: usize,
    state: IdState,
    value: Vec<u8>,
    found: Option<Value>,
}

#[derive(Default, PartialEq)]
enum IdState {
    #[default]
    Walking,
    /// Read the key `"id"`; expecting `:`.
    Colon,
    /// Expecting the value's first byte.
    Value,
    /// Inside a string value.
    StringValue { escaped: bool },
    /// Inside a number or `null`.
    Bare,
    /// Found, or the message is not an object.
    Done,
}

/// Longest id value kept, in bytes.
const MAX_ID_BYTES: usize = 256;

impl IdScanner {
    /// Scans more bytes of the message.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.state == IdState::Done {
                return;
            }
            self.step(b);
        }
    }

    /// The id found so far (null when none).
    pub(crate) fn id(mut self) -> Value {
        if self.state == IdState::Bare {
            self.finish_value();
        }
        self.found.unwrap_or(Value::Null)
    }

    fn step(&mut self, b: u8) {
        match self.state {
            IdState::Done => {}
            IdState::Colon => match b {
                b':' => self.state = IdState::Value,
                b if b.is_ascii_whitespace() => {}
                _ => self.state = IdState::Done,
            },
            IdState::Value => match b {
                b'"' => {
                    self.value.push(b);
                    self.state = IdState::StringValue { escaped: false };
                }
                b'-' | b'0'..=b'9' | b'n' => {
                    self.value.push(b);
                    self.state = IdState::Bare;
                }
                b if b.is_ascii_whitespace() => {}
                _ => self.state = IdState::Done,
            },
            IdState::StringValue { escaped } => {
                if self.value.len() > MAX_ID_BYTES {
                    self.state = IdState::Done;
                    return;
                }
                self.value.push(b);
                match (escaped, b) {
                    (true, _) => self.state = IdState::StringValue { escaped: false },
                    (false, b'\\') => self.state = IdState::StringValue { escaped: true },
                    (false, b'"') => self.finish_value(),
                    _ => {}
                }
            }
            IdState::Bare => {
                if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.') {
                    if self.value.len() > MAX_ID_BYTES {
                        self.state = IdState::Done;
                    } else {
                        self.value.push(b);
                    }
                } else {
                    self.finish_value();
                }
            }
            IdState::Walking => self.walk(b),
        }
    }

    fn finish_value(&mut self) {
        self.found = serde_json::from_slice::<Value>(&self.value)
            .ok()
            .filter(|v| v.is_string() || v.is_number());
        self.state = IdState::Done;
    }

    fn walk(&mut self, b: u8) {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.depth == 1 && self.expect_key {
                    self.expect_key = false;
                    if self.key_len == 2 && self.key == b"id" {
                        self.state = IdState::Colon;
                    }
                }
            } else if self.depth == 1 && self.expect_key {
                self.key_len += 1;
                if self.key.len() < 3 {
                    self.key.push(b);
                }
            }
            return;
        }
        if !self.started {
            match b {
                b'{' => {
                    self.started = true;
                    self.depth = 1;
                    self.expect_key = true;
                }
                b if b.is_ascii_whitespace() => {}
                _ => self.state = IdState::Done,
            }
            return;
        }
        match b {
            b'"' => {
                self.in_string = true;
                self.key.clear();
                self.key_len = 0;
            }
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.state = IdState::Done;
                }
            }
            b',' if self.depth == 1 => self.expect_key = true,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scanner_finds_top_level_ids_only() {
        assert_eq!(
            scan_id(br#"{"jsonrpc":"2.0","id":7,"method":"x"}"#),
            json!(7)
        );
        assert_eq!(scan_id(br#"{"id" : "a\"b", "x": NaN}"#), json!("a\"b"));
        assert_eq!(scan_id(br#"{"params":{"id":1},"id":-3}"#), json!(-3));
        assert_eq!(scan_id(br#"{"params":{"id":1}}"#), Value::Null);
        assert_eq!(scan_id(br#"{"x":"\"id\":4","idx":5}"#), Value::Null);
        assert_eq!(scan_id(br#"{"id":null}"#), Value::Null);
        assert_eq!(scan_id(br#"[{"id":1}]"#), Value::Null);
        let deep = format!("{{\"id\":9,\"p\":{}{}}}", "[".repeat(500), "]".repeat(500));
        assert_eq!(scan_id(deep.as_bytes()), json!(9));
        let mut invalid = br#"{"p":""#.to_vec();
        invalid.extend_from_slice(&[0xff, 0xfe]);
        invalid.extend_from_slice(br#"","id":"k"}"#);
        assert_eq!(scan_id(&invalid), json!("k"));
    }

    #[test]
    fn scanner_takes_input_in_pieces() {
        let msg = br#"{"method":"tools/call","params":{"arguments":{"id":0}},"id":12345}"#;
        for cut in 1..msg.len() {
            let mut s = IdScanner::default();
            s.feed(&msg[..cut]);
            s.feed(&msg[cut..]);
            assert_eq!(s.id(), json!(12345), "cut at {cut}");
        }
    }
}
