//! The benchmark's rows: a child's result line parsed, and the markdown report (results, then
//! ratios to ArenaGL).

use super::scenes::SceneKind;
use super::{BenchArgs, Impl};

/// What one child measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Measure {
    pub frames: u32,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub mean_ms: f64,
    pub fps: f64,
    pub units_per_s: f64,
    pub peak_rss_kib: Option<u64>,
    pub allocate_calls: Option<u64>,
    pub peak_device_bytes: Option<u64>,
}

impl Measure {
    /// Parses a `BENCH_RESULT` line.
    pub fn parse(line: &str) -> Result<Measure, String> {
        let fields: Vec<(&str, &str)> = line
            .split_whitespace()
            .filter_map(|f| f.split_once('='))
            .collect();
        let raw = |key: &str| {
            fields
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| *v)
                .ok_or_else(|| format!("the result line has no {key}="))
        };
        fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
            v.parse().map_err(|_| format!("{key}={v} is not a number"))
        }
        let opt = |key: &str| -> Result<Option<u64>, String> {
            match raw(key)? {
                "-" => Ok(None),
                v => num(key, v).map(Some),
            }
        };
        Ok(Measure {
            frames: num("frames", raw("frames")?)?,
            p50_ms: num("p50_ms", raw("p50_ms")?)?,
            p99_ms: num("p99_ms", raw("p99_ms")?)?,
            mean_ms: num("mean_ms", raw("mean_ms")?)?,
            fps: num("fps", raw("fps")?)?,
            units_per_s: num("units_per_s", raw("units_per_s")?)?,
            peak_rss_kib: opt("peak_rss_kib")?,
            allocate_calls: opt("allocate_calls")?,
            peak_device_bytes: opt("peak_device_bytes")?,
        })
    }
}

/// One scene under one implementation.
pub struct Row {
    pub scene: SceneKind,
    pub implementation: Impl,
    /// The measure and `GL_RENDERER`, or why there is none.
    pub outcome: Result<(Measure, String), String>,
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1 << 20)
}

fn or_dash<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map_or_else(|| "–".to_owned(), f)
}

/// The results table (markdown; also what the command prints).
pub fn results_table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| scene | implementation | p50 ms | p99 ms | frames/s | throughput | peak RSS MiB | \
         vkAllocateMemory | peak device MiB |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for row in rows {
        let (scene, label) = (row.scene.name(), row.implementation.label());
        match &row.outcome {
            Ok((m, _)) => out.push_str(&format!(
                "| {scene} | {label} | {:.2} | {:.2} | {:.1} | {:.1} {}/s | {} | {} | {} |\n",
                m.p50_ms,
                m.p99_ms,
                m.fps,
                m.units_per_s,
                row.scene.unit(),
                or_dash(m.peak_rss_kib, |k| format!("{:.0}", k as f64 / 1024.0)),
                or_dash(m.allocate_calls, |c| c.to_string()),
                or_dash(m.peak_device_bytes, |b| format!("{:.1}", mib(b))),
            )),
            Err(why) => out.push_str(&format!(
                "| {scene} | {label} | failed: {} | | | | | | |\n",
                why.replace('|', "/")
            )),
        }
    }
    out
}

/// `value / arenagl` to two places, or a dash when either is missing.
fn ratio(value: Option<f64>, arenagl: Option<f64>) -> String {
    match (value, arenagl) {
        (Some(v), Some(a)) if a > 0.0 => format!("{:.2}", v / a),
        _ => "–".to_owned(),
    }
}

/// The ratios table: every other implementation / ArenaGL, per scene.
pub fn ratios_table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| scene | ratio | p50 | p99 | frames/s | throughput | peak RSS |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
    );
    for row in rows.iter().filter(|r| r.implementation != Impl::ArenaGl) {
        let arenagl = rows
            .iter()
            .find(|r| r.scene == row.scene && r.implementation == Impl::ArenaGl)
            .and_then(|r| r.outcome.as_ref().ok())
            .map(|(m, _)| m);
        let mine = row.outcome.as_ref().ok().map(|(m, _)| m);
        let pick = |f: fn(&Measure) -> Option<f64>| (mine.and_then(f), arenagl.and_then(f));
        let cell = |f: fn(&Measure) -> Option<f64>| {
            let (v, a) = pick(f);
            ratio(v, a)
        };
        out.push_str(&format!(
            "| {} | {}/ArenaGL | {} | {} | {} | {} | {} |\n",
            row.scene.name(),
            row.implementation.label(),
            cell(|m| Some(m.p50_ms)),
            cell(|m| Some(m.p99_ms)),
            cell(|m| Some(m.fps)),
            cell(|m| Some(m.units_per_s)),
            cell(|m| m.peak_rss_kib.map(|k| k as f64)),
        ));
    }
    out
}

