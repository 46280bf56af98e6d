//! EGL 1.5 enumerants, with the values of the Khronos `EGL/egl.h` and `EGL/eglext.h` headers.
//!
//! Only what the object model uses or must recognise (to answer `EGL_BAD_ATTRIBUTE` rather than
//! ignore a known-but-unsupported attribute). The C ABI reuses these, so the numbers are the ABI.
#![allow(missing_docs)]

pub type EGLint = i32;
pub type EGLenum = u32;
/// `EGLAttrib` is `intptr_t`; the object model only sees 64-bit values.
pub type EGLAttrib = isize;

pub const EGL_FALSE: EGLint = 0;
pub const EGL_TRUE: EGLint = 1;
pub const EGL_DONT_CARE: EGLint = -1;
pub const EGL_UNKNOWN: EGLint = -1;
pub const EGL_DEFAULT_DISPLAY: usize = 0;

// Errors.
pub const EGL_SUCCESS: EGLint = 0x3000;
pub const EGL_NOT_INITIALIZED: EGLint = 0x3001;
pub const EGL_BAD_ACCESS: EGLint = 0x3002;
pub const EGL_BAD_ALLOC: EGLint = 0x3003;
pub const EGL_BAD_ATTRIBUTE: EGLint = 0x3004;
pub const EGL_BAD_CONFIG: EGLint = 0x3005;
pub const EGL_BAD_CONTEXT: EGLint = 0x3006;
pub const EGL_BAD_CURRENT_SURFACE: EGLint = 0x3007;
pub const EGL_BAD_DISPLAY: EGLint = 0x3008;
pub const EGL_BAD_MATCH: EGLint = 0x3009;
pub const EGL_BAD_NATIVE_PIXMAP: EGLint = 0x300A;
pub const EGL_BAD_NATIVE_WINDOW: EGLint = 0x300B;
pub const EGL_BAD_PARAMETER: EGLint = 0x300C;
pub const EGL_BAD_SURFACE: EGLint = 0x300D;
pub const EGL_CONTEXT_LOST: EGLint = 0x300E;
pub const EGL_BAD_DEVICE_EXT: EGLint = 0x322B;

// Config attributes.
pub const EGL_BUFFER_SIZE: EGLint = 0x3020;
pub const EGL_ALPHA_SIZE: EGLint = 0x3021;
pub const EGL_BLUE_SIZE: EGLint = 0x3022;
pub const EGL_GREEN_SIZE: EGLint = 0x3023;
pub const EGL_RED_SIZE: EGLint = 0x3024;
pub const EGL_DEPTH_SIZE: EGLint = 0x3025;
pub const EGL_STENCIL_SIZE: EGLint = 0x3026;
pub const EGL_CONFIG_CAVEAT: EGLint = 0x3027;
pub const EGL_CONFIG_ID: EGLint = 0x3028;
pub const EGL_LEVEL: EGLint = 0x3029;
pub const EGL_MAX_PBUFFER_HEIGHT: EGLint = 0x302A;
pub const EGL_MAX_PBUFFER_PIXELS: EGLint = 0x302B;
pub const EGL_MAX_PBUFFER_WIDTH: EGLint = 0x302C;
pub const EGL_NATIVE_RENDERABLE: EGLint = 0x302D;
pub const EGL_NATIVE_VISUAL_ID: EGLint = 0x302E;
pub const EGL_NATIVE_VISUAL_TYPE: EGLint = 0x302F;
pub const EGL_SAMPLES: EGLint = 0x3031;
pub const EGL_SAMPLE_BUFFERS: EGLint = 0x3032;
pub const EGL_SURFACE_TYPE: EGLint = 0x3033;
pub const EGL_TRANSPARENT_TYPE: EGLint = 0x3034;
pub const EGL_TRANSPARENT_BLUE_VALUE: EGLint = 0x3035;
pub const EGL_TRANSPARENT_GREEN_VALUE: EGLint = 0x3036;
pub const EGL_TRANSPARENT_RED_VALUE: EGLint = 0x3037;
pub const EGL_NONE: EGLint = 0x3038;
pub const EGL_BIND_TO_TEXTURE_RGB: EGLint = 0x3039;
pub const EGL_BIND_TO_TEXTURE_RGBA: EGLint = 0x303A;
pub const EGL_MIN_SWAP_INTERVAL: EGLint = 0x303B;
pub const EGL_MAX_SWAP_INTERVAL: EGLint = 0x303C;
pub const EGL_LUMINANCE_SIZE: EGLint = 0x303D;
pub const EGL_ALPHA_MASK_SIZE: EGLint = 0x303E;
pub const EGL_COLOR_BUFFER_TYPE: EGLint = 0x303F;
pub const EGL_RENDERABLE_TYPE: EGLint = 0x3040;
pub const EGL_MATCH_NATIVE_PIXMAP: EGLint = 0x3041;
pub const EGL_CONFORMANT: EGLint = 0x3042;

