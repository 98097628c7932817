//! The one place where layer errors become tool errors of the taxonomy, and how a tool error is
//! rendered to the agent (`isError` with the JSON envelope as text).

use rmcp::model::{ContentBlock, IntoContents};

use crate::error::{ErrorCode, ToolError};
use crate::revert_hints::revert_hint;
use chain::wallet_account::SESSION_POLICIES;
use chain::{CartridgeError, ChainError};
use game::token_fields::Unplayable;

/// The envelope as text, with every URL's credentials and every configured credential hidden
/// (an indexer or a node may echo its key back in an error).
impl IntoContents for ToolError {
    fn into_contents(self) -> Vec<ContentBlock> {
        let text = self.envelope().to_string();
        vec![ContentBlock::text(
            base::redact::hide_credentials(&text).into_owned(),
        )]
    }
}

/// `NOT_FOUND` for an adventurer id that was never minted.
pub(crate) fn missing_adventurer(id: game::AdventurerId) -> ToolError {
    ToolError::new(
        ErrorCode::NotFound,
        format!("adventurer {id} does not exist"),
    )
    .with_detail("adventurer_id", id)
    .with_hint("start a game with ls_new_game, which returns the new adventurer_id")
}

/// Maps a chain-layer failure to the taxonomy.
pub fn from_chain(e: ChainError) -> ToolError {
    match e {
        ChainError::Revert { revert, tx_hash } => {
            let simulated = tx_hash.is_none();
            let mut t = ToolError::new(
                ErrorCode::ContractRevert,
                format!("the game refused the action: {}", revert.reason),
            )
            .with_detail("reason", &revert.reason)
            .with_detail("reason_code", revert.code())
            .with_detail("simulated", simulated)
            .with_detail("tx_hash", tx_hash.map(|h| format!("{h:#x}")));
            if simulated {
                t = t.with_detail("fee_charged", false);
            }
            match revert_hint(revert.code()) {
                Some(h) => t.with_hint(h),
                None => t.with_hint("read ls_get_adventurer and pick one of its actions"),
            }
        }
        ChainError::Timeout {
            tx_hash,
            last_status,
        } => ToolError::new(
            ErrorCode::TxTimeout,
            format!("transaction {tx_hash:#x} was sent but not confirmed in time"),
        )
        .with_detail("tx_hash", format!("{tx_hash:#x}"))
        .with_detail("last_status", last_status)
        .with_hint(
            "do not resend: follow it with ls_get_tx, or read ls_get_adventurer (action_count)",
        ),
        ChainError::Cancelled {
            tx_hash,
            last_status,
        } => ToolError::new(
            ErrorCode::TxTimeout,
            format!("stopped waiting for transaction {tx_hash:#x}; it was sent and may still land"),
        )
        .with_detail("tx_hash", format!("{tx_hash:#x}"))
        .with_detail("last_status", last_status)
        .with_detail("cancelled", true)
        .with_hint("follow it with ls_get_tx; do not resend"),
        ChainError::Policy(d) if d.rule == SESSION_POLICIES => {
            ToolError::new(ErrorCode::PolicyDenied, d.message)
                .with_detail("rule", d.rule)
                .with_hint(
                    "nothing was signed: the player's Controller session does not allow this \
                     call; the game's own calls are all allowed by a session made with \
                     `loot-survivor-mcp session new`",
                )
        }
        ChainError::Policy(d) => ToolError::new(ErrorCode::PolicyDenied, d.message.clone())
            .with_detail("rule", d.rule)
            .with_detail("setting", d.setting)
            .with_hint(format!(
                "the wallet policy forbids this ({}); the operator can change `{}` in the profile or with LS_{}",
                d.rule,
                d.setting,
                d.setting.to_uppercase().replace('.', "__")
            )),
        ChainError::Rpc(failure) => rpc_error(failure.to_string()),
        ChainError::Refused { message, .. } => rpc_error(message),
        ChainError::Provider(source) => rpc_error(source.to_string()),
        ChainError::Store {
            corrupt: false,
            source,
        } => rpc_error(source.to_string()),
        ChainError::Store {
            corrupt: true,
            source,
        } => ToolError::new(ErrorCode::RpcError, source.to_string()).retryable(false),
        ChainError::Cartridge(e) => from_cartridge(e),
        ChainError::WrongNetwork(mismatch) => {
            ToolError::new(ErrorCode::RpcError, mismatch.to_string()).retryable(false)
        }
        ChainError::Config(problem) => {
            ToolError::new(ErrorCode::RpcError, problem.to_string()).retryable(false)
        }
        e @ ChainError::GenerationMismatch { .. } => {
            ToolError::new(ErrorCode::RpcError, e.to_string()).retryable(false)
        }
        e @ ChainError::VrfSourceUnset { .. } => {
            ToolError::new(ErrorCode::RpcError, e.to_string())
                .retryable(false)
                .with_hint(
                    "the operator settles the source; meanwhile ls_upgrade, ls_buy_item, ls_drop, \
                     ls_surrender and an ls_equip out of battle draw no randomness and still work",
                )
        }
        e @ ChainError::VrfSettingsDiffer { settled, .. } => ToolError::validation(e.to_string())
            .with_hint(format!(
                "ls_new_game mints a game with settings {settled}; on this one ls_upgrade, \
                 ls_buy_item, ls_drop, ls_surrender and an ls_equip out of battle draw no \
                 randomness and still work"
            )),
        e @ ChainError::Unplayable {
            why: Unplayable::NotStarted { starts_at },
            ..
        } => ToolError::validation(e.to_string())
            .retryable(true)
            .with_hint(format!("retry from unix time {starts_at}, when the game may start")),
        e @ ChainError::Unplayable { .. } => ToolError::validation(e.to_string())
            .with_hint("this game is over for good; ls_new_game starts another"),
        e @ ChainError::SettingsMissing { .. } => ToolError::new(ErrorCode::PolicyDenied, e.to_string())
            .retryable(false)
            .with_detail("rule", "settings_exist")
            .with_hint(
                "the operator sets chain.settings_id to settings the game has; existing games \
                 still play",
            ),
        e @ ChainError::Unsupported { .. } => ToolError::validation(e.to_string()),
        e @ ChainError::Unreachable { .. } => ToolError::new(ErrorCode::RpcError, e.to_string())
            .with_hint(
                "retry in a moment: each call connects again, and works once the node answers; \
                 if it stays down, the operator points chain.rpc_url (STARKNET_RPC_URL, \
                 --rpc-url) at one that does; ls_lookup and the rules resource (ls://rules) work \
                 meanwhile",
            ),
        ChainError::Archived(a) => ToolError::validation(a.to_string())
            .with_detail("archived", &a.archive.date)
            .with_detail("entry", a.entry)
            .with_hint(
                "nothing was signed; this server still reads the world's games (ls_get_adventurer, \
                 ls_get_game_events, ls_get_leaderboard), and new games are for the operator to \
                 start on the live profile",
            ),
        ChainError::AbiMismatch(r) => {
            let (what, why) = if r.write {
                ("nothing was signed", "so the server refuses it")
            } else {
                ("not read", "so its answer would be misread")
            };
            ToolError::new(
                ErrorCode::PolicyDenied,
                format!(
                    "{what}: {}'s {} on this chain differs from the server's bindings, {why}",
                    r.contract, r.entrypoint
                ),
            )
            .with_detail("rule", "abi_check")
            .with_detail("contract", &r.contract)
            .with_detail("entrypoint", &r.entrypoint)
            .with_detail("ours", &r.ours)
            .with_detail("deployed", &r.deployed)
            .retryable(false)
            .with_hint(format!(
                "this cannot be {} on this deployment until the server's bindings match; the \
                 operator sees every difference with `{}`",
                if r.write { "played" } else { "read" },
                r.check
            ))
        }
        e @ ChainError::AbiUnchecked(_) => ToolError::new(ErrorCode::RpcError, e.to_string())
            .with_detail("rule", "abi_check")
            .with_hint(
                "retry in a moment: the server checks the contract again before the next write, \
                 and plays it once the node answers",
            ),
        e @ (ChainError::Io { .. }
        | ChainError::Json { .. }
        | ChainError::Journal(_)
        | ChainError::Unrecorded(_)) => {
            ToolError::new(ErrorCode::RpcError, e.to_string()).retryable(false)
        }
        ChainError::Decode(answer) => {
            ToolError::new(ErrorCode::RpcError, answer.to_string()).retryable(false)
        }
        ChainError::DecodeJson { context, source } => {
            ToolError::new(ErrorCode::RpcError, format!("{context}: {source}")).retryable(false)
        }
        ChainError::Signing(e) => ToolError::new(ErrorCode::RpcError, e.to_string()).retryable(false),
        e @ ChainError::NoSigner => ToolError::new(ErrorCode::PolicyDenied, e.to_string())
            .with_detail("rule", "no_signer")
            .retryable(false)
            .with_hint(
                "this server only reads: ls_get_adventurer, ls_get_game_events and \
                 ls_get_leaderboard work; playing needs the operator to start it with a key or a \
                 Controller session",
            ),
        ChainError::Invalid(refusal) => ToolError::validation(refusal.to_string()),
        ChainError::NoSuchAdventurer(id) => missing_adventurer(id),
        ChainError::Session {
            problem,
            renew,
            sent,
        } => {
            let what = if sent {
                "the write was signed and refused before it reached the chain (nothing happened in \
                 the game)"
            } else {
                "nothing was signed"
            };
            ToolError::new(ErrorCode::SessionInvalid, problem.to_string())
                .with_detail("problem", problem.code())
                .with_hint(format!(
                    "{what}; the player approves a new session with `{renew}`, which the next \
                     write uses; ls_wallet shows the session"
                ))
        }
    }
}

