//! DSA for queries: `glCreateQueries` (the target is fixed at creation).

use crate::gl::context::enums::*;
use crate::gl::context::error::{gen_count, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::query::{check_begin_target, QueryObject};

impl Context {
    /// `glCreateQueries`: `n` query objects of `target`, which they keep for life.
    pub fn create_queries(&mut self, target: GLenum, n: i32) -> Vec<u32> {
        let r = (|| -> GlResult<Vec<u32>> {
            if target != GL_TIMESTAMP {
                check_begin_target(target, "glCreateQueries")?;
            }
            let n = gen_count("glCreateQueries", n)?;
            Ok(self.queries.objects.create(n, || QueryObject::new(target)))
        })();
        self.record(r).unwrap_or_default()
    }
}
