//! Which generation a game address speaks, read off its class's ABI (no call is made): v2's
//! GameCore has `load_assets`; a v1 Dojo system has `dojo_name` or `world_dispatcher` (the
//! practice world, which is no Dojo system, `get_game_state`); a game that is its own token,
//! with a `mint` (of any arity) beside the player entrypoints, is a generation this server does not
//! play. Connect's check asks the same question with calls (`ChainReader::check_generation`).

use starknet::core::types::Felt;

use super::ClassSource;
use super::abi::Abi;
use super::report::{Check, Status};
use chain::Generation;

/// What a game address's ABI says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaks {
    /// One of the two generations this server plays.
    Generation(Generation),
    /// One address that is both game and token (a `mint` beside the actions).
    OneAddress,
    /// None of these.
    Unknown,
}

/// Classifies a game address's ABI.
pub fn speaks(abi: &Abi) -> Speaks {
    let has = |name: &str| abi.function(name).is_some();
    let plays = has("explore") || has("attack") || has("start_game");
    // Provable changed `mint`'s arity across versions of the one-address design (game = token), so
    // any `mint` beside the player entrypoints marks it, whatever its arguments.
    if plays && abi.function("mint").is_some() {
        return Speaks::OneAddress;
    }
    Generation::of_class(&has).map_or(Speaks::Unknown, Speaks::Generation)
}

/// The generation check of `address`, which the profile says is `expected`.
pub fn generation_check(expected: Generation, address: Felt, found: Speaks) -> Check {
    let name = format!("game address {}", short_address(address));
    match found {
        Speaks::Generation(g) if g == expected => Check::new(
            name,
            Status::Ok,
            format!("speaks {expected}: {}", g.described()),
        ),
        Speaks::Generation(g) => Check::new(
            name,
            Status::Mismatch,
            format!(
                "the profile says {expected} but the class is {}",
                g.described()
            ),
        ),
        Speaks::OneAddress => Check::new(
            name,
            Status::Mismatch,
            format!(
                "the profile says {expected} but the class is a game that is its own token \
                 (a mint beside the actions): another generation, which this \
                 server does not play"
            ),
        ),
        Speaks::Unknown => Check::new(
            name,
            Status::Mismatch,
            format!(
                "the profile says {expected} but the class has neither GameCore's load_assets \
                 nor a Dojo system's entrypoints"
            ),
        ),
    }
}

/// The SRC5 id of IERC721 (OpenZeppelin/cairo-contracts
/// `packages/interfaces/src/token/erc721.cairo` at `fc94206`).
pub const IERC721_ID: Felt =
    Felt::from_hex_unchecked("0x33eb2f84c309543403fd69f0d0f363781ef06ef6faeb0131ff16ea3175bd943");

/// What a token's SRC5 `supports_interface` says of IERC721.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Src5 {
    /// The class has no `supports_interface`.
    Absent,
    /// Its answer.
    Supports(bool),
    /// The call failed.
    Unreachable(String),
}

/// Asks the token at `address` (class ABI `abi`) whether it supports IERC721, where it has SRC5.
pub(crate) async fn erc721(source: &dyn ClassSource, address: Felt, abi: &Abi) -> Src5 {
    if abi.function("supports_interface").is_none() {
        return Src5::Absent;
    }
    let selector = starknet::macros::selector!("supports_interface");
    match source.call(address, selector, vec![IERC721_ID]).await {
        Ok(answer) => Src5::Supports(answer.first() == Some(&Felt::ONE)),
        Err(e) => Src5::Unreachable(e.to_string()),
    }
}

