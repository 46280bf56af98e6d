//! Multisampling through the C ABI: multisampled renderbuffers, drawing into them, resolving
//! through `glBlitFramebuffer` (straight and flipped), and the errors and completeness status
//! GL specifies. Pixels are read back and checked by value; the validation layer must stay
//! silent.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, expect, f, program};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: u32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_FLOAT: u32 = 0x1406;
const GL_TRIANGLES: u32 = 0x0004;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_NEAREST: u32 = 0x2600;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_COLOR_ATTACHMENT1: u32 = 0x8CE1;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: u32 = 0x8D56;
const GL_RENDERBUFFER_SAMPLES: u32 = 0x8CAB;
const GL_MAX_SAMPLES: u32 = 0x8D57;
const GL_SAMPLES: u32 = 0x80A9;
const GL_SAMPLE_BUFFERS: u32 = 0x80A8;

/// The default framebuffer (32×32) as RGBA bytes, row 0 at the bottom.
fn pixels() -> Vec<u8> {
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = vec![0u8; 32 * 32 * 4];
    // SAFETY: `px` holds 32×32 RGBA bytes.
    unsafe {
        read(
            0,
            0,
            32,
            32,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    px
}

fn red_at(px: &[u8], x: usize, y: usize) -> u8 {
    px[(y * 32 + x) * 4]
}

fn get_int(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get(pname, &mut v) };
    v
}

fn bind(target: u32, fb: u32) {
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    // SAFETY: plain values.
    unsafe { bind_fb(target, fb) };
}

fn blit(s: [i32; 4], d: [i32; 4]) {
    let b = gl!(c"glBlitFramebuffer": fn(i32, i32, i32, i32, i32, i32, i32, i32, u32, u32));
    // SAFETY: plain values.
    unsafe {
        b(
            s[0],
            s[1],
            s[2],
            s[3],
            d[0],
            d[1],
            d[2],
            d[3],
            GL_COLOR_BUFFER_BIT,
            GL_NEAREST,
        )
    };
}

/// A 32×32 RGBA8 renderbuffer of `samples` samples attached as colour attachment 0 of a new
/// framebuffer, bound to both targets. Returns (framebuffer, renderbuffer).
fn ms_framebuffer(samples: i32) -> (u32, u32) {
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        let (mut fb, mut rb) = (0, 0);
        gen_fbs(1, &mut fb);
        bind(GL_FRAMEBUFFER, fb);
        gen_rbs(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, samples, GL_RGBA8, 32, 32);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        (fb, rb)
    }
}

