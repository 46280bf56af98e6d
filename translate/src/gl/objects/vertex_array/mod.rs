//! Vertex array objects and the vertex formats GL attributes map to: the attribute arrays a
//! VAO holds, the check of an attribute pointer's size, type and stride, and how an array's
//! format becomes a Vulkan vertex format (repacked or widened where Vulkan cannot read it as
//! is). The entry points are in `api`.

pub(crate) mod api;
pub(crate) mod binding;
mod long;
pub(crate) mod packed_float;

use packed_float::GL_UNSIGNED_INT_10F_11F_11F_REV;

pub(crate) use long::{current_value as current_long_value, high_format as long_high_format};

use std::sync::Arc;

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::objects::buffer::{Buffer, RetainedBuffer};
use crate::glsl::ScalarKind;

/// Generic vertex attribute slots per VAO: the most `GL_MAX_VERTEX_ATTRIBS` can be (the device's
/// limit may be lower: `Context::max_vertex_attribs`).
pub const MAX_VERTEX_ATTRIBS: u32 = 32;

/// The compatibility profile's fixed-function arrays (`glVertexPointer`, …), kept after the
/// generic slots: upgraded legacy shaders read them as `arena_ff_*` inputs (see
/// `glsl::legacy`), and the draw feeds those from these slots like any other attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FfArray {
    Vertex,
    Normal,
    Color,
    SecondaryColor,
    FogCoord,
    /// Texture coordinate set 0–7.
    TexCoord(u32),
}

/// Fixed-function slots (vertex, normal, colour, secondary colour, fog, 8 texture coordinates).
pub(crate) const FF_SLOTS: u32 = 13;
/// Every attribute slot of a VAO: generic, then fixed-function.
pub(crate) const ATTRIB_SLOTS: usize = (MAX_VERTEX_ATTRIBS + FF_SLOTS) as usize;

impl FfArray {
    /// The VAO slot of this array.
    pub(crate) fn slot(self) -> usize {
        MAX_VERTEX_ATTRIBS as usize
            + match self {
                FfArray::Vertex => 0,
                FfArray::Normal => 1,
                FfArray::Color => 2,
                FfArray::SecondaryColor => 3,
                FfArray::FogCoord => 4,
                FfArray::TexCoord(i) => 5 + i.min(7) as usize,
            }
    }

    /// The array an upgraded shader's `arena_ff_*` input reads, by its name.
    pub(crate) fn of_input(name: &str) -> Option<FfArray> {
        Some(match name.strip_prefix("arena_ff_")? {
            "Vertex" => FfArray::Vertex,
            "Normal" => FfArray::Normal,
            "Color" => FfArray::Color,
            "SecondaryColor" => FfArray::SecondaryColor,
            "FogCoord" => FfArray::FogCoord,
            t => FfArray::TexCoord(
                t.strip_prefix("MultiTexCoord")?
                    .parse()
                    .ok()
                    .filter(|&i| i < 8)?,
            ),
        })
    }

    /// GL's name of the built-in the input stands for (`gl_Vertex`, …).
    pub(crate) fn gl_name(self) -> String {
        match self {
            FfArray::Vertex => "gl_Vertex".into(),
            FfArray::Normal => "gl_Normal".into(),
            FfArray::Color => "gl_Color".into(),
            FfArray::SecondaryColor => "gl_SecondaryColor".into(),
            FfArray::FogCoord => "gl_FogCoord".into(),
            FfArray::TexCoord(i) => format!("gl_MultiTexCoord{i}"),
        }
    }
}

/// One attribute's array state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AttribArray {
    pub enabled: bool,
    pub size: i32,
    pub ty: GLenum,
    pub normalized: bool,
    pub integer: bool,
    /// Given with `glVertexAttribLPointer` (GL_ARB_vertex_attrib_64bit): doubles read as
    /// doubles, for 64-bit inputs.
    pub long: bool,
    pub stride: i32,
    /// A stride of 0 from a binding point (`binding`): every vertex reads the same element,
    /// where a pointer's stride of 0 means packed elements.
    pub zero_stride: bool,
    pub offset: u64,
    pub buffer: u32,
    pub divisor: u32,
}

impl Default for AttribArray {
    fn default() -> Self {
        Self {
            enabled: false,
            size: 4,
            ty: GL_FLOAT,
            normalized: false,
            integer: false,
            long: false,
            stride: 0,
            zero_stride: false,
            offset: 0,
            buffer: 0,
            divisor: 0,
        }
    }
}

