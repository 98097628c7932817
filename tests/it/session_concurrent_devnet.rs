//! Two `ls_new_game` calls at once on the sponsored (Controller session) route of one server get
//! two distinct adventurers: the new game's token id is predicted under the account's write lock,
//! so the second prediction sees the first mint. Real binary, starknet-devnet, the real Controller
//! class and the local stand-in of Cartridge's paymaster (which sponsors every call here).
//!
//! Skipped, with a message, without the Controller class fixture. Needs starknet-devnet.

use crate::common;

use common::controller::{class_dir, deploy_controller};
use common::paymaster::{self, Relayer};
use serde_json::json;

const PASSWORD: &str = "correct horse battery staple";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_concurrent_new_games_on_the_sponsored_route_get_two_ids() {
    let Some(dir) = class_dir() else {
        return;
    };
    let world = common::world().await;
    let controller = deploy_controller(&dir, &world.devnet.url, 12).await;
    let home = controller
        .v1_session_home(&world.manifest, "devnet", PASSWORD)
        .await;
    let (rpc, stand_in) =
        paymaster::start(world.devnet.url.clone(), Relayer::devnet_account_1()).await;
    let client = controller
        .session_client(&world, &rpc, home.path(), PASSWORD, &[])
        .await;

    let (first, second) = tokio::join!(
        client.call("ls_new_game", json!({"weapon": "Short Sword"})),
        client.call("ls_new_game", json!({"weapon": "Book"})),
    );
    let (first, second) = (first.into_ok(), second.into_ok());
    let ids: Vec<u64> = [&first, &second]
        .iter()
        .map(|r| r["adventurer_id"].as_u64().expect("adventurer id"))
        .collect();
    assert_ne!(ids[0], ids[1], "{first}\n{second}");
    let relayed = stand_in.requests().len();
    assert_eq!(relayed, 2, "both new games went through the paymaster");
    for id in ids {
        let adv = client
            .ok("ls_get_adventurer", json!({"adventurer_id": id}))
            .await;
        assert!(adv["adventurer"]["phase"].is_string(), "{adv}");
    }
}
