//! Handing a segment to a child process: the memfd, the two eventfds and the liveness socket.
//!
//! Design decisions:
//! - **Inheritance by exec, chosen per child.** Every descriptor is created close-on-exec;
//!   [`pass_fds`] clears the flag only in the forked child, just before `exec`, so no other
//!   child the process spawns meanwhile inherits them (an inherited liveness socket would keep
//!   a dead peer looking alive).
//! - **The numbers travel in one environment variable** ([`FDS_ENV`]: `memfd,own,peer,liveness`
//!   from the child's point of view); [`ChildFds::from_env`] takes ownership of them.
//! - After spawning, the parent must drop its copy of the child's descriptors (the
//!   [`crate::ProcessLink::child`] half): otherwise the child's liveness end stays open in the
//!   parent and the child's death is never seen.
//! - A named server that clients connect to would pass the same descriptors over a Unix socket
//!   with `SCM_RIGHTS`; not built yet.

use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::Command;

use crate::doorbell::EventFds;
use crate::error::{Result, TransportError};

/// The environment variable carrying the inherited descriptor numbers.
pub const FDS_ENV: &str = "ARENAGL_TRANSPORT_FDS";

/// Arranges for `command`'s child to inherit `memfd` and the child's half of a
/// [`crate::ProcessLink`], and tells it their numbers in [`FDS_ENV`].
pub fn pass_fds(command: &mut Command, memfd: BorrowedFd<'_>, child: &EventFds) {
    let fds = [
        memfd.as_raw_fd(),
        child.own.as_raw_fd(),
        child.peer.as_raw_fd(),
        child.liveness.as_raw_fd(),
    ];
    let list = fds
        .iter()
        .map(|fd| fd.to_string())
        .collect::<Vec<_>>()
        .join(",");
    command.env(FDS_ENV, list);
    let clear = move || {
        for fd in fds {
            // SAFETY: fcntl on a descriptor number; async-signal-safe, as required between
            // fork and exec.
            if unsafe { libc::fcntl(fd, libc::F_SETFD, 0) } < 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    };
    // SAFETY: the closure only calls fcntl (async-signal-safe), allocates nothing and takes no
    // locks, which is what `pre_exec` requires of code running between fork and exec.
    unsafe { command.pre_exec(clear) };
}

/// The descriptors a child inherited.
#[derive(Debug)]
pub struct ChildFds {
    /// The segment's memfd.
    pub memfd: OwnedFd,
    /// The eventfds and the liveness socket, from the child's side.
    pub link: EventFds,
}

impl ChildFds {
    /// Takes the descriptors named in [`FDS_ENV`]; `Ok(None)` when it is not set.
    ///
    /// # Safety
    /// Call at most once per process, and only in a child started with [`pass_fds`]: the
    /// numbers must be descriptors this process inherited and nothing else owns.
    pub unsafe fn from_env() -> Result<Option<Self>> {
        let Ok(list) = std::env::var(FDS_ENV) else {
            return Ok(None);
        };
        let fds: Vec<RawFd> = list.split(',').filter_map(|s| s.parse().ok()).collect();
        let &[memfd, own, peer, liveness] = fds.as_slice() else {
            return Err(TransportError::Layout(format!(
                "{FDS_ENV}={list}: want four descriptors"
            )));
        };
        // SAFETY: the caller guarantees these are inherited descriptors owned by nobody else.
        let take = |fd| unsafe { OwnedFd::from_raw_fd(fd) };
        Ok(Some(Self {
            memfd: take(memfd),
            link: EventFds {
                own: take(own),
                peer: take(peer),
                liveness: take(liveness),
            },
        }))
    }
}
