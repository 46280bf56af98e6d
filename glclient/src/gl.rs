//! The GL 3.3 core entry points the client uses, as a table of typed C function pointers resolved
//! through `eglGetProcAddress`, with thin wrappers.
//!
//! Design decisions:
//! - One macro lists every entry point once, with its C signature; it generates the field, the
//!   loader (a NULL pointer is an error naming the function) and nothing else. The set is exactly
//!   what ArenaGL implements in this slice, so a scene cannot drift outside it.
//! - Entry points that take only scalars get safe wrappers: a [`Gl`] exists only inside a
//!   [`super::Session`] whose context is current on this thread, and it is `!Send`, so with
//!   scalars any misuse is a GL error (reported by [`Gl::check_error`]), never memory unsafety.
//! - Entry points that read or write client memory get wrappers taking slices, which unbind the
//!   pixel pack/unpack buffers first and check lengths, so the pointer is always in bounds.
//! - Draws stay `unsafe`: they fetch from buffer objects, and a draw reading past a buffer's end
//!   is undefined without robustness; the caller promises the ranges.

use std::ffi::{c_char, c_void, CStr};
use std::marker::PhantomData;

use super::GlClientError;

pub type GLenum = u32;
pub type GLuint = u32;
pub type GLint = i32;
pub type GLsizei = i32;
pub type GLboolean = u8;
pub type GLfloat = f32;
pub type GLdouble = f64;
pub type GLbitfield = u32;
pub type GLsizeiptr = isize;
pub type GLintptr = isize;

/// GL enumerants, with the values of the Khronos `GL/glcorearb.h` header (a header table: not
/// every value has a user yet).
#[allow(missing_docs, dead_code)]
pub mod consts {
    use super::{GLbitfield, GLboolean, GLenum};
    pub const FALSE: GLboolean = 0;
    pub const TRUE: GLboolean = 1;
    pub const NO_ERROR: GLenum = 0;
    pub const INVALID_ENUM: GLenum = 0x0500;
    pub const INVALID_VALUE: GLenum = 0x0501;
    pub const INVALID_OPERATION: GLenum = 0x0502;
    pub const STACK_OVERFLOW: GLenum = 0x0503;
    pub const STACK_UNDERFLOW: GLenum = 0x0504;
    pub const OUT_OF_MEMORY: GLenum = 0x0505;
    pub const INVALID_FRAMEBUFFER_OPERATION: GLenum = 0x0506;
    pub const CONTEXT_LOST: GLenum = 0x0507;

    pub const VENDOR: GLenum = 0x1F00;
    pub const RENDERER: GLenum = 0x1F01;
    pub const VERSION: GLenum = 0x1F02;
    pub const SHADING_LANGUAGE_VERSION: GLenum = 0x8B8C;
    pub const VIEWPORT: GLenum = 0x0BA2;
    pub const MAX_TEXTURE_IMAGE_UNITS: GLenum = 0x8872;
    pub const UNIFORM_BUFFER_OFFSET_ALIGNMENT: GLenum = 0x8A34;

    pub const COLOR_BUFFER_BIT: GLbitfield = 0x4000;
    pub const DEPTH_BUFFER_BIT: GLbitfield = 0x0100;
    pub const STENCIL_BUFFER_BIT: GLbitfield = 0x0400;

    pub const DEPTH_TEST: GLenum = 0x0B71;
    pub const BLEND: GLenum = 0x0BE2;
    pub const SCISSOR_TEST: GLenum = 0x0C11;
    pub const CULL_FACE: GLenum = 0x0B44;
    pub const LESS: GLenum = 0x0201;
    pub const LEQUAL: GLenum = 0x0203;
    pub const ZERO: GLenum = 0;
    pub const ONE: GLenum = 1;
    pub const SRC_ALPHA: GLenum = 0x0302;
    pub const ONE_MINUS_SRC_ALPHA: GLenum = 0x0303;
    pub const FUNC_ADD: GLenum = 0x8006;
    pub const FRONT: GLenum = 0x0404;
    pub const BACK: GLenum = 0x0405;
    pub const CW: GLenum = 0x0900;
    pub const CCW: GLenum = 0x0901;

    pub const PACK_ALIGNMENT: GLenum = 0x0D05;
    pub const UNPACK_ALIGNMENT: GLenum = 0x0CF5;

    pub const ARRAY_BUFFER: GLenum = 0x8892;
    pub const ELEMENT_ARRAY_BUFFER: GLenum = 0x8893;
    pub const UNIFORM_BUFFER: GLenum = 0x8A11;
    pub const PIXEL_PACK_BUFFER: GLenum = 0x88EB;
    pub const PIXEL_UNPACK_BUFFER: GLenum = 0x88EC;
    pub const STATIC_DRAW: GLenum = 0x88E4;
    pub const DYNAMIC_DRAW: GLenum = 0x88E8;
    pub const STREAM_DRAW: GLenum = 0x88E0;
    pub const MAP_WRITE_BIT: GLbitfield = 0x0002;
    pub const MAP_INVALIDATE_RANGE_BIT: GLbitfield = 0x0004;

