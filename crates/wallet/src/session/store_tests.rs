//! Tests of the session store.

use super::*;
use crate::session::stark_signer_guid;

const SEPOLIA: Felt = Felt::from_hex_unchecked("0x534e5f5345504f4c4941");
const GAME: Felt = Felt::from_hex_unchecked("0x23f86f5");
const VRF: Felt = Felt::from_hex_unchecked("0x51fea");

fn store(dir: &Path) -> SessionStore {
    SessionStore::at(dir.join("profile")).with_cost(ScryptCost { log_n: 4 })
}

fn policies() -> SessionPolicies {
    SessionPolicies::new([(GAME, "explore"), (VRF, "request_random"), (GAME, "attack")]).unwrap()
}

fn approval() -> ApprovedSession {
    ApprovedSession {
        address: Felt::from(0xabcu32),
        owner_guid: Felt::from(0x5555u32),
        expires_at: 2_000_000_100,
        username: Some("ser".into()),
    }
}

#[test]
fn begin_approve_load_roundtrip() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    assert!(s.record().unwrap().is_none());
    let pending = s.begin(SEPOLIA, &policies(), 2_000_000_000, b"pw").unwrap();
    assert_eq!(
        pending.session_key_guid,
        stark_signer_guid(pending.public_key)
    );
    assert!(s.record().unwrap().is_none(), "not in use before approval");
    let rec = s.pending_record().unwrap().unwrap();
    assert_eq!(rec, pending.record);
    assert_eq!(rec.state, RecordState::Pending);
    assert_eq!(rec.chain_id, "0x534e5f5345504f4c4941");
    assert_eq!(rec.policies.len(), 3);
    assert_eq!(rec.policies[0].contract.len(), 66);
    // Leaf order: the padded address 0x…51fea before 0x…23f86f5, then methods by name.
    let names: Vec<&str> = rec.policies.iter().map(|p| p.entrypoint.as_str()).collect();
    assert_eq!(names, ["request_random", "attack", "explore"]);
    assert!(matches!(
        s.load_signer(SEPOLIA, b"pw"),
        Err(SessionStoreError::Pending)
    ));

    let rec = s.approve(&approval()).unwrap();
    assert_eq!(rec.state, RecordState::Approved);
    assert_eq!(rec.expires_at, 2_000_000_100);
    assert_eq!(s.record().unwrap(), Some(rec.clone()));
    assert!(s.pending_record().unwrap().is_none());
    assert!(!s.pending_key_path().exists());
    let signer = s.load_signer(SEPOLIA, b"pw").unwrap();
    assert_eq!(signer.public_key(), pending.public_key);
    assert_eq!(signer.address(), Felt::from(0xabcu32));
    assert_eq!(signer.owner_guid(), Felt::from(0x5555u32));
    assert_eq!(signer.session().expires_at, 2_000_000_100);
    assert_eq!(signer.policies(), &policies());
    // The public record alone gives the same session hash.
    assert_eq!(
        rec.approved_parts().unwrap(),
        Some((signer.address(), signer.owner_guid(), signer.session_hash()))
    );
}

#[test]
fn typed_errors_hold_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    assert!(matches!(
        s.load_signer(SEPOLIA, b"pw"),
        Err(SessionStoreError::Missing)
    ));
    s.begin(SEPOLIA, &policies(), 2_000_000_000, b"right-pw")
        .unwrap();
    s.approve(&approval()).unwrap();
    let e = s.load_signer(SEPOLIA, b"hunter2").unwrap_err();
    assert!(
        matches!(e, SessionStoreError::Decrypt(KeystoreError::WrongPassword)),
        "{e:?}"
    );
    assert!(!e.to_string().contains("hunter2"));
    let mainnet = Felt::from_hex_unchecked("0x534e5f4d41494e");
    assert!(matches!(
        s.load_signer(mainnet, b"right-pw"),
        Err(SessionStoreError::WrongChain { .. })
    ));

    let key = s.decrypt(b"right-pw").unwrap();
    let debug = format!("{:?}", s.load_signer(SEPOLIA, b"right-pw").unwrap());
    let record = std::fs::read_to_string(s.record_path()).unwrap();
    let key_file = std::fs::read_to_string(s.key_path()).unwrap();
    // The public key is in the record; the private key is in none of these.
    assert!(record.contains(&format!("{:#x}", key.public_key())));
    let secret = secret_hex(&s);
    for text in [&debug, &record, &key_file] {
        assert!(!text.contains(&secret), "the key leaked");
    }
}

