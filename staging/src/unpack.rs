//! GL pixel-store state (`GL_UNPACK_*` for uploads, `GL_PACK_*` for readbacks) and the layout of
//! a region in client memory that it implies.
//!
//! Design decisions:
//! - The layout follows OpenGL 4.6 §8.4.4.1 literally. With `n` elements per pixel, `s` bytes per
//!   element, `l` pixels per row (`ROW_LENGTH` if positive, else the region width) and alignment
//!   `a`, a row spans `k` elements:
//!   `k = n·l` if `s ≥ a`, otherwise `k = (a/s)·⌈s·n·l / a⌉`; the row stride is `k·s` bytes.
//!   The image stride is the row stride times `IMAGE_HEIGHT` if positive, else the region
//!   height. Pixel `(x, y, z)` of the region starts at byte
//!   `(SKIP_IMAGES + z)·image_stride + (SKIP_ROWS + y)·row_stride + (SKIP_PIXELS + x)·n·s`.
//! - `SKIP_IMAGES` and `IMAGE_HEIGHT` apply to 3D calls only (`glTex*Image3D`, `glGetTexImage`
//!   of 3D/array textures); `SKIP_ROWS` applies to 1D calls too (as in Mesa's
//!   `_mesa_image_offset`): a 1D image is a 2D image of height 1. [`Dims`] carries the call's
//!   dimensionality for this.
//! - Pack and unpack state have the same fields and the same layout rule, so they are one type,
//!   [`PixelStore`], named [`UnpackState`] / [`PackState`] at the call sites.
//! - Every multiplication is checked: `ROW_LENGTH`, `IMAGE_HEIGHT` and the skips are
//!   application-controlled, and `(2^31)^3` does not fit in 64 bits. Once a [`ClientLayout`] is
//!   built, every offset inside its region is known to fit.
//! - [`ClientLayout::required_bytes`] is the byte after the last pixel read, counted from the
//!   start of client memory (the pointer or PBO offset): the last row is not padded to the
//!   alignment, exactly like the GL's "would read past the end of the buffer" check, so a
//!   tightly sized PBO is accepted.

use crate::error::StagingError;
use crate::format::ClientFormat;
use crate::region::{Extent3d, TexelBox};

/// `GL_UNPACK_ALIGNMENT` / `GL_PACK_ALIGNMENT`: the only values the GL accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PixelAlignment {
    /// Rows start on any byte.
    One,
    /// Rows start on even bytes.
    Two,
    /// Rows start on multiples of 4 bytes (the GL default).
    #[default]
    Four,
    /// Rows start on multiples of 8 bytes.
    Eight,
}

impl PixelAlignment {
    /// Maps a `glPixelStorei` value; `None` for values the GL rejects with `GL_INVALID_VALUE`.
    pub const fn from_gl(value: i32) -> Option<Self> {
        match value {
            1 => Some(Self::One),
            2 => Some(Self::Two),
            4 => Some(Self::Four),
            8 => Some(Self::Eight),
            _ => None,
        }
    }

    /// The alignment in bytes.
    pub const fn bytes(self) -> u32 {
        match self {
            Self::One => 1,
            Self::Two => 2,
            Self::Four => 4,
            Self::Eight => 8,
        }
    }
}

/// The pixel-store parameters of one direction (`GL_UNPACK_*` or `GL_PACK_*`). Negative values
/// are rejected by `glPixelStorei` before they get here, hence `u32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PixelStore {
    /// `*_ALIGNMENT`.
    pub alignment: PixelAlignment,
    /// `*_ROW_LENGTH`: pixels per row in client memory; 0 means the region width.
    pub row_length: u32,
    /// `*_IMAGE_HEIGHT`: rows per image in client memory; 0 means the region height (3D only).
    pub image_height: u32,
    /// `*_SKIP_PIXELS`.
    pub skip_pixels: u32,
    /// `*_SKIP_ROWS`.
    pub skip_rows: u32,
    /// `*_SKIP_IMAGES` (3D only).
    pub skip_images: u32,
    /// `*_SWAP_BYTES`: reverses the bytes of multi-byte elements (the packed 32-bit types); no
    /// effect on `GL_UNSIGNED_BYTE` data.
    pub swap_bytes: bool,
}

/// `GL_UNPACK_*` state: how an upload reads client memory.
pub type UnpackState = PixelStore;
/// `GL_PACK_*` state: how a readback writes client memory.
pub type PackState = PixelStore;

