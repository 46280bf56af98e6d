//! GL_ARB_tessellation_shader through the C ABI on a 3.3 core context: patches drawn through
//! control and evaluation shaders (the triangle and quad domains, GL's winding under face
//! culling, uniforms read in the new stages), `glPatchParameter*` and its errors, the draw-mode
//! rules, the tessellation queries of `glGet*` and `glGetProgramiv`, and the linking rules.
//! Pixels are read back; the validation layer must stay silent.

use std::ffi::{c_char, c_void, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_TRIANGLES: u32 = 4;
const GL_QUADS: u32 = 7;
const GL_PATCHES: u32 = 0xE;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_CULL_FACE: u32 = 0x0B44;
const GL_CW: u32 = 0x0900;
const GL_CCW: u32 = 0x0901;
const GL_EQUAL: u32 = 0x0202;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_TESS_EVALUATION_SHADER: u32 = 0x8E87;
const GL_TESS_CONTROL_SHADER: u32 = 0x8E88;
const GL_SHADER_TYPE: u32 = 0x8B4F;
const GL_LINK_STATUS: u32 = 0x8B82;
const GL_PATCH_VERTICES: u32 = 0x8E72;
const GL_PATCH_DEFAULT_INNER_LEVEL: u32 = 0x8E73;
const GL_PATCH_DEFAULT_OUTER_LEVEL: u32 = 0x8E74;
const GL_TESS_CONTROL_OUTPUT_VERTICES: u32 = 0x8E75;
const GL_TESS_GEN_MODE: u32 = 0x8E76;
const GL_TESS_GEN_SPACING: u32 = 0x8E77;
const GL_TESS_GEN_VERTEX_ORDER: u32 = 0x8E78;
const GL_TESS_GEN_POINT_MODE: u32 = 0x8E79;
const GL_FRACTIONAL_ODD: u32 = 0x8E7B;
const GL_MAX_PATCH_VERTICES: u32 = 0x8E7D;
const GL_MAX_TESS_GEN_LEVEL: u32 = 0x8E7E;

const VS: &str = "#version 150
uniform vec2 corners[4];
void main() { gl_Position = vec4(corners[gl_VertexID], 0.0, 1.0); }
";

/// A control stage of `n` output vertices passing positions through, at level `level`.
fn tcs(n: u32) -> String {
    format!(
        "#version 150
#extension GL_ARB_tessellation_shader : require
layout(vertices = {n}) out;
uniform float level;
patch out vec4 patchColor;
void main() {{
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter = float[4](level, level, level, level);
    gl_TessLevelInner = float[2](level, level);
    patchColor = vec4(0.0, 1.0, 0.0, 1.0);
}}
"
    )
}

/// An evaluation stage of `layout`: triangles interpolate barycentrically, quads bilinearly
/// (corners in `corners` order: lower left, lower right, upper right, upper left).
fn tes(layout: &str) -> String {
    let position = if layout.starts_with("quads") {
        "mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x),
             mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x), gl_TessCoord.y)"
    } else {
        "gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
         + gl_TessCoord.z * gl_in[2].gl_Position"
    };
    format!(
        "#version 150
#extension GL_ARB_tessellation_shader : require
layout({layout}) in;
patch in vec4 patchColor;
out vec4 color;
uniform vec4 tint;
void main() {{
    gl_Position = {position};
    color = patchColor + tint;
}}
"
    )
}

const FS: &str = "#version 150
in vec4 color;
out vec4 fragColor;
void main() { fragColor = color; }
";

/// Compiles and links the given stages: the program and whether it linked.
fn try_program(units: &[(u32, &str)]) -> (u32, bool) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let get_shader = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    // SAFETY: NUL-terminated sources, lengths NULL; the out-pointers are locals.
    unsafe {
        let p = create_program();
        for &(ty, src) in units {
            let s = create(ty);
            let mut shader_type = 0;
            get_shader(s, GL_SHADER_TYPE, &mut shader_type);
            assert_eq!(shader_type as u32, ty, "GL_SHADER_TYPE");
            let c = CString::new(src).expect("no NUL");
            let ptr = c.as_ptr();
            source(s, 1, &ptr, null());
            compile(s);
            attach(p, s);
        }
        link(p);
        let mut ok = 0;
        get(p, GL_LINK_STATUS, &mut ok);
        (p, ok == 1)
    }
}

