//! Pixel transfer in one pass: client memory (with unpack state) → staging (device format) for
//! uploads, and staging (device format) → client memory (with pack state) for readbacks.
//!
//! Design decisions:
//! - Conversion goes through the GL's canonical RGBA (OpenGL 4.6 §8.4.4 "Conversion to RGBA"):
//!   missing R, G, B become 0 and missing A becomes 1 (255); luminance L unpacks to (L, L, L, 1),
//!   alpha A to (0, 0, 0, A), luminance-alpha to (L, L, L, A). The device format then takes the
//!   channels it stores. Readback runs the same tables backwards ([`LuminanceRule`] decides what
//!   L is).
//! - Each row is converted by a plan computed once per call from the byte-channel tables in
//!   `format.rs`: a plain `copy_from_slice` when the client bytes already are the device bytes
//!   (RGBA→RGBA8, BGRA→BGRA8, RED→R8, RG→RG8: the common case runs at `memcpy` speed); the hot
//!   conversions (BGRA↔RGBA, RGB/BGR/L/A/LA→RGBA8) have fixed-permutation versions the compiler
//!   vectorises; anything else is a byte shuffle through a small per-pixel array, monomorphised
//!   per (source, destination) pixel size.
//! - Staging is written tightly (or with a caller-given row pitch) and its images are
//!   `row_pitch × height` apart, which is what `vkCmdCopyBufferToImage` reads with
//!   `bufferRowLength = row_pitch / texel_bytes` and `bufferImageHeight = 0`.
//! - Every slice access is checked before the loop: a short source or destination is an error
//!   ([`StagingError::SourceTooSmall`] / [`StagingError::DestinationTooSmall`]), never a panic.
//!   A readback writes only the bytes of the pixels: row padding and skipped pixels in client
//!   memory are left untouched, as the GL requires.

use std::ops::Range;

use crate::error::{to_usize, StagingError};
use crate::format::{Channel, ClientFormat, DeviceFormat};
use crate::region::{Extent3d, TexelBox};
use crate::unpack::{ClientLayout, PackState, Region, UnpackState};

/// How staged texels are laid out: format and the distance between rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StagingLayout {
    /// The device format of the staged texels.
    pub format: DeviceFormat,
    /// Bytes between rows; `None` for tight rows (width × texel size). Must be at least a row's
    /// bytes, and a multiple of the texel size for Vulkan's `bufferRowLength`.
    pub row_pitch: Option<u64>,
}

impl StagingLayout {
    /// Tightly packed texels of `format`.
    pub const fn tight(format: DeviceFormat) -> Self {
        Self {
            format,
            row_pitch: None,
        }
    }

    /// Bytes between rows for a box `width` texels wide.
    ///
    /// # Errors
    /// [`StagingError::Internal`] when the given pitch is shorter than a row.
    pub fn row_pitch(&self, width: u32) -> Result<u64, StagingError> {
        let row_bytes = u64::from(width) * u64::from(self.format.texel_bytes());
        match self.row_pitch {
            None => Ok(row_bytes),
            Some(pitch) if pitch >= row_bytes => Ok(pitch),
            Some(_) => Err(StagingError::Internal(
                "staging row pitch shorter than a row",
            )),
        }
    }

    /// Bytes the staged texels of `extent` occupy: up to the end of the last row (0 if empty).
    ///
    /// # Errors
    /// [`StagingError::Overflow`] for sizes beyond 64 bits; [`StagingError::Internal`] for a row
    /// pitch shorter than a row.
    pub fn required_bytes(&self, extent: Extent3d) -> Result<u64, StagingError> {
        let pitch = self.row_pitch(extent.width)?;
        if extent.is_empty() {
            return Ok(0);
        }
        let image_pitch = pitch
            .checked_mul(u64::from(extent.height))
            .ok_or(StagingError::Overflow)?;
        let row_bytes = u64::from(extent.width) * u64::from(self.format.texel_bytes());
        u64::from(extent.depth - 1)
            .checked_mul(image_pitch)
            .and_then(|v| v.checked_add(u64::from(extent.height - 1).checked_mul(pitch)?))
            .and_then(|v| v.checked_add(row_bytes))
            .ok_or(StagingError::Overflow)
    }
}

/// What luminance means when a readback packs RGBA into `GL_LUMINANCE(_ALPHA)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LuminanceRule {
    /// L = R: `glGetTexImage`, and `glReadPixels` from sources whose GL base format is
    /// luminance, intensity or red.
    #[default]
    Red,
    /// L = min(R + G + B, 1): `glReadPixels` from RG/RGB/RGBA sources (compatibility profile;
    /// Mesa's `_mesa_need_rgb_to_luminance_conversion`).
    SumClamped,
}

/// Where one output byte of a pixel comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// Byte `i` of the input pixel.
    Byte(u8),
    /// Constant 0.
    Zero,
    /// Constant 255 (1.0).
    Max,
    /// Saturating sum of the given input bytes (absent = 0): luminance from RGB.
    Sum([Option<u8>; 3]),
}

/// Index of the canonical RGBA slot of a (non-luminance) channel.
fn rgba_slot(channel: Channel) -> Option<usize> {
    match channel {
        Channel::R => Some(0),
        Channel::G => Some(1),
        Channel::B => Some(2),
        Channel::A => Some(3),
        Channel::L => None,
    }
}

