//! The GL entry points: `extern "C"` functions exported by name (for programs that link
//! `libGL.so.1`) and answered by `eglGetProcAddress`.
//!
//! Design: each entry point converts C arguments (pointers become bounded slices, `GLboolean`s
//! any non-zero value) and calls the current context's method in `arenagl-translate`; without a
//! current context a command does nothing, as GL leaves it undefined. Every body runs inside a
//! `catch_unwind`: a panic becomes `GL_OUT_OF_MEMORY` on the current context (the GL's "the
//! implementation failed") and the failure value, never an unwind into C.
//!
//! # Safety (for every function here)
//! Pointer arguments must be valid as the GL specification requires for the command: arrays of
//! the stated count, NUL-terminated strings, client images of the size the pixel-store state
//! implies. NULL is accepted wherever GL accepts it and rejected with a GL error elsewhere.
#![allow(clippy::missing_safety_doc, non_snake_case)]

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::null;

use arenagl_translate::gl::enums::*;
use arenagl_translate::gl::{
    split_u64, Context, DrawCall, FfArray, IndirectDraw, Named, PackDest, PixelBufferTarget,
    QueryResultType, Value, ValueKind,
};

use arenagl_translate::gl::debug::{
    DebugMessage, DebugProc, Labelled, MAX_DEBUG_MESSAGE_LENGTH, MAX_LABEL_LENGTH,
};
use arenagl_translate::gl::FormatKind;
use arenagl_translate::gl::{BufferRanges, VertexBuffers};

use super::bridge::with_current;
use super::debug::debug_text;

type GLboolean = u8;

/// Runs `f` on the current context inside the panic guard. On a lost context (the device-lost latch) the command
/// does nothing but generate `GL_CONTEXT_LOST`, and returns `failure`: no side effects, no
/// writes through the caller's pointers, no waiting on the lost device.
/// Between `glBegin` and `glEnd`, a command GL does not allow there sets
/// `GL_INVALID_OPERATION` and is ignored (`begin_end`).
fn gl<T: Copy>(failure: T, f: impl FnOnce(&mut Context) -> T) -> T {
    gl_or_lost(failure, || failure, f)
}

/// [`gl`] for the queries a polling loop waits on, which GL answers even after a reset
/// (GL 4.6 §2.3.2.1: "a value indicating completion"): on a lost context `lost` runs — it
/// writes that answer — and `GL_CONTEXT_LOST` is generated as for every other command. A
/// context without reset notification recovers a lost device first and runs the command
/// (`Context::usable_after_loss`, docs/robustness.md).
fn gl_or_lost<T: Copy>(
    failure: T,
    lost: impl FnOnce() -> T,
    f: impl FnOnce(&mut Context) -> T,
) -> T {
    let allowed_in_begin_end = super::begin_end::current_allowed();
    gl_after_loss(failure, |c| {
        if !c.usable_after_loss() {
            c.lost_command();
            lost()
        } else if !allowed_in_begin_end && c.in_begin_end() {
            c.set_error(GL_INVALID_OPERATION);
            failure
        } else {
            f(c)
        }
    })
}

/// [`gl`] for the commands that still work after a reset (`glGetError`,
/// `glGetGraphicsResetStatus`).
/// The context learns the command's name first (its debug messages name it); the debug
/// callback calls the command produced are made after it, outside the context (`debug`).
fn gl_after_loss<T: Copy>(failure: T, f: impl FnOnce(&mut Context) -> T) -> T {
    let command = super::debug::command();
    let run = |c: &mut Context| {
        c.set_debug_command(command);
        let v = f(c);
        (v, c.take_debug_deliveries())
    };
    match catch_unwind(AssertUnwindSafe(|| {
        with_current((failure, Vec::new()), run)
    })) {
        Ok((v, calls)) => {
            super::debug::deliver(calls);
            v
        }
        Err(_) => {
            super::guard::note_caught_panic();
            let _ = catch_unwind(AssertUnwindSafe(|| {
                with_current((), |c| c.set_error(GL_OUT_OF_MEMORY))
            }));
            failure
        }
    }
}

/// Values a `glLight*v`/`glMaterial*v`/`glLightModel*v` parameter holds: four for colours and
/// positions, three for the spot direction, one otherwise.
fn lighting_values(pname: GLenum) -> i64 {
    match pname {
        0x1204 => 3,                                     // GL_SPOT_DIRECTION
        0x1200..=0x1203 | 0x1600 | 0x1602 | 0x0B53 => 4, // colours, position, model ambient
        _ => 1,
    }
}

/// Integer lighting parameters as floats: colours map [-2^31, 2^31 - 1] onto [-1, 1] (GL's
/// signed normalized rule), everything else converts directly.
fn lighting_int_params(pname: GLenum, v: &[i32]) -> Vec<f32> {
    let color = matches!(pname, 0x1200..=0x1202 | 0x1600 | 0x1602 | 0x0B53);
    v.iter()
        .map(|&x| {
            if color {
                (f64::from(x) / f64::from(i32::MAX)).max(-1.0) as f32
            } else {
                x as f32
            }
        })
        .collect()
}

/// `count` elements at `ptr` (empty for NULL or a non-positive count).
unsafe fn slice<'a, T>(ptr: *const T, count: i64) -> &'a [T] {
    if ptr.is_null() || count <= 0 {
        return &[];
    }
    // SAFETY: the caller (GL's contract) provides `count` readable elements.
    unsafe { std::slice::from_raw_parts(ptr, count as usize) }
}

unsafe fn slice_mut<'a, T>(ptr: *mut T, count: i64) -> &'a mut [T] {
    if ptr.is_null() || count <= 0 {
        return &mut [];
    }
    // SAFETY: the caller (GL's contract) provides `count` writable elements.
    unsafe { std::slice::from_raw_parts_mut(ptr, count as usize) }
}

/// The pixels an unpack command reads (`unpack`).
enum Unpack<'a> {
    /// A NULL pointer with no unpack buffer bound: no image data.
    Null,
    /// Client memory.
    Client(&'a [u8]),
    /// Bytes read from the buffer bound to `GL_PIXEL_UNPACK_BUFFER`, or a compressed image
    /// gathered out of client memory (`compressed`).
    Buffer(Vec<u8>),
}

impl Unpack<'_> {
    /// The image data, `None` for no data (`glTexImage*` with NULL).
    fn data(&self) -> Option<&[u8]> {
        match self {
            Self::Null => None,
            Self::Client(s) => Some(s),
            Self::Buffer(v) => Some(v),
        }
    }

    /// The image data, empty for none.
    fn bytes(&self) -> &[u8] {
        self.data().unwrap_or(&[])
    }
}

/// What an unpack command's `data` argument means, for an image of `bytes` bytes (`None` when
/// the format/type pair has no size: the command reports that) made of `ty` datums. With a
/// buffer bound to `GL_PIXEL_UNPACK_BUFFER`, `data` is an offset into it and is never
/// dereferenced; GL's range, alignment and mapping errors refuse the command (`None`, error
/// recorded). Without one it is client memory of `bytes` bytes.
unsafe fn unpack<'a>(
    c: &mut Context,
    call: &str,
    data: *const c_void,
    bytes: Option<usize>,
    ty: GLenum,
) -> Option<Unpack<'a>> {
    if c.pixel_buffer_bound(PixelBufferTarget::Unpack) {
        let Some(bytes) = bytes else {
            return Some(Unpack::Buffer(Vec::new()));
        };
        return c
            .unpack_buffer_bytes(call, data as u64, bytes, ty)
            .map(Unpack::Buffer);
    }
    if data.is_null() {
        return Some(Unpack::Null);
    }
    // SAFETY: no unpack buffer is bound, so `data` is client memory holding the image (GL's
    // contract, module docs).
    Some(Unpack::Client(unsafe {
        slice(data.cast::<u8>(), bytes.unwrap_or(0) as i64)
    }))
}

/// [`unpack`] for a compressed image of `size` bytes (no type: any offset is aligned; a negative
/// size reads nothing and the command reports it). `(dims, format, extent)` describe the image:
/// where the `GL_UNPACK_COMPRESSED_BLOCK_*` state gives it a layout (row length, skips in
/// blocks), the bytes that layout covers are read and its tight image is what the command gets.
unsafe fn compressed<'a>(
    c: &mut Context,
    call: &str,
    data: *const c_void,
    size: i32,
    (dims, format, extent): (u32, GLenum, [i32; 3]),
) -> Option<Unpack<'a>> {
    let bytes = usize::try_from(size).unwrap_or(0);
    let Some(layout) = c.compressed_unpack_layout(dims, format, extent, bytes) else {
        // SAFETY: as `unpack`'s contract; the caller passes its own arguments through.
        return unsafe { unpack(c, call, data, Some(bytes), GL_UNSIGNED_BYTE) };
    };
    // SAFETY: as `unpack`'s contract: under this unpack state GL reads the layout's span.
    let raw = unsafe { unpack(c, call, data, Some(layout.span()), GL_UNSIGNED_BYTE) }?;
    Some(match raw.data() {
        None => Unpack::Null,
        Some(bytes) => Unpack::Buffer(layout.gather(bytes)),
    })
}

unsafe fn string(ptr: *const c_char) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: GL names are NUL-terminated strings.
    unsafe { CStr::from_ptr(ptr) }
        .to_string_lossy()
        .into_owned()
}

/// The source `glShaderSource`/`glCreateShaderProgramv` strings make: each string its
/// `lengths` entry's bytes, or up to its NUL where the entry is missing or negative.
///
/// # Safety
/// Every pointer of `ptrs` is non-NULL and holds its length's bytes (or a NUL-terminated string).
unsafe fn joined_source(ptrs: &[*const c_char], lens: &[i32]) -> String {
    let mut source = Vec::new();
    for (i, &p) in ptrs.iter().enumerate() {
        let bytes = match lens.get(i) {
            // SAFETY: the caller's contract: `p` holds `n` bytes.
            Some(&n) if n >= 0 => unsafe { slice(p.cast::<u8>(), i64::from(n)) },
            // SAFETY: the caller's contract: `p` is a NUL-terminated string.
            _ => unsafe { CStr::from_ptr(p) }.to_bytes(),
        };
        source.extend_from_slice(bytes);
    }
    String::from_utf8_lossy(&source).into_owned()
}

/// Runs a query and writes its answer through `write` only when the query raised no error: a
/// GL command that raises an error has no other effect, so nothing is written through the
/// caller's pointers.
fn answer<T>(c: &mut Context, query: impl FnOnce(&mut Context) -> T, write: impl FnOnce(T)) {
    let before = c.errors_raised();
    let v = query(c);
    if c.errors_raised() == before {
        write(v);
    }
}

/// GL's rule for a `bufSize`/`maxCount` argument: a negative one is `GL_INVALID_VALUE` (recorded;
/// `false`: the command does nothing).
fn buf_size_ok(c: &mut Context, call: &str, size: i32) -> bool {
    if size < 0 {
        c.record_invalid_value(&format!("{call}: bufSize {size} < 0"));
    }
    size >= 0
}

/// Writes `s` to a GL `(bufSize, *length, *buf)` triple, truncated and NUL-terminated.
unsafe fn write_string(s: &str, buf_size: i32, length: *mut i32, buf: *mut c_char) {
    let n = if buf_size <= 0 {
        0
    } else {
        s.len().min(buf_size as usize - 1)
    };
    if !buf.is_null() && buf_size > 0 {
        // SAFETY: `buf` holds `buf_size` bytes (GL's contract); n + 1 <= buf_size.
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr().cast::<c_char>(), buf, n);
            *buf.add(n) = 0;
        }
    }
    if !length.is_null() {
        // SAFETY: `length` is NULL or writable (GL's contract).
        unsafe { *length = n as i32 };
    }
}

/// Writes `glGetDebugMessageLog`'s answers: each message's source, type, id and severity into
/// the arrays given (`out`, in that order; NULL ones skipped), its length with the terminator
/// into `lengths`, and the texts, each NUL-terminated, one after the other into `log`.
unsafe fn write_debug_messages(
    messages: &[DebugMessage],
    out: [*mut u32; 4],
    lengths: *mut i32,
    log: *mut c_char,
) {
    let mut at = 0;
    for (i, m) in messages.iter().enumerate() {
        for (array, v) in out.into_iter().zip([m.source, m.ty, m.id, m.severity]) {
            if !array.is_null() {
                // SAFETY: each array holds `count` >= messages.len() values (GL's contract).
                unsafe { *array.add(i) = v };
            }
        }
        let n = m.text.len() + 1;
        if !lengths.is_null() {
            // SAFETY: as above.
            unsafe { *lengths.add(i) = n as i32 };
        }
        if !log.is_null() {
            // SAFETY: the context took only the messages whose texts fit the `bufSize` bytes
            // `log` holds; each is written with its terminator after the previous ones.
            unsafe {
                std::ptr::copy_nonoverlapping(m.text.as_ptr().cast::<c_char>(), log.add(at), n - 1);
                *log.add(at + n - 1) = 0;
            }
        }
        at += n;
    }
}

/// Writes a `glGetObject(Ptr)Label` answer: with a NULL `buf`, only the label's full length.
unsafe fn write_label(label: Option<String>, buf_size: i32, length: *mut i32, buf: *mut c_char) {
    let Some(label) = label else {
        return;
    };
    if buf.is_null() {
        // SAFETY: `length` is NULL or writable (GL's contract).
        unsafe { write_values(length, &[label.len() as i32]) };
    } else {
        // SAFETY: `buf` holds `buf_size` bytes, `length` is NULL or writable (GL's contract).
        unsafe { write_string(&label, buf_size, length, buf) };
    }
}

unsafe fn write_values<T: Copy>(out: *mut T, values: &[T]) {
    if out.is_null() {
        return;
    }
    // SAFETY: GL's contract: `out` holds as many values as the query returns.
    unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), out, values.len()) };
}

unsafe fn gen(n: i32, out: *mut u32, f: impl FnOnce(&mut Context, i32) -> Vec<u32>) {
    gl((), |c| {
        let names = f(c, n);
        // SAFETY: `out` holds `n` names (GL's contract); `names` has at most `n`.
        unsafe { write_values(out, &names) };
    });
}

/// `glDelete*(n, names)`: `GL_INVALID_VALUE` for a negative `n`, else `f` on the `n` names.
///
/// # Safety
/// `ns` holds `n` names (GL's contract).
unsafe fn delete(command: &str, n: i32, ns: *const u32, f: impl FnOnce(&mut Context, &[u32])) {
    gl((), |c| {
        if n < 0 {
            return c.record_invalid_value(&format!("{command}: n < 0"));
        }
        // SAFETY: passed on from the caller.
        f(c, unsafe { names(n, ns) })
    })
}

unsafe fn names<'a>(n: i32, ptr: *const u32) -> &'a [u32] {
    // SAFETY: passed on from the caller.
    unsafe { slice(ptr, i64::from(n)) }
}

/// Values a `…v` call of `pname` reads: four for the colour parameter `colour`, else one.
/// The default tessellation levels `glPatchParameterfv(pname, …)` reads: 4 outer, 2 inner,
/// none for any other pname (an error the context raises).
fn patch_level_count(pname: GLenum) -> i64 {
    match pname {
        GL_PATCH_DEFAULT_OUTER_LEVEL => 4,
        GL_PATCH_DEFAULT_INNER_LEVEL => 2,
        _ => 0,
    }
}

fn colour_count(pname: GLenum, colour: GLenum) -> i64 {
    if pname == colour {
        4
    } else {
        1
    }
}

/// An integer `…iv` parameter as floats: a colour's integers map to [-1, 1] as GL specifies,
/// other values (enums, numbers) convert exactly.
unsafe fn int_params(pname: GLenum, colour: GLenum, v: *const i32) -> Vec<f32> {
    // SAFETY: the caller passes what GL's `…iv` receives: null or the parameter's values.
    let s = unsafe { slice(v, colour_count(pname, colour)) };
    if pname == colour {
        s.iter()
            .map(|&i| (f64::from(i) / f64::from(i32::MAX)) as f32)
            .collect()
    } else {
        s.iter().map(|&i| i as f32).collect()
    }
}

/// `glTexParameteriv`/`glSamplerParameteriv` values as floats: the border colour's integers
/// map to [-1, 1] (GL's signed normalized conversion), everything else converts exactly.
fn int_tex_params(pname: GLenum, v: &[i32]) -> Vec<f32> {
    v.iter()
        .map(|&i| {
            if pname == GL_TEXTURE_BORDER_COLOR {
                (f64::from(i) / f64::from(i32::MAX)).max(-1.0) as f32
            } else {
                i as f32
            }
        })
        .collect()
}

/// `glGetTexParameteriv`/`glGetSamplerParameteriv` answers: the border colour converts to
/// signed normalized integers (round(f × (2³¹ − 1)), clamped), everything else truncates.
fn int_tex_answers(pname: GLenum, v: &[f32]) -> Vec<i32> {
    v.iter()
        .map(|&f| {
            if pname == GL_TEXTURE_BORDER_COLOR {
                (f64::from(f).clamp(-1.0, 1.0) * f64::from(i32::MAX)).round() as i32
            } else {
                f as i32
            }
        })
        .collect()
}

/// A normalised unsigned byte (`glColor4ub`).
fn unorm(v: u8) -> f32 {
    f32::from(v) / 255.0
}

/// A 4×4 matrix the application passes as 16 floats (None for a null pointer).
unsafe fn mat_f(m: *const f32) -> Option<[f32; 16]> {
    // SAFETY: the caller passes what GL's `glLoadMatrixf` receives: null or 16 floats.
    unsafe { slice(m, 16) }.try_into().ok()
}

/// A 4×4 matrix the application passes as 16 doubles.
unsafe fn mat_d(m: *const f64) -> Option<[f32; 16]> {
    // SAFETY: as `mat_f`, for doubles.
    let s = unsafe { slice(m, 16) };
    (s.len() == 16).then(|| std::array::from_fn(|i| s[i] as f32))
}

fn b(v: GLboolean) -> bool {
    v != 0
}

/// The answer to a `glGet*` as the requested type.
unsafe fn write_get<T: Copy>(value: Option<Value>, out: *mut T, conv: impl Fn(&Value) -> Vec<T>) {
    if let Some(v) = value {
        // SAFETY: passed on from the caller.
        unsafe { write_values(out, &conv(&v)) };
    }
}

/// `glTexSubImage*` with a pixel unpack buffer bound, as a copy on the device when it can be
/// one (`Context::tex_sub_image_from_unpack_buffer`; `data` is then an offset, never
/// dereferenced). True when the command is done; otherwise the ordinary path runs.
fn sub_image_on_device(
    c: &mut Context,
    dims: u32,
    t: GLenum,
    level: i32,
    boxes: ([i32; 3], [i32; 3]),
    pair: (GLenum, GLenum),
    data: *const c_void,
) -> bool {
    c.pixel_buffer_bound(PixelBufferTarget::Unpack)
        && c.tex_sub_image_from_unpack_buffer(dims, t, level, boxes, pair, data as u64)
}

/// `glWindowPos{2,3}{d,f,i,s}v`: `n` components at `v` (z 0 for two), converted by `f`.
///
/// # Safety
/// `v` is NULL or points at `n` readable values (GL's contract).
unsafe fn window_pos_v<T: Copy>(v: *const T, n: usize, f: impl Fn(T) -> f32) {
    gl((), |c| {
        // SAFETY: the caller's contract.
        let v = unsafe { slice(v, n as i64) };
        if v.len() < n {
            return c.record_invalid_value("glWindowPos*v: NULL v");
        }
        c.window_pos(f(v[0]), f(v[1]), v.get(2).copied().map_or(0.0, &f))
    })
}

/// `glGetCompressedTexImage` / `glGetnCompressedTexImage`: with a pixel pack buffer bound the
/// pointer is an offset into it; otherwise it must hold the level's compressed bytes (or
/// `buf_size` of them).
///
/// # Safety
/// Without a pack buffer, `pixels` is NULL or points at that many writable bytes.
unsafe fn get_compressed(
    c: &mut Context,
    t: GLenum,
    level: i32,
    buf_size: Option<i32>,
    pixels: *mut c_void,
) {
    if c.pixel_buffer_bound(PixelBufferTarget::Pack) {
        return c.get_compressed_tex_image(t, level, buf_size, PackDest::Buffer(pixels as u64));
    }
    let bytes = c.get_compressed_tex_image_bytes(t, level);
    if pixels.is_null() && bytes > 0 {
        return c.record_invalid_value("glGetCompressedTexImage: NULL pixels");
    }
    // With a bufSize the application promised only that many bytes.
    let room = buf_size.map_or(bytes as i64, |n| i64::from(n).min(bytes as i64));
    // SAFETY: the caller's contract above; `room` bytes at most.
    let out = unsafe { slice_mut(pixels.cast::<u8>(), room) };
    c.get_compressed_tex_image(t, level, buf_size, PackDest::Client(out))
}

/// `glGetQueryObject*v`: with a buffer bound to `GL_QUERY_BUFFER`, `out` is a byte offset into
/// it and the result is written there as `ty` (never through `out`, not even on a lost
/// context); otherwise the result, `narrow`ed, is written through `out` (`one` answers
/// `GL_QUERY_RESULT_AVAILABLE` on a lost context).
///
/// # Safety
/// With no query buffer bound, `out` is null or holds one `T` (GL's contract).
unsafe fn query_object<T: Copy>(
    id: u32,
    pname: GLenum,
    out: *mut T,
    ty: QueryResultType,
    narrow: impl FnOnce(u64) -> T,
    one: T,
) {
    if gl_after_loss(false, |c| c.query_buffer_bound() != 0) {
        return gl((), |c| {
            c.query_object_to_buffer(id, None, pname, out as usize as i64, ty)
        });
    }
    let available = || {
        if pname == GL_QUERY_RESULT_AVAILABLE {
            // SAFETY: the caller's contract; no query buffer is bound.
            unsafe { write_values(out, &[one]) }
        }
    };
    gl_or_lost((), available, |c| {
        if let Some(v) = c.get_query_object(id, pname) {
            // SAFETY: as above.
            unsafe { write_values(out, &[narrow(v)]) }
        }
    })
}

/// The client texel of a `glClearTex*Image` call: `None` for a null pointer, else the bytes
/// of one `(format, ty)` pixel (none for a pair without a size: the command reports it).
fn clear_texel<'a>(format: GLenum, ty: GLenum, data: *const c_void) -> Option<&'a [u8]> {
    let n = Context::clear_texel_bytes(format, ty).unwrap_or(0);
    // SAFETY: GL's contract: a non-null `data` points at one texel of (format, ty), the `n`
    // bytes read here.
    (!data.is_null()).then(|| unsafe { slice(data.cast::<u8>(), n as i64) })
}

/// Runs `twin`, the bind-to-edit twin of a direct-state-access command, on the object `object`
/// names (`translate::gl::dsa`): the context selects it (or records `GL_INVALID_OPERATION` for
/// a name that is no object of the kind, and the command does nothing), `twin` runs with the
/// target the selection answers to, and the selection ends. No binding changes.
fn named<T: Copy>(failure: T, call: &str, object: Named, twin: impl FnOnce(GLenum) -> T) -> T {
    let Some(target) = gl(None, |c| c.dsa_select(call, object)) else {
        return failure;
    };
    let v = twin(target);
    gl_after_loss((), |c| c.dsa_release());
    v
}

/// [`named`] for a texture whose target must be one of `targets` (any when empty; another is
/// `GL_INVALID_OPERATION`).
fn on_texture<T: Copy>(
    failure: T,
    call: &str,
    name: u32,
    targets: &'static [GLenum],
    twin: impl FnOnce(GLenum) -> T,
) -> T {
    named(failure, call, Named::Texture { name, targets }, twin)
}

/// [`on_texture`] for `glTextureParameter*`: a sampler state of a multisample texture is
/// `GL_INVALID_OPERATION` (the DSA form of the twin's `GL_INVALID_ENUM`, as Mesa has it).
fn on_texture_parameter(call: &str, name: u32, pname: GLenum, twin: impl FnOnce(GLenum)) {
    if gl(false, |c| c.texture_parameter_allowed(call, name, pname)) {
        on_texture((), call, name, &[], twin)
    }
}

/// Texture targets of the `glTexture*` commands (GL 4.6 §8.4–§8.6): 1D, 2D-shaped, 3D-shaped
/// (a cube map's faces are its 6 layers), mipmapped and multisample textures.
const TEX_1D: &[GLenum] = &[GL_TEXTURE_1D];
const TEX_2D: &[GLenum] = &[GL_TEXTURE_2D, GL_TEXTURE_1D_ARRAY, GL_TEXTURE_RECTANGLE];
const TEX_2D_STORAGE: &[GLenum] = &[
    GL_TEXTURE_2D,
    GL_TEXTURE_1D_ARRAY,
    GL_TEXTURE_RECTANGLE,
    GL_TEXTURE_CUBE_MAP,
];
const TEX_3D: &[GLenum] = &[
    GL_TEXTURE_3D,
    GL_TEXTURE_2D_ARRAY,
    GL_TEXTURE_CUBE_MAP_ARRAY,
];
const TEX_3D_SUB: &[GLenum] = &[
    GL_TEXTURE_3D,
    GL_TEXTURE_2D_ARRAY,
    GL_TEXTURE_CUBE_MAP_ARRAY,
    GL_TEXTURE_CUBE_MAP,
];
const TEX_MIPMAPPED: &[GLenum] = &[
    GL_TEXTURE_1D,
    GL_TEXTURE_2D,
    GL_TEXTURE_3D,
    GL_TEXTURE_1D_ARRAY,
    GL_TEXTURE_2D_ARRAY,
    GL_TEXTURE_CUBE_MAP,
    GL_TEXTURE_CUBE_MAP_ARRAY,
];
const TEX_MS_2D: &[GLenum] = &[GL_TEXTURE_2D_MULTISAMPLE];
const TEX_MS_3D: &[GLenum] = &[GL_TEXTURE_2D_MULTISAMPLE_ARRAY];
/// Every target that has images (`glGetTextureImage`, `glGetTextureLevelParameter*`).
const TEX_IMAGES: &[GLenum] = &[
    GL_TEXTURE_1D,
    GL_TEXTURE_2D,
    GL_TEXTURE_3D,
    GL_TEXTURE_1D_ARRAY,
    GL_TEXTURE_2D_ARRAY,
    GL_TEXTURE_RECTANGLE,
    GL_TEXTURE_CUBE_MAP,
    GL_TEXTURE_CUBE_MAP_ARRAY,
    GL_TEXTURE_2D_MULTISAMPLE,
    GL_TEXTURE_2D_MULTISAMPLE_ARRAY,
];

