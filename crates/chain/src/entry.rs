//! How a new game is entered: minted directly at the game token (`mint_game`), or bought at the
//! dungeon (Beast Mode's ticket booth) with one ticket, with a golden pass, or claimed free. The
//! calls are built by one pure function, [`entry_calls`]; `ChainClient::enter_game` sends them
//! as one multicall and reads the new adventurer id from the receipt, as for a mint.
//!
//! The dungeon's interface, from the public sources: `buy_game(payment_type, player_name:
//! Option<felt252>, to, soulbound)` with `PaymentType { Ticket, GoldenPass { address, token_id:
//! u128 } }` (Provable-Games/game-components, packages/metagame/src/ticket_booth/
//! ticket_booth_component.cairo @67b787ed, structs.cairo @d9e1342e); the official client approves
//! exactly `10^18` (one ticket) to the dungeon before `buy_game` in the same multicall and sends
//! `soulbound = false` (Provable-Games/death-mountain, client/src/dojo/useSystemCalls.ts @001dbd13);
//! `claim_free_game(to, player_name)` (Provable-Games/loot-survivor-beast-mode, src/lib.cairo
//! @5832693). The bindings come from the practice dungeon's ABI (`abi/practice_dungeon.json`),
//! which declares the same layouts; the tests check the calldata against the client's.

use starknet::core::types::{Call, Felt, U256};

use super::bindings::{GoldenPassInfo, PaymentType, dungeon, game_token_systems, ticket};

/// One ticket: the dungeon's `cost_to_play` on mainnet (10^18 of the 18-decimal ticket token,
/// loot-survivor-beast-mode scripts/deploy_mainnet.sh @5832693) and the amount the official
/// client approves. The wallet policy signs an approve of exactly this amount and no other.
pub const ONE_TICKET: u128 = 1_000_000_000_000_000_000;

/// How a new game obtains a new adventurer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Entry {
    /// `mint_game` on the game token (practice and direct games; not on the dungeon's leaderboard).
    #[default]
    Mint,
    /// Approve one ticket to the dungeon and `buy_game` with `PaymentType::Ticket`.
    Ticket,
    /// `buy_game` with `PaymentType::GoldenPass` for a pass this wallet owns.
    GoldenPass {
        /// The pass's token id on the golden pass contract.
        token_id: u128,
    },
    /// The dungeon's `claim_free_game`, where the dungeon offers free games to this wallet.
    Free,
}

impl Entry {
    /// The name the tool argument uses (`mint`, `ticket`, `golden_pass`, `free`).
    pub fn name(&self) -> &'static str {
        match self {
            Entry::Mint => "mint",
            Entry::Ticket => "ticket",
            Entry::GoldenPass { .. } => "golden_pass",
            Entry::Free => "free",
        }
    }
}

/// Where a game is entered: the game token and, on profiles that name them, the dungeon, its
/// ticket and its golden pass (`chain.contracts` keys `dungeon`, `ticket`, `golden_pass`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryAddresses {
    /// `*-game_token_systems` (direct mints).
    pub game_token_systems: Felt,
    /// Game settings id of a direct mint (`chain.settings_id`; the dungeon fixes its own).
    pub settings_id: u32,
    /// The dungeon (ticket booth).
    pub dungeon: Option<Felt>,
    /// The dungeon's ticket ERC20.
    pub ticket: Option<Felt>,
    /// The golden pass ERC721 the dungeon accepts.
    pub golden_pass: Option<Felt>,
}

/// Who the new game is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// The wallet's account: it pays and receives the game token.
    pub address: Felt,
    /// The adventurer's name (a short string), if any.
    pub name: Option<Felt>,
}

/// An entry this profile cannot serve: nothing was signed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// The entry needs a contract the profile does not name.
    #[error(
        "entry \"{entry}\" needs the dungeon's {contract} contract, which this profile does not \
         name (chain.contracts.{key}); use entry \"mint\" or a profile with a dungeon"
    )]
    Missing {
        /// The entry asked for.
        entry: &'static str,
        /// Which contract is missing, in words.
        contract: &'static str,
        /// Its `chain.contracts` key.
        key: &'static str,
    },
}

/// Checks that the profile names every contract `entry` needs.
pub fn check_entry(entry: Entry, addresses: &EntryAddresses) -> Result<(), EntryError> {
    let missing = |contract, key| {
        Err(EntryError::Missing {
            entry: entry.name(),
            contract,
            key,
        })
    };
    if entry == Entry::Mint {
        return Ok(());
    }
    if addresses.dungeon.is_none() {
        return missing("ticket booth", "dungeon");
    }
    match entry {
        Entry::Ticket if addresses.ticket.is_none() => missing("ticket ERC20", "ticket"),
        Entry::GoldenPass { .. } if addresses.golden_pass.is_none() => {
            missing("golden pass ERC721", "golden_pass")
        }
        _ => Ok(()),
    }
}

/// `mint_game` on the token systems with `settings_id`, to the player, with no other option set.
pub fn mint_call(token_systems: Felt, settings_id: u32, player: &Player) -> Call {
    game_token_systems::mint_game(
        token_systems,
        &player.name,
        &Some(settings_id),
        &None,
        &None,
        &None,
        &None,
        &None,
        &None,
        &player.address,
        &false,
    )
}

