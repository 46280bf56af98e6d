//! `arenagl report`: renders a recording (`arenagl record`) to a PNG chart.
//!
//! Design decisions:
//! - One chart, time on x and MiB on y: live memory by category as stacked areas, the budget as
//!   a black line, the pressure level as background bands (warn yellow, critical orange, over
//!   red), and events as vertical markers coloured by kind, with a legend for all of it.
//! - `plotters` with only its bitmap backend; text is drawn with DejaVu Sans embedded in the
//!   binary (the `dejavu` crate, through plotters' `ab_glyph` feature), so rendering needs no
//!   system fonts and no fontconfig: it works the same on a bare CI machine.
//! - Events are placed by their frame number, interpolated between the samples around it, so a
//!   marker sits where the event happened rather than where the recorder noticed it.

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use arenagl_residency::telemetry::EventKind;
use arenagl_residency::{Category, Level};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use crate::record::{EventLine, Recording, Sample};
use crate::units::{mib, mib_f64};

/// Options of `arenagl report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// A recording made by `arenagl record`.
    input: PathBuf,
    /// The PNG to write.
    #[arg(short, long, default_value = "report.png")]
    output: PathBuf,
    /// Image width in pixels.
    #[arg(long, default_value_t = 1600, value_parser = clap::value_parser!(u32).range(320..=8192))]
    width: u32,
    /// Image height in pixels.
    #[arg(long, default_value_t = 900, value_parser = clap::value_parser!(u32).range(240..=8192))]
    height: u32,
}

/// The font family name the embedded font is registered under.
const FONT: &str = "sans-serif";

const CATEGORY_COLORS: [RGBColor; Category::COUNT] = [
    RGBColor(31, 119, 180),  // textures
    RGBColor(255, 127, 14),  // buffers
    RGBColor(44, 160, 44),   // render targets
    RGBColor(148, 103, 189), // staging
    RGBColor(140, 86, 75),   // pipelines
];

fn level_color(level: Level) -> RGBColor {
    match level {
        Level::Normal => RGBColor(40, 160, 60),
        Level::Warn => RGBColor(240, 200, 0),
        Level::Critical => RGBColor(255, 130, 0),
        Level::Over => RGBColor(215, 25, 50),
    }
}

fn event_color(kind: EventKind) -> RGBColor {
    match kind {
        EventKind::Pressure(level) => level_color(level),
        EventKind::ProactiveGc | EventKind::BlockingGc => RGBColor(0, 90, 200),
        EventKind::Eviction
        | EventKind::Demotion
        | EventKind::Restoration
        | EventKind::Prune
        | EventKind::CacheTrim => RGBColor(150, 0, 150),
        EventKind::RenderScale => RGBColor(0, 150, 150),
        EventKind::Refusal => RGBColor(200, 0, 0),
        EventKind::OomRecovery => RGBColor(230, 110, 0),
        EventKind::DeviceLost | EventKind::ClampWarning => RGBColor(0, 0, 0),
    }
}

/// Runs `arenagl report`.
pub fn run(args: &ReportArgs) -> Result<(), Box<dyn std::error::Error>> {
    let recording = Recording::load(&args.input)?;
    render(&recording, &args.output, (args.width, args.height))?;
    let peak = recording
        .samples
        .iter()
        .map(Sample::total_live)
        .max()
        .unwrap_or(0);
    eprintln!(
        "arenagl: wrote {} ({}x{}): {} samples, {} events, peak {} live",
        args.output.display(),
        args.width,
        args.height,
        recording.samples.len(),
        recording.events.len(),
        mib(peak)
    );
    Ok(())
}

fn err(e: impl Display) -> String {
    format!("cannot draw the report: {e}")
}

/// Registers the embedded font once per process.
pub(crate) fn register_fonts() -> Result<(), String> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok()
            && register_font(FONT, FontStyle::Bold, dejavu::sans::bold()).is_ok()
    });
    ok.then_some(())
        .ok_or_else(|| "the embedded DejaVu Sans font did not load".to_owned())
}

/// Renders `recording` to a PNG of `size` at `output`.
pub fn render(recording: &Recording, output: &Path, size: (u32, u32)) -> Result<(), String> {
    if recording.samples.is_empty() {
        return Err("the recording has no samples (was the process publishing?)".to_owned());
    }
    register_fonts()?;
    let root = BitMapBackend::new(output, size).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    draw_chart(recording, &root)?;
    root.present()
        .map_err(|e| format!("cannot write {}: {e}", output.display()))
}

fn seconds(t_ms: u64) -> f64 {
    t_ms as f64 / 1000.0
}

