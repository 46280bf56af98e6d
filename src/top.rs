//! `arenagl top`: a live dashboard of a running ArenaGL process's memory, read from its telemetry
//! page.
//!
//! Design decisions:
//! - Two renderings of one [`View`]: a ratatui dashboard when stdout is a terminal, and a plain
//!   text snapshot with `--once` or when stdout is not a terminal (pipes, tests, logs). Both are
//!   pure functions of the view, so both are tested without a terminal (ratatui's `TestBackend`).
//! - Category bars are drawn against each category's *share* of the budget; a category may
//!   borrow slack, so a bar can pass 100 % (shown red) while the total stays under budget. The
//!   total bar and the sparkline are against the whole budget, which is the hard line.
//! - The terminal is restored on every exit path: `q`, `Esc`, `Ctrl-C` (raw mode turns it into a
//!   key), an error (a guard restores on drop), and a panic (ratatui's hook).
//! - The dashboard keeps running when the publisher is gone (the process exited or dropped its
//!   writer), frozen on its last snapshot and marked `GONE`, so the final state can still be read.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arenagl_residency::telemetry::{telemetry_dir, EventKind};
use arenagl_residency::{Category, Level, Snapshot, TelemetryReader};
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Gauge, List, ListItem, Paragraph, Sparkline};
use ratatui::Frame;

use crate::units::{mib, percent};

/// Options of `arenagl top`.
#[derive(clap::Args, Debug)]
pub struct TopArgs {
    /// The process to attach to; without it, the attachable processes are listed (and the only
    /// one is attached to).
    #[arg(long)]
    pid: Option<u32>,
    /// Print one plain-text snapshot and exit (the default when stdout is not a terminal).
    #[arg(long)]
    once: bool,
    /// Refresh interval in milliseconds.
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(10..))]
    interval_ms: u64,
    /// Telemetry directory (default: $ARENAGL_TELEMETRY_DIR, $XDG_RUNTIME_DIR/arenagl,
    /// or <tmp>/arenagl-<uid>).
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// How long a fresh page may stay empty before `--once` gives up.
const FIRST_SNAPSHOT_WAIT: Duration = Duration::from_secs(2);
/// Samples of total live bytes kept for the sparkline.
const HISTORY: usize = 512;

/// Runs `arenagl top`.
pub fn run(args: &TopArgs) -> Result<(), Box<dyn std::error::Error>> {
    let dir = args.dir.clone().unwrap_or_else(telemetry_dir);
    let pid = match args.pid {
        Some(pid) => pid,
        None => match choose_process(&dir)? {
            Some(pid) => pid,
            None => return Ok(()),
        },
    };
    let reader = TelemetryReader::open_in(&dir, pid)?;
    if args.once || !std::io::stdout().is_terminal() {
        let snapshot = wait_for_snapshot(&reader)?;
        let view = View {
            pid,
            alive: reader.is_alive(),
            snapshot: Some(snapshot),
            history: VecDeque::new(),
        };
        print!("{}", render_text(&view));
        return Ok(());
    }
    dashboard(&reader, Duration::from_millis(args.interval_ms))
}

/// The only attachable process, or `None` after listing several; an error when there is none.
fn choose_process(dir: &Path) -> Result<Option<u32>, Box<dyn std::error::Error>> {
    let pids = TelemetryReader::list_processes_in(dir)?;
    match pids.as_slice() {
        [] => Err(format!(
            "no ArenaGL process is publishing telemetry in {} (start one, or pass --dir / \
             set ARENAGL_TELEMETRY_DIR to where it publishes)",
            dir.display()
        )
        .into()),
        [pid] => Ok(Some(*pid)),
        _ => {
            println!("attachable ArenaGL processes in {}:", dir.display());
            for &pid in &pids {
                let summary = TelemetryReader::open_in(dir, pid)
                    .ok()
                    .and_then(|reader| reader.read())
                    .map_or_else(
                        || "no snapshot yet".to_owned(),
                        |s| {
                            format!(
                                "frame {}, {} of {} live, pressure {}",
                                s.frame,
                                mib(s.total_live_bytes()),
                                mib(s.budget_bytes),
                                s.pressure
                            )
                        },
                    );
                println!("  {pid:>8}  {summary}");
            }
            println!("attach with: arenagl top --pid PID");
            Ok(None)
        }
    }
}

