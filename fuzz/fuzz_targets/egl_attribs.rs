//! libFuzzer over EGL attribute lists and values, through ArenaGL's C ABI (the library linked in,
//! so coverage counts its code): `eglGetPlatformDisplay(EXT)`, `eglChooseConfig`, `eglGetConfigs`,
//! `eglGetConfigAttrib`, `eglCreateContext`, `eglQueryContext`, `eglCreatePbufferSurface`,
//! `eglCreate(Platform)WindowSurface(EXT)`, `eglQuerySurface`, `eglSurfaceAttrib`,
//! `eglMakeCurrent`, `eglQueryString`, `eglQueryDisplayAttribEXT`, `eglQueryDevicesEXT`, …
//!
//! Input: a sequence of operations, each a tag byte (operation in the low nibble, list shape in
//! the high bits), two argument words, a word count and that many list words. A word whose top
//! byte is 0xFF stands for a known EGL attribute (its low byte picks one), so lists mix real keys
//! with arbitrary ones. Handles come from pools of what earlier operations returned, or are
//! arbitrary pointer values (EGL must answer `EGL_BAD_*`, never dereference them).
//!
//! Every list sits at the very end of its own mapping, right before an inaccessible page. Shapes:
//! well-formed (the words, then `EGL_NONE` as a key), NULL, and unterminated: the words repeated
//! to exactly the library's documented bound (`MAX_ATTRIB_WORDS + 2` words) with `EGL_NONE` only
//! in value positions, so a reader that goes one word too far faults. Wide (`EGLAttrib`) lists
//! may carry values that do not fit an `EGLint`.
//!
//! What fails an input: a crash (a read past a list, a write past an out-array), a panic caught
//! at the C edge, an `eglGetError` that is not an EGL error code, or a validation-layer error.
//! Window surfaces are asked for with no X server (`DISPLAY` is removed): they must fail cleanly.
#![no_main]

#[macro_use]
mod harness;

use std::ffi::c_char;
use std::ptr::null_mut;
use std::sync::OnceLock;

use harness::{Counters, Guarded, Input, P};
use libfuzzer_sys::fuzz_target;

const EGL_NONE: i32 = 0x3038;
/// `MAX_ATTRIB_WORDS + 2` in `present/src/attrib.rs`: how far the C ABI may read an
/// unterminated list.
const UNTERMINATED_WORDS: usize = 514;

/// Attributes of every kind, for keys, query names and values.
const KNOWN: &[i32] = &[
    0x3020, 0x3021, 0x3022, 0x3023, 0x3024, 0x3025, 0x3026, 0x3027, 0x3028, 0x3029, 0x302A, 0x302B,
    0x302C, 0x302D, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x3036, 0x3037, 0x3038,
    0x3039, 0x303A, 0x303B, 0x303C, 0x303D, 0x303E, 0x303F, 0x3040, 0x3041, 0x3042, 0x3050, 0x3051,
    0x3052, 0x308E, 0x308F, 0x3053, 0x3054, 0x3055, 0x308D, 0x3056, 0x3057, 0x3058, 0x3059, 0x305A,
    0x305C, 0x305D, 0x305E, 0x305F, 0x3080, 0x3081, 0x3082, 0x3083, 0x3084, 0x3085, 0x3086, 0x3087,
    0x3088, 0x3089, 0x308A, 0x3090, 0x3091, 0x3092, 0x3093, 0x3094, 0x3095, 0x3099, 0x309A, 0x309D,
    0x30A0, 0x30A1, 0x30A2, 0x3097, 0x3098, 0x30FB, 0x30FC, 0x30FD, 0x31B0, 0x31B1, 0x31B2, 0x31BD,
    0x31BE, 0x31BF, 0x313F, 0x31DD, 0x31D5, 0x31D6, 0x322C, 0x3100, 0x3101, 0x3102, 0x3103, 0x0001,
    0x0002, 0x0004, 0x0008, 0x0040, 0x0400, 0, 1, 2, 3, 4, 8, 32, 64, 4096, 16384, -1,
];
const PLATFORMS: &[u32] = &[0x31DD, 0x313F, 0x31D5, 0x31DD];
const APIS: &[u32] = &[0x30A2, 0x30A2, 0x30A0, 0x30A1];

fn word(w: u32) -> i32 {
    if w >> 24 == 0xFF {
        KNOWN[(w & 0xFF) as usize % KNOWN.len()]
    } else {
        w as i32
    }
}

