//! Compute shaders, shader storage blocks and atomic counters through the C ABI
//! (GL_ARB_compute_shader, GL_ARB_shader_storage_buffer_object, GL_ARB_shader_atomic_counters):
//! a dispatch writes a storage buffer that `glGetBufferSubData` and a map read back, an indirect
//! dispatch reads its counts from a buffer, atomic counters count invocations, a draw reads what
//! a dispatch wrote, and the dispatch errors GL names. The validation layer must stay silent.

use std::ffi::{c_char, c_void, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_COMPUTE_SHADER: u32 = 0x91B9;
const GL_SHADER_STORAGE_BUFFER: u32 = 0x90D2;
const GL_ATOMIC_COUNTER_BUFFER: u32 = 0x92C0;
const GL_DISPATCH_INDIRECT_BUFFER: u32 = 0x90EE;
const GL_UNIFORM_BUFFER: u32 = 0x8A11;
const GL_DYNAMIC_DRAW: u32 = 0x88E8;
const GL_MAP_READ_BIT: u32 = 0x0001;
const GL_COMPUTE_WORK_GROUP_SIZE: u32 = 0x8267;
const GL_MAX_COMPUTE_WORK_GROUP_COUNT: u32 = 0x91BE;
const GL_SHADER_STORAGE_BUFFER_BINDING: u32 = 0x90D3;
const GL_SHADER_STORAGE_BARRIER_BIT: u32 = 0x2000;
const GL_LINK_STATUS: u32 = 0x8B82;
const GL_TRIANGLE_STRIP: u32 = 5;

/// Writes `index * scale` into element `gl_GlobalInvocationID.x` of the storage block.
const FILL: &str = "#version 330\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\nlayout(local_size_x = 4) in;\nlayout(std430, binding = 1) buffer Out { uint values[]; };\nuniform uint scale;\nvoid main() {\n    uint i = gl_GlobalInvocationID.x;\n    values[i] = i * scale;\n}\n";

/// Counts invocations with an atomic counter (binding 0) and records the work-group count.
const COUNT: &str = "#version 330\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_atomic_counters : require\nlayout(local_size_x = 2, local_size_y = 2) in;\nlayout(binding = 0) uniform atomic_uint invocations;\nlayout(binding = 0) uniform atomic_uint groups_x;\nvoid main() {\n    atomicCounterIncrement(invocations);\n    if (gl_LocalInvocationIndex == 0u && gl_WorkGroupID.y == 0u)\n        atomicCounterIncrement(groups_x);\n}\n";

/// A compute program of `source` (asserts the link).
fn compute_program(source: &str) -> u32 {
    let (p, ok) = try_compute_program(&[(GL_COMPUTE_SHADER, source)]);
    assert!(ok, "compute link");
    p
}

/// A program of the given units and whether it linked.
fn try_compute_program(units: &[(u32, &str)]) -> (u32, bool) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    // SAFETY: NUL-terminated sources, lengths NULL; the out-pointer is a local.
    unsafe {
        let p = create_program();
        for &(ty, src) in units {
            let s = create(ty);
            let c = CString::new(src).expect("no NUL");
            let ptr = c.as_ptr();
            source(s, 1, &ptr, null());
            compile(s);
            attach(p, s);
        }
        link(p);
        let mut ok = 0;
        get(p, GL_LINK_STATUS, &mut ok);
        (p, ok == 1)
    }
}

/// A new buffer of `bytes`, bound to `target` (and to index `index` when given).
fn buffer(target: u32, index: Option<u32>, bytes: &[u8]) -> u32 {
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let mut b = 0;
    // SAFETY: `bytes` holds the size given; the out-pointer is a local.
    unsafe {
        gen(1, &mut b);
        bind(target, b);
        data(
            target,
            bytes.len() as isize,
            bytes.as_ptr().cast(),
            GL_DYNAMIC_DRAW,
        );
        if let Some(i) = index {
            bind_base(target, i, b);
        }
    }
    b
}

/// The first `n` words of the buffer bound to `target`, by `glGetBufferSubData`.
fn words(target: u32, n: usize) -> Vec<u32> {
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = vec![0u32; n];
    // SAFETY: `out` holds the `4 * n` bytes asked for.
    unsafe { get(target, 0, (4 * n) as isize, out.as_mut_ptr().cast()) };
    out
}

