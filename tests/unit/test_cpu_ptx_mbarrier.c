/* test_cpu_ptx_mbarrier: the mbarrier family and cp.async.mbarrier.arrive
 * through the real pipeline (PTX -> C -> CPU backend):
 *   - phases: 64 threads over 5 phases, each reading another thread's
 *     write made before the arrive (test_wait on the state, in a loop);
 *   - counts: one thread walks the object through init, arrive.noComplete
 *     with a count, pending_count, test_wait/try_wait with state and parity,
 *     arrive_drop (with and without .noComplete), the sm_90 count form,
 *     expect_tx/complete_tx/arrive.expect_tx, inval and init again,
 *     cp.async.mbarrier.arrive with and without .noinc, generic addressing,
 *     .release/.relaxed/.acquire and .cta/.cluster, .shared::cluster, and
 *     cp.async.bulk ... mbarrier::complete_tx::bytes before and after its
 *     expect-tx;
 *   - parity: a producer thread and 32 consumers hand 40 values through two
 *     one-slot buffers with try_wait.parity (suspend-time hint) both ways;
 *   - the time limit: a thread that test_waits once on a phase only it can
 *     complete gets "not complete" and goes on, rather than a deadlock;
 *   - deadlocks: waiting on a phase that never completes (alone, and with
 *     another thread at bar.sync) fails the launch, naming the mbarrier;
 *   - misuse the ISA leaves undefined fails the launch with a message;
 *   - translation errors, and needs_fibers only for kernels that wait. */
#include "test_cpu_util.h"

#include "codegen/translate.h"

static cb_backend *be;

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

static const char ptx_phases[] = PTX_HEAD
    ".visible .entry phases(.param .u64 out)\n{\n"
    "  .reg .b32 %r<12>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
    "  .shared .align 8 .b64 bar;\n"
    "  .shared .align 4 .b32 vals[64];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 mbarrier.init.shared.b64 [bar], 64;\n"
    "  bar.sync 0;\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r2, 0;\n"
    "  mov.u32 %r5, vals;\n"
    "  shl.b32 %r4, %r1, 2;\n"
    "  add.u32 %r6, %r5, %r4;\n"
    "  add.u32 %r7, %r1, 1;\n"
    "  and.b32 %r7, %r7, 63;\n"
    "  shl.b32 %r7, %r7, 2;\n"
    "  add.u32 %r7, %r5, %r7;\n"
    "LOOP:\n"
    "  mad.lo.u32 %r3, %r2, 100, %r1;\n"
    "  st.shared.u32 [%r6], %r3;\n"
    "  mbarrier.arrive.shared.b64 %rd1, [bar];\n"
    "WAIT:\n"
    "  mbarrier.test_wait.shared.b64 %p2, [bar], %rd1;\n"
    "  @!%p2 bra WAIT;\n"
    "  ld.shared.u32 %r8, [%r7];\n"
    "  mad.lo.u32 %r9, %r2, 64, %r1;\n"
    "  mul.wide.u32 %rd3, %r9, 4;\n"
    "  add.u64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r8;\n"
    "  bar.sync 0;\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  setp.lt.u32 %p3, %r2, 5;\n"
    "  @%p3 bra LOOP;\n"
    "  ret;\n}\n";

