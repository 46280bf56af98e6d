//! The libglvnd EGL vendor interface: `__egl_Main`, so glvnd's `libEGL.so.1` can load
//! `libarenagl.so` as a vendor from a JSON file (`__EGL_VENDOR_LIBRARY_FILENAMES` or
//! `…/glvnd/egl_vendor.d/`).
//!
//! Design decisions:
//! - The `#[repr(C)]` mirrors follow `glvnd/libeglabi.h` of libglvnd 1.6.0 (vendor ABI 0.2) field
//!   by field; their sizes and offsets are pinned by a unit test, checked against the header
//!   compiled with `cc` (imports 88 bytes, exports 96). `__egl_Main` writes only the six import
//!   fields it fills, one at a time, so an older libglvnd with a shorter struct is never written
//!   past; the exports' `setVendorForDevice` (ABI 0.2) is read only when libglvnd reports minor
//!   version ≥ 2.
//! - `getPlatformDisplay` is our `eglGetPlatformDisplay` (surfaceless, device; anything else is
//!   its `EGL_BAD_PARAMETER`), except `EGL_NONE`, glvnd's "eglGetDisplay(EGL_DEFAULT_DISPLAY)",
//!   which is our `eglGetDisplay`.
//! - `getProcAddress` is our `eglGetProcAddress` (EGL names today, GL names as the translator
//!   lands), then the fallbacks below. glvnd *rejects* a vendor whose `getProcAddress` has no
//!   `eglCopyBuffers`, `eglCreatePixmapSurface`, `eglBindTexImage`, `eglReleaseTexImage` or
//!   `eglCreatePbufferFromClientBuffer` (libglvnd `LookupVendorEntrypoints`); ArenaGL has no
//!   pixmaps or client buffers, so those are answered here by functions that fail with the
//!   error the EGL 1.5 spec names for the unsupported case. They defer to `egl.rs` once it
//!   exports real ones (the lookup asks `eglGetProcAddress` first).
//! - Display-extension functions glvnd does not dispatch itself need vendor-neutral dispatch
//!   stubs (`getDispatchAddress`): ours are `eglQueryDisplayAttribEXT` and
//!   `eglCreatePlatformWindowSurfaceEXT`. Each finds the display's vendor through glvnd's
//!   exports and calls that vendor's entry at the index glvnd assigned (`setDispatchIndex`),
//!   so they stay correct beside other vendors; client-extension functions (device
//!   enumeration, `eglGetPlatformDisplayEXT`) are glvnd's own.
//! - Every function runs inside [`guard`]; none panics into C.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::ptr::{addr_of_mut, null, null_mut};
use std::sync::atomic::{AtomicI32, AtomicPtr, AtomicU32, Ordering};

use arenagl_present::egl::{
    EGL_DEVICE_EXT, EGL_NONE, EGL_OPENGL_API, EGL_OPENGL_ES_API, EGL_VENDOR,
};
use arenagl_present::{Display, EglError};

use super::egl::{eglGetDisplay, eglGetPlatformDisplay, eglGetProcAddress};
use super::guard::guard;
use super::{
    fail, instance, to_word, EGLAttrib, EGLBoolean, EGLConfig, EGLContext, EGLDeviceEXT,
    EGLDisplay, EGLSurface, EGLenum, EGLint, EGL_FALSE, EGL_TRUE,
};

/// The vendor ABI major version this file implements; glvnd's must match exactly.
pub const EGL_VENDOR_ABI_MAJOR_VERSION: u32 = 0;
/// The minor version that added `setVendorForDevice` to the exports.
const ABI_MINOR_WITH_SET_VENDOR_FOR_DEVICE: u32 = 2;
/// `__EGL_VENDOR_STRING_PLATFORM_EXTENSIONS`, the one `getVendorString` name.
pub const EGL_VENDOR_STRING_PLATFORM_EXTENSIONS: c_int = 0;
/// The platform extensions among our client extensions (glvnd merges them into its own string
/// and uses `EGL_EXT_platform_device` to route device displays to us).
static PLATFORM_EXTENSIONS: &CStr =
    c"EGL_EXT_platform_device EGL_MESA_platform_surfaceless EGL_KHR_platform_x11 EGL_EXT_platform_x11";

/// `__EGLvendorInfo`: glvnd's per-vendor record, opaque to vendors.
#[repr(C)]
pub struct EglVendorInfo {
    _opaque: [u8; 0],
}

