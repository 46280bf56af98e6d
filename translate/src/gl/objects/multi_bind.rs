//! GL_ARB_multi_bind (GL 4.4 §6.1.1, §7.11, §8.1, §8.2, §8.26, §10.3.1): one command binds a
//! run of consecutive binding points — `glBindBuffersBase`/`Range`, `glBindTextures`,
//! `glBindSamplers`, `glBindImageTextures`, `glBindVertexBuffers`.
//!
//! Design: each command runs the per-binding code of its single-binding twin (the same
//! validation and state change) once per element, in one of two error classes the extension
//! names:
//! - *whole-command* errors (a bad target, a negative count, `first + count` past the last
//!   binding point, a capture in progress) change nothing;
//! - *per-binding* errors (a name that is no object of the kind, a bad offset, size or format)
//!   leave that binding point unchanged, the others are still bound, and the first such error
//!   is the one recorded.
//!
//! A NULL array (`None` here) unbinds the whole run. Names are never made by these commands: a
//! name only generated (`glGen*`) and never bound is no object (Mesa agrees), unlike the
//! twins, which make it. `glBindBuffers*` leave the generic binding of `target` as it was.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;
use crate::gl::context::MAX_UNIFORM_BUFFER_BINDINGS;
use crate::gl::objects::texture::target::TexTarget;

/// The ranges `glBindBuffersRange` binds, per element.
pub struct BufferRanges<'a> {
    pub offsets: &'a [i64],
    pub sizes: &'a [i64],
}

/// `glBindVertexBuffers`'s per-element arrays.
pub struct VertexBuffers<'a> {
    pub buffers: &'a [u32],
    pub offsets: &'a [i64],
    pub strides: &'a [i32],
}

/// Runs `bind` on every index of `first..first + count`, with the element index; the first
/// per-binding error is the result.
fn each(count: usize, mut bind: impl FnMut(usize) -> GlResult<()>) -> GlResult<()> {
    // Every binding is tried, whatever the ones before it did.
    let mut first_error = Ok(());
    for i in 0..count {
        let r = bind(i);
        first_error = first_error.and(r);
    }
    first_error
}

/// Checks `count` and that `first + count` binding points exist (`points` of them).
fn check_run(call: &str, first: u32, count: i32, points: usize) -> GlResult<usize> {
    let Ok(n) = usize::try_from(count) else {
        return invalid_value(format!("{call}: count {count} < 0"));
    };
    if first as usize + n > points {
        return invalid_op(format!(
            "{call}: first {first} + count {count} exceeds the {points} binding points"
        ));
    }
    Ok(n)
}

/// The element `i` of a per-element array, or `default` when the array is NULL.
fn nth<T: Copy>(values: Option<&[T]>, i: usize, default: T) -> T {
    values.and_then(|v| v.get(i)).copied().unwrap_or(default)
}

/// Whether `target` of a layered image binding is bound whole by `glBindImageTextures`
/// (GL 4.4 §8.26: layered for array, cube and 3D textures).
fn layered(target: TexTarget) -> bool {
    matches!(
        target,
        TexTarget::D1Array
            | TexTarget::D2Array
            | TexTarget::D3
            | TexTarget::Cube
            | TexTarget::CubeArray
            | TexTarget::D2MultisampleArray
    )
}

impl Context {
    /// `glBindBuffersBase` (`ranges` `None`) and `glBindBuffersRange`: binding points
    /// `first..first + count` of `target` get `buffers` (NULL: none).
    pub fn bind_buffers(
        &mut self,
        target: GLenum,
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
        ranges: Option<BufferRanges<'_>>,
    ) {
        let r = self.bind_buffers_checked(target, first, count, buffers, ranges);
        self.record(r);
    }

    fn bind_buffers_checked(
        &mut self,
        target: GLenum,
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
        ranges: Option<BufferRanges<'_>>,
    ) -> GlResult<()> {
        let call = match ranges {
            Some(_) => "glBindBuffersRange",
            None => "glBindBuffersBase",
        };
        let points = self.indexed_buffer_points(call, target)?;
        let n = check_run(call, first, count, points)?;
        if target == GL_TRANSFORM_FEEDBACK_BUFFER && self.xfb.current().active.is_some() {
            return invalid_op(format!("{call}: transform feedback is active"));
        }
        let generic = self.generic_bindings.get(&target).copied();
        let r = each(n, |i| {
            let name = nth(buffers, i, 0);
            if name != 0 && !self.buffers.exists(name) {
                return invalid_op(format!("{call}: {name} is not the name of a buffer"));
            }
            let index = first + i as u32;
            match &ranges {
                Some(BufferRanges { offsets, sizes }) if name != 0 => {
                    let (offset, size) = (nth(Some(offsets), i, -1), nth(Some(sizes), i, 0));
                    self.bind_indexed_buffer(target, index, name, offset, size, false)
                }
                _ => self.bind_indexed_buffer(target, index, name, 0, 0, true),
            }
        });
        match generic {
            Some(name) => self.generic_bindings.insert(target, name),
            None => self.generic_bindings.remove(&target),
        };
        r
    }

    /// The indexed binding points of `target` (`GL_INVALID_ENUM` for a target without them).
    fn indexed_buffer_points(&mut self, call: &str, target: GLenum) -> GlResult<usize> {
        match target {
            GL_UNIFORM_BUFFER => Ok(MAX_UNIFORM_BUFFER_BINDINGS),
            GL_TRANSFORM_FEEDBACK_BUFFER => Ok(crate::gl::objects::transform_feedback::MAX_BUFFERS),
            GL_SHADER_STORAGE_BUFFER | GL_ATOMIC_COUNTER_BUFFER => {
                Ok(self.compute.table_mut(target).map_or(0, |t| t.len()))
            }
            _ => invalid_enum(&format!("{call} target"), target),
        }
    }

