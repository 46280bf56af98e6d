//! GL_ARB_tessellation_shader's context state and rules: `glPatchParameteri/fv`, the
//! `GL_PATCHES` draw mode against the program's stages, and the tessellation `glGet` family
//! (state and limits).
//!
//! Design decisions:
//! - Everything here exists only where the device has `tessellationShader`
//!   (`DeviceCaps::tessellation_shader`): elsewhere the extension is not advertised and its
//!   enums are `GL_INVALID_ENUM`, as for any GL without it.
//! - `GL_PATCH_VERTICES` is baked into the pipeline (`PipelineKey::patch_control_points`), as
//!   Vulkan's `patchControlPoints` is pipeline state. The default levels are read only by the
//!   control stage ArenaGL supplies to a program without one (`program::tess`), as
//!   specialization constants: they are in the key of that program's patch pipelines only
//!   (`PipelineKey::default_levels`), so other programs' pipelines never rebuild for them.
//! - Limits are the device's (`VkPhysicalDeviceLimits`), capped at the values ArenaGL's own
//!   tables use elsewhere (uniform components, texture units, uniform blocks).

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::get::Value;
use crate::gl::context::Context;
use crate::gl::objects::program::Linked;
use crate::glsl::Stage;

/// `glPatchParameter*` state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PatchState {
    /// `GL_PATCH_VERTICES`.
    pub vertices: u32,
    /// `GL_PATCH_DEFAULT_OUTER_LEVEL`.
    pub default_outer: [f32; 4],
    /// `GL_PATCH_DEFAULT_INNER_LEVEL`.
    pub default_inner: [f32; 2],
}

impl Default for PatchState {
    /// GL's initial state: patches of 3 vertices, default levels of 1.
    fn default() -> Self {
        Self {
            vertices: 3,
            default_outer: [1.0; 4],
            default_inner: [1.0; 2],
        }
    }
}

/// Whether `linked` has a tessellation evaluation stage (a program that must draw patches).
pub(crate) fn tessellates(linked: &Linked) -> bool {
    linked
        .modules
        .iter()
        .any(|(stage, _)| *stage == Stage::TessEvaluation)
}

impl Context {
    fn tessellation_supported(&self) -> bool {
        self.device.caps().tessellation_shader
    }

    /// `GL_MAX_PATCH_VERTICES`.
    fn max_patch_vertices(&self) -> u32 {
        self.device.caps().limits.max_tessellation_patch_size
    }

    /// `glPatchParameteri`.
    pub fn patch_parameter_i(&mut self, pname: GLenum, value: i32) {
        let r = (|| {
            if !self.tessellation_supported() || pname != GL_PATCH_VERTICES {
                return invalid_enum("glPatchParameteri pname", pname);
            }
            if value <= 0 || value as u32 > self.max_patch_vertices() {
                return invalid_value(format!(
                    "glPatchParameteri(GL_PATCH_VERTICES, {value}): 1 to GL_MAX_PATCH_VERTICES ({})",
                    self.max_patch_vertices()
                ));
            }
            self.patch.vertices = value as u32;
            Ok(())
        })();
        self.record(r);
    }

    /// `glPatchParameterfv`: `values` holds the 4 outer or 2 inner default levels.
    pub fn patch_parameter_fv(&mut self, pname: GLenum, values: &[f32]) {
        let r = (|| {
            if !self.tessellation_supported() {
                return invalid_enum("glPatchParameterfv pname", pname);
            }
            let target: &mut [f32] = match pname {
                GL_PATCH_DEFAULT_OUTER_LEVEL => &mut self.patch.default_outer,
                GL_PATCH_DEFAULT_INNER_LEVEL => &mut self.patch.default_inner,
                p => return invalid_enum("glPatchParameterfv pname", p),
            };
            let n = target.len();
            target.copy_from_slice(values.get(..n).ok_or_else(|| {
                crate::gl::context::error::GlError::InvalidValue(format!(
                    "glPatchParameterfv: {n} values needed"
                ))
            })?);
            Ok(())
        })();
        self.record(r);
    }