fn wait_for_snapshot(reader: &TelemetryReader) -> Result<Snapshot, String> {
    let deadline = Instant::now() + FIRST_SNAPSHOT_WAIT;
    loop {
        if let Some(snapshot) = reader.read() {
            return Ok(snapshot);
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "process {} has published no snapshot yet ({})",
                reader.pid(),
                reader.path().display()
            ));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Everything one dashboard frame shows.
#[derive(Debug, Clone)]
pub struct View {
    /// The attached process.
    pub pid: u32,
    /// Whether it still publishes.
    pub alive: bool,
    /// The latest snapshot, once there is one.
    pub snapshot: Option<Snapshot>,
    /// Total live bytes, oldest first, one per refresh.
    pub history: VecDeque<u64>,
}

fn level_color(level: Level) -> Color {
    match level {
        Level::Normal => Color::Green,
        Level::Warn => Color::Yellow,
        Level::Critical => Color::LightRed,
        Level::Over => Color::Red,
    }
}

fn event_detail(kind: EventKind, bytes: u64) -> String {
    match kind {
        EventKind::Pressure(_) => format!("usage {}", mib(bytes)),
        EventKind::ProactiveGc | EventKind::BlockingGc => format!("released {}", mib(bytes)),
        EventKind::Eviction | EventKind::Demotion | EventKind::Prune => {
            format!("freed {}", mib(bytes))
        }
        EventKind::Restoration => format!("re-allocated {}", mib(bytes)),
        EventKind::CacheTrim => format!("{bytes} objects destroyed"),
        EventKind::RenderScale => format!("render scale {bytes} %"),
        EventKind::Refusal | EventKind::OomRecovery => format!("requested {}", mib(bytes)),
        EventKind::DeviceLost | EventKind::ClampWarning => String::new(),
    }
}

/// The plain-text snapshot (`--once`, or stdout not a terminal).
pub fn render_text(view: &View) -> String {
    let mut out = String::new();
    let state = if view.alive { "publishing" } else { "GONE" };
    let Some(s) = &view.snapshot else {
        let _ = writeln!(
            out,
            "arenagl top: pid {} ({state}): no snapshot yet",
            view.pid
        );
        return out;
    };
    let total = s.total_live_bytes();
    // Writing into a String cannot fail.
    let _ = writeln!(
        out,
        "arenagl top: pid {} ({state}), frame {}, pressure {}{}",
        view.pid,
        s.frame,
        s.pressure,
        if s.device_lost { ", DEVICE LOST" } else { "" }
    );
    let _ = writeln!(
        out,
        "budget {}, live {} ({:.1} %), slack {}",
        mib(s.budget_bytes),
        mib(total),
        percent(total, s.budget_bytes),
        mib(s.slack_bytes())
    );
    let _ = writeln!(
        out,
        "  {:<16} {:>13} {:>13} {:>8} {:>13}",
        "category", "live", "share", "of share", "peak"
    );
    for category in Category::ALL {
        let _ = writeln!(
            out,
            "  {:<16} {:>13} {:>13} {:>7.1}% {:>13}",
            category.name(),
            mib(s.live_bytes[category]),
            mib(s.budget_shares[category]),
            percent(s.live_bytes[category], s.budget_shares[category]),
            mib(s.peak_bytes[category])
        );
    }
    let _ = writeln!(
        out,
        "device memory: {} objects of clamp {} ({:.1} %), {} vkAllocateMemory calls",
        s.device_memory_objects,
        s.allocation_clamp,
        percent(s.device_memory_objects, s.allocation_clamp),
        s.allocate_calls
    );
    let _ = writeln!(
        out,
        "epochs in flight: {}, pending release: {}, device lost: {}",
        s.epochs_in_flight,
        mib(s.pending_release_bytes),
        if s.device_lost { "yes" } else { "no" }
    );
    let c = &s.counters;
    let _ = writeln!(
        out,
        "counters: proactive GCs {}, blocking GCs {}, evictions {}, demotions {}, refusals {}, \
         OOM recoveries {}",
        c.proactive_gcs, c.blocking_gcs, c.evictions, c.demotions, c.refusals, c.oom_recoveries
    );
    let _ = writeln!(out, "recent events (newest first):");
    let events: Vec<_> = s.events.iter().collect();
    if events.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for (_, event) in events.iter().rev() {
        let _ = writeln!(
            out,
            "  frame {:>8}  {:<18} {}",
            event.frame,
            event.kind.name(),
            event_detail(event.kind, event.bytes)
        );
    }
    out
}

/// Draws the dashboard.
pub fn draw(frame: &mut Frame, view: &View) {
    let [header, body, spark, footer] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(12),
        Constraint::Length(6),
        Constraint::Length(1),
    ])
    .areas(frame.area());

    frame.render_widget(
        Paragraph::new(Line::from(
            "q / Esc / Ctrl-C: quit · bars: live against each category's share; total and \
             sparkline against the budget",
        ))
        .style(Style::default().fg(Color::DarkGray)),
        footer,
    );

    let Some(s) = &view.snapshot else {
        let text = format!(
            "pid {}: {}",
            view.pid,
            if view.alive {
                "waiting for the first snapshot…"
            } else {
                "the process exited before publishing"
            }
        );
        frame.render_widget(
            Paragraph::new(text).block(Block::default().borders(Borders::ALL).title("arenagl top")),
            header,
        );
        return;
    };

    draw_header(frame, header, view, s);
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(body);
    draw_bars(frame, left, s);
    draw_events(frame, right, s);

    let width = usize::from(spark.width.saturating_sub(2));
    let skip = view.history.len().saturating_sub(width);
    let data: Vec<u64> = view.history.iter().skip(skip).copied().collect();
    let sparkline = Sparkline::default()
        .block(Block::default().borders(Borders::ALL).title(format!(
            "total live over time (top = budget {})",
            mib(s.budget_bytes)
        )))
        .data(&data)
        .max(s.budget_bytes.max(1))
        .style(Style::default().fg(level_color(s.pressure)));
    frame.render_widget(sparkline, spark);
}