/// Dimensionality of the GL call: decides which pixel-store fields apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dims {
    /// `glTex(Sub)Image1D`: like 2D with height 1 (`SKIP_ROWS` still applies).
    One,
    /// `glTex(Sub)Image2D`, `glReadPixels`, 2D `glGetTexImage`: `SKIP_IMAGES` and
    /// `IMAGE_HEIGHT` are ignored.
    Two,
    /// `glTex(Sub)Image3D` (3D and array textures) and their `glGetTexImage`.
    Three,
}

/// The region a GL call transfers, as the call states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Region {
    /// `width`, `height`, `depth` of the call (1 for the dimensions the call lacks).
    pub extent: Extent3d,
    /// Which pixel-store fields apply.
    pub dims: Dims,
}

impl Region {
    /// A 1D call of `width` texels.
    pub const fn d1(width: u32) -> Self {
        Self {
            extent: Extent3d::new(width, 1, 1),
            dims: Dims::One,
        }
    }

    /// A 2D call of `width × height` texels.
    pub const fn d2(width: u32, height: u32) -> Self {
        Self {
            extent: Extent3d::new(width, height, 1),
            dims: Dims::Two,
        }
    }

    /// A 3D call of `width × height × depth` texels.
    pub const fn d3(width: u32, height: u32, depth: u32) -> Self {
        Self {
            extent: Extent3d::new(width, height, depth),
            dims: Dims::Three,
        }
    }
}

/// Where each pixel of a region lies in client memory, for one pixel-store state and one client
/// format. Offsets are relative to the client pointer (or the PBO offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientLayout {
    extent: Extent3d,
    format: ClientFormat,
    swap_bytes: bool,
    group_bytes: u64,
    row_stride: u64,
    image_stride: u64,
    skip_offset: u64,
    required: u64,
}

impl ClientLayout {
    /// Computes the layout of `region` in client memory under `store` for pixels of `format`.
    ///
    /// # Errors
    /// [`StagingError::Overflow`] when an offset inside the region does not fit in 64 bits.
    pub fn new(
        store: &PixelStore,
        region: Region,
        format: ClientFormat,
    ) -> Result<Self, StagingError> {
        Self::build(
            store,
            region,
            format,
            format.elements_per_group(),
            format.element_bytes(),
        )
    }

    /// The layout of pixels of `n` elements of `s` bytes each (the general path's client
    /// pixels, [`crate::pixel::ClientPixel`]); [`Self::format`] then names raw texels of that
    /// pixel size.
    ///
    /// # Errors
    /// As [`Self::new`]; [`StagingError::Internal`] for pixels of 0 or more than 255 bytes.
    pub fn with_elements(
        store: &PixelStore,
        region: Region,
        n: u32,
        s: u32,
    ) -> Result<Self, StagingError> {
        let group = u8::try_from(n * s)
            .ok()
            .filter(|&g| g > 0)
            .ok_or(StagingError::Internal("client pixel size"))?;
        Self::build(store, region, ClientFormat::Texels(group), n, s)
    }

    fn build(
        store: &PixelStore,
        region: Region,
        format: ClientFormat,
        n: u32,
        s: u32,
    ) -> Result<Self, StagingError> {
        let Region { extent, dims } = region;
        let (skip_images, image_height) = match dims {
            Dims::Three => (store.skip_images, store.image_height),
            Dims::One | Dims::Two => (0, 0),
        };
        let n = u64::from(n);
        let s = u64::from(s);
        let a = u64::from(store.alignment.bytes());
        let l = u64::from(if store.row_length > 0 {
            store.row_length
        } else {
            extent.width
        });
        let rows_per_image = u64::from(if image_height > 0 {
            image_height
        } else {
            extent.height
        });

        let elements = n.checked_mul(l).ok_or(StagingError::Overflow)?;
        let k = if s >= a {
            elements
        } else {
            let bytes = s.checked_mul(elements).ok_or(StagingError::Overflow)?;
            (a / s)
                .checked_mul(bytes.div_ceil(a))
                .ok_or(StagingError::Overflow)?
        };
        let row_stride = k.checked_mul(s).ok_or(StagingError::Overflow)?;
        let image_stride = row_stride
            .checked_mul(rows_per_image)
            .ok_or(StagingError::Overflow)?;
        let group_bytes = n * s;

        let mut layout = Self {
            extent,
            format,
            swap_bytes: store.swap_bytes,
            group_bytes,
            row_stride,
            image_stride,
            skip_offset: 0,
            required: 0,
        };
        layout.skip_offset = layout.offset_of(
            u64::from(store.skip_pixels),
            u64::from(store.skip_rows),
            u64::from(skip_images),
        )?;
        if !extent.is_empty() {
            let last = layout.offset_of(
                u64::from(store.skip_pixels) + u64::from(extent.width - 1),
                u64::from(store.skip_rows) + u64::from(extent.height - 1),
                u64::from(skip_images) + u64::from(extent.depth - 1),
            )?;
            layout.required = last
                .checked_add(group_bytes)
                .ok_or(StagingError::Overflow)?;
        }
        Ok(layout)
    }

