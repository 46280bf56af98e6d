//! `arenagl demo`: a Minecraft-like GL scene rendered through the chosen implementation
//! (`--gl`, ArenaGL by default), headless on a pbuffer, with frame-time and memory statistics.
//!
//! What a frame does: re-mesh and re-upload a few "changed" chunks (deterministic edits) into
//! the 42 MiB mesh arena with `glBufferSubData`, draw 64 chunks with per-draw uniforms over 14
//! fully mipmapped 1024² atlases, then the blended water/glass pass, then `glFinish` — a frame's
//! time includes the finish, so it is the GPU's time too, not only the submission's — and then
//! `eglSwapBuffers` (no effect on a pbuffer, but the frame boundary a game gives its GL).
//!
//! With `--window` the frames go to an X11 window on `$DISPLAY` instead, and the swap that
//! presents them counts in the frame time. Closing the window (or losing the X server) ends the
//! run early, statistics still printed; `--frames 0` runs until then. The PNG is the last frame
//! drawn once more into the back buffer after the loop and read before any swap (a swap leaves
//! the back buffer undefined); it is skipped when the window is gone.
//!
//! The run ends with a human-readable summary and one `DEMO_RESULT` line for scripts; with
//! ArenaGL it also prints the memory manager's statistics from this process's own telemetry page.

mod atlas;
mod renderer;
mod world;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::glclient::{GlClientError, Implementation, Session, WindowEnd};
use crate::math;
use renderer::Renderer;
use world::{World, CHUNK_COUNT, WORLD};

/// Options of `arenagl demo`.
#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    /// The GL implementation: arenagl, system (Mesa llvmpipe), zink, or a libEGL path.
    #[arg(long, default_value = "arenagl")]
    gl: Implementation,
    /// Frames to render; with --window, 0 runs until the window is closed.
    #[arg(long, default_value_t = 120)]
    frames: u32,
    /// Show the frames in an X11 window on $DISPLAY (the swap counts in the frame time).
    #[arg(long)]
    window: bool,
    /// Framebuffer (or window) width.
    #[arg(long, default_value_t = 854)]
    width: u32,
    /// Framebuffer (or window) height.
    #[arg(long, default_value_t = 480)]
    height: u32,
    /// Where to write the last frame.
    #[arg(long, default_value = "target/arenagl-demo.png")]
    out: PathBuf,
    /// Sleep this long after each frame (not counted in frame times), e.g. to watch with
    /// `arenagl top`.
    #[arg(long, default_value_t = 0)]
    frame_interval_ms: u64,
}

/// Chunks edited, re-meshed and re-uploaded per frame.
const CHANGED_PER_FRAME: usize = 3;

/// Frame-time statistics in milliseconds.
struct FrameStats {
    mean: f64,
    p50: f64,
    p95: f64,
}

fn frame_stats(times_ms: &[f64]) -> FrameStats {
    let mut sorted = times_ms.to_vec();
    sorted.sort_by(f64::total_cmp);
    let pick = |q: f64| {
        // Nearest-rank percentile.
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len().max(1));
        sorted.get(rank - 1).copied().unwrap_or(0.0)
    };
    FrameStats {
        mean: sorted.iter().sum::<f64>() / sorted.len().max(1) as f64,
        p50: pick(0.50),
        p95: pick(0.95),
    }
}

/// `VmHWM` (peak resident set) of this process in KiB, from `/proc/self/status`.
pub(crate) fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The camera of frame `frame`: a slow circle around the world's centre, looking at it.
fn camera(frame: u32, aspect: f32) -> (math::Mat4, [f32; 3]) {
    let centre = WORLD as f32 / 2.0;
    let angle = 0.6 + frame as f32 * 0.004;
    let eye = [
        centre + 58.0 * angle.cos(),
        30.0,
        centre + 58.0 * angle.sin(),
    ];
    let view = math::look_at(eye, [centre, 4.0, centre]);
    let projection = math::perspective(70f32.to_radians(), aspect, 0.1, 300.0);
    (math::mul(&projection, &view), eye)
}

/// The demo's world and GL objects as a scene drawn a frame at a time (`arenagl bench`'s
/// Minecraft-like scene): the same streaming and draws as a demo frame, without the `glFinish`.
pub(crate) struct DemoScene {
    world: World,
    renderer: Renderer,
}

impl DemoScene {
    /// Generates the world, builds the atlases and arenas and uploads every chunk.
    pub(crate) fn new(gl: &crate::glclient::Gl) -> Result<DemoScene, GlClientError> {
        let world = World::generate();
        let mut renderer = Renderer::new(gl)?;
        for chunk in 0..CHUNK_COUNT {
            renderer.upload(gl, chunk, &world.mesh(chunk));
        }
        gl.check_error("demo scene: setup")?;
        Ok(DemoScene { world, renderer })
    }

