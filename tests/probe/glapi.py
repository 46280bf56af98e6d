"""GL and EGL constants and C signatures used by the hostile-argument probes.

Only what the probes call is listed. A signature is written as a compact string,
``"R:ABC"``: the return type letter, a colon, then one letter per argument:

    v void            e GLenum (uint32)   x GLbitfield (uint32)
    i GLint           u GLuint            s GLsizei (int32)
    z GLintptr / GLsizeiptr (signed, pointer-sized)
    p pointer         f GLfloat           d GLdouble
    b GLboolean       q GLint64           Q GLuint64 / GLuint64 timeout
"""

import ctypes

# --- ctypes mapping of the signature letters -------------------------------------------------

CTYPES = {
    "v": None,
    "e": ctypes.c_uint32,
    "x": ctypes.c_uint32,
    "i": ctypes.c_int32,
    "u": ctypes.c_uint32,
    "s": ctypes.c_int32,
    "z": ctypes.c_ssize_t,
    "p": ctypes.c_void_p,
    "f": ctypes.c_float,
    "d": ctypes.c_double,
    "b": ctypes.c_uint8,
    "q": ctypes.c_int64,
    "Q": ctypes.c_uint64,
}


def prototype(signature):
    """The ctypes function type for a compact signature string."""
    ret, _, args = signature.partition(":")
    return ctypes.CFUNCTYPE(CTYPES[ret], *[CTYPES[a] for a in args])


# --- GL entry points -----------------------------------------------------------------------