// Config attribute values.
pub const EGL_SLOW_CONFIG: EGLint = 0x3050;
pub const EGL_NON_CONFORMANT_CONFIG: EGLint = 0x3051;
pub const EGL_TRANSPARENT_RGB: EGLint = 0x3052;
pub const EGL_RGB_BUFFER: EGLint = 0x308E;
pub const EGL_LUMINANCE_BUFFER: EGLint = 0x308F;

// EGL_SURFACE_TYPE bits.
pub const EGL_PBUFFER_BIT: EGLint = 0x0001;
pub const EGL_PIXMAP_BIT: EGLint = 0x0002;
pub const EGL_WINDOW_BIT: EGLint = 0x0004;
pub const EGL_VG_COLORSPACE_LINEAR_BIT: EGLint = 0x0020;
pub const EGL_VG_ALPHA_FORMAT_PRE_BIT: EGLint = 0x0040;
pub const EGL_MULTISAMPLE_RESOLVE_BOX_BIT: EGLint = 0x0200;
pub const EGL_SWAP_BEHAVIOR_PRESERVED_BIT: EGLint = 0x0400;

// EGL_RENDERABLE_TYPE / EGL_CONFORMANT bits.
pub const EGL_OPENGL_ES_BIT: EGLint = 0x0001;
pub const EGL_OPENVG_BIT: EGLint = 0x0002;
pub const EGL_OPENGL_ES2_BIT: EGLint = 0x0004;
pub const EGL_OPENGL_BIT: EGLint = 0x0008;
pub const EGL_OPENGL_ES3_BIT: EGLint = 0x0040;

// eglQueryString names.
pub const EGL_VENDOR: EGLint = 0x3053;
pub const EGL_VERSION: EGLint = 0x3054;
pub const EGL_EXTENSIONS: EGLint = 0x3055;
pub const EGL_CLIENT_APIS: EGLint = 0x308D;

// Surface attributes and values.
pub const EGL_HEIGHT: EGLint = 0x3056;
pub const EGL_WIDTH: EGLint = 0x3057;
pub const EGL_LARGEST_PBUFFER: EGLint = 0x3058;
pub const EGL_DRAW: EGLint = 0x3059;
pub const EGL_READ: EGLint = 0x305A;
pub const EGL_NO_TEXTURE: EGLint = 0x305C;
pub const EGL_TEXTURE_RGB: EGLint = 0x305D;
pub const EGL_TEXTURE_RGBA: EGLint = 0x305E;
pub const EGL_TEXTURE_2D: EGLint = 0x305F;
pub const EGL_TEXTURE_FORMAT: EGLint = 0x3080;
pub const EGL_TEXTURE_TARGET: EGLint = 0x3081;
pub const EGL_MIPMAP_TEXTURE: EGLint = 0x3082;
pub const EGL_MIPMAP_LEVEL: EGLint = 0x3083;
pub const EGL_BACK_BUFFER: EGLint = 0x3084;
pub const EGL_SINGLE_BUFFER: EGLint = 0x3085;
pub const EGL_RENDER_BUFFER: EGLint = 0x3086;
pub const EGL_VG_COLORSPACE: EGLint = 0x3087;
pub const EGL_VG_ALPHA_FORMAT: EGLint = 0x3088;
pub const EGL_VG_COLORSPACE_SRGB: EGLint = 0x3089;
pub const EGL_VG_COLORSPACE_LINEAR: EGLint = 0x308A;
pub const EGL_VG_ALPHA_FORMAT_NONPRE: EGLint = 0x308B;
pub const EGL_VG_ALPHA_FORMAT_PRE: EGLint = 0x308C;
pub const EGL_HORIZONTAL_RESOLUTION: EGLint = 0x3090;
pub const EGL_VERTICAL_RESOLUTION: EGLint = 0x3091;
pub const EGL_PIXEL_ASPECT_RATIO: EGLint = 0x3092;
pub const EGL_SWAP_BEHAVIOR: EGLint = 0x3093;
pub const EGL_BUFFER_PRESERVED: EGLint = 0x3094;
pub const EGL_BUFFER_DESTROYED: EGLint = 0x3095;
pub const EGL_MULTISAMPLE_RESOLVE: EGLint = 0x3099;
pub const EGL_MULTISAMPLE_RESOLVE_DEFAULT: EGLint = 0x309A;
pub const EGL_GL_COLORSPACE: EGLint = 0x309D;
pub const EGL_GL_COLORSPACE_SRGB: EGLint = 0x3089;
pub const EGL_GL_COLORSPACE_LINEAR: EGLint = 0x308A;

