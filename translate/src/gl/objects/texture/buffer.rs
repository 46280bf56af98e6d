//! Buffer textures (GL 3.1, `GL_ARB_texture_buffer_object`, `GL_ARB_texture_buffer_range`):
//! `glTexBuffer`, `glTexBufferRange`, their queries, and the texel-buffer views draws sample.
//!
//! Design decisions:
//! - A buffer texture owns no image. Its state is GL's: an internal format, a buffer name and,
//!   after `glTexBufferRange`, an offset and size (`glTexBuffer` follows the buffer's size,
//!   whatever `glBufferData` makes it later). A texture becomes a buffer texture on its first
//!   `glBindTexture(GL_TEXTURE_BUFFER)` ([`Texture::buffer`] is then `Some`), and the unit
//!   binding lives beside the image targets' in [`TextureBufferUnits`].
//! - Shaders' `samplerBuffer`s are Vulkan uniform texel buffers. The `VkBufferView` is made at
//!   draw time over the buffer's *current* storage and cached in the texture, keyed by the
//!   storage's generational handle, format, offset and range. `glBufferData` (and the rename of
//!   a small shadowed buffer) gives the buffer a new handle, so a view can never outlive the
//!   storage it was made for in use: the next draw makes a new one, and the old one goes to
//!   the device's retire queue at the recording epoch, destroyed once every submission
//!   that may use it completed. A view is not device memory, so the translator creates it
//!   directly (as it does pipelines); the buffer itself is stamped with `use_buffer` on every
//!   draw, so its retire waits for the draws that read it, and writes through
//!   `glBufferSubData` / maps are ordered with them by the manager's upload barriers.
//! - The view's range is the GL range clamped to the buffer's current size and to
//!   `maxTexelBufferElements` texels (reads past it return what Vulkan's bounds rules give);
//!   offsets are multiples of `minTexelBufferOffsetAlignment` because that is exactly
//!   `GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT`.
//! - Formats: GL 4.6 table 8.18 (R, RG, RGBA in 8/16-bit normalized, 16/32-bit float and
//!   8/16/32-bit integers) and the three RGB32 formats (`GL_ARB_texture_buffer_object_rgb32`),
//!   each only where the device reads it as a uniform texel buffer (Vulkan does not require
//!   the RGB32 nor the 16-bit unorm ones). The compatibility formats of
//!   `GL_ARB_texture_buffer_object` (alpha, luminance, intensity) are refused: GL samples them
//!   through a component swizzle, and texel-buffer views have none; so that extension is not
//!   advertised (GL 3.3 has buffer textures in core anyway).

use arenagl_memory::BufferHandle;
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::{Context, Profile};
use crate::gl::objects::texture::Texture;
use crate::gl::vk::device::{Locked, Retired};
use crate::glsl::SampledKind;

/// `GL_TEXTURE_BINDING_BUFFER`.
pub const GL_TEXTURE_BINDING_BUFFER: GLenum = 0x8C2C;
/// `GL_TEXTURE_BUFFER_DATA_STORE_BINDING`.
pub const GL_TEXTURE_BUFFER_DATA_STORE_BINDING: GLenum = 0x8C2D;
/// `GL_TEXTURE_BUFFER_FORMAT_ARB` (a `glGet` of the active unit's buffer texture).
pub const GL_TEXTURE_BUFFER_FORMAT: GLenum = 0x8C2E;
/// `GL_TEXTURE_BUFFER_OFFSET`.
pub const GL_TEXTURE_BUFFER_OFFSET: GLenum = 0x919D;
/// `GL_TEXTURE_BUFFER_SIZE`.
pub const GL_TEXTURE_BUFFER_SIZE: GLenum = 0x919E;
/// `GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT`.
pub const GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT: GLenum = 0x919F;

