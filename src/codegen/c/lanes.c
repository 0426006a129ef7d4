/* lanes.c: the lanes entry of a kernel (CB_DIALECT_C): a whole block run
 * with its threads as SIMD lanes, without fibers.
 *
 *   void cbk_<k>_lanes(cb_thread *t, unsigned char *scratch)
 *
 * runs every thread of block t->blk (kernel_abi.h, ABI 11) for a kernel that
 * pass_lanes accepted (ptx_kernel.lanes). The model is SPMD on SIMD, as ISPC
 * and whole-function vectorisers run it, at the granularity of a block:
 *
 * - **Registers.** A uniform register (pass_lanes) is a C scalar, computed
 *   once for the block by the dialect's own emitter. A varying register is an
 *   array over the block's lanes in the scratch memory the runtime passes
 *   (V_<name>[lane]); the .local depots and call-scope .param buffers are a
 *   slice per lane (L_<name>).
 * - **Instructions.** A varying instruction is a loop over the lanes that
 *   execute it; inside, the lane's registers are locals with the registers'
 *   own names, so the loop body is the dialect's emitter's ordinary scalar C
 *   (c/arith.c, c/memory.c ...). The C compiler vectorises the loops where it
 *   can. The lanes thus run instruction after instruction in lockstep, as a
 *   warp does.
 * - **Masks.** cbPC[lane] is the lane's program counter: the reverse
 *   post-order number of the block it waits at, or CB_EXIT once it has left.
 *   A block that pass_lanes found not divergent runs with every lane alive
 *   (cbPC != CB_EXIT) and needs no other mask: its branches are uniform, or
 *   only let lanes leave through a tail (which runs under the mask of the
 *   lanes leaving). A divergent block runs the lanes whose cbPC is its number;
 *   its branches set each lane's cbPC, and cbDispatch goes on with the
 *   smallest (Diamos et al.'s thread frontiers: in reverse post-order the
 *   lanes meet again at the first block that all of them reach). A back edge
 *   taken by every active lane goes straight back.
 * - **Barriers** (bar.sync 0) need no code: every live lane is there, and the
 *   instructions before it have run for all of them. Exited lanes count as
 *   arrived. `bar.red`, `.sync` shuffles and votes are loops over the lanes
 *   (c/lanes_warp.c), warp by warp, with the semantics of runtime_sync.c.
 *
 * Faults and the runtime's messages name a thread: before an instruction
 * that may fault or calls the runtime, each lane stores its identity into *t
 * (a volatile store, as the block entry of c/block.c does).
 */
#include "codegen/c/lanes.h"
#include "codegen/translate.h"
#include "passes/passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGS_MAX 160

/* ---- what an instruction needs ------------------------------------------------------- */

int lanes_is_varying(const lanes *e, int32_t r) { return r >= 0 && e->k->varying[r]; }

/* The function's variables an instruction names (.local depots, call-scope
 * .param buffers): each is a slice per lane. */
void lanes_note_vars(const ptx_operand *o, unsigned char *seen)
{
    if ((o->kind == PTX_OPD_sym || o->kind == PTX_OPD_mem) && o->sym.kind == PTX_SYM_func_var)
        seen[o->sym.index] = 1;
    if (o->kind == PTX_OPD_vec || o->kind == PTX_OPD_list || o->kind == PTX_OPD_mem)
        for (uint32_t i = 0; i < o->nelems; i++)
            lanes_note_vars(&o->elems[i], seen);
}

/* A per-lane body variable: not a kernel parameter, not shared memory. */
static int lane_var(const ptx_var *v)
{
    return v->role == PTX_ROLE_body && (v->space == PTX_SPACE_local || v->space == PTX_SPACE_param);
}

static uint64_t var_slice(const ptx_var *v) { return ((v->size ? v->size : 1) + 15) / 16 * 16; }

/* Instructions that run the same in every lane and may touch memory or the
 * runtime once for all: everything but per-lane side effects. */
static int per_lane_effect(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_atom: case PTX_OP_red: case PTX_OP_call: case PTX_OP_tex: case PTX_OP_tld4: case PTX_OP_suld:
    case PTX_OP_sust: case PTX_OP_txq: case PTX_OP_trap: case PTX_OP_wmma:
        return 1;
    case PTX_OP_ld: case PTX_OP_ldu: case PTX_OP_st:
        return ptx_instr_space(in) == PTX_SPACE_local;
    default:
        return 0;
    }
}

/* May fault or call the runtime: the lane's identity goes into *t first. */
int lanes_needs_identity(const ptx_instr *in)
{
    if (ptx_ops[in->op].flags & (PTX_OPF_MEM | PTX_OPF_CALL | PTX_OPF_TEXTURE))
        return 1;
    if (in->op == PTX_OP_trap || (in->op == PTX_OP_wmma && !ptx_has(in, PTX_MOD_mma)))   /* wmma.load/store */
        return 1;
    for (uint32_t i = 0; i < in->nops; i++)
        if (in->ops[i].kind == PTX_OPD_special &&
            (in->ops[i].special == PTX_SREG_clock || in->ops[i].special == PTX_SREG_clock_hi ||
             in->ops[i].special == PTX_SREG_clock64 || in->ops[i].special == PTX_SREG_globaltimer ||
             in->ops[i].special == PTX_SREG_globaltimer_lo || in->ops[i].special == PTX_SREG_globaltimer_hi))
            return 1;
    return 0;
}

/* Safe to compute for lanes that do not take part (they exited, or wait
 * elsewhere and the result is blended): no memory, no runtime. */
static int pure(const ptx_instr *in)
{
    return !(ptx_ops[in->op].flags & (PTX_OPF_MEM | PTX_OPF_CALL | PTX_OPF_TEXTURE | PTX_OPF_COLLECTIVE)) &&
           !lanes_needs_identity(in) && in->op != PTX_OP_trap && (ptx_ops[in->op].flags & PTX_OPF_DST);
}

