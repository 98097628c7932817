//! One Controller session per profile, kept in the profile's data directory: a public record
//! (`controller-session.json`: account, chain, owner GUID, expiry, policies, state) anyone may read,
//! and the session key in an encrypted v3 keystore (`controller-session-key.json`, mode 0600,
//! written atomically) that only the password opens. A new session waits for its approval in
//! `*.pending.json` files beside them, so the session in use keeps signing until the new one
//! replaces it. Nothing here prints or returns the key.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use starknet::core::types::Felt;
use starknet_types_core::felt::secret_felt::SecretFelt;
use zeroize::Zeroizing;

use super::{Session, SessionPolicies, SessionSigner, stark_signer_guid};
use crate::keystore::{KeystoreError, ScryptCost, decrypt_keystore, encrypt_keystore};
use crate::{SecretSigner, key_source::read_regular_file};

/// The public record's file name.
pub const RECORD_FILE: &str = "controller-session.json";
/// The encrypted key's file name.
pub const KEY_FILE: &str = "controller-session-key.json";
/// The record of a session waiting for approval.
pub const PENDING_RECORD_FILE: &str = "controller-session.pending.json";
/// The encrypted key of a session waiting for approval.
pub const PENDING_KEY_FILE: &str = "controller-session-key.pending.json";
/// Largest record accepted (a few hundred policies).
const MAX_RECORD_BYTES: u64 = 1 << 20;
/// Largest key file accepted.
const MAX_KEY_BYTES: u64 = 64 * 1024;

/// Why the stored session could not be used. Never holds key material or the password.
#[derive(Debug, thiserror::Error)]
pub enum SessionStoreError {
    /// No session is stored for this profile.
    #[error(
        "no Controller session is stored for this profile (run `loot-survivor-mcp session new`)"
    )]
    Missing,
    /// A session was begun but its approval has not come back.
    #[error(
        "the Controller session is waiting for approval (run `loot-survivor-mcp session new` again)"
    )]
    Pending,
    /// The stored session belongs to another chain.
    #[error("the stored Controller session is for chain {stored:#x}, not {wanted:#x}")]
    WrongChain {
        /// The chain the session was made for.
        stored: Felt,
        /// The chain the profile targets.
        wanted: Felt,
    },
    /// The key file could not be decrypted (wrong password, or an altered file).
    #[error("cannot decrypt the session key: {0}")]
    Decrypt(KeystoreError),
    /// A new key could not be made or encrypted (no randomness from the system).
    #[error("cannot make the session key: {0}")]
    Encrypt(KeystoreError),
    /// A file could not be read or written.
    #[error("{file}: {problem}")]
    Io {
        /// The file's name.
        file: &'static str,
        /// What went wrong.
        problem: String,
    },
    /// A file does not hold what this store writes.
    #[error("{file} is corrupt: {reason}")]
    Corrupt {
        /// The file's name.
        file: &'static str,
        /// What is wrong with it.
        reason: String,
    },
}

/// Whether the session is waiting for the owner or approved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordState {
    /// The key exists; the owner has not approved it yet.
    Pending,
    /// The owner approved it (account address and owner GUID known).
    Approved,
}

/// One allowed call, as the record stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyRecord {
    /// `0x` and 64 lower-case hex digits.
    pub contract: String,
    /// The entrypoint name.
    pub entrypoint: String,
}

/// The public part of a stored session: everything but the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionRecord {
    /// Pending or approved.
    pub state: RecordState,
    /// The chain id (`0x`-hex of the short string, e.g. `SN_SEPOLIA`).
    pub chain_id: String,
    /// The Controller account (`0x`-hex), once approved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// The GUID of the owner who registered the session (`0x`-hex), once approved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_guid: Option<String>,
    /// The Cartridge username, when the approval named it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// When the session expires (unix seconds).
    pub expires_at: u64,
    /// The session key's public key (`0x`-hex).
    pub public_key: String,
    /// `poseidon('Starknet Signer', public_key)` (`0x`-hex): what the API is polled with.
    pub session_key_guid: String,
    /// The allowed calls, in the keychain's leaf order.
    pub policies: Vec<PolicyRecord>,
}

impl SessionRecord {
    /// This record as the owner approved it.
    fn approved_by(mut self, approved: &ApprovedSession) -> Self {
        self.state = RecordState::Approved;
        self.address = Some(format!("{:#x}", approved.address));
        self.owner_guid = Some(format!("{:#x}", approved.owner_guid));
        self.expires_at = approved.expires_at;
        self.username = approved.username.clone();
        self
    }

