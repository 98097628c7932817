//! The session vector reproduced from `@cartridge/controller-wasm` 0.10.0 (signed offline with
//! `CartridgeSessionAccount.newAsRegistered(...).sign`), and refusals.

use starknet::core::types::{Call, Felt};
use starknet::macros::selector;
use starknet_types_core::felt::secret_felt::SecretFelt;

use super::*;
use crate::SecretSigner;

const GAME: Felt =
    Felt::from_hex_unchecked("0x023f86f5b4702f6ba114b82fb73448c58aad8f37a28b508b80bf129ee1edc405");
const VRF: Felt =
    Felt::from_hex_unchecked("0x051fea4450da9d6aee758bdeba88b2f665bcbf549d2c61421aa724e9ac0ced8f");
const ADDRESS: Felt = Felt::from_hex_unchecked("0x0123456789abcdef");
const SN_SEPOLIA: Felt = Felt::from_hex_unchecked("0x534e5f5345504f4c4941");

fn vector_signer() -> SessionSigner {
    let mut key = Felt::from_hex_unchecked("0x1234567890abcdef1234567890abcdef");
    let key = SecretSigner::new(SecretFelt::from_felt(&mut key));
    let policies = SessionPolicies::new([
        (VRF, "request_random"),
        (GAME, "flee"),
        (GAME, "explore"),
        (GAME, "attack"),
    ])
    .unwrap();
    SessionSigner::new_as_registered(
        key,
        ADDRESS,
        Felt::from(0x5555),
        SN_SEPOLIA,
        policies,
        2_000_000_000,
    )
}

fn vector_calls() -> Vec<Call> {
    vec![
        Call {
            to: VRF,
            selector: selector!("request_random"),
            calldata: vec![GAME, Felt::ZERO, ADDRESS],
        },
        Call {
            to: GAME,
            selector: selector!("explore"),
            calldata: vec![Felt::from(7), Felt::ZERO],
        },
    ]
}

/// The 25 felts controller-wasm 0.10.0 returns for the vector (all hex, in order).
const VECTOR_SIGNATURE: [&str; 25] = [
    "0x73657373696f6e2d746f6b656e",
    "0x77359400",
    "0x29967f0bf491234e225f4a02b537541e9e83a36b275b30284d3087361b42897",
    "0x0",
    "0x65536fada1145a74b181bed7894a8f5305ee8e8f75b488bd3b28e0a106872e4",
    "0x0",
    "0x1",
    "0x2",
    "0x617574686f72697a6174696f6e2d62792d72656769737465726564",
    "0x5555",
    "0x0",
    "0x31b88d91e173d70b5bd284f7a898d99005d9ade236ee671e0db0078996aa599",
    "0x7a980877fd6fc88137ef0792fc3369bc93bd8988490775fb5b2184ac3e4af36",
    "0x5091486559ff9211b8cdeec685d6d79f806ba4336ad293bc12f23530ca566c2",
    "0x0",
    "0x1e6a6f52e47fe42e024287b729bc47e58019fcc7e1cc8b141bb8d669b779b49",
    "0x3623b0081f7b3a990b3931f2eb0e31cfd11e143a658ee76d50fa8105ef7afc1",
    "0x571fa746586a4f5bac850709959a282adda9fc68b35db0e130b64ae945a69e",
    "0x2",
    "0x2",
    "0x417a2b21fee20a4d8209012ea8f38a5d94f6152014a1139c9d17b90416e1e91",
    "0x62939cb143941921f4706f323d26305981101c7f9ed03733c0f3b2cb0f88233",
    "0x2",
    "0x6f41517591f4e5618795e82173c3203ca02939e26f2895ff6b7760ad611460e",
    "0x61b6c9ecac242b09b362ef674be1ae4e0509f4fc1a9ef55a9d7a6e31d3cdc23",
];

fn felt(hex: &str) -> Felt {
    Felt::from_hex(hex).unwrap()
}