    pub const BYTE: GLenum = 0x1400;
    pub const UNSIGNED_BYTE: GLenum = 0x1401;
    pub const SHORT: GLenum = 0x1402;
    pub const UNSIGNED_SHORT: GLenum = 0x1403;
    pub const INT: GLenum = 0x1404;
    pub const UNSIGNED_INT: GLenum = 0x1405;
    pub const FLOAT: GLenum = 0x1406;

    pub const TRIANGLES: GLenum = 0x0004;
    pub const TRIANGLE_STRIP: GLenum = 0x0005;

    pub const VERTEX_SHADER: GLenum = 0x8B31;
    pub const FRAGMENT_SHADER: GLenum = 0x8B30;
    pub const COMPILE_STATUS: GLenum = 0x8B81;
    pub const LINK_STATUS: GLenum = 0x8B82;
    pub const INFO_LOG_LENGTH: GLenum = 0x8B84;
    pub const INVALID_INDEX: u32 = 0xFFFF_FFFF;

    pub const TEXTURE_2D: GLenum = 0x0DE1;
    pub const TEXTURE0: GLenum = 0x84C0;
    pub const RGBA: GLenum = 0x1908;
    pub const RGBA8: GLenum = 0x8058;
    pub const TEXTURE_MIN_FILTER: GLenum = 0x2801;
    pub const TEXTURE_MAG_FILTER: GLenum = 0x2800;
    pub const TEXTURE_WRAP_S: GLenum = 0x2802;
    pub const TEXTURE_WRAP_T: GLenum = 0x2803;
    pub const TEXTURE_MAX_LEVEL: GLenum = 0x813D;
    pub const NEAREST: GLenum = 0x2600;
    pub const LINEAR: GLenum = 0x2601;
    pub const NEAREST_MIPMAP_NEAREST: GLenum = 0x2700;
    pub const LINEAR_MIPMAP_LINEAR: GLenum = 0x2703;
    pub const REPEAT: GLenum = 0x2901;
    pub const CLAMP_TO_EDGE: GLenum = 0x812F;
}
use consts::*;

/// The header name of a `glGetError` code, for messages.
pub fn error_name(code: GLenum) -> String {
    match code {
        NO_ERROR => "GL_NO_ERROR".into(),
        INVALID_ENUM => "GL_INVALID_ENUM".into(),
        INVALID_VALUE => "GL_INVALID_VALUE".into(),
        INVALID_OPERATION => "GL_INVALID_OPERATION".into(),
        STACK_OVERFLOW => "GL_STACK_OVERFLOW".into(),
        STACK_UNDERFLOW => "GL_STACK_UNDERFLOW".into(),
        OUT_OF_MEMORY => "GL_OUT_OF_MEMORY".into(),
        INVALID_FRAMEBUFFER_OPERATION => "GL_INVALID_FRAMEBUFFER_OPERATION".into(),
        CONTEXT_LOST => "GL_CONTEXT_LOST".into(),
        other => format!("unknown GL error 0x{other:04X}"),
    }
}

/// Plain values whose bytes can be handed to GL as they are.
///
/// # Safety
/// The type has no padding bytes and every bit pattern is a valid value (so viewing it as bytes
/// reads only initialised memory).
pub unsafe trait Plain: Copy {}
// SAFETY: primitive integers and floats have no padding and no invalid bit patterns.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for u16 {}
// SAFETY: as above.
unsafe impl Plain for u32 {}
// SAFETY: as above.
unsafe impl Plain for i32 {}
// SAFETY: as above.
unsafe impl Plain for f32 {}
// SAFETY: an array of plain values has no padding between or after its elements.
unsafe impl<T: Plain, const N: usize> Plain for [T; N] {}

/// The bytes of a slice of plain values.
pub fn bytes_of<T: Plain>(data: &[T]) -> &[u8] {
    // SAFETY: `T: Plain` has no padding and no invalid bit patterns, so every byte of the slice
    // is initialised; the length is the slice's size in bytes and the lifetime is the input's.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), std::mem::size_of_val(data)) }
}

