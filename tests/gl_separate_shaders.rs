//! `GL_ARB_separate_shader_objects` through the C ABI: separable programs from
//! `glCreateShaderProgramv`, program pipeline objects mixing the vertex stage of one program
//! with the fragment stage of another (interfaces matched by location), `glProgramUniform*`
//! and `glActiveShaderProgram`, validation, the queries, and the errors GL specifies. Pixels
//! are read back; the validation layer must stay silent.

use std::ffi::{c_char, CString};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, expect, f, read_rgba};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_TRIANGLE_STRIP: u32 = 0x0005;
const GL_LINK_STATUS: u32 = 0x8B82;
const GL_VALIDATE_STATUS: u32 = 0x8B83;
const GL_INFO_LOG_LENGTH: u32 = 0x8B84;
const GL_PROGRAM_SEPARABLE: u32 = 0x8258;
const GL_ACTIVE_PROGRAM: u32 = 0x8259;
const GL_PROGRAM_PIPELINE_BINDING: u32 = 0x825A;
const GL_VERTEX_SHADER_BIT: u32 = 0x1;
const GL_FRAGMENT_SHADER_BIT: u32 = 0x2;
const GL_ALL_SHADER_BITS: u32 = 0xFFFF_FFFF;

const VS: &str = "#version 150\n#extension GL_ARB_separate_shader_objects : require\n\
    uniform vec2 offset;\n\
    out gl_PerVertex { vec4 gl_Position; };\n\
    layout(location = 3) out vec4 tint;\n\
    void main() {\n\
        vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n\
        gl_Position = vec4(p * 0.5 + offset, 0.0, 1.0);\n\
        tint = vec4(0.0, 1.0, 0.0, 1.0);\n\
    }\n";

const FS: &str = "#version 150\n#extension GL_ARB_separate_shader_objects : require\n\
    uniform float level;\n\
    layout(location = 3) in vec4 colour_in;\n\
    out vec4 colour;\n\
    void main() { colour = colour_in * level + vec4(level, 0.0, 0.0, 0.0); }\n";

fn shader_program(ty: u32, src: &str) -> u32 {
    let create = gl!(c"glCreateShaderProgramv": fn(u32, i32, *const *const c_char) -> u32);
    let c = CString::new(src).expect("no NUL");
    let ptr = c.as_ptr();
    // SAFETY: one NUL-terminated string.
    unsafe { create(ty, 1, &ptr) }
}

fn program_iv(p: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let mut v = -7;
    // SAFETY: one value into a local.
    unsafe { get(p, pname, &mut v) };
    v
}

fn program_log(p: u32) -> String {
    let get = gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let mut buf = vec![0u8; 4096];
    let mut len = 0;
    // SAFETY: `buf.len()` bytes into a local buffer.
    unsafe { get(p, buf.len() as i32, &mut len, buf.as_mut_ptr().cast()) };
    String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned()
}

fn pipeline_iv(pipe: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetProgramPipelineiv": fn(u32, u32, *mut i32));
    let mut v = -7;
    // SAFETY: one value into a local.
    unsafe { get(pipe, pname, &mut v) };
    v
}

fn uniform_location(p: u32, name: &std::ffi::CStr) -> i32 {
    let f = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    // SAFETY: a NUL-terminated name.
    unsafe { f(p, name.as_ptr()) }
}

fn draw_quad() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain GL calls on the current context (a VAO is bound by the caller).
    unsafe {
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(0x4000);
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
}

