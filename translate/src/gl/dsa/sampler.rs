//! DSA for samplers: `glCreateSamplers` (sampler names are objects at once anyway, as
//! `glGenSamplers` makes them; the sampler commands already name their object).

use crate::gl::context::error::gen_count;
use crate::gl::context::Context;
use crate::gl::objects::texture::TexParams;

impl Context {
    /// `glCreateSamplers`.
    pub fn create_samplers(&mut self, n: i32) -> Vec<u32> {
        let r =
            gen_count("glCreateSamplers", n).map(|n| self.samplers.create(n, TexParams::default));
        self.record(r).unwrap_or_default()
    }
}
