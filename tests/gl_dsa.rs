//! GL_ARB_direct_state_access through the C ABI: each DSA command edits the object it names —
//! buffer contents, texture images and parameters, framebuffer attachments and clears,
//! vertex-array and transform-feedback state read back through other commands — without
//! changing any binding, and follows GL 4.5's name rules: only `glCreate*` (or a bind) makes an
//! object, so a name that was only generated is `GL_INVALID_OPERATION`, and `glCreateTextures`
//! fixes the target that the `glTexture*` commands then check.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, expect, f, read_rgba, Current};

const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_ARRAY_BUFFER_BINDING: u32 = 0x8894;
const GL_COPY_WRITE_BUFFER_BINDING: u32 = 0x8F37;
const GL_BUFFER_SIZE: u32 = 0x8764;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_MAP_READ_BIT: u32 = 0x0001;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_3D: u32 = 0x806F;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_TEXTURE_BINDING_2D: u32 = 0x8069;
const GL_TEXTURE3: u32 = 0x84C3;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_WIDTH: u32 = 0x1000;
const GL_NEAREST: i32 = 0x2600;
const GL_RGBA8: u32 = 0x8058;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_FRAMEBUFFER_BINDING: u32 = 0x8CA6;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_RENDERBUFFER_WIDTH: u32 = 0x8D42;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_COLOR: u32 = 0x1800;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_ELEMENT_ARRAY_BUFFER_BINDING: u32 = 0x8895;
const GL_VERTEX_ATTRIB_ARRAY_ENABLED: u32 = 0x8622;
const GL_TRANSFORM_FEEDBACK_BUFFER_BINDING: u32 = 0x8C8F;
const GL_TRANSFORM_FEEDBACK_BUFFER_START: u32 = 0x8C84;
const GL_TRANSFORM_FEEDBACK_BUFFER_SIZE: u32 = 0x8C85;
const GL_TIME_ELAPSED: u32 = 0x88BF;

fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: one integer out.
    unsafe { get(pname, &mut v) };
    v
}

/// `n` objects from `glCreate*`-style `create`.
fn created(create: unsafe extern "C" fn(i32, *mut u32)) -> u32 {
    let mut name = 0;
    // SAFETY: room for one name.
    unsafe { create(1, &mut name) };
    assert_ne!(name, 0);
    name
}

/// A name from `glGen*`-style `gen`, never bound: no object yet.
fn generated(gen: unsafe extern "C" fn(i32, *mut u32)) -> u32 {
    created(gen)
}

fn texture_2d(w: i32, h: i32) -> u32 {
    let create = gl!(c"glCreateTextures": fn(u32, i32, *mut u32));
    let storage = gl!(c"glTextureStorage2D": fn(u32, i32, u32, i32, i32));
    let mut t = 0;
    // SAFETY: room for one name.
    unsafe {
        create(GL_TEXTURE_2D, 1, &mut t);
        storage(t, 1, GL_RGBA8, w, h);
    }
    t
}