/* ---- pieces of C ------------------------------------------------------------------------ */

void lanes_comment(lanes *e, const ptx_instr *in)
{
    cg *c = e->c;
    cg_printf(c, "    /* %u: ", in->line);
    for (uint32_t i = 0; i < in->textlen; i++) {
        char ch = in->text[i];
        if ((unsigned char)ch < 32 || (unsigned char)ch > 126 || ch == '\\' || ch == '?' ||
            (ch == '/' && i > 0 && in->text[i - 1] == '*') || (ch == '*' && i + 1 < in->textlen && in->text[i + 1] == '/'))
            ch = ' ';
        if (ch == ' ' && c->len && c->buf[c->len - 1] == ' ')
            continue;
        cg_printf(c, "%c", ch);
    }
    cg_puts(c, " */\n");
}

void lanes_ids(lanes *e)
{
    cg_puts(e->c, "        const uint32_t cbB_tx = cbTX[cbL], cbB_ty = cbTY[cbL], cbB_tz = cbTZ[cbL], cbB_flat = CB_FLAT(cbL), "
                  "cbB_bk = CB_BK(cbL);\n"
                  "        (void)cbB_tx; (void)cbB_ty; (void)cbB_tz; (void)cbB_flat; (void)cbB_bk;\n");
}

void lanes_identity(lanes *e, const char *tx, const char *ty, const char *tz, const char *flat, const char *bk)
{
    cg_printf(e->c, "        cbB_vt->tid.x = %s; cbB_vt->tid.y = %s; cbB_vt->tid.z = %s;\n"
                    "        cbB_vt->flat = %s; cbB_vt->lane = %s & 31u; cbB_vt->warp = %s >> 5; CB_SETBLK(%s);\n",
              tx, ty, tz, flat, flat, flat, bk);
}

void lanes_bind_vars(lanes *e, const unsigned char *vars)
{
    for (uint32_t v = 0; v < e->f->nvars; v++)
        if (vars[v] && lane_var(&e->f->vars[v]))
            cg_printf(e->c, "        unsigned char *%s = L_%s + (size_t)cbL * %lluu;\n", e->f->vars[v].cname,
                      e->f->vars[v].cname, (unsigned long long)var_slice(&e->f->vars[v]));
}

/* The lane loop's head: for every lane in mask (a C condition over cbL, or
 * NULL for all), the varying registers in regs[] loaded into locals of their
 * own names, the lane's ids and the instruction's per-lane variables. */
void lanes_loop_open(lanes *e, const char *mask, const int32_t *regs, uint32_t nregs, const unsigned char *vars,
                     int identity)
{
    cg *c = e->c;
    cg_puts(c, "    for (size_t cbL = 0; cbL < cbNL; cbL++) {\n");
    if (mask)
        cg_printf(c, "        if (!(%s)) continue;\n", mask);
    lanes_ids(e);
    for (uint32_t i = 0; i < nregs; i++) {
        int dup = 0;
        for (uint32_t j = 0; j < i; j++)
            dup |= regs[j] == regs[i];
        if (dup || !lanes_is_varying(e, regs[i]))
            continue;
        const ptx_reg *r = &e->f->regs[regs[i]];
        cg_printf(c, "        %s %s = V_%s[cbL];\n", cg_ctype(r->type), r->cname, r->cname);
    }
    if (vars)
        lanes_bind_vars(e, vars);
    if (identity)
        lanes_identity(e, "cbB_tx", "cbB_ty", "cbB_tz", "cbB_flat", "cbB_bk");
}

/* Stores the varying registers of defs[] back and closes the loop. */
void lanes_loop_close(lanes *e, const int32_t *defs, uint32_t ndefs)
{
    cg *c = e->c;
    for (uint32_t i = 0; i < ndefs; i++) {
        int dup = 0;
        for (uint32_t j = 0; j < i; j++)
            dup |= defs[j] == defs[i];
        if (dup || !lanes_is_varying(e, defs[i]))
            continue;
        const char *n = e->f->regs[defs[i]].cname;
        cg_printf(c, "        V_%s[cbL] = %s;\n", n, n);
    }
    cg_puts(c, "    }\n");
}

/* The dialect's scalar code for in, under its guard. */
static void emit_scalar(lanes *e, const ptx_instr *in)
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

/* Whether in runs per lane (else once, for the block: the same in every lane). */
static int per_lane(lanes *e, const ptx_instr *in, int divergent)
{
    if (divergent || per_lane_effect(in))
        return 1;
    int32_t defs[REGS_MAX], uses[REGS_MAX];
    uint32_t nd, nu;
    pass_instr_regs(in, defs, &nd, uses, &nu, REGS_MAX);
    for (uint32_t i = 0; i < nd; i++)
        if (lanes_is_varying(e, defs[i]))
            return 1;
    for (uint32_t i = 0; i < nu; i++)
        if (lanes_is_varying(e, uses[i]))
            return 1;
    unsigned char *vars = cg_tmp(e->c, e->f->nvars, 1);
    for (uint32_t i = 0; i < in->nops; i++)
        lanes_note_vars(&in->ops[i], vars);
    int lv = 0;
    for (uint32_t v = 0; v < e->f->nvars && !lv; v++)
        lv = vars[v] && lane_var(&e->f->vars[v]);
    cg_tmp_free(e->c, vars);
    return lv;
}

