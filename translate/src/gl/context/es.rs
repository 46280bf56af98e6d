//! OpenGL ES contexts: what an ES 2.0 or 3.0 context answers, and what it refuses where ES
//! differs from desktop GL.
//!
//! Design decisions:
//! - An ES context is the compatibility-profile state machine with [`Api::Es`]: the default
//!   vertex array, client-side vertex and index arrays, texture object 0 and the unsized and
//!   luminance/alpha formats of ES 2.0/3.0 are exactly the compatibility profile's. What ES
//!   does not have is gated here, by the API, so the desktop paths stay as they are: the
//!   strings and the extension list, GLSL (GLSL ES only: `glsl::es`), the enums ES lacks
//!   (`GL_INVALID_ENUM`: capabilities, texture targets, primitive modes) and the desktop-only
//!   commands (`GL_INVALID_OPERATION`, as Mesa answers a command the ES API lacks).
//! - The extension list names only what works on the paths an ES program takes (each is
//!   checked in `tests/gl_es_contexts.rs`), and no desktop extension.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, GlResult};
use crate::gl::context::es_version;
use crate::gl::context::Context;
use crate::glsl::Dialect;

/// The client API a context implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// Desktop OpenGL (its profile is `Context::profile`).
    Gl,
    /// OpenGL ES `major.minor`.
    Es { major: u32, minor: u32 },
}

/// The extensions an ES context advertises: ES 3.0 has them in core, ES 2.0 programs look for
/// the names.
const ES_EXTENSIONS: &[&str] = &[
    "GL_OES_element_index_uint",
    "GL_OES_depth24",
    "GL_OES_packed_depth_stencil",
    "GL_OES_rgb8_rgba8",
    "GL_OES_texture_npot",
    "GL_OES_vertex_array_object",
    "GL_OES_standard_derivatives",
    "GL_OES_depth_texture",
    "GL_OES_mapbuffer",
    // Program binaries (`objects::program::binary`; core in ES 3.0).
    "GL_OES_get_program_binary",
    "GL_EXT_blend_minmax",
    // Debug output, groups and labels (`debug`), an ES extension since ES 2.0.
    "GL_KHR_debug",
    // EGL images as textures and renderbuffers (`objects::texture::egl_image`).
    "GL_OES_EGL_image",
    // Contexts that report no errors (`no_error`).
    "GL_KHR_no_error",
];

/// The extensions an ES 3.x context adds: float colour buffers (`GL_R16F` … `GL_RGBA32F`,
/// `GL_R11F_G11F_B10F` renderable, as the desktop paths render them).
const ES3_EXTENSIONS: &[&str] = &["GL_EXT_color_buffer_float"];

