//! Findings of the GL fuzzer (`tests/gl_fuzz.rs`, `fuzz/`) and of the targeted probes written
//! around them, each reduced to the few GL calls that show it: one test per finding, named for
//! the bug. They fail until the bug is fixed, so each is `#[ignore]`d with the finding in one
//! line; un-ignore it with the fix, and drop the finding's entry from `KNOWN_FINDINGS` in
//! `tests/gl_fuzz_ops/mod.rs` (which keeps the fuzzers away from it meanwhile) where it has one.
//!
//! Every test runs on a fresh 3.3 core context on a 32×32 pbuffer and ends with what the fuzzer
//! checks after every stream: no new validation-layer errors (run with `ARENAGL_VALIDATION=1`, as
//! CI does) and a known-good draw that reads back its colour.

use std::ffi::c_void;
use std::ptr::{null, null_mut};
use std::sync::{Mutex, MutexGuard, PoisonError};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{error, f, make_current_pbuffer, program, validation_errors};

static SERIAL: Mutex<()> = Mutex::new(());

/// A current context for the test's duration; `check` is the fuzzer's end-of-stream check.
struct Current {
    _guard: MutexGuard<'static, ()>,
    validation_before: u64,
}

fn context() -> Current {
    let guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    make_current_pbuffer();
    Current {
        _guard: guard,
        validation_before: validation_errors(),
    }
}

/// A full-screen triangle from `gl_VertexID`.
const FULLSCREEN_VS: &str = "#version 330 core\nvoid main() { vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1)); gl_Position = vec4(p, 0.0, 1.0); }\n";
const CONSTANT_FS: &str =
    "#version 330 core\nout vec4 color;\nvoid main() { color = vec4(0.2, 0.4, 0.6, 0.8); }\n";

/// A program drawing the full-screen triangle with `fs`, used, with a bound VAO.
fn draw_setup(fs: &str) -> u32 {
    let p = program(FULLSCREEN_VS, fs);
    let mut vao = 0;
    // SAFETY: `vao` is a local.
    unsafe {
        gl!(c"glGenVertexArrays": fn(i32, *mut u32))(1, &mut vao);
        gl!(c"glBindVertexArray": fn(u32))(vao);
        gl!(c"glUseProgram": fn(u32))(p);
    }
    p
}

fn draw_arrays(mode: u32, first: i32, count: i32) {
    // SAFETY: scalars.
    unsafe { gl!(c"glDrawArrays": fn(u32, i32, i32))(mode, first, count) };
}

fn finish() {
    // SAFETY: no arguments.
    unsafe { gl!(c"glFinish": fn())() };
}

impl Current {
    /// The fuzzer's end-of-stream check: nothing new from the validation layer, and a known-good
    /// draw (state reset first) reads back its colour.
    #[track_caller]
    fn check(self) {
        finish();
        let fresh = validation_errors() - self.validation_before;
        assert_eq!(fresh, 0, "validation errors (see stderr)");
        let mut px = [0u8; 4];
        draw_setup(CONSTANT_FS);
        // SAFETY: `px` holds one RGBA8 pixel.
        unsafe {
            for cap in [0x0BE2, 0x0B44, 0x0B71, 0x0B90, 0x0C11, 0x8C89] {
                gl!(c"glDisable": fn(u32))(cap);
            }
            gl!(c"glBindFramebuffer": fn(u32, u32))(0x8D40, 0);
            gl!(c"glDepthRange": fn(f64, f64))(0.0, 1.0);
            gl!(c"glViewport": fn(i32, i32, i32, i32))(0, 0, 32, 32);
            gl!(c"glColorMask": fn(u8, u8, u8, u8))(1, 1, 1, 1);
            draw_arrays(4, 0, 3);
            gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void))(
                16,
                16,
                1,
                1,
                0x1908,
                0x1401,
                px.as_mut_ptr().cast(),
            );
        }
        assert_eq!(error(), 0, "the known-good draw");
        assert_eq!(px, [51, 102, 153, 204], "the known-good draw's pixel");
        assert_eq!(
            validation_errors() - self.validation_before,
            0,
            "validation errors (see stderr)"
        );
    }
}

#[test]
fn dual_source_blend_factors_need_the_dual_src_blend_feature() {
    let ctx = context();
    draw_setup(CONSTANT_FS);
    // SAFETY: scalars.
    unsafe {
        gl!(c"glEnable": fn(u32))(0x0BE2); // GL_BLEND
        gl!(c"glBlendFunc": fn(u32, u32))(0x88F9, 0x88FA); // GL_SRC1_COLOR, GL_ONE_MINUS_SRC1_COLOR
    }
    assert_eq!(error(), 0);
    draw_arrays(4, 0, 3);
    ctx.check();
}

