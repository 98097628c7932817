//! The Denshokan client against a local stand-in that answers as the API's routes do
//! (tests/it/denshokan_support): filters and paging in the query string, the 1,000-row page cap,
//! felt token ids above 2^250, ranks, a player's tokens, typed 400/401/404/409/429 answers, the
//! API key sent as its header and hidden when echoed, the retry policy and a server that is down.

use game::AdventurerId;
use game::token_fields::TokenFields;
use std::time::{Duration, Instant};

use crate::denshokan_support::{DUNGEON, FakeDenshokan, Fault, OTHER_MINTER, Row};
use indexer::denshokan::{
    DenshokanClient, DenshokanError, DenshokanOptions, Paging, PlayerTokensQuery, RankScope,
    SortBy, SortOrder, TokensQuery,
};
use starknet_types_core::felt::Felt;

/// A packed Death Mountain token id above 2^250 (metadata bits set), in decimal as the API
/// writes it, and the same number in hex, written independently.
const BIG_ID: &str = "1809251394333065553493296641359414133978688967941018027463383199922813665281";
const BIG_ID_HEX: &str = "0x4000000000000000000000068dd17c0000000000000000000000004c0000001";
const ALICE: &str = "0xa11ce";
const BOB: &str = "0xb0b";

fn options(url: &str) -> DenshokanOptions {
    DenshokanOptions {
        url: url.parse().unwrap(),
        request_timeout: Duration::from_secs(5),
        retries: 2,
        max_retry_wait: Duration::from_secs(2),
        cache_ttl: Duration::ZERO,
        api_key: None,
    }
}

fn client(url: &str) -> DenshokanClient {
    DenshokanClient::new(options(url)).unwrap()
}

/// Highest score first, `limit` rows a page.
fn by_score(limit: u32) -> Paging {
    Paging {
        sort_by: Some(SortBy::Score),
        limit: Some(limit),
        ..Default::default()
    }
}

fn felt(hex: &str) -> Felt {
    Felt::from_hex(hex).unwrap()
}

/// Five games: Alice's 1 (over, 50), 2 (running, 90), 3 (over, 70, another minter); Bob's 4
/// (over, 90, minted later than 2) and 5 (over, 10).
async fn seeded() -> FakeDenshokan {
    let fake = FakeDenshokan::start().await;
    let mut rows = vec![
        Row::new("1", ALICE, 50, 10),
        Row::new("2", ALICE, 90, 20),
        Row::new("3", ALICE, 70, 30),
        Row::new("4", BOB, 90, 40),
        Row::new("5", BOB, 10, 50),
    ];
    for i in [0, 2, 3, 4] {
        rows[i].game_over = true;
        rows[i].completed_at = Some(1_759_300_000 + i as u64);
    }
    rows[2].minted_by = OTHER_MINTER;
    rows[1].player_name = Some("aragorn".into());
    fake.add(rows);
    fake
}

fn ids(page: &indexer::denshokan::TokenPage) -> Vec<u64> {
    page.tokens
        .iter()
        .map(|t| u64::try_from(t.token_id).unwrap())
        .collect()
}

