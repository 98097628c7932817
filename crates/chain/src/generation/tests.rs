//! A third generation, built here only, that plays through every seam of the chain client on
//! the scripted node: the compiler walks it through each decision, and nothing takes the Dojo path.

use std::sync::Arc;

use super::GameGeneration;

/// A generation under test, compared by identity.
#[derive(Debug, Clone)]
pub struct Another(pub Arc<dyn GameGeneration>);

impl PartialEq for Another {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Another {}