/// Sample times, widened to a visible span when there is only one sample.
fn time_axis(samples: &[Sample]) -> (Vec<f64>, f64) {
    let mut times: Vec<f64> = samples.iter().map(|s| seconds(s.t_ms)).collect();
    let last = times.last().copied().unwrap_or(0.0);
    if times.len() == 1 {
        times.push(last + 0.001);
    }
    let end = times.last().copied().unwrap_or(0.0).max(0.001);
    (times, end)
}

/// Where an event belongs on the time axis: interpolated between the samples around its frame.
fn event_time(samples: &[Sample], event: &EventLine) -> f64 {
    let index = samples.partition_point(|s| s.frame < event.frame);
    match (
        index.checked_sub(1).map(|i| &samples[i]),
        samples.get(index),
    ) {
        (_, Some(after)) if after.frame == event.frame => seconds(after.t_ms),
        (Some(before), Some(after)) => {
            let span = (after.frame - before.frame) as f64;
            let into = (event.frame - before.frame) as f64;
            seconds(before.t_ms) + (seconds(after.t_ms) - seconds(before.t_ms)) * into / span
        }
        (None, Some(first)) => seconds(first.t_ms),
        (_, None) => seconds(event.t_ms),
    }
}

/// Runs of equal pressure level above Normal: (start s, end s, level).
fn pressure_bands(samples: &[Sample], times: &[f64]) -> Vec<(f64, f64, Level)> {
    let mut bands: Vec<(f64, f64, Level)> = Vec::new();
    for (i, sample) in samples.iter().enumerate() {
        let level = sample.level();
        let start = times[i];
        let end = times.get(i + 1).copied().unwrap_or(start);
        match bands.last_mut() {
            Some(band) if band.2 == level && band.1 == start => band.1 = end,
            _ if level != Level::Normal => bands.push((start, end, level)),
            _ => {}
        }
    }
    bands
}

/// A swatch in the legend panel.
enum Swatch {
    Area(RGBColor),
    Band(RGBColor),
    Line(RGBColor),
    Marker(RGBColor),
}

/// Width of the legend panel to the right of the chart.
const LEGEND_WIDTH: u32 = 250;

fn draw_chart(
    recording: &Recording,
    root: &DrawingArea<BitMapBackend<'_>, Shift>,
) -> Result<(), String> {
    let samples = &recording.samples;
    let (times, t_end) = time_axis(samples);
    let point = |i: usize| &samples[i.min(samples.len() - 1)];
    let y_max = samples
        .iter()
        .map(|s| mib_f64(s.budget.max(s.total_live())))
        .fold(1.0f64, f64::max)
        * 1.08;
    let mut legend: Vec<(String, Swatch)> = Vec::new();

    let duration = seconds(samples.last().map_or(0, |s| s.t_ms));
    let caption = format!(
        "ArenaGL memory, pid {}: {} samples over {:.1} s, frames {}-{}",
        recording.header.pid,
        samples.len(),
        duration,
        samples.first().map_or(0, |s| s.frame),
        samples.last().map_or(0, |s| s.frame)
    );
    let root = root.titled(&caption, (FONT, 24)).map_err(err)?;
    let (width, _) = root.dim_in_pixel();
    let (plot, legend_area) = root.split_horizontally(width.saturating_sub(LEGEND_WIDTH));
    let mut chart = ChartBuilder::on(&plot)
        .margin(15)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..t_end, 0f64..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc("MiB")
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 17))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(err)?;

    // Pressure bands, behind everything else.
    for (start, end, level) in pressure_bands(samples, &times) {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(start, 0.0), (end, y_max)],
                level_color(level).mix(0.22).filled(),
            )))
            .map_err(err)?;
    }

    // Stacked areas: the tallest (all categories) first, each lower stack painted over it.
    for top in (0..Category::COUNT).rev() {
        let color = CATEGORY_COLORS[top];
        let series = times.iter().enumerate().map(|(i, &t)| {
            let stacked: u64 = point(i).live[..=top].iter().sum();
            (t, mib_f64(stacked))
        });
        chart
            .draw_series(AreaSeries::new(series, 0.0, color.mix(0.85)).border_style(color))
            .map_err(err)?;
    }
    for (category, color) in Category::ALL.iter().zip(CATEGORY_COLORS).rev() {
        legend.push((category.name().to_owned(), Swatch::Area(color)));
    }

    // The budget.
    chart
        .draw_series(LineSeries::new(
            times
                .iter()
                .enumerate()
                .map(|(i, &t)| (t, mib_f64(point(i).budget))),
            BLACK.stroke_width(3),
        ))
        .map_err(err)?;
    legend.push(("budget".to_owned(), Swatch::Line(BLACK)));
    for level in [Level::Warn, Level::Critical, Level::Over] {
        if samples.iter().any(|s| s.level() == level) {
            legend.push((
                format!("pressure {level}"),
                Swatch::Band(level_color(level)),
            ));
        }
    }

    // Events: a thin line through the chart and a marker at the top.
    for (kind, event) in &recording.events {
        let t = event_time(samples, event).clamp(0.0, t_end);
        let color = event_color(*kind);
        chart
            .draw_series([
                PathElement::new(vec![(t, 0.0), (t, y_max)], color.mix(0.6).stroke_width(1))
                    .into_dyn(),
                TriangleMarker::new((t, y_max * 0.98), 6, color.filled()).into_dyn(),
            ])
            .map_err(err)?;
    }
    let mut kinds: Vec<EventKind> = recording.events.iter().map(|(kind, _)| *kind).collect();
    kinds.sort_by_key(|kind| kind.code());
    kinds.dedup();
    for kind in kinds {
        let count = recording.events.iter().filter(|(k, _)| *k == kind).count();
        legend.push((
            format!("{kind} ({count})"),
            Swatch::Marker(event_color(kind)),
        ));
    }
    if recording.events_lost > 0 {
        legend.push((
            format!("{} events lost", recording.events_lost),
            Swatch::Marker(RGBColor(128, 128, 128)),
        ));
    }

    draw_legend(&legend_area, &legend)
}

