//! GL_ARB_viewport_array through the C ABI: one geometry shader sends a triangle to four
//! viewports (each with its own depth range and scissor), the pixels are read back; the
//! per-index state, its queries and its errors; clears see scissor 0 only; a program that
//! writes no `gl_ViewportIndex` draws through viewport 0; a vertex shader picks the viewport
//! (GL_AMD_vertex_shader_viewport_index) and the fragment shader reads it back.

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_TRIANGLES: u32 = 4;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_SCISSOR_TEST: u32 = 0x0C11;
const GL_VIEWPORT: u32 = 0x0BA2;
const GL_SCISSOR_BOX: u32 = 0x0C10;
const GL_DEPTH_RANGE: u32 = 0x0B70;
const GL_MAX_VIEWPORTS: u32 = 0x825B;
const GL_VIEWPORT_BOUNDS_RANGE: u32 = 0x825D;
const GL_MAX_VIEWPORT_DIMS: u32 = 0x0D3A;
const GL_GEOMETRY_SHADER: u32 = 0x8DD9;

/// A triangle covering the whole clip space.
const VS: &str = "#version 330\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";

/// The triangle sent to viewports 0–3, coloured by index (blue: the fragment's depth).
const GS: &str = "#version 330\n#extension GL_ARB_viewport_array : require\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 12) out;\nflat out int index;\nvoid main() {\n    for (int vp = 0; vp < 4; vp++) {\n        for (int i = 0; i < 3; i++) {\n            gl_Position = gl_in[i].gl_Position;\n            gl_ViewportIndex = vp;\n            index = vp;\n            EmitVertex();\n        }\n        EndPrimitive();\n    }\n}\n";

const FS: &str = "#version 330\nflat in int index;\nout vec4 color;\nvoid main() {\n    color = vec4(float(index & 1), float(index >> 1), gl_FragCoord.z, 1.0);\n}\n";

/// Without a geometry stage: red, depth in blue.
const FS_PLAIN: &str =
    "#version 330\nout vec4 color;\nvoid main() { color = vec4(1.0, 0.0, gl_FragCoord.z, 1.0); }\n";

fn pixel(x: i32, y: i32) -> [u8; 4] {
    let v = gl_harness::read_rgba(x, y, 1, 1);
    [v[0], v[1], v[2], v[3]]
}

fn get_int(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = 0;
    // SAFETY: out-pointer to a local.
    unsafe { get(pname, &mut v) };
    v
}

fn get_floats_indexed(pname: u32, index: u32) -> [f32; 4] {
    let get = gl!(c"glGetFloati_v": fn(u32, u32, *mut f32));
    let mut v = [-1.0; 4];
    // SAFETY: room for the four values of the largest answer.
    unsafe { get(pname, index, v.as_mut_ptr()) };
    v
}

fn get_ints_indexed(pname: u32, index: u32) -> [i32; 4] {
    let get = gl!(c"glGetIntegeri_v": fn(u32, u32, *mut i32));
    let mut v = [-1; 4];
    // SAFETY: room for the four values of the largest answer.
    unsafe { get(pname, index, v.as_mut_ptr()) };
    v
}

/// Links VS + `gs` (when given) + `fs`, uses it with an empty vertex array.
fn use_program(gs: Option<&str>, fs: &str) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const std::ffi::c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let shader_log = gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut std::ffi::c_char));
    let info_log = gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut std::ffi::c_char));
    let (program, linked) = gl_harness::try_program_with(VS, fs, |p| {
        if let Some(gs) = gs {
            let gs = std::ffi::CString::new(gs).expect("no NUL");
            // SAFETY: a NUL-terminated source, length NULL.
            unsafe {
                let s = create(GL_GEOMETRY_SHADER);
                source(s, 1, &gs.as_ptr(), std::ptr::null());
                compile(s);
                let mut log = vec![0u8; 4096];
                shader_log(s, 4096, std::ptr::null_mut(), log.as_mut_ptr().cast());
                let log = String::from_utf8_lossy(&log)
                    .trim_end_matches('\0')
                    .to_string();
                assert!(log.is_empty(), "geometry shader: {log}");
                attach(p, s);
            }
        }
    });
    let mut log = vec![0u8; 4096];
    // SAFETY: a buffer of the size given; the length pointer may be NULL.
    unsafe { info_log(program, 4096, std::ptr::null_mut(), log.as_mut_ptr().cast()) };
    assert!(
        linked,
        "link: {}",
        String::from_utf8_lossy(&log).trim_end_matches('\0')
    );
    let mut vao = 0;
    // SAFETY: out-pointer to a local; plain values.
    unsafe {
        use_program(program);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
    }
}

