//! The `extern "C"` edge: C types, the process-wide instance, and the pointer ↔ Rust conversions
//! every entry point shares.
//!
//! Design: the object model (`arenagl-present`) does all validation and records every outcome as
//! the thread's last error; the edge only turns pointers into handles and slices, writes out-
//! parameters, and reports the failures it finds itself (NULL out-pointers, a handle of the wrong
//! kind) through [`Egl::record`]. Every entry point runs inside [`guard::guard`], so no panic
//! crosses into C. Handles are the model's opaque non-zero `u64`s carried in the pointer value,
//! never dereferenced; NULL is `EGL_NO_*`.

use std::ffi::c_void;
use std::sync::OnceLock;

use arenagl_present::attrib::{AttribWord, MAX_ATTRIB_WORDS};
use arenagl_present::egl::EGL_NONE;
use arenagl_present::{Egl, EglError, EglResult};

/// `tracing::error!` for a failure an application can repeat every frame: per call site, the
/// first 5 occurrences and then every 1000th, with the running total (a call that fails every
/// frame must not flood the log until the launcher gives up on it).
macro_rules! error_repeated {
    ($($arg:tt)+) => {{
        static SEEN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = SEEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if n <= 5 || n % 1000 == 0 {
            tracing::error!(total = n, $($arg)+);
        }
    }};
}

/// A `GetProcAddress` table from one list of exported functions, so the table and the tests that
/// walk it cannot disagree: `PROC_NAMES` (every name answered) and `lookup(name)` (the function's
/// address, NULL for a name not in the list).
macro_rules! proc_table {
    ($($f:ident),* $(,)?) => {
        /// Every name this window-system API's `GetProcAddress` answers.
        pub const PROC_NAMES: &[&str] = &[$(stringify!($f)),*];

        fn lookup(name: &[u8]) -> *mut ::std::ffi::c_void {
            $(
                if name == stringify!($f).as_bytes() {
                    return $f as *mut ::std::ffi::c_void;
                }
            )*
            ::std::ptr::null_mut()
        }
    };
}

mod begin_end;
mod bridge;
mod debug;
pub mod diagnostics;
pub mod egl;
pub mod gl;
pub mod glvnd;
pub mod glx;
pub(crate) mod guard;
pub mod launcher;
mod strings;
mod wayland;
pub mod x11;
mod xcb;

pub use arenagl_present::egl::{EGLAttrib, EGLenum, EGLint};

/// `EGLBoolean`: `EGL_TRUE` or `EGL_FALSE` as an `unsigned int`.
pub type EGLBoolean = u32;
pub type EGLDisplay = *mut c_void;
pub type EGLConfig = *mut c_void;
pub type EGLContext = *mut c_void;
pub type EGLSurface = *mut c_void;
pub type EGLDeviceEXT = *mut c_void;
/// `EGLNativeWindowType` on X11: a `Window` (an `unsigned long` XID).
pub type EGLNativeWindowType = usize;

pub const EGL_TRUE: EGLBoolean = 1;
pub const EGL_FALSE: EGLBoolean = 0;

/// The one instance behind the ABI, created on first call and never dropped (EGL objects live
/// until `eglTerminate` or process exit).
pub(crate) fn instance() -> &'static Egl {
    static EGL: OnceLock<Egl> = OnceLock::new();
    EGL.get_or_init(Egl::new)
}

/// Records an error found at the edge as the thread's last error.
pub(crate) fn fail<T>(error: EglError) -> EglResult<T> {
    instance().record(Err(error))
}

/// `EGL_TRUE` for success. The model (or [`fail`]) has already recorded the error.
pub(crate) fn boolean<T>(result: EglResult<T>) -> EGLBoolean {
    match result {
        Ok(_) => EGL_TRUE,
        Err(_) => EGL_FALSE,
    }
}

/// The pointer value an opaque handle travels as.
pub(crate) fn to_ptr(raw: u64) -> *mut c_void {
    std::ptr::without_provenance_mut(raw as usize)
}

/// The handle word a pointer carries (the target is 64-bit, see `lib.rs`).
pub(crate) fn to_word(ptr: *mut c_void) -> u64 {
    ptr.addr() as u64
}

