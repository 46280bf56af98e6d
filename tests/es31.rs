//! OpenGL ES 3.1 contexts: what ES 3.1 adds to ES 3.0 on the paths an ES program takes (the
//! sample mask, 2D multisample textures and their level queries, compute shaders writing
//! storage buffers), and the ES extensions an ES 3.1 context offers over desktop paths
//! (`translate/src/gl/context/es.rs`'s `ES_MAPPED`): their entry points, targets and GLSL ES
//! directives, and pixels drawn through them.
//!
//! The ES version rule (`context/es_version.rs`) claims ES 3.1 on a device that offers every
//! desktop path it needs, as lavapipe does.

use std::ffi::{c_void, CStr};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;
#[path = "common/es.rs"]
mod es_harness;

use es_harness::{compile, es_context, extensions, integer, string, use_program};
use gl_harness::{expect, f, read_rgba};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_VERSION: u32 = 0x1F02;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_TRIANGLES: u32 = 0x0004;
const GL_LINES_ADJACENCY: u32 = 0x000A;
const GL_TEXTURE_2D_MULTISAMPLE: u32 = 0x9100;
const GL_TEXTURE_2D_MULTISAMPLE_ARRAY: u32 = 0x9102;
const GL_TEXTURE_CUBE_MAP_ARRAY: u32 = 0x9009;
const GL_TEXTURE_BUFFER: u32 = 0x8C2A;
const GL_TEXTURE_SAMPLES: u32 = 0x9106;
const GL_TEXTURE_WIDTH: u32 = 0x1000;
const GL_SAMPLE_MASK: u32 = 0x8E51;
const GL_SAMPLE_MASK_VALUE: u32 = 0x8E52;
const GL_RGBA8: u32 = 0x8058;
const GL_R32F: u32 = 0x822E;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_NEAREST: u32 = 0x2600;
const GL_SHADER_STORAGE_BUFFER: u32 = 0x90D2;
const GL_ATOMIC_COUNTER_BUFFER: u32 = 0x92C0;
const GL_ALL_BARRIER_BITS: u32 = 0xFFFF_FFFF;
const GL_MAP_READ_BIT: u32 = 0x0001;
const GL_SHADER_STORAGE_BARRIER_BIT: u32 = 0x2000;
const GL_BUFFER_UPDATE_BARRIER_BIT: u32 = 0x0200;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_COMPUTE_SHADER: u32 = 0x91B9;

/// A vertex shader drawing one triangle that covers the viewport, from `gl_VertexID` alone.
const VS_COVER: &str = "#version 310 es\n\
    void main() {\n\
      vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n\
      gl_Position = vec4(p, 0.0, 1.0);\n\
    }\n";

fn draw_cover() {
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: no arrays are read (the vertex shader reads gl_VertexID only).
    unsafe { draw(GL_TRIANGLES, 0, 3) };
}

/// A framebuffer with `attach`ing called on it (bound to both targets), asserted complete.
fn framebuffer(attach: impl FnOnce()) -> u32 {
    let gen = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindFramebuffer": fn(u32, u32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let mut fb = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen(1, &mut fb);
        bind(GL_FRAMEBUFFER, fb);
        attach();
        assert_eq!(status(GL_FRAMEBUFFER), 0x8CD5, "complete");
    }
    fb
}

/// A framebuffer with one `samples`-sample RGBA8 32×32 renderbuffer as colour 0.
fn renderbuffer_framebuffer(samples: i32) -> u32 {
    let gen = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    framebuffer(|| {
        let mut rb = 0;
        // SAFETY: out-pointer to a local; the renderbuffer is bound.
        unsafe {
            gen(1, &mut rb);
            bind(GL_RENDERBUFFER, rb);
            storage(GL_RENDERBUFFER, samples, GL_RGBA8, 32, 32);
            attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        }
    })
}

