/* nan.c: pass_nan -- which f32 registers need no NaN canonicalisation.
 *
 * CUDA's f32 arithmetic gives every NaN result as 0x7fffffff; the host's
 * float unit gives another (x86: 0xffc00000, or the first NaN operand's
 * payload), so the code generator canonicalises each f32 arithmetic result
 * (cb_cna32, c/ops.h). That costs a compare and a select per operation (on
 * the CPU the suite's n-body took 34 ms with them and 18 ms without, 2 threads,
 * bench/RESULTS.md 2026-12-03). It is needed only where the bits can be seen.
 *
 * A register is NaN-blind when every read of it is an operand of an f32
 * instruction whose result does not depend on an operand NaN's payload:
 * arithmetic that turns any NaN operand into a NaN (add, sub, mul, fma,
 * mad, div, rcp, sqrt, rsqrt, sin, cos, lg2, ex2; neg and abs, which on the
 * H200 give the canonical NaN too: docs/ptx-conformance.md), min/max (which
 * look only at whether an operand is NaN) and comparisons (setp, testp). A NaN
 * written to such a register, canonical or not, is seen only as "a NaN": it makes the
 * next result a NaN, which is canonicalised where that result is read other
 * than so (a store, a move, a shuffle, a conversion) -- the value a
 * program can observe is the same bits. A guarded definition's implicit read
 * of its destination keeps the old bits in the same register and so is no
 * read. Anything else (a store, a move, selp, a call argument, a vector
 * element, a shuffle) makes the register need its NaNs canonical.
 */
#include "passes/passes.h"

/* Whether in is an f32 instruction whose result ignores its operands' NaN payloads. */
static int nan_blind_reader(const ptx_instr *in)
{
    if (!in->ntypes || in->types[0] != PTX_TYPE_f32)
        return 0;
    switch (in->op) {
    case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_fma: case PTX_OP_mad: case PTX_OP_div:
    case PTX_OP_rcp: case PTX_OP_sqrt: case PTX_OP_rsqrt: case PTX_OP_sin: case PTX_OP_cos: case PTX_OP_lg2:
    case PTX_OP_ex2: case PTX_OP_setp: case PTX_OP_testp: case PTX_OP_neg: case PTX_OP_abs:
        return 1;
    case PTX_OP_min: case PTX_OP_max:
        return !ptx_has(in, PTX_MOD_xorsign);
    default:
        return 0;
    }
}

/* Marks every register operand o names as read with its bits seen. */
static void seen(const ptx_operand *o, unsigned char *blind)
{
    if (o->reg >= 0 && (o->kind == PTX_OPD_reg || o->kind == PTX_OPD_mem))
        blind[o->reg] = 0;
    if (o->reg2 >= 0 && o->kind == PTX_OPD_reg)
        blind[o->reg2] = 0;
    if (o->kind == PTX_OPD_vec || o->kind == PTX_OPD_list || o->kind == PTX_OPD_mem)
        for (uint32_t i = 0; i < o->nelems; i++)
            seen(&o->elems[i], blind);
}

int pass_nan(ptx_module *m, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        ptx_func *f = &m->funcs[fi];
        if (!f->defined || !f->nregs)
            continue;
        unsigned char *blind = ptx_arena_alloc(&m->arena, f->nregs);
        if (!blind)
            return -1;
        for (uint32_t r = 0; r < f->nregs; r++)
            blind[r] = 1;
        for (uint32_t i = 0; i < f->ninstrs; i++) {
            const ptx_instr *in = &f->instrs[i];
            int reader = nan_blind_reader(in);
            uint32_t first = (ptx_ops[in->op].flags & PTX_OPF_DST) ? 1 : 0;
            for (uint32_t o = first; o < in->nops; o++)
                if (!(reader && in->ops[o].kind == PTX_OPD_reg))
                    seen(&in->ops[o], blind);
        }
        f->nan_blind = blind;
    }
    return 0;
}
