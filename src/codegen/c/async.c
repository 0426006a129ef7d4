/* async.c: cp.async (CB_DIALECT_C).
 *
 * The CPU backend performs an asynchronous copy synchronously, when it is
 * issued: by the time cp.async.wait_group/wait_all (or the mbarrier-free
 * commit/wait protocol) lets the program look at the destination, the bytes
 * are there, which is all the ISA promises. commit_group and the waits
 * therefore have nothing left to do.
 *
 *   cp.async.ca.shared{::cta}.global{hints} [dst], [src], cp-size{, src-size}{, policy}
 *   cp.async.ca.shared{::cta}.global{hints} [dst], [src], cp-size{, ignore-src}{, policy}
 *   cp.async.cg ... with cp-size 16
 *   cp.async.commit_group; cp.async.wait_group N; cp.async.wait_all
 *   cp.async.mbarrier.arrive{.noinc}: see mbarrier.c (the copies
 *   being complete, the arrive-on it schedules happens at once)
 *   cp.async.bulk and cp.reduce.async.bulk: bulk.c
 *
 * cp-size is 4, 8 or 16 bytes; src-size (at most cp-size) bytes are read and
 * the rest is zero-filled; a true ignore-src predicate reads nothing and
 * zero-fills all.
 */
#include "codegen/c/c.h"

static int is_pred_reg(cg *c, const ptx_operand *o)
{
    return o->kind == PTX_OPD_reg && c->f->regs[o->reg].type == PTX_TYPE_pred;
}

void c_emit_cp(cg *c, const ptx_instr *in)
{
    if (!ptx_has(in, PTX_MOD_async))
        cg_fail(c, "only cp.async is supported");
    if (ptx_has(in, PTX_MOD_mbarrier)) {
        cg_emit_cp_async_mbarrier_arrive(c, in);
        return;
    }
    if (ptx_has(in, PTX_MOD_bulk)) {
        cg_emit_bulk_copy(c, in);
        return;
    }
    if (ptx_has(in, PTX_MOD_reduce))
        cg_fail(c, "cp.reduce.async without .bulk does not exist");
    if (in->ntypes != 0)
        cg_fail(c, "cp.async takes no type");
    if (ptx_has(in, PTX_MOD_commit_group) || ptx_has(in, PTX_MOD_wait_all)) {
        if (in->nops != 0)
            cg_fail(c, "cp.async.commit_group/wait_all take no operands");
        cg_puts(c, "/* cp.async copies complete when issued: nothing to wait for */\n");
        return;
    }
    if (ptx_has(in, PTX_MOD_wait_group)) {
        if (in->nops != 1)
            cg_fail(c, "cp.async.wait_group takes the number of pending groups allowed");
        cg_puts(c, "/* cp.async copies complete when issued: nothing to wait for */\n");
        return;
    }
    int ca = ptx_has(in, PTX_MOD_ca), cgl = ptx_has(in, PTX_MOD_cg);
    if (ca == cgl || !(ptx_has(in, PTX_MOD_shared) || ptx_has(in, PTX_MOD_shared_cta)) ||
        !ptx_has(in, PTX_MOD_global))
        cg_fail(c, "cp.async needs .ca or .cg and .shared.global");
    if (in->nops < 3 || in->nops > 5)
        cg_fail(c, "cp.async takes [dst], [src], cp-size{, src-size or ignore-src}{, cache-policy}");
    const ptx_operand *size = &in->ops[2];
    if (size->kind != PTX_OPD_int || (size->imm != 4 && size->imm != 8 && size->imm != 16))
        cg_fail(c, "cp.async: cp-size must be the constant 4, 8 or 16");
    if (cgl && size->imm != 16)
        cg_fail(c, "cp.async.cg copies 16 bytes");
    /* the cache policy (.L2::cache_hint) is the last operand, a 64-bit register */
    const ptx_operand *last = &in->ops[in->nops - 1];
    int has_policy = in->nops > 3 && last->kind == PTX_OPD_reg && ptx_type_size(c->f->regs[last->reg].type) == 8;
    int has_src = in->nops - 3 - has_policy > 0;
    if (in->nops - 3 - has_policy > 1)
        cg_fail(c, "cp.async: too many operands");
    cg_puts(c, "unsigned char *cb_d = ");
    cg_address(c, &in->ops[0], PTX_SPACE_shared);
    cg_puts(c, ";\n    const unsigned char *cb_s = ");
    cg_address(c, &in->ops[1], PTX_SPACE_global);
    cg_printf(c, ";\n    uint32_t cb_n = %uu, cb_k = cb_n;\n", (unsigned)size->imm);
    if (has_src) {
        const ptx_operand *o = &in->ops[3];
        if (is_pred_reg(c, o)) {
            cg_puts(c, "    if (");
            cg_read(c, o, PTX_TYPE_pred);
            cg_puts(c, ") cb_k = 0;   /* ignore-src */\n");
        } else {
            cg_puts(c, "    cb_k = ");
            cg_read(c, o, PTX_TYPE_u32);
            cg_puts(c, ";\n    if (cb_k > cb_n) cb_k = cb_n;\n");
        }
    }
    cg_puts(c, "    memcpy(cb_d, cb_s, cb_k);\n    memset(cb_d + cb_k, 0, cb_n - cb_k);\n");
}
