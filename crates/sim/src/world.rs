//! Which world a sim chain is: what a record kept beside it (the HTTP server's adventurer owners)
//! is bound to, so a world started afresh does not inherit the records of the one before.

use chain::ChainError;

use crate::SimChain;

impl SimChain {
    /// `sim/<n>`: the saved world's start (bumped by each fresh start, by any process on the
    /// data directory), or `sim/memory` for a world kept in memory, which nothing outlives.
    pub fn world_identity(&self) -> Result<String, ChainError> {
        if self.store.is_none() {
            return Ok("sim/memory".into());
        }
        self.refresh(false)?;
        Ok(format!("sim/{}", self.lock().cache.generation))
    }
}