// Client APIs.
pub const EGL_OPENGL_ES_API: EGLenum = 0x30A0;
pub const EGL_OPENVG_API: EGLenum = 0x30A1;
pub const EGL_OPENGL_API: EGLenum = 0x30A2;

// Context attributes (EGL 1.5 core names, equal to the EGL_KHR_create_context ones).
pub const EGL_CONTEXT_CLIENT_TYPE: EGLint = 0x3097;
pub const EGL_CONTEXT_CLIENT_VERSION: EGLint = 0x3098;
pub const EGL_CONTEXT_MAJOR_VERSION: EGLint = 0x3098;
pub const EGL_CONTEXT_MINOR_VERSION: EGLint = 0x30FB;
pub const EGL_CONTEXT_FLAGS_KHR: EGLint = 0x30FC;
pub const EGL_CONTEXT_OPENGL_PROFILE_MASK: EGLint = 0x30FD;
pub const EGL_CONTEXT_OPENGL_DEBUG: EGLint = 0x31B0;
pub const EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE: EGLint = 0x31B1;
pub const EGL_CONTEXT_OPENGL_ROBUST_ACCESS: EGLint = 0x31B2;
pub const EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY: EGLint = 0x31BD;
pub const EGL_NO_RESET_NOTIFICATION: EGLint = 0x31BE;
pub const EGL_LOSE_CONTEXT_ON_RESET: EGLint = 0x31BF;
pub const EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT: EGLint = 0x0001;
pub const EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT: EGLint = 0x0002;
pub const EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR: EGLint = 0x0001;
pub const EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR: EGLint = 0x0002;
pub const EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR: EGLint = 0x0004;

// Platforms and devices.
pub const EGL_PLATFORM_DEVICE_EXT: EGLenum = 0x313F;
pub const EGL_PLATFORM_SURFACELESS_MESA: EGLenum = 0x31DD;
/// `EGL_PLATFORM_X11_KHR` (= `EGL_PLATFORM_X11_EXT`): the native display is an Xlib `Display*`.
pub const EGL_PLATFORM_X11_KHR: EGLenum = 0x31D5;
/// `EGL_PLATFORM_WAYLAND_KHR` (= `EGL_PLATFORM_WAYLAND_EXT`): the native display is a
/// `wl_display*`, native windows are `wl_egl_window*`.
pub const EGL_PLATFORM_WAYLAND_KHR: EGLenum = 0x31D8;
/// `EGL_PLATFORM_XCB_EXT` (EGL_EXT_platform_xcb): the native display is an
/// `xcb_connection_t*`, native windows are `xcb_window_t`s.
pub const EGL_PLATFORM_XCB_EXT: EGLenum = 0x31DC;
/// `EGL_PLATFORM_XCB_SCREEN_EXT`: the XCB platform's one attribute (the screen number, 0 when
/// not given).
pub const EGL_PLATFORM_XCB_SCREEN_EXT: EGLint = 0x31DE;
/// `EGL_PLATFORM_X11_SCREEN_KHR`: the X11 platform's one attribute (the screen number).
pub const EGL_PLATFORM_X11_SCREEN_KHR: EGLint = 0x31D6;
pub const EGL_DEVICE_EXT: EGLint = 0x322C;

