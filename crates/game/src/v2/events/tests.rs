//! Tests of `v2::events`.
