//! The compiler's SPIR-V and reflection on the real driver: for each program and each target, a
//! pipeline layout is built from the reflection alone and a graphics pipeline is created with the
//! validation layer on. The layer checks what `spirv-val` cannot: that every descriptor the
//! shaders use is in the layout with the right type, count and stages, and that the modules are
//! acceptable to this device (lavapipe: Vulkan 1.3).
//!
//! No geometry stage here: the memory manager creates the device without the `geometryShader`
//! feature (geometry SPIR-V is checked by `spirv-val` in `glsl.rs`).

use arenagl_memory::{ManagerConfig, MemoryManager, VulkanConfig};
use arenagl_translate::glsl::{
    compile_program, CompileOptions, GlType, Program, Stage, StageMask, TargetEnv,
    DEFAULT_BLOCK_SET, RESOURCE_SET,
};
use ash::vk;

const PROGRAMS: &[(&str, &[(Stage, &str)])] = &[
    (
        "3.30 with every resource kind",
        &[
            (
                Stage::Vertex,
                r#"#version 330 core
in vec3 position;
in vec2 uv;
in mat4 instanceModel;
in ivec2 cell;
out vec2 vUv;
flat out int vCell;
uniform mat4 viewProj;
uniform vec2 offsets[4];
layout(std140) uniform Frame { vec4 fog; float time; };
uniform sampler2D heightmap;
void main() {
    vUv = uv + offsets[gl_VertexID % 4];
    vCell = cell.x + cell.y;
    float h = texture(heightmap, uv).r;
    gl_Position = viewProj * instanceModel * vec4(position + vec3(0.0, h * time, 0.0), 1.0);
}
"#,
            ),
            (
                Stage::Fragment,
                r#"#version 330 core
in vec2 vUv;
flat in int vCell;
out vec4 fragColor;
layout(std140) uniform Frame { vec4 fog; float time; };
uniform sampler2D atlas;
uniform sampler2DArray layers[2];
uniform sampler2D heightmap;
uniform float alpha;
void main() {
    vec4 c = texture(atlas, vUv) + texture(layers[1], vec3(vUv, float(vCell)));
    fragColor = mix(c, fog, texture(heightmap, vUv).r) * alpha;
}
"#,
            ),
        ],
    ),
    (
        "1.40",
        &[
            (
                Stage::Vertex,
                "#version 140\nin vec4 pos;\nout vec2 v;\nvoid main() { v = pos.xy; gl_Position = pos; }\n",
            ),
            (
                Stage::Fragment,
                "#version 140\nin vec2 v;\nout vec4 color;\nuniform sampler2D t;\nvoid main() { color = texture(t, v); }\n",
            ),
        ],
    ),
    (
        "4.50",
        &[
            (
                Stage::Vertex,
                "#version 450 core\nlayout(location = 1) in vec4 pos;\nout vec2 v;\nuniform float size;\nvoid main() { v = pos.xy * size; gl_Position = pos; }\n",
            ),
            (
                Stage::Fragment,
                "#version 450 core\nin vec2 v;\nout vec4 color;\nlayout(binding = 2) uniform sampler2D t;\nuniform float size;\nvoid main() { color = texture(t, v) * size; }\n",
            ),
        ],
    ),
    (
        "gl_FragData",
        &[
            (
                Stage::Vertex,
                "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n",
            ),
            (
                Stage::Fragment,
                "#version 150\nvoid main() { gl_FragData[0] = vec4(1.0); gl_FragData[1] = vec4(0.5); }\n",
            ),
        ],
    ),
];

fn stage_flags(mask: StageMask) -> vk::ShaderStageFlags {
    [
        (Stage::Vertex, vk::ShaderStageFlags::VERTEX),
        (
            Stage::TessControl,
            vk::ShaderStageFlags::TESSELLATION_CONTROL,
        ),
        (
            Stage::TessEvaluation,
            vk::ShaderStageFlags::TESSELLATION_EVALUATION,
        ),
        (Stage::Geometry, vk::ShaderStageFlags::GEOMETRY),
        (Stage::Fragment, vk::ShaderStageFlags::FRAGMENT),
    ]
    .into_iter()
    .filter(|(stage, _)| mask.contains(*stage))
    .fold(vk::ShaderStageFlags::empty(), |flags, (_, f)| flags | f)
}

/// (format, locations) of one vertex attribute: a matrix takes one location per column.
fn attribute_format(ty: GlType) -> (vk::Format, u32) {
    match ty {
        GlType::Float => (vk::Format::R32_SFLOAT, 1),
        GlType::Vec2 => (vk::Format::R32G32_SFLOAT, 1),
        GlType::Vec3 => (vk::Format::R32G32B32_SFLOAT, 1),
        GlType::Vec4 => (vk::Format::R32G32B32A32_SFLOAT, 1),
        GlType::Int => (vk::Format::R32_SINT, 1),
        GlType::IVec2 => (vk::Format::R32G32_SINT, 1),
        GlType::Mat4 => (vk::Format::R32G32B32A32_SFLOAT, 4),
        other => panic!("no test format for attribute type {other:?}"),
    }
}

struct Created {
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pipeline_layout: vk::PipelineLayout,
    modules: Vec<vk::ShaderModule>,
    pipeline: vk::Pipeline,
}

