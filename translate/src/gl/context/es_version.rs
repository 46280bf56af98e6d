//! Which OpenGL ES 3.x version an ES 3 context reports, derived from what the device offers:
//! the ES counterpart of `version`'s desktop rule.
//!
//! Design decisions:
//! - A version is claimed only when every feature it adds is offered. Each ES 3.1/3.2 feature
//!   is a desktop path ArenaGL already has under its ARB/KHR extension name, so the rule reads
//!   the desktop extension list a context on the same device builds (`Context::new`) and needs
//!   every name below: a device or a build without one stays at the version below, and the
//!   version switches on by itself when the missing path lands.
//! - ES 3.2 also needs its ES side: every ES 3.1 extension it folded in offered by an ES 3.1
//!   context on the device (`ES_3_2_FOLDED`, from `es::es_strings`), so a desktop path whose ES
//!   entry points, enums or GLSL ES are missing keeps the claim off.
//! - EGL asks for a version; the context gets the highest ES 3.x it completes (EGL 1.5 §3.7.1:
//!   any version backwards compatible with the one requested). A request above that version is
//!   `EGL_BAD_MATCH` (`offers`).
//! - The GLSL ES version goes with it (ES 3.1 ↔ GLSL ES 3.10).

/// What OpenGL ES 3.0 adds to 2.0 that a device may lack, as the desktop extension that
/// implements it: transform feedback (`GL_ARB_ES3_compatibility` is offered only with it). The
/// rest (integer textures, instancing, uniform blocks, 4 draw buffers, …) every device has.
const ES_3_0: &[&str] = &["GL_ARB_ES3_compatibility"];

/// Whether a device whose desktop contexts offer `desktop` completes OpenGL ES 3.0 (without it,
/// ES 2.0 is the only ES version, as the device gives no ES 3.0 feature it lacks).
pub(crate) fn es3_offered(desktop: &[&str]) -> bool {
    ES_3_0.iter().all(|n| desktop.contains(n))
}

/// What OpenGL ES 3.1 adds to 3.0, as the desktop extensions that implement it (OpenGL ES 3.1
/// specification, appendix "Version 3.1": compute shaders, storage buffers, images, atomic
/// counters, indirect draws, multisample textures, stencil texturing, separate shader objects,
/// program interface queries, vertex attribute binding, framebuffers without attachments,
/// explicit uniform locations, GLSL ES 3.10's packing, gather and image sizes). GLSL ES 3.10's
/// arrays of arrays need no desktop name: glslang compiles them in every `#version 310 es`
/// unit, and reflection reads them as it does in desktop GLSL 4.30 (`GL_ARB_arrays_of_arrays`
/// is the desktop rule for GLSL below 4.30). Its atomic counter functions are lowered before
/// glslang (`glsl::es_counters`).
const ES_3_1: &[&str] = &[
    "GL_ARB_compute_shader",
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shader_image_load_store",
    "GL_ARB_shader_atomic_counters",
    "GL_ARB_shader_image_size",
    "GL_ARB_draw_indirect",
    "GL_ARB_texture_multisample",
    "GL_ARB_texture_storage_multisample",
    "GL_ARB_stencil_texturing",
    "GL_ARB_separate_shader_objects",
    "GL_ARB_program_interface_query",
    "GL_ARB_vertex_attrib_binding",
    "GL_ARB_framebuffer_no_attachments",
    "GL_ARB_explicit_uniform_location",
    "GL_ARB_shading_language_packing",
    "GL_ARB_texture_gather",
];

/// What OpenGL ES 3.2 adds to 3.1 (OpenGL ES 3.2 specification, appendix "Version 3.2": the
/// Android extension pack — geometry and tessellation shaders, gpu_shader5, sample shading and
/// multisample interpolation, texture buffers and cube map arrays, per-draw-buffer blending,
/// advanced blend equations, ASTC LDR, stencil textures — and KHR_debug, robustness, copy
/// image, base-vertex draws and border clamp).
const ES_3_2: &[&str] = &[
    "GL_ARB_tessellation_shader",
    "GL_ARB_gpu_shader5",
    "GL_ARB_sample_shading",
    "GL_ARB_texture_buffer_range",
    "GL_ARB_texture_cube_map_array",
    "GL_ARB_draw_buffers_blend",
    "GL_ARB_draw_elements_base_vertex",
    "GL_ARB_copy_image",
    "GL_ARB_texture_border_clamp",
    "GL_KHR_debug",
    "GL_KHR_robustness",
    "GL_KHR_blend_equation_advanced",
    "GL_KHR_texture_compression_astc_ldr",
    "GL_ARB_texture_stencil8",
];