/// Canonical RGBA of a pixel whose bytes hold `channels` (the GL's conversion to RGBA).
fn to_rgba(channels: &[Channel]) -> [Source; 4] {
    let mut rgba = [Source::Zero, Source::Zero, Source::Zero, Source::Max];
    for (i, &channel) in (0u8..).zip(channels) {
        match rgba_slot(channel) {
            Some(slot) => rgba[slot] = Source::Byte(i),
            None => rgba[..3].fill(Source::Byte(i)),
        }
    }
    rgba
}

/// How to turn one row of input pixels into one row of output pixels.
#[derive(Debug, Clone, Copy)]
struct RowPlan {
    in_bytes: usize,
    out_bytes: usize,
    /// Source of each output byte (first `out_bytes` entries).
    map: [Source; 4],
}

impl RowPlan {
    fn unpack(client: ClientFormat, swap_bytes: bool, device: DeviceFormat) -> Self {
        let in_bytes = client.group_bytes() as usize;
        let rgba = to_rgba(&client.byte_channels(swap_bytes)[..in_bytes]);
        let mut map = [Source::Zero; 4];
        for (out, &channel) in map.iter_mut().zip(device.byte_channels()) {
            // Device formats hold no luminance channel.
            *out = rgba_slot(channel).map_or(Source::Zero, |slot| rgba[slot]);
        }
        Self {
            in_bytes,
            out_bytes: device.texel_bytes() as usize,
            map,
        }
    }

    fn pack(
        device: DeviceFormat,
        client: ClientFormat,
        swap_bytes: bool,
        luminance: LuminanceRule,
    ) -> Self {
        let rgba = to_rgba(device.byte_channels());
        let out_bytes = client.group_bytes() as usize;
        let mut map = [Source::Zero; 4];
        for (out, &channel) in map
            .iter_mut()
            .zip(&client.byte_channels(swap_bytes)[..out_bytes])
        {
            *out = match (rgba_slot(channel), luminance) {
                (Some(slot), _) => rgba[slot],
                (None, LuminanceRule::Red) => rgba[0],
                (None, LuminanceRule::SumClamped) => {
                    let byte = |s: Source| match s {
                        Source::Byte(i) => Some(i),
                        _ => None,
                    };
                    Source::Sum([byte(rgba[0]), byte(rgba[1]), byte(rgba[2])])
                }
            };
        }
        Self {
            in_bytes: device.texel_bytes() as usize,
            out_bytes,
            map,
        }
    }

    fn is_identity(&self) -> bool {
        self.in_bytes == self.out_bytes
            && (0u8..)
                .zip(&self.map[..self.out_bytes])
                .all(|(i, &s)| s == Source::Byte(i))
    }

    /// Byte indices into `[pixel bytes…, 0, 255]` when no output byte is a sum.
    fn shuffle(&self) -> Option<[u8; 4]> {
        let mut idx = [ZERO_SLOT; 4];
        for (slot, &source) in idx.iter_mut().zip(&self.map) {
            *slot = match source {
                Source::Byte(i) => i,
                Source::Zero => ZERO_SLOT,
                Source::Max => MAX_SLOT,
                Source::Sum(_) => return None,
            };
        }
        Some(idx)
    }
}

const ZERO_SLOT: u8 = 4;
const MAX_SLOT: u8 = 5;

/// Whether unpacking `client` pixels into `device` texels is a plain byte copy — the client
/// bytes already are the device's — so a device can copy them from a buffer with no CPU pass
/// (`glTexSubImage*` from a pixel unpack buffer).
pub fn unpacks_as_copy(client: ClientFormat, swap_bytes: bool, device: DeviceFormat) -> bool {
    match RowConverter::raw(client, device) {
        Some(raw) => raw.is_ok(),
        None => RowPlan::unpack(client, swap_bytes, device).is_identity(),
    }
}

/// Converts rows; built once per transfer.
enum RowConverter {
    Copy,
    Shuffle {
        in_bytes: usize,
        out_bytes: usize,
        idx: [u8; 4],
    },
    General(RowPlan),
}

impl RowConverter {
    /// The converter between raw texels (already in the device format, whatever it is): a copy
    /// when the sizes agree.
    fn raw(client: ClientFormat, device: DeviceFormat) -> Option<Result<Self, StagingError>> {
        match (client, device) {
            (ClientFormat::Texels(a), device) if a > 0 && u32::from(a) == device.texel_bytes() => {
                Some(Ok(Self::Copy))
            }
            (ClientFormat::Texels(_), _) | (_, DeviceFormat::Texels(_)) => Some(Err(
                StagingError::Internal("raw texels need a raw device format of the same size"),
            )),
            _ => None,
        }
    }

    fn new(plan: RowPlan) -> Self {
        if plan.is_identity() {
            Self::Copy
        } else if let Some(idx) = plan.shuffle() {
            Self::Shuffle {
                in_bytes: plan.in_bytes,
                out_bytes: plan.out_bytes,
                idx,
            }
        } else {
            Self::General(plan)
        }
    }