/// The private key as hex, recovered the way an attacker with the password would.
fn secret_hex(s: &SessionStore) -> String {
    let plain = eth_keystore::decrypt_key(s.key_path(), "right-pw").unwrap();
    let hex: String = plain.iter().map(|b| format!("{b:02x}")).collect();
    hex.trim_start_matches('0').to_string()
}

#[cfg(unix)]
#[test]
fn key_file_is_private_and_remove_destroys_it() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    s.begin(SEPOLIA, &policies(), 2_000_000_000, b"pw").unwrap();
    s.approve(&approval()).unwrap();
    s.begin(SEPOLIA, &policies(), 2_000_000_000, b"pw").unwrap();
    for key in [s.key_path(), s.pending_key_path()] {
        let mode = std::fs::metadata(key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let leftovers: Vec<_> = std::fs::read_dir(s.record_path().parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert!(s.remove().unwrap());
    assert!(!s.key_path().exists() && !s.record_path().exists());
    assert!(!s.pending_key_path().exists() && !s.pending_record_path().exists());
    assert!(!s.remove().unwrap());
    assert!(matches!(
        s.load_signer(SEPOLIA, b"pw"),
        Err(SessionStoreError::Missing)
    ));
}

#[test]
fn a_new_session_replaces_the_old_one_only_once_approved() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    let a = s.begin(SEPOLIA, &policies(), 2_000_000_000, b"pw").unwrap();
    s.approve(&approval()).unwrap();
    let b = s.begin(SEPOLIA, &policies(), 2_000_000_000, b"pw").unwrap();
    assert_ne!(a.public_key, b.public_key);
    // Until the owner approves, the old session still signs.
    assert_eq!(
        s.load_signer(SEPOLIA, b"pw").unwrap().public_key(),
        a.public_key
    );
    let waiting = decrypt_file(&s.pending_key_path(), PENDING_KEY_FILE, b"pw").unwrap();
    assert_eq!(waiting.public_key(), b.public_key);
    assert_eq!(s.pending_record().unwrap(), Some(b.record));
    // A second try replaces the waiting one, never the one in use.
    let c = s.begin(SEPOLIA, &policies(), 2_000_000_000, b"pw").unwrap();
    assert_eq!(s.decrypt(b"pw").unwrap().public_key(), a.public_key);
    let approved = ApprovedSession {
        address: Felt::from(0xdefu32),
        ..approval()
    };
    s.approve(&approved).unwrap();
    let signer = s.load_signer(SEPOLIA, b"pw").unwrap();
    assert_eq!(signer.public_key(), c.public_key);
    assert_eq!(signer.address(), Felt::from(0xdefu32));
    assert!(s.pending_record().unwrap().is_none());
}

#[test]
fn an_approval_cut_short_between_its_renames_is_completed_on_load() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    s.begin(SEPOLIA, &policies(), 2_000_000_000, b"pw").unwrap();
    s.approve(&approval()).unwrap();
    let old_record = std::fs::read(s.record_path()).unwrap();
    let b = s.begin(SEPOLIA, &policies(), 2_000_000_000, b"pw").unwrap();
    s.approve(&approval()).unwrap();
    // As if the process died after the key's rename, before the record's.
    std::fs::rename(s.record_path(), s.pending_record_path()).unwrap();
    std::fs::write(s.record_path(), old_record).unwrap();
    let signer = s.load_signer(SEPOLIA, b"pw").unwrap();
    assert_eq!(signer.public_key(), b.public_key);
    assert!(s.pending_record().unwrap().is_none());
    assert_eq!(
        s.record().unwrap().unwrap().public_key,
        format!("{:#x}", b.public_key)
    );
}

#[test]
fn a_swapped_key_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    let other = store(&dir.path().join("other"));
    s.begin(SEPOLIA, &policies(), 2_000_000_000, b"pw").unwrap();
    s.approve(&approval()).unwrap();
    other
        .begin(SEPOLIA, &policies(), 2_000_000_000, b"pw")
        .unwrap();
    std::fs::copy(other.pending_key_path(), s.key_path()).unwrap();
    let e = s.load_signer(SEPOLIA, b"pw").unwrap_err();
    assert!(
        matches!(e, SessionStoreError::Corrupt { file: KEY_FILE, .. }),
        "{e:?}"
    );
}
