//! Extensions whose implementation is not complete yet, and the switch that offers them anyway.
//!
//! Design decisions:
//! - A context advertises an extension only when it works. Work that has landed but still lacks
//!   part of its extension stays off the extension list (and so out of the version rule,
//!   `version.rs`), whatever the device supports; its entry points exist and answer as
//!   specified for what is built.
//! - `ARENAGL_EXPERIMENTAL=NAME[,NAME…]` (full extension names, or `all`) offers the listed ones
//!   where the device supports them, so conformance tests, which skip without the string, can
//!   run on what is there. It is for developers: a program must never be told to rely on it.
//! - Each entry names what is missing, so the list is also the to-do list (`docs/gl.md`).

/// Extensions built but not complete, with what each lacks.
pub(crate) const INCOMPLETE: &[(&str, &str)] = &[
    (
        "GL_ARB_direct_state_access",
        "layered glNamedFramebufferTexture",
    ),
    (
        "GL_ARB_copy_image",
        "copies between compressed and uncompressed formats",
    ),
];

/// Removes from `extensions` the incomplete ones the environment does not ask for.
pub(crate) fn filter(extensions: &mut Vec<&'static str>) {
    let asked = std::env::var("ARENAGL_EXPERIMENTAL").unwrap_or_default();
    filter_with(extensions, &asked);
}

fn filter_with(extensions: &mut Vec<&'static str>, asked: &str) {
    let wanted = |name: &str| {
        asked
            .split(',')
            .map(str::trim)
            .any(|a| a == "all" || a == name)
    };
    extensions.retain(|e| {
        let incomplete = INCOMPLETE.iter().any(|(name, _)| name == e);
        !incomplete || wanted(e)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incomplete_extensions_are_offered_only_when_asked_for() {
        let all = || {
            vec![
                "GL_ARB_copy_image",
                "GL_KHR_debug",
                "GL_ARB_direct_state_access",
            ]
        };
        let mut e = all();
        filter_with(&mut e, "");
        assert_eq!(e, ["GL_KHR_debug"]);
        let mut e = all();
        filter_with(&mut e, "GL_ARB_copy_image");
        assert_eq!(e, ["GL_ARB_copy_image", "GL_KHR_debug"]);
        let mut e = all();
        filter_with(&mut e, "all");
        assert_eq!(e, all());
    }
}
