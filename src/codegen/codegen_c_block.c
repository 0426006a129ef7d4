/* codegen_c_block.c: the block entry of a plain kernel (CB_DIALECT_C).
 *
 * A kernel without barriers or warp collectives (cb_kernel_info.needs_fibers
 * == 0) runs its threads one after the other, so its threads can be a loop
 * in the generated code instead of one call each from the runtime. For such
 * a kernel cbk_<k> this emits:
 *
 *   static inline always_inline void cbk_<k>_body(t, <hoisted values>, cb_tx, cb_ty, cb_tz, cb_flat)
 *       the kernel's body, reading %tid/%ntid/%ctaid/%nctaid/%laneid/%warpid
 *       from its arguments, .param values from a private copy (cb_pbuf) and
 *       shared memory from cb_smem (codegen_c.c's block_mode); `ret` and
 *       `exit` return from it, i.e. go on with the next thread;
 *   void cbk_<k>_block(cb_thread *t, uint32_t first, uint32_t count)
 *       loads the block's values into locals once, copies the parameters,
 *       and runs threads first .. first+count-1 (flat order) through the
 *       inlined body, tid.x the induction variable of the inner loop;
 *   void cbk_<k>(cb_thread *t)
 *       the per-thread entry of kernel_abi.h: cbk_<k>_block(t, t->flat, 1).
 *
 * Identity for faults and runtime calls: before each thread, the loop
 * stores its tid into *t (and flat/lane/warp when the kernel calls a
 * .func, whose code reads them from *t), so a fault's report and
 * printf/assert/trap name the thread that ran. The stores go through a
 * volatile pointer: the compiler may not sink or merge them, so what *t
 * says at a fault is the thread whose instructions faulted.
 */
#include "codegen/codegen.h"

#include <string.h>

/* Bytes of f's packed .param buffer (what the block entry copies). */
static uint64_t entry_param_bytes(const ptx_func *f)
{
    uint64_t end = 0;
    for (uint32_t i = f->nrets; i < f->nrets + f->nparams; i++) {
        const ptx_var *v = &f->vars[i];
        if (v->offset + v->size > end)
            end = v->offset + v->size;
    }
    return end;
}

/* 1 when f contains a call (its callees read the thread from *t). */
static int entry_calls(const ptx_func *f)
{
    for (uint32_t i = 0; i < f->ninstrs; i++)
        if (f->instrs[i].op == PTX_OP_call)
            return 1;
    return 0;
}

#define BLOCK_DIMS "cb_ntid_x, cb_ntid_y, cb_ntid_z, cb_ctaid_x, cb_ctaid_y, cb_ctaid_z, cb_nctaid_x, cb_nctaid_y, cb_nctaid_z"

static void emit_body_function(cg *c, const ptx_func *f)
{
    cg_printf(c, "\n/* line %u: .entry %s (body of %s_block) */\n", f->line, f->name, f->cname);
    cg_printf(c,
              "static inline __attribute__((always_inline)) void %s_body(cb_thread *t, const unsigned char *cb_pbuf, "
              "unsigned char *cb_smem,\n    uint32_t cb_ntid_x, uint32_t cb_ntid_y, uint32_t cb_ntid_z, uint32_t "
              "cb_ctaid_x, uint32_t cb_ctaid_y, uint32_t cb_ctaid_z,\n    uint32_t cb_nctaid_x, uint32_t cb_nctaid_y, "
              "uint32_t cb_nctaid_z, uint32_t cb_tx, uint32_t cb_ty, uint32_t cb_tz, uint32_t cb_flat)\n{\n",
              f->cname);
    cg_puts(c, "    (void)cb_pbuf; (void)cb_smem; (void)cb_ntid_x; (void)cb_ntid_y; (void)cb_ntid_z; (void)cb_ctaid_x;\n"
               "    (void)cb_ctaid_y; (void)cb_ctaid_z; (void)cb_nctaid_x; (void)cb_nctaid_y; (void)cb_nctaid_z;\n"
               "    (void)cb_tx; (void)cb_ty; (void)cb_tz; (void)cb_flat;\n");
    c->block_mode = 1;
    cg_emit_body(c, f);
    c->block_mode = 0;
    cg_puts(c, "}\n");
}