/* One thread; out[i] as listed in counts_want. */
static const char ptx_counts[] = PTX_HEAD
    ".visible .entry counts(.param .u64 out, .param .u64 src)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<24>; .reg .pred %p<4>;\n"
    "  .shared .align 8 .b64 b;\n"
    "  .shared .align 8 .b64 b2;\n"
    "  .shared .align 16 .b32 stage[4];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd2, [src];\n"
    "  mbarrier.init.shared::cta.b64 [b], 3;\n"
    "  mbarrier.arrive.noComplete.shared.b64 %rd3, [b], 2;\n"
    "  mbarrier.pending_count.b64 %r1, %rd3;\n"
    "  st.global.u32 [%rd1+0], %r1;\n"                         /* 3: the count before */
    "  mbarrier.test_wait.parity.shared.b64 %p1, [b], 0;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+4], %r1;\n"   /* 0 */
    "  mbarrier.arrive.shared.b64 %rd4, [b];\n"                 /* completes phase 0 */
    "  mbarrier.pending_count.b64 %r1, %rd4;\n  st.global.u32 [%rd1+8], %r1;\n"   /* 1 */
    "  mbarrier.test_wait.shared.b64 %p1, [b], %rd4;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+12], %r1;\n"  /* 1 */
    "  mbarrier.test_wait.parity.shared.b64 %p1, [b], 0;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+16], %r1;\n"  /* 1 */
    "  mbarrier.test_wait.parity.shared.b64 %p1, [b], 1;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+20], %r1;\n"  /* 0 */
    "  mbarrier.arrive_drop.shared.b64 %rd5, [b];\n"            /* expected 2, pending 2 */
    "  mbarrier.pending_count.b64 %r1, %rd5;\n  st.global.u32 [%rd1+24], %r1;\n"  /* 3 */
    "  mov.u32 %r2, 2;\n"
    "  mbarrier.arrive.release.cta.shared::cta.b64 %rd6, [b], %r2;\n"   /* completes phase 1 */
    "  mbarrier.pending_count.b64 %r1, %rd6;\n  st.global.u32 [%rd1+28], %r1;\n"  /* 2 */
    "  mbarrier.arrive_drop.noComplete.shared.b64 %rd7, [b], 1;\n"   /* expected 1, pending 1 */
    "  mbarrier.pending_count.b64 %r1, %rd7;\n  st.global.u32 [%rd1+32], %r1;\n"  /* 2 */
    "  mbarrier.arrive.shared.b64 _, [b];\n"                    /* completes phase 2 */
    "  mbarrier.test_wait.parity.shared.b64 %p1, [b], 0;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+36], %r1;\n"  /* 1 */
    "  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [b], 100;\n"
    "  mbarrier.arrive.shared.b64 %rd8, [b];\n"                 /* pending 0, tx 100 */
    "  mbarrier.test_wait.shared.b64 %p1, [b], %rd8;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+40], %r1;\n"  /* 0 */
    "  mbarrier.complete_tx.shared::cta.b64 [b], 60;\n"
    "  mbarrier.test_wait.shared.b64 %p1, [b], %rd8;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+44], %r1;\n"  /* 0 */
    "  mbarrier.complete_tx.shared::cta.b64 [b], 40;\n"          /* completes phase 3 */
    "  mbarrier.try_wait.shared.b64 %p1, [b], %rd8;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+48], %r1;\n"  /* 1 */
    "  mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd9, [b], 50;\n"   /* pending 0, tx 50 */
    "  mov.u32 %r3, 1000;\n"
    "  mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [b], 0, %r3;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+52], %r1;\n"  /* 0: phase 4 waits for tx */
    "  mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [b], 50;\n"  /* completes phase 4 */
    "  mbarrier.try_wait.acquire.cta.shared.b64 %p1, [b], %rd9, %r3;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+56], %r1;\n"  /* 1 */
    "  mbarrier.inval.shared.b64 [b];\n"
    "  mbarrier.init.shared.b64 [b], 1;\n"
    "  mbarrier.arrive.shared.b64 _, [b];\n"
    "  mbarrier.test_wait.parity.shared.b64 %p1, [b], 0;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+60], %r1;\n"  /* 1 */
    /* cp.async.mbarrier.arrive.noinc: counted in the init count */
    "  mbarrier.init.shared.b64 [b2], 2;\n"
    "  mov.u32 %r4, stage;\n"
    "  cp.async.ca.shared.global [%r4], [%rd2], 16;\n"
    "  cp.async.mbarrier.arrive.noinc.shared.b64 [b2];\n"        /* pending 1 */
    "  mbarrier.arrive.shared.b64 %rd10, [b2];\n"               /* completes phase 0 */
    "  mbarrier.test_wait.shared.b64 %p1, [b2], %rd10;\n"
    "  ld.shared.u32 %r5, [%r4+12];\n"
    "  selp.u32 %r1, %r5, 0, %p1;\n  st.global.u32 [%rd1+64], %r1;\n"  /* src[3] */
    /* without .noinc: no net change to the pending count */
    "  cp.async.cg.shared::cta.global [%r4], [%rd2+16], 16;\n"
    "  cp.async.mbarrier.arrive.shared::cta.b64 [b2];\n"
    "  mbarrier.arrive.noComplete.shared.b64 %rd11, [b2], 1;\n"
    "  mbarrier.pending_count.b64 %r1, %rd11;\n  st.global.u32 [%rd1+68], %r1;\n"  /* 2 */
    /* generic addressing completes phase 1 */
    "  mov.u64 %rd12, b2;\n"
    "  cvta.shared.u64 %rd13, %rd12;\n"
    "  mbarrier.arrive.b64 %rd14, [%rd13];\n"
    "  mbarrier.test_wait.parity.b64 %p1, [%rd13], 1;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+72], %r1;\n"  /* 1 */
    /* fence.mbarrier_init, the .cluster scope and .shared::cluster arrives, phase 2 */
    "  fence.mbarrier_init.release.cluster;\n"
    "  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [b2];\n"
    "  mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [b2];\n"
    "  mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 %p1, [b2], 0;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+76], %r1;\n"  /* 1 */
    "  ld.shared.u32 %r5, [%r4];\n  st.global.u32 [%rd1+80], %r5;\n"   /* src[4] */
    /* cp.async.bulk completing on b2 before the expect-tx (the tx-count goes negative), phase 3 */
    "  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [stage], [%rd2+16], 16, [b2];\n"
    "  mbarrier.arrive.shared.b64 %rd15, [b2];\n"
    "  mbarrier.test_wait.shared.b64 %p1, [b2], %rd15;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 [%rd1+84], %r1;\n"  /* 0: tx-count -16 */
    "  mbarrier.arrive.expect_tx.shared.b64 %rd15, [b2], 16;\n"        /* completes phase 3 */
    "  mbarrier.test_wait.shared.b64 %p1, [b2], %rd15;\n"
    "  ld.shared.u32 %r5, [stage+4];\n"
    "  selp.u32 %r1, %r5, 0, %p1;\n  st.global.u32 [%rd1+88], %r1;\n"  /* src[5] */
    "  mov.u32 %r6, 16;\n"
    "  createpolicy.fractional.L2::evict_last.b64 %rd16, 1.0;\n"
    "  mbarrier.expect_tx.shared.b64 [b2], %r6;\n"
    "  cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r4], [%rd2], %r6, [b2], %rd16;\n"
    "  mbarrier.arrive.shared.b64 %rd15, [b2];\n"
    "  mbarrier.arrive.shared.b64 %rd15, [b2];\n"                    /* completes phase 4 */
    "  mbarrier.test_wait.parity.shared.b64 %p1, [b2], 0;\n"
    "  ld.shared.u32 %r5, [%r4+8];\n"
    "  selp.u32 %r1, %r5, 0, %p1;\n  st.global.u32 [%rd1+92], %r1;\n"  /* src[2] */
    "  ret;\n}\n";

