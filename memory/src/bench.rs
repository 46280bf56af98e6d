//! The allocation benchmark: sub-allocated create+free through the manager against raw
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

/// What the upload benchmark measured, in MB/s (10^6 bytes per second).
#[derive(Debug, Clone)]
pub struct UploadBenchReport {
    /// The device name.
    pub device: String,
    /// Bytes moved per path.
    pub bytes: u64,
    /// A plain `memcpy` of the same bytes between two host buffers.
    pub memcpy: f64,
    /// Staged buffer uploads: time spent in `upload_buffer` (the application's cost).
    pub buffer_call: f64,
    /// Staged buffer uploads including the GPU copies (until the last one completed).
    pub buffer_end_to_end: f64,
    /// Direct writes into an idle host-visible buffer (unified memory only).
    pub buffer_direct: Option<f64>,
    /// RGBA8 texture uploads: time spent in `upload_image`.
    pub texture_call: f64,
    /// RGBA8 texture uploads including the GPU copies.
    pub texture_end_to_end: f64,
}

impl UploadBenchReport {
    /// The report as a markdown table with ratios to memcpy.
    pub fn markdown(&self) -> String {
        let row =
            |name: &str, mbps: f64| format!("| {name} | {mbps:.0} | {:.2} |\n", mbps / self.memcpy);
        let mut out = String::from("| path | MB/s | ratio to memcpy |\n|---|---:|---:|\n");
        out += &row("memcpy (host → host)", self.memcpy);
        out += &row("buffer upload, staged — in the call", self.buffer_call);
        out += &row(
            "buffer upload, staged — end to end (GPU copy done)",
            self.buffer_end_to_end,
        );
        if let Some(direct) = self.buffer_direct {
            out += &row("buffer upload, direct write (idle, unified memory)", direct);
        }
        out += &row("RGBA8 texture upload — in the call", self.texture_call);
        out += &row(
            "RGBA8 texture upload — end to end (GPU copy done)",
            self.texture_end_to_end,
        );
        out += &format!(
            "\n{} MiB per path, device: {}.\n",
            self.bytes >> 20,
            self.device
        );
        out
    }
}

fn mbps(bytes: u64, seconds: f64) -> f64 {
    bytes as f64 / seconds.max(1e-9) / 1e6
}

/// Streams `frames` × 2 MiB through each path on the device from the environment.
pub fn upload_throughput(frames: u32) -> Result<UploadBenchReport> {
    use arenagl_staging::{ClientFormat, PixelStore};

    use crate::desc::ImageDesc;
    use crate::vulkan::{ImageRegion, UploadPath};

    const CHUNK: usize = 2 << 20;
    const TARGET: u64 = 64 << 20;
    let mut m = MemoryManager::new(&VulkanConfig::from_env(), ManagerConfig::default())?;
    let bytes = u64::from(frames) * CHUNK as u64;
    let src: Vec<u8> = (0..CHUNK).map(|i| ((i * 131) >> 3) as u8).collect();

    let mut dst = vec![0u8; CHUNK];
    let start = Instant::now();
    for frame in 0..frames {
        dst.copy_from_slice(&src);
        dst[frame as usize % CHUNK] ^= 1; // keep the copies observable
    }
    let memcpy = mbps(bytes, start.elapsed().as_secs_f64());
    std::hint::black_box(&dst);

    let usage = vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::TRANSFER_DST;
    let target = m.create_buffer(&BufferDesc::new(
        TARGET,
        usage,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    ))?;
    let (mut in_call, start) = (0.0, Instant::now());
    for frame in 0..frames {
        m.begin_frame()?;
        m.use_buffer(target)?; // a draw uses it: the upload must be staged
        let t = Instant::now();
        m.upload_buffer(target, (u64::from(frame) * CHUNK as u64) % TARGET, &src)?;
        in_call += t.elapsed().as_secs_f64();
        m.submit()?;
    }
    m.collect_garbage_blocking()?;
    let buffer_end_to_end = mbps(bytes, start.elapsed().as_secs_f64());
    let buffer_call = mbps(bytes, in_call);

    let mut direct = None;
    if m.buffer_is_mapped(target)? {
        let t = Instant::now();
        for frame in 0..frames {
            let path = m.upload_buffer(target, (u64::from(frame) * CHUNK as u64) % TARGET, &src)?;
            if path != UploadPath::Direct {
                return Err(MemoryError::Internal(
                    "idle mapped buffer was not written directly",
                ));
            }
        }
        direct = Some(mbps(bytes, t.elapsed().as_secs_f64()));
    }
    m.retire_buffer(target)?;

    let side = 1024u32;
    let tex_usage = vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST;
    let image = m.create_image(&ImageDesc::new_2d(
        vk::Format::R8G8B8A8_UNORM,
        side,
        side,
        1,
        tex_usage,
        Category::Texture,
    ))?;
    let pixels: Vec<u8> = (0..(side * side * 4) as usize)
        .map(|i| (i >> 2) as u8)
        .collect();
    let tile_rows = (CHUNK / (side as usize * 4)) as u32; // 2 MiB of rows per upload
    let (mut in_call, start) = (0.0, Instant::now());
    for frame in 0..frames {
        m.begin_frame()?;
        let y = (frame * tile_rows) % side;
        let region = ImageRegion::rect(0, 0, y as i32, side, tile_rows);
        let slice = &pixels[..CHUNK];
        let t = Instant::now();
        m.upload_image(
            image,
            &region,
            slice,
            &PixelStore::default(),
            ClientFormat::Rgba,
        )?;
        in_call += t.elapsed().as_secs_f64();
        m.submit()?;
    }
    m.collect_garbage_blocking()?;
    let texture_end_to_end = mbps(bytes, start.elapsed().as_secs_f64());
    let texture_call = mbps(bytes, in_call);
    m.retire_image(image)?;
    Ok(UploadBenchReport {
        device: m.device_info().name.clone(),
        bytes,
        memcpy,
        buffer_call,
        buffer_end_to_end,
        buffer_direct: direct,
        texture_call,
        texture_end_to_end,
    })
}

/// A file-name slug for a device: "llvmpipe (LLVM 15.0.6, 256 bits)" → "llvmpipe",
/// "NVIDIA H200" → "nvidia-h200".
pub fn device_slug(device: &str) -> String {
    let name = device
        .split('(')
        .next()
        .unwrap_or(device)
        .trim()
        .to_lowercase();
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Writes a benchmark's results page to `$ARENAGL_BENCH_OUT`, or to
/// `docs/results/<name>-<device>.md` in the repository; returns where it went.
pub fn write_results(name: &str, device: &str, page: &str) -> std::io::Result<std::path::PathBuf> {
    let out = std::env::var_os("ARENAGL_BENCH_OUT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../docs/results")
                .join(format!("{name}-{}.md", device_slug(device)))
        });
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&out, page)?;
    Ok(out)
}