fn pixel(x: i32, y: i32) -> [u8; 4] {
    let px = read_rgba(x, y, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

fn bind_vao() {
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind = gl!(c"glBindVertexArray": fn(u32));
    let mut vao = 0;
    // SAFETY: one name into a local.
    unsafe {
        gen_vao(1, &mut vao);
        bind(vao);
    }
}

#[test]
fn a_pipeline_draws_the_stages_of_two_programs() {
    let _ctx = context();
    bind_vao();
    let vs = shader_program(GL_VERTEX_SHADER, VS);
    let fs = shader_program(GL_FRAGMENT_SHADER, FS);
    expect(GL_NO_ERROR);
    assert_eq!(program_iv(vs, GL_LINK_STATUS), 1, "{}", program_log(vs));
    assert_eq!(program_iv(fs, GL_LINK_STATUS), 1, "{}", program_log(fs));
    assert_eq!(program_iv(vs, GL_PROGRAM_SEPARABLE), 1);

    let gen = gl!(c"glGenProgramPipelines": fn(i32, *mut u32));
    let is = gl!(c"glIsProgramPipeline": fn(u32) -> u8);
    let bind = gl!(c"glBindProgramPipeline": fn(u32));
    let stages = gl!(c"glUseProgramStages": fn(u32, u32, u32));
    let active = gl!(c"glActiveShaderProgram": fn(u32, u32));
    let validate = gl!(c"glValidateProgramPipeline": fn(u32));
    let uniform2f = gl!(c"glProgramUniform2f": fn(u32, i32, f32, f32));
    let uniform1f = gl!(c"glUniform1f": fn(i32, f32));
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut pipe = 0;
    // SAFETY: plain GL calls with locals.
    unsafe {
        gen(1, &mut pipe);
        assert_eq!(is(pipe), 0, "not an object before its first use");
        bind(pipe);
        assert_eq!(is(pipe), 1);
        stages(pipe, GL_ALL_SHADER_BITS, vs);
        stages(pipe, GL_FRAGMENT_SHADER_BIT, fs);
        let mut bound = 0;
        get_integer(GL_PROGRAM_PIPELINE_BINDING, &mut bound);
        assert_eq!(bound as u32, pipe);
    }
    expect(GL_NO_ERROR);
    assert_eq!(pipeline_iv(pipe, GL_VERTEX_SHADER) as u32, vs);
    assert_eq!(pipeline_iv(pipe, GL_FRAGMENT_SHADER) as u32, fs);

    // The vertex program's uniform through glProgramUniform, the fragment program's through
    // glUniform on the active program.
    // SAFETY: plain GL calls.
    unsafe {
        uniform2f(vs, uniform_location(vs, c"offset"), -0.5, -0.5);
        active(pipe, fs);
        uniform1f(uniform_location(fs, c"level"), 1.0);
        validate(pipe);
    }
    expect(GL_NO_ERROR);
    assert_eq!(pipeline_iv(pipe, GL_ACTIVE_PROGRAM) as u32, fs);
    assert_eq!(pipeline_iv(pipe, GL_VALIDATE_STATUS), 1);
    draw_quad();
    expect(GL_NO_ERROR);
    // The quad covers the lower-left quarter: green from the vertex stage plus the fragment
    // stage's red.
    assert_eq!(pixel(8, 8), [255, 255, 0, 255]);
    assert_eq!(pixel(24, 24), [0, 0, 0, 0]);

    // A new value of the fragment program's uniform reaches the next draw.
    let uniform1f_p = gl!(c"glProgramUniform1f": fn(u32, i32, f32));
    // SAFETY: plain GL calls.
    unsafe { uniform1f_p(fs, uniform_location(fs, c"level"), 0.0) };
    draw_quad();
    expect(GL_NO_ERROR);
    assert_eq!(pixel(8, 8), [0, 0, 0, 0]);

    // glUseProgram wins over the bound pipeline; with no program current nothing draws
    // without a pipeline.
    // SAFETY: plain GL calls.
    unsafe { bind(0) };
    draw_quad();
    expect(GL_INVALID_OPERATION);
}

#[test]
fn pipeline_validation_and_errors() {
    let _ctx = context();
    bind_vao();
    let gen = gl!(c"glGenProgramPipelines": fn(i32, *mut u32));
    let bind = gl!(c"glBindProgramPipeline": fn(u32));
    let stages = gl!(c"glUseProgramStages": fn(u32, u32, u32));
    let validate = gl!(c"glValidateProgramPipeline": fn(u32));
    let delete = gl!(c"glDeleteProgramPipelines": fn(i32, *const u32));
    let parameter = gl!(c"glProgramParameteri": fn(u32, u32, i32));
    let vs = shader_program(GL_VERTEX_SHADER, VS);
    // A program linked without GL_PROGRAM_SEPARABLE cannot join a pipeline.
    let plain = gl_harness::program(VS, FS);
    assert_eq!(program_iv(plain, GL_PROGRAM_SEPARABLE), 0);
    let mut pipe = 0;
    // SAFETY: plain GL calls with locals.
    unsafe {
        gen(1, &mut pipe);
        stages(pipe, GL_VERTEX_SHADER_BIT, plain);
        expect(GL_INVALID_OPERATION);
        stages(pipe, 0x4000_0000, vs);
        expect(GL_INVALID_VALUE);
        stages(pipe + 100, GL_VERTEX_SHADER_BIT, vs);
        expect(GL_INVALID_OPERATION);
        bind(pipe + 100);
        expect(GL_INVALID_OPERATION);
        parameter(vs, GL_PROGRAM_SEPARABLE, 2);
        expect(GL_INVALID_VALUE);
        parameter(vs, 0x1234, 1);
        expect(GL_INVALID_ENUM);
    }
    assert_eq!(pipeline_iv(pipe, 0x1234), -7, "nothing written on an error");
    expect(GL_INVALID_ENUM);

    // An empty pipeline does not validate, and cannot draw.
    // SAFETY: plain GL calls.
    unsafe {
        validate(pipe);
        bind(pipe);
    }
    expect(GL_NO_ERROR);
    assert_eq!(pipeline_iv(pipe, GL_VALIDATE_STATUS), 0);
    assert!(pipeline_iv(pipe, GL_INFO_LOG_LENGTH) > 0);
    draw_quad();
    expect(GL_INVALID_OPERATION);

    // A vertex stage alone draws (the fragment stage is undefined but the draw is valid).
    // SAFETY: plain GL calls.
    unsafe {
        stages(pipe, GL_ALL_SHADER_BITS, vs);
        validate(pipe);
    }
    assert_eq!(pipeline_iv(pipe, GL_VALIDATE_STATUS), 1);
    assert_eq!(
        pipeline_iv(pipe, GL_FRAGMENT_SHADER),
        0,
        "vs has no fragment stage"
    );
    draw_quad();
    expect(GL_NO_ERROR);

    // Deleting the bound pipeline unbinds it.
    // SAFETY: one name from a local.
    unsafe { delete(1, &pipe) };
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut bound = -1;
    // SAFETY: one value into a local.
    unsafe { get_integer(GL_PROGRAM_PIPELINE_BINDING, &mut bound) };
    assert_eq!(bound, 0);
    expect(GL_NO_ERROR);
}

const GS: &str = "#version 150\n\
    layout(triangles) in;\n\
    layout(triangle_strip, max_vertices = 3) out;\n\
    void main() {\n\
        for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position; EmitVertex(); }\n\
    }\n";

#[test]
fn validation_refuses_split_programs_and_geometry_without_vertex() {
    let _ctx = context();
    let gen = gl!(c"glGenProgramPipelines": fn(i32, *mut u32));
    let stages = gl!(c"glUseProgramStages": fn(u32, u32, u32));
    let validate = gl!(c"glValidateProgramPipeline": fn(u32));
    let parameter = gl!(c"glProgramParameteri": fn(u32, u32, i32));
    let both = gl_harness::program_with(VS, FS, |p| {
        // SAFETY: plain GL call before the link.
        unsafe { parameter(p, GL_PROGRAM_SEPARABLE, 1) }
    });
    let gs = shader_program(0x8DD9, GS);
    assert_eq!(program_iv(gs, GL_LINK_STATUS), 1, "{}", program_log(gs));
    let mut pipe = 0;
    // SAFETY: plain GL calls with locals.
    unsafe {
        gen(1, &mut pipe);
        stages(pipe, GL_ALL_SHADER_BITS, both);
        validate(pipe);
    }
    assert_eq!(pipeline_iv(pipe, GL_VALIDATE_STATUS), 1);
    // Another program's geometry stage between `both`'s vertex and fragment stages.
    // SAFETY: plain GL calls.
    unsafe {
        stages(pipe, 0x4, gs);
        validate(pipe);
    }
    assert_eq!(pipeline_iv(pipe, GL_VALIDATE_STATUS), 0);
    // A geometry stage without a vertex stage.
    // SAFETY: plain GL calls.
    unsafe {
        stages(pipe, GL_VERTEX_SHADER_BIT | GL_FRAGMENT_SHADER_BIT, 0);
        validate(pipe);
    }
    assert_eq!(pipeline_iv(pipe, GL_VALIDATE_STATUS), 0);
    expect(GL_NO_ERROR);
}

#[test]
fn create_shader_programv_keeps_the_compile_log() {
    let _ctx = context();
    let bad = shader_program(
        GL_FRAGMENT_SHADER,
        "#version 150\nvoid main() { nonsense; }\n",
    );
    expect(GL_NO_ERROR);
    assert_ne!(bad, 0);
    assert_eq!(program_iv(bad, GL_LINK_STATUS), 0);
    assert!(program_iv(bad, GL_INFO_LOG_LENGTH) > 1);
    assert_eq!(shader_program(0x1234, FS), 0);
    expect(GL_INVALID_ENUM);
}

/// A separable program of `units` (type, source), linked after `before_link`: the program and
/// whether it linked.
fn separable_program(units: &[(u32, &str)], before_link: impl FnOnce(u32)) -> (u32, bool) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let parameter = gl!(c"glProgramParameteri": fn(u32, u32, i32));
    let link = gl!(c"glLinkProgram": fn(u32));
    // SAFETY: NUL-terminated sources, lengths NULL.
    let p = unsafe {
        let p = create_program();
        for &(ty, src) in units {
            let s = create(ty);
            let c = CString::new(src).expect("no NUL");
            let ptr = c.as_ptr();
            source(s, 1, &ptr, std::ptr::null());
            compile(s);
            attach(p, s);
        }
        parameter(p, GL_PROGRAM_SEPARABLE, 1);
        before_link(p);
        link(p);
        p
    };
    (p, program_iv(p, GL_LINK_STATUS) == 1)
}

/// A bound pipeline running `vs`'s vertex stage and `fs`'s fragment stage.
fn bind_pipeline(vs: u32, fs: u32) -> u32 {
    let gen = gl!(c"glGenProgramPipelines": fn(i32, *mut u32));
    let bind = gl!(c"glBindProgramPipeline": fn(u32));
    let stages = gl!(c"glUseProgramStages": fn(u32, u32, u32));
    let mut pipe = 0;
    // SAFETY: plain GL calls with locals.
    unsafe {
        gen(1, &mut pipe);
        bind(pipe);
        stages(pipe, GL_VERTEX_SHADER_BIT, vs);
        if fs != 0 {
            stages(pipe, GL_FRAGMENT_SHADER_BIT, fs);
        }
    }
    pipe
}

const VS_NAMED_A: &str = "#version 150\n\
    out gl_PerVertex { vec4 gl_Position; };\n\
    uniform vec4 a;\n\
    void main() {\n\
        vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n\
        gl_Position = vec4(p + a.xy, 0.0, 1.0);\n\
    }\n";

const FS_NAMED_A: &str = "#version 150\n\
    uniform vec4 a;\n\
    out vec4 colour;\n\
    void main() { colour = a; }\n";

#[test]
fn each_stage_program_keeps_its_own_uniforms() {
    let _ctx = context();
    bind_vao();
    let vs = shader_program(GL_VERTEX_SHADER, VS_NAMED_A);
    let fs = shader_program(GL_FRAGMENT_SHADER, FS_NAMED_A);
    assert_eq!(program_iv(vs, GL_LINK_STATUS), 1, "{}", program_log(vs));
    assert_eq!(program_iv(fs, GL_LINK_STATUS), 1, "{}", program_log(fs));
    let pipe = bind_pipeline(vs, fs);
    let uniform4f = gl!(c"glProgramUniform4f": fn(u32, i32, f32, f32, f32, f32));
    let active = gl!(c"glActiveShaderProgram": fn(u32, u32));
    let uniform4f_active = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    // Both programs declare `a`: the vertex program's leaves the quad in place, the fragment
    // program's is the colour. One shared `a` would move the quad up by one.
    // SAFETY: plain GL calls.
    unsafe {
        uniform4f(vs, uniform_location(vs, c"a"), 0.0, 0.0, 0.0, 0.0);
        uniform4f(fs, uniform_location(fs, c"a"), 0.0, 1.0, 0.0, 1.0);
    }
    draw_quad();
    expect(GL_NO_ERROR);
    assert_eq!(pixel(16, 4), [0, 255, 0, 255]);
    assert_eq!(pixel(16, 28), [0, 255, 0, 255]);
    // glUniform writes the active program only: now the vertex program's `a` moves the quad
    // right by half its width, the colour stays.
    // SAFETY: plain GL calls.
    unsafe {
        active(pipe, vs);
        uniform4f_active(uniform_location(vs, c"a"), 1.0, 0.0, 0.0, 0.0);
    }
    draw_quad();
    expect(GL_NO_ERROR);
    assert_eq!(pixel(4, 16), [0, 0, 0, 0]);
    assert_eq!(pixel(28, 16), [0, 255, 0, 255]);
}

const XFB_VS: &str = "#version 150\n\
    out gl_PerVertex { vec4 gl_Position; };\n\
    out vec4 captured;\n\
    void main() {\n\
        gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n\
        captured = vec4(float(gl_VertexID), 2.0, 3.0, 4.0);\n\
    }\n";

#[test]
fn transform_feedback_captures_the_pipelines_last_vertex_stage() {
    let _ctx = context();
    bind_vao();
    let varyings = gl!(c"glTransformFeedbackVaryings": fn(u32, i32, *const *const c_char, u32));
    let (vs, linked) = separable_program(&[(GL_VERTEX_SHADER, XFB_VS)], |p| {
        let name = c"captured".as_ptr();
        // SAFETY: one NUL-terminated name; GL_INTERLEAVED_ATTRIBS.
        unsafe { varyings(p, 1, &name, 0x8C8C) }
    });
    assert!(linked, "{}", program_log(vs));
    let fs = shader_program(GL_FRAGMENT_SHADER, FS_NAMED_A);
    let pipe = bind_pipeline(vs, fs);
    let buffer = gl_harness::buffer_with(0x8C8E, &[0u8; 48]);
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let begin = gl!(c"glBeginTransformFeedback": fn(u32));
    let end = gl!(c"glEndTransformFeedback": fn());
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let bind = gl!(c"glBindProgramPipeline": fn(u32));
    let get_sub = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut f32));
    let mut out = [0f32; 12];
    // SAFETY: plain GL calls; 48 bytes into a local of 48 bytes.
    unsafe {
        bind_base(0x8C8E, 0, buffer);
        begin(0);
        expect(GL_NO_ERROR);
        draw(0, 0, 3);
        // The pipeline cannot change while the capture runs.
        bind(0);
        expect(GL_INVALID_OPERATION);
        end();
        expect(GL_NO_ERROR);
        get_sub(0x8C8E, 0, 48, out.as_mut_ptr());
    }
    assert_eq!(
        out,
        [0.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 2.0, 2.0, 3.0, 4.0]
    );
    let _ = pipe;
}

