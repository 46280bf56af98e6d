//! Deterministic GL test scenes and `arenagl scene`, which renders one into a pbuffer of the
//! chosen implementation and writes the last frame as a PNG.
//!
//! Design decisions:
//! - A scene builds its GL objects once and renders frame `i` as a pure function of `i`, so two
//!   implementations given the same frame count must produce the same picture (up to the
//!   rasterisation and rounding latitude the GL spec allows, which `tests/gl_scenes.rs` bounds).
//! - Geometry keeps away from pixel centres and filtering stays NEAREST, so the comparisons do
//!   not hinge on rules where correct implementations legitimately differ.
//! - Each scene exercises a named slice of the GL 3.3 entry points ArenaGL implements; together
//!   they use every one the client resolves.

mod blend;
mod common;
mod depth;
mod indexed;
mod instanced;
mod manydraws;
mod mipmap;
mod scissor;
mod textured;
mod triangle;
mod ubo;

use std::path::PathBuf;
use std::time::Instant;

use crate::glclient::{Gl, GlClientError, Implementation, Session};

/// A scene with its GL objects built.
pub trait Scene {
    /// Renders frame `frame` into the current framebuffer.
    fn render(&mut self, gl: &Gl, frame: u32) -> Result<(), GlClientError>;
    /// Deletes the scene's GL objects.
    fn release(&mut self, gl: &Gl);
}

/// Builds a scene for a `width` × `height` framebuffer.
pub type Build = fn(&Gl, u32, u32) -> Result<Box<dyn Scene>, GlClientError>;

/// Every scene, by name.
pub const SCENES: &[(&str, Build)] = &[
    ("triangle", triangle::build),
    ("indexed", indexed::build),
    ("instanced", instanced::build),
    ("textured", textured::build),
    ("blend", blend::build),
    ("depth", depth::build),
    ("scissor", scissor::build),
    ("ubo", ubo::build),
    ("manydraws", manydraws::build),
    ("mipmap", mipmap::build),
];

/// Options of `arenagl scene`.
#[derive(clap::Args, Debug)]
pub struct SceneArgs {
    /// The scene (triangle, indexed, instanced, textured, blend, depth, scissor, ubo, manydraws,
    /// mipmap).
    name: String,
    /// The GL implementation: arenagl, system (Mesa llvmpipe), zink, or a libEGL path.
    #[arg(long, default_value = "arenagl")]
    gl: Implementation,
    /// Framebuffer width.
    #[arg(long, default_value_t = 256)]
    width: u32,
    /// Framebuffer height.
    #[arg(long, default_value_t = 256)]
    height: u32,
    /// Frames to render; the last one is written.
    #[arg(long, default_value_t = 1)]
    frames: u32,
    /// The PNG to write.
    #[arg(long)]
    out: PathBuf,
}

/// Runs `arenagl scene`.
pub fn run(args: &SceneArgs) -> Result<(), GlClientError> {
    let Some(&(name, build)) = SCENES.iter().find(|(name, _)| *name == args.name) else {
        let names: Vec<_> = SCENES.iter().map(|(name, _)| *name).collect();
        return Err(GlClientError::Usage(format!(
            "no scene {:?}; the scenes are {}",
            args.name,
            names.join(", ")
        )));
    };
    if args.frames == 0 {
        return Err(GlClientError::Usage("--frames must be at least 1".into()));
    }
    let session = Session::new(&args.gl, args.width, args.height)?;
    let gl = session.gl();
    let mut scene = build(gl, args.width, args.height)?;
    gl.check_error(&format!("scene {name}: setup"))?;
    let start = Instant::now();
    for frame in 0..args.frames {
        gl.viewport(0, 0, args.width as i32, args.height as i32);
        scene.render(gl, frame)?;
        gl.finish();
        gl.check_error(&format!("scene {name}: frame {frame}"))?;
        // A pbuffer keeps its contents across a swap, so the last frame still reads back.
        session.swap_buffers()?;
    }
    let ms_per_frame = start.elapsed().as_secs_f64() * 1000.0 / f64::from(args.frames);
    let image = session.read_image()?;
    scene.release(gl);
    gl.check_error(&format!("scene {name}: deleting its objects"))?;
    image.write_png(&args.out)?;
    println!(
        "SCENE name={name} gl={} ms_per_frame={ms_per_frame:.3}",
        session.renderer()
    );
    Ok(())
}