/// A linked program of the given stages, current, with the corners of the whole viewport.
fn use_program(units: &[(u32, &str)]) -> u32 {
    let (p, linked) = try_program(units);
    assert!(linked, "link");
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform2fv = gl!(c"glUniform2fv": fn(i32, i32, *const f32));
    let uniform1f = gl!(c"glUniform1f": fn(i32, f32));
    let corners = [-1.0f32, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0];
    // SAFETY: a linked program; NUL-terminated names; 4 vec2s.
    unsafe {
        use_program(p);
        uniform2fv(location(p, c"corners".as_ptr()), 4, corners.as_ptr());
        let level = location(p, c"level".as_ptr());
        if level >= 0 {
            uniform1f(level, 4.0);
        }
    }
    p
}

fn program_int(p: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: one int out.
    unsafe { get(p, pname, &mut v) };
    v
}

fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: single-valued pnames only.
    unsafe { get(pname, &mut v) };
    v
}

fn floats<const N: usize>(pname: u32) -> [f32; N] {
    let get = gl!(c"glGetFloatv": fn(u32, *mut f32));
    let mut v = [-1.0; N];
    // SAFETY: `pname` has N values.
    unsafe { get(pname, v.as_mut_ptr()) };
    v
}

fn patch_parameter_i(pname: u32, value: i32) {
    let f = gl!(c"glPatchParameteri": fn(u32, i32));
    // SAFETY: plain values.
    unsafe { f(pname, value) };
}

fn patch_parameter_fv(pname: u32, values: &[f32]) {
    let f = gl!(c"glPatchParameterfv": fn(u32, *const f32));
    // SAFETY: as many values as `pname` reads (the callers pass 4 or 2).
    unsafe { f(pname, values.as_ptr()) };
}

