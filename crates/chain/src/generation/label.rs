//! A generation's name, as messages, settings and reports show it.

/// The game's generation: the Dojo world `ls_0_0_9` (v1) or GameCore, GameToken and Denshokan (v2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generation {
    /// The Dojo world: game systems, `get_game_state`, events through the world.
    V1,
    /// GameCore and its neighbours: `load_assets`, GameCore's own `GameEvent`s.
    V2,
}

impl Generation {
    /// What a contract of this generation is, for messages: "a v1 Dojo world", "a v2 GameCore".
    pub fn described(self) -> &'static str {
        match self {
            Generation::V1 => "a v1 Dojo world",
            Generation::V2 => "a v2 GameCore",
        }
    }

    /// The deployment as the player reads it, from its game contract: "the v1 world's contracts
    /// (game systems 0x…)" or "the v2 contracts (GameCore 0x…)".
    pub fn describe_game(self, game: starknet::core::types::Felt) -> String {
        match self {
            Generation::V1 => format!("the v1 world's contracts (game systems {game:#x})"),
            Generation::V2 => format!("the v2 contracts (GameCore {game:#x})"),
        }
    }
}

impl std::fmt::Display for Generation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Generation::V1 => "v1",
            Generation::V2 => "v2",
        })
    }
}
