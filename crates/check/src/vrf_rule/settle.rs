//! When a report's rule may be kept for a profile (`check --settle-vrf`): every settling action
//! agrees, each one's request went to the profile's VRF provider with its seed verified against
//! the submitted one, and enough of them were played by more than one player, so one account's
//! transactions cannot settle a rule for everyone. A local devnet's practice provider takes no
//! `submit_random`, so there a request without a submitted seed is let through
//! ([`Seeds::SentOrNone`]); a seed that was sent must always check.

use std::collections::BTreeSet;

use chain::VrfSource;
use starknet::core::types::Felt;

use super::classify::{SeedCheck, Verdict};
use super::{Conclusion, VrfRuleReport};

/// Agreeing actions a settled rule needs at least.
pub const SETTLE_MIN_ACTIONS: usize = 2;

/// Distinct players among them.
pub const SETTLE_MIN_PLAYERS: usize = 2;

/// What a settling action's seed must show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seeds {
    /// Verified against the request (a live network: Cartridge's provider is sent the seed).
    Verified,
    /// Verified, or not sent at all (a local devnet's practice provider takes none).
    SentOrNone,
}

/// Why a report's rule is not kept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotSettled {
    /// No single rule was found.
    #[error("no rule to keep: {0}")]
    NoRule(String),
    /// An agreeing action asked another VRF provider than the profile's.
    #[error("tx {tx:#x} asked the VRF provider {to:#x}, not the profile's {expected:#x}")]
    OtherProvider {
        /// The transaction.
        tx: Felt,
        /// The provider it asked.
        to: Felt,
        /// The profile's provider.
        expected: Felt,
    },
    /// An agreeing action's seed was not checked against its request.
    #[error("tx {tx:#x}'s seed was not verified against its request ({seed})")]
    SeedNotVerified {
        /// The transaction.
        tx: Felt,
        /// What the seed check found.
        seed: &'static str,
    },
    /// Too few agreeing actions, or too few players among them.
    #[error(
        "{actions} agreeing action(s) by {players} player(s); keeping a rule needs \
         {SETTLE_MIN_ACTIONS} by {SETTLE_MIN_PLAYERS} players (more actions are read with more \
         blocks, as players play)"
    )]
    TooFew {
        /// Agreeing actions.
        actions: usize,
        /// Distinct players among them.
        players: usize,
    },
}

/// A rule kept for a profile: the source, the contract that consumes the randomness, and the
/// game settings it was read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettledRule {
    /// The profile's `vrf_source`.
    pub source: VrfSource,
    /// The requests' consumer (`None`: no request; the source is off).
    pub consumer: Option<Felt>,
    /// The settings whose games showed it (`None`: games of any settings).
    pub settings_id: Option<u32>,
}

