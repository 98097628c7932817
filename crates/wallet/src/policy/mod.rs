//! The policy guard consulted before anything is signed: only the profile's game entrypoints (plus
//! the VRF `request_random` where enabled), a fee cap per transaction, a fee budget per server run
//! and per UTC day, a transactions-per-minute cap, and a read-only switch. Synchronous; what was
//! spent lives in a [`SpendingLog`] (the durable journal on real chains, so a restart keeps the
//! day's budget and the rate window).
//!
//! Use it under the client's one-write-at-a-time lock (the checks and the record are separate
//! calls): `check_calls` → `check_rate` → estimate → `check_fee(max fee bound)` → send →
//! `record_sent(hash, max fee bound)` → receipt → `record_sent(hash, fee actually paid)`. A sent
//! transaction whose receipt never came stays counted at its bound, the most it can have cost.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::SystemTime;

use serde::Serialize;
use starknet::core::types::{Call, Felt};

use super::policy_settings::{FeeAmount, PolicySettings};
use super::spending::{MemorySpending, RATE_WINDOW, SpendingLog, Usage};
use super::ticket_approve::TicketApprove;

/// The Cartridge VRF provider (mainnet; hard-coded in the game's `utils/vrf.cairo`).
pub const CARTRIDGE_VRF_PROVIDER: Felt =
    Felt::from_hex_unchecked("0x051fea4450da9d6aee758bdeba88b2f665bcbf549d2c61421aa724e9ac0ced8f");
/// `starknet_keccak("request_random")`.
pub const REQUEST_RANDOM_SELECTOR: Felt = starknet::macros::selector!("request_random");
/// The error code a refusal maps to in tool results.
pub const POLICY_DENIED: &str = "POLICY_DENIED";

/// A refusal: which rule, why, and which setting changes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyDenied {
    /// The rule that refused (`read_only`, `allowed_calls`, `allow_vrf`, `max_fee_per_tx`,
    /// `session_fee_budget`, `daily_fee_budget`, `max_tx_per_minute`).
    pub rule: &'static str,
    /// What was refused, with the numbers involved.
    pub message: String,
    /// The setting that controls the rule (e.g. `policy.max_fee_per_tx`).
    pub setting: &'static str,
}

impl std::fmt::Display for PolicyDenied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "policy denied ({}): {}; controlled by {}",
            self.rule, self.message, self.setting
        )
    }
}

impl std::error::Error for PolicyDenied {}

/// The policy in force and what this server run has spent (for `ls_wallet`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PolicySnapshot {
    /// Writes are disabled.
    pub read_only: bool,
    /// Cap on one transaction's max fee.
    pub max_fee_per_tx: FeeAmount,
    /// Fee budget of this server run.
    pub session_fee_budget: FeeAmount,
    /// Fee budget of each UTC day, across server runs (kept in the journal).
    pub daily_fee_budget: FeeAmount,
    /// Transactions allowed in any 60-second window.
    pub max_tx_per_minute: u32,
    /// Whether the VRF `request_random` call may be signed.
    pub vrf_allowed: bool,
    /// How many (contract, entrypoint) pairs may be called, VRF included.
    pub allowed_entrypoints: usize,
    /// Fees paid so far in this run.
    pub spent: FeeAmount,
    /// What is left of the budget (the smaller of the run's and the day's).
    pub remaining_budget: FeeAmount,
    /// Transactions sent in this run.
    pub tx_count: u64,
    /// Fees paid today (UTC), by every run of this account.
    pub spent_today: FeeAmount,
    /// Transactions sent today (UTC), by every run of this account.
    pub tx_count_today: u64,
    /// Transactions sent in the last 60 seconds.
    pub tx_last_minute: u32,
}

/// The one form of VRF request the guard signs: `request_random(game, Source)` with this source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VrfForm {
    /// `Source::Salt(salt)`: calldata `[game, 1, salt]` (v1, and v2 salt recipes).
    Salt,
    /// `Source::Nonce(account)`: calldata `[game, 0, account]`, the signing account only.
    Nonce(Felt),
}