/// A 3D-shaped DSA command on a cube map (its faces are layers `z .. z + depth`) as the 2D
/// command of each face, `twin(face target, z of the face)`; other targets run `twin` once.
fn cube_faces(target: GLenum, (z, depth): (i32, i32), mut twin: impl FnMut(GLenum, i32)) {
    if target != GL_TEXTURE_CUBE_MAP {
        return twin(target, z);
    }
    if z < 0 || depth < 0 || z + depth > 6 {
        return gl((), |c| {
            c.record_invalid_value("cube map faces outside 0..6")
        });
    }
    for face in z..z + depth {
        twin(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face as GLenum, face - z);
    }
}

/// The bytes between two images of a `w × h` client box (GL_UNPACK_IMAGE_HEIGHT's stride).
fn image_stride(w: i32, h: i32, format: GLenum, ty: GLenum, pack: bool) -> usize {
    gl(0, |c| {
        let one = c
            .client_image_bytes_3d(w, h, 1, format, ty, pack)
            .unwrap_or(0);
        let two = c
            .client_image_bytes_3d(w, h, 2, format, ty, pack)
            .unwrap_or(0);
        two.saturating_sub(one)
    })
}

/// `pixels` advanced by `n` images of `stride` bytes. With a buffer bound to `target` the
/// pointer is an offset into it and advances the same way; a NULL client pointer stays NULL
/// (the twin refuses it), never an address made up from NULL.
fn nth_image<P>(
    pixels: *const P,
    n: i32,
    stride: usize,
    target: PixelBufferTarget,
) -> *const c_void {
    if pixels.is_null() && !gl(false, |c| c.pixel_buffer_bound(target)) {
        return null();
    }
    (pixels as *const u8)
        .wrapping_add(n.max(0) as usize * stride)
        .cast()
}

/// `glGetTexImage` (`glGetTextureImage` when `buf_size` is given: a smaller buffer than the
/// image is `GL_INVALID_OPERATION`).
///
/// # Safety
/// Without a pack buffer, `pixels` is NULL or points at the image's bytes (at most `buf_size`).
unsafe fn get_tex_image(
    c: &mut Context,
    (t, level): (GLenum, i32),
    (format, ty): (GLenum, GLenum),
    buf_size: Option<i32>,
    pixels: *mut c_void,
) {
    if c.pixel_buffer_bound(PixelBufferTarget::Pack) {
        // With a pixel pack buffer bound the pointer is a byte offset into it.
        return c.get_tex_image(t, level, (format, ty), PackDest::Buffer(pixels as u64));
    }
    let bytes = c.get_tex_image_bytes(t, level, format, ty);
    if buf_size.is_some_and(|n| (n.max(0) as usize) < bytes) {
        return c.record_invalid_operation("glGetTextureImage: bufSize is smaller than the image");
    }
    if pixels.is_null() && bytes > 0 {
        return c.record_invalid_value("glGetTexImage: NULL pixels");
    }
    // SAFETY: the caller's contract above; `bytes` is the image's size.
    let out = unsafe { slice_mut(pixels.cast::<u8>(), bytes as i64) };
    c.get_tex_image(t, level, (format, ty), PackDest::Client(out))
}

/// [`named`] for a framebuffer (0: the default one) that the twin reaches through `target`.
fn on_framebuffer<T: Copy>(
    failure: T,
    call: &str,
    name: u32,
    target: GLenum,
    twin: impl FnOnce(GLenum) -> T,
) -> T {
    named(failure, call, Named::Framebuffer { name, target }, twin)
}

/// The image target whose level answers for `target`: a cube map's first face, else itself.
fn cube_face_of(target: GLenum) -> GLenum {
    if target == GL_TEXTURE_CUBE_MAP {
        GL_TEXTURE_CUBE_MAP_POSITIVE_X
    } else {
        target
    }
}

/// Whether every face of `level` of the selected cube map is defined, all of one size
/// (`glGetTextureImage` reads all six).
fn cube_level_complete(level: i32, format: GLenum, ty: GLenum) -> bool {
    let sizes: Vec<usize> = (0..6)
        .map(|f| {
            gl(0, |c| {
                c.get_tex_image_bytes(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, level, format, ty)
            })
        })
        .collect();
    sizes[0] > 0 && sizes.iter().all(|&s| s == sizes[0])
}

/// The bytes one image of `level` of the selected texture packs into (a cube map's face).
fn image_stride_packed(target: GLenum, level: i32, format: GLenum, ty: GLenum) -> usize {
    gl(0, |c| {
        c.get_tex_image_bytes(cube_face_of(target), level, format, ty)
    })
}

macro_rules! gl_entry_points {
    ($(fn $name:ident($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block)*) => {
        $(
            #[no_mangle]
            pub unsafe extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
                super::begin_end::entering(const { super::begin_end::allowed(stringify!($name)) });
                super::debug::entering(stringify!($name));
                // SAFETY: every pointer argument is valid as the GL specification requires for
                // this command (the module's safety contract); the helpers bound every access.
                #[allow(unused_unsafe)]
                unsafe { $body }
            }
        )*

        /// Every GL name `eglGetProcAddress` answers.
        pub const GL_PROC_NAMES: &[&str] = &[$(stringify!($name)),*];

        /// The GL function called `name`, or NULL. Extension names of functions core GL
        /// absorbed unchanged (`glGenFramebuffersEXT`, `glBindBufferARB`,
        /// `glBeginConditionalRenderNV`, …) resolve to the core function, as the extensions
        /// the context advertises promise.
        pub(crate) fn lookup(name: &[u8]) -> *mut c_void {
            fn exact(name: &[u8]) -> *mut c_void {
                $(
                    if name == stringify!($name).as_bytes() {
                        return $name as *mut c_void;
                    }
                )*
                std::ptr::null_mut()
            }
            let found = exact(name);
            if !found.is_null() {
                return found;
            }
            // GL_EXT_draw_buffers2's names for what GL 3.0 made core under other names.
            let renamed: &[u8] = match name {
                b"glColorMaskIndexedEXT" => b"glColorMaski",
                b"glEnableIndexedEXT" => b"glEnablei",
                b"glDisableIndexedEXT" => b"glDisablei",
                b"glIsEnabledIndexedEXT" => b"glIsEnabledi",
                b"glGetBooleanIndexedvEXT" => b"glGetBooleani_v",
                b"glGetIntegerIndexedvEXT" => b"glGetIntegeri_v",
                _ => b"",
            };
            if !renamed.is_empty() {
                return exact(renamed);
            }
            match name
                .strip_suffix(b"EXT")
                .or_else(|| name.strip_suffix(b"ARB"))
                .or_else(|| name.strip_suffix(b"NV"))
                .or_else(|| name.strip_suffix(b"OES"))
                .or_else(|| name.strip_suffix(b"KHR"))
            {
                Some(core) if core.starts_with(b"gl") => exact(core),
                _ => std::ptr::null_mut(),
            }
        }
    };
}