fn draw_header(frame: &mut Frame, area: Rect, view: &View, s: &Snapshot) {
    let total = s.total_live_bytes();
    let mut spans = Vec::new();
    if !view.alive {
        spans.push(Span::styled(
            "GONE (exited or stopped publishing) · ",
            Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
        ));
    }
    spans.extend([
        Span::raw(format!("pid {} · frame {} · pressure ", view.pid, s.frame)),
        Span::styled(
            s.pressure.name().to_uppercase(),
            Style::default()
                .fg(level_color(s.pressure))
                .add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!(
            " · live {} of {} ({:.1} %) · epochs in flight {} · pending release {}",
            mib(total),
            mib(s.budget_bytes),
            percent(total, s.budget_bytes),
            s.epochs_in_flight,
            mib(s.pending_release_bytes)
        )),
    ]);
    if s.device_lost {
        spans.push(Span::styled(
            " · DEVICE LOST",
            Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
        ));
    }
    frame.render_widget(
        Paragraph::new(Line::from(spans))
            .block(Block::default().borders(Borders::ALL).title("arenagl top")),
        area,
    );
}

fn gauge(label: String, part: u64, whole: u64, color: Color) -> Gauge<'static> {
    let ratio = if whole == 0 {
        0.0
    } else {
        (part as f64 / whole as f64).clamp(0.0, 1.0)
    };
    let color = if part > whole { Color::Red } else { color };
    Gauge::default()
        .gauge_style(Style::default().fg(color).bg(Color::Black))
        .ratio(ratio)
        .label(label)
}

fn draw_bars(frame: &mut Frame, area: Rect, s: &Snapshot) {
    let block = Block::default()
        .borders(Borders::ALL)
        .title("memory by category");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut rows = vec![Constraint::Length(1); Category::COUNT + 5];
    rows.push(Constraint::Min(0));
    let lines = Layout::default()
        .direction(Direction::Vertical)
        .constraints(rows)
        .split(inner);
    let label_width = 16;
    for (row, category) in Category::ALL.into_iter().enumerate() {
        let [name, bar] =
            Layout::horizontal([Constraint::Length(label_width), Constraint::Min(10)])
                .areas(lines[row]);
        frame.render_widget(Paragraph::new(category.name()), name);
        let (live, share) = (s.live_bytes[category], s.budget_shares[category]);
        let label = format!(
            "{} / {} ({:.0} %), peak {}",
            mib(live),
            mib(share),
            percent(live, share),
            mib(s.peak_bytes[category])
        );
        frame.render_widget(gauge(label, live, share, Color::Cyan), bar);
    }
    let total = s.total_live_bytes();
    let rows = [
        (
            "total",
            format!(
                "{} / {} ({:.1} %)",
                mib(total),
                mib(s.budget_bytes),
                percent(total, s.budget_bytes)
            ),
            total,
            s.budget_bytes,
            level_color(s.pressure),
        ),
        (
            "allocations",
            format!(
                "{} / {} VkDeviceMemory ({:.1} %)",
                s.device_memory_objects,
                s.allocation_clamp,
                percent(s.device_memory_objects, s.allocation_clamp)
            ),
            s.device_memory_objects,
            s.allocation_clamp,
            Color::Magenta,
        ),
    ];
    for (offset, (name, label, part, whole, color)) in rows.into_iter().enumerate() {
        let line = lines[Category::COUNT + 1 + offset];
        let [name_area, bar] =
            Layout::horizontal([Constraint::Length(label_width), Constraint::Min(10)]).areas(line);
        frame.render_widget(
            Paragraph::new(name).style(Style::default().add_modifier(Modifier::BOLD)),
            name_area,
        );
        frame.render_widget(gauge(label, part, whole, color), bar);
    }
    let c = &s.counters;
    let counters = Paragraph::new(vec![
        Line::from(format!(
            "GC: {} proactive, {} blocking · evictions {} · demotions {}",
            c.proactive_gcs, c.blocking_gcs, c.evictions, c.demotions
        )),
        Line::from(format!(
            "refusals {} · OOM recoveries {} · vkAllocateMemory calls {}",
            c.refusals, c.oom_recoveries, s.allocate_calls
        )),
    ]);
    let counter_area = Rect {
        height: 2,
        ..lines[Category::COUNT + 4]
    }
    .intersection(inner);
    frame.render_widget(counters, counter_area);
}

