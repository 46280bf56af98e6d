//! Descriptor sets with per-frame cursors: pools are stamped with the last epoch that used them
//! and reset once it completes, so a frame's sets cost a bump in a pool, never a free.
//!
//! A pool is retired after [`SETS_PER_POOL`] sets whether or not the driver ever refuses one:
//! some drivers (lavapipe) never report `VK_ERROR_OUT_OF_POOL_MEMORY`, and a pool that is never
//! retired is never reset, so every set ever allocated from it would stay alive, each holding
//! its layout (and so a deleted program's layouts) with it.

use arenagl_memory::Epoch;
use ash::vk;

use crate::gl::context::error::{GlError, GlResult};
use crate::gl::vk::device::{Device, Locked, Retired};

const SETS_PER_POOL: u32 = 1024;

struct Pool {
    raw: vk::DescriptorPool,
    /// The last epoch whose commands may read sets from it.
    last_use: Epoch,
    /// Sets allocated since it was created or last reset.
    sets: u32,
}

/// One context's descriptor pools.
#[derive(Default)]
pub(crate) struct DescriptorPools {
    current: Option<Pool>,
    /// Full pools waiting for their epoch.
    retired: Vec<Pool>,
}

impl DescriptorPools {
    fn create(device: &Device) -> GlResult<vk::DescriptorPool> {
        let sizes = [
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                descriptor_count: SETS_PER_POOL * 4,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
                descriptor_count: SETS_PER_POOL,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                descriptor_count: SETS_PER_POOL * 4,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER,
                descriptor_count: SETS_PER_POOL * 2,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_IMAGE,
                descriptor_count: SETS_PER_POOL,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
                descriptor_count: SETS_PER_POOL,
            },
        ];
        let info = vk::DescriptorPoolCreateInfo::default()
            .max_sets(SETS_PER_POOL)
            .pool_sizes(&sizes);
        // SAFETY: valid device; the create info lives across the call.
        unsafe { device.raw().create_descriptor_pool(&info, None) }
            .map_err(|r| GlError::vulkan("vkCreateDescriptorPool", r))
    }

    /// Allocates one set of `layout`, used by commands of epoch `epoch`.
    pub(crate) fn allocate(
        &mut self,
        device: &Device,
        layout: vk::DescriptorSetLayout,
        epoch: Epoch,
        completed: Epoch,
    ) -> GlResult<vk::DescriptorSet> {
        for _ in 0..2 {
            if self.current.is_none() {
                let raw = match self.retired.iter().position(|p| p.last_use <= completed) {
                    Some(i) => {
                        let pool = self.retired.swap_remove(i);
                        // SAFETY: every command that read sets from this pool completed.
                        unsafe {
                            device.raw().reset_descriptor_pool(
                                pool.raw,
                                vk::DescriptorPoolResetFlags::empty(),
                            )
                        }
                        .map_err(|r| GlError::vulkan("vkResetDescriptorPool", r))?;
                        pool.raw
                    }
                    None => Self::create(device)?,
                };
                self.current = Some(Pool {
                    raw,
                    last_use: Epoch::ZERO,
                    sets: 0,
                });
            }
            let Some(pool) = self.current.as_mut() else {
                continue;
            };
            let layouts = [layout];
            let info = vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(pool.raw)
                .set_layouts(&layouts);
            // SAFETY: valid pool and layout; allocation from one pool happens on this context's
            // thread only.
            match unsafe { device.raw().allocate_descriptor_sets(&info) } {
                Ok(sets) => {
                    pool.last_use = epoch;
                    pool.sets += 1;
                    let set = sets.first().copied();
                    if pool.sets >= SETS_PER_POOL {
                        self.retire_current();
                    }
                    return set.ok_or_else(|| {
                        GlError::vulkan("vkAllocateDescriptorSets", vk::Result::ERROR_UNKNOWN)
                    });
                }
                Err(vk::Result::ERROR_OUT_OF_POOL_MEMORY | vk::Result::ERROR_FRAGMENTED_POOL) => {
                    self.retire_current();
                }
                Err(r) => return Err(GlError::vulkan("vkAllocateDescriptorSets", r)),
            }
        }
        Err(GlError::vulkan(
            "vkAllocateDescriptorSets",
            vk::Result::ERROR_OUT_OF_POOL_MEMORY,
        ))
    }

    /// Moves the current pool to the retired ones (reset and reused once its epoch completes);
    /// the next allocation takes another.
    fn retire_current(&mut self) {
        if let Some(full) = self.current.take() {
            self.retired.push(full);
        }
    }

    /// The pool sets come from now, marked as used by `epoch` (a cached set from it stays
    /// valid while it is still the current pool).
    pub(crate) fn touch_current(&mut self, epoch: Epoch) -> Option<vk::DescriptorPool> {
        let pool = self.current.as_mut()?;
        pool.last_use = pool.last_use.max(epoch);
        Some(pool.raw)
    }

    /// Destroys the full pools that wait for nothing (pressure trimming: a pool is 1024 sets'
    /// worth of driver memory, and a new one is made when sets run out); returns how many.
    pub(crate) fn trim(&mut self, device: &Device) -> u64 {
        let mut locked = device.lock();
        let completed = locked.manager.completed_epoch();
        let before = self.retired.len();
        self.retired.retain(|p| {
            let idle = p.last_use <= completed;
            if idle {
                locked.retire_at(p.last_use, Retired::DescriptorPool(p.raw));
            }
            !idle
        });
        (before - self.retired.len()) as u64
    }

    /// After a device recovery: every pool, made on the device of generation `lost`, is
    /// destroyed there (it runs nothing any more); new pools are made on first need.
    pub(crate) fn forget_lost_device(&mut self, locked: &mut Locked, lost: u64) {
        for p in self
            .current
            .take()
            .into_iter()
            .chain(self.retired.drain(..))
        {
            locked.retire_from(lost, Retired::DescriptorPool(p.raw));
        }
    }

    /// Gives every pool back (destroyed once its epoch completes).
    pub(crate) fn release(&mut self, device: &Device) {
        let mut locked = device.lock();
        for p in self
            .current
            .take()
            .into_iter()
            .chain(self.retired.drain(..))
        {
            locked.retire_at(p.last_use, Retired::DescriptorPool(p.raw));
        }
    }
}