#[tokio::test]
async fn filters_sort_and_paging_reach_the_query_string() {
    let fake = seeded().await;
    let c = client(&fake.url);
    let q = TokensQuery {
        game_id: Some(1),
        minter_address: Some(felt(DUNGEON)),
        owner: None,
        game_over: Some(true),
        paging: Paging {
            sort_by: Some(SortBy::Score),
            sort_order: Some(SortOrder::Desc),
            limit: Some(2),
            offset: 0,
        },
    };
    let page = c.tokens(&q).await.unwrap();
    assert_eq!(ids(&page), vec![4, 1]);
    assert_eq!(
        (page.total, page.offset, page.next_offset()),
        (3, 0, Some(2))
    );
    assert!(page.lagging);
    let sent = &fake.log()[0];
    assert_eq!(sent.path, "/tokens");
    for (name, value) in [
        ("game_id", "1"),
        ("minter_address", DUNGEON),
        ("game_over", "true"),
        ("sort_by", "score"),
        ("sort_order", "desc"),
        ("limit", "2"),
        ("offset", "0"),
        ("include_uri", "false"),
    ] {
        assert_eq!(sent.param(name), Some(value), "{name}");
    }
    assert_eq!(sent.param("owner"), None);

    let rest = c.tokens(&q.at(2)).await.unwrap();
    assert_eq!((ids(&rest), rest.next_offset()), (vec![5], None));
    assert_eq!(fake.log()[1].param("offset"), Some("2"));

    let alice = TokensQuery {
        owner: Some(felt("0x00000A11CE")),
        paging: Paging {
            sort_by: Some(SortBy::Minted),
            sort_order: Some(SortOrder::Asc),
            ..Default::default()
        },
        ..Default::default()
    };
    let page = c.tokens(&alice).await.unwrap();
    assert_eq!(ids(&page), vec![1, 2, 3]);
    assert_eq!(fake.log()[2].param("owner"), Some(ALICE));
    assert_eq!(fake.log()[2].param("include_uri"), Some("false"));
    let t = &page.tokens[1];
    assert_eq!(t.player_name.as_deref(), Some("aragorn"));
    assert_eq!(t.minter_address, Some(felt(DUNGEON)));
    assert_eq!((t.minted_by, t.current_score, t.game_over), (19, 90, false));
    assert_eq!(page.tokens[2].minted_by, OTHER_MINTER);

    let unknown_minter = TokensQuery {
        minter_address: Some(felt("0x123")),
        ..Default::default()
    };
    let page = c.tokens(&unknown_minter).await.unwrap();
    assert_eq!((page.tokens.len(), page.total), (0, 0));
}

#[tokio::test]
async fn pages_are_capped_at_a_thousand_rows_and_collected_by_rows_returned() {
    let fake = FakeDenshokan::start().await;
    fake.add((1..=1205u32).map(|i| Row::new(&i.to_string(), BOB, u64::from(i), i)));
    let c = client(&fake.url);

    let raw: serde_json::Value = reqwest::get(format!("{}/tokens?limit=5000", fake.url))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(raw["data"].as_array().unwrap().len(), 1000);
    assert_eq!(
        raw["limit"], 5000,
        "the route echoes the limit it was given"
    );
    assert!(raw["data"][0]["tokenUri"].is_string());

    let big = TokensQuery {
        paging: by_score(5000),
        ..Default::default()
    };
    let page = c.tokens(&big).await.unwrap();
    assert_eq!(fake.log()[1].param("limit"), Some("1000"));
    assert_eq!((page.tokens.len(), page.total), (1000, 1205));
    assert_eq!(page.next_offset(), Some(1000));

    let all = c.collect_tokens(&big, 10_000).await.unwrap();
    assert_eq!(all.tokens.len(), 1205);
    let mut seen = ids(&all);
    assert_eq!(seen[0], 1205, "highest score first");
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), 1205, "no row lost or repeated");
    let offsets: Vec<_> = fake.log()[2..]
        .iter()
        .map(|l| l.param("offset").unwrap().to_string())
        .collect();
    assert_eq!(offsets, vec!["0", "1000"]);

    let some = c.collect_tokens(&big, 1100).await.unwrap();
    assert_eq!(some.tokens.len(), 1100);
}

