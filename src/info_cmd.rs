//! `arenagl info`: the device ArenaGL would use, as a context would see it.
//!
//! Design decisions:
//! - The device is opened exactly as the library opens it (`MemoryManager::from_env`), so every
//!   variable applies: `ARENAGL_VK_PROFILE`, `ARENAGL_DEVICE`, `ARENAGL_VALIDATION`, the budget
//!   variables. What is printed is the clamped device: under a profile, an extension or feature
//!   the profile lacks is not listed, because it is not enabled.
//! - The GL strings come from real contexts made on that device (desktop core and
//!   compatibility, ES 2.0 and 3.0), not from a copy of their rules.

use std::fmt::Write as _;
use std::sync::Arc;

use arenagl_memory::vulkan::DeviceInfo;
use arenagl_memory::MemoryManager;
use arenagl_translate::gl::enums::{GL_EXTENSIONS, GL_SHADING_LANGUAGE_VERSION, GL_VERSION};
use arenagl_translate::gl::{Context, Device, Profile};
use ash::vk;

use crate::units::mib;

/// Options of `arenagl info`.
#[derive(clap::Args, Debug)]
pub struct InfoArgs {
    /// Leave out the GL and ES extension lists (print only their counts).
    #[arg(long)]
    brief: bool,
}

/// Opens the device from the environment and prints what it is.
pub fn run(args: &InfoArgs) -> Result<(), Box<dyn std::error::Error>> {
    let manager = MemoryManager::from_env()?;
    let mut out = String::new();
    describe_device(&mut out, manager.device_info());
    describe_budget(&mut out, &manager);
    let device = Device::with_manager(manager)?;
    describe_gl(&mut out, &device, args.brief);
    print!("{out}");
    Ok(())
}

fn version(v: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v)
    )
}

/// The physical device, the profile, extensions, features, limits and memory.
fn describe_device(out: &mut String, info: &DeviceInfo) {
    // Writing into a String cannot fail.
    let _ = writeln!(out, "device: {} ({:?})", info.name, info.device_type);
    let _ = writeln!(
        out,
        "vulkan: device {}, used {}",
        version(info.api_version),
        version(info.used_api_version)
    );
    let _ = match &info.profile {
        Some(p) => writeln!(
            out,
            "profile: {} (Vulkan {}, {}): extensions, features, limits and formats clamped",
            p.name,
            version(p.api_version),
            p.source
        ),
        None => writeln!(
            out,
            "profile: none (ARENAGL_VK_PROFILE unset: the whole device)"
        ),
    };
    let _ = writeln!(
        out,
        "enabled extensions ({}):",
        info.enabled_extensions.len()
    );
    for e in &info.enabled_extensions {
        let _ = writeln!(out, "  {e}");
    }
    let _ = writeln!(out, "features: {:#?}", info.features);
    describe_limits(out, &info.vk_limits);
    let _ = writeln!(out, "memory heaps:");
    for (i, h) in info.heaps.iter().enumerate() {
        let local = if h.device_local { " device-local" } else { "" };
        let _ = writeln!(out, "  {i}: {}{local}", mib(h.size));
    }
    let _ = writeln!(out, "memory types:");
    for (i, t) in info.memory_types.iter().enumerate() {
        let _ = writeln!(out, "  {i}: heap {} {:?}", t.heap, t.flags);
    }
}

/// The limits the GL limits follow.
fn describe_limits(out: &mut String, l: &vk::PhysicalDeviceLimits) {
    let rows = [
        ("maxImageDimension2D", l.max_image_dimension2_d),
        ("maxImageArrayLayers", l.max_image_array_layers),
        ("maxBoundDescriptorSets", l.max_bound_descriptor_sets),
        (
            "maxPerStageDescriptorSampledImages",
            l.max_per_stage_descriptor_sampled_images,
        ),
        (
            "maxPerStageDescriptorUniformBuffers",
            l.max_per_stage_descriptor_uniform_buffers,
        ),
        ("maxUniformBufferRange", l.max_uniform_buffer_range),
        ("maxPushConstantsSize", l.max_push_constants_size),
        ("maxVertexInputAttributes", l.max_vertex_input_attributes),
        ("maxColorAttachments", l.max_color_attachments),
        ("maxViewports", l.max_viewports),
    ];
    let _ = writeln!(out, "limits:");
    for (name, value) in rows {
        let _ = writeln!(out, "  {name}: {value}");
    }
    let _ = writeln!(
        out,
        "  framebufferColorSampleCounts: {:?}",
        l.framebuffer_color_sample_counts
    );
}

/// The budget in force and why.
fn describe_budget(out: &mut String, manager: &MemoryManager) {
    let Some(budget) = manager.budget() else {
        let _ = writeln!(out, "budget: none");
        return;
    };
    let _ = writeln!(out, "budget: {}", mib(budget.total_bytes));
    for line in budget.derivation.to_string().lines() {
        let _ = writeln!(out, "  {line}");
    }
}

/// What each kind of context reports on this device.
fn describe_gl(out: &mut String, device: &Arc<Device>, brief: bool) {
    let contexts = [
        ("GL core", Context::new(device.clone(), Profile::Core)),
        (
            "GL compatibility",
            Context::new(device.clone(), Profile::Compatibility),
        ),
        ("ES 2.0", Context::new_es(device.clone(), 2, 0)),
        ("ES 3.0", Context::new_es(device.clone(), 3, 0)),
    ];
    for (label, mut ctx) in contexts {
        let text = |ctx: &mut Context, name| {
            ctx.get_string(name)
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let version = text(&mut ctx, GL_VERSION);
        let glsl = text(&mut ctx, GL_SHADING_LANGUAGE_VERSION);
        let extensions = context_extensions(&mut ctx);
        let _ = writeln!(out, "{label}: {version}; GLSL {glsl}");
        let _ = writeln!(out, "  extensions ({}):", extensions.len());
        if !brief {
            for e in &extensions {
                let _ = writeln!(out, "    {e}");
            }
        }
    }
}

/// The context's extension strings, as `glGetStringi` lists them.
fn context_extensions(ctx: &mut Context) -> Vec<String> {
    (0u32..)
        .map_while(|i| {
            ctx.get_stringi(GL_EXTENSIONS, i)
                .map(|s| s.to_string_lossy().into_owned())
        })
        .collect()
}
