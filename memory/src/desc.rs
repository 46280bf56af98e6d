//! What clients ask the manager for: resource descriptions, memory classes and categories.
//!
//! A [`MemoryClass`] picks the sub-allocation pool: each class has its own VMA pool in the memory
//! type that suits its access pattern. A [`Category`] is only for the statistics and the budget: it
//! says what the bytes are for, independent of where they live; it is `arenagl-residency`'s own
//! category, so the budget split and the statistics line up.

#![deny(unsafe_code, clippy::unwrap_used)]

use ash::vk;

/// The usage class of an allocation; one sub-allocation pool per class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemoryClass {
    /// Images sampled or rendered by the GPU (device-local).
    DeviceImage,
    /// Vertex, index, uniform and storage buffers the GPU reads (device-local).
    DeviceBuffer,
    /// Host-visible, written sequentially by the CPU, read once by a copy (staging uploads).
    Upload,
    /// Host-visible and cached, written by the GPU, read by the CPU (readback).
    Readback,
    /// Host-visible memory rewritten every frame (per-frame streaming, per-draw uniforms).
    Transient,
}

impl MemoryClass {
    /// Every class, in pool order.
    pub const ALL: [MemoryClass; 5] = [
        MemoryClass::DeviceImage,
        MemoryClass::DeviceBuffer,
        MemoryClass::Upload,
        MemoryClass::Readback,
        MemoryClass::Transient,
    ];

    /// The pool index of this class.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether the CPU maps memory of this class.
    pub fn host_access(self) -> bool {
        matches!(
            self,
            MemoryClass::Upload | MemoryClass::Readback | MemoryClass::Transient
        )
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            MemoryClass::DeviceImage => "device-image",
            MemoryClass::DeviceBuffer => "device-buffer",
            MemoryClass::Upload => "upload",
            MemoryClass::Readback => "readback",
            MemoryClass::Transient => "transient",
        }
    }
}

/// What the bytes are for (accounting and budget split). The residency policy owns the
/// categories, so budgets and statistics always agree on them.
pub use arenagl_residency::Category;

/// A buffer request.
#[derive(Debug, Clone, PartialEq)]
pub struct BufferDesc {
    /// Size in bytes; must be non-zero and at most `maxMemoryAllocationSize`.
    pub size: u64,
    /// Vulkan usage flags.
    pub usage: vk::BufferUsageFlags,
    /// The pool the memory comes from.
    pub class: MemoryClass,
    /// What it is for.
    pub category: Category,
    /// A label for leak reports and dashboards.
    pub name: &'static str,
}

impl BufferDesc {
    /// A buffer of `size` bytes with the given usage, class and category.
    pub fn new(
        size: u64,
        usage: vk::BufferUsageFlags,
        class: MemoryClass,
        category: Category,
    ) -> Self {
        Self {
            size,
            usage,
            class,
            category,
            name: "buffer",
        }
    }

    /// Sets the label.
    pub fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }
}

/// An image request. Images always come from the [`MemoryClass::DeviceImage`] pool.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageDesc {
    /// 1D, 2D or 3D.
    pub image_type: vk::ImageType,
    /// Texel format.
    pub format: vk::Format,
    /// Size of mip level 0.
    pub extent: vk::Extent3D,
    /// Mip levels (at least 1).
    pub mip_levels: u32,
    /// Array layers (6 × n for cube maps).
    pub array_layers: u32,
    /// Sample count.
    pub samples: vk::SampleCountFlags,
    /// Vulkan usage flags.
    pub usage: vk::ImageUsageFlags,
    /// Create flags (cube compatible, mutable format).
    pub flags: vk::ImageCreateFlags,
    /// What it is for.
    pub category: Category,
    /// A label for leak reports and dashboards.
    pub name: &'static str,
}

impl ImageDesc {
    /// A 2D single-sampled image with `mip_levels` levels.
    pub fn new_2d(
        format: vk::Format,
        width: u32,
        height: u32,
        mip_levels: u32,
        usage: vk::ImageUsageFlags,
        category: Category,
    ) -> Self {
        Self {
            image_type: vk::ImageType::TYPE_2D,
            format,
            extent: vk::Extent3D {
                width,
                height,
                depth: 1,
            },
            mip_levels,
            array_layers: 1,
            samples: vk::SampleCountFlags::TYPE_1,
            usage,
            flags: vk::ImageCreateFlags::empty(),
            category,
            name: "image",
        }
    }

