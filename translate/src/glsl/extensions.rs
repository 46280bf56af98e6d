//! The context's extensions, as the GLSL compiler must see them.
//!
//! GLSL defines a macro for each extension the implementation supports, and an `#extension`
//! directive naming one it does not support is an error with `require` (a warning with `enable`
//! or `warn`). glslang, though, predefines the macro of every extension it knows and accepts
//! `#extension` for all of them, whatever the GL context offers. A compile for a GL context
//! carries that context's list ([`ExtensionSet`], in `CompileOptions::extensions`) and gets:
//!
//! - A block right after the unit's `#version` ([`ExtensionSet::with_preamble`], added last, after
//!   every other rewrite): `#undef` of every extension macro glslang knows that the context does
//!   not offer, and `#define NAME 1` for every GLSL extension the context offers (glslang lacks
//!   some macros, e.g. `GL_ARB_cull_distance`, and some extensions, see [`LACKING`]). glslang
//!   refuses to (un)define a `GL_` name unless `GL_EXT_spirv_intrinsics` is on, so the block turns
//!   it on around the edits and off again, and ends in a `#line` that gives the next line its own
//!   number (`__LINE__` and log lines stay the application's). It is not glslang's preamble
//!   string: glslang copies a preamble's `#extension` directives into the preprocessed text ahead
//!   of `#version`, which its parse then refuses. Core-version and profile macros
//!   (`__VERSION__`, `GL_ES`, `GL_core_profile`, `GL_compatibility_profile`,
//!   `GL_FRAGMENT_PRECISION_HIGH`) are glslang's, untouched.
//! - The unit's `#extension` directives rewritten in place (line-neutral): an extension the
//!   context does not offer is renamed with [`UNOFFERED_EXT`] in place of `GL_`, a name glslang
//!   does not know, so glslang itself reports it (an error for `require`, a warning otherwise,
//!   and conditional blocks keep their meaning); [`unmark`] restores the name in the log. An
//!   offered extension glslang does not know ([`LACKING`]: its GLSL is lowered elsewhere or comes
//!   from the version) has its directive blanked.
//! - The directives are rewritten before ArenaGL adds directives of its own (`per_vertex`,
//!   `compute_version`), so only the application's are judged; ArenaGL's own programs compile
//!   without a list (every extension glslang knows).
//! - The table of what glslang knows is glslang's `Versions.h` (the pinned glslang-sys); a name
//!   in neither table has no GLSL and gets no macro.

use super::pp;
use super::version::{self, Number};
use std::borrow::Cow;

/// What replaces the `GL_` of an unoffered extension's name in its `#extension` directive.
pub(crate) const UNOFFERED_EXT: &str = "arena_ff_unoffered_ext_";

/// The extension glslang needs on to (un)define `GL_` macros.
const INTRINSICS: &str = "GL_EXT_spirv_intrinsics";