    /// Offset of the pixel at absolute (skips included) column/row/image, checked.
    fn offset_of(&self, column: u64, row: u64, image: u64) -> Result<u64, StagingError> {
        [
            (image, self.image_stride),
            (row, self.row_stride),
            (column, self.group_bytes),
        ]
        .iter()
        .try_fold(0u64, |acc, &(count, stride)| {
            count
                .checked_mul(stride)
                .and_then(|term| acc.checked_add(term))
                .ok_or(StagingError::Overflow)
        })
    }

    /// The region's extent.
    pub const fn extent(&self) -> Extent3d {
        self.extent
    }

    /// The client pixel format.
    pub const fn format(&self) -> ClientFormat {
        self.format
    }

    /// Whether `*_SWAP_BYTES` was set.
    pub const fn swap_bytes(&self) -> bool {
        self.swap_bytes
    }

    /// Bytes per pixel in client memory.
    pub const fn group_bytes(&self) -> u64 {
        self.group_bytes
    }

    /// Bytes from the start of one row to the start of the next.
    pub const fn row_stride(&self) -> u64 {
        self.row_stride
    }

    /// Bytes from the start of one image to the start of the next (3D calls).
    pub const fn image_stride(&self) -> u64 {
        self.image_stride
    }

    /// Offset of the first pixel of the region (the skips).
    pub const fn skip_offset(&self) -> u64 {
        self.skip_offset
    }

    /// Bytes of client memory the transfer touches, counted from the client pointer: the byte
    /// after the last pixel of the region, 0 for an empty region. A buffer shorter than this is
    /// `GL_INVALID_OPERATION` for a PBO.
    pub const fn required_bytes(&self) -> u64 {
        self.required
    }

    /// Offset of pixel `(x, y, z)` of the region; `None` outside the region.
    pub fn pixel_offset(&self, x: u32, y: u32, z: u32) -> Option<u64> {
        if x >= self.extent.width || y >= self.extent.height || z >= self.extent.depth {
            return None;
        }
        // Inside the region every term is bounded by `required`, which fit at construction.
        Some(
            self.skip_offset
                + u64::from(z) * self.image_stride
                + u64::from(y) * self.row_stride
                + u64::from(x) * self.group_bytes,
        )
    }

    /// Offset of the first pixel of row `y` of image `z`; `None` outside the region.
    pub fn row_offset(&self, y: u32, z: u32) -> Option<u64> {
        self.pixel_offset(0, y, z)
    }

