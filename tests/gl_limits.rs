//! GL 4.0's shader-resource minimums through the C ABI on a 3.3 core context: what `glGet`
//! answers (80 combined texture units, 60 combined uniform blocks, 16 units and 12 blocks per
//! stage), and that a program really gets them: one program whose five stages each read 16
//! textures on distinct units and 12 uniform blocks on distinct binding points (80 units and 60
//! blocks in all) and report, through their varyings, whether every value was the one bound
//! there. Pixels are read back; the validation layer must stay silent.

use std::ffi::{c_char, c_void, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_GEOMETRY_SHADER: u32 = 0x8DD9;
const GL_TESS_EVALUATION_SHADER: u32 = 0x8E87;
const GL_TESS_CONTROL_SHADER: u32 = 0x8E88;
const GL_LINK_STATUS: u32 = 0x8B82;
const GL_PATCHES: u32 = 0xE;
const GL_PATCH_VERTICES: u32 = 0x8E72;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE0: u32 = 0x84C0;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_NEAREST: i32 = 0x2600;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: i32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_UNIFORM_BUFFER: u32 = 0x8A11;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_MAX_TEXTURE_IMAGE_UNITS: u32 = 0x8872;
const GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS: u32 = 0x8B4C;
const GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS: u32 = 0x8C29;
const GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS: u32 = 0x8E81;
const GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS: u32 = 0x8E82;
const GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS: u32 = 0x8B4D;
const GL_MAX_VERTEX_UNIFORM_BLOCKS: u32 = 0x8A2B;
const GL_MAX_GEOMETRY_UNIFORM_BLOCKS: u32 = 0x8A2C;
const GL_MAX_FRAGMENT_UNIFORM_BLOCKS: u32 = 0x8A2D;
const GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS: u32 = 0x8E89;
const GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS: u32 = 0x8E8A;
const GL_MAX_COMBINED_UNIFORM_BLOCKS: u32 = 0x8A2E;
const GL_MAX_UNIFORM_BUFFER_BINDINGS: u32 = 0x8A2F;

/// Texture units and uniform blocks each stage reads.
const UNITS: usize = 16;
const BLOCKS: usize = 12;
/// The five stages: (shader type, the prefix of its names).
const STAGES: [(u32, &str); 5] = [
    (GL_VERTEX_SHADER, "v"),
    (GL_TESS_CONTROL_SHADER, "c"),
    (GL_TESS_EVALUATION_SHADER, "e"),
    (GL_GEOMETRY_SHADER, "g"),
    (GL_FRAGMENT_SHADER, "f"),
];

fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: single-valued pnames only.
    unsafe { get(pname, &mut v) };
    v
}

#[test]
fn the_limits_reach_gl_4_0s_minimums() {
    let _ctx = gl_harness::context();
    for pname in [
        GL_MAX_TEXTURE_IMAGE_UNITS,
        GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS,
        GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS,
        GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS,
        GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS,
    ] {
        assert!(integer(pname) >= 16, "0x{pname:04X}");
    }
    for pname in [
        GL_MAX_VERTEX_UNIFORM_BLOCKS,
        GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS,
        GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS,
        GL_MAX_GEOMETRY_UNIFORM_BLOCKS,
        GL_MAX_FRAGMENT_UNIFORM_BLOCKS,
    ] {
        assert!(integer(pname) >= 12, "0x{pname:04X}");
    }
    assert!(integer(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS) >= 80);
    assert!(integer(GL_MAX_COMBINED_UNIFORM_BLOCKS) >= 60);
    assert!(integer(GL_MAX_UNIFORM_BUFFER_BINDINGS) >= 60);
    expect(GL_NO_ERROR);
}

