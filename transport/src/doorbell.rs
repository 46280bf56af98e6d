//! Doorbells: spin briefly, then park, and never sleep through a ring or a dead peer.
//!
//! Design decisions:
//! - **One bell per side, in shared memory** ([`SideLine`], its own cache line): a 32-bit word
//!   whose bit 0 says "this side is asleep" and whose other bits count rings, plus a `gone`
//!   word the side sets when it closes. A side waits only on its own bell, for any of its
//!   conditions (data to read, space to write); the other side rings it after publishing or
//!   releasing.
//! - **The ringer signals only a sleeper.** Ringing is one `fetch_add` on the peer's word; only
//!   if the sleeping bit was set does the ringer clear it and make a system call. The fast path
//!   has no system call on either side.
//! - **No lost wake-up, without `SeqCst`.** The waiter reads the word (Acquire), checks its
//!   condition, and sets the sleeping bit with a compare-exchange *from the value it read*; it
//!   then sleeps only while the word still holds that value. Every ring modifies the word, so a
//!   ring that lands after the read either makes the compare-exchange fail (the waiter
//!   re-checks) or, coming after it in the word's modification order, sees the sleeping bit and
//!   wakes the waiter; and the kernel's compare (futex) or the counter (eventfd) covers a ring
//!   between the compare-exchange and the sleep. The Release on the ring pairs with the
//!   waiter's Acquire, so a waiter that reads a ring also sees what was published before it.
//!   `tests/loom_transport.rs` checks it (a lost wake-up is a loom deadlock).
//! - **In one process: a futex on the bell word** (Linux `SYS_futex`, `FUTEX_WAIT`/`WAKE`,
//!   shared, not private). Chosen over `thread::park` or a condvar because it needs nothing but
//!   the 32-bit word already in the ring memory: no thread handle to publish, no mutex (which
//!   could not live in a shared mapping portably), and the kernel's compare-and-sleep is exactly
//!   the "sleep only if the word is unchanged" step above.
//! - **Between processes: an eventfd per side plus a liveness socketpair** ([`ProcessLink`]).
//!   The ringer writes 1 to the peer's eventfd, the waiter `poll`s its own eventfd and its end
//!   of the socketpair. An eventfd is a counter that never fills up and keeps a wake that
//!   arrives before the sleep; but both processes hold the same eventfd, so the death of one is
//!   invisible on it. The socketpair carries no data: when a process dies, however it dies,
//!   the kernel closes its end and the survivor's `poll` reports a hang-up:
//!   [`TransportError::PeerGone`].
//! - **Every wait is bounded**: at most [`SPIN_LIMIT`] spins, then sleeps of at most
//!   [`PARK_SLICE`] (re-checking the peer's `gone` word between them) until the caller's
//!   timeout, then [`TransportError::Timeout`].
//! - **A side that closes** sets its `gone` word (Release) and rings: the peer's next check
//!   reports `PeerGone`. In thread mode that covers a panicking server too (its endpoint drops
//!   during unwinding); a thread that hangs without dying is reported by the timeout.

use std::os::fd::{AsRawFd, OwnedFd};
use std::time::{Duration, Instant};

use crate::error::{Result, TransportError};
use crate::sync::{spin_hint, AtomicU32, Ordering};

/// The most spins before a wait parks (one under loom, where a spin is a yield).
pub const SPIN_LIMIT: u32 = if cfg!(loom) { 1 } else { 256 };
/// The longest single sleep; the peer's `gone` word is re-checked after each.
pub const PARK_SLICE: Duration = Duration::from_millis(50);

const SLEEPING: u32 = 1;
const RING: u32 = 2;

/// One side's doorbell word and closed flag, on its own cache line.
#[repr(C, align(64))]
#[derive(Debug)]
pub struct SideLine {
    bell: AtomicU32,
    gone: AtomicU32,
}

