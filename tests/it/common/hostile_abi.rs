//! Hostile edits of the practice GameCore's Sierra ABI (`abi/practice_v2_game.sierra.json`), shared
//! by the ABI check's devnet test and its benchmark: an argument whose struct nests four members
//! of the next forty deep (a shape of 4^40 leaves), and one that contains itself.

use serde_json::{Value, json};

/// The practice GameCore's ABI entries, as its Sierra class declares them.
pub fn practice_game_abi() -> Vec<Value> {
    let sierra: Value =
        serde_json::from_str(include_str!("../../../abi/practice_v2_game.sierra.json")).unwrap();
    sierra["abi"].as_array().unwrap().clone()
}

/// GameCore's ABI entry for the function `name` (declared once).
pub fn function<'a>(abi: &'a mut [Value], name: &str) -> &'a mut Value {
    let mut found = abi
        .iter_mut()
        .filter(|e| e["type"] == "function" && e["name"] == name);
    let f = found.next().expect("GameCore declares it");
    assert!(found.next().is_none(), "GameCore declares {name} once");
    f
}

/// `attack`'s second argument becomes the exploding struct `t::S0`, `flee`'s the self-containing
/// `t::Loop`.
pub fn explode_and_loop(abi: &mut Vec<Value>) {
    for i in 0..40 {
        let next = if i == 39 {
            "core::felt252".to_string()
        } else {
            format!("t::S{}", i + 1)
        };
        let members: Vec<Value> = (0..4)
            .map(|m| json!({"name": format!("m{m}"), "type": next}))
            .collect();
        abi.push(json!({"type": "struct", "name": format!("t::S{i}"), "members": members}));
    }
    abi.push(json!({"type": "struct", "name": "t::Loop", "members": [
        {"name": "again", "type": "t::Loop"}, {"name": "more", "type": "t::Loop"}]}));
    function(abi, "attack")["inputs"][1]["type"] = json!("t::S0");
    function(abi, "flee")["inputs"][1]["type"] = json!("t::Loop");
}
