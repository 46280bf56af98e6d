//! The GLSL → SPIR-V compiler through its public API: reflection, validity of the SPIR-V
//! (`spirv-val`), info logs, and hostile sources.

use std::collections::HashMap;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use arenagl_translate::glsl::{
    compile_program, compile_program_bound, compile_shader, Attribute, BlockMember, CompileError,
    CompileOptions, FragOutput, GlType, Program, Reflection, SampledKind, SamplerDim, SamplerType,
    SamplerUniform, Stage, StageMask, TargetEnv, UniformBlock, DEFAULT_BLOCK_BINDING,
    DEFAULT_BLOCK_NAME, DEFAULT_BLOCK_SET, MAX_NESTING, RESOURCE_SET, SAMPLER_BINDING_BASE,
    STORAGE_BLOCK_BINDING_BASE, UNIFORM_BLOCK_BINDING_BASE,
};

const VS_330: &str = r#"#version 330 core
in vec3 position;
in vec2 uv;
in vec4 color;
out vec2 vUv;
out vec4 vColor;
uniform float scale;
uniform vec4 tint;
uniform mat4 model;
uniform vec2 offsets[4];
layout(std140) uniform Camera {
    mat4 view;
    mat4 proj;
    vec3 eye;
    float time;
};
void main() {
    vUv = uv + offsets[gl_VertexID % 4];
    vColor = color * tint;
    gl_Position = proj * view * model * vec4(position * scale, 1.0) + vec4(eye * time, 0.0);
}
"#;

const FS_330: &str = r#"#version 330 core
in vec2 vUv;
in vec4 vColor;
out vec4 fragColor;
uniform sampler2D albedo;
uniform float alpha;
uniform vec4 tint;
void main() {
    fragColor = texture(albedo, vUv) * vColor * tint * alpha;
}
"#;

const FS_PLAIN_330: &str = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

fn link(stages: &[(Stage, &str)]) -> Result<Program, CompileError> {
    compile_program(stages, CompileOptions::default())
}

fn member(name: &str, ty: GlType, offset: u32) -> BlockMember {
    BlockMember {
        name: name.into(),
        ty,
        offset,
        array_size: None,
        array_stride: 0,
        matrix_stride: if matches!(ty, GlType::Mat4) { 16 } else { 0 },
        row_major: false,
    }
}

fn vs_and_fs() -> StageMask {
    [Stage::Vertex, Stage::Fragment].into_iter().collect()
}

#[test]
fn gl33_program_reflects_exactly() {
    let program = link(&[(Stage::Vertex, VS_330), (Stage::Fragment, FS_330)]).unwrap();
    let stages: Vec<Stage> = program.stages.iter().map(|s| s.stage).collect();
    assert_eq!(stages, [Stage::Vertex, Stage::Fragment]);
    assert_eq!(program.info_log, "");

    let attribute = |name: &str, location, ty| Attribute {
        name: name.into(),
        location,
        ty,
        array_size: None,
    };
    // std140, as glslang lays out the default block: each member at its base alignment.
    let default_block = UniformBlock {
        name: DEFAULT_BLOCK_NAME.into(),
        set: DEFAULT_BLOCK_SET,
        binding: DEFAULT_BLOCK_BINDING,
        // `alpha` ends at 164, rounded up to 16.
        size: 176,
        array_size: None,
        dims: Vec::new(),
        stages: vs_and_fs(),
        members: vec![
            member("scale", GlType::Float, 0),
            member("tint", GlType::Vec4, 16),
            member("model", GlType::Mat4, 32),
            BlockMember {
                array_size: Some(4),
                // std140 rounds an array element up to a vec4.
                array_stride: 16,
                ..member("offsets", GlType::Vec2, 96)
            },
            // The fragment stage's own uniform, merged into the one block after the vertex ones.
            member("alpha", GlType::Float, 160),
        ],
    };
    let camera = UniformBlock {
        name: "Camera".into(),
        set: RESOURCE_SET,
        binding: UNIFORM_BLOCK_BINDING_BASE,
        size: 144,
        array_size: None,
        dims: Vec::new(),
        stages: StageMask::of(Stage::Vertex),
        members: vec![
            member("view", GlType::Mat4, 0),
            member("proj", GlType::Mat4, 64),
            member("eye", GlType::Vec3, 128),
            // A float packs into the fourth component after a vec3.
            member("time", GlType::Float, 140),
        ],
    };
    let expected = Reflection {
        attributes: vec![
            attribute("position", 0, GlType::Vec3),
            attribute("uv", 1, GlType::Vec2),
            attribute("color", 2, GlType::Vec4),
        ],
        frag_outputs: vec![FragOutput {
            name: "fragColor".into(),
            location: 0,
            index: 0,
            ty: GlType::Vec4,
            array_size: None,
        }],
        default_block: Some(default_block),
        uniform_blocks: vec![camera],
        samplers: vec![SamplerUniform {
            name: "albedo".into(),
            set: RESOURCE_SET,
            binding: SAMPLER_BINDING_BASE,
            ty: SamplerType {
                dim: SamplerDim::D2,
                kind: SampledKind::Float,
                shadow: false,
            },
            array_size: None,
            dims: Vec::new(),
            stages: StageMask::of(Stage::Fragment),
        }],
        storage_blocks: Vec::new(),
        images: Vec::new(),
        local_size: None,
    };
    assert_eq!(program.reflection, expected);
    assert_eq!(
        program
            .reflection
            .default_uniform("offsets")
            .map(|m| m.offset),
        Some(96)
    );
    assert_eq!(
        program.reflection.sampler("albedo").map(|s| s.binding),
        Some(96)
    );
}

