/* lanes_run.c: a run of the lanes entry (c/lanes.c) -- consecutive per-lane
 * instructions of one block, as one loop over the lanes, so that a lane's
 * values stay in registers from one instruction to the next and the C
 * compiler vectorises the loop.
 *
 * Every run has a *safe form*: a loop over the lanes (under the block's
 * mask) whose body loads the lane's registers from their arrays, runs the
 * dialect's scalar code of every instruction, stores what is still needed
 * after the run (pass_lanes' liveness) and, before a lane does what may
 * fault or call the runtime, stores its identity into *t.
 *
 * A run that reads or writes memory through addresses that are affine in
 * %tid.x (pass_lanes: lane x of a row holds base + stride * x) also has a
 * *fast form*, taken when every lane of the block is alive and active: a
 * loop over the rows of the block (tid.y, tid.z fixed), and inside it a
 * loop over x in which every affine register is computed as base + stride *
 * x from its value in lane 0 of the row. The compiler then sees contiguous
 * (or invariant) addresses and emits vector loads and stores. The bases come
 * from lane 0 of each row: the arrays for registers the run reads first,
 * and the run's own instructions, run for lane 0 before the loop, for those
 * it computes. What the claim rests on is checked per row first:
 *   - registers pass_lanes marks VERIFY (defined in divergent blocks, or
 *     through a widening that could wrap) must hold base + stride * x in the
 *     arrays (a vectorisable compare over the row);
 *   - a widening (mul.wide, cvt to 64 bits) of an affine value must not
 *     wrap along the row, nor a 32-bit shared-memory offset;
 * and a row that fails goes, with the rows after it, through the safe form.
 * Either form gives the same values: the fast form is the safe form with
 * each affine value computed by its closed form, where it is exact.
 * In the fast form a fault names the first thread of the row.
 *
 * Trips of a loop. A block that is one run and branches back to itself on a
 * varying predicate (a grid-stride loop's body: divergent when its exit leads
 * on, converged when it leads to a tail) counts, in its fast form, the lanes
 * that take the back edge (cbQ). When every lane of the block did, after a trip made wholly in the fast form, the branch goes
 * straight back with cbWarm set and the next trip skips the rows' VERIFY
 * checks: between the trips nothing ran but the run itself, which left
 * every register it read first unchanged or, by an unguarded affine
 * definition, at its closed form -- so the arrays still hold the closed
 * forms checked before. (A run whose loop-carried affine register has a
 * guarded or non-affine definition does not count; cbQ stays 0.) The
 * per-lane program counters need no update, and the dispatcher is not run.
 */
#include "codegen/c/lanes.h"
#include "passes/passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGS_MAX 160

typedef struct run_state {
    lanes *e;
    const lanes_run *r;
    int32_t *cur;   /* per register: index in the run of its last definition so far, -1 none */
    uint8_t *seen;  /* per register: 1 read, 2 written, in the run (first access) */
    uint8_t *row_checked; /* per run instruction: its access check done for the whole row (fast form) */
    uint32_t at;    /* the run instruction being emitted (fast body) */
    int trips;      /* the fast form counts the back edge's lanes (counts_trips) */
} run_state;

static const char *rname(const run_state *s, int32_t r) { return s->e->f->regs[r].cname; }

static int affine(const run_state *s, int32_t r) { return r >= 0 && s->e->k->affine[r] != PTX_AFF_NONE; }

static const char *utype_of(const run_state *s, int32_t r)
{
    return ptx_type_size(s->e->f->regs[r].type) == 8 ? "uint64_t" : "uint32_t";
}

/* The base of register r as defined by run instruction cur (-1: on entry). */
static void base_name(const run_state *s, int32_t r, int32_t cur, char *buf, size_t n)
{
    if (cur < 0)
        snprintf(buf, n, "B_%s", rname(s, r));
    else
        snprintf(buf, n, "B_%s_%d", rname(s, r), cur);
}

/* Prints the closed form of register r in lane cbX from base b. */
static void emit_closed(const run_state *s, int32_t r, const char *b)
{
    const char *u = utype_of(s, r);
    cg_printf(s->e->c, "(%s)((%s)%s + (%s)%lldll * (%s)cbX)", cg_ctype(s->e->f->regs[r].type), u, b, u,
              (long long)s->e->k->stride[r], u);
}