/* Registers live after each instruction of [first, end) of block b: la[(i - first) * words]. */
static uint64_t *live_after_each(lanes *e, uint32_t b, uint32_t first, uint32_t end)
{
    uint32_t w = e->k->live_words, n = end - first;
    uint64_t *la = cg_tmp(e->c, (size_t)n * w, 8), *live = cg_tmp(e->c, w, 8);
    memcpy(live, e->k->live_out + (size_t)b * w, (size_t)w * 8);
    /* what the block's end reads (its branch condition) */
    const ptx_bb *bb = &e->g->bbs[b];
    int32_t defs[REGS_MAX], uses[REGS_MAX];
    uint32_t nd, nu;
    for (uint32_t i = bb->end; i-- > end;) {
        pass_instr_regs(&e->f->instrs[i], defs, &nd, uses, &nu, REGS_MAX);
        for (uint32_t u = 0; u < nu; u++)
            live[uses[u] / 64] |= 1ull << (uses[u] % 64);
    }
    for (uint32_t i = end; i-- > first;) {
        memcpy(la + (size_t)(i - first) * w, live, (size_t)w * 8);
        pass_instr_regs(&e->f->instrs[i], defs, &nd, uses, &nu, REGS_MAX);
        if (e->f->instrs[i].guard < 0)
            for (uint32_t d = 0; d < nd; d++)
                live[defs[d] / 64] &= ~(1ull << (defs[d] % 64));
        for (uint32_t u = 0; u < nu; u++)
            live[uses[u] / 64] |= 1ull << (uses[u] % 64);
    }
    cg_tmp_free(e->c, live);
    return la;
}

/* A load without ordering (no .volatile, .relaxed, .acquire): moved, it
 * reads the same value as long as nothing between writes memory. */
static int plain_load(const ptx_instr *in)
{
    if (in->op != PTX_OP_ld && in->op != PTX_OP_ldu)
        return 0;
    ptx_space sp = ptx_instr_space(in);
    return sp != PTX_SPACE_local && sp != PTX_SPACE_shared_cluster && !ptx_has(in, PTX_MOD_volatile) &&
           !ptx_has(in, PTX_MOD_relaxed) && !ptx_has(in, PTX_MOD_acquire) && !ptx_has(in, PTX_MOD_sc) &&
           !ptx_has(in, PTX_MOD_acq_rel);
}

/* Whether uniform instruction in may move above the run so far: it writes
 * nothing the run has read, and it touches no memory -- or it is a plain
 * load and the run so far neither touches memory nor calls the runtime (so
 * nothing it does can fault, store or change *t: the load reads the same
 * value, and a fault of it names the same thread). A uniform load from
 * shared memory in an unrolled loop (n-body's tile[j]) then no longer cuts
 * the loop's arithmetic into one lane loop per step. */
static int hoistable(const ptx_instr *in, const ptx_instr **run, uint32_t n)
{
    if (in->op == PTX_OP_trap)
        return 0;
    if (plain_load(in)) {
        for (uint32_t i = 0; i < n; i++)
            if ((ptx_ops[run[i]->op].flags & (PTX_OPF_MEM | PTX_OPF_CALL | PTX_OPF_TEXTURE)) ||
                lanes_needs_identity(run[i]) || run[i]->op == PTX_OP_trap)
                return 0;
    } else if ((ptx_ops[in->op].flags & (PTX_OPF_MEM | PTX_OPF_CALL | PTX_OPF_TEXTURE)) || lanes_needs_identity(in)) {
        return 0;
    }
    int32_t defs[REGS_MAX], uses[REGS_MAX], rd[REGS_MAX], ru[REGS_MAX];
    uint32_t nd, nu, rnd, rnu;
    pass_instr_regs(in, defs, &nd, uses, &nu, REGS_MAX);
    for (uint32_t i = 0; i < n; i++) {
        pass_instr_regs(run[i], rd, &rnd, ru, &rnu, REGS_MAX);
        for (uint32_t d = 0; d < nd; d++)
            for (uint32_t u = 0; u < rnu; u++)
                if (ru[u] == defs[d])
                    return 0;
    }
    return 1;
}

/* The instructions [first, end) of block b under mask (divergent: the lanes
 * of a divergent block or a tail): runs of per-lane instructions, uniform
 * ones once (moved above a run where they may), collectives. */
static void emit_instructions(lanes *e, uint32_t b, uint32_t first, uint32_t end, const char *mask, int divergent,
                              int tail)
{
    uint32_t n = end - first;
    const ptx_instr **run = cg_tmp(e->c, n, sizeof *run), **hoist = cg_tmp(e->c, n, sizeof *hoist);
    uint64_t *la = live_after_each(e, b, first, end);
    uint32_t nrun = 0, nhoist = 0, last = first;
    int pure_run = 1;
    for (uint32_t i = first; i <= end; i++) {
        const ptx_instr *in = i < end ? &e->f->instrs[i] : NULL;
        int collective = in && (ptx_instr_flags(in) & PTX_OPF_COLLECTIVE);
        int lane = in && !collective && per_lane(e, in, divergent);
        if (in && !collective && !lane && nrun && hoistable(in, run, nrun)) {
            hoist[nhoist++] = in;
            continue;
        }
        if (lane) {
            run[nrun++] = in;
            pure_run &= pure(in);
            last = i;
            continue;
        }
        /* flush: the uniform ones moved above, then the run */
        for (uint32_t h = 0; h < nhoist; h++) {
            lanes_comment(e, hoist[h]);
            emit_scalar(e, hoist[h]);
        }
        if (nrun) {
            /* a run of pure instructions of a block every live lane runs may run for the dead lanes too */
            lanes_run r = {run, nrun, !divergent && pure_run ? NULL : mask, divergent, tail,
                           la + (size_t)(last - first) * e->k->live_words, tail ? -1 : e->loop_pred, e->loop_neg};
            e->trips += lanes_emit_run(e, &r);
            e->runs++;
        }
        nrun = nhoist = 0;
        pure_run = 1;
        if (!in)
            break;
        if (collective) {
            lanes_emit_collective(e, in);
        } else {
            lanes_comment(e, in);
            emit_scalar(e, in);
        }
    }
    cg_tmp_free(e->c, run);
    cg_tmp_free(e->c, hoist);
    cg_tmp_free(e->c, la);
}

