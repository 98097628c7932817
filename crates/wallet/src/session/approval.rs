//! The wire formats of a Controller session approval, without any I/O: the keychain URL the owner
//! opens, the session the keychain sends back to a local callback, and the Cartridge API's
//! long-poll `subscribeCreateSession` request and answer.
//!
//! Sources (cartridge-gg): keychain `packages/keychain/src/components/session.tsx` @051386fc
//! (the query parameters it reads; the POST body is `JSON.stringify(response)` there and the
//! base64 of it at @dec36231, the redirect form is `{redirect_uri}?{redirect_query_name}=btoa(JSON)`
//! with the `=` padding stripped;
//! `callback_uri` must be host `localhost`, path `/callback`); controller
//! `packages/controller/src/node/provider.ts` @004a93bc and `server.ts` @2ee0fdb4 (the Node SDK's
//! `redirect_query_name=startapp` on a localhost server); controller-cli `src/api.rs` @168369b4
//! (the GraphQL query and answer) and `src/commands/session/authorize.rs` @1ccae022 (the
//! `policies` JSON shape).

use base64::Engine as _;
use serde::Deserialize;
use serde_json::{Value, json};
use starknet::core::types::Felt;
use url::Url;

use super::{AUTHORIZATION_BY_REGISTERED, ApprovedSession, SessionPolicies};

/// The Cartridge keychain (controller-cli's default `keychain_url`).
pub const DEFAULT_KEYCHAIN_URL: &str = "https://x.cartridge.gg";
/// Cartridge's GraphQL endpoint, polled with `subscribeCreateSession`.
pub const DEFAULT_API_URL: &str = "https://api.cartridge.gg/query";
/// The path the keychain accepts for `callback_uri`.
pub const CALLBACK_PATH: &str = "/callback";
/// The query name the redirect form carries the session under (as the Node SDK sets it).
pub const REDIRECT_QUERY_NAME: &str = "startapp";

/// The long-poll query (field list as controller-cli `src/api.rs` sends it).
pub const SUBSCRIBE_CREATE_SESSION_QUERY: &str = "query SubscribeCreateSession($sessionKeyGuid: Felt!) { subscribeCreateSession(sessionKeyGuid: $sessionKeyGuid) { id appID chainID isRevoked expiresAt createdAt updatedAt authorization controller { address accountID } } }";

/// Why an approval answer could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApprovalError {
    /// The callback's payload is neither the JSON nor the base64 JSON the keychain sends.
    #[error("the keychain's answer is not a session: {0}")]
    Payload(String),
    /// The API answered with GraphQL errors or an unexpected shape.
    #[error("the Cartridge API answered: {0}")]
    Api(String),
    /// The approved session is on another chain.
    #[error("the session was approved on chain {got}, not {wanted:#x}")]
    WrongChain {
        /// The chain the API named.
        got: String,
        /// The profile's chain.
        wanted: Felt,
    },
    /// The profile's RPC URL carries a credential and the network has no public RPC to send
    /// instead.
    #[error(
        "the RPC URL {0} carries a credential, which the approval URL would hand to the browser \
         and Cartridge's keychain; run `session new` with an RPC URL without one (e.g. \
         `--set chain.rpc_url=...`)"
    )]
    CredentialInRpcUrl(String),
    /// The API reports the session revoked.
    #[error("the Cartridge API reports the session revoked")]
    Revoked,
    /// The session was authorized some other way than registration by the owner.
    #[error("the session is not authorized by a registered owner ({0})")]
    Authorization(String),
    /// The answer is about another session key.
    #[error("the answer is for another session key")]
    OtherSession,
}

/// What the approval URL carries.
#[derive(Debug, Clone)]
pub struct ApprovalRequest<'a> {
    /// The keychain (`DEFAULT_KEYCHAIN_URL`).
    pub keychain_url: &'a Url,
    /// The session key's public key.
    pub public_key: Felt,
    /// The policies asked for.
    pub policies: &'a SessionPolicies,
    /// The spender and amount of each `approve` policy, by token contract.
    pub approvals: &'a [ApprovalLimit],
    /// The name and description the keychain shows for each contract.
    pub labels: &'a [ContractLabel],
    /// The RPC the keychain sends the registration through.
    pub rpc_url: &'a Url,
    /// The expiry asked for (unix seconds).
    pub expires_at: u64,
    /// The local callback, `http://localhost:{port}/callback`.
    pub callback_uri: &'a Url,
}

/// Cartridge's public RPC of each network the keychain knows, by chain id (`SN_MAIN`,
/// `SN_SEPOLIA`), as controller-cli puts it in its approval URL (cartridge-gg/controller-cli
/// `src/commands/session/authorize.rs` @6d0c2496): what the keychain is given when the profile's
/// RPC URL carries a credential.
const PUBLIC_RPC: [(Felt, &str); 2] = [
    (
        Felt::from_hex_unchecked("0x534e5f4d41494e"),
        "https://api.cartridge.gg/x/starknet/mainnet",
    ),
    (
        Felt::from_hex_unchecked("0x534e5f5345504f4c4941"),
        "https://api.cartridge.gg/x/starknet/sepolia",
    ),
];

