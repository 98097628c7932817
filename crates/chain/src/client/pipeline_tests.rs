//! The write pipeline against a scripted node and paymaster: no devnet, real signing, the node's
//! literal wire format through starknet-rs's own client.

use std::sync::Arc;
use std::time::Duration;

use starknet::core::types::Felt;
use starknet::macros::selector;
use starknet_types_core::felt::secret_felt::SecretFelt;
use wallet::session::{SessionPolicies, SessionSigner};
use wallet::{PolicyGuard, PolicySettings, SecretSigner};

use super::scripted::{
    ACCOUNT, CHAIN_ID, GAME_CORE, GAME_SYSTEMS, GAME_TOKEN_SYSTEMS, ScriptedChain, Sponsor, TOKEN,
};
use super::{ChainClient, ConnectOptions, WriteOptions};
use crate::controller::cartridge::CartridgePaymaster;
use crate::controller::slot::SessionSlot;
use crate::node::NodeTransport;
use crate::paymaster::Paymaster;
use crate::wallet_account::AccountSigner;
use crate::{
    CartridgeError, ChainError, Confirm, Deployment, GameAddresses, Hooks, TxStatus, V2Contracts,
};
use game::engine::Action;
use game::model::Adventurer;

const EXPLORE: Action = Action::Explore { till_beast: false };

fn felt(hex: &str) -> Felt {
    Felt::from_hex(hex).unwrap()
}

fn key(hex: &str) -> SecretSigner {
    SecretSigner::new(SecretFelt::from_hex_string(&mut hex.to_string()).unwrap())
}

fn addresses() -> GameAddresses {
    GameAddresses {
        world: None,
        game_systems: felt(GAME_SYSTEMS),
        adventurer_systems: felt("0xad7e"),
        game_token_systems: felt(GAME_TOKEN_SYSTEMS),
        settings_systems: felt("0x5e77"),
        dungeon: None,
        ticket: None,
        golden_pass: None,
    }
}

pub(super) fn owner_key() -> AccountSigner {
    AccountSigner::Key(Arc::new(key("0x1234abcd")))
}

/// A Controller session allowed to mint, start and explore, registered and live.
fn session() -> AccountSigner {
    let load = || {
        let policies = SessionPolicies::new([
            (felt(GAME_TOKEN_SYSTEMS), "mint_game"),
            (felt(GAME_SYSTEMS), "start_game"),
            (felt(GAME_SYSTEMS), "explore"),
        ])
        .map_err(|e| e.to_string())?;
        Ok(Some(SessionSigner::new_as_registered(
            key("0x5e55"),
            felt(ACCOUNT),
            felt("0x6017d"),
            felt(CHAIN_ID),
            policies,
            4_000_000_000,
        )))
    };
    AccountSigner::Session(Arc::new(SessionSlot::new(
        Box::new(load),
        "loot-survivor-mcp session new",
    )))
}

async fn client_with(
    chain: &ScriptedChain,
    paymaster: Arc<dyn Paymaster>,
    signer: AccountSigner,
    vrf: bool,
) -> ChainClient {
    connect_to(chain, paymaster, signer, vrf, Deployment::V1(addresses()))
        .await
        .expect("connects to the scripted node")
}

pub(super) async fn connect_to(
    chain: &ScriptedChain,
    paymaster: Arc<dyn Paymaster>,
    signer: AccountSigner,
    vrf: bool,
    deployment: Deployment,
) -> Result<ChainClient, ChainError> {
    let settings = PolicySettings {
        read_only: false,
        max_fee_per_tx: 10u128.pow(18),
        session_fee_budget: 10u128.pow(19),
        daily_fee_budget: 10u128.pow(20),
        max_tx_per_minute: 1_000,
        allow_vrf: None,
    };
    let policy = PolicyGuard::new(&settings, vrf, deployment.signable_entrypoints());
    let opts = ConnectOptions {
        rpc_url: url::Url::parse("http://scripted.invalid/").unwrap(),
        request_timeout: Duration::from_secs(5),
        chain_id: Felt::from_bytes_be_slice(b"SN_SEPOLIA"),
        spec_versions: vec!["0.9".into()],
        deployment,
        account_address: felt(ACCOUNT),
        signer,
        settings_id: 0,
        poll: Duration::from_millis(10),
        fee_multiplier: 1.5,
        policy: Arc::new(policy),
        vrf,
    };
    let node = NodeTransport::InProcess(Arc::new(chain.clone()));
    let client = ChainClient::connect_through(opts, node, paymaster)
        .await?
        .with_token_count_storage("token_count")
        .unwrap();
    chain.with(|s| s.log.clear());
    Ok(client)
}

