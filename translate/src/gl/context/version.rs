//! Which desktop GL version a context reports, derived from what it offers.
//!
//! Design decisions:
//! - A version is claimed only when every feature the GL specification adds in it is offered:
//!   each GL 4.x version is the ARB (and KHR) extensions it promoted to core (OpenGL 4.6
//!   specification, appendices F.1–F.6), so the version follows from the context's own extension
//!   list (built from the device's features), never from a table of its own. A device that lacks
//!   one feature (say `tessellationShader`) gets the highest version it completes, and still
//!   every extension it has. Versions are a ladder: 4.2 is claimed only over a complete 4.1.
//! - A version's minimum limits are part of it: GL 4.0 raises the combined texture units to 80
//!   and uniform blocks to 60 (`limits::ShaderLimits::reach_gl_4_0`), so a device whose
//!   descriptor sets cannot hold them reports 3.3 whatever its extensions.
//! - The GLSL version goes with it (GL 4.x ↔ GLSL 4.x0), so the compiler accepts exactly the
//!   `#version`s the context reports (`glsl::version`), and `glGetStringi(
//!   GL_SHADING_LANGUAGE_VERSION, i)` lists them ([`glsl_versions`]).

use super::Context;
use crate::gl::vk::device::Device;

impl Context {
    /// The desktop GL version this context reports (read back from its `GL_VERSION`).
    pub fn desktop_version(&self) -> (u32, u32) {
        let text = self.strings.version.to_str().unwrap_or("");
        let mut parts = text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .split('.')
            .map(|n| n.parse().unwrap_or(0));
        (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
    }

    /// The highest desktop `#version` this context compiles (330, 400, 410, …).
    pub(crate) fn glsl_ceiling(&self) -> u32 {
        glsl_number(self.desktop_version())
    }
}

/// The extensions GL 4.0 promoted to core (appendix F.6, "Version 4.0").
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

/// GL 4.1 (appendix F.5).
const GL_4_1: &[&str] = &[
    "GL_ARB_ES2_compatibility",
    "GL_ARB_get_program_binary",
    "GL_ARB_separate_shader_objects",
    "GL_ARB_shader_precision",
    "GL_ARB_vertex_attrib_64bit",
    "GL_ARB_viewport_array",
];

/// GL 4.2 (appendix F.4).
const GL_4_2: &[&str] = &[
    "GL_ARB_base_instance",
    "GL_ARB_compressed_texture_pixel_storage",
    "GL_ARB_conservative_depth",
    "GL_ARB_internalformat_query",
    "GL_ARB_map_buffer_alignment",
    "GL_ARB_shader_atomic_counters",
    "GL_ARB_shader_image_load_store",
    "GL_ARB_shading_language_420pack",
    "GL_ARB_shading_language_packing",
    "GL_ARB_texture_compression_bptc",
    "GL_ARB_texture_storage",
    "GL_ARB_transform_feedback_instanced",
];

/// GL 4.3 (appendix F.3).
const GL_4_3: &[&str] = &[
    "GL_ARB_arrays_of_arrays",
    "GL_ARB_clear_buffer_object",
    "GL_ARB_compute_shader",
    "GL_ARB_copy_image",
    "GL_ARB_ES3_compatibility",
    "GL_ARB_explicit_uniform_location",
    "GL_ARB_fragment_layer_viewport",
    "GL_ARB_framebuffer_no_attachments",
    "GL_ARB_internalformat_query2",
    "GL_ARB_invalidate_subdata",
    "GL_ARB_multi_draw_indirect",
    "GL_ARB_program_interface_query",
    "GL_ARB_robust_buffer_access_behavior",
    "GL_ARB_shader_image_size",
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_stencil_texturing",
    "GL_ARB_texture_buffer_range",
    "GL_ARB_texture_query_levels",
    "GL_ARB_texture_storage_multisample",
    "GL_ARB_texture_view",
    "GL_ARB_vertex_attrib_binding",
    "GL_KHR_debug",
];

/// GL 4.4 (appendix F.2).
const GL_4_4: &[&str] = &[
    "GL_ARB_buffer_storage",
    "GL_ARB_clear_texture",
    "GL_ARB_enhanced_layouts",
    "GL_ARB_multi_bind",
    "GL_ARB_query_buffer_object",
    "GL_ARB_texture_mirror_clamp_to_edge",
    "GL_ARB_texture_stencil8",
    "GL_ARB_vertex_type_10f_11f_11f_rev",
];

/// GL 4.5 (appendix F.1).
const GL_4_5: &[&str] = &[
    "GL_ARB_clip_control",
    "GL_ARB_conditional_render_inverted",
    "GL_ARB_cull_distance",
    "GL_ARB_derivative_control",
    "GL_ARB_direct_state_access",
    "GL_ARB_ES3_1_compatibility",
    "GL_ARB_get_texture_sub_image",
    "GL_ARB_shader_texture_image_samples",
    "GL_ARB_texture_barrier",
    "GL_KHR_context_flush_control",
    "GL_KHR_robustness",
];

/// GL 4.6 (appendix F, "Version 4.6").
const GL_4_6: &[&str] = &[
    "GL_ARB_gl_spirv",
    "GL_ARB_indirect_parameters",
    "GL_ARB_pipeline_statistics_query",
    "GL_ARB_polygon_offset_clamp",
    "GL_ARB_shader_atomic_counter_ops",
    "GL_ARB_shader_draw_parameters",
    "GL_ARB_shader_group_vote",
    "GL_ARB_spirv_extensions",
    "GL_ARB_texture_filter_anisotropic",
    "GL_ARB_transform_feedback_overflow_query",
    "GL_KHR_no_error",
];

/// Each GL 4.x version and what it promoted, in order.
const LADDER: [((u32, u32), &[&str]); 7] = [
    ((4, 0), GL_4_0),
    ((4, 1), GL_4_1),
    ((4, 2), GL_4_2),
    ((4, 3), GL_4_3),
    ((4, 4), GL_4_4),
    ((4, 5), GL_4_5),
    ((4, 6), GL_4_6),
];

/// Whether a device (and the extensions a context on it offers) has one feature.
type Has = fn(&Device, &[&str]) -> bool;

/// A version and the features it adds, each named, with how to tell whether a device has it.
type Rung = ((u32, u32), &'static [(&'static str, Has)]);