/// Every extension glslang's `#extension` knows (its `Versions.h`), sorted.
const GLSLANG: &[&str] = &[
    "GL_3DL_array_objects",
    "GL_AMD_gcn_shader",
    "GL_AMD_gpu_shader_half_float",
    "GL_AMD_gpu_shader_half_float_fetch",
    "GL_AMD_gpu_shader_int16",
    "GL_AMD_shader_ballot",
    "GL_AMD_shader_early_and_late_fragment_tests",
    "GL_AMD_shader_explicit_vertex_parameter",
    "GL_AMD_shader_fragment_mask",
    "GL_AMD_shader_image_load_store_lod",
    "GL_AMD_shader_trinary_minmax",
    "GL_AMD_texture_gather_bias_lod",
    "GL_ANDROID_extension_pack_es31a",
    "GL_ARB_bindless_texture",
    "GL_ARB_compute_shader",
    "GL_ARB_conservative_depth",
    "GL_ARB_derivative_control",
    "GL_ARB_draw_instanced",
    "GL_ARB_enhanced_layouts",
    "GL_ARB_explicit_attrib_location",
    "GL_ARB_explicit_uniform_location",
    "GL_ARB_fragment_coord_conventions",
    "GL_ARB_fragment_shader_interlock",
    "GL_ARB_gpu_shader5",
    "GL_ARB_gpu_shader_fp64",
    "GL_ARB_gpu_shader_int64",
    "GL_ARB_post_depth_coverage",
    "GL_ARB_sample_shading",
    "GL_ARB_separate_shader_objects",
    "GL_ARB_shader_atomic_counter_ops",
    "GL_ARB_shader_atomic_counters",
    "GL_ARB_shader_ballot",
    "GL_ARB_shader_bit_encoding",
    "GL_ARB_shader_clock",
    "GL_ARB_shader_draw_parameters",
    "GL_ARB_shader_group_vote",
    "GL_ARB_shader_image_load_store",
    "GL_ARB_shader_image_size",
    "GL_ARB_shader_stencil_export",
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shader_texture_image_samples",
    "GL_ARB_shader_texture_lod",
    "GL_ARB_shader_viewport_layer_array",
    "GL_ARB_shading_language_420pack",
    "GL_ARB_shading_language_include",
    "GL_ARB_shading_language_packing",
    "GL_ARB_sparse_texture2",
    "GL_ARB_sparse_texture_clamp",
    "GL_ARB_tessellation_shader",
    "GL_ARB_texture_cube_map_array",
    "GL_ARB_texture_gather",
    "GL_ARB_texture_multisample",
    "GL_ARB_texture_query_lod",
    "GL_ARB_texture_rectangle",
    "GL_ARB_uniform_buffer_object",
    "GL_ARB_vertex_attrib_64bit",
    "GL_ARB_viewport_array",
    "GL_ARM_shader_core_builtins",
    "GL_ARM_tensors",
    "GL_ARM_tensors_bfloat16",
    "GL_ARM_tensors_float_e4m3",
    "GL_ARM_tensors_float_e5m2",
    "GL_EXT_YUV_target",
    "GL_EXT_abort",
    "GL_EXT_bfloat16",
    "GL_EXT_blend_func_extended",
    "GL_EXT_buffer_reference",
    "GL_EXT_buffer_reference2",
    "GL_EXT_buffer_reference_uvec2",
    "GL_EXT_conservative_depth",
    "GL_EXT_control_flow_attributes",
    "GL_EXT_control_flow_attributes2",
    "GL_EXT_cooperative_matrix_maintenance1",
    "GL_EXT_debug_printf",
    "GL_EXT_demote_to_helper_invocation",
    "GL_EXT_descriptor_heap",
    "GL_EXT_device_group",
    "GL_EXT_draw_instanced",
    "GL_EXT_expect_assume",
    "GL_EXT_float_e2m1",
    "GL_EXT_float_e2m3",
    "GL_EXT_float_e3m2",
    "GL_EXT_float_e4m3",
    "GL_EXT_float_e5m2",
    "GL_EXT_float_mxint8",
    "GL_EXT_float_ue8m0",
    "GL_EXT_frag_depth",
    "GL_EXT_fragment_invocation_density",
    "GL_EXT_fragment_shader_barycentric",
    "GL_EXT_fragment_shading_rate",
    "GL_EXT_function_control_attributes",
    "GL_EXT_geometry_point_size",
    "GL_EXT_geometry_shader",
    "GL_EXT_gpu_shader5",
    "GL_EXT_integer_dot_product",
    "GL_EXT_long_vector",
    "GL_EXT_maximal_reconvergence",
    "GL_EXT_mesh_shader",
    "GL_EXT_multiview",
    "GL_EXT_nontemporal_keyword",
    "GL_EXT_nonuniform_qualifier",
    "GL_EXT_null_initializer",
    "GL_EXT_opacity_micromap",
    "GL_EXT_opacity_micromap_ray_query_mode",
    "GL_EXT_optional_input_attachment_index",
    "GL_EXT_post_depth_coverage",
    "GL_EXT_primitive_bounding_box",
    "GL_EXT_ray_cull_mask",
    "GL_EXT_ray_flags_primitive_culling",
    "GL_EXT_ray_query",
    "GL_EXT_ray_tracing",
    "GL_EXT_ray_tracing_position_fetch",
    "GL_EXT_samplerless_texture_functions",
    "GL_EXT_scalar_block_layout",
    "GL_EXT_shader_16bit_storage",
    "GL_EXT_shader_64bit_indexing",
    "GL_EXT_shader_8bit_storage",
    "GL_EXT_shader_atomic_float",
    "GL_EXT_shader_atomic_float2",
    "GL_EXT_shader_atomic_int64",
    "GL_EXT_shader_explicit_arithmetic_types",
    "GL_EXT_shader_explicit_arithmetic_types_float16",
    "GL_EXT_shader_explicit_arithmetic_types_float32",
    "GL_EXT_shader_explicit_arithmetic_types_float64",
    "GL_EXT_shader_explicit_arithmetic_types_int16",
    "GL_EXT_shader_explicit_arithmetic_types_int32",
    "GL_EXT_shader_explicit_arithmetic_types_int64",
    "GL_EXT_shader_explicit_arithmetic_types_int8",
    "GL_EXT_shader_image_int64",
    "GL_EXT_shader_image_load_formatted",
    "GL_EXT_shader_implicit_conversions",
    "GL_EXT_shader_integer_mix",
    "GL_EXT_shader_invocation_reorder",
    "GL_EXT_shader_io_blocks",
    "GL_EXT_shader_non_constant_global_initializers",
    "GL_EXT_shader_quad_control",
    "GL_EXT_shader_realtime_clock",
    "GL_EXT_shader_subgroup_extended_types_float16",
    "GL_EXT_shader_subgroup_extended_types_int16",
    "GL_EXT_shader_subgroup_extended_types_int64",
    "GL_EXT_shader_subgroup_extended_types_int8",
    "GL_EXT_shader_texture_lod",
    "GL_EXT_shader_tile_image",
    "GL_EXT_shadow_samplers",
    "GL_EXT_shared_memory_block",
    "GL_EXT_spec_constant_composites",
    "GL_EXT_spirv_intrinsics",
    "GL_EXT_split_barrier",
    "GL_EXT_structured_descriptor_heap",
    "GL_EXT_subgroup_uniform_control_flow",
    "GL_EXT_terminate_invocation",
    "GL_EXT_tessellation_point_size",
    "GL_EXT_tessellation_shader",
    "GL_EXT_texture_array",
    "GL_EXT_texture_buffer",
    "GL_EXT_texture_cube_map_array",
    "GL_EXT_texture_offset_non_const",
    "GL_EXT_uniform_buffer_unsized_array",
    "GL_GOOGLE_cpp_style_line_directive",
    "GL_GOOGLE_include_directive",
    "GL_INTEL_shader_integer_functions2",
    "GL_KHR_blend_equation_advanced",
    "GL_KHR_compute_shader_derivatives",
    "GL_KHR_cooperative_matrix",
    "GL_KHR_memory_scope_semantics",
    "GL_KHR_shader_subgroup_arithmetic",
    "GL_KHR_shader_subgroup_ballot",
    "GL_KHR_shader_subgroup_basic",
    "GL_KHR_shader_subgroup_clustered",
    "GL_KHR_shader_subgroup_quad",
    "GL_KHR_shader_subgroup_rotate",
    "GL_KHR_shader_subgroup_shuffle",
    "GL_KHR_shader_subgroup_shuffle_relative",
    "GL_KHR_shader_subgroup_vote",
    "GL_NVX_multiview_per_view_attributes",
    "GL_NV_cluster_acceleration_structure",
    "GL_NV_compute_shader_derivatives",
    "GL_NV_conservative_raster_underestimation",
    "GL_NV_cooperative_matrix",
    "GL_NV_cooperative_matrix2",
    "GL_NV_cooperative_matrix_decode_vector",
    "GL_NV_cooperative_vector",
    "GL_NV_desktop_lowp_mediump",
    "GL_NV_displacement_micromap",
    "GL_NV_explicit_typecast",
    "GL_NV_fragment_shader_barycentric",
    "GL_NV_geometry_shader_passthrough",
    "GL_NV_gpu_shader5",
    "GL_NV_integer_cooperative_matrix",
    "GL_NV_linear_swept_spheres",
    "GL_NV_mesh_shader",
    "GL_NV_push_constant_bank",
    "GL_NV_ray_tracing",
    "GL_NV_ray_tracing_motion_blur",
    "GL_NV_sample_mask_override_coverage",
    "GL_NV_shader_atomic_fp16_vector",
    "GL_NV_shader_atomic_int64",
    "GL_NV_shader_invocation_reorder",
    "GL_NV_shader_noperspective_interpolation",
    "GL_NV_shader_sm_builtins",
    "GL_NV_shader_subgroup_partitioned",
    "GL_NV_shader_texture_footprint",
    "GL_NV_shading_rate_image",
    "GL_NV_stereo_view_rendering",
    "GL_NV_viewport_array2",
    "GL_OES_EGL_image_external",
    "GL_OES_EGL_image_external_essl3",
    "GL_OES_geometry_point_size",
    "GL_OES_geometry_shader",
    "GL_OES_gpu_shader5",
    "GL_OES_primitive_bounding_box",
    "GL_OES_sample_variables",
    "GL_OES_shader_image_atomic",
    "GL_OES_shader_io_blocks",
    "GL_OES_shader_multisample_interpolation",
    "GL_OES_standard_derivatives",
    "GL_OES_tessellation_point_size",
    "GL_OES_tessellation_shader",
    "GL_OES_texture_3D",
    "GL_OES_texture_buffer",
    "GL_OES_texture_cube_map_array",
    "GL_OES_texture_storage_multisample_2d_array",
    "GL_OVR_multiview",
    "GL_OVR_multiview2",
    "GL_QCOM_cooperative_matrix_conversion",
    "GL_QCOM_image_processing",
    "GL_QCOM_image_processing2",
    "GL_QCOM_image_processing3",
    "GL_QCOM_multiple_wait_queues",
    "GL_QCOM_tile_shading",
];

