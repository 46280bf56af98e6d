//! GLSL 1.40 units that enable GL_ARB_gpu_shader_fp64.
//!
//! The extension is written against GLSL 1.50, and glslang declares its types only for a
//! version with a profile (1.50 on); Mesa, and piglit's tests (a unit without `#version` that
//! shader_runner gives `#version 140`), take it in 1.40 too. Such a unit is compiled as GLSL
//! 1.50 — which removed nothing 1.40 still had — with the directive rewritten in place, so
//! line numbers in logs stay the application's.

use std::borrow::Cow;

use super::version::{read, Number};

/// `source` as glslang must see it: see the module docs.
pub(crate) fn for_fp64(source: &str) -> Cow<'_, str> {
    let Some(d) = read(source) else {
        return Cow::Borrowed(source);
    };
    let enables_fp64 = source.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with('#') && l.contains("extension") && l.contains("GL_ARB_gpu_shader_fp64")
    });
    if d.number != Number::Value(140) || d.profile.is_some() || d.unoffered || !enables_fp64 {
        return Cow::Borrowed(source);
    }
    let f = d.found;
    Cow::Owned(format!(
        "{}#version 150{}",
        &source[..f.start],
        &source[f.end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_140_units_enabling_fp64_become_150() {
        let src = "#version 140\n#extension GL_ARB_gpu_shader_fp64 : enable\nuniform double d;\n";
        assert_eq!(
            for_fp64(src),
            "#version 150\n#extension GL_ARB_gpu_shader_fp64 : enable\nuniform double d;\n"
        );
        let plain = "#version 140\nuniform float f;\n";
        assert_eq!(for_fp64(plain), plain);
        let later = "#version 330\n#extension GL_ARB_gpu_shader_fp64 : enable\n";
        assert_eq!(for_fp64(later), later);
    }
}
