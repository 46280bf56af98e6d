//! The fixed-function stages as legacy GLSL text: what a program that lacks a stage runs in its
//! place (a vertex-only program colours with the interpolated colour, a fragment-only program
//! transforms by the matrices), and the vertex stage the compatibility layer's generated programs
//! start from. Text only: no GL state, so both the program object and the compatibility layer
//! use it without depending on each other.

use super::legacy::{Varyings, MAX_TEXTURE_COORDS};

/// The fragment shader of a program with only a vertex shader: the interpolated colour.
pub const FF_FRAGMENT_PASS: &str = "#version 110\nvoid main() {\n    gl_FragColor = gl_Color;\n}\n";

/// The legacy vertex shader of fixed-function transform: what a generated program or a program
/// with only a fragment shader runs. Writes what the fragment stage reads (`reads`); with
/// lighting, `lit` is its declarations and its body (the compatibility layer writes them).
pub fn ff_vertex_source(reads: Varyings, lit: Option<(String, String)>) -> String {
    let mut s = String::from("#version 110\n");
    if let Some((decls, _)) = &lit {
        s.push_str(decls);
    }
    s.push_str("void main() {\n    gl_Position = ftransform();\n");
    match &lit {
        Some((_, body)) => {
            s.push_str("    vec4 eye = gl_ModelViewMatrix * gl_Vertex;\n");
            s.push_str(body);
        }
        None if reads.contains(Varyings::FRONT_COLOR) => {
            s.push_str("    gl_FrontColor = gl_Color;\n");
        }
        None => {}
    }
    if reads.contains(Varyings::FRONT_SECONDARY) {
        s.push_str("    gl_FrontSecondaryColor = gl_SecondaryColor;\n");
    }
    if reads.contains(Varyings::TEX_COORD) {
        for i in 0..MAX_TEXTURE_COORDS {
            s.push_str(&format!(
                "    gl_TexCoord[{i}] = gl_TextureMatrix[{i}] * gl_MultiTexCoord{i};\n"
            ));
        }
    }
    if reads.contains(Varyings::FOG_FRAG_COORD) {
        s.push_str("    gl_FogFragCoord = abs((gl_ModelViewMatrix * gl_Vertex).z);\n");
    }
    s.push_str("}\n");
    s
}
