//! `cargo bench -p arenagl-memory --bench alloc_throughput`: sub-allocated create+free through
//! the manager vs raw `vkAllocateMemory` per buffer, same sizes, one run. Writes
//! `docs/results/alloc-throughput-<device>.md` (or `$ARENAGL_BENCH_OUT`).

use std::path::PathBuf;

fn main() {
    let operations = std::env::var("ARENAGL_BENCH_OPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let report = match arenagl_memory::bench::alloc_throughput(operations, 256) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("alloc_throughput: {e}");
            std::process::exit(1);
        }
    };
    let md = report.markdown();
    println!("{md}");
    let out = std::env::var_os("ARENAGL_BENCH_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../docs/results")
                .join(format!(
                    "alloc-throughput-{}.md",
                    arenagl_memory::bench::device_slug(&report.device)
                ))
        });
    let text = format!(
        "# Allocation throughput: manager vs raw vkAllocateMemory\n\n\
         Measured by `cargo bench -p arenagl-memory --bench alloc_throughput` (release build, \
         validation off). Buffers of 256 B – 256 KiB (a Minecraft-like mix), created and freed \
         in batches; the raw path makes one `vkAllocateMemory` per buffer, as a naive GL-on-Vulkan \
         layer would.\n\n{md}"
    );
    if let Some(dir) = out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = std::fs::write(&out, text) {
        eprintln!("cannot write {}: {e}", out.display());
        std::process::exit(1);
    }
    println!("wrote {}", out.display());
}