async fn client(chain: &ScriptedChain, signer: AccountSigner, vrf: bool) -> ChainClient {
    client_with(chain, Arc::new(chain.clone()), signer, vrf).await
}

pub(super) fn opts(timeout: Duration) -> WriteOptions {
    WriteOptions {
        confirm: Confirm::Accepted,
        timeout,
        hooks: Hooks::default(),
    }
}

fn asked(chain: &ScriptedChain, method: &str) -> usize {
    chain.with(|s| s.log.iter().filter(|m| *m == method).count())
}

#[tokio::test]
async fn a_stale_nonce_is_read_again_once_and_the_write_lands() {
    let chain = ScriptedChain::new(6);
    chain.with(|s| s.lagging_nonce_reads = 1);
    let client = client(&chain, owner_key(), false).await;
    let report = client
        .act(1.into(), &EXPLORE, None, opts(Duration::from_secs(5)))
        .await
        .expect("lands after one re-read");
    assert_eq!(asked(&chain, "starknet_getNonce"), 2);
    assert_eq!(asked(&chain, "starknet_estimateFee"), 2);
    let sent = chain.with(|s| s.sent.clone());
    assert_eq!(sent, vec![(6, report.tx_hash)]);
    let record = client.ledger().get(report.tx_hash).expect("journaled");
    assert_eq!(record.nonce, "0x6");
}

#[tokio::test]
async fn a_nonce_the_node_keeps_refusing_is_reported_after_one_re_read() {
    let chain = ScriptedChain::new(6);
    chain.with(|s| s.lagging_nonce_reads = 2);
    let client = client(&chain, owner_key(), false).await;
    let err = client
        .act(1.into(), &EXPLORE, None, opts(Duration::from_secs(5)))
        .await
        .expect_err("the node answers a stale nonce twice");
    assert!(
        matches!(err, ChainError::Rpc(crate::RpcFailure::NonceRejected)),
        "{err:?}"
    );
    assert_eq!(asked(&chain, "starknet_getNonce"), 2);
    assert_eq!(asked(&chain, "starknet_addInvokeTransaction"), 0);
}