#[test]
fn an_es_3_1_context_offers_the_mapped_es_extensions_with_their_entry_points() {
    let _c = es_context(3, 1);
    // The highest ES version the device completes: 3.1, or 3.2 (`tests/gl_es32.rs`).
    let version = string(GL_VERSION);
    assert!(
        ["OpenGL ES 3.1 ArenaGL 0.1", "OpenGL ES 3.2 ArenaGL 0.1"].contains(&version.as_str()),
        "{version}"
    );
    let list = extensions();
    assert!(list.iter().all(|e| !e.starts_with("GL_ARB_")), "{list:?}");
    let entry_points: &[(&str, &[&CStr])] = &[
        (
            "GL_EXT_texture_buffer",
            &[c"glTexBufferEXT", c"glTexBufferRangeEXT"],
        ),
        (
            "GL_OES_texture_buffer",
            &[c"glTexBufferOES", c"glTexBufferRangeOES"],
        ),
        (
            "GL_OES_texture_storage_multisample_2d_array",
            &[c"glTexStorage3DMultisampleOES"],
        ),
        ("GL_OES_sample_shading", &[c"glMinSampleShadingOES"]),
        ("GL_EXT_geometry_shader", &[c"glFramebufferTextureEXT"]),
        ("GL_OES_geometry_shader", &[c"glFramebufferTextureOES"]),
        (
            "GL_EXT_draw_buffers_indexed",
            &[c"glEnableiEXT", c"glBlendFunciEXT", c"glColorMaskiEXT"],
        ),
        (
            "GL_OES_draw_buffers_indexed",
            &[c"glDisableiOES", c"glBlendEquationSeparateiOES"],
        ),
        (
            "GL_EXT_texture_border_clamp",
            &[c"glTexParameterIivEXT", c"glSamplerParameterIuivEXT"],
        ),
        (
            "GL_OES_draw_elements_base_vertex",
            &[
                c"glDrawElementsBaseVertexOES",
                c"glDrawRangeElementsBaseVertexOES",
            ],
        ),
        (
            "GL_EXT_base_instance",
            &[
                c"glDrawArraysInstancedBaseInstanceEXT",
                c"glDrawElementsInstancedBaseVertexBaseInstanceEXT",
            ],
        ),
    ];
    for (name, functions) in entry_points {
        assert!(list.iter().any(|e| e == name), "{name} offered: {list:?}");
        for function in *functions {
            // `f` asserts that eglGetProcAddress finds it.
            // SAFETY: only the pointer is looked at.
            let _ = unsafe { f::<*const c_void>(function) };
        }
    }
    // ES 3.1's own commands.
    for function in [
        c"glSampleMaski",
        c"glGetMultisamplefv",
        c"glMemoryBarrierByRegion",
        c"glGetTexLevelParameterfv",
        c"glProgramUniform1i",
        c"glDispatchCompute",
    ] {
        // SAFETY: only the pointer is looked at.
        let _ = unsafe { f::<*const c_void>(function) };
    }
}

