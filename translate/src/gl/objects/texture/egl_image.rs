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
//!   has not specified `EGL_BAD_MATCH`. On the GL side a target other than `GL_TEXTURE_2D` is
//!   `GL_INVALID_ENUM`, an image that is not one `GL_INVALID_VALUE`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value};
use crate::gl::context::Context;
use crate::gl::objects::texture::internal_format::FormatInfo;
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

impl Context {
    /// `eglCreateImage(…, EGL_GL_TEXTURE_2D, texture, {EGL_GL_TEXTURE_LEVEL: level})` on this
    /// context (module comment): the new image's value.
    pub fn create_egl_image(
        &mut self,
        display: u64,
        texture: u32,
        level: i32,
    ) -> Result<u64, EglImageError> {
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
        let Some(s) = t
            .storage
            .as_ref()
            .filter(|_| t.target == Some(TexTarget::D2))
        else {
            return Err(EglImageError::BadParameter);
        };
        if level < 0 || !s.level_defined(level as u32) {
            return Err(EglImageError::BadMatch);
        }
        let level = level as u32;
        let source = Source {
            shared: s.shared.clone(),
            origin: Origin {
                level: s.vk_level(level),
                layer: s.origin.layer,
            },
            size: s.level_size(level),
            format: (s.format, s.internal, s.info),
            display,
            device: self.device.clone(),
        };
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        table().insert(id, source);
        Ok(id)
    }

    /// `glEGLImageTargetTexture2DOES`: the texture bound to `target` takes `image`'s texels as
    /// its one level (its previous storage is let go).
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
                let Some(src) = map.get(&image) else {
                    return invalid_value(format!("{image:#x} is not an EGL image"));
                };
                let window = Window {
                    origin: src.origin,
                    target: TexTarget::D2,
                    size: src.size,
                    levels: 1,
                    format: src.format,
                    samples: (1, true),
                };
                TexImage::over_shared(&mut device.lock().manager, &src.shared, window)?
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