impl VrfRuleReport {
    /// The rule to keep for a profile whose VRF provider is `provider`, its actions' seeds held
    /// to `seeds`, or why there is none.
    pub fn settled_rule(&self, provider: Felt, seeds: Seeds) -> Result<SettledRule, NotSettled> {
        let (Conclusion::Found { consumer, .. }, Some(source)) = (&self.conclusion, self.source())
        else {
            return Err(NotSettled::NoRule(self.summary()));
        };
        let agreeing: Vec<_> = self
            .findings
            .iter()
            .filter(|f| self.wanted(f) && f.verdict.source() == Some(source.name()))
            .collect();
        for f in &agreeing {
            if let Some(r) = &f.request
                && r.provider != provider
            {
                return Err(NotSettled::OtherProvider {
                    tx: f.tx_hash,
                    to: r.provider,
                    expected: provider,
                });
            }
            let seed = match &f.verdict {
                Verdict::Nonce { seed, .. } | Verdict::Salt { seed, .. } => Some(seed),
                _ => None,
            };
            match seed {
                None | Some(SeedCheck::Verified { .. }) => {}
                Some(SeedCheck::NotSent) if seeds == Seeds::SentOrNone => {}
                Some(other) => {
                    return Err(NotSettled::SeedNotVerified {
                        tx: f.tx_hash,
                        seed: match other {
                            SeedCheck::NotSent => "no submit_random in the transaction",
                            SeedCheck::Differs { .. } => "the submitted seed is not the request's",
                            _ => "no provider nonce read explains it",
                        },
                    });
                }
            }
        }
        let players: BTreeSet<Felt> = agreeing.iter().map(|f| f.player).collect();
        if agreeing.len() < SETTLE_MIN_ACTIONS || players.len() < SETTLE_MIN_PLAYERS {
            return Err(NotSettled::TooFew {
                actions: agreeing.len(),
                players: players.len(),
            });
        }
        Ok(SettledRule {
            source,
            consumer: *consumer,
            settings_id: self.settings_id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vrf_rule::Finding;
    use crate::vrf_rule::calls::Route;
    use crate::vrf_rule::classify::{RequestedSource, VrfRequest};

    const PROVIDER: Felt = Felt::from_hex_unchecked("0xf0");

    /// A nonce action of `player` whose request went to `provider`, its seed checked as `seed`.
    fn nonce(tx: u64, player: u64, provider: Felt, seed: SeedCheck) -> Finding {
        let player = Felt::from(player);
        Finding {
            tx_hash: Felt::from(tx),
            block_number: Some(tx),
            action: "explore",
            adventurer_id: None,
            settings_id: None,
            route: Route::Direct,
            player,
            request: Some(VrfRequest {
                provider,
                consumer: Felt::from(0x6a_u8),
                source: RequestedSource::Nonce { address: player },
                route: Route::Direct,
                calldata: vec![],
            }),
            verdict: Verdict::Nonce {
                consumer: Felt::from(0x6a_u8),
                consumer_is_game: true,
                address: player,
                address_is_player: true,
                seed,
            },
        }
    }

    fn report(findings: Vec<Finding>) -> VrfRuleReport {
        VrfRuleReport {
            game_core: Felt::from(0x6a_u8),
            chain_id: Felt::ONE,
            blocks: (0, 9),
            transactions_seen: findings.len(),
            conclusion: Conclusion::Found {
                source: "nonce",
                consumer: Some(Felt::from(0x6a_u8)),
                tx_hash: findings[0].tx_hash,
            },
            settings_id: None,
            other_settings: vec![],
            findings,
            skipped: vec![],
        }
    }

    const VERIFIED: SeedCheck = SeedCheck::Verified {
        seed: Felt::ONE,
        nonce: Some(0),
    };

    #[test]
    fn a_rule_is_kept_only_when_verified_actions_of_two_players_agree_on_the_profiles_provider() {
        let two = report(vec![
            nonce(1, 0xa, PROVIDER, VERIFIED),
            nonce(2, 0xb, PROVIDER, VERIFIED),
        ]);
        assert_eq!(
            two.settled_rule(PROVIDER, Seeds::Verified)
                .map(|r| r.source),
            Ok(VrfSource::Nonce)
        );

        let one_player = report(vec![
            nonce(1, 0xa, PROVIDER, VERIFIED),
            nonce(2, 0xa, PROVIDER, VERIFIED),
        ]);
        assert_eq!(
            one_player
                .settled_rule(PROVIDER, Seeds::Verified)
                .map(|r| r.source),
            Err(NotSettled::TooFew {
                actions: 2,
                players: 1
            })
        );
        let one_action = report(vec![nonce(1, 0xa, PROVIDER, VERIFIED)]);
        assert!(matches!(
            one_action
                .settled_rule(PROVIDER, Seeds::Verified)
                .map(|r| r.source),
            Err(NotSettled::TooFew { actions: 1, .. })
        ));

        let elsewhere = report(vec![
            nonce(1, 0xa, PROVIDER, VERIFIED),
            nonce(2, 0xb, Felt::TWO, VERIFIED),
        ]);
        assert!(matches!(
            elsewhere.settled_rule(PROVIDER, Seeds::Verified).map(|r| r.source),
            Err(NotSettled::OtherProvider { tx, .. }) if tx == Felt::TWO
        ));

        let unverified = SeedCheck::Unchecked {
            seed: Felt::ONE,
            nonces: None,
        };
        for seed in [SeedCheck::NotSent, unverified] {
            let r = report(vec![
                nonce(1, 0xa, PROVIDER, VERIFIED),
                nonce(2, 0xb, PROVIDER, seed),
            ]);
            assert!(matches!(
                r.settled_rule(PROVIDER, Seeds::Verified).map(|r| r.source),
                Err(NotSettled::SeedNotVerified { .. })
            ));
        }

        // A practice provider takes no seed: let through only where asked.
        let unsent = report(vec![
            nonce(1, 0xa, PROVIDER, SeedCheck::NotSent),
            nonce(2, 0xb, PROVIDER, SeedCheck::NotSent),
        ]);
        assert_eq!(
            unsent
                .settled_rule(PROVIDER, Seeds::SentOrNone)
                .map(|r| r.source),
            Ok(VrfSource::Nonce)
        );
        let differs = report(vec![
            nonce(1, 0xa, PROVIDER, SeedCheck::NotSent),
            nonce(
                2,
                0xb,
                PROVIDER,
                SeedCheck::Differs {
                    seed: Felt::ONE,
                    expected: Felt::TWO,
                },
            ),
        ]);
        assert!(
            differs
                .settled_rule(PROVIDER, Seeds::SentOrNone)
                .map(|r| r.source)
                .is_err()
        );

        let mut none = two.clone();
        none.conclusion = Conclusion::NoActions;
        assert!(matches!(
            none.settled_rule(PROVIDER, Seeds::Verified)
                .map(|r| r.source),
            Err(NotSettled::NoRule(_))
        ));
    }
}
