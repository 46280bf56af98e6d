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
#[derive(Clone)]
pub struct Row {
    pub scene: SceneKind,
    pub implementation: Impl,
    /// The measure and `GL_RENDERER`, or why there is none.
    pub outcome: Result<(Measure, String), String>,
    /// The p50 of every successful run (ms), in run order; `outcome` is the median one.
    pub p50_runs: Vec<f64>,
}

impl Row {
    /// The row of one run.
    pub fn single(
        scene: SceneKind,
        implementation: Impl,
        outcome: Result<(Measure, String), String>,
    ) -> Row {
        let p50_runs = outcome.iter().map(|(m, _)| m.p50_ms).collect();
        Row {
            scene,
            implementation,
            outcome,
            p50_runs,
        }
    }
}

/// One row per scene and implementation (in first-seen order) from the rows of every run: the
/// successful run with the median p50 (the lower median for an even count), else the first
/// failure, with every run's p50 kept.
pub fn median_rows(runs: Vec<Row>) -> Vec<Row> {
    let mut keys: Vec<(SceneKind, Impl)> = Vec::new();
    for r in &runs {
        if !keys.contains(&(r.scene, r.implementation)) {
            keys.push((r.scene, r.implementation));
        }
    }
    let mut runs: Vec<Option<Row>> = runs.into_iter().map(Some).collect();
    let mut out = Vec::new();
    for (scene, implementation) in keys {
        let mine: Vec<Row> = runs
            .iter_mut()
            .filter(|r| {
                r.as_ref()
                    .is_some_and(|r| r.scene == scene && r.implementation == implementation)
            })
            .filter_map(Option::take)
            .collect();
        let p50_runs: Vec<f64> = mine.iter().flat_map(|r| r.p50_runs.clone()).collect();
        let mut ok: Vec<Row> = mine.iter().filter(|r| r.outcome.is_ok()).cloned().collect();
        ok.sort_by(|a, b| a.p50_runs[0].total_cmp(&b.p50_runs[0]));
        let chosen = if ok.is_empty() {
            mine.into_iter().next()
        } else {
            let middle = (ok.len() - 1) / 2;
            ok.into_iter().nth(middle)
        };
        if let Some(row) = chosen {
            out.push(Row { p50_runs, ..row });
        }
    }
    out
}

/// `min / median / max` of the runs' p50 (ms), or the one value.
fn spread(p50_runs: &[f64]) -> String {
    let mut sorted = p50_runs.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.as_slice() {
        [] => "–".to_owned(),
        [one] => format!("{one:.2}"),
        all => format!(
            "{:.2} / {:.2} / {:.2}",
            all[0],
            all[(all.len() - 1) / 2],
            all[all.len() - 1]
        ),
    }
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
         vkAllocateMemory | peak device MiB | p50 of each run: min / median / max |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for row in rows {
        let (scene, label) = (row.scene.name(), row.implementation.label());
        match &row.outcome {
            Ok((m, _)) => out.push_str(&format!(
                "| {scene} | {label} | {:.2} | {:.2} | {:.1} | {:.1} {}/s | {} | {} | {} | {} |\n",
                m.p50_ms,
                m.p99_ms,
                m.fps,
                m.units_per_s,
                row.scene.unit(),
                or_dash(m.peak_rss_kib, |k| format!("{:.0}", k as f64 / 1024.0)),
                or_dash(m.allocate_calls, |c| c.to_string()),
                or_dash(m.peak_device_bytes, |b| format!("{:.1}", mib(b))),
                spread(&row.p50_runs),
            )),
            Err(why) => out.push_str(&format!(
                "| {scene} | {label} | failed: {} | | | | | | | |\n",
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
         `XDG_CACHE_HOME`, {} round(s) with the implementations alternating (a row is the \
         median round by p50; the last column gives every round's p50); {build}; {cpu}, \
         {cores} logical CPUs.\n\n\
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
        args.frames, args.warmup, args.width, args.height, args.runs
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
            Row::single(
                SceneKind::Draws,
                Impl::ArenaGl,
                Ok((measure(2.0, 100), String::new())),
            ),
            Row::single(
                SceneKind::Draws,
                Impl::Zink,
                Ok((measure(3.0, 150), String::new())),
            ),
            Row::single(
                SceneKind::Draws,
                Impl::Llvmpipe,
                Err("exit status: 1: no EGL".into()),
            ),
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

    #[test]
    fn repeated_runs_report_the_median_and_the_spread() {
        let run = |implementation, p50| {
            Row::single(
                SceneKind::Draws,
                implementation,
                Ok((measure(p50, 100), String::new())),
            )
        };
        let rows = median_rows(vec![
            run(Impl::ArenaGl, 9.0),
            run(Impl::Zink, 3.0),
            run(Impl::ArenaGl, 2.0),
            Row::single(SceneKind::Draws, Impl::Zink, Err("crashed".into())),
            run(Impl::ArenaGl, 5.0),
            run(Impl::Zink, 4.0),
        ]);
        assert_eq!(rows.len(), 2);
        let p50 = |r: &Row| r.outcome.as_ref().map(|(m, _)| m.p50_ms).ok();
        assert_eq!(p50(&rows[0]), Some(5.0));
        assert_eq!(rows[0].p50_runs, vec![9.0, 2.0, 5.0]);
        assert_eq!(
            p50(&rows[1]),
            Some(3.0),
            "the lower median of the two that ran"
        );
        let results = results_table(&rows);
        assert!(results.contains("| 2.00 / 5.00 / 9.00 |"), "{results}");
        assert!(results.contains("| 3.00 / 3.00 / 4.00 |"), "{results}");
        let failed = median_rows(vec![Row::single(
            SceneKind::Draws,
            Impl::Zink,
            Err("crashed".into()),
        )]);
        assert!(results_table(&failed).contains("failed: crashed"));
    }
}
