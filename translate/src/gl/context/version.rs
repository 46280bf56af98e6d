//! Which desktop GL version a context reports, derived from what it offers.
//!
//! Design decisions:
//! - A version is claimed only when every feature the GL specification adds in it is offered:
//!   each GL 4.x version is the ARB extensions it promoted to core, so the version follows from
//!   the context's own extension list (built from the device's features), never from a table of
//!   its own. A device that lacks one feature (say `tessellationShader`) gets the highest version
//!   it completes, and still every extension it has.
//! - The GLSL version goes with it (GL 4.0 ↔ GLSL 4.00), so the compiler accepts exactly the
//!   `#version`s the context reports (`glsl::version`).

use super::Context;

impl Context {
    /// The desktop GL version this context reports (read back from its `GL_VERSION`).
    pub(crate) fn desktop_version(&self) -> (u32, u32) {
        let text = self.strings.version.to_str().unwrap_or("");
        let mut parts = text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .split('.')
            .map(|n| n.parse().unwrap_or(0));
        (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
    }
}

/// The extensions GL 4.0 promoted to core (OpenGL 4.0 specification, appendix "Version 4.0").
const GL_4_0: &[&str] = &[
    "GL_ARB_draw_buffers_blend",
    "GL_ARB_draw_indirect",
    "GL_ARB_gpu_shader5",
    "GL_ARB_gpu_shader_fp64",
    "GL_ARB_sample_shading",
    "GL_ARB_shader_subroutine",
    "GL_ARB_tessellation_shader",
    "GL_ARB_texture_buffer_object_rgb32",
    "GL_ARB_texture_cube_map_array",
    "GL_ARB_texture_gather",
    "GL_ARB_texture_query_lod",
    "GL_ARB_transform_feedback2",
    "GL_ARB_transform_feedback3",
];

/// The GL version (major, minor) a context with `extensions` reports: 4.0 when it offers all of
/// GL 4.0, otherwise 3.3 (which every context here completes).
pub(crate) fn desktop(extensions: &[&str]) -> (u32, u32) {
    if GL_4_0.iter().all(|e| extensions.contains(e)) {
        (4, 0)
    } else {
        (3, 3)
    }
}

/// `GL_VERSION` for `version` and the profile's name.
pub(crate) fn version_string((major, minor): (u32, u32), profile: &str) -> String {
    format!("{major}.{minor} ({profile} Profile) ArenaGL 0.1")
}

/// `GL_SHADING_LANGUAGE_VERSION` for a desktop GL version (3.3 → "3.30", 4.0 → "4.00").
pub(crate) fn glsl_string((major, minor): (u32, u32)) -> String {
    format!("{major}.{minor}0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_needs_every_extension_it_promoted() {
        assert_eq!(desktop(GL_4_0), (4, 0));
        let all_but_one = &GL_4_0[1..];
        assert_eq!(desktop(all_but_one), (3, 3));
        assert_eq!(desktop(&[]), (3, 3));
        assert_eq!(glsl_string((4, 0)), "4.00");
        assert_eq!(glsl_string((3, 3)), "3.30");
        assert_eq!(
            version_string((4, 0), "Core"),
            "4.0 (Core Profile) ArenaGL 0.1"
        );
    }
}
