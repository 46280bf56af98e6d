//! `arenagl budget`, run as a person runs it: the built binary, its stdout and exit status.

use std::process::{Command, Output};

fn arenagl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arenagl"))
        .args(args)
        // The environment overrides apply to `budget`; keep the developer's out of the test.
        .env_remove("ARENAGL_BUDGET_MB")
        .env_remove("ARENAGL_PROFILE")
        .output()
        .expect("run arenagl")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "arenagl failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("utf-8")
}

#[test]
fn budget_list_shows_every_profile_with_its_crash_line() {
    let text = stdout(&arenagl(&["budget", "--list"]));
    for name in [
        "iphone-se-2",
        "iphone-se-3",
        "iphone-12",
        "iphone-13",
        "iphone-12-pro",
        "iphone-13-pro",
        "iphone-15-pro",
        "ipad-pro-m2",
        "android-4gb",
        "android-6gb",
        "android-8gb",
        "android-12gb",
        "linux-host",
    ] {
        assert!(
            text.lines()
                .any(|line| line.starts_with(&format!("{name} "))),
            "`{name}` missing from\n{text}"
        );
    }
    let iphone_12 = text
        .lines()
        .find(|line| line.starts_with("iphone-12 "))
        .expect("iphone-12 row");
    assert!(iphone_12.contains("2091 MiB"), "{iphone_12}");
}

#[test]
fn budget_profile_prints_a_split_that_sums_to_the_total() {
    let text = stdout(&arenagl(&["budget", "--profile", "iphone-12"]));
    // "total budget for iphone-12: 836.4 MiB (877028968 bytes)"
    let total: u64 = text
        .lines()
        .find_map(|line| line.strip_prefix("total budget for iphone-12: "))
        .and_then(|rest| rest.split('(').nth(1))
        .and_then(|bytes| bytes.split_whitespace().next())
        .and_then(|bytes| bytes.parse().ok())
        .unwrap_or_else(|| panic!("no total line in\n{text}"));
    let row = |name: &str| -> u64 {
        // Rows of the split table are indented; the headline "total budget for ..." is not.
        text.lines()
            .filter(|line| line.starts_with("  "))
            .find_map(|line| {
                let mut fields = line.split_whitespace();
                (fields.next() == Some(name)).then(|| fields.nth(1))?
            })
            .and_then(|bytes| bytes.parse().ok())
            .unwrap_or_else(|| panic!("no `{name}` row in\n{text}"))
    };
    let parts: u64 = [
        "textures",
        "buffers",
        "render-targets",
        "staging",
        "pipelines",
        "slack",
    ]
    .into_iter()
    .map(row)
    .sum();
    assert_eq!(parts, total, "the split does not sum to the total:\n{text}");
    assert_eq!(row("total"), total);
    assert!(
        text.contains("bound by: platform"),
        "no why-trail in\n{text}"
    );
}

#[test]
fn budget_of_an_unknown_profile_is_a_clear_error() {
    let output = arenagl(&["budget", "--profile", "nokia-3310"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown device profile `nokia-3310`") && stderr.contains("iphone-12"),
        "{stderr}"
    );
}