/// How a list is handed over.
#[derive(Clone, Copy)]
enum Shape {
    Terminated,
    Null,
    Unterminated,
}

/// The list words (already mapped through `word`) laid out in `shape`, before a guard page.
fn int_list(words: &[i32], shape: Shape) -> Option<Guarded> {
    let list: Vec<i32> = match shape {
        Shape::Null => return None,
        Shape::Terminated => {
            let mut l = words.to_vec();
            if l.len() % 2 == 1 {
                l.push(0);
            }
            l.push(EGL_NONE);
            l
        }
        Shape::Unterminated => unterminated(words),
    };
    Some(Guarded::from_bytes(&bytes_of(&list)))
}

/// `words` repeated to exactly `UNTERMINATED_WORDS`, with no `EGL_NONE` key before the end.
fn unterminated(words: &[i32]) -> Vec<i32> {
    let fill: Vec<i32> = if words.is_empty() {
        vec![0x3024, 8]
    } else {
        words.to_vec()
    };
    (0..UNTERMINATED_WORDS)
        .map(|i| {
            let w = fill[i % fill.len()];
            if i % 2 == 0 && w == EGL_NONE {
                0x3025
            } else {
                w
            }
        })
        .collect()
}

/// As `int_list` with `EGLAttrib` words; `wide` sets bits above 32 in every value.
fn wide_list(words: &[i32], shape: Shape, wide: bool) -> Option<Guarded> {
    let narrow: Vec<i32> = match shape {
        Shape::Null => return None,
        Shape::Terminated => {
            let mut l = words.to_vec();
            if l.len() % 2 == 1 {
                l.push(0);
            }
            l.push(EGL_NONE);
            l
        }
        Shape::Unterminated => unterminated(words),
    };
    let last = narrow.len() - 1;
    let list: Vec<isize> = narrow
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let v = w as isize;
            if wide && i % 2 == 1 && !(matches!(shape, Shape::Terminated) && i == last) {
                v ^ (1 << 40)
            } else {
                v
            }
        })
        .collect();
    let mut bytes = Vec::with_capacity(list.len() * 8);
    for w in list {
        bytes.extend_from_slice(&w.to_ne_bytes());
    }
    Some(Guarded::from_bytes(&bytes))
}

fn bytes_of(words: &[i32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_ne_bytes()).collect()
}

fn ptr_of<T>(g: &Option<Guarded>) -> *const T {
    g.as_ref()
        .map_or(std::ptr::null(), |g| g.p::<T>().cast_const())
}

/// `eglGetError` must be an EGL error code.
#[track_caller]
fn check_egl(what: &str) -> i32 {
    // SAFETY: no arguments.
    let e = unsafe { gl!(c"eglGetError": fn() -> i32)() };
    assert!(
        (0x3000..=0x300E).contains(&e) || e == 0x322B,
        "{what}: eglGetError returned 0x{e:04X}"
    );
    e
}

/// What the operations made, for later operations to use.
#[derive(Default)]
struct Pools {
    displays: Vec<usize>,
    devices: Vec<usize>,
    configs: Vec<usize>,
    /// (display, context).
    contexts: Vec<(usize, usize)>,
    /// (display, surface).
    surfaces: Vec<(usize, usize)>,
}

/// A handle from `pool` picked by `a`, NULL, or (1 in 8) the arbitrary value `a`.
fn pick(pool: &[usize], a: u32) -> P {
    if a % 8 == 7 {
        return a as usize as P;
    }
    if pool.is_empty() {
        return null_mut();
    }
    pool[(a / 8) as usize % pool.len()] as P
}

fn pick_pair(pool: &[(usize, usize)], a: u32) -> (P, P) {
    if a % 8 == 7 || pool.is_empty() {
        return (null_mut(), a as usize as P);
    }
    let (d, h) = pool[(a / 8) as usize % pool.len()];
    (d as P, h as P)
}

/// An out-array of `n` pointers, NULL when `n` is 0 and `null` asks for it.
fn out_array(n: usize, null: bool) -> Option<Guarded> {
    (!null).then(|| Guarded::new(n * std::mem::size_of::<P>()))
}

fn read_handles(buf: &Option<Guarded>, n: i32) -> Vec<usize> {
    let Some(buf) = buf else { return Vec::new() };
    let cap = buf.len() / std::mem::size_of::<P>();
    assert!(
        n >= 0 && n as usize <= cap,
        "the library reports {n} handles written into room for {cap}"
    );
    buf.bytes()
        .chunks_exact(8)
        .take(n as usize)
        .map(|c| usize::from_ne_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

fn init() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        // No X server: window surfaces must fail on their own, and Xlib's default error handler
        // (which exits) is never reached. Removed before any thread of the library starts.
        std::env::remove_var("DISPLAY");
    });
}

