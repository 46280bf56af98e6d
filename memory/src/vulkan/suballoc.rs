//! Sub-allocation, so that thousands of resources share a few `VkDeviceMemory` blocks: the
//! crate-private [`SubAllocator`] seam and its VMA implementation.
//!
//! Design decisions:
//! - Each [`MemoryClass`] allocates from the VMA custom pool of the memory type VMA chooses for a
//!   representative resource of that class (device-local for images and GPU buffers, host
//!   sequential-write for uploads, host-cached for readback). Classes whose types coincide share
//!   one pool (on unified-memory devices, lavapipe and most phones, every class lands in one
//!   type): each pool starts with small blocks, so a pool per class would cost a few
//!   `vkAllocateMemory` calls per class before its blocks reach full size. Pools use VMA's
//!   automatic block sizes (`preferred_large_heap_block_size`, 64 MiB by default) so that they
//!   also accept dedicated allocations.
//! - Resources whose memory requirements exclude their class's memory type (some drivers give
//!   depth images other type bits) fall back to VMA's default pools, and are counted.
//! - `vkAllocateMemory` / `vkFreeMemory` calls are counted through VMA's device-memory
//!   callbacks, so the statistics report what the driver really saw.
//! - The seam exists so that a pure-Rust sub-allocator (`gpu-alloc`, for targets where building
//!   VMA's C++ is a burden) can stand beside VMA; only VMA is implemented so far.

use std::ffi::c_void;

use ash::vk;
use vk_mem::Alloc;

use crate::backend::Placement;
use crate::desc::MemoryClass;
use crate::error::{MemoryError, Result};
use crate::stats::DeviceMemoryCounters;
use crate::sync::{Arc, AtomicU64, Ordering, StdArc};
use crate::vulkan::context::DeviceShared;
use crate::vulkan::conv::map_alloc;

/// What a sub-allocation reports.
pub(crate) struct SubAllocation<A> {
    pub(crate) allocation: A,
    pub(crate) size: u64,
    pub(crate) dedicated: bool,
    pub(crate) memory_type: u32,
    pub(crate) mapped: *mut u8,
}

/// The sub-allocator seam: allocate-and-bind for buffers and images, free, counters.
pub(crate) trait SubAllocator {
    type Allocation;
    fn bind_buffer(
        &mut self,
        buffer: vk::Buffer,
        placement: Placement,
    ) -> Result<SubAllocation<Self::Allocation>>;
    fn bind_image(
        &mut self,
        image: vk::Image,
        placement: Placement,
    ) -> Result<SubAllocation<Self::Allocation>>;
    fn free(&mut self, allocation: Self::Allocation);
    fn flush(&self, allocation: &Self::Allocation, offset: u64, len: u64) -> Result<()>;
    fn invalidate(&self, allocation: &Self::Allocation, offset: u64, len: u64) -> Result<()>;
    fn counters(&self) -> DeviceMemoryCounters;
    fn pool_memory_type(&self, class: MemoryClass) -> u32;
}

#[derive(Debug, Default)]
struct MemoryCounters {
    live: AtomicU64,
    allocate_calls: AtomicU64,
    free_calls: AtomicU64,
    block_bytes: AtomicU64,
}

/// Mirrors `VmaDeviceMemoryCallbacks` from vk_mem_alloc.h (three pointer-sized fields), which
/// vk-mem 0.5 does not export by name.
#[repr(C)]
struct DeviceMemoryCallbacks {
    pfn_allocate:
        Option<unsafe extern "C" fn(*mut c_void, u32, vk::DeviceMemory, u64, *mut c_void)>,
    pfn_free: Option<unsafe extern "C" fn(*mut c_void, u32, vk::DeviceMemory, u64, *mut c_void)>,
    user_data: *mut c_void,
}

unsafe extern "C" fn on_allocate(
    _allocator: *mut c_void,
    _memory_type: u32,
    _memory: vk::DeviceMemory,
    size: u64,
    user: *mut c_void,
) {
    // SAFETY: `user` is the MemoryCounters pointer registered at allocator creation; the
    // VmaSubAllocator keeps the Arc alive until after the allocator is destroyed.
    if let Some(c) = unsafe { (user as *const MemoryCounters).as_ref() } {
        c.live.fetch_add(1, Ordering::Relaxed);
        c.allocate_calls.fetch_add(1, Ordering::Relaxed);
        c.block_bytes.fetch_add(size, Ordering::Relaxed);
    }
}

