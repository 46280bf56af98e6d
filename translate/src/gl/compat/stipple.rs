//! The polygon stipple (GL 2.1 §3.5.2): a 32×32 bit pattern, repeated over window coordinates,
//! that keeps the fragments of polygons whose bit is set (`glPolygonStipple`,
//! `glGetPolygonStipple`, `GL_POLYGON_STIPPLE`).
//!
//! Design decisions:
//! - The pattern is kept as 32 row words, bit x of row y for window pixel (x mod 32, y mod 32),
//!   and handed to the fragment epilogue (`glsl::frag_epilogue`) as the built-in uniform
//!   `arena_ff_PolygonStipple`; whether the test runs is a specialization constant, set for
//!   draws of triangles with the capability on. So it applies where the epilogue is: the
//!   fixed-function programs and legacy GLSL (below 1.40) ones — a GLSL 1.40+ program in a
//!   compatibility context draws unstippled (GL's rule holds for every program; a documented
//!   gap).
//! - The client pattern is read and written like a `glBitmap` image, under the unpack / pack
//!   state's alignment, row length and skips (`GL_*_LSB_FIRST` is not tracked: most significant
//!   bit first, GL's default); with a pixel buffer bound the pointer is an offset into it.

use ash::vk;

use crate::gl::context::Context;
use crate::gl::pixel::rect::bitmap_runs;

/// The stipple's side in pixels (and the bits of a row).
pub(crate) const SIDE: u32 = 32;

/// The pattern: row y's bit x is window pixel (x mod 32, y mod 32).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pattern(pub [u32; SIDE as usize]);

impl Default for Pattern {
    /// GL's initial pattern: every bit set.
    fn default() -> Self {
        Self([u32::MAX; SIDE as usize])
    }
}

/// Bytes per client row and the row pitch of a 32-pixel bitmap under `store`.
fn client_rows(store: &arenagl_staging::PixelStore) -> (usize, usize) {
    let row_bits = if store.row_length > 0 {
        store.row_length
    } else {
        SIDE
    };
    let pitch = (row_bits as usize)
        .div_ceil(8)
        .next_multiple_of(store.alignment.bytes() as usize);
    (pitch, store.skip_rows as usize * pitch)
}

impl Context {
    /// Whether draws of `topology` are stippled now: `GL_POLYGON_STIPPLE` is on and they are
    /// polygons (every polygon is filled: `glPolygonMode` offers `GL_FILL` only).
    pub(crate) fn stipples(&self, topology: vk::PrimitiveTopology) -> bool {
        use vk::PrimitiveTopology as T;
        let polygons = matches!(
            topology,
            T::TRIANGLE_LIST
                | T::TRIANGLE_STRIP
                | T::TRIANGLE_FAN
                | T::TRIANGLE_LIST_WITH_ADJACENCY
                | T::TRIANGLE_STRIP_WITH_ADJACENCY
        );
        polygons
            && self
                .compat
                .caps
                .get(&crate::gl::compat::enums::GL_POLYGON_STIPPLE)
                .copied()
                .unwrap_or(false)
    }

    /// The bytes `glPolygonStipple` reads (and `glGetPolygonStipple` writes) under the unpack
    /// (pack) state.
    pub fn polygon_stipple_bytes(&self, pack: bool) -> usize {
        let store = if pack { &self.pack } else { &self.unpack };
        let (pitch, skipped) = client_rows(store);
        let last_bit = store.skip_pixels as usize + SIDE as usize;
        skipped + (SIDE as usize - 1) * pitch + last_bit.div_ceil(8)
    }

    /// `glPolygonStipple` from `data`, sized by [`Context::polygon_stipple_bytes`].
    pub fn polygon_stipple(&mut self, data: &[u8]) {
        if let Err(e) = self.compat_only("glPolygonStipple") {
            self.record::<()>(Err(e));
            return;
        }
        let u = &self.unpack;
        let row_bits = if u.row_length > 0 { u.row_length } else { SIDE };
        let runs = bitmap_runs(
            data,
            SIDE,
            SIDE,
            row_bits,
            u.alignment.bytes(),
            (u.skip_pixels, u.skip_rows),
            false,
        );
        let mut rows = [0u32; SIDE as usize];
        for (row, start, end) in runs {
            for x in start..end {
                rows[row as usize] |= 1 << x;
            }
        }
        self.compat.stipple = Pattern(rows);
    }

    /// `glGetPolygonStipple` into `out` (held bytes keep their values between pixels).
    pub fn get_polygon_stipple(&mut self, out: &mut [u8]) {
        if let Err(e) = self.compat_only("glGetPolygonStipple") {
            self.record::<()>(Err(e));
            return;
        }
        let (pitch, skipped) = client_rows(&self.pack);
        let skip = self.pack.skip_pixels as usize;
        for (y, row) in self.compat.stipple.0.iter().enumerate() {
            for x in 0..SIDE as usize {
                let bit = skip + x;
                let Some(byte) = out.get_mut(skipped + y * pitch + bit / 8) else {
                    continue;
                };
                let mask = 0x80u8 >> (bit % 8);
                if row >> x & 1 != 0 {
                    *byte |= mask;
                } else {
                    *byte &= !mask;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_initial_pattern_keeps_everything() {
        assert!(Pattern::default().0.iter().all(|&r| r == u32::MAX));
    }
}