#[test]
fn default_block_flattens_structs_and_arrays_the_gl_way() {
    let vs = r#"#version 330 core
struct Light { vec3 position; float power; };
uniform Light lights[2];
uniform Light sun;
uniform mat3 normalMatrix;
uniform bool enabled;
layout(row_major) uniform Bones { mat2x3 bone; } bones;
void main() {
    vec3 p = lights[0].position * lights[1].power + sun.position * sun.power;
    p = normalMatrix * p + bones.bone * vec2(1.0);
    gl_Position = enabled ? vec4(p, 1.0) : vec4(0.0);
}
"#;
    let program = link(&[(Stage::Vertex, vs), (Stage::Fragment, FS_PLAIN_330)]).unwrap();
    let block = program.reflection.default_block.as_ref().unwrap();
    let got: Vec<(&str, GlType, u32)> = block
        .members
        .iter()
        .map(|m| (m.name.as_str(), m.ty, m.offset))
        .collect();
    assert_eq!(
        got,
        [
            ("lights[0].position", GlType::Vec3, 0),
            ("lights[0].power", GlType::Float, 12),
            ("lights[1].position", GlType::Vec3, 16),
            ("lights[1].power", GlType::Float, 28),
            ("sun.position", GlType::Vec3, 32),
            ("sun.power", GlType::Float, 44),
            ("normalMatrix", GlType::Mat3, 48),
            // A bool is a 32-bit uint in SPIR-V (see `types`).
            ("enabled", GlType::UInt, 96),
        ]
    );
    let mat3 = program.reflection.default_uniform("normalMatrix").unwrap();
    assert_eq!((mat3.matrix_stride, mat3.row_major), (16, false));
    assert_eq!(block.size, 112);

    let bones = program.reflection.uniform_block("Bones").unwrap();
    // An instance name does not change the GL name of the members: `Block.member`.
    assert_eq!(bones.members[0].name, "Bones.bone");
    assert_eq!(bones.members[0].ty, GlType::Mat2x3);
    assert!(bones.members[0].row_major);
    // Row-major mat2x3: three rows of 16 bytes.
    assert_eq!(bones.size, 48);
}

#[test]
fn default_block_is_one_layout_for_every_stage() {
    // Overlapping sets of loose uniforms, declared in different orders: both stages must see one
    // block with one layout (reflection fails the link if the stages' modules disagree).
    let vs = "#version 330 core\nuniform float a;\nuniform vec4 b;\nuniform mat4 m;\nvoid main() { gl_Position = m * b * a; }\n";
    let fs = "#version 330 core\nuniform vec4 b;\nuniform float c;\nuniform float a;\nout vec4 o;\nvoid main() { o = b * c * a; }\n";
    let program = link(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).unwrap();
    let block = program.reflection.default_block.as_ref().unwrap();
    let layout: Vec<(&str, u32)> = block
        .members
        .iter()
        .map(|m| (m.name.as_str(), m.offset))
        .collect();
    assert_eq!(layout, [("a", 0), ("b", 16), ("m", 32), ("c", 96)]);
    assert_eq!(block.stages, vs_and_fs());
}

/// Runs `spirv-val` on one module; `None` when the binary is missing.
fn spirv_val(words: &[u32], target: TargetEnv) -> Option<Result<(), String>> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "arenagl-glsl-{}-{}.spv",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let output = Command::new("spirv-val")
        .args(["--target-env", target.spirv_val_name()])
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    match output {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => Some(Err(format!("could not run spirv-val: {e}"))),
        Ok(out) if out.status.success() => Some(Ok(())),
        Ok(out) => Some(Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))),
    }
}

fn assert_valid(label: &str, program: &Program, target: TargetEnv) {
    for module in &program.stages {
        match spirv_val(&module.spirv, target) {
            None => {
                eprintln!("SKIPPED: spirv-val not found (Debian package spirv-tools); {label} not validated");
                return;
            }
            Some(Ok(())) => {}
            Some(Err(log)) => panic!(
                "{label}: {:?} SPIR-V rejected by spirv-val:\n{log}",
                module.stage
            ),
        }
    }
}

const VS_140: &str =
    "#version 140\nin vec4 pos;\nout vec2 v;\nvoid main() { v = pos.xy; gl_Position = pos; }\n";
const FS_140: &str = "#version 140\nin vec2 v;\nout vec4 color;\nuniform sampler2D t;\nuniform float k;\nvoid main() { color = texture(t, v) * k; }\n";

const VS_450: &str = r#"#version 450 core
layout(location = 2) in vec4 pos;
out VS { vec2 uv; vec3 normal; } vs;
layout(std140, binding = 1) uniform Frame { mat4 mvp; };
void main() { vs.uv = pos.xy; vs.normal = pos.xyz; gl_Position = mvp * pos; }
"#;
const FS_450: &str = r#"#version 450 core
in VS { vec2 uv; vec3 normal; } fs;
layout(location = 0) out vec4 color;
layout(binding = 3) uniform sampler2DArray layers;
uniform vec3 light;
void main() { color = texture(layers, vec3(fs.uv, 0.0)) * max(dot(fs.normal, light), 0.0); }
"#;

const GS_330: &str = r#"#version 330 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec2 vUv[];
out vec2 gUv;
uniform float shrink;
void main() {
    for (int i = 0; i < 3; i++) {
        gUv = vUv[i];
        gl_Position = gl_in[i].gl_Position * shrink;
        EmitVertex();
    }
    EndPrimitive();
}
"#;

