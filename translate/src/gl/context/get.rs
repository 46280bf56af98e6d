//! `glGet*`: state and implementation limits.
//!
//! Every query answers a [`Value`]; the C edge converts it to the requested type with GL's
//! rules (§2.2.1 of the 3.3 spec: floats to ints round, colours map [-1, 1] to the full int
//! range, anything non-zero is `GL_TRUE`).

use crate::gl::context::cull_distance;
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, GlResult};
use crate::gl::context::{Context, MAX_UNIFORM_BUFFER_BINDINGS};
use crate::gl::objects::vertex_array::binding::MAX_VERTEX_ATTRIB_BINDINGS;

/// A query's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Ints(Vec<i64>),
    Floats(Vec<f64>),
    Bools(Vec<bool>),
    /// Normalised colour components (mapped to the full range for integer queries).
    Colors(Vec<f64>),
}

impl Value {
    /// As `glGetIntegerv`/`glGetInteger64v` reads it.
    pub fn to_ints(&self) -> Vec<i64> {
        match self {
            Value::Ints(v) => v.clone(),
            Value::Floats(v) => v.iter().map(|f| f.round() as i64).collect(),
            Value::Bools(v) => v.iter().map(|&b| i64::from(b)).collect(),
            Value::Colors(v) => v
                .iter()
                .map(|c| ((c.clamp(-1.0, 1.0) * (2f64.powi(32) - 1.0) - 1.0) / 2.0).round() as i64)
                .collect(),
        }
    }

    /// As `glGetFloatv`/`glGetDoublev` reads it.
    pub fn to_floats(&self) -> Vec<f64> {
        match self {
            Value::Ints(v) => v.iter().map(|&i| i as f64).collect(),
            Value::Floats(v) | Value::Colors(v) => v.clone(),
            Value::Bools(v) => v.iter().map(|&b| f64::from(u8::from(b))).collect(),
        }
    }

    /// As `glGetBooleanv` reads it.
    pub fn to_bools(&self) -> Vec<bool> {
        match self {
            Value::Ints(v) => v.iter().map(|&i| i != 0).collect(),
            Value::Floats(v) | Value::Colors(v) => v.iter().map(|&f| f != 0.0).collect(),
            Value::Bools(v) => v.clone(),
        }
    }
}

/// One integer.
fn int(v: i64) -> GlResult<Value> {
    Ok(Value::Ints(vec![v]))
}

/// One boolean.
fn bool1(v: bool) -> GlResult<Value> {
    Ok(Value::Bools(vec![v]))
}

impl Context {
    /// `GL_MAX_DRAW_BUFFERS` (= `GL_MAX_COLOR_ATTACHMENTS`): the device's colour attachments,
    /// at most the state arrays' size.
    pub(crate) fn max_draw_buffers(&self) -> u32 {
        self.device
            .caps()
            .limits
            .max_color_attachments
            .min(crate::gl::objects::framebuffer::MAX_COLOR_ATTACHMENTS as u32)
    }

    /// Any `glGet*` query.
    pub fn get(&mut self, pname: GLenum) -> Option<Value> {
        let r = self.get_inner(pname);
        self.record(r)
    }