macro_rules! gl_functions {
    (
        safe { $( $sname:ident = $sgl:ident ( $( $sarg:ident : $sty:ty ),* ) $( -> $sret:ty )? ; )* }
        raw { $( $rname:ident = $rgl:ident ( $( $rarg:ident : $rty:ty ),* ) $( -> $rret:ty )? ; )* }
    ) => {
        /// The raw entry points, as their C signatures.
        pub struct RawGl {
            $( $sname: unsafe extern "C" fn($( $sty ),*) $( -> $sret )?, )*
            $( $rname: unsafe extern "C" fn($( $rty ),*) $( -> $rret )?, )*
        }

        impl RawGl {
            /// Resolves every entry point through `get_proc_address`.
            fn load(
                mut get_proc_address: impl FnMut(&CStr) -> *mut c_void,
            ) -> Result<RawGl, GlClientError> {
                let mut get = |name: &str| -> Result<*mut c_void, GlClientError> {
                    let c_name = std::ffi::CString::new(name)
                        .map_err(|_| GlClientError::MissingFunction(name.to_owned()))?;
                    let f = get_proc_address(&c_name);
                    if f.is_null() {
                        Err(GlClientError::MissingFunction(name.to_owned()))
                    } else {
                        Ok(f)
                    }
                };
                Ok(RawGl {
                    $( $sname: {
                        let f = get(stringify!($sgl))?;
                        // SAFETY: `f` is the non-NULL address `eglGetProcAddress` returned for
                        // this GL function, whose C signature is the field's type.
                        unsafe {
                            std::mem::transmute::<*mut c_void, unsafe extern "C" fn($( $sty ),*) $( -> $sret )?>(f)
                        }
                    }, )*
                    $( $rname: {
                        let f = get(stringify!($rgl))?;
                        // SAFETY: as above: the named function, with the field's signature.
                        unsafe {
                            std::mem::transmute::<*mut c_void, unsafe extern "C" fn($( $rty ),*) $( -> $rret )?>(f)
                        }
                    }, )*
                })
            }
        }

        impl Gl {
            $(
                #[doc = concat!("`", stringify!($sgl), "`.")]
                #[allow(clippy::too_many_arguments)]
                pub fn $sname(&self, $( $sarg: $sty ),*) $( -> $sret )? {
                    // SAFETY: the context is current on this thread while a `Gl` exists (module
                    // doc) and the function takes only scalars.
                    unsafe { (self.raw.$sname)($( $sarg ),*) }
                }
            )*
        }
    };
}

