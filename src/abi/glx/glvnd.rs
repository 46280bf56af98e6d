//! The libglvnd GLX vendor interface: `__glx_Main`, so glvnd's `libGLX.so.0` (behind the system's
//! `libGL.so.1`) can load `libarenagl.so` as a GLX vendor named `arenagl` — a file
//! `libGLX_arenagl.so.0` on the library path, chosen with `__GLX_VENDOR_LIBRARY_NAME=arenagl`.
//!
//! Design decisions:
//! - The `#[repr(C)]` mirrors follow `glvnd/libglxabi.h` of libglvnd 1.6.0 (vendor ABI 1.0) field by
//!   field; a unit test pins their sizes (exports 13 pointers, imports 9). `__glx_Main` writes only
//!   the four import fields it fills, one at a time.
//! - glvnd implements the GLX 1.4 functions itself and calls ours through `getProcAddress` (our
//!   `glXGetProcAddress`: every GLX function and every GL entry point), keeping the context,
//!   FBConfig and drawable → vendor maps for the core functions. The extension functions it does
//!   not know need vendor-neutral dispatch stubs (`getDispatchAddress`):
//!   `glXCreateContextAttribsARB` (which must add its context to glvnd's map), `glXSwapIntervalEXT`
//!   and the MESA/SGI swap-interval functions. Each finds the vendor through glvnd's exports and
//!   calls that vendor's entry at the index glvnd assigned (`setDispatchIndex`). libglvnd 1.3 and
//!   later implement `glXCreateContextAttribsARB` in libGLX themselves and reach unknown
//!   extension functions through their GL dispatch while a context is current, so there these
//!   stubs serve only calls made with no context current; older libglvnd needs them.
//! - `isScreenSupported` is true for the default screen, the one ArenaGL has configs for.
//! - Every function runs inside [`guard`]; none panics into C.

use std::ffi::{c_int, c_uint, c_void, CStr};
use std::ptr::{addr_of_mut, null_mut};
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};

use super::{report, Bool, Fail, GLXContext, GLXFBConfig, Xid, FALSE, TRUE};
use crate::abi::guard::guard;
use crate::abi::x11::{self, XDisplay};

/// The vendor ABI major version this file implements; glvnd's must match exactly.
pub const GLX_VENDOR_ABI_MAJOR_VERSION: u32 = 1;

/// `__GLXvendorInfo`: glvnd's per-vendor record, opaque to vendors.
#[repr(C)]
pub struct GlxVendorInfo {
    _opaque: [u8; 0],
}

type Vendor = *mut GlxVendorInfo;

/// `__GLXapiExports` (field order as in `libglxabi.h`).
#[repr(C)]
pub struct GlxApiExports {
    pub get_dyn_dispatch: Option<unsafe extern "C" fn(XDisplay, c_int) -> Vendor>,
    pub get_current_dyn_dispatch: Option<unsafe extern "C" fn() -> Vendor>,
    pub fetch_dispatch_entry: Option<unsafe extern "C" fn(Vendor, c_int) -> *mut c_void>,
    pub get_current_context: Option<unsafe extern "C" fn() -> GLXContext>,
    pub add_vendor_context_mapping:
        Option<unsafe extern "C" fn(XDisplay, GLXContext, Vendor) -> c_int>,
    pub remove_vendor_context_mapping: Option<unsafe extern "C" fn(XDisplay, GLXContext)>,
    pub vendor_from_context: Option<unsafe extern "C" fn(GLXContext) -> Vendor>,
    pub add_vendor_fbconfig_mapping:
        Option<unsafe extern "C" fn(XDisplay, GLXFBConfig, Vendor) -> c_int>,
    pub remove_vendor_fbconfig_mapping: Option<unsafe extern "C" fn(XDisplay, GLXFBConfig)>,
    pub vendor_from_fbconfig: Option<unsafe extern "C" fn(XDisplay, GLXFBConfig) -> Vendor>,
    pub add_vendor_drawable_mapping: Option<unsafe extern "C" fn(XDisplay, Xid, Vendor) -> c_int>,
    pub remove_vendor_drawable_mapping: Option<unsafe extern "C" fn(XDisplay, Xid)>,
    pub vendor_from_drawable: Option<unsafe extern "C" fn(XDisplay, Xid) -> Vendor>,
}