/// The Vulkan format and texel size of a buffer-texture internal format (GL 4.6 table 8.18);
/// `None` for a name GL does not accept for buffer textures. Rows are returned here whatever
/// the device; `Context::buffer_format` checks that the device samples the format.
pub(crate) fn buffer_format(internal: GLenum) -> Option<(vk::Format, u64)> {
    use vk::Format as F;
    Some(match internal {
        0x8229 => (F::R8_UNORM, 1),             // GL_R8
        0x822A => (F::R16_UNORM, 2),            // GL_R16
        0x822D => (F::R16_SFLOAT, 2),           // GL_R16F
        0x822E => (F::R32_SFLOAT, 4),           // GL_R32F
        0x8231 => (F::R8_SINT, 1),              // GL_R8I
        0x8233 => (F::R16_SINT, 2),             // GL_R16I
        0x8235 => (F::R32_SINT, 4),             // GL_R32I
        0x8232 => (F::R8_UINT, 1),              // GL_R8UI
        0x8234 => (F::R16_UINT, 2),             // GL_R16UI
        0x8236 => (F::R32_UINT, 4),             // GL_R32UI
        0x822B => (F::R8G8_UNORM, 2),           // GL_RG8
        0x822C => (F::R16G16_UNORM, 4),         // GL_RG16
        0x822F => (F::R16G16_SFLOAT, 4),        // GL_RG16F
        0x8230 => (F::R32G32_SFLOAT, 8),        // GL_RG32F
        0x8237 => (F::R8G8_SINT, 2),            // GL_RG8I
        0x8239 => (F::R16G16_SINT, 4),          // GL_RG16I
        0x823B => (F::R32G32_SINT, 8),          // GL_RG32I
        0x8238 => (F::R8G8_UINT, 2),            // GL_RG8UI
        0x823A => (F::R16G16_UINT, 4),          // GL_RG16UI
        0x823C => (F::R32G32_UINT, 8),          // GL_RG32UI
        0x8815 => (F::R32G32B32_SFLOAT, 12),    // GL_RGB32F
        0x8D83 => (F::R32G32B32_SINT, 12),      // GL_RGB32I
        0x8D71 => (F::R32G32B32_UINT, 12),      // GL_RGB32UI
        0x8058 => (F::R8G8B8A8_UNORM, 4),       // GL_RGBA8
        0x805B => (F::R16G16B16A16_UNORM, 8),   // GL_RGBA16
        0x881A => (F::R16G16B16A16_SFLOAT, 8),  // GL_RGBA16F
        0x8814 => (F::R32G32B32A32_SFLOAT, 16), // GL_RGBA32F
        0x8D8E => (F::R8G8B8A8_SINT, 4),        // GL_RGBA8I
        0x8D88 => (F::R16G16B16A16_SINT, 8),    // GL_RGBA16I
        0x8D82 => (F::R32G32B32A32_SINT, 16),   // GL_RGBA32I
        0x8D7C => (F::R8G8B8A8_UINT, 4),        // GL_RGBA8UI
        0x8D76 => (F::R16G16B16A16_UINT, 8),    // GL_RGBA16UI
        0x8D70 => (F::R32G32B32A32_UINT, 16),   // GL_RGBA32UI
        _ => return None,
    })
}

/// The cached view: what it was made for, and the view.
#[derive(Debug, Clone, Copy)]
struct CachedView {
    key: ViewKey,
    raw: vk::BufferView,
    /// The device generation it was made on (a recovered device makes it again).
    generation: u64,
}

/// What a texel-buffer view is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ViewKey {
    storage: BufferHandle,
    format: vk::Format,
    offset: u64,
    range: u64,
}

/// A buffer texture's state (see the module docs).
#[derive(Debug)]
pub(crate) struct TexBuffer {
    /// `GL_TEXTURE_INTERNAL_FORMAT` / `GL_TEXTURE_BUFFER_FORMAT_ARB`.
    pub internal: GLenum,
    /// `GL_TEXTURE_BUFFER_DATA_STORE_BINDING` (0: none).
    pub buffer: u32,
    /// `glTexBufferRange`'s offset and size; `None`: the whole buffer.
    pub range: Option<(u64, u64)>,
    view: Option<CachedView>,
}

impl TexBuffer {
    /// A new buffer texture's state: no buffer, format `GL_R8` (`GL_LUMINANCE8` in the
    /// compatibility profile, as `GL_ARB_texture_buffer_object` defines it).
    pub(crate) fn new(profile: Profile) -> Self {
        Self {
            internal: match profile {
                Profile::Core => 0x8229,
                Profile::Compatibility => 0x8040,
            },
            buffer: 0,
            range: None,
            view: None,
        }
    }

    /// Gives the cached view back (destroyed once the epoch being recorded completes).
    pub(crate) fn release(&mut self, locked: &mut Locked) {
        if let Some(v) = self.view.take() {
            locked.retire_from(v.generation, Retired::BufferView(v.raw));
        }
    }