const TCS_410: &str = r#"#version 410 core
layout(vertices = 3) out;
uniform float level;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelInner[0] = level;
    gl_TessLevelOuter[0] = level;
    gl_TessLevelOuter[1] = level;
    gl_TessLevelOuter[2] = level;
}
"#;
const TES_410: &str = r#"#version 410 core
layout(triangles) in;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
        + gl_TessCoord.z * gl_in[2].gl_Position;
}
"#;

#[test]
fn every_stage_passes_spirv_val() {
    let programs: Vec<(&str, Vec<(Stage, &str)>)> = vec![
        ("3.30", vec![(Stage::Vertex, VS_330), (Stage::Fragment, FS_330)]),
        ("1.40", vec![(Stage::Vertex, VS_140), (Stage::Fragment, FS_140)]),
        ("4.50", vec![(Stage::Vertex, VS_450), (Stage::Fragment, FS_450)]),
        (
            "geometry",
            vec![
                (Stage::Vertex, "#version 330 core\nin vec2 p;\nout vec2 vUv;\nvoid main() { vUv = p; gl_Position = vec4(p, 0.0, 1.0); }\n"),
                (Stage::Geometry, GS_330),
                (Stage::Fragment, "#version 330 core\nin vec2 gUv;\nout vec4 c;\nvoid main() { c = vec4(gUv, 0.0, 1.0); }\n"),
            ],
        ),
        (
            "gl_FragData",
            vec![
                (Stage::Vertex, "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n"),
                (Stage::Fragment, "#version 150\nvoid main() { gl_FragData[0] = vec4(1.0); }\n"),
            ],
        ),
        (
            "tessellation",
            vec![
                (Stage::Vertex, "#version 410 core\nin vec4 p;\nvoid main() { gl_Position = p; }\n"),
                (Stage::TessControl, TCS_410),
                (Stage::TessEvaluation, TES_410),
                (Stage::Fragment, "#version 410 core\nout vec4 c;\nuniform vec4 k;\nvoid main() { c = k; }\n"),
            ],
        ),
    ];
    for target in [TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_1] {
        for (label, stages) in &programs {
            let program = compile_program(
                stages,
                CompileOptions {
                    target,
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{label}: {e}"));
            let version = match target {
                TargetEnv::Vulkan1_2 => 0x0001_0500,
                TargetEnv::Vulkan1_1 => 0x0001_0300,
            };
            for module in &program.stages {
                assert_eq!(module.spirv[1], version, "{label} {:?}", module.stage);
            }
            assert_valid(label, &program, target);
        }
    }
}

#[test]
fn deprecated_frag_data_gets_location_zero() {
    let program = link(&[
        (
            Stage::Vertex,
            "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n",
        ),
        (
            Stage::Fragment,
            "#version 150\nvoid main() { gl_FragData[0] = vec4(1.0); }\n",
        ),
    ])
    .unwrap();
    let out = &program.reflection.frag_outputs[0];
    assert_eq!((out.name.as_str(), out.location), ("gl_FragData", 0));
    // gl_MaxDrawBuffers is 8: every location must exist as a colour attachment on the device.
    assert_eq!(out.array_size, Some(8));
}

#[test]
fn fragment_units_may_leave_out_a_gl_frag_coord_redeclaration_they_do_not_use() {
    // piglit glsl-1.50 fragcoord-layout-qualifiers-matching-case-1: glslang alone refuses it
    // ("gl_FragCoord redeclarations must match across shaders").
    let vs = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
    let redeclared = "layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;\n";
    let main = format!(
        "#version 150\n{redeclared}out vec4 c;\nvoid blue();\nvoid main() {{ c = vec4(gl_FragCoord.xy, 0.0, 1.0); blue(); }}\n"
    );
    let blue = "#version 150\nout vec4 c;\nvoid blue() { c.b = 1.0; }\n";
    let alpha = format!(
        "#version 150\n{redeclared}out vec4 c;\nvoid alpha() {{ c.a = gl_FragCoord.z; }}\n"
    );
    link(&[
        (Stage::Vertex, vs),
        (Stage::Fragment, &main),
        (Stage::Fragment, blue),
        (Stage::Fragment, &alpha),
    ])
    .unwrap();
    // What GLSL makes a link error stays one: a unit using gl_FragCoord without the
    // redeclaration the others have.
    let uses = "#version 150\nout vec4 c;\nvoid blue() { c.b = gl_FragCoord.x; }\n";
    let err = link(&[
        (Stage::Vertex, vs),
        (Stage::Fragment, &main),
        (Stage::Fragment, uses),
    ])
    .unwrap_err();
    assert!(err.to_string().contains("gl_FragCoord"), "{err}");
}

#[test]
fn bound_frag_outputs_take_their_location_and_index() {
    let vs = "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n";
    let fs = "#version 330 core\nout vec4 a;\nout vec4 b;\nout vec4 c;\nvoid main() { a = vec4(1.0); b = vec4(0.5); c = vec4(0.25); }\n";
    let outputs = |bindings: &[(&str, (u32, u32))]| -> Vec<(String, u32, u32)> {
        let bindings: HashMap<String, (u32, u32)> =
            bindings.iter().map(|(n, b)| (n.to_string(), *b)).collect();
        let program = compile_program_bound(
            &[(Stage::Vertex, vs), (Stage::Fragment, fs)],
            CompileOptions::default(),
            &bindings,
        )
        .unwrap();
        assert_valid("bound outputs", &program, TargetEnv::default());
        program
            .reflection
            .frag_outputs
            .iter()
            .map(|o| (o.name.clone(), o.location, o.index))
            .collect()
    };
    let find = |got: &[(String, u32, u32)], name: &str| -> (u32, u32) {
        let o = got.iter().find(|o| o.0 == name).unwrap();
        (o.1, o.2)
    };
    // `b` feeds dual-source blending: location 0, index 1 (a decoration glslang did not emit).
    let got = outputs(&[("a", (0, 0)), ("b", (0, 1))]);
    assert_eq!(find(&got, "a"), (0, 0), "{got:?}");
    assert_eq!(find(&got, "b"), (0, 1), "{got:?}");
    // `c` bound to location 0, where glslang put `a`: the unbound `a` moves to a free one.
    let got = outputs(&[("c", (0, 0))]);
    assert_eq!(find(&got, "c"), (0, 0), "{got:?}");
    let a = find(&got, "a");
    assert!(a.0 != 0 && a != find(&got, "b"), "{got:?}");
}

#[test]
fn glsl_140_and_450_compile() {
    let p140 = link(&[(Stage::Vertex, VS_140), (Stage::Fragment, FS_140)]).unwrap();
    assert_eq!(p140.reflection.attributes[0].name, "pos");
    assert_eq!(p140.reflection.samplers[0].name, "t");
    assert!(p140.reflection.default_uniform("k").is_some());

    let p450 = link(&[(Stage::Vertex, VS_450), (Stage::Fragment, FS_450)]).unwrap();
    // Explicit locations are kept; explicit bindings land at the base of their kind.
    assert_eq!(
        p450.reflection.attribute("pos").map(|a| a.location),
        Some(2)
    );
    let frame = p450.reflection.uniform_block("Frame").unwrap();
    assert_eq!(frame.binding, UNIFORM_BLOCK_BINDING_BASE + 1);
    let layers = p450.reflection.sampler("layers").unwrap();
    assert_eq!(layers.binding, SAMPLER_BINDING_BASE + 3);
    assert_eq!(layers.ty.dim, SamplerDim::D2Array);
    assert!(p450.reflection.default_uniform("light").is_some());
}

#[test]
fn geometry_programs_link_with_their_own_uniforms() {
    let program = link(&[
        (Stage::Vertex, "#version 330 core\nin vec2 p;\nout vec2 vUv;\nvoid main() { vUv = p; gl_Position = vec4(p, 0.0, 1.0); }\n"),
        (Stage::Geometry, GS_330),
        (Stage::Fragment, "#version 330 core\nin vec2 gUv;\nout vec4 c;\nvoid main() { c = vec4(gUv, 0.0, 1.0); }\n"),
    ])
    .unwrap();
    let stages: Vec<Stage> = program.stages.iter().map(|s| s.stage).collect();
    assert_eq!(stages, [Stage::Vertex, Stage::Geometry, Stage::Fragment]);
    let block = program.reflection.default_block.as_ref().unwrap();
    assert_eq!(block.stages, StageMask::of(Stage::Geometry));
    assert_eq!(block.members[0].name, "shrink");
}

/// (storage class, location) of each named interface variable of one SPIR-V module: a second,
/// independent reading of the module, to cross-check the compiler's own.
fn interface_locations(words: &[u32]) -> HashMap<String, (u32, u32)> {
    let (mut names, mut locations, mut storage) = (HashMap::new(), HashMap::new(), HashMap::new());
    let mut at = 5;
    while at < words.len() {
        let (count, opcode) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        let ops = &words[at + 1..at + count];
        match opcode {
            5 => {
                let bytes: Vec<u8> = ops[1..].iter().flat_map(|w| w.to_le_bytes()).collect();
                let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                names.insert(ops[0], String::from_utf8_lossy(&bytes[..end]).into_owned());
            }
            71 if ops[1] == 30 => {
                locations.insert(ops[0], ops[2]);
            }
            59 => {
                storage.insert(ops[1], ops[2]);
            }
            _ => {}
        }
        at += count;
    }
    storage
        .into_iter()
        .filter_map(|(id, class)| Some((names.get(&id)?.clone(), (class, *locations.get(&id)?))))
        .collect()
}

#[test]
fn varyings_get_one_location_by_name_across_stages() {
    // Declared in opposite orders: only matching by name gives both stages the same locations.
    let vs = "#version 330 core\nin vec4 p;\nout vec3 a;\nout vec2 b;\nout float c;\nvoid main() { a = p.xyz; b = p.xy; c = p.w; gl_Position = p; }\n";
    let fs = "#version 330 core\nin float c;\nin vec2 b;\nin vec3 a;\nout vec4 o;\nvoid main() { o = vec4(a, b.x + c); }\n";
    let program = link(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).unwrap();
    let (output, input) = (3, 1);
    let vs_io = interface_locations(&program.stage(Stage::Vertex).unwrap().spirv);
    let fs_io = interface_locations(&program.stage(Stage::Fragment).unwrap().spirv);
    let mut seen = Vec::new();
    for name in ["a", "b", "c"] {
        let (class, location) = vs_io[name];
        assert_eq!(class, output);
        assert_eq!(fs_io[name], (input, location), "varying {name}");
        seen.push(location);
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 3, "distinct locations");
}

#[test]
fn syntax_error_log_names_the_line() {
    let fs = "#version 330 core\nout vec4 c;\nvoid main() {\n    c = vec4(1.0)\n}\n";
    let err = link(&[(Stage::Vertex, VS_140), (Stage::Fragment, fs)]).unwrap_err();
    let CompileError::Compile { stage, unit, log } = &err else {
        panic!("expected a compile error, got {err:?}");
    };
    assert_eq!((*stage, *unit), (Stage::Fragment, 1));
    // glslang reports the token after the missing semicolon: line 5.
    assert!(log.contains("ERROR: 0:5:"), "{log}");
    assert!(log.contains("syntax error"), "{log}");
    assert!(!err.is_transient());
    assert_eq!(err.info_log(), *log);

    // glCompileShader sees the same log.
    let alone = compile_shader(Stage::Fragment, fs, CompileOptions::default()).unwrap_err();
    assert!(alone.info_log().contains("ERROR: 0:5:"));
    let undeclared = "#version 330 core\nout vec4 c;\nvoid main() {\n\n    c = vec4(nope);\n}\n";
    let err = compile_shader(Stage::Fragment, undeclared, CompileOptions::default()).unwrap_err();
    assert!(
        err.info_log()
            .contains("0:5: 'nope' : undeclared identifier"),
        "{err}"
    );
}

#[test]
fn compile_shader_alone_accepts_a_unit_without_its_partner() {
    assert_eq!(
        compile_shader(Stage::Vertex, VS_330, CompileOptions::default()),
        Ok(String::new())
    );
    let warns =
        "#version 140\nvarying vec2 v;\nout vec4 c;\nvoid main() { c = vec4(v, 0.0, 1.0); }\n";
    let log = compile_shader(Stage::Fragment, warns, CompileOptions::default()).unwrap();
    assert!(log.contains("WARNING: 0:2: varying deprecated"), "{log}");
}

fn link_log(stages: &[(Stage, &str)]) -> String {
    match link(stages) {
        Err(CompileError::Link { log }) => log,
        other => panic!("expected a link error, got {other:?}"),
    }
}

#[test]
fn link_errors_carry_the_program_log() {
    let no_main = "#version 330 core\nout vec2 vUv;\nvoid helper() {}\n";
    let log = link_log(&[(Stage::Vertex, no_main), (Stage::Fragment, FS_PLAIN_330)]);
    assert!(log.contains("Missing entry point"), "{log}");

    let reads_v =
        "#version 330 core\nin vec2 v;\nout vec4 c;\nvoid main() { c = vec4(v, 0.0, 1.0); }\n";
    let writes_nothing = "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n";
    let log = link_log(&[(Stage::Vertex, writes_nothing), (Stage::Fragment, reads_v)]);
    assert!(
        log.contains("no matching declaration for statically used input"),
        "{log}"
    );
    assert!(log.contains("vec2 v"), "{log}");

    let writes_vec3 =
        "#version 330 core\nout vec3 v;\nvoid main() { v = vec3(0.0); gl_Position = vec4(0.0); }\n";
    let log = link_log(&[(Stage::Vertex, writes_vec3), (Stage::Fragment, reads_v)]);
    assert!(log.contains("Types must match"), "{log}");

    let log = link_log(&[]);
    assert!(log.contains("no shaders"), "{log}");

    // Two explicit bindings of different kinds that meet on one descriptor binding.
    let collide = "#version 420 core\nlayout(binding = 96) uniform A { vec4 a; };\nlayout(binding = 0) uniform sampler2D t;\nvoid main() { gl_Position = a + texture(t, vec2(0.0)); }\n";
    let log = link_log(&[(Stage::Vertex, collide), (Stage::Fragment, FS_PLAIN_330)]);
    assert!(log.contains("share descriptor binding 96"), "{log}");

    // A declared but unread input is fine, as GL says.
    let declares_v = "#version 330 core\nin vec2 v;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    link(&[
        (Stage::Vertex, writes_nothing),
        (Stage::Fragment, declares_v),
    ])
    .unwrap();
}