#[test]
fn vector_guid_root_and_session_hash() {
    let s = vector_signer();
    assert_eq!(
        s.session().session_key_guid,
        felt("0x65536fada1145a74b181bed7894a8f5305ee8e8f75b488bd3b28e0a106872e4")
    );
    assert_eq!(
        stark_signer_guid(s.public_key()),
        s.session().session_key_guid
    );
    assert_eq!(
        s.policies().root(),
        felt("0x29967f0bf491234e225f4a02b537541e9e83a36b275b30284d3087361b42897")
    );
    assert_eq!(
        s.session_hash(),
        felt("0x126e83619bffaf71ba40cb8efd9ba949e0c143fd79849eabd12fd053ddb1577")
    );
}

#[tokio::test]
async fn vector_signature_is_reproduced_exactly() {
    let s = vector_signer();
    let got = s.sign(Felt::from(0xabc), &vector_calls()).await.unwrap();
    let want: Vec<Felt> = VECTOR_SIGNATURE.iter().map(|h| felt(h)).collect();
    assert_eq!(got, want);
}

#[tokio::test]
async fn session_key_signature_verifies_on_the_session_message() {
    let s = vector_signer();
    let hash = Felt::from(0xabc);
    let sig = s.sign(hash, &vector_calls()).await.unwrap();
    let message = session_message(hash, s.session_hash());
    assert_eq!(sig[11], s.public_key());
    assert!(starknet_crypto::verify(&sig[11], &message, &sig[12], &sig[13]).unwrap());
    assert!(starknet_crypto::verify(&sig[15], &message, &sig[16], &sig[17]).unwrap());
    assert!(!starknet_crypto::verify(&sig[11], &hash, &sig[12], &sig[13]).unwrap());
}

#[test]
fn vector_policy_order_and_proofs() {
    let s = vector_signer();
    let names: Vec<&str> = s
        .policies()
        .policies()
        .iter()
        .map(|p| p.entrypoint.as_str())
        .collect();
    assert_eq!(names, ["attack", "explore", "flee", "request_random"]);
    let proofs = s.proofs(&vector_calls()).unwrap();
    for (call, proof) in vector_calls().iter().zip(&proofs) {
        let leaf = Policy {
            contract: call.to,
            entrypoint: String::new(),
            selector: call.selector,
        }
        .leaf();
        assert!(s.policies().verify(leaf, proof));
    }
}

#[tokio::test]
async fn a_call_outside_the_policies_is_refused_before_signing() {
    let s = vector_signer();
    let mut calls = vector_calls();
    calls.push(Call {
        to: GAME,
        selector: selector!("buy_items"),
        calldata: vec![],
    });
    let err = s.sign(Felt::ONE, &calls).await.unwrap_err();
    assert!(
        matches!(err, SessionError::NotInPolicies { contract, selector: sel }
            if contract == GAME && sel == selector!("buy_items")),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(text.contains(&format!("{GAME:#x}")), "{text}");
    assert!(
        text.contains(&format!("{:#x}", selector!("buy_items"))),
        "{text}"
    );

    let other = Call {
        to: Felt::from(0x999),
        selector: selector!("explore"),
        calldata: vec![],
    };
    assert!(matches!(
        s.sign(Felt::ONE, &[other]).await,
        Err(SessionError::NotInPolicies { .. })
    ));
}

#[tokio::test]
async fn a_call_to_the_account_itself_is_refused() {
    let s = vector_signer();
    let call = Call {
        to: ADDRESS,
        selector: selector!("register_session"),
        calldata: vec![],
    };
    assert!(matches!(
        s.sign(Felt::ONE, &[call]).await,
        Err(SessionError::CallToSelf { .. })
    ));
}

#[test]
fn debug_output_holds_no_private_key() {
    let text = format!("{:?}", vector_signer());
    assert!(!text.contains("1234567890abcdef1234567890abcdef"), "{text}");
    assert!(text.contains("public_key"), "{text}");
}