unsafe extern "C" fn on_free(
    _allocator: *mut c_void,
    _memory_type: u32,
    _memory: vk::DeviceMemory,
    size: u64,
    user: *mut c_void,
) {
    // SAFETY: as in `on_allocate`.
    if let Some(c) = unsafe { (user as *const MemoryCounters).as_ref() } {
        c.live.fetch_sub(1, Ordering::Relaxed);
        c.free_calls.fetch_add(1, Ordering::Relaxed);
        c.block_bytes.fetch_sub(size, Ordering::Relaxed);
    }
}

/// Where a memory class allocates.
struct ClassPool {
    /// Index into `VmaSubAllocator::pools`.
    pool: usize,
    memory_type: u32,
    host_visible: bool,
}

/// The VMA sub-allocator.
pub(crate) struct VmaSubAllocator {
    // Drop order matters: pools, then the allocator, then the counters its callbacks use.
    /// One pool per memory type some class uses.
    pools: Vec<vk_mem::AllocatorPool>,
    /// Per class (by `MemoryClass::index`).
    classes: Vec<ClassPool>,
    allocator: StdArc<vk_mem::Allocator>,
    counters: Arc<MemoryCounters>,
    device: ash::Device,
    fallbacks: u64,
    /// The frame index VMA is told before a budget read, so it fetches a fresh figure.
    budget_frame: std::sync::atomic::AtomicU32,
}

/// `host_visible`: the class's pool lies in host-visible memory (unified memory), so device
/// buffers are mapped too and idle ones can be written directly (`upload_buffer`'s direct path).
fn create_info_for(
    class: MemoryClass,
    dedicated: bool,
    host_visible: bool,
) -> vk_mem::AllocationCreateInfo {
    use vk_mem::AllocationCreateFlags as F;
    let (usage, mut flags) = match class {
        MemoryClass::DeviceBuffer if host_visible => (
            vk_mem::MemoryUsage::AutoPreferDevice,
            F::HOST_ACCESS_SEQUENTIAL_WRITE | F::MAPPED,
        ),
        MemoryClass::DeviceImage | MemoryClass::DeviceBuffer => {
            (vk_mem::MemoryUsage::AutoPreferDevice, F::empty())
        }
        MemoryClass::Upload | MemoryClass::Transient => (
            vk_mem::MemoryUsage::Auto,
            F::HOST_ACCESS_SEQUENTIAL_WRITE | F::MAPPED,
        ),
        MemoryClass::Readback => (vk_mem::MemoryUsage::Auto, F::HOST_ACCESS_RANDOM | F::MAPPED),
    };
    if dedicated {
        flags |= F::DEDICATED_MEMORY;
    }
    vk_mem::AllocationCreateInfo {
        flags,
        usage,
        ..Default::default()
    }
}

fn representative_buffer(class: MemoryClass) -> vk::BufferCreateInfo<'static> {
    use vk::BufferUsageFlags as U;
    let usage = match class {
        MemoryClass::Upload => U::TRANSFER_SRC,
        MemoryClass::Readback => U::TRANSFER_DST,
        MemoryClass::Transient => {
            U::VERTEX_BUFFER | U::INDEX_BUFFER | U::UNIFORM_BUFFER | U::TRANSFER_SRC
        }
        _ => {
            U::VERTEX_BUFFER
                | U::INDEX_BUFFER
                | U::UNIFORM_BUFFER
                | U::STORAGE_BUFFER
                | U::INDIRECT_BUFFER
                | U::TRANSFER_SRC
                | U::TRANSFER_DST
        }
    };
    vk::BufferCreateInfo::default().size(65536).usage(usage)
}

/// What [`create_info_for`]'s automatic usage asks for `class`, as explicit property flags
/// (`vmaFindMemoryTypeIndex` without a resource cannot take the automatic usages).
fn explicit_flags(class: MemoryClass) -> vk_mem::AllocationCreateInfo {
    use vk::MemoryPropertyFlags as P;
    let (required_flags, preferred_flags) = match class {
        MemoryClass::DeviceImage | MemoryClass::DeviceBuffer => (P::empty(), P::DEVICE_LOCAL),
        MemoryClass::Upload | MemoryClass::Transient => (P::HOST_VISIBLE, P::HOST_COHERENT),
        MemoryClass::Readback => (P::HOST_VISIBLE, P::HOST_CACHED),
    };
    vk_mem::AllocationCreateInfo {
        required_flags,
        preferred_flags,
        ..Default::default()
    }
}

