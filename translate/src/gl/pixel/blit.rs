//! `glBlitFramebuffer`: the read framebuffer's read buffer (and depth/stencil) copied onto every
//! draw buffer of the draw framebuffer, scaled, filtered and mirrored as the rectangles say.
//!
//! Design decisions:
//! - Images keep GL's orientation (row 0 at the bottom, see `state`), so GL rectangles are
//!   Vulkan blit corners unchanged; a reversed pair of coordinates mirrors, as in GL.
//! - GL clips: destination pixels outside the draw framebuffer or the scissor box are not
//!   written, and source pixels outside the read framebuffer leave their destination pixels
//!   alone. Vulkan needs both regions inside their images, so each axis is clipped on both
//!   sides and mapped through the blit's scale (`clip_axis`).
//! - The memory manager records the blit (`MemoryManager::blit_image`): `vkCmdBlitImage`, or an
//!   exact copy where nothing is scaled (depth/stencil formats often lack blit support).
//! - A multisampled colour source is resolved whole (`MemoryManager::resolve_image`) into a
//!   temporary single-sampled image of its format, which the ordinary path then blits: flips,
//!   offsets and format changes need nothing special. Sizes must match (GL); multisampled to
//!   multisampled is an exact copy. A multisampled depth/stencil source is resolved the same
//!   way (`MemoryManager::resolve_depth_stencil_image`: sample 0 of each pixel, which GL allows)
//!   and then copied. Not yet: single-sampled to multisampled (replication) of depth/stencil;
//!   it is logged and copies nothing.

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::{Bound, Target};

/// One axis of a blit after clipping: source and destination start/end (destination order
/// ascending; the source pair carries any mirroring).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Axis {
    src: (i32, i32),
    dst: (i32, i32),
}

/// Clips one axis: source `s0..s1` onto destination `d0..d1`, with the source inside
/// `0..src_size` and the destination inside `lo..hi`. None when nothing is left.
fn clip_axis(s0: i32, s1: i32, d0: i32, d1: i32, src_size: i32, lo: i32, hi: i32) -> Option<Axis> {
    if s0 == s1 || d0 == d1 {
        return None;
    }
    // Normalise so the destination ascends; the source follows (it may then descend).
    let (s0, s1, d0, d1) = if d0 < d1 {
        (s0 as f64, s1 as f64, d0 as f64, d1 as f64)
    } else {
        (s1 as f64, s0 as f64, d1 as f64, d0 as f64)
    };
    let scale = (s1 - s0) / (d1 - d0);
    let to_dst = |s: f64| d0 + (s - s0) / scale;
    // The destination span whose source lies inside the read image.
    let (a, b) = (to_dst(0.0), to_dst(src_size as f64));
    let (src_lo, src_hi) = (a.min(b), a.max(b));
    let lo_d = d0.max(lo as f64).max(src_lo);
    let hi_d = d1.min(hi as f64).min(src_hi);
    let (lo_d, hi_d) = (lo_d.round(), hi_d.round());
    if hi_d <= lo_d {
        return None;
    }
    let to_src = |d: f64| (s0 + (d - d0) * scale).round().clamp(0.0, src_size as f64) as i32;
    let src = (to_src(lo_d), to_src(hi_d));
    if src.0 == src.1 {
        return None;
    }
    Some(Axis {
        src,
        dst: (lo_d as i32, hi_d as i32),
    })
}

fn is_integer_format(f: vk::Format) -> bool {
    let name = format!("{f:?}");
    name.ends_with("_UINT") || name.ends_with("_SINT")
}

impl Context {
    /// `glBlitFramebuffer`.
    #[allow(clippy::too_many_arguments)]
    pub fn blit_framebuffer(&mut self, src: [i32; 4], dst: [i32; 4], mask: u32, filter: GLenum) {
        let r = self.blit_framebuffer_inner(src, dst, mask, filter);
        self.record(r);
    }

