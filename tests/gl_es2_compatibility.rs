//! GL_ARB_ES2_compatibility in a desktop core context, through the C ABI: 16.16 `GL_FIXED`
//! vertex attributes (drawn and read back), `GL_RGB565` renderbuffers, the ES 2.0 queries and
//! shader-compiler commands, `glDepthRangef`/`glClearDepthf`, and the draw-buffer rule GL 4.1
//! took from ES (a draw buffer naming no attachment leaves the framebuffer complete, its output
//! discarded). The validation layer must stay silent.

use std::ffi::{c_char, c_void};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{assert_rgba8_near, buffer_with, context, expect, f, program, read_rgba};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_FIXED: u32 = 0x140C;
const GL_FLOAT: u32 = 0x1406;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_TRIANGLE_STRIP: u32 = 0x0005;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_RGB565: u32 = 0x8D62;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;

const VS: &str = "#version 150\n\
    in vec2 position;\n\
    in vec4 colour;\n\
    out vec4 v_colour;\n\
    void main() { gl_Position = vec4(position, 0.0, 1.0); v_colour = colour; }\n";

const FS: &str = "#version 150\n\
    in vec4 v_colour;\n\
    out vec4 result;\n\
    void main() { result = v_colour; }\n";

fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -7;
    // SAFETY: one value into a local.
    unsafe { get(pname, &mut v) };
    v
}

fn floats2(pname: u32) -> [f32; 2] {
    let get = gl!(c"glGetFloatv": fn(u32, *mut f32));
    let mut v = [-7.0; 2];
    // SAFETY: room for the two values GL_DEPTH_RANGE has (one for the others).
    unsafe { get(pname, v.as_mut_ptr()) };
    v
}

fn pixel(x: i32, y: i32) -> [u8; 4] {
    let v = read_rgba(x, y, 1, 1);
    [v[0], v[1], v[2], v[3]]
}

/// 16.16 fixed point.
fn fixed(v: f32) -> i32 {
    (v * 65536.0) as i32
}

/// A vertex array whose attribute 0 is `positions` (2 components) and attribute 1 `colours`
/// (4), each read as `ty` from its own buffer.
fn vertex_array(ty: u32, positions: &[u8], colours: &[u8]) {
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let mut vao = 0;
    // SAFETY: buffer offsets (NULL) into the bound buffers; out-pointer to a local.
    unsafe {
        gen_vao(1, &mut vao);
        bind_vao(vao);
        buffer_with(GL_ARRAY_BUFFER, positions);
        pointer(0, 2, ty, 0, 0, null());
        enable(0);
        buffer_with(GL_ARRAY_BUFFER, colours);
        pointer(1, 4, ty, 0, 0, null());
        enable(1);
    }
}

fn bytes<T: Copy>(v: &[T]) -> Vec<u8> {
    // SAFETY: plain integers/floats, read as their bytes.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
        .to_vec()
}

fn draw_left_half() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain GL calls on the current context.
    unsafe {
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
    expect(GL_NO_ERROR);
}

