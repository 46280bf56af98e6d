//! Pixel buffer objects: what a pixel-transfer command's pointer argument means while a buffer
//! is bound to `GL_PIXEL_UNPACK_BUFFER` (the source of `glTexImage*`, `glTexSubImage*`,
//! `glCompressedTex*`, `glDrawPixels`, `glBitmap`) or `GL_PIXEL_PACK_BUFFER` (the destination
//! of `glReadPixels`, `glGetTexImage`).
//!
//! Design decisions:
//! - With a buffer bound, the pointer argument is a byte offset into it and is never
//!   dereferenced: the C edge asks here first, and only when no buffer is bound does it turn
//!   the pointer into a client slice. This is the one place that decides, so no entry point can
//!   read or write client memory through an "offset".
//! - The checks are GL's (4.6 §8.4.4.1, §18.2.2): the range the command covers must lie inside
//!   the buffer, the offset must be a multiple of the type's size, and the buffer must not be
//!   mapped (a persistent mapping is allowed); each failure is `GL_INVALID_OPERATION`. A command
//!   that covers no bytes checks nothing, as Mesa does.
//! - A `glTexSubImage*` whose buffer bytes already are the texture's texels (RGBA bytes into an
//!   RGBA8 texture, …) is a copy on the device (`MemoryManager::copy_buffer_to_image`): no
//!   readback, no CPU pass. Every other unpack reads the covered bytes out of the buffer (its
//!   CPU shadow, or a readback through the memory manager) and hands them to the ordinary
//!   client-memory path, so every format conversion is shared.
//! - A pack reads the covered range, lets the command pack into it (bytes between rows and
//!   pixels keep their values) and writes it back. Both go through the buffer's own read/write
//!   paths, never around the memory manager.

use arenagl_staging::{ClientFormat, ClientLayout, PixelStore, Region};
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::texture::api::{unpack_for, SubImage};
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::TexImage;

/// The bytes of one datum of `ty` (GL 4.6 table 8.4: a packed type by its whole word), which
/// a buffer offset must be a multiple of. Bytes, `GL_BITMAP` and compressed images (no type): 1.
pub(crate) fn datum_bytes(ty: GLenum) -> u64 {
    match ty {
        GL_SHORT | GL_UNSIGNED_SHORT | GL_HALF_FLOAT => 2,
        // GL_UNSIGNED_SHORT_4_4_4_4, _5_5_5_1; _5_6_5, _5_6_5_REV, _4_4_4_4_REV, _1_5_5_5_REV
        0x8033 | 0x8034 | 0x8363..=0x8366 => 2,
        GL_INT | GL_UNSIGNED_INT | GL_FLOAT => 4,
        GL_UNSIGNED_INT_24_8 | GL_FLOAT_32_UNSIGNED_INT_24_8_REV => 4,
        // GL_UNSIGNED_INT_8_8_8_8, _10_10_10_2, _8_8_8_8_REV, _2_10_10_10_REV
        0x8035 | 0x8036 | 0x8367 | 0x8368 => 4,
        // GL_UNSIGNED_INT_10F_11F_11F_REV, GL_UNSIGNED_INT_5_9_9_9_REV
        0x8C3B | 0x8C3E => 4,
        _ => 1,
    }
}

/// Which of the two pixel-buffer bindings a command uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixelBufferTarget {
    /// `GL_PIXEL_UNPACK_BUFFER`: the command reads pixels from it.
    Unpack,
    /// `GL_PIXEL_PACK_BUFFER`: the command writes pixels into it.
    Pack,
}

impl PixelBufferTarget {
    fn gl(self) -> GLenum {
        match self {
            Self::Unpack => GL_PIXEL_UNPACK_BUFFER,
            Self::Pack => GL_PIXEL_PACK_BUFFER,
        }
    }
}

impl Context {
    /// Whether a buffer is bound to `target`: the pointer argument of a pixel-transfer command
    /// is then an offset into it.
    pub fn pixel_buffer_bound(&self, target: PixelBufferTarget) -> bool {
        self.bound_buffer(target.gl()).is_ok_and(|name| name != 0)
    }

