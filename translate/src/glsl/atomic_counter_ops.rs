//! GL_ARB_shader_atomic_counter_ops: `atomicCounterAddARB` … `atomicCounterCompSwapARB`,
//! lowered before glslang.
//!
//! Under Vulkan's relaxed rules glslang turns every `uniform atomic_uint` into a `uint` member
//! of the storage block `gl_AtomicCounterBlock_N` and remaps only the three GL 4.2 counter
//! functions onto storage atomics (`vkRelaxedRemapFunctionCall`); the extension's nine are
//! declared for `atomic_uint` arguments (and only at GLSL 4.50), so a call on the remapped
//! member matches none. A unit that enables the extension (it is compiled as GLSL 4.50,
//! `raise`, where the storage atomics exist) gets function-like macros after its `#version`
//! that say what each operation is on the member: the storage atomic of the same name
//! (`atomicAdd`, `atomicMin`, …, `atomicCompSwap`, each returning the value before the
//! operation, as the counter functions do), and for the subtraction an addition of the
//! two's complement. The counters' declarations are untouched, so reflection reports the same
//! `GL_ATOMIC_COUNTER_BUFFER` resources. A `#line` after the macros keeps the application's
//! line numbers in logs.

use std::borrow::Cow;

use super::version::read;

/// The extension whose directive makes a unit take the macros.
pub(crate) const EXTENSION: &str = "GL_ARB_shader_atomic_counter_ops";

/// The operations as the macros that replace them.
const LOWERED: &str = "\
#define atomicCounterAddARB(c, v) atomicAdd((c), (v))\n\
#define atomicCounterSubtractARB(c, v) atomicAdd((c), 0u - (v))\n\
#define atomicCounterMinARB(c, v) atomicMin((c), (v))\n\
#define atomicCounterMaxARB(c, v) atomicMax((c), (v))\n\
#define atomicCounterAndARB(c, v) atomicAnd((c), (v))\n\
#define atomicCounterOrARB(c, v) atomicOr((c), (v))\n\
#define atomicCounterXorARB(c, v) atomicXor((c), (v))\n\
#define atomicCounterExchangeARB(c, v) atomicExchange((c), (v))\n\
#define atomicCounterCompSwapARB(c, compare, v) atomicCompSwap((c), (compare), (v))";

/// `source` with the operations lowered (see the module docs) when it names the extension and
/// calls one; otherwise unchanged.
pub(crate) fn lower(source: &str) -> Cow<'_, str> {
    if !source.contains(EXTENSION) || !source.contains("ARB(") && !source.contains("ARB (") {
        return Cow::Borrowed(source);
    }
    let Some(d) = read(source) else {
        return Cow::Borrowed(source);
    };
    if d.profile.as_deref() == Some("es") || d.unoffered {
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
    use crate::glsl::{compile_program, CompileOptions, Stage};

    const FS: &str = "#version 140\n#extension GL_ARB_shader_atomic_counters : require\n\
                      #extension GL_ARB_shader_atomic_counter_ops : require\n\
                      layout(binding = 0, offset = 0) uniform atomic_uint a;\nout vec4 o;\n\
                      void main() {\n\
                      uint r = atomicCounterAddARB(a, 2u) + atomicCounterSubtractARB(a, 1u)\n\
                      + atomicCounterMinARB(a, 3u) + atomicCounterMaxARB(a, 3u)\n\
                      + atomicCounterAndARB(a, 3u) + atomicCounterOrARB(a, 3u)\n\
                      + atomicCounterXorARB(a, 3u) + atomicCounterExchangeARB(a, 3u)\n\
                      + atomicCounterCompSwapARB(a, 3u, 4u);\n\
                      o = vec4(float(r));\n}\n";
    const VS: &str = "#version 140\nvoid main() { gl_Position = vec4(0.0); }\n";

    #[test]
    fn every_operation_compiles_to_valid_spirv() {
        let program = compile_program(
            &[(Stage::Vertex, VS), (Stage::Fragment, FS)],
            CompileOptions::default(),
        )
        .unwrap();
        for stage in &program.stages {
            crate::glsl::spirv_testing::assert_valid(&stage.spirv);
        }
        assert!(super::lower(VS) == VS);
    }
}
