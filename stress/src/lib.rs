//! Stress suites for ArenaGL: proptest state machines and loom models live under `tests/`.
