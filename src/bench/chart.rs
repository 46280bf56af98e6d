//! The benchmark's PNG: two panels of grouped bars, one group per scene and one bar per
//! implementation — p50 frame time (log scale: the scenes differ by orders of magnitude) and
//! the child's peak RSS. Failed runs leave a gap. Text uses the embedded DejaVu Sans that
//! `arenagl report` registers, so it renders the same with no system fonts.

use std::path::Path;

use plotters::prelude::*;

use super::table::{Measure, Row};
use super::Impl;

const COLOURS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),  // ArenaGL
    RGBColor(255, 127, 14),  // Zink
    RGBColor(44, 160, 44),   // llvmpipe
    RGBColor(148, 103, 189), // system GL
];

fn colour(implementation: Impl) -> RGBColor {
    COLOURS[match implementation {
        Impl::ArenaGl => 0,
        Impl::Zink => 1,
        Impl::Llvmpipe => 2,
        Impl::System => 3,
    }]
}

fn err(e: impl std::fmt::Display) -> String {
    format!("cannot draw the bench chart: {e}")
}

/// Renders `rows` to a PNG at `output`.
pub fn render(rows: &[Row], output: &Path) -> Result<(), String> {
    crate::report::register_fonts()?;
    let root = BitMapBackend::new(output, (1400, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let (left, right) = root.split_horizontally(700);
    panel(rows, &left, "p50 frame time (ms, log scale)", true, |m| {
        Some(m.p50_ms)
    })?;
    panel(rows, &right, "peak RSS (MiB)", false, |m| {
        m.peak_rss_kib.map(|k| k as f64 / 1024.0)
    })?;
    root.present()
        .map_err(|e| format!("cannot write {}: {e}", output.display()))
}

fn panel(
    rows: &[Row],
    area: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
    caption: &str,
    log: bool,
    value: fn(&Measure) -> Option<f64>,
) -> Result<(), String> {
    let mut scenes = Vec::new();
    let mut impls = Vec::new();
    for row in rows {
        if !scenes.contains(&row.scene) {
            scenes.push(row.scene);
        }
        if !impls.contains(&row.implementation) {
            impls.push(row.implementation);
        }
    }
    let values: Vec<(usize, usize, f64)> = rows
        .iter()
        .filter_map(|row| {
            let (m, _) = row.outcome.as_ref().ok()?;
            let v = value(m)?;
            let s = scenes.iter().position(|s| *s == row.scene)?;
            let i = impls.iter().position(|i| *i == row.implementation)?;
            Some((s, i, v))
        })
        .collect();
    let top = values.iter().map(|v| v.2).fold(1.0f64, f64::max);
    // Headroom above the tallest bar for the legend (a log axis needs a factor, not a margin).
    let max = if log { top * 4.0 } else { top * 1.45 };
    let min = values
        .iter()
        .map(|v| v.2)
        .fold(f64::INFINITY, f64::min)
        .clamp(1e-3, 1.0)
        * 0.5;
    let names: Vec<&str> = scenes.iter().map(|s| s.name()).collect();
    let group = 0.8 / impls.len().max(1) as f64;
    let bars = values.iter().map(|&(s, i, v)| {
        let x0 = s as f64 + 0.1 + i as f64 * group;
        (x0, x0 + group * 0.9, v, colour(impls[i]))
    });
    let x_label = |x: &f64| {
        let at = (*x - 0.5).round();
        if (*x - 0.5 - at).abs() < 1e-6 && at >= 0.0 {
            names.get(at as usize).copied().unwrap_or("").to_owned()
        } else {
            String::new()
        }
    };
    let x_range = 0.0..scenes.len().max(1) as f64;
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(caption, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64);
    // The two scales are different types; each branch draws its own chart.
    macro_rules! draw {
        ($chart:expr, $floor:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(scenes.len() * 2 + 1)
                .x_label_formatter(&x_label)
                .label_style(("sans-serif", 15))
                .draw()
                .map_err(err)?;
            chart
                .draw_series(
                    bars.map(|(x0, x1, v, c)| Rectangle::new([(x0, $floor), (x1, v)], c.filled())),
                )
                .map_err(err)?;
            for &implementation in &impls {
                let c = colour(implementation);
                chart
                    .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
                    .map_err(err)?
                    .label(implementation.label())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled())
                    });
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 15))
                .draw()
                .map_err(err)?;
        }};
    }
    if log {
        draw!(
            builder
                .build_cartesian_2d(x_range, (min..max).log_scale())
                .map_err(err)?,
            min
        );
    } else {
        draw!(
            builder.build_cartesian_2d(x_range, 0.0..max).map_err(err)?,
            0.0
        );
    }
    Ok(())
}
