//! Linux cgroup v2 memory limits.
//!
//! Design decisions:
//! - Parsing is pure: every function takes file *contents* as strings, so tests never touch the
//!   real `/proc` or `/sys`. Only [`read_cgroup_v2_limit`] does I/O, and it is a few lines.
//! - Only cgroup v2 is read. A cgroup v1 layout (no `0::` line in `/proc/self/cgroup`) gives
//!   `None`: the host's available RAM then stands alone, which is the safe side of a container
//!   we cannot see into.
//! - The effective limit is the tightest `memory.max` from the process's own cgroup up to the
//!   root: a leaf reading `max` can still sit under a limited parent (systemd slices do this).
//! - Anything unreadable or malformed counts as "no information", never as a panic or an error:
//!   the limit is one input among several and a missing one only makes the budget rely on others.

use std::path::{Path, PathBuf};

/// Where the unified hierarchy is mounted on every mainstream distribution.
pub const CGROUP_V2_MOUNT: &str = "/sys/fs/cgroup";

/// The value of one `memory.max` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryMax {
    /// The literal `max`: this level imposes no limit.
    Unlimited,
    /// A hard limit in bytes.
    Bytes(u64),
}

/// The cgroup v2 path of this process from the contents of `/proc/self/cgroup`.
///
/// Under cgroup v2 the file has one line `0::<path>`; under a hybrid layout that line sits
/// beside the v1 controller lines. Returns `None` for a pure v1 layout, for a malformed file and
/// for a path that is not absolute or that climbs with `..` (seen when a process is outside its
/// cgroup namespace: the path would not name a directory under our mount).
pub fn parse_proc_self_cgroup(contents: &str) -> Option<&str> {
    let path = contents
        .lines()
        .find_map(|line| line.trim_end().strip_prefix("0::"))?;
    if !path.starts_with('/') || path.split('/').any(|part| part == "..") {
        return None;
    }
    Some(path)
}

/// The `memory.max` files that bound a process in cgroup `path` (as given by
/// [`parse_proc_self_cgroup`]), leaf first, under the hierarchy mounted at `mount`.
///
/// The root cgroup has no `memory.max`, so it is not listed.
pub fn memory_max_files(mount: &Path, path: &str) -> Vec<PathBuf> {
    let parts: Vec<&str> = path.split('/').filter(|part| !part.is_empty()).collect();
    (1..=parts.len())
        .rev()
        .map(|depth| {
            let mut dir = mount.to_path_buf();
            dir.extend(&parts[..depth]);
            dir.join("memory.max")
        })
        .collect()
}

/// Parses the contents of one `memory.max` file: `max` or a byte count, with a trailing newline.
pub fn parse_memory_max(contents: &str) -> Option<MemoryMax> {
    let value = contents.trim();
    if value == "max" {
        return Some(MemoryMax::Unlimited);
    }
    value.parse::<u64>().ok().map(MemoryMax::Bytes)
}

/// The tightest limit among the `memory.max` contents of a cgroup and its ancestors.
///
/// `None` entries are files that could not be read (no memory controller at that level, or the
/// file is missing); malformed contents are skipped the same way. Returns `None` when no level
/// imposes a limit.
pub fn tightest_limit<'a>(contents: impl IntoIterator<Item = Option<&'a str>>) -> Option<u64> {
    contents
        .into_iter()
        .filter_map(|file| file.and_then(parse_memory_max))
        .filter_map(|max| match max {
            MemoryMax::Unlimited => None,
            MemoryMax::Bytes(bytes) => Some(bytes),
        })
        .min()
}

/// The cgroup v2 memory limit of this process, read from the real files; `None` when there is
/// none or it cannot be read.
pub fn read_cgroup_v2_limit() -> Option<u64> {
    read_cgroup_v2_limit_in(Path::new("/proc/self/cgroup"), Path::new(CGROUP_V2_MOUNT))
}