static const uint32_t counts_want[] = {3, 0, 1, 1, 1, 0, 3, 2, 2, 1, 0, 0, 1, 0, 1, 1, 103, 2, 1, 1, 104, 0, 105, 102};

/* Thread 0 produces 40 values through two one-slot stages (full: 1 arrival,
 * empty: 32); threads 32..63 consume with try_wait.parity and sum. */
static const char ptx_parity[] = PTX_HEAD
    ".visible .entry parity(.param .u64 out)\n{\n"
    "  .reg .b32 %r<16>; .reg .b64 %rd<8>; .reg .pred %p<6>;\n"
    "  .shared .align 8 .b64 full[2];\n"
    "  .shared .align 8 .b64 empty[2];\n"
    "  .shared .align 4 .b32 slot[2];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra SYNC;\n"
    "  mbarrier.init.shared.b64 [full], 1;\n  mbarrier.init.shared.b64 [full+8], 1;\n"
    "  mbarrier.init.shared.b64 [empty], 32;\n  mbarrier.init.shared.b64 [empty+8], 32;\n"
    "SYNC:\n"
    "  bar.sync 0;\n"
    "  mov.u32 %r2, 0;\n"                 /* i */
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 bra PRODUCE;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra DONE;\n"
    "  mov.u32 %r9, 0;\n"                 /* sum */
    "CONSUME:\n"
    "  and.b32 %r3, %r2, 1;\n"            /* stage */
    "  shr.u32 %r4, %r2, 1;\n  and.b32 %r4, %r4, 1;\n"   /* phase parity of use i/2 */
    "  shl.b32 %r5, %r3, 3;\n  mov.u32 %r6, full;\n  add.u32 %r6, %r6, %r5;\n"
    "CWAIT:\n"
    "  mbarrier.try_wait.parity.shared.b64 %p2, [%r6], %r4, 500;\n"
    "  @!%p2 bra CWAIT;\n"
    "  shl.b32 %r7, %r3, 2;\n  mov.u32 %r8, slot;\n  add.u32 %r8, %r8, %r7;\n"
    "  ld.shared.u32 %r10, [%r8];\n"
    "  add.u32 %r9, %r9, %r10;\n"
    "  mov.u32 %r11, empty;\n  add.u32 %r11, %r11, %r5;\n"
    "  mbarrier.arrive.shared.b64 _, [%r11];\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  setp.lt.u32 %p3, %r2, 40;\n"
    "  @%p3 bra CONSUME;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  sub.u32 %r12, %r1, 32;\n"
    "  mul.wide.u32 %rd2, %r12, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r9;\n"
    "  bra DONE;\n"
    "PRODUCE:\n"
    "  and.b32 %r3, %r2, 1;\n"
    "  shl.b32 %r5, %r3, 3;\n"
    "  setp.lt.u32 %p4, %r2, 2;\n"
    "  @%p4 bra FILL;\n"
    "  sub.u32 %r4, %r2, 2;\n  shr.u32 %r4, %r4, 1;\n  and.b32 %r4, %r4, 1;\n"
    "  mov.u32 %r11, empty;\n  add.u32 %r11, %r11, %r5;\n"
    "PWAIT:\n"
    "  mbarrier.try_wait.parity.shared.b64 %p2, [%r11], %r4;\n"
    "  @!%p2 bra PWAIT;\n"
    "FILL:\n"
    "  shl.b32 %r7, %r3, 2;\n  mov.u32 %r8, slot;\n  add.u32 %r8, %r8, %r7;\n"
    "  mad.lo.u32 %r10, %r2, %r2, 7;\n"
    "  st.shared.u32 [%r8], %r10;\n"
    "  mov.u32 %r6, full;\n  add.u32 %r6, %r6, %r5;\n"
    "  mbarrier.arrive.shared.b64 _, [%r6];\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  setp.lt.u32 %p3, %r2, 40;\n"
    "  @%p3 bra PRODUCE;\n"
    "DONE:\n"
    "  ret;\n}\n";

