//! Two answers of the streamable HTTP transport shaped for the clients that read them: closing a
//! session (`DELETE`) answers 204, since the SDKs log anything but 200 or 204 as a failed
//! termination (rmcp 3.9 answers 202); and a request without a session that is not `initialize`
//! is told to initialize first (rmcp says only that a session id is required).

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use rmcp::transport::common::http_header::HEADER_SESSION_ID;

use crate::lifecycle::refuse_before_initialize;

/// The axum middleware; `max_body` is the request size limit (`http.max_request_bytes`).
pub(super) async fn shape(State(max_body): State<usize>, request: Request, next: Next) -> Response {
    let closing = request.method() == Method::DELETE;
    let request =
        if request.method() == Method::POST && !request.headers().contains_key(HEADER_SESSION_ID) {
            let (parts, body) = request.into_parts();
            let Ok(bytes) = to_bytes(body, max_body).await else {
                return StatusCode::PAYLOAD_TOO_LARGE.into_response();
            };
            if let Ok(message) = serde_json::from_slice(&bytes)
                && let Some(answer) = refuse_before_initialize(&message)
            {
                return (
                    StatusCode::BAD_REQUEST,
                    [(header::CONTENT_TYPE, "application/json")],
                    answer.to_string(),
                )
                    .into_response();
            }
            Request::from_parts(parts, Body::from(bytes))
        } else {
            request
        };
    let response = next.run(request).await;
    if closing && response.status() == StatusCode::ACCEPTED {
        return StatusCode::NO_CONTENT.into_response();
    }
    response
}
