//! Tests of the approval wire formats, against upstream payloads written out literally.

use super::*;

const SEPOLIA: Felt = Felt::from_hex_unchecked("0x534e5f5345504f4c4941");
const GUID: Felt =
    Felt::from_hex_unchecked("0x65536fada1145a74b181bed7894a8f5305ee8e8f75b488bd3b28e0a106872e4");

fn approved(username: Option<&str>, address: u64, expires_at: u64) -> ApprovedSession {
    ApprovedSession {
        address: Felt::from(address),
        owner_guid: Felt::from(0x5555u32),
        expires_at,
        username: username.map(str::to_owned),
    }
}

/// The approval URL for `policies` and `rpc` on the default keychain: key 0xabcd, expiry
/// 2,000,000,000, callback port 41234, no approvals or labels.
fn test_approval_url(policies: &SessionPolicies, rpc: &Url) -> Url {
    approval_url(&ApprovalRequest {
        keychain_url: &Url::parse(DEFAULT_KEYCHAIN_URL).unwrap(),
        public_key: Felt::from(0xabcdu32),
        policies,
        approvals: &[],
        labels: &[],
        rpc_url: rpc,
        expires_at: 2_000_000_000,
        callback_uri: &callback_uri(41234),
    })
}

#[test]
fn approval_url_carries_the_parameters_the_keychain_reads() {
    let policies = SessionPolicies::new([
        (Felt::from(0x23f8u32), "explore"),
        (Felt::from(0x23f8u32), "buy_items"),
        (Felt::from(0x51feu32), "request_random"),
    ])
    .unwrap();
    let url = test_approval_url(&policies, &Url::parse("http://127.0.0.1:5050/").unwrap());
    assert_eq!(url.host_str(), Some("x.cartridge.gg"));
    assert_eq!(url.path(), "/session");
    let q = url.query().unwrap();
    let get = |k: &str| query_value(q, k).unwrap();
    assert_eq!(get("public_key"), "0xabcd");
    assert_eq!(get("rpc_url"), "http://127.0.0.1:5050/");
    assert_eq!(get("expires_at"), "2000000000");
    assert_eq!(get("callback_uri"), "http://localhost:41234/callback");
    assert_eq!(get("redirect_uri"), "http://localhost:41234/callback");
    assert_eq!(get("redirect_query_name"), "startapp");
    let expected: Value = serde_json::from_str(
        r#"{"verified":false,"contracts":{
          "0x00000000000000000000000000000000000000000000000000000000000023f8":{"methods":[
            {"name":"Buy Items","entrypoint":"buy_items","authorized":true},
            {"name":"Explore","entrypoint":"explore","authorized":true}]},
          "0x00000000000000000000000000000000000000000000000000000000000051fe":{"methods":[
            {"name":"Request Random","entrypoint":"request_random","authorized":true}]}}}"#,
    )
    .unwrap();
    let sent: Value = serde_json::from_str(&get("policies")).unwrap();
    assert_eq!(sent, expected);
    // encodeURIComponent-style: nothing in the query needs a second decoding.
    assert!(!q.contains('{') && !q.contains('"'), "{q}");
}

/// A labelled contract carries the preset format's `name` and `description` (cartridge-gg/presets
/// `configs/death-mountain/config.json` @e37b9338 spells them so); an unlabelled one does not.
#[test]
fn labels_name_the_contract_the_keychain_shows() {
    let (game, vrf) = (Felt::from(0x6au8), Felt::from(0xf0u8));
    let policies = SessionPolicies::new([(game, "explore"), (vrf, "request_random")]).unwrap();
    let label = ContractLabel {
        contract: game,
        name: "Game Core (v2)".into(),
        description: "Loot Survivor 2 / Death Mountain: the v2 contracts (GameCore 0x6a)".into(),
    };
    let sent = policies_json(&policies, &[], &[label]);
    let expected: Value = serde_json::from_str(
        r#"{"verified":false,"contracts":{
          "0x000000000000000000000000000000000000000000000000000000000000006a":{
            "name":"Game Core (v2)",
            "description":"Loot Survivor 2 / Death Mountain: the v2 contracts (GameCore 0x6a)",
            "methods":[{"name":"Explore","entrypoint":"explore","authorized":true}]},
          "0x00000000000000000000000000000000000000000000000000000000000000f0":{"methods":[
            {"name":"Request Random","entrypoint":"request_random","authorized":true}]}}}"#,
    )
    .unwrap();
    assert_eq!(sent, expected);
}

#[test]
fn callback_post_body_is_plain_json() {
    // session.tsx: `body: JSON.stringify(response)` with `expiresAt: String(expiresAt)`.
    let body = r#"{"username":"ser","address":"0x0123456789ABCDEF","ownerGuid":"0x5555","transactionHash":"0xabc","expiresAt":"2000000000"}"#;
    assert_eq!(
        parse_callback(body, 1, GUID).unwrap(),
        approved(Some("ser"), 0x0123456789abcdef, 2_000_000_000)
    );
}