#[test]
fn several_units_of_one_stage_link_together() {
    let main = "#version 330 core\nvec4 position();\nvoid main() { gl_Position = position(); }\n";
    let helper = "#version 330 core\nvec4 position() { return vec4(0.5); }\n";
    let program = link(&[
        (Stage::Vertex, main),
        (Stage::Vertex, helper),
        (Stage::Fragment, FS_PLAIN_330),
    ])
    .unwrap();
    assert_eq!(program.stages.len(), 2);
    assert_valid("two vertex units", &program, TargetEnv::Vulkan1_2);
}

fn assert_compile_error(label: &str, source: &str) -> String {
    match link(&[(Stage::Vertex, source), (Stage::Fragment, FS_PLAIN_330)]) {
        Err(err @ CompileError::Compile { .. }) => {
            assert!(!err.is_transient(), "{label}");
            err.info_log()
        }
        other => panic!("{label}: expected a compile error, got {other:?}"),
    }
}

#[test]
fn hostile_sources_are_errors_not_crashes() {
    let log = assert_compile_error("empty", "");
    assert!(log.contains("require version 140"), "{log}");

    let log = assert_compile_error("NUL bytes", "#version 330 core\nvoid main()\0 { }\n");
    assert!(log.contains("0:2: '' : NUL character"), "{log}");

    // Bracket-free, so that glslang itself (not the nesting guard) has to reject it.
    let alphabet = b"%$#@!;,.+-*/^~?:|&\\\"'\n\tab9_ ";
    let garbage: String = (0..1_000_000usize)
        .map(|i| char::from(alphabet[i * 7919 % alphabet.len()]))
        .collect();
    for source in [garbage.clone(), format!("#version 330 core\n{garbage}")] {
        let log = assert_compile_error("1 MB of garbage", &source);
        assert!(log.contains("ERROR: 0:"), "{log}");
        assert!(
            !log.contains("nested deeper") && !log.contains("operators"),
            "{log}"
        );
    }

    // Nesting glslang would recurse on, and the same depth just under the guard.
    let deep = |n: usize| {
        format!(
            "#version 330 core\nvoid main() {{ float x = {}1.0{}; gl_Position = vec4(x); }}\n",
            "(".repeat(n),
            ")".repeat(n)
        )
    };
    let log = assert_compile_error("100 000 parentheses", &deep(100_000));
    assert!(log.contains("nested deeper than"), "{log}");
    link(&[
        (Stage::Vertex, &deep(MAX_NESTING - 2)),
        (Stage::Fragment, FS_PLAIN_330),
    ])
    .unwrap();
    assert_compile_error("unbalanced parentheses", &"(".repeat(10_000));
    assert_compile_error(
        "#if nesting",
        &format!("#version 330 core\n#if {}1\n#endif\n", "(".repeat(5000)),
    );

    // A left-associative chain: 300 000 levels overflow even a 64 MiB stack without the guard.
    let chain = format!(
        "#version 330 core\nuniform float u;\nvoid main() {{ gl_Position = vec4(u{}); }}\n",
        "+u".repeat(300_000)
    );
    let log = assert_compile_error("operator chain", &chain);
    assert!(log.contains("operators"), "{log}");
    // The same chain built by macros is caught on the preprocessed text.
    let macros = "#version 330 core\n#define A(x) x+x+x+x+x+x+x+x\n#define B(x) A(A(A(x)))\n#define C(x) B(B(x))\nuniform float u;\nvoid main() { gl_Position = vec4(C(u)); }\n";
    let log = assert_compile_error("macro-expanded chain", macros);
    assert!(log.contains("operators"), "{log}");

    // Right-recursive input under the guard's limit is bounded by glslang's own parser stack
    // (10 000 states), which reports it as a compile error.
    let unary = format!(
        "#version 330 core\nuniform float u;\nvoid main() {{ gl_Position = vec4({}u); }}\n",
        "-".repeat(20_000)
    );
    let log = assert_compile_error("unary chain", &unary);
    assert!(log.contains("memory exhausted"), "{log}");

    // `#include` never reads the disk.
    let include = "#version 330 core\n#extension GL_GOOGLE_include_directive : enable\n#include \"/etc/passwd\"\nvoid main() { gl_Position = vec4(0.0); }\n";
    let log = assert_compile_error("#include", include);
    assert!(log.contains("Could not process include directive"), "{log}");

    // A short source with an enormous array of structs: a link error, not a million-entry
    // reflection.
    let wide = "#version 330 core\nstruct S { vec4 a; vec4 b; };\nuniform S s[40000];\nvoid main() { gl_Position = s[7].a + s[39999].b; }\n";
    let log = link_log(&[(Stage::Vertex, wide), (Stage::Fragment, FS_PLAIN_330)]);
    assert!(log.contains("active uniforms"), "{log}");

    let huge = " ".repeat(arenagl_translate::glsl::MAX_SOURCE_BYTES + 1);
    let log = assert_compile_error("huge", &huge);
    assert!(log.contains("bytes, more than"), "{log}");
}