/// Clears to black and draws `count` vertices of `mode` with a bound vertex array.
fn draw(mode: u32, count: i32) {
    let gen = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind = gl!(c"glBindVertexArray": fn(u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: one name out; plain values.
    unsafe {
        gen(1, &mut vao);
        bind(vao);
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw_arrays(mode, 0, count);
    }
}

/// The pixel at (x, y) of the 32×32 drawable (row 0 at the bottom).
fn pixel(x: i32, y: i32) -> [u8; 4] {
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 4];
    // SAFETY: `px` holds one RGBA pixel.
    unsafe {
        read(
            x,
            y,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    px
}

const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLACK: [u8; 4] = [0, 0, 0, 0];

/// Whether the core context lists GL_ARB_tessellation_shader (`glGetStringi`).
fn has_extension() -> bool {
    let get_stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    (0..integer(0x821D) as u32).any(|i| {
        // SAFETY: `i` is below GL_NUM_EXTENSIONS: a NUL-terminated string the context owns.
        let name = unsafe { std::ffi::CStr::from_ptr(get_stringi(0x1F03, i)) };
        name.to_bytes() == b"GL_ARB_tessellation_shader"
    })
}

#[test]
fn a_triangle_patch_is_tessellated_and_drawn() {
    let _ctx = gl_harness::context();
    assert!(has_extension(), "lavapipe has tessellationShader");
    let (tcs, tes) = (tcs(3), tes("triangles"));
    use_program(&[
        (GL_VERTEX_SHADER, VS),
        (GL_TESS_CONTROL_SHADER, &tcs),
        (GL_TESS_EVALUATION_SHADER, &tes),
        (GL_FRAGMENT_SHADER, FS),
    ]);
    draw(GL_PATCHES, 3);
    expect(GL_NO_ERROR);
    // The lower-right half of the viewport (corners 0, 1, 2) is covered, the upper left not.
    assert_eq!(pixel(28, 4), GREEN);
    assert_eq!(pixel(4, 28), BLACK);
}

#[test]
fn a_quad_patch_keeps_gls_winding_under_face_culling() {
    let _ctx = gl_harness::context();
    let enable = gl!(c"glEnable": fn(u32));
    // SAFETY: a plain capability.
    unsafe { enable(GL_CULL_FACE) };
    let tcs = tcs(4);
    for (order, visible) in [("ccw", true), ("cw", false)] {
        let tes = tes(&format!("quads, {order}"));
        use_program(&[
            (GL_VERTEX_SHADER, VS),
            (GL_TESS_CONTROL_SHADER, &tcs),
            (GL_TESS_EVALUATION_SHADER, &tes),
            (GL_FRAGMENT_SHADER, FS),
        ]);
        patch_parameter_i(GL_PATCH_VERTICES, 4);
        draw(GL_PATCHES, 4);
        expect(GL_NO_ERROR);
        let want = if visible { GREEN } else { BLACK };
        for (x, y) in [(2, 2), (29, 2), (16, 16), (2, 29), (29, 29)] {
            assert_eq!(pixel(x, y), want, "{order} at ({x}, {y})");
        }
    }
}

#[test]
fn evaluation_stages_read_the_default_uniform_block() {
    let _ctx = gl_harness::context();
    let (tcs, tes) = (tcs(3), tes("triangles"));
    let p = use_program(&[
        (GL_VERTEX_SHADER, VS),
        (GL_TESS_CONTROL_SHADER, &tcs),
        (GL_TESS_EVALUATION_SHADER, &tes),
        (GL_FRAGMENT_SHADER, FS),
    ]);
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform4f = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    // SAFETY: a linked, current program; a NUL-terminated name.
    unsafe { uniform4f(location(p, c"tint".as_ptr()), 1.0, 0.0, 0.0, 0.0) };
    draw(GL_PATCHES, 3);
    expect(GL_NO_ERROR);
    assert_eq!(pixel(28, 4), [255, 255, 0, 255]);
}

#[test]
fn patch_parameters_are_state_with_errors() {
    let _ctx = gl_harness::context();
    assert_eq!(integer(GL_PATCH_VERTICES), 3);
    assert_eq!(floats::<4>(GL_PATCH_DEFAULT_OUTER_LEVEL), [1.0; 4]);
    assert_eq!(floats::<2>(GL_PATCH_DEFAULT_INNER_LEVEL), [1.0; 2]);
    let max = integer(GL_MAX_PATCH_VERTICES);
    assert!(max >= 32, "GL_MAX_PATCH_VERTICES {max}");
    assert!(integer(GL_MAX_TESS_GEN_LEVEL) >= 64);
    patch_parameter_i(GL_PATCH_VERTICES, 7);
    expect(GL_NO_ERROR);
    assert_eq!(integer(GL_PATCH_VERTICES), 7);
    for bad in [0, -1, max + 1] {
        patch_parameter_i(GL_PATCH_VERTICES, bad);
        expect(GL_INVALID_VALUE);
    }
    assert_eq!(integer(GL_PATCH_VERTICES), 7);
    patch_parameter_i(GL_PATCH_DEFAULT_OUTER_LEVEL, 3);
    expect(GL_INVALID_ENUM);
    patch_parameter_fv(GL_PATCH_DEFAULT_OUTER_LEVEL, &[2.0, 3.0, 4.0, 5.0]);
    patch_parameter_fv(GL_PATCH_DEFAULT_INNER_LEVEL, &[6.0, 7.0]);
    expect(GL_NO_ERROR);
    assert_eq!(
        floats::<4>(GL_PATCH_DEFAULT_OUTER_LEVEL),
        [2.0, 3.0, 4.0, 5.0]
    );
    assert_eq!(floats::<2>(GL_PATCH_DEFAULT_INNER_LEVEL), [6.0, 7.0]);
    patch_parameter_fv(GL_PATCH_VERTICES, &[1.0, 1.0, 1.0, 1.0]);
    expect(GL_INVALID_ENUM);
}

#[test]
fn draw_modes_must_match_the_programs_stages() {
    let _ctx = gl_harness::context();
    let (tcs, tes) = (tcs(3), tes("triangles"));
    use_program(&[
        (GL_VERTEX_SHADER, VS),
        (GL_TESS_CONTROL_SHADER, &tcs),
        (GL_TESS_EVALUATION_SHADER, &tes),
        (GL_FRAGMENT_SHADER, FS),
    ]);
    draw(GL_TRIANGLES, 3);
    expect(GL_INVALID_OPERATION);
    let fs = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    use_program(&[(GL_VERTEX_SHADER, VS), (GL_FRAGMENT_SHADER, fs)]);
    draw(GL_PATCHES, 3);
    expect(GL_INVALID_OPERATION);
    assert_eq!(pixel(28, 4), BLACK);
    draw(GL_QUADS, 4);
    expect(GL_INVALID_ENUM);
}

#[test]
fn programs_report_their_tessellation_layout() {
    let _ctx = gl_harness::context();
    let (tcs, tes) = (tcs(4), tes("quads, fractional_odd_spacing, cw, point_mode"));
    let (p, linked) = try_program(&[
        (GL_VERTEX_SHADER, VS),
        (GL_TESS_CONTROL_SHADER, &tcs),
        (GL_TESS_EVALUATION_SHADER, &tes),
        (GL_FRAGMENT_SHADER, FS),
    ]);
    assert!(linked);
    assert_eq!(program_int(p, GL_TESS_CONTROL_OUTPUT_VERTICES), 4);
    assert_eq!(program_int(p, GL_TESS_GEN_MODE) as u32, GL_QUADS);
    assert_eq!(
        program_int(p, GL_TESS_GEN_SPACING) as u32,
        GL_FRACTIONAL_ODD
    );
    assert_eq!(program_int(p, GL_TESS_GEN_VERTEX_ORDER) as u32, GL_CW);
    assert_eq!(program_int(p, GL_TESS_GEN_POINT_MODE), 1);
    expect(GL_NO_ERROR);
    let tes = self::tes("triangles");
    let (p, _) = try_program(&[
        (GL_VERTEX_SHADER, VS),
        (GL_TESS_CONTROL_SHADER, &tcs),
        (GL_TESS_EVALUATION_SHADER, &tes),
        (GL_FRAGMENT_SHADER, FS),
    ]);
    assert_eq!(program_int(p, GL_TESS_GEN_SPACING) as u32, GL_EQUAL);
    assert_eq!(program_int(p, GL_TESS_GEN_VERTEX_ORDER) as u32, GL_CCW);
    assert_eq!(program_int(p, GL_TESS_GEN_POINT_MODE), 0);
    // A program without the stage: GL_INVALID_OPERATION.
    let (plain, _) = try_program(&[(GL_VERTEX_SHADER, VS), (GL_FRAGMENT_SHADER, FS)]);
    program_int(plain, GL_TESS_GEN_MODE);
    expect(GL_INVALID_OPERATION);
    program_int(plain, GL_TESS_CONTROL_OUTPUT_VERTICES);
    expect(GL_INVALID_OPERATION);
}

#[test]
fn tessellation_stages_need_an_evaluation_and_a_vertex_stage() {
    let _ctx = gl_harness::context();
    let (tcs, tes) = (tcs(3), tes("triangles"));
    let (_, linked) = try_program(&[
        (GL_VERTEX_SHADER, VS),
        (GL_TESS_CONTROL_SHADER, &tcs),
        (GL_FRAGMENT_SHADER, FS),
    ]);
    assert!(!linked, "a control stage without an evaluation stage");
    let (_, linked) = try_program(&[
        (GL_TESS_CONTROL_SHADER, &tcs),
        (GL_TESS_EVALUATION_SHADER, &tes),
        (GL_FRAGMENT_SHADER, FS),
    ]);
    assert!(!linked, "tessellation without a vertex stage");
    expect(GL_NO_ERROR);
}

#[test]
fn an_evaluation_stage_alone_passes_patches_through_at_the_default_levels() {
    let _ctx = gl_harness::context();
    let vs = "#version 150
uniform vec2 corners[4];
out vec4 vColor;
out float vGreen;
void main() {
    gl_Position = vec4(corners[gl_VertexID], 0.0, 1.0);
    vColor = vec4(0.0, 0.0, 1.0, 1.0);
    vGreen = 1.0;
}
";
    let tes = "#version 150
#extension GL_ARB_tessellation_shader : require
layout(quads) in;
in vec4 vColor[];
in float vGreen[];
out vec4 color;
void main() {
    gl_Position = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x),
                      mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x),
                      gl_TessCoord.y);
    color = vColor[3] + vec4(0.0, vGreen[1], 0.0, 0.0);
}
";
    let p = use_program(&[
        (GL_VERTEX_SHADER, vs),
        (GL_TESS_EVALUATION_SHADER, tes),
        (GL_FRAGMENT_SHADER, FS),
    ]);
    program_int(p, GL_TESS_CONTROL_OUTPUT_VERTICES);
    expect(GL_INVALID_OPERATION);
    assert_eq!(program_int(p, GL_TESS_GEN_MODE) as u32, GL_QUADS);
    patch_parameter_i(GL_PATCH_VERTICES, 4);
    // An outer level of 0 discards the patch; the defaults are what the patch is drawn at.
    patch_parameter_fv(GL_PATCH_DEFAULT_OUTER_LEVEL, &[1.0, 0.0, 1.0, 1.0]);
    draw(GL_PATCHES, 4);
    expect(GL_NO_ERROR);
    assert_eq!(pixel(16, 16), BLACK);
    patch_parameter_fv(GL_PATCH_DEFAULT_OUTER_LEVEL, &[2.0, 2.0, 2.0, 2.0]);
    draw(GL_PATCHES, 4);
    expect(GL_NO_ERROR);
    for (x, y) in [(2, 2), (29, 2), (16, 16), (2, 29), (29, 29)] {
        assert_eq!(pixel(x, y), [0, 255, 255, 255], "({x}, {y})");
    }
}

