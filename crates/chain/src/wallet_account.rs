//! The wallet's account as starknet-rs sees it: one account type for both ways this server signs,
//! a single Stark key (OpenZeppelin-style accounts: signature `[r, s]`) or a Cartridge Controller
//! session key (the session token with one merkle proof per call). Calls are encoded the Cairo 1
//! way (`[n, (to, selector, len, calldata…)…]`), as both account kinds read them.

use std::sync::Arc;

use starknet::accounts::{
    Account, AccountError, ConnectedAccount, ExecutionEncoder, RawDeclarationV3, RawExecutionV3,
};
use starknet::core::types::{BlockId, BlockTag, Call, Felt};
use starknet::providers::Provider;
use starknet::signers::{Signer, SignerInteractivityContext};

use super::bindings::entrypoint_name;
use super::{ChainError, Unservable};
use crate::controller::slot::SessionSlot;
use crate::signing::SigningError;
use wallet::{CARTRIDGE_VRF_PROVIDER, PolicyDenied, SecretSigner, SessionError};

/// The policy rule a session refusal names.
pub const SESSION_POLICIES: &str = "session_policies";

/// Who signs for the account.
#[derive(Debug, Clone)]
pub enum AccountSigner {
    /// The account's own Stark key.
    Key(Arc<SecretSigner>),
    /// A Controller session key the account's owner approved (reloadable).
    Session(Arc<SessionSlot>),
    /// No key and no account: a server that only reads; every write is refused before anything
    /// is built ([`ChainError::NoSigner`]).
    Watch,
}

impl AccountSigner {
    /// The session slot, when signing as a session.
    pub fn session(&self) -> Option<&SessionSlot> {
        match self {
            AccountSigner::Session(s) => Some(s),
            AccountSigner::Key(_) | AccountSigner::Watch => None,
        }
    }

    /// Refuses to sign when the signer cannot (a session that is missing, expired, revoked,
    /// unregistered, or on an unsupported class); a key always can.
    pub async fn ready<P: Provider + Sync>(&self, provider: &P) -> Result<(), ChainError> {
        match self {
            AccountSigner::Key(_) => Ok(()),
            AccountSigner::Session(s) => s.ready(provider).await,
            AccountSigner::Watch => Err(ChainError::NoSigner),
        }
    }

    /// A failed write as the signer explains it: a session refusal becomes the session's typed
    /// problem; anything else is returned as it is.
    pub async fn refused<P: Provider + Sync>(&self, provider: &P, err: ChainError) -> ChainError {
        match self {
            AccountSigner::Key(_) | AccountSigner::Watch => err,
            AccountSigner::Session(s) => s.refused(provider, err).await,
        }
    }

    /// Refuses, before anything is signed, calls the session's policies do not allow (a key
    /// allows whatever the server's own policy allowed).
    pub fn check_calls(&self, calls: &[Call]) -> Result<(), ChainError> {
        match self {
            AccountSigner::Key(_) => Ok(()),
            AccountSigner::Watch => Err(ChainError::NoSigner),
            AccountSigner::Session(s) => s
                .require()?
                .proofs(calls)
                .map(drop)
                .map_err(session_refusal),
        }
    }

    /// The account signature of `hash` (a transaction or outside-execution hash) over `calls`.
    pub async fn sign(&self, hash: Felt, calls: &[Call]) -> Result<Vec<Felt>, ChainError> {
        match self {
            AccountSigner::Key(key) => key
                .sign_hash(&hash)
                .await
                .map(|s| vec![s.r, s.s])
                .map_err(|e| ChainError::Signing(SigningError::Key(Arc::new(e)))),
            AccountSigner::Watch => Err(ChainError::NoSigner),
            AccountSigner::Session(s) => s
                .require()?
                .sign(hash, calls)
                .await
                .map_err(session_refusal),
        }
    }
}

/// A session refusal as the tools report it: `POLICY_DENIED` naming the entrypoint.
fn session_refusal(e: SessionError) -> ChainError {
    match e {
        SessionError::NotInPolicies { contract, selector } => {
            let name = entrypoint_name(selector)
                .map(str::to_string)
                .unwrap_or_else(|| format!("{selector:#x}"));
            let vrf = if contract == CARTRIDGE_VRF_PROVIDER {
                " (the VRF provider)"
            } else {
                ""
            };
            ChainError::Policy(PolicyDenied {
                rule: SESSION_POLICIES,
                message: format!(
                    "the Controller session does not allow `{name}` on contract {contract:#x}{vrf}"
                ),
                setting: "session",
            })
        }
        SessionError::CallToSelf { selector } => ChainError::Policy(PolicyDenied {
            rule: SESSION_POLICIES,
            message: format!(
                "a Controller session may not call its own account (entrypoint {selector:#x})"
            ),
            setting: "session",
        }),
        other => ChainError::Signing(SigningError::Session(Arc::new(other))),
    }
}

/// The wallet's account on one chain.
#[derive(Debug)]
pub struct WalletAccount<P> {
    provider: P,
    address: Felt,
    chain_id: Felt,
    signer: AccountSigner,
}

impl<P> WalletAccount<P> {
    /// The account at `address` on `chain_id`, signing with `signer`.
    pub fn new(provider: P, address: Felt, chain_id: Felt, signer: AccountSigner) -> Self {
        Self {
            provider,
            address,
            chain_id,
            signer,
        }
    }