    /// `GL_TEXTURE_BUFFER_OFFSET` and `GL_TEXTURE_BUFFER_SIZE` for a buffer of `buffer_size`
    /// bytes (0 and 0 without a buffer; the whole buffer after `glTexBuffer`).
    pub(crate) fn offset_size(&self, buffer_size: u64) -> (u64, u64) {
        offset_size(self.buffer, self.range, buffer_size)
    }

    /// The view to sample for the buffer `storage` of `buffer_size` bytes: the cached one when
    /// it was made for exactly this, else a new one (the old one deferred). `None` when the
    /// range is empty (the texture then samples as if it had no buffer).
    pub(crate) fn view(
        &mut self,
        locked: &mut Locked,
        device: &ash::Device,
        limits: &vk::PhysicalDeviceLimits,
        storage: BufferHandle,
        buffer_size: u64,
    ) -> GlResult<Option<vk::BufferView>> {
        let Some((format, texel)) = buffer_format(self.internal) else {
            return Ok(None);
        };
        let (offset, size) = self.offset_size(buffer_size);
        let max = u64::from(limits.max_texel_buffer_elements) * texel;
        let range = size.min(buffer_size.saturating_sub(offset)).min(max) / texel * texel;
        if range == 0 {
            return Ok(None);
        }
        let key = ViewKey {
            storage,
            format,
            offset,
            range,
        };
        // Stamps the buffer for the recording epoch: its retire waits for this draw.
        let raw_buffer = locked.manager.use_buffer(storage)?.raw();
        let generation = locked.generation();
        if let Some(v) = self
            .view
            .filter(|v| v.key == key && v.generation == generation)
        {
            return Ok(Some(v.raw));
        }
        self.release(locked);
        let info = vk::BufferViewCreateInfo::default()
            .buffer(raw_buffer)
            .format(format)
            .offset(offset)
            .range(range);
        // SAFETY: valid device and live buffer (just stamped); the buffer was made with
        // UNIFORM_TEXEL_BUFFER usage, the format supports uniform texel buffers (checked when
        // the format was set), the offset is a multiple of minTexelBufferOffsetAlignment (GL's
        // TEXTURE_BUFFER_OFFSET_ALIGNMENT) and offset + range lies inside the buffer with at
        // most maxTexelBufferElements texels.
        let raw = unsafe { device.create_buffer_view(&info, None) }
            .map_err(|r| GlError::vulkan("vkCreateBufferView", r))?;
        self.view = Some(CachedView {
            key,
            raw,
            generation,
        });
        Ok(Some(raw))
    }
}

/// Per texture unit, the texture bound to `GL_TEXTURE_BUFFER`, the compatibility profile's
/// default buffer texture (name 0), and what a sampler with no usable buffer reads.
pub(crate) struct TextureBufferUnits {
    pub units: Vec<u32>,
    pub default: Texture,
    /// A zeroed 16-byte buffer and its RGBA32 float, int and uint views, made on first need:
    /// a `samplerBuffer` whose unit has no buffer (or an empty range) reads zeros from it.
    dummy: Option<(BufferHandle, [vk::BufferView; 3])>,
}

impl TextureBufferUnits {
    /// The buffer texture bound to texture unit `unit` (0: the default one, or none).
    pub(crate) fn bound_at(&self, unit: u32) -> u32 {
        self.units.get(unit as usize).copied().unwrap_or(0)
    }

    pub(crate) fn new(units: usize, profile: Profile) -> Self {
        Self {
            units: vec![0; units],
            default: Texture {
                buffer: Some(TexBuffer::new(profile)),
                ..Texture::default()
            },
            dummy: None,
        }
    }

