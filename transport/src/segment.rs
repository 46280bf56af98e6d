//! The segment: every ring and both bells laid out in one region, and the two endpoints.
//!
//! Design decisions:
//! - **Fixed layout, described by a header the creator writes** ([`Config`], magic, version):
//!   the header line, the client's and the server's [`SideLine`](crate::doorbell::SideLine)s, then for each ring its
//!   [`RingControl`] and its slots or bytes, every part on a cache-line boundary. The side that
//!   attaches reads the header and refuses a region with another magic, version or record size
//!   (the versioned hello at the memory level).
//! - **Four rings**: commands and bulk client → server; replies and events server → client.
//!   Each side waits on its own bell for anything it waits for (data, or space).
//! - **Ringing is paced**: a side rings its peer after every quarter of the smallest ring's
//!   worth of records moved (the watermark), whenever it is about to wait, and on `flush`; so a
//!   busy stream costs one atomic per quarter ring, and a side never waits while its peer still
//!   has unannounced progress.
//! - **Back-pressure is a bounded wait, then [`TransportError::Full`].** A producer that finds
//!   its ring full rings the consumer and waits on its own bell for space, at most the
//!   endpoint's timeout; nothing is ever overwritten or dropped.
//! - **Closing** (drop) marks the side gone and rings the peer, whose waits then answer
//!   [`TransportError::PeerGone`].

use std::collections::HashMap;
use std::ptr::NonNull;
use std::time::Duration;

use crate::bulk::{BulkConsumer, BulkProducer, Span};
use crate::doorbell::{Doorbell, Signal};
use crate::error::{Result, TransportError};
use crate::event::Event;
use crate::record::{Record, RecordConsumer, RecordProducer, RECORD_BYTES, RECORD_WORDS};
use crate::region::Region;
use crate::ring::RingControl;
use crate::sync::{AtomicU64, Ordering};

const MAGIC: u64 = u64::from_le_bytes(*b"AGLSPLIT");
/// The layout version; bump it with any change to the layout or the record format.
pub const VERSION: u64 = 1;
const LINE: usize = 64;
/// The most records a ring may hold.
pub const MAX_RECORDS: u64 = 1 << 20;
/// The most bytes the bulk ring may hold.
pub const MAX_BULK: u64 = 1 << 32;
/// The default wait before `Full` or `Timeout`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// The sizes of a segment's rings (each a power of two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Command records.
    pub cmd_records: u64,
    /// Bulk bytes.
    pub bulk_bytes: u64,
    /// Reply records.
    pub reply_records: u64,
    /// Event records.
    pub event_records: u64,
    /// The first ring position (0; the wrap tests start near `u64::MAX`).
    pub start: u64,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            cmd_records: 1024,
            bulk_bytes: 4 << 20,
            reply_records: 64,
            event_records: 256,
            start: 0,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Offsets {
    client: usize,
    server: usize,
    cmd: (usize, usize),
    bulk: (usize, usize),
    reply: (usize, usize),
    event: (usize, usize),
    size: usize,
}

impl Config {
    fn words(&self) -> [u64; 8] {
        let (c, b, r, e) = (
            self.cmd_records,
            self.bulk_bytes,
            self.reply_records,
            self.event_records,
        );
        [MAGIC, VERSION, RECORD_WORDS as u64, c, b, r, e, self.start]
    }

    fn offsets(&self) -> Offsets {
        let ctrl = size_of::<RingControl>();
        let mut at = 3 * LINE;
        let mut ring = |data: u64| {
            let place = (at, at + ctrl);
            at += ctrl + (data as usize).next_multiple_of(LINE);
            place
        };
        let rec = RECORD_BYTES as u64;
        let cmd = ring(self.cmd_records * rec);
        let bulk = ring(self.bulk_bytes);
        let reply = ring(self.reply_records * rec);
        let event = ring(self.event_records * rec);
        Offsets {
            client: LINE,
            server: 2 * LINE,
            cmd,
            bulk,
            reply,
            event,
            size: at,
        }
    }

