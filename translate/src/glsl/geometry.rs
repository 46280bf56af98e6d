//! A geometry stage's layout as `glGetProgramiv` reports it (`GL_GEOMETRY_VERTICES_OUT`,
//! `GL_GEOMETRY_INPUT_TYPE`, `GL_GEOMETRY_OUTPUT_TYPE`, and GL_ARB_gpu_shader5's
//! `GL_GEOMETRY_SHADER_INVOCATIONS`), read from the execution modes of its SPIR-V.
//!
//! Design decisions:
//! - The SPIR-V is the ground truth: glslang has already merged the layout qualifiers of every
//!   geometry unit (and refused conflicting ones) into one set of execution modes.
//! - Primitive types are kept as GL's enums, the values `glGetProgramiv` returns.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use super::spirv::Module;

/// SPIR-V execution modes (section 3.6).
mod mode {
    pub const INVOCATIONS: u32 = 0;
    pub const INPUT_POINTS: u32 = 19;
    pub const INPUT_LINES: u32 = 20;
    pub const INPUT_LINES_ADJACENCY: u32 = 21;
    pub const TRIANGLES: u32 = 22;
    pub const INPUT_TRIANGLES_ADJACENCY: u32 = 23;
    pub const OUTPUT_VERTICES: u32 = 26;
    pub const OUTPUT_POINTS: u32 = 27;
    pub const OUTPUT_LINE_STRIP: u32 = 28;
    pub const OUTPUT_TRIANGLE_STRIP: u32 = 29;
}

/// GL primitive enums.
mod gl {
    pub const POINTS: u32 = 0x0000;
    pub const LINES: u32 = 0x0001;
    pub const LINE_STRIP: u32 = 0x0003;
    pub const TRIANGLES: u32 = 0x0004;
    pub const TRIANGLE_STRIP: u32 = 0x0005;
    pub const LINES_ADJACENCY: u32 = 0x000A;
    pub const TRIANGLES_ADJACENCY: u32 = 0x000C;
}

/// What a geometry stage declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeometryLayout {
    /// `layout(invocations = N)`; 1 when not declared.
    pub invocations: u32,
    /// `layout(max_vertices = N)`.
    pub vertices_out: u32,
    /// The input primitive (`GL_TRIANGLES`, …).
    pub input: u32,
    /// The output primitive (`GL_TRIANGLE_STRIP`, …).
    pub output: u32,
}

impl Default for GeometryLayout {
    fn default() -> Self {
        Self {
            invocations: 1,
            vertices_out: 0,
            input: gl::TRIANGLES,
            output: gl::TRIANGLE_STRIP,
        }
    }
}

impl GeometryLayout {
    /// The layout of the geometry stage `words` (unreadable SPIR-V gives the defaults).
    pub fn of(words: &[u32]) -> Self {
        let mut layout = Self::default();
        let Ok(module) = Module::parse(words) else {
            return layout;
        };
        for (_, m, operands) in &module.execution_modes {
            let first = operands.first().copied();
            match *m {
                mode::INVOCATIONS => layout.invocations = first.unwrap_or(1),
                mode::OUTPUT_VERTICES => layout.vertices_out = first.unwrap_or(0),
                mode::INPUT_POINTS => layout.input = gl::POINTS,
                mode::INPUT_LINES => layout.input = gl::LINES,
                mode::INPUT_LINES_ADJACENCY => layout.input = gl::LINES_ADJACENCY,
                mode::TRIANGLES => layout.input = gl::TRIANGLES,
                mode::INPUT_TRIANGLES_ADJACENCY => layout.input = gl::TRIANGLES_ADJACENCY,
                mode::OUTPUT_POINTS => layout.output = gl::POINTS,
                mode::OUTPUT_LINE_STRIP => layout.output = gl::LINE_STRIP,
                mode::OUTPUT_TRIANGLE_STRIP => layout.output = gl::TRIANGLE_STRIP,
                _ => {}
            }
        }
        layout
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::glsl::{compile_program, CompileOptions, Stage};

    #[test]
    fn instanced_geometry_layouts_are_read_back() {
        let vs = "#version 150\nvoid main() { gl_Position = vec4(0.0); }\n";
        let gs = "#version 150\n#extension GL_ARB_gpu_shader5 : require\nlayout(lines, invocations = 3) in;\nlayout(points, max_vertices = 2) out;\nvoid main() { gl_Position = vec4(float(gl_InvocationID)); EmitVertex(); }\n";
        let fs = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        let program = compile_program(
            &[
                (Stage::Vertex, vs),
                (Stage::Geometry, gs),
                (Stage::Fragment, fs),
            ],
            CompileOptions::default(),
        )
        .expect("links");
        let words = &program.stage(Stage::Geometry).expect("geometry").spirv;
        let layout = GeometryLayout::of(words);
        assert_eq!(
            layout,
            GeometryLayout {
                invocations: 3,
                vertices_out: 2,
                input: gl::LINES,
                output: gl::POINTS,
            }
        );
    }
}