    /// Converts one row; `input` and `output` hold the same number of pixels.
    fn convert(&self, input: &[u8], output: &mut [u8]) -> Result<(), StagingError> {
        match *self {
            Self::Copy => {
                if input.len() != output.len() {
                    return Err(StagingError::Internal("row lengths differ"));
                }
                output.copy_from_slice(input);
            }
            Self::Shuffle {
                in_bytes,
                out_bytes,
                idx,
            } => match (in_bytes, out_bytes, idx) {
                // The hot conversions with constant indices, which LLVM vectorises.
                (4, 4, [2, 1, 0, 3]) => swap_red_blue(input, output),
                (3, 4, [0, 1, 2, MAX_SLOT]) => rgb_to_rgba(input, output),
                (3, 4, [2, 1, 0, MAX_SLOT]) => shuffle_const::<3, 4, 0x5012>(input, output),
                (1, 4, [0, 0, 0, MAX_SLOT]) => shuffle_const::<1, 4, 0x5000>(input, output),
                (1, 4, [ZERO_SLOT, ZERO_SLOT, ZERO_SLOT, 0]) => {
                    shuffle_const::<1, 4, 0x0444>(input, output)
                }
                (2, 4, [0, 0, 0, 1]) => shuffle_const::<2, 4, 0x1000>(input, output),
                (1, 1, _) => shuffle::<1, 1>(input, output, idx),
                (1, 2, _) => shuffle::<1, 2>(input, output, idx),
                (1, 3, _) => shuffle::<1, 3>(input, output, idx),
                (1, 4, _) => shuffle::<1, 4>(input, output, idx),
                (2, 1, _) => shuffle::<2, 1>(input, output, idx),
                (2, 2, _) => shuffle::<2, 2>(input, output, idx),
                (2, 3, _) => shuffle::<2, 3>(input, output, idx),
                (2, 4, _) => shuffle::<2, 4>(input, output, idx),
                (3, 1, _) => shuffle::<3, 1>(input, output, idx),
                (3, 2, _) => shuffle::<3, 2>(input, output, idx),
                (3, 3, _) => shuffle::<3, 3>(input, output, idx),
                (3, 4, _) => shuffle::<3, 4>(input, output, idx),
                (4, 1, _) => shuffle::<4, 1>(input, output, idx),
                (4, 2, _) => shuffle::<4, 2>(input, output, idx),
                (4, 3, _) => shuffle::<4, 3>(input, output, idx),
                (4, 4, _) => shuffle::<4, 4>(input, output, idx),
                _ => return Err(StagingError::Internal("pixel size above 4 bytes")),
            },
            Self::General(plan) => {
                let pixels = input
                    .chunks_exact(plan.in_bytes)
                    .zip(output.chunks_exact_mut(plan.out_bytes));
                for (px, out) in pixels {
                    for (byte, &source) in out.iter_mut().zip(&plan.map) {
                        let at = |i: Option<u8>| {
                            i.and_then(|i| px.get(usize::from(i)).copied())
                                .map_or(0, u16::from)
                        };
                        *byte = match source {
                            Source::Byte(i) => at(Some(i)) as u8,
                            Source::Zero => 0,
                            Source::Max => u8::MAX,
                            Source::Sum([r, g, b]) => (at(r) + at(g) + at(b)).min(255) as u8,
                        };
                    }
                }
            }
        }
        Ok(())
    }
}

/// Per pixel: copy the `I` input bytes into `[b0, b1, b2, b3, 0, 255, 0, 0]` and pick the `O`
/// output bytes from it. The `& 7` keeps every index in bounds without a check.
fn shuffle<const I: usize, const O: usize>(input: &[u8], output: &mut [u8], idx: [u8; 4]) {
    for (px, out) in input.chunks_exact(I).zip(output.chunks_exact_mut(O)) {
        let mut ext = [0u8, 0, 0, 0, 0, u8::MAX, 0, 0];
        ext[..I].copy_from_slice(px);
        for (byte, &i) in out.iter_mut().zip(&idx) {
            *byte = ext[usize::from(i & 7)];
        }
    }
}

/// [`shuffle`] with the indices as a constant (output byte `k` takes nibble `k` of `IDX`), so the
/// compiler sees a fixed byte permutation.
fn shuffle_const<const I: usize, const O: usize, const IDX: u32>(input: &[u8], output: &mut [u8]) {
    for (px, out) in input.chunks_exact(I).zip(output.chunks_exact_mut(O)) {
        let mut ext = [0u8, 0, 0, 0, 0, u8::MAX, 0, 0];
        ext[..I].copy_from_slice(px);
        for (k, byte) in out.iter_mut().enumerate() {
            *byte = ext[((IDX >> (4 * k)) & 7) as usize];
        }
    }
}

/// BGRA ↔ RGBA: swaps bytes 0 and 2 of every 4-byte pixel, as whole-word bit operations.
fn swap_red_blue(input: &[u8], output: &mut [u8]) {
    for (px, out) in input.chunks_exact(4).zip(output.chunks_exact_mut(4)) {
        let v = u32::from_le_bytes(px.try_into().unwrap_or_default());
        let swapped = (v & 0xFF00_FF00) | ((v >> 16) & 0xFF) | ((v & 0xFF) << 16);
        out.copy_from_slice(&swapped.to_le_bytes());
    }
}

/// RGB → RGBA with alpha 1.
fn rgb_to_rgba(input: &[u8], output: &mut [u8]) {
    for (px, out) in input.chunks_exact(3).zip(output.chunks_exact_mut(4)) {
        out.copy_from_slice(&[px[0], px[1], px[2], u8::MAX]);
    }
}

/// `offset..offset + len` as a slice range, checked.
fn byte_range(offset: u64, len: u64) -> Result<Range<usize>, StagingError> {
    let end = offset.checked_add(len).ok_or(StagingError::Overflow)?;
    Ok(to_usize(offset)?..to_usize(end)?)
}