    fn blit_framebuffer_inner(
        &mut self,
        s: [i32; 4],
        d: [i32; 4],
        mask: u32,
        filter: GLenum,
    ) -> GlResult<()> {
        let all = GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT;
        if mask & !all != 0 {
            return invalid_value(format!("glBlitFramebuffer mask 0x{mask:x}"));
        }
        let vk_filter = crate::gl::vk::conv::blit_filter(filter)?;
        if filter == GL_LINEAR && mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT) != 0 {
            return invalid_op("glBlitFramebuffer of depth or stencil with GL_LINEAR");
        }
        // The bound ones, or a DSA command's (`glBlitNamedFramebuffer`).
        let read_fb = self.framebuffer_bound_to(GL_READ_FRAMEBUFFER)?;
        let draw_fb = self.framebuffer_bound_to(GL_DRAW_FRAMEBUFFER)?;
        let incomplete = |which: &str, status: GLenum| {
            GlError::InvalidFramebuffer(format!(
                "the {which} framebuffer is not complete (status 0x{status:04X})"
            ))
        };
        let read: Target = self
            .resolve_framebuffer(read_fb, false)
            .map_err(|st| incomplete("read", st))?;
        let draw: Target = self
            .resolve_framebuffer(draw_fb, true)
            .map_err(|st| incomplete("draw", st))?;
        let src_color = read
            .colors
            .iter()
            .enumerate()
            .find_map(|(i, b)| b.map(|b| (i, b)));
        // Errors first (GL 3.3 §4.3.2), then the work.
        if mask & GL_COLOR_BUFFER_BIT != 0 {
            if let Some((_, sb)) = src_color {
                for db in draw.colors.iter().flatten() {
                    let (si, di) = (is_integer_format(sb.format), is_integer_format(db.format));
                    if si != di {
                        return invalid_op(
                            "glBlitFramebuffer between integer and non-integer colour buffers",
                        );
                    }
                    if si && filter == GL_LINEAR {
                        return invalid_op("glBlitFramebuffer of integer colour with GL_LINEAR");
                    }
                }
            }
        }
        if read.samples > 1 || draw.samples > 1 {
            // GL 4.6 §18.3.1 (3.3 §4.3.2): multisampled blits do not scale (Mesa, like other
            // desktop drivers, compares the sizes, so a flip is allowed), and multisampled to
            // multisampled copies need equal sample counts.
            let size = |a: i32, b: i32| (i64::from(b) - i64::from(a)).abs();
            if size(s[0], s[2]) != size(d[0], d[2]) || size(s[1], s[3]) != size(d[1], d[3]) {
                return invalid_op(
                    "multisampled glBlitFramebuffer with rectangles of different sizes",
                );
            }
            if read.samples > 1 && draw.samples > 1 && read.samples != draw.samples {
                return invalid_op(format!(
                    "glBlitFramebuffer from {} to {} samples per pixel",
                    read.samples, draw.samples
                ));
            }
        }
        let depth_stencil = mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT) != 0;
        if depth_stencil {
            if let (Some(a), Some(b)) = (read.depth_stencil, draw.depth_stencil) {
                if a.format != b.format {
                    return invalid_op("glBlitFramebuffer between different depth/stencil formats");
                }
            }
        }
        // Blits see index 0's scissor only (GL_ARB_viewport_array).
        let scissor = if self.pipeline_state.viewports.scissor_on(0) {
            let r = self.pipeline_state.viewports.scissor[0];
            (
                r.x,
                r.y,
                r.x.saturating_add(r.width),
                r.y.saturating_add(r.height),
            )
        } else {
            (i32::MIN, i32::MIN, i32::MAX, i32::MAX)
        };
        let axes = |src_w: u32, src_h: u32, dst_w: u32, dst_h: u32| {
            let x = clip_axis(
                s[0],
                s[2],
                d[0],
                d[2],
                src_w as i32,
                scissor.0.max(0),
                scissor.2.min(dst_w as i32),
            )?;
            let y = clip_axis(
                s[1],
                s[3],
                d[1],
                d[3],
                src_h as i32,
                scissor.1.max(0),
                scissor.3.min(dst_h as i32),
            )?;
            Some((x, y))
        };
        self.end_pass();
        let device = self.device.clone();
        let blit = |src: Bound, dst: Bound, aspect: vk::ImageAspectFlags, filter: vk::Filter| {
            let Some((x, y)) = axes(
                read.gl_size.0,
                read.gl_size.1,
                draw.gl_size.0,
                draw.gl_size.1,
            ) else {
                return Ok::<(), GlError>(());
            };
            // A default framebuffer at a reduced render scale: window coordinates to image
            // pixels (the identity for everything else).
            let to_image = |t: &Target, (a, b): (i32, i32), axis: usize| {
                let (image, gl) = if axis == 0 {
                    (t.width, t.gl_size.0)
                } else {
                    (t.height, t.gl_size.1)
                };
                let map = |v: i32| (i64::from(v) * i64::from(image) / i64::from(gl.max(1))) as i32;
                (map(a), map(b))
            };
            if aspect == vk::ImageAspectFlags::COLOR {
                if let Some(r) = scissored_whole(s, d, (x, y), &read, &draw) {
                    return blit_through_temporary(&device, src, dst, r, filter);
                }
            }
            let (xs, ys) = (to_image(&read, x.src, 0), to_image(&read, y.src, 1));
            let (xd, yd) = (to_image(&draw, x.dst, 0), to_image(&draw, y.dst, 1));
            let corner = |a: i32, b: i32| vk::Offset3D { x: a, y: b, z: 0 };
            let far = |a: i32, b: i32| vk::Offset3D { x: a, y: b, z: 1 };
            let side = |b: Bound, ax: (i32, i32), ay: (i32, i32)| arenagl_memory::BlitSide {
                image: b.image,
                mip_level: b.level,
                layer: b.layer,
                corners: [corner(ax.0, ay.0), far(ax.1, ay.1)],
            };
            device.lock().manager.blit_image(
                side(src, xs, ys),
                side(dst, xd, yd),
                aspect,
                filter,
            )?;
            Ok(())
        };
        if mask & GL_COLOR_BUFFER_BIT != 0 {
            if let Some((_, sb)) = src_color {
                // A multisampled source is resolved whole into a single-sampled image of its
                // format first; the ordinary blit then flips, offsets and converts.
                let resolved = if sb.samples > 1 && draw.samples == 1 {
                    Some(self.resolve_to_temporary(sb, read.width, read.height)?)
                } else {
                    None
                };
                let src = resolved.map_or(sb, |image| Bound {
                    image,
                    samples: 1,
                    level: 0,
                    layer: 0,
                    ..sb
                });
                let mut result = Ok(());
                for db in draw.colors.iter().flatten() {
                    if sb.samples == 1 && db.samples > 1 {
                        warn_unsupported("glBlitFramebuffer from single-sampled to multisampled");
                        break;
                    }
                    result = blit(src, *db, vk::ImageAspectFlags::COLOR, vk_filter);
                    if result.is_err() {
                        break;
                    }
                }
                if let Some(image) = resolved {
                    let _ = device.lock().manager.retire_image(image);
                }
                result?;
            }
        }
        if depth_stencil {
            if let (Some(a), Some(b)) = (read.depth_stencil, draw.depth_stencil) {
                let mut aspect = vk::ImageAspectFlags::empty();
                if mask & GL_DEPTH_BUFFER_BIT != 0 {
                    aspect |= vk::ImageAspectFlags::DEPTH;
                }
                if mask & GL_STENCIL_BUFFER_BIT != 0 {
                    aspect |= vk::ImageAspectFlags::STENCIL;
                }
                if a.samples > 1 && b.samples == 1 {
                    // Resolved whole (sample 0) into a single-sampled image of its format,
                    // which the ordinary path then copies (or flips) like a colour resolve.
                    let image =
                        self.resolve_depth_stencil_to_temporary(a, read.width, read.height)?;
                    let src = Bound {
                        image,
                        samples: 1,
                        level: 0,
                        layer: 0,
                        ..a
                    };
                    let result = blit(src, b, aspect, vk::Filter::NEAREST);
                    let _ = device.lock().manager.retire_image(image);
                    result?;
                } else if a.samples != b.samples {
                    warn_unsupported(
                        "glBlitFramebuffer of depth/stencil from single-sampled to multisampled",
                    );
                } else {
                    blit(a, b, aspect, vk::Filter::NEAREST)?;
                }
            }
        }
        Ok(())
    }

    /// A single-sampled image of `src`'s format holding the resolve of its `width × height`
    /// level (retire it after use: the epochs keep it alive for the recorded commands).
    fn resolve_to_temporary(
        &mut self,
        src: Bound,
        width: u32,
        height: u32,
    ) -> GlResult<arenagl_memory::ImageHandle> {
        let side = move |image, level, layer| arenagl_memory::BlitSide {
            image,
            mip_level: level,
            layer,
            corners: [
                vk::Offset3D { x: 0, y: 0, z: 0 },
                vk::Offset3D {
                    x: width as i32,
                    y: height as i32,
                    z: 1,
                },
            ],
        };
        self.resolved_temporary(
            src,
            (width, height),
            vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST,
            "GL multisample resolve",
            |manager, image| {
                manager.resolve_image(side(src.image, src.level, src.layer), side(image, 0, 0))
            },
        )
    }

    /// A single-sampled image of `src`'s depth/stencil format holding sample 0 of each pixel of
    /// its `width × height` level (retire it after use, as `resolve_to_temporary`).
    pub(crate) fn resolve_depth_stencil_to_temporary(
        &mut self,
        src: Bound,
        width: u32,
        height: u32,
    ) -> GlResult<arenagl_memory::ImageHandle> {
        self.resolved_temporary(
            src,
            (width, height),
            vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
                | vk::ImageUsageFlags::TRANSFER_SRC
                | vk::ImageUsageFlags::TRANSFER_DST,
            "GL depth/stencil resolve",
            |manager, image| {
                manager
                    .resolve_depth_stencil_image((src.image, src.level, src.layer), (image, 0, 0))
            },
        )
    }

    /// A new single-sampled image of `src`'s format and `size`, filled by `resolve`; retired
    /// again when `resolve` fails.
    fn resolved_temporary(
        &mut self,
        src: Bound,
        (width, height): (u32, u32),
        usage: vk::ImageUsageFlags,
        name: &'static str,
        resolve: impl FnOnce(
            &mut arenagl_memory::MemoryManager,
            arenagl_memory::ImageHandle,
        ) -> arenagl_memory::Result<()>,
    ) -> GlResult<arenagl_memory::ImageHandle> {
        let mut locked = self.device.lock();
        let image = locked.manager.create_image(
            &arenagl_memory::ImageDesc::new_2d(
                src.format,
                width,
                height,
                1,
                usage,
                arenagl_memory::Category::RenderTarget,
            )
            .named(name),
        )?;
        if let Err(e) = resolve(&mut locked.manager, image) {
            let _ = locked.manager.retire_image(image);
            return Err(e.into());
        }
        Ok(image)
    }
}

