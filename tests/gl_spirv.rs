//! GL_ARB_gl_spirv and GL_ARB_spirv_extensions through the C ABI: programs made of SPIR-V
//! modules (`glShaderBinary` + `glSpecializeShader`) draw with a loose uniform set by location,
//! a uniform block and a sampler at their GL bindings, a struct uniform loaded whole and a
//! specialization constant; the entry point is chosen; depth follows GL's range; the errors
//! GL 4.6 names; hostile binaries fail their specialization with a log, never a crash. The
//! modules are the GL-flavour assembly of `tests/gl_spirv/*.spvasm` (their GLSL is in their
//! comments), assembled.
//! Pixels are read back; the validation layer must stay silent.

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use std::ffi::{c_char, c_void, CStr};

use gl_harness::{buffer_with, context, expect, f, new_texture, read_rgba};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_COMPILE_STATUS: u32 = 0x8B81;
const GL_LINK_STATUS: u32 = 0x8B82;
const GL_INFO_LOG_LENGTH: u32 = 0x8B84;
const GL_SHADER_BINARY_FORMAT_SPIR_V: u32 = 0x9551;
const GL_SPIR_V_BINARY: u32 = 0x9552;
const GL_SPIR_V_EXTENSIONS: u32 = 0x9553;
const GL_NUM_SPIR_V_EXTENSIONS: u32 = 0x9554;
const GL_NUM_SHADER_BINARY_FORMATS: u32 = 0x8DF9;
const GL_SHADER_BINARY_FORMATS: u32 = 0x8DF8;
const GL_UNIFORM_BUFFER: u32 = 0x8A11;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE0: u32 = 0x84C0;

const VERTEX: &[u8] = include_bytes!("gl_spirv/draw.vert.spv");
const FRAGMENT: &[u8] = include_bytes!("gl_spirv/draw.frag.spv");

/// A current context offering the extensions (named in `ARENAGL_EXPERIMENTAL` while they are
/// on `context::experimental`'s list; a no-op after), drawing into a 32×32 RGBA8 framebuffer
/// (the pbuffer's config may have fewer bits).
fn spirv_context() -> gl_harness::Current {
    std::env::set_var(
        "ARENAGL_EXPERIMENTAL",
        "GL_ARB_gl_spirv,GL_ARB_spirv_extensions",
    );
    let current = context();
    let gen_fbo = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fbo = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let (mut fbo, mut rb) = (0, 0);
    // SAFETY: out-pointers to locals; plain GL calls.
    unsafe {
        gen_fbo(1, &mut fbo);
        bind_fbo(0x8D40, fbo);
        gen_rb(1, &mut rb);
        bind_rb(0x8D41, rb);
        storage(0x8D41, 0x8058, 32, 32);
        attach(0x8D40, 0x8CE0, 0x8D41, rb);
        let mut depth = 0;
        gen_rb(1, &mut depth);
        bind_rb(0x8D41, depth);
        storage(0x8D41, 0x81A6, 32, 32); // GL_DEPTH_COMPONENT24
        attach(0x8D40, 0x8D00, 0x8D41, depth); // GL_DEPTH_ATTACHMENT
    }
    expect(GL_NO_ERROR);
    current
}

fn shader_iv(s: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: the out-pointer is a local.
    unsafe { get(s, pname, &mut v) };
    v
}

fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: the out-pointer is a local (every pname asked holds one value).
    unsafe { get(pname, &mut v) };
    v
}

/// A shader of type `ty` holding `binary` (not specialized).
fn binary_shader(ty: u32, binary: &[u8]) -> u32 {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let load = gl!(c"glShaderBinary": fn(i32, *const u32, u32, *const c_void, i32));
    // SAFETY: one shader name, `binary.len()` bytes.
    unsafe {
        let s = create(ty);
        load(
            1,
            &s,
            GL_SHADER_BINARY_FORMAT_SPIR_V,
            binary.as_ptr().cast(),
            binary.len() as i32,
        );
        s
    }
}

fn specialize(s: u32, entry: &CStr, constants: &[(u32, u32)]) {
    let specialize =
        gl!(c"glSpecializeShader": fn(u32, *const c_char, u32, *const u32, *const u32));
    let ids: Vec<u32> = constants.iter().map(|c| c.0).collect();
    let values: Vec<u32> = constants.iter().map(|c| c.1).collect();
    // SAFETY: a NUL-terminated entry point; `ids` and `values` hold `constants.len()` values.
    unsafe {
        specialize(
            s,
            entry.as_ptr(),
            constants.len() as u32,
            ids.as_ptr(),
            values.as_ptr(),
        )
    };
}

