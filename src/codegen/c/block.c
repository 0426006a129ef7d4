/* block.c: the block entry of a plain kernel (CB_DIALECT_C).
 *
 * A kernel without barriers or warp collectives (cb_kernel_info.needs_fibers
 * == 0) runs its threads one after the other, so its threads can be a loop
 * in the generated code instead of one call each from the runtime. For such
 * a kernel cbk_<k> this emits:
 *
 *   static inline always_inline void cbk_<k>_body(t, <hoisted values>, cbB_tx, cbB_ty, cbB_tz, cbB_flat)
 *       the kernel's body, reading %tid/%ntid/%ctaid/%nctaid/%laneid/%warpid
 *       from its arguments, .param values through a restrict pointer
 *       (cbB_pbuf: the parameters are never written while a kernel runs, so
 *       the compiler may keep them in registers across the kernel's stores,
 *       which -fno-strict-aliasing otherwise forbids) and shared memory
 *       from cbB_smem (operands.c's block_mode); `ret` and `exit` return
 *       from it, i.e. go on with the next thread;
 *   static void cbk_<k>_run(t, params, first, count, x, y, z)
 *       loads the block's values into locals once and runs threads first ..
 *       first+count-1 (flat order, the first one at (x, y, z)) through the
 *       inlined body, tid.x the induction variable of the inner loop;
 *   void cbk_<k>_block(cb_thread *t, uint32_t first, uint32_t count)
 *       kernel_abi.h's block entry: cbk_<k>_run from first's (x, y, z);
 * and then unit.c emits cbk_<k>, the per-thread entry, as for any
 * kernel (the runtime's path without block entries, and the fallback; a
 * one-thread call of cbk_<k>_run cost about twice as much per thread).
 *
 * Identity for faults and runtime calls: before each thread, the loop
 * stores its tid into *t (and flat/lane/warp when the kernel calls a
 * .func, whose code reads them from *t), so a fault's report and
 * printf/assert/trap name the thread that ran. The stores go through a
 * volatile pointer: the compiler may not sink or merge them, so what *t
 * says at a fault is the thread whose instructions faulted.
 */
#include "codegen/c/c.h"

#include <string.h>

/* 1 when f contains a call (its callees read the thread from *t). */
static int entry_calls(const ptx_func *f)
{
    for (uint32_t i = 0; i < f->ninstrs; i++)
        if (f->instrs[i].op == PTX_OP_call)
            return 1;
    return 0;
}

#define BLOCK_DIMS "cbB_ntid_x, cbB_ntid_y, cbB_ntid_z, cbB_ctaid_x, cbB_ctaid_y, cbB_ctaid_z, cbB_nctaid_x, cbB_nctaid_y, cbB_nctaid_z"

static void emit_body_function(cg *c, const ptx_func *f)
{
    /* The same header as emit_function's: the inspector (elemtype.c) finds a
     * kernel's instructions by it. */
    cg_printf(c, "\n/* line %u: .entry %s */\n", f->line, f->name);
    cg_printf(c,
              "static inline __attribute__((always_inline)) void %s_body(cb_thread *t, const unsigned char *restrict cbB_pbuf, "
              "unsigned char *cbB_smem,\n    uint32_t cbB_ntid_x, uint32_t cbB_ntid_y, uint32_t cbB_ntid_z, uint32_t "
              "cbB_ctaid_x, uint32_t cbB_ctaid_y, uint32_t cbB_ctaid_z,\n    uint32_t cbB_nctaid_x, uint32_t cbB_nctaid_y, "
              "uint32_t cbB_nctaid_z, uint32_t cbB_tx, uint32_t cbB_ty, uint32_t cbB_tz, uint32_t cbB_flat)\n{\n",
              f->cname);
    cg_puts(c, "    (void)cbB_pbuf; (void)cbB_smem; (void)cbB_ntid_x; (void)cbB_ntid_y; (void)cbB_ntid_z; (void)cbB_ctaid_x;\n"
               "    (void)cbB_ctaid_y; (void)cbB_ctaid_z; (void)cbB_nctaid_x; (void)cbB_nctaid_y; (void)cbB_nctaid_z;\n"
               "    (void)cbB_tx; (void)cbB_ty; (void)cbB_tz; (void)cbB_flat;\n");
    c->block_mode = 1;
    cg_emit_body(c, f);
    c->block_mode = 0;
    cg_puts(c, "}\n");
}