fn use_program(p: u32) {
    let use_ = gl!(c"glUseProgram": fn(u32));
    // SAFETY: plain value.
    unsafe { use_(p) };
}

fn dispatch(x: u32, y: u32, z: u32) {
    let d = gl!(c"glDispatchCompute": fn(u32, u32, u32));
    // SAFETY: plain values.
    unsafe { d(x, y, z) };
}

fn set_uint(p: u32, name: &std::ffi::CStr, v: u32) {
    let loc = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let set = gl!(c"glUniform1ui": fn(i32, u32));
    // SAFETY: a NUL-terminated name; plain values.
    unsafe { set(loc(p, name.as_ptr()), v) };
}

#[test]
fn a_dispatch_writes_a_storage_buffer_that_reads_and_maps_see() {
    let _ctx = gl_harness::context();
    let p = compute_program(FILL);
    let mut size = [0i32; 3];
    let get_program = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    // SAFETY: GL_COMPUTE_WORK_GROUP_SIZE writes three integers.
    unsafe { get_program(p, GL_COMPUTE_WORK_GROUP_SIZE, size.as_mut_ptr()) };
    assert_eq!(size, [4, 1, 1]);
    let ssbo = buffer(GL_SHADER_STORAGE_BUFFER, Some(1), &[0xAB; 64]);
    use_program(p);
    set_uint(p, c"scale", 3);
    dispatch(4, 1, 1);
    expect(GL_NO_ERROR);
    let want: Vec<u32> = (0..16).map(|i| i * 3).collect();
    assert_eq!(words(GL_SHADER_STORAGE_BUFFER, 16), want);
    // A second dispatch with another uniform value; a map of the buffer sees it.
    set_uint(p, c"scale", 5);
    dispatch(2, 1, 1);
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    // SAFETY: a read map of 64 bytes of the bound buffer, read before the unmap.
    let mapped = unsafe {
        let ptr = map(GL_SHADER_STORAGE_BUFFER, 0, 64, GL_MAP_READ_BIT).cast::<u32>();
        assert!(!ptr.is_null());
        let v = std::slice::from_raw_parts(ptr, 16).to_vec();
        unmap(GL_SHADER_STORAGE_BUFFER);
        v
    };
    let want: Vec<u32> = (0..16).map(|i| if i < 8 { i * 5 } else { i * 3 }).collect();
    assert_eq!(mapped, want);
    let mut bound = 0;
    let get_i = gl!(c"glGetIntegeri_v": fn(u32, u32, *mut i32));
    // SAFETY: one integer out.
    unsafe { get_i(GL_SHADER_STORAGE_BUFFER_BINDING, 1, &mut bound) };
    assert_eq!(bound as u32, ssbo);
    expect(GL_NO_ERROR);
}

#[test]
fn atomic_counters_count_invocations_and_indirect_dispatches_read_their_counts() {
    let _ctx = gl_harness::context();
    let p = compute_program(COUNT);
    buffer(GL_ATOMIC_COUNTER_BUFFER, Some(0), &[0; 8]);
    use_program(p);
    dispatch(3, 2, 1);
    expect(GL_NO_ERROR);
    assert_eq!(words(GL_ATOMIC_COUNTER_BUFFER, 2), [3 * 2 * 4, 3]);
    // Indirect: counts {5, 1, 1} at byte 4.
    let counts: [u32; 4] = [0, 5, 1, 1];
    let bytes: Vec<u8> = counts.iter().flat_map(|w| w.to_ne_bytes()).collect();
    buffer(GL_DISPATCH_INDIRECT_BUFFER, None, &bytes);
    let indirect = gl!(c"glDispatchComputeIndirect": fn(isize));
    // SAFETY: plain value (an offset into the bound buffer).
    unsafe { indirect(4) };
    expect(GL_NO_ERROR);
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let mut acb = 0;
    let get_i = gl!(c"glGetIntegeri_v": fn(u32, u32, *mut i32));
    // SAFETY: one integer out; plain values.
    unsafe {
        get_i(0x92C1, 0, &mut acb);
        bind(GL_ATOMIC_COUNTER_BUFFER, acb as u32);
    }
    assert_eq!(words(GL_ATOMIC_COUNTER_BUFFER, 2), [24 + 5 * 4, 3 + 5]);
}

