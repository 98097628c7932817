//! A real Cartridge Controller (v1.0.9, from cartridge-gg/controller-rs
//! `account_sdk/artifacts/classes`) on starknet-devnet: declare the class, deploy an account owned
//! by a Stark key through the UDC, fund it, and let the owner register a session with an
//! owner-signed `__execute__` (as controller-rs `session_test.rs` does on Katana, no browser).
//!
//! The class files are a test fixture that is never committed: read from the fixture folder beside
//! the checkout (see [`class_dir`]) or from `LS_CONTROLLER_CLASS_DIR`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use loot_survivor_mcp::chain::controller::slot::SessionSlot;
use loot_survivor_mcp::chain::wallet_account::{AccountSigner, WalletAccount};
use loot_survivor_mcp::wallet::SecretSigner;
use loot_survivor_mcp::wallet::session::{
    ApprovedSession, Session, SessionPolicies, SessionSigner, SessionStore, stark_signer_guid,
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
pub const CONTROLLER_CLASS_HASH: Felt =
    Felt::from_hex_unchecked("0x743c83c41ce99ad470aa308823f417b2141e02e04571f5c0004e743556e7faf");
/// The Blake2s compiled class hash of that class as starknet-devnet 0.10.1 recompiles it,
/// printed by this project's `tools/casm-hash` for `controller.v1.0.9.contract_class.json`.
pub const CONTROLLER_CASM_BLAKE2S: Felt =
    Felt::from_hex_unchecked("0x1a3c1de98467d2ed0fb13522affdf30f75892fbfc3637bf7af4e1b4ac489b70");
/// STRK on devnet (its mainnet address).
pub const STRK: Felt =
    Felt::from_hex_unchecked("0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d");
/// Devnet's predeployed account #0 (seed 0) and its public dev key: declares and deploys.
pub const DEPLOYER: Felt =
    Felt::from_hex_unchecked("0x064b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691");
pub const DEPLOYER_KEY: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";
/// Test-only key of the Controller's owner.
pub const OWNER_KEY: &str = "0x3a1f0c9e8d7b6a5f4e3d2c1b0a9f8e7d";

pub type Rpc = JsonRpcClient<HttpTransport>;

pub fn signer(hex: &str) -> SecretSigner {
    let mut key = Felt::from_hex(hex).unwrap();
    SecretSigner::new(SecretFelt::from_felt(&mut key))
}

/// The folder holding the Controller class files, or `None` (with a message saying the test is
/// skipped).
pub fn class_dir() -> Option<PathBuf> {
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

/// A starknet-rs account for a Controller signing as its owner (signature `[1, 0, pubkey, r, s]`,
/// an `Array<SignerSignature>` of one `Starknet` variant); calls are encoded as the server's own
/// wallet account encodes them.
pub struct Controller {
    pub provider: Rpc,
    pub address: Felt,
    pub chain_id: Felt,
    pub owner: SecretSigner,
    /// The server's account type, for the call encoding.
    encoding: WalletAccount<Rpc>,
}

impl Controller {
    pub fn new(provider: Rpc, address: Felt, chain_id: Felt, owner: SecretSigner) -> Self {
        let unused = AccountSigner::Key(Arc::new(signer(DEPLOYER_KEY)));
        Self {
            encoding: WalletAccount::new(provider.clone(), address, chain_id, unused),
            provider,
            address,
            chain_id,
            owner,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ControllerSignError {
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
        let sig = self
            .owner
            .sign_hash(&hash)
            .await
            .map_err(|e| ControllerSignError::Owner(e.to_string()))?;
        Ok(vec![
            Felt::ONE,
            Felt::ZERO,
            self.owner.public_key(),
            sig.r,
            sig.s,
        ])
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
        self.encoding.encode_calls(calls)
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

/// The server's wallet account for `address`, signing with `session` alone.
pub fn session_account(provider: Rpc, session: SessionSigner) -> WalletAccount<Rpc> {
    let (address, chain_id) = (session.address(), session.chain_id());
    let stored = std::sync::Mutex::new(Some(session));
    let slot = SessionSlot::new(
        Box::new(move || Ok(stored.lock().unwrap().take())),
        "loot-survivor-mcp session new",
    );
    WalletAccount::new(
        provider,
        address,
        chain_id,
        AccountSigner::Session(Arc::new(slot)),
    )
}

/// Waits for a receipt and asserts the transaction succeeded.
pub async fn succeeded(provider: &Rpc, hash: Felt, what: &str) {
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

pub async fn view(provider: &Rpc, to: Felt, selector: Felt, calldata: Vec<Felt>) -> Vec<Felt> {
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

/// `who`'s STRK balance (its low word: the balances here stay far below 2^128).
pub async fn strk_balance(provider: &Rpc, who: Felt) -> Felt {
    view(provider, STRK, selector!("balance_of"), vec![who]).await[0]
}

/// The session key stored in `key_file`, decrypted with the `eth-keystore` crate, independently of
/// the server's own keystore code.
pub fn stored_session_key(key_file: &std::path::Path, password: &str) -> Felt {
    let bytes = eth_keystore::decrypt_key(key_file, password).expect("eth-keystore reads it");
    Felt::from_bytes_be_slice(&bytes)
}

/// A Controller deployed on a devnet, with its owner's key.
pub struct DeployedController {
    pub address: Felt,
    pub chain_id: Felt,
    pub owner_guid: Felt,
    pub owner: Controller,
}

/// Declares the Controller class (once per devnet) and deploys an account owned by
/// [`OWNER_KEY`] with `salt`, funded with 10 STRK.
pub async fn deploy_controller(
    dir: &std::path::Path,
    url: &url::Url,
    salt: u64,
) -> DeployedController {
    let provider = JsonRpcClient::new(HttpTransport::new(url.clone()));
    let chain_id = provider.chain_id().await.unwrap();
    let mut deployer = SingleOwnerAccount::new(
        provider.clone(),
        signer(DEPLOYER_KEY),
        DEPLOYER,
        chain_id,
        ExecutionEncoding::New,
    );
    deployer.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));
    let declared = provider
        .get_class(BlockId::Tag(BlockTag::PreConfirmed), CONTROLLER_CLASS_HASH)
        .await
        .is_ok();
    if !declared {
        let text =
            std::fs::read_to_string(dir.join("controller.v1.0.9.contract_class.json")).unwrap();
        let class: SierraClass = serde_json::from_str(&text).expect("the Sierra class parses");
        let flat = class.flatten().unwrap();
        assert_eq!(flat.class_hash(), CONTROLLER_CLASS_HASH);
        let sent = deployer
            .declare_v3(Arc::new(flat), CONTROLLER_CASM_BLAKE2S)
            .send()
            .await
            .expect("declare the Controller class");
        succeeded(&provider, sent.transaction_hash, "declare").await;
    }
    let owner = signer(OWNER_KEY);
    let owner_guid = stark_signer_guid(owner.public_key());
    // constructor(owner: Owner::Signer(Signer::Starknet(pubkey)), guardian: Option::None).
    let factory = ContractFactory::new_with_udc(CONTROLLER_CLASS_HASH, &deployer, UdcSelector::New);
    let deployment = factory.deploy_v3(
        vec![Felt::ZERO, Felt::ZERO, owner.public_key(), Felt::ONE],
        Felt::from(salt),
        false,
    );
    let address = deployment.deployed_address();
    let sent = deployment.send().await.expect("deploy the Controller");
    succeeded(&provider, sent.transaction_hash, "deploy").await;
    super::rpc(
        url,
        "devnet_mint",
        json!({"address": format!("{address:#x}"), "amount": 10_000_000_000_000_000_000u64, "unit": "FRI"}),
    )
    .await;
    DeployedController {
        address,
        chain_id,
        owner_guid,
        owner: Controller::new(provider, address, chain_id, owner),
    }
}

impl DeployedController {
    /// The real binary serving `world` through `rpc` (the paymaster stand-in), signing as this
    /// Controller with the session stored under `home` (unlocked with `password`), set up as the
    /// player's guide says: `wallet.kind = "session"` and nothing else, so the profile's own
    /// `wallet.account_address` (devnet's first predeployed account) stays as it is and the
    /// stored session's account must win.
    pub async fn session_client(
        &self,
        world: &super::World,
        rpc: &url::Url,
        home: &std::path::Path,
        password: &str,
        extra_env: &[(&str, &str)],
    ) -> super::Client {
        let mut env = vec![
            ("LS_HOME", home.to_str().unwrap()),
            ("LS_WALLET__KIND", "session"),
            ("LS_KEYSTORE_PASSWORD", password),
        ];
        env.extend_from_slice(extra_env);
        world.client_at(rpc, (), &env).await
    }

    /// The owner sends one call from the account (an owner-signed `__execute__`) and waits.
    pub async fn owner_calls(&self, call: Call, what: &str) {
        let sent = self
            .owner
            .execute_v3(vec![call])
            .send()
            .await
            .unwrap_or_else(|e| panic!("owner {what}: {e}"));
        succeeded(&self.owner.provider, sent.transaction_hash, what).await;
    }

    /// The owner registers `session`: `register_session(session, owner_guid)` on the account.
    pub async fn register_session(&self, session: &Session) {
        let mut calldata = session.to_felts().to_vec();
        calldata.push(self.owner_guid);
        let call = Call {
            to: self.address,
            selector: selector!("register_session"),
            calldata,
        };
        self.owner_calls(call, "register_session").await;
    }

    /// Plays `session new` and the owner's approval without a browser: a fresh key in `store`
    /// for `pairs` until `expires_at`, the approval recorded, the session registered on chain.
    /// Returns the stored session's signer.
    pub async fn store_session(
        &self,
        store: &SessionStore,
        pairs: &[(Felt, &str)],
        expires_at: u64,
        password: &str,
    ) -> SessionSigner {
        let policies = SessionPolicies::new(pairs.iter().copied()).unwrap();
        store
            .begin(self.chain_id, &policies, expires_at, password.as_bytes())
            .unwrap();
        store
            .approve(&ApprovedSession {
                address: self.address,
                owner_guid: self.owner_guid,
                expires_at,
                username: None,
            })
            .unwrap();
        let signer = store
            .load_signer(self.chain_id, password.as_bytes())
            .unwrap();
        self.register_session(signer.session()).await;
        signer
    }

    /// A fresh data directory whose `profile` holds a session for the v1 world of `manifest`
    /// (the deployment's own policies, no VRF), valid for an hour and registered on chain: the
    /// guide's `session new`, without a browser.
    pub async fn v1_session_home(
        &self,
        manifest: &std::path::Path,
        profile: &str,
        password: &str,
    ) -> tempfile::TempDir {
        use loot_survivor_mcp::chain::Deployment;
        use loot_survivor_mcp::chain::controller::policies::session_policy_pairs;
        use loot_survivor_mcp::chain::manifest::{GameAddresses, read_manifest};
        let addresses = GameAddresses::from_map(&read_manifest(manifest).unwrap()).unwrap();
        let pairs = session_policy_pairs(&Deployment::V1(addresses), false);
        let home = tempfile::tempdir().unwrap();
        let store = SessionStore::at(home.path().join(profile))
            .with_cost(loot_survivor_mcp::wallet::ScryptCost { log_n: 4 });
        let expires_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
            + 3600;
        self.store_session(&store, &pairs, expires_at, password)
            .await;
        home
    }

    /// The owner revokes the session with this hash: `revoke_session(session_hash)`.
    pub async fn revoke_session(&self, session_hash: Felt) {
        let call = Call {
            to: self.address,
            selector: selector!("revoke_session"),
            calldata: vec![session_hash],
        };
        self.owner_calls(call, "revoke_session").await;
    }

    /// `is_session_registered(session_hash, owner_guid)`.
    pub async fn is_registered(&self, session_hash: Felt) -> bool {
        view(
            &self.owner.provider,
            self.address,
            selector!("is_session_registered"),
            vec![session_hash, self.owner_guid],
        )
        .await
            == vec![Felt::ONE]
    }
}
