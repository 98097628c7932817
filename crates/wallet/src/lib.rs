//! The signing wallet: a key that never leaves this layer (an encrypted keystore, a raw key from the
//! environment or a file, or a public devnet key in the profile), a signer that starknet-rs accounts
//! use, and the policy guard consulted before anything is signed.

mod key_source;
mod keystore;
mod policy;
mod policy_settings;
pub mod session;
mod signer;
mod spending;
mod ticket_approve;
mod wallet_settings;

pub use key_source::{
    ENV_KEYSTORE_PASSWORD, ENV_PRIVATE_KEY, KeyError, KeySource, LoadedKey, load_key, load_signer,
    session_password,
};
/// Test keystores (scrypt or PBKDF2 at a chosen cost), for this and higher layers' tests.
#[cfg(any(test, feature = "testing"))]
pub use keystore::testing as keystore_testing;
pub use keystore::{KeystoreError, ScryptCost, decrypt_keystore, encrypt_keystore, read_keystore};
pub use policy::{
    CARTRIDGE_VRF_PROVIDER, POLICY_DENIED, PolicyDenied, PolicyGuard, PolicySnapshot,
    REQUEST_RANDOM_SELECTOR, VrfForm,
};
pub use policy_settings::{FRI_PER_STRK, FeeAmount, PolicySettings, format_strk, parse_fri};
pub use session::{SessionError, SessionSigner};
pub use signer::SecretSigner;
pub use spending::{
    MemorySpending, RATE_WINDOW, SpendingLog, Usage, day_start_ms, in_window, unix_ms,
};
pub use ticket_approve::TicketApprove;
pub use wallet_settings::{WalletKind, WalletSettings};