/// GLSL extensions ArenaGL may offer that glslang has no `#extension` for (their GLSL is lowered
/// before glslang, or glslang takes it from the version): offered, their directive is blanked.
/// An extension added to the context with GLSL of its own that glslang lacks belongs here.
const LACKING: &[&str] = &[
    "GL_AMD_conservative_depth",
    "GL_AMD_texture_texture4",
    "GL_AMD_vertex_shader_layer",
    "GL_AMD_vertex_shader_viewport_index",
    // Its GLSL comes from GLSL 4.50 (`raise`).
    "GL_ARB_ES3_1_compatibility",
    "GL_ARB_arrays_of_arrays",
    "GL_ARB_compute_variable_group_size",
    // glslang's `#extension` leaves it out (Versions.cpp): its GLSL comes from GLSL 4.50
    // (`raise`).
    "GL_ARB_cull_distance",
    "GL_ARB_draw_buffers",
    "GL_ARB_fragment_layer_viewport",
    "GL_ARB_shader_precision",
    "GL_ARB_shader_subroutine",
    "GL_ARB_texture_query_levels",
    "GL_EXT_clip_cull_distance",
    "GL_EXT_draw_buffers",
    "GL_EXT_gpu_shader4",
    "GL_EXT_separate_shader_objects",
    "GL_EXT_shader_framebuffer_fetch",
    "GL_EXT_shader_samples_identical",
    "GL_NV_image_formats",
];

