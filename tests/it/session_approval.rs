//! `loot-survivor-mcp session new|status|revoke` end to end with the real binary, a starknet-devnet
//! and a real Controller v1.0.9 standing in for the player's account. The test plays the keychain:
//! it reads the printed approval URL, registers that session as the Controller's owner, and
//! answers the way the keychain does (POST callback, redirect callback) or the way Cartridge's API
//! does (a local GraphQL stand-in answering `subscribeCreateSession`).
//!
//! Skipped, with a message, without the Controller class fixture (`common::controller::class_dir`).
//! Needs starknet-devnet (`scripts/install-devnet.sh`).

use crate::common;

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use base64::Engine as _;
use common::BIN;
use common::controller::{DeployedController, class_dir, deploy_controller, stored_session_key};
use loot_survivor_mcp::devnet::Devnet;
use loot_survivor_mcp::wallet::session::{Session, SessionPolicies, stark_signer_guid};
use serde_json::{Value, json};
use starknet::core::types::Felt;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, Command};

const PASSWORD: &str = "session-test-pw";

/// A profile home with a manifest naming four game contracts (any addresses: a session only
/// stores the root of its policies).
struct Home {
    dir: tempfile::TempDir,
    rpc: url::Url,
    /// More environment for every command (`LS_GENERATION=v2`).
    env: Vec<(&'static str, &'static str)>,
}

