#!/usr/bin/env bash
# Unmodified Debian X11 and Wayland clients against ArenaGL and against Mesa (llvmpipe, the
# reference), under an Xvfb and a headless weston this script starts (weston with its own
# XDG_RUNTIME_DIR), each with a time limit, each judged by its own output; prints a table ArenaGL
# vs Mesa and the time it took.
#
#   scripts/clients.sh [--release] [--via auto|glvnd|sonames] [--keep-logs DIR]
#
# ArenaGL is put in front with `arenagl run --via MODE` (default auto: glvnd's vendor selection
# where the system has glvnd, else soname symlinks first on LD_LIBRARY_PATH; see src/run_cmd.rs);
# Mesa is the system's glvnd libGL/libEGL with LIBGL_ALWAYS_SOFTWARE=1.
# Clients (packages in scripts/deps.sh's test list):
#   glxinfo -B          the renderer line names ArenaGL (Mesa: llvmpipe)
#   eglinfo             the X11 platform's EGL vendor is ArenaGL (Mesa: Mesa Project)
#   glxgears            runs GLXGEARS_SECONDS (default 12) and reports "N frames in 5.0 seconds"
#   glmark2 --validate  a short scene list, every scene "Validation: Success"
#   GLFW (GLX), GLFW (EGL)  PyPI `glfw` (venv in target/glfw-venv, pinned): a 3.3 core window
#                       that clears, draws a triangle, reads the pixels back and swaps
#   SDL2 (GLX, EGL, Wayland)  PyPI `pysdl2` + `pysdl2-dll` (venv in target/sdl2-venv, pinned):
#                       a 3.3 core window through SDL's x11 driver (GLX, and EGL with
#                       SDL_VIDEO_X11_FORCE_EGL=1) and its wayland driver (EGL on weston) that
#                       clears, scissor-clears a square, reads the pixels back and swaps
#   es2gears_x11 -info, glmark2-es2 --validate  OpenGL ES clients (ArenaGL's ES contexts are
#                       new; a failure here is reported but does not fail the script)
#   es2gears_wayland -info, glmark2-wayland --validate, glmark2-es2-wayland --validate
#                       the same under weston --backend=headless-backend.so (EGL_KHR_platform_wayland,
#                       wl_egl_window surfaces, VK_KHR_wayland_surface); skipped without weston
# Exit status: 0 when every desktop-GL and Wayland client passes on ArenaGL; 1 otherwise; 2 for a
# setup failure.
set -uo pipefail
cd "$(dirname "$0")/.."

profile=debug
logs=""
via=auto
while [ $# -gt 0 ]; do
    case "$1" in
    --release) profile=release ;;
    --keep-logs) logs="$2"; shift ;;
    --via) via="$2"; shift ;;
    *) echo "usage: scripts/clients.sh [--release] [--via auto|glvnd|sonames] [--keep-logs DIR]" >&2; exit 2 ;;
    esac
    shift
done
start=$(date +%s)
GLFW_VERSION=2.11.0
PYSDL2_VERSION=0.9.17
PYSDL2_DLL_VERSION=2.32.10
GLXGEARS_SECONDS=${GLXGEARS_SECONDS:-12}