#[test]
fn legacy_glsl_is_refused_until_upgraded() {
    let log = assert_compile_error(
        "1.20",
        "#version 120\nvoid main() { gl_Position = vec4(0.0); }\n",
    );
    assert!(log.contains("require version 140 or higher"), "{log}");
    let log = assert_compile_error("no #version", "void main() { gl_Position = vec4(0.0); }\n");
    assert!(log.contains("require version 140 or higher"), "{log}");
}

const VS_BODY: &str = "void main() { gl_Position = vec4(0.0); }\n";

#[test]
fn version_directives_naming_no_glsl_version_are_refused() {
    for (directive, expected) in [
        ("#version -1", "'-1' is not a version number"),
        ("#version -330", "'-330' is not a version number"),
        (
            "#version 4294967297",
            "version number 4294967297 is out of range",
        ),
        ("#version 4294967626 core", "out of range"),
        ("#version 0x14A", "'0x14A' is not a version number"),
        ("#version 0330", "'0330' is not a version number"),
        ("#version", "must be followed by a version number"),
        ("#version 331", "331 is not a GLSL version"),
    ] {
        let log = assert_compile_error(directive, &format!("{directive}\n{VS_BODY}"));
        assert!(
            log.starts_with("ERROR: 0:1: '#version' : ") && log.contains(expected),
            "{directive}: {log}"
        );
    }
    // On a later line, after comments, the error names that line.
    let log = assert_compile_error(
        "commented",
        &format!("// a\n/* b\n*/ #version -1\n{VS_BODY}"),
    );
    assert!(log.starts_with("ERROR: 0:3: '#version' : "), "{log}");
    // glslang's own messages for what follows a valid number.
    for bad in ["#version 330 banana", "#version 330 core core"] {
        let log = assert_compile_error(bad, &format!("{bad}\n{VS_BODY}"));
        assert!(log.contains("'#version'"), "{bad}: {log}");
    }
    // The compiler's own API keeps every version glslang knows (the GL layer narrows it).
    compile_shader(
        Stage::Vertex,
        &format!("#version 460 core\n{VS_BODY}"),
        CompileOptions::default(),
    )
    .unwrap();
}