/// The paymaster's failures: its outages are worth a retry, the rest are not; a revert or a
/// refusal it read maps as the chain's own.
fn from_cartridge(e: CartridgeError) -> ToolError {
    match e {
        CartridgeError::Http(source) => rpc_error(format!("Cartridge RPC: {source}")),
        CartridgeError::Rpc(m) => rpc_error(m),
        CartridgeError::Decode(m) | CartridgeError::Config(m) => {
            ToolError::new(ErrorCode::RpcError, m).retryable(false)
        }
        CartridgeError::DecodeJson { context, source } => {
            ToolError::new(ErrorCode::RpcError, format!("{context}: {source}")).retryable(false)
        }
        CartridgeError::Randomness(source) => ToolError::new(
            ErrorCode::RpcError,
            format!("no randomness for the nonce: {source}"),
        )
        .retryable(false),
        e @ (CartridgeError::Unsponsored(_) | CartridgeError::NoPaymaster(_)) => {
            ToolError::new(ErrorCode::RpcError, e.to_string()).retryable(false)
        }
        e @ (CartridgeError::Revert(_)
        | CartridgeError::Refused { .. }
        | CartridgeError::Provider(_)) => from_chain(e.into()),
    }
}

/// A node or transport failure: worth retrying.
fn rpc_error(message: String) -> ToolError {
    ToolError::new(ErrorCode::RpcError, message)
        .with_hint("the node may be down or busy; retry in a moment")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chain::revert::classify;
    use starknet::core::types::Felt;

    #[test]
    fn simulated_revert_says_no_fee_was_charged() {
        let t = from_chain(ChainError::Revert {
            revert: classify("('Not in battle')"),
            tx_hash: None,
        });
        assert_eq!(t.code, ErrorCode::ContractRevert);
        assert_eq!(t.details["reason"], "Not in battle");
        assert_eq!(t.details["reason_code"], "NOT_IN_BATTLE");
        assert_eq!(t.details["fee_charged"], false);
        assert!(!t.retryable);
    }

    #[test]
    fn provider_errors_read_as_rpc_errors_did() {
        use starknet::core::types::StarknetError;
        use starknet::providers::ProviderError;
        let t = from_chain(ChainError::from_provider(ProviderError::StarknetError(
            StarknetError::BlockNotFound,
        )));
        assert_eq!(t.code, ErrorCode::RpcError);
        assert!(t.retryable);
        assert_eq!(t.message, "BlockNotFound");
        let t = from_chain(ChainError::from_provider(ProviderError::StarknetError(
            StarknetError::InvalidTransactionNonce("got 0x4".into()),
        )));
        assert_eq!(t.code, ErrorCode::RpcError);
        assert!(
            t.message.contains("InvalidTransactionNonce"),
            "{}",
            t.message
        );
    }

    #[test]
    fn archived_and_unreachable_chains_are_final_and_say_what_still_works() {
        let archive = chain::Archive {
            what: "the Dojo world ls_0_0_9".into(),
            date: "2026-05-11".into(),
            source: None,
            successor: Some("mainnet".into()),
            allow_entry: false,
        };
        let t = from_chain(archive.check_entry("ticket").unwrap_err().into());
        assert_eq!(t.code, ErrorCode::ValidationError);
        assert!(!t.retryable);
        assert_eq!(t.details["archived"], "2026-05-11");
        assert_eq!(t.details["entry"], "ticket");
        assert!(t.hint.unwrap().contains("ls_get_adventurer"));
        let t = from_chain(ChainError::Unreachable {
            rpc: "127.0.0.1:9".into(),
            reason: "refused".into(),
            unchecked: "the chain id (SN_MAIN)".into(),
        });
        assert_eq!(t.code, ErrorCode::RpcError);
        assert!(t.retryable, "each call connects again");
        assert!(t.message.contains("127.0.0.1:9"), "{}", t.message);
        assert!(t.hint.unwrap().contains("each call connects again"));
    }

    #[test]
    fn an_abi_mismatch_names_both_signatures_and_the_check() {
        let t = from_chain(ChainError::AbiMismatch(Box::new(chain::AbiRefusal {
            contract: "game_core".into(),
            entrypoint: "attack".into(),
            write: true,
            ours: "attack(adventurer_id: felt252, to_the_death: bool)".into(),
            deployed: "attack(adventurer_id: felt252, to_the_death: u8)".into(),
            check: "loot-survivor-mcp check --profile mainnet".into(),
        })));
        assert_eq!(t.code, ErrorCode::PolicyDenied);
        assert!(!t.retryable);
        assert_eq!(t.details["rule"], "abi_check");
        assert_eq!(t.details["entrypoint"], "attack");
        assert!(t.details["deployed"].as_str().unwrap().ends_with("u8)"));
        let hint = t.hint.unwrap();
        assert!(
            hint.contains("`loot-survivor-mcp check --profile mainnet`"),
            "{hint}"
        );
    }

    #[test]
    fn the_paymaster_s_failures_map_as_they_did() {
        let t = from_chain(CartridgeError::Revert(classify("('Not in battle')")).into());
        assert_eq!(t.code, ErrorCode::ContractRevert);
        assert_eq!(t.details["reason_code"], "NOT_IN_BATTLE");
        let refused = CartridgeError::Refused {
            refusal: chain::revert::NodeRefusal::Session,
            message: "Cartridge paymaster (1): session/expired".into(),
        };
        let t = from_chain(refused.into());
        assert_eq!(t.code, ErrorCode::RpcError);
        assert!(t.retryable);
        let t = from_chain(CartridgeError::Unsponsored("no credits".into()).into());
        assert_eq!(t.code, ErrorCode::RpcError);
        assert!(!t.retryable);
        assert!(t.message.contains("does not sponsor"), "{}", t.message);
        let t = from_chain(
            CartridgeError::Rpc("Cartridge paymaster (-32005): slow down".into()).into(),
        );
        assert_eq!(t.code, ErrorCode::RpcError);
        assert!(t.retryable);
    }

    #[test]
    fn typed_payloads_keep_their_code_retry_and_words() {
        let t = from_chain(ChainError::Rpc(chain::RpcFailure::NonceRejected));
        assert_eq!((t.code, t.retryable), (ErrorCode::RpcError, true));
        assert_eq!(t.message, "the node keeps rejecting the account nonce");
        let t = from_chain(ChainError::Config(chain::Misconfigured::ContractNotFound));
        assert_eq!((t.code, t.retryable), (ErrorCode::RpcError, false));
        assert!(
            t.message.starts_with("a game contract is not deployed"),
            "{}",
            t.message
        );
        let t = from_chain(ChainError::WrongNetwork(
            chain::NetworkMismatch::SpecVersion {
                found: "0.7.1".into(),
                accepted: vec!["0.9".into()],
            },
        ));
        assert_eq!((t.code, t.retryable), (ErrorCode::RpcError, false));
        assert_eq!(
            t.message,
            "the node speaks JSON-RPC 0.7.1; the profile accepts [\"0.9\"]"
        );
        let t = from_chain(ChainError::Decode(chain::BadAnswer::NotInvoke));
        assert_eq!((t.code, t.retryable), (ErrorCode::RpcError, false));
        assert_eq!(t.message, "expected an invoke receipt");
        let t = from_chain(ChainError::Invalid(chain::Unservable::Declaration));
        assert_eq!((t.code, t.retryable), (ErrorCode::ValidationError, false));
        assert_eq!(t.message, "the wallet's account does not sign declarations");
    }

    #[test]
    fn timeout_carries_the_hash() {
        let t = from_chain(ChainError::Timeout {
            tx_hash: Felt::from(0xabcu32),
            last_status: chain::TxStatus::Received,
        });
        assert_eq!(t.code, ErrorCode::TxTimeout);
        assert_eq!(t.details["tx_hash"], "0xabc");
    }

    #[test]
    fn rendered_error_is_the_envelope() {
        let c = ToolError::validation("bad").into_contents();
        let text = c[0].as_text().unwrap().text.clone();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["error"]["code"], "VALIDATION_ERROR");
    }
}
