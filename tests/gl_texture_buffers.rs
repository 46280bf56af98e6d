//! Buffer textures (GL 3.1 / GL_ARB_texture_buffer_object / GL_ARB_texture_buffer_range)
//! through the C ABI: `texelFetch` of float, signed and unsigned integer formats reads the
//! buffer's bytes exactly; a range reads from its offset; re-specifying the buffer, updating
//! it between draws and mapping it are all seen by the draws that follow (and only by them);
//! a unit without a buffer reads zeros; the queries and every error GL 4.6 §8.9 lists. Each
//! test makes its own context; under `ARENAGL_VALIDATION=1` the layer must stay silent.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, context_profile, error, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_RGBA: u32 = 0x1908;
const GL_TRIANGLES: u32 = 4;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_BUFFER: u32 = 0x8C2A;
const GL_TEXTURE_BINDING_BUFFER: u32 = 0x8C2C;
const GL_TEXTURE_BUFFER_DATA_STORE_BINDING: u32 = 0x8C2D;
const GL_TEXTURE_BUFFER_OFFSET: u32 = 0x919D;
const GL_TEXTURE_BUFFER_SIZE: u32 = 0x919E;
const GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT: u32 = 0x919F;
const GL_MAX_TEXTURE_BUFFER_SIZE: u32 = 0x8C2B;
const GL_TEXTURE_WIDTH: u32 = 0x1000;
const GL_TEXTURE_INTERNAL_FORMAT: u32 = 0x1003;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_NEAREST: i32 = 0x2600;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_MAP_WRITE_BIT: u32 = 0x0002;
const GL_MAP_INVALIDATE_RANGE_BIT: u32 = 0x0004;
const GL_RGBA8: u32 = 0x8058;
const GL_RGB8: u32 = 0x8051;
const GL_R32F: u32 = 0x822E;
const GL_RGBA32I: u32 = 0x8D82;
const GL_RG16UI: u32 = 0x823A;
const GL_R8: u32 = 0x8229;
const GL_LUMINANCE8: u32 = 0x8040;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;

fn get_int(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: one value into a local.
    unsafe { get(pname, &mut v) };
    v
}

fn level_param(pname: u32) -> i32 {
    let get = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: one value into a local.
    unsafe { get(GL_TEXTURE_BUFFER, 0, pname, &mut v) };
    v
}

/// A new texture bound to `GL_TEXTURE_BUFFER` on unit 0.
fn buffer_texture() -> u32 {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let mut t = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen(1, &mut t);
        bind(GL_TEXTURE_BUFFER, t);
    }
    t
}

/// A new buffer bound to `GL_TEXTURE_BUFFER` holding `data`.
fn buffer(data: &[u8]) -> u32 {
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let mut b = 0;
    // SAFETY: out-pointer to a local.
    unsafe { gen(1, &mut b) };
    bind_buffer(b);
    buffer_data(data);
    b
}

fn bind_buffer(b: u32) {
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    // SAFETY: plain values.
    unsafe { bind(GL_TEXTURE_BUFFER, b) };
}

fn buffer_data(data: &[u8]) {
    let data_fn = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    // SAFETY: `data` is valid for its length.
    unsafe {
        data_fn(
            GL_TEXTURE_BUFFER,
            data.len() as isize,
            data.as_ptr().cast(),
            GL_STATIC_DRAW,
        )
    };
}

fn sub_data(offset: usize, data: &[u8]) {
    let sub = gl!(c"glBufferSubData": fn(u32, isize, isize, *const c_void));
    // SAFETY: `data` is valid for its length.
    unsafe {
        sub(
            GL_TEXTURE_BUFFER,
            offset as isize,
            data.len() as isize,
            data.as_ptr().cast(),
        )
    };
}

fn tex_buffer(internal: u32, b: u32) {
    let tex_buffer_fn = gl!(c"glTexBuffer": fn(u32, u32, u32));
    // SAFETY: plain values.
    unsafe { tex_buffer_fn(GL_TEXTURE_BUFFER, internal, b) };
}