impl AttribArray {
    /// This array re-pointed at `offset` in `buffer` with the layout `(size, ty)` (a size of
    /// `GL_BGRA` also means normalized), keeping its enabled flag and divisor.
    pub(crate) fn pointed_at(
        &self,
        (size, ty): (i32, GLenum),
        (normalized, integer): (bool, bool),
        stride: i32,
        (buffer, offset): (u32, u64),
    ) -> Self {
        Self {
            enabled: self.enabled,
            size,
            ty,
            normalized: normalized || size == GL_BGRA as i32,
            integer,
            long: false,
            stride,
            zero_stride: false,
            offset,
            buffer,
            divisor: self.divisor,
        }
    }

    /// Bytes between consecutive elements.
    pub(crate) fn effective_stride(&self) -> u32 {
        if self.stride != 0 || self.zero_stride {
            return self.stride as u32;
        }
        let comps = if self.size == GL_BGRA as i32 {
            4
        } else {
            self.size as u32
        };
        match self.ty {
            GL_BYTE | GL_UNSIGNED_BYTE => comps,
            GL_SHORT | GL_UNSIGNED_SHORT | GL_HALF_FLOAT => 2 * comps,
            GL_INT_2_10_10_10_REV
            | GL_UNSIGNED_INT_2_10_10_10_REV
            | GL_UNSIGNED_INT_10F_11F_11F_REV => 4,
            GL_DOUBLE => 8 * comps,
            _ => 4 * comps,
        }
    }

    /// Bytes of one element (what a stride of 0 packs).
    pub(crate) fn element_size(&self) -> u32 {
        AttribArray {
            stride: 0,
            zero_stride: false,
            ..*self
        }
        .effective_stride()
    }

    /// The alignment Vulkan requires of the element address and stride: the component size
    /// (4 for packed formats). GL allows any.
    pub(crate) fn alignment(&self) -> u32 {
        match self.ty {
            GL_BYTE | GL_UNSIGNED_BYTE if self.size != GL_BGRA as i32 => 1,
            GL_SHORT | GL_UNSIGNED_SHORT | GL_HALF_FLOAT => 2,
            _ => 4,
        }
    }

    /// Whether the array's offset or stride break `alignment`: such arrays are repacked
    /// (`repack`) before a draw.
    pub(crate) fn misaligned(&self) -> bool {
        let a = u64::from(self.alignment());
        self.offset % a != 0 || u64::from(self.effective_stride()) % a != 0
    }
}

/// Elements of `element` bytes, `stride` apart from `offset` in `src`, packed at the returned
/// stride (`element` rounded up to 4): the fallback for arrays Vulkan cannot read where they
/// are. `count` is how many to take; those past the end of `src` are left out.
pub(crate) fn repack(
    src: &[u8],
    offset: usize,
    stride: usize,
    element: usize,
    count: usize,
) -> (Vec<u8>, u32) {
    let packed = element.next_multiple_of(4).max(4);
    let fit = src
        .len()
        .checked_sub(offset.saturating_add(element))
        .map_or(0, |room| room / stride.max(1) + 1)
        .min(count);
    let mut out = vec![0u8; fit * packed];
    for (i, dst) in out.chunks_exact_mut(packed).enumerate() {
        let at = offset + i * stride;
        dst[..element].copy_from_slice(&src[at..at + element]);
    }
    (out, packed as u32)
}

/// Elements of an array that fit in a buffer of `size` bytes (the most any draw can read).
pub(crate) fn elements_that_fit(size: u64, offset: u64, stride: u32, element: u32) -> u64 {
    size.checked_sub(offset + u64::from(element))
        .map_or(0, |room| room / u64::from(stride.max(1)) + 1)
}

/// A vertex array object.
#[derive(Debug, Clone)]
pub(crate) struct VertexArray {
    /// Generic slots, then the fixed-function ones ([`FfArray::slot`]).
    pub attribs: [AttribArray; ATTRIB_SLOTS],
    /// The element array buffer's name (the name it had, once `element_retained` holds it).
    pub element_buffer: u32,
    /// Buffers deleted while this vertex array, not bound, held them: the arrays that read one
    /// name it by its private id ([`RetainedBuffer`]).
    pub retained: Vec<Arc<RetainedBuffer>>,
    /// The element array buffer, when it was deleted while this vertex array held it.
    pub element_retained: Option<Arc<RetainedBuffer>>,
    /// The vertex buffer binding points the generic attributes read (`binding`).
    pub bindings: binding::VertexBindings,
}

impl Default for VertexArray {
    fn default() -> Self {
        Self {
            attribs: [AttribArray::default(); ATTRIB_SLOTS],
            element_buffer: 0,
            retained: Vec::new(),
            element_retained: None,
            bindings: binding::VertexBindings::default(),
        }
    }
}

