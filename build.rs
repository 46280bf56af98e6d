//! Links `libarenagl.so` with `-Bsymbolic-functions`: every call and function address inside the
//! library binds to the library's own definitions. Without it, a process that already loaded
//! another `libEGL.so.1` (glvnd's, which loads ArenaGL as a vendor) or `libGL.so.1` would have our
//! internal references to `eglGetProcAddress`, `eglGetPlatformDisplay`, … resolve to *those*
//! libraries' exports, re-entering glvnd (a deadlock in its initialisation, found by the piglit
//! harness) or handing glvnd its own functions back as ours. Mesa links its GL libraries the
//! same way.

fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic-functions");
    println!("cargo:rerun-if-changed=build.rs");
}
