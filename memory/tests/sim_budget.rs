//! The residency budget in the manager, on the simulated device: allocations are admitted against
//! the residency budget, the one that would cross it gets `OverBudget` (GL_OUT_OF_MEMORY) while the
//! process keeps running, memory that only waits for the GPU is collected first, and the pressure
//! level queues the actions meant for the translator and presenter.

use arenagl_memory::sim::{SimBackend, SimConfig};
use arenagl_memory::{
    BufferDesc, Category, Manager, ManagerConfig, MemoryClass, MemoryError, SimManager,
};
use arenagl_residency::{Action, Budget, Level};
use ash::vk;

const MIB: u64 = 1 << 20;

fn manager(budget_mib: u64) -> SimManager {
    Manager::with_backend(
        SimBackend::new(SimConfig::default()),
        ManagerConfig {
            budget: Some(Budget::fixed(budget_mib * MIB)),
            ..ManagerConfig::default()
        },
    )
}

fn buf(category: Category) -> BufferDesc {
    BufferDesc::new(
        MIB,
        vk::BufferUsageFlags::VERTEX_BUFFER,
        MemoryClass::DeviceBuffer,
        category,
    )
}

#[test]
fn the_allocation_that_would_cross_the_budget_is_refused_and_the_process_recovers() {
    let mut m = manager(16);
    let mut live = Vec::new();
    let err = loop {
        match m.create_buffer(&buf(Category::Buffer)) {
            Ok(h) => live.push(h),
            Err(e) => break e,
        }
        assert!(m.usage().total() <= 16 * MIB, "usage crossed the budget");
    };
    assert_eq!(live.len(), 16);
    assert_eq!(
        err,
        MemoryError::OverBudget {
            requested: MIB,
            usage: 16 * MIB,
            budget: 16 * MIB
        }
    );
    assert!(err.is_out_of_memory() && err.is_transient());
    assert_eq!(m.pressure_level(), Some(Level::Over));
    assert_eq!(m.stats().budget_refusals, 1);
    // Free some: allocation works again and the level falls.
    for h in live.drain(..6) {
        m.retire_buffer(h).expect("retire");
    }
    m.begin_frame().expect("frame");
    live.push(
        m.create_buffer(&buf(Category::Buffer))
            .expect("recovers after frees"),
    );
    assert!(m.pressure_level() < Some(Level::Over));
    for h in live {
        m.retire_buffer(h).expect("retire");
    }
}

#[test]
fn memory_waiting_for_the_gpu_is_collected_before_refusing() {
    let mut m = manager(8);
    let mut live: Vec<_> = (0..8)
        .map(|_| m.create_buffer(&buf(Category::Texture)).expect("fits"))
        .collect();
    for &h in &live[..4] {
        m.use_buffer(h).expect("in flight");
    }
    m.submit().expect("submit");
    for h in live.drain(..4) {
        m.retire_buffer(h).expect("retire");
    }
    assert_eq!(
        m.stats().pending_release_bytes,
        4 * MIB,
        "still waiting for the GPU"
    );
    // Over budget only because of pending memory: the manager waits for it instead of refusing.
    live.push(
        m.create_buffer(&buf(Category::Texture))
            .expect("admitted after a blocking GC"),
    );
    assert_eq!(m.stats().budget_refusals, 0);
    assert_eq!(m.stats().pending_release_bytes, 0);
    for h in live {
        m.retire_buffer(h).expect("retire");
    }
}

#[test]
fn critical_pressure_queues_client_actions() {
    let mut m = manager(10);
    let live: Vec<_> = (0..9)
        .map(|_| m.create_buffer(&buf(Category::Texture)).expect("fits"))
        .collect();
    m.begin_frame().expect("frame");
    assert_eq!(m.pressure_level(), Some(Level::Critical));
    let actions = m.take_pressure_actions();
    assert!(
        actions
            .iter()
            .any(|a| matches!(a, Action::DemoteTextures { .. })),
        "{actions:?}"
    );
    assert!(
        actions
            .iter()
            .any(|a| matches!(a, Action::RequestRenderScale(s) if *s < 1.0)),
        "{actions:?}"
    );
    assert!(
        actions.iter().any(|a| matches!(a, Action::TrimCaches)),
        "{actions:?}"
    );
    assert!(
        m.take_pressure_actions().is_empty(),
        "actions are handed out once"
    );
    assert!(
        m.stats().proactive_gcs >= 1,
        "entering Warn runs a proactive GC"
    );
    for h in live {
        m.retire_buffer(h).expect("retire");
    }
    m.begin_frame().expect("frame");
    assert_eq!(m.pressure_level(), Some(Level::Normal));
    assert!(m
        .take_pressure_actions()
        .contains(&Action::RequestRenderScale(1.0)));
}