    /// Frame `frame`: edits and re-uploads the frame's changed chunks, draws both passes into a
    /// `width` × `height` surface; returns the bytes streamed.
    pub(crate) fn frame(
        &mut self,
        gl: &crate::glclient::Gl,
        frame: u32,
        width: u32,
        height: u32,
    ) -> usize {
        let mut streamed = 0;
        for j in 0..CHANGED_PER_FRAME {
            let chunk = (frame as usize * CHANGED_PER_FRAME + j) * 7 % CHUNK_COUNT;
            self.world.edit(chunk, frame);
            streamed += self.renderer.upload(gl, chunk, &self.world.mesh(chunk));
        }
        let (view_proj, eye) = camera(frame, width as f32 / height.max(1) as f32);
        self.renderer.draw(gl, &view_proj, eye, width, height);
        streamed
    }

    /// Deletes every object.
    pub(crate) fn release(&mut self, gl: &crate::glclient::Gl) {
        self.renderer.release(gl);
    }
}

/// The window's title.
const WINDOW_TITLE: &str = "ArenaGL demo";

/// Runs the demo.
pub fn run(args: &DemoArgs) -> Result<(), GlClientError> {
    if args.frames == 0 && !args.window {
        return Err(GlClientError::Usage(
            "--frames must be at least 1 (0, until the window is closed, needs --window)".into(),
        ));
    }
    let session = if args.window {
        Session::new_window(&args.gl, args.width, args.height, WINDOW_TITLE)?
    } else {
        Session::new(&args.gl, args.width, args.height)?
    };
    let gl = session.gl();
    let renderer_name = session.renderer();
    let frames = match args.frames {
        0 => "frames until the window is closed".to_owned(),
        n => format!("{n} frames"),
    };
    println!("GL_RENDERER: {renderer_name}");
    println!(
        "GL: {renderer_name} ({}; EGL {}.{} from {}); {}×{} {}, {frames}",
        gl.string(crate::glclient::gl::consts::VERSION),
        session.egl_version().0,
        session.egl_version().1,
        session.library_path().display(),
        args.width,
        args.height,
        if args.window { "X11 window" } else { "pbuffer" },
    );
    let setup = Instant::now();
    let mut world = World::generate();
    let mut renderer = Renderer::new(gl)?;
    let mut uploaded = 0;
    for chunk in 0..CHUNK_COUNT {
        uploaded += renderer.upload(gl, chunk, &world.mesh(chunk));
    }
    gl.finish();
    gl.check_error("demo: setup")?;
    let (opaque, translucent) = renderer.faces();
    println!(
        "setup: {:.0} ms; 14 atlases of 1024² with 11 mip levels; {CHUNK_COUNT} chunks, {opaque} \
         opaque + {translucent} translucent faces, {:.1} MiB of meshes in {:.1} MiB of arenas",
        setup.elapsed().as_secs_f64() * 1000.0,
        uploaded as f64 / f64::from(1 << 20),
        (renderer::OPAQUE_ARENA_BYTES + renderer::TRANSLUCENT_ARENA_BYTES) as f64
            / f64::from(1 << 20)
    );

    let mut times_ms = Vec::with_capacity(args.frames.min(100_000) as usize);
    let mut streamed = 0usize;
    let mut ended: Option<WindowEnd> = None;
    let mut frame = 0;
    while args.frames == 0 || frame < args.frames {
        if let Some(end) = session.poll_window() {
            ended = Some(end);
            break;
        }
        // A window's surface follows the window's size.
        let (width, height) = session.surface_size()?;
        let start = Instant::now();
        for j in 0..CHANGED_PER_FRAME {
            let chunk = (frame as usize * CHANGED_PER_FRAME + j) * 7 % CHUNK_COUNT;
            world.edit(chunk, frame);
            streamed += renderer.upload(gl, chunk, &world.mesh(chunk));
        }
        draw_frame(gl, &mut renderer, frame, width, height);
        let mut elapsed = start.elapsed();
        gl.check_error(&format!("demo: frame {frame}"))?;
        // The frame boundary a game gives its GL (ArenaGL ends its frame epoch here). Headless,
        // after the timing, so every implementation's frame time is scene + glFinish alone; in
        // a window the swap presents, and presenting is part of showing a frame.
        let swap = Instant::now();
        if let Err(e) = session.swap_buffers() {
            match session.poll_window() {
                Some(end) => {
                    ended = Some(end);
                    break;
                }
                None if args.window && !session.window_alive() => {
                    ended = Some(WindowEnd::ConnectionLost);
                    break;
                }
                None => return Err(e),
            }
        }
        if args.window {
            elapsed += swap.elapsed();
        }
        times_ms.push(elapsed.as_secs_f64() * 1000.0);
        frame = frame.saturating_add(1);
        if args.frame_interval_ms > 0 {
            std::thread::sleep(Duration::from_millis(args.frame_interval_ms));
        }
    }
    let rendered = frame;
    let last_frame = last_frame_image(&session, &mut renderer, rendered, args.window)?;
    let written = match last_frame {
        Ok(image) => {
            image.write_png(&args.out)?;
            args.out.display().to_string()
        }
        Err(why) => format!("not written ({why})"),
    };
    let stats = frame_stats(&times_ms);
    let rss = peak_rss_kib();
    if let Some(end) = ended {
        println!("window: {end} after {rendered} frames; the run ends there");
    }
    println!(
        "frames: {rendered}; frame time ({}): mean {:.2} ms, p50 {:.2} ms, p95 {:.2} ms; \
         streamed {:.1} MiB of chunk meshes ({CHANGED_PER_FRAME} chunks a frame)",
        if args.window {
            "scene + glFinish + eglSwapBuffers"
        } else {
            "scene + glFinish"
        },
        stats.mean,
        stats.p50,
        stats.p95,
        streamed as f64 / f64::from(1 << 20)
    );
    if renderer.truncated_faces > 0 {
        println!(
            "warning: {} faces did not fit their chunk's slot and were not drawn",
            renderer.truncated_faces
        );
    }
    println!(
        "peak RSS (VmHWM): {}",
        rss.map_or_else(|| "unknown".to_owned(), |k| format!("{k} KiB"))
    );
    println!("last frame: {written}");
    print_memory_manager(session.implementation().is_arenagl());
    if session.window_alive() {
        renderer.release(gl);
        gl.check_error("demo: deleting its objects")?;
    }
    println!(
        "DEMO_RESULT gl={} frames={rendered} mean_ms={:.3} p50_ms={:.3} p95_ms={:.3} \
         peak_rss_kib={}",
        args.gl,
        stats.mean,
        stats.p50,
        stats.p95,
        rss.unwrap_or(0)
    );
    Ok(())
}