/* An instruction whose one result is affine and that touches no memory: the
 * fast form computes its result by the closed form. */
static int affine_def(const run_state *s, const ptx_instr *in, int32_t *d)
{
    int32_t defs[REGS_MAX], uses[REGS_MAX];
    uint32_t nd, nu;
    pass_instr_regs(in, defs, &nd, uses, &nu, REGS_MAX);
    if (nd != 1 || !affine(s, defs[0]) || (ptx_ops[in->op].flags & (PTX_OPF_MEM | PTX_OPF_CALL)))
        return 0;
    *d = defs[0];
    return 1;
}

static int uses_special(const ptx_instr *in)
{
    for (uint32_t i = 0; i < in->nops; i++)
        if (in->ops[i].kind == PTX_OPD_special)
            return 1;
    return 0;
}

static void emit_guarded(lanes *e, const ptx_instr *in)
{
    cg *c = e->c;
    c->in = in;
    cg_puts(c, "    ");
    if (in->guard >= 0)
        cg_printf(c, "if (%s%s) ", in->guard_neg ? "!" : "", e->f->regs[in->guard].cname);
    cg_puts(c, "{ ");
    cg_emit_instr(c, in);
    cg_puts(c, "    }\n");
}

/* ---- which runs have a fast form ------------------------------------------------------- */

/* The memory operand of in, or NULL. */
static const ptx_operand *mem_operand(const ptx_instr *in)
{
    for (uint32_t i = 0; i < in->nops; i++)
        if (in->ops[i].kind == PTX_OPD_mem)
            return &in->ops[i];
    return NULL;
}

static int vector_width(const ptx_instr *in) { return ptx_has(in, PTX_MOD_v4) ? 4 : ptx_has(in, PTX_MOD_v2) ? 2 : 1; }

/* A shared-memory atomic of 32 or 64 bits: in a lanes entry a plain
 * read-modify-write of the block's window (c/memory.c, cb_atom1_*), which
 * neither checks its address nor calls the runtime, so it needs no lane's
 * identity and may sit in a fast form at any address (a histogram's bins);
 * it runs there lane after lane, in the safe form's order. */
static int plain_shared_atomic(const ptx_instr *in)
{
    if ((in->op != PTX_OP_atom && in->op != PTX_OP_red) || ptx_instr_space(in) != PTX_SPACE_shared ||
        vector_width(in) != 1 || ptx_has(in, PTX_MOD_async) || !in->ntypes)
        return 0;
    uint32_t size = ptx_type_size(in->types[0]);
    return (size == 4 || size == 8) && ptx_type_kind(in->types[0]) != 'p';
}

/* Whether the run gains from, and allows, a fast form: it touches memory,
 * only through affine or uniform addresses (stores only contiguous or to one
 * address) or by plain shared atomics, and does nothing that needs a lane's
 * own identity. */
static int wants_fast(const run_state *s)
{
    const lanes_run *r = s->r;
    int mem = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        const ptx_instr *in = r->ins[i];
        switch (in->op) {
        case PTX_OP_ld:
        case PTX_OP_ldu:
        case PTX_OP_st: {
            ptx_space sp = ptx_instr_space(in);
            if (sp == PTX_SPACE_local || ptx_has(in, PTX_MOD_volatile) || ptx_has(in, PTX_MOD_relaxed) ||
                ptx_has(in, PTX_MOD_acquire) || ptx_has(in, PTX_MOD_release))
                return 0;
            const ptx_operand *a = mem_operand(in);
            if (!a || a->sym.kind == PTX_SYM_func_var)
                return 0;
            if (a->reg >= 0 && lanes_is_varying(s->e, a->reg)) {
                if (!affine(s, a->reg))
                    return 0;
                int64_t st = s->e->k->stride[a->reg];
                int64_t size = (int64_t)ptx_type_size(in->ntypes ? in->types[0] : PTX_TYPE_b32) * vector_width(in);
                if (in->op == PTX_OP_st && st != size && st != 0)
                    return 0;
            }
            mem = 1;
            break;
        }
        default:
            if (plain_shared_atomic(in)) {
                mem = 1;
                break;
            }
            if (ptx_ops[in->op].flags & (PTX_OPF_MEM | PTX_OPF_CALL | PTX_OPF_TEXTURE))
                return 0;
            if (in->op == PTX_OP_trap || in->op == PTX_OP_wmma)
                return 0;
            for (uint32_t o = 0; o < in->nops; o++)
                if (in->ops[o].kind == PTX_OPD_special &&
                    (in->ops[o].special == PTX_SREG_clock || in->ops[o].special == PTX_SREG_clock64 ||
                     in->ops[o].special == PTX_SREG_clock_hi || in->ops[o].special == PTX_SREG_globaltimer ||
                     in->ops[o].special == PTX_SREG_globaltimer_lo || in->ops[o].special == PTX_SREG_globaltimer_hi))
                    return 0;
            break;
        }
    }
    return mem;
}

