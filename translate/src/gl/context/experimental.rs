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
        "GL_ARB_gl_spirv",
        "SPIR-V atomic counters, samplers inside loose uniform structs",
    ),
    ("GL_ARB_spirv_extensions", "offered with GL_ARB_gl_spirv"),
];

/// Removes from `extensions` the incomplete ones the environment does not ask for.
pub(crate) fn filter(extensions: &mut Vec<&'static str>) {
    let asked = std::env::var("ARENAGL_EXPERIMENTAL").unwrap_or_default();
    filter_with(extensions, &asked);
}

/// Whether `ARENAGL_EXPERIMENTAL` names `name` itself (`all` does not count). The OpenGL ES
/// version rule reads it: a desktop extension named there counts as offered for that rule
/// (`es_version`), so an ES version whose only gap is that extension can be tried.
pub(crate) fn named(name: &str) -> bool {
    let asked = std::env::var("ARENAGL_EXPERIMENTAL").unwrap_or_default();
    asked.split(',').map(str::trim).any(|a| a == name)
}

fn names(asked: &str, name: &str) -> bool {
    asked
        .split(',')
        .map(str::trim)
        .any(|a| a == "all" || a == name)
}

fn filter_with(extensions: &mut Vec<&'static str>, asked: &str) {
    extensions.retain(|e| {
        let incomplete = INCOMPLETE.iter().any(|(name, _)| name == e);
        !incomplete || names(asked, e)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incomplete_extensions_are_offered_only_when_asked_for() {
        let Some(&(incomplete, _)) = INCOMPLETE.first() else {
            return;
        };
        let all = || vec![incomplete, "GL_KHR_debug"];
        let mut e = all();
        filter_with(&mut e, "");
        assert_eq!(e, ["GL_KHR_debug"]);
        let mut e = all();
        filter_with(&mut e, incomplete);
        assert_eq!(e, all());
        let mut e = all();
        filter_with(&mut e, "all");
        assert_eq!(e, all());
    }
}