fn draw_legend(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    entries: &[(String, Swatch)],
) -> Result<(), String> {
    let font = TextStyle::from((FONT, 15).into_font());
    let title = TextStyle::from((FONT, 17).into_font().style(FontStyle::Bold));
    let (x, mut y) = (10i32, 30i32);
    area.draw_text("legend", &title, (x, y - 22)).map_err(err)?;
    for (label, swatch) in entries {
        let (cx, cy) = (x + 9, y + 7);
        match *swatch {
            Swatch::Area(color) => area
                .draw(&Rectangle::new([(x, y), (x + 18, y + 14)], color.filled()))
                .map_err(err)?,
            Swatch::Band(color) => area
                .draw(&Rectangle::new(
                    [(x, y), (x + 18, y + 14)],
                    color.mix(0.35).filled(),
                ))
                .map_err(err)?,
            Swatch::Line(color) => area
                .draw(&PathElement::new(
                    vec![(x, cy), (x + 18, cy)],
                    color.stroke_width(3),
                ))
                .map_err(err)?,
            Swatch::Marker(color) => area
                .draw(&TriangleMarker::new((cx, cy), 6, color.filled()))
                .map_err(err)?,
        }
        area.draw_text(label, &font, (x + 26, y)).map_err(err)?;
        y += 22;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t_ms: u64, frame: u64, pressure: &str) -> Sample {
        Sample {
            t_ms,
            frame,
            timestamp_ns: 0,
            budget: 100 << 20,
            shares: [50 << 20, 20 << 20, 12 << 20, 6 << 20, 2 << 20],
            live: [frame << 20, 1 << 20, 1 << 20, 1 << 20, 0],
            peak: [frame << 20, 1 << 20, 1 << 20, 1 << 20, 0],
            pressure: pressure.to_owned(),
            device_memory_objects: 1,
            allocation_clamp: 4096,
            allocate_calls: 1,
            counters: Default::default(),
            epochs_in_flight: 0,
            pending_release_bytes: 0,
            device_lost: false,
        }
    }

    #[test]
    fn events_are_placed_by_frame() {
        let samples = [sample(0, 10, "normal"), sample(1000, 20, "warn")];
        let event = |frame, t_ms| EventLine {
            t_ms,
            seq: 0,
            frame,
            kind: "eviction".into(),
            bytes: 0,
        };
        assert_eq!(event_time(&samples, &event(15, 1000)), 0.5);
        assert_eq!(event_time(&samples, &event(20, 1000)), 1.0);
        assert_eq!(event_time(&samples, &event(5, 0)), 0.0);
        assert_eq!(event_time(&samples, &event(30, 1500)), 1.5);
    }

    #[test]
    fn bands_merge_runs_of_one_level() {
        let samples = [
            sample(0, 1, "normal"),
            sample(100, 2, "warn"),
            sample(200, 3, "warn"),
            sample(300, 4, "over"),
            sample(400, 5, "normal"),
        ];
        let (times, _) = time_axis(&samples);
        assert_eq!(
            pressure_bands(&samples, &times),
            vec![(0.1, 0.3, Level::Warn), (0.3, 0.4, Level::Over)]
        );
    }
}
