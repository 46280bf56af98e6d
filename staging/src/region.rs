//! Extents and texel boxes: the shapes the pixel modules move.
//!
//! Design decisions:
//! - GL sizes are `GLsizei` (non-negative after validation), so they are `u32` here; products of
//!   them are computed in `u64` with checked arithmetic by the modules that need them.
//! - A [`TexelBox`] is always relative to the region a GL call describes (not to the texture):
//!   the translator adds the texture offset (`xoffset`, `yoffset`, `zoffset`) when it records
//!   the copy. For array textures `z`/`depth` count layers; the translator maps them to
//!   `baseArrayLayer`/`layerCount`.

/// Width, height and depth (or layer count) of a region, in texels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Extent3d {
    /// Texels per row.
    pub width: u32,
    /// Rows per image.
    pub height: u32,
    /// Images (3D slices or array layers).
    pub depth: u32,
}

impl Extent3d {
    /// An extent of `width × height × depth` texels.
    pub const fn new(width: u32, height: u32, depth: u32) -> Self {
        Self {
            width,
            height,
            depth,
        }
    }

    /// Whether the extent holds no texel (a GL call with a zero size transfers nothing).
    pub const fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0 || self.depth == 0
    }

    /// Number of texels (cannot overflow: three `u32`s multiply into less than 2^96, so this is
    /// computed in `u128`).
    pub fn texel_count(&self) -> u128 {
        u128::from(self.width) * u128::from(self.height) * u128::from(self.depth)
    }
}

/// A box of texels inside a region: origin plus extent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TexelBox {
    /// First texel column.
    pub x: u32,
    /// First row.
    pub y: u32,
    /// First image.
    pub z: u32,
    /// Texels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Images.
    pub depth: u32,
}

impl TexelBox {
    /// The box covering the whole `extent`.
    pub const fn whole(extent: Extent3d) -> Self {
        Self {
            x: 0,
            y: 0,
            z: 0,
            width: extent.width,
            height: extent.height,
            depth: extent.depth,
        }
    }

    /// The box's own extent.
    pub const fn extent(&self) -> Extent3d {
        Extent3d::new(self.width, self.height, self.depth)
    }

    /// Whether the box holds no texel.
    pub const fn is_empty(&self) -> bool {
        self.extent().is_empty()
    }

    /// Whether the box lies inside `extent` (an empty box lies anywhere).
    pub fn fits_in(&self, extent: Extent3d) -> bool {
        let inside = |origin: u32, len: u32, limit: u32| {
            u64::from(origin) + u64::from(len) <= u64::from(limit)
        };
        self.is_empty()
            || (inside(self.x, self.width, extent.width)
                && inside(self.y, self.height, extent.height)
                && inside(self.z, self.depth, extent.depth))
    }
}
