/* The EGL half of the trace shim: exported EGL functions that log and forward. */
static void *real_lib;

static void *real(const char *name) {
    if (!real_lib) {
        const char *path = getenv("GLTRACE_REAL_EGL");
        if (!path) path = "/usr/lib/x86_64-linux-gnu/libEGL.so.1";
        real_lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!real_lib) { fprintf(stderr, "gltrace: %s\n", dlerror()); abort(); }
    }
    void *f = dlsym(real_lib, name);
    if (!f) {
        void *(*gpa)(const char *) = (void *(*)(const char *))dlsym(real_lib, "eglGetProcAddress");
        f = gpa ? gpa(name) : NULL;
    }
    if (!f) { fprintf(stderr, "gltrace: real %s missing\n", name); abort(); }
    return f;
}

#define REAL(name) static __typeof__(&name) r; if (!r) r = (__typeof__(&name))real(#name)

static void attribs(const char *what, const EGLint *a) {
    char buf[512] = "";
    size_t n = 0;
    for (; a && a[0] != EGL_NONE && n < sizeof buf - 40; a += 2)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "0x%x=0x%x ", (unsigned)a[0], (unsigned)a[1]);
    trace("  %s: %s%s", what, a ? buf : "NULL", a ? "EGL_NONE" : "");
}

EGLint eglGetError(void) { REAL(eglGetError); EGLint e = r(); trace("eglGetError() -> 0x%x", e); return e; }
EGLDisplay eglGetDisplay(EGLNativeDisplayType d) { REAL(eglGetDisplay); EGLDisplay x = r(d); trace("eglGetDisplay(%p) -> %p", (void *)d, x); return x; }
EGLBoolean eglInitialize(EGLDisplay d, EGLint *ma, EGLint *mi) {
    REAL(eglInitialize); EGLBoolean b = r(d, ma, mi);
    trace("eglInitialize(%p, %p, %p) -> %u (%d.%d)", d, (void *)ma, (void *)mi, b, ma ? *ma : -1, mi ? *mi : -1); return b;
}
EGLBoolean eglTerminate(EGLDisplay d) { REAL(eglTerminate); EGLBoolean b = r(d); trace("eglTerminate(%p) -> %u", d, b); return b; }
const char *eglQueryString(EGLDisplay d, EGLint n) { REAL(eglQueryString); const char *s = r(d, n); trace("eglQueryString(%p, 0x%x) -> %s", d, n, s ? s : "NULL"); return s; }
EGLBoolean eglChooseConfig(EGLDisplay d, const EGLint *a, EGLConfig *c, EGLint size, EGLint *num) {
    REAL(eglChooseConfig); EGLBoolean b = r(d, a, c, size, num);
    trace("eglChooseConfig(%p, attribs, %p, %d, %p) -> %u (num %d)", d, (void *)c, size, (void *)num, b, num ? *num : -1);
    attribs("config attribs", a); return b;
}
EGLBoolean eglBindAPI(EGLenum api) { REAL(eglBindAPI); EGLBoolean b = r(api); trace("eglBindAPI(0x%x) -> %u", api, b); return b; }
EGLContext eglCreateContext(EGLDisplay d, EGLConfig c, EGLContext s, const EGLint *a) {
    REAL(eglCreateContext); EGLContext x = r(d, c, s, a);
    trace("eglCreateContext(%p, %p, share %p, attribs) -> %p", d, c, s, x); attribs("context attribs", a); return x;
}
EGLBoolean eglDestroyContext(EGLDisplay d, EGLContext c) { REAL(eglDestroyContext); EGLBoolean b = r(d, c); trace("eglDestroyContext(%p, %p) -> %u", d, c, b); return b; }
EGLBoolean eglMakeCurrent(EGLDisplay d, EGLSurface dr, EGLSurface rd, EGLContext c) {
    REAL(eglMakeCurrent); EGLBoolean b = r(d, dr, rd, c);
    trace("eglMakeCurrent(%p, draw %p, read %p, ctx %p) -> %u", d, dr, rd, c, b); return b;
}
EGLContext eglGetCurrentContext(void) { REAL(eglGetCurrentContext); EGLContext x = r(); trace("eglGetCurrentContext() -> %p", x); return x; }
EGLDisplay eglGetCurrentDisplay(void) { REAL(eglGetCurrentDisplay); EGLDisplay x = r(); trace("eglGetCurrentDisplay() -> %p", x); return x; }
EGLSurface eglGetCurrentSurface(EGLint w) { REAL(eglGetCurrentSurface); EGLSurface x = r(w); trace("eglGetCurrentSurface(0x%x) -> %p", w, x); return x; }
EGLBoolean eglReleaseThread(void) { REAL(eglReleaseThread); EGLBoolean b = r(); trace("eglReleaseThread() -> %u", b); return b; }

static EGLBoolean w_eglQueryDevicesEXT(EGLint max, EGLDeviceEXT *devs, EGLint *num) {
    static PFNEGLQUERYDEVICESEXTPROC r; if (!r) r = (PFNEGLQUERYDEVICESEXTPROC)real("eglQueryDevicesEXT");
    EGLBoolean b = r(max, devs, num);
    trace("eglQueryDevicesEXT(%d, %p, %p) -> %u (num %d)", max, (void *)devs, (void *)num, b, num ? *num : -1); return b;
}
static EGLDisplay w_eglGetPlatformDisplayEXT(EGLenum p, void *nd, const EGLint *a) {
    static PFNEGLGETPLATFORMDISPLAYEXTPROC r; if (!r) r = (PFNEGLGETPLATFORMDISPLAYEXTPROC)real("eglGetPlatformDisplayEXT");
    EGLDisplay x = r(p, nd, a);
    trace("eglGetPlatformDisplayEXT(0x%x, %p, %p) -> %p", p, nd, (const void *)a, x); attribs("display attribs", a); return x;
}

static const struct { const char *name; void *f; } EGL_TABLE[] = {
    {"eglQueryDevicesEXT", (void *)w_eglQueryDevicesEXT},
    {"eglGetPlatformDisplayEXT", (void *)w_eglGetPlatformDisplayEXT},
    {"eglGetCurrentContext", (void *)eglGetCurrentContext},
    {"eglGetCurrentDisplay", (void *)eglGetCurrentDisplay},
    {"eglGetCurrentSurface", (void *)eglGetCurrentSurface},
    {0, 0},
};

__eglMustCastToProperFunctionPointerType eglGetProcAddress(const char *name) {
    REAL(eglGetProcAddress);
    for (int i = 0; EGL_TABLE[i].name; i++)
        if (!strcmp(EGL_TABLE[i].name, name)) {
            trace("PROC %s -> traced", name);
            return (__eglMustCastToProperFunctionPointerType)EGL_TABLE[i].f;
        }
    void *f = (void *)r(name);
    for (int i = 0; GL_TABLE[i].name; i++)
        if (!strcmp(GL_TABLE[i].name, name)) {
            *GL_TABLE[i].real = f;
            trace("PROC %s -> %s", name, f ? "traced" : "NULL");
            return (__eglMustCastToProperFunctionPointerType)(f ? GL_TABLE[i].wrapper : NULL);
        }
    trace("PROC %s -> %s (untraced)", name, f ? "real" : "NULL");
    return (__eglMustCastToProperFunctionPointerType)f;
}
