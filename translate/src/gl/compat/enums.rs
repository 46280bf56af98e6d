//! Enumerants of the compatibility profile (fixed-function state, client arrays, matrices,
//! immediate mode), values from the Khronos registry (`gl.xml`).
#![allow(missing_docs)]

use crate::gl::context::enums::GLenum;

pub const GL_STACK_OVERFLOW: GLenum = 0x0503;
pub const GL_STACK_UNDERFLOW: GLenum = 0x0504;

// Primitive modes Vulkan lacks.
pub const GL_QUADS: GLenum = 0x0007;
pub const GL_QUAD_STRIP: GLenum = 0x0008;
pub const GL_POLYGON: GLenum = 0x0009;

// Client arrays.
pub const GL_VERTEX_ARRAY: GLenum = 0x8074;
pub const GL_NORMAL_ARRAY: GLenum = 0x8075;
pub const GL_COLOR_ARRAY: GLenum = 0x8076;
pub const GL_INDEX_ARRAY: GLenum = 0x8077;
pub const GL_TEXTURE_COORD_ARRAY: GLenum = 0x8078;
pub const GL_EDGE_FLAG_ARRAY: GLenum = 0x8079;
pub const GL_FOG_COORD_ARRAY: GLenum = 0x8457;
pub const GL_SECONDARY_COLOR_ARRAY: GLenum = 0x845E;
pub const GL_CLIENT_ACTIVE_TEXTURE: GLenum = 0x84E1;
pub const GL_VERTEX_ARRAY_SIZE: GLenum = 0x807A;
pub const GL_VERTEX_ARRAY_TYPE: GLenum = 0x807B;
pub const GL_VERTEX_ARRAY_STRIDE: GLenum = 0x807C;
pub const GL_VERTEX_ARRAY_POINTER: GLenum = 0x808E;
pub const GL_NORMAL_ARRAY_POINTER: GLenum = 0x808F;
pub const GL_COLOR_ARRAY_POINTER: GLenum = 0x8090;
pub const GL_TEXTURE_COORD_ARRAY_POINTER: GLenum = 0x8092;

// Current values.
pub const GL_CURRENT_COLOR: GLenum = 0x0B00;
pub const GL_CURRENT_NORMAL: GLenum = 0x0B02;
pub const GL_CURRENT_TEXTURE_COORDS: GLenum = 0x0B03;
pub const GL_CURRENT_SECONDARY_COLOR: GLenum = 0x8459;

// Matrices.
pub const GL_MATRIX_MODE: GLenum = 0x0BA0;
pub const GL_MODELVIEW: GLenum = 0x1700;
pub const GL_PROJECTION: GLenum = 0x1701;
pub const GL_MODELVIEW_STACK_DEPTH: GLenum = 0x0BA3;
pub const GL_PROJECTION_STACK_DEPTH: GLenum = 0x0BA4;
pub const GL_TEXTURE_STACK_DEPTH: GLenum = 0x0BA5;
pub const GL_MODELVIEW_MATRIX: GLenum = 0x0BA6;
pub const GL_PROJECTION_MATRIX: GLenum = 0x0BA7;
pub const GL_TEXTURE_MATRIX: GLenum = 0x0BA8;
pub const GL_MAX_MODELVIEW_STACK_DEPTH: GLenum = 0x0D36;
pub const GL_MAX_PROJECTION_STACK_DEPTH: GLenum = 0x0D38;
pub const GL_MAX_TEXTURE_STACK_DEPTH: GLenum = 0x0D39;
pub const GL_MAX_TEXTURE_COORDS: GLenum = 0x8871;
pub const GL_MAX_TEXTURE_UNITS: GLenum = 0x84E2;

// Fixed-function fragment state.
pub const GL_ALPHA_TEST: GLenum = 0x0BC0;
pub const GL_ALPHA_TEST_FUNC: GLenum = 0x0BC1;
pub const GL_ALPHA_TEST_REF: GLenum = 0x0BC2;
pub const GL_TEXTURE_ENV: GLenum = 0x2300;
pub const GL_TEXTURE_ENV_MODE: GLenum = 0x2200;
pub const GL_TEXTURE_ENV_COLOR: GLenum = 0x2201;
pub const GL_MODULATE: GLenum = 0x2100;
pub const GL_DECAL: GLenum = 0x2101;
pub const GL_ADD: GLenum = 0x0104;
pub const GL_SHADE_MODEL: GLenum = 0x0B54;
pub const GL_FLAT: GLenum = 0x1D00;
pub const GL_SMOOTH: GLenum = 0x1D01;
pub const GL_LIGHTING: GLenum = 0x0B50;
pub const GL_FOG: GLenum = 0x0B60;
pub const GL_NORMALIZE: GLenum = 0x0BA1;
pub const GL_COLOR_MATERIAL: GLenum = 0x0B57;
pub const GL_RESCALE_NORMAL: GLenum = 0x803A;
pub const GL_POINT_SMOOTH: GLenum = 0x0B10;
pub const GL_LINE_STIPPLE: GLenum = 0x0B24;
pub const GL_POLYGON_STIPPLE: GLenum = 0x0B42;
pub const GL_TEXTURE_GEN_S: GLenum = 0x0C60;
pub const GL_TEXTURE_GEN_T: GLenum = 0x0C61;
pub const GL_LIGHT0: GLenum = 0x4000;

// Texture environment combiners (ARB_texture_env_combine, _crossbar, _dot3) and fog.
pub const GL_COMBINE: GLenum = 0x8570;
pub const GL_COMBINE_RGB: GLenum = 0x8571;
pub const GL_COMBINE_ALPHA: GLenum = 0x8572;
pub const GL_RGB_SCALE: GLenum = 0x8573;
pub const GL_ADD_SIGNED: GLenum = 0x8574;
pub const GL_INTERPOLATE: GLenum = 0x8575;
pub const GL_CONSTANT: GLenum = 0x8576;
pub const GL_PRIMARY_COLOR: GLenum = 0x8577;
pub const GL_PREVIOUS: GLenum = 0x8578;
pub const GL_SRC0_RGB: GLenum = 0x8580;
pub const GL_SRC0_ALPHA: GLenum = 0x8588;
pub const GL_OPERAND0_RGB: GLenum = 0x8590;
pub const GL_OPERAND0_ALPHA: GLenum = 0x8598;
pub const GL_ALPHA_SCALE: GLenum = 0x0D1C;
pub const GL_SUBTRACT: GLenum = 0x84E7;
pub const GL_DOT3_RGB: GLenum = 0x86AE;
pub const GL_DOT3_RGBA: GLenum = 0x86AF;
pub const GL_FOG_DENSITY: GLenum = 0x0B62;
pub const GL_FOG_START: GLenum = 0x0B63;
pub const GL_FOG_END: GLenum = 0x0B64;
pub const GL_FOG_MODE: GLenum = 0x0B65;
pub const GL_FOG_COLOR: GLenum = 0x0B66;
pub const GL_EXP: GLenum = 0x0800;
pub const GL_EXP2: GLenum = 0x0801;
pub const GL_COLOR_SUM: GLenum = 0x8458;
pub const GL_CURRENT_RASTER_POSITION: GLenum = 0x0B07;
pub const GL_CURRENT_RASTER_POSITION_VALID: GLenum = 0x0B08;