#[tokio::test]
async fn a_token_id_above_two_to_the_250_round_trips_in_decimal() {
    let fake = FakeDenshokan::start().await;
    fake.add([Row::new(BIG_ID, ALICE, 161, 5)]);
    let c = client(&fake.url);
    let id = felt(BIG_ID_HEX);
    assert!(id > Felt::TWO.pow(250u32));

    let listed = c.tokens(&TokensQuery::default()).await.unwrap();
    assert_eq!(listed.tokens[0].token_id, id);

    let token = c.token(id).await.unwrap();
    assert_eq!(token.token_id, id);
    assert_eq!(fake.log()[1].path, format!("/tokens/{BIG_ID}"));
    assert_eq!(token.owner_address, felt(ALICE));
    let packed = TokenFields::of(AdventurerId::from(token.token_id));
    assert_eq!((packed.game_id, packed.minted_by), (1, 19));
    assert_eq!(packed.minted_at, 1_759_320_000);

    let rank = c.rank(id, &RankScope::default()).await.unwrap();
    assert_eq!((rank.token_id, rank.rank, rank.total), (id, 1, 1));
}

#[tokio::test]
async fn ranks_are_counted_in_their_scope() {
    let fake = seeded().await;
    let c = client(&fake.url);
    let dungeon = RankScope {
        minter_address: Some(felt(DUNGEON)),
        ..Default::default()
    };
    // 2 and 4 both score 90; 2 was minted first.
    let r2 = c.rank(Felt::from(2u8), &dungeon).await.unwrap();
    let r4 = c.rank(Felt::from(4u8), &dungeon).await.unwrap();
    assert_eq!((r2.rank, r4.rank, r4.total, r4.score), (1, 2, 4, 90));
    assert!(r4.lagging);
    assert_eq!(fake.log()[1].path, "/tokens/4/rank");
    assert_eq!(fake.log()[1].param("minter_address"), Some(DUNGEON));

    let over = RankScope {
        game_over: Some(true),
        ..Default::default()
    };
    let r1 = c.rank(Felt::ONE, &over).await.unwrap();
    assert_eq!((r1.rank, r1.total), (3, 4), "behind 4 (90) and 3 (70)");

    let e = c.rank(Felt::from(3u8), &dungeon).await.unwrap_err();
    assert_eq!(
        e,
        DenshokanError::NotFound("Token not found in scope".into())
    );
    let unknown = RankScope {
        minter_address: Some(felt("0x999")),
        ..Default::default()
    };
    let e = c.rank(Felt::ONE, &unknown).await.unwrap_err();
    assert_eq!(e, DenshokanError::NotFound("Minter not found".into()));
}

#[tokio::test]
async fn a_players_tokens_are_paged_at_most_a_hundred_at_a_time() {
    let fake = FakeDenshokan::start().await;
    fake.add((1..=130u32).map(|i| Row::new(&i.to_string(), ALICE, u64::from(i), i)));
    fake.add([Row::new("999", BOB, 1, 999)]);
    let c = client(&fake.url);
    let q = PlayerTokensQuery {
        game_id: Some(1),
        paging: by_score(500),
        ..Default::default()
    };
    let page = c.player_tokens(felt(ALICE), &q).await.unwrap();
    assert_eq!((page.tokens.len(), page.total), (100, 130));
    assert_eq!(page.tokens[0].current_score, 130);
    assert!(page.tokens.iter().all(|t| t.owner_address == felt(ALICE)));
    let sent = &fake.log()[0];
    assert_eq!(sent.path, format!("/players/{ALICE}/tokens"));
    assert_eq!(sent.param("limit"), Some("100"));
    assert_eq!(sent.param("game_id"), Some("1"));

    let mut next = q.clone();
    next.paging.offset = page.next_offset().unwrap();
    let rest = c.player_tokens(felt(ALICE), &next).await.unwrap();
    assert_eq!((rest.tokens.len(), rest.next_offset()), (30, None));
}

