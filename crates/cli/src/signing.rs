//! Who signs for the server: the account's own key, or (`wallet.kind = "session"`) the Controller
//! session stored in the profile's data directory by `session new`.

use std::collections::HashMap;
use std::sync::Arc;

use crate::config::Settings;
use anyhow::{Context as _, bail};
use base::home;
use chain::controller::slot::SessionSlot;
use chain::wallet_account::AccountSigner;
use game::felt::parse_felt;
use starknet::core::types::Felt;
use wallet::session::{SessionStore, UnlockedStore};
use wallet::{WalletKind, session_password};

use super::devnet::account_and_signer;

/// The account address and its signer as the profile's wallet settings say.
pub(crate) fn wallet_signer(
    settings: &Settings,
    env: &HashMap<String, String>,
) -> anyhow::Result<(Felt, AccountSigner)> {
    if settings.wallet.kind == WalletKind::Key {
        if settings.wallet.account_address.is_none()
            && matches!(
                wallet::load_signer(&settings.wallet, settings.is_mainnet(), env),
                Err(wallet::KeyError::Missing)
            )
        {
            tracing::warn!(
                "no account and no key are configured: serving read-only (reads work; every write \
                 is refused; set LS_ACCOUNT_ADDRESS and a key, or use a Controller session, to play)"
            );
            return Ok((Felt::ZERO, AccountSigner::Watch));
        }
        let (address, key) = account_and_signer(settings, env)?;
        return Ok((address, AccountSigner::Key(key)));
    }
    let deployment = settings.deployment()?;
    // A session must be made for the generation this server plays: the command names it.
    let generation = format!("LS_GENERATION={} ", deployment.generation());
    let renew = format!(
        "{generation}loot-survivor-mcp session new --profile {}",
        settings.profile
    );
    let store =
        SessionStore::at(home::profile_dir(&settings.profile).context("the data directory")?);
    let stored = store
        .record()?
        .and_then(|r| r.address)
        .map(|a| parse_felt(&a).map_err(anyhow::Error::msg))
        .transpose()?;
    let configured = settings
        .wallet
        .account_address
        .as_deref()
        .map(|a| parse_felt(a).map_err(anyhow::Error::msg))
        .transpose()?;
    let address = match (configured, stored) {
        (Some(c), Some(s)) => {
            if c != s {
                // A session signs only for its own account; a profile that names another one
                // (devnet's and katana's name their first predeployed account) must not stop it.
                // Account addresses are public: both are shown.
                tracing::warn!(
                    session_account = %format!("{s:#x}"),
                    wallet_account_address = %format!("{c:#x}"),
                    "the stored Controller session signs for its own account, not for \
                     wallet.account_address"
                );
            }
            s
        }
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => bail!(
            "wallet.kind = \"session\" but no Controller session is stored for profile '{}': run \
             `{renew}` first (or set wallet.account_address to serve until one is approved)",
            settings.profile
        ),
    };
    let password = session_password(&settings.wallet, env)?;
    let unlocked = UnlockedStore::new(store, password, address, settings.expected_chain_id()?);
    let slot =
        SessionSlot::new(Box::new(move || unlocked.load()), renew).for_deployment(deployment);
    Ok((address, AccountSigner::Session(Arc::new(slot))))
}