SIGNATURES = {
    # errors, state queries
    "glGetError": "e:",
    "glGetIntegerv": "v:ep",
    "glGetBooleanv": "v:ep",
    "glGetFloatv": "v:ep",
    "glGetDoublev": "v:ep",
    "glGetInteger64v": "v:ep",
    "glGetIntegeri_v": "v:eup",
    "glGetBooleani_v": "v:eup",
    "glGetString": "p:e",
    "glGetStringi": "p:eu",
    "glEnable": "v:e",
    "glDisable": "v:e",
    "glIsEnabled": "b:e",
    "glEnablei": "v:eu",
    "glDisablei": "v:eu",
    "glIsEnabledi": "b:eu",
    "glHint": "v:ee",
    "glFinish": "v:",
    "glFlush": "v:",
    # fixed-function state that exists in core
    "glBlendFunc": "v:ee",
    "glBlendFuncSeparate": "v:eeee",
    "glBlendEquation": "v:e",
    "glBlendFunci": "v:uee",
    "glDepthFunc": "v:e",
    "glStencilFunc": "v:eiu",
    "glStencilOp": "v:eee",
    "glStencilOpSeparate": "v:eeee",
    "glStencilMaskSeparate": "v:eu",
    "glCullFace": "v:e",
    "glFrontFace": "v:e",
    "glPolygonMode": "v:ee",
    "glLineWidth": "v:f",
    "glPointSize": "v:f",
    "glViewport": "v:iiss",
    "glScissor": "v:iiss",
    "glColorMaski": "v:ubbbb",
    "glProvokingVertex": "v:e",
    "glClear": "v:x",
    "glClearColor": "v:ffff",
    "glClearBufferiv": "v:eip",
    "glClearBufferfv": "v:eip",
    "glClearBufferfi": "v:eifi",
    "glPixelStorei": "v:ei",
    "glPixelStoref": "v:ef",
    "glReadPixels": "v:iisseep",
    # buffers
    "glGenBuffers": "v:sp",
    "glDeleteBuffers": "v:sp",
    "glBindBuffer": "v:eu",
    "glIsBuffer": "b:u",
    "glBufferData": "v:ezpe",
    "glBufferSubData": "v:ezzp",
    "glGetBufferSubData": "v:ezzp",
    "glBufferStorage": "v:ezpx",
    "glMapBuffer": "p:ee",
    "glMapBufferRange": "p:ezzx",
    "glUnmapBuffer": "b:e",
    "glFlushMappedBufferRange": "v:ezz",
    "glCopyBufferSubData": "v:eezzz",
    "glBindBufferBase": "v:euu",
    "glBindBufferRange": "v:euuzz",
    "glGetBufferParameteriv": "v:eep",
    # vertex arrays
    "glGenVertexArrays": "v:sp",
    "glDeleteVertexArrays": "v:sp",
    "glBindVertexArray": "v:u",
    "glVertexAttribPointer": "v:uiebsp",
    "glVertexAttribIPointer": "v:uiesp",
    "glEnableVertexAttribArray": "v:u",
    "glDisableVertexAttribArray": "v:u",
    "glVertexAttribDivisor": "v:uu",
    "glVertexAttrib4f": "v:uffff",
    "glGetVertexAttribiv": "v:uep",
    # draws
    "glDrawArrays": "v:eis",
    "glDrawElements": "v:esep",
    "glDrawArraysInstanced": "v:eiss",
    "glDrawElementsInstanced": "v:eseps",
    "glDrawRangeElements": "v:euusep",
    "glDrawElementsBaseVertex": "v:esepi",
    "glMultiDrawArrays": "v:epps",
    "glMultiDrawElements": "v:epeps",
    # textures
    "glGenTextures": "v:sp",
    "glDeleteTextures": "v:sp",
    "glBindTexture": "v:eu",
    "glActiveTexture": "v:e",
    "glTexImage1D": "v:eiisieep",
    "glTexImage2D": "v:eiissieep",
    "glTexImage3D": "v:eiisssieep",
    "glTexSubImage2D": "v:eiiisseep",
    "glTexSubImage3D": "v:eiiiissseep",
    "glTexStorage2D": "v:esess",
    "glTexStorage3D": "v:esesss",
    "glTexImage2DMultisample": "v:esessb",
    "glCompressedTexImage2D": "v:eiessisp",
    "glCopyTexImage2D": "v:eieiissi",
    "glCopyTexSubImage2D": "v:eiiiiiss",
    "glTexParameteri": "v:eei",
    "glTexParameterf": "v:eef",
    "glGetTexParameteriv": "v:eep",
    "glGetTexLevelParameteriv": "v:eiep",
    "glGetTexImage": "v:eieep",
    "glGetCompressedTexImage": "v:eip",
    "glPolygonStipple": "v:p",
    "glGetPolygonStipple": "v:p",
    "glInvalidateBufferData": "v:u",
    "glInvalidateBufferSubData": "v:uzz",
    "glInvalidateTexImage": "v:ui",
    "glInvalidateTexSubImage": "v:uiiiiiss",
    "glInvalidateFramebuffer": "v:esp",
    "glInvalidateSubFramebuffer": "v:espiiss",
    "glGenerateMipmap": "v:e",
    "glTexBuffer": "v:eeu",
    "glCopyImageSubData": "v:ueiiiiueiiiisss",
    # framebuffers and renderbuffers
    "glGenFramebuffers": "v:sp",
    "glDeleteFramebuffers": "v:sp",
    "glBindFramebuffer": "v:eu",
    "glFramebufferTexture2D": "v:eeeui",
    "glFramebufferTextureLayer": "v:eeuii",
    "glFramebufferRenderbuffer": "v:eeeu",
    "glCheckFramebufferStatus": "e:e",
    "glGetFramebufferAttachmentParameteriv": "v:eeep",
    "glGenRenderbuffers": "v:sp",
    "glDeleteRenderbuffers": "v:sp",
    "glBindRenderbuffer": "v:eu",
    "glRenderbufferStorage": "v:eess",
    "glRenderbufferStorageMultisample": "v:esess",
    "glBlitFramebuffer": "v:iiiiiiiixe",
    "glDrawBuffers": "v:sp",
    "glDrawBuffer": "v:e",
    "glReadBuffer": "v:e",
    # shaders and programs
    "glCreateShader": "u:e",
    "glDeleteShader": "v:u",
    "glShaderSource": "v:uspp",
    "glCompileShader": "v:u",
    "glGetShaderiv": "v:uep",
    "glGetShaderInfoLog": "v:uspp",
    "glGetShaderSource": "v:uspp",
    "glCreateProgram": "u:",
    "glDeleteProgram": "v:u",
    "glAttachShader": "v:uu",
    "glDetachShader": "v:uu",
    "glLinkProgram": "v:u",
    "glUseProgram": "v:u",
    "glValidateProgram": "v:u",
    "glGetProgramiv": "v:uep",
    "glGetProgramInfoLog": "v:uspp",
    "glGetAttachedShaders": "v:uspp",
    "glBindAttribLocation": "v:uup",
    "glGetAttribLocation": "i:up",
    "glGetUniformLocation": "i:up",
    "glGetFragDataLocation": "i:up",
    "glGetActiveUniform": "v:uuspppp",
    "glGetUniformBlockIndex": "u:up",
    "glUniformBlockBinding": "v:uuu",
    # uniforms
    "glUniform1f": "v:if",
    "glUniform1i": "v:ii",
    "glUniform1ui": "v:iu",
    "glUniform3f": "v:ifff",
    "glUniform4f": "v:iffff",
    "glUniform1fv": "v:isp",
    "glUniform1iv": "v:isp",
    "glUniform4fv": "v:isp",
    "glUniformMatrix4fv": "v:isbp",
    "glGetUniformfv": "v:uip",
    # queries and syncs
    "glGenQueries": "v:sp",
    "glDeleteQueries": "v:sp",
    "glBeginQuery": "v:eu",
    "glEndQuery": "v:e",
    "glQueryCounter": "v:ue",
    "glGetQueryiv": "v:eep",
    "glGetQueryObjectiv": "v:uep",
    "glGetQueryObjectui64v": "v:uep",
    "glBeginConditionalRender": "v:ue",
    "glEndConditionalRender": "v:",
    "glFenceSync": "p:ex",
    "glClientWaitSync": "e:pxQ",
    "glWaitSync": "v:pxQ",
    "glDeleteSync": "v:p",
    "glIsSync": "b:p",
    "glGetSynciv": "v:pespp",
    # samplers
    "glGenSamplers": "v:sp",
    "glDeleteSamplers": "v:sp",
    "glBindSampler": "v:uu",
    "glSamplerParameteri": "v:uei",
    "glSamplerParameterf": "v:uef",
    "glGetSamplerParameteriv": "v:uep",
    # compatibility profile
    "glBegin": "v:e",
    "glEnd": "v:",
    "glVertex3f": "v:fff",
    "glMatrixMode": "v:e",
    "glPushMatrix": "v:",
    "glPopMatrix": "v:",
    "glLoadIdentity": "v:",
    "glFrustum": "v:dddddd",
    "glOrtho": "v:dddddd",
    "glNewList": "v:ue",
    "glEndList": "v:",
    "glGenLists": "u:s",
    "glDeleteLists": "v:us",
    "glCallLists": "v:sep",
    "glTexEnvi": "v:eei",
    "glLightf": "v:eef",
    "glLightfv": "v:eep",
    "glMaterialf": "v:eef",
    "glFogi": "v:ei",
    "glFogf": "v:ef",
    "glVertexPointer": "v:iesp",
    "glColorPointer": "v:iesp",
    "glEnableClientState": "v:e",
    "glClientActiveTexture": "v:e",
    "glDrawPixels": "v:sseep",
    "glBitmap": "v:ssffffp",
    "glAlphaFunc": "v:ef",
    "glShadeModel": "v:e",
    "glColorMaterial": "v:ee",
    "glClampColor": "v:ee",
    "glRasterPos2f": "v:ff",
}

