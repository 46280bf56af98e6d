//! Pipeline state: what glEnable, glBlendFunc, glDepthFunc, glViewport… set — the blend, depth,
//! stencil, viewport and rasterisation state GL core has too (not the compatibility profile's
//! fixed-function layer, which lives in `gl/compat/`). The GL→Vulkan enum mappings for it are in
//! `gl/vk/conv`.
//!
//! Orientation (a decision that shapes the whole translator): ArenaGL renders in GL's own
//! orientation. Row 0 of every image is GL's bottom row, so `glViewport`/`glScissor` rectangles,
//! `glReadPixels` rows, texture rows and `gl_FragCoord` (Vulkan's upper-left origin counts rows
//! from row 0) all mean the same bytes in both APIs with no flips anywhere. The price is that the
//! picture is mirrored vertically relative to Vulkan's y-down convention, which reverses
//! winding: GL's counter-clockwise front face is Vulkan's clockwise. Presenting to a window flips
//! once, in the final blit. Depth: GL's clip space is z ∈ [-w, w]; the vertex stage remaps it to
//! Vulkan's [0, w] (see `program`), and glDepthRange's [n, f] becomes the viewport's depth range.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value, GlResult};

/// Draw buffers with their own blend enable and colour mask (`glEnablei(GL_BLEND, i)`,
/// `glColorMaski(i, …)`): GL_MAX_DRAW_BUFFERS.
pub(crate) const MAX_DRAW_BUFFERS: usize = crate::gl::objects::framebuffer::MAX_COLOR_ATTACHMENTS;

/// One draw buffer's blend factors and equations (`glBlendFuncSeparatei`,
/// `glBlendEquationSeparatei`; the non-indexed commands set every draw buffer's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct BlendFunc {
    pub src_rgb: GLenum,
    pub dst_rgb: GLenum,
    pub src_alpha: GLenum,
    pub dst_alpha: GLenum,
    pub eq_rgb: GLenum,
    pub eq_alpha: GLenum,
}

impl BlendFunc {
    /// GL's initial factors and equations: `GL_ONE`, `GL_ZERO`, `GL_FUNC_ADD`.
    pub(crate) const INITIAL: BlendFunc = BlendFunc {
        src_rgb: GL_ONE,
        dst_rgb: GL_ZERO,
        src_alpha: GL_ONE,
        dst_alpha: GL_ZERO,
        eq_rgb: GL_FUNC_ADD,
        eq_alpha: GL_FUNC_ADD,
    };

    /// The four factors, in `glBlendFuncSeparate`'s order.
    pub(crate) fn factors(&self) -> [GLenum; 4] {
        [self.src_rgb, self.dst_rgb, self.src_alpha, self.dst_alpha]
    }

    /// Whether a factor reads the fragment shader's second output (dual-source blending).
    pub(crate) fn is_dual_source(&self) -> bool {
        self.factors().into_iter().any(is_dual_source_factor)
    }
}

/// Blend state: an enable and a set of factors and equations per draw buffer
/// (GL_ARB_draw_buffers_blend, core in GL 4.0). Vulkan takes one
/// `VkPipelineColorBlendAttachmentState` per attachment; attachments that differ need the
/// `independentBlend` feature (checked at draw time, `Context::check_blend_state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Blend {
    /// Bit i: blending on for draw buffer i.
    pub enabled: u8,
    /// Draw buffer i's factors and equations.
    pub funcs: [BlendFunc; MAX_DRAW_BUFFERS],
}

impl Blend {
    /// GL's initial state: blending off, every draw buffer at `BlendFunc::INITIAL`.
    pub(crate) const INITIAL: Blend = Blend {
        enabled: 0,
        funcs: [BlendFunc::INITIAL; MAX_DRAW_BUFFERS],
    };
}

/// One face's stencil state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct StencilFace {
    pub func: GLenum,
    pub reference: i32,
    pub value_mask: u32,
    pub write_mask: u32,
    pub fail: GLenum,
    pub depth_fail: GLenum,
    pub pass: GLenum,
}

impl Default for StencilFace {
    fn default() -> Self {
        Self {
            func: GL_ALWAYS,
            reference: 0,
            value_mask: u32::MAX,
            write_mask: u32::MAX,
            fail: GL_KEEP,
            depth_fail: GL_KEEP,
            pass: GL_KEEP,
        }
    }
}

