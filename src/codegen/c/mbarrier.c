/* mbarrier.c: the mbarrier family and cp.async.mbarrier.arrive
 * (CB_DIALECT_C).
 *
 *   mbarrier.init{.shared{::cta}}.b64 [addr], count
 *   mbarrier.inval{.shared{::cta}}.b64 [addr]
 *   mbarrier.arrive{.noComplete}{.sem.scope}{.space}.b64 state|_, [addr]{, count}
 *   mbarrier.arrive.expect_tx{.sem.scope}{.space}.b64 state|_, [addr], txCount
 *   mbarrier.arrive_drop ... (same forms as arrive)
 *   mbarrier.expect_tx / complete_tx{.sem.scope}{.space}.b64 [addr], txCount
 *   mbarrier.test_wait{.parity}{.sem.scope}{.shared{::cta}}.b64 p, [addr], state|parity
 *   mbarrier.try_wait{.parity}{.sem.scope}{.shared{::cta}}.b64 p, [addr], state|parity{, suspendTimeHint}
 *   mbarrier.pending_count.b64 count, state
 *   cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]
 *
 * The object lives in shared memory, laid out as kernel_abi.h says (pending
 * and expected counts, tx-count, phase mod 4, a valid bit). The helpers
 * below keep the ISA's rules: an arrive-on lowers the pending count; the
 * phase completes when the pending count and the tx-count are both zero,
 * and then the pending count is reloaded from the expected count, which
 * arrive_drop lowers for good. The state an arrive returns is the object
 * before the arrive (so pending_count reads the count before it, as on the
 * GPU); a wait on a state completes once the object's phase differs from
 * the state's, a wait on a parity once the current phase's parity differs.
 *
 * The threads of a block share one worker, so the read-modify-writes need no
 * atomics. A wait that finds its phase incomplete parks the thread through
 * rt->mbar_wait (runtime_mbarrier.c) instead of spinning, and an
 * operation that completes a phase wakes the threads parked on it through
 * rt->mbar_signal; every other change is reported too, as progress.
 *
 * cp.async copies complete when issued (async.c), so the arrive-on
 * that cp.async.mbarrier.arrive schedules for "when the thread's earlier
 * cp.asyncs complete" happens at once: with .noinc it is an arrive-on with
 * count 1; without it, the ISA first adds 1 to the pending count, and the
 * two cancel out.
 *
 * cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes (what
 * libcu++'s memcpy_async uses on sm_90) copies at once too and then performs
 * the complete-tx of its size on the mbarrier: the tx-count may go negative
 * until the matching expect-tx, as the ISA allows. Other bulk copies (to
 * global memory, bulk groups, multicast, tensors) are still rejected by the
 * parser.
 *
 * Misuse the ISA leaves undefined (an uninitialised or invalidated object,
 * an address outside the block's shared memory or not 8-byte aligned, a
 * count above the pending or expected count, a .noComplete arrive that
 * would complete the phase, counts out of range) fails the launch with a
 * message rather than corrupting the object.
 *
 * Clusters: cubridge launches every kernel with a cluster of one CTA (larger
 * clusters are refused and mapa is rejected), so a .shared::cluster address
 * is an address in the executing CTA's own shared memory and the .cluster
 * scope is the .cta scope: those forms are honoured as such.
 */
#include "codegen/c/c.h"

