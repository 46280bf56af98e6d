//! The macro-expansion bound: a source whose macros could expand past the preprocessor limits
//! ("macro bombs": `#define A1 A0 A0`, `#define A2 A1 A1`, …, or `#define D(x) x x` nested) is
//! refused before glslang's preprocessor, which would otherwise run for minutes and take
//! gigabytes to produce the text `guard` then refuses.
//!
//! Design decisions:
//! - A static upper bound, not a trial expansion: every value is computed once per definition,
//!   so the check is linear in the source (cycles aside, below) and cannot itself blow up; all
//!   arithmetic saturates.
//! - Two quantities are bounded, in bytes of tokens (a token weighs its length + 1, the space
//!   glslang writes after it): `out`, the text an expansion produces, limited like the
//!   preprocessed text (`MAX_PREPROCESSED_BYTES`); and `work`, the tokens glslang reads while
//!   expanding ([`MAX_MACRO_WORK`]), which also catches bombs whose output is empty
//!   (`#define A0` with nothing after it, or arguments a macro drops).
//! - A macro's expansion is never counted smaller than its own name, so a chain of macros that
//!   expand to nothing still grows.
//! - Function-like macros are summarised as linear functions of their arguments' sizes, one
//!   coefficient per parameter (parameters past the eighth share the last one): glslang expands
//!   each argument once and copies it at each use of its parameter, so `#define D(x) x x`
//!   doubles `out`, while nesting `F(F(F(x)))` adds to `work` instead of multiplying it.
//! - Macros are bounded callees first (strongly connected components of the "body names macro"
//!   graph, found without recursion). A macro is not expanded inside its own expansion, so in a
//!   cycle of k macros no expansion chain is longer than k: the component's bounds are iterated
//!   k times from "names stay unexpanded" (at most [`MAX_STEPS`] tokens re-evaluated in all).
//! - What a static reading cannot resolve gets the worst case of all macros, "omega": a
//!   function-like call through a parameter (`#define APPLY(f, x) f(x)`), a `(` after an
//!   expansion that may end in a function-like name, a macro body with an unclosed `(`, and a
//!   `##` paste (its result may name any macro). In the graph such a body names a virtual node
//!   that names every (function-like) macro, so omega is made of finished bounds, or of the
//!   bounds of the cycle being iterated, less the macro itself (never expanded inside itself).
//!   The price of staying an upper bound: macros that call what they are given (or paste)
//!   form one cycle, in which each is assumed to call the others at every level, so a few of
//!   them together with a macro repeating its argument many times can be refused although
//!   glslang would expand them modestly. Real shaders seldom hold more than one.
//! - Every `#define` counts, in whatever `#if` branch and despite `#undef`: a name defined twice
//!   gets the larger bound of each kind. Text in dead branches counts as if live. `#if`, `#elif`
//!   and other directives glslang expands count; `defined X` does not expand `X`.
//! - A source without `#define` is never refused here: its text alone is within the limits.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use super::pp::{self, Kind, Scan, Tok};
use super::{guard, CompileError, Stage, MAX_PREPROCESSED_BYTES};

/// The most bytes of tokens glslang's preprocessor may be made to read while expanding macros.
pub const MAX_MACRO_WORK: u64 = 64 << 20;
/// Parameters tracked one by one; later ones share the last coefficient.
const SLOTS: usize = 8;
/// Body tokens evaluated by cycle iterations after the first (a first pass over every body is
/// linear in the source and always made).
const MAX_STEPS: u64 = 1 << 21;
/// Open calls at once (explicit nesting is capped lower by `guard::MAX_NESTING`).
const MAX_FRAMES: usize = 1024;

/// Refuses `source` when its macros may expand past the limits.
pub(super) fn check(stage: Stage, unit: usize, source: &str) -> Result<(), CompileError> {
    if !source.contains("define") {
        return Ok(());
    }
    match bound(source) {
        Ok(()) => Ok(()),
        Err(refusal) => Err(guard::token_error(
            stage,
            unit,
            refusal.line,
            "macro expansion",
            &refusal.message(),
        )),
    }
}

/// Why a source was refused, and where.
#[derive(Debug, PartialEq, Eq)]
struct Refusal {
    line: usize,
    reason: Reason,
}

#[derive(Debug, PartialEq, Eq)]
enum Reason {
    Output(Option<String>),
    Work(Option<String>),
    Intricate,
}

impl Refusal {
    fn message(&self) -> String {
        let what = |name: &Option<String>| match name {
            Some(name) => format!("expanding '{name}'"),
            None => "expanding the macros here".to_owned(),
        };
        match &self.reason {
            Reason::Output(name) => format!(
                "{} may produce more than {MAX_PREPROCESSED_BYTES} bytes of preprocessed source",
                what(name)
            ),
            Reason::Work(name) => format!(
                "{} may read more than {MAX_MACRO_WORK} bytes of tokens",
                what(name)
            ),
            Reason::Intricate => {
                "the macro definitions are too intricate to bound their expansion".to_owned()
            }
        }
    }
}

