//! The GL call-stream fuzzer shared by `tests/gl_fuzz.rs` (proptest) and
//! `fuzz/fuzz_targets/gl_calls.rs` (cargo-fuzz): streams of 20–200 operations, each a tag byte and
//! twelve words, that decode (against the stream's own pools of generated names, shaders and
//! uniform locations) into GL calls through `eglGetProcAddress` on a fresh 3.3 core context with a
//! 32×32 pbuffer. Names come mostly from the pools, sometimes arbitrary; enums mostly valid,
//! sometimes arbitrary.
//!
//! After every call `glGetError` must return a GL error code (0 or 0x0500–0x0507) and never
//! `GL_OUT_OF_MEMORY` unless the call asked for a huge allocation (the C ABI turns a panic into
//! `GL_OUT_OF_MEMORY`). After every stream the validation layer (on under `ARENAGL_VALIDATION=1`,
//! as in CI) must have reported nothing new, and a known-good draw read back with `glReadPixels`
//! must give the expected pixel.
//!
//! Every client pointer the fuzzer passes is sized from the call's parameters as the GL 3.3
//! specification says the implementation reads or writes it (client images from the tracked
//! pack/unpack alignment; the other pixel-store values stay 0), and sits at the very end of its own
//! mapping, right before an inaccessible guard page: an access past what GL allows is a crash, not
//! silent corruption.
//!
//! Variables: `ARENAGL_FUZZ_TRACE=1` (print each call to stderr before making it: the last line
//! before a crash is the culprit), `ARENAGL_FUZZ_ALL=1` (also generate what `KNOWN_FINDINGS`
//! avoids), `ARENAGL_LIB` (the `libarenagl.so` to load; default: the one beside the test binary).
//! A program that links ArenaGL itself (the libFuzzer target, so that coverage counts the
//! library's code) hands its entry points over with [`use_linked`] instead, and nothing is loaded.
//! A call that takes more than 10 s (`ARENAGL_FUZZ_HANG_S`) aborts the process with the stream
//! so far.

use std::ffi::{c_char, c_void, CStr};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

type P = *mut c_void;
type GetProc = unsafe extern "C" fn(*const c_char) -> P;

fn library_path() -> PathBuf {
    if let Some(path) = std::env::var_os("ARENAGL_LIB") {
        return path.into();
    }
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("deps dir");
    let found = [Some(deps), deps.parent()]
        .into_iter()
        .flatten()
        .map(|d| d.join("libarenagl.so"))
        .find(|p| p.exists());
    found.unwrap_or_else(|| panic!("no libarenagl.so beside {}", exe.display()))
}

/// The entry points the fuzzer needs: `eglGetProcAddress` and the validation-error counter.
pub struct Linked {
    pub get_proc: GetProc,
    pub validation_errors: unsafe extern "C" fn() -> u64,
}

static LINKED: OnceLock<Linked> = OnceLock::new();

/// Makes the fuzzer call `linked` (functions of an ArenaGL linked into this program) instead of
/// loading `libarenagl.so`; call it before the first stream.
#[allow(dead_code)]
pub fn use_linked(linked: Linked) {
    let _ = LINKED.set(linked);
}

struct Lib {
    /// Keeps a loaded library loaded (`None` when ArenaGL is linked in).
    _lib: Option<libloading::Library>,
    get_proc: GetProc,
    validation_errors: unsafe extern "C" fn() -> u64,
}

fn lib() -> &'static Lib {
    static LIB: OnceLock<Lib> = OnceLock::new();
    LIB.get_or_init(|| {
        if let Some(l) = LINKED.get() {
            return Lib {
                _lib: None,
                get_proc: l.get_proc,
                validation_errors: l.validation_errors,
            };
        }
        let path = library_path();
        // SAFETY: our own library; it has no constructors.
        let lib = unsafe { libloading::Library::new(&path) }.expect("load libarenagl.so");
        // SAFETY: the exported symbols have exactly these signatures.
        let (get_proc, validation_errors) = unsafe {
            (
                *lib.get::<GetProc>(b"eglGetProcAddress\0").expect("symbol"),
                *lib.get::<unsafe extern "C" fn() -> u64>(b"arenagl_validation_error_count\0")
                    .expect("arenagl_validation_error_count is exported"),
            )
        };
        Lib {
            _lib: Some(lib),
            get_proc,
            validation_errors,
        }
    })
}

/// The function `name` as type `F`.
///
/// # Safety
/// `F` is the C signature of `name`.
unsafe fn f<F: Copy>(name: &CStr) -> F {
    // SAFETY: `name` is NUL-terminated.
    let p = unsafe { (lib().get_proc)(name.as_ptr()) };
    assert!(!p.is_null(), "eglGetProcAddress({name:?}) is NULL");
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<P>());
    // SAFETY: same size; function and data pointers share a representation; the caller vouches
    // for the signature.
    unsafe { std::mem::transmute_copy(&p) }
}

macro_rules! gl {
    ($name:literal : fn($($t:ty),*) $(-> $r:ty)?) => {
        {
            #[allow(unused_unsafe)]
            // SAFETY: the type spelled here is the function's C signature from the GL registry.
            let function = unsafe { f::<unsafe extern "C" fn($($t),*) $(-> $r)?>($name) };
            function
        }
    };
}

/// Validation-layer errors the library's device has reported (its diagnostic export).
fn validation_errors() -> u64 {
    // SAFETY: no arguments.
    unsafe { (lib().validation_errors)() }
}

// ---------------------------------------------------------------------------------------------
// Client memory with a guard page right after it.

extern "C" {
    fn mmap(addr: *mut c_void, len: usize, prot: i32, flags: i32, fd: i32, off: i64)
        -> *mut c_void;
    fn munmap(addr: *mut c_void, len: usize) -> i32;
    fn mprotect(addr: *mut c_void, len: usize, prot: i32) -> i32;
}

const PAGE: usize = 4096;

/// `len` bytes that end exactly where an inaccessible page begins.
struct Guarded {
    base: *mut u8,
    map_len: usize,
    ptr: *mut u8,
    len: usize,
}

impl Guarded {
    fn new(len: usize) -> Self {
        let body = len.div_ceil(PAGE) * PAGE;
        let map_len = body + PAGE;
        // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
        let base = unsafe { mmap(null_mut(), map_len, 3, 0x22, -1, 0) };
        assert!(base as isize != -1, "mmap {map_len}");
        let base = base.cast::<u8>();
        // SAFETY: `base + body` is the last page of the mapping just made.
        let rc = unsafe { mprotect(base.add(body).cast(), PAGE, 0) };
        assert_eq!(rc, 0, "mprotect");
        // SAFETY: `body - len` is within the mapping.
        let ptr = unsafe { base.add(body - len) };
        Guarded {
            base,
            map_len,
            ptr,
            len,
        }
    }

    /// `len` bytes filled from `seed`.
    fn filled(len: usize, seed: u32) -> Self {
        let g = Self::new(len);
        let mut x = seed | 1;
        for i in 0..len {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            // SAFETY: `i < len`, inside the accessible part.
            unsafe { *g.ptr.add(i) = x as u8 };
        }
        g
    }

    fn p<T>(&self) -> *mut T {
        self.ptr.cast()
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: `len` accessible bytes at `ptr`, owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once.
        unsafe { munmap(self.base.cast(), self.map_len) };
    }
}

// ---------------------------------------------------------------------------------------------
// Enums.

const BUFFER_TARGETS: &[u32] = &[
    0x8892, 0x8893, 0x8F36, 0x8F37, 0x88EB, 0x88EC, 0x8C2A, 0x8C8E, 0x8A11,
];
const USAGES: &[u32] = &[
    0x88E0, 0x88E1, 0x88E2, 0x88E4, 0x88E5, 0x88E6, 0x88E8, 0x88E9, 0x88EA,
];
const ATTRIB_TYPES: &[u32] = &[
    0x1400, 0x1401, 0x1402, 0x1403, 0x1404, 0x1405, 0x1406, 0x140A, 0x140B, 0x140C, 0x8D9F, 0x8368,
    0x8C3B,
];
const SHADER_TYPES: &[u32] = &[0x8B31, 0x8B30, 0x8DD9];
const TEX_TARGETS: &[u32] = &[
    0x0DE1, 0x0DE1, 0x0DE1, 0x0DE0, 0x806F, 0x8513, 0x8C1A, 0x84F5, 0x9100, 0x8515,
];
const INTERNAL_FORMATS: &[u32] = &[
    0x8058, 0x8051, 0x8229, 0x822B, 0x8C43, 0x8C41, 0x1908, 0x1907, 0x1903, 0x8227, 0x881A, 0x8814,
    0x822E, 0x81A6, 0x88F0, 0x1902, 0x8CAC, 0x8D7C, 0x8236, 0x8059, 0x8C3A, 0x8057, 0x8056, 0x8D62,
    0x8D48, 0x81A5,
];
/// Pixel-transfer formats and their component counts.
const FORMATS: &[(u32, usize)] = &[
    (0x1903, 1),
    (0x1904, 1),
    (0x1905, 1),
    (0x1906, 1),
    (0x8227, 2),
    (0x1907, 3),
    (0x80E0, 3),
    (0x1908, 4),
    (0x80E1, 4),
    (0x8D94, 1),
    (0x8D95, 1),
    (0x8D96, 1),
    (0x8228, 2),
    (0x8D98, 3),
    (0x8D9A, 3),
    (0x8D99, 4),
    (0x8D9B, 4),
    (0x1902, 1),
    (0x1901, 1),
    (0x84F9, 2),
];
/// Pixel-transfer types: (enum, bytes, packed).
const TYPES: &[(u32, usize, bool)] = &[
    (0x1401, 1, false),
    (0x1400, 1, false),
    (0x1403, 2, false),
    (0x1402, 2, false),
    (0x1405, 4, false),
    (0x1404, 4, false),
    (0x140B, 2, false),
    (0x1406, 4, false),
    (0x8032, 1, true),
    (0x8362, 1, true),
    (0x8363, 2, true),
    (0x8364, 2, true),
    (0x8033, 2, true),
    (0x8365, 2, true),
    (0x8034, 2, true),
    (0x8366, 2, true),
    (0x8035, 4, true),
    (0x8367, 4, true),
    (0x8036, 4, true),
    (0x8368, 4, true),
    (0x84FA, 4, true),
    (0x8C3B, 4, true),
    (0x8C3E, 4, true),
    (0x8DAD, 8, true),
];
const TEX_PARAMS: &[u32] = &[
    0x2801, 0x2800, 0x2802, 0x2803, 0x8072, 0x813A, 0x813B, 0x813C, 0x813D, 0x8501, 0x884C, 0x884D,
    0x8E42, 0x8E43, 0x8E44, 0x8E45, 0x1004, 0x84FE,
];
const TEX_VALUES: &[u32] = &[
    0x2600, 0x2601, 0x2700, 0x2701, 0x2702, 0x2703, 0x2901, 0x812F, 0x812D, 0x8370, 0x884E, 0x1903,
    0x1904, 0x1905, 0x1906, 0, 1, 2, 3, 1000, 0x0200, 0x0203, 0x0207,
];
const FB_TARGETS: &[u32] = &[0x8D40, 0x8D40, 0x8CA8, 0x8CA9];
const ATTACHMENTS: &[u32] = &[
    0x8CE0, 0x8CE0, 0x8CE1, 0x8CE2, 0x8CE7, 0x8CEF, 0x8D00, 0x8D20, 0x821A,
];
const DRAW_BUFFERS: &[u32] = &[0, 0x0405, 0x0404, 0x0402, 0x0400, 0x8CE0, 0x8CE1, 0x8CE3];
const CAPS: &[u32] = &[
    0x0BE2, 0x0B44, 0x0B71, 0x0B90, 0x0C11, 0x8037, 0x2A02, 0x2A01, 0x8F9D, 0x8C89, 0x864F, 0x809D,
    0x809E, 0x809F, 0x80A0, 0x8E51, 0x8642, 0x8DB9, 0x0B20, 0x0B41, 0x0BD0, 0x0BF2, 0x884F, 0x3000,
    0x3007,
];
const BLEND_FACTORS: &[u32] = &[
    0, 1, 0x0300, 0x0301, 0x0302, 0x0303, 0x0304, 0x0305, 0x0306, 0x0307, 0x0308, 0x8001, 0x8002,
    0x8003, 0x8004, 0x8589, 0x88F9, 0x88FA, 0x88FB,
];
const BLEND_EQUATIONS: &[u32] = &[0x8006, 0x8007, 0x8008, 0x800A, 0x800B];
const COMPARE_FUNCS: &[u32] = &[
    0x0200, 0x0201, 0x0202, 0x0203, 0x0204, 0x0205, 0x0206, 0x0207,
];
const STENCIL_OPS: &[u32] = &[0x1E00, 0, 0x1E01, 0x1E02, 0x1E03, 0x150A, 0x8507, 0x8508];
const FACES: &[u32] = &[0x0404, 0x0405, 0x0408];
const MODES: &[u32] = &[0, 1, 2, 3, 4, 4, 4, 5, 6, 0xA, 0xB, 0xC, 0xD];
const INDEX_TYPES: &[u32] = &[0x1401, 0x1403, 0x1405];
const GET_PNAMES: &[u32] = &[
    0x0BA2, 0x0C10, 0x0C22, 0x0C23, 0x0B70, 0x8005, 0x0D3A, 0x0D33, 0x8869, 0x821D, 0x821B, 0x821C,
    0x8B8D, 0x8894, 0x8895, 0x85B5, 0x8069, 0x84E0, 0x8CA6, 0x8CAA, 0x8CA7, 0x0CF5, 0x0D05, 0x0B74,
    0x0B90, 0x0B91, 0x0B92, 0x0B93, 0x0B94, 0x0B95, 0x0B96, 0x0B97, 0x0B98, 0x0BE2, 0x0B71, 0x0B44,
    0x0B40, 0x0B12, 0x0B22, 0x846E, 0x86A2, 0x8CDF, 0x8824, 0x8825, 0x0C02, 0x8E28, 0x8A34, 0x8A2F,
    0x8B9B, 0x8B9A, 0x8A28, 0x8A29, 0x8A2A, 0x8C29, 0x80AA, 0x80A9, 0x0D50, 0x0D52, 0x0D53, 0x0D54,
    0x0D55, 0x0D56, 0x0D57, 0x8B4A, 0x8B49, 0x8DFD,
];
const GET_INDEXED_PNAMES: &[u32] = &[0x8A28, 0x8A29, 0x8A2A, 0x8C8F, 0x8C84, 0x8C85, 0x8E52];
const SHADER_PNAMES: &[u32] = &[0x8B4F, 0x8B80, 0x8B81, 0x8B84, 0x8B88];
const PROGRAM_PNAMES: &[u32] = &[
    0x8B80, 0x8B82, 0x8B83, 0x8B84, 0x8B85, 0x8B86, 0x8B87, 0x8B89, 0x8B8A, 0x8A36, 0x8A35, 0x8C7F,
    0x8C83, 0x8C76,
];
const PIXEL_STORE_ZERO_ONLY: &[u32] = &[
    0x0CF2, 0x0CF3, 0x0CF4, 0x0D02, 0x0D03, 0x0D04, 0x806C, 0x806D, 0x806E, 0x806B,
];