impl VertexArray {
    /// The deleted buffer an array names by private id `id`.
    pub(crate) fn retained_buffer(&self, id: u32) -> Option<&Buffer> {
        self.retained.iter().find(|r| r.id == id).map(|r| &r.buffer)
    }

    /// The name queries report for an array's buffer `id` (a private id reads as the name the
    /// deleted buffer had).
    pub(crate) fn buffer_name(&self, id: u32) -> u32 {
        self.retained
            .iter()
            .find(|r| r.id == id)
            .map_or(id, |r| r.name)
    }

    /// Whether an array or the element binding names the live buffer `name`.
    pub(crate) fn names_buffer(&self, name: u32) -> bool {
        self.reads_buffer(name) || (self.element_buffer == name && self.element_retained.is_none())
    }

    /// Keeps `r`, the buffer just deleted as `r.name`, wherever this vertex array names it.
    pub(crate) fn retain(&mut self, r: &Arc<RetainedBuffer>) {
        if self.reads_buffer(r.name) {
            self.rename_buffer(r.name, r.id);
            self.retained.push(r.clone());
        }
        if self.element_buffer == r.name && self.element_retained.is_none() {
            self.element_retained = Some(r.clone());
        }
    }

    /// Lets go of the deleted buffers no array names any more (an array respecified since);
    /// the last vertex array to let go of one retires its storage.
    pub(crate) fn prune(&mut self) {
        let retained = std::mem::take(&mut self.retained);
        self.retained = retained
            .into_iter()
            .filter(|r| self.reads_buffer(r.id))
            .collect();
    }
}

/// Validates a `glVertexAttrib(I)Pointer` call's size/type pair.
pub(crate) fn check_pointer(size: i32, ty: GLenum, integer: bool, stride: i32) -> GlResult<()> {
    if stride < 0 {
        return invalid_value(format!("negative stride {stride}"));
    }
    let int_types = [
        GL_BYTE,
        GL_UNSIGNED_BYTE,
        GL_SHORT,
        GL_UNSIGNED_SHORT,
        GL_INT,
        GL_UNSIGNED_INT,
    ];
    let ok_type = if integer {
        int_types.contains(&ty)
    } else {
        int_types.contains(&ty)
            || matches!(
                ty,
                GL_FLOAT
                    | GL_HALF_FLOAT
                    | GL_DOUBLE
                    | GL_FIXED
                    | GL_INT_2_10_10_10_REV
                    | GL_UNSIGNED_INT_2_10_10_10_REV
                    | GL_UNSIGNED_INT_10F_11F_11F_REV
            )
    };
    if !ok_type {
        return invalid_enum("vertex attribute type", ty);
    }
    if size == GL_BGRA as i32 && !integer {
        if !matches!(
            ty,
            GL_UNSIGNED_BYTE | GL_INT_2_10_10_10_REV | GL_UNSIGNED_INT_2_10_10_10_REV
        ) {
            return invalid_op("GL_BGRA size needs GL_UNSIGNED_BYTE or a packed type");
        }
        return Ok(());
    }
    if !(1..=4).contains(&size) {
        return invalid_value(format!("vertex attribute size {size}"));
    }
    if matches!(ty, GL_INT_2_10_10_10_REV | GL_UNSIGNED_INT_2_10_10_10_REV) && size != 4 {
        return invalid_op("packed 2_10_10_10 attributes need size 4");
    }
    if ty == GL_UNSIGNED_INT_10F_11F_11F_REV && size != 3 {
        return invalid_op("packed 10F_11F_11F attributes need size 3");
    }
    Ok(())
}