impl SideLine {
    /// A bell nobody sleeps on, of a side that is open.
    pub fn new() -> Self {
        Self {
            bell: AtomicU32::new(0),
            gone: AtomicU32::new(0),
        }
    }

    /// Whether this side has closed.
    pub fn is_gone(&self) -> bool {
        // Acquire: pairs with the Release in `Doorbell::close`: whoever sees the side gone also
        // sees everything it published before closing.
        self.gone.load(Ordering::Acquire) != 0
    }
}

impl Default for SideLine {
    fn default() -> Self {
        Self::new()
    }
}

/// How a side sleeps and how it wakes its peer.
#[derive(Debug)]
pub enum Signal {
    /// Both sides in one process: a futex on the bell word.
    Futex,
    /// Two processes: eventfds and a liveness socket ([`ProcessLink`]).
    EventFd(EventFds),
    /// The loom model's stand-in for a futex.
    #[cfg(loom)]
    Loom {
        /// The futex of this side's bell.
        own: loom::sync::Arc<LoomFutex>,
        /// The futex of the peer's bell.
        peer: loom::sync::Arc<LoomFutex>,
    },
}

/// One process's descriptors of a [`ProcessLink`].
#[derive(Debug)]
pub struct EventFds {
    /// The eventfd this side waits on.
    pub own: OwnedFd,
    /// The eventfd the peer waits on.
    pub peer: OwnedFd,
    /// This side's end of the liveness socketpair.
    pub liveness: OwnedFd,
}

/// One side's view of the two bells, and how to sleep and wake.
#[derive(Debug)]
pub struct Doorbell<'a> {
    own: &'a SideLine,
    peer: &'a SideLine,
    signal: Signal,
}

impl<'a> Doorbell<'a> {
    /// The doorbell of the side owning `own`, whose peer owns `peer`.
    pub fn new(own: &'a SideLine, peer: &'a SideLine, signal: Signal) -> Self {
        Self { own, peer, signal }
    }

    /// Wakes the peer if it sleeps; otherwise one atomic add and nothing else.
    pub fn ring(&self) -> Result<()> {
        // Release: pairs with the waiter's Acquire load / compare-exchange of its bell, so a
        // waiter that sees this ring sees everything this side published before it.
        let before = self.peer.bell.fetch_add(RING, Ordering::Release);
        if before & SLEEPING == 0 {
            return Ok(());
        }
        // Relaxed: the add above already carried the Release; this only decides who wakes.
        let before = self.peer.bell.fetch_and(!SLEEPING, Ordering::Relaxed);
        if before & SLEEPING != 0 {
            self.signal.wake(&self.peer.bell)?;
        }
        Ok(())
    }

    /// Marks this side gone and wakes the peer so it notices.
    pub fn close(&self) {
        // Release: pairs with `SideLine::is_gone`'s Acquire.
        self.own.gone.store(1, Ordering::Release);
        // Best effort: a peer that is itself gone cannot be woken and does not need to be.
        let _ = self.ring();
    }

    /// Whether the peer has closed.
    pub fn peer_gone(&self) -> bool {
        self.peer.is_gone()
    }

    /// Waits until `ready` says true: spins up to [`SPIN_LIMIT`] times, then sleeps in slices
    /// until `timeout`. Errors: [`TransportError::Timeout`], [`TransportError::PeerGone`], or
    /// what `ready` returns.
    pub fn wait_until(
        &self,
        timeout: Duration,
        mut ready: impl FnMut() -> Result<bool>,
    ) -> Result<()> {
        for _ in 0..SPIN_LIMIT {
            if ready()? {
                return Ok(());
            }
            self.check_peer()?;
            spin_hint();
        }
        let deadline = Instant::now() + timeout;
        let outcome = self.sleep_until(deadline, timeout, &mut ready);
        // Relaxed: clears a sleeping bit nobody cleared (a timeout, or `ready` became true
        // without a ring), sparing the peer a wake-up system call; no data is published here.
        self.own.bell.fetch_and(!SLEEPING, Ordering::Relaxed);
        outcome
    }

