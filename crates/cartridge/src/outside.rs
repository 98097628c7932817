//! SNIP-9 v2 outside execution: the `OutsideExecution` a wallet signs so that someone else (the
//! Cartridge paymaster) can submit its calls through the account's `execute_from_outside_v2`,
//! hashed as SNIP-12 revision 1 typed data (Poseidon) and signed with the wallet's key.

use serde::Serialize;
use starknet::core::types::{Call, Felt};
use starknet::core::utils::starknet_keccak;
use starknet::signers::Signer;
use starknet_crypto::poseidon_hash_many;

/// `'ANY_CALLER'`: an `OutsideExecution` anybody may submit.
pub const ANY_CALLER: Felt = Felt::from_hex_unchecked("0x414e595f43414c4c4552");

/// The SNIP-12 revision 1 type string of the domain (one copy, shared with Controller sessions).
pub use wallet::session::SNIP12_DOMAIN_TYPE as DOMAIN_TYPE;

/// The SNIP-12 revision 1 type string of `OutsideExecution` (with its `Call` dependency).
pub const OUTSIDE_EXECUTION_TYPE: &str = "\"OutsideExecution\"(\"Caller\":\"ContractAddress\",\"Nonce\":\"felt\",\"Execute After\":\"u128\",\"Execute Before\":\"u128\",\"Calls\":\"Call*\")\"Call\"(\"To\":\"ContractAddress\",\"Selector\":\"selector\",\"Calldata\":\"felt*\")";

/// The SNIP-12 revision 1 type string of `Call`.
pub const CALL_TYPE: &str =
    "\"Call\"(\"To\":\"ContractAddress\",\"Selector\":\"selector\",\"Calldata\":\"felt*\")";

/// `'Account.execute_from_outside'`, the domain name of SNIP-9.
const DOMAIN_NAME: &str = "Account.execute_from_outside";

/// The account entrypoint that runs a SNIP-9 v2 outside execution.
pub const EXECUTE_FROM_OUTSIDE_V2: Felt = starknet::macros::selector!("execute_from_outside_v2");

/// A SNIP-9 v2 `OutsideExecution`: who may submit it, a one-time nonce, the time window
/// (exclusive bounds, block timestamps in seconds) and the calls the account will make.
#[derive(Debug, Clone, PartialEq)]
pub struct OutsideExecution {
    /// The only address allowed to submit it, or [`ANY_CALLER`].
    pub caller: Felt,
    /// A nonce the account has not seen (any unused felt; SNIP-9 v2 nonces are unordered).
    pub nonce: Felt,
    /// Valid only after this timestamp.
    pub execute_after: u64,
    /// Valid only before this timestamp.
    pub execute_before: u64,
    /// The calls, executed in order from the signing account.
    pub calls: Vec<Call>,
}

/// The short-string felt of an ASCII string of at most 31 characters.
fn short_string(s: &str) -> Felt {
    debug_assert!(s.len() <= 31 && s.is_ascii());
    Felt::from_bytes_be_slice(s.as_bytes())
}

/// The SNIP-12 revision 1 domain hash of SNIP-9 v2 for a chain.
pub fn domain_hash(chain_id: Felt) -> Felt {
    snip9_domain_hash(chain_id, Felt::ONE)
}

/// The SNIP-9 domain `{name: 'Account.execute_from_outside', version: 2, chain_id, revision}`,
/// hashed with the revision 1 type string and felt (not short-string) version and revision, as
/// the accounts do: revision 1 for v2, 2 for the Controller's v3.
pub(crate) fn snip9_domain_hash(chain_id: Felt, revision: Felt) -> Felt {
    poseidon_hash_many(&[
        starknet_keccak(DOMAIN_TYPE.as_bytes()),
        short_string(DOMAIN_NAME),
        Felt::TWO,
        chain_id,
        revision,
    ])
}