#[tokio::test]
async fn a_receipt_that_never_comes_is_a_timeout_naming_the_sent_hash() {
    let chain = ScriptedChain::new(0);
    chain.with(|s| s.withhold_receipts = true);
    let client = client(&chain, owner_key(), false).await;
    let err = client
        .act(1.into(), &EXPLORE, None, opts(Duration::from_millis(150)))
        .await
        .expect_err("no receipt within the timeout");
    let sent = chain.with(|s| s.sent.clone());
    assert_eq!(sent.len(), 1);
    let ChainError::Timeout {
        tx_hash,
        last_status,
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!(tx_hash, sent[0].1);
    assert_eq!(last_status, TxStatus::Received);
    assert_eq!(
        client.ledger().get(tx_hash).map(|r| r.last_status),
        Some(TxStatus::Received)
    );
}

#[tokio::test]
async fn a_declined_sponsorship_is_sent_by_the_account_itself() {
    let chain = ScriptedChain::new(3);
    chain.with(|s| s.sponsor = Sponsor::Declines);
    let client = client(&chain, session(), false).await;
    let report = client
        .act(1.into(), &EXPLORE, None, opts(Duration::from_secs(5)))
        .await
        .expect("the account sends what the paymaster declined");
    let log = chain.with(|s| s.log.clone());
    let relay = log
        .iter()
        .position(|m| m == "paymaster")
        .expect("asked the paymaster");
    let send = log
        .iter()
        .position(|m| m == "starknet_addInvokeTransaction")
        .expect("sent directly");
    assert!(relay < send, "{log:?}");
    assert_eq!(asked(&chain, "paymaster"), 1);
    assert_eq!(chain.with(|s| s.sent.clone()), vec![(3, report.tx_hash)]);
}

#[tokio::test]
async fn a_paymaster_that_is_down_is_a_typed_error_and_nothing_is_sent() {
    let chain = ScriptedChain::new(0);
    let closed = url::Url::parse("http://127.0.0.1:9/").unwrap();
    let down = Arc::new(CartridgePaymaster::new(reqwest::Client::new(), closed));
    let client = client_with(&chain, down, session(), false).await;
    let err = client
        .act(1.into(), &EXPLORE, None, opts(Duration::from_secs(5)))
        .await
        .expect_err("nobody listens at the paymaster's address");
    let ChainError::Cartridge(CartridgeError::Http(source)) = &err else {
        panic!("{err:?}")
    };
    assert!(source.inner().is_connect(), "{err}");
    assert_eq!(asked(&chain, "starknet_addInvokeTransaction"), 0);
    assert_eq!(asked(&chain, "starknet_estimateFee"), 0);
}

#[tokio::test]
async fn two_concurrent_sponsored_new_games_get_two_ids() {
    let chain = ScriptedChain::new(0);
    let client = client(&chain, session(), false).await;
    let (a, b) = tokio::join!(
        client.mint_and_start(None, 12, opts(Duration::from_secs(5))),
        client.mint_and_start(None, 46, opts(Duration::from_secs(5))),
    );
    let (a, b) = (a.expect("first game"), b.expect("second game"));
    let mut ids = [a.adventurer_id, b.adventurer_id];
    ids.sort();
    assert_eq!(ids, [1u64, 2]);
    assert_eq!(asked(&chain, "paymaster"), 2);
    assert_eq!(asked(&chain, "starknet_addInvokeTransaction"), 0);
    let starts: Vec<Felt> = chain.with(|s| {
        s.executed
            .iter()
            .flat_map(|calls| calls.iter())
            .filter(|(selector, _)| *selector == selector!("start_game"))
            .map(|(_, calldata)| calldata[0])
            .collect()
    });
    assert_eq!(starts.len(), 2);
    assert_ne!(starts[0], starts[1]);
}

#[tokio::test]
async fn a_vrf_action_with_the_state_in_hand_reads_nothing_before_sending() {
    let chain = ScriptedChain::new(0);
    let client = client(&chain, owner_key(), true).await;
    let before = Adventurer::default();
    client
        .act(
            1.into(),
            &EXPLORE,
            Some(&before),
            opts(Duration::from_secs(5)),
        )
        .await
        .expect("relayed");
    let log = chain.with(|s| s.log.clone());
    assert_eq!(
        log.first().map(String::as_str),
        Some("paymaster"),
        "{log:?}"
    );
    let executed = chain.with(|s| s.executed.clone());
    let selectors: Vec<Felt> = executed[0].iter().map(|(s, _)| *s).collect();
    assert_eq!(
        selectors,
        vec![selector!("request_random"), selector!("explore")]
    );
}

#[tokio::test]
async fn a_session_revoked_meanwhile_is_read_from_the_chain_whatever_the_paymaster_said() {
    let chain = ScriptedChain::new(0);
    chain.with(|s| s.sponsor = Sponsor::RevokedMeanwhile);
    let client = client(&chain, session(), false).await;
    let err = client
        .act(1.into(), &EXPLORE, None, opts(Duration::from_secs(5)))
        .await
        .expect_err("the paymaster refused it");
    let ChainError::Session { problem, sent, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*problem, crate::controller::state::SessionProblem::Revoked);
    assert!(*sent, "it was signed and reached the paymaster");
    assert_eq!(asked(&chain, "starknet_addInvokeTransaction"), 0);
}

fn v2(vrf_source: Option<crate::VrfSource>) -> Deployment {
    Deployment::V2(V2Contracts {
        game_core: felt(GAME_CORE),
        game_token: felt(GAME_TOKEN_SYSTEMS),
        denshokan: felt(TOKEN),
        vrf_provider: felt("0xf00"),
        dungeon: None,
        minter: None,
        vrf_source,
        vrf_consumer: None,
        vrf_settings: None,
        legacy_envelope_until: None,
    })
}

#[tokio::test]
async fn an_unset_vrf_source_refuses_a_v2_explore_before_anything_reaches_the_node() {
    let chain = ScriptedChain::new(6);
    let paymaster = Arc::new(chain.clone());
    let client = connect_to(&chain, paymaster, owner_key(), false, v2(None))
        .await
        .unwrap();
    let e = client
        .act(1.into(), &EXPLORE, None, opts(Duration::from_secs(5)))
        .await
        .unwrap_err();
    assert!(
        matches!(e, ChainError::VrfSourceUnset { action: "explore" }),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(
        text.contains("loot-survivor-mcp check --settle-vrf")
            && text.contains("set deployment.vrf_source in the profile"),
        "{e}"
    );
    assert_eq!(chain.with(|s| s.log.clone()), Vec::<String>::new());
    // An action that draws nothing is sent as usual.
    let drop = Action::Drop { items: vec![1] };
    client
        .act(1.into(), &drop, None, opts(Duration::from_secs(5)))
        .await
        .unwrap();
    assert_eq!(chain.with(|s| s.sent.len()), 1);
}

#[tokio::test]
async fn connect_names_a_generation_mismatch() {
    let chain = ScriptedChain::new(0);
    let paymaster: Arc<dyn Paymaster> = Arc::new(chain.clone());
    let mut game_core_as_v1 = addresses();
    game_core_as_v1.game_systems = felt(GAME_CORE);
    let e = connect_to(
        &chain,
        paymaster.clone(),
        owner_key(),
        false,
        Deployment::V1(game_core_as_v1),
    )
    .await
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the profile says v1 but 0x6a3e answers as a v2 GameCore"
    );
    let mut v2_at_the_world = v2(Some(crate::VrfSource::Off));
    if let Deployment::V2(c) = &mut v2_at_the_world {
        c.game_core = felt(GAME_SYSTEMS);
    }
    let e = connect_to(&chain, paymaster, owner_key(), false, v2_at_the_world)
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the profile says v2 but 0x9a3e answers as a v1 Dojo world"
    );
}