// Sync objects (EGL 1.5 core names, equal to the EGL_KHR_fence_sync / EGL_KHR_wait_sync ones).
pub const EGL_SYNC_PRIOR_COMMANDS_COMPLETE: EGLint = 0x30F0;
pub const EGL_SYNC_STATUS: EGLint = 0x30F1;
pub const EGL_SIGNALED: EGLint = 0x30F2;
pub const EGL_UNSIGNALED: EGLint = 0x30F3;
pub const EGL_TIMEOUT_EXPIRED: EGLint = 0x30F5;
pub const EGL_CONDITION_SATISFIED: EGLint = 0x30F6;
pub const EGL_SYNC_TYPE: EGLint = 0x30F7;
pub const EGL_SYNC_CONDITION: EGLint = 0x30F8;
pub const EGL_SYNC_FENCE: EGLenum = 0x30F9;
pub const EGL_SYNC_FLUSH_COMMANDS_BIT: EGLint = 0x0001;
/// `EGL_FOREVER`: a timeout that never expires (an `EGLTime`, nanoseconds).
pub const EGL_FOREVER: u64 = u64::MAX;
/// `EGL_SYNC_REUSABLE_KHR` (EGL_KHR_reusable_sync, not offered): a known but unsupported type.
pub const EGL_SYNC_REUSABLE_KHR: EGLenum = 0x30FA;
/// `EGL_SYNC_CL_EVENT` (EGL 1.5, OpenCL interop, not offered).
pub const EGL_SYNC_CL_EVENT: EGLenum = 0x30FE;

// Surface and context extensions.
/// `EGL_BUFFER_AGE_EXT` (EGL_EXT_buffer_age), an `eglQuerySurface` attribute.
pub const EGL_BUFFER_AGE_EXT: EGLint = 0x313D;
/// `EGL_PRESENT_OPAQUE_EXT` (EGL_EXT_present_opaque), a window surface attribute.
pub const EGL_PRESENT_OPAQUE_EXT: EGLint = 0x31DF;
/// EGL_KHR_context_flush_control.
pub const EGL_CONTEXT_RELEASE_BEHAVIOR_KHR: EGLint = 0x2097;
pub const EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR: EGLint = 0;
pub const EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR: EGLint = 0x2098;
/// EGL_KHR_create_context_no_error: a context whose GL reports no errors (GL_KHR_no_error).
pub const EGL_CONTEXT_OPENGL_NO_ERROR_KHR: EGLint = 0x31B3;
/// EGL_EXT_create_context_robustness (its strategy values equal EGL 1.5's).
pub const EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT: EGLint = 0x30BF;
pub const EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT: EGLint = 0x3138;

/// The header name of an error code, for messages.
pub fn error_name(code: EGLint) -> &'static str {
    match code {
        EGL_SUCCESS => "EGL_SUCCESS",
        EGL_NOT_INITIALIZED => "EGL_NOT_INITIALIZED",
        EGL_BAD_ACCESS => "EGL_BAD_ACCESS",
        EGL_BAD_ALLOC => "EGL_BAD_ALLOC",
        EGL_BAD_ATTRIBUTE => "EGL_BAD_ATTRIBUTE",
        EGL_BAD_CONFIG => "EGL_BAD_CONFIG",
        EGL_BAD_CONTEXT => "EGL_BAD_CONTEXT",
        EGL_BAD_CURRENT_SURFACE => "EGL_BAD_CURRENT_SURFACE",
        EGL_BAD_DISPLAY => "EGL_BAD_DISPLAY",
        EGL_BAD_MATCH => "EGL_BAD_MATCH",
        EGL_BAD_NATIVE_PIXMAP => "EGL_BAD_NATIVE_PIXMAP",
        EGL_BAD_NATIVE_WINDOW => "EGL_BAD_NATIVE_WINDOW",
        EGL_BAD_PARAMETER => "EGL_BAD_PARAMETER",
        EGL_BAD_SURFACE => "EGL_BAD_SURFACE",
        EGL_CONTEXT_LOST => "EGL_CONTEXT_LOST",
        EGL_BAD_DEVICE_EXT => "EGL_BAD_DEVICE_EXT",
        _ => "unknown EGL error",
    }
}
