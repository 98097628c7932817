//! Controller sessions end to end on starknet-devnet with the real Controller account class
//! (v1.0.9): deploy a Controller owned by a Stark key, let the owner register a session, check
//! `is_session_registered` and the session state the server reads, then send a session-signed
//! `__execute__` of an allowed call and see it succeed, see a call outside the policies refused by
//! our signer before signing, and see the owner's revocation read as a typed problem.
//!
//! Skipped, with a message, without the Controller class fixture (`common::controller::class_dir`).
//! Needs starknet-devnet (`scripts/install-devnet.sh`).

use crate::common;

use std::time::{SystemTime, UNIX_EPOCH};

use common::controller::{
    STRK, class_dir, deploy_controller, session_account, signer, strk_balance,
};
use loot_survivor_mcp::chain::controller::state::{SessionProblem, read_session_state};
use loot_survivor_mcp::wallet::session::{SessionError, SessionPolicies, SessionSigner};
use starknet::accounts::{Account, ConnectedAccount};
use starknet::core::types::{Call, Felt};
use starknet::macros::selector;
use starknet::providers::JsonRpcClient;
use starknet::providers::jsonrpc::HttpTransport;

/// Test-only key of the session.
const SESSION_KEY: &str = "0x5e5510c0ffee5e5510c0ffee5e5510c0";

#[tokio::test]
async fn a_registered_session_signs_allowed_calls_on_a_real_controller() {
    let Some(dir) = class_dir() else {
        return;
    };
    let devnet = common::start_devnet(&[]).await;
    let provider = JsonRpcClient::new(HttpTransport::new(devnet.url.clone()));
    let controller = deploy_controller(&dir, &devnet.url, 7).await;
    let address = controller.address;

    // The session: STRK transfers only, for an hour.
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let policies = SessionPolicies::new([(STRK, "transfer")]).unwrap();
    let session = SessionSigner::new_as_registered(
        signer(SESSION_KEY),
        address,
        controller.owner_guid,
        controller.chain_id,
        policies,
        now + 3600,
    );
    let before = read_session_state(&provider, &session).await.unwrap();
    assert_eq!(before.class.map(|c| c.version), Some("v1.0.9"));
    assert_eq!(before.problem(now), Some(SessionProblem::NotRegistered));

    controller.register_session(session.session()).await;
    assert!(
        controller.is_registered(session.session_hash()).await,
        "our session hash is the account's"
    );
    assert_eq!(
        read_session_state(&provider, &session)
            .await
            .unwrap()
            .problem(now),
        None
    );

    // A session-signed transfer is accepted and moves the tokens.
    let recipient = Felt::from(0x5eed_u64);
    let balance = strk_balance(&provider, recipient).await;
    let session_hash = session.session_hash();
    let as_session = session_account(provider.clone(), session);
    let transfer = Call {
        to: STRK,
        selector: selector!("transfer"),
        calldata: vec![recipient, Felt::from(1234), Felt::ZERO],
    };
    let sent = as_session
        .execute_v3(vec![transfer])
        .send()
        .await
        .expect("the session key signs an allowed call");
    common::controller::succeeded(&provider, sent.transaction_hash, "session transfer").await;
    assert_eq!(
        strk_balance(&provider, recipient).await,
        balance + Felt::from(1234)
    );

    // A call outside the policies is refused by our signer; nothing reaches the node.
    let session = as_session.signer().session().unwrap().require().unwrap();
    let approve = Call {
        to: STRK,
        selector: selector!("approve"),
        calldata: vec![recipient, Felt::from(1), Felt::ZERO],
    };
    let err = session
        .sign(Felt::ONE, std::slice::from_ref(&approve))
        .await
        .unwrap_err();
    assert!(
        matches!(err, SessionError::NotInPolicies { contract, selector }
            if contract == STRK && selector == selector!("approve")),
        "{err}"
    );
    let nonce_before = as_session.get_nonce().await.unwrap();
    assert!(as_session.execute_v3(vec![approve]).send().await.is_err());
    assert_eq!(as_session.get_nonce().await.unwrap(), nonce_before);

    // The owner revokes it: the state reads revoked.
    controller.revoke_session(session_hash).await;
    assert_eq!(
        read_session_state(&provider, &session)
            .await
            .unwrap()
            .problem(now),
        Some(SessionProblem::Revoked)
    );
}
