/* passes.h: the middle of the compiler, passes over the PTX IR.
 *
 * Between the front end (src/ptx: lexer, parser, verifier) and a dialect's
 * emitter (src/codegen), the passes read the IR and annotate it. Each one
 * fills the fields that src/ptx/ir.h marks with its name (ptx_module,
 * ptx_kernel, ptx_var). No pass emits code or knows which dialect will.
 * cb_passes_run calls them in order, the way QBE's main.c calls its passes;
 * each may rely on every one before it. One pass per file.
 *
 * The analyses of the fast CPU code generator go here too, after pass_reach:
 * a control-flow graph per function, uniformity, and the regions between
 * barriers.
 */
#ifndef CB_PASSES_H
#define CB_PASSES_H

#include "ptx/ir.h"

#include <stddef.h>

/* A pass: returns 0, or -1 with "file:line: reason" in err. */
typedef int cb_pass(ptx_module *m, char *err, size_t errlen);

/* Runs every pass below in order over a verified module (ptx_verify). */
int cb_passes_run(ptx_module *m, char *err, size_t errlen);

/* kernels.c: a ptx_kernel per .entry, numbered in module order (C name
 * cbk_<index>), and each kernel's parameters packed in declaration order,
 * each aligned to its .align (offsets in the param vars). */
cb_pass pass_kernels;
/* globals.c: a cb_module_globals slot per .global/.const variable, in
 * declaration order. */
cb_pass pass_globals;
/* reach.c: per kernel, every function it may run through direct calls, and,
 * once it or a callee calls through a pointer, every .func (conservatively). */
cb_pass pass_reach;
/* facts.c: per kernel, from it and its callees: needs_fibers (a thread may
 * wait for others: PTX_OPF_WAITS), uses_textures, local_bytes, num_regs. */
cb_pass pass_facts;
/* nan.c: per function, the registers whose every read ignores a NaN's bits
 * (ptx_func.nan_blind): their f32 arithmetic results need no canonical NaN. */
cb_pass pass_nan;
/* shared.c: each kernel's static .shared layout (only what it and its
 * callees name), static_smem and dynamic_smem; ptx_var.index of every static
 * .shared variable, and func_slots for those that .func code names. */
cb_pass pass_shared;
/* cfg.c: per kernel, its basic blocks, their reverse post-order and
 * immediate post-dominators, and which blocks are tails (end the thread
 * without waiting for others) (ptx_func.cfg). */
cb_pass pass_cfg;
/* lanes.c: per kernel, which registers may differ between the threads of a
 * block, which blocks only some of its live threads reach, the registers
 * live after each block, and whether the block can run as SIMD lanes
 * (ptx_kernel.lanes, or lanes_why). Needs pass_cfg. */
cb_pass pass_lanes;
/* The registers instruction in writes (into defs) and reads (into uses, its
 * guard included, and the destinations of a guarded write), at most max of each. */
void pass_instr_regs(const ptx_instr *in, int32_t *defs, uint32_t *ndefs, int32_t *uses, uint32_t *nuses,
                     uint32_t max);
/* Whether instruction in widens integer sources (mul.wide, mad.wide, cvt to a
 * wider integer): 1 and the source type in *src; 0 otherwise. An affine
 * source keeps its stride through a widening only where its lanes do not wrap. */
int pass_lanes_widens(const ptx_instr *in, ptx_type *src);
/* The offset of static .shared variable v in kernel k's layout: 0 and
 * *offset, or -1 when k can name no such variable. */
int pass_shared_offset(const ptx_kernel *k, const ptx_var *v, uint32_t *offset);
/* converge.c: ptx_func.conv of every function that reaches a warp
 * convergence point (PTX_OPF_CONVERGE): its CFG's natural loops, its nodes
 * (sites, calls that reach one, the loops holding them) and, per loop level,
 * which node reaches which. */
cb_pass pass_converge;
/* uniform.c (not in cb_passes_run: the translator runs it after them for the
 * dialects that need it, OpenCL): ptx_func.uniform of every kernel that holds a collective: which
 * of its instructions the whole block runs in uniform control flow (a
 * divergence analysis: uniform values, branches on divergent ones, their
 * regions up to the immediate post-dominator), its lock-step regions
 * (ptx_func.pred_region: code the block runs in lock-step so that collectives there keep their
 * barriers uniform) and the joins that get a barrier (ptx_func.barrier_join); it clears the
 * kernels' ptx_func.conv (the dialect places convergence points itself). */
cb_pass pass_uniform;

#endif
