//! `arenagl workload`: the Minecraft-like memory workload, run on the real device (the GL scene
//! that renders it is `arenagl demo`, `src/demo/`).
//!
//! What a frame does, per the mission's workload: stream 2 MiB of chunk meshes through an
//! upload buffer into a 64 MiB device-local mesh arena (a recorded copy), rewrite a per-draw
//! uniform buffer, churn a few entity textures (create new, retire old), submit the frame as an
//! epoch and drain at the start of the next. The 14 block atlases (1024², full mips) live for the
//! whole run. Nothing here touches device memory except through the manager.

use std::collections::VecDeque;
use std::time::Instant;

use arenagl_memory::{
    BufferDesc, BufferHandle, Category, Epoch, ImageDesc, ImageHandle, ManagerConfig, MemoryClass,
    MemoryError, MemoryManager, VulkanConfig,
};
use ash::vk;

/// Options of `arenagl workload`.
#[derive(clap::Args, Debug)]
pub struct WorkloadArgs {
    /// Frames to run.
    #[arg(long, default_value_t = 120)]
    frames: u32,
    /// Enable the Vulkan validation layer (also `ARENAGL_VALIDATION=1`).
    #[arg(long)]
    validation: bool,
    /// Cap every heap at this many MiB, to watch the OOM ladder on a small device.
    #[arg(long)]
    heap_limit_mb: Option<u64>,
    /// Print statistics every N frames (0: only at the end).
    #[arg(long, default_value_t = 30)]
    report_every: u32,
    /// Sleep this long after each frame (to watch the run with `arenagl top`).
    #[arg(long, default_value_t = 0)]
    frame_interval_ms: u64,
    /// Push memory: load this many MiB of extra textures every frame and keep them, freeing
    /// half of them whenever an allocation is refused (watch the pressure levels in `top`).
    #[arg(long, default_value_t = 0)]
    grow_mib: u32,
    /// Do not publish the telemetry page (also `ARENAGL_TELEMETRY=0`).
    #[arg(long)]
    no_telemetry: bool,
}

const ATLASES: usize = 14;
const ATLAS_SIDE: u32 = 1024;
const ARENA_BYTES: u64 = 64 << 20;
const STREAM_BYTES: u64 = 2 << 20;
const UNIFORM_BYTES: u64 = 256 << 10;
const LIVE_ENTITY_TEXTURES: usize = 96;
const CHURN_PER_FRAME: usize = 4;

fn upload_desc(size: u64, name: &'static str) -> BufferDesc {
    BufferDesc::new(
        size,
        vk::BufferUsageFlags::TRANSFER_SRC,
        MemoryClass::Upload,
        Category::Staging,
    )
    .named(name)
}

