//! Transform feedback a GL module declares (`Xfb` mode; `XfbBuffer`, `XfbStride` and `Offset`
//! on outputs): Vulkan's VK_EXT_transform_feedback reads the same decorations, so the module
//! captures as it is, and the GL layer gets the layout (buffers, strides, varyings) that GLSL's
//! `xfb_*` qualifiers give (`glsl::xfb::resolve_declared`), read from the decorations.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use super::module::{op, opcode, Sections};
use crate::glsl::spirv::{Module, StorageClass, Type};
use crate::glsl::xfb::XfbLayout;

const DECORATION_BLOCK: u32 = 2;
const DECORATION_XFB_BUFFER: u32 = 36;

/// The capture layout of the last stage before the rasteriser `s` (`m`, parsed), `None` when it
/// declares none. SPIR-V's names are optional: unnamed outputs and block members get names
/// first, since the layout names its varyings.
pub(super) fn declared(s: &Sections, m: &Module) -> Result<Option<XfbLayout>, String> {
    let declares = s
        .annotations
        .iter()
        .any(|i| opcode(i) == op::DECORATE && i.get(2) == Some(&DECORATION_XFB_BUFFER));
    if !declares {
        return Ok(None);
    }
    let mut named = s.clone();
    for var in m
        .variables
        .iter()
        .filter(|v| v.storage == StorageClass::Output)
    {
        if !m.names.contains_key(&var.id) {
            named.name(var.id, &format!("spirv_output_{}", var.id));
        }
    }
    for (&ty, t) in &m.types {
        let Type::Struct { members } = t else {
            continue;
        };
        if m.has_decoration(ty, DECORATION_BLOCK) && !m.names.contains_key(&ty) {
            named.name(ty, &format!("spirv_block_{ty}"));
        }
        for i in 0..members.len() as u32 {
            let unnamed = m.member_names.get(&(ty, i)).is_none_or(|n| n.is_empty());
            if unnamed {
                named.name_member(ty, i, &format!("m{i}"));
            }
        }
    }
    crate::glsl::xfb::resolve_declared(&named.words())
}