static void emit_block_function(cg *c, const ptx_func *f)
{
    uint64_t pbytes = entry_param_bytes(f);
    const char *n = f->cname;
    cg_printf(c, "__attribute__((visibility(\"default\"))) void %s_block(cb_thread *t, uint32_t first, uint32_t count)\n{\n",
              n);
    cg_puts(c, "    const cb_block *cb_b = t->blk;\n"
               "    volatile cb_thread *cb_vt = t; /* the running thread, for faults and the runtime */\n"
               "    const uint32_t cb_ntid_x = cb_b->ntid.x, cb_ntid_y = cb_b->ntid.y, cb_ntid_z = cb_b->ntid.z;\n"
               "    const uint32_t cb_ctaid_x = cb_b->ctaid.x, cb_ctaid_y = cb_b->ctaid.y, cb_ctaid_z = cb_b->ctaid.z;\n"
               "    const uint32_t cb_nctaid_x = cb_b->nctaid.x, cb_nctaid_y = cb_b->nctaid.y, cb_nctaid_z = "
               "cb_b->nctaid.z;\n"
               "    unsigned char *cb_smem = cb_b->shared;\n");
    /* The copy lets the compiler keep parameters in registers across the
     * kernel's stores (-fno-strict-aliasing: any store may alias the runtime's
     * buffer, never this local array, whose address does not escape). */
    cg_printf(c, "    _Alignas(16) unsigned char cb_pbuf[%llu];\n", (unsigned long long)(pbytes ? pbytes : 1));
    if (pbytes)
        cg_printf(c, "    memcpy(cb_pbuf, cb_b->params, %llu);\n", (unsigned long long)pbytes);
    cg_puts(c, "    uint32_t cb_tx = first % cb_ntid_x, cb_ty = first / cb_ntid_x % cb_ntid_y;\n"
               "    uint32_t cb_tz = first / cb_ntid_x / cb_ntid_y, cb_flat = first, cb_end = first + count;\n"
               "    while (cb_flat < cb_end) {\n"
               "        uint32_t cb_n = cb_ntid_x - cb_tx;\n"
               "        if (cb_n > cb_end - cb_flat)\n"
               "            cb_n = cb_end - cb_flat;\n"
               "        cb_vt->tid.y = cb_ty;\n"
               "        cb_vt->tid.z = cb_tz;\n"
               "        for (uint32_t cb_i = 0; cb_i < cb_n; cb_i++) {\n"
               "            cb_vt->tid.x = cb_tx + cb_i;\n");
    if (entry_calls(f))
        cg_puts(c, "            cb_vt->flat = cb_flat + cb_i;\n"
                   "            cb_vt->lane = (cb_flat + cb_i) & 31u;\n"
                   "            cb_vt->warp = (cb_flat + cb_i) >> 5;\n");
    cg_printf(c, "            %s_body(t, cb_pbuf, cb_smem, " BLOCK_DIMS ", cb_tx + cb_i, cb_ty, cb_tz, cb_flat + cb_i);\n",
              n);
    cg_puts(c, "        }\n"
               "        cb_flat += cb_n;\n"
               "        cb_tx = 0;\n"
               "        if (++cb_ty == cb_ntid_y) {\n"
               "            cb_ty = 0;\n"
               "            cb_tz++;\n"
               "        }\n"
               "    }\n"
               "}\n");
    cg_printf(c, "__attribute__((visibility(\"default\"))) void %s(cb_thread *t) { %s_block(t, t->flat, 1); }\n", n, n);
}

void cg_emit_plain_entry(cg *c, const ptx_func *f)
{
    c->f = f;
    c->in = NULL;
    emit_body_function(c, f);
    emit_block_function(c, f);
}