    /// The chain id as a felt.
    pub fn chain_id(&self) -> Result<Felt, SessionStoreError> {
        record_felt("chain_id", &self.chain_id)
    }

    /// The session's policies, rebuilt from the record.
    pub fn session_policies(&self) -> Result<SessionPolicies, SessionStoreError> {
        let mut pairs = Vec::with_capacity(self.policies.len());
        for p in &self.policies {
            pairs.push((
                record_felt("policies.contract", &p.contract)?,
                p.entrypoint.as_str(),
            ));
        }
        SessionPolicies::new(pairs).map_err(|e| corrupt(RECORD_FILE, e.to_string()))
    }

    /// For an approved session: the account, the owner GUID and the session hash, computed from
    /// the public record alone (no password); `None` while pending.
    pub fn approved_parts(&self) -> Result<Option<(Felt, Felt, Felt)>, SessionStoreError> {
        let (Some(address), Some(owner_guid)) = (&self.address, &self.owner_guid) else {
            return Ok(None);
        };
        let address = record_felt("address", address)?;
        let session = Session {
            expires_at: self.expires_at,
            allowed_policies_root: self.session_policies()?.root(),
            metadata_hash: Felt::ZERO,
            session_key_guid: stark_signer_guid(record_felt("public_key", &self.public_key)?),
            guardian_key_guid: Felt::ZERO,
        };
        Ok(Some((
            address,
            record_felt("owner_guid", owner_guid)?,
            session.hash(self.chain_id()?, address),
        )))
    }
}

/// What the owner's approval tells us (from the keychain callback or the API).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovedSession {
    /// The Controller account.
    pub address: Felt,
    /// The GUID of the owner who registered the session.
    pub owner_guid: Felt,
    /// The expiry the owner approved (unix seconds; part of the session hash).
    pub expires_at: u64,
    /// The Cartridge username, when known.
    pub username: Option<String>,
}

/// A session just begun: what the approval request needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingSession {
    /// The session key's public key.
    pub public_key: Felt,
    /// Its signer GUID (the API's `sessionKeyGuid`).
    pub session_key_guid: Felt,
    /// The record as written.
    pub record: SessionRecord,
}

/// The session files of one profile.
#[derive(Debug, Clone)]
pub struct SessionStore {
    dir: PathBuf,
    cost: ScryptCost,
}