/* ---- blocks and their ends ------------------------------------------------------------------ */

static const ptx_bb *bb_at(const lanes *e, uint32_t b) { return &e->g->bbs[b]; }

/* The terminating instruction of block b, or NULL when it falls through. */
static const ptx_instr *terminator(const lanes *e, const ptx_bb *bb)
{
    if (bb->term == PTX_TERM_FALL)
        return NULL;
    return &e->f->instrs[bb->end - 1];
}

/* The lane condition of a conditional terminator into buf: true when the
 * branch is taken (ret taken: the lane leaves). */
static const char *branch_cond(const lanes *e, const ptx_instr *in, char *buf, size_t n)
{
    const char *name = e->f->regs[in->guard].cname;
    if (lanes_is_varying(e, in->guard))
        snprintf(buf, n, "%s(V_%s[cbL] != 0)", in->guard_neg ? "!" : "", name);
    else
        snprintf(buf, n, "%s(%s != 0)", in->guard_neg ? "!" : "", name);
    return buf;
}

static int is_tail(const lanes *e, uint32_t s) { return s == PTX_BB_EXIT || bb_at(e, s)->tail; }

/* Control goes on at s from a block that every live lane ran. */
static void goto_from_converged(lanes *e, uint32_t s)
{
    cg *c = e->c;
    if (s == PTX_BB_EXIT) {
        cg_puts(c, "    goto cbDone;\n");
        return;
    }
    const ptx_bb *t = bb_at(e, s);
    if (t->tail && t->term == PTX_TERM_EXIT && t->end == t->first + 1) {
        cg_puts(c, "    goto cbDone; /* every live lane returns */\n");
        return;
    }
    if (t->divergent)
        cg_printf(c, "    for (size_t cbL = 0; cbL < cbNL; cbL++) cbPC[cbL] = CB_PCSEL(cbPC[cbL] != CB_EXIT, %uu, CB_EXIT);\n"
                     "    cbAct = cbLive;\n",
                  t->rpo);
    cg_printf(c, "    goto cbB_%u;\n", s);
}

/* The instructions of tail block s (not its ret) for the lanes whose cbPC is kill. */
static void emit_tail(lanes *e, uint32_t s, const char *kill)
{
    if (s == PTX_BB_EXIT)
        return;
    const ptx_bb *bb = bb_at(e, s);
    char mask[64];
    snprintf(mask, sizeof mask, "cbPC[cbL] == %s", kill);
    uint32_t end = bb->term == PTX_TERM_EXIT ? bb->end - 1 : bb->end;
    emit_instructions(e, s, bb->first, end, mask, 1, 1);
}

/* Lanes of the current block (cur: its mask) for which cond holds leave
 * through tail s (kill marks them meanwhile). */
static void emit_leave(lanes *e, const char *cur, const char *cond, uint32_t s, const char *kill)
{
    cg *c = e->c;
    cg_printf(c, "    for (size_t cbL = 0; cbL < cbNL; cbL++) { uint32_t cbP = cbPC[cbL]; cbPC[cbL] = CB_PCSEL((%s) & ((%s) != 0), %s, cbP); }\n", cur, cond, kill);
    emit_tail(e, s, kill);
    cg_printf(c, "    { uint32_t cbK = 0;\n      for (size_t cbL = 0; cbL < cbNL; cbL++) { uint32_t cbP = cbPC[cbL]; cbK += cbP == %s; cbPC[cbL] = CB_PCSEL(cbP == %s, CB_EXIT, cbP); }\n"
                 "      cbLive -= cbK; cbAct -= cbK; }\n",
              kill, kill);
}

/* A loop's block whose one run counted the lanes taking its back edge: when
 * every lane did, after a trip made wholly in the fast form, the next trip at
 * once (lanes_run.c, "Trips of a loop"). */
static void next_trip(lanes *e, const ptx_bb *bb)
{
    if (e->trips == 1 && e->runs == 1)
        cg_printf(e->c, "    if (cbQ == cbNL) { cbWarm = 1; goto cbB_%u; }\n", bb->succ[0]);
}

/* The end of a block that every live lane runs. */
static void end_converged(lanes *e, const ptx_bb *bb)
{
    cg *c = e->c;
    const ptx_instr *in = terminator(e, bb);
    char cond[160], ncond[170];
    const char *live = "cbPC[cbL] != CB_EXIT";
    switch (bb->term) {
    case PTX_TERM_FALL:
    case PTX_TERM_BRA:
        goto_from_converged(e, bb->succ[0]);
        return;
    case PTX_TERM_EXIT:
        if (in->guard < 0) {
            cg_puts(c, "    goto cbDone;\n");
            return;
        }
        break;
    default:
        break;
    }
    branch_cond(e, in, cond, sizeof cond);
    snprintf(ncond, sizeof ncond, "!%s", cond);
    if (!lanes_is_varying(e, in->guard)) {
        cg_printf(c, "    if (%s) {\n", cond);
        goto_from_converged(e, bb->term == PTX_TERM_CEXIT ? PTX_BB_EXIT : bb->succ[0]);
        cg_puts(c, "    }\n");
        goto_from_converged(e, bb->succ[1]);
        return;
    }
    uint32_t taken = bb->term == PTX_TERM_CEXIT ? PTX_BB_EXIT : bb->succ[0], other = bb->succ[1];
    next_trip(e, bb);
    if (is_tail(e, taken) || is_tail(e, other)) {
        if (is_tail(e, taken))
            emit_leave(e, live, cond, taken, "CB_KILL0");
        if (is_tail(e, other))
            emit_leave(e, live, is_tail(e, taken) ? "1" : ncond, other, "CB_KILL1");
        cg_puts(c, "    if (cbLive == 0) goto cbDone;\n");
        if (!is_tail(e, other))
            goto_from_converged(e, other);
        else if (!is_tail(e, taken))
            goto_from_converged(e, taken);
        else
            cg_puts(c, "    goto cbDone;\n");
        return;
    }
    /* the lanes part: each waits at its side's block; when every live lane
     * went one way (a guard that divides only the grid's edge blocks), that
     * side runs at once, as the dispatcher would have chosen it */
    cg_printf(c, "    { uint32_t cbN = 0;\n"
                 "      for (size_t cbL = 0; cbL < cbNL; cbL++) { uint32_t cbA = cbPC[cbL] != CB_EXIT, cbT = cbA & ((%s) != 0); cbPC[cbL] = CB_PCSEL(cbA, CB_PCSEL(cbT, %uu, %uu), CB_EXIT); cbN += cbT; }\n"
                 "      cbAct = cbLive;\n"
                 "      if (cbN == cbLive) goto cbB_%u;\n"
                 "      if (cbN == 0) goto cbB_%u;\n"
                 "    }\n"
                 "    goto cbDispatch;\n",
              cond, bb_at(e, taken)->rpo, bb_at(e, other)->rpo, taken, other);
}