fn tex_buffer_range(target: u32, internal: u32, b: u32, offset: isize, size: isize) {
    let range_fn = gl!(c"glTexBufferRange": fn(u32, u32, u32, isize, isize));
    // SAFETY: plain values.
    unsafe { range_fn(target, internal, b, offset, size) };
}

const VS: &str = "#version 330 core\nvoid main() {\n  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n  gl_Position = vec4(p, 0.0, 1.0);\n}\n";

/// The program whose colour is `expr` over `uniform {sampler} t` (unit 0).
fn program(sampler: &str, expr: &str) -> u32 {
    let fs = format!(
        "#version 330 core\nuniform {sampler} t;\nout vec4 color;\nvoid main() {{ color = {expr}; }}\n"
    );
    gl_harness::program(VS, &fs)
}

/// Draws `program` over the viewport `x, y, 16, 16` of the 32×32 target.
fn draw(program: u32, x: i32, y: i32) {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        viewport(x, y, 16, 16);
        draw(GL_TRIANGLES, 0, 3);
    }
    assert_eq!(error(), GL_NO_ERROR, "drawing");
}

fn read_pixel(x: i32, y: i32) -> [u8; 4] {
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 4];
    // SAFETY: one RGBA8 pixel into a 4-byte local.
    unsafe {
        read(
            x,
            y,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    px
}

/// Draws `expr` into the lower-left quarter and reads it back.
fn fetch(sampler: &str, expr: &str) -> [u8; 4] {
    draw(program(sampler, expr), 0, 0);
    read_pixel(8, 8)
}

fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

fn bytes_i32(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

fn bytes_u16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

#[test]
fn float_and_integer_formats_fetch_the_buffer_bytes() {
    let _ctx = context();
    buffer_texture();
    // RGBA8: normalized bytes, texel 2 is bytes 8..12.
    let rgba8: Vec<u8> = (0..16u8).map(|i| i * 16 + 3).collect();
    let b = buffer(&rgba8);
    tex_buffer(GL_RGBA8, b);
    assert_eq!(error(), GL_NO_ERROR);
    assert_eq!(
        fetch("samplerBuffer", "texelFetch(t, 2)"),
        [131, 147, 163, 179]
    );
    // R32F: one float a texel; G, B read 0 and A reads 1.
    buffer_data(&bytes_f32(&[0.0, 0.25, 0.5, 0.75, 1.0]));
    tex_buffer(GL_R32F, b);
    assert_eq!(fetch("samplerBuffer", "texelFetch(t, 3)"), [191, 0, 0, 255]);
    // RGBA32I through an isamplerBuffer: signed values come back signed.
    buffer_data(&bytes_i32(&[1, 2, 3, 4, -100, 50, -7, 120]));
    tex_buffer(GL_RGBA32I, b);
    assert_eq!(
        fetch(
            "isamplerBuffer",
            "vec4(texelFetch(t, 1) + ivec4(128)) / 255.0"
        ),
        [28, 178, 121, 248]
    );
    // RG16UI through a usamplerBuffer: B reads 0, A reads 1.
    buffer_data(&bytes_u16(&[10, 20, 30, 40, 50, 60]));
    tex_buffer(GL_RG16UI, b);
    assert_eq!(
        fetch(
            "usamplerBuffer",
            "vec4(texelFetch(t, 2).rg, 0.0, 0.0) / 255.0 + vec4(0.0, 0.0, texelFetch(t, 2).ba)"
        ),
        [50, 60, 0, 255]
    );
    // textureSize reports the texels of the whole buffer.
    assert_eq!(
        fetch("usamplerBuffer", "vec4(float(textureSize(t)) / 255.0)"),
        [3, 3, 3, 3]
    );
}

#[test]
fn vertex_shaders_fetch_too() {
    let _ctx = context();
    buffer_texture();
    let b = buffer(&bytes_i32(&[5, -6, 7, 100, 9, 10, 11, 12]));
    tex_buffer(GL_RGBA32I, b);
    let vs = "#version 330 core\nuniform isamplerBuffer t;\nout vec4 c;\nvoid main() {\n  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n  gl_Position = vec4(p, 0.0, 1.0);\n  c = vec4(texelFetch(t, 0) + ivec4(128)) / 255.0;\n}\n";
    let fs = "#version 330 core\nin vec4 c;\nout vec4 color;\nvoid main() { color = c; }\n";
    draw(gl_harness::program(vs, fs), 0, 0);
    assert_eq!(read_pixel(8, 8), [133, 122, 135, 228]);
}

#[test]
fn a_range_reads_from_its_offset_and_reports_it() {
    let _ctx = context();
    let align = get_int(GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT);
    assert!(align >= 1, "alignment {align}");
    let align = align as usize;
    buffer_texture();
    // Texel i of the buffer (RGBA8) is (i, i, i, 255).
    let texels = align / 4 + 8;
    let data: Vec<u8> = (0..texels)
        .flat_map(|i| [i as u8, i as u8, i as u8, 255])
        .collect();
    let b = buffer(&data);
    tex_buffer_range(GL_TEXTURE_BUFFER, GL_RGBA8, b, align as isize, 16);
    assert_eq!(error(), GL_NO_ERROR);
    let first = (align / 4) as u8;
    assert_eq!(
        fetch("samplerBuffer", "texelFetch(t, 1)"),
        [first + 1, first + 1, first + 1, 255]
    );
    assert_eq!(
        fetch("samplerBuffer", "vec4(float(textureSize(t)) / 255.0)"),
        [4, 4, 4, 4]
    );
    assert_eq!(level_param(GL_TEXTURE_BUFFER_OFFSET), align as i32);
    assert_eq!(level_param(GL_TEXTURE_BUFFER_SIZE), 16);
    assert_eq!(level_param(GL_TEXTURE_WIDTH), 4);
    assert_eq!(level_param(GL_TEXTURE_BUFFER_DATA_STORE_BINDING), b as i32);
    assert_eq!(level_param(GL_TEXTURE_INTERNAL_FORMAT), GL_RGBA8 as i32);
    // Buffer 0 detaches and resets the range, whatever the offset and size say.
    tex_buffer_range(GL_TEXTURE_BUFFER, GL_RGBA8, 0, -1, -1);
    assert_eq!(error(), GL_NO_ERROR);
    assert_eq!(level_param(GL_TEXTURE_BUFFER_OFFSET), 0);
    assert_eq!(level_param(GL_TEXTURE_BUFFER_SIZE), 0);
    assert_eq!(level_param(GL_TEXTURE_BUFFER_DATA_STORE_BINDING), 0);
}

#[test]
fn respecified_updated_and_mapped_buffers_are_seen_by_later_draws() {
    let _ctx = context();
    buffer_texture();
    let b = buffer(&[10, 20, 30, 255]);
    tex_buffer(GL_RGBA8, b);
    let p = program("samplerBuffer", "texelFetch(t, 0)");
    // Four draws into the four quarters with an update between each, read back only at the
    // end: each draw must see exactly the contents current when it was issued.
    draw(p, 0, 0);
    // Re-specified (new storage; the old view must not be used again).
    buffer_data(&[40, 50, 60, 255, 0, 0, 0, 0]);
    draw(p, 16, 0);
    sub_data(0, &[70, 80, 90, 255]);
    draw(p, 0, 16);
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    // SAFETY: the mapping is 4 writable bytes until unmap.
    unsafe {
        let ptr = map(
            GL_TEXTURE_BUFFER,
            0,
            4,
            GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT,
        );
        assert!(!ptr.is_null());
        std::ptr::copy_nonoverlapping([100u8, 110, 120, 255].as_ptr(), ptr.cast(), 4);
        assert_eq!(unmap(GL_TEXTURE_BUFFER), 1);
    }
    draw(p, 16, 16);
    assert_eq!(read_pixel(8, 8), [10, 20, 30, 255], "before glBufferData");
    assert_eq!(read_pixel(24, 8), [40, 50, 60, 255], "after glBufferData");
    assert_eq!(
        read_pixel(8, 24),
        [70, 80, 90, 255],
        "after glBufferSubData"
    );
    assert_eq!(
        read_pixel(24, 24),
        [100, 110, 120, 255],
        "after a mapped write"
    );
    // A large (device-local, not shadowed) buffer updated between draws, too.
    let mut big = vec![0u8; 256 << 10];
    big[..4].copy_from_slice(&[1, 2, 3, 255]);
    buffer_data(&big);
    draw(p, 0, 0);
    sub_data(0, &[4, 5, 6, 255]);
    draw(p, 16, 0);
    assert_eq!(read_pixel(8, 8), [1, 2, 3, 255], "large, before the update");
    assert_eq!(read_pixel(24, 8), [4, 5, 6, 255], "large, after the update");
}

#[test]
fn a_unit_without_a_usable_buffer_reads_zero() {
    let _ctx = context();
    buffer_texture();
    // No buffer attached yet.
    assert_eq!(
        fetch(
            "samplerBuffer",
            "texelFetch(t, 0) + vec4(0.0, 0.0, 0.0, 1.0)"
        ),
        [0, 0, 0, 255]
    );
    // A deleted buffer is detached from the texture.
    let b = buffer(&[255; 16]);
    tex_buffer(GL_RGBA8, b);
    assert_eq!(fetch("samplerBuffer", "texelFetch(t, 0)"), [255; 4]);
    let delete = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    // SAFETY: one name from a local.
    unsafe { delete(1, &b) };
    assert_eq!(level_param(GL_TEXTURE_BUFFER_DATA_STORE_BINDING), 0);
    assert_eq!(
        fetch(
            "samplerBuffer",
            "texelFetch(t, 0) + vec4(0.0, 0.0, 0.0, 1.0)"
        ),
        [0, 0, 0, 255]
    );
}

#[test]
fn bindings_and_limits_are_reported() {
    let _ctx = context();
    assert_eq!(get_int(GL_TEXTURE_BINDING_BUFFER), 0);
    let t = buffer_texture();
    assert_eq!(get_int(GL_TEXTURE_BINDING_BUFFER), t as i32);
    assert_eq!(get_int(GL_TEXTURE_BUFFER), 0);
    let b = buffer(&[0; 64]);
    assert_eq!(get_int(GL_TEXTURE_BUFFER), b as i32);
    assert!(get_int(GL_MAX_TEXTURE_BUFFER_SIZE) >= 65536);
    // glTexBuffer follows the buffer's size as glBufferData changes it.
    tex_buffer(GL_R8, b);
    assert_eq!(get_int(GL_TEXTURE_BUFFER_DATA_STORE_BINDING), b as i32);
    assert_eq!(level_param(GL_TEXTURE_BUFFER_SIZE), 64);
    buffer_data(&[0; 96]);
    assert_eq!(level_param(GL_TEXTURE_BUFFER_SIZE), 96);
    assert_eq!(level_param(GL_TEXTURE_WIDTH), 96);
    assert_eq!(error(), GL_NO_ERROR);
    // GL_ARB_texture_buffer_range is advertised; GL_ARB_texture_buffer_object (whose legacy
    // formats are not supported) is not.
    let stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const std::ffi::c_char);
    let names: Vec<String> = (0..get_int(GL_NUM_EXTENSIONS) as u32)
        // SAFETY: indices below GL_NUM_EXTENSIONS give NUL-terminated strings.
        .map(|i| unsafe { std::ffi::CStr::from_ptr(stringi(GL_EXTENSIONS, i)) })
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n == "GL_ARB_texture_buffer_range"));
    assert!(!names.iter().any(|n| n == "GL_ARB_texture_buffer_object"));
}