/// The struct hash of one `Call`.
fn call_hash(call: &Call) -> Felt {
    poseidon_hash_many(&[
        starknet_keccak(CALL_TYPE.as_bytes()),
        call.to,
        call.selector,
        poseidon_hash_many(&call.calldata),
    ])
}

/// The hash of the `Calls` field: Poseidon over the struct hashes of the calls, in order.
pub(crate) fn calls_hash(calls: &[Call]) -> Felt {
    let hashes: Vec<Felt> = calls.iter().map(call_hash).collect();
    poseidon_hash_many(&hashes)
}

/// `poseidon('StarkNet Message', domain, account, struct_hash)`, the SNIP-12 message hash.
pub(crate) fn message_hash_of(domain: Felt, account: Felt, struct_hash: Felt) -> Felt {
    poseidon_hash_many(&[
        short_string("StarkNet Message"),
        domain,
        account,
        struct_hash,
    ])
}

/// Appends the Cairo Serde of `Array<Call>` (length, then `to, selector, calldata` per call).
pub fn push_calls(out: &mut Vec<Felt>, calls: &[Call]) {
    out.push(Felt::from(calls.len()));
    for call in calls {
        out.push(call.to);
        out.push(call.selector);
        out.push(Felt::from(call.calldata.len()));
        out.extend_from_slice(&call.calldata);
    }
}

/// Appends the signature to an outside execution's Serde, as a `Span<felt252>` (the calldata of
/// `execute_from_outside_v2` and `_v3`).
pub(crate) fn with_signature(mut calldata: Vec<Felt>, signature: &[Felt]) -> Vec<Felt> {
    calldata.push(Felt::from(signature.len()));
    calldata.extend_from_slice(signature);
    calldata
}

impl OutsideExecution {
    /// The struct hash of this `OutsideExecution` (SNIP-12 revision 1).
    pub fn struct_hash(&self) -> Felt {
        poseidon_hash_many(&[
            starknet_keccak(OUTSIDE_EXECUTION_TYPE.as_bytes()),
            self.caller,
            self.nonce,
            Felt::from(self.execute_after),
            Felt::from(self.execute_before),
            calls_hash(&self.calls),
        ])
    }

    /// The message hash the account checks the signature against:
    /// `poseidon('StarkNet Message', domain_hash(chain_id), signer, struct_hash)`.
    pub fn message_hash(&self, chain_id: Felt, signer: Felt) -> Felt {
        message_hash_of(domain_hash(chain_id), signer, self.struct_hash())
    }

    /// The Cairo Serde of the struct (`execute_from_outside_v2`'s first argument).
    pub fn to_calldata(&self) -> Vec<Felt> {
        let mut out = vec![
            self.caller,
            self.nonce,
            Felt::from(self.execute_after),
            Felt::from(self.execute_before),
        ];
        push_calls(&mut out, &self.calls);
        out
    }

    /// Signs the message hash with `signer` for the account `account` on `chain_id`.
    pub async fn sign<S: Signer>(
        self,
        signer: &S,
        account: Felt,
        chain_id: Felt,
    ) -> Result<SignedOutsideExecution, S::SignError> {
        let hash = self.message_hash(chain_id, account);
        let sig = signer.sign_hash(&hash).await?;
        Ok(SignedOutsideExecution {
            account,
            execution: self,
            hash,
            signature: vec![sig.r, sig.s],
        })
    }
}

/// An `OutsideExecution` with the account it is for and the account's signature.
#[derive(Debug, Clone, PartialEq)]
pub struct SignedOutsideExecution {
    /// The account that signed and will execute the calls.
    pub account: Felt,
    /// What was signed.
    pub execution: OutsideExecution,
    /// The SNIP-12 message hash that was signed.
    pub hash: Felt,
    /// The signature (`[r, s]` for a Stark-key account).
    pub signature: Vec<Felt>,
}