    /// For an unpack command (`call`) while a buffer is bound to `GL_PIXEL_UNPACK_BUFFER`: the
    /// `bytes` bytes at `offset` in it, for datums of type `ty` (`GL_BITMAP` for bitmaps, 0 for
    /// compressed images). `None` when GL refuses the range (the error is recorded).
    pub fn unpack_buffer_bytes(
        &mut self,
        call: &str,
        offset: u64,
        bytes: usize,
        ty: GLenum,
    ) -> Option<Vec<u8>> {
        let r = self.checked_range(call, PixelBufferTarget::Unpack, offset, bytes, ty);
        self.record(r)?;
        let mut staged = vec![0u8; bytes];
        if bytes > 0 {
            self.read_pixel_buffer(PixelBufferTarget::Unpack, offset, &mut staged)?;
        }
        Some(staged)
    }

    /// For a pack command (`call`) while a buffer is bound to `GL_PIXEL_PACK_BUFFER`: runs
    /// `fill` on the `bytes` bytes at `offset` in it (holding their current values) and writes
    /// them back. Refused ranges record their error and run nothing.
    pub fn pack_into_buffer(
        &mut self,
        call: &str,
        (offset, bytes, ty): (u64, usize, GLenum),
        fill: impl FnOnce(&mut Self, &mut [u8]),
    ) {
        let r = self.checked_range(call, PixelBufferTarget::Pack, offset, bytes, ty);
        if self.record(r).is_none() {
            return;
        }
        if bytes == 0 {
            // Nothing is written, but the command still validates its other arguments.
            return fill(self, &mut []);
        }
        let mut staged = vec![0u8; bytes];
        if self
            .read_pixel_buffer(PixelBufferTarget::Pack, offset, &mut staged)
            .is_none()
        {
            return;
        }
        fill(self, &mut staged);
        // A command that refused its other arguments packed nothing: the bytes written back
        // are the ones just read.
        let r = self.write_pixel_buffer(offset, &staged);
        self.record(r);
    }

    /// GL's checks on `bytes` bytes at `offset` of the buffer bound to `target`.
    fn checked_range(
        &self,
        call: &str,
        target: PixelBufferTarget,
        offset: u64,
        bytes: usize,
        ty: GLenum,
    ) -> GlResult<()> {
        let name = self.bound_buffer(target.gl())?;
        let b = self.buffers.get(name).ok_or_else(|| {
            GlError::InvalidOperation(format!("{call}: the pixel buffer is gone"))
        })?;
        if bytes == 0 {
            return Ok(());
        }
        let end = offset.checked_add(bytes as u64);
        if end.is_none_or(|end| end > b.size) {
            return invalid_op(format!(
                "{call}: {bytes} bytes at offset {offset} do not fit the {}-byte pixel buffer {name}",
                b.size
            ));
        }
        let align = datum_bytes(ty);
        if offset % align != 0 {
            return invalid_op(format!(
                "{call}: pixel buffer offset {offset} is not a multiple of the type's {align} bytes"
            ));
        }
        if b.mapped_exclusively() {
            return invalid_op(format!("{call}: the pixel buffer {name} is mapped"));
        }
        Ok(())
    }

    /// Reads a checked range of the pixel buffer (`None`: the read failed, error recorded).
    fn read_pixel_buffer(
        &mut self,
        target: PixelBufferTarget,
        offset: u64,
        out: &mut [u8],
    ) -> Option<()> {
        let device = self.device.clone();
        let r = self.bound_buffer(target.gl()).and_then(|name| {
            let b = self
                .buffers
                .get(name)
                .ok_or_else(|| GlError::InvalidOperation("the pixel buffer is gone".into()))?;
            crate::gl::objects::buffer::api::read_range(&device, b, offset, out)
        });
        let done = self.record(r);
        self.rewind_idle_staging();
        done
    }