/// ES extensions that are a desktop path under another name: (ES name, the lowest ES version
/// it is offered in, the desktop extension whose entry points, enums and GLSL implement it).
/// The ES entry points are the desktop ones with an `EXT`/`OES` suffix (`src/abi/gl.rs`
/// resolves them), the GLSL is glslang's for the ES name, and the targets, capabilities and
/// primitive modes ES would refuse are admitted by name (`es_offers`).
const ES_MAPPED: &[(&str, (u32, u32), &str)] = &[
    ("GL_EXT_base_instance", (3, 0), "GL_ARB_base_instance"),
    (
        "GL_EXT_draw_elements_base_vertex",
        (2, 0),
        "GL_ARB_draw_elements_base_vertex",
    ),
    (
        "GL_OES_draw_elements_base_vertex",
        (2, 0),
        "GL_ARB_draw_elements_base_vertex",
    ),
    (
        "GL_EXT_texture_border_clamp",
        (2, 0),
        "GL_ARB_texture_border_clamp",
    ),
    (
        "GL_OES_texture_border_clamp",
        (2, 0),
        "GL_ARB_texture_border_clamp",
    ),
    (
        "GL_EXT_draw_buffers_indexed",
        (3, 0),
        "GL_ARB_draw_buffers_blend",
    ),
    (
        "GL_OES_draw_buffers_indexed",
        (3, 0),
        "GL_ARB_draw_buffers_blend",
    ),
    ("GL_OES_sample_shading", (3, 0), "GL_ARB_sample_shading"),
    ("GL_OES_sample_variables", (3, 0), "GL_ARB_sample_shading"),
    (
        "GL_OES_shader_multisample_interpolation",
        (3, 0),
        "GL_ARB_gpu_shader5",
    ),
    (
        "GL_OES_texture_storage_multisample_2d_array",
        (3, 1),
        "GL_ARB_texture_storage_multisample",
    ),
    (
        "GL_OES_shader_image_atomic",
        (3, 1),
        "GL_ARB_shader_image_load_store",
    ),
    ("GL_EXT_shader_io_blocks", (3, 1), ""),
    ("GL_OES_shader_io_blocks", (3, 1), ""),
    ("GL_EXT_gpu_shader5", (3, 1), "GL_ARB_gpu_shader5"),
    ("GL_OES_gpu_shader5", (3, 1), "GL_ARB_gpu_shader5"),
    (
        "GL_EXT_texture_buffer",
        (3, 1),
        "GL_ARB_texture_buffer_range",
    ),
    (
        "GL_OES_texture_buffer",
        (3, 1),
        "GL_ARB_texture_buffer_range",
    ),
    (
        "GL_EXT_texture_cube_map_array",
        (3, 1),
        "GL_ARB_texture_cube_map_array",
    ),
    (
        "GL_OES_texture_cube_map_array",
        (3, 1),
        "GL_ARB_texture_cube_map_array",
    ),
    // Geometry shaders are in every desktop context here (GL 3.2 core): no name to need.
    ("GL_EXT_geometry_shader", (3, 1), ""),
    ("GL_OES_geometry_shader", (3, 1), ""),
    (
        "GL_EXT_tessellation_shader",
        (3, 1),
        "GL_ARB_tessellation_shader",
    ),
    (
        "GL_OES_tessellation_shader",
        (3, 1),
        "GL_ARB_tessellation_shader",
    ),
    // The bounding box is a hint a tiler may use; writing and setting it changes no pixel
    // (`glsl::bounding_box`, `Context::set_primitive_bounding_box`).
    ("GL_EXT_primitive_bounding_box", (3, 1), ""),
    ("GL_OES_primitive_bounding_box", (3, 1), ""),
    ("GL_EXT_copy_image", (3, 0), "GL_ARB_copy_image"),
    ("GL_OES_copy_image", (3, 0), "GL_ARB_copy_image"),
    // GL_STENCIL_INDEX8 textures (`texture/stencil.rs`).
    ("GL_OES_texture_stencil8", (3, 1), "GL_ARB_texture_stencil8"),
    ("GL_KHR_robustness", (2, 0), "GL_KHR_robustness"),
    // KHR extensions are one name for GL and ES: offered where the desktop path is.
    (
        "GL_KHR_blend_equation_advanced",
        (2, 0),
        "GL_KHR_blend_equation_advanced",
    ),
    (
        "GL_KHR_blend_equation_advanced_coherent",
        (2, 0),
        "GL_KHR_blend_equation_advanced_coherent",
    ),
    (
        "GL_KHR_texture_compression_astc_ldr",
        (2, 0),
        "GL_KHR_texture_compression_astc_ldr",
    ),
    (
        "GL_KHR_texture_compression_astc_sliced_3d",
        (3, 0),
        "GL_KHR_texture_compression_astc_sliced_3d",
    ),
];

/// `GL_PRIMITIVE_BOUNDING_BOX`'s initial value: (-1, -1, -1, 1) and (1, 1, 1, 1) (OpenGL ES 3.2
/// §13.8, table 21.6).
pub(crate) const PRIMITIVE_BOUNDING_BOX_DEFAULT: [f32; 8] =
    [-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0];

