//! Controller sessions end to end on starknet-devnet with the real Controller account class
//! (v1.0.9, from cartridge-gg/controller-rs `account_sdk/artifacts/classes`): declare it, deploy a
//! Controller owned by a Stark key through the UDC, let the owner register a session with an
//! owner-signed `__execute__` (as controller-rs `session_test.rs` does on Katana, no browser),
//! check `is_session_registered`, then send a session-signed `__execute__` of an allowed call and
//! see it succeed, and see a call outside the policies refused by our signer before signing.
//!
//! The class files are a test fixture that is never committed: read from the fixture folder beside
//! the checkout (see `class_dir`) or from `LS_CONTROLLER_CLASS_DIR`; the test is skipped, with a
//! message, when they are absent. Needs starknet-devnet (`scripts/install-devnet.sh`).

mod common;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use loot_survivor_mcp::devnet::{Devnet, devnet_binary, free_port};
use loot_survivor_mcp::wallet::SecretSigner;
use loot_survivor_mcp::wallet::session::{
    SessionError, SessionPolicies, SessionSigner, stark_signer_guid,
};
use serde_json::json;
use starknet::accounts::{
    Account, ConnectedAccount, ExecutionEncoder, ExecutionEncoding, RawDeclarationV3,
    RawExecutionV3, SingleOwnerAccount,
};
use starknet::contract::{ContractFactory, UdcSelector};
use starknet::core::types::contract::SierraClass;
use starknet::core::types::{
    BlockId, BlockTag, Call, ExecutionResult, Felt, FunctionCall, TransactionReceiptWithBlockInfo,
};
use starknet::macros::selector;
use starknet::providers::jsonrpc::HttpTransport;
use starknet::providers::{JsonRpcClient, Provider};
use starknet::signers::{Signer, SignerInteractivityContext};
use starknet_types_core::felt::secret_felt::SecretFelt;

/// The Controller class hash (controller-rs `artifacts/metadata.json`, "latest" = v1.0.9).
const CONTROLLER_CLASS_HASH: Felt =
    Felt::from_hex_unchecked("0x743c83c41ce99ad470aa308823f417b2141e02e04571f5c0004e743556e7faf");
/// The Blake2s compiled class hash of that class as starknet-devnet 0.10.1 recompiles it,
/// printed by this project's `tools/casm-hash` for `controller.v1.0.9.contract_class.json`.
const CONTROLLER_CASM_BLAKE2S: Felt =
    Felt::from_hex_unchecked("0x1a3c1de98467d2ed0fb13522affdf30f75892fbfc3637bf7af4e1b4ac489b70");
/// STRK on devnet (its mainnet address); fees are paid in it and the session transfers some.
const STRK: Felt =
    Felt::from_hex_unchecked("0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d");
/// Devnet's predeployed account #0 (seed 0) and its public dev key: declares and deploys.
const DEPLOYER: Felt =
    Felt::from_hex_unchecked("0x064b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691");
const DEPLOYER_KEY: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";
/// Test-only keys of the Controller's owner and of the session.
const OWNER_KEY: &str = "0x3a1f0c9e8d7b6a5f4e3d2c1b0a9f8e7d";
const SESSION_KEY: &str = "0x5e5510c0ffee5e5510c0ffee5e5510c0";

type Rpc = JsonRpcClient<HttpTransport>;

fn signer(hex: &str) -> SecretSigner {
    let mut key = Felt::from_hex(hex).unwrap();
    SecretSigner::new(SecretFelt::from_felt(&mut key))
}

/// The folder holding the Controller class files, or `None` (with a message).
fn class_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("LS_CONTROLLER_CLASS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/controller")
        });
    if dir.join("controller.v1.0.9.contract_class.json").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: the Controller v1.0.9 class is not at {} (set LS_CONTROLLER_CLASS_DIR to a \
             folder with controller.v1.0.9.contract_class.json from controller-rs artifacts)",
            dir.display()
        );
        None
    }
}