fn use_program(p: u32) {
    let bind = gl!(c"glBindAttribLocation": fn(u32, u32, *const c_char));
    let link = gl!(c"glLinkProgram": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    // SAFETY: NUL-terminated names.
    unsafe {
        bind(p, 0, c"position".as_ptr());
        bind(p, 1, c"colour".as_ptr());
        link(p);
        use_program(p);
    }
}

/// The left half of the target (x from -1 to 0), as a strip.
const LEFT_HALF: [[f32; 2]; 4] = [[-1.0, -1.0], [0.0, -1.0], [-1.0, 1.0], [0.0, 1.0]];

#[test]
fn fixed_point_attributes_read_as_16_16() {
    let _ctx = context();
    let positions: Vec<i32> = LEFT_HALF.iter().flatten().map(|&v| fixed(v)).collect();
    // 0.25 and 0.75 need the fraction; -3.0 (clamped by the colour buffer) the sign.
    let colour = [fixed(0.25), fixed(0.75), fixed(-3.0), fixed(1.0)];
    let colours: Vec<i32> = (0..4).flat_map(|_| colour).collect();
    vertex_array(GL_FIXED, &bytes(&positions), &bytes(&colours));
    use_program(program(VS, FS));
    draw_left_half();
    assert_rgba8_near(pixel(8, 16), [64, 191, 0, 255], "fixed-point colour");
    assert_eq!(pixel(24, 16), [0, 0, 0, 0], "the right half is not drawn");
    // The same draw from floats gives the same pixels.
    let positions: Vec<f32> = LEFT_HALF.iter().flatten().copied().collect();
    let colours: Vec<f32> = (0..4).flat_map(|_| [0.25, 0.75, -3.0, 1.0]).collect();
    vertex_array(GL_FLOAT, &bytes(&positions), &bytes(&colours));
    draw_left_half();
    assert_rgba8_near(pixel(8, 16), [64, 191, 0, 255], "float colour");
}

#[test]
fn rgb565_renderbuffers_render_and_report_their_sizes() {
    let _ctx = context();
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let get_rb = gl!(c"glGetRenderbufferParameteriv": fn(u32, u32, *mut i32));
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let (mut rb, mut fb) = (0, 0);
    let mut sizes = [0; 4];
    // SAFETY: plain GL calls, out-pointers to locals.
    unsafe {
        gen_rb(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, GL_RGB565, 16, 16);
        for (i, pname) in [0x8D50, 0x8D51, 0x8D52, 0x8D53].into_iter().enumerate() {
            get_rb(GL_RENDERBUFFER, pname, &mut sizes[i]); // GL_RENDERBUFFER_{RED..ALPHA}_SIZE
        }
        gen_fb(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        clear_color(1.0, 0.5, 0.0, 0.25);
        clear(GL_COLOR_BUFFER_BIT);
    }
    expect(GL_NO_ERROR);
    assert_eq!(sizes, [5, 6, 5, 0]);
    // Alpha reads as 1 (the format has none); green 0.5 is 32/63 in 6 bits (130), 128 where
    // the device stores the format with 8 bits a channel (ArenaGL's stand-in, RGBA8).
    let got = pixel(3, 3);
    assert!(
        got[0] == 255 && (127..=131).contains(&got[1]) && got[2] == 0 && got[3] == 255,
        "RGB565 clear: {got:?}"
    );
}

#[test]
fn a_draw_buffer_without_an_attachment_leaves_the_framebuffer_complete() {
    let _ctx = context();
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let draw_buffers = gl!(c"glDrawBuffers": fn(i32, *const u32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let (mut fb, mut rb) = (0, 0);
    // SAFETY: plain GL calls, out-pointers to locals.
    unsafe {
        gen_rb(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, 0x8058, 32, 32); // GL_RGBA8
        gen_fb(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        // Output 0 to attachment 1 (nothing there, discarded), output 1 to attachment 0.
        draw_buffers(2, [GL_COLOR_ATTACHMENT0 + 1, GL_COLOR_ATTACHMENT0].as_ptr());
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    }
    let fs = "#version 150\n\
        in vec4 v_colour;\n\
        out vec4 first;\n\
        out vec4 second;\n\
        void main() { first = vec4(1.0, 0.0, 0.0, 1.0); second = v_colour; }\n";
    let p = program(VS, fs);
    let bind_out = gl!(c"glBindFragDataLocation": fn(u32, u32, *const c_char));
    // SAFETY: NUL-terminated names.
    unsafe {
        bind_out(p, 0, c"first".as_ptr());
        bind_out(p, 1, c"second".as_ptr());
    }
    use_program(p);
    let positions: Vec<f32> = LEFT_HALF.iter().flatten().copied().collect();
    let colours: Vec<f32> = (0..4).flat_map(|_| [0.0, 0.0, 1.0, 1.0]).collect();
    vertex_array(GL_FLOAT, &bytes(&positions), &bytes(&colours));
    draw_left_half();
    assert_eq!(
        pixel(8, 16),
        [0, 0, 255, 255],
        "output 1 reaches attachment 0"
    );
    assert_eq!(pixel(24, 16), [0, 0, 0, 0]);
}

#[test]
fn es2_queries_and_shader_compiler_commands() {
    let _ctx = context();
    let precision = gl!(c"glGetShaderPrecisionFormat": fn(u32, u32, *mut i32, *mut i32));
    let release = gl!(c"glReleaseShaderCompiler": fn());
    let shader_binary = gl!(c"glShaderBinary": fn(i32, *const u32, u32, *const c_void, i32));
    let depth_range = gl!(c"glDepthRangef": fn(f32, f32));
    let clear_depth = gl!(c"glClearDepthf": fn(f32));
    let (mut range, mut bits) = ([0; 2], 0);
    // SAFETY: out-pointers to locals; glShaderBinary is told of no shader and no bytes.
    unsafe {
        precision(0x8B30, 0x8DF2, range.as_mut_ptr(), &mut bits); // FRAGMENT, HIGH_FLOAT
        assert_eq!((range, bits), ([127, 127], 23), "IEEE single precision");
        precision(0x8B31, 0x8DF5, range.as_mut_ptr(), &mut bits); // VERTEX, HIGH_INT
        assert_eq!((range, bits), ([31, 30], 0), "32-bit integers");
        precision(0x8B31, 0x1406, range.as_mut_ptr(), &mut bits);
        expect(GL_INVALID_ENUM);
        release();
        expect(GL_NO_ERROR);
        shader_binary(0, null(), 0x1234, null(), 0);
        expect(GL_INVALID_ENUM);
        depth_range(0.25, 0.75);
        clear_depth(0.5);
    }
    expect(GL_NO_ERROR);
    assert_eq!(floats2(0x0B70), [0.25, 0.75], "GL_DEPTH_RANGE");
    assert_eq!(floats2(0x0B73)[0], 0.5, "GL_DEPTH_CLEAR_VALUE");
    assert_eq!(integer(0x8DFA), 1, "GL_SHADER_COMPILER");
    assert_eq!(integer(0x8DF9), 0, "GL_NUM_SHADER_BINARY_FORMATS");
    // The vector limits are the component limits in vec4s.
    assert_eq!(
        integer(0x8DFC),
        integer(0x8B4B) / 4,
        "GL_MAX_VARYING_VECTORS"
    );
    assert_eq!(
        integer(0x8DFB),
        integer(0x8B4A) / 4,
        "GL_MAX_VERTEX_UNIFORM_VECTORS"
    );
    assert_eq!(
        integer(0x8DFD),
        integer(0x8B49) / 4,
        "GL_MAX_FRAGMENT_UNIFORM_VECTORS"
    );
    assert!(integer(0x8DFC) >= 15 && integer(0x8DFB) >= 256);
    // The read format and type it names read the framebuffer.
    let (format, ty) = (integer(0x8B9B) as u32, integer(0x8B9A) as u32);
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 16];
    // SAFETY: room for one pixel of any colour format and type.
    unsafe { read(0, 0, 1, 1, format, ty, px.as_mut_ptr().cast()) };
    expect(GL_NO_ERROR);
}