/// Clears the bound draw framebuffer to black and draws a red triangle over its lower-left
/// half: the diagonal from (32, 0) to (0, 32) cuts pixels, so their samples disagree.
fn draw_half_triangle() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let gen_vas = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_va = gl!(c"glBindVertexArray": fn(u32));
    let gen_bufs = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buf = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable_attr = gl!(c"glEnableVertexAttribArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let p = program(
        "#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
        "#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1.0, 0.0, 0.0, 1.0); }\n",
    );
    let verts: [f32; 6] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0];
    // SAFETY: `verts` outlives the upload; out-pointers to locals; plain values.
    unsafe {
        viewport(0, 0, 32, 32);
        clear_color(0.0, 0.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        let (mut va, mut buf) = (0, 0);
        gen_vas(1, &mut va);
        bind_va(va);
        gen_bufs(1, &mut buf);
        bind_buf(GL_ARRAY_BUFFER, buf);
        data(
            GL_ARRAY_BUFFER,
            std::mem::size_of_val(&verts) as isize,
            verts.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
        pointer(0, 2, GL_FLOAT, 0, 0, std::ptr::null());
        enable_attr(0);
        use_program(p);
        draw(GL_TRIANGLES, 0, 3);
    }
}

/// Pixels on the diagonal of the resolved half triangle, and how many of them are partly
/// covered (neither black nor red): single-sampled rendering has none.
fn partly_covered(px: &[u8], flipped: bool) -> usize {
    (0..32)
        .filter(|&x| {
            let y = 31 - x;
            let y = if flipped { 31 - y } else { y };
            (16..240).contains(&red_at(px, x, y))
        })
        .count()
}

#[test]
fn an_msaa_edge_resolves_to_the_average_of_its_samples() {
    let _ctx = context();
    assert!(get_int(GL_MAX_SAMPLES) >= 4, "GL_MAX_SAMPLES");
    let (fb, _) = ms_framebuffer(4);
    assert_eq!(get_int(GL_SAMPLES), 4);
    assert_eq!(get_int(GL_SAMPLE_BUFFERS), 1);
    draw_half_triangle();
    expect(GL_NO_ERROR);
    bind(GL_DRAW_FRAMEBUFFER, 0);
    blit([0, 0, 32, 32], [0, 0, 32, 32]);
    expect(GL_NO_ERROR);
    bind(GL_READ_FRAMEBUFFER, 0);
    let px = pixels();
    // Far inside: every sample red; far outside: every sample black.
    assert_eq!(red_at(&px, 2, 2), 255);
    assert_eq!(red_at(&px, 29, 29), 0);
    // The diagonal's pixels mix both.
    let mixed = partly_covered(&px, false);
    assert!(
        mixed >= 16,
        "{mixed} of 32 diagonal pixels are partly covered"
    );
    // A flipped resolve (allowed: the sizes match) puts the triangle at the top.
    bind(GL_READ_FRAMEBUFFER, fb);
    blit([0, 0, 32, 32], [0, 32, 32, 0]);
    expect(GL_NO_ERROR);
    bind(GL_READ_FRAMEBUFFER, 0);
    let px = pixels();
    assert_eq!(red_at(&px, 2, 29), 255);
    assert_eq!(red_at(&px, 29, 2), 0);
    let mixed = partly_covered(&px, true);
    assert!(
        mixed >= 16,
        "{mixed} of 32 flipped diagonal pixels are partly covered"
    );
}

#[test]
fn multisample_errors_and_completeness_follow_the_specification() {
    let _ctx = context();
    let get_rb = gl!(c"glGetRenderbufferParameteriv": fn(u32, u32, *mut i32));
    let storage = gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let (fb, _) = ms_framebuffer(4);
    let mut samples = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get_rb(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &mut samples) };
    assert_eq!(samples, 4);
    // SAFETY: plain values.
    assert_eq!(unsafe { status(GL_FRAMEBUFFER) }, GL_FRAMEBUFFER_COMPLETE);
    // More samples than GL_MAX_SAMPLES.
    // SAFETY: plain values.
    unsafe {
        storage(
            GL_RENDERBUFFER,
            get_int(GL_MAX_SAMPLES) + 1,
            GL_RGBA8,
            32,
            32,
        )
    };
    expect(GL_INVALID_VALUE);
    // Reading a multisampled framebuffer.
    let mut px = [0u8; 4];
    // SAFETY: `px` holds one RGBA pixel.
    unsafe {
        read(
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    expect(GL_INVALID_OPERATION);
    // A scaled multisampled blit.
    bind(GL_DRAW_FRAMEBUFFER, 0);
    blit([0, 0, 16, 16], [0, 0, 32, 32]);
    expect(GL_INVALID_OPERATION);
    // A single-sampled second attachment makes the framebuffer incomplete.
    bind(GL_FRAMEBUFFER, fb);
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    // SAFETY: out-pointer to a local; plain values.
    unsafe {
        let mut single = 0;
        gen_rbs(1, &mut single);
        bind_rb(GL_RENDERBUFFER, single);
        storage(GL_RENDERBUFFER, 0, GL_RGBA8, 32, 32);
        attach(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT1,
            GL_RENDERBUFFER,
            single,
        );
        get_rb(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &mut samples);
        assert_eq!(samples, 0);
        assert_eq!(
            status(GL_FRAMEBUFFER),
            GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE
        );
    }
    expect(GL_NO_ERROR);
}

const GL_DEPTH_BUFFER_BIT: u32 = 0x0100;
const GL_STENCIL_BUFFER_BIT: u32 = 0x0400;
const GL_DEPTH24_STENCIL8: u32 = 0x88F0;
const GL_DEPTH_STENCIL_ATTACHMENT: u32 = 0x821A;
const GL_DEPTH_COMPONENT: u32 = 0x1902;
const GL_STENCIL_INDEX: u32 = 0x1901;
const GL_DEPTH_TEST: u32 = 0x0B71;
const GL_STENCIL_TEST: u32 = 0x0B90;
const GL_ALWAYS: u32 = 0x0207;
const GL_KEEP: u32 = 0x1E00;
const GL_REPLACE: u32 = 0x1E01;

/// A new 32×32 framebuffer of `samples` samples with an RGBA8 colour and a DEPTH24_STENCIL8
/// renderbuffer, bound to both targets.
fn depth_stencil_framebuffer(samples: i32) -> u32 {
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let (fb, _) = ms_framebuffer(samples);
    // SAFETY: out-pointer to a local; plain values.
    unsafe {
        let mut rb = 0;
        gen_rbs(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, samples, GL_DEPTH24_STENCIL8, 32, 32);
        attach(
            GL_FRAMEBUFFER,
            GL_DEPTH_STENCIL_ATTACHMENT,
            GL_RENDERBUFFER,
            rb,
        );
    }
    fb
}

/// The read framebuffer's depth (as floats) and stencil (as bytes), 32×32, row 0 at the bottom.
fn depth_and_stencil() -> (Vec<f32>, Vec<u8>) {
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut depth = vec![0f32; 32 * 32];
    let mut stencil = vec![0u8; 32 * 32];
    // SAFETY: the vectors hold 32×32 values of the types asked for.
    unsafe {
        read(
            0,
            0,
            32,
            32,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            depth.as_mut_ptr().cast(),
        );
        read(
            0,
            0,
            32,
            32,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_BYTE,
            stencil.as_mut_ptr().cast(),
        );
    }
    (depth, stencil)
}

#[test]
fn depth_and_stencil_resolve_through_blit_framebuffer() {
    let _ctx = context();
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear_stencil = gl!(c"glClearStencil": fn(i32));
    let clear = gl!(c"glClear": fn(u32));
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let stencil_func = gl!(c"glStencilFunc": fn(u32, i32, u32));
    let stencil_op = gl!(c"glStencilOp": fn(u32, u32, u32));
    let b = gl!(c"glBlitFramebuffer": fn(i32, i32, i32, i32, i32, i32, i32, i32, u32, u32));
    let ms = depth_stencil_framebuffer(4);
    // The lower-left half triangle at depth 0.5 with stencil 7 over depth 1.0, stencil 0.
    // SAFETY: plain values.
    unsafe {
        clear_depth(1.0);
        clear_stencil(0);
        clear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        enable(GL_DEPTH_TEST);
        enable(GL_STENCIL_TEST);
        stencil_func(GL_ALWAYS, 7, 0xFF);
        stencil_op(GL_KEEP, GL_KEEP, GL_REPLACE);
    }
    draw_half_triangle();
    // SAFETY: plain values.
    unsafe {
        disable(GL_DEPTH_TEST);
        disable(GL_STENCIL_TEST);
    }
    expect(GL_NO_ERROR);
    // A single-sampled destination holding other values everywhere.
    let single = depth_stencil_framebuffer(0);
    // SAFETY: plain values.
    unsafe {
        clear_depth(0.25);
        clear_stencil(3);
        clear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    }
    bind(GL_READ_FRAMEBUFFER, ms);
    let mask = GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT;
    // SAFETY: plain values.
    unsafe { b(0, 0, 32, 32, 0, 0, 32, 32, mask, GL_NEAREST) };
    expect(GL_NO_ERROR);
    bind(GL_READ_FRAMEBUFFER, single);
    let (depth, stencil) = depth_and_stencil();
    let at = |x: usize, y: usize| (depth[y * 32 + x], stencil[y * 32 + x]);
    let (d, s) = at(2, 2);
    assert!((d - 0.5).abs() < 1e-3, "covered depth {d}");
    assert_eq!(s, 7, "covered stencil");
    assert_eq!(at(29, 29), (1.0, 0), "uncovered depth and stencil");
    // Depth alone, flipped: the stencil keeps what the first blit wrote.
    // SAFETY: plain values.
    unsafe {
        clear_depth(0.25);
        clear(GL_DEPTH_BUFFER_BIT);
    }
    bind(GL_READ_FRAMEBUFFER, ms);
    // SAFETY: plain values.
    unsafe { b(0, 0, 32, 32, 0, 32, 32, 0, GL_DEPTH_BUFFER_BIT, GL_NEAREST) };
    expect(GL_NO_ERROR);
    bind(GL_READ_FRAMEBUFFER, single);
    let (depth, stencil) = depth_and_stencil();
    let at = |x: usize, y: usize| (depth[y * 32 + x], stencil[y * 32 + x]);
    // (5, 29) is outside the triangle and its mirror (5, 2) inside; (20, 5) the other way.
    let (d, s) = at(5, 29);
    assert!((d - 0.5).abs() < 1e-3, "flipped covered depth {d}");
    assert_eq!(s, 0, "stencil of the first blit, unflipped");
    assert_eq!(
        at(20, 5),
        (1.0, 7),
        "flipped uncovered depth, unflipped stencil"
    );
}

const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_2D_MULTISAMPLE: u32 = 0x9100;
const GL_RGBA16F: u32 = 0x881A;
const GL_RGBA32F: u32 = 0x8814;
const GL_RGB10_A2: u32 = 0x8059;

/// Regression (piglit `ext_framebuffer_multisample-formats 4 -fbo`, refused with
/// `GL_OUT_OF_MEMORY` after ~70 formats): a program that never swaps re-specifies the storage
/// of the same multisampled renderbuffer and texture names format after format, resolves them
/// with `glBlitFramebuffer`, reads the result back and uploads 4 MiB, hundreds of times. The
/// uploads used to chain a staging block onto the one staging slot per 16 MiB, because slots
/// were only rewound at a frame boundary; the manager's live bytes must now stay flat once
/// warm (the re-specified storage is retired, the staging the device finished is rewound).
#[test]
fn respecified_multisample_storage_uploads_and_readbacks_without_a_swap_keep_memory_flat() {
    let _ctx = context();
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let rb_storage = gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32));
    let tex_ms = gl!(c"glTexImage2DMultisample": fn(u32, i32, u32, i32, i32, u8));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_sub_image =
        gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let attach_rb = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let attach_tex = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    const SIZE: i32 = 128;
    const UPLOAD: i32 = 1024;
    let formats = [GL_RGBA8, GL_RGBA16F, GL_RGBA32F, GL_RGB10_A2];
    let upload = vec![0x5Au8; (UPLOAD * UPLOAD * 4) as usize];
    let (mut ms_fbs, mut resolve_fb, mut rb, mut ms_tex, mut resolved, mut big) =
        ([0u32; 2], 0, 0, 0, 0, 0);
    // SAFETY: out-pointers to locals; `upload` holds UPLOAD² RGBA8 texels; plain values.
    unsafe {
        gen_fbs(2, ms_fbs.as_mut_ptr());
        gen_fbs(1, &mut resolve_fb);
        gen_rbs(1, &mut rb);
        gen_textures(1, &mut ms_tex);
        gen_textures(1, &mut resolved);
        gen_textures(1, &mut big);
        bind_texture(GL_TEXTURE_2D, resolved);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            SIZE,
            SIZE,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            std::ptr::null(),
        );
        bind(GL_FRAMEBUFFER, resolve_fb);
        attach_tex(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0,
            GL_TEXTURE_2D,
            resolved,
            0,
        );
        bind_texture(GL_TEXTURE_2D, big);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            UPLOAD,
            UPLOAD,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            std::ptr::null(),
        );
    }
    expect(GL_NO_ERROR);
    let live = || gl_harness::memory_stat(c"live_bytes");
    let mut warm = None;
    let mut peak = 0;
    let mut px = vec![0u8; (SIZE * SIZE * 4) as usize];
    for i in 0..240usize {
        let format = formats[i % formats.len()];
        let shade = (i % 5) as f32 / 4.0;
        // SAFETY: names generated above; `px` holds SIZE² RGBA8 texels; `upload` as above.
        unsafe {
            // The same names, new storage: a renderbuffer and a texture, 4 samples each.
            bind_rb(GL_RENDERBUFFER, rb);
            rb_storage(GL_RENDERBUFFER, 4, format, SIZE, SIZE);
            bind(GL_FRAMEBUFFER, ms_fbs[0]);
            attach_rb(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
            bind_texture(GL_TEXTURE_2D_MULTISAMPLE, ms_tex);
            tex_ms(GL_TEXTURE_2D_MULTISAMPLE, 4, format, SIZE, SIZE, 1);
            bind(GL_FRAMEBUFFER, ms_fbs[1]);
            attach_tex(
                GL_FRAMEBUFFER,
                GL_COLOR_ATTACHMENT0,
                GL_TEXTURE_2D_MULTISAMPLE,
                ms_tex,
                0,
            );
            for (k, &fb) in ms_fbs.iter().enumerate() {
                bind(GL_FRAMEBUFFER, fb);
                clear_color(shade, 1.0 - shade, k as f32, 1.0);
                clear(GL_COLOR_BUFFER_BIT);
                bind(GL_READ_FRAMEBUFFER, fb);
                bind(GL_DRAW_FRAMEBUFFER, resolve_fb);
                blit([0, 0, SIZE, SIZE], [0, 0, SIZE, SIZE]);
                bind(GL_READ_FRAMEBUFFER, resolve_fb);
                read(
                    0,
                    0,
                    SIZE,
                    SIZE,
                    GL_RGBA,
                    GL_UNSIGNED_BYTE,
                    px.as_mut_ptr().cast(),
                );
                let want = [
                    (shade * 255.0).round() as u8,
                    ((1.0 - shade) * 255.0).round() as u8,
                    255 * k as u8,
                    255,
                ];
                gl_harness::assert_rgba8_near(
                    [px[0], px[1], px[2], px[3]],
                    want,
                    &format!("iteration {i}, format 0x{format:04X}, framebuffer {k}"),
                );
            }
            bind_texture(GL_TEXTURE_2D, big);
            tex_sub_image(
                GL_TEXTURE_2D,
                0,
                0,
                0,
                UPLOAD,
                UPLOAD,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                upload.as_ptr().cast(),
            );
        }
        expect(GL_NO_ERROR);
        if i == 40 {
            warm = Some(live());
        }
        peak = peak.max(live());
    }
    let warm = warm.expect("warm-up measured");
    let growth = peak.saturating_sub(warm);
    eprintln!("live bytes: {warm} once warm, {peak} at the peak");
    assert!(
        growth < 48 << 20,
        "live bytes grew by {growth} over 200 re-specifications without a swap ({warm} once warm, \
         {peak} at the peak): something re-specified, resolved, read back or staged is kept"
    );
}