/* Lanes of divergent block bb all go to s (they are cbPC == me). */
static void goto_from_divergent(lanes *e, const ptx_bb *bb, uint32_t s)
{
    cg *c = e->c;
    if (s == PTX_BB_EXIT) {
        cg_printf(c, "    for (size_t cbL = 0; cbL < cbNL; cbL++) { uint32_t cbP = cbPC[cbL]; cbPC[cbL] = CB_PCSEL(cbP == %uu, CB_EXIT, cbP); }\n"
                     "    if (cbAct == cbLive) goto cbDone;\n"
                     "    goto cbDispatch;\n",
                  bb->rpo);
        return;
    }
    uint32_t to = bb_at(e, s)->rpo;
    if (to != bb->rpo)
        cg_printf(c, "    for (size_t cbL = 0; cbL < cbNL; cbL++) { uint32_t cbP = cbPC[cbL]; cbPC[cbL] = CB_PCSEL(cbP == %uu, %uu, cbP); }\n", bb->rpo, to);
    /* a back edge keeps the smallest number where it is: no other lane waits
     * below the target; and when every live lane is here, they all go on there */
    if (to <= bb->rpo && bb_at(e, s)->divergent)
        cg_printf(c, "    goto cbB_%u;\n", s);
    else
        cg_printf(c, "    if (cbAct == cbLive && cbAct != 0) goto cbB_%u;\n    goto cbDispatch;\n", s);
}

/* The end of a divergent block: its lanes are those with cbPC == its number. */
static void end_divergent(lanes *e, const ptx_bb *bb)
{
    cg *c = e->c;
    const ptx_instr *in = terminator(e, bb);
    char me[48], cond[160], ncond[170];
    snprintf(me, sizeof me, "cbPC[cbL] == %uu", bb->rpo);
    switch (bb->term) {
    case PTX_TERM_FALL:
    case PTX_TERM_BRA:
        goto_from_divergent(e, bb, bb->succ[0]);
        return;
    case PTX_TERM_EXIT:
        if (in->guard < 0) {
            goto_from_divergent(e, bb, PTX_BB_EXIT);
            return;
        }
        break;
    default:
        break;
    }
    branch_cond(e, in, cond, sizeof cond);
    snprintf(ncond, sizeof ncond, "!%s", cond);
    uint32_t taken = bb->term == PTX_TERM_CEXIT ? PTX_BB_EXIT : bb->succ[0], other = bb->succ[1];
    next_trip(e, bb);
    if (is_tail(e, taken) || is_tail(e, other)) {
        if (is_tail(e, taken))
            emit_leave(e, me, cond, taken, "CB_KILL0");
        if (is_tail(e, other))
            emit_leave(e, me, is_tail(e, taken) ? "1" : ncond, other, "CB_KILL1");
        /* when every lane here left, none goes on: a back edge to this block would spin with none */
        cg_puts(c, "    if (cbAct == 0) goto cbDispatch;\n");
        if (!is_tail(e, other))
            goto_from_divergent(e, bb, other);
        else if (!is_tail(e, taken))
            goto_from_divergent(e, bb, taken);
        else
            cg_puts(c, "    goto cbDispatch;\n");
        return;
    }
    uint32_t rt = bb_at(e, taken)->rpo, ro = bb_at(e, other)->rpo;
    cg_printf(c, "    { uint32_t cbN = 0;\n"
                 "      for (size_t cbL = 0; cbL < cbNL; cbL++) { uint32_t cbP = cbPC[cbL], cbA = %s, cbT = cbA & ((%s) != 0); cbPC[cbL] = CB_PCSEL(cbA, CB_PCSEL(cbT, %uu, %uu), cbP); cbN += cbT; }\n",
              me, cond, rt, ro);
    /* every active lane the same way: a back edge goes straight there */
    if (rt <= bb->rpo && bb_at(e, taken)->divergent)
        cg_printf(c, "      if (cbN == cbAct) goto cbB_%u;\n", taken);
    if (ro <= bb->rpo && bb_at(e, other)->divergent)
        cg_printf(c, "      if (cbN == 0) goto cbB_%u;\n", other);
    /* every live lane here and all one way: that side at once */
    cg_printf(c, "      if (cbAct == cbLive && cbAct != 0 && cbN == cbAct) goto cbB_%u;\n"
                 "      if (cbAct == cbLive && cbAct != 0 && cbN == 0) goto cbB_%u;\n",
              taken, other);
    cg_puts(c, "    }\n    goto cbDispatch;\n");
}

