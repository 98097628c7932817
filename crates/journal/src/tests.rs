//! The journal's behaviour: what survives a restart, locking, bounds, and records tied to their chain.

use super::*;
use std::time::Duration;
use wallet::SpendingLog;

fn record(hash: u32, status: TxStatus) -> TxRecord {
    TxRecord {
        tx_hash: Felt::from(hash),
        adventurer_id: Some(7.into()),
        action: "explore".into(),
        nonce: "0x3".into(),
        signed_at: 0,
        max_fee: "500".into(),
        last_status: status,
        from_another_chain: false,
    }
}

#[test]
fn a_reopened_journal_keeps_transactions_replays_and_the_day_but_not_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let account = Felt::from(0xacc_u32);
    let t = SystemTime::now();
    {
        let j = Journal::open(dir.path(), account).unwrap();
        j.record_tx(&record(0xa1, TxStatus::Signed), now_ms())
            .unwrap();
        j.set_status(Felt::from(0xa1u32), TxStatus::Sent);
        j.record(Felt::from(0xa1u32), 500, t);
        j.record(Felt::from(0xa1u32), 120, t);
        j.put_replay(7.into(), 4, "Explore", "{\"ok\":true}");
        j.begin_intent(7.into(), 5, "Attack");
        assert_eq!(j.usage(t).run_tx, 1);
    }
    let j = Journal::open(dir.path(), account).unwrap();
    let r = j.tx(Felt::from(0xa1u32)).unwrap();
    assert_eq!(
        (r.last_status, r.adventurer_id),
        (TxStatus::Sent, Some(7.into()))
    );
    assert_eq!(j.unsettled().len(), 1);
    assert_eq!(
        j.replay(7.into(), 4, "Explore").as_deref(),
        Some("{\"ok\":true}")
    );
    assert!(j.replay(7.into(), 5, "Explore").is_none());
    assert!(j.intent(7.into(), 5, "Attack").is_some());
    let u = j.usage(t + Duration::from_secs(1));
    assert_eq!((u.run_spent, u.run_tx), (0, 0), "a new run");
    assert_eq!((u.day_spent, u.day_tx, u.window.len()), (120, 1, 1));
    j.set_status(Felt::from(0xa1u32), TxStatus::AcceptedOnL2);
    assert!(j.unsettled().is_empty());
    let statuses: i64 = j
        .db()
        .query_row("SELECT COUNT(*) FROM statuses", [], |r| r.get(0))
        .unwrap();
    assert_eq!(statuses, 3, "SIGNED, SENT, ACCEPTED_ON_L2");
}

#[test]
fn a_fee_is_the_run_that_signed_it_when_that_run_stopped_before_writing_it() {
    let dir = tempfile::tempdir().unwrap();
    let account = Felt::from(0xacc_u32);
    let t = SystemTime::now();
    {
        // Signed and recorded, then the process stops before the send's spending is written.
        let j = Journal::open(dir.path(), account).unwrap();
        j.record_tx(&record(0xa1, TxStatus::Signed), now_ms())
            .unwrap();
    }
    let j = Journal::open(dir.path(), account).unwrap();
    // The next run follows it to its receipt and counts its fee.
    j.record(Felt::from(0xa1u32), 120, t);
    j.record(Felt::from(0xb2u32), 40, t);
    let u = j.usage(t + Duration::from_secs(1));
    assert_eq!((u.run_spent, u.run_tx), (40, 1), "only this run's own send");
    assert_eq!((u.day_spent, u.day_tx), (160, 2));
    drop(j);
    let again = Journal::open(dir.path(), account).unwrap();
    let u = again.usage(t + Duration::from_secs(1));
    assert_eq!((u.day_spent, u.day_tx, u.run_tx), (160, 2, 0), "as written");
}

#[test]
fn a_second_server_on_the_account_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let first = Journal::open(dir.path(), Felt::ONE).unwrap();
    let e = Journal::open(dir.path(), Felt::ONE).unwrap_err();
    assert!(matches!(e, JournalError::Locked(_)), "{e}");
    assert!(e.to_string().contains("already running"), "{e}");
    // Another account is independent; the lock goes with the first journal.
    Journal::open(dir.path(), Felt::TWO).unwrap();
    drop(first);
    Journal::open(dir.path(), Felt::ONE).unwrap();
}