/// Draws frame `frame`'s view of the world into a `width` × `height` surface and waits for it.
fn draw_frame(
    gl: &crate::glclient::Gl,
    renderer: &mut Renderer,
    frame: u32,
    width: u32,
    height: u32,
) {
    let aspect = width as f32 / height.max(1) as f32;
    let (view_proj, eye) = camera(frame, aspect);
    renderer.draw(gl, &view_proj, eye, width, height);
    gl.finish();
}

/// The last of `rendered` frames as an image, or why there is none. A pbuffer still holds it; a
/// window's back buffer is undefined after the swap, so the frame is drawn once more (not
/// presented) and read before any swap.
fn last_frame_image(
    session: &Session,
    renderer: &mut Renderer,
    rendered: u32,
    window: bool,
) -> Result<Result<crate::glclient::Image, &'static str>, GlClientError> {
    if window {
        if rendered == 0 {
            return Ok(Err("no frame was rendered"));
        }
        if !session.window_alive() {
            return Ok(Err("the window is gone"));
        }
        let (width, height) = session.surface_size()?;
        draw_frame(session.gl(), renderer, rendered - 1, width, height);
        session.gl().check_error("demo: redrawing the last frame")?;
    }
    Ok(Ok(session.read_image()?))
}

/// ArenaGL's memory manager publishes a telemetry page per process; read our own. Only ArenaGL
/// publishes one, so a page found means ArenaGL runs in this process whatever `--gl` named (a
/// libEGL symlink to it, say); no page is only worth a line when ArenaGL was asked for.
fn print_memory_manager(expect_arenagl: bool) {
    let pid = std::process::id();
    match arenagl_residency::TelemetryReader::open(pid) {
        Ok(reader) => {
            let view = crate::top::View {
                pid,
                alive: reader.is_alive(),
                snapshot: reader.read(),
                history: Default::default(),
            };
            println!("memory manager (this process's telemetry page):");
            print!("{}", crate::top::render_text(&view));
        }
        Err(e) if expect_arenagl => println!(
            "memory manager: no telemetry page for this process ({e}); telemetry may be off \
             (ARENAGL_TELEMETRY=0)"
        ),
        Err(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let times: Vec<f64> = (1..=100).map(f64::from).collect();
        let s = frame_stats(&times);
        assert_eq!((s.p50, s.p95), (50.0, 95.0));
        assert!((s.mean - 50.5).abs() < 1e-9);
    }
}