/// Clears the 32×32 pbuffer to black through no scissor.
fn clear_black() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    // SAFETY: plain values.
    unsafe {
        disable(GL_SCISSOR_TEST);
        clear_color(0.0, 0.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
    }
}

#[test]
fn a_geometry_shader_draws_into_four_viewports() {
    let _ctx = gl_harness::context();
    let viewport_array = gl!(c"glViewportArrayv": fn(u32, i32, *const f32));
    let depth_range_indexed = gl!(c"glDepthRangeIndexed": fn(u32, f64, f64));
    let depth_range_array = gl!(c"glDepthRangeArrayv": fn(u32, i32, *const f64));
    let scissor_indexed = gl!(c"glScissorIndexed": fn(u32, i32, i32, i32, i32));
    let enablei = gl!(c"glEnablei": fn(u32, u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    use_program(Some(GS), FS);
    clear_black();
    // The four quarters of the pbuffer: 0 lower left, 1 lower right, 2 upper left, 3 upper right.
    let quarters: [f32; 16] = [
        0.0, 0.0, 16.0, 16.0, 16.0, 0.0, 16.0, 16.0, 0.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0,
    ];
    // SAFETY: 4 viewports from a local; plain values.
    unsafe {
        viewport_array(0, 4, quarters.as_ptr());
        // Constant depth ranges: the fragment depth is the range, whatever the vertices' z.
        let ranges = [0.75, 0.75, 0.0, 0.0, 0.5, 0.5, 1.0, 1.0];
        depth_range_array(0, 4, ranges.as_ptr());
        depth_range_indexed(1, 0.25, 0.25);
        // Viewport 3 keeps its upper half only.
        scissor_indexed(3, 16, 24, 16, 8);
        enablei(GL_SCISSOR_TEST, 3);
        draw(GL_TRIANGLES, 0, 3);
    }
    expect(GL_NO_ERROR);
    // Blue is the depth, each viewport's constant range.
    gl_harness::assert_rgba8_near(pixel(8, 8), [0, 0, 191, 255], "viewport 0");
    gl_harness::assert_rgba8_near(pixel(24, 8), [255, 0, 64, 255], "viewport 1");
    gl_harness::assert_rgba8_near(pixel(8, 24), [0, 255, 128, 255], "viewport 2");
    gl_harness::assert_rgba8_near(pixel(24, 28), [255, 255, 255, 255], "viewport 3, inside");
    assert_eq!(
        pixel(24, 20),
        [0, 0, 0, 255],
        "viewport 3, outside its scissor"
    );
    // A program writing no gl_ViewportIndex draws through viewport 0 alone.
    use_program(None, FS_PLAIN);
    clear_black();
    // SAFETY: plain values.
    unsafe { draw(GL_TRIANGLES, 0, 3) };
    gl_harness::assert_rgba8_near(pixel(8, 8), [255, 0, 191, 255], "viewport 0");
    for (x, y) in [(24, 8), (8, 24), (24, 28)] {
        assert_eq!(pixel(x, y), [0, 0, 0, 255], "only viewport 0 at ({x}, {y})");
    }
    expect(GL_NO_ERROR);
}

#[test]
fn a_vertex_shader_picks_the_viewport() {
    let _ctx = gl_harness::context();
    // GL_AMD_vertex_shader_viewport_index in GLSL 1.40, where glslang declares no vertex
    // gl_ViewportIndex; the fragment stage reads it back (GL_ARB_fragment_layer_viewport).
    const VS_INDEX: &str = "#version 140\n#extension GL_AMD_vertex_shader_viewport_index : require\nuniform int vp;\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    gl_Position = vec4(p, 0.0, 1.0);\n    gl_ViewportIndex = vp;\n}\n";
    const FS_INDEX: &str = "#version 140\n#extension GL_ARB_fragment_layer_viewport : require\nout vec4 color;\nvoid main() { color = vec4(0.0, 1.0, float(gl_ViewportIndex) / 4.0, 1.0); }\n";
    let program = gl_harness::program(VS_INDEX, FS_INDEX);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const std::ffi::c_char) -> i32);
    let uniform = gl!(c"glUniform1i": fn(i32, i32));
    let viewport_array = gl!(c"glViewportArrayv": fn(u32, i32, *const f32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    clear_black();
    let halves: [f32; 8] = [0.0, 0.0, 16.0, 32.0, 16.0, 0.0, 16.0, 32.0];
    let mut vao = 0;
    // SAFETY: a NUL-terminated name, 2 viewports from a local, out-pointer to a local.
    unsafe {
        use_program(program);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        uniform(location(program, c"vp".as_ptr()), 1);
        viewport_array(0, 2, halves.as_ptr());
        draw(GL_TRIANGLES, 0, 3);
    }
    expect(GL_NO_ERROR);
    assert_eq!(pixel(8, 16), [0, 0, 0, 255], "viewport 0 untouched");
    gl_harness::assert_rgba8_near(
        pixel(24, 16),
        [0, 255, 64, 255],
        "viewport 1, read back as 1",
    );
}

#[test]
fn per_index_state_queries_and_errors() {
    let _ctx = gl_harness::context();
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let viewport_indexed = gl!(c"glViewportIndexedf": fn(u32, f32, f32, f32, f32));
    let viewport_array = gl!(c"glViewportArrayv": fn(u32, i32, *const f32));
    let scissor_array = gl!(c"glScissorArrayv": fn(u32, i32, *const i32));
    let depth_range_array = gl!(c"glDepthRangeArrayv": fn(u32, i32, *const f64));
    let depth_range = gl!(c"glDepthRange": fn(f64, f64));
    let get_double = gl!(c"glGetDoublei_v": fn(u32, u32, *mut f64));
    let enable = gl!(c"glEnable": fn(u32));
    let enablei = gl!(c"glEnablei": fn(u32, u32));
    let disablei = gl!(c"glDisablei": fn(u32, u32));
    let is_enabled = gl!(c"glIsEnabled": fn(u32) -> u8);
    let is_enabledi = gl!(c"glIsEnabledi": fn(u32, u32) -> u8);
    let get_float = gl!(c"glGetFloatv": fn(u32, *mut f32));
    assert_eq!(get_int(GL_MAX_VIEWPORTS), 16);
    // SAFETY: arrays from locals of the counts named; out-pointers to locals; plain values.
    unsafe {
        // The non-indexed commands set every index.
        viewport(1, 2, 3, 4);
        depth_range(0.25, 0.75);
        for i in [0, 7, 15] {
            assert_eq!(get_floats_indexed(GL_VIEWPORT, i), [1.0, 2.0, 3.0, 4.0]);
            let mut dr = [0.0f64; 2];
            get_double(GL_DEPTH_RANGE, i, dr.as_mut_ptr());
            assert_eq!(dr, [0.25, 0.75]);
        }
        // Fractional viewports stay fractional; the integer query rounds.
        viewport_indexed(5, 0.5, 1.25, 10.75, 20.0);
        assert_eq!(get_floats_indexed(GL_VIEWPORT, 5), [0.5, 1.25, 10.75, 20.0]);
        assert_eq!(get_ints_indexed(GL_VIEWPORT, 5), [1, 1, 11, 20]);
        assert_eq!(get_floats_indexed(GL_VIEWPORT, 4), [1.0, 2.0, 3.0, 4.0]);
        // Origins clamp to the bounds range, sizes to the maximum dimensions.
        let mut range = [0.0f32; 2];
        get_float(GL_VIEWPORT_BOUNDS_RANGE, range.as_mut_ptr());
        let mut dims = [0.0f32; 2];
        get_float(GL_MAX_VIEWPORT_DIMS, dims.as_mut_ptr());
        viewport_indexed(6, range[0] - 10.0, range[1] + 10.0, dims[0] * 2.0, 1.0);
        assert_eq!(
            get_floats_indexed(GL_VIEWPORT, 6),
            [range[0], range[1], dims[0], 1.0]
        );
        let boxes = [1, 2, 3, 4, 5, 6, 7, 8];
        scissor_array(14, 2, boxes.as_ptr());
        assert_eq!(get_ints_indexed(GL_SCISSOR_BOX, 15), [5, 6, 7, 8]);
        let ranges = [-1.0, 2.0];
        depth_range_array(3, 1, ranges.as_ptr());
        let mut dr = [0.0f64; 2];
        get_double(GL_DEPTH_RANGE, 3, dr.as_mut_ptr());
        assert_eq!(dr, [0.0, 1.0], "depth ranges clamp to [0, 1]");
        expect(GL_NO_ERROR);

        // Errors: ranges past GL_MAX_VIEWPORTS, negative counts and sizes; nothing changes.
        viewport_array(15, 2, [0.0; 8].as_ptr());
        expect(GL_INVALID_VALUE);
        viewport_array(0, -1, [0.0; 4].as_ptr());
        expect(GL_INVALID_VALUE);
        viewport_indexed(16, 0.0, 0.0, 1.0, 1.0);
        expect(GL_INVALID_VALUE);
        viewport_indexed(2, 0.0, 0.0, -1.0, 1.0);
        expect(GL_INVALID_VALUE);
        assert_eq!(get_floats_indexed(GL_VIEWPORT, 2), [1.0, 2.0, 3.0, 4.0]);
        scissor_array(0, 1, [0, 0, 4, -4].as_ptr());
        expect(GL_INVALID_VALUE);
        depth_range_array(16, 1, [0.0, 1.0].as_ptr());
        expect(GL_INVALID_VALUE);
        get_floats_indexed(GL_VIEWPORT, 16);
        expect(GL_INVALID_VALUE);
        get_floats_indexed(GL_MAX_VIEWPORTS, 0);
        expect(GL_INVALID_ENUM);

        // Scissor tests per index; glEnable sets all, glIsEnabled answers index 0.
        enablei(GL_SCISSOR_TEST, 2);
        assert_eq!(
            (is_enabledi(GL_SCISSOR_TEST, 2), is_enabled(GL_SCISSOR_TEST)),
            (1, 0)
        );
        enable(GL_SCISSOR_TEST);
        disablei(GL_SCISSOR_TEST, 0);
        assert_eq!(
            (is_enabledi(GL_SCISSOR_TEST, 9), is_enabled(GL_SCISSOR_TEST)),
            (1, 0)
        );
        is_enabledi(GL_SCISSOR_TEST, 16);
        expect(GL_INVALID_VALUE);
    }
    expect(GL_NO_ERROR);
}

#[test]
fn clears_see_scissor_zero_only() {
    let _ctx = gl_harness::context();
    let scissor_indexed = gl!(c"glScissorIndexed": fn(u32, i32, i32, i32, i32));
    let enablei = gl!(c"glEnablei": fn(u32, u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    clear_black();
    // SAFETY: plain values.
    unsafe {
        scissor_indexed(1, 0, 0, 4, 4);
        enablei(GL_SCISSOR_TEST, 1);
        clear_color(0.0, 1.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
    }
    assert_eq!(
        pixel(20, 20),
        [0, 255, 0, 255],
        "scissor 1 does not cut a clear"
    );
    // SAFETY: plain values.
    unsafe {
        scissor_indexed(0, 0, 0, 8, 8);
        enablei(GL_SCISSOR_TEST, 0);
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
    }
    assert_eq!(pixel(2, 2), [0, 0, 255, 255], "inside scissor 0");
    assert_eq!(pixel(20, 20), [0, 255, 0, 255], "outside scissor 0");
    expect(GL_NO_ERROR);
}