impl Home {
    fn new(rpc: &url::Url) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let contracts: Vec<Value> = [
            "game_systems",
            "adventurer_systems",
            "game_token_systems",
            "settings_systems",
        ]
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"tag": format!("ls_0_0_9-{t}"), "address": format!("0x{:x}", 0x1000 + i)}))
        .collect();
        std::fs::write(
            dir.path().join("manifest.json"),
            json!({"world": {"address": "0x999"}, "contracts": contracts}).to_string(),
        )
        .unwrap();
        Self {
            dir,
            rpc: rpc.clone(),
            env: Vec::new(),
        }
    }

    /// The same home playing v2, as the guide says (`LS_GENERATION=v2`): the devnet profile's
    /// `devnet/v2.json` names GameCore 0x2000, GameToken 0x2001, Denshokan 0x2002 and the VRF
    /// provider 0x2003 with the salt source.
    fn v2(rpc: &url::Url) -> Self {
        let mut home = Self::new(rpc);
        let file = json!({"game": "0x2000", "token": "0x2001", "denshokan": "0x2002",
                          "vrf": "0x2003", "vrf_mode": "salt"});
        std::fs::create_dir_all(home.profile_dir()).unwrap();
        std::fs::write(home.profile_dir().join("v2.json"), file.to_string()).unwrap();
        home.env.push(("LS_GENERATION", "v2"));
        home
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(BIN);
        c.args(["--profile", "devnet", "--rpc-url", self.rpc.as_str()])
            .args(args)
            .env("LS_HOME", self.dir.path())
            .env("LS_MANIFEST", self.dir.path().join("manifest.json"))
            .env("LS_KEYSTORE_PASSWORD", PASSWORD)
            .env_remove("LS_CHAIN")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env("RUST_LOG", "info")
            .envs(self.env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        c
    }

    fn profile_dir(&self) -> PathBuf {
        self.dir.path().join("devnet")
    }

    /// The record of the session in use.
    fn record(&self) -> Value {
        self.read_json("controller-session.json")
    }

    /// The record of the session waiting for approval.
    fn pending_record(&self) -> Value {
        self.read_json("controller-session.pending.json")
    }

    fn read_json(&self, file: &str) -> Value {
        let text = std::fs::read_to_string(self.profile_dir().join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        serde_json::from_str(&text).unwrap()
    }

    /// The session key as hex digits (no `0x`, no leading zeros) and in decimal, decrypted
    /// independently of the server's code.
    fn secret_forms(&self) -> [String; 2] {
        let felt = stored_session_key(
            &self.profile_dir().join("controller-session-key.json"),
            PASSWORD,
        );
        [format!("{felt:x}"), felt.to_string()]
    }

    /// Asserts that no form of the session key appears in any of `texts`.
    fn assert_no_key(&self, texts: &[&str]) {
        let forms = self.secret_forms();
        assert!(forms[0].len() > 40, "a real key");
        for text in texts {
            for form in &forms {
                assert!(!text.contains(form.as_str()), "the session key leaked");
            }
        }
    }

    /// Runs a short command to its end: (success, stdout, stderr).
    async fn run(&self, args: &[&str]) -> (bool, String, String) {
        let out = self.command(args).output().await.unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

/// A running `session new` with the approval URL it printed.
struct Approval {
    child: Child,
    url: url::Url,
    stdout: String,
    rest: tokio::task::JoinHandle<String>,
}

impl Approval {
    async fn start(home: &Home, api_url: &str, chain_wait: &str) -> Self {
        Self::start_waiting(home, api_url, chain_wait, "3m").await
    }

    /// Like [`Approval::start`], giving up on the approval after `wait`.
    async fn start_waiting(home: &Home, api_url: &str, chain_wait: &str, wait: &str) -> Self {
        let mut child = home
            .command(&[
                "session",
                "new",
                "--no-browser",
                "--expires",
                "2h",
                "--wait",
                wait,
                "--chain-wait",
                chain_wait,
                "--api-url",
                api_url,
            ])
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut stdout = String::new();
        let url = tokio::time::timeout(Duration::from_secs(60), async {
            while let Some(line) = lines.next_line().await.unwrap() {
                stdout.push_str(&line);
                stdout.push('\n');
                if line.starts_with("https://x.cartridge.gg/session?") {
                    return url::Url::parse(&line).unwrap();
                }
            }
            panic!("session new printed no URL: {stdout}");
        })
        .await
        .expect("the URL within a minute");
        // Keep draining stdout so the child never blocks.
        let rest = tokio::spawn(async move {
            let mut s = String::new();
            while let Ok(Some(l)) = lines.next_line().await {
                s.push_str(&l);
                s.push('\n');
            }
            s
        });
        Self {
            child,
            url,
            stdout,
            rest,
        }
    }

    fn param(&self, name: &str) -> String {
        self.url
            .query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
            .unwrap_or_else(|| panic!("no {name} in {}", self.url))
    }

    /// The session the URL asks for, rebuilt from the URL's own fields.
    fn session(&self) -> Session {
        let policies: Value = serde_json::from_str(&self.param("policies")).unwrap();
        assert_eq!(policies["verified"], false);
        let mut pairs = Vec::new();
        for (contract, c) in policies["contracts"].as_object().unwrap() {
            assert_eq!(contract.len(), 66, "{contract}");
            for m in c["methods"].as_array().unwrap() {
                assert_eq!(m["authorized"], true);
                assert!(m["name"].as_str().is_some_and(|n| !n.is_empty()));
                pairs.push((
                    Felt::from_hex(contract).unwrap(),
                    m["entrypoint"].as_str().unwrap().to_owned(),
                ));
            }
        }
        let policies = SessionPolicies::new(pairs.iter().map(|(c, e)| (*c, e.as_str()))).unwrap();
        Session {
            expires_at: self.param("expires_at").parse().unwrap(),
            allowed_policies_root: policies.root(),
            metadata_hash: Felt::ZERO,
            session_key_guid: stark_signer_guid(Felt::from_hex(&self.param("public_key")).unwrap()),
            guardian_key_guid: Felt::ZERO,
        }
    }

    /// Waits for the command's end: (success, all of stdout, stderr).
    async fn finish(mut self) -> (bool, String, String) {
        let mut err = String::new();
        let mut stderr = self.child.stderr.take().unwrap();
        let status = tokio::time::timeout(Duration::from_secs(120), async {
            stderr.read_to_string(&mut err).await.unwrap();
            self.child.wait().await.unwrap()
        })
        .await
        .expect("session new ends");
        let rest = self.rest.await.unwrap();
        (status.success(), self.stdout + &rest, err)
    }
}

/// The keychain's answer as session.tsx builds it.
fn keychain_answer(c: &DeployedController, expires_at: &str) -> Value {
    json!({
        "username": "tester",
        "address": format!("{:#x}", c.address),
        "ownerGuid": format!("{:#x}", c.owner_guid),
        "transactionHash": "0x1",
        "expiresAt": expires_at,
    })
}

async fn setup() -> Option<(Devnet, PathBuf)> {
    let dir = class_dir()?;
    let devnet = common::start_devnet(&[]).await;
    Some((devnet, dir))
}

#[tokio::test]
async fn approval_by_callback_then_status_and_revoke() {
    let Some((devnet, class)) = setup().await else {
        return;
    };
    let controller = deploy_controller(&class, &devnet.url, 11).await;
    let home = Home::new(&devnet.url);
    // The API is unreachable here: polling fails quietly while the callback answers.
    let a = Approval::start(&home, "http://127.0.0.1:9/query", "10s").await;

    // The URL, field by field, against the stored record.
    let record = home.pending_record();
    assert_eq!(record["state"], "pending");
    assert!(
        !home.profile_dir().join("controller-session.json").exists(),
        "nothing in use before the approval"
    );
    assert_eq!(
        a.param("public_key"),
        record["public_key"].as_str().unwrap()
    );
    assert_eq!(a.param("expires_at"), record["expires_at"].to_string());
    assert_eq!(a.param("rpc_url"), devnet.url.as_str());
    assert_eq!(a.param("redirect_query_name"), "startapp");
    let callback = url::Url::parse(&a.param("callback_uri")).unwrap();
    assert_eq!(callback.scheme(), "http");
    assert_eq!(callback.host_str(), Some("localhost"));
    assert_eq!(callback.path(), "/callback");
    assert_eq!(a.param("redirect_uri"), callback.as_str());
    let session = a.session();
    let n_policies = record["policies"].as_array().unwrap().len();
    assert_eq!(
        n_policies, 9,
        "the practice game's entrypoints, no VRF on devnet"
    );

    // The owner approves: register_session on chain, then the keychain's POST.
    controller.register_session(&session).await;
    let answer = keychain_answer(&controller, &a.param("expires_at"));
    let r = reqwest::Client::new()
        .post(callback.clone())
        .json(&answer)
        .send()
        .await
        .expect("the callback answers");
    assert!(r.status().is_success(), "{}", r.status());
    let (ok, out, err) = a.finish().await;
    assert!(ok, "session new failed: {out}\n{err}");
    assert!(out.contains("session ready"), "{out}");
    assert!(out.contains(&format!("{:#x}", controller.address)), "{out}");
    assert!(
        out.contains(&format!("{n_policies} allowed entrypoints")),
        "{out}"
    );
    assert_eq!(home.record()["state"], "approved");
    assert_eq!(home.record()["username"], "tester");

    let (ok, status, status_err) = home.run(&["session", "status"]).await;
    assert!(ok, "{status_err}");
    assert!(status.contains("state: approved"), "{status}");
    assert!(
        status.contains("registered true, revoked false"),
        "{status}"
    );
    assert!(status.lines().any(|l| l == "ready"), "{status}");

    // (d) The key never shows: decrypted independently, searched in every output.
    home.assert_no_key(&[&out, &err, &status, &status_err]);
    let secret_forms = home.secret_forms();

    // A second `session new` left unapproved: the approved session stays in use throughout.
    let again = Approval::start_waiting(&home, "http://127.0.0.1:9/query", "2s", "3s").await;
    assert_eq!(home.pending_record()["state"], "pending");
    let (ok, during, _) = home.run(&["session", "status"]).await;
    assert!(ok);
    assert!(during.contains("state: approved"), "{during}");
    assert!(
        during.contains("is waiting for approval: this one stays in use"),
        "{during}"
    );
    let (ok, _, again_err) = again.finish().await;
    assert!(!ok, "no approval came");
    assert!(again_err.contains("no approval within"), "{again_err}");
    // Compared without printing: a failed assert_eq would show the key.
    assert!(
        home.secret_forms() == secret_forms,
        "the key in use is kept"
    );
    let (_, after_again, _) = home.run(&["session", "status"]).await;
    assert!(after_again.lines().any(|l| l == "ready"), "{after_again}");

    // Revoke: the key file is destroyed; the on-chain revocation is explained with the hash.
    let key_file = home.profile_dir().join("controller-session-key.json");
    let pending_key = home
        .profile_dir()
        .join("controller-session-key.pending.json");
    assert!(key_file.exists() && pending_key.exists());
    let (ok, revoke, _) = home.run(&["session", "revoke"]).await;
    assert!(ok);
    assert!(!key_file.exists() && !pending_key.exists());
    let hash = session.hash(controller.chain_id, controller.address);
    assert!(
        revoke.contains(&format!("revoke_session({hash:#x})")),
        "{revoke}"
    );
    for form in &secret_forms {
        assert!(!revoke.contains(form.as_str()));
    }
    let (_, after, _) = home.run(&["session", "status"]).await;
    assert!(after.contains("no Controller session stored"), "{after}");
}

/// The GraphQL stand-in's state: the answer to give, and the requests seen.
#[derive(Clone, Default)]
struct Api {
    answer: Arc<Mutex<Option<Value>>>,
    seen: Arc<Mutex<Vec<Value>>>,
}

async fn graphql(
    State(api): State<Api>,
    body: String,
) -> ([(&'static str, &'static str); 1], String) {
    api.seen
        .lock()
        .unwrap()
        .push(serde_json::from_str(&body).unwrap());
    let session = api.answer.lock().unwrap().clone();
    (
        [("content-type", "application/json")],
        json!({"data": {"subscribeCreateSession": session}}).to_string(),
    )
}

#[tokio::test]
async fn approval_by_polling_the_api() {
    let Some((devnet, class)) = setup().await else {
        return;
    };
    let controller = deploy_controller(&class, &devnet.url, 12).await;
    let api = Api::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let api_url = format!("http://{}/query", listener.local_addr().unwrap());
    let router = axum::Router::new()
        .route("/query", axum::routing::post(graphql))
        .with_state(api.clone());
    tokio::spawn(axum::serve(listener, router).into_future());

    let home = Home::new(&devnet.url);
    let a = Approval::start(&home, &api_url, "10s").await;
    let session = a.session();
    controller.register_session(&session).await;
    // The API's answer once the keychain reported the session (controller-cli `SessionInfo`).
    *api.answer.lock().unwrap() = Some(json!({
        "id": "1", "appID": "", "chainID": "SN_SEPOLIA", "isRevoked": false,
        "expiresAt": session.expires_at, "createdAt": "", "updatedAt": "",
        "authorization": [
            "0x617574686f72697a6174696f6e2d62792d72656769737465726564",
            format!("{:#x}", controller.owner_guid)
        ],
        "controller": {"address": format!("{:#x}", controller.address), "accountID": "poller"}
    }));
    let (ok, out, err) = a.finish().await;
    assert!(ok, "session new failed: {out}\n{err}");
    assert!(
        out.contains("session ready") && out.contains("(poller)"),
        "{out}"
    );
    let seen = api.seen.lock().unwrap().clone();
    assert!(!seen.is_empty());
    assert_eq!(
        seen[0]["variables"]["sessionKeyGuid"],
        home.record()["session_key_guid"]
    );
    assert!(
        seen[0]["query"]
            .as_str()
            .unwrap()
            .contains("subscribeCreateSession")
    );
    home.assert_no_key(&[&out, &err]);
}

#[tokio::test]
async fn an_unregistered_session_is_reported_not_registered() {
    let Some((devnet, class)) = setup().await else {
        return;
    };
    let controller = deploy_controller(&class, &devnet.url, 13).await;
    let home = Home::new(&devnet.url);
    let a = Approval::start(&home, "http://127.0.0.1:9/query", "3s").await;
    // The redirect form (base64 JSON without padding under ?startapp=), with nothing registered.
    let answer = keychain_answer(&controller, &a.param("expires_at"));
    let b64 = base64::engine::general_purpose::STANDARD
        .encode(answer.to_string())
        .trim_end_matches('=')
        .to_string();
    let mut callback = url::Url::parse(&a.param("callback_uri")).unwrap();
    callback.query_pairs_mut().append_pair("startapp", &b64);
    let r = reqwest::get(callback).await.expect("the callback answers");
    assert!(r.status().is_success(), "{}", r.status());
    let (ok, out, err) = a.finish().await;
    assert!(!ok, "an unregistered session must fail: {out}");
    assert!(err.contains("not registered"), "{err}");
    assert!(err.contains("session new"), "{err}");
    home.assert_no_key(&[&out, &err]);
}

/// `LS_GENERATION=v2 session new`: the approval names the v2 contracts and asks for the v2
/// deployment's calls (the Death Mountain preset's GameCore and GameToken methods and the VRF
/// request), the keychain's newer base64 POST body is taken, the session is ready; the same
/// session seen from the v1 profile is reported as approved for the v2 contracts.
#[tokio::test]
async fn a_v2_approval_asks_for_the_v2_deployments_calls() {
    let Some((devnet, class)) = setup().await else {
        return;
    };
    let controller = deploy_controller(&class, &devnet.url, 13).await;
    let home = Home::v2(&devnet.url);
    let a = Approval::start(&home, "http://127.0.0.1:9/query", "10s").await;
    assert!(
        a.stdout
            .contains("for the v2 contracts (GameCore 0x2000), generation v2"),
        "{}",
        a.stdout
    );
    let policies: Value = serde_json::from_str(&a.param("policies")).unwrap();
    let contract = |n: u32| policies["contracts"][format!("{:#066x}", n)].clone();
    let methods = |c: &Value| -> Vec<String> {
        let mut v: Vec<String> = c["methods"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["entrypoint"].as_str().unwrap().to_owned())
            .collect();
        v.sort();
        v
    };
    let core = contract(0x2000);
    assert_eq!(core["name"], "Game Core (v2)", "{policies}");
    assert!(
        core["description"]
            .as_str()
            .unwrap()
            .contains("the v2 contracts (GameCore 0x2000)"),
        "{core}"
    );
    assert_eq!(
        methods(&core),
        [
            "attack",
            "buy_items",
            "drop_items",
            "equip",
            "explore",
            "flee",
            "select_stat_upgrades",
            "start_game",
            "surrender"
        ]
    );
    assert_eq!(methods(&contract(0x2001)), ["mint_game"]);
    assert_eq!(methods(&contract(0x2003)), ["request_random"]);
    assert_eq!(policies["contracts"].as_object().unwrap().len(), 3);

    // The owner approves; the keychain's main branch POSTs the base64 JSON, padding stripped.
    let session = a.session();
    controller.register_session(&session).await;
    let answer = keychain_answer(&controller, &a.param("expires_at")).to_string();
    let body = base64::engine::general_purpose::STANDARD
        .encode(answer)
        .trim_end_matches('=')
        .to_owned();
    let callback = url::Url::parse(&a.param("callback_uri")).unwrap();
    let r = reqwest::Client::new()
        .post(callback)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("the callback answers");
    assert!(r.status().is_success(), "{}", r.status());
    let (ok, out, err) = a.finish().await;
    assert!(ok, "session new failed: {out}\n{err}");
    assert!(out.contains("session ready"), "{out}");
    assert!(out.contains("11 allowed entrypoints"), "{out}");

    let (ok, status, _) = home.run(&["session", "status"]).await;
    assert!(ok);
    assert!(status.lines().any(|l| l == "ready"), "{status}");
    let mut v1 = home.command(&["session", "status"]);
    v1.env_remove("LS_GENERATION");
    let out = v1.output().await.unwrap();
    let status = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        status.contains(
            "this Controller session was approved for the v2 contracts (GameCore 0x2000); this \
             server plays the v1 world's contracts (game systems 0x1000)"
        ) && status.contains("[other_deployment]"),
        "{status}"
    );
    assert!(status.contains("registered true"), "{status}");
}
