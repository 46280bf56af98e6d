//! A stress run in a child process: `arenagl stress SUITE --profile … --png FILE`, its
//! `STRESS_RESULT` line parsed back and the final frame read from the PNG it wrote.
//!
//! A child per run is what gives each run its own budget (the library reads it once per
//! process) and keeps an abort in the library from taking the caller down with it: the child's
//! exit status and the tail of its stderr are the error then.

use std::path::Path;
use std::process::Command;

use arenagl_glclient::Image;

use crate::outcome::{ErrorTally, ParsedLine, RESULT_PREFIX};
use crate::{StressConfig, StressError, StressResult};

/// Runs `config` in a child `arenagl stress` (the `arenagl` binary at `arenagl`), writing the
/// final frame to `png`; the child inherits this process's environment (`ARENAGL_VALIDATION`,
/// `ARENAGL_LIB`, …).
pub fn run_in_child(
    arenagl: &Path,
    config: &StressConfig,
    png: &Path,
) -> Result<StressResult, StressError> {
    let output = Command::new(arenagl)
        .arg("stress")
        .arg(config.suite.name())
        .args(["--profile", &config.profile])
        .args(["--scale", &config.scale.to_string()])
        .args(["--pressure", &config.pressure.to_string()])
        .args(["--frames", &config.frames.to_string()])
        .args(["--width", &config.width.to_string()])
        .args(["--height", &config.height.to_string()])
        .args(["--gl", &config.implementation.to_string()])
        .args(config.window.then_some("--window"))
        .arg("--png")
        .arg(png)
        .output()
        .map_err(|e| StressError::Child(format!("cannot start {}: {e}", arenagl.display())))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let tail = |text: &str| -> String {
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    };
    let Some(line) = stdout.lines().rev().find(|l| l.starts_with(RESULT_PREFIX)) else {
        return Err(StressError::Child(format!(
            "{} exited with {} and printed no {RESULT_PREFIX} line; stderr:\n{}",
            arenagl.display(),
            output.status,
            tail(&stderr)
        )));
    };
    if !output.status.success() {
        return Err(StressError::Child(format!(
            "exited with {} after `{line}`; stderr:\n{}",
            output.status,
            tail(&stderr)
        )));
    }
    let fields = ParsedLine::parse(line)?;
    let renderer = stdout
        .lines()
        .find_map(|l| l.strip_prefix("GL_RENDERER: "))
        .unwrap_or("")
        .to_owned();
    Ok(StressResult {
        suite: fields.get("suite")?.to_owned(),
        profile: fields.get("profile")?.to_owned(),
        scale: fields.number("scale")?,
        frames: fields.number("frames")?,
        errors: ErrorTally {
            out_of_memory: fields.number("oom_errors")?,
            other: fields.number("gl_errors")?,
            first_other: None,
        },
        validation_errors: fields.optional("validation_errors")?,
        peak_device_bytes: fields.optional("peak_device_bytes")?,
        budget_bytes: fields.optional("budget_bytes")?,
        requested_budget_bytes: fields.number("requested_budget_bytes")?,
        allocate_calls: fields.optional("allocate_calls")?,
        swapchains_created: fields.optional("swapchains_created")?,
        renderer,
        final_frame: read_png(png)?,
    })
}

/// An 8-bit RGBA PNG as an [`Image`].
pub fn read_png(path: &Path) -> Result<Image, StressError> {
    let fail = |why: String| StressError::Child(format!("{}: {why}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .map_err(|e| fail(e.to_string()))?;
    let mut rgba = vec![0; reader.output_buffer_size()];
    let info = reader
        .next_frame(&mut rgba)
        .map_err(|e| fail(e.to_string()))?;
    if info.color_type != png::ColorType::Rgba || info.bit_depth != png::BitDepth::Eight {
        return Err(fail(format!(
            "{:?} {:?}, not 8-bit RGBA",
            info.color_type, info.bit_depth
        )));
    }
    rgba.truncate(info.buffer_size());
    Ok(Image {
        width: info.width,
        height: info.height,
        rgba,
    })
}
