//! Attribute lists: `key, value, ..., EGL_NONE` arrays from the application.
//!
//! The C ABI turns the pointer into a slice (empty for NULL) bounded by [`MAX_ATTRIB_WORDS`]; this
//! module never trusts the contents: it stops at the first `EGL_NONE` key, rejects a key without a
//! value and lists longer than the bound with `EGL_BAD_ATTRIBUTE`, and leaves the meaning of each
//! key to the caller, which rejects unknown keys.

use crate::egl::{EGLAttrib, EGLint, EGL_NONE};
use crate::error::{EglError, EglResult};

/// The most words (keys and values) an attribute list may hold before its `EGL_NONE`. Real lists
/// hold a few dozen; the bound keeps a missing terminator from walking memory forever.
pub const MAX_ATTRIB_WORDS: usize = 512;

/// An element type of an attribute list: `EGLint` or `EGLAttrib`.
pub trait AttribWord: Copy {
    /// The word widened to 64 bits.
    fn to_i64(self) -> i64;
}

impl AttribWord for EGLint {
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
}

impl AttribWord for EGLAttrib {
    fn to_i64(self) -> i64 {
        self as i64
    }
}

/// The `(key, value)` pairs before the terminator, in order (later duplicates override earlier
/// ones when the caller folds them). A list that ends without `EGL_NONE` ends at the slice's end.
pub(crate) fn pairs<T: AttribWord>(list: &[T]) -> EglResult<Vec<(EGLint, EGLint)>> {
    let mut out = Vec::new();
    let mut words = list.iter().map(|w| w.to_i64());
    let mut consumed = 0usize;
    while let Some(key) = words.next() {
        if key == i64::from(EGL_NONE) {
            return Ok(out);
        }
        consumed += 2;
        if consumed > MAX_ATTRIB_WORDS {
            return Err(EglError::BAD_ATTRIBUTE);
        }
        let value = words.next().ok_or(EglError::BAD_ATTRIBUTE)?;
        let key = EGLint::try_from(key).map_err(|_| EglError::BAD_ATTRIBUTE)?;
        let value = EGLint::try_from(value).map_err(|_| EglError::BAD_ATTRIBUTE)?;
        out.push((key, value));
    }
    Ok(out)
}

/// An `EGL_TRUE`/`EGL_FALSE` value, anything else being `EGL_BAD_ATTRIBUTE`.
pub(crate) fn boolean(value: EGLint) -> EglResult<bool> {
    match value {
        crate::egl::EGL_TRUE => Ok(true),
        crate::egl::EGL_FALSE => Ok(false),
        _ => Err(EglError::BAD_ATTRIBUTE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_at_none_and_ignores_what_follows() {
        let list = [1, 2, EGL_NONE, 3];
        assert_eq!(pairs(&list).unwrap(), vec![(1, 2)]);
        assert_eq!(pairs::<EGLint>(&[]).unwrap(), vec![]);
    }

    #[test]
    fn key_without_value_and_overlong_lists_are_bad_attributes() {
        assert_eq!(pairs(&[1]), Err(EglError::BAD_ATTRIBUTE));
        let long = vec![0x3024; MAX_ATTRIB_WORDS + 2];
        assert_eq!(pairs(&long), Err(EglError::BAD_ATTRIBUTE));
        let just_fits = vec![0x3024; MAX_ATTRIB_WORDS];
        assert_eq!(pairs(&just_fits).map(|p| p.len()), Ok(MAX_ATTRIB_WORDS / 2));
    }

    #[test]
    fn wide_values_that_do_not_fit_an_eglint_are_rejected() {
        let list: [EGLAttrib; 3] = [0x3024, isize::MAX, EGL_NONE as EGLAttrib];
        assert_eq!(pairs(&list), Err(EglError::BAD_ATTRIBUTE));
    }
}