# --- EGL -------------------------------------------------------------------------------------

EGL_SIGNATURES = {
    "eglGetPlatformDisplayEXT": "p:ppp",
    "eglInitialize": "u:ppp",
    "eglChooseConfig": "u:pppsp",
    "eglGetConfigAttrib": "u:ppip",
    "eglBindAPI": "u:e",
    "eglCreateContext": "p:pppp",
    "eglDestroyContext": "u:pp",
    "eglCreatePbufferSurface": "p:ppp",
    "eglMakeCurrent": "u:pppp",
    "eglGetError": "i:",
    "eglTerminate": "u:p",
}

EGL_PLATFORM_SURFACELESS_MESA = 0x31DD
EGL_SURFACE_TYPE = 0x3033
EGL_PBUFFER_BIT = 0x0001
EGL_RENDERABLE_TYPE = 0x3040
EGL_OPENGL_BIT = 0x0008
EGL_RED_SIZE = 0x3024
EGL_GREEN_SIZE = 0x3023
EGL_BLUE_SIZE = 0x3022
EGL_ALPHA_SIZE = 0x3021
EGL_DEPTH_SIZE = 0x3025
EGL_STENCIL_SIZE = 0x3026
EGL_NONE = 0x3038
EGL_OPENGL_API = 0x30A2
EGL_WIDTH = 0x3057
EGL_HEIGHT = 0x3056
EGL_CONTEXT_MAJOR_VERSION = 0x3098
EGL_CONTEXT_MINOR_VERSION = 0x30FB
EGL_CONTEXT_OPENGL_PROFILE_MASK = 0x30FD
EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT = 0x1
EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT = 0x2

