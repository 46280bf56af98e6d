//! EGL images over GL textures (`EGL_KHR_image_base`, `EGL_KHR_gl_texture_2D_image`) and
//! their GL side (`GL_OES_EGL_image`: `glEGLImageTargetTexture2DOES`).
//!
//! Design decisions:
//! - An EGL image is one level of a 2D texture's image, held by an [`ImageRef`] like any texture
//!   sharing it (`storage.rs`): `eglCreateImage` takes a reference, each
//!   `glEGLImageTargetTexture2DOES` gives the target texture another, and `eglDestroyImage` drops
//!   the image's own. The device image goes when the last of them does, in whichever context.
//!   Every context of the process records on the one device (`vk/device.rs`), so a texture of
//!   context A is sampled in context B, shared or not, with no copy.
//! - The images live in a process-wide table keyed by the `EGLImage` value (a counter from 1),
//!   each with the display it was made on: another display's image is `EGL_BAD_PARAMETER`, as
//!   an unknown one.
//! - A texture that became an EGL image's source or target shares its image: memory pressure
//!   leaves it alone (`degrade.rs`), and `glTexImage*` on it gets a new image (orphaning, as
//!   EGL_KHR_image_base says of respecification) instead of writing the shared one;
//!   `glTexSubImage*` and rendering write the shared texels, which every sibling sees.
//! - Errors (EGL_KHR_gl_texture_2D_image): a name that is no 2D texture, texture 0, or an
//!   attribute other than `EGL_GL_TEXTURE_LEVEL` is `EGL_BAD_PARAMETER`; a level the texture
//!   has not specified `EGL_BAD_MATCH`; a texture that is already a sibling of a live image
//!   (its source or a target) `EGL_BAD_ACCESS`. On the GL side a target other than `GL_TEXTURE_2D` is
//!   `GL_INVALID_ENUM`, an image that is not one `GL_INVALID_VALUE`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use arenagl_memory::{MemoryManager, ViewDesc};
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::texture::internal_format::{self, FormatInfo};
use crate::gl::objects::texture::storage::{ImageRef, Origin, Window};
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::TexImage;
use crate::gl::vk::device::Device;

/// Why `eglCreateImage` refused a texture (the EGL error it names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EglImageError {
    /// `EGL_BAD_PARAMETER`.
    BadParameter,
    /// `EGL_BAD_MATCH`.
    BadMatch,
    /// `EGL_BAD_ACCESS`: the texture is already a sibling of a live EGL image.
    BadAccess,
}

/// One level of a texture's image, as an EGL image keeps it.
struct Source {
    shared: ImageRef,
    origin: Origin,
    size: [u32; 3],
    format: (vk::Format, GLenum, FormatInfo),
    display: u64,
    device: Arc<Device>,
}

fn images() -> &'static Mutex<HashMap<u64, Source>> {
    static MAP: OnceLock<Mutex<HashMap<u64, Source>>> = OnceLock::new();
    MAP.get_or_init(Default::default)
}

fn table() -> std::sync::MutexGuard<'static, HashMap<u64, Source>> {
    images().lock().unwrap_or_else(PoisonError::into_inner)
}

/// `eglDestroyImage`: false (`EGL_BAD_PARAMETER`) for a value that is no image of `display`.
pub fn destroy_egl_image(display: u64, image: u64) -> bool {
    let mut map = table();
    if map.get(&image).is_none_or(|s| s.display != display) {
        return false;
    }
    if let Some(s) = map.remove(&image) {
        drop(map);
        s.shared.release(&mut s.device.lock().manager);
    }
    true
}

/// Drops every image of `display` (`eglTerminate`).
pub fn destroy_display_images(display: u64) {
    let ids: Vec<u64> = table()
        .iter()
        .filter(|(_, s)| s.display == display)
        .map(|(&id, _)| id)
        .collect();
    for id in ids {
        destroy_egl_image(display, id);
    }
}

