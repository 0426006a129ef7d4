/* test_cpu_cluster: thread block clusters through the real pipeline (PTX ->
 * C -> CPU backend, kernel ABI 9):
 *   - the cluster registers, in a cluster launch (2x2x1 of a 4x2x1 grid)
 *     and without one (clusters of one block, not explicit);
 *   - barrier.cluster between phases: every block writes its shared memory,
 *     then reads its neighbour's through mapa (generic and .shared::cluster
 *     addresses, ld.shared::cluster), over several phases;
 *   - remote atomics (atom/red.shared::cluster) into rank 0's window;
 *   - getctarank, isspacep.shared::cluster, cvta to and from .shared::cluster;
 *   - an mbarrier in rank 0 completed by st.async from the other blocks;
 *   - exited threads leave the barrier (threads that return early);
 *   - a cluster barrier that can never complete is a deadlock, not a hang;
 *   - misuse: arrive twice, wait without arrive, a rank outside the cluster;
 *   - launches refused: a cluster that does not divide the grid, more than
 *     16 blocks, a cooperative launch with a cluster. */
#include "test_cpu_util.h"

#include "codegen/translate.h"

static cb_backend *be;

#define PTX_HEAD ".version 8.4\n.target sm_90\n.address_size 64\n"

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

static CUresult launch_cluster(void *mod, uint32_t k, const uint32_t grid[3], uint32_t threads, const uint32_t cl[3],
                               const void *params, uint32_t param_bytes, cb_launch_error *err)
{
    cb_launch_config cfg;
    memset(&cfg, 0, sizeof cfg);
    memcpy(cfg.grid, grid, sizeof cfg.grid);
    cfg.block[0] = threads;
    cfg.block[1] = cfg.block[2] = 1;
    if (cl)
        memcpy(cfg.cluster, cl, sizeof cfg.cluster);
    cfg.params = params;
    cfg.param_bytes = param_bytes;
    memset(err, 0, sizeof *err);
    return be->launch(be, mod, k, &cfg, err);
}

/* out[8 * block + ...] = the cluster registers, thread 0 of each block */
static const char ptx_regs[] = PTX_HEAD
    ".visible .entry regs(.param .u64 out)\n{\n"
    "  .reg .b32 %r<16>; .reg .b64 %rd<8>; .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra DONE;\n"
    "  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ctaid.y; mov.u32 %r4, %nctaid.x;\n"
    "  mad.lo.u32 %r5, %r3, %r4, %r2;\n"
    "  mul.wide.u32 %rd2, %r5, 32;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  mov.u32 %r6, %cluster_ctarank; st.global.u32 [%rd3], %r6;\n"
    "  mov.u32 %r6, %cluster_nctarank; st.global.u32 [%rd3+4], %r6;\n"
    "  mov.u32 %r6, %cluster_ctaid.x; mov.u32 %r7, %cluster_ctaid.y; shl.b32 %r7, %r7, 8; or.b32 %r6, %r6, %r7;\n"
    "  st.global.u32 [%rd3+8], %r6;\n"
    "  mov.u32 %r6, %cluster_nctaid.x; mov.u32 %r7, %cluster_nctaid.y; shl.b32 %r7, %r7, 8; or.b32 %r6, %r6, %r7;\n"
    "  st.global.u32 [%rd3+12], %r6;\n"
    "  mov.u32 %r6, %clusterid.x; mov.u32 %r7, %clusterid.y; shl.b32 %r7, %r7, 8; or.b32 %r6, %r6, %r7;\n"
    "  st.global.u32 [%rd3+16], %r6;\n"
    "  mov.u32 %r6, %nclusterid.x; mov.u32 %r7, %nclusterid.y; shl.b32 %r7, %r7, 8; or.b32 %r6, %r6, %r7;\n"
    "  st.global.u32 [%rd3+20], %r6;\n"
    "  mov.u32 %r6, %is_explicit_cluster; st.global.u32 [%rd3+24], %r6;\n"
    "  mov.u32 %r6, %cluster_nctaid.z; st.global.u32 [%rd3+28], %r6;\n"
    "DONE:\n  ret;\n}\n";