#[test]
fn named_buffers_are_written_read_copied_and_mapped_without_binding() {
    let _c: Current = context();
    let create = gl!(c"glCreateBuffers": fn(i32, *mut u32));
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let is_buffer = gl!(c"glIsBuffer": fn(u32) -> u8);
    let data = gl!(c"glNamedBufferData": fn(u32, isize, *const c_void, u32));
    let sub = gl!(c"glNamedBufferSubData": fn(u32, isize, isize, *const c_void));
    let get_sub = gl!(c"glGetNamedBufferSubData": fn(u32, isize, isize, *mut c_void));
    let param = gl!(c"glGetNamedBufferParameteriv": fn(u32, u32, *mut i32));
    let copy = gl!(c"glCopyNamedBufferSubData": fn(u32, u32, isize, isize, isize));
    let map = gl!(c"glMapNamedBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapNamedBuffer": fn(u32) -> u8);
    let (a, b) = (created(create), created(create));
    // SAFETY: sizes match the arrays passed; out-pointers are locals.
    unsafe {
        assert_eq!(is_buffer(a), 1, "glCreateBuffers makes the object");
        let bytes: Vec<u8> = (0..16).collect();
        data(a, 16, bytes.as_ptr().cast(), GL_STATIC_DRAW);
        sub(a, 4, 4, [0xAAu8; 4].as_ptr().cast());
        data(b, 16, null(), GL_STATIC_DRAW);
        copy(a, b, 2, 8, 8);
        let mut size = 0;
        param(b, GL_BUFFER_SIZE, &mut size);
        assert_eq!(size, 16);
        let mut out = [0u8; 16];
        get_sub(b, 0, 16, out.as_mut_ptr().cast());
        assert_eq!(&out[8..16], &[2, 3, 0xAA, 0xAA, 0xAA, 0xAA, 8, 9]);
        let p = map(a, 4, 4, GL_MAP_READ_BIT).cast::<u8>();
        assert!(!p.is_null());
        assert_eq!(std::slice::from_raw_parts(p, 4), &[0xAA; 4]);
        assert_eq!(unmap(a), 1);
    }
    assert_eq!(error(), 0);
    assert_eq!(integer(GL_ARRAY_BUFFER_BINDING), 0, "no binding changed");
    assert_eq!(
        integer(GL_COPY_WRITE_BUFFER_BINDING),
        0,
        "no binding changed"
    );
    let only_generated = generated(gen);
    // SAFETY: plain values.
    unsafe { data(only_generated, 4, null(), GL_STATIC_DRAW) };
    expect(GL_INVALID_OPERATION);
    // SAFETY: plain values.
    unsafe { copy(a, only_generated, 0, 0, 4) };
    expect(GL_INVALID_OPERATION);
    // SAFETY: plain values; the range lies outside `a`.
    unsafe { sub(a, 12, 8, [0u8; 8].as_ptr().cast()) };
    expect(GL_INVALID_VALUE);
}

