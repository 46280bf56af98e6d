//! GL_ARB_gl_spirv: programs made of SPIR-V modules an application hands over
//! (`glShaderBinary(GL_SHADER_BINARY_FORMAT_SPIR_V)` + `glSpecializeShader`).
//!
//! Design decisions (docs/gl.md, "SPIR-V shaders", has the whole picture):
//! - SPIR-V → SPIR-V: a GL module is rewritten into the Vulkan module ArenaGL's GLSL path would
//!   have produced for the same shader, so that everything after glslang in that path
//!   (reflection, the GL interface, the draw-time passes of `program::link`) serves both. No
//!   GLSL is generated: a SPIR-V → GLSL route through another compiler would need a C++
//!   dependency or a front end that refuses GL's loose uniforms, and would lose exactness.
//! - Per stage at `glSpecializeShader` ([`specialize`]): the entry point and the specialization
//!   constants. At the link ([`link_program`]): the loose uniforms into the default block
//!   (`uniforms`), descriptors, names, built-ins and modes (`resources`), GL's depth range
//!   remapped in the last stage before the rasteriser (`depth_remap`), then reflection and the
//!   passes that follow it in the GLSL path.
//! - Untrusted input: every step returns an error with a log line, never panics (`module`).

mod initializers;
mod module;
mod point_size;
mod resources;
mod specialize;
mod uniforms;
mod xfb;

pub use resources::Facts;
pub use specialize::{specialize, SpecializeError};

use super::{reflect, CompileError, Program, Stage, StageModule};

/// `GL_SHADER_BINARY_FORMAT_SPIR_V`.
pub const SHADER_BINARY_FORMAT_SPIR_V: u32 = 0x9551;

/// The SPIR-V extensions a module may declare (`GL_SPIR_V_EXTENSIONS`,
/// GL_ARB_spirv_extensions): both core in Vulkan 1.1, whose devices ArenaGL needs (draw
/// parameters with the `shaderDrawParameters` feature ArenaGL enables where present). A module
/// declaring another fails its specialization.
pub const SPIRV_EXTENSIONS: &[&str] = &[
    "SPV_KHR_shader_draw_parameters",
    "SPV_KHR_storage_buffer_storage_class",
];