gl_entry_points! {
    fn glGetError() -> GLenum { gl_after_loss(GL_NO_ERROR, |c| c.get_error()) }
    fn glGetGraphicsResetStatus() -> GLenum { gl_after_loss(GL_NO_ERROR, |c| c.graphics_reset_status()) }
    fn glGetGraphicsResetStatusARB() -> GLenum { glGetGraphicsResetStatus() }
    fn glGetGraphicsResetStatusKHR() -> GLenum { glGetGraphicsResetStatus() }
    fn glGetGraphicsResetStatusEXT() -> GLenum { glGetGraphicsResetStatus() }
    fn glGetString(name: GLenum) -> *const u8 {
        gl(null(), |c| c.get_string(name).map_or(null(), |s| s.as_ptr().cast()))
    }
    fn glGetStringi(name: GLenum, index: u32) -> *const u8 {
        gl(null(), |c| c.get_stringi(name, index).map_or(null(), |s| s.as_ptr().cast()))
    }
    fn glGetIntegerv(pname: GLenum, out: *mut i32) {
        gl((), |c| write_get(c.get(pname), out, |v| v.to_ints().iter().map(|&i| i.clamp(i32::MIN as i64, i32::MAX as i64) as i32).collect()))
    }
    fn glGetInteger64v(pname: GLenum, out: *mut i64) {
        gl((), |c| write_get(c.get(pname), out, Value::to_ints))
    }
    fn glGetFloatv(pname: GLenum, out: *mut f32) {
        gl((), |c| write_get(c.get(pname), out, |v| v.to_floats().iter().map(|&f| f as f32).collect()))
    }
    fn glGetDoublev(pname: GLenum, out: *mut f64) {
        gl((), |c| write_get(c.get(pname), out, Value::to_floats))
    }
    fn glGetBooleanv(pname: GLenum, out: *mut GLboolean) {
        gl((), |c| write_get(c.get(pname), out, |v| v.to_bools().iter().map(|&x| u8::from(x)).collect()))
    }
    fn glGetIntegeri_v(pname: GLenum, index: u32, out: *mut i32) {
        gl((), |c| write_get(c.get_indexed(pname, index), out, |v| v.to_ints().iter().map(|&i| i as i32).collect()))
    }
    fn glGetInteger64i_v(pname: GLenum, index: u32, out: *mut i64) {
        gl((), |c| write_get(c.get_indexed(pname, index), out, Value::to_ints))
    }
    fn glGetBooleani_v(pname: GLenum, index: u32, out: *mut GLboolean) {
        gl((), |c| write_get(c.get_indexed(pname, index), out, |v| v.to_bools().iter().map(|&x| u8::from(x)).collect()))
    }
    fn glEnable(cap: GLenum) { gl((), |c| c.set_capability(cap, true)) }
    fn glDisable(cap: GLenum) { gl((), |c| c.set_capability(cap, false)) }
    fn glEnablei(cap: GLenum, index: u32) { gl((), |c| c.set_capability_indexed(cap, index, true)) }
    fn glDisablei(cap: GLenum, index: u32) { gl((), |c| c.set_capability_indexed(cap, index, false)) }
    fn glIsEnabledi(cap: GLenum, index: u32) -> GLboolean { gl(0, |c| u8::from(c.is_enabled_indexed(cap, index))) }
    fn glIsEnabled(cap: GLenum) -> GLboolean { gl(0, |c| u8::from(c.is_enabled(cap))) }
    fn glViewport(x: i32, y: i32, w: i32, h: i32) { gl((), |c| c.viewport(x, y, w, h)) }
    fn glScissor(x: i32, y: i32, w: i32, h: i32) { gl((), |c| c.scissor(x, y, w, h)) }
    // GL_ARB_viewport_array (GL 4.1); OES_viewport_array's names end in OES and resolve here,
    // but its two float depth-range commands.
    fn glViewportArrayv(first: u32, count: i32, v: *const f32) { gl((), |c| c.viewport_array(first, count, slice(v.cast::<[f32; 4]>(), i64::from(count)))) }
    fn glViewportIndexedf(i: u32, x: f32, y: f32, w: f32, h: f32) { gl((), |c| c.viewport_array(i, 1, &[[x, y, w, h]])) }
    fn glViewportIndexedfv(i: u32, v: *const f32) { gl((), |c| c.viewport_array(i, 1, slice(v.cast::<[f32; 4]>(), 1))) }
    fn glScissorArrayv(first: u32, count: i32, v: *const i32) { gl((), |c| c.scissor_array(first, count, slice(v.cast::<[i32; 4]>(), i64::from(count)))) }
    fn glScissorIndexed(i: u32, x: i32, y: i32, w: i32, h: i32) { gl((), |c| c.scissor_array(i, 1, &[[x, y, w, h]])) }
    fn glScissorIndexedv(i: u32, v: *const i32) { gl((), |c| c.scissor_array(i, 1, slice(v.cast::<[i32; 4]>(), 1))) }
    fn glDepthRangeArrayv(first: u32, count: i32, v: *const f64) { gl((), |c| c.depth_range_array(first, count, slice(v.cast::<[f64; 2]>(), i64::from(count)))) }
    fn glDepthRangeIndexed(i: u32, n: f64, f: f64) { gl((), |c| c.depth_range_array(i, 1, &[[n, f]])) }
    fn glDepthRangeArrayfvOES(first: u32, count: i32, v: *const f32) { gl((), |c| { let v: Vec<[f64; 2]> = slice(v.cast::<[f32; 2]>(), i64::from(count)).iter().map(|r| r.map(f64::from)).collect(); c.depth_range_array(first, count, &v) }) }
    fn glDepthRangeIndexedfOES(i: u32, n: f32, f: f32) { gl((), |c| c.depth_range_array(i, 1, &[[f64::from(n), f64::from(f)]])) }
    fn glGetFloati_v(pname: GLenum, index: u32, out: *mut f32) {
        gl((), |c| write_get(c.get_indexed(pname, index), out, |v| v.to_floats().iter().map(|&f| f as f32).collect()))
    }
    fn glGetDoublei_v(pname: GLenum, index: u32, out: *mut f64) {
        gl((), |c| write_get(c.get_indexed(pname, index), out, Value::to_floats))
    }
    fn glClearColor(r: f32, g: f32, bl: f32, a: f32) { gl((), |c| c.clear_color([r, g, bl, a])) }
    fn glClearDepth(d: f64) { gl((), |c| c.clear_depth(d)) }
    fn glClearDepthf(d: f32) { gl((), |c| c.clear_depth(f64::from(d))) }
    fn glClearStencil(s: i32) { gl((), |c| c.clear_stencil(s)) }
    fn glClear(mask: u32) { gl((), |c| c.clear(mask)) }
    fn glColorMask(r: GLboolean, g: GLboolean, bl: GLboolean, a: GLboolean) { gl((), |c| c.color_mask([b(r), b(g), b(bl), b(a)])) }
    fn glColorMaski(i: u32, r: GLboolean, g: GLboolean, bl: GLboolean, a: GLboolean) { gl((), |c| c.color_mask_indexed(i, [b(r), b(g), b(bl), b(a)])) }
    fn glDepthMask(on: GLboolean) { gl((), |c| c.depth_mask(b(on))) }
    fn glDepthFunc(f: GLenum) { gl((), |c| c.depth_func(f)) }
    fn glDepthRange(n: f64, f: f64) { gl((), |c| c.depth_range(n, f)) }
    fn glDepthRangef(n: f32, f: f32) { gl((), |c| c.depth_range(f64::from(n), f64::from(f))) }
    fn glBlendFunc(s: GLenum, d: GLenum) { gl((), |c| c.blend_func_separate(s, d, s, d)) }
    fn glBlendFuncSeparate(sr: GLenum, dr: GLenum, sa: GLenum, da: GLenum) { gl((), |c| c.blend_func_separate(sr, dr, sa, da)) }
    fn glBlendEquation(e: GLenum) { gl((), |c| c.blend_equation(e)) }
    fn glBlendEquationSeparate(r: GLenum, a: GLenum) { gl((), |c| c.blend_equation_separate(r, a)) }
    fn glBlendFunci(buf: u32, s: GLenum, d: GLenum) { gl((), |c| c.blend_func_separate_indexed(buf, s, d, s, d)) }
    fn glBlendFuncSeparatei(buf: u32, sr: GLenum, dr: GLenum, sa: GLenum, da: GLenum) { gl((), |c| c.blend_func_separate_indexed(buf, sr, dr, sa, da)) }
    fn glBlendEquationi(buf: u32, e: GLenum) { gl((), |c| c.blend_equation_indexed(buf, e)) }
    // GL_KHR_blend_equation_advanced's `glBlendBarrierKHR` (found by its suffix), OpenGL ES 3.2's
    // `glBlendBarrier`.
    fn glBlendBarrier() { gl((), |c| c.blend_barrier()) }
    fn glBlendEquationSeparatei(buf: u32, r: GLenum, a: GLenum) { gl((), |c| c.blend_equation_separate_indexed(buf, r, a)) }
    fn glBlendColor(r: f32, g: f32, bl: f32, a: f32) { gl((), |c| c.blend_color([r, g, bl, a])) }
    fn glCullFace(m: GLenum) { gl((), |c| c.cull_face(m)) }
    fn glFrontFace(m: GLenum) { gl((), |c| c.front_face(m)) }
    fn glClipControl(origin: GLenum, depth: GLenum) { gl((), |c| c.clip_control(origin, depth)) }
    fn glPolygonOffset(f: f32, u: f32) { gl((), |c| c.polygon_offset(f, u)) }
    fn glPolygonOffsetClamp(f: f32, u: f32, clamp: f32) { gl((), |c| c.polygon_offset_clamp(f, u, clamp)) }
    fn glPolygonMode(face: GLenum, mode: GLenum) { gl((), |c| c.polygon_mode(face, mode)) }
    fn glLineWidth(w: f32) { gl((), |c| c.line_width(w)) }
    fn glPointSize(s: f32) { gl((), |c| c.point_size(s)) }
    fn glMinSampleShading(v: f32) { gl((), |c| c.min_sample_shading(v)) }
    fn glSampleMaski(index: u32, mask: u32) { gl((), |c| c.sample_maski(index, mask)) }
    fn glMinSampleShadingARB(v: f32) { glMinSampleShading(v) }
    fn glStencilFunc(f: GLenum, r: i32, m: u32) { gl((), |c| c.stencil_func_separate(GL_FRONT_AND_BACK, f, r, m)) }
    fn glStencilFuncSeparate(face: GLenum, f: GLenum, r: i32, m: u32) { gl((), |c| c.stencil_func_separate(face, f, r, m)) }
    fn glStencilOp(a: GLenum, z: GLenum, p: GLenum) { gl((), |c| c.stencil_op_separate(GL_FRONT_AND_BACK, a, z, p)) }
    fn glStencilOpSeparate(face: GLenum, a: GLenum, z: GLenum, p: GLenum) { gl((), |c| c.stencil_op_separate(face, a, z, p)) }
    fn glStencilMask(m: u32) { gl((), |c| c.stencil_mask_separate(GL_FRONT_AND_BACK, m)) }
    fn glStencilMaskSeparate(face: GLenum, m: u32) { gl((), |c| c.stencil_mask_separate(face, m)) }
    fn glPixelStorei(p: GLenum, v: i32) { gl((), |c| c.pixel_store(p, v)) }
    fn glPixelStoref(p: GLenum, v: f32) { gl((), |c| c.pixel_store(p, v.round() as i32)) }
    fn glHint(t: GLenum, m: GLenum) { gl((), |c| c.hint(t, m)) }
    fn glProvokingVertex(m: GLenum) { gl((), |c| c.provoking_vertex(m)) }
    fn glPatchParameteri(pname: GLenum, value: i32) { gl((), |c| c.patch_parameter_i(pname, value)) }
    fn glPatchParameterfv(pname: GLenum, values: *const f32) { gl((), |c| c.patch_parameter_fv(pname, slice(values, patch_level_count(pname)))) }
    fn glPrimitiveBoundingBox(min_x: f32, min_y: f32, min_z: f32, min_w: f32, max_x: f32, max_y: f32, max_z: f32, max_w: f32) {
        gl((), |c| c.set_primitive_bounding_box([min_x, min_y, min_z, min_w, max_x, max_y, max_z, max_w]))
    }
    fn glPrimitiveRestartIndex(i: u32) { gl((), |c| c.primitive_restart_index(i)) }
    fn glClampColor(target: GLenum, clamp: GLenum) { gl((), |c| c.clamp_color(target, clamp)) }
    fn glFlush() { gl((), |c| c.flush()) }

    // GL_ARB_vertex_attrib_binding (`objects::vertex_array::binding`).
    fn glBindVertexBuffer(index: u32, buffer: u32, offset: isize, stride: i32) { gl((), |c| c.bind_vertex_buffer(index, buffer, offset as i64, stride)) }
    fn glVertexAttribFormat(index: u32, size: i32, ty: GLenum, normalized: GLboolean, relative: u32) {
        gl((), |c| c.vertex_attrib_format(index, size, ty, FormatKind::Float { normalized: b(normalized) }, relative))
    }
    fn glVertexAttribIFormat(index: u32, size: i32, ty: GLenum, relative: u32) { gl((), |c| c.vertex_attrib_format(index, size, ty, FormatKind::Integer, relative)) }
    fn glVertexAttribLFormat(index: u32, size: i32, ty: GLenum, relative: u32) { gl((), |c| c.vertex_attrib_format(index, size, ty, FormatKind::Long, relative)) }
    fn glVertexAttribBinding(index: u32, binding: u32) { gl((), |c| c.vertex_attrib_binding(index, binding)) }
    fn glVertexBindingDivisor(binding: u32, divisor: u32) { gl((), |c| c.vertex_binding_divisor(binding, divisor)) }

    // GL_KHR_debug (`context::debug`, `debug`).
    fn glDebugMessageCallback(callback: Option<DebugProc>, user: *const c_void) { gl((), |c| c.debug_message_callback(callback, user as usize)) }
    fn glDebugMessageControl(source: GLenum, ty: GLenum, severity: GLenum, count: i32, ids: *const u32, enabled: GLboolean) {
        gl((), |c| c.debug_message_control(source, ty, severity, count, slice(ids, i64::from(count)), b(enabled)))
    }
    fn glDebugMessageInsert(source: GLenum, ty: GLenum, id: u32, severity: GLenum, length: i32, text: *const c_char) {
        gl((), |c| c.debug_message_insert(source, ty, id, severity, debug_text(text, length, MAX_DEBUG_MESSAGE_LENGTH)))
    }
    fn glGetDebugMessageLog(count: u32, buf_size: i32, sources: *mut GLenum, types: *mut GLenum, ids: *mut u32, severities: *mut GLenum, lengths: *mut i32, log: *mut c_char) -> u32 {
        gl(0, |c| {
            let messages = c.debug_message_log(count, (!log.is_null()).then_some(buf_size));
            write_debug_messages(&messages, [sources, types, ids, severities], lengths, log);
            messages.len() as u32
        })
    }
    fn glPushDebugGroup(source: GLenum, id: u32, length: i32, text: *const c_char) {
        gl((), |c| c.push_debug_group(source, id, debug_text(text, length, MAX_DEBUG_MESSAGE_LENGTH)))
    }
    fn glPopDebugGroup() { gl((), |c| c.pop_debug_group()) }
    fn glObjectLabel(identifier: GLenum, name: u32, length: i32, label: *const c_char) {
        gl((), |c| c.object_label(Labelled::Object { identifier, name }, (!label.is_null()).then(|| debug_text(label, length, MAX_LABEL_LENGTH))))
    }
    fn glObjectPtrLabel(ptr: *const c_void, length: i32, label: *const c_char) {
        gl((), |c| c.object_label(Labelled::Sync(ptr as usize), (!label.is_null()).then(|| debug_text(label, length, MAX_LABEL_LENGTH))))
    }
    fn glGetObjectLabel(identifier: GLenum, name: u32, buf_size: i32, length: *mut i32, label: *mut c_char) {
        gl((), |c| write_label(c.get_object_label(Labelled::Object { identifier, name }, buf_size), buf_size, length, label))
    }
    fn glGetObjectPtrLabel(ptr: *const c_void, buf_size: i32, length: *mut i32, label: *mut c_char) {
        gl((), |c| write_label(c.get_object_label(Labelled::Sync(ptr as usize), buf_size), buf_size, length, label))
    }
    fn glGetPointerv(pname: GLenum, out: *mut *mut c_void) {
        gl((), |c| {
            if let Some(p) = c.debug_pointer(pname) {
                // SAFETY: `out` is NULL or holds one pointer (GL's contract).
                unsafe { write_values(out, &[p as *mut c_void]) };
            }
        })
    }
    fn glFinish() { gl((), |c| c.finish()) }

    // Sync objects: a GLsync is an opaque handle, validated by the context, never dereferenced.
    fn glFenceSync(condition: GLenum, flags: u32) -> *const c_void {
        gl(null(), |c| c.fence_sync(condition, flags) as *const c_void)
    }
    fn glIsSync(sync: *const c_void) -> GLboolean { gl(0, |c| u8::from(c.is_sync(sync as usize))) }
    fn glDeleteSync(sync: *const c_void) { gl((), |c| c.delete_sync(sync as usize)) }
    fn glClientWaitSync(sync: *const c_void, flags: u32, timeout: u64) -> GLenum {
        gl(GL_WAIT_FAILED, |c| c.client_wait_sync(sync as usize, flags, timeout))
    }
    fn glWaitSync(sync: *const c_void, flags: u32, timeout: u64) { gl((), |c| c.wait_sync(sync as usize, flags, timeout)) }
    fn glGetSynciv(sync: *const c_void, pname: GLenum, buf_size: i32, length: *mut i32, values: *mut i32) {
        let signalled = || {
            // After a reset every sync reads as signalled, whatever the other arguments.
            if pname == GL_SYNC_STATUS && buf_size >= 1 {
                write_values(values, &[GL_SIGNALED as i32]);
                if !length.is_null() {
                    *length = 1;
                }
            }
        };
        gl_or_lost((), signalled, |c| {
            if !buf_size_ok(c, "glGetSynciv", buf_size) {
                return;
            }
            let v = c.get_synciv(sync as usize, pname, buf_size);
            let n = v.len().min(buf_size.max(0) as usize);
            write_values(values, &v[..n]);
            if !length.is_null() && !v.is_empty() {
                *length = n as i32;
            }
        })
    }

    // Queries and conditional rendering.
    fn glGenQueries(n: i32, out: *mut u32) { gen(n, out, |c, n| c.gen_queries(n)) }
    fn glDeleteQueries(n: i32, ns: *const u32) { gl((), |c| c.delete_queries(names(n, ns), n)) }
    fn glIsQuery(n: u32) -> GLboolean { gl(0, |c| u8::from(c.is_query(n))) }
    // Transform feedback (GL 3.0, GL_ARB_transform_feedback2/3/_instanced).
    fn glGenTransformFeedbacks(n: i32, out: *mut u32) { gen(n, out, |c, n| c.gen_transform_feedbacks(n)) }
    fn glDeleteTransformFeedbacks(n: i32, ns: *const u32) { gl((), |c| c.delete_transform_feedbacks(names(n, ns), n)) }
    fn glIsTransformFeedback(n: u32) -> GLboolean { gl(0, |c| u8::from(c.is_transform_feedback(n))) }
    fn glBindTransformFeedback(t: GLenum, n: u32) { gl((), |c| c.bind_transform_feedback(t, n)) }
    fn glBeginQueryIndexed(t: GLenum, i: u32, id: u32) { gl((), |c| c.begin_query_indexed(t, i, id)) }
    fn glEndQueryIndexed(t: GLenum, i: u32) { gl((), |c| c.end_query_indexed(t, i)) }
    fn glGetQueryIndexediv(t: GLenum, i: u32, pname: GLenum, out: *mut i32) {
        gl((), |c| if let Some(v) = c.get_query_indexed(t, i, pname) { write_values(out, &[v]) })
    }
    fn glBindBufferOffsetEXT(t: GLenum, i: u32, n: u32, off: isize) { gl((), |c| c.bind_buffer_offset(t, i, n, off as i64)) }
    fn glBeginTransformFeedback(mode: GLenum) { gl((), |c| c.begin_transform_feedback(mode)) }
    fn glEndTransformFeedback() { gl((), |c| c.end_transform_feedback()) }
    fn glPauseTransformFeedback() { gl((), |c| c.pause_transform_feedback(true)) }
    fn glResumeTransformFeedback() { gl((), |c| c.pause_transform_feedback(false)) }
    fn glDrawTransformFeedback(mode: GLenum, id: u32) { gl((), |c| c.draw_transform_feedback(mode, id, 0, 1)) }
    fn glDrawTransformFeedbackInstanced(mode: GLenum, id: u32, n: i32) { gl((), |c| c.draw_transform_feedback(mode, id, 0, n)) }
    fn glDrawTransformFeedbackStream(mode: GLenum, id: u32, stream: u32) { gl((), |c| c.draw_transform_feedback(mode, id, stream, 1)) }
    fn glDrawTransformFeedbackStreamInstanced(mode: GLenum, id: u32, stream: u32, n: i32) { gl((), |c| c.draw_transform_feedback(mode, id, stream, n)) }
    fn glTransformFeedbackVaryings(p: u32, count: i32, varyings: *const *const c_char, mode: GLenum) {
        gl((), |c| {
            if count < 0 || (varyings.is_null() && count > 0) {
                return c.record_invalid_value("glTransformFeedbackVaryings: count < 0 or a NULL array");
            }
            let list: Vec<String> = slice(varyings, i64::from(count)).iter().map(|&v| string(v)).collect();
            c.transform_feedback_varyings(p, list, mode)
        })
    }
    fn glGetTransformFeedbackVarying(p: u32, i: u32, size: i32, len: *mut i32, sz: *mut i32, ty: *mut GLenum, buf: *mut c_char) {
        gl((), |c| {
            if !buf_size_ok(c, "glGetTransformFeedbackVarying", size) {
                return;
            }
            if let Some((n, s, t)) = c.get_transform_feedback_varying(p, i) { write_string(&n, size, len, buf); write_values(sz, &[s]); write_values(ty, &[t]); }
        })
    }
    fn glBeginQuery(t: GLenum, id: u32) { gl((), |c| c.begin_query(t, id)) }
    fn glEndQuery(t: GLenum) { gl((), |c| c.end_query(t)) }
    fn glQueryCounter(id: u32, t: GLenum) { gl((), |c| c.query_counter(id, t)) }
    fn glGetQueryiv(t: GLenum, pname: GLenum, out: *mut i32) {
        gl((), |c| if let Some(v) = c.get_queryiv(t, pname) { write_values(out, &[v]) })
    }
    fn glGetQueryObjectiv(id: u32, pname: GLenum, out: *mut i32) {
        query_object(id, pname, out, QueryResultType::Int, |v| v.min(i32::MAX as u64) as i32, 1)
    }
    fn glGetQueryObjectuiv(id: u32, pname: GLenum, out: *mut u32) {
        query_object(id, pname, out, QueryResultType::UInt, |v| v.min(u64::from(u32::MAX)) as u32, 1)
    }
    fn glGetQueryObjecti64v(id: u32, pname: GLenum, out: *mut i64) {
        query_object(id, pname, out, QueryResultType::Int64, |v| v.min(i64::MAX as u64) as i64, 1)
    }
    fn glGetQueryObjectui64v(id: u32, pname: GLenum, out: *mut u64) {
        query_object(id, pname, out, QueryResultType::UInt64, |v| v, 1)
    }
    // GL_ARB_query_buffer_object's DSA twins: the result written at `offset` of `buffer`.
    fn glGetQueryBufferObjectiv(id: u32, buffer: u32, pname: GLenum, offset: isize) { gl((), |c| c.query_object_to_buffer(id, Some(buffer), pname, offset as i64, QueryResultType::Int)) }
    fn glGetQueryBufferObjectuiv(id: u32, buffer: u32, pname: GLenum, offset: isize) { gl((), |c| c.query_object_to_buffer(id, Some(buffer), pname, offset as i64, QueryResultType::UInt)) }
    fn glGetQueryBufferObjecti64v(id: u32, buffer: u32, pname: GLenum, offset: isize) { gl((), |c| c.query_object_to_buffer(id, Some(buffer), pname, offset as i64, QueryResultType::Int64)) }
    fn glGetQueryBufferObjectui64v(id: u32, buffer: u32, pname: GLenum, offset: isize) { gl((), |c| c.query_object_to_buffer(id, Some(buffer), pname, offset as i64, QueryResultType::UInt64)) }
    fn glBeginConditionalRender(id: u32, mode: GLenum) { gl((), |c| c.begin_conditional_render(id, mode)) }
    fn glEndConditionalRender() { gl((), |c| c.end_conditional_render()) }

    // Buffers.
    fn glGenBuffers(n: i32, out: *mut u32) { gen(n, out, |c, n| c.gen_buffers(n)) }
    fn glDeleteBuffers(n: i32, ns: *const u32) { delete("glDeleteBuffers", n, ns, |c, ns| c.delete_buffers(ns)) }
    fn glIsBuffer(n: u32) -> GLboolean { gl(0, |c| u8::from(c.is_buffer(n))) }
    fn glBindBuffer(t: GLenum, n: u32) { gl((), |c| c.bind_buffer(t, n)) }
    fn glBindBufferBase(t: GLenum, i: u32, n: u32) { gl((), |c| c.bind_buffer_range(t, i, n, 0, 0, true)) }
    fn glBindBufferRange(t: GLenum, i: u32, n: u32, off: isize, size: isize) { gl((), |c| c.bind_buffer_range(t, i, n, off as i64, size as i64, false)) }
    fn glBufferData(t: GLenum, size: isize, data: *const c_void, usage: GLenum) {
        gl((), |c| {
            let d = (!data.is_null()).then(|| slice(data.cast::<u8>(), size as i64));
            c.buffer_data(t, size as i64, d, usage)
        })
    }
    fn glBufferStorage(t: GLenum, size: isize, data: *const c_void, flags: u32) {
        gl((), |c| {
            let d = (!data.is_null() && size > 0).then(|| slice(data.cast::<u8>(), size as i64));
            c.buffer_storage(t, size as i64, d, flags)
        })
    }
    fn glMemoryBarrier(barriers: u32) { gl((), |c| c.memory_barrier(barriers)) }
    fn glMemoryBarrierByRegion(barriers: u32) { gl((), |c| c.memory_barrier_by_region(barriers)) }
    fn glDispatchCompute(x: u32, y: u32, z: u32) { gl((), |c| c.dispatch_compute(x, y, z)) }
    fn glDispatchComputeIndirect(offset: isize) { gl((), |c| c.dispatch_compute_indirect(offset as i64)) }
    fn glShaderStorageBlockBinding(p: u32, index: u32, binding: u32) { gl((), |c| c.shader_storage_block_binding(p, index, binding)) }
    fn glBindImageTexture(unit: u32, texture: u32, level: i32, layered: GLboolean, layer: i32, access: GLenum, format: GLenum) { gl((), |c| c.bind_image_texture(unit, texture, level, layered != 0, layer, access, format)) }
    fn glBufferSubData(t: GLenum, off: isize, size: isize, data: *const c_void) {
        gl((), |c| {
            if size < 0 {
                return c.record_invalid_value("glBufferSubData: size < 0");
            }
            if data.is_null() && size > 0 {
                return c.record_invalid_value("glBufferSubData: NULL data");
            }
            c.buffer_sub_data(t, off as i64, slice(data.cast::<u8>(), size as i64))
        })
    }
    fn glGetBufferSubData(t: GLenum, off: isize, size: isize, data: *mut c_void) {
        gl((), |c| {
            if size < 0 {
                return c.record_invalid_value("glGetBufferSubData: size < 0");
            }
            if data.is_null() && size > 0 {
                return c.record_invalid_value("glGetBufferSubData: NULL data");
            }
            c.get_buffer_sub_data(t, off as i64, slice_mut(data.cast::<u8>(), size as i64))
        })
    }
    fn glMapBufferRange(t: GLenum, off: isize, len: isize, access: u32) -> *mut c_void {
        gl(std::ptr::null_mut(), |c| c.map_buffer_range(t, off as i64, len as i64, access).cast())
    }
    fn glMapBuffer(t: GLenum, access: GLenum) -> *mut c_void {
        gl(std::ptr::null_mut(), |c| {
            let bits = match access {
                GL_READ_ONLY => GL_MAP_READ_BIT,
                GL_WRITE_ONLY => GL_MAP_WRITE_BIT,
                GL_READ_WRITE => GL_MAP_READ_BIT | GL_MAP_WRITE_BIT,
                _ => return c.record_invalid_enum("glMapBuffer access", access).map_or(std::ptr::null_mut(), |_| std::ptr::null_mut()),
            };
            let size = c.get_buffer_parameter(t, GL_BUFFER_SIZE);
            c.map_buffer_range(t, 0, size, bits).cast()
        })
    }
    fn glFlushMappedBufferRange(t: GLenum, off: isize, len: isize) { gl((), |c| c.flush_mapped_buffer_range(t, off as i64, len as i64)) }
    fn glUnmapBuffer(t: GLenum) -> GLboolean { gl(0, |c| u8::from(c.unmap_buffer(t))) }
    fn glGetBufferPointerv(t: GLenum, p: GLenum, out: *mut *mut c_void) {
        gl((), |c| answer(c, |c| c.buffer_map_pointer(t, p), |v| if let Some(ptr) = v { write_values(out, &[ptr.cast::<c_void>()]) }))
    }
    fn glCopyBufferSubData(r: GLenum, w: GLenum, ro: isize, wo: isize, size: isize) { gl((), |c| c.copy_buffer_sub_data(r, w, ro as i64, wo as i64, size as i64)) }
    fn glGetBufferParameteriv(t: GLenum, p: GLenum, out: *mut i32) { gl((), |c| answer(c, |c| c.get_buffer_parameter(t, p) as i32, |v| write_values(out, &[v]))) }
    fn glGetBufferParameteri64v(t: GLenum, p: GLenum, out: *mut i64) { gl((), |c| answer(c, |c| c.get_buffer_parameter(t, p), |v| write_values(out, &[v]))) }

    // Vertex arrays.
    fn glGenVertexArrays(n: i32, out: *mut u32) { gen(n, out, |c, n| c.gen_vertex_arrays(n)) }
    fn glDeleteVertexArrays(n: i32, ns: *const u32) { delete("glDeleteVertexArrays", n, ns, |c, ns| c.delete_vertex_arrays(ns)) }
    fn glIsVertexArray(n: u32) -> GLboolean { gl(0, |c| u8::from(c.is_vertex_array(n))) }
    fn glBindVertexArray(n: u32) { gl((), |c| c.bind_vertex_array(n)) }
    fn glEnableVertexAttribArray(i: u32) { gl((), |c| c.set_vertex_attrib_array(i, true)) }
    fn glDisableVertexAttribArray(i: u32) { gl((), |c| c.set_vertex_attrib_array(i, false)) }
    fn glVertexAttribPointer(i: u32, size: i32, ty: GLenum, norm: GLboolean, stride: i32, ptr: *const c_void) {
        gl((), |c| c.vertex_attrib_pointer(i, size, ty, b(norm), stride, ptr as usize, false))
    }
    fn glVertexAttribIPointer(i: u32, size: i32, ty: GLenum, stride: i32, ptr: *const c_void) {
        gl((), |c| c.vertex_attrib_pointer(i, size, ty, false, stride, ptr as usize, true))
    }
    fn glVertexAttribDivisor(i: u32, d: u32) { gl((), |c| c.vertex_attrib_divisor(i, d)) }
    fn glVertexAttrib1f(i: u32, x: f32) { gl((), |c| c.vertex_attrib(i, [x.to_bits(), 0, 0, 1f32.to_bits()])) }
    fn glVertexAttrib2f(i: u32, x: f32, y: f32) { gl((), |c| c.vertex_attrib(i, [x.to_bits(), y.to_bits(), 0, 1f32.to_bits()])) }
    fn glVertexAttrib3f(i: u32, x: f32, y: f32, z: f32) { gl((), |c| c.vertex_attrib(i, [x.to_bits(), y.to_bits(), z.to_bits(), 1f32.to_bits()])) }
    fn glVertexAttrib4f(i: u32, x: f32, y: f32, z: f32, w: f32) { gl((), |c| c.vertex_attrib(i, [x.to_bits(), y.to_bits(), z.to_bits(), w.to_bits()])) }
    fn glVertexAttrib4fv(i: u32, v: *const f32) { gl((), |c| { let s = slice(v, 4); if s.len() == 4 { c.vertex_attrib(i, [s[0].to_bits(), s[1].to_bits(), s[2].to_bits(), s[3].to_bits()]) } }) }
    // The shorter vector forms fill the missing components with GL's (0, 0, 1) defaults.
    fn glVertexAttrib1fv(i: u32, v: *const f32) { gl((), |c| if let [x] = slice(v, 1) { c.vertex_attrib(i, [x.to_bits(), 0, 0, 1f32.to_bits()]) }) }
    fn glVertexAttrib2fv(i: u32, v: *const f32) { gl((), |c| if let [x, y] = slice(v, 2) { c.vertex_attrib(i, [x.to_bits(), y.to_bits(), 0, 1f32.to_bits()]) }) }
    fn glVertexAttrib3fv(i: u32, v: *const f32) { gl((), |c| if let [x, y, z] = slice(v, 3) { c.vertex_attrib(i, [x.to_bits(), y.to_bits(), z.to_bits(), 1f32.to_bits()]) }) }
    fn glVertexAttribI4i(i: u32, x: i32, y: i32, z: i32, w: i32) { gl((), |c| c.vertex_attrib(i, [x as u32, y as u32, z as u32, w as u32])) }
    fn glVertexAttribI4ui(i: u32, x: u32, y: u32, z: u32, w: u32) { gl((), |c| c.vertex_attrib(i, [x, y, z, w])) }
    fn glVertexAttribP1ui(i: u32, ty: GLenum, norm: GLboolean, v: u32) { gl((), |c| c.vertex_attrib_packed(i, 1, ty, b(norm), v)) }
    fn glVertexAttribP2ui(i: u32, ty: GLenum, norm: GLboolean, v: u32) { gl((), |c| c.vertex_attrib_packed(i, 2, ty, b(norm), v)) }
    fn glVertexAttribP3ui(i: u32, ty: GLenum, norm: GLboolean, v: u32) { gl((), |c| c.vertex_attrib_packed(i, 3, ty, b(norm), v)) }
    fn glVertexAttribP4ui(i: u32, ty: GLenum, norm: GLboolean, v: u32) { gl((), |c| c.vertex_attrib_packed(i, 4, ty, b(norm), v)) }
    fn glVertexAttribP1uiv(i: u32, ty: GLenum, norm: GLboolean, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.vertex_attrib_packed(i, 1, ty, b(norm), w) }) }
    fn glVertexAttribP2uiv(i: u32, ty: GLenum, norm: GLboolean, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.vertex_attrib_packed(i, 2, ty, b(norm), w) }) }
    fn glVertexAttribP3uiv(i: u32, ty: GLenum, norm: GLboolean, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.vertex_attrib_packed(i, 3, ty, b(norm), w) }) }
    fn glVertexAttribP4uiv(i: u32, ty: GLenum, norm: GLboolean, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.vertex_attrib_packed(i, 4, ty, b(norm), w) }) }

    // Compatibility profile: fixed-function arrays, current values, immediate mode, matrices.
    fn glVertexPointer(size: i32, ty: GLenum, stride: i32, ptr: *const c_void) { gl((), |c| c.vertex_pointer(size, ty, stride, ptr as usize)) }
    fn glNormalPointer(ty: GLenum, stride: i32, ptr: *const c_void) { gl((), |c| c.normal_pointer(ty, stride, ptr as usize)) }
    fn glColorPointer(size: i32, ty: GLenum, stride: i32, ptr: *const c_void) { gl((), |c| c.color_pointer(false, size, ty, stride, ptr as usize)) }
    fn glSecondaryColorPointer(size: i32, ty: GLenum, stride: i32, ptr: *const c_void) { gl((), |c| c.color_pointer(true, size, ty, stride, ptr as usize)) }
    fn glTexCoordPointer(size: i32, ty: GLenum, stride: i32, ptr: *const c_void) { gl((), |c| c.tex_coord_pointer(size, ty, stride, ptr as usize)) }
    fn glFogCoordPointer(ty: GLenum, stride: i32, ptr: *const c_void) { gl((), |c| c.fog_coord_pointer(ty, stride, ptr as usize)) }
    fn glEnableClientState(a: GLenum) { gl((), |c| c.client_state(a, true)) }
    fn glDisableClientState(a: GLenum) { gl((), |c| c.client_state(a, false)) }
    fn glClientActiveTexture(t: GLenum) { gl((), |c| c.client_active_texture(t)) }
    fn glColor3f(r: f32, g: f32, bl: f32) { gl((), |c| c.ff_current(FfArray::Color, [r, g, bl, 1.0])) }
    fn glColor4f(r: f32, g: f32, bl: f32, a: f32) { gl((), |c| c.ff_current(FfArray::Color, [r, g, bl, a])) }
    fn glColor3d(r: f64, g: f64, bl: f64) { gl((), |c| c.ff_current(FfArray::Color, [r as f32, g as f32, bl as f32, 1.0])) }
    fn glColor4d(r: f64, g: f64, bl: f64, a: f64) { gl((), |c| c.ff_current(FfArray::Color, [r as f32, g as f32, bl as f32, a as f32])) }
    fn glColor3ub(r: u8, g: u8, bl: u8) { gl((), |c| c.ff_current(FfArray::Color, [unorm(r), unorm(g), unorm(bl), 1.0])) }
    fn glColor4ub(r: u8, g: u8, bl: u8, a: u8) { gl((), |c| c.ff_current(FfArray::Color, [unorm(r), unorm(g), unorm(bl), unorm(a)])) }
    fn glColor3fv(v: *const f32) { gl((), |c| { if let [r, g, bl] = *slice(v, 3) { c.ff_current(FfArray::Color, [r, g, bl, 1.0]) } }) }
    fn glColor4fv(v: *const f32) { gl((), |c| { if let [r, g, bl, a] = *slice(v, 4) { c.ff_current(FfArray::Color, [r, g, bl, a]) } }) }
    fn glColor4ubv(v: *const u8) { gl((), |c| { if let [r, g, bl, a] = *slice(v, 4) { c.ff_current(FfArray::Color, [unorm(r), unorm(g), unorm(bl), unorm(a)]) } }) }
    fn glSecondaryColor3f(r: f32, g: f32, bl: f32) { gl((), |c| c.ff_current(FfArray::SecondaryColor, [r, g, bl, 1.0])) }
    fn glSecondaryColor3fv(v: *const f32) { gl((), |c| { if let [r, g, bl] = *slice(v, 3) { c.ff_current(FfArray::SecondaryColor, [r, g, bl, 1.0]) } }) }
    fn glSecondaryColor3ub(r: u8, g: u8, bl: u8) { gl((), |c| c.ff_current(FfArray::SecondaryColor, [unorm(r), unorm(g), unorm(bl), 1.0])) }
    fn glLightf(l: GLenum, p: GLenum, v: f32) { gl((), |c| c.light(l, p, &[v])) }
    fn glLighti(l: GLenum, p: GLenum, v: i32) { gl((), |c| c.light(l, p, &[v as f32])) }
    fn glLightfv(l: GLenum, p: GLenum, v: *const f32) { gl((), |c| c.light(l, p, slice(v, lighting_values(p)))) }
    fn glLightiv(l: GLenum, p: GLenum, v: *const i32) { gl((), |c| c.light(l, p, &lighting_int_params(p, slice(v, lighting_values(p))))) }
    fn glMaterialf(f: GLenum, p: GLenum, v: f32) { gl((), |c| c.material(f, p, &[v])) }
    fn glMateriali(f: GLenum, p: GLenum, v: i32) { gl((), |c| c.material(f, p, &[v as f32])) }
    fn glMaterialfv(f: GLenum, p: GLenum, v: *const f32) { gl((), |c| c.material(f, p, slice(v, lighting_values(p)))) }
    fn glMaterialiv(f: GLenum, p: GLenum, v: *const i32) { gl((), |c| c.material(f, p, &lighting_int_params(p, slice(v, lighting_values(p))))) }
    fn glLightModelf(p: GLenum, v: f32) { gl((), |c| c.light_model(p, &[v])) }
    fn glLightModeli(p: GLenum, v: i32) { gl((), |c| c.light_model(p, &[v as f32])) }
    fn glLightModelfv(p: GLenum, v: *const f32) { gl((), |c| c.light_model(p, slice(v, lighting_values(p)))) }
    fn glLightModeliv(p: GLenum, v: *const i32) { gl((), |c| c.light_model(p, &lighting_int_params(p, slice(v, lighting_values(p))))) }
    fn glColorMaterial(f: GLenum, m: GLenum) { gl((), |c| c.color_material(f, m)) }
    fn glNewList(list: u32, mode: GLenum) { gl((), |c| c.new_list(list, mode)) }
    fn glEndList() { gl((), |c| c.end_list()) }
    fn glCallList(list: u32) { gl((), |c| c.call_list(list)) }
    fn glCallLists(n: i32, ty: GLenum, lists: *const c_void) {
        // Bytes per name of `ty` (GL_BYTE … GL_4_BYTES); 0 for an invalid type, which
        // call_lists reports.
        let width = match ty { 0x1400 | 0x1401 => 1, 0x1402 | 0x1403 | 0x1407 => 2, 0x1408 => 3, 0x1404..=0x1406 | 0x1409 => 4, _ => 0 };
        gl((), |c| c.call_lists(n, ty, slice(lists.cast::<u8>(), i64::from(n.max(0)) * width)))
    }
    fn glGenLists(range: i32) -> u32 { gl(0, |c| c.gen_lists(range)) }
    fn glDeleteLists(list: u32, range: i32) { gl((), |c| c.delete_lists(list, range)) }
    fn glIsList(list: u32) -> GLboolean { gl(0, |c| u8::from(c.is_list(list))) }
    fn glListBase(base: u32) { gl((), |c| c.list_base(base)) }
    fn glNormal3f(x: f32, y: f32, z: f32) { gl((), |c| c.ff_current(FfArray::Normal, [x, y, z, 1.0])) }
    fn glNormal3fv(v: *const f32) { gl((), |c| { if let [x, y, z] = *slice(v, 3) { c.ff_current(FfArray::Normal, [x, y, z, 1.0]) } }) }
    fn glFogCoordf(f: f32) { gl((), |c| c.ff_current(FfArray::FogCoord, [f, 0.0, 0.0, 1.0])) }
    fn glTexCoord1f(s: f32) { gl((), |c| c.ff_current(FfArray::TexCoord(0), [s, 0.0, 0.0, 1.0])) }
    fn glTexCoord2f(s: f32, t: f32) { gl((), |c| c.ff_current(FfArray::TexCoord(0), [s, t, 0.0, 1.0])) }
    fn glTexCoord3f(s: f32, t: f32, r: f32) { gl((), |c| c.ff_current(FfArray::TexCoord(0), [s, t, r, 1.0])) }
    fn glTexCoord4f(s: f32, t: f32, r: f32, q: f32) { gl((), |c| c.ff_current(FfArray::TexCoord(0), [s, t, r, q])) }
    fn glTexCoord2d(s: f64, t: f64) { gl((), |c| c.ff_current(FfArray::TexCoord(0), [s as f32, t as f32, 0.0, 1.0])) }
    fn glTexCoord2fv(v: *const f32) { gl((), |c| { if let [s, t] = *slice(v, 2) { c.ff_current(FfArray::TexCoord(0), [s, t, 0.0, 1.0]) } }) }
    fn glTexCoord1fv(v: *const f32) { gl((), |c| { if let [s] = *slice(v, 1) { c.ff_current(FfArray::TexCoord(0), [s, 0.0, 0.0, 1.0]) } }) }
    fn glTexCoord3fv(v: *const f32) { gl((), |c| { if let [s, t, r] = *slice(v, 3) { c.ff_current(FfArray::TexCoord(0), [s, t, r, 1.0]) } }) }
    fn glTexCoord4fv(v: *const f32) { gl((), |c| { if let [s, t, r, q] = *slice(v, 4) { c.ff_current(FfArray::TexCoord(0), [s, t, r, q]) } }) }
    fn glMultiTexCoord1f(u: GLenum, s: f32) { gl((), |c| c.multi_tex_coord(u, [s, 0.0, 0.0, 1.0])) }
    fn glMultiTexCoord3fv(u: GLenum, v: *const f32) { gl((), |c| { if let [s, t, r] = *slice(v, 3) { c.multi_tex_coord(u, [s, t, r, 1.0]) } }) }
    fn glMultiTexCoord4fv(u: GLenum, v: *const f32) { gl((), |c| { if let [s, t, r, q] = *slice(v, 4) { c.multi_tex_coord(u, [s, t, r, q]) } }) }
    fn glColor3ubv(v: *const u8) { gl((), |c| { if let [r, g, bl] = *slice(v, 3) { c.ff_current(FfArray::Color, [unorm(r), unorm(g), unorm(bl), 1.0]) } }) }
    fn glBitmap(w: i32, h: i32, xo: f32, yo: f32, xm: f32, ym: f32, bits: *const u8) {
        gl((), |c| {
            let len = c.bitmap_bytes(w, h);
            // GL_BITMAP datums are bytes: any offset is aligned.
            let Some(px) = unpack(c, "glBitmap", bits.cast(), Some(len), GL_UNSIGNED_BYTE) else { return };
            c.bitmap(w, h, [xo, yo], [xm, ym], px.bytes())
        })
    }
    fn glDrawPixels(w: i32, h: i32, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| {
            let bytes = c.client_image_bytes(w, h, format, ty, false);
            let Some(px) = unpack(c, "glDrawPixels", data, bytes, ty) else { return };
            c.draw_pixels(w, h, format, ty, px.bytes())
        })
    }
    fn glPixelZoom(x: f32, y: f32) { gl((), |c| c.pixel_zoom(x, y)) }
    fn glPolygonStipple(mask: *const u8) {
        gl((), |c| {
            let len = c.polygon_stipple_bytes(false);
            // A bitmap: bytes, so any offset into an unpack buffer is aligned.
            let Some(px) = unpack(c, "glPolygonStipple", mask.cast(), Some(len), GL_UNSIGNED_BYTE) else { return };
            if matches!(px, Unpack::Null) {
                return c.record_invalid_value("glPolygonStipple: NULL mask with no pixel unpack buffer bound");
            }
            c.polygon_stipple(px.bytes())
        })
    }
    fn glGetPolygonStipple(mask: *mut u8) {
        gl((), |c| {
            let len = c.polygon_stipple_bytes(true);
            if c.pixel_buffer_bound(PixelBufferTarget::Pack) {
                // With a pixel pack buffer bound the pointer is a byte offset into it.
                return c.pack_into_buffer("glGetPolygonStipple", (mask as u64, len, GL_UNSIGNED_BYTE), |c, out| c.get_polygon_stipple(out));
            }
            if mask.is_null() {
                return c.record_invalid_value("glGetPolygonStipple: NULL mask");
            }
            c.get_polygon_stipple(slice_mut(mask, len as i64))
        })
    }
    fn glVertexP2ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::Vertex, 2, ty, v)) }
    fn glVertexP2uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::Vertex, 2, ty, w) }) }
    fn glVertexP3ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::Vertex, 3, ty, v)) }
    fn glVertexP3uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::Vertex, 3, ty, w) }) }
    fn glVertexP4ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::Vertex, 4, ty, v)) }
    fn glVertexP4uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::Vertex, 4, ty, w) }) }
    fn glTexCoordP1ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::TexCoord(0), 1, ty, v)) }
    fn glTexCoordP1uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::TexCoord(0), 1, ty, w) }) }
    fn glTexCoordP2ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::TexCoord(0), 2, ty, v)) }
    fn glTexCoordP2uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::TexCoord(0), 2, ty, w) }) }
    fn glTexCoordP3ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::TexCoord(0), 3, ty, v)) }
    fn glTexCoordP3uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::TexCoord(0), 3, ty, w) }) }
    fn glTexCoordP4ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::TexCoord(0), 4, ty, v)) }
    fn glTexCoordP4uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::TexCoord(0), 4, ty, w) }) }
    fn glNormalP3ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::Normal, 3, ty, v)) }
    fn glNormalP3uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::Normal, 3, ty, w) }) }
    fn glColorP3ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::Color, 3, ty, v)) }
    fn glColorP3uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::Color, 3, ty, w) }) }
    fn glColorP4ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::Color, 4, ty, v)) }
    fn glColorP4uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::Color, 4, ty, w) }) }
    fn glSecondaryColorP3ui(ty: GLenum, v: u32) { gl((), |c| c.ff_packed(FfArray::SecondaryColor, 3, ty, v)) }
    fn glSecondaryColorP3uiv(ty: GLenum, v: *const u32) { gl((), |c| if let Some(&w) = slice(v, 1).first() { c.ff_packed(FfArray::SecondaryColor, 3, ty, w) }) }
    fn glMultiTexCoordP1ui(u: GLenum, ty: GLenum, v: u32) { gl((), |c| if (GL_TEXTURE0..GL_TEXTURE0 + 8).contains(&u) { c.ff_packed(FfArray::TexCoord(u - GL_TEXTURE0), 1, ty, v) } else { c.multi_tex_coord(u, [0.0, 0.0, 0.0, 1.0]) }) }
    fn glMultiTexCoordP2ui(u: GLenum, ty: GLenum, v: u32) { gl((), |c| if (GL_TEXTURE0..GL_TEXTURE0 + 8).contains(&u) { c.ff_packed(FfArray::TexCoord(u - GL_TEXTURE0), 2, ty, v) } else { c.multi_tex_coord(u, [0.0, 0.0, 0.0, 1.0]) }) }
    fn glMultiTexCoordP3ui(u: GLenum, ty: GLenum, v: u32) { gl((), |c| if (GL_TEXTURE0..GL_TEXTURE0 + 8).contains(&u) { c.ff_packed(FfArray::TexCoord(u - GL_TEXTURE0), 3, ty, v) } else { c.multi_tex_coord(u, [0.0, 0.0, 0.0, 1.0]) }) }
    fn glMultiTexCoordP4ui(u: GLenum, ty: GLenum, v: u32) { gl((), |c| if (GL_TEXTURE0..GL_TEXTURE0 + 8).contains(&u) { c.ff_packed(FfArray::TexCoord(u - GL_TEXTURE0), 4, ty, v) } else { c.multi_tex_coord(u, [0.0, 0.0, 0.0, 1.0]) }) }
    fn glMultiTexCoord2f(u: GLenum, s: f32, t: f32) { gl((), |c| c.multi_tex_coord(u, [s, t, 0.0, 1.0])) }
    fn glMultiTexCoord3f(u: GLenum, s: f32, t: f32, r: f32) { gl((), |c| c.multi_tex_coord(u, [s, t, r, 1.0])) }
    fn glMultiTexCoord4f(u: GLenum, s: f32, t: f32, r: f32, q: f32) { gl((), |c| c.multi_tex_coord(u, [s, t, r, q])) }
    fn glMultiTexCoord2fv(u: GLenum, v: *const f32) { gl((), |c| { if let [s, t] = *slice(v, 2) { c.multi_tex_coord(u, [s, t, 0.0, 1.0]) } }) }
    fn glVertex2f(x: f32, y: f32) { gl((), |c| c.vertex([x, y, 0.0, 1.0])) }
    fn glVertex3f(x: f32, y: f32, z: f32) { gl((), |c| c.vertex([x, y, z, 1.0])) }
    fn glVertex4f(x: f32, y: f32, z: f32, w: f32) { gl((), |c| c.vertex([x, y, z, w])) }
    fn glVertex2d(x: f64, y: f64) { gl((), |c| c.vertex([x as f32, y as f32, 0.0, 1.0])) }
    fn glVertex3d(x: f64, y: f64, z: f64) { gl((), |c| c.vertex([x as f32, y as f32, z as f32, 1.0])) }
    fn glVertex2i(x: i32, y: i32) { gl((), |c| c.vertex([x as f32, y as f32, 0.0, 1.0])) }
    fn glVertex3i(x: i32, y: i32, z: i32) { gl((), |c| c.vertex([x as f32, y as f32, z as f32, 1.0])) }
    fn glVertex2fv(v: *const f32) { gl((), |c| { if let [x, y] = *slice(v, 2) { c.vertex([x, y, 0.0, 1.0]) } }) }
    fn glVertex3fv(v: *const f32) { gl((), |c| { if let [x, y, z] = *slice(v, 3) { c.vertex([x, y, z, 1.0]) } }) }
    fn glVertex4fv(v: *const f32) { gl((), |c| { if let [x, y, z, w] = *slice(v, 4) { c.vertex([x, y, z, w]) } }) }
    fn glBegin(mode: GLenum) { gl((), |c| c.begin(mode)) }
    fn glEnd() { gl((), |c| c.end()) }
    fn glRectf(x1: f32, y1: f32, x2: f32, y2: f32) {
        gl((), |c| {
            c.begin(GL_POLYGON);
            for (x, y) in [(x1, y1), (x2, y1), (x2, y2), (x1, y2)] {
                c.vertex([x, y, 0.0, 1.0]);
            }
            c.end()
        })
    }
    fn glRasterPos2f(x: f32, y: f32) { gl((), |c| c.raster_pos([x, y, 0.0, 1.0])) }
    fn glRasterPos2i(x: i32, y: i32) { gl((), |c| c.raster_pos([x as f32, y as f32, 0.0, 1.0])) }
    fn glRasterPos3f(x: f32, y: f32, z: f32) { gl((), |c| c.raster_pos([x, y, z, 1.0])) }
    fn glRasterPos4f(x: f32, y: f32, z: f32, w: f32) { gl((), |c| c.raster_pos([x, y, z, w])) }
    fn glRasterPos2fv(v: *const f32) { gl((), |c| { if let [x, y] = *slice(v, 2) { c.raster_pos([x, y, 0.0, 1.0]) } }) }
    fn glRasterPos3fv(v: *const f32) { gl((), |c| { if let [x, y, z] = *slice(v, 3) { c.raster_pos([x, y, z, 1.0]) } }) }
    fn glRasterPos4fv(v: *const f32) { gl((), |c| { if let [x, y, z, w] = *slice(v, 4) { c.raster_pos([x, y, z, w]) } }) }
    fn glWindowPos2i(x: i32, y: i32) { gl((), |c| c.window_pos(x as f32, y as f32, 0.0)) }
    fn glWindowPos2f(x: f32, y: f32) { gl((), |c| c.window_pos(x, y, 0.0)) }
    fn glWindowPos3f(x: f32, y: f32, z: f32) { gl((), |c| c.window_pos(x, y, z)) }
    fn glWindowPos2d(x: f64, y: f64) { gl((), |c| c.window_pos(x as f32, y as f32, 0.0)) }
    fn glWindowPos2s(x: i16, y: i16) { gl((), |c| c.window_pos(f32::from(x), f32::from(y), 0.0)) }
    fn glWindowPos3d(x: f64, y: f64, z: f64) { gl((), |c| c.window_pos(x as f32, y as f32, z as f32)) }
    fn glWindowPos3i(x: i32, y: i32, z: i32) { gl((), |c| c.window_pos(x as f32, y as f32, z as f32)) }
    fn glWindowPos3s(x: i16, y: i16, z: i16) { gl((), |c| c.window_pos(f32::from(x), f32::from(y), f32::from(z))) }
    fn glWindowPos2dv(v: *const f64) { window_pos_v(v, 2, |x| x as f32) }
    fn glWindowPos2fv(v: *const f32) { window_pos_v(v, 2, |x| x) }
    fn glWindowPos2iv(v: *const i32) { window_pos_v(v, 2, |x| x as f32) }
    fn glWindowPos2sv(v: *const i16) { window_pos_v(v, 2, f32::from) }
    fn glWindowPos3dv(v: *const f64) { window_pos_v(v, 3, |x| x as f32) }
    fn glWindowPos3fv(v: *const f32) { window_pos_v(v, 3, |x| x) }
    fn glWindowPos3iv(v: *const i32) { window_pos_v(v, 3, |x| x as f32) }
    fn glWindowPos3sv(v: *const i16) { window_pos_v(v, 3, f32::from) }
    fn glMatrixMode(m: GLenum) { gl((), |c| c.matrix_mode(m)) }
    fn glLoadIdentity() { gl((), |c| c.load_matrix(None, false)) }
    fn glLoadMatrixf(m: *const f32) { gl((), |c| { if let Some(m) = mat_f(m) { c.load_matrix(Some(m), false) } }) }
    fn glLoadMatrixd(m: *const f64) { gl((), |c| { if let Some(m) = mat_d(m) { c.load_matrix(Some(m), false) } }) }
    fn glLoadTransposeMatrixf(m: *const f32) { gl((), |c| { if let Some(m) = mat_f(m) { c.load_matrix(Some(m), true) } }) }
    fn glMultMatrixf(m: *const f32) { gl((), |c| { if let Some(m) = mat_f(m) { c.mult_matrix(m, false) } }) }
    fn glMultMatrixd(m: *const f64) { gl((), |c| { if let Some(m) = mat_d(m) { c.mult_matrix(m, false) } }) }
    fn glMultTransposeMatrixf(m: *const f32) { gl((), |c| { if let Some(m) = mat_f(m) { c.mult_matrix(m, true) } }) }
    fn glPushMatrix() { gl((), |c| c.push_pop_matrix(true)) }
    fn glPopMatrix() { gl((), |c| c.push_pop_matrix(false)) }
    fn glOrtho(l: f64, r: f64, bo: f64, t: f64, n: f64, f: f64) { gl((), |c| c.ortho_frustum(false, [l, r, bo, t, n, f])) }
    fn glFrustum(l: f64, r: f64, bo: f64, t: f64, n: f64, f: f64) { gl((), |c| c.ortho_frustum(true, [l, r, bo, t, n, f])) }
    fn glTranslatef(x: f32, y: f32, z: f32) { gl((), |c| c.translate_scale(false, x.into(), y.into(), z.into())) }
    fn glTranslated(x: f64, y: f64, z: f64) { gl((), |c| c.translate_scale(false, x, y, z)) }
    fn glScalef(x: f32, y: f32, z: f32) { gl((), |c| c.translate_scale(true, x.into(), y.into(), z.into())) }
    fn glScaled(x: f64, y: f64, z: f64) { gl((), |c| c.translate_scale(true, x, y, z)) }
    fn glRotatef(a: f32, x: f32, y: f32, z: f32) { gl((), |c| c.rotate(a.into(), x.into(), y.into(), z.into())) }
    fn glRotated(a: f64, x: f64, y: f64, z: f64) { gl((), |c| c.rotate(a, x, y, z)) }
    fn glAlphaFunc(f: GLenum, r: f32) { gl((), |c| c.alpha_func(f, r)) }
    fn glShadeModel(m: GLenum) { gl((), |c| c.shade_model(m)) }
    fn glTexEnvi(t: GLenum, p: GLenum, v: i32) { gl((), |c| c.tex_env(t, p, &[v as f32])) }
    fn glTexEnvf(t: GLenum, p: GLenum, v: f32) { gl((), |c| c.tex_env(t, p, &[v])) }
    fn glTexEnvfv(t: GLenum, p: GLenum, v: *const f32) { gl((), |c| c.tex_env(t, p, slice(v, colour_count(p, GL_TEXTURE_ENV_COLOR)))) }
    fn glTexEnviv(t: GLenum, p: GLenum, v: *const i32) { gl((), |c| c.tex_env(t, p, &int_params(p, GL_TEXTURE_ENV_COLOR, v))) }
    fn glGetTexEnvfv(t: GLenum, p: GLenum, out: *mut f32) {
        gl((), |c| write_get(c.get_tex_env(t, p), out, |v| v.to_floats().iter().map(|&f| f as f32).collect()))
    }
    fn glGetTexEnviv(t: GLenum, p: GLenum, out: *mut i32) {
        gl((), |c| write_get(c.get_tex_env(t, p), out, |v| v.to_ints().iter().map(|&i| i.clamp(i32::MIN as i64, i32::MAX as i64) as i32).collect()))
    }
    fn glFogf(p: GLenum, v: f32) { gl((), |c| c.fog(p, &[v])) }
    fn glFogi(p: GLenum, v: i32) { gl((), |c| c.fog(p, &[v as f32])) }
    fn glFogfv(p: GLenum, v: *const f32) { gl((), |c| c.fog(p, slice(v, colour_count(p, GL_FOG_COLOR)))) }
    fn glFogiv(p: GLenum, v: *const i32) { gl((), |c| c.fog(p, &int_params(p, GL_FOG_COLOR, v))) }
    fn glGetVertexAttribiv(i: u32, p: GLenum, out: *mut i32) { gl((), |c| { let v: Vec<i32> = c.get_vertex_attrib(i, p).iter().map(|&x| x as i32).collect(); write_values(out, &v) }) }
    fn glGetVertexAttribfv(i: u32, p: GLenum, out: *mut f32) { gl((), |c| { let v: Vec<f32> = c.get_vertex_attrib(i, p).iter().map(|&x| x as f32).collect(); write_values(out, &v) }) }
    fn glGetVertexAttribPointerv(i: u32, p: GLenum, out: *mut *mut c_void) { gl((), |c| { let v = c.get_vertex_attrib(i, p); if let Some(&o) = v.first() { write_values(out, &[o as usize as *mut c_void]) } }) }

    // Shaders and programs.
    fn glCreateShader(ty: GLenum) -> u32 { gl(0, |c| c.create_shader(ty)) }
    fn glShaderSource(sh: u32, count: i32, strings: *const *const c_char, lengths: *const i32) {
        gl((), |c| {
            if !c.is_shader(sh) {
                // The shader name's own error (GL_INVALID_VALUE, or GL_INVALID_OPERATION for
                // a program) comes first, as Mesa reports it.
                return c.shader_source(sh, String::new());
            }
            if count < 0 || (strings.is_null() && count > 0) {
                return c.record_invalid_value("glShaderSource: count < 0 or a NULL string array");
            }
            let ptrs = slice(strings, i64::from(count));
            let lens = slice(lengths, i64::from(count));
            if ptrs.iter().any(|p| p.is_null()) {
                return c.record_invalid_operation("glShaderSource: a NULL string");
            }
            c.shader_source(sh, joined_source(ptrs, lens))
        })
    }
    fn glCompileShader(sh: u32) { gl((), |c| c.compile_shader(sh)) }
    // OpenGL ES 2.0's shader-compiler commands (GL_ARB_ES2_compatibility on desktop GL).
    fn glGetShaderPrecisionFormat(shader_type: GLenum, precision: GLenum, range: *mut i32, bits: *mut i32) {
        gl((), |c| {
            if let Some((r, p)) = c.shader_precision_format(shader_type, precision) {
                // SAFETY: `range` holds two integers and `bits` one (GL's contract); NULL is skipped.
                unsafe { write_values(range, &r); write_values(bits, &[p]) };
            }
        })
    }
    fn glReleaseShaderCompiler() { gl((), |_| ()) }
    fn glShaderBinary(count: i32, shaders: *const u32, format: GLenum, binary: *const c_void, length: i32) {
        gl((), |c| {
            if count < 0 || length < 0 {
                return c.record_invalid_value("glShaderBinary count or length is negative");
            }
            c.shader_binary(slice(shaders, count.into()), format, slice(binary.cast::<u8>(), length.into()))
        })
    }
    // GL_ARB_gl_spirv (GL 4.6); `glSpecializeShaderARB` resolves here.
    fn glSpecializeShader(sh: u32, entry: *const c_char, count: u32, indices: *const u32, values: *const u32) {
        gl((), |c| {
            let (indices, values) = (slice(indices, count.into()), slice(values, count.into()));
            let constants: Vec<(u32, u32)> = indices.iter().copied().zip(values.iter().copied()).collect();
            c.specialize_shader(sh, &string(entry), &constants)
        })
    }
    fn glDeleteShader(sh: u32) { gl((), |c| c.delete_shader(sh)) }
    fn glIsShader(sh: u32) -> GLboolean { gl(0, |c| u8::from(c.is_shader(sh))) }
    fn glGetShaderiv(sh: u32, p: GLenum, out: *mut i32) { gl((), |c| answer(c, |c| c.get_shader(sh, p), |v| write_values(out, &[v]))) }
    fn glGetShaderInfoLog(sh: u32, size: i32, len: *mut i32, buf: *mut c_char) { gl((), |c| { if !buf_size_ok(c, "glGetShaderInfoLog", size) { return } answer(c, |c| c.shader_info_log(sh), |s| write_string(&s, size, len, buf)) }) }
    fn glGetShaderSource(sh: u32, size: i32, len: *mut i32, buf: *mut c_char) { gl((), |c| { if !buf_size_ok(c, "glGetShaderSource", size) { return } answer(c, |c| c.shader_source_text(sh), |s| write_string(&s, size, len, buf)) }) }
    fn glCreateProgram() -> u32 { gl(0, |c| c.create_program()) }
    fn glDeleteProgram(p: u32) { gl((), |c| c.delete_program(p)) }
    fn glIsProgram(p: u32) -> GLboolean { gl(0, |c| u8::from(c.is_program(p))) }
    fn glAttachShader(p: u32, sh: u32) { gl((), |c| c.attach_shader(p, sh)) }
    fn glDetachShader(p: u32, sh: u32) { gl((), |c| c.detach_shader(p, sh)) }
    fn glGetAttachedShaders(p: u32, max: i32, count: *mut i32, out: *mut u32) {
        gl((), |c| {
            if !buf_size_ok(c, "glGetAttachedShaders", max) {
                return;
            }
            let list = c.attached_shaders(p);
            let n = list.len().min(max.max(0) as usize);
            write_values(out, &list[..n]);
            write_values(count, &[n as i32]);
        })
    }
    fn glBindAttribLocation(p: u32, i: u32, name: *const c_char) { gl((), |c| c.bind_attrib_location(p, i, &string(name))) }
    fn glBindFragDataLocation(p: u32, color: u32, name: *const c_char) { gl((), |c| c.bind_frag_data_location(p, color, &string(name))) }
    fn glBindFragDataLocationIndexed(p: u32, color: u32, index: u32, name: *const c_char) { gl((), |c| c.bind_frag_data_location_indexed(p, color, index, &string(name))) }
    fn glLinkProgram(p: u32) { gl((), |c| c.link_program(p)) }
    fn glUseProgram(p: u32) { gl((), |c| c.use_program(p)) }
    // GL_ARB_separate_shader_objects: program pipelines.
    fn glProgramParameteri(p: u32, pname: GLenum, v: i32) { gl((), |c| c.program_parameter(p, pname, v)) }
    fn glCreateShaderProgramv(ty: GLenum, count: i32, strings: *const *const c_char) -> u32 {
        gl(0, |c| {
            if count < 0 || (strings.is_null() && count > 0) {
                c.record_invalid_value("glCreateShaderProgramv: count < 0 or a NULL string array");
                return 0;
            }
            let ptrs = slice(strings, i64::from(count));
            if ptrs.iter().any(|p| p.is_null()) {
                c.record_invalid_value("glCreateShaderProgramv: a NULL string");
                return 0;
            }
            c.create_shader_program(ty, &[joined_source(ptrs, &[])])
        })
    }
    fn glGenProgramPipelines(n: i32, out: *mut u32) { gen(n, out, |c, n| c.gen_program_pipelines(n)) }
    fn glCreateProgramPipelines(n: i32, out: *mut u32) { gen(n, out, |c, n| c.create_program_pipelines(n)) }
    fn glDeleteProgramPipelines(n: i32, ns: *const u32) { delete("glDeleteProgramPipelines", n, ns, |c, ns| c.delete_program_pipelines(ns)) }
    fn glIsProgramPipeline(n: u32) -> GLboolean { gl(0, |c| u8::from(c.is_program_pipeline(n))) }
    fn glBindProgramPipeline(n: u32) { gl((), |c| c.bind_program_pipeline(n)) }
    fn glUseProgramStages(pipe: u32, stages: u32, p: u32) { gl((), |c| c.use_program_stages(pipe, stages, p)) }
    fn glActiveShaderProgram(pipe: u32, p: u32) { gl((), |c| c.active_shader_program(pipe, p)) }
    fn glValidateProgramPipeline(pipe: u32) { gl((), |c| c.validate_program_pipeline(pipe)) }
    fn glGetProgramPipelineiv(pipe: u32, pname: GLenum, out: *mut i32) { gl((), |c| answer(c, |c| c.get_program_pipeline(pipe, pname), |v| write_values(out, &[v]))) }
    // GL_ARB_program_interface_query.
    fn glGetProgramInterfaceiv(p: u32, iface: GLenum, pname: GLenum, out: *mut i32) { gl((), |c| answer(c, |c| c.get_program_interface(p, iface, pname), |v| write_values(out, &[v]))) }
    fn glGetProgramResourceIndex(p: u32, iface: GLenum, name: *const c_char) -> u32 { gl(GL_INVALID_INDEX, |c| c.get_program_resource_index(p, iface, &string(name))) }
    fn glGetProgramResourceName(p: u32, iface: GLenum, i: u32, size: i32, len: *mut i32, buf: *mut c_char) {
        gl((), |c| {
            if !buf_size_ok(c, "glGetProgramResourceName", size) {
                return;
            }
            if let Some(n) = c.get_program_resource_name(p, iface, i) { write_string(&n, size, len, buf) }
        })
    }
    fn glGetProgramResourceiv(p: u32, iface: GLenum, i: u32, n: i32, props: *const GLenum, size: i32, len: *mut i32, out: *mut i32) {
        gl((), |c| {
            if n <= 0 || size < 0 {
                return c.record_invalid_value("glGetProgramResourceiv: propCount <= 0 or bufSize < 0");
            }
            let props = slice(props, i64::from(n));
            if props.len() < n as usize {
                return c.record_invalid_value("glGetProgramResourceiv: NULL props");
            }
            if let Some(values) = c.get_program_resource_iv(p, iface, i, props) {
                let k = values.len().min(size as usize);
                write_values(out, &values[..k]);
                write_values(len, &[k as i32]);
            }
        })
    }
    fn glGetProgramResourceLocation(p: u32, iface: GLenum, name: *const c_char) -> i32 { gl(-1, |c| c.get_program_resource_location(p, iface, &string(name))) }
    fn glGetProgramResourceLocationIndex(p: u32, iface: GLenum, name: *const c_char) -> i32 { gl(-1, |c| c.get_program_resource_location_index(p, iface, &string(name))) }
    fn glGetProgramPipelineInfoLog(pipe: u32, size: i32, len: *mut i32, buf: *mut c_char) { gl((), |c| { if !buf_size_ok(c, "glGetProgramPipelineInfoLog", size) { return } answer(c, |c| c.program_pipeline_info_log(pipe), |s| write_string(&s, size, len, buf)) }) }
    // GL_ARB_shader_objects: handles are shader and program names (one name space).
    fn glCreateShaderObjectARB(ty: GLenum) -> u32 { glCreateShader(ty) }
    fn glCreateProgramObjectARB() -> u32 { glCreateProgram() }
    fn glAttachObjectARB(p: u32, sh: u32) { glAttachShader(p, sh) }
    fn glDetachObjectARB(p: u32, sh: u32) { glDetachShader(p, sh) }
    fn glUseProgramObjectARB(p: u32) { glUseProgram(p) }
    fn glDeleteObjectARB(o: u32) { gl((), |c| c.delete_object(o)) }
    fn glGetHandleARB(pname: GLenum) -> u32 { gl(0, |c| c.handle(pname)) }
    fn glGetObjectParameterivARB(o: u32, pname: GLenum, out: *mut i32) { gl((), |c| { if let Some(v) = c.object_parameter(o, pname) { write_values(out, &[v]) } }) }
    fn glGetObjectParameterfvARB(o: u32, pname: GLenum, out: *mut f32) { gl((), |c| { if let Some(v) = c.object_parameter(o, pname) { write_values(out, &[v as f32]) } }) }
    fn glGetInfoLogARB(o: u32, size: i32, len: *mut i32, buf: *mut c_char) { gl((), |c| { if !buf_size_ok(c, "glGetInfoLogARB", size) { return } answer(c, |c| c.object_info_log(o), |s| write_string(&s, size, len, buf)) }) }
    fn glGetAttachedObjectsARB(p: u32, max: i32, count: *mut i32, out: *mut u32) { glGetAttachedShaders(p, max, count, out) }
    fn glValidateProgram(p: u32) { gl((), |c| c.validate_program(p)) }
    fn glGetProgramiv(p: u32, pname: GLenum, out: *mut i32) {
        if pname == GL_COMPUTE_WORK_GROUP_SIZE {
            return gl((), |c| if let Some(v) = c.compute_work_group_size(p) { write_values(out, &v) });
        }
        gl((), |c| answer(c, |c| c.get_program(p, pname), |v| write_values(out, &[v])))
    }
    fn glGetProgramInfoLog(p: u32, size: i32, len: *mut i32, buf: *mut c_char) { gl((), |c| { if !buf_size_ok(c, "glGetProgramInfoLog", size) { return } answer(c, |c| c.program_info_log(p), |s| write_string(&s, size, len, buf)) }) }
    // GL_ARB_get_program_binary (GL 4.1), GL_OES_get_program_binary (ES 3.0).
    fn glGetProgramBinary(p: u32, size: i32, len: *mut i32, format: *mut GLenum, binary: *mut c_void) {
        gl((), |c| {
            if let Some((bytes, f)) = c.get_program_binary(p, size) {
                // SAFETY: `binary` holds `size` bytes, which the binary fits (checked), `len`
                // and `format` one value each (GL's contract); NULL is skipped.
                unsafe { write_values(binary.cast::<u8>(), &bytes); write_values(len, &[bytes.len() as i32]); write_values(format, &[f]) };
            }
        })
    }
    fn glProgramBinary(p: u32, format: GLenum, binary: *const c_void, length: i32) {
        gl((), |c| c.program_binary(p, format, slice(binary.cast::<u8>(), i64::from(length)), length))
    }
    fn glGetUniformLocation(p: u32, name: *const c_char) -> i32 { gl(-1, |c| c.get_uniform_location(p, &string(name))) }
    fn glGetAttribLocation(p: u32, name: *const c_char) -> i32 { gl(-1, |c| c.get_attrib_location(p, &string(name))) }
    fn glGetFragDataLocation(p: u32, name: *const c_char) -> i32 { gl(-1, |c| c.get_frag_data_location(p, &string(name))) }
    fn glGetFragDataIndex(p: u32, name: *const c_char) -> i32 { gl(-1, |c| c.get_frag_data_index(p, &string(name))) }
    fn glGetActiveUniform(p: u32, i: u32, size: i32, len: *mut i32, sz: *mut i32, ty: *mut GLenum, buf: *mut c_char) {
        gl((), |c| {
            if !buf_size_ok(c, "glGetActiveUniform", size) {
                return;
            }
            if let Some((n, s, t)) = c.get_active_uniform(p, i) { write_string(&n, size, len, buf); write_values(sz, &[s]); write_values(ty, &[t]); }
        })
    }
    fn glGetActiveAttrib(p: u32, i: u32, size: i32, len: *mut i32, sz: *mut i32, ty: *mut GLenum, buf: *mut c_char) {
        gl((), |c| {
            if !buf_size_ok(c, "glGetActiveAttrib", size) {
                return;
            }
            if let Some((n, s, t)) = c.get_active_attrib(p, i) { write_string(&n, size, len, buf); write_values(sz, &[s]); write_values(ty, &[t]); }
        })
    }
    fn glGetUniformBlockIndex(p: u32, name: *const c_char) -> u32 { gl(GL_INVALID_INDEX, |c| c.get_uniform_block_index(p, &string(name))) }
    fn glUniformBlockBinding(p: u32, i: u32, binding: u32) { gl((), |c| c.uniform_block_binding(p, i, binding)) }
    fn glGetActiveUniformBlockiv(p: u32, i: u32, pname: GLenum, out: *mut i32) {
        gl((), |c| {
            if pname == GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES {
                let v = c.active_uniform_block_indices(p, i);
                write_values(out, &v);
            } else {
                let v = c.get_active_uniform_block(p, i, pname);
                write_values(out, &[v]);
            }
        })
    }
    fn glGetActiveUniformBlockName(p: u32, i: u32, size: i32, len: *mut i32, buf: *mut c_char) {
        gl((), |c| {
            if !buf_size_ok(c, "glGetActiveUniformBlockName", size) {
                return;
            }
            // On an error nothing is written (the entry point records it).
            if let Some(s) = c.active_uniform_block_name(p, i) {
                write_string(&s, size, len, buf)
            }
        })
    }
    fn glGetActiveUniformsiv(p: u32, count: i32, indices: *const u32, pname: GLenum, out: *mut i32) {
        gl((), |c| {
            if count < 0 {
                return c.record_invalid_value("glGetActiveUniformsiv: uniformCount < 0");
            }
            if let Some(v) = c.active_uniforms_iv(p, slice(indices, i64::from(count)), pname) {
                write_values(out, &v)
            }
        })
    }
    fn glGetActiveUniformName(p: u32, i: u32, size: i32, len: *mut i32, buf: *mut c_char) {
        gl((), |c| {
            if !buf_size_ok(c, "glGetActiveUniformName", size) {
                return;
            }
            if let Some((n, _, _)) = c.get_active_uniform(p, i) {
                write_string(&n, size, len, buf)
            }
        })
    }
    fn glGetUniformIndices(p: u32, count: i32, names_in: *const *const c_char, out: *mut u32) {
        gl((), |c| {
            if count < 0 {
                return c.record_invalid_value("glGetUniformIndices: uniformCount < 0");
            }
            let list: Vec<String> = slice(names_in, i64::from(count)).iter().map(|&n| string(n)).collect();
            let v = c.uniform_indices(p, &list);
            write_values(out, &v);
        })
    }
    fn glGetUniformfv(p: u32, loc: i32, out: *mut f32) { gl((), |c| write_values(out, &c.get_uniform(p, loc).floats())) }
    fn glGetUniformiv(p: u32, loc: i32, out: *mut i32) { gl((), |c| write_values(out, &c.get_uniform(p, loc).ints())) }
    fn glGetUniformuiv(p: u32, loc: i32, out: *mut u32) { gl((), |c| write_values(out, &c.get_uniform(p, loc).uints())) }
    // GL_ARB_shader_subroutine (GL 4.0).
    fn glGetSubroutineIndex(p: u32, ty: GLenum, name: *const c_char) -> u32 { gl(GL_INVALID_INDEX, |c| c.get_subroutine_index(p, ty, &string(name))) }
    fn glGetSubroutineUniformLocation(p: u32, ty: GLenum, name: *const c_char) -> i32 { gl(-1, |c| c.get_subroutine_uniform_location(p, ty, &string(name))) }
    fn glGetActiveSubroutineName(p: u32, ty: GLenum, i: u32, size: i32, len: *mut i32, buf: *mut c_char) {
        gl((), |c| {
            if buf_size_ok(c, "glGetActiveSubroutineName", size) {
                if let Some(n) = c.active_subroutine_name(p, ty, i) {
                    write_string(&n, size, len, buf)
                }
            }
        })
    }
    fn glGetActiveSubroutineUniformName(p: u32, ty: GLenum, i: u32, size: i32, len: *mut i32, buf: *mut c_char) {
        gl((), |c| {
            if buf_size_ok(c, "glGetActiveSubroutineUniformName", size) {
                if let Some(n) = c.active_subroutine_uniform_name(p, ty, i) {
                    write_string(&n, size, len, buf)
                }
            }
        })
    }
    fn glGetActiveSubroutineUniformiv(p: u32, ty: GLenum, i: u32, pname: GLenum, out: *mut i32) {
        gl((), |c| {
            if let Some(v) = c.active_subroutine_uniform_iv(p, ty, i, pname) {
                write_values(out, &v)
            }
        })
    }
    fn glGetProgramStageiv(p: u32, ty: GLenum, pname: GLenum, out: *mut i32) {
        gl((), |c| {
            if let Some(v) = c.get_program_stage(p, ty, pname) {
                write_values(out, &[v])
            }
        })
    }
    fn glUniformSubroutinesuiv(ty: GLenum, count: i32, indices: *const u32) {
        gl((), |c| {
            if count < 0 {
                return c.record_invalid_value("glUniformSubroutinesuiv: count < 0");
            }
            c.uniform_subroutines(ty, slice(indices, i64::from(count)))
        })
    }
    fn glGetUniformSubroutineuiv(ty: GLenum, loc: i32, out: *mut u32) {
        gl((), |c| {
            if let Some(v) = c.get_uniform_subroutine(ty, loc) {
                write_values(out, &[v])
            }
        })
    }

    fn glUniform1f(l: i32, x: f32) { gl((), |c| c.uniform(l, ValueKind::Float, 1, 1, &[x.to_bits()])) }
    fn glUniform2f(l: i32, x: f32, y: f32) { gl((), |c| c.uniform(l, ValueKind::Float, 2, 1, &[x.to_bits(), y.to_bits()])) }
    fn glUniform3f(l: i32, x: f32, y: f32, z: f32) { gl((), |c| c.uniform(l, ValueKind::Float, 3, 1, &[x.to_bits(), y.to_bits(), z.to_bits()])) }
    fn glUniform4f(l: i32, x: f32, y: f32, z: f32, w: f32) { gl((), |c| c.uniform(l, ValueKind::Float, 4, 1, &[x.to_bits(), y.to_bits(), z.to_bits(), w.to_bits()])) }
    fn glUniform1i(l: i32, x: i32) { gl((), |c| c.uniform(l, ValueKind::Int, 1, 1, &[x as u32])) }
    fn glUniform2i(l: i32, x: i32, y: i32) { gl((), |c| c.uniform(l, ValueKind::Int, 2, 1, &[x as u32, y as u32])) }
    fn glUniform3i(l: i32, x: i32, y: i32, z: i32) { gl((), |c| c.uniform(l, ValueKind::Int, 3, 1, &[x as u32, y as u32, z as u32])) }
    fn glUniform4i(l: i32, x: i32, y: i32, z: i32, w: i32) { gl((), |c| c.uniform(l, ValueKind::Int, 4, 1, &[x as u32, y as u32, z as u32, w as u32])) }
    fn glUniform1ui(l: i32, x: u32) { gl((), |c| c.uniform(l, ValueKind::UInt, 1, 1, &[x])) }
    fn glUniform2ui(l: i32, x: u32, y: u32) { gl((), |c| c.uniform(l, ValueKind::UInt, 2, 1, &[x, y])) }
    fn glUniform3ui(l: i32, x: u32, y: u32, z: u32) { gl((), |c| c.uniform(l, ValueKind::UInt, 3, 1, &[x, y, z])) }
    fn glUniform4ui(l: i32, x: u32, y: u32, z: u32, w: u32) { gl((), |c| c.uniform(l, ValueKind::UInt, 4, 1, &[x, y, z, w])) }
    fn glUniform1fv(l: i32, n: i32, v: *const f32) { uniform_v(l, ValueKind::Float, 1, n, v.cast()) }
    fn glUniform2fv(l: i32, n: i32, v: *const f32) { uniform_v(l, ValueKind::Float, 2, n, v.cast()) }
    fn glUniform3fv(l: i32, n: i32, v: *const f32) { uniform_v(l, ValueKind::Float, 3, n, v.cast()) }
    fn glUniform4fv(l: i32, n: i32, v: *const f32) { uniform_v(l, ValueKind::Float, 4, n, v.cast()) }
    fn glUniform1iv(l: i32, n: i32, v: *const i32) { uniform_v(l, ValueKind::Int, 1, n, v.cast()) }
    fn glUniform2iv(l: i32, n: i32, v: *const i32) { uniform_v(l, ValueKind::Int, 2, n, v.cast()) }
    fn glUniform3iv(l: i32, n: i32, v: *const i32) { uniform_v(l, ValueKind::Int, 3, n, v.cast()) }
    fn glUniform4iv(l: i32, n: i32, v: *const i32) { uniform_v(l, ValueKind::Int, 4, n, v.cast()) }
    fn glUniform1uiv(l: i32, n: i32, v: *const u32) { uniform_v(l, ValueKind::UInt, 1, n, v) }
    fn glUniform2uiv(l: i32, n: i32, v: *const u32) { uniform_v(l, ValueKind::UInt, 2, n, v) }
    fn glUniform3uiv(l: i32, n: i32, v: *const u32) { uniform_v(l, ValueKind::UInt, 3, n, v) }
    fn glUniform4uiv(l: i32, n: i32, v: *const u32) { uniform_v(l, ValueKind::UInt, 4, n, v) }
    fn glUniformMatrix2fv(l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m(l, 2, 2, n, t, v) }
    fn glUniformMatrix3fv(l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m(l, 3, 3, n, t, v) }
    fn glUniformMatrix4fv(l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m(l, 4, 4, n, t, v) }
    fn glUniformMatrix2x3fv(l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m(l, 2, 3, n, t, v) }
    fn glUniformMatrix3x2fv(l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m(l, 3, 2, n, t, v) }
    fn glUniformMatrix2x4fv(l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m(l, 2, 4, n, t, v) }
    fn glUniformMatrix4x2fv(l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m(l, 4, 2, n, t, v) }
    fn glUniformMatrix3x4fv(l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m(l, 3, 4, n, t, v) }
    fn glUniformMatrix4x3fv(l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m(l, 4, 3, n, t, v) }
    // GL_ARB_gpu_shader_fp64: double uniforms.
    fn glUniform1d(l: i32, x: f64) { uniform_64(l, ValueKind::Double, &[x.to_bits()]) }
    fn glUniform2d(l: i32, x: f64, y: f64) { uniform_64(l, ValueKind::Double, &[x.to_bits(), y.to_bits()]) }
    fn glUniform3d(l: i32, x: f64, y: f64, z: f64) { uniform_64(l, ValueKind::Double, &[x.to_bits(), y.to_bits(), z.to_bits()]) }
    fn glUniform4d(l: i32, x: f64, y: f64, z: f64, w: f64) { uniform_64(l, ValueKind::Double, &[x.to_bits(), y.to_bits(), z.to_bits(), w.to_bits()]) }
    fn glUniform1dv(l: i32, n: i32, v: *const f64) { uniform_v(l, ValueKind::Double, 1, n, v.cast()) }
    fn glUniform2dv(l: i32, n: i32, v: *const f64) { uniform_v(l, ValueKind::Double, 2, n, v.cast()) }
    fn glUniform3dv(l: i32, n: i32, v: *const f64) { uniform_v(l, ValueKind::Double, 3, n, v.cast()) }
    fn glUniform4dv(l: i32, n: i32, v: *const f64) { uniform_v(l, ValueKind::Double, 4, n, v.cast()) }
    fn glUniformMatrix2dv(l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m(l, 2, 2, n, t, v) }
    fn glUniformMatrix3dv(l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m(l, 3, 3, n, t, v) }
    fn glUniformMatrix4dv(l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m(l, 4, 4, n, t, v) }
    fn glUniformMatrix2x3dv(l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m(l, 2, 3, n, t, v) }
    fn glUniformMatrix3x2dv(l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m(l, 3, 2, n, t, v) }
    fn glUniformMatrix2x4dv(l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m(l, 2, 4, n, t, v) }
    fn glUniformMatrix4x2dv(l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m(l, 4, 2, n, t, v) }
    fn glUniformMatrix3x4dv(l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m(l, 3, 4, n, t, v) }
    fn glUniformMatrix4x3dv(l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m(l, 4, 3, n, t, v) }
    fn glGetUniformdv(p: u32, loc: i32, out: *mut f64) { gl((), |c| write_values(out, &c.get_uniform(p, loc).doubles())) }
    // GL_ARB_gpu_shader_int64: 64-bit integer uniforms.
    fn glUniform1i64ARB(l: i32, x: i64) { uniform_64(l, ValueKind::Int64, &[x as u64]) }
    fn glUniform2i64ARB(l: i32, x: i64, y: i64) { uniform_64(l, ValueKind::Int64, &[x as u64, y as u64]) }
    fn glUniform3i64ARB(l: i32, x: i64, y: i64, z: i64) { uniform_64(l, ValueKind::Int64, &[x as u64, y as u64, z as u64]) }
    fn glUniform4i64ARB(l: i32, x: i64, y: i64, z: i64, w: i64) { uniform_64(l, ValueKind::Int64, &[x as u64, y as u64, z as u64, w as u64]) }
    fn glUniform1i64vARB(l: i32, n: i32, v: *const i64) { uniform_v(l, ValueKind::Int64, 1, n, v.cast()) }
    fn glUniform2i64vARB(l: i32, n: i32, v: *const i64) { uniform_v(l, ValueKind::Int64, 2, n, v.cast()) }
    fn glUniform3i64vARB(l: i32, n: i32, v: *const i64) { uniform_v(l, ValueKind::Int64, 3, n, v.cast()) }
    fn glUniform4i64vARB(l: i32, n: i32, v: *const i64) { uniform_v(l, ValueKind::Int64, 4, n, v.cast()) }
    fn glUniform1ui64ARB(l: i32, x: u64) { uniform_64(l, ValueKind::UInt64, &[x]) }
    fn glUniform2ui64ARB(l: i32, x: u64, y: u64) { uniform_64(l, ValueKind::UInt64, &[x, y]) }
    fn glUniform3ui64ARB(l: i32, x: u64, y: u64, z: u64) { uniform_64(l, ValueKind::UInt64, &[x, y, z]) }
    fn glUniform4ui64ARB(l: i32, x: u64, y: u64, z: u64, w: u64) { uniform_64(l, ValueKind::UInt64, &[x, y, z, w]) }
    fn glUniform1ui64vARB(l: i32, n: i32, v: *const u64) { uniform_v(l, ValueKind::UInt64, 1, n, v.cast()) }
    fn glUniform2ui64vARB(l: i32, n: i32, v: *const u64) { uniform_v(l, ValueKind::UInt64, 2, n, v.cast()) }
    fn glUniform3ui64vARB(l: i32, n: i32, v: *const u64) { uniform_v(l, ValueKind::UInt64, 3, n, v.cast()) }
    fn glUniform4ui64vARB(l: i32, n: i32, v: *const u64) { uniform_v(l, ValueKind::UInt64, 4, n, v.cast()) }
    fn glGetUniformi64vARB(p: u32, loc: i32, out: *mut i64) { gl((), |c| write_values(out, &c.get_uniform(p, loc).int64s())) }
    fn glGetUniformui64vARB(p: u32, loc: i32, out: *mut u64) { gl((), |c| write_values(out, &c.get_uniform(p, loc).uint64s())) }
    // GL_ARB_separate_shader_objects: glUniform* on a named program.
    fn glProgramUniform1f(p: u32, l: i32, x: f32) { gl((), |c| c.program_uniform(p, l, ValueKind::Float, 1, 1, &[x.to_bits()])) }
    fn glProgramUniform2f(p: u32, l: i32, x: f32, y: f32) { gl((), |c| c.program_uniform(p, l, ValueKind::Float, 2, 1, &[x.to_bits(), y.to_bits()])) }
    fn glProgramUniform3f(p: u32, l: i32, x: f32, y: f32, z: f32) { gl((), |c| c.program_uniform(p, l, ValueKind::Float, 3, 1, &[x.to_bits(), y.to_bits(), z.to_bits()])) }
    fn glProgramUniform4f(p: u32, l: i32, x: f32, y: f32, z: f32, w: f32) { gl((), |c| c.program_uniform(p, l, ValueKind::Float, 4, 1, &[x.to_bits(), y.to_bits(), z.to_bits(), w.to_bits()])) }
    fn glProgramUniform1i(p: u32, l: i32, x: i32) { gl((), |c| c.program_uniform(p, l, ValueKind::Int, 1, 1, &[x as u32])) }
    fn glProgramUniform2i(p: u32, l: i32, x: i32, y: i32) { gl((), |c| c.program_uniform(p, l, ValueKind::Int, 2, 1, &[x as u32, y as u32])) }
    fn glProgramUniform3i(p: u32, l: i32, x: i32, y: i32, z: i32) { gl((), |c| c.program_uniform(p, l, ValueKind::Int, 3, 1, &[x as u32, y as u32, z as u32])) }
    fn glProgramUniform4i(p: u32, l: i32, x: i32, y: i32, z: i32, w: i32) { gl((), |c| c.program_uniform(p, l, ValueKind::Int, 4, 1, &[x as u32, y as u32, z as u32, w as u32])) }
    fn glProgramUniform1ui(p: u32, l: i32, x: u32) { gl((), |c| c.program_uniform(p, l, ValueKind::UInt, 1, 1, &[x])) }
    fn glProgramUniform2ui(p: u32, l: i32, x: u32, y: u32) { gl((), |c| c.program_uniform(p, l, ValueKind::UInt, 2, 1, &[x, y])) }
    fn glProgramUniform3ui(p: u32, l: i32, x: u32, y: u32, z: u32) { gl((), |c| c.program_uniform(p, l, ValueKind::UInt, 3, 1, &[x, y, z])) }
    fn glProgramUniform4ui(p: u32, l: i32, x: u32, y: u32, z: u32, w: u32) { gl((), |c| c.program_uniform(p, l, ValueKind::UInt, 4, 1, &[x, y, z, w])) }
    fn glProgramUniform1fv(p: u32, l: i32, n: i32, v: *const f32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Float, 1, n, v.cast()) }
    fn glProgramUniform2fv(p: u32, l: i32, n: i32, v: *const f32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Float, 2, n, v.cast()) }
    fn glProgramUniform3fv(p: u32, l: i32, n: i32, v: *const f32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Float, 3, n, v.cast()) }
    fn glProgramUniform4fv(p: u32, l: i32, n: i32, v: *const f32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Float, 4, n, v.cast()) }
    fn glProgramUniform1iv(p: u32, l: i32, n: i32, v: *const i32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Int, 1, n, v.cast()) }
    fn glProgramUniform2iv(p: u32, l: i32, n: i32, v: *const i32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Int, 2, n, v.cast()) }
    fn glProgramUniform3iv(p: u32, l: i32, n: i32, v: *const i32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Int, 3, n, v.cast()) }
    fn glProgramUniform4iv(p: u32, l: i32, n: i32, v: *const i32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Int, 4, n, v.cast()) }
    fn glProgramUniform1uiv(p: u32, l: i32, n: i32, v: *const u32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::UInt, 1, n, v) }
    fn glProgramUniform2uiv(p: u32, l: i32, n: i32, v: *const u32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::UInt, 2, n, v) }
    fn glProgramUniform3uiv(p: u32, l: i32, n: i32, v: *const u32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::UInt, 3, n, v) }
    fn glProgramUniform4uiv(p: u32, l: i32, n: i32, v: *const u32) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::UInt, 4, n, v) }
    fn glProgramUniformMatrix2fv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m_in(UniformTarget::Program(p), l, 2, 2, n, t, v) }
    fn glProgramUniformMatrix3fv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m_in(UniformTarget::Program(p), l, 3, 3, n, t, v) }
    fn glProgramUniformMatrix4fv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m_in(UniformTarget::Program(p), l, 4, 4, n, t, v) }
    fn glProgramUniformMatrix2x3fv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m_in(UniformTarget::Program(p), l, 2, 3, n, t, v) }
    fn glProgramUniformMatrix3x2fv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m_in(UniformTarget::Program(p), l, 3, 2, n, t, v) }
    fn glProgramUniformMatrix2x4fv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m_in(UniformTarget::Program(p), l, 2, 4, n, t, v) }
    fn glProgramUniformMatrix4x2fv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m_in(UniformTarget::Program(p), l, 4, 2, n, t, v) }
    fn glProgramUniformMatrix3x4fv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m_in(UniformTarget::Program(p), l, 3, 4, n, t, v) }
    fn glProgramUniformMatrix4x3fv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f32) { uniform_m_in(UniformTarget::Program(p), l, 4, 3, n, t, v) }
    fn glProgramUniform1d(p: u32, l: i32, x: f64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::Double, &[x.to_bits()]) }
    fn glProgramUniform2d(p: u32, l: i32, x: f64, y: f64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::Double, &[x.to_bits(), y.to_bits()]) }
    fn glProgramUniform3d(p: u32, l: i32, x: f64, y: f64, z: f64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::Double, &[x.to_bits(), y.to_bits(), z.to_bits()]) }
    fn glProgramUniform4d(p: u32, l: i32, x: f64, y: f64, z: f64, w: f64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::Double, &[x.to_bits(), y.to_bits(), z.to_bits(), w.to_bits()]) }
    fn glProgramUniform1dv(p: u32, l: i32, n: i32, v: *const f64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Double, 1, n, v.cast()) }
    fn glProgramUniform2dv(p: u32, l: i32, n: i32, v: *const f64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Double, 2, n, v.cast()) }
    fn glProgramUniform3dv(p: u32, l: i32, n: i32, v: *const f64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Double, 3, n, v.cast()) }
    fn glProgramUniform4dv(p: u32, l: i32, n: i32, v: *const f64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Double, 4, n, v.cast()) }
    fn glProgramUniformMatrix2dv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m_in(UniformTarget::Program(p), l, 2, 2, n, t, v) }
    fn glProgramUniformMatrix3dv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m_in(UniformTarget::Program(p), l, 3, 3, n, t, v) }
    fn glProgramUniformMatrix4dv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m_in(UniformTarget::Program(p), l, 4, 4, n, t, v) }
    fn glProgramUniformMatrix2x3dv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m_in(UniformTarget::Program(p), l, 2, 3, n, t, v) }
    fn glProgramUniformMatrix3x2dv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m_in(UniformTarget::Program(p), l, 3, 2, n, t, v) }
    fn glProgramUniformMatrix2x4dv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m_in(UniformTarget::Program(p), l, 2, 4, n, t, v) }
    fn glProgramUniformMatrix4x2dv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m_in(UniformTarget::Program(p), l, 4, 2, n, t, v) }
    fn glProgramUniformMatrix3x4dv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m_in(UniformTarget::Program(p), l, 3, 4, n, t, v) }
    fn glProgramUniformMatrix4x3dv(p: u32, l: i32, n: i32, t: GLboolean, v: *const f64) { uniform_m_in(UniformTarget::Program(p), l, 4, 3, n, t, v) }
    fn glProgramUniform1i64ARB(p: u32, l: i32, x: i64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::Int64, &[x as u64]) }
    fn glProgramUniform2i64ARB(p: u32, l: i32, x: i64, y: i64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::Int64, &[x as u64, y as u64]) }
    fn glProgramUniform3i64ARB(p: u32, l: i32, x: i64, y: i64, z: i64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::Int64, &[x as u64, y as u64, z as u64]) }
    fn glProgramUniform4i64ARB(p: u32, l: i32, x: i64, y: i64, z: i64, w: i64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::Int64, &[x as u64, y as u64, z as u64, w as u64]) }
    fn glProgramUniform1i64vARB(p: u32, l: i32, n: i32, v: *const i64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Int64, 1, n, v.cast()) }
    fn glProgramUniform2i64vARB(p: u32, l: i32, n: i32, v: *const i64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Int64, 2, n, v.cast()) }
    fn glProgramUniform3i64vARB(p: u32, l: i32, n: i32, v: *const i64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Int64, 3, n, v.cast()) }
    fn glProgramUniform4i64vARB(p: u32, l: i32, n: i32, v: *const i64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::Int64, 4, n, v.cast()) }
    fn glProgramUniform1ui64ARB(p: u32, l: i32, x: u64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::UInt64, &[x]) }
    fn glProgramUniform2ui64ARB(p: u32, l: i32, x: u64, y: u64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::UInt64, &[x, y]) }
    fn glProgramUniform3ui64ARB(p: u32, l: i32, x: u64, y: u64, z: u64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::UInt64, &[x, y, z]) }
    fn glProgramUniform4ui64ARB(p: u32, l: i32, x: u64, y: u64, z: u64, w: u64) { uniform_64_in(UniformTarget::Program(p), l, ValueKind::UInt64, &[x, y, z, w]) }
    fn glProgramUniform1ui64vARB(p: u32, l: i32, n: i32, v: *const u64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::UInt64, 1, n, v.cast()) }
    fn glProgramUniform2ui64vARB(p: u32, l: i32, n: i32, v: *const u64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::UInt64, 2, n, v.cast()) }
    fn glProgramUniform3ui64vARB(p: u32, l: i32, n: i32, v: *const u64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::UInt64, 3, n, v.cast()) }
    fn glProgramUniform4ui64vARB(p: u32, l: i32, n: i32, v: *const u64) { uniform_v_in(UniformTarget::Program(p), l, ValueKind::UInt64, 4, n, v.cast()) }
    // GL_ARB_vertex_attrib_64bit.
    fn glVertexAttribLPointer(i: u32, size: i32, ty: GLenum, stride: i32, ptr: *const c_void) {
        gl((), |c| c.vertex_attrib_l_pointer(i, size, ty, stride, ptr as usize))
    }
    fn glVertexAttribL1d(i: u32, x: f64) { gl((), |c| c.vertex_attrib_l(i, [x, 0.0, 0.0, 1.0])) }
    fn glVertexAttribL2d(i: u32, x: f64, y: f64) { gl((), |c| c.vertex_attrib_l(i, [x, y, 0.0, 1.0])) }
    fn glVertexAttribL3d(i: u32, x: f64, y: f64, z: f64) { gl((), |c| c.vertex_attrib_l(i, [x, y, z, 1.0])) }
    fn glVertexAttribL4d(i: u32, x: f64, y: f64, z: f64, w: f64) { gl((), |c| c.vertex_attrib_l(i, [x, y, z, w])) }
    fn glVertexAttribL1dv(i: u32, v: *const f64) { vertex_attrib_lv(i, 1, v) }
    fn glVertexAttribL2dv(i: u32, v: *const f64) { vertex_attrib_lv(i, 2, v) }
    fn glVertexAttribL3dv(i: u32, v: *const f64) { vertex_attrib_lv(i, 3, v) }
    fn glVertexAttribL4dv(i: u32, v: *const f64) { vertex_attrib_lv(i, 4, v) }
    fn glGetVertexAttribLdv(i: u32, p: GLenum, out: *mut f64) { gl((), |c| write_values(out, &c.get_vertex_attrib_l(i, p))) }

    // Textures.
    fn glGenTextures(n: i32, out: *mut u32) { gen(n, out, |c, n| c.gen_textures(n)) }
    fn glDeleteTextures(n: i32, ns: *const u32) { delete("glDeleteTextures", n, ns, |c, ns| c.delete_textures(ns)) }
    fn glIsTexture(n: u32) -> GLboolean { gl(0, |c| u8::from(c.is_texture(n))) }
    fn glActiveTexture(u: GLenum) { gl((), |c| c.active_texture(u)) }
    fn glBindTexture(t: GLenum, n: u32) { gl((), |c| c.bind_texture(t, n)) }
    fn glTexImage2D(t: GLenum, level: i32, internal: i32, w: i32, h: i32, border: i32, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| {
            let bytes = c.client_image_bytes(w, h, format, ty, false);
            let Some(px) = unpack(c, "glTexImage2D", data, bytes, ty) else { return };
            c.tex_image_2d(t, level, internal, w, h, border, format, ty, px.data())
        })
    }
    fn glTexSubImage2D(t: GLenum, level: i32, x: i32, y: i32, w: i32, h: i32, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| {
            if sub_image_on_device(c, 2, t, level, ([x, y, 0], [w, h, 1]), (format, ty), data) {
                return;
            }
            let bytes = c.client_image_bytes(w, h, format, ty, false);
            let Some(px) = unpack(c, "glTexSubImage2D", data, bytes, ty) else { return };
            if matches!(px, Unpack::Null) && w > 0 && h > 0 {
                return c.record_invalid_value("glTexSubImage2D: NULL pixels with no pixel unpack buffer bound");
            }
            c.tex_sub_image_2d(t, level, x, y, w, h, format, ty, px.bytes())
        })
    }
    fn glGenerateMipmap(t: GLenum) { gl((), |c| c.generate_mipmap(t)) }
    fn glInvalidateBufferData(b: u32) { gl((), |c| c.invalidate_buffer_data(b)) }
    fn glInvalidateBufferSubData(b: u32, offset: isize, length: isize) {
        gl((), |c| c.invalidate_buffer_sub_data(b, offset as i64, length as i64))
    }
    fn glInvalidateTexImage(t: u32, level: i32) { gl((), |c| c.invalidate_tex_image(t, level)) }
    fn glInvalidateTexSubImage(t: u32, level: i32, x: i32, y: i32, z: i32, w: i32, h: i32, d: i32) {
        gl((), |c| c.invalidate_tex_sub_image(t, level, ([x, y, z], [w, h, d])))
    }
    fn glInvalidateFramebuffer(target: GLenum, n: i32, attachments: *const GLenum) {
        gl((), |c| c.invalidate_framebuffer(target, slice(attachments, i64::from(n)), n, None))
    }
    fn glInvalidateSubFramebuffer(target: GLenum, n: i32, attachments: *const GLenum, x: i32, y: i32, w: i32, h: i32) {
        gl((), |c| c.invalidate_framebuffer(target, slice(attachments, i64::from(n)), n, Some([x, y, w, h])))
    }
    fn glGetCompressedTexImage(t: GLenum, level: i32, pixels: *mut c_void) {
        gl((), |c| get_compressed(c, t, level, None, pixels))
    }
    fn glGetnCompressedTexImage(t: GLenum, level: i32, buf_size: i32, pixels: *mut c_void) {
        gl((), |c| get_compressed(c, t, level, Some(buf_size), pixels))
    }
    fn glGetTexImage(t: GLenum, level: i32, format: GLenum, ty: GLenum, pixels: *mut c_void) {
        gl((), |c| get_tex_image(c, (t, level), (format, ty), None, pixels))
    }
    // GL_ARB_internalformat_query(2): at most `bufSize` values are written (none where the
    // buffer is to be left alone); a 64-bit answer (GL_MAX_COMBINED_DIMENSIONS) saturates.
    fn glGetInternalformativ(t: GLenum, internal: GLenum, pname: GLenum, buf_size: i32, out: *mut i32) {
        gl((), |c| {
            let v: Vec<i32> = c.get_internalformat(t, internal, pname, buf_size).iter().map(|&x| x.clamp(i32::MIN.into(), i32::MAX.into()) as i32).collect();
            write_values(out, &v)
        })
    }
    fn glGetInternalformati64v(t: GLenum, internal: GLenum, pname: GLenum, buf_size: i32, out: *mut i64) {
        gl((), |c| write_values(out, &c.get_internalformat(t, internal, pname, buf_size)))
    }
    fn glGetCompressedTextureSubImage(tex: u32, level: i32, x: i32, y: i32, z: i32, w: i32, h: i32, d: i32, buf_size: i32, pixels: *mut c_void) {
        gl((), |c| {
            let area = ([x, y, z], [w, h, d]);
            if c.pixel_buffer_bound(PixelBufferTarget::Pack) {
                // With a pixel pack buffer bound the pointer is a byte offset into it.
                return c.get_compressed_texture_sub_image(tex, level, area, buf_size, PackDest::Buffer(pixels as u64));
            }
            // SAFETY: GL's contract: `pixels` holds `bufSize` writable bytes.
            let out = unsafe { slice_mut(pixels.cast::<u8>(), i64::from(buf_size)) };
            c.get_compressed_texture_sub_image(tex, level, area, buf_size, PackDest::Client(out))
        })
    }
    fn glGetTextureSubImage(tex: u32, level: i32, x: i32, y: i32, z: i32, w: i32, h: i32, d: i32, format: GLenum, ty: GLenum, buf_size: i32, pixels: *mut c_void) {
        gl((), |c| {
            let area = ([x, y, z], [w, h, d]);
            if c.pixel_buffer_bound(PixelBufferTarget::Pack) {
                // With a pixel pack buffer bound the pointer is a byte offset into it.
                return c.get_texture_sub_image(tex, level, area, (format, ty), PackDest::Buffer(pixels as u64));
            }
            // SAFETY: GL's contract: `pixels` holds `bufSize` writable bytes (a short buffer is
            // GL_INVALID_OPERATION before anything is written).
            let out = unsafe { slice_mut(pixels.cast::<u8>(), i64::from(buf_size)) };
            c.get_texture_sub_image(tex, level, area, (format, ty), PackDest::Client(out))
        })
    }
    fn glCopyTexImage1D(t: GLenum, level: i32, internal: GLenum, x: i32, y: i32, w: i32, border: i32) {
        gl((), |c| c.copy_tex_image(1, t, level, internal, (x, y), (w, 1), border))
    }
    fn glCopyTexImage2D(t: GLenum, level: i32, internal: GLenum, x: i32, y: i32, w: i32, h: i32, border: i32) {
        gl((), |c| c.copy_tex_image(2, t, level, internal, (x, y), (w, h), border))
    }
    fn glCopyTexSubImage1D(t: GLenum, level: i32, xoff: i32, x: i32, y: i32, w: i32) {
        gl((), |c| c.copy_tex_sub_image(1, t, level, [xoff, 0, 0], (x, y), (w, 1)))
    }
    fn glCopyTexSubImage2D(t: GLenum, level: i32, xoff: i32, yoff: i32, x: i32, y: i32, w: i32, h: i32) {
        gl((), |c| c.copy_tex_sub_image(2, t, level, [xoff, yoff, 0], (x, y), (w, h)))
    }
    fn glCopyTexSubImage3D(t: GLenum, level: i32, xoff: i32, yoff: i32, zoff: i32, x: i32, y: i32, w: i32, h: i32) {
        gl((), |c| c.copy_tex_sub_image(3, t, level, [xoff, yoff, zoff], (x, y), (w, h)))
    }
    fn glCopyImageSubData(src: u32, src_target: GLenum, src_level: i32, sx: i32, sy: i32, sz: i32, dst: u32, dst_target: GLenum, dst_level: i32, dx: i32, dy: i32, dz: i32, w: i32, h: i32, d: i32) {
        gl((), |c| c.copy_image_sub_data((src, src_target, src_level, [sx, sy, sz]), (dst, dst_target, dst_level, [dx, dy, dz]), [w, h, d]))
    }
    // GL_ARB_clear_texture: `data` is one texel of (format, type), or null for zeros.
    fn glClearTexImage(tex: u32, level: i32, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| c.clear_tex_image(tex, level, (format, ty), clear_texel(format, ty, data)))
    }
    fn glClearTexSubImage(tex: u32, level: i32, x: i32, y: i32, z: i32, w: i32, h: i32, d: i32, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| c.clear_tex_sub_image(tex, level, ([x, y, z], [w, h, d]), (format, ty), clear_texel(format, ty, data)))
    }
    // GL_ARB_clear_buffer_object: `data` is one element of (format, type), or null for zeros.
    fn glClearBufferData(t: GLenum, internal: GLenum, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| c.clear_buffer_data(t, internal, (format, ty), clear_texel(format, ty, data)))
    }
    fn glClearBufferSubData(t: GLenum, internal: GLenum, off: isize, size: isize, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| c.clear_buffer_sub_data(t, internal, (off as i64, size as i64), (format, ty), clear_texel(format, ty, data)))
    }
    fn glGetRenderbufferParameteriv(t: GLenum, p: GLenum, out: *mut i32) {
        gl((), |c| {
            if let Some(v) = c.get_renderbuffer_parameter(t, p) {
                write_values(out, &[v])
            }
        })
    }
    fn glGetFramebufferAttachmentParameteriv(t: GLenum, a: GLenum, p: GLenum, out: *mut i32) {
        gl((), |c| {
            if let Some(v) = c.get_framebuffer_attachment_parameter(t, a, p) {
                write_values(out, &[v])
            }
        })
    }
    fn glGenSamplers(n: i32, out: *mut u32) { gen(n, out, |c, n| c.gen_samplers(n)) }
    fn glDeleteSamplers(n: i32, ns: *const u32) { delete("glDeleteSamplers", n, ns, |c, ns| c.delete_samplers(ns)) }
    fn glIsSampler(n: u32) -> GLboolean { gl(0, |c| u8::from(c.is_sampler(n))) }
    fn glBindSampler(unit: u32, n: u32) { gl((), |c| c.bind_sampler(unit, n)) }
    fn glSamplerParameteri(s: u32, p: GLenum, v: i32) { gl((), |c| c.sampler_parameter(s, p, &[v as f32])) }
    fn glSamplerParameterf(s: u32, p: GLenum, v: f32) { gl((), |c| c.sampler_parameter(s, p, &[v])) }
    fn glSamplerParameteriv(s: u32, p: GLenum, v: *const i32) {
        gl((), |c| { let n = colour_count(p, GL_TEXTURE_BORDER_COLOR); c.sampler_parameter(s, p, &int_tex_params(p, slice(v, n))) })
    }
    fn glSamplerParameterIiv(s: u32, p: GLenum, v: *const i32) {
        gl((), |c| { let n = colour_count(p, GL_TEXTURE_BORDER_COLOR); let words: Vec<u32> = slice(v, n).iter().map(|&x| x as u32).collect(); c.sampler_parameter_integer(s, p, &words, true) })
    }
    fn glSamplerParameterIuiv(s: u32, p: GLenum, v: *const u32) {
        gl((), |c| { let n = colour_count(p, GL_TEXTURE_BORDER_COLOR); c.sampler_parameter_integer(s, p, slice(v, n), false) })
    }
    fn glSamplerParameterfv(s: u32, p: GLenum, v: *const f32) {
        gl((), |c| { let n = if p == GL_TEXTURE_BORDER_COLOR { 4 } else { 1 }; c.sampler_parameter(s, p, slice(v, n)) })
    }
    fn glGetSamplerParameteriv(s: u32, p: GLenum, out: *mut i32) { gl((), |c| { let v = int_tex_answers(p, &c.get_sampler_parameter(s, p)); write_values(out, &v) }) }
    fn glGetSamplerParameterIiv(s: u32, p: GLenum, out: *mut i32) { gl((), |c| { let v: Vec<i32> = c.get_sampler_parameter_integer(s, p, true).iter().map(|&w| w as i32).collect(); write_values(out, &v) }) }
    fn glGetSamplerParameterIuiv(s: u32, p: GLenum, out: *mut u32) { gl((), |c| { let v = c.get_sampler_parameter_integer(s, p, false); write_values(out, &v) }) }
    fn glGetSamplerParameterfv(s: u32, p: GLenum, out: *mut f32) { gl((), |c| { let v = c.get_sampler_parameter(s, p); write_values(out, &v) }) }
    fn glTexImage1D(t: GLenum, level: i32, internal: i32, w: i32, border: i32, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| {
            let bytes = c.client_image_bytes(w, 1, format, ty, false);
            let Some(px) = unpack(c, "glTexImage1D", data, bytes, ty) else { return };
            c.tex_image(1, t, level, internal, [w, 1, 1], border, (format, ty), px.data())
        })
    }
    fn glTexImage3D(t: GLenum, level: i32, internal: i32, w: i32, h: i32, depth: i32, border: i32, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| {
            let bytes = c.client_image_bytes_3d(w, h, depth, format, ty, false);
            let Some(px) = unpack(c, "glTexImage3D", data, bytes, ty) else { return };
            c.tex_image(3, t, level, internal, [w, h, depth], border, (format, ty), px.data())
        })
    }
    fn glTexSubImage1D(t: GLenum, level: i32, x: i32, w: i32, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| {
            if sub_image_on_device(c, 1, t, level, ([x, 0, 0], [w, 1, 1]), (format, ty), data) {
                return;
            }
            let bytes = c.client_image_bytes(w, 1, format, ty, false);
            let Some(px) = unpack(c, "glTexSubImage1D", data, bytes, ty) else { return };
            if matches!(px, Unpack::Null) && w > 0 {
                return c.record_invalid_value("glTexSubImage1D: NULL pixels with no pixel unpack buffer bound");
            }
            c.tex_sub_image(1, t, level, ([x, 0, 0], [w, 1, 1]), (format, ty), px.bytes())
        })
    }
    fn glTexSubImage3D(t: GLenum, level: i32, x: i32, y: i32, z: i32, w: i32, h: i32, depth: i32, format: GLenum, ty: GLenum, data: *const c_void) {
        gl((), |c| {
            if sub_image_on_device(c, 3, t, level, ([x, y, z], [w, h, depth]), (format, ty), data) {
                return;
            }
            let bytes = c.client_image_bytes_3d(w, h, depth, format, ty, false);
            let Some(px) = unpack(c, "glTexSubImage3D", data, bytes, ty) else { return };
            if matches!(px, Unpack::Null) && w > 0 && h > 0 && depth > 0 {
                return c.record_invalid_value("glTexSubImage3D: NULL pixels with no pixel unpack buffer bound");
            }
            c.tex_sub_image(3, t, level, ([x, y, z], [w, h, depth]), (format, ty), px.bytes())
        })
    }
    fn glCompressedTexImage1D(t: GLenum, level: i32, internal: GLenum, w: i32, border: i32, size: i32, data: *const c_void) {
        gl((), |c| {
            let Some(px) = compressed(c, "glCompressedTexImage1D", data, size, (1, internal, [w, 1, 1])) else { return };
            c.compressed_tex_image(1, t, level, internal, [w, 1, 1], border, px.data())
        })
    }
    fn glCompressedTexImage2D(t: GLenum, level: i32, internal: GLenum, w: i32, h: i32, border: i32, size: i32, data: *const c_void) {
        gl((), |c| {
            let Some(px) = compressed(c, "glCompressedTexImage2D", data, size, (2, internal, [w, h, 1])) else { return };
            c.compressed_tex_image(2, t, level, internal, [w, h, 1], border, px.data())
        })
    }
    fn glCompressedTexImage3D(t: GLenum, level: i32, internal: GLenum, w: i32, h: i32, depth: i32, border: i32, size: i32, data: *const c_void) {
        gl((), |c| {
            let Some(px) = compressed(c, "glCompressedTexImage3D", data, size, (3, internal, [w, h, depth])) else { return };
            c.compressed_tex_image(3, t, level, internal, [w, h, depth], border, px.data())
        })
    }
    fn glCompressedTexSubImage1D(t: GLenum, level: i32, x: i32, w: i32, format: GLenum, size: i32, data: *const c_void) {
        gl((), |c| {
            let Some(px) = compressed(c, "glCompressedTexSubImage1D", data, size, (1, format, [w, 1, 1])) else { return };
            c.compressed_tex_sub_image(1, t, level, ([x, 0, 0], [w, 1, 1]), format, px.bytes())
        })
    }
    fn glCompressedTexSubImage2D(t: GLenum, level: i32, x: i32, y: i32, w: i32, h: i32, format: GLenum, size: i32, data: *const c_void) {
        gl((), |c| {
            let Some(px) = compressed(c, "glCompressedTexSubImage2D", data, size, (2, format, [w, h, 1])) else { return };
            c.compressed_tex_sub_image(2, t, level, ([x, y, 0], [w, h, 1]), format, px.bytes())
        })
    }
    fn glCompressedTexSubImage3D(t: GLenum, level: i32, x: i32, y: i32, z: i32, w: i32, h: i32, depth: i32, format: GLenum, size: i32, data: *const c_void) {
        gl((), |c| {
            let Some(px) = compressed(c, "glCompressedTexSubImage3D", data, size, (3, format, [w, h, depth])) else { return };
            c.compressed_tex_sub_image(3, t, level, ([x, y, z], [w, h, depth]), format, px.bytes())
        })
    }
    fn glTexStorage1D(t: GLenum, levels: i32, internal: GLenum, w: i32) { gl((), |c| c.tex_storage(1, t, levels, internal, [w, 1, 1])) }
    fn glTexStorage2D(t: GLenum, levels: i32, internal: GLenum, w: i32, h: i32) { gl((), |c| c.tex_storage(2, t, levels, internal, [w, h, 1])) }
    fn glTexStorage3D(t: GLenum, levels: i32, internal: GLenum, w: i32, h: i32, d: i32) { gl((), |c| c.tex_storage(3, t, levels, internal, [w, h, d])) }
    fn glEGLImageTargetTexture2DOES(t: GLenum, image: *mut c_void) { gl((), |c| c.egl_image_target_texture_2d(t, image as usize as u64)) }
    fn glEGLImageTargetRenderbufferStorageOES(t: GLenum, image: *mut c_void) { gl((), |c| c.egl_image_target_renderbuffer_storage(t, image as usize as u64)) }
    fn glTextureView(tex: u32, t: GLenum, orig: u32, internal: GLenum, min_level: u32, levels: u32, min_layer: u32, layers: u32) { gl((), |c| c.texture_view(tex, t, orig, internal, (min_level, levels), (min_layer, layers))) }
    fn glTexParameteri(t: GLenum, p: GLenum, v: i32) { gl((), |c| c.tex_parameter(t, p, v as f32)) }
    fn glTexParameterf(t: GLenum, p: GLenum, v: f32) { gl((), |c| c.tex_parameter(t, p, v)) }
    fn glTexParameteriv(t: GLenum, p: GLenum, v: *const i32) {
        gl((), |c| { let n = if matches!(p, GL_TEXTURE_BORDER_COLOR | GL_TEXTURE_SWIZZLE_RGBA) { 4 } else { 1 }; c.tex_parameter_v(t, p, &int_tex_params(p, slice(v, n))) })
    }
    fn glTexParameterIiv(t: GLenum, p: GLenum, v: *const i32) {
        gl((), |c| { let n = if matches!(p, GL_TEXTURE_BORDER_COLOR | GL_TEXTURE_SWIZZLE_RGBA) { 4 } else { 1 }; let words: Vec<u32> = slice(v, n).iter().map(|&x| x as u32).collect(); c.tex_parameter_integer(t, p, &words, true) })
    }
    fn glTexParameterIuiv(t: GLenum, p: GLenum, v: *const u32) {
        gl((), |c| { let n = if matches!(p, GL_TEXTURE_BORDER_COLOR | GL_TEXTURE_SWIZZLE_RGBA) { 4 } else { 1 }; c.tex_parameter_integer(t, p, slice(v, n), false) })
    }
    fn glTexParameterfv(t: GLenum, p: GLenum, v: *const f32) {
        gl((), |c| { let n = if matches!(p, GL_TEXTURE_BORDER_COLOR | GL_TEXTURE_SWIZZLE_RGBA) { 4 } else { 1 }; c.tex_parameter_v(t, p, slice(v, n)) })
    }
    fn glGetTexParameteriv(t: GLenum, p: GLenum, out: *mut i32) { gl((), |c| { let v = int_tex_answers(p, &c.get_tex_parameter(t, p)); write_values(out, &v) }) }
    fn glGetTexParameterIiv(t: GLenum, p: GLenum, out: *mut i32) { gl((), |c| { let v: Vec<i32> = c.get_tex_parameter_integer(t, p, true).iter().map(|&w| w as i32).collect(); write_values(out, &v) }) }
    fn glGetTexParameterIuiv(t: GLenum, p: GLenum, out: *mut u32) { gl((), |c| { let v = c.get_tex_parameter_integer(t, p, false); write_values(out, &v) }) }
    fn glGetTexParameterfv(t: GLenum, p: GLenum, out: *mut f32) { gl((), |c| { let v = c.get_tex_parameter(t, p); write_values(out, &v) }) }
    fn glGetTexLevelParameteriv(t: GLenum, level: i32, p: GLenum, out: *mut i32) { gl((), |c| answer(c, |c| c.get_tex_level_parameter(t, level, p), |v| write_values(out, &[v]))) }
    fn glGetTexLevelParameterfv(t: GLenum, level: i32, p: GLenum, out: *mut f32) { gl((), |c| answer(c, |c| c.get_tex_level_parameter(t, level, p), |v| write_values(out, &[v as f32]))) }

    // Direct state access (GL_ARB_direct_state_access; `translate::gl::dsa`): each command is its
    // bind-to-edit twin run on the object it names (`named`).
    fn glCreateBuffers(n: i32, out: *mut u32) { gen(n, out, |c, n| c.create_buffers(n)) }
    fn glCreateTextures(t: GLenum, n: i32, out: *mut u32) { gen(n, out, |c, n| c.create_textures(t, n)) }
    fn glCreateFramebuffers(n: i32, out: *mut u32) { gen(n, out, |c, n| c.create_framebuffers(n)) }
    fn glCreateRenderbuffers(n: i32, out: *mut u32) { gen(n, out, |c, n| c.create_renderbuffers(n)) }
    fn glCreateVertexArrays(n: i32, out: *mut u32) { gen(n, out, |c, n| c.create_vertex_arrays(n)) }
    fn glCreateSamplers(n: i32, out: *mut u32) { gen(n, out, |c, n| c.create_samplers(n)) }
    fn glCreateQueries(t: GLenum, n: i32, out: *mut u32) { gen(n, out, |c, n| c.create_queries(t, n)) }
    fn glCreateTransformFeedbacks(n: i32, out: *mut u32) { gen(n, out, |c, n| c.create_transform_feedbacks(n)) }
    fn glNamedBufferStorage(b: u32, size: isize, data: *const c_void, flags: u32) { named((), "glNamedBufferStorage", Named::Buffer(b), |t| glBufferStorage(t, size, data, flags)) }
    fn glNamedBufferData(b: u32, size: isize, data: *const c_void, usage: GLenum) { named((), "glNamedBufferData", Named::Buffer(b), |t| glBufferData(t, size, data, usage)) }
    fn glNamedBufferSubData(b: u32, off: isize, size: isize, data: *const c_void) { named((), "glNamedBufferSubData", Named::Buffer(b), |t| glBufferSubData(t, off, size, data)) }
    fn glClearNamedBufferData(b: u32, internal: GLenum, format: GLenum, ty: GLenum, data: *const c_void) { named((), "glClearNamedBufferData", Named::Buffer(b), |t| glClearBufferData(t, internal, format, ty, data)) }
    fn glClearNamedBufferSubData(b: u32, internal: GLenum, off: isize, size: isize, format: GLenum, ty: GLenum, data: *const c_void) { named((), "glClearNamedBufferSubData", Named::Buffer(b), |t| glClearBufferSubData(t, internal, off, size, format, ty, data)) }
    fn glCopyNamedBufferSubData(r: u32, w: u32, ro: isize, wo: isize, size: isize) {
        named((), "glCopyNamedBufferSubData", Named::BufferPair { read: r, write: w }, |_| glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, ro, wo, size))
    }
    fn glMapNamedBuffer(b: u32, access: GLenum) -> *mut c_void { named(std::ptr::null_mut(), "glMapNamedBuffer", Named::Buffer(b), |t| glMapBuffer(t, access)) }
    fn glMapNamedBufferRange(b: u32, off: isize, len: isize, access: u32) -> *mut c_void { named(std::ptr::null_mut(), "glMapNamedBufferRange", Named::Buffer(b), |t| glMapBufferRange(t, off, len, access)) }
    fn glUnmapNamedBuffer(b: u32) -> GLboolean { named(0, "glUnmapNamedBuffer", Named::Buffer(b), |t| glUnmapBuffer(t)) }
    fn glFlushMappedNamedBufferRange(b: u32, off: isize, len: isize) { named((), "glFlushMappedNamedBufferRange", Named::Buffer(b), |t| glFlushMappedBufferRange(t, off, len)) }
    fn glGetNamedBufferParameteriv(b: u32, p: GLenum, out: *mut i32) { named((), "glGetNamedBufferParameteriv", Named::Buffer(b), |t| glGetBufferParameteriv(t, p, out)) }
    fn glGetNamedBufferParameteri64v(b: u32, p: GLenum, out: *mut i64) { named((), "glGetNamedBufferParameteri64v", Named::Buffer(b), |t| glGetBufferParameteri64v(t, p, out)) }
    fn glGetNamedBufferPointerv(b: u32, p: GLenum, out: *mut *mut c_void) { named((), "glGetNamedBufferPointerv", Named::Buffer(b), |t| glGetBufferPointerv(t, p, out)) }
    fn glGetNamedBufferSubData(b: u32, off: isize, size: isize, data: *mut c_void) { named((), "glGetNamedBufferSubData", Named::Buffer(b), |t| glGetBufferSubData(t, off, size, data)) }
    fn glTextureBuffer(tex: u32, f: GLenum, b: u32) { named((), "glTextureBuffer", Named::BufferTexture(tex), |t| glTexBuffer(t, f, b)) }
    fn glTextureBufferRange(tex: u32, f: GLenum, b: u32, off: isize, size: isize) { named((), "glTextureBufferRange", Named::BufferTexture(tex), |t| glTexBufferRange(t, f, b, off, size)) }
    fn glTextureStorage1D(tex: u32, levels: i32, f: GLenum, w: i32) { on_texture((), "glTextureStorage1D", tex, TEX_1D, |t| glTexStorage1D(t, levels, f, w)) }
    fn glTextureStorage2D(tex: u32, levels: i32, f: GLenum, w: i32, h: i32) { on_texture((), "glTextureStorage2D", tex, TEX_2D_STORAGE, |t| glTexStorage2D(t, levels, f, w, h)) }
    fn glTextureStorage3D(tex: u32, levels: i32, f: GLenum, w: i32, h: i32, d: i32) { on_texture((), "glTextureStorage3D", tex, TEX_3D, |t| glTexStorage3D(t, levels, f, w, h, d)) }
    fn glTextureStorage2DMultisample(tex: u32, s: i32, f: GLenum, w: i32, h: i32, fixed: GLboolean) { on_texture((), "glTextureStorage2DMultisample", tex, TEX_MS_2D, |t| glTexStorage2DMultisample(t, s, f, w, h, fixed)) }
    fn glTextureStorage3DMultisample(tex: u32, s: i32, f: GLenum, w: i32, h: i32, d: i32, fixed: GLboolean) { on_texture((), "glTextureStorage3DMultisample", tex, TEX_MS_3D, |t| glTexStorage3DMultisample(t, s, f, w, h, d, fixed)) }
    fn glTextureSubImage1D(tex: u32, level: i32, x: i32, w: i32, format: GLenum, ty: GLenum, data: *const c_void) { on_texture((), "glTextureSubImage1D", tex, TEX_1D, |t| glTexSubImage1D(t, level, x, w, format, ty, data)) }
    fn glTextureSubImage2D(tex: u32, level: i32, x: i32, y: i32, w: i32, h: i32, format: GLenum, ty: GLenum, data: *const c_void) { on_texture((), "glTextureSubImage2D", tex, TEX_2D, |t| glTexSubImage2D(t, level, x, y, w, h, format, ty, data)) }
    fn glTextureSubImage3D(tex: u32, level: i32, x: i32, y: i32, z: i32, w: i32, h: i32, d: i32, format: GLenum, ty: GLenum, data: *const c_void) {
        on_texture((), "glTextureSubImage3D", tex, TEX_3D_SUB, |t| {
            let stride = image_stride(w, h, format, ty, false);
            cube_faces(t, (z, d), |target, i| match target {
                GL_TEXTURE_3D | GL_TEXTURE_2D_ARRAY | GL_TEXTURE_CUBE_MAP_ARRAY => glTexSubImage3D(target, level, x, y, z, w, h, d, format, ty, data),
                face => glTexSubImage2D(face, level, x, y, w, h, format, ty, nth_image(data, i, stride, PixelBufferTarget::Unpack)),
            })
        })
    }
    fn glCompressedTextureSubImage1D(tex: u32, level: i32, x: i32, w: i32, format: GLenum, size: i32, data: *const c_void) { on_texture((), "glCompressedTextureSubImage1D", tex, TEX_1D, |t| glCompressedTexSubImage1D(t, level, x, w, format, size, data)) }
    fn glCompressedTextureSubImage2D(tex: u32, level: i32, x: i32, y: i32, w: i32, h: i32, format: GLenum, size: i32, data: *const c_void) { on_texture((), "glCompressedTextureSubImage2D", tex, TEX_2D, |t| glCompressedTexSubImage2D(t, level, x, y, w, h, format, size, data)) }
    fn glCompressedTextureSubImage3D(tex: u32, level: i32, x: i32, y: i32, z: i32, w: i32, h: i32, d: i32, format: GLenum, size: i32, data: *const c_void) {
        on_texture((), "glCompressedTextureSubImage3D", tex, TEX_3D_SUB, |t| {
            let face_size = if d > 0 { size / d } else { 0 };
            cube_faces(t, (z, d), |target, i| match target {
                GL_TEXTURE_3D | GL_TEXTURE_2D_ARRAY | GL_TEXTURE_CUBE_MAP_ARRAY => glCompressedTexSubImage3D(target, level, x, y, z, w, h, d, format, size, data),
                face => glCompressedTexSubImage2D(face, level, x, y, w, h, format, face_size, nth_image(data, i, face_size.max(0) as usize, PixelBufferTarget::Unpack)),
            })
        })
    }
    fn glCopyTextureSubImage1D(tex: u32, level: i32, xoff: i32, x: i32, y: i32, w: i32) { on_texture((), "glCopyTextureSubImage1D", tex, TEX_1D, |t| glCopyTexSubImage1D(t, level, xoff, x, y, w)) }
    fn glCopyTextureSubImage2D(tex: u32, level: i32, xoff: i32, yoff: i32, x: i32, y: i32, w: i32, h: i32) { on_texture((), "glCopyTextureSubImage2D", tex, TEX_2D, |t| glCopyTexSubImage2D(t, level, xoff, yoff, x, y, w, h)) }
    fn glCopyTextureSubImage3D(tex: u32, level: i32, xoff: i32, yoff: i32, zoff: i32, x: i32, y: i32, w: i32, h: i32) {
        on_texture((), "glCopyTextureSubImage3D", tex, TEX_3D_SUB, |t| {
            cube_faces(t, (zoff, 1), |target, _| match target {
                GL_TEXTURE_3D | GL_TEXTURE_2D_ARRAY | GL_TEXTURE_CUBE_MAP_ARRAY => glCopyTexSubImage3D(target, level, xoff, yoff, zoff, x, y, w, h),
                face => glCopyTexSubImage2D(face, level, xoff, yoff, x, y, w, h),
            })
        })
    }
    fn glTextureParameteri(tex: u32, p: GLenum, v: i32) { on_texture_parameter("glTextureParameteri", tex, p, |t| glTexParameteri(t, p, v)) }
    fn glTextureParameterf(tex: u32, p: GLenum, v: f32) { on_texture_parameter("glTextureParameterf", tex, p, |t| glTexParameterf(t, p, v)) }
    fn glTextureParameteriv(tex: u32, p: GLenum, v: *const i32) { on_texture_parameter("glTextureParameteriv", tex, p, |t| glTexParameteriv(t, p, v)) }
    fn glTextureParameterfv(tex: u32, p: GLenum, v: *const f32) { on_texture_parameter("glTextureParameterfv", tex, p, |t| glTexParameterfv(t, p, v)) }
    fn glTextureParameterIiv(tex: u32, p: GLenum, v: *const i32) { on_texture_parameter("glTextureParameterIiv", tex, p, |t| glTexParameterIiv(t, p, v)) }
    fn glTextureParameterIuiv(tex: u32, p: GLenum, v: *const u32) { on_texture_parameter("glTextureParameterIuiv", tex, p, |t| glTexParameterIuiv(t, p, v)) }
    fn glGetTextureParameteriv(tex: u32, p: GLenum, out: *mut i32) { on_texture((), "glGetTextureParameteriv", tex, &[], |t| glGetTexParameteriv(t, p, out)) }
    fn glGetTextureParameterfv(tex: u32, p: GLenum, out: *mut f32) { on_texture((), "glGetTextureParameterfv", tex, &[], |t| glGetTexParameterfv(t, p, out)) }
    fn glGetTextureParameterIiv(tex: u32, p: GLenum, out: *mut i32) { on_texture((), "glGetTextureParameterIiv", tex, &[], |t| glGetTexParameterIiv(t, p, out)) }
    fn glGetTextureParameterIuiv(tex: u32, p: GLenum, out: *mut u32) { on_texture((), "glGetTextureParameterIuiv", tex, &[], |t| glGetTexParameterIuiv(t, p, out)) }
    fn glGetTextureLevelParameteriv(tex: u32, level: i32, p: GLenum, out: *mut i32) {
        // A cube map's levels are answered for its first face (they are all alike).
        on_texture((), "glGetTextureLevelParameteriv", tex, TEX_IMAGES, |t| glGetTexLevelParameteriv(if t == GL_TEXTURE_CUBE_MAP { GL_TEXTURE_CUBE_MAP_POSITIVE_X } else { t }, level, p, out))
    }
    fn glGetTextureLevelParameterfv(tex: u32, level: i32, p: GLenum, out: *mut f32) {
        let mut v = 0i32;
        let before = gl(0, |c| c.errors_raised());
        glGetTextureLevelParameteriv(tex, level, p, &mut v);
        if gl(before, |c| c.errors_raised()) == before {
            write_values(out, &[v as f32]);
        }
    }
    fn glGenerateTextureMipmap(tex: u32) { on_texture((), "glGenerateTextureMipmap", tex, TEX_MIPMAPPED, |t| glGenerateMipmap(t)) }
    fn glBindTextureUnit(unit: u32, tex: u32) { gl((), |c| c.bind_texture_unit(unit, tex)) }
    fn glGetTextureImage(tex: u32, level: i32, format: GLenum, ty: GLenum, buf_size: i32, pixels: *mut c_void) {
        on_texture((), "glGetTextureImage", tex, TEX_IMAGES, |t| {
            let stride = image_stride_packed(t, level, format, ty);
            let faces = if t == GL_TEXTURE_CUBE_MAP { 6 } else { 1 };
            if faces == 6 && !cube_level_complete(level, format, ty) {
                return gl((), |c| c.record_invalid_operation("glGetTextureImage: the cube map's level is not complete"));
            }
            cube_faces(t, (0, faces), |target, i| {
                let room = buf_size.saturating_sub((i as usize * stride) as i32);
                let out = nth_image(pixels, i, stride, PixelBufferTarget::Pack).cast_mut();
                gl((), |c| get_tex_image(c, (target, level), (format, ty), Some(room), out))
            })
        })
    }
    fn glGetCompressedTextureImage(tex: u32, level: i32, buf_size: i32, pixels: *mut c_void) {
        on_texture((), "glGetCompressedTextureImage", tex, TEX_IMAGES, |t| {
            let stride = gl(0, |c| c.get_compressed_tex_image_bytes(cube_face_of(t), level));
            let faces = if t == GL_TEXTURE_CUBE_MAP { 6 } else { 1 };
            cube_faces(t, (0, faces), |target, i| {
                let room = buf_size.saturating_sub((i as usize * stride) as i32);
                let out = nth_image(pixels, i, stride, PixelBufferTarget::Pack).cast_mut();
                gl((), |c| get_compressed(c, target, level, Some(room), out))
            })
        })
    }
    fn glNamedFramebufferRenderbuffer(fb: u32, a: GLenum, rt: GLenum, rb: u32) { on_framebuffer((), "glNamedFramebufferRenderbuffer", fb, GL_DRAW_FRAMEBUFFER, |t| glFramebufferRenderbuffer(t, a, rt, rb)) }
    fn glNamedFramebufferTexture(fb: u32, a: GLenum, tex: u32, level: i32) { on_framebuffer((), "glNamedFramebufferTexture", fb, GL_DRAW_FRAMEBUFFER, |t| gl((), |c| c.framebuffer_texture_whole(t, a, tex, level))) }
    fn glNamedFramebufferTextureLayer(fb: u32, a: GLenum, tex: u32, level: i32, layer: i32) { on_framebuffer((), "glNamedFramebufferTextureLayer", fb, GL_DRAW_FRAMEBUFFER, |t| glFramebufferTextureLayer(t, a, tex, level, layer)) }
    fn glNamedFramebufferDrawBuffer(fb: u32, buf: GLenum) { on_framebuffer((), "glNamedFramebufferDrawBuffer", fb, GL_DRAW_FRAMEBUFFER, |_| glDrawBuffer(buf)) }
    fn glNamedFramebufferDrawBuffers(fb: u32, n: i32, bufs: *const GLenum) { on_framebuffer((), "glNamedFramebufferDrawBuffers", fb, GL_DRAW_FRAMEBUFFER, |_| glDrawBuffers(n, bufs)) }
    fn glNamedFramebufferReadBuffer(fb: u32, src: GLenum) { on_framebuffer((), "glNamedFramebufferReadBuffer", fb, GL_READ_FRAMEBUFFER, |_| glReadBuffer(src)) }
    fn glInvalidateNamedFramebufferData(fb: u32, n: i32, attachments: *const GLenum) { on_framebuffer((), "glInvalidateNamedFramebufferData", fb, GL_DRAW_FRAMEBUFFER, |t| glInvalidateFramebuffer(t, n, attachments)) }
    fn glInvalidateNamedFramebufferSubData(fb: u32, n: i32, attachments: *const GLenum, x: i32, y: i32, w: i32, h: i32) { on_framebuffer((), "glInvalidateNamedFramebufferSubData", fb, GL_DRAW_FRAMEBUFFER, |t| glInvalidateSubFramebuffer(t, n, attachments, x, y, w, h)) }
    fn glClearNamedFramebufferiv(fb: u32, buffer: GLenum, drawbuffer: i32, value: *const i32) { on_framebuffer((), "glClearNamedFramebufferiv", fb, GL_DRAW_FRAMEBUFFER, |_| glClearBufferiv(buffer, drawbuffer, value)) }
    fn glClearNamedFramebufferuiv(fb: u32, buffer: GLenum, drawbuffer: i32, value: *const u32) { on_framebuffer((), "glClearNamedFramebufferuiv", fb, GL_DRAW_FRAMEBUFFER, |_| glClearBufferuiv(buffer, drawbuffer, value)) }
    fn glClearNamedFramebufferfv(fb: u32, buffer: GLenum, drawbuffer: i32, value: *const f32) { on_framebuffer((), "glClearNamedFramebufferfv", fb, GL_DRAW_FRAMEBUFFER, |_| glClearBufferfv(buffer, drawbuffer, value)) }
    fn glClearNamedFramebufferfi(fb: u32, buffer: GLenum, drawbuffer: i32, depth: f32, stencil: i32) { on_framebuffer((), "glClearNamedFramebufferfi", fb, GL_DRAW_FRAMEBUFFER, |_| glClearBufferfi(buffer, drawbuffer, depth, stencil)) }
    fn glBlitNamedFramebuffer(read: u32, draw: u32, sx0: i32, sy0: i32, sx1: i32, sy1: i32, dx0: i32, dy0: i32, dx1: i32, dy1: i32, mask: u32, filter: GLenum) {
        named((), "glBlitNamedFramebuffer", Named::FramebufferPair { read, draw }, |_| glBlitFramebuffer(sx0, sy0, sx1, sy1, dx0, dy0, dx1, dy1, mask, filter))
    }
    fn glCheckNamedFramebufferStatus(fb: u32, target: GLenum) -> GLenum {
        if !matches!(target, GL_FRAMEBUFFER | GL_DRAW_FRAMEBUFFER | GL_READ_FRAMEBUFFER) {
            return gl(0, |c| {
                c.record_invalid_enum("glCheckNamedFramebufferStatus target", target);
                0
            });
        }
        on_framebuffer(0, "glCheckNamedFramebufferStatus", fb, target, |t| glCheckFramebufferStatus(t))
    }
    fn glGetNamedFramebufferAttachmentParameteriv(fb: u32, a: GLenum, p: GLenum, out: *mut i32) { on_framebuffer((), "glGetNamedFramebufferAttachmentParameteriv", fb, GL_DRAW_FRAMEBUFFER, |t| glGetFramebufferAttachmentParameteriv(t, a, p, out)) }
    fn glNamedRenderbufferStorage(rb: u32, f: GLenum, w: i32, h: i32) { named((), "glNamedRenderbufferStorage", Named::Renderbuffer(rb), |t| glRenderbufferStorage(t, f, w, h)) }
    fn glNamedRenderbufferStorageMultisample(rb: u32, s: i32, f: GLenum, w: i32, h: i32) { named((), "glNamedRenderbufferStorageMultisample", Named::Renderbuffer(rb), |t| glRenderbufferStorageMultisample(t, s, f, w, h)) }
    fn glGetNamedRenderbufferParameteriv(rb: u32, p: GLenum, out: *mut i32) { named((), "glGetNamedRenderbufferParameteriv", Named::Renderbuffer(rb), |t| glGetRenderbufferParameteriv(t, p, out)) }
    fn glEnableVertexArrayAttrib(vao: u32, i: u32) { named((), "glEnableVertexArrayAttrib", Named::VertexArray(vao), |_| glEnableVertexAttribArray(i)) }
    fn glDisableVertexArrayAttrib(vao: u32, i: u32) { named((), "glDisableVertexArrayAttrib", Named::VertexArray(vao), |_| glDisableVertexAttribArray(i)) }
    fn glVertexArrayVertexBuffer(vao: u32, index: u32, b: u32, offset: isize, stride: i32) { named((), "glVertexArrayVertexBuffer", Named::VertexArray(vao), |_| glBindVertexBuffer(index, b, offset, stride)) }
    fn glVertexArrayVertexBuffers(vao: u32, first: u32, count: i32, bs: *const u32, offsets: *const isize, strides: *const i32) {
        gl((), |c| {
            // SAFETY: GL's contract: NULL, or `count` elements each.
            let arrays = unsafe { vertex_buffer_arrays(count, bs, offsets, strides) };
            let (buffers, offsets, strides) = (arrays.0, arrays.1.as_slice(), arrays.2);
            let given = (!buffers.is_empty()).then_some(VertexBuffers { buffers, offsets, strides });
            c.vertex_array_vertex_buffers(vao, first, count, given)
        })
    }
    fn glVertexArrayAttribFormat(vao: u32, i: u32, size: i32, ty: GLenum, normalized: GLboolean, relative: u32) { named((), "glVertexArrayAttribFormat", Named::VertexArray(vao), |_| glVertexAttribFormat(i, size, ty, normalized, relative)) }
    fn glVertexArrayAttribIFormat(vao: u32, i: u32, size: i32, ty: GLenum, relative: u32) { named((), "glVertexArrayAttribIFormat", Named::VertexArray(vao), |_| glVertexAttribIFormat(i, size, ty, relative)) }
    fn glVertexArrayAttribLFormat(vao: u32, i: u32, size: i32, ty: GLenum, relative: u32) { named((), "glVertexArrayAttribLFormat", Named::VertexArray(vao), |_| glVertexAttribLFormat(i, size, ty, relative)) }
    fn glVertexArrayAttribBinding(vao: u32, i: u32, binding: u32) { named((), "glVertexArrayAttribBinding", Named::VertexArray(vao), |_| glVertexAttribBinding(i, binding)) }
    fn glVertexArrayBindingDivisor(vao: u32, binding: u32, divisor: u32) { named((), "glVertexArrayBindingDivisor", Named::VertexArray(vao), |_| glVertexBindingDivisor(binding, divisor)) }
    fn glGetVertexArrayIndexed64iv(vao: u32, i: u32, p: GLenum, out: *mut i64) { gl((), |c| if let Some(v) = c.get_vertex_array_binding_offset(vao, i, p) { write_values(out, &[v]) }) }
    fn glVertexArrayElementBuffer(vao: u32, b: u32) { gl((), |c| c.vertex_array_element_buffer(vao, b)) }
    fn glGetVertexArrayiv(vao: u32, p: GLenum, out: *mut i32) { gl((), |c| if let Some(v) = c.get_vertex_array(vao, p) { write_values(out, &[v]) }) }
    fn glGetVertexArrayIndexediv(vao: u32, i: u32, p: GLenum, out: *mut i32) { gl((), |c| if let Some(v) = c.get_vertex_array_indexed(vao, i, p) { write_values(out, &[v as i32]) }) }
    fn glTransformFeedbackBufferBase(xfb: u32, i: u32, b: u32) { gl((), |c| c.transform_feedback_buffer(xfb, i, b, None)) }
    fn glTransformFeedbackBufferRange(xfb: u32, i: u32, b: u32, off: isize, size: isize) { gl((), |c| c.transform_feedback_buffer(xfb, i, b, Some((off as i64, size as i64)))) }
    fn glGetTransformFeedbackiv(xfb: u32, p: GLenum, out: *mut i32) { gl((), |c| if let Some(v) = c.get_transform_feedback(xfb, p, None) { write_values(out, &[v as i32]) }) }
    fn glGetTransformFeedbacki_v(xfb: u32, p: GLenum, i: u32, out: *mut i32) { gl((), |c| if let Some(v) = c.get_transform_feedback(xfb, p, Some((i, false))) { write_values(out, &[v as i32]) }) }
    fn glGetTransformFeedbacki64_v(xfb: u32, p: GLenum, i: u32, out: *mut i64) { gl((), |c| if let Some(v) = c.get_transform_feedback(xfb, p, Some((i, true))) { write_values(out, &[v]) }) }

    // Framebuffers.
    fn glGenFramebuffers(n: i32, out: *mut u32) { gen(n, out, |c, n| c.gen_framebuffers(n)) }
    fn glDeleteFramebuffers(n: i32, ns: *const u32) { delete("glDeleteFramebuffers", n, ns, |c, ns| c.delete_framebuffers(ns)) }
    fn glIsFramebuffer(n: u32) -> GLboolean { gl(0, |c| u8::from(c.is_framebuffer(n))) }
    fn glBindFramebuffer(t: GLenum, n: u32) { gl((), |c| c.bind_framebuffer(t, n)) }
    fn glFramebufferTexture2D(t: GLenum, a: GLenum, tt: GLenum, tex: u32, level: i32) { gl((), |c| c.framebuffer_texture_2d(t, a, tt, tex, level)) }
    fn glFramebufferTexture1D(t: GLenum, a: GLenum, tt: GLenum, tex: u32, level: i32) { gl((), |c| c.framebuffer_texture_nd(1, t, a, tt, tex, level, 0)) }
    fn glFramebufferTexture3D(t: GLenum, a: GLenum, tt: GLenum, tex: u32, level: i32, layer: i32) { gl((), |c| c.framebuffer_texture_nd(3, t, a, tt, tex, level, layer)) }
    fn glFramebufferTextureLayer(t: GLenum, a: GLenum, tex: u32, level: i32, layer: i32) { gl((), |c| c.framebuffer_texture_layer(t, a, tex, level, layer)) }
    fn glFramebufferRenderbuffer(t: GLenum, a: GLenum, rt: GLenum, rb: u32) { gl((), |c| c.framebuffer_renderbuffer(t, a, rt, rb)) }
    fn glCheckFramebufferStatus(t: GLenum) -> GLenum { gl(0, |c| c.check_framebuffer_status(t)) }
    fn glFramebufferParameteri(t: GLenum, pname: GLenum, param: i32) { gl((), |c| c.framebuffer_parameter(t, pname, param)) }
    fn glGetFramebufferParameteriv(t: GLenum, pname: GLenum, out: *mut i32) {
        gl((), |c| {
            if let Some(v) = c.get_framebuffer_parameter(t, pname) {
                write_values(out, &[v])
            }
        })
    }
    fn glNamedFramebufferParameteri(fb: u32, pname: GLenum, param: i32) { on_framebuffer((), "glNamedFramebufferParameteri", fb, GL_DRAW_FRAMEBUFFER, |t| glFramebufferParameteri(t, pname, param)) }
    fn glGetNamedFramebufferParameteriv(fb: u32, pname: GLenum, out: *mut i32) { on_framebuffer((), "glGetNamedFramebufferParameteriv", fb, GL_DRAW_FRAMEBUFFER, |t| glGetFramebufferParameteriv(t, pname, out)) }
    fn glDrawBuffers(n: i32, bufs: *const GLenum) { gl((), |c| { if n < 0 { return c.record_invalid_value("glDrawBuffers n < 0"); } c.draw_buffers(slice(bufs, i64::from(n))) }) }
    fn glDrawBuffer(buf: GLenum) { gl((), |c| c.draw_buffers(&[buf])) }
    fn glClearBufferfv(buffer: GLenum, drawbuffer: i32, value: *const f32) { gl((), |c| c.clear_buffer_fv(buffer, drawbuffer, slice(value, colour_count(buffer, GL_COLOR)))) }
    fn glClearBufferiv(buffer: GLenum, drawbuffer: i32, value: *const i32) { gl((), |c| c.clear_buffer_iv(buffer, drawbuffer, slice(value, colour_count(buffer, GL_COLOR)))) }
    fn glClearBufferuiv(buffer: GLenum, drawbuffer: i32, value: *const u32) { gl((), |c| c.clear_buffer_uiv(buffer, drawbuffer, slice(value, colour_count(buffer, GL_COLOR)))) }
    fn glClearBufferfi(buffer: GLenum, drawbuffer: i32, depth: f32, stencil: i32) { gl((), |c| c.clear_buffer_fi(buffer, drawbuffer, depth, stencil)) }
    fn glReadBuffer(src: GLenum) { gl((), |c| c.read_buffer(src)) }
    fn glGenRenderbuffers(n: i32, out: *mut u32) { gen(n, out, |c, n| c.gen_renderbuffers(n)) }
    fn glDeleteRenderbuffers(n: i32, ns: *const u32) { delete("glDeleteRenderbuffers", n, ns, |c, ns| c.delete_renderbuffers(ns)) }
    fn glIsRenderbuffer(n: u32) -> GLboolean { gl(0, |c| u8::from(c.is_renderbuffer(n))) }
    fn glBindRenderbuffer(t: GLenum, n: u32) { gl((), |c| c.bind_renderbuffer(t, n)) }
    fn glRenderbufferStorage(t: GLenum, f: GLenum, w: i32, h: i32) { gl((), |c| c.renderbuffer_storage(t, 0, f, w, h)) }
    fn glRenderbufferStorageMultisample(t: GLenum, s: i32, f: GLenum, w: i32, h: i32) { gl((), |c| c.renderbuffer_storage(t, s, f, w, h)) }
    fn glTexImage2DMultisample(t: GLenum, s: i32, f: GLenum, w: i32, h: i32, fixed: GLboolean) { gl((), |c| c.tex_image_multisample(2, t, s, f, [w, h, 1], fixed != 0, false)) }
    fn glTexImage3DMultisample(t: GLenum, s: i32, f: GLenum, w: i32, h: i32, d: i32, fixed: GLboolean) { gl((), |c| c.tex_image_multisample(3, t, s, f, [w, h, d], fixed != 0, false)) }
    fn glTexStorage2DMultisample(t: GLenum, s: i32, f: GLenum, w: i32, h: i32, fixed: GLboolean) { gl((), |c| c.tex_image_multisample(2, t, s, f, [w, h, 1], fixed != 0, true)) }
    fn glTexStorage3DMultisample(t: GLenum, s: i32, f: GLenum, w: i32, h: i32, d: i32, fixed: GLboolean) { gl((), |c| c.tex_image_multisample(3, t, s, f, [w, h, d], fixed != 0, true)) }
    fn glTexBuffer(t: GLenum, f: GLenum, buffer: u32) { gl((), |c| c.tex_buffer(t, f, buffer, None)) }
    fn glTexBufferARB(t: GLenum, f: GLenum, buffer: u32) { glTexBuffer(t, f, buffer) }
    fn glTexBufferEXT(t: GLenum, f: GLenum, buffer: u32) { glTexBuffer(t, f, buffer) }
    fn glTexBufferRange(t: GLenum, f: GLenum, buffer: u32, offset: isize, size: isize) { gl((), |c| c.tex_buffer(t, f, buffer, Some((offset as i64, size as i64)))) }
    fn glGetMultisamplefv(pname: GLenum, index: u32, out: *mut f32) { gl((), |c| { let v = c.get_multisample_fv(pname, index); write_values(out, &v) }) }

    // Drawing and reading.
    fn glBlitFramebuffer(sx0: i32, sy0: i32, sx1: i32, sy1: i32, dx0: i32, dy0: i32, dx1: i32, dy1: i32, mask: u32, filter: GLenum) {
        gl((), |c| c.blit_framebuffer([sx0, sy0, sx1, sy1], [dx0, dy0, dx1, dy1], mask, filter))
    }
    fn glDrawArrays(mode: GLenum, first: i32, count: i32) { draw(mode, first, count, 1, None) }
    fn glMultiDrawArrays(mode: GLenum, first: *const i32, count: *const i32, n: i32) {
        gl((), |c| {
            if n < 0 {
                return c.record_invalid_value("glMultiDrawArrays: drawcount < 0");
            }
            for (draw_id, (&f, &k)) in (0u32..).zip(slice(first, n.into()).iter().zip(slice(count, n.into()))) {
                c.draw(DrawCall { mode, first: f, count: k, instances: 1, draw_id, ..DrawCall::default() });
            }
        })
    }
    fn glMultiDrawElements(mode: GLenum, count: *const i32, ty: GLenum, offs: *const *const c_void, n: i32) {
        gl((), |c| {
            if n < 0 {
                return c.record_invalid_value("glMultiDrawElements: drawcount < 0");
            }
            for (draw_id, (&k, &o)) in (0u32..).zip(slice(count, n.into()).iter().zip(slice(offs, n.into()))) {
                c.draw(DrawCall { mode, count: k, instances: 1, indexed: Some((ty, o as u64, 0)), draw_id, ..DrawCall::default() });
            }
        })
    }
    fn glMultiDrawElementsBaseVertex(mode: GLenum, count: *const i32, ty: GLenum, offs: *const *const c_void, n: i32, base: *const i32) {
        gl((), |c| {
            if n < 0 {
                return c.record_invalid_value("glMultiDrawElementsBaseVertex: drawcount < 0");
            }
            let bases = slice(base, n.into());
            for (i, (&k, &o)) in slice(count, n.into()).iter().zip(slice(offs, n.into())).enumerate() {
                let b = bases.get(i).copied().unwrap_or(0);
                c.draw(DrawCall { mode, count: k, instances: 1, indexed: Some((ty, o as u64, b)), draw_id: i as u32, ..DrawCall::default() });
            }
        })
    }
    fn glDrawArraysInstanced(mode: GLenum, first: i32, count: i32, n: i32) { draw(mode, first, count, n, None) }
    fn glDrawElements(mode: GLenum, count: i32, ty: GLenum, off: *const c_void) { draw(mode, 0, count, 1, Some((ty, off as u64, 0))) }
    fn glDrawElementsInstanced(mode: GLenum, count: i32, ty: GLenum, off: *const c_void, n: i32) { draw(mode, 0, count, n, Some((ty, off as u64, 0))) }
    fn glDrawElementsBaseVertex(mode: GLenum, count: i32, ty: GLenum, off: *const c_void, base: i32) { draw(mode, 0, count, 1, Some((ty, off as u64, base))) }
    fn glDrawElementsInstancedBaseVertex(mode: GLenum, count: i32, ty: GLenum, off: *const c_void, n: i32, base: i32) { draw(mode, 0, count, n, Some((ty, off as u64, base))) }
    fn glDrawArraysInstancedBaseInstance(mode: GLenum, first: i32, count: i32, n: i32, base_instance: u32) {
        draw_call(DrawCall { mode, first, count, instances: n, base_instance, ..DrawCall::default() })
    }
    fn glDrawElementsInstancedBaseInstance(mode: GLenum, count: i32, ty: GLenum, off: *const c_void, n: i32, base_instance: u32) {
        draw_call(DrawCall { mode, count, instances: n, indexed: Some((ty, off as u64, 0)), base_instance, ..DrawCall::default() })
    }
    fn glDrawElementsInstancedBaseVertexBaseInstance(mode: GLenum, count: i32, ty: GLenum, off: *const c_void, n: i32, base: i32, base_instance: u32) {
        draw_call(DrawCall { mode, count, instances: n, indexed: Some((ty, off as u64, base)), base_instance, ..DrawCall::default() })
    }
    fn glDrawArraysIndirect(mode: GLenum, indirect: *const c_void) {
        draw_indirect(IndirectDraw { mode, index_type: None, indirect: indirect as u64, draw_count: 1, stride: 0, count: None })
    }
    fn glDrawElementsIndirect(mode: GLenum, ty: GLenum, indirect: *const c_void) {
        draw_indirect(IndirectDraw { mode, index_type: Some(ty), indirect: indirect as u64, draw_count: 1, stride: 0, count: None })
    }
    fn glMultiDrawArraysIndirect(mode: GLenum, indirect: *const c_void, draw_count: i32, stride: i32) {
        draw_indirect(IndirectDraw { mode, index_type: None, indirect: indirect as u64, draw_count, stride, count: None })
    }
    fn glMultiDrawElementsIndirect(mode: GLenum, ty: GLenum, indirect: *const c_void, draw_count: i32, stride: i32) {
        draw_indirect(IndirectDraw { mode, index_type: Some(ty), indirect: indirect as u64, draw_count, stride, count: None })
    }
    fn glMultiDrawArraysIndirectCount(mode: GLenum, indirect: *const c_void, count: isize, max: i32, stride: i32) {
        draw_indirect(IndirectDraw { mode, index_type: None, indirect: indirect as u64, draw_count: max, stride, count: Some(count as u64) })
    }
    fn glMultiDrawArraysIndirectCountARB(mode: GLenum, indirect: *const c_void, count: isize, max: i32, stride: i32) { glMultiDrawArraysIndirectCount(mode, indirect, count, max, stride) }
    fn glMultiDrawElementsIndirectCount(mode: GLenum, ty: GLenum, indirect: *const c_void, count: isize, max: i32, stride: i32) {
        draw_indirect(IndirectDraw { mode, index_type: Some(ty), indirect: indirect as u64, draw_count: max, stride, count: Some(count as u64) })
    }
    fn glMultiDrawElementsIndirectCountARB(mode: GLenum, ty: GLenum, indirect: *const c_void, count: isize, max: i32, stride: i32) { glMultiDrawElementsIndirectCount(mode, ty, indirect, count, max, stride) }
    fn glDrawRangeElements(mode: GLenum, start: u32, end: u32, count: i32, ty: GLenum, off: *const c_void) {
        if end < start { return gl((), |c| c.record_invalid_value("glDrawRangeElements end < start")); }
        draw(mode, 0, count, 1, Some((ty, off as u64, 0)))
    }
    fn glDrawRangeElementsBaseVertex(mode: GLenum, start: u32, end: u32, count: i32, ty: GLenum, off: *const c_void, base: i32) {
        if end < start { return gl((), |c| c.record_invalid_value("glDrawRangeElements end < start")); }
        draw(mode, 0, count, 1, Some((ty, off as u64, base)))
    }
    fn glReadPixels(x: i32, y: i32, w: i32, h: i32, format: GLenum, ty: GLenum, out: *mut c_void) {
        gl((), |c| {
            let Some(bytes) = c.client_image_bytes(w, h, format, ty, true) else {
                let depth_stencil = matches!(format, GL_DEPTH_COMPONENT | GL_STENCIL_INDEX | GL_DEPTH_STENCIL);
                if ty == GL_FLOAT && !depth_stencil {
                    return c.record_invalid_value("glReadPixels: the client image size overflows");
                }
                // An unknown format/type pair: read_pixels reports it.
                return c.read_pixels(x, y, w, h, format, ty, &mut []);
            };
            if c.pixel_buffer_bound(PixelBufferTarget::Pack) {
                // `out` is an offset into the pack buffer, never dereferenced.
                return c.pack_into_buffer("glReadPixels", (out as u64, bytes, ty), |c, px| c.read_pixels(x, y, w, h, format, ty, px));
            }
            if out.is_null() && bytes > 0 {
                return c.record_invalid_value("glReadPixels: NULL pixels with no pixel pack buffer bound");
            }
            c.read_pixels(x, y, w, h, format, ty, slice_mut(out.cast::<u8>(), bytes as i64))
        })
    }

    // GL 4.4/4.5 extensions (translate/src/gl/objects/multi_bind.rs and siblings).
    fn glTextureBarrier() { gl((), |c| c.texture_barrier()) }
    // GL 3.2's attachment of a whole texture level (what GL_ARB_texture_barrier's piglit tests
    // attach with); layered attachments as `glNamedFramebufferTexture` has them.
    fn glFramebufferTexture(t: GLenum, a: GLenum, tex: u32, level: i32) { gl((), |c| c.framebuffer_texture_whole(t, a, tex, level)) }
    // GL_KHR_robustness (GL 4.5): reads bounded by the caller's buffer size; one that would
    // write past it is GL_INVALID_OPERATION and writes nothing.
    fn glReadnPixels(x: i32, y: i32, w: i32, h: i32, format: GLenum, ty: GLenum, buf_size: i32, out: *mut c_void) {
        let fits = gl(false, |c| {
            let into_client = !c.pixel_buffer_bound(PixelBufferTarget::Pack);
            let needed = c.client_image_bytes(w, h, format, ty, true);
            let bytes = needed.filter(|_| into_client).unwrap_or(0) as u64;
            bounded(c, "glReadnPixels", buf_size, bytes)
        });
        if fits {
            glReadPixels(x, y, w, h, format, ty, out)
        }
    }
    fn glGetnUniformfv(p: u32, loc: i32, buf_size: i32, out: *mut f32) { gl((), |c| { let v = c.get_uniform(p, loc).floats(); write_bounded(c, "glGetnUniformfv", buf_size, out, &v) }) }
    fn glGetnUniformiv(p: u32, loc: i32, buf_size: i32, out: *mut i32) { gl((), |c| { let v = c.get_uniform(p, loc).ints(); write_bounded(c, "glGetnUniformiv", buf_size, out, &v) }) }
    fn glGetnUniformuiv(p: u32, loc: i32, buf_size: i32, out: *mut u32) { gl((), |c| { let v = c.get_uniform(p, loc).uints(); write_bounded(c, "glGetnUniformuiv", buf_size, out, &v) }) }
    fn glGetnUniformdv(p: u32, loc: i32, buf_size: i32, out: *mut f64) { gl((), |c| { let v = c.get_uniform(p, loc).doubles(); write_bounded(c, "glGetnUniformdv", buf_size, out, &v) }) }
    // GL_ARB_multi_bind: a NULL array unbinds the whole run.
    fn glBindBuffersBase(target: GLenum, first: u32, count: i32, buffers: *const u32) {
        gl((), |c| c.bind_buffers(target, first, count, optional_slice(buffers, count), None))
    }
    fn glBindBuffersRange(target: GLenum, first: u32, count: i32, buffers: *const u32, offsets: *const isize, sizes: *const isize) {
        gl((), |c| {
            let buffers = optional_slice(buffers, count);
            let offsets: Vec<i64> = slice(offsets, count.into()).iter().map(|&o| o as i64).collect();
            let sizes: Vec<i64> = slice(sizes, count.into()).iter().map(|&s| s as i64).collect();
            let ranges = BufferRanges { offsets: &offsets, sizes: &sizes };
            c.bind_buffers(target, first, count, buffers, Some(ranges))
        })
    }
    fn glBindTextures(first: u32, count: i32, textures: *const u32) { gl((), |c| c.bind_textures(first, count, optional_slice(textures, count))) }
    fn glBindSamplers(first: u32, count: i32, samplers: *const u32) { gl((), |c| c.bind_samplers(first, count, optional_slice(samplers, count))) }
    fn glBindImageTextures(first: u32, count: i32, textures: *const u32) { gl((), |c| c.bind_image_textures(first, count, optional_slice(textures, count))) }
    fn glBindVertexBuffers(first: u32, count: i32, bs: *const u32, offsets: *const isize, strides: *const i32) {
        gl((), |c| {
            // SAFETY: GL's contract: NULL, or `count` elements each.
            let arrays = unsafe { vertex_buffer_arrays(count, bs, offsets, strides) };
            let (buffers, offsets, strides) = (arrays.0, arrays.1.as_slice(), arrays.2);
            let given = (!buffers.is_empty()).then_some(VertexBuffers { buffers, offsets, strides });
            c.bind_vertex_buffers(first, count, given)
        })
    }
}