/// Decides whether a transaction may be signed, and tracks what this run spent.
#[derive(Debug)]
pub struct PolicyGuard {
    settings: PolicySettings,
    vrf: bool,
    /// Where `request_random` may go, and the one source it may ask for.
    vrf_provider: Felt,
    vrf_form: VrfForm,
    /// The one contract a request may name as its consumer (`None`: any game contract).
    vrf_consumer: Option<Felt>,
    allowed: HashSet<(Felt, Felt)>,
    contracts: HashSet<Felt>,
    ticket: Option<TicketApprove>,
    log: Arc<dyn SpendingLog>,
}

impl PolicyGuard {
    /// A guard allowing `allowed` `(contract address, selector)` pairs, plus `request_random` on
    /// [`CARTRIDGE_VRF_PROVIDER`] when `vrf` is true (use [`PolicySettings::vrf_enabled`]).
    pub fn new(
        settings: &PolicySettings,
        vrf: bool,
        allowed: impl IntoIterator<Item = (Felt, Felt)>,
    ) -> Self {
        let mut allowed: HashSet<(Felt, Felt)> = allowed.into_iter().collect();
        if vrf {
            allowed.insert((CARTRIDGE_VRF_PROVIDER, REQUEST_RANDOM_SELECTOR));
        }
        let contracts = allowed.iter().map(|(c, _)| *c).collect();
        Self {
            settings: settings.clone(),
            vrf,
            vrf_provider: CARTRIDGE_VRF_PROVIDER,
            vrf_form: VrfForm::Salt,
            vrf_consumer: None,
            allowed,
            contracts,
            ticket: None,
            log: Arc::new(MemorySpending::default()),
        }
    }

    /// The same guard with VRF requests going to `provider` in `form` only, on behalf of
    /// `consumer` where it is named (a v2 deployment's provider, source and the contract that
    /// consumes; [`PolicyGuard::new`] takes Cartridge's provider, `Salt` and any game contract).
    pub fn with_vrf(mut self, provider: Felt, form: VrfForm, consumer: Option<Felt>) -> Self {
        self.allowed
            .remove(&(self.vrf_provider, REQUEST_RANDOM_SELECTOR));
        if self.vrf {
            self.allowed.insert((provider, REQUEST_RANDOM_SELECTOR));
        }
        self.contracts = self.allowed.iter().map(|(c, _)| *c).collect();
        self.vrf_provider = provider;
        self.vrf_form = form;
        self.vrf_consumer = consumer;
        self
    }

    /// The same guard also signing the one bounded ticket approve of a dungeon purchase, on
    /// profiles that name a dungeon and its ticket.
    pub fn with_ticket_approve(mut self, rule: Option<TicketApprove>) -> Self {
        self.ticket = rule;
        self
    }

    /// The same guard counting spending in `log` (the journal) instead of memory.
    pub fn with_log(mut self, log: Arc<dyn SpendingLog>) -> Self {
        self.log = log;
        self
    }

    /// The per-transaction fee cap (`policy.max_fee_per_tx`).
    pub fn max_fee_per_tx(&self) -> u128 {
        self.settings.max_fee_per_tx
    }

    /// Refuses writes in read-only mode and any call outside the allowed entrypoints.
    pub fn check_calls(&self, calls: &[Call]) -> Result<(), PolicyDenied> {
        self.check_writable()?;
        if calls.is_empty() {
            return Err(PolicyDenied {
                rule: "allowed_calls",
                message: "an empty multicall was not signed".into(),
                setting: "(not configurable)",
            });
        }
        for call in calls {
            if self.allowed.contains(&(call.to, call.selector))
                || self.ticket.is_some_and(|t| t.ticket == call.to)
            {
                continue;
            }
            if call.to == self.vrf_provider && call.selector == REQUEST_RANDOM_SELECTOR {
                return Err(PolicyDenied {
                    rule: "allow_vrf",
                    message: "the VRF request_random call is disabled for this profile".into(),
                    setting: "policy.allow_vrf",
                });
            }
            if self.contracts.contains(&call.to) {
                return Err(PolicyDenied {
                    rule: "allowed_calls",
                    message: format!(
                        "selector {:#x} is not an allowed entrypoint of contract {:#x}",
                        call.selector, call.to
                    ),
                    setting: "(not configurable: the server signs only the game's entrypoints)",
                });
            }
            return Err(PolicyDenied {
                rule: "allowed_calls",
                message: format!(
                    "contract {:#x} is not one of this profile's game contracts",
                    call.to
                ),
                setting: "chain.contracts / chain.manifest",
            });
        }
        if let Some(t) = &self.ticket {
            t.check(calls)?;
        }
        self.check_vrf_bundle(calls)
    }