    /// `glGetIntegeri_v` and friends.
    pub fn get_indexed(&mut self, pname: GLenum, index: u32) -> Option<Value> {
        let r = (|| {
            let i = index as usize;
            let check = |n: usize| {
                if i >= n {
                    crate::gl::context::error::invalid_value(format!(
                        "index {index} for 0x{pname:04X}"
                    ))
                } else {
                    Ok(())
                }
            };
            self.es_check_get(pname)?;
            if let Some(answer) = self.feedback_get_indexed(pname, index) {
                return answer;
            }
            if let Some(answer) = self.get_vertex_binding(pname, index) {
                return answer.map(|v| Value::Ints(vec![v]));
            }
            if let Some(answer) = self.get_viewport_indexed(pname, index) {
                return answer;
            }
            Ok(match pname {
                GL_UNIFORM_BUFFER_BINDING | GL_UNIFORM_BUFFER_START | GL_UNIFORM_BUFFER_SIZE => {
                    check(MAX_UNIFORM_BUFFER_BINDINGS)?;
                    let b = self.uniform_bindings[i];
                    Value::Ints(vec![match pname {
                        GL_UNIFORM_BUFFER_BINDING => i64::from(b.buffer),
                        GL_UNIFORM_BUFFER_START => b.offset as i64,
                        _ => b.size as i64,
                    }])
                }
                GL_SAMPLE_MASK_VALUE => {
                    check(1)?; // GL_MAX_SAMPLE_MASK_WORDS
                    Value::Ints(vec![i64::from(self.pipeline_state.sample_mask_value)])
                }
                GL_COLOR_WRITEMASK => {
                    check(crate::gl::objects::framebuffer::MAX_COLOR_ATTACHMENTS)?;
                    Value::Bools(self.pipeline_state.color_mask[i].to_vec())
                }
                GL_BLEND => {
                    check(crate::gl::objects::framebuffer::MAX_COLOR_ATTACHMENTS)?;
                    Value::Bools(vec![self.pipeline_state.blend.enabled & (1 << i) != 0])
                }
                GL_BLEND_SRC_RGB
                | GL_BLEND_DST_RGB
                | GL_BLEND_SRC_ALPHA
                | GL_BLEND_DST_ALPHA
                | GL_BLEND_EQUATION_RGB
                | GL_BLEND_EQUATION_ALPHA => {
                    check(crate::gl::context::state::MAX_DRAW_BUFFERS)?;
                    Value::Ints(vec![i64::from(blend_value(
                        &self.pipeline_state.blend.funcs[i],
                        pname,
                    ))])
                }
                p => {
                    return self
                        .get_compute_indexed(p, index)
                        .unwrap_or_else(|| invalid_enum("indexed glGet pname", p))
                }
            })
        })();
        self.record(r)
    }

    fn get_inner(&mut self, pname: GLenum) -> GlResult<Value> {
        self.es_check_get(pname)?;
        if let Some(v) = self.compat_get(pname) {
            return Ok(v);
        }
        if let Some(v) = self.clamp_color_get(pname) {
            return Ok(v);
        }
        if let Some(answer) = self.feedback_get(pname) {
            return answer;
        }
        // GL_IMPLEMENTATION_COLOR_READ_FORMAT/_TYPE: of the read framebuffer (`es31_compat`).
        if let Some(answer) = self.color_read_get(pname) {
            return answer;
        }
        // Each family answers the pnames it knows and `None` for the rest; no pname belongs to
        // two families, so the order only matters for speed.
        let family = self
            .get_context_info(pname)
            .or_else(|| self.get_limit(pname))
            .or_else(|| self.get_pipeline_state(pname))
            .or_else(|| self.get_viewports(pname))
            .or_else(|| self.get_clip_control(pname))
            .or_else(|| self.get_binding(pname))
            .or_else(|| self.get_pixel_store(pname))
            .or_else(|| self.get_compute(pname))
            .or_else(|| self.get_tessellation(pname))
            .or_else(|| self.get_debug(pname).map(int))
            .or_else(|| self.vertex_binding_limit(pname).map(int))
            .or_else(|| {
                crate::gl::objects::program::subroutine::limit(pname).map(|v| int(i64::from(v)))
            });
        if let Some(answer) = family {
            return answer;
        }
        match pname {
            GL_TIMESTAMP => int(self.current_timestamp()?),
            GL_LINE_SMOOTH_HINT
            | GL_POLYGON_SMOOTH_HINT
            | GL_TEXTURE_COMPRESSION_HINT
            | GL_FRAGMENT_SHADER_DERIVATIVE_HINT => int(i64::from(
                self.hints.get(&pname).copied().unwrap_or(GL_DONT_CARE),
            )),
            cap => {
                if crate::gl::context::state::is_ignored_capability(cap) {
                    return bool1(self.ignored_caps.get(&cap).copied().unwrap_or(false));
                }
                match self.pipeline_state.clone().capability(cap) {
                    Ok(v) => bool1(*v),
                    Err(_) => invalid_enum("glGet pname", pname),
                }
            }
        }
    }

