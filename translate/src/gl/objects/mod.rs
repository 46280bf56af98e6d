//! GL objects, one folder (or file) per type: the object and the entry points that act on it.
//! Object types hold GL state and manager handles; they use neither the compatibility layer nor
//! the pressure policy (`gl/mod.rs`'s rule).

pub(crate) mod buffer;
pub(crate) mod framebuffer;
pub(crate) mod invalidate;
pub(crate) mod multi_bind;
pub(crate) mod program;
pub(crate) mod program_pipeline;
pub(crate) mod query;
pub(crate) mod query_buffer;
pub(crate) mod sampler;
pub(crate) mod sync;
pub(crate) mod texture;
pub(crate) mod transform_feedback;
pub(crate) mod vertex_array;