#[test]
fn dispatch_errors() {
    let _ctx = gl_harness::context();
    let indirect = gl!(c"glDispatchComputeIndirect": fn(isize));
    // No current program.
    dispatch(1, 1, 1);
    expect(GL_INVALID_OPERATION);
    // A graphics program is no compute program.
    let g = gl_harness::program(
        "#version 330\nvoid main() { gl_Position = vec4(0.0); }\n",
        "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    use_program(g);
    dispatch(1, 1, 1);
    expect(GL_INVALID_OPERATION);
    // A compute program cannot draw, nor link with other stages.
    let p = compute_program(COUNT);
    use_program(p);
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain values.
    unsafe { draw(GL_TRIANGLE_STRIP, 0, 4) };
    expect(GL_INVALID_OPERATION);
    let (_, linked) = try_compute_program(&[
        (GL_COMPUTE_SHADER, COUNT),
        (
            0x8B30,
            "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
        ),
    ]);
    assert!(!linked, "compute with a fragment shader must not link");
    // Counts over the limit.
    let mut max = 0;
    let get_i = gl!(c"glGetIntegeri_v": fn(u32, u32, *mut i32));
    // SAFETY: one integer out.
    unsafe { get_i(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &mut max) };
    assert!(max >= 65535, "GL_MAX_COMPUTE_WORK_GROUP_COUNT {max}");
    dispatch(max as u32 + 1, 1, 1);
    expect(GL_INVALID_VALUE);
    // Indirect: no buffer, a misaligned offset, a range past the end.
    // SAFETY: plain values.
    unsafe { indirect(0) };
    expect(GL_INVALID_OPERATION);
    buffer(GL_DISPATCH_INDIRECT_BUFFER, None, &[0; 16]);
    // SAFETY: plain values.
    unsafe { indirect(2) };
    expect(GL_INVALID_VALUE);
    // SAFETY: plain values.
    unsafe { indirect(8) };
    expect(GL_INVALID_OPERATION);
    // A storage binding offset must be aligned.
    let b = buffer(GL_SHADER_STORAGE_BUFFER, None, &[0; 256]);
    let range = gl!(c"glBindBufferRange": fn(u32, u32, u32, isize, isize));
    // SAFETY: plain values.
    unsafe { range(GL_SHADER_STORAGE_BUFFER, 0, b, 1, 4) };
    expect(GL_INVALID_VALUE);
    // Zero counts are no error and do nothing.
    dispatch(0, 1, 1);
    expect(GL_NO_ERROR);
}

/// Under `GL_RASTERIZER_DISCARD` a draw still runs its vertex shader, whose atomic counter
/// increments must land (piglit `arb_query_buffer_object-coherency` counts vertices this way).
#[test]
fn vertex_shader_atomics_run_under_rasterizer_discard() {
    const GL_RASTERIZER_DISCARD: u32 = 0x8C89;
    const GL_POINTS: u32 = 0;
    let _ctx = gl_harness::context();
    let vs = "#version 150\n#extension GL_ARB_shader_atomic_counters : require\nlayout(binding = 0, offset = 0) uniform atomic_uint counter;\nvoid main() {\n    atomicCounterIncrement(counter);\n    gl_Position = vec4(0.0);\n}\n";
    let fs = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    let g = gl_harness::program(vs, fs);
    buffer(GL_ATOMIC_COUNTER_BUFFER, Some(0), &[0; 4]);
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let enable = gl!(c"glEnable": fn(u32));
    let mut vao = 0;
    // SAFETY: plain values; the out-pointer is a local.
    unsafe {
        gen_vao(1, &mut vao);
        bind_vao(vao);
        use_program(g);
        enable(GL_RASTERIZER_DISCARD);
        draw(GL_POINTS, 0, 7);
    }
    expect(GL_NO_ERROR);
    assert_eq!(words(GL_ATOMIC_COUNTER_BUFFER, 1), [7]);
    assert_eq!(gl_harness::validation_errors(), 0);
}

#[test]
fn a_draw_reads_what_a_dispatch_wrote() {
    let _ctx = gl_harness::context();
    // The dispatch writes a colour into a buffer; the draw reads it as a uniform block.
    let cs = "#version 330\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_storage_buffer_object : require\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer Out { vec4 colour; };\nvoid main() { colour = vec4(0.0, 1.0, 0.0, 1.0); }\n";
    let p = compute_program(cs);
    let b = buffer(GL_SHADER_STORAGE_BUFFER, Some(0), &[0; 16]);
    use_program(p);
    dispatch(1, 1, 1);
    let barrier = gl!(c"glMemoryBarrier": fn(u32));
    // SAFETY: plain value.
    unsafe { barrier(GL_SHADER_STORAGE_BARRIER_BIT) };
    let vs = "#version 330\nvoid main() {\n    vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0;\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
    let fs = "#version 330\nlayout(std140) uniform In { vec4 colour; };\nout vec4 c;\nvoid main() { c = colour; }\n";
    let g = gl_harness::program(vs, fs);
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: plain values; the out-pointer is a local.
    unsafe {
        bind_base(GL_UNIFORM_BUFFER, 0, b);
        gen_vao(1, &mut vao);
        bind_vao(vao);
        use_program(g);
        draw(GL_TRIANGLE_STRIP, 0, 3);
    }
    expect(GL_NO_ERROR);
    let px = gl_harness::read_rgba(16, 16, 1, 1);
    assert_eq!(px, [0, 255, 0, 255]);
}

#[test]
fn an_image_written_by_a_dispatch_is_sampled_by_a_draw() {
    let _ctx = gl_harness::context();
    const GL_TEXTURE_2D: u32 = 0x0DE1;
    const GL_RGBA8: u32 = 0x8058;
    const GL_WRITE_ONLY: u32 = 0x88B9;
    const GL_SHADER_IMAGE_ACCESS_BARRIER_BIT: u32 = 0x0020;
    const GL_TEXTURE_FETCH_BARRIER_BIT: u32 = 0x0008;
    // Left half red, right half green, into a 4×4 image on unit 2.
    let cs = "#version 330\n#extension GL_ARB_compute_shader : require\n#extension GL_ARB_shader_image_load_store : require\nlayout(local_size_x = 4, local_size_y = 4) in;\nlayout(rgba8, binding = 2) writeonly uniform image2D img;\nvoid main() {\n    ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n    imageStore(img, p, p.x < 2 ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 1.0, 0.0, 1.0));\n}\n";
    let p = compute_program(cs);
    let tex = gl_harness::new_texture(GL_TEXTURE_2D);
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let bind_image = gl!(c"glBindImageTexture": fn(u32, u32, i32, u8, i32, u32, u32));
    let barrier = gl!(c"glMemoryBarrier": fn(u32));
    // SAFETY: plain values.
    unsafe {
        storage(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
        bind_image(2, tex, 0, 0, 0, GL_WRITE_ONLY, GL_RGBA8);
    }
    expect(GL_NO_ERROR);
    // GL's errors: a unit past GL_MAX_IMAGE_UNITS, a format outside table 8.26, a bad access.
    // SAFETY: plain values.
    unsafe { bind_image(8, tex, 0, 0, 0, GL_WRITE_ONLY, GL_RGBA8) };
    expect(GL_INVALID_VALUE);
    // SAFETY: plain values.
    unsafe { bind_image(0, tex, 0, 0, 0, GL_WRITE_ONLY, 0x8D62) };
    expect(GL_INVALID_VALUE);
    // SAFETY: plain values.
    unsafe { bind_image(0, tex, 0, 0, 0, 0x1234, GL_RGBA8) };
    expect(0x0500);
    use_program(p);
    dispatch(1, 1, 1);
    // SAFETY: plain value.
    unsafe { barrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT) };
    expect(GL_NO_ERROR);
    let vs = "#version 330\nout vec2 uv;\nvoid main() {\n    vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0;\n    uv = p * 0.5 + 0.5;\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
    let fs = "#version 330\nin vec2 uv;\nuniform sampler2D t;\nout vec4 c;\nvoid main() { c = texture(t, uv); }\n";
    let g = gl_harness::program(vs, fs);
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: plain values; the out-pointer is a local.
    unsafe {
        param(GL_TEXTURE_2D, 0x2801, 0x2600); // GL_TEXTURE_MIN_FILTER = GL_NEAREST
        param(GL_TEXTURE_2D, 0x2800, 0x2600); // GL_TEXTURE_MAG_FILTER = GL_NEAREST
        gen_vao(1, &mut vao);
        bind_vao(vao);
        use_program(g);
        draw(GL_TRIANGLE_STRIP, 0, 3);
    }
    expect(GL_NO_ERROR);
    assert_eq!(gl_harness::read_rgba(4, 16, 1, 1), [255, 0, 0, 255]);
    assert_eq!(gl_harness::read_rgba(28, 16, 1, 1), [0, 255, 0, 255]);
}