/* ---- the registers a run reads and writes ---------------------------------------------- */

/* First accesses (seen[]), and whether lanes' ids or per-lane variables are used. */
static void scan(run_state *s, int *specials)
{
    int32_t defs[REGS_MAX], uses[REGS_MAX];
    uint32_t nd, nu;
    *specials = 0;
    for (uint32_t i = 0; i < s->r->n; i++) {
        const ptx_instr *in = s->r->ins[i];
        pass_instr_regs(in, defs, &nd, uses, &nu, REGS_MAX);
        for (uint32_t u = 0; u < nu; u++)
            if (!s->seen[uses[u]])
                s->seen[uses[u]] = 1;
        for (uint32_t d = 0; d < nd; d++)
            if (!s->seen[defs[d]])
                s->seen[defs[d]] = 2;
        *specials |= uses_special(in);
    }
}

static int live_after(const run_state *s, int32_t r)
{
    return (int)(s->r->live_after[r / 64] >> (r % 64) & 1);
}

/* Stores the run's varying results that are read later. */
static void emit_stores(const run_state *s)
{
    for (uint32_t r = 0; r < s->e->f->nregs; r++)
        if (s->seen[r] && lanes_is_varying(s->e, (int32_t)r) && live_after(s, (int32_t)r)) {
            int written = 0;
            int32_t defs[REGS_MAX], uses[REGS_MAX];
            uint32_t nd, nu;
            for (uint32_t i = 0; i < s->r->n && !written; i++) {
                pass_instr_regs(s->r->ins[i], defs, &nd, uses, &nu, REGS_MAX);
                for (uint32_t d = 0; d < nd; d++)
                    written |= defs[d] == (int32_t)r;
            }
            if (written)
                cg_printf(s->e->c, "        V_%s[cbL] = %s;\n", rname(s, (int32_t)r), rname(s, (int32_t)r));
        }
}

/* ---- the safe form ---------------------------------------------------------------------- */

static void emit_safe(run_state *s, int specials)
{
    lanes *e = s->e;
    cg *c = e->c;
    const lanes_run *r = s->r;
    int identity = 0;
    unsigned char *vars = cg_tmp(c, e->f->nvars, 1);
    for (uint32_t i = 0; i < r->n; i++) {
        identity |= lanes_needs_identity(r->ins[i]);
        for (uint32_t o = 0; o < r->ins[i]->nops; o++)
            lanes_note_vars(&r->ins[i]->ops[o], vars);
    }
    /* without memory a lane touches element cbL of its registers' arrays only:
     * tell the compiler, which cannot see that the arrays are disjoint */
    int memory = 0;
    for (uint32_t i = 0; i < r->n; i++)
        memory |= (ptx_ops[r->ins[i]->op].flags & (PTX_OPF_MEM | PTX_OPF_CALL | PTX_OPF_TEXTURE)) != 0;
    for (uint32_t v = 0; v < e->f->nvars; v++)
        memory |= vars[v];
    if (!memory)
        cg_puts(c, "#pragma GCC ivdep\n");
    cg_puts(c, "    for (size_t cbL = cbLo; cbL < cbNL; cbL++) {\n");
    if (r->mask)
        cg_printf(c, "        if (!(%s)) continue;\n", r->mask);
    if (specials || identity)
        lanes_ids(e);
    for (uint32_t g = 0; g < e->f->nregs; g++)
        if (s->seen[g] && lanes_is_varying(e, (int32_t)g))
            cg_printf(c, "        %s %s = V_%s[cbL];\n", cg_ctype(e->f->regs[g].type), rname(s, (int32_t)g),
                      rname(s, (int32_t)g));
    lanes_bind_vars(e, vars);
    cg_tmp_free(c, vars);
    /* the lane's identity goes into *t before the first instruction that needs it, and
     * again only after one that called the runtime (nothing else writes *t meanwhile) */
    int stored = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        const ptx_instr *in = r->ins[i];
        if (lanes_needs_identity(in) && !stored) {
            lanes_identity(e, "cbB_tx", "cbB_ty", "cbB_tz", "cbB_flat", "cbB_bk");
            stored = 1;
        }
        emit_guarded(e, in);
        /* loads, stores and atomics call at most the access check, which leaves *t alone */
        if (lanes_needs_identity(in) && in->op != PTX_OP_ld && in->op != PTX_OP_ldu && in->op != PTX_OP_st &&
            in->op != PTX_OP_atom && in->op != PTX_OP_red)
            stored = 0;
    }
    emit_stores(s);
    cg_puts(c, "    }\n");
}