const char cb_codegen_c_prelude_mbarrier[] =
"/* ---- mbarrier (src/codegen/c/mbarrier.c; the object's layout is in kernel_abi.h) ---- */\n"
"CB_INL void cb_mb_fail(cb_thread *t, const char *op, const char *why) {\n"
"  char m[200]; size_t a = strlen(op), b = strlen(why); if (a > 80) a = 80; if (b > 110) b = 110;\n"
"  memcpy(m, op, a); m[a] = ':'; m[a + 1] = ' '; memcpy(m + a + 2, why, b); m[a + 2 + b] = 0;\n"
"  t->blk->rt->fail(t, m); __builtin_unreachable(); }\n"
"/* the object at p, which must be 8-byte aligned in the shared memory of a block of the cluster\n"
"   (the executing block's, or through .shared::cluster addresses another's) */\n"
"CB_INL uint64_t cb_mb_load(cb_thread *t, const unsigned char *p, const char *op) {\n"
"  uintptr_t a = (uintptr_t)p, base = (uintptr_t)t->blk->shared; uint64_t w;\n"
"  if (a < base || a - base + 8u > (uint64_t)cb_dyn_smem(t) + t->blk->dynamic_smem) {\n"
"    int r = cb_cl_rank_of(t, (uint64_t)a);\n"
"    if (r < 0 || a - (uintptr_t)t->blk->cluster_shared[r] + 8u > cb_cl_size(t))\n"
"      cb_mb_fail(t, op, \"the address is not in the block's shared memory\");\n"
"    base = (uintptr_t)t->blk->cluster_shared[r]; }\n"
"  if ((a - base) & 7u) cb_mb_fail(t, op, \"the mbarrier object is not 8-byte aligned\");\n"
"  memcpy(&w, p, 8); return w; }\n"
"CB_INL uint64_t cb_mb_valid(cb_thread *t, const unsigned char *p, const char *op) {\n"
"  uint64_t w = cb_mb_load(t, p, op);\n"
"  if (!(w & CB_MBAR_VALID)) cb_mb_fail(t, op, \"the mbarrier object is not initialised (or was invalidated)\");\n"
"  return w; }\n"
"/* stores w, first completing its phase when no arrival and no tx-count is pending */\n"
"CB_INL void cb_mb_store(cb_thread *t, unsigned char *p, uint64_t w, int nocomplete, const char *op) {\n"
"  uint32_t done = CB_MBAR_PENDING(w) == 0 && CB_MBAR_TX(w) == 0;\n"
"  if (done && nocomplete) cb_mb_fail(t, op, \"this .noComplete arrive-on operation would complete the phase\");\n"
"  if (done) w = CB_MBAR_MAKE(CB_MBAR_EXPECTED(w), CB_MBAR_EXPECTED(w), 0, CB_MBAR_PHASE(w) + 1u);\n"
"  memcpy(p, &w, 8); t->blk->rt->mbar_signal(t, p, done); }\n"
"CB_INL void cb_mb_init(cb_thread *t, unsigned char *p, uint32_t count) {\n"
"  (void)cb_mb_load(t, p, \"mbarrier.init\");\n"
"  if (count < 1 || count > 0xfffffu) cb_mb_fail(t, \"mbarrier.init\", \"the count is not in 1 .. 2^20-1\");\n"
"  uint64_t w = CB_MBAR_MAKE(count, count, 0, 0); memcpy(p, &w, 8); t->blk->rt->mbar_signal(t, p, 1); }\n"
"CB_INL void cb_mb_inval(cb_thread *t, unsigned char *p) {\n"
"  (void)cb_mb_valid(t, p, \"mbarrier.inval\"); uint64_t w = 0; memcpy(p, &w, 8); t->blk->rt->mbar_signal(t, p, 1); }\n"
"/* expect-tx of tx (complete-tx: negative), then (arrive) an arrive-on with count, after lowering the\n"
"   expected count by count (drop); returns the object as it was before */\n"
"CB_INL uint64_t cb_mb_update(cb_thread *t, unsigned char *p, int arrive, uint32_t count, int drop, int nocomplete,\n"
"                             int64_t tx, const char *op) {\n"
"  uint64_t w = cb_mb_valid(t, p, op); uint32_t pending = CB_MBAR_PENDING(w), expected = CB_MBAR_EXPECTED(w);\n"
"  int64_t txc = (int64_t)CB_MBAR_TX(w) + tx;\n"
"  if (txc > 0xfffff || txc < -0xfffff) cb_mb_fail(t, op, \"the tx-count leaves -(2^20-1) .. 2^20-1\");\n"
"  if (!arrive) count = 0;\n"
"  if (count > 0xfffffu) cb_mb_fail(t, op, \"the count is above 2^20-1\");\n"
"  if (drop && count > expected) cb_mb_fail(t, op, \"the count exceeds the expected arrival count\");\n"
"  if (drop) expected -= count;\n"
"  if (count > pending) cb_mb_fail(t, op, \"the count exceeds the pending arrival count of the current phase\");\n"
"  cb_mb_store(t, p, CB_MBAR_MAKE(pending - count, expected, (int32_t)txc, CB_MBAR_PHASE(w)), nocomplete, op);\n"
"  return w; }\n"
"/* whether the phase numbered phase (mod 4), or with parity phase & 1, has completed */\n"
"CB_INL int cb_mb_done(uint64_t w, uint32_t phase, int parity) {\n"
"  return parity ? (CB_MBAR_PHASE(w) & 1u) != (phase & 1u) : CB_MBAR_PHASE(w) != (phase & 3u); }\n"
"/* test_wait/try_wait on a state (parity 0) or a phase parity: tests, and when the phase is\n"
"   incomplete parks until it completes or the time limit expires, then tests again */\n"
"CB_INL int cb_mb_test(cb_thread *t, unsigned char *p, uint64_t arg, int parity, const char *op) {\n"
"  uint32_t phase = parity ? (uint32_t)(arg & 1u) : CB_MBAR_PHASE(arg);\n"
"  if (cb_mb_done(cb_mb_valid(t, p, op), phase, parity)) return 1;\n"
"  t->blk->rt->mbar_wait(t, p);\n"
"  return cb_mb_done(cb_mb_valid(t, p, op), phase, parity); }\n"
"/* cp.async.mbarrier.arrive: the thread's cp.asyncs are complete, so the arrive-on happens now */\n"
"CB_INL void cb_mb_cp_async_arrive(cb_thread *t, unsigned char *p, int noinc) {\n"
"  if (noinc) { (void)cb_mb_update(t, p, 1, 1, 0, 0, 0, \"cp.async.mbarrier.arrive.noinc\"); return; }\n"
"  uint64_t w = cb_mb_valid(t, p, \"cp.async.mbarrier.arrive\");\n"
"  if (CB_MBAR_PENDING(w) >= 0xfffffu)\n"
"    cb_mb_fail(t, \"cp.async.mbarrier.arrive\", \"the pending arrival count would exceed 2^20-1\");\n"
"  t->blk->rt->mbar_signal(t, p, 0); /* +1 pending, then the arrive-on: no net change */ }\n";

