//! What the `glsl_sources` and `egl_attribs` targets share: ArenaGL linked in (the `arenagl`
//! crate, built with the fuzzer's coverage instrumentation, so that libFuzzer's `cov:` counts the
//! library's code and steers towards new paths in it), every function reached through its
//! `eglGetProcAddress` as an application would, the library's diagnostic counters
//! (validation-layer errors and panics caught at the C edge), and client memory that ends at an
//! inaccessible guard page, so that a read or write past what the API allows is a crash rather
//! than silent corruption.
#![allow(dead_code)]

use std::ffi::{c_void, CStr};
use std::ptr::{null, null_mut};
use std::sync::OnceLock;

use arenagl::abi::{diagnostics, egl};

pub type P = *mut c_void;

/// The function `name` as type `F`.
///
/// # Safety
/// `F` is the C signature of `name`.
pub unsafe fn f<F: Copy>(name: &CStr) -> F {
    // SAFETY: `name` is NUL-terminated.
    let p = unsafe { egl::eglGetProcAddress(name.as_ptr()) };
    assert!(!p.is_null(), "eglGetProcAddress({name:?}) is NULL");
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<P>());
    // SAFETY: same size; function and data pointers share a representation; the caller vouches
    // for the signature.
    unsafe { std::mem::transmute_copy(&p) }
}

/// `gl!(c"glName": fn(args…) -> ret)`: the function through `eglGetProcAddress`.
#[macro_export]
macro_rules! gl {
    ($name:literal : fn($($t:ty),*) $(-> $r:ty)?) => {{
        #[allow(unused_unsafe)]
        // SAFETY: the type spelled here is the function's C signature from the GL/EGL registry.
        let function = unsafe { $crate::harness::f::<unsafe extern "C" fn($($t),*) $(-> $r)?>($name) };
        function
    }};
}

/// A current 3.3 compatibility context on a 32×32 pbuffer, made once for the process (legacy
/// GLSL needs compatibility; core-only sources compile there too).
pub fn make_current() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
        let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
        let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
        let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
        let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
        let create_pbuffer = gl!(c"eglCreatePbufferSurface": fn(P, P, *const i32) -> P);
        let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
        // SAFETY: live handles from earlier calls, EGL_NONE-terminated lists, out-pointers to
        // locals.
        unsafe {
            let dpy = get_display(0x31DD, null_mut(), null());
            assert!(!dpy.is_null());
            assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
            // RGBA8 with depth 24 and stencil 8 (the default framebuffer follows its config).
            let attribs = [
                0x3033, 0x0001, 0x3040, 0x0008, 0x3024, 8, 0x3023, 8, 0x3022, 8, 0x3021, 8, 0x3025,
                24, 0x3026, 8, 0x3038,
            ];
            let mut cfg = null_mut();
            let mut n = 0;
            assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
            assert_eq!(bind_api(0x30A2), 1);
            // 3.3 compatibility profile.
            let ctx_attribs = [0x3098, 3, 0x30FB, 3, 0x30FD, 2, 0x3038];
            let ctx = create_context(dpy, cfg, null_mut(), ctx_attribs.as_ptr());
            assert!(!ctx.is_null(), "a 3.3 compatibility context");
            let pb = [0x3057, 32, 0x3056, 32, 0x3038];
            let surface = create_pbuffer(dpy, cfg, pb.as_ptr());
            assert!(!surface.is_null());
            assert_eq!(make_current(dpy, surface, surface, ctx), 1);
        }
    });
}

/// `glGetError`, which must be a GL error code and never `GL_OUT_OF_MEMORY` here (nothing in
/// this target asks for a large allocation; the C ABI reports a caught panic with it).
#[track_caller]
pub fn check_error(what: &str) -> u32 {
    // SAFETY: no arguments.
    let e = unsafe { gl!(c"glGetError": fn() -> u32)() };
    assert!(
        e == 0 || (0x0500..=0x0506).contains(&e),
        "{what}: glGetError returned 0x{e:04X}"
    );
    assert_ne!(e, 0x0505, "{what}: GL_OUT_OF_MEMORY");
    e
}

/// Validation-layer errors the library's device has reported.
pub fn validation_errors() -> u64 {
    diagnostics::arenagl_validation_error_count()
}

/// Panics the library's entry points caught (each one a bug).
pub fn caught_panics() -> u64 {
    diagnostics::arenagl_caught_panic_count()
}

/// The counters before an input; `check` fails the input if either moved.
pub struct Counters {
    validation: u64,
    panics: u64,
}

impl Counters {
    pub fn now() -> Self {
        Counters {
            validation: validation_errors(),
            panics: caught_panics(),
        }
    }

    pub fn check(&self, what: &str) {
        let panics = caught_panics() - self.panics;
        assert_eq!(
            panics, 0,
            "{what}: the library caught {panics} panic(s) (see stderr)"
        );
        let v = validation_errors() - self.validation;
        assert_eq!(v, 0, "{what}: {v} validation error(s) (see stderr)");
    }
}

extern "C" {
    fn mmap(addr: *mut c_void, len: usize, prot: i32, flags: i32, fd: i32, off: i64)
        -> *mut c_void;
    fn munmap(addr: *mut c_void, len: usize) -> i32;
    fn mprotect(addr: *mut c_void, len: usize, prot: i32) -> i32;
}

const PAGE: usize = 4096;
const PROT_READ_WRITE: i32 = 3;
const MAP_PRIVATE_ANONYMOUS: i32 = 0x22;

/// `len` bytes that end exactly where an inaccessible page begins.
pub struct Guarded {
    base: *mut u8,
    map_len: usize,
    ptr: *mut u8,
    len: usize,
}

impl Guarded {
    /// `len` zeroed bytes before a guard page.
    pub fn new(len: usize) -> Self {
        let body = len.div_ceil(PAGE).max(1) * PAGE;
        let map_len = body + PAGE;
        // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
        let base = unsafe {
            mmap(
                null_mut(),
                map_len,
                PROT_READ_WRITE,
                MAP_PRIVATE_ANONYMOUS,
                -1,
                0,
            )
        };
        assert!(base as isize != -1, "mmap {map_len}");
        let base = base.cast::<u8>();
        // SAFETY: `base + body` is the last page of the mapping just made.
        let rc = unsafe { mprotect(base.add(body).cast(), PAGE, 0) };
        assert_eq!(rc, 0, "mprotect");
        // SAFETY: `body - len` is within the mapping.
        let ptr = unsafe { base.add(body - len) };
        Guarded {
            base,
            map_len,
            ptr,
            len,
        }
    }

    /// A copy of `bytes` before a guard page.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let g = Self::new(bytes.len());
        // SAFETY: `len` accessible bytes at `ptr`; `bytes` is a distinct allocation.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), g.ptr, bytes.len()) };
        g
    }

    pub fn p<T>(&self) -> *mut T {
        self.ptr.cast()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `len` accessible bytes at `ptr`, owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once.
        unsafe { munmap(self.base.cast(), self.map_len) };
    }
}

/// A little-endian reader over the fuzzer's input that yields zeros once it runs out.
pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Input { data }
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// Up to `n` bytes.
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.data.split_at(n.min(self.data.len()));
        self.data = rest;
        head
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        self.take(self.data.len())
    }
}