/// Checks the bound of a whole source.
fn bound(source: &str) -> Result<(), Refusal> {
    let scan = pp::scan(source);
    let table = Table::new(&scan);
    if table.defs.is_empty() {
        return Ok(());
    }
    let (values, omega) = summarise(&scan, &table).map_err(|line| Refusal {
        line,
        reason: Reason::Intricate,
    })?;
    let ctx = Ctx {
        scan: &scan,
        table: &table,
        values: &values,
        omega,
    };
    ctx.check_source()
}

// ---------------------------------------------------------------------------------------------
// Bounds.

/// `c + Σ k[i]·xᵢ`, where `xᵢ` is the size of the enclosing macro's argument `i` ([`Val::size`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Lin {
    c: u64,
    k: [u64; SLOTS],
}

impl Lin {
    const fn constant(c: u64) -> Self {
        Self { c, k: [0; SLOTS] }
    }

    fn param(slot: usize) -> Self {
        let mut k = [0; SLOTS];
        k[slot.min(SLOTS - 1)] = 1;
        Self { c: 0, k }
    }

    fn plus(self, other: Self) -> Self {
        let mut k = self.k;
        for (a, b) in k.iter_mut().zip(other.k) {
            *a = a.saturating_add(b);
        }
        Self {
            c: self.c.saturating_add(other.c),
            k,
        }
    }

    fn times(self, factor: u64) -> Self {
        Self {
            c: self.c.saturating_mul(factor),
            k: self.k.map(|k| k.saturating_mul(factor)),
        }
    }

    fn max(self, other: Self) -> Self {
        let mut k = self.k;
        for (a, b) in k.iter_mut().zip(other.k) {
            *a = (*a).max(b);
        }
        Self {
            c: self.c.max(other.c),
            k,
        }
    }

    fn peak(&self) -> u64 {
        self.k.iter().copied().max().unwrap_or(0)
    }
}

/// The bound of a token sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Val {
    /// Bytes produced.
    out: Lin,
    /// Bytes read while producing them.
    work: Lin,
    /// Bytes of the sequence as written (what a call reads when it collects it as an argument).
    read: Lin,
    /// May end in a function-like macro name that a following `(` calls.
    tail: bool,
    /// Holds an unclosed `(`: may swallow what follows it.
    open: bool,
}

impl Val {
    fn raw(bytes: u64) -> Self {
        let l = Lin::constant(bytes);
        Self {
            out: l,
            work: l,
            read: l,
            tail: false,
            open: false,
        }
    }

    fn param(slot: usize) -> Self {
        let l = Lin::param(slot);
        Self {
            out: l,
            work: l,
            read: l,
            tail: true,
            open: false,
        }
    }

    /// What a copy of this argument weighs: its expansion, or the text as written when it is
    /// pasted (`##` takes arguments unexpanded).
    fn size(&self) -> Lin {
        self.out.max(self.read)
    }

    fn saturated() -> Self {
        Self::raw(u64::MAX)
    }

    /// `self` followed by `next`.
    fn then(self, next: Self) -> Self {
        Self {
            out: self.out.plus(next.out),
            work: self.work.plus(next.work),
            read: self.read.plus(next.read),
            tail: next.tail,
            open: self.open || next.open,
        }
    }

    fn max(self, other: Self) -> Self {
        Self {
            out: self.out.max(other.out),
            work: self.work.max(other.work),
            read: self.read.max(other.read),
            tail: self.tail || other.tail,
            open: self.open || other.open,
        }
    }
}

/// What a token weighs: its bytes and the separator after it.
fn weight(tok: &Tok) -> u64 {
    tok.len() + 1
}

/// A macro name's bounds over all its definitions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Summary {
    /// The expansion of an object-like definition (constants only).
    object: Option<Val>,
    /// The body of a function-like definition, linear in the arguments.
    function: Option<Val>,
}

/// The worst case of all macros, for what a static reading cannot resolve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Omega {
    obj_out: u64,
    obj_work: u64,
    fn_out: u64,
    fn_out_k: u64,
    fn_work: u64,
    fn_work_k: u64,
}