/// Whether `bytes` fit a robust read's `buf_size` (GL_INVALID_OPERATION recorded otherwise).
fn bounded(c: &mut Context, call: &str, buf_size: i32, bytes: u64) -> bool {
    let fits = bytes <= u64::try_from(buf_size).unwrap_or(0);
    if !fits {
        c.record_invalid_operation(&format!(
            "{call}: {bytes} bytes do not fit bufSize {buf_size}"
        ));
    }
    fits
}

/// `glGetn*v`: `values` into `out` when they fit `buf_size` bytes.
///
/// # Safety
/// `out` has room for `buf_size` bytes (GL's contract).
unsafe fn write_bounded<T: Copy>(
    c: &mut Context,
    call: &str,
    buf_size: i32,
    out: *mut T,
    values: &[T],
) {
    if bounded(c, call, buf_size, std::mem::size_of_val(values) as u64) {
        // SAFETY: the values fit the caller's `buf_size` bytes.
        unsafe { write_values(out, values) }
    }
}

/// A multi-bind command's array of `count` names: `None` for NULL (the command unbinds).
///
/// # Safety
/// `ptr` is NULL or points to `count` readable elements (GL's contract).
unsafe fn optional_slice<'a, T>(ptr: *const T, count: i32) -> Option<&'a [T]> {
    // SAFETY: passed on from the caller.
    (!ptr.is_null()).then(|| unsafe { slice(ptr, count.into()) })
}

