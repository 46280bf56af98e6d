//! Every `arenagl scene`, rendered by two GL implementations through the built binary and compared
//! pixel by pixel against Mesa llvmpipe, the reference for correct pixels.
//!
//! - `zink_matches_llvmpipe` proves the harness: Zink on lavapipe and llvmpipe are both real GL
//!   implementations, so every scene must pass between them.
//! - `arenagl_matches_llvmpipe` is the real check: ArenaGL's `libarenagl.so`, loaded by path.
//! - The demo must run a few frames under each and print a parsable `DEMO_RESULT` line.
//!
//! # Tolerance, and why
//! Two correct implementations need not agree bit for bit. The GL spec leaves them latitude in:
//! colour interpolation and conversion to 8 bits (±1–2 per channel), blending arithmetic
//! (rounding), and rasterisation of pixels whose centre lies on or very near an edge (the
//! scenes keep vertices off pixel centres, but an edge still passes close to some centres, and
//! sub-pixel precision differs). So:
//! - a pixel *matches* when every channel (RGBA) differs by at most [`CHANNEL_TOLERANCE`];
//! - a scene passes when at least [`MIN_MATCHING`] of its pixels match, and no pixel outside the
//!   *edge band* differs by more than [`MAX_OFF_EDGE_DIFF`] in any channel. The edge band is every
//!   pixel within 1 pixel of a place where either image changes by more than [`EDGE_CONTRAST`]
//!   between neighbours: only there may coverage legitimately differ, and there any difference
//!   is allowed (it still counts against the matching fraction).
//!
//! A wrong blend factor, a missing draw, a wrong texel or a wrong uniform fails on the flat
//! interiors; a rasterisation-rule difference along an edge does not.
//!
//! On failure both PNGs and a diff PNG (mismatching pixels red, brighter = larger difference;
//! matching ones a dim grey copy of the reference) are written under `<target>/gl-scenes/`, and
//! the message says where.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_arenagl");

/// Largest per-channel difference of a matching pixel.
const CHANNEL_TOLERANCE: u8 = 3;
/// Fraction of pixels that must match.
const MIN_MATCHING: f64 = 0.995;
/// Largest per-channel difference allowed anywhere outside the edge band.
const MAX_OFF_EDGE_DIFF: u8 = 8;
/// A neighbour-to-neighbour change larger than this (any channel) marks a geometric edge.
const EDGE_CONTRAST: u8 = 24;

/// The scenes, as `arenagl scene` names them.
const SCENES: &[&str] = &[
    "triangle",
    "indexed",
    "instanced",
    "textured",
    "blend",
    "depth",
    "scissor",
    "ubo",
    "manydraws",
    "mipmap",
];
/// Frames rendered per scene (the last one is compared): more than one, so state that leaks
/// from one frame into the next shows.
const FRAMES: &str = "2";

/// The target directory (`<target>/<profile>/deps/<test exe>`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let target = exe.ancestors().nth(3).map(Path::to_path_buf);
    target.unwrap_or_else(|| PathBuf::from("target"))
}

/// The cdylib cargo built for this test run: `deps/` beside the test binary first (cargo leaves
/// the package's cdylib there for integration tests), then its parent (see tests/egl_abi.rs).
fn arenagl_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("test binary sits in a directory");
    let found = [Some(deps), deps.parent()]
        .into_iter()
        .flatten()
        .map(|dir| dir.join("libarenagl.so"))
        .find(|p| p.exists());
    found.unwrap_or_else(|| panic!("no libarenagl.so beside {}", exe.display()))
}

/// A fresh scratch directory, also used as `XDG_CACHE_HOME` so runs share no shader caches.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arenagl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// An RGBA8 image.
#[derive(Clone)]
struct Image {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

impl Image {
    fn read(path: &Path) -> Result<Image, String> {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut reader = png::Decoder::new(std::io::BufReader::new(file))
            .read_info()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut rgba = vec![0; reader.output_buffer_size()];
        let info = reader
            .next_frame(&mut rgba)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if info.color_type != png::ColorType::Rgba || info.bit_depth != png::BitDepth::Eight {
            return Err(format!("{}: not RGBA8", path.display()));
        }
        rgba.truncate(info.buffer_size());
        Ok(Image {
            width: info.width as usize,
            height: info.height as usize,
            rgba,
        })
    }