/// What `eglCreateImage` makes an image of (its `target` and `buffer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EglImageSource {
    /// `EGL_GL_TEXTURE_2D`: a level of a 2D texture.
    Texture2D { texture: u32, level: i32 },
    /// `EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X + face`: a level of one face of a cube map.
    CubeFace { texture: u32, face: u32, level: i32 },
    /// `EGL_GL_RENDERBUFFER`: a single-sampled renderbuffer.
    Renderbuffer(u32),
}

impl Context {
    /// `eglCreateImage` of `source` on this context (module comment): the new image's value.
    pub fn create_egl_image(
        &mut self,
        display: u64,
        source: EglImageSource,
    ) -> Result<u64, EglImageError> {
        let (shared, origin, size, format) = match source {
            EglImageSource::Texture2D { texture, level } => {
                self.texture_image_source(texture, TexTarget::D2, 0, level)?
            }
            EglImageSource::CubeFace {
                texture,
                face,
                level,
            } => self.texture_image_source(texture, TexTarget::Cube, face, level)?,
            EglImageSource::Renderbuffer(name) => self.renderbuffer_image_source(name)?,
        };
        if is_sibling(&shared) {
            return Err(EglImageError::BadAccess);
        }
        let source = Source {
            shared,
            origin,
            size,
            format,
            display,
            device: self.device.clone(),
        };
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        table().insert(id, source);
        Ok(id)
    }

    /// The image, window and format of `level` of `face` of texture `texture` of `target`.
    fn texture_image_source(
        &mut self,
        texture: u32,
        target: TexTarget,
        face: u32,
        level: i32,
    ) -> Result<SourceParts, EglImageError> {
        let named = self.textures.get(texture).is_some_and(|t| t.named());
        if texture == 0 || !named {
            return Err(EglImageError::BadParameter);
        }
        // A demoted texture gets its full image back first (its sibling must see every level).
        self.restore_texture(texture)
            .map_err(|_| EglImageError::BadParameter)?;
        let Some(t) = self.textures.get(texture) else {
            return Err(EglImageError::BadParameter);
        };
        let Some(s) = t.storage.as_ref().filter(|_| t.target == Some(target)) else {
            return Err(EglImageError::BadParameter);
        };
        if level < 0 || !s.face_level_defined(face, level as u32) {
            return Err(EglImageError::BadMatch);
        }
        let level = level as u32;
        let origin = Origin {
            level: s.vk_level(level),
            layer: s.vk_layer(face),
        };
        let [w, h, _] = s.level_size(level);
        let format = (s.format, s.internal, s.info);
        Ok((s.shared.clone(), origin, [w, h, 1], format))
    }

    /// A renderbuffer's image (it becomes shared: the renderbuffer keeps one reference).
    fn renderbuffer_image_source(&mut self, name: u32) -> Result<SourceParts, EglImageError> {
        let rb = self
            .renderbuffers
            .get_mut(name)
            .filter(|rb| name != 0 && rb.named())
            .ok_or(EglImageError::BadParameter)?;
        let (Some((image, _)), 0) = (rb.storage, rb.samples) else {
            return Err(EglImageError::BadParameter);
        };
        let row = crate::gl::objects::framebuffer::renderbuffer_row(rb.internal);
        let info = internal_format::lookup(row).ok_or(EglImageError::BadParameter)?;
        let shared = rb
            .shared
            .get_or_insert_with(|| ImageRef::new(image))
            .clone();
        let format = (rb.format, rb.internal, info);
        Ok((shared, Origin::default(), [rb.width, rb.height, 1], format))
    }

