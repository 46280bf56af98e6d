//! What the translator does under memory pressure (`docs/pressure.md`): demote textures and restore
//! them, prune leftovers every 64 frames, trim caches, and carry the render scale the presenter
//! is asked for.
//!
//! Design decisions:
//! - The manager decides the level ([`arenagl_memory::MemoryManager::pressure_level`]); the
//!   translator acts at frame boundaries, after `eglSwapBuffers` submitted the frame. Demotion
//!   and restoration record blits, which must not land inside a render pass, and at a frame
//!   boundary no draw of the next frame has been recorded yet.
//! - Demotion replaces a texture's image with a smaller one holding its mip levels from `drop`
//!   on (copied level by level with same-size blits) and retires the old image. A 2D texture
//!   with its top levels gone samples like a smaller texture: normalised coordinates and the
//!   hardware's level selection land on the levels that remain, so the application sees a blur,
//!   never other texels. Only textures for which that holds are demoted: 2D, a mipmapped
//!   minification filter from base level 0, every level defined, not attached to a framebuffer,
//!   a colour format that blits linearly. Known limit: `textureSize`/`texelFetch` on a demoted
//!   texture see the smaller image.
//! - Every other use of a texture restores it first: `Context::bound_texture` (uploads,
//!   `glGenerateMipmap`, parameters, level queries) and the attach path call
//!   [`Context::restore_texture`]. Restoration copies the kept levels back and rebuilds the
//!   dropped ones by linear upscaling from the first kept level (blurred: the original texels
//!   are gone, and no GL call can tell the difference from a filtered upload).
//! - Candidates are textures not sampled for the policy's `unsampled_for_frames`, least
//!   recently sampled first, until usage is back under the Critical exit line. Retired images
//!   count as used until their epoch completes, so after a demotion pass the next one waits for
//!   that epoch: otherwise each frame would demote again for bytes already on their way out.
//! - Restoration happens below Critical, for textures sampled since their demotion, while the
//!   manager's headroom under the Critical exit line holds the full image: restoring never
//!   pushes usage back into Critical, so demotion and restoration cannot flap.
//! - Pruning (every 64 frames at Critical or above) releases what textures left behind: views
//!   made for framebuffer attachments of textures attached nowhere now, and swizzle views other
//!   than the selected one. Trimming (on entering Critical) destroys cached pipelines no epoch
//!   of the last two used and descriptor pools nothing waits on; both are rebuilt on demand.
//! - Every action is reported to the manager ([`arenagl_memory::Degradation`]), which counts it
//!   and puts it on the telemetry page.

use std::collections::HashSet;

use arenagl_memory::vulkan::BlitSide;
use arenagl_memory::{Degradation, Epoch, ImageHandle};
use arenagl_residency::{Action, Level};
use ash::vk;