/// How the Controller account signs: as its owner, or as a registered session key.
enum ControllerKey {
    Owner(SecretSigner),
    Session(Box<SessionSigner>),
}

/// A starknet-rs account for a Controller, producing the Controller's signature formats.
struct Controller {
    provider: Rpc,
    address: Felt,
    chain_id: Felt,
    key: ControllerKey,
}

#[derive(Debug, thiserror::Error)]
enum ControllerSignError {
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error("owner signature failed: {0}")]
    Owner(String),
    #[error("declaring from a Controller is not used here")]
    Declare,
}

#[async_trait::async_trait]
impl Account for Controller {
    type SignError = ControllerSignError;

    fn address(&self) -> Felt {
        self.address
    }

    fn chain_id(&self) -> Felt {
        self.chain_id
    }

    async fn sign_execution_v3(
        &self,
        execution: &RawExecutionV3,
        query_only: bool,
    ) -> Result<Vec<Felt>, Self::SignError> {
        let hash = execution.transaction_hash(self.chain_id, self.address, query_only, self);
        match &self.key {
            ControllerKey::Owner(key) => {
                let sig = key
                    .sign_hash(&hash)
                    .await
                    .map_err(|e| ControllerSignError::Owner(e.to_string()))?;
                // Array<SignerSignature> of one `Starknet` variant: [1, 0, pubkey, r, s].
                Ok(vec![Felt::ONE, Felt::ZERO, key.public_key(), sig.r, sig.s])
            }
            ControllerKey::Session(session) => Ok(session.sign(hash, execution.calls()).await?),
        }
    }

    async fn sign_declaration_v3(
        &self,
        _declaration: &RawDeclarationV3,
        _query_only: bool,
    ) -> Result<Vec<Felt>, Self::SignError> {
        Err(ControllerSignError::Declare)
    }

    fn is_signer_interactive(&self, _context: SignerInteractivityContext<'_>) -> bool {
        false
    }
}

impl ExecutionEncoder for Controller {
    fn encode_calls(&self, calls: &[Call]) -> Vec<Felt> {
        let mut out = vec![Felt::from(calls.len())];
        for call in calls {
            out.extend([call.to, call.selector, Felt::from(call.calldata.len())]);
            out.extend_from_slice(&call.calldata);
        }
        out
    }
}

impl ConnectedAccount for Controller {
    type Provider = Rpc;

    fn provider(&self) -> &Rpc {
        &self.provider
    }

    fn block_id(&self) -> BlockId {
        BlockId::Tag(BlockTag::PreConfirmed)
    }
}