const WORDS: usize = (GLSLANG.len() + LACKING.len()).div_ceil(64);

/// Where `name` is in the tables: its bit, and whether glslang knows it.
fn index(name: &str) -> Option<(usize, bool)> {
    if let Ok(i) = GLSLANG.binary_search(&name) {
        return Some((i, true));
    }
    let i = LACKING.iter().position(|&l| l == name)?;
    Some((GLSLANG.len() + i, false))
}

/// The GLSL extensions a GL context offers (those of its `GL_EXTENSIONS` that have GLSL).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExtensionSet {
    bits: [u64; WORDS],
}

impl ExtensionSet {
    /// The set of `names` (a context's extension list); names without GLSL are left out.
    pub fn offering<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut set = Self::default();
        for (i, _) in names.into_iter().filter_map(index) {
            set.bits[i / 64] |= 1 << (i % 64);
        }
        set
    }

    /// Whether the context offers `name`.
    pub fn offers(&self, name: &str) -> bool {
        index(name).is_some_and(|(i, _)| self.has(i))
    }

    fn has(&self, i: usize) -> bool {
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }

    /// `source` with this context's macros set right after its `#version` (at the top without
    /// one), followed by a `#line` that gives the next line its own number again. `es`: a unit
    /// without `#version` is GLSL ES 1.00 (the ES check), not GLSL 1.10.
    pub(crate) fn with_preamble(&self, source: &str, es: bool) -> String {
        let mut block = String::with_capacity(48 * (GLSLANG.len() + LACKING.len()));
        block.push_str(&format!("#extension {INTRINSICS} : enable\n"));
        for (i, name) in GLSLANG.iter().chain(LACKING).enumerate() {
            if self.has(i) {
                block.push_str(&format!("#define {name} 1\n"));
            } else {
                block.push_str(&format!("#undef {name}\n"));
            }
        }
        if !self.offers(INTRINSICS) {
            block.push_str(&format!("#extension {INTRINSICS} : disable\n"));
        }
        after_version(source, &block, es)
    }

    /// `source` with its `#extension` directives as glslang must see them in this context (see
    /// the module comment); every line stays where it was.
    pub(crate) fn rewrite_directives<'s>(&self, source: &'s str) -> Cow<'s, str> {
        if !source.contains("extension") {
            return Cow::Borrowed(source);
        }
        // Token offsets index the text without line continuations: joined first (keeping the
        // line count), the text scanned is the text edited.
        let joined = pp::join_continued_lines(source);
        let scan = pp::scan(&joined);
        let edits: Vec<(usize, usize, String)> = scan
            .directives
            .iter()
            .filter_map(|d| self.directive_edit(&scan, scan.directive_toks(d)))
            .collect();
        if edits.is_empty() {
            return Cow::Borrowed(source);
        }
        let mut out = String::with_capacity(joined.len() + 32 * edits.len());
        let mut at = 0;
        for (start, end, with) in &edits {
            out.push_str(&joined[at..*start]);
            out.push_str(with);
            at = *end;
        }
        out.push_str(&joined[at..]);
        Cow::Owned(out)
    }

    /// The edit one directive needs (a byte range of the scanned text and its replacement):
    /// an unoffered extension's name marked, an offered one glslang lacks blanked.
    fn directive_edit(
        &self,
        scan: &pp::Scan<'_>,
        toks: &[pp::Tok],
    ) -> Option<(usize, usize, String)> {
        let [word, name, ..] = toks else {
            return None;
        };
        if scan.text_of(word) != "extension" {
            return None;
        }
        let text = scan.text_of(name);
        match index(text) {
            Some((i, true)) if self.has(i) => None,
            Some((i, false)) if self.has(i) => {
                // From the directive's `#` to its last token.
                let hash = scan.text[..word.start as usize].rfind('#')?;
                let last = toks.last().map_or(name.end, |t| t.end) as usize;
                Some((hash, last, String::new()))
            }
            _ => {
                let rest = text.strip_prefix("GL_")?;
                Some((
                    name.start as usize,
                    name.end as usize,
                    format!("{UNOFFERED_EXT}{rest}"),
                ))
            }
        }
    }
}

