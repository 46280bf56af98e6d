//! GL extensions through the C ABI, one test each: GL_ARB_draw_buffers_blend (per-draw-buffer
//! blend factors and equations), GL_ARB_blend_func_extended (dual-source blending, fragment
//! output indices), GL_EXT_provoking_vertex (which vertex feeds flat outputs), GL_EXT_draw_buffers2
//! (its names for the GL 3.0 indexed calls) and GL_ARB_window_pos (compatibility contexts only). Each checks
//! the advertised name, the entry points (with their suffixed aliases), the queries, the
//! errors the specification lists, and rendered pixels. The blends use values of the form k/255
//! whose results are exact in 8 bits, so the expected bytes are written out (llvmpipe renders
//! the same bytes); the validation layer must stay silent.

use std::ffi::{c_char, c_void, CStr};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: u32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_TRIANGLES: u32 = 0x0004;
const GL_BLEND: u32 = 0x0BE2;
const GL_ZERO: u32 = 0;
const GL_ONE: u32 = 1;
const GL_SRC_ALPHA: u32 = 0x0302;
const GL_ONE_MINUS_SRC_ALPHA: u32 = 0x0303;
const GL_SRC1_COLOR: u32 = 0x88F9;
const GL_ONE_MINUS_SRC1_COLOR: u32 = 0x88FA;
const GL_FUNC_ADD: u32 = 0x8006;
const GL_MAX: u32 = 0x8008;
const GL_FUNC_SUBTRACT: u32 = 0x800A;
const GL_FUNC_REVERSE_SUBTRACT: u32 = 0x800B;
const GL_BLEND_DST_RGB: u32 = 0x80C8;
const GL_BLEND_SRC_RGB: u32 = 0x80C9;
const GL_BLEND_DST_ALPHA: u32 = 0x80CA;
const GL_BLEND_SRC_ALPHA: u32 = 0x80CB;
const GL_BLEND_EQUATION_RGB: u32 = 0x8009;
const GL_BLEND_EQUATION_ALPHA: u32 = 0x883D;
const GL_MAX_DUAL_SOURCE_DRAW_BUFFERS: u32 = 0x88FC;
const GL_PROVOKING_VERTEX: u32 = 0x8E4F;
const GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION: u32 = 0x8E4C;
const GL_FIRST_VERTEX_CONVENTION: u32 = 0x8E4D;
const GL_LAST_VERTEX_CONVENTION: u32 = 0x8E4E;

/// A full-screen triangle from `gl_VertexID`.
const FULLSCREEN_VS: &str = "#version 330 core\nvoid main() { vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1)); gl_Position = vec4(p, 0.0, 1.0); }\n";

fn has_extension(name: &str) -> bool {
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let get_stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    let mut n = 0;
    // SAFETY: out-pointer to a local; the strings are NUL-terminated and live with the context.
    unsafe {
        get_integer(GL_NUM_EXTENSIONS, &mut n);
        (0..n as u32)
            .any(|i| CStr::from_ptr(get_stringi(GL_EXTENSIONS, i)).to_bytes() == name.as_bytes())
    }
}

fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get(pname, &mut v) };
    v
}