#[test]
fn nan_depth_range_reaches_the_vulkan_viewport() {
    let ctx = context();
    draw_setup(CONSTANT_FS);
    // SAFETY: scalars.
    unsafe { gl!(c"glDepthRange": fn(f64, f64))(0.0, f64::NAN) };
    draw_arrays(4, 0, 3);
    ctx.check();
}

#[test]
fn nan_clear_depth_reaches_the_vulkan_clear_value() {
    let ctx = context();
    // SAFETY: scalars.
    unsafe {
        gl!(c"glClearDepth": fn(f64))(f64::NAN);
        gl!(c"glClear": fn(u32))(0x0100); // GL_DEPTH_BUFFER_BIT
    }
    ctx.check();
}

#[test]
fn integer_sampler_on_an_incomplete_texture_gets_a_unorm_view() {
    let ctx = context();
    draw_setup(
        "#version 330 core\nuniform usampler2D utex;\nout vec4 color;\nvoid main() { color = vec4(texture(utex, vec2(0.5))) * 0.0 + vec4(0.2, 0.4, 0.6, 0.8); }\n",
    );
    draw_arrays(4, 0, 3);
    ctx.check();
}

#[test]
fn points_without_a_point_size_write_build_an_invalid_pipeline() {
    let ctx = context();
    draw_setup(CONSTANT_FS);
    draw_arrays(0, 0, 3); // GL_POINTS; glPointSize (default 1) applies.
    assert_eq!(error(), 0);
    ctx.check();
}

/// A VAO whose attribute 0 (`vec2 pos`) reads `GL_FLOAT`×2 at `stride` and `offset` from a
/// buffer of zeros, and a program that draws it in the known colour.
fn attribute_setup(stride: i32, offset: usize) {
    let p = program(
        "#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
        CONSTANT_FS,
    );
    let zeros = [0u8; 256];
    let (mut vao, mut vbo) = (0, 0);
    // SAFETY: locals; `zeros` holds the 256 bytes given to glBufferData; the attribute pointer is
    // an offset into the bound buffer.
    unsafe {
        gl!(c"glGenVertexArrays": fn(i32, *mut u32))(1, &mut vao);
        gl!(c"glBindVertexArray": fn(u32))(vao);
        gl!(c"glGenBuffers": fn(i32, *mut u32))(1, &mut vbo);
        gl!(c"glBindBuffer": fn(u32, u32))(0x8892, vbo);
        gl!(c"glBufferData": fn(u32, isize, *const c_void, u32))(
            0x8892,
            256,
            zeros.as_ptr().cast(),
            0x88E4,
        );
        gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void))(
            0,
            2,
            0x1406,
            0,
            stride,
            offset as *const c_void,
        );
        gl!(c"glEnableVertexAttribArray": fn(u32))(0);
        gl!(c"glUseProgram": fn(u32))(p);
    }
    assert_eq!(error(), 0);
}

#[test]
fn float_attributes_at_an_unaligned_stride_reach_vulkan_unaligned() {
    let ctx = context();
    attribute_setup(9, 0);
    draw_arrays(4, 0, 3);
    ctx.check();
}

#[test]
fn float_attributes_at_an_unaligned_offset_reach_vulkan_unaligned() {
    let ctx = context();
    attribute_setup(8, 2);
    draw_arrays(4, 0, 3);
    ctx.check();
}

/// Draws the full-screen triangle with a program reading `ivec2 ids` at location 2, whose
/// array `set_pointer` specifies from a 64-byte buffer of zeros, then runs the fuzzer's check.
fn draw_with_integer_input(set_pointer: impl FnOnce()) {
    let ctx = context();
    draw_with_integer_input_setup(set_pointer);
    draw_arrays(4, 0, 3);
    assert_eq!(error(), 0);
    ctx.check();
}

