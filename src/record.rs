//! `arenagl record`: samples a live process's telemetry page into a file, for `arenagl report`.
//!
//! Design decisions:
//! - **JSON lines**, one object per line with a `"type"` tag: one `header`, then `sample`s and
//!   `event`s interleaved in time order, `events-lost` when the ring overflowed between two
//!   samples, and an `end` line with the reason recording stopped. Self-describing (a person can
//!   `grep`/`jq` it), appendable, and a file cut short by Ctrl-C is still readable up to its last
//!   complete line (each sample is flushed as it is written). Per-category arrays follow the
//!   `categories` list of the header.
//! - Times are milliseconds since recording started (`t_ms`), measured by the recorder; the
//!   writer's own clock is kept too (`timestamp_ns`).
//! - Events are taken from the page's ring by sequence number, so each is recorded once;
//!   events from before the recording started are not recorded.
//! - Recording stops after `--seconds`, or when the publisher is gone (the process exited or
//!   dropped its writer), after a last sample.
//!
//! ```text
//! {"type":"header","format":"arenagl-recording","version":1,"pid":4242,"interval_ms":100,"started_unix_ns":...,"categories":["textures","buffers","render-targets","staging","pipelines"]}
//! {"type":"sample","t_ms":0,"frame":120,"timestamp_ns":...,"budget":...,"shares":[...],"live":[...],"peak":[...],"pressure":"normal","device_memory_objects":31,"allocation_clamp":4096,"allocate_calls":40,"counters":{"proactive_gcs":0,...},"epochs_in_flight":2,"pending_release_bytes":0,"device_lost":false}
//! {"type":"event","t_ms":100,"seq":7,"frame":121,"kind":"pressure-warn","bytes":943718400}
//! {"type":"end","t_ms":5000,"reason":"duration"}
//! ```

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arenagl_residency::telemetry::{telemetry_dir, unix_time_ns, Counters, EventKind};
use arenagl_residency::{Category, Level, Snapshot, TelemetryReader};
use serde::{Deserialize, Serialize};

/// The `format` field of a recording's header.
pub const FORMAT: &str = "arenagl-recording";
/// The recording format version this build writes and reads.
pub const VERSION: u32 = 1;

/// Options of `arenagl record`.
#[derive(clap::Args, Debug)]
pub struct RecordArgs {
    /// The process to record.
    #[arg(long)]
    pid: u32,
    /// The recording to write (JSON lines).
    #[arg(short, long)]
    output: PathBuf,
    /// Stop after this many seconds (default: when the process exits).
    #[arg(long)]
    seconds: Option<f64>,
    /// Sampling interval in milliseconds.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    interval_ms: u64,
    /// Telemetry directory (default: $ARENAGL_TELEMETRY_DIR, $XDG_RUNTIME_DIR/arenagl,
    /// or <tmp>/arenagl-<uid>).
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// One line of a recording.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Line {
    /// The first line.
    Header(Header),
    /// The page as read at `t_ms`.
    Sample(Sample),
    /// One event from the page's ring.
    Event(EventLine),
    /// Events overwritten in the ring before they could be read.
    EventsLost {
        /// When the loss was noticed.
        t_ms: u64,
        /// How many.
        count: u64,
    },
    /// Why recording stopped.
    End {
        /// When.
        t_ms: u64,
        /// `duration` or `publisher gone`.
        reason: String,
    },
}

/// What was recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format version ([`VERSION`]).
    pub version: u32,
    /// The recorded process.
    pub pid: u32,
    /// The sampling interval.
    pub interval_ms: u64,
    /// When recording started.
    pub started_unix_ns: u64,
    /// The order of the per-category arrays.
    pub categories: Vec<String>,
}

/// One sample of the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Milliseconds since recording started.
    pub t_ms: u64,
    /// The writer's frame number.
    pub frame: u64,
    /// The writer's clock.
    pub timestamp_ns: u64,
    /// The total budget.
    pub budget: u64,
    /// Per-category budget shares.
    pub shares: [u64; Category::COUNT],
    /// Per-category live bytes.
    pub live: [u64; Category::COUNT],
    /// Per-category peak bytes.
    pub peak: [u64; Category::COUNT],
    /// The pressure level's name.
    pub pressure: String,
    /// `VkDeviceMemory` objects alive.
    pub device_memory_objects: u64,
    /// The allocation-count clamp.
    pub allocation_clamp: u64,
    /// `vkAllocateMemory` calls so far.
    pub allocate_calls: u64,
    /// The counters.
    pub counters: CounterFields,
    /// Epochs in flight.
    pub epochs_in_flight: u64,
    /// Bytes waiting for their epoch.
    pub pending_release_bytes: u64,
    /// The device-lost latch.
    pub device_lost: bool,
}