/// The `GL_VERSION`, `GL_SHADING_LANGUAGE_VERSION` strings and extensions of an ES context on
/// a device whose desktop contexts offer `desktop`.
pub(crate) fn es_strings(
    major: u32,
    minor: u32,
    desktop: &[&str],
) -> (String, String, Vec<&'static str>) {
    let mut extensions = ES_EXTENSIONS.to_vec();
    if major >= 3 {
        extensions.extend_from_slice(ES3_EXTENSIONS);
    }
    let mapped = ES_MAPPED.iter().filter(|(_, version, path)| {
        (major, minor) >= *version && (path.is_empty() || desktop.contains(path))
    });
    extensions.extend(mapped.map(|(name, _, _)| *name));
    (
        format!("OpenGL ES {major}.{minor} ArenaGL 0.1"),
        format!("OpenGL ES GLSL ES {}", es_version::glsl_es(major, minor)),
        extensions,
    )
}

/// Whether `pname` names state or a limit OpenGL ES 3.0 added to ES 2.0's `glGet` tables
/// (OpenGL ES 3.0 §6.2 tables 6.2–6.35 against ES 2.0's); the extensions an ES 2.0 context
/// advertises keep theirs (`GL_VERTEX_ARRAY_BINDING`, the derivative hint).
fn is_es3_state(pname: GLenum) -> bool {
    const MAX_TRANSFORM_FEEDBACK_LIMITS: [GLenum; 3] = [0x8C8A, 0x8C8B, 0x8C80];
    const MAX_COMBINED_STAGE_UNIFORM_COMPONENTS: [GLenum; 2] = [0x8A31, 0x8A33];
    const DRAW_BUFFERS: std::ops::RangeInclusive<GLenum> = 0x8825..=0x8834;
    MAX_TRANSFORM_FEEDBACK_LIMITS.contains(&pname)
        || MAX_COMBINED_STAGE_UNIFORM_COMPONENTS.contains(&pname)
        || DRAW_BUFFERS.contains(&pname)
        || matches!(
            pname,
            GL_READ_BUFFER
                | GL_UNPACK_ROW_LENGTH
                | GL_UNPACK_SKIP_ROWS
                | GL_UNPACK_SKIP_PIXELS
                | GL_UNPACK_SKIP_IMAGES
                | GL_UNPACK_IMAGE_HEIGHT
                | GL_PACK_ROW_LENGTH
                | GL_PACK_SKIP_ROWS
                | GL_PACK_SKIP_PIXELS
                | GL_TEXTURE_BINDING_3D
                | GL_TEXTURE_BINDING_2D_ARRAY
                | GL_MAX_3D_TEXTURE_SIZE
                | GL_MAX_ARRAY_TEXTURE_LAYERS
                | GL_MAX_ELEMENTS_VERTICES
                | GL_MAX_ELEMENTS_INDICES
                | GL_MAX_ELEMENT_INDEX
                | GL_MAX_TEXTURE_LOD_BIAS
                | GL_MAX_FRAGMENT_UNIFORM_COMPONENTS
                | GL_MAX_VERTEX_UNIFORM_COMPONENTS
                | GL_MIN_PROGRAM_TEXEL_OFFSET
                | GL_MAX_PROGRAM_TEXEL_OFFSET
                | GL_MAX_VARYING_COMPONENTS
                | GL_MAX_VERTEX_OUTPUT_COMPONENTS
                | GL_MAX_FRAGMENT_INPUT_COMPONENTS
                | GL_MAX_DRAW_BUFFERS
                | GL_MAX_COLOR_ATTACHMENTS
                | GL_MAX_SAMPLES
                | GL_MAX_SERVER_WAIT_TIMEOUT
                | GL_READ_FRAMEBUFFER_BINDING
                | GL_PIXEL_PACK_BUFFER_BINDING
                | GL_PIXEL_UNPACK_BUFFER_BINDING
                | GL_COPY_READ_BUFFER
                | GL_COPY_WRITE_BUFFER
                | GL_UNIFORM_BUFFER_BINDING
                | GL_UNIFORM_BUFFER_START
                | GL_UNIFORM_BUFFER_SIZE
                | GL_MAX_VERTEX_UNIFORM_BLOCKS
                | GL_MAX_FRAGMENT_UNIFORM_BLOCKS
                | GL_MAX_COMBINED_UNIFORM_BLOCKS
                | GL_MAX_UNIFORM_BUFFER_BINDINGS
                | GL_MAX_UNIFORM_BLOCK_SIZE
                | GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT
                | GL_TRANSFORM_FEEDBACK_BINDING
                | GL_TRANSFORM_FEEDBACK_BUFFER_BINDING
                | GL_TRANSFORM_FEEDBACK_BUFFER_START
                | GL_TRANSFORM_FEEDBACK_BUFFER_SIZE
                | GL_TRANSFORM_FEEDBACK_BUFFER_PAUSED
                | GL_TRANSFORM_FEEDBACK_BUFFER_ACTIVE
                | GL_SAMPLER_BINDING
                | GL_PRIMITIVE_RESTART_FIXED_INDEX
                | GL_RASTERIZER_DISCARD
        )
}