    /// `GL_PATCHES` is an unknown draw mode without the extension (`GL_INVALID_ENUM`).
    pub(super) fn check_patches_known(&self, mode: GLenum) -> GlResult<()> {
        if mode == GL_PATCHES && !self.tessellation_supported() {
            return invalid_enum("primitive mode", mode);
        }
        Ok(())
    }

    /// The patch-mode rule of a draw with `linked`: `GL_PATCHES` draws need a tessellation
    /// evaluation stage, and a program with one draws nothing but patches
    /// (`GL_INVALID_OPERATION` either way).
    pub(super) fn check_patch_mode(&self, mode: GLenum, linked: &Linked) -> GlResult<()> {
        match (mode == GL_PATCHES, tessellates(linked)) {
            (true, false) => invalid_op("GL_PATCHES drawn without a tessellation evaluation shader"),
            (false, true) => invalid_op(format!(
                "primitive mode 0x{mode:x} drawn with a tessellation evaluation shader (GL_PATCHES only)"
            )),
            _ => Ok(()),
        }
    }

    /// `PipelineKey::default_levels` of a draw of `linked` in `topology`: the default levels of
    /// a program whose control stage ArenaGL supplies, zeros otherwise.
    pub(super) fn default_levels(
        &self,
        linked: &Linked,
        topology: ash::vk::PrimitiveTopology,
    ) -> [u32; 6] {
        let mut levels = [0; 6];
        if linked.pass_through.is_some() && topology == ash::vk::PrimitiveTopology::PATCH_LIST {
            let [o0, o1, o2, o3] = self.patch.default_outer;
            let [i0, i1] = self.patch.default_inner;
            levels = [o0, o1, o2, o3, i0, i1].map(f32::to_bits);
        }
        levels
    }

    /// The tessellation `glGet` family: state and limits; `None` for other pnames, and for
    /// these too where the device has no tessellation.
    pub(crate) fn get_tessellation(&self, pname: GLenum) -> Option<GlResult<Value>> {
        if !self.tessellation_supported() {
            return None;
        }
        let l = &self.device.caps().limits;
        let ints = |v: u32| Some(Ok(Value::Ints(vec![i64::from(v)])));
        let uniform_components = (l.max_uniform_buffer_range.min(65536) / 4).min(4096);
        match pname {
            GL_PATCH_VERTICES => ints(self.patch.vertices),
            GL_PATCH_DEFAULT_OUTER_LEVEL => Some(Ok(floats(&self.patch.default_outer))),
            GL_PATCH_DEFAULT_INNER_LEVEL => Some(Ok(floats(&self.patch.default_inner))),
            GL_MAX_PATCH_VERTICES => ints(self.max_patch_vertices()),
            GL_MAX_TESS_GEN_LEVEL => ints(l.max_tessellation_generation_level),
            GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS | GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS => {
                ints(uniform_components)
            }
            GL_MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS
            | GL_MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS => ints(
                uniform_components
                    + self.shader_limits().stage_uniform_blocks
                        * l.max_uniform_buffer_range.min(65536)
                        / 4,
            ),
            GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS
            | GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS => {
                ints(self.shader_limits().stage_texture_units)
            }
            GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS | GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS => {
                ints(self.shader_limits().stage_uniform_blocks)
            }
            GL_MAX_TESS_CONTROL_INPUT_COMPONENTS => {
                ints(l.max_tessellation_control_per_vertex_input_components)
            }
            GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS => {
                ints(l.max_tessellation_control_per_vertex_output_components)
            }
            GL_MAX_TESS_PATCH_COMPONENTS => {
                ints(l.max_tessellation_control_per_patch_output_components)
            }
            GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS => {
                ints(l.max_tessellation_control_total_output_components)
            }
            GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS => {
                ints(l.max_tessellation_evaluation_input_components)
            }
            GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS => {
                ints(l.max_tessellation_evaluation_output_components)
            }
            _ => None,
        }
    }
}

fn floats(values: &[f32]) -> Value {
    Value::Floats(values.iter().map(|&v| f64::from(v)).collect())
}