/// The whole report.
pub fn markdown(rows: &[Row], args: &BenchArgs, command_line: &str) -> String {
    let mut renderers: Vec<(Impl, String)> = Vec::new();
    for row in rows {
        if let Ok((_, renderer)) = &row.outcome {
            if !renderers.iter().any(|(i, _)| *i == row.implementation) {
                renderers.push((row.implementation, renderer.clone()));
            }
        }
    }
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|v| v.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    // The children are this binary; ArenaGL's library is the one built beside it, same profile.
    let build = if cfg!(debug_assertions) {
        "a **debug** build of `arenagl` and `libarenagl.so` (not representative of ArenaGL's speed)"
    } else {
        "a release build of `arenagl` and `libarenagl.so`"
    };
    let mut out = format!(
        "# `arenagl bench`: ArenaGL beside its peers\n\n\
         Written by `arenagl {command_line}`: {} measured frames after {} warm-up frames per \
         scene and implementation, {}×{} pbuffer, each run in its own process with a fresh \
         `XDG_CACHE_HOME`; {build}; {cpu}, {cores} logical CPUs.\n\n\
         A frame's time is the scene's GL calls plus `glFinish`; throughput is the scene's own \
         unit per second of frame time; peak RSS is the child process's `VmHWM`. \
         `vkAllocateMemory` calls and peak device bytes (the sum of per-category peaks) come \
         from ArenaGL's telemetry page; the other implementations publish none (–).\n\n\
         Scenes: `draws` — 4096 small draws a frame switching 4 programs, 8 textures, blend and \
         depth state, with per-draw uniforms; `uploads` — 8 MiB of `glBufferSubData` and a \
         1024² RGBA8 `glTexSubImage2D` a frame, then drawn; `minecraft` — the `arenagl demo` \
         scene (14 mipmapped 1024² atlases, 64 chunk meshes streamed into the arena, per-draw \
         uniforms, blended pass); `churn` — 32 textures of 64²–256² created, uploaded, sampled \
         and deleted a frame.\n\n## Renderers\n\n",
        args.frames, args.warmup, args.width, args.height
    );
    for (implementation, renderer) in &renderers {
        out.push_str(&format!("- {}: `{renderer}`\n", implementation.label()));
    }
    out.push_str("\n## Results\n\n");
    out.push_str(&results_table(rows));
    out.push_str(
        "\n## Ratios to ArenaGL\n\nEach column is the implementation's figure divided by \
         ArenaGL's: above 1 in p50, p99 and peak RSS means slower or more memory than ArenaGL; \
         above 1 in frames/s and throughput means faster than ArenaGL.\n\n",
    );
    out.push_str(&ratios_table(rows));
    out.push_str("\n![p50 frame time and peak RSS per scene](bench.png)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measure(p50: f64, rss: u64) -> Measure {
        Measure {
            frames: 10,
            p50_ms: p50,
            p99_ms: p50 * 2.0,
            mean_ms: p50,
            fps: 1000.0 / p50,
            units_per_s: 1.0,
            peak_rss_kib: Some(rss),
            allocate_calls: None,
            peak_device_bytes: None,
        }
    }

    #[test]
    fn result_lines_parse() {
        let line = "BENCH_RESULT scene=draws impl=ArenaGL frames=5 warmup=1 p50_ms=1.5 \
                    p99_ms=2.0 mean_ms=1.6 fps=600.00 units_per_s=12.5 peak_rss_kib=1000 \
                    allocate_calls=7 peak_device_bytes=-";
        let m = Measure::parse(line);
        assert_eq!(m.as_ref().map(|m| m.p50_ms), Ok(1.5));
        assert_eq!(m.as_ref().map(|m| m.allocate_calls), Ok(Some(7)));
        assert_eq!(m.as_ref().map(|m| m.peak_device_bytes), Ok(None));
        assert!(Measure::parse("BENCH_RESULT frames=x").is_err());
    }

    #[test]
    fn ratios_divide_by_arenagl_and_failures_stay_in_their_row() {
        let rows = vec![
            Row {
                scene: SceneKind::Draws,
                implementation: Impl::ArenaGl,
                outcome: Ok((measure(2.0, 100), String::new())),
            },
            Row {
                scene: SceneKind::Draws,
                implementation: Impl::Zink,
                outcome: Ok((measure(3.0, 150), String::new())),
            },
            Row {
                scene: SceneKind::Draws,
                implementation: Impl::Llvmpipe,
                outcome: Err("exit status: 1: no EGL".into()),
            },
        ];
        let ratios = ratios_table(&rows);
        assert!(
            ratios.contains("| draws | Zink/ArenaGL | 1.50 | 1.50 | 0.67 | 1.00 | 1.50 |"),
            "{ratios}"
        );
        assert!(
            ratios.contains("| draws | llvmpipe/ArenaGL | – |"),
            "{ratios}"
        );
        let results = results_table(&rows);
        assert!(
            results.contains("| draws | llvmpipe | failed: exit status: 1: no EGL |"),
            "{results}"
        );
    }
}