impl SessionStore {
    /// The store in `dir` (a profile's data directory; created on first write).
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            cost: ScryptCost::DEFAULT,
        }
    }

    /// The same store with another scrypt cost for new keys (tests use a cheap one).
    pub fn with_cost(mut self, cost: ScryptCost) -> Self {
        self.cost = cost;
        self
    }

    /// The public record's path.
    pub fn record_path(&self) -> PathBuf {
        self.dir.join(RECORD_FILE)
    }

    /// The encrypted key's path.
    pub fn key_path(&self) -> PathBuf {
        self.dir.join(KEY_FILE)
    }

    /// The path of the record of the session waiting for approval.
    pub fn pending_record_path(&self) -> PathBuf {
        self.dir.join(PENDING_RECORD_FILE)
    }

    /// The path of the key of the session waiting for approval.
    pub fn pending_key_path(&self) -> PathBuf {
        self.dir.join(PENDING_KEY_FILE)
    }

    /// Generates a fresh session key, stores it encrypted under `password`, and records a pending
    /// session for `policies` on `chain_id` until `expires_at`, beside the session in use (which
    /// stays until [`approve`](Self::approve)); replaces any other session waiting for approval.
    pub fn begin(
        &self,
        chain_id: Felt,
        policies: &SessionPolicies,
        expires_at: u64,
        password: &[u8],
    ) -> Result<PendingSession, SessionStoreError> {
        let mut key = random_key()?;
        let json =
            encrypt_keystore(&key, password, self.cost).map_err(SessionStoreError::Decrypt)?;
        let public_key = SecretSigner::new(SecretFelt::from_bytes_be(&mut key)).public_key();
        let session_key_guid = stark_signer_guid(public_key);
        let record = SessionRecord {
            state: RecordState::Pending,
            chain_id: format!("{chain_id:#x}"),
            address: None,
            owner_guid: None,
            username: None,
            expires_at,
            public_key: format!("{public_key:#x}"),
            session_key_guid: format!("{session_key_guid:#x}"),
            policies: policies
                .policies()
                .iter()
                .map(|p| PolicyRecord {
                    contract: p.contract_hex(),
                    entrypoint: p.entrypoint.clone(),
                })
                .collect(),
        };
        std::fs::create_dir_all(&self.dir).map_err(|e| io(PENDING_RECORD_FILE, e))?;
        // The record goes first: a key without a record is never loaded, and the next `begin`
        // overwrites both.
        write_atomic(
            &self.pending_record_path(),
            PENDING_RECORD_FILE,
            record_json(&record)?.as_bytes(),
        )?;
        write_atomic(&self.pending_key_path(), PENDING_KEY_FILE, json.as_bytes())?;
        Ok(PendingSession {
            public_key,
            session_key_guid,
            record,
        })
    }

    /// Records the owner's approval of the session waiting for it, which then replaces the
    /// session in use (its key first, then its record); without one, of the session in use.
    pub fn approve(&self, approved: &ApprovedSession) -> Result<SessionRecord, SessionStoreError> {
        let Some(pending) = self.pending_record()? else {
            let record = self
                .record()?
                .ok_or(SessionStoreError::Missing)?
                .approved_by(approved);
            let json = record_json(&record)?;
            write_atomic(&self.record_path(), RECORD_FILE, json.as_bytes())?;
            return Ok(record);
        };
        let record = pending.approved_by(approved);
        let json = record_json(&record)?;
        write_atomic(
            &self.pending_record_path(),
            PENDING_RECORD_FILE,
            json.as_bytes(),
        )?;
        std::fs::rename(self.pending_key_path(), self.key_path())
            .map_err(|e| io(PENDING_KEY_FILE, e))?;
        self.promote_pending_record()?;
        Ok(record)
    }

    /// Completes an approval cut short between its two renames: the approved pending record of
    /// the key now in use (`public_key`) goes over the old record. Whether it did.
    fn finish_approval(&self, public_key: &str) -> Result<bool, SessionStoreError> {
        match self.pending_record()? {
            Some(p) if p.state == RecordState::Approved && p.public_key == public_key => {
                self.promote_pending_record()?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The pending record renamed over the record in use (the second rename of an approval).
    fn promote_pending_record(&self) -> Result<(), SessionStoreError> {
        std::fs::rename(self.pending_record_path(), self.record_path())
            .map_err(|e| io(PENDING_RECORD_FILE, e))?;
        base::files::sync_dir(&self.dir);
        Ok(())
    }

    /// The public record of the session in use, without the password; `None` when there is none.
    pub fn record(&self) -> Result<Option<SessionRecord>, SessionStoreError> {
        read_record(&self.record_path(), RECORD_FILE)
    }

    /// The public record of the session waiting for approval, if one is.
    pub fn pending_record(&self) -> Result<Option<SessionRecord>, SessionStoreError> {
        read_record(&self.pending_record_path(), PENDING_RECORD_FILE)
    }

    /// Decrypts the approved session's key and builds its signer for `chain_id`.
    pub fn load_signer(
        &self,
        chain_id: Felt,
        password: &[u8],
    ) -> Result<SessionSigner, SessionStoreError> {
        let Some(record) = self.record()? else {
            return Err(match self.pending_record()? {
                Some(_) => SessionStoreError::Pending,
                None => SessionStoreError::Missing,
            });
        };
        let stored = record.chain_id()?;
        if stored != chain_id {
            return Err(SessionStoreError::WrongChain {
                stored,
                wanted: chain_id,
            });
        }
        let (Some(address), Some(owner_guid)) = (&record.address, &record.owner_guid) else {
            return match record.state {
                RecordState::Pending => Err(SessionStoreError::Pending),
                RecordState::Approved => Err(corrupt(RECORD_FILE, "approved without an account")),
            };
        };
        if record.state == RecordState::Pending {
            return Err(SessionStoreError::Pending);
        }
        let address = record_felt("address", address)?;
        let owner_guid = record_felt("owner_guid", owner_guid)?;
        let policies = record.session_policies()?;
        let key = self.decrypt(password)?;
        let public_key = format!("{:#x}", key.public_key());
        if public_key != record.public_key {
            if self.finish_approval(&public_key)? {
                return self.load_signer(chain_id, password);
            }
            return Err(corrupt(
                KEY_FILE,
                "its key does not match the record's public key",
            ));
        }
        Ok(SessionSigner::new_as_registered(
            key,
            address,
            owner_guid,
            chain_id,
            policies,
            record.expires_at,
        ))
    }

    /// Decrypts the key of the session in use.
    pub fn decrypt(&self, password: &[u8]) -> Result<SecretSigner, SessionStoreError> {
        decrypt_file(&self.key_path(), KEY_FILE, password)
    }

    /// Destroys the keys (overwritten, then deleted) and deletes the records, of the session in
    /// use and of the one waiting for approval. Returns whether anything was stored.
    pub fn remove(&self) -> Result<bool, SessionStoreError> {
        let mut any = false;
        for (key, file) in [
            (self.key_path(), KEY_FILE),
            (self.pending_key_path(), PENDING_KEY_FILE),
        ] {
            if let Ok(meta) = std::fs::symlink_metadata(&key) {
                any = true;
                if meta.is_file() {
                    let zeros = vec![0u8; meta.len() as usize];
                    let _ = std::fs::OpenOptions::new()
                        .write(true)
                        .open(&key)
                        .and_then(|mut f| f.write_all(&zeros).and_then(|()| f.sync_all()));
                }
                std::fs::remove_file(&key).map_err(|e| io(file, e))?;
            }
        }
        for (record, file) in [
            (self.record_path(), RECORD_FILE),
            (self.pending_record_path(), PENDING_RECORD_FILE),
        ] {
            match std::fs::remove_file(record) {
                Ok(()) => any = true,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io(file, e)),
            }
        }
        Ok(any)
    }
}

/// A record file, `None` when absent.
fn read_record(
    path: &Path,
    file: &'static str,
) -> Result<Option<SessionRecord>, SessionStoreError> {
    if !path.exists() {
        return Ok(None);
    }
    let bytes = read_regular_file(path, MAX_RECORD_BYTES)
        .map_err(|problem| SessionStoreError::Io { file, problem })?;
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| corrupt(file, e.to_string()))
}

