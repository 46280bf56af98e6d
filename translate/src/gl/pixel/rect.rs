//! `glBitmap`, `glDrawPixels` and `glPixelZoom` of the compatibility profile: pixel rectangles
//! drawn at the current raster position.
//!
//! Design decisions:
//! - Both become ordinary fixed-function draws of window-space rectangles (one per run of set
//!   bits of a bitmap row, one per pixel of a `glDrawPixels` image, each `zoom` in size), with
//!   the matrices, texturing and lighting set aside for the draw and restored after it. So the
//!   scissor, blending, masks, the alpha and depth tests and the current framebuffer apply
//!   exactly as to any draw, with no second path to keep in step. The cost is CPU work and
//!   vertices proportional to the image: fine for the small images these calls draw in
//!   practice (text, test patterns), not for streaming video.
//! - A bitmap draws in the raster colour (`GL_CURRENT_RASTER_COLOR`, the current colour when
//!   the raster position was set) and then advances the raster position by (xmove, ymove).
//!   An invalid raster position draws nothing.
//! - Client pixels are read with the unpack state (alignment, row length, skip pixels/rows);
//!   `GL_UNPACK_LSB_FIRST` is not stored by `glPixelStorei`, so bitmaps read most significant
//!   bit first, GL's default. `glDrawPixels` converts `GL_RGBA`, `GL_RGB`,
//!   `GL_BGRA`, `GL_BGR`, `GL_RED`, `GL_GREEN`, `GL_BLUE`, `GL_ALPHA`, `GL_LUMINANCE` and
//!   `GL_LUMINANCE_ALPHA` in `GL_UNSIGNED_BYTE` or `GL_FLOAT`; depth and stencil images and
//!   other types are `GL_INVALID_OPERATION` with a log naming what is missing.

use crate::gl::compat::FF_TEXTURE_UNITS;
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;

const GL_RED_FORMAT: GLenum = 0x1903;
const GL_GREEN_FORMAT: GLenum = 0x1904;
const GL_BLUE_FORMAT: GLenum = 0x1905;
const GL_ALPHA_FORMAT: GLenum = 0x1906;
const GL_RGB_FORMAT: GLenum = 0x1907;
const GL_RGBA_FORMAT: GLenum = 0x1908;
const GL_LUMINANCE_FORMAT: GLenum = 0x1909;
const GL_LUMINANCE_ALPHA_FORMAT: GLenum = 0x190A;
const GL_BGR_FORMAT: GLenum = 0x80E0;
const GL_BGRA_FORMAT: GLenum = 0x80E1;

/// The runs of set bits of each row of a `width` × `height` bitmap: (row, first, end).
/// `row_bits` is the row length in bits (`GL_UNPACK_ROW_LENGTH` or the width), `alignment` the
/// row alignment in bytes, `skip` (pixels, rows) the unpack skips.
pub(crate) fn bitmap_runs(
    data: &[u8],
    width: u32,
    height: u32,
    row_bits: u32,
    alignment: u32,
    skip: (u32, u32),
    lsb_first: bool,
) -> Vec<(u32, u32, u32)> {
    let row_bytes = (row_bits as usize)
        .div_ceil(8)
        .next_multiple_of(alignment.max(1) as usize);
    let bit = |row: u32, x: u32| -> bool {
        let bit_index = (skip.0 + x) as usize;
        let at = (skip.1 + row) as usize * row_bytes + bit_index / 8;
        let Some(&byte) = data.get(at) else {
            return false;
        };
        let shift = if lsb_first {
            bit_index % 8
        } else {
            7 - bit_index % 8
        };
        (byte >> shift) & 1 != 0
    };
    let mut runs = Vec::new();
    for row in 0..height {
        let mut x = 0;
        while x < width {
            if bit(row, x) {
                let start = x;
                while x < width && bit(row, x) {
                    x += 1;
                }
                runs.push((row, start, x));
            } else {
                x += 1;
            }
        }
    }
    runs
}