/// The Vulkan vertex format of an enabled array; `None` if the device path has none.
pub(crate) fn vertex_format(a: &AttribArray) -> Option<vk::Format> {
    use vk::Format as F;
    if a.size == GL_BGRA as i32 {
        return match a.ty {
            GL_UNSIGNED_BYTE => Some(F::B8G8R8A8_UNORM),
            GL_UNSIGNED_INT_2_10_10_10_REV => Some(F::A2R10G10B10_UNORM_PACK32),
            GL_INT_2_10_10_10_REV => Some(F::A2R10G10B10_SNORM_PACK32),
            _ => None,
        };
    }
    let n = a.size as usize - 1;
    let pick = |t: [F; 4]| Some(t[n]);
    if a.long {
        return long::vertex_format(a);
    }
    if a.integer {
        return match a.ty {
            GL_BYTE => pick([F::R8_SINT, F::R8G8_SINT, F::R8G8B8_SINT, F::R8G8B8A8_SINT]),
            GL_UNSIGNED_BYTE => pick([F::R8_UINT, F::R8G8_UINT, F::R8G8B8_UINT, F::R8G8B8A8_UINT]),
            GL_SHORT => pick([
                F::R16_SINT,
                F::R16G16_SINT,
                F::R16G16B16_SINT,
                F::R16G16B16A16_SINT,
            ]),
            GL_UNSIGNED_SHORT => pick([
                F::R16_UINT,
                F::R16G16_UINT,
                F::R16G16B16_UINT,
                F::R16G16B16A16_UINT,
            ]),
            GL_INT => pick([
                F::R32_SINT,
                F::R32G32_SINT,
                F::R32G32B32_SINT,
                F::R32G32B32A32_SINT,
            ]),
            GL_UNSIGNED_INT => pick([
                F::R32_UINT,
                F::R32G32_UINT,
                F::R32G32B32_UINT,
                F::R32G32B32A32_UINT,
            ]),
            _ => None,
        };
    }
    match (a.ty, a.normalized) {
        (GL_FLOAT, _) => pick([
            F::R32_SFLOAT,
            F::R32G32_SFLOAT,
            F::R32G32B32_SFLOAT,
            F::R32G32B32A32_SFLOAT,
        ]),
        (GL_HALF_FLOAT, _) => pick([
            F::R16_SFLOAT,
            F::R16G16_SFLOAT,
            F::R16G16B16_SFLOAT,
            F::R16G16B16A16_SFLOAT,
        ]),
        (GL_UNSIGNED_BYTE, true) => pick([
            F::R8_UNORM,
            F::R8G8_UNORM,
            F::R8G8B8_UNORM,
            F::R8G8B8A8_UNORM,
        ]),
        (GL_BYTE, true) => pick([
            F::R8_SNORM,
            F::R8G8_SNORM,
            F::R8G8B8_SNORM,
            F::R8G8B8A8_SNORM,
        ]),
        (GL_UNSIGNED_SHORT, true) => pick([
            F::R16_UNORM,
            F::R16G16_UNORM,
            F::R16G16B16_UNORM,
            F::R16G16B16A16_UNORM,
        ]),
        (GL_SHORT, true) => pick([
            F::R16_SNORM,
            F::R16G16_SNORM,
            F::R16G16B16_SNORM,
            F::R16G16B16A16_SNORM,
        ]),
        (GL_UNSIGNED_BYTE, false) => pick([
            F::R8_USCALED,
            F::R8G8_USCALED,
            F::R8G8B8_USCALED,
            F::R8G8B8A8_USCALED,
        ]),
        (GL_BYTE, false) => pick([
            F::R8_SSCALED,
            F::R8G8_SSCALED,
            F::R8G8B8_SSCALED,
            F::R8G8B8A8_SSCALED,
        ]),
        (GL_UNSIGNED_SHORT, false) => pick([
            F::R16_USCALED,
            F::R16G16_USCALED,
            F::R16G16B16_USCALED,
            F::R16G16B16A16_USCALED,
        ]),
        (GL_SHORT, false) => pick([
            F::R16_SSCALED,
            F::R16G16_SSCALED,
            F::R16G16B16_SSCALED,
            F::R16G16B16A16_SSCALED,
        ]),
        (GL_UNSIGNED_INT_2_10_10_10_REV, true) => Some(F::A2B10G10R10_UNORM_PACK32),
        (GL_INT_2_10_10_10_REV, true) => Some(F::A2B10G10R10_SNORM_PACK32),
        (GL_UNSIGNED_INT_2_10_10_10_REV, false) => Some(F::A2B10G10R10_USCALED_PACK32),
        (GL_INT_2_10_10_10_REV, false) => Some(F::A2B10G10R10_SSCALED_PACK32),
        (GL_UNSIGNED_INT_10F_11F_11F_REV, _) => Some(packed_float::VERTEX_FORMAT),
        _ => None,
    }
}

/// The format an enabled array feeds an input of numeric type `kind` through: its own format
/// (`vertex_format`) read as the input's type (`for_shader_input`). 32-bit integers given with
/// `glVertexAttribPointer` have no float-reading Vulkan format (they are converted to floats
/// for a float input); an integer input reads their bits as integers. `None`: none exists.
pub(crate) fn input_format(a: &AttribArray, kind: ScalarKind) -> Option<vk::Format> {
    if a.long || kind.is_64bit() {
        // 64-bit inputs read only `glVertexAttribLPointer` arrays, and those only them.
        return long::input_format(a, kind);
    }
    let integer_input = matches!(kind, ScalarKind::Int | ScalarKind::UInt);
    let format = vertex_format(a).or_else(|| {
        let as_integers = AttribArray {
            integer: true,
            ..*a
        };
        (integer_input && matches!(a.ty, GL_INT | GL_UNSIGNED_INT))
            .then(|| vertex_format(&as_integers))
            .flatten()
    })?;
    for_shader_input(format, kind)
}

