/* conv.c: the positions of warp convergence points in the C dialect.
 *
 * pass_converge (src/passes/converge.c) has found, per function that
 * reaches a site, its nodes, loops and per-level reachability (ptx_conv).
 * Here they become C: inside the function a static cb_conv_fn describing
 * them (kernel_abi.h, ABI 8), an array cb_lc[] of loop counters and the
 * lane's frame cb_fr; increments of cb_lc on the counted loops' back edges;
 * `cb_fr.node = N; t->conv = &cb_fr;` before a call that can reach a site;
 * and `cb_fr.node = N; rt->converge(t, &cb_fr)` at a site.
 */
#include "codegen/c/c.h"

static void emit_u32s(cg *c, const char *decl, const uint32_t *a, uint32_t n)
{
    cg_printf(c, "    static const %s[] = {", decl);
    for (uint32_t i = 0; i < n; i++)
        cg_printf(c, "%s%u", i ? (i % 16 ? ", " : ",\n        ") : "", a[i]);
    cg_puts(c, n ? "};\n" : "0};\n");
}

void c_conv_begin(cg *c, const ptx_func *f)
{
    const ptx_conv *v = f->conv;
    if (!v || c->block_mode)
        return;
    uint32_t nn = v->nnodes;
    cg_printf(c, "    /* warp convergence points: %u nodes, %u counted loops%s (pass_converge) */\n", nn,
              v->ncounters, v->unordered ? ", irreducible CFG: unordered" : "");
    cg_puts(c, "    static const int32_t cb_cv_parent[] = {");
    for (uint32_t i = 0; i < nn; i++)
        cg_printf(c, "%s%d", i ? (i % 16 ? ", " : ",\n        ") : "", v->nodes[i].parent);
    cg_puts(c, nn ? "};\n" : "0};\n");
    cg_puts(c, "    static const uint32_t cb_cv_counter[] = {");
    for (uint32_t i = 0; i < nn; i++)
        cg_printf(c, "%s%u", i ? (i % 16 ? ", " : ",\n        ") : "", v->nodes[i].counter);
    cg_puts(c, nn ? "};\n" : "0};\n");
    cg_puts(c, "    static const uint32_t cb_cv_sibling[] = {");
    for (uint32_t i = 0; i < nn; i++)
        cg_printf(c, "%s%u", i ? (i % 16 ? ", " : ",\n        ") : "", v->nodes[i].sibling);
    cg_puts(c, nn ? "};\n" : "0};\n");
    emit_u32s(c, "uint32_t cb_cv_nchild", v->nchild, nn + 1);
    emit_u32s(c, "uint32_t cb_cv_roff", v->reach_off, nn + 1);
    if (v->reach) {
        cg_puts(c, "    static const uint8_t cb_cv_reach[] = {");
        for (uint32_t i = 0; i < (v->reach_bits + 7) / 8; i++)
            cg_printf(c, "%s0x%02x", i ? (i % 16 ? ", " : ",\n        ") : "", v->reach[i]);
        cg_puts(c, v->reach_bits ? "};\n" : "0};\n");
    }
    cg_printf(c, "    static const cb_conv_fn cb_cv_fn = {%uu, %s, cb_cv_parent, cb_cv_counter, cb_cv_sibling, "
                 "cb_cv_nchild, cb_cv_roff, %s};\n",
              nn, v->unordered ? "CB_CONV_UNORDERED" : "0u", v->reach ? "cb_cv_reach" : "0");
    cg_printf(c, "    uint32_t cb_lc[%u] = {0};\n", v->ncounters ? v->ncounters : 1);
    if (f->is_entry)
        cg_puts(c, "    cb_conv_frame cb_fr = {&cb_cv_fn, 0, 0, cb_lc, 0};\n");
    else
        cg_puts(c, "    cb_conv_frame cb_fr = {&cb_cv_fn, 0, t->conv ? t->conv->depth + 1u : 0u, cb_lc, t->conv};\n");
    cg_puts(c, "    (void)cb_fr; (void)cb_lc;\n");
}

/* cb_lc[L]++ and the resets of the counted loops inside loop node L. */
static void emit_increment(cg *c, const ptx_conv *v, int32_t node)
{
    cg_printf(c, "cb_lc[%u]++; ", v->nodes[node].counter);
    for (uint32_t i = 0; i < v->nnodes; i++) {
        if (!v->nodes[i].is_loop || (int32_t)i == node)
            continue;
        int32_t p = v->nodes[i].parent;
        while (p >= 0 && p != node)
            p = v->nodes[p].parent;
        if (p == node)
            cg_printf(c, "cb_lc[%u] = 0; ", v->nodes[i].counter);
    }
}

void c_conv_edge(cg *c, uint32_t k)
{
    const ptx_conv *v = c->f->conv;
    if (!v || c->block_mode || v->fall_back[k] < 0)
        return;
    cg_puts(c, "    /* back edge by fall-through */ ");
    emit_increment(c, v, v->fall_back[k]);
    cg_puts(c, "\n");
}

void c_conv_instr(cg *c, uint32_t k)
{
    const ptx_conv *v = c->f->conv;
    if (!v || c->block_mode)
        return;
    if (v->branch_back[k] >= 0)
        emit_increment(c, v, v->branch_back[k]);
    if (c->f->instrs[k].op == PTX_OP_call && v->node_of[k] >= 0)
        cg_printf(c, "cb_fr.node = %du; t->conv = &cb_fr; ", v->node_of[k]);
}

void cg_emit_converge(cg *c, const char *lhs)
{
    const ptx_conv *v = c->f->conv;
    uint32_t k = (uint32_t)(c->in - c->f->instrs);
    if (v && !c->block_mode && k < c->f->ninstrs && v->node_of[k] >= 0)
        cg_printf(c, "cb_fr.node = %du; %st->blk->rt->converge(t, &cb_fr);\n    ", v->node_of[k], lhs);
    else   /* a position equal to every other NULL one */
        cg_printf(c, "%st->blk->rt->converge(t, 0);\n    ", lhs);
}