/// The RGBA colour of each pixel of a `glDrawPixels` image, rows bottom to top.
pub(crate) fn pixel_colors(
    data: &[u8],
    (width, height): (u32, u32),
    format: GLenum,
    ty: GLenum,
    unpack: &arenagl_staging::PixelStore,
) -> GlResult<Vec<[f32; 4]>> {
    let (row_length, alignment) = (unpack.row_length, unpack.alignment.bytes());
    let skip = (unpack.skip_pixels, unpack.skip_rows);
    let comps = match format {
        GL_RGBA_FORMAT | GL_BGRA_FORMAT => 4,
        GL_RGB_FORMAT | GL_BGR_FORMAT => 3,
        GL_LUMINANCE_ALPHA_FORMAT => 2,
        GL_RED_FORMAT | GL_GREEN_FORMAT | GL_BLUE_FORMAT | GL_ALPHA_FORMAT
        | GL_LUMINANCE_FORMAT => 1,
        0x1901 | 0x1902 | 0x84F9 => {
            return invalid_op("glDrawPixels of depth or stencil images is not implemented")
        }
        f => return invalid_enum("glDrawPixels format", f),
    };
    let width_bytes = match ty {
        GL_UNSIGNED_BYTE => 1,
        GL_FLOAT => 4,
        GL_BYTE | GL_SHORT | GL_UNSIGNED_SHORT | GL_INT | GL_UNSIGNED_INT | GL_HALF_FLOAT => {
            return invalid_op(format!(
                "glDrawPixels of type 0x{ty:04X} is not implemented (GL_UNSIGNED_BYTE, GL_FLOAT)"
            ))
        }
        t => return invalid_enum("glDrawPixels type", t),
    };
    let pixel = comps * width_bytes;
    let row_pixels = if row_length > 0 { row_length } else { width } as usize;
    let row_bytes = (row_pixels * pixel).next_multiple_of(alignment.max(1) as usize);
    let mut out = Vec::with_capacity((width * height) as usize);
    for row in 0..height as usize {
        for x in 0..width as usize {
            let at = (skip.1 as usize + row) * row_bytes + (skip.0 as usize + x) * pixel;
            let Some(p) = data.get(at..at + pixel) else {
                return invalid_op("glDrawPixels image shorter than its size");
            };
            let c = |i: usize| -> f32 {
                if width_bytes == 1 {
                    f32::from(p[i]) / 255.0
                } else {
                    f32::from_ne_bytes([p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]])
                }
            };
            out.push(match format {
                GL_RGBA_FORMAT => [c(0), c(1), c(2), c(3)],
                GL_BGRA_FORMAT => [c(2), c(1), c(0), c(3)],
                GL_RGB_FORMAT => [c(0), c(1), c(2), 1.0],
                GL_BGR_FORMAT => [c(2), c(1), c(0), 1.0],
                GL_LUMINANCE_ALPHA_FORMAT => [c(0), c(0), c(0), c(1)],
                GL_LUMINANCE_FORMAT => [c(0), c(0), c(0), 1.0],
                GL_RED_FORMAT => [c(0), 0.0, 0.0, 1.0],
                GL_GREEN_FORMAT => [0.0, c(0), 0.0, 1.0],
                GL_BLUE_FORMAT => [0.0, 0.0, c(0), 1.0],
                _ => [0.0, 0.0, 0.0, c(0)],
            });
        }
    }
    Ok(out)
}

impl Context {
    /// `glPixelZoom`.
    pub fn pixel_zoom(&mut self, x: f32, y: f32) {
        let r = self.compat_only("glPixelZoom");
        if self.record(r).is_some() {
            self.compat.pixel_zoom = [x, y];
        }
    }