#[test]
fn redirect_form_is_unpadded_base64_json() {
    // btoa(JSON.stringify(response)) with trailing '=' stripped, of the body above.
    let startapp = "eyJ1c2VybmFtZSI6InNlciIsImFkZHJlc3MiOiIweDAxMjM0NTY3ODlBQkNERUYiLCJvd25lckd1aWQiOiIweDU1NTUiLCJ0cmFuc2FjdGlvbkhhc2giOiIweGFiYyIsImV4cGlyZXNBdCI6IjIwMDAwMDAwMDAifQ";
    assert_eq!(
        parse_callback(startapp, 1, GUID).unwrap(),
        approved(Some("ser"), 0x0123456789abcdef, 2_000_000_000)
    );
    // A '+' in the base64 that query decoding turned into a space (username "a~~").
    let query = "startapp=eyJ1c2VybmFtZSI6ImF+fiIsImFkZHJlc3MiOiIweDEyMyIsIm93bmVyR3VpZCI6IjB4NTU1NSIsImV4cGlyZXNBdCI6IjIwMDAwMDAwMDAifQ";
    let value = query_value(query, REDIRECT_QUERY_NAME).unwrap();
    assert!(value.contains(' '));
    assert_eq!(
        parse_callback(&value, 1, GUID).unwrap(),
        approved(Some("a~~"), 0x123, 2_000_000_000)
    );
}

#[test]
fn an_undefined_expiry_falls_back_to_the_requested_one() {
    // `String(undefined)` when the keychain kept its own default duration.
    let b64 = "eyJ1c2VybmFtZSI6InNlciIsImFkZHJlc3MiOiIweDEyMyIsIm93bmVyR3VpZCI6IjB4NTU1NSIsImV4cGlyZXNBdCI6InVuZGVmaW5lZCJ9";
    assert_eq!(
        parse_callback(b64, 1_999_999_999, GUID).unwrap().expires_at,
        1_999_999_999
    );
}

#[test]
fn already_registered_answers_are_checked_against_our_key() {
    let ours = format!(
        r#"{{"username":"ser","address":"0x123","ownerGuid":"0x5555","alreadyRegistered":true,"expiresAt":"2000000000","sessionKeyGuid":"{GUID:#x}","metadataHash":"0x0","guardianKeyGuid":"0x0"}}"#
    );
    assert_eq!(
        parse_callback(&ours, 1, GUID).unwrap().owner_guid,
        Felt::from(0x5555u32)
    );
    let other = ours.replace(&format!("{GUID:#x}"), "0x1");
    assert_eq!(
        parse_callback(&other, 1, GUID),
        Err(ApprovalError::OtherSession)
    );
    assert!(matches!(
        parse_callback("not a session", 1, GUID),
        Err(ApprovalError::Payload(_))
    ));
    assert!(matches!(
        parse_callback(r#"{"address":"123","ownerGuid":"0x1"}"#, 1, GUID),
        Err(ApprovalError::Payload(_))
    ));
}

#[test]
fn poll_request_is_the_cli_query() {
    let r = poll_request(GUID);
    assert_eq!(
        r["variables"]["sessionKeyGuid"],
        "0x65536fada1145a74b181bed7894a8f5305ee8e8f75b488bd3b28e0a106872e4"
    );
    let q = r["query"].as_str().unwrap();
    assert!(q.starts_with("query SubscribeCreateSession($sessionKeyGuid: Felt!)"));
    for field in [
        "chainID",
        "isRevoked",
        "expiresAt",
        "authorization",
        "controller { address accountID }",
    ] {
        assert!(q.contains(field), "{field}");
    }
}

/// An answer shaped as controller-cli's `SessionInfo` reads it.
const POLL_ANSWER: &str = r#"{"data":{"subscribeCreateSession":{
  "id":"s1","appID":"","chainID":"SN_SEPOLIA","isRevoked":false,"expiresAt":2000000000,
  "createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z",
  "authorization":["0x617574686f72697a6174696f6e2d62792d72656769737465726564","0x5555"],
  "controller":{"address":"0x0123456789abcdef","accountID":"ser"}}}}"#;