static void test_registers(void)
{
    cb_translation *tr = translate(ptx_regs, "regs.ptx");
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (mod) {
        uint32_t out[8 * 8], grid[3] = {4, 2, 1}, cl[3] = {2, 2, 1};
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)out);
        cb_launch_error err;
        for (int explicit = 1; explicit >= 0; explicit--) {
            memset(out, 0xee, sizeof out);
            CUresult r = launch_cluster(mod, 0, grid, 32, explicit ? cl : NULL, p.buf, p.len, &err);
            TU_CHECK(r == CUDA_SUCCESS, "regs launch (explicit %d): %d %s", explicit, (int)r, err.message);
            for (uint32_t y = 0; y < 2 && r == CUDA_SUCCESS; y++)
                for (uint32_t x = 0; x < 4; x++) {
                    const uint32_t *o = out + 8 * (4 * y + x);
                    uint32_t cx = explicit ? x % 2 : 0, cy = explicit ? y % 2 : 0;
                    uint32_t want[8] = {explicit ? cx + 2 * cy : 0, explicit ? 4u : 1u, cx | cy << 8,
                                        explicit ? 2u | 2u << 8 : 1u | 1u << 8,
                                        explicit ? (x / 2) | (y / 2) << 8 : x | y << 8,
                                        explicit ? 2u | 1u << 8 : 4u | 2u << 8, (uint32_t)explicit, 1};
                    for (int i = 0; i < 8; i++)
                        TU_CHECK(o[i] == want[i], "explicit %d block (%u,%u) register %d: %u, expected %u", explicit, x,
                                 y, i, o[i], want[i]);
                }
        }
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

/* Over 5 phases every thread writes v = 1000 * phase + 100 * rank + tid to its
 * shared slot, the cluster meets, and it reads the slot of the same tid in the
 * next rank's window (through mapa.u64 in even phases, mapa.shared::cluster and
 * ld.shared::cluster in odd ones); out[(phase * blocks + block) * 64 + tid]. */
static const char ptx_exchange[] = PTX_HEAD
    ".visible .entry exchange(.param .u64 out)\n{\n"
    "  .reg .b32 %r<24>; .reg .b64 %rd<12>; .reg .pred %p<4>;\n"
    "  .shared .align 4 .b32 slots[64];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %cluster_ctarank;\n"
    "  mov.u32 %r3, %cluster_nctarank;\n"
    "  add.u32 %r4, %r2, 1;\n"
    "  rem.u32 %r4, %r4, %r3;\n"                       /* the next rank */
    "  mov.u32 %r5, slots;\n"
    "  shl.b32 %r6, %r1, 2;\n"
    "  add.u32 %r7, %r5, %r6;\n"                       /* my slot, .shared::cta */
    "  mov.u64 %rd3, slots;\n"
    "  cvta.shared.u64 %rd3, %rd3;\n"
    "  mul.wide.u32 %rd4, %r6, 1;\n"
    "  add.u64 %rd3, %rd3, %rd4;\n"                    /* my slot, generic */
    "  mov.u32 %r8, 0;\n"
    "PHASE:\n"
    "  mad.lo.u32 %r9, %r8, 1000, %r1;\n"
    "  mad.lo.u32 %r9, %r2, 100, %r9;\n"
    "  st.shared.u32 [%r7], %r9;\n"
    "  barrier.cluster.arrive.release.aligned;\n"
    "  barrier.cluster.wait.acquire.aligned;\n"
    "  and.b32 %r10, %r8, 1;\n"
    "  setp.eq.u32 %p1, %r10, 0;\n"
    "  @!%p1 bra ODD;\n"
    "  mapa.u64 %rd5, %rd3, %r4;\n"
    "  ld.u32 %r11, [%rd5];\n"
    "  bra.uni GOT;\n"
    "ODD:\n"
    "  mapa.shared::cluster.u32 %r12, %r7, %r4;\n"
    "  ld.shared::cluster.u32 %r11, [%r12];\n"
    "GOT:\n"
    "  mov.u32 %r13, %ctaid.x;\n"
    "  mov.u32 %r14, %nctaid.x;\n"
    "  mad.lo.u32 %r15, %r8, %r14, %r13;\n"
    "  mad.lo.u32 %r15, %r15, 64, %r1;\n"
    "  mul.wide.u32 %rd6, %r15, 4;\n"
    "  add.u64 %rd7, %rd1, %rd6;\n"
    "  st.global.u32 [%rd7], %r11;\n"
    "  barrier.cluster.arrive;\n"                      /* nobody overwrites a slot still being read */
    "  barrier.cluster.wait;\n"
    "  add.u32 %r8, %r8, 1;\n"
    "  setp.lt.u32 %p2, %r8, 5;\n"
    "  @%p2 bra PHASE;\n"
    "  ret;\n}\n";