/* The space of the object: shared (.shared, ::cta, ::cluster) or generic. */
static ptx_space mbar_space(cg *c, const ptx_instr *in)
{
    if (ptx_has(in, PTX_MOD_global) || ptx_has(in, PTX_MOD_local) || ptx_has(in, PTX_MOD_param) ||
        ptx_has(in, PTX_MOD_const))
        cg_fail(c, "an mbarrier object lives in shared memory");
    if (ptx_has(in, PTX_MOD_shared) || ptx_has(in, PTX_MOD_shared_cta))
        return PTX_SPACE_shared;
    if (ptx_has(in, PTX_MOD_shared_cluster))
        return PTX_SPACE_shared_cluster;   /* possibly another block's (cluster.c) */
    return PTX_SPACE_none;
}

/* Emits "unsigned char *cb_mb = <address of operand i>;". */
static void bind_address(cg *c, const ptx_instr *in, int i)
{
    if (in->ops[i].kind != PTX_OPD_mem)
        cg_fail(c, "expected the mbarrier's address [addr]");
    cg_puts(c, "unsigned char *cb_mb = ");
    cg_address(c, &in->ops[i], mbar_space(c, in));
    cg_puts(c, ";\n    ");
}

/* The instruction's name as written (without guard and operands), as a C string literal. */
static void emit_name(cg *c, const ptx_instr *in)
{
    const char *s = in->text;
    size_t n = 0;
    if (s[0] == '@') {
        while (s[n] && s[n] != ' ' && s[n] != '\t')
            n++;
        while (s[n] == ' ' || s[n] == '\t')
            n++;
        s += n;
    }
    for (n = 0; s[n] && s[n] != ' ' && s[n] != '\t' && s[n] != ';' && n < 80; n++)
        ;
    cg_printf(c, "\"%.*s\"", (int)n, s);
}

