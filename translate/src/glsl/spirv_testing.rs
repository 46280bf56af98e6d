//! What the tests of the SPIR-V passes (`array_index`, `depth_remap`, …) share.

use super::rect::{opcode, split};

/// How many instructions of opcode `code` the module holds.
pub(crate) fn count(words: &[u32], code: u16) -> usize {
    split(words)
        .expect("splits")
        .iter()
        .filter(|i| opcode(i) == code)
        .count()
}

/// `spirv-val` accepts the module (skipped where the tool is missing).
pub(crate) fn assert_valid(words: &[u32]) {
    // One file per call: a module's tests run in parallel in one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(
        "arenagl-spirv-test-{}-{call}.spv",
        std::process::id()
    ));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("writes");
    let out = std::process::Command::new("spirv-val")
        .args(["--target-env", "vulkan1.2"])
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    if let Ok(out) = out {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
