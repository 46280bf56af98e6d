//! 64-bit types (GL_ARB_gpu_shader_fp64, GL_ARB_vertex_attrib_64bit, GL_ARB_gpu_shader_int64)
//! through the GLSL compiler: they compile, and reflect with GL's types and layouts.

use arenagl_translate::glsl::{compile_program, CompileOptions, GlType, Program, Stage, TargetEnv};

const VS: &str = r#"#version 150
#extension GL_ARB_gpu_shader_fp64 : require
#extension GL_ARB_vertex_attrib_64bit : require
in dvec3 a;
in dvec4 b;
in dmat3 m;
in vec4 piglit_vertex;
uniform double d;
uniform dvec3 dv3;
uniform dmat4x3 dm;
uniform float f;
flat out dvec3 o;
flat out double o2;
void main() { gl_Position = piglit_vertex + vec4(a.x + b.y + m[2].z + d + dv3.x + dm[3].y + f); o = a; o2 = d; }
"#;
const FS: &str = r#"#version 150
#extension GL_ARB_gpu_shader_fp64 : require
flat in dvec3 o;
flat in double o2;
out vec4 c;
void main() { c = vec4(o.x + o2); }
"#;

fn link(vs: &str, fs: &str) -> Program {
    compile_program(
        &[(Stage::Vertex, vs), (Stage::Fragment, fs)],
        CompileOptions::default(),
    )
    .expect("links")
}

#[test]
fn doubles_reflect_with_gl_types_and_std140_offsets() {
    let p = link(VS, FS);
    let r = &p.reflection;
    let attribs: Vec<(&str, u32, GlType)> = r
        .attributes
        .iter()
        .map(|a| (a.name.as_str(), a.location, a.ty))
        .collect();
    // GLSL locations: one per vector, wide ones included.
    assert_eq!(
        attribs,
        [
            ("a", 0, GlType::DVec3),
            ("b", 1, GlType::DVec4),
            ("m", 2, GlType::DMat3),
            ("piglit_vertex", 5, GlType::Vec4)
        ]
    );
    let members: Vec<(&str, GlType, u32, u32)> = r
        .default_block
        .as_ref()
        .expect("default block")
        .members
        .iter()
        .map(|m| (m.name.as_str(), m.ty, m.offset, m.matrix_stride))
        .collect();
    assert_eq!(
        members,
        [
            ("d", GlType::Double, 0, 0),
            ("dv3", GlType::DVec3, 32, 0),
            ("dm", GlType::DMat4x3, 64, 32),
            ("f", GlType::Float, 192, 0)
        ]
    );
}

#[test]
fn wide_vertex_inputs_are_stretched_to_two_vulkan_locations() {
    let mut p = link(VS, FS);
    let stretch = p.lower_double_vertex_inputs().expect("stretches");
    // a: 0 (two), b: 2 (two), m: 4 (three columns of two), piglit_vertex: 10.
    let vulkan: Vec<u32> = [0, 1, 2, 5].map(|l| stretch.location(l)).to_vec();
    assert_eq!(vulkan, [0, 2, 4, 10]);
    // Without wide inputs nothing moves.
    let mut plain = link(
        "#version 150\nin vec4 v;\nin vec2 w;\nvoid main() { gl_Position = v + w.xyxy; }\n",
        "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    let before = plain.stages[0].spirv.clone();
    let stretch = plain.lower_double_vertex_inputs().expect("stretches");
    assert_eq!(stretch.location(1), 1);
    assert_eq!(plain.stages[0].spirv, before);
}

#[test]
fn int64_types_compile_in_glsl_400_and_reflect() {
    let fs = "#version 400
#extension GL_ARB_gpu_shader_int64 : require
uniform int64_t i;
uniform u64vec3 u;
out vec4 c;
void main() { c = vec4(float(i) + float(u.z)); }
";
    let p = link(
        "#version 150\nin vec4 v;\nvoid main() { gl_Position = v; }\n",
        fs,
    );
    let members: Vec<(&str, GlType, u32)> = p
        .reflection
        .default_block
        .as_ref()
        .expect("default block")
        .members
        .iter()
        .map(|m| (m.name.as_str(), m.ty, m.offset))
        .collect();
    assert_eq!(
        members,
        [("i", GlType::Int64, 0), ("u", GlType::U64Vec3, 32)]
    );
}

/// `spirv-val` on `words` for `target`: `None` when the binary is missing.
fn spirv_val(words: &[u32], target: TargetEnv) -> Option<Result<(), String>> {
    let path = std::env::temp_dir().join(format!("arenagl-fp64-{}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).ok()?;
    let output = std::process::Command::new("spirv-val")
        .args(["--target-env", target.spirv_val_name()])
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    let out = output.ok()?;
    Some(if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr))
    })
}

/// The lowered vertex module (double inputs read through `uvec`s) is valid SPIR-V for both
/// targets: before SPIR-V 1.4 the demoted `Private` inputs leave the entry point's interface.
#[test]
fn lowered_double_inputs_pass_spirv_val() {
    for target in [TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_2] {
        let mut p = compile_program(
            &[(Stage::Vertex, VS), (Stage::Fragment, FS)],
            CompileOptions {
                target,
                ..Default::default()
            },
        )
        .expect("links");
        p.lower_double_vertex_inputs().expect("lowers");
        let vertex = &p.stages[0].spirv;
        match spirv_val(vertex, target) {
            None => eprintln!("spirv-val missing: skipped"),
            Some(r) => r.unwrap_or_else(|e| panic!("{target:?}: {e}")),
        }
    }
}