/* ---- the fast form ---------------------------------------------------------------------- */

/* Whether the run may count its back edge's lanes (the header's "Trips of a
 * loop"): a back-edge predicate the run names, and every affine register it
 * reads first and also writes written only by unguarded affine definitions. */
static int counts_trips(const run_state *s)
{
    const lanes_run *r = s->r;
    if (r->loop_pred < 0 || !s->seen[r->loop_pred] || !lanes_is_varying(s->e, r->loop_pred))
        return 0;
    int32_t defs[REGS_MAX], uses[REGS_MAX], d;
    uint32_t nd, nu;
    for (uint32_t i = 0; i < r->n; i++) {
        const ptx_instr *in = r->ins[i];
        pass_instr_regs(in, defs, &nd, uses, &nu, REGS_MAX);
        for (uint32_t k = 0; k < nd; k++)
            if (s->seen[defs[k]] == 1 && affine(s, defs[k]) &&
                (in->guard >= 0 || !affine_def(s, in, &d) || d != defs[k]))
                return 0;
    }
    return 1;
}

/* cg_address's hook: a shared address through an affine register, as its
 * 32-bit offset in lane 0 of the row plus stride * x (the row prologue
 * checked that the offset does not wrap along the row); a checked address
 * whose check the row prologue made for the whole row, unchecked. */
static int affine_address(cg *c, const ptx_operand *o, ptx_space sp)
{
    run_state *s = c->hook_ctx;
    if (s->row_checked[s->at] && o->reg >= 0 && cg_access_checked(c, sp)) {
        cg_printf(c, "((unsigned char *)(uintptr_t)((uint64_t)%s + %lldull))", rname(s, o->reg), (long long)o->offset);
        return 1;
    }
    if (sp != PTX_SPACE_shared || o->reg < 0 || !affine(s, o->reg))
        return 0;
    char b[96];
    base_name(s, o->reg, s->cur[o->reg], b, sizeof b);
    cg_printf(c, "(cbB_smem + (size_t)(uint32_t)(%s + %lldull) + (ptrdiff_t)(%lldll * (int64_t)cbX))", b,
              (long long)o->offset, (long long)s->e->k->stride[o->reg]);
    return 1;
}

/* Whether register r holds its closed form (from base_name's base) at run
 * instruction cur's definition: read first, or an unguarded affine definition. */
static int closed_at(const run_state *s, int32_t r, int32_t cur)
{
    int32_t d;
    if (cur < 0)
        return s->seen[r] == 1;
    const ptx_instr *in = s->r->ins[cur];
    return in->guard < 0 && affine_def(s, in, &d) && d == r;
}

/* The access check of run instruction i (an ld or st through a register
 * that cg_address would check), made once for the row when its address is
 * affine along the row -- base + stride * x, stride a multiple of the
 * access size -- or uniform: the first and the last lane's addresses pass
 * cb_chk's test, so every lane's does (cb_lanes_chk_row). A row where they
 * do not leaves the fast form: the safe form checks lane by lane and fails,
 * or lets the runtime decide, exactly where the general code does. */