use crate::gl::context::error::{GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::{is_depth_format, Attachment};
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::Demotion;
use crate::gl::objects::texture::{TexImage, Texture};

/// Frames between two prunes while pressure is Critical or above.
pub(crate) const PRUNE_INTERVAL: u64 = 64;

/// The translator's side of the pressure policy, per context.
#[derive(Debug, Clone)]
pub(crate) struct PressureState {
    /// Frames this context has swapped.
    pub frame: u64,
    /// The frame of the last prune.
    last_prune: u64,
    /// No demotion pass until this epoch completes (the last pass's retired images).
    wait_epoch: Epoch,
    /// The render scale the pressure policy asks the presenter for (1.0: full size).
    pub render_scale: f32,
}

impl Default for PressureState {
    fn default() -> Self {
        Self {
            frame: 0,
            last_prune: 0,
            wait_epoch: Epoch::ZERO,
            render_scale: 1.0,
        }
    }
}

/// The extent of GL level 0 `size` of a 2D texture.
fn extent_2d(size: [u32; 3]) -> vk::Extent3D {
    vk::Extent3D {
        width: size[0].max(1),
        height: size[1].max(1),
        depth: 1,
    }
}

/// A whole level of a 2D image as a blit side.
fn whole_level(image: ImageHandle, level: u32, size: [u32; 3]) -> BlitSide {
    BlitSide {
        image,
        mip_level: level,
        layer: 0,
        corners: [
            vk::Offset3D { x: 0, y: 0, z: 0 },
            vk::Offset3D {
                x: size[0].max(1) as i32,
                y: size[1].max(1) as i32,
                z: 1,
            },
        ],
    }
}

/// Whether `t` may lose its top `drop` levels without anything but sampling noticing (see the
/// module comment).
fn demotable(t: &Texture, drop: u32, linear_blit: impl Fn(vk::Format) -> bool) -> bool {
    let Some(st) = &t.storage else {
        return false;
    };
    st.demotion.is_none()
        && st.exclusive()
        && st.target == TexTarget::D2
        && t.params.uses_mipmaps()
        && t.params.base_level == 0
        && st.levels > drop
        && (0..st.levels).all(|l| st.level_defined(l))
        && !is_depth_format(st.format)
        && linear_blit(st.format)
}

impl Context {
    /// The frame boundary's pressure work: called after every swap.
    pub(crate) fn after_frame(&mut self) {
        self.pressure.frame += 1;
        let device = self.device.clone();
        let (actions, level, policy) = {
            let mut locked = device.lock();
            (
                locked.manager.take_pressure_actions(),
                locked.manager.pressure_level(),
                locked.manager.pressure_policy(),
            )
        };
        let Some(level) = level else {
            return;
        };
        if actions.contains(&Action::TrimCaches) {
            self.trim_caches();
        }
        // From the level, not from the one-off `RequestRenderScale` action: every context of
        // the device follows it, whichever of them collected the actions.
        self.pressure.render_scale = if level >= Level::Critical {
            policy.critical_render_scale.clamp(0.25, 1.0)
        } else {
            1.0
        };
        if self.lost {
            return;
        }
        if level >= Level::Critical {
            self.demote_unsampled(
                policy.drop_mip_levels.max(1),
                u64::from(policy.unsampled_for_frames),
            );
            if self.pressure.frame - self.pressure.last_prune >= PRUNE_INTERVAL {
                self.pressure.last_prune = self.pressure.frame;
                self.prune();
            }
        } else {
            self.restore_sampled();
        }
    }

    /// Names of textures attached to any framebuffer object.
    fn attached_textures(&self) -> HashSet<u32> {
        let mut out = HashSet::new();
        for name in self.framebuffers.created() {
            let Some(fb) = self.framebuffers.get(name) else {
                continue;
            };
            for a in fb.colors.iter().chain([&fb.depth, &fb.stencil]).flatten() {
                if let Attachment::Texture { name, .. } = a {
                    out.insert(*name);
                }
            }
        }
        out
    }

    /// Demotes textures not sampled for `unsampled_for` frames, least recently sampled first,
    /// until usage is under the Critical exit line.
    fn demote_unsampled(&mut self, drop: u32, unsampled_for: u64) {
        let device = self.device.clone();
        let need = {
            let locked = device.lock();
            if locked.manager.completed_epoch() < self.pressure.wait_epoch {
                return;
            }
            locked.manager.bytes_over(Level::Critical)
        };
        if need == 0 {
            return;
        }
        let frame = self.pressure.frame;
        let attached = self.attached_textures();
        let mut candidates: Vec<(u64, u32)> = {
            let locked = device.lock();
            self.textures
                .created()
                .into_iter()
                .filter(|name| !attached.contains(name))
                .filter_map(|name| {
                    let t = self.textures.get(name)?;
                    let last = t.last_sampled.get();
                    (frame.saturating_sub(last) >= unsampled_for
                        && demotable(t, drop, |f| locked.manager.supports_linear_blit(f)))
                    .then_some((last, name))
                })
                .collect()
        };
        candidates.sort_unstable();
        self.end_pass();
        let (mut freed, mut count) = (0u64, 0u64);
        for (_, name) in candidates {
            if freed >= need {
                break;
            }
            match self.demote_texture(name, drop) {
                Ok(bytes) => {
                    freed += bytes;
                    count += 1;
                }
                Err(e) => {
                    tracing::warn!(texture = name, error = %e, "texture demotion failed");
                    break;
                }
            }
        }
        if count > 0 {
            let mut locked = device.lock();
            self.pressure.wait_epoch = locked.manager.recording_epoch();
            locked.manager.record_degradation(Degradation::Demoted {
                textures: count,
                bytes: freed,
            });
        }
    }

    /// Replaces texture `name`'s image with one holding its levels from `drop` on; returns the
    /// bytes freed.
    pub(crate) fn demote_texture(&mut self, name: u32, drop: u32) -> GlResult<u64> {
        let frame = self.pressure.frame;
        let device = self.device.clone();
        let mut locked = device.lock();
        let st = self
            .textures
            .get_mut(name)
            .and_then(|t| t.storage.as_mut())
            .ok_or_else(|| GlError::InvalidOperation(format!("texture {name} has no image")))?;
        let new_size = st.level_size(drop);
        let new_levels = st.levels - drop;
        let old = locked.manager.image_info(st.image)?;
        let mut desc = old.desc.clone();
        desc.extent = extent_2d(new_size);
        desc.mip_levels = new_levels;
        let image = locked.manager.create_image(&desc)?;
        let copied = (|| {
            for level in 0..new_levels {
                let size = st.level_size(level + drop);
                locked.manager.blit_image(
                    whole_level(st.image, level + drop, size),
                    whole_level(image, level, size),
                    vk::ImageAspectFlags::COLOR,
                    vk::Filter::NEAREST,
                )?;
            }
            let mut view = locked.manager.view_desc(st.view)?;
            view.base_mip_level = 0;
            view.mip_level_count = new_levels;
            locked.manager.create_view(image, &view)
        })();
        let view = match copied {
            Ok(v) => v,
            Err(e) => {
                let _ = locked.manager.retire_image(image);
                return Err(e.into());
            }
        };
        let new_bytes = locked.manager.image_info(image)?.alloc.size;
        // The old image's views (the sampling view, attachment and swizzle views) go with it.
        locked.manager.retire_image(st.image)?;
        st.level_views.clear();
        st.swizzle_views.clear();
        st.demotion = Some(Demotion {
            dropped: drop,
            size: st.size,
            levels: st.levels,
            defined: st.defined,
            at_frame: frame,
        });
        for bits in &mut st.defined {
            *bits >>= drop;
        }
        st.image = image;
        // Demotion keeps to textures that share nothing (`demotable`): the old image was
        // retired above, the new one is this texture's alone.
        st.shared = crate::gl::objects::texture::storage::ImageRef::new(image);
        st.view = view;
        st.size = new_size;
        st.levels = new_levels;
        Ok(old.alloc.size.saturating_sub(new_bytes))
    }

    /// Gives texture `name` its full mip chain back if it is demoted (a no-op otherwise);
    /// returns the bytes the full image takes.
    pub(crate) fn restore_texture(&mut self, name: u32) -> GlResult<u64> {
        let demoted = self
            .textures
            .get(name)
            .and_then(|t| t.storage.as_ref())
            .is_some_and(|st| st.demotion.is_some());
        if !demoted {
            return Ok(0);
        }
        self.end_pass();
        let device = self.device.clone();
        let mut locked = device.lock();
        let Some(st) = self.textures.get_mut(name).and_then(|t| t.storage.as_mut()) else {
            return Ok(0);
        };
        let bytes = restore_image(&mut locked.manager, st)?;
        locked
            .manager
            .record_degradation(Degradation::Restored { textures: 1, bytes });
        Ok(bytes)
    }

    /// Restores demoted textures sampled since their demotion while the headroom under the
    /// Critical exit line holds them.
    fn restore_sampled(&mut self) {
        let wanted: Vec<u32> = self
            .textures
            .created()
            .into_iter()
            .filter(|&name| {
                self.textures.get(name).is_some_and(|t| {
                    t.storage
                        .as_ref()
                        .and_then(|st| st.demotion.as_ref())
                        .is_some_and(|d| t.last_sampled.get() > d.at_frame)
                })
            })
            .collect();
        for name in wanted {
            let device = self.device.clone();
            let fits = {
                let locked = device.lock();
                let need = self
                    .textures
                    .get(name)
                    .and_then(|t| t.storage.as_ref())
                    .and_then(|st| {
                        let d = st.demotion.as_ref()?;
                        // An estimate before allocating: the full chain is about 4^dropped
                        // times the demoted one.
                        let small = locked.manager.image_info(st.image).ok()?.alloc.size;
                        Some(small.saturating_mul(1 << (2 * d.dropped.min(16))))
                    })
                    .unwrap_or(u64::MAX);
                need <= locked.manager.headroom_below(Level::Critical)
            };
            if !fits {
                continue;
            }
            if let Err(e) = self.restore_texture(name) {
                tracing::warn!(texture = name, error = %e, "texture restoration failed");
                break;
            }
        }
    }

    /// The every-64-frames sweep at Critical: attachment views of textures attached nowhere and
    /// swizzle views other than the selected one.
    fn prune(&mut self) {
        let attached = self.attached_textures();
        let device = self.device.clone();
        let mut locked = device.lock();
        let mut objects = 0u64;
        for name in self.textures.created() {
            let Some(t) = self.textures.get_mut(name) else {
                continue;
            };
            let selected = t.params.swizzle;
            let Some(st) = t.storage.as_mut() else {
                continue;
            };
            if !attached.contains(&name) {
                for (_, view) in st.level_views.drain() {
                    objects += u64::from(locked.manager.retire_view(view).is_ok());
                }
            }
            st.swizzle_views.retain(|swizzle, view| {
                let keep = *swizzle == selected;
                if !keep {
                    objects += u64::from(locked.manager.retire_view(*view).is_ok());
                }
                keep
            });
        }
        locked
            .manager
            .record_degradation(Degradation::Pruned { objects, bytes: 0 });
    }

    /// Trims the pipeline cache and idle descriptor pools.
    pub(crate) fn trim_caches(&mut self) {
        let device = self.device.clone();
        let mut objects = {
            let mut locked = device.lock();
            let keep_since = locked.manager.recording_epoch().saturating_sub(2);
            locked.trim_pipelines(keep_since)
        };
        objects += self.descriptors.trim(&device);
        device
            .lock()
            .manager
            .record_degradation(Degradation::CachesTrimmed { objects });
    }
}

/// Rebuilds `st`'s full image from its demoted one: kept levels copied back, dropped levels
/// scaled up from the first kept level. Returns the full image's bytes. On failure the texture
/// stays demoted and intact.
fn restore_image(manager: &mut arenagl_memory::MemoryManager, st: &mut TexImage) -> GlResult<u64> {
    let Some(d) = st.demotion.clone() else {
        return Ok(0);
    };
    let mut desc = manager.image_info(st.image)?.desc;
    desc.extent = extent_2d(d.size);
    desc.mip_levels = d.levels;
    let image = manager.create_image(&desc)?;
    let full = |level: u32| {
        let mut s = d.size;
        s[0] = (s[0] >> level).max(1);
        s[1] = (s[1] >> level).max(1);
        s
    };
    let rebuilt = (|| {
        for level in 0..st.levels {
            let size = st.level_size(level);
            manager.blit_image(
                whole_level(st.image, level, size),
                whole_level(image, level + d.dropped, size),
                vk::ImageAspectFlags::COLOR,
                vk::Filter::NEAREST,
            )?;
        }
        for level in (0..d.dropped).rev() {
            manager.blit_image(
                whole_level(image, level + 1, full(level + 1)),
                whole_level(image, level, full(level)),
                vk::ImageAspectFlags::COLOR,
                vk::Filter::LINEAR,
            )?;
        }
        let mut view = manager.view_desc(st.view)?;
        view.base_mip_level = 0;
        view.mip_level_count = d.levels;
        manager.create_view(image, &view)
    })();
    let view = match rebuilt {
        Ok(v) => v,
        Err(e) => {
            let _ = manager.retire_image(image);
            return Err(e.into());
        }
    };
    let bytes = manager.image_info(image)?.alloc.size;
    manager.retire_image(st.image)?;
    st.level_views.clear();
    st.swizzle_views.clear();
    st.image = image;
    // Demotion keeps to textures that share nothing (`demotable`): the old image was
    // retired above, the new one is this texture's alone.
    st.shared = crate::gl::objects::texture::storage::ImageRef::new(image);
    st.view = view;
    st.size = d.size;
    st.levels = d.levels;
    st.defined = d.defined;
    st.demotion = None;
    Ok(bytes)
}