/// The memory types a representative resource of `class` may live in, from one created and
/// destroyed here (no memory is bound). VMA's `vmaFindMemoryTypeIndexFor*Info` would ask
/// `vkGetDevice*MemoryRequirements` instead, a Vulkan 1.3 command that ash hands it as a
/// panicking stub on a device of an older version.
fn representative_type_bits(device: &ash::Device, class: MemoryClass) -> Result<u32> {
    // SAFETY: valid device; the create infos describe valid resources, each destroyed right
    // after its requirements are read and never bound or used.
    unsafe {
        if class == MemoryClass::DeviceImage {
            let image = device
                .create_image(&representative_image(), None)
                .map_err(|r| map_alloc("vkCreateImage", r))?;
            let bits = device.get_image_memory_requirements(image).memory_type_bits;
            device.destroy_image(image, None);
            Ok(bits)
        } else {
            let buffer = device
                .create_buffer(&representative_buffer(class), None)
                .map_err(|r| map_alloc("vkCreateBuffer", r))?;
            let bits = device
                .get_buffer_memory_requirements(buffer)
                .memory_type_bits;
            device.destroy_buffer(buffer, None);
            Ok(bits)
        }
    }
}

fn representative_image() -> vk::ImageCreateInfo<'static> {
    vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(vk::Format::R8G8B8A8_UNORM)
        .extent(vk::Extent3D {
            width: 256,
            height: 256,
            depth: 1,
        })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(
            vk::ImageUsageFlags::SAMPLED
                | vk::ImageUsageFlags::TRANSFER_DST
                | vk::ImageUsageFlags::TRANSFER_SRC
                | vk::ImageUsageFlags::COLOR_ATTACHMENT,
        )
}

impl VmaSubAllocator {
    pub(crate) fn new(
        shared: &DeviceShared,
        block_size: u64,
        heap_size_limit: Option<u64>,
    ) -> Result<Self> {
        let counters = Arc::new(MemoryCounters::default());
        let callbacks = DeviceMemoryCallbacks {
            pfn_allocate: Some(on_allocate),
            pfn_free: Some(on_free),
            user_data: Arc::as_ptr(&counters) as *mut c_void,
        };
        let limits: Vec<u64> = match heap_size_limit {
            Some(limit) => shared
                .info
                .heaps
                .iter()
                .map(|h| h.size.min(limit))
                .collect(),
            None => Vec::new(),
        };
        let mut info =
            vk_mem::AllocatorCreateInfo::new(&shared.instance, &shared.raw, shared.physical);
        info.vulkan_api_version = shared.info.used_api_version;
        info.preferred_large_heap_block_size = block_size;
        info.heap_size_limits = &limits;
        if shared.info.features.memory_budget {
            info.flags |= vk_mem::AllocatorCreateFlags::EXT_MEMORY_BUDGET;
        }
        // vk-mem keeps the target type private, so the transmute cannot be annotated.
        #[allow(clippy::missing_transmute_annotations)]
        // SAFETY: `DeviceMemoryCallbacks` has exactly the layout of `VmaDeviceMemoryCallbacks`
        // (two nullable function pointers with the C signature, then a user pointer), and the
        // reference is only read during `Allocator::new`, which copies the struct.
        let callbacks_ref = unsafe { std::mem::transmute::<&DeviceMemoryCallbacks, _>(&callbacks) };
        info.device_memory_callbacks = Some(callbacks_ref);
        // SAFETY: instance, device and physical device are valid and outlive the allocator
        // (DeviceShared outlives the backend that owns this sub-allocator); the API version is
        // no higher than the instance's and the device's.
        let allocator = StdArc::new(
            unsafe { vk_mem::Allocator::new(info) }
                .map_err(|r| map_alloc("vmaCreateAllocator", r))?,
        );
        let mut pools: Vec<vk_mem::AllocatorPool> = Vec::new();
        let mut pool_types: Vec<u32> = Vec::new();
        let mut classes = Vec::with_capacity(MemoryClass::ALL.len());
        for class in MemoryClass::ALL {
            let create = create_info_for(class, false, false);
            let memory_type = if shared.info.used_api_version >= vk::API_VERSION_1_3 {
                // SAFETY: the create infos describe valid resources; nothing is created.
                unsafe {
                    if class == MemoryClass::DeviceImage {
                        allocator
                            .find_memory_type_index_for_image_info(representative_image(), &create)
                    } else {
                        allocator.find_memory_type_index_for_buffer_info(
                            &representative_buffer(class),
                            &create,
                        )
                    }
                }
            } else {
                let bits = representative_type_bits(&shared.raw, class)?;
                // SAFETY: the allocator is valid; `bits` are a real resource's memory types.
                unsafe { allocator.find_memory_type_index(bits, &explicit_flags(class)) }
            }
            .map_err(|r| map_alloc("vmaFindMemoryTypeIndex", r))?;
            let pool = match pool_types.iter().position(|&t| t == memory_type) {
                Some(i) => i,
                None => {
                    pools.push(
                        allocator
                            .create_pool(&vk_mem::PoolCreateInfo {
                                memory_type_index: memory_type,
                                ..Default::default()
                            })
                            .map_err(|r| map_alloc("vmaCreatePool", r))?,
                    );
                    pool_types.push(memory_type);
                    pools.len() - 1
                }
            };
            let host_visible = shared
                .info
                .memory_types
                .get(memory_type as usize)
                .is_some_and(|t| t.flags.contains(vk::MemoryPropertyFlags::HOST_VISIBLE));
            tracing::debug!(
                class = class.name(),
                memory_type,
                host_visible,
                pool,
                "class pool"
            );
            classes.push(ClassPool {
                pool,
                memory_type,
                host_visible,
            });
        }
        Ok(Self {
            pools,
            classes,
            allocator,
            counters,
            device: shared.raw.clone(),
            fallbacks: 0,
            budget_frame: std::sync::atomic::AtomicU32::new(0),
        })
    }