    /// `glEGLImageTargetTexture2DOES`: the texture bound to `target` takes `image`'s texels as
    /// its one level (its previous storage is let go). An image the device cannot sample (a
    /// depth renderbuffer's) is `GL_INVALID_OPERATION`.
    pub fn egl_image_target_texture_2d(&mut self, target: GLenum, image: u64) {
        let r = (|| {
            if target != GL_TEXTURE_2D {
                return invalid_enum("glEGLImageTargetTexture2DOES target", target);
            }
            let device = self.device.clone();
            // The bound texture first: texture 0 of the core profile cannot take it.
            self.bound_texture(TexTarget::D2)?;
            let storage = {
                let map = table();
                let src = live_source(&map, image)?;
                let mut locked = device.lock();
                require_usage(&locked.manager, src, vk::ImageUsageFlags::SAMPLED)?;
                let window = Window {
                    origin: src.origin,
                    target: TexTarget::D2,
                    size: src.size,
                    levels: 1,
                    format: src.format,
                    samples: (1, true),
                };
                TexImage::over_shared(&mut locked.manager, &src.shared, window)?
            };
            let t = self.bound_texture(TexTarget::D2)?;
            t.blocks.clear();
            if let Some(old) = t.storage.replace(storage) {
                old.release(&mut device.lock().manager);
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glEGLImageTargetRenderbufferStorageOES`: the bound renderbuffer takes `image` as its
    /// storage (its previous storage is let go). An image the device cannot render to is
    /// `GL_INVALID_OPERATION`.
    pub fn egl_image_target_renderbuffer_storage(&mut self, target: GLenum, image: u64) {
        let r = (|| {
            if target != GL_RENDERBUFFER {
                return invalid_enum("glEGLImageTargetRenderbufferStorageOES target", target);
            }
            let device = self.device.clone();
            let name = self.renderbuffer;
            if name == 0 {
                return invalid_op("no renderbuffer bound");
            }
            let map = table();
            let src = live_source(&map, image)?;
            let mut locked = device.lock();
            let depth = internal_format::is_depth_format(src.format.0);
            let attachment = if depth {
                vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
            } else {
                vk::ImageUsageFlags::COLOR_ATTACHMENT
            };
            require_usage(&locked.manager, src, attachment)?;
            let mut desc = if depth {
                crate::gl::objects::framebuffer::depth_view()
            } else {
                ViewDesc::color_2d(1)
            };
            desc.format = src.format.0;
            desc.base_mip_level = src.origin.level;
            desc.base_array_layer = src.origin.layer;
            let view = locked.manager.create_view(src.shared.image(), &desc)?;
            let Some(rb) = self.renderbuffers.get_mut(name) else {
                return invalid_op("no renderbuffer bound");
            };
            rb.release_storage(&mut locked.manager);
            rb.storage = Some((src.shared.image(), view));
            rb.shared = Some(src.shared.clone());
            (rb.format, rb.internal) = (src.format.0, src.format.1);
            (rb.width, rb.height, rb.samples) = (src.size[0], src.size[1], 0);
            Ok(())
        })();
        self.record(r);
    }
}

/// An image's parts: its shared image, where its level lies, its size and format.
type SourceParts = (ImageRef, Origin, [u32; 3], (vk::Format, GLenum, FormatInfo));

/// The live image `image`, or `GL_INVALID_VALUE`.
fn live_source(map: &HashMap<u64, Source>, image: u64) -> GlResult<&Source> {
    map.get(&image)
        .ok_or_else(|| GlError::InvalidValue(format!("{image:#x} is not an EGL image")))
}

/// `GL_INVALID_OPERATION` unless `src`'s image was made with `usage`.
fn require_usage(
    manager: &MemoryManager,
    src: &Source,
    usage: vk::ImageUsageFlags,
) -> GlResult<()> {
    let info = manager.image_info(src.shared.image())?;
    if info.desc.usage.contains(usage) {
        Ok(())
    } else {
        invalid_op(format!("the EGL image cannot be used as {usage:?}"))
    }
}

/// Whether `shared` is the image of a live EGL image (its source, or a target of it).
fn is_sibling(shared: &ImageRef) -> bool {
    table().values().any(|s| s.shared.image() == shared.image())
}

/// Whether `image` names a live EGL image of `display` (for the EGL entry points' checks).
pub fn is_egl_image(display: u64, image: u64) -> bool {
    table().get(&image).is_some_and(|s| s.display == display)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_images_are_refused_and_not_destroyed() {
        assert!(!destroy_egl_image(1, 0xdead_beef));
        assert!(!is_egl_image(1, 0xdead_beef));
    }
}
