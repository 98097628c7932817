//! The Controller session the server signs with, reloadable: the player can approve a new session
//! while the server runs, and the next write picks it up instead of failing on the old one.

use std::sync::{Arc, RwLock};

use super::ChainError;
use super::session_state::SessionProblem;
use wallet::SessionSigner;

/// Reads the stored session (`Ok(None)`: none is stored); errors are already worded for a person.
pub type SessionLoader = Box<dyn Fn() -> Result<Option<SessionSigner>, String> + Send + Sync>;

/// The session in use and how to read it again.
pub struct SessionSlot {
    current: RwLock<Option<Arc<SessionSigner>>>,
    load: SessionLoader,
    renew: String,
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
        };
        if let Err(e) = slot.reload() {
            tracing::warn!("no usable Controller session: {e}");
        }
        slot
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

    /// The session in use, or the typed "no session" error.
    pub fn require(&self) -> Result<Arc<SessionSigner>, ChainError> {
        self.current()
            .ok_or_else(|| self.error(SessionProblem::Missing))
    }

    /// `problem` as the chain error the tools report.
    pub fn error(&self, problem: SessionProblem) -> ChainError {
        ChainError::Session {
            problem,
            renew: self.renew.clone(),
        }
    }
}
