//! Process mode: the server is a child process (this test binary re-executed with
//! `ARENAGL_TRANSPORT_CHILD` set) sharing a memfd segment, with eventfd doorbells and a
//! liveness socket. 100,000 records and 64 MiB of bulk data cross with checksums; a child
//! killed with SIGKILL is `PeerGone`, not a hang.
#![cfg(not(loom))]

use std::process::{Child, Command};
use std::time::{Duration, Instant};

use arenagl_transport::process::{pass_fds, ChildFds};
use arenagl_transport::{
    Client, Config, Event, ProcessLink, Record, Region, Server, Signal, Span, TransportError,
};

const CHILD_ENV: &str = "ARENAGL_TRANSPORT_CHILD";
const DATA: u16 = 1;
const UPLOAD: u16 = 2;
const SUM: u16 = 3;
const RECORDS: u64 = 100_000;
const BULK: usize = 64 << 20;

/// An order-dependent checksum of 64-bit words.
fn mix(hash: u64, word: u64) -> u64 {
    (hash ^ word)
        .wrapping_mul(0x0000_0100_0000_01B3)
        .rotate_left(5)
}

fn checksum_bytes(hash: u64, bytes: &[u8]) -> u64 {
    let mut chunks = bytes.chunks_exact(8);
    let mut h = chunks.by_ref().fold(hash, |h, c| {
        mix(h, u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
    });
    for &b in chunks.remainder() {
        h = mix(h, u64::from(b));
    }
    h
}

fn record_words(i: u64) -> Vec<u64> {
    (0..=(i % 13))
        .map(|w| i.wrapping_mul(0x9E37_79B9).wrapping_add(w))
        .collect()
}

fn bulk_data() -> Vec<u8> {
    (0..BULK)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).rotate_left(7) as u8)
        .collect()
}

/// The server's loop: checksums of records and bulk bytes, answered on SUM.
fn serve(server: &mut Server<'_>) -> Result<(), TransportError> {
    let (mut records, mut bytes) = (0u64, 0u64);
    loop {
        let record = match server.recv() {
            Err(TransportError::PeerGone) => return Ok(()),
            other => other?,
        };
        match record.opcode {
            DATA => records = record.payload().iter().fold(records, |h, &w| mix(h, w)),
            UPLOAD => {
                let span = Span::from_words([record.payload()[0], record.payload()[1]]);
                bytes = checksum_bytes(bytes, server.read_bulk(span)?);
                server.release_bulk(span)?;
            }
            SUM => server.reply(&record, SUM, &[records, bytes])?,
            opcode => return Err(TransportError::UnknownOpcode { opcode }),
        }
    }
}

/// The child's side; a no-op when this binary runs as the ordinary test harness.
#[test]
fn child_entry() {
    let Ok(role) = std::env::var(CHILD_ENV) else {
        return;
    };
    // SAFETY: this process was started by `spawn_child` (pass_fds), and this is the one call.
    let fds = unsafe { ChildFds::from_env() }
        .expect("fds")
        .expect("child of spawn_child");
    let region = Region::from_fd(fds.memfd).expect("map");
    let mut server = Server::accept(&region, Signal::EventFd(fds.link)).expect("accept");
    server.set_timeout(Duration::from_secs(60));
    match role.as_str() {
        "serve" => serve(&mut server).expect("serve"),
        "hang" => {
            server
                .send_event(Event::FenceSignaled { fence: 1 })
                .expect("event");
            server.flush().expect("flush");
            std::thread::sleep(Duration::from_secs(60));
        }
        other => panic!("unknown child role {other}"),
    }
}

fn spawn_child(role: &str, config: Config) -> (Region, Child, Signal) {
    let region = Region::memfd(config.region_size()).expect("memfd");
    config.create(&region).expect("create");
    let ProcessLink { parent, child } = ProcessLink::new().expect("link");
    let mut command = Command::new(std::env::current_exe().expect("test binary"));
    command
        .args(["--exact", "child_entry", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, role);
    pass_fds(&mut command, region.fd().expect("memfd"), &child);
    let process = command.spawn().expect("spawn");
    // The child's ends must close here, or its death would not hang up the liveness socket.
    drop(child);
    (region, process, Signal::EventFd(parent))
}

#[test]
fn exchanges_records_and_64_mib_with_a_child_process() {
    let config = Config {
        cmd_records: 1024,
        bulk_bytes: 4 << 20,
        ..Config::default()
    };
    let (region, mut process, signal) = spawn_child("serve", config);
    let mut client = Client::connect(&region, signal).expect("connect");
    client.set_timeout(Duration::from_secs(60));
    let mut records = 0u64;
    for i in 0..RECORDS {
        let words = record_words(i);
        records = words.iter().fold(records, |h, &w| mix(h, w));
        client
            .send(&Record::new(DATA, 0, &words).expect("record"))
            .expect("send");
    }
    let data = bulk_data();
    client
        .write_bulk_chunked(&data, |client, span| {
            client.send(&Record::new(UPLOAD, 0, &span.to_words())?)
        })
        .expect("upload");
    let sums = client.call(SUM, &[]).expect("sum");
    assert_eq!(&sums.payload()[1..], &[records, checksum_bytes(0, &data)]);
    drop(client);
    assert!(
        process.wait().expect("wait").success(),
        "the child saw PeerGone and exited cleanly"
    );
}

#[test]
fn a_killed_child_is_peer_gone() {
    let (region, mut process, signal) = spawn_child("hang", Config::default());
    let mut client = Client::connect(&region, signal).expect("connect");
    client.set_timeout(Duration::from_secs(30));
    assert_eq!(
        client.wait_event().expect("ready"),
        Event::FenceSignaled { fence: 1 }
    );
    process.kill().expect("SIGKILL");
    process.wait().expect("reap");
    let started = Instant::now();
    assert!(matches!(
        client.call(SUM, &[]),
        Err(TransportError::PeerGone)
    ));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "hang-up, not the 30 s timeout"
    );
}