    /// Sets the label.
    pub fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }

    /// The full mip chain length for this extent.
    pub fn full_mip_count(extent: vk::Extent3D) -> u32 {
        let largest = extent.width.max(extent.height).max(extent.depth).max(1);
        32 - largest.leading_zeros()
    }
}

/// An image view request.
#[derive(Debug, Clone)]
pub struct ViewDesc {
    /// View type (must be compatible with the image).
    pub view_type: vk::ImageViewType,
    /// `UNDEFINED` means the image's own format.
    pub format: vk::Format,
    /// Aspects viewed.
    pub aspect: vk::ImageAspectFlags,
    /// First mip level.
    pub base_mip_level: u32,
    /// Mip levels viewed.
    pub mip_level_count: u32,
    /// First layer.
    pub base_array_layer: u32,
    /// Layers viewed.
    pub layer_count: u32,
    /// Component swizzle.
    pub components: vk::ComponentMapping,
}

impl ViewDesc {
    /// A 2D colour view of every mip level of layer 0.
    pub fn color_2d(mip_level_count: u32) -> Self {
        Self {
            view_type: vk::ImageViewType::TYPE_2D,
            format: vk::Format::UNDEFINED,
            aspect: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            mip_level_count,
            base_array_layer: 0,
            layer_count: 1,
            components: vk::ComponentMapping::default(),
        }
    }
}

/// A sampler request.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerDesc {
    /// Magnification filter.
    pub mag_filter: vk::Filter,
    /// Minification filter.
    pub min_filter: vk::Filter,
    /// Mipmap mode.
    pub mipmap_mode: vk::SamplerMipmapMode,
    /// Wrap modes (u, v, w).
    pub address_modes: [vk::SamplerAddressMode; 3],
    /// LOD bias.
    pub mip_lod_bias: f32,
    /// LOD clamp.
    pub min_lod: f32,
    /// LOD clamp.
    pub max_lod: f32,
    /// Anisotropy; ignored (treated as 1) where the device lacks the feature.
    pub max_anisotropy: Option<f32>,
    /// Depth comparison.
    pub compare_op: Option<vk::CompareOp>,
    /// Border colour for clamp-to-border: a built-in one, or `FLOAT_CUSTOM_EXT` /
    /// `INT_CUSTOM_EXT` with the colour in `custom_border`.
    pub border_color: vk::BorderColor,
    /// The custom border colour's four words (float bits, or integers); zero and unused for a
    /// built-in border colour. Where the device lacks `VK_EXT_custom_border_color` the backend
    /// samples the nearest built-in colour instead ([`nearest_builtin_border`]).
    pub custom_border: [u32; 4],
    /// The sampled view's format, which the custom border colour goes with on devices that
    /// lack `customBorderColorWithoutFormat` (`UNDEFINED` otherwise and for built-in colours).
    pub custom_border_format: vk::Format,
}

impl SamplerDesc {
    /// Sets the border colour from its four words (`integer`: signed or unsigned integers,
    /// else float bits): a built-in colour where the words are exactly one, else a custom one.
    /// `format` is the sampled view's format.
    pub fn with_border(mut self, words: [u32; 4], integer: bool, format: vk::Format) -> Self {
        let builtin = builtin_border(words, integer);
        self.border_color = builtin.unwrap_or(if integer {
            vk::BorderColor::INT_CUSTOM_EXT
        } else {
            vk::BorderColor::FLOAT_CUSTOM_EXT
        });
        (self.custom_border, self.custom_border_format) = match builtin {
            Some(_) => ([0; 4], vk::Format::UNDEFINED),
            None => (words, format),
        };
        self
    }
}

/// The built-in border colour whose value is exactly `words`, if there is one.
fn builtin_border(words: [u32; 4], integer: bool) -> Option<vk::BorderColor> {
    let (zero, one) = if integer {
        (0, 1)
    } else {
        (0.0f32.to_bits(), 1.0f32.to_bits())
    };
    let [r, g, b, a] = words;
    let rgb = |v| r == v && g == v && b == v;
    Some(match (rgb(zero), rgb(one), a == zero, a == one, integer) {
        (true, _, true, _, false) => vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
        (true, _, _, true, false) => vk::BorderColor::FLOAT_OPAQUE_BLACK,
        (_, true, _, true, false) => vk::BorderColor::FLOAT_OPAQUE_WHITE,
        (true, _, true, _, true) => vk::BorderColor::INT_TRANSPARENT_BLACK,
        (true, _, _, true, true) => vk::BorderColor::INT_OPAQUE_BLACK,
        (_, true, _, true, true) => vk::BorderColor::INT_OPAQUE_WHITE,
        _ => return None,
    })
}