/// A scaled colour blit whose whole source rectangle lies inside the read image but whose
/// destination the scissor or the draw framebuffer's edges cut: the rectangles as given (destination ascending),
/// the clipped destination, and the destination's origin. Clipping such a blit moves source
/// edges to fractions of a texel, which Vulkan's integer blit offsets would round (a different
/// scale: piglit fbo-blit-scaled-linear at scales above 2), so it goes through a temporary.
struct ScissoredWhole {
    src: [i32; 4],
    dst: [i32; 4],
    clipped: (Axis, Axis),
}

/// Temporaries above this many pixels are not made: such blits take the rounded clip.
const MAX_TEMPORARY_PIXELS: u64 = 4096 * 4096;

fn scissored_whole(
    s: [i32; 4],
    d: [i32; 4],
    (x, y): (Axis, Axis),
    read: &Target,
    draw: &Target,
) -> Option<ScissoredWhole> {
    // Destination ascending; the source carries any mirroring.
    let (s, d) = {
        let (mut s, mut d) = (s, d);
        for a in 0..2 {
            if d[a] > d[a + 2] {
                s.swap(a, a + 2);
                d.swap(a, a + 2);
            }
        }
        (s, d)
    };
    let scaled = (s[2] - s[0]).abs() != d[2] - d[0] || (s[3] - s[1]).abs() != d[3] - d[1];
    let clipped = (x.dst, y.dst) != ((d[0], d[2]), (d[1], d[3]));
    let unscaled_target = |t: &Target| (t.width, t.height) == t.gl_size;
    let inside = |r: [i32; 4], (w, h): (u32, u32)| {
        r[0].min(r[2]) >= 0
            && r[1].min(r[3]) >= 0
            && i64::from(r[0].max(r[2])) <= i64::from(w)
            && i64::from(r[1].max(r[3])) <= i64::from(h)
    };
    let pixels = (d[2] - d[0]) as u64 * (d[3] - d[1]) as u64;
    (scaled
        && clipped
        && unscaled_target(read)
        && unscaled_target(draw)
        && inside(s, read.gl_size)
        && pixels <= MAX_TEMPORARY_PIXELS)
        .then_some(ScissoredWhole {
            src: s,
            dst: d,
            clipped: (x, y),
        })
}