#[test]
fn replay_results_and_intents_are_bounded() {
    let j = Journal::in_memory();
    let n = KEEP_ROWS as u16 + 50;
    for count in 0..n {
        j.put_replay(1.into(), count, "Explore", "{}");
        j.begin_intent(1.into(), count, "Explore");
    }
    let rows = |t: &str| -> i64 {
        j.behind.settle();
        j.db()
            .query_row(&format!("SELECT COUNT(*) FROM {t}"), [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!((rows("replays"), rows("intents")), (KEEP_ROWS, KEEP_ROWS));
    assert!(
        j.replay(1.into(), 0, "Explore").is_none(),
        "the oldest went first"
    );
    assert!(j.replay(1.into(), n - 1, "Explore").is_some());
}

#[test]
fn interrupted_writes_are_found_by_adventurer_action_and_time() {
    let j = Journal::in_memory();
    let start = now_ms();
    let mut failed = record(1, TxStatus::SendFailed);
    failed.action = "attack".into();
    j.record_tx(&failed, start + 1).unwrap();
    let mut sent = record(2, TxStatus::Sent);
    sent.action = "attack".into();
    j.record_tx(&sent, start + 2).unwrap();
    assert_eq!(
        j.tx_after(7.into(), "attack", start).unwrap().tx_hash,
        Felt::TWO
    );
    assert!(j.tx_after(7.into(), "attack", start + 3).is_none());
    assert!(j.tx_after(8.into(), "attack", start).is_none());
    assert_eq!(j.recent_max_bound(), Some(500));
}

#[test]
fn records_of_another_chain_are_kept_but_never_replayed_or_followed() {
    let dir = tempfile::tempdir().unwrap();
    let account = Felt::from(0xacc_u32);
    {
        let j = Journal::open(dir.path(), account).unwrap();
        j.bind_chain("0x534e5f5345504f4c4941/0xaaa");
        j.record_tx(&record(0xa1, TxStatus::Sent), now_ms())
            .unwrap();
        j.put_replay(1.into(), 1, "Attack", "{\"old\":true}");
        j.begin_intent(1.into(), 1, "Attack");
        assert!(j.replay(1.into(), 1, "Attack").is_some());
        assert!(!j.tx(Felt::from(0xa1u32)).unwrap().from_another_chain);
    }
    // The devnet was restarted: same chain id, another block 0.
    let j = Journal::open(dir.path(), account).unwrap();
    j.bind_chain("0x534e5f5345504f4c4941/0xbbb");
    assert!(
        j.replay(1.into(), 1, "Attack").is_none(),
        "no replay from the old chain"
    );
    assert!(j.intent(1.into(), 1, "Attack").is_none());
    assert!(j.tx_after(7.into(), "explore", 0).is_none());
    assert!(
        j.unsettled().is_empty(),
        "the old chain's transactions are not followed"
    );
    let old = j.tx(Felt::from(0xa1u32)).unwrap();
    assert!(old.from_another_chain, "kept for the audit, marked");
    let shown = serde_json::to_value(&old).unwrap();
    assert_eq!(shown["from_another_chain"], true);
    // A write on the new chain notes its own intent and result.
    j.begin_intent(1.into(), 1, "Attack");
    assert!(j.intent(1.into(), 1, "Attack").is_some());
    j.put_replay(1.into(), 1, "Attack", "{\"new\":true}");
    assert_eq!(
        j.replay(1.into(), 1, "Attack").as_deref(),
        Some("{\"new\":true}")
    );
    j.record_tx(&record(0xb2, TxStatus::Sent), now_ms())
        .unwrap();
    assert_eq!(j.unsettled().len(), 1);
    let new = serde_json::to_value(j.tx(Felt::from(0xb2u32)).unwrap()).unwrap();
    assert!(new.get("from_another_chain").is_none(), "{new}");
}

#[test]
fn a_journal_made_before_chains_were_recorded_gains_the_column() {
    let dir = tempfile::tempdir().unwrap();
    let account = Felt::from(0xacc_u32);
    let path = dir.path().join(format!("journal-{account:#066x}.sqlite3"));
    {
        let old = Connection::open(&path).unwrap();
        old.execute_batch(SCHEMA).unwrap();
        old.execute(
            "INSERT INTO replays(adventurer_id, action_count, action, result) VALUES (1, 1, 'Attack', '{}')",
            [],
        )
        .unwrap();
    }
    let j = Journal::open(dir.path(), account).unwrap();
    j.bind_chain("0x1/0x2");
    assert!(
        j.replay(1.into(), 1, "Attack").is_none(),
        "a row of no known chain is not replayed"
    );
    j.put_replay(1.into(), 2, "Attack", "{}");
    assert!(j.replay(1.into(), 2, "Attack").is_some());
}