/* Which of the operations in is; fails unless exactly one. */
enum { MB_INIT, MB_INVAL, MB_ARRIVE, MB_EXPECT_TX, MB_COMPLETE_TX, MB_TEST, MB_PENDING };

static int mbar_kind(cg *c, const ptx_instr *in)
{
    int arrive = ptx_has(in, PTX_MOD_arrive) || ptx_has(in, PTX_MOD_arrive_drop);
    int test = ptx_has(in, PTX_MOD_test_wait) || ptx_has(in, PTX_MOD_try_wait);
    int n = ptx_has(in, PTX_MOD_init) + ptx_has(in, PTX_MOD_inval) + ptx_has(in, PTX_MOD_arrive) +
            ptx_has(in, PTX_MOD_arrive_drop) + ptx_has(in, PTX_MOD_test_wait) + ptx_has(in, PTX_MOD_try_wait) +
            ptx_has(in, PTX_MOD_pending_count) + ptx_has(in, PTX_MOD_complete_tx) +
            (ptx_has(in, PTX_MOD_expect_tx) && !arrive);
    if (n != 1)
        cg_fail(c, "mbarrier needs one of .init .inval .arrive .arrive_drop .expect_tx .complete_tx .test_wait "
                   ".try_wait .pending_count");
    if (ptx_has(in, PTX_MOD_noComplete) && (!arrive || ptx_has(in, PTX_MOD_expect_tx)))
        cg_fail(c, ".noComplete goes with mbarrier.arrive or mbarrier.arrive_drop and a count");
    if (ptx_has(in, PTX_MOD_parity) && !test)
        cg_fail(c, ".parity goes with mbarrier.test_wait or mbarrier.try_wait");
    if (ptx_has(in, PTX_MOD_shared_cluster) && !arrive && !ptx_has(in, PTX_MOD_expect_tx) &&
        !ptx_has(in, PTX_MOD_complete_tx))
        cg_fail(c, "only arrive, arrive_drop, expect_tx and complete_tx take a .shared::cluster mbarrier");
    if (in->ntypes != 1 || in->types[0] != PTX_TYPE_b64)
        cg_fail(c, "mbarrier takes the type .b64");
    if (in->nops > 0 && in->ops[0].kind == PTX_OPD_reg && in->ops[0].reg2 >= 0)
        cg_fail(c, "mbarrier has no second destination 'd|p'");
    return ptx_has(in, PTX_MOD_init) ? MB_INIT : ptx_has(in, PTX_MOD_inval) ? MB_INVAL : arrive ? MB_ARRIVE
           : ptx_has(in, PTX_MOD_expect_tx) ? MB_EXPECT_TX : ptx_has(in, PTX_MOD_complete_tx) ? MB_COMPLETE_TX
           : test ? MB_TEST : MB_PENDING;
}

static void emit_init_inval(cg *c, const ptx_instr *in, int kind)
{
    if (in->nops != (kind == MB_INIT ? 2 : 1))
        cg_fail(c, kind == MB_INIT ? "mbarrier.init takes [addr], count" : "mbarrier.inval takes [addr]");
    bind_address(c, in, 0);
    if (kind == MB_INVAL) {
        cg_puts(c, "cb_mb_inval(t, cb_mb);\n");
        return;
    }
    cg_puts(c, "cb_mb_init(t, cb_mb, ");
    cg_read(c, &in->ops[1], PTX_TYPE_u32);
    cg_puts(c, ");\n");
}

