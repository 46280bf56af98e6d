//! GL's clip-space depth ([-w, w]) reaching Vulkan's ([0, w]) through the last stage before
//! rasterisation, read back from the pixels: a vertex stage alone, a geometry stage (which the
//! link remaps in SPIR-V before every emitted vertex, emits inside functions included), a
//! geometry stage whose `gl_Position` transform feedback captures (the capture keeps GL's value),
//! a geometry stage of a separable program in a program pipeline; `glClipControl`'s depth mode
//! (no remap under `GL_ZERO_TO_ONE`, in either stage) and origin (window y flipped, facing kept),
//! its queries and its errors.

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use std::ffi::{c_char, CString};

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_TRIANGLES: u32 = 4;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_GEOMETRY_SHADER: u32 = 0x8DD9;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_INTERLEAVED_ATTRIBS: u32 = 0x8C8C;
const GL_TRANSFORM_FEEDBACK_BUFFER: u32 = 0x8C8E;
const GL_VERTEX_SHADER_BIT: u32 = 0x1;
const GL_FRAGMENT_SHADER_BIT: u32 = 0x2;
const GL_GEOMETRY_SHADER_BIT: u32 = 0x4;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_CULL_FACE: u32 = 0x0B44;
const GL_RGB: u32 = 0x1907;
const GL_LOWER_LEFT: u32 = 0x8CA1;
const GL_UPPER_LEFT: u32 = 0x8CA2;
const GL_CLIP_ORIGIN: u32 = 0x935C;
const GL_CLIP_DEPTH_MODE: u32 = 0x935D;
const GL_NEGATIVE_ONE_TO_ONE: u32 = 0x935E;
const GL_ZERO_TO_ONE: u32 = 0x935F;

/// A triangle covering the whole clip space at depth `z`.
const VS: &str = "#version 150\nuniform float z;\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    gl_Position = vec4(p, z, 1.0);\n}\n";

/// A triangle covering the lower half of clip space (y < 0 at its left edge), counter-clockwise.
const VS_LOWER: &str = "#version 150\nuniform float z;\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 0.0 : -1.0);\n    gl_Position = vec4(p, z, 1.0);\n}\n";

/// The triangle passed on, each vertex emitted from a function (so not from `main`).
const GS: &str = "#version 150\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\nvoid send(int i) {\n    gl_Position = gl_in[i].gl_Position;\n    EmitVertex();\n}\nvoid main() {\n    for (int i = 0; i < 3; i++) send(i);\n}\n";

/// Red, the window depth in blue.
const FS: &str =
    "#version 150\nout vec4 color;\nvoid main() { color = vec4(1.0, 0.0, gl_FragCoord.z, 1.0); }\n";

/// Compiles `source` as a `ty` shader and attaches it to `program`.
fn attach(program: u32, ty: u32, source: &str) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let shader_source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let source = CString::new(source).expect("no NUL");
    // SAFETY: a NUL-terminated source, length NULL.
    unsafe {
        let s = create(ty);
        shader_source(s, 1, &source.as_ptr(), std::ptr::null());
        compile(s);
        attach(program, s);
    }
}

/// Links VS + `gs` (when given) + FS, capturing `captured` (when given) interleaved; uses it
/// with an empty vertex array and `z` set.
fn use_program(gs: Option<&str>, captured: Option<&std::ffi::CStr>, z: f32) -> u32 {
    use_program_with(VS, gs, captured, z)
}

/// [`use_program`] with the vertex shader `vs`.
fn use_program_with(vs: &str, gs: Option<&str>, captured: Option<&std::ffi::CStr>, z: f32) -> u32 {
    let varyings = gl!(c"glTransformFeedbackVaryings": fn(u32, i32, *const *const c_char, u32));
    let program = gl_harness::program_with(vs, FS, |p| {
        if let Some(gs) = gs {
            attach(p, GL_GEOMETRY_SHADER, gs);
        }
        if let Some(name) = captured {
            // SAFETY: one NUL-terminated name.
            unsafe { varyings(p, 1, &name.as_ptr(), GL_INTERLEAVED_ATTRIBS) };
        }
    });
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform = gl!(c"glUniform1f": fn(i32, f32));
    // SAFETY: a NUL-terminated name; plain values.
    unsafe {
        use_program(program);
        uniform(location(program, c"z".as_ptr()), z);
    }
    bind_empty_vertex_array();
    program
}