/// The RPC URL the keychain may be given for `chain_id`: the profile's `rpc_url` when it carries
/// no credential (user info, query values, key-like path segments), else the network's public
/// Cartridge RPC (`Ok((url, true))`: say so); a credential on another network is refused, since
/// the URL would reach the browser, its history and Cartridge.
pub fn keychain_rpc_url(rpc_url: &Url, chain_id: Felt) -> Result<(Url, bool), ApprovalError> {
    if !base::redact::has_credentials(rpc_url) {
        return Ok((rpc_url.clone(), false));
    }
    match PUBLIC_RPC.iter().find(|(id, _)| *id == chain_id) {
        Some((_, public)) => Ok((Url::parse(public).expect("a valid URL"), true)),
        None => Err(ApprovalError::CredentialInRpcUrl(base::redact::shown_url(
            rpc_url,
        ))),
    }
}

/// What an `approve` policy allows: its spender and amount on one token. The keychain shows them
/// and builds an approval policy from them (cartridge-gg/docs `src/pages/controller/presets.md`
/// @a07bd10, "Token Approval Policies"); the session's merkle leaf is the same as a plain call
/// policy's on (token, `approve`), as `@cartridge/controller-wasm` 0.10.0 signs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApprovalLimit {
    /// The token contract.
    pub token: Felt,
    /// The only spender.
    pub spender: Felt,
    /// The largest amount, in the token's base units.
    pub amount: u128,
}

/// What the keychain shows for one contract of the approval: its `name` and `description`, the
/// contract fields of the policy format (cartridge-gg/docs `skills/controller-sessions/SKILL.md`
/// @d004bb22; cartridge-gg/presets `configs/death-mountain/config.json` @e37b9338 fills both).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractLabel {
    /// The contract.
    pub contract: Felt,
    /// A short name ("Game Core (v2)").
    pub name: String,
    /// Which game and deployment it belongs to, readable.
    pub description: String,
}

/// `http://localhost:{port}/callback`, the only callback form the keychain accepts.
pub fn callback_uri(port: u16) -> Url {
    Url::parse(&format!("http://localhost:{port}{CALLBACK_PATH}")).expect("a valid URL")
}

/// `{"verified":false,"contracts":{addr:{name?,description?,"methods":[{name,entrypoint,
/// authorized:true}]}}}` with addresses as `0x` and 64 hex digits and methods in leaf order; a
/// contract in `labels` carries its `name` and `description`; an `approve` method listed in
/// `approvals` also carries its `spender` (`0x` and 64 hex digits) and `amount` (`0x` hex).
pub fn policies_json(
    policies: &SessionPolicies,
    approvals: &[ApprovalLimit],
    labels: &[ContractLabel],
) -> Value {
    let mut contracts = serde_json::Map::new();
    for p in policies.policies() {
        let entry = contracts.entry(p.contract_hex()).or_insert_with(|| {
            match labels.iter().find(|l| l.contract == p.contract) {
                Some(l) => json!({"name": l.name, "description": l.description, "methods": []}),
                None => json!({"methods": []}),
            }
        });
        let mut method = json!({
            "name": display_name(&p.entrypoint),
            "entrypoint": p.entrypoint,
            "authorized": true,
        });
        if p.entrypoint == "approve"
            && let Some(limit) = approvals.iter().find(|a| a.token == p.contract)
        {
            method["spender"] = json!(format!("{:#066x}", limit.spender));
            method["amount"] = json!(format!("{:#x}", limit.amount));
        }
        entry["methods"]
            .as_array_mut()
            .expect("methods is an array")
            .push(method);
    }
    json!({"verified": false, "contracts": contracts})
}