/// Compiles `source` the way `glCompileShader` does: through the legacy upgrader first.
fn gl_compile(stage: Stage, source: &str) -> Result<String, CompileError> {
    let upgraded = arenagl_translate::glsl::legacy::upgrade(stage, source, Default::default());
    compile_shader(stage, &upgraded.source, CompileOptions::default())
}

#[test]
fn the_gl_layer_refuses_versions_its_context_does_not_offer() {
    let fs = "out vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    let legacy_fs = "void main() { gl_FragColor = vec4(1.0); }\n";
    // Desktop versions above the context's are refused by the program layer, which knows the
    // context's ceiling (`glsl::version::mark_above`; `tests/gl_glsl4x.rs`,
    // `tests/gl_shader_guards.rs`); what no desktop context offers is refused here.
    for (directive, expected) in [
        ("#version 300 es", "GLSL 3.00 ES is not supported"),
        // Never upgraded as if they said 1.10.
        ("#version -1", "'-1' is not a version number"),
        ("#version 4294967297", "out of range"),
        ("#version abc", "'abc' is not a version number"),
    ] {
        let err = gl_compile(Stage::Fragment, &format!("{directive}\n{fs}")).unwrap_err();
        let log = err.info_log();
        assert!(
            log.starts_with("ERROR: 0:1: '#version' : ") && log.contains(expected),
            "{directive}: {log}"
        );
        let legacy = legacy_needs(&format!("{directive}\n{legacy_fs}"));
        assert!(!legacy, "{directive} is not upgraded");
    }
    for (directive, body) in [
        ("#version 330 core", fs),
        ("#version 330 compatibility", fs),
        ("#version 150", fs),
        ("#version 140", fs),
        ("#version 130", legacy_fs),
        ("#version 120", legacy_fs),
        ("#version 110", legacy_fs),
        ("#version 100", legacy_fs),
        ("  #  version   330", fs),
        ("", legacy_fs),
    ] {
        let source = format!("{directive}\n{body}");
        if let Err(e) = gl_compile(Stage::Fragment, &source) {
            panic!("{directive}: {}", e.info_log());
        }
    }
    gl_compile(Stage::Vertex, &format!("#version 310 es\n{VS_BODY}")).unwrap();
}

