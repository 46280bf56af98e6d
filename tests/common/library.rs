//! Where the library under test is: `$ARENAGL_LIB`, else the cdylib cargo built for this test
//! run. Shared by the tests that load `libarenagl.so` by path
//! (`#[path = "common/library.rs"] mod library;`; `common/gl.rs` re-exports it).

use std::path::PathBuf;

/// `$ARENAGL_LIB`, else the cdylib cargo built for this test run: `deps/` beside the test binary
/// first (only `cargo build` copies it up a level, where a stale copy may sit), then its parent.
pub fn library_path() -> PathBuf {
    if let Some(path) = std::env::var_os("ARENAGL_LIB") {
        return path.into();
    }
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("deps dir");
    let found = [Some(deps), deps.parent()]
        .into_iter()
        .flatten()
        .map(|d| d.join("libarenagl.so"))
        .find(|p| p.exists());
    found.unwrap_or_else(|| panic!("no libarenagl.so beside {}", exe.display()))
}
