//! Framebuffer resolution: the images a draw, clear or read reaches through a framebuffer, and
//! GL's completeness rules for them.
//!
//! Design decisions:
//! - A framebuffer is resolved again by every command that uses it: its attachments may have
//!   been redefined, resized or deleted since, so the only thing kept between commands is the
//!   single-level, single-layer view of an attached texture level, cached on the texture.
//! - The error of a resolution is the `glCheckFramebufferStatus` value; each caller turns it into
//!   the GL error its command raises (`draw_target` for draws and clears).
//! - The default framebuffer resolves to the surface's images at their render size, with GL's
//!   window size kept beside it (`Target::gl_size`) for a reduced render scale.
//! - For drawing, colour slot i is the attachment draw buffer i names (fragment output i writes
//!   it); for reading, the read buffer's attachment at its own index.

use crate::gl::context::enums::*;
use crate::gl::context::error::{GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::{Attachment, Bound, Target};

impl Context {
    /// The single-level, single-layer view of a texture level used as an attachment; `linear`:
    /// an sRGB texture is drawn through a UNORM view of its (mutable-format) image, so nothing
    /// encodes (`GL_FRAMEBUFFER_SRGB` off, `texture/storage.rs`).
    fn texture_level(
        &mut self,
        name: u32,
        (level, layer, layered): (u32, u32, bool),
        linear: bool,
    ) -> Result<Bound, GLenum> {
        let device = self.device.clone();
        let t = self
            .textures
            .get_mut(name)
            .ok_or(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT)?;
        let s = t
            .storage
            .as_mut()
            .ok_or(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT)?;
        let face = if s.target == crate::gl::objects::texture::target::TexTarget::Cube {
            layer
        } else {
            0
        };
        // GL 4.6 §9.4.1: the format must be renderable (not RGB9_E5, which is also stored
        // without attachment usage).
        if !s.face_level_defined(face, level)
            || layer >= s.attachable_layers(level)
            || !s.info.renderable()
        {
            return Err(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
        }
        let unorm = linear
            .then(|| crate::gl::objects::texture::storage::srgb_to_unorm(s.format))
            .flatten();
        let format = unorm.unwrap_or(s.format);
        // UNORM views are cached beside the others, under the layer with its top bit set;
        // layered ones (every layer, `framebuffer::layered`) under the next bit.
        let key = (
            level,
            layer | if unorm.is_some() { 1 << 31 } else { 0 } | if layered { 1 << 30 } else { 0 },
        );
        let view = match s.level_views.get(&key) {
            Some(v) => *v,
            None => {
                // A view's level and layer lie at its origin in the shared image.
                let (vk_level, vk_layer) = (s.vk_level(level), s.vk_layer(layer));
                let one_dimensional = s.target.image_type() == ash::vk::ImageType::TYPE_1D;
                let mut desc = if layered {
                    crate::gl::objects::framebuffer::layered::layered_view(
                        one_dimensional,
                        (vk_level, vk_layer),
                        s.attachable_layers(level),
                        format,
                    )
                } else {
                    crate::gl::objects::texture::attachment_view(vk_level, vk_layer, format)
                };
                desc.format = format;
                // A 1D image (1D and 1D array textures) takes 1D views only.
                if one_dimensional && !layered {
                    desc.view_type = ash::vk::ImageViewType::TYPE_1D;
                }
                let v = device
                    .lock()
                    .manager
                    .create_view(s.image, &desc)
                    .map_err(|_| GL_FRAMEBUFFER_UNSUPPORTED)?;
                s.level_views.insert(key, v);
                v
            }
        };
        Ok(Bound {
            image: s.image,
            view,
            format,
            level: s.vk_level(level),
            layer: s.vk_layer(layer),
            samples: s.samples.max(1),
        })
    }

    fn attachment(&mut self, a: Attachment, linear: bool) -> Result<(Bound, u32, u32), GLenum> {
        match a {
            Attachment::Texture {
                name,
                level,
                layer,
                layered,
            } => {
                let b = self.texture_level(name, (level, layer, layered), linear)?;
                let size = self
                    .textures
                    .get(name)
                    .and_then(|t| t.storage.as_ref())
                    .map(|s| {
                        let [w, h, _] = s.level_size(level);
                        if s.target == crate::gl::objects::texture::target::TexTarget::D1Array {
                            (w, 1)
                        } else {
                            (w, h)
                        }
                    })
                    .ok_or(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT)?;
                Ok((b, size.0, size.1))
            }
            Attachment::Renderbuffer(name) => {
                let rb = self
                    .renderbuffers
                    .get(name)
                    .ok_or(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT)?;
                let (image, view) = rb.storage.ok_or(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT)?;
                Ok((
                    Bound {
                        image,
                        view,
                        format: rb.format,
                        level: 0,
                        layer: 0,
                        samples: rb.samples.max(1),
                    },
                    rb.width,
                    rb.height,
                ))
            }
        }
    }

    /// GL 4.6 §9.4.2: every attached texture has the same `GL_TEXTURE_FIXED_SAMPLE_LOCATIONS`,
    /// and it is true for all of them when renderbuffers are attached too.
    fn sample_locations_agree(&self, fb: &crate::gl::objects::framebuffer::Framebuffer) -> bool {
        let (mut fixed, mut unfixed, mut renderbuffer) = (false, false, false);
        for a in fb.colors.iter().chain([&fb.depth, &fb.stencil]).flatten() {
            match a {
                Attachment::Renderbuffer(_) => renderbuffer = true,
                Attachment::Texture { name, .. } => {
                    let texture = self.textures.get(*name);
                    match texture.and_then(|t| t.storage.as_ref()) {
                        Some(s) if s.fixed_locations => fixed = true,
                        Some(_) => unfixed = true,
                        None => {}
                    }
                }
            }
        }
        // Every texture fixed, or none fixed and no renderbuffer (renderbuffers are fixed).
        !unfixed || (!renderbuffer && !fixed)
    }

    /// Resolves framebuffer `name` for drawing (`draw`) or reading; the error is the
    /// `glCheckFramebufferStatus` value.
    pub(crate) fn resolve_framebuffer(&mut self, name: u32, draw: bool) -> Result<Target, GLenum> {
        if name == 0 {
            let surface = if draw {
                &self.surface
            } else {
                &self.read_surface
            };
            let s = surface.as_ref().ok_or(GL_FRAMEBUFFER_UNDEFINED)?;
            let selected = if draw {
                self.default_draw_buffer
            } else {
                self.default_read_buffer
            };
            // The surface's images: one level, one layer, the config's samples.
            let whole = |(image, view), format| Bound {
                image,
                view,
                format,
                level: 0,
                layer: 0,
                samples: s.samples,
            };
            // An sRGB surface encodes what is drawn while GL_FRAMEBUFFER_SRGB is enabled (always
            // in ES); reads see its bytes as stored.
            let encode =
                draw && (self.pipeline_state.framebuffer_srgb || self.es_version().is_some());
            let color = match s.srgb_view {
                Some(view) if encode => (s.color.0, view),
                _ => s.color,
            };
            let format = if encode {
                s.gl_color_format()
            } else {
                s.color_format
            };
            let color = (selected != GL_NONE).then(|| whole(color, format));
            return Ok(Target {
                width: s.render_width,
                height: s.render_height,
                gl_size: (s.width, s.height),
                colors: vec![color],
                depth_stencil: s.depth.zip(s.depth_format).map(|(d, f)| whole(d, f)),
                samples: s.samples,
                layers: 1,
            });
        }
        let fb = self
            .framebuffers
            .get(name)
            .ok_or(GL_FRAMEBUFFER_UNDEFINED)?
            .clone();
        let mut size: Option<(u32, u32)> = None;
        let mut samples: Option<u32> = None;
        let mut add = |w: u32, h: u32, n: u32| {
            size = Some(size.map_or((w, h), |(a, b)| (a.min(w), b.min(h))));
            if samples.is_some_and(|s| s != n) {
                return Err(GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
            }
            samples = Some(n);
            Ok(())
        };
        // sRGB colour textures encode what is drawn only while GL_FRAMEBUFFER_SRGB is enabled
        // (always in ES); reads see their bytes as stored.
        let linear = draw && !(self.pipeline_state.framebuffer_srgb || self.es_version().is_some());
        // Every colour attachment, by attachment index.
        let mut attached = [None; crate::gl::objects::framebuffer::MAX_COLOR_ATTACHMENTS];
        for (i, a) in fb.colors.iter().enumerate() {
            let Some(a) = a else { continue };
            let (b, w, h) = self.attachment(*a, linear)?;
            // Compressed blocks kept as they are (`texture::native`) cannot be rendered to.
            if crate::gl::objects::framebuffer::is_depth_format(b.format)
                || crate::gl::objects::texture::native::is_native(b.format)
            {
                return Err(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
            }
            add(w, h, b.samples)?;
            attached[i] = Some(b);
        }
        let depth_stencil = match fb.depth.or(fb.stencil) {
            Some(a) => {
                let (b, w, h) = self.attachment(a, false)?;
                if !crate::gl::objects::framebuffer::is_depth_format(b.format) {
                    return Err(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
                }
                add(w, h, b.samples)?;
                Some(b)
            }
            None => None,
        };
        if size.is_none() {
            // GL_ARB_framebuffer_no_attachments: the default geometry, where it has a size.
            size = Some(
                fb.defaults
                    .size()
                    .ok_or(GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT)?,
            );
            samples = Some(crate::gl::objects::framebuffer::params::rounded_samples(
                &self.device,
                fb.defaults.samples,
            ));
        }
        if !self.sample_locations_agree(&fb) {
            return Err(GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
        }
        let layers = self.framebuffer_layers(&fb)?;
        let named = |buffer: GLenum| {
            buffer
                .checked_sub(GL_COLOR_ATTACHMENT0)
                .and_then(|i| attached.get(i as usize))
        };
        // Drawing: slot i (fragment output i) writes the attachment draw buffer i names, so
        // `glDrawBuffers({GL_NONE, GL_COLOR_ATTACHMENT0})` routes output 1 to attachment 0.
        // Reading: the read buffer's attachment, at its own index.
        let mut colors = Vec::new();
        if draw {
            for &buffer in &fb.draw_buffers {
                if buffer == GL_NONE {
                    colors.push(None);
                    continue;
                }
                // Neither OpenGL ES nor GL 4.1 (GL_ARB_ES2_compatibility, which every context
                // offers) has a draw-buffer completeness rule: an output whose draw buffer
                // names no attachment is discarded.
                colors.push(named(buffer).and_then(|b| *b));
            }
        } else {
            for (i, b) in attached.iter().enumerate() {
                let selected = fb.read_buffer == GL_COLOR_ATTACHMENT0 + i as u32;
                colors.push(b.filter(|_| selected));
            }
        }
        while colors.last() == Some(&None) {
            colors.pop();
        }
        let (width, height) = size.unwrap_or((0, 0));
        Ok(Target {
            width,
            height,
            gl_size: (width, height),
            colors,
            depth_stencil,
            samples: samples.unwrap_or(1),
            layers,
        })
    }

    pub(crate) fn draw_target(&mut self) -> GlResult<Target> {
        let fb = self.draw_framebuffer;
        self.resolve_framebuffer(fb, true).map_err(|status| {
            GlError::InvalidFramebuffer(format!(
                "the draw framebuffer is not complete (status 0x{status:04X})"
            ))
        })
    }
}