/// Same-layout formats by component width (8, 16, 32 bits) and count (1–4), one table per
/// numeric type a shader input can have.
const SINT: [[vk::Format; 4]; 3] = {
    use vk::Format as F;
    [
        [F::R8_SINT, F::R8G8_SINT, F::R8G8B8_SINT, F::R8G8B8A8_SINT],
        [
            F::R16_SINT,
            F::R16G16_SINT,
            F::R16G16B16_SINT,
            F::R16G16B16A16_SINT,
        ],
        [
            F::R32_SINT,
            F::R32G32_SINT,
            F::R32G32B32_SINT,
            F::R32G32B32A32_SINT,
        ],
    ]
};
const UINT: [[vk::Format; 4]; 3] = {
    use vk::Format as F;
    [
        [F::R8_UINT, F::R8G8_UINT, F::R8G8B8_UINT, F::R8G8B8A8_UINT],
        [
            F::R16_UINT,
            F::R16G16_UINT,
            F::R16G16B16_UINT,
            F::R16G16B16A16_UINT,
        ],
        [
            F::R32_UINT,
            F::R32G32_UINT,
            F::R32G32B32_UINT,
            F::R32G32B32A32_UINT,
        ],
    ]
};
/// Float-reading formats: scaled integers for 8/16-bit signed and unsigned, and 32-bit floats.
const SSCALED: [[vk::Format; 4]; 3] = {
    use vk::Format as F;
    [
        [
            F::R8_SSCALED,
            F::R8G8_SSCALED,
            F::R8G8B8_SSCALED,
            F::R8G8B8A8_SSCALED,
        ],
        [
            F::R16_SSCALED,
            F::R16G16_SSCALED,
            F::R16G16B16_SSCALED,
            F::R16G16B16A16_SSCALED,
        ],
        [
            F::R32_SFLOAT,
            F::R32G32_SFLOAT,
            F::R32G32B32_SFLOAT,
            F::R32G32B32A32_SFLOAT,
        ],
    ]
};
const USCALED: [[vk::Format; 4]; 3] = {
    use vk::Format as F;
    [
        [
            F::R8_USCALED,
            F::R8G8_USCALED,
            F::R8G8B8_USCALED,
            F::R8G8B8A8_USCALED,
        ],
        [
            F::R16_USCALED,
            F::R16G16_USCALED,
            F::R16G16B16_USCALED,
            F::R16G16B16A16_USCALED,
        ],
        [
            F::R32_SFLOAT,
            F::R32G32_SFLOAT,
            F::R32G32B32_SFLOAT,
            F::R32G32B32A32_SFLOAT,
        ],
    ]
};

/// The (width index, count index) of an integer vertex format, and whether it is signed.
fn integer_layout(format: vk::Format) -> Option<(usize, usize, bool)> {
    for (signed, table) in [(true, &SINT), (false, &UINT)] {
        for (w, row) in table.iter().enumerate() {
            if let Some(n) = row.iter().position(|&f| f == format) {
                return Some((w, n, signed));
            }
        }
    }
    None
}