/// Waits for a receipt and asserts the transaction succeeded.
async fn succeeded(provider: &Rpc, hash: Felt, what: &str) {
    for _ in 0..100 {
        if let Ok(TransactionReceiptWithBlockInfo { receipt, .. }) =
            provider.get_transaction_receipt(hash).await
        {
            match receipt.execution_result() {
                ExecutionResult::Succeeded => return,
                ExecutionResult::Reverted { reason } => panic!("{what} reverted: {reason}"),
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: no receipt for {hash:#x}");
}

async fn view(provider: &Rpc, to: Felt, selector: Felt, calldata: Vec<Felt>) -> Vec<Felt> {
    provider
        .call(
            FunctionCall {
                contract_address: to,
                entry_point_selector: selector,
                calldata,
            },
            BlockId::Tag(BlockTag::PreConfirmed),
        )
        .await
        .expect("view call")
}

async fn strk_balance(provider: &Rpc, who: Felt) -> Felt {
    view(provider, STRK, selector!("balance_of"), vec![who]).await[0]
}

#[tokio::test]
async fn a_registered_session_signs_allowed_calls_on_a_real_controller() {
    let Some(dir) = class_dir() else {
        return;
    };
    devnet_binary()
        .expect("starknet-devnet is required for this test: run scripts/install-devnet.sh");
    let devnet = Devnet::start(free_port().unwrap())
        .await
        .expect("devnet starts");
    let provider = JsonRpcClient::new(HttpTransport::new(devnet.url.clone()));
    let chain_id = provider.chain_id().await.unwrap();

    // Declare the class and deploy a Controller owned by a Stark key.
    let text = std::fs::read_to_string(dir.join("controller.v1.0.9.contract_class.json")).unwrap();
    let class: SierraClass = serde_json::from_str(&text).expect("the Sierra class parses");
    let flat = class.flatten().unwrap();
    assert_eq!(flat.class_hash(), CONTROLLER_CLASS_HASH);
    let mut deployer = SingleOwnerAccount::new(
        provider.clone(),
        signer(DEPLOYER_KEY),
        DEPLOYER,
        chain_id,
        ExecutionEncoding::New,
    );
    deployer.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));
    let declared = deployer
        .declare_v3(Arc::new(flat), CONTROLLER_CASM_BLAKE2S)
        .send()
        .await
        .expect("declare the Controller class");
    succeeded(&provider, declared.transaction_hash, "declare").await;

    let owner = signer(OWNER_KEY);
    let owner_guid = stark_signer_guid(owner.public_key());
    // constructor(owner: Owner::Signer(Signer::Starknet(pubkey)), guardian: Option::None).
    let factory = ContractFactory::new_with_udc(CONTROLLER_CLASS_HASH, &deployer, UdcSelector::New);
    let deployment = factory.deploy_v3(
        vec![Felt::ZERO, Felt::ZERO, owner.public_key(), Felt::ONE],
        Felt::from(7),
        false,
    );
    let address = deployment.deployed_address();
    let sent = deployment.send().await.expect("deploy the Controller");
    succeeded(&provider, sent.transaction_hash, "deploy").await;
    common::rpc(
        &devnet.url,
        "devnet_mint",
        json!({"address": format!("{address:#x}"), "amount": 10_000_000_000_000_000_000u64, "unit": "FRI"}),
    )
    .await;

    // The session: STRK transfers only, for an hour.
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let policies = SessionPolicies::new([(STRK, "transfer")]).unwrap();
    let session = SessionSigner::new_as_registered(
        signer(SESSION_KEY),
        address,
        owner_guid,
        chain_id,
        policies,
        now + 3600,
    );

    // The owner registers it on chain: register_session(session, owner_guid) on the account.
    let as_owner = Controller {
        provider: provider.clone(),
        address,
        chain_id,
        key: ControllerKey::Owner(owner),
    };
    let mut calldata = session.session().to_felts().to_vec();
    calldata.push(owner_guid);
    let register = Call {
        to: address,
        selector: selector!("register_session"),
        calldata,
    };
    let sent = as_owner
        .execute_v3(vec![register])
        .send()
        .await
        .expect("owner registers the session");
    succeeded(&provider, sent.transaction_hash, "register_session").await;
    let registered = view(
        &provider,
        address,
        selector!("is_session_registered"),
        vec![session.session_hash(), owner_guid],
    )
    .await;
    assert_eq!(
        registered,
        vec![Felt::ONE],
        "our session hash is the account's"
    );

    // A session-signed transfer is accepted and moves the tokens.
    let recipient = Felt::from(0x5eed_u64);
    let before = strk_balance(&provider, recipient).await;
    let as_session = Controller {
        provider: provider.clone(),
        address,
        chain_id,
        key: ControllerKey::Session(Box::new(session)),
    };
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
    succeeded(&provider, sent.transaction_hash, "session transfer").await;
    assert_eq!(
        strk_balance(&provider, recipient).await,
        before + Felt::from(1234)
    );

    // A call outside the policies is refused by our signer; nothing reaches the node.
    let ControllerKey::Session(session) = &as_session.key else {
        unreachable!()
    };
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
}