/// Found by `tests/gl_fuzz.rs`: a draw under `GL_RASTERIZER_DISCARD` into a multisampled
/// framebuffer recorded a pipeline whose (ignored) multisample state could not match the pass's
/// 4× attachment — a validation error. Such a draw is not recorded now; its primitives still
/// count toward `GL_PRIMITIVES_GENERATED`.
#[test]
fn rasterizer_discard_into_a_multisampled_framebuffer_is_clean_and_still_counted() {
    let _c = gl_harness::context();
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32));
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let enable = gl!(c"glEnable": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let gen_va = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_va = gl!(c"glBindVertexArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_q = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin_q = gl!(c"glBeginQuery": fn(u32, u32));
    let end_q = gl!(c"glEndQuery": fn(u32));
    let get_q = gl!(c"glGetQueryObjectuiv": fn(u32, u32, *mut u32));
    let p = gl_harness::program(
        "#version 330 core\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n",
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    let (mut rb, mut fb, mut va, mut q, mut generated) = (0, 0, 0, 0, 0);
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        gen_va(1, &mut va);
        bind_va(va);
        use_program(p);
        gen_rb(1, &mut rb);
        bind_rb(0x8D41, rb);
        storage(0x8D41, 4, 0x8058, 58, 45);
        gen_fb(1, &mut fb);
        bind_fb(0x8D40, fb);
        attach(0x8CA9, 0x8CE0, 0x8D41, rb);
        draw(0x0004, 0, 3);
        enable(0x8C89); // GL_RASTERIZER_DISCARD
        gen_q(1, &mut q);
        begin_q(0x8C87, q); // GL_PRIMITIVES_GENERATED
        draw(0x0004, 0, 6);
        end_q(0x8C87);
        get_q(q, 0x8866, &mut generated); // GL_QUERY_RESULT
    }
    assert_eq!(generated, 2, "two triangles generated while discarded");
    assert_eq!(gl_harness::error(), 0);
    // The validation layer must have stayed silent (checked when `_c` drops).
}
