//! The calls a transaction makes, as its accounts run them: the sender's `__execute__` multicall
//! and, inside a relayed transaction, the calls of each SNIP-9 outside execution (v1/v2 with a felt
//! nonce, v3 with the Controller's `(channel, mask)` nonce), so that a paymaster-wrapped action
//! shows its `request_random` like a plain one.

use game::felt::{DecodeError, FeltReader};
use serde::Serialize;
use starknet::core::types::{Call, Felt};

use chain::controller::outside_v3::EXECUTE_FROM_OUTSIDE_V3;
use chain::outside::EXECUTE_FROM_OUTSIDE_V2;

/// SNIP-9 v1's entrypoint (same `OutsideExecution` layout as v2 in Cairo 1 accounts).
const EXECUTE_FROM_OUTSIDE_V1: Felt = starknet::macros::selector!("execute_from_outside");

/// How deep outside executions are unwrapped (a relayed execution inside a relayed one, at most).
const MAX_NESTING: usize = 2;

/// Who ran a call: the transaction's sender directly, or an account through an outside execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Route {
    /// A call of the sender's own multicall.
    Direct,
    /// A call inside `execute_from_outside_v{version}` on `account` (the player's account).
    Outside {
        /// The account that signed and ran the execution.
        account: Felt,
        /// SNIP-9 version: 1, 2, or 3 (the Controller's).
        version: u8,
    },
}

/// One call with the route it ran by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoutedCall {
    /// The contract called.
    pub to: Felt,
    /// The entrypoint's selector.
    pub selector: Felt,
    /// The arguments.
    pub calldata: Vec<Felt>,
    /// Who made the call.
    pub route: Route,
}

/// The calls of a Cairo 1 account's `__execute__` calldata, `Array<Call>`: `[n, (to, selector,
/// len, data…)*]` (Cairo 0 accounts' offset layout is not read: no account plays with one).
pub fn execute_calls(calldata: &[Felt]) -> Result<Vec<Call>, DecodeError> {
    let mut r = FeltReader::new(calldata);
    let calls = read_calls(&mut r).map_err(|e| e.within("__execute__"))?;
    r.finish()?;
    Ok(calls)
}

/// Every call of a transaction whose `__execute__` calldata is `calldata`, in execution order, with
/// the calls of any outside execution among them right after the call that runs it.
pub fn routed_calls(calldata: &[Felt]) -> Result<Vec<RoutedCall>, DecodeError> {
    let mut out = Vec::new();
    push_routed(&mut out, execute_calls(calldata)?, Route::Direct, 0)?;
    Ok(out)
}

fn push_routed(
    out: &mut Vec<RoutedCall>,
    calls: Vec<Call>,
    route: Route,
    depth: usize,
) -> Result<(), DecodeError> {
    for call in calls {
        let inner = match outside_version(call.selector) {
            Some(version) if depth < MAX_NESTING => Some((
                outside_calls(version, &call.calldata)
                    .map_err(|e| e.within(&format!("execute_from_outside_v{version}")))?,
                Route::Outside {
                    account: call.to,
                    version,
                },
            )),
            _ => None,
        };
        out.push(RoutedCall {
            to: call.to,
            selector: call.selector,
            calldata: call.calldata,
            route,
        });
        if let Some((calls, route)) = inner {
            push_routed(out, calls, route, depth + 1)?;
        }
    }
    Ok(())
}

fn outside_version(selector: Felt) -> Option<u8> {
    match selector {
        s if s == EXECUTE_FROM_OUTSIDE_V1 => Some(1),
        s if s == EXECUTE_FROM_OUTSIDE_V2 => Some(2),
        s if s == EXECUTE_FROM_OUTSIDE_V3 => Some(3),
        _ => None,
    }
}

/// The calls of `execute_from_outside_v*(outside_execution, signature)`: the struct is `caller,
/// nonce (one felt; two for v3), execute_after, execute_before, calls`, then the signature span.
fn outside_calls(version: u8, calldata: &[Felt]) -> Result<Vec<Call>, DecodeError> {
    let mut r = FeltReader::new(calldata);
    r.felt("caller")?;
    r.felt("nonce")?;
    if version == 3 {
        r.felt("nonce mask")?;
    }
    r.felt("execute_after")?;
    r.felt("execute_before")?;
    let calls = read_calls(&mut r)?;
    r.array("signature", 1, |r| r.felt("signature"))?;
    r.finish()?;
    Ok(calls)
}