/// Whether the game settings `settings_id` exist, asked of the game at `address` with its
/// `settings_exist` view where its class has one (`has_view`; `None`: its class was not read).
/// Denshokan's mint asks the game the same before it mints (Provable-Games/denshokan
/// `DENSHOKAN-LITE-PLAN.md` at `d507fe7`), so a mint with settings that do not exist fails.
pub async fn settings_check(
    source: &dyn ClassSource,
    address: Felt,
    has_view: Option<bool>,
    settings_id: u32,
) -> Check {
    let name = format!("settings {settings_id}");
    match has_view {
        None => Check::new(name, Status::Skipped, "the game's class was not read"),
        Some(false) => Check::new(
            name,
            Status::Skipped,
            "the game's class has no settings_exist view: nothing to ask",
        ),
        Some(true) => {
            let selector = starknet::macros::selector!("settings_exist");
            match source
                .call(address, selector, vec![Felt::from(settings_id)])
                .await
            {
                Ok(a) if a.first() == Some(&Felt::ONE) => Check::new(
                    name,
                    Status::Ok,
                    "the game's settings_exist says they exist",
                ),
                Ok(_) => Check::new(
                    name,
                    Status::Mismatch,
                    format!(
                        "the game's settings_exist says settings {settings_id} do not exist, so \
                         a new game minted with them fails: set chain.settings_id to settings \
                         that exist"
                    ),
                ),
                Err(e) => Check::new(name, Status::Unreachable, e.to_string()),
            }
        }
    }
}

/// The SRC5 check of the token `role` at `address`.
pub fn src5_check(role: &str, address: Felt, found: &Src5) -> Check {
    let name = format!("{role} {} SRC5", short_address(address));
    match found {
        Src5::Absent => Check::new(name, Status::Skipped, "no supports_interface in its class"),
        Src5::Supports(true) => Check::new(name, Status::Ok, "supports IERC721"),
        Src5::Supports(false) => Check::new(
            name,
            Status::Mismatch,
            "supports_interface(IERC721) is false: not the ERC721 whose owner_of is read",
        ),
        Src5::Unreachable(m) => Check::new(name, Status::Unreachable, m.clone()),
    }
}

/// The SRC5 interface ids Provable's game components gave `IMinigameToken` (a token contract
/// registers its version's), with the name it went by: Provable-Games/game-components
/// `packages/interfaces/src/AGENTS.md` at `3feb2eb` (the frozen standard and legacy values) and
/// the value history of a later version of that file (2.1.1, and the `is_lifecycle_open` rename).
pub const MINIGAME_TOKEN_IDS: [(&str, Felt); 4] = [
    (
        "IMinigameToken (lite, then standard)",
        Felt::from_hex_unchecked(
            "0x15951d6d145a5a13c454bd75f0787e43e531a80a4bfb42a01fc4859e6fb7aea",
        ),
    ),
    (
        "IMinigameToken (legacy)",
        Felt::from_hex_unchecked(
            "0x246f614bd76b91c378a91877851f2ccdb99278e9fb77c782a22355059ce9906",
        ),
    ),
    (
        "IMinigameToken (2.1.1)",
        Felt::from_hex_unchecked(
            "0x20253de95bcdb23620c88405a5f97da040b91de832ad98a34b45c4f3331d13b",
        ),
    ),
    (
        "IMinigameToken (is_lifecycle_open)",
        Felt::from_hex_unchecked(
            "0x1238d845bb65d15a4ae71f27bef35d008ad496acb4c3b840c5de17bf0111559",
        ),
    ),
];

/// What the game address's SRC5 says of the game-token interfaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameSrc5 {
    /// The class has no `supports_interface`.
    Absent,
    /// It supports none of them: a game, not a token.
    NotAToken,
    /// It supports this one (its name and id): the game is its own token.
    Token(&'static str, Felt),
    /// A call failed.
    Unreachable(String),
}