/* Thread 0 test_waits once on phase 0, which needs its own arrival: the time
 * limit expires and it goes on; thread 1 waits in a loop. out[0] = thread
 * 0's test result (0), out[1] = 1 once thread 1 is through. */
static const char ptx_timelimit[] = PTX_HEAD
    ".visible .entry timelimit(.param .u64 out)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
    "  .shared .align 8 .b64 b;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 mbarrier.init.shared.b64 [b], 2;\n"
    "  bar.sync 0;\n"
    "  @%p1 bra FIRST;\n"
    "  mbarrier.arrive.shared.b64 %rd2, [b];\n"
    "W1:\n"
    "  mbarrier.test_wait.shared.b64 %p2, [b], %rd2;\n"
    "  @!%p2 bra W1;\n"
    "  mov.u32 %r2, 1;\n  st.global.u32 [%rd1+4], %r2;\n"
    "  ret;\n"
    "FIRST:\n"
    "  mbarrier.test_wait.parity.shared.b64 %p2, [b], 0;\n"
    "  selp.u32 %r2, 1, 0, %p2;\n  st.global.u32 [%rd1], %r2;\n"
    "  mbarrier.arrive.shared.b64 _, [b];\n"
    "  ret;\n}\n";

/* deadlock: 2 threads arrive at a barrier that expects 3 and wait forever;
 * deadlock_bar: thread 0 waits on an mbarrier that thread 1 would complete
 * after a bar.sync that needs thread 0. */
