//! Requests for methods this server serves whose parameters do not parse. rmcp hands a request
//! it cannot read into its typed form (`tools/call` without `params` or `name`, `"name": 5`) to the
//! handler as a custom request, which it answers `-32601 Method not found` by default; the method
//! exists, so JSON-RPC's answer is `-32602 Invalid params`, saying what the method expects.
//! (`logging/setLevel` is served although rmcp marks it deprecated, SEP-2577: clients use it.)
#![allow(deprecated)]

use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolRequestParams, CompleteRequestParams, CustomRequest, GetPromptRequestParams,
    InitializeRequestParams, PaginatedRequestParams, ReadResourceRequestParams,
    SetLevelRequestParams, SubscribeRequestParams,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Why `params` do not parse as `T` (`None` when they do).
fn parse_error<T: DeserializeOwned>(params: Option<&Value>, required: bool) -> Option<String> {
    match params {
        None if required => Some("params are missing".into()),
        None | Some(Value::Null) if !required => None,
        None => None,
        Some(p) => serde_json::from_value::<T>(p.clone())
            .err()
            .map(|e| e.to_string()),
    }
}

/// The answer to a custom request: `-32602` naming what is wrong and what is expected for a
/// method this server serves, `-32601` for any other method.
pub(crate) fn answer(request: &CustomRequest) -> McpError {
    let p = request.params.as_ref();
    let (problem, expected) = match request.method.as_str() {
        "tools/call" => (
            parse_error::<CallToolRequestParams>(p, true),
            r#"{"name": "<tool name, a string from tools/list>", "arguments": {…}}"#,
        ),
        "resources/read" => (
            parse_error::<ReadResourceRequestParams>(p, true),
            r#"{"uri": "<resource URI, a string>"}"#,
        ),
        "resources/subscribe" | "resources/unsubscribe" => (
            parse_error::<SubscribeRequestParams>(p, true),
            r#"{"uri": "<resource URI, a string>"}"#,
        ),
        "prompts/get" => (
            parse_error::<GetPromptRequestParams>(p, true),
            r#"{"name": "<prompt name, a string>", "arguments": {"<name>": "<string>"}}"#,
        ),
        "logging/setLevel" => (
            parse_error::<SetLevelRequestParams>(p, true),
            r#"{"level": "debug" | "info" | "notice" | "warning" | "error" | …}"#,
        ),
        "completion/complete" => (
            parse_error::<CompleteRequestParams>(p, true),
            r#"{"ref": {…}, "argument": {"name": "…", "value": "…"}}"#,
        ),
        "initialize" => (
            parse_error::<InitializeRequestParams>(p, true),
            r#"{"protocolVersion": "…", "capabilities": {…}, "clientInfo": {"name": "…", "version": "…"}}"#,
        ),
        "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list" => (
            parse_error::<PaginatedRequestParams>(p, false),
            r#"no params, or {"cursor": "<string from the previous page>"}"#,
        ),
        "ping" => (Some("ping takes no params".into()), "no params"),
        _ => {
            return McpError::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                request.method.clone(),
                None,
            );
        }
    };
    let problem = problem.unwrap_or_else(|| "the params do not match the method".into());
    McpError::invalid_params(
        format!(
            "invalid params for {}: {problem}; expected params {expected}",
            request.method
        ),
        Some(json!({ "method": request.method, "expected": expected })),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_and_message(method: &str, params: Option<Value>) -> (i32, String) {
        let e = answer(&CustomRequest::new(method, params));
        (e.code.0, e.message.to_string())
    }

    #[test]
    fn a_call_without_a_tool_name_is_invalid_params() {
        let (code, m) = code_and_message("tools/call", None);
        assert_eq!(code, -32602);
        assert!(
            m.contains("params are missing") && m.contains("\"name\""),
            "{m}"
        );
        let (code, m) = code_and_message("tools/call", Some(json!({"arguments": {}})));
        assert_eq!(code, -32602);
        assert!(m.contains("missing field `name`"), "{m}");
        let (_, m) = code_and_message("tools/call", Some(json!({"name": 5})));
        assert!(m.contains("invalid type: integer `5`"), "{m}");
    }

    #[test]
    fn an_unknown_method_is_still_method_not_found() {
        assert_eq!(code_and_message("games/cheat", None).0, -32601);
    }
}
