//! GL object name spaces: `glGen*` reserves names, the first bind creates the object.
//!
//! A name can also be *buried*: its object was deleted by one context of a share group while
//! another may still have it bound (`share_group`). The object stays filed under the name, so
//! those bindings keep reaching it through [`Names::get`], but for every call that takes a name
//! it is gone: `glIs*` says false, binding it fails, `glGen*` does not hand it out again.

use std::collections::HashSet;

use crate::gl::vk::fast_hash::FastHashMap;

/// One name space (buffers, textures, …). Name 0 is never handed out.
pub(crate) struct Names<T> {
    /// Hashed with the translator's fast hasher: draws look several names up each (issue 20),
    /// and GL names are the application's own, not an attacker's.
    objects: FastHashMap<u32, Option<T>>,
    /// Names whose object lives on only for other contexts' bindings.
    buried: HashSet<u32>,
    next: u32,
}

impl<T> Default for Names<T> {
    fn default() -> Self {
        Self {
            objects: FastHashMap::default(),
            buried: HashSet::new(),
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

    /// Reserves `n` unused names and creates each one's object at once (`glCreate*`).
    pub(crate) fn create(&mut self, n: usize, make: impl Fn() -> T) -> Vec<u32> {
        let names = self.generate(n);
        for &name in &names {
            self.objects.insert(name, Some(make()));
        }
        names
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
        self.objects.contains_key(&name) && !self.buried.contains(&name)
    }

    /// Whether the table holds `name` in any state (reserved, created or buried).
    pub(crate) fn occupies(&self, name: u32) -> bool {
        self.objects.contains_key(&name)
    }

    /// Whether `name` names a created object (`glIs*`).
    pub(crate) fn exists(&self, name: u32) -> bool {
        matches!(self.objects.get(&name), Some(Some(_))) && !self.buried.contains(&name)
    }

    /// Frees `name` for the calls that take names while its object stays reachable by
    /// [`Names::get`] (see the module header). False when no object was created under it.
    pub(crate) fn bury(&mut self, name: u32) -> bool {
        matches!(self.objects.get(&name), Some(Some(_))) && self.buried.insert(name)
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
        if self.buried.contains(&name) {
            return None;
        }
        let slot = self.objects.get_mut(&name)?;
        Some(slot.get_or_insert_with(make))
    }

    /// Frees the name; returns the object if it had been created.
    pub(crate) fn remove(&mut self, name: u32) -> Option<T> {
        self.buried.remove(&name);
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
        self.buried.clear();
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

    #[test]
    fn a_buried_name_keeps_its_object_for_get_only() {
        let mut n: Names<u8> = Names::default();
        let a = n.generate(2);
        assert!(!n.bury(a[0]), "a name without an object is not buried");
        n.get_or_create(a[0], || 4);
        assert!(n.bury(a[0]));
        assert!(n.occupies(a[0]));
        assert!(!n.exists(a[0]) && !n.is_reserved(a[0]));
        assert!(
            n.get_or_create(a[0], || 9).is_none(),
            "binding a buried name fails"
        );
        assert_eq!(
            n.get(a[0]).copied(),
            Some(4),
            "bindings still reach the object"
        );
        assert!(
            !n.generate(64).contains(&a[0]),
            "never handed out while buried"
        );
        assert_eq!(n.remove(a[0]), Some(4));
        assert!(!n.occupies(a[0]));
    }
}