/// Runs the workload.
pub fn run(args: &WorkloadArgs) -> Result<(), MemoryError> {
    let mut vulkan = VulkanConfig::from_env();
    vulkan.validation |= args.validation;
    if args.heap_limit_mb.is_some() {
        vulkan.heap_size_limit = args.heap_limit_mb.map(|mb| mb << 20);
    }
    let config = ManagerConfig {
        faults: arenagl_memory::FaultPlan::from_env()?,
        ..ManagerConfig::default()
    };
    let mut m = MemoryManager::new(&vulkan, config)?;
    let overrides = arenagl_residency::EnvOverrides::from_env()
        .map_err(|e| MemoryError::InvalidRequest(e.to_string()))?;
    let budget =
        arenagl_memory::vulkan::derive_budget(m.device_info(), m.heap_budget_bytes(), overrides);
    println!(
        "budget: {:.0} MiB (profile {}; ARENAGL_PROFILE / ARENAGL_BUDGET_MB override it)",
        budget.total_bytes as f64 / 1048576.0,
        budget.derivation.profile.split(" (").next().unwrap_or("?")
    );
    m.set_budget(Some(budget));
    let telemetry_off =
        args.no_telemetry || std::env::var("ARENAGL_TELEMETRY").is_ok_and(|v| v.trim() == "0");
    if !telemetry_off {
        match m.publish_telemetry(None) {
            Ok(()) => println!(
                "telemetry: pid {} (watch with `arenagl top --pid {}`)",
                std::process::id(),
                std::process::id()
            ),
            Err(e) => eprintln!("arenagl: telemetry not published: {e}"),
        }
    }
    let info = m.device_info().clone();
    println!(
        "ArenaGL memory workload on {} ({:?}, Vulkan {}.{}, {} memory, validation {})",
        info.name,
        info.device_type,
        vk::api_version_major(info.used_api_version),
        vk::api_version_minor(info.used_api_version),
        if info.unified_memory() {
            "unified"
        } else {
            "discrete"
        },
        if vulkan.validation { "on" } else { "off" },
    );
    for p in m.pool_report() {
        println!(
            "  pool {:<14} memory type {:>2} {:?} (heap {}, {} MiB)",
            p.class.name(),
            p.memory_type,
            p.flags,
            p.heap,
            p.heap_size >> 20
        );
    }

    let sampled = vk::ImageUsageFlags::SAMPLED
        | vk::ImageUsageFlags::TRANSFER_DST
        | vk::ImageUsageFlags::TRANSFER_SRC;
    let mut atlases: Vec<ImageHandle> = Vec::with_capacity(ATLASES);
    for _ in 0..ATLASES {
        let mips = ImageDesc::full_mip_count(vk::Extent3D {
            width: ATLAS_SIDE,
            height: ATLAS_SIDE,
            depth: 1,
        });
        let desc = ImageDesc::new_2d(
            vk::Format::R8G8B8A8_UNORM,
            ATLAS_SIDE,
            ATLAS_SIDE,
            mips,
            sampled,
            Category::Texture,
        )
        .named("block atlas");
        atlases.push(m.create_image(&desc)?);
    }
    let arena = m.create_buffer(
        &BufferDesc::new(
            ARENA_BYTES,
            vk::BufferUsageFlags::VERTEX_BUFFER
                | vk::BufferUsageFlags::INDEX_BUFFER
                | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryClass::DeviceBuffer,
            Category::Buffer,
        )
        .named("chunk mesh arena"),
    )?;
    // One upload buffer and one uniform buffer per frame slot, so a slot is rewritten only
    // after its previous epoch completed.
    const SLOTS: usize = 2;
    let mut uploads: Vec<(BufferHandle, Epoch)> = Vec::new();
    let mut uniforms: Vec<BufferHandle> = Vec::new();
    for _ in 0..SLOTS {
        uploads.push((
            m.create_buffer(&upload_desc(STREAM_BYTES, "chunk upload"))?,
            Epoch::ZERO,
        ));
        uniforms.push(
            m.create_buffer(
                &BufferDesc::new(
                    UNIFORM_BYTES,
                    vk::BufferUsageFlags::UNIFORM_BUFFER,
                    MemoryClass::Transient,
                    Category::Buffer,
                )
                .named("per-draw uniforms"),
            )?,
        );
    }
    let mut entities: VecDeque<ImageHandle> = VecDeque::new();
    let mut grown: VecDeque<ImageHandle> = VecDeque::new();
    let mut chunk = vec![0u8; STREAM_BYTES as usize];
    let mut uniform_bytes = vec![0u8; UNIFORM_BYTES as usize];
    let mut refused = 0u64;
    let start = Instant::now();

    for frame in 0..args.frames {
        m.begin_frame()?;
        let slot = frame as usize % SLOTS;
        let (upload, epoch) = uploads[slot];
        m.wait_epoch(epoch)?;
        // Chunk meshes: new bytes every frame, copied to a rotating window of the arena.
        chunk
            .iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = (i as u32 ^ frame) as u8);
        m.write_buffer(upload, 0, &chunk)?;
        uniform_bytes
            .iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = (i as u32 + frame) as u8);
        m.write_buffer(uniforms[slot], 0, &uniform_bytes)?;
        let src = m.use_buffer(upload)?.raw();
        let dst = m.use_buffer(arena)?.raw();
        m.use_buffer(uniforms[slot])?;
        let cb = m.recording_command_buffer()?;
        let window = (u64::from(frame) * STREAM_BYTES) % ARENA_BYTES;
        let region = vk::BufferCopy {
            src_offset: 0,
            dst_offset: window,
            size: STREAM_BYTES,
        };
        // SAFETY: `cb` is the recording command buffer; both buffers are live, obtained through
        // `use_buffer` in this recording, and the region lies inside both.
        unsafe { m.device().cmd_copy_buffer(cb, src, dst, &[region]) };
        for atlas in &atlases {
            m.use_image(*atlas)?;
        }
        // Texture churn: new entity skins arrive, old ones are retired.
        for i in 0..CHURN_PER_FRAME {
            let side = 32 << ((frame as usize + i) % 4);
            let desc = ImageDesc::new_2d(
                vk::Format::R8G8B8A8_UNORM,
                side,
                side,
                1,
                sampled,
                Category::Texture,
            )
            .named("entity skin");
            match m.create_image(&desc) {
                Ok(h) => {
                    m.use_image(h)?;
                    entities.push_back(h);
                }
                Err(e) if e.is_out_of_memory() => refused += 1,
                Err(e) => return Err(e),
            }
        }
        // Memory growth (the player exploring: more chunks, more textures) until refused.
        for _ in 0..args.grow_mib {
            let desc = ImageDesc::new_2d(
                vk::Format::R8G8B8A8_UNORM,
                512,
                512,
                1,
                sampled,
                Category::Texture,
            )
            .named("streamed texture");
            match m.create_image(&desc) {
                Ok(h) => grown.push_back(h),
                Err(e) if e.is_out_of_memory() => {
                    refused += 1;
                    // The application reacts to GL_OUT_OF_MEMORY by unloading distant chunks.
                    for _ in 0..grown.len() / 2 {
                        if let Some(old) = grown.pop_front() {
                            m.retire_image(old)?;
                        }
                    }
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        while entities.len() > LIVE_ENTITY_TEXTURES {
            if let Some(old) = entities.pop_front() {
                m.retire_image(old)?;
            }
        }
        let epoch = m.submit()?;
        uploads[slot].1 = epoch;
        if args.frame_interval_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(args.frame_interval_ms));
        }
        if args.report_every > 0 && (frame + 1) % args.report_every == 0 {
            let s = m.stats();
            println!(
                "frame {:>4}: live {:.1} MiB, {} device memory objects, {} vkAllocateMemory calls, {} in flight, {} pending release",
                frame + 1,
                s.live_bytes as f64 / 1048576.0,
                s.device_memory.live_objects,
                s.device_memory.allocate_calls,
                s.epochs_in_flight(),
                s.pending_release_objects
            );
        }
    }
    m.collect_garbage_blocking()?;
    let elapsed = start.elapsed();
    let s = m.stats();
    println!(
        "{} frames in {:.2} s ({:.2} ms/frame); {} texture allocations refused under pressure",
        args.frames,
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1000.0 / f64::from(args.frames.max(1)),
        refused
    );
    println!("memory statistics:\n{}", s.report());
    if vulkan.validation {
        let errors = m.validation_error_count();
        println!("validation errors: {errors}");
        if errors > 0 {
            return Err(MemoryError::Internal(
                "the validation layer reported errors",
            ));
        }
    }
    for h in entities.into_iter().chain(atlases).chain(grown) {
        m.retire_image(h)?;
    }
    for (h, _) in uploads {
        m.retire_buffer(h)?;
    }
    for h in uniforms.into_iter().chain([arena]) {
        m.retire_buffer(h)?;
    }
    Ok(())
}