fn step(pools: &mut Pools, input: &mut Input) {
    let tag = input.u8();
    let a = input.u32();
    let b = input.u32();
    let n = usize::from(input.u8() % 48);
    let words: Vec<i32> = (0..n).map(|_| word(input.u32())).collect();
    let shape = match tag >> 4 & 7 {
        0..=4 => Shape::Terminated,
        5 => Shape::Null,
        _ => Shape::Unterminated,
    };
    let wide = tag & 0x80 != 0;
    let dpy = pick(&pools.displays, a);
    // SAFETY (every call below): lists and out-pointers are guarded buffers of the sizes passed
    // (or NULL where EGL allows it); handles are pointer values EGL only compares, never
    // dereferences.
    match tag & 0x0F {
        0 | 1 => {
            let platform = if a & 0x100 != 0 {
                a
            } else {
                PLATFORMS[(a >> 9) as usize % PLATFORMS.len()]
            };
            let native = if platform == 0x313F {
                pick(&pools.devices, b)
            } else {
                null_mut()
            };
            let d = if tag & 0x0F == 0 {
                let list = wide_list(&words, shape, wide);
                // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                unsafe {
                    gl!(c"eglGetPlatformDisplay": fn(u32, P, *const isize) -> P)(
                        platform,
                        native,
                        ptr_of(&list),
                    )
                }
            } else {
                let list = int_list(&words, shape);
                // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                unsafe {
                    gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P)(
                        platform,
                        native,
                        ptr_of(&list),
                    )
                }
            };
            check_egl("eglGetPlatformDisplay");
            if !d.is_null() {
                let (major, minor) = (Guarded::new(4), Guarded::new(4));
                // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                unsafe {
                    gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32)(d, major.p(), minor.p())
                };
                check_egl("eglInitialize");
                if !pools.displays.contains(&(d as usize)) {
                    pools.displays.push(d as usize);
                }
            }
        }
        2 | 3 => {
            let size = if b & 0x80 != 0 {
                -(b as i32 & 7)
            } else {
                (b & 7) as i32
            };
            let configs = out_array(size.max(0) as usize, b & 0x40 != 0);
            let num = Guarded::new(4);
            let ok = if tag & 0x0F == 2 {
                let list = int_list(&words, shape);
                // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                unsafe {
                    gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32)(
                        dpy,
                        ptr_of(&list),
                        configs.as_ref().map_or(null_mut(), |g| g.p()),
                        size,
                        num.p(),
                    )
                }
            } else {
                // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                unsafe {
                    gl!(c"eglGetConfigs": fn(P, *mut P, i32, *mut i32) -> u32)(
                        dpy,
                        configs.as_ref().map_or(null_mut(), |g| g.p()),
                        size,
                        num.p(),
                    )
                }
            };
            check_egl("eglChooseConfig/eglGetConfigs");
            if ok == 1 {
                // SAFETY: `num` holds one i32.
                let count = unsafe { num.p::<i32>().read() };
                for c in read_handles(&configs, count) {
                    if !pools.configs.contains(&c) {
                        pools.configs.push(c);
                    }
                }
            }
        }
        4 => {
            let value = Guarded::new(4);
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            unsafe {
                gl!(c"eglGetConfigAttrib": fn(P, P, i32, *mut i32) -> u32)(
                    dpy,
                    pick(&pools.configs, b),
                    word(b >> 8 | 0xFF00_0000),
                    value.p(),
                )
            };
            check_egl("eglGetConfigAttrib");
        }
        5 => {
            let api = if b & 0x10 != 0 {
                b
            } else {
                APIS[b as usize % APIS.len()]
            };
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            unsafe { gl!(c"eglBindAPI": fn(u32) -> u32)(api) };
            check_egl("eglBindAPI");
            let cfg = if b & 0x20 != 0 {
                null_mut()
            } else {
                pick(&pools.configs, b >> 8)
            };
            let share = if b & 0x40 != 0 {
                pick_pair(&pools.contexts, b >> 16).1
            } else {
                null_mut()
            };
            let list = int_list(&words, shape);
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            let ctx = unsafe {
                gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P)(
                    dpy,
                    cfg,
                    share,
                    ptr_of(&list),
                )
            };
            check_egl("eglCreateContext");
            if !ctx.is_null() {
                pools.contexts.push((dpy as usize, ctx as usize));
            }
        }
        6 => {
            let (d, ctx) = pick_pair(&pools.contexts, a);
            let value = Guarded::new(4);
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            unsafe {
                gl!(c"eglQueryContext": fn(P, P, i32, *mut i32) -> u32)(d, ctx, word(b), value.p())
            };
            check_egl("eglQueryContext");
        }
        7 => {
            let list = int_list(&words, shape);
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            let s = unsafe {
                gl!(c"eglCreatePbufferSurface": fn(P, P, *const i32) -> P)(
                    dpy,
                    pick(&pools.configs, b),
                    ptr_of(&list),
                )
            };
            check_egl("eglCreatePbufferSurface");
            if !s.is_null() {
                pools.surfaces.push((dpy as usize, s as usize));
            }
        }
        8 => {
            let cfg = pick(&pools.configs, b >> 8);
            let window = Guarded::from_bytes(&u64::from(a).to_ne_bytes());
            let native: P = if b & 0x10 != 0 {
                null_mut()
            } else {
                window.p()
            };
            let s = match b % 3 {
                0 => {
                    let list = int_list(&words, shape);
                    // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                    unsafe {
                        gl!(c"eglCreateWindowSurface": fn(P, P, usize, *const i32) -> P)(
                            dpy,
                            cfg,
                            a as usize,
                            ptr_of(&list),
                        )
                    }
                }
                1 => {
                    let list = wide_list(&words, shape, wide);
                    // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                    unsafe {
                        gl!(c"eglCreatePlatformWindowSurface": fn(P, P, P, *const isize) -> P)(
                            dpy,
                            cfg,
                            native,
                            ptr_of(&list),
                        )
                    }
                }
                _ => {
                    let list = int_list(&words, shape);
                    // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                    unsafe {
                        gl!(c"eglCreatePlatformWindowSurfaceEXT": fn(P, P, P, *const i32) -> P)(
                            dpy,
                            cfg,
                            native,
                            ptr_of(&list),
                        )
                    }
                }
            };
            check_egl("eglCreate*WindowSurface");
            assert!(s.is_null(), "a window surface with no X server");
        }
        9 => {
            let (d, s) = pick_pair(&pools.surfaces, a);
            let value = Guarded::new(4);
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            unsafe {
                gl!(c"eglQuerySurface": fn(P, P, i32, *mut i32) -> u32)(d, s, word(b), value.p())
            };
            check_egl("eglQuerySurface");
            let attribute = words.first().copied().unwrap_or(0x3093);
            let v = words.get(1).copied().unwrap_or(0x3095);
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            unsafe { gl!(c"eglSurfaceAttrib": fn(P, P, i32, i32) -> u32)(d, s, attribute, v) };
            check_egl("eglSurfaceAttrib");
        }
        10 => {
            let (d, draw) = pick_pair(&pools.surfaces, a);
            let read = if b & 1 != 0 {
                pick_pair(&pools.surfaces, a >> 8).1
            } else {
                draw
            };
            let (_, ctx) = pick_pair(&pools.contexts, b >> 1);
            let d = if d.is_null() { dpy } else { d };
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            let ok = unsafe { gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32)(d, draw, read, ctx) };
            check_egl("eglMakeCurrent");
            if ok == 1 && !ctx.is_null() {
                // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                unsafe {
                    gl!(c"glClearColor": fn(f32, f32, f32, f32))(0.1, 0.2, 0.3, 0.4);
                    gl!(c"glClear": fn(u32))(0x4000);
                    gl!(c"glFinish": fn())();
                }
                // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                let e = unsafe { gl!(c"glGetError": fn() -> u32)() };
                assert!(
                    e == 0 || (0x0500..=0x0506).contains(&e) && e != 0x0505,
                    "glClear on a fresh current context: 0x{e:04X}"
                );
                if b & 2 != 0 {
                    // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                    unsafe { gl!(c"eglSwapBuffers": fn(P, P) -> u32)(d, draw) };
                    check_egl("eglSwapBuffers");
                }
            }
        }
        11 => {
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            let text = unsafe {
                gl!(c"eglQueryString": fn(P, i32) -> *const c_char)(
                    if a & 0x10 != 0 { null_mut() } else { dpy },
                    word(b),
                )
            };
            check_egl("eglQueryString");
            if !text.is_null() {
                // SAFETY: EGL returns NUL-terminated strings that live as long as the display.
                let _ = unsafe { std::ffi::CStr::from_ptr(text) }.to_bytes().len();
            }
            let value = Guarded::new(8);
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            unsafe {
                gl!(c"eglQueryDisplayAttribEXT": fn(P, i32, *mut isize) -> u32)(
                    dpy,
                    word(b >> 8 | 0xFF00_0000),
                    value.p(),
                )
            };
            check_egl("eglQueryDisplayAttribEXT");
            let max = (b >> 16) as i8 as i32 % 4;
            let devices = out_array(max.max(0) as usize, b & 0x20 != 0);
            let num = Guarded::new(4);
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            let ok = unsafe {
                gl!(c"eglQueryDevicesEXT": fn(i32, *mut P, *mut i32) -> u32)(
                    max,
                    devices.as_ref().map_or(null_mut(), |g| g.p()),
                    num.p(),
                )
            };
            check_egl("eglQueryDevicesEXT");
            if ok == 1 {
                // SAFETY: `num` holds one i32.
                let count = unsafe { num.p::<i32>().read() };
                for d in read_handles(&devices, count) {
                    if !pools.devices.contains(&d) {
                        pools.devices.push(d);
                    }
                }
            }
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            let s = unsafe {
                gl!(c"eglQueryDeviceStringEXT": fn(P, i32) -> *const c_char)(
                    pick(&pools.devices, a >> 8),
                    word(b),
                )
            };
            check_egl("eglQueryDeviceStringEXT");
            if !s.is_null() {
                // SAFETY: as above.
                let _ = unsafe { std::ffi::CStr::from_ptr(s) }.to_bytes().len();
            }
        }
        12 => {
            if b & 1 == 0 {
                let (d, s) = pick_pair(&pools.surfaces, a);
                // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                unsafe { gl!(c"eglDestroySurface": fn(P, P) -> u32)(d, s) };
            } else {
                let (d, c) = pick_pair(&pools.contexts, a);
                // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                unsafe { gl!(c"eglDestroyContext": fn(P, P) -> u32)(d, c) };
            }
            check_egl("eglDestroy*");
        }
        13 => {
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            unsafe { gl!(c"eglSwapInterval": fn(P, i32) -> u32)(dpy, b as i32) };
            check_egl("eglSwapInterval");
            if a & 0xF0 == 0xF0 {
                // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
                unsafe { gl!(c"eglTerminate": fn(P) -> u32)(dpy) };
                check_egl("eglTerminate");
            }
        }
        // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
        14 => unsafe {
            gl!(c"eglGetCurrentContext": fn() -> P)();
            gl!(c"eglGetCurrentDisplay": fn() -> P)();
            gl!(c"eglGetCurrentSurface": fn(i32) -> P)(word(b));
            check_egl("eglGetCurrent*");
            gl!(c"eglQueryAPI": fn() -> u32)();
            if b & 1 != 0 {
                gl!(c"eglReleaseThread": fn() -> u32)();
                check_egl("eglReleaseThread");
            }
        },
        _ => {
            let (major, minor) = (Guarded::new(4), Guarded::new(4));
            let (pa, pb) = if b & 1 != 0 {
                (null_mut(), null_mut())
            } else {
                (major.p(), minor.p())
            };
            // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
            unsafe { gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32)(dpy, pa, pb) };
            check_egl("eglInitialize");
        }
    }
}

/// Releases the thread's context and destroys everything the input made.
fn cleanup(pools: &Pools) {
    // SAFETY: guarded buffers of the sizes passed, or NULL where EGL allows it; handles are values EGL compares, never dereferences.
    unsafe {
        gl!(c"eglReleaseThread": fn() -> u32)();
        for &(d, s) in &pools.surfaces {
            gl!(c"eglDestroySurface": fn(P, P) -> u32)(d as P, s as P);
        }
        for &(d, c) in &pools.contexts {
            gl!(c"eglDestroyContext": fn(P, P) -> u32)(d as P, c as P);
        }
    }
    check_egl("cleanup");
}

fn run(data: &[u8]) {
    init();
    let counters = Counters::now();
    let mut pools = Pools::default();
    let mut input = Input::new(data);
    let mut steps = 0;
    while !input.is_empty() && steps < 64 {
        step(&mut pools, &mut input);
        steps += 1;
    }
    cleanup(&pools);
    counters.check("egl_attribs");
}

fuzz_target!(|data: &[u8]| run(data));
