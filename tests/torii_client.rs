//! The Torii client against a local server that speaks Torii's wire format (tests/torii_support):
//! ranking and paging with no row lost or repeated, GraphQL cursor paging, number and enum
//! encodings, events decoded into the write tools' shapes, caching, and every failure mode
//! (HTTP errors, malformed, empty and wrongly shaped bodies, GraphQL errors, slow answers).

mod torii_support;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use loot_survivor_mcp::game::catalogue::{self, Slot};
use loot_survivor_mcp::game::events::{
    AttackEvent, BeastEncounter, Discovery, GameEvent, GameEventDetails, ItemRef,
    ObstacleEncounter, PurchasedItem,
};
use loot_survivor_mcp::game::model::{Adventurer, Bag, BeastEvent, SpecialPowers, Stats};
use loot_survivor_mcp::torii::{
    EventsFrom, KeyFormat, LeaderboardQuery, Scope, ToriiClient, ToriiError, ToriiOptions,
};
use serde_json::json;
use starknet_types_core::felt::Felt;
use torii_support::{Endpoint, FakeTorii, Fault, Game, ToriiVersion, data};

const GAME: u64 = 0x5e2d;
const WALLET: u64 = 0xa11ce;
const FIRST_ID: u64 = 1000;
const GAMES: u64 = 230;