/// [`ScissoredWhole`]'s blit: the whole source rectangle scaled into a temporary of the
/// destination rectangle's size, then the clipped part copied unscaled into place.
fn blit_through_temporary(
    device: &crate::gl::vk::device::Device,
    src: Bound,
    dst: Bound,
    r: ScissoredWhole,
    filter: vk::Filter,
) -> GlResult<()> {
    let (w, h) = ((r.dst[2] - r.dst[0]) as u32, (r.dst[3] - r.dst[1]) as u32);
    let mut locked = device.lock();
    let temp = locked.manager.create_image(
        &arenagl_memory::ImageDesc::new_2d(
            dst.format,
            w,
            h,
            1,
            vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST,
            arenagl_memory::Category::RenderTarget,
        )
        .named("GL scissored blit"),
    )?;
    let at = |x: i32, y: i32, z: i32| vk::Offset3D { x, y, z };
    let side = |image, mip_level, layer, c: [i32; 4]| arenagl_memory::BlitSide {
        image,
        mip_level,
        layer,
        corners: [at(c[0], c[1], 0), at(c[2], c[3], 1)],
    };
    let (x, y) = r.clipped;
    let (ox, oy) = (r.dst[0], r.dst[1]);
    let scaled = locked.manager.blit_image(
        side(src.image, src.level, src.layer, r.src),
        side(temp, 0, 0, [0, 0, w as i32, h as i32]),
        vk::ImageAspectFlags::COLOR,
        filter,
    );
    let copied = scaled.and_then(|()| {
        locked.manager.blit_image(
            side(
                temp,
                0,
                0,
                [x.dst.0 - ox, y.dst.0 - oy, x.dst.1 - ox, y.dst.1 - oy],
            ),
            side(
                dst.image,
                dst.level,
                dst.layer,
                [x.dst.0, y.dst.0, x.dst.1, y.dst.1],
            ),
            vk::ImageAspectFlags::COLOR,
            vk::Filter::NEAREST,
        )
    });
    let _ = locked.manager.retire_image(temp);
    copied.map_err(Into::into)
}