/// `__EGLapiExports`: what libglvnd gives the vendor (field order as in `libeglabi.h`).
#[repr(C)]
pub struct EglApiExports {
    pub thread_init: Option<unsafe extern "C" fn()>,
    pub get_current_api: Option<unsafe extern "C" fn() -> EGLenum>,
    pub get_current_vendor: Option<unsafe extern "C" fn() -> *mut EglVendorInfo>,
    pub get_current_context: Option<unsafe extern "C" fn() -> EGLContext>,
    pub get_current_display: Option<unsafe extern "C" fn() -> EGLDisplay>,
    pub get_current_surface: Option<unsafe extern "C" fn(EGLint) -> EGLSurface>,
    pub fetch_dispatch_entry:
        Option<unsafe extern "C" fn(*mut EglVendorInfo, c_int) -> *mut c_void>,
    pub set_egl_error: Option<unsafe extern "C" fn(EGLint)>,
    pub set_last_vendor: Option<unsafe extern "C" fn(*mut EglVendorInfo) -> EGLBoolean>,
    pub get_vendor_from_display: Option<unsafe extern "C" fn(EGLDisplay) -> *mut EglVendorInfo>,
    pub get_vendor_from_device: Option<unsafe extern "C" fn(EGLDeviceEXT) -> *mut EglVendorInfo>,
    /// ABI 0.2 and later only.
    pub set_vendor_for_device:
        Option<unsafe extern "C" fn(EGLDeviceEXT, *mut EglVendorInfo) -> EGLBoolean>,
}

/// `DispatchPatchLookupStubOffset` (`glvnd/GLdispatchABI.h`).
pub type DispatchPatchLookupStubOffset =
    Option<unsafe extern "C" fn(*const c_char, *mut *mut c_void, *mut *const c_void) -> u8>;

/// `__EGLapiImports`: what the vendor fills in (field order as in `libeglabi.h`). The entry
/// patching and native-platform fields are optional and stay NULL.
#[repr(C)]
pub struct EglApiImports {
    pub get_platform_display:
        Option<unsafe extern "C" fn(EGLenum, *mut c_void, *const EGLAttrib) -> EGLDisplay>,
    pub get_supports_api: Option<extern "C" fn(EGLenum) -> EGLBoolean>,
    pub get_vendor_string: Option<extern "C" fn(c_int) -> *const c_char>,
    pub get_proc_address: Option<unsafe extern "C" fn(*const c_char) -> *mut c_void>,
    pub get_dispatch_address: Option<unsafe extern "C" fn(*const c_char) -> *mut c_void>,
    pub set_dispatch_index: Option<unsafe extern "C" fn(*const c_char, c_int)>,
    pub is_patch_supported: Option<unsafe extern "C" fn(c_int, c_int) -> u8>,
    pub initiate_patch:
        Option<unsafe extern "C" fn(c_int, c_int, DispatchPatchLookupStubOffset) -> u8>,
    pub release_patch: Option<unsafe extern "C" fn()>,
    pub patch_thread_attach: Option<unsafe extern "C" fn()>,
    pub find_native_display_platform: Option<unsafe extern "C" fn(*mut c_void) -> EGLenum>,
}

/// glvnd's exports table (static in libEGL, alive for the process), set by `__egl_Main`.
static EXPORTS: AtomicPtr<EglApiExports> = AtomicPtr::new(null_mut());
/// The minor ABI version glvnd reported.
static ABI_MINOR: AtomicU32 = AtomicU32::new(0);

/// The display-extension functions we give glvnd dispatch stubs for, with the index glvnd
/// assigned each (-1 until `setDispatchIndex`).
struct Dispatched {
    name: &'static CStr,
    index: AtomicI32,
    stub: *mut c_void,
}

// SAFETY: `stub` is the address of a function, immutable and valid from any thread.
unsafe impl Sync for Dispatched {}

impl Dispatched {
    /// The entry for `name`, dispatched by `stub`; its index comes from glvnd later.
    const fn new(name: &'static CStr, stub: *mut c_void) -> Self {
        Self {
            name,
            index: AtomicI32::new(-1),
            stub,
        }
    }
}

