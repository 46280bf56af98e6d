//! `cargo bench -p arenagl-memory --bench upload_throughput`: staged buffer and texture uploads
//! (and direct writes on unified memory) against a plain memcpy of the same bytes, one run.
//! Writes `docs/results/upload-throughput-<device>.md` (or `$ARENAGL_BENCH_OUT`).

fn main() {
    let frames = std::env::var("ARENAGL_BENCH_FRAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512);
    let report = match arenagl_memory::bench::upload_throughput(frames) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("upload_throughput: {e}");
            std::process::exit(1);
        }
    };
    let md = report.markdown();
    println!("{md}");
    let text = format!(
        "# Upload throughput: staging arenas vs memcpy\n\n\
         Measured by `cargo bench -p arenagl-memory --bench upload_throughput` (release build, \
         validation off): 2 MiB per frame through each path, into a 64 MiB device buffer that a draw \
         of the same frame uses (so it must be staged) and into a 1024² RGBA8 texture. \"In the call\" \
         is the application's cost (unpack/convert into the mapped arena and record the copy); \"end \
         to end\" includes the device's copies. On lavapipe the device copy is a second CPU memcpy, \
         so end to end cannot exceed half of memcpy there.\n\n{md}"
    );
    match arenagl_memory::bench::write_results("upload-throughput", &report.device, &text) {
        Ok(path) => println!("wrote {}", path.display()),
        Err(e) => {
            eprintln!("cannot write the results: {e}");
            std::process::exit(1);
        }
    }
}