/// The program, buffer and array of [`draw_with_integer_input`], ready to draw.
fn draw_with_integer_input_setup(set_pointer: impl FnOnce()) {
    let p = program(
        "#version 330 core\nlayout(location = 2) in ivec2 ids;\nvoid main() { vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1)); gl_Position = vec4(p + vec2(ids) * 0.0, 0.0, 1.0); }\n",
        CONSTANT_FS,
    );
    let zeros = [0u8; 64];
    let (mut vao, mut vbo) = (0, 0);
    // SAFETY: locals; `zeros` holds the 64 bytes given to glBufferData.
    unsafe {
        gl!(c"glGenVertexArrays": fn(i32, *mut u32))(1, &mut vao);
        gl!(c"glBindVertexArray": fn(u32))(vao);
        gl!(c"glGenBuffers": fn(i32, *mut u32))(1, &mut vbo);
        gl!(c"glBindBuffer": fn(u32, u32))(0x8892, vbo);
        gl!(c"glBufferData": fn(u32, isize, *const c_void, u32))(
            0x8892,
            64,
            zeros.as_ptr().cast(),
            0x88E4,
        );
    }
    set_pointer();
    // SAFETY: scalars.
    unsafe {
        gl!(c"glEnableVertexAttribArray": fn(u32))(2);
        gl!(c"glUseProgram": fn(u32))(p);
    }
}

#[test]
fn integer_attribute_formats_follow_the_call_not_the_shader_input() {
    // GL_UNSIGNED_BYTE through glVertexAttribIPointer into `ivec2 ids`.
    // SAFETY: the pointer is an offset into the bound buffer.
    draw_with_integer_input(|| unsafe {
        gl!(c"glVertexAttribIPointer": fn(u32, i32, u32, i32, *const c_void))(
            2,
            2,
            0x1401,
            0,
            null(),
        );
    });
}

/// Found by the fuzzer: an integer array widened to 32 bits (`GL_UNSIGNED_BYTE` through
/// glVertexAttribIPointer into an `ivec2`) reserved room for every vertex up to the draw's last
/// index before checking the buffer holds them: a draw reaching vertex 2^31 aborted the process
/// allocating 34 GB.
#[test]
fn widened_integer_arrays_check_the_draw_range_before_allocating() {
    let ctx = context();
    draw_with_integer_input_setup(|| {
        // SAFETY: the pointer is an offset into the bound buffer.
        unsafe {
            gl!(c"glVertexAttribIPointer": fn(u32, i32, u32, i32, *const c_void))(
                2,
                4,
                0x1401,
                0,
                null(),
            )
        }
    });
    // 2^31 vertices of four 32-bit components: 34 GB.
    draw_arrays(4, 0x7FFF_FFF0, 3);
    // The vertices are past the buffer: ArenaGL refuses the draw rather than read them.
    assert_eq!(error(), 0x0502);
    ctx.check();
}

/// Found by the fuzzer in CI: a 32-bit integer array given with glVertexAttribPointer (read as
/// floats, which Vulkan has no vertex format for) was converted to `R32_SFLOAT` from the
/// buffer's shadow even when the shader input is an integer: a Vulkan interface mismatch.
#[test]
fn converted_float_attributes_do_not_feed_integer_inputs() {
    // GL_INT, not normalized, through glVertexAttribPointer into `ivec2 ids`.
    // SAFETY: the pointer is an offset into the bound buffer.
    draw_with_integer_input(|| unsafe {
        gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void))(
            2,
            1,
            0x1404,
            0,
            0,
            null(),
        );
    });
}

#[test]
fn viewports_outside_the_bounds_range_reach_vulkan() {
    let ctx = context();
    draw_setup(CONSTANT_FS);
    // SAFETY: scalars.
    unsafe { gl!(c"glViewport": fn(i32, i32, i32, i32))(-8, -1_855_760_977, 1, 1) };
    draw_arrays(4, 0, 3);
    // SAFETY: scalars.
    unsafe { gl!(c"glViewport": fn(i32, i32, i32, i32))(-8, 32767, 60, 36) };
    draw_arrays(4, 0, 3);
    assert_eq!(error(), 0);
    ctx.check();
}

#[test]
fn depth_clamp_needs_the_depth_clamp_feature() {
    let ctx = context();
    draw_setup(CONSTANT_FS);
    // SAFETY: scalars.
    unsafe { gl!(c"glEnable": fn(u32))(0x864F) };
    assert_eq!(error(), 0);
    draw_arrays(4, 0, 3);
    ctx.check();
}