// ---------------------------------------------------------------------------------------------
// GLSL.

const VERTEX_SOURCES: &[&str] = &[
    "#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
    "#version 330 core\nlayout(location = 0) in vec4 pos;\nlayout(location = 1) in vec2 uv;\nlayout(location = 2) in ivec2 ids;\nuniform mat4 mvp;\nuniform mat3 m3;\nuniform mat2x4 m24;\nuniform float weights[4];\nuniform ivec3 iv;\nuniform uvec2 uv2;\nout vec2 v_uv;\nflat out ivec2 v_ids;\nvoid main() { v_uv = uv * weights[1] + vec2(float(iv.x), float(uv2.y)); v_ids = ids; gl_Position = mvp * pos + vec4(m3[0], 0.0) + m24[1]; }\n",
    "#version 330 core\nuniform vec2 offset;\nvoid main() { vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1)); gl_Position = vec4(p + offset, 0.0, 1.0); }\n",
    "#version 330 core\nlayout(location = 0) in vec3 pos;\nlayout(location = 3) in vec4 inst;\nlayout(std140) uniform Block { vec4 a; mat4 b; float c[3]; } blk;\nout vec4 v_color;\nvoid main() { v_color = blk.a + inst; gl_Position = blk.b * vec4(pos, 1.0) + vec4(blk.c[gl_InstanceID % 3]); }\n",
];
const FRAGMENT_SOURCES: &[&str] = &[
    "#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1.0, 0.5, 0.25, 1.0); }\n",
    "#version 330 core\nin vec2 v_uv;\nflat in ivec2 v_ids;\nuniform sampler2D tex;\nuniform vec4 tint;\nout vec4 color;\nvoid main() { color = texture(tex, v_uv) * tint + vec4(v_ids, 0, 0); }\n",
    "#version 330 core\nlayout(location = 0) out vec4 c0;\nlayout(location = 1) out vec4 c1;\nuniform usampler2D utex;\nuniform float gain;\nvoid main() { uvec4 u = texture(utex, gl_FragCoord.xy / 32.0); c0 = vec4(u) * gain; c1 = vec4(gain); if (gain < 0.0) discard; }\n",
    "#version 330 core\nin vec4 v_color;\nlayout(std140) uniform Block { vec4 a; mat4 b; float c[3]; } blk;\nout vec4 color;\nvoid main() { color = v_color * blk.a; }\n",
    "#version 330 core\nuniform int count;\nuniform bool flag;\nuniform vec3 tint;\nout vec4 color;\nvoid main() { color = flag ? vec4(tint, float(count)) : vec4(0.0); }\n",
];
const GARBAGE: &[&str] = &[
    "",
    "void main() {}",
    "#version 150\nvoid main() { gl_Position = vec4(0); }\n",
    "#version 460 core\nlayout(binding = 9) uniform sampler2D s;\nout vec4 c;\nvoid main() { c = texture(s, vec2(0)); }\n",
    "#version 330 core\n#error boom\n",
    "#version 330 core\nuniform float a[100000];\nout vec4 c;\nvoid main() { c = vec4(a[99999]); }\n",
    "#version 330 core\nout vec4 c;\nvoid main() { while (true) {} }\n",
    "#version 330 core\n#define X(a) X(a)\nX(1)\n",
    "\u{1}\u{2}\u{3}{{{{{{{{}}}}",
];
const UNIFORM_NAMES: &[&CStr] = &[
    c"pos",
    c"uv",
    c"ids",
    c"inst",
    c"mvp",
    c"m3",
    c"m24",
    c"weights",
    c"weights[0]",
    c"weights[3]",
    c"weights[4]",
    c"iv",
    c"uv2",
    c"offset",
    c"Block",
    c"blk.a",
    c"Block.a",
    c"Block.c[1]",
    c"tex",
    c"utex",
    c"tint",
    c"gain",
    c"count",
    c"flag",
    c"color",
    c"c0",
    c"c1",
    c"gl_VertexID",
    c"",
    c"x[",
];

// ---------------------------------------------------------------------------------------------
// Decoding.

/// One generated operation: a tag and the words its arguments decode from.
pub type RawOp = (u8, [u32; 12]);

struct Words<'a> {
    w: &'a [u32; 12],
    i: usize,
}

impl Words<'_> {
    fn next(&mut self) -> u32 {
        let v = self.w[self.i % 12];
        let r = if self.i >= 12 {
            v.wrapping_mul(0x9E37_79B9).rotate_left(self.i as u32)
        } else {
            v
        };
        self.i += 1;
        r
    }

    /// Mostly a valid enum from `list`, sometimes an arbitrary value.
    fn en(&mut self, list: &[u32]) -> u32 {
        let w = self.next();
        let v = if w & 0xF == 0xF {
            w >> 4
        } else {
            list[(w >> 4) as usize % list.len()]
        };
        if avoided(v) {
            list[0]
        } else {
            v
        }
    }

    /// An integer in `lo..=hi`, sometimes an arbitrary i32.
    fn int(&mut self, lo: i32, hi: i32) -> i32 {
        let w = self.next();
        if w & 0x1F == 0x1F {
            w.wrapping_mul(0x9E37_79B1) as i32
        } else {
            lo + ((w >> 5) % (hi - lo + 1) as u32) as i32
        }
    }

    /// A count in `lo..=hi`, sometimes anything in -1024..=1024 (larger counts make the
    /// fuzzer's own client arrays too big).
    fn count(&mut self, lo: i32, hi: i32) -> i32 {
        let w = self.next();
        if w & 0x1F == 0x1F {
            (w >> 5) as i32 % 2049 - 1024
        } else {
            lo + ((w >> 5) % (hi - lo + 1) as u32) as i32
        }
    }

    /// An integer in `lo..=hi`, never outside.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() as i64).rem_euclid(hi - lo + 1)
    }

    fn bit(&mut self) -> bool {
        self.next() & 1 == 1
    }

    /// A float: mostly small, sometimes odd.
    fn float(&mut self) -> f32 {
        let w = self.next();
        match w & 7 {
            0 => f32::from_bits(w),
            1 => {
                [f32::NAN, f32::INFINITY, -f32::INFINITY, -0.0, 1e30, -1e30][(w >> 3) as usize % 6]
            }
            _ => ((w >> 3) % 2001) as f32 / 1000.0 - 1.0,
        }
    }

    /// A name from `pool`, sometimes from `other`, 0 or arbitrary.
    fn name(&mut self, pool: &[u32], other: &[u32]) -> u32 {
        let w = self.next();
        match w & 0xF {
            0..=11 if !pool.is_empty() => pool[(w >> 4) as usize % pool.len()],
            13 if !other.is_empty() => other[(w >> 4) as usize % other.len()],
            14 | 15 => w >> 4,
            _ => 0,
        }
    }

    /// A byte size: mostly small, sometimes large, sometimes negative or huge.
    fn size(&mut self) -> i64 {
        let w = self.next();
        match w & 0xF {
            0..=11 => i64::from((w >> 4) % 257),
            12 | 13 => i64::from((w >> 4) % 65537),
            14 => -i64::from((w >> 4) % 3) - 1,
            _ => i64::from(w >> 4) << (w % 40),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The stream's state.

#[derive(Default)]
struct Pools {
    buffers: Vec<u32>,
    vaos: Vec<u32>,
    textures: Vec<u32>,
    /// Textures made for framebuffers (attached only, never bound, while feedback loops are a
    /// known finding).
    fbo_textures: Vec<u32>,
    fbos: Vec<u32>,
    rbos: Vec<u32>,
    shaders: Vec<u32>,
    programs: Vec<u32>,
    locations: Vec<i32>,
    all: Vec<u32>,
    unpack_align: usize,
    pack_align: usize,
    /// Calls that may legitimately report `GL_OUT_OF_MEMORY` (huge requests).
    big: bool,
}

/// Bytes GL reads or writes for a `w`×`h` client image, or `None` for an unknown format/type
/// (the fuzzer then passes NULL).
fn image_bytes(w: i32, h: i32, format: u32, ty: u32, align: usize) -> Option<usize> {
    let comps = FORMATS.iter().find(|f| f.0 == format)?.1;
    let &(_, size, packed) = TYPES.iter().find(|t| t.0 == ty)?;
    if w <= 0 || h <= 0 {
        return Some(0);
    }
    let pixel = if packed { size } else { comps * size };
    let row = pixel.checked_mul(w as usize)?;
    let stride = row.div_ceil(align) * align;
    stride.checked_mul(h as usize - 1)?.checked_add(row)
}

const MAX_CLIENT: usize = 8 << 20;

/// Findings already reported (see `tests/gl_fuzz_regressions.rs`): the values that trigger them
/// are not generated, so the fuzzer keeps finding new things and the suite stays green until
/// they are fixed. `ARENAGL_FUZZ_ALL=1` generates them anyway. Remove an entry when its
/// regression test passes.
const KNOWN_FINDINGS: &[(&str, &[u32])] = &[];

/// Whether the finding `name` is still avoided (see `KNOWN_FINDINGS`).
fn known(name: &str) -> bool {
    !all_findings() && KNOWN_FINDINGS.iter().any(|(n, _)| *n == name)
}

fn all_findings() -> bool {
    static ALL: OnceLock<bool> = OnceLock::new();
    *ALL.get_or_init(|| std::env::var("ARENAGL_FUZZ_ALL").is_ok_and(|v| v == "1"))
}

fn avoided(v: u32) -> bool {
    if all_findings() {
        return false;
    }
    KNOWN_FINDINGS.iter().any(|(_, values)| values.contains(&v))
}

fn hex(v: u32) -> String {
    format!("0x{v:04X}")
}

fn error() -> u32 {
    let get_error = gl!(c"glGetError": fn() -> u32);
    // SAFETY: no arguments.
    unsafe { get_error() }
}

// ---------------------------------------------------------------------------------------------
// Progress for the watchdog and the trace.

static TRACE: OnceLock<bool> = OnceLock::new();
static CALL_STARTED_MS: AtomicU64 = AtomicU64::new(0);
static IN_CALL: AtomicBool = AtomicBool::new(false);
static CASE_LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn epoch() -> Instant {
    static E: OnceLock<Instant> = OnceLock::new();
    *E.get_or_init(Instant::now)
}

/// How long one GL call may run before the watchdog calls it a hang: `ARENAGL_FUZZ_HANG_S`
/// seconds, 10 by default (`scripts/fuzz.sh` allows 30: AddressSanitizer slows glslang's first
/// compile of a GLSL version several times over).
fn hang_limit_s() -> u64 {
    std::env::var("ARENAGL_FUZZ_HANG_S")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&s| s > 0)
        .unwrap_or(10)
}

fn watchdog() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        let limit_s = hang_limit_s();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            let started = CALL_STARTED_MS.load(Ordering::Relaxed);
            let now = epoch().elapsed().as_millis() as u64;
            if IN_CALL.load(Ordering::Relaxed) && now.saturating_sub(started) > limit_s * 1000 {
                let log = CASE_LOG.lock().map(|l| l.join("\n")).unwrap_or_default();
                let _ = writeln!(
                    std::io::stderr(),
                    "HANG: a GL call has run for more than {limit_s} s. The stream so far:\n{log}"
                );
                std::process::abort();
            }
        });
    });
}

/// Records `call` (a C-like rendering of what is about to run) and runs it.
fn call<T>(log: &mut Vec<String>, text: String, run: impl FnOnce() -> T) -> T {
    if *TRACE.get_or_init(|| std::env::var("ARENAGL_FUZZ_TRACE").is_ok_and(|v| v == "1")) {
        // Straight to fd 2: the test harness captures `eprintln!`, and a crash loses what it holds.
        let _ = writeln!(std::io::stderr(), "gl_fuzz: {text}");
    }
    if let Ok(mut l) = CASE_LOG.lock() {
        l.push(text.clone());
    }
    log.push(text);
    CALL_STARTED_MS.store(epoch().elapsed().as_millis() as u64, Ordering::Relaxed);
    IN_CALL.store(true, Ordering::Relaxed);
    let r = run();
    IN_CALL.store(false, Ordering::Relaxed);
    r
}