/// A rectangle in window coordinates (GL's, lower-left origin).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Rect {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

/// The pipeline state a context holds: blend, depth, stencil, viewport, scissor, rasterisation
/// and clear values (GL core state; the compatibility profile's own is in `gl/compat/`).
#[derive(Debug, Clone)]
pub(crate) struct PipelineState {
    pub blend: Blend,
    pub blend_color: [f32; 4],
    /// Per draw buffer: red, green, blue, alpha written.
    pub color_mask: [[bool; 4]; MAX_DRAW_BUFFERS],
    pub depth_test: bool,
    pub depth_mask: bool,
    pub depth_func: GLenum,
    pub stencil_test: bool,
    pub stencil: [StencilFace; 2],
    pub cull_face: bool,
    pub cull_mode: GLenum,
    pub front_face: GLenum,
    /// `glClipControl`'s origin and depth mode (`context::clip_control`).
    pub clip_control: crate::gl::context::clip_control::ClipControl,
    pub polygon_offset_fill: bool,
    pub polygon_offset: [f32; 2],
    /// `glPolygonOffsetClamp`'s clamp (0: none).
    pub polygon_offset_clamp: f32,
    /// Viewports, depth ranges, scissor boxes and scissor tests, per index
    /// (GL_ARB_viewport_array, `context::viewports`).
    pub viewports: crate::gl::context::viewports::Viewports,
    pub clear_color: [f32; 4],
    pub clear_depth: f64,
    pub clear_stencil: i32,
    pub line_width: f32,
    pub point_size: f32,
    pub dither: bool,
    pub multisample: bool,
    pub primitive_restart: bool,
    pub restart_index: u32,
    /// `GL_PRIMITIVE_RESTART_FIXED_INDEX` (GL 4.3, OpenGL ES 3.0): see [`Self::restart_for`].
    pub primitive_restart_fixed: bool,
    pub program_point_size: bool,
    pub depth_clamp: bool,
    pub rasterizer_discard: bool,
    pub cube_seamless: bool,
    pub framebuffer_srgb: bool,
    pub sample_alpha_to_coverage: bool,
    pub provoking_vertex: GLenum,
    /// `GL_SAMPLE_SHADING` and `glMinSampleShading`'s fraction (GL_ARB_sample_shading).
    pub sample_shading: bool,
    pub min_sample_shading: f32,
    /// `GL_SAMPLE_MASK` and `glSampleMaski`'s word (GL 3.2, OpenGL ES 3.1; one word:
    /// `GL_MAX_SAMPLE_MASK_WORDS`).
    pub sample_mask: bool,
    pub sample_mask_value: u32,
}

impl PipelineState {
    /// GL's initial state; viewport and scissor start as the first drawable's size.
    pub(crate) fn new(width: i32, height: i32) -> Self {
        Self {
            blend: Blend::INITIAL,
            blend_color: [0.0; 4],
            color_mask: [[true; 4]; MAX_DRAW_BUFFERS],
            depth_test: false,
            depth_mask: true,
            depth_func: GL_LESS,
            stencil_test: false,
            stencil: [StencilFace::default(); 2],
            cull_face: false,
            cull_mode: GL_BACK,
            front_face: GL_CCW,
            clip_control: Default::default(),
            polygon_offset_fill: false,
            polygon_offset: [0.0, 0.0],
            polygon_offset_clamp: 0.0,
            viewports: crate::gl::context::viewports::Viewports::new(width, height),
            clear_color: [0.0; 4],
            clear_depth: 1.0,
            clear_stencil: 0,
            line_width: 1.0,
            point_size: 1.0,
            dither: true,
            multisample: true,
            primitive_restart: false,
            restart_index: 0,
            primitive_restart_fixed: false,
            program_point_size: false,
            depth_clamp: false,
            rasterizer_discard: false,
            cube_seamless: false,
            framebuffer_srgb: false,
            sample_alpha_to_coverage: false,
            provoking_vertex: GL_LAST_VERTEX_CONVENTION,
            sample_shading: false,
            min_sample_shading: 0.0,
            sample_mask: false,
            sample_mask_value: u32::MAX,
        }
    }