/// `glBindVertexBuffers`' three arrays as slices of `count` (empty for NULL buffers; a NULL
/// offsets or strides array reads as too short, which the command refuses per binding).
///
/// # Safety
/// Each pointer is NULL or points to `count` readable elements (GL's contract).
unsafe fn vertex_buffer_arrays<'a>(
    count: i32,
    buffers: *const u32,
    offsets: *const isize,
    strides: *const i32,
) -> (&'a [u32], Vec<i64>, &'a [i32]) {
    let n = i64::from(count);
    // SAFETY: passed on from the caller.
    let (b, o, s) = unsafe { (slice(buffers, n), slice(offsets, n), slice(strides, n)) };
    (b, o.iter().map(|&o| o as i64).collect(), s)
}

/// `glUniform*v`: `v` holds `n × comps` values of `kind`, as 32-bit words (two a 64-bit value).
/// Which program a `glUniform*` (current) or `glProgramUniform*` (named) call writes.
#[derive(Clone, Copy)]
enum UniformTarget {
    Current,
    Program(u32),
}

impl UniformTarget {
    fn vectors(self, c: &mut Context, l: i32, kind: ValueKind, comps: u32, n: i32, data: &[u32]) {
        match self {
            UniformTarget::Current => c.uniform(l, kind, comps, n, data),
            UniformTarget::Program(p) => c.program_uniform(p, l, kind, comps, n, data),
        }
    }
}

