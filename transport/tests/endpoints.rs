//! The two endpoints in one process (thread mode, futex doorbells): streaming with
//! back-pressure, synchronous calls, events, timeouts, a peer that goes away, the layout check.
#![cfg(not(loom))]

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use arenagl_transport::{
    Client, Config, Event, Record, Region, Server, Signal, Span, TransportError,
};

const DATA: u16 = 1;
const UPLOAD: u16 = 2;
const SUM: u16 = 3;

fn segment(config: Config) -> Region {
    let region = Region::heap(config.region_size()).expect("region");
    config.create(&region).expect("create");
    region
}

fn small() -> Config {
    // Positions start 8 bytes before u64::MAX wraps: every ring wraps during the tests.
    Config {
        cmd_records: 16,
        bulk_bytes: 4096,
        reply_records: 4,
        event_records: 4,
        start: u64::MAX - 7,
    }
}

/// Serves until the client goes: sums DATA payloads and UPLOAD bytes, answers SUM calls.
fn serve(server: &mut Server<'_>) -> Result<(), TransportError> {
    let (mut records, mut bytes) = (0u64, 0u64);
    loop {
        let record = match server.recv() {
            Err(TransportError::PeerGone) => return Ok(()),
            other => other?,
        };
        match record.opcode {
            DATA => records = records.wrapping_add(record.payload().iter().sum::<u64>()),
            UPLOAD => {
                let span = Span::from_words([record.payload()[0], record.payload()[1]]);
                bytes += server
                    .read_bulk(span)?
                    .iter()
                    .map(|&b| u64::from(b))
                    .sum::<u64>();
                server.release_bulk(span)?;
            }
            SUM => server.reply(&record, SUM, &[records, bytes])?,
            _ => server.send_event(Event::GlError {
                context: 1,
                error: 0x500,
            })?,
        }
    }
}

#[test]
fn streams_with_back_pressure_and_wraps() {
    let region = segment(small());
    let payload: Vec<u8> = (0..50_000u32).map(|i| (i * 13) as u8).collect();
    std::thread::scope(|s| {
        let server = s.spawn(|| {
            let mut server = Server::accept(&region, Signal::Futex).expect("server");
            serve(&mut server)
        });
        let mut client = Client::connect(&region, Signal::Futex).expect("client");
        let mut expected = 0u64;
        for i in 0..5_000u64 {
            client
                .send(&Record::new(DATA, 0, &[i, i * 3]).expect("record"))
                .expect("send");
            expected += i * 4;
        }
        client
            .write_bulk_chunked(&payload, |client, span| {
                client.send(&Record::new(UPLOAD, 0, &span.to_words())?)
            })
            .expect("upload");
        let sums = client.call(SUM, &[]).expect("call");
        let bytes: u64 = payload.iter().map(|&b| u64::from(b)).sum();
        assert_eq!(&sums.payload()[1..], &[expected, bytes]);
        assert_eq!(
            client.cmd_high_watermark(),
            16,
            "the producer filled the ring and waited"
        );
        client
            .send(&Record::new(99, 0, &[]).expect("record"))
            .expect("send");
        client.flush().expect("flush");
        assert_eq!(
            client.wait_event().expect("event"),
            Event::GlError {
                context: 1,
                error: 0x500
            }
        );
        drop(client);
        server.join().expect("server thread").expect("server");
    });
}

#[test]
fn full_ring_reports_full_after_the_timeout() {
    let region = segment(small());
    let _server = Server::accept(&region, Signal::Futex).expect("server");
    let mut client = Client::connect(&region, Signal::Futex).expect("client");
    client.set_timeout(Duration::from_millis(60));
    for i in 0..16 {
        client
            .send(&Record::new(DATA, 0, &[i]).expect("record"))
            .expect("room");
    }
    let started = Instant::now();
    let err = client.send(&Record::new(DATA, 0, &[16]).expect("record"));
    assert!(matches!(err, Err(TransportError::Full { .. })), "{err:?}");
    assert!(started.elapsed() >= Duration::from_millis(60));
    assert!(started.elapsed() < Duration::from_secs(2), "bounded wait");
    let err = client
        .write_bulk(&[0; 2040])
        .and_then(|_| client.write_bulk(&[0; 2040]));
    assert!(matches!(err, Err(TransportError::Full { .. })), "{err:?}");
}

#[test]
fn call_times_out_when_the_server_is_silent() {
    let region = segment(small());
    let _server = Server::accept(&region, Signal::Futex).expect("server");
    let mut client = Client::connect(&region, Signal::Futex).expect("client");
    client.set_timeout(Duration::from_millis(80));
    let started = Instant::now();
    assert!(matches!(
        client.call(SUM, &[]),
        Err(TransportError::Timeout(_))
    ));
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_server_that_dies_is_peer_gone_not_a_hang() {
    let region = segment(small());
    let mut client = Client::connect(&region, Signal::Futex).expect("client");
    client.set_timeout(Duration::from_secs(30));
    std::thread::scope(|s| {
        let handle = s.spawn(|| {
            let mut server = Server::accept(&region, Signal::Futex).expect("server");
            let request = server.recv().expect("request");
            assert_eq!(request.opcode, SUM);
            panic!("server thread dies mid-call (expected by the test)");
        });
        let started = Instant::now();
        assert!(matches!(
            client.call(SUM, &[]),
            Err(TransportError::PeerGone)
        ));
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "woken by the close, not the timeout"
        );
        assert!(handle.join().is_err());
    });
    assert!(matches!(
        client.send(&Record::new(DATA, 0, &[]).expect("record")),
        Err(TransportError::PeerGone)
    ));
}

#[test]
fn events_round_trip() {
    let region = segment(small());
    let mut server = Server::accept(&region, Signal::Futex).expect("server");
    let mut client = Client::connect(&region, Signal::Futex).expect("client");
    let events = [
        Event::GlError {
            context: 7,
            error: 0x502,
        },
        Event::QueryResult {
            query: 9,
            value: u64::MAX,
        },
        Event::FenceSignaled { fence: 12 },
        Event::DeviceLost { reason: -4 },
    ];
    for event in events {
        server.send_event(event).expect("event");
    }
    for event in events {
        assert_eq!(client.try_event().expect("event"), Some(event));
    }
    assert_eq!(client.try_event().expect("none"), None);
    assert!(matches!(
        Event::from_record(&Record::new(0x8001, 0, &[1]).expect("record")),
        Err(TransportError::UnknownOpcode { opcode: 0x8001 })
    ));
}

#[test]
fn a_foreign_region_is_refused() {
    let region = Region::heap(small().region_size()).expect("region");
    assert!(matches!(
        Client::connect(&region, Signal::Futex),
        Err(TransportError::Layout(_))
    ));
    assert!(matches!(
        Config {
            cmd_records: 12,
            ..small()
        }
        .create(&region),
        Err(TransportError::Layout(_))
    ));
    // A header whose sizes a hostile creator inflated is refused, not multiplied.
    small().create(&region).expect("create");
    region.words(0, 8).expect("header")[3].store(u64::MAX, Ordering::Relaxed);
    assert!(matches!(
        Server::accept(&region, Signal::Futex),
        Err(TransportError::Layout(_))
    ));
}