#[test]
fn es_3_1_admits_its_targets_and_capabilities_and_refuses_what_es_lacks() {
    let _c = es_context(3, 1);
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let enable = gl!(c"glEnable": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain enums; the draw reads no arrays (no program: nothing is drawn).
    unsafe {
        for target in [
            GL_TEXTURE_2D_MULTISAMPLE,
            GL_TEXTURE_2D_MULTISAMPLE_ARRAY,
            GL_TEXTURE_BUFFER,
            GL_TEXTURE_CUBE_MAP_ARRAY,
        ] {
            bind(target, 0);
            expect(GL_NO_ERROR);
        }
        bind(0x0DE0, 0); // GL_TEXTURE_1D
        expect(GL_INVALID_ENUM);
        enable(GL_SAMPLE_MASK);
        expect(GL_NO_ERROR);
        // ES 3.0's ten ETC2/EAC formats and the 28 ASTC LDR ones are listed.
        assert_eq!(integer(0x86A2), 38); // GL_NUM_COMPRESSED_TEXTURE_FORMATS
                                         // Adjacency comes with GL_EXT_geometry_shader, patches with
                                         // GL_EXT_tessellation_shader; quads never exist in ES.
        draw(GL_LINES_ADJACENCY, 0, 4);
        expect(GL_NO_ERROR);
        // A patch draw without tessellation stages is GL_INVALID_OPERATION, not the
        // GL_INVALID_ENUM of a mode ES lacks.
        draw(0x000E, 0, 4); // GL_PATCHES
        expect(0x0502);
        draw(0x0007, 0, 4); // GL_QUADS
        expect(GL_INVALID_ENUM);
    }
}

#[test]
fn the_sample_mask_keeps_only_the_masked_samples() {
    let _c = es_context(3, 1);
    let enable = gl!(c"glEnable": fn(u32));
    let is_enabled = gl!(c"glIsEnabled": fn(u32) -> u8);
    let sample_mask = gl!(c"glSampleMaski": fn(u32, u32));
    let get_i = gl!(c"glGetIntegeri_v": fn(u32, u32, *mut i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let blit = gl!(c"glBlitFramebuffer": fn(i32, i32, i32, i32, i32, i32, i32, i32, u32, u32));
    use_program(&[
        (GL_VERTEX_SHADER, VS_COVER),
        (
            GL_FRAGMENT_SHADER,
            "#version 310 es\nprecision highp float;\nout vec4 o;\n\
             void main() { o = vec4(1.0, 0.0, 0.0, 1.0); }\n",
        ),
    ]);
    let resolved = renderbuffer_framebuffer(0);
    let multisampled = renderbuffer_framebuffer(4);
    // Red over black through half of the 4 samples, resolved: half red.
    let through_mask = |mask: u32| {
        // SAFETY: plain values; both framebuffers are complete.
        unsafe {
            bind_fb(GL_FRAMEBUFFER, multisampled);
            clear_color(0.0, 0.0, 0.0, 1.0);
            clear(GL_COLOR_BUFFER_BIT);
            sample_mask(0, mask);
            draw_cover();
            bind_fb(GL_READ_FRAMEBUFFER, multisampled);
            bind_fb(GL_DRAW_FRAMEBUFFER, resolved);
            blit(0, 0, 32, 32, 0, 0, 32, 32, GL_COLOR_BUFFER_BIT, GL_NEAREST);
            bind_fb(GL_FRAMEBUFFER, resolved);
        }
        read_rgba(16, 16, 1, 1)[0]
    };
    assert_eq!(through_mask(0b0101), 255, "GL_SAMPLE_MASK is off");
    // SAFETY: plain enum.
    unsafe { enable(GL_SAMPLE_MASK) };
    assert_eq!(through_mask(0b1111), 255);
    let half = through_mask(0b0101);
    assert!((126..=129).contains(&half), "two of four samples: {half}");
    assert_eq!(through_mask(0), 0, "no sample");
    let mut v = 0;
    // SAFETY: out-pointers to a local.
    unsafe {
        assert_eq!(is_enabled(GL_SAMPLE_MASK), 1);
        get_i(GL_SAMPLE_MASK_VALUE, 0, &mut v);
        assert_eq!(v, 0);
        sample_mask(0, 0b0110);
        get_i(GL_SAMPLE_MASK_VALUE, 0, &mut v);
        assert_eq!(v, 0b0110);
        expect(GL_NO_ERROR);
        sample_mask(1, 0); // GL_MAX_SAMPLE_MASK_WORDS is 1
        expect(GL_INVALID_VALUE);
        get_i(GL_SAMPLE_MASK_VALUE, 1, &mut v);
        expect(GL_INVALID_VALUE);
    }
}

#[test]
fn a_2d_multisample_texture_answers_its_level_queries() {
    let _c = es_context(3, 1);
    let storage = gl!(c"glTexStorage2DMultisample": fn(u32, i32, u32, i32, i32, u8));
    let level_iv = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let level_fv = gl!(c"glGetTexLevelParameterfv": fn(u32, i32, u32, *mut f32));
    gl_harness::new_texture(GL_TEXTURE_2D_MULTISAMPLE);
    let (mut samples, mut width) = (0, 0.0);
    // SAFETY: out-pointers to locals.
    unsafe {
        storage(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 16, 8, 1);
        expect(GL_NO_ERROR);
        level_iv(
            GL_TEXTURE_2D_MULTISAMPLE,
            0,
            GL_TEXTURE_SAMPLES,
            &mut samples,
        );
        level_fv(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_WIDTH, &mut width);
        expect(GL_NO_ERROR);
        level_fv(GL_TEXTURE_2D_MULTISAMPLE, 0, 0xFFFF, &mut width);
        expect(GL_INVALID_ENUM);
    }
    assert_eq!(samples, 4);
    assert_eq!(width, 16.0);
}

#[test]
fn an_es_3_1_compute_shader_fills_a_storage_buffer() {
    let _c = es_context(3, 1);
    let dispatch = gl!(c"glDispatchCompute": fn(u32, u32, u32));
    let barrier = gl!(c"glMemoryBarrier": fn(u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    use_program(&[(
        GL_COMPUTE_SHADER,
        "#version 310 es\nlayout(local_size_x = 8) in;\n\
         layout(std430, binding = 2) buffer Out { uint v[]; };\n\
         void main() { uint i = gl_GlobalInvocationID.x; v[i] = i * i + 1u; }\n",
    )]);
    let ssbo = gl_harness::buffer_with(GL_SHADER_STORAGE_BUFFER, &[0u8; 64]);
    // SAFETY: a live buffer; plain counts and bits.
    unsafe {
        bind_base(GL_SHADER_STORAGE_BUFFER, 2, ssbo);
        dispatch(2, 1, 1);
        barrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    let want: Vec<u32> = (0..16).map(|i| i * i + 1).collect();
    assert_eq!(read_uints(GL_SHADER_STORAGE_BUFFER, ssbo, 16), want);
    expect(GL_NO_ERROR);
}

/// The first `count` uints of `buffer`, read through a mapping on `target`.
fn read_uints(target: u32, buffer: u32, count: usize) -> Vec<u32> {
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *const u32);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    // SAFETY: the caller's buffer holds `count` uints; the mapping is read within that length
    // (checked for NULL), then unmapped.
    unsafe {
        bind(target, buffer);
        let p = map(target, 0, (count * 4) as isize, GL_MAP_READ_BIT);
        assert!(!p.is_null());
        let v = std::slice::from_raw_parts(p, count).to_vec();
        unmap(target);
        v
    }
}

/// `buffer_with` for uints.
fn uint_buffer(target: u32, values: &[u32]) -> u32 {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    gl_harness::buffer_with(target, &bytes)
}

#[test]
fn glsl_es_3_10_atomic_counters_increment_decrement_and_read() {
    let _c = es_context(3, 1);
    let dispatch = gl!(c"glDispatchCompute": fn(u32, u32, u32));
    let barrier = gl!(c"glMemoryBarrier": fn(u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    // Two counters of binding 1 (offsets 0 and 4): eight invocations count `up` up and `down`
    // down, keeping what the functions return; then one invocation reads both.
    let counting = "#version 310 es\nlayout(local_size_x = 8) in;\n\
         layout(binding = 1, offset = 0) uniform atomic_uint up;\n\
         layout(binding = 1, offset = 4) uniform atomic_uint down;\n\
         layout(std430, binding = 0) buffer Out { uint v[]; };\n\
         void main() {\n\
           uint i = gl_LocalInvocationIndex;\n\
           v[i] = atomicCounterIncrement(up);\n\
           v[8u + i] = atomicCounterDecrement(down);\n\
         }\n";
    let reading = "#version 310 es\nlayout(local_size_x = 1) in;\n\
         layout(binding = 1, offset = 0) uniform atomic_uint up;\n\
         layout(binding = 1, offset = 4) uniform atomic_uint down;\n\
         layout(std430, binding = 0) buffer Out { uint v[]; };\n\
         void main() { v[16] = atomicCounter(up); v[17] = atomicCounter(down); }\n";
    let counters = uint_buffer(GL_ATOMIC_COUNTER_BUFFER, &[0, 100]);
    let out = uint_buffer(GL_SHADER_STORAGE_BUFFER, &[0; 18]);
    for source in [counting, reading] {
        use_program(&[(GL_COMPUTE_SHADER, source)]);
        // SAFETY: live buffers; plain counts and bits.
        unsafe {
            bind_base(GL_ATOMIC_COUNTER_BUFFER, 1, counters);
            bind_base(GL_SHADER_STORAGE_BUFFER, 0, out);
            dispatch(1, 1, 1);
            barrier(GL_ALL_BARRIER_BITS);
        }
    }
    let got = read_uints(GL_SHADER_STORAGE_BUFFER, out, 18);
    let (mut ups, mut downs) = (got[..8].to_vec(), got[8..16].to_vec());
    ups.sort_unstable();
    downs.sort_unstable();
    assert_eq!(
        ups,
        (0..8).collect::<Vec<u32>>(),
        "the values before each increment"
    );
    assert_eq!(
        downs,
        (92..100).collect::<Vec<u32>>(),
        "the values after each decrement"
    );
    assert_eq!(got[16..], [8, 92], "atomicCounter() reads the counts");
    assert_eq!(read_uints(GL_ATOMIC_COUNTER_BUFFER, counters, 2), [8, 92]);
    expect(GL_NO_ERROR);
}

#[test]
fn glsl_es_3_10_arrays_of_arrays_are_uniforms_with_a_location_per_element() {
    let _c = es_context(3, 1);
    let uniform4f = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const std::ffi::c_char) -> i32);
    let p = use_program(&[
        (GL_VERTEX_SHADER, VS_COVER),
        (
            GL_FRAGMENT_SHADER,
            "#version 310 es\nprecision highp float;\nuniform vec4 a[2][3];\nout vec4 o;\n\
             void main() { o = a[1][2] + vec4(float(a.length() * a[0].length()) / 16.0) * a[0][1]; }\n",
        ),
    ]);
    // SAFETY: NUL-terminated names; locations from the linked program in use.
    unsafe {
        let (l12, l01) = (
            location(p, c"a[1][2]".as_ptr()),
            location(p, c"a[0][1]".as_ptr()),
        );
        assert!(l12 >= 0 && l01 >= 0 && l12 != l01, "{l12} {l01}");
        assert_eq!(location(p, c"a[2][0]".as_ptr()), -1, "past the outer size");
        uniform4f(l12, 0.25, 0.0, 0.0, 1.0);
        uniform4f(l01, 0.0, 1.0, 2.0, 0.0);
    }
    expect(GL_NO_ERROR);
    let _fb = renderbuffer_framebuffer(0);
    draw_cover();
    // a[1][2] + 6/16 × a[0][1] = (0.25, 0.375, 0.75, 1).
    let px = read_rgba(4, 4, 1, 1);
    gl_harness::assert_rgba8_near([px[0], px[1], px[2], px[3]], [64, 96, 191, 255], "a[1][2]");
}

#[test]
fn a_glsl_es_texture_buffer_reads_the_buffer_through_ext_texture_buffer() {
    let _c = es_context(3, 1);
    let tex_buffer = gl!(c"glTexBufferEXT": fn(u32, u32, u32));
    let data: Vec<u8> = [0.25f32, 0.5, 0.75, 1.0]
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
    let buffer = gl_harness::buffer_with(GL_TEXTURE_BUFFER, &data);
    gl_harness::new_texture(GL_TEXTURE_BUFFER);
    // SAFETY: a live buffer of four floats.
    unsafe { tex_buffer(GL_TEXTURE_BUFFER, GL_R32F, buffer) };
    expect(GL_NO_ERROR);
    use_program(&[
        (GL_VERTEX_SHADER, VS_COVER),
        (
            GL_FRAGMENT_SHADER,
            "#version 310 es\n#extension GL_EXT_texture_buffer : require\n\
             precision highp float;\nuniform highp samplerBuffer t;\nout vec4 o;\n\
             void main() { o = vec4(texelFetch(t, 1).r, texelFetch(t, 2).r, 0.0, 1.0); }\n",
        ),
    ]);
    let _fb = renderbuffer_framebuffer(0);
    draw_cover();
    let px = read_rgba(4, 4, 1, 1);
    assert!(
        px[0].abs_diff(128) <= 1 && px[1].abs_diff(191) <= 1,
        "{px:?}"
    );
}

#[test]
fn glsl_es_3_10_sees_the_offered_es_extensions_and_refuses_others() {
    let _c = es_context(3, 1);
    for (src, offered) in [
        (
            "#version 310 es\n#extension GL_OES_sample_variables : require\n\
             precision highp float;\nout vec4 o;\n\
             void main() { o = vec4(float(gl_SampleMaskIn[0] & 1)); gl_SampleMask[0] = 1; }\n",
            true,
        ),
        (
            "#version 310 es\n#extension GL_OES_texture_storage_multisample_2d_array : require\n\
             precision highp float;\nuniform highp sampler2DMSArray s;\nout vec4 o;\n\
             void main() { o = texelFetch(s, ivec3(0), 0); }\n",
            true,
        ),
        (
            "#version 310 es\n#extension GL_OES_shader_image_atomic : require\n\
             precision highp float;\nlayout(r32ui, binding = 0) uniform highp uimage2D i;\n\
             out vec4 o;\nvoid main() { o = vec4(imageAtomicAdd(i, ivec2(0), 1u)); }\n",
            true,
        ),
        (
            "#version 310 es\n#ifndef GL_EXT_texture_cube_map_array\n#error no macro\n#endif\n\
             #extension GL_EXT_texture_cube_map_array : require\nprecision highp float;\n\
             uniform highp samplerCubeArray s;\nout vec4 o;\n\
             void main() { o = texture(s, vec4(0.0)); }\n",
            true,
        ),
        // Not offered (the device lacks shaderTessellationAndGeometryPointSize): the directive
        // fails and the macro is undefined.
        (
            "#version 310 es\n#extension GL_EXT_geometry_point_size : require\n\
             precision highp float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n",
            false,
        ),
        (
            "#version 310 es\n#ifdef GL_EXT_geometry_point_size\n#error macro\n#endif\n\
             precision highp float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n",
            true,
        ),
    ] {
        let (_, ok, log) = compile(GL_FRAGMENT_SHADER, src);
        assert_eq!(ok, offered, "{src}\n{log}");
    }
}

#[test]
fn an_es_2_0_context_gets_neither_es_3_extensions_nor_es_3_1_targets() {
    // ES 2.0 keeps its extension list: no ES 3.x extension, nor ES 3.1's targets.
    let _c = es_context(2, 0);
    let list = string(GL_EXTENSIONS);
    for name in [
        "GL_EXT_texture_buffer",
        "GL_EXT_base_instance",
        "GL_OES_sample_shading",
    ] {
        assert!(!list.contains(name), "{name} in {list}");
    }
    assert!(list.contains("GL_OES_texture_border_clamp"), "{list}");
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let enable = gl!(c"glEnable": fn(u32));
    // SAFETY: plain enums.
    unsafe {
        bind(GL_TEXTURE_2D_MULTISAMPLE, 0);
        expect(GL_INVALID_ENUM);
        enable(GL_SAMPLE_MASK);
        expect(GL_INVALID_ENUM);
    }
}
