//! The system's glvnd `libEGL.so.1` with ArenaGL as its EGL vendor: where glvnd lives, and the
//! vendor JSON `scripts/install.sh` writes. Shared by the tests that load ArenaGL through glvnd
//! (`#[path = "common/glvnd.rs"] mod glvnd;`, beside `common/library.rs`).

use std::path::{Path, PathBuf};

/// Where Debian/Ubuntu (multiarch), Fedora and Arch install glvnd's libEGL.
pub const SYSTEM_LIBEGL: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/libEGL.so.1",
    "/usr/lib/aarch64-linux-gnu/libEGL.so.1",
    "/usr/lib64/libEGL.so.1",
    "/usr/lib/libEGL.so.1",
];

/// The system libEGL.so.1, if the machine has one.
pub fn system_libegl() -> Option<&'static Path> {
    SYSTEM_LIBEGL.iter().map(Path::new).find(|p| p.exists())
}

/// Writes the vendor JSON naming `lib` into a directory of this process (`tag` names it).
pub fn vendor_json(tag: &str, lib: &Path) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arenagl-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let json = dir.join("50_arenagl.json");
    let text = format!(
        "{{\"file_format_version\":\"1.0.0\",\"ICD\":{{\"library_path\":\"{}\"}}}}\n",
        lib.display()
    );
    std::fs::write(&json, text).expect("write vendor json");
    json
}