/// The format a vertex input of numeric type `kind` reads `format`'s bytes through. Vulkan
/// requires the format's numeric type to match the input's (integer formats for `int`/`uint`
/// inputs, of the same signedness); GL leaves the values undefined when the array's command
/// (`glVertexAttribPointer` vs `glVertexAttribIPointer`) does not match the input, and draws.
/// So the bytes keep their layout and change type: an integer array of the other signedness
/// reads as the input's (values past the signed range wrap), a float array feeding an integer
/// input reads its bits as integers, an integer array feeding a float input reads as scaled
/// integers (8/16-bit) or float bits (32-bit). `None`: no such format (packed data into integer
/// inputs).
pub(crate) fn for_shader_input(format: vk::Format, kind: ScalarKind) -> Option<vk::Format> {
    use vk::Format as F;
    let integer_input = matches!(kind, ScalarKind::Int | ScalarKind::UInt);
    let table = match kind {
        ScalarKind::Int => &SINT,
        ScalarKind::UInt => &UINT,
        _ => {
            return Some(match integer_layout(format) {
                Some((w, n, true)) => SSCALED[w][n],
                Some((w, n, false)) => USCALED[w][n],
                None => format,
            })
        }
    };
    if let Some((w, n, _)) = integer_layout(format) {
        return Some(table[w][n]);
    }
    debug_assert!(integer_input);
    // A float-reading format feeding an integer input: its bytes as integers of its width.
    let width_and_count = |rows: [[F; 4]; 4]| {
        rows.iter()
            .enumerate()
            .find_map(|(w, row)| row.iter().position(|&f| f == format).map(|n| (w, n)))
    };
    let (w, n) = width_and_count([
        [
            F::R8_UNORM,
            F::R8G8_UNORM,
            F::R8G8B8_UNORM,
            F::R8G8B8A8_UNORM,
        ],
        [
            F::R8_SNORM,
            F::R8G8_SNORM,
            F::R8G8B8_SNORM,
            F::R8G8B8A8_SNORM,
        ],
        [
            F::R8_USCALED,
            F::R8G8_USCALED,
            F::R8G8B8_USCALED,
            F::R8G8B8A8_USCALED,
        ],
        [
            F::R8_SSCALED,
            F::R8G8_SSCALED,
            F::R8G8B8_SSCALED,
            F::R8G8B8A8_SSCALED,
        ],
    ])
    .map(|(_, n)| (0, n))
    .or_else(|| {
        width_and_count([
            [
                F::R16_UNORM,
                F::R16G16_UNORM,
                F::R16G16B16_UNORM,
                F::R16G16B16A16_UNORM,
            ],
            [
                F::R16_SNORM,
                F::R16G16_SNORM,
                F::R16G16B16_SNORM,
                F::R16G16B16A16_SNORM,
            ],
            [
                F::R16_USCALED,
                F::R16G16_USCALED,
                F::R16G16B16_USCALED,
                F::R16G16B16A16_USCALED,
            ],
            [
                F::R16_SSCALED,
                F::R16G16_SSCALED,
                F::R16G16B16_SSCALED,
                F::R16G16B16A16_SSCALED,
            ],
        ])
        .map(|(_, n)| (1, n))
    })
    .or_else(|| {
        [
            F::R16_SFLOAT,
            F::R16G16_SFLOAT,
            F::R16G16B16_SFLOAT,
            F::R16G16B16A16_SFLOAT,
        ]
        .iter()
        .position(|&f| f == format)
        .map(|n| (1, n))
    })
    .or_else(|| {
        [
            F::R32_SFLOAT,
            F::R32G32_SFLOAT,
            F::R32G32B32_SFLOAT,
            F::R32G32B32A32_SFLOAT,
        ]
        .iter()
        .position(|&f| f == format)
        .map(|n| (2, n))
    })?;
    Some(table[w][n])
}

/// The floats of a `glVertexAttribP{n}ui` value: `n` components of a 2_10_10_10_REV word (x in
/// the low 10 bits, w in the top 2), the rest (0, 0, 0, 1). Signed normalized components map
/// to max(c / (2^(b-1) - 1), -1) (GL 4.2's rule, which Vulkan's SNORM formats share, so the
/// current value and an array of the same words read the same). `None`: `ty` is not a packed
/// type (GL_INVALID_ENUM).
pub(crate) fn unpack_2_10_10_10(
    ty: GLenum,
    n: usize,
    normalized: bool,
    word: u32,
) -> Option<[f32; 4]> {
    let signed = match ty {
        GL_INT_2_10_10_10_REV => true,
        GL_UNSIGNED_INT_2_10_10_10_REV => false,
        _ => return None,
    };
    let mut out = [0.0, 0.0, 0.0, 1.0];
    for (c, v) in out.iter_mut().enumerate().take(n.min(4)) {
        let bits = if c == 3 { 2 } else { 10 };
        let raw = (word >> (10 * c)) & ((1 << bits) - 1);
        *v = if signed {
            // Sign-extend the field.
            let x = ((raw << (32 - bits)) as i32) >> (32 - bits);
            if normalized {
                (x as f32 / ((1 << (bits - 1)) - 1) as f32).max(-1.0)
            } else {
                x as f32
            }
        } else if normalized {
            raw as f32 / ((1u32 << bits) - 1) as f32
        } else {
            raw as f32
        };
    }
    Some(out)
}

/// Bytes per component of an integer array (`glVertexAttribIPointer`) that feeds an integer
/// input of the other signedness through fewer than 32 bits: Vulkan can only read it through a
/// format of the input's signedness, which would zero-extend a `GL_BYTE` -25 into a `uvec4` or
/// sign-extend a `GL_UNSIGNED_BYTE` 200 into an `ivec4`, where GL converts the array's own
/// values (-25 → 0xFFFFFFE7, 200 → 200). Such arrays are widened to 32 bits ([`widen_integers`]).
pub(crate) fn needs_integer_widening(a: &AttribArray, input: ScalarKind) -> Option<usize> {
    if !a.integer {
        return None;
    }
    let (width, signed) = match a.ty {
        GL_BYTE => (1, true),
        GL_UNSIGNED_BYTE => (1, false),
        GL_SHORT => (2, true),
        GL_UNSIGNED_SHORT => (2, false),
        _ => return None,
    };
    match input {
        ScalarKind::Int if !signed => Some(width),
        ScalarKind::UInt if signed => Some(width),
        _ => None,
    }
}