/// `__GLXapiImports` (field order as in `libglxabi.h`). The error-notification and entry
/// patching fields are optional and stay NULL.
#[repr(C)]
pub struct GlxApiImports {
    pub is_screen_supported: Option<unsafe extern "C" fn(XDisplay, c_int) -> Bool>,
    pub get_proc_address: Option<unsafe extern "C" fn(*const u8) -> *mut c_void>,
    pub get_dispatch_address: Option<unsafe extern "C" fn(*const u8) -> *mut c_void>,
    pub set_dispatch_index: Option<unsafe extern "C" fn(*const u8, c_int)>,
    pub notify_error: Option<unsafe extern "C" fn(XDisplay, u8, Xid, u8, Bool) -> Bool>,
    pub is_patch_supported: Option<unsafe extern "C" fn(c_int, c_int) -> u8>,
    pub initiate_patch: Option<unsafe extern "C" fn(c_int, c_int, *mut c_void) -> u8>,
    pub release_patch: Option<unsafe extern "C" fn()>,
    pub patch_thread_attach: Option<unsafe extern "C" fn()>,
}

/// glvnd's exports table (static in libGLX, alive for the process), set by `__glx_Main`.
static EXPORTS: AtomicPtr<GlxApiExports> = AtomicPtr::new(null_mut());

/// The extension functions we give glvnd dispatch stubs for, with the index glvnd assigned
/// each (-1 until `setDispatchIndex`).
struct Dispatched {
    name: &'static CStr,
    index: AtomicI32,
    stub: *mut c_void,
}

// SAFETY: `stub` is the address of a function, immutable and valid from any thread.
unsafe impl Sync for Dispatched {}

const CREATE_CONTEXT_ATTRIBS: usize = 0;
const SWAP_INTERVAL_EXT: usize = 1;
const SWAP_INTERVAL_MESA: usize = 2;
const GET_SWAP_INTERVAL_MESA: usize = 3;
const SWAP_INTERVAL_SGI: usize = 4;

impl Dispatched {
    const fn new(name: &'static CStr, stub: *mut c_void) -> Self {
        Self {
            name,
            index: AtomicI32::new(-1),
            stub,
        }
    }
}

static DISPATCHED: [Dispatched; 5] = [
    Dispatched::new(
        c"glXCreateContextAttribsARB",
        dispatch_create_context_attribs as *mut c_void,
    ),
    Dispatched::new(
        c"glXSwapIntervalEXT",
        dispatch_swap_interval_ext as *mut c_void,
    ),
    Dispatched::new(
        c"glXSwapIntervalMESA",
        dispatch_swap_interval_mesa as *mut c_void,
    ),
    Dispatched::new(
        c"glXGetSwapIntervalMESA",
        dispatch_get_swap_interval_mesa as *mut c_void,
    ),
    Dispatched::new(
        c"glXSwapIntervalSGI",
        dispatch_swap_interval_sgi as *mut c_void,
    ),
];

/// The vendor entry point glvnd's libGLX calls once after `dlopen`.
///
/// # Safety
/// `exports` is NULL or glvnd's exports table, valid for the life of the process, of the ABI
/// `version` describes; `imports` is NULL or glvnd's imports table of that ABI, writable.
#[no_mangle]
pub unsafe extern "C" fn __glx_Main(
    version: u32,
    exports: *const GlxApiExports,
    _vendor: *mut GlxVendorInfo,
    imports: *mut GlxApiImports,
) -> Bool {
    guard(FALSE, || {
        if version >> 16 != GLX_VENDOR_ABI_MAJOR_VERSION || exports.is_null() || imports.is_null() {
            return FALSE;
        }
        EXPORTS.store(exports.cast_mut(), Ordering::Release);
        // SAFETY: `imports` is non-NULL and writable (the caller's obligation); these four
        // fields exist in every vendor ABI 1.x, and each is written alone.
        unsafe {
            addr_of_mut!((*imports).is_screen_supported).write(Some(is_screen_supported));
            addr_of_mut!((*imports).get_proc_address).write(Some(get_proc_address));
            addr_of_mut!((*imports).get_dispatch_address).write(Some(get_dispatch_address));
            addr_of_mut!((*imports).set_dispatch_index).write(Some(set_dispatch_index));
        }
        TRUE
    })
}