/// Asks the game at `address` (class ABI `abi`), where it has SRC5, whether it supports any known
/// `IMinigameToken` interface id: a game that is its own token is another design than the one
/// whose GameCore and GameToken are apart.
pub(crate) async fn game_token_src5(
    source: &dyn ClassSource,
    address: Felt,
    abi: &Abi,
) -> GameSrc5 {
    if abi.function("supports_interface").is_none() {
        return GameSrc5::Absent;
    }
    let selector = starknet::macros::selector!("supports_interface");
    for (name, id) in MINIGAME_TOKEN_IDS {
        match source.call(address, selector, vec![id]).await {
            Ok(answer) if answer.first() == Some(&Felt::ONE) => return GameSrc5::Token(name, id),
            Ok(_) => {}
            Err(e) => return GameSrc5::Unreachable(e.to_string()),
        }
    }
    GameSrc5::NotAToken
}

/// The check of what the game address's SRC5 says.
pub fn game_src5_check(address: Felt, found: &GameSrc5) -> Check {
    let name = format!("game address {} SRC5", short_address(address));
    match found {
        GameSrc5::Absent => Check::new(name, Status::Skipped, "no supports_interface in its class"),
        GameSrc5::NotAToken => Check::new(
            name,
            Status::Ok,
            "supports no game-token interface: a game apart from its token",
        ),
        GameSrc5::Token(interface, id) => Check::new(
            name,
            Status::Mismatch,
            format!(
                "supports_interface({interface}, {id:#x}) is true: the game is its own token, \
                 another generation, which this server does not play"
            ),
        ),
        GameSrc5::Unreachable(m) => Check::new(name, Status::Unreachable, m.clone()),
    }
}

