//! Blending into attachments whose GL format has no alpha (RGB, red, RG, luminance formats,
//! stored with an alpha channel where the device lacks the exact format): GL says destination
//! alpha is then 1 (GL 4.6 §17.3.6), whatever the storage's alpha channel holds.
//!
//! Design decisions:
//! - The pipeline key carries a bit per draw buffer whose attachment has no alpha; the blend
//!   state of that attachment replaces the factors that read destination alpha by their value
//!   at alpha 1 (`GL_DST_ALPHA` → one, `GL_ONE_MINUS_DST_ALPHA` → zero, the colour part of
//!   `GL_SRC_ALPHA_SATURATE`, min(As, 1 − Ad), → zero). The stored alpha is never forced, so
//!   a later format-preserving copy keeps whatever was written.

use ash::vk;

use crate::gl::context::enums::GL_COLOR_ATTACHMENT0;
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::Attachment;
use crate::gl::objects::texture::internal_format::{lookup, Base};

/// `factor` as it reads when destination alpha is 1.
pub(crate) fn at_dst_alpha_one(factor: vk::BlendFactor) -> vk::BlendFactor {
    match factor {
        vk::BlendFactor::DST_ALPHA => vk::BlendFactor::ONE,
        vk::BlendFactor::ONE_MINUS_DST_ALPHA | vk::BlendFactor::SRC_ALPHA_SATURATE => {
            vk::BlendFactor::ZERO
        }
        f => f,
    }
}

impl Context {
    /// Bit i: draw buffer i of the draw framebuffer is an attachment whose GL format has no
    /// alpha. The default framebuffer has alpha where its config has.
    pub(crate) fn draw_buffers_without_alpha(&self) -> u8 {
        if self.draw_framebuffer == 0 {
            let no_alpha = self
                .surface
                .as_ref()
                .is_some_and(|s| s.color_without_alpha());
            return u8::from(no_alpha);
        }
        let Some(fb) = self.framebuffers.get(self.draw_framebuffer) else {
            return 0;
        };
        let mut bits = 0u8;
        for (i, &buffer) in fb.draw_buffers.iter().enumerate().take(8) {
            let Some(index) = buffer.checked_sub(GL_COLOR_ATTACHMENT0) else {
                continue;
            };
            let Some(Some(attachment)) = fb.colors.get(index as usize) else {
                continue;
            };
            let base = match *attachment {
                Attachment::Texture { name, .. } => self
                    .textures
                    .get(name)
                    .and_then(|t| t.storage.as_ref())
                    .map(|s| s.info.base),
                Attachment::Renderbuffer(name) => self
                    .renderbuffers
                    .get(name)
                    .and_then(|rb| lookup(rb.internal))
                    .map(|info| info.base),
            };
            if matches!(
                base,
                Some(Base::Rgb | Base::Red | Base::Rg | Base::Luminance)
            ) {
                bits |= 1 << i;
            }
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_reading_destination_alpha_take_its_value_one() {
        use vk::BlendFactor as B;
        assert_eq!(at_dst_alpha_one(B::DST_ALPHA), B::ONE);
        assert_eq!(at_dst_alpha_one(B::ONE_MINUS_DST_ALPHA), B::ZERO);
        assert_eq!(at_dst_alpha_one(B::SRC_ALPHA_SATURATE), B::ZERO);
        assert_eq!(at_dst_alpha_one(B::DST_COLOR), B::DST_COLOR);
    }
}