fn draw_events(frame: &mut Frame, area: Rect, s: &Snapshot) {
    let items: Vec<ListItem> = s
        .events
        .iter()
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .map(|(_, event)| {
            let color = match event.kind {
                EventKind::Pressure(level) => level_color(level),
                EventKind::Refusal | EventKind::DeviceLost => Color::Red,
                EventKind::OomRecovery | EventKind::ClampWarning => Color::Yellow,
                _ => Color::Gray,
            };
            ListItem::new(Line::from(vec![
                Span::raw(format!("{:>7} ", event.frame)),
                Span::styled(
                    format!("{:<17} ", event.kind.name()),
                    Style::default().fg(color),
                ),
                Span::raw(event_detail(event.kind, event.bytes)),
            ]))
        })
        .collect();
    let title = format!("recent events ({} total)", s.events.recorded());
    frame.render_widget(
        List::new(items).block(Block::default().borders(Borders::ALL).title(title)),
        area,
    );
}

/// Restores the terminal however the dashboard ends.
struct RestoreTerminal;

impl Drop for RestoreTerminal {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

fn dashboard(
    reader: &TelemetryReader,
    interval: Duration,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut terminal = ratatui::try_init()?;
    let _restore = RestoreTerminal;
    let mut view = View {
        pid: reader.pid(),
        alive: true,
        snapshot: None,
        history: VecDeque::with_capacity(HISTORY),
    };
    loop {
        if let Some(snapshot) = reader.read() {
            if view.history.len() == HISTORY {
                view.history.pop_front();
            }
            view.history.push_back(snapshot.total_live_bytes());
            view.snapshot = Some(snapshot);
        }
        view.alive = reader.is_alive();
        terminal.draw(|frame| draw(frame, &view))?;
        let next = Instant::now() + interval;
        loop {
            let timeout = next.saturating_duration_since(Instant::now());
            if timeout.is_zero() || !event::poll(timeout)? {
                break;
            }
            if let Event::Key(key) = event::read()? {
                let quit = key.kind == KeyEventKind::Press
                    && (matches!(key.code, KeyCode::Char('q') | KeyCode::Esc)
                        || (key.code == KeyCode::Char('c')
                            && key.modifiers.contains(KeyModifiers::CONTROL)));
                if quit {
                    return Ok(());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arenagl_residency::telemetry::{Counters, Event as TelemetryEvent, EventRing};
    use arenagl_residency::CategoryMap;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    fn snapshot() -> Snapshot {
        let mut events = EventRing::default();
        events.push(TelemetryEvent {
            kind: EventKind::Pressure(Level::Warn),
            frame: 4240,
            bytes: 900 << 20,
        });
        events.push(TelemetryEvent {
            kind: EventKind::ProactiveGc,
            frame: 4241,
            bytes: 12 << 20,
        });
        Snapshot {
            frame: 4242,
            budget_bytes: 1000 << 20,
            budget_shares: CategoryMap::from_array([
                500 << 20,
                200 << 20,
                120 << 20,
                60 << 20,
                20 << 20,
            ]),
            live_bytes: CategoryMap::from_array([
                520 << 20,
                150 << 20,
                100 << 20,
                30 << 20,
                10 << 20,
            ]),
            peak_bytes: CategoryMap::from_array([
                530 << 20,
                160 << 20,
                100 << 20,
                40 << 20,
                10 << 20,
            ]),
            device_memory_objects: 117,
            allocation_clamp: 4096,
            allocate_calls: 230,
            pressure: Level::Warn,
            counters: Counters {
                proactive_gcs: 3,
                ..Counters::default()
            },
            events,
            ..Snapshot::default()
        }
    }

    fn screen(view: &View, width: u16, height: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        terminal.draw(|frame| draw(frame, view)).expect("draw");
        let buffer = terminal.backend().buffer();
        let mut text = String::new();
        for y in 0..buffer.area.height {
            for x in 0..buffer.area.width {
                text.push_str(buffer[(x, y)].symbol());
            }
            text.push('\n');
        }
        text
    }

    #[test]
    fn dashboard_shows_categories_pressure_clamp_and_events() {
        let view = View {
            pid: 77,
            alive: true,
            snapshot: Some(snapshot()),
            history: (0..50).map(|i| (700 + i) << 20).collect(),
        };
        let text = screen(&view, 140, 30);
        for expected in [
            "pid 77 · frame 4242",
            "WARN",
            "textures",
            "520.0 MiB / 500.0 MiB (104 %)",
            "render-targets",
            "117 / 4096 VkDeviceMemory",
            "810.0 MiB / 1000.0 MiB (81.0 %)",
            "pressure-warn",
            "proactive-gc",
            "recent events (2 total)",
            "total live over time",
        ] {
            assert!(text.contains(expected), "missing `{expected}` in\n{text}");
        }
    }

    #[test]
    fn dashboard_marks_an_exited_process_and_a_missing_snapshot() {
        let mut view = View {
            pid: 5,
            alive: false,
            snapshot: Some(snapshot()),
            history: VecDeque::new(),
        };
        assert!(screen(&view, 140, 30).contains("GONE"));
        view.snapshot = None;
        assert!(screen(&view, 100, 24).contains("exited before publishing"));
        // A tiny terminal must not panic.
        view.snapshot = Some(snapshot());
        screen(&view, 20, 5);
    }

    #[test]
    fn text_snapshot_lists_everything_newest_event_first() {
        let view = View {
            pid: 77,
            alive: true,
            snapshot: Some(snapshot()),
            history: VecDeque::new(),
        };
        let text = render_text(&view);
        assert!(text.contains("frame 4242, pressure warn"), "{text}");
        assert!(text.contains("117 objects of clamp 4096"), "{text}");
        let gc = text.find("proactive-gc").expect("gc event");
        let warn = text.find("pressure-warn").expect("warn event");
        assert!(gc < warn, "newest first:\n{text}");
    }

    #[test]
    fn dashboard_renders_the_live_page_of_a_memory_workload_in_another_thread() {
        use arenagl_memory::sim::{SimBackend, SimConfig};
        use arenagl_memory::{
            BufferDesc, Category as MemCategory, Manager, ManagerConfig, MemoryClass,
        };
        use arenagl_residency::{Budget, TelemetryReader};
        use ash::vk;

        let dir = std::env::temp_dir().join(format!("arenagl-top-live-{}", std::process::id()));
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let page_dir = dir.clone();
        // The real memory manager (on the simulated device) runs a workload and publishes.
        let worker = std::thread::spawn(move || {
            let mut m = Manager::with_backend(
                SimBackend::new(SimConfig::default()),
                ManagerConfig {
                    budget: Some(Budget::fixed(64 << 20)),
                    ..ManagerConfig::default()
                },
            );
            m.publish_telemetry(Some(&page_dir)).expect("page");
            let desc = BufferDesc::new(
                1 << 20,
                vk::BufferUsageFlags::VERTEX_BUFFER,
                MemoryClass::DeviceBuffer,
                MemCategory::Texture,
            );
            let mut held = Vec::new();
            for _ in 0..52 {
                held.push(m.create_buffer(&desc).expect("fits the budget"));
                m.begin_frame().expect("frame");
            }
            ready_tx.send(()).expect("ready");
            let _ = done_rx.recv();
            drop(held);
        });
        ready_rx.recv().expect("workload ran");
        let reader = TelemetryReader::open_in(&dir, std::process::id()).expect("live page");
        let snapshot = reader.read().expect("a snapshot");
        let view = View {
            pid: std::process::id(),
            alive: reader.is_alive(),
            snapshot: Some(snapshot),
            history: VecDeque::new(),
        };
        let text = screen(&view, 140, 30);
        done_tx.send(()).expect("release the worker");
        worker.join().expect("worker");
        let _ = std::fs::remove_dir_all(&dir);
        for expected in [
            "frame 53",
            "WARN",
            "textures",
            "52.0 MiB",
            "64.0 MiB",
            "pressure-warn",
            "proactive-gc",
        ] {
            assert!(text.contains(expected), "missing `{expected}` in\n{text}");
        }
    }
}