    /// The context's version and profile, and the default framebuffer's format.
    fn get_context_info(&self, pname: GLenum) -> Option<GlResult<Value>> {
        if let Some(es) = self.get_es_context_info(pname) {
            return Some(es);
        }
        Some(match pname {
            GL_MAJOR_VERSION => int(i64::from(self.desktop_version().0)),
            GL_MINOR_VERSION => int(i64::from(self.desktop_version().1)),
            GL_NUM_EXTENSIONS => int(self.strings.extensions.len() as i64),
            // GL 4.3 (desktop only: an ES context's list is empty).
            GL_NUM_SHADING_LANGUAGE_VERSIONS if !self.strings.glsl_versions.is_empty() => {
                int(self.strings.glsl_versions.len() as i64)
            }
            GL_CONTEXT_FLAGS => int(self.context_flags()),
            // GL_CONTEXT_RELEASE_BEHAVIOR: GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH or GL_NONE.
            0x82FB => int(if self.flush_on_release { 0x82FC } else { 0 }),
            // GL_LOSE_CONTEXT_ON_RESET or GL_NO_RESET_NOTIFICATION.
            GL_RESET_NOTIFICATION_STRATEGY => int(if self.lose_context_on_reset {
                0x8252
            } else {
                0x8261
            }),
            GL_CONTEXT_PROFILE_MASK => int(i64::from(match self.profile {
                crate::gl::context::Profile::Core => GL_CONTEXT_CORE_PROFILE_BIT,
                crate::gl::context::Profile::Compatibility => GL_CONTEXT_COMPATIBILITY_PROFILE_BIT,
            })),
            GL_RED_BITS..=GL_STENCIL_BITS => int(i64::from(
                self.draw_framebuffer_bits()[(pname - GL_RED_BITS) as usize],
            )),
            GL_SAMPLES => int(i64::from(self.draw_framebuffer_samples())),
            GL_SAMPLE_BUFFERS => int(i64::from(self.draw_framebuffer_samples() > 1)),
            GL_DOUBLEBUFFER => bool1(true),
            GL_STEREO => bool1(false),
            GL_NUM_SHADER_BINARY_FORMATS => int(self.shader_binary_formats().len() as i64),
            crate::gl::objects::program::spirv::GL_NUM_SPIR_V_EXTENSIONS
                if self.offers_gl_spirv() =>
            {
                int(self.num_spirv_extensions() as i64)
            }
            GL_NUM_COMPRESSED_TEXTURE_FORMATS => {
                int(self.compressed_texture_formats().len() as i64)
            }
            GL_COMPRESSED_TEXTURE_FORMATS => Ok(Value::Ints(self.compressed_texture_formats())),
            // ArenaGL's one program binary format (`objects::program::binary`).
            GL_NUM_PROGRAM_BINARY_FORMATS => int(1),
            GL_PROGRAM_BINARY_FORMATS => {
                int(i64::from(crate::gl::objects::program::binary::FORMAT))
            }
            _ => return None,
        })
    }

    /// What an ES context answers differently: its version (ES 2.0 has no version queries),
    /// no profile mask, the ES 2.0 shader-compiler queries.
    fn get_es_context_info(&self, pname: GLenum) -> Option<GlResult<Value>> {
        let crate::gl::context::es::Api::Es { major, minor } = self.api else {
            return match pname {
                GL_SHADER_COMPILER => Some(bool1(true)),
                GL_SHADER_BINARY_FORMATS => Some(Ok(Value::Ints(self.shader_binary_formats()))),
                _ => None,
            };
        };
        if let Some(es32) = self.es32_get(pname) {
            return Some(es32);
        }
        Some(match pname {
            GL_MAJOR_VERSION | GL_MINOR_VERSION | GL_NUM_EXTENSIONS if major < 3 => {
                invalid_enum("glGet pname (not in OpenGL ES 2.0)", pname)
            }
            GL_MAJOR_VERSION => int(i64::from(major)),
            GL_MINOR_VERSION => int(i64::from(minor)),
            GL_CONTEXT_PROFILE_MASK | GL_CONTEXT_FLAGS => {
                invalid_enum("glGet pname (not in OpenGL ES)", pname)
            }
            GL_SHADER_COMPILER => bool1(true),
            GL_SHADER_BINARY_FORMATS => Ok(Value::Ints(self.shader_binary_formats())),
            GL_ALIASED_POINT_SIZE_RANGE => Ok(Value::Floats(self.es_point_size_range())),
            _ => return None,
        })
    }