    /// Checks the sizes: powers of two, at most [`MAX_RECORDS`] records and [`MAX_BULK`] bulk
    /// bytes per ring (so no size computation can overflow), an 8-aligned start.
    pub fn validate(&self) -> Result<()> {
        let records = [self.cmd_records, self.reply_records, self.event_records];
        let records_ok = records
            .iter()
            .all(|&n| n.is_power_of_two() && n <= MAX_RECORDS);
        let bulk_ok =
            self.bulk_bytes.is_power_of_two() && (64..=MAX_BULK).contains(&self.bulk_bytes);
        if !records_ok || !bulk_ok || self.start % 8 != 0 {
            return Err(TransportError::Layout(format!(
                "unsupported segment sizes {self:?}"
            )));
        }
        Ok(())
    }

    /// The region size this configuration needs.
    pub fn region_size(&self) -> usize {
        self.offsets().size
    }

    /// Writes the header and empty rings into a zeroed `region` (before sharing it).
    pub fn create(&self, region: &Region) -> Result<()> {
        self.validate()?;
        let o = self.offsets();
        if region.len() < o.size {
            return Err(TransportError::Layout(format!(
                "region of {} bytes, need {}",
                region.len(),
                o.size
            )));
        }
        region
            .place::<RingControl>(o.cmd.0)?
            .init(self.cmd_records, self.start)?;
        region
            .place::<RingControl>(o.bulk.0)?
            .init(self.bulk_bytes, self.start)?;
        region
            .place::<RingControl>(o.reply.0)?
            .init(self.reply_records, self.start)?;
        region
            .place::<RingControl>(o.event.0)?
            .init(self.event_records, self.start)?;
        for (word, value) in region.words(0, 8)?.iter().zip(self.words()) {
            // Relaxed: written before the region is shared (spawn or exec synchronize).
            word.store(value, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Reads and checks the header of a region another side created.
    pub fn read(region: &Region) -> Result<Self> {
        let mut w = [0u64; 8];
        for (value, word) in w.iter_mut().zip(region.words(0, 8)?) {
            *value = word.load(Ordering::Relaxed);
        }
        if w[0] != MAGIC || w[1] != VERSION || w[2] != RECORD_WORDS as u64 {
            return Err(TransportError::Layout(format!(
                "magic {:#x} version {} record words {}: not a transport segment of version {VERSION}",
                w[0], w[1], w[2]
            )));
        }
        let config = Self {
            cmd_records: w[3],
            bulk_bytes: w[4],
            reply_records: w[5],
            event_records: w[6],
            start: w[7],
        };
        config.validate()?;
        if region.len() < config.region_size() {
            return Err(TransportError::Layout(
                "region smaller than its header says".into(),
            ));
        }
        Ok(config)
    }
}

type RecordRing<'r> = (&'r RingControl, &'r [AtomicU64]);

/// A segment's rings, located and bounds-checked in a region.
struct Parts<'r> {
    cmd: RecordRing<'r>,
    bulk: (&'r RingControl, NonNull<u8>, usize),
    reply: RecordRing<'r>,
    event: RecordRing<'r>,
}

impl<'r> Parts<'r> {
    fn new(region: &'r Region, config: &Config) -> Result<Self> {
        let o = config.offsets();
        let ring = |(ctrl, data): (usize, usize), records: u64| -> Result<RecordRing<'r>> {
            let slots = region.words(data, records as usize * RECORD_WORDS)?;
            Ok((region.place(ctrl)?, slots))
        };
        let bulk_len = config.bulk_bytes as usize;
        Ok(Self {
            cmd: ring(o.cmd, config.cmd_records)?,
            bulk: (
                region.place(o.bulk.0)?,
                region.bytes(o.bulk.1, bulk_len)?,
                bulk_len,
            ),
            reply: ring(o.reply, config.reply_records)?,
            event: ring(o.event, config.event_records)?,
        })
    }
}

/// Rings the peer after every `every` units of progress.
#[derive(Debug)]
struct Pacer {
    since: u64,
    every: u64,
}

impl Pacer {
    fn new(config: &Config) -> Self {
        let smallest = config
            .cmd_records
            .min(config.reply_records)
            .min(config.event_records);
        Self {
            since: 0,
            every: (smallest / 4).max(1),
        }
    }

    fn tick(&mut self, bell: &Doorbell<'_>) -> Result<()> {
        self.since += 1;
        if self.since >= self.every {
            self.flush(bell)?;
        }
        Ok(())
    }

    fn flush(&mut self, bell: &Doorbell<'_>) -> Result<()> {
        if self.since > 0 {
            self.ring_now(bell)?;
        }
        Ok(())
    }

    fn ring_now(&mut self, bell: &Doorbell<'_>) -> Result<()> {
        self.since = 0;
        bell.ring()
    }
}

fn full(err: TransportError, waited: Duration) -> TransportError {
    match err {
        TransportError::Timeout(_) => TransportError::Full { waited },
        other => other,
    }
}

/// Pushes with back-pressure: waits (bounded) on `bell` for space, then `Full`.
fn push(
    ring: &mut RecordProducer<'_>,
    bell: &Doorbell<'_>,
    pacer: &mut Pacer,
    record: &Record,
    timeout: Duration,
) -> Result<()> {
    if !ring.try_push(record)? {
        pacer.ring_now(bell)?;
        bell.wait_until(timeout, || ring.has_space())
            .map_err(|e| full(e, timeout))?;
        if !ring.try_push(record)? {
            return Err(TransportError::Corrupt(
                "space vanished under a single producer",
            ));
        }
    }
    pacer.tick(bell)
}

/// Pops, waiting (bounded) on `bell` for a record.
fn pop(
    ring: &mut RecordConsumer<'_>,
    bell: &Doorbell<'_>,
    pacer: &mut Pacer,
    timeout: Duration,
) -> Result<Record> {
    let record = match ring.try_pop()? {
        Some(record) => record,
        None => {
            pacer.flush(bell)?;
            bell.wait_until(timeout, || Ok(ring.available()? > 0))?;
            ring.try_pop()?.ok_or(TransportError::Corrupt(
                "record vanished under a single consumer",
            ))?
        }
    };
    pacer.tick(bell)?;
    Ok(record)
}

/// The client (GL frontend) end: produces commands and bulk data, consumes replies and events.
#[derive(Debug)]
pub struct Client<'r> {
    cmd: RecordProducer<'r>,
    bulk: BulkProducer<'r>,
    replies: RecordConsumer<'r>,
    events: RecordConsumer<'r>,
    bell: Doorbell<'r>,
    pacer: Pacer,
    timeout: Duration,
    next_request: u64,
    early_replies: HashMap<u64, Record>,
}

impl<'r> Client<'r> {
    /// Attaches the client end to a created segment. One client per segment.
    pub fn connect(region: &'r Region, signal: Signal) -> Result<Self> {
        let config = Config::read(region)?;
        let o = config.offsets();
        let p = Parts::new(region, &config)?;
        Ok(Self {
            cmd: RecordProducer::new(p.cmd.0, p.cmd.1)?,
            // SAFETY: the bytes lie in `region` (checked by `Region::bytes`), which outlives
            // 'r, are 8-aligned, belong to this ring alone, and this is its one producer.
            bulk: unsafe { BulkProducer::new(p.bulk.0, p.bulk.1, p.bulk.2)? },
            replies: RecordConsumer::new(p.reply.0, p.reply.1)?,
            events: RecordConsumer::new(p.event.0, p.event.1)?,
            bell: Doorbell::new(region.place(o.client)?, region.place(o.server)?, signal),
            pacer: Pacer::new(&config),
            timeout: DEFAULT_TIMEOUT,
            next_request: 1,
            early_replies: HashMap::new(),
        })
    }

