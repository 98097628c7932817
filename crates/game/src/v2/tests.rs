//! Tests of `v2`.
