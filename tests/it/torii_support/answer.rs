//! The stand-in's answer to one request: the request is logged, a queued fault for its endpoint
//! (or the server being down) answers instead, else the SQL or GraphQL endpoint answers.

use std::sync::atomic::Ordering;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rusqlite::types::ValueRef;
use serde_json::{Map, Value, json};

use super::graphql_answer::run_graphql;
use super::http::{Request, Response};
use super::{Endpoint, Fault, State};

pub(super) async fn handle(s: &State, req: Request) -> Response {
    let endpoint = match (req.method.as_str(), req.path.as_str()) {
        (_, "/graphql") => Endpoint::GraphQl,
        (_, "/sql") => Endpoint::Sql,
        _ => return Response::text(404, "not found"),
    };
    let text = match endpoint {
        Endpoint::GraphQl => serde_json::from_slice::<Value>(&req.body)
            .ok()
            .and_then(|v| v.get("query").and_then(Value::as_str).map(String::from)),
        _ => req
            .query
            .iter()
            .find(|(k, _)| k == "query")
            .map(|(_, v)| v.clone())
            .or_else(|| {
                (req.method == "POST").then(|| String::from_utf8_lossy(&req.body).to_string())
            }),
    };
    s.log
        .lock()
        .unwrap()
        .push((endpoint, text.clone().unwrap_or_default()));
    if s.down.load(Ordering::SeqCst) {
        return Response::text(503, "service unavailable");
    }
    let fault = {
        let mut q = s.faults.lock().unwrap();
        let pos = q
            .iter()
            .position(|(e, _)| *e == endpoint || *e == Endpoint::Any);
        pos.and_then(|p| q.remove(p)).map(|(_, f)| f)
    };
    match fault {
        Some(Fault::Status(code)) => return Response::text(code, "upstream failure"),
        Some(Fault::Malformed) => {
            return Response {
                status: 200,
                content_type: "application/json",
                body: b"{\"data\": {\"ls009Adv".to_vec(),
            };
        }
        Some(Fault::Empty) => {
            return Response {
                status: 200,
                content_type: "application/json",
                body: Vec::new(),
            };
        }
        Some(Fault::WrongShape) => {
            return match endpoint {
                Endpoint::Sql => Response::json(200, &json!({"rows": []})),
                _ => Response::json(200, &json!([])),
            };
        }
        Some(Fault::GraphQlError(m)) => {
            return Response::json(200, &json!({"data": null, "errors": [{"message": m}]}));
        }
        Some(Fault::Delay(d)) => tokio::time::sleep(d).await,
        None => {}
    }
    match endpoint {
        Endpoint::Sql => match req.method.as_str() {
            "GET" | "POST" => match text {
                Some(q) => match run_sql(s, &q) {
                    Ok(rows) => Response::json(
                        200,
                        &Value::Array(rows.into_iter().map(Value::Object).collect()),
                    ),
                    Err(e) => Response::text(400, &format!("Query error: {e}")),
                },
                None => Response::text(400, "missing query"),
            },
            _ => Response::text(405, "method not allowed"),
        },
        _ => {
            if req.method != "POST" {
                return Response::text(405, "method not allowed");
            }
            match text {
                Some(q) => Response::json(200, &run_graphql(s, &q)),
                None => Response::text(400, "invalid GraphQL request body"),
            }
        }
    }
}

/// Runs a query and answers rows as Torii's SQL endpoint types them (torii v1.8.0
/// crates/sqlite/sqlite/src/utils.rs `map_row_to_json`): by the column's declared type, TEXT as
/// strings, INTEGER as numbers, REAL as numbers, BLOB as base64; columns without a declared type
/// (expressions) by their value: integer, real, then text.
pub(super) fn run_sql(s: &State, sql: &str) -> Result<Vec<Map<String, Value>>, String> {
    let db = s.db.lock().unwrap();
    let mut stmt = db.prepare(sql).map_err(|e| e.to_string())?;
    let names: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
    let decl: Vec<Option<String>> = stmt
        .columns()
        .iter()
        .map(|c| c.decl_type().map(|t| t.to_ascii_uppercase()))
        .collect();
    let mut rows = stmt.query([]).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(|e| e.to_string())? {
        let mut m = Map::new();
        for (i, n) in names.iter().enumerate() {
            let raw = r.get_ref(i).map_err(|e| e.to_string())?;
            let v = match (decl[i].as_deref(), raw) {
                (_, ValueRef::Null) => Value::Null,
                (Some("TEXT"), ValueRef::Text(t)) => {
                    Value::String(String::from_utf8_lossy(t).to_string())
                }
                (Some("TEXT"), other) => {
                    return Err(format!("column {n}: TEXT column holds {other:?}"));
                }
                (Some("INTEGER"), ValueRef::Integer(i)) => json!(i),
                (Some("INTEGER"), other) => {
                    return Err(format!("column {n}: INTEGER column holds {other:?}"));
                }
                (_, ValueRef::Integer(i)) => json!(i),
                (_, ValueRef::Real(f)) => json!(f),
                (_, ValueRef::Text(t)) => Value::String(String::from_utf8_lossy(t).to_string()),
                (_, ValueRef::Blob(b)) => Value::String(STANDARD.encode(b)),
            };
            m.insert(n.clone(), v);
        }
        out.push(m);
    }
    Ok(out)
}
