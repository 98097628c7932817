//! A profile's session store opened with its password, for a server that must read the session
//! again while it runs (a session approved meanwhile); the password never leaves this layer.

use starknet::core::types::Felt;
use zeroize::Zeroizing;

use super::{SessionSigner, SessionStore, SessionStoreError};

/// The store, its password, and the account and chain the session must be for.
pub struct UnlockedStore {
    store: SessionStore,
    password: Zeroizing<String>,
    account: Felt,
    chain_id: Felt,
}

impl std::fmt::Debug for UnlockedStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UnlockedStore")
            .field("account", &format_args!("{:#x}", self.account))
            .finish_non_exhaustive()
    }
}

impl UnlockedStore {
    /// Opens `store` for sessions of `account` on `chain_id`.
    pub fn new(
        store: SessionStore,
        password: Zeroizing<String>,
        account: Felt,
        chain_id: Felt,
    ) -> Self {
        Self {
            store,
            password,
            account,
            chain_id,
        }
    }

    /// The approved session stored now (`Ok(None)`: none, or not approved yet); a session of
    /// another account is an error, worded for the player.
    pub fn load(&self) -> Result<Option<SessionSigner>, String> {
        match self
            .store
            .load_signer(self.chain_id, self.password.as_bytes())
        {
            Ok(s) if s.address() == self.account => Ok(Some(s)),
            Ok(s) => Err(format!(
                "the stored session is for account {:#x}, not {:#x}",
                s.address(),
                self.account
            )),
            Err(SessionStoreError::Missing | SessionStoreError::Pending) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }
}