static void test_exchange(void)
{
    cb_translation *tr = translate(ptx_exchange, "exchange.ptx");
    if (!tr)
        return;
    TU_CHECK(tr->kernels[0].needs_fibers == 1, "barrier.cluster needs fibers");
    void *mod = tu_load(be, tr, NULL);
    static const uint32_t sizes[] = {2, 4, 8};
    for (size_t s = 0; mod && s < sizeof sizes / sizeof sizes[0]; s++) {
        uint32_t n = sizes[s], blocks = 8, grid[3] = {blocks, 1, 1}, cl[3] = {n, 1, 1};
        static uint32_t out[5 * 8 * 64];
        memset(out, 0xee, sizeof out);
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)out);
        cb_launch_error err;
        CUresult r = launch_cluster(mod, 0, grid, 64, cl, p.buf, p.len, &err);
        TU_CHECK(r == CUDA_SUCCESS, "exchange, clusters of %u: %d %s", n, (int)r, err.message);
        int bad = 0;
        for (uint32_t ph = 0; ph < 5 && r == CUDA_SUCCESS && !bad; ph++)
            for (uint32_t b = 0; b < blocks && !bad; b++)
                for (uint32_t t = 0; t < 64 && !bad; t++) {
                    uint32_t next = (b % n + 1) % n, want = 1000 * ph + 100 * next + t;
                    uint32_t got = out[(ph * blocks + b) * 64 + t];
                    bad = got != want;
                    TU_CHECK(!bad, "clusters of %u: phase %u block %u thread %u read %u, expected %u", n, ph, b, t,
                             got, want);
                }
    }
    if (mod)
        be->module_unload(be, mod);
    cb_translation_free(tr);
}

/* Every thread of every block adds 1 (atom) and 2 (red) to rank 0's counter
 * through a .shared::cluster address; rank 0 reports it after the barrier;
 * also getctarank, isspacep.shared::cluster and cvta to/from .shared::cluster.
 * Threads with tid >= 48 return before the first barrier: they must not hold
 * it up. */
static const char ptx_atomics[] = PTX_HEAD
    ".visible .entry atomics(.param .u64 out)\n{\n"
    "  .reg .b32 %r<24>; .reg .b64 %rd<12>; .reg .pred %p<6>;\n"
    "  .shared .align 4 .b32 counter;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %cluster_ctarank;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 st.shared.u32 [counter], 0;\n"
    "  setp.ge.u32 %p2, %r1, 48;\n"
    "  @%p2 ret;\n"
    "  barrier.cluster.arrive;\n"
    "  barrier.cluster.wait;\n"
    "  mov.u32 %r3, counter;\n"
    "  mapa.shared::cluster.u32 %r4, %r3, 0;\n"
    "  atom.shared::cluster.add.u32 %r5, [%r4], 1;\n"
    "  red.shared::cluster.add.u32 [%r4], 2;\n"
    "  barrier.cluster.arrive;\n"
    "  barrier.cluster.wait;\n"
    "  @!%p1 ret;\n"
    "  mov.u32 %r6, %ctaid.x;\n"
    "  mul.wide.u32 %rd2, %r6, 32;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.shared.u32 %r7, [counter];\n"
    "  st.global.u32 [%rd3], %r7;\n"
    "  getctarank.shared::cluster.u32 %r8, %r4;\n"     /* 0 */
    "  st.global.u32 [%rd3+4], %r8;\n"
    "  mov.u64 %rd4, counter;\n"
    "  cvta.shared.u64 %rd4, %rd4;\n"
    "  mapa.u64 %rd5, %rd4, 1;\n"
    "  getctarank.u64 %r9, %rd5;\n"                    /* 1 */
    "  st.global.u32 [%rd3+8], %r9;\n"
    "  isspacep.shared::cluster %p3, %rd5;\n"
    "  isspacep.shared %p4, %rd5;\n"                   /* not this block's own window unless rank 1 */
    "  selp.u32 %r10, 1, 0, %p3; st.global.u32 [%rd3+12], %r10;\n"
    "  selp.u32 %r10, 1, 0, %p4; st.global.u32 [%rd3+16], %r10;\n"
    "  cvta.to.shared::cluster.u64 %rd6, %rd5;\n"
    "  cvt.u32.u64 %r11, %rd6;\n"
    "  getctarank.shared::cluster.u32 %r12, %r11;\n"    /* 1 again */
    "  st.global.u32 [%rd3+20], %r12;\n"
    "  cvta.shared::cluster.u64 %rd7, %rd6;\n"
    "  setp.eq.u64 %p5, %rd7, %rd5;\n"
    "  selp.u32 %r10, 1, 0, %p5; st.global.u32 [%rd3+24], %r10;\n"
    "  isspacep.shared::cluster %p3, %rd1;\n"          /* global memory: no */
    "  selp.u32 %r10, 1, 0, %p3; st.global.u32 [%rd3+28], %r10;\n"
    "  ret;\n}\n";

