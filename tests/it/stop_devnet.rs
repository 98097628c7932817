//! Stopping `serve --with-devnet` every way it can be stopped (SIGTERM, SIGINT, SIGKILL, stdin
//! closed) leaves no devnet process and frees its port; a SIGTERM during a write lets the write
//! answer first.

use crate::common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use common::mcp::try_call;
use common::proxy::{self, Fault};
use loot_survivor_mcp::devnet::{devnet_binary, free_port};
use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::json;
use tokio::io::AsyncReadExt;

#[derive(Debug, Clone, Copy)]
enum Stop {
    Term,
    Int,
    Kill,
    StdinClosed,
}

/// The children of `pid` (from /proc), with their command names.
fn children(pid: u32) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...
        let Some((head, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let ppid = rest.split_whitespace().nth(1).and_then(|p| p.parse().ok());
        if ppid == Some(pid) {
            let child: u32 = head.split(' ').next().unwrap().parse().unwrap();
            let comm = head.split_once('(').map_or("", |(_, c)| c).to_string();
            out.push((child, comm));
        }
    }
    out
}

/// Whether a process is gone (or a zombie: dead, waiting to be reaped).
fn dead(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z')),
        Err(_) => true,
    }
}

fn port_free(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}

fn signal(pid: u32, sig: &str) {
    let ok = std::process::Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig} {pid}");
}

async fn stop_with_devnet(how: Stop) {
    let port = free_port().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = tokio::process::Command::new(common::BIN);
    cmd.args(["serve", "--with-devnet", "--rpc-url"])
        .arg(format!("http://127.0.0.1:{port}/"))
        // The journal goes to a temporary data directory. Not through LS_HOME: it also names the
        // project home, where --with-devnet finds the practice world's artifacts.
        .env_remove("LS_HOME")
        .env("XDG_DATA_HOME", dir.path())
        .env("LS_MANIFEST", dir.path().join("manifest.json"))
        .env("RUST_LOG", "info");
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = transport.id().unwrap();
    let mut stderr = stderr.unwrap();
    let log = tokio::spawn(async move {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s).await;
        s
    });
    let client = ().serve(transport).await.expect("MCP handshake after devnet start");
    let devnet: Vec<u32> = children(pid)
        .into_iter()
        .filter(|(_, comm)| comm.starts_with("starknet-devnet"))
        .map(|(p, _)| p)
        .collect();
    assert_eq!(
        devnet.len(),
        1,
        "{how:?}: one devnet child: {:?}",
        children(pid)
    );
    let devnet = devnet[0];
    assert!(!port_free(port), "devnet listens on {port}");

    match how {
        Stop::Term => signal(pid, "-TERM"),
        Stop::Int => signal(pid, "-INT"),
        Stop::Kill => signal(pid, "-KILL"),
        Stop::StdinClosed => {
            let _ = client.cancel().await;
        }
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while !(dead(devnet) && port_free(port)) {
        assert!(
            Instant::now() < deadline,
            "{how:?}: devnet {devnet} still alive or port {port} bound"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    while !dead(pid) {
        assert!(
            Instant::now() < deadline,
            "{how:?}: the server did not exit"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let log = log.await.unwrap();
    if !matches!(how, Stop::Kill) {
        assert!(log.contains("stopped starknet-devnet"), "{how:?}: {log}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_way_to_stop_the_server_stops_its_devnet() {
    devnet_binary().expect("starknet-devnet is required for this test");
    for how in [Stop::Term, Stop::Int, Stop::Kill, Stop::StdinClosed] {
        stop_with_devnet(how).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_a_write_in_flight_answer_and_refuses_new_ones() {
    let world = common::world().await;
    let (proxy_url, faults) = proxy::start(world.devnet.url.clone()).await;
    let client = world.client_at(&proxy_url, (), &[]).await;
    let started = client.ok("ls_new_game", json!({"weapon": "Club"})).await;
    let id = started["adventurer_id"].as_u64().unwrap();
    // A write asks for its receipt first (status polls come only while there is none yet).
    faults.inject(
        "starknet_getTransactionReceipt",
        &[Fault::Delay(Duration::from_secs(3))],
    );
    let polls_before = faults.count("starknet_getTransactionReceipt");
    let peer = client.service.peer().clone();
    let write =
        tokio::spawn(
            async move { try_call(&peer, "ls_attack", json!({"adventurer_id": id})).await },
        );
    // The stop arrives while the write waits for its receipt.
    let deadline = Instant::now() + Duration::from_secs(30);
    while faults.count("starknet_getTransactionReceipt") == polls_before {
        assert!(
            Instant::now() < deadline,
            "the write never asked for its receipt"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    signal(client.pid, "-TERM");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let refused = client
        .call("ls_explore", json!({"adventurer_id": id}))
        .await;
    assert!(refused.is_error);
    assert!(refused.text.contains("stopping"), "{}", refused.text);
    let answered = write
        .await
        .unwrap()
        .expect("the write in flight got its answer");
    assert!(!answered.is_error, "{}", answered.text);
    assert!(answered.json["tx"].is_string(), "{}", answered.text);
    assert!(
        answered.json.get("status").is_none(),
        "accepted (a compact result names only PRE_CONFIRMED): {}",
        answered.text
    );
    let log = client.shutdown().await;
    assert!(log.contains("stopping: no new writes"), "{log}");
}