/// [`Counters`] with names in the file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterFields {
    /// Proactive collections.
    pub proactive_gcs: u64,
    /// Blocking collections.
    pub blocking_gcs: u64,
    /// Evictions.
    pub evictions: u64,
    /// Demotions.
    pub demotions: u64,
    /// Refusals.
    pub refusals: u64,
    /// OOM-ladder recoveries.
    pub oom_recoveries: u64,
}

impl From<Counters> for CounterFields {
    fn from(c: Counters) -> Self {
        CounterFields {
            proactive_gcs: c.proactive_gcs,
            blocking_gcs: c.blocking_gcs,
            evictions: c.evictions,
            demotions: c.demotions,
            refusals: c.refusals,
            oom_recoveries: c.oom_recoveries,
        }
    }
}

/// One event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventLine {
    /// When the recorder first saw it.
    pub t_ms: u64,
    /// Its sequence number in the writer's ring.
    pub seq: u64,
    /// The frame it happened in.
    pub frame: u64,
    /// [`EventKind::name`].
    pub kind: String,
    /// The bytes involved.
    pub bytes: u64,
}

impl Sample {
    fn from_snapshot(t_ms: u64, s: &Snapshot) -> Sample {
        Sample {
            t_ms,
            frame: s.frame,
            timestamp_ns: s.timestamp_ns,
            budget: s.budget_bytes,
            shares: *s.budget_shares.values(),
            live: *s.live_bytes.values(),
            peak: *s.peak_bytes.values(),
            pressure: s.pressure.name().to_owned(),
            device_memory_objects: s.device_memory_objects,
            allocation_clamp: s.allocation_clamp,
            allocate_calls: s.allocate_calls,
            counters: s.counters.into(),
            epochs_in_flight: s.epochs_in_flight,
            pending_release_bytes: s.pending_release_bytes,
            device_lost: s.device_lost,
        }
    }

    /// The pressure level (validated on load).
    pub fn level(&self) -> Level {
        level_by_name(&self.pressure).unwrap_or(Level::Normal)
    }

    /// Live bytes over all categories.
    pub fn total_live(&self) -> u64 {
        self.live.iter().fold(0u64, |sum, &b| sum.saturating_add(b))
    }
}

fn level_by_name(name: &str) -> Option<Level> {
    Level::ALL.into_iter().find(|level| level.name() == name)
}

/// A recording loaded for reporting.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// Its header.
    pub header: Header,
    /// Samples in time order.
    pub samples: Vec<Sample>,
    /// Events in time order, with their kinds parsed.
    pub events: Vec<(EventKind, EventLine)>,
    /// Events the ring lost between samples.
    pub events_lost: u64,
}