/// `source` with `block` (whole lines) right after its `#version` (at the top without one),
/// followed by a `#line` that gives the next line its own number again. `es`: a unit without
/// `#version` is GLSL ES 1.00, not GLSL 1.10 (the two number `#line` differently).
pub(crate) fn after_version(source: &str, block: &str, es: bool) -> String {
    let (head, rest, next, names_next) = match version::read(source) {
        Some(d) => {
            let v = match d.number {
                Number::Value(v) => v,
                _ => 110,
            };
            let es = d.profile.as_deref() == Some("es");
            let end = d.found.end;
            (
                &source[..end],
                &source[end..],
                d.found.line + 1,
                es || v >= 330,
            )
        }
        None => ("", source, 1, es),
    };
    // Below GLSL 3.30, `#line N` numbers the directive's own line N (the next is N + 1).
    let line = if names_next { next } else { next - 1 };
    let mut out = String::with_capacity(source.len() + block.len() + 16);
    out.push_str(head);
    if !head.is_empty() {
        out.push('\n');
    }
    out.push_str(block);
    out.push_str(&format!("#line {line}"));
    if head.is_empty() {
        out.push('\n');
    }
    out.push_str(rest);
    out
}

/// Whether `source` turns extension `name` on (`#extension name : require/enable/warn`).
pub(crate) fn enables(source: &str, name: &str) -> bool {
    if !source.contains(name) {
        return false;
    }
    let joined = pp::join_continued_lines(source);
    let scan = pp::scan(&joined);
    scan.directives.iter().any(|d| {
        let toks: Vec<&str> = scan
            .directive_toks(d)
            .iter()
            .map(|t| scan.text_of(t))
            .collect();
        matches!(toks.as_slice(), ["extension", n, ":", b] if *n == name && *b != "disable")
    })
}