/// The words of an application's binary: a whole number of words, in either byte order.
pub fn words_of(bytes: &[u8]) -> Result<Vec<u32>, String> {
    if bytes.len() % 4 != 0 {
        return Err("the SPIR-V binary's length is not a multiple of 4".into());
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    match words.first() {
        Some(&super::spirv::MAGIC) => Ok(words),
        Some(&m) if m.swap_bytes() == super::spirv::MAGIC => {
            Ok(words.into_iter().map(u32::swap_bytes).collect())
        }
        _ => Err("the binary does not start with SPIR-V's magic number".into()),
    }
}

fn link_error(log: String) -> CompileError {
    CompileError::Link {
        log: format!("ERROR: Linking: {log}\n"),
    }
}

/// Links the specialized modules of a program (one per stage, pipeline order) into the program
/// the GLSL path would have produced, and what its interface needs from them (see the module
/// docs).
pub fn link_program(stages: &[(Stage, Vec<u32>)]) -> Result<(Program, Facts), CompileError> {
    let mut parsed = Vec::with_capacity(stages.len());
    for (stage, words) in stages {
        if parsed.iter().any(|(s, _, _)| s == stage) {
            return Err(link_error(format!(
                "two SPIR-V shaders of the {stage:?} stage"
            )));
        }
        let sections = module::Sections::parse(words).map_err(link_error)?;
        let parsed_module = super::spirv::Module::parse(words)
            .map_err(|e| link_error(format!("{stage:?} SPIR-V unreadable: {e}")))?;
        parsed.push((*stage, sections, parsed_module));
    }
    let loose = parsed
        .iter()
        .map(|(_, s, m)| uniforms::loose_uniforms(m, s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(link_error)?;
    let block = uniforms::program_block(&loose).map_err(link_error)?;
    let last_before_raster = [Stage::Geometry, Stage::TessEvaluation, Stage::Vertex]
        .into_iter()
        .find(|l| stages.iter().any(|(s, _)| s == l));
    let mut facts = Facts::default();
    let mut modules = Vec::with_capacity(parsed.len());
    for ((stage, mut s, m), loose) in parsed.into_iter().zip(&loose) {
        if Some(stage) == last_before_raster {
            facts.xfb = xfb::declared(&s, &m).map_err(link_error)?;
        }
        for l in loose {
            if let Some(value) = l.initializer {
                let name = uniforms::uniform_name(l.location);
                let found = initializers::initializers(&s, &name, &l.shape, value);
                facts.initializers.extend(found);
            }
        }
        resources::place(&mut s, &m, stage, &mut facts).map_err(link_error)?;
        uniforms::lower(&mut s, &m, loose, &block).map_err(link_error)?;
        resources::vulkan_builtins_and_modes(&mut s).map_err(link_error)?;
        // `DrawParameters` (the link's base-instance correction) is SPIR-V 1.3's.
        s.version = s.version.max(0x0001_0300);
        let entry = specialize::entry_function(&s)
            .ok_or_else(|| link_error(format!("the {stage:?} module has no entry point")))?;
        if Some(stage) == last_before_raster && stage == Stage::Vertex {
            point_size::write_point_size(&mut s, entry).map_err(link_error)?;
        }
        let mut words = s.words();
        if Some(stage) == last_before_raster && stage != Stage::Geometry {
            super::depth_remap::remap_returned_depth(&mut words, entry)
                .map_err(|e| link_error(format!("{stage:?} SPIR-V unreadable: {e}")))?;
        }
        modules.push(StageModule {
            stage,
            spirv: words,
        });
    }
    let views: Vec<(Stage, &[u32])> = modules
        .iter()
        .map(|s| (s.stage, s.spirv.as_slice()))
        .collect();
    let mut reflection = reflect::reflect(&views)?;
    for block in &mut reflection.uniform_blocks {
        block.size = explicit_size(&block.members);
    }
    for stage in &mut modules {
        super::lower_after_reflection(&mut stage.spirv)?;
    }
    let program = Program {
        stages: modules,
        reflection,
        info_log: String::new(),
        frag_coord: Default::default(),
        subroutines: Vec::new(),
    };
    for (&location, shape) in &block {
        let name = uniforms::uniform_name(location);
        if let Some(components) = shape.bool_components() {
            facts.loose_bools.push((name.clone(), components));
        }
        facts.explicit_locations.push((name, location));
    }
    Ok((program, facts))
}

/// `GL_BUFFER_DATA_SIZE` of a block a module lays out itself: the end of its last byte, as its
/// `Offset`, `ArrayStride` and `MatrixStride` place it, rounded up to 16 bytes (reflection's
/// size for GLSL counts a whole stride past an array's or a matrix's last element, which an
/// explicit stride may make longer than the element).
fn explicit_size(members: &[super::BlockMember]) -> u32 {
    let end = |m: &super::BlockMember| {
        let Some((kind, columns, rows)) = m.ty.shape() else {
            return m.offset;
        };
        let (vectors, components) = if m.row_major {
            (rows, columns)
        } else {
            (columns, rows)
        };
        let leaf = (vectors - 1) * m.matrix_stride + components * kind.bytes();
        let elements = m.array_size.unwrap_or(1).max(1);
        m.offset + (elements - 1) * m.array_stride + leaf
    };
    members
        .iter()
        .map(end)
        .max()
        .unwrap_or(0)
        .next_multiple_of(16)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::glsl::spirv_testing::assert_valid;

    const VERTEX: &[u8] = include_bytes!("../../../../tests/gl_spirv/draw.vert.spv");
    const FRAGMENT: &[u8] = include_bytes!("../../../../tests/gl_spirv/draw.frag.spv");

    fn linked(entry: &str) -> (Program, Facts) {
        let vs = specialize(Stage::Vertex, &words_of(VERTEX).unwrap(), "main", &[]).unwrap();
        let fs = words_of(FRAGMENT).unwrap();
        let fs = specialize(Stage::Fragment, &fs, entry, &[(5, 1.0f32.to_bits())]).unwrap();
        link_program(&[(Stage::Vertex, vs), (Stage::Fragment, fs)]).expect("links")
    }

    #[test]
    fn gl_modules_become_valid_vulkan_modules() {
        for entry in ["main", "green_main"] {
            let (program, _) = linked(entry);
            for stage in &program.stages {
                assert_valid(&stage.spirv);
            }
        }
    }

    #[test]
    fn reflection_names_uniforms_by_location_and_resources_by_binding() {
        let (program, facts) = linked("main");
        let r = &program.reflection;
        let block = r.default_block.as_ref().expect("loose uniforms");
        let names: Vec<&str> = block.members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "spirv_location_0",
                "spirv_location_2",
                "spirv_location_3.m0",
                "spirv_location_3.m1"
            ]
        );
        let offsets: Vec<u32> = block.members.iter().map(|m| m.offset).collect();
        assert_eq!(offsets, [0, 16, 32, 36]);
        assert_eq!(r.samplers[0].name, "spirv_location_1");
        assert_eq!(r.samplers[0].binding, crate::glsl::SAMPLER_BINDING_BASE + 2);
        assert_eq!(
            r.uniform_blocks[0].binding,
            crate::glsl::UNIFORM_BLOCK_BINDING_BASE + 1
        );
        assert!(facts
            .explicit_locations
            .contains(&("spirv_location_3".to_owned(), 3)));
        assert!(facts
            .explicit_locations
            .contains(&("spirv_location_1".to_owned(), 1)));
    }

    #[test]
    fn specialization_errors() {
        let fs = words_of(FRAGMENT).unwrap();
        assert_eq!(
            specialize(Stage::Vertex, &fs, "main", &[]),
            Err(SpecializeError::NoEntryPoint("main".into()))
        );
        assert_eq!(
            specialize(Stage::Fragment, &fs, "main", &[(6, 0)]),
            Err(SpecializeError::UnknownConstant(6))
        );
        assert!(matches!(
            specialize(Stage::Fragment, &fs[..6], "main", &[]),
            Err(SpecializeError::Invalid(_))
        ));
        let big_endian: Vec<u8> = FRAGMENT
            .chunks(4)
            .flat_map(|c| [c[3], c[2], c[1], c[0]])
            .collect();
        assert_eq!(words_of(&big_endian).unwrap(), fs);
        assert!(words_of(b"GLSL").is_err());
        assert!(words_of(&FRAGMENT[..7]).is_err());
    }
}