static void emit_block_function(cg *c, const ptx_func *f)
{
    const char *n = f->cname;
    cg_printf(c, "static void %s_run(cb_thread *t, const unsigned char *restrict cbB_pbuf, uint32_t first, "
                 "uint32_t count,\n    uint32_t cbB_tx, uint32_t cbB_ty, uint32_t cbB_tz)\n{\n", n);
    cg_puts(c, "    const cb_block *cbB_b = t->blk;\n"
               "    volatile cb_thread *cbB_vt = t; /* the running thread, for faults and the runtime */\n"
               "    const uint32_t cbB_ntid_x = cbB_b->ntid.x, cbB_ntid_y = cbB_b->ntid.y, cbB_ntid_z = cbB_b->ntid.z;\n"
               "    const uint32_t cbB_ctaid_x = cbB_b->ctaid.x, cbB_ctaid_y = cbB_b->ctaid.y, cbB_ctaid_z = cbB_b->ctaid.z;\n"
               "    const uint32_t cbB_nctaid_x = cbB_b->nctaid.x, cbB_nctaid_y = cbB_b->nctaid.y, cbB_nctaid_z = "
               "cbB_b->nctaid.z;\n"
               "    unsigned char *cbB_smem = cbB_b->shared;\n");
    cg_puts(c, "    uint32_t cbB_flat = first, cbB_end = first + count;\n"
               "    while (cbB_flat < cbB_end) {\n"
               "        uint32_t cbB_n = cbB_ntid_x - cbB_tx;\n"
               "        if (cbB_n > cbB_end - cbB_flat)\n"
               "            cbB_n = cbB_end - cbB_flat;\n"
               "        cbB_vt->tid.y = cbB_ty;\n"
               "        cbB_vt->tid.z = cbB_tz;\n"
               "        for (uint32_t cbB_i = 0; cbB_i < cbB_n; cbB_i++) {\n"
               "            cbB_vt->tid.x = cbB_tx + cbB_i;\n");
    if (entry_calls(f) && c->m->warp_size == 64)   /* 64-lane warps (cb_translate_opts) */
        cg_puts(c, "            cbB_vt->flat = cbB_flat + cbB_i;\n"
                   "            cbB_vt->lane = (cbB_flat + cbB_i) & 63u;\n"
                   "            cbB_vt->warp = (cbB_flat + cbB_i) >> 6;\n");
    else if (entry_calls(f))
        cg_puts(c, "            cbB_vt->flat = cbB_flat + cbB_i;\n"
                   "            cbB_vt->lane = (cbB_flat + cbB_i) & 31u;\n"
                   "            cbB_vt->warp = (cbB_flat + cbB_i) >> 5;\n");
    cg_printf(c, "            %s_body(t, cbB_pbuf, cbB_smem, " BLOCK_DIMS ", cbB_tx + cbB_i, cbB_ty, cbB_tz, cbB_flat + cbB_i);\n",
              n);
    cg_puts(c, "        }\n"
               "        cbB_flat += cbB_n;\n"
               "        cbB_tx = 0;\n"
               "        if (++cbB_ty == cbB_ntid_y) {\n"
               "            cbB_ty = 0;\n"
               "            cbB_tz++;\n"
               "        }\n"
               "    }\n"
               "}\n");
    cg_printf(c, "__attribute__((visibility(\"default\"))) void %s_block(cb_thread *t, uint32_t first, uint32_t count)\n{\n"
                 "    const cb_block *b = t->blk;\n"
                 "    %s_run(t, b->params, first, count, first %% b->ntid.x, first / b->ntid.x %% b->ntid.y, "
                 "first / b->ntid.x / b->ntid.y);\n}\n", n, n);
}

void cg_emit_plain_entry(cg *c, const ptx_func *f)
{
    c->f = f;
    c->in = NULL;
    emit_body_function(c, f);
    emit_block_function(c, f);
}