    /// `glBindTextures`: each texture is bound to its own target on units
    /// `first..first + count`; 0 (or NULL) unbinds every target of its unit. The active unit
    /// is unchanged.
    pub fn bind_textures(&mut self, first: u32, count: i32, textures: Option<&[u32]>) {
        let r = (|| {
            let units = self.combined_texture_units();
            let n = check_run("glBindTextures", first, count, units)?;
            each(n, |i| {
                let name = nth(textures, i, 0);
                self.bind_texture_unit_inner(first + i as u32, name)
            })
        })();
        self.record(r);
    }

    /// `GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS`.
    fn combined_texture_units(&self) -> usize {
        let limits = crate::gl::context::limits::ShaderLimits::of(&self.device.caps().limits);
        (limits.combined_texture_units as usize).min(self.texture_units.len())
    }

    /// `glBindSamplers`: units `first..first + count` use `samplers` (0 or NULL: none).
    pub fn bind_samplers(&mut self, first: u32, count: i32, samplers: Option<&[u32]>) {
        let r = (|| {
            let units = self.combined_texture_units().min(self.sampler_units.len());
            let n = check_run("glBindSamplers", first, count, units)?;
            each(n, |i| {
                let name = nth(samplers, i, 0);
                if name != 0 && !self.samplers.exists(name) {
                    return invalid_op(format!("glBindSamplers: {name} is not a sampler"));
                }
                self.sampler_units[first as usize + i] = name;
                Ok(())
            })
        })();
        self.record(r);
    }

    /// `glBindImageTextures`: image units `first..first + count` get level 0 of each texture,
    /// every layer (layered) where it has layers, for reading and writing, in its own internal
    /// format; 0 (or NULL) unbinds.
    pub fn bind_image_textures(&mut self, first: u32, count: i32, textures: Option<&[u32]>) {
        use crate::gl::compute::image_unit::{ImageUnit, IMAGE_FORMATS, MAX_IMAGE_UNITS};
        const GL_READ_WRITE: GLenum = 0x88BA;
        let r = (|| {
            let n = check_run("glBindImageTextures", first, count, MAX_IMAGE_UNITS)?;
            each(n, |i| {
                let name = nth(textures, i, 0);
                let unit = match name {
                    0 => ImageUnit::default(),
                    _ => {
                        let (format, layered) = self.image_binding_of(name)?;
                        if !IMAGE_FORMATS.contains(&format) {
                            return invalid_op(format!(
                                "glBindImageTextures: texture {name}'s format 0x{format:04X} \
                                 is not an image format"
                            ));
                        }
                        ImageUnit {
                            texture: name,
                            level: 0,
                            layered,
                            layer: 0,
                            access: GL_READ_WRITE,
                            format,
                        }
                    }
                };
                self.compute.images[first as usize + i] = unit;
                Ok(())
            })
        })();
        self.record(r);
    }

    /// The internal format of level 0 of texture `name` and whether it binds layered
    /// (`GL_INVALID_OPERATION`: no texture, or no level 0).
    fn image_binding_of(&self, name: u32) -> GlResult<(GLenum, bool)> {
        let texture = self.textures.get(name).filter(|t| t.named());
        if let Some(b) = texture.and_then(|t| t.buffer.as_ref()) {
            return Ok((b.internal, false));
        }
        match texture.and_then(|t| t.storage.as_ref()) {
            Some(image) if image.level_defined(0) => Ok((image.internal, layered(image.target))),
            Some(_) => invalid_op(format!(
                "glBindImageTextures: texture {name} has no level 0"
            )),
            None if texture.is_some_and(|t| t.target.is_some()) => invalid_op(format!(
                "glBindImageTextures: texture {name} has no level 0"
            )),
            None => invalid_op(format!("glBindImageTextures: {name} is not a texture")),
        }
    }

    /// `glBindVertexBuffers`: binding points `first..first + count` of the bound vertex array
    /// read `buffers` (NULL: none, offset 0, stride 16).
    pub fn bind_vertex_buffers(&mut self, first: u32, count: i32, buffers: Option<VertexBuffers>) {
        let r = self.bind_vertex_buffers_checked("glBindVertexBuffers", first, count, buffers);
        self.record(r);
    }

    /// [`Context::bind_vertex_buffers`] on the vertex array being edited (the bound one, or
    /// the one `glVertexArrayVertexBuffers` names), without recording the error.
    pub(crate) fn bind_vertex_buffers_checked(
        &mut self,
        call: &str,
        first: u32,
        count: i32,
        buffers: Option<VertexBuffers>,
    ) -> GlResult<()> {
        const POINTS: usize =
            crate::gl::objects::vertex_array::binding::MAX_VERTEX_ATTRIB_BINDINGS as usize;
        let n = check_run(call, first, count, POINTS)?;
        self.current_vao_mut()?;
        each(n, |i| {
            let (buffer, offset, stride) = match &buffers {
                Some(v) => (
                    nth(Some(v.buffers), i, 0),
                    nth(Some(v.offsets), i, -1),
                    nth(Some(v.strides), i, -1),
                ),
                None => (0, 0, 16),
            };
            if buffer != 0 && !self.buffers.exists(buffer) {
                return invalid_op(format!("{call}: {buffer} is not the name of a buffer"));
            }
            self.bind_vertex_buffer_checked(call, first + i as u32, buffer, offset, stride)
        })
    }
}