impl Context {
    /// An OpenGL ES context on `device` for a request of `major.minor` (2.0 or 3.x, as EGL
    /// checked): 2.0, or the highest ES 3.x the device offers (`es_version`). A 3.x request
    /// above what the device offers gets 3.0 (2.0 without ES 3.0): the caller compares
    /// [`Context::api`] with the request (EGL refuses it).
    pub fn new_es(
        device: std::sync::Arc<crate::gl::vk::device::Device>,
        major: u32,
        minor: u32,
    ) -> Context {
        let mut ctx = Context::new(device, crate::gl::context::Profile::Compatibility);
        let desktop: Vec<String> = (ctx.strings.extensions.iter())
            .map(|e| e.to_string_lossy().into_owned())
            .collect();
        let mut desktop: Vec<&str> = desktop.iter().map(String::as_str).collect();
        desktop.extend(es_version::named_experimental().map(|n| -> &str { n }));
        let (_, _, es31) = es_strings(3, 1, &desktop);
        let offered = es_version::es3_minor(&desktop, &es31);
        // A device without ES 3.0 gives ES 2.0 whatever is asked (EGL refuses a 3.x request).
        let (major, minor) = match es_version::offers((major, minor), offered) {
            _ if !es_version::es3_offered(&desktop) => (2, 0),
            Some(version) => version,
            None => (major, 0),
        };
        ctx.api = Api::Es { major, minor };
        let (version, glsl, extensions) = es_strings(major, minor, &desktop);
        ctx.strings.set(&version, &glsl, &extensions);
        ctx
    }

    /// The API this context implements.
    pub fn api(&self) -> Api {
        self.api
    }

    /// The version of an ES context (`major`, `minor`); `None` on desktop GL.
    pub fn es_version(&self) -> Option<(u32, u32)> {
        match self.api {
            Api::Es { major, minor } => Some((major, minor)),
            Api::Gl => None,
        }
    }

    /// `GL_ALIASED_POINT_SIZE_RANGE` (ES 2.0/3.x state; `gl_PointSize` is always on there): the
    /// device's point sizes with `largePoints`, else 1.
    pub(crate) fn es_point_size_range(&self) -> Vec<f64> {
        let caps = self.device.caps();
        let range = if caps.large_points {
            caps.limits.point_size_range
        } else {
            [1.0, 1.0]
        };
        range.iter().map(|&v| f64::from(v)).collect()
    }

    /// The major version of an ES context; `None` on desktop GL.
    pub(crate) fn es_major(&self) -> Option<u32> {
        match self.api {
            Api::Es { major, .. } => Some(major),
            Api::Gl => None,
        }
    }

    /// The GLSL this context compiles.
    pub(crate) fn dialect(&self) -> Dialect {
        match (self.api, self.profile) {
            (Api::Es { major, minor }, _) => Dialect::Es {
                glsl: if major >= 3 { 300 + 10 * minor } else { 100 },
            },
            (Api::Gl, crate::gl::context::Profile::Core) => Dialect::Core {
                glsl: self.glsl_ceiling(),
            },
            (Api::Gl, crate::gl::context::Profile::Compatibility) => Dialect::Compatibility {
                glsl: self.glsl_ceiling(),
            },
        }
    }