fn bind_empty_vertex_array() {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let mut vao = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
    }
}

/// Clears to black and draws the triangle.
fn draw() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain values.
    unsafe {
        clear_color(0.0, 0.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw(GL_TRIANGLES, 0, 3);
    }
}

fn pixel() -> [u8; 4] {
    pixel_at(16, 16)
}

fn pixel_at(x: i32, y: i32) -> [u8; 4] {
    let v = gl_harness::read_rgba(x, y, 1, 1);
    [v[0], v[1], v[2], v[3]]
}

fn clip_control(origin: u32, depth: u32) {
    let clip_control = gl!(c"glClipControl": fn(u32, u32));
    // SAFETY: plain values.
    unsafe { clip_control(origin, depth) };
}

fn get_int(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get(pname, &mut v) };
    v
}

/// The window depth of z = -0.5 and z = 0.5 under the default depth range: 0.25 and 0.75 (GL
/// clips neither; without the remap the first is clipped away and the second lands at 0.5).
const CASES: [(f32, u8); 2] = [(-0.5, 64), (0.5, 191)];

#[test]
fn vertex_and_geometry_stages_remap_depth() {
    let _ctx = gl_harness::context();
    for gs in [None, Some(GS)] {
        for (z, blue) in CASES {
            use_program(gs, None, z);
            draw();
            let what = format!("z = {z}, geometry stage: {}", gs.is_some());
            gl_harness::assert_rgba8_near(pixel(), [255, 0, blue, 255], &what);
        }
    }
    expect(GL_NO_ERROR);
}

#[test]
fn a_captured_geometry_position_keeps_gl_depth() {
    let _ctx = gl_harness::context();
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let begin = gl!(c"glBeginTransformFeedback": fn(u32));
    let end = gl!(c"glEndTransformFeedback": fn());
    let get_sub_data = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut f32));
    let buffer = gl_harness::buffer_with(GL_TRANSFORM_FEEDBACK_BUFFER, &[0u8; 48]);
    use_program(Some(GS), Some(c"gl_Position"), -0.5);
    // SAFETY: a live buffer; plain values.
    unsafe {
        bind_base(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
        begin(GL_TRIANGLES);
    }
    draw();
    let mut captured = [0f32; 12];
    // SAFETY: 48 bytes into a local of 48.
    unsafe {
        end();
        get_sub_data(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 48, captured.as_mut_ptr());
    }
    expect(GL_NO_ERROR);
    gl_harness::assert_rgba8_near(pixel(), [255, 0, 64, 255], "rendered depth");
    for v in captured.chunks(4) {
        assert_eq!((v[2], v[3]), (-0.5, 1.0), "captured gl_Position {v:?}");
    }
}

