/* lanes_warp.c: block barriers and warp collectives in the lanes entry
 * (c/lanes.c), for blocks that every live lane runs (pass_lanes only lets
 * them there) with a uniform member mask.
 *
 * The semantics are runtime_sync.c's, lane for lane: a warp is 32 lanes of
 * consecutive flat ids; the lanes taking part are those of the mask that
 * exist and are alive; a live lane outside its mask fails the launch
 * (rt->warp_not_member); named lanes that have exited count as arrived and
 * are reported (rt->warp_gone); a shfl from a lane not taking part reads the
 * reader's own value. The collective's inputs are first copied for all lanes
 * (cbW), so a destination that is also a source reads the old values.
 */
#include "codegen/c/lanes.h"
#include "codegen/c/ops.h"

#include <stdio.h>

#define LIVE "cbPC[cbL] != CB_EXIT"

/* The lanes of every warp named in mask that have exited: reported once each warp. */
static void emit_gone(lanes *e, const char *mask, int kind, int mode)
{
    cg_printf(e->c,
              "    for (uint32_t cbWp = 0; cbWp * 32u < cbNL; cbWp++) {\n"
              "        uint32_t cbGone = 0, cbHere = 0;\n"
              "        for (uint32_t cbI = 0; cbI < 32u && cbWp * 32u + cbI < cbNL; cbI++)\n"
              "            if (cbPC[cbWp * 32u + cbI] == CB_EXIT) cbGone |= 1u << cbI; else cbHere |= 1u << cbI;\n"
              "        /* a warp none of whose lanes is here runs no collective */\n"
              "        if (cbHere && (cbGone & (%s))) CB_WARP_GONE(cbWp, %s, cbGone & (%s), %d, %d);\n"
              "    }\n",
              mask, mask, mask, kind, mode);
}

/* Every live lane must be in mask. */
static void emit_members(lanes *e, const char *mask, int kind, int mode)
{
    cg_printf(e->c,
              "    for (size_t cbL = 0; cbL < cbNL; cbL++)\n"
              "        if (cbPC[cbL] != CB_EXIT && !((%s) >> (cbL & 31u) & 1u)) {\n",
              mask);
    lanes_identity(e, "cbTX[cbL]", "cbTY[cbL]", "cbTZ[cbL]", "CB_FLAT(cbL)", "CB_BK(cbL)");
    cg_printf(e->c,
              "            t->blk->rt->warp_not_member(t, %s, %d, %d);\n"
              "        }\n",
              mask, kind, mode);
}

/* The mask operand as a C expression (uniform: read once into cbM). */
static void emit_mask(lanes *e, const ptx_operand *o)
{
    cg_puts(e->c, "    const uint32_t cbM = ");
    cg_read(e->c, o, PTX_TYPE_u32);
    cg_puts(e->c, ";\n");
}

static int32_t reg_of(const ptx_operand *o) { return o->kind == PTX_OPD_reg ? o->reg : -1; }