    /// Who signs.
    pub fn signer(&self) -> &AccountSigner {
        &self.signer
    }
}

/// Declarations are not signed by the wallet's account in this server.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct AccountSignError(Box<ChainError>);

/// An error of the wallet's account as the chain layer reports it: a signing failure is the chain
/// error its signer failed with, as it was (a refusal of the policy or a session stays one).
pub(crate) fn account_error(e: AccountError<AccountSignError>) -> ChainError {
    match e {
        AccountError::Signing(AccountSignError(e)) => *e,
        other => ChainError::from_account(other),
    }
}

#[async_trait::async_trait]
impl<P: starknet::providers::Provider + Send + Sync> Account for WalletAccount<P> {
    type SignError = AccountSignError;

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
        self.signer
            .sign(hash, execution.calls())
            .await
            .map_err(|e| AccountSignError(Box::new(e)))
    }

    async fn sign_declaration_v3(
        &self,
        _declaration: &RawDeclarationV3,
        _query_only: bool,
    ) -> Result<Vec<Felt>, Self::SignError> {
        Err(AccountSignError(Box::new(ChainError::Invalid(
            Unservable::Declaration,
        ))))
    }

    fn is_signer_interactive(&self, _context: SignerInteractivityContext<'_>) -> bool {
        false
    }
}

impl<P> ExecutionEncoder for WalletAccount<P> {
    fn encode_calls(&self, calls: &[Call]) -> Vec<Felt> {
        let mut out = vec![Felt::from(calls.len())];
        for call in calls {
            out.extend([call.to, call.selector, Felt::from(call.calldata.len())]);
            out.extend_from_slice(&call.calldata);
        }
        out
    }
}

impl<P: starknet::providers::Provider + Send + Sync> ConnectedAccount for WalletAccount<P> {
    type Provider = P;

    fn provider(&self) -> &P {
        &self.provider
    }

    fn block_id(&self) -> BlockId {
        BlockId::Tag(BlockTag::PreConfirmed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use starknet::accounts::{ExecutionEncoding, SingleOwnerAccount};
    use starknet_types_core::felt::secret_felt::SecretFelt;
    use wallet::SessionSigner;
    use wallet::session::SessionPolicies;

    fn key(hex: &str) -> SecretSigner {
        SecretSigner::new(SecretFelt::from_hex_string(&mut hex.to_string()).unwrap())
    }

    fn call(to: u64, name: &str) -> Call {
        Call {
            to: Felt::from(to),
            selector: starknet::core::utils::get_selector_from_name(name).unwrap(),
            calldata: vec![Felt::from(7), Felt::ZERO],
        }
    }

    #[test]
    fn calls_are_encoded_as_starknet_rs_encodes_cairo_1_accounts() {
        let rpc = || {
            starknet::providers::JsonRpcClient::new(
                starknet::providers::jsonrpc::HttpTransport::new(
                    url::Url::parse("http://127.0.0.1:9").unwrap(),
                ),
            )
        };
        let signer = AccountSigner::Key(Arc::new(key("0x1")));
        let ours = WalletAccount::new(rpc(), Felt::ONE, Felt::TWO, signer);
        let theirs = SingleOwnerAccount::new(
            rpc(),
            key("0x1"),
            Felt::ONE,
            Felt::TWO,
            ExecutionEncoding::New,
        );
        let calls = [call(5, "explore"), call(6, "attack")];
        assert_eq!(ours.encode_calls(&calls), theirs.encode_calls(&calls));
    }

    #[tokio::test]
    async fn a_key_signs_r_and_s_and_a_session_refuses_calls_outside_its_policies() {
        let plain = AccountSigner::Key(Arc::new(key("0x1234")));
        let sig = plain.sign(Felt::from(99), &[]).await.unwrap();
        assert_eq!(sig.len(), 2);
        let policies = SessionPolicies::new([(Felt::from(5u64), "explore")]).unwrap();
        let session = SessionSigner::new_as_registered(
            key("0x5678"),
            Felt::from(0xacc_u64),
            Felt::from(0x5555_u64),
            Felt::TWO,
            policies,
            2_000_000_000,
        );
        let stored = std::sync::Mutex::new(Some(session));
        let slot = SessionSlot::new(
            Box::new(move || Ok(stored.lock().unwrap().take())),
            "loot-survivor-mcp session new",
        );
        let session = AccountSigner::Session(Arc::new(slot));
        assert!(session.check_calls(&[call(5, "explore")]).is_ok());
        let refused = session.check_calls(&[call(5, "attack")]).unwrap_err();
        let ChainError::Policy(d) = refused else {
            panic!("{refused:?}")
        };
        assert_eq!(d.rule, "session_policies");
        assert!(d.message.contains("`attack`"), "{}", d.message);
        assert!(
            session
                .sign(Felt::ONE, &[call(5, "explore"), call(6, "flee")])
                .await
                .is_err()
        );
        for name in [
            "request_random",
            "buy_game",
            "claim_free_game",
            "approve",
            "explore",
        ] {
            let selector = starknet::core::utils::get_selector_from_name(name).unwrap();
            assert_eq!(entrypoint_name(selector), Some(name));
        }
    }
}
