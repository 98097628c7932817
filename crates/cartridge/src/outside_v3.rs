//! SNIP-9 outside execution v3 as the Cartridge Controller (v1.0.6 and later) implements it: the
//! nonce is a `(channel, mask)` bitmask and the hash is SNIP-12 with domain revision 2
//! (controller-cairo `src/outside_execution/outside_execution_hash.cairo` and
//! `outside_execution.cairo` @ `e3cb4d0e`; controller-rs
//! `account_sdk/src/account/outside_execution_v3.rs` @ `addbf831`). A Controller session key
//! signs its message hash like a transaction hash.

use starknet::core::types::{Call, Felt};
use starknet::core::utils::starknet_keccak;
use starknet_crypto::poseidon_hash_many;

use crate::CartridgeError;
use crate::outside::{
    ANY_CALLER, OutsideExecutionJson, calls_hash, hex, message_hash_of, push_calls,
    snip9_domain_hash, with_signature,
};

/// The type string of the v3 `OutsideExecution` (with its `Call` dependency); it differs from
/// v2's only in `"Nonce":"(felt,u128)"`.
pub const OUTSIDE_EXECUTION_V3_TYPE: &str = "\"OutsideExecution\"(\"Caller\":\"ContractAddress\",\"Nonce\":\"(felt,u128)\",\"Execute After\":\"u128\",\"Execute Before\":\"u128\",\"Calls\":\"Call*\")\"Call\"(\"To\":\"ContractAddress\",\"Selector\":\"selector\",\"Calldata\":\"felt*\")";

/// The account entrypoint that runs a v3 outside execution.
pub const EXECUTE_FROM_OUTSIDE_V3: Felt = starknet::macros::selector!("execute_from_outside_v3");

/// A v3 `OutsideExecution`: who may submit it, a bitmask nonce, the time window (exclusive
/// bounds, block timestamps in seconds) and the calls the account will make.
#[derive(Debug, Clone, PartialEq)]
pub struct OutsideExecutionV3 {
    /// The only address allowed to submit it, or [`ANY_CALLER`].
    pub caller: Felt,
    /// `(channel, mask)`: accepted when `mask != 0` and no bit of `mask` is already set in the
    /// channel's stored mask; the account then ORs `mask` into it.
    pub nonce: (Felt, u128),
    /// Valid only after this timestamp.
    pub execute_after: u64,
    /// Valid only before this timestamp.
    pub execute_before: u64,
    /// The calls, executed in order from the signing account.
    pub calls: Vec<Call>,
}

/// A nonce no account has used: a random 248-bit channel with mask 1. One channel per execution
/// costs a storage slot each but needs no record of which bits were spent.
pub fn fresh_nonce() -> Result<(Felt, u128), CartridgeError> {
    let mut bytes = [0u8; 31];
    getrandom::fill(&mut bytes).map_err(CartridgeError::Randomness)?;
    Ok((Felt::from_bytes_be_slice(&bytes), 1))
}

impl OutsideExecutionV3 {
    /// An execution anybody may submit until `execute_before`, with a [`fresh_nonce`] (the
    /// Controller SDK also uses `ANY_CALLER` and `execute_after = 0`).
    pub fn new_any_caller(calls: Vec<Call>, execute_before: u64) -> Result<Self, CartridgeError> {
        Ok(Self {
            caller: ANY_CALLER,
            nonce: fresh_nonce()?,
            execute_after: 0,
            execute_before,
            calls,
        })
    }

    /// The SNIP-12 struct hash (the channel and the mask are hashed as two values).
    pub fn struct_hash(&self) -> Felt {
        poseidon_hash_many(&[
            starknet_keccak(OUTSIDE_EXECUTION_V3_TYPE.as_bytes()),
            self.caller,
            self.nonce.0,
            Felt::from(self.nonce.1),
            Felt::from(self.execute_after),
            Felt::from(self.execute_before),
            calls_hash(&self.calls),
        ])
    }

    /// The message hash `execute_from_outside_v3` checks the signature against, as the view
    /// `get_outside_execution_message_hash_rev_2` returns it: domain revision 2.
    pub fn message_hash(&self, chain_id: Felt, account: Felt) -> Felt {
        message_hash_of(
            snip9_domain_hash(chain_id, Felt::TWO),
            account,
            self.struct_hash(),
        )
    }