static void emit_shfl(lanes *e, const ptx_instr *in)
{
    cg *c = e->c;
    int mode = ptx_has(in, PTX_MOD_up) ? 0 : ptx_has(in, PTX_MOD_down) ? 1 : ptx_has(in, PTX_MOD_bfly) ? 2
               : ptx_has(in, PTX_MOD_idx) ? 3 : -1;
    if (mode < 0 || in->nops != 5 || ptx_type_size(ty0(in)) != 4)
        cg_fail(c, "bad shfl");
    cg_puts(c, "    {\n");
    emit_mask(e, &in->ops[4]);
    emit_members(e, "cbM", 0, mode);
    int32_t a = reg_of(&in->ops[1]);
    lanes_loop_open(e, NULL, &a, 1, NULL, 0);
    cg_puts(c, "        cbW[cbL] = ");
    cg_read(c, &in->ops[1], PTX_TYPE_b32);
    cg_puts(c, ";\n");
    lanes_loop_close(e, NULL, 0);
    emit_gone(e, "cbM", 0, mode);
    int32_t regs[4] = {reg_of(&in->ops[2]), reg_of(&in->ops[3]), in->ops[0].reg, in->ops[0].reg2};
    lanes_loop_open(e, LIVE, regs, 4, NULL, 0);
    cg_puts(c, "        uint32_t cbLn = cbL & 31u, cbV = 0;\n        uint32_t cbBv = ");
    cg_read(c, &in->ops[2], PTX_TYPE_b32);
    cg_puts(c, " & 31u, cbC = ");
    cg_read(c, &in->ops[3], PTX_TYPE_b32);
    cg_puts(c, ";\n        uint32_t cbCv = cbC & 31u, cbSeg = (cbC >> 8) & 31u;\n"
               "        int64_t cbMax = (cbLn & cbSeg) | (cbCv & ~cbSeg), cbJ;\n");
    switch (mode) {
    case 0: cg_puts(c, "        cbJ = (int64_t)cbLn - cbBv; cbV = cbJ >= cbMax;\n"); break;
    case 1: cg_puts(c, "        cbJ = (int64_t)cbLn + cbBv; cbV = cbJ <= cbMax;\n"); break;
    case 2: cg_puts(c, "        cbJ = cbLn ^ cbBv; cbV = cbJ <= cbMax;\n"); break;
    default: cg_puts(c, "        cbJ = (cbLn & cbSeg) | (cbBv & ~cbSeg); cbV = cbJ <= cbMax;\n"); break;
    }
    cg_puts(c, "        uint32_t cbSrc = cbV ? (cbL & ~31u) + (uint32_t)cbJ : cbL;\n"
               "        uint32_t cbR = cbSrc < cbNL && cbPC[cbSrc] != CB_EXIT && (cbM >> (cbSrc & 31u) & 1u) ? cbW[cbSrc] : cbW[cbL];\n"
               "    ");
    dst_open(c, in, PTX_TYPE_b32);
    cg_puts(c, "cbR");
    dst_close(c, in, PTX_TYPE_b32);
    if (in->ops[0].reg2 >= 0) {
        ptx_operand q = in->ops[0];
        q.reg = q.reg2;
        cg_puts(c, "    ");
        cg_dst_open(c, &q, PTX_TYPE_pred);
        cg_puts(c, "cbV");
        cg_dst_close(c, &q, PTX_TYPE_pred);
    }
    int32_t defs[2] = {in->ops[0].reg, in->ops[0].reg2};
    lanes_loop_close(e, defs, in->ops[0].reg2 >= 0 ? 2 : 1);
    cg_puts(c, "    }\n");
}

static void emit_vote(lanes *e, const ptx_instr *in)
{
    cg *c = e->c;
    int mode = ptx_has(in, PTX_MOD_all) ? 0 : ptx_has(in, PTX_MOD_any) ? 1 : ptx_has(in, PTX_MOD_uni) ? 2
               : ptx_has(in, PTX_MOD_ballot) ? 3 : -1;
    if (mode < 0 || in->nops != 3)
        cg_fail(c, "bad vote");
    cg_puts(c, "    {\n");
    emit_mask(e, &in->ops[2]);
    emit_members(e, "cbM", 1, mode);
    int32_t p = reg_of(&in->ops[1]);
    lanes_loop_open(e, NULL, &p, 1, NULL, 0);
    cg_puts(c, "        cbW[cbL] = ");
    cg_read(c, &in->ops[1], PTX_TYPE_pred);
    cg_puts(c, " != 0;\n");
    lanes_loop_close(e, NULL, 0);
    emit_gone(e, "cbM", 1, mode);
    /* per warp: the lanes taking part and their ballot, after the lanes' own words */
    cg_puts(c, "    for (uint32_t cbWp = 0; cbWp * 32u < cbNL; cbWp++) {\n"
               "        uint32_t cbArr = 0, cbBal = 0;\n"
               "        for (uint32_t cbI = 0; cbI < 32u && cbWp * 32u + cbI < cbNL; cbI++) {\n"
               "            uint32_t cbL = cbWp * 32u + cbI;\n"
               "            if (cbPC[cbL] == CB_EXIT || !(cbM >> cbI & 1u)) continue;\n"
               "            cbArr |= 1u << cbI;\n"
               "            if (cbW[cbL]) cbBal |= 1u << cbI;\n"
               "        }\n"
               "        cbW[cbNL + 2u * cbWp] = cbArr; cbW[cbNL + 2u * cbWp + 1u] = cbBal;\n"
               "    }\n");
    int32_t d = in->ops[0].reg;
    lanes_loop_open(e, LIVE, &d, 1, NULL, 0);
    cg_puts(c, "        uint32_t cbArr = cbW[cbNL + 2u * (cbL >> 5)], cbBal = cbW[cbNL + 2u * (cbL >> 5) + 1u];\n"
               "        (void)cbArr;\n    ");
    ptx_type rt = mode == 3 ? PTX_TYPE_b32 : PTX_TYPE_pred;
    dst_open(c, in, rt);
    cg_puts(c, mode == 0 ? "cbBal == cbArr" : mode == 1 ? "cbBal != 0" : mode == 2 ? "cbBal == 0 || cbBal == cbArr"
                                                                                    : "cbBal");
    dst_close(c, in, rt);
    lanes_loop_close(e, &d, 1);
    cg_puts(c, "    }\n");
}

