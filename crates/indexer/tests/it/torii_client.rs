//! The Torii client against a local server that speaks Torii's wire format
//! (tests/it/torii_support): ranking and paging with no row lost or repeated, GraphQL cursor
//! paging, number and enum encodings, the dungeon's leaderboard, the indexer's head and the key
//! formats of Torii versions.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::torii_support::fixtures::{
    FIRST_ID, GAME, GAMES, VERSIONS, WALLET, adventurer, client, every_kind_of_event,
    expected_order, game, seeded, seeded_as,
};
use crate::torii_support::{self, Endpoint, FakeTorii, Game, ToriiVersion};
use indexer::torii::{
    EventsFrom, KeyFormat, LeaderboardQuery, Scope, ToriiClient, ToriiError, ToriiOptions,
};
use starknet_types_core::felt::Felt;

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
                    let g = game(r.adventurer_id.to_u64().unwrap());
                    assert_eq!(r.score, g.score);
                    assert_eq!(r.game_over, g.game_over);
                    assert_eq!(r.player_name, g.player_name);
                    assert_eq!(r.owner, Some(format!("{:#x}", g.owner)));
                    assert_eq!(
                        r.health,
                        Some(adventurer(r.adventurer_id.to_u64().unwrap()).health)
                    );
                    assert_eq!(r.level, game::rules::level_from_xp(g.score as u16));
                    seen.push((r.rank, r.adventurer_id.to_u64().unwrap()));
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
            seen.extend(p.games.iter().map(|g| g.adventurer_id.to_u64().unwrap()));
            match p.games.last() {
                Some(last) if p.has_more => before = Some(last.adventurer_id.to_u64().unwrap()),
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
            .map(|r| (r.rank, r.adventurer_id.to_u64().unwrap(), r.score))
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
    let ids = |p: &indexer::torii::LeaderboardPage| {
        p.rows
            .iter()
            .map(|r| (r.rank, r.adventurer_id.to_u64().unwrap()))
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
        .game_events(id.into(), EventsFrom::default(), 50)
        .await
        .unwrap();
    assert_eq!(p.events.len(), actions[0].len(), "never an empty history");
    assert_eq!(p.key_format, Some(KeyFormat::Unpadded));
    let new = FakeTorii::start(Felt::from(GAME)).await;
    new.add_events(&actions[0]);
    let p = client(&new)
        .game_events(id.into(), EventsFrom::default(), 50)
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
        .game_events(game::AdventurerId::from(495u64), EventsFrom::default(), 50)
        .await
        .unwrap_err();
    match e {
        ToriiError::Unsupported(m) => assert!(m.contains("1.7.5"), "{m}"),
        other => panic!("{other}"),
    }
}
