//! The adventurer view as this surface returns it: the game's view with the legal tools added,
//! and the battle's odds kept beside it so a result computes them once.

use game::AdventurerId;
use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

use super::legal::{LegalAction, battle_odds, legal_actions};
use game::model::GameState;
use game::preview::BattlePreview;

/// The game's adventurer view and the tools the contract would accept now, as one JSON object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdventurerView {
    /// The game's view.
    #[serde(flatten)]
    pub view: game::view::AdventurerView,
    /// Tools the contract would accept now.
    pub legal_actions: Vec<LegalAction>,
    /// The battle's odds the legal tools were described with, for the compact lines.
    #[serde(skip)]
    pub odds: Option<BattlePreview>,
}

impl JsonSchema for AdventurerView {
    fn schema_name() -> Cow<'static, str> {
        "AdventurerView".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = game::view::AdventurerView::json_schema(generator);
        let mut field = generator.subschema_for::<Vec<LegalAction>>();
        field.insert(
            "description".into(),
            "Tools the contract would accept now.".into(),
        );
        if let Some(props) = schema.get_mut("properties").and_then(|p| p.as_object_mut()) {
            props.insert("legal_actions".into(), field.to_value());
        }
        if let Some(required) = schema.get_mut("required").and_then(|r| r.as_array_mut()) {
            required.push("legal_actions".into());
        }
        schema
    }
}

/// The view of `state` for `adventurer_id`, its legal tools described with the battle's odds
/// (computed here, once).
pub fn adventurer_view(adventurer_id: AdventurerId, state: &GameState) -> AdventurerView {
    let odds = battle_odds(state);
    AdventurerView {
        view: game::view::adventurer_view(adventurer_id, state),
        legal_actions: legal_actions(state, odds.as_ref()),
        odds,
    }
}
