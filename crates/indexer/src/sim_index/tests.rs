//! Tests of the sim chain's own index: ranking and its ties, filters that keep the overall ranks,
//! and paging by rank, by id and by (action, skip) with no row lost or repeated.

use game::AdventurerId;
use std::time::Duration;

use chain::{Confirm, Hooks, WriteOptions};
use game::engine::{Action, EngineSettings};
use game::model::Stats;
use sim::{SimChain, sim_account};

use super::*;

fn opts() -> WriteOptions {
    WriteOptions {
        confirm: Confirm::Accepted,
        timeout: Duration::from_secs(1),
        hooks: Hooks::default(),
    }
}

fn query(after_rank: u64, limit: u32) -> LeaderboardQuery {
    LeaderboardQuery {
        scope: crate::torii::Scope::All,
        after_rank,
        limit,
        live_only: false,
        owner: None,
    }
}

/// A world of `n` games minted from id 1, none started.
fn world(n: u64) -> SimChain {
    let sim = SimChain::new(EngineSettings::default(), 1);
    for _ in 0..n {
        sim.mint_game(&opts()).unwrap();
    }
    sim
}

/// Plays `id` with the same simple choices (upgrades to strength, attack, explore) for up to
/// `actions` actions or until it dies.
fn play(sim: &SimChain, id: u64, actions: usize) {
    sim.apply(id, &Action::StartGame { weapon: 46 }, &opts())
        .unwrap();
    for _ in 0..actions {
        let a = sim.game_state(id).unwrap().adventurer;
        if a.health == 0 {
            return;
        }
        let action = if a.stat_upgrades_available > 0 {
            Action::Upgrade {
                stats: Stats {
                    strength: a.stat_upgrades_available,
                    ..Default::default()
                },
            }
        } else if a.beast_health > 0 {
            Action::Attack {
                to_the_death: false,
            }
        } else {
            Action::Explore { till_beast: false }
        };
        sim.apply(id, &action, &opts()).unwrap();
    }
}

fn ids<T>(items: &[T], id: impl Fn(&T) -> AdventurerId) -> Vec<AdventurerId> {
    items.iter().map(id).collect()
}

#[tokio::test]
async fn leaderboard_ranks_by_xp_then_id_and_pages_by_rank() {
    let sim = world(5);
    play(&sim, 4, 6);
    assert!(
        sim.game_state(4).unwrap().adventurer.xp > 0,
        "game 4 scored"
    );
    let mut seen = Vec::new();
    let mut after = 0;
    for expected_more in [true, true, false] {
        let f = GameIndex::leaderboard(&sim, &query(after, 2))
            .await
            .unwrap();
        let page = f.page;
        assert_eq!(page.total, Some(5));
        assert_eq!(page.has_more, expected_more);
        assert!(f.cache_age.is_none() && f.stale_because.is_none());
        for r in &page.rows {
            assert_eq!(r.rank, seen.len() as u64 + 1);
            assert_eq!(r.owner.as_deref(), Some(&*address_string(sim_account())));
            seen.push(r.adventurer_id);
        }
        after = page.rows.last().unwrap().rank;
    }
    // The scorer first, then the ties at xp 0 by id.
    assert_eq!(seen, [4, 1, 2, 3, 5]);
}

#[tokio::test]
async fn leaderboard_filters_keep_the_overall_ranks() {
    let sim = world(3);
    play(&sim, 2, 2000);
    let dead = sim.game_state(2).unwrap().adventurer;
    assert_eq!(dead.health, 0, "game 2 died");
    let all = GameIndex::leaderboard(&sim, &query(0, 10)).await.unwrap();
    let rows = all.page.rows;
    let dead_row = rows.iter().find(|r| r.adventurer_id == 2).unwrap();
    assert!(dead_row.game_over && dead_row.score == u64::from(dead.xp));
    let live = LeaderboardQuery {
        live_only: true,
        ..query(0, 10)
    };
    let page = GameIndex::leaderboard(&sim, &live).await.unwrap().page;
    assert_eq!(page.total, Some(2));
    assert_eq!(ids(&page.rows, |r| r.adventurer_id), [1, 3]);
    let kept: Vec<u64> = rows
        .iter()
        .filter(|r| r.adventurer_id != 2)
        .map(|r| r.rank)
        .collect();
    assert_eq!(page.rows.iter().map(|r| r.rank).collect::<Vec<_>>(), kept);
    let stranger = LeaderboardQuery {
        owner: Some(Felt::from(0x999u32)),
        ..query(0, 10)
    };
    let page = GameIndex::leaderboard(&sim, &stranger).await.unwrap().page;
    assert!(page.rows.is_empty() && !page.has_more);
    assert_eq!(page.total, Some(0));
}

#[tokio::test]
async fn owner_games_come_newest_first_below_the_cursor() {
    let sim = world(5);
    play(&sim, 3, 3);
    let owner = sim_account();
    let stored = |id: u64| {
        let games = sim.games().unwrap();
        games
            .into_iter()
            .find(|g| g.adventurer_id == id)
            .unwrap()
            .adventurer
    };
    assert!(stored(3).action_count > 0, "game 3 was played");
    let mut seen = Vec::new();
    let mut before = None;
    for expected_more in [true, true, false] {
        let p = sim.owner_games(owner, before, 2).await.unwrap();
        assert_eq!(p.total, Some(5));
        assert_eq!(p.has_more, expected_more);
        for g in &p.games {
            let stored = stored(g.adventurer_id.to_u64().unwrap());
            assert_eq!(g.adventurer, Some(stored));
            assert_eq!(g.score, u64::from(stored.xp));
            assert!(!g.game_over && g.player_name.is_none());
        }
        seen.extend(ids(&p.games, |g| g.adventurer_id));
        before = p.games.last().map(|g| g.adventurer_id);
    }
    assert_eq!(seen, [5, 4, 3, 2, 1]);
    let none = sim
        .owner_games(Felt::from(0x999u32), None, 2)
        .await
        .unwrap();
    assert!(none.games.is_empty() && !none.has_more);
    assert_eq!(none.total, Some(0));
}

#[tokio::test]
async fn events_page_by_action_and_skip_with_none_lost_or_repeated() {
    let sim = world(1);
    play(&sim, 1, 30);
    let (all, pruned) = SimChain::game_events(&sim, 1).unwrap().unwrap();
    assert!(!pruned);
    let counts: Vec<u16> = all.iter().map(|e| e.action_count).collect();
    assert!(
        counts.windows(2).any(|w| w[0] == w[1]),
        "some action has several events, so pages split it"
    );
    for limit in [1, 2, 3, 200] {
        let mut seen = Vec::new();
        let mut from = EventsFrom::default();
        loop {
            let p = GameIndex::game_events(&sim, 1.into(), from, limit)
                .await
                .unwrap();
            assert_eq!(p.total, Some(all.len() as u64));
            assert_eq!(p.last_action_count, counts.last().map(|&c| u64::from(c)));
            assert!(p.events.len() <= limit as usize);
            seen.extend(p.events);
            match p.next {
                Some(next) => from = next,
                None => break,
            }
        }
        assert_eq!(seen, all, "limit {limit}");
    }
    let e = GameIndex::game_events(&sim, 9.into(), EventsFrom::default(), 5)
        .await
        .unwrap_err();
    assert!(
        matches!(e, IndexError::NoSuchAdventurer(id) if id == 9),
        "{e}"
    );
}
