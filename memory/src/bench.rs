//! The allocation benchmark (M1): sub-allocated create+free through the manager against raw
//! `vkCreateBuffer` + `vkAllocateMemory` + bind / destroy + `vkFreeMemory` for the same sizes,
//! in one run on one device. It lives in `memory/` because the raw path calls
//! `vkAllocateMemory`, which the ownership rule allows nowhere else.

use std::time::Instant;

use ash::vk;

use crate::desc::{BufferDesc, Category, MemoryClass};
use crate::error::{MemoryError, Result};
use crate::manager::ManagerConfig;
use crate::vulkan::conv::map_alloc;
use crate::vulkan::{MemoryManager, VulkanConfig};

/// What one run measured.
#[derive(Debug, Clone)]
pub struct AllocBenchReport {
    /// The device name.
    pub device: String,
    /// Buffers created and freed per path.
    pub operations: usize,
    /// Buffers alive at once (a batch).
    pub batch: usize,
    /// Manager: nanoseconds per create+free.
    pub manager_ns_per_op: f64,
    /// Raw Vulkan: nanoseconds per create+allocate+bind+destroy+free.
    pub raw_ns_per_op: f64,
    /// `vkAllocateMemory` calls the manager made.
    pub manager_allocate_calls: u64,
    /// `vkAllocateMemory` calls the raw path made.
    pub raw_allocate_calls: u64,
}

impl AllocBenchReport {
    /// Manager throughput divided by raw throughput (above 1: the manager is faster).
    pub fn speedup(&self) -> f64 {
        self.raw_ns_per_op / self.manager_ns_per_op.max(f64::MIN_POSITIVE)
    }

    /// The report as a markdown section.
    pub fn markdown(&self) -> String {
        format!(
            "| path | ns per create+free | ops/s | vkAllocateMemory calls |\n|---|---:|---:|---:|\n\
             | ArenaGL manager (VMA pools) | {:.0} | {:.0} | {} |\n\
             | raw vkAllocateMemory per buffer | {:.0} | {:.0} | {} |\n\n\
             Manager throughput / raw throughput: **{:.2}×** ({} buffers in batches of {}, device: {}).\n",
            self.manager_ns_per_op,
            1e9 / self.manager_ns_per_op.max(1.0),
            self.manager_allocate_calls,
            self.raw_ns_per_op,
            1e9 / self.raw_ns_per_op.max(1.0),
            self.raw_allocate_calls,
            self.speedup(),
            self.operations,
            self.batch,
            self.device
        )
    }
}

/// Sizes of a Minecraft-like mix: uniforms, small meshes, chunk sections.
fn sizes(n: usize) -> Vec<u64> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            256 << (state % 11)
        })
        .collect()
}

const USAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::VERTEX_BUFFER.as_raw() | vk::BufferUsageFlags::TRANSFER_DST.as_raw(),
);

/// Runs both paths for `operations` buffers in batches of `batch` alive at once.
pub fn alloc_throughput(operations: usize, batch: usize) -> Result<AllocBenchReport> {
    let mut m = MemoryManager::new(&VulkanConfig::from_env(), ManagerConfig::default())?;
    let sizes = sizes(operations);
    let batch = batch.max(1);

    let before = m.stats().device_memory.allocate_calls;
    let start = Instant::now();
    let mut live = Vec::with_capacity(batch);
    for chunk in sizes.chunks(batch) {
        for &size in chunk {
            live.push(m.create_buffer(&BufferDesc::new(
                size,
                USAGE,
                MemoryClass::DeviceBuffer,
                Category::Buffer,
            ))?);
        }
        for h in live.drain(..) {
            m.retire_buffer(h)?;
        }
    }
    let manager_ns = start.elapsed().as_nanos() as f64 / operations.max(1) as f64;
    let manager_calls = m.stats().device_memory.allocate_calls - before;

    let memory_type = m
        .pool_report()
        .into_iter()
        .find(|p| p.class == MemoryClass::DeviceBuffer)
        .map(|p| p.memory_type)
        .ok_or(MemoryError::Internal("no device-buffer pool"))?;
    let device = m.device().clone();
    let start = Instant::now();
    let mut raw = Vec::with_capacity(batch);
    for chunk in sizes.chunks(batch) {
        for &size in chunk {
            let info = vk::BufferCreateInfo::default().size(size).usage(USAGE);
            // SAFETY: valid create info on a live device; every object is destroyed below,
            // and none is ever used by a submission.
            unsafe {
                let buffer = device
                    .create_buffer(&info, None)
                    .map_err(|r| map_alloc("vkCreateBuffer", r))?;
                let reqs = device.get_buffer_memory_requirements(buffer);
                let alloc = vk::MemoryAllocateInfo::default()
                    .allocation_size(reqs.size)
                    .memory_type_index(memory_type);
                let memory = match device.allocate_memory(&alloc, None) {
                    Ok(mem) => mem,
                    Err(r) => {
                        device.destroy_buffer(buffer, None);
                        return Err(map_alloc("vkAllocateMemory", r));
                    }
                };
                device
                    .bind_buffer_memory(buffer, memory, 0)
                    .map_err(|r| map_alloc("vkBindBufferMemory", r))?;
                raw.push((buffer, memory));
            }
        }
        for (buffer, memory) in raw.drain(..) {
            // SAFETY: created above, never used by the GPU.
            unsafe {
                device.destroy_buffer(buffer, None);
                device.free_memory(memory, None);
            }
        }
    }
    let raw_ns = start.elapsed().as_nanos() as f64 / operations.max(1) as f64;
    Ok(AllocBenchReport {
        device: m.device_info().name.clone(),
        operations,
        batch,
        manager_ns_per_op: manager_ns,
        raw_ns_per_op: raw_ns,
        manager_allocate_calls: manager_calls,
        raw_allocate_calls: operations as u64,
    })
}
