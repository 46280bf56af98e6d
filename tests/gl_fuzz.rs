//! A fuzzer for the GL C ABI: proptest generates streams of 20–200 operations (a tag byte and
//! twelve words each) that `gl_fuzz_ops` decodes into GL calls on a fresh 3.3 core context with a
//! 32×32 pbuffer, checking GL error codes after every call, and the validation layer and a
//! known-good draw after every stream (see `gl_fuzz_ops/mod.rs` for what is generated and how
//! client memory is sized). Run it with `ARENAGL_VALIDATION=1`, as CI does.
//!
//! Variables: `ARENAGL_FUZZ_CASES` (streams; the default takes well under a minute at the test
//! profile's opt-level 1), `ARENAGL_FUZZ_SHRINK_SECS` (time spent minimising a failure, default
//! 120), `ARENAGL_FUZZ_TRACE=1` (each call on stderr before it runs: the last line before a crash
//! is the culprit), `ARENAGL_FUZZ_ALL=1` (also generate the known findings), `PROPTEST_RNG_SEED`.
//! A failure prints the failing stream as GL calls with the error each reported.

mod gl_fuzz_ops;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

fn cases() -> u32 {
    std::env::var("ARENAGL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

#[test]
fn random_gl_call_streams_keep_the_context_working() {
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        max_shrink_time: std::env::var("ARENAGL_FUZZ_SHRINK_SECS")
            .ok()
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(120)
            * 1000,
        max_shrink_iters: 4096,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let strategy = prop::collection::vec((any::<u8>(), any::<[u32; 12]>()), 20..=200);
    let result = runner.run(&strategy, |ops| {
        gl_fuzz_ops::run_stream(&ops).map_err(TestCaseError::fail)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
