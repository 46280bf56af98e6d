//! cgroup v2 limits read from fixture trees laid out like `/proc/self/cgroup` and
//! `/sys/fs/cgroup`: the leaf's limit, the tightest ancestor's, `max` (no limit), and a cgroup v1
//! host (no answer rather than a wrong one).

use std::path::PathBuf;

use arenagl_residency::cgroup::read_cgroup_v2_limit_in;

fn fixture(name: &str) -> Option<u64> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cgroup")
        .join(name);
    read_cgroup_v2_limit_in(&root.join("proc_self_cgroup"), &root.join("sys/fs/cgroup"))
}

#[test]
fn the_leaf_limit_applies_under_an_unlimited_parent() {
    assert_eq!(fixture("v2-limited"), Some(2 << 30));
}

#[test]
fn a_tighter_ancestor_wins_over_the_leaf() {
    assert_eq!(fixture("v2-nested"), Some(1 << 30));
}

#[test]
fn max_everywhere_means_no_limit() {
    assert_eq!(fixture("v2-unlimited"), None);
}

#[test]
fn a_cgroup_v1_host_gives_no_limit() {
    assert_eq!(fixture("v1"), None);
}

#[test]
fn missing_files_give_no_limit() {
    assert_eq!(fixture("does-not-exist"), None);
}
