//! Server → client events, encoded as records on the event ring.
//!
//! Design decisions:
//! - **Events are records** with opcodes from `0x8000` up, so they share the record ring's
//!   checks (length, tail) and need no decoder of their own beyond the payload layout.
//! - **Decoding is strict**: an unknown opcode or a payload of the wrong length is
//!   [`TransportError::UnknownOpcode`]; the client treats it as a broken server.

use crate::error::{Result, TransportError};
use crate::record::Record;

const GL_ERROR: u16 = 0x8001;
const QUERY_RESULT: u16 = 0x8002;
const FENCE_SIGNALED: u16 = 0x8003;
const DEVICE_LOST: u16 = 0x8004;

/// What the server tells the client without being asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A GL error raised while executing the client's commands.
    GlError {
        /// The client context it belongs to.
        context: u32,
        /// The GL error enum.
        error: u32,
    },
    /// A query object's result became available.
    QueryResult {
        /// The client's query name.
        query: u64,
        /// Its result.
        value: u64,
    },
    /// A fence (sync object) signalled.
    FenceSignaled {
        /// The client's fence id.
        fence: u64,
    },
    /// The device is lost; every context of this server is lost.
    DeviceLost {
        /// A reason code (the Vulkan result).
        reason: i32,
    },
}

impl Event {
    /// The event as a record.
    pub fn to_record(self) -> Record {
        let (opcode, payload): (u16, [u64; 2]) = match self {
            Event::GlError { context, error } => (GL_ERROR, [u64::from(context), u64::from(error)]),
            Event::QueryResult { query, value } => (QUERY_RESULT, [query, value]),
            Event::FenceSignaled { fence } => (FENCE_SIGNALED, [fence, 0]),
            Event::DeviceLost { reason } => (DEVICE_LOST, [reason as u32 as u64, 0]),
        };
        let len = if matches!(opcode, GL_ERROR | QUERY_RESULT) {
            2
        } else {
            1
        };
        match Record::new(opcode, 0, &payload[..len]) {
            Ok(record) => record,
            Err(_) => unreachable!("two words always fit a record"),
        }
    }

    /// The event a record carries.
    pub fn from_record(record: &Record) -> Result<Self> {
        let bad = TransportError::UnknownOpcode {
            opcode: record.opcode,
        };
        match (record.opcode, record.payload()) {
            (GL_ERROR, &[context, error]) => Ok(Event::GlError {
                context: u32::try_from(context).map_err(|_| bad)?,
                error: u32::try_from(error)
                    .map_err(|_| TransportError::UnknownOpcode { opcode: GL_ERROR })?,
            }),
            (QUERY_RESULT, &[query, value]) => Ok(Event::QueryResult { query, value }),
            (FENCE_SIGNALED, &[fence]) => Ok(Event::FenceSignaled { fence }),
            (DEVICE_LOST, &[reason]) => Ok(Event::DeviceLost {
                reason: u32::try_from(reason).map_err(|_| bad)? as i32,
            }),
            _ => Err(bad),
        }
    }
}