    /// Bytes of client memory a transfer of `part` touches, counted from the client pointer (the
    /// byte after the last pixel of `part`; 0 for an empty box).
    ///
    /// # Errors
    /// [`StagingError::Internal`] when `part` does not lie inside the region.
    pub fn required_bytes_for(&self, part: &TexelBox) -> Result<u64, StagingError> {
        if !part.fits_in(self.extent) {
            return Err(StagingError::Internal(
                "texel box outside the client region",
            ));
        }
        if part.is_empty() {
            return Ok(0);
        }
        let last = self
            .pixel_offset(
                part.x + (part.width - 1),
                part.y + (part.height - 1),
                part.z + (part.depth - 1),
            )
            .ok_or(StagingError::Internal(
                "texel box outside the client region",
            ))?;
        Ok(last + self.group_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(alignment: PixelAlignment) -> PixelStore {
        PixelStore {
            alignment,
            ..PixelStore::default()
        }
    }

    #[test]
    fn default_alignment_pads_rgb_rows_to_four_bytes() -> Result<(), StagingError> {
        // 3 RGB pixels = 9 bytes, padded to 12 under the default alignment of 4.
        let l = ClientLayout::new(&PixelStore::default(), Region::d2(3, 2), ClientFormat::Rgb)?;
        assert_eq!(l.row_stride(), 12);
        // The last row is not padded: 12 + 9.
        assert_eq!(l.required_bytes(), 21);
        let l = ClientLayout::new(
            &store(PixelAlignment::One),
            Region::d2(3, 2),
            ClientFormat::Rgb,
        )?;
        assert_eq!(l.row_stride(), 9);
        assert_eq!(l.required_bytes(), 18);
        Ok(())
    }

    #[test]
    fn alignment_eight_rounds_rgba_rows() -> Result<(), StagingError> {
        // 3 RGBA pixels = 12 bytes → 16 under alignment 8; 2 pixels = 8 stays 8.
        let l = ClientLayout::new(
            &store(PixelAlignment::Eight),
            Region::d2(3, 1),
            ClientFormat::Rgba,
        )?;
        assert_eq!(l.row_stride(), 16);
        let l = ClientLayout::new(
            &store(PixelAlignment::Eight),
            Region::d2(2, 1),
            ClientFormat::Rgba,
        )?;
        assert_eq!(l.row_stride(), 8);
        // Packed type: s = 4 ≥ a = 4, so k = n·l = 3 elements = 12 bytes; with a = 8, s < a:
        // k = (8/4)·⌈4·1·3/8⌉ = 2·2 = 4 elements = 16 bytes.
        let l = ClientLayout::new(
            &store(PixelAlignment::Four),
            Region::d2(3, 1),
            ClientFormat::BgraPacked8888Rev,
        )?;
        assert_eq!(l.row_stride(), 12);
        let l = ClientLayout::new(
            &store(PixelAlignment::Eight),
            Region::d2(3, 1),
            ClientFormat::BgraPacked8888Rev,
        )?;
        assert_eq!(l.row_stride(), 16);
        Ok(())
    }

    #[test]
    fn row_length_and_skips_from_the_spec() -> Result<(), StagingError> {
        // A 2×2 RGB sub-rectangle at (2, 1) of a 5-pixel-wide image, alignment 4:
        // row stride = ⌈15/4⌉·4 = 16; first pixel at 1·16 + 2·3 = 22.
        let s = PixelStore {
            row_length: 5,
            skip_pixels: 2,
            skip_rows: 1,
            ..PixelStore::default()
        };
        let l = ClientLayout::new(&s, Region::d2(2, 2), ClientFormat::Rgb)?;
        assert_eq!(l.row_stride(), 16);
        assert_eq!(l.skip_offset(), 22);
        assert_eq!(l.pixel_offset(1, 1, 0), Some(22 + 16 + 3));
        assert_eq!(l.required_bytes(), 22 + 16 + 6);
        assert_eq!(l.pixel_offset(2, 0, 0), None);
        Ok(())
    }

    #[test]
    fn image_height_and_skip_images_apply_to_3d_calls_only() -> Result<(), StagingError> {
        // 2×2×2 RGBA, IMAGE_HEIGHT 4, SKIP_IMAGES 1: row 8, image 32, first pixel at 32.
        let s = PixelStore {
            image_height: 4,
            skip_images: 1,
            ..PixelStore::default()
        };
        let l = ClientLayout::new(&s, Region::d3(2, 2, 2), ClientFormat::Rgba)?;
        assert_eq!(
            (l.row_stride(), l.image_stride(), l.skip_offset()),
            (8, 32, 32)
        );
        assert_eq!(l.row_offset(1, 1), Some(32 + 32 + 8));
        assert_eq!(l.required_bytes(), 32 + 32 + 8 + 8);
        let l2 = ClientLayout::new(&s, Region::d2(2, 2), ClientFormat::Rgba)?;
        assert_eq!((l2.skip_offset(), l2.required_bytes()), (0, 16));
        // SKIP_ROWS applies to 1D calls.
        let s1 = PixelStore {
            skip_rows: 2,
            row_length: 10,
            ..PixelStore::default()
        };
        let l1 = ClientLayout::new(&s1, Region::d1(3), ClientFormat::Red)?;
        assert_eq!(l1.skip_offset(), 2 * 12);
        Ok(())
    }

    #[test]
    fn empty_regions_read_nothing() -> Result<(), StagingError> {
        let s = PixelStore {
            skip_rows: 100,
            ..PixelStore::default()
        };
        let l = ClientLayout::new(&s, Region::d2(0, 5), ClientFormat::Rgba)?;
        assert_eq!(l.required_bytes(), 0);
        Ok(())
    }

    #[test]
    fn huge_application_values_overflow_instead_of_wrapping() {
        let s = PixelStore {
            row_length: u32::MAX,
            image_height: u32::MAX,
            skip_images: u32::MAX,
            ..PixelStore::default()
        };
        assert_eq!(
            ClientLayout::new(&s, Region::d3(1, 1, 1), ClientFormat::Rgba),
            Err(StagingError::Overflow)
        );
        assert_eq!(
            ClientLayout::new(
                &PixelStore::default(),
                Region::d3(u32::MAX, u32::MAX, u32::MAX),
                ClientFormat::Rgba
            ),
            Err(StagingError::Overflow)
        );
    }

    #[test]
    fn gl_alignment_values() {
        for a in [1, 2, 4, 8] {
            assert_eq!(
                PixelAlignment::from_gl(a).map(|p| p.bytes()),
                Some(a as u32)
            );
        }
        assert_eq!(PixelAlignment::from_gl(3), None);
        assert_eq!(PixelAlignment::from_gl(0), None);
    }
}
