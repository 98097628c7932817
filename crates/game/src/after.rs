//! The state after a transaction, from its game events and the state before it, so a write
//! needs no read-back.
//!
//! Every action ends with an `adventurer` event (the boosted adventurer, as `get_game_state`
//! returns it); `bag` follows any change of the bag, `beast` any new beast and `market_items` any
//! new market (docs/game-rules.md#events). What an action leaves alone comes from the state before
//! it. Two parts can differ from a fresh `get_game_state` without changing what an agent sees: out
//! of battle the game regenerates the last beast at the current xp (the view shows a beast only in
//! battle), and the market keeps each item once (views list each item once).

use super::engine::Action;
use super::events::{GameEvent, GameEventDetails};
use super::model::GameState;

/// The state after `events`, the events of a transaction carrying `action`, or `None` when they
/// do not determine it: no `adventurer` event, or no state before the action to fill in what the
/// events leave out. `before` must be the state just before the transaction (its action count
/// one less per action the transaction carries); a fresh `start_game` needs none: it empties the
/// bag, meets a beast and opens no market.
pub fn state_after_events(
    before: Option<&GameState>,
    events: &[GameEvent],
    action: &Action,
) -> Option<GameState> {
    let starts_game = matches!(action, Action::StartGame { .. });
    let actions = u16::try_from(action.parts().len()).ok()?;
    let adventurer = events.iter().rev().find_map(|e| match &e.details {
        GameEventDetails::Adventurer(a) => Some(*a),
        _ => None,
    })?;
    let mut state = match before {
        _ if starts_game => GameState::default(),
        Some(b) if b.adventurer.action_count.wrapping_add(actions) == adventurer.action_count => {
            b.clone()
        }
        _ => return None,
    };
    state.adventurer = adventurer;
    for e in events {
        match &e.details {
            GameEventDetails::Bag(bag) => state.bag = *bag,
            GameEventDetails::Beast(beast) => state.beast = beast.to_beast_event(),
            GameEventDetails::MarketItems { items } => {
                state.market = items.iter().map(|i| i.id).collect();
            }
            _ => {}
        }
    }
    Some(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{BeastEncounter, ItemRef};
    use crate::model::{Adventurer, Bag, BeastEvent, Item};

    const ONE: Action = Action::Explore { till_beast: false };
    const START: Action = Action::StartGame { weapon: 12 };

    fn event(action_count: u16, details: GameEventDetails) -> GameEvent {
        GameEvent {
            adventurer_id: 7.into(),
            action_count,
            details,
        }
    }

    fn adventurer(action_count: u16) -> Adventurer {
        Adventurer {
            health: 50,
            action_count,
            ..Adventurer::default()
        }
    }

    #[test]
    fn without_an_adventurer_event_nothing_is_known() {
        let before = GameState::default();
        let events = [event(1, GameEventDetails::LevelUp { level: 2 })];
        assert_eq!(state_after_events(Some(&before), &events, &ONE), None);
    }

    #[test]
    fn a_state_that_is_not_the_one_just_before_is_not_used() {
        let mut before = GameState::default();
        before.adventurer.action_count = 3;
        let events = [event(5, GameEventDetails::Adventurer(adventurer(5)))];
        assert_eq!(state_after_events(Some(&before), &events, &ONE), None);
        assert_eq!(state_after_events(None, &events, &ONE), None);
        before.adventurer.action_count = 4;
        let after = state_after_events(Some(&before), &events, &ONE).unwrap();
        assert_eq!(after.adventurer, adventurer(5));
    }

    #[test]
    fn events_replace_what_they_carry_and_keep_the_rest() {
        let mut before = GameState::default();
        before.adventurer.action_count = 9;
        before.bag.items[0] = Item { id: 3, xp: 1 };
        before.market = vec![1, 2, 2];
        before.beast.id = 4;
        let beast = BeastEvent {
            id: 20,
            seed: 99,
            health: 30,
            level: 4,
            ..BeastEvent::default()
        };
        let kept = state_after_events(
            Some(&before),
            &[event(10, GameEventDetails::Adventurer(adventurer(10)))],
            &ONE,
        )
        .unwrap();
        assert_eq!(
            (kept.bag, &kept.market, kept.beast),
            (before.bag, &before.market, before.beast)
        );
        let mut bag = Bag::default();
        bag.items[1] = Item { id: 8, xp: 0 };
        let events = [
            event(10, GameEventDetails::Beast(BeastEncounter::from(beast))),
            event(10, GameEventDetails::Bag(bag)),
            event(
                10,
                GameEventDetails::MarketItems {
                    items: vec![ItemRef::new(5), ItemRef::new(6)],
                },
            ),
            event(10, GameEventDetails::Adventurer(adventurer(10))),
        ];
        let after = state_after_events(Some(&before), &events, &ONE).unwrap();
        assert_eq!(after.bag, bag);
        assert_eq!(after.beast, beast);
        assert_eq!(after.market, vec![5, 6]);
    }

    #[test]
    fn a_new_game_needs_no_state_before() {
        let events = [event(1, GameEventDetails::Adventurer(adventurer(1)))];
        let after = state_after_events(None, &events, &START).unwrap();
        assert_eq!(after.bag, Bag::default());
        assert!(after.market.is_empty());
    }
}
