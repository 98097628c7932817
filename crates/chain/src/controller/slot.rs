//! The Controller session the server signs with, reloadable: the player can approve a new session
//! while the server runs, and the next write picks it up instead of failing on the old one. Before
//! anything is signed the session must be stored, live, registered, not revoked, on a supported
//! class; its chain state is read once per session, again after a refusal.

use std::sync::{Arc, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use starknet::core::types::Felt;
use starknet::providers::Provider;

use super::policies::deployment_mismatch;
use super::state::{SessionProblem, read_session_state};
use crate::{ChainError, Deployment};
use wallet::SessionSigner;

/// Reads the stored session (`Ok(None)`: none is stored); errors are already worded for a person.
pub type SessionLoader = Box<dyn Fn() -> Result<Option<SessionSigner>, String> + Send + Sync>;

/// The session in use and how to read it again.
pub struct SessionSlot {
    current: RwLock<Option<Arc<SessionSigner>>>,
    load: SessionLoader,
    renew: String,
    /// The session last checked on chain (by hash) and what stopped it, if anything.
    known: tokio::sync::Mutex<Option<(Felt, Option<SessionProblem>)>>,
    /// The deployment the server plays: a session whose policies do not cover its game contract
    /// is reported as approved for other contracts, not read on chain.
    deployment: Option<Deployment>,
}

impl std::fmt::Debug for SessionSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionSlot")
            .field("current", &self.current())
            .finish_non_exhaustive()
    }
}

impl SessionSlot {
    /// A slot filled by `load` now (a failed read leaves it empty, logged); `renew` is the
    /// command that approves a new session.
    pub fn new(load: SessionLoader, renew: impl Into<String>) -> Self {
        let slot = Self {
            current: RwLock::new(None),
            load,
            renew: renew.into(),
            known: tokio::sync::Mutex::new(None),
            deployment: None,
        };
        if let Err(e) = slot.reload() {
            tracing::warn!("no usable Controller session: {e}");
        }
        slot
    }

    /// This slot for a server playing `deployment`; a stored session approved for other
    /// contracts is said so now (in the log) and on every write and `ls_wallet`.
    pub fn for_deployment(mut self, deployment: Deployment) -> Self {
        if let Some(problem) = self.mismatch_with(&deployment) {
            tracing::warn!("{problem}: run `{}`", self.renew);
        }
        self.deployment = Some(deployment);
        self
    }

    /// How the session in use differs from `deployment`, if it does.
    fn mismatch_with(&self, deployment: &Deployment) -> Option<SessionProblem> {
        deployment_mismatch(deployment, self.current()?.policies())
    }

    /// The session in use, if any.
    pub fn current(&self) -> Option<Arc<SessionSigner>> {
        self.current.read().ok().and_then(|c| c.clone())
    }

    /// Reads the stored session again; `true` when it differs from the one in use.
    pub fn reload(&self) -> Result<bool, String> {
        let loaded = (self.load)()?.map(Arc::new);
        let mut current = self
            .current
            .write()
            .map_err(|_| "the session slot is poisoned".to_string())?;
        let changed = match (&*current, &loaded) {
            (Some(a), Some(b)) => a.session_hash() != b.session_hash(),
            (None, None) => false,
            _ => true,
        };
        *current = loaded;
        Ok(changed)
    }

    /// The command that approves a new session.
    pub fn renew(&self) -> &str {
        &self.renew
    }

    /// The session in use, or the typed error: none stored, or one approved for another
    /// deployment's contracts (the stored session is read again first, in case the player
    /// approved one for this deployment meanwhile).
    pub fn require(&self) -> Result<Arc<SessionSigner>, ChainError> {
        let session = self
            .current()
            .ok_or_else(|| self.error(SessionProblem::Missing))?;
        let Some(deployment) = &self.deployment else {
            return Ok(session);
        };
        if deployment_mismatch(deployment, session.policies()).is_none() {
            return Ok(session);
        }
        if let Err(e) = self.reload() {
            tracing::warn!("the stored Controller session cannot be read: {e}");
        }
        let session = self
            .current()
            .ok_or_else(|| self.error(SessionProblem::Missing))?;
        match deployment_mismatch(deployment, session.policies()) {
            None => Ok(session),
            Some(problem) => Err(self.error(problem)),
        }
    }