#[test]
fn indexed_patches_are_drawn_from_an_element_buffer_with_restart_on() {
    let _ctx = gl_harness::context();
    let (tcs, tes) = (tcs(3), tes("triangles"));
    use_program(&[
        (GL_VERTEX_SHADER, VS),
        (GL_TESS_CONTROL_SHADER, &tcs),
        (GL_TESS_EVALUATION_SHADER, &tes),
        (GL_FRAGMENT_SHADER, FS),
    ]);
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let enable = gl!(c"glEnable": fn(u32));
    let restart_index = gl!(c"glPrimitiveRestartIndex": fn(u32));
    let draw_elements = gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void));
    let clear = gl!(c"glClear": fn(u32));
    // The upper-left triangle (corners 0, 2, 3), with a restart index the lowering drops.
    let indices: [u16; 4] = [0, 7, 2, 3];
    let (mut vao, mut ebo) = (0, 0);
    // SAFETY: names out; 4 indices of 2 bytes; plain values.
    unsafe {
        gen_vao(1, &mut vao);
        bind_vao(vao);
        gen(1, &mut ebo);
        bind(0x8893, ebo); // GL_ELEMENT_ARRAY_BUFFER
        data(0x8893, 8, indices.as_ptr().cast(), 0x88E4); // GL_STATIC_DRAW
        enable(0x8F9D); // GL_PRIMITIVE_RESTART
        restart_index(7);
        clear(GL_COLOR_BUFFER_BIT);
        draw_elements(GL_PATCHES, 4, 0x1403, std::ptr::null()); // GL_UNSIGNED_SHORT
    }
    expect(GL_NO_ERROR);
    assert_eq!(pixel(4, 28), GREEN);
    assert_eq!(pixel(28, 4), BLACK);
}