impl Recording {
    /// Loads and validates a recording; errors name the line at fault.
    pub fn load(path: &Path) -> Result<Recording, String> {
        let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let mut header = None;
        let mut recording = Recording {
            header: Header {
                format: String::new(),
                version: 0,
                pid: 0,
                interval_ms: 0,
                started_unix_ns: 0,
                categories: Vec::new(),
            },
            samples: Vec::new(),
            events: Vec::new(),
            events_lost: 0,
        };
        for (index, line) in BufReader::new(file).lines().enumerate() {
            let number = index + 1;
            let corrupt = |why: String| format!("{}:{number}: {why}", path.display());
            let line = line.map_err(|e| corrupt(format!("cannot read: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let parsed: Line = serde_json::from_str(&line)
                .map_err(|e| corrupt(format!("not a recording line ({e})")))?;
            match (parsed, header.is_some()) {
                (Line::Header(h), false) => {
                    if h.format != FORMAT {
                        return Err(corrupt(format!("format `{}`, not `{FORMAT}`", h.format)));
                    }
                    if h.version != VERSION {
                        return Err(corrupt(format!(
                            "recording format version {}; this arenagl reads version {VERSION}",
                            h.version
                        )));
                    }
                    let expected: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
                    if h.categories != expected {
                        return Err(corrupt(format!("unknown categories {:?}", h.categories)));
                    }
                    header = Some(h);
                }
                (_, false) => return Err(corrupt("the first line must be the header".into())),
                (Line::Header(_), true) => return Err(corrupt("a second header".into())),
                (Line::Sample(sample), true) => {
                    if level_by_name(&sample.pressure).is_none() {
                        return Err(corrupt(format!("unknown level `{}`", sample.pressure)));
                    }
                    recording.samples.push(sample);
                }
                (Line::Event(event), true) => {
                    let kind = EventKind::from_name(&event.kind)
                        .ok_or_else(|| corrupt(format!("unknown event kind `{}`", event.kind)))?;
                    recording.events.push((kind, event));
                }
                (Line::EventsLost { count, .. }, true) => recording.events_lost += count,
                (Line::End { .. }, true) => {}
            }
        }
        recording.header = header.ok_or_else(|| format!("{}: empty recording", path.display()))?;
        Ok(recording)
    }
}

/// Runs `arenagl record`.
pub fn run(args: &RecordArgs) -> Result<(), Box<dyn std::error::Error>> {
    let dir = args.dir.clone().unwrap_or_else(telemetry_dir);
    let reader = TelemetryReader::open_in(&dir, args.pid)?;
    let file = File::create(&args.output)
        .map_err(|e| format!("cannot create {}: {e}", args.output.display()))?;
    let mut out = BufWriter::new(file);
    let interval = Duration::from_millis(args.interval_ms);
    let duration = match args.seconds {
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => return Err(format!("--seconds must be a positive number, not {s}").into()),
        None => None,
    };
    let stats = record(&reader, &mut out, interval, duration)?;
    out.flush()?;
    eprintln!(
        "arenagl: recorded {} samples and {} events of process {} over {:.1} s into {} ({})",
        stats.samples,
        stats.events,
        args.pid,
        stats.elapsed.as_secs_f64(),
        args.output.display(),
        stats.reason
    );
    Ok(())
}

struct Stats {
    samples: u64,
    events: u64,
    elapsed: Duration,
    reason: &'static str,
}

fn write_line(out: &mut impl Write, line: &Line) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}

fn record(
    reader: &TelemetryReader,
    out: &mut impl Write,
    interval: Duration,
    duration: Option<Duration>,
) -> std::io::Result<Stats> {
    let start = Instant::now();
    write_line(
        out,
        &Line::Header(Header {
            format: FORMAT.to_owned(),
            version: VERSION,
            pid: reader.pid(),
            interval_ms: interval.as_millis() as u64,
            started_unix_ns: unix_time_ns(),
            categories: Category::ALL.iter().map(|c| c.name().to_owned()).collect(),
        }),
    )?;
    let mut stats = Stats {
        samples: 0,
        events: 0,
        elapsed: Duration::ZERO,
        reason: "duration",
    };
    let mut seen_events: Option<u64> = None;
    let mut next_tick = start;
    loop {
        let t_ms = start.elapsed().as_millis() as u64;
        // Checked before reading, so the last snapshot of a publisher that is gone is still taken.
        let alive = reader.is_alive();
        if let Some(snapshot) = reader.read() {
            write_line(out, &Line::Sample(Sample::from_snapshot(t_ms, &snapshot)))?;
            stats.samples += 1;
            let seen = *seen_events.get_or_insert(snapshot.events.recorded());
            let (lost, events) = snapshot.events.since(seen);
            if lost > 0 {
                write_line(out, &Line::EventsLost { t_ms, count: lost })?;
            }
            for (seq, event) in events {
                write_line(
                    out,
                    &Line::Event(EventLine {
                        t_ms,
                        seq,
                        frame: event.frame,
                        kind: event.kind.name().to_owned(),
                        bytes: event.bytes,
                    }),
                )?;
                stats.events += 1;
            }
            seen_events = Some(snapshot.events.recorded());
            out.flush()?;
        }
        if !alive {
            stats.reason = "publisher gone";
            break;
        }
        if duration.is_some_and(|d| start.elapsed() >= d) {
            break;
        }
        next_tick += interval;
        let now = Instant::now();
        if next_tick > now {
            std::thread::sleep(next_tick - now);
        } else {
            next_tick = now; // fell behind: do not burst to catch up
        }
    }
    stats.elapsed = start.elapsed();
    write_line(
        out,
        &Line::End {
            t_ms: stats.elapsed.as_millis() as u64,
            reason: stats.reason.to_owned(),
        },
    )?;
    Ok(stats)
}