// ---------------------------------------------------------------------------------------------
// The operations.

/// Decodes and runs one operation. Returns a failure description if a call reported an
/// unexpected error code.
fn step(st: &mut Pools, log: &mut Vec<String>, op: &RawOp) -> Result<(), String> {
    let mut w = Words { w: &op.1, i: 0 };
    let before = log.len();
    st.big = false;
    run_op(st, log, op.0 % 72, &mut w);
    // Drain errors: only GL codes, and OUT_OF_MEMORY only after a huge request.
    for _ in 0..8 {
        let e = error();
        if e == 0 {
            return Ok(());
        }
        if let Some(last) = log.last_mut() {
            let _ = write!(last, "  -> {}", hex(e));
        }
        if !(0x0500..=0x0507).contains(&e) {
            return Err(format!("glGetError returned 0x{e:X}, not a GL error code"));
        }
        if e == 0x0505 && !st.big {
            return Err(format!(
                "GL_OUT_OF_MEMORY without a large request (a panic in the library?) after: {}",
                log[before..].join("; ")
            ));
        }
    }
    Err("glGetError never returned GL_NO_ERROR".into())
}

#[allow(clippy::too_many_lines)]
fn run_op(st: &mut Pools, log: &mut Vec<String>, tag: u8, w: &mut Words) {
    match tag {
        0 => {
            let n = w.count(-1, 4);
            let out = Guarded::new(n.max(0) as usize * 4);
            let which = w.range(0, 4);
            let name = [
                "glGenBuffers",
                "glGenVertexArrays",
                "glGenTextures",
                "glGenFramebuffers",
                "glGenRenderbuffers",
            ][which as usize];
            // SAFETY: `out` holds `n` names.
            call(log, format!("{name}({n}, out)"), || unsafe {
                match which {
                    0 => gl!(c"glGenBuffers": fn(i32, *mut u32))(n, out.p()),
                    1 => gl!(c"glGenVertexArrays": fn(i32, *mut u32))(n, out.p()),
                    2 => gl!(c"glGenTextures": fn(i32, *mut u32))(n, out.p()),
                    3 => gl!(c"glGenFramebuffers": fn(i32, *mut u32))(n, out.p()),
                    _ => gl!(c"glGenRenderbuffers": fn(i32, *mut u32))(n, out.p()),
                }
            });
            let names: Vec<u32> = out
                .bytes()
                .chunks(4)
                .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
                .filter(|&n| n != 0)
                .collect();
            if let Some(last) = log.last_mut() {
                let _ = write!(last, " = {names:?}");
            }
            st.all.extend(&names);
            [
                &mut st.buffers,
                &mut st.vaos,
                &mut st.textures,
                &mut st.fbos,
                &mut st.rbos,
            ][which as usize]
                .extend(names);
        }
        1 => {
            let which = w.range(0, 4) as usize;
            let pool = [&st.buffers, &st.vaos, &st.textures, &st.fbos, &st.rbos][which].clone();
            let n = w.count(-1, 3);
            let list: Vec<u32> = (0..n.max(0)).map(|_| w.name(&pool, &st.all)).collect();
            let buf = Guarded::new(list.len() * 4);
            for (i, v) in list.iter().enumerate() {
                // SAFETY: `i < list.len()`; `buf` holds that many u32s.
                unsafe { *buf.p::<u32>().add(i) = *v };
            }
            let name = [
                "glDeleteBuffers",
                "glDeleteVertexArrays",
                "glDeleteTextures",
                "glDeleteFramebuffers",
                "glDeleteRenderbuffers",
            ][which];
            // SAFETY: `buf` holds `n` names.
            call(log, format!("{name}({n}, {list:?})"), || unsafe {
                let p = buf.p::<u32>().cast_const();
                match which {
                    0 => gl!(c"glDeleteBuffers": fn(i32, *const u32))(n, p),
                    1 => gl!(c"glDeleteVertexArrays": fn(i32, *const u32))(n, p),
                    2 => gl!(c"glDeleteTextures": fn(i32, *const u32))(n, p),
                    3 => gl!(c"glDeleteFramebuffers": fn(i32, *const u32))(n, p),
                    _ => gl!(c"glDeleteRenderbuffers": fn(i32, *const u32))(n, p),
                }
            });
        }
        2 => {
            let t = w.en(BUFFER_TARGETS);
            let b = w.name(&st.buffers, &st.all);
            // SAFETY: scalars only.
            call(log, format!("glBindBuffer({}, {b})", hex(t)), || unsafe {
                gl!(c"glBindBuffer": fn(u32, u32))(t, b)
            });
        }
        3 => {
            let t = w.en(BUFFER_TARGETS);
            let size = w.size();
            let usage = w.en(USAGES);
            let with_data = w.bit() && (0..=MAX_CLIENT as i64).contains(&size);
            st.big = size > 256 << 20;
            let data = with_data.then(|| Guarded::filled(size as usize, w.next()));
            let p = data
                .as_ref()
                .map_or(null(), |d| d.p::<c_void>().cast_const());
            let text = format!(
                "glBufferData({}, {size}, {}, {})",
                hex(t),
                if with_data { "data" } else { "NULL" },
                hex(usage)
            );
            // SAFETY: `p` is NULL or holds `size` bytes.
            call(log, text, || unsafe {
                gl!(c"glBufferData": fn(u32, isize, *const c_void, u32))(t, size as isize, p, usage)
            });
        }
        4 => {
            let t = w.en(BUFFER_TARGETS);
            let off = w.size();
            let size = w.size().min(MAX_CLIENT as i64);
            let data = Guarded::filled(size.max(0) as usize, w.next());
            let text = format!("glBufferSubData({}, {off}, {size}, data)", hex(t));
            // SAFETY: `data` holds `size` bytes (or none for a negative size, which GL rejects).
            call(log, text, || unsafe {
                gl!(c"glBufferSubData": fn(u32, isize, isize, *const c_void))(
                    t,
                    off as isize,
                    size as isize,
                    data.p(),
                )
            });
        }
        5 => {
            let t = w.en(BUFFER_TARGETS);
            let off = w.size();
            let len = w.size();
            let access = if w.next() & 7 == 7 {
                w.next()
            } else {
                w.next() & 0x3F
            };
            let text = format!(
                "glMapBufferRange({}, {off}, {len}, {})",
                hex(t),
                hex(access)
            );
            // SAFETY: scalars.
            let p = call(log, text, || unsafe {
                gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> P)(
                    t,
                    off as isize,
                    len as isize,
                    access,
                )
            });
            if !p.is_null() && len > 0 {
                let p = p.cast::<u8>();
                // SAFETY: a successful map gives `len` accessible bytes; read first and last,
                // write them back when the map allows writing.
                unsafe {
                    let a = p.read_volatile();
                    let z = p.add(len as usize - 1).read_volatile();
                    if access & 2 != 0 {
                        p.write_volatile(a.wrapping_add(1));
                        p.add(len as usize - 1).write_volatile(z.wrapping_add(1));
                        std::ptr::write_bytes(p, 0x5A, (len as usize).min(1 << 16));
                    }
                }
                if let Some(last) = log.last_mut() {
                    last.push_str(" (touched)");
                }
            }
        }
        6 => {
            let t = w.en(BUFFER_TARGETS);
            let access = w.en(&[0x88B8, 0x88B9, 0x88BA]);
            let mut size = 0i64;
            // SAFETY: `size` is a local i64.
            unsafe {
                gl!(c"glGetBufferParameteri64v": fn(u32, u32, *mut i64))(t, 0x8764, &mut size)
            };
            let _ = error();
            // SAFETY: scalars.
            let p = call(
                log,
                format!("glMapBuffer({}, {})", hex(t), hex(access)),
                || unsafe { gl!(c"glMapBuffer": fn(u32, u32) -> P)(t, access) },
            );
            if !p.is_null() && size > 0 {
                // SAFETY: the whole buffer (`size` bytes, queried above) is mapped.
                unsafe {
                    let p = p.cast::<u8>();
                    let _ = p.read_volatile();
                    let _ = p.add(size as usize - 1).read_volatile();
                    if access != 0x88B8 {
                        p.add(size as usize - 1).write_volatile(7);
                    }
                }
            }
        }
        7 => {
            let t = w.en(BUFFER_TARGETS);
            if w.bit() {
                // SAFETY: scalars.
                call(log, format!("glUnmapBuffer({})", hex(t)), || unsafe {
                    gl!(c"glUnmapBuffer": fn(u32) -> u8)(t)
                });
            } else {
                let (off, len) = (w.size(), w.size());
                // SAFETY: scalars.
                call(
                    log,
                    format!("glFlushMappedBufferRange({}, {off}, {len})", hex(t)),
                    || unsafe {
                        gl!(c"glFlushMappedBufferRange": fn(u32, isize, isize))(
                            t,
                            off as isize,
                            len as isize,
                        )
                    },
                );
            }
        }
        8 => {
            let (r, wr) = (w.en(BUFFER_TARGETS), w.en(BUFFER_TARGETS));
            let (ro, wo, size) = (w.size(), w.size(), w.size());
            let text = format!(
                "glCopyBufferSubData({}, {}, {ro}, {wo}, {size})",
                hex(r),
                hex(wr)
            );
            // SAFETY: scalars.
            call(log, text, || unsafe {
                gl!(c"glCopyBufferSubData": fn(u32, u32, isize, isize, isize))(
                    r,
                    wr,
                    ro as isize,
                    wo as isize,
                    size as isize,
                )
            });
        }
        9 => {
            let t = w.en(BUFFER_TARGETS);
            let off = w.size();
            let size = w.size().min(MAX_CLIENT as i64);
            let out = Guarded::new(size.max(0) as usize);
            // SAFETY: `out` holds `size` bytes.
            call(
                log,
                format!("glGetBufferSubData({}, {off}, {size}, out)", hex(t)),
                || unsafe {
                    gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void))(
                        t,
                        off as isize,
                        size as isize,
                        out.p(),
                    )
                },
            );
        }
        10 => {
            let t = w.en(&[0x8A11, 0x8C8E, 0x8892]);
            let i = w.int(0, 40) as u32;
            let b = w.name(&st.buffers, &st.all);
            if w.bit() {
                // SAFETY: scalars.
                call(
                    log,
                    format!("glBindBufferBase({}, {i}, {b})", hex(t)),
                    || unsafe { gl!(c"glBindBufferBase": fn(u32, u32, u32))(t, i, b) },
                );
            } else {
                let (off, size) = (w.size(), w.size());
                // SAFETY: scalars.
                call(
                    log,
                    format!("glBindBufferRange({}, {i}, {b}, {off}, {size})", hex(t)),
                    || unsafe {
                        gl!(c"glBindBufferRange": fn(u32, u32, u32, isize, isize))(
                            t,
                            i,
                            b,
                            off as isize,
                            size as isize,
                        )
                    },
                );
            }
        }
        11 | 12 => {
            let v = w.name(&st.vaos, &st.all);
            // SAFETY: scalars.
            call(log, format!("glBindVertexArray({v})"), || unsafe {
                gl!(c"glBindVertexArray": fn(u32))(v)
            });
        }
        13 => {
            let i = w.int(0, 17) as u32;
            if w.bit() {
                // SAFETY: scalars.
                call(log, format!("glEnableVertexAttribArray({i})"), || unsafe {
                    gl!(c"glEnableVertexAttribArray": fn(u32))(i)
                });
            } else {
                // SAFETY: scalars.
                call(log, format!("glDisableVertexAttribArray({i})"), || unsafe {
                    gl!(c"glDisableVertexAttribArray": fn(u32))(i)
                });
            }
        }
        14 => {
            let i = w.int(0, 17) as u32;
            let size = if w.next() & 7 == 0 {
                w.en(&[0x80E1, 0, 5]) as i32
            } else {
                w.int(1, 4)
            };
            let ty = w.en(ATTRIB_TYPES);
            let norm = w.bit() as u8;
            let stride = w.int(0, 64);
            let off = w.size().max(0) as usize;
            let integer = w.bit();
            if !integer {
                let text = format!(
                    "glVertexAttribPointer({i}, {size}, {}, {norm}, {stride}, {off})",
                    hex(ty)
                );
                // SAFETY: core profile: the pointer is an offset into the bound buffer, never read.
                call(log, text, || unsafe {
                    gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void))(
                        i,
                        size,
                        ty,
                        norm,
                        stride,
                        off as *const c_void,
                    )
                });
            } else {
                let text = format!(
                    "glVertexAttribIPointer({i}, {size}, {}, {stride}, {off})",
                    hex(ty)
                );
                // SAFETY: as above.
                call(log, text, || unsafe {
                    gl!(c"glVertexAttribIPointer": fn(u32, i32, u32, i32, *const c_void))(
                        i,
                        size,
                        ty,
                        stride,
                        off as *const c_void,
                    )
                });
            }
        }
        15 => {
            let i = w.int(0, 17) as u32;
            match w.range(0, 3) {
                0 => {
                    let d = w.int(0, 3) as u32;
                    // SAFETY: scalars.
                    call(log, format!("glVertexAttribDivisor({i}, {d})"), || unsafe {
                        gl!(c"glVertexAttribDivisor": fn(u32, u32))(i, d)
                    });
                }
                1 => {
                    let v = [w.float(), w.float(), w.float(), w.float()];
                    // SAFETY: scalars.
                    call(log, format!("glVertexAttrib4f({i}, {v:?})"), || unsafe {
                        gl!(c"glVertexAttrib4f": fn(u32, f32, f32, f32, f32))(
                            i, v[0], v[1], v[2], v[3],
                        )
                    });
                }
                2 => {
                    let v = [w.next(), w.next(), w.next(), w.next()];
                    // SAFETY: scalars.
                    call(log, format!("glVertexAttribI4ui({i}, {v:?})"), || unsafe {
                        gl!(c"glVertexAttribI4ui": fn(u32, u32, u32, u32, u32))(
                            i, v[0], v[1], v[2], v[3],
                        )
                    });
                }
                _ => {
                    let v = Guarded::filled(16, w.next());
                    // SAFETY: `v` holds 4 floats.
                    call(
                        log,
                        format!("glVertexAttrib4fv({i}, [4 floats])"),
                        || unsafe { gl!(c"glVertexAttrib4fv": fn(u32, *const f32))(i, v.p()) },
                    );
                }
            }
        }
        16 | 17 => {
            let ty = w.en(SHADER_TYPES);
            // SAFETY: scalars.
            let s = call(log, format!("glCreateShader({})", hex(ty)), || unsafe {
                gl!(c"glCreateShader": fn(u32) -> u32)(ty)
            });
            if let Some(last) = log.last_mut() {
                let _ = write!(last, " = {s}");
            }
            if s != 0 {
                st.shaders.push(s);
                st.all.push(s);
            }
            let s = if w.next() & 7 == 0 {
                w.name(&st.shaders, &st.all)
            } else {
                s
            };
            shader_source(log, w, s, ty);
            // SAFETY: scalars.
            call(log, format!("glCompileShader({s})"), || unsafe {
                gl!(c"glCompileShader": fn(u32))(s)
            });
        }
        18 => {
            let p = w.name(&st.programs, &st.all);
            let s = w.name(&st.shaders, &st.all);
            match w.range(0, 2) {
                0 => {
                    // SAFETY: scalars.
                    let p = call(log, "glCreateProgram()".into(), || unsafe {
                        gl!(c"glCreateProgram": fn() -> u32)()
                    });
                    if let Some(last) = log.last_mut() {
                        let _ = write!(last, " = {p}");
                    }
                    if p != 0 {
                        st.programs.push(p);
                        st.all.push(p);
                    }
                }
                // SAFETY: scalars.
                1 => call(log, format!("glAttachShader({p}, {s})"), || unsafe {
                    gl!(c"glAttachShader": fn(u32, u32))(p, s)
                }),
                // SAFETY: scalars.
                _ => call(log, format!("glDetachShader({p}, {s})"), || unsafe {
                    gl!(c"glDetachShader": fn(u32, u32))(p, s)
                }),
            }
        }
        19 => {
            let p = w.name(&st.programs, &st.all);
            // SAFETY: scalars.
            call(log, format!("glLinkProgram({p})"), || unsafe {
                gl!(c"glLinkProgram": fn(u32))(p)
            });
        }
        20 => {
            let p = w.name(&st.programs, &st.all);
            // SAFETY: scalars.
            call(log, format!("glUseProgram({p})"), || unsafe {
                gl!(c"glUseProgram": fn(u32))(p)
            });
            st.locations.clear();
        }
        21 => {
            let p = w.name(&st.programs, &st.all);
            let n = UNIFORM_NAMES[w.range(0, UNIFORM_NAMES.len() as i64 - 1) as usize];
            let which = w.range(0, 3);
            let fname = [
                "glGetUniformLocation",
                "glGetAttribLocation",
                "glGetFragDataLocation",
                "glGetUniformBlockIndex",
            ][which as usize];
            // SAFETY: `n` is NUL-terminated.
            let loc = call(log, format!("{fname}({p}, {n:?})"), || unsafe {
                match which {
                    0 => gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32)(p, n.as_ptr()),
                    1 => gl!(c"glGetAttribLocation": fn(u32, *const c_char) -> i32)(p, n.as_ptr()),
                    2 => {
                        gl!(c"glGetFragDataLocation": fn(u32, *const c_char) -> i32)(p, n.as_ptr())
                    }
                    _ => {
                        gl!(c"glGetUniformBlockIndex": fn(u32, *const c_char) -> u32)(p, n.as_ptr())
                            as i32
                    }
                }
            });
            if let Some(last) = log.last_mut() {
                let _ = write!(last, " = {loc}");
            }
            if which == 0 {
                st.locations.push(loc);
            }
        }
        22 => {
            let l = location(st, w);
            let comps = w.range(1, 4);
            let kind = w.range(0, 2);
            let v = [w.next(), w.next(), w.next(), w.next()];
            let f = v.map(|x| x as f32 / 1e6);
            let i = v.map(|x| x as i32);
            let text = format!(
                "glUniform{comps}{}({l}, {:?})",
                ["f", "i", "ui"][kind as usize],
                &v[..comps as usize]
            );
            // SAFETY: scalars.
            call(log, text, || unsafe {
                match (kind, comps) {
                    (0, 1) => gl!(c"glUniform1f": fn(i32, f32))(l, f[0]),
                    (0, 2) => gl!(c"glUniform2f": fn(i32, f32, f32))(l, f[0], f[1]),
                    (0, 3) => gl!(c"glUniform3f": fn(i32, f32, f32, f32))(l, f[0], f[1], f[2]),
                    (0, _) => {
                        gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32))(l, f[0], f[1], f[2], f[3])
                    }
                    (1, 1) => gl!(c"glUniform1i": fn(i32, i32))(l, i[0]),
                    (1, 2) => gl!(c"glUniform2i": fn(i32, i32, i32))(l, i[0], i[1]),
                    (1, 3) => gl!(c"glUniform3i": fn(i32, i32, i32, i32))(l, i[0], i[1], i[2]),
                    (1, _) => {
                        gl!(c"glUniform4i": fn(i32, i32, i32, i32, i32))(l, i[0], i[1], i[2], i[3])
                    }
                    (_, 1) => gl!(c"glUniform1ui": fn(i32, u32))(l, v[0]),
                    (_, 2) => gl!(c"glUniform2ui": fn(i32, u32, u32))(l, v[0], v[1]),
                    (_, 3) => gl!(c"glUniform3ui": fn(i32, u32, u32, u32))(l, v[0], v[1], v[2]),
                    (_, _) => {
                        gl!(c"glUniform4ui": fn(i32, u32, u32, u32, u32))(l, v[0], v[1], v[2], v[3])
                    }
                }
            });
        }
        23 => {
            let l = location(st, w);
            let comps = w.range(1, 4) as i32;
            let kind = w.range(0, 2);
            let n = w.count(-1, 6);
            let no_data = w.next() & 7 == 0;
            let data = Guarded::filled((n.max(0) * comps) as usize * 4, w.next());
            let p: *const u32 = if no_data {
                null()
            } else {
                data.p::<u32>().cast_const()
            };
            let text = format!(
                "glUniform{comps}{}v({l}, {n}, {})",
                ["f", "i", "ui"][kind as usize],
                if no_data { "NULL" } else { "data" }
            );
            // SAFETY: `p` is NULL or holds `n × comps` values; all three element types are 4 bytes.
            call(log, text, || unsafe {
                let fv = p.cast::<f32>();
                let iv = p.cast::<i32>();
                match (kind, comps) {
                    (0, 1) => gl!(c"glUniform1fv": fn(i32, i32, *const f32))(l, n, fv),
                    (0, 2) => gl!(c"glUniform2fv": fn(i32, i32, *const f32))(l, n, fv),
                    (0, 3) => gl!(c"glUniform3fv": fn(i32, i32, *const f32))(l, n, fv),
                    (0, _) => gl!(c"glUniform4fv": fn(i32, i32, *const f32))(l, n, fv),
                    (1, 1) => gl!(c"glUniform1iv": fn(i32, i32, *const i32))(l, n, iv),
                    (1, 2) => gl!(c"glUniform2iv": fn(i32, i32, *const i32))(l, n, iv),
                    (1, 3) => gl!(c"glUniform3iv": fn(i32, i32, *const i32))(l, n, iv),
                    (1, _) => gl!(c"glUniform4iv": fn(i32, i32, *const i32))(l, n, iv),
                    (_, 1) => gl!(c"glUniform1uiv": fn(i32, i32, *const u32))(l, n, p),
                    (_, 2) => gl!(c"glUniform2uiv": fn(i32, i32, *const u32))(l, n, p),
                    (_, 3) => gl!(c"glUniform3uiv": fn(i32, i32, *const u32))(l, n, p),
                    (_, _) => gl!(c"glUniform4uiv": fn(i32, i32, *const u32))(l, n, p),
                }
            });
        }
        24 => {
            let l = location(st, w);
            let shape = w.range(0, 8) as usize;
            let (cols, rows) = [
                (2, 2),
                (3, 3),
                (4, 4),
                (2, 3),
                (3, 2),
                (2, 4),
                (4, 2),
                (3, 4),
                (4, 3),
            ][shape];
            let n = w.count(-1, 4);
            let t = (w.next() % 3) as u8;
            let no_data = w.next() & 7 == 0;
            let data = Guarded::filled((n.max(0) * cols * rows) as usize * 4, w.next());
            let p: *const f32 = if no_data {
                null()
            } else {
                data.p::<f32>().cast_const()
            };
            let text = format!(
                "glUniformMatrix{cols}x{rows}fv({l}, {n}, {t}, {})",
                if no_data { "NULL" } else { "data" }
            );
            // SAFETY: `p` is NULL or holds `n` matrices.
            call(log, text, || unsafe {
                match shape {
                    0 => gl!(c"glUniformMatrix2fv": fn(i32, i32, u8, *const f32))(l, n, t, p),
                    1 => gl!(c"glUniformMatrix3fv": fn(i32, i32, u8, *const f32))(l, n, t, p),
                    2 => gl!(c"glUniformMatrix4fv": fn(i32, i32, u8, *const f32))(l, n, t, p),
                    3 => gl!(c"glUniformMatrix2x3fv": fn(i32, i32, u8, *const f32))(l, n, t, p),
                    4 => gl!(c"glUniformMatrix3x2fv": fn(i32, i32, u8, *const f32))(l, n, t, p),
                    5 => gl!(c"glUniformMatrix2x4fv": fn(i32, i32, u8, *const f32))(l, n, t, p),
                    6 => gl!(c"glUniformMatrix4x2fv": fn(i32, i32, u8, *const f32))(l, n, t, p),
                    7 => gl!(c"glUniformMatrix3x4fv": fn(i32, i32, u8, *const f32))(l, n, t, p),
                    _ => gl!(c"glUniformMatrix4x3fv": fn(i32, i32, u8, *const f32))(l, n, t, p),
                }
            });
        }
        25 => program_queries(st, log, w),
        26 => {
            let p = w.name(&st.programs, &st.all);
            let i = w.int(0, 17) as u32;
            let n = UNIFORM_NAMES[w.range(0, UNIFORM_NAMES.len() as i64 - 1) as usize];
            match w.range(0, 2) {
                // SAFETY: `n` is NUL-terminated.
                0 => call(
                    log,
                    format!("glBindAttribLocation({p}, {i}, {n:?})"),
                    || unsafe {
                        gl!(c"glBindAttribLocation": fn(u32, u32, *const c_char))(p, i, n.as_ptr())
                    },
                ),
                // SAFETY: `n` is NUL-terminated.
                1 => call(
                    log,
                    format!("glBindFragDataLocation({p}, {i}, {n:?})"),
                    || unsafe {
                        gl!(c"glBindFragDataLocation": fn(u32, u32, *const c_char))(
                            p,
                            i,
                            n.as_ptr(),
                        )
                    },
                ),
                _ => {
                    let b = w.int(0, 40) as u32;
                    // SAFETY: scalars.
                    call(
                        log,
                        format!("glUniformBlockBinding({p}, {i}, {b})"),
                        || unsafe { gl!(c"glUniformBlockBinding": fn(u32, u32, u32))(p, i % 3, b) },
                    )
                }
            }
        }
        27 => {
            if w.bit() {
                let s = w.name(&st.shaders, &st.all);
                // SAFETY: scalars.
                call(log, format!("glDeleteShader({s})"), || unsafe {
                    gl!(c"glDeleteShader": fn(u32))(s)
                });
            } else {
                let p = w.name(&st.programs, &st.all);
                // SAFETY: scalars.
                call(log, format!("glDeleteProgram({p})"), || unsafe {
                    gl!(c"glDeleteProgram": fn(u32))(p)
                });
            }
        }
        28 => {
            let (p, v) = (w.name(&st.programs, &st.all), w.name(&st.shaders, &st.all));
            // SAFETY: scalars.
            call(
                log,
                format!("glValidateProgram({p}); glIsShader({v})"),
                || unsafe {
                    gl!(c"glValidateProgram": fn(u32))(p);
                    gl!(c"glIsShader": fn(u32) -> u8)(v);
                },
            );
        }
        29 => {
            let unit = if w.next() & 7 == 0 {
                w.next()
            } else {
                0x84C0 + w.range(0, 3) as u32
            };
            let t = w.en(TEX_TARGETS);
            let tex = w.name(&st.textures, &st.all);
            // SAFETY: scalars.
            call(
                log,
                format!(
                    "glActiveTexture({}); glBindTexture({}, {tex})",
                    hex(unit),
                    hex(t)
                ),
                || unsafe {
                    gl!(c"glActiveTexture": fn(u32))(unit);
                    gl!(c"glBindTexture": fn(u32, u32))(t, tex);
                },
            );
        }
        30 => tex_image(st, log, w, false),
        31 => tex_image(st, log, w, true),
        32 => {
            let t = w.en(TEX_TARGETS);
            let p = w.en(TEX_PARAMS);
            let v = w.en(TEX_VALUES);
            let vals = Guarded::filled(16, w.next());
            match w.range(0, 3) {
                // SAFETY: scalars.
                0 => call(
                    log,
                    format!("glTexParameteri({}, {}, {})", hex(t), hex(p), hex(v)),
                    || unsafe { gl!(c"glTexParameteri": fn(u32, u32, i32))(t, p, v as i32) },
                ),
                1 => {
                    let fv = w.float();
                    // SAFETY: scalars.
                    call(
                        log,
                        format!("glTexParameterf({}, {}, {fv})", hex(t), hex(p)),
                        || unsafe { gl!(c"glTexParameterf": fn(u32, u32, f32))(t, p, fv) },
                    )
                }
                // SAFETY: `vals` holds 4 values (the most any parameter takes).
                2 => call(
                    log,
                    format!("glTexParameteriv({}, {}, [4])", hex(t), hex(p)),
                    || unsafe {
                        gl!(c"glTexParameteriv": fn(u32, u32, *const i32))(t, p, vals.p())
                    },
                ),
                // SAFETY: as above.
                _ => call(
                    log,
                    format!("glTexParameterfv({}, {}, [4])", hex(t), hex(p)),
                    || unsafe {
                        gl!(c"glTexParameterfv": fn(u32, u32, *const f32))(t, p, vals.p())
                    },
                ),
            }
        }
        33 => {
            let t = w.en(TEX_TARGETS);
            // SAFETY: scalars.
            call(log, format!("glGenerateMipmap({})", hex(t)), || unsafe {
                gl!(c"glGenerateMipmap": fn(u32))(t)
            });
        }
        34 | 35 => {
            let t = w.en(FB_TARGETS);
            let fb = w.name(&st.fbos, &st.all);
            // SAFETY: scalars.
            call(
                log,
                format!("glBindFramebuffer({}, {fb})", hex(t)),
                || unsafe { gl!(c"glBindFramebuffer": fn(u32, u32))(t, fb) },
            );
        }
        36 => {
            let t = w.en(FB_TARGETS);
            let a = w.en(ATTACHMENTS);
            let tt = w.en(TEX_TARGETS);
            let tex = if known("feedback_loops_use_the_wrong_image_layout") {
                w.name(&st.fbo_textures, &st.fbo_textures)
            } else {
                w.name(&st.textures, &st.all)
            };
            let level = w.int(0, 3);
            let text = format!(
                "glFramebufferTexture2D({}, {}, {}, {tex}, {level})",
                hex(t),
                hex(a),
                hex(tt)
            );
            // SAFETY: scalars.
            call(log, text, || unsafe {
                gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32))(t, a, tt, tex, level)
            });
        }
        37 => {
            let t = w.en(&[0x8D41]);
            let rb = w.name(&st.rbos, &st.all);
            // SAFETY: scalars.
            call(
                log,
                format!("glBindRenderbuffer({}, {rb})", hex(t)),
                || unsafe { gl!(c"glBindRenderbuffer": fn(u32, u32))(t, rb) },
            );
        }
        38 => {
            let t = w.en(&[0x8D41]);
            let f = w.en(INTERNAL_FORMATS);
            let (wd, ht) = (w.int(0, 64), w.int(0, 64));
            st.big = i64::from(wd) * i64::from(ht) > 1 << 24;
            if w.bit() {
                // SAFETY: scalars.
                call(
                    log,
                    format!("glRenderbufferStorage({}, {}, {wd}, {ht})", hex(t), hex(f)),
                    || unsafe {
                        gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32))(t, f, wd, ht)
                    },
                );
            } else {
                let s = w.int(0, 8);
                // SAFETY: scalars.
                call(
                    log,
                    format!(
                        "glRenderbufferStorageMultisample({}, {s}, {}, {wd}, {ht})",
                        hex(t),
                        hex(f)
                    ),
                    || unsafe {
                        gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32))(
                            t, s, f, wd, ht,
                        )
                    },
                );
            }
        }
        39 => {
            let t = w.en(FB_TARGETS);
            let a = w.en(ATTACHMENTS);
            let rt = w.en(&[0x8D41]);
            let rb = w.name(&st.rbos, &st.all);
            // SAFETY: scalars.
            call(
                log,
                format!(
                    "glFramebufferRenderbuffer({}, {}, {}, {rb})",
                    hex(t),
                    hex(a),
                    hex(rt)
                ),
                || unsafe {
                    gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32))(t, a, rt, rb)
                },
            );
        }
        40 => match w.range(0, 3) {
            0 => {
                let t = w.en(FB_TARGETS);
                // SAFETY: scalars.
                call(
                    log,
                    format!("glCheckFramebufferStatus({})", hex(t)),
                    || unsafe { gl!(c"glCheckFramebufferStatus": fn(u32) -> u32)(t) },
                );
            }
            1 => {
                let n = w.count(-1, 4);
                let list: Vec<u32> = (0..n.max(0)).map(|_| w.en(DRAW_BUFFERS)).collect();
                let buf = Guarded::new(list.len() * 4);
                for (i, v) in list.iter().enumerate() {
                    // SAFETY: `i < list.len()`.
                    unsafe { *buf.p::<u32>().add(i) = *v };
                }
                // SAFETY: `buf` holds `n` enums.
                call(log, format!("glDrawBuffers({n}, {list:x?})"), || unsafe {
                    gl!(c"glDrawBuffers": fn(i32, *const u32))(n, buf.p())
                });
            }
            2 => {
                let b = w.en(DRAW_BUFFERS);
                // SAFETY: scalars.
                call(log, format!("glDrawBuffer({})", hex(b)), || unsafe {
                    gl!(c"glDrawBuffer": fn(u32))(b)
                });
            }
            _ => {
                let b = w.en(DRAW_BUFFERS);
                // SAFETY: scalars.
                call(log, format!("glReadBuffer({})", hex(b)), || unsafe {
                    gl!(c"glReadBuffer": fn(u32))(b)
                });
            }
        },
        41 | 42 => {
            let cap = w.en(CAPS);
            if w.bit() {
                // SAFETY: scalars.
                call(log, format!("glEnable({})", hex(cap)), || unsafe {
                    gl!(c"glEnable": fn(u32))(cap)
                });
            } else {
                // SAFETY: scalars.
                call(log, format!("glDisable({})", hex(cap)), || unsafe {
                    gl!(c"glDisable": fn(u32))(cap)
                });
            }
        }
        43 => match w.range(0, 4) {
            0 => {
                let (s, d) = (w.en(BLEND_FACTORS), w.en(BLEND_FACTORS));
                // SAFETY: scalars.
                call(
                    log,
                    format!("glBlendFunc({}, {})", hex(s), hex(d)),
                    || unsafe { gl!(c"glBlendFunc": fn(u32, u32))(s, d) },
                );
            }
            1 => {
                let v = [
                    w.en(BLEND_FACTORS),
                    w.en(BLEND_FACTORS),
                    w.en(BLEND_FACTORS),
                    w.en(BLEND_FACTORS),
                ];
                // SAFETY: scalars.
                call(log, format!("glBlendFuncSeparate({v:x?})"), || unsafe {
                    gl!(c"glBlendFuncSeparate": fn(u32, u32, u32, u32))(v[0], v[1], v[2], v[3])
                });
            }
            2 => {
                let (a, b) = (w.en(BLEND_EQUATIONS), w.en(BLEND_EQUATIONS));
                // SAFETY: scalars.
                call(
                    log,
                    format!("glBlendEquationSeparate({}, {})", hex(a), hex(b)),
                    || unsafe { gl!(c"glBlendEquationSeparate": fn(u32, u32))(a, b) },
                );
            }
            3 => {
                let v = [w.float(), w.float(), w.float(), w.float()];
                // SAFETY: scalars.
                call(log, format!("glBlendColor({v:?})"), || unsafe {
                    gl!(c"glBlendColor": fn(f32, f32, f32, f32))(v[0], v[1], v[2], v[3])
                });
            }
            _ => {
                let e = w.en(BLEND_EQUATIONS);
                // SAFETY: scalars.
                call(log, format!("glBlendEquation({})", hex(e)), || unsafe {
                    gl!(c"glBlendEquation": fn(u32))(e)
                });
            }
        },
        44 => match w.range(0, 3) {
            0 => {
                let f = w.en(COMPARE_FUNCS);
                // SAFETY: scalars.
                call(log, format!("glDepthFunc({})", hex(f)), || unsafe {
                    gl!(c"glDepthFunc": fn(u32))(f)
                });
            }
            1 => {
                let m = (w.next() % 3) as u8;
                // SAFETY: scalars.
                call(log, format!("glDepthMask({m})"), || unsafe {
                    gl!(c"glDepthMask": fn(u8))(m)
                });
            }
            2 => {
                let (n, f) = (depth(w.float()), depth(w.float()));
                // SAFETY: scalars.
                call(log, format!("glDepthRange({n}, {f})"), || unsafe {
                    gl!(c"glDepthRange": fn(f64, f64))(n, f)
                });
            }
            _ => {
                let d = depth(w.float());
                // SAFETY: scalars.
                call(log, format!("glClearDepth({d})"), || unsafe {
                    gl!(c"glClearDepth": fn(f64))(d)
                });
            }
        },
        45 => match w.range(0, 2) {
            0 => {
                let (face, func, r, m) =
                    (w.en(FACES), w.en(COMPARE_FUNCS), w.int(-2, 300), w.next());
                let text = format!(
                    "glStencilFuncSeparate({}, {}, {r}, {m:#x})",
                    hex(face),
                    hex(func)
                );
                // SAFETY: scalars.
                call(log, text, || unsafe {
                    gl!(c"glStencilFuncSeparate": fn(u32, u32, i32, u32))(face, func, r, m)
                });
            }
            1 => {
                let v = [
                    w.en(FACES),
                    w.en(STENCIL_OPS),
                    w.en(STENCIL_OPS),
                    w.en(STENCIL_OPS),
                ];
                // SAFETY: scalars.
                call(log, format!("glStencilOpSeparate({v:x?})"), || unsafe {
                    gl!(c"glStencilOpSeparate": fn(u32, u32, u32, u32))(v[0], v[1], v[2], v[3])
                });
            }
            _ => {
                let (face, m) = (w.en(FACES), w.next());
                // SAFETY: scalars.
                call(
                    log,
                    format!("glStencilMaskSeparate({}, {m:#x})", hex(face)),
                    || unsafe { gl!(c"glStencilMaskSeparate": fn(u32, u32))(face, m) },
                );
            }
        },
        46 => match w.range(0, 7) {
            0 => {
                let m = w.en(FACES);
                // SAFETY: scalars.
                call(log, format!("glCullFace({})", hex(m)), || unsafe {
                    gl!(c"glCullFace": fn(u32))(m)
                });
            }
            1 => {
                let m = w.en(&[0x0900, 0x0901]);
                // SAFETY: scalars.
                call(log, format!("glFrontFace({})", hex(m)), || unsafe {
                    gl!(c"glFrontFace": fn(u32))(m)
                });
            }
            2 => {
                let (face, m) = (w.en(FACES), w.en(&[0x1B00, 0x1B01, 0x1B02]));
                // SAFETY: scalars.
                call(
                    log,
                    format!("glPolygonMode({}, {})", hex(face), hex(m)),
                    || unsafe { gl!(c"glPolygonMode": fn(u32, u32))(face, m) },
                );
            }
            3 => {
                let (a, b) = (w.float(), w.float());
                // SAFETY: scalars.
                call(log, format!("glPolygonOffset({a}, {b})"), || unsafe {
                    gl!(c"glPolygonOffset": fn(f32, f32))(a, b)
                });
            }
            4 => {
                let a = w.float() * 4.0;
                // SAFETY: scalars.
                call(log, format!("glLineWidth({a})"), || unsafe {
                    gl!(c"glLineWidth": fn(f32))(a)
                });
            }
            5 => {
                let a = w.float() * 4.0;
                // SAFETY: scalars.
                call(log, format!("glPointSize({a})"), || unsafe {
                    gl!(c"glPointSize": fn(f32))(a)
                });
            }
            6 => {
                let m = w.en(&[0x8E4D, 0x8E4E]);
                // SAFETY: scalars.
                call(log, format!("glProvokingVertex({})", hex(m)), || unsafe {
                    gl!(c"glProvokingVertex": fn(u32))(m)
                });
            }
            _ => {
                let i = w.next();
                // SAFETY: scalars.
                call(log, format!("glPrimitiveRestartIndex({i:#x})"), || unsafe {
                    gl!(c"glPrimitiveRestartIndex": fn(u32))(i)
                });
            }
        },
        47 => {
            let v = [w.int(-8, 40), w.int(-8, 40), w.int(-1, 64), w.int(-1, 64)];
            let viewport = w.bit();
            if viewport {
                // SAFETY: scalars.
                call(log, format!("glViewport({v:?})"), || unsafe {
                    gl!(c"glViewport": fn(i32, i32, i32, i32))(v[0], v[1], v[2], v[3])
                });
            } else {
                // SAFETY: scalars.
                call(log, format!("glScissor({v:?})"), || unsafe {
                    gl!(c"glScissor": fn(i32, i32, i32, i32))(v[0], v[1], v[2], v[3])
                });
            }
        }
        48 => match w.range(0, 2) {
            0 => {
                let v = [w.float(), w.float(), w.float(), w.float()];
                // SAFETY: scalars.
                call(log, format!("glClearColor({v:?})"), || unsafe {
                    gl!(c"glClearColor": fn(f32, f32, f32, f32))(v[0], v[1], v[2], v[3])
                });
            }
            1 => {
                let s = w.int(-2, 300);
                // SAFETY: scalars.
                call(log, format!("glClearStencil({s})"), || unsafe {
                    gl!(c"glClearStencil": fn(i32))(s)
                });
            }
            _ => {
                let m = w.next();
                let v = [
                    (m & 1) as u8,
                    (m >> 1 & 1) as u8,
                    (m >> 2 & 1) as u8,
                    (m >> 3 & 1) as u8,
                ];
                // SAFETY: scalars.
                call(log, format!("glColorMask({v:?})"), || unsafe {
                    gl!(c"glColorMask": fn(u8, u8, u8, u8))(v[0], v[1], v[2], v[3])
                });
            }
        },
        49 | 50 => {
            let m = w.next();
            let mask = if m & 7 == 7 {
                m >> 3
            } else {
                [0x4000, 0x100, 0x400, 0x4500, 0x4100, 0][(m >> 3) as usize % 6]
            };
            // SAFETY: scalars.
            call(log, format!("glClear({mask:#x})"), || unsafe {
                gl!(c"glClear": fn(u32))(mask)
            });
        }
        51 | 52 | 64..=69 => draw(log, w),
        53 => read_pixels(st, log, w),
        54 => gets(log, w),
        55 => {
            let m = w.next();
            let (p, v) = match m & 3 {
                0 => (0x0CF5, [1, 2, 4, 8, 3, 0, -1][(m >> 2) as usize % 7]),
                1 => (0x0D05, [1, 2, 4, 8, 3, 0, -1][(m >> 2) as usize % 7]),
                2 => (
                    PIXEL_STORE_ZERO_ONLY[(m >> 2) as usize % PIXEL_STORE_ZERO_ONLY.len()],
                    if m & 0x8000 == 0 { 0 } else { -1 },
                ),
                _ => {
                    let p = w.next();
                    if p == 0x0CF5 || p == 0x0D05 || PIXEL_STORE_ZERO_ONLY.contains(&p) {
                        (p, 0)
                    } else {
                        (p, w.next() as i32)
                    }
                }
            };
            // SAFETY: scalars.
            call(log, format!("glPixelStorei({}, {v})", hex(p)), || unsafe {
                gl!(c"glPixelStorei": fn(u32, i32))(p, v)
            });
            if [1, 2, 4, 8].contains(&v) {
                if p == 0x0CF5 {
                    st.unpack_align = v as usize;
                } else if p == 0x0D05 {
                    st.pack_align = v as usize;
                }
            }
        }
        56 => match w.range(0, 2) {
            // SAFETY: no arguments.
            0 => call(log, "glFinish()".into(), || unsafe {
                gl!(c"glFinish": fn())()
            }),
            // SAFETY: no arguments.
            1 => call(log, "glFlush()".into(), || unsafe {
                gl!(c"glFlush": fn())()
            }),
            _ => {
                let (dpy, surface) = current_surface();
                // SAFETY: the current display and draw surface.
                call(log, "eglSwapBuffers(dpy, surface)".into(), || unsafe {
                    gl!(c"eglSwapBuffers": fn(P, P) -> u32)(dpy, surface)
                });
            }
        },
        57 => object_queries(st, log, w),
        58 => {
            let (t, m) = (
                w.en(&[0x8B8B, 0x8192, 0x0C52, 0x8E8F]),
                w.en(&[0x1100, 0x1101, 0x1102]),
            );
            if w.bit() {
                // SAFETY: scalars.
                call(log, format!("glHint({}, {})", hex(t), hex(m)), || unsafe {
                    gl!(c"glHint": fn(u32, u32))(t, m)
                });
            } else {
                let c = w.en(&[0, 1, 0x891D]);
                // SAFETY: scalars.
                call(
                    log,
                    format!("glClampColor(0x891C, {})", hex(c)),
                    || unsafe { gl!(c"glClampColor": fn(u32, u32))(0x891C, c) },
                );
            }
        }
        59 => setup_program(st, log, w),
        60 => setup_vertices(st, log, w),
        61 => setup_texture(st, log, w),
        70 | 71 => {
            // Make a draw likely to get through: a valid program and vertices first.
            setup_program(st, log, w);
            setup_vertices(st, log, w);
            draw(log, w);
        }
        _ => setup_framebuffer(st, log, w),
    }
}