    /// Sets how long a wait may last before `Full` or `Timeout`.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// Queues a command; waits for space when the ring is full, then `Full`.
    pub fn send(&mut self, record: &Record) -> Result<()> {
        if self.bell.peer_gone() {
            return Err(TransportError::PeerGone);
        }
        push(
            &mut self.cmd,
            &self.bell,
            &mut self.pacer,
            record,
            self.timeout,
        )
    }

    /// Rings the server (one atomic add; a system call only if it sleeps). Call at the end of a
    /// batch: records queued without a flush wait for the next quarter-ring ring.
    pub fn flush(&mut self) -> Result<()> {
        self.pacer.ring_now(&self.bell)
    }

    /// The largest single bulk write ([`Client::write_bulk_chunked`] splits larger ones).
    pub fn max_bulk_chunk(&self) -> usize {
        self.bulk.max_chunk()
    }

    /// Copies `bytes` (at most [`Client::max_bulk_chunk`]) into the bulk ring, waiting for
    /// space like [`Client::send`]. The returned span goes into the command that uses it.
    pub fn write_bulk(&mut self, bytes: &[u8]) -> Result<Span> {
        if let Some(span) = self.bulk.try_write(bytes)? {
            return Ok(span);
        }
        self.flush()?;
        let (bulk, timeout) = (&mut self.bulk, self.timeout);
        self.bell
            .wait_until(timeout, || bulk.fits(bytes.len()))
            .map_err(|e| full(e, timeout))?;
        self.bulk.try_write(bytes)?.ok_or(TransportError::Corrupt(
            "bulk space vanished under a single producer",
        ))
    }