impl Omega {
    fn of<'v>(values: impl IntoIterator<Item = &'v Option<Summary>>) -> Self {
        let mut o = Self::default();
        for s in values.into_iter().flatten() {
            if let Some(v) = s.object {
                o.obj_out = o.obj_out.max(v.out.c);
                o.obj_work = o.obj_work.max(v.work.c.saturating_add(v.read.c));
            }
            if let Some(f) = s.function {
                o.fn_out = o.fn_out.max(f.out.c);
                o.fn_out_k = o.fn_out_k.max(f.out.peak());
                o.fn_work = o.fn_work.max(f.work.c);
                o.fn_work_k = o.fn_work_k.max(f.work.peak());
            }
        }
        o
    }

    fn max(self, other: Self) -> Self {
        Self {
            obj_out: self.obj_out.max(other.obj_out),
            obj_work: self.obj_work.max(other.obj_work),
            fn_out: self.fn_out.max(other.fn_out),
            fn_out_k: self.fn_out_k.max(other.fn_out_k),
            fn_work: self.fn_work.max(other.fn_work),
            fn_work_k: self.fn_work_k.max(other.fn_work_k),
        }
    }

    /// A `##` result: any object-like macro, or a function-like name.
    fn pasted(&self) -> Val {
        Val {
            out: Lin::constant(self.obj_out),
            work: Lin::constant(self.obj_work),
            read: Lin::constant(0),
            tail: true,
            open: false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Definitions.

/// One `#define`.
struct Def<'s> {
    /// `None` for an object-like macro.
    params: Option<Vec<&'s str>>,
    body: &'s [Tok],
    line: u32,
}

/// Every macro name defined anywhere in the source.
struct Table<'s> {
    names: HashMap<&'s str, usize>,
    defs: Vec<Vec<Def<'s>>>,
    weight: Vec<u64>,
    function_like: Vec<bool>,
}

impl<'s> Table<'s> {
    fn new(scan: &'s Scan<'_>) -> Self {
        let mut table = Self {
            names: HashMap::new(),
            defs: Vec::new(),
            weight: Vec::new(),
            function_like: Vec::new(),
        };
        for d in &scan.directives {
            let toks = scan.directive_toks(d);
            let Some((name, def)) = parse_define(scan, toks) else {
                continue;
            };
            let next = table.defs.len();
            let m = *table.names.entry(scan.text_of(name)).or_insert(next);
            if m == next {
                table.defs.push(Vec::new());
                table.weight.push(weight(name));
                table.function_like.push(false);
            }
            table.function_like[m] |= def.params.is_some();
            table.defs[m].push(def);
        }
        table
    }

    /// The macros each macro's bodies name (see [`Graph`]).
    fn graph(&self, scan: &Scan<'_>) -> Graph {
        let n = self.defs.len();
        let (any_function, any_macro) = (n, n + 1);
        let mut edges = vec![Vec::new(); n + 2];
        edges[any_function] = (0..n).filter(|&m| self.function_like[m]).collect();
        edges[any_macro] = (0..n).collect();
        let mut self_loop = vec![false; n];
        let all_open = self.defs.iter().flatten().any(|d| unbalanced(d.body));
        for (m, defs) in self.defs.iter().enumerate() {
            let (mut calls_any, mut pastes) = (all_open, false);
            for def in defs {
                let params = def.params.as_deref().unwrap_or(&[]);
                for (i, tok) in def.body.iter().enumerate() {
                    pastes |= tok.kind == Kind::Paste;
                    calls_any |= tok.is_punct(b'(')
                        && i > 0
                        && self.may_call(scan, &def.body[i - 1], params);
                    let name = scan.text_of(tok);
                    if tok.kind != Kind::Ident || params.contains(&name) {
                        continue;
                    }
                    if let Some(&callee) = self.names.get(name) {
                        edges[m].push(callee);
                        self_loop[m] |= callee == m;
                    }
                }
            }
            if calls_any {
                edges[m].push(any_function);
            }
            if pastes {
                edges[m].push(any_macro);
            }
        }
        Graph { edges, self_loop }
    }

    /// Whether a `(` after `prev` may call a macro the text does not name there: `prev` is a
    /// parameter, a `)` (a call's expansion may end in a function-like name), or an object-like
    /// macro (likewise).
    fn may_call(&self, scan: &Scan<'_>, prev: &Tok, params: &[&str]) -> bool {
        if prev.is_punct(b')') {
            return true;
        }
        let name = scan.text_of(prev);
        prev.kind == Kind::Ident
            && (params.contains(&name)
                || self
                    .names
                    .get(name)
                    .is_some_and(|&m| self.defs[m].iter().any(|d| d.params.is_none())))
    }
}

/// The "body names macro" graph: one node per macro, then two virtual nodes, "any function-like
/// macro" and "any macro", named by bodies that call or paste what they do not name.
struct Graph {
    edges: Vec<Vec<usize>>,
    self_loop: Vec<bool>,
}

/// Whether `body` opens more parentheses than it closes.
fn unbalanced(body: &[Tok]) -> bool {
    let opened = body.iter().filter(|t| t.is_punct(b'(')).count();
    opened > body.iter().filter(|t| t.is_punct(b')')).count()
}