gl_functions! {
    safe {
        get_error = glGetError() -> GLenum;
        enable = glEnable(cap: GLenum);
        disable = glDisable(cap: GLenum);
        viewport = glViewport(x: GLint, y: GLint, width: GLsizei, height: GLsizei);
        scissor = glScissor(x: GLint, y: GLint, width: GLsizei, height: GLsizei);
        clear_color = glClearColor(r: GLfloat, g: GLfloat, b: GLfloat, a: GLfloat);
        clear_depth = glClearDepth(depth: GLdouble);
        clear_stencil = glClearStencil(s: GLint);
        clear = glClear(mask: GLbitfield);
        color_mask = glColorMask(r: GLboolean, g: GLboolean, b: GLboolean, a: GLboolean);
        depth_mask = glDepthMask(flag: GLboolean);
        depth_func = glDepthFunc(func: GLenum);
        blend_func = glBlendFunc(src: GLenum, dst: GLenum);
        blend_func_separate = glBlendFuncSeparate(src_rgb: GLenum, dst_rgb: GLenum, src_a: GLenum, dst_a: GLenum);
        blend_equation = glBlendEquation(mode: GLenum);
        cull_face = glCullFace(mode: GLenum);
        front_face = glFrontFace(mode: GLenum);
        bind_buffer = glBindBuffer(target: GLenum, buffer: GLuint);
        bind_buffer_base = glBindBufferBase(target: GLenum, index: GLuint, buffer: GLuint);
        bind_buffer_range = glBindBufferRange(target: GLenum, index: GLuint, buffer: GLuint, offset: GLintptr, size: GLsizeiptr);
        unmap_buffer = glUnmapBuffer(target: GLenum) -> GLboolean;
        bind_vertex_array = glBindVertexArray(array: GLuint);
        enable_vertex_attrib_array = glEnableVertexAttribArray(index: GLuint);
        disable_vertex_attrib_array = glDisableVertexAttribArray(index: GLuint);
        vertex_attrib_divisor = glVertexAttribDivisor(index: GLuint, divisor: GLuint);
        create_shader = glCreateShader(kind: GLenum) -> GLuint;
        compile_shader = glCompileShader(shader: GLuint);
        delete_shader = glDeleteShader(shader: GLuint);
        create_program = glCreateProgram() -> GLuint;
        attach_shader = glAttachShader(program: GLuint, shader: GLuint);
        link_program = glLinkProgram(program: GLuint);
        use_program = glUseProgram(program: GLuint);
        delete_program = glDeleteProgram(program: GLuint);
        uniform1i = glUniform1i(location: GLint, v0: GLint);
        uniform1f = glUniform1f(location: GLint, v0: GLfloat);
        uniform2f = glUniform2f(location: GLint, v0: GLfloat, v1: GLfloat);
        uniform3f = glUniform3f(location: GLint, v0: GLfloat, v1: GLfloat, v2: GLfloat);
        uniform4f = glUniform4f(location: GLint, v0: GLfloat, v1: GLfloat, v2: GLfloat, v3: GLfloat);
        uniform_block_binding = glUniformBlockBinding(program: GLuint, block: GLuint, binding: GLuint);
        bind_texture = glBindTexture(target: GLenum, texture: GLuint);
        active_texture = glActiveTexture(unit: GLenum);
        tex_parameter_i = glTexParameteri(target: GLenum, pname: GLenum, param: GLint);
        generate_mipmap = glGenerateMipmap(target: GLenum);
        flush = glFlush();
        finish = glFinish();
    }
    raw {
        get_string = glGetString(name: GLenum) -> *const u8;
        get_integerv = glGetIntegerv(pname: GLenum, data: *mut GLint);
        get_floatv = glGetFloatv(pname: GLenum, data: *mut GLfloat);
        pixel_storei = glPixelStorei(pname: GLenum, param: GLint);
        gen_buffers = glGenBuffers(n: GLsizei, buffers: *mut GLuint);
        delete_buffers = glDeleteBuffers(n: GLsizei, buffers: *const GLuint);
        buffer_data = glBufferData(target: GLenum, size: GLsizeiptr, data: *const c_void, usage: GLenum);
        buffer_sub_data = glBufferSubData(target: GLenum, offset: GLintptr, size: GLsizeiptr, data: *const c_void);
        map_buffer_range = glMapBufferRange(target: GLenum, offset: GLintptr, length: GLsizeiptr, access: GLbitfield) -> *mut c_void;
        gen_vertex_arrays = glGenVertexArrays(n: GLsizei, arrays: *mut GLuint);
        delete_vertex_arrays = glDeleteVertexArrays(n: GLsizei, arrays: *const GLuint);
        vertex_attrib_pointer = glVertexAttribPointer(index: GLuint, size: GLint, ty: GLenum, normalized: GLboolean, stride: GLsizei, pointer: *const c_void);
        vertex_attrib_i_pointer = glVertexAttribIPointer(index: GLuint, size: GLint, ty: GLenum, stride: GLsizei, pointer: *const c_void);
        shader_source = glShaderSource(shader: GLuint, count: GLsizei, strings: *const *const c_char, lengths: *const GLint);
        get_shaderiv = glGetShaderiv(shader: GLuint, pname: GLenum, params: *mut GLint);
        get_shader_info_log = glGetShaderInfoLog(shader: GLuint, size: GLsizei, length: *mut GLsizei, log: *mut c_char);
        bind_attrib_location = glBindAttribLocation(program: GLuint, index: GLuint, name: *const c_char);
        bind_frag_data_location = glBindFragDataLocation(program: GLuint, color: GLuint, name: *const c_char);
        get_programiv = glGetProgramiv(program: GLuint, pname: GLenum, params: *mut GLint);
        get_program_info_log = glGetProgramInfoLog(program: GLuint, size: GLsizei, length: *mut GLsizei, log: *mut c_char);
        get_uniform_location = glGetUniformLocation(program: GLuint, name: *const c_char) -> GLint;
        get_attrib_location = glGetAttribLocation(program: GLuint, name: *const c_char) -> GLint;
        uniform4fv = glUniform4fv(location: GLint, count: GLsizei, value: *const GLfloat);
        uniform_matrix4fv = glUniformMatrix4fv(location: GLint, count: GLsizei, transpose: GLboolean, value: *const GLfloat);
        get_uniform_block_index = glGetUniformBlockIndex(program: GLuint, name: *const c_char) -> GLuint;
        gen_textures = glGenTextures(n: GLsizei, textures: *mut GLuint);
        delete_textures = glDeleteTextures(n: GLsizei, textures: *const GLuint);
        tex_image_2d = glTexImage2D(target: GLenum, level: GLint, internal: GLint, width: GLsizei, height: GLsizei, border: GLint, format: GLenum, ty: GLenum, pixels: *const c_void);
        tex_sub_image_2d = glTexSubImage2D(target: GLenum, level: GLint, x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, pixels: *const c_void);
        draw_arrays = glDrawArrays(mode: GLenum, first: GLint, count: GLsizei);
        draw_elements = glDrawElements(mode: GLenum, count: GLsizei, ty: GLenum, indices: *const c_void);
        draw_arrays_instanced = glDrawArraysInstanced(mode: GLenum, first: GLint, count: GLsizei, instances: GLsizei);
        draw_elements_instanced = glDrawElementsInstanced(mode: GLenum, count: GLsizei, ty: GLenum, indices: *const c_void, instances: GLsizei);
        draw_elements_base_vertex = glDrawElementsBaseVertex(mode: GLenum, count: GLsizei, ty: GLenum, indices: *const c_void, base_vertex: GLint);
        draw_range_elements = glDrawRangeElements(mode: GLenum, start: GLuint, end: GLuint, count: GLsizei, ty: GLenum, indices: *const c_void);
        read_pixels = glReadPixels(x: GLint, y: GLint, width: GLsizei, height: GLsizei, format: GLenum, ty: GLenum, pixels: *mut c_void);
    }
}

/// The GL entry points of the context current on this thread (see the module doc for the rules
/// that make the safe wrappers sound).
pub struct Gl {
    raw: RawGl,
    /// `!Send` and `!Sync`: the context is current on the creating thread only.
    _not_send: PhantomData<*const ()>,
}

/// The largest number of values a `glGetIntegerv`/`glGetFloatv` query this client makes returns.
const MAX_QUERY_VALUES: usize = 16;

/// A byte offset into the bound buffer, passed where GL's signature has a pointer (core profile
/// has no client arrays, so such a pointer is only ever an offset).
fn offset_ptr(offset: usize) -> *const c_void {
    offset as *const c_void
}