/// `0x23f8…c405`: an address short enough for a table.
pub fn short_address(a: Felt) -> String {
    let hex = format!("{a:#x}");
    if hex.len() <= 14 {
        return hex;
    }
    format!("{}…{}", &hex[..6], &hex[hex.len() - 4..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn abi(functions: &[(&str, usize)]) -> Abi {
        let entries: Vec<_> = functions
            .iter()
            .map(|(name, n)| {
                let inputs: Vec<_> = (0..*n)
                    .map(|i| json!({"name": format!("a{i}"), "type": "core::felt252"}))
                    .collect();
                json!({"type": "function", "name": name, "inputs": inputs, "outputs": []})
            })
            .collect();
        Abi::parse(&json!(entries)).unwrap()
    }

    #[test]
    fn each_kind_of_game_address_is_recognised() {
        let v2 = abi(&[("load_assets", 1), ("attack", 2)]);
        assert_eq!(speaks(&v2), Speaks::Generation(Generation::V2));
        let dojo = abi(&[("dojo_name", 0), ("attack", 2)]);
        assert_eq!(speaks(&dojo), Speaks::Generation(Generation::V1));
        for arity in [7, 9, 3] {
            let one = abi(&[("mint", arity), ("explore", 2), ("owner_of", 1)]);
            assert_eq!(
                speaks(&one),
                Speaks::OneAddress,
                "mint of {arity} arguments"
            );
        }
        // A one-address game that also answers `load_assets` is still the one-address design.
        let both = abi(&[("mint", 5), ("load_assets", 1), ("attack", 2)]);
        assert_eq!(speaks(&both), Speaks::OneAddress);
        assert_eq!(speaks(&abi(&[("transfer", 2)])), Speaks::Unknown);
    }

    #[test]
    fn another_generation_is_a_mismatch_that_says_so() {
        let a = Felt::from_hex_unchecked(
            "0x023f86f5b4702f6ba114b82fb73448c58aad8f37a28b508b80bf129ee1edc405",
        );
        let ok = generation_check(Generation::V2, a, Speaks::Generation(Generation::V2));
        assert_eq!(ok.status, Status::Ok);
        assert_eq!(ok.name, "game address 0x23f8…c405");
        let v1 = generation_check(Generation::V2, a, Speaks::Generation(Generation::V1));
        assert_eq!(v1.status, Status::Mismatch);
        assert!(v1.detail.contains("a v1 Dojo world"), "{}", v1.detail);
        let one = generation_check(Generation::V1, a, Speaks::OneAddress);
        assert!(one.detail.contains("its own token"), "{}", one.detail);
    }

    /// A game answering each view call with `answer(selector, calldata)`, keeping the calls.
    struct Game {
        answer: fn(Felt, &[Felt]) -> Vec<Felt>,
        calls: std::sync::Mutex<Vec<Vec<Felt>>>,
    }

    impl Game {
        fn new(answer: fn(Felt, &[Felt]) -> Vec<Felt>) -> Self {
            Self {
                answer,
                calls: Default::default(),
            }
        }
    }

    #[async_trait::async_trait]
    impl ClassSource for Game {
        async fn class_hash_at(&self, _: Felt) -> Result<Felt, crate::ClassError> {
            unreachable!()
        }
        async fn class_at(
            &self,
            _: Felt,
        ) -> Result<starknet::core::types::ContractClass, crate::ClassError> {
            unreachable!()
        }
        async fn chain_id(&self) -> Result<Felt, crate::ClassError> {
            unreachable!()
        }
        async fn call(
            &self,
            _: Felt,
            s: Felt,
            d: Vec<Felt>,
        ) -> Result<Vec<Felt>, crate::ClassError> {
            self.calls.lock().unwrap().push(d.clone());
            Ok((self.answer)(s, &d))
        }
    }

    #[tokio::test]
    async fn the_profiles_settings_are_asked_of_the_game_where_it_can_say() {
        // Only settings 1 exist.
        let game = Game::new(|s, d| {
            assert_eq!(s, starknet::macros::selector!("settings_exist"));
            vec![Felt::from(d == [Felt::ONE])]
        });
        let a = Felt::from(0x6a_u8);
        assert_eq!(
            settings_check(&game, a, Some(true), 1).await.status,
            Status::Ok
        );
        let zero = settings_check(&game, a, Some(true), 0).await;
        assert_eq!(zero.status, Status::Mismatch);
        assert!(zero.detail.contains("chain.settings_id"), "{}", zero.detail);
        assert_eq!(zero.name, "settings 0");
        for has in [Some(false), None] {
            assert_eq!(
                settings_check(&game, a, has, 0).await.status,
                Status::Skipped
            );
        }
        assert_eq!(
            *game.calls.lock().unwrap(),
            vec![vec![Felt::ONE], vec![Felt::ZERO]]
        );
    }

    #[tokio::test]
    async fn a_game_that_says_it_is_a_token_is_another_generation() {
        let a = Felt::from(0x6a_u8);
        let src5 = abi(&[("supports_interface", 1), ("load_assets", 1)]);
        let legacy = MINIGAME_TOKEN_IDS[1].1;
        // Supports the legacy token interface only.
        let token = Game::new(|s, d| {
            assert_eq!(s, starknet::macros::selector!("supports_interface"));
            vec![Felt::from(d[0] == MINIGAME_TOKEN_IDS[1].1)]
        });
        let found = game_token_src5(&token, a, &src5).await;
        assert_eq!(found, GameSrc5::Token("IMinigameToken (legacy)", legacy));
        let check = game_src5_check(a, &found);
        assert_eq!(check.status, Status::Mismatch);
        assert!(check.detail.contains("its own token"), "{}", check.detail);
        let game = Game::new(|_, _| vec![Felt::ZERO]);
        assert_eq!(game_token_src5(&game, a, &src5).await, GameSrc5::NotAToken);
        assert_eq!(
            game.calls.lock().unwrap().len(),
            MINIGAME_TOKEN_IDS.len(),
            "every id asked"
        );
        let plain = abi(&[("load_assets", 1)]);
        assert_eq!(game_token_src5(&game, a, &plain).await, GameSrc5::Absent);
        assert_eq!(
            game_src5_check(a, &GameSrc5::Absent).status,
            Status::Skipped
        );
    }
}