static void emit_block(lanes *e, uint32_t b)
{
    cg *c = e->c;
    const ptx_bb *bb = bb_at(e, b);
    char mask[48];
    if (bb->divergent)
        snprintf(mask, sizeof mask, "cbPC[cbL] == %uu", bb->rpo);
    else
        snprintf(mask, sizeof mask, "cbPC[cbL] != CB_EXIT");
    cg_printf(c, "cbB_%u: /* block %u, order %u%s */\n", b, b, bb->rpo, bb->divergent ? ", divergent" : "");
    const ptx_instr *term = terminator(e, bb);
    uint32_t end = term ? bb->end - 1 : bb->end;
    /* a block that loops on itself on a varying predicate: its run may count the trips (next_trip) */
    e->loop_pred = -1;
    e->trips = e->runs = 0;
    if (bb->term == PTX_TERM_CBRA && bb->succ[0] == b && lanes_is_varying(e, term->guard)) {
        e->loop_pred = term->guard;
        e->loop_neg = term->guard_neg;
    }
    emit_instructions(e, b, bb->first, end, mask, bb->divergent, 0);
    e->loop_pred = -1;
    if (term)
        lanes_comment(e, term);
    if (bb->divergent)
        end_divergent(e, bb);
    else
        end_converged(e, bb);
}

/* ---- the entry ------------------------------------------------------------------------------ */

static void emit_dispatch(lanes *e)
{
    cg *c = e->c;
    cg_puts(c, "cbDispatch:\n"
               "    cbMin = CB_EXIT; cbLive = 0;\n"
               "    for (size_t cbL = 0; cbL < cbNL; cbL++) { uint32_t cbP = cbPC[cbL]; cbMin = cbP < cbMin ? cbP : cbMin; cbLive += cbP != CB_EXIT; }\n"
               "    if (cbMin == CB_EXIT) goto cbDone;\n"
               "    cbAct = 0;\n"
               "    for (size_t cbL = 0; cbL < cbNL; cbL++) cbAct += cbPC[cbL] == cbMin;\n"
               "    switch (cbMin) {\n");
    for (uint32_t o = 0; o < e->g->norder; o++) {
        uint32_t b = e->g->order[o];
        if (bb_at(e, b)->divergent)
            cg_printf(c, "    case %uu: goto cbB_%u;\n", o, b);
        else   /* every live lane must have met here */
            cg_printf(c, "    case %uu: if (cbAct != cbLive) t->blk->rt->fail(t, \"internal error: lanes of kernel %s "
                         "met at block %u divided\"); goto cbB_%u;\n",
                      o, e->f->name, b, b);
    }
    cg_puts(c, "    default: t->blk->rt->fail(t, \"internal error: a lane at no block\");\n    }\n");
}

static void emit_storage(lanes *e)
{
    cg *c = e->c;
    const ptx_func *f = e->f;
    cg_puts(c, "#define CB_TAKE(T, N) ((T *)cb_lanes_take(&cbS, (size_t)cbNL * (N)))\n");
    cg_puts(c, "    uint32_t *restrict cbH = (uint32_t *)cbS; cbS += 64; /* which block shape cbTX/cbTY/cbTZ hold */\n"
               "    uint32_t *restrict cbTX = CB_TAKE(uint32_t, 4), *restrict cbPC = CB_TAKE(uint32_t, 4);\n"
               "    uint32_t *restrict cbTY = CB_TAKE(uint32_t, 4), *restrict cbTZ = CB_TAKE(uint32_t, 4);\n"
               "    uint32_t *restrict cbW = CB_TAKE(uint32_t, 8); /* collectives' scratch */\n"
               "    (void)cbW;\n");
    if (e->k->lanes_multi)
        cg_puts(c, "    uint32_t *restrict cbBK = CB_TAKE(uint32_t, 4); /* the lane's block in the run */\n");
    for (uint32_t r = 0; r < f->nregs; r++) {
        const ptx_reg *reg = &f->regs[r];
        const char *ct = cg_ctype(reg->type);
        if (e->k->varying[r] && e->k->affine[r])
            cg_printf(c, "    %s *restrict V_%s = CB_TAKE(%s, sizeof(%s)); /* affine, stride %lld%s */\n", ct, reg->cname, ct,
                      ct, (long long)e->k->stride[r], e->k->affine[r] == PTX_AFF_VERIFY ? ", verified" : "");
        else if (e->k->varying[r])
            cg_printf(c, "    %s *restrict V_%s = CB_TAKE(%s, sizeof(%s));\n", ct, reg->cname, ct, ct);
        else
            cg_printf(c, "    %s %s = 0;\n", ct, reg->cname);
    }
    for (uint32_t v = 0; v < f->nvars; v++)
        if (lane_var(&f->vars[v]))
            cg_printf(c, "    unsigned char *restrict L_%s = CB_TAKE(unsigned char, %lluu); /* %s %s */\n",
                      f->vars[v].cname, (unsigned long long)var_slice(&f->vars[v]),
                      f->vars[v].space == PTX_SPACE_local ? ".local" : ".param", f->vars[v].name);
    cg_puts(c, "#undef CB_TAKE\n");
    /* registers that may be read before they are written start at 0, as in the general code */
    if (e->k->live_in_entry)
        for (uint32_t r = 0; r < f->nregs; r++)
            if (e->k->varying[r])
                cg_printf(c, "    memset(V_%s, 0, (size_t)cbNL * sizeof *V_%s);\n", f->regs[r].cname, f->regs[r].cname);
}

/* The bytes of C type ct. */
static uint32_t ctype_size(const char *ct)
{
    if (!strcmp(ct, "uint8_t") || !strcmp(ct, "int8_t"))
        return 1;
    if (!strcmp(ct, "uint16_t") || !strcmp(ct, "int16_t"))
        return 2;
    if (!strcmp(ct, "uint64_t") || !strcmp(ct, "int64_t") || !strcmp(ct, "double"))
        return 8;
    return 4;
}