static void test_atomics(void)
{
    cb_translation *tr = translate(ptx_atomics, "atomics.ptx");
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (mod) {
        uint32_t out[8 * 4], grid[3] = {4, 1, 1}, cl[3] = {2, 1, 1};
        memset(out, 0xee, sizeof out);
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)out);
        cb_launch_error err;
        CUresult r = launch_cluster(mod, 0, grid, 64, cl, p.buf, p.len, &err);
        TU_CHECK(r == CUDA_SUCCESS, "atomics: %d %s", (int)r, err.message);
        for (uint32_t b = 0; b < 4 && r == CUDA_SUCCESS; b++) {
            const uint32_t *o = out + 8 * b;
            uint32_t rank = b % 2;
            /* 2 blocks x 48 threads x (1 + 2) into rank 0's counter; rank 1's stays 0 */
            uint32_t want[8] = {rank ? 0u : 2 * 48 * 3, 0, 1, 1, rank == 1, 1, 1, 0};
            for (int i = 0; i < 8; i++)
                TU_CHECK(o[i] == want[i], "atomics block %u word %d: %u, expected %u", b, i, o[i], want[i]);
        }
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

/* Rank 0 inits an mbarrier expecting one arrival and 4 * (n - 1) bytes;
 * every other rank's thread 0 st.async's its rank into rank 0's slots[rank]
 * completing 4 bytes on that mbarrier; rank 0 arrives (with expect_tx) and
 * waits on the parity, then reports the slots. The cluster barrier orders
 * init before the stores. */
static const char ptx_st_async[] = PTX_HEAD
    ".visible .entry sta(.param .u64 out)\n{\n"
    "  .reg .b32 %r<24>; .reg .b64 %rd<12>; .reg .pred %p<6>;\n"
    "  .shared .align 8 .b64 bar;\n"
    "  .shared .align 4 .b32 slots[8];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %cluster_ctarank;\n"
    "  mov.u32 %r3, %cluster_nctarank;\n"
    "  or.b32 %r4, %r1, %r2;\n"
    "  setp.eq.u32 %p1, %r4, 0;\n"                     /* rank 0, thread 0 */
    "  @%p1 mbarrier.init.shared.b64 [bar], 1;\n"
    "  barrier.cluster.arrive; barrier.cluster.wait;\n"
    "  setp.ne.u32 %p2, %r1, 0;\n"
    "  @%p2 bra END;\n"
    "  setp.eq.u32 %p3, %r2, 0;\n"
    "  @%p3 bra WAITER;\n"
    "  mov.u32 %r5, slots;\n"
    "  shl.b32 %r6, %r2, 2;\n"
    "  add.u32 %r5, %r5, %r6;\n"
    "  mapa.shared::cluster.u32 %r7, %r5, 0;\n"
    "  mov.u32 %r8, bar;\n"
    "  mapa.shared::cluster.u32 %r9, %r8, 0;\n"
    "  add.u32 %r10, %r2, 40;\n"
    "  st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%r7], %r10, [%r9];\n"
    "  bra.uni END;\n"
    "WAITER:\n"
    "  sub.u32 %r11, %r3, 1;\n"
    "  shl.b32 %r11, %r11, 2;\n"
    "  mbarrier.arrive.expect_tx.shared.b64 _, [bar], %r11;\n"
    "LOOP:\n"
    "  mbarrier.try_wait.parity.shared.b64 %p4, [bar], 0;\n"
    "  @!%p4 bra LOOP;\n"
    "  mov.u32 %r12, 1;\n"
    "STORE:\n"
    "  mov.u32 %r13, slots;\n"
    "  shl.b32 %r14, %r12, 2;\n"
    "  add.u32 %r13, %r13, %r14;\n"
    "  ld.shared.u32 %r15, [%r13];\n"
    "  mul.wide.u32 %rd2, %r12, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r15;\n"
    "  add.u32 %r12, %r12, 1;\n"
    "  setp.lt.u32 %p5, %r12, %r3;\n"
    "  @%p5 bra STORE;\n"
    "END:\n"
    "  barrier.cluster.arrive; barrier.cluster.wait;\n"
    "  ret;\n}\n";

