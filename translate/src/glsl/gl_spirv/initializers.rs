//! Loose uniforms' initializers (`OpVariable … UniformConstant %initializer`): the GL layer
//! writes them into the default block at the link, as it does GLSL's `uniform T u = …;`.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use super::module::{op, opcode, Sections};
use super::uniforms::{Scalar, Shape};
use crate::glsl::initializers::Initializer;

/// The module's constants by id: (opcode, operands after the result id).
fn constants(s: &Sections) -> HashMap<u32, (u16, &[u32])> {
    s.globals
        .iter()
        .filter(|i| {
            matches!(
                opcode(i),
                op::CONSTANT
                    | op::CONSTANT_COMPOSITE
                    | op::CONSTANT_TRUE
                    | op::CONSTANT_FALSE
                    | op::CONSTANT_NULL
            ) && i.len() >= 3
        })
        .map(|i| (i[2], (opcode(i), &i[3..])))
        .collect()
}

/// The GL uniforms (names as reflection flattens them) the initializer `value` of a uniform of
/// `shape` called `name` sets, with their values in GL's order.
pub(super) fn initializers(
    s: &Sections,
    name: &str,
    shape: &Shape,
    value: u32,
) -> Vec<Initializer> {
    let constants = constants(s);
    let mut out = Vec::new();
    collect(&constants, name, shape, Some(value), &mut out);
    out
}

fn collect(
    constants: &HashMap<u32, (u16, &[u32])>,
    name: &str,
    shape: &Shape,
    value: Option<u32>,
    out: &mut Vec<Initializer>,
) {
    let parts = |i: usize| match value.and_then(|v| constants.get(&v)) {
        Some((op::CONSTANT_COMPOSITE, ids)) => ids.get(i).copied(),
        _ => None,
    };
    match shape {
        Shape::Struct(members) => {
            for (i, m) in members.iter().enumerate() {
                collect(constants, &format!("{name}.m{i}"), m, parts(i), out);
            }
        }
        Shape::Array(e, n) if matches!(**e, Shape::Struct(_) | Shape::Array(..)) => {
            for i in 0..*n as usize {
                collect(constants, &format!("{name}[{i}]"), e, parts(i), out);
            }
        }
        _ => {
            let mut values = Vec::new();
            leaves(constants, shape, value, &mut values);
            out.push(Initializer {
                name: name.to_owned(),
                values,
            });
        }
    }
}

/// The scalars of a non-struct value, in GL's (column-major) order; zeros where unknown.
fn leaves(
    constants: &HashMap<u32, (u16, &[u32])>,
    shape: &Shape,
    value: Option<u32>,
    out: &mut Vec<f64>,
) {
    let found = value.and_then(|v| constants.get(&v));
    let (element, count) = match shape {
        Shape::Scalar(s) => {
            out.push(scalar(*s, found));
            return;
        }
        Shape::Vector(s, n) => (Shape::Scalar(*s), *n),
        Shape::Matrix {
            column,
            rows,
            columns,
        } => (Shape::Vector(*column, *rows), *columns),
        Shape::Array(e, n) => ((**e).clone(), *n),
        Shape::Struct(_) => return,
    };
    for i in 0..count as usize {
        let part = match found {
            Some((op::CONSTANT_COMPOSITE, ids)) => ids.get(i).copied(),
            _ => None,
        };
        leaves(constants, &element, part, out);
    }
}

fn scalar(s: Scalar, found: Option<&(u16, &[u32])>) -> f64 {
    let Some((code, words)) = found else {
        return 0.0;
    };
    let low = words.first().copied().unwrap_or(0);
    let wide = u64::from(low) | (u64::from(words.get(1).copied().unwrap_or(0)) << 32);
    match (*code, s) {
        (op::CONSTANT_TRUE, _) => 1.0,
        (op::CONSTANT, Scalar::Float(32)) => f64::from(f32::from_bits(low)),
        (op::CONSTANT, Scalar::Float(_)) => f64::from_bits(wide),
        (op::CONSTANT, Scalar::Int(32)) => f64::from(low as i32),
        (op::CONSTANT, Scalar::Int(_)) => wide as i64 as f64,
        (op::CONSTANT, Scalar::UInt(32)) => f64::from(low),
        (op::CONSTANT, Scalar::UInt(_)) => wide as f64,
        _ => 0.0,
    }
}