/// GLSL that multiplies `ok` by whether each of stage `prefix`'s textures holds red
/// `base_unit + i + 1` (of 255) and each of its blocks `base_binding + i + 1`.
fn checks(prefix: &str, base_unit: usize, base_binding: usize) -> String {
    let mut s = String::from("    float ok = 1.0;\n");
    for i in 0..UNITS {
        let want = base_unit + i + 1;
        s += &format!(
            "    ok *= float(abs(texelFetch({prefix}t[{i}], ivec2(0), 0).r * 255.0 - {want}.0) < 0.5);\n"
        );
    }
    for i in 0..BLOCKS {
        let want = base_binding + i + 1;
        s += &format!("    ok *= float(abs({prefix}b[{i}].v.x - {want}.0) < 0.5);\n");
    }
    s
}

/// The declarations of stage `prefix`'s textures and blocks.
fn resources(prefix: &str) -> String {
    let block = prefix.to_uppercase();
    format!("uniform sampler2D {prefix}t[{UNITS}];\nuniform {block}B {{ vec4 v; }} {prefix}b[{BLOCKS}];\n")
}

/// The five stages' sources, stage `k` reading units `16k…` and bindings `12k…`.
fn sources() -> Vec<(u32, String)> {
    let body = |k: usize| checks(STAGES[k].1, k * UNITS, k * BLOCKS);
    let vs = format!(
        "#version 330\n{}out float vOk;\nvoid main() {{\n{}    vOk = ok;\n    \
         vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    \
         gl_Position = vec4(p, 0.0, 1.0);\n}}\n",
        resources("v"),
        body(0)
    );
    let tcs = format!(
        "#version 330\n#extension GL_ARB_tessellation_shader : require\nlayout(vertices = 3) out;\n{}\
         in float vOk[];\nout float cOk[];\nvoid main() {{\n{}    \
         cOk[gl_InvocationID] = ok * vOk[gl_InvocationID];\n    \
         gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n    \
         gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);\n    \
         gl_TessLevelInner = float[2](1.0, 1.0);\n}}\n",
        resources("c"),
        body(1)
    );
    let tes = format!(
        "#version 330\n#extension GL_ARB_tessellation_shader : require\nlayout(triangles) in;\n{}\
         in float cOk[];\nout float eOk;\nvoid main() {{\n{}    \
         eOk = ok * min(cOk[0], min(cOk[1], cOk[2]));\n    \
         gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position \
         + gl_TessCoord.z * gl_in[2].gl_Position;\n}}\n",
        resources("e"),
        body(2)
    );
    let gs = format!(
        "#version 330\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\n{}\
         in float eOk[];\nflat out float gOk;\nvoid main() {{\n{}    \
         for (int i = 0; i < 3; i++) {{\n        gOk = ok * eOk[i];\n        \
         gl_Position = gl_in[i].gl_Position;\n        EmitVertex();\n    }}\n}}\n",
        resources("g"),
        body(3)
    );
    let fs = format!(
        "#version 330\n{}flat in float gOk;\nout vec4 color;\nvoid main() {{\n{}    \
         color = ok * gOk > 0.5 ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}}\n",
        resources("f"),
        body(4)
    );
    vec![
        (GL_VERTEX_SHADER, vs),
        (GL_TESS_CONTROL_SHADER, tcs),
        (GL_TESS_EVALUATION_SHADER, tes),
        (GL_GEOMETRY_SHADER, gs),
        (GL_FRAGMENT_SHADER, fs),
    ]
}

/// Compiles and links `units` (asserting both, with the logs).
fn link(units: &[(u32, String)]) -> u32 {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let log = gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    // SAFETY: NUL-terminated sources, lengths NULL; the out-pointers are locals of their size.
    unsafe {
        let p = create_program();
        for (ty, src) in units {
            let s = create(*ty);
            let c = CString::new(src.as_str()).expect("no NUL");
            let ptr = c.as_ptr();
            source(s, 1, &ptr, null());
            compile(s);
            attach(p, s);
        }
        link(p);
        let mut ok = 0;
        get(p, GL_LINK_STATUS, &mut ok);
        let mut text = vec![0 as c_char; 4096];
        log(
            p,
            text.len() as i32,
            null::<i32>().cast_mut(),
            text.as_mut_ptr(),
        );
        let text = std::ffi::CStr::from_ptr(text.as_ptr()).to_string_lossy();
        assert_eq!(ok, 1, "link: {text}");
        p
    }
}