/// What GL 3.0–3.3 add that a Vulkan device may lack (OpenGL 3.3 specification, appendices
/// G–J), each with the device feature, limit or format support it takes. The rest of what they
/// add (integer and float textures, instancing, UBOs, sampler objects, base-vertex draws, …)
/// is in Vulkan 1.1's core, or emulated where it is not (byte indices are widened, instance
/// divisors above 1 computed in the shader), so it needs no check. GL 2.1 is the floor: every
/// device ArenaGL opens completes it.
const BELOW_4: [Rung; 4] = [
    (
        (3, 0),
        &[
            ("transform feedback", |_, e| {
                e.contains(&"GL_EXT_transform_feedback")
            }),
            ("8 draw buffers", |d, _| {
                d.caps().limits.max_color_attachments >= 8
            }),
        ],
    ),
    (
        (3, 1),
        &[("buffer textures", |d, _| texture_buffer_formats(d))],
    ),
    (
        (3, 2),
        &[
            ("geometry shaders", |d, _| d.caps().geometry_shader),
            ("depth clamp", |_, e| e.contains(&"GL_ARB_depth_clamp")),
            ("provoking vertex", |_, e| {
                e.contains(&"GL_ARB_provoking_vertex")
            }),
        ],
    ),
    (
        (3, 3),
        &[
            ("dual-source blending", |_, e| {
                e.contains(&"GL_ARB_blend_func_extended")
            }),
            ("timer queries", |d, _| d.caps().timestamp_bits > 0),
        ],
    ),
];

/// GL 3.1's buffer textures: every format of the buffer-texture table but the three-component
/// ones (GL 4.0's `GL_ARB_texture_buffer_object_rgb32`) sampled from texel buffers.
fn texture_buffer_formats(device: &Device) -> bool {
    let locked = device.lock();
    (0x8000..0x9000)
        .filter_map(crate::gl::objects::texture::buffer::buffer_format)
        .filter(|&(_, texel)| texel != 12)
        .all(|(format, _)| locked.manager.supports_texel_buffer(format))
}

/// The highest of GL 2.1–3.3 whose features (and every lower version's, [`BELOW_4`]) `device`
/// and the `extensions` of a context on it have.
pub(crate) fn below_4(device: &Device, extensions: &[&str]) -> (u32, u32) {
    BELOW_4
        .iter()
        .take_while(|(_, features)| features.iter().all(|(_, has)| has(device, extensions)))
        .last()
        .map_or((2, 1), |(version, _)| *version)
}

/// The GL version (major, minor) a context with `extensions` reports, given the highest of
/// GL 2.1–3.3 its device completes (`below_4`, [`below_4`]) and whether its shader limits reach
/// GL 4.0's (`limits_reach_4_0`): below 3.3 that version; else the highest 4.x whose promoted
/// extensions, and every lower version's, are all offered; otherwise 3.3.
pub(crate) fn desktop(
    extensions: &[&str],
    below_4: (u32, u32),
    limits_reach_4_0: bool,
) -> (u32, u32) {
    if below_4 < (3, 3) || !limits_reach_4_0 {
        return below_4;
    }
    LADDER
        .iter()
        .take_while(|(_, promoted)| promoted.iter().all(|e| extensions.contains(e)))
        .last()
        .map_or((3, 3), |(version, _)| *version)
}