/* What the entry takes from its scratch per thread, and in how many arrays
 * (each rounded up to 64 bytes): the runtime gives it threads * bytes + 64 *
 * arrays (the exported cbk_<k>_lanes_scratch). */
static void emit_scratch_size(lanes *e)
{
    const ptx_func *f = e->f;
    uint64_t bytes = 6 * 4;   /* cbPC cbTX cbTY cbTZ, cbW (8); and the header, counted as an array */
    uint32_t n = 6;
    if (e->k->lanes_multi) {   /* cbBK */
        bytes += 4;
        n++;
    }
    for (uint32_t r = 0; r < f->nregs; r++)
        if (e->k->varying[r]) {
            bytes += ctype_size(cg_ctype(f->regs[r].type));
            n++;
        }
    for (uint32_t v = 0; v < f->nvars; v++)
        if (lane_var(&f->vars[v])) {
            bytes += var_slice(&f->vars[v]);
            n++;
        }
    if (bytes > 0xffffffffu)
        cg_fail(e->c, "per-thread storage of the lanes entry over 4 GiB");
    cg_printf(e->c, "__attribute__((visibility(\"default\"))) const uint32_t %s_lanes_scratch[2] = {%lluu, %uu};\n",
              f->cname, (unsigned long long)bytes, n);
    if (e->k->lanes_multi)
        cg_printf(e->c, "__attribute__((visibility(\"default\"))) const uint32_t %s_lanes_multi = 1u;\n", f->cname);
}

/* The entry of a body made a function of the block shape: the shape the
 * kernel was made hot with (a launch's usual one) runs the copy in which the
 * compiler knows it -- rows and lane loops of known trip counts, unrolled,
 * without remainders or the versioning of loops for aliasing whose checks
 * cost a 32-lane row as much as its work -- and any other shape the general
 * copy. Both copies are the same C: they compute the same values. */
static void emit_specialised(lanes *e, const uint32_t spec[3])
{
    const char *n = e->f->cname;
    cg_printf(e->c, "/* the lanes entry, specialised for blocks of %u x %u x %u threads */\n"
                    "__attribute__((visibility(\"default\"), hot)) void %s_lanes(cb_thread *t, unsigned char *restrict cbS0)\n{\n"
                    "    const cb_block *b = t->blk;\n"
                    "    if (b->ntid.x == %uu && b->ntid.y == %uu && b->ntid.z == %uu)\n"
                    "        %s_lanes_b(t, cbS0, %uu, %uu, %uu);\n"
                    "    else\n"
                    "        %s_lanes_b(t, cbS0, b->ntid.x, b->ntid.y, b->ntid.z);\n}\n",
              spec[0], spec[1], spec[2], n, spec[0], spec[1], spec[2], n, spec[0], spec[1], spec[2], n);
}

