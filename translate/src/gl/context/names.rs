//! GL object name spaces: `glGen*` reserves names, the first bind creates the object.

use std::collections::HashMap;

/// One name space (buffers, textures, …). Name 0 is never handed out.
pub(crate) struct Names<T> {
    objects: HashMap<u32, Option<T>>,
    next: u32,
}

impl<T> Default for Names<T> {
    fn default() -> Self {
        Self {
            objects: HashMap::new(),
            next: 1,
        }
    }
}

impl<T> Names<T> {
    /// Reserves `n` unused names (`glGen*`).
    pub(crate) fn generate(&mut self, n: usize) -> Vec<u32> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let name = self.next;
            self.next = self.next.wrapping_add(1).max(1);
            if let std::collections::hash_map::Entry::Vacant(e) = self.objects.entry(name) {
                e.insert(None);
                out.push(name);
            }
        }
        out
    }

    /// Reserves one specific name, as the compatibility profile does for names a program never
    /// generated (`glBeginQuery` on any non-zero name). Returns false for 0.
    pub(crate) fn reserve(&mut self, name: u32) -> bool {
        if name == 0 {
            return false;
        }
        self.objects.entry(name).or_insert(None);
        true
    }

    /// Creates the object of a reserved (or new) name at once (`glCreateShader`-style).
    pub(crate) fn insert_new(&mut self, value: T) -> u32 {
        let name = self.generate(1)[0];
        self.objects.insert(name, Some(value));
        name
    }

    /// Whether `name` was generated and not deleted.
    pub(crate) fn is_reserved(&self, name: u32) -> bool {
        self.objects.contains_key(&name)
    }

    /// Whether `name` names a created object (`glIs*`).
    pub(crate) fn exists(&self, name: u32) -> bool {
        matches!(self.objects.get(&name), Some(Some(_)))
    }

    pub(crate) fn get(&self, name: u32) -> Option<&T> {
        self.objects.get(&name)?.as_ref()
    }

    pub(crate) fn get_mut(&mut self, name: u32) -> Option<&mut T> {
        self.objects.get_mut(&name)?.as_mut()
    }

    /// The object of a reserved name, created by `make` on first use (`glBind*`). `None` if the
    /// name was never generated.
    pub(crate) fn get_or_create(&mut self, name: u32, make: impl FnOnce() -> T) -> Option<&mut T> {
        let slot = self.objects.get_mut(&name)?;
        Some(slot.get_or_insert_with(make))
    }

    /// Frees the name; returns the object if it had been created.
    pub(crate) fn remove(&mut self, name: u32) -> Option<T> {
        self.objects.remove(&name).flatten()
    }

    /// The names of every created object.
    pub(crate) fn created(&self) -> Vec<u32> {
        self.objects
            .iter()
            .filter_map(|(&name, v)| v.as_ref().map(|_| name))
            .collect()
    }

    /// Every created object (teardown).
    pub(crate) fn drain(&mut self) -> impl Iterator<Item = T> + '_ {
        self.objects.drain().filter_map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_names_are_unique_and_nonzero_and_created_on_bind() {
        let mut n: Names<u8> = Names::default();
        let a = n.generate(3);
        assert_eq!(a.len(), 3);
        assert!(a.iter().all(|&x| x != 0));
        assert!(n.is_reserved(a[0]) && !n.exists(a[0]));
        assert_eq!(n.get_or_create(a[0], || 7).copied(), Some(7));
        assert!(n.exists(a[0]));
        assert!(n.get_or_create(999, || 1).is_none());
        assert_eq!(n.remove(a[0]), Some(7));
        assert!(!n.is_reserved(a[0]));
    }

    #[test]
    fn reserving_a_chosen_name_keeps_generate_away_from_it() {
        let mut n: Names<u8> = Names::default();
        assert!(!n.reserve(0), "0 is never a name");
        assert!(n.reserve(2));
        assert!(n.is_reserved(2) && !n.exists(2));
        assert_eq!(n.get_or_create(2, || 5).copied(), Some(5));
        assert!(n.reserve(2), "reserving a live name keeps its object");
        assert_eq!(n.get(2).copied(), Some(5));
        let generated = n.generate(3);
        assert!(!generated.contains(&2), "{generated:?}");
    }
}
