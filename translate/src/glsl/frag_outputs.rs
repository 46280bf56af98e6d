//! `glBindFragDataLocation` / `glBindFragDataLocationIndexed` applied to a linked fragment
//! stage's SPIR-V.
//!
//! Design decisions:
//! - The bindings are applied to the module, after glslang's location mapping and before
//!   reflection, so the pipeline, `glGetFragDataLocation` and `glGetFragDataIndex` all read
//!   the same (location, index) pairs from the one source of truth.
//! - A bound output's `Location` decoration is rewritten in place and its `Index` decoration
//!   rewritten or added (index 1 is the second input of dual-source blending).
//! - Unbound outputs keep the location the shader or glslang gave them, unless a bound output
//!   now holds it: then they move to the lowest free location (index 0), as GL's linker
//!   assigns unbound outputs around the bound ones.
//! - Names are the application's: the legacy upgrader's keyword prefix is ignored.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use super::legacy::USER_PREFIX;
use super::spirv::{decoration, op, Module, ParseError, StorageClass};

/// A bound output: (location, index).
pub type FragBinding = (u32, u32);

/// Applies `bindings` (output name → (location, index)) to a fragment module. Returns whether
/// the module changed.
pub(crate) fn bind_frag_outputs(
    words: &mut Vec<u32>,
    bindings: &HashMap<String, FragBinding>,
) -> Result<bool, ParseError> {
    if bindings.is_empty() {
        return Ok(false);
    }
    let module = Module::parse(words)?;
    // Every user output: (id, its binding if any, its current location).
    let outputs: Vec<(u32, Option<FragBinding>, Option<u32>)> = module
        .variables
        .iter()
        .filter(|v| {
            v.storage == StorageClass::Output && !module.has_decoration(v.id, decoration::BUILT_IN)
        })
        .map(|v| {
            let name = module.name(v.id);
            let name = name.strip_prefix(USER_PREFIX).unwrap_or(name);
            (
                v.id,
                bindings.get(name).copied(),
                module.decoration(v.id, decoration::LOCATION),
            )
        })
        .collect();
    let bound: Vec<FragBinding> = outputs.iter().filter_map(|o| o.1).collect();
    if bound.is_empty() {
        return Ok(false);
    }
    let mut wanted: HashMap<u32, FragBinding> = HashMap::new();
    let mut next_free = 0u32;
    for &(id, binding, location) in &outputs {
        match (binding, location) {
            (Some(b), _) => {
                wanted.insert(id, b);
            }
            (None, Some(loc)) if bound.contains(&(loc, 0)) => {
                while bound.iter().any(|b| b.0 == next_free)
                    || outputs
                        .iter()
                        .any(|o| o.1.is_none() && o.2 == Some(next_free))
                {
                    next_free += 1;
                }
                wanted.insert(id, (next_free, 0));
                next_free += 1;
            }
            _ => {}
        }
    }
    let mut has_index: Vec<u32> = Vec::new();
    let mut location_at: HashMap<u32, usize> = HashMap::new();
    let mut at = 5;
    while at < words.len() {
        let count = ((words[at] >> 16) as usize).max(1);
        let opcode = (words[at] & 0xffff) as u16;
        if opcode == op::DECORATE && count >= 4 && at + 3 < words.len() {
            let (target, deco) = (words[at + 1], words[at + 2]);
            if let Some(&(location, index)) = wanted.get(&target) {
                if deco == decoration::LOCATION {
                    words[at + 3] = location;
                    location_at.insert(target, at);
                } else if deco == decoration::INDEX {
                    words[at + 3] = index;
                    has_index.push(target);
                }
            }
        }
        at += count;
    }
    // Index decorations the module lacks go right after the output's Location decoration
    // (annotations stay together); inserted from the back so earlier offsets stay valid.
    let mut inserts: Vec<(usize, u32, u32)> = wanted
        .iter()
        .filter(|(id, b)| b.1 != 0 && !has_index.contains(id))
        .filter_map(|(id, b)| location_at.get(id).map(|&at| (at + 4, *id, b.1)))
        .collect();
    inserts.sort_unstable_by_key(|b| std::cmp::Reverse(b.0));
    for (at, id, index) in inserts {
        let decorate = [
            (4 << 16) | u32::from(op::DECORATE),
            id,
            decoration::INDEX,
            index,
        ];
        words.splice(at..at, decorate);
    }
    Ok(true)
}