    fn sleep_until(
        &self,
        deadline: Instant,
        timeout: Duration,
        ready: &mut impl FnMut() -> Result<bool>,
    ) -> Result<()> {
        loop {
            // Acquire: pairs with the ringer's Release fetch_add in `ring`.
            let seen = self.own.bell.load(Ordering::Acquire);
            if ready()? {
                return Ok(());
            }
            self.check_peer()?;
            let now = Instant::now();
            if now >= deadline {
                return Err(TransportError::Timeout(timeout));
            }
            let asleep = seen | SLEEPING;
            // Acquire on success: as for the load above; a failure means a ring landed since
            // the load, so the condition is checked again.
            if seen != asleep
                && self
                    .own
                    .bell
                    .compare_exchange(seen, asleep, Ordering::Acquire, Ordering::Relaxed)
                    .is_err()
            {
                continue;
            }
            self.signal
                .park(&self.own.bell, asleep, (deadline - now).min(PARK_SLICE))?;
        }
    }

    fn check_peer(&self) -> Result<()> {
        if self.peer_gone() {
            Err(TransportError::PeerGone)
        } else {
            Ok(())
        }
    }
}

impl Signal {
    /// Sleeps while `word` holds `expected`, at most `timeout`; wakes spuriously at times.
    fn park(&self, word: &AtomicU32, expected: u32, timeout: Duration) -> Result<()> {
        match self {
            Signal::Futex => futex_wait(word, expected, timeout),
            Signal::EventFd(fds) => fds.wait(timeout),
            #[cfg(loom)]
            Signal::Loom { own, .. } => {
                own.wait(word, expected);
                Ok(())
            }
        }
    }

    /// Wakes whoever sleeps on the peer's `word`.
    fn wake(&self, word: &AtomicU32) -> Result<()> {
        match self {
            Signal::Futex => futex_wake(word),
            Signal::EventFd(fds) => fds.wake(),
            #[cfg(loom)]
            Signal::Loom { peer, .. } => {
                let _ = word;
                peer.wake();
                Ok(())
            }
        }
    }
}

#[cfg(not(loom))]
fn futex_wait(word: &AtomicU32, expected: u32, timeout: Duration) -> Result<()> {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: libc::c_long::from(timeout.subsec_nanos() as i32),
    };
    // SAFETY: FUTEX_WAIT reads the aligned 32-bit word behind `word` (alive for the call)
    // atomically and sleeps while it equals `expected`, at most `ts`; the other arguments are
    // unused by FUTEX_WAIT. Errors (EAGAIN: the word changed; EINTR; ETIMEDOUT) all mean
    // "re-check", which the caller does.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            expected,
            &ts as *const libc::timespec,
            std::ptr::null::<u32>(),
            0u32,
        );
    }
    Ok(())
}

#[cfg(not(loom))]
fn futex_wake(word: &AtomicU32) -> Result<()> {
    // SAFETY: FUTEX_WAKE only uses the word's address as a key; it neither reads nor writes
    // memory. At most one side sleeps on a bell.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE, 1i32);
    }
    Ok(())
}

/// Under loom the bell word is loom's, not the kernel's: the models use [`Signal::Loom`].
#[cfg(loom)]
fn futex_wait(_: &AtomicU32, _: u32, _: Duration) -> Result<()> {
    Err(TransportError::Corrupt(
        "futex doorbells are not modelled under loom",
    ))
}

#[cfg(loom)]
fn futex_wake(_: &AtomicU32) -> Result<()> {
    Err(TransportError::Corrupt(
        "futex doorbells are not modelled under loom",
    ))
}

