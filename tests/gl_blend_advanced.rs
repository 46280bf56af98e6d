//! GL_KHR_blend_equation_advanced through the C ABI: each of the fifteen equations against a CPU
//! reference of the extension's formulas on read-back pixels, two overlapping draws separated
//! by `glBlendBarrierKHR`, the extension's errors, a multisampled framebuffer, and OpenGL ES
//! contexts with GLSL ES 3.10 (and 3.20 where the context is ES 3.2).

use std::ffi::c_char;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;
#[path = "common/es.rs"]
mod es_harness;

use gl_harness::{context, expect, f, program, read_rgba, try_program_with};

const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_BLEND: u32 = 0x0BE2;
const GL_BLEND_EQUATION_RGB: u32 = 0x8009;
const GL_BLEND_EQUATION_ALPHA: u32 = 0x883D;
const GL_SCISSOR_TEST: u32 = 0x0C11;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_TRIANGLE_STRIP: u32 = 0x0005;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RGBA8: u32 = 0x8058;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;
const GL_MULTIPLY: u32 = 0x9294;
const GL_SCREEN: u32 = 0x9295;
const GL_FUNC_ADD: u32 = 0x8006;

/// The fifteen equations in the extension's order.
const EQUATIONS: [u32; 15] = [
    0x9294, 0x9295, 0x9296, 0x9297, 0x9298, 0x9299, 0x929A, 0x929B, 0x929C, 0x929E, 0x92A0, 0x92AD,
    0x92AE, 0x92AF, 0x92B0,
];

/// (source, destination) pairs, premultiplied, chosen to reach each branch of the formulas
/// (dark and light sources and destinations, translucent and transparent destinations).
const PAIRS: [([f32; 4], [f32; 4]); 6] = [
    ([0.6, 0.3, 0.1, 0.8], [0.2, 0.5, 0.7, 0.9]),
    ([0.2, 0.7, 0.4, 1.0], [0.8, 0.1, 0.3, 1.0]),
    ([0.9, 0.45, 0.05, 0.9], [0.1, 0.2, 0.6, 0.6]),
    ([0.1, 0.1, 0.1, 0.5], [0.0, 0.0, 0.0, 0.0]),
    ([1.0, 0.0, 0.5, 1.0], [0.15, 0.9, 1.0, 1.0]),
    ([0.3, 0.8, 0.6, 0.8], [0.05, 0.4, 0.2, 0.4]),
];

const VS: &str = "#version 330 core\nvoid main() {\n\
    vec2 c[4] = vec2[](vec2(-1,-1), vec2(1,-1), vec2(-1,1), vec2(1,1));\n\
    gl_Position = vec4(c[gl_VertexID], 0.0, 1.0); }\n";

/// A fragment shader writing the uniform `u_src`, declaring `support`.
fn fs(support: &str) -> String {
    format!(
        "#version 330 core\n#extension GL_KHR_blend_equation_advanced : require\n\
         layout({support}) out;\nuniform vec4 u_src;\nout vec4 colour;\n\
         void main() {{ colour = u_src; }}\n"
    )
}

// ---- the CPU reference: the extension's tables X.1 and X.2 -------------------------------

fn channel(e: u32, s: f64, d: f64) -> f64 {
    match e {
        0x9294 => s * d,
        0x9295 => s + d - s * d,
        0x9296 if d <= 0.5 => 2.0 * s * d,
        0x9296 => 1.0 - 2.0 * (1.0 - s) * (1.0 - d),
        0x9297 => s.min(d),
        0x9298 => s.max(d),
        0x9299 if d <= 0.0 => 0.0,
        0x9299 if s < 1.0 => (d / (1.0 - s)).min(1.0),
        0x9299 => 1.0,
        0x929A if d >= 1.0 => 1.0,
        0x929A if s > 0.0 => 1.0 - ((1.0 - d) / s).min(1.0),
        0x929A => 0.0,
        0x929B if s <= 0.5 => 2.0 * s * d,
        0x929B => 1.0 - 2.0 * (1.0 - s) * (1.0 - d),
        0x929C if s <= 0.5 => d - (1.0 - 2.0 * s) * d * (1.0 - d),
        0x929C if d <= 0.25 => d + (2.0 * s - 1.0) * d * ((16.0 * d - 12.0) * d + 3.0),
        0x929C => d + (2.0 * s - 1.0) * (d.sqrt() - d),
        0x929E => (d - s).abs(),
        0x92A0 => s + d - 2.0 * s * d,
        _ => unreachable!(),
    }
}

