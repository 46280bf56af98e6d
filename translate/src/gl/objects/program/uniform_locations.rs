//! GL_ARB_explicit_uniform_location: `layout(location = N) uniform` places a uniform at `N`
//! (an array or a struct takes consecutive locations from there), the other uniforms fill the
//! locations left free, in order.
//!
//! Design decisions:
//! - The locations are read from the application's sources (`glsl::rendezvous`), since the
//!   SPIR-V keeps none for default-block members; one name declared in several stages of a
//!   program must carry one location.
//! - A program's location table ([`Linked::locations`](super::Linked)) may then have holes:
//!   [`FREE`] for a location no uniform has (`glUniform*` there is `GL_INVALID_OPERATION`) and
//!   [`RESERVED`] for the location of an explicitly placed uniform the link found inactive
//!   (`glUniform*` there is ignored, as the extension says).
//! - Overlapping locations and locations at or past [`MAX_UNIFORM_LOCATIONS`] are link errors.

use super::ActiveUniform;

/// `GL_MAX_UNIFORM_LOCATIONS`: GL 4.3's minimum.
pub(crate) const MAX_UNIFORM_LOCATIONS: u32 = 1024;
/// A location entry no uniform holds.
pub(crate) const FREE: (usize, u32) = (usize::MAX, 0);
/// A location entry an inactive, explicitly placed uniform holds.
pub(crate) const RESERVED: (usize, u32) = (usize::MAX, 1);

/// The location table of `uniforms` (the located ones: `location` is `Some`) with `explicit`
/// (name, location) applied; each located uniform's `location` is rewritten. `Err` holds the
/// link error.
pub(crate) fn place(
    uniforms: &mut [ActiveUniform],
    explicit: &[(String, u32)],
) -> Result<Vec<(usize, u32)>, String> {
    let mut table: Vec<(usize, u32)> = Vec::new();
    let mut placed = vec![false; uniforms.len()];
    let mut seen: Vec<(&str, u32)> = Vec::new();
    for (name, at) in explicit {
        match seen.iter().find(|(n, _)| n == name) {
            Some((_, other)) if other == at => continue,
            Some((_, other)) => {
                return Err(format!(
                    "uniform '{name}' is declared at locations {other} and {at}"
                ))
            }
            None => seen.push((name, *at)),
        }
        let mut next = *at;
        let members: Vec<usize> = (0..uniforms.len())
            .filter(|&i| uniforms[i].location.is_some() && head(&uniforms[i].name) == name)
            .collect();
        if members.is_empty() {
            take(&mut table, next, RESERVED, name)?;
        }
        for i in members {
            uniforms[i].location = Some(next as i32);
            for e in 0..uniforms[i].size {
                take(&mut table, next, (i, e), name)?;
                next += 1;
            }
            placed[i] = true;
        }
    }
    for (i, u) in uniforms.iter_mut().enumerate() {
        if u.location.is_none() || placed[i] {
            continue;
        }
        let start = first_free_run(&table, u.size);
        u.location = Some(start as i32);
        for e in 0..u.size {
            take(&mut table, start + e, (i, e), &u.name)?;
        }
    }
    Ok(table)
}

/// The uniform name's first component (`s` of `s.a[2]`).
fn head(name: &str) -> &str {
    &name[..name.find(['.', '[']).unwrap_or(name.len())]
}

/// Puts `entry` at `location`: a link error when it is out of range or already taken.
fn take(
    table: &mut Vec<(usize, u32)>,
    location: u32,
    entry: (usize, u32),
    name: &str,
) -> Result<(), String> {
    if location >= MAX_UNIFORM_LOCATIONS {
        return Err(format!(
            "uniform '{name}' needs location {location}, past GL_MAX_UNIFORM_LOCATIONS ({MAX_UNIFORM_LOCATIONS})"
        ));
    }
    let at = location as usize;
    if table.len() <= at {
        table.resize(at + 1, FREE);
    }
    if table[at] != FREE {
        return Err(format!(
            "uniform '{name}' overlaps another uniform at location {location}"
        ));
    }
    table[at] = entry;
    Ok(())
}

/// The first location from which `size` locations are free.
fn first_free_run(table: &[(usize, u32)], size: u32) -> u32 {
    let free = |l: usize| table.get(l).is_none_or(|&e| e == FREE);
    let mut start = 0usize;
    while !(start..start + size as usize).all(free) {
        start += 1;
    }
    start as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl::objects::program::UniformStorage;
    use crate::glsl::GlType;

    fn uniform(name: &str, size: u32) -> ActiveUniform {
        ActiveUniform {
            name: name.into(),
            ty: GlType::Float,
            size,
            storage: UniformStorage::Sampler(0),
            location: Some(0),
        }
    }

    #[test]
    fn explicit_uniforms_take_their_locations_and_the_rest_fill_around() {
        let mut u = vec![
            uniform("a", 1),
            uniform("arr[0]", 3),
            uniform("s.x", 1),
            uniform("s.y", 1),
            uniform("b", 2),
        ];
        let explicit = [
            ("arr".to_owned(), 1),
            ("s".to_owned(), 5),
            ("gone".to_owned(), 8),
        ];
        let table = place(&mut u, &explicit).expect("places");
        let at: Vec<_> = u.iter().map(|u| u.location.unwrap()).collect();
        assert_eq!(at, [0, 1, 5, 6, 9]);
        assert_eq!(table[4], FREE);
        assert_eq!(table[8], RESERVED);
        assert_eq!(table[2], (1, 1));
        assert_eq!(table[10], (4, 1));
    }

    #[test]
    fn overlaps_and_out_of_range_locations_do_not_link() {
        let mut u = vec![uniform("a", 2), uniform("b", 1)];
        let overlap = [("a".to_owned(), 3), ("b".to_owned(), 4)];
        assert!(place(&mut u, &overlap).is_err());
        let far = [("a".to_owned(), 1023)];
        assert!(place(&mut u, &far).is_err());
        let twice = [("a".to_owned(), 1), ("a".to_owned(), 2)];
        assert!(place(&mut u, &twice).is_err());
        let same = [("a".to_owned(), 1), ("a".to_owned(), 1)];
        assert!(place(&mut u, &same).is_ok());
    }
}
