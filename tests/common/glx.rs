//! A library reached as a program reaches libGL: loaded by path, its GL and GLX functions found
//! through its own `glXGetProcAddressARB` (`libarenagl.so` itself, or glvnd's `libGL.so.1`).
//! Shared by the GLX tests (`#[macro_use] #[path = "common/glx.rs"] mod glx_lib;`).

use std::ffi::{c_char, c_void, CStr};
use std::path::Path;

/// A loaded library with a `glXGetProcAddressARB`.
pub struct GlxLib {
    lib: libloading::Library,
}

impl GlxLib {
    /// Loads the library at `path` (libarenagl.so and glvnd's libGL have no initialisers that
    /// are unsafe to run).
    pub fn load(path: &Path) -> Self {
        // SAFETY: see above.
        let lib = unsafe { libloading::Library::new(path) }
            .unwrap_or_else(|e| panic!("load {}: {e}", path.display()));
        Self { lib }
    }

    /// A GL or GLX function by `glXGetProcAddressARB`.
    pub fn proc(&self, name: &CStr) -> *mut c_void {
        // SAFETY: the exported symbol has this signature; `name` is NUL-terminated.
        let p = unsafe {
            let get: unsafe extern "C" fn(*const c_char) -> *mut c_void =
                *self.lib.get(b"glXGetProcAddressARB\0").expect("exported");
            get(name.as_ptr())
        };
        assert!(!p.is_null(), "glXGetProcAddressARB({name:?})");
        p
    }
}

/// `f!(lib, c"name": fn(args) -> ret)`: the function through `glXGetProcAddressARB`.
macro_rules! f {
    ($lib:expr, $name:literal : fn($($t:ty),*) $(-> $r:ty)?) => {{
        let p = $lib.proc($name);
        // SAFETY: the type spelled here is the function's C signature (GLX/GL registries).
        #[allow(unused_unsafe)]
        let f: unsafe extern "C" fn($($t),*) $(-> $r)? = unsafe { std::mem::transmute(p) };
        f
    }};
}