    fn write(&self, path: &Path) {
        let file = std::fs::File::create(path).expect("create png");
        let mut encoder = png::Encoder::new(
            std::io::BufWriter::new(file),
            self.width as u32,
            self.height as u32,
        );
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("png header");
        writer.write_image_data(&self.rgba).expect("png data");
    }

    fn pixel(&self, x: usize, y: usize) -> [u8; 4] {
        let i = (y * self.width + x) * 4;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }
}

fn max_channel_diff(a: [u8; 4], b: [u8; 4]) -> u8 {
    (0..4).map(|c| a[c].abs_diff(b[c])).max().unwrap_or(0)
}

/// Pixels within 1 pixel of a strong change in `image`.
fn edge_band(image: &Image, band: &mut [bool]) {
    let (w, h) = (image.width, image.height);
    for y in 0..h {
        for x in 0..w {
            let p = image.pixel(x, y);
            let right = (x + 1 < w).then(|| (x + 1, y));
            let down = (y + 1 < h).then(|| (x, y + 1));
            for (nx, ny) in [right, down].into_iter().flatten() {
                if max_channel_diff(p, image.pixel(nx, ny)) > EDGE_CONTRAST {
                    // Both sides of the change, and their neighbours.
                    for (cx, cy) in [(x, y), (nx, ny)] {
                        for by in cy.saturating_sub(1)..=(cy + 1).min(h - 1) {
                            for bx in cx.saturating_sub(1)..=(cx + 1).min(w - 1) {
                                band[by * w + bx] = true;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// How two images differ.
struct Comparison {
    matching: f64,
    worst: u8,
    worst_off_edge: u8,
    worst_off_edge_at: (usize, usize),
    diff: Image,
}

impl Comparison {
    fn passes(&self) -> bool {
        self.matching >= MIN_MATCHING && self.worst_off_edge <= MAX_OFF_EDGE_DIFF
    }

    fn summary(&self) -> String {
        format!(
            "{:.3} % of pixels match (≥ {:.1} % needed), worst channel difference {} \
             anywhere, {} off the edge band (≤ {MAX_OFF_EDGE_DIFF} allowed) at {:?}",
            self.matching * 100.0,
            MIN_MATCHING * 100.0,
            self.worst,
            self.worst_off_edge,
            self.worst_off_edge_at
        )
    }
}

fn compare(reference: &Image, candidate: &Image) -> Result<Comparison, String> {
    if (reference.width, reference.height) != (candidate.width, candidate.height) {
        return Err(format!(
            "sizes differ: {}×{} vs {}×{}",
            reference.width, reference.height, candidate.width, candidate.height
        ));
    }
    let (w, h) = (reference.width, reference.height);
    let mut band = vec![false; w * h];
    edge_band(reference, &mut band);
    edge_band(candidate, &mut band);
    let mut diff = reference.clone();
    let (mut matching, mut worst, mut worst_off_edge, mut at) = (0usize, 0u8, 0u8, (0, 0));
    for y in 0..h {
        for x in 0..w {
            let d = max_channel_diff(reference.pixel(x, y), candidate.pixel(x, y));
            worst = worst.max(d);
            let i = (y * w + x) * 4;
            if d <= CHANNEL_TOLERANCE {
                matching += 1;
                let p = reference.pixel(x, y);
                let grey = ((u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])) / 12) as u8;
                diff.rgba[i..i + 4].copy_from_slice(&[grey, grey, grey, 255]);
            } else {
                diff.rgba[i..i + 4].copy_from_slice(&[128u8.saturating_add(d / 2), 0, 0, 255]);
            }
            if !band[y * w + x] && d > worst_off_edge {
                worst_off_edge = d;
                at = (x, y);
            }
        }
    }
    Ok(Comparison {
        matching: matching as f64 / (w * h) as f64,
        worst,
        worst_off_edge,
        worst_off_edge_at: at,
        diff,
    })
}

/// The tracing target ArenaGL logs validation-layer errors under (`memory/src/vulkan/context.rs`).
const VALIDATION_TARGET: &str = "arenagl::validation";

/// Runs `arenagl scene NAME --gl GL` and returns the PNG it wrote and the `GL_RENDERER` it
/// reported.
fn render(scene: &str, gl: &str, dir: &Path, label: &str) -> Result<(Image, String), String> {
    let out = dir.join(format!("{scene}-{label}.png"));
    let output = Command::new(BIN)
        .args(["scene", scene, "--gl", gl, "--frames", FRAMES, "--out"])
        .arg(&out)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        // ArenaGL runs under the Khronos validation layer; it logs every message it reports
        // with the target below, and any such line fails the scene.
        .env("ARENAGL_VALIDATION", "1")
        .output()
        .map_err(|e| format!("cannot run {BIN}: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if stderr.contains(VALIDATION_TARGET) {
        return Err(format!(
            "`arenagl scene {scene} --gl {gl}`: the validation layer reported errors:\n{stderr}"
        ));
    }
    if !output.status.success() {
        return Err(format!(
            "`arenagl scene {scene} --gl {gl}` failed ({}):\n{}{}",
            output.status,
            stdout,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let line = stdout
        .lines()
        .find(|l| l.starts_with("SCENE "))
        .ok_or_else(|| format!("no SCENE line from `--gl {gl}`: {stdout}"))?;
    let renderer = line
        .strip_prefix(&format!("SCENE name={scene} gl="))
        .and_then(|rest| rest.rsplit_once(" ms_per_frame="))
        .map(|(renderer, _)| renderer.to_owned())
        .ok_or_else(|| format!("malformed SCENE line: {line}"))?;
    Ok((Image::read(&out)?, renderer))
}

/// Renders every scene under `reference` and `candidate` and compares; returns one line per
/// scene, or the failures (with where their images went).
fn compare_all(candidate: &str, label: &str) -> Result<Vec<String>, Vec<String>> {
    let dir = scratch(&format!("scenes-{label}"));
    let keep = target_dir().join("gl-scenes");
    let (mut report, mut failures) = (Vec::new(), Vec::new());
    for scene in SCENES {
        let result = render(scene, "system", &dir, "llvmpipe").and_then(|reference| {
            let candidate = render(scene, candidate, &dir, label)?;
            Ok((reference, candidate))
        });
        let ((reference, reference_renderer), (image, renderer)) = match result {
            Ok(pair) => pair,
            Err(e) => {
                failures.push(format!("{scene}: {e}"));
                continue;
            }
        };
        // A comparison of llvmpipe with itself would prove nothing: make sure each side ran
        // the implementation it was asked for.
        if !reference_renderer.starts_with("llvmpipe") || renderer == reference_renderer {
            failures.push(format!(
                "{scene}: reference GL_RENDERER {reference_renderer:?}, {label} GL_RENDERER \
                 {renderer:?}: not two different implementations"
            ));
            continue;
        }
        if label == "zink" && !renderer.starts_with("zink") {
            failures.push(format!("{scene}: --gl zink ran {renderer:?}"));
            continue;
        }
        match compare(&reference, &image) {
            Ok(c) if c.passes() => {
                report.push(format!("{scene} ({renderer} vs llvmpipe): {}", c.summary()))
            }
            Ok(c) => {
                let _ = std::fs::create_dir_all(&keep);
                let paths = [
                    keep.join(format!("{scene}-llvmpipe.png")),
                    keep.join(format!("{scene}-{label}.png")),
                    keep.join(format!("{scene}-{label}-diff.png")),
                ];
                reference.write(&paths[0]);
                image.write(&paths[1]);
                c.diff.write(&paths[2]);
                failures.push(format!(
                    "{scene}: {}; images: {}, {}, {}",
                    c.summary(),
                    paths[0].display(),
                    paths[1].display(),
                    paths[2].display()
                ));
            }
            Err(e) => failures.push(format!("{scene}: {e}")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if failures.is_empty() {
        Ok(report)
    } else {
        failures.extend(report.into_iter().map(|r| format!("(passed) {r}")));
        Err(failures)
    }
}

fn assert_all_match(candidate: &str, label: &str) {
    match compare_all(candidate, label) {
        Ok(report) => {
            for line in report {
                println!("{label} vs llvmpipe: {line}");
            }
        }
        Err(failures) => panic!(
            "{label} differs from llvmpipe:\n  {}",
            failures.join("\n  ")
        ),
    }
}

#[test]
fn zink_matches_llvmpipe() {
    assert_all_match("zink", "zink");
}

#[test]
fn arenagl_matches_llvmpipe() {
    let library = arenagl_library();
    assert_all_match(&library.to_string_lossy(), "arenagl");
}

#[test]
fn an_unknown_scene_is_a_clear_error_listing_every_scene() {
    let output = Command::new(BIN)
        .args([
            "scene",
            "no-such-scene",
            "--gl",
            "system",
            "--out",
            "/nonexistent.png",
        ])
        .output()
        .expect("run arenagl");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let listed = stderr
        .split("the scenes are ")
        .nth(1)
        .unwrap_or_else(|| panic!("no scene list in: {stderr}"));
    let listed: Vec<&str> = listed.trim().split(", ").collect();
    assert_eq!(listed, SCENES, "the test's scene list is stale");
}

#[test]
fn a_missing_library_is_a_clear_error() {
    let output = Command::new(BIN)
        .args([
            "scene",
            "triangle",
            "--gl",
            "/no/such/libEGL.so",
            "--out",
            "/tmp/x.png",
        ])
        .output()
        .expect("run arenagl");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot load /no/such/libEGL.so"),
        "stderr: {stderr}"
    );
}

/// The fields of a `DEMO_RESULT` line.
fn demo_result(gl: &str, label: &str) -> Vec<(String, String)> {
    let dir = scratch(&format!("demo-{label}"));
    let output = Command::new(BIN)
        .args([
            "demo", "--gl", gl, "--frames", "3", "--width", "320", "--height", "180",
        ])
        .arg("--out")
        .arg(dir.join("demo.png"))
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .output()
        .expect("run the demo");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "demo --gl {gl} failed:\n{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(dir.join("demo.png").exists(), "no PNG written");
    let (line, rest) = stdout
        .lines()
        .find_map(|l| l.strip_prefix("DEMO_RESULT ").map(|rest| (l, rest)))
        .unwrap_or_else(|| panic!("no DEMO_RESULT line:\n{stdout}"));
    let fields: Vec<(String, String)> = rest
        .split(' ')
        .map(|kv| {
            let (k, v) = kv
                .split_once('=')
                .unwrap_or_else(|| panic!("field {kv:?} in {line}"));
            (k.to_owned(), v.to_owned())
        })
        .collect();
    let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "gl",
            "frames",
            "mean_ms",
            "p50_ms",
            "p95_ms",
            "peak_rss_kib"
        ],
        "{line}"
    );
    assert_eq!(fields[0].1, label, "{line}");
    assert_eq!(fields[1].1, "3", "{line}");
    for (k, v) in &fields[2..] {
        let x: f64 = v.parse().unwrap_or_else(|_| panic!("{k}={v} in {line}"));
        assert!(x > 0.0, "{k}={v} in {line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    fields
}

#[test]
fn demo_runs_under_llvmpipe_and_prints_a_parsable_result() {
    demo_result("system", "system");
}

#[test]
fn demo_runs_under_arenagl_and_prints_a_parsable_result() {
    let library = arenagl_library();
    let path = library.to_string_lossy().into_owned();
    demo_result(&path, &path);
}