# --- GL enums --------------------------------------------------------------------------------

# errors
GL_NO_ERROR = 0
ERROR_NAMES = {
    0x0000: "NO_ERROR",
    0x0500: "INVALID_ENUM",
    0x0501: "INVALID_VALUE",
    0x0502: "INVALID_OPERATION",
    0x0503: "STACK_OVERFLOW",
    0x0504: "STACK_UNDERFLOW",
    0x0505: "OUT_OF_MEMORY",
    0x0506: "INVALID_FRAMEBUFFER_OPERATION",
    0x0507: "CONTEXT_LOST",
}

# a value no GL assigns to any enum
BOGUS = 0xDEAD

# general
GL_FALSE, GL_TRUE = 0, 1
GL_NONE = 0
GL_ZERO, GL_ONE = 0, 1
GL_VENDOR, GL_RENDERER, GL_VERSION, GL_EXTENSIONS = 0x1F00, 0x1F01, 0x1F02, 0x1F03
GL_SHADING_LANGUAGE_VERSION = 0x8B8C
GL_NUM_EXTENSIONS = 0x821D
GL_BYTE, GL_UNSIGNED_BYTE = 0x1400, 0x1401
GL_SHORT, GL_UNSIGNED_SHORT = 0x1402, 0x1403
GL_INT, GL_UNSIGNED_INT = 0x1404, 0x1405
GL_FLOAT, GL_DOUBLE, GL_HALF_FLOAT = 0x1406, 0x140A, 0x140B
GL_BITMAP = 0x1A00
GL_UNSIGNED_SHORT_5_6_5 = 0x8363
GL_UNSIGNED_INT_2_10_10_10_REV = 0x8368
GL_INT_2_10_10_10_REV = 0x8D9F
GL_UNSIGNED_INT_24_8 = 0x84FA
GL_MAX_VERTEX_ATTRIBS = 0x8869
GL_MAX_TEXTURE_SIZE = 0x0D33
GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS = 0x8B4D
GL_MAX_DRAW_BUFFERS = 0x8824
GL_MAX_COLOR_ATTACHMENTS = 0x8CDF
GL_MAX_SAMPLES = 0x8D57
GL_MAX_INTEGER_SAMPLES = 0x9110
GL_MAX_UNIFORM_BUFFER_BINDINGS = 0x8A2F
GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT = 0x8A34
GL_UNIFORM_BUFFER_BINDING = 0x8A28
GL_VIEWPORT = 0x0BA2

# buffers
GL_ARRAY_BUFFER = 0x8892
GL_ELEMENT_ARRAY_BUFFER = 0x8893
GL_PIXEL_PACK_BUFFER = 0x88EB
GL_PIXEL_UNPACK_BUFFER = 0x88EC
GL_UNIFORM_BUFFER = 0x8A11
GL_COPY_READ_BUFFER = 0x8F36
GL_COPY_WRITE_BUFFER = 0x8F37
GL_TEXTURE_BUFFER = 0x8C2A
GL_STREAM_DRAW, GL_STATIC_DRAW, GL_DYNAMIC_DRAW = 0x88E0, 0x88E4, 0x88E8
GL_READ_ONLY, GL_WRITE_ONLY, GL_READ_WRITE = 0x88B8, 0x88B9, 0x88BA
GL_BUFFER_SIZE, GL_BUFFER_USAGE, GL_BUFFER_MAPPED = 0x8764, 0x8765, 0x88BC
GL_MAP_READ_BIT, GL_MAP_WRITE_BIT = 0x1, 0x2
GL_MAP_INVALIDATE_RANGE_BIT, GL_MAP_INVALIDATE_BUFFER_BIT = 0x4, 0x8
GL_MAP_FLUSH_EXPLICIT_BIT, GL_MAP_UNSYNCHRONIZED_BIT = 0x10, 0x20
GL_DYNAMIC_STORAGE_BIT = 0x100