/// A key file, decrypted.
fn decrypt_file(
    path: &Path,
    file: &'static str,
    password: &[u8],
) -> Result<SecretSigner, SessionStoreError> {
    if !path.exists() {
        return Err(SessionStoreError::Missing);
    }
    let bytes = read_regular_file(path, MAX_KEY_BYTES)
        .map_err(|problem| SessionStoreError::Io { file, problem })?;
    let json = std::str::from_utf8(&bytes).map_err(|_| corrupt(file, "not UTF-8"))?;
    decrypt_keystore(json, password).map_err(SessionStoreError::Decrypt)
}

/// A uniformly random private key below 2^251 (so below the field prime), never zero.
fn random_key() -> Result<Zeroizing<[u8; 32]>, SessionStoreError> {
    let mut key = Zeroizing::new([0u8; 32]);
    loop {
        getrandom::fill(&mut key[..])
            .map_err(|e| SessionStoreError::Decrypt(KeystoreError::Random(e.to_string())))?;
        key[0] &= 0x07;
        if key.iter().any(|&b| b != 0) {
            return Ok(key);
        }
    }
}

fn record_json(record: &SessionRecord) -> Result<String, SessionStoreError> {
    serde_json::to_string_pretty(record).map_err(|e| corrupt(RECORD_FILE, e.to_string()))
}

fn record_felt(field: &str, hex: &str) -> Result<Felt, SessionStoreError> {
    match hex.strip_prefix("0x") {
        Some(_) => {
            Felt::from_hex(hex).map_err(|_| corrupt(RECORD_FILE, format!("{field} is not a felt")))
        }
        None => Err(corrupt(RECORD_FILE, format!("{field} is not 0x-hex"))),
    }
}

fn corrupt(file: &'static str, reason: impl Into<String>) -> SessionStoreError {
    SessionStoreError::Corrupt {
        file,
        reason: reason.into(),
    }
}

fn io(file: &'static str, e: std::io::Error) -> SessionStoreError {
    SessionStoreError::Io {
        file,
        problem: e.kind().to_string(),
    }
}

/// [`base::files::write_atomic`], its error naming `file`.
fn write_atomic(path: &Path, file: &'static str, bytes: &[u8]) -> Result<(), SessionStoreError> {
    base::files::write_atomic(path, bytes).map_err(|e| io(file, e))
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