#[test]
fn named_textures_take_storage_images_and_parameters_of_their_fixed_target() {
    let _c: Current = context();
    let create = gl!(c"glCreateTextures": fn(u32, i32, *mut u32));
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let sub =
        gl!(c"glTextureSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let get_image = gl!(c"glGetTextureImage": fn(u32, i32, u32, u32, i32, *mut c_void));
    let param = gl!(c"glTextureParameteri": fn(u32, u32, i32));
    let get_param = gl!(c"glGetTextureParameteriv": fn(u32, u32, *mut i32));
    let level_param = gl!(c"glGetTextureLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let storage_3d = gl!(c"glTextureStorage3D": fn(u32, i32, u32, i32, i32, i32));
    let storage_2d = gl!(c"glTextureStorage2D": fn(u32, i32, u32, i32, i32));
    let sub_1d = gl!(c"glTextureSubImage1D": fn(u32, i32, i32, i32, u32, u32, *const c_void));
    let unit = gl!(c"glBindTextureUnit": fn(u32, u32));
    let active = gl!(c"glActiveTexture": fn(u32));
    let t = texture_2d(2, 2);
    let texels: [u8; 16] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 8, 7, 6];
    // SAFETY: `texels` is 2×2 RGBA8; out-pointers are locals of the stated sizes.
    unsafe {
        sub(
            t,
            0,
            0,
            0,
            2,
            2,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        let mut out = [0u8; 16];
        get_image(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, 16, out.as_mut_ptr().cast());
        assert_eq!(out, texels);
        param(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        let mut v = 0;
        get_param(t, GL_TEXTURE_MIN_FILTER, &mut v);
        assert_eq!(v, GL_NEAREST);
        level_param(t, 0, GL_TEXTURE_WIDTH, &mut v);
        assert_eq!(v, 2);
    }
    assert_eq!(error(), 0);
    assert_eq!(integer(GL_TEXTURE_BINDING_2D), 0, "no binding changed");
    // SAFETY: plain values; a buffer too small for the image.
    unsafe {
        get_image(
            t,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            8,
            [0u8; 8].as_mut_ptr().cast(),
        )
    };
    expect(GL_INVALID_OPERATION);
    // SAFETY: plain values: a 3D command on a 2D texture.
    unsafe { storage_3d(t, 1, GL_RGBA8, 2, 2, 2) };
    expect(GL_INVALID_OPERATION);
    // SAFETY: as above, for a sub-image command.
    unsafe {
        sub_1d(
            t,
            0,
            0,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        )
    };
    expect(GL_INVALID_OPERATION);
    let mut bad = 0;
    // SAFETY: room for one name.
    unsafe { create(0x1234, 1, &mut bad) };
    expect(GL_INVALID_ENUM);
    assert_eq!(bad, 0, "nothing was created");
    let only_generated = generated(gen);
    // SAFETY: plain values.
    unsafe { storage_2d(only_generated, 1, GL_RGBA8, 2, 2) };
    expect(GL_INVALID_OPERATION);
    // SAFETY: plain values.
    unsafe {
        unit(3, t);
        active(GL_TEXTURE3);
    }
    assert_eq!(integer(GL_TEXTURE_BINDING_2D), t as i32, "bound to unit 3");
    // SAFETY: plain values.
    unsafe { unit(3, 0) };
    assert_eq!(integer(GL_TEXTURE_BINDING_2D), 0, "unit 3 emptied");
    assert_eq!(error(), 0);
}

#[test]
fn cube_map_faces_are_the_layers_of_the_3d_commands() {
    let _c: Current = context();
    let create = gl!(c"glCreateTextures": fn(u32, i32, *mut u32));
    let storage = gl!(c"glTextureStorage2D": fn(u32, i32, u32, i32, i32));
    let sub = gl!(c"glTextureSubImage3D": fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let get_image = gl!(c"glGetTextureImage": fn(u32, i32, u32, u32, i32, *mut c_void));
    let mut t = 0;
    let faces: Vec<u8> = (0..6u8).flat_map(|f| [f * 40, 1, 2, 255]).collect();
    let mut out = vec![0u8; 24];
    // SAFETY: six 1×1 RGBA8 faces in `faces`; `out` holds all six.
    unsafe {
        create(GL_TEXTURE_CUBE_MAP, 1, &mut t);
        storage(t, 1, GL_RGBA8, 1, 1);
        sub(
            t,
            0,
            0,
            0,
            0,
            1,
            1,
            6,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            faces.as_ptr().cast(),
        );
        get_image(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, 24, out.as_mut_ptr().cast());
    }
    assert_eq!(error(), 0);
    assert_eq!(out, faces);
    // SAFETY: a NULL client pointer, which GL refuses (no face is written anywhere).
    unsafe { get_image(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, 24, std::ptr::null_mut()) };
    expect(GL_INVALID_VALUE);
    let t3 = {
        let mut t3 = 0;
        // SAFETY: room for one name.
        unsafe { create(GL_TEXTURE_3D, 1, &mut t3) };
        t3
    };
    // SAFETY: plain values.
    unsafe { storage(t3, 1, GL_RGBA8, 1, 1) };
    expect(GL_INVALID_OPERATION);
}

#[test]
fn named_framebuffers_attach_clear_and_blit_without_binding() {
    let _c: Current = context();
    let create_fb = gl!(c"glCreateFramebuffers": fn(i32, *mut u32));
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let create_rb = gl!(c"glCreateRenderbuffers": fn(i32, *mut u32));
    let rb_storage = gl!(c"glNamedRenderbufferStorage": fn(u32, u32, i32, i32));
    let rb_param = gl!(c"glGetNamedRenderbufferParameteriv": fn(u32, u32, *mut i32));
    let attach_rb = gl!(c"glNamedFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let attach_tex = gl!(c"glNamedFramebufferTexture": fn(u32, u32, u32, i32));
    let status = gl!(c"glCheckNamedFramebufferStatus": fn(u32, u32) -> u32);
    let clear = gl!(c"glClearNamedFramebufferfv": fn(u32, u32, i32, *const f32));
    let blit = gl!(c"glBlitNamedFramebuffer": fn(u32, u32, i32, i32, i32, i32, i32, i32, i32, i32, u32, u32));
    let get_image = gl!(c"glGetTextureImage": fn(u32, i32, u32, u32, i32, *mut c_void));
    let (fb, fb2, rb) = (created(create_fb), created(create_fb), created(create_rb));
    let t = texture_2d(4, 4);
    // SAFETY: plain values; colour arrays of four floats; out-pointers are locals.
    unsafe {
        rb_storage(rb, GL_RGBA8, 32, 32);
        let mut w = 0;
        rb_param(rb, GL_RENDERBUFFER_WIDTH, &mut w);
        assert_eq!(w, 32);
        attach_rb(fb, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        assert_eq!(status(fb, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        clear(fb, GL_COLOR, 0, [0.0, 1.0, 0.0, 1.0].as_ptr());
        blit(
            fb,
            0,
            0,
            0,
            32,
            32,
            0,
            0,
            32,
            32,
            GL_COLOR_BUFFER_BIT,
            0x2600,
        );
        attach_tex(fb2, GL_COLOR_ATTACHMENT0, t, 0);
        clear(fb2, GL_COLOR, 0, [1.0, 0.0, 0.0, 1.0].as_ptr());
        let mut texels = [0u8; 64];
        get_image(
            t,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            64,
            texels.as_mut_ptr().cast(),
        );
        assert!(
            texels.chunks(4).all(|p| p == [255, 0, 0, 255]),
            "{texels:?}"
        );
    }
    assert_eq!(error(), 0);
    assert_eq!(integer(GL_FRAMEBUFFER_BINDING), 0, "no binding changed");
    assert_eq!(
        &read_rgba(16, 16, 1, 1),
        &[0, 255, 0, 255],
        "blitted into framebuffer 0"
    );
    let only_generated = generated(gen_fb);
    // SAFETY: plain values.
    unsafe { attach_rb(only_generated, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb) };
    expect(GL_INVALID_OPERATION);
    // SAFETY: plain values.
    unsafe { status(fb, GL_RENDERBUFFER) };
    expect(GL_INVALID_ENUM);
    // SAFETY: plain values: framebuffer 0's attachments cannot change.
    unsafe { attach_rb(0, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb) };
    expect(GL_INVALID_OPERATION);
    let _ = GL_DRAW_FRAMEBUFFER;
}

#[test]
fn named_vertex_arrays_and_transform_feedbacks_keep_their_own_state() {
    let _c: Current = context();
    let create_vao = gl!(c"glCreateVertexArrays": fn(i32, *mut u32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let create_buffers = gl!(c"glCreateBuffers": fn(i32, *mut u32));
    let element = gl!(c"glVertexArrayElementBuffer": fn(u32, u32));
    let get_vao = gl!(c"glGetVertexArrayiv": fn(u32, u32, *mut i32));
    let enable = gl!(c"glEnableVertexArrayAttrib": fn(u32, u32));
    let get_indexed = gl!(c"glGetVertexArrayIndexediv": fn(u32, u32, u32, *mut i32));
    let create_xfb = gl!(c"glCreateTransformFeedbacks": fn(i32, *mut u32));
    let range = gl!(c"glTransformFeedbackBufferRange": fn(u32, u32, u32, isize, isize));
    let get_xfb = gl!(c"glGetTransformFeedbacki_v": fn(u32, u32, u32, *mut i32));
    let get_xfb64 = gl!(c"glGetTransformFeedbacki64_v": fn(u32, u32, u32, *mut i64));
    let data = gl!(c"glNamedBufferData": fn(u32, isize, *const c_void, u32));
    let (vao, b) = (created(create_vao), created(create_buffers));
    let xfb = created(create_xfb);
    // SAFETY: plain values; out-pointers are locals.
    unsafe {
        data(b, 64, null(), GL_STATIC_DRAW);
        element(vao, b);
        enable(vao, 2);
        let mut v = 0;
        get_vao(vao, GL_ELEMENT_ARRAY_BUFFER_BINDING, &mut v);
        assert_eq!(v, b as i32);
        get_indexed(vao, 2, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &mut v);
        assert_eq!(v, 1);
        get_indexed(vao, 1, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &mut v);
        assert_eq!(v, 0);
        range(xfb, 1, b, 16, 32);
        get_xfb(xfb, GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 1, &mut v);
        assert_eq!(v, b as i32);
        let mut w = 0i64;
        get_xfb64(xfb, GL_TRANSFORM_FEEDBACK_BUFFER_START, 1, &mut w);
        assert_eq!(w, 16);
        get_xfb64(xfb, GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, 1, &mut w);
        assert_eq!(w, 32);
    }
    assert_eq!(error(), 0);
    assert_eq!(
        integer(GL_ELEMENT_ARRAY_BUFFER_BINDING),
        0,
        "no VAO bound, none changed"
    );
    assert_eq!(
        integer(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING),
        0,
        "generic binding untouched"
    );
    let only_generated = generated(gen_vao);
    // SAFETY: plain values.
    unsafe { enable(only_generated, 0) };
    expect(GL_INVALID_OPERATION);
    // SAFETY: plain values: an unaligned range.
    unsafe { range(xfb, 0, b, 3, 8) };
    expect(GL_INVALID_VALUE);
}

#[test]
fn created_queries_and_samplers_exist_at_once() {
    let _c: Current = context();
    let create_queries = gl!(c"glCreateQueries": fn(u32, i32, *mut u32));
    let is_query = gl!(c"glIsQuery": fn(u32) -> u8);
    let create_samplers = gl!(c"glCreateSamplers": fn(i32, *mut u32));
    let is_sampler = gl!(c"glIsSampler": fn(u32) -> u8);
    let mut q = 0;
    let mut s = 0;
    // SAFETY: room for one name each.
    unsafe {
        create_queries(GL_TIME_ELAPSED, 1, &mut q);
        create_samplers(1, &mut s);
        assert_eq!(is_query(q), 1);
        assert_eq!(is_sampler(s), 1);
        create_queries(GL_TEXTURE_2D, 1, &mut q);
    }
    expect(GL_INVALID_ENUM);
    // SAFETY: plain values.
    unsafe { create_samplers(-1, &mut s) };
    expect(GL_INVALID_VALUE);
}

#[test]
fn a_vertex_array_built_by_name_feeds_a_draw() {
    let _c: Current = context();
    let create_vao = gl!(c"glCreateVertexArrays": fn(i32, *mut u32));
    let create_buffers = gl!(c"glCreateBuffers": fn(i32, *mut u32));
    let storage = gl!(c"glNamedBufferStorage": fn(u32, isize, *const c_void, u32));
    let vertex_buffer = gl!(c"glVertexArrayVertexBuffer": fn(u32, u32, u32, isize, i32));
    let format = gl!(c"glVertexArrayAttribFormat": fn(u32, u32, i32, u32, u8, u32));
    let binding = gl!(c"glVertexArrayAttribBinding": fn(u32, u32, u32));
    let enable = gl!(c"glEnableVertexArrayAttrib": fn(u32, u32));
    let get_indexed = gl!(c"glGetVertexArrayIndexediv": fn(u32, u32, u32, *mut i32));
    let get_indexed64 = gl!(c"glGetVertexArrayIndexed64iv": fn(u32, u32, u32, *mut i64));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let clear_fb = gl!(c"glClearNamedFramebufferfv": fn(u32, u32, i32, *const f32));
    let program = gl_harness::program(
        "#version 330\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n",
        "#version 330\nout vec4 c;\nvoid main() { c = vec4(0.0, 0.0, 1.0, 1.0); }\n",
    );
    // Two floats of padding, then a triangle that covers the whole viewport.
    let vertices: [f32; 8] = [9.0, 9.0, -1.0, -1.0, 3.0, -1.0, -1.0, 3.0];
    let (vao, b) = (created(create_vao), created(create_buffers));
    // SAFETY: `vertices` holds 32 bytes; out-pointers are locals.
    unsafe {
        storage(b, 32, vertices.as_ptr().cast(), 0);
        vertex_buffer(vao, 3, b, 4, 8);
        format(vao, 0, 2, 0x1406, 0, 4); // GL_FLOAT, 4 bytes into each vertex
        binding(vao, 0, 3);
        enable(vao, 0);
        let mut v = 0;
        get_indexed(vao, 0, 0x82D5, &mut v); // GL_VERTEX_ATTRIB_RELATIVE_OFFSET
        assert_eq!(v, 4);
        let mut w = 0i64;
        get_indexed64(vao, 3, 0x82D7, &mut w); // GL_VERTEX_BINDING_OFFSET
        assert_eq!(w, 4);
        clear_fb(0, GL_COLOR, 0, [1.0, 0.0, 0.0, 1.0].as_ptr());
        bind_vao(vao);
        use_program(program);
        draw(0x0004, 0, 3); // GL_TRIANGLES
    }
    assert_eq!(error(), 0);
    assert_eq!(
        &read_rgba(5, 27, 1, 1),
        &[0, 0, 255, 255],
        "the draw read the named VAO"
    );
}
