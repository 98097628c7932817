//! A node that comes up after the server: `serve --profile devnet` started against a port where
//! nothing listens yet answers a read with the unreachable error, and once the port leads to a
//! real starknet-devnet (a forwarder opened on it), the next calls connect, check the chain and
//! play: a new game is entered and read back, with no restart.

use crate::common;

use loot_survivor_mcp::devnet::free_port;
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};

/// Forwards every connection on `port` to `target` (host:port) until the test ends.
async fn forward(port: u16, target: String) {
    let listener = TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("the reserved port is still free");
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let target = target.clone();
            tokio::spawn(async move {
                if let Ok(mut outbound) = TcpStream::connect(target).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
}

#[tokio::test]
async fn a_node_that_comes_up_after_the_server_is_used_without_a_restart() {
    let world = common::world().await;
    let port = free_port().expect("a free port");
    let rpc: url::Url = format!("http://127.0.0.1:{port}").parse().unwrap();
    let client = common::serve_profile("devnet", &rpc, &world.manifest, (), &[]).await;

    let e = client
        .err(
            "ls_get_adventurer",
            json!({"adventurer_id": 1}),
            "RPC_ERROR",
        )
        .await;
    let message = e["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!(
            "the RPC at 127.0.0.1:{port} (chain.rpc_url) cannot be reached ("
        )),
        "{e}"
    );
    assert_eq!(e["retryable"], true, "{e}");

    let devnet = &world.devnet.url;
    let target = format!("{}:{}", devnet.host_str().unwrap(), devnet.port().unwrap());
    forward(port, target).await;
    let started = client
        .ok("ls_new_game", json!({"weapon": "Wand", "entry": "mint"}))
        .await;
    assert_eq!(started["adventurer"]["phase"], "in_battle", "{started}");
    let id = started["adventurer_id"].clone();
    let read = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(read["adventurer"]["adventurer_id"], id, "{read}");

    let log = client.shutdown().await;
    assert!(
        log.contains("serving anyway") && log.contains("connected to the node after start"),
        "{log}"
    );
}
