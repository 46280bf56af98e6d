//! The translator's layout rule (`src/gl/mod.rs`), checked on the sources: object types
//! (the files of `gl/objects/` that add no methods to `Context`) and the Vulkan side (`gl/vk/`)
//! use neither the compatibility layer (`gl/compat/`) nor the pressure policy
//! (`gl/pressure/`), and `gl/vk/` adds no methods to `Context` (it is below the GL API state).
//! A file that breaks the rule fails this test with its name and line.

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The lines of `text` outside `//` comments that mention `needle`, as `file:line: text`.
fn uses(path: &Path, text: &str, needle: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let code = l.split("//").next().unwrap_or("");
            code.contains(needle)
        })
        .map(|(i, l)| format!("{}:{}: {}", path.display(), i + 1, l.trim()))
        .collect()
}

/// Whether `text` has an `impl Context` block (the type named plainly or by path).
fn adds_context_methods(text: &str) -> bool {
    text.lines().any(|l| {
        let Some(rest) = l.trim_start().strip_prefix("impl ") else {
            return false;
        };
        let ty = rest.split([' ', '{', '<']).next().unwrap_or("");
        ty == "Context" || ty.ends_with("::Context")
    })
}

fn gl_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gl")
}

/// What a file of `room` may not use: the compatibility layer and the pressure policy.
fn forbidden_uses(room: &str, type_files_only: bool) -> Vec<String> {
    let mut found = Vec::new();
    for path in rust_files(&gl_dir().join(room)) {
        let text = fs::read_to_string(&path).expect("read source");
        if type_files_only && adds_context_methods(&text) {
            continue;
        }
        for needle in [
            "gl::compat",
            "gl::pressure",
            "super::compat",
            "super::pressure",
        ] {
            found.extend(uses(&path, &text, needle));
        }
    }
    found
}

#[test]
fn object_types_use_neither_compat_nor_pressure() {
    let found = forbidden_uses("objects", true);
    assert!(
        found.is_empty(),
        "object types must not use gl/compat or gl/pressure (move the policy to an entry-point \
         file or invert the dependency):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_vulkan_side_uses_neither_compat_nor_pressure() {
    let found = forbidden_uses("vk", false);
    assert!(
        found.is_empty(),
        "gl/vk must not use gl/compat or gl/pressure:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_vulkan_side_adds_no_methods_to_context() {
    let offenders: Vec<String> = rust_files(&gl_dir().join("vk"))
        .into_iter()
        .filter(|p| adds_context_methods(&fs::read_to_string(p).expect("read source")))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "gl/vk must not add methods to Context (entry points live in the GL rooms):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_rooms_are_where_the_rule_says() {
    for room in [
        "context", "objects", "draw", "pixel", "compat", "pressure", "vk",
    ] {
        assert!(
            gl_dir().join(room).join("mod.rs").exists(),
            "gl/{room}/mod.rs"
        );
    }
    let flat: Vec<PathBuf> = fs::read_dir(gl_dir())
        .expect("read gl")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "mod.rs"))
        .collect();
    assert!(flat.is_empty(), "files outside the rooms: {flat:?}");
}
