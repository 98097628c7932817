//! What the Torii client tests share: the client they point at the stand-in, and a stand-in seeded
//! with 230 games of this contract and their adventurers.

use std::time::Duration;

use game::catalogue::{self, Slot};
use game::events::{
    AttackEvent, BeastEncounter, Discovery, GameEvent, GameEventDetails, ItemRef,
    ObstacleEncounter, PurchasedItem,
};
use game::model::{Adventurer, Bag, BeastEvent, SpecialPowers, Stats};
use indexer::torii::{ToriiClient, ToriiOptions};
use starknet_types_core::felt::Felt;

use super::{FakeTorii, Game, ToriiVersion};

/// The game contract (`game_token_systems`) the stand-in serves.
pub const GAME: u64 = 0x5e2d;
/// The wallet that owns every fifth seeded game.
pub const WALLET: u64 = 0xa11ce;
/// The first seeded game id.
pub const FIRST_ID: u64 = 1000;
/// How many games are seeded (ids `FIRST_ID..FIRST_ID + GAMES`).
pub const GAMES: u64 = 230;

/// A client of `fake` with this request timeout, retries and cache TTL.
pub fn client_with(fake: &FakeTorii, timeout_ms: u64, retries: u32, ttl_ms: u64) -> ToriiClient {
    ToriiClient::new(ToriiOptions {
        url: fake.url.parse().unwrap(),
        namespace: "ls_0_0_9".into(),
        token_namespace: "relayer_0_0_1".into(),
        game_address: fake.game_address,
        world_address: Some(fake.world_address),
        dungeon: Some(fake.dungeon),
        request_timeout: Duration::from_millis(timeout_ms),
        retries,
        cache_ttl: Duration::from_millis(ttl_ms),
    })
    .unwrap()
}

/// A client of `fake`: 2 s timeout, 2 retries, no cache.
pub fn client(fake: &FakeTorii) -> ToriiClient {
    client_with(fake, 2000, 2, 0)
}

/// Seeded game `id`: scores that tie, several owners, every third game over.
pub fn game(id: u64) -> Game {
    Game {
        id,
        owner: if id.is_multiple_of(5) {
            Felt::from(WALLET)
        } else {
            Felt::from(100 + id % 7)
        },
        score: (id * 37) % 500,
        game_over: id.is_multiple_of(3),
        player_name: (id.is_multiple_of(2)).then(|| format!("p{id}")),
    }
}

/// Seeded game `id`'s adventurer: dead when its game is over, xp equal to the score.
pub fn adventurer(id: u64) -> Adventurer {
    let g = game(id);
    Adventurer {
        health: if g.game_over {
            0
        } else {
            (id % 100) as u16 + 1
        },
        xp: g.score as u16,
        gold: (id % 50) as u16,
        action_count: (id % 40) as u16 + 1,
        ..Adventurer::default()
    }
}

/// A Torii with 230 games of this contract (ties in score, several owners, some over), their
/// packed adventurers, and one game of another contract.
pub async fn seeded() -> FakeTorii {
    seeded_as(ToriiVersion::V1_8).await
}

/// [`seeded`] as Torii `version` writes it.
pub async fn seeded_as(version: ToriiVersion) -> FakeTorii {
    let fake = FakeTorii::start_version(Felt::from(GAME), version).await;
    for id in FIRST_ID..FIRST_ID + GAMES {
        fake.add_game(&game(id));
        fake.set_adventurer(id, &adventurer(id));
    }
    fake.add_foreign_game(1, Felt::from(WALLET));
    fake
}

/// The leaderboard order computed independently: score descending, id ascending.
pub fn expected_order(filter: impl Fn(&Game) -> bool) -> Vec<(u64, u64)> {
    let mut all: Vec<Game> = (FIRST_ID..FIRST_ID + GAMES).map(game).collect();
    all.sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
    all.iter()
        .enumerate()
        .filter(|(_, g)| filter(g))
        .map(|(i, g)| (i as u64 + 1, g.id))
        .collect()
}

/// Every Torii version the client reads: the history is complete whatever the key format.
pub const VERSIONS: [ToriiVersion; 4] = [
    ToriiVersion::V1_6,
    ToriiVersion::V1_7_3,
    ToriiVersion::V1_7_5,
    ToriiVersion::V1_8,
];