    /// The bytes a `width` × `height` bitmap reads under the unpack state (the C edge sizes the
    /// client pointer's slice with this).
    pub fn bitmap_bytes(&self, width: i32, height: i32) -> usize {
        let u = &self.unpack;
        let (w, h) = (width.max(0) as usize, height.max(0) as usize);
        if w == 0 || h == 0 {
            return 0;
        }
        let row_bits = if u.row_length > 0 {
            u.row_length as usize
        } else {
            w
        };
        let row_bytes = row_bits
            .div_ceil(8)
            .next_multiple_of(u.alignment.bytes() as usize);
        let last_bit = u.skip_pixels as usize + w;
        (u.skip_rows as usize + h - 1) * row_bytes + last_bit.div_ceil(8)
    }

    /// `glBitmap`.
    pub fn bitmap(
        &mut self,
        width: i32,
        height: i32,
        origin: [f32; 2],
        advance: [f32; 2],
        data: &[u8],
    ) {
        let r = (|| {
            self.compat_only("glBitmap")?;
            if width < 0 || height < 0 {
                return invalid_value("glBitmap with a negative size");
            }
            let (pos, valid) = self.compat.raster;
            if !valid {
                return Ok(());
            }
            let u = &self.unpack;
            let row_bits = if u.row_length > 0 {
                u.row_length
            } else {
                width as u32
            };
            let runs = bitmap_runs(
                data,
                width as u32,
                height as u32,
                row_bits,
                u.alignment.bytes(),
                (u.skip_pixels, u.skip_rows),
                false,
            );
            let x0 = (pos[0] - origin[0]).floor();
            let y0 = (pos[1] - origin[1]).floor();
            let color = self.compat.raster_color;
            let rects: Vec<([f32; 4], [f32; 4])> = runs
                .into_iter()
                .map(|(row, a, b)| {
                    let y = y0 + row as f32;
                    ([x0 + a as f32, y, x0 + b as f32, y + 1.0], color)
                })
                .collect();
            self.draw_window_rects(&rects, pos[2])?;
            self.compat.raster.0[0] += advance[0];
            self.compat.raster.0[1] += advance[1];
            Ok(())
        })();
        self.record(r);
    }

    /// `glDrawPixels`.
    pub fn draw_pixels(
        &mut self,
        width: i32,
        height: i32,
        format: GLenum,
        ty: GLenum,
        data: &[u8],
    ) {
        let r = (|| {
            self.compat_only("glDrawPixels")?;
            if width < 0 || height < 0 {
                return invalid_value("glDrawPixels with a negative size");
            }
            let colors = pixel_colors(
                data,
                (width as u32, height as u32),
                format,
                ty,
                &self.unpack,
            )?;
            let (pos, valid) = self.compat.raster;
            if !valid {
                return Ok(());
            }
            let [zx, zy] = self.compat.pixel_zoom;
            let mut rects = Vec::with_capacity(colors.len());
            for (i, color) in colors.into_iter().enumerate() {
                let (col, row) = ((i % width as usize) as f32, (i / width as usize) as f32);
                let (xa, xb) = (pos[0] + zx * col, pos[0] + zx * (col + 1.0));
                let (ya, yb) = (pos[1] + zy * row, pos[1] + zy * (row + 1.0));
                rects.push(([xa.min(xb), ya.min(yb), xa.max(xb), ya.max(yb)], color));
            }
            self.draw_window_rects(&rects, pos[2])
        })();
        self.record(r);
    }