# vertex arrays
GL_VERTEX_ATTRIB_ARRAY_ENABLED = 0x8622
GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING = 0x889F
GL_BGRA = 0x80E1

# draws
GL_POINTS, GL_LINES, GL_TRIANGLES, GL_TRIANGLE_STRIP = 0x0, 0x1, 0x4, 0x5
GL_QUADS = 0x7

# textures
GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D = 0x0DE0, 0x0DE1, 0x806F
GL_TEXTURE_2D_ARRAY = 0x8C1A
GL_TEXTURE_CUBE_MAP = 0x8513
GL_TEXTURE_CUBE_MAP_POSITIVE_X = 0x8515
GL_TEXTURE_RECTANGLE = 0x84F5
GL_TEXTURE_2D_MULTISAMPLE = 0x9100
GL_TEXTURE0 = 0x84C0
GL_RED, GL_RGB, GL_RGBA = 0x1903, 0x1907, 0x1908
GL_RGBA8, GL_R8, GL_RGBA32F, GL_RGBA32UI = 0x8058, 0x8229, 0x8814, 0x8D70
GL_RGBA_INTEGER = 0x8D99
GL_DEPTH_COMPONENT, GL_DEPTH_COMPONENT24 = 0x1902, 0x81A6
GL_DEPTH_STENCIL, GL_DEPTH24_STENCIL8 = 0x84F9, 0x88F0
GL_COMPRESSED_RED_RGTC1 = 0x8DBB
GL_TEXTURE_MAG_FILTER, GL_TEXTURE_MIN_FILTER = 0x2800, 0x2801
GL_TEXTURE_WRAP_S = 0x2802
GL_NEAREST, GL_LINEAR, GL_REPEAT = 0x2600, 0x2601, 0x2901
GL_TEXTURE_BASE_LEVEL, GL_TEXTURE_MAX_LEVEL = 0x813C, 0x813D
GL_TEXTURE_WIDTH = 0x1000
GL_TEXTURE_LOD_BIAS = 0x8501

# pixel store
GL_UNPACK_SWAP_BYTES, GL_UNPACK_ROW_LENGTH = 0x0CF0, 0x0CF2
GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_ALIGNMENT = 0x0CF3, 0x0CF4, 0x0CF5
GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS, GL_PACK_ALIGNMENT = 0x0D02, 0x0D04, 0x0D05
GL_UNPACK_IMAGE_HEIGHT = 0x806E

# framebuffers
GL_FRAMEBUFFER, GL_READ_FRAMEBUFFER, GL_DRAW_FRAMEBUFFER = 0x8D40, 0x8CA8, 0x8CA9
GL_RENDERBUFFER = 0x8D41
GL_COLOR_ATTACHMENT0 = 0x8CE0
GL_DEPTH_ATTACHMENT, GL_STENCIL_ATTACHMENT = 0x8D00, 0x8D20
GL_DEPTH_STENCIL_ATTACHMENT = 0x821A
GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE = 0x8CD0
GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME = 0x8CD1
GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL = 0x8CD2
GL_COLOR_BUFFER_BIT, GL_DEPTH_BUFFER_BIT, GL_STENCIL_BUFFER_BIT = 0x4000, 0x0100, 0x0400
GL_FRONT, GL_BACK, GL_FRONT_AND_BACK = 0x0404, 0x0405, 0x0408
GL_BACK_LEFT = 0x0402
GL_COLOR, GL_DEPTH, GL_STENCIL = 0x1800, 0x1801, 0x1802
FRAMEBUFFER_STATUS_NAMES = {
    0x0000: "0",
    0x8CD5: "COMPLETE",
    0x8CD6: "INCOMPLETE_ATTACHMENT",
    0x8CD7: "INCOMPLETE_MISSING_ATTACHMENT",
    0x8CDB: "INCOMPLETE_DRAW_BUFFER",
    0x8CDC: "INCOMPLETE_READ_BUFFER",
    0x8CDD: "UNSUPPORTED",
    0x8D56: "INCOMPLETE_MULTISAMPLE",
    0x8DA8: "INCOMPLETE_LAYER_TARGETS",
    0x8219: "UNDEFINED",
}

