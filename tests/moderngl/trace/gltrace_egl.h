/* Shared by the generated GL wrappers and the EGL half of the trace shim (see gen.py). */
#define GL_GLEXT_PROTOTYPES 0
#include <GL/glcorearb.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gl_entry {
    const char *name;
    void **real;
    void *wrapper;
};

static void trace(const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    fputs("TRACE ", stderr);
    vfprintf(stderr, f, ap);
    fputc('\n', stderr);
    va_end(ap);
}