impl SignedOutsideExecution {
    /// The call on the account that runs it: `execute_from_outside_v2(outside_execution,
    /// signature)`, for a relayer to include in its own transaction.
    pub fn execute_call(&self) -> Call {
        Call {
            to: self.account,
            selector: EXECUTE_FROM_OUTSIDE_V2,
            calldata: with_signature(self.execution.to_calldata(), &self.signature),
        }
    }
}

/// JSON hex form of a felt (`0x…`, lower case, no leading zeros), as RPC nodes write it.
pub(crate) fn hex(f: &Felt) -> String {
    format!("{f:#x}")
}

/// The JSON shape of an outside execution in the Cartridge RPC (snake case keys, hex felts), one
/// for v2 and v3: `N` is the nonce's form (a felt for v2, `[channel, mask]` for v3) and `T` the
/// time bounds' (hex strings, or numbers in v2's request).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct OutsideExecutionJson<N = String, T = String> {
    /// Caller address.
    pub caller: String,
    /// Nonce.
    pub nonce: N,
    /// Lower time bound.
    pub execute_after: T,
    /// Upper time bound.
    pub execute_before: T,
    /// Calls.
    pub calls: Vec<CallJson>,
}

impl<N, T> OutsideExecutionJson<N, T> {
    /// The shape of an execution from its parts in their JSON forms; caller and calls in hex.
    pub(crate) fn new(
        caller: &Felt,
        nonce: N,
        execute_after: T,
        execute_before: T,
        calls: &[Call],
    ) -> Self {
        Self {
            caller: hex(caller),
            nonce,
            execute_after,
            execute_before,
            calls: calls.iter().map(CallJson::from).collect(),
        }
    }
}

/// A call in the Cartridge RPC.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CallJson {
    /// Target contract.
    pub to: String,
    /// Entrypoint selector.
    pub selector: String,
    /// Calldata felts.
    pub calldata: Vec<String>,
}

impl From<&OutsideExecution> for OutsideExecutionJson {
    fn from(e: &OutsideExecution) -> Self {
        Self::new(
            &e.caller,
            hex(&e.nonce),
            hex(&Felt::from(e.execute_after)),
            hex(&Felt::from(e.execute_before)),
            &e.calls,
        )
    }
}