/// A framebuffer whose colour attachment is a 32×32 `tex_fmt` texture, left bound to
/// `GL_TEXTURE_2D` on the active unit.
fn framebuffer_with_texture(tex_fmt: i32) -> (u32, u32) {
    let (mut fbo, mut tex) = (0, 0);
    // SAFETY: locals; NULL texture data.
    unsafe {
        gl!(c"glGenTextures": fn(i32, *mut u32))(1, &mut tex);
        gl!(c"glBindTexture": fn(u32, u32))(0x0DE1, tex);
        gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void))(
            0x0DE1,
            0,
            tex_fmt,
            32,
            32,
            0,
            0x1908,
            0x1401,
            null(),
        );
        gl!(c"glTexParameteri": fn(u32, u32, i32))(0x0DE1, 0x2801, 0x2601);
        gl!(c"glGenFramebuffers": fn(i32, *mut u32))(1, &mut fbo);
        gl!(c"glBindFramebuffer": fn(u32, u32))(0x8D40, fbo);
        gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32))(0x8D40, 0x8CE0, 0x0DE1, tex, 0);
    }
    (fbo, tex)
}

#[test]
fn sampling_the_bound_colour_attachment_uses_the_wrong_image_layout() {
    let ctx = context();
    draw_setup(
        "#version 330 core\nuniform sampler2D tex;\nout vec4 color;\nvoid main() { color = texture(tex, gl_FragCoord.xy / 32.0) * 0.5 + vec4(0.1); }\n",
    );
    framebuffer_with_texture(0x8058); // RGBA8, bound to unit 0 and attached.
    draw_arrays(4, 0, 3);
    assert_eq!(error(), 0);
    ctx.check();
}

#[test]
fn blending_skips_integer_colour_buffers() {
    // GL_BLEND on with an RGBA8UI colour buffer: GL skips blending there, and Vulkan forbids
    // enabling it for a format without blend support (VUID-VkGraphicsPipelineCreateInfo-renderPass-06062).
    let ctx = context();
    draw_setup(
        "#version 330 core\nout uvec4 color;\nvoid main() { color = uvec4(7u, 8u, 9u, 10u); }\n",
    );
    let (mut fbo, mut tex) = (0, 0);
    let mut px = [0u32; 4];
    // SAFETY: locals and scalars; NULL texture data; `px` holds one RGBA_INTEGER/UNSIGNED_INT
    // pixel.
    unsafe {
        gl!(c"glGenTextures": fn(i32, *mut u32))(1, &mut tex);
        gl!(c"glBindTexture": fn(u32, u32))(0x0DE1, tex);
        gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void))(
            0x0DE1,
            0,
            0x8D7C,
            32,
            32,
            0,
            0x8D99,
            0x1401,
            null(), // GL_RGBA8UI, GL_RGBA_INTEGER
        );
        gl!(c"glGenFramebuffers": fn(i32, *mut u32))(1, &mut fbo);
        gl!(c"glBindFramebuffer": fn(u32, u32))(0x8D40, fbo);
        gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32))(0x8D40, 0x8CE0, 0x0DE1, tex, 0);
        gl!(c"glEnable": fn(u32))(0x0BE2); // GL_BLEND
        draw_arrays(4, 0, 3);
        gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void))(
            3,
            3,
            1,
            1,
            0x8D99, // GL_RGBA_INTEGER
            0x1405, // GL_UNSIGNED_INT
            px.as_mut_ptr().cast(),
        );
        gl!(c"glDeleteFramebuffers": fn(i32, *const u32))(1, &fbo);
    }
    assert_eq!(error(), 0);
    assert_eq!(px, [7, 8, 9, 10], "the integer colour buffer's pixel");
    ctx.check();
}

/// A program sampling `tex` on unit 0 from a complete 4×4 RGBA8 texture, bound; returns the
/// texture.
fn sampled_texture_setup() -> u32 {
    let p = draw_setup(
        "#version 330 core\nuniform sampler2D tex;\nout vec4 color;\nvoid main() { color = texture(tex, vec2(0.5)) * 0.0 + vec4(0.2, 0.4, 0.6, 0.8); }\n",
    );
    let _ = p;
    let px = [255u8; 4 * 4 * 4];
    let mut t = 0;
    // SAFETY: locals; `px` holds 4×4 RGBA8 pixels.
    unsafe {
        gl!(c"glGenTextures": fn(i32, *mut u32))(1, &mut t);
        gl!(c"glBindTexture": fn(u32, u32))(0x0DE1, t);
        gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void))(
            0x0DE1,
            0,
            0x8058,
            4,
            4,
            0,
            0x1908,
            0x1401,
            px.as_ptr().cast(),
        );
        gl!(c"glTexParameteri": fn(u32, u32, i32))(0x0DE1, 0x2801, 0x2601);
    }
    t
}

#[test]
fn texture_lod_bias_is_not_clamped_to_the_sampler_limit() {
    let ctx = context();
    sampled_texture_setup();
    // SAFETY: scalars.
    unsafe { gl!(c"glTexParameteri": fn(u32, u32, i32))(0x0DE1, 0x8501, 974_221_696) };
    assert_eq!(error(), 0);
    draw_arrays(4, 0, 3);
    ctx.check();
}