static DISPATCHED: [Dispatched; 12] = [
    Dispatched::new(
        c"eglQueryDisplayAttribEXT",
        dispatch_query_display_attrib as *mut c_void,
    ),
    Dispatched::new(
        c"eglCreatePlatformWindowSurfaceEXT",
        dispatch_create_platform_window_surface as *mut c_void,
    ),
    // A device function glvnd does not dispatch itself: without this stub glvnd's
    // `eglGetProcAddress("eglQueryDeviceStringEXT")` is NULL, and eglinfo calls it unchecked.
    Dispatched::new(
        c"eglQueryDeviceStringEXT",
        dispatch_query_device_string as *mut c_void,
    ),
    // Display extensions glvnd 1.6 has no stubs of its own for (it dispatches the EGL 1.5 core
    // sync functions itself, not the KHR ones, nor swap-with-damage).
    Dispatched::new(c"eglCreateSyncKHR", dispatch_create_sync_khr as *mut c_void),
    Dispatched::new(
        c"eglDestroySyncKHR",
        dispatch_destroy_sync_khr as *mut c_void,
    ),
    Dispatched::new(
        c"eglClientWaitSyncKHR",
        dispatch_client_wait_sync_khr as *mut c_void,
    ),
    Dispatched::new(c"eglWaitSyncKHR", dispatch_wait_sync_khr as *mut c_void),
    Dispatched::new(
        c"eglGetSyncAttribKHR",
        dispatch_get_sync_attrib_khr as *mut c_void,
    ),
    Dispatched::new(
        c"eglSwapBuffersWithDamageKHR",
        dispatch_swap_buffers_with_damage_khr as *mut c_void,
    ),
    Dispatched::new(
        c"eglSwapBuffersWithDamageEXT",
        dispatch_swap_buffers_with_damage_ext as *mut c_void,
    ),
    // EGL_KHR_image_base's functions (glvnd dispatches only EGL 1.5's `eglCreateImage`).
    Dispatched::new(
        c"eglCreateImageKHR",
        dispatch_create_image_khr as *mut c_void,
    ),
    Dispatched::new(
        c"eglDestroyImageKHR",
        dispatch_destroy_image_khr as *mut c_void,
    ),
];

/// The vendor entry point glvnd calls once after `dlopen`.
///
/// # Safety
/// `exports` is NULL or glvnd's exports table, valid for the life of the process, of the ABI
/// `version` describes; `imports` is NULL or glvnd's imports table of that ABI, writable.
#[no_mangle]
pub unsafe extern "C" fn __egl_Main(
    version: u32,
    exports: *const EglApiExports,
    _vendor: *mut EglVendorInfo,
    imports: *mut EglApiImports,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        if version >> 16 != EGL_VENDOR_ABI_MAJOR_VERSION || exports.is_null() || imports.is_null() {
            return EGL_FALSE;
        }
        EXPORTS.store(exports.cast_mut(), Ordering::Release);
        ABI_MINOR.store(version & 0xFFFF, Ordering::Release);
        // SAFETY: `imports` is non-NULL and writable (the caller's obligation); these six fields
        // exist in every vendor ABI 0.x, and each is written alone so no byte past them is.
        unsafe {
            addr_of_mut!((*imports).get_platform_display).write(Some(get_platform_display));
            addr_of_mut!((*imports).get_supports_api).write(Some(get_supports_api));
            addr_of_mut!((*imports).get_vendor_string).write(Some(get_vendor_string));
            addr_of_mut!((*imports).get_proc_address).write(Some(get_proc_address));
            addr_of_mut!((*imports).get_dispatch_address).write(Some(get_dispatch_address));
            addr_of_mut!((*imports).set_dispatch_index).write(Some(set_dispatch_index));
        }
        EGL_TRUE
    })
}

/// `getPlatformDisplay`: `EGL_NONE` is glvnd's `eglGetDisplay`; other platforms go to
/// `eglGetPlatformDisplay`, which records `EGL_BAD_PARAMETER` for the ones we lack.
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated `EGLAttrib` list.
unsafe extern "C" fn get_platform_display(
    platform: EGLenum,
    native_display: *mut c_void,
    attrib_list: *const EGLAttrib,
) -> EGLDisplay {
    guard(null_mut(), || {
        if platform == EGL_NONE as EGLenum {
            eglGetDisplay(native_display)
        } else {
            // SAFETY: the caller's obligation on `attrib_list`, passed on.
            unsafe { eglGetPlatformDisplay(platform, native_display, attrib_list) }
        }
    })
}

/// `getSupportsAPI`: desktop OpenGL and OpenGL ES (our `EGL_CLIENT_APIS`).
extern "C" fn get_supports_api(api: EGLenum) -> EGLBoolean {
    guard(EGL_FALSE, || {
        if api == EGL_OPENGL_API || api == EGL_OPENGL_ES_API {
            EGL_TRUE
        } else {
            EGL_FALSE
        }
    })
}

/// `getVendorString`: the platform extensions; NULL for any other name.
extern "C" fn get_vendor_string(name: c_int) -> *const c_char {
    guard(null(), || match name {
        EGL_VENDOR_STRING_PLATFORM_EXTENSIONS => PLATFORM_EXTENSIONS.as_ptr(),
        _ => null(),
    })
}

