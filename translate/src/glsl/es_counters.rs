//! GLSL ES 3.10's atomic counter functions, lowered before glslang.
//!
//! Design decisions:
//! - Under Vulkan's relaxed rules glslang turns every `uniform atomic_uint` into a `uint` member
//!   of the storage block `gl_AtomicCounterBlock_N` and remaps the three counter functions onto
//!   storage atomics while it parses a call (`vkRelaxedRemapFunctionCall`). For desktop GLSL
//!   that works. For GLSL ES it does not: the remapping passes `int` constants where `atomicAdd`
//!   takes a `uint`, which ES's lack of implicit conversions leaves as they are —
//!   `atomicCounterIncrement` gives invalid SPIR-V (an `OpAtomicIAdd` whose value is an `int`),
//!   `atomicCounterDecrement` and `atomicCounter` fall through to built-ins with no operator
//!   and end in an assertion inside glslang (`nonOpBuiltInCheck`), which would abort the
//!   application.
//! - So an ES unit from 3.10 that calls them gets function-like macros after its `#version`
//!   that say what glslang's desktop remapping says, in terms ES accepts:
//!   `atomicCounterIncrement(c)` is `atomicAdd(c, 1u)` (the value before the increment),
//!   `atomicCounterDecrement(c)` is `atomicAdd(c, 0xFFFFFFFFu) - 1u` (the value after the
//!   decrement, as the built-in returns) and `atomicCounter(c)` a read of the member (what
//!   glslang makes of it on desktop). A macro takes any argument expression (`c[i + 1]`), and
//!   the counter's declaration is untouched, so glslang builds the same block and reflection
//!   reports the same `GL_ATOMIC_COUNTER_BUFFER` resources, bindings and offsets.
//! - A `#line` after the macros keeps the application's line numbers in logs (from GLSL ES 3.00
//!   on, `#line N` numbers the next line N).

use std::borrow::Cow;

use super::version::{read, Number};

/// The counter functions glslang's relaxed rules cannot remap in GLSL ES, as the macros that
/// replace them.
const LOWERED: &str = "#define atomicCounterIncrement(c) atomicAdd((c), 1u)\n\
                       #define atomicCounterDecrement(c) (atomicAdd((c), 0xFFFFFFFFu) - 1u)\n\
                       #define atomicCounter(c) (c)";

/// `source` with the counter functions glslang cannot remap lowered (see the module docs), when
/// it is a GLSL ES unit from 3.10 on that calls one; otherwise unchanged.
pub(crate) fn lower(source: &str) -> Cow<'_, str> {
    if !source.contains("atomicCounter") {
        return Cow::Borrowed(source);
    }
    let Some(d) = read(source) else {
        return Cow::Borrowed(source);
    };
    let es_310 =
        d.profile.as_deref() == Some("es") && matches!(d.number, Number::Value(v) if v >= 310);
    if !es_310 || d.unoffered {
        return Cow::Borrowed(source);
    }
    let f = d.found;
    Cow::Owned(format!(
        "{}\n{LOWERED}\n#line {}{}",
        &source[..f.end],
        f.line + 1,
        &source[f.end..]
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::glsl::{compile_program, CompileError, Stage};

    const FS: &str = "#version 310 es\nprecision highp float;\n\
                      layout(binding = 1, offset = 0) uniform atomic_uint a;\n\
                      layout(binding = 1) uniform atomic_uint b[2];\nout vec4 o;\n\
                      void main() {\n\
                      uint i = atomicCounterIncrement(a);\n\
                      uint d = atomicCounterDecrement(b[int(i) & 1]);\n\
                      o = vec4(float(atomicCounter(a) + d));\n}\n";
    const VS: &str = "#version 310 es\nvoid main() { gl_Position = vec4(0.0); }\n";

    fn link(vs: &str, fs: &str) -> Result<crate::glsl::Program, CompileError> {
        compile_program(
            &[(Stage::Vertex, vs), (Stage::Fragment, fs)],
            Default::default(),
        )
    }

    #[test]
    fn every_counter_function_compiles_and_reflects_as_on_desktop() {
        let program = link(VS, &lower(FS)).unwrap();
        for stage in &program.stages {
            crate::glsl::spirv_testing::assert_valid(&stage.spirv);
        }
        let es = program.reflection;
        let desktop = |s: &str| s.replace("#version 310 es", "#version 430");
        let desktop = link(&desktop(VS), &desktop(FS)).unwrap().reflection;
        let counters: Vec<_> = (es.storage_blocks.iter())
            .filter(|b| b.name.starts_with(crate::glsl::ATOMIC_COUNTER_BLOCK_PREFIX))
            .collect();
        assert_eq!(counters.len(), 1, "{es:?}");
        assert_eq!(counters[0].members, ["a", "b"], "{counters:?}");
        assert_eq!(es.storage_blocks, desktop.storage_blocks);
    }

    #[test]
    fn line_numbers_and_other_units_are_kept() {
        let bad = FS.replace("o = vec4", "o = vec3");
        let log = match link(VS, &lower(&bad)).unwrap_err() {
            CompileError::Compile { log, .. } => log,
            other => panic!("{other:?}"),
        };
        assert!(
            log.contains("0:9:"),
            "the error is on the application's line 9: {log}"
        );
        for kept in [
            VS,
            "#version 430\nlayout(binding = 0) uniform atomic_uint c;\n\
             void main() { atomicCounter(c); }\n",
            "#version 300 es\nvoid main() { atomicCounter(c); }\n",
        ] {
            assert_eq!(lower(kept), kept);
        }
    }
}