    /// Writes `bytes` in chunks of at most [`Client::max_bulk_chunk`], calling `each` with
    /// every chunk's span in order (to send the command that consumes it) before writing the
    /// next, so an upload larger than the ring streams through it.
    pub fn write_bulk_chunked(
        &mut self,
        bytes: &[u8],
        mut each: impl FnMut(&mut Self, Span) -> Result<()>,
    ) -> Result<()> {
        let chunk = self.max_bulk_chunk();
        for part in bytes.chunks(chunk.max(1)) {
            let span = self.write_bulk(part)?;
            each(self, span)?;
        }
        Ok(())
    }

    /// A synchronous call: sends `opcode` with the request id prepended to `payload`, flushes
    /// and waits for the reply carrying that id. Replies to other (timed-out) requests that
    /// arrive first are kept for their own callers.
    pub fn call(&mut self, opcode: u16, payload: &[u64]) -> Result<Record> {
        let id = self.next_request;
        self.next_request += 1;
        let mut words = vec![id];
        words.extend_from_slice(payload);
        self.send(&Record::new(opcode, 0, &words)?)?;
        self.flush()?;
        self.wait_reply(id)
    }

    /// Waits for the reply to request `id`.
    pub fn wait_reply(&mut self, id: u64) -> Result<Record> {
        loop {
            if let Some(reply) = self.early_replies.remove(&id) {
                return Ok(reply);
            }
            let reply = pop(&mut self.replies, &self.bell, &mut self.pacer, self.timeout)?;
            match reply.payload().first() {
                Some(&got) if got == id => return Ok(reply),
                Some(&got) => {
                    self.early_replies.insert(got, reply);
                }
                None => {
                    return Err(TransportError::UnknownOpcode {
                        opcode: reply.opcode,
                    })
                }
            }
        }
    }

    /// The next event, if one is queued.
    pub fn try_event(&mut self) -> Result<Option<Event>> {
        let record = self.events.try_pop()?;
        record.map(|r| Event::from_record(&r)).transpose()
    }