/// Binds texture unit `unit` to a 1×1 texture of red `unit + 1`.
fn texture_on_unit(unit: u32) {
    let active = gl!(c"glActiveTexture": fn(u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let texel = [unit as u8 + 1, 0, 0, 255];
    // SAFETY: one RGBA8 texel.
    unsafe {
        active(GL_TEXTURE0 + unit);
        gl_harness::new_texture(GL_TEXTURE_2D);
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            1,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texel.as_ptr().cast(),
        );
        parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    }
}

/// Points stage `prefix`'s samplers at units `base…` and its blocks at bindings `base_binding…`.
fn assign(p: u32, prefix: &str, base: usize, base_binding: usize) {
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform1iv = gl!(c"glUniform1iv": fn(i32, i32, *const i32));
    let block_index = gl!(c"glGetUniformBlockIndex": fn(u32, *const c_char) -> u32);
    let block_binding = gl!(c"glUniformBlockBinding": fn(u32, u32, u32));
    let units: Vec<i32> = (0..UNITS).map(|i| (base + i) as i32).collect();
    let name = CString::new(format!("{prefix}t")).expect("no NUL");
    // SAFETY: a linked, current program; NUL-terminated names; UNITS ints.
    unsafe {
        let at = location(p, name.as_ptr());
        assert!(at >= 0, "{prefix}t");
        uniform1iv(at, UNITS as i32, units.as_ptr());
        for i in 0..BLOCKS {
            let block = CString::new(format!("{}B[{i}]", prefix.to_uppercase())).expect("no NUL");
            let index = block_index(p, block.as_ptr());
            assert_ne!(index, u32::MAX, "{block:?}");
            block_binding(p, index, (base_binding + i) as u32);
        }
    }
}

/// Binds uniform-buffer binding point `binding` to a buffer holding vec4(`binding + 1`).
fn block_on_binding(binding: u32) {
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let v = [binding as f32 + 1.0; 4];
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_ne_bytes()).collect();
    let b = gl_harness::buffer_with(GL_UNIFORM_BUFFER, &bytes);
    // SAFETY: a live buffer name.
    unsafe { bind_base(GL_UNIFORM_BUFFER, binding, b) };
}

#[test]
fn eighty_units_and_sixty_blocks_across_five_stages_read_what_is_bound() {
    let _ctx = gl_harness::context();
    let p = link(&sources());
    let use_program = gl!(c"glUseProgram": fn(u32));
    // SAFETY: a linked program.
    unsafe { use_program(p) };
    for (k, (_, prefix)) in STAGES.iter().enumerate() {
        assign(p, prefix, k * UNITS, k * BLOCKS);
    }
    for unit in 0..(STAGES.len() * UNITS) as u32 {
        texture_on_unit(unit);
    }
    for binding in 0..(STAGES.len() * BLOCKS) as u32 {
        block_on_binding(binding);
    }
    expect(GL_NO_ERROR);
    let gen = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind = gl!(c"glBindVertexArray": fn(u32));
    let patch = gl!(c"glPatchParameteri": fn(u32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: one name out; plain values.
    unsafe {
        gen(1, &mut vao);
        bind(vao);
        patch(GL_PATCH_VERTICES, 3);
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw(GL_PATCHES, 0, 3);
    }
    expect(GL_NO_ERROR);
    let px = gl_harness::read_rgba(0, 0, 32, 32);
    for (i, rgba) in px.chunks(4).enumerate() {
        assert_eq!(rgba, [0, 255, 0, 255], "pixel {i}: red means a wrong value");
    }
}