/// `isScreenSupported`: the default screen (the one with configs).
unsafe extern "C" fn is_screen_supported(dpy: XDisplay, screen: c_int) -> Bool {
    guard(FALSE, || {
        let (Some(x), true) = (x11::xlib(), x11::plausible_display(dpy)) else {
            return FALSE;
        };
        // SAFETY: glvnd passes the program's live display.
        Bool::from(unsafe { x.default_screen_of(dpy) } == screen)
    })
}

/// `getProcAddress`: `glXGetProcAddress` (GLX and GL names).
unsafe extern "C" fn get_proc_address(name: *const u8) -> *mut c_void {
    // SAFETY: glvnd passes a NUL-terminated name.
    unsafe { super::glXGetProcAddress(name) }
}

fn dispatched(name: *const u8) -> Option<&'static Dispatched> {
    if name.is_null() {
        return None;
    }
    // SAFETY: glvnd passes a NUL-terminated name.
    let name = unsafe { CStr::from_ptr(name.cast()) };
    DISPATCHED.iter().find(|d| d.name == name)
}

/// `getDispatchAddress`: our vendor-neutral stub for the extension functions above.
unsafe extern "C" fn get_dispatch_address(name: *const u8) -> *mut c_void {
    guard(null_mut(), || {
        dispatched(name).map_or(null_mut(), |d| d.stub)
    })
}

/// `setDispatchIndex`: remembers the index glvnd gave a stubbed function.
unsafe extern "C" fn set_dispatch_index(name: *const u8, index: c_int) {
    guard((), || {
        if let Some(d) = dispatched(name) {
            d.index.store(index, Ordering::Release);
        }
    });
}

fn exports() -> Option<&'static GlxApiExports> {
    // SAFETY: set once from glvnd's table, which lives as long as the process.
    unsafe { EXPORTS.load(Ordering::Acquire).as_ref() }
}

/// The entry of function `which` in `vendor`'s dispatch table, as `F`.
///
/// # Safety
/// `F` is the C signature of the function `DISPATCHED[which]` names.
unsafe fn entry<F: Copy>(vendor: Vendor, which: usize) -> Option<F> {
    let index = DISPATCHED[which].index.load(Ordering::Acquire);
    let fetch = exports()?.fetch_dispatch_entry?;
    if vendor.is_null() || index < 0 {
        return None;
    }
    // SAFETY: glvnd's function, with a vendor glvnd gave us and the index it assigned.
    let f = unsafe { fetch(vendor, index) };
    if f.is_null() {
        return None;
    }
    debug_assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
    // SAFETY: a function pointer of the size of `F`, whose signature the caller vouches for.
    Some(unsafe { std::mem::transmute_copy(&f) })
}

type CreateAttribs =
    unsafe extern "C" fn(XDisplay, GLXFBConfig, GLXContext, Bool, *const c_int) -> GLXContext;

/// `glXCreateContextAttribsARB` through the config's vendor; the new context joins glvnd's map.
unsafe extern "C" fn dispatch_create_context_attribs(
    dpy: XDisplay,
    config: GLXFBConfig,
    share: GLXContext,
    direct: Bool,
    attribs: *const c_int,
) -> GLXContext {
    guard(null_mut(), || {
        let Some(ex) = exports() else {
            return null_mut();
        };
        let vendor = ex
            .vendor_from_fbconfig
            // SAFETY: glvnd's lookup with the program's arguments.
            .map_or(null_mut(), |f| unsafe { f(dpy, config) });
        // SAFETY: `CreateAttribs` is glXCreateContextAttribsARB's signature.
        let Some(create) = (unsafe { entry::<CreateAttribs>(vendor, CREATE_CONTEXT_ATTRIBS) })
        else {
            report(dpy, super::op::CREATE_CONTEXT_ATTRIBS, bad_fbconfig());
            return null_mut();
        };
        // SAFETY: the vendor's own function with the program's arguments.
        let ctx = unsafe { create(dpy, config, share, direct, attribs) };
        let mapped = ex
            .add_vendor_context_mapping
            // SAFETY: glvnd's map, with a context the vendor just made.
            .is_some_and(|add| ctx.is_null() || unsafe { add(dpy, ctx, vendor) } == 0);
        if !ctx.is_null() && !mapped {
            super::glXDestroyContext(dpy, ctx);
            report(dpy, super::op::CREATE_CONTEXT_ATTRIBS, alloc_failure());
            return null_mut();
        }
        ctx
    })
}

