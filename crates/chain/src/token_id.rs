//! The id of a newly minted game token, read from the mint transaction's receipt events.

use game::AdventurerId;
use starknet::core::types::{Event, Felt};

/// Finds the new token id in a mint receipt: the Denshokan token-metadata event (14 data felts,
/// id at `data[1]`), else an ERC721 `Transfer` from the zero address emitted by the token contract.
pub fn token_id_from_events(events: &[Event], token: Option<Felt>) -> Option<AdventurerId> {
    if let Some(e) = events.iter().find(|e| e.data.len() == 14) {
        return Some(AdventurerId::from(e.data[1]));
    }
    let word = |f: &Felt| u128::try_from(*f).ok();
    let transfer = starknet::macros::selector!("Transfer");
    events
        .iter()
        .filter(|e| token.is_none_or(|t| e.from_address == t))
        .find(|e| e.keys.len() == 5 && e.keys[0] == transfer && e.keys[1] == Felt::ZERO)
        .and_then(|e| AdventurerId::from_u256_words(word(&e.keys[3])?, word(&e.keys[4])?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(from: u64, keys: Vec<Felt>, data: Vec<Felt>) -> Event {
        Event {
            from_address: Felt::from(from),
            keys,
            data,
        }
    }

    #[test]
    fn token_id_from_metadata_event() {
        let mut data = vec![Felt::ZERO; 14];
        data[1] = Felt::from(42u8);
        let events = vec![event(1, vec![Felt::ONE], data)];
        assert_eq!(token_id_from_events(&events, None), Some(42.into()));
    }

    #[test]
    fn token_id_from_transfer_event_of_the_token_contract() {
        let sel = starknet::macros::selector!("Transfer");
        let keys = vec![
            sel,
            Felt::ZERO,
            Felt::from(9u8),
            Felt::from(7u8),
            Felt::ZERO,
        ];
        let events = vec![
            event(5, keys.clone(), vec![]),
            event(
                6,
                vec![sel, Felt::ZERO, Felt::ONE, Felt::from(8u8), Felt::ZERO],
                vec![],
            ),
        ];
        assert_eq!(
            token_id_from_events(&events, Some(Felt::from(6u8))),
            Some(8.into())
        );
        assert_eq!(token_id_from_events(&events, None), Some(7.into()));
        assert_eq!(token_id_from_events(&[], None), None);
    }
}