    /// `problem` as the chain error the tools report.
    pub fn error(&self, problem: SessionProblem) -> ChainError {
        ChainError::Session {
            problem,
            renew: self.renew.clone(),
            sent: false,
        }
    }

    /// Refuses to sign when the session cannot; when the one in use cannot, the stored session
    /// is read again first, so a session approved meanwhile is used.
    pub async fn ready<P: Provider + Sync>(&self, provider: &P) -> Result<(), ChainError> {
        let Some(problem) = self.problem(provider).await? else {
            return Ok(());
        };
        match self.reload() {
            Ok(true) => match self.problem(provider).await? {
                None => {
                    tracing::info!("a newly approved Controller session is in use");
                    Ok(())
                }
                Some(p) => Err(self.error(p)),
            },
            Ok(false) => Err(self.error(problem)),
            Err(e) => {
                tracing::warn!("the stored Controller session cannot be read: {e}");
                Err(self.error(problem))
            }
        }
    }

    /// What stops the session in use from signing now (its chain state read once per session,
    /// again while it is not registered).
    async fn problem<P: Provider + Sync>(
        &self,
        provider: &P,
    ) -> Result<Option<SessionProblem>, ChainError> {
        let Some(session) = self.current() else {
            return Ok(Some(SessionProblem::Missing));
        };
        if let Some(problem) = self
            .deployment
            .as_ref()
            .and_then(|d| deployment_mismatch(d, session.policies()))
        {
            return Ok(Some(problem));
        }
        let now = now_s();
        let mut known = self.known.lock().await;
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
        let problem = read_session_state(provider, &session).await?.problem(now);
        *known = Some((session.session_hash(), problem.clone()));
        Ok(problem)
    }

    /// A signed write that failed at the paymaster or the node: the session's state is read
    /// from the chain again, whatever the answer said (a paymaster's wording of a revocation is
    /// not a contract), and a session that can no longer sign is reported instead, typed. A
    /// decoded game refusal is the game's answer and is returned as it is.
    pub async fn refused<P: Provider + Sync>(&self, provider: &P, err: ChainError) -> ChainError {
        let game_refusal = matches!(&err, ChainError::Revert { revert, tx_hash: None }
            if revert.is_known() && revert.node_refusal().is_none());
        let settled = matches!(
            err,
            ChainError::Policy(_)
                | ChainError::Session { .. }
                | ChainError::Timeout { .. }
                | ChainError::Cancelled { .. }
                | ChainError::Revert {
                    tx_hash: Some(_),
                    ..
                }
        );
        if game_refusal || settled {
            return err;
        }
        *self.known.lock().await = None;
        match self.problem(provider).await {
            Ok(Some(problem)) => ChainError::Session {
                problem,
                renew: self.renew.clone(),
                sent: true,
            },
            _ => err,
        }
    }

    /// The session as the wallet report shows it.
    pub async fn report<P: Provider + Sync>(
        &self,
        provider: &P,
    ) -> Result<SessionReport, ChainError> {
        let problem = self.problem(provider).await?;
        let session = self.current();
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
        Ok(SessionReport {
            expires_at,
            hours_left: expires_at.map(|e| e.saturating_sub(now_s()) / 3600),
            allowed,
            problem: problem.as_ref().map(|p| p.code().to_string()),
            renew: problem.map(|_| self.renew().to_string()),
        })
    }
}

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
    /// Why it cannot sign (`expired`, `revoked`, `not_registered`, `unsupported_class`, `missing`,
    /// `other_deployment`).
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