/// `getProcAddress`: our `eglGetProcAddress`, then the functions glvnd requires that ArenaGL
/// answers only here.
///
/// # Safety
/// `name` is NULL or NUL-terminated.
unsafe extern "C" fn get_proc_address(name: *const c_char) -> *mut c_void {
    guard(null_mut(), || {
        if name.is_null() {
            return null_mut();
        }
        // SAFETY: the caller's obligation, passed on.
        let found = unsafe { eglGetProcAddress(name) };
        if !found.is_null() {
            return found;
        }
        // SAFETY: non-NULL and NUL-terminated (the caller's obligation).
        required_fallback(unsafe { CStr::from_ptr(name) }.to_bytes())
    })
}

/// The EGL 1.5 functions glvnd requires of every vendor that ArenaGL has no use for.
fn required_fallback(name: &[u8]) -> *mut c_void {
    match name {
        b"eglCopyBuffers" => egl_copy_buffers as *mut c_void,
        b"eglCreatePixmapSurface" => egl_create_pixmap_surface as *mut c_void,
        b"eglBindTexImage" => egl_bind_tex_image as *mut c_void,
        b"eglReleaseTexImage" => egl_release_tex_image as *mut c_void,
        b"eglCreatePbufferFromClientBuffer" => egl_create_pbuffer_from_client_buffer as *mut c_void,
        _ => null_mut(),
    }
}

/// `getDispatchAddress`: our dispatch stubs, by name.
///
/// # Safety
/// `name` is NULL or NUL-terminated.
unsafe extern "C" fn get_dispatch_address(name: *const c_char) -> *mut c_void {
    guard(null_mut(), || {
        if name.is_null() {
            return null_mut();
        }
        // SAFETY: non-NULL and NUL-terminated (the caller's obligation).
        let name = unsafe { CStr::from_ptr(name) };
        DISPATCHED
            .iter()
            .find(|d| d.name == name)
            .map_or(null_mut(), |d| d.stub)
    })
}

/// `setDispatchIndex`: remembers the index of each function we stub; others are glvnd's.
///
/// # Safety
/// `name` is NULL or NUL-terminated.
unsafe extern "C" fn set_dispatch_index(name: *const c_char, index: c_int) {
    guard((), || {
        if name.is_null() {
            return;
        }
        // SAFETY: non-NULL and NUL-terminated (the caller's obligation).
        let name = unsafe { CStr::from_ptr(name) };
        if let Some(d) = DISPATCHED.iter().find(|d| d.name == name) {
            d.index.store(index, Ordering::Release);
        }
    })
}

// Dispatch stubs.

fn exports() -> Option<&'static EglApiExports> {
    let ptr = EXPORTS.load(Ordering::Acquire);
    // SAFETY: set only by `__egl_Main` to glvnd's exports table, which lives for the process.
    unsafe { ptr.as_ref() }
}

/// The entry of the vendor owning `dpy` for the stubbed function `which`, with that vendor
/// made glvnd's "last vendor" (so `eglGetError` asks it); otherwise `EGL_BAD_DISPLAY` is set
/// through glvnd and the result is `None`.
fn fetch_by_display(
    dpy: EGLDisplay,
    which: &Dispatched,
) -> Option<(*mut c_void, *mut EglVendorInfo)> {
    let ex = exports()?;
    let set_error = |code| {
        if let Some(set) = ex.set_egl_error {
            // SAFETY: glvnd's function, called as its header declares.
            unsafe { set(code) };
        }
    };
    let index = which.index.load(Ordering::Acquire);
    let vendor = match ex.get_vendor_from_display {
        // SAFETY: glvnd's function, called as its header declares; glvnd validates `dpy`.
        Some(get) => unsafe { get(dpy) },
        None => null_mut(),
    };
    if vendor.is_null() || index < 0 {
        set_error(arenagl_present::egl::EGL_BAD_DISPLAY);
        return None;
    }
    if let Some(set_last) = ex.set_last_vendor {
        // SAFETY: glvnd's function, given the vendor pointer glvnd itself returned.
        unsafe { set_last(vendor) };
    }
    // SAFETY: glvnd's function, given its own vendor pointer and the index it assigned.
    let entry = ex
        .fetch_dispatch_entry
        .map_or(null_mut(), |f| unsafe { f(vendor, index) });
    if entry.is_null() {
        set_error(arenagl_present::egl::EGL_BAD_DISPLAY);
        return None;
    }
    Some((entry, vendor))
}