    /// Implementation limits: sizes, counts and ranges that depend on the device or are fixed
    /// by ArenaGL.
    fn get_limit(&self, pname: GLenum) -> Option<GlResult<Value>> {
        let l = self.device.caps().limits;
        let max_2d = i64::from(l.max_image_dimension2_d);
        let frag_components = i64::from(l.max_uniform_buffer_range.min(65536) / 4).min(4096);
        let shader = self.shader_limits();
        Some(match pname {
            GL_MAX_TEXTURE_SIZE | GL_MAX_RENDERBUFFER_SIZE | GL_MAX_RECTANGLE_TEXTURE_SIZE => {
                int(max_2d)
            }
            GL_MAX_3D_TEXTURE_SIZE => int(i64::from(l.max_image_dimension3_d)),
            GL_MAX_CUBE_MAP_TEXTURE_SIZE => int(i64::from(l.max_image_dimension_cube)),
            GL_MAX_ARRAY_TEXTURE_LAYERS => int(i64::from(l.max_image_array_layers)),
            GL_MAX_VIEWPORT_DIMS => Ok(Value::Ints(vec![
                i64::from(l.max_viewport_dimensions[0]),
                i64::from(l.max_viewport_dimensions[1]),
            ])),
            GL_MAX_VERTEX_ATTRIBS => int(i64::from(self.max_vertex_attribs())),
            GL_MAX_VERTEX_ATTRIB_BINDINGS => int(i64::from(MAX_VERTEX_ATTRIB_BINDINGS)),
            GL_MAX_TEXTURE_IMAGE_UNITS
            | GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS
            | GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS => int(shader.stage_texture_units.into()),
            GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS => int(shader.combined_texture_units.into()),
            GL_MAX_UNIFORM_BUFFER_BINDINGS => int(MAX_UNIFORM_BUFFER_BINDINGS as i64),
            GL_MAX_UNIFORM_BLOCK_SIZE => int(i64::from(l.max_uniform_buffer_range.min(65536))),
            GL_MAX_VERTEX_UNIFORM_BLOCKS
            | GL_MAX_FRAGMENT_UNIFORM_BLOCKS
            | GL_MAX_GEOMETRY_UNIFORM_BLOCKS => int(shader.stage_uniform_blocks.into()),
            GL_MAX_COMBINED_UNIFORM_BLOCKS => int(shader.combined_uniform_blocks.into()),
            GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT => int(l.min_uniform_buffer_offset_alignment as i64),
            GL_MAX_VERTEX_UNIFORM_COMPONENTS
            | GL_MAX_FRAGMENT_UNIFORM_COMPONENTS
            | GL_MAX_GEOMETRY_UNIFORM_COMPONENTS => int(frag_components),
            GL_MAX_VERTEX_UNIFORM_VECTORS | GL_MAX_FRAGMENT_UNIFORM_VECTORS => {
                int(frag_components / 4)
            }
            // GL_MAX_UNIFORM_LOCATIONS (GL_ARB_explicit_uniform_location).
            0x826E => int(i64::from(
                crate::gl::objects::program::uniform_locations::MAX_UNIFORM_LOCATIONS,
            )),
            GL_MAX_VARYING_COMPONENTS => int(i64::from(
                l.max_vertex_output_components
                    .min(l.max_fragment_input_components),
            )),
            GL_MAX_VARYING_VECTORS => int(i64::from(
                l.max_vertex_output_components
                    .min(l.max_fragment_input_components)
                    / 4,
            )),
            GL_MAX_VERTEX_OUTPUT_COMPONENTS => int(i64::from(l.max_vertex_output_components)),
            GL_MAX_FRAGMENT_INPUT_COMPONENTS => int(i64::from(l.max_fragment_input_components)),
            GL_MAX_GEOMETRY_OUTPUT_VERTICES => int(i64::from(l.max_geometry_output_vertices)),
            // ARB_texture_gather: every component can be gathered (Vulkan's OpImageGather),
            // with the device's offset range.
            0x8F9F => int(4), // GL_MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB
            0x8E5E => int(i64::from(l.min_texel_gather_offset)), // GL_MIN_PROGRAM_TEXTURE_GATHER_OFFSET
            0x8E5F => int(i64::from(l.max_texel_gather_offset)), // GL_MAX_PROGRAM_TEXTURE_GATHER_OFFSET
            GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS => {
                int(i64::from(l.max_geometry_total_output_components))
            }
            // GL_ARB_gpu_shader5: geometry shader instancing and interpolateAtOffset, as the
            // device's limits say.
            0x8E5A => int(i64::from(l.max_geometry_shader_invocations)), // GL_MAX_GEOMETRY_SHADER_INVOCATIONS
            0x8E5B => Ok(Value::Floats(vec![f64::from(l.min_interpolation_offset)])), // GL_MIN_FRAGMENT_INTERPOLATION_OFFSET
            0x8E5C => Ok(Value::Floats(vec![f64::from(l.max_interpolation_offset)])), // GL_MAX_FRAGMENT_INTERPOLATION_OFFSET
            0x8E5D => int(i64::from(l.sub_pixel_interpolation_offset_bits)), // GL_FRAGMENT_INTERPOLATION_OFFSET_BITS
            GL_MAX_DRAW_BUFFERS | GL_MAX_COLOR_ATTACHMENTS => {
                int(i64::from(self.max_draw_buffers()))
            }
            GL_MAX_DUAL_SOURCE_DRAW_BUFFERS => int(i64::from(self.device.caps().dual_src_blend)),
            GL_MAX_SAMPLES => int(i64::from(crate::gl::objects::framebuffer::max_samples(
                &self.device,
            ))),
            GL_MAX_INTEGER_SAMPLES => int(i64::from(
                crate::gl::objects::framebuffer::max_integer_samples(&self.device),
            )),
            GL_MAX_COLOR_TEXTURE_SAMPLES => int(i64::from(
                crate::gl::objects::texture::multisample::max_color_texture_samples(&self.device),
            )),
            GL_MAX_DEPTH_TEXTURE_SAMPLES => int(i64::from(
                crate::gl::objects::texture::multisample::max_depth_texture_samples(&self.device),
            )),
            GL_MAX_SAMPLE_MASK_WORDS => int(1),
            GL_MAX_ELEMENTS_VERTICES | GL_MAX_ELEMENTS_INDICES => int(1 << 20),
            // GL 4.3 / ES 3.0: the largest index a draw may use (Vulkan's, at least 2^24 - 1).
            GL_MAX_ELEMENT_INDEX => int(i64::from(l.max_draw_indexed_index_value)),
            GL_MAX_TEXTURE_LOD_BIAS => Ok(Value::Floats(vec![f64::from(l.max_sampler_lod_bias)])),
            GL_MAX_TEXTURE_MAX_ANISOTROPY => Ok(Value::Floats(vec![f64::from(
                crate::gl::objects::texture::extensions::max_anisotropy(&self.device),
            )])),
            GL_MAX_TEXTURE_BUFFER_SIZE => int(i64::from(l.max_texel_buffer_elements)),
            GL_MAX_CLIP_DISTANCES => int(i64::from(l.max_clip_distances.min(8))),
            GL_MAX_CULL_DISTANCES if cull_distance::supported(&self.device) => {
                int(i64::from(cull_distance::MAX_CULL_DISTANCES))
            }
            GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES if cull_distance::supported(&self.device) => {
                int(i64::from(
                    cull_distance::MAX_COMBINED_CLIP_AND_CULL_DISTANCES,
                ))
            }
            // GL_CONTEXT_ROBUST_ACCESS (GL 4.5, KHR_robustness): every context reads buffers
            // robustly where the device does (`robustBufferAccess`).
            0x90F3 => Ok(Value::Bools(vec![
                self.device.caps().gl4.robust_buffer_access,
            ])),
            GL_MAX_SERVER_WAIT_TIMEOUT => int(0),
            GL_MAX_PROGRAM_TEXEL_OFFSET => int(i64::from(l.max_texel_offset)),
            GL_MIN_PROGRAM_TEXEL_OFFSET => int(i64::from(l.min_texel_offset)),
            GL_SUBPIXEL_BITS => int(i64::from(l.sub_pixel_precision_bits)),
            GL_POINT_SIZE_RANGE => Ok(Value::Floats(vec![1.0, 1.0])),
            GL_ALIASED_LINE_WIDTH_RANGE | GL_SMOOTH_LINE_WIDTH_RANGE => {
                let range = if self.device.caps().wide_lines {
                    l.line_width_range
                } else {
                    [1.0, 1.0]
                };
                Ok(Value::Floats(range.iter().map(|&v| f64::from(v)).collect()))
            }
            // The offset alignment of glTexBufferRange (`texture_buffer`).
            crate::gl::objects::texture::buffer::GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT => {
                int(l.min_texel_buffer_offset_alignment as i64)
            }
            // GL_MIN_MAP_BUFFER_ALIGNMENT (GL_ARB_map_buffer_alignment, `buffer::aligned`).
            0x90BC => int(crate::gl::objects::buffer::aligned::MAP_ALIGNMENT as i64),
            0x8A31..=0x8A33 => int(frag_components
                + i64::from(shader.stage_uniform_blocks)
                    * i64::from(l.max_uniform_buffer_range.min(65536))
                    / 4), // GL_MAX_COMBINED_*_UNIFORM_COMPONENTS: blocks × block size / 4 + loose
            0x9123 => int(i64::from(l.max_geometry_input_components)), // GL_MAX_GEOMETRY_INPUT_COMPONENTS
            0x9124 => int(i64::from(l.max_geometry_output_components)), // GL_MAX_GEOMETRY_OUTPUT_COMPONENTS
            0x8128 => Ok(Value::Floats(vec![1.0])), // GL_POINT_FADE_THRESHOLD_SIZE
            0x0B13 | 0x0B23 => Ok(Value::Floats(vec![0.0])), // GL_POINT_SIZE_GRANULARITY, GL_LINE_WIDTH_GRANULARITY
            0x8C8A => int(64), // GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS
            0x8C8B => int(4),  // GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS
            0x8C80 => int(4),  // GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS
            _ => return self.framebuffer_limit(pname).map(int),
        })
    }