/// A blit this GL cannot perform yet: logged (first, then every 1000th), nothing written.
fn warn_unsupported(what: &str) {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    super::warn_now_and_then(&COUNT, format_args!("{what}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_keeps_the_scale_and_the_mirror() {
        // 1:1 inside everything.
        let a = clip_axis(0, 10, 5, 15, 32, 0, 32).unwrap();
        assert_eq!((a.src, a.dst), ((0, 10), (5, 15)));
        // 2× magnification clipped by the destination's right edge at 12.
        let b = clip_axis(0, 10, 0, 20, 32, 0, 12).unwrap();
        assert_eq!((b.src, b.dst), ((0, 6), (0, 12)));
        // A mirrored blit keeps the source reversed after clipping.
        let c = clip_axis(10, 0, 0, 10, 32, 0, 5).unwrap();
        assert_eq!((c.src, c.dst), ((10, 5), (0, 5)));
        // Source outside the read image: only the overlapping part is written.
        let e = clip_axis(-10, 10, 0, 20, 32, 0, 32).unwrap();
        assert_eq!((e.src, e.dst), ((0, 10), (10, 20)));
        assert!(clip_axis(0, 10, 0, 10, 32, 20, 30).is_none());
        assert!(clip_axis(0, 0, 0, 10, 32, 0, 32).is_none());
    }
}