void cg_emit_lanes_entry(cg *c, const ptx_func *f)
{
    lanes e = {c, f, f->kernel, f->cfg, -1, 0, 0, 0};
    c->f = f;
    c->in = NULL;
    cg_puts(c, CB_C_LANES_MARK);   /* the JIT's flags (translate.h) */
    cg_printf(c, "\n/* line %u: .entry %s, its block as SIMD lanes (c/lanes.c) */\n", f->line, f->name);
    emit_scratch_size(&e);
    /* hot: gcc's static guess (every goto unlikely) left the lane loops of blocks that
     * the dispatcher reaches cold, built for size: not vectorised, fmaf a call. With a
     * block shape to specialise for (cb_translate_opts.block), the body is a function of
     * the shape, inlined twice: once with it constant (emit_specialised) */
    /* only rows of up to 64 lanes: there a row's loop overhead is its cost; for longer rows gcc
     * peeled each 256-lane loop into 16 vector steps, and vectorAdd (blocks of 256) went from
     * 57-68 to 80-104 ms */
    static const uint32_t none[3];
    const uint32_t *spec = c->m->spec_block[0] && c->m->spec_block[0] <= 64 ? c->m->spec_block : none;
    if (spec[0])
        cg_printf(c, "static inline __attribute__((always_inline, hot)) void %s_lanes_b(cb_thread *t, unsigned char *restrict cbS0,\n"
                     "    const uint32_t cbB_ntid_x, const uint32_t cbB_ntid_y, const uint32_t cbB_ntid_z)\n{\n    unsigned char *cbS = cbS0;\n",
                  f->cname);
    else
        cg_printf(c, "__attribute__((visibility(\"default\"), hot)) void %s_lanes(cb_thread *t, unsigned char *restrict cbS0)\n{\n    unsigned char *cbS = cbS0;\n",
                  f->cname);
    cg_puts(c, "    const cb_block *cbB_b = t->blk;\n"
               "    volatile cb_thread *cbB_vt = t;\n");
    if (!spec[0])
        cg_puts(c, "    const uint32_t cbB_ntid_x = cbB_b->ntid.x, cbB_ntid_y = cbB_b->ntid.y, cbB_ntid_z = cbB_b->ntid.z;\n");
    cg_puts(c, "    const uint32_t cbB_ctaid_x = cbB_b->ctaid.x, cbB_ctaid_y = cbB_b->ctaid.y, cbB_ctaid_z = cbB_b->ctaid.z;\n"
               "    const uint32_t cbB_nctaid_x = cbB_b->nctaid.x, cbB_nctaid_y = cbB_b->nctaid.y, cbB_nctaid_z = "
               "cbB_b->nctaid.z;\n"
               "    unsigned char *cbB_smem = cbB_b->shared;\n"
               "    const unsigned char *restrict cbB_pbuf = cbB_b->params;\n"
               "    const uint32_t cbNT = cbB_ntid_x * cbB_ntid_y * cbB_ntid_z;\n");
    if (e.k->lanes_multi)   /* kernel_abi.h, ABI 12 */
        cg_puts(c, "    /* a run of cbNB blocks of one grid row from ctaid.x on, lane cbL of block cbBK[cbL]; the\n"
                   "       runtime's block, whose ctaid.x names the lane's block while it may fault */\n"
                   "    const uint32_t cbNB = cbB_b->lanes_blocks > 1u ? cbB_b->lanes_blocks : 1u;\n"
                   "    cb_block *const cbB_mb = (cb_block *)cbB_b;\n"
                   "#define CB_BK(L) cbBK[L]\n#define CB_FLAT(L) ((uint32_t)(L) - cbBK[L] * cbNT)\n"
                   "#define CB_SETBLK(K) (cbB_mb->ctaid.x = cbB_ctaid_x + (K))\n"
                   "#define CB_WARP_GONE(W, M, G, K, D) (CB_SETBLK((W) * 32u / cbNT), "
                   "t->blk->rt->warp_gone(t, (W) * 32u % cbNT / 32u, M, G, K, D))\n");
    else
        cg_puts(c, "    const uint32_t cbNB = 1u;\n"
                   "#define CB_BK(L) 0u\n#define CB_FLAT(L) (L)\n#define CB_SETBLK(K) ((void)0)\n"
                   "#define CB_WARP_GONE(W, M, G, K, D) t->blk->rt->warp_gone(t, W, M, G, K, D)\n");
    cg_puts(c, "    const uint32_t cbNL = cbNT * cbNB;\n"
               "    uint32_t cbLive = cbNL, cbAct = cbNL, cbMin = 0;\n"
               "    int cb_exited = 0, *cb_x = &cb_exited;\n"
               "    uint32_t cbQ = 0; int cbWarm = 0; /* a loop's trips (lanes_run.c) */\n"
               "    (void)cbB_vt; (void)cbB_smem; (void)cbB_pbuf; (void)cbB_ntid_x; (void)cbB_ntid_y; (void)cbB_ntid_z;\n"
               "    (void)cbB_ctaid_x; (void)cbB_ctaid_y; (void)cbB_ctaid_z; (void)cbB_nctaid_x; (void)cbB_nctaid_y;\n"
               "    (void)cbB_nctaid_z; (void)cbAct; (void)cbMin; (void)cb_x; (void)cbNB; (void)cbQ; (void)cbWarm;\n"
               "#define CB_EXIT 0xffffffffu\n#define CB_KILL0 0xfffffffdu\n#define CB_KILL1 0xfffffffeu\n"
               "/* C ? A : B on lane numbers as masks: gcc keeps a select of cbPC in a lane loop\n"
               "   as control flow (unvectorised) next to some gotos, never this */\n"
               "#define CB_PCSEL(C, A, B) (((uint32_t)(A) & (0u - (uint32_t)!!(C))) | ((uint32_t)(B) & ((uint32_t)!!(C) - 1u)))\n");
    if (c->m->nfunc_slots)
        cg_printf(c, "    const uint32_t *cb_so = %s_so; (void)cb_so;\n", f->cname);
    if (c->m->nrelocs)
        cg_puts(c, "    if (!cb_relocated) t->blk->rt->unsupported(t, \"address initialisers in .global data: "
                   "the loader did not call cb_module_relocate\");\n");
    emit_storage(&e);
    /* the lanes' ids depend on the block's shape only: the scratch's header says
     * which shape they were made for (kernel_abi.h, ABI 11) */
    int multi = e.k->lanes_multi;   /* the ids of a run of blocks: the run's length in the header too */
    cg_printf(c, "    memset(cbPC, 0, (size_t)cbNL * sizeof *cbPC);\n"
                 "    if (cbH[0] != 0x6c616e65u || cbH[1] != cbB_ntid_x || cbH[2] != cbB_ntid_y || cbH[3] != cbB_ntid_z%s) {\n"
                 "      uint32_t cbL = 0;\n"
                 "      %sfor (uint32_t z = 0; z < cbB_ntid_z; z++) for (uint32_t y = 0; y < cbB_ntid_y; y++)\n"
                 "        for (uint32_t x = 0; x < cbB_ntid_x; x++, cbL++) { cbTX[cbL] = x; cbTY[cbL] = y; cbTZ[cbL] = z;%s }\n"
                 "      cbH[0] = 0x6c616e65u; cbH[1] = cbB_ntid_x; cbH[2] = cbB_ntid_y; cbH[3] = cbB_ntid_z;%s\n"
                 "    }\n",
              multi ? " || cbH[4] != cbNB" : "", multi ? "for (uint32_t b = 0; b < cbNB; b++) " : "",
              multi ? " cbBK[cbL] = b;" : "", multi ? " cbH[4] = cbNB;" : "");
    /* 2: a block entry whose lanes run one after another on one worker (memory.c's
     * shared-memory atomics) */
    c->block_mode = 2;
    cg_printf(c, "    goto cbB_%u;\n", e.g->order[0]);
    for (uint32_t b = 0; b < e.g->nbbs; b++)
        if (bb_at(&e, b)->rpo != PTX_BB_EXIT)
            emit_block(&e, b);
    c->in = NULL;
    emit_dispatch(&e);
    c->block_mode = 0;
    cg_puts(c, "cbDone:\n");
    if (e.k->lanes_multi)
        cg_puts(c, "    CB_SETBLK(0u);\n");
    cg_puts(c, "    return;\n#undef CB_EXIT\n#undef CB_KILL0\n#undef CB_KILL1\n#undef CB_PCSEL\n#undef CB_BK\n#undef CB_FLAT\n#undef CB_SETBLK\n#undef CB_WARP_GONE\n}\n");
    if (spec[0])
        emit_specialised(&e, spec);
}