fn lum(c: [f64; 3]) -> f64 {
    0.30 * c[0] + 0.59 * c[1] + 0.11 * c[2]
}

fn min3(c: [f64; 3]) -> f64 {
    c[0].min(c[1]).min(c[2])
}

fn max3(c: [f64; 3]) -> f64 {
    c[0].max(c[1]).max(c[2])
}

fn set_lum(cbase: [f64; 3], clum: [f64; 3]) -> [f64; 3] {
    let diff = lum(clum) - lum(cbase);
    let c = cbase.map(|v| v + diff);
    let l = lum(c);
    let (lo, hi) = (min3(c), max3(c));
    if lo < 0.0 {
        c.map(|v| l + (v - l) * l / (l - lo))
    } else if hi > 1.0 {
        c.map(|v| l + (v - l) * (1.0 - l) / (hi - l))
    } else {
        c
    }
}

fn set_lum_sat(cbase: [f64; 3], csat: [f64; 3], clum: [f64; 3]) -> [f64; 3] {
    let sbase = max3(cbase) - min3(cbase);
    let ssat = max3(csat) - min3(csat);
    let c = if sbase > 0.0 {
        cbase.map(|v| (v - min3(cbase)) * ssat / sbase)
    } else {
        [0.0; 3]
    };
    set_lum(c, clum)
}

/// The blended premultiplied colour of `src` over `dst` with equation `e`.
fn reference(e: u32, src: [f64; 4], dst: [f64; 4]) -> [f64; 4] {
    let unpremultiply = |c: [f64; 4]| {
        let a = c[3];
        [0, 1, 2].map(|i| if a > 0.0 { c[i] / a } else { 0.0 })
    };
    let (cs, cd) = (unpremultiply(src), unpremultiply(dst));
    let f = match e {
        0x92AD => set_lum_sat(cs, cd, cd),
        0x92AE => set_lum_sat(cd, cs, cd),
        0x92AF => set_lum(cs, cd),
        0x92B0 => set_lum(cd, cs),
        _ => [0, 1, 2].map(|i| channel(e, cs[i], cd[i])),
    };
    let (p0, p1, p2) = (
        src[3] * dst[3],
        src[3] * (1.0 - dst[3]),
        dst[3] * (1.0 - src[3]),
    );
    let rgb = [0, 1, 2].map(|i| f[i] * p0 + cs[i] * p1 + cd[i] * p2);
    [rgb[0], rgb[1], rgb[2], p0 + p1 + p2]
}

/// `v` as an 8-bit normalized value reads back.
fn unorm8(v: f32) -> f64 {
    (f64::from(v) * 255.0).round() / 255.0
}

// ---- GL helpers ---------------------------------------------------------------------------

