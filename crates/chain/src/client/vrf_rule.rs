//! The VRF rule check from a connected reader: [`crate::vrf_rule::detect`] on its node, its
//! deployment and its chain id (docs/vrf.md#finding-a-deployments-vrf-rule).

use super::reader::ChainReader;
use crate::ChainError;
use crate::deployment::{Deployment, Generation};
use crate::vrf_rule::{DetectOptions, VrfRuleReport, detect};

impl ChainReader {
    /// This v2 deployment's VRF rule, read off GameCore's newest actions; a v1 deployment has
    /// none to read.
    pub async fn vrf_rule(&self, opts: &DetectOptions) -> Result<VrfRuleReport, ChainError> {
        match self.deployment() {
            Deployment::V2(c) => detect(&*self.provider, c, self.chain_id(), opts).await,
            Deployment::V1(_) => Err(ChainError::Unsupported {
                action: "vrf_rule",
                generation: Generation::V1,
            }),
        }
    }
}
