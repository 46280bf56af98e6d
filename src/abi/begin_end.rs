//! Which GL commands may run between `glBegin` and `glEnd` (GL 2.1 §2.6.3): "all versions of
//! Vertex, Color, SecondaryColor, Index, Normal, TexCoord and MultiTexCoord, VertexAttrib,
//! FogCoord, ArrayElement, EvalCoord and EvalPoint, Material, and EdgeFlag", and CallList(s).
//! Any other command there sets `GL_INVALID_OPERATION` and is ignored.
//!
//! Design decisions:
//! - Decided by the entry point's name at compile time ([`allowed`] is a `const fn`), so the
//!   per-call cost is one thread-local write (the entry point says what it is) and one read in
//!   the shared `gl` wrapper, which holds the context and refuses the command there.
//! - `glBegin`/`glEnd` themselves pass: their own checks answer a nested `glBegin` or a stray
//!   `glEnd`. `glGetError` passes too, so an application can still read the error it made.
//! - Core-profile contexts never have an open `glBegin`, so nothing changes for them.

use std::cell::Cell;

thread_local! {
    /// Whether the entry point running on this thread may run inside `glBegin`/`glEnd`.
    static ALLOWED: Cell<bool> = const { Cell::new(true) };
}

const fn starts_with(name: &[u8], prefix: &[u8]) -> bool {
    if prefix.len() > name.len() {
        return false;
    }
    let mut i = 0;
    while i < prefix.len() {
        if name[i] != prefix[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn contains(name: &[u8], part: &[u8]) -> bool {
    let mut at = 0;
    while at + part.len() <= name.len() {
        let mut i = 0;
        while i < part.len() && name[at + i] == part[i] {
            i += 1;
        }
        if i == part.len() {
            return true;
        }
        at += 1;
    }
    false
}

/// Whether GL allows the command `name` between `glBegin` and `glEnd`.
pub(crate) const fn allowed(name: &str) -> bool {
    let n = name.as_bytes();
    const EXACT: [&[u8]; 6] = [
        b"glBegin",
        b"glEnd",
        b"glGetError",
        b"glArrayElement",
        b"glCallList",
        b"glCallLists",
    ];
    let mut i = 0;
    while i < EXACT.len() {
        let e = EXACT[i];
        if n.len() == e.len() && starts_with(n, e) {
            return true;
        }
        i += 1;
    }
    // Array, mask and state commands that share a prefix with the per-vertex ones.
    const NOT: [&[u8]; 9] = [
        b"glVertexArray",
        b"glVertexAttribDivisor",
        b"glVertexAttribBinding",
        b"glVertexAttribFormat",
        b"glVertexAttribIFormat",
        b"glVertexAttribLFormat",
        b"glVertexBinding",
        b"glColorMask",
        b"glColorMaterial",
    ];
    if contains(n, b"Pointer") || contains(n, b"Mask") {
        return false;
    }
    i = 0;
    while i < NOT.len() {
        if starts_with(n, NOT[i]) {
            return false;
        }
        i += 1;
    }
    const PREFIXES: [&[u8]; 12] = [
        b"glVertex",
        b"glColor",
        b"glSecondaryColor",
        b"glIndex",
        b"glNormal",
        b"glTexCoord",
        b"glMultiTexCoord",
        b"glFogCoord",
        b"glEvalCoord",
        b"glEvalPoint",
        b"glMaterial",
        b"glEdgeFlag",
    ];
    i = 0;
    while i < PREFIXES.len() {
        if starts_with(n, PREFIXES[i]) {
            return true;
        }
        i += 1;
    }
    false
}

/// Called first by every entry point: whether it may run inside `glBegin`/`glEnd`.
#[inline]
pub(crate) fn entering(allowed: bool) {
    let _ = ALLOWED.try_with(|a| a.set(allowed));
}

/// Whether the running entry point may run inside `glBegin`/`glEnd`.
#[inline]
pub(crate) fn current_allowed() -> bool {
    ALLOWED.try_with(Cell::get).unwrap_or(true)
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn per_vertex_commands_pass_and_the_rest_do_not() {
        for name in [
            "glVertex3f",
            "glVertexAttrib4fv",
            "glVertexAttribI4i",
            "glColor4ub",
            "glSecondaryColor3f",
            "glNormal3fv",
            "glTexCoord2f",
            "glMultiTexCoord2fARB",
            "glFogCoordf",
            "glMaterialfv",
            "glEdgeFlag",
            "glArrayElement",
            "glCallLists",
            "glEnd",
        ] {
            assert!(allowed(name), "{name}");
        }
        for name in [
            "glVertexPointer",
            "glVertexAttribPointer",
            "glVertexAttribDivisor",
            "glColorMask",
            "glColorMaski",
            "glColorMaterial",
            "glIndexMask",
            "glEdgeFlagPointer",
            "glGetActiveUniform",
            "glClear",
            "glEnable",
            "glLightfv",
            "glGetString",
            "glCallListsX",
        ] {
            assert!(!allowed(name), "{name}");
        }
    }
}