/// Builds the layout from the reflection alone, then the pipeline.
fn create_pipeline(device: &ash::Device, program: &Program) -> Created {
    let r = &program.reflection;
    let layout_binding = |binding, ty, count, stages| {
        vk::DescriptorSetLayoutBinding::default()
            .binding(binding)
            .descriptor_type(ty)
            .descriptor_count(count)
            .stage_flags(stage_flags(stages))
    };
    let mut set0 = Vec::new();
    for block in &r.uniform_blocks {
        assert_eq!(block.set, RESOURCE_SET);
        let count = block.array_size.unwrap_or(1);
        let ty = vk::DescriptorType::UNIFORM_BUFFER;
        set0.push(layout_binding(block.binding, ty, count, block.stages));
    }
    for sampler in &r.samplers {
        assert_eq!(sampler.set, RESOURCE_SET);
        let count = sampler.array_size.unwrap_or(1);
        let ty = vk::DescriptorType::COMBINED_IMAGE_SAMPLER;
        set0.push(layout_binding(sampler.binding, ty, count, sampler.stages));
    }
    let set1: Vec<_> = r
        .default_block
        .iter()
        .map(|block| {
            assert_eq!(block.set, DEFAULT_BLOCK_SET);
            let ty = vk::DescriptorType::UNIFORM_BUFFER;
            layout_binding(block.binding, ty, 1, block.stages)
        })
        .collect();
    let set_layouts: Vec<vk::DescriptorSetLayout> = [set0, set1]
        .iter()
        .map(|bindings| {
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(bindings);
            // SAFETY: valid device and create info.
            unsafe { device.create_descriptor_set_layout(&info, None) }.unwrap()
        })
        .collect();
    let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
    // SAFETY: valid device; the set layouts are live.
    let pipeline_layout = unsafe { device.create_pipeline_layout(&info, None) }.unwrap();

    let modules: Vec<vk::ShaderModule> = program
        .stages
        .iter()
        .map(|m| {
            let info = vk::ShaderModuleCreateInfo::default().code(&m.spirv);
            // SAFETY: valid device; the code is a whole SPIR-V module.
            unsafe { device.create_shader_module(&info, None) }.unwrap()
        })
        .collect();
    let stages: Vec<_> = program
        .stages
        .iter()
        .zip(&modules)
        .map(|(m, &module)| {
            let stage = match m.stage {
                Stage::Vertex => vk::ShaderStageFlags::VERTEX,
                Stage::Fragment => vk::ShaderStageFlags::FRAGMENT,
                other => panic!("no test for {other:?}"),
            };
            vk::PipelineShaderStageCreateInfo::default()
                .stage(stage)
                .module(module)
                .name(c"main")
        })
        .collect();

    let mut bindings = Vec::new();
    let mut attributes = Vec::new();
    for (index, attribute) in r.attributes.iter().enumerate() {
        let (format, locations) = attribute_format(attribute.ty);
        let binding = index as u32;
        bindings.push(
            vk::VertexInputBindingDescription::default()
                .binding(binding)
                .stride(64)
                .input_rate(vk::VertexInputRate::VERTEX),
        );
        for column in 0..locations {
            attributes.push(
                vk::VertexInputAttributeDescription::default()
                    .location(attribute.location + column)
                    .binding(binding)
                    .format(format)
                    .offset(column * 16),
            );
        }
    }
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&bindings)
        .vertex_attribute_descriptions(&attributes);
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewport = vk::PipelineViewportStateCreateInfo::default()
        .viewport_count(1)
        .scissor_count(1);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .line_width(1.0);
    let multisample = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    // One colour attachment per fragment output location.
    let attachments = r
        .frag_outputs
        .iter()
        .map(|o| o.location + o.array_size.unwrap_or(1))
        .max()
        .unwrap_or(0);
    let formats = vec![vk::Format::R8G8B8A8_UNORM; attachments as usize];
    let blend_attachments = vec![
        vk::PipelineColorBlendAttachmentState::default()
            .color_write_mask(vk::ColorComponentFlags::RGBA);
        attachments as usize
    ];
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
    let dynamic_states = [vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR];
    let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
    let mut rendering =
        vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats);
    let info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .color_blend_state(&blend)
        .dynamic_state(&dynamic)
        .layout(pipeline_layout)
        .push_next(&mut rendering);
    // SAFETY: valid device; every pointer in `info` refers to locals alive for the call.
    let pipeline =
        unsafe { device.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) }
            .map_err(|(_, e)| e)
            .unwrap()[0];
    Created {
        set_layouts,
        pipeline_layout,
        modules,
        pipeline,
    }
}

fn destroy(device: &ash::Device, created: Created) {
    // SAFETY: nothing uses these objects (no command buffer recorded them).
    unsafe {
        device.destroy_pipeline(created.pipeline, None);
        for module in created.modules {
            device.destroy_shader_module(module, None);
        }
        device.destroy_pipeline_layout(created.pipeline_layout, None);
        for layout in created.set_layouts {
            device.destroy_descriptor_set_layout(layout, None);
        }
    }
}

#[test]
fn pipelines_from_reflection_pass_the_validation_layer() {
    let validation = std::env::var("ARENAGL_VALIDATION").map_or(true, |v| v.trim() != "0");
    let vulkan = VulkanConfig {
        validation,
        ..VulkanConfig::default()
    };
    let manager = MemoryManager::new(&vulkan, ManagerConfig::default())
        .expect("open the Vulkan device (is lavapipe installed?)");
    assert!(
        manager.device_info().features.dynamic_rendering,
        "the test builds pipelines with dynamic rendering"
    );
    let device = manager.backend().shared().raw.clone();
    for target in [TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_1] {
        for (label, stages) in PROGRAMS {
            let program = compile_program(
                stages,
                CompileOptions {
                    target,
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{label}: {e}"));
            let created = create_pipeline(&device, &program);
            destroy(&device, created);
            assert_eq!(
                manager.validation_error_count(),
                0,
                "{label} ({target:?}): {:#?}",
                manager.validation_errors()
            );
        }
    }
    if !validation {
        eprintln!("ARENAGL_VALIDATION=0: pipelines created without the validation layer");
    }
}
