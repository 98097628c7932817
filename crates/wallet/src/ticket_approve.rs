//! The one ERC20 `approve` the wallet signs: exactly one dungeon ticket, to the dungeon, in the
//! same multicall as the dungeon's `buy_game` that spends it with a ticket payment. Anything else
//! on the ticket contract (another spender, another amount, a second approve, a transfer, an
//! approve left without its purchase) is refused, so a compromised or confused agent can never
//! hand the wallet's tickets to anyone.

use starknet::core::types::{Call, Felt};

use super::policy::PolicyDenied;

/// `starknet_keccak("approve")`.
pub(crate) const APPROVE_SELECTOR: Felt = starknet::macros::selector!("approve");
/// `starknet_keccak("buy_game")`.
pub(crate) const BUY_GAME_SELECTOR: Felt = starknet::macros::selector!("buy_game");

/// The bounded approve: `amount` of `ticket` to `dungeon`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicketApprove {
    /// The ticket ERC20.
    pub ticket: Felt,
    /// The dungeon, the only spender allowed.
    pub dungeon: Felt,
    /// The only amount allowed (one ticket, in the token's base units).
    pub amount: u128,
}

impl TicketApprove {
    /// Refuses every call on the ticket contract but one approve of exactly one ticket to the
    /// dungeon, followed in the same multicall by a ticket-paid `buy_game` on the dungeon.
    pub fn check(&self, calls: &[Call]) -> Result<(), PolicyDenied> {
        let deny = |message: String| PolicyDenied {
            rule: "ticket_approve",
            message,
            setting: "(not configurable: the server approves exactly one ticket to the dungeon)",
        };
        let mut approves = 0;
        for (i, call) in calls.iter().enumerate() {
            if call.to != self.ticket {
                continue;
            }
            if call.selector != APPROVE_SELECTOR {
                return Err(deny(format!(
                    "only approve may be called on the ticket contract {:#x}, not selector {:#x}",
                    self.ticket, call.selector
                )));
            }
            let [spender, low, high] = call.calldata[..] else {
                return Err(deny(
                    "the ticket approve must be (spender, u256 amount)".into(),
                ));
            };
            if spender != self.dungeon {
                return Err(deny(format!(
                    "tickets may only be approved to the dungeon {:#x}, not to {spender:#x}",
                    self.dungeon
                )));
            }
            if high != Felt::ZERO || low != Felt::from(self.amount) {
                return Err(deny(format!(
                    "the ticket approve must be exactly one ticket ({} base units), not \
                     (low {low:#x}, high {high:#x})",
                    self.amount
                )));
            }
            approves += 1;
            let paid_with_ticket = calls[i + 1..].iter().any(|c| {
                c.to == self.dungeon
                    && c.selector == BUY_GAME_SELECTOR
                    && c.calldata.first() == Some(&Felt::ZERO)
            });
            if !paid_with_ticket {
                return Err(deny(
                    "a ticket approve must be followed in the same multicall by the dungeon's \
                     buy_game paid with that ticket"
                        .into(),
                ));
            }
        }
        if approves > 1 {
            return Err(deny(format!(
                "one ticket approve per multicall, not {approves}"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PolicyGuard, PolicySettings};

    const DUNGEON: Felt = Felt::from_hex_unchecked("0xd0");
    const TICKET: Felt = Felt::from_hex_unchecked("0x71");
    const OTHER: Felt = Felt::from_hex_unchecked("0xbad");
    const ONE: u128 = 1_000_000_000_000_000_000;

    fn claim_free_game() -> Felt {
        starknet::macros::selector!("claim_free_game")
    }

    fn guard(with_rule: bool) -> PolicyGuard {
        let settings = PolicySettings {
            read_only: false,
            max_fee_per_tx: ONE,
            session_fee_budget: 10 * ONE,
            daily_fee_budget: 10 * ONE,
            max_tx_per_minute: 10,
            allow_vrf: None,
        };
        let guard = PolicyGuard::new(
            &settings,
            false,
            [(DUNGEON, BUY_GAME_SELECTOR), (DUNGEON, claim_free_game())],
        );
        guard.with_ticket_approve(with_rule.then_some(TicketApprove {
            ticket: TICKET,
            dungeon: DUNGEON,
            amount: ONE,
        }))
    }

    fn approve(spender: Felt, low: u128, high: u128) -> Call {
        Call {
            to: TICKET,
            selector: APPROVE_SELECTOR,
            calldata: vec![spender, Felt::from(low), Felt::from(high)],
        }
    }

    /// `buy_game(payment, Some('me'), 0xabc, false)`; `payment` is `[0]` or `[1, pass, id]`.
    fn buy_game(to: Felt, payment: &[u64]) -> Call {
        let mut calldata: Vec<Felt> = payment.iter().map(|&p| Felt::from(p)).collect();
        calldata.extend([
            Felt::ZERO,
            Felt::from(0x6d65u32),
            Felt::from(0xabcu32),
            Felt::ZERO,
        ]);
        Call {
            to,
            selector: BUY_GAME_SELECTOR,
            calldata,
        }
    }

    fn denied(guard: &PolicyGuard, calls: &[Call]) -> PolicyDenied {
        guard.check_calls(calls).unwrap_err()
    }

    #[test]
    fn one_ticket_to_the_dungeon_with_its_purchase_is_signed() {
        let g = guard(true);
        g.check_calls(&[approve(DUNGEON, ONE, 0), buy_game(DUNGEON, &[0])])
            .unwrap();
        g.check_calls(&[buy_game(DUNGEON, &[1, 0x60, 7])]).unwrap();
        g.check_calls(&[Call {
            to: DUNGEON,
            selector: claim_free_game(),
            calldata: vec![Felt::from(0xabcu32), Felt::ONE],
        }])
        .unwrap();
    }

    #[test]
    fn an_approve_above_or_below_one_ticket_is_refused() {
        let g = guard(true);
        for (low, high) in [
            (ONE + 1, 0),
            (2 * ONE, 0),
            (ONE, 1),
            (u128::MAX, u128::MAX),
            (ONE / 2, 0),
        ] {
            let d = denied(&g, &[approve(DUNGEON, low, high), buy_game(DUNGEON, &[0])]);
            assert_eq!(d.rule, "ticket_approve");
            assert!(d.message.contains("exactly one ticket"), "{}", d.message);
        }
    }

    #[test]
    fn an_approve_to_another_spender_is_refused() {
        let g = guard(true);
        let d = denied(&g, &[approve(OTHER, ONE, 0), buy_game(DUNGEON, &[0])]);
        assert_eq!(d.rule, "ticket_approve");
        assert!(
            d.message.contains("only be approved to the dungeon"),
            "{}",
            d.message
        );
    }

    #[test]
    fn an_approve_without_its_ticket_purchase_is_refused() {
        let g = guard(true);
        for calls in [
            vec![approve(DUNGEON, ONE, 0)],
            vec![buy_game(DUNGEON, &[0]), approve(DUNGEON, ONE, 0)],
            vec![approve(DUNGEON, ONE, 0), buy_game(DUNGEON, &[1, 0x60, 7])],
        ] {
            let d = denied(&g, &calls);
            assert_eq!(d.rule, "ticket_approve");
            assert!(d.message.contains("followed"), "{}", d.message);
        }
        let d = denied(
            &g,
            &[
                approve(DUNGEON, ONE, 0),
                approve(DUNGEON, ONE, 0),
                buy_game(DUNGEON, &[0]),
            ],
        );
        assert!(
            d.message.contains("one ticket approve per multicall"),
            "{}",
            d.message
        );
    }

    #[test]
    fn nothing_else_on_the_ticket_or_outside_the_dungeon_is_signed() {
        let g = guard(true);
        let transfer = Call {
            to: TICKET,
            selector: starknet::macros::selector!("transfer"),
            calldata: vec![OTHER, Felt::from(ONE), Felt::ZERO],
        };
        let d = denied(&g, &[transfer]);
        assert_eq!(d.rule, "ticket_approve");
        // buy_game on another contract, and another token's approve, are not game calls.
        let d = denied(&g, &[buy_game(OTHER, &[0])]);
        assert_eq!(d.rule, "allowed_calls");
        let foreign = Call {
            to: OTHER,
            ..approve(DUNGEON, ONE, 0)
        };
        let d = denied(&g, &[foreign, buy_game(DUNGEON, &[0])]);
        assert_eq!(d.rule, "allowed_calls");
        // Without the rule (no ticket on the profile) the ticket is not a game contract at all.
        let d = denied(
            &guard(false),
            &[approve(DUNGEON, ONE, 0), buy_game(DUNGEON, &[0])],
        );
        assert_eq!(d.rule, "allowed_calls");
    }
}