fn legacy_needs(source: &str) -> bool {
    arenagl_translate::glsl::legacy::needs_upgrade(source)
}

/// A compile error for `source` that arrives promptly (a hang guard, not a performance bound).
fn assert_prompt_compile_error(label: &str, source: &str) -> String {
    let start = std::time::Instant::now();
    let result = compile_shader(Stage::Vertex, source, CompileOptions::default());
    let took = start.elapsed();
    assert!(
        took < std::time::Duration::from_secs(10),
        "{label}: took {took:?}"
    );
    match result {
        Err(err @ CompileError::Compile { .. }) => err.info_log(),
        other => panic!("{label}: expected a compile error, got {other:?}"),
    }
}

/// `#define A0 {a0}`, `#define A1 A0 A0`, … up to `A{levels}`.
fn doubling_macros(a0: &str, levels: usize) -> String {
    let mut s = format!("#version 330 core\n#define A0 {a0}\n");
    for i in 1..=levels {
        s.push_str(&format!("#define A{i} A{0} A{0}\n", i - 1));
    }
    s
}

#[test]
fn macro_bombs_are_refused_before_preprocessing() {
    let main = "void main() { gl_Position = vec4(0.0); }\n";
    let bombs = doubling_macros("x", 30);
    let log = assert_prompt_compile_error(
        "doubling object-like macros",
        &format!("{bombs}float f() {{ return A30; }}\n{main}"),
    );
    assert!(
        log.starts_with("ERROR: 0:33: 'macro expansion' : expanding 'A30' may produce more than"),
        "{log}"
    );
    let mut nested = "1.0".to_owned();
    for _ in 0..30 {
        nested = format!("D({nested})");
    }
    let mut chain = "#version 330 core\n#define F0(x) x x\n".to_owned();
    for i in 1..=5 {
        chain.push_str(&format!("#define F{i}(x) F{0}(F{0}(x))\n", i - 1));
    }
    let empty = doubling_macros("", 40);
    for (label, source) in [
        (
            "a doubling function-like macro, nested",
            format!("#version 330 core\n#define D(v) v, v\nfloat x[] = float[]({nested});\n{main}"),
        ),
        (
            "doubling function-like macros, chained",
            format!("{chain}float y = F5(1.0);\n{main}"),
        ),
        ("macros expanding to nothing", format!("{empty}A40\n{main}")),
        (
            "an argument a macro drops",
            format!("{empty}#define E(x)\nE(A40)\n{main}"),
        ),
        ("a bomb in #if", format!("{bombs}#if A30\n#endif\n{main}")),
        (
            "a bomb in a macro argument",
            format!("{bombs}#define ID(x) x\nfloat z = ID(A30);\n{main}"),
        ),
    ] {
        let log = assert_prompt_compile_error(label, &source);
        assert!(log.contains("'macro expansion' : "), "{label}: {log}");
    }
    // Defined but never used, or only tested with `defined`: harmless.
    let unused = format!("{bombs}#if defined(A30)\n#endif\n#ifdef A30\n#endif\n{main}");
    compile_shader(Stage::Vertex, &unused, CompileOptions::default()).unwrap();
}