/// A glslang log with the names [`ExtensionSet::rewrite_directives`] changed given back.
pub(crate) fn unmark(log: String) -> String {
    if log.contains(UNOFFERED_EXT) {
        log.replace(UNOFFERED_EXT, "GL_")
    } else {
        log
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_sorted_and_disjoint() {
        assert!(GLSLANG.windows(2).all(|w| w[0] < w[1]));
        assert!(LACKING.iter().all(|l| GLSLANG.binary_search(l).is_err()));
    }

    #[test]
    fn directives_are_rewritten_in_place() {
        let offered =
            ExtensionSet::offering(["GL_ARB_gpu_shader5", "GL_ARB_shader_subroutine", "GL_X"]);
        assert!(offered.offers("GL_ARB_gpu_shader5") && !offered.offers("GL_X"));
        let src = "#version 150\n#extension GL_ARB_gpu_shader5 : require\n\
                   #extension GL_AMD_shader_ballot : require\n\
                   # extension GL_ARB_shader_subroutine : enable // note\n\
                   #extension all : warn\n#extension foo : enable\nvoid main() {}\n";
        assert_eq!(
            offered.rewrite_directives(src),
            "#version 150\n#extension GL_ARB_gpu_shader5 : require\n\
             #extension arena_ff_unoffered_ext_AMD_shader_ballot : require\n \
             // note\n\
             #extension all : warn\n#extension foo : enable\nvoid main() {}\n"
        );
        let plain = "#version 150\nvoid main() {}\n";
        assert!(matches!(
            offered.rewrite_directives(plain),
            Cow::Borrowed(_)
        ));
        assert_eq!(
            unmark("0:3: 'arena_ff_unoffered_ext_AMD_shader_ballot'".into()),
            "0:3: 'GL_AMD_shader_ballot'"
        );
    }

    #[test]
    fn the_preamble_undefines_what_is_not_offered() {
        let offered = ExtensionSet::offering(["GL_ARB_gpu_shader5", "GL_ARB_shader_subroutine"]);
        let p = offered.with_preamble("// c\n#version 150\nvoid main() {}\n", false);
        assert!(p.starts_with("// c\n#version 150\n#extension GL_EXT_spirv_intrinsics : enable\n"));
        assert!(
            p.ends_with("#extension GL_EXT_spirv_intrinsics : disable\n#line 2\nvoid main() {}\n")
        );
        assert!(p.contains("\n#define GL_ARB_gpu_shader5 1\n"));
        assert!(p.contains("\n#define GL_ARB_shader_subroutine 1\n"));
        assert!(p.contains("\n#undef GL_AMD_shader_ballot\n"));
        let p = offered.with_preamble("#version 330\nvoid main() {}\n", false);
        assert!(
            p.ends_with("\n#line 2\nvoid main() {}\n"),
            "3.30 names the next line"
        );
        let p = offered.with_preamble("void main() {}\n", false);
        assert!(p.starts_with("#extension") && p.ends_with("\n#line 0\nvoid main() {}\n"));
        let p = offered.with_preamble("void main() {}\n", true);
        assert!(
            p.ends_with("\n#line 1\nvoid main() {}\n"),
            "ES 1.00 names the next line"
        );
    }

    fn compile(src: &str, offered: ExtensionSet) -> Result<String, String> {
        let options = crate::glsl::CompileOptions {
            extensions: Some(offered),
            ..Default::default()
        };
        crate::glsl::compile_shader(crate::glsl::Stage::Fragment, src, options).map_err(|e| match e
        {
            crate::glsl::CompileError::Compile { log, .. } => log,
            other => format!("{other:?}"),
        })
    }

    #[test]
    fn glslang_sees_the_offered_extensions_only() {
        let offered = ExtensionSet::offering(["GL_ARB_gpu_shader5", "GL_ARB_shader_subroutine"]);
        let body = "out vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        let macros = format!(
            "#version 150\n#if defined(GL_AMD_shader_ballot) || !defined(GL_ARB_gpu_shader5) \
             || GL_ARB_shader_subroutine != 1 || !defined(GL_core_profile)\n#error wrong\n#endif\n{body}"
        );
        compile(&macros, offered).unwrap();
        // Without a list, glslang's own macros (ArenaGL's units).
        let own =
            crate::glsl::compile_shader(crate::glsl::Stage::Fragment, &macros, Default::default());
        assert!(own.is_err());
        let required = format!("#version 150\n\n#extension GL_AMD_shader_ballot : require\n{body}");
        let log = compile(&required, offered).unwrap_err();
        assert!(
            log.contains("0:3")
                && log.contains("GL_AMD_shader_ballot")
                && !log.contains("arena_ff"),
            "{log}"
        );
        let enabled = format!("#version 150\n#extension GL_AMD_shader_ballot : enable\n{body}");
        let log = compile(&enabled, offered).unwrap();
        assert!(log.contains("WARNING"), "{log}");
        let lacking = format!(
            "#version 150\n#extension GL_ARB_shader_subroutine : require\n\
             #if __LINE__ != 3\n#error moved\n#endif\n{body}"
        );
        compile(&lacking, offered).unwrap();
        let lines_330 = format!(
            "#version 330\n#extension GL_ARB_gpu_shader5 : require\n\
             #if __LINE__ != 3\n#error moved\n#endif\n{body}"
        );
        compile(&lines_330, offered).unwrap();
    }

    #[test]
    fn es_units_without_a_version_keep_their_lines() {
        let offered = ExtensionSet::offering(["GL_OES_standard_derivatives"]);
        let fs = "#extension GL_OES_standard_derivatives : enable\nprecision mediump float;\n\
                  #if __LINE__ != 3 || defined(GL_OES_texture_3D)\n#error wrong\n#endif\n\
                  varying vec2 uv;\nvoid main() { gl_FragColor = vec4(dFdx(uv), fwidth(uv)); }\n";
        let r = crate::glsl::es::validate(crate::glsl::Stage::Fragment, fs, 100, Some(offered));
        assert!(r.is_ok(), "{r:?}");
    }
}