static const char ptx_deadlock[] = PTX_HEAD
    ".visible .entry deadlock()\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
    "  .shared .align 8 .b64 b;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 mbarrier.init.shared.b64 [b], 3;\n"
    "  bar.sync 0;\n"
    "  mbarrier.arrive.shared.b64 %rd1, [b];\n"
    "W:\n"
    "  mbarrier.try_wait.shared.b64 %p2, [b], %rd1;\n"
    "  @!%p2 bra W;\n"
    "  ret;\n}\n"
    ".visible .entry deadlock_bar()\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
    "  .shared .align 8 .b64 b;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 mbarrier.init.shared.b64 [b], 1;\n"
    "  bar.sync 0;\n"
    "  @!%p1 bra SECOND;\n"
    "W:\n"
    "  mbarrier.test_wait.parity.shared.b64 %p2, [b], 0;\n"
    "  @!%p2 bra W;\n"
    "  ret;\n"
    "SECOND:\n"
    "  bar.sync 1, 64;\n"
    "  mbarrier.arrive.shared.b64 _, [b];\n"
    "  ret;\n}\n";

static cb_translation *translate(const char *text, const char *file)
{
    char err[1024];
    cb_translation *tr = NULL;
    if (cb_translate_ptx(text, strlen(text), file, CB_DIALECT_C, &tr, err, sizeof err) != 0) {
        TU_CHECK(0, "translate %s: %s", file, err);
        return NULL;
    }
    return tr;
}