    /// Pipeline state (`PipelineState`): raster, viewport and scissor, clear values, masks,
    /// depth, blend, stencil and primitive assembly.
    fn get_pipeline_state(&self, pname: GLenum) -> Option<GlResult<Value>> {
        let f = &self.pipeline_state;
        Some(match pname {
            GL_POINT_SIZE => Ok(Value::Floats(vec![f64::from(f.point_size)])),
            GL_LINE_WIDTH => Ok(Value::Floats(vec![f64::from(f.line_width)])),
            GL_MIN_SAMPLE_SHADING_VALUE => Ok(Value::Floats(vec![f64::from(f.min_sample_shading)])),
            GL_COLOR_CLEAR_VALUE => Ok(Value::Colors(
                f.clear_color.iter().map(|&c| f64::from(c)).collect(),
            )),
            GL_DEPTH_CLEAR_VALUE => Ok(Value::Colors(vec![f.clear_depth])),
            GL_STENCIL_CLEAR_VALUE => int(i64::from(f.clear_stencil)),
            GL_COLOR_WRITEMASK => Ok(Value::Bools(f.color_mask[0].to_vec())),
            GL_DEPTH_WRITEMASK => bool1(f.depth_mask),
            GL_DEPTH_FUNC => int(i64::from(f.depth_func)),
            // The non-indexed queries answer draw buffer 0's state.
            GL_BLEND_SRC_RGB
            | GL_BLEND_SRC
            | GL_BLEND_DST_RGB
            | GL_BLEND_DST
            | GL_BLEND_SRC_ALPHA
            | GL_BLEND_DST_ALPHA
            | GL_BLEND_EQUATION_RGB
            | GL_BLEND_EQUATION_ALPHA => int(i64::from(blend_value(&f.blend.funcs[0], pname))),
            GL_BLEND_COLOR => Ok(Value::Colors(
                f.blend_color.iter().map(|&c| f64::from(c)).collect(),
            )),
            GL_CULL_FACE_MODE => int(i64::from(f.cull_mode)),
            GL_FRONT_FACE => int(i64::from(f.front_face)),
            GL_POLYGON_MODE => Ok(Value::Ints(vec![i64::from(GL_FILL), i64::from(GL_FILL)])),
            GL_POLYGON_OFFSET_FACTOR => Ok(Value::Floats(vec![f64::from(f.polygon_offset[0])])),
            GL_POLYGON_OFFSET_UNITS => Ok(Value::Floats(vec![f64::from(f.polygon_offset[1])])),
            // GL_POLYGON_OFFSET_CLAMP (GL_ARB_polygon_offset_clamp).
            0x8E1B => Ok(Value::Floats(vec![f64::from(f.polygon_offset_clamp)])),
            GL_STENCIL_FUNC => int(i64::from(f.stencil[0].func)),
            GL_STENCIL_VALUE_MASK => int(i64::from(f.stencil[0].value_mask)),
            GL_STENCIL_REF => int(i64::from(f.stencil[0].reference)),
            GL_STENCIL_FAIL => int(i64::from(f.stencil[0].fail)),
            GL_STENCIL_PASS_DEPTH_FAIL => int(i64::from(f.stencil[0].depth_fail)),
            GL_STENCIL_PASS_DEPTH_PASS => int(i64::from(f.stencil[0].pass)),
            GL_STENCIL_WRITEMASK => int(i64::from(f.stencil[0].write_mask)),
            GL_STENCIL_BACK_FUNC => int(i64::from(f.stencil[1].func)),
            GL_STENCIL_BACK_VALUE_MASK => int(i64::from(f.stencil[1].value_mask)),
            GL_STENCIL_BACK_REF => int(i64::from(f.stencil[1].reference)),
            GL_STENCIL_BACK_FAIL => int(i64::from(f.stencil[1].fail)),
            GL_STENCIL_BACK_PASS_DEPTH_FAIL => int(i64::from(f.stencil[1].depth_fail)),
            GL_STENCIL_BACK_PASS_DEPTH_PASS => int(i64::from(f.stencil[1].pass)),
            GL_STENCIL_BACK_WRITEMASK => int(i64::from(f.stencil[1].write_mask)),
            GL_PROVOKING_VERTEX => int(i64::from(f.provoking_vertex)),
            // Quads always take their last vertex (see `draw`'s pipeline key). GL 3.3 core
            // dropped the query (only 3.2 core had it): compatibility contexts answer.
            GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION
                if self.profile == crate::gl::context::Profile::Compatibility =>
            {
                bool1(false)
            }
            GL_PRIMITIVE_RESTART_INDEX => int(i64::from(f.restart_index)),
            _ => return None,
        })
    }

