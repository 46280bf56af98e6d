//! NUL-terminated copies of the model's `eglQueryString` answers, as `static`s, so the pointers
//! handed to C stay valid forever and the text has one source (`arenagl_present`'s constants).

use std::ffi::{c_char, CStr};

use arenagl_present::{CLIENT_APIS, CLIENT_EXTENSIONS, EXTENSIONS, VENDOR, VERSION};

/// `s` followed by a NUL; `N` must be `s.len() + 1` and `s` must hold no NUL (checked at compile
/// time, since every use initialises a `static`).
const fn nul_terminated<const N: usize>(s: &str) -> [u8; N] {
    let bytes = s.as_bytes();
    assert!(bytes.len() + 1 == N, "length mismatch");
    let mut out = [0u8; N];
    let mut i = 0;
    while i < bytes.len() {
        assert!(bytes[i] != 0, "interior NUL");
        out[i] = bytes[i];
        i += 1;
    }
    out
}

macro_rules! c_static {
    ($name:ident = $s:expr) => {
        static $name: [u8; $s.len() + 1] = nul_terminated::<{ $s.len() + 1 }>($s);
    };
}

c_static!(VENDOR_C = VENDOR);
c_static!(VERSION_C = VERSION);
c_static!(CLIENT_APIS_C = CLIENT_APIS);
c_static!(EXTENSIONS_C = EXTENSIONS);
c_static!(CLIENT_EXTENSIONS_C = CLIENT_EXTENSIONS);

/// Every string `Egl::query_string` can answer, with its C copy.
static TABLE: [(&str, &[u8]); 5] = [
    (VENDOR, &VENDOR_C),
    (VERSION, &VERSION_C),
    (CLIENT_APIS, &CLIENT_APIS_C),
    (EXTENSIONS, &EXTENSIONS_C),
    (CLIENT_EXTENSIONS, &CLIENT_EXTENSIONS_C),
];

/// The static C string equal to `s`, if the table has it.
pub(crate) fn c_str(s: &str) -> Option<*const c_char> {
    TABLE
        .iter()
        .find(|(text, _)| *text == s)
        .map(|(_, c)| c.as_ptr().cast())
}

/// `eglQueryDeviceStringEXT(EGL_EXTENSIONS)`: the device has no extensions of its own.
pub(crate) static EMPTY: &CStr = c"";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_its_text_plus_one_nul() {
        for (text, c) in TABLE {
            let c = CStr::from_bytes_with_nul(c).unwrap();
            assert_eq!(c.to_str().unwrap(), text);
        }
    }
}
