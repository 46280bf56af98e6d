//! The Vulkan side of the translator: the process-wide device (the memory manager behind a
//! mutex, `device`), pipelines built and cached by the state Vulkan bakes in (`pipeline`),
//! descriptor pools (`descriptors`), a fast hasher for per-draw caches (`fast_hash`), query
//! pools (`query_pool`) and the pure GL→Vulkan enum mappings (`conv`). Nothing here adds methods
//! to `Context` or uses GL policy (`gl/mod.rs`'s rule).

pub(crate) mod conv;
pub(crate) mod descriptors;
pub(crate) mod device;
pub(crate) mod fast_hash;
pub(crate) mod pipeline;
pub(crate) mod query_pool;