fn fragment_source(i: usize) -> &'static str {
    if FRAGMENT_SOURCES[i].contains("usampler2D")
        && known("integer_samplers_get_a_unorm_image_view")
    {
        FRAGMENT_SOURCES[0]
    } else {
        FRAGMENT_SOURCES[i]
    }
}

fn depth(v: f32) -> f64 {
    f64::from(v)
}

fn location(st: &Pools, w: &mut Words) -> i32 {
    let x = w.next();
    match x & 7 {
        0..=5 if !st.locations.is_empty() => st.locations[(x >> 3) as usize % st.locations.len()],
        6 => (x >> 3) as i32 % 64,
        7 => x as i32,
        _ => -1,
    }
}

fn shader_source(log: &mut Vec<String>, w: &mut Words, s: u32, ty: u32) {
    let x = w.next();
    let base = match (x & 7, ty) {
        (0, _) => GARBAGE[(x >> 3) as usize % GARBAGE.len()],
        (_, 0x8B30) => fragment_source((x >> 3) as usize % FRAGMENT_SOURCES.len()),
        _ => VERTEX_SOURCES[(x >> 3) as usize % VERTEX_SOURCES.len()],
    };
    let mut src = base.as_bytes().to_vec();
    let m = w.next();
    let at = if src.is_empty() {
        0
    } else {
        (m >> 8) as usize % src.len()
    };
    let mutation = match m & 7 {
        0 => {
            src.truncate(at);
            "truncated"
        }
        1 => {
            if !src.is_empty() {
                src[at] = (m >> 24) as u8;
            }
            "byte replaced"
        }
        2 => {
            src.splice(
                at..at,
                b" }{ uniform float x; ;;; \xff\xfe ".iter().copied(),
            );
            "garbage inserted"
        }
        3 => {
            let tail = src[at..].to_vec();
            src.extend(tail);
            "tail duplicated"
        }
        _ => "",
    };
    let split = if src.is_empty() {
        0
    } else {
        (w.next() as usize) % src.len()
    };
    let (a, b) = src.split_at(split);
    let a0 = [a, b"\0"].concat();
    let b0 = [b, b"\0"].concat();
    let ga = Guarded::new(a0.len());
    let gb = Guarded::new(b0.len());
    // SAFETY: each guard holds exactly its string's bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(a0.as_ptr(), ga.ptr, a0.len());
        std::ptr::copy_nonoverlapping(b0.as_ptr(), gb.ptr, b0.len());
    }
    let strings = [ga.p::<c_char>().cast_const(), gb.p::<c_char>().cast_const()];
    let mode = w.range(0, 3);
    // Lengths never exceed the bytes owned; -1 means NUL-terminated.
    let lengths: [i32; 2] = match mode {
        1 => [a.len() as i32, b.len() as i32],
        2 => [-1, b.len() as i32],
        _ => [-1, -1],
    };
    let count = if mode == 3 { 0 } else { 2 };
    let text = format!(
        "glShaderSource({s}, {count}, [{:?} | {:?}]{}, {})",
        String::from_utf8_lossy(a),
        String::from_utf8_lossy(b),
        if mutation.is_empty() {
            String::new()
        } else {
            format!(" ({mutation})")
        },
        if mode == 0 {
            "NULL".to_string()
        } else {
            format!("{lengths:?}")
        }
    );
    // SAFETY: two NUL-terminated strings and two lengths within them (or NULL).
    call(log, text, || unsafe {
        gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32))(
            s,
            count,
            strings.as_ptr(),
            if mode == 0 { null() } else { lengths.as_ptr() },
        )
    });
}