/// Copies a `key, value, …, EGL_NONE` list out of C memory; NULL is the empty list. Reads stop at
/// the terminator key or after `MAX_ATTRIB_WORDS + 2` words, so an unterminated list is bounded
/// and the model rejects it as too long (`EGL_BAD_ATTRIBUTE`).
///
/// # Safety
/// `list` is NULL or points to words readable up to and including its `EGL_NONE` key, or at
/// least `MAX_ATTRIB_WORDS + 2` of them.
pub(crate) unsafe fn attrib_list<T: AttribWord>(list: *const T) -> Vec<T> {
    let mut out = Vec::new();
    if list.is_null() {
        return out;
    }
    while out.len() < MAX_ATTRIB_WORDS + 2 {
        // SAFETY: the caller guarantees words up to the terminator (or the bound) are readable;
        // `out.len()` never passes either.
        let word = unsafe { list.add(out.len()).read_unaligned() };
        out.push(word);
        let at_key = out.len() % 2 == 1;
        if at_key && word.to_i64() == i64::from(EGL_NONE) {
            break;
        }
    }
    out
}

/// Narrows an `EGLAttrib` list for model methods that take `EGLint` lists; a value that does not
/// fit is `EGL_BAD_ATTRIBUTE`, as the model answers for its own wide lists.
pub(crate) fn narrow(list: &[EGLAttrib]) -> EglResult<Vec<EGLint>> {
    list.iter()
        .map(|&w| EGLint::try_from(w).map_err(|_| EglError::BAD_ATTRIBUTE))
        .collect()
}

/// Writes `value` through an out-pointer that the spec requires (NULL is `EGL_BAD_PARAMETER`).
///
/// # Safety
/// `out` is NULL or valid for a write of one `T`.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T) -> EglResult<()> {
    if out.is_null() {
        return fail(EglError::BAD_PARAMETER);
    }
    // SAFETY: non-NULL, and the caller guarantees it is valid for one write.
    unsafe { out.write_unaligned(value) };
    Ok(())
}

/// Fills an optional output array (`eglGetConfigs`, `eglChooseConfig`, `eglQueryDevicesEXT`):
/// with `array` NULL only the count is returned; otherwise at most `size` entries are written and
/// the count is of those written. `count` NULL is `EGL_BAD_PARAMETER`.
///
/// # Safety
/// `array` is NULL or valid for `size` writes; `count` is NULL or valid for one write.
pub(crate) unsafe fn fill_array(
    items: &[u64],
    array: *mut *mut c_void,
    size: EGLint,
    count: *mut EGLint,
) -> EglResult<()> {
    if count.is_null() {
        return fail(EglError::BAD_PARAMETER);
    }
    let written = if array.is_null() {
        items.len()
    } else {
        let n = items.len().min(usize::try_from(size).unwrap_or(0));
        for (i, &item) in items.iter().take(n).enumerate() {
            // SAFETY: `i < size`, and the caller guarantees `size` writable entries.
            unsafe { array.add(i).write_unaligned(to_ptr(item)) };
        }
        n
    };
    // The model's lists are a few dozen entries, far below `EGLint::MAX`.
    let written = EGLint::try_from(written).unwrap_or(EGLint::MAX);
    // SAFETY: `count` is non-NULL and the caller guarantees it is valid for one write.
    unsafe { write_out(count, written) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attrib_list_stops_at_the_terminator_key_not_a_terminator_value() {
        let list = [0x3024, EGL_NONE, 0x3025, 8, EGL_NONE, 99];
        // SAFETY: the list is terminated.
        let words = unsafe { attrib_list(list.as_ptr()) };
        assert_eq!(words, &list[..5]);
        // SAFETY: NULL is allowed.
        assert!(unsafe { attrib_list::<EGLint>(std::ptr::null()) }.is_empty());
    }

    #[test]
    fn unterminated_attrib_list_is_bounded() {
        let list = vec![0x3024; MAX_ATTRIB_WORDS + 10];
        // SAFETY: more than `MAX_ATTRIB_WORDS + 2` readable words.
        let words = unsafe { attrib_list(list.as_ptr()) };
        assert_eq!(words.len(), MAX_ATTRIB_WORDS + 2);
    }

    #[test]
    fn handles_round_trip_through_pointers() {
        let word = 0x0300_0001_0000_0007;
        assert_eq!(to_word(to_ptr(word)), word);
    }
}