    /// The index that restarts a primitive in an indexed draw whose index type's largest value
    /// is `type_max`, or None without restart: under `GL_PRIMITIVE_RESTART_FIXED_INDEX` that
    /// largest value (it takes precedence, GL 4.6 §10.3.6), else `glPrimitiveRestartIndex`'s
    /// under `GL_PRIMITIVE_RESTART`.
    pub(crate) fn restart_for(&self, type_max: u32) -> Option<u32> {
        if self.primitive_restart_fixed {
            Some(type_max)
        } else {
            self.primitive_restart.then_some(self.restart_index)
        }
    }

    /// The flag `glEnable(cap)` / `glDisable(cap)` sets; `GL_INVALID_ENUM` for others.
    /// `GL_BLEND`, which is per draw buffer, is `blend_enabled`/`set_blend_enabled`;
    /// `GL_SCISSOR_TEST`, per viewport, is `Context::set_scissor_test`.
    pub(crate) fn capability(&mut self, cap: GLenum) -> GlResult<&mut bool> {
        Ok(match cap {
            GL_DEPTH_TEST => &mut self.depth_test,
            GL_STENCIL_TEST => &mut self.stencil_test,
            GL_CULL_FACE => &mut self.cull_face,
            GL_POLYGON_OFFSET_FILL => &mut self.polygon_offset_fill,
            GL_DITHER => &mut self.dither,
            GL_MULTISAMPLE => &mut self.multisample,
            GL_PRIMITIVE_RESTART => &mut self.primitive_restart,
            GL_PRIMITIVE_RESTART_FIXED_INDEX => &mut self.primitive_restart_fixed,
            GL_PROGRAM_POINT_SIZE => &mut self.program_point_size,
            GL_DEPTH_CLAMP => &mut self.depth_clamp,
            GL_RASTERIZER_DISCARD => &mut self.rasterizer_discard,
            GL_TEXTURE_CUBE_MAP_SEAMLESS => &mut self.cube_seamless,
            GL_FRAMEBUFFER_SRGB => &mut self.framebuffer_srgb,
            GL_SAMPLE_ALPHA_TO_COVERAGE => &mut self.sample_alpha_to_coverage,
            GL_SAMPLE_SHADING => &mut self.sample_shading,
            GL_SAMPLE_MASK => &mut self.sample_mask,
            _ => return invalid_enum("glEnable/glDisable capability", cap),
        })
    }
}

/// The colour mask as Vulkan write-mask bits (bit i: channel i written).
pub(crate) fn mask_bits(mask: [bool; 4]) -> u8 {
    mask.iter()
        .enumerate()
        .fold(0u8, |m, (i, &on)| m | (u8::from(on) << i))
}

/// A capability ArenaGL accepts but does not act on: recorded so that glIsEnabled answers, and
/// harmless to ignore (line/polygon smoothing, sample coverage and friends).
pub(crate) fn is_ignored_capability(cap: GLenum) -> bool {
    matches!(
        cap,
        GL_LINE_SMOOTH
            | GL_POLYGON_SMOOTH
            | GL_SAMPLE_ALPHA_TO_ONE
            | GL_SAMPLE_COVERAGE
            | GL_COLOR_LOGIC_OP
            | GL_POLYGON_OFFSET_LINE
            | GL_POLYGON_OFFSET_POINT
    ) || (GL_CLIP_DISTANCE0..GL_CLIP_DISTANCE0 + 8).contains(&cap)
}

/// Whether `f` reads the fragment shader's second output (`GL_SRC1_*`, dual-source blending).
pub(crate) fn is_dual_source_factor(f: GLenum) -> bool {
    matches!(
        f,
        GL_SRC1_COLOR | GL_ONE_MINUS_SRC1_COLOR | GL_SRC1_ALPHA | GL_ONE_MINUS_SRC1_ALPHA
    )
}

/// Which faces `glCullFace`/`glStencil*Separate` name; `GL_INVALID_ENUM` otherwise.
pub(crate) fn face_indices(face: GLenum) -> GlResult<&'static [usize]> {
    Ok(match face {
        GL_FRONT => &[0],
        GL_BACK => &[1],
        GL_FRONT_AND_BACK => &[0, 1],
        _ => return invalid_enum("face", face),
    })
}

/// Checks a width/height pair (`GL_INVALID_VALUE` when negative).
pub(crate) fn check_size(width: i32, height: i32) -> GlResult<()> {
    if width < 0 || height < 0 {
        return invalid_value(format!("negative size {width}x{height}"));
    }
    Ok(())
}

pub(crate) fn clamp01(v: f32) -> f32 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}