fn program_queries(st: &mut Pools, log: &mut Vec<String>, w: &mut Words) {
    let p = w.name(&st.programs, &st.all);
    let s = w.name(&st.shaders, &st.all);
    let out = Guarded::new(64);
    let bufsize = [0, 1, 4, 64][w.range(0, 3) as usize];
    let name = Guarded::new(bufsize as usize);
    let mut len = 0i32;
    let mut size = 0i32;
    let mut ty = 0u32;
    let l = location(st, w);
    let i = w.int(0, 8) as u32;
    match w.range(0, 10) {
        0 => {
            let pn = w.en(PROGRAM_PNAMES);
            // SAFETY: `out` holds 16 ints.
            call(
                log,
                format!("glGetProgramiv({p}, {}, out)", hex(pn)),
                || unsafe { gl!(c"glGetProgramiv": fn(u32, u32, *mut i32))(p, pn, out.p()) },
            );
        }
        1 => {
            let pn = w.en(SHADER_PNAMES);
            // SAFETY: `out` holds 16 ints.
            call(
                log,
                format!("glGetShaderiv({s}, {}, out)", hex(pn)),
                || unsafe { gl!(c"glGetShaderiv": fn(u32, u32, *mut i32))(s, pn, out.p()) },
            );
        }
        // SAFETY: `name` holds `bufsize` bytes.
        2 => call(
            log,
            format!("glGetProgramInfoLog({p}, {bufsize}, &len, buf)"),
            || unsafe {
                gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut c_char))(
                    p,
                    bufsize,
                    &mut len,
                    name.p(),
                )
            },
        ),
        // SAFETY: as above.
        3 => call(
            log,
            format!("glGetShaderInfoLog({s}, {bufsize}, &len, buf)"),
            || unsafe {
                gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut c_char))(
                    s,
                    bufsize,
                    &mut len,
                    name.p(),
                )
            },
        ),
        // SAFETY: as above.
        4 => call(
            log,
            format!("glGetShaderSource({s}, {bufsize}, &len, buf)"),
            || unsafe {
                gl!(c"glGetShaderSource": fn(u32, i32, *mut i32, *mut c_char))(
                    s,
                    bufsize,
                    &mut len,
                    name.p(),
                )
            },
        ),
        // SAFETY: as above; `size` and `ty` are locals.
        5 => call(
            log,
            format!("glGetActiveUniform({p}, {i}, {bufsize}, ..)"),
            || unsafe {
                gl!(c"glGetActiveUniform": fn(u32, u32, i32, *mut i32, *mut i32, *mut u32, *mut c_char))(
                    p,
                    i,
                    bufsize,
                    &mut len,
                    &mut size,
                    &mut ty,
                    name.p(),
                )
            },
        ),
        // SAFETY: as above.
        6 => call(
            log,
            format!("glGetActiveAttrib({p}, {i}, {bufsize}, ..)"),
            || unsafe {
                gl!(c"glGetActiveAttrib": fn(u32, u32, i32, *mut i32, *mut i32, *mut u32, *mut c_char))(
                    p,
                    i,
                    bufsize,
                    &mut len,
                    &mut size,
                    &mut ty,
                    name.p(),
                )
            },
        ),
        7 => {
            let which = w.range(0, 2);
            // SAFETY: `out` holds 16 values of 4 bytes (a mat4, the largest uniform).
            call(
                log,
                format!(
                    "glGetUniform{}v({p}, {l}, out)",
                    ["f", "i", "ui"][which as usize]
                ),
                || unsafe {
                    match which {
                        0 => gl!(c"glGetUniformfv": fn(u32, i32, *mut f32))(p, l, out.p()),
                        1 => gl!(c"glGetUniformiv": fn(u32, i32, *mut i32))(p, l, out.p()),
                        _ => gl!(c"glGetUniformuiv": fn(u32, i32, *mut u32))(p, l, out.p()),
                    }
                },
            );
        }
        8 => {
            let pn = w.en(&[0x8A3F, 0x8A40, 0x8A41, 0x8A42, 0x8A43, 0x8A44, 0x8A46]);
            // SAFETY: `out` holds 16 ints; the pool's blocks have fewer members.
            call(
                log,
                format!("glGetActiveUniformBlockiv({p}, {i}, {}, out)", hex(pn)),
                || unsafe {
                    gl!(c"glGetActiveUniformBlockiv": fn(u32, u32, u32, *mut i32))(
                        p,
                        i,
                        pn,
                        out.p(),
                    )
                },
            );
        }
        9 => {
            // SAFETY: `name` holds `bufsize` bytes.
            call(
                log,
                format!("glGetActiveUniformBlockName({p}, {i}, {bufsize}, &len, buf)"),
                || unsafe {
                    gl!(c"glGetActiveUniformBlockName": fn(u32, u32, i32, *mut i32, *mut c_char))(
                        p,
                        i,
                        bufsize,
                        &mut len,
                        name.p(),
                    )
                },
            );
        }
        _ => {
            let n = w.count(-1, 3);
            let names: Vec<*const c_char> = (0..n.max(0))
                .map(|_| {
                    UNIFORM_NAMES[w.range(0, UNIFORM_NAMES.len() as i64 - 1) as usize].as_ptr()
                })
                .collect();
            let idx = Guarded::new(names.len() * 4);
            let max = w.count(-1, 4);
            let shaders = Guarded::new(max.max(0) as usize * 4);
            // SAFETY: `names` has `n` strings and `idx` room for `n` indices; `shaders` holds `max`.
            call(
                log,
                format!("glGetUniformIndices({p}, {n}, ..); glGetAttachedShaders({p}, {max}, ..)"),
                || unsafe {
                    gl!(c"glGetUniformIndices": fn(u32, i32, *const *const c_char, *mut u32))(
                        p,
                        n,
                        names.as_ptr(),
                        idx.p(),
                    );
                    gl!(c"glGetAttachedShaders": fn(u32, i32, *mut i32, *mut u32))(
                        p,
                        max,
                        &mut len,
                        shaders.p(),
                    );
                },
            );
        }
    }
}