impl EventFds {
    fn wake(&self) -> Result<()> {
        let one: u64 = 1;
        // SAFETY: writes 8 bytes from a live local to an fd this struct owns.
        let n = unsafe { libc::write(self.peer.as_raw_fd(), (&one as *const u64).cast(), 8) };
        // EAGAIN means the counter is saturated: the peer has a wake pending anyway.
        if n < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::WouldBlock {
            return Err(std::io::Error::last_os_error().into());
        }
        Ok(())
    }

    fn wait(&self, timeout: Duration) -> Result<()> {
        let mut fds = [
            libc::pollfd {
                fd: self.own.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: self.liveness.as_raw_fd(),
                events: libc::POLLRDHUP,
                revents: 0,
            },
        ];
        let ms = timeout.as_millis().clamp(1, 1000) as libc::c_int;
        // SAFETY: `fds` is a live array of two pollfds, and its length is passed.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) };
        if n < 0 {
            let err = std::io::Error::last_os_error();
            return if err.kind() == std::io::ErrorKind::Interrupted {
                Ok(())
            } else {
                Err(err.into())
            };
        }
        if fds[1].revents & (libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR) != 0 {
            return Err(TransportError::PeerGone);
        }
        if fds[0].revents & libc::POLLIN != 0 {
            let mut count = 0u64;
            // SAFETY: reads at most 8 bytes into a live local from an fd this struct owns; the
            // eventfd is non-blocking, so a concurrent drain only makes this fail with EAGAIN.
            unsafe { libc::read(self.own.as_raw_fd(), (&mut count as *mut u64).cast(), 8) };
        }
        Ok(())
    }
}

/// The descriptors two processes share: an eventfd per side and a liveness socketpair.
#[derive(Debug)]
pub struct ProcessLink {
    /// The descriptors the process that created the link keeps.
    pub parent: EventFds,
    /// The descriptors to hand to the other process (then close them here).
    pub child: EventFds,
}

impl ProcessLink {
    /// Creates the eventfds and the socketpair (all close-on-exec; hand the child's over with
    /// [`crate::process::pass_fds`]).
    pub fn new() -> Result<Self> {
        let parent_bell = eventfd()?;
        let child_bell = eventfd()?;
        let (parent_end, child_end) = socketpair()?;
        Ok(Self {
            parent: EventFds {
                own: parent_bell.try_clone()?,
                peer: child_bell.try_clone()?,
                liveness: parent_end,
            },
            child: EventFds {
                own: child_bell,
                peer: parent_bell,
                liveness: child_end,
            },
        })
    }
}

fn eventfd() -> Result<OwnedFd> {
    // SAFETY: eventfd takes no pointers; a non-negative result is a new fd we own.
    let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
    owned(fd)
}

fn socketpair() -> Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` is a live array of two ints that socketpair fills.
    let rc = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if rc < 0 {
        return Err(std::io::Error::last_os_error().into());
    }
    Ok((owned(fds[0])?, owned(fds[1])?))
}

/// Takes ownership of a descriptor a system call just returned (or its error).
pub(crate) fn owned(fd: libc::c_int) -> Result<OwnedFd> {
    if fd < 0 {
        return Err(std::io::Error::last_os_error().into());
    }
    // SAFETY: `fd` was just returned by the kernel to us and nothing else owns it.
    Ok(unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) })
}

/// A futex stand-in for loom: sleep while the word holds a value, under a mutex the waker
/// takes too, so "compare and sleep" is atomic with respect to "change and wake" as in the
/// kernel.
#[cfg(loom)]
#[derive(Debug, Default)]
pub struct LoomFutex {
    lock: loom::sync::Mutex<()>,
    cond: loom::sync::Condvar,
}

#[cfg(loom)]
impl LoomFutex {
    fn wait(&self, word: &AtomicU32, expected: u32) {
        let guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        if word.load(Ordering::SeqCst) == expected {
            // No timeout: a lost wake-up must show up as a loom deadlock.
            drop(self.cond.wait(guard));
        }
    }

    fn wake(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.cond.notify_all();
    }
}