/// Unpacks the whole `region` from client memory `src` (laid out per `unpack`, pixels of
/// `client`) into `dst` as staged texels laid out per `staging`, converting formats on the way.
///
/// # Errors
/// [`StagingError::SourceTooSmall`] when `src` is shorter than the region's
/// [`ClientLayout::required_bytes`]; [`StagingError::DestinationTooSmall`] when `dst` cannot hold
/// the staged texels; [`StagingError::Overflow`] for layouts beyond 64 bits.
pub fn unpack_region(
    src: &[u8],
    unpack: &UnpackState,
    region: Region,
    client: ClientFormat,
    dst: &mut [u8],
    staging: StagingLayout,
) -> Result<(), StagingError> {
    let layout = ClientLayout::new(unpack, region, client)?;
    unpack_box(src, &layout, TexelBox::whole(region.extent), dst, staging)
}

/// Unpacks the part `part` of a client region (for an upload split into chunks by
/// [`crate::split_image`]) into `dst`, which receives only that box, laid out per `staging`.
///
/// # Errors
/// As [`unpack_region`]; [`StagingError::Internal`] when `part` lies outside the region.
pub fn unpack_box(
    src: &[u8],
    layout: &ClientLayout,
    part: TexelBox,
    dst: &mut [u8],
    staging: StagingLayout,
) -> Result<(), StagingError> {
    let needed = layout.required_bytes_for(&part)?;
    if (src.len() as u64) < needed {
        return Err(StagingError::SourceTooSmall {
            needed,
            len: src.len() as u64,
        });
    }
    let pitch = staging.row_pitch(part.width)?;
    let needed = staging.required_bytes(part.extent())?;
    if (dst.len() as u64) < needed {
        return Err(StagingError::DestinationTooSmall {
            needed,
            len: dst.len() as u64,
        });
    }
    if part.is_empty() {
        return Ok(());
    }
    let converter = match RowConverter::raw(layout.format(), staging.format) {
        Some(raw) => raw?,
        None => RowConverter::new(RowPlan::unpack(
            layout.format(),
            layout.swap_bytes(),
            staging.format,
        )),
    };
    let in_row = u64::from(part.width) * layout.group_bytes();
    let out_row = u64::from(part.width) * u64::from(staging.format.texel_bytes());
    let image_pitch = pitch * u64::from(part.height); // bounded by `needed`
    for z in 0..part.depth {
        for y in 0..part.height {
            let from = layout
                .pixel_offset(part.x, part.y + y, part.z + z)
                .ok_or(StagingError::Internal("row outside the client region"))?;
            let to = u64::from(z) * image_pitch + u64::from(y) * pitch;
            let input = src
                .get(byte_range(from, in_row)?)
                .ok_or(StagingError::Internal(
                    "client row outside the checked source",
                ))?;
            let output = dst
                .get_mut(byte_range(to, out_row)?)
                .ok_or(StagingError::Internal(
                    "staging row outside the checked destination",
                ))?;
            converter.convert(input, output)?;
        }
    }
    Ok(())
}

/// Packs a whole readback `region` from staged texels `src` (laid out per `staging`) into client
/// memory `dst` laid out per `pack`, as pixels of `client`.
///
/// # Errors
/// [`StagingError::SourceTooSmall`] when `src` is shorter than the staged texels;
/// [`StagingError::DestinationTooSmall`] when `dst` is shorter than the region's
/// [`ClientLayout::required_bytes`] (a PBO too small: `GL_INVALID_OPERATION`);
/// [`StagingError::Overflow`] for layouts beyond 64 bits.
pub fn pack_region(
    src: &[u8],
    staging: StagingLayout,
    pack: &PackState,
    region: Region,
    client: ClientFormat,
    luminance: LuminanceRule,
    dst: &mut [u8],
) -> Result<(), StagingError> {
    let layout = ClientLayout::new(pack, region, client)?;
    pack_box(
        src,
        staging,
        &layout,
        TexelBox::whole(region.extent),
        luminance,
        dst,
    )
}

