//! Micro benchmark (ignored by default): records/s, bulk GB/s and round-trip latency, with the
//! server as a thread (futex doorbells) and as a child process (eventfd doorbells).
//!
//! `cargo test -p arenagl-transport --release --test bench -- --ignored --nocapture --test-threads=1`
#![cfg(not(loom))]

use std::process::Command;
use std::time::{Duration, Instant};

use arenagl_transport::process::{pass_fds, ChildFds};
use arenagl_transport::{
    Client, Config, ProcessLink, Record, Region, Server, Signal, Span, TransportError,
};

const CHILD_ENV: &str = "ARENAGL_TRANSPORT_BENCH_CHILD";
const DATA: u16 = 1;
const UPLOAD: u16 = 2;
const PING: u16 = 3;
const RECORDS: u64 = 4_000_000;
const BULK_TOTAL: usize = 2 << 30;
const UPLOAD_CHUNK: usize = 256 << 10;
const PINGS: u32 = 20_000;
const SOURCE: usize = 64 << 20;

fn config() -> Config {
    Config {
        cmd_records: 4096,
        bulk_bytes: 8 << 20,
        ..Config::default()
    }
}

/// Consumes records, copies every bulk span into a staging buffer (as an upload would), and
/// answers pings.
fn serve(server: &mut Server<'_>) -> Result<(), TransportError> {
    let mut staging = vec![0u8; UPLOAD_CHUNK];
    let mut sum = 0u64;
    loop {
        let record = match server.recv() {
            Err(TransportError::PeerGone) => return Ok(()),
            other => other?,
        };
        match record.opcode {
            DATA => sum = sum.wrapping_add(record.payload()[0]),
            UPLOAD => {
                let span = Span::from_words([record.payload()[0], record.payload()[1]]);
                let bytes = server.read_bulk(span)?;
                staging[..bytes.len()].copy_from_slice(bytes);
                std::hint::black_box(&mut staging);
                server.release_bulk(span)?;
            }
            PING => server.reply(&record, PING, &[sum])?,
            opcode => return Err(TransportError::UnknownOpcode { opcode }),
        }
    }
}

fn drive(client: &mut Client<'_>, mode: &str) {
    client.set_timeout(Duration::from_secs(60));
    let started = Instant::now();
    for i in 0..RECORDS {
        client
            .send(&Record::new(DATA, 0, &[i, i, i, i]).expect("record"))
            .expect("send");
    }
    client.call(PING, &[]).expect("drain");
    let records = RECORDS as f64 / started.elapsed().as_secs_f64();

    // A 64 MiB source (larger than the caches), uploaded in 256 KiB pieces, over and over.
    let source: Vec<u8> = (0..SOURCE).map(|i| i as u8).collect();
    let started = Instant::now();
    for i in 0..BULK_TOTAL / UPLOAD_CHUNK {
        let at = (i * UPLOAD_CHUNK) % SOURCE;
        let piece = std::hint::black_box(&source[at..at + UPLOAD_CHUNK]);
        client
            .write_bulk_chunked(piece, |c, span| {
                c.send(&Record::new(UPLOAD, 0, &span.to_words())?)
            })
            .expect("upload");
    }
    client.call(PING, &[]).expect("drain");
    let gbps = BULK_TOTAL as f64 / started.elapsed().as_secs_f64() / 1e9;

    let started = Instant::now();
    for _ in 0..PINGS {
        client.call(PING, &[]).expect("ping");
    }
    let rtt_us = started.elapsed().as_secs_f64() * 1e6 / f64::from(PINGS);
    println!(
        "BENCH mode={mode} records_per_s={records:.3e} record_bytes=128 bulk_gb_per_s={gbps:.2} \
         upload_chunk_kib={} bulk_ring_mib=8 round_trip_us={rtt_us:.2}",
        UPLOAD_CHUNK >> 10
    );
}

#[test]
#[ignore = "benchmark: run with --release --ignored --nocapture"]
fn bench_thread() {
    let region = Region::heap(config().region_size()).expect("region");
    config().create(&region).expect("create");
    std::thread::scope(|s| {
        let server = s.spawn(|| {
            let mut server = Server::accept(&region, Signal::Futex).expect("server");
            server.set_timeout(Duration::from_secs(60));
            serve(&mut server)
        });
        let mut client = Client::connect(&region, Signal::Futex).expect("client");
        drive(&mut client, "thread");
        drop(client);
        server.join().expect("join").expect("serve");
    });
}

#[test]
#[ignore = "benchmark: run with --release --ignored --nocapture"]
fn bench_process() {
    if std::env::var(CHILD_ENV).is_ok() {
        // SAFETY: started below with pass_fds; the one call in this process.
        let fds = unsafe { ChildFds::from_env() }
            .expect("fds")
            .expect("fds set");
        let region = Region::from_fd(fds.memfd).expect("map");
        let mut server = Server::accept(&region, Signal::EventFd(fds.link)).expect("server");
        server.set_timeout(Duration::from_secs(60));
        serve(&mut server).expect("serve");
        return;
    }
    let region = Region::memfd(config().region_size()).expect("memfd");
    config().create(&region).expect("create");
    let ProcessLink { parent, child } = ProcessLink::new().expect("link");
    let mut command = Command::new(std::env::current_exe().expect("exe"));
    command
        .args(["--exact", "bench_process", "--ignored", "--nocapture"])
        .env(CHILD_ENV, "1");
    pass_fds(&mut command, region.fd().expect("fd"), &child);
    let mut process = command.spawn().expect("spawn");
    drop(child);
    let mut client = Client::connect(&region, Signal::EventFd(parent)).expect("client");
    drive(&mut client, "process");
    drop(client);
    assert!(process.wait().expect("wait").success());
}