static void test_st_async(void)
{
    cb_translation *tr = translate(ptx_st_async, "sta.ptx");
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (mod) {
        uint32_t out[8], grid[3] = {4, 1, 1}, cl[3] = {4, 1, 1};
        memset(out, 0, sizeof out);
        tu_params p = {0};
        TU_PARAM(&p, (uint64_t)(uintptr_t)out);
        cb_launch_error err;
        CUresult r = launch_cluster(mod, 0, grid, 32, cl, p.buf, p.len, &err);
        TU_CHECK(r == CUDA_SUCCESS, "st.async: %d %s", (int)r, err.message);
        for (uint32_t i = 1; i < 4 && r == CUDA_SUCCESS; i++)
            TU_CHECK(out[i] == 40 + i, "st.async slot %u: %u, expected %u", i, out[i], 40 + i);
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

static void expect_failure(const char *body, const uint32_t cl[3], uint32_t blocks, CUresult want_r, const char *want)
{
    char text[4096];
    snprintf(text, sizeof text,
             PTX_HEAD ".visible .entry k()\n{\n .reg .b32 %%r<8>; .reg .b64 %%rd<8>; .reg .pred %%p<4>;\n"
                      " .shared .align 8 .b64 s[4];\n%s\n ret;\n}\n",
             body);
    cb_translation *tr = translate(text, "fail.ptx");
    if (!tr)
        return;
    void *mod = tu_load(be, tr, NULL);
    if (mod) {
        uint32_t grid[3] = {blocks, 1, 1};
        cb_launch_error err;
        CUresult r = launch_cluster(mod, 0, grid, 32, cl, NULL, 0, &err);
        TU_CHECK(r == want_r, "%s: %d (%s), expected %d", body, (int)r, err.message, (int)want_r);
        TU_CHECK(strstr(err.message, want) != NULL, "%s: message '%s' lacks '%s'", body, err.message, want);
        be->module_unload(be, mod);
    }
    cb_translation_free(tr);
}

static void test_failures(void)
{
    static const uint32_t two[3] = {2, 1, 1}, three[3] = {3, 1, 1}, big[3] = {17, 1, 1};
    /* block 1 of each cluster waits at the barrier, block 0 at a barrier only it can pass: deadlock */
    /* rank 0 waits on an mbarrier that never completes, rank 1 at the cluster barrier for rank 0: after
     * the waits' time limits expire without progress, the cluster is deadlocked */
    expect_failure(" mov.u32 %r1, %cluster_ctarank;\n mov.u32 %r2, %tid.x;\n setp.eq.u32 %p1, %r1, 0;\n"
                   " @!%p1 bra CL;\n setp.eq.u32 %p2, %r2, 0;\n @%p2 mbarrier.init.shared.b64 [s], 1000;\n"
                   " bar.sync 0;\n mbarrier.arrive.shared.b64 %rd1, [s];\n"
                   "W:\n mbarrier.test_wait.shared.b64 %p3, [s], %rd1;\n @!%p3 bra W;\n"
                   "CL:\n barrier.cluster.arrive;\n barrier.cluster.wait;",
                   two, 4, CUDA_ERROR_LAUNCH_FAILED, "deadlock");
    expect_failure(" barrier.cluster.arrive;\n barrier.cluster.arrive;", two, 2, CUDA_ERROR_LAUNCH_FAILED,
                   "barrier.cluster.arrive twice");
    expect_failure(" barrier.cluster.wait;", two, 2, CUDA_ERROR_LAUNCH_FAILED, "without a barrier.cluster.arrive");
    expect_failure(" mov.u32 %r1, s;\n mapa.shared::cluster.u32 %r2, %r1, 2;", two, 2, CUDA_ERROR_LAUNCH_FAILED,
                   "the rank is not that of a block of the cluster");
    expect_failure(" mov.u64 %rd1, s;\n cvta.shared.u64 %rd1, %rd1;\n mapa.u64 %rd2, %rd1, 5;", two, 2,
                   CUDA_ERROR_LAUNCH_FAILED, "the rank is not that of a block of the cluster");
    expect_failure(" getctarank.u64 %r1, %rd1;", two, 2, CUDA_ERROR_LAUNCH_FAILED,
                   "getctarank: the address is not in the shared memory of a block of the cluster");
    expect_failure(" ret;", three, 4, CUDA_ERROR_INVALID_CLUSTER_SIZE, "does not divide the grid");
    expect_failure(" ret;", big, 17, CUDA_ERROR_INVALID_CLUSTER_SIZE, "over 16");
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
    test_registers();
    test_exchange();
    test_atomics();
    test_st_async();
    test_failures();
    be->shutdown(be);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (tu_failures)
        fprintf(stderr, "%d failure(s)\n", tu_failures);
    return tu_failures ? 1 : 0;
}