/// # Safety
/// `v` holds `n × comps` values (GL's contract).
unsafe fn uniform_v(l: i32, kind: ValueKind, comps: u32, n: i32, v: *const u32) {
    // SAFETY: passed on from the caller.
    unsafe { uniform_v_in(UniformTarget::Current, l, kind, comps, n, v) }
}

/// # Safety
/// `v` holds `n × comps` values (GL's contract).
unsafe fn uniform_v_in(
    to: UniformTarget,
    l: i32,
    kind: ValueKind,
    comps: u32,
    n: i32,
    v: *const u32,
) {
    gl((), |c| {
        let words = comps * kind.words();
        // SAFETY: `v` holds `n × comps` values (GL's contract).
        let data = unsafe { slice(v, i64::from(n) * i64::from(words)) };
        if data.len() < (n.max(0) as usize) * words as usize {
            return c.record_invalid_value("glUniform*v: NULL value");
        }
        to.vectors(c, l, kind, comps, n, data)
    })
}

/// A `glUniform{2,3,4}{d,i64ARB,ui64ARB}` call: one value of `values.len()` 64-bit components.
fn uniform_64(l: i32, kind: ValueKind, values: &[u64]) {
    uniform_64_in(UniformTarget::Current, l, kind, values)
}

fn uniform_64_in(to: UniformTarget, l: i32, kind: ValueKind, values: &[u64]) {
    let words: Vec<u32> = values.iter().flat_map(|&v| split_u64(v)).collect();
    gl((), |c| {
        to.vectors(c, l, kind, values.len() as u32, 1, &words)
    })
}

