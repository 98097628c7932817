//! The Torii client's failure modes against the local Torii stand-in (tests/it/torii_support): HTTP
//! errors, malformed, empty and wrongly shaped bodies, GraphQL and SQL errors, slow answers, and
//! the brief leaderboard cache that serves a stale page when Torii fails.

use std::time::{Duration, Instant};

use crate::torii_support::fixtures::{FIRST_ID, GAME, WALLET, client, client_with, seeded};
use crate::torii_support::{Endpoint, Fault};
use indexer::torii::{LeaderboardQuery, Scope, ToriiClient, ToriiError, ToriiOptions};
use starknet_types_core::felt::Felt;

/// The first `limit` rows of the whole leaderboard.
fn first_page(limit: u32) -> LeaderboardQuery {
    LeaderboardQuery {
        scope: Scope::All,
        after_rank: 0,
        limit,
        live_only: false,
        owner: None,
    }
}

#[tokio::test]
async fn transient_failures_are_retried_then_reported() {
    let fake = seeded().await;
    let c = client(&fake);
    let q = first_page(5);
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
    let q = first_page(3);
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
    let q = first_page(3);
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
    let q = first_page(10);
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
    let q = first_page(10);
    fake.fail_next(Endpoint::GraphQl, Fault::Status(500));
    let f = c.leaderboard(&q).await.unwrap();
    assert_eq!(f.page.rows.len(), 10);
    assert!(f.page.rows.iter().all(|r| r.health.is_none()));
    assert_eq!(f.page.warnings.len(), 1, "{:?}", f.page.warnings);
    let again = c.leaderboard(&q).await.unwrap();
    assert!(again.cache_age.is_none(), "a degraded page was cached");
    assert!(again.page.rows.iter().all(|r| r.health.is_some()));
}