const GS_READS_VA: &str = "#version 150\n\
    layout(triangles) in;\n\
    layout(triangle_strip, max_vertices = 3) out;\n\
    in gl_PerVertex { vec4 gl_Position; } gl_in[];\n\
    out gl_PerVertex { vec4 gl_Position; };\n\
    in vec4 va[];\n\
    void main() {\n\
        for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position + va[i]; EmitVertex(); }\n\
    }\n";

#[test]
fn a_separable_programs_own_stages_must_meet() {
    let _ctx = context();
    const VS_PLAIN: &str = "#version 150\nout gl_PerVertex { vec4 gl_Position; };\nout vec4 v;\n\
        void main() { gl_Position = vec4(0.0); v = vec4(1.0); }\n";
    // The geometry stage reads `va`, which the vertex stage does not write.
    let (p, linked) = separable_program(
        &[(GL_VERTEX_SHADER, VS_PLAIN), (0x8DD9, GS_READS_VA)],
        |_| {},
    );
    assert!(!linked, "unmatched input linked");
    assert!(program_log(p).contains("va"), "{}", program_log(p));
    // With the output renamed it links.
    let vs_va = VS_PLAIN.replace(" v;", " va;").replace("v = ", "va = ");
    let (p, linked) =
        separable_program(&[(GL_VERTEX_SHADER, &vs_va), (0x8DD9, GS_READS_VA)], |_| {});
    assert!(linked, "{}", program_log(p));
    // Neither side redeclares gl_PerVertex while the geometry stage reads gl_in[]: a separable
    // program must (GLSL 1.50 and later).
    let vs_plain_va = vs_va.replace("out gl_PerVertex { vec4 gl_Position; };\n", "");
    let (_, linked) = separable_program(&[(GL_VERTEX_SHADER, &vs_plain_va), (0x8DD9, GS)], |_| {});
    assert!(!linked, "gl_PerVertex used without redeclaration linked");
    expect(GL_NO_ERROR);
}