# shaders and programs
GL_FRAGMENT_SHADER, GL_VERTEX_SHADER = 0x8B30, 0x8B31
GL_DELETE_STATUS, GL_COMPILE_STATUS, GL_LINK_STATUS = 0x8B80, 0x8B81, 0x8B82
GL_VALIDATE_STATUS, GL_INFO_LOG_LENGTH = 0x8B83, 0x8B84
GL_ACTIVE_UNIFORMS = 0x8B86
GL_INVALID_INDEX = 0xFFFFFFFF

# queries and syncs
GL_SAMPLES_PASSED, GL_ANY_SAMPLES_PASSED = 0x8914, 0x8C2F
GL_TIME_ELAPSED, GL_TIMESTAMP = 0x88BF, 0x8E28
GL_QUERY_RESULT, GL_CURRENT_QUERY = 0x8866, 0x8865
GL_QUERY_WAIT = 0x8E13
GL_SYNC_GPU_COMMANDS_COMPLETE = 0x9117
GL_SYNC_FLUSH_COMMANDS_BIT = 0x1
GL_TIMEOUT_IGNORED = 0xFFFFFFFFFFFFFFFF
GL_OBJECT_TYPE, GL_SYNC_STATUS = 0x9112, 0x9114
GL_SYNC_FENCE = 0x9116
GL_WAIT_FAILED = 0x911D
SYNC_RESULT_NAMES = {
    0x911A: "ALREADY_SIGNALED",
    0x911B: "TIMEOUT_EXPIRED",
    0x911C: "CONDITION_SATISFIED",
    0x911D: "WAIT_FAILED",
    0x0: "0",
}

# capabilities and fixed state
GL_BLEND, GL_DEPTH_TEST, GL_CULL_FACE = 0x0BE2, 0x0B71, 0x0B44
GL_SCISSOR_TEST, GL_STENCIL_TEST = 0x0C11, 0x0B90
GL_LIGHTING, GL_ALPHA_TEST, GL_POINT_SMOOTH = 0x0B50, 0x0BC0, 0x0B10
GL_LESS, GL_GREATER, GL_KEEP = 0x0201, 0x0204, 0x1E00
GL_SRC_ALPHA = 0x0302
GL_CW, GL_CCW = 0x0900, 0x0901
GL_LINE, GL_FILL = 0x1B01, 0x1B02
GL_FUNC_ADD = 0x8006
GL_NICEST = 0x1102
GL_LINE_SMOOTH_HINT = 0x0C52
GL_FIRST_VERTEX_CONVENTION = 0x8E4D

# compatibility profile
GL_MATRIX_MODE, GL_CURRENT_COLOR = 0x0BA0, 0x0B00
GL_MODELVIEW, GL_PROJECTION = 0x1700, 0x1701
GL_COMPILE = 0x1300
GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE = 0x2300, 0x2200, 0x2100
GL_LIGHT0, GL_MAX_LIGHTS = 0x4000, 0x0D31
GL_SPOT_EXPONENT, GL_AMBIENT, GL_SHININESS = 0x1205, 0x1200, 0x1601
GL_FOG_MODE, GL_FOG_DENSITY = 0x0B65, 0x0B62
GL_VERTEX_ARRAY = 0x8074
GL_MAX_TEXTURE_COORDS = 0x8871
GL_FLAT = 0x1D00
GL_AMBIENT_AND_DIFFUSE = 0x1602
GL_CLAMP_READ_COLOR = 0x891C