/// The vendor entry for `which` of the vendor owning `device`; `EGL_BAD_DEVICE_EXT` if none.
fn fetch_by_device(device: EGLDeviceEXT, which: &Dispatched) -> Option<*mut c_void> {
    let ex = exports()?;
    let index = which.index.load(Ordering::Acquire);
    // SAFETY: glvnd's function, called as its header declares; glvnd validates `device`.
    let vendor = ex
        .get_vendor_from_device
        .map_or(null_mut(), |get| unsafe { get(device) });
    let entry = match (vendor.is_null(), index < 0, ex.fetch_dispatch_entry) {
        // SAFETY: glvnd's function, given its own vendor pointer and the index it assigned.
        (false, false, Some(fetch)) => unsafe { fetch(vendor, index) },
        _ => null_mut(),
    };
    if entry.is_null() {
        if let Some(set) = ex.set_egl_error {
            // SAFETY: glvnd's function, called as its header declares.
            unsafe { set(EGL_BAD_DEVICE_EXT_CODE) };
        }
        return None;
    }
    Some(entry)
}

/// `EGL_BAD_DEVICE_EXT`.
const EGL_BAD_DEVICE_EXT_CODE: EGLint = 0x322B;

type QueryDeviceString = unsafe extern "C" fn(EGLDeviceEXT, EGLint) -> *const c_char;

/// Vendor-neutral `eglQueryDeviceStringEXT`.
///
/// # Safety
/// As `eglQueryDeviceStringEXT` (the device is a handle, never dereferenced here).
unsafe extern "C" fn dispatch_query_device_string(
    device: EGLDeviceEXT,
    name: EGLint,
) -> *const c_char {
    guard(null(), || {
        let Some(entry) = fetch_by_device(device, &DISPATCHED[2]) else {
            return null();
        };
        // SAFETY: glvnd fetched the vendor's `eglQueryDeviceStringEXT` for this index.
        let f: QueryDeviceString = unsafe { std::mem::transmute(entry) };
        // SAFETY: the vendor's own function with the program's arguments.
        unsafe { f(device, name) }
    })
}

type QueryDisplayAttrib = unsafe extern "C" fn(EGLDisplay, EGLint, *mut EGLAttrib) -> EGLBoolean;
type CreatePlatformWindowSurface =
    unsafe extern "C" fn(EGLDisplay, EGLConfig, *mut c_void, *const EGLint) -> EGLSurface;

/// Vendor-neutral `eglQueryDisplayAttribEXT`; a returned `EGL_DEVICE_EXT` is registered with
/// glvnd as the vendor's device (ABI 0.2), as the header asks of stubs returning devices.
///
/// # Safety
/// As `eglQueryDisplayAttribEXT`: `value` is NULL or valid for one write.
unsafe extern "C" fn dispatch_query_display_attrib(
    dpy: EGLDisplay,
    attribute: EGLint,
    value: *mut EGLAttrib,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let Some((entry, vendor)) = fetch_by_display(dpy, &DISPATCHED[0]) else {
            return EGL_FALSE;
        };
        // SAFETY: glvnd fetched the vendor's `eglQueryDisplayAttribEXT` for this index.
        let f: QueryDisplayAttrib = unsafe { std::mem::transmute(entry) };
        // SAFETY: the caller's obligation on `value`, passed on.
        let ok = unsafe { f(dpy, attribute, value) };
        let new_abi = ABI_MINOR.load(Ordering::Acquire) >= ABI_MINOR_WITH_SET_VENDOR_FOR_DEVICE;
        if ok == EGL_TRUE && attribute == EGL_DEVICE_EXT && new_abi && !value.is_null() {
            if let Some(set) = exports().and_then(|ex| ex.set_vendor_for_device) {
                // SAFETY: `value` was just written by the vendor; the minor version says
                // glvnd's table has this field.
                unsafe {
                    set(
                        std::ptr::with_exposed_provenance_mut(value.read() as usize),
                        vendor,
                    )
                };
            }
        }
        ok
    })
}

/// Vendor-neutral `eglCreatePlatformWindowSurfaceEXT`.
///
/// # Safety
/// As `eglCreatePlatformWindowSurfaceEXT`.
unsafe extern "C" fn dispatch_create_platform_window_surface(
    dpy: EGLDisplay,
    config: EGLConfig,
    native_window: *mut c_void,
    attrib_list: *const EGLint,
) -> EGLSurface {
    guard(null_mut(), || {
        let Some((entry, _)) = fetch_by_display(dpy, &DISPATCHED[1]) else {
            return null_mut();
        };
        // SAFETY: glvnd fetched the vendor's `eglCreatePlatformWindowSurfaceEXT` for this index.
        let f: CreatePlatformWindowSurface = unsafe { std::mem::transmute(entry) };
        // SAFETY: the caller's obligations, passed on.
        unsafe { f(dpy, config, native_window, attrib_list) }
    })
}