#[test]
fn poll_answer_becomes_an_approved_session() {
    assert_eq!(
        parse_poll_response(POLL_ANSWER, SEPOLIA).unwrap(),
        Some(approved(Some("ser"), 0x0123456789abcdef, 2_000_000_000))
    );
    let hex_chain = POLL_ANSWER.replace("\"SN_SEPOLIA\"", "\"0x534e5f5345504f4c4941\"");
    assert!(parse_poll_response(&hex_chain, SEPOLIA).unwrap().is_some());
    assert_eq!(
        parse_poll_response(r#"{"data":{"subscribeCreateSession":null}}"#, SEPOLIA).unwrap(),
        None
    );
}

#[test]
fn poll_answers_that_cannot_be_used() {
    let mainnet = Felt::from_hex_unchecked("0x534e5f4d41494e");
    assert!(matches!(
        parse_poll_response(POLL_ANSWER, mainnet),
        Err(ApprovalError::WrongChain { .. })
    ));
    let revoked = POLL_ANSWER.replace("\"isRevoked\":false", "\"isRevoked\":true");
    assert_eq!(
        parse_poll_response(&revoked, SEPOLIA),
        Err(ApprovalError::Revoked)
    );
    let by_signature = POLL_ANSWER.replace(
        "\"0x617574686f72697a6174696f6e2d62792d72656769737465726564\",",
        "",
    );
    assert!(matches!(
        parse_poll_response(&by_signature, SEPOLIA),
        Err(ApprovalError::Authorization(_))
    ));
    let e = parse_poll_response(
        r#"{"errors":[{"message":"invalid guid"}],"data":null}"#,
        SEPOLIA,
    )
    .unwrap_err();
    assert_eq!(e, ApprovalError::Api("invalid guid".into()));
}

#[test]
fn the_keychain_never_gets_a_credential_of_the_rpc_url() {
    let main = Felt::from_hex_unchecked("0x534e5f4d41494e");
    let plain = Url::parse("http://127.0.0.1:5050/").unwrap();
    assert_eq!(
        keychain_rpc_url(&plain, SEPOLIA).unwrap(),
        (plain.clone(), false)
    );
    let public = Url::parse("https://api.cartridge.gg/x/starknet/mainnet").unwrap();
    assert_eq!(
        keychain_rpc_url(&public, main).unwrap(),
        (public.clone(), false)
    );
    for with_key in [
        "https://rpc.example/v0_9?apikey=SECRETKEY123",
        "https://user:SECRETKEY123@rpc.example/",
        "https://starknet-mainnet.example/v2/SECRETKEY1234567890abcdef",
    ] {
        let (sent, replaced) = keychain_rpc_url(&Url::parse(with_key).unwrap(), main).unwrap();
        assert!(replaced, "{with_key}");
        assert_eq!(sent, public);
        assert!(!sent.as_str().contains("SECRETKEY"));
    }
    let devnet_key = Url::parse("http://127.0.0.1:5050/?token=SECRETKEY123").unwrap();
    let e = keychain_rpc_url(&devnet_key, Felt::from_hex_unchecked("0x4b4154414e41")).unwrap_err();
    assert!(matches!(e, ApprovalError::CredentialInRpcUrl(_)), "{e:?}");
    assert!(!e.to_string().contains("SECRETKEY"), "{e}");
}

/// The whole approval URL built from a profile RPC URL with user info and an API key holds
/// neither: the keychain gets Cartridge's public RPC of the network.
#[test]
fn an_approval_url_carries_no_credential_of_the_profiles_rpc() {
    let profile_rpc =
        Url::parse("https://ada:PASSWORD123@rpc.example/v0_9?apikey=SECRETKEY123").unwrap();
    let (rpc, replaced) = keychain_rpc_url(&profile_rpc, SEPOLIA).unwrap();
    assert!(replaced);
    let policies = SessionPolicies::new([(Felt::from(0x23f8u32), "explore")]).unwrap();
    let url = test_approval_url(&policies, &rpc);
    let text = url.as_str();
    for secret in [
        "ada",
        "PASSWORD123",
        "SECRETKEY123",
        "apikey",
        "rpc.example",
    ] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    assert_eq!(
        query_value(url.query().unwrap(), "rpc_url").unwrap(),
        "https://api.cartridge.gg/x/starknet/sepolia"
    );
}

#[test]
fn an_approve_policy_names_its_spender_and_amount() {
    let ticket = Felt::from(0x7171u32);
    let policies =
        SessionPolicies::new([(ticket, "approve"), (Felt::from(0xd0u32), "buy_game")]).unwrap();
    let limit = ApprovalLimit {
        token: ticket,
        spender: Felt::from(0xd0u32),
        amount: 1_000_000_000_000_000_000,
    };
    let sent = policies_json(&policies, &[limit], &[]);
    let expected: Value = serde_json::from_str(
        r#"{"verified":false,"contracts":{
          "0x0000000000000000000000000000000000000000000000000000000000007171":{"methods":[
            {"name":"Approve","entrypoint":"approve","authorized":true,
             "spender":"0x00000000000000000000000000000000000000000000000000000000000000d0",
             "amount":"0xde0b6b3a7640000"}]},
          "0x00000000000000000000000000000000000000000000000000000000000000d0":{"methods":[
            {"name":"Buy Game","entrypoint":"buy_game","authorized":true}]}}}"#,
    )
    .unwrap();
    assert_eq!(sent, expected);
    // Without a limit for its token, an approve stays a plain call policy.
    let plain = policies_json(&policies, &[], &[]);
    assert!(
        plain["contracts"].to_string().find("spender").is_none(),
        "{plain}"
    );
}