/// Links the shaders into a new program: the program and whether it linked.
fn link(shaders: &[u32]) -> (u32, bool) {
    let create = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    // SAFETY: plain GL calls; the out-pointer is a local.
    unsafe {
        let p = create();
        for &s in shaders {
            attach(p, s);
        }
        link(p);
        let mut ok = 0;
        get(p, GL_LINK_STATUS, &mut ok);
        (p, ok == 1)
    }
}

/// The draw program: the vertex module, the fragment module at `entry` with `constants`.
fn spirv_program(entry: &CStr, constants: &[(u32, u32)]) -> u32 {
    let vs = binary_shader(GL_VERTEX_SHADER, VERTEX);
    let fs = binary_shader(GL_FRAGMENT_SHADER, FRAGMENT);
    specialize(vs, c"main", &[]);
    specialize(fs, entry, constants);
    expect(GL_NO_ERROR);
    assert_eq!(shader_iv(vs, GL_COMPILE_STATUS), 1);
    assert_eq!(shader_iv(fs, GL_COMPILE_STATUS), 1);
    let (p, linked) = link(&[vs, fs]);
    assert!(linked, "the SPIR-V program links");
    p
}

/// Blue texture on unit 2, `tint` in a uniform buffer at binding 1.
fn bind_resources(tint: [f32; 4]) {
    let active = gl!(c"glActiveTexture": fn(u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let blue: [u8; 4] = [0, 0, 255, 255];
    let bytes: Vec<u8> = tint.iter().flat_map(|v| v.to_le_bytes()).collect();
    // SAFETY: a 1×1 RGBA8 image from a local array; plain binds.
    unsafe {
        active(GL_TEXTURE0 + 2);
        new_texture(GL_TEXTURE_2D);
        tex_image(
            GL_TEXTURE_2D,
            0,
            0x8058,
            1,
            1,
            0,
            0x1908,
            0x1401,
            blue.as_ptr().cast(),
        );
        parameter(GL_TEXTURE_2D, 0x2801, 0x2600);
        parameter(GL_TEXTURE_2D, 0x2800, 0x2600);
        active(GL_TEXTURE0);
        let ubo = buffer_with(GL_UNIFORM_BUFFER, &bytes);
        bind_base(GL_UNIFORM_BUFFER, 1, ubo);
    }
}

/// Draws the full-screen strip with `p` and returns the centre pixel.
fn draw(p: u32, uniforms: impl FnOnce()) -> [u8; 4] {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: plain GL calls with locals.
    unsafe {
        gen_vao(1, &mut vao);
        bind_vao(vao);
        use_program(p);
        uniforms();
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(0x4000);
        draw(0x0005, 0, 4);
    }
    expect(GL_NO_ERROR);
    let px = read_rgba(16, 16, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

/// Sets the fragment module's loose uniforms by location: `color`, `use_blue`, `s.a`, `s.b`.
fn set_uniforms() {
    let uniform4f = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    let uniform1ui = gl!(c"glUniform1ui": fn(i32, u32));
    let uniform1f = gl!(c"glUniform1f": fn(i32, f32));
    // SAFETY: plain GL calls.
    unsafe {
        uniform4f(0, 1.0, 0.0, 0.0, 0.0);
        uniform1ui(2, 1);
        uniform1f(3, 0.25);
        uniform1f(4, 0.75);
    }
}

#[test]
fn a_spirv_program_draws_with_uniforms_by_location_bindings_and_a_spec_constant() {
    let _ctx = spirv_context();
    bind_resources([0.0, 0.5, 0.0, 0.0]);
    // Specialization constant 5 (`scale`) at 1.0: red is the uniform's 1.0.
    let p = spirv_program(c"main", &[(5, 1.0f32.to_bits())]);
    let px = draw(p, set_uniforms);
    gl_harness::assert_rgba8_near(px, [255, 128, 255, 255], "specialized to 1.0");
    // Its default, 0.5, halves red.
    let p = spirv_program(c"main", &[]);
    let px = draw(p, set_uniforms);
    gl_harness::assert_rgba8_near(px, [128, 128, 255, 255], "the default 0.5");
    // `use_blue` off: the sampler is not read; alpha is `s.a + s.b`.
    let uniform1ui = gl!(c"glUniform1ui": fn(i32, u32));
    let uniform1f = gl!(c"glUniform1f": fn(i32, f32));
    let px = draw(p, || {
        set_uniforms();
        // SAFETY: plain GL calls.
        unsafe {
            uniform1ui(2, 0);
            uniform1f(4, 0.25);
        }
    });
    gl_harness::assert_rgba8_near(px, [128, 128, 0, 128], "use_blue off");
}

#[test]
fn the_entry_point_glspecializeshader_names_runs() {
    let _ctx = spirv_context();
    // The module's other resources are still declared (and so active).
    bind_resources([0.0; 4]);
    let p = spirv_program(c"green_main", &[]);
    assert_eq!(draw(p, || {}), [0, 255, 0, 255]);
}

#[test]
fn the_vertex_stage_s_depth_is_gl_s() {
    let _ctx = spirv_context();
    bind_resources([0.0; 4]);
    let p = spirv_program(c"green_main", &[]);
    let enable = gl!(c"glEnable": fn(u32));
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear = gl!(c"glClear": fn(u32));
    // The module writes z = 0: GL's depth range maps it to 0.5 (Vulkan's would be 0.0), so a
    // GL_LESS test against 0.25 rejects it and one against 0.75 passes it.
    for (cleared, drawn) in [(0.25, false), (0.75, true)] {
        // SAFETY: plain GL calls.
        unsafe {
            enable(0x0B71); // GL_DEPTH_TEST
            clear_depth(cleared);
            clear(0x0100);
        }
        let px = draw(p, || {});
        assert_eq!(
            px == [0, 255, 0, 255],
            drawn,
            "depth cleared to {cleared}: {px:?}"
        );
    }
}

#[test]
fn points_take_gl_point_size() {
    let _ctx = spirv_context();
    bind_resources([0.0; 4]);
    let p = spirv_program(c"green_main", &[]);
    let point_size = gl!(c"glPointSize": fn(f32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // The module writes no `PointSize`: ArenaGL's `glPointSize` value is written for it (the
    // validation layer checks that a point-list pipeline writes one).
    draw(p, || {
        // SAFETY: plain GL calls.
        unsafe { point_size(4.0) };
    });
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain GL calls (the program and vertex array are still bound).
    unsafe {
        clear(0x4000);
        draw_arrays(0x0000, 0, 4); // GL_POINTS: the four corners
    }
    expect(GL_NO_ERROR);
    assert_eq!(
        read_rgba(0, 0, 1, 1),
        [0, 255, 0, 255],
        "a 4-pixel point covers the corner"
    );
    assert_eq!(read_rgba(16, 16, 1, 1), [0, 0, 0, 0], "points only");
}

#[test]
fn queries_answer_for_spirv() {
    let _ctx = spirv_context();
    assert_eq!(integer(GL_NUM_SHADER_BINARY_FORMATS), 1);
    assert_eq!(
        integer(GL_SHADER_BINARY_FORMATS),
        GL_SHADER_BINARY_FORMAT_SPIR_V as i32
    );
    let count = integer(GL_NUM_SPIR_V_EXTENSIONS);
    assert!(count >= 1);
    let stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    // SAFETY: GL returns a NUL-terminated string or NULL.
    let first = unsafe { CStr::from_ptr(stringi(GL_SPIR_V_EXTENSIONS, 0)) };
    assert!(first.to_bytes().starts_with(b"SPV_"));
    // SAFETY: as above.
    assert!(unsafe { stringi(GL_SPIR_V_EXTENSIONS, count as u32) }.is_null());
    expect(GL_INVALID_VALUE);
    let fs = binary_shader(GL_FRAGMENT_SHADER, FRAGMENT);
    assert_eq!(shader_iv(fs, GL_SPIR_V_BINARY), 1);
    assert_eq!(shader_iv(fs, GL_COMPILE_STATUS), 0, "not specialized yet");
    // New source makes it a GLSL shader again.
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let text = c"#version 330\nvoid main() {}\n";
    // SAFETY: one NUL-terminated string, lengths NULL.
    unsafe { source(fs, 1, &text.as_ptr(), std::ptr::null()) };
    assert_eq!(shader_iv(fs, GL_SPIR_V_BINARY), 0);
    expect(GL_NO_ERROR);
}

#[test]
fn errors_are_the_ones_gl_names() {
    let _ctx = spirv_context();
    let load = gl!(c"glShaderBinary": fn(i32, *const u32, u32, *const c_void, i32));
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    // A format that is not SPIR-V's.
    // SAFETY: one shader name and the binary's bytes.
    unsafe {
        let s = create(GL_VERTEX_SHADER);
        load(1, &s, 0x1234, VERTEX.as_ptr().cast(), VERTEX.len() as i32);
        expect(GL_INVALID_ENUM);
        // Bytes that are not SPIR-V.
        load(
            1,
            &s,
            GL_SHADER_BINARY_FORMAT_SPIR_V,
            b"GLSL".as_ptr().cast(),
            4,
        );
        expect(GL_INVALID_VALUE);
        // Two shaders of one stage.
        let t = create(GL_VERTEX_SHADER);
        let both = [s, t];
        load(
            2,
            both.as_ptr(),
            GL_SHADER_BINARY_FORMAT_SPIR_V,
            VERTEX.as_ptr().cast(),
            VERTEX.len() as i32,
        );
        expect(GL_INVALID_OPERATION);
    }
    // Specializing a GLSL shader.
    let glsl = {
        // SAFETY: plain GL call.
        unsafe { create(GL_FRAGMENT_SHADER) }
    };
    specialize(glsl, c"main", &[]);
    expect(GL_INVALID_OPERATION);
    // An entry point of another stage, an unknown name, an unknown constant.
    let fs = binary_shader(GL_FRAGMENT_SHADER, FRAGMENT);
    let vs = binary_shader(GL_VERTEX_SHADER, FRAGMENT);
    specialize(vs, c"main", &[]);
    expect(GL_INVALID_VALUE);
    specialize(fs, c"no_such_entry", &[]);
    expect(GL_INVALID_VALUE);
    specialize(fs, c"main", &[(99, 1)]);
    expect(GL_INVALID_VALUE);
    assert_eq!(shader_iv(fs, GL_COMPILE_STATUS), 0);
    // Twice.
    specialize(fs, c"main", &[]);
    expect(GL_NO_ERROR);
    specialize(fs, c"main", &[]);
    expect(GL_INVALID_OPERATION);
    // A SPIR-V shader is not compiled.
    let compile = gl!(c"glCompileShader": fn(u32));
    // SAFETY: plain GL call.
    unsafe { compile(fs) };
    expect(GL_INVALID_OPERATION);
    assert_eq!(shader_iv(fs, GL_COMPILE_STATUS), 1, "still specialized");
    // A program mixing GLSL and SPIR-V shaders does not link.
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let text = c"#version 330\nvoid main() { gl_Position = vec4(0.0); }\n";
    // SAFETY: plain GL calls, one NUL-terminated string.
    let glsl_vs = unsafe {
        let s = create(GL_VERTEX_SHADER);
        source(s, 1, &text.as_ptr(), std::ptr::null());
        compile(s);
        s
    };
    let (_, linked) = link(&[glsl_vs, fs]);
    assert!(!linked, "GLSL and SPIR-V in one program");
    // A SPIR-V shader not specialized does not link.
    let vs = binary_shader(GL_VERTEX_SHADER, VERTEX);
    let (_, linked) = link(&[vs, fs]);
    assert!(!linked, "an unspecialized shader");
    expect(GL_NO_ERROR);
}

/// Deterministic words (xorshift).
fn noise(seed: u32, n: usize) -> Vec<u32> {
    let mut x = seed.max(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn hostile_binaries_fail_their_specialization_with_a_log() {
    let _ctx = spirv_context();
    let words: Vec<u32> = FRAGMENT
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut cases: Vec<Vec<u32>> = Vec::new();
    // Truncated at every length: header only, mid-instruction, …
    for len in 5..words.len() {
        cases.push(words[..len].to_vec());
    }
    // A valid header followed by noise; a huge bound; a bad version.
    for seed in 1..40 {
        let mut w = words[..5].to_vec();
        w.extend(noise(seed, 3 + seed as usize * 7));
        cases.push(w);
    }
    let mut huge = words.clone();
    huge[3] = u32::MAX;
    cases.push(huge);
    let mut version = words.clone();
    version[1] = 0x0009_0000;
    cases.push(version);
    // An instruction whose word count runs past the end, and one of zero words.
    for at in [5usize, 9, 20] {
        let mut w = words.clone();
        w[at] |= 0xffff_0000;
        cases.push(w);
        let mut w = words.clone();
        w[at] &= 0x0000_ffff;
        cases.push(w);
    }
    let mut failed = 0;
    for case in &cases {
        let fs = binary_shader(GL_FRAGMENT_SHADER, &bytes(case));
        specialize(fs, c"main", &[]);
        // No GL error beyond `GL_INVALID_VALUE` (no entry point found in what was read).
        let e = gl_harness::error();
        assert!(e == GL_NO_ERROR || e == GL_INVALID_VALUE, "error {e:#x}");
        if shader_iv(fs, GL_COMPILE_STATUS) == 0 {
            failed += 1;
            if e == GL_NO_ERROR {
                assert!(
                    shader_iv(fs, GL_INFO_LOG_LENGTH) > 1,
                    "a failed specialization has a log"
                );
            }
        }
    }
    // Noise after the header and broken instruction lengths never specialize.
    assert!(failed >= 39 + 6, "{failed} of {} failed", cases.len());
}
