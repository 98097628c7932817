//! MCP prompts: "play a game of Loot Survivor", with an optional starting weapon.

use rmcp::ErrorData;
use rmcp::model::{
    GetPromptResult, JsonObject, ListPromptsResult, Prompt, PromptArgument, PromptMessage, Role,
};

use super::params::ItemRef;
use super::resources::RULES_URI;

/// The prompt that starts a game.
pub(crate) const PLAY: &str = "play_game";

/// The prompts this server offers.
pub(crate) fn list() -> ListPromptsResult {
    ListPromptsResult::with_all_items(vec![
        Prompt::new(
            PLAY,
            Some("Play a whole game of Loot Survivor with this server's tools, from a new adventurer to its death."),
            Some(vec![
                PromptArgument::new("weapon")
                    .with_description("Starting weapon: Wand, Book, Short Sword or Club (default: your choice).")
                    .with_required(false),
            ]),
        )
        .with_title("Play a game of Loot Survivor"),
    ])
}

/// The messages of prompt `name`; an unknown prompt or weapon is `invalid_params`.
pub(crate) fn get(name: &str, args: Option<&JsonObject>) -> Result<GetPromptResult, ErrorData> {
    if name != PLAY {
        return Err(ErrorData::invalid_params(
            format!("unknown prompt '{name}'; the prompts are: {PLAY}"),
            None,
        ));
    }
    let weapon = match args.and_then(|a| a.get("weapon")) {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) if s.trim().is_empty() => None,
        Some(v) => {
            let r = match v {
                serde_json::Value::String(s) => match s.trim().parse::<u64>() {
                    Ok(id) => ItemRef::Id(id),
                    Err(_) => ItemRef::Name(s.clone()),
                },
                serde_json::Value::Number(n) => ItemRef::Id(n.as_u64().unwrap_or(0)),
                _ => ItemRef::Name(v.to_string()),
            };
            let id = r
                .resolve_starting_weapon("weapon")
                .map_err(|e| ErrorData::invalid_params(e.message, None))?;
            Some(game::catalogue::item_name(id))
        }
    };
    let start = match &weapon {
        Some(w) => format!("Start a new game with ls_new_game and the weapon \"{w}\"."),
        None => "Start a new game with ls_new_game; pick the starting weapon (Wand, Book, Short Sword or Club).".to_string(),
    };
    let text = format!(
        "Play one game of Loot Survivor 2 with the ls_* tools, aiming for the highest level.\n\
         {start} Keep the adventurer_id it returns.\n\
         Then loop until the adventurer dies: read state.phase and the actions list in each result and \
         choose one of them; advice names the built-in planner's move and why. In battle, call \
         ls_battle_preview when unsure, then ls_attack or ls_flee. After a level-up, spend every stat \
         point with ls_upgrade. With the market open, buy only items whose verdict is upgrade or empty \
         slot, and potions when health is low; the ls_buy_item line says how many fit. Explore with \
         ls_explore.\n\
         The rules are in the resource {RULES_URI}. Say in one short line why you take each action, \
         and at the end report the level reached, the xp and what killed you."
    );
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description("Play a game of Loot Survivor"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(r: &GetPromptResult) -> String {
        serde_json::to_value(&r.messages[0].content).unwrap()["text"]
            .as_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn the_weapon_argument_is_checked_and_named() {
        let mut args = JsonObject::new();
        args.insert("weapon".into(), "club".into());
        assert!(text_of(&get(PLAY, Some(&args)).unwrap()).contains("\"Club\""));
        args.insert("weapon".into(), "46".into());
        assert!(text_of(&get(PLAY, Some(&args)).unwrap()).contains("\"Short Sword\""));
        args.insert("weapon".into(), "Katana".into());
        assert!(get(PLAY, Some(&args)).is_err());
        assert!(text_of(&get(PLAY, None).unwrap()).contains("pick the starting weapon"));
        assert!(get("other", None).is_err());
    }
}