fn object_queries(st: &mut Pools, log: &mut Vec<String>, w: &mut Words) {
    let out = Guarded::new(16 * 8);
    match w.range(0, 5) {
        0 => {
            let (t, p) = (w.en(TEX_TARGETS), w.en(TEX_PARAMS));
            // SAFETY: `out` holds 16 values.
            call(
                log,
                format!("glGetTexParameteriv({}, {}, out)", hex(t), hex(p)),
                || unsafe { gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32))(t, p, out.p()) },
            );
        }
        1 => {
            let (t, l, p) = (
                w.en(TEX_TARGETS),
                w.int(0, 4),
                w.en(&[
                    0x1000, 0x1001, 0x1003, 0x805C, 0x805D, 0x805E, 0x805F, 0x884A, 0x86A1,
                ]),
            );
            // SAFETY: `out` holds 16 values.
            call(
                log,
                format!("glGetTexLevelParameteriv({}, {l}, {}, out)", hex(t), hex(p)),
                || unsafe {
                    gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32))(t, l, p, out.p())
                },
            );
        }
        2 => {
            let (i, p) = (
                w.int(0, 17) as u32,
                w.en(&[
                    0x8622, 0x8623, 0x8624, 0x8625, 0x886A, 0x88FD, 0x88FE, 0x889F, 0x8626, 0x8645,
                ]),
            );
            // SAFETY: `out` holds 16 values (or pointers).
            call(
                log,
                format!("glGetVertexAttribiv/fv/Pointerv({i}, {}, out)", hex(p)),
                || unsafe {
                    gl!(c"glGetVertexAttribiv": fn(u32, u32, *mut i32))(i, p, out.p());
                    gl!(c"glGetVertexAttribfv": fn(u32, u32, *mut f32))(i, p, out.p());
                    gl!(c"glGetVertexAttribPointerv": fn(u32, u32, *mut P))(i, p, out.p());
                },
            );
        }
        3 => {
            let (t, p) = (
                w.en(BUFFER_TARGETS),
                w.en(&[0x8764, 0x8765, 0x88BB, 0x88BC, 0x911F, 0x9120, 0x9121]),
            );
            // SAFETY: `out` holds 16 values.
            call(
                log,
                format!("glGetBufferParameteriv/i64v({}, {}, out)", hex(t), hex(p)),
                || unsafe {
                    gl!(c"glGetBufferParameteriv": fn(u32, u32, *mut i32))(t, p, out.p());
                    gl!(c"glGetBufferParameteri64v": fn(u32, u32, *mut i64))(t, p, out.p());
                },
            );
        }
        4 => {
            let n = w.name(&st.all, &st.all);
            // SAFETY: scalars.
            call(log, format!("glIs*({n})"), || unsafe {
                gl!(c"glIsBuffer": fn(u32) -> u8)(n);
                gl!(c"glIsVertexArray": fn(u32) -> u8)(n);
                gl!(c"glIsTexture": fn(u32) -> u8)(n);
                gl!(c"glIsFramebuffer": fn(u32) -> u8)(n);
                gl!(c"glIsRenderbuffer": fn(u32) -> u8)(n);
                gl!(c"glIsProgram": fn(u32) -> u8)(n);
            });
        }
        _ => {
            let (name, i) = (
                w.en(&[0x1F00, 0x1F01, 0x1F02, 0x8B8C, 0x1F03]),
                w.int(0, 3) as u32,
            );
            // SAFETY: scalars; the strings returned are read up to their NUL.
            call(
                log,
                format!(
                    "glGetString({}); glGetStringi({}, {i})",
                    hex(name),
                    hex(name)
                ),
                || unsafe {
                    let s = gl!(c"glGetString": fn(u32) -> *const u8)(name);
                    if !s.is_null() {
                        let _ = CStr::from_ptr(s.cast()).to_bytes().len();
                    }
                    let s = gl!(c"glGetStringi": fn(u32, u32) -> *const u8)(name, i);
                    if !s.is_null() {
                        let _ = CStr::from_ptr(s.cast()).to_bytes().len();
                    }
                },
            );
        }
    }
}