#[test]
fn a_separable_geometry_stage_remaps_depth() {
    let _ctx = gl_harness::context();
    let create_program = gl!(c"glCreateShaderProgramv": fn(u32, i32, *const *const c_char) -> u32);
    let gen_pipelines = gl!(c"glGenProgramPipelines": fn(i32, *mut u32));
    let bind_pipeline = gl!(c"glBindProgramPipeline": fn(u32));
    let use_stages = gl!(c"glUseProgramStages": fn(u32, u32, u32));
    let program_uniform = gl!(c"glProgramUniform1f": fn(u32, i32, f32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let separable = |ty: u32, src: &str| {
        let src = CString::new(src).expect("no NUL");
        // SAFETY: one NUL-terminated source.
        unsafe { create_program(ty, 1, &src.as_ptr()) }
    };
    // gl_PerVertex redeclared, as separable stages of GLSL 1.50 must.
    let vs = VS.replace(
        "uniform float z;",
        "#extension GL_ARB_separate_shader_objects : require\nout gl_PerVertex { vec4 gl_Position; };\nuniform float z;",
    );
    let gs = GS.replace(
        "layout(triangles) in;",
        "#extension GL_ARB_separate_shader_objects : require\nin gl_PerVertex { vec4 gl_Position; } gl_in[];\nout gl_PerVertex { vec4 gl_Position; };\nlayout(triangles) in;",
    );
    let (vs, gs, fs) = (
        separable(GL_VERTEX_SHADER, &vs),
        separable(GL_GEOMETRY_SHADER, &gs),
        separable(GL_FRAGMENT_SHADER, FS),
    );
    let mut pipeline = 0;
    // SAFETY: out-pointer to a local; live programs; a NUL-terminated name.
    unsafe {
        gen_pipelines(1, &mut pipeline);
        use_stages(pipeline, GL_VERTEX_SHADER_BIT, vs);
        use_stages(pipeline, GL_GEOMETRY_SHADER_BIT, gs);
        use_stages(pipeline, GL_FRAGMENT_SHADER_BIT, fs);
        bind_pipeline(pipeline);
        program_uniform(vs, location(vs, c"z".as_ptr()), -0.5);
    }
    bind_empty_vertex_array();
    draw();
    expect(GL_NO_ERROR);
    gl_harness::assert_rgba8_near(pixel(), [255, 0, 64, 255], "separable stages");
}

#[test]
fn clip_control_state_and_errors() {
    let _ctx = gl_harness::context();
    let state = || {
        (
            get_int(GL_CLIP_ORIGIN) as u32,
            get_int(GL_CLIP_DEPTH_MODE) as u32,
        )
    };
    assert_eq!(state(), (GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE), "initial");
    clip_control(GL_UPPER_LEFT, GL_ZERO_TO_ONE);
    expect(GL_NO_ERROR);
    assert_eq!(state(), (GL_UPPER_LEFT, GL_ZERO_TO_ONE));
    clip_control(GL_RGB, GL_NEGATIVE_ONE_TO_ONE);
    expect(GL_INVALID_ENUM);
    clip_control(GL_LOWER_LEFT, GL_RGB);
    expect(GL_INVALID_ENUM);
    assert_eq!(
        state(),
        (GL_UPPER_LEFT, GL_ZERO_TO_ONE),
        "unchanged by the errors"
    );
}

#[test]
fn zero_to_one_leaves_depth_alone_in_every_last_stage() {
    let _ctx = gl_harness::context();
    clip_control(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
    for gs in [None, Some(GS)] {
        // z = 0.5 lands at 0.5; z = -0.5 is clipped as Vulkan clips.
        for (z, want) in [(0.5, [255, 0, 128, 255]), (-0.5, [0, 0, 0, 255])] {
            use_program(gs, None, z);
            draw();
            let what = format!("z = {z}, geometry stage: {}", gs.is_some());
            gl_harness::assert_rgba8_near(pixel(), want, &what);
        }
    }
    expect(GL_NO_ERROR);
}

#[test]
fn upper_left_flips_window_y_and_keeps_facing() {
    let _ctx = gl_harness::context();
    let enable = gl!(c"glEnable": fn(u32));
    // SAFETY: a plain value. Back faces culled: the counter-clockwise triangle must stay.
    unsafe { enable(GL_CULL_FACE) };
    let red = [255, 0, 128, 255];
    let black = [0, 0, 0, 255];
    for (origin, bottom, top) in [(GL_LOWER_LEFT, red, black), (GL_UPPER_LEFT, black, red)] {
        clip_control(origin, GL_NEGATIVE_ONE_TO_ONE);
        use_program_with(VS_LOWER, None, None, 0.0);
        draw();
        let what = if origin == GL_UPPER_LEFT {
            "upper left"
        } else {
            "lower left"
        };
        gl_harness::assert_rgba8_near(pixel_at(2, 4), bottom, &format!("{what}: bottom row"));
        gl_harness::assert_rgba8_near(pixel_at(2, 28), top, &format!("{what}: top row"));
    }
    expect(GL_NO_ERROR);
}