impl Gl {
    /// Resolves every entry point through `get_proc_address`.
    ///
    /// # Safety
    /// `get_proc_address` returns the addresses of the GL functions of a context that is current
    /// on this thread for as long as the returned `Gl` lives.
    pub(super) unsafe fn load(
        get_proc_address: impl FnMut(&CStr) -> *mut c_void,
    ) -> Result<Gl, GlClientError> {
        Ok(Gl {
            raw: RawGl::load(get_proc_address)?,
            _not_send: PhantomData,
        })
    }

    /// Drains `glGetError` and returns the pending codes (empty when there were none). An
    /// implementation keeps at most one flag per error kind; more than 8 means it never clears
    /// them, so at most 8 are taken.
    pub fn drain_errors(&self) -> Vec<GLenum> {
        let mut errors = Vec::new();
        for _ in 0..8 {
            match self.get_error() {
                NO_ERROR => break,
                code => errors.push(code),
            }
        }
        errors
    }

    /// Drains `glGetError`; every pending error is reported, by name, with `what` was done.
    pub fn check_error(&self, what: &str) -> Result<(), GlClientError> {
        let errors: Vec<String> = self.drain_errors().into_iter().map(error_name).collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(GlClientError::Gl {
                what: what.to_owned(),
                errors: errors.join(", "),
            })
        }
    }

    /// `glGetString`, or an empty string when the implementation returns NULL.
    pub fn string(&self, name: GLenum) -> String {
        // SAFETY: the context is current; a non-NULL result is a NUL-terminated static string.
        unsafe {
            let s = (self.raw.get_string)(name);
            if s.is_null() {
                String::new()
            } else {
                CStr::from_ptr(s.cast()).to_string_lossy().into_owned()
            }
        }
    }

    /// `glGetIntegerv` of a query returning `N` ≤ 16 values.
    pub fn integers<const N: usize>(&self, pname: GLenum) -> [GLint; N] {
        let mut out = [0; MAX_QUERY_VALUES];
        // SAFETY: `out` has room for the most values any query this client makes returns.
        unsafe { (self.raw.get_integerv)(pname, out.as_mut_ptr()) };
        let mut values = [0; N];
        let n = N.min(MAX_QUERY_VALUES);
        values[..n].copy_from_slice(&out[..n]);
        values
    }

    /// `glGetIntegerv` of a single-valued query.
    pub fn integer(&self, pname: GLenum) -> GLint {
        self.integers::<1>(pname)[0]
    }

    /// `glGetFloatv` of a query returning `N` ≤ 16 values.
    pub fn floats<const N: usize>(&self, pname: GLenum) -> [GLfloat; N] {
        let mut out = [0.0; MAX_QUERY_VALUES];
        // SAFETY: `out` has room for the most values any query this client makes returns.
        unsafe { (self.raw.get_floatv)(pname, out.as_mut_ptr()) };
        let mut values = [0.0; N];
        let n = N.min(MAX_QUERY_VALUES);
        values[..n].copy_from_slice(&out[..n]);
        values
    }

    /// `glPixelStorei` of `GL_PACK_ALIGNMENT` or `GL_UNPACK_ALIGNMENT` only: RGBA8 rows are
    /// always 4-byte aligned, so the slice lengths the wrappers check stay right whatever the
    /// alignment; the other pixel-store parameters would change them and are not offered.
    pub fn pixel_store_alignment(&self, pname: GLenum, alignment: GLint) {
        let pname = if pname == PACK_ALIGNMENT {
            PACK_ALIGNMENT
        } else {
            UNPACK_ALIGNMENT
        };
        // SAFETY: scalars only; alignment does not change where RGBA8 rows start.
        unsafe { (self.raw.pixel_storei)(pname, alignment) }
    }

    /// `glGenBuffers` of one buffer.
    pub fn gen_buffer(&self) -> GLuint {
        let mut name = 0;
        // SAFETY: room for exactly one name.
        unsafe { (self.raw.gen_buffers)(1, &mut name) };
        name
    }

    /// `glDeleteBuffers` of one buffer.
    pub fn delete_buffer(&self, name: GLuint) {
        // SAFETY: one name is read.
        unsafe { (self.raw.delete_buffers)(1, &name) };
    }

    /// `glGenVertexArrays` of one array.
    pub fn gen_vertex_array(&self) -> GLuint {
        let mut name = 0;
        // SAFETY: room for exactly one name.
        unsafe { (self.raw.gen_vertex_arrays)(1, &mut name) };
        name
    }

    /// `glDeleteVertexArrays` of one array.
    pub fn delete_vertex_array(&self, name: GLuint) {
        // SAFETY: one name is read.
        unsafe { (self.raw.delete_vertex_arrays)(1, &name) };
    }

    /// `glGenTextures` of one texture.
    pub fn gen_texture(&self) -> GLuint {
        let mut name = 0;
        // SAFETY: room for exactly one name.
        unsafe { (self.raw.gen_textures)(1, &mut name) };
        name
    }

    /// `glDeleteTextures` of one texture.
    pub fn delete_texture(&self, name: GLuint) {
        // SAFETY: one name is read.
        unsafe { (self.raw.delete_textures)(1, &name) };
    }

    /// `glBufferData` with the contents of `data`.
    pub fn buffer_data<T: Plain>(&self, target: GLenum, data: &[T], usage: GLenum) {
        let bytes = bytes_of(data);
        // SAFETY: GL reads exactly `bytes.len()` bytes from a live slice.
        unsafe {
            (self.raw.buffer_data)(
                target,
                bytes.len() as GLsizeiptr,
                bytes.as_ptr().cast(),
                usage,
            )
        };
    }

    /// `glBufferData` of `size` bytes with undefined contents.
    pub fn buffer_storage_uninit(&self, target: GLenum, size: usize, usage: GLenum) {
        // SAFETY: a NULL data pointer makes GL read nothing.
        unsafe { (self.raw.buffer_data)(target, size as GLsizeiptr, std::ptr::null(), usage) };
    }

    /// `glBufferSubData` of `data` at byte `offset` (a range past the buffer's end is
    /// `GL_INVALID_VALUE`).
    pub fn buffer_sub_data<T: Plain>(&self, target: GLenum, offset: usize, data: &[T]) {
        let bytes = bytes_of(data);
        // SAFETY: GL reads exactly `bytes.len()` bytes from a live slice.
        unsafe {
            (self.raw.buffer_sub_data)(
                target,
                offset as GLintptr,
                bytes.len() as GLsizeiptr,
                bytes.as_ptr().cast(),
            )
        };
    }

    /// Writes `data` at byte `offset` of the buffer bound to `target` through
    /// `glMapBufferRange(WRITE | INVALIDATE_RANGE)` and `glUnmapBuffer`.
    pub fn write_mapped<T: Plain>(
        &self,
        target: GLenum,
        offset: usize,
        data: &[T],
    ) -> Result<(), GlClientError> {
        let bytes = bytes_of(data);
        // SAFETY: a non-NULL mapping covers `bytes.len()` writable bytes until glUnmapBuffer,
        // and the source slice cannot overlap GL's mapping.
        unsafe {
            let p = (self.raw.map_buffer_range)(
                target,
                offset as GLintptr,
                bytes.len() as GLsizeiptr,
                MAP_WRITE_BIT | MAP_INVALIDATE_RANGE_BIT,
            );
            if p.is_null() {
                self.check_error("glMapBufferRange")?;
                return Err(GlClientError::Gl {
                    what: "glMapBufferRange".into(),
                    errors: "NULL mapping without an error".into(),
                });
            }
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), p.cast::<u8>(), bytes.len());
        }
        if self.unmap_buffer(target) == FALSE {
            return Err(GlClientError::Gl {
                what: "glUnmapBuffer".into(),
                errors: "the buffer's contents were lost (GL_FALSE)".into(),
            });
        }
        Ok(())
    }

    /// `glVertexAttribPointer` sourcing from byte `offset` of the bound `GL_ARRAY_BUFFER`.
    pub fn vertex_attrib_pointer(
        &self,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        normalized: bool,
        stride: usize,
        offset: usize,
    ) {
        // SAFETY: core profile: with no array buffer bound this is GL_INVALID_OPERATION, so the
        // pointer is only ever an offset, never dereferenced as client memory.
        unsafe {
            (self.raw.vertex_attrib_pointer)(
                index,
                size,
                ty,
                GLboolean::from(normalized),
                stride as GLsizei,
                offset_ptr(offset),
            )
        };
    }

    /// `glVertexAttribIPointer` sourcing from byte `offset` of the bound `GL_ARRAY_BUFFER`.
    pub fn vertex_attrib_i_pointer(
        &self,
        index: GLuint,
        size: GLint,
        ty: GLenum,
        stride: usize,
        offset: usize,
    ) {
        // SAFETY: as for `vertex_attrib_pointer`: only ever an offset in core profile.
        unsafe {
            (self.raw.vertex_attrib_i_pointer)(
                index,
                size,
                ty,
                stride as GLsizei,
                offset_ptr(offset),
            )
        };
    }

    /// `glShaderSource` of one string.
    pub fn shader_source(&self, shader: GLuint, source: &str) {
        let ptr = source.as_ptr().cast::<c_char>();
        let len = source.len() as GLint;
        // SAFETY: one string, given with its length (no NUL needed), live for the call.
        unsafe { (self.raw.shader_source)(shader, 1, &ptr, &len) };
    }

    /// `glGetShaderiv` of a single-valued parameter.
    pub fn shader_param(&self, shader: GLuint, pname: GLenum) -> GLint {
        let mut v = 0;
        // SAFETY: every shader parameter is one value.
        unsafe { (self.raw.get_shaderiv)(shader, pname, &mut v) };
        v
    }

    /// `glGetProgramiv` of a single-valued parameter.
    pub fn program_param(&self, program: GLuint, pname: GLenum) -> GLint {
        let mut v = 0;
        // SAFETY: the parameters this client asks for are one value each.
        unsafe { (self.raw.get_programiv)(program, pname, &mut v) };
        v
    }

    /// `glGetShaderInfoLog`.
    pub fn shader_info_log(&self, shader: GLuint) -> String {
        let len = self.shader_param(shader, INFO_LOG_LENGTH).max(1);
        let mut buf = vec![0u8; len as usize + 1];
        let mut written = 0;
        // SAFETY: GL writes at most `buf.len()` bytes including the NUL.
        unsafe {
            (self.raw.get_shader_info_log)(
                shader,
                buf.len() as GLsizei,
                &mut written,
                buf.as_mut_ptr().cast(),
            )
        };
        buf.truncate((written.max(0) as usize).min(len as usize));
        String::from_utf8_lossy(&buf).trim_end().to_owned()
    }

    /// `glGetProgramInfoLog`.
    pub fn program_info_log(&self, program: GLuint) -> String {
        let len = self.program_param(program, INFO_LOG_LENGTH).max(1);
        let mut buf = vec![0u8; len as usize + 1];
        let mut written = 0;
        // SAFETY: GL writes at most `buf.len()` bytes including the NUL.
        unsafe {
            (self.raw.get_program_info_log)(
                program,
                buf.len() as GLsizei,
                &mut written,
                buf.as_mut_ptr().cast(),
            )
        };
        buf.truncate((written.max(0) as usize).min(len as usize));
        String::from_utf8_lossy(&buf).trim_end().to_owned()
    }

    /// `glBindAttribLocation`.
    pub fn bind_attrib_location(&self, program: GLuint, index: GLuint, name: &CStr) {
        // SAFETY: `name` is NUL-terminated and live for the call.
        unsafe { (self.raw.bind_attrib_location)(program, index, name.as_ptr()) };
    }

    /// `glBindFragDataLocation`.
    pub fn bind_frag_data_location(&self, program: GLuint, color: GLuint, name: &CStr) {
        // SAFETY: `name` is NUL-terminated and live for the call.
        unsafe { (self.raw.bind_frag_data_location)(program, color, name.as_ptr()) };
    }

    /// `glGetUniformLocation` (-1 when the program has no such active uniform).
    pub fn uniform_location(&self, program: GLuint, name: &CStr) -> GLint {
        // SAFETY: `name` is NUL-terminated and live for the call.
        unsafe { (self.raw.get_uniform_location)(program, name.as_ptr()) }
    }

    /// `glGetAttribLocation` (-1 when the program has no such active attribute).
    pub fn attrib_location(&self, program: GLuint, name: &CStr) -> GLint {
        // SAFETY: `name` is NUL-terminated and live for the call.
        unsafe { (self.raw.get_attrib_location)(program, name.as_ptr()) }
    }

    /// `glGetUniformBlockIndex` (`GL_INVALID_INDEX` when there is no such block).
    pub fn uniform_block_index(&self, program: GLuint, name: &CStr) -> GLuint {
        // SAFETY: `name` is NUL-terminated and live for the call.
        unsafe { (self.raw.get_uniform_block_index)(program, name.as_ptr()) }
    }

    /// `glUniform4fv` of `values.len()` vec4s.
    pub fn uniform4fv(&self, location: GLint, values: &[[f32; 4]]) {
        // SAFETY: GL reads `values.len()` vec4s from a live slice.
        unsafe { (self.raw.uniform4fv)(location, values.len() as GLsizei, values.as_ptr().cast()) };
    }

    /// `glUniformMatrix4fv` of column-major matrices, not transposed.
    pub fn uniform_matrix4fv(&self, location: GLint, matrices: &[[f32; 16]]) {
        // SAFETY: GL reads `matrices.len()` × 16 floats from a live slice.
        unsafe {
            (self.raw.uniform_matrix4fv)(
                location,
                matrices.len() as GLsizei,
                FALSE,
                matrices.as_ptr().cast(),
            )
        };
    }

    /// `glTexImage2D` of an RGBA8 level from tightly packed RGBA bytes (`None`: undefined
    /// contents). A slice of the wrong length is an error, not a call.
    pub fn tex_image_rgba8(
        &self,
        target: GLenum,
        level: GLint,
        width: u32,
        height: u32,
        pixels: Option<&[u8]>,
    ) -> Result<(), GlClientError> {
        let ptr = match pixels {
            Some(p) => {
                check_rgba_len(p.len(), width, height, "glTexImage2D")?;
                p.as_ptr().cast()
            }
            None => std::ptr::null(),
        };
        self.bind_buffer(PIXEL_UNPACK_BUFFER, 0);
        // SAFETY: with no unpack buffer and only the alignment pixel-store changed, GL reads
        // width × height × 4 bytes, which the length check guarantees (or nothing for NULL).
        unsafe {
            (self.raw.tex_image_2d)(
                target,
                level,
                RGBA8 as GLint,
                width as GLsizei,
                height as GLsizei,
                0,
                RGBA,
                UNSIGNED_BYTE,
                ptr,
            )
        };
        Ok(())
    }

    /// `glTexSubImage2D` of tightly packed RGBA bytes.
    #[allow(clippy::too_many_arguments)]
    pub fn tex_sub_image_rgba8(
        &self,
        target: GLenum,
        level: GLint,
        x: i32,
        y: i32,
        width: u32,
        height: u32,
        pixels: &[u8],
    ) -> Result<(), GlClientError> {
        check_rgba_len(pixels.len(), width, height, "glTexSubImage2D")?;
        self.bind_buffer(PIXEL_UNPACK_BUFFER, 0);
        // SAFETY: as for `tex_image_rgba8`: GL reads exactly the checked length.
        unsafe {
            (self.raw.tex_sub_image_2d)(
                target,
                level,
                x,
                y,
                width as GLsizei,
                height as GLsizei,
                RGBA,
                UNSIGNED_BYTE,
                pixels.as_ptr().cast(),
            )
        };
        Ok(())
    }

    /// `glReadPixels` of an RGBA8 rectangle, rows bottom-up as GL returns them.
    pub fn read_pixels_rgba8(&self, x: i32, y: i32, width: u32, height: u32) -> Vec<u8> {
        let mut pixels = vec![0u8; width as usize * height as usize * 4];
        self.bind_buffer(PIXEL_PACK_BUFFER, 0);
        // SAFETY: with no pack buffer and only the alignment pixel-store changed, GL writes
        // width × height × 4 bytes, the vector's length.
        unsafe {
            (self.raw.read_pixels)(
                x,
                y,
                width as GLsizei,
                height as GLsizei,
                RGBA,
                UNSIGNED_BYTE,
                pixels.as_mut_ptr().cast(),
            )
        };
        pixels
    }

    /// `glDrawArrays`.
    ///
    /// # Safety
    /// Every enabled attribute's buffer covers vertices `first..first + count`.
    pub unsafe fn draw_arrays(&self, mode: GLenum, first: GLint, count: GLsizei) {
        // SAFETY: the caller's promise; scalars otherwise.
        unsafe { (self.raw.draw_arrays)(mode, first, count) }
    }

    /// `glDrawArraysInstanced`.
    ///
    /// # Safety
    /// Per-vertex buffers cover `first..first + count`, per-instance ones every instance.
    pub unsafe fn draw_arrays_instanced(
        &self,
        mode: GLenum,
        first: GLint,
        count: GLsizei,
        instances: GLsizei,
    ) {
        // SAFETY: the caller's promise; scalars otherwise.
        unsafe { (self.raw.draw_arrays_instanced)(mode, first, count, instances) }
    }

    /// `glDrawElements` from byte `offset` of the bound element buffer.
    ///
    /// # Safety
    /// The element buffer holds `count` indices of type `ty` at `offset`, and the attribute
    /// buffers cover every vertex they name.
    pub unsafe fn draw_elements(&self, mode: GLenum, count: GLsizei, ty: GLenum, offset: usize) {
        // SAFETY: the caller's promise; in core profile the pointer is an offset.
        unsafe { (self.raw.draw_elements)(mode, count, ty, offset_ptr(offset)) }
    }

    /// `glDrawElementsInstanced`.
    ///
    /// # Safety
    /// As for [`Gl::draw_elements`], and per-instance buffers cover every instance.
    pub unsafe fn draw_elements_instanced(
        &self,
        mode: GLenum,
        count: GLsizei,
        ty: GLenum,
        offset: usize,
        instances: GLsizei,
    ) {
        // SAFETY: the caller's promise; in core profile the pointer is an offset.
        unsafe {
            (self.raw.draw_elements_instanced)(mode, count, ty, offset_ptr(offset), instances)
        }
    }

    /// `glDrawElementsBaseVertex`.
    ///
    /// # Safety
    /// As for [`Gl::draw_elements`], with every index offset by `base_vertex`.
    pub unsafe fn draw_elements_base_vertex(
        &self,
        mode: GLenum,
        count: GLsizei,
        ty: GLenum,
        offset: usize,
        base_vertex: GLint,
    ) {
        // SAFETY: the caller's promise; in core profile the pointer is an offset.
        unsafe {
            (self.raw.draw_elements_base_vertex)(mode, count, ty, offset_ptr(offset), base_vertex)
        }
    }

    /// `glDrawRangeElements`.
    ///
    /// # Safety
    /// As for [`Gl::draw_elements`], and every index lies in `start..=end`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn draw_range_elements(
        &self,
        mode: GLenum,
        start: GLuint,
        end: GLuint,
        count: GLsizei,
        ty: GLenum,
        offset: usize,
    ) {
        // SAFETY: the caller's promise; in core profile the pointer is an offset.
        unsafe { (self.raw.draw_range_elements)(mode, start, end, count, ty, offset_ptr(offset)) }
    }
}

fn check_rgba_len(len: usize, width: u32, height: u32, what: &str) -> Result<(), GlClientError> {
    let want = width as usize * height as usize * 4;
    if len == want {
        Ok(())
    } else {
        Err(GlClientError::Usage(format!(
            "{what}: {len} bytes given for {width}×{height} RGBA8 ({want} needed)"
        )))
    }
}