    /// `GL_COMPRESSED_TEXTURE_FORMATS`: in an ES 3.x context the ten ETC2/EAC formats ES 3.0
    /// requires (OpenGL ES 3.0 §3.8.6, table 3.19; decoded where the device lacks them) and
    /// the 28 ASTC LDR ones (GL_KHR_texture_compression_astc_ldr, decoded likewise), none
    /// elsewhere (desktop GL lists only formats for general use, and ArenaGL names none).
    pub(crate) fn compressed_texture_formats(&self) -> Vec<i64> {
        const ETC2_EAC: std::ops::RangeInclusive<i64> = 0x9270..=0x9279;
        const ASTC: [std::ops::RangeInclusive<i64>; 2] = [0x93B0..=0x93BD, 0x93D0..=0x93DD];
        match self.es_major() {
            Some(3..) => ETC2_EAC.chain(ASTC.into_iter().flatten()).collect(),
            _ => Vec::new(),
        }
    }

    /// `GL_INVALID_OPERATION` for a desktop-only command in an ES context.
    pub(crate) fn es_lacks_command(&self, name: &str) -> GlResult<()> {
        match self.api {
            Api::Es { major, minor } => invalid_op(format!(
                "{name} does not exist in OpenGL ES {major}.{minor}"
            )),
            Api::Gl => Ok(()),
        }
    }

    /// `glEnable`/`glDisable`/`glIsEnabled` capabilities ES lacks are `GL_INVALID_ENUM` there.
    pub(crate) fn es_check_capability(&self, cap: GLenum) -> GlResult<()> {
        let Some(major) = self.es_major() else {
            return Ok(());
        };
        let es2 = matches!(
            cap,
            GL_BLEND
                | GL_CULL_FACE
                | GL_DEPTH_TEST
                | GL_DITHER
                | GL_POLYGON_OFFSET_FILL
                | GL_SAMPLE_ALPHA_TO_COVERAGE
                | GL_SAMPLE_COVERAGE
                | GL_SCISSOR_TEST
                | GL_STENCIL_TEST
        );
        let es3 = matches!(
            cap,
            GL_RASTERIZER_DISCARD | GL_PRIMITIVE_RESTART_FIXED_INDEX
        );
        let later = match cap {
            GL_SAMPLE_MASK => self.es_at_least(3, 1),
            GL_SAMPLE_SHADING => self.es_offers(&["GL_OES_sample_shading"], 2),
            _ => false,
        };
        if es2 || (major >= 3 && es3) || later {
            Ok(())
        } else {
            invalid_enum("capability (not in OpenGL ES)", cap)
        }
    }

    /// `glGet` names OpenGL ES 3.0 added are `GL_INVALID_ENUM` in an ES 2.0 context.
    pub(crate) fn es_check_get(&self, pname: GLenum) -> GlResult<()> {
        match self.es_major() {
            Some(2) if is_es3_state(pname) => {
                invalid_enum("glGet pname (not in OpenGL ES 2.0)", pname)
            }
            _ => Ok(()),
        }
    }

    /// The link log of a program ES refuses for its stages: a program that is not separable
    /// needs a vertex and a fragment shader in OpenGL ES (ES 3.0 §2.11.3), where desktop GL
    /// supplies the fixed-function stage a program lacks; a compute program (ES 3.1) has only
    /// its compute shader. None elsewhere.
    pub(crate) fn es_missing_stage(
        &self,
        input: &crate::gl::objects::program::binary::LinkInput,
    ) -> Option<String> {
        use crate::glsl::Stage;
        self.es_major()?;
        let has = |stage| input.units.iter().any(|(s, _)| *s == stage);
        if input.separable || has(Stage::Compute) {
            return None;
        }
        let missing = [(Stage::Vertex, "vertex"), (Stage::Fragment, "fragment")]
            .into_iter()
            .find(|(stage, _)| !has(*stage))?;
        Some(format!(
            "ERROR: Linking: an OpenGL ES program needs a {} shader\n",
            missing.1
        ))
    }

    /// Whether this is an ES context of version `major.minor` or later.
    fn es_at_least(&self, major: u32, minor: u32) -> bool {
        self.es_version().is_some_and(|v| v >= (major, minor))
    }