    /// Object bindings: buffers, the vertex array, program, textures, samplers, framebuffers,
    /// renderbuffer, and the draw and read buffers.
    fn get_binding(&self, pname: GLenum) -> Option<GlResult<Value>> {
        Some(match pname {
            GL_ARRAY_BUFFER_BINDING => int(i64::from(self.array_buffer)),
            GL_ELEMENT_ARRAY_BUFFER_BINDING => int(i64::from(
                self.current_vao().map_or(0, |v| v.element_buffer),
            )),
            GL_UNIFORM_BUFFER_BINDING
            | GL_COPY_READ_BUFFER_BINDING
            | GL_COPY_WRITE_BUFFER_BINDING => {
                let target = match pname {
                    GL_UNIFORM_BUFFER_BINDING => GL_UNIFORM_BUFFER,
                    p => p,
                };
                int(i64::from(
                    self.generic_bindings.get(&target).copied().unwrap_or(0),
                ))
            }
            GL_PIXEL_PACK_BUFFER_BINDING => int(i64::from(
                self.generic_bindings
                    .get(&GL_PIXEL_PACK_BUFFER)
                    .copied()
                    .unwrap_or(0),
            )),
            GL_PIXEL_UNPACK_BUFFER_BINDING => int(i64::from(
                self.generic_bindings
                    .get(&GL_PIXEL_UNPACK_BUFFER)
                    .copied()
                    .unwrap_or(0),
            )),
            GL_DRAW_INDIRECT_BUFFER_BINDING => int(i64::from(
                self.generic_bindings
                    .get(&GL_DRAW_INDIRECT_BUFFER)
                    .copied()
                    .unwrap_or(0),
            )),
            GL_PARAMETER_BUFFER_BINDING => int(i64::from(
                self.generic_bindings
                    .get(&GL_PARAMETER_BUFFER)
                    .copied()
                    .unwrap_or(0),
            )),
            GL_QUERY_BUFFER_BINDING => int(i64::from(self.query_buffer_bound())),
            GL_VERTEX_ARRAY_BINDING => int(i64::from(self.vertex_array)),
            GL_CURRENT_PROGRAM => int(i64::from(self.program)),
            crate::gl::objects::program_pipeline::GL_PROGRAM_PIPELINE_BINDING => {
                int(i64::from(self.pipelines.bound))
            }
            GL_ACTIVE_TEXTURE => int(i64::from(GL_TEXTURE0 + self.active_texture)),
            GL_TEXTURE_BINDING_1D
            | GL_TEXTURE_BINDING_2D
            | GL_TEXTURE_BINDING_3D
            | GL_TEXTURE_BINDING_CUBE_MAP
            | GL_TEXTURE_BINDING_1D_ARRAY
            | GL_TEXTURE_BINDING_2D_ARRAY
            | GL_TEXTURE_BINDING_RECTANGLE
            | GL_TEXTURE_BINDING_2D_MULTISAMPLE
            | GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY
            | GL_TEXTURE_BINDING_CUBE_MAP_ARRAY => {
                let t = crate::gl::objects::texture::target::TexTarget::binding_query(pname)
                    .map_or(0, |t| t.index());
                int(i64::from(
                    self.texture_units[self.active_texture as usize][t],
                ))
            }
            // Buffer textures (`texture_buffer`): the buffer target's binding, the unit's
            // buffer texture and its format (the offset alignment is a limit).
            GL_TEXTURE_BUFFER => int(i64::from(
                self.generic_bindings
                    .get(&GL_TEXTURE_BUFFER)
                    .copied()
                    .unwrap_or(0),
            )),
            crate::gl::objects::texture::buffer::GL_TEXTURE_BINDING_BUFFER => int(i64::from(
                self.texture_buffers.bound_at(self.active_texture),
            )),
            crate::gl::objects::texture::buffer::GL_TEXTURE_BUFFER_FORMAT => int(i64::from(
                self.active_buffer_texture().map_or(0, |t| t.internal),
            )),
            crate::gl::objects::texture::buffer::GL_TEXTURE_BUFFER_DATA_STORE_BINDING => int(
                i64::from(self.active_buffer_texture().map_or(0, |t| t.buffer)),
            ),
            GL_SAMPLER_BINDING => int(i64::from(self.sampler_units[self.active_texture as usize])),
            GL_DRAW_FRAMEBUFFER_BINDING => int(i64::from(self.draw_framebuffer)),
            GL_READ_FRAMEBUFFER_BINDING => int(i64::from(self.read_framebuffer)),
            GL_RENDERBUFFER_BINDING => int(i64::from(self.renderbuffer)),
            GL_DRAW_BUFFER | GL_DRAW_BUFFER0 => int(i64::from(if self.draw_framebuffer == 0 {
                self.default_draw_buffer
            } else {
                self.framebuffers
                    .get(self.draw_framebuffer)
                    .map_or(GL_NONE, |fb| fb.draw_buffers[0])
            })),
            GL_READ_BUFFER => int(i64::from(if self.read_framebuffer == 0 {
                self.default_read_buffer
            } else {
                self.framebuffers
                    .get(self.read_framebuffer)
                    .map_or(GL_NONE, |fb| fb.read_buffer)
            })),
            _ => return None,
        })
    }