    /// Waits for the next event.
    pub fn wait_event(&mut self) -> Result<Event> {
        let record = pop(&mut self.events, &self.bell, &mut self.pacer, self.timeout)?;
        Event::from_record(&record)
    }

    /// The command ring's peak occupancy so far.
    pub fn cmd_high_watermark(&self) -> u64 {
        self.cmd.high_watermark()
    }
}

impl Drop for Client<'_> {
    fn drop(&mut self) {
        let _ = self.pacer.flush(&self.bell);
        self.bell.close();
    }
}

/// The server (Vulkan backend) end: consumes commands and bulk data, produces replies and
/// events.
#[derive(Debug)]
pub struct Server<'r> {
    cmd: RecordConsumer<'r>,
    bulk: BulkConsumer<'r>,
    replies: RecordProducer<'r>,
    events: RecordProducer<'r>,
    bell: Doorbell<'r>,
    pacer: Pacer,
    timeout: Duration,
}

impl<'r> Server<'r> {
    /// Attaches the server end to a created segment. One server per segment.
    pub fn accept(region: &'r Region, signal: Signal) -> Result<Self> {
        let config = Config::read(region)?;
        let o = config.offsets();
        let p = Parts::new(region, &config)?;
        Ok(Self {
            cmd: RecordConsumer::new(p.cmd.0, p.cmd.1)?,
            // SAFETY: as in `Client::connect`, for the ring's one consumer.
            bulk: unsafe { BulkConsumer::new(p.bulk.0, p.bulk.1, p.bulk.2)? },
            replies: RecordProducer::new(p.reply.0, p.reply.1)?,
            events: RecordProducer::new(p.event.0, p.event.1)?,
            bell: Doorbell::new(region.place(o.server)?, region.place(o.client)?, signal),
            pacer: Pacer::new(&config),
            timeout: DEFAULT_TIMEOUT,
        })
    }

    /// Sets how long a wait may last before `Full` or `Timeout`.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The next command, waiting for one at most the timeout.
    pub fn recv(&mut self) -> Result<Record> {
        pop(&mut self.cmd, &self.bell, &mut self.pacer, self.timeout)
    }

    /// The next command if one is queued.
    pub fn try_recv(&mut self) -> Result<Option<Record>> {
        self.cmd.try_pop()
    }

    /// The bytes of a span a command referred to (checked to be the committed chunk).
    pub fn read_bulk(&mut self, span: Span) -> Result<&[u8]> {
        self.bulk.read(span)
    }

    /// Releases a span (and everything before it) once its bytes are used.
    pub fn release_bulk(&mut self, span: Span) -> Result<()> {
        self.bulk.release(span)?;
        self.pacer.tick(&self.bell)
    }

    /// Answers the synchronous call `request` (its first payload word is the request id).
    pub fn reply(&mut self, request: &Record, opcode: u16, payload: &[u64]) -> Result<()> {
        let id = *request
            .payload()
            .first()
            .ok_or(TransportError::UnknownOpcode {
                opcode: request.opcode,
            })?;
        let mut words = vec![id];
        words.extend_from_slice(payload);
        push(
            &mut self.replies,
            &self.bell,
            &mut self.pacer,
            &Record::new(opcode, 0, &words)?,
            self.timeout,
        )?;
        self.flush()
    }

    /// Queues an event for the client (flush to wake it at once).
    pub fn send_event(&mut self, event: Event) -> Result<()> {
        push(
            &mut self.events,
            &self.bell,
            &mut self.pacer,
            &event.to_record(),
            self.timeout,
        )
    }

    /// Rings the client.
    pub fn flush(&mut self) -> Result<()> {
        self.pacer.ring_now(&self.bell)
    }
}

impl Drop for Server<'_> {
    fn drop(&mut self) {
        let _ = self.pacer.flush(&self.bell);
        self.bell.close();
    }
}