fn bad_fbconfig() -> Fail {
    super::fail!(
        super::GLX_BAD_FBCONFIG_ERR,
        0,
        "glvnd: no vendor for the GLXFBConfig"
    )
}

fn alloc_failure() -> Fail {
    super::fail!(
        x11::BAD_ALLOC,
        0,
        "glvnd: the context could not be mapped to its vendor"
    )
}

type SwapIntervalExt = unsafe extern "C" fn(XDisplay, Xid, c_int);

/// `glXSwapIntervalEXT` through the drawable's vendor (a plain window's: its screen's).
unsafe extern "C" fn dispatch_swap_interval_ext(dpy: XDisplay, draw: Xid, interval: c_int) {
    guard((), || {
        let Some(ex) = exports() else {
            return;
        };
        // SAFETY: glvnd's lookups with the program's arguments.
        let mut vendor = ex
            .vendor_from_drawable
            .map_or(null_mut(), |f| unsafe { f(dpy, draw) });
        if vendor.is_null() {
            if let (Some(x), Some(dyn_dispatch), true) = (
                x11::xlib(),
                ex.get_dyn_dispatch,
                x11::plausible_display(dpy),
            ) {
                // SAFETY: the program's live display.
                vendor = unsafe { dyn_dispatch(dpy, x.default_screen_of(dpy)) };
            }
        }
        // SAFETY: `SwapIntervalExt` is glXSwapIntervalEXT's signature.
        if let Some(f) = unsafe { entry::<SwapIntervalExt>(vendor, SWAP_INTERVAL_EXT) } {
            // SAFETY: the vendor's own function with the program's arguments.
            unsafe { f(dpy, draw, interval) };
        }
    });
}

/// The current context's vendor.
fn current_vendor() -> Vendor {
    let get = exports().and_then(|e| e.get_current_dyn_dispatch);
    // SAFETY: glvnd's per-thread lookup.
    get.map_or(null_mut(), |f| unsafe { f() })
}

/// `GLX_BAD_CONTEXT`, the swap-control answer without a current context.
const GLX_BAD_CONTEXT_RET: c_int = 5;

/// `unsafe extern "C" fn $name(args) -> ret`: the function `DISPATCHED[$which]` names, through
/// the current context's vendor; `$none` without one.
macro_rules! current_vendor_stub {
    ($name:ident($($arg:ident: $t:ty),*) -> $ret:ty, $which:expr, $none:expr) => {
        unsafe extern "C" fn $name($($arg: $t),*) -> $ret {
            guard($none, || {
                type F = unsafe extern "C" fn($($t),*) -> $ret;
                // SAFETY: `F` is the C signature of the function `DISPATCHED[$which]` names.
                match unsafe { entry::<F>(current_vendor(), $which) } {
                    // SAFETY: the vendor's own function with the program's arguments.
                    Some(f) => unsafe { f($($arg),*) },
                    None => $none,
                }
            })
        }
    };
}

current_vendor_stub!(
    dispatch_swap_interval_mesa(interval: c_uint) -> c_int,
    SWAP_INTERVAL_MESA,
    GLX_BAD_CONTEXT_RET
);
current_vendor_stub!(
    dispatch_get_swap_interval_mesa() -> c_int,
    GET_SWAP_INTERVAL_MESA,
    0
);
current_vendor_stub!(
    dispatch_swap_interval_sgi(interval: c_int) -> c_int,
    SWAP_INTERVAL_SGI,
    GLX_BAD_CONTEXT_RET
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abi_structs_have_the_header_sizes() {
        let ptr = std::mem::size_of::<*mut c_void>();
        assert_eq!(std::mem::size_of::<GlxApiExports>(), 13 * ptr);
        assert_eq!(std::mem::size_of::<GlxApiImports>(), 9 * ptr);
    }

    #[test]
    fn stubs_exist_only_for_the_extension_functions() {
        for d in &DISPATCHED {
            // SAFETY: NUL-terminated names.
            let stub = unsafe { get_dispatch_address(d.name.as_ptr().cast()) };
            assert_eq!(stub, d.stub);
        }
        // SAFETY: a NUL-terminated name and NULL.
        unsafe {
            assert!(get_dispatch_address(c"glXChooseVisual".as_ptr().cast()).is_null());
            assert!(get_dispatch_address(std::ptr::null()).is_null());
        }
    }
}
