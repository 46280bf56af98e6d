//! `cargo bench -p arenagl-memory --bench alloc_throughput`: sub-allocated create+free through
//! the manager vs raw `vkAllocateMemory` per buffer, same sizes, one run. Writes
//! `docs/results/alloc-throughput-<device>.md` (or `$ARENAGL_BENCH_OUT`).

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
    let text = format!(
        "# Allocation throughput: manager vs raw vkAllocateMemory\n\n\
         Measured by `cargo bench -p arenagl-memory --bench alloc_throughput` (release build, \
         validation off). Buffers of 256 B – 256 KiB (a Minecraft-like mix), created and freed \
         in batches; the raw path makes one `vkAllocateMemory` per buffer, as a naive GL-on-Vulkan \
         layer would.\n\n{md}"
    );
    match arenagl_memory::bench::write_results("alloc-throughput", &report.device, &text) {
        Ok(path) => println!("wrote {}", path.display()),
        Err(e) => {
            eprintln!("cannot write the results: {e}");
            std::process::exit(1);
        }
    }
}