/// Cairo 1's Serde of `Array<Call>`.
fn read_calls(r: &mut FeltReader) -> Result<Vec<Call>, DecodeError> {
    r.array("calls", 3, |r| {
        Ok(Call {
            to: r.felt("to")?,
            selector: r.felt("selector")?,
            calldata: r.array("calldata", 1, |r| r.felt("calldata"))?,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chain::controller::outside_v3::OutsideExecutionV3;
    use chain::outside::{ANY_CALLER, OutsideExecution, push_calls};

    fn call(to: u64, selector: Felt, data: &[u64]) -> Call {
        Call {
            to: Felt::from(to),
            selector,
            calldata: data.iter().map(|&d| Felt::from(d)).collect(),
        }
    }

    fn execute(calls: &[Call]) -> Vec<Felt> {
        let mut out = Vec::new();
        push_calls(&mut out, calls);
        out
    }

    fn request() -> Call {
        call(0xf0, wallet::REQUEST_RANDOM_SELECTOR, &[0x6a, 1, 0x5a17])
    }

    fn explore() -> Call {
        call(0x6a, starknet::macros::selector!("explore"), &[42, 1])
    }

    #[test]
    fn a_cairo1_multicall_reads_back_as_its_calls() {
        let calls = vec![request(), explore()];
        let routed = routed_calls(&execute(&calls)).unwrap();
        assert_eq!(routed.len(), 2);
        assert_eq!(routed[0].calldata, request().calldata);
        assert_eq!(routed[1].selector, explore().selector);
        assert!(routed.iter().all(|c| c.route == Route::Direct));
    }

    #[test]
    fn a_truncated_multicall_is_refused_with_the_field() {
        let mut data = execute(&[request()]);
        data.pop();
        let e = routed_calls(&data).unwrap_err().to_string();
        assert!(e.contains("calldata"), "{e}");
    }

    #[tokio::test]
    async fn the_calls_inside_a_relayed_v2_outside_execution_are_found() {
        let key = Felt::from_hex("0x71d7bb07b9a64f6f78ac4c816aff4da9").unwrap();
        let signer = starknet::signers::LocalWallet::from(
            starknet::signers::SigningKey::from_secret_scalar(key),
        );
        let player = Felt::from(0xacc_u16);
        let signed = OutsideExecution {
            caller: ANY_CALLER,
            nonce: Felt::from(77u8),
            execute_after: 1,
            execute_before: 2_000_000_000,
            calls: vec![request(), explore()],
        }
        .sign(&signer, player, Felt::from(5u8))
        .await
        .unwrap();
        let submit = call(
            0xf0,
            starknet::macros::selector!("submit_random"),
            &[9, 1, 2],
        );
        let outer = execute(&[submit, signed.execute_call()]);
        let routed = routed_calls(&outer).unwrap();
        let names: Vec<_> = routed.iter().map(|c| (c.selector, c.route)).collect();
        let inside = Route::Outside {
            account: player,
            version: 2,
        };
        assert_eq!(
            names,
            vec![
                (starknet::macros::selector!("submit_random"), Route::Direct),
                (EXECUTE_FROM_OUTSIDE_V2, Route::Direct),
                (wallet::REQUEST_RANDOM_SELECTOR, inside),
                (explore().selector, inside),
            ]
        );
        assert_eq!(routed[2].calldata, request().calldata);
    }

    #[test]
    fn the_calls_inside_a_controller_v3_execution_are_found() {
        let e = OutsideExecutionV3 {
            caller: ANY_CALLER,
            nonce: (Felt::from(0xc4a_u16), 1),
            execute_after: 0,
            execute_before: 2_000_000_000,
            calls: vec![request(), explore()],
        };
        let player = Felt::from(0xbee_u16);
        let outer = execute(&[e.execute_call(player, &[Felt::ONE, Felt::TWO])]);
        let routed = routed_calls(&outer).unwrap();
        assert_eq!(routed.len(), 3);
        assert_eq!(
            routed[1].route,
            Route::Outside {
                account: player,
                version: 3
            }
        );
        assert_eq!(routed[1].calldata, request().calldata);
        assert_eq!(routed[2].calldata, explore().calldata);
    }
}