target="${CARGO_TARGET_DIR:-target}"
cargo_flags=(-q -p arenagl)
[ "$profile" = release ] && cargo_flags+=(--release)
cargo build "${cargo_flags[@]}" || { echo "clients.sh: build failed" >&2; exit 2; }
bin="$target/$profile/arenagl"
lib="$target/$profile/libarenagl.so"
[ -x "$bin" ] && [ -f "$lib" ] || { echo "clients.sh: no $bin / $lib" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/arenagl-clients.XXXXXX")
xvfb_pid=""
weston_pid=""
cleanup() {
    [ -n "$xvfb_pid" ] && kill -TERM "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
    [ -n "$weston_pid" ] && kill -TERM "$weston_pid" 2>/dev/null && wait "$weston_pid" 2>/dev/null
    if [ -n "$logs" ]; then mkdir -p "$logs" && cp "$work"/*.log "$logs"/ 2>/dev/null; fi
    rm -rf "$work"
}
trap cleanup EXIT

# An Xvfb on a free display number (its lock file names our child once it is up).
for n in $(seq 150 250); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] && continue
    Xvfb ":$n" -screen 0 640x480x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb_pid=$!
    for _ in $(seq 100); do
        [ -e "/tmp/.X11-unix/X$n" ] && [ "$(tr -d ' ' <"/tmp/.X$n-lock" 2>/dev/null)" = "$xvfb_pid" ] && break
        kill -0 "$xvfb_pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$xvfb_pid" 2>/dev/null && [ -e "/tmp/.X11-unix/X$n" ]; then
        export DISPLAY=":$n"
        break
    fi
    xvfb_pid=""
done
[ -n "$xvfb_pid" ] || { echo "clients.sh: could not start Xvfb" >&2; exit 2; }
unset WAYLAND_DISPLAY

# A headless weston in a runtime directory of our own (so no other compositor is involved); the
# Wayland clients get its socket and no $DISPLAY. Without weston their rows are skipped.
wl_env=()
if command -v weston >/dev/null; then
    wl_runtime="$work/xdg-runtime"
    mkdir -m 700 "$wl_runtime"
    XDG_RUNTIME_DIR="$wl_runtime" weston --backend=headless-backend.so --socket=arenagl-wl \
        --idle-time=0 >"$work/weston.log" 2>&1 &
    weston_pid=$!
    for _ in $(seq 100); do
        [ -S "$wl_runtime/arenagl-wl" ] && break
        kill -0 "$weston_pid" 2>/dev/null || break
        sleep 0.1
    done
    if [ -S "$wl_runtime/arenagl-wl" ]; then
        wl_env=(env -u DISPLAY XDG_RUNTIME_DIR="$wl_runtime" WAYLAND_DISPLAY=arenagl-wl)
    else
        echo "clients.sh: weston did not start; the Wayland rows are skipped" >&2
        weston_pid=""
    fi
fi

# pinned_venv DIR PACKAGE==VERSION... — a venv with exactly these PyPI packages, made once.
pinned_venv() {
    local dir=$1
    shift
    local stamp
    stamp="$dir/.pinned-$(echo "$*" | tr ' =' '_-')"
    [ -f "$stamp" ] && return
    rm -rf "$dir"
    if python3 -m venv "$dir" && "$dir/bin/pip" install -q "$@"; then
        touch "$stamp"
    else
        echo "clients.sh: no venv for $* (PyPI unreachable?); its rows will fail" >&2
    fi
}

# The GLFW client: PyPI glfw (its wheel carries libglfw), GL through ctypes.
venv="$target/glfw-venv"
pinned_venv "$venv" "glfw==$GLFW_VERSION"
# The SDL2 client: PyPI pysdl2 with pysdl2-dll's libSDL2 (x11 and wayland drivers built in).
sdl_venv="$target/sdl2-venv"
pinned_venv "$sdl_venv" "pysdl2==$PYSDL2_VERSION" "pysdl2-dll==$PYSDL2_DLL_VERSION"
cat >"$work/glfw_probe.py" <<'EOF'
import ctypes, sys
import glfw

api = sys.argv[1]
if hasattr(glfw, "PLATFORM"):
    glfw.init_hint(glfw.PLATFORM, glfw.PLATFORM_X11)
if not glfw.init():
    sys.exit("FAIL glfw.init: %s" % (glfw.get_error(),))
creation = glfw.EGL_CONTEXT_API if api == "egl" else glfw.NATIVE_CONTEXT_API
glfw.window_hint(glfw.CONTEXT_CREATION_API, creation)
glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, 3)
glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, 3)
glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
win = glfw.create_window(64, 64, "ArenaGL clients", None, None)
if not win:
    sys.exit("FAIL create_window: %s" % (glfw.get_error(),))
glfw.make_context_current(win)
glfw.swap_interval(0)

def gl(name, res, *args):
    addr = glfw.get_proc_address(name)
    if not addr:
        sys.exit("FAIL no %s" % name)
    return ctypes.CFUNCTYPE(res, *args)(addr)

u32, i32, f32, vp = ctypes.c_uint, ctypes.c_int, ctypes.c_float, ctypes.c_void_p
glGetString = gl("glGetString", ctypes.c_char_p, u32)
glClearColor = gl("glClearColor", None, f32, f32, f32, f32)
glClear = gl("glClear", None, u32)
glViewport = gl("glViewport", None, i32, i32, i32, i32)
glReadPixels = gl("glReadPixels", None, i32, i32, i32, i32, u32, u32, vp)
glCreateShader = gl("glCreateShader", u32, u32)
glShaderSource = gl("glShaderSource", None, u32, i32, ctypes.POINTER(ctypes.c_char_p), vp)
glCompileShader = gl("glCompileShader", None, u32)
glCreateProgram = gl("glCreateProgram", u32)
glAttachShader = gl("glAttachShader", None, u32, u32)
glLinkProgram = gl("glLinkProgram", None, u32)
glUseProgram = gl("glUseProgram", None, u32)
glGenVertexArrays = gl("glGenVertexArrays", None, i32, ctypes.POINTER(u32))
glBindVertexArray = gl("glBindVertexArray", None, u32)
glDrawArrays = gl("glDrawArrays", None, u32, i32, i32)
glGetError = gl("glGetError", u32)

VS = b"#version 330 core\nvoid main() { vec2 p[3] = vec2[3](vec2(-0.5,-0.5), vec2(0.5,-0.5), vec2(0.0,0.5)); gl_Position = vec4(p[gl_VertexID], 0.0, 1.0); }\n"
FS = b"#version 330 core\nout vec4 c;\nvoid main() { c = vec4(0.0, 1.0, 0.0, 1.0); }\n"
prog = glCreateProgram()
for kind, src in ((0x8B31, VS), (0x8B30, FS)):
    sh = glCreateShader(kind)
    glShaderSource(sh, 1, (ctypes.c_char_p * 1)(src), None)
    glCompileShader(sh)
    glAttachShader(prog, sh)
glLinkProgram(prog)
vao = u32(0)
glGenVertexArrays(1, ctypes.byref(vao))
glBindVertexArray(vao.value)

def pixel(x, y):
    px = (ctypes.c_ubyte * 4)()
    glReadPixels(x, y, 1, 1, 0x1908, 0x1401, px)
    return tuple(px[:3])

ok = True
for frame in range(3):
    w, h = glfw.get_framebuffer_size(win)
    glViewport(0, 0, w, h)
    glClearColor(1.0, 0.0, 0.0, 1.0)
    glClear(0x4000)
    glUseProgram(prog)
    glDrawArrays(4, 0, 3)
    centre, corner = pixel(w // 2, h // 2), pixel(1, 1)
    ok = ok and centre == (0, 255, 0) and corner == (255, 0, 0)
    glfw.swap_buffers(win)
    glfw.poll_events()
err = glGetError()
renderer = glGetString(0x1F01).decode()
print("GLFW_%s %s renderer=%s centre=%s corner=%s glError=0x%x" % (
    api.upper(), "OK" if ok and err == 0 else "BAD", renderer, centre, corner, err))
glfw.terminate()
sys.exit(0 if ok and err == 0 else 1)
EOF

cat >"$work/sdl2_probe.py" <<'EOF'
import ctypes, sys
import sdl2

mode = sys.argv[1]  # glx | egl | wayland
if sdl2.SDL_Init(sdl2.SDL_INIT_VIDEO) != 0:
    sys.exit("FAIL SDL_Init: %s" % sdl2.SDL_GetError().decode())
sdl2.SDL_GL_SetAttribute(sdl2.SDL_GL_CONTEXT_MAJOR_VERSION, 3)
sdl2.SDL_GL_SetAttribute(sdl2.SDL_GL_CONTEXT_MINOR_VERSION, 3)
sdl2.SDL_GL_SetAttribute(sdl2.SDL_GL_CONTEXT_PROFILE_MASK, sdl2.SDL_GL_CONTEXT_PROFILE_CORE)
sdl2.SDL_GL_SetAttribute(sdl2.SDL_GL_DOUBLEBUFFER, 1)
win = sdl2.SDL_CreateWindow(b"ArenaGL clients", 0, 0, 64, 64, sdl2.SDL_WINDOW_OPENGL | sdl2.SDL_WINDOW_SHOWN)
if not win:
    sys.exit("FAIL SDL_CreateWindow: %s" % sdl2.SDL_GetError().decode())
ctx = sdl2.SDL_GL_CreateContext(win)
if not ctx:
    sys.exit("FAIL SDL_GL_CreateContext: %s" % sdl2.SDL_GetError().decode())
sdl2.SDL_GL_SetSwapInterval(0)

def gl(name, res, *args):
    addr = sdl2.SDL_GL_GetProcAddress(name.encode())
    if not addr:
        sys.exit("FAIL no %s" % name)
    return ctypes.CFUNCTYPE(res, *args)(addr)

u32, i32, f32, vp = ctypes.c_uint, ctypes.c_int, ctypes.c_float, ctypes.c_void_p
glGetString = gl("glGetString", ctypes.c_char_p, u32)
glClearColor = gl("glClearColor", None, f32, f32, f32, f32)
glClear = gl("glClear", None, u32)
glViewport = gl("glViewport", None, i32, i32, i32, i32)
glReadPixels = gl("glReadPixels", None, i32, i32, i32, i32, u32, u32, vp)
glEnable = gl("glEnable", None, u32)
glDisable = gl("glDisable", None, u32)
glScissor = gl("glScissor", None, i32, i32, i32, i32)
glGetError = gl("glGetError", u32)

def pixel(x, y):
    px = (ctypes.c_ubyte * 4)()
    glReadPixels(x, y, 1, 1, 0x1908, 0x1401, px)
    return tuple(px[:3])

ok = True
w, h = ctypes.c_int(), ctypes.c_int()
for frame in range(3):
    sdl2.SDL_GL_GetDrawableSize(win, ctypes.byref(w), ctypes.byref(h))
    glViewport(0, 0, w.value, h.value)
    glClearColor(1.0, 0.0, 0.0, 1.0)
    glClear(0x4000)
    # A blue square in the middle: a scissored clear.
    glEnable(0x0C11)
    glScissor(w.value // 4, h.value // 4, w.value // 2, h.value // 2)
    glClearColor(0.0, 0.0, 1.0, 1.0)
    glClear(0x4000)
    glDisable(0x0C11)
    centre, corner = pixel(w.value // 2, h.value // 2), pixel(1, 1)
    ok = ok and centre == (0, 0, 255) and corner == (255, 0, 0)
    sdl2.SDL_GL_SwapWindow(win)
    ev = sdl2.SDL_Event()
    while sdl2.SDL_PollEvent(ctypes.byref(ev)):
        pass
err = glGetError()
renderer = glGetString(0x1F01).decode()
driver = sdl2.SDL_GetCurrentVideoDriver().decode()
print("SDL2_%s %s driver=%s renderer=%s centre=%s corner=%s glError=0x%x" % (
    mode.upper(), "OK" if ok and err == 0 else "BAD", driver, renderer, centre, corner, err))
sdl2.SDL_GL_DeleteContext(ctx)
sdl2.SDL_DestroyWindow(win)
sdl2.SDL_Quit()
sys.exit(0 if ok and err == 0 else 1)
EOF

# run_client IMPL NAME SECONDS CMD... — the client's output goes to $work/IMPL-NAME.log.
run_client() {
    local impl=$1 name=$2 secs=$3
    shift 3
    local log="$work/$impl-$name.log"
    if [ "$impl" = arenagl ]; then
        timeout -s INT -k 5 "$secs" env ARENAGL_TELEMETRY=0 "$bin" run --via "$via" --lib "$lib" -- "$@" >"$log" 2>&1
    else
        timeout -s INT -k 5 "$secs" env LIBGL_ALWAYS_SOFTWARE=1 "$@" >"$log" 2>&1
    fi
    echo $? >"$work/$impl-$name.rc"
}

# The start of the renderer string each implementation reports.
renderer_word() { if [ "$1" = arenagl ]; then echo ArenaGL; else echo llvmpipe; fi; }

# judge IMPL NAME — "PASS detail" or "FAIL detail" from the client's own output.
judge() {
    local impl=$1 name=$2 log="$work/$1-$2.log"
    local rc
    [ -f "$work/$impl-$name.rc" ] || { echo "SKIP no weston"; return; }
    rc=$(cat "$work/$impl-$name.rc")
    local want_renderer=ArenaGL
    [ "$impl" = mesa ] && want_renderer=llvmpipe
    case "$name" in
    glxinfo)
        local r
        r=$(grep -m1 'OpenGL renderer string' "$log" | sed 's/.*string: //')
        local v
        v=$(grep -m1 'OpenGL version string' "$log" | sed 's/.*string: //')
        if grep -q "OpenGL renderer string: .*$want_renderer" "$log"; then echo "PASS $r / $v"; else echo "FAIL rc=$rc ${r:-no renderer line}"; fi ;;
    eglinfo)
        local vendor
        vendor=$(awk '/^X11 platform:/{x=1} x&&/EGL vendor string/{sub(/.*string: /,""); print; exit}' "$log")
        local want=ArenaGL
        [ "$impl" = mesa ] && want=Mesa
        if [[ "$vendor" == *"$want"* ]]; then echo "PASS X11 vendor: $vendor"; else echo "FAIL rc=$rc X11 vendor: ${vendor:-none}"; fi ;;
    glxgears)
        local last
        last=$(grep 'frames in' "$log" | tail -1)
        if [ -n "$last" ]; then echo "PASS $last"; else echo "FAIL rc=$rc $(tail -1 "$log")"; fi ;;
    glmark2*)
        local good bad
        good=$(grep -c 'Validation: Success' "$log")
        bad=$(grep -c 'Validation: Failure' "$log")
        if [ "$good" -gt 0 ] && [ "$bad" -eq 0 ]; then echo "PASS $good/$good scenes validated"; else echo "FAIL rc=$rc $good ok, $bad failed; $(grep -m1 -i error "$log")"; fi ;;
    glfw-* | sdl2-*)
        local line
        line=$(grep -m1 -E '^(GLFW|SDL2)_' "$log")
        if [[ "$line" == *" OK "* ]] && [[ "$line" == *"renderer=$(renderer_word "$impl")"* ]]; then
            echo "PASS ${line#* OK }"
        else
            echo "FAIL rc=$rc ${line:-$(grep -v '^arenagl run' "$log" | tail -1)}"
        fi ;;
    es2gears*)
        # es2gears runs until killed (status 124 from timeout is its normal end) and reports its
        # frame rate every 5 s; -info names the EGL vendor.
        local last vendor want=ArenaGL
        [ "$impl" = mesa ] && want=Mesa
        last=$(grep 'frames in' "$log" | tail -1)
        vendor=$(grep -m1 '^EGL_VENDOR' "$log")
        if [ -n "$last" ] && [[ "$vendor" == *"$want"* ]]; then echo "PASS $last"; else echo "FAIL rc=$rc ${vendor:-} $(grep -v '^arenagl run' "$log" | grep -v '^$' | tail -1)"; fi ;;
    esac
}

scenes=(-b clear -b build:use-vbo=true -b texture:texture-filter=linear -b shading:shading=phong -b bump:bump-render=normals)
clients=(glxinfo eglinfo glxgears glmark2 glfw-glx glfw-egl sdl2-glx sdl2-egl es2gears glmark2-es2
    es2gears-wl glmark2-wl glmark2-es2-wl sdl2-wl)
es_clients=" es2gears glmark2-es2 es2gears-wl glmark2-es2-wl "
for impl in arenagl mesa; do
    run_client "$impl" glxinfo 60 glxinfo -B
    run_client "$impl" eglinfo 60 eglinfo
    run_client "$impl" glxgears "$GLXGEARS_SECONDS" stdbuf -oL glxgears
    run_client "$impl" glmark2 300 glmark2 --validate "${scenes[@]}"
    run_client "$impl" glfw-glx 120 "$venv/bin/python" "$work/glfw_probe.py" glx
    run_client "$impl" glfw-egl 120 "$venv/bin/python" "$work/glfw_probe.py" egl
    run_client "$impl" sdl2-glx 120 env SDL_VIDEODRIVER=x11 "$sdl_venv/bin/python" "$work/sdl2_probe.py" glx
    run_client "$impl" sdl2-egl 120 env SDL_VIDEODRIVER=x11 SDL_VIDEO_X11_FORCE_EGL=1 \
        "$sdl_venv/bin/python" "$work/sdl2_probe.py" egl
    run_client "$impl" es2gears "$GLXGEARS_SECONDS" stdbuf -oL es2gears_x11 -info
    run_client "$impl" glmark2-es2 300 glmark2-es2 --validate "${scenes[@]}"
    if [ ${#wl_env[@]} -gt 0 ]; then
        run_client "$impl" es2gears-wl "$GLXGEARS_SECONDS" "${wl_env[@]}" stdbuf -oL es2gears_wayland -info
        run_client "$impl" glmark2-wl 300 "${wl_env[@]}" glmark2-wayland --validate "${scenes[@]}"
        run_client "$impl" glmark2-es2-wl 300 "${wl_env[@]}" glmark2-es2-wayland --validate "${scenes[@]}"
        run_client "$impl" sdl2-wl 120 "${wl_env[@]}" SDL_VIDEODRIVER=wayland \
            "$sdl_venv/bin/python" "$work/sdl2_probe.py" wayland
    fi
done

failed=0
printf '\n%-14s | %-60s | %s\n' client "ArenaGL ($profile, --via $via)" "Mesa (llvmpipe)"
printf -- '---------------+--------------------------------------------------------------+----------------\n'
for c in "${clients[@]}"; do
    a=$(judge arenagl "$c")
    m=$(judge mesa "$c")
    note=""
    [[ "$es_clients" == *" $c "* ]] && [[ "$a" == FAIL* ]] && note=" (OpenGL ES)"
    printf '%-14s | %-60.60s | %.60s\n' "$c" "$a$note" "$m"
    if [[ "$a" == FAIL* ]] && [[ "$es_clients" != *" $c "* ]]; then failed=1; fi
done
echo
echo "clients.sh: $(($(date +%s) - start)) s (build included); logs: ${logs:-pass --keep-logs DIR}"
exit $failed