    /// A multicall with the VRF call must be exactly a VRF bundle: one `request_random`, first,
    /// asking for the configured source (`Source::Salt`, or `Source::Nonce` of the account) on
    /// behalf of a game contract, followed only by game calls.
    fn check_vrf_bundle(&self, calls: &[Call]) -> Result<(), PolicyDenied> {
        let is_vrf = |c: &Call| c.to == self.vrf_provider && c.selector == REQUEST_RANDOM_SELECTOR;
        let count = calls.iter().filter(|c| is_vrf(c)).count();
        if count == 0 {
            return Ok(());
        }
        let deny = |message: String| PolicyDenied {
            rule: "allow_vrf",
            message,
            setting: "(not configurable: the server signs only VRF bundles of game actions)",
        };
        if count > 1 || !is_vrf(&calls[0]) || calls.len() < 2 {
            return Err(deny(
                "request_random must come once, first, and be followed by a game action".into(),
            ));
        }
        let vrf = &calls[0];
        let form = match self.vrf_form {
            VrfForm::Salt => vrf.calldata.get(1) == Some(&Felt::ONE),
            VrfForm::Nonce(account) => vrf.calldata[1..] == [Felt::ZERO, account],
        };
        let caller = vrf.calldata.first().copied();
        let consumer = match self.vrf_consumer {
            Some(c) => caller == Some(c),
            None => caller.is_some_and(|c| c != self.vrf_provider && self.contracts.contains(&c)),
        };
        let game_caller = vrf.calldata.len() == 3 && consumer && form;
        if !game_caller {
            let source = match self.vrf_form {
                VrfForm::Salt => "Source::Salt",
                VrfForm::Nonce(_) => "Source::Nonce of the signing account",
            };
            return Err(deny(format!(
                "request_random must ask for {source} on behalf of {}",
                match self.vrf_consumer {
                    Some(c) => format!("the deployment's VRF consumer {c:#x}"),
                    None => "a game contract".into(),
                }
            )));
        }
        Ok(())
    }

    /// Refuses a transaction whose max fee exceeds the per-transaction cap or what is left of the
    /// run's or the day's budget. Pass the max fee the transaction may be charged (its bounds).
    pub fn check_fee(&self, estimated_max_fee: u128) -> Result<(), PolicyDenied> {
        self.check_writable()?;
        let cap = self.settings.max_fee_per_tx;
        if estimated_max_fee > cap {
            return Err(PolicyDenied {
                rule: "max_fee_per_tx",
                message: format!(
                    "max fee {} STRK ({estimated_max_fee} FRI) is above the per-transaction cap \
                     {} STRK ({cap} FRI)",
                    FeeAmount::from(estimated_max_fee).strk,
                    FeeAmount::from(cap).strk
                ),
                setting: "policy.max_fee_per_tx",
            });
        }
        self.check_budget(estimated_max_fee, &self.log.usage(SystemTime::now()))
    }

    fn check_budget(&self, fee: u128, usage: &Usage) -> Result<(), PolicyDenied> {
        let s = &self.settings;
        let limits = [
            (
                "session_fee_budget",
                "policy.session_fee_budget",
                "this run's budget",
                s.session_fee_budget,
                usage.run_spent,
                usage.run_tx,
            ),
            (
                "daily_fee_budget",
                "policy.daily_fee_budget",
                "today's budget (UTC, every run)",
                s.daily_fee_budget,
                usage.day_spent,
                usage.day_tx,
            ),
        ];
        for (rule, setting, what, budget, spent, count) in limits {
            let remaining = budget.saturating_sub(spent);
            if fee > remaining {
                return Err(PolicyDenied {
                    rule,
                    message: format!(
                        "max fee {} STRK ({fee} FRI) is above what is left of {what}: {} STRK \
                         ({remaining} FRI) of {} STRK, after {count} transactions",
                        FeeAmount::from(fee).strk,
                        FeeAmount::from(remaining).strk,
                        FeeAmount::from(budget).strk,
                    ),
                    setting,
                });
            }
        }
        Ok(())
    }