/// The built-in border colour nearest a custom one, for devices without
/// `VK_EXT_custom_border_color`: opaque when alpha is at least half of one (or, for integers,
/// at least one), white when every colour channel is, else black. Built-in colours pass
/// through unchanged.
pub fn nearest_builtin_border(border: vk::BorderColor, words: [u32; 4]) -> vk::BorderColor {
    let integer = match border {
        vk::BorderColor::FLOAT_CUSTOM_EXT => false,
        vk::BorderColor::INT_CUSTOM_EXT => true,
        builtin => return builtin,
    };
    // Signed and unsigned integer words read the same way for "at least one" once negative
    // values (which are above `i32::MAX` as unsigned) count as below one.
    let high = |w: u32| {
        if integer {
            (w as i32) >= 1
        } else {
            f32::from_bits(w) >= 0.5
        }
    };
    let opaque = high(words[3]);
    let white = words[..3].iter().all(|&w| high(w));
    match (integer, opaque, white) {
        (false, false, _) => vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
        (false, true, false) => vk::BorderColor::FLOAT_OPAQUE_BLACK,
        (false, true, true) => vk::BorderColor::FLOAT_OPAQUE_WHITE,
        (true, false, _) => vk::BorderColor::INT_TRANSPARENT_BLACK,
        (true, true, false) => vk::BorderColor::INT_OPAQUE_BLACK,
        (true, true, true) => vk::BorderColor::INT_OPAQUE_WHITE,
    }
}

impl Default for SamplerDesc {
    fn default() -> Self {
        Self {
            mag_filter: vk::Filter::LINEAR,
            min_filter: vk::Filter::LINEAR,
            mipmap_mode: vk::SamplerMipmapMode::LINEAR,
            address_modes: [vk::SamplerAddressMode::REPEAT; 3],
            mip_lod_bias: 0.0,
            min_lod: 0.0,
            max_lod: vk::LOD_CLAMP_NONE,
            max_anisotropy: None,
            compare_op: None,
            border_color: vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
            custom_border: [0; 4],
            custom_border_format: vk::Format::UNDEFINED,
        }
    }
}

/// Bytes per texel block of the formats the manager knows the size of (the simulated device
/// and request validation use it); `None` for formats it does not know.
pub fn texel_block_size(format: vk::Format) -> Option<u32> {
    use vk::Format as F;
    Some(match format {
        F::R8_UNORM | F::R8_SNORM | F::R8_UINT | F::R8_SINT | F::S8_UINT => 1,
        F::R8G8_UNORM | F::R8G8_UINT | F::R16_UNORM | F::R16_SFLOAT | F::R16_UINT => 2,
        F::D16_UNORM | F::R5G6B5_UNORM_PACK16 | F::R4G4B4A4_UNORM_PACK16 => 2,
        F::R5G5B5A1_UNORM_PACK16 | F::A1R5G5B5_UNORM_PACK16 => 2,
        F::R8G8B8_UNORM | F::R8G8B8_SRGB | F::B8G8R8_UNORM => 3,
        F::R8G8B8A8_UNORM | F::R8G8B8A8_SRGB | F::B8G8R8A8_UNORM | F::B8G8R8A8_SRGB => 4,
        F::R8G8B8A8_UINT | F::R8G8B8A8_SINT | F::R8G8B8A8_SNORM => 4,
        F::A2B10G10R10_UNORM_PACK32 | F::B10G11R11_UFLOAT_PACK32 => 4,
        F::R16G16_SFLOAT | F::R16G16_UNORM | F::R32_SFLOAT | F::R32_UINT | F::R32_SINT => 4,
        F::D32_SFLOAT | F::D24_UNORM_S8_UINT | F::X8_D24_UNORM_PACK32 => 4,
        F::D32_SFLOAT_S8_UINT => 8,
        F::R16G16B16A16_SFLOAT | F::R16G16B16A16_UNORM | F::R32G32_SFLOAT => 8,
        F::R32G32B32_SFLOAT => 12,
        F::R32G32B32A32_SFLOAT | F::R32G32B32A32_UINT | F::R32G32B32A32_SINT => 16,
        _ => return None,
    })
}