/// A vendor-neutral stub for a display-extension function whose first argument is the
/// `EGLDisplay`: it calls the entry of the display's vendor (`DISPATCHED[$index]`) or, for a
/// display no vendor owns, sets `EGL_BAD_DISPLAY` and returns `$fail`.
macro_rules! display_stub {
    ($(#[$doc:meta])* $stub:ident = DISPATCHED[$index:literal],
     fn($($arg:ident: $t:ty),*) -> $r:ty, $fail:expr) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// As the EGL function it dispatches: the caller's pointer arguments are valid for it.
        unsafe extern "C" fn $stub(dpy: EGLDisplay, $($arg: $t),*) -> $r {
            guard($fail, || {
                let Some((entry, _)) = fetch_by_display(dpy, &DISPATCHED[$index]) else {
                    return $fail;
                };
                type Entry = unsafe extern "C" fn(EGLDisplay, $($t),*) -> $r;
                // SAFETY: glvnd fetched the vendor's entry for this function's index; its C
                // signature is `Entry`.
                let f: Entry = unsafe { std::mem::transmute(entry) };
                // SAFETY: the caller's obligations, passed on.
                unsafe { f(dpy, $($arg),*) }
            })
        }
    };
}

display_stub!(
    /// Vendor-neutral `eglCreateSyncKHR`.
    dispatch_create_sync_khr = DISPATCHED[3],
    fn(sync_type: EGLenum, attrib_list: *const EGLint) -> *mut c_void,
    null_mut()
);
display_stub!(
    /// Vendor-neutral `eglDestroySyncKHR`.
    dispatch_destroy_sync_khr = DISPATCHED[4],
    fn(sync: *mut c_void) -> EGLBoolean,
    EGL_FALSE
);
display_stub!(
    /// Vendor-neutral `eglClientWaitSyncKHR`.
    dispatch_client_wait_sync_khr = DISPATCHED[5],
    fn(sync: *mut c_void, flags: EGLint, timeout: u64) -> EGLint,
    0
);
display_stub!(
    /// Vendor-neutral `eglWaitSyncKHR`.
    dispatch_wait_sync_khr = DISPATCHED[6],
    fn(sync: *mut c_void, flags: EGLint) -> EGLint,
    0
);
display_stub!(
    /// Vendor-neutral `eglGetSyncAttribKHR`.
    dispatch_get_sync_attrib_khr = DISPATCHED[7],
    fn(sync: *mut c_void, attribute: EGLint, value: *mut EGLint) -> EGLBoolean,
    EGL_FALSE
);
display_stub!(
    /// Vendor-neutral `eglSwapBuffersWithDamageKHR`.
    dispatch_swap_buffers_with_damage_khr = DISPATCHED[8],
    fn(surface: EGLSurface, rects: *const EGLint, n_rects: EGLint) -> EGLBoolean,
    EGL_FALSE
);
display_stub!(
    /// Vendor-neutral `eglSwapBuffersWithDamageEXT`.
    dispatch_swap_buffers_with_damage_ext = DISPATCHED[9],
    fn(surface: EGLSurface, rects: *const EGLint, n_rects: EGLint) -> EGLBoolean,
    EGL_FALSE
);

display_stub!(
    /// Vendor-neutral `eglCreateImageKHR`.
    dispatch_create_image_khr = DISPATCHED[10],
    fn(ctx: EGLContext, target: EGLenum, buffer: *mut c_void, attrib_list: *const EGLint)
        -> *mut c_void,
    null_mut()
);
display_stub!(
    /// Vendor-neutral `eglDestroyImageKHR`.
    dispatch_destroy_image_khr = DISPATCHED[11],
    fn(image: *mut c_void) -> EGLBoolean,
    EGL_FALSE
);

// The functions glvnd requires that ArenaGL does not support: each checks the display as
// every EGL function does, then fails with the spec's error for the unsupported case.

/// `EGL_BAD_DISPLAY` / `EGL_NOT_INITIALIZED` as the model answers them, else `Ok`.
fn initialized(dpy: EGLDisplay) -> Result<(), EglError> {
    let d = Display::from_raw(to_word(dpy)).map_or_else(|| fail(EglError::BAD_DISPLAY), Ok)?;
    instance().query_string(Some(d), EGL_VENDOR).map(|_| ())
}

/// `eglCopyBuffers`: there are no native pixmaps (`EGL_BAD_NATIVE_PIXMAP`).
extern "C" fn egl_copy_buffers(dpy: EGLDisplay, _s: EGLSurface, _pixmap: usize) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let _ = initialized(dpy).and_then(|()| fail::<()>(EglError::BAD_NATIVE_PIXMAP));
        EGL_FALSE
    })
}