    /// Writes a checked range back into the pack buffer. Unlike `glBufferSubData`, immutable
    /// storage without `GL_DYNAMIC_STORAGE_BIT` accepts it: that bit limits the client's
    /// writes, not the GL's own.
    fn write_pixel_buffer(&mut self, offset: u64, data: &[u8]) -> GlResult<()> {
        let device = self.device.clone();
        let name = self.bound_buffer(GL_PIXEL_PACK_BUFFER)?;
        let b = self
            .buffers
            .get_mut(name)
            .ok_or_else(|| GlError::InvalidOperation("the pixel pack buffer is gone".into()))?;
        crate::gl::objects::buffer::api::write_range(&device, b, offset, data)
    }
}

impl Context {
    /// `glTexSubImage{dims}D` while a buffer is bound to `GL_PIXEL_UNPACK_BUFFER`, as a copy on
    /// the device (`MemoryManager::copy_buffer_to_image`) when the buffer's bytes already are
    /// the texture's texels: no readback, no CPU pass, no staging. True when the command is
    /// done; false when nothing was done — an argument GL refuses, a conversion to make, a
    /// layout Vulkan cannot read — and the caller runs the ordinary path, which reports the
    /// errors and converts.
    pub fn tex_sub_image_from_unpack_buffer(
        &mut self,
        dims: u32,
        target: GLenum,
        level: i32,
        (offset, size): ([i32; 3], [i32; 3]),
        (format, ty): (GLenum, GLenum),
        buffer_offset: u64,
    ) -> bool {
        let Ok(Some(sub)) =
            self.sub_image_region(dims, target, level, (offset, size), (format, ty))
        else {
            return false;
        };
        let Some((client, unpack, bytes)) = self.unpack_layout(&sub, (format, ty)) else {
            return false;
        };
        let range = self.checked_range(
            "glTexSubImage",
            PixelBufferTarget::Unpack,
            buffer_offset,
            bytes,
            ty,
        );
        let source = self
            .bound_buffer(GL_PIXEL_UNPACK_BUFFER)
            .ok()
            .and_then(|name| self.buffers.get(name)?.storage);
        let (Ok(()), Some(source)) = (range, source) else {
            return false;
        };
        let device = self.device.clone();
        let Ok(t) = self.bound_texture(sub.tt) else {
            return false;
        };
        let Some(image) = t
            .storage
            .as_ref()
            // A shared image (a texture view's) may have another format or origin: the
            // general path converts and places it.
            .filter(|s| stored_as_given(s) && !s.shared.is_shared())
            .map(|s| s.image)
        else {
            return false;
        };
        let copied = device.lock().manager.copy_buffer_to_image(
            (source, buffer_offset),
            image,
            &sub.region,
            (&unpack, client),
        );
        if !matches!(copied, Ok(true)) {
            return false;
        }
        t.forget_blocks(sub.face, sub.region.mip_level);
        self.auto_generate_mipmap(target, sub.region.mip_level as i32);
        true
    }

    /// The client format, the unpack state as the target reads it, and the bytes a
    /// sub-image of `sub` covers in the unpack buffer.
    fn unpack_layout(
        &self,
        sub: &SubImage,
        (format, ty): (GLenum, GLenum),
    ) -> Option<(ClientFormat, PixelStore, usize)> {
        let client = ClientFormat::from_gl(format, ty)?;
        let unpack = unpack_for(sub.tt, &self.unpack);
        let r = &sub.region;
        let depth = r.extent.depth.max(r.layer_count);
        let region = if depth > 1 || sub.tt == TexTarget::D3 {
            Region::d3(r.extent.width, r.extent.height, depth)
        } else {
            Region::d2(r.extent.width, r.extent.height)
        };
        let layout = ClientLayout::new(&unpack, region, client).ok()?;
        let bytes = usize::try_from(layout.required_bytes()).ok()?;
        Some((client, unpack, bytes))
    }
}

/// Whether a texture stores client bytes as they come: the 8-bit formats whose GL format is
/// the storage's own (the same test as the client-memory upload's direct path), so a device
/// copy leaves exactly what the CPU path would.
fn stored_as_given(s: &TexImage) -> bool {
    s.info.narrow_in_rgba8(s.format).is_none()
        && matches!(
            s.format,
            vk::Format::R8G8B8A8_UNORM
                | vk::Format::R8G8B8A8_SRGB
                | vk::Format::R8_UNORM
                | vk::Format::R8G8_UNORM
        )
}