/// `glVertexAttribL{n}dv`: `n` doubles from `v`, the rest 0, 0, 1.
unsafe fn vertex_attrib_lv(i: u32, n: usize, v: *const f64) {
    gl((), |c| {
        // SAFETY: `v` holds `n` doubles (GL's contract).
        let s = unsafe { slice(v, n as i64) };
        if s.len() < n {
            return c.record_invalid_value("glVertexAttribL*dv: NULL value");
        }
        let mut values = [0.0, 0.0, 0.0, 1.0];
        values[..n].copy_from_slice(s);
        c.vertex_attrib_l(i, values)
    })
}

/// The element of a `glUniformMatrix*` array (`f32` for `…fv`, `f64` for `…dv`): where the
/// matrices go once the pointer is checked.
trait MatrixElement: Copy {
    /// The command family, for the error message.
    const COMMAND: &'static str;
    fn write(
        c: &mut Context,
        to: UniformTarget,
        l: i32,
        shape: (u32, u32),
        n: i32,
        transpose: bool,
        data: &[Self],
    );
}

impl MatrixElement for f32 {
    const COMMAND: &'static str = "glUniformMatrix*fv";
    fn write(
        c: &mut Context,
        to: UniformTarget,
        l: i32,
        shape: (u32, u32),
        n: i32,
        t: bool,
        data: &[f32],
    ) {
        match to {
            UniformTarget::Current => c.uniform_matrix(l, shape.0, shape.1, n, t, data),
            UniformTarget::Program(p) => c.program_uniform_matrix(p, l, shape, n, t, data),
        }
    }
}