/// A `#define` directive's name and definition; `None` for other directives and for
/// definitions glslang refuses (no name, a malformed parameter list).
fn parse_define<'s>(scan: &'s Scan<'_>, toks: &'s [Tok]) -> Option<(&'s Tok, Def<'s>)> {
    let keyword = toks.first()?;
    let name = toks.get(1)?;
    if scan.text_of(keyword) != "define" || name.kind != Kind::Ident {
        return None;
    }
    let rest = toks.get(2..).unwrap_or(&[]);
    let function_like = rest
        .first()
        .is_some_and(|t| t.is_punct(b'(') && t.start == name.end);
    if !function_like {
        return Some((
            name,
            Def {
                params: None,
                body: rest,
                line: name.line,
            },
        ));
    }
    let mut params = Vec::new();
    for (i, tok) in rest.iter().enumerate().skip(1) {
        match tok.kind {
            Kind::Ident => params.push(scan.text_of(tok)),
            Kind::Punct(b',') => {}
            // `...`: glslang refuses variadic macros; counted as one parameter if it did not.
            Kind::Punct(b'.') if !params.contains(&"__VA_ARGS__") => params.push("__VA_ARGS__"),
            Kind::Punct(b'.') => {}
            Kind::Punct(b')') => {
                let body = rest.get(i + 1..).unwrap_or(&[]);
                let (params, line) = (Some(params), name.line);
                return Some((name, Def { params, body, line }));
            }
            _ => return None,
        }
    }
    None
}