#[test]
fn delete_with_a_negative_count_is_an_invalid_value() {
    let ctx = context();
    let name = 0u32;
    // SAFETY: `name` is one readable name; GL rejects n < 0 before reading.
    unsafe {
        gl!(c"glDeleteBuffers": fn(i32, *const u32))(-1, &name);
        assert_eq!(error(), 0x0501, "glDeleteBuffers(-1)");
        gl!(c"glDeleteTextures": fn(i32, *const u32))(-1, &name);
        assert_eq!(error(), 0x0501, "glDeleteTextures(-1)");
        gl!(c"glDeleteVertexArrays": fn(i32, *const u32))(-1, &name);
        assert_eq!(error(), 0x0501, "glDeleteVertexArrays(-1)");
        gl!(c"glDeleteFramebuffers": fn(i32, *const u32))(-1, &name);
        assert_eq!(error(), 0x0501, "glDeleteFramebuffers(-1)");
        gl!(c"glDeleteRenderbuffers": fn(i32, *const u32))(-1, &name);
        assert_eq!(error(), 0x0501, "glDeleteRenderbuffers(-1)");
    }
    ctx.check();
}

#[test]
fn indexed_colour_masks_and_capabilities_ignore_the_index() {
    let ctx = context();
    draw_setup(CONSTANT_FS);
    let mut px = [0u8; 4];
    let mut mask = [9u8; 4];
    // SAFETY: scalars; `px` holds one RGBA8 pixel and `mask` four booleans.
    unsafe {
        gl!(c"glColorMaski": fn(u32, u8, u8, u8, u8))(1, 0, 0, 0, 0);
        gl!(c"glEnablei": fn(u32, u32))(0x0BE2, 1); // GL_BLEND on draw buffer 1
        assert_eq!(error(), 0);
        gl!(c"glGetBooleanv": fn(u32, *mut u8))(0x0C23, mask.as_mut_ptr());
        assert_eq!(mask, [1, 1, 1, 1], "GL_COLOR_WRITEMASK of draw buffer 0");
        assert_eq!(
            gl!(c"glIsEnabled": fn(u32) -> u8)(0x0BE2),
            0,
            "GL_BLEND on draw buffer 0"
        );
        draw_arrays(4, 0, 3);
        gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void))(
            16,
            16,
            1,
            1,
            0x1908,
            0x1401,
            px.as_mut_ptr().cast(),
        );
        assert_eq!(px, [51, 102, 153, 204], "draw buffer 0 was written");
        gl!(c"glEnablei": fn(u32, u32))(0x0BE2, 99);
        assert_eq!(error(), 0x0501, "glEnablei(GL_BLEND, 99)");
        gl!(c"glColorMaski": fn(u32, u8, u8, u8, u8))(99, 1, 1, 1, 1);
        assert_eq!(error(), 0x0501, "glColorMaski(99)");
        gl!(c"glEnablei": fn(u32, u32))(0x0B71, 0);
        assert_eq!(error(), 0x0500, "glEnablei(GL_DEPTH_TEST, 0)");
    }
    ctx.check();
}

#[test]
fn float_readback_size_overflows_for_huge_rectangles() {
    let ctx = context();
    // SAFETY: NULL pixels: GL_INVALID_VALUE here (no pixel pack buffers), nothing is written.
    unsafe {
        gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void))(
            -8,
            -8,
            1_447_055_087,
            1_423_218_927,
            0x1908,
            0x1406,
            null_mut(),
        )
    };
    let e = error();
    assert_ne!(e, 0x0505, "GL_OUT_OF_MEMORY: the library panicked");
    assert!((0x0500..=0x0502).contains(&e), "0x{e:04X}");
    ctx.check();
}

/// Whether the pixel at (x, y) of the current framebuffer is the known colour.
fn lit(x: i32, y: i32) -> bool {
    let mut px = [0u8; 4];
    // SAFETY: `px` holds one RGBA8 pixel.
    unsafe {
        gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void))(
            x,
            y,
            1,
            1,
            0x1908,
            0x1401,
            px.as_mut_ptr().cast(),
        )
    };
    px == [51, 102, 153, 204]
}

/// Lit pixels of row `y` / column `x` between 4 and 28.
fn lit_in_row(y: i32) -> usize {
    (4..28).filter(|&x| lit(x, y)).count()
}