/// `GL_VERSION` for `version` and the profile's name (GL 3.2 introduced profiles: none is
/// named below it).
pub(crate) fn version_string((major, minor): (u32, u32), profile: &str) -> String {
    if (major, minor) < (3, 2) {
        return format!("{major}.{minor} ArenaGL 0.1");
    }
    format!("{major}.{minor} ({profile} Profile) ArenaGL 0.1")
}

/// `GL_SHADING_LANGUAGE_VERSION` for a desktop GL version (2.1 → "1.20", 3.3 → "3.30").
pub(crate) fn glsl_string(version: (u32, u32)) -> String {
    let n = glsl_number(version);
    format!("{}.{:02}", n / 100, n % 100)
}

/// The `#version` number of a desktop GL version's GLSL (2.1 → 120, 3.2 → 150, 3.3 → 330,
/// 4.5 → 450: GLSL numbers follow GL's from 3.3).
pub(crate) fn glsl_number((major, minor): (u32, u32)) -> u32 {
    match (major, minor) {
        (2, m) => 110 + m * 10,
        (3, m) if m < 3 => 130 + m * 10,
        _ => major * 100 + minor * 10,
    }
}

/// What `glGetStringi(GL_SHADING_LANGUAGE_VERSION, i)` lists for a desktop GL version: every
/// desktop `#version` it compiles, newest first, then the GLSL ES ones a desktop context takes
/// (`glsl::version::offered_by_gl`, and 3.00 ES, which takes the ES path:
/// `objects::program::link::for_profile`), then "" (a unit without `#version`, GLSL 1.10).
pub(crate) fn glsl_versions(version: (u32, u32)) -> Vec<String> {
    let ceiling = glsl_number(version);
    let desktop = [
        460, 450, 440, 430, 420, 410, 400, 330, 150, 140, 130, 120, 110,
    ];
    desktop
        .iter()
        .filter(|&&v| v <= ceiling)
        .map(|v| v.to_string())
        .chain(["100", "300 es", "310 es", "320 es", ""].map(str::to_owned))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every extension of the versions up to `last` (index into the ladder).
    fn through(last: usize) -> Vec<&'static str> {
        LADDER[..=last]
            .iter()
            .flat_map(|(_, promoted)| promoted.iter().copied())
            .collect()
    }

    #[test]
    fn a_version_needs_every_extension_it_promoted() {
        assert_eq!(desktop(GL_4_0, (3, 3), true), (4, 0));
        let all_but_one = &GL_4_0[1..];
        assert_eq!(desktop(all_but_one, (3, 3), true), (3, 3));
        assert_eq!(desktop(&[], (3, 3), true), (3, 3));
        assert_eq!(glsl_string((4, 0)), "4.00");
        assert_eq!(glsl_string((3, 3)), "3.30");
        assert_eq!(
            version_string((4, 0), "Core"),
            "4.0 (Core Profile) ArenaGL 0.1"
        );
    }

    #[test]
    fn the_highest_complete_rung_is_claimed() {
        for (i, (version, _)) in LADDER.iter().enumerate() {
            assert_eq!(desktop(&through(i), (3, 3), true), *version);
        }
        // 4.2's extensions without 4.1's one missing: 4.0.
        let mut gap = through(2);
        gap.retain(|e| *e != "GL_ARB_viewport_array");
        assert_eq!(desktop(&gap, (3, 3), true), (4, 0));
    }

    #[test]
    fn limits_below_gl_4_0_keep_3_3() {
        assert_eq!(desktop(&through(6), (3, 3), false), (3, 3));
    }

    #[test]
    fn a_device_below_3_3_gets_its_own_version_whatever_its_extensions() {
        assert_eq!(desktop(&through(6), (2, 1), true), (2, 1));
        assert_eq!(desktop(&through(6), (3, 1), true), (3, 1));
        assert_eq!(glsl_string((2, 1)), "1.20");
        assert_eq!(glsl_string((3, 2)), "1.50");
        assert_eq!(version_string((2, 1), "Core"), "2.1 ArenaGL 0.1");
        assert_eq!(glsl_versions((2, 1))[0], "120");
    }

    #[test]
    fn glsl_versions_follow_the_gl_version() {
        assert_eq!(glsl_number((4, 5)), 450);
        let v = glsl_versions((4, 1));
        assert_eq!(&v[..3], ["410", "400", "330"]);
        assert!(!v.contains(&"420".to_owned()));
        assert_eq!(v.last().map(String::as_str), Some(""));
        assert_eq!(glsl_versions((3, 3))[0], "330");
    }
}