/// The ES 3.1 extensions OpenGL ES 3.2 folded into core (OpenGL ES 3.2 specification, appendix
/// "Version 3.2"), as an ES 3.1 context on the device must offer them (`es::es_strings`): the
/// ES side of [`ES_3_2`]. A desktop path alone does not make ES 3.2: its ES entry points,
/// enums and GLSL ES (`#extension`, the 3.20 built-ins such as `gl_BoundingBox`) must be there
/// too, which an ES context offers each extension only with.
const ES_3_2_FOLDED: &[&str] = &[
    "GL_EXT_geometry_shader",
    "GL_EXT_tessellation_shader",
    "GL_EXT_gpu_shader5",
    "GL_EXT_shader_io_blocks",
    "GL_EXT_primitive_bounding_box",
    "GL_EXT_texture_buffer",
    "GL_EXT_texture_cube_map_array",
    "GL_EXT_texture_border_clamp",
    "GL_EXT_draw_buffers_indexed",
    "GL_EXT_draw_elements_base_vertex",
    "GL_EXT_copy_image",
    "GL_EXT_color_buffer_float",
    "GL_OES_sample_shading",
    "GL_OES_sample_variables",
    "GL_OES_shader_multisample_interpolation",
    "GL_OES_shader_image_atomic",
    "GL_OES_texture_stencil8",
    "GL_OES_texture_storage_multisample_2d_array",
    "GL_KHR_debug",
    "GL_KHR_robustness",
    "GL_KHR_blend_equation_advanced",
    "GL_KHR_texture_compression_astc_ldr",
];

/// The ES 3.x minor version a context on a device whose desktop contexts offer `desktop`, and
/// whose ES 3.1 contexts would offer the ES extensions `es31`, reports: 2 when it has all of
/// 3.1 and 3.2 (the desktop paths and [`ES_3_2_FOLDED`]), 1 with all of 3.1, else 0. Geometry
/// shaders (ES 3.2) are in every desktop context here (GL 3.2 core), so they need no desktop
/// name.
pub(crate) fn es3_minor(desktop: &[&str], es31: &[&str]) -> u32 {
    let all = |names: &[&str], list: &[&str]| names.iter().all(|n| list.contains(n));
    let es3_2 = all(ES_3_2, desktop) && all(ES_3_2_FOLDED, es31);
    match (all(ES_3_1, desktop), es3_2) {
        (true, true) => 2,
        (true, false) => 1,
        _ => 0,
    }
}

/// The names of [`ES_3_1`] and [`ES_3_2`] that `ARENAGL_EXPERIMENTAL` names: counted as
/// offered by the ES rule, so a developer can try an ES version whose only gaps are desktop
/// extensions still being built (`experimental`).
pub(crate) fn named_experimental() -> impl Iterator<Item = &'static str> {
    (ES_3_1.iter().chain(ES_3_2))
        .copied()
        .filter(|name| crate::gl::context::experimental::named(name))
}

/// The ES version a context made for a request of `requested` reports, or None when the
/// device cannot offer it: 2.0 for 2.0, the highest 3.x for any 3.x request (`minor_offered`
/// from [`es3_minor`]).
pub(crate) fn offers(requested: (u32, u32), minor_offered: u32) -> Option<(u32, u32)> {
    match requested {
        (2, 0) => Some((2, 0)),
        (3, minor) if minor <= minor_offered => Some((3, minor_offered)),
        _ => None,
    }
}

/// `GL_SHADING_LANGUAGE_VERSION`'s number for ES `major.minor` (2.0 → "1.00", 3.1 → "3.10").
pub(crate) fn glsl_es(major: u32, minor: u32) -> String {
    if major >= 3 {
        format!("{major}.{minor}0")
    } else {
        "1.00".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_needs_every_feature_it_adds() {
        let es = ES_3_2_FOLDED;
        assert_eq!(es3_minor(&[], es), 0);
        assert_eq!(es3_minor(ES_3_1, es), 1);
        assert_eq!(es3_minor(&ES_3_1[1..], es), 0);
        let both: Vec<&str> = ES_3_1.iter().chain(ES_3_2).copied().collect();
        assert_eq!(es3_minor(&both, es), 2);
        assert_eq!(es3_minor(&both[1..], es), 0, "3.2 needs 3.1");
        assert_eq!(es3_minor(&both[..both.len() - 1], es), 1);
        assert_eq!(es3_minor(&both, &es[1..]), 1, "3.2 needs its ES side");
    }

    #[test]
    fn every_folded_extension_is_offered_over_the_desktop_paths_of_es_3_2() {
        // An ES 3.1 context on a device with every desktop path offers the whole ES side.
        let both: Vec<&str> = ES_3_1.iter().chain(ES_3_2).copied().collect();
        let (_, _, es31) = crate::gl::context::es::es_strings(3, 1, &both);
        let missing: Vec<_> = (ES_3_2_FOLDED.iter())
            .filter(|n| !es31.contains(n))
            .collect();
        assert!(missing.is_empty(), "{missing:?}");
        assert_eq!(es3_minor(&both, &es31), 2);
    }

    #[test]
    fn es_3_0_needs_transform_feedback() {
        assert!(!es3_offered(&[]));
        assert!(es3_offered(ES_3_0));
    }

    #[test]
    fn a_request_gets_the_highest_compatible_version() {
        assert_eq!(offers((2, 0), 0), Some((2, 0)));
        assert_eq!(offers((3, 0), 0), Some((3, 0)));
        assert_eq!(offers((3, 0), 1), Some((3, 1)));
        assert_eq!(offers((3, 1), 0), None);
        assert_eq!(offers((3, 2), 1), None);
        assert_eq!(offers((3, 2), 2), Some((3, 2)));
        assert_eq!(offers((1, 1), 2), None);
        assert_eq!(glsl_es(3, 1), "3.10");
        assert_eq!(glsl_es(2, 0), "1.00");
    }
}
