//! GL_KHR_debug at the C edge: which command is running (for error messages), the application's
//! callback calls, and the C side of the debug commands' strings.
//!
//! Design decisions:
//! - Each entry point records its name in a thread-local (one write, like `begin_end`); the
//!   shared `gl` wrapper hands it to the context, whose error messages start with it.
//! - The callback runs after the command, once the context's lock is released, on the calling
//!   thread ([`deliver`]): a callback that calls GL (as debuggers' do) re-enters no lock, and
//!   nothing of ours is on the stack between the callback and the application's call but the
//!   entry point itself, whose panics were already caught.

use std::cell::Cell;
use std::ffi::{c_char, c_void, CStr, CString};

use arenagl_translate::gl::debug::{DebugDelivery, DebugText};

thread_local! {
    /// The GL entry point running on this thread.
    static COMMAND: Cell<&'static str> = const { Cell::new("") };
}

/// Notes that the entry point `name` runs on this thread.
pub(crate) fn entering(name: &'static str) {
    COMMAND.with(|c| c.set(name));
}

/// The entry point running on this thread.
pub(crate) fn command() -> &'static str {
    COMMAND.with(Cell::get)
}

/// Calls the application's callback for each message, in order.
pub(crate) fn deliver(calls: Vec<DebugDelivery>) {
    for call in calls {
        let m = call.message;
        let text = CString::new(m.text.replace('\0', " ")).unwrap_or_default();
        let length = text.as_bytes().len() as i32;
        // SAFETY: `callback` is the GLDEBUGPROC the application registered with
        // glDebugMessageCallback, called with that signature; `text` outlives the call.
        unsafe {
            (call.callback)(
                m.source,
                m.ty,
                m.id,
                m.severity,
                length,
                text.as_ptr(),
                call.user as *const c_void,
            )
        };
    }
}

/// A debug command's `(length, text)` pair: a negative length means NUL-terminated, and at most
/// `max` bytes are read (the context refuses a length of `max` or more). NULL is the empty text.
///
/// # Safety
/// `text` is NULL, or holds `length` bytes (a NUL-terminated string when `length` < 0).
pub(crate) unsafe fn debug_text<'a>(text: *const c_char, length: i32, max: usize) -> DebugText<'a> {
    if text.is_null() {
        return DebugText {
            length: 0,
            bytes: &[],
        };
    }
    let length = match usize::try_from(length) {
        Ok(n) => n,
        // SAFETY: a negative length promises a NUL-terminated string (the contract above).
        Err(_) => unsafe { CStr::from_ptr(text) }.to_bytes().len(),
    };
    // SAFETY: `text` holds `length` bytes; no more than that (and `max`) are read.
    let bytes = unsafe { std::slice::from_raw_parts(text.cast::<u8>(), length.min(max)) };
    DebugText { length, bytes }
}