fn integer_indexed(pname: u32, index: u32) -> i32 {
    let get = gl!(c"glGetIntegeri_v": fn(u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get(pname, index, &mut v) };
    v
}

/// The six blend values of draw buffer `i`: src/dst RGB, src/dst alpha, RGB/alpha equations.
fn blend_state(i: u32) -> [u32; 6] {
    [
        GL_BLEND_SRC_RGB,
        GL_BLEND_DST_RGB,
        GL_BLEND_SRC_ALPHA,
        GL_BLEND_DST_ALPHA,
        GL_BLEND_EQUATION_RGB,
        GL_BLEND_EQUATION_ALPHA,
    ]
    .map(|p| integer_indexed(p, i) as u32)
}

/// A 16×16 framebuffer of `n` RGBA8 colour renderbuffers, bound, every one a draw buffer.
fn fbo(n: usize) -> u32 {
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let draw_buffers = gl!(c"glDrawBuffers": fn(i32, *const u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        let mut fb = 0;
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        let mut rbs = vec![0u32; n];
        gen_rbs(n as i32, rbs.as_mut_ptr());
        for (i, &rb) in rbs.iter().enumerate() {
            bind_rb(GL_RENDERBUFFER, rb);
            storage(GL_RENDERBUFFER, GL_RGBA8, 16, 16);
            attach(
                GL_FRAMEBUFFER,
                GL_COLOR_ATTACHMENT0 + i as u32,
                GL_RENDERBUFFER,
                rb,
            );
        }
        let bufs: Vec<u32> = (0..n as u32).map(|i| GL_COLOR_ATTACHMENT0 + i).collect();
        draw_buffers(n as i32, bufs.as_ptr());
        viewport(0, 0, 16, 16);
        fb
    }
}

/// Pixel (x, y) of colour attachment `i` of the bound framebuffer.
fn pixel(i: u32, x: i32, y: i32) -> [u8; 4] {
    let read_buffer = gl!(c"glReadBuffer": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 4];
    // SAFETY: `px` holds one RGBA8 pixel.
    unsafe {
        read_buffer(GL_COLOR_ATTACHMENT0 + i);
        read(
            x,
            y,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
    }
    px
}

/// Clears every draw buffer to `c` (bytes).
fn clear(c: [u8; 4]) {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let c = c.map(|v| f32::from(v) / 255.0);
    // SAFETY: plain values.
    unsafe {
        clear_color(c[0], c[1], c[2], c[3]);
        clear(GL_COLOR_BUFFER_BIT);
    }
}

/// Uses `p` and draws the full-screen triangle.
fn draw(p: u32) {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: out-pointer to a local; plain values.
    unsafe {
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(p);
        draw_arrays(GL_TRIANGLES, 0, 3);
    }
}

#[track_caller]
fn assert_near(got: [u8; 4], want: [u8; 4], what: &str) {
    let close = got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 1);
    assert!(close, "{what}: got {got:?}, want {want:?}");
}

#[test]
fn draw_buffers_blend_sets_each_buffer_and_blends_it() {
    let _ctx = context();
    assert!(has_extension("GL_ARB_draw_buffers_blend"));
    let blend_func = gl!(c"glBlendFunc": fn(u32, u32));
    let blend_equation = gl!(c"glBlendEquation": fn(u32));
    let blend_funci = gl!(c"glBlendFunci": fn(u32, u32, u32));
    let blend_func_separatei = gl!(c"glBlendFuncSeparateiARB": fn(u32, u32, u32, u32, u32));
    let blend_equationi = gl!(c"glBlendEquationiARB": fn(u32, u32));
    let blend_equation_separatei = gl!(c"glBlendEquationSeparatei": fn(u32, u32, u32));
    let enable = gl!(c"glEnable": fn(u32));
    let initial = [GL_ONE, GL_ZERO, GL_ONE, GL_ZERO, GL_FUNC_ADD, GL_FUNC_ADD];
    // SAFETY: plain values.
    unsafe {
        // State: one buffer at a time, and the non-indexed commands set them all.
        blend_func_separatei(1, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ZERO);
        blend_equation_separatei(1, GL_FUNC_SUBTRACT, GL_MAX);
        expect(GL_NO_ERROR);
        assert_eq!(blend_state(0), initial);
        assert_eq!(
            blend_state(1),
            [
                GL_SRC_ALPHA,
                GL_ONE_MINUS_SRC_ALPHA,
                GL_ONE,
                GL_ZERO,
                GL_FUNC_SUBTRACT,
                GL_MAX
            ]
        );
        assert_eq!(blend_state(7), initial);
        assert_eq!(integer(GL_BLEND_SRC_RGB) as u32, GL_ONE, "draw buffer 0's");
        blend_func(GL_ONE, GL_ZERO);
        blend_equation(GL_FUNC_ADD);
        assert_eq!(
            blend_state(1),
            initial,
            "glBlendFunc/glBlendEquation set every buffer"
        );

        // Errors: a buffer past GL_MAX_DRAW_BUFFERS, unknown factors and equations.
        blend_funci(8, GL_ONE, GL_ONE);
        expect(GL_INVALID_VALUE);
        blend_equationi(8, GL_FUNC_ADD);
        expect(GL_INVALID_VALUE);
        blend_funci(0, 0x1234, GL_ONE);
        expect(GL_INVALID_ENUM);
        blend_equationi(0, GL_ONE);
        expect(GL_INVALID_ENUM);
        assert_eq!(blend_state(0), initial, "a failed command changes nothing");
        integer_indexed(GL_BLEND_SRC_RGB, 8);
        expect(GL_INVALID_VALUE);

        // Pixels: the same colour into two draw buffers, blended differently.
        let _fb = fbo(2);
        clear([64, 64, 64, 64]);
        let p = gl_harness::program(
            FULLSCREEN_VS,
            "#version 330 core\nlayout(location = 0) out vec4 a;\nlayout(location = 1) out vec4 b;\nvoid main() { a = vec4(32.0, 64.0, 96.0, 128.0) / 255.0; b = a; }\n",
        );
        enable(GL_BLEND);
        blend_funci(0, GL_ONE, GL_ONE);
        blend_equationi(0, GL_FUNC_ADD);
        blend_funci(1, GL_ONE, GL_ONE);
        blend_equation_separatei(1, GL_FUNC_REVERSE_SUBTRACT, GL_MAX);
        draw(p);
        expect(GL_NO_ERROR);
    }
    // Buffer 0: src + dst. Buffer 1: dst - src (clamped) for RGB, max(src, dst) for alpha.
    assert_near(pixel(0, 8, 8), [96, 128, 160, 192], "draw buffer 0");
    assert_near(pixel(1, 8, 8), [32, 0, 0, 128], "draw buffer 1");
}

#[test]
fn blend_func_extended_binds_index_one_and_blends_two_sources() {
    let _ctx = context();
    assert!(has_extension("GL_ARB_blend_func_extended"));
    assert_eq!(integer(GL_MAX_DUAL_SOURCE_DRAW_BUFFERS), 1);
    let bind_indexed = gl!(c"glBindFragDataLocationIndexed": fn(u32, u32, u32, *const c_char));
    let get_index = gl!(c"glGetFragDataIndex": fn(u32, *const c_char) -> i32);
    let get_location = gl!(c"glGetFragDataLocation": fn(u32, *const c_char) -> i32);
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let blend_func = gl!(c"glBlendFunc": fn(u32, u32));
    let enable = gl!(c"glEnable": fn(u32));
    let draw_buffers = gl!(c"glDrawBuffers": fn(i32, *const u32));
    // Outputs named by the shader (layout index) and by the API before linking.
    let by_layout = gl_harness::program_with(
        FULLSCREEN_VS,
        "#version 330 core\nlayout(location = 0, index = 0) out vec4 c0;\nlayout(location = 0, index = 1) out vec4 c1;\nvoid main() { c0 = vec4(64.0 / 255.0); c1 = vec4(1.0, 0.0, 1.0, 0.0); }\n",
        |_| {},
    );
    let by_api = gl_harness::program_with(
        FULLSCREEN_VS,
        "#version 330 core\nout vec4 col0;\nout vec4 col1;\nvoid main() { col0 = vec4(64.0 / 255.0); col1 = vec4(1.0, 0.0, 1.0, 0.0); }\n",
        |p| {
            // SAFETY: NUL-terminated names.
            unsafe {
                bind_indexed(p, 0, 0, c"col0".as_ptr());
                bind_indexed(p, 0, 1, c"col1".as_ptr());
            }
        },
    );
    // SAFETY: NUL-terminated names; plain values.
    unsafe {
        assert_eq!(get_index(by_layout, c"c1".as_ptr()), 1);
        assert_eq!(get_index(by_layout, c"c0".as_ptr()), 0);
        assert_eq!(
            get_index(by_api, c"col1".as_ptr()),
            1,
            "bound before the link"
        );
        assert_eq!(get_location(by_api, c"col1".as_ptr()), 0);
        assert_eq!(get_index(by_api, c"col0".as_ptr()), 0);
        assert_eq!(get_index(by_api, c"nothing".as_ptr()), -1);
        expect(GL_NO_ERROR);

        // Errors: index past 1, a colour past GL_MAX_DUAL_SOURCE_DRAW_BUFFERS for index 1, a
        // reserved name, and a query of a program that is not linked.
        bind_indexed(by_api, 0, 2, c"col1".as_ptr());
        expect(GL_INVALID_VALUE);
        bind_indexed(by_api, 1, 1, c"col1".as_ptr());
        expect(GL_INVALID_VALUE);
        bind_indexed(by_api, 8, 0, c"col0".as_ptr());
        expect(GL_INVALID_VALUE);
        bind_indexed(by_api, 0, 0, c"gl_thing".as_ptr());
        expect(GL_INVALID_OPERATION);
        let unlinked = create_program();
        assert_eq!(get_index(unlinked, c"col1".as_ptr()), -1);
        expect(GL_INVALID_OPERATION);

        // Pixels: c0 * c1 + dst * (1 - c1) with c1 = (1, 0, 1, 0).
        let _fb = fbo(1);
        enable(GL_BLEND);
        blend_func(GL_SRC1_COLOR, GL_ONE_MINUS_SRC1_COLOR);
        for (p, what) in [
            (by_layout, "layout(index = 1)"),
            (by_api, "glBindFragDataLocationIndexed"),
        ] {
            clear([128, 128, 128, 128]);
            draw(p);
            expect(GL_NO_ERROR);
            assert_near(pixel(0, 8, 8), [64, 128, 64, 128], what);
        }

        // More active draw buffers than GL_MAX_DUAL_SOURCE_DRAW_BUFFERS: the draw is refused.
        let _fb2 = fbo(2);
        draw(by_layout);
        expect(GL_INVALID_OPERATION);
        // With one of the two draw buffers active it draws again.
        let bufs = [GL_COLOR_ATTACHMENT0, 0];
        draw_buffers(1, bufs.as_ptr());
        draw(by_layout);
        expect(GL_NO_ERROR);
    }
    let _ = error();
}

/// piglit arb_blend_func_extended-output-location: an index-1 output at a location of
/// GL_MAX_DUAL_SOURCE_DRAW_BUFFERS (1) or above fails the link; at location 0 it links.
#[test]
fn blend_func_extended_index_one_past_the_dual_source_buffers_fails_the_link() {
    let _ctx = context();
    let fs = |location: u32| {
        format!(
            "#version 150\n#extension GL_ARB_explicit_attrib_location : require\nlayout(location = 0, index = 0) out vec4 a;\nlayout(location = {location}, index = 1) out vec4 b;\nvoid main() {{ a = vec4(0.0); b = vec4(1.0); }}\n"
        )
    };
    assert!(
        gl_harness::try_program_with(FULLSCREEN_VS, &fs(0), |_| {}).1,
        "index 1 at location 0"
    );
    assert!(
        !gl_harness::try_program_with(FULLSCREEN_VS, &fs(1), |_| {}).1,
        "index 1 at location 1"
    );
    expect(GL_NO_ERROR);
}

#[test]
fn provoking_vertex_picks_the_flat_output() {
    let _ctx = context();
    assert!(has_extension("GL_EXT_provoking_vertex"));
    let provoking = gl!(c"glProvokingVertexEXT": fn(u32));
    let get_boolean = gl!(c"glGetBooleanv": fn(u32, *mut u8));
    let p = gl_harness::program(
        "#version 330 core\nflat out vec4 c;\nvoid main() { vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1)); gl_Position = vec4(p, 0.0, 1.0); c = vec4(gl_VertexID == 0, gl_VertexID == 1, gl_VertexID == 2, 1.0); }\n",
        "#version 330 core\nflat in vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n",
    );
    let _fb = fbo(1);
    // GL's default: the last vertex (vertex 2, blue).
    assert_eq!(
        integer(GL_PROVOKING_VERTEX) as u32,
        GL_LAST_VERTEX_CONVENTION
    );
    clear([0, 0, 0, 0]);
    draw(p);
    assert_eq!(pixel(0, 8, 8), [0, 0, 255, 255], "last-vertex convention");
    // SAFETY: plain values; out-pointer to a local.
    unsafe {
        provoking(GL_FIRST_VERTEX_CONVENTION);
        assert_eq!(
            integer(GL_PROVOKING_VERTEX) as u32,
            GL_FIRST_VERTEX_CONVENTION
        );
        clear([0, 0, 0, 0]);
        draw(p);
        assert_eq!(pixel(0, 8, 8), [255, 0, 0, 255], "first-vertex convention");
        provoking(GL_TRIANGLES);
        expect(GL_INVALID_ENUM);
        assert_eq!(
            integer(GL_PROVOKING_VERTEX) as u32,
            GL_FIRST_VERTEX_CONVENTION
        );
        // Only GL 3.2 core and compatibility contexts have this query.
        let mut quads = 7u8;
        get_boolean(GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION, &mut quads);
        expect(GL_INVALID_ENUM);
        assert_eq!(quads, 7);
    }
}

const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_COPY_READ_BUFFER: u32 = 0x8F36;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_FLOAT: u32 = 0x1406;
const GL_MAP_READ_BIT: u32 = 0x0001;
const GL_MAP_WRITE_BIT: u32 = 0x0002;
const GL_MAP_PERSISTENT_BIT: u32 = 0x0040;
const GL_MAP_COHERENT_BIT: u32 = 0x0080;
const GL_DYNAMIC_STORAGE_BIT: u32 = 0x0100;
const GL_BUFFER_IMMUTABLE_STORAGE: u32 = 0x821F;
const GL_BUFFER_STORAGE_FLAGS: u32 = 0x8220;
const GL_SYNC_GPU_COMMANDS_COMPLETE: u32 = 0x9117;
const GL_SYNC_FLUSH_COMMANDS_BIT: u32 = 0x0001;
const GL_CONDITION_SATISFIED: u32 = 0x911C;
const GL_ALREADY_SIGNALED: u32 = 0x911A;
const GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT: u32 = 0x4000;

fn buffer_parameter(target: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetBufferParameteriv": fn(u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get(target, pname, &mut v) };
    v
}

/// Draws the full-screen triangle with every vertex's colour read from `vbo` (one vec4 per
/// vertex) and returns pixel (8, 8) of the bound framebuffer.
fn draw_colours(p: u32, vbo: u32) -> [u8; 4] {
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable_array = gl!(c"glEnableVertexAttribArray": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: out-pointer to a local; the attribute reads the bound buffer at offset 0.
    unsafe {
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        bind(GL_ARRAY_BUFFER, vbo);
        pointer(0, 4, GL_FLOAT, 0, 16, std::ptr::null());
        enable_array(0);
        use_program(p);
        clear([0, 0, 0, 0]);
        draw_arrays(GL_TRIANGLES, 0, 3);
    }
    pixel(0, 8, 8)
}

/// Writes three copies of `c` through a mapping's pointer.
///
/// # Safety
/// `ptr` points at 48 writable bytes.
unsafe fn write_colours(ptr: *mut c_void, c: [f32; 4]) {
    let floats: Vec<f32> = (0..3).flat_map(|_| c).collect();
    // SAFETY: the caller's contract; 12 floats are 48 bytes.
    unsafe { std::ptr::copy_nonoverlapping(floats.as_ptr(), ptr.cast::<f32>(), floats.len()) };
}

#[test]
fn buffer_storage_is_immutable_and_maps_persistently() {
    let _ctx = context();
    assert!(has_extension("GL_ARB_buffer_storage"));
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let storage = gl!(c"glBufferStorage": fn(u32, isize, *const c_void, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let sub_data = gl!(c"glBufferSubData": fn(u32, isize, isize, *const c_void));
    let map_range = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    let copy = gl!(c"glCopyBufferSubData": fn(u32, u32, isize, isize, isize));
    let fence = gl!(c"glFenceSync": fn(u32, u32) -> *const c_void);
    let client_wait = gl!(c"glClientWaitSync": fn(*const c_void, u32, u64) -> u32);
    let memory_barrier = gl!(c"glMemoryBarrier": fn(u32));
    let persistent =
        GL_MAP_WRITE_BIT | GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    let bytes = [7u8; 48];
    // SAFETY: out-pointers to locals; data pointers cover the sizes given; mapped pointers are
    // used only while mapped and within their ranges.
    unsafe {
        let mut bufs = [0u32; 3];
        gen(3, bufs.as_mut_ptr());
        let [vbo, fixed, source] = bufs;

        // Errors: nothing bound, bad flags and sizes, and immutability.
        bind(GL_ARRAY_BUFFER, 0);
        storage(GL_ARRAY_BUFFER, 48, std::ptr::null(), 0);
        expect(GL_INVALID_OPERATION);
        bind(GL_ARRAY_BUFFER, fixed);
        storage(GL_ARRAY_BUFFER, 0, std::ptr::null(), 0);
        expect(GL_INVALID_VALUE);
        storage(GL_ARRAY_BUFFER, 48, std::ptr::null(), 0x400);
        expect(GL_INVALID_VALUE);
        storage(GL_ARRAY_BUFFER, 48, std::ptr::null(), GL_MAP_PERSISTENT_BIT);
        expect(GL_INVALID_VALUE);
        storage(
            GL_ARRAY_BUFFER,
            48,
            std::ptr::null(),
            GL_MAP_WRITE_BIT | GL_MAP_COHERENT_BIT,
        );
        expect(GL_INVALID_VALUE);
        assert_eq!(
            buffer_parameter(GL_ARRAY_BUFFER, GL_BUFFER_IMMUTABLE_STORAGE),
            0
        );
        storage(GL_ARRAY_BUFFER, 48, bytes.as_ptr().cast(), GL_MAP_WRITE_BIT);
        expect(GL_NO_ERROR);
        assert_eq!(
            buffer_parameter(GL_ARRAY_BUFFER, GL_BUFFER_IMMUTABLE_STORAGE),
            1
        );
        assert_eq!(
            buffer_parameter(GL_ARRAY_BUFFER, GL_BUFFER_STORAGE_FLAGS) as u32,
            GL_MAP_WRITE_BIT
        );
        storage(GL_ARRAY_BUFFER, 48, std::ptr::null(), GL_MAP_WRITE_BIT);
        expect(GL_INVALID_OPERATION);
        data(GL_ARRAY_BUFFER, 48, std::ptr::null(), GL_STATIC_DRAW);
        expect(GL_INVALID_OPERATION);
        sub_data(GL_ARRAY_BUFFER, 0, 4, bytes.as_ptr().cast());
        expect(GL_INVALID_OPERATION);
        assert!(map_range(GL_ARRAY_BUFFER, 0, 48, GL_MAP_READ_BIT).is_null());
        expect(GL_INVALID_OPERATION);
        assert!(map_range(
            GL_ARRAY_BUFFER,
            0,
            48,
            GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT
        )
        .is_null());
        expect(GL_INVALID_OPERATION);
        // Mutable storage reports what glBufferData implies and cannot be mapped persistently.
        bind(GL_ARRAY_BUFFER, source);
        data(GL_ARRAY_BUFFER, 48, std::ptr::null(), GL_STATIC_DRAW);
        assert_eq!(
            buffer_parameter(GL_ARRAY_BUFFER, GL_BUFFER_IMMUTABLE_STORAGE),
            0
        );
        assert_eq!(
            buffer_parameter(GL_ARRAY_BUFFER, GL_BUFFER_STORAGE_FLAGS) as u32,
            GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_DYNAMIC_STORAGE_BIT
        );
        assert!(map_range(
            GL_ARRAY_BUFFER,
            0,
            48,
            GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT
        )
        .is_null());
        expect(GL_INVALID_OPERATION);

        // A persistent, coherent vertex buffer: each draw sees what was written through the
        // pointer before it, with the buffer mapped all along.
        let p = gl_harness::program(
            "#version 330 core\nlayout(location = 0) in vec4 colour;\nout vec4 c;\nvoid main() { vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1)); gl_Position = vec4(p, 0.0, 1.0); c = colour; }\n",
            "#version 330 core\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n",
        );
        let _fb = fbo(1);
        bind(GL_ARRAY_BUFFER, vbo);
        storage(
            GL_ARRAY_BUFFER,
            48,
            std::ptr::null(),
            persistent | GL_DYNAMIC_STORAGE_BIT,
        );
        let ptr = map_range(GL_ARRAY_BUFFER, 0, 48, persistent);
        expect(GL_NO_ERROR);
        assert!(!ptr.is_null());
        write_colours(ptr, [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(draw_colours(p, vbo), [255, 0, 0, 255], "first write");
        write_colours(ptr, [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(
            draw_colours(p, vbo),
            [0, 255, 0, 255],
            "second write, still mapped"
        );
        expect(GL_NO_ERROR);

        // GPU writes into the mapped buffer (a copy, and glBufferSubData, which its
        // GL_DYNAMIC_STORAGE_BIT allows) are read through the pointer after a fence.
        let pattern: Vec<u8> = (0..48u8).collect();
        bind(GL_COPY_READ_BUFFER, source);
        sub_data(GL_COPY_READ_BUFFER, 0, 48, pattern.as_ptr().cast());
        copy(GL_COPY_READ_BUFFER, GL_ARRAY_BUFFER, 0, 0, 48);
        expect(GL_NO_ERROR);
        let sync = fence(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        let waited = client_wait(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 5_000_000_000);
        assert!(
            matches!(waited, GL_CONDITION_SATISFIED | GL_ALREADY_SIGNALED),
            "0x{waited:x}"
        );
        let seen = std::slice::from_raw_parts(ptr.cast::<u8>(), 48);
        assert_eq!(
            seen,
            &pattern[..],
            "the copy, through the persistent pointer"
        );
        sub_data(GL_ARRAY_BUFFER, 8, 4, bytes.as_ptr().cast());
        memory_barrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
        let sync = fence(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        client_wait(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 5_000_000_000);
        assert_eq!(
            &seen[8..12],
            &[7, 7, 7, 7],
            "glBufferSubData, through the pointer"
        );
        expect(GL_NO_ERROR);
        assert_eq!(unmap(GL_ARRAY_BUFFER), 1);
        memory_barrier(0x1_0000);
        expect(GL_INVALID_VALUE);
    }
}

/// `eglGetProcAddress` of `name` (NULL when ArenaGL has no such function).
fn proc_address(name: &CStr) -> *const c_void {
    let get = gl!(c"eglGetProcAddress": fn(*const c_char) -> *const c_void);
    // SAFETY: a NUL-terminated name.
    unsafe { get(name.as_ptr()) }
}

#[test]
fn ext_draw_buffers2_names_the_gl_3_0_indexed_calls() {
    let _c = context();
    assert!(has_extension("GL_EXT_draw_buffers2"));
    let pairs = [
        (c"glColorMaskIndexedEXT", c"glColorMaski"),
        (c"glEnableIndexedEXT", c"glEnablei"),
        (c"glDisableIndexedEXT", c"glDisablei"),
        (c"glIsEnabledIndexedEXT", c"glIsEnabledi"),
        (c"glGetBooleanIndexedvEXT", c"glGetBooleani_v"),
        (c"glGetIntegerIndexedvEXT", c"glGetIntegeri_v"),
    ];
    for (ext, core) in pairs {
        let (a, b) = (proc_address(ext), proc_address(core));
        assert!(!a.is_null() && a == b, "{ext:?} resolves to {core:?}");
    }
    // Through the EXT name: draw buffer 1's colour mask, read back per index.
    let mask = gl!(c"glColorMaskIndexedEXT": fn(u32, u8, u8, u8, u8));
    let get = gl!(c"glGetBooleanIndexedvEXT": fn(u32, u32, *mut u8));
    let mut m = [9u8; 4];
    // SAFETY: plain values; room for the four booleans.
    unsafe {
        mask(1, 1, 0, 1, 0);
        get(0x0C23, 1, m.as_mut_ptr()); // GL_COLOR_WRITEMASK
    }
    assert_eq!(m, [1, 0, 1, 0]);
    assert_eq!(error(), GL_NO_ERROR);
}

#[test]
fn window_pos_sets_the_raster_position_in_every_form() {
    const GL_CURRENT_RASTER_POSITION: u32 = 0x0B07;
    let _c = gl_harness::context_profile(true);
    assert!(has_extension("GL_ARB_window_pos"));
    let raster = || {
        let get = gl!(c"glGetFloatv": fn(u32, *mut f32));
        let mut v = [0f32; 4];
        // SAFETY: room for the four floats.
        unsafe { get(GL_CURRENT_RASTER_POSITION, v.as_mut_ptr()) };
        v
    };
    let iv = gl!(c"glWindowPos2iv": fn(*const i32));
    let dv = gl!(c"glWindowPos3dv": fn(*const f64));
    let s3 = gl!(c"glWindowPos3s": fn(i16, i16, i16));
    // SAFETY: arrays of the sizes the calls read.
    unsafe { iv([10, 20].as_ptr()) };
    assert_eq!(raster(), [10.0, 20.0, 0.0, 1.0]);
    // SAFETY: as above.
    unsafe { dv([3.0, 4.0, 0.5].as_ptr()) };
    assert_eq!(
        raster(),
        [3.0, 4.0, 0.5, 1.0],
        "z maps through the depth range"
    );
    // SAFETY: plain values.
    unsafe { s3(7, 8, 1) };
    assert_eq!(raster(), [7.0, 8.0, 1.0, 1.0]);
    // SAFETY: NULL is refused before any read.
    unsafe { iv(std::ptr::null()) };
    expect(GL_INVALID_VALUE);
}

#[test]
fn core_contexts_do_not_offer_window_pos() {
    let _c = context();
    assert!(!has_extension("GL_ARB_window_pos"));
    let f2 = gl!(c"glWindowPos2f": fn(f32, f32));
    // SAFETY: plain values.
    unsafe { f2(1.0, 2.0) };
    expect(GL_INVALID_OPERATION);
}