    /// Pixel store state (`glPixelStore`), packing and unpacking.
    fn get_pixel_store(&self, pname: GLenum) -> Option<GlResult<Value>> {
        Some(match pname {
            GL_UNPACK_ALIGNMENT => int(i64::from(self.unpack.alignment.bytes())),
            GL_PACK_ALIGNMENT => int(i64::from(self.pack.alignment.bytes())),
            GL_UNPACK_ROW_LENGTH => int(i64::from(self.unpack.row_length)),
            GL_PACK_ROW_LENGTH => int(i64::from(self.pack.row_length)),
            GL_UNPACK_SKIP_ROWS => int(i64::from(self.unpack.skip_rows)),
            GL_UNPACK_SKIP_PIXELS => int(i64::from(self.unpack.skip_pixels)),
            GL_PACK_SKIP_ROWS => int(i64::from(self.pack.skip_rows)),
            GL_PACK_SKIP_PIXELS => int(i64::from(self.pack.skip_pixels)),
            GL_UNPACK_SWAP_BYTES => bool1(self.unpack.swap_bytes),
            GL_PACK_SWAP_BYTES => bool1(self.pack.swap_bytes),
            _ => return self.block_store_value(pname).map(int),
        })
    }
}

/// One of a draw buffer's blend factors or equations, by its `glGet` name.
fn blend_value(b: &crate::gl::context::state::BlendFunc, pname: GLenum) -> GLenum {
    match pname {
        GL_BLEND_SRC_RGB | GL_BLEND_SRC => b.src_rgb,
        GL_BLEND_DST_RGB | GL_BLEND_DST => b.dst_rgb,
        GL_BLEND_SRC_ALPHA => b.src_alpha,
        GL_BLEND_DST_ALPHA => b.dst_alpha,
        GL_BLEND_EQUATION_RGB => b.eq_rgb,
        _ => b.eq_alpha,
    }
}
