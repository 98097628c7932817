//! The chain client's side of a Controller session: before anything is signed, the session must
//! be stored, live, registered, not revoked, on a supported class; a session approved while the
//! server runs is picked up; the wallet report shows it.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

use super::submitter::Submitter;
use crate::ChainError;
use crate::revert::NodeRefusal;
use crate::session_slot::SessionSlot;
use crate::session_state::{SessionProblem, read_session_state};

/// What the wallet report shows of the Controller session the server signs with.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SessionReport {
    /// When it expires (unix seconds); absent when no session is stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
    /// Hours left before it expires (0 once expired).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hours_left: Option<u64>,
    /// The entrypoints it may call, by name.
    pub allowed: Vec<String>,
    /// Why it cannot sign (`expired`, `revoked`, `not_registered`, `unsupported_class`, `missing`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The command the player runs to approve a new session, when one is needed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renew: Option<String>,
}

fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

impl Submitter {
    /// Refuses to sign when the session cannot; when the one in use cannot, the stored session
    /// is read again first, so a session approved meanwhile is used.
    pub(super) async fn session_ready(&self) -> Result<(), ChainError> {
        let Some(slot) = self.account.signer().session() else {
            return Ok(());
        };
        let Some(problem) = self.session_problem(slot).await? else {
            return Ok(());
        };
        match slot.reload() {
            Ok(true) => match self.session_problem(slot).await? {
                None => {
                    tracing::info!("a newly approved Controller session is in use");
                    Ok(())
                }
                Some(p) => Err(slot.error(p)),
            },
            Ok(false) => Err(slot.error(problem)),
            Err(e) => {
                tracing::warn!("the stored Controller session cannot be read: {e}");
                Err(slot.error(problem))
            }
        }
    }

    /// What stops the session in use from signing now (its chain state read once per session,
    /// again while it is not registered).
    async fn session_problem(
        &self,
        slot: &SessionSlot,
    ) -> Result<Option<SessionProblem>, ChainError> {
        let Some(session) = slot.current() else {
            return Ok(Some(SessionProblem::Missing));
        };
        let now = now_s();
        let mut known = self.session_known.lock().await;
        if let Some((hash, problem)) = &*known
            && *hash == session.session_hash()
            && problem != &Some(SessionProblem::NotRegistered)
        {
            if problem.is_none() && session.session().expires_at <= now {
                return Ok(Some(SessionProblem::Expired {
                    expires_at: session.session().expires_at,
                }));
            }
            return Ok(problem.clone());
        }
        let problem = read_session_state(&*self.reader.provider, &session)
            .await?
            .problem(now);
        *known = Some((session.session_hash(), problem.clone()));
        Ok(problem)
    }

    /// A failed write that the account refused for its session (decoded from a `session/…`
    /// reason where the answer was read): the session's state is read again and reported
    /// instead, typed.
    pub(super) async fn session_refused(&self, err: ChainError) -> ChainError {
        let Some(slot) = self.account.signer().session() else {
            return err;
        };
        if err.node_refusal() != Some(NodeRefusal::Session) {
            return err;
        }
        *self.session_known.lock().await = None;
        match self.session_problem(slot).await {
            Ok(Some(problem)) => slot.error(problem),
            _ => err,
        }
    }

    /// The session as the wallet report shows it, or `None` when the wallet signs with its own key.
    pub(super) async fn session_report(&self) -> Result<Option<SessionReport>, ChainError> {
        let Some(slot) = self.account.signer().session() else {
            return Ok(None);
        };
        let problem = self.session_problem(slot).await?;
        let session = slot.current();
        let expires_at = session.as_ref().map(|s| s.session().expires_at);
        let allowed = session
            .as_ref()
            .map(|s| {
                s.policies()
                    .policies()
                    .iter()
                    .map(|p| p.entrypoint.clone())
                    .collect()
            })
            .unwrap_or_default();
        Ok(Some(SessionReport {
            expires_at,
            hours_left: expires_at.map(|e| e.saturating_sub(now_s()) / 3600),
            allowed,
            problem: problem.as_ref().map(|p| p.code().to_string()),
            renew: problem.map(|_| slot.renew().to_string()),
        }))
    }
}