    /// Refuses a transaction when `max_tx_per_minute` were already sent in the last 60 seconds.
    pub fn check_rate(&self, now: SystemTime) -> Result<(), PolicyDenied> {
        self.check_writable()?;
        self.check_window(1, &self.log.usage(now), now)
    }

    /// Before the first of `txs` transactions that belong together (`ls_new_game`: mint, then
    /// start): refuses unless the rate window has room for all of them and the budgets have room
    /// for `fee_reserve`, so no first transaction is paid for a second one that would be refused.
    pub fn check_batch(
        &self,
        txs: u32,
        fee_reserve: u128,
        now: SystemTime,
    ) -> Result<(), PolicyDenied> {
        self.check_writable()?;
        let usage = self.log.usage(now);
        self.check_window(txs, &usage, now)?;
        self.check_budget(fee_reserve, &usage)
    }

    fn check_window(&self, txs: u32, usage: &Usage, now: SystemTime) -> Result<(), PolicyDenied> {
        let limit = self.settings.max_tx_per_minute;
        let sent = usage.window.len();
        if sent + txs as usize > limit as usize {
            // Wait until enough sends leave the window.
            let leaving = (sent + txs as usize).saturating_sub(limit as usize).max(1);
            let wait = usage
                .window
                .get(leaving - 1)
                .map(|&t| RATE_WINDOW.saturating_sub(now.duration_since(t).unwrap_or_default()))
                .unwrap_or(RATE_WINDOW);
            let needs = if txs > 1 {
                format!(" ({txs} are needed)")
            } else {
                String::new()
            };
            return Err(PolicyDenied {
                rule: "max_tx_per_minute",
                message: format!(
                    "{sent} transactions were sent in the last 60 s (limit {limit}){needs}; \
                     retry in {:.1} s",
                    wait.as_secs_f64()
                ),
                setting: "policy.max_tx_per_minute",
            });
        }
        Ok(())
    }

    /// Records a sent transaction at its fee bound, or corrects it to the fee it paid.
    pub fn record_sent(&self, tx_hash: Felt, fee: u128, now: SystemTime) {
        self.log.record(tx_hash, fee, now);
    }

    /// The limits and what this run has spent so far.
    pub fn snapshot(&self) -> PolicySnapshot {
        self.snapshot_at(SystemTime::now())
    }

    /// [`PolicyGuard::snapshot`] as of `now` (counts the last-minute window from it).
    pub fn snapshot_at(&self, now: SystemTime) -> PolicySnapshot {
        let u = self.log.usage(now);
        let s = &self.settings;
        let remaining = s
            .session_fee_budget
            .saturating_sub(u.run_spent)
            .min(s.daily_fee_budget.saturating_sub(u.day_spent));
        PolicySnapshot {
            read_only: s.read_only,
            max_fee_per_tx: s.max_fee_per_tx.into(),
            session_fee_budget: s.session_fee_budget.into(),
            daily_fee_budget: s.daily_fee_budget.into(),
            max_tx_per_minute: s.max_tx_per_minute,
            vrf_allowed: self.vrf,
            allowed_entrypoints: self.allowed.len(),
            spent: u.run_spent.into(),
            remaining_budget: remaining.into(),
            tx_count: u.run_tx,
            spent_today: u.day_spent.into(),
            tx_count_today: u.day_tx,
            tx_last_minute: u32::try_from(u.window.len()).unwrap_or(u32::MAX),
        }
    }

    fn check_writable(&self) -> Result<(), PolicyDenied> {
        if self.settings.read_only {
            return Err(PolicyDenied {
                rule: "read_only",
                message: "this server runs read-only: writes are disabled".into(),
                setting: "policy.read_only",
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