fn gets(log: &mut Vec<String>, w: &mut Words) {
    // GL 3.3 pnames return at most 16 values (the fuzzer does not ask for
    // GL_COMPRESSED_TEXTURE_FORMATS).
    let out = Guarded::new(16 * 8);
    let kind = w.range(0, 6);
    let indexed = kind >= 5;
    let p = if indexed {
        w.en(GET_INDEXED_PNAMES)
    } else {
        w.en(GET_PNAMES)
    };
    if p == 0x86A3 {
        return;
    }
    let i = w.int(0, 40) as u32;
    let name = [
        "glGetIntegerv",
        "glGetFloatv",
        "glGetBooleanv",
        "glGetInteger64v",
        "glGetDoublev",
        "glGetIntegeri_v",
        "glGetInteger64i_v",
    ][kind as usize];
    // SAFETY: `out` holds 16 values of the widest type.
    call(
        log,
        format!(
            "{name}({}{}, out); glIsEnabled",
            hex(p),
            if indexed {
                format!(", {i}")
            } else {
                String::new()
            }
        ),
        || unsafe {
            match kind {
                0 => gl!(c"glGetIntegerv": fn(u32, *mut i32))(p, out.p()),
                1 => gl!(c"glGetFloatv": fn(u32, *mut f32))(p, out.p()),
                2 => gl!(c"glGetBooleanv": fn(u32, *mut u8))(p, out.p()),
                3 => gl!(c"glGetInteger64v": fn(u32, *mut i64))(p, out.p()),
                4 => gl!(c"glGetDoublev": fn(u32, *mut f64))(p, out.p()),
                5 => gl!(c"glGetIntegeri_v": fn(u32, u32, *mut i32))(p, i, out.p()),
                _ => gl!(c"glGetInteger64i_v": fn(u32, u32, *mut i64))(p, i, out.p()),
            }
            gl!(c"glIsEnabled": fn(u32) -> u8)(p);
        },
    );
}

fn tex_image(st: &mut Pools, log: &mut Vec<String>, w: &mut Words, sub: bool) {
    let t = w.en(TEX_TARGETS);
    let level = w.int(0, 4);
    let internal = w.en(INTERNAL_FORMATS);
    let dim = |w: &mut Words| {
        let x = w.next();
        match x & 0x1F {
            0 => 1024 + (x >> 5) as i32 % 3073,
            1 => x as i32 >> 5 | i32::MIN,
            2 => -1,
            _ => (x >> 5) as i32 % 41,
        }
    };
    let (wd, ht) = (dim(w), dim(w));
    let (x, y) = (w.int(-2, 40), w.int(-2, 40));
    let border = if w.next() & 15 == 0 { 1 } else { 0 };
    let fmt = w.en(&FORMATS.iter().map(|f| f.0).collect::<Vec<_>>());
    let ty = w.en(&TYPES.iter().map(|t| t.0).collect::<Vec<_>>());
    st.big = i64::from(wd.max(0)) * i64::from(ht.max(0)) > 1 << 22;
    let bytes = image_bytes(wd, ht, fmt, ty, st.unpack_align.max(1)).filter(|&b| b <= MAX_CLIENT);
    let no_data = bytes.is_none() || (!sub && w.next() & 3 == 0);
    let data = Guarded::filled(bytes.unwrap_or(0), w.next());
    let p: *const c_void = if no_data {
        null()
    } else {
        data.p::<c_void>().cast_const()
    };
    let what = if no_data {
        "NULL".to_string()
    } else {
        format!("[{} bytes]", data.len)
    };
    if sub {
        let text = format!(
            "glTexSubImage2D({}, {level}, {x}, {y}, {wd}, {ht}, {}, {}, {what})",
            hex(t),
            hex(fmt),
            hex(ty)
        );
        // SAFETY: `p` is NULL or holds the bytes GL reads for this image at the unpack alignment.
        call(log, text, || unsafe {
            gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void))(
                t, level, x, y, wd, ht, fmt, ty, p,
            )
        });
    } else {
        let text = format!(
            "glTexImage2D({}, {level}, {}, {wd}, {ht}, {border}, {}, {}, {what})",
            hex(t),
            hex(internal),
            hex(fmt),
            hex(ty)
        );
        // SAFETY: as above.
        call(log, text, || unsafe {
            gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void))(
                t,
                level,
                internal as i32,
                wd,
                ht,
                border,
                fmt,
                ty,
                p,
            )
        });
    }
}

fn read_pixels(st: &mut Pools, log: &mut Vec<String>, w: &mut Words) {
    let (x, y) = (w.int(-8, 40), w.int(-8, 40));
    let (wd, ht) = (w.int(0, 40), w.int(0, 40));
    let fmt = w.en(&[
        0x1908, 0x1908, 0x1908, 0x80E1, 0x1907, 0x1903, 0x8227, 0x8D99, 0x1902, 0x84F9, 0x1901,
    ]);
    let ty = w.en(&[
        0x1401, 0x1401, 0x1401, 0x1406, 0x1405, 0x8367, 0x84FA, 0x140B,
    ]);
    let bytes = image_bytes(wd, ht, fmt, ty, st.pack_align.max(1)).filter(|&b| b <= MAX_CLIENT);
    let out = Guarded::new(bytes.unwrap_or(0));
    let p: *mut c_void = if bytes.is_none() { null_mut() } else { out.p() };
    let text = format!(
        "glReadPixels({x}, {y}, {wd}, {ht}, {}, {}, [{} bytes])",
        hex(fmt),
        hex(ty),
        bytes.map_or(-1, |b| b as i64)
    );
    // SAFETY: `p` is NULL or holds the bytes GL writes for this image at the pack alignment.
    call(log, text, || unsafe {
        gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void))(
            x, y, wd, ht, fmt, ty, p,
        )
    });
}

fn draw(log: &mut Vec<String>, w: &mut Words) {
    let mode = w.en(MODES);
    let count = w.int(0, 64);
    let count = if count > 1 << 16 {
        count % (1 << 16)
    } else {
        count
    };
    let first = w.int(0, 64);
    let n = w.int(0, 4).clamp(-2, 64);
    let ty = w.en(INDEX_TYPES);
    let off = w.size().clamp(-1, u32::MAX as i64) as usize;
    let base = w.int(-4, 64);
    let kind = w.range(0, 7);
    let op = off as *const c_void;
    let (s, e) = (w.next() % 64, w.next() % 64);
    let text = match kind {
        0 => format!("glDrawArrays({}, {first}, {count})", hex(mode)),
        1 => format!(
            "glDrawArraysInstanced({}, {first}, {count}, {n})",
            hex(mode)
        ),
        2 => format!("glDrawElements({}, {count}, {}, {off})", hex(mode), hex(ty)),
        3 => format!(
            "glDrawElementsInstanced({}, {count}, {}, {off}, {n})",
            hex(mode),
            hex(ty)
        ),
        4 => format!(
            "glDrawElementsBaseVertex({}, {count}, {}, {off}, {base})",
            hex(mode),
            hex(ty)
        ),
        5 => format!(
            "glDrawElementsInstancedBaseVertex({}, {count}, {}, {off}, {n}, {base})",
            hex(mode),
            hex(ty)
        ),
        6 => format!(
            "glDrawRangeElements({}, {s}, {e}, {count}, {}, {off})",
            hex(mode),
            hex(ty)
        ),
        _ => format!(
            "glDrawRangeElementsBaseVertex({}, {s}, {e}, {count}, {}, {off}, {base})",
            hex(mode),
            hex(ty)
        ),
    };
    // SAFETY: core profile: index pointers are offsets into the element buffer, never read as
    // client memory.
    call(log, text, || unsafe {
        match kind {
            0 => gl!(c"glDrawArrays": fn(u32, i32, i32))(mode, first, count),
            1 => gl!(c"glDrawArraysInstanced": fn(u32, i32, i32, i32))(mode, first, count, n),
            2 => gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void))(mode, count, ty, op),
            3 => gl!(c"glDrawElementsInstanced": fn(u32, i32, u32, *const c_void, i32))(
                mode, count, ty, op, n,
            ),
            4 => gl!(c"glDrawElementsBaseVertex": fn(u32, i32, u32, *const c_void, i32))(
                mode, count, ty, op, base,
            ),
            5 => {
                gl!(c"glDrawElementsInstancedBaseVertex": fn(u32, i32, u32, *const c_void, i32, i32))(
                    mode, count, ty, op, n, base,
                )
            }
            6 => gl!(c"glDrawRangeElements": fn(u32, u32, u32, i32, u32, *const c_void))(
                mode, s, e, count, ty, op,
            ),
            _ => {
                gl!(c"glDrawRangeElementsBaseVertex": fn(u32, u32, u32, i32, u32, *const c_void, i32))(
                    mode, s, e, count, ty, op, base,
                )
            }
        }
    });
}

/// A valid vertex/fragment pair, linked and used; its uniform locations join the pool.
fn setup_program(st: &mut Pools, log: &mut Vec<String>, w: &mut Words) {
    let vs = VERTEX_SOURCES[w.range(0, VERTEX_SOURCES.len() as i64 - 1) as usize];
    let fs = fragment_source(w.range(0, FRAGMENT_SOURCES.len() as i64 - 1) as usize);
    let p = compile_and_link(log, vs, fs);
    st.programs.push(p);
    st.all.push(p);
    // SAFETY: scalars.
    call(log, format!("glUseProgram({p})"), || unsafe {
        gl!(c"glUseProgram": fn(u32))(p)
    });
    st.locations.clear();
    for n in UNIFORM_NAMES {
        // SAFETY: NUL-terminated name.
        let l =
            unsafe { gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32)(p, n.as_ptr()) };
        if l >= 0 {
            st.locations.push(l);
        }
    }
    if let Some(last) = log.last_mut() {
        let _ = write!(last, " (locations {:?})", st.locations);
    }
}