/// One adventurer's events, action by action: one of every kind the client decodes.
pub fn every_kind_of_event(id: u64) -> Vec<Vec<GameEvent>> {
    let ev = |ac: u16, details| GameEvent {
        adventurer_id: id.into(),
        action_count: ac,
        details,
    };
    let attack = |damage| AttackEvent {
        damage,
        location: Slot::Chest,
        critical_hit: damage > 10,
    };
    let adv = |ac: u16| Adventurer {
        health: 90,
        xp: 4 * ac,
        gold: 40,
        action_count: ac,
        stats: Stats {
            strength: 3,
            luck: 2,
            ..Stats::default()
        },
        ..Adventurer::default()
    };
    let beast = BeastEncounter::from(BeastEvent {
        id: 29,
        seed: u64::MAX - 5,
        health: 30,
        level: 20,
        specials: SpecialPowers {
            special1: 0,
            special2: 18,
            special3: 6,
        },
        is_collectable: true,
    });
    let obstacle = catalogue::obstacle(75).unwrap();
    let dragon = catalogue::beast(29).unwrap().name.to_string();
    let mut bag = Bag::default();
    bag.items[0].id = 12;
    bag.items[0].xp = 3;
    bag.mutated = true;
    vec![
        vec![
            ev(1, GameEventDetails::Beast(beast.clone())),
            ev(1, GameEventDetails::Adventurer(adv(1))),
        ],
        vec![
            ev(2, GameEventDetails::Attack(attack(4))),
            ev(
                2,
                GameEventDetails::DefeatedBeast {
                    beast_id: 29,
                    beast_name: dragon.clone(),
                    gold_reward: 5,
                    xp_reward: 4,
                },
            ),
            ev(2, GameEventDetails::LevelUp { level: 2 }),
            ev(
                2,
                GameEventDetails::MarketItems {
                    items: vec![ItemRef::new(1), ItemRef::new(101), ItemRef::new(1)],
                },
            ),
            ev(2, GameEventDetails::Adventurer(adv(2))),
        ],
        vec![
            ev(
                3,
                GameEventDetails::StatUpgrade {
                    stats: Stats {
                        vitality: 1,
                        ..Stats::default()
                    },
                },
            ),
            ev(3, GameEventDetails::Adventurer(adv(3))),
        ],
        vec![
            ev(4, GameEventDetails::Bag(bag)),
            ev(
                4,
                GameEventDetails::BuyItems {
                    potions: 2,
                    items_purchased: vec![PurchasedItem {
                        item_id: 12,
                        name: catalogue::item_name(12),
                        equip: false,
                    }],
                },
            ),
            ev(4, GameEventDetails::Adventurer(adv(4))),
        ],
        vec![
            ev(
                5,
                GameEventDetails::Discovery {
                    discovery: Discovery::Gold { amount: 7 },
                    xp_reward: 1,
                },
            ),
            ev(
                5,
                GameEventDetails::Discovery {
                    discovery: Discovery::Health { amount: 9 },
                    xp_reward: 1,
                },
            ),
            ev(
                5,
                GameEventDetails::Discovery {
                    discovery: Discovery::Loot {
                        item: ItemRef::new(46),
                    },
                    xp_reward: 1,
                },
            ),
            ev(
                5,
                GameEventDetails::Obstacle(ObstacleEncounter {
                    obstacle_id: 75,
                    name: obstacle.name.into(),
                    tier: obstacle.tier,
                    obstacle_type: obstacle.obstacle_type,
                    dodged: false,
                    damage: 3,
                    avoided_damage: 0,
                    location: Slot::Foot,
                    critical_hit: false,
                    xp_reward: 1,
                }),
            ),
            ev(5, GameEventDetails::Beast(beast)),
            ev(5, GameEventDetails::Ambush(attack(2))),
            ev(5, GameEventDetails::Adventurer(adv(5))),
        ],
        vec![
            ev(6, GameEventDetails::Flee { success: false }),
            ev(6, GameEventDetails::BeastAttack(attack(12))),
            ev(6, GameEventDetails::Flee { success: true }),
            ev(
                6,
                GameEventDetails::FledBeast {
                    beast_id: 29,
                    beast_name: dragon.clone(),
                    xp_reward: 1,
                },
            ),
            ev(6, GameEventDetails::Adventurer(adv(6))),
        ],
        vec![
            ev(
                7,
                GameEventDetails::Equip {
                    items: vec![ItemRef::new(12)],
                },
            ),
            ev(
                7,
                GameEventDetails::Drop {
                    items: vec![ItemRef::new(46), ItemRef::new(12)],
                },
            ),
            ev(7, GameEventDetails::Adventurer(adv(7))),
        ],
    ]
}
