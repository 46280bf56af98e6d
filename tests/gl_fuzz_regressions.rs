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
#[ignore = "finding: GL_SRC1_* blend factors (core in 3.3) build a pipeline without the dualSrcBlend feature (VUID-VkPipelineColorBlendAttachmentState-srcColorBlendFactor-00608)"]
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
#[ignore = "finding: glDrawArrays(GL_POINTS) with a vertex shader that does not write gl_PointSize builds a point-list pipeline without PointSize (VUID-VkGraphicsPipelineCreateInfo-Vertex-07722)"]
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
#[ignore = "finding: a GL_FLOAT attribute with stride 9 reaches Vulkan unaligned (VUID-vkCmdDraw-None-02721); GL allows any stride"]
fn float_attributes_at_an_unaligned_stride_reach_vulkan_unaligned() {
    let ctx = context();
    attribute_setup(9, 0);
    draw_arrays(4, 0, 3);
    ctx.check();
}

#[test]
#[ignore = "finding: a GL_FLOAT attribute at offset 2 reaches Vulkan unaligned (VUID-vkCmdDraw-None-02721); GL allows any offset"]
fn float_attributes_at_an_unaligned_offset_reach_vulkan_unaligned() {
    let ctx = context();
    attribute_setup(8, 2);
    draw_arrays(4, 0, 3);
    ctx.check();
}

#[test]
#[ignore = "finding: glVertexAttribIPointer(GL_UNSIGNED_BYTE) feeding an ivec2 input gives VK_FORMAT_R8G8_UINT for a sint32 input (UNASSIGNED-CoreValidation-Shader-InterfaceTypeMismatch)"]
fn integer_attribute_formats_follow_the_call_not_the_shader_input() {
    let ctx = context();
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
        // GL_UNSIGNED_BYTE into `ivec2 ids`.
        gl!(c"glVertexAttribIPointer": fn(u32, i32, u32, i32, *const c_void))(
            2,
            2,
            0x1401,
            0,
            null(),
        );
        gl!(c"glEnableVertexAttribArray": fn(u32))(2);
        gl!(c"glUseProgram": fn(u32))(p);
    }
    draw_arrays(4, 0, 3);
    assert_eq!(error(), 0);
    ctx.check();
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
#[ignore = "finding: glEnable(GL_DEPTH_CLAMP) (core since 3.2) builds a pipeline with depthClampEnable without the depthClamp feature (VUID-VkPipelineRasterizationStateCreateInfo-depthClampEnable-00782)"]
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
#[ignore = "finding: sampling a texture that is the current framebuffer's colour attachment (a GL feedback loop: undefined values, not invalid Vulkan) binds it in the attachment layout (VUID-VkDescriptorImageInfo-imageLayout-00344, VUID-vkCmdDraw-None-02699)"]
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
#[ignore = "finding: glColorMaski/glEnablei/glDisablei ignore their index (src/abi/gl.rs): glColorMaski(1, off) masks draw buffer 0, glEnablei(GL_BLEND, 1) enables blending on buffer 0, and bad indices/caps get no GL_INVALID_VALUE/GL_INVALID_ENUM"]
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