#[tokio::test]
async fn an_archived_deployment_refuses_every_new_game_before_anything_reaches_the_node() {
    use crate::entry::Entry;
    let chain = ScriptedChain::new(6);
    let archive = crate::Archive {
        what: "the Dojo world ls_0_0_9".into(),
        date: "2026-05-11".into(),
        source: None,
        successor: Some("mainnet".into()),
        allow_entry: false,
    };
    let client = client(&chain, owner_key(), false)
        .await
        .with_archive(Some(archive.clone()));
    let refused = |e: ChainError, entry: &str| {
        assert!(
            matches!(&e, ChainError::Archived(a) if a.entry == entry),
            "{entry}: {e:?}"
        );
    };
    let o = || opts(Duration::from_secs(5));
    refused(client.mint_game(None, o()).await.unwrap_err(), "mint");
    refused(
        client.mint_and_start(None, 12, o()).await.unwrap_err(),
        "mint",
    );
    for entry in [
        Entry::Ticket,
        Entry::GoldenPass { token_id: 1 },
        Entry::Free,
    ] {
        refused(
            client.enter_game(entry, None, o()).await.unwrap_err(),
            entry.name(),
        );
    }
    assert_eq!(chain.with(|s| s.log.clone()), Vec::<String>::new());

    let allowed = client.with_archive(Some(crate::Archive {
        allow_entry: true,
        ..archive
    }));
    allowed.mint_game(None, o()).await.unwrap();
    assert!(!chain.with(|s| s.log.clone()).is_empty());
}

#[tokio::test]
async fn a_v2_deployment_offers_entry_mint_only() {
    use crate::entry::Entry;
    let chain = ScriptedChain::new(6);
    let paymaster = Arc::new(chain.clone());
    let client = connect_to(&chain, paymaster, owner_key(), false, v2(None))
        .await
        .unwrap();
    client.check_entry(Entry::Mint).unwrap();
    for entry in [
        Entry::Ticket,
        Entry::GoldenPass { token_id: 1 },
        Entry::Free,
    ] {
        let e = client.check_entry(entry).unwrap_err().to_string();
        assert!(e.contains("use entry \"mint\""), "{e}");
        assert!(!e.contains("chain.contracts"), "{e}");
        let sent = client
            .enter_game(entry, None, opts(Duration::from_secs(5)))
            .await
            .unwrap_err();
        assert_eq!(sent.to_string(), e);
    }
    assert_eq!(chain.with(|s| s.log.clone()), Vec::<String>::new());
}