static void emit_row_check(run_state *s, uint32_t i)
{
    lanes *e = s->e;
    const ptx_instr *in = s->r->ins[i];
    const ptx_operand *a = mem_operand(in);
    ptx_space sp = ptx_instr_space(in);
    if ((in->op != PTX_OP_ld && in->op != PTX_OP_ldu && in->op != PTX_OP_st) || !a || a->reg < 0 ||
        !cg_access_checked(e->c, sp) || ptx_type_size(e->f->regs[a->reg].type) != 8)
        return;
    uint32_t size = ptx_type_size(in->types[0]) * (uint32_t)vector_width(in);
    size = size && !(size & (size - 1)) ? size : 1;
    char b[96];
    int64_t st = 0;
    if (lanes_is_varying(e, a->reg)) {
        st = e->k->stride[a->reg];
        if (!affine(s, a->reg) || st <= -(1ll << 31) || st >= (1ll << 31) || st % (int64_t)size ||
            !closed_at(s, a->reg, s->cur[a->reg]))
            return;
        base_name(s, a->reg, s->cur[a->reg], b, sizeof b);
    } else {
        /* defined in the run (by no instruction, if pass_lanes calls it uniform): not
         * one value for the whole row */
        int32_t defs[REGS_MAX], uses[REGS_MAX];
        uint32_t nd, nu;
        for (uint32_t k = 0; k < s->r->n; k++) {
            pass_instr_regs(s->r->ins[k], defs, &nd, uses, &nu, REGS_MAX);
            for (uint32_t d = 0; d < nd; d++)
                if (defs[d] == a->reg)
                    return;
        }
        snprintf(b, sizeof b, "%s", rname(s, a->reg));
    }
    cg_printf(e->c, "        if (!cb_lanes_chk_row((uint64_t)%s + %lldull, %lldll, cbB_ntid_x, %uu)) break;\n", b,
              (long long)a->offset, (long long)st, size);
    s->row_checked[i] = 1;
}

/* The ids of a lane of the fast form's row (tid.y cbY, tid.z cbZ, block cbBk of the run):
 * tid.x tx, its index in the run l. */
static void emit_row_ids(cg *c, const char *tx, const char *l)
{
    cg_printf(c, "        const uint32_t cbB_tx = %s, cbB_ty = cbY, cbB_tz = cbZ, cbB_flat = (uint32_t)%s - cbBk * cbNT, "
                 "cbB_bk = cbBk;\n"
                 "        (void)cbB_tx; (void)cbB_ty; (void)cbB_tz; (void)cbB_flat; (void)cbB_bk;\n",
              tx, l);
}

/* The row prologue: bases of what the run reads, lane 0 of the run's affine
 * definitions, and the checks; a failing check leaves the row loop. */