#[tokio::test]
async fn bad_and_unknown_ids_are_typed() {
    let fake = seeded().await;
    let c = client(&fake.url);
    let e = c.token(Felt::from(77u8)).await.unwrap_err();
    assert_eq!(e, DenshokanError::NotFound("Token not found".into()));
    assert_eq!(e.kind(), "not_found");

    // The client writes ids only in decimal, so the route's 400 is seen through a raw request
    // first, then replayed to the client.
    let raw = reqwest::get(format!("{}/tokens/not-a-number", fake.url))
        .await
        .unwrap();
    assert_eq!(raw.status().as_u16(), 400);
    assert_eq!(raw.text().await.unwrap(), r#"{"error":"Invalid token ID"}"#);
    fake.fault(Fault::Json(400, r#"{"error":"Invalid token ID"}"#));
    let e = c.token(Felt::ONE).await.unwrap_err();
    assert_eq!(e, DenshokanError::BadRequest("Invalid token ID".into()));
    assert_eq!(fake.log().len(), 3, "a 400 is not retried");

    fake.fault(Fault::Malformed);
    let e = c.token(Felt::ONE).await.unwrap_err();
    assert!(matches!(e, DenshokanError::Malformed(_)), "{e}");
}

#[tokio::test]
async fn the_api_key_goes_in_its_header_and_a_refused_or_echoed_one_is_never_shown() {
    let key = "dk_test_Qm4sZr8vXw";
    let fake = seeded().await;
    let keyed = |key: &str| {
        DenshokanClient::new(DenshokanOptions {
            api_key: Some(key.into()),
            ..options(&fake.url)
        })
        .unwrap()
    };
    // Refused while the API holds no key: 401, typed and not retried.
    let e = keyed(key).token(Felt::from(2u8)).await.unwrap_err();
    assert_eq!(e, DenshokanError::Unauthorized("Invalid API key".into()));
    assert_eq!((e.is_transient(), e.kind()), (false, "unauthorized"));
    assert_eq!(fake.log().len(), 1, "a 401 is not retried");
    assert_eq!(fake.log()[0].api_key.as_deref(), Some(key));

    fake.accept_key(key);
    let c = keyed(key);
    assert_eq!(c.token(Felt::from(2u8)).await.unwrap().current_score, 90);
    assert!(c.health().await.unwrap().ok);
    let log = fake.log();
    assert!(
        log[1..].iter().all(|l| l.api_key.as_deref() == Some(key)),
        "{log:?}"
    );
    assert!(log.iter().all(|l| l.authorization.is_none()));
    assert!(!format!("{c:?}").contains(key));

    fake.fault(Fault::Json(
        400,
        r#"{"error": "key dk_test_Qm4sZr8vXw is over its quota"}"#,
    ));
    let e = c.token(Felt::ONE).await.unwrap_err();
    assert_eq!(
        e,
        DenshokanError::BadRequest("key <hidden> is over its quota".into())
    );

    // Provable-Games/denshokan `GET /tokens/:id` at `2527bda`, on the branch that indexes the
    // one-address generation only: an id that names more than one game is a 409.
    fake.fault(Fault::Json(409, r#"{"error": "Ambiguous token ID"}"#));
    let e = c.token(Felt::ONE).await.unwrap_err();
    assert_eq!(e, DenshokanError::Ambiguous("Ambiguous token ID".into()));
    assert_eq!((e.is_transient(), e.kind()), (false, "ambiguous"));

    let e = DenshokanClient::new(DenshokanOptions {
        api_key: Some("bad\nkey-Zx81".into()),
        ..options(&fake.url)
    })
    .unwrap_err();
    assert!(
        matches!(&e, DenshokanError::Setup(m) if !m.contains("Zx81")),
        "{e}"
    );
}

#[tokio::test]
async fn a_short_rate_limit_is_waited_out() {
    let fake = seeded().await;
    let c = client(&fake.url);
    fake.fault(Fault::RateLimited(1));
    let start = Instant::now();
    let t = c.token(Felt::from(2u8)).await.unwrap();
    assert_eq!(t.current_score, 90);
    assert!(
        start.elapsed() >= Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(fake.log().len(), 2);

    fake.fault(Fault::Status(503, "Service Unavailable"));
    fake.fault(Fault::Status(500, "Internal Server Error"));
    let page = c.tokens(&TokensQuery::default()).await.unwrap();
    assert_eq!(page.total, 5);
    assert_eq!(
        fake.log().len(),
        5,
        "two transient failures, then the answer"
    );
}

#[tokio::test]
async fn a_long_rate_limit_is_returned_typed() {
    let fake = seeded().await;
    let c = client(&fake.url);
    fake.fault(Fault::RateLimited(30));
    let start = Instant::now();
    let e = c.tokens(&TokensQuery::default()).await.unwrap_err();
    assert_eq!(
        e,
        DenshokanError::RateLimited {
            retry_after: Some(30)
        }
    );
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(fake.log().len(), 1, "not retried");

    let no_retries = DenshokanClient::new(DenshokanOptions {
        retries: 0,
        ..options(&fake.url)
    })
    .unwrap();
    fake.fault(Fault::RateLimited(1));
    let e = no_retries.token(Felt::ONE).await.unwrap_err();
    assert_eq!(e.kind(), "rate_limited");
}

#[tokio::test]
async fn a_cached_page_is_served_while_the_api_rate_limits() {
    let fake = seeded().await;
    let c = DenshokanClient::new(DenshokanOptions {
        cache_ttl: Duration::from_millis(200),
        ..options(&fake.url)
    })
    .unwrap();
    let q = TokensQuery::default();
    let first = c.tokens(&q).await.unwrap();
    assert_eq!(first.cache_age, None);
    let again = c.tokens(&q).await.unwrap();
    assert!(again.cache_age.is_some());
    assert_eq!(fake.log().len(), 1, "a fresh page is not asked for again");

    tokio::time::sleep(Duration::from_millis(250)).await;
    fake.fault(Fault::RateLimited(60));
    let stale = c.tokens(&q).await.unwrap();
    assert_eq!(stale.tokens, first.tokens);
    assert_eq!(
        stale.stale_because,
        Some(DenshokanError::RateLimited {
            retry_after: Some(60)
        })
    );
}

#[tokio::test]
async fn a_server_that_is_down_is_a_connect_error_without_credentials() {
    let fake = seeded().await;
    let url = fake.url.replace("http://", "http://user:pa55word@") + "/?key=s3cret";
    let c = DenshokanClient::new(DenshokanOptions {
        retries: 1,
        ..options(&url)
    })
    .unwrap();
    assert_eq!(c.tokens(&TokensQuery::default()).await.unwrap().total, 5);
    fake.stop().await;
    let e = c.token(Felt::ONE).await.unwrap_err();
    assert!(matches!(e, DenshokanError::Connect(_)), "{e}");
    assert!(e.is_transient());
    let text = e.to_string();
    assert!(
        !text.contains("s3cret") && !text.contains("pa55word"),
        "{text}"
    );
}

#[tokio::test]
async fn health_reads_the_api_and_its_database_once() {
    let fake = FakeDenshokan::start().await;
    fake.set_health(true, Some(1_234));
    let up = client(&fake.url).health().await.unwrap();
    assert!(up.ok && up.db);
    assert_eq!((up.status.as_str(), up.latest_block), ("ok", Some(1_234)));
    fake.set_health(false, None);
    let down = client(&fake.url).health().await.unwrap();
    assert!(!down.ok && !down.db);
    assert_eq!(
        (down.status.as_str(), down.latest_block),
        ("degraded", None)
    );
    // Hono's 404 page (an API without the route) is an error, asked once, not retried.
    fake.fault(Fault::Status(404, "404 Not Found"));
    let before = fake.log().len();
    let e = client(&fake.url).health().await.unwrap_err();
    assert!(matches!(e, DenshokanError::NotFound(_)), "{e:?}");
    assert_eq!(fake.log().len(), before + 1);
    assert!(fake.log().iter().all(|l| l.path == "/health"));
    fake.stop().await;
    let gone = client(&fake.url).health().await.unwrap_err();
    assert!(matches!(gone, DenshokanError::Connect(_)), "{gone:?}");
}
