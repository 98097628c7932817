//! Adventurer ids are felt252s: every tool that takes one reads an id above 2^250 written as a
//! decimal or `0x` string, and names it back as the same decimal string. On the sim (a Dojo world,
//! whose ids are u64) such an id names no adventurer: a typed `NOT_FOUND`, nothing signed.

use crate::common;

use common::mcp::{call, ok, practice};
use serde_json::{Value, json};

/// 2^251 - 1 written out: an id far above what a JSON number holds exactly.
const BIG_DEC: &str =
    "3618502788666131106986593281521497120414687020801267626233049500247285301247";
/// The same id in hex.
const BIG_HEX: &str = "0x7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";

/// A minimal valid value for a required argument other than `adventurer_id`.
fn filler(name: &str, schema: &Value) -> Value {
    match name {
        "weapon" => json!(12),
        "items" | "equip" => json!([1]),
        _ => match schema["type"].as_str() {
            Some("boolean") => json!(true),
            Some("integer") => json!(1),
            Some("array") => json!([1]),
            _ => json!("x"),
        },
    }
}

#[tokio::test]
async fn every_tool_taking_an_id_reads_a_big_one_as_a_string_and_names_it_back() {
    assert_eq!(BIG_HEX.len(), 65);
    let client = practice(true).await;
    let tools = client.list_all_tools().await.unwrap();
    let mut checked = Vec::new();
    for tool in &tools {
        let schema = serde_json::to_value(&*tool.input_schema).unwrap();
        let Some(id_schema) = schema["properties"].get("adventurer_id") else {
            continue;
        };
        assert_eq!(
            id_schema["type"],
            json!(["integer", "string"]),
            "{}: the id is a number or a string",
            tool.name
        );
        for id in [BIG_DEC, BIG_HEX] {
            let mut args = serde_json::Map::new();
            args.insert("adventurer_id".into(), json!(id));
            for r in schema["required"].as_array().into_iter().flatten() {
                let r = r.as_str().unwrap();
                if r != "adventurer_id" {
                    args.insert(r.into(), filler(r, &schema["properties"][r]));
                }
            }
            let out = call(&client, &tool.name, Value::Object(args)).await;
            assert!(out.is_error, "{}: {}", tool.name, out.text);
            let code = out.json["error"]["code"].as_str().unwrap_or_default();
            assert!(
                code == "NOT_FOUND" || code == "VALIDATION_ERROR",
                "{} {id}: {}",
                tool.name,
                out.text
            );
            if code == "NOT_FOUND" {
                assert_eq!(
                    out.json["error"]["details"]["adventurer_id"], BIG_DEC,
                    "{}: the id comes back as the same decimal string",
                    tool.name
                );
            } else {
                assert!(
                    !out.text.contains("invalid type"),
                    "{}: the string id itself is accepted: {}",
                    tool.name,
                    out.text
                );
            }
        }
        checked.push(tool.name.to_string());
    }
    assert!(checked.len() >= 10, "tools taking an id: {checked:?}");
    for t in [
        "ls_get_adventurer",
        "ls_explore",
        "ls_attack",
        "ls_get_game_events",
    ] {
        assert!(checked.iter().any(|c| c == t), "{t} in {checked:?}");
    }
}

#[tokio::test]
async fn a_json_number_above_two_to_the_53_is_refused_with_the_remedy() {
    let client = practice(true).await;
    let out = call(
        &client,
        "ls_get_adventurer",
        json!({"adventurer_id": 9007199254740993u64}),
    )
    .await;
    let e = out.into_err("VALIDATION_ERROR");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("pass the id as a string"),
        "{e}"
    );
}

#[tokio::test]
async fn small_ids_stay_numbers_and_strings_name_the_same_adventurer() {
    let client = practice(true).await;
    let started = ok(&client, "ls_new_game", json!({"weapon": "wand"})).await;
    let id = started["adventurer_id"].clone();
    assert!(id.is_u64(), "a v1 id is a JSON number: {started}");
    let by_number = ok(&client, "ls_get_adventurer", json!({"adventurer_id": id})).await;
    let hex = format!("{:#x}", id.as_u64().unwrap());
    let by_hex = ok(&client, "ls_get_adventurer", json!({"adventurer_id": hex})).await;
    assert_eq!(by_number["state"], by_hex["state"]);
    assert!(
        by_number.get("token").is_none(),
        "a v1 id has no packed fields"
    );
}
