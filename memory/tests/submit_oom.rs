//! Out of memory at `vkQueueSubmit` on the real driver: the recording survives the failure and
//! is submitted again by the ladder, or split into its segments (one command buffer per
//! [`SEGMENT_PASSES`] rendering instances) — every pass then reaches its image, read back, with
//! the validation layer silent. The failures are the fault plan's, checked at the same point
//! as the driver's result and taking the same path.

mod common;

use arenagl_memory::{
    Category, Epoch, FaultPlan, ImageDesc, ImageHandle, ImageRegion, ManagerConfig, ViewDesc,
    ViewHandle,
};
use arenagl_staging::{ClientFormat, PixelStore};
use ash::vk;
use common::ValidatedManager;

/// Rendering instances per segment (`vulkan/submit.rs`).
const SEGMENT_PASSES: u32 = 8;
const PASSES: u32 = 2 * SEGMENT_PASSES + 3;
const SIDE: u32 = 4;

fn colour(i: u32) -> [u8; 4] {
    [
        (i * 37 % 256) as u8,
        (i * 91 % 256) as u8,
        (255 - i * 5) as u8,
        255,
    ]
}

/// A small colour target and its view.
fn target(m: &mut ValidatedManager) -> (ImageHandle, ViewHandle) {
    let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
    let desc = ImageDesc::new_2d(
        vk::Format::R8G8B8A8_UNORM,
        SIDE,
        SIDE,
        1,
        usage,
        Category::RenderTarget,
    );
    let img = m.create_image(&desc).expect("image");
    let view = m.create_view(img, &ViewDesc::color_2d(1)).expect("view");
    (img, view)
}

/// Records one rendering instance whose load-op clear fills `img` with `colour`.
fn clear_pass(m: &mut ValidatedManager, img: ImageHandle, view: ViewHandle, colour: [u8; 4]) {
    let layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
    let stage = (
        vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
        vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
    );
    m.transition_image(img, layout, stage).expect("layout");
    let raw_view = m.use_view(view).expect("view").raw();
    let attachment = vk::RenderingAttachmentInfo::default()
        .image_view(raw_view)
        .image_layout(layout)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::STORE)
        .clear_value(vk::ClearValue {
            color: vk::ClearColorValue {
                float32: colour.map(|c| f32::from(c) / 255.0),
            },
        });
    let attachments = [attachment];
    let info = vk::RenderingInfo::default()
        .render_area(vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: SIDE,
                height: SIDE,
            },
        })
        .layer_count(1)
        .color_attachments(&attachments);
    m.begin_rendering(&info).expect("begin rendering");
}

fn read(m: &mut ValidatedManager, img: ImageHandle) -> Vec<u8> {
    let mut out = vec![0u8; (SIDE * SIDE * 4) as usize];
    m.read_image(
        img,
        &ImageRegion::rect(0, 0, 0, SIDE, SIDE),
        &PixelStore::default(),
        ClientFormat::Rgba,
        &mut out,
    )
    .expect("readback");
    out
}

/// Records `PASSES` clears, each into its own target; submits under `plan`; returns the
/// targets after checking that every one holds its colour.
fn record_submit_and_check(m: &mut ValidatedManager, plan: &str) -> Epoch {
    let targets: Vec<_> = (0..PASSES).map(|_| target(m)).collect();
    for (i, &(img, view)) in targets.iter().enumerate() {
        clear_pass(m, img, view, colour(i as u32));
    }
    assert!(
        m.recorded_segments() >= 3,
        "{PASSES} passes make {} segments",
        m.recorded_segments()
    );
    m.set_fault_plan(FaultPlan::parse(plan).expect("plan"));
    let epoch = m.submit().expect("the ladder gets the recording through");
    m.set_fault_plan(FaultPlan::default());
    for (i, &(img, view)) in targets.iter().enumerate() {
        let px = read(m, img);
        assert!(
            px.chunks(4).all(|p| p == colour(i as u32)),
            "pass {i} lost: {:?}",
            &px[..4]
        );
        m.retire_view(view).expect("retire view");
        m.retire_image(img).expect("retire image");
    }
    m.assert_validation_clean();
    epoch
}

fn manager() -> Option<ValidatedManager> {
    let m = ValidatedManager::new(ManagerConfig::default());
    if !m.device_info().features.dynamic_rendering {
        eprintln!("skipped: no dynamic rendering on this device");
        return None;
    }
    Some(m)
}

#[test]
fn a_failed_submission_keeps_its_recording_and_the_retry_runs_it() {
    let Some(mut m) = manager() else { return };
    let epoch = record_submit_and_check(&mut m, "submit@1=oom_device");
    let s = m.stats();
    assert_eq!(epoch, Epoch::new(1));
    assert_eq!(
        (s.ladder_recoveries, s.split_submits, s.refusals),
        (1, 0, 0)
    );
}

#[test]
fn a_recording_that_fails_whole_is_split_into_its_segments() {
    let Some(mut m) = manager() else { return };
    // The first attempt and the three rungs' retries fail; the split goes through.
    record_submit_and_check(
        &mut m,
        "submit@1=oom_host,submit@2=oom_device,submit@3=oom_device,submit@4=oom_device",
    );
    let s = m.stats();
    assert_eq!(
        (s.ladder_recoveries, s.split_submits, s.refusals),
        (1, 1, 0)
    );
    assert_eq!(s.oom_failures, 4);
}