#[test]
fn every_error_of_the_spec() {
    let _ctx = context();
    // Core profile: no texture bound to the target has no state to change.
    let b = buffer(&[0; 256]);
    tex_buffer(GL_RGBA8, b);
    expect(GL_INVALID_OPERATION);
    let t = buffer_texture();
    // Target other than GL_TEXTURE_BUFFER.
    let tex_buffer_fn = gl!(c"glTexBuffer": fn(u32, u32, u32));
    // SAFETY: plain values.
    unsafe { tex_buffer_fn(GL_TEXTURE_2D, GL_RGBA8, b) };
    expect(GL_INVALID_ENUM);
    tex_buffer_range(GL_TEXTURE_2D, GL_RGBA8, b, 0, 4);
    expect(GL_INVALID_ENUM);
    // Formats outside the buffer-texture table (and the legacy ones, not supported).
    for bad in [GL_RGB8, GL_LUMINANCE8, 0x1908, 0x81A6] {
        tex_buffer(bad, b);
        expect(GL_INVALID_ENUM);
    }
    // A name that is not a buffer object.
    tex_buffer(GL_RGBA8, 777);
    expect(GL_INVALID_OPERATION);
    // Ranges: negative offset, size ≤ 0, past the end, misaligned.
    let align = get_int(GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT) as isize;
    for (offset, size) in [
        (-align, 4),
        (0, 0),
        (0, -16),
        (0, 257),
        (align, 257 - align),
    ] {
        tex_buffer_range(GL_TEXTURE_BUFFER, GL_RGBA8, b, offset, size);
        expect(GL_INVALID_VALUE);
    }
    if align > 1 {
        tex_buffer_range(GL_TEXTURE_BUFFER, GL_RGBA8, b, align / 2, 16);
        expect(GL_INVALID_VALUE);
    }
    tex_buffer_range(GL_TEXTURE_BUFFER, GL_RGBA8, b, 0, 256);
    expect(GL_NO_ERROR);
    // A buffer texture has no sampler state, no images and no mipmaps.
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let mipmap = gl!(c"glGenerateMipmap": fn(u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    // SAFETY: plain values; no pixel data.
    unsafe {
        param(GL_TEXTURE_BUFFER, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        expect(GL_INVALID_ENUM);
        mipmap(GL_TEXTURE_BUFFER);
        expect(GL_INVALID_ENUM);
        image(
            GL_TEXTURE_BUFFER,
            0,
            GL_RGBA8 as i32,
            1,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
        expect(GL_INVALID_ENUM);
    }
    // Only level 0 exists.
    let get = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let mut v = 0;
    // SAFETY: one value into a local.
    unsafe { get(GL_TEXTURE_BUFFER, 1, GL_TEXTURE_BUFFER_SIZE, &mut v) };
    expect(GL_INVALID_VALUE);
    // A texture keeps the target it was first bound to.
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    // SAFETY: plain values.
    unsafe {
        bind(GL_TEXTURE_2D, t);
        expect(GL_INVALID_OPERATION);
        let mut t2 = 0;
        let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
        gen(1, &mut t2);
        bind(GL_TEXTURE_2D, t2);
        bind(GL_TEXTURE_BUFFER, t2);
        expect(GL_INVALID_OPERATION);
    }
}

#[test]
fn compatibility_default_texture_starts_as_luminance8() {
    let _ctx = context_profile(true);
    // GL_TEXTURE_BUFFER_FORMAT_ARB of the default buffer texture.
    assert_eq!(get_int(0x8C2E), GL_LUMINANCE8 as i32);
    let b = buffer(&[0; 16]);
    tex_buffer(GL_RGBA8, b);
    assert_eq!(error(), GL_NO_ERROR);
    assert_eq!(get_int(0x8C2E), GL_RGBA8 as i32);
}