/* arrive, arrive_drop (with .noComplete or .expect_tx), expect_tx, complete_tx */
static void emit_update(cg *c, const ptx_instr *in, int kind)
{
    int arrive = kind == MB_ARRIVE, tx = ptx_has(in, PTX_MOD_expect_tx) || kind == MB_COMPLETE_TX;
    int nocomplete = ptx_has(in, PTX_MOD_noComplete);
    int addr = arrive ? 1 : 0;
    if (arrive && tx && in->nops != 3)
        cg_fail(c, "mbarrier.arrive.expect_tx takes state, [addr], txCount");
    if (arrive && nocomplete && in->nops != 3)
        cg_fail(c, "mbarrier.arrive.noComplete takes state, [addr], count");
    if (arrive && (in->nops < 2 || in->nops > 3))
        cg_fail(c, "mbarrier.arrive takes state, [addr]{, count}");
    if (!arrive && in->nops != 2)
        cg_fail(c, "mbarrier.expect_tx and mbarrier.complete_tx take [addr], txCount");
    if (arrive && ptx_has(in, PTX_MOD_shared_cluster) && in->ops[0].kind != PTX_OPD_sink)
        cg_fail(c, "an arrive on a .shared::cluster mbarrier returns no state: the destination must be _");
    bind_address(c, in, addr);
    if (arrive) {
        cg_dst_open(c, &in->ops[0], PTX_TYPE_b64);
    }
    cg_printf(c, "cb_mb_update(t, cb_mb, %d, ", arrive);
    if (arrive && !tx && in->nops == 3)
        cg_read(c, &in->ops[2], PTX_TYPE_u32);
    else
        cg_puts(c, "1u");
    cg_printf(c, ", %d, %d, ", ptx_has(in, PTX_MOD_arrive_drop), nocomplete);
    if (tx) {
        cg_puts(c, kind == MB_COMPLETE_TX ? "-(int64_t)" : "(int64_t)");
        cg_read(c, &in->ops[addr + 1], PTX_TYPE_u32);
    } else {
        cg_puts(c, "0");
    }
    cg_puts(c, ", ");
    emit_name(c, in);
    cg_puts(c, ")");
    if (arrive)
        cg_dst_close(c, &in->ops[0], PTX_TYPE_b64);
    else
        cg_puts(c, ";\n");
}

/* test_wait / try_wait: p, [addr], state|parity{, suspendTimeHint} */
static void emit_test(cg *c, const ptx_instr *in)
{
    int parity = ptx_has(in, PTX_MOD_parity);
    if (in->nops < 3 || in->nops > (ptx_has(in, PTX_MOD_try_wait) ? 4 : 3))
        cg_fail(c, ptx_has(in, PTX_MOD_try_wait) ? "mbarrier.try_wait takes p, [addr], state|parity{, suspendTimeHint}"
                                                  : "mbarrier.test_wait takes p, [addr], state|parity");
    bind_address(c, in, 1);
    cg_dst_open(c, &in->ops[0], PTX_TYPE_pred);
    cg_puts(c, "cb_mb_test(t, cb_mb, (uint64_t)");
    cg_read(c, &in->ops[2], parity ? PTX_TYPE_u32 : PTX_TYPE_b64);
    cg_printf(c, ", %d, ", parity);
    emit_name(c, in);
    cg_puts(c, ")");
    cg_dst_close(c, &in->ops[0], PTX_TYPE_pred);
}

void c_emit_mbarrier(cg *c, const ptx_instr *in)
{
    int kind = mbar_kind(c, in);
    switch (kind) {
    case MB_INIT:
    case MB_INVAL:
        emit_init_inval(c, in, kind);
        return;
    case MB_TEST:
        emit_test(c, in);
        return;
    case MB_PENDING:
        if (in->nops != 2)
            cg_fail(c, "mbarrier.pending_count takes count, state");
        cg_dst_open(c, &in->ops[0], PTX_TYPE_u32);
        cg_puts(c, "CB_MBAR_PENDING(");
        cg_read(c, &in->ops[1], PTX_TYPE_b64);
        cg_puts(c, ")");
        cg_dst_close(c, &in->ops[0], PTX_TYPE_u32);
        return;
    default:
        emit_update(c, in, kind);
        return;
    }
}

void cg_emit_cp_async_mbarrier_arrive(cg *c, const ptx_instr *in)
{
    if (!ptx_has(in, PTX_MOD_arrive) || in->nops != 1 || in->ntypes != 1 || in->types[0] != PTX_TYPE_b64)
        cg_fail(c, "cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 takes [addr]");
    if (ptx_has(in, PTX_MOD_shared_cluster))
        cg_fail(c, "cp.async.mbarrier.arrive takes a .shared::cta mbarrier");
    bind_address(c, in, 0);
    cg_printf(c, "cb_mb_cp_async_arrive(t, cb_mb, %d);\n", ptx_has(in, PTX_MOD_noinc));
}
