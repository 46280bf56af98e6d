//! ArenaGL's staging arithmetic: everything about moving bytes between the application and the
//! device that can be decided without a device.
//!
//! Design decisions:
//! - Pure logic, no Vulkan and no `unsafe`: `memory/` composes these pieces with real buffers, so
//!   every rule here is tested exhaustively without a GPU (dependencies point down: `docs/architecture.md`).
//! - Staging memory is modelled as abstract blocks ([`BlockId`]). The arena state machine tells its
//!   caller when a block must be created and when blocks may be retired; it never owns memory.
//! - Application-controlled numbers (sizes, strides, skips) go through checked arithmetic; the
//!   functions here return [`StagingError`] instead of wrapping or panicking.
//!
//! Where things live:
//! - [`align`]: the copy alignment rule (lcm of every constraint) and `align_up`.
//! - [`epoch`]: [`Epoch`], a submission's sequence number, shared with `memory/`.
//! - [`arena`]: per-frame bump arenas over frame slots, rewound by completed epochs.
//! - [`split`]: cutting uploads larger than an arena into chunks that fit.
//! - [`region`]: extents and texel boxes shared by the pixel modules.
//! - [`unpack`]: GL pixel-store state (`GL_UNPACK_*` / `GL_PACK_*`) and the client memory layout.
//! - [`format`]: client (GL format/type) and device pixel formats.
//! - [`convert`]: unpack + convert into staging, and staging → client for readback, in one pass.
//! - [`pixel`]: the general path for every other client pair (16/32-bit, float, packed, integer).
//! - [`texel`]: device texel formats beyond 8-bit colour (float, integer, snorm, packed).
//! - [`packed_float`]: half floats, 11/10-bit floats and RGB9_E5.
//! - [`compressed`]: S3TC, RGTC, ETC2 and EAC block decoders for devices without them.
//! - [`coalesce`]: dirty-range coalescing for buffer uploads.
//! - [`scratch`]: CPU per-frame scratch arenas (`bumpalo`).
#![deny(unsafe_code, clippy::unwrap_used)]
#![warn(missing_docs)]

pub mod align;
pub mod arena;
pub mod coalesce;
pub mod compressed;
pub mod convert;
pub mod epoch;
pub mod error;
pub mod format;
pub mod packed_float;
pub mod pixel;
pub mod region;
pub mod scratch;
pub mod split;
pub mod texel;
pub mod unpack;

pub use align::{align_up, lcm, CopyLimits};
pub use arena::{
    Allocation, ArenaConfig, ArenaStats, BeginFrame, BlockId, BlockInfo, BlockKind, BlockSpec,
    FrameArenas, Rewind,
};
pub use coalesce::DirtyRanges;
pub use compressed::{decompress, Codec};
pub use convert::{
    pack_box, pack_region, unpack_box, unpack_region, unpacks_as_copy, LuminanceRule, StagingLayout,
};
pub use epoch::Epoch;
pub use error::StagingError;
pub use format::{ClientFormat, DeviceFormat};
pub use pixel::{pack_from_texels, unpack_to_texels, ClientPixel, PairError};
pub use region::{Extent3d, TexelBox};
pub use scratch::{FrameScratch, ScratchStats};
pub use split::{split_buffer, split_image, BufferChunks, ImageChunk, ImageChunks, TexelBlock};
pub use texel::{TexelFormat, TexelKind};
pub use unpack::{ClientLayout, Dims, PackState, PixelAlignment, PixelStore, Region, UnpackState};