fn compile_and_link(log: &mut Vec<String>, vs: &str, fs: &str) -> u32 {
    // SAFETY: NUL-terminated sources (copied into CStrings), lengths NULL.
    call(
        log,
        format!("program(vs = {vs:?}, fs = {fs:?})"),
        || unsafe {
            let create = gl!(c"glCreateShader": fn(u32) -> u32);
            let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
            let compile = gl!(c"glCompileShader": fn(u32));
            let p = gl!(c"glCreateProgram": fn() -> u32)();
            for (ty, src) in [(0x8B31, vs), (0x8B30, fs)] {
                let s = create(ty);
                let c = std::ffi::CString::new(src).expect("no NUL in the pool's sources");
                let ptr = c.as_ptr();
                source(s, 1, &ptr, null());
                compile(s);
                gl!(c"glAttachShader": fn(u32, u32))(p, s);
                gl!(c"glDeleteShader": fn(u32))(s);
            }
            gl!(c"glLinkProgram": fn(u32))(p);
            p
        },
    )
}

/// A VAO with one buffer of random bytes behind a few attributes, and an element buffer.
fn setup_vertices(st: &mut Pools, log: &mut Vec<String>, w: &mut Words) {
    let size = w.range(0, 4096) as usize;
    let idx_size = w.range(0, 512) as usize;
    let data = Guarded::filled(size, w.next());
    let idx = Guarded::filled(idx_size, w.next());
    let attribs = w.range(1, 4);
    let stride = w.range(0, 32) as i32;
    let ty = w.en(&[0x1406, 0x1406, 0x1401, 0x1402, 0x1404]);
    let mut names = [0u32; 3];
    let text = format!("vertices(vbo {size} bytes, ebo {idx_size} bytes, {attribs} attributes of {} stride {stride})", hex(ty));
    // SAFETY: `names` holds 3 names; `data` and `idx` hold the sizes passed.
    call(log, text, || unsafe {
        gl!(c"glGenVertexArrays": fn(i32, *mut u32))(1, names.as_mut_ptr());
        gl!(c"glGenBuffers": fn(i32, *mut u32))(2, names.as_mut_ptr().add(1));
        gl!(c"glBindVertexArray": fn(u32))(names[0]);
        gl!(c"glBindBuffer": fn(u32, u32))(0x8892, names[1]);
        gl!(c"glBufferData": fn(u32, isize, *const c_void, u32))(
            0x8892,
            size as isize,
            data.p(),
            0x88E4,
        );
        gl!(c"glBindBuffer": fn(u32, u32))(0x8893, names[2]);
        gl!(c"glBufferData": fn(u32, isize, *const c_void, u32))(
            0x8893,
            idx_size as isize,
            idx.p(),
            0x88E4,
        );
        for i in 0..attribs as u32 {
            gl!(c"glEnableVertexAttribArray": fn(u32))(i);
            if i != 2 || ty == 0x1406 {
                gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void))(
                    i,
                    4 - i as i32 % 3,
                    ty,
                    1,
                    stride,
                    (i as usize * 4) as *const c_void,
                );
            } else {
                gl!(c"glVertexAttribIPointer": fn(u32, i32, u32, i32, *const c_void))(
                    i,
                    2,
                    if ty == 0x1406 { 0x1404 } else { ty },
                    stride,
                    8 as *const c_void,
                );
            }
        }
    });
    st.vaos.push(names[0]);
    st.buffers.extend(&names[1..]);
    st.all.extend(names);
}

fn setup_texture(st: &mut Pools, log: &mut Vec<String>, w: &mut Words) {
    let (wd, ht) = (w.range(1, 40) as i32, w.range(1, 40) as i32);
    let internal = w.en(&[0x8058, 0x8051, 0x8229, 0x822B, 0x8C43, 0x1908]);
    let unit = w.range(0, 3) as u32;
    let mip = w.bit();
    let data = Guarded::filled(wd as usize * ht as usize * 4, w.next());
    let mut t = 0;
    let text = format!(
        "texture(unit {unit}, {wd}x{ht} {} RGBA/UNSIGNED_BYTE, mipmaps {mip})",
        hex(internal)
    );
    // SAFETY: `data` holds w×h RGBA8 pixels (tightly packed rows at alignment 4 once the store is
    // reset to 4 here).
    call(log, text, || unsafe {
        gl!(c"glPixelStorei": fn(u32, i32))(0x0CF5, 4);
        gl!(c"glGenTextures": fn(i32, *mut u32))(1, &mut t);
        gl!(c"glActiveTexture": fn(u32))(0x84C0 + unit);
        gl!(c"glBindTexture": fn(u32, u32))(0x0DE1, t);
        gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void))(
            0x0DE1,
            0,
            internal as i32,
            wd,
            ht,
            0,
            0x1908,
            0x1401,
            data.p(),
        );
        if mip {
            gl!(c"glGenerateMipmap": fn(u32))(0x0DE1);
        } else {
            gl!(c"glTexParameteri": fn(u32, u32, i32))(0x0DE1, 0x2801, 0x2601);
        }
    });
    st.unpack_align = 4;
    st.textures.push(t);
    st.all.push(t);
}

fn setup_framebuffer(st: &mut Pools, log: &mut Vec<String>, w: &mut Words) {
    let (wd, ht) = (w.range(1, 48) as i32, w.range(1, 48) as i32);
    let depth = w.bit();
    let fmt = w.en(&[0x8058, 0x8058, 0x8229, 0x822B, 0x8C43, 0x881A]);
    let mut n = [0u32; 3];
    let text = format!(
        "framebuffer({wd}x{ht} colour {}, depth-stencil {depth})",
        hex(fmt)
    );
    // SAFETY: `n` holds the three names generated; NULL texture data.
    call(log, text, || unsafe {
        gl!(c"glGenFramebuffers": fn(i32, *mut u32))(1, &mut n[0]);
        gl!(c"glGenTextures": fn(i32, *mut u32))(1, &mut n[1]);
        gl!(c"glBindTexture": fn(u32, u32))(0x0DE1, n[1]);
        gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void))(
            0x0DE1,
            0,
            fmt as i32,
            wd,
            ht,
            0,
            0x1908,
            0x1401,
            null(),
        );
        gl!(c"glBindFramebuffer": fn(u32, u32))(0x8D40, n[0]);
        gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32))(
            0x8D40, 0x8CE0, 0x0DE1, n[1], 0,
        );
        if depth {
            gl!(c"glGenRenderbuffers": fn(i32, *mut u32))(1, &mut n[2]);
            gl!(c"glBindRenderbuffer": fn(u32, u32))(0x8D41, n[2]);
            gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32))(0x8D41, 0x88F0, wd, ht);
            gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32))(0x8D40, 0x821A, 0x8D41, n[2]);
        }
    });
    st.fbos.push(n[0]);
    if known("feedback_loops_use_the_wrong_image_layout") {
        // SAFETY: scalars.
        unsafe { gl!(c"glBindTexture": fn(u32, u32))(0x0DE1, 0) };
        st.fbo_textures.push(n[1]);
    } else {
        st.textures.push(n[1]);
    }
    st.all.push(n[0]);
    if !known("feedback_loops_use_the_wrong_image_layout") {
        st.all.push(n[1]);
    }
    if depth {
        st.rbos.push(n[2]);
        st.all.push(n[2]);
    }
}

// ---------------------------------------------------------------------------------------------
// Contexts and the known-good check.

struct Display {
    dpy: P,
    cfg: P,
}

// SAFETY: EGL display and config handles are process-wide and usable from any thread.
unsafe impl Send for Display {}
// SAFETY: as above.
unsafe impl Sync for Display {}

fn display() -> &'static Display {
    static D: OnceLock<Display> = OnceLock::new();
    D.get_or_init(|| {
        let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
        let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
        let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
        let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
        // SAFETY: EGL_NONE-terminated lists, out-pointers to locals.
        unsafe {
            let dpy = get_display(0x31DD, null_mut(), null());
            assert!(!dpy.is_null());
            assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
            // RGBA8 with depth 24 and stencil 8 (the default framebuffer follows its config).
            let attribs = [
                0x3033, 0x0001, 0x3040, 0x0008, 0x3024, 8, 0x3023, 8, 0x3022, 8, 0x3021, 8, 0x3025,
                24, 0x3026, 8, 0x3038,
            ];
            let mut cfg = null_mut();
            let mut n = 0;
            assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
            assert_eq!(n, 1);
            assert_eq!(bind_api(0x30A2), 1);
            Display { dpy, cfg }
        }
    })
}

fn current_surface() -> (P, P) {
    let get_surface = gl!(c"eglGetCurrentSurface": fn(i32) -> P);
    // SAFETY: EGL_DRAW.
    (display().dpy, unsafe { get_surface(0x3059) })
}

/// A fresh current 3.3 core context on a 32×32 pbuffer; destroyed on drop.
struct Context {
    ctx: P,
    surface: P,
}

impl Context {
    fn new() -> Self {
        let d = display();
        let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
        let create_pbuffer = gl!(c"eglCreatePbufferSurface": fn(P, P, *const i32) -> P);
        let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
        // SAFETY: live display and config, EGL_NONE-terminated lists.
        unsafe {
            let ctx_attribs = [0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x3038];
            let ctx = create_context(d.dpy, d.cfg, null_mut(), ctx_attribs.as_ptr());
            assert!(!ctx.is_null());
            let pb = [0x3057, 32, 0x3056, 32, 0x3038];
            let surface = create_pbuffer(d.dpy, d.cfg, pb.as_ptr());
            assert!(!surface.is_null());
            assert_eq!(make_current(d.dpy, surface, surface, ctx), 1);
            Context { ctx, surface }
        }
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        let d = display();
        let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
        let destroy_context = gl!(c"eglDestroyContext": fn(P, P) -> u32);
        let destroy_surface = gl!(c"eglDestroySurface": fn(P, P) -> u32);
        // SAFETY: the handles made in `new`.
        unsafe {
            make_current(d.dpy, null_mut(), null_mut(), null_mut());
            destroy_surface(d.dpy, self.surface);
            destroy_context(d.dpy, self.ctx);
        }
    }
}

const GOOD_VS: &str = "#version 330 core\nvoid main() { vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1)); gl_Position = vec4(p, 0.0, 1.0); }\n";
const GOOD_FS: &str =
    "#version 330 core\nout vec4 color;\nvoid main() { color = vec4(0.2, 0.4, 0.6, 0.8); }\n";

/// Resets what the stream may have changed, draws a full-screen triangle of a known colour to
/// the pbuffer and reads the centre back.
fn known_good_draw(log: &mut Vec<String>) -> Result<(), String> {
    let p = compile_and_link(log, GOOD_VS, GOOD_FS);
    let mut px = [0u8; 4];
    let mut vao = 0u32;
    // SAFETY: `vao` and `px` are locals of the right size (one RGBA8 pixel, pack alignment 1).
    call(
        log,
        "known-good: reset state, draw, glReadPixels(16, 16, 1, 1)".into(),
        || unsafe {
            for &cap in CAPS {
                gl!(c"glDisable": fn(u32))(cap);
            }
            gl!(c"glBindFramebuffer": fn(u32, u32))(0x8D40, 0);
            // With a pixel pack buffer bound, glReadPixels' pointer would be an offset into it.
            gl!(c"glBindBuffer": fn(u32, u32))(0x88EB, 0);
            gl!(c"glDrawBuffer": fn(u32))(0x0405);
            gl!(c"glReadBuffer": fn(u32))(0x0405);
            gl!(c"glColorMask": fn(u8, u8, u8, u8))(1, 1, 1, 1);
            gl!(c"glPolygonMode": fn(u32, u32))(0x0408, 0x1B02);
            gl!(c"glViewport": fn(i32, i32, i32, i32))(0, 0, 32, 32);
            gl!(c"glPixelStorei": fn(u32, i32))(0x0D05, 1);
            gl!(c"glGenVertexArrays": fn(i32, *mut u32))(1, &mut vao);
            gl!(c"glBindVertexArray": fn(u32))(vao);
            gl!(c"glUseProgram": fn(u32))(p);
            gl!(c"glClearColor": fn(f32, f32, f32, f32))(0.0, 0.0, 0.0, 0.0);
            gl!(c"glClear": fn(u32))(0x4000);
            gl!(c"glDrawArrays": fn(u32, i32, i32))(4, 0, 3);
            gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void))(
                16,
                16,
                1,
                1,
                0x1908,
                0x1401,
                px.as_mut_ptr().cast(),
            );
        },
    );
    let e = error();
    if e != 0 {
        return Err(format!("the known-good draw reported 0x{e:04X}"));
    }
    let want = [51u8, 102, 153, 204];
    if px.iter().zip(want).any(|(&a, b)| a.abs_diff(b) > 1) {
        return Err(format!(
            "the known-good draw read back {px:?}, want {want:?}"
        ));
    }
    Ok(())
}

/// Runs one stream on a fresh context and checks everything the module doc lists.
pub fn run_stream(ops: &[RawOp]) -> Result<(), String> {
    watchdog();
    if let Ok(mut l) = CASE_LOG.lock() {
        l.clear();
    }
    let validation_before = validation_errors();
    let mut log = Vec::new();
    let result = {
        let _ctx = Context::new();
        let mut st = Pools {
            unpack_align: 4,
            pack_align: 4,
            ..Pools::default()
        };
        let mut r = Ok(());
        for op in ops {
            if let Err(e) = step(&mut st, &mut log, op) {
                r = Err(e);
                break;
            }
        }
        r.and_then(|()| known_good_draw(&mut log))
    };
    let result = result.and_then(|()| {
        let v = validation_errors() - validation_before;
        if v == 0 {
            Ok(())
        } else {
            Err(format!("{v} validation error(s) (see stderr)"))
        }
    });
    result.map_err(|e| {
        let mut s = format!("{e}\nthe stream ({} calls):\n", log.len());
        for (i, l) in log.iter().enumerate() {
            let _ = writeln!(s, "  {i:3}: {l}");
        }
        s
    })
}