/// A `w`×`h` RGBA8 texture attached as colour attachment `i` of the bound draw framebuffer.
fn attach_rgba8(i: u32, w: i32, h: i32) {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let mut t = 0;
    // SAFETY: out-pointer to a local; a live texture name.
    unsafe {
        gen(1, &mut t);
        bind(GL_TEXTURE_2D, t);
        storage(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
        attach(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0 + i,
            GL_TEXTURE_2D,
            t,
            0,
        );
    }
}

/// A framebuffer with one RGBA8 colour attachment, bound, and a vertex array bound.
fn rgba8_target() {
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let (mut fb, mut vao) = (0, 0);
    // SAFETY: out-pointers to locals; live names.
    unsafe {
        gen_fb(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach_rgba8(0, 16, 4);
        gen_vao(1, &mut vao);
        bind_vao(vao);
        viewport(0, 0, 16, 4);
    }
}

fn set_src(p: u32, src: [f32; 4]) {
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform4 = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    // SAFETY: a linked program in use; a NUL-terminated name.
    unsafe {
        let l = location(p, c"u_src".as_ptr());
        uniform4(l, src[0], src[1], src[2], src[3]);
    }
}

/// Clears the `w` pixel columns from `x` to `dst` (scissored) and draws `src` over them.
fn blend_at(p: u32, (x, w): (i32, i32), src: [f32; 4], dst: [f32; 4]) {
    let scissor = gl!(c"glScissor": fn(i32, i32, i32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain state and draw calls on the current context.
    unsafe {
        scissor(x, 0, w, 4);
        clear_color(dst[0], dst[1], dst[2], dst[3]);
        clear(GL_COLOR_BUFFER_BIT);
        set_src(p, src);
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
}

fn enable(cap: u32) {
    let enable = gl!(c"glEnable": fn(u32));
    // SAFETY: a capability GL knows.
    unsafe { enable(cap) };
}

fn blend_equation(mode: u32) {
    let eq = gl!(c"glBlendEquation": fn(u32));
    // SAFETY: plain state call.
    unsafe { eq(mode) };
}

fn draw_quad() {
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: a program and vertex array are bound.
    unsafe { draw(GL_TRIANGLE_STRIP, 0, 4) };
}

fn use_program(p: u32) {
    let use_program = gl!(c"glUseProgram": fn(u32));
    // SAFETY: a linked program.
    unsafe { use_program(p) };
}

/// Asserts the read-back pixel at column `x` is `want` within 3/255 per channel.
#[track_caller]
fn assert_pixel(px: &[u8], x: usize, want: [f64; 4], what: &str) {
    let got = &px[x * 4..x * 4 + 4];
    let want8 = want.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8);
    let close = got.iter().zip(want8).all(|(&g, w)| g.abs_diff(w) <= 3);
    assert!(close, "{what}: got {got:?}, want {want8:?} ({want:?})");
}

fn extension_listed(name: &str) -> bool {
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let get_stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    let mut n = 0;
    // SAFETY: one integer out; indices below the count give NUL-terminated strings.
    unsafe {
        get_integer(GL_NUM_EXTENSIONS, &mut n);
        (0..n as u32).any(|i| {
            std::ffi::CStr::from_ptr(get_stringi(GL_EXTENSIONS, i)).to_bytes() == name.as_bytes()
        })
    }
}

// ---- the tests ----------------------------------------------------------------------------

#[test]
fn every_equation_matches_the_reference() {
    let _c = context();
    assert!(extension_listed("GL_KHR_blend_equation_advanced"));
    assert!(!extension_listed("GL_KHR_blend_equation_advanced_coherent"));
    let p = program(VS, &fs("blend_support_all_equations"));
    rgba8_target();
    use_program(p);
    enable(GL_BLEND);
    enable(GL_SCISSOR_TEST);
    for e in EQUATIONS {
        blend_equation(e);
        for (x, (src, dst)) in PAIRS.iter().enumerate() {
            blend_at(p, (x as i32, 1), *src, *dst);
        }
        expect(0);
        let px = read_rgba(0, 0, PAIRS.len() as i32, 1);
        for (x, (src, dst)) in PAIRS.iter().enumerate() {
            let want = reference(e, src.map(f64::from), dst.map(unorm8));
            assert_pixel(&px, x, want, &format!("equation 0x{e:04X}, pair {x}"));
        }
    }
}

#[test]
fn a_draw_after_the_barrier_blends_over_the_one_before() {
    let _c = context();
    let barrier = gl!(c"glBlendBarrierKHR": fn());
    let p = program(VS, &fs("blend_support_multiply, blend_support_screen"));
    rgba8_target();
    use_program(p);
    enable(GL_BLEND);
    enable(GL_SCISSOR_TEST);
    let (first, second, dst) = (
        [0.5f32, 0.25, 0.75, 1.0],
        [0.4f32, 0.3, 0.2, 0.5],
        [0.8f32, 0.6, 0.4, 1.0],
    );
    blend_equation(GL_MULTIPLY);
    blend_at(p, (0, 1), first, dst);
    // SAFETY: no arguments.
    unsafe { barrier() };
    blend_equation(GL_SCREEN);
    set_src(p, second);
    draw_quad();
    expect(0);
    let px = read_rgba(0, 0, 1, 1);
    let once = reference(GL_MULTIPLY, first.map(f64::from), dst.map(unorm8));
    let twice = reference(
        GL_SCREEN,
        second.map(f64::from),
        once.map(|v| (v * 255.0).round() / 255.0),
    );
    assert_pixel(&px, 0, twice, "screen over multiply");
}

#[test]
fn the_extension_errors() {
    let _c = context();
    let separate = gl!(c"glBlendEquationSeparate": fn(u32, u32));
    let indexed = gl!(c"glBlendEquationi": fn(u32, u32));
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let disable = gl!(c"glDisable": fn(u32));
    let draw_buffers = gl!(c"glDrawBuffers": fn(i32, *const u32));
    let integer = |pname| {
        let mut v = -1;
        // SAFETY: one integer out.
        unsafe { get_integer(pname, &mut v) };
        v as u32
    };
    // Only glBlendEquation[i] take them; both equations then read the advanced one.
    // SAFETY: plain state calls.
    unsafe { separate(GL_MULTIPLY, GL_FUNC_ADD) };
    expect(GL_INVALID_ENUM);
    blend_equation(GL_MULTIPLY);
    expect(0);
    assert_eq!(integer(GL_BLEND_EQUATION_RGB), GL_MULTIPLY);
    assert_eq!(integer(GL_BLEND_EQUATION_ALPHA), GL_MULTIPLY);
    // SAFETY: plain state call.
    unsafe { indexed(0, GL_SCREEN) };
    expect(0);
    assert_eq!(integer(GL_BLEND_EQUATION_RGB), GL_SCREEN);
    // A program that does not declare the equation cannot draw with it.
    let screen_only = program(VS, &fs("blend_support_screen"));
    rgba8_target();
    use_program(screen_only);
    enable(GL_BLEND);
    draw_quad();
    expect(0);
    blend_equation(GL_MULTIPLY);
    draw_quad();
    expect(GL_INVALID_OPERATION);
    // Nor one without any declaration, unless blending is off.
    let plain = program(
        VS,
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    use_program(plain);
    draw_quad();
    expect(GL_INVALID_OPERATION);
    // SAFETY: plain state call.
    unsafe { disable(GL_BLEND) };
    draw_quad();
    expect(0);
    enable(GL_BLEND);
    // A second draw buffer.
    let all = program(VS, &fs("blend_support_all_equations"));
    use_program(all);
    draw_quad();
    expect(0);
    attach_rgba8(1, 16, 4);
    let both = [GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT0 + 1];
    // SAFETY: two enums.
    unsafe { draw_buffers(2, both.as_ptr()) };
    draw_quad();
    expect(GL_INVALID_OPERATION);
    // The coherent extension is not offered: its capability is no capability.
    enable(0x9285); // GL_BLEND_ADVANCED_COHERENT_KHR
    expect(GL_INVALID_ENUM);
    // An unknown layout qualifier is the compiler's error.
    let (_, linked) = try_program_with(VS, &fs("blend_support_nothing"), |_| {});
    assert!(!linked);
}

/// GLSL ES 3.10 with the extension, and GLSL ES 3.20 (where `blend_support` is core) when the
/// context is OpenGL ES 3.2.
#[test]
fn an_es_context_blends_with_glsl_es() {
    let _c = es_harness::es_context(3, 1);
    assert!(es_harness::extensions()
        .iter()
        .any(|e| e == "GL_KHR_blend_equation_advanced"));
    let mut headers =
        vec!["#version 310 es\n#extension GL_KHR_blend_equation_advanced : require\n"];
    if es_harness::string(0x1F02).starts_with("OpenGL ES 3.2") {
        headers.push("#version 320 es\n");
    }
    rgba8_target();
    enable(GL_BLEND);
    blend_equation(0x92AF);
    for header in headers {
        let fs = format!(
            "{header}precision mediump float;\nlayout(blend_support_hsl_color) out;\n\
             uniform vec4 u_src;\nlayout(location = 0) out vec4 colour;\n\
             void main() {{ colour = u_src; }}\n"
        );
        // The vertex unit at the fragment unit's version (GLSL ES links one version).
        let vs = format!(
            "{}\nvoid main() {{\n\
             vec2 c[4] = vec2[](vec2(-1,-1), vec2(1,-1), vec2(-1,1), vec2(1,1));\n\
             gl_Position = vec4(c[gl_VertexID], 0.0, 1.0); }}\n",
            header.lines().next().unwrap_or_default()
        );
        let p = es_harness::use_program(&[(0x8B31, &vs), (0x8B30, &fs)]);
        let (src, dst) = PAIRS[2];
        blend_at(p, (0, 1), src, dst);
        expect(0);
        let px = read_rgba(0, 0, 1, 1);
        let want = reference(0x92AF, src.map(f64::from), dst.map(unorm8));
        assert_pixel(&px, 0, want, &format!("hsl_color in {header}"));
    }
}

#[test]
fn a_multisampled_framebuffer_blends_per_sample() {
    let _c = context();
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage_ms = gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32));
    let attach_rb = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let blit = gl!(c"glBlitFramebuffer": fn(i32, i32, i32, i32, i32, i32, i32, i32, u32, u32));
    const GL_RENDERBUFFER: u32 = 0x8D41;
    const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
    const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
    let p = program(VS, &fs("blend_support_all_equations"));
    rgba8_target();
    let (mut ms, mut rb) = (0, 0);
    // SAFETY: out-pointers to locals; live names.
    unsafe {
        gen_fb(1, &mut ms);
        bind_fb(GL_FRAMEBUFFER, ms);
        gen_rb(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        storage_ms(GL_RENDERBUFFER, 4, GL_RGBA8, 16, 4);
        attach_rb(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    }
    use_program(p);
    enable(GL_BLEND);
    enable(GL_SCISSOR_TEST);
    let e = 0x929C; // soft light
    blend_equation(e);
    for (x, (src, dst)) in PAIRS.iter().enumerate() {
        blend_at(p, (2 * x as i32, 2), *src, *dst);
    }
    expect(0);
    // Resolved into the single-sampled framebuffer (`rgba8_target`'s, the first name). Each
    // pair fills two columns, and its left one is read: the resolving blit mixes a column with
    // its right neighbour (seen with plain blending too).
    // SAFETY: live framebuffers of one size.
    unsafe {
        bind_fb(GL_READ_FRAMEBUFFER, ms);
        bind_fb(GL_DRAW_FRAMEBUFFER, 1);
        let disable = gl!(c"glDisable": fn(u32));
        disable(GL_SCISSOR_TEST);
        blit(0, 0, 16, 4, 0, 0, 16, 4, GL_COLOR_BUFFER_BIT, 0x2600);
        bind_fb(GL_FRAMEBUFFER, 1);
    }
    expect(0);
    let px = read_rgba(0, 0, 2 * PAIRS.len() as i32, 1);
    for (x, (src, dst)) in PAIRS.iter().enumerate() {
        let want = reference(e, src.map(f64::from), dst.map(unorm8));
        assert_pixel(&px, 2 * x, want, &format!("multisampled, pair {x}"));
    }
}