fn lit_in_column(x: i32) -> usize {
    (4..28).filter(|&y| lit(x, y)).count()
}

fn clear_black() {
    // SAFETY: scalars.
    unsafe {
        gl!(c"glClearColor": fn(f32, f32, f32, f32))(0.0, 0.0, 0.0, 0.0);
        gl!(c"glClear": fn(u32))(0x4000);
    }
}

#[test]
fn points_take_their_size_from_gl_point_size_unless_the_program_sets_it() {
    let ctx = context();
    let p = program(
        "#version 330 core\nuniform float size;\nvoid main() { gl_PointSize = size; gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n",
        CONSTANT_FS,
    );
    let mut vao = 0;
    // SAFETY: `vao` is a local; scalars otherwise.
    unsafe {
        gl!(c"glGenVertexArrays": fn(i32, *mut u32))(1, &mut vao);
        gl!(c"glBindVertexArray": fn(u32))(vao);
        gl!(c"glUseProgram": fn(u32))(p);
        let size = gl!(c"glGetUniformLocation": fn(u32, *const std::ffi::c_char) -> i32)(
            p,
            c"size".as_ptr(),
        );
        gl!(c"glUniform1f": fn(i32, f32))(size, 1.0);
        // GL_PROGRAM_POINT_SIZE off: glPointSize's 5 applies, not the shader's 1.
        gl!(c"glPointSize": fn(f32))(5.0);
    }
    clear_black();
    draw_arrays(0, 0, 1);
    assert_eq!(error(), 0);
    // The point is centred on the corner of pixels 15 and 16.
    assert_eq!(lit_in_row(16), 5, "a 5-pixel point");
    assert_eq!(lit_in_column(16), 5, "a 5-pixel point");
    // GL_PROGRAM_POINT_SIZE on: the shader's 1.
    // SAFETY: a scalar.
    unsafe { gl!(c"glEnable": fn(u32))(0x8642) };
    clear_black();
    draw_arrays(0, 0, 1);
    assert_eq!(error(), 0);
    assert_eq!(
        lit_in_row(16) + lit_in_row(15),
        1,
        "the shader's size 1, not glPointSize's"
    );
    // SAFETY: a scalar.
    unsafe { gl!(c"glDisable": fn(u32))(0x8642) };
    ctx.check();
}

/// A VAO whose attribute 0 (`vec2 pos`) holds a full-screen triangle as `GL_FLOAT`×2 at
/// `stride` from `offset` (the other bytes 0x7F), used with the known-colour program.
fn unaligned_triangle_setup(stride: usize, offset: usize) {
    let p = program(
        "#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
        CONSTANT_FS,
    );
    let mut data = vec![0x7Fu8; offset + 3 * stride + 8];
    for (i, v) in [[-1.0f32, -1.0], [3.0, -1.0], [-1.0, 3.0]]
        .iter()
        .enumerate()
    {
        let at = offset + i * stride;
        data[at..at + 4].copy_from_slice(&v[0].to_ne_bytes());
        data[at + 4..at + 8].copy_from_slice(&v[1].to_ne_bytes());
    }
    let (mut vao, mut vbo) = (0, 0);
    // SAFETY: locals; `data` holds the bytes given to glBufferData; the attribute pointer is an
    // offset into the bound buffer.
    unsafe {
        gl!(c"glGenVertexArrays": fn(i32, *mut u32))(1, &mut vao);
        gl!(c"glBindVertexArray": fn(u32))(vao);
        gl!(c"glGenBuffers": fn(i32, *mut u32))(1, &mut vbo);
        gl!(c"glBindBuffer": fn(u32, u32))(0x8892, vbo);
        gl!(c"glBufferData": fn(u32, isize, *const c_void, u32))(
            0x8892,
            data.len() as isize,
            data.as_ptr().cast(),
            0x88E4,
        );
        gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void))(
            0,
            2,
            0x1406,
            0,
            stride as i32,
            offset as *const c_void,
        );
        gl!(c"glEnableVertexAttribArray": fn(u32))(0);
        gl!(c"glUseProgram": fn(u32))(p);
    }
    assert_eq!(error(), 0);
}

#[test]
fn unaligned_float_attributes_are_read_at_their_gl_addresses() {
    let ctx = context();
    for (stride, offset) in [(9, 0), (8, 2), (13, 3)] {
        unaligned_triangle_setup(stride, offset);
        clear_black();
        draw_arrays(4, 0, 3);
        assert_eq!(error(), 0, "stride {stride} offset {offset}");
        assert!(
            lit(16, 16) && lit(1, 1) && lit(30, 30),
            "the full-screen triangle at stride {stride} offset {offset}"
        );
    }
    ctx.check();
}