/// Strongly connected components of `edges`, each after every component it reaches (Tarjan's
/// algorithm with an explicit stack: macro chains may be as long as the source allows).
fn components(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut t = Tarjan {
        index: vec![UNSEEN; edges.len()],
        low: vec![0; edges.len()],
        on_stack: vec![false; edges.len()],
        stack: Vec::new(),
        calls: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for root in 0..edges.len() {
        if t.index[root] == UNSEEN {
            t.enter(root);
            t.run(edges);
        }
    }
    t.out
}

const UNSEEN: usize = usize::MAX;

struct Tarjan {
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    /// The DFS path: node and its next edge to follow.
    calls: Vec<(usize, usize)>,
    next: usize,
    out: Vec<Vec<usize>>,
}

impl Tarjan {
    fn enter(&mut self, v: usize) {
        self.index[v] = self.next;
        self.low[v] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        self.calls.push((v, 0));
    }

    fn run(&mut self, edges: &[Vec<usize>]) {
        while let Some(&(v, edge)) = self.calls.last() {
            if let Some(&w) = edges[v].get(edge) {
                if let Some(top) = self.calls.last_mut() {
                    top.1 += 1;
                }
                if self.index[w] == UNSEEN {
                    self.enter(w);
                } else if self.on_stack[w] {
                    self.low[v] = self.low[v].min(self.index[w]);
                }
                continue;
            }
            self.calls.pop();
            if let Some(&(u, _)) = self.calls.last() {
                self.low[u] = self.low[u].min(self.low[v]);
            }
            if self.low[v] == self.index[v] {
                self.pop_component(v);
            }
        }
    }

    fn pop_component(&mut self, root: usize) {
        let mut component = Vec::new();
        while let Some(w) = self.stack.pop() {
            self.on_stack[w] = false;
            component.push(w);
            if w == root {
                break;
            }
        }
        self.out.push(component);
    }
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

/// What a sequence is evaluated against.
struct Ctx<'c, 's> {
    scan: &'c Scan<'s>,
    table: &'c Table<'c>,
    /// Bounds so far; `None` reads as a name that stays unexpanded (inside its own expansion).
    values: &'c [Option<Summary>],
    omega: Omega,
}

/// Computes every macro's summary, callees first; `Err(line)` when that takes too long.
fn summarise(scan: &Scan<'_>, table: &Table<'_>) -> Result<(Vec<Option<Summary>>, Omega), usize> {
    let n = table.defs.len();
    let graph = table.graph(scan);
    let mut values: Vec<Option<Summary>> = vec![None; n];
    let mut done = Omega::default();
    let mut steps = 0u64;
    for component in components(&graph.edges) {
        let cyclic = component.len() > 1
            || component
                .iter()
                .any(|&m| graph.self_loop.get(m) == Some(&true));
        let members: Vec<usize> = component.into_iter().filter(|&m| m < n).collect();
        let levels = if cyclic { members.len() } else { 1 };
        let state = (scan, table, done);
        bound_component(state, &members, levels, &mut values, &mut steps)?;
        done = done.max(Omega::of(members.iter().map(|&m| &values[m])));
    }
    Ok((values, done))
}

/// Bounds the members of one component, iterating `levels` times (or until nothing changes).
fn bound_component(
    (scan, table, done): (&Scan<'_>, &Table<'_>, Omega),
    members: &[usize],
    levels: usize,
    values: &mut [Option<Summary>],
    steps: &mut u64,
) -> Result<(), usize> {
    let size: u64 = members.iter().map(|&m| table.size(m)).sum();
    for level in 0..levels {
        if level > 0 {
            *steps = steps.saturating_add(size);
            if *steps > MAX_STEPS {
                return Err(table.first_line(members));
            }
        }
        let omegas = omegas_without_self(done, members, values);
        let summaries: Vec<Summary> = members
            .iter()
            .zip(omegas)
            .map(|(&m, omega)| {
                let ctx = Ctx {
                    scan,
                    table,
                    values,
                    omega,
                };
                ctx.summary(m)
            })
            .collect();
        let mut changed = false;
        for (&m, &summary) in members.iter().zip(&summaries) {
            changed |= values[m] != Some(summary);
            values[m] = Some(summary);
        }
        if !changed {
            break;
        }
    }
    Ok(())
}

/// For each member of a cycle, omega over the finished macros and the other members: a macro
/// body is never expanded inside itself, so its unresolved calls cannot reach it.
fn omegas_without_self(done: Omega, members: &[usize], values: &[Option<Summary>]) -> Vec<Omega> {
    let each: Vec<Omega> = members
        .iter()
        .map(|&m| Omega::of(std::iter::once(&values[m])))
        .collect();
    let mut before = Vec::with_capacity(each.len());
    let mut acc = done;
    for o in &each {
        before.push(acc);
        acc = acc.max(*o);
    }
    let mut after = Omega::default();
    let mut out = vec![Omega::default(); each.len()];
    for i in (0..each.len()).rev() {
        out[i] = before[i].max(after);
        after = after.max(each[i]);
    }
    out
}

impl Table<'_> {
    /// Body tokens of all definitions of `m`.
    fn size(&self, m: usize) -> u64 {
        self.defs[m].iter().map(|d| d.body.len() as u64).sum()
    }

    /// The line of the first definition of a macro of `members`.
    fn first_line(&self, members: &[usize]) -> usize {
        members
            .iter()
            .filter_map(|&m| self.defs[m].first())
            .map(|d| d.line as usize)
            .min()
            .unwrap_or(0)
    }
}

impl Ctx<'_, '_> {
    /// The summary of macro `m` under the current values.
    fn summary(&self, m: usize) -> Summary {
        let name = self.table.weight[m];
        let mut summary = Summary::default();
        for def in &self.table.defs[m] {
            let params = def.params.as_deref().unwrap_or(&[]);
            let v = self.eval(def.body, params, false);
            let v = Val {
                out: Lin {
                    c: v.out.c.max(name),
                    ..v.out
                },
                ..v
            };
            if def.params.is_some() {
                let v = Val {
                    read: Lin::default(),
                    ..v
                };
                summary.function = Some(summary.function.map_or(v, |f| f.max(v)));
            } else {
                let v = Val {
                    read: Lin::constant(name),
                    ..v
                };
                summary.object = Some(summary.object.map_or(v, |o| o.max(v)));
            }
        }
        summary
    }

    /// The bound of `toks`: a macro body with `params`, or a directive (`#if` when `in_if`).
    fn eval(&self, toks: &[Tok], params: &[&str], in_if: bool) -> Val {
        let mut seq = Seq::new(params, in_if);
        let mut i = 0;
        while i < toks.len() {
            i = seq.step(self, toks, i);
        }
        seq.finish(self)
    }

    /// Evaluates the directives glslang expands and the text, refusing at the first place the
    /// running total passes a limit.
    fn check_source(&self) -> Result<(), Refusal> {
        let mut total = Val::default();
        for d in &self.scan.directives {
            let toks = self.scan.directive_toks(d);
            let Some(keyword) = toks.first() else {
                continue;
            };
            let keyword = self.scan.text_of(keyword);
            if matches!(
                keyword,
                "define"
                    | "undef"
                    | "ifdef"
                    | "ifndef"
                    | "else"
                    | "endif"
                    | "error"
                    | "version"
                    | "extension"
            ) {
                continue;
            }
            let in_if = matches!(keyword, "if" | "elif");
            let v = self.eval(toks.get(1..).unwrap_or(&[]), &[], in_if);
            total = total.then(v);
            limits(&total, d.line as usize, None)?;
        }
        self.check_text(total)
    }

    /// The main text, item by item (a token, or a call or group with what it encloses).
    fn check_text(&self, before: Val) -> Result<(), Refusal> {
        let main = &self.scan.main;
        let mut seq = Seq::new(&[], false);
        // Only the totals carry over: the directives' last tokens are not followed by the text.
        seq.top = Val {
            tail: false,
            open: false,
            ..before
        };
        let (mut i, mut item_line, mut culprit) = (0, 0, None);
        while i < main.len() {
            if seq.frames.is_empty() {
                item_line = main[i].line as usize;
                culprit = None;
            }
            let name = self.scan.text_of(&main[i]);
            if culprit.is_none() && self.table.names.contains_key(name) {
                culprit = Some(name.to_owned());
            }
            i = seq.step(self, main, i);
            if seq.frames.is_empty() {
                limits(&seq.top, item_line, culprit.clone())?;
            }
        }
        let total = seq.finish(self);
        limits(&total, item_line, culprit)
    }
}

fn limits(total: &Val, line: usize, culprit: Option<String>) -> Result<(), Refusal> {
    let reason = if total.out.c > MAX_PREPROCESSED_BYTES as u64 {
        Reason::Output(culprit)
    } else if total.work.c > MAX_MACRO_WORK {
        Reason::Work(culprit)
    } else {
        return Ok(());
    };
    Err(Refusal { line, reason })
}

/// Who consumes a parenthesised group.
#[derive(Clone, Copy, Debug)]
enum Callee {
    /// Nobody: the group is text.
    Plain,
    /// A function-like macro (its index).
    Macro(usize),
    /// An unknown function-like macro.
    Omega,
    /// An unknown function-like macro whose `(` came from an open macro body: runs to the end of
    /// the enclosing group.
    Implicit,
}

/// An open group and what it has collected.
struct Frame {
    callee: Callee,
    /// Bytes of the call's name, parentheses and commas.
    punct: u64,
    args: [Val; SLOTS],
    arg: usize,
}

impl Frame {
    fn new(callee: Callee, name: u64) -> Self {
        let parens = if matches!(callee, Callee::Implicit) {
            0
        } else {
            4
        };
        Self {
            callee,
            punct: name.saturating_add(parens),
            args: [Val::default(); SLOTS],
            arg: 0,
        }
    }

    /// The bound of the finished group or call.
    fn apply(&self, ctx: &Ctx<'_, '_>) -> Val {
        let omega = &ctx.omega;
        // `arg` only grows: the slots after it are empty.
        let used = self.args.get(..=self.arg).unwrap_or(&self.args);
        let all = used.iter().fold(Val::default(), |acc, a| acc.then(*a));
        let read = Lin::constant(self.punct).plus(all.read);
        let open = all.open;
        match self.callee {
            Callee::Plain => Val {
                out: all.out.plus(Lin::constant(self.punct)),
                work: all.work.plus(Lin::constant(self.punct)),
                read,
                tail: false,
                open,
            },
            Callee::Macro(m) => {
                let Some(f) = ctx
                    .values
                    .get(m)
                    .copied()
                    .flatten()
                    .and_then(|s| s.function)
                else {
                    return Self {
                        callee: Callee::Omega,
                        ..*self
                    }
                    .apply(ctx);
                };
                let mut out = Lin::constant(f.out.c);
                let mut work = read.plus(Lin::constant(f.work.c));
                for (slot, a) in used.iter().enumerate() {
                    out = out.plus(a.size().times(f.out.k[slot]));
                    work = work.plus(a.work).plus(a.size().times(f.work.k[slot]));
                }
                Val {
                    out,
                    work,
                    read,
                    tail: f.tail,
                    open: open || f.open,
                }
            }
            Callee::Omega | Callee::Implicit => Val {
                out: Lin::constant(omega.fn_out).plus(all.size().times(omega.fn_out_k)),
                work: read
                    .plus(all.work)
                    .plus(Lin::constant(omega.fn_work))
                    .plus(all.size().times(omega.fn_work_k)),
                read,
                tail: true,
                open,
            },
        }
    }
}

/// A sequence being evaluated token by token.
struct Seq<'p> {
    params: &'p [&'p str],
    in_if: bool,
    after_defined: bool,
    frames: Vec<Frame>,
    top: Val,
    overflow: bool,
}