    /// Whether this ES context is ES 3.`core_minor` or later (where the feature is core), or
    /// offers one of `extensions`.
    fn es_offers(&self, extensions: &[&str], core_minor: u32) -> bool {
        self.es_at_least(3, core_minor)
            || (self.strings.extensions.iter())
                .any(|e| e.to_str().is_ok_and(|e| extensions.contains(&e)))
    }

    /// Texture targets ES lacks (1D, rectangle; 3D and 2D arrays in ES 2.0; 2D multisample
    /// before ES 3.1; multisample arrays, buffers and cube map arrays before ES 3.2 without
    /// their extension) are `GL_INVALID_ENUM` there.
    pub(crate) fn es_check_texture_target(&self, target: GLenum) -> GlResult<()> {
        let Some(major) = self.es_major() else {
            return Ok(());
        };
        let offered = match target {
            GL_TEXTURE_2D | GL_TEXTURE_CUBE_MAP => true,
            GL_TEXTURE_3D | GL_TEXTURE_2D_ARRAY => major >= 3,
            GL_TEXTURE_2D_MULTISAMPLE => self.es_at_least(3, 1),
            GL_TEXTURE_2D_MULTISAMPLE_ARRAY => {
                self.es_offers(&["GL_OES_texture_storage_multisample_2d_array"], 2)
            }
            GL_TEXTURE_BUFFER => {
                self.es_offers(&["GL_EXT_texture_buffer", "GL_OES_texture_buffer"], 2)
            }
            GL_TEXTURE_CUBE_MAP_ARRAY => self.es_offers(
                &[
                    "GL_EXT_texture_cube_map_array",
                    "GL_OES_texture_cube_map_array",
                ],
                2,
            ),
            _ => false,
        };
        if offered {
            Ok(())
        } else {
            invalid_enum("texture target (not in OpenGL ES)", target)
        }
    }

    /// Primitive modes ES lacks (quads, polygons; adjacency and patches before ES 3.2 without
    /// the geometry or tessellation shader extension) are `GL_INVALID_ENUM` there.
    pub(crate) fn es_check_mode(&self, mode: GLenum) -> GlResult<()> {
        if self.es_major().is_none() || mode <= GL_TRIANGLE_FAN {
            return Ok(());
        }
        let offered = match mode {
            GL_LINES_ADJACENCY..=GL_TRIANGLE_STRIP_ADJACENCY => {
                self.es_offers(&["GL_EXT_geometry_shader", "GL_OES_geometry_shader"], 2)
            }
            GL_PATCHES => self.es_offers(
                &["GL_EXT_tessellation_shader", "GL_OES_tessellation_shader"],
                2,
            ),
            _ => false,
        };
        if offered {
            Ok(())
        } else {
            invalid_enum("primitive mode (not in OpenGL ES)", mode)
        }
    }

    /// `glPrimitiveBoundingBox` (OpenGL ES 3.2 §13.8, GL_EXT/OES_primitive_bounding_box): the
    /// box bounds what the last vertex-processing stage emits, a hint tiling GPUs may use to
    /// bin primitives. Vulkan takes no such hint, so the box is kept for `glGet` and changes no
    /// pixel (primitives outside it are undefined, drawing them is allowed).
    pub fn set_primitive_bounding_box(&mut self, values: [f32; 8]) {
        self.primitive_bounding_box = values;
    }

    /// ES 3.2 state an ES context answers (`None` for other pnames): `GL_CONTEXT_FLAGS`, which
    /// ES 3.2 added (earlier ES versions refuse it), and `GL_PRIMITIVE_BOUNDING_BOX` where ES
    /// 3.2 or its extension offers it.
    pub(crate) fn es32_get(
        &self,
        pname: GLenum,
    ) -> Option<GlResult<crate::gl::context::get::Value>> {
        use crate::gl::context::get::Value;
        const GL_PRIMITIVE_BOUNDING_BOX: GLenum = 0x92BE;
        match pname {
            GL_CONTEXT_FLAGS if self.es_at_least(3, 2) => {
                Some(Ok(Value::Ints(vec![self.context_flags()])))
            }
            GL_PRIMITIVE_BOUNDING_BOX
                if self.es_offers(
                    &[
                        "GL_EXT_primitive_bounding_box",
                        "GL_OES_primitive_bounding_box",
                    ],
                    2,
                ) =>
            {
                let values = self.primitive_bounding_box.iter();
                Some(Ok(Value::Floats(values.map(|&v| f64::from(v)).collect())))
            }
            _ => None,
        }
    }