/// Elements 0..=`last` of `raw` (laid out as `a` says, see [`needs_integer_widening`]) as
/// tightly packed 32-bit integers of the input's signedness: (bytes, stride, format).
pub(crate) fn widen_integers(
    a: &AttribArray,
    raw: &[u8],
    last: u32,
    input: ScalarKind,
) -> GlResult<(Vec<u8>, u32, vk::Format)> {
    let Some(width) = needs_integer_widening(a, input) else {
        return invalid_op("internal: widening an array that needs none");
    };
    let comps = a.size.clamp(1, 4) as usize;
    let out = pack_components(a, raw, last, width, |b| {
        let x: i64 = match (a.ty, b) {
            (GL_BYTE, &[x]) => i64::from(x as i8),
            (GL_UNSIGNED_BYTE, &[x]) => i64::from(x),
            (GL_SHORT, &[x, y]) => i64::from(i16::from_ne_bytes([x, y])),
            (_, &[x, y]) => i64::from(u16::from_ne_bytes([x, y])),
            _ => 0,
        };
        (x as u32).to_ne_bytes()
    })?;
    let formats = if input == ScalarKind::Int {
        SINT[2]
    } else {
        UINT[2]
    };
    Ok((out, (comps * 4) as u32, formats[comps - 1]))
}