impl<'p> Seq<'p> {
    fn new(params: &'p [&'p str], in_if: bool) -> Self {
        Self {
            params,
            in_if,
            after_defined: false,
            frames: Vec::new(),
            top: Val::default(),
            overflow: false,
        }
    }

    fn add(&mut self, v: Val) {
        match self.frames.last_mut() {
            Some(f) => f.args[f.arg] = f.args[f.arg].then(v),
            None => self.top = self.top.then(v),
        }
    }

    /// Whether the last item may be a function-like macro name.
    fn tail(&self) -> bool {
        match self.frames.last() {
            Some(f) => f.args[f.arg].tail,
            None => self.top.tail,
        }
    }

    fn open(&mut self, callee: Callee, name: u64) {
        if self.frames.len() >= MAX_FRAMES {
            self.overflow = true;
            return;
        }
        self.frames.push(Frame::new(callee, name));
    }

    fn close(&mut self, ctx: &Ctx<'_, '_>) {
        if let Some(frame) = self.frames.pop() {
            let v = frame.apply(ctx);
            self.add(v);
        }
    }

    /// Evaluates `toks[i]` (and the `(` it consumes); returns the next index.
    fn step(&mut self, ctx: &Ctx<'_, '_>, toks: &[Tok], i: usize) -> usize {
        let Some(&tok) = toks.get(i) else {
            return i + 1;
        };
        match tok.kind {
            Kind::Ident => return self.ident(ctx, toks, i),
            Kind::Paste => self.add(Val::raw(weight(&tok)).then(ctx.omega.pasted())),
            Kind::Punct(b'(') if self.tail() => self.open(Callee::Omega, 0),
            Kind::Punct(b'(') => self.open(Callee::Plain, 0),
            Kind::Punct(b')') => {
                while matches!(self.frames.last(), Some(f) if matches!(f.callee, Callee::Implicit))
                {
                    self.close(ctx);
                }
                if self.frames.is_empty() {
                    self.add(Val::raw(weight(&tok)));
                } else {
                    self.close(ctx);
                }
            }
            Kind::Punct(b',') => match self.frames.last_mut() {
                Some(f) if matches!(f.callee, Callee::Macro(_) | Callee::Omega) => {
                    f.punct = f.punct.saturating_add(weight(&tok));
                    f.arg = (f.arg + 1).min(SLOTS - 1);
                    f.args[f.arg].tail = false;
                }
                _ => self.add(Val::raw(weight(&tok))),
            },
            _ => self.add(Val::raw(weight(&tok))),
        }
        i + 1
    }

    fn ident(&mut self, ctx: &Ctx<'_, '_>, toks: &[Tok], i: usize) -> usize {
        let tok = toks[i];
        let (name, w) = (ctx.scan.text_of(&tok), weight(&tok));
        let next_paren = toks.get(i + 1).is_some_and(|t| t.is_punct(b'('));
        if std::mem::take(&mut self.after_defined) {
            self.add(Val::raw(w));
            return i + 1;
        }
        if self.in_if && name == "defined" {
            self.after_defined = true;
            self.add(Val::raw(w));
            return i + 1;
        }
        if let Some(slot) = self.params.iter().rposition(|p| *p == name) {
            self.add(Val::param(slot));
            let pasted = i > 0 && toks[i - 1].kind == Kind::Paste;
            if next_paren && !pasted {
                self.open(Callee::Omega, 0);
                return i + 2;
            }
            return i + 1;
        }
        let Some(&m) = ctx.table.names.get(name) else {
            self.add(Val::raw(w));
            return i + 1;
        };
        let Some(summary) = ctx.values.get(m).copied().flatten() else {
            // Inside its own expansion: an ordinary token, never called.
            self.add(Val::raw(w));
            return i + 1;
        };
        match (summary.object, summary.function) {
            (None, Some(_)) if next_paren => {
                self.open(Callee::Macro(m), w);
                i + 2
            }
            (Some(o), f) => {
                self.add(Val {
                    out: Lin::constant(o.out.c),
                    work: Lin::constant(o.work.c.saturating_add(w)),
                    read: Lin::constant(w),
                    ..o
                });
                if o.open {
                    self.open(Callee::Implicit, 0);
                } else if next_paren && (o.tail || f.is_some()) {
                    self.open(Callee::Omega, 0);
                    return i + 2;
                }
                i + 1
            }
            _ => {
                self.add(Val {
                    tail: true,
                    ..Val::raw(w)
                });
                i + 1
            }
        }
    }

    /// Closes what is still open (an unbalanced body) and returns the bound.
    fn finish(mut self, ctx: &Ctx<'_, '_>) -> Val {
        let unbalanced = !self.frames.is_empty();
        while !self.frames.is_empty() {
            self.close(ctx);
        }
        if self.overflow {
            return Val::saturated();
        }
        Val {
            open: self.top.open || unbalanced,
            ..self.top
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn bomb(levels: usize) -> String {
        let mut s = String::from("#version 330 core\n#define A0 x\n");
        for i in 1..=levels {
            s.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
        }
        s.push_str(&format!("float f() {{ return A{levels}; }}\n"));
        s
    }

    fn out_of(source: &str, expr: &str) -> u64 {
        // The bound of `expr` alone, after the definitions of `source`.
        let text = format!("{source}\n{expr}\n");
        let scan = pp::scan(&text);
        let table = Table::new(&scan);
        let (values, omega) = summarise(&scan, &table).unwrap();
        let ctx = Ctx {
            scan: &scan,
            table: &table,
            values: &values,
            omega,
        };
        ctx.eval(&scan.main, &[], false).out.c
    }

    #[test]
    fn doubling_chains_are_refused_with_the_line_and_name() {
        let err = bound(&bomb(30)).unwrap_err();
        assert_eq!(err.line, 33);
        assert_eq!(err.reason, Reason::Output(Some("A30".into())));
        assert!(bound(&bomb(12)).is_ok());
    }

    #[test]
    fn empty_expansions_still_count_their_work() {
        let mut defs = String::from("#define A0\n#define E(x)\n");
        for i in 1..=40 {
            defs.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
        }
        assert!(bound(&format!("{defs}A40\n")).is_err());
        // An argument a macro drops is still expanded once.
        let err = bound(&format!("{defs}E(A40)\n")).unwrap_err();
        assert_eq!(err.reason, Reason::Work(Some("E".into())));
    }

    #[test]
    fn function_like_doubling_multiplies_only_through_parameters() {
        let defs = "#define D(x) x x\n#define SWAP(a, b) b a\n#define M(a, b) ((a) * (b))";
        assert_eq!(out_of(defs, "y"), 2);
        // D(y): "y y" plus the call as written.
        let d1 = out_of(defs, "D(y)");
        let d2 = out_of(defs, "D(D(y))");
        assert!(d2 >= 2 * d1 && d2 < 4 * d1, "{d1} {d2}");
        let nested = |f: &str, depth: usize| {
            let mut e = "y".to_owned();
            for _ in 0..depth {
                e = format!("{f}({e}, z)");
            }
            out_of(defs, &e)
        };
        // Nesting a macro that uses each argument once grows additively.
        assert!(nested("SWAP", 64) < 64 * 64 * 4);
        assert!(nested("M", 64) < 64 * 64 * 8);
        let mut deep = "y".to_owned();
        for _ in 0..30 {
            deep = format!("D({deep})");
        }
        assert!(bound(&format!("{defs}\n{deep}\n")).is_err());
    }

    #[test]
    fn self_reference_and_cycles_stay_finite() {
        assert_eq!(out_of("#define A A A", "A"), 4);
        // A → B B → (A A) (A A), with A unexpanded inside its own expansion.
        assert_eq!(out_of("#define A B B\n#define B A A", "A"), 8);
        assert!(bound("#define X(a) X(a)\nX(1)\n").is_ok());
        assert!(bound("#define f(x) x f\nf(1)(2)(3)\n").is_ok());
    }

    #[test]
    fn unresolved_calls_take_the_worst_case() {
        // A macro passed as an argument and called by the body.
        let apply = "#define D(x) x x x x\n#define APPLY(f, x) f(f(f(x)))\n";
        assert!(out_of(apply, "APPLY(D, y)") >= 64);
        // A body ending in a function-like name, called by the text after it.
        assert!(out_of("#define D(x) x x x x\n#define H D", "H(y)") >= 8);
        // An unclosed `(` swallows what follows.
        assert!(out_of("#define D(x) x x x x\n#define OPEN D(", "OPEN y)") >= 8);
        // Pasting may form any macro's name.
        assert!(
            out_of(
                "#define BIG 1 2 3 4 5 6 7 8\n#define CAT(a, b) a ## b",
                "CAT(B, IG)"
            ) >= 16
        );
    }

    #[test]
    fn higher_order_macros_are_not_refused_for_calling_themselves() {
        let defs = "#define REP16(x) x x x x x x x x x x x x x x x x\n\
                    #define SAT(x) clamp(x, 0.0, 1.0)\n\
                    #define APPLY(f, x) f(x)\n#define TWICE(f, x) f(f(x))";
        let src = format!("{defs}\nTWICE(SAT, APPLY(SAT, s))\n");
        assert!(bound(&src).is_ok());
        // Still bounded by the worst macro they might call: 16 × 16 copies.
        assert!(out_of(defs, "TWICE(REP16, y)") >= 16 * 16 * 2);
        // A big cycle of them is given up on, quickly.
        let mut ring = String::new();
        for i in 0..10_000 {
            ring.push_str(&format!("#define P{i}(f, x) f(x)\n"));
        }
        let err = bound(&format!("{ring}P0(P1, y)\n")).unwrap_err();
        assert_eq!(err.reason, Reason::Intricate);
    }

    #[test]
    fn directives_count_and_defined_does_not_expand() {
        let mut s = bomb(30).replace("float f() { return A30; }\n", "");
        assert!(bound(&s).is_ok(), "an unused macro is harmless");
        s.push_str("#if defined(A30) || defined A30\n#endif\n#ifdef A30\n#endif\n");
        assert!(bound(&s).is_ok());
        s.push_str("#if A30\n#endif\n");
        let err = bound(&s).unwrap_err();
        assert_eq!(err.line, s.lines().count() - 1);
    }

    #[test]
    fn real_shader_macros_pass() {
        let s = "#version 330 core\n#define PI 3.14159265\n#define SAT(x) clamp(x, 0.0, 1.0)\n\
                 #define MIX3(a, b, c, t) mix(mix(a, b, t), c, t)\n#define REP4(x) x x x x\n\
                 #define REP16(x) REP4(REP4(x))\n#ifdef GL_ES\n#define P mediump\n#else\n#define P\n#endif\n\
                 out vec4 c;\nvoid main() { float s = 0.0; REP16(s += SAT(PI * s);)\n\
                 c = vec4(MIX3(SAT(s), SAT(SAT(s)), PI, 0.5)); }\n";
        assert!(bound(s).is_ok());
        assert!(check(Stage::Fragment, 0, "void main() {}").is_ok());
    }

    #[test]
    fn long_chains_and_big_cycles_do_not_recurse() {
        let mut s = String::new();
        for i in 1..=20_000 {
            s.push_str(&format!("#define B{i} B{}\n", i - 1));
        }
        s.push_str("B20000\n");
        assert!(bound(&s).is_ok());
        // A ring of 300 macros, each naming the next twice: cycles are iterated, not unrolled.
        let mut ring = String::new();
        for i in 0..300 {
            ring.push_str(&format!(
                "#define R{i} R{} R{}\n",
                (i + 1) % 300,
                (i + 1) % 300
            ));
        }
        ring.push_str("R0\n");
        assert!(bound(&ring).is_err());
    }
}