/// Bytes an image of `desc` occupies when tightly packed (all levels and layers), or `None`
/// when the format is unknown or the size overflows.
pub fn packed_image_bytes(desc: &ImageDesc) -> Option<u64> {
    let texel = u64::from(texel_block_size(desc.format)?);
    let mut total: u64 = 0;
    for level in 0..desc.mip_levels {
        let w = u64::from((desc.extent.width >> level).max(1));
        let h = u64::from((desc.extent.height >> level).max(1));
        let d = u64::from((desc.extent.depth >> level).max(1));
        let level_bytes = w.checked_mul(h)?.checked_mul(d)?.checked_mul(texel)?;
        total = total.checked_add(level_bytes)?;
    }
    total
        .checked_mul(u64::from(desc.array_layers))?
        .checked_mul(u64::from(desc.samples.as_raw().max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_mip_chain_of_an_atlas() {
        let e = vk::Extent3D {
            width: 1024,
            height: 1024,
            depth: 1,
        };
        assert_eq!(ImageDesc::full_mip_count(e), 11);
        let desc = ImageDesc::new_2d(
            vk::Format::R8G8B8A8_UNORM,
            1024,
            1024,
            11,
            vk::ImageUsageFlags::SAMPLED,
            Category::Texture,
        );
        // 4 MiB for level 0, plus a third again for the rest of the chain (+ 4 bytes for 1×1).
        assert_eq!(packed_image_bytes(&desc), Some(4 * (1 << 20) + 1_398_100));
    }

    #[test]
    fn border_words_pick_builtin_colours_only_when_exact() {
        let f = |v: [f32; 4]| v.map(f32::to_bits);
        let desc = |w, int| SamplerDesc::default().with_border(w, int, vk::Format::R8_UNORM);
        let opaque_white = desc(f([1.0; 4]), false);
        assert_eq!(
            opaque_white.border_color,
            vk::BorderColor::FLOAT_OPAQUE_WHITE
        );
        assert_eq!(opaque_white.custom_border_format, vk::Format::UNDEFINED);
        assert_eq!(
            desc(f([0.0, 0.0, 0.0, 1.0]), false).border_color,
            vk::BorderColor::FLOAT_OPAQUE_BLACK
        );
        assert_eq!(
            desc([0, 0, 0, 1], true).border_color,
            vk::BorderColor::INT_OPAQUE_BLACK
        );
        assert_eq!(
            desc([1; 4], true).border_color,
            vk::BorderColor::INT_OPAQUE_WHITE
        );
        assert_eq!(
            desc([0; 4], true).border_color,
            vk::BorderColor::INT_TRANSPARENT_BLACK
        );
        // 1.0's bits are not the integer one, nor the reverse.
        let custom = desc([1; 4], false);
        assert_eq!(custom.border_color, vk::BorderColor::FLOAT_CUSTOM_EXT);
        assert_eq!(custom.custom_border, [1; 4]);
        assert_eq!(custom.custom_border_format, vk::Format::R8_UNORM);
        let words = [0x8070_6050, 1, 2, 3];
        let int = desc(words, true);
        assert_eq!(int.border_color, vk::BorderColor::INT_CUSTOM_EXT);
        assert_eq!(int.custom_border, words);
    }

    #[test]
    fn nearest_builtin_border_rounds_custom_colours() {
        use vk::BorderColor as B;
        let f = |v: [f32; 4]| v.map(f32::to_bits);
        assert_eq!(
            nearest_builtin_border(B::FLOAT_CUSTOM_EXT, f([0.9, 0.6, 0.7, 0.8])),
            B::FLOAT_OPAQUE_WHITE
        );
        assert_eq!(
            nearest_builtin_border(B::FLOAT_CUSTOM_EXT, f([0.9, 0.2, 0.7, 0.8])),
            B::FLOAT_OPAQUE_BLACK
        );
        assert_eq!(
            nearest_builtin_border(B::FLOAT_CUSTOM_EXT, f([0.9, 0.9, 0.9, 0.1])),
            B::FLOAT_TRANSPARENT_BLACK
        );
        // Negative integers are below one; large unsigned words read as negative too, which
        // rounds them to black rather than white (either is a guess without the extension).
        assert_eq!(
            nearest_builtin_border(B::INT_CUSTOM_EXT, [5, 7, 9, 2]),
            B::INT_OPAQUE_WHITE
        );
        assert_eq!(
            nearest_builtin_border(B::INT_CUSTOM_EXT, [(-1i32) as u32, 7, 9, 2]),
            B::INT_OPAQUE_BLACK
        );
        assert_eq!(
            nearest_builtin_border(B::INT_CUSTOM_EXT, [5, 7, 9, 0]),
            B::INT_TRANSPARENT_BLACK
        );
        assert_eq!(
            nearest_builtin_border(B::FLOAT_OPAQUE_WHITE, [0; 4]),
            B::FLOAT_OPAQUE_WHITE
        );
    }
}