static void emit_prologue(run_state *s)
{
    lanes *e = s->e;
    cg *c = e->c;
    const ptx_func *f = e->f;
    char b[96], b2[96];
    for (uint32_t r = 0; r < f->nregs; r++) {
        if (s->seen[r] != 1 || !affine(s, (int32_t)r))
            continue;
        cg_printf(c, "        const %s B_%s = V_%s[cbRb];\n", cg_ctype(f->regs[r].type), rname(s, (int32_t)r),
                  rname(s, (int32_t)r));
        if (e->k->affine[r] == PTX_AFF_VERIFY) {
            /* the arrays must hold the closed form along the row (known on a trip after a whole one) */
            cg_printf(c, "        %s{ int cbOk = 1;\n"
                         "          for (size_t cbX = 1; cbX < cbB_ntid_x; cbX++) cbOk &= V_%s[cbRb + cbX] == ",
                      s->trips ? "if (!cbWt) " : "", rname(s, (int32_t)r));
            snprintf(b, sizeof b, "B_%s", rname(s, (int32_t)r));
            emit_closed(s, (int32_t)r, b);
            cg_puts(c, ";\n          if (!cbOk) break; }\n");
        }
    }
    for (uint32_t i = 0; i < f->nregs; i++)
        s->cur[i] = -1;
    for (uint32_t i = 0; i < s->r->n; i++) {
        const ptx_instr *in = s->r->ins[i];
        int32_t d;
        c->in = in;
        if (affine_def(s, in, &d)) {
            int32_t defs[REGS_MAX], uses[REGS_MAX];
            uint32_t nd, nu;
            pass_instr_regs(in, defs, &nd, uses, &nu, REGS_MAX);
            base_name(s, d, (int32_t)i, b, sizeof b);
            cg_printf(c, "        %s %s;\n        {", cg_ctype(f->regs[d].type), b);
            emit_row_ids(c, "0", "cbRb");
            for (uint32_t u = 0; u < nu; u++) {
                int dup = 0;
                for (uint32_t v = 0; v < u; v++)
                    dup |= uses[v] == uses[u];
                if (dup || !lanes_is_varying(e, uses[u]))
                    continue;
                base_name(s, uses[u], s->cur[uses[u]], b2, sizeof b2);
                cg_printf(c, "          %s %s = %s;\n", cg_ctype(f->regs[uses[u]].type), rname(s, uses[u]), b2);
            }
            int d_read = 0;
            for (uint32_t u = 0; u < nu; u++)
                d_read |= uses[u] == d;
            if (!d_read)
                cg_printf(c, "          %s %s = 0;\n", cg_ctype(f->regs[d].type), rname(s, d));
            emit_guarded(e, in);
            cg_printf(c, "          %s = %s; }\n", b, rname(s, d));
            /* a widening keeps the stride only where the source does not wrap */
            ptx_type src;
            if (pass_lanes_widens(in, &src))
                for (uint32_t o = 1; o < in->nops; o++) {
                    const ptx_operand *op = &in->ops[o];
                    if (op->kind != PTX_OPD_reg || !affine(s, op->reg) || e->k->stride[op->reg] == 0 ||
                        ptx_type_size(src) != 4 || (in->op == PTX_OP_mad && o == 3))
                        continue;
                    base_name(s, op->reg, s->cur[op->reg], b2, sizeof b2);
                    cg_printf(c, "        if (!cb_lanes_fits_%s((uint64_t)%s, %lldll, cbB_ntid_x)) break;\n",
                              ptx_type_kind(src) == 's' ? "s32" : "u32", b2, (long long)e->k->stride[op->reg]);
                }
            s->cur[d] = (int32_t)i;
            continue;
        }
        /* a shared offset through an affine register must not wrap */
        const ptx_operand *a = mem_operand(in);
        if (a && ptx_instr_space(in) == PTX_SPACE_shared && a->reg >= 0 && affine(s, a->reg) &&
            e->k->stride[a->reg] != 0) {
            base_name(s, a->reg, s->cur[a->reg], b2, sizeof b2);
            cg_printf(c, "        if (!cb_lanes_fits_u32((uint64_t)(%s + %lldull), %lldll, cbB_ntid_x)) break;\n", b2,
                      (long long)a->offset, (long long)e->k->stride[a->reg]);
        }
        emit_row_check(s, i);
        int32_t defs[REGS_MAX], uses[REGS_MAX];
        uint32_t nd, nu;
        pass_instr_regs(in, defs, &nd, uses, &nu, REGS_MAX);
        for (uint32_t k = 0; k < nd; k++)
            s->cur[defs[k]] = (int32_t)i;
    }
}