fn client_with(fake: &FakeTorii, timeout_ms: u64, retries: u32, ttl_ms: u64) -> ToriiClient {
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

fn client(fake: &FakeTorii) -> ToriiClient {
    client_with(fake, 2000, 2, 0)
}

fn game(id: u64) -> Game {
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

fn adventurer(id: u64) -> Adventurer {
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
async fn seeded() -> FakeTorii {
    seeded_as(ToriiVersion::V1_8).await
}

/// [`seeded`] as Torii `version` writes it.
async fn seeded_as(version: ToriiVersion) -> FakeTorii {
    let fake = FakeTorii::start_version(Felt::from(GAME), version).await;
    for id in FIRST_ID..FIRST_ID + GAMES {
        fake.add_game(&game(id));
        fake.set_adventurer(id, &adventurer(id));
    }
    fake.add_foreign_game(1, Felt::from(WALLET));
    fake
}

/// The leaderboard order computed independently: score descending, id ascending.
fn expected_order(filter: impl Fn(&Game) -> bool) -> Vec<(u64, u64)> {
    let mut all: Vec<Game> = (FIRST_ID..FIRST_ID + GAMES).map(game).collect();
    all.sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
    all.iter()
        .enumerate()
        .filter(|(_, g)| filter(g))
        .map(|(i, g)| (i as u64 + 1, g.id))
        .collect()
}

#[tokio::test]
async fn leaderboard_pages_cover_every_game_once_in_rank_order() {
    for version in VERSIONS {
        let fake = seeded_as(version).await;
        let c = client(&fake);
        for (live_only, owner, limit) in [
            (false, None, 50),
            (false, None, 200),
            (true, None, 17),
            (false, Some(Felt::from(WALLET)), 9),
            (true, Some(Felt::from(WALLET)), 4),
        ] {
            let mut seen = Vec::new();
            let mut after_rank = 0;
            let mut pages = 0;
            loop {
                pages += 1;
                assert!(pages <= 70, "pagination does not end");
                let f = c
                    .leaderboard(&LeaderboardQuery {
                        scope: Scope::All,
                        after_rank,
                        limit,
                        live_only,
                        owner,
                    })
                    .await
                    .unwrap();
                let p = f.page;
                assert!(p.rows.len() <= limit as usize);
                assert!(p.warnings.is_empty(), "{:?}", p.warnings);
                for r in &p.rows {
                    let g = game(r.adventurer_id);
                    assert_eq!(r.score, g.score);
                    assert_eq!(r.game_over, g.game_over);
                    assert_eq!(r.player_name, g.player_name);
                    assert_eq!(r.owner, Some(format!("{:#x}", g.owner)));
                    assert_eq!(r.health, Some(adventurer(r.adventurer_id).health));
                    assert_eq!(
                        r.level,
                        loot_survivor_mcp::game::rules::level_from_xp(g.score as u16)
                    );
                    seen.push((r.rank, r.adventurer_id));
                }
                let expected_total = expected_order(|g| {
                    (!live_only || !g.game_over) && owner.is_none_or(|o| g.owner == o)
                })
                .len();
                assert_eq!(p.total, Some(expected_total as u64));
                match p.rows.last() {
                    Some(last) if p.has_more => after_rank = last.rank,
                    _ => break,
                }
            }
            let expected = expected_order(|g| {
                (!live_only || !g.game_over) && owner.is_none_or(|o| g.owner == o)
            });
            assert_eq!(
                seen, expected,
                "live_only={live_only} owner={owner:?} limit={limit}"
            );
            let unique: BTreeSet<u64> = seen.iter().map(|(_, id)| *id).collect();
            assert_eq!(unique.len(), seen.len(), "a row was repeated");
            assert!(!unique.contains(&1), "another game's token was listed");
        }
    }
}

#[tokio::test]
async fn the_leaderboard_ranks_with_sql_and_reads_health_with_graphql_cursors() {
    let fake = seeded().await;
    let c = client(&fake);
    fake.clear_log();
    let f = c
        .leaderboard(&LeaderboardQuery {
            scope: Scope::All,
            after_rank: 0,
            limit: 200,
            live_only: false,
            owner: None,
        })
        .await
        .unwrap();
    assert_eq!(f.page.rows.len(), 200);
    assert!(f.page.rows.iter().all(|r| r.health.is_some()));
    let log = fake.requests();
    let sql: Vec<_> = log.iter().filter(|(e, _)| *e == Endpoint::Sql).collect();
    let gql: Vec<_> = log
        .iter()
        .filter(|(e, _)| *e == Endpoint::GraphQl)
        .collect();
    assert_eq!(sql.len(), 1, "{log:?}");
    assert!(sql[0].1.contains("ROW_NUMBER()"));
    // 200 ids in pages of 100: the second page continues from the first page's endCursor.
    assert_eq!(gql.len(), 2, "{log:?}");
    assert!(gql[0].1.contains("ls009AdventurerPackedModels"));
    assert!(!gql[0].1.contains("after:"));
    assert!(gql[1].1.contains("after: \""));
}

#[tokio::test]
async fn packed_lookup_follows_cursors_across_pages_without_loss() {
    let fake = seeded().await;
    let c = client(&fake);
    let mut ids: Vec<u64> = (FIRST_ID..FIRST_ID + GAMES).collect();
    ids.push(99_999); // not indexed: simply absent
    fake.clear_log();
    let got = c.packed_adventurers(&ids).await.unwrap();
    assert_eq!(got.by_id.len(), GAMES as usize);
    for (id, a) in &got.by_id {
        let want = adventurer(*id);
        assert_eq!(
            (a.health, a.xp, a.gold, a.action_count),
            (want.health, want.xp, want.gold, want.action_count)
        );
    }
    assert_eq!(fake.requests().len(), 3, "231 ids in pages of 100");
    assert!(c.packed_adventurers(&[]).await.unwrap().by_id.is_empty());
}

#[tokio::test]
async fn graphql_wire_format_is_what_the_fake_serves() {
    let fake = seeded().await;
    let c = client(&fake);
    let data = c
        .graphql(&format!(
            "{{ ls009AdventurerPackedModels(where: {{adventurer_idIN: [\"0x{FIRST_ID:016x}\", {}]}}, first: 1) {{ totalCount edges {{ cursor node {{ adventurer_id }} }} pageInfo {{ hasNextPage hasPreviousPage endCursor }} }} }}",
            FIRST_ID + 1
        ))
        .await
        .unwrap();
    let conn = &data["ls009AdventurerPackedModels"];
    assert_eq!(conn["totalCount"], 2);
    let edges = conn["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 1);
    let id = edges[0]["node"]["adventurer_id"].as_str().unwrap();
    assert!(
        id == format!("{FIRST_ID:#x}") || id == format!("{:#x}", FIRST_ID + 1),
        "{id}"
    );
    use base64::Engine as _;
    let cursor = base64::engine::general_purpose::STANDARD
        .decode(edges[0]["cursor"].as_str().unwrap())
        .unwrap();
    assert!(String::from_utf8(cursor).unwrap().starts_with("cursor/"));
    assert_eq!(conn["pageInfo"]["hasNextPage"], true);
    assert_eq!(conn["pageInfo"]["hasPreviousPage"], false);
    // Unknown fields and mixed pagination arguments are GraphQL errors, not retried.
    for bad in [
        "{ ls009AdventurerPackedModels { edges { node { health } } } }",
        "{ ls009AdventurerPackedModels(first: 1, limit: 2) { totalCount } }",
        "{ ls009AdventurerPackedModels(first: 1, last: 2) { totalCount } }",
        "{ ls009Nope { totalCount } }",
        "{ ls009AdventurerPackedModels(",
    ] {
        fake.clear_log();
        let e = c.graphql(bad).await.unwrap_err();
        assert!(matches!(e, ToriiError::GraphQl(_)), "{bad}: {e}");
        assert_eq!(fake.requests().len(), 1, "{bad}");
    }
}

#[tokio::test]
async fn owner_games_come_newest_first_across_pages() {
    for version in VERSIONS {
        let fake = seeded_as(version).await;
        let c = client(&fake);
        let owner = Felt::from(WALLET);
        let mut seen = Vec::new();
        let mut before = None;
        for _ in 0..20 {
            let p = c.owner_games(owner, before, 7).await.unwrap();
            assert_eq!(p.total, Some(GAMES / 5));
            seen.extend(p.games.iter().map(|g| g.adventurer_id));
            match p.games.last() {
                Some(last) if p.has_more => before = Some(last.adventurer_id),
                _ => break,
            }
        }
        let mut expected: Vec<u64> = (FIRST_ID..FIRST_ID + GAMES)
            .filter(|id| id.is_multiple_of(5))
            .collect();
        expected.reverse();
        assert_eq!(seen, expected);
        let none = c.owner_games(Felt::from(0x999u32), None, 7).await.unwrap();
        assert!(none.games.is_empty() && !none.has_more);
    }
}

fn every_kind_of_event(id: u64) -> Vec<Vec<GameEvent>> {
    let ev = |ac: u16, details| GameEvent {
        adventurer_id: id,
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

#[tokio::test]
async fn event_history_decodes_into_the_write_tools_shapes_across_pages() {
    for version in VERSIONS {
        event_history_of(version).await;
    }
}

/// Every Torii version the client reads: the history is complete whatever the key format.
const VERSIONS: [ToriiVersion; 4] = [
    ToriiVersion::V1_6,
    ToriiVersion::V1_7_3,
    ToriiVersion::V1_7_5,
    ToriiVersion::V1_8,
];

async fn event_history_of(version: ToriiVersion) {
    let fake = FakeTorii::start_version(Felt::from(GAME), version).await;
    let id = 0x1ef;
    let actions = every_kind_of_event(id);
    for a in &actions {
        fake.add_events(a);
    }
    // Noise the history query must skip: another adventurer's events, a row of another model
    // keyed the same way (shaped like a GameEvent), and a GameEvent row that cannot be decoded.
    fake.add_events(&every_kind_of_event(id + 1)[0]);
    let mut foreign = data::event_data(&every_kind_of_event(id)[1][0]);
    foreign["action_count"] = json!(3);
    fake.add_model_event(
        "AdventurerNote",
        id,
        foreign,
        (999, Felt::from(0xfeedu32), 0),
    );
    fake.add_raw_event(
        id,
        json!({"adventurer_id": id.to_string(), "action_count": 8,
            "details": {"attack": {"damage": 1, "location": {"Elbow": []}, "critical_hit": false}}}),
        0,
    );
    // As the write tools decode them: the market's repeated Pendant listed once.
    let expected: Vec<GameEvent> = actions
        .concat()
        .into_iter()
        .map(|mut e| {
            e.details = e.details.for_agent();
            e
        })
        .collect();
    // Pages smaller than one action's events split actions; the cursor keeps the place.
    for limit in [1, 3, 7, 200] {
        let c = client(&fake);
        let mut got = Vec::new();
        let mut warnings = Vec::new();
        let mut from = EventsFrom::default();
        for page in 0.. {
            assert!(page < 100, "pagination does not end");
            let p = c.game_events(id, from, limit).await.unwrap();
            assert_eq!(p.total, Some(expected.len() as u64 + 1));
            assert_eq!(p.last_action_count, Some(8));
            got.extend(p.events);
            warnings.extend(p.warnings);
            match p.next {
                Some(n) => from = n,
                None => break,
            }
        }
        assert_eq!(got, expected, "{version:?} limit {limit}");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("Elbow"), "{warnings:?}");
    }
    let empty = client(&fake)
        .game_events(42, EventsFrom::default(), 10)
        .await
        .unwrap();
    assert!(empty.events.is_empty() && empty.next.is_none() && empty.last_action_count.is_none());
}

#[tokio::test]
async fn transient_failures_are_retried_then_reported() {
    let fake = seeded().await;
    let c = client(&fake);
    let q = LeaderboardQuery {
        scope: Scope::All,
        after_rank: 0,
        limit: 5,
        live_only: false,
        owner: None,
    };
    for status in [500, 502, 503, 429] {
        fake.clear_log();
        fake.fail_next(Endpoint::Sql, Fault::Status(status));
        fake.fail_next(Endpoint::Sql, Fault::Status(status));
        let f = c.leaderboard(&q).await.unwrap();
        assert_eq!(f.page.rows.len(), 5);
        let sql = fake
            .requests()
            .iter()
            .filter(|(e, _)| *e == Endpoint::Sql)
            .count();
        assert_eq!(sql, 3, "two retries then success ({status})");
    }
    fake.set_down(true);
    fake.clear_log();
    // (A page never served before: no cached copy can stand in.)
    let q = LeaderboardQuery { limit: 6, ..q };
    let e = c.leaderboard(&q).await.unwrap_err();
    assert_eq!(
        e,
        ToriiError::Status {
            status: 503,
            body: "service unavailable".into()
        }
    );
    assert!(e.is_transient());
    assert_eq!(fake.requests().len(), 3, "1 try + 2 retries");
    fake.set_down(false);
    // A connection refused is transient too.
    let url = fake.url.clone();
    drop(fake);
    let dead = ToriiClient::new(ToriiOptions {
        url: url.parse().unwrap(),
        namespace: "ls_0_0_9".into(),
        token_namespace: "relayer_0_0_1".into(),
        game_address: Felt::from(GAME),
        world_address: None,
        dungeon: None,
        request_timeout: Duration::from_millis(500),
        retries: 1,
        cache_ttl: Duration::ZERO,
    })
    .unwrap();
    let e = dead.leaderboard(&q).await.unwrap_err();
    assert!(matches!(e, ToriiError::Connect(_)), "{e}");
    assert!(!e.to_string().contains("127.0.0.1"), "the URL leaked: {e}");
}

#[tokio::test]
async fn slow_answers_time_out_and_are_retried() {
    let fake = seeded().await;
    let c = client_with(&fake, 200, 2, 0);
    let q = LeaderboardQuery {
        scope: Scope::All,
        after_rank: 0,
        limit: 3,
        live_only: false,
        owner: None,
    };
    fake.fail_next(Endpoint::Sql, Fault::Delay(Duration::from_millis(1000)));
    let f = c.leaderboard(&q).await.unwrap();
    assert_eq!(f.page.rows.len(), 3, "the retry after the timeout succeeds");
    for _ in 0..3 {
        fake.fail_next(Endpoint::Sql, Fault::Delay(Duration::from_millis(1000)));
    }
    let t0 = Instant::now();
    let q = LeaderboardQuery { limit: 4, ..q };
    let e = c.leaderboard(&q).await.unwrap_err();
    assert_eq!(e, ToriiError::Timeout(200));
    assert!(
        t0.elapsed() < Duration::from_millis(2500),
        "{:?}",
        t0.elapsed()
    );
}

#[tokio::test]
async fn malformed_empty_and_misshapen_answers_are_errors_not_retried() {
    let fake = seeded().await;
    let c = client(&fake);
    let q = LeaderboardQuery {
        scope: Scope::All,
        after_rank: 0,
        limit: 3,
        live_only: false,
        owner: None,
    };
    for fault in [Fault::Malformed, Fault::Empty, Fault::WrongShape] {
        fake.clear_log();
        fake.fail_next(Endpoint::Sql, fault.clone());
        let e = c.leaderboard(&q).await.unwrap_err();
        assert!(matches!(e, ToriiError::Malformed(_)), "{fault:?}: {e}");
        assert_eq!(fake.requests().len(), 1, "{fault:?} was retried");
    }
    for fault in [
        Fault::Malformed,
        Fault::Empty,
        Fault::WrongShape,
        Fault::GraphQlError("field not found".into()),
    ] {
        fake.fail_next(Endpoint::GraphQl, fault.clone());
        let e = c.packed_adventurers(&[FIRST_ID]).await.unwrap_err();
        assert!(!e.is_transient(), "{fault:?}: {e}");
    }
    // Packed values that do not unpack are reported, the rest still read.
    // Weapon id 127 (ids stop at 101), and bits above the 238 the layout uses.
    fake.set_packed_raw(FIRST_ID, "0x1fc0000000000000000000");
    fake.set_packed_raw(FIRST_ID + 2, &format!("0x1{}", "0".repeat(60)));
    let got = c
        .packed_adventurers(&[FIRST_ID, FIRST_ID + 1, FIRST_ID + 2])
        .await
        .unwrap();
    assert_eq!(
        got.by_id.keys().copied().collect::<Vec<_>>(),
        vec![FIRST_ID + 1]
    );
    assert_eq!(got.warnings.len(), 2, "{:?}", got.warnings);
}

#[tokio::test]
async fn sql_errors_carry_torii_message_and_are_not_retried() {
    let fake = seeded().await;
    let c = ToriiClient::new(ToriiOptions {
        url: fake.url.parse().unwrap(),
        namespace: "ls_0_0_9".into(),
        token_namespace: "relayer_9_9_9".into(),
        game_address: Felt::from(GAME),
        world_address: None,
        dungeon: None,
        request_timeout: Duration::from_secs(2),
        retries: 2,
        cache_ttl: Duration::ZERO,
    })
    .unwrap();
    fake.clear_log();
    let e = c
        .owner_games(Felt::from(WALLET), None, 5)
        .await
        .unwrap_err();
    match &e {
        ToriiError::Status { status: 400, body } => {
            assert!(body.contains("no such table"), "{body}")
        }
        other => panic!("{other}"),
    }
    assert_eq!(fake.requests().len(), 1);
}

#[tokio::test]
async fn leaderboard_pages_are_cached_briefly_and_served_stale_when_torii_fails() {
    let fake = seeded().await;
    let c = client_with(&fake, 2000, 0, 300);
    let q = LeaderboardQuery {
        scope: Scope::All,
        after_rank: 0,
        limit: 10,
        live_only: false,
        owner: None,
    };
    fake.clear_log();
    let first = c.leaderboard(&q).await.unwrap();
    assert!(first.cache_age.is_none());
    let n = fake.requests().len();
    let second = c.leaderboard(&q).await.unwrap();
    assert!(second.cache_age.is_some());
    assert_eq!(second.page, first.page);
    assert_eq!(
        fake.requests().len(),
        n,
        "a fresh page is not fetched again"
    );
    tokio::time::sleep(Duration::from_millis(350)).await;
    let third = c.leaderboard(&q).await.unwrap();
    assert!(third.cache_age.is_none());
    assert!(
        fake.requests().len() > n,
        "an expired page is fetched again"
    );
    tokio::time::sleep(Duration::from_millis(350)).await;
    fake.set_down(true);
    let stale = c.leaderboard(&q).await.unwrap();
    assert_eq!(stale.page, first.page);
    assert!(stale.cache_age.unwrap() >= Duration::from_millis(300));
    assert!(matches!(
        stale.stale_because,
        Some(ToriiError::Status { status: 503, .. })
    ));
    let other = LeaderboardQuery {
        scope: Scope::All,
        after_rank: 10,
        ..q
    };
    assert!(
        c.leaderboard(&other).await.is_err(),
        "no fallback for an uncached page"
    );
}

#[tokio::test]
async fn a_failed_health_lookup_degrades_the_page_and_is_not_cached() {
    let fake = seeded().await;
    let c = client_with(&fake, 2000, 0, 60_000);
    let q = LeaderboardQuery {
        scope: Scope::All,
        after_rank: 0,
        limit: 10,
        live_only: false,
        owner: None,
    };
    fake.fail_next(Endpoint::GraphQl, Fault::Status(500));
    let f = c.leaderboard(&q).await.unwrap();
    assert_eq!(f.page.rows.len(), 10);
    assert!(f.page.rows.iter().all(|r| r.health.is_none()));
    assert_eq!(f.page.warnings.len(), 1, "{:?}", f.page.warnings);
    let again = c.leaderboard(&q).await.unwrap();
    assert!(again.cache_age.is_none(), "a degraded page was cached");
    assert!(again.page.rows.iter().all(|r| r.health.is_some()));
}

#[tokio::test]
async fn indexing_head_is_read_when_torii_has_it() {
    let fake = seeded().await;
    assert_eq!(client(&fake).indexer_head().await, None);
    fake.set_head(1234, 1_700_000_000);
    let h = client(&fake).indexer_head().await.unwrap();
    assert_eq!(h.block, Some(1234));
    assert_eq!(h.timestamp, Some(1_700_000_000));
    assert!(h.lag_seconds().unwrap() > 0);
}

#[tokio::test]
async fn a_zero_score_ties_with_tokens_that_have_no_score_row() {
    // Defect: COALESCE(score, 0) put the integer 0 beside hex text, and SQLite sorts any text
    // above any integer, so token 10 (score row "0x…0") outranked tokens 5 and 7 (no row).
    for version in VERSIONS {
        let fake = FakeTorii::start_version(Felt::from(GAME), version).await;
        let g = |id, score| Game {
            id,
            owner: Felt::from(WALLET),
            score,
            game_over: false,
            player_name: None,
        };
        fake.add_game(&g(10, 0));
        fake.add_game_without_score(&g(5, 0));
        fake.add_game_without_score(&g(7, 0));
        fake.add_game(&g(12, 3));
        let p = client(&fake)
            .leaderboard(&LeaderboardQuery {
                scope: Scope::All,
                after_rank: 0,
                limit: 10,
                live_only: false,
                owner: None,
            })
            .await
            .unwrap()
            .page;
        let order: Vec<(u64, u64, u64)> = p
            .rows
            .iter()
            .map(|r| (r.rank, r.adventurer_id, r.score))
            .collect();
        assert_eq!(
            order,
            vec![(1, 12, 3), (2, 5, 0), (3, 7, 0), (4, 10, 0)],
            "{version:?}"
        );
    }
}

#[tokio::test]
async fn the_dungeon_leaderboard_ranks_only_the_dungeons_games() {
    let fake = FakeTorii::start(Felt::from(GAME)).await;
    let g = |id, score| Game {
        id,
        owner: Felt::from(WALLET),
        score,
        game_over: false,
        player_name: None,
    };
    // A tournament (another minter) holds the best score.
    fake.add_game_minted_by(&g(1, 900), torii_support::OTHER_MINTER);
    fake.add_game(&g(2, 500));
    fake.add_game_minted_by(&g(3, 400), torii_support::OTHER_MINTER);
    fake.add_game(&g(4, 100));
    let c = client(&fake);
    let page = |scope| {
        let c = &c;
        async move {
            c.leaderboard(&LeaderboardQuery {
                scope,
                after_rank: 0,
                limit: 10,
                live_only: false,
                owner: None,
            })
            .await
            .unwrap()
            .page
        }
    };
    let ids = |p: &loot_survivor_mcp::torii::LeaderboardPage| {
        p.rows
            .iter()
            .map(|r| (r.rank, r.adventurer_id))
            .collect::<Vec<_>>()
    };
    let dungeon = page(Scope::Dungeon).await;
    assert_eq!(ids(&dungeon), vec![(1, 2), (2, 4)]);
    assert_eq!(dungeon.total, Some(2));
    let all = page(Scope::All).await;
    assert_eq!(ids(&all), vec![(1, 1), (2, 2), (3, 3), (4, 4)]);
    // Without a dungeon address the scope cannot be served.
    let mut no_dungeon = client(&fake);
    no_dungeon = {
        drop(no_dungeon);
        ToriiClient::new(ToriiOptions {
            url: fake.url.parse().unwrap(),
            namespace: "ls_0_0_9".into(),
            token_namespace: "relayer_0_0_1".into(),
            game_address: fake.game_address,
            world_address: None,
            dungeon: None,
            request_timeout: Duration::from_secs(2),
            retries: 0,
            cache_ttl: Duration::ZERO,
        })
        .unwrap()
    };
    let e = no_dungeon
        .leaderboard(&LeaderboardQuery {
            scope: Scope::Dungeon,
            after_rank: 0,
            limit: 10,
            live_only: false,
            owner: None,
        })
        .await
        .unwrap_err();
    assert!(matches!(e, ToriiError::Unsupported(_)), "{e}");
}

#[tokio::test]
async fn events_of_another_model_under_the_same_key_are_kept_apart() {
    // Defect: the history was filtered by key only, so another single-key model's rows (here
    // shaped exactly like GameEvents) were returned as the adventurer's events.
    for version in VERSIONS {
        let fake = FakeTorii::start_version(Felt::from(GAME), version).await;
        let id = 0x2a;
        let actions = every_kind_of_event(id);
        fake.add_events(&actions[0]);
        for (i, e) in actions[1].iter().enumerate() {
            fake.add_model_event(
                "AdventurerNote",
                id,
                data::event_data(e),
                (500, Felt::from(0xbeefu32), i as u64),
            );
        }
        let p = client(&fake)
            .game_events(id, EventsFrom::default(), 200)
            .await
            .unwrap();
        let want: Vec<GameEvent> = actions[0]
            .iter()
            .cloned()
            .map(|mut e| {
                e.details = e.details.for_agent();
                e
            })
            .collect();
        assert_eq!(p.events, want, "{version:?}");
        assert_eq!(p.total, Some(actions[0].len() as u64), "{version:?}");
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    }
}

#[tokio::test]
async fn events_past_index_255_of_one_receipt_stay_in_chain_order() {
    // Defect: `event_id` ends with the receipt index as `{:#04x}`, so as text "0x100" sorted
    // before "0x11": past 255 events the order inside one transaction broke.
    let fake = FakeTorii::start(Felt::from(GAME)).await;
    let id = 0x77;
    let events: Vec<GameEvent> = (0..300u16)
        .map(|i| GameEvent {
            adventurer_id: id,
            action_count: 1,
            details: GameEventDetails::Attack(AttackEvent {
                damage: i,
                location: Slot::Chest,
                critical_hit: false,
            }),
        })
        .collect();
    fake.add_events_at(&events, 2);
    let c = client(&fake);
    let mut got = Vec::new();
    let mut from = EventsFrom::default();
    for _ in 0..10 {
        let p = c.game_events(id, from, 120).await.unwrap();
        got.extend(p.events);
        match p.next {
            Some(n) => from = n,
            None => break,
        }
    }
    let damages: Vec<u16> = got
        .iter()
        .map(|e| match &e.details {
            GameEventDetails::Attack(a) => a.damage,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(damages, (0..300).collect::<Vec<_>>());
}

#[tokio::test]
async fn the_indexer_head_is_the_game_worlds_own_row() {
    // Defect: MAX(head) over every indexed contract reported an ERC token's head as the game's.
    let fake = seeded().await;
    fake.set_head(1234, 1_700_000_000);
    fake.set_contract_head(Felt::from(0xe7c721u32), "ERC721", 99_999, 1_800_000_000);
    let h = client(&fake).indexer_head().await.unwrap();
    assert_eq!((h.block, h.timestamp), (Some(1234), Some(1_700_000_000)));
    // A client that does not know its world trusts a single WORLD row, not one of several.
    let blind = |fake: &FakeTorii| {
        ToriiClient::new(ToriiOptions {
            url: fake.url.parse().unwrap(),
            namespace: "ls_0_0_9".into(),
            token_namespace: "relayer_0_0_1".into(),
            game_address: fake.game_address,
            world_address: None,
            dungeon: None,
            request_timeout: Duration::from_secs(2),
            retries: 0,
            cache_ttl: Duration::ZERO,
        })
        .unwrap()
    };
    assert_eq!(blind(&fake).indexer_head().await.unwrap().block, Some(1234));
    fake.set_contract_head(Felt::from(0x0be5u32), "WORLD", 5, 5);
    assert_eq!(blind(&fake).indexer_head().await, None);
    assert_eq!(
        client(&fake).indexer_head().await.unwrap().block,
        Some(1234)
    );
}

#[tokio::test]
async fn an_old_torii_key_format_is_detected_and_still_read() {
    let fake = FakeTorii::start_version(Felt::from(GAME), ToriiVersion::V1_7_3).await;
    let id = 0x1ef;
    let actions = every_kind_of_event(id);
    fake.add_events(&actions[0]);
    let keys = fake
        .query("SELECT keys FROM event_messages_historical LIMIT 1")
        .unwrap();
    assert_eq!(
        keys[0]["keys"], "0x1ef/",
        "Torii 1.7.3 writes unpadded keys"
    );
    let p = client(&fake)
        .game_events(id, EventsFrom::default(), 50)
        .await
        .unwrap();
    assert_eq!(p.events.len(), actions[0].len(), "never an empty history");
    assert_eq!(p.key_format, Some(KeyFormat::Unpadded));
    let new = FakeTorii::start(Felt::from(GAME)).await;
    new.add_events(&actions[0]);
    let p = client(&new)
        .game_events(id, EventsFrom::default(), 50)
        .await
        .unwrap();
    assert_eq!(p.key_format, Some(KeyFormat::Padded));
}

#[tokio::test]
async fn an_unknown_key_format_is_an_error_naming_the_torii_needed() {
    let fake = FakeTorii::start(Felt::from(GAME)).await;
    let model_id = ToriiVersion::V1_8.scoped(
        fake.world_address,
        torii_support::model_selector("ls_0_0_9", "GameEvent"),
    );
    fake.execute(&format!(
        "INSERT INTO event_messages_historical (id, keys, event_id, data, model_id, executed_at)
         VALUES ('x', '495/', '0x1:0x2:0x3:0x00', '{{}}', '{model_id}', '2026-01-01T00:00:00Z')"
    ));
    let e = client(&fake)
        .game_events(495, EventsFrom::default(), 50)
        .await
        .unwrap_err();
    match e {
        ToriiError::Unsupported(m) => assert!(m.contains("1.7.5"), "{m}"),
        other => panic!("{other}"),
    }
}