/// [`read_cgroup_v2_limit`] with the `/proc/self/cgroup` file and the cgroup v2 mount given
/// (fixture trees in tests, a container's paths).
pub fn read_cgroup_v2_limit_in(proc_self_cgroup: &Path, mount: &Path) -> Option<u64> {
    let self_cgroup = std::fs::read_to_string(proc_self_cgroup).ok()?;
    let path = parse_proc_self_cgroup(&self_cgroup)?;
    let files: Vec<Option<String>> = memory_max_files(mount, path)
        .iter()
        .map(|file| std::fs::read_to_string(file).ok())
        .collect();
    tightest_limit(files.iter().map(Option::as_deref))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_max_literal_max_is_unlimited() {
        assert_eq!(parse_memory_max("max\n"), Some(MemoryMax::Unlimited));
    }

    #[test]
    fn memory_max_number_is_bytes() {
        assert_eq!(
            parse_memory_max("4294967296\n"),
            Some(MemoryMax::Bytes(4 << 30))
        );
        assert_eq!(parse_memory_max("0"), Some(MemoryMax::Bytes(0)));
    }

    #[test]
    fn memory_max_garbage_is_none() {
        assert_eq!(parse_memory_max(""), None);
        assert_eq!(parse_memory_max("-1"), None);
        assert_eq!(parse_memory_max("4G"), None);
        assert_eq!(parse_memory_max("99999999999999999999999"), None);
    }

    #[test]
    fn proc_self_cgroup_v2() {
        let contents = "0::/user.slice/user-1000.slice/session-2.scope\n";
        assert_eq!(
            parse_proc_self_cgroup(contents),
            Some("/user.slice/user-1000.slice/session-2.scope")
        );
        // Inside a container with a cgroup namespace the process sits at the root.
        assert_eq!(parse_proc_self_cgroup("0::/\n"), Some("/"));
    }

    #[test]
    fn proc_self_cgroup_v1_layout_is_none() {
        let v1 = "12:memory:/docker/abc\n11:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n";
        assert_eq!(parse_proc_self_cgroup(v1), None);
        assert_eq!(parse_proc_self_cgroup(""), None);
    }

    #[test]
    fn proc_self_cgroup_hybrid_layout_finds_unified_line() {
        let hybrid = "12:memory:/user.slice\n0::/user.slice/app.scope\n";
        assert_eq!(
            parse_proc_self_cgroup(hybrid),
            Some("/user.slice/app.scope")
        );
    }

    #[test]
    fn proc_self_cgroup_outside_namespace_is_none() {
        assert_eq!(parse_proc_self_cgroup("0::/../../init.scope\n"), None);
        assert_eq!(parse_proc_self_cgroup("0::relative\n"), None);
    }

    #[test]
    fn files_run_from_leaf_to_top_level() {
        let files = memory_max_files(Path::new("/sys/fs/cgroup"), "/a.slice/b.scope");
        assert_eq!(
            files,
            vec![
                PathBuf::from("/sys/fs/cgroup/a.slice/b.scope/memory.max"),
                PathBuf::from("/sys/fs/cgroup/a.slice/memory.max"),
            ]
        );
        assert!(memory_max_files(Path::new("/sys/fs/cgroup"), "/").is_empty());
    }

    #[test]
    fn tightest_limit_takes_minimum_and_skips_unknowns() {
        // Leaf unlimited, parent limited: the parent binds.
        assert_eq!(
            tightest_limit([Some("max\n"), Some("8589934592\n")]),
            Some(8 << 30)
        );
        // Missing files (no memory controller at that level) and garbage are skipped.
        assert_eq!(
            tightest_limit([None, Some("oops"), Some("1073741824")]),
            Some(1 << 30)
        );
        assert_eq!(tightest_limit([Some("max"), None]), None);
        assert_eq!(tightest_limit(std::iter::empty()), None);
    }
}
