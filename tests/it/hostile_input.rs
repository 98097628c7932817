//! Hostile input over stdio against the real binary on the sim chain: oversized names and arrays,
//! deep nesting, invalid UTF-8, NaN, messages before `initialize`, batches, non-object arguments
//! and request-shaped garbage. Every request must be answered within 1 s (a tool error or a
//! JSON-RPC error carrying its id), and a ping right after must be answered within 100 ms. These
//! bounds are correctness bounds on stalls (the server used to freeze for seconds or never
//! answer), generous next to normal latency.

use crate::common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use common::BIN;
use common::mcp::{Outcome, parse_json_result};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin};
use tokio::sync::mpsc;
const ANSWER_WITHIN: Duration = Duration::from_secs(1);
const PING_WITHIN: Duration = Duration::from_millis(100);

/// The server over raw stdio: bytes in, parsed lines out.
struct Raw {
    child: Child,
    stdin: ChildStdin,
    out: mpsc::UnboundedReceiver<Value>,
    pings: u32,
    _home: tempfile::TempDir,
}

impl Raw {
    async fn start(args: &[&str]) -> Raw {
        let home = tempfile::tempdir().unwrap();
        let mut child = tokio::process::Command::new(BIN)
            .args(args)
            .env("LS_HOME", home.path())
            .env("RUST_LOG", "warn")
            .env_remove("LS_CHAIN")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, out) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut line = Vec::new();
            while stdout.read_until(b'\n', &mut line).await.unwrap_or(0) > 0 {
                let v: Value = serde_json::from_slice(&line)
                    .unwrap_or_else(|e| panic!("server wrote a line that is not JSON: {e}"));
                if tx.send(v).is_err() {
                    break;
                }
                line.clear();
            }
        });
        Raw {
            child,
            stdin,
            out,
            pings: 0,
            _home: home,
        }
    }

    async fn send(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).await.unwrap();
        self.stdin.write_all(b"\n").await.unwrap();
        self.stdin.flush().await.unwrap();
    }

    /// The next message for which `pick` returns something, within `within` of `since`.
    async fn wait<T>(
        &mut self,
        since: Instant,
        within: Duration,
        what: &str,
        mut pick: impl FnMut(&Value) -> Option<T>,
    ) -> T {
        loop {
            let left = within.saturating_sub(since.elapsed());
            match tokio::time::timeout(left, self.out.recv()).await {
                Ok(Some(v)) => {
                    if let Some(t) = pick(&v) {
                        return t;
                    }
                }
                Ok(None) => panic!("{what}: the server closed stdout (exited?)"),
                Err(_) => panic!("{what}: no answer within {within:?}"),
            }
        }
    }

    /// Sends `bytes` and returns the answer carrying `id`, asserting it came within 1 s.
    async fn answer(&mut self, what: &str, bytes: &[u8], id: &Value) -> Value {
        let t = Instant::now();
        self.send(bytes).await;
        let id = id.clone();
        self.wait(t, ANSWER_WITHIN, what, |v| {
            (v["id"] == id).then(|| v.clone())
        })
        .await
    }

    /// A ping right after must be answered within 100 ms.
    async fn ping(&mut self, after: &str) {
        self.pings += 1;
        let id = json!(format!("ping-{}", self.pings));
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": "ping"}).to_string();
        let t = Instant::now();
        self.send(msg.as_bytes()).await;
        let what = format!("ping after {after}");
        let r = self
            .wait(t, PING_WITHIN, &what, |v| {
                (v["id"] == id).then(|| v.clone())
            })
            .await;
        assert_eq!(r["result"], json!({}), "{what}: {r}");
    }

    async fn initialize(&mut self) {
        let init = json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "hostile", "version": "1"}}});
        let t = Instant::now();
        self.send(init.to_string().as_bytes()).await;
        let start_up = Duration::from_secs(30);
        let r = self
            .wait(t, start_up, "initialize", |v| {
                (v["id"] == "init").then(|| v.clone())
            })
            .await;
        assert!(r["result"]["serverInfo"].is_object(), "{r}");
        self.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
    }
}