    /// Draws window-space rectangles (x0, y0, x1, y1) of flat colours at window depth `z` with
    /// the fixed-function program, matrices, texturing and lighting set aside.
    fn draw_window_rects(&mut self, rects: &[([f32; 4], [f32; 4])], z: f32) -> GlResult<()> {
        if rects.is_empty() {
            return Ok(());
        }
        // Window coordinates are not transformed by the viewport: draw through one that covers
        // the whole target.
        let target = self.draw_target()?;
        if target.width == 0 || target.height == 0 {
            return Ok(());
        }
        let vp = crate::gl::context::viewports::ViewportRect {
            x: 0.0,
            y: 0.0,
            width: target.width as f32,
            height: target.height as f32,
        };
        let [n, f] = self.pipeline_state.viewports.depth_range[0];
        let ndc_z = if f != n {
            ((2.0 * f64::from(z) - (f + n)) / (f - n)) as f32
        } else {
            0.0
        };
        let cx = |x: f32| 2.0 * (x - vp.x) / vp.width - 1.0;
        let cy = |y: f32| 2.0 * (y - vp.y) / vp.height - 1.0;
        // Saved state, restored after the draw whatever it returns.
        let program = std::mem::take(&mut self.program);
        // The fixed-function program writes no viewport index: viewport 0 is the one drawn.
        let viewport = std::mem::replace(&mut self.pipeline_state.viewports.rect[0], vp);
        let matrices = self.compat.matrices.clone();
        let enables = std::mem::replace(&mut self.compat.texture_enables, [0; FF_TEXTURE_UNITS]);
        let lighting = self.compat.caps.insert(GL_LIGHTING, false);
        self.compat.matrices.load_identity_all();
        let mut vertices = Vec::with_capacity(rects.len() * 6);
        for &([x0, y0, x1, y1], c) in rects {
            let (a, b, cc, d) = (
                [cx(x0), cy(y0)],
                [cx(x1), cy(y0)],
                [cx(x1), cy(y1)],
                [cx(x0), cy(y1)],
            );
            for p in [a, b, cc, a, cc, d] {
                vertices.push(([p[0], p[1], ndc_z, 1.0], c));
            }
        }
        let r = self.draw_immediate_triangles(&vertices);
        self.program = program;
        self.pipeline_state.viewports.rect[0] = viewport;
        self.compat.matrices = matrices;
        self.compat.texture_enables = enables;
        match lighting {
            Some(on) => {
                self.compat.caps.insert(GL_LIGHTING, on);
            }
            None => {
                self.compat.caps.remove(&GL_LIGHTING);
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitmap_rows_become_runs_honouring_alignment_skips_and_bit_order() {
        // 10 bits wide, 2 rows, rows padded to 4 bytes.
        let data = [
            0b1100_0001,
            0b1000_0000,
            0,
            0,
            0b0000_0000,
            0b0100_0000,
            0,
            0,
        ];
        let runs = bitmap_runs(&data, 10, 2, 10, 4, (0, 0), false);
        assert_eq!(runs, vec![(0, 0, 2), (0, 7, 9), (1, 9, 10)]);
        // Skipping one pixel shifts every run left.
        let runs = bitmap_runs(&data, 9, 1, 10, 4, (1, 0), false);
        assert_eq!(runs, vec![(0, 0, 1), (0, 6, 8)]);
        // LSB first reads bit 0 first.
        assert_eq!(
            bitmap_runs(&[0b0000_0001], 2, 1, 2, 1, (0, 0), true),
            vec![(0, 0, 1)]
        );
    }

    #[test]
    fn draw_pixels_converts_formats_and_reads_rows_with_the_unpack_state() {
        // 1×2 RGB bytes, rows aligned to 4: [255,0,0,pad] [0,128,255,pad]
        let data = [255, 0, 0, 9, 0, 128, 255, 9];
        let u = arenagl_staging::PixelStore::default();
        let c = pixel_colors(&data, (1, 2), GL_RGB_FORMAT, GL_UNSIGNED_BYTE, &u).unwrap();
        assert_eq!(c[0], [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(c[1], [0.0, 128.0 / 255.0, 1.0, 1.0]);
        let f: Vec<u8> = [0.5f32, 0.25]
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect();
        let c = pixel_colors(&f, (1, 1), GL_LUMINANCE_ALPHA_FORMAT, GL_FLOAT, &u).unwrap();
        assert_eq!(c[0], [0.5, 0.5, 0.5, 0.25]);
        assert!(pixel_colors(&data, (1, 1), 0x1902, GL_UNSIGNED_BYTE, &u).is_err());
        assert!(pixel_colors(&data, (4, 4), GL_RGBA_FORMAT, GL_UNSIGNED_BYTE, &u).is_err());
    }
}
