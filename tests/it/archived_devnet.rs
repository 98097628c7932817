//! A profile that marks its deployment archived (`deployment.archived`, as mainnet-v1 marks the
//! Dojo world ls_0_0_9) refuses every new game before anything is signed, through the real
//! binary over stdio on devnet's practice world (with its practice dungeon): the account's nonce
//! does not move, the refusal names the date, the record and the live profile, and the world's
//! games stay readable and playable. `LS_ALLOW_ARCHIVED_ENTRY=1` lets a new game through.

use crate::common;

use serde_json::json;

const ARCHIVED: [(&str, &str); 3] = [
    ("LS_DEPLOYMENT__ARCHIVED", "2026-05-11"),
    (
        "LS_DEPLOYMENT__ARCHIVED_SOURCE",
        "its makers' contract list",
    ),
    ("LS_DEPLOYMENT__SUCCESSOR_PROFILE", "mainnet"),
];

#[tokio::test]
async fn an_archived_world_refuses_new_games_before_signing_and_keeps_its_games() {
    let world = common::world().await;

    let mut allowed = ARCHIVED.to_vec();
    allowed.push(("LS_ALLOW_ARCHIVED_ENTRY", "1"));
    let client = world.client(&allowed).await;
    let started = client
        .ok("ls_new_game", json!({"weapon": "Wand", "entry": "mint"}))
        .await;
    let id = started["adventurer_id"].as_u64().expect("adventurer id");
    client.shutdown().await;

    let client = world.client(&ARCHIVED).await;
    let (nonce, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    for args in [
        json!({"weapon": "Wand", "entry": "ticket"}),
        json!({"weapon": "Wand", "entry": "golden_pass", "golden_pass_id": 1}),
        json!({"weapon": "Wand", "entry": "free"}),
        json!({"weapon": "Wand", "entry": "mint"}),
    ] {
        let e = client
            .err("ls_new_game", args.clone(), "VALIDATION_ERROR")
            .await;
        let message = e["message"].as_str().unwrap();
        assert!(
            message.contains(
                "was archived on 2026-05-11 (its makers' contract list); a new game there (entry"
            ),
            "{args}: {e}"
        );
        assert!(
            message.contains("play the live game with --profile mainnet"),
            "{args}: {e}"
        );
        assert_eq!(e["details"]["archived"], "2026-05-11", "{e}");
        assert_eq!(e["details"]["entry"], args["entry"], "{e}");
        assert!(
            e["hint"].as_str().unwrap().contains("nothing was signed"),
            "{e}"
        );
    }
    let (after, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    assert_eq!(after, nonce, "nothing was sent");

    let read = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(read["adventurer"]["adventurer_id"], id, "{read}");
    assert_eq!(read["adventurer"]["phase"], "in_battle", "{read}");
    client.ok("ls_attack", json!({"adventurer_id": id})).await;
    let (played, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    assert_ne!(played, after, "a game of the archived world still plays");
    client.shutdown().await;
}