    /// # Safety
    /// `buffer` must be a live buffer of this device.
    unsafe fn buffer_type_bits(&self, buffer: vk::Buffer) -> u32 {
        // SAFETY: guaranteed by the caller.
        unsafe { self.device.get_buffer_memory_requirements(buffer) }.memory_type_bits
    }

    /// # Safety
    /// `image` must be a live image of this device.
    unsafe fn image_type_bits(&self, image: vk::Image) -> u32 {
        // SAFETY: guaranteed by the caller.
        unsafe { self.device.get_image_memory_requirements(image) }.memory_type_bits
    }

    /// `VK_EXT_memory_budget`'s budget per heap, as VMA reads it (VMA's own estimate, 80 % of
    /// the heap, when the extension is absent).
    pub(crate) fn heap_budgets(&self) -> Vec<u64> {
        self.allocator
            .get_heap_budgets()
            .map(|budgets| budgets.iter().map(|b| b.budget).collect())
            .unwrap_or_default()
    }

    /// [`VmaSubAllocator::heap_budgets`] read fresh from the driver: VMA fetches
    /// `VK_EXT_memory_budget`'s figures again when it is told a new frame index.
    pub(crate) fn fresh_heap_budgets(&self) -> Vec<u64> {
        let frame = self
            .budget_frame
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: VMA synchronises its budget bookkeeping internally; the index is any value.
        unsafe {
            self.allocator
                .set_current_frame_index(frame.wrapping_add(1))
        };
        self.heap_budgets()
    }

    /// Allocations that could not use their class's pool.
    pub(crate) fn fallbacks(&self) -> u64 {
        self.fallbacks
    }

    fn pool(&self, class: MemoryClass) -> Result<&ClassPool> {
        self.classes
            .get(class.index())
            .ok_or(MemoryError::Internal("no pool for memory class"))
    }

    fn finish(&self, allocation: vk_mem::Allocation) -> SubAllocation<vk_mem::Allocation> {
        let info = self.allocator.get_allocation_info2(&allocation);
        SubAllocation {
            size: info.allocation_info.size,
            dedicated: info.dedicated_memory,
            memory_type: info.allocation_info.memory_type,
            mapped: info.allocation_info.mapped_data.cast(),
            allocation,
        }
    }
}

/// A fresh, unbound resource to allocate memory for.
#[derive(Clone, Copy)]
enum Resource {
    Buffer(vk::Buffer),
    Image(vk::Image),
}