impl From<&Call> for CallJson {
    fn from(c: &Call) -> Self {
        Self {
            to: hex(&c.to),
            selector: hex(&c.selector),
            calldata: c.calldata.iter().map(hex).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn fixture() -> Value {
        let text = include_str!("../../../tests/fixtures/outside_execution.json");
        serde_json::from_str(text).unwrap()
    }

    fn felt(v: &Value) -> Felt {
        Felt::from_hex(v.as_str().unwrap()).unwrap()
    }

    fn execution_of(case: &Value) -> OutsideExecution {
        let u64_of = |v: &Value| u64::try_from(felt(v).to_biguint()).ok();
        OutsideExecution {
            caller: felt(&case["caller"]),
            nonce: felt(&case["nonce"]),
            execute_after: u64_of(&case["execute_after"]).unwrap_or(0),
            execute_before: u64_of(&case["execute_before"]).unwrap_or(0),
            calls: case["calls"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| Call {
                    to: felt(&c["to"]),
                    selector: felt(&c["selector"]),
                    calldata: c["calldata"].as_array().unwrap().iter().map(felt).collect(),
                })
                .collect(),
        }
    }

    /// A fixed v2 execution: one call with two calldata felts, nonce 0xabcdef.
    fn fixed() -> OutsideExecution {
        OutsideExecution {
            caller: ANY_CALLER,
            nonce: Felt::from(0xabcdef_u64),
            execute_after: 5,
            execute_before: 1_900_000_000,
            calls: vec![Call {
                to: Felt::from(0x5e2d_u64),
                selector: starknet::macros::selector!("explore"),
                calldata: vec![Felt::from(42), Felt::ONE],
            }],
        }
    }

    #[test]
    fn json_form_writes_every_number_in_hex_byte_for_byte() {
        let text = serde_json::to_string(&OutsideExecutionJson::from(&fixed())).unwrap();
        assert_eq!(
            text,
            r#"{"caller":"0x414e595f43414c4c4552","nonce":"0xabcdef","execute_after":"0x5","execute_before":"0x713fb300","calls":[{"to":"0x5e2d","selector":"0x1f64d317ff277789ba74de95db50418ab0fa47c09241400b7379b50d6334c3a","calldata":["0x2a","0x1"]}]}"#
        );
    }

    #[test]
    fn type_strings_match_starknet_js() {
        let f = fixture();
        assert_eq!(
            f["outside_execution_type"].as_str().unwrap(),
            OUTSIDE_EXECUTION_TYPE
        );
        assert_eq!(f["domain_type"].as_str().unwrap(), DOMAIN_TYPE);
        assert!(OUTSIDE_EXECUTION_TYPE.ends_with(CALL_TYPE));
    }

    #[test]
    fn message_hashes_match_starknet_js() {
        let f = fixture();
        let mut checked = 0;
        for case in f["executions"].as_array().unwrap() {
            let before = felt(&case["execute_before"]);
            if u64::try_from(before.to_biguint()).is_err() {
                // u128 bound beyond u64: hash it by hand to check the field encoding too.
                let e = execution_of(case);
                let calls: Vec<Felt> = e.calls.iter().map(call_hash).collect();
                let struct_hash = poseidon_hash_many(&[
                    starknet_keccak(OUTSIDE_EXECUTION_TYPE.as_bytes()),
                    e.caller,
                    e.nonce,
                    felt(&case["execute_after"]),
                    before,
                    poseidon_hash_many(&calls),
                ]);
                let hash = poseidon_hash_many(&[
                    short_string("StarkNet Message"),
                    domain_hash(felt(&case["chain_id"])),
                    felt(&case["signer"]),
                    struct_hash,
                ]);
                assert_eq!(hash, felt(&case["message_hash"]), "{}", case["name"]);
            } else {
                let e = execution_of(case);
                assert_eq!(
                    e.message_hash(felt(&case["chain_id"]), felt(&case["signer"])),
                    felt(&case["message_hash"]),
                    "{}",
                    case["name"]
                );
            }
            checked += 1;
        }
        assert_eq!(checked, 5);
    }

    #[test]
    fn calldata_is_cairo_serde() {
        let e = OutsideExecution {
            caller: ANY_CALLER,
            nonce: Felt::from(9),
            execute_after: 1,
            execute_before: 2,
            calls: vec![Call {
                to: Felt::from(7),
                selector: Felt::from(8),
                calldata: vec![Felt::from(10), Felt::from(11)],
            }],
        };
        let want: Vec<Felt> = [0x414e595f43414c4c4552u128, 9, 1, 2, 1, 7, 8, 2, 10, 11]
            .into_iter()
            .map(Felt::from)
            .collect();
        assert_eq!(e.to_calldata(), want);
    }

    #[tokio::test]
    async fn signature_verifies_against_the_message_hash() {
        let key = Felt::from_hex("0x71d7bb07b9a64f6f78ac4c816aff4da9").unwrap();
        let signer = starknet::signers::LocalWallet::from(
            starknet::signers::SigningKey::from_secret_scalar(key),
        );
        let e = execution_of(&fixture()["executions"][0]);
        let account = Felt::from(0x1234);
        let signed = e.sign(&signer, account, Felt::from(5)).await.unwrap();
        let public = starknet_crypto::get_public_key(&key);
        assert!(
            starknet_crypto::verify(
                &public,
                &signed.hash,
                &signed.signature[0],
                &signed.signature[1]
            )
            .unwrap()
        );
        let call = signed.execute_call();
        assert_eq!(call.to, account);
        assert_eq!(call.selector, EXECUTE_FROM_OUTSIDE_V2);
        assert_eq!(
            &call.calldata[call.calldata.len() - 3..],
            &[Felt::TWO, signed.signature[0], signed.signature[1]]
        );
    }
}
