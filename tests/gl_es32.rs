//! OpenGL ES 3.2 contexts: what ES 3.2 adds to ES 3.1 on the paths an ES program takes —
//! GLSL ES 3.20 geometry and tessellation programs drawing, texture buffers and cube map arrays
//! sampled, per-draw-buffer blending, the primitive bounding box, `GL_CONTEXT_FLAGS` — and what
//! ES still refuses there.
//!
//! ES 3.2 is claimed only when the device offers every desktop path it needs and the ES side
//! is complete (`translate/src/gl/context/es_version.rs`). Until GL_KHR_blend_equation_advanced,
//! ASTC LDR and GL_ARB_texture_stencil8 are offered by default, these tests name them in
//! `ARENAGL_EXPERIMENTAL`, which the ES version rule counts (`context/experimental.rs`).

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;
#[path = "common/es.rs"]
mod es_harness;

use es_harness::{compile, es_context, extensions, integer, string, use_program};
use gl_harness::{assert_rgba8_near, expect, f, read_rgba, Current};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_VERSION: u32 = 0x1F02;
const GL_SHADING_LANGUAGE_VERSION: u32 = 0x8B8C;
const GL_CONTEXT_FLAGS: u32 = 0x821E;
const GL_CONTEXT_PROFILE_MASK: u32 = 0x9126;
const GL_PRIMITIVE_BOUNDING_BOX: u32 = 0x92BE;
const GL_DEBUG_OUTPUT: u32 = 0x92E0;
const GL_DEBUG_OUTPUT_SYNCHRONOUS: u32 = 0x8242;
const GL_PATCHES: u32 = 0x000E;
const GL_PATCH_VERTICES: u32 = 0x8E72;
const GL_TRIANGLES: u32 = 0x0004;
const GL_QUADS: u32 = 0x0007;
const GL_TEXTURE_1D: u32 = 0x0DE0;
const GL_TEXTURE_RECTANGLE: u32 = 0x84F5;
const GL_TEXTURE_BUFFER: u32 = 0x8C2A;
const GL_TEXTURE_CUBE_MAP_ARRAY: u32 = 0x9009;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_MAG_FILTER: u32 = 0x2800;
const GL_NEAREST: i32 = 0x2600;
const GL_RGBA8: u32 = 0x8058;
const GL_RGBA32F: u32 = 0x8814;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_BLEND: u32 = 0x0BE2;
const GL_ONE: u32 = 1;
const GL_FRONT_AND_BACK: u32 = 0x0408;
const GL_LINE: u32 = 0x1B01;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_GEOMETRY_SHADER: u32 = 0x8DD9;
const GL_TESS_CONTROL_SHADER: u32 = 0x8E88;
const GL_TESS_EVALUATION_SHADER: u32 = 0x8E87;

/// The desktop extensions ES 3.2 still waits for (helpers are building them), named so the ES
/// version rule counts them (`es_version::named_experimental`).
const PENDING: &str =
    "GL_KHR_blend_equation_advanced,GL_KHR_texture_compression_astc_ldr,GL_ARB_texture_stencil8";

/// A current ES 3.2 context (asserted) on a 32×32 pbuffer.
fn es32() -> Current {
    // Every test of this binary sets the same value before its first context.
    std::env::set_var("ARENAGL_EXPERIMENTAL", PENDING);
    let c = es_context(3, 2);
    assert_eq!(string(GL_VERSION), "OpenGL ES 3.2 ArenaGL 0.1");
    c
}

/// A vertex shader drawing one triangle that covers the viewport, from `gl_VertexID` alone.
const VS_COVER: &str = "#version 320 es\n\
    void main() {\n\
      vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n\
      gl_Position = vec4(p, 0.0, 1.0);\n\
    }\n";