    /// `glGetShaderPrecisionFormat`: every precision of ArenaGL's shaders is 32-bit (IEEE
    /// float, two's-complement integers), as the SPIR-V it compiles declares them.
    pub fn shader_precision_format(
        &mut self,
        shader_type: GLenum,
        precision: GLenum,
    ) -> Option<([i32; 2], i32)> {
        let r = match (shader_type, precision) {
            (
                GL_VERTEX_SHADER | GL_FRAGMENT_SHADER,
                GL_LOW_FLOAT | GL_MEDIUM_FLOAT | GL_HIGH_FLOAT,
            ) => Ok(([127, 127], 23)),
            (GL_VERTEX_SHADER | GL_FRAGMENT_SHADER, GL_LOW_INT | GL_MEDIUM_INT | GL_HIGH_INT) => {
                Ok(([31, 30], 0))
            }
            (GL_VERTEX_SHADER | GL_FRAGMENT_SHADER, p) => invalid_enum("precision type", p),
            (t, _) => invalid_enum("glGetShaderPrecisionFormat shader type", t),
        };
        self.record(r)
    }

    /// `glGetBufferPointerv(target, GL_BUFFER_MAP_POINTER)` (GL 1.5, ES 3.0, GL_OES_mapbuffer):
    /// the pointer the bound buffer's mapping handed out, NULL while it is not mapped.
    pub fn buffer_map_pointer(&mut self, target: GLenum, pname: GLenum) -> Option<*mut u8> {
        let device = self.device.clone();
        let r = (|| {
            if pname != GL_BUFFER_MAP_POINTER {
                return invalid_enum("glGetBufferPointerv pname", pname);
            }
            let (_, b) = self.target_buffer(target, "glGetBufferPointerv")?;
            let storage = b.storage;
            let Some(m) = b.mapping.as_mut() else {
                return Ok(std::ptr::null_mut());
            };
            if !m.direct {
                return Ok(m.data.as_mut_ptr());
            }
            // A persistent mapping hands out the storage's own mapping at the mapped offset.
            let mapping = match storage {
                Some(h) => device.lock().manager.buffer_host_mapping(h)?,
                None => None,
            };
            Ok(mapping.map_or(std::ptr::null_mut(), |mapping| {
                mapping.ptr.as_ptr().wrapping_add(m.offset as usize)
            }))
        })();
        self.record(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn es_strings_name_the_version_and_no_desktop_extension() {
        let desktop = ["GL_ARB_base_instance", "GL_ARB_texture_buffer_range"];
        let (v, g, ext) = es_strings(3, 0, &desktop);
        assert_eq!(v, "OpenGL ES 3.0 ArenaGL 0.1");
        assert_eq!(g, "OpenGL ES GLSL ES 3.00");
        assert_eq!(es_strings(2, 0, &desktop).1, "OpenGL ES GLSL ES 1.00");
        assert!(ext.contains(&"GL_EXT_base_instance"));
        assert!(
            !ext.contains(&"GL_EXT_texture_buffer"),
            "an ES 3.1 extension"
        );
        assert!(
            !ext.contains(&"GL_EXT_draw_elements_base_vertex"),
            "no desktop path"
        );
        let ext = es_strings(3, 1, &desktop).2;
        assert!(ext.contains(&"GL_EXT_texture_buffer") && ext.contains(&"GL_OES_texture_buffer"));
        assert!(ext.iter().all(|e| ["GL_OES_", "GL_EXT_", "GL_KHR_"]
            .iter()
            .any(|p| e.starts_with(p))));
    }
}
