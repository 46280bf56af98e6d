//! What a link compiled ([`LinkInput`]), kept with the program: program pipelines relink the
//! stages of several separable programs together from it (`objects::program_pipeline`).

use std::collections::HashMap;

use crate::glsl::xfb::XfbRequest;
use crate::glsl::{FragBinding, Stage};

/// The inputs of one successful `glLinkProgram`: the attached units' sources and the bindings
/// the application set before it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LinkInput {
    pub units: Vec<(Stage, String)>,
    pub attrib_bindings: HashMap<String, u32>,
    pub frag_bindings: HashMap<String, FragBinding>,
    pub xfb: XfbRequest,
    /// `GL_PROGRAM_SEPARABLE` at the link.
    pub separable: bool,
}

impl LinkInput {
    /// The application's stages (those of its own units, not the ones a link supplies), once
    /// per unit.
    pub(crate) fn stages(&self) -> impl Iterator<Item = Stage> + '_ {
        self.units.iter().map(|(s, _)| *s)
    }

    /// Whether a unit of `stage` was linked.
    pub(crate) fn has_stage(&self, stage: Stage) -> bool {
        self.units.iter().any(|(s, _)| *s == stage)
    }
}
