//! The ownership rule, checked mechanically: nothing outside `memory/` allocates device memory,
//! uses VMA, or submits to a queue. The memory manager owns all three; every other crate
//! requests and retires memory through it.

use std::path::{Path, PathBuf};

/// Patterns that mean "allocating device memory, using VMA, or submitting" in Rust source: calls
/// (ash's methods, raw entry points) and any path into the VMA crate. Prose that merely names
/// `vkAllocateMemory` (statistics labels, comments) is not a call and does not match.
/// (Spelled in pieces so that a plain grep for the patterns does not flag this file.)
const FORBIDDEN_IN_SOURCE: &[&str] = &[
    concat!("allocate", "_memory("),
    concat!("vkAllocate", "Memory("),
    concat!("vk_mem", "::"),
    concat!("vk_mem", " ::"),
    concat!("vma", "Create"),
    concat!("vma", "Allocate"),
    concat!("queue", "_submit("),
    concat!("queue", "_submit2("),
    concat!("vkQueue", "Submit("),
    concat!("vkQueue", "Submit2("),
    // Presenting is a queue operation too: the manager owns the queue, so only it presents.
    concat!("queue", "_present("),
    concat!("vkQueue", "PresentKHR("),
];

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if name == "target" || name.starts_with('.') {
                continue;
            }
            collect(&path, ext, out);
        } else if name.ends_with(ext) {
            out.push(path);
        }
    }
}

/// Every violation under `root`, as "path:line: text".
fn violations(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut sources = Vec::new();
    collect(root, ".rs", &mut sources);
    for path in sources {
        let rel = path.strip_prefix(root).unwrap_or(&path);
        if rel.starts_with("memory") || rel == Path::new("tests/ownership_rule.rs") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if FORBIDDEN_IN_SOURCE.iter().any(|p| line.contains(p)) {
                found.push(format!("{}:{}: {}", rel.display(), n + 1, line.trim()));
            }
        }
    }
    let mut manifests = Vec::new();
    collect(root, "Cargo.toml", &mut manifests);
    for path in manifests {
        let rel = path.strip_prefix(root).unwrap_or(&path);
        if rel.starts_with("memory") || rel == Path::new("Cargo.toml") {
            // The workspace manifest declares the version once; only memory/ may use it.
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            let key = line.trim_start();
            if key.starts_with("vk-mem") || key.starts_with("gpu-alloc") {
                found.push(format!("{}:{}: {}", rel.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn only_memory_allocates_device_memory_or_submits() {
    let found = violations(&workspace_root());
    assert!(
        found.is_empty(),
        "the memory manager must own device memory and submission; found outside memory/:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_catches_a_violation() {
    // A throwaway tree with one offending client file proves the scan is not vacuous.
    let dir = std::env::temp_dir().join(format!("arenagl-ownership-{}", std::process::id()));
    let client = dir.join("translate/src");
    std::fs::create_dir_all(&client).expect("temp dir");
    std::fs::write(
        client.join("sneaky.rs"),
        concat!(
            "fn f(d: &ash::Device) { unsafe { d.allocate",
            "_memory(&info, None) }; }\n"
        ),
    )
    .expect("write");
    std::fs::create_dir_all(dir.join("memory/src")).expect("temp dir");
    std::fs::write(
        dir.join("memory/src/ok.rs"),
        concat!("fn g() { d.queue", "_submit(q, &[], f); }\n"),
    )
    .expect("write");
    std::fs::write(
        dir.join("translate/Cargo.toml"),
        "[dependencies]\nvk-mem = \"0.5\"\n",
    )
    .expect("write");
    let found = violations(&dir);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("sneaky.rs:1") || found[1].contains("sneaky.rs:1"));
}