    /// The Cairo Serde of the struct alone (the view's argument).
    pub fn serialize(&self) -> Vec<Felt> {
        let mut out = vec![
            self.caller,
            self.nonce.0,
            Felt::from(self.nonce.1),
            Felt::from(self.execute_after),
            Felt::from(self.execute_before),
        ];
        push_calls(&mut out, &self.calls);
        out
    }

    /// The calldata of `execute_from_outside_v3(outside_execution, signature)`.
    pub fn to_calldata(&self, signature: &[Felt]) -> Vec<Felt> {
        with_signature(self.serialize(), signature)
    }

    /// The call on `account` that runs this execution, for a relayer's own transaction.
    pub fn execute_call(&self, account: Felt, signature: &[Felt]) -> Call {
        Call {
            to: account,
            selector: EXECUTE_FROM_OUTSIDE_V3,
            calldata: self.to_calldata(signature),
        }
    }
}

/// The JSON of a v3 `OutsideExecution` as the Controller SDK sends it to the paymaster: every
/// number a 0x-hex string, the nonce a two-element array `[channel, mask]`.
pub type OutsideExecutionV3Json = OutsideExecutionJson<[String; 2]>;

impl From<&OutsideExecutionV3> for OutsideExecutionV3Json {
    fn from(e: &OutsideExecutionV3) -> Self {
        Self::new(
            &e.caller,
            [hex(&e.nonce.0), hex(&Felt::from(e.nonce.1))],
            hex(&Felt::from(e.execute_after)),
            hex(&Felt::from(e.execute_before)),
            &e.calls,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use starknet::macros::{felt, selector};
    use starknet_crypto::poseidon_permute_comp;

    /// A fixed execution: a STRK transfer of 1234 fri to 0x5eed, channel 0xc0ffee, mask 4.
    fn fixed() -> OutsideExecutionV3 {
        OutsideExecutionV3 {
            caller: ANY_CALLER,
            nonce: (Felt::from(0xc0ffee_u64), 4),
            execute_after: 0,
            execute_before: 2_000_000_000,
            calls: vec![Call {
                to: felt!("0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d"),
                selector: selector!("transfer"),
                calldata: vec![Felt::from(0x5eed), Felt::from(1234), Felt::ZERO],
            }],
        }
    }

    #[test]
    fn type_string_hashes_to_the_controller_constant() {
        // OUTSIDE_EXECUTION_TYPE_HASH_REV_2 is `selector!` of this string in controller-cairo.
        assert_eq!(
            starknet_keccak(OUTSIDE_EXECUTION_V3_TYPE.as_bytes()),
            selector!(
                "\"OutsideExecution\"(\"Caller\":\"ContractAddress\",\"Nonce\":\"(felt,u128)\",\"Execute After\":\"u128\",\"Execute Before\":\"u128\",\"Calls\":\"Call*\")\"Call\"(\"To\":\"ContractAddress\",\"Selector\":\"selector\",\"Calldata\":\"felt*\")"
            )
        );
        assert!(OUTSIDE_EXECUTION_V3_TYPE.ends_with(crate::outside::CALL_TYPE));
    }

    #[test]
    fn domain_matches_the_controller_precomputed_permutations() {
        // controller-cairo `outside_execution_hash.cairo` skips the first Poseidon round on the
        // two public chains with these constants: permute(['StarkNet Message', domain, 0]).
        let cases = [
            (
                "SN_MAIN",
                [
                    "996915192477314844232397706210079185628598843828924621070706959145689833980",
                    "2154834376955455672602400038844399406202405733270731961376124532261347854986",
                    "1129673910579930509220015777859527444962253764479830284363060876794734318472",
                ],
            ),
            (
                "SN_SEPOLIA",
                [
                    "2648373253270285159769360603517540536782489473878572730211506916518063798474",
                    "604219299452944139991089465374505793098487122536238208890268251872611859633",
                    "2075519913841617027120337084019352091900417009471098949739064814802390776233",
                ],
            ),
        ];
        for (chain, want) in cases {
            let chain_id = Felt::from_bytes_be_slice(chain.as_bytes());
            let mut state = [
                Felt::from_bytes_be_slice(b"StarkNet Message"),
                snip9_domain_hash(chain_id, Felt::TWO),
                Felt::ZERO,
            ];
            poseidon_permute_comp(&mut state);
            let want = want.map(|d| Felt::from_dec_str(d).unwrap());
            assert_eq!(state, want, "{chain}");
        }
    }

    #[test]
    fn message_hash_is_the_deployed_controller_s() {
        // `get_outside_execution_message_hash_rev_2` of `fixed()` on a Controller v1.0.9 at this
        // address on starknet-devnet 0.10.1 (SN_SEPOLIA); tests/it/outside_v3_devnet.rs rechecks it.
        let account = felt!("0x3d30e010ae84d432d2845856c48e55d0c5fbbfe42b0f4429aefb77888f09c37");
        let sepolia = Felt::from_bytes_be_slice(b"SN_SEPOLIA");
        assert_eq!(
            fixed().message_hash(sepolia, account),
            felt!("0xa8f0b062c4687f7be43970f9a64bdbf7e099f7be521f75ae1ebff37a86dbc6")
        );
        let mut other = fixed();
        other.nonce.1 = 8;
        assert_ne!(
            other.message_hash(sepolia, account),
            fixed().message_hash(sepolia, account)
        );
    }

    #[test]
    fn calldata_is_cairo_serde_then_the_signature() {
        let e = fixed();
        let sig = [Felt::from(7), Felt::from(8)];
        let call = e.execute_call(Felt::from(0x99), &sig);
        assert_eq!(call.to, Felt::from(0x99));
        assert_eq!(call.selector, selector!("execute_from_outside_v3"));
        let want: Vec<Felt> = vec![
            ANY_CALLER,
            Felt::from(0xc0ffee),
            Felt::from(4),
            Felt::ZERO,
            Felt::from(2_000_000_000),
            Felt::ONE,
            e.calls[0].to,
            selector!("transfer"),
            Felt::from(3),
            Felt::from(0x5eed),
            Felt::from(1234),
            Felt::ZERO,
            Felt::TWO,
            Felt::from(7),
            Felt::from(8),
        ];
        assert_eq!(call.calldata, want);
        assert_eq!(e.to_calldata(&sig), want);
    }

    #[test]
    fn fresh_nonces_differ_and_use_mask_one() {
        let (a, ma) = fresh_nonce().unwrap();
        let (b, mb) = fresh_nonce().unwrap();
        assert_ne!(a, b);
        assert_eq!((ma, mb), (1, 1));
        let e = OutsideExecutionV3::new_any_caller(vec![], 99).unwrap();
        assert_eq!(
            (e.caller, e.execute_after, e.execute_before),
            (ANY_CALLER, 0, 99)
        );
    }

    #[test]
    fn json_is_byte_identical_to_the_pinned_form() {
        let text = serde_json::to_string(&OutsideExecutionV3Json::from(&fixed())).unwrap();
        assert_eq!(
            text,
            r#"{"caller":"0x414e595f43414c4c4552","nonce":["0xc0ffee","0x4"],"execute_after":"0x0","execute_before":"0x77359400","calls":[{"to":"0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d","selector":"0x83afd3f4caedc6eebf44246fe54e38c95e3179a5ec9ea81740eca5b482d12e","calldata":["0x5eed","0x4d2","0x0"]}]}"#
        );
    }

    #[test]
    fn json_writes_every_number_in_hex() {
        let v = serde_json::to_value(OutsideExecutionV3Json::from(&fixed())).unwrap();
        assert_eq!(
            v,
            serde_json::json!({
                "caller": "0x414e595f43414c4c4552",
                "nonce": ["0xc0ffee", "0x4"],
                "execute_after": "0x0",
                "execute_before": "0x77359400",
                "calls": [{
                    "to": "0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d",
                    "selector": "0x83afd3f4caedc6eebf44246fe54e38c95e3179a5ec9ea81740eca5b482d12e",
                    "calldata": ["0x5eed", "0x4d2", "0x0"],
                }],
            })
        );
    }
}