/// A framebuffer with `count` RGBA8 32×32 renderbuffers as colour 0.., bound, all drawn to.
fn colour_framebuffer(count: u32) -> u32 {
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let draw_buffers = gl!(c"glDrawBuffers": fn(i32, *const u32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let buffers: Vec<u32> = (0..count).map(|i| GL_COLOR_ATTACHMENT0 + i).collect();
    let mut fb = 0;
    // SAFETY: out-pointers to locals; `buffers` holds `count` enums.
    unsafe {
        gen_fb(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        for &attachment in &buffers {
            let mut rb = 0;
            gen_rb(1, &mut rb);
            bind_rb(GL_RENDERBUFFER, rb);
            storage(GL_RENDERBUFFER, GL_RGBA8, 32, 32);
            attach(GL_FRAMEBUFFER, attachment, GL_RENDERBUFFER, rb);
        }
        draw_buffers(count as i32, buffers.as_ptr());
        assert_eq!(status(GL_FRAMEBUFFER), 0x8CD5, "complete");
    }
    fb
}

fn draw(mode: u32, count: i32) {
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: no arrays are read (the vertex shaders read gl_VertexID only).
    unsafe { draw(mode, 0, count) };
}

/// The pixel at (16, 16) of colour attachment `index` of the bound framebuffer.
fn centre_of(index: u32) -> [u8; 4] {
    let read_buffer = gl!(c"glReadBuffer": fn(u32));
    // SAFETY: a plain enum naming an attachment of the bound framebuffer.
    unsafe { read_buffer(GL_COLOR_ATTACHMENT0 + index) };
    let px = read_rgba(16, 16, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

#[test]
fn an_es_3_2_context_offers_its_commands_and_state() {
    let _c = es32();
    assert_eq!(
        string(GL_SHADING_LANGUAGE_VERSION),
        "OpenGL ES GLSL ES 3.20"
    );
    let list = extensions();
    assert!(list.iter().all(|e| !e.starts_with("GL_ARB_")), "{list:?}");
    for name in [
        "GL_EXT_tessellation_shader",
        "GL_OES_tessellation_shader",
        "GL_EXT_primitive_bounding_box",
        "GL_OES_primitive_bounding_box",
        "GL_EXT_geometry_shader",
        "GL_KHR_robustness",
        "GL_KHR_debug",
    ] {
        assert!(list.iter().any(|e| e == name), "{name} offered: {list:?}");
    }
    // ES 3.2's own commands (OpenGL ES 3.2 appendix "Version 3.2").
    for function in [
        c"glPrimitiveBoundingBox",
        c"glPrimitiveBoundingBoxEXT",
        c"glPatchParameteri",
        c"glPatchParameteriEXT",
        c"glPatchParameteriOES",
        c"glPrimitiveBoundingBoxOES",
        c"glTexBuffer",
        c"glTexBufferRange",
        c"glCopyImageSubData",
        c"glBlendEquationi",
        c"glBlendFunci",
        c"glColorMaski",
        c"glEnablei",
        c"glMinSampleShading",
        c"glGetGraphicsResetStatus",
        c"glReadnPixels",
        c"glGetnUniformfv",
        c"glDrawElementsBaseVertex",
        c"glFramebufferTexture",
        c"glDebugMessageCallback",
        c"glTexParameterIiv",
        c"glGetSamplerParameterIuiv",
    ] {
        // SAFETY: only the pointer is looked at (`f` asserts it is there).
        let _ = unsafe { f::<*const c_void>(function) };
    }
    // GL_CONTEXT_FLAGS is ES 3.2 state; the profile mask is desktop-only.
    assert_eq!(integer(GL_CONTEXT_FLAGS), 0);
    expect(GL_NO_ERROR);
    // KHR_debug's capabilities are ES capabilities.
    let enable = gl!(c"glEnable": fn(u32));
    let is_enabled = gl!(c"glIsEnabled": fn(u32) -> u8);
    for cap in [GL_DEBUG_OUTPUT, GL_DEBUG_OUTPUT_SYNCHRONOUS] {
        // SAFETY: plain enums.
        unsafe {
            enable(cap);
            expect(GL_NO_ERROR);
            assert_eq!(is_enabled(cap), 1);
        }
    }
    integer(GL_CONTEXT_PROFILE_MASK);
    expect(GL_INVALID_ENUM);
}

#[test]
fn the_primitive_bounding_box_is_kept_as_state() {
    let _c = es32();
    let get = gl!(c"glGetFloatv": fn(u32, *mut f32));
    let set = gl!(c"glPrimitiveBoundingBox": fn(f32, f32, f32, f32, f32, f32, f32, f32));
    let read = || {
        let mut v = [0f32; 8];
        // SAFETY: room for the eight values.
        unsafe { get(GL_PRIMITIVE_BOUNDING_BOX, v.as_mut_ptr()) };
        v
    };
    assert_eq!(read(), [-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    // SAFETY: plain values.
    unsafe { set(-0.5, -0.25, 0.0, 1.0, 0.5, 0.25, 1.0, 2.0) };
    assert_eq!(read(), [-0.5, -0.25, 0.0, 1.0, 0.5, 0.25, 1.0, 2.0]);
    expect(GL_NO_ERROR);
}

const TCS: &str = "#version 320 es\n\
    layout(vertices = 3) out;\n\
    void main() {\n\
      gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n\
      gl_TessLevelOuter[0] = 2.0; gl_TessLevelOuter[1] = 2.0; gl_TessLevelOuter[2] = 2.0;\n\
      gl_TessLevelInner[0] = 2.0;\n\
      gl_BoundingBox[0] = vec4(-1.0); gl_BoundingBox[1] = vec4(1.0);\n\
    }\n";

const TES: &str = "#version 320 es\n\
    layout(triangles, equal_spacing, ccw) in;\n\
    out highp vec3 weights;\n\
    void main() {\n\
      weights = gl_TessCoord;\n\
      gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position\n\
                  + gl_TessCoord.z * gl_in[2].gl_Position;\n\
    }\n";

/// A geometry shader passing triangles through, its colour in an output block.
const GS: &str = "#version 320 es\n\
    layout(triangles) in;\n\
    layout(triangle_strip, max_vertices = 3) out;\n\
    in highp vec3 weights[];\n\
    out Colour { highp vec4 colour; } o;\n\
    void main() {\n\
      for (int i = 0; i < 3; i++) {\n\
        gl_Position = gl_in[i].gl_Position;\n\
        o.colour = vec4(0.0, 1.0, float(gl_PrimitiveIDIn >= 0), 1.0);\n\
        EmitVertex();\n\
      }\n\
      EndPrimitive();\n\
    }\n";

const FS_COLOUR_BLOCK: &str = "#version 320 es\n\
    precision mediump float;\n\
    in Colour { vec4 colour; } i;\n\
    out vec4 o;\n\
    void main() { o = i.colour; }\n";

#[test]
fn a_glsl_es_3_20_tessellation_and_geometry_program_draws() {
    let _c = es32();
    let patch_parameter = gl!(c"glPatchParameteri": fn(u32, i32));
    use_program(&[
        (GL_VERTEX_SHADER, VS_COVER),
        (GL_TESS_CONTROL_SHADER, TCS),
        (GL_TESS_EVALUATION_SHADER, TES),
        (GL_GEOMETRY_SHADER, GS),
        (GL_FRAGMENT_SHADER, FS_COLOUR_BLOCK),
    ]);
    colour_framebuffer(1);
    // SAFETY: plain values.
    unsafe { patch_parameter(GL_PATCH_VERTICES, 3) };
    assert_eq!(integer(GL_PATCH_VERTICES), 3);
    draw(GL_PATCHES, 3);
    expect(GL_NO_ERROR);
    assert_rgba8_near(centre_of(0), [0, 255, 255, 255], "through every stage");
    // A program with tessellation stages draws patches only.
    draw(GL_TRIANGLES, 3);
    expect(GL_INVALID_OPERATION);
}

#[test]
fn texture_buffers_and_cube_map_arrays_sample_in_glsl_es_3_20() {
    let _c = es32();
    let tex_buffer = gl!(c"glTexBuffer": fn(u32, u32, u32));
    let storage = gl!(c"glTexStorage3D": fn(u32, i32, u32, i32, i32, i32));
    let sub_image = gl!(c"glTexSubImage3D": fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let active = gl!(c"glActiveTexture": fn(u32));
    let uniform = gl!(c"glUniform1i": fn(i32, i32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    let data: Vec<u8> = [0.0f32, 0.0, 0.0, 0.0, 0.25, 0.5, 0.75, 1.0]
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
    let buffer = gl_harness::buffer_with(GL_TEXTURE_BUFFER, &data);
    // SAFETY: plain values; a live buffer of two RGBA32F texels; 12 RGBA8 faces of 1×1.
    unsafe {
        active(0x84C0); // GL_TEXTURE0
        gl_harness::new_texture(GL_TEXTURE_BUFFER);
        tex_buffer(GL_TEXTURE_BUFFER, GL_RGBA32F, buffer);
        active(0x84C1);
        gl_harness::new_texture(GL_TEXTURE_CUBE_MAP_ARRAY);
        storage(GL_TEXTURE_CUBE_MAP_ARRAY, 1, GL_RGBA8, 1, 1, 12);
        // Layer-face 6..11 (the second cube) are blue, the first cube's are black.
        let faces: Vec<u8> = (0..12)
            .flat_map(|i| {
                if i < 6 {
                    [0, 0, 0, 255]
                } else {
                    [0, 0, 255, 255]
                }
            })
            .collect();
        sub_image(
            GL_TEXTURE_CUBE_MAP_ARRAY,
            0,
            0,
            0,
            0,
            1,
            1,
            12,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            faces.as_ptr().cast(),
        );
        parameter(GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        parameter(GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    expect(GL_NO_ERROR);
    let p = use_program(&[
        (GL_VERTEX_SHADER, VS_COVER),
        (
            GL_FRAGMENT_SHADER,
            "#version 320 es\nprecision highp float;\n\
             uniform highp samplerBuffer b;\nuniform highp samplerCubeArray c;\nout vec4 o;\n\
             void main() { vec4 t = texelFetch(b, 1);\n\
               o = vec4(t.r, t.g, texture(c, vec4(1.0, 0.0, 0.0, 1.0)).b, 1.0); }\n",
        ),
    ]);
    // SAFETY: NUL-terminated names of the program in use.
    unsafe {
        uniform(location(p, c"b".as_ptr()), 0);
        uniform(location(p, c"c".as_ptr()), 1);
    }
    colour_framebuffer(1);
    draw(GL_TRIANGLES, 3);
    expect(GL_NO_ERROR);
    assert_rgba8_near(centre_of(0), [64, 128, 255, 255], "buffer texel 1, cube 1");
}

#[test]
fn blending_is_per_draw_buffer() {
    let _c = es32();
    let enable_i = gl!(c"glEnablei": fn(u32, u32));
    let is_enabled_i = gl!(c"glIsEnabledi": fn(u32, u32) -> u8);
    let blend_func_i = gl!(c"glBlendFunci": fn(u32, u32, u32));
    let blend_equation_i = gl!(c"glBlendEquationi": fn(u32, u32));
    let color_mask_i = gl!(c"glColorMaski": fn(u32, u8, u8, u8, u8));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    use_program(&[
        (GL_VERTEX_SHADER, VS_COVER),
        (
            GL_FRAGMENT_SHADER,
            "#version 320 es\nprecision mediump float;\n\
             layout(location = 0) out vec4 a;\nlayout(location = 1) out vec4 b;\n\
             layout(location = 2) out vec4 c;\n\
             void main() { a = vec4(0.25); b = vec4(0.25); c = vec4(0.25); }\n",
        ),
    ]);
    colour_framebuffer(3);
    // SAFETY: plain values.
    unsafe {
        clear_color(0.5, 0.5, 0.5, 0.5);
        clear(GL_COLOR_BUFFER_BIT);
        // Buffer 1 adds, buffer 2 keeps its red and green; buffer 0 replaces.
        enable_i(GL_BLEND, 1);
        blend_func_i(1, GL_ONE, GL_ONE);
        blend_equation_i(1, 0x8006); // GL_FUNC_ADD
        color_mask_i(2, 0, 0, 1, 1);
        assert_eq!(is_enabled_i(GL_BLEND, 1), 1);
        assert_eq!(is_enabled_i(GL_BLEND, 0), 0);
    }
    draw(GL_TRIANGLES, 3);
    expect(GL_NO_ERROR);
    assert_rgba8_near(centre_of(0), [64, 64, 64, 64], "replaced");
    assert_rgba8_near(centre_of(1), [191, 191, 191, 191], "added");
    assert_rgba8_near(centre_of(2), [128, 128, 64, 64], "blue and alpha written");
}

#[test]
fn es_3_2_still_refuses_what_es_lacks() {
    let _c = es32();
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let polygon_mode = gl!(c"glPolygonMode": fn(u32, u32));
    // SAFETY: plain enums; no program is in use (nothing is drawn).
    unsafe {
        for target in [GL_TEXTURE_BUFFER, GL_TEXTURE_CUBE_MAP_ARRAY] {
            bind(target, 0);
            expect(GL_NO_ERROR);
        }
        for target in [GL_TEXTURE_1D, GL_TEXTURE_RECTANGLE] {
            bind(target, 0);
            expect(GL_INVALID_ENUM);
        }
        draw(GL_QUADS, 4);
        expect(GL_INVALID_ENUM);
        polygon_mode(GL_FRONT_AND_BACK, GL_LINE);
        expect(GL_INVALID_OPERATION);
    }
    // Desktop GLSL is refused; GLSL ES 3.20 keeps ES's rules.
    let (_, ok, log) = compile(GL_VERTEX_SHADER, "#version 450\nvoid main() {}\n");
    assert!(!ok && log.contains("not supported"), "{log}");
    let (_, ok, _) = compile(
        GL_FRAGMENT_SHADER,
        "#version 320 es\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n",
    );
    assert!(!ok, "a fragment shader needs a default float precision");
}

#[test]
fn integer_fragment_inputs_in_blocks_must_be_flat() {
    let _c = es32();
    let unit = |member: &str| {
        format!(
            "#version 320 es\nprecision mediump float;\nstruct S {{ uvec2 u; }};\n\
             in IB {{\n  {member};\n}};\nout vec4 o;\nvoid main() {{ o = vec4(1.0); }}\n"
        )
    };
    for (member, flat) in [
        ("int i", false),
        ("smooth ivec3 i", false),
        ("uint i[2]", false),
        ("S s", false),
        ("flat int i", true),
        ("flat S s", true),
        ("vec4 v", true),
    ] {
        let (_, ok, log) = compile(GL_FRAGMENT_SHADER, &unit(member));
        assert_eq!(ok, flat, "{member}: {log}");
        if !ok {
            assert!(log.contains("0:5:") && log.contains("flat"), "{log}");
        }
    }
    // The vertex side of such a block is free.
    let (_, ok, log) = compile(
        GL_VERTEX_SHADER,
        "#version 320 es\nout IB { int i; };\nvoid main() { i = 1; gl_Position = vec4(0.0); }\n",
    );
    assert!(ok, "{log}");
}