impl VmaSubAllocator {
    /// Allocates for `resource` in its class's pool (or VMA's default pools when the resource's
    /// memory requirements exclude the pool's type, counted as a fallback) and binds it.
    fn allocate_and_bind(
        &mut self,
        type_bits: u32,
        placement: Placement,
        mapped: bool,
        resource: Resource,
    ) -> Result<SubAllocation<vk_mem::Allocation>> {
        let pool = self.pool(placement.class)?;
        let create = create_info_for(placement.class, placement.dedicated, mapped);
        let in_pool = type_bits & (1 << pool.memory_type) != 0;
        let vma_pool = self
            .pools
            .get(pool.pool)
            .ok_or(MemoryError::Internal("no VMA pool for memory class"))?;
        let source: &dyn Alloc = if in_pool { vma_pool } else { &*self.allocator };
        // SAFETY: `resource` is a fresh, unbound object of this device; the allocation is bound
        // right below and freed if binding fails.
        let mut allocation = unsafe {
            match resource {
                Resource::Buffer(b) => source.allocate_memory_for_buffer(b, &create),
                Resource::Image(i) => source.allocate_memory_for_image(i, &create),
            }
        }
        .map_err(|r| map_alloc("vmaAllocateMemoryFor{Buffer,Image}", r))?;
        if !in_pool {
            self.fallbacks += 1;
        }
        // SAFETY: the allocation was made for this resource's requirements.
        let bound = unsafe {
            match resource {
                Resource::Buffer(b) => self.allocator.bind_buffer_memory(&allocation, b),
                Resource::Image(i) => self.allocator.bind_image_memory(&allocation, i),
            }
        };
        if let Err(r) = bound {
            // SAFETY: the allocation is ours and bound to nothing.
            unsafe { self.allocator.free_memory(&mut allocation) };
            return Err(map_alloc("vmaBind{Buffer,Image}Memory", r));
        }
        Ok(self.finish(allocation))
    }
}

impl SubAllocator for VmaSubAllocator {
    type Allocation = vk_mem::Allocation;

    fn bind_buffer(
        &mut self,
        buffer: vk::Buffer,
        placement: Placement,
    ) -> Result<SubAllocation<vk_mem::Allocation>> {
        // SAFETY: `buffer` is a fresh, unbound buffer of this device.
        let type_bits = unsafe { self.buffer_type_bits(buffer) };
        let host_visible = self.pool(placement.class)?.host_visible;
        self.allocate_and_bind(type_bits, placement, host_visible, Resource::Buffer(buffer))
    }

    fn bind_image(
        &mut self,
        image: vk::Image,
        placement: Placement,
    ) -> Result<SubAllocation<vk_mem::Allocation>> {
        // SAFETY: `image` is a fresh, unbound image of this device.
        let type_bits = unsafe { self.image_type_bits(image) };
        // Optimal-tiling images are never mapped.
        self.allocate_and_bind(type_bits, placement, false, Resource::Image(image))
    }

    fn free(&mut self, mut allocation: vk_mem::Allocation) {
        // SAFETY: the resource bound to it was destroyed first and no submission uses it.
        unsafe { self.allocator.free_memory(&mut allocation) };
    }

    fn flush(&self, allocation: &vk_mem::Allocation, offset: u64, len: u64) -> Result<()> {
        self.allocator
            .flush_allocation(allocation, offset, len)
            .map_err(|r| map_alloc("vmaFlushAllocation", r))
    }

    fn invalidate(&self, allocation: &vk_mem::Allocation, offset: u64, len: u64) -> Result<()> {
        self.allocator
            .invalidate_allocation(allocation, offset, len)
            .map_err(|r| map_alloc("vmaInvalidateAllocation", r))
    }

    fn counters(&self) -> DeviceMemoryCounters {
        let c = &self.counters;
        DeviceMemoryCounters {
            live_objects: c.live.load(Ordering::Relaxed) as u32,
            allocate_calls: c.allocate_calls.load(Ordering::Relaxed),
            free_calls: c.free_calls.load(Ordering::Relaxed),
            block_bytes: c.block_bytes.load(Ordering::Relaxed),
        }
    }

    fn pool_memory_type(&self, class: MemoryClass) -> u32 {
        self.classes
            .get(class.index())
            .map(|p| p.memory_type)
            .unwrap_or(u32::MAX)
    }
}