const FS_TWO_SAMPLERS: &str = "#version 150\n\
    uniform sampler2D s2;\n\
    uniform sampler3D s3;\n\
    out vec4 colour;\n\
    void main() { colour = texture(s2, vec2(0.0)) + texture(s3, vec3(0.0)); }\n";

#[test]
fn validation_refuses_samplers_of_two_types_on_one_unit() {
    let _ctx = context();
    bind_vao();
    let vs = shader_program(GL_VERTEX_SHADER, VS_NAMED_A);
    let fs = shader_program(GL_FRAGMENT_SHADER, FS_TWO_SAMPLERS);
    let pipe = bind_pipeline(vs, fs);
    let validate = gl!(c"glValidateProgramPipeline": fn(u32));
    let uniform1i = gl!(c"glProgramUniform1i": fn(u32, i32, i32));
    let (s2, s3) = (uniform_location(fs, c"s2"), uniform_location(fs, c"s3"));
    // SAFETY: plain GL calls.
    unsafe {
        uniform1i(fs, s2, 1);
        uniform1i(fs, s3, 1);
        validate(pipe);
    }
    assert_eq!(pipeline_iv(pipe, GL_VALIDATE_STATUS), 0);
    draw_quad();
    expect(GL_INVALID_OPERATION);
    // SAFETY: plain GL calls.
    unsafe {
        uniform1i(fs, s3, 2);
        validate(pipe);
    }
    assert_eq!(pipeline_iv(pipe, GL_VALIDATE_STATUS), 1);
    draw_quad();
    expect(GL_NO_ERROR);
}