static void emit_fast_body(run_state *s, int specials)
{
    lanes *e = s->e;
    cg *c = e->c;
    const ptx_func *f = e->f;
    char b[96];
    cg_puts(c, "        for (size_t cbX = 0; cbX < cbB_ntid_x; cbX++) {\n"
               "        const size_t cbL = cbRb + cbX;\n");
    if (specials)
        emit_row_ids(c, "cbX", "cbL");
    for (uint32_t r = 0; r < f->nregs; r++) {
        if (!s->seen[r] || !lanes_is_varying(e, (int32_t)r))
            continue;
        cg_printf(c, "        %s %s = ", cg_ctype(f->regs[r].type), rname(s, (int32_t)r));
        if (s->seen[r] == 1 && affine(s, (int32_t)r)) {
            snprintf(b, sizeof b, "B_%s", rname(s, (int32_t)r));
            emit_closed(s, (int32_t)r, b);
        } else if (s->seen[r] == 1) {
            cg_printf(c, "V_%s[cbL]", rname(s, (int32_t)r));
        } else {
            cg_puts(c, "0");
        }
        cg_puts(c, ";\n");
    }
    for (uint32_t i = 0; i < f->nregs; i++)
        s->cur[i] = -1;
    c->address_hook = affine_address;
    c->hook_ctx = s;
    for (uint32_t i = 0; i < s->r->n; i++) {
        const ptx_instr *in = s->r->ins[i];
        int32_t d;
        if (affine_def(s, in, &d)) {
            base_name(s, d, (int32_t)i, b, sizeof b);
            cg_puts(c, "    ");
            if (in->guard >= 0)
                cg_printf(c, "if (%s%s) ", in->guard_neg ? "!" : "", f->regs[in->guard].cname);
            cg_printf(c, "%s = ", rname(s, d));
            emit_closed(s, d, b);
            cg_puts(c, ";\n");
            s->cur[d] = (int32_t)i;
            continue;
        }
        s->at = i;
        emit_guarded(e, in);
        int32_t defs[REGS_MAX], uses[REGS_MAX];
        uint32_t nd, nu;
        pass_instr_regs(in, defs, &nd, uses, &nu, REGS_MAX);
        for (uint32_t k = 0; k < nd; k++)
            s->cur[defs[k]] = (int32_t)i;
    }
    c->address_hook = NULL;
    c->hook_ctx = NULL;
    emit_stores(s);
    if (s->trips)
        cg_printf(c, "        cbQ += %s(%s != 0);\n", s->r->loop_neg ? "!" : "", rname(s, s->r->loop_pred));
    cg_puts(c, "        }\n");
}

static void emit_fast(run_state *s, int specials)
{
    cg *c = s->e->c;
    int multi = s->e->k->lanes_multi;
    cg_printf(c, "    if (cbLive == cbNL%s) {\n", s->r->divergent ? " && cbAct == cbNL" : "");
    /* the rows of a run of blocks: block cbBk's rows follow block cbBk - 1's */
    cg_printf(c, "        uint32_t cbY = 0, cbZ = 0; %suint32_t cbBk = 0;\n"
                 "        for (size_t cbRb = 0; cbRb < cbNL; cbRb += cbB_ntid_x) {\n",
              multi ? "" : "const ");
    emit_prologue(s);
    lanes_identity(s->e, "0", "cbY", "cbZ", "((uint32_t)cbRb - cbBk * cbNT)", "cbBk");
    emit_fast_body(s, specials);
    cg_printf(c, "        cbLo = (uint32_t)(cbRb + cbB_ntid_x);\n"
                 "        if (++cbY == cbB_ntid_y) { cbY = 0; %s }\n"
                 "        }\n"
                 "    }\n",
              multi ? "if (++cbZ == cbB_ntid_z) { cbZ = 0; cbBk++; }" : "cbZ++;");
}

int lanes_emit_run(lanes *e, const lanes_run *r)
{
    cg *c = e->c;
    if (r->n == 0)
        return 0;
    run_state s = {e, r, cg_tmp(c, e->f->nregs + 1, sizeof(int32_t)), cg_tmp(c, e->f->nregs + 1, 1),
                   cg_tmp(c, r->n, 1), 0, 0};
    for (uint32_t i = 0; i < r->n; i++)
        lanes_comment(e, r->ins[i]);
    int specials;
    scan(&s, &specials);
    cg_puts(c, "    { uint32_t cbLo = 0;\n");
    int fast = !r->tail && wants_fast(&s);
    s.trips = fast && counts_trips(&s);
    if (s.trips)   /* cbWarm: this trip follows a whole one (the header's "Trips of a loop") */
        cg_puts(c, "    const int cbWt = cbWarm; cbWarm = 0; cbQ = 0;\n");
    if (fast)
        emit_fast(&s, specials);
    emit_safe(&s, specials);
    cg_puts(c, "    }\n");
    cg_tmp_free(c, s.cur);
    cg_tmp_free(c, s.seen);
    cg_tmp_free(c, s.row_checked);
    return s.trips;
}