#[test]
fn ordinary_macros_compile() {
    // 2^12 terms of a valid expression: large, but far below the limits.
    let mut terms = "#version 330 core\n#define A0 1.0\n".to_owned();
    for i in 1..=12 {
        terms.push_str(&format!("#define A{i} (A{0} + A{0})\n", i - 1));
    }
    terms.push_str("void main() { gl_Position = vec4(A12); }\n");
    compile_shader(Stage::Vertex, &terms, CompileOptions::default()).unwrap();
    let fs = "#version 330 core\n\
              #define PI 3.14159265\n\
              #define SAT(x) clamp((x), 0.0, 1.0)\n\
              #define MIX3(a, b, d, t) mix(mix(a, b, t), d, t)\n\
              #define REP4(s) s s s s\n\
              #define REP16(s) REP4(REP4(s))\n\
              #define APPLY(f, v) f(v)\n\
              #define TWICE(f, v) f(f(v))\n\
              #define CAT(a, b) a ## b\n\
              #define W W\n\
              out vec4 c;\n\
              void main() {\n\
                  float s = 0.0, W = 1.0;\n\
                  REP16(s += SAT(PI * 0.01);)\n\
                  float CAT(t, 2) = TWICE(SAT, s) + SAT(SAT(SAT(SAT(SAT(SAT(SAT(SAT(s))))))));\n\
                  c = vec4(MIX3(SAT(s), APPLY(SAT, s * 2.0), t2, 0.5)) + W;\n\
              }\n";
    let log = compile_shader(Stage::Fragment, fs, CompileOptions::default()).unwrap();
    assert!(!log.contains("ERROR"), "{log}");
}

#[test]
fn compiles_concurrently_on_many_threads() {
    let expected = link(&[(Stage::Vertex, VS_330), (Stage::Fragment, FS_330)]).unwrap();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                scope.spawn(|| {
                    for _ in 0..4 {
                        let program =
                            link(&[(Stage::Vertex, VS_330), (Stage::Fragment, FS_330)]).unwrap();
                        assert_eq!(program, expected);
                    }
                })
            })
            .collect();
        for handle in handles {
            handle.join().unwrap();
        }
    });
}

/// Every rectangle-sampler function, through a helper that takes the sampler as a parameter and
/// beside a plain `sampler2D` (whose image type the lowered rectangle type merges with).
const FS_RECT_330: &str = r#"#version 330 core
in vec2 tc;
out vec4 o;
uniform sampler2DRect r;
uniform sampler2DRectShadow rs;
uniform isampler2DRect ri;
uniform usampler2DRect ru;
uniform sampler2D plain;
vec4 through(sampler2DRect s, vec2 p) { return texture(s, p); }
void main() {
    o = texture(r, tc) + textureProj(r, vec3(tc, 2.0)) + textureProj(r, vec4(tc, 0.0, 2.0))
        + textureOffset(r, tc, ivec2(1, 0)) + through(r, tc);
    o += vec4(texture(rs, vec3(tc, 0.5))) + vec4(textureProj(rs, vec4(tc, 0.5, 2.0)));
    o += vec4(texelFetch(ri, ivec2(tc))) + vec4(texelFetch(ru, ivec2(tc)))
        + vec4(textureSize(r), textureSize(rs)) + texelFetch(r, ivec2(1, 1));
    o += textureGrad(r, tc, vec2(1.0), vec2(1.0)) + texture(plain, tc);
}
"#;

#[test]
fn rectangle_samplers_lower_to_valid_2d_spirv() {
    let vs = "#version 330 core\nin vec2 p;\nout vec2 tc;\nvoid main() { tc = p; gl_Position = vec4(p, 0.0, 1.0); }\n";
    for target in [TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_1] {
        let program = compile_program(
            &[(Stage::Vertex, vs), (Stage::Fragment, FS_RECT_330)],
            CompileOptions {
                target,
                ..Default::default()
            },
        )
        .unwrap();
        // spirv-val refuses the SampledRect capability glslang declares for Dim Rect images.
        assert_valid("rectangle samplers", &program, target);
        // The GL layer still sees rectangle samplers (it binds the units' rectangle textures).
        for (name, kind, shadow) in [
            ("r", SampledKind::Float, false),
            ("rs", SampledKind::Float, true),
            ("ri", SampledKind::Int, false),
            ("ru", SampledKind::UInt, false),
        ] {
            let s = program.reflection.sampler(name).unwrap();
            assert_eq!(
                (s.ty.dim, s.ty.kind, s.ty.shadow),
                (SamplerDim::Rect, kind, shadow)
            );
        }
    }
}

#[test]
fn compute_programs_reflect_their_local_size_storage_blocks_and_atomic_counters() {
    let cs = "#version 330\n#extension GL_ARB_compute_shader : require\n\
              #extension GL_ARB_shader_storage_buffer_object : require\n\
              #extension GL_ARB_shader_atomic_counters : require\n\
              layout(local_size_x = 8, local_size_y = 2) in;\n\
              layout(std430, binding = 3) buffer Data { uvec2 head; uint tail[]; };\n\
              layout(binding = 1) uniform atomic_uint hits;\n\
              void main() { tail[gl_LocalInvocationIndex] = head.x; atomicCounterIncrement(hits); }\n";
    let program = compile_program(&[(Stage::Compute, cs)], CompileOptions::default())
        .expect("compute program links");
    let r = &program.reflection;
    assert_eq!(r.local_size, Some([8, 2, 1]));
    let names: Vec<&str> = r.storage_blocks.iter().map(|b| b.name.as_str()).collect();
    assert!(
        names.contains(&"Data") && names.contains(&"gl_AtomicCounterBlock_1"),
        "{names:?}"
    );
    let data = r
        .storage_blocks
        .iter()
        .find(|b| b.name == "Data")
        .expect("Data");
    assert_eq!(data.binding, STORAGE_BLOCK_BINDING_BASE + 3);
    assert_eq!(data.size, 8, "the unsized array counts no element");
    assert!(data.stages.contains(Stage::Compute));
}