impl MatrixElement for f64 {
    const COMMAND: &'static str = "glUniformMatrix*dv";
    fn write(
        c: &mut Context,
        to: UniformTarget,
        l: i32,
        shape: (u32, u32),
        n: i32,
        t: bool,
        data: &[f64],
    ) {
        match to {
            UniformTarget::Current => c.uniform_matrix_double(l, shape, n, t, data),
            UniformTarget::Program(p) => c.program_uniform_matrix_double(p, l, shape, n, t, data),
        }
    }
}

/// `glUniformMatrix{C}x{R}{f,d}v` on the current program.
///
/// # Safety
/// `v` holds `n` matrices (GL's contract).
unsafe fn uniform_m<T: MatrixElement>(
    l: i32,
    cols: u32,
    rows: u32,
    n: i32,
    t: GLboolean,
    v: *const T,
) {
    // SAFETY: passed on from the caller.
    unsafe { uniform_m_in(UniformTarget::Current, l, cols, rows, n, t, v) }
}

/// `glUniformMatrix*` / `glProgramUniformMatrix*` into `to`.
///
/// # Safety
/// `v` holds `n` matrices (GL's contract).
unsafe fn uniform_m_in<T: MatrixElement>(
    to: UniformTarget,
    l: i32,
    cols: u32,
    rows: u32,
    n: i32,
    t: GLboolean,
    v: *const T,
) {
    gl((), |c| {
        // SAFETY: `v` holds `n` matrices (GL's contract).
        let data = unsafe { slice(v, i64::from(n) * i64::from(cols * rows)) };
        if data.len() < (n.max(0) as usize) * (cols * rows) as usize {
            return c.record_invalid_value(&format!("{}: NULL value", T::COMMAND));
        }
        T::write(c, to, l, (cols, rows), n, b(t), data)
    })
}

/// One draw of the current context, as GL states it.
///
/// # Safety
/// [`Context::draw`]'s contract (see [`draw`]).
unsafe fn draw_call(call: DrawCall) {
    // SAFETY: passed on from the caller.
    gl((), |c| unsafe { c.draw(call) })
}

/// One indirect draw of the current context.
///
/// # Safety
/// [`Context::draw_indirect`]'s contract: with no indirect buffer bound (compatibility), the
/// commands are client memory; client arrays are readable.
unsafe fn draw_indirect(draw: IndirectDraw) {
    // SAFETY: passed on from the caller.
    gl((), |c| unsafe { c.draw_indirect(draw) })
}

/// One draw of the current context.
///
/// # Safety
/// [`Context::draw`]'s contract: with no element array buffer bound (compatibility), an indexed
/// draw's offset is the address of its indices; client arrays are readable.
unsafe fn draw(
    mode: GLenum,
    first: i32,
    count: i32,
    instances: i32,
    indexed: Option<(GLenum, u64, i32)>,
) {
    gl((), |c| {
        // SAFETY: passed on from the caller.
        unsafe {
            c.draw(DrawCall {
                mode,
                first,
                count,
                instances,
                indexed,
                ..DrawCall::default()
            })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_gl_name_resolves_and_unknown_names_do_not() {
        for name in GL_PROC_NAMES {
            assert!(!lookup(name.as_bytes()).is_null(), "{name}");
        }
        assert!(lookup(b"glNotAFunction").is_null());
        assert_eq!(
            lookup(b"glGenFramebuffersEXT"),
            lookup(b"glGenFramebuffers")
        );
        assert!(lookup(b"glNotAFunctionEXT").is_null());
        assert!(lookup(b"eglGenFramebuffersEXT").is_null());
        assert!(GL_PROC_NAMES.len() > 150, "{}", GL_PROC_NAMES.len());
    }

    #[test]
    fn without_a_current_context_commands_do_nothing_and_queries_return_defaults() {
        // SAFETY: no pointers are passed.
        unsafe {
            glClear(GL_COLOR_BUFFER_BIT);
            assert_eq!(glGetError(), GL_NO_ERROR);
            assert!(glGetString(GL_VERSION).is_null());
            assert_eq!(glCreateProgram(), 0);
        }
    }
}