static void emit_bar_red(lanes *e, const ptx_instr *in)
{
    cg *c = e->c;
    int op = ptx_has(in, PTX_MOD_popc) ? 0 : ptx_has(in, PTX_MOD_and) ? 1 : ptx_has(in, PTX_MOD_or) ? 2 : -1;
    if (op < 0 || in->nops != 3)
        cg_fail(c, "bad bar.red");
    cg_printf(c, "    { uint32_t cbR = %s;\n", op == 1 ? "1u" : "0u");
    int32_t p = reg_of(&in->ops[2]);
    lanes_loop_open(e, LIVE, &p, 1, NULL, 0);
    cg_puts(c, "        uint32_t cbP = ");
    cg_read(c, &in->ops[2], PTX_TYPE_pred);
    cg_printf(c, " != 0;\n        %s;\n", op == 0 ? "cbR += cbP" : op == 1 ? "cbR &= cbP" : "cbR |= cbP");
    lanes_loop_close(e, NULL, 0);
    ptx_type rt = op == 0 ? PTX_TYPE_u32 : PTX_TYPE_pred;
    int32_t d = reg_of(&in->ops[0]);
    int varying = lanes_is_varying(e, d);
    if (varying)
        lanes_loop_open(e, NULL, &d, 1, NULL, 0);
    cg_puts(c, "    ");
    dst_open(c, in, rt);
    cg_puts(c, "cbR");
    dst_close(c, in, rt);
    if (varying)
        lanes_loop_close(e, &d, 1);
    cg_puts(c, "    }\n");
}

void lanes_emit_collective(lanes *e, const ptx_instr *in)
{
    cg *c = e->c;
    c->in = in;
    lanes_comment(e, in);
    switch (in->op) {
    case PTX_OP_bar:
    case PTX_OP_barrier:
        if (ptx_has(in, PTX_MOD_warp)) {
            cg_puts(c, "    {\n");
            emit_mask(e, &in->ops[0]);
            emit_members(e, "cbM", 2, 0);
            emit_gone(e, "cbM", 2, 0);
            cg_puts(c, "    }\n");
        } else if (ptx_has(in, PTX_MOD_red)) {
            emit_bar_red(e, in);
        } else {
            cg_puts(c, "    /* every live lane is here; the exited count as arrived */\n");
        }
        return;
    case PTX_OP_shfl:
        emit_shfl(e, in);
        return;
    case PTX_OP_vote:
        emit_vote(e, in);
        return;
    case PTX_OP_mma:
    case PTX_OP_wmma:
        c_lanes_emit_matrix(e, in);
        return;
    default:
        cg_fail(c, "internal error: a collective the lanes entry cannot run");
    }
}