/// `buy_items` → `Buy Items` (the keychain shows `name`).
fn display_name(entrypoint: &str) -> String {
    entrypoint
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `{keychain}/session?public_key&policies&rpc_url&expires_at&redirect_uri&redirect_query_name
/// &callback_uri`. The keychain POSTs to `callback_uri` when present (JSON or base64 JSON, by
/// version); the redirect parameters are
/// the same local server, for keychains that only redirect.
pub fn approval_url(req: &ApprovalRequest<'_>) -> Url {
    let mut url = req.keychain_url.clone();
    let path = format!("{}/session", url.path().trim_end_matches('/'));
    url.set_path(&path);
    url.query_pairs_mut()
        .clear()
        .append_pair("public_key", &format!("{:#x}", req.public_key))
        .append_pair(
            "policies",
            &policies_json(req.policies, req.approvals, req.labels).to_string(),
        )
        .append_pair("rpc_url", req.rpc_url.as_str())
        .append_pair("expires_at", &req.expires_at.to_string())
        .append_pair("redirect_uri", req.callback_uri.as_str())
        .append_pair("redirect_query_name", REDIRECT_QUERY_NAME)
        .append_pair("callback_uri", req.callback_uri.as_str());
    url
}

/// The keychain's `SessionResponse` (session.tsx).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SessionResponse {
    username: Option<String>,
    address: String,
    owner_guid: String,
    /// `String(expiresAt)`: digits, or `"undefined"` when the keychain kept its default.
    expires_at: Option<Value>,
    session_key_guid: Option<String>,
}

/// Reads the keychain's answer, a POST body or a redirect's query value: JSON or base64 JSON
/// (standard or URL-safe alphabet, padding optional, `+` possibly turned into a space by query
/// decoding).
/// `requested_expiry` stands in when the answer carries no expiry; `session_key_guid` must match
/// when the answer names one.
pub fn parse_callback(
    payload: &str,
    requested_expiry: u64,
    session_key_guid: Felt,
) -> Result<ApprovedSession, ApprovalError> {
    let text = payload.trim();
    let json = if text.starts_with('{') {
        text.to_owned()
    } else {
        let b64: String = text
            .chars()
            .map(|c| if c == ' ' { '+' } else { c })
            .filter(|c| *c != '=')
            .collect();
        let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
            .decode(&b64)
            .or_else(|_| base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(&b64))
            .map_err(|_| ApprovalError::Payload("neither JSON nor base64".into()))?;
        String::from_utf8(bytes).map_err(|_| ApprovalError::Payload("not UTF-8".into()))?
    };
    let r: SessionResponse =
        serde_json::from_str(&json).map_err(|e| ApprovalError::Payload(e.to_string()))?;
    if let Some(guid) = &r.session_key_guid
        && felt(guid, "sessionKeyGuid")? != session_key_guid
    {
        return Err(ApprovalError::OtherSession);
    }
    Ok(ApprovedSession {
        address: felt(&r.address, "address")?,
        owner_guid: felt(&r.owner_guid, "ownerGuid")?,
        expires_at: r
            .expires_at
            .as_ref()
            .and_then(expiry)
            .unwrap_or(requested_expiry),
        username: r.username.filter(|u| !u.is_empty()),
    })
}

/// The value of `name` in a URL query (`a=1&startapp=…`), percent-decoded.
pub fn query_value(query: &str, name: &str) -> Option<String> {
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// The GraphQL request body polling for the session whose key has GUID `session_key_guid`.
pub fn poll_request(session_key_guid: Felt) -> Value {
    json!({
        "query": SUBSCRIBE_CREATE_SESSION_QUERY,
        "variables": {"sessionKeyGuid": format!("{session_key_guid:#x}")},
    })
}

/// Reads a poll answer: `Ok(None)` when the server's long poll ended without a session.
pub fn parse_poll_response(
    body: &str,
    chain_id: Felt,
) -> Result<Option<ApprovedSession>, ApprovalError> {
    let v: Value = serde_json::from_str(body).map_err(|e| ApprovalError::Api(e.to_string()))?;
    if let Some(errors) = v.get("errors").and_then(Value::as_array)
        && !errors.is_empty()
    {
        let messages: Vec<&str> = errors
            .iter()
            .map(|e| e["message"].as_str().unwrap_or("(no message)"))
            .collect();
        return Err(ApprovalError::Api(messages.join("; ")));
    }
    let s = &v["data"]["subscribeCreateSession"];
    if s.is_null() {
        return Ok(None);
    }
    let got = s["chainID"].as_str().unwrap_or_default();
    let parsed = Felt::from_hex(got)
        .ok()
        .filter(|_| got.starts_with("0x"))
        .or_else(|| starknet::core::utils::cairo_short_string_to_felt(got).ok());
    if parsed != Some(chain_id) {
        return Err(ApprovalError::WrongChain {
            got: got.to_owned(),
            wanted: chain_id,
        });
    }
    if s["isRevoked"].as_bool() == Some(true) {
        return Err(ApprovalError::Revoked);
    }
    let auth: Vec<&str> = s["authorization"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let owner_guid = match auth.as_slice() {
        [tag, guid] if felt(tag, "authorization").ok() == Some(AUTHORIZATION_BY_REGISTERED) => {
            felt(guid, "authorization")?
        }
        _ => return Err(ApprovalError::Authorization(auth.join(", "))),
    };
    let address = s["controller"]["address"]
        .as_str()
        .ok_or_else(|| ApprovalError::Api("no controller address".into()))?;
    Ok(Some(ApprovedSession {
        address: felt(address, "controller.address")?,
        owner_guid,
        expires_at: expiry(&s["expiresAt"])
            .ok_or_else(|| ApprovalError::Api("no expiresAt".into()))?,
        username: s["controller"]["accountID"]
            .as_str()
            .filter(|u| !u.is_empty())
            .map(str::to_owned),
    }))
}

/// An expiry given as a JSON number or a string of digits.
fn expiry(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_str()?.parse().ok())
}

fn felt(s: &str, field: &str) -> Result<Felt, ApprovalError> {
    s.strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .and_then(|_| Felt::from_hex(s).ok())
        .ok_or_else(|| ApprovalError::Payload(format!("{field} is not 0x-hex")))
}

#[cfg(test)]
#[path = "approval_tests.rs"]
mod tests;