    /// The stand-in view for a sampler of `kind` (stamped for the recording epoch).
    pub(crate) fn dummy_view(
        &mut self,
        locked: &mut Locked,
        device: &ash::Device,
        kind: SampledKind,
    ) -> GlResult<vk::BufferView> {
        let slot = match kind {
            SampledKind::Float => 0,
            SampledKind::Int => 1,
            SampledKind::UInt => 2,
        };
        if let Some((buffer, views)) = self.dummy {
            locked.manager.use_buffer(buffer)?;
            return Ok(views[slot]);
        }
        let buffer = locked.manager.create_buffer(
            &crate::gl::objects::buffer::storage_desc(16).named("GL buffer-texture stand-in"),
        )?;
        let made = (|| {
            locked.manager.upload_buffer(buffer, 0, &[0; 16])?;
            let raw = locked.manager.use_buffer(buffer)?.raw();
            let mut views = [vk::BufferView::null(); 3];
            for (i, format) in [
                vk::Format::R32G32B32A32_SFLOAT,
                vk::Format::R32G32B32A32_SINT,
                vk::Format::R32G32B32A32_UINT,
            ]
            .into_iter()
            .enumerate()
            {
                let info = vk::BufferViewCreateInfo::default()
                    .buffer(raw)
                    .format(format)
                    .offset(0)
                    .range(16);
                // SAFETY: valid device and live buffer with UNIFORM_TEXEL_BUFFER usage; the
                // RGBA32 formats are mandatory for uniform texel buffers; one texel in range.
                match unsafe { device.create_buffer_view(&info, None) } {
                    Ok(raw) => views[i] = raw,
                    Err(r) => {
                        for made in views.into_iter().filter(|v| *v != vk::BufferView::null()) {
                            locked.retire(Retired::BufferView(made));
                        }
                        return Err(GlError::vulkan("vkCreateBufferView", r));
                    }
                }
            }
            Ok::<_, GlError>(views)
        })();
        match made {
            Ok(views) => {
                self.dummy = Some((buffer, views));
                Ok(views[slot])
            }
            Err(e) => {
                let _ = locked.manager.retire_buffer(buffer);
                Err(e)
            }
        }
    }

    /// After a device recovery: the stand-in's views, made on the device of generation
    /// `lost`, are destroyed there; the stand-in is made again on first need.
    pub(crate) fn forget_lost_device(&mut self, locked: &mut Locked, lost: u64) {
        if let Some((buffer, views)) = self.dummy.take() {
            for v in views.into_iter().filter(|v| *v != vk::BufferView::null()) {
                locked.retire_from(lost, Retired::BufferView(v));
            }
            let _ = locked.manager.retire_buffer(buffer);
        }
    }

    /// Gives the default texture's view and the stand-in back (context destruction).
    pub(crate) fn release(&mut self, locked: &mut Locked) {
        if let Some(b) = self.default.buffer.as_mut() {
            b.release(locked);
        }
        if let Some((buffer, views)) = self.dummy.take() {
            for v in views.into_iter().filter(|v| *v != vk::BufferView::null()) {
                locked.retire(Retired::BufferView(v));
            }
            let _ = locked.manager.retire_buffer(buffer);
        }
    }
}

impl Context {
    /// The Vulkan format and texel size of `internal` for a buffer texture on this device
    /// (`GL_INVALID_ENUM` otherwise). Every row is checked, not only RGB32: Vulkan does not
    /// require the 16-bit unorm formats as uniform texel buffers either (a device without
    /// them refuses those names rather than failing at draw time).
    pub(crate) fn buffer_format(&self, internal: GLenum) -> GlResult<(vk::Format, u64)> {
        match buffer_format(internal) {
            Some((f, texel)) if self.device.lock().manager.supports_texel_buffer(f) => {
                Ok((f, texel))
            }
            _ => invalid_enum("buffer texture internal format", internal),
        }
    }

    /// Whether the device samples the RGB32 formats as texel buffers
    /// (`GL_ARB_texture_buffer_object_rgb32`).
    pub(crate) fn texture_buffer_rgb32(device: &crate::gl::vk::device::Device) -> bool {
        let locked = device.lock();
        [
            vk::Format::R32G32B32_SFLOAT,
            vk::Format::R32G32B32_SINT,
            vk::Format::R32G32B32_UINT,
        ]
        .into_iter()
        .all(|f| locked.manager.supports_texel_buffer(f))
    }

    /// The buffer texture bound to the active unit (name 0: the compatibility profile's
    /// default one; the core profile has none to change).
    /// A DSA command's texture (`dsa`) stands in for the bound one.
    pub(crate) fn bound_buffer_texture(&mut self) -> GlResult<&mut TexBuffer> {
        let name = (self.dsa.texture)
            .unwrap_or_else(|| self.texture_buffers.bound_at(self.active_texture));
        let t = if name == 0 {
            if self.profile != Profile::Compatibility {
                return invalid_op("no texture bound to GL_TEXTURE_BUFFER");
            }
            &mut self.texture_buffers.default
        } else {
            self.textures
                .get_mut(name)
                .ok_or_else(|| GlError::InvalidOperation("no buffer texture bound".into()))?
        };
        t.buffer
            .as_mut()
            .ok_or_else(|| GlError::InvalidOperation("not a buffer texture".into()))
    }