#[test]
fn unaligned_float_attributes_in_large_buffers_are_read_back_and_repacked() {
    let ctx = context();
    // Past the 64 KiB CPU-shadow limit: the elements come from the GPU copy.
    unaligned_triangle_setup(9, 70_001);
    clear_black();
    draw_arrays(4, 0, 3);
    assert_eq!(error(), 0);
    assert!(lit(16, 16), "the full-screen triangle");
    ctx.check();
}

#[test]
fn float_arrays_feeding_integer_inputs_draw_without_an_error() {
    let ctx = context();
    let p = program(
        "#version 330 core\nlayout(location = 2) in ivec2 ids;\nlayout(location = 3) in vec2 weights;\nvoid main() { vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1)); gl_Position = vec4(p + vec2(ids) * 0.0 + weights * 0.0, 0.0, 1.0); }\n",
        CONSTANT_FS,
    );
    let zeros = [0u8; 64];
    let (mut vao, mut vbo) = (0, 0);
    // SAFETY: locals; `zeros` holds the 64 bytes given to glBufferData.
    unsafe {
        gl!(c"glGenVertexArrays": fn(i32, *mut u32))(1, &mut vao);
        gl!(c"glBindVertexArray": fn(u32))(vao);
        gl!(c"glGenBuffers": fn(i32, *mut u32))(1, &mut vbo);
        gl!(c"glBindBuffer": fn(u32, u32))(0x8892, vbo);
        gl!(c"glBufferData": fn(u32, isize, *const c_void, u32))(
            0x8892,
            64,
            zeros.as_ptr().cast(),
            0x88E4,
        );
        // GL_FLOAT (glVertexAttribPointer) into `ivec2 ids`: undefined values, no error.
        gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void))(
            2,
            2,
            0x1406,
            0,
            0,
            null(),
        );
        // GL_SHORT (glVertexAttribIPointer) into `vec2 weights`.
        gl!(c"glVertexAttribIPointer": fn(u32, i32, u32, i32, *const c_void))(
            3,
            2,
            0x1402,
            0,
            null(),
        );
        gl!(c"glEnableVertexAttribArray": fn(u32))(2);
        gl!(c"glEnableVertexAttribArray": fn(u32))(3);
        gl!(c"glUseProgram": fn(u32))(p);
    }
    clear_black();
    draw_arrays(4, 0, 3);
    assert_eq!(error(), 0);
    assert!(lit(16, 16), "the draw happened");
    ctx.check();
}

