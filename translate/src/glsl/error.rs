//! The crate's error enum.
//!
//! Design decisions:
//! - One enum for the crate (house rule). So far only the GLSL compiler produces errors; the GL
//!   layer will add its variants here (GL errors proper are values at the API edge, not these).
//! - A compile or link failure carries exactly the text GL shows the application
//!   (`glGetShaderInfoLog` / `glGetProgramInfoLog`), and is *permanent*: the same sources fail the
//!   same way, so the GL layer may cache the verdict. A resource failure (glslang could not start
//!   or allocate) is *transient* (`docs/robustness.md`): retry later, never cache it.

use super::Stage;

/// Why GLSL did not become SPIR-V.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// A shader failed to compile. `unit` is its index in the list handed to the compiler (a GL
    /// program may hold several shaders of one stage); `log` is what `glGetShaderInfoLog` shows.
    #[error("{stage:?} shader #{unit} failed to compile:\n{log}")]
    Compile {
        stage: Stage,
        unit: usize,
        log: String,
    },
    /// The program failed to link or its interfaces could not be mapped; `log` is what
    /// `glGetProgramInfoLog` shows.
    #[error("program failed to link:\n{log}")]
    Link { log: String },
    /// glslang could not run (process initialisation failed, it returned no object, or the
    /// compiler thread could not start). Transient: retry later, never cache it.
    #[error("the GLSL compiler could not {0} (out of resources)")]
    Resource(&'static str),
    /// glslang produced output this crate cannot read: a defect, reported rather than panicked on.
    /// Deterministic for the same sources, so permanent.
    #[error("internal GLSL compiler error: {0}")]
    Internal(String),
}

impl CompileError {
    /// True for failures that may succeed on retry (resource exhaustion); false for failures that
    /// are a property of the sources and may be cached.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Resource(_))
    }

    /// The log GL shows the application: the shader's or the program's info log.
    pub fn info_log(&self) -> String {
        match self {
            Self::Compile { log, .. } | Self::Link { log } => log.clone(),
            other => format!("ERROR: {other}\n"),
        }
    }
}