fn call(id: u64, tool: &str, arguments: Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}})
    .to_string()
    .into_bytes()
}

/// The tool result of a `tools/call` answer (panics on a JSON-RPC error).
fn tool_result(what: &str, r: &Value) -> Outcome {
    let result = r
        .get("result")
        .unwrap_or_else(|| panic!("{what}: expected a tool result, got {r}"));
    parse_json_result(what, result)
}

fn rpc_error(what: &str, r: &Value) -> i64 {
    r["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("{what}: expected a JSON-RPC error, got {r}"))
}

#[tokio::test]
async fn nothing_before_initialize_ends_the_process() {
    let mut s = Raw::start(&[]).await;
    let t = Instant::now();
    s.send(br#"{"jsonrpc":"2.0","id":"up","method":"ping"}"#)
        .await;
    s.wait(t, Duration::from_secs(30), "start-up", |v| {
        (v["id"] == "up").then_some(())
    })
    .await;
    s.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    s.send(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#)
        .await;
    s.send(br#"{"jsonrpc":"2.0","id":77,"result":{}}"#).await;
    s.send(br#"{"jsonrpc":"2.0","method":"no/such","params":[1,2]}"#)
        .await;
    s.ping("pre-initialize notifications and a response").await;
    let r = s
        .answer(
            "NaN before initialize",
            br#"{"jsonrpc":"2.0","id":5,"x":NaN}"#,
            &json!(5),
        )
        .await;
    assert_eq!(rpc_error("NaN", &r), -32700);
    s.ping("a parse error before initialize").await;
    let r = s
        .answer(
            "a request before initialize",
            br#"{"jsonrpc":"2.0","id":6,"method":"tools/list"}"#,
            &json!(6),
        )
        .await;
    assert_eq!(rpc_error("a request before initialize", &r), -32600);
    let said = r["error"]["message"].as_str().unwrap_or_default();
    assert!(
        said.contains("start the session with an `initialize`"),
        "{r}"
    );
    s.ping("a request before initialize").await;
    s.initialize().await;
    s.ping("initialize").await;
    assert!(
        s.child.try_wait().unwrap().is_none(),
        "the server is running"
    );
}

#[tokio::test]
async fn every_hostile_request_is_answered_with_its_id_and_pings_stay_fast() {
    let mut s = Raw::start(&[]).await;
    s.initialize().await;
    let mb = "w".repeat(1_000_000);

    let tool_cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "1 MB lookup query",
            call(1, "ls_lookup", json!({"query": mb})),
        ),
        (
            "1 MB weapon name",
            call(2, "ls_new_game", json!({"weapon": mb})),
        ),
        (
            "1 MB player name",
            call(
                3,
                "ls_new_game",
                json!({"weapon": "wand", "player_name": mb}),
            ),
        ),
        (
            "10,000-item equip array",
            call(
                4,
                "ls_equip",
                json!({"adventurer_id": 1, "items": vec![json!("Katana"); 10_000]}),
            ),
        ),
        (
            "10,000 purchases",
            call(
                5,
                "ls_buy_item",
                json!({"adventurer_id": 1, "items": vec![json!({"item": 42}); 10_000]}),
            ),
        ),
        (
            "1 MB beast name in a preview",
            call(
                6,
                "ls_battle_preview",
                json!({"adventurer_id": 1, "beast": {"beast": mb, "level": 1, "health": 1}}),
            ),
        ),
        ("arguments nested 100 deep", {
            let deep = format!(
                r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"ls_lookup","arguments":{{"query":{}1{}}}}}}}"#,
                "[".repeat(100),
                "]".repeat(100)
            );
            deep.into_bytes()
        }),
        ("array arguments", call(8, "ls_get_adventurer", json!([1]))),
        (
            "string arguments",
            call(9, "ls_get_adventurer", json!("adventurer_id=1")),
        ),
        ("number arguments", call(10, "ls_get_adventurer", json!(1))),
        (
            "a key of 1 MB",
            call(11, "ls_lookup", {
                let mut wide = serde_json::Map::new();
                wide.insert(mb.clone(), json!(1));
                Value::Object(wide)
            }),
        ),
    ];
    for (what, bytes) in tool_cases {
        let id: u64 = serde_json::from_slice::<Value>(&bytes)
            .map(|v| v["id"].as_u64().unwrap())
            .unwrap_or(7);
        let r = s.answer(what, &bytes, &json!(id)).await;
        let error = tool_result(what, &r).into_err("VALIDATION_ERROR");
        let message = error["message"].as_str().unwrap();
        assert!(
            message.len() < 300 && !message.contains("wwww"),
            "{what}: the error is short and does not echo the input: {message}"
        );
        s.ping(what).await;
    }

    let deep_line = format!(
        r#"{{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{{"name":"ls_lookup","arguments":{{"query":{}1{}}}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let mut invalid_utf8 = br#"{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"ls_lookup","arguments":{"query":""#.to_vec();
    invalid_utf8.extend_from_slice(&[0xC3, 0x28, 0xFF]);
    invalid_utf8.extend_from_slice(br#""}}}"#);
    let mut id_last_invalid = br#"{"jsonrpc":"2.0","method":"ping","x":""#.to_vec();
    id_last_invalid.push(0xFE);
    id_last_invalid.extend_from_slice(br#"","id":"tail"}"#);
    let oversized_head = format!(
        r#"{{"jsonrpc":"2.0","id":24,"method":"tools/call","params":{{"name":"ls_lookup","arguments":{{"query":"{}"}}}}}}"#,
        "z".repeat(2_500_000)
    );
    let oversized_tail = format!(
        r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"ls_lookup","arguments":{{"query":"{}"}}}},"id":"big"}}"#,
        "z".repeat(2_500_000)
    );
    let rpc_cases: Vec<(&str, Vec<u8>, Value, i64)> = vec![
        ("nesting depth 200", deep_line.into_bytes(), json!(20), -32700),
        ("invalid UTF-8", invalid_utf8, json!(21), -32700),
        (
            "NaN in arguments",
            br#"{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"ls_lookup","arguments":{"limit":NaN}}}"#.to_vec(),
            json!(22),
            -32700,
        ),
        (
            "Infinity",
            br#"{"jsonrpc":"2.0","id":"inf","method":"ping","params":{"x":Infinity}}"#.to_vec(),
            json!("inf"),
            -32700,
        ),
        ("id after invalid UTF-8", id_last_invalid, json!("tail"), -32700),
        ("a 2.5 MB line, id first", oversized_head.into_bytes(), json!(24), -32600),
        ("a 2.5 MB line, id last", oversized_tail.into_bytes(), json!("big"), -32600),
        (
            "truncated JSON",
            br#"{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"#.to_vec(),
            json!(25),
            -32700,
        ),
        (
            "jsonrpc 1.0",
            br#"{"jsonrpc":"1.0","id":26,"method":"ping"}"#.to_vec(),
            json!(26),
            -32600,
        ),
        (
            "params a string",
            br#"{"jsonrpc":"2.0","id":27,"method":"tools/call","params":"ls_lookup"}"#.to_vec(),
            json!(27),
            -32600,
        ),
        (
            "method a number",
            br#"{"jsonrpc":"2.0","id":28,"method":42}"#.to_vec(),
            json!(28),
            -32600,
        ),
        (
            "tools/call without a name",
            br#"{"jsonrpc":"2.0","id":29,"method":"tools/call","params":{"arguments":{}}}"#.to_vec(),
            json!(29),
            -32602,
        ),
        (
            "tools/call without params",
            br#"{"jsonrpc":"2.0","id":31,"method":"tools/call"}"#.to_vec(),
            json!(31),
            -32602,
        ),
        (
            "tools/call with a number for a name",
            br#"{"jsonrpc":"2.0","id":32,"method":"tools/call","params":{"name":5}}"#.to_vec(),
            json!(32),
            -32602,
        ),
        (
            "resources/read without a uri",
            br#"{"jsonrpc":"2.0","id":33,"method":"resources/read","params":{}}"#.to_vec(),
            json!(33),
            -32602,
        ),
        (
            "an unknown method",
            br#"{"jsonrpc":"2.0","id":30,"method":"games/cheat","params":{}}"#.to_vec(),
            json!(30),
            -32601,
        ),
        (
            "a bare string",
            br#""tools/call""#.to_vec(),
            Value::Null,
            -32600,
        ),
        ("an empty batch", b"[]".to_vec(), Value::Null, -32600),
        (
            "an object id",
            br#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#.to_vec(),
            Value::Null,
            -32600,
        ),
    ];
    for (what, bytes, id, code) in rpc_cases {
        let r = s.answer(what, &bytes, &id).await;
        assert_eq!(rpc_error(what, &r), code, "{what}: {r}");
        if code == -32602 {
            let message = r["error"]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("invalid params") && message.contains("expected params"),
                "{what}: the error says what the method expects: {r}"
            );
        }
        s.ping(what).await;
    }

    let batch = json!([
        {"jsonrpc": "2.0", "id": 40, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/call", "params": {"name": "ls_lookup", "arguments": {}}},
        7
    ]);
    let t = Instant::now();
    s.send(batch.to_string().as_bytes()).await;
    let answers = s
        .wait(t, ANSWER_WITHIN, "batch", |v| v.as_array().cloned())
        .await;
    let ids: Vec<&Value> = answers.iter().map(|a| &a["id"]).collect();
    assert_eq!(ids, [&json!(40), &json!("b"), &Value::Null], "{answers:?}");
    assert!(answers.iter().all(|a| a["error"]["code"] == -32600));
    s.ping("a batch").await;

    s.send(br#"{"jsonrpc":"2.0","method":"notifications/bogus","params":NaN"#)
        .await;
    s.send(b"").await;
    s.send(b"   ").await;
    s.ping("a broken notification and blank lines").await;

    let r = s
        .answer(
            "a normal lookup at the end",
            &call(50, "ls_lookup", json!({"query": "katana"})),
            &json!(50),
        )
        .await;
    let found = tool_result("a normal lookup", &r).into_ok();
    assert_eq!(found["total"], 1, "{r}");
    assert!(
        s.child.try_wait().unwrap().is_none(),
        "the server is running"
    );
}

#[tokio::test]
async fn strict_mode_and_single_beast_arguments() {
    let mut s = Raw::start(&["--strict"]).await;
    s.initialize().await;
    let r = s
        .answer(
            "a nested unknown key",
            &call(
                1,
                "ls_buy_item",
                json!({"adventurer_id": 1, "items": [{"item": "wand", "qty": 2}]}),
            ),
            &json!(1),
        )
        .await;
    let error = tool_result("nested unknown key", &r).into_err("VALIDATION_ERROR");
    assert_eq!(
        error["details"]["unknown"],
        json!(["items[0].qty"]),
        "{error}"
    );
    let r = s
        .answer(
            "beast *",
            &call(
                2,
                "ls_battle_preview",
                json!({"adventurer_id": 1, "beast": {"beast": "*", "level": 3, "health": 9}}),
            ),
            &json!(2),
        )
        .await;
    let error = tool_result("beast *", &r).into_err("VALIDATION_ERROR");
    assert_eq!(error["details"]["total"], 75, "{error}");
    assert_eq!(error["details"]["matches"][0], "Warlock", "{error}");
    assert!(error["details"]["matches"].as_array().unwrap().len() <= 10);
}