#[test]
fn indexed_blend_and_colour_masks_reach_each_draw_buffer() {
    let ctx = context();
    draw_setup(
        "#version 330 core\nlayout(location = 0) out vec4 c0;\nlayout(location = 1) out vec4 c1;\nvoid main() { c0 = vec4(0.2, 0.4, 0.6, 0.8); c1 = vec4(0.2, 0.4, 0.6, 0.8); }\n",
    );
    let (fbo, _) = framebuffer_with_texture(0x8058);
    let mut tex1 = 0;
    let mut mask = [9u8; 4];
    // SAFETY: locals; NULL texture data; `mask` holds four booleans.
    unsafe {
        gl!(c"glGenTextures": fn(i32, *mut u32))(1, &mut tex1);
        gl!(c"glBindTexture": fn(u32, u32))(0x0DE1, tex1);
        gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void))(
            0x0DE1,
            0,
            0x8058,
            32,
            32,
            0,
            0x1908,
            0x1401,
            null(),
        );
        gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32))(
            0x8D40, 0x8CE1, 0x0DE1, tex1, 0,
        );
        let bufs = [0x8CE0u32, 0x8CE1];
        gl!(c"glDrawBuffers": fn(i32, *const u32))(2, bufs.as_ptr());
        assert_eq!(
            gl!(c"glCheckFramebufferStatus": fn(u32) -> u32)(0x8D40),
            0x8CD5
        );
        gl!(c"glClearColor": fn(f32, f32, f32, f32))(0.0, 0.0, 0.0, 0.0);
        gl!(c"glClear": fn(u32))(0x4000);
        // Draw buffer 1: only red written; draw buffer 0: everything.
        gl!(c"glColorMaski": fn(u32, u8, u8, u8, u8))(1, 1, 0, 0, 0);
        gl!(c"glGetBooleani_v": fn(u32, u32, *mut u8))(0x0C23, 1, mask.as_mut_ptr());
        assert_eq!(mask, [1, 0, 0, 0], "GL_COLOR_WRITEMASK of draw buffer 1");
        // Blending (ONE, ONE) on draw buffer 0 only: drawn twice, it saturates there.
        gl!(c"glBlendFunc": fn(u32, u32))(1, 1);
        gl!(c"glEnablei": fn(u32, u32))(0x0BE2, 0);
        assert_eq!(gl!(c"glIsEnabledi": fn(u32, u32) -> u8)(0x0BE2, 0), 1);
        assert_eq!(gl!(c"glIsEnabledi": fn(u32, u32) -> u8)(0x0BE2, 1), 0);
        assert_eq!(error(), 0);
        draw_arrays(4, 0, 3);
        draw_arrays(4, 0, 3);
        assert_eq!(error(), 0);
        let mut px = [0u8; 4];
        let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
        gl!(c"glReadBuffer": fn(u32))(0x8CE0);
        read(16, 16, 1, 1, 0x1908, 0x1401, px.as_mut_ptr().cast());
        assert_eq!(px, [102, 204, 255, 255], "draw buffer 0: blended twice");
        gl!(c"glReadBuffer": fn(u32))(0x8CE1);
        read(16, 16, 1, 1, 0x1908, 0x1401, px.as_mut_ptr().cast());
        assert_eq!(px, [51, 0, 0, 0], "draw buffer 1: red only, not blended");
        // A masked clear honours each draw buffer's mask too.
        gl!(c"glClearColor": fn(f32, f32, f32, f32))(1.0, 1.0, 1.0, 1.0);
        gl!(c"glClear": fn(u32))(0x4000);
        read(16, 16, 1, 1, 0x1908, 0x1401, px.as_mut_ptr().cast());
        assert_eq!(px, [255, 0, 0, 0], "draw buffer 1 cleared through its mask");
        gl!(c"glReadBuffer": fn(u32))(0x8CE0);
        read(16, 16, 1, 1, 0x1908, 0x1401, px.as_mut_ptr().cast());
        assert_eq!(px, [255, 255, 255, 255], "draw buffer 0 cleared whole");
        gl!(c"glColorMask": fn(u8, u8, u8, u8))(1, 1, 1, 1);
        gl!(c"glDeleteFramebuffers": fn(i32, *const u32))(1, &fbo);
    }
    assert_eq!(error(), 0);
    ctx.check();
}

#[test]
fn pixel_store_names_below_the_pack_range_underflow_into_a_panic() {
    let ctx = context();
    // SAFETY: scalars.
    unsafe {
        gl!(c"glPixelStorei": fn(u32, i32))(0x0000, 699_450_112);
        assert_eq!(error(), 0x0500, "glPixelStorei(0, …)");
        gl!(c"glPixelStorei": fn(u32, i32))(0x0CF9, 4);
        assert_eq!(error(), 0x0500, "glPixelStorei(0x0CF9, …)");
        gl!(c"glPixelStorei": fn(u32, i32))(0x0D05, 8); // GL_PACK_ALIGNMENT still works
        assert_eq!(error(), 0);
        gl!(c"glPixelStorei": fn(u32, i32))(0x0D05, 1);
    }
    ctx.check();
}

#[test]
fn an_element_offset_past_the_buffer_binds_no_index_buffer() {
    // glDrawElements with an offset past the element buffer's end draws nothing; binding the
    // index buffer there anyway is VUID-vkCmdBindIndexBuffer-offset-00431 (found by the fuzzer
    // when index-buffer binds became skip-if-unchanged).
    let ctx = context();
    draw_setup(CONSTANT_FS);
    let indices = [0u16, 1, 2];
    let mut ebo = 0;
    // SAFETY: locals; `indices` holds 3 u16.
    unsafe {
        gl!(c"glGenBuffers": fn(i32, *mut u32))(1, &mut ebo);
        gl!(c"glBindBuffer": fn(u32, u32))(0x8893, ebo); // GL_ELEMENT_ARRAY_BUFFER
        gl!(c"glBufferData": fn(u32, isize, *const c_void, u32))(
            0x8893,
            6,
            indices.as_ptr().cast(),
            0x88E4,
        );
        for offset in [0usize, 0xB646, 4, 6] {
            gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void))(
                4,
                3,
                0x1403, // GL_UNSIGNED_SHORT
                offset as *const c_void,
            );
        }
        gl!(c"glDeleteBuffers": fn(i32, *const u32))(1, &ebo);
    }
    assert_eq!(error(), 0);
    ctx.check();
}