const CS_FILL: &str = "#version 330\n#extension GL_ARB_compute_shader : require\n\
    #extension GL_ARB_shader_storage_buffer_object : require\n\
    layout(local_size_x = 4) in;\n\
    layout(std430, binding = 1) buffer Out { uint values[]; };\n\
    uniform uint scale;\n\
    void main() { values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * scale; }\n";

#[test]
fn a_pipelines_compute_stage_dispatches() {
    let _ctx = context();
    let cs = shader_program(0x91B9, CS_FILL);
    assert_eq!(program_iv(cs, GL_LINK_STATUS), 1, "{}", program_log(cs));
    let gen = gl!(c"glGenProgramPipelines": fn(i32, *mut u32));
    let bind = gl!(c"glBindProgramPipeline": fn(u32));
    let stages = gl!(c"glUseProgramStages": fn(u32, u32, u32));
    let uniform1ui = gl!(c"glProgramUniform1ui": fn(u32, i32, u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let dispatch = gl!(c"glDispatchCompute": fn(u32, u32, u32));
    let barrier = gl!(c"glMemoryBarrier": fn(u32));
    let get_sub = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut u32));
    let buffer = gl_harness::buffer_with(0x90D2, &[0u8; 32]);
    let mut pipe = 0;
    let mut out = [0u32; 8];
    // SAFETY: plain GL calls with locals; 32 bytes into a local of 32 bytes.
    unsafe {
        gen(1, &mut pipe);
        bind(pipe);
        // Without a compute stage nothing dispatches.
        dispatch(1, 1, 1);
        expect(GL_INVALID_OPERATION);
        stages(pipe, 0x20, cs);
        uniform1ui(cs, uniform_location(cs, c"scale"), 3);
        bind_base(0x90D2, 1, buffer);
        dispatch(2, 1, 1);
        expect(GL_NO_ERROR);
        barrier(0xFFFF_FFFF);
        get_sub(0x90D2, 0, 32, out.as_mut_ptr());
    }
    assert_eq!(out, [0, 3, 6, 9, 12, 15, 18, 21]);
}