/// `eglCreatePixmapSurface`: no config has `EGL_PIXMAP_BIT` (`EGL_BAD_MATCH`).
extern "C" fn egl_create_pixmap_surface(
    dpy: EGLDisplay,
    _config: EGLConfig,
    _pixmap: usize,
    _attrib_list: *const EGLint,
) -> EGLSurface {
    guard(null_mut(), || {
        let _ = initialized(dpy).and_then(|()| fail::<()>(EglError::BAD_MATCH));
        null_mut()
    })
}

/// `eglBindTexImage`: no surface has an `EGL_TEXTURE_FORMAT` (`EGL_BAD_MATCH`).
extern "C" fn egl_bind_tex_image(dpy: EGLDisplay, _s: EGLSurface, _buffer: EGLint) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let _ = initialized(dpy).and_then(|()| fail::<()>(EglError::BAD_MATCH));
        EGL_FALSE
    })
}

/// `eglReleaseTexImage`: as `eglBindTexImage`.
extern "C" fn egl_release_tex_image(dpy: EGLDisplay, s: EGLSurface, buffer: EGLint) -> EGLBoolean {
    egl_bind_tex_image(dpy, s, buffer)
}

/// `eglCreatePbufferFromClientBuffer`: no client buffer type is recognised
/// (`EGL_BAD_PARAMETER`).
extern "C" fn egl_create_pbuffer_from_client_buffer(
    dpy: EGLDisplay,
    _buftype: EGLenum,
    _buffer: *mut c_void,
    _config: EGLConfig,
    _attrib_list: *const EGLint,
) -> EGLSurface {
    guard(null_mut(), || {
        let _ = initialized(dpy).and_then(|()| fail::<()>(EglError::BAD_PARAMETER));
        null_mut()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arenagl_present::egl::{EGL_BAD_DISPLAY, EGL_BAD_MATCH, EGL_NOT_INITIALIZED};
    use arenagl_present::CLIENT_EXTENSIONS;
    use std::mem::{offset_of, size_of};

    /// The layouts of libglvnd 1.6.0's `libeglabi.h` (vendor ABI 0.2) on 64-bit targets, as
    /// printed by a C program compiled against it (`sizeof`, `offsetof`): every field is one
    /// pointer, in header order.
    #[test]
    fn imports_and_exports_match_libeglabi_h() {
        assert_eq!(size_of::<EglApiImports>(), 88);
        assert_eq!(offset_of!(EglApiImports, get_platform_display), 0);
        assert_eq!(offset_of!(EglApiImports, get_supports_api), 8);
        assert_eq!(offset_of!(EglApiImports, get_vendor_string), 16);
        assert_eq!(offset_of!(EglApiImports, get_proc_address), 24);
        assert_eq!(offset_of!(EglApiImports, get_dispatch_address), 32);
        assert_eq!(offset_of!(EglApiImports, set_dispatch_index), 40);
        assert_eq!(offset_of!(EglApiImports, is_patch_supported), 48);
        assert_eq!(offset_of!(EglApiImports, initiate_patch), 56);
        assert_eq!(offset_of!(EglApiImports, release_patch), 64);
        assert_eq!(offset_of!(EglApiImports, patch_thread_attach), 72);
        assert_eq!(offset_of!(EglApiImports, find_native_display_platform), 80);
        assert_eq!(size_of::<EglApiExports>(), 96);
        assert_eq!(offset_of!(EglApiExports, fetch_dispatch_entry), 48);
        assert_eq!(offset_of!(EglApiExports, set_egl_error), 56);
        assert_eq!(offset_of!(EglApiExports, get_vendor_from_display), 72);
        assert_eq!(offset_of!(EglApiExports, set_vendor_for_device), 88);
    }

    #[test]
    fn main_fills_the_required_imports_and_rejects_another_major_version() {
        // SAFETY: all-NULL function pointers are a valid `EglApiImports`/`EglApiExports`.
        let mut imports: EglApiImports = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        let exports: EglApiExports = unsafe { std::mem::zeroed() };
        // SAFETY: both tables are valid and writable for the call.
        let ok = unsafe { __egl_Main(1 << 16, &exports, null_mut(), &mut imports) };
        assert_eq!(ok, EGL_FALSE, "major version 1 is not ours");
        assert!(imports.get_proc_address.is_none());
        // SAFETY: as above.
        let ok = unsafe { __egl_Main(2, &exports, null_mut(), &mut imports) };
        assert_eq!(ok, EGL_TRUE);
        assert!(imports.get_platform_display.is_some());
        assert!(imports.get_supports_api.is_some());
        assert!(imports.get_vendor_string.is_some());
        assert!(imports.get_proc_address.is_some());
        assert!(imports.get_dispatch_address.is_some());
        assert!(imports.set_dispatch_index.is_some());
        assert!(
            imports.is_patch_supported.is_none() && imports.find_native_display_platform.is_none()
        );
        EXPORTS.store(null_mut(), Ordering::Release);
    }

    /// libglvnd's `LookupVendorEntrypoints` rejects the vendor if any of these is NULL.
    #[test]
    fn every_function_glvnd_requires_resolves() {
        for name in [
            c"eglInitialize",
            c"eglChooseConfig",
            c"eglCopyBuffers",
            c"eglCreateContext",
            c"eglCreatePbufferSurface",
            c"eglCreatePixmapSurface",
            c"eglCreateWindowSurface",
            c"eglDestroyContext",
            c"eglDestroySurface",
            c"eglGetConfigAttrib",
            c"eglGetConfigs",
            c"eglMakeCurrent",
            c"eglQueryContext",
            c"eglQueryString",
            c"eglQuerySurface",
            c"eglSwapBuffers",
            c"eglTerminate",
            c"eglWaitGL",
            c"eglWaitNative",
            c"eglBindTexImage",
            c"eglReleaseTexImage",
            c"eglSurfaceAttrib",
            c"eglSwapInterval",
            c"eglCreatePbufferFromClientBuffer",
            c"eglReleaseThread",
            c"eglWaitClient",
            c"eglGetError",
        ] {
            // SAFETY: NUL-terminated.
            let found = unsafe { get_proc_address(name.as_ptr()) };
            assert!(!found.is_null(), "{name:?}");
        }
        // SAFETY: NULL is allowed.
        assert!(unsafe { get_proc_address(null()) }.is_null());
    }

    #[test]
    fn apis_and_platform_extensions_match_what_we_advertise() {
        assert_eq!(get_supports_api(EGL_OPENGL_API), EGL_TRUE);
        assert_eq!(get_supports_api(EGL_OPENGL_ES_API), EGL_TRUE);
        assert_eq!(get_supports_api(0x30A1 /* EGL_OPENVG_API */), EGL_FALSE);
        let platforms = PLATFORM_EXTENSIONS.to_str().unwrap_or_default();
        for ext in platforms.split(' ') {
            assert!(CLIENT_EXTENSIONS.split(' ').any(|e| e == ext), "{ext}");
        }
        assert!(get_vendor_string(1).is_null());
    }

    #[test]
    fn unsupported_required_functions_fail_with_the_spec_errors() {
        assert_eq!(egl_bind_tex_image(null_mut(), null_mut(), 0), EGL_FALSE);
        assert_eq!(instance().get_error(), EGL_BAD_DISPLAY);
        // SAFETY: an `EGL_NONE` terminated list.
        let dpy =
            unsafe { get_platform_display(0x31DD, null_mut(), [EGL_NONE as EGLAttrib].as_ptr()) };
        assert!(!dpy.is_null());
        assert_eq!(egl_bind_tex_image(dpy, null_mut(), 0), EGL_FALSE);
        assert_eq!(instance().get_error(), EGL_NOT_INITIALIZED);
        assert!(instance()
            .initialize(Display::from_raw(to_word(dpy)).expect("display"))
            .is_ok());
        assert!(egl_create_pixmap_surface(dpy, null_mut(), 0, null()).is_null());
        assert_eq!(instance().get_error(), EGL_BAD_MATCH);
    }

    #[test]
    fn dispatch_stubs_are_named_and_unknown_names_are_not() {
        // SAFETY: NUL-terminated.
        let stub = unsafe { get_dispatch_address(c"eglQueryDisplayAttribEXT".as_ptr()) };
        assert_eq!(stub, dispatch_query_display_attrib as *mut c_void);
        // SAFETY: NUL-terminated.
        let stub = unsafe { get_dispatch_address(c"eglClientWaitSyncKHR".as_ptr()) };
        assert_eq!(stub, dispatch_client_wait_sync_khr as *mut c_void);
        // Names are unique, so `setDispatchIndex` reaches exactly one entry.
        for (i, d) in DISPATCHED.iter().enumerate() {
            assert!(
                DISPATCHED[..i].iter().all(|e| e.name != d.name),
                "{:?}",
                d.name
            );
        }
        // SAFETY: NUL-terminated.
        let stub = unsafe { get_dispatch_address(c"eglCreateImageKHR".as_ptr()) };
        assert_eq!(stub, dispatch_create_image_khr as *mut c_void);
        // SAFETY: NUL-terminated.
        assert!(unsafe { get_dispatch_address(c"eglCreateImage".as_ptr()) }.is_null());
    }
}