    /// The active unit's buffer texture, for `glGet` (`GL_TEXTURE_BUFFER_FORMAT_ARB`,
    /// `GL_TEXTURE_BUFFER_DATA_STORE_BINDING`); `None` when the core profile's unit has none.
    pub(crate) fn active_buffer_texture(&self) -> Option<&TexBuffer> {
        let name = self.texture_buffers.bound_at(self.active_texture);
        let t = if name == 0 {
            Some(&self.texture_buffers.default)
        } else {
            self.textures.get(name)
        };
        t.and_then(|t| t.buffer.as_ref())
    }

    /// `glBindTexture(GL_TEXTURE_BUFFER, name)`: a texture first bound here is a buffer
    /// texture for life.
    pub(crate) fn bind_buffer_texture(&mut self, name: u32) {
        let profile = self.profile;
        let r = (|| {
            if name != 0 {
                let t = self.texture_to_bind(name)?;
                if let Some(first) = t.target {
                    return invalid_op(format!(
                        "the texture was first bound to target 0x{:04X}",
                        first.gl()
                    ));
                }
                if t.buffer.is_none() {
                    t.buffer = Some(TexBuffer::new(profile));
                }
            }
            if let Some(u) = self
                .texture_buffers
                .units
                .get_mut(self.active_texture as usize)
            {
                *u = name;
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glTexBuffer` (`range` `None`) and `glTexBufferRange` (GL 4.6 §8.9).
    pub fn tex_buffer(
        &mut self,
        target: GLenum,
        internal: GLenum,
        buffer: u32,
        range: Option<(i64, i64)>,
    ) {
        let r = (|| {
            if target != GL_TEXTURE_BUFFER {
                return invalid_enum("glTexBuffer target", target);
            }
            self.buffer_format(internal)?;
            if buffer != 0 && !self.buffers.exists(buffer) {
                return invalid_op(format!("{buffer} is not the name of a buffer object"));
            }
            let range = match range {
                Some((offset, size)) if buffer != 0 => {
                    let have = self.buffers.get(buffer).map_or(0, |b| b.size);
                    let align = self.device.caps().limits.min_texel_buffer_offset_alignment;
                    if offset < 0
                        || size <= 0
                        || (offset as u64).saturating_add(size as u64) > have
                        || (offset as u64) % align.max(1) != 0
                    {
                        return invalid_value(format!(
                            "glTexBufferRange offset {offset} size {size} (buffer of {have} \
                             bytes, offsets aligned to {align})"
                        ));
                    }
                    Some((offset as u64, size as u64))
                }
                _ => None,
            };
            let t = self.bound_buffer_texture()?;
            t.internal = internal;
            t.buffer = buffer;
            t.range = range;
            Ok(())
        })();
        self.record(r);
    }

    /// The texel-buffer view a `samplerBuffer` of `kind` reads on texture unit `unit`: the
    /// unit's buffer texture over its buffer's current storage, or the zero stand-in when the
    /// unit has none, its buffer has no storage or an empty range, or its format returns
    /// another kind (GL leaves that result undefined).
    pub(crate) fn buffer_texture_view(
        &mut self,
        locked: &mut Locked,
        device: &crate::gl::vk::device::Device,
        unit: usize,
        kind: SampledKind,
    ) -> GlResult<vk::BufferView> {
        let name = self.texture_buffers.units.get(unit).copied().unwrap_or(0);
        let texture = if name == 0 {
            (self.profile == Profile::Compatibility).then_some(&mut self.texture_buffers.default)
        } else {
            self.textures.get_mut(name)
        };
        let tex = texture.and_then(|t| t.buffer.as_mut()).filter(|b| {
            buffer_format(b.internal)
                .is_some_and(|(f, _)| crate::gl::objects::texture::sampled_kind(f) == kind)
        });
        let storage = tex.as_ref().and_then(|b| {
            let buffer = self.buffers.get(b.buffer).filter(|_| b.buffer != 0)?;
            Some((buffer.storage?, buffer.size))
        });
        if let (Some(tex), Some((storage, size))) = (tex, storage) {
            let limits = &device.caps().limits;
            if let Some(view) = tex.view(locked, device.raw(), limits, storage, size)? {
                return Ok(view);
            }
        }
        self.texture_buffers.dummy_view(locked, device.raw(), kind)
    }

    /// `glGetTexLevelParameter(GL_TEXTURE_BUFFER, level, pname)`.
    pub(crate) fn buffer_texture_level_parameter(
        &mut self,
        level: i32,
        pname: GLenum,
    ) -> GlResult<i32> {
        if level != 0 {
            return invalid_value(format!("level {level} of a buffer texture"));
        }
        let max = self.device.caps().limits.max_texel_buffer_elements;
        let t = self.bound_buffer_texture()?;
        let (internal, name) = (t.internal, t.buffer);
        let range = t.range;
        let have = self.buffers.get(name).map_or(0, |b| b.size);
        let (offset, size) = offset_size(name, range, have);
        let info = (name != 0)
            .then(|| crate::gl::objects::texture::internal_format::lookup(internal))
            .flatten();
        if let Some(v) = crate::gl::objects::texture::api::format_query(info.as_ref(), pname) {
            return Ok(v);
        }
        let texels =
            buffer_format(internal).map_or(0, |(_, texel)| (size / texel).min(u64::from(max)));
        Ok(match pname {
            GL_TEXTURE_BUFFER_DATA_STORE_BINDING => name as i32,
            GL_TEXTURE_BUFFER_OFFSET => clamp_i32(offset),
            GL_TEXTURE_BUFFER_SIZE => clamp_i32(size),
            GL_TEXTURE_WIDTH => clamp_i32(texels),
            GL_TEXTURE_HEIGHT | GL_TEXTURE_DEPTH => i32::from(name != 0),
            GL_TEXTURE_INTERNAL_FORMAT => internal as i32,
            GL_TEXTURE_SAMPLES => 0,
            GL_TEXTURE_FIXED_SAMPLE_LOCATIONS => 1,
            // GL_TEXTURE_COMPRESSED, GL_TEXTURE_COMPRESSED_IMAGE_SIZE.
            0x86A1 | 0x86A0 => 0,
            p => return invalid_enum("glGetTexLevelParameter pname", p),
        })
    }

    /// Detaches the buffer `name` (being deleted) from every buffer texture of this context.
    pub(crate) fn detach_buffer_from_textures(&mut self, name: u32) {
        let detach = |t: &mut Texture| {
            if let Some(b) = t.buffer.as_mut().filter(|b| b.buffer == name) {
                b.buffer = 0;
                b.range = None;
            }
        };
        detach(&mut self.texture_buffers.default);
        for n in self.textures.created() {
            if let Some(t) = self.textures.get_mut(n) {
                detach(t);
            }
        }
    }
}

/// [`TexBuffer::offset_size`] of its parts.
fn offset_size(buffer: u32, range: Option<(u64, u64)>, buffer_size: u64) -> (u64, u64) {
    if buffer == 0 {
        return (0, 0);
    }
    range.unwrap_or((0, buffer_size))
}

fn clamp_i32(v: u64) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row's texel size agrees with the GL format's channel bits, and every row is a
    /// GL internal format of the same name.
    #[test]
    fn rows_match_the_internal_format_table() {
        for internal in 0x8000..0x9000 {
            let Some((_, texel)) = buffer_format(internal) else {
                continue;
            };
            let info = crate::gl::objects::texture::internal_format::lookup(internal)
                .unwrap_or_else(|| panic!("0x{internal:04X} is no internal format"));
            let bits: u64 = info.bits[..4].iter().map(|&b| u64::from(b)).sum();
            assert_eq!(bits / 8, texel, "0x{internal:04X}");
        }
        assert!(
            buffer_format(0x8040).is_none(),
            "GL_LUMINANCE8 needs a swizzle"
        );
        assert!(
            buffer_format(0x8051).is_none(),
            "GL_RGB8 is not a buffer format"
        );
    }

    #[test]
    fn whole_buffer_follows_the_buffer_size() {
        let mut t = TexBuffer::new(Profile::Core);
        assert_eq!(t.offset_size(64), (0, 0));
        t.buffer = 3;
        assert_eq!(t.offset_size(64), (0, 64));
        assert_eq!(t.offset_size(128), (0, 128));
        t.range = Some((16, 32));
        assert_eq!(t.offset_size(128), (16, 32));
    }
}