static void test_phases(void)
{
    cb_translation *tr = translate(ptx_phases, "phases.ptx");
    if (!tr)
        return;
    TU_CHECK(tr->kernels[0].needs_fibers == 1, "a kernel that waits on an mbarrier needs fibers");
    void *mod = tu_load(be, tr, NULL);
    if (mod) {
        for (int rep = 0; rep < 2; rep++) {   /* twice: the shared window is reused, not cleared */
            uint32_t out[5 * 64];
            memset(out, 0xff, sizeof out);
            tu_params p = {0};
            TU_PARAM(&p, (uint64_t)(uintptr_t)out);
            cb_launch_error err;
            CUresult r = tu_launch(be, mod, 0, 3, 64, p.buf, p.len, &err);
            TU_CHECK(r == CUDA_SUCCESS, "phases: %d %s", (int)r, err.message);
            for (uint32_t k = 0; k < 5 && r == CUDA_SUCCESS; k++)
                for (uint32_t i = 0; i < 64; i++)
                    if (out[k * 64 + i] != k * 100 + (i + 1) % 64) {
                        TU_CHECK(0, "phases: phase %u thread %u read %u, want %u", k, i, out[k * 64 + i],
                                 k * 100 + (i + 1) % 64);
                        k = 5;
                        break;
                    }
        }
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

static void test_counts(void)
{
    cb_translation *tr = translate(ptx_counts, "counts.ptx");
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (mod) {
        uint32_t n = sizeof counts_want / sizeof counts_want[0];
        uint32_t out[32];
        _Alignas(16) uint32_t src[8] = {100, 101, 102, 103, 104, 105, 106, 107};
        memset(out, 0xee, sizeof out);
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)out);
        TU_PARAM(&p, (uint64_t)(uintptr_t)src);
        cb_launch_error err;
        CUresult r = tu_launch(be, mod, 0, 1, 1, p.buf, p.len, &err);
        TU_CHECK(r == CUDA_SUCCESS, "counts: %d %s", (int)r, err.message);
        for (uint32_t i = 0; i < n && r == CUDA_SUCCESS; i++)
            TU_CHECK(out[i] == counts_want[i], "counts: out[%u] = %u, want %u", i, out[i], counts_want[i]);
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

static void test_parity(void)
{
    cb_translation *tr = translate(ptx_parity, "parity.ptx");
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (mod) {
        uint32_t out[32], want = 0;
        for (uint32_t i = 0; i < 40; i++)
            want += i * i + 7;
        memset(out, 0, sizeof out);
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)out);
        cb_launch_error err;
        CUresult r = tu_launch(be, mod, 0, 2, 64, p.buf, p.len, &err);
        TU_CHECK(r == CUDA_SUCCESS, "parity: %d %s", (int)r, err.message);
        for (uint32_t i = 0; i < 32 && r == CUDA_SUCCESS; i++)
            TU_CHECK(out[i] == want, "parity: consumer %u summed %u, want %u", i, out[i], want);
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

static void test_timelimit(void)
{
    cb_translation *tr = translate(ptx_timelimit, "timelimit.ptx");
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (mod) {
        uint32_t out[2] = {7, 7};
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)out);
        cb_launch_error err;
        CUresult r = tu_launch(be, mod, 0, 1, 2, p.buf, p.len, &err);
        TU_CHECK(r == CUDA_SUCCESS, "time limit: %d %s", (int)r, err.message);
        TU_CHECK(out[0] == 0 && out[1] == 1, "time limit: out = {%u, %u}, want {0, 1}", out[0], out[1]);
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

static void test_deadlocks(void)
{
    cb_translation *tr = translate(ptx_deadlock, "deadlock.ptx");
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (mod) {
        cb_launch_error err;
        CUresult r = tu_launch(be, mod, 0, 2, 2, NULL, 0, &err);
        TU_CHECK(r == CUDA_ERROR_LAUNCH_FAILED, "deadlock: %d %s", (int)r, err.message);
        TU_CHECK(strstr(err.message, "deadlock") && strstr(err.message, "wait on the mbarrier at shared offset") &&
                     strstr(err.message, "1 of 3 arrivals pending"),
                 "deadlock message: %s", err.message);
        r = tu_launch(be, mod, 1, 1, 64, NULL, 0, &err);
        TU_CHECK(r == CUDA_ERROR_LAUNCH_FAILED, "deadlock with bar.sync: %d %s", (int)r, err.message);
        TU_CHECK(strstr(err.message, "deadlock") && strstr(err.message, "barrier 1 has 63 of 64") &&
                     strstr(err.message, "1 thread (first (0,0,0)) wait on the mbarrier"),
                 "deadlock with bar.sync message: %s", err.message);
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

/* A one-kernel module whose body misuses an mbarrier; the launch must fail
 * with CUDA_ERROR_LAUNCH_FAILED and a message holding want. */
static void expect_launch_failure(const char *body, const char *want)
{
    char text[4096];
    snprintf(text, sizeof text,
             PTX_HEAD ".visible .entry k(.param .u64 g)\n{\n .reg .b32 %%r<8>; .reg .b64 %%rd<8>; .reg .pred %%p<4>;\n"
                      " .shared .align 8 .b64 b[2];\n ld.param.u64 %%rd7, [g];\n%s\n ret;\n}\n",
             body);
    cb_translation *tr = translate(text, "misuse.ptx");
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (mod) {
        uint64_t g[2] = {0, 0};
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)g);
        cb_launch_error err;
        CUresult r = tu_launch(be, mod, 0, 1, 1, p.buf, p.len, &err);
        TU_CHECK(r == CUDA_ERROR_LAUNCH_FAILED, "%s: %d %s", body, (int)r, err.message);
        TU_CHECK(strstr(err.message, want) != NULL, "%s: message '%s' lacks '%s'", body, err.message, want);
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

static void expect_translate_error(const char *body, const char *want)
{
    char text[2048], err[512];
    snprintf(text, sizeof text,
             PTX_HEAD ".visible .entry k()\n{\n .reg .b32 %%r<4>; .reg .b64 %%rd<4>; .reg .pred %%p<4>;\n%s\n ret;\n}\n",
             body);
    cb_translation *tr = NULL;
    int rc = cb_translate_ptx(text, strlen(text), "bad.ptx", CB_DIALECT_C, &tr, err, sizeof err);
    TU_CHECK(rc != 0, "%s: translated", body);
    if (rc == 0)
        cb_translation_free(tr);
    else
        TU_CHECK(strstr(err, want) != NULL, "%s: error '%s' lacks '%s'", body, err, want);
}

static void test_misuse(void)
{
    expect_launch_failure(" mov.u64 %rd1, 0;\n st.shared.u64 [b], %rd1;\n mbarrier.arrive.shared.b64 %rd2, [b];",
                          "mbarrier.arrive.shared.b64: the mbarrier object is not initialised");
    expect_launch_failure(" mbarrier.init.shared.b64 [b], 1;\n mbarrier.inval.shared.b64 [b];\n"
                          " mbarrier.test_wait.parity.shared.b64 %p1, [b], 0;",
                          "not initialised (or was invalidated)");
    expect_launch_failure(" mbarrier.init.shared.b64 [b], 1;\n mbarrier.arrive.shared::cta.b64 %rd1, [b], 2;",
                          "the count exceeds the pending arrival count");
    expect_launch_failure(" mbarrier.init.shared.b64 [b], 2;\n mbarrier.arrive.noComplete.shared.b64 %rd1, [b], 2;",
                          "would complete the phase");
    expect_launch_failure(" mbarrier.init.shared.b64 [b], 2;\n mbarrier.arrive_drop.shared::cta.b64 %rd1, [b], 3;",
                          "exceeds the expected arrival count");
    expect_launch_failure(" mov.u32 %r1, 0;\n mbarrier.init.shared.b64 [b], %r1;", "mbarrier.init: the count is not in 1");
    expect_launch_failure(" mbarrier.init.shared.b64 [b], 1048576;", "mbarrier.init: the count is not in 1");
    expect_launch_failure(" mbarrier.init.shared.b64 [b+4], 1;", "not 8-byte aligned");
    expect_launch_failure(" mbarrier.init.b64 [%rd7], 1;", "not in the block's shared memory");
    expect_launch_failure(" mbarrier.init.shared.b64 [b], 1;\n mbarrier.expect_tx.shared.b64 [b], 1048575;\n"
                          " mbarrier.expect_tx.shared.b64 [b], 1;",
                          "the tx-count leaves");
    expect_launch_failure(" mov.u64 %rd1, 0;\n st.shared.u64 [b+8], %rd1;\n cp.async.mbarrier.arrive.shared.b64 [b+8];",
                          "cp.async.mbarrier.arrive: the mbarrier object is not initialised");
    expect_launch_failure(" mbarrier.init.shared.b64 [b], 1;\n"
                          " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [b+8], [%rd7], 8, [b];",
                          "cp.async.bulk: the size and both addresses must be multiples of 16");
    expect_launch_failure(" mbarrier.init.shared.b64 [b], 1;\n"
                          " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [b], [%rd7], 64, [b];",
                          "cp.async.bulk: the destination is not in the shared memory of a block of the cluster");
}

static void test_translate_errors(void)
{
    expect_translate_error("mbarrier.test_wait.shared::cluster.b64 %p1, [%r1], %rd1;", ".shared::cluster");
    expect_translate_error("mbarrier.arrive.shared::cluster.b64 %rd1, [%r1];", "the destination must be _");
    expect_translate_error("mbarrier.init.shared.b32 [%r1], 1;", ".b64");
    expect_translate_error("mbarrier.shared.b64 [%r1];", "needs one of");
    expect_translate_error("mbarrier.init.inval.shared.b64 [%r1];", "needs one of");
    expect_translate_error("mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1, %r2;", "test_wait takes");
    expect_translate_error("mbarrier.arrive.noComplete.shared.b64 %rd1, [%r1];", "noComplete takes");
    expect_translate_error("mbarrier.init.parity.shared.b64 [%r1], 1;", ".parity goes with");
    expect_translate_error("mbarrier.test_wait.shared.b64 %p1|%p2, [%r1], %rd1;", "no second destination");
    expect_translate_error("mbarrier.try_wait.parity.phase_type::conditional.shared.b64 %p1, [%r1], 0;",
                           "unknown modifier");
    expect_translate_error("mbarrier.init.global.b64 [%rd1], 1;", "lives in shared memory");
    expect_translate_error("mbarrier.init.shared.b64 %r1, 1;", "memory operand");
    expect_translate_error("cp.async.mbarrier.arrive.shared::cluster.b64 [%r1];", ".shared::cta mbarrier");
    expect_translate_error("ldmatrix.sync.aligned.m8n8.x1.shared::cluster.b16 {%r1}, [%r2];", "shared memory");
    expect_translate_error("cp.async.ca.shared.global.b32 [%r1], [%rd1], 4;", "cp.async takes no type");
    expect_translate_error("cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 16, [%r2];",
                           "a memory operand is not allowed here");
    expect_translate_error("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
                           "[%r1], [%rd1], 16, [%r2];", "wrong operands for the form");
    expect_translate_error("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 16, %r2;",
                           "memory operand");
    /* kernels that only arrive run as plain loops */
    static const char arrive_only[] = PTX_HEAD ".visible .entry k()\n{\n .reg .b64 %rd<2>;\n"
                                      " .shared .align 8 .b64 b;\n mbarrier.init.shared.b64 [b], 1;\n"
                                      " mbarrier.arrive.shared.b64 %rd1, [b];\n ret;\n}\n";
    cb_translation *tr = translate(arrive_only, "arrive_only.ptx");
    if (tr) {
        TU_CHECK(tr->kernels[0].needs_fibers == 0, "a kernel that only arrives needs no fibers");
        void *mod = tu_load(be, tr, NULL);
        if (mod) {
            cb_launch_error err;
            CUresult r = tu_launch(be, mod, 0, 2, 3, NULL, 0, &err);
            TU_CHECK(r == CUDA_SUCCESS, "arrive only: %d %s", (int)r, err.message);
            be->module_unload(be, mod);
        }
        cb_translation_free(tr);
    }
}

int main(void)
{
    char dir[256];
    tu_fresh_cache(dir, sizeof dir);
    be = cb_backend_cpu_create();
    if (!be) {
        fprintf(stderr, "no CPU backend\n");
        return 1;
    }
    test_phases();
    test_counts();
    test_parity();
    test_timelimit();
    test_deadlocks();
    test_misuse();
    test_translate_errors();
    be->shutdown(be);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (tu_failures)
        fprintf(stderr, "%d failure(s)\n", tu_failures);
    return tu_failures ? 1 : 0;
}