/// The calls of one entry, in multicall order. Ticket: `approve(dungeon, ONE_TICKET)` on the
/// ticket, then `buy_game(Ticket, name, player, false)`; golden pass: `buy_game(GoldenPass{pass,
/// id}, name, player, false)`; free: `claim_free_game(player, name)`; mint: `mint_game` with the
/// profile's settings id to the player.
pub fn entry_calls(
    entry: Entry,
    addresses: &EntryAddresses,
    player: &Player,
) -> Result<Vec<Call>, EntryError> {
    check_entry(entry, addresses)?;
    let dungeon = addresses.dungeon.unwrap_or_default();
    let buy = |payment: PaymentType| {
        dungeon::buy_game(dungeon, &payment, &player.name, &player.address, &false)
    };
    Ok(match entry {
        Entry::Mint => vec![mint_call(
            addresses.game_token_systems,
            addresses.settings_id,
            player,
        )],
        Entry::Ticket => vec![
            ticket::approve(
                addresses.ticket.unwrap_or_default(),
                &dungeon,
                &U256::from(ONE_TICKET),
            ),
            buy(PaymentType::Ticket),
        ],
        Entry::GoldenPass { token_id } => vec![buy(PaymentType::GoldenPass(GoldenPassInfo {
            address: addresses.golden_pass.unwrap_or_default(),
            token_id,
        }))],
        Entry::Free => vec![dungeon::claim_free_game(
            dungeon,
            &player.address,
            &player.name,
        )],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addresses() -> EntryAddresses {
        EntryAddresses {
            game_token_systems: Felt::from(0x70u8),
            settings_id: 0,
            dungeon: Some(Felt::from(0xd0u8)),
            ticket: Some(Felt::from(0x71u8)),
            golden_pass: Some(Felt::from(0x60u8)),
        }
    }

    const PLAYER: Player = Player {
        address: Felt::from_hex_unchecked("0xabc"),
        name: Some(Felt::from_hex_unchecked("0x426f62")),
    };

    fn felts(v: &[u64]) -> Vec<Felt> {
        v.iter().map(|&x| Felt::from(x)).collect()
    }

    #[test]
    fn ticket_is_one_approve_to_the_dungeon_then_buy_game_as_the_client_sends_it() {
        let calls = entry_calls(Entry::Ticket, &addresses(), &PLAYER).unwrap();
        assert_eq!(calls.len(), 2);
        let sel = |n| starknet::core::utils::get_selector_from_name(n).unwrap();
        assert_eq!(calls[0].to, Felt::from(0x71u8));
        assert_eq!(calls[0].selector, sel("approve"));
        // spender, amount.low, amount.high: `[DUNGEON_ADDRESS, 1e18, "0"]` in the client.
        assert_eq!(
            calls[0].calldata,
            vec![Felt::from(0xd0u8), Felt::from(ONE_TICKET), Felt::ZERO]
        );
        assert_eq!(calls[1].to, Felt::from(0xd0u8));
        assert_eq!(calls[1].selector, sel("buy_game"));
        // payment [0], Some(name) [0, name], to, soulbound false.
        assert_eq!(calls[1].calldata, felts(&[0, 0, 0x426f62, 0xabc, 0]));
    }

    #[test]
    fn golden_pass_and_free_calls_follow_the_official_layouts() {
        let calls = entry_calls(Entry::GoldenPass { token_id: 7 }, &addresses(), &PLAYER).unwrap();
        assert_eq!(calls.len(), 1);
        // payment [1, pass address, pass id], Some(name), to, soulbound false.
        assert_eq!(
            calls[0].calldata,
            felts(&[1, 0x60, 7, 0, 0x426f62, 0xabc, 0])
        );

        let anonymous = Player {
            name: None,
            ..PLAYER
        };
        let calls = entry_calls(Entry::Free, &addresses(), &anonymous).unwrap();
        assert_eq!(
            calls[0].selector,
            starknet::core::utils::get_selector_from_name("claim_free_game").unwrap()
        );
        // to, None.
        assert_eq!(calls[0].calldata, felts(&[0xabc, 1]));
    }

    #[test]
    fn mint_needs_no_dungeon_and_sends_the_settings_id() {
        let none = EntryAddresses {
            dungeon: None,
            ticket: None,
            golden_pass: None,
            settings_id: 3,
            ..addresses()
        };
        let calls = entry_calls(Entry::Mint, &none, &PLAYER).unwrap();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].to, Felt::from(0x70u8));
        assert_eq!(
            calls[0].calldata,
            felts(&[0, 0x426f62, 0, 3, 1, 1, 1, 1, 1, 1, 0xabc, 0])
        );
    }

    #[test]
    fn entries_without_their_contracts_are_refused_by_name() {
        let no_dungeon = EntryAddresses {
            dungeon: None,
            ..addresses()
        };
        for entry in [
            Entry::Ticket,
            Entry::GoldenPass { token_id: 1 },
            Entry::Free,
        ] {
            let e = entry_calls(entry, &no_dungeon, &PLAYER).unwrap_err();
            assert!(e.to_string().contains("chain.contracts.dungeon"), "{e}");
        }
        let no_ticket = EntryAddresses {
            ticket: None,
            ..addresses()
        };
        let e = entry_calls(Entry::Ticket, &no_ticket, &PLAYER).unwrap_err();
        assert!(e.to_string().contains("chain.contracts.ticket"), "{e}");
        assert!(entry_calls(Entry::Free, &no_ticket, &PLAYER).is_ok());
        let no_pass = EntryAddresses {
            golden_pass: None,
            ..addresses()
        };
        let e = entry_calls(Entry::GoldenPass { token_id: 2 }, &no_pass, &PLAYER).unwrap_err();
        assert!(e.to_string().contains("chain.contracts.golden_pass"), "{e}");
    }
}