/// The components of vertices 0..=`last` of `raw` (laid out as `a` says, each component
/// `width` bytes), each turned into one 32-bit word by `word`, packed tightly.
pub(crate) fn pack_components(
    a: &AttribArray,
    raw: &[u8],
    last: u32,
    width: usize,
    word: impl Fn(&[u8]) -> [u8; 4],
) -> GlResult<Vec<u8>> {
    let comps = a.size.clamp(1, 4) as usize;
    let stride = a.effective_stride() as usize;
    // Checked before allocating: `last` comes from the draw and can be any index.
    let needed = (last as usize)
        .checked_mul(stride)
        .and_then(|n| n.checked_add(comps * width));
    if needed.is_none_or(|n| n > raw.len()) {
        return invalid_op(format!(
            "the draw reads vertex {last} of an array holding {} bytes",
            raw.len()
        ));
    }
    let mut out = Vec::with_capacity((last as usize + 1) * comps * 4);
    for v in 0..=last as usize {
        for c in 0..comps {
            let at = v * stride + c * width;
            let Some(b) = raw.get(at..at + width) else {
                return invalid_op("vertex array shorter than the draw reads");
            };
            out.extend_from_slice(&word(b));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod repack_tests {
    use super::*;

    #[test]
    fn repack_moves_unaligned_elements_to_an_aligned_stride() {
        let src: Vec<u8> = (0..64).collect();
        // Two floats (8 bytes) every 9 bytes from offset 2.
        let (out, stride) = repack(&src, 2, 9, 8, 3);
        assert_eq!(stride, 8);
        assert_eq!(&out[..8], &src[2..10]);
        assert_eq!(&out[8..16], &src[11..19]);
        assert_eq!(&out[16..24], &src[20..28]);
        // Three bytes pad to four; elements past the end are left out.
        let (out, stride) = repack(&src, 60, 3, 3, 10);
        assert_eq!(stride, 4);
        assert_eq!(out, vec![60, 61, 62, 0]);
        assert_eq!(repack(&src, 63, 3, 3, 10).0.len(), 0);
    }

    #[test]
    fn elements_that_fit_counts_whole_elements() {
        assert_eq!(elements_that_fit(64, 2, 9, 8), 7);
        assert_eq!(elements_that_fit(64, 60, 3, 3), 1);
        assert_eq!(elements_that_fit(64, 62, 3, 3), 0);
    }

    #[test]
    fn misaligned_needs_component_alignment() {
        let float2 = |stride, offset| AttribArray {
            size: 2,
            stride,
            offset,
            ..AttribArray::default()
        };
        assert!(!float2(8, 4).misaligned());
        assert!(float2(9, 0).misaligned());
        assert!(float2(8, 2).misaligned());
        let bytes = AttribArray {
            ty: GL_UNSIGNED_BYTE,
            size: 3,
            stride: 3,
            offset: 1,
            ..AttribArray::default()
        };
        assert!(!bytes.misaligned());
    }
}

#[cfg(test)]
mod shader_input_tests {
    use super::*;
    use vk::Format as F;
    use ScalarKind::{Float, Int, UInt};

    /// Checks `for_shader_input` on (array format, shader input kind, expected format) cases.
    fn check(cases: &[(F, ScalarKind, Option<F>)]) {
        for &(array, input, expected) in cases {
            let got = for_shader_input(array, input);
            assert_eq!(got, expected, "{array:?} into a {input:?} input");
        }
    }

    #[test]
    fn integer_arrays_take_the_inputs_signedness_and_keep_their_layout() {
        check(&[
            (F::R8G8_UINT, Int, Some(F::R8G8_SINT)),
            (F::R16_SINT, UInt, Some(F::R16_UINT)),
            (F::R32G32B32A32_SINT, Int, Some(F::R32G32B32A32_SINT)),
        ]);
    }

    #[test]
    fn float_arrays_into_integer_inputs_read_their_bytes_as_integers() {
        check(&[
            (F::R32G32_SFLOAT, Int, Some(F::R32G32_SINT)),
            (F::R8G8B8A8_UNORM, UInt, Some(F::R8G8B8A8_UINT)),
            (F::R16_SSCALED, Int, Some(F::R16_SINT)),
            (F::R16G16_SFLOAT, Int, Some(F::R16G16_SINT)),
            (F::A2B10G10R10_UNORM_PACK32, Int, None),
        ]);
    }

    #[test]
    fn integer_arrays_into_float_inputs_read_as_scaled_integers() {
        check(&[
            (F::R8G8_SINT, Float, Some(F::R8G8_SSCALED)),
            (F::R16_UINT, Float, Some(F::R16_USCALED)),
            (F::R32_UINT, Float, Some(F::R32_SFLOAT)),
            (F::R32_SFLOAT, Float, Some(F::R32_SFLOAT)),
        ]);
    }

    #[test]
    fn narrow_integer_arrays_of_the_other_signedness_widen_with_their_own_extension() {
        let bytes = AttribArray {
            enabled: true,
            size: 4,
            ty: GL_BYTE,
            integer: true,
            ..Default::default()
        };
        assert_eq!(needs_integer_widening(&bytes, ScalarKind::Int), None);
        let raw = [50u8, 0, (-25i8) as u8, (-50i8) as u8];
        let (out, stride, format) = widen_integers(&bytes, &raw, 0, ScalarKind::UInt).unwrap();
        assert_eq!((stride, format), (16, vk::Format::R32G32B32A32_UINT));
        let words: Vec<u32> = out
            .chunks(4)
            .map(|w| u32::from_ne_bytes(w.try_into().unwrap()))
            .collect();
        assert_eq!(words, vec![50, 0, (-25i32) as u32, (-50i32) as u32]);
        let ushorts = AttribArray {
            size: 2,
            ty: GL_UNSIGNED_SHORT,
            ..bytes
        };
        let raw: Vec<u8> = [65535u16, 16000]
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect();
        let (out, _, format) = widen_integers(&ushorts, &raw, 0, ScalarKind::Int).unwrap();
        assert_eq!(format, vk::Format::R32G32_SINT);
        assert_eq!(&out[..4], &65535i32.to_ne_bytes());
        assert!(widen_integers(&ushorts, &raw[..2], 0, ScalarKind::Int).is_err());
    }

    #[test]
    fn packed_current_values_unpack_each_field() {
        // x = 1023, y = 512 (signed: -512), z = 1, w = 3 (signed: -1).
        let word = 1023 | (512 << 10) | (1 << 20) | (3 << 30);
        let u = unpack_2_10_10_10(GL_UNSIGNED_INT_2_10_10_10_REV, 4, false, word).unwrap();
        assert_eq!(u, [1023.0, 512.0, 1.0, 3.0]);
        let un = unpack_2_10_10_10(GL_UNSIGNED_INT_2_10_10_10_REV, 4, true, word).unwrap();
        assert_eq!(un, [1.0, 512.0 / 1023.0, 1.0 / 1023.0, 1.0]);
        let s = unpack_2_10_10_10(GL_INT_2_10_10_10_REV, 4, false, word).unwrap();
        assert_eq!(s, [-1.0, -512.0, 1.0, -1.0]);
        let sn = unpack_2_10_10_10(GL_INT_2_10_10_10_REV, 2, true, word).unwrap();
        assert_eq!(sn, [-1.0 / 511.0, -1.0, 0.0, 1.0]);
        assert_eq!(unpack_2_10_10_10(GL_INT, 1, false, word), None);
    }
}