/// Packs the staged texels of `part` of a readback region (`src` holds only that box, laid out per
/// `staging`) into client memory `dst` laid out per `layout`.
///
/// # Errors
/// As [`pack_region`]; [`StagingError::Internal`] when `part` lies outside the region.
pub fn pack_box(
    src: &[u8],
    staging: StagingLayout,
    layout: &ClientLayout,
    part: TexelBox,
    luminance: LuminanceRule,
    dst: &mut [u8],
) -> Result<(), StagingError> {
    let needed = layout.required_bytes_for(&part)?;
    if (dst.len() as u64) < needed {
        return Err(StagingError::DestinationTooSmall {
            needed,
            len: dst.len() as u64,
        });
    }
    let pitch = staging.row_pitch(part.width)?;
    let needed = staging.required_bytes(part.extent())?;
    if (src.len() as u64) < needed {
        return Err(StagingError::SourceTooSmall {
            needed,
            len: src.len() as u64,
        });
    }
    if part.is_empty() {
        return Ok(());
    }
    let converter = match RowConverter::raw(layout.format(), staging.format) {
        Some(raw) => raw?,
        None => RowConverter::new(RowPlan::pack(
            staging.format,
            layout.format(),
            layout.swap_bytes(),
            luminance,
        )),
    };
    let in_row = u64::from(part.width) * u64::from(staging.format.texel_bytes());
    let out_row = u64::from(part.width) * layout.group_bytes();
    let image_pitch = pitch * u64::from(part.height);
    for z in 0..part.depth {
        for y in 0..part.height {
            let from = u64::from(z) * image_pitch + u64::from(y) * pitch;
            let to = layout
                .pixel_offset(part.x, part.y + y, part.z + z)
                .ok_or(StagingError::Internal("row outside the client region"))?;
            let input = src
                .get(byte_range(from, in_row)?)
                .ok_or(StagingError::Internal(
                    "staging row outside the checked source",
                ))?;
            let output = dst
                .get_mut(byte_range(to, out_row)?)
                .ok_or(StagingError::Internal(
                    "client row outside the checked destination",
                ))?;
            converter.convert(input, output)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU64;

    use proptest::prelude::*;

    use super::*;
    use crate::split::{split_image, TexelBlock};
    use crate::unpack::{Dims, PixelAlignment, PixelStore};

    // ---- The reference: per pixel, straight from the spec, in the most obvious way. ----

    /// OpenGL 4.6 §8.4.4.1: byte address of pixel (x, y, z) of the region in client memory.
    fn spec_address(
        st: &PixelStore,
        region: Region,
        fmt: ClientFormat,
        x: u32,
        y: u32,
        z: u32,
    ) -> u64 {
        let n = u64::from(fmt.elements_per_group());
        let s = u64::from(fmt.element_bytes());
        let a = u64::from(st.alignment.bytes());
        let l = u64::from(if st.row_length > 0 {
            st.row_length
        } else {
            region.extent.width
        });
        let k = if s >= a {
            n * l
        } else {
            (a / s) * (s * n * l).div_ceil(a)
        };
        let (skip_images, image_height) = if region.dims == Dims::Three {
            (st.skip_images, st.image_height)
        } else {
            (0, 0)
        };
        let rows_per_image = u64::from(if image_height > 0 {
            image_height
        } else {
            region.extent.height
        });
        let row = k * s;
        let image = row * rows_per_image;
        u64::from(skip_images + z) * image
            + u64::from(st.skip_rows + y) * row
            + u64::from(st.skip_pixels + x) * n * s
    }

    fn packed_value(p: &[u8], swap: bool) -> u32 {
        let v = u32::from_ne_bytes([p[0], p[1], p[2], p[3]]);
        if swap {
            v.swap_bytes()
        } else {
            v
        }
    }

    /// Client pixel → RGBA, per the GL's conversion to RGBA.
    fn decode_client(fmt: ClientFormat, swap: bool, p: &[u8]) -> [u8; 4] {
        use ClientFormat as F;
        let c = |sh: u32| (packed_value(p, swap) >> sh) as u8;
        match fmt {
            F::Red => [p[0], 0, 0, 255],
            F::Rg => [p[0], p[1], 0, 255],
            F::Rgb => [p[0], p[1], p[2], 255],
            F::Bgr => [p[2], p[1], p[0], 255],
            F::Rgba => [p[0], p[1], p[2], p[3]],
            F::Bgra => [p[2], p[1], p[0], p[3]],
            F::Luminance => [p[0], p[0], p[0], 255],
            F::Alpha => [0, 0, 0, p[0]],
            F::LuminanceAlpha => [p[0], p[0], p[0], p[1]],
            F::RgbaPacked8888 => [c(24), c(16), c(8), c(0)],
            F::RgbaPacked8888Rev => [c(0), c(8), c(16), c(24)],
            F::BgraPacked8888 => [c(8), c(16), c(24), c(0)],
            F::BgraPacked8888Rev => [c(16), c(8), c(0), c(24)],
            F::Texels(_) => unreachable!("raw texels are not in the reference model"),
        }
    }

    fn encode_client(
        fmt: ClientFormat,
        swap: bool,
        lum: LuminanceRule,
        [r, g, b, a]: [u8; 4],
    ) -> Vec<u8> {
        use ClientFormat as F;
        let l = match lum {
            LuminanceRule::Red => r,
            LuminanceRule::SumClamped => {
                (u16::from(r) + u16::from(g) + u16::from(b)).min(255) as u8
            }
        };
        let packed = |v: u32| {
            (if swap { v.swap_bytes() } else { v })
                .to_ne_bytes()
                .to_vec()
        };
        let (r32, g32, b32, a32) = (u32::from(r), u32::from(g), u32::from(b), u32::from(a));
        match fmt {
            F::Red => vec![r],
            F::Rg => vec![r, g],
            F::Rgb => vec![r, g, b],
            F::Bgr => vec![b, g, r],
            F::Rgba => vec![r, g, b, a],
            F::Bgra => vec![b, g, r, a],
            F::Luminance => vec![l],
            F::Alpha => vec![a],
            F::LuminanceAlpha => vec![l, a],
            F::RgbaPacked8888 => packed(r32 << 24 | g32 << 16 | b32 << 8 | a32),
            F::RgbaPacked8888Rev => packed(a32 << 24 | b32 << 16 | g32 << 8 | r32),
            F::BgraPacked8888 => packed(b32 << 24 | g32 << 16 | r32 << 8 | a32),
            F::BgraPacked8888Rev => packed(a32 << 24 | r32 << 16 | g32 << 8 | b32),
            F::Texels(_) => unreachable!("raw texels are not in the reference model"),
        }
    }

    fn encode_device(fmt: DeviceFormat, [r, g, b, a]: [u8; 4]) -> Vec<u8> {
        match fmt {
            DeviceFormat::Rgba8 => vec![r, g, b, a],
            DeviceFormat::Bgra8 => vec![b, g, r, a],
            DeviceFormat::Rgb8 => vec![r, g, b],
            DeviceFormat::Rg8 => vec![r, g],
            DeviceFormat::R8 => vec![r],
            DeviceFormat::Texels(_) => unreachable!("raw texels are not in the reference model"),
        }
    }

    fn decode_device(fmt: DeviceFormat, p: &[u8]) -> [u8; 4] {
        match fmt {
            DeviceFormat::Rgba8 => [p[0], p[1], p[2], p[3]],
            DeviceFormat::Bgra8 => [p[2], p[1], p[0], p[3]],
            DeviceFormat::Rgb8 => [p[0], p[1], p[2], 255],
            DeviceFormat::Rg8 => [p[0], p[1], 0, 255],
            DeviceFormat::R8 => [p[0], 0, 0, 255],
            DeviceFormat::Texels(_) => unreachable!("raw texels are not in the reference model"),
        }
    }

    /// Staging address of texel (x, y, z) of a box.
    fn staging_address(
        fmt: DeviceFormat,
        pitch: Option<u64>,
        part: TexelBox,
        x: u32,
        y: u32,
        z: u32,
    ) -> u64 {
        let texel = u64::from(fmt.texel_bytes());
        let row = pitch.unwrap_or(u64::from(part.width) * texel);
        u64::from(z) * row * u64::from(part.height) + u64::from(y) * row + u64::from(x) * texel
    }

    /// One transfer as the tests describe it.
    struct Transfer {
        st: PixelStore,
        region: Region,
        fmt: ClientFormat,
        dev: DeviceFormat,
        pitch: Option<u64>,
        lum: LuminanceRule,
    }

    fn reference_unpack(t: &Transfer, part: TexelBox, src: &[u8], dst: &mut [u8]) {
        let g = t.fmt.group_bytes() as usize;
        for z in 0..part.depth {
            for y in 0..part.height {
                for x in 0..part.width {
                    let (cx, cy, cz) = (part.x + x, part.y + y, part.z + z);
                    let from = spec_address(&t.st, t.region, t.fmt, cx, cy, cz) as usize;
                    let rgba = decode_client(t.fmt, t.st.swap_bytes, &src[from..from + g]);
                    let to = staging_address(t.dev, t.pitch, part, x, y, z) as usize;
                    let bytes = encode_device(t.dev, rgba);
                    dst[to..to + bytes.len()].copy_from_slice(&bytes);
                }
            }
        }
    }

    fn reference_pack(t: &Transfer, part: TexelBox, src: &[u8], dst: &mut [u8]) {
        let texel = t.dev.texel_bytes() as usize;
        for z in 0..part.depth {
            for y in 0..part.height {
                for x in 0..part.width {
                    let from = staging_address(t.dev, t.pitch, part, x, y, z) as usize;
                    let rgba = decode_device(t.dev, &src[from..from + texel]);
                    let (cx, cy, cz) = (part.x + x, part.y + y, part.z + z);
                    let to = spec_address(&t.st, t.region, t.fmt, cx, cy, cz) as usize;
                    let bytes = encode_client(t.fmt, t.st.swap_bytes, t.lum, rgba);
                    dst[to..to + bytes.len()].copy_from_slice(&bytes);
                }
            }
        }
    }

    // ---- Generators. ----

    fn noise(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
    }

    fn arb_store() -> impl Strategy<Value = PixelStore> {
        (
            prop::sample::select(vec![
                PixelAlignment::One,
                PixelAlignment::Two,
                PixelAlignment::Four,
                PixelAlignment::Eight,
            ]),
            prop_oneof![Just(0u32), 1u32..14],
            prop_oneof![Just(0u32), 1u32..9],
            0u32..4,
            0u32..4,
            0u32..3,
            any::<bool>(),
        )
            .prop_map(
                |(
                    alignment,
                    row_length,
                    image_height,
                    skip_pixels,
                    skip_rows,
                    skip_images,
                    swap_bytes,
                )| PixelStore {
                    alignment,
                    row_length,
                    image_height,
                    skip_pixels,
                    skip_rows,
                    skip_images,
                    swap_bytes,
                },
            )
    }

    fn arb_region() -> impl Strategy<Value = Region> {
        prop_oneof![
            (0u32..9).prop_map(Region::d1),
            (0u32..9, 0u32..7).prop_map(|(w, h)| Region::d2(w, h)),
            (0u32..9, 0u32..7, 0u32..4).prop_map(|(w, h, d)| Region::d3(w, h, d)),
        ]
    }

    /// A region and a random box inside it.
    fn arb_region_and_box() -> impl Strategy<Value = (Region, TexelBox)> {
        arb_region().prop_flat_map(|r| {
            let e = r.extent;
            (Just(r), 0..=e.width, 0..=e.height, 0..=e.depth)
                .prop_flat_map(|(r, x, y, z)| {
                    let e = r.extent;
                    (
                        Just(r),
                        Just((x, y, z)),
                        0..=e.width - x,
                        0..=e.height - y,
                        0..=e.depth - z,
                    )
                })
                .prop_map(|(r, (x, y, z), width, height, depth)| {
                    (
                        r,
                        TexelBox {
                            x,
                            y,
                            z,
                            width,
                            height,
                            depth,
                        },
                    )
                })
        })
    }

    fn arb_client() -> impl Strategy<Value = ClientFormat> {
        prop::sample::select(ClientFormat::ALL.to_vec())
    }

    fn arb_device() -> impl Strategy<Value = DeviceFormat> {
        prop::sample::select(DeviceFormat::ALL.to_vec())
    }

    fn pitch_for(dev: DeviceFormat, width: u32, extra: Option<u64>) -> Option<u64> {
        extra.map(|e| u64::from(width) * u64::from(dev.texel_bytes()) + e)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        #[test]
        fn unpack_region_matches_the_spec_reference(
            st in arb_store(), region in arb_region(), fmt in arb_client(), dev in arb_device(),
            extra_pitch in prop::option::of(0u64..6), slack in 0usize..9, seed in any::<u64>(),
        ) {
            let layout = ClientLayout::new(&st, region, fmt)?;
            let src = noise(seed, layout.required_bytes() as usize + slack);
            let pitch = pitch_for(dev, region.extent.width, extra_pitch);
            let staging = StagingLayout { format: dev, row_pitch: pitch };
            let len = staging.required_bytes(region.extent)? as usize + slack;
            let mut got = noise(!seed, len);
            let mut want = got.clone();
            unpack_region(&src, &st, region, fmt, &mut got, staging)?;
            let t = Transfer { st, region, fmt, dev, pitch, lum: LuminanceRule::Red };
            reference_unpack(&t, TexelBox::whole(region.extent), &src, &mut want);
            prop_assert_eq!(got, want);
        }

        #[test]
        fn unpack_box_matches_the_spec_reference(
            st in arb_store(), (region, part) in arb_region_and_box(),
            fmt in arb_client(), dev in arb_device(),
            extra_pitch in prop::option::of(0u64..6), seed in any::<u64>(),
        ) {
            let layout = ClientLayout::new(&st, region, fmt)?;
            let src = noise(seed, layout.required_bytes_for(&part)? as usize);
            let pitch = pitch_for(dev, part.width, extra_pitch);
            let staging = StagingLayout { format: dev, row_pitch: pitch };
            let mut got = noise(!seed, staging.required_bytes(part.extent())? as usize);
            let mut want = got.clone();
            unpack_box(&src, &layout, part, &mut got, staging)?;
            let t = Transfer { st, region, fmt, dev, pitch, lum: LuminanceRule::Red };
            reference_unpack(&t, part, &src, &mut want);
            prop_assert_eq!(got, want);
        }

        #[test]
        fn pack_region_matches_the_spec_reference(
            st in arb_store(), region in arb_region(), fmt in arb_client(), dev in arb_device(),
            lum in prop::sample::select(vec![LuminanceRule::Red, LuminanceRule::SumClamped]),
            extra_pitch in prop::option::of(0u64..6), slack in 0usize..9, seed in any::<u64>(),
        ) {
            let layout = ClientLayout::new(&st, region, fmt)?;
            let pitch = pitch_for(dev, region.extent.width, extra_pitch);
            let staging = StagingLayout { format: dev, row_pitch: pitch };
            let src = noise(seed, staging.required_bytes(region.extent)? as usize + slack);
            // Client memory starts as noise: padding and skipped bytes must stay untouched.
            let mut got = noise(!seed, layout.required_bytes() as usize + slack);
            let mut want = got.clone();
            pack_region(&src, staging, &st, region, fmt, lum, &mut got)?;
            let t = Transfer { st, region, fmt, dev, pitch, lum };
            reference_pack(&t, TexelBox::whole(region.extent), &src, &mut want);
            prop_assert_eq!(got, want);
        }

        #[test]
        fn pack_box_matches_the_spec_reference(
            st in arb_store(), (region, part) in arb_region_and_box(),
            fmt in arb_client(), dev in arb_device(),
            lum in prop::sample::select(vec![LuminanceRule::Red, LuminanceRule::SumClamped]),
            extra_pitch in prop::option::of(0u64..6), seed in any::<u64>(),
        ) {
            let layout = ClientLayout::new(&st, region, fmt)?;
            let pitch = pitch_for(dev, part.width, extra_pitch);
            let staging = StagingLayout { format: dev, row_pitch: pitch };
            let src = noise(seed, staging.required_bytes(part.extent())? as usize);
            let mut got = noise(!seed, layout.required_bytes_for(&part)? as usize);
            let mut want = got.clone();
            pack_box(&src, staging, &layout, part, lum, &mut got)?;
            let t = Transfer { st, region, fmt, dev, pitch, lum };
            reference_pack(&t, part, &src, &mut want);
            prop_assert_eq!(got, want);
        }

        #[test]
        fn short_buffers_are_errors_never_panics(
            st in arb_store(), region in arb_region(), fmt in arb_client(), dev in arb_device(),
            cut in 1usize..40, seed in any::<u64>(),
        ) {
            let layout = ClientLayout::new(&st, region, fmt)?;
            let staging = StagingLayout::tight(dev);
            let client_len = layout.required_bytes();
            let staged_len = staging.required_bytes(region.extent)?;
            let short_client = noise(seed, (client_len as usize).saturating_sub(cut));
            let mut staged = vec![0; staged_len as usize];
            let up = unpack_region(&short_client, &st, region, fmt, &mut staged, staging);
            let mut short_client = short_client;
            let lum = LuminanceRule::Red;
            let down = pack_region(&staged, staging, &st, region, fmt, lum, &mut short_client);
            if client_len == 0 {
                prop_assert_eq!(up, Ok(()));
                prop_assert_eq!(down, Ok(()));
            } else {
                let len = client_len.saturating_sub(cut as u64);
                let needed = client_len;
                prop_assert_eq!(up, Err(StagingError::SourceTooSmall { needed, len }));
                prop_assert_eq!(down, Err(StagingError::DestinationTooSmall { needed, len }));
            }
            let client = noise(seed, client_len as usize);
            let mut short_staged = vec![0; (staged_len as usize).saturating_sub(cut)];
            let up = unpack_region(&client, &st, region, fmt, &mut short_staged, staging);
            if staged_len > 0 {
                let len = staged_len.saturating_sub(cut as u64);
                let needed = staged_len;
                prop_assert_eq!(up, Err(StagingError::DestinationTooSmall { needed, len }));
            }
        }

        /// Splitting an upload, staging each chunk on its own and copying each chunk box into the
        /// image (what `vkCmdCopyBufferToImage` does) gives the same image as staging it whole.
        #[test]
        fn split_chunks_reassemble_to_the_whole_upload(
            st in arb_store(), region in arb_region(), fmt in arb_client(), dev in arb_device(),
            max_chunk in 4u64..200, seed in any::<u64>(),
        ) {
            let layout = ClientLayout::new(&st, region, fmt)?;
            let src = noise(seed, layout.required_bytes() as usize);
            let whole_layout = StagingLayout::tight(dev);
            let mut whole = vec![0; whole_layout.required_bytes(region.extent)? as usize];
            unpack_region(&src, &st, region, fmt, &mut whole, whole_layout)?;

            let texel = dev.texel_bytes();
            let (w, h) = (region.extent.width as usize, region.extent.height as usize);
            let mut image = vec![0; whole.len()];
            let limit = NonZeroU64::new(max_chunk).ok_or(TestCaseError::reject("zero"))?;
            for chunk in split_image(region.extent, TexelBlock::uncompressed(texel), limit)? {
                let b = chunk.texels;
                let mut staged = vec![0; chunk.bytes as usize];
                prop_assert!(chunk.bytes <= max_chunk);
                unpack_box(&src, &layout, b, &mut staged, StagingLayout::tight(dev))?;
                let t = texel as usize;
                for z in 0..b.depth as usize {
                    for y in 0..b.height as usize {
                        let row = b.width as usize * t;
                        let from = (z * b.height as usize + y) * row;
                        let (iz, iy, ix) = (b.z as usize + z, b.y as usize + y, b.x as usize);
                        let to = ((iz * h + iy) * w + ix) * t;
                        image[to..to + row].copy_from_slice(&staged[from..from + row]);
                    }
                }
            }
            prop_assert_eq!(image, whole);
        }
    }

    // ---- Hand-computed examples. ----

    #[test]
    fn rgb_with_default_alignment_skips_row_padding() -> Result<(), StagingError> {
        // 3×2 RGB, alignment 4: rows of 9 bytes start 12 apart.
        let src = [
            1, 2, 3, 4, 5, 6, 7, 8, 9, 0xEE, 0xEE, 0xEE, //
            10, 11, 12, 13, 14, 15, 16, 17, 18,
        ];
        let mut dst = [0u8; 24];
        unpack_region(
            &src,
            &PixelStore::default(),
            Region::d2(3, 2),
            ClientFormat::Rgb,
            &mut dst,
            StagingLayout::tight(DeviceFormat::Rgba8),
        )?;
        assert_eq!(
            dst,
            [
                1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, //
                10, 11, 12, 255, 13, 14, 15, 255, 16, 17, 18, 255
            ]
        );
        Ok(())
    }

    #[test]
    fn legacy_formats_expand_as_the_spec_says() -> Result<(), StagingError> {
        let one = |fmt, src: &[u8]| -> Result<[u8; 4], StagingError> {
            let mut dst = [0u8; 4];
            unpack_region(
                src,
                &PixelStore::default(),
                Region::d2(1, 1),
                fmt,
                &mut dst,
                StagingLayout::tight(DeviceFormat::Rgba8),
            )?;
            Ok(dst)
        };
        assert_eq!(one(ClientFormat::Luminance, &[7])?, [7, 7, 7, 255]);
        assert_eq!(one(ClientFormat::Alpha, &[7])?, [0, 0, 0, 7]);
        assert_eq!(one(ClientFormat::LuminanceAlpha, &[7, 9])?, [7, 7, 7, 9]);
        assert_eq!(one(ClientFormat::Bgra, &[1, 2, 3, 4])?, [3, 2, 1, 4]);
        assert_eq!(one(ClientFormat::Red, &[5])?, [5, 0, 0, 255]);
        Ok(())
    }

    #[test]
    fn readback_honours_pack_state_and_leaves_padding_alone() -> Result<(), StagingError> {
        // Read 2×2 RGBA8 back as RGB with alignment 4 and one skipped row: rows of 6 bytes, 8
        // apart, starting at 8; padding bytes keep their 0xAA.
        let staged = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
        let pack = PixelStore {
            skip_rows: 1,
            ..PixelStore::default()
        };
        let mut client = [0xAAu8; 24];
        pack_region(
            &staged,
            StagingLayout::tight(DeviceFormat::Rgba8),
            &pack,
            Region::d2(2, 2),
            ClientFormat::Rgb,
            LuminanceRule::Red,
            &mut client,
        )?;
        assert_eq!(
            client,
            [
                0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, //
                1, 2, 3, 5, 6, 7, 0xAA, 0xAA, //
                9, 10, 11, 13, 14, 15, 0xAA, 0xAA
            ]
        );
        // Luminance by sum clamps.
        let mut l = [0u8; 1];
        pack_region(
            &[100, 100, 100, 1],
            StagingLayout::tight(DeviceFormat::Rgba8),
            &PixelStore::default(),
            Region::d2(1, 1),
            ClientFormat::Luminance,
            LuminanceRule::SumClamped,
            &mut l,
        )?;
        assert_eq!(l, [255]);
        Ok(())
    }
}
