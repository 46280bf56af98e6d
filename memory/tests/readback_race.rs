//! Readbacks on the real driver: a readback issued right after a draw that is still in
//! flight returns that draw's pixels, every time — including when the image was left in a layout
//! (GENERAL) that a layout-derived barrier would read as "nothing to wait for". The writes
//! alternate between a dynamic-rendering pass whose load-op clear writes the attachment at the
//! colour-output stage and a clear in GENERAL; synchronization validation (on in the tests)
//! reports a missing barrier even where lavapipe would happen to produce the right pixels.

mod common;

use arenagl_memory::{Category, ImageDesc, ImageRegion, ManagerConfig, ViewDesc};
use arenagl_staging::{ClientFormat, PixelStore};
use ash::vk;
use common::ValidatedManager;

const W: u32 = 64;
const H: u32 = 32;

#[test]
fn readback_right_after_an_in_flight_draw_sees_the_draw() {
    let mut m = ValidatedManager::new(ManagerConfig::default());
    if !m.device_info().features.dynamic_rendering {
        eprintln!("skipped: no dynamic rendering on this device");
        return;
    }
    let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT
        | vk::ImageUsageFlags::TRANSFER_SRC
        | vk::ImageUsageFlags::TRANSFER_DST;
    let img = m
        .create_image(
            &ImageDesc::new_2d(
                vk::Format::R8G8B8A8_UNORM,
                W,
                H,
                1,
                usage,
                Category::RenderTarget,
            )
            .named("target"),
        )
        .expect("image");
    let view = m.create_view(img, &ViewDesc::color_2d(1)).expect("view");
    for i in 0..40u32 {
        let color = [
            (i * 37 % 256) as u8,
            (i * 91 % 256) as u8,
            (255 - i * 5) as u8,
            255,
        ];
        if i % 2 == 0 {
            // A clear in GENERAL: the layout a layout-derived barrier reads as "nothing to
            // wait for". (Synchronization validation tracks this write on every layer version.)
            let raw = m
                .transition_image(
                    img,
                    vk::ImageLayout::GENERAL,
                    (
                        vk::PipelineStageFlags::TRANSFER,
                        vk::AccessFlags::TRANSFER_WRITE,
                    ),
                )
                .expect("to general");
            let cb = m.recording_command_buffer().expect("cb");
            let range = vk::ImageSubresourceRange {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                base_mip_level: 0,
                level_count: 1,
                base_array_layer: 0,
                layer_count: 1,
            };
            let value = vk::ClearColorValue {
                float32: color.map(|c| f32::from(c) / 255.0),
            };
            // SAFETY: recording command buffer; the image is live, stamped and in GENERAL.
            unsafe {
                m.device().cmd_clear_color_image(
                    cb,
                    raw,
                    vk::ImageLayout::GENERAL,
                    &value,
                    &[range],
                )
            };
        } else {
            // A draw: a dynamic-rendering pass whose load-op clear writes the attachment at the
            // colour-output stage.
            let layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
            m.transition_image(
                img,
                layout,
                (
                    vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                    vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                ),
            )
            .expect("to attachment");
            let raw_view = m.use_view(view).expect("view").raw();
            let cb = m.recording_command_buffer().expect("cb");
            let attachment = vk::RenderingAttachmentInfo::default()
                .image_view(raw_view)
                .image_layout(layout)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)
                .clear_value(vk::ClearValue {
                    color: vk::ClearColorValue {
                        float32: color.map(|c| f32::from(c) / 255.0),
                    },
                });
            let attachments = [attachment];
            let rendering = vk::RenderingInfo::default()
                .render_area(vk::Rect2D {
                    offset: vk::Offset2D { x: 0, y: 0 },
                    extent: vk::Extent2D {
                        width: W,
                        height: H,
                    },
                })
                .layer_count(1)
                .color_attachments(&attachments);
            // SAFETY: recording command buffer; the view's image is in `layout`, which the
            // attachment info names; dynamic rendering is enabled on this device.
            unsafe {
                m.device().cmd_begin_rendering(cb, &rendering);
                m.device().cmd_end_rendering(cb);
            }
        }
        if i % 4 < 2 {
            // The draw is submitted and in flight when the readback is issued.
            m.submit().expect("submit the draw");
        }
        let mut out = vec![0u8; (W * H * 4) as usize];
        m.read_image(
            img,
            &ImageRegion::rect(0, 0, 0, W, H),
            &PixelStore::default(),
            ClientFormat::Rgba,
            &mut out,
        )
        .expect("readback");
        assert!(
            out.chunks(4).all(|p| p == color),
            "iteration {i}: readback did not see the draw's pixels (first {:?}, expected {color:?})",
            &out[..4]
        );
        m.assert_validation_clean();
    }
    m.retire_image(img).expect("retire");
}
