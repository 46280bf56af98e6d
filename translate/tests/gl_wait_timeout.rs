//! GL's blocking commands against a manager whose every wait times out at once
//! (`ManagerConfig::wait_timeout` zero): `glFinish`, `glGetBufferSubData` and a reading
//! `glMapBufferRange` after a GPU copy must wait until the GPU is done and report no error. A
//! wait that ran past the manager's bound used to surface as `GL_OUT_OF_MEMORY` (a GL fuzzer
//! finding: a long draw on lavapipe).

use std::time::Duration;

use arenagl_memory::{ManagerConfig, MemoryManager, VulkanConfig};
use arenagl_translate::gl::enums::*;
use arenagl_translate::gl::{Context, Device, Profile};

/// 32 MiB: past the CPU-shadow size, so reads go to the GPU copy, and slow enough on lavapipe
/// that a zero-timeout wait right after the submit finds it unfinished.
const SIZE: usize = 32 << 20;

#[test]
fn blocking_commands_wait_out_timeouts_instead_of_reporting_out_of_memory() {
    let manager = MemoryManager::new(
        &VulkanConfig::from_env(),
        ManagerConfig {
            wait_timeout: Duration::ZERO,
            ..ManagerConfig::default()
        },
    )
    .expect("a Vulkan device");
    let device = Device::with_manager(manager).expect("the GL device");
    let mut gl = Context::new(device.clone(), Profile::Core);
    let src: Vec<u8> = (0..SIZE).map(|i| (i * 7 + i / 4096) as u8).collect();
    let names = gl.gen_buffers(2);
    gl.bind_buffer(GL_COPY_READ_BUFFER, names[0]);
    gl.buffer_data(GL_COPY_READ_BUFFER, SIZE as i64, Some(&src), GL_STATIC_DRAW);
    gl.bind_buffer(GL_COPY_WRITE_BUFFER, names[1]);
    gl.buffer_data(GL_COPY_WRITE_BUFFER, SIZE as i64, None, GL_STATIC_DRAW);
    assert_eq!(gl.get_error(), GL_NO_ERROR, "setup");

    for round in 0..3 {
        gl.copy_buffer_sub_data(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, SIZE as i64);
        gl.finish();
        assert_eq!(gl.get_error(), GL_NO_ERROR, "glFinish, round {round}");
    }

    gl.copy_buffer_sub_data(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, SIZE as i64);
    let mut back = vec![0u8; SIZE];
    gl.get_buffer_sub_data(GL_COPY_WRITE_BUFFER, 0, &mut back);
    assert_eq!(gl.get_error(), GL_NO_ERROR, "glGetBufferSubData");
    assert!(back == src, "glGetBufferSubData read the copy");

    assert_eq!(
        device.lock().manager.validation_error_count(),
        0,
        "validation errors (see stderr)"
    );
}
