//! An RGBA8 image read back from GL, top row first, and its PNG encoding.
//!
//! GL returns rows bottom-up; the flip happens once, here, so every PNG and every comparison sees
//! the picture the right way up.

use std::path::Path;

use super::GlClientError;

/// Tightly packed RGBA8 pixels, top row first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
}

impl Image {
    /// From `glReadPixels` rows (bottom row first).
    pub fn from_gl_rows(width: u32, height: u32, rows: Vec<u8>) -> Image {
        let stride = (width as usize * 4).max(1);
        let mut rgba = Vec::with_capacity(rows.len());
        for row in rows.chunks_exact(stride).rev() {
            rgba.extend_from_slice(row);
        }
        Image {
            width,
            height,
            rgba,
        }
    }

    /// Writes the image as an 8-bit RGBA PNG, creating the parent directory.
    pub fn write_png(&self, path: &Path) -> Result<(), GlClientError> {
        let fail = |reason: String| GlClientError::Output {
            path: path.to_path_buf(),
            reason,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| fail(e.to_string()))?;
        }
        let file = std::fs::File::create(path).map_err(|e| fail(e.to_string()))?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| fail(e.to_string()))?;
        writer
            .write_image_data(&self.rgba)
            .map_err(|e| fail(e.to_string()))?;
        writer.finish().map_err(|e| fail(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gl_rows_are_flipped_to_top_first() {
        // Two rows of one pixel: GL's first row is the bottom one.
        let image = Image::from_gl_rows(1, 2, vec![1, 1, 1, 1, 2, 2, 2, 2]);
        assert_eq!(image.rgba, vec![2, 2, 2, 2, 1, 1, 1, 1]);
    }
}
